/*
 * tx.c - the TX view of a sent frame (docs/direction.md): csc_tx() after
 * csc_direction, csc_tx_wire() for --peer-rx.
 *
 * A frame the host sent was captured before the NIC: a packet socket sees it
 * in dev_queue_xmit_nit, ahead of the driver (net/core/dev.c, v6.12). What
 * the stack left for the NIC is still in it:
 *   - CHECKSUM_PARTIAL: the field holds the pseudo-header seed
 *     (__tcp_v4_send_check, udp4_hwcsum, tcp_v6_send_check: ~csum of the
 *     pseudo-header); the NIC sums from csum_start to the end and writes the
 *     folded result at csum_start + csum_offset (skb_checksum_help does the
 *     same in software when the device cannot);
 *   - a GSO super-packet (skb_shinfo gso_size): cut into segments of gso_size
 *     by the NIC (TSO) or by skb_segment, each segment's checksums completed
 *     (tcp_gso_segment, __udp_gso_segment);
 *   - LCO: an outer checksum the stack computed over the inner seed
 *     (lco_csum, udp_set_csum, gre_build_header): right once the NIC has
 *     completed the inner one, so the wire carries it as it is.
 * The receive path is not replayed for such a frame (csc_replay leaves the
 * kernel part at CSC_K_SENT) unless csc_config.replay_sent says so.
 */
#include "csumcheck/csumcheck.h"

#include "csum.h"
#include "pkt.h"

#include <string.h>

#define CSUM_BYTES 2u

/* The MSS a super-packet is cut at: the segment's MSS option, else what a
 * 1500-byte MTU leaves (verify.c's payload_mss: the capture does not carry
 * gso_size) */
static void tx_mss(const struct csc_result *r, struct csc_tx *tx)
{
    for (unsigned i = r->nlayers; i-- > 0;) {
        const struct csc_layer *l = &r->layers[i];
        if (l->proto != CSC_P_TCP || (l->notes & CSC_N_QUOTED))
            continue;
        if (l->u.tcp.mss) {
            tx->mss = l->u.tcp.mss;
            tx->mss_from = CSC_MSS_OPTION;
        } else {
            uint32_t ip_hdr = l->ip != CSC_NO_LAYER ? r->layers[l->ip].hdr_len : 20u;
            tx->mss = (uint16_t)(1500u - ip_hdr - l->hdr_len);
            tx->mss_from = CSC_MSS_MTU;
        }
        return;
    }
}

/* The change to the sum of [cov_off, cov_end) when the word at at goes from
 * was to now */
static uint32_t word_delta(uint32_t delta, uint32_t at, uint16_t was, uint16_t now)
{
    delta = csum_sub(delta, csum_word_at(was, at));
    return csum_add(delta, csum_word_at(now, at));
}

/* What the NIC writes into a partial field: the checksum the bytes need
 * (the verifier's expected), with the fields the NIC completed further in
 * (innermost first, entries after e) in the sum */
static uint16_t nic_value(const struct csc_result *r, const struct csc_tx *tx, unsigned e)
{
    const struct csc_layer *l = &r->layers[tx->c[e].layer];
    uint32_t delta = 0;
    for (unsigned j = 0; j < e; j++) {
        const struct csc_tx_csum *in = &tx->c[j];
        const struct csc_layer *il = &r->layers[in->layer];
        if (in->kind != CSC_TX_PARTIAL || !in->wire_known || il->csum_off < l->cov_off ||
            il->csum_off + CSUM_BYTES > l->cov_end)
            continue;
        delta = word_delta(delta, il->csum_off - l->cov_off, il->field, in->wire);
    }
    uint16_t v = l->expected;
    if (delta) {
        v = csum_fold(csum_add((uint16_t)~v, delta));
        if (v == 0 && l->proto == CSC_P_UDP)
            v = CSUM_MANGLED_0;
    }
    return v;
}

void csc_tx(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r)
{
    (void)cfg;
    (void)f;
    struct csc_tx *tx = &r->tx;
    memset(tx, 0, sizeof *tx);
    tx->peer.drop_layer = CSC_NO_LAYER;
    if (r->direction != CSC_DIR_OUT)
        return;
    tx->sent = 1;
    tx->gso = r->gso_segs_known;
    tx->segs = r->gso_segs_known ? r->gso_segs : 0;
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    /* innermost first: an outer field's value takes the inner ones' in */
    for (unsigned i = n; i-- > 0 && tx->n < CSC_TX_MAX;) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_QUOTED)
            continue;
        uint8_t kind = l->verdict == CSC_V_LCO ? CSC_TX_LCO
                       : l->verdict != CSC_V_PARTIAL ? 0
                       : l->reason == CSC_R_GSO ? CSC_TX_GSO : CSC_TX_PARTIAL;
        if (!kind)
            continue;
        struct csc_tx_csum *c = &tx->c[tx->n];
        c->layer = (uint8_t)i;
        c->kind = kind;
        c->field = l->field;
        if (kind != CSC_TX_LCO) {
            c->csum_start = l->off;
            c->csum_offset = (uint16_t)(l->csum_off - l->off);
        }
        if (kind == CSC_TX_GSO)
            tx->gso = 1;
        tx->n++;
        if (kind == CSC_TX_LCO) {
            c->wire = l->field;
            c->wire_known = 1;
        } else if (kind == CSC_TX_PARTIAL) {
            c->wire = nic_value(r, tx, tx->n - 1u);
            c->wire_known = 1;
        }
    }
    if (tx->gso)
        tx_mss(r, tx);
}

size_t csc_tx_wire(const struct csc_frame *f, struct csc_result *r, uint8_t *out, size_t cap)
{
    struct csc_tx *tx = &r->tx;
    struct pkt p = pkt_of(f, NULL);
    if (tx->gso) {
        tx->peer.not_why = CSC_TXP_GSO;         /* segments: not cut here */
        return 0;
    }
    if (f->caplen < f->wirelen || f->wirelen > cap) {
        tx->peer.not_why = CSC_TXP_SNAPLEN;
        return 0;
    }
    if (!pkt_copy(&p, 0, f->wirelen, out)) {
        tx->peer.not_why = CSC_TXP_SNAPLEN;
        return 0;
    }
    for (unsigned e = 0; e < tx->n; e++) {
        const struct csc_tx_csum *c = &tx->c[e];
        uint32_t at = c->csum_start + c->csum_offset;
        if (c->kind != CSC_TX_PARTIAL || !c->wire_known || at + CSUM_BYTES > f->wirelen)
            continue;
        out[at] = (uint8_t)(c->wire >> 8);
        out[at + 1] = (uint8_t)c->wire;
    }
    return f->wirelen;
}
