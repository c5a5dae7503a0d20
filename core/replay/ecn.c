/*
 * ecn.c - ECN on decapsulation: IP_ECN_decapsulate / IP6_ECN_decapsulate
 * and __INET_ECN_decapsulate (include/net/inet_ecn.h, v6.12; the same in
 * Debian's 6.1.192 and 7.2.13, RFC 6040 section 4.2), as each tunnel's
 * receive calls them after its own header checks and before the device
 * counts the packet (gro_cells_receive / netif_rx):
 *   vxlan_rcv -> vxlan_ecn_decapsulate (drivers/net/vxlan/vxlan_core.c),
 *   geneve_rx (drivers/net/geneve.c), ip_tunnel_rcv (net/ipv4/ip_tunnel.c:
 *   gre, ipip, erspan, gretap), ipip6_rcv (net/ipv6/sit.c), __ip6_tnl_rcv
 *   (net/ipv6/ip6_tunnel.c: ip6tnl, ip6gre, ip6gretap, ip6erspan).
 *
 * __INET_ECN_decapsulate(outer, inner): an inner Not-ECT packet under an
 * outer ECT(0)/ECT(1) is 1 (log only, net_info_ratelimited), under CE 2:
 * every caller drops it with rx_frame_errors + rx_errors on the tunnel
 * device (vxlan_rcv: SKB_DROP_REASON_IP_TUNNEL_ECN; the others kfree_skb).
 * An ECT inner packet is 0: INET_ECN_set_ce / INET_ECN_set_ect1 rewrite its
 * TOS with an incremental header checksum update (IPv4) or skb->csum update
 * (IPv6, CHECKSUM_COMPLETE): no checksum verdict changes.
 *
 * The inner header is read as the kernel finds it: skb_protocol(skb, true)
 * must be ETH_P_IP or ETH_P_IPV6 at the call, the network header just
 * after the inner Ethernet header on an Ethernet device. vxlan_rcv,
 * geneve_rx and __ip6_tnl_rcv call it after eth_type_trans; ip_tunnel_rcv
 * (gretap, erspan) before it, but __iptunnel_pull_header has already set
 * skb->protocol to the inner EtherType (v6.12 ip_tunnel_core.c): an inner
 * Ethernet frame is checked when its EtherType is IP, on every device.
 * Behind an inner VLAN tag skb_protocol(skb, true) (__vlan_get_protocol)
 * walks the tags from skb->data + the outer frame's mac_len - 4. After
 * eth_type_trans (vxlan_rcv, geneve_rx, __ip6_tnl_rcv) skb->data is past
 * the inner Ethernet header and the walk reads the inner IP header as
 * tags: no IP EtherType, no check (the host 6.18 agrees for VXLAN). In
 * ip_tunnel_rcv (gretap, erspan over IPv4) skb->data is the inner Ethernet
 * header itself: with the outer mac_len 14 the walk reads its TPID at
 * bytes 12-13 and goes on to the inner EtherType, so an IP packet behind
 * the tags is found - but the network header is still ETH_HLEN in
 * (skb_set_network_header), on the first tag: the "inner TOS" is the
 * tag's TCI (IPv4: its low byte, IPv6: ipv6_get_dsfield of its two bytes).
 */
#include "replay.h"

enum { INET_ECN_NOT_ECT = 0, INET_ECN_ECT_1 = 1, INET_ECN_ECT_0 = 2, INET_ECN_CE = 3 };

/* __INET_ECN_decapsulate (include/net/inet_ecn.h, v6.12): 0 go on, 1 log,
 * 2 drop */
static int __INET_ECN_decapsulate(uint8_t outer, uint8_t inner)
{
    if (inner != INET_ECN_NOT_ECT)
        return 0;
    return outer == INET_ECN_NOT_ECT ? 0 : outer == INET_ECN_CE ? 2 : 1;
}

/* The ECN field of IP layer i: IPv4 tos & 3, IPv6 (ipv6_get_dsfield) the
 * low two bits of the traffic class, bits 5-4 of the header's second byte.
 * The whole byte is read (the memo keeps whole bytes: analyze_cached.c
 * keep_reads). False when not captured. */
static bool ip_ecn_at(const struct rp *rp, uint64_t off, uint8_t proto, uint8_t *ecn)
{
    uint8_t b = 0;
    if (!pkt_u8(&rp->p, off + WIRE_OFF(ipv4_hdr, tos), &b))
        return false;                 /* IPv4 tos and IPv6's second byte: offset 1 */
    *ecn = proto == CSC_P_IPV4 ? (uint8_t)(b & 0x03) : (uint8_t)((b >> 4) & 0x03);
    return true;
}

static bool ip_ecn(const struct rp *rp, uint8_t i, uint8_t *ecn)
{
    return ip_ecn_at(rp, L(rp, i)->off, L(rp, i)->proto, ecn);
}

/* The function that calls IP[6]_ECN_decapsulate for this device, and
 * whether the inner packet's protocol is IP there (see the head). */
static enum kfn ecn_caller(const struct rp *rp, uint8_t tl, uint8_t l3, bool *checked, bool *on_tag)
{
    const struct csc_layer *t = L(rp, tl);
    bool outer6 = t->ip != CSC_NO_LAYER && L(rp, t->ip)->proto == CSC_P_IPV6;
    bool l2 = tl + 1u < l3;           /* an inner Ethernet header (and tags) */
    bool eth = l2 && L(rp, tl + 1)->proto == CSC_P_ETH;
    bool direct = !l2 || (tl + 2u == l3 && eth);
    *checked = direct;
    *on_tag = false;
    switch (t->proto) {
    case CSC_P_VXLAN: case CSC_P_VXLAN_GPE:
        return KF_VXLAN_RCV;
    case CSC_P_GENEVE:
        return KF_GENEVE_RX;
    case CSC_P_GRE: case CSC_P_ERSPAN:
        if (!outer6 && eth && tl + 2u < l3) {   /* ip_tunnel_rcv: the TCI as the TOS */
            *checked = true;
            *on_tag = true;
        }
        return outer6 ? KF_IP6_TNL_RCV : KF_IP_TUNNEL_RCV;
    case CSC_P_IPV4: case CSC_P_IPV6:  /* IP in IP: tl is the inner IP header */
        if (outer6)
            return KF_IP6_TNL_RCV;
        return t->proto == CSC_P_IPV6 ? KF_IPIP6_RCV : KF_IP_TUNNEL_RCV;
    default:
        *checked = false;
        return KF_NONE;
    }
}

/* IP_ECN_decapsulate / IP6_ECN_decapsulate for the packet tunnel layer tl
 * decapsulated (inner IP layer l3; for IP in IP tl == l3), the outer header
 * tl's enclosing IP layer. False: dropped. */
bool IP_ECN_decapsulate(struct rp *rp, uint8_t tl, uint8_t l3)
{
    bool checked = false, on_tag = false;
    enum kfn fn = ecn_caller(rp, tl, l3, &checked, &on_tag);
    uint8_t outer_ip = L(rp, tl)->ip, outer = 0, inner = 0;
    /* an outer Not-ECT decides alone: the inner field is read only when it
     * can matter (fewer guarded bytes for the memo and the fast path) */
    if (!checked || outer_ip == CSC_NO_LAYER || !ip_ecn(rp, outer_ip, &outer) ||
        outer == INET_ECN_NOT_ECT)
        return true;
    if (on_tag ? !ip_ecn_at(rp, (uint64_t)L(rp, tl + 1)->off + ETH_HLEN, L(rp, l3)->proto, &inner)
               : !ip_ecn(rp, l3, &inner))
        return true;
    int err = __INET_ECN_decapsulate(outer, inner);
    if (!err)
        return true;
    rp_step(rp, tl, fn, W_ECN_NOT_ECT, err > 1 ? CSC_TRI_NO : CSC_TRI_UNDECIDED, 0, NULL);
    if (err == 1)
        return true;                  /* log_ecn_error: a rate-limited log line only */
    rp_drop(rp, tl, fn, fn == KF_VXLAN_RCV ? KD_IP_TUNNEL_ECN : KD_ECN_NOT_ECT,
            CNT(CSC_C_DEV_RX_FRAME_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
    return false;
}

/* IP_ECN_decapsulate / IP6_ECN_decapsulate on an inner IP header at off
 * that the packet does not hold (have bytes; rx.c:tunnel_dev_short_ip):
 * the inner TOS is read without a pull (ip_hdr(skb)->tos,
 * ipv6_get_dsfield), from byte 1; INET_ECN_set_ce / INET_ECN_set_ect1 leave
 * a header shorter than its fixed part alone (their tail check, v6.12),
 * and ip_rcv_core refuses it after either way. tl: the tunnel layer, its
 * inner Ethernet header at tl + 1. 1: go on, 0: dropped, -1: not known
 * (the byte is not in the packet, or not captured). */
int IP_ECN_decapsulate_short(struct rp *rp, uint8_t tl, uint32_t off, bool v6, uint32_t have)
{
    bool checked = false, on_tag = false;
    enum kfn fn = ecn_caller(rp, tl, (uint8_t)(tl + 2u), &checked, &on_tag);
    uint8_t outer_ip = L(rp, tl)->ip, outer = 0, inner = 0;
    if (!checked || on_tag || outer_ip == CSC_NO_LAYER || !ip_ecn(rp, outer_ip, &outer))
        return -1;
    if (outer == INET_ECN_NOT_ECT)
        return 1;                     /* decides alone: the inner byte is not read */
    if (have <= WIRE_OFF(ipv4_hdr, tos) || !ip_ecn_at(rp, off, v6 ? CSC_P_IPV6 : CSC_P_IPV4, &inner))
        return -1;
    int err = __INET_ECN_decapsulate(outer, inner);
    if (!err)
        return 1;
    rp_step(rp, tl, fn, W_ECN_NOT_ECT, err > 1 ? CSC_TRI_NO : CSC_TRI_UNDECIDED, 0, NULL);
    if (err == 1)
        return 1;
    rp_drop(rp, tl, fn, fn == KF_VXLAN_RCV ? KD_IP_TUNNEL_ECN : KD_ECN_NOT_ECT,
            CNT(CSC_C_DEV_RX_FRAME_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
    return 0;
}
