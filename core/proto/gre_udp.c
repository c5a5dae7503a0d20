/*
 * gre_udp.c - GRE-in-UDP (RFC 8086): a GRE header right after the UDP
 * header, on UDP port 4754 (IANA "gre-in-udp").
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |      Source Port (entropy)    |     Destination Port (4754)   |
 *   |            Length             |           Checksum            |  UDP
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |C| |K|S|       Reserved0       | Ver |         Protocol Type     |  GRE
 *   |          Checksum, Key, Sequence Number (optional)            |  (gre.c)
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The layer has no header of its own (as FOU): it says the UDP payload is
 * GRE. Linux has no GRE-in-UDP socket: it receives this only on a FOU port
 * with IP protocol 47 (ip fou add port 4754 ipproto 47; the CLI's
 * --fou-port 4754:47 makes the port FOU); without one nothing listens on
 * 4754 (CSC_PF_UNBOUND_PORT in its protocol row).
 */
#include "decode.h"

void dec_gre_udp(struct dec *d, uint32_t off)
{
    if (!dec_need(d, CSC_P_GRE, off, 1))   /* a cut before any GRE byte is GRE's */
        return;
    struct csc_layer *l = dec_push(d, CSC_P_GRE_UDP, off, 0);
    if (!l)
        return;
    l->next = IPPROTO_GRE_;
    dec_gre(d, off);
}
