/*
 * ayiya.c - Anything In Anything (draft-massar-v6ops-ayiya-02 §5).
 *
 *   | IDlen(4) IDtype(4) | SigLen(4) HshMeth(4) | AutMeth(4) OpCode(4) | Next Header |
 *   |                          Epoch Time (32)                                      |
 *   | Identity (2^IDlen bytes) | Signature (SigLen * 4 bytes) |
 * OpCode 1 (forward) carries a packet of protocol Next Header (4 or 41).
 */
#include "../decode.h"

void dec_ayiya(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, b1 = 0, b2 = 0, nh = 0;
    if (!dec_need(d, CSC_P_AYIYA, off, 8))
        return;
    pkt_u8(&d->p, off, &b0);
    pkt_u8(&d->p, off + 1, &b1);
    pkt_u8(&d->p, off + 2, &b2);
    pkt_u8(&d->p, off + 3, &nh);
    uint32_t hdr = 8 + (1u << (b0 >> 4)) + 4u * (b1 >> 4);
    if (!dec_need(d, CSC_P_AYIYA, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_AYIYA, off, hdr);
    if (!l)
        return;
    l->next = nh;
    if ((b2 & 0x0f) != 1)
        return;
    if (nh == IPPROTO_IPV6_)
        dec_ipv6(d, off + hdr);
    else if (nh == IPPROTO_IPIP_)
        dec_ipv4(d, off + hdr);
}
