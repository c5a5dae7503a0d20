/*
 * l2tp.c - L2TPv3 data messages over IP (RFC 3931 §4.1.1.1) and over UDP
 * (§4.1.2.1), and L2TPv2 data messages over UDP (RFC 2661 §3.1) carrying PPP.
 *
 * L2TPv3 over IP (protocol 115):
 *   |                      Session ID (32)                          |
 *   |               Cookie (0, 32 or 64 bits, configured)           |
 *   |          L2-Specific Sublayer (0 or 32 bits, configured)      |
 * Session ID 0 marks a control message. Over UDP a 4-byte
 *   |T|x|x|x|x|x|x|x|x|x|x|x| Ver=3 |          Reserved             |
 * precedes the session ID. The pseudowire payload is Ethernet.
 *
 * L2TPv2: |T|L|x|x|S|x|O|P|x|x|x|x| Ver=2 | [Length] | Tunnel | Session |
 *         [Ns Nr] [Offset Size, pad] then PPP.
 */
#include "decode.h"

static void l2tpv3_session(struct dec *d, uint32_t off, uint32_t pre)
{
    uint32_t sid = 0;
    uint32_t hdr = pre + L2TPV3_SESSION_LEN + d->cfg->l2tp_cookie_len + d->cfg->l2tp_l2spec_len;
    if (!dec_need(d, CSC_P_L2TP, off, pre + L2TPV3_SESSION_LEN))
        return;
    pkt_be32(&d->p, off + pre, &sid);
    if (sid == 0) {                   /* control message */
        struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, pre + L2TPV3_SESSION_LEN);
        if (l)
            l->u.l2tp.version = L2TP_VERSION_3;
        return;
    }
    struct csc_layer *l = dec_header(d, CSC_P_L2TP, off, hdr);
    if (!l)
        return;
    l->u.l2tp.version = L2TP_VERSION_3;
    l->u.l2tp.session = sid;
    dec_eth(d, off + hdr);
}

void dec_l2tp_ip(struct dec *d, uint32_t off)
{
    l2tpv3_session(d, off, 0);
}

/* L2TPv2: the header up to the PPP frame; 0 when the stack ended. */
static uint32_t l2tpv2_hlen(struct dec *d, uint32_t off, uint16_t flags, uint32_t *session)
{
    uint32_t hdr = L2TP_FLAGS_LEN;
    if (flags & L2TP_L)
        hdr += L2TPV2_LENGTH_LEN;
    hdr += L2TPV2_IDS_LEN;
    if (flags & L2TP_S)
        hdr += L2TPV2_NS_NR_LEN;
    if (!dec_need(d, CSC_P_L2TP, off, hdr))
        return 0;
    uint16_t w = 0;
    pkt_be16(&d->p, off + hdr - sizeof w, &w);   /* the session ID ends the IDs */
    *session = w;
    if (flags & L2TP_O) {             /* offset size + padding */
        uint16_t osz = 0;
        if (!dec_need(d, CSC_P_L2TP, off, hdr + L2TPV2_OFFSET_LEN))
            return 0;
        pkt_be16(&d->p, off + hdr, &osz);
        hdr += L2TPV2_OFFSET_LEN + osz;
        if (!dec_need(d, CSC_P_L2TP, off, hdr))
            return 0;
    }
    return hdr;
}

void dec_l2tp_udp(struct dec *d, uint32_t off)
{
    uint16_t flags = 0;
    if (!dec_need(d, CSC_P_L2TP, off, L2TP_FLAGS_LEN))
        return;
    pkt_be16(&d->p, off, &flags);
    uint8_t ver = flags & L2TP_VERSION_MASK;
    if (ver == L2TP_VERSION_3) {
        if (flags & L2TP_T) {
            struct csc_layer *l = dec_header(d, CSC_P_L2TP, off, L2TPV3_UDP_HLEN);
            if (l)
                l->u.l2tp.version = L2TP_VERSION_3;
            return;
        }
        l2tpv3_session(d, off, L2TPV3_UDP_HLEN);
        return;
    }
    if (ver != L2TP_VERSION_2) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_L2TP, off);
        return;
    }
    uint32_t session = 0, hdr = l2tpv2_hlen(d, off, flags, &session);
    if (!hdr)
        return;
    struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, hdr);
    if (!l)
        return;
    l->u.l2tp.version = L2TP_VERSION_2;
    l->u.l2tp.session = session;
    if (!(flags & L2TP_T))
        dec_ppp(d, off + hdr);
}
