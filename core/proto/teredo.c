/*
 * teredo.c - Teredo (RFC 4380 §5.1.1): IPv6 in UDP, optionally preceded by
 * an authentication indicator and/or an origin indication.
 *
 *   auth:   | 0x0001 | ID-len | AU-len | client id | auth value | nonce(8) | conf(1) |
 *   origin: | 0x0000 | port (obfuscated) | IPv4 address (obfuscated) |
 */
#include "../decode.h"

void dec_teredo(struct dec *d, uint32_t off)
{
    uint32_t hdr = 0;
    for (int i = 0; i < 2; i++) {
        uint16_t ind = 0;
        uint8_t b0 = 0;
        if (!dec_need(d, CSC_P_TEREDO, off + hdr, 1))
            return;
        pkt_u8(&d->p, off + hdr, &b0);
        if (b0 != 0)
            break;                    /* no indicator: the IPv6 header itself */
        if (!dec_need(d, CSC_P_TEREDO, off + hdr, 2))
            return;
        pkt_be16(&d->p, off + hdr, &ind);
        if (ind == 0x0001) {
            uint8_t idl = 0, aul = 0;
            if (!dec_need(d, CSC_P_TEREDO, off + hdr, 4))
                return;
            pkt_u8(&d->p, off + hdr + 2, &idl);
            pkt_u8(&d->p, off + hdr + 3, &aul);
            hdr += 4u + idl + aul + 9;
        } else if (ind == 0x0000) {
            hdr += 8;
        } else {
            break;
        }
    }
    uint8_t v = 0;
    if (!dec_need(d, CSC_P_TEREDO, off + hdr, 1))
        return;
    pkt_u8(&d->p, off + hdr, &v);
    if ((v >> 4) != 6)
        return;                       /* not an IPv6 packet: plain UDP data */
    struct csc_layer *l = dec_push(d, CSC_P_TEREDO, off, hdr);
    if (l)
        dec_ipv6(d, off + hdr);
}
