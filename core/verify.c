/*
 * verify.c - the raw verdict of every checksummed layer, in one pass.
 *
 * Every checksummed region is a suffix of its IP payload (bounded by the
 * layer's own length), so the decoder records the region edges as
 * breakpoints. One pass sums each piece between consecutive breakpoints;
 * any region is then a ones'-complement combination of pieces
 * (csum_block_add rotates pieces that start at an odd distance), exactly how
 * CHECKSUM_COMPLETE lets the kernel peel headers off a device sum. The
 * replay reuses the same pieces: no byte is summed twice.
 *
 * Verdicts (design.md): good, bad (+ expected), none, zero6, partial (the
 * field holds the pseudo-header seed), lco (outer right once the inner
 * partial fields are filled, lco_csum in include/linux/skbuff.h), rco (RCO
 * seed that remcsum_adjust, include/net/checksum.h, resolves to the right
 * value), unverifiable.
 */
#include "csum.h"
#include "pkt.h"
#include "proto/wire.h"
#include "sums.h"
#include "values.h"
#include "verify.h"

#include "csumcheck/csumcheck.h"
#include "proto/protos.h"

#include <string.h>

/* Merge the ascending header edges with the (few) other points into one
 * sorted, duplicate-free list of breakpoints, in place. The side list holds
 * each value once (sums_side). */
static void merge_breaks(struct csc_sums *s)
{
    uint32_t *e = s->ends;
    unsigned ne = s->nends;
    for (unsigned i = 1; i < ne; i++) {           /* a handful: insertion sort */
        uint32_t v = e[i];
        unsigned j = i;
        while (j > 0 && e[j - 1] > v) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = v;
    }
    /* The usual frame: every other point lies at or after the last header
     * edge (the end of the packet, the end of the capture): an append, and
     * the header edges keep their indices (csc_sums.at). */
    if (!ne || !s->n || e[0] >= s->bp[s->n - 1]) {
        unsigned n = s->n, k = n && e[0] == s->bp[n - 1];
        unsigned lim = n + (ne - k) > CSC_MAX_BREAKS ? CSC_MAX_BREAKS - n + k : ne;
        for (; k < lim; k++)
            s->bp[n++] = e[k];
        s->n = (uint16_t)n;
        s->nends = 0;
        return;
    }
    if (s->n + ne > CSC_MAX_BREAKS)
        ne = CSC_MAX_BREAKS - s->n;
    /* backwards, like merging into the larger array */
    int i = (int)s->n - 1, j = (int)ne - 1, w = (int)(s->n + ne) - 1;
    while (j >= 0) {
        if (i >= 0 && s->bp[i] > e[j])
            s->bp[w--] = s->bp[i--];
        else
            s->bp[w--] = e[j--];
    }
    unsigned n = 0, total = s->n + ne;
    for (unsigned k = 0; k < total; k++)
        if (!n || s->bp[n - 1] != s->bp[k])
            s->bp[n++] = s->bp[k];
    s->n = (uint16_t)n;
    s->nends = 0;
}

/* Index of breakpoint v, -1 if it is not one. The list is sorted and
 * duplicate-free (merge_breaks): a branchless binary search for the last
 * breakpoint <= v (a linear scan's early exits mispredict). */
static int find_bp(const struct csc_sums *s, uint32_t v)
{
    unsigned n = s->n;
    if (!n)
        return -1;
    const uint32_t *base = s->bp;
    while (n > 1) {
        unsigned half = n / 2;
        base = base[half] <= v ? base + half : base;
        n -= half;
    }
    return *base == v ? (int)(base - s->bp) : -1;
}

/* The sum of [bp[ia], bp[ib]) from the prefix sums. Prefix sums are aligned
 * to bp[0]: a region that starts an odd distance away is byte-rotated, as
 * csum_block_add does. */
static inline bool sum_between(const struct csc_sums *s, int ia, int ib, uint32_t *sum)
{
    if (ia < 0 || ib < 0 || ib < ia || ib > s->npieces)
        return false;
    uint32_t d = ia == ib ? 0 : csum_sub(s->prefix[ib], s->prefix[ia]);
    *sum = ((s->bp[ia] - s->bp[0]) & 1) ? ror32(d, 8) : d;
    return true;
}

bool csc_region_sum(const struct csc_result *r, uint32_t a, uint32_t b, uint32_t *sum)
{
    const struct csc_sums *s = &r->sums;
    return sum_between(s, find_bp(s, a), find_bp(s, b), sum);
}

/* The covered region of layer i: it starts at a breakpoint the decoder
 * noted (the layer's first byte) and mostly ends at the end of what was
 * summed or at the layer's header end; a binary search otherwise. */
void verify_region_at(const struct csc_result *r, unsigned i, int *pia, int *pib)
{
    const struct csc_sums *s = &r->sums;
    const struct csc_layer *l = &r->layers[i];
    unsigned h = s->at[i];
    int ia = h < s->n && s->bp[h] == l->cov_off ? (int)h : find_bp(s, l->cov_off);
    int ib;
    if (!s->n)
        ia = ib = -1;
    else if (s->bp[s->npieces] == l->cov_end)
        ib = s->npieces;
    else if (ia >= 0 && (unsigned)ia + 1 < s->n && s->bp[ia + 1] == l->cov_end)
        ib = ia + 1;
    else
        ib = find_bp(s, l->cov_end);
    *pia = ia;
    *pib = ib;
}

static bool layer_region_sum(const struct csc_result *r, unsigned i, uint32_t *sum)
{
    int ia, ib;
    verify_region_at(r, i, &ia, &ib);
    return sum_between(&r->sums, ia, ib, sum);
}

/* The native sum of a short span (a header, a small payload): 32-bit words
 * in two chains, then what is left (see csum_native in csum.h). */
static inline uint64_t sum_short(const uint8_t *p, uint32_t n)
{
    uint64_t a0 = 0, a1 = 0;
    uint32_t i = 0;
    for (; i + 16 <= n; i += 16) {   /* 16 bytes a step: half the loop's own work */
        uint32_t w0, w1, w2, w3;
        memcpy(&w0, p + i, 4);
        memcpy(&w1, p + i + 4, 4);
        memcpy(&w2, p + i + 8, 4);
        memcpy(&w3, p + i + 12, 4);
        a0 += (uint64_t)w0 + w2;
        a1 += (uint64_t)w1 + w3;
    }
    if (n & 8) {
        uint32_t w0, w1;
        memcpy(&w0, p + i, 4);
        memcpy(&w1, p + i + 4, 4);
        a0 += w0;
        a1 += w1;
        i += 8;
    }
    if (n & 4) {
        uint32_t w;
        memcpy(&w, p + i, 4);
        a0 += w;
        i += 4;
    }
    if (n & 2) {
        uint16_t w;
        memcpy(&w, p + i, 2);
        a1 += w;
        i += 2;
    }
    if (n & 1)
        a0 += csum_native_byte(p[i]);
    return a0 + a1;
}

/* The single pass: each piece between consecutive breakpoints is summed
 * once (native words, no fold) and accumulated into prefix sums
 * (csc_region_sum subtracts them). */
static void sum_pieces(const struct pkt *p, struct csc_sums *s)
{
    sums_side(s, p->caplen);   /* pieces stop where the capture does */
    merge_breaks(s);
    verify_sum_pass(p, s);
}

void verify_sum_pass(const struct pkt *p, struct csc_sums *s)
{
    s->npieces = 0;
    s->bytes_summed = 0;
    if (!s->n)
        return;
    uint64_t acc = 0;
    uint32_t base = s->bp[0];
    s->prefix[0] = 0;
    unsigned i = 0;
    for (; i + 1 < s->n; i++) {
        uint32_t a = s->bp[i], b = s->bp[i + 1];
        const uint8_t *span = pkt_sum_span(p, a, b - a);
        if (!span)
            break;
        uint64_t piece = b - a < 64 ? sum_short(span, b - a) : csum_native(span, b - a);
        if ((a - base) & 1)
            piece = rol64(piece, 8);
        acc = csum_native_add(acc, piece);
        s->prefix[i + 1] = csum_native_to_canonical(csum_native64_fold(acc));
    }
    s->npieces = (uint16_t)i;
    s->bytes_summed = s->bp[i] - base;
}

static bool has_pseudo(const struct csc_layer *l)
{
    return layer_row(l)->pub.flags & CSC_PF_PSEUDO_HDR;
}

static bool under_ipv6(const struct csc_result *r, const struct csc_layer *l)
{
    return l->ip != CSC_NO_LAYER && r->layers[l->ip].proto == CSC_P_IPV6;
}

/* Sum of the covered region of layer i with the checksum field read as zero. */
static bool sum_without_field(const struct csc_result *r, unsigned i, uint32_t *s0, uint32_t *s)
{
    const struct csc_layer *l = &r->layers[i];
    if (!layer_region_sum(r, i, s))
        return false;
    *s0 = csum_sub(*s, csum_word_at(l->field, l->csum_off - l->cov_off));
    return true;
}

static bool region_all_zero(const struct pkt *p, const struct csc_layer *l)
{
    for (uint64_t o = l->cov_off; o < l->cov_end; o++) {
        uint8_t b = 0;
        if (!pkt_u8(p, o, &b) || b)
            return false;
    }
    return true;
}

static uint16_t payload_mss(const struct csc_result *r, const struct csc_layer *tcp)
{
    if (tcp->u.tcp.mss)
        return tcp->u.tcp.mss;
    uint32_t ip_hdr = tcp->ip != CSC_NO_LAYER ? r->layers[tcp->ip].hdr_len : IPV4_HLEN;
    uint32_t mtu_payload = ETH_DATA_LEN - ip_hdr - tcp->hdr_len;
    return (uint16_t)mtu_payload;
}

/* A transport under an IP header whose length says more than the frame
 * holds (the IP layer's len-exceeds-frame; the kernel drops the packet in
 * ip_rcv_core whatever follows): what the bytes present can prove. A UDP
 * datagram whose own length fits is whole: its verdict stands, good or bad.
 * A checksum whose extent comes from the IP length (TCP, ICMP, GRE) summed
 * over the bytes present and found right proves the segment whole (the IP
 * length is the one that lies); found wrong it proves nothing (the missing
 * bytes may make it right): unverifiable/len-mismatch. tshark 4.0 says good
 * or bad over the bytes present in both cases (docs/verdict-differences.md,
 * ip-length-exceeds). A layer whose own length lies is not judged. */
static void verify_short_ip(struct csc_layer *l, bool right)
{
    if (l->notes & (CSC_N_LEN_EXCEEDS | CSC_N_LEN_SHORT))
        return;
    if (right) {
        l->verdict = CSC_V_GOOD;
        l->reason = CSC_R_NONE;
    } else if (l->proto == CSC_P_UDP) {
        l->verdict = CSC_V_BAD;
        l->reason = CSC_R_MISMATCH;
    }
}

void verify_layer(struct csc_result *r, const struct pkt *p, unsigned i)
{
    struct csc_layer *l = &r->layers[i];
    uint32_t s, s0;
    if (l->csum_off == CSC_NO_OFF)
        return;
    bool preset = l->verdict != CSC_V_NA;
    if (!pkt_val_be16(p, l->csum_off, &l->field)) {
        if (!preset) {
            l->verdict = CSC_V_UNVERIFIABLE;
            l->reason = CSC_R_SNAPLEN;
        }
        return;
    }
    /* A zero UDP checksum was never computed (RFC 768): nothing to verify,
     * whatever else is missing. */
    VALUE_MARK(r, l, field);
    bool zero_udp = l->proto == CSC_P_UDP && l->field == 0;
    if (zero_udp && (!preset || l->verdict == CSC_V_UNVERIFIABLE)) {
        l->verdict = under_ipv6(r, l) ? CSC_V_ZERO6 : CSC_V_NONE;
        l->reason = CSC_R_ZERO;
    }
    if (!sum_without_field(r, i, &s0, &s)) {
        if (!preset && !zero_udp) {
            l->verdict = CSC_V_UNVERIFIABLE;
            l->reason = CSC_R_SNAPLEN;
        }
        return;
    }
    bool with_pseudo = has_pseudo(l);
    uint32_t pseudo = with_pseudo ? l->pseudo : 0;
    /* end-around carry from +0 (the kernel's csum_partial) gives +0 only
     * for a region of zero bytes, which csum_fold makes 0xffff: invalid;
     * the prefix sums' difference says -0 there. Without a pseudo-header
     * (ICMPv4) such a region is the whole sum: an all-zero ICMP header is
     * bad (icmp_rcv: ICMP_CSUM), its right field 0xffff. */
    if (!with_pseudo && fold16(s) == 0xffff && region_all_zero(p, l))
        s = s0 = 0;
    uint16_t expected = csum_fold(csum_add(pseudo, s0));
    if (l->proto == CSC_P_UDP && expected == 0)
        expected = CSUM_MANGLED_0;
    l->expected = expected;
    VALUE_MARK(r, l, expected);
    if (preset && !zero_udp && l->reason == CSC_R_LEN_MISMATCH)
        verify_short_ip(l, csum_valid_total(csum_add(pseudo, s)));
    if (preset || zero_udp)
        return;

    uint32_t len = l->cov_end - l->cov_off;
    uint32_t nolen = csum_sub(csum_sub(pseudo, len >> 16), len & 0xffff);
    /* decided in locals, stored once: reading l->verdict back right after a
     * byte store stalls the store forwarding (the compiler merges the test
     * below with l->proto into one 16-bit load) */
    uint8_t verdict, reason = l->reason;
    if (csum_valid_total(csum_add(pseudo, s))) {
        verdict = CSC_V_GOOD;
    } else if (with_pseudo && l->field == fold16(pseudo)) {
        verdict = CSC_V_PARTIAL;
        reason = CSC_R_SEED;
    } else if (with_pseudo && l->field == fold16(nolen)) {
        verdict = CSC_V_PARTIAL;
        reason = CSC_R_SEED_NOLEN;
    } else if (l->notes & CSC_N_GSO) {
        verdict = CSC_V_UNVERIFIABLE;   /* length of a super-packet unknown */
        reason = CSC_R_GSO_LEN;
    } else {
        verdict = CSC_V_BAD;
        reason = CSC_R_MISMATCH;
    }
    l->verdict = verdict;
    l->reason = reason;
    if (verdict == CSC_V_PARTIAL && l->proto == CSC_P_TCP) {
        uint32_t payload = l->cov_end - l->cov_off - l->hdr_len;
        uint16_t mss = payload_mss(r, l);
        if ((l->notes & CSC_N_GSO) || (mss && payload > mss)) {
            l->reason = CSC_R_GSO;
            if (mss) {
                r->gso_segs = (uint16_t)((payload + mss - 1) / mss);
                r->gso_segs_known = 1;
            }
        }
    }
}

bool verify_layer_good(struct csc_result *r, const struct pkt *p, unsigned i, int ia, int ib)
{
    struct csc_layer *l = &r->layers[i];
    uint32_t s, s0;
    /* verify_layer's steps where the verdict was n/a and comes out good:
     * the field read, not a zero UDP checksum, the region summed (at the
     * breakpoints verify_region_at gave for the plan's first frame), the
     * expected value, a valid total (the value marks are the plan's) */
    if (!pkt_val_be16(p, l->csum_off, &l->field) || (l->proto == CSC_P_UDP && l->field == 0) ||
        !sum_between(&r->sums, ia, ib, &s))
        return false;
    s0 = csum_sub(s, csum_word_at(l->field, l->csum_off - l->cov_off));
    uint32_t pseudo = has_pseudo(l) ? l->pseudo : 0;
    uint16_t expected = csum_fold(csum_add(pseudo, s0));
    if (l->proto == CSC_P_UDP && expected == 0)
        expected = CSUM_MANGLED_0;
    l->expected = expected;
    if (!csum_valid_total(csum_add(pseudo, s)))
        return false;
    l->verdict = CSC_V_GOOD;
    return true;
}

/* A verdict the bytes gave (RCO re-judges only those: a zero or an
 * uncaptured inner checksum has nothing RCO could resolve). */
static bool judged(const struct csc_layer *l)
{
    return l->verdict == CSC_V_GOOD || l->verdict == CSC_V_BAD || l->verdict == CSC_V_PARTIAL;
}

/* The UDP layer that carries tunnel layer t (the layer just before it). */
static struct csc_layer *carrier_udp(struct csc_result *r, unsigned t)
{
    if (t == 0 || r->layers[t - 1].proto != CSC_P_UDP)
        return NULL;
    return &r->layers[t - 1];
}

/* remcsum_adjust as the receiver computes it (docs/rco-lco.md): the sum of the
 * inner frame comes from the outer UDP conversion (~P minus the pulled
 * headers) when the outer checksum is set, else from a software pass. */
static void verify_rco(struct csc_result *r, unsigned t)
{
    struct csc_layer *tl = &r->layers[t], *udp = carrier_udp(r, t), *in = NULL;
    uint32_t base = tl->off + tl->hdr_len;
    uint32_t tgt = base + tl->rco_start, fld = base + tl->rco_offset;
    for (unsigned i = t + 1; i < r->nlayers; i++) {
        struct csc_layer *l = &r->layers[i];
        if (l->proto == CSC_P_TCP || l->proto == CSC_P_UDP) {
            in = l;
            break;
        }
    }
    uint32_t pkt_end = udp ? udp->cov_end : tl->end;
    if ((uint64_t)fld + CSUM_LEN > pkt_end || tgt > fld) {
        tl->notes |= CSC_N_RCO_OUT_OF_PKT;
        if (in && judged(in)) {
            in->verdict = CSC_V_BAD;
            in->reason = CSC_R_RCO_BAD_TARGET;
        }
        return;
    }
    if (!in || in->off != tgt || in->csum_off != fld) {
        tl->notes |= CSC_N_RCO_OFF_TARGET;
        if (in && judged(in)) {
            in->verdict = CSC_V_BAD;
            in->reason = CSC_R_RCO_BAD_TARGET;
        }
        return;
    }
    if (!judged(in))
        return;
    uint32_t inner, prefix, hdrs;
    if (!csc_region_sum(r, base, tgt, &prefix))
        return;
    if (udp && udp->field != 0 && csc_region_sum(r, udp->off, base, &hdrs))
        inner = csum_sub(~udp->pseudo, hdrs);
    else if (!csc_region_sum(r, base, pkt_end, &inner))
        return;
    uint16_t resolved = csum_fold(csum_sub(inner, prefix));
    in->resolved = resolved;
    in->rco_delta = (uint16_t)fold16(csum_sub(resolved, in->field));
    VALUE_MARK(r, in, resolved);
    VALUE_MARK(r, in, rco_delta);
    bool seed_ok = in->field == fold16(in->pseudo);
    if (!udp || udp->field == 0) {
        in->verdict = CSC_V_BAD;
        in->reason = CSC_R_RCO_OUTER_MISSING;
    } else if (udp->verdict == CSC_V_BAD) {
        in->verdict = CSC_V_BAD;
        in->reason = CSC_R_RCO_OUTER_BAD;
    } else if (!seed_ok || resolved != in->expected) {
        in->verdict = CSC_V_BAD;
        in->reason = CSC_R_RCO_WRONG_SEED;
    } else {
        in->verdict = CSC_V_RCO;
        in->reason = CSC_R_RCO;
    }
}

/* lco_csum (docs/rco-lco.md): an outer checksum computed as if the inner partial
 * checksums were already filled in. */
static void verify_lco(struct csc_result *r, unsigned o)
{
    struct csc_layer *ol = &r->layers[o];
    uint32_t s;
    if (!csc_region_sum(r, ol->cov_off, ol->cov_end, &s))
        return;
    int filled = 0;
    uint16_t first = 0;
    for (unsigned i = o + 1; i < r->nlayers; i++) {
        const struct csc_layer *in = &r->layers[i];
        if (in->verdict != CSC_V_PARTIAL || in->csum_off < ol->cov_off ||
            in->csum_off + CSUM_LEN > ol->cov_end)
            continue;
        uint32_t at = in->csum_off - ol->cov_off;
        s = csum_sub(s, csum_word_at(in->field, at));
        s = csum_add(s, csum_word_at(in->expected, at));
        if (!filled++)
            first = in->expected;
    }
    uint32_t pseudo = ol->proto == CSC_P_UDP ? ol->pseudo : 0;
    if (filled && csum_valid_total(csum_add(pseudo, s))) {
        ol->verdict = CSC_V_LCO;
        ol->reason = CSC_R_LCO;
        ol->resolved = first;
        VALUE_MARK(r, ol, resolved);
    }
}

/* Ranking of the verdicts for the frame's worst (higher is worse) */
static const uint8_t verdict_rank[CSC_V__COUNT] = {
    [CSC_V_NA] = 0, [CSC_V_GOOD] = 1, [CSC_V_NONE] = 2, [CSC_V_RCO] = 3,
    [CSC_V_LCO] = 4, [CSC_V_PARTIAL] = 5, [CSC_V_ZERO6] = 6,
    [CSC_V_UNVERIFIABLE] = 7, [CSC_V_BAD] = 8,
};
static const uint8_t verdict_of_rank[9] = {
    CSC_V_NA, CSC_V_GOOD, CSC_V_NONE, CSC_V_RCO, CSC_V_LCO, CSC_V_PARTIAL, CSC_V_ZERO6,
    CSC_V_UNVERIFIABLE, CSC_V_BAD,
};

int csc_verdict_rank(enum csc_verdict v)
{
    return (unsigned)v < CSC_V__COUNT ? verdict_rank[v] : 0;
}

/* the verdicts present, one bit per rank */
static unsigned ranks_of(const struct csc_result *r)
{
    unsigned ranks = 1;
    for (unsigned i = 0; i < r->nlayers; i++)
        ranks |= 1u << verdict_rank[r->layers[i].verdict];
    return ranks;
}

void csc_verify(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r)
{
    (void)cfg;
    struct pkt p = pkt_of(f, NULL);   /* the field is a value, the pieces are summed */
    sum_pieces(&p, &r->sums);

    /* Innermost first: GSO facts found on the inner TCP qualify the outer. */
    uint32_t notes = 0;
    unsigned ranks = 1;
    for (int i = (int)r->nlayers - 1; i >= 0; i--) {
        verify_layer(r, &p, (unsigned)i);
        notes |= r->layers[i].notes;
        ranks |= 1u << verdict_rank[r->layers[i].verdict];
    }
    /* the second look (GSO on the outer UDP, RCO, LCO) only where it can apply */
    if (r->gso_segs_known || (notes & CSC_N_RCO)) {
        for (unsigned i = 0; i < r->nlayers; i++) {
            struct csc_layer *l = &r->layers[i];
            if (l->verdict == CSC_V_PARTIAL && l->proto == CSC_P_UDP && r->gso_segs_known)
                l->reason = CSC_R_GSO;
            if (l->notes & CSC_N_RCO)
                verify_rco(r, i);
        }
        ranks = ranks_of(r);
    }
    if (ranks & (1u << verdict_rank[CSC_V_BAD])) {
        for (unsigned i = 0; i < r->nlayers; i++) {
            struct csc_layer *l = &r->layers[i];
            if (l->verdict == CSC_V_BAD && l->reason == CSC_R_MISMATCH &&
                (l->proto == CSC_P_UDP || l->proto == CSC_P_GRE))
                verify_lco(r, i);
        }
        ranks = ranks_of(r);
    }
    r->worst = verdict_of_rank[31 - __builtin_clz(ranks)];
}
