/*
 * eth.c - Ethernet II (IEEE 802.3 with EtherType) and 802.1Q / 802.1ad tags.
 *
 *   0                   6                  12      14
 *   +-------------------+-------------------+-------+
 *   | destination MAC   | source MAC        | type  |
 *   +-------------------+-------------------+-------+
 *
 * 802.1Q/802.1ad tag (IEEE 802.1Q-2018 §9.6), any depth:
 *   +-------+-------+
 *   |  TCI  | type  |   TCI = PCP(3) DEI(1) VID(12)
 *   +-------+-------+
 * A type below 0x0600 is an 802.3 length (LLC follows): the stack ends.
 */
#include "decode.h"

void dec_eth(struct dec *d, uint32_t off)
{
    uint16_t type = 0;
    struct csc_layer *l = dec_header(d, CSC_P_ETH, off, ETH_HLEN);
    if (!l)
        return;
    pkt_be16(&d->p, off + WIRE_OFF(eth_hdr, type), &type);
    l->next = type;
    if (type >= ETH_P_802_3_MIN)
        dec_ethertype(d, type, off + ETH_HLEN);
}

void dec_vlan(struct dec *d, uint32_t off)
{
    uint16_t type = 0;
    struct csc_layer *l = dec_header(d, CSC_P_VLAN, off, VLAN_HLEN);
    if (!l)
        return;
    struct span b;
    pkt_hdr(&d->p, off, VLAN_HLEN, &b);                  /* there: dec_header */
    type = span_be16(&b, WIRE_OFF(vlan_hdr, type));
    DEC_VAL(d, l, u.vlan.vid, &b, WIRE_OFF(vlan_hdr, tci), 2, VLAN_VID_MASK, 0);
    l->next = type;
    if (type >= ETH_P_802_3_MIN)
        dec_ethertype(d, type, off + VLAN_HLEN);
}
