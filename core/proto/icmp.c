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

static bool icmp_is_error(uint8_t type)
{
    return type == ICMP_DEST_UNREACH || type == ICMP_SOURCE_QUENCH || type == ICMP_REDIRECT ||
           type == ICMP_TIME_EXCEEDED || type == ICMP_PARAMETERPROB;
}

void dec_icmp(struct dec *d, uint32_t off)
{
    uint8_t type = 0;
    if (!dec_need(d, CSC_P_ICMP, off, ICMP_HLEN))
        return;
    pkt_u8(&d->p, off + WIRE_OFF(icmp_hdr, type), &type);
    struct csc_layer *l = dec_push(d, CSC_P_ICMP, off, ICMP_HLEN);
    if (!l)
        return;
    l->u.icmp.type = type;
    dec_csum(d, l, off + WIRE_OFF(icmp_hdr, checksum), off, d->end, 0);
    if (icmp_is_error(type))
        quote(d, off + ICMP_HLEN, 0);
}

void dec_icmpv6(struct dec *d, uint32_t off)
{
    uint8_t type = 0;
    if (!dec_need(d, CSC_P_ICMPV6, off, ICMP_HLEN))
        return;
    pkt_u8(&d->p, off + WIRE_OFF(icmp_hdr, type), &type);
    struct csc_layer *l = dec_push(d, CSC_P_ICMPV6, off, ICMP_HLEN);
    if (!l)
        return;
    l->u.icmp.type = type;
    uint32_t len = d->end - off;
    dec_csum(d, l, off + WIRE_OFF(icmp_hdr, checksum), off, d->end,
             dec_l4_pseudo(d, IPPROTO_ICMPV6_, len, 1));
    if (type >= ICMPV6_DEST_UNREACH && type <= ICMPV6_PARAMPROB)
        quote(d, off + ICMP_HLEN, 1);
}

/* IGMP has ICMP's first four bytes: type, code, checksum */
void dec_igmp(struct dec *d, uint32_t off)
{
    if (!dec_need(d, CSC_P_IGMP, off, ICMP_HLEN))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_IGMP, off, ICMP_HLEN);
    if (!l)
        return;
    dec_csum(d, l, off + WIRE_OFF(icmp_hdr, checksum), off, d->end, 0);
}
