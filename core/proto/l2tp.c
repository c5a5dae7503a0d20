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
#include "../decode.h"

static void l2tpv3_session(struct dec *d, uint32_t off, uint32_t pre)
{
    uint32_t sid = 0;
    uint32_t hdr = pre + 4 + d->cfg->l2tp_cookie_len + d->cfg->l2tp_l2spec_len;
    if (!dec_need(d, CSC_P_L2TP, off, pre + 4))
        return;
    pkt_be32(&d->p, off + pre, &sid);
    if (sid == 0) {                   /* control message */
        struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, pre + 4);
        if (l)
            l->vers = 3;
        return;
    }
    if (!dec_need(d, CSC_P_L2TP, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, hdr);
    if (!l)
        return;
    l->vers = 3;
    l->key = sid;
    dec_eth(d, off + hdr);
}

void dec_l2tp_ip(struct dec *d, uint32_t off)
{
    l2tpv3_session(d, off, 0);
}

void dec_l2tp_udp(struct dec *d, uint32_t off)
{
    uint16_t flags = 0;
    if (!dec_need(d, CSC_P_L2TP, off, 2))
        return;
    pkt_be16(&d->p, off, &flags);
    uint8_t ver = flags & 0xf;
    if (ver == 3) {
        if (flags & 0x8000) {
            if (!dec_need(d, CSC_P_L2TP, off, 4))
                return;
            struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, 4);
            if (l)
                l->vers = 3;
            return;
        }
        l2tpv3_session(d, off, 4);
        return;
    }
    if (ver != 2) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_L2TP, off);
        return;
    }
    uint32_t hdr = 2;
    if (flags & 0x4000)
        hdr += 2;                     /* length */
    hdr += 4;                         /* tunnel, session */
    if (flags & 0x0800)
        hdr += 4;                     /* Ns, Nr */
    if (!dec_need(d, CSC_P_L2TP, off, hdr))
        return;
    uint16_t w = 0;
    pkt_be16(&d->p, off + hdr - 2, &w);
    uint32_t key = w;
    if (flags & 0x0200) {             /* offset size + padding */
        uint16_t osz = 0;
        if (!dec_need(d, CSC_P_L2TP, off, hdr + 2))
            return;
        pkt_be16(&d->p, off + hdr, &osz);
        hdr += 2u + osz;
        if (!dec_need(d, CSC_P_L2TP, off, hdr))
            return;
    }
    struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, hdr);
    if (!l)
        return;
    l->vers = 2;
    l->key = key;
    if (!(flags & 0x8000))
        dec_ppp(d, off + hdr);
}
