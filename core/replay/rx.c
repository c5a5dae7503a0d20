/*
 * rx.c - the normal receive path for one frame: ip_rcv, ipv6_rcv
 * (net/ipv4/ip_input.c, net/ipv6/ip6_input.c), the tunnels' encap_rcv
 * handlers (vxlan_core.c, geneve.c, fou_core.c), GRE (gre_demux.c,
 * ip_gre.c), IPIP, and the gro_cells hand-off to each tunnel device
 * (net/core/gro_cells.c); read at v6.12. The transport endpoints (UDP, TCP,
 * ICMP) are in l4.c.
 *
 * Assumptions (documented in docs/kernel-model.md): unicast delivery; a
 * kernel tunnel device exists for every tunnel port and VNI; the innermost
 * transport has a listening socket unless cfg->inner_socket is false.
 */
#include "replay.h"

#include "../proto/protos.h"
#include "pull.h"


static bool teb_no_handler(struct rp *rp, uint8_t tl);

/* A path the model does not know: the outcome is unknown, never accept. */
void not_modelled(struct rp *rp, uint8_t i, enum kfn fn)
{
    rp_unknown(rp, i, fn);
}

/* The innermost layer i is taken by its socket: the replay ends there */
void deliver(struct rp *rp, uint8_t i, enum kfn fn)
{
    rp_step(rp, i, fn, W_DELIVER, CSC_TRI_YES, 0, NULL);
    rp->done = true;
}

/* The decoder stopped at layer i (it carries the stop) with this reason */
static bool stopped_at(const struct rp *rp, uint8_t i, enum csc_stop why)
{
    return rp->r->stop == why && rp->r->stop_layer == i;
}

/* ip_protocol_deliver_rcu / ip6_protocol_deliver_rcu (net/ipv4/ip_input.c,
 * net/ipv6/ip6_input.c, v6.12) for a protocol inet_protos[] has no handler
 * for, with no raw socket (the stock receiver): IpInUnknownProtos /
 * Ip6InUnknownProtos, an ICMP protocol unreachable / ICMPv6 parameter problem
 * to the sender, kfree_skb_reason(IP_NOPROTO). ip is the IP layer. */
void ip_no_protocol(struct rp *rp, uint8_t ip)
{
    bool v6 = L(rp, ip)->proto == CSC_P_IPV6;
    rp_drop(rp, ip, v6 ? KF_IP6_PROTOCOL_DELIVER_RCU : KF_IP_PROTOCOL_DELIVER_RCU, KD_IP_NOPROTO,
            v6 ? CNT(CSC_C_IP6_IN_UNKNOWN_PROTOS) : CNT(CSC_C_IP_IN_UNKNOWN_PROTOS));
}

/* What inet_protos[] / inet6_protos[] of Debian's stock kernels (5.10 to
 * 7.2, no module loaded for the protocol) hold for a protocol that carries
 * no packet (the decoder's leaves, core/proto/decode.c): IPv6's
 * nodata_protocol for No Next Header (net/ipv6/exthdrs.c), PIM (pim_rcv in
 * net/ipv4/ipmr.c, pim6_rcv in net/ipv6/ip6mr.c, built in) and UDP-Lite
 * (net/ipv4/udplite.c, net/ipv6/udplite.c up to 6.12; 7.x removed it) are
 * handled; OSPF, VRRP, RSVP, EIGRP, EGP, IGRP and IPv4's No Next Header
 * have no handler at all, SCTP and DCCP only once their module is loaded. */
enum leaf_handler { LEAF_NONE, LEAF_NO_HANDLER, LEAF_NODATA, LEAF_HANDLER };

static enum leaf_handler stock_leaf_handler(uint8_t proto, bool v6)
{
    if (!csc_ipproto_is_leaf(proto))
        return LEAF_NONE;
    switch (proto) {
    case IPPROTO_NONE_: return v6 ? LEAF_NODATA : LEAF_NO_HANDLER;
    case IPPROTO_PIM_: case IPPROTO_UDPLITE_: return LEAF_HANDLER;
    default: return LEAF_NO_HANDLER;
    }
}

/* ip_protocol_deliver_rcu / ip6_protocol_deliver_rcu where the packet ends
 * with its IP header(s) and the decoder met no stop. A protocol that
 * carries no packet goes to a raw socket or a daemon's handler where the
 * receiver has one (cfg->inner_socket); where nothing listens, with no
 * handler: ip_no_protocol; IPv6's No Next Header is freed by
 * nodata_protocol (dst_discard) without a counter; PIM and UDP-Lite go to
 * their handler, whose rules (the multicast routing daemon's register VIF,
 * the UDP-Lite socket lookup) the model has not: unknown. A number the
 * decoder has no row for, with no payload at all (an empty IPv6 packet:
 * payload length 0), has no handler either, as after an unknown-ipproto
 * stop. */
static void ip_protocol_ends_here(struct rp *rp, uint8_t ip, enum kfn fn)
{
    const struct csc_layer *l = L(rp, ip);
    uint8_t proto = (uint8_t)l->next;
    enum leaf_handler h = stock_leaf_handler(proto, l->proto == CSC_P_IPV6);
    if (h == LEAF_NONE && !csc_inet_protos[proto] && !(l->notes & CSC_N_FRAGMENT)) {
        ip_no_protocol(rp, ip);
        return;
    }
    if (h == LEAF_NONE || rp->cfg->inner_socket) {
        deliver(rp, ip, fn);
        return;
    }
    switch (h) {
    case LEAF_NO_HANDLER: ip_no_protocol(rp, ip); break;
    case LEAF_NODATA: rp_drop(rp, ip, KF_IP6_PROTOCOL_DELIVER_RCU, KD_NO_NEXT_HEADER, 0); break;
    default: not_modelled(rp, ip, fn); break;
    }
}

/* ip6_protocol_deliver_rcu (net/ipv6/ip6_input.c, v6.12 = 6.1.192 =
 * 5.10) resubmitted by the UDP socket of GUE over IPv6 with have_final set
 * (UDP is final): a protocol whose handler is not INET6_PROTO_FINAL - the
 * routing, fragment and destination options headers - is discarded
 * ("don't allow encapsulation on any non-final ones"): Ip6InDiscards, not
 * among the model's counters. g is the GUE layer; true: dropped. */
static bool gue_not_final(struct rp *rp, uint8_t g)
{
    const struct csc_layer *t = L(rp, g);
    uint8_t b0 = 0, proto = 0;
    if (t->proto != CSC_P_GUE || L(rp, t->ip)->proto != CSC_P_IPV6 || !pkt_u8(&rp->p, t->off, &b0) ||
        (b0 >> 5) != 0 || !pkt_u8(&rp->p, (uint64_t)t->off + 1u, &proto))
        return false;                  /* version 0, a data message: byte 1 is the protocol */
    if (proto != IPPROTO_ROUTING_ && proto != IPPROTO_FRAG_ && proto != IPPROTO_DSTOPTS_)
        return false;
    rp_drop(rp, g, KF_IP6_PROTOCOL_DELIVER_RCU, KD_IP6_NOT_FINAL, 0);
    return true;
}

/* The kernel layer the stack would reach next is missing from the capture.
 * Where the decoder reached the payload (stop end: data, or a protocol that
 * carries no packet) the packet is delivered there; an IP protocol nothing
 * decodes is one the stock kernel has no handler for; after any other stop
 * (cut, impossible, encrypted, unknown, needs an option) what the kernel
 * would do is not known: unknown, never accept. */
static bool need_layer(struct rp *rp, unsigned i, uint8_t from, enum kfn fn)
{
    if (has_layer(rp, i))
        return true;
    const struct csc_result *r = rp->r;
    uint8_t p = L(rp, from)->proto;
    if (r->stop == CSC_STOP_END) {
        if (p == CSC_P_IPV4 || p == CSC_P_IPV6)
            ip_protocol_ends_here(rp, from, fn);
        else
            deliver(rp, from, fn);
        return false;
    }
    if (stopped_at(rp, from, CSC_STOP_IPPROTO) && (p == CSC_P_IPV4 || p == CSC_P_IPV6)) {
        ip_no_protocol(rp, from);
        return false;
    }
    if (stopped_at(rp, from, CSC_STOP_IPPROTO) && (p == CSC_P_GUE || p == CSC_P_FOU) &&
        L(rp, from)->ip != CSC_NO_LAYER) {
        if (!gue_not_final(rp, from))
            ip_no_protocol(rp, L(rp, from)->ip);   /* gue_udp_recv / fou_udp_recv resubmit it */
        return false;
    }
    if (pskb_may_pull_fails(rp, from))        /* the next header is short (pull.c) */
        return false;
    rp->k->verdict = CSC_K_UNKNOWN;
    rp_step(rp, from, fn, W_NOT_MODELLED, CSC_TRI_UNDECIDED, 0, NULL);
    rp->done = true;
    return false;
}

/* First IP layer at or after i (skipping inner Ethernet/VLAN). */
int next_l3(const struct rp *rp, unsigned i)
{
    for (; has_layer(rp, i); i++) {
        uint8_t p = L(rp, (uint8_t)i)->proto;
        if (p == CSC_P_IPV4 || p == CSC_P_IPV6)
            return (int)i;
        if (p != CSC_P_ETH && p != CSC_P_VLAN)
            return -1;
    }
    return -1;
}

/* eth_type_trans + skb_vlan_untag: pull L2 headers with rcsum. */
void pull_l2(struct rp *rp, uint8_t from, uint8_t l3)
{
    for (uint8_t i = from; i < l3; i++) {
        rp_enter(rp, i, L(rp, i)->proto == CSC_P_ETH ? KF_ETH_TYPE_TRANS : KF_VLAN_UNTAG);
        skb_pull_rcsum(rp, L(rp, i)->hdr_len);
    }
}

/* The device an IP-in-IP packet enters: ipip (IPv4 in IPv4, ipip_rcv), sit
 * (IPv6 in IPv4, ipip6_rcv) or ip6tnl (either in IPv6, ip6_tnl_rcv). The
 * outer header is the inner IP layer's enclosing one, also when FOU/GUE
 * resubmitted the packet. */
static uint8_t ip_in_ip_dev(const struct rp *rp, uint8_t inner)
{
    const struct csc_layer *in = L(rp, inner);
    if (in->ip != CSC_NO_LAYER && L(rp, in->ip)->proto == CSC_P_IPV6)
        return CSC_P_IPV6;
    return in->proto == CSC_P_IPV6 ? CSC_P_SIT : CSC_P_IPV4;
}

static bool outer_is_ipv6(const struct rp *rp, uint8_t layer)
{
    uint8_t ip = L(rp, layer)->ip;
    return ip != CSC_NO_LAYER && L(rp, ip)->proto == CSC_P_IPV6;
}

/* Whether the device runs GRO on what it decapsulated (gro_cells_receive) or
 * hands it to netif_rx (process_backlog: no GRO pass). 6.12: every device
 * but sit (ipip6_rcv ends in netif_rx) and l2tpeth (dev_forward_skb). Earlier: VXLAN used netif_rx up to
 * v4.2, ip6_tunnel and ip6_gre up to v4.6. gro_cells_receive itself calls
 * netif_rx for a cloned skb (net/core/gro_cells.c, v6.12 = 6.1.192 =
 * 7.2.13): an AF_PACKET capture on the receiving device keeps a clone
 * (packet_rcv), cfg->rx_capture (issue 28, 13). */
static bool dev_uses_gro_cells(const struct rp *rp, uint8_t kind, bool outer_v6)
{
    if (rp->cfg->rx_capture)
        return false;
    switch (kind) {
    case CSC_P_SIT: case CSC_P_L2TP:  /* l2tp_eth_dev_recv: dev_forward_skb, netif_rx */
        return false;
    case CSC_P_IPV6:
        return era(rp, CSC_E_IP6_TNL_GRO);
    case CSC_P_GRE: case CSC_P_ERSPAN:
        return !outer_v6 || era(rp, CSC_E_IP6_TNL_GRO);
    case CSC_P_VXLAN: case CSC_P_VXLAN_GPE:
        return era(rp, CSC_E_VXLAN_GRO_CELLS);
    default:
        return true;
    }
}

/* ETH_P_MPLS_UC, ETH_P_MPLS_MC, ETH_P_NSH as a raw tunnel's skb->protocol:
 * no offload has a gro_receive for them (net/mpls/mpls_gso.c and
 * net/nsh/nsh.c register gso_segment only) and the stock receiver no packet
 * handler (mpls_router is not loaded; nsh registers none at all) */
static bool proto_no_handler(uint16_t type)
{
    return type == ETH_P_MPLS_UC || type == ETH_P_MPLS_MC || type == ETH_P_NSH;
}

/* The tunnel device counts the decapsulated skb (dev_sw_netstats_rx_add)
 * and takes it: a device entry from `layer` on. False: no room to model it. */
static bool tunnel_dev_enter(struct rp *rp, uint8_t tunnel_layer, uint8_t layer, bool gro_cells)
{
    struct csc_kernel *k = rp->k;
    if (k->ndevs >= CSC_MAX_DEVS) {
        not_modelled(rp, layer, KF_GRO_CELLS_RECEIVE);
        return false;
    }
    struct csc_dev *dev = &k->devs[k->ndevs];
    uint8_t kind = L(rp, tunnel_layer)->proto;
    if (kind == CSC_P_IPV4 || kind == CSC_P_IPV6)
        kind = ip_in_ip_dev(rp, tunnel_layer);
    dev->kind = kind;
    dev->layer = layer;
    dev->gro_ran = 0;
    dev->gro_reason = gro_cells ? CSC_G_OFF : CSC_G_NETIF_RX;
    dev->gro_layer = layer;
    dev->entry = rp_snap(rp);
    dev->gro_passes = dev->passes = 0;
    dev->gro_pass_bytes = dev->pass_bytes = 0;
    rp->dev = k->ndevs++;
    return true;
}

/* The decapsulated skb enters the tunnel device: through gro_cells_receive
 * GRO runs again there (dev_gro_receive re-initialises the control block),
 * through netif_rx it does not; then the device's normal receive. */
void tunnel_dev_receive(struct rp *rp, uint8_t tunnel_layer, uint8_t inner_l3)
{
    if (!IP_ECN_decapsulate(rp, tunnel_layer, inner_l3))    /* before the device counts it */
        return;
    uint8_t kind = L(rp, tunnel_layer)->proto;
    if (kind == CSC_P_IPV4 || kind == CSC_P_IPV6)
        kind = ip_in_ip_dev(rp, tunnel_layer);
    bool gro_cells = dev_uses_gro_cells(rp, kind, outer_is_ipv6(rp, tunnel_layer));
    if (!tunnel_dev_enter(rp, tunnel_layer, inner_l3, gro_cells))
        return;
    tunnel_rx_pkt_type(rp, kind, outer_is_ipv6(rp, tunnel_layer), tunnel_layer, inner_l3);
    rp_enter(rp, inner_l3, gro_cells ? KF_GRO_CELLS_RECEIVE : KF_NETIF_RX);
    if (gro_cells)
        dev_gro_receive(rp, inner_l3);
    netif_receive_skb(rp, inner_l3);
}

static bool drop_otherhost(struct rp *rp, uint8_t i, enum kfn fn);

/* vxlan_rcv (drivers/net/vxlan/vxlan_core.c) before VXLAN_INNER_PULL (the
 * 5.10 VM kernel) pulls nothing of the inner IP header: a header the packet
 * does not hold (have bytes) goes on like any other. IP_ECN_decapsulate
 * reads its TOS byte without a pull (ecn.c: an outer CE over an inner
 * Not-ECT drops it; without the byte: not decided); the device counts
 * it, gro_cells_receive's GRO
 * pass flushes it (gro.c:dev_gro_receive_short_ip), and ip_rcv_core /
 * ip6_rcv_core, after the PACKET_OTHERHOST drop, fail their
 * pskb_may_pull of the fixed header: IP_INHDR, Ip[6]InHdrErrors
 * (net/ipv4/ip_input.c, net/ipv6/ip6_input.c, v6.12 = 5.10). eth: the
 * inner Ethernet layer, the last one decoded. */
bool tunnel_dev_short_ip(struct rp *rp, uint8_t tl, uint8_t eth, bool v6, uint32_t have)
{
    const struct csc_layer *e = L(rp, eth);
    int ecn = IP_ECN_decapsulate_short(rp, tl, e->off + e->hdr_len, v6, have);
    if (ecn < 0)
        return false;
    if (ecn == 0)
        return true;
    uint8_t kind = L(rp, tl)->proto;
    bool outer_v6 = outer_is_ipv6(rp, tl);
    bool gro_cells = dev_uses_gro_cells(rp, kind, outer_v6);
    pull_l2(rp, eth, (uint8_t)(eth + 1u));      /* vxlan_set_mac: eth_type_trans */
    if (!tunnel_dev_enter(rp, tl, eth, gro_cells))
        return true;
    tunnel_rx_pkt_type(rp, kind, outer_v6, tl, (uint8_t)(eth + 1u));
    rp_enter(rp, eth, gro_cells ? KF_GRO_CELLS_RECEIVE : KF_NETIF_RX);
    if (gro_cells)
        dev_gro_receive_short_ip(rp, eth, v6);
    rp->path = CSC_PATH_NORMAL;
    enum kfn fn = v6 ? KF_IPV6_RCV : KF_IP_RCV_CORE;
    rp_enter(rp, eth, fn);
    if (!drop_otherhost(rp, eth, fn))
        rp_drop(rp, eth, fn, KD_IP_INHDR, v6 ? CNT(CSC_C_IP6_IN_HDR_ERRORS) : CNT(CSC_C_IP_IN_HDR_ERRORS));
    return true;
}

/* ---- IPv4 / IPv6 ---- */

/* The length checks of ip_rcv_core / ipv6_rcv, the trim to the IP length,
 * and ip_defrag's queue for a fragment. False when the packet went no further. */
/* ip6_rcv_core (v6.12 = 6.1.192 = 5.10) trims the skb to the payload
 * length (0 with no hop-by-hop header first: no jumbogram, and a packet off
 * the wire is not GSO, so ipv6_payload_len is 0) before the extension
 * headers' handlers run. Where the first extension header does not fit in
 * what is left, its handler's pull fails: ipv6_parse_hopopts (in
 * ip6_rcv_core), ipv6_rthdr_rcv, ipv6_destopt_rcv (the default
 * max_dst_opts_len is never reached) - and ipv6_frag_rcv, which refuses
 * payload_len 0 before its pull. Each counts Ip6InHdrErrors. A later header
 * cut, or a transport after none, is the old rule's (ip_len_checks;
 * kfuzz-known KF12). True: dropped here. */
static bool ipv6_first_ext_short(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    uint8_t nh = 0, b[2] = { 0, 0 }, hl = 0;
    if (ip->proto != CSC_P_IPV6 || !(ip->notes & (CSC_N_GSO | CSC_N_LEN_SHORT)) || (ip->notes & CSC_N_JUMBO) ||
        !pkt_u8(&rp->p, (uint64_t)ip->off + 4u, &b[0]) || !pkt_u8(&rp->p, (uint64_t)ip->off + 5u, &b[1]) ||
        !pkt_u8(&rp->p, (uint64_t)ip->off + 6u, &nh))
        return false;
    uint32_t plen = (uint32_t)b[0] << 8 | b[1];
    enum kfn fn = nh == IPPROTO_HOPOPTS_ ? KF_IPV6_RCV : nh == IPPROTO_FRAG_ ? KF_IPV6_FRAG_RCV
                  : nh == IPPROTO_ROUTING_ ? KF_IPV6_RTHDR_RCV : nh == IPPROTO_DSTOPTS_ ? KF_IPV6_DESTOPT_RCV
                  : KF_NONE;
    if (fn == KF_NONE || (plen == 0 && nh == IPPROTO_HOPOPTS_))
        return false;
    bool cut = plen < 8u;                  /* the first pull: 8 bytes (the fragment header's all) */
    if (!cut && nh != IPPROTO_FRAG_) {
        if (!pkt_u8(&rp->p, (uint64_t)ip->off + IPV6_HLEN + 1u, &hl))
            return false;
        cut = plen < ((uint32_t)hl + 1u) * 8u;
    }
    if (!cut)
        return false;
    /* the handlers of inet6_protos[] run after the route: a destination
     * that is no address of the receiver ends there first */
    if (fn != KF_IPV6_RCV && !ip6_route_input_addrs(rp, i))
        return true;
    rp_enter(rp, i, fn);
    rp_drop(rp, i, fn, KD_IP_INHDR, CNT(CSC_C_IP6_IN_HDR_ERRORS));
    return true;
}

static bool ip_len_checks(struct rp *rp, uint8_t i, enum kfn fn, uint32_t hdr_err, uint32_t trunc)
{
    const struct csc_layer *ip = L(rp, i);
    if (ipv6_first_ext_short(rp, i))
        return false;
    if (ip->notes & (CSC_N_GSO | CSC_N_LEN_SHORT)) {
        rp_drop(rp, i, fn, KD_IP_INHDR, hdr_err);      /* length below the header / 0 */
        return false;
    }
    if ((ip->notes & (CSC_N_JUMBO | CSC_N_LEN_EXCEEDS)) == (CSC_N_JUMBO | CSC_N_LEN_EXCEEDS)) {
        /* a jumbogram longer than the skb: ip6_rcv_core does not trim it
         * (payload_len 0 before a hop-by-hop header), ipv6_hop_jumbo
         * (net/ipv6/exthdrs.c, 6.12) frees it PKT_TOO_SMALL without a
         * counter of its own and ipv6_parse_hopopts's failure counts
         * Ip6InHdrErrors in ip6_rcv_core; 5.10's ipv6_hop_jumbo counted
         * Ip6InTruncatedPkts first (gone with HOP_JUMBO_ONE_COUNT). ip6-12's
         * and i6gro-6's fixed cases, every VM kernel. */
        rp_drop(rp, i, fn, KD_PKT_TOO_SMALL, hdr_err | (era(rp, CSC_E_HOP_JUMBO_ONE_COUNT) ? 0 : trunc));
        return false;
    }
    if (ip->notes & CSC_N_LEN_EXCEEDS) {
        rp_drop(rp, i, fn, KD_PKT_TOO_SMALL, trunc);   /* skb->len < the IP length */
        return false;
    }
    if (pskb_trim_rcsum_fails(rp, ip->end)) {     /* IPv4: IpInDiscards (no model counter) */
        rp_drop(rp, i, fn, KD_IP_INHDR, ip->proto == CSC_P_IPV6 ? hdr_err : 0);
        return false;
    }
    pskb_trim_rcsum(rp, i, ip->end);
    if (ip->proto == CSC_P_IPV4 ? !ip_route_input_addrs(rp, i) || !ip_rcv_options(rp, i)  /* ip_rcv_finish_core */
                                : !ipv6_parse_hopopts(rp, i))      /* ip6_rcv_core */
        return false;
    if (ip->proto == CSC_P_IPV6 && (!ip6_route_input_addrs(rp, i) || !ipv6_exthdrs_before_frag(rp, i)))
        return false;
    if (ip->notes & CSC_N_FRAGMENT) {
        ip_frag_queue(rp, i);
        return false;
    }
    return true;
}

/* ip_rcv_core / ip6_rcv_core drop a PACKET_OTHERHOST skb before anything
 * else (SKB_DROP_REASON_OTHERHOST, no MIB counter). */
static bool drop_otherhost(struct rp *rp, uint8_t i, enum kfn fn)
{
    if (rp->pkt_type != PACKET_OTHERHOST)
        return false;
    rp_drop(rp, i, fn, KD_OTHERHOST, 0);
    return true;
}

/* ip_rcv_core / ip6_rcv_core (net/ipv4/ip_input.c, net/ipv6/ip6_input.c,
 * v6.12 = 6.1.192 = 5.10) on the NIC's own IP header, the one the EtherType
 * names, when the decoder refused it and the frame is whole (not cut by the
 * capture): after the PACKET_OTHERHOST drop, fewer than 20 (40) bytes, an
 * IPv4 ihl under 5 or a version that is not the EtherType's, or an ihl*4
 * the packet does not hold, are header errors (IP_INHDR / UNHANDLED_PROTO:
 * Ip[6]InHdrErrors). The NIC's GRO pass flushes such a header before any
 * checksum (inet_gro_receive: the first byte not 0x45; a short one
 * either family), but ipv6_gro_receive does not read the version: with GRO
 * on, a whole IPv6 header of another version stays unknown. eth is the
 * Ethernet layer, the header at its end. False: not such a header. */
bool ip_rcv_core_refused(struct rp *rp, uint8_t eth)
{
    const struct csc_result *r = rp->r;
    const struct csc_layer *e = L(rp, eth);
    uint32_t off = e->off + e->hdr_len;
    if ((r->stop != CSC_STOP_MALFORMED && r->stop != CSC_STOP_TRUNCATED) || r->stop_layer != eth ||
        r->stop_off != off || (r->stop_proto != CSC_P_IPV4 && r->stop_proto != CSC_P_IPV6) ||
        rp->p.caplen < rp->skb.tail)
        return false;
    bool v6 = r->stop_proto == CSC_P_IPV6;
    enum kfn fn = v6 ? KF_IPV6_RCV : KF_IP_RCV_CORE;
    uint32_t have = rp->skb.tail > off ? rp->skb.tail - off : 0;
    uint8_t b0 = 0;
    bool bad;
    if (have < (v6 ? IPV6_HLEN : IPV4_HLEN)) {
        bad = true;                      /* pskb_may_pull of the fixed header */
    } else if (!pkt_u8(&rp->p, off, &b0)) {
        return false;
    } else if (v6) {
        bad = (b0 >> 4) != 6;
        if (bad && rp->cfg->gro_nic) {
            rp_unknown(rp, eth, KF_DEV_GRO_RECEIVE);
            return true;
        }
    } else {
        /* version, ihl, then pskb_may_pull(ihl * 4) */
        bad = (b0 >> 4) != 4 || (b0 & IPV4_IHL_MASK) < IPV4_IHL_MIN || (uint32_t)(b0 & IPV4_IHL_MASK) * 4u > have;
    }
    if (!bad)
        return false;
    rp->skb.data = off;
    rp_enter(rp, eth, fn);
    if (!drop_otherhost(rp, eth, fn))
        rp_drop(rp, eth, fn, KD_IP_INHDR, v6 ? CNT(CSC_C_IP6_IN_HDR_ERRORS) : CNT(CSC_C_IP_IN_HDR_ERRORS));
    return true;
}

static void ip_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    if (drop_otherhost(rp, i, KF_IP_RCV_CORE))
        return;
    struct csc_skb_state before = rp_snap(rp);
    rp->skb.data = ip->off;
    /* ip_fast_csum: outside the skb checksum machinery, never a level. */
    int ok = ip->verdict == CSC_V_GOOD || (ip->verdict != CSC_V_BAD && rp_check(rp, i, false, 0));
    rp_step(rp, i, KF_IP_RCV_CORE, CSC_M_IP_FAST_CSUM, ok, 0, &before);
    rp_layer_result(rp, i, CSC_M_IP_FAST_CSUM, ok, 0);
    if (!ok) {
        rp_drop(rp, i, KF_IP_RCV_CORE, KD_IP_CSUM,
                CNT(CSC_C_IP_IN_CSUM_ERRORS) | CNT(CSC_C_IP_IN_HDR_ERRORS));
        return;
    }
    if (!ip_len_checks(rp, i, KF_IP_RCV_CORE, CNT(CSC_C_IP_IN_HDR_ERRORS),
                       CNT(CSC_C_IP_IN_TRUNCATED)))
        return;
    ip_local_deliver_finish(rp, i);
}

/* ip_local_deliver_finish (net/ipv4/ip_input.c, v6.12): __skb_pull of the
 * header without touching skb->csum (a valid IPv4 header sums to zero),
 * then inet_protos[]. A reassembled datagram goes on here from ip_defrag. */
void ip_local_deliver_finish(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    rp->skb.data = ip->off + ip->hdr_len;
    if (need_layer(rp, i + 1u, i, KF_IP_LOCAL_DELIVER))
        deliver_l4(rp, i + 1);
}

/* ip6_protocol_deliver_rcu (net/ipv6/ip6_input.c, v6.12): the first final
 * protocol postpulls [network, transport); a reassembled datagram comes
 * back here from ipv6_frag_rcv (the resubmit). */
void ip6_protocol_deliver_rcu(struct rp *rp, uint8_t i)
{
    skb_pull_rcsum(rp, L(rp, i)->hdr_len);
    rp_enter(rp, i, KF_IP6_PROTOCOL_DELIVER_RCU);
    if (need_layer(rp, i + 1u, i, KF_IP6_PROTOCOL_DELIVER_RCU))
        deliver_l4(rp, i + 1);
}

static void ipv6_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    rp->skb.data = ip->off;
    rp_enter(rp, i, KF_IPV6_RCV);
    if (drop_otherhost(rp, i, KF_IPV6_RCV) || !ip6_rcv_core_addrs(rp, i))
        return;
    if (!ip_len_checks(rp, i, KF_IPV6_RCV, CNT(CSC_C_IP6_IN_HDR_ERRORS),
                       CNT(CSC_C_IP6_IN_TRUNCATED)))
        return;
    if (!ipv6_exthdrs_rcv(rp, i))
        return;
    ip6_protocol_deliver_rcu(rp, i);
}

#define VLAN_MAX_DEPTH 8

/* __netif_receive_skb_core (net/core/dev.c, 6.12.118; era switch
 * PRIO_TAG_DEPTH_LIMIT): the tags before li are untagged one by one -
 * skb_vlan_untag at another_round, then the check_vlan_id loop for each
 * VID-0 priority tag with another tag behind it (no VLAN device for VID 0),
 * at most VLAN_MAX_DEPTH deep: the ninth tag of such a stack goes to
 * `drop` - rx_dropped, UNHANDLED_PROTO. The replay does not look at the
 * VIDs (a tag with VID != 0 makes the skb PACKET_OTHERHOST instead:
 * kfuzz-known KF9). True: dropped. */
static bool priority_tag_depth_exceeded(struct rp *rp, uint8_t li)
{
    uint8_t first = li;
    while (first > 0 && L(rp, first - 1)->proto == CSC_P_VLAN)
        first--;
    if (!era(rp, CSC_E_PRIO_TAG_DEPTH_LIMIT) || li - first <= VLAN_MAX_DEPTH)
        return false;
    rp_drop(rp, (uint8_t)(first + VLAN_MAX_DEPTH), KF_NETIF_RECEIVE_SKB_CORE, KD_UNHANDLED_PROTO,
            rp->dev == 0 ? CNT(CSC_C_NIC_RX_DROPPED) : CNT(CSC_C_DEV_RX_DROPPED));
    return true;
}

void netif_receive_skb(struct rp *rp, uint8_t li)
{
    rp->path = CSC_PATH_NORMAL;
    if (rp->done || priority_tag_depth_exceeded(rp, li))
        return;
    if (L(rp, li)->proto == CSC_P_IPV4)
        ip_rcv(rp, li);
    else if (L(rp, li)->proto == CSC_P_IPV6)
        ipv6_rcv(rp, li);
    else if (L(rp, li)->proto == CSC_P_ETH)   /* ETH_P_TEB on a GPE device: no packet handler */
        rp_drop(rp, li, KF_NETIF_RECEIVE_SKB_CORE, KD_UNHANDLED_PROTO, CNT(CSC_C_DEV_RX_DROPPED));
    else
        not_modelled(rp, li, KF_NONE);
}

/* ---- tunnels ---- */

/* vxlan_set_mac (drivers/net/vxlan/vxlan_core.c, v6.12; a bool before the
 * drop reasons, 5.10): after eth_type_trans, a frame from the device's own
 * MAC (a loop, a multicast echo) is dropped, LOCAL_MAC, no counter.
 * Learning is off on the model's receiver (nolearning). True: dropped. */
static bool vxlan_set_mac(struct rp *rp, uint8_t t)
{
    if (!has_layer(rp, t + 1u) || !ether_addr_equal_dev_addr(rp, (uint8_t)(t + 1)))
        return false;
    rp_drop(rp, t, KF_VXLAN_SET_MAC, KD_LOCAL_MAC, 0);
    return true;
}

void vxlan_rcv(struct rp *rp, uint8_t t)
{
    const struct csc_layer *vx = L(rp, t);
    bool rco = (vx->u.vxlan.flags & VXLAN_HF_RCO) != 0;
    bool rco_ok = rco && rp->cfg->remcsum_rx && era(rp, CSC_E_RCO);
    /* v6.14+ (vxlan_nl2conf): the RCO bits count as used once the device was
     * configured with the remcsumrx attribute, whatever its value; RCO
     * processing itself still needs remcsumrx on. */
    bool rco_bits_used = rco_ok || (era(rp, CSC_E_VXLAN_RESERVED_EARLY) && rp->cfg->remcsum_rx_given);
    bool reserved = (vx->notes & CSC_N_RESERVED_BITS) || (rco && !rco_bits_used);
    rp_enter(rp, t, KF_VXLAN_RCV);
    if (!(vx->u.vxlan.flags & VXLAN_HF_VNI)) {
        /* the I flag, checked first in every era; no counter (7.2.13 too) */
        rp_step(rp, t, KF_VXLAN_RCV, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, KF_VXLAN_RCV, KD_VXLAN_INVALID_HDR, 0);
        return;
    }
    if (reserved && era(rp, CSC_E_VXLAN_RESERVED_EARLY)) {
        rp_step(rp, t, KF_VXLAN_RCV, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, KF_VXLAN_RCV, KD_VXLAN_INVALID_HDR,
                CNT(CSC_C_DEV_RX_FRAME_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
        return;
    }
    skb_pull_rcsum(rp, UDP_HLEN + VXLAN_HLEN);   /* __iptunnel_pull_header */
    if (rco_ok) {
        if (era(rp, CSC_E_RCO_NORMAL_SKIPS_FLAG) && rp->skb.remcsum_offload) {
            rp_step(rp, t, KF_VXLAN_REMCSUM, W_REMCSUM_SKIP, CSC_TRI_UNDECIDED, 0, NULL);
        } else {
            bool nopartial = !era(rp, CSC_E_RCO_NOPARTIAL_KNOB) || rp->cfg->remcsum_nopartial;
            uint32_t inner = vx->off + VXLAN_HLEN;
            if ((uint64_t)inner + vx->rco_offset + CSUM_LEN > rp->skb.tail) {
                rp_drop(rp, t, KF_VXLAN_REMCSUM, KD_VXLAN_INVALID_HDR, 0);
                return;
            }
            skb_remcsum_process(rp, t, KF_VXLAN_REMCSUM, inner, vx->rco_start, vx->rco_offset,
                                nopartial);
        }
    }
    if (reserved) {                   /* up to v6.13: bits no parser consumed; no counter */
        rp_step(rp, t, KF_VXLAN_RCV, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, KF_VXLAN_RCV, KD_VXLAN_INVALID_HDR, 0);
        return;
    }
    if (vxlan_set_mac(rp, t))
        return;
    int l3 = next_l3(rp, t + 1u);
    if (l3 < 0) {
        if (!pskb_may_pull_fails(rp, t) && !teb_no_handler(rp, t))
            not_modelled(rp, t, KF_VXLAN_RCV);
        return;
    }
    pull_l2(rp, t + 1, (uint8_t)l3);  /* vxlan_set_mac: eth_type_trans */
    tunnel_dev_receive(rp, t, (uint8_t)l3);
}

/* geneve_udp_encap_recv -> geneve_rx (drivers/net/geneve.c, 6.12): a version
 * other than 0 and (without innerprotoinherit) a protocol other than TEB are
 * dropped before the pull - up to v4.6 returned to UDP instead, which queues
 * the datagram on the GENEVE socket; the critical-options bit on a device
 * that does not collect metadata is dropped after it. Before the GENEVE
 * netdev (v4.0 and older) only Open vSwitch's vport received GENEVE. */
void geneve_rcv(struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    rp_enter(rp, t, KF_GENEVE_UDP_ENCAP_RECV);
    bool inherit_exists = era(rp, CSC_E_GENEVE_INNER_PROTO_INHERIT);
    bool inherit = inherit_exists && rp->cfg->geneve_inner_proto_inherit;
    /* 5.10 / 6.1: a type other than TEB, IPv4, IPv6 is dropped before the
     * device lookup, silently (era GENEVE_ANY_INNER_PROTO) */
    bool known = g->next == ETH_P_TEB || g->next == ETH_P_IP || g->next == ETH_P_IPV6 ||
                 era(rp, CSC_E_GENEVE_ANY_INNER_PROTO);
    if (g->u.geneve.ver != 0 || (g->next != ETH_P_TEB && !inherit) || !known) {
        rp_step(rp, t, KF_GENEVE_UDP_ENCAP_RECV, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
        if (!era(rp, CSC_E_GENEVE_BAD_HDR_DROPPED)) {
            deliver(rp, t - 1, KF_UDP_QUEUE_RCV_ONE_SKB);   /* encap_rcv returned 1 */
            return;
        }
        rp_drop(rp, t, KF_GENEVE_UDP_ENCAP_RECV, KD_GENEVE_HDR,
                g->u.geneve.ver == 0 && inherit_exists && known ? CNT(CSC_C_DEV_RX_DROPPED) : 0);
        return;
    }
    if (!era(rp, CSC_E_GENEVE_NETDEV)) {          /* gs->rcv: the OVS datapath */
        not_modelled(rp, t, KF_GENEVE_UDP_ENCAP_RECV);
        return;
    }
    skb_pull_rcsum(rp, UDP_HLEN + g->hdr_len);   /* iptunnel_pull_header */
    if (g->next == ETH_P_TEB && !has_layer(rp, t + 1u) && pskb_may_pull_fails(rp, t))
        return;                       /* ... and of the inner Ethernet header */
    if ((g->u.geneve.flags & GENEVE_CRITICAL) && !rp->cfg->geneve_external) {
        rp_step(rp, t, KF_GENEVE_RX, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, KF_GENEVE_RX, KD_GENEVE_HDR,
                era(rp, CSC_E_GENEVE_CRIT_COUNTERS)
                    ? CNT(CSC_C_DEV_RX_FRAME_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS) : 0);
        return;
    }
    /* geneve_rx: after eth_type_trans, the loop check (a frame from the
     * device's own MAC: rx_errors, dropped). An innerprotoinherit device
     * (ARPHRD_NONE) has no MAC of the receiver's choosing: not checked. */
    if (g->next == ETH_P_TEB && !inherit && has_layer(rp, t + 1u) &&
        ether_addr_equal_dev_addr(rp, (uint8_t)(t + 1))) {
        rp_drop(rp, t, KF_GENEVE_RX, KD_GENEVE_LOOP, CNT(CSC_C_DEV_RX_ERRORS));
        return;
    }
    if (inherit && proto_no_handler(g->next)) {
        /* geneve_rx: skb->protocol the GENEVE type (PACKET_HOST), the ECN
         * decapsulation passes a non-IP type, the device counts it */
        tunnel_dev_no_handler(rp, t, has_layer(rp, t + 1u) ? (uint8_t)(t + 1) : t, t);
        return;
    }
    int l3 = next_l3(rp, t + 1u);
    if (l3 < 0) {
        if (!pskb_may_pull_fails(rp, t) && !(g->next == ETH_P_TEB && teb_no_handler(rp, t)))
            not_modelled(rp, t, KF_GENEVE_RX);
        return;
    }
    /* An innerprotoinherit device is ARPHRD_NONE without an address: for it
     * eth_type_trans makes a unicast inner frame PACKET_OTHERHOST. */
    uint8_t dst0 = 0;
    if (inherit && g->next == ETH_P_TEB && pkt_u8(&rp->p, L(rp, t + 1)->off, &dst0) && !(dst0 & 1))
        rp->pkt_type = PACKET_OTHERHOST;
    pull_l2(rp, t + 1, (uint8_t)l3);
    tunnel_dev_receive(rp, t, (uint8_t)l3);
}

/* validate_gue_flags (include/net/gue.h, 6.12): flags and private flags
 * other than PRIV/REMCSUM (the decoder's reserved-bits note), private flags
 * longer than the options (the decoder stopped on a malformed GUE header),
 * and since the 2026 fix a REMCSUM offset below its start. Before v3.19 the
 * header had a 4-bit version and no flags: both must be 0 (v3.18 fou.c). */
bool gue_hdr_valid(const struct rp *rp, const struct csc_layer *g)
{
    if (!era(rp, CSC_E_GUE_HDR_2015)) {
        uint8_t b0 = 0;
        uint16_t flags = 0;
        pkt_u8(&rp->p, g->off + WIRE_OFF(guehdr, control), &b0);
        pkt_be16(&rp->p, (uint64_t)g->off + WIRE_OFF(guehdr, flags), &flags);
        return (b0 >> GUE_2014_VER_SHIFT) == 0 && flags == 0;
    }
    if (g->u.gue.variant == GUE_VARIANT_1)
        return true;                  /* no header to validate */
    if (g->u.gue.variant != GUE_VARIANT_0 || (g->notes & CSC_N_RESERVED_BITS))
        return false;
    const struct csc_result *r = rp->r;
    if (r->stop == CSC_STOP_MALFORMED && r->stop_proto == CSC_P_GUE && r->stop_off == g->off)
        return false;
    return !((g->notes & CSC_N_RCO) && g->rco_offset < g->rco_start &&
             era(rp, CSC_E_GUE_REMCSUM_ORDER));
}

/* The header checks of gue_udp_recv (net/ipv4/fou_core.c, 6.12) before any
 * pull: variant 1 must carry IPv4 or IPv6, variants 2 and 3 are dropped,
 * then validate_gue_flags. */
static bool gue_udp_recv_header_ok(const struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    if (g->u.gue.variant == GUE_VARIANT_1 && era(rp, CSC_E_GUE_HDR_2015)) {
        /* gue_udp_recv reads the version nibble of the IP header there,
         * whatever the decoder could make of the rest of it */
        uint8_t b0 = 0;
        if (!pkt_u8(&rp->p, (uint64_t)g->off + g->hdr_len, &b0))
            return has_layer(rp, t + 1u) &&
                   (L(rp, t + 1)->proto == CSC_P_IPV4 || L(rp, t + 1)->proto == CSC_P_IPV6);
        return (b0 >> 4) == 4 || (b0 >> 4) == 6;
    }
    return gue_hdr_valid(rp, g);
}

static void gue_drop(struct rp *rp, uint8_t t, enum kfn fn, enum kdrop why)
{
    rp_step(rp, t, fn, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
    rp_drop(rp, t, fn, why, 0);
}

/* gue_udp_recv / fou_udp_recv: pull, then resubmit as an IP protocol with
 * the outer IP header (ip_local_deliver_finish resubmit). A bad GUE header,
 * a control message (gue_control_message frees it, after RCO) and protocol 0
 * are dropped without a counter. */
void gue_rcv(struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    const struct csc_layer *udp = L(rp, t - 1);
    bool gue = g->proto == CSC_P_GUE;
    enum kfn fn = gue ? KF_GUE_UDP_RECV : KF_FOU_UDP_RECV;
    rp_enter(rp, t, fn);
    if (gue && !gue_udp_recv_header_ok(rp, t)) {
        gue_drop(rp, t, fn, KD_GUE_HDR);
        return;
    }
    uint32_t ptr = g->off + g->hdr_len;
    /* fou_recv_pull (FOU, GUE variant 1) pulls, then postpulls: a PARTIAL
     * starting at the UDP header becomes NONE. gue_udp_recv (variant 0)
     * postpulls with data still at the UDP header and pulls after: the
     * PARTIAL stays, its csum_start now behind data. Either way
     * skb_csum_unnecessary is false from here on, and a GRE checksum after
     * it is computed in software (net/ipv4/fou_core.c v6.12 = 6.1.192 =
     * 7.2.13; issue 28, finding 1) */
    bool keep_partial = gue && g->u.gue.variant == GUE_VARIANT_0 &&
                        rp->skb.ip_summed == CHECKSUM_PARTIAL && rp->skb.csum_start >= rp->skb.data;
    if (!keep_partial)
        skb_postpull_rcsum(rp, udp->off, ptr - udp->off);
    if ((g->notes & CSC_N_RCO) && era(rp, CSC_E_RCO)) {
        if (era(rp, CSC_E_RCO_NORMAL_SKIPS_FLAG) && rp->skb.remcsum_offload) {
            rp_step(rp, t, KF_GUE_REMCSUM, W_REMCSUM_SKIP, CSC_TRI_UNDECIDED, 0, NULL);
        } else {
            bool nopartial = !era(rp, CSC_E_RCO_NOPARTIAL_KNOB) || rp->cfg->remcsum_nopartial;
            /* gue_remcsum: pskb_may_pull(max(offset + 2, start)) */
            uint32_t need = g->rco_offset + CSUM_LEN > g->rco_start ? g->rco_offset + CSUM_LEN
                                                                  : g->rco_start;
            if ((uint64_t)ptr + need > rp->skb.tail) {
                gue_drop(rp, t, KF_GUE_REMCSUM, KD_GUE_HDR);
                return;
            }
            skb_remcsum_process(rp, t, KF_GUE_REMCSUM, ptr, g->rco_start, g->rco_offset, nopartial);
        }
    }
    if (gue && (g->notes & CSC_N_TUNNEL_OAM) && era(rp, CSC_E_GUE_HDR_2015)) {
        gue_drop(rp, t, fn, KD_GUE_CONTROL);
        return;
    }
    if (gue && g->u.gue.variant == GUE_VARIANT_0 && g->next == GUE_PROTO_NONE) {
        gue_drop(rp, t, fn, KD_GUE_HDR);
        return;
    }
    rp->skb.data = ptr;               /* __skb_pull: the sum was already adjusted */
    if (need_layer(rp, t + 1u, t, fn))
        deliver_l4(rp, t + 1);   /* the resubmit: under the same (outer) IP header */
}

/* xfrm4_rcv / xfrm6_rcv -> xfrm_input (net/xfrm/xfrm_input.c, v6.12) for AH
 * and ESP: the receiver's IPsec state decides. With a state for the SPI, AH's
 * ICV is checked, ah_input (net/ipv4/ah4.c, ah6.c) sets CHECKSUM_NONE, and the
 * payload goes on (transport mode: back to the IP protocol handlers; tunnel
 * mode: the inner packet is received again); without one, XfrmInNoStates and
 * a drop; without any state ever added, ah4/esp4 are not loaded and
 * inet_protos[] has no handler (IP_NOPROTO). The model has no IPsec
 * configuration: not modelled, never accepted. */
void xfrm_rcv(struct rp *rp, uint8_t i)
{
    rp_enter(rp, i, KF_XFRM_INPUT);
    not_modelled(rp, i, KF_XFRM_INPUT);
}

/* A MACsec frame at the real device: its rx_handler macsec_handle_frame
 * (drivers/net/macsec.c, v6.12) runs in __netif_receive_skb_core (GRO has
 * no handler for 0x88E5). Every path that hands the user data on (a known
 * SC: ICV checked by macsec_decrypt; an unused SA or an unknown SCI under
 * validateFrames not Strict: not checked) goes through macsec_finalize_skb,
 * which sets CHECKSUM_NONE, pulls the SecTAG and trims the ICV, then to the
 * macsec device (gro_cells_receive, or __netif_rx for an unknown SCI): the
 * inner checksums are then verified in software. Whether it is handed on
 * at all - the SecY's SCs and SAs, its key (the ICV), validateFrames,
 * replay protection, E set with C clear (RX_HANDLER_PASS) - is the
 * receiver's configuration, which the model has not: not modelled, never
 * accepted. */
void macsec_handle_frame(struct rp *rp, uint8_t i)
{
    rp_enter(rp, i, KF_MACSEC_HANDLE_FRAME);
    not_modelled(rp, i, KF_MACSEC_HANDLE_FRAME);
}

/* Ethernet in IPv6 (next header 143): inet6_protos[IPPROTO_ETHERNET] is empty
 * (v6.12). Only a seg6local End.DX2 route for the destination
 * (net/ipv6/seg6_local.c, input_action_end_dx2, taken in the route lookup
 * before local delivery) decapsulates it, and forwards the inner frame out of
 * a device without looking at its checksums (not modelled); delivered
 * locally, ip6_protocol_deliver_rcu finds no handler. */
void eth_in_ip_rcv(struct rp *rp, uint8_t i)
{
    uint8_t ip = L(rp, i)->ip;
    if (ip == CSC_NO_LAYER) {
        not_modelled(rp, i, KF_IP_LOCAL_DELIVER);
        return;
    }
    ip_no_protocol(rp, ip);
}

/* The tunnel device (of tunnel layer tl) counts a packet of a protocol no
 * packet handler takes and hands it on (gro_cells_receive: its GRO has no
 * offload for the type either); __netif_receive_skb_core (net/core/dev.c,
 * v6.12) finds no handler: rx_dropped, UNHANDLED_PROTO, at layer `drop`. */
static void tunnel_dev_drop(struct rp *rp, uint8_t tl, uint8_t at, uint8_t drop, enum kdrop why, uint32_t c);

void tunnel_dev_no_handler(struct rp *rp, uint8_t tl, uint8_t at, uint8_t drop)
{
    tunnel_dev_drop(rp, tl, at, drop, KD_UNHANDLED_PROTO, CNT(CSC_C_DEV_RX_DROPPED));
}

/* ... or a handler that frees it (why, counters c) */
static void tunnel_dev_drop(struct rp *rp, uint8_t tl, uint8_t at, uint8_t drop, enum kdrop why, uint32_t c)
{
    bool gro_cells = dev_uses_gro_cells(rp, L(rp, tl)->proto, outer_is_ipv6(rp, tl));
    if (!tunnel_dev_enter(rp, tl, at, gro_cells))
        return;
    rp_enter(rp, at, gro_cells ? KF_GRO_CELLS_RECEIVE : KF_NETIF_RX);
    if (gro_cells && rp->cfg->gro_tunnel && L(rp, at)->proto != CSC_P_ETH) {
        /* dev_gro_receive for skb->protocol NHRP, an unknown EtherType,
         * ERSPAN's mirrored type: no packet_offload, GRO_NORMAL (gro.c:gro_l3) */
        dev_gro_receive(rp, at);
    } else if (gro_cells && rp->cfg->gro_tunnel) {
        /* an inner 802.3 frame: skb->protocol is ETH_P_802_2 / ETH_P_802_3
         * after eth_type_trans, which has no packet_offload either */
        rp->k->devs[rp->dev].gro_ran = 1;
        rp->k->devs[rp->dev].gro_reason = CSC_G_NO_HANDLER;
    }
    rp_drop(rp, drop, KF_NETIF_RECEIVE_SKB_CORE, why, c);
}

/* An Ethernet tunnel (VXLAN, GENEVE, gretap: layer tl) whose inner frame
 * has an 802.3 length where the EtherType goes: eth_type_trans
 * (net/ethernet/eth.c, v6.12) makes skb->protocol ETH_P_802_3 or
 * ETH_P_802_2, not IP - the tunnel's ECN decapsulation does nothing for it,
 * the device counts it and no packet handler takes it (the stock receiver
 * has no LLC): rx_dropped, UNHANDLED_PROTO. The decoder ends such a frame
 * at its Ethernet header (an 802.3 payload). True: taken here. */
static bool teb_8023_no_handler(struct rp *rp, uint8_t tl)
{
    uint8_t e = (uint8_t)(tl + 1u), b[2];
    if (!has_layer(rp, e) || L(rp, e)->proto != CSC_P_ETH || has_layer(rp, e + 1u) ||
        (rp->r->stop != CSC_STOP_END && !stopped_at(rp, e, CSC_STOP_ETHERTYPE)) || L(rp, e)->hdr_len != ETH_HLEN ||
        !pkt_u8(&rp->p, (uint64_t)L(rp, e)->off + 12u, &b[0]) || !pkt_u8(&rp->p, (uint64_t)L(rp, e)->off + 13u, &b[1]) ||
        ((uint32_t)b[0] << 8 | b[1]) >= ETH_P_802_3_MIN_)
        return false;
    /* eth_type_trans: ETH_P_802_3 when the payload starts 0xFFFF (raw
     * IPX: no handler anywhere), else ETH_P_802_2 - llc_rcv where the
     * receiver has it (cfg->rx_llc), which frees a frame for no bound SAP
     * without a counter */
    uint8_t p0 = 0, p1 = 0;
    uint32_t pay = L(rp, e)->off + ETH_HLEN;
    bool raw = pkt_u8(&rp->p, pay, &p0) && pkt_u8(&rp->p, (uint64_t)pay + 1u, &p1) && p0 == 0xff && p1 == 0xff;
    pull_l2(rp, e, (uint8_t)(e + 1u));
    if (rp->cfg->rx_llc && !raw)
        tunnel_dev_drop(rp, tl, e, e, KD_NONE, 0);
    else
        tunnel_dev_no_handler(rp, tl, e, e);
    return true;
}

/* The same tunnels' inner frame with one VLAN tag (layer e + 1) followed by
 * an EtherType no packet handler takes: the decoder ends it there (a payload
 * it knows by name, LLDP, or an unknown type); ARP and the 802.3 lengths have
 * one and are left out. The device counts it; its gro_cells pass runs
 * vlan_gro_receive, which has no offload for the type (flush, gro.c); then
 * __netif_receive_skb_core (net/core/dev.c, v6.12 = 5.10) takes the tag off
 * (skb_vlan_untag, which needs 2 bytes behind it), finds no VLAN device -
 * the stock receiver has none: VID 0 is a priority tag, any other VID makes
 * it PACKET_OTHERHOST - and no handler for the type: rx_dropped,
 * UNHANDLED_PROTO. True: taken here. */
static bool teb_vlan_no_handler(struct rp *rp, uint8_t tl)
{
    uint8_t e = (uint8_t)(tl + 1u), v = (uint8_t)(tl + 2u);
    if (!has_layer(rp, v) || L(rp, e)->proto != CSC_P_ETH || L(rp, v)->proto != CSC_P_VLAN ||
        has_layer(rp, v + 1u) || (rp->r->stop != CSC_STOP_END && !stopped_at(rp, v, CSC_STOP_ETHERTYPE)))
        return false;
    uint16_t type = L(rp, v)->next;
    uint32_t behind = L(rp, v)->off + L(rp, v)->hdr_len;
    uint8_t b = 0;
    if (type < ETH_P_802_3_MIN_ || type == ETH_P_ARP || type == ETH_P_8021Q || type == ETH_P_8021AD ||
        !pkt_u8(&rp->p, (uint64_t)behind + 1u, &b))
        return false;
    pull_l2(rp, e, v);                /* eth_type_trans; the tag stays for GRO */
    tunnel_dev_no_handler(rp, tl, v, v);
    return true;
}

/* An inner frame no packet handler takes (802.3, a VLAN tag before an
 * unhandled type). True: taken here. */
static bool teb_no_handler(struct rp *rp, uint8_t tl)
{
    return teb_8023_no_handler(rp, tl) || teb_vlan_no_handler(rp, tl);
}

/* gre_rcv -> gre_parse_header -> ip_tunnel_rcv (net/ipv4/gre_demux.c, ip_gre.c) */
void gre_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *g = L(rp, i);
    uint16_t flags = g->u.gre.flags;
    rp_enter(rp, i, KF_GRE_RCV);
    if (gre_demux_short(rp, i))
        return;
    uint32_t nic = gre_drop_nic(rp);   /* 7.2's drop label: rx_dropped (finding 2) */
    /* gre_rcv (net/ipv4/gre_demux.c, v6.12): version 1 (PPTP) goes to
     * gre_proto[1], which only the pptp module registers - the stock
     * receiver has none loaded: dropped like a version >= GREPROTO_MAX.
     * Over IPv6 ip6gre's gre_parse_header refuses any version. 7.2.13
     * counts rx_dropped for a version >= GREPROTO_MAX, not for the missing
     * gre_proto[1] (the sid kfuzz cases: gre, gretap, FOU ver1 0, ver2 1).
     * Its version is the second byte's low 7 bits: a reserved flag bit there
     * makes it 8 or more, dropped too (the same in v6.12 and 7.2.13; the sid
     * fixed case of tgr-20, whose inner TCP port reads as GRE flags 0x4f89). */
    uint16_t demux_ver = flags & GRE_DEMUX_VER;
    if (demux_ver != GRE_VERSION_0 && !outer_is_ipv6(rp, i)) {
        rp_drop(rp, i, KF_GRE_RCV, KD_GRE_FLAGS, demux_ver == GRE_VERSION_1 ? 0 : nic);
        return;
    }
    if ((flags & GRE_VERSION) != GRE_VERSION_0 || (flags & GRE_R)) {
        rp_drop(rp, i, KF_GRE_PARSE_HEADER, KD_GRE_FLAGS, nic);
        return;
    }
    if (flags & GRE_C) {
        if (__skb_checksum_validate(rp, i, KF_GRE_PARSE_HEADER, true, false, 0, 0)) {
            rp_drop(rp, i, KF_GRE_PARSE_HEADER, KD_GRE_CSUM, nic);   /* no MIB */
            return;
        }
        skb_checksum_try_convert(rp, i, KF_GRE_PARSE_HEADER, 0);
    } else {
        rp_layer_result(rp, i, CSC_M_UNCHECKED, true, 0);
    }
    unsigned n = i + 1u;
    /* a short ERSPAN II/III header: gre_parse_header's own pull, before
     * ip_tunnel_rcv's flag checks (pull.c:erspan_short) */
    if (!has_layer(rp, n) && rp->r->stop_proto == CSC_P_ERSPAN && pskb_may_pull_fails(rp, i))
        return;
    /* and a short inner Ethernet header (gretap, ip6gretap):
     * __iptunnel_pull_header's pull of ETH_HLEN (ipgre_rcv, ip6gre_rcv)
     * before ip_tunnel_rcv / __ip6_tnl_rcv check the flags (bookworm seed
     * 4006 frame 32346) */
    if (!has_layer(rp, n) && rp->r->stop_proto == CSC_P_ETH && pskb_may_pull_fails(rp, i))
        return;
    bool erspan = has_layer(rp, n) && L(rp, (uint8_t)n)->proto == CSC_P_ERSPAN;
    uint8_t want = rp->cfg->gre_csum;   /* an ERSPAN device's flags are its own (erspan.c) */
    if (!erspan && ((want == CSC_GRE_CSUM_ON && !(flags & GRE_C)) ||
                    (want == CSC_GRE_CSUM_OFF && (flags & GRE_C)))) {
        rp_step(rp, i, KF_IP_TUNNEL_RCV, W_FLAG_MISMATCH, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, i, KF_IP_TUNNEL_RCV, KD_TUNNEL_CSUM_FLAGS,
                CNT(CSC_C_DEV_RX_CRC_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
        return;
    }
    skb_pull_rcsum(rp, g->hdr_len);
    if (erspan) {
        erspan_rcv(rp, i, (uint8_t)n);
        return;
    }
    if (has_layer(rp, n) && L(rp, (uint8_t)n)->proto == CSC_P_NHRP)
        /* NHRP (0x2001): the kernel checks nothing in it; only an NHRP
         * daemon's packet socket (opennhrp, FRR nhrpd) would take it from
         * the gre device - the stock receiver has none (issue 28, 13) */
        rp_layer_result(rp, (uint8_t)n, CSC_M_UNCHECKED, true, 0);
    if ((!has_layer(rp, n) && stopped_at(rp, i, CSC_STOP_ETHERTYPE)) || proto_no_handler(g->next) ||
        (has_layer(rp, n) && (L(rp, (uint8_t)n)->proto == CSC_P_WLAN ||
                              L(rp, (uint8_t)n)->proto == CSC_P_NHRP))) {
        /* ip_tunnel_rcv hands any protocol to the ipgre device (skb->protocol
         * = the GRE protocol: an unknown EtherType, Aruba's 0x8200 802.11,
         * NHRP, MPLS, NSH), which counts it; its GRO has no handler for the type, and
         * __netif_receive_skb_core (net/core/dev.c, v6.12) finds no packet
         * handler for it: rx_dropped, UNHANDLED_PROTO */
        tunnel_dev_no_handler(rp, i, has_layer(rp, n) ? (uint8_t)n : i, i);
        return;
    }
    if (has_layer(rp, n) && L(rp, (uint8_t)n)->proto == CSC_P_WCCP) {
        /* gre_parse_header (net/ipv4/gre_demux.c, v6.12 = 6.1.192 = 5.10):
         * WCCP (0x883e) without flags is the outer family's protocol - IPv4
         * for gre_rcv; ip6gre's IPv6 is not modelled - and, unless the
         * payload starts 0x4X, 4 more bytes of redirect header are in
         * hdr_len (the decoder's WCCP layer), pulled with the GRE header */
        if (outer_is_ipv6(rp, i)) {
            not_modelled(rp, i, KF_GRE_PARSE_HEADER);
            return;
        }
        rp_enter(rp, (uint8_t)n, KF_GRE_PARSE_HEADER);
        skb_pull_rcsum(rp, L(rp, (uint8_t)n)->hdr_len);
        n++;
    }
    int l3 = next_l3(rp, n);
    if (l3 < 0) {
        if (!has_layer(rp, n))
            need_layer(rp, n, i, KF_IP_TUNNEL_RCV);
        else if (!pskb_may_pull_fails(rp, i) && !teb_no_handler(rp, i))
            not_modelled(rp, i, KF_IP_TUNNEL_RCV);
        return;
    }
    pull_l2(rp, (uint8_t)n, (uint8_t)l3);
    tunnel_dev_receive(rp, i, (uint8_t)l3);
}

/* erspan_hdr_len (include/net/erspan.h): what the kernel pulls after GRE,
 * read from the ERSPAN header's own version field */
static uint32_t erspan_hdr_len(uint8_t ver)
{
    return ver == 0 ? 0 : ver == 1 ? WIRE_LEN(erspan2_hdr) : WIRE_LEN(erspan3_hdr);
}

/* ERSPAN III with O (a platform-specific subheader of 8 bytes): erspan_rcv /
 * ip6erspan_rcv (v6.12 = 6.1.192 = 7.2.13) pull only erspan_hdr_len(ver),
 * 12 bytes, so the mirrored "frame" starts at the subheader and its
 * EtherType is read 4 bytes into the real frame's destination MAC.
 * __iptunnel_pull_header sets skb->protocol from it (802.2 below 0x600),
 * IP_ECN_decapsulate leaves a non-IP packet alone, the device counts it
 * and eth_type_trans reads the same type. A type no packet handler takes
 * (802.2/802.3 without the llc module: the stock receiver; any EtherType
 * but IP, IPv6, ARP, a VLAN tag or MPLS) is dropped there with rx_dropped;
 * one the stack would parse is not modelled. */
static void erspan3_platform_subheader(struct rp *rp, uint8_t t, enum kfn fn)
{
    uint32_t seen = L(rp, t)->off + WIRE_LEN(erspan3_hdr);   /* what the kernel takes as the frame */
    uint16_t type = 0;
    if (!pkt_be16(&rp->p, (uint64_t)seen + WIRE_OFF(eth_hdr, type), &type)) {
        not_modelled(rp, t, fn);
        return;
    }
    switch (type) {
    case ETH_P_IP: case ETH_P_IPV6: case ETH_P_ARP: case ETH_P_8021Q: case ETH_P_8021AD:
    case ETH_P_MPLS_UC: case ETH_P_MPLS_MC:
        not_modelled(rp, t, fn);
        return;
    default:
        break;
    }
    skb_pull_rcsum(rp, WIRE_LEN(erspan3_hdr));
    skb_pull_rcsum(rp, ETH_HLEN);     /* eth_type_trans */
    tunnel_dev_no_handler(rp, t, t, t);
}

/* An ERSPAN II/III header with no mirrored frame after it: erspan_rcv's
 * __iptunnel_pull_header (ETH_P_TEB) cannot pull ETH_HLEN and the packet
 * goes to its drop label: freed, no counter (net/ipv4/ip_gre.c,
 * ip_tunnel_core.c, v6.12; the same label in 7.2.13) - as a mirrored frame
 * cut short (pull.c). ip6erspan_rcv returns PACKET_REJECT instead (an
 * ICMPv6 error is sent), which the table leaves unknown for a short frame
 * too. Found by a surviving mutant (docs/testing.md). */
static void erspan_nothing_after(struct rp *rp, uint8_t g, uint8_t t, enum kfn fn)
{
    if (outer_is_ipv6(rp, g))
        not_modelled(rp, t, fn);
    else
        rp_drop(rp, t, fn, KD_PKT_TOO_SMALL, 0);
}

/* erspan_rcv (net/ipv4/ip_gre.c) / ip6erspan_rcv (net/ipv6/ip6_gre.c), v6.12,
 * after gre_parse_header checked the GRE checksum (if C): type I is a GRE
 * header of 4 bytes and nothing else, II and III pull erspan_hdr_len(ver) -
 * the type III platform-specific subheader (O) is unknown to it and is read
 * as the mirrored frame (erspan3_platform_subheader). ERSPAN carries no checksum of
 * its own. __iptunnel_pull_header, then ip_tunnel_rcv / __ip6_tnl_rcv run
 * eth_type_trans on the ARPHRD_ETHER erspan device and hand the mirrored
 * frame to gro_cells_receive: GRO runs there (not at the NIC: gre_gro_receive
 * has no handler for 0x88be/0x22eb and flushes on S). A unicast mirrored
 * frame is addressed to the monitored host, never to the erspan device's
 * own MAC: PACKET_OTHERHOST, which ip_rcv_core / ip6_rcv_core drop. */
void erspan_rcv(struct rp *rp, uint8_t g, uint8_t t)
{
    const struct csc_layer *e = L(rp, t);
    enum kfn fn = outer_is_ipv6(rp, g) ? KF_IP6ERSPAN_RCV : KF_ERSPAN_RCV;
    rp_enter(rp, t, fn);
    if (!erspan_tunnel_flags_ok(rp, g, t))
        return;
    bool type1 = e->hdr_len == 0;
    uint32_t pull = type1 ? 0 : erspan_hdr_len(e->u.erspan.version);
    if (!type1 && e->hdr_len == WIRE_LEN(erspan3_hdr) + ERSPAN3_SUBHDR_LEN &&
        pull == WIRE_LEN(erspan3_hdr)) {
        erspan3_platform_subheader(rp, t, fn);
        return;
    }
    if (type1 ? L(rp, g)->hdr_len != GRE_HLEN : e->hdr_len != pull) {
        not_modelled(rp, t, fn);      /* the kernel would pull another length */
        return;
    }
    skb_pull_rcsum(rp, e->hdr_len);
    int l3 = next_l3(rp, t + 1u);
    if (l3 < 0) {
        if (!has_layer(rp, t + 1u) && rp->r->stop == CSC_STOP_END)
            erspan_nothing_after(rp, g, t, fn);
        else if (!has_layer(rp, t + 1u))
            need_layer(rp, t + 1u, t, fn);
        else if (!pskb_may_pull_fails(rp, t))
            not_modelled(rp, t, fn);
        return;
    }
    uint8_t dst0 = 0;
    if (pkt_u8(&rp->p, L(rp, t + 1)->off, &dst0) && !(dst0 & 1))
        rp->pkt_type = PACKET_OTHERHOST;   /* ip6erspan: HOST after all (eth.c) */
    pull_l2(rp, t + 1, (uint8_t)l3);
    tunnel_dev_receive(rp, t, (uint8_t)l3);
}

/* ipip_rcv / ipip6_rcv / ip6_tnl_rcv: the outer header is already pulled */
void ipip_rcv(struct rp *rp, uint8_t i)
{
    uint8_t kind = ip_in_ip_dev(rp, i);
    rp_enter(rp, i, kind == CSC_P_IPV4 ? KF_IPIP_RCV : kind == CSC_P_SIT ? KF_IPIP6_RCV
                                                                       : KF_IP6_TNL_RCV);
    /* iptunnel_pull_header(skb, 0, ...) (ipip_tunnel_rcv, ipip6_rcv,
     * ipxip6_rcv, v6.12): skb_pull_rcsum of nothing still ends a PARTIAL
     * whose start is behind data - one GUE kept past its pull (a REMCSUM
     * start inside the inner IP header survives) */
    skb_pull_rcsum(rp, 0);
    tunnel_dev_receive(rp, i, i);
}
