/*
 * teredo.c - Teredo (RFC 4380 §5.1.1): IPv6 in UDP, optionally preceded by
 * an authentication indicator and/or an origin indication.
 *
 *   auth:   | 0x0001 | ID-len | AU-len | client id | auth value | nonce(8) | conf(1) |
 *   origin: | 0x0000 | port (obfuscated) | IPv4 address (obfuscated) |
 */
#include "decode.h"

/* One indicator at off + *hdr: its length added to *hdr. False when the
 * stack ended, *more false when no indicator is there. */
static bool teredo_indicator(struct dec *d, uint32_t off, uint32_t *hdr, bool *more)
{
    uint16_t ind = 0;
    uint8_t b0 = 0;
    *more = false;
    if (!dec_need(d, CSC_P_TEREDO, off + *hdr, 1))
        return false;
    pkt_u8(&d->p, off + *hdr, &b0);
    if (b0 != 0)
        return true;                  /* no indicator: the IPv6 header itself */
    if (!dec_need(d, CSC_P_TEREDO, off + *hdr, sizeof ind))
        return false;
    pkt_be16(&d->p, off + *hdr, &ind);
    if (ind == TEREDO_AUTH) {
        uint8_t idl = 0, aul = 0;
        if (!dec_need(d, CSC_P_TEREDO, off + *hdr, TEREDO_AUTH_HLEN))
            return false;
        pkt_u8(&d->p, off + *hdr + WIRE_OFF(teredo_auth, id_len), &idl);
        pkt_u8(&d->p, off + *hdr + WIRE_OFF(teredo_auth, au_len), &aul);
        *hdr += TEREDO_AUTH_HLEN + idl + aul + TEREDO_AUTH_TAIL;
        *more = true;
    } else if (ind == TEREDO_ORIGIN) {
        *hdr += TEREDO_ORIGIN_LEN;
        *more = true;
    }
    return true;
}

void dec_teredo(struct dec *d, uint32_t off)
{
    uint32_t hdr = 0;
    bool more = true;
    for (int i = 0; i < TEREDO_MAX_INDICATORS && more; i++)
        if (!teredo_indicator(d, off, &hdr, &more))
            return;
    uint8_t v = 0;
    if (!dec_need(d, CSC_P_TEREDO, off + hdr, 1))
        return;
    pkt_u8(&d->p, off + hdr, &v);
    if ((v >> IP_VERSION_SHIFT) != IP_VERSION_6)
        return;                       /* not an IPv6 packet: plain UDP data */
    struct csc_layer *l = dec_push(d, CSC_P_TEREDO, off, hdr);
    if (l)
        dec_ipv6(d, off + hdr);
}
