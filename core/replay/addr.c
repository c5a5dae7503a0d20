/*
 * addr.c - what the receive path decides from the addresses alone, before
 * any transport: the checks of ip6_rcv_core (net/ipv6/ip6_input.c) and the
 * martians of ip_route_input_rcu / ip_route_input_slow (net/ipv4/route.c),
 * v6.12; the same in 6.1.192 (docs/kernel-branches.md, sections 11 and 14).
 *
 * The model's receiver owns the unicast destination it is sent (an address
 * on the receiving device). Where a multicast or limited-broadcast
 * destination goes depends on the groups it joined and its sockets, which
 * the model does not know: unknown, except the all-hosts / all-nodes group
 * every interface joins (224.0.0.1, ff02::1).
 */
#include "addr.h"
#include "replay.h"

#include <string.h>

static bool all_zero(const uint8_t *a, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (a[i])
            return false;
    return true;
}

/* ipv4_is_zeronet is addr == 0 in 5.10-6.12 (0.0.0.0/8 became unicast in
 * v5.3; older eras took the whole 0/8: not an era switch here). */
static unsigned v4_classes(const uint8_t *s, const uint8_t *d)
{
    static const uint8_t lbcast[4] = { 255, 255, 255, 255 }, all_hosts[4] = { 224, 0, 0, 1 };
    unsigned c = 0;
    c |= (s[0] & 0xf0) == 0xe0 ? A_SRC_MCAST : 0;
    c |= !memcmp(s, lbcast, 4) ? A_SRC_LBCAST : 0;
    c |= all_zero(s, 4) ? A_SRC_ZERO : 0;
    c |= s[0] == 127 ? A_SRC_LOOPBACK : 0;
    c |= (d[0] & 0xf0) == 0xe0 ? A_DST_MCAST : 0;
    c |= !memcmp(d, all_hosts, 4) ? A_DST_ALL_HOSTS : 0;
    c |= !memcmp(d, lbcast, 4) ? A_DST_LBCAST : 0;
    c |= all_zero(d, 4) ? A_DST_ZERO : 0;
    c |= d[0] == 127 ? A_DST_LOOPBACK : 0;
    return c;
}

static unsigned v6_classes(const uint8_t *s, const uint8_t *d)
{
    static const uint8_t loopback[16] = { [15] = 1 }, all_nodes[16] = { 0xff, 0x02, [15] = 1 };
    unsigned c = 0;
    c |= s[0] == 0xff ? A_SRC_MCAST : 0;
    c |= !memcmp(s, loopback, 16) ? A_SRC_LOOPBACK : 0;
    c |= d[0] == 0xff ? A_DST_MCAST : 0;
    c |= d[0] == 0xff && (d[1] & 0x0f) <= 1 ? A_DST_MC_SCOPE01 : 0;
    c |= !memcmp(d, all_nodes, 16) ? A_DST_ALL_HOSTS : 0;
    c |= !memcmp(d, loopback, 16) ? A_DST_LOOPBACK : 0;
    c |= all_zero(d, 16) ? A_DST_ZERO : 0;
    return c;
}

unsigned ip_addr_classes_at(const struct pkt *p, unsigned proto, uint32_t addr_off)
{
    bool v6 = proto == CSC_P_IPV6;
    unsigned n = v6 ? 16 : 4;
    const uint8_t *a = pkt_sum_span(p, addr_off, 2 * n);   /* the class is what is noted */
    if (!a || (proto != CSC_P_IPV4 && !v6))
        return 0;
    return v6 ? v6_classes(a, a + n) : v4_classes(a, a + n);
}

/* The addresses are values (a flow's): what the model takes from them is
 * their class, noted as such when the reads are recorded (rec.h) */
unsigned ip_addr_classes(const struct pkt *p, const struct csc_layer *l)
{
    unsigned c = ip_addr_classes_at(p, l->proto, l->u.ip.addr_off);
    if (PKT_UNLIKELY(p->rec != 0))
        rec_class(p->rec, RCL_ADDR, l->proto, l->u.ip.addr_off, c);
    return c;
}

/* A capture of loopback traffic: the outermost IP layer goes from a
 * loopback address to one (127/8, ::1). It was taken on lo, where a locally
 * made packet carries its route and ip_rcv_core's loopback rules do not
 * apply; the replay goes on as before (a NIC's report, no address rule).
 * Decapsulated layers get the rules: a tunnel device is not lo. */
static bool lo_capture(const struct rp *rp, uint8_t i, unsigned c)
{
    if ((c & (A_SRC_LOOPBACK | A_DST_LOOPBACK)) != (A_SRC_LOOPBACK | A_DST_LOOPBACK))
        return false;
    for (uint8_t j = 0; j < i; j++)
        if (L(rp, j)->proto == CSC_P_IPV4 || L(rp, j)->proto == CSC_P_IPV6)
            return false;
    return true;
}

/* ip_route_input_rcu / ip_route_input_slow, v6.12: a multicast or limited
 * broadcast source, a 0.0.0.0 source (but to 255.255.255.255), a 0.0.0.0
 * or (route_localnet 0) 127/8 destination, a 127/8 source are martians,
 * dropped without a MIB counter (RT_CACHE_STAT only; 127/8 is routed with
 * route_localnet, cfg->route_localnet); to a multicast group
 * (ip_route_input_mc) a 0.0.0.0 source is allowed. A multicast or
 * limited-broadcast destination: unknown (see above) - a group other than
 * 224.0.0.1 is dropped when the receiver is known to have joined none
 * (cfg mc_only_all_hosts). False when the packet went no further. */
bool ip_route_input_addrs(struct rp *rp, uint8_t i)
{
    unsigned c = ip_addr_classes(&rp->p, L(rp, i));
    if (lo_capture(rp, i, c))
        return true;
    bool martian = c & (A_SRC_MCAST | A_SRC_LBCAST);
    if (c & A_DST_MCAST) {
        if (!(c & A_DST_ALL_HOSTS)) {
            /* ip_route_input_rcu: ip_check_mc_rcu finds no such group on the
             * device and it forwards no multicast (IN_DEV_MFORWARD): -EINVAL,
             * ip_rcv_finish_core's drop_error, no counter - what the
             * receiver's groups decide; known only when the configuration
             * says it joined none (cfg mc_only_all_hosts) */
            if (rp->cfg->mc_only_all_hosts) {
                rp_drop(rp, i, KF_IP_ROUTE_INPUT, KD_MC_NOT_JOINED, 0);
                return false;
            }
            rp_unknown(rp, i, KF_IP_ROUTE_INPUT);
            return false;
        }
        martian = martian || ((c & A_SRC_LOOPBACK) && !rp->cfg->route_localnet);
    } else if (!martian && ((c & A_DST_LBCAST) || (c & (A_SRC_ZERO | A_DST_ZERO)) == (A_SRC_ZERO | A_DST_ZERO))) {
        rp_unknown(rp, i, KF_IP_ROUTE_INPUT);   /* brd_input: local broadcast */
        return false;
    } else {
        martian = martian || (c & (A_SRC_ZERO | A_DST_ZERO)) ||
                  ((c & (A_DST_LOOPBACK | A_SRC_LOOPBACK)) && !rp->cfg->route_localnet);
    }
    if (!martian)
        return true;
    rp_drop(rp, i, KF_IP_ROUTE_INPUT, KD_MARTIAN, 0);
    return false;
}

/* ip6_rcv_core, v6.12: on a device that is not loopback, a loopback source
 * or destination, a multicast destination of scope 0 or 1 (interface-local)
 * and a multicast source are header errors (IP_INHDR, Ip6InHdrErrors). A
 * multicast destination otherwise: unknown but ff02::1. */
bool ip6_rcv_core_addrs(struct rp *rp, uint8_t i)
{
    unsigned c = ip_addr_classes(&rp->p, L(rp, i));
    if (lo_capture(rp, i, c))
        return true;
    if (c & (A_SRC_LOOPBACK | A_DST_LOOPBACK | A_DST_MC_SCOPE01 | A_SRC_MCAST)) {
        rp_drop(rp, i, KF_IPV6_RCV, KD_IP_INHDR, CNT(CSC_C_IP6_IN_HDR_ERRORS));
        return false;
    }
    if ((c & A_DST_MCAST) && !(c & A_DST_ALL_HOSTS)) {
        rp_unknown(rp, i, KF_IPV6_RCV);
        return false;
    }
    return true;
}

/* ip6_rcv_finish -> ip6_route_input (net/ipv6/ip6_input.c, route.c, v6.12):
 * the unspecified destination (::) is no address of the receiver. With no
 * route to it, ip6_pkt_discard's ip6_pkt_drop counts Ip6InAddrErrors for
 * an IPV6_ADDR_ANY destination (IP_INADDRERRORS); under a default route
 * ip6_forward, forwarding off (the model's receiver), counts the same. It
 * runs after ip6_rcv_core (its hop-by-hop header included), before every
 * other extension header. False when the packet went no further. */
bool ip6_route_input_addrs(struct rp *rp, uint8_t i)
{
    unsigned c = ip_addr_classes(&rp->p, L(rp, i));
    if (!(c & A_DST_ZERO) || lo_capture(rp, i, c))
        return true;
    rp_drop(rp, i, KF_IP6_ROUTE_INPUT, KD_IP_INADDRERRORS, CNT(CSC_C_IP6_IN_ADDR_ERRORS));
    return false;
}

/* ip_rcv_options -> __ip_options_compile (net/ipv4/ip_input.c,
 * net/ipv4/ip_options.c, v6.12; the same in Debian's 5.10 and 6.1): run by
 * ip_rcv_finish_core after the route for a header with options (ihl > 5).
 * What refuses them: an option length under 2 or past the options; LSRR /
 * SSRR, RR and timestamp pointers under their minimum or whose next slot
 * overruns the option; a second source route, RR or timestamp; a timestamp
 * whose overflow count is already 15; any CIPSO option (cipso_v4_validate:
 * a stock receiver has no DOI). The packet is then dropped with
 * IpInHdrErrors (and a parameter problem to the sender). A source route that
 * compiles is dropped without a counter: accept_source_route is 0 (the
 * model's receiver). What the compile only rewrites (a record-route slot, a
 * timestamp, bytes after an end of list) happens after the NIC summed the
 * packet: no checksum sees it. False when the packet went no further. */
bool ip_rcv_options(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    if (ip->hdr_len <= IPV4_HLEN)
        return true;
    uint32_t off = ip->off + IPV4_HLEN;
    int l = (int)ip->hdr_len - IPV4_HLEN;
    bool srr = false, rr = false, ts = false, bad = false;
    uint8_t o[4];
    rp_enter(rp, i, KF_IP_RCV_OPTIONS);
    while (l > 0 && !bad) {
        if (!pkt_u8(&rp->p, off, &o[0]))
            goto unknown;
        if (o[0] == IPOPT_END_)
            break;
        if (o[0] == IPOPT_NOOP_) {
            l--;
            off++;
            continue;
        }
        if (l < 2) {
            bad = true;
            break;
        }
        if (!pkt_u8(&rp->p, off + 1u, &o[1]))
            goto unknown;
        int optlen = o[1];
        if (optlen < 2 || optlen > l) {
            bad = true;
            break;
        }
        /* the pointer and flags bytes, where the option has them */
        o[2] = o[3] = 0;
        if ((optlen > 2 && !pkt_u8(&rp->p, off + 2u, &o[2])) || (optlen > 3 && !pkt_u8(&rp->p, off + 3u, &o[3])))
            goto unknown;
        switch (o[0]) {
        case IPOPT_SSRR_: case IPOPT_LSRR_:
            bad = optlen < 3 || o[2] < 4 || srr;
            srr = true;
            break;
        case IPOPT_RR_:
            bad = rr || optlen < 3 || o[2] < 4 || (o[2] <= optlen && o[2] + 3 > optlen);
            rr = true;
            break;
        case IPOPT_TS_:
            bad = ts || optlen < 4 || o[2] < 5;
            if (!bad && o[2] <= optlen) {
                uint8_t fl = o[3] & 0x0f;
                bad = o[2] + 3 > optlen ||
                      ((fl == IPOPT_TS_TSANDADDR_ || fl == IPOPT_TS_PRESPEC_) && o[2] + 7 > optlen);
            } else if (!bad && (o[3] & 0x0f) != IPOPT_TS_PRESPEC_) {
                bad = (o[3] >> 4) == 15;
            }
            ts = true;
            break;
        case IPOPT_RA_:
            bad = optlen < 4;
            break;
        case IPOPT_CIPSO_:
            bad = true;
            break;
        default:                 /* security, stream ID, unknown: taken as they are */
            break;
        }
        l -= optlen;
        off += (uint32_t)optlen;
    }
    if (bad) {
        rp_drop(rp, i, KF_IP_RCV_OPTIONS, KD_IP_OPTIONS, CNT(CSC_C_IP_IN_HDR_ERRORS));
        return false;
    }
    if (srr) {
        rp_drop(rp, i, KF_IP_RCV_OPTIONS, KD_IP_SRR, 0);
        return false;
    }
    return true;
unknown:
    rp_unknown(rp, i, KF_IP_RCV_OPTIONS);
    return false;
}
