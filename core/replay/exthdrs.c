/*
 * exthdrs.c - the IPv6 extension headers' receive handlers that
 * ip6_protocol_deliver_rcu runs before the transport's (net/ipv6/exthdrs.c,
 * read at v6.12): the routing header (ipv6_rthdr_rcv) and the destination
 * options (ipv6_destopt_rcv). Hop-by-hop options are
 * ip6_rcv_core's (tlv.c).
 */
#include "addr.h"
#include "replay.h"
#include "tlv.h"

/* ipv6_rthdr_rcv (net/ipv6/exthdrs.c, v6.12; the same in Debian's 5.10.262
 * and 6.1.192). A segment routing header (type 4: ipv6_srh_rcv, 1ababeba4a21,
 * v4.10) and an RPL one (type 3: ipv6_rpl_srh_rcv, 8610c7c6e3bd, v5.7) are
 * freed whatever their segments left while seg6_enabled / rpl_seg_enabled
 * are 0, their defaults (kfree_skb: no counter). Any other type with no
 * segments left is skipped. With segments left every type goes to
 * `unknown_rh` (ICMPv6 parameter problem, Ip6InHdrErrors) but type 2 on a
 * CONFIG_IPV6_MIP6 kernel: type 0 has had no case since its processing was
 * removed (2.6.2x, before every era here; RFC 5095). Type 2 with MIP6
 * (cfg->ipv6_mip6: Debian's kernels) is always dropped: with segments left 0
 * "unless it was processed by own" (no address was: Ip6InAddrErrors), else
 * Ip6InHdrErrors unless hdrlen 2 and segments left 1, then Ip6InAddrErrors
 * after xfrm6_input_addr finds no state (accept_source_route 0, the default;
 * issue 28, 13). Without MIP6 (the 6.18 host) it is any unknown type.
 * Before their handlers types 3 and 4 were unknown types. */
static bool ipv6_rthdr_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    uint8_t type = ip->u.ip.rh_type;
    rp_enter(rp, i, KF_IPV6_RTHDR_RCV);
    /* before the type: a multicast destination or a packet not for this
     * host (pkt_type from eth_type_trans: a broadcast or multicast MAC) is
     * an address error whatever the header says (v6.12 = 6.1.192 = 5.10) */
    if ((ip_addr_classes(&rp->p, ip) & A_DST_MCAST) || rp->pkt_type != PACKET_HOST) {
        rp_drop(rp, i, KF_IPV6_RTHDR_RCV, KD_RTHDR_NOT_HOST, CNT(CSC_C_IP6_IN_ADDR_ERRORS));
        return false;
    }
    if ((type == IPV6_SRCRT_TYPE_4 && era(rp, CSC_E_SEG6_RCV)) ||
        (type == IPV6_SRCRT_TYPE_3 && era(rp, CSC_E_RPL_RCV))) {
        rp_drop(rp, i, KF_IPV6_RTHDR_RCV, KD_RTHDR_DISABLED, 0);
        return false;
    }
    if (type == IPV6_SRCRT_TYPE_2 && rp->cfg->ipv6_mip6) {
        uint8_t left = ip->u.ip.rh_segs_left;
        bool addr = left == 0 || (left == 1 && (ip->u.ip.rh_flags & CSC_RH_HDRLEN2));
        rp_drop(rp, i, KF_IPV6_RTHDR_RCV, KD_RTHDR_MIP6,
                addr ? CNT(CSC_C_IP6_IN_ADDR_ERRORS) : CNT(CSC_C_IP6_IN_HDR_ERRORS));
        return false;
    }
    if (ip->u.ip.rh_segs_left == 0)
        return true;
    rp_drop(rp, i, KF_IPV6_RTHDR_RCV, KD_RTHDR_UNKNOWN, CNT(CSC_C_IP6_IN_HDR_ERRORS));
    return false;
}

/* ipv6_destopt_rcv -> ip6_parse_tlv(false, ...) (net/ipv6/exthdrs.c,
 * v6.12; the same in 6.1.192 and 5.10): the header pulls (else ext-8's
 * ipv6_first_ext_short), max_dst_opts_len is INT_MAX by default, and the
 * options take tlv.c's padding, length, count (max_dst_opts_cnt 8) and
 * action rules. A Home Address option always drops on a stock receiver:
 * with CONFIG_IPV6_MIP6 (Debian) ipv6_dest_hao's xfrm6_input_addr
 * (net/ipv6/xfrm6_input.c) finds no xfrm state (XfrmInNoStates: drop
 * XFRM_POLICY); without MIP6 (the 6.18 host) 0xc9 is an unknown option
 * with action 11 (UNHANDLED_PROTO). Every refusal counts Ip6InHdrErrors
 * in ipv6_destopt_rcv, and no transport checksum is looked at. */
static void ipv6_destopt_rcv(struct rp *rp, uint8_t i, uint8_t verdict)
{
    rp_enter(rp, i, KF_IPV6_DESTOPT_RCV);
    if (verdict == TLV_UNKNOWN) {
        rp_unknown(rp, i, KF_IPV6_DESTOPT_RCV);
        return;
    }
    rp_drop(rp, i, KF_IPV6_DESTOPT_RCV, verdict == TLV_HAO ? KD_HAO_NO_STATE : KD_IP_INHDR,
            CNT(CSC_C_IP6_IN_HDR_ERRORS));
}

/* ip6_protocol_deliver_rcu runs the extension headers' handlers in chain
 * order before the transport's: rh / dst say whether the routing header
 * and a refused destination options header are among those to run now,
 * dst_first that the latter comes first. False when one of them took the
 * packet. */
static bool exthdr_handlers(struct rp *rp, uint8_t i, bool rh, bool dst, bool dst_first,
                            uint8_t verdict)
{
    if (dst && (!rh || dst_first)) {
        ipv6_destopt_rcv(rp, i, verdict);
        return false;
    }
    if (rh && !ipv6_rthdr_rcv(rp, i))
        return false;
    if (dst) {
        ipv6_destopt_rcv(rp, i, verdict);
        return false;
    }
    return true;
}

/* A refused destination options header before the first fragment header */
static bool bad_dst_before_frag(const struct ip6_marks *m)
{
    return m->bad_dst && m->frag && m->bad_dst < m->frag;
}

/* The handlers of the headers before the first fragment header run before
 * ipv6_frag_rcv (a routing header, then a fragment: ipv6_rthdr_rcv may
 * drop what would have been queued). An atomic fragment header passes
 * (ipv6_frag_rcv: "not a fragmented frame", IP6SKB_FRAGMENTED set); a
 * second fragment header then finds IP6SKB_FRAGMENTED and fails
 * (fail_hdr: Ip6InHdrErrors, parameter problem; net/ipv6/reassembly.c
 * v6.12 = 6.1.192 = 5.10). The handlers between the two are not run here. */
bool ipv6_exthdrs_before_frag(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    uint8_t f = ip->u.ip.rh_flags;
    struct ip6_marks m;
    if (!(f & CSC_RH_FRAG_HDR))
        return true;
    ip6_chain_marks(&rp->p, ip, &m);
    if (!exthdr_handlers(rp, i, f & CSC_RH_BEFORE_FRAG, bad_dst_before_frag(&m), m.bad_dst < m.rh,
                         m.dst_verdict))
        return false;
    /* ipv6_frag_rcv: "Jumbo payload inhibits frag. header" - payload_len 0
     * (the packet left untrimmed after a hop-by-hop header with no jumbo
     * option) is fail_hdr before anything else, atomic or not */
    uint16_t plen = 1;
    if (pkt_be16(&rp->p, (uint64_t)ip->off + 4u, &plen) && plen == 0) {
        rp_enter(rp, i, KF_IPV6_FRAG_RCV);
        rp_drop(rp, i, KF_IPV6_FRAG_RCV, KD_IP_INHDR, CNT(CSC_C_IP6_IN_HDR_ERRORS));
        return false;
    }
    if ((f & CSC_RH_FRAG_TWICE) && !(ip->notes & CSC_N_FRAGMENT)) {
        rp_enter(rp, i, KF_IPV6_FRAG_RCV);
        rp_drop(rp, i, KF_IPV6_FRAG_RCV, KD_FRAG_TWICE, CNT(CSC_C_IP6_IN_HDR_ERRORS));
        return false;
    }
    return true;
}

/* The rest: the handlers after the fragment header (or all of them) */
bool ipv6_exthdrs_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    uint8_t f = ip->u.ip.rh_flags;
    struct ip6_marks m;
    ip6_chain_marks(&rp->p, ip, &m);
    return exthdr_handlers(rp, i, (f & CSC_RH_SEEN) && !(f & CSC_RH_BEFORE_FRAG),
                           m.bad_dst && !bad_dst_before_frag(&m), m.bad_dst < m.rh, m.dst_verdict);
}
