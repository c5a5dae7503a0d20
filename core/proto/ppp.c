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
    uint8_t vt = 0, code = 0;
    uint16_t sid = 0, len = 0, proto = 0;
    struct csc_layer *l = dec_header(d, CSC_P_PPPOE, off, PPPOE_HLEN);
    if (!l)
        return;
    pkt_u8(&d->p, off + WIRE_OFF(pppoe_hdr, ver_type), &vt);
    pkt_u8(&d->p, off + WIRE_OFF(pppoe_hdr, code), &code);
    pkt_be16(&d->p, off + WIRE_OFF(pppoe_hdr, session), &sid);
    pkt_be16(&d->p, off + WIRE_OFF(pppoe_hdr, length), &len);
    pkt_be16(&d->p, off + WIRE_OFF(pppoe_hdr, ppp_proto), &proto);
    l->u.pppoe.session = sid;
    l->next = proto;
    if (vt != PPPOE_VER_TYPE || code != 0) {   /* code 0: a session (data) packet */
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_PPPOE, off);
        return;
    }
    if (len < PPPOE_HLEN - PPPOE_SES_HLEN) {  /* shorter than the PPP protocol field */
        l->notes |= CSC_N_LEN_SHORT;
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_PPPOE, off);
        return;
    }
    uint64_t end = (uint64_t)off + PPPOE_SES_HLEN + len;
    if (end < d->end)
        d->end = (uint32_t)end;
    else if (end > d->end)
        l->notes |= CSC_N_LEN_EXCEEDS;
    l->end = d->end;
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
