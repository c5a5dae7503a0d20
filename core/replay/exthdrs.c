/*
 * exthdrs.c - the IPv6 extension headers' receive handlers that
 * ip6_protocol_deliver_rcu runs before the transport's (net/ipv6/exthdrs.c,
 * read at v6.12): the routing header (ipv6_rthdr_rcv) and the destination
 * options' Home Address (ipv6_destopt_rcv). Hop-by-hop options are
 * ip6_rcv_core's (tlv.c).
 */
#include "addr.h"
#include "replay.h"

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

/* ipv6_destopt_rcv -> ip6_parse_tlv (net/ipv6/exthdrs.c, v6.12) on a Home
 * Address option: with CONFIG_IPV6_MIP6 (Debian) ipv6_dest_hao calls
 * xfrm6_input_addr (net/ipv6/xfrm6_input.c), which without a matching xfrm
 * state - a stock receiver has none - counts XfrmInNoStates and fails:
 * drop XFRM_POLICY. Without MIP6 (the 6.18 host) option 0xc9 is unknown and
 * its action bits (0xc9 >> 6 == 3) make ip6_tlvopt_unknown send a parameter
 * problem and drop (UNHANDLED_PROTO). Either way ipv6_destopt_rcv counts
 * Ip6InHdrErrors, and no transport checksum is looked at. */
static void ipv6_destopt_rcv(struct rp *rp, uint8_t i)
{
    rp_enter(rp, i, KF_IPV6_DESTOPT_RCV);
    rp_drop(rp, i, KF_IPV6_DESTOPT_RCV, KD_HAO_NO_STATE, CNT(CSC_C_IP6_IN_HDR_ERRORS));
}

/* ip6_protocol_deliver_rcu runs the extension headers' handlers in chain
 * order before the transport's: rh / hao say which of the routing header
 * and the Home Address option are to run now. False when one of them took
 * the packet. */
static bool exthdr_handlers(struct rp *rp, uint8_t i, bool rh, bool hao)
{
    const struct csc_layer *ip = L(rp, i);
    if (hao && rh && (ip->u.ip.rh_flags & CSC_RH_AFTER_HAO)) {
        ipv6_destopt_rcv(rp, i);
        return false;
    }
    if (rh && !ipv6_rthdr_rcv(rp, i))
        return false;
    if (hao) {
        ipv6_destopt_rcv(rp, i);
        return false;
    }
    return true;
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
    if (!(f & CSC_RH_FRAG_HDR))
        return true;
    if (!exthdr_handlers(rp, i, f & CSC_RH_BEFORE_FRAG, f & CSC_RH_HAO_BEFORE_FRAG))
        return false;
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
    return exthdr_handlers(rp, i, (f & CSC_RH_SEEN) && !(f & CSC_RH_BEFORE_FRAG),
                           (ip->notes & CSC_N_HOME_ADDRESS) && !(f & CSC_RH_HAO_BEFORE_FRAG));
}
