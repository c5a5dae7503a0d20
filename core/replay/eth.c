/*
 * eth.c - skb->pkt_type: what eth_type_trans (net/ethernet/eth.c) makes of
 * a destination MAC, and what each tunnel device leaves of it
 * (skb_scrub_packet, net/core/skbuff.c: PACKET_HOST); read at v6.12, the
 * same in 6.1.192. tcp_v4_rcv / tcp_v6_rcv discard anything not
 * PACKET_HOST, ip_rcv_core / ipv6_rcv PACKET_OTHERHOST (rx.c).
 */
#include "replay.h"

/* eth_type_trans on a destination MAC: the group bit makes it
 * PACKET_BROADCAST (ff:ff:ff:ff:ff:ff) or PACKET_MULTICAST; a unicast one
 * is PACKET_HOST - the model's receiver is the frame's addressee - unless
 * the caller knows it is another host's (`other`: PACKET_OTHERHOST). */
static uint8_t eth_type_trans_pkt_type(const struct rp *rp, uint8_t eth, bool other)
{
    uint8_t dst[6] = { 0 };
    uint64_t off = L(rp, eth)->off;
    for (unsigned i = 0; i < sizeof dst; i++)
        if (!pkt_u8(&rp->p, off + i, &dst[i]))
            return PACKET_HOST;
    if (!(dst[0] & 1))
        return other ? PACKET_OTHERHOST : PACKET_HOST;
    for (unsigned i = 0; i < sizeof dst; i++)
        if (dst[i] != 0xff)
            return PACKET_MULTICAST;
    return PACKET_BROADCAST;
}

/* The NIC's eth_type_trans (the driver, before napi_gro_receive): the
 * frame's own Ethernet header, when it has one */
void eth_type_trans_nic(struct rp *rp)
{
    rp->pkt_type = rp->r->nlayers > 0 && L(rp, 0)->proto == CSC_P_ETH
                       ? eth_type_trans_pkt_type(rp, 0, false) : PACKET_HOST;
}

/* The pkt_type the tunnel device hands on. Every device's receive scrubs
 * (__iptunnel_pull_header, ip_tunnel_rcv, __ip6_tnl_rcv, vxlan_rcv's
 * pull: skb_scrub_packet), so an L3 tunnel's packet is PACKET_HOST - also
 * ip_tunnel_rcv's PACKET_BROADCAST for a multicast outer destination
 * (CONFIG_NET_IPGRE_BROADCAST), which the scrub after it overwrites - and
 * so is VXLAN-GPE's raw protocol (vxlan_rcv sets PACKET_HOST). An Ethernet
 * device's eth_type_trans comes after the scrub (vxlan_set_mac, geneve_rx,
 * ip_tunnel_rcv for gretap and erspan): the inner destination MAC decides,
 * PACKET_OTHERHOST where the caller marked the inner frame another host's
 * (rp->pkt_type already PACKET_OTHERHOST: a mirrored frame, an
 * innerprotoinherit GENEVE device's). __ip6_tnl_rcv (ip6gretap, ip6erspan)
 * runs eth_type_trans before its scrub: PACKET_HOST whatever the MAC. */
void tunnel_rx_pkt_type(struct rp *rp, uint8_t kind, bool outer_v6, uint8_t tunnel_layer,
                        uint8_t inner_l3)
{
    bool other = rp->pkt_type == PACKET_OTHERHOST;
    uint8_t eth = (uint8_t)(tunnel_layer + 1u);
    rp->pkt_type = PACKET_HOST;
    if (eth >= inner_l3 || L(rp, eth)->proto != CSC_P_ETH)
        return;
    if (outer_v6 && (kind == CSC_P_GRE || kind == CSC_P_ERSPAN))
        return;
    rp->pkt_type = eth_type_trans_pkt_type(rp, eth, other);
}

/* The loop check of vxlan_set_mac (drivers/net/vxlan/vxlan_core.c) and
 * geneve_rx (drivers/net/geneve.c), v6.12 = 6.1.192 = 5.10:
 * ether_addr_equal(eth_hdr(skb)->h_source, dev->dev_addr) after
 * eth_type_trans. The model knows the device's address only when the
 * receiver's configuration gives it (cfg dev_mac_known, which the kernel
 * harnesses set); without it, or without the six bytes, the source is
 * another host's: false. */
bool ether_addr_equal_dev_addr(const struct rp *rp, uint8_t eth)
{
    if (!rp->cfg->dev_mac_known || eth >= rp->r->nlayers || L(rp, eth)->proto != CSC_P_ETH)
        return false;
    uint64_t off = (uint64_t)L(rp, eth)->off + WIRE_OFF(eth_hdr, src);
    bool same = true;
    for (unsigned i = 0; i < sizeof rp->cfg->dev_mac; i++) {
        uint8_t b = 0;
        if (!pkt_u8(&rp->p, off + i, &b))
            return false;
        same = same && b == rp->cfg->dev_mac[i];
    }
    return same;
}
