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
#include "../decode.h"

void dec_pppoe(struct dec *d, uint32_t off)
{
    uint8_t vt = 0, code = 0;
    uint16_t sid = 0, len = 0, proto = 0;
    if (!dec_need(d, CSC_P_PPPOE, off, 8))
        return;
    pkt_u8(&d->p, off, &vt);
    pkt_u8(&d->p, off + 1, &code);
    pkt_be16(&d->p, off + 2, &sid);
    pkt_be16(&d->p, off + 4, &len);
    pkt_be16(&d->p, off + 6, &proto);
    struct csc_layer *l = dec_push(d, CSC_P_PPPOE, off, 8);
    if (!l)
        return;
    l->key = sid;
    l->next = proto;
    if (vt != 0x11 || code != 0) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_PPPOE, off);
        return;
    }
    if (len < 2) {
        l->notes |= CSC_N_LEN_SHORT;
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_PPPOE, off);
        return;
    }
    uint64_t end = (uint64_t)off + 6 + len;
    if (end < d->end)
        d->end = (uint32_t)end;
    else if (end > d->end)
        l->notes |= CSC_N_LEN_EXCEEDS;
    l->end = d->end;
    dec_ppp_proto(d, proto, off + 8);
}

void dec_ppp(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, b1 = 0;
    uint32_t hdr = 0;
    if (!dec_need(d, CSC_P_PPP, off, 2))
        return;
    pkt_u8(&d->p, off, &b0);
    pkt_u8(&d->p, off + 1, &b1);
    if (b0 == 0xff && b1 == 0x03)
        hdr = 2;
    uint8_t p0 = 0;
    if (!dec_need(d, CSC_P_PPP, off + hdr, 1))
        return;
    pkt_u8(&d->p, off + hdr, &p0);
    uint16_t proto = 0;
    if (p0 & 1) {                    /* compressed protocol field */
        proto = p0;
        hdr += 1;
    } else {
        if (!dec_need(d, CSC_P_PPP, off + hdr, 2))
            return;
        pkt_be16(&d->p, off + hdr, &proto);
        hdr += 2;
    }
    struct csc_layer *l = dec_push(d, CSC_P_PPP, off, hdr);
    if (!l)
        return;
    l->next = proto;
    dec_ppp_proto(d, proto, off + hdr);
}
