/*
 * pull.c - a header the packet does not hold. The decoder stops on a header
 * shorter than its fixed part as malformed when every enclosing length is
 * right (cut on the wire, not by a capture: that is truncated). The kernel
 * function that takes the packet there pulls the header first
 * (pskb_may_pull, __iptunnel_pull_header, pskb_inet_may_pull) and drops it
 * when the bytes are not there - each its own way, read at v6.12 (the same in
 * Debian's 6.1.192; docs/kernel-branches.md udp-1, tcp-2, gre-1, vx-1,
 * vx-14, gnv-1, gnv-5, gnv-11, gue-1, itr-5, itr-9, itr-11, icmp-3, icmp6-3,
 * l2tp-5, l2tp-10):
 *
 *   short header   after           kernel function                     drop
 *   UDP            IP              __udp4_lib_rcv / __udp6_lib_rcv     Udp[6]InErrors
 *   TCP            IP              tcp_v4_rcv / tcp_v6_rcv             discard (TcpInSegs only)
 *   ICMP / ICMPv6  IP              icmp_rcv / icmpv6_rcv: the checksum Icmp[6]InErrors (a bad
 *                                  over what is there, then pskb_pull  sum: + InCsumErrors)
 *   IPv4 / IPv6    IP, FOU, GUE    tunnel4_rcv, tunnel64_rcv,          silent
 *                                  tunnel6_rcv, tunnel46_rcv
 *   GRE            IP, FOU         gre_rcv (gre_demux.c: 12 bytes),    silent
 *                                  gre_parse_header (-EINVAL)
 *   L2TPv3         IP              l2tp_ip_recv / l2tp_ip6_recv: the   silent
 *                                  session ID, then cookie + sublayer
 *                                  (l2tp_v3_ensure_opt_in_linear)
 *   VXLAN          UDP             vxlan_rcv (VXLAN_HLEN)              silent
 *   GENEVE         UDP             geneve_udp_encap_recv: the base     silent
 *                                  header; options past the packet     dev:rx_dropped
 *                                  (iptunnel_pull_header)
 *   GUE            UDP             gue_udp_recv (any failed pull)      silent
 *   Ethernet       VXLAN           __iptunnel_pull_header (NOMEM)      silent
 *                  GENEVE          iptunnel_pull_header                dev:rx_dropped
 *                  GRE, ERSPAN/4   __ipgre_rcv, erspan_rcv, ip6gre's   silent
 *                                  gre_rcv (iptunnel_pull_header)
 *                  L2TPv3          l2tp_eth_dev_recv (ETH_HLEN)        silent
 *   IPv4 / IPv6    VXLAN, GENEVE,  pskb_inet_may_pull in vxlan_rcv,    dev:rx_length_errors
 *                  GRE, ERSPAN/4   geneve_rx, ip_tunnel_rcv;              + dev:rx_errors
 *                                  skb_vlan_inet_prepare in
 *                                  __ip6_tnl_rcv (ip6gre, ip6gretap)
 *
 * The last row is eras TUNNEL_INNER_PULL (geneve_rx, ip_tunnel_rcv: "ip_tunnel:
 * make sure to pull inner header in ip_tunnel_rcv()", __ip6_tnl_rcv; 2024,
 * stable backports in Debian's 5.10 and 6.1) and VXLAN_INNER_PULL
 * (vxlan_rcv: "vxlan: Pull inner IP header in vxlan_rcv()", 2024; not in the
 * 5.10 VM kernel, which the fixed cases showed going on to the device);
 * before them the packet went on to the device and ip_rcv_core - modelled
 * for VXLAN (rx.c:tunnel_dev_short_ip: Ip[6]InHdrErrors, the 5.10 fixed
 * cases of vx-14), not for the others (unknown: every VM kernel has their
 * pull). A short inner header of ip6erspan
 * (__ip6_tnl_rcv pulls the Ethernet header itself) and the headers after a
 * VLAN tag are not in the table: unknown.
 */
#include "pull.h"

#include "../proto/wire.h"

enum at_kind {
    AT_IP,       /* the IP protocol handler (inet_protos[]), also a FOU/GUE resubmit */
    AT_UDP,      /* the UDP tunnel socket's encap_rcv */
    AT_TUNNEL,   /* the tunnel's own pull of what it carries */
    AT_ETH,      /* the tunnel's pull of the network header after its Ethernet */
};

struct pull_rule {
    uint8_t at;            /* enum at_kind */
    uint8_t tunnel;        /* AT_TUNNEL, AT_ETH: the tunnel header; else CSC_P_NONE */
    uint8_t shorter;       /* the short header (IP_EITHER: IPv4 or IPv6) */
    uint8_t family;        /* 4 / 6: only under that outer family; 0 either */
    uint8_t era_sw;        /* an era switch the rule needs (CSC_E__COUNT: none) */
    uint8_t fn4, fn6;      /* enum kfn under IPv4 / IPv6 */
    uint32_t c4, c6;       /* counters under IPv4 / IPv6 */
};

#define LEN_ERR (CNT(CSC_C_DEV_RX_LENGTH_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS))
#define NO_ERA CSC_E__COUNT
#define IP_EITHER CSC_P__COUNT  /* shorter: an inner IPv4 or IPv6 header, the same rule */

static const struct pull_rule rules[] = {
    { AT_IP, CSC_P_NONE, CSC_P_UDP, 0, NO_ERA, KF_UDP4_LIB_RCV, KF_UDP6_LIB_RCV,
      CNT(CSC_C_UDP_IN_ERRORS), CNT(CSC_C_UDP6_IN_ERRORS) },
    { AT_IP, CSC_P_NONE, CSC_P_TCP, 0, NO_ERA, KF_TCP_V4_RCV, KF_TCP_V6_RCV, 0, 0 },
    { AT_IP, CSC_P_NONE, CSC_P_ICMP, 4, NO_ERA, KF_ICMP_RCV, KF_ICMP_RCV, 0, 0 },
    { AT_IP, CSC_P_NONE, CSC_P_ICMPV6, 6, NO_ERA, KF_ICMPV6_RCV, KF_ICMPV6_RCV, 0, 0 },
    { AT_IP, CSC_P_NONE, CSC_P_IPV4, 0, NO_ERA, KF_IPIP_RCV, KF_IP6_TNL_RCV, 0, 0 },
    { AT_IP, CSC_P_NONE, CSC_P_IPV6, 0, NO_ERA, KF_IPIP6_RCV, KF_IP6_TNL_RCV, 0, 0 },
    { AT_IP, CSC_P_NONE, CSC_P_GRE, 0, NO_ERA, KF_GRE_RCV, KF_GRE_PARSE_HEADER, 0, 0 },
    { AT_IP, CSC_P_NONE, CSC_P_L2TP, 0, NO_ERA, KF_L2TP_IP_RECV, KF_L2TP_IP6_RECV, 0, 0 },
    { AT_UDP, CSC_P_NONE, CSC_P_VXLAN, 0, NO_ERA, KF_VXLAN_RCV, KF_VXLAN_RCV, 0, 0 },
    { AT_UDP, CSC_P_NONE, CSC_P_VXLAN_GPE, 0, NO_ERA, KF_VXLAN_RCV, KF_VXLAN_RCV, 0, 0 },
    { AT_UDP, CSC_P_NONE, CSC_P_GENEVE, 0, NO_ERA, KF_GENEVE_UDP_ENCAP_RECV, KF_GENEVE_UDP_ENCAP_RECV, 0, 0 },
    { AT_UDP, CSC_P_NONE, CSC_P_GUE, 0, NO_ERA, KF_GUE_UDP_RECV, KF_GUE_UDP_RECV, 0, 0 },
    { AT_TUNNEL, CSC_P_VXLAN, CSC_P_ETH, 0, NO_ERA, KF_VXLAN_RCV, KF_VXLAN_RCV, 0, 0 },
    { AT_TUNNEL, CSC_P_GENEVE, CSC_P_ETH, 0, NO_ERA, KF_GENEVE_UDP_ENCAP_RECV, KF_GENEVE_UDP_ENCAP_RECV,
      CNT(CSC_C_DEV_RX_DROPPED), CNT(CSC_C_DEV_RX_DROPPED) },
    { AT_TUNNEL, CSC_P_GRE, CSC_P_ETH, 0, NO_ERA, KF_GRE_RCV, KF_GRE_RCV, 0, 0 },
    { AT_TUNNEL, CSC_P_L2TP, CSC_P_ETH, 0, NO_ERA, KF_L2TP_ETH_DEV_RECV, KF_L2TP_ETH_DEV_RECV, 0, 0 },
    { AT_TUNNEL, CSC_P_ERSPAN, CSC_P_ETH, 4, NO_ERA, KF_ERSPAN_RCV, KF_ERSPAN_RCV, 0, 0 },
    { AT_TUNNEL, CSC_P_GRE, CSC_P_ERSPAN, 4, NO_ERA, KF_GRE_PARSE_HEADER, KF_GRE_PARSE_HEADER, 0, 0 },
    { AT_TUNNEL, CSC_P_GRE, IP_EITHER, 0, CSC_E_TUNNEL_INNER_PULL, KF_IP_TUNNEL_RCV, KF_IP6_TNL_RCV,
      LEN_ERR, LEN_ERR },
    { AT_TUNNEL, CSC_P_GENEVE, IP_EITHER, 0, CSC_E_TUNNEL_INNER_PULL, KF_GENEVE_RX, KF_GENEVE_RX,
      LEN_ERR, LEN_ERR },
    { AT_ETH, CSC_P_VXLAN, IP_EITHER, 0, CSC_E_VXLAN_INNER_PULL, KF_VXLAN_RCV, KF_VXLAN_RCV, LEN_ERR, LEN_ERR },
    { AT_ETH, CSC_P_GENEVE, IP_EITHER, 0, CSC_E_TUNNEL_INNER_PULL, KF_GENEVE_RX, KF_GENEVE_RX,
      LEN_ERR, LEN_ERR },
    { AT_ETH, CSC_P_GRE, IP_EITHER, 0, CSC_E_TUNNEL_INNER_PULL, KF_IP_TUNNEL_RCV, KF_IP6_TNL_RCV,
      LEN_ERR, LEN_ERR },
    { AT_ETH, CSC_P_ERSPAN, IP_EITHER, 4, CSC_E_TUNNEL_INNER_PULL, KF_IP_TUNNEL_RCV, KF_IP_TUNNEL_RCV,
      LEN_ERR, LEN_ERR },
};

/* Bytes of the skb from off on (the IP and UDP lengths have trimmed it) */
static uint32_t bytes_at(const struct rp *rp, uint32_t off)
{
    return rp->skb.tail > off ? rp->skb.tail - off : 0;
}

/* The IP layer a layer travels in (an IP layer: itself) */
static bool in_ipv6(const struct rp *rp, uint8_t i)
{
    const struct csc_layer *l = L(rp, i);
    if (l->proto == CSC_P_IPV4 || l->proto == CSC_P_IPV6)
        return l->proto == CSC_P_IPV6;
    return l->ip != CSC_NO_LAYER && L(rp, l->ip)->proto == CSC_P_IPV6;
}

/* gre_calc_hlen (include/net/gre.h): 4, and 4 for each of C, K, S */
static uint32_t gre_calc_hlen(const struct rp *rp, uint32_t off)
{
    uint8_t f = 0;
    if (!pkt_u8(&rp->p, off, &f))
        return GRE_HLEN;
    uint16_t flags = (uint16_t)(f << 8);
    return GRE_HLEN + ((flags & GRE_C) ? 4u : 0u) + ((flags & GRE_K) ? 4u : 0u) + ((flags & GRE_S) ? 4u : 0u);
}

/* The fixed part the kernel pulls of a header at off (0: no rule) */
static uint32_t pull_len(const struct rp *rp, uint8_t proto, uint32_t off)
{
    switch (proto) {
    case CSC_P_UDP: return UDP_HLEN;
    case CSC_P_TCP: return TCP_HLEN;
    case CSC_P_IPV4: return IPV4_HLEN;
    case CSC_P_IPV6: return IPV6_HLEN;
    case CSC_P_ETH: return ETH_HLEN;
    case CSC_P_VXLAN: case CSC_P_VXLAN_GPE: return VXLAN_HLEN;
    case CSC_P_GENEVE: return GENEVE_HLEN;
    case CSC_P_GRE: return gre_calc_hlen(rp, off);
    case CSC_P_L2TP: {
        /* l2tp_ip_recv / l2tp_ip6_recv (v6.12): the session ID, then
         * l2tp_v3_ensure_opt_in_linear the session's cookie and sublayer -
         * the receiver's as configured (a guessed sublayer: unknown, 0).
         * Session 0 is a control message (12 bytes, pass_up): not here. */
        uint32_t id = 0;
        if (bytes_at(rp, off) >= L2TPV3_SESSION_LEN && pkt_be32(&rp->p, off, &id) && id == 0)
            return 0;
        if (rp->cfg->l2tp_l2spec_len == CSC_L2TP_L2SPEC_AUTO)
            return L2TPV3_SESSION_LEN;
        return L2TPV3_SESSION_LEN + rp->cfg->l2tp_cookie_len + rp->cfg->l2tp_l2spec_len;
    }
    default: return 0;
    }
}

/* geneve_udp_encap_recv (drivers/net/geneve.c, v6.12) on a GENEVE header
 * whose base is there: version not 0 is dropped silently; then the inner
 * protocol check and iptunnel_pull_header of the base and the options both
 * count rx_dropped - options past the packet end there. False: the header
 * the decoder refused is not short. */
static bool geneve_options_short(struct rp *rp, uint8_t at, uint32_t off, uint32_t have)
{
    uint8_t b0 = 0;
    if (!pkt_u8(&rp->p, off, &b0))
        return false;
    if (GENEVE_HLEN + (uint32_t)(b0 & GENEVE_OPTLEN_MASK) * 4u <= have)
        return false;
    uint32_t c = 0;
    if ((b0 >> GENEVE_VER_SHIFT) == 0) {
        if (!era(rp, CSC_E_GENEVE_INNER_PROTO_INHERIT))
            return false;          /* older receivers: not read */
        c = CNT(CSC_C_DEV_RX_DROPPED);
    }
    rp_drop(rp, at, KF_GENEVE_UDP_ENCAP_RECV, KD_PKT_TOO_SMALL, c);
    return true;
}

/* TCP with its 20 bytes but a data offset past the segment: tcp_v4_rcv's
 * pskb_may_pull(doff * 4) discards it (a data offset under 5 is the
 * decoder's short-length note, counted TcpInErrs in tcp_rcv). */
static bool tcp_options_short(struct rp *rp, uint8_t at, uint32_t off, uint32_t have, bool v6)
{
    uint8_t b = 0;
    if (!pkt_u8(&rp->p, (uint64_t)off + 12u, &b) || (b >> 4) < 5 || (uint32_t)(b >> 4) * 4u <= have)
        return false;
    rp_drop(rp, at, v6 ? KF_TCP_V6_RCV : KF_TCP_V4_RCV, KD_PKT_TOO_SMALL, 0);
    return true;
}

/* icmp_rcv / icmpv6_rcv (net/ipv4/icmp.c, net/ipv6/icmp.c, v6.12) on an
 * ICMP header shorter than its 8 bytes: skb_checksum_simple_validate /
 * skb_checksum_validate (with the pseudo-header) over the bytes there -
 * trusted (UNNECESSARY, PARTIAL; not csum_valid, which it clears first),
 * else summed in software (short of CHECKSUM_BREAK) - then
 * pskb_pull of the header fails. ip is the IP layer before it. */
static void icmp_header_short(struct rp *rp, uint8_t ip, uint32_t off, uint32_t have, bool v6)
{
    /* __skb_checksum_validate clears csum_valid before it asks
     * skb_csum_unnecessary: a UDP tunnel's outer validation (csum_valid
     * left by udp[6]_csum_init) stands for nothing here */
    rp->skb.csum_valid = false;
    bool ok = skb_csum_unnecessary(rp);
    if (!ok) {
        /* summed from the bytes read here (and the IPv6 addresses for the
         * pseudo-header): no layer's verdict stands for this sum, so the
         * reads must say what the outcome depends on (the fast path's guard) */
        uint32_t sum = 0;
        uint8_t b = 0, addr[2][16];
        for (uint32_t k = 0; k < have; k++) {
            if (!pkt_u8(&rp->p, (uint64_t)off + k, &b)) {
                rp_unknown(rp, ip, v6 ? KF_ICMPV6_RCV : KF_ICMP_RCV);
                return;
            }
            sum = csum_add(sum, (k & 1u) ? b : (uint32_t)b << 8);
        }
        if (v6) {
            uint32_t a = L(rp, ip)->off + 8u;
            for (unsigned k = 0; k < 32; k++)
                if (!pkt_u8(&rp->p, (uint64_t)a + k, &addr[k / 16][k % 16])) {
                    rp_unknown(rp, ip, KF_ICMPV6_RCV);
                    return;
                }
            sum = csum_add(sum, ip6_pseudo(addr[0], addr[1], have, IPPROTO_ICMPV6_));
        }
        rp_count_pass(rp, have);
        ok = csum_valid_total(sum);
    }
    uint32_t c = v6 ? CNT(CSC_C_ICMP6_IN_ERRORS) : CNT(CSC_C_ICMP_IN_ERRORS);
    if (!ok)
        c |= v6 ? CNT(CSC_C_ICMP6_IN_CSUM_ERRORS) : CNT(CSC_C_ICMP_IN_CSUM_ERRORS);
    rp_drop(rp, ip, v6 ? KF_ICMPV6_RCV : KF_ICMP_RCV, ok ? KD_PKT_TOO_SMALL : KD_ICMP_CSUM, c);
}

static bool shorter_matches(uint8_t rule, uint8_t shorter)
{
    if (rule == IP_EITHER)
        return shorter == CSC_P_IPV4 || shorter == CSC_P_IPV6;
    return rule == shorter;
}

/* An ERSPAN II/III header short after GRE over IPv4 (gre-8):
 * gre_parse_header pulls its 4-byte base header (-EINVAL), then erspan_rcv
 * pulls erspan_hdr_len() of the version there, 8 or 12 bytes (PACKET_REJECT:
 * icmp_send, port unreachable); both end at gre_rcv's drop label
 * (net/ipv4/gre_demux.c, net/ipv4/ip_gre.c, v6.12 = 6.1.192): no counter,
 * 7.2.13's rx_dropped on the receiving device (GRE_RX_DROPPED). Version 0
 * pulls nothing more: not this rule. */
static bool erspan_short(struct rp *rp, uint8_t at, uint32_t off, uint32_t have)
{
    enum kfn fn = KF_GRE_PARSE_HEADER;
    if (have >= 4u) {
        uint8_t b0 = 0;
        if (!pkt_u8(&rp->p, off, &b0) || (b0 >> 4) == 0)
            return false;
        uint32_t need = (b0 >> 4) == 1 ? 8u : 12u;
        if (have >= need)
            return false;
        fn = KF_ERSPAN_RCV;
    }
    rp_drop(rp, at, fn, KD_PKT_TOO_SMALL, gre_drop_nic(rp));
    return true;
}

static enum at_kind at_kind_of(const struct rp *rp, uint8_t s, uint8_t *tunnel)
{
    uint8_t p = L(rp, s)->proto;
    *tunnel = CSC_P_NONE;
    if (p == CSC_P_IPV4 || p == CSC_P_IPV6 || p == CSC_P_FOU || p == CSC_P_GUE || p == CSC_P_GRE_UDP)
        return AT_IP;
    if (p == CSC_P_UDP)
        return AT_UDP;
    if (p == CSC_P_ETH) {
        if (s == 0)
            return AT_IP;          /* no rule has it: the NIC's own Ethernet */
        *tunnel = L(rp, s - 1)->proto;
        return AT_ETH;
    }
    *tunnel = p;
    return AT_TUNNEL;
}

/* 7.2.13's gre_rcv (gre_demux.c, ip_gre.c, ip6_gre.c) counts every drop of
 * its own in the receiving device's rx_dropped, a failed pull too (issue 28
 * finding 2, era GRE_RX_DROPPED; rx.c:gre_rcv for the header checks) */
uint32_t gre_drop_nic(const struct rp *rp)
{
    /* dev_core_stats_rx_dropped_inc(skb->dev): the NIC, or the tunnel
     * device that decapsulated the GRE packet (GRE inside IPIP: 7.2.13
     * counts the ipip device's rx_dropped, kf case of tgr-20) */
    if (!era(rp, CSC_E_GRE_RX_DROPPED))
        return 0;
    return rp->dev == 0 ? CNT(CSC_C_NIC_RX_DROPPED) : CNT(CSC_C_DEV_RX_DROPPED);
}

bool pskb_may_pull_fails(struct rp *rp, uint8_t at)
{
    const struct csc_result *r = rp->r;
    if (r->stop != CSC_STOP_MALFORMED || r->stop_reasm || r->stop_layer >= r->nlayers ||
        r->stop_layer + 1u != r->nlayers || r->stop_layer < at)
        return false;
    uint8_t s = r->stop_layer;
    /* only the L2 header the tunnel carries may lie between */
    if (s > at && !(s == at + 1u && L(rp, s)->proto == CSC_P_ETH))
        return false;
    uint8_t tunnel;
    enum at_kind kind = at_kind_of(rp, s, &tunnel);
    bool v6 = in_ipv6(rp, kind == AT_ETH ? (uint8_t)(s - 1) : s);
    uint32_t off = r->stop_off, have = bytes_at(rp, off);
    uint8_t shorter = r->stop_proto;
    /* an IP stop inside the header (an option or extension header cut, the
     * decoder's offset is there) is no failed pull of the fixed header */
    if ((shorter == CSC_P_IPV4 || shorter == CSC_P_IPV6) && off != L(rp, s)->off + L(rp, s)->hdr_len)
        return false;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const struct pull_rule *u = &rules[i];
        if (u->at != kind || u->tunnel != tunnel || !shorter_matches(u->shorter, shorter) ||
            (u->family && u->family != (v6 ? 6 : 4)) || (u->era_sw != NO_ERA && !era(rp, u->era_sw)))
            continue;
        if (shorter == CSC_P_GUE) {
            /* gue_udp_recv: every header it refuses, short or not, is
             * freed at its drop label (kfree_skb: NOT_SPECIFIED, v6.12) */
            rp_drop(rp, at, KF_GUE_UDP_RECV, KD_GUE_HDR, 0);
            return true;
        }
        if (shorter == CSC_P_ERSPAN)
            return erspan_short(rp, at, off, have);
        if (shorter == CSC_P_ICMP || shorter == CSC_P_ICMPV6) {
            if (have >= ICMP_HLEN || s != at)
                return false;
            icmp_header_short(rp, s, off, have, v6);
            return true;
        }
        uint32_t need = pull_len(rp, shorter, off);
        if (need && have < need) {
            /* a GRE header, or ip6gretap's inner Ethernet, short: gre_rcv's
             * own drop (sid's 7.2.13 counts both; ip6gretap's short inner IP
             * is __ip6_tnl_rcv's, and counts none) */
            bool gre_own = shorter == CSC_P_GRE ||
                           (kind == AT_TUNNEL && tunnel == CSC_P_GRE && shorter == CSC_P_ETH && v6);
            uint32_t nic = gre_own ? gre_drop_nic(rp) : 0;
            rp_drop(rp, at, (enum kfn)(v6 ? u->fn6 : u->fn4), KD_PKT_TOO_SMALL,
                    (v6 ? u->c6 : u->c4) | nic);
            return true;
        }
        if (shorter == CSC_P_GENEVE)
            return geneve_options_short(rp, at, off, have);
        if (shorter == CSC_P_TCP)
            return tcp_options_short(rp, at, off, have, v6);
        return false;
    }
    /* VXLAN before VXLAN_INNER_PULL: the device's ip_rcv_core pulls it */
    if (kind == AT_ETH && tunnel == CSC_P_VXLAN && !era(rp, CSC_E_VXLAN_INNER_PULL) &&
        shorter_matches(IP_EITHER, shorter) && have < pull_len(rp, shorter, off))
        return tunnel_dev_short_ip(rp, at, s, shorter == CSC_P_IPV6, have);
    return false;
}

bool gre_demux_short(struct rp *rp, uint8_t g)
{
    if (in_ipv6(rp, g) || bytes_at(rp, L(rp, g)->off) >= 12u)
        return false;
    rp_drop(rp, g, KF_GRE_RCV, KD_PKT_TOO_SMALL, gre_drop_nic(rp));
    return true;
}

bool pskb_trim_rcsum_fails(const struct rp *rp, uint32_t new_tail)
{
    const struct sk_buff_model *s = &rp->skb;
    return s->ip_summed == CHECKSUM_PARTIAL && new_tail < s->tail &&
           (uint64_t)s->csum_start + s->csum_offset + CSUM_LEN > new_tail;
}
