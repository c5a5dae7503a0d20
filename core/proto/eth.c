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

/* What follows an Ethernet or a VLAN header: an EtherType, or an 802.3
 * length (LLC: the stack ends) */
static void eth_type_next(struct dec *d, struct csc_layer *l, uint16_t type, uint32_t off)
{
    l->next = type;
    if (type >= ETH_P_802_3_MIN)
        dec_ethertype(d, type, off);
}

void dec_eth(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_ETH, off, ETH_HLEN);
    if (h.l)
        eth_type_next(d, h.l, span_be16(&h.b, WIRE_OFF(eth_hdr, type)), off + ETH_HLEN);
}

void dec_vlan(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_VLAN, off, VLAN_HLEN);
    if (!h.l)
        return;
    DEC_VAL(d, h.l, u.vlan.vid, &h.b, WIRE_OFF(vlan_hdr, tci), 2, VLAN_VID_MASK, 0);
    eth_type_next(d, h.l, span_be16(&h.b, WIRE_OFF(vlan_hdr, type)), off + VLAN_HLEN);
}
