/*
 * ipsec.c - IPsec: the Authentication Header (RFC 4302) and the
 * Encapsulating Security Payload (RFC 4303).
 *
 * AH (IP protocol 51):
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   | Next Header   |  Payload Len  |          RESERVED             |
 *   |                 Security Parameters Index (SPI)               |
 *   |                    Sequence Number Field                      |
 *   |                Integrity Check Value-ICV (variable)           |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * Payload Len is the header's length in 32-bit words minus 2 (RFC 4302
 * §2.2). AH authenticates and hides nothing: after it comes the transport
 * (transport mode: TCP, UDP... whose pseudo-header still uses the enclosing
 * IP header's addresses) or, in tunnel mode (next header 4 or 41), the inner
 * IP packet; both are decoded and judged. Over IPv6 a destination options
 * header may follow AH (RFC 8200 §4.1): it is skipped as part of this layer.
 *
 * ESP (IP protocol 50):
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |               Security Parameters Index (SPI)                 |
 *   |                      Sequence Number                          |
 *   |    Payload Data (variable, encrypted) ... Padding, Pad Length,|
 *   |    Next Header (encrypted), ICV                               |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * Everything after the sequence number is encrypted (the next header too):
 * the layer is the SPI and sequence number, and the stack ends "encrypted"
 * with the SPI as its value. (NULL encryption, RFC 4303 §3.2.1, cannot be
 * told from the bytes.)
 */
#include "decode.h"

/* The SPI and sequence number: the two words AH and ESP both carry */
static void ipsec_ids(struct csc_layer *l, const struct span *b, unsigned spi_at, unsigned seq_at)
{
    l->u.ipsec.spi = span_be32(b, spi_at);
    l->u.ipsec.seq = span_be32(b, seq_at);
}

/* Destination options headers after AH under IPv6: their length added to
 * *hdr, the protocol after them in *next; false when the stack ended. */
static bool ah_v6_dstopts(struct dec *d, uint32_t off, uint32_t *hdr, uint8_t *next)
{
    bool v6 = d->ip != CSC_NO_LAYER && d->r->layers[d->ip].proto == CSC_P_IPV6;
    while (v6 && *next == IPPROTO_DSTOPTS_) {
        uint8_t hl = 0;
        if (!dec_need(d, CSC_P_AH, off, *hdr + WIRE_LEN(ipv6_opt_hdr)))
            return false;
        pkt_u8(&d->p, off + *hdr + WIRE_OFF(ipv6_opt_hdr, nexthdr), next);
        pkt_u8(&d->p, off + *hdr + WIRE_OFF(ipv6_opt_hdr, hdrlen), &hl);
        *hdr += ((uint32_t)hl + 1) * IPV6_EXT_UNIT;
    }
    return true;
}

void dec_ah(struct dec *d, uint32_t off)
{
    struct span b = dec_need_span(d, CSC_P_AH, off, AH_HLEN_MIN);
    if (!b.b)
        return;
    uint8_t next = span_u8(&b, WIRE_OFF(ah_hdr, nexthdr));
    uint32_t hdr = ((uint32_t)span_u8(&b, WIRE_OFF(ah_hdr, hdrlen)) + AH_LEN_BIAS) * WIRE_WORD;
    if (hdr < AH_HLEN_MIN) {          /* Payload Len 0: shorter than its own fields */
        if (!d->quoted)
            dec_stop(d, CSC_STOP_MALFORMED, CSC_P_AH, off);
        return;
    }
    if (!dec_need(d, CSC_P_AH, off, hdr) || !ah_v6_dstopts(d, off, &hdr, &next))
        return;
    struct csc_layer *l = dec_header(d, CSC_P_AH, off, hdr);
    if (!l)
        return;
    ipsec_ids(l, &b, WIRE_OFF(ah_hdr, spi), WIRE_OFF(ah_hdr, seq));
    l->next = next;
    dec_ipproto(d, next, off + hdr);
}

void dec_esp(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_ESP, off, WIRE_LEN(esp_hdr));
    if (!h.l)
        return;
    ipsec_ids(h.l, &h.b, WIRE_OFF(esp_hdr, spi), WIRE_OFF(esp_hdr, seq));
    if (!d->quoted && off + WIRE_LEN(esp_hdr) < d->end)
        dec_stop_value(d, CSC_STOP_ENCRYPTED, CSC_P_ESP, off, h.l->u.ipsec.spi);
}
