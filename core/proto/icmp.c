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
#include "decode.h"

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

/* ICMP and ICMPv6: the same header; ICMPv6 sums the pseudo-header too */
static void icmp_header(struct dec *d, uint32_t off, enum csc_proto proto)
{
    uint8_t type = 0;
    bool v6 = proto == CSC_P_ICMPV6;
    struct csc_layer *l = dec_header(d, proto, off, ICMP_HLEN);
    if (!l)
        return;
    pkt_u8(&d->p, off + WIRE_OFF(icmp_hdr, type), &type);
    l->u.icmp.type = type;
    if (v6)
        dec_csum_l4(d, l, off + WIRE_OFF(icmp_hdr, checksum), off, d->end, IPPROTO_ICMPV6_,
                    d->end - off, 1);
    else
        dec_csum(d, l, off + WIRE_OFF(icmp_hdr, checksum), off, d->end, 0);
    if (v6 ? type >= ICMPV6_DEST_UNREACH && type <= ICMPV6_PARAMPROB : icmp_is_error(type))
        quote(d, off + ICMP_HLEN, v6);
}

void dec_icmp(struct dec *d, uint32_t off)
{
    icmp_header(d, off, CSC_P_ICMP);
}

void dec_icmpv6(struct dec *d, uint32_t off)
{
    icmp_header(d, off, CSC_P_ICMPV6);
}

/* IGMP has ICMP's first four bytes: type, code, checksum */
void dec_igmp(struct dec *d, uint32_t off)
{
    struct csc_layer *l = dec_header(d, CSC_P_IGMP, off, ICMP_HLEN);
    if (l)
        dec_csum(d, l, off + WIRE_OFF(icmp_hdr, checksum), off, d->end, 0);
}
