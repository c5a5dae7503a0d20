/*
 * ppp.c - PPPoE session stage (RFC 2516) and PPP framing (RFC 1661/1662).
 *
 * PPPoE session header:
 *   +----+----+---------+---------+----------+
 *   |VT  |code| session | length  | PPP proto|
 *   +----+----+---------+---------+----------+
 *    1    1    2         2         2
 * The PPPoE length bounds the PPP payload: an IP total length beyond it is a
 * length disagreement (CSC_N_LINK_LEN_SHORT), as the kernel trims to it.
 *
 * PPP (HDLC-like framing may keep the FF 03 address/control bytes; the
 * protocol field may be compressed to one odd byte, RFC 1661 §6.5).
 */
#include "decode.h"

void dec_pppoe(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_PPPOE, off, PPPOE_HLEN);
    if (!h.l)
        return;
    uint16_t proto = span_be16(&h.b, WIRE_OFF(pppoe_hdr, ppp_proto));
    h.l->u.pppoe.session = span_be16(&h.b, WIRE_OFF(pppoe_hdr, session));
    h.l->next = proto;
    /* code 0: a session (data) packet */
    if (span_u8(&h.b, WIRE_OFF(pppoe_hdr, ver_type)) != PPPOE_VER_TYPE ||
        span_u8(&h.b, WIRE_OFF(pppoe_hdr, code))) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_PPPOE, off);
        return;
    }
    uint16_t len = span_be16(&h.b, WIRE_OFF(pppoe_hdr, length));
    if (len < PPPOE_HLEN - PPPOE_SES_HLEN) {  /* shorter than the PPP protocol field */
        h.l->notes |= CSC_N_LEN_SHORT;
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_PPPOE, off);
        return;
    }
    uint64_t end = (uint64_t)off + PPPOE_SES_HLEN + len;
    if (end < d->end)
        d->end = (uint32_t)end;
    else if (end > d->end)
        h.l->notes |= CSC_N_LEN_EXCEEDS;
    h.l->end = d->end;
    dec_ppp_proto(d, proto, off + PPPOE_HLEN);
}

void dec_ppp(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, b1 = 0;
    uint32_t hdr = 0;
    if (!dec_need(d, CSC_P_PPP, off, PPP_ADDR_CTRL_LEN))  /* or the protocol field */
        return;
    pkt_u8(&d->p, off, &b0);
    pkt_u8(&d->p, off + 1, &b1);
    if (b0 == PPP_ALLSTATIONS && b1 == PPP_UI)
        hdr = PPP_ADDR_CTRL_LEN;
    uint8_t p0 = 0;
    if (!dec_need(d, CSC_P_PPP, off + hdr, 1))
        return;
    pkt_u8(&d->p, off + hdr, &p0);
    uint16_t proto = 0;
    if (p0 & PPP_PROTO_COMPRESSED) {
        proto = p0;
        hdr += 1;
    } else {
        if (!dec_need(d, CSC_P_PPP, off + hdr, sizeof proto))
            return;
        pkt_be16(&d->p, off + hdr, &proto);
        hdr += sizeof proto;
    }
    struct csc_layer *l = dec_push(d, CSC_P_PPP, off, hdr);
    if (!l)
        return;
    l->next = proto;
    dec_ppp_proto(d, proto, off + hdr);
}
