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
#include "../decode.h"

void dec_eth(struct dec *d, uint32_t off)
{
    uint16_t type = 0;
    if (!dec_need(d, CSC_P_ETH, off, 14))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_ETH, off, 14);
    if (!l)
        return;
    pkt_be16(&d->p, off + 12, &type);
    l->next = type;
    if (type >= 0x0600)
        dec_ethertype(d, type, off + 14);
}

void dec_vlan(struct dec *d, uint32_t off)
{
    uint16_t tci = 0, type = 0;
    if (!dec_need(d, CSC_P_VLAN, off, 4))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_VLAN, off, 4);
    if (!l)
        return;
    pkt_be16(&d->p, off, &tci);
    pkt_be16(&d->p, off + 2, &type);
    l->key = tci & 0x0fff;
    l->next = type;
    if (type >= 0x0600)
        dec_ethertype(d, type, off + 4);
}
