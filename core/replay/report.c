/*
 * report.c - what the device hands the stack (skb->ip_summed, csum_level,
 * csum; Documentation/networking/checksum-offloads.rst): a fixed report, or a
 * NIC profile that derives the report from the bytes the way a class of NIC
 * does.
 *   outer-l4:  verifies the outermost L4 checksum only; a zero UDP checksum
 *              is reported as NONE (the 82599 of seed 004).
 *   tunnel-l4: verifies the outer and the inner L4 checksum and reports the
 *              run of verified ones as a level (zero UDP counts as verified,
 *              like ice/i40e per 89e5c58fc1e2).
 *   virtual:   no NIC: the sender's skb crossed as it was (veth_xmit ->
 *              __dev_forward_skb, loopback_xmit -> __netif_rx, tun with a
 *              virtio_net_hdr NEEDS_CSUM: none of them touch ip_summed,
 *              v6.12). A field holding a seed was left CHECKSUM_PARTIAL with
 *              csum_start at its layer; anything else was completed in
 *              software and arrives CHECKSUM_NONE. It is the report of every
 *              frame received on a virtual interface (csc_result.via),
 *              whatever the configured one. A loopback frame is a sent one
 *              (docs/direction.md): replayed anyway, it takes the configured
 *              report.
 */
#include "replay.h"

static bool is_l4_csum(const struct csc_layer *l)
{
    return (l->proto == CSC_P_UDP || l->proto == CSC_P_TCP ||
            (l->proto == CSC_P_GRE && l->csum_off != CSC_NO_OFF)) &&
           !(l->notes & CSC_N_QUOTED);
}

static int outer_l4(const struct rp *rp, uint8_t l3)
{
    for (unsigned i = l3 + 1u; has_layer(rp, i); i++)
        if (is_l4_csum(L(rp, (uint8_t)i)))
            return (int)i;
    return -1;
}

static int inner_l4(const struct rp *rp, uint8_t l3)
{
    int last = -1;
    for (unsigned i = l3 + 1u; has_layer(rp, i); i++)
        if (is_l4_csum(L(rp, (uint8_t)i)) && L(rp, (uint8_t)i)->proto != CSC_P_GRE)
            last = (int)i;
    return last;
}

/* virtual: the innermost layer whose field holds a seed, -1 when none */
static int partial_l4(const struct rp *rp, uint8_t l3)
{
    int last = -1;
    for (unsigned i = l3 + 1u; has_layer(rp, i); i++)
        if (L(rp, (uint8_t)i)->verdict == CSC_V_PARTIAL && !(L(rp, (uint8_t)i)->notes & CSC_N_QUOTED))
            last = (int)i;
    return last;
}

/* How many consecutive checksums from the outermost a NIC verifies. */
static int verified_run(const struct rp *rp, uint8_t l3, int max, bool zero_counts)
{
    const struct csc_layer *ip = L(rp, l3);
    if (ip->proto == CSC_P_IPV4 && ip->verdict != CSC_V_GOOD)
        return 0;
    int n = 0;
    for (unsigned i = l3 + 1u; has_layer(rp, i) && n < max; i++) {
        const struct csc_layer *l = L(rp, (uint8_t)i);
        if (l->proto == CSC_P_IPV4 && l->verdict == CSC_V_BAD)
            break;
        if (!is_l4_csum(l))
            continue;
        bool zero = l->verdict == CSC_V_NONE || l->verdict == CSC_V_ZERO6;
        if (l->proto == CSC_P_GRE || !(l->verdict == CSC_V_GOOD || (zero && zero_counts)))
            break;
        n++;
    }
    return n;
}

static void set_unnecessary(struct sk_buff_model *s, int run)
{
    if (run > 0) {
        s->ip_summed = CHECKSUM_UNNECESSARY;
        s->csum_level = (uint8_t)(run - 1);
    }
}

/* CHECKSUM_PARTIAL with csum_start at layer l (none: l < 0) */
static void set_partial_at(struct rp *rp, int l)
{
    if (l < 0)
        return;
    const struct csc_layer *cl = L(rp, (uint8_t)l);
    rp->skb.ip_summed = CHECKSUM_PARTIAL;
    rp->skb.csum_start = cl->off;
    rp->skb.csum_offset = (uint16_t)(cl->csum_off - cl->off);
}

void rp_from_report(struct rp *rp, uint8_t l3)
{
    static const struct csc_report virt = { .kind = CSC_RX_VIRTUAL };
    const struct csc_report *rep = rp->r->via == CSC_VIA_VIRTUAL ? &virt : &rp->cfg->rx;
    struct sk_buff_model *s = &rp->skb;
    uint32_t sum;
    s->ip_summed = CHECKSUM_NONE;
    switch (rep->kind) {
    case CSC_RX_UNNECESSARY:
        s->ip_summed = CHECKSUM_UNNECESSARY;
        s->csum_level = rep->level > SKB_MAX_CSUM_LEVEL ? SKB_MAX_CSUM_LEVEL : rep->level;
        break;
    case CSC_RX_COMPLETE:            /* sum over the L3 packet, as seen by netif_rx */
        s->ip_summed = CHECKSUM_COMPLETE;
        s->csum_known = rp_region(rp, s->data, s->tail, &sum);
        s->csum = s->csum_known ? sum : 0;
        break;
    case CSC_RX_PARTIAL:
        if (rep->where == CSC_PARTIAL_EXPLICIT) {
            s->ip_summed = CHECKSUM_PARTIAL;
            s->csum_start = L(rp, l3)->off + rep->start;
            s->csum_offset = rep->offset;
            break;
        }
        set_partial_at(rp, rep->where == CSC_PARTIAL_OUTER ? outer_l4(rp, l3) : inner_l4(rp, l3));
        break;
    case CSC_RX_OUTER_L4:
        set_unnecessary(s, verified_run(rp, l3, 1, false));
        break;
    case CSC_RX_TUNNEL_L4:
        set_unnecessary(s, verified_run(rp, l3, 2, true));
        break;
    case CSC_RX_VIRTUAL:
        set_partial_at(rp, partial_l4(rp, l3));
        break;
    default:
        break;
    }
}
