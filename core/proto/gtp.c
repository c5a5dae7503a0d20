/*
 * gtp.c - GTP-U version 1 (3GPP TS 29.281 §5) carrying user IP packets.
 *
 *   | Ver(3)=1 |PT|*|E|S|PN| Message Type | Length (16)             |
 *   |                 Tunnel Endpoint Identifier (32)               |
 *   | Sequence Number (16)  | N-PDU Number | Next Ext Header Type   |  (if E|S|PN)
 *   | extension headers: | len (x4 bytes) | contents ... | next type |
 * Message type 255 (G-PDU) carries an IPv4 or IPv6 packet.
 */
#include "decode.h"

/* The extension header chain after the optional fields: each header's first
 * byte counts 4-byte units, its last byte names the next (0: none). The
 * chain is bounded by the captured bytes: every header is >= 4. Returns the
 * header length, 0 when the stack ended. */
static uint32_t gtp_ext_chain(struct dec *d, uint32_t off, uint32_t hdr, uint8_t next)
{
    while (next) {
        uint8_t len = 0;
        if (!dec_need(d, CSC_P_GTP, off + hdr, 1))
            return 0;
        pkt_u8(&d->p, off + hdr, &len);
        if (len == 0) {
            dec_stop(d, CSC_STOP_MALFORMED, CSC_P_GTP, off + hdr);
            return 0;
        }
        if (!dec_need(d, CSC_P_GTP, off + hdr, WIRE_WORD * len))
            return 0;
        pkt_u8(&d->p, off + hdr + WIRE_WORD * len - 1, &next);
        hdr += WIRE_WORD * len;
    }
    return hdr;
}

/* The header's length: the fixed part, the optional fields when E, S or PN
 * is set, and the extension headers E announces; 0 when the stack ended
 * (a version other than 1 is unsupported). */
static uint32_t gtp_hlen(struct dec *d, const struct span *fixed)
{
    uint32_t off = fixed->off, hdr = GTP_HLEN + GTP_OPT_LEN;
    uint8_t flags = span_u8(fixed, WIRE_OFF(gtp_hdr, flags)), next = 0;
    if ((flags >> GTP_VERSION_SHIFT) != GTP_VERSION_1) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GTP, off);
        return 0;
    }
    if (!(flags & GTP_E_S_PN))
        return GTP_HLEN;
    if (!dec_need(d, CSC_P_GTP, off, hdr))
        return 0;
    pkt_u8(&d->p, off + GTP_HLEN + WIRE_OFF(gtp_opt, next_ext), &next);
    return (flags & GTP_E) ? gtp_ext_chain(d, off, hdr, next) : hdr;
}

void dec_gtp(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_var(d, CSC_P_GTP, off, GTP_HLEN, gtp_hlen);
    if (!h.l)
        return;
    h.l->u.gtp.teid = span_be32(&h.b, WIRE_OFF(gtp_hdr, teid));
    h.l->next = span_u8(&h.b, WIRE_OFF(gtp_hdr, type));
    if (h.l->next == GTP_TPDU)
        dec_ip_by_nibble(d, off + h.l->hdr_len);
}
