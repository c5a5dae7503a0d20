/*
 * gro_cascade.c - the GRO engine's device cascade: a tunnel device (VXLAN,
 * GENEVE, GRE ... through gro_cells) gets what the NIC sends up, when the
 * NIC sends it. The engine feeds each device in capture order; these rules
 * say where the kernel's order differs (a packet the NIC sends up early,
 * one that grew at the NIC) and flush what came of frames the NIC sent up
 * at once (docs/gro.md "What is simplified").
 */
#include "csumcheck/gro.h"
#include "gro_internal.h"

/* The tunnel device's entry that the NIC's h first reached, if still held */
static struct csc_gro_held *held_next(struct csc_gro *g, const struct csc_gro_held *h)
{
    if (h->next_dev == CSC_GRO_NO_DEV || h->next_dev >= CSC_GRO_DEVS)
        return NULL;
    return find_held(g, h->next_dev, h->next_key);
}

/* The NIC sends h up before the rest of what it holds (a flush inside the
 * poll). The tunnel device gets h at this poll's end and flushes it at the
 * end of its own (gro_cells_poll: napi_complete_done); what the NIC still
 * holds comes when the NIC sends it up (napi_gro_flush, gro_flush_timeout,
 * by hash bucket): the same device poll or a later one. So a merge there
 * of h's first frame with frames the NIC held in other flows, made or to
 * come, depends on that order. */
void nic_sends_early(struct csc_gro *g, const struct csc_gro_held *h, enum csc_gro_flush why)
{
    if (why == CSC_GF_POLL_END || why == CSC_GF_TIMEOUT || why == CSC_GF_END)
        return;
    struct csc_gro_held *t = held_next(g, h);
    if (t) {
        t->nic_sent = 1;
        t->order_dep |= t->nic_mixed;
    }
}

/* A frame merged into the NIC's h: the device will get h as one bigger
 * packet (skb_is_gso at its tcp_gro_receive), ending where h now ends; the
 * engine's entry there was made from h's first frame alone. */
void nic_grows(struct csc_gro *g, const struct csc_gro_held *h)
{
    struct csc_gro_held *t = held_next(g, h);
    if (t) {
        t->nic_grown = 1;
        t->nic_next_seq = h->next_seq;
    }
}

/* Would s meet the sequence the kernel's device sees (the NIC's packet,
 * grown) otherwise than the one the engine's entry has? */
bool grown_seq_differs(const struct csc_gro_held *h, const struct csc_gro_seg *s)
{
    return h->nic_grown && (s->seq == h->next_seq) != (s->seq == h->nic_next_seq);
}

/* A frame merges into the tunnel device's h: does the merge depend on what
 * the NIC sends up when? The frames come from other NIC flows than h's
 * first (nic_mixed) and the NIC sent h's first up early; or, with
 * gro_flush_timeout, one of the two waited in the NIC's list and the other
 * did not, so they reach the device in different polls. */
bool device_merge_depends(const struct csc_gro *g, struct csc_gro_held *h,
                                 uint64_t nic_key, bool nic_held)
{
    if (h->nic_key != nic_key)
        h->nic_mixed = 1;
    h->order_dep |= h->nic_sent;
    if (g->cfg.flush_timeout_us && nic_held != h->nic_held)
        h->order_dep = 1;
    h->nic_held |= nic_held;
    return h->order_dep;
}

/* A tunnel device's packets that came of frames the NIC sent up at once:
 * they reached the device at that NIC poll's end, and the device's own
 * poll flushed them there (gro_cells has no gro_flush_timeout). */
void flush_arrived(struct csc_gro *g, uint8_t dev)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    for (unsigned b = 0; b < CSC_GRO_BUCKETS; b++)
        for (unsigned m = d->held_used[b]; m; m &= m - 1) {
            struct csc_gro_held *h = &d->held[b][__builtin_ctz(m)];
            if (!h->nic_held)
                held_deliver(g, dev, h, CSC_GF_POLL_END);
        }
}
