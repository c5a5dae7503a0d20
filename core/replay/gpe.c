/*
 * gpe.c - a VXLAN-GPE socket's receive (vxlan_rcv with VXLAN_F_GPE,
 * drivers/net/vxlan/vxlan_core.c) and the header checks it shares with
 * vxlan_gpe_gro_receive (vxlan_parse_gpe_proto); read at v6.12 and 6.1.192
 * (5.10's vxlan_parse_gpe_hdr makes the same checks).
 */
#include "replay.h"

/* The GPE header as vxlan_rcv reads it: two big-endian words
 * (include/net/vxlan.h: VXLAN_HF_VNI, VXLAN_HF_VER, VXLAN_HF_NP,
 * VXLAN_HF_OAM; VXLAN_GPE_USED_BITS adds the next-protocol byte). */
#define GPE_HF_VNI   0x08000000u   /* I */
#define GPE_HF_VER   0x30000000u
#define GPE_HF_NP    0x04000000u   /* P */
#define GPE_HF_OAM   0x01000000u   /* O */
#define GPE_USED     (GPE_HF_VNI | GPE_HF_VER | GPE_HF_NP | GPE_HF_OAM | 0xffu)
#define GPE_VNI_MASK 0xffffff00u

static uint32_t gpe_word(const struct rp *rp, const struct csc_layer *g, uint32_t at)
{
    uint32_t w = 0;
    pkt_be32(&rp->p, (uint64_t)g->off + at, &w);
    return w;
}

/* vxlan_parse_gpe_proto (v6.12): P must be set, the version 0 and O clear,
 * else false (vxlan_rcv drops, vxlan_gpe_gro_receive flushes). Its last
 * check, a next protocol tun_p_to_eth_p knows, is the decoded layer's. */
bool vxlan_parse_gpe_proto(const struct rp *rp, uint8_t t)
{
    uint32_t w0 = gpe_word(rp, L(rp, t), 0);
    return (w0 & GPE_HF_NP) && !(w0 & GPE_HF_VER) && !(w0 & GPE_HF_OAM);
}

/* tun_p_to_eth_p (include/net/vxlan.h, v6.12 = 5.10's
 * vxlan_parse_gpe_hdr): next protocol NSH (4) or MPLS (5) makes
 * skb->protocol ETH_P_NSH or ETH_P_MPLS_UC, for which no offload has a
 * gro_receive (net/nsh/nsh.c and net/mpls/mpls_gso.c register
 * gso_segment only) and the stock receiver no packet handler (neither nsh
 * nor mpls_router is loaded; nsh has none at all). Decided from the header
 * byte: the payload after it is not looked at. */
bool gpe_next_unhandled(const struct rp *rp, uint8_t t)
{
    uint8_t np = L(rp, t)->next;
    return vxlan_parse_gpe_proto(rp, t) && (np == VXLAN_GPE_NP_NSH || np == VXLAN_GPE_NP_MPLS);
}

/* Bits outside the I flag, the VNI and VXLAN_GPE_USED_BITS: the B bit, the
 * two top flag bits, the reserved bytes and the low byte of the VNI word. */
static bool gpe_reserved_bits(const struct rp *rp, const struct csc_layer *g)
{
    return (gpe_word(rp, g, 0) & ~GPE_USED) || (gpe_word(rp, g, 4) & ~GPE_VNI_MASK);
}

static void gpe_drop(struct rp *rp, uint8_t t, enum kdrop why, uint32_t counters)
{
    rp_step(rp, t, KF_VXLAN_RCV, W_INVALID_HDR, CSC_TRI_NO, 0, NULL);
    rp_drop(rp, t, KF_VXLAN_RCV, why, counters);
}

/* vxlan_rcv on a GPE socket (v6.12), in its order: the I flag (silent,
 * VXLAN_INVALID_HDR); from v6.14 (752b1c8d8b40, era switch
 * VXLAN_RESERVED_EARLY) the reserved bits against the device's
 * reserved_bits, with rx_frame_errors + rx_errors; vxlan_parse_gpe_proto
 * (silent); __iptunnel_pull_header; up to v6.13 the bits no parser consumed
 * (`unparsed`, silent). With raw_proto there is no eth_type_trans: the skb
 * enters the GPE device (vxlan_raw_setup: ARPHRD_NONE) as the next
 * protocol's EtherType. */
void vxlan_gpe_rcv(struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    bool reserved = gpe_reserved_bits(rp, g);
    rp_enter(rp, t, KF_VXLAN_RCV);
    if (!(gpe_word(rp, g, 0) & GPE_HF_VNI)) {
        gpe_drop(rp, t, KD_VXLAN_INVALID_HDR, 0);
        return;
    }
    if (reserved && era(rp, CSC_E_VXLAN_RESERVED_EARLY)) {
        gpe_drop(rp, t, KD_VXLAN_INVALID_HDR,
                 CNT(CSC_C_DEV_RX_FRAME_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
        return;
    }
    if (!vxlan_parse_gpe_proto(rp, t)) {
        gpe_drop(rp, t, KD_GPE_HDR, 0);
        return;
    }
    if (!has_layer(rp, t + 1u) && rp->r->stop == CSC_STOP_NEXT && rp->r->stop_layer == t) {
        /* tun_p_to_eth_p knows no such next protocol: dropped before the pull */
        rp_drop(rp, t, KF_VXLAN_RCV, KD_GPE_NEXT, 0);
        return;
    }
    skb_pull_rcsum(rp, UDP_HLEN + VXLAN_HLEN);
    if (reserved) {
        gpe_drop(rp, t, KD_VXLAN_INVALID_HDR, 0);
        return;
    }
    uint8_t in = (uint8_t)(t + 1u);
    /* Ethernet (next protocol 3) enters the device as ETH_P_TEB: its
     * gro_cells pass runs eth_gro_receive (eth_packet_offload) into the
     * inner packet, then __netif_receive_skb_core finds no handler
     * (netif_receive_skb: rx_dropped, UNHANDLED_PROTO) */
    uint8_t p = has_layer(rp, in) ? L(rp, in)->proto : CSC_P_NONE;
    if (gpe_next_unhandled(rp, t)) {
        /* the ECN decapsulation passes a non-IP protocol (IP_ECN_decapsulate:
         * 0), the device counts it: rx_dropped, UNHANDLED_PROTO */
        tunnel_dev_no_handler(rp, t, has_layer(rp, in) ? in : t, t);
        return;
    }
    if (p != CSC_P_IPV4 && p != CSC_P_IPV6 && p != CSC_P_ETH) {
        rp_unknown(rp, t, KF_VXLAN_RCV);
        return;
    }
    tunnel_dev_receive(rp, t, in);
}
