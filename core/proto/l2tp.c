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
 * The cookie and the sublayer are configured per session at both ends and
 * nothing in the packet says them. The sublayer's length, unless the user
 * gives it (--l2tp-l2spec-len), is chosen from the bytes: the default
 * sublayer (RFC 3931 §4.6: |x|S|x|x|x|x|x|x| Sequence Number (24)|, x = 0)
 * then an Ethernet frame, against an Ethernet frame right after the cookie
 * (Cisco's default, RFC 4719 §3.2 makes the sublayer optional), each judged
 * by its EtherType and the header behind it; the layer is noted
 * l2spec-guessed. When neither reads as Ethernet but one would with a 4- or
 * 8-byte cookie, or with nothing to go on at all, the stack ends
 * needs-option naming --l2tp-cookie-len or --l2tp-l2spec-len.
 *
 * L2TPv2: |T|L|x|x|S|x|O|P|x|x|x|x| Ver=2 | [Length] | Tunnel | Session |
 *         [Ns Nr] [Offset Size, pad] then PPP.
 */
#include "decode.h"

#define UNSEEN (-1)   /* the bytes that would tell were not captured */

/* One byte / 16 bits the guess reads: false when the payload ends first;
 * *unseen when the capture does. */
static bool peek8(struct dec *d, uint32_t at, uint8_t *v, bool *unseen)
{
    if (at >= d->end)
        return false;
    if (!pkt_u8(&d->p, at, v)) {
        *unseen = true;
        return false;
    }
    return true;
}

static bool peek16(struct dec *d, uint32_t at, uint16_t *v, bool *unseen)
{
    uint8_t hi = 0, lo = 0;
    if (!peek8(d, at, &hi, unseen) || !peek8(d, at + 1, &lo, unseen))
        return false;
    *v = (uint16_t)(hi << 8 | lo);
    return true;
}

/* How much the bytes at `at` read as an Ethernet frame: 3 an IPv4 / IPv6
 * header behind its EtherType (past VLAN tags), 2 another EtherType of a
 * frame that carries something (ARP, MPLS, PPPoE, LLDP), 1 an 802.3 length
 * that fits the payload, 0 not a frame (too short, an EtherType no one
 * sends, IP whose version says otherwise), UNSEEN when the capture ends
 * first. */
static int eth_plausible(struct dec *d, uint32_t at)
{
    uint16_t type = 0;
    bool unseen = false;
    uint32_t pay = at + ETH_HLEN;
    if (!peek16(d, at + WIRE_OFF(eth_hdr, type), &type, &unseen))
        return unseen ? UNSEEN : 0;
    for (int tags = 0; (type == ETH_P_8021Q || type == ETH_P_8021AD) && tags < 2; tags++) {
        if (!peek16(d, pay + WIRE_OFF(vlan_hdr, type), &type, &unseen))
            return unseen ? UNSEEN : 1;
        pay += VLAN_HLEN;
    }
    uint8_t v = 0;
    switch (type) {
    case ETH_P_IP:
        if (!peek8(d, pay, &v, &unseen))
            return unseen ? UNSEEN : 0;
        return (v >> IP_VERSION_SHIFT) == IP_VERSION_4 && (v & IPV4_IHL_MASK) >= IPV4_IHL_MIN ? 3 : 0;
    case ETH_P_IPV6:
        if (!peek8(d, pay, &v, &unseen))
            return unseen ? UNSEEN : 0;
        return (v >> IP_VERSION_SHIFT) == IP_VERSION_6 ? 3 : 0;
    case ETH_P_ARP: case ETH_P_MPLS_UC: case ETH_P_MPLS_MC: case ETH_P_PPP_SES: case ETH_P_LLDP:
        return 2;
    default:                          /* an 802.3 length: LLC (STP, CDP) within the payload */
        return type >= LLC_MIN_LEN && type < ETH_P_802_3_MIN && pay + type <= d->end ? 1 : 0;
    }
}

/* The frame read behind a default L2-specific sublayer at `at`: its
 * reserved bits must be 0 */
static int eth_after_l2spec(struct dec *d, uint32_t at)
{
    uint8_t b0 = 0;
    bool unseen = false;
    if (!peek8(d, at, &b0, &unseen))
        return unseen ? UNSEEN : 0;
    return (b0 & L2TPV3_L2SPEC_RSVD) ? 0 : eth_plausible(d, at + L2TPV3_L2SPEC_LEN);
}

/* The L2-specific sublayer's length when the user gave none; at: after the
 * cookie. -1 when the stack ends (the bytes that would tell were not
 * captured, or neither reading is a frame). */
static int l2spec_guess(struct dec *d, uint32_t at, enum csc_proto proto, uint32_t off)
{
    int bare = eth_plausible(d, at);
    int with = eth_after_l2spec(d, at);
    if (bare == UNSEEN || with == UNSEEN) {
        dec_stop(d, CSC_STOP_TRUNCATED, proto, off);   /* cannot tell which */
        return -1;
    }
    if (with || bare)
        return with >= bare ? (int)L2TPV3_L2SPEC_LEN : 0;   /* a tie: the RFC's default */
    if (at >= d->end || d->quoted)
        return 0;                     /* nothing after the session header: nothing to guess */
    /* a cookie the configuration lacks? */
    for (uint32_t c = 4; c <= 8; c += 4) {
        if (c == d->cfg->l2tp_cookie_len)
            continue;
        uint32_t a = at - d->cfg->l2tp_cookie_len + c;
        if (eth_plausible(d, a) == 3 || eth_after_l2spec(d, a) == 3) {
            dec_stop_option(d, CSC_SO_L2TP_COOKIE, CSC_P_NONE, proto, off, c, true);
            return -1;
        }
    }
    dec_stop_option(d, CSC_SO_L2TP_L2SPEC, CSC_P_NONE, proto, off, 0, false);
    return -1;
}

static void l2tpv3_session(struct dec *d, uint32_t off, uint32_t pre)
{
    uint32_t sid = 0;
    uint32_t at = pre + L2TPV3_SESSION_LEN + d->cfg->l2tp_cookie_len;   /* after the cookie */
    bool guess = d->cfg->l2tp_l2spec_len == CSC_L2TP_L2SPEC_AUTO;
    if (!dec_need(d, CSC_P_L2TP, off, pre + L2TPV3_SESSION_LEN))
        return;
    pkt_be32(&d->p, off + pre, &sid);
    if (sid == 0) {                   /* control message */
        struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, pre + L2TPV3_SESSION_LEN);
        if (l)
            l->u.l2tp.version = L2TP_VERSION_3;
        return;
    }
    int l2spec = guess ? 0 : d->cfg->l2tp_l2spec_len;
    if (guess && dec_need(d, CSC_P_L2TP, off, at)) {
        l2spec = l2spec_guess(d, off + at, CSC_P_L2TP, off);
        if (l2spec < 0 && d->r->stop == CSC_STOP_TRUNCATED)
            return;
        if (l2spec < 0) {             /* the layer without what follows the cookie */
            struct csc_layer *l = dec_push(d, CSC_P_L2TP, off, at);
            if (l) {
                l->u.l2tp.version = L2TP_VERSION_3;
                l->u.l2tp.session = sid;
                d->r->stop_layer = dec_index(d, l);
            }
            return;
        }
    }
    uint32_t hdr = at + (uint32_t)l2spec;
    struct csc_layer *l = dec_header(d, CSC_P_L2TP, off, hdr);
    if (!l)
        return;
    l->u.l2tp.version = L2TP_VERSION_3;
    l->u.l2tp.session = sid;
    l->u.l2tp.l2spec = (uint8_t)l2spec;
    if (guess && off + at < d->end)
        l->notes |= CSC_N_L2SPEC_GUESSED;
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

/* Over UDP an L2TP header the UDP payload ends inside: the stop names the
 * bytes the payload has (its value), which the replay hands back to the
 * tunnel's UDP socket (l2tp_udp_encap_recv: fewer than 14, the kernel's
 * L2TP_HDR_SIZE_MAX, are not L2TP to it; core/replay/l2tp.c). */
static void l2tp_udp_short_named(struct dec *d, uint32_t off)
{
    struct csc_result *r = d->r;
    if (r->stop == CSC_STOP_MALFORMED && r->stop_proto == CSC_P_L2TP && r->stop_off == off &&
        !r->stop_has_value && d->end > off) {
        r->stop_value = d->end - off;
        r->stop_has_value = 1;
    }
}

static void l2tp_udp_header(struct dec *d, uint32_t off)
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

void dec_l2tp_udp(struct dec *d, uint32_t off)
{
    l2tp_udp_header(d, off);
    l2tp_udp_short_named(d, off);
}
