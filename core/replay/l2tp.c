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
 * packet's) and sublayer (as decoded), LAC mode, no reordering. Not
 * modelled: L2TPv2 (pppol2tp), control messages (the L2TP daemon's socket),
 * a default sublayer with S set (l2tp_recv_data_seq: the session's
 * sequence state decides), an inner frame over the l2tpeth device's MTU.
 */
#include "replay.h"

#include "pull.h"

#define L2TP_L2SPEC_S 0x40000000u     /* the default sublayer's S bit */

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
 * l2tp_udp_encap_recv as the UDP socket's encap_rcv */
void l2tp_rcv(struct rp *rp, uint8_t t)
{
    const struct csc_layer *l = L(rp, t);
    bool udp = t > 0 && L(rp, t - 1)->proto == CSC_P_UDP;
    enum kfn fn = udp ? KF_L2TP_UDP_ENCAP_RECV : under_ipv6(rp, t) ? KF_L2TP_IP6_RECV : KF_L2TP_IP_RECV;
    rp_enter(rp, t, fn);
    if (l->u.l2tp.version != 3 || l->u.l2tp.session == 0) {
        rp_unknown(rp, t, fn);        /* L2TPv2/PPP, a control message: not modelled */
        return;
    }
    if (!l2tp_recv_common(rp, t, KF_L2TP_RECV_COMMON))
        return;
    l2tp_eth_dev_recv(rp, t);
}
