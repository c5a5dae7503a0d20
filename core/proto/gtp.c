/*
 * gtp.c - GTP-U version 1 (3GPP TS 29.281 §5) carrying user IP packets.
 *
 *   | Ver(3)=1 |PT|*|E|S|PN| Message Type | Length (16)             |
 *   |                 Tunnel Endpoint Identifier (32)               |
 *   | Sequence Number (16)  | N-PDU Number | Next Ext Header Type   |  (if E|S|PN)
 *   | extension headers: | len (x4 bytes) | contents ... | next type |
 * Message type 255 (G-PDU) carries an IPv4 or IPv6 packet.
 */
#include "../decode.h"

void dec_gtp(struct dec *d, uint32_t off)
{
    uint8_t flags = 0, type = 0;
    uint32_t teid = 0;
    if (!dec_need(d, CSC_P_GTP, off, 8))
        return;
    pkt_u8(&d->p, off, &flags);
    pkt_u8(&d->p, off + 1, &type);
    pkt_be32(&d->p, off + 4, &teid);
    if ((flags >> 5) != 1) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GTP, off);
        return;
    }
    uint32_t hdr = 8;
    if (flags & 0x07) {
        uint8_t next = 0;
        if (!dec_need(d, CSC_P_GTP, off, 12))
            return;
        pkt_u8(&d->p, off + 11, &next);
        hdr = 12;
        /* The chain is bounded by the captured bytes: every header is >= 4. */
        while ((flags & 0x04) && next) {
            uint8_t len = 0;
            if (!dec_need(d, CSC_P_GTP, off + hdr, 1))
                return;
            pkt_u8(&d->p, off + hdr, &len);
            if (len == 0) {
                dec_stop(d, CSC_STOP_MALFORMED, CSC_P_GTP, off + hdr);
                return;
            }
            if (!dec_need(d, CSC_P_GTP, off + hdr, 4u * len))
                return;
            pkt_u8(&d->p, off + hdr + 4u * len - 1, &next);
            hdr += 4u * len;
        }
    }
    struct csc_layer *l = dec_push(d, CSC_P_GTP, off, hdr);
    if (!l)
        return;
    l->key = teid;
    l->next = type;
    if (type == 0xff)
        dec_ip_by_nibble(d, off + hdr);
}
