/*
 * l2tp.c - the L2TPv3 receive of an Ethernet pseudowire (net/l2tp/, read at
 * v6.12; the same in 6.1.192, 5.10's l2tp_eth_dev_recv sets NONE alike):
 * l2tp_ip_recv / l2tp_ip6_recv (protocol 115) and l2tp_udp_encap_recv (the
 * tunnel's UDP socket, after UDP verified its checksum), then
 * l2tp_recv_common (cookie, L2-specific sublayer, sequence numbers) and the
 * pseudowire's l2tp_eth_dev_recv, which sets CHECKSUM_NONE ("checksums
 * verified by L2TP") and forwards the inner frame into the l2tpeth device
 * (dev_forward_skb: eth_type_trans, netif_rx - no GRO pass). Whatever the
 * NIC reported, every inner checksum is then computed in software.
 *
 * The receiver is the one --live makes from the packet: a tunnel and a
 * session with the packet's session ID, the configured cookie (the
 * packet's) and sublayer (as decoded), LAC mode, no reordering, and no
 * L2TP daemon: over UDP what l2tp_udp_encap_recv does not take (fewer than
 * L2TP_HDR_SIZE_MAX bytes, a control message) goes back to UDP, which
 * queues it on the tunnel's own socket - nobody reads it; over IP a control
 * message meets no socket bound to ID 0. Not modelled: L2TPv2 (pppol2tp),
 * a control message over IP to a non-zero ID (the unmanaged tunnel's socket
 * if the ID is its), a default sublayer with S set (l2tp_recv_data_seq: the
 * session's sequence state decides), an inner frame over the l2tpeth
 * device's MTU.
 */
#include "replay.h"

#include "pull.h"

#define L2TP_L2SPEC_S 0x40000000u     /* the default sublayer's S bit */
#define L2TP_HDR_SIZE_MAX 14u         /* l2tp_core.c: l2tp_udp_encap_recv's first pull */
#define L2TP_HDRFLAG_T 0x8000u        /* a control message */
#define L2TP_CTRL_LEN 12u             /* l2tp_ip_recv's pull after the session ID: flags,
                                         length, control connection ID, Ns, Nr */
#define L2TP_CTRL_TL 0xc0u            /* its first byte: T and L must both be set */

/* The bytes after UDP layer u: skb->len once l2tp_udp_encap_recv has
 * __skb_pull'ed the UDP header (__udp4_lib_rcv trimmed to the UDP length) */
static uint32_t udp_payload_len(const struct rp *rp, uint8_t u)
{
    const struct csc_layer *uh = L(rp, u);
    return uh->end > uh->off + UDP_HLEN ? uh->end - uh->off - UDP_HLEN : 0;
}

/* l2tp_udp_encap_recv (net/l2tp/l2tp_core.c v6.12 = v7.2; 6.1.192 and 5.10:
 * l2tp_udp_recv_core, which counts the tunnel's rx_invalid for a short one -
 * no netstat counter) returning 1, "pass": the UDP header pushed back,
 * udp_queue_rcv_one_skb / udpv6_queue_rcv_one_skb (net/ipv4/udp.c,
 * net/ipv6/udp.c v6.12) take it as a plain datagram and __udp_queue_rcv_skb
 * queues it on the tunnel's socket; its checksum was verified before
 * encap_rcv (udp_lib_checksum_complete). The unmanaged tunnel's kernel
 * socket has no reader: UdpInDatagrams is counted at recvmsg (the encap
 * path counts it only for ret <= 0), RcvbufErrors only once the receive
 * buffer is full. u: the UDP layer. */
static void l2tp_udp_pass(struct rp *rp, uint8_t u, unsigned why)
{
    rp_step(rp, u, KF_L2TP_UDP_ENCAP_RECV, why, CSC_TRI_UNDECIDED, 0, NULL);
    deliver(rp, u, KF_UDP_QUEUE_RCV_ONE_SKB);
}

/* The decoder stopped inside the L2TP header after UDP layer u, naming the
 * bytes there (core/proto/l2tp.c): fewer than L2TP_HDR_SIZE_MAX go back to
 * the socket (l2tp_udp_encap_recv's "Short packet?"). False: not this. */
bool l2tp_udp_encap_recv_short(struct rp *rp, uint8_t u)
{
    const struct csc_result *r = rp->r;
    if (r->stop != CSC_STOP_MALFORMED || r->stop_proto != CSC_P_L2TP || !r->stop_has_value ||
        udp_payload_len(rp, u) >= L2TP_HDR_SIZE_MAX)
        return false;
    l2tp_udp_pass(rp, u, W_SHORT);
    return true;
}

/* l2tp_ip_recv / l2tp_ip6_recv's pass_up (net/l2tp/l2tp_ip.c, l2tp_ip6.c
 * v6.12 = 6.1.192 = 7.2) for session ID 0, a control message: the 12
 * bytes after the session ID pulled, T and L both set, then the L2TP/IP
 * socket bound to its control connection ID (__l2tp_ip_bind_lookup). Every
 * failure is kfree_skb with no counter. The stock receiver runs no L2TP
 * daemon and `ip l2tp` tunnels have non-zero IDs: ID 0 (an SCCRQ's) meets
 * no socket; another is the unmanaged tunnel's socket if it is its ID
 * (queued, unread) - not known: unknown. */
static void l2tp_ip_pass_up(struct rp *rp, uint8_t t, enum kfn fn)
{
    const struct csc_layer *l = L(rp, t);
    uint32_t at = l->off + L2TPV3_SESSION_LEN;
    uint8_t b0 = 0;
    uint32_t ccid = 0;
    if (rp->skb.tail < at || rp->skb.tail - at < L2TP_CTRL_LEN) {
        rp_step(rp, t, fn, W_SHORT, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, fn, KD_PKT_TOO_SMALL, 0);
        return;
    }
    if (!pkt_u8(&rp->p, at, &b0) || !pkt_be32(&rp->p, (uint64_t)at + 4u, &ccid)) {
        rp_unknown(rp, t, fn);        /* the bytes that decide were not captured */
        return;
    }
    if ((b0 & L2TP_CTRL_TL) != L2TP_CTRL_TL) {
        rp_step(rp, t, fn, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, fn, KD_L2TP_CONTROL, 0);
        return;
    }
    if (ccid != 0) {
        rp_unknown(rp, t, fn);
        return;
    }
    rp_step(rp, t, fn, W_NO_SOCKET, CSC_TRI_UNDECIDED, 0, NULL);
    rp_drop(rp, t, fn, KD_NO_SOCKET, 0);
}

/* l2tp_recv_common (net/l2tp/l2tp_core.c v6.12) on a session with the
 * packet's cookie: the default sublayer's S bit makes has_seq, and a LAC
 * session then sends sequence numbers and queues by them
 * (l2tp_recv_data_seq) - per-session state the replay does not hold.
 * False: not modelled. */
static bool l2tp_recv_common(struct rp *rp, uint8_t t, enum kfn fn)
{
    const struct csc_layer *l = L(rp, t);
    if (l->u.l2tp.l2spec == 4) {
        uint32_t w = 0;
        if (!pkt_be32(&rp->p, (uint64_t)l->off + l->hdr_len - 4u, &w) || (w & L2TP_L2SPEC_S)) {
            rp_unknown(rp, t, fn);
            return false;
        }
    }
    rp->skb.data = l->off + l->hdr_len;   /* __skb_pull: skb->csum untouched */
    return true;
}

/* l2tp_eth_dev_recv (net/l2tp/l2tp_eth.c v6.12): CHECKSUM_NONE, then
 * dev_forward_skb into the l2tpeth device (__dev_forward_skb2:
 * eth_type_trans, skb_postpull_rcsum; netif_rx_internal: the backlog, no
 * GRO) which counts it (dev_sw_netstats_rx_add). */
static void l2tp_eth_dev_recv(struct rp *rp, uint8_t t)
{
    int l3 = has_layer(rp, t + 1u) && L(rp, t + 1)->proto == CSC_P_ETH ? next_l3(rp, t + 1u) : -1;
    if (l3 < 0) {                     /* not an Ethernet frame with IP the replay follows */
        if (!has_layer(rp, t + 1u) && rp->r->stop == CSC_STOP_END)
            rp_drop(rp, t, KF_L2TP_ETH_DEV_RECV, KD_PKT_TOO_SMALL, 0);   /* nothing: no ETH_HLEN, freed */
        else if (!pskb_may_pull_fails(rp, t))
            rp_unknown(rp, t, KF_L2TP_ETH_DEV_RECV);
        return;
    }
    struct csc_skb_state before = rp_snap(rp);
    rp->skb.ip_summed = CHECKSUM_NONE;
    rp_step(rp, t, KF_L2TP_ETH_DEV_RECV, W_CSUM_NONE_SET, CSC_TRI_UNDECIDED, 0, &before);
    pull_l2(rp, t + 1, (uint8_t)l3);
    tunnel_dev_receive(rp, t, (uint8_t)l3);
}

/* The L2TP row's receive: l2tp_ip_recv / l2tp_ip6_recv for protocol 115,
 * l2tp_udp_encap_recv as the UDP socket's encap_rcv (v6.12: the short test,
 * then T; 6.1.192 / 5.10 test the version between them - an L2TPv3 packet
 * on the L2TPv3 tunnel passes it) */
void l2tp_rcv(struct rp *rp, uint8_t t)
{
    const struct csc_layer *l = L(rp, t);
    bool udp = t > 0 && L(rp, t - 1)->proto == CSC_P_UDP;
    enum kfn fn = udp ? KF_L2TP_UDP_ENCAP_RECV : under_ipv6(rp, t) ? KF_L2TP_IP6_RECV : KF_L2TP_IP_RECV;
    rp_enter(rp, t, fn);
    uint16_t flags = 0;
    if (udp && udp_payload_len(rp, t - 1) < L2TP_HDR_SIZE_MAX) {
        l2tp_udp_pass(rp, t - 1, W_SHORT);        /* "Short packet?" */
        return;
    }
    if (udp && pkt_be16(&rp->p, l->off, &flags) && (flags & L2TP_HDRFLAG_T)) {
        l2tp_udp_pass(rp, t - 1, W_CONTROL);       /* "handled by userspace" */
        return;
    }
    if (!udp && l->u.l2tp.session == 0) {
        l2tp_ip_pass_up(rp, t, fn);
        return;
    }
    if (l->u.l2tp.version != 3 || l->u.l2tp.session == 0) {
        rp_unknown(rp, t, fn);        /* L2TPv2/PPP, no session for ID 0 over UDP: not modelled */
        return;
    }
    if (!l2tp_recv_common(rp, t, KF_L2TP_RECV_COMMON))
        return;
    l2tp_eth_dev_recv(rp, t);
}
