/*
 * ipv4.c - IPv4 (RFC 791), header checksum (RFC 1071), fragments.
 *
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |Version|  IHL  |Type of Service|          Total Length         |
 *   |         Identification        |Flags|      Fragment Offset    |
 *   |  Time to Live |    Protocol   |         Header Checksum       |
 *   |                       Source Address                          |
 *   |                    Destination Address                        |
 *   |                    Options                    |    Padding    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Total length 0 on a frame larger than a header is a GSO / BIG TCP
 * super-packet (the kernel leaves tot_len 0 above 64 KiB): the payload runs
 * to the end of the enclosing data. A total length beyond the frame is a
 * lying length: the header checksum is still judged, the L4 is not.
 */
#include "decode.h"


void dec_ipv4(struct dec *d, uint32_t off)
{
    struct span b = dec_need_span(d, CSC_P_IPV4, off, IPV4_HLEN);
    if (!b.b)
        return;
    uint8_t vihl = span_u8(&b, WIRE_OFF(ipv4_hdr, vihl));
    if ((vihl >> IP_VERSION_SHIFT) != IP_VERSION_4 || (vihl & IPV4_IHL_MASK) < IPV4_IHL_MIN) {
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_IPV4, off);
        return;
    }
    uint32_t hdr = (uint32_t)(vihl & IPV4_IHL_MASK) * WIRE_WORD;
    if (!dec_need(d, CSC_P_IPV4, off, hdr))
        return;
    uint16_t tot_len = span_be16(&b, WIRE_OFF(ipv4_hdr, tot_len));
    uint16_t frag = span_be16(&b, WIRE_OFF(ipv4_hdr, frag_off));
    uint8_t proto = span_u8(&b, WIRE_OFF(ipv4_hdr, protocol));

    uint8_t quoted_before = d->quoted;
    d->summing = 1;
    struct csc_layer *l = dec_push(d, CSC_P_IPV4, off, hdr);
    if (!l)
        return;
    l->next = proto;
    DEC_VAL(d, l, u.ip.id, &b, WIRE_OFF(ipv4_hdr, id), 2, 0xffff, 0);
    l->u.ip.frag_off = frag;          /* flags + fragment offset */
    l->u.ip.addr_off = off + WIRE_OFF(ipv4_hdr, saddr);
    if (hdr > IPV4_HLEN)
        l->notes |= CSC_N_IP_OPTIONS;
    dec_val_pseudo4(d, l, l->u.ip.addr_off);
    /* The header checksum: no pseudo-header, always judged if captured. */
    l->csum_off = off + WIRE_OFF(ipv4_hdr, check);
    l->cov_off = off;
    l->cov_end = off + hdr;

    /* tot_len 0 on a frame longer than the header: a GSO / BIG TCP packet */
    if (!dec_ip_extent(d, l, (uint64_t)off + tot_len, off + hdr, tot_len == 0, quoted_before))
        return;
    d->ip = dec_index(d, l);

    uint16_t frag_off = frag & IP_OFFSET;
    if (frag_off || (frag & IP_MF)) {
        l->notes |= CSC_N_FRAGMENT;
        d->r->ip_fragment = 1;
        if (frag_off) {
            dec_stop(d, CSC_STOP_FRAGMENT, CSC_P_IPV4, off + hdr);
            return;
        }
        d->fragment = 1;
    }
    dec_ipproto(d, proto, off + hdr);
}
