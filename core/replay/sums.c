/*
 * sums.c - sums the replay needs, from the verifier's breakpoint pieces
 * (no second pass over the bytes), with in-place RCO writes applied.
 *
 * When bytes were not captured a sum is unknown; a check that needs it is
 * decided by the configured assumption and flagged (CSC_W_ASSUMED).
 */
#include "replay.h"

/* Whether [a, b) holds only zero bytes (patched fields as they are now) */
static bool region_zero(const struct rp *rp, uint32_t a, uint32_t b)
{
    for (unsigned i = 0; i < rp->npatch; i++)
        if (rp->patch[i].off >= a && rp->patch[i].off + CSUM_LEN <= b && rp->patch[i].cur)
            return false;
    for (uint32_t o = a; o < b; o++) {
        uint8_t v = 0;
        bool patched = false;
        for (unsigned i = 0; i < rp->npatch; i++)
            patched |= o >= rp->patch[i].off && o < rp->patch[i].off + CSUM_LEN;
        if (!patched && (!pkt_u8(&rp->p, o, &v) || v))
            return false;
    }
    return true;
}

bool rp_region(const struct rp *rp, uint32_t a, uint32_t b, uint32_t *sum)
{
    if (b < a || !csc_region_sum(rp->vals, a, b, sum))
        return false;
    for (unsigned i = 0; i < rp->npatch; i++) {
        const struct field_patch *fp = &rp->patch[i];
        if (fp->off >= a && fp->off + CSUM_LEN <= b) {
            *sum = csum_sub(*sum, csum_word_at(fp->old, fp->off - a));
            *sum = csum_add(*sum, csum_word_at(fp->cur, fp->off - a));
        }
    }
    /* csum_partial adds from +0 with end-around carry: only zero bytes sum
     * to +0 (which csum_fold makes 0xffff, invalid); the prefix sums'
     * difference says -0 for them. It matters where nothing else is added
     * (an ICMPv4 header of zeros: icmp_rcv's ICMP_CSUM). */
    if (fold16(*sum) == 0xffff && region_zero(rp, a, b))
        *sum = 0;
    return true;
}

int rp_check(struct rp *rp, uint8_t layer, bool known, uint32_t total)
{
    if (known)
        return csum_fold(total) == 0;
    rp->k->warnings |= CSC_W_ASSUMED;
    if (layer < rp->r->nlayers)
        L(rp, layer)->k.assumed = 1;
    return !rp->cfg->assume_bad;
}

void rp_patch(struct rp *rp, uint32_t off, uint16_t old, uint16_t cur)
{
    for (unsigned i = 0; i < rp->npatch; i++)
        if (rp->patch[i].off == off) {
            rp->patch[i].cur = cur;
            return;
        }
    if (rp->npatch < sizeof rp->patch / sizeof rp->patch[0])
        rp->patch[rp->npatch++] = (struct field_patch){ off, old, cur };
}

void rp_unpatch(struct rp *rp, uint32_t off)
{
    for (unsigned i = 0; i < rp->npatch; i++)
        if (rp->patch[i].off == off) {
            rp->patch[i] = rp->patch[--rp->npatch];
            return;
        }
}

uint16_t rp_field(const struct rp *rp, const struct csc_layer *l)
{
    for (unsigned i = 0; i < rp->npatch; i++)
        if (rp->patch[i].off == l->csum_off)
            return rp->patch[i].cur;
    return rp->vals->layers[l - rp->r->layers].field;   /* a value: from the result */
}
