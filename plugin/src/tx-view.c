/*
 * tx-view.c - a sent frame's TX view in the tree and expert info (tx-view.h).
 */
#include "tx-view.h"

#include "fields.h"
#include "label.h"

#include <epan/proto.h>

bool pl_tx_fields_referenced(proto_tree *t)
{
    return proto_field_is_referenced(t, hf_tx) || proto_field_is_referenced(t, hf_tx_wire);
}


bool pl_tx_layer(tvbuff_t *tvb, packet_info *pinfo, proto_tree *lt, proto_item *vi, int at,
                 const struct pl_frame *s, const struct pl_layer *l)
{
    if (!pl_sent(s) || !l->tx_kind)
        return false;
    const char *kind = csc_tx_kind_name(l->tx_kind);
    pl_gen(proto_tree_add_string(lt, hf_tx, tvb, at, 0, kind));
    if (l->tx_wire_known)
        pl_gen(proto_tree_add_uint(lt, hf_tx_wire, tvb, at, 0, l->tx_wire));
    struct sb m = { .n = 0 };
    sb_s(&m, csc_proto_name(l->proto));
    sb_s(&m, "@");
    sb_u(&m, l->off);
    sb_s(&m, " checksum is ");
    sb_s(&m, csc_verdict_name(l->verdict));
    sb_s(&m, " (");
    sb_s(&m, csc_reason_name(l->reason));
    sb_s(&m, "): sent, not received; ");
    if (l->tx_kind == CSC_TX_LCO) {
        sb_s(&m, "the wire carries it as is, right once the NIC completes the inner one");
    } else if (l->tx_kind == CSC_TX_GSO) {
        sb_s(&m, "the NIC writes each segment's");
        if (s->gso_segs_known) {
            sb_s(&m, " (");
            sb_u(&m, s->gso_segs);
            sb_s(&m, " segments)");
        }
    } else if (l->tx_wire_known) {
        sb_s(&m, "the NIC writes ");
        sb_hex4(&m, l->tx_wire);
    } else {
        sb_s(&m, "the NIC completes it");
    }
    expert_add_info_format(pinfo, vi, &ei_sent, "%s", m.b);
    return true;
}
