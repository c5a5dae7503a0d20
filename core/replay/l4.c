/*
 * l4.c - the receive path's transport endpoints: UDP with its socket rules
 * and the hand-off to a tunnel's encap_rcv (net/ipv4/udp.c __udp4_lib_rcv,
 * udp_queue_rcv_one_skb, net/ipv6/udp.c), TCP (tcp_v4_rcv, tcp_v6_rcv),
 * ICMP, ICMPv6 and IGMP, and the protocol dispatch that reaches them
 * (ip_protocol_deliver_rcu, ip6_protocol_deliver_rcu); read at v6.12.
 * Split from rx.c, which keeps IP and the tunnels.
 */
#include "replay.h"

#include "../proto/protos.h"
#include "pull.h"

/* ---- UDP ---- */

/* no_check6_rx of the tunnel's socket: udp_sock_create6 sets it from
 * !use_udp6_rx_checksums. VXLAN and L2TP set that only without
 * udp6zerocsumrx; fou's parse_nl_config never sets it (6.12 fou_core.c), so a
 * FOU/GUE socket always accepts a zero checksum; geneve_newlink sets it only
 * for a device with a remote6 (v4.12+), so an `external` device accepts zero. */
static bool tunnel_no_check6_rx(const struct rp *rp, const struct csc_layer *t)
{
    switch (t->proto) {
    case CSC_P_FOU: case CSC_P_GUE:
        return true;
    case CSC_P_GENEVE:
        return rp->cfg->udp6_zero_csum_rx ||
               (rp->cfg->geneve_external && era(rp, CSC_E_GENEVE_ZERO6_EXTERNAL));
    default:
        return rp->cfg->udp6_zero_csum_rx;
    }
}

static bool convert_csum_sock(const struct rp *rp, const struct csc_layer *t)
{
    return proto_has(t->proto, CSC_PF_CONVERT_CSUM) || era(rp, CSC_E_CONVERT_ALL_TUNNELS);
}

static void udp_csum_error(struct rp *rp, uint8_t i, enum kfn fn, bool v6)
{
    uint32_t c = v6 ? CNT(CSC_C_UDP6_IN_CSUM_ERRORS) | CNT(CSC_C_UDP6_IN_ERRORS)
                    : CNT(CSC_C_UDP_IN_CSUM_ERRORS) | CNT(CSC_C_UDP_IN_ERRORS);
    rp_drop(rp, i, fn, KD_UDP_CSUM, c);
}

/* The tunnel socket's encap_rcv, called by udp_queue_rcv_one_skb once the
 * checksum is complete: the row's rcv, or not modelled when the row has
 * none (a driver whose receive depends on state a capture lacks, such as
 * AMT's relay discovery): unknown, never accept, as deliver_l4 does. */
static void udp_encap_rcv(struct rp *rp, uint8_t t)
{
    void (*rcv)(struct rp *, uint8_t) = proto_row(L(rp, t)->proto)->rcv;
    if (rcv)
        rcv(rp, t);
    else
        not_modelled(rp, t, KF_UDP_QUEUE_RCV_ONE_SKB);
}

/* __udp4_lib_rcv / __udp6_lib_rcv and the socket's receive */
void udp_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *uh = L(rp, i);
    bool v6 = under_ipv6(rp, i);
    enum kfn lib = v6 ? KF_UDP6_LIB_RCV : KF_UDP4_LIB_RCV;
    enum kfn init = v6 ? KF_UDP6_CSUM_INIT : KF_UDP4_CSUM_INIT;
    uint16_t check = rp_field(rp, uh);
    rp_enter(rp, i, lib);
    if ((uh->notes & (CSC_N_LEN_SHORT | CSC_N_LEN_EXCEEDS)) || pskb_trim_rcsum_fails(rp, uh->end)) {
        rp_step(rp, i, lib, W_SHORT, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, i, lib, KD_PKT_TOO_SMALL,
                v6 ? CNT(CSC_C_UDP6_IN_ERRORS) : CNT(CSC_C_UDP_IN_ERRORS));
        return;
    }
    pskb_trim_rcsum(rp, i, uh->end);
    if (__skb_checksum_validate(rp, i, init, false, true, check, l4_pseudo(rp, uh))) {
        udp_csum_error(rp, i, init, v6);
        return;
    }
    if (rp->skb.ip_summed == CHECKSUM_COMPLETE && !rp->skb.csum_valid &&
        era(rp, CSC_E_UDP_COMPLETE_UNSET)) {
        if (rp->skb.csum_complete_sw) {
            udp_csum_error(rp, i, init, v6);
            return;
        }
        struct csc_skb_state before = rp_snap(rp);
        skb_checksum_complete_unset(rp);
        rp_step(rp, i, init, W_COMPLETE_UNSET, CSC_TRI_UNDECIDED, 0, &before);
    }
    bool tunnel = has_layer(rp, i + 1u) && is_udp_tunnel(rp, i + 1);
    /* a port nothing listens on unless configured (GRE-in-UDP without a FOU
     * port), or on this family (an AF_INET-only tunnel socket over IPv6) */
    bool unbound = has_layer(rp, i + 1u) && csc_proto_port_unbound(L(rp, i + 1)->proto, v6);
    bool socket = tunnel || (rp->cfg->inner_socket && !unbound);
    if (v6 && check == 0 && !(tunnel && tunnel_no_check6_rx(rp, L(rp, i + 1)))) {
        rp_step(rp, i, lib, W_ZERO_REFUSED, CSC_TRI_NO, 0, NULL);
        rp_layer_result(rp, i, CSC_M_ZERO, false, 0);
        udp_csum_error(rp, i, lib, v6);
        return;
    }
    if (!tunnel && !has_layer(rp, i + 1u) && rp->r->stop_layer == i &&
        csc_stop_is_finding(rp->r->stop) && rp->r->stop != CSC_STOP_NEEDS_OPTION) {
        /* what follows UDP on a tunnel port could not be decoded (cut,
         * impossible): the tunnel's socket would take it, and what it does
         * is not known. Any socket completes the checksum first (a tunnel's
         * before encap_rcv, a plain one at recvmsg, none before UdpNoPorts),
         * so a bad one drops. (A port a tunnel commonly uses but that is not
         * configured, needs-option, is a plain port: the receiver as given
         * has no tunnel there.) */
        if (skb_checksum_complete(rp, i, lib)) {
            udp_csum_error(rp, i, lib, v6);
            return;
        }
        if (pskb_may_pull_fails(rp, i))       /* encap_rcv's pull of a short header */
            return;
        if (l2tp_udp_encap_recv_short(rp, i))  /* ... or L2TP's: back to the socket */
            return;
        rp->k->verdict = CSC_K_UNKNOWN;
        rp_step(rp, i, lib, W_NOT_MODELLED, CSC_TRI_UNDECIDED, 0, NULL);
        rp->done = true;
        return;
    }
    if (!socket) {
        if (skb_checksum_complete(rp, i, lib)) {
            udp_csum_error(rp, i, lib, v6);
            return;
        }
        rp_step(rp, i, lib, W_NO_SOCKET, CSC_TRI_UNDECIDED, 0, NULL);
        rp_drop(rp, i, lib, KD_NO_SOCKET, v6 ? CNT(CSC_C_UDP6_NO_PORTS) : CNT(CSC_C_UDP_NO_PORTS));
        return;
    }
    /* udp_unicast_rcv_skb */
    if (tunnel && convert_csum_sock(rp, L(rp, i + 1)) && check != 0)
        skb_checksum_try_convert(rp, i, KF_UDP_UNICAST_RCV_SKB, l4_pseudo(rp, uh));
    /* udp_queue_rcv_one_skb */
    if (tunnel) {
        if (skb_checksum_complete(rp, i, KF_UDP_QUEUE_RCV_ONE_SKB)) {
            udp_csum_error(rp, i, KF_UDP_QUEUE_RCV_ONE_SKB, v6);
            return;
        }
        udp_encap_rcv(rp, i + 1);
        return;
    }
    /* plain socket: copy-and-checksum at recvmsg */
    if (skb_checksum_complete(rp, i, KF_UDP_RECVMSG)) {
        udp_csum_error(rp, i, KF_UDP_RECVMSG, v6);
        return;
    }
    deliver(rp, i, KF_UDP_RECVMSG);
}

/* ---- transport endpoints ---- */

/* tcp_v4_rcv / tcp_v6_rcv */
/* tcp_inbound_hash (net/ipv4/tcp.c, v6.12 = 7.2.13) on the socket the
 * segment found, before tcp_checksum_complete; the model's receiver has no
 * MD5 or AO key. tcp_do_parse_auth_options walks the options while 5 bytes
 * remain (TCP_AUTH_OPTS with TCP_AO, Debian's 7.2; 18 on a kernel without
 * CONFIG_TCP_AO, whose well-formed AO option goes to a stub that takes it -
 * its length and duplicate checks are not under the config: 6.12.118, the
 * host's 6.18.44; 6.1.192's tcp_parse_md5sig_option walks while 18 remain and
 * stops at a malformed option or the first MD5 one): an option of size under 2 or past the
 * options, an MD5 option not 18 long, an AO option of 4 or less, or a second
 * MD5/AO option is TCP_AUTH_HDR; an MD5 option with no key is
 * TCPMD5Unexpected (tcp_inbound_md5_hash), an AO one TCPAOKeyNotFound
 * (tcp_inbound_ao_hash). Each drops the segment with no MIB counter of the
 * model's. The options were walked once, by the decoder (core/proto/tcp.c
 * tcp_options). True: dropped. */
static bool tcp_inbound_hash_refuses(struct rp *rp, uint8_t i, enum kfn fn)
{
    const struct csc_layer *th = L(rp, i);
    bool refused = false, unexpected;
    if (era(rp, CSC_E_TCP_AUTH_OPTS)) {
        /* the walk goes on while minlen option bytes are left: an option
         * the decoder noted with fewer left was never read */
        bool ao = era(rp, CSC_E_TCP_AO);
        unsigned minlen = ao ? TCPOLEN_AO_HDR + 1u : TCPOLEN_MD5SIG;
        refused = th->u.tcp.auth_bad_len >= minlen || th->u.tcp.auth_bad >= minlen;
        unexpected = th->u.tcp.auth_md5 >= minlen || (ao && th->u.tcp.auth_ao >= minlen);
    } else {
        /* tcp_parse_md5sig_option: the first MD5 option decides, if 18 bytes are left */
        unexpected = th->u.tcp.md5_first >= TCPOLEN_MD5SIG && th->u.tcp.md5_first_ok;
    }
    if (!refused && !unexpected)
        return false;
    rp_drop(rp, i, fn, refused ? KD_TCP_AUTH_HDR : KD_TCP_HASH_UNEXPECTED, 0);
    return true;
}

void tcp_rcv(struct rp *rp, uint8_t i)
{
    const struct csc_layer *th = L(rp, i);
    bool v6 = under_ipv6(rp, i);
    enum kfn fn = v6 ? KF_TCP_V6_RCV : KF_TCP_V4_RCV;
    uint32_t err = CNT(CSC_C_TCP_IN_CSUM_ERRORS) | CNT(CSC_C_TCP_IN_ERRS);
    rp_enter(rp, i, fn);
    if (rp->pkt_type != PACKET_HOST) {
        /* tcp_v4_rcv / tcp_v6_rcv (v6.12, 6.1): discard_it before InSegs and
         * the checksum (a broadcast or multicast MAC) */
        rp_drop(rp, i, fn, KD_PKT_TYPE, 0);
        return;
    }
    if (th->notes & CSC_N_LEN_SHORT) {
        /* tcp_v4_rcv / tcp_v6_rcv (v6.12): a data offset under 5 is
         * bad_packet (TcpInErrs); one past the segment fails
         * pskb_may_pull(doff * 4): discard_it, TcpInSegs only (tcp-4; the
         * trixie VM: TcpInErrs 0 for doff 15 over 20 bytes) */
        uint8_t b = 0;
        bool past = pkt_u8(&rp->p, (uint64_t)th->off + 12u, &b) && (b >> 4) >= 5;
        rp_drop(rp, i, fn, KD_PKT_TOO_SMALL, past ? 0 : CNT(CSC_C_TCP_IN_ERRS));
        return;
    }
    if (__skb_checksum_validate(rp, i, fn, false, false, 0, l4_pseudo(rp, th))) {
        rp_drop(rp, i, fn, KD_TCP_CSUM, err);
        return;
    }
    if (rp->cfg->inner_socket && tcp_inbound_hash_refuses(rp, i, fn))
        return;
    if (skb_checksum_complete(rp, i, KF_TCP_CHECKSUM_COMPLETE)) {
        rp_drop(rp, i, KF_TCP_CHECKSUM_COMPLETE, KD_TCP_CSUM, err);
        return;
    }
    if (!rp->cfg->inner_socket) {
        rp_step(rp, i, fn, W_NO_SOCKET, CSC_TRI_UNDECIDED, 0, NULL);
        rp_drop(rp, i, fn, KD_NO_SOCKET, 0);
        return;
    }
    deliver(rp, i, fn);
}

static void icmp_rcv_v(struct rp *rp, uint8_t i, bool v6)
{
    enum kfn fn = v6 ? KF_ICMPV6_RCV : KF_ICMP_RCV;
    rp_enter(rp, i, fn);
    uint32_t psum = v6 ? l4_pseudo(rp, L(rp, i)) : 0;
    if (__skb_checksum_validate(rp, i, fn, true, false, 0, psum)) {
        uint32_t c = v6 ? CNT(CSC_C_ICMP6_IN_CSUM_ERRORS) | CNT(CSC_C_ICMP6_IN_ERRORS)
                        : CNT(CSC_C_ICMP_IN_CSUM_ERRORS) | CNT(CSC_C_ICMP_IN_ERRORS);
        rp_drop(rp, i, fn, KD_ICMP_CSUM, c);
        return;
    }
    if (v6 ? !icmpv6_rcv_type(rp, i) : !icmp_rcv_type(rp, i))
        return;
    deliver(rp, i, fn);
}

void icmp_rcv(struct rp *rp, uint8_t i)
{
    icmp_rcv_v(rp, i, false);
}

void icmpv6_rcv(struct rp *rp, uint8_t i)
{
    icmp_rcv_v(rp, i, true);
}

void igmp_rcv(struct rp *rp, uint8_t i)
{
    rp_enter(rp, i, KF_IGMP_RCV);
    if (__skb_checksum_validate(rp, i, KF_IGMP_RCV, true, false, 0, 0)) {
        rp_drop(rp, i, KF_IGMP_RCV, KD_IGMP_CSUM, 0);
        return;
    }
    deliver(rp, i, KF_IGMP_RCV);
}

/* ip_protocol_deliver_rcu / ip6_protocol_deliver_rcu: inet_protos[]'s handler */
/* ICMP in IPv6 or ICMPv6 in IPv4: inet6_protos[IPPROTO_ICMP] and
 * inet_protos[IPPROTO_ICMPV6] are empty (net/ipv4/af_inet.c inet_init,
 * net/ipv6/icmp.c icmpv6_init, v6.12), so no checksum is looked at: a raw
 * socket of that number takes it (the receiver's, cfg->inner_socket), or
 * ip_protocol_deliver_rcu / ip6_protocol_deliver_rcu find no handler. */
static bool icmp_of_other_family(struct rp *rp, uint8_t i)
{
    const struct csc_layer *l = L(rp, i);
    if ((l->proto != CSC_P_ICMP && l->proto != CSC_P_ICMPV6) || l->ip == CSC_NO_LAYER ||
        (l->proto == CSC_P_ICMPV6) == (L(rp, l->ip)->proto == CSC_P_IPV6))
        return false;
    if (rp->cfg->inner_socket)
        deliver(rp, i, L(rp, l->ip)->proto == CSC_P_IPV6 ? KF_IP6_PROTOCOL_DELIVER_RCU : KF_IP_LOCAL_DELIVER);
    else
        ip_no_protocol(rp, l->ip);
    return true;
}

void deliver_l4(struct rp *rp, uint8_t i)
{
    if (rp->done || icmp_of_other_family(rp, i))
        return;
    void (*rcv)(struct rp *, uint8_t) = proto_row(L(rp, i)->proto)->rcv;
    if (rcv)
        rcv(rp, i);
    else
        not_modelled(rp, i, KF_IP_LOCAL_DELIVER);
}
