/*
 * tx-view.h - a sent frame as the plugin shows it (docs/direction.md, "The
 * TX view"): not replayed ("sent, not received"), each checksum it left to
 * the NIC with what the wire carries: the fields csumcheck.tx and
 * csumcheck.tx.wire in the layer's subtree, and an expert note naming the
 * layer as the CLI does ("tcp@40 checksum is partial (seed): sent, not
 * received; the NIC writes 0x4fd4").
 */
#ifndef CSC_PLUGIN_TX_VIEW_H
#define CSC_PLUGIN_TX_VIEW_H

#include "frame-record.h"

#include <epan/expert.h>
#include <epan/packet.h>

#include <stdbool.h>

/* A fake tree asks for a TX field (tshark -T fields -e csumcheck.tx, -Y) */
bool pl_tx_fields_referenced(proto_tree *t);
/* The frame was sent: its TX view, no replay */
static inline bool pl_sent(const struct pl_frame *s)
{
    return !s->ran && s->kverdict == CSC_K_SENT;
}
/* The layer's TX view under its verdict item; returns false when it has none
 * (the caller's usual expert info stands) */
bool pl_tx_layer(tvbuff_t *tvb, packet_info *pinfo, proto_tree *lt, proto_item *vi, int at,
                 const struct pl_frame *s, const struct pl_layer *l);

#endif
