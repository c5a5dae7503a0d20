/*
 * udp.c - UDP (RFC 768), over IPv4 and IPv6 (RFC 8200 §8.1; zero checksum
 * over IPv6 only where the receiver allows it, RFC 6935/6936).
 *
 *    0      7 8     15 16    23 24    31
 *   +--------+--------+--------+--------+
 *   |   Source Port   | Destination Port|
 *   +--------+--------+--------+--------+
 *   |     Length      |    Checksum     |
 *   +--------+--------+--------+--------+
 *
 * The checksum covers the UDP length (the kernel trims the skb to it); a
 * length beyond the IP payload or below 8 is a lying length. Length 0 in a
 * super-packet (jumbo / GSO) means "to the end of the IP payload", and over
 * IPv6 the receiver reads it so in any packet.
 * The payload is dispatched by port through the configured port table.
 */
#include "decode.h"

void dec_udp(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_UDP, off, UDP_HLEN);
    if (!h.l)
        return;
    DEC_VAL(d, h.l, u.ports.sport, &h.b, WIRE_OFF(udp_hdr, source), 2, 0xffff, 0);
    DEC_VAL(d, h.l, u.ports.dport, &h.b, WIRE_OFF(udp_hdr, dest), 2, 0xffff, 0);
    uint16_t ulen = span_be16(&h.b, WIRE_OFF(udp_hdr, len));

    uint32_t avail = d->end - off, len = ulen;
    int bad_len = 0;
    if (ulen == 0 && (d->gso || (d->ip != CSC_NO_LAYER &&
                                 (d->r->layers[d->ip].notes & CSC_N_JUMBO)))) {
        len = avail;
        h.l->notes |= CSC_N_GSO;
    } else if (ulen == 0 && !d->quoted && d->ip != CSC_NO_LAYER && d->r->layers[d->ip].proto == CSC_P_IPV6) {
        /* __udp6_lib_rcv (net/ipv6/udp.c, v6.12 = 5.10): "Check for jumbo
         * payload" takes length 0 as skb->len in any IPv6 packet, jumbogram
         * or not; the pseudo-header sums that length (ip6_compute_pseudo) */
        len = avail;
    } else if (ulen < UDP_HLEN) {
        h.l->notes |= CSC_N_LEN_SHORT;
        len = avail;
        bad_len = 1;
    } else if (ulen > avail && d->fragment) {
        len = avail;                  /* the datagram continues in later fragments */
    } else if (ulen > avail) {
        h.l->notes |= CSC_N_LEN_EXCEEDS;
        len = avail;
        bad_len = !d->quoted;
        if (d->quoted)
            dec_unverifiable(h.l, CSC_R_ICMP_QUOTE);
    }
    if (bad_len)
        dec_unverifiable(h.l, CSC_R_LEN_MISMATCH);
    h.l->end = off + len;
    dec_csum_l4(d, h.l, off + UDP_CSUM_OFF, off, off + len, IPPROTO_UDP_, len, 1);
    if (h.l->notes & CSC_N_LEN_SHORT) {
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_UDP, off);
        return;
    }
    if (d->fragment)
        return;                       /* the rest of the datagram is elsewhere */
    d->end = off + len;
    dec_udp_payload(d, h.l, off + UDP_HLEN);
}
