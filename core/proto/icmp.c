/*
 * icmp.c - ICMPv4 (RFC 792), ICMPv6 (RFC 4443), IGMP (RFC 2236/3376).
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |     Type      |     Code      |          Checksum             |
 *   |                  rest of header (4 bytes)                     |
 *   |   error messages: as much of the invoking packet as fits ...  |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * ICMPv4 and IGMP sum the message alone; ICMPv6 adds the IPv6
 * pseudo-header. Error messages quote the invoking packet: its IP header is
 * decoded and judged, its transport checksum only when the whole datagram is
 * quoted (otherwise unverifiable: icmp-quote).
 */
#include "../decode.h"

static void quote(struct dec *d, uint32_t off, int v6)
{
    d->quoted = 1;
    if (v6)
        dec_ipv6(d, off);
    else
        dec_ipv4(d, off);
}

void dec_icmp(struct dec *d, uint32_t off)
{
    uint8_t type = 0;
    if (!dec_need(d, CSC_P_ICMP, off, 8))
        return;
    pkt_u8(&d->p, off, &type);
    struct csc_layer *l = dec_push(d, CSC_P_ICMP, off, 8);
    if (!l)
        return;
    l->sport = type;
    dec_csum(d, l, off + 2, off, d->end, 0);
    if (type == 3 || type == 4 || type == 5 || type == 11 || type == 12)
        quote(d, off + 8, 0);
}

void dec_icmpv6(struct dec *d, uint32_t off)
{
    uint8_t type = 0;
    if (!dec_need(d, CSC_P_ICMPV6, off, 8))
        return;
    pkt_u8(&d->p, off, &type);
    struct csc_layer *l = dec_push(d, CSC_P_ICMPV6, off, 8);
    if (!l)
        return;
    l->sport = type;
    uint32_t len = d->end - off;
    dec_csum(d, l, off + 2, off, d->end, dec_l4_pseudo(d, IPPROTO_ICMPV6_, len, 1));
    if (type >= 1 && type <= 4)
        quote(d, off + 8, 1);
}

void dec_igmp(struct dec *d, uint32_t off)
{
    if (!dec_need(d, CSC_P_IGMP, off, 8))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_IGMP, off, 8);
    if (!l)
        return;
    dec_csum(d, l, off + 2, off, d->end, 0);
}
