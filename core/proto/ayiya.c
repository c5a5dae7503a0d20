/*
 * ayiya.c - Anything In Anything (draft-massar-v6ops-ayiya-02 §5).
 *
 *   | IDlen(4) IDtype(4) | SigLen(4) HshMeth(4) | AutMeth(4) OpCode(4) | Next Header |
 *   |                          Epoch Time (32)                                      |
 *   | Identity (2^IDlen bytes) | Signature (SigLen * 4 bytes) |
 * OpCode 1 (forward) carries a packet of protocol Next Header (4 or 41).
 */
#include "decode.h"

void dec_ayiya(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, b1 = 0, b2 = 0, nh = 0;
    if (!dec_need(d, CSC_P_AYIYA, off, WIRE_LEN(ayiya_hdr)))
        return;
    pkt_u8(&d->p, off + WIRE_OFF(ayiya_hdr, id_len_type), &b0);
    pkt_u8(&d->p, off + WIRE_OFF(ayiya_hdr, sig_len_hash), &b1);
    pkt_u8(&d->p, off + WIRE_OFF(ayiya_hdr, auth_opcode), &b2);
    pkt_u8(&d->p, off + WIRE_OFF(ayiya_hdr, next_header), &nh);
    /* identity 2^IDlen bytes, signature SigLen 4-byte words (high nibbles) */
    uint32_t hdr = WIRE_LEN(ayiya_hdr) + (1u << (b0 >> AYIYA_NIBBLE)) +
                   AYIYA_SIG_UNIT * (b1 >> AYIYA_NIBBLE);
    struct csc_layer *l = dec_header(d, CSC_P_AYIYA, off, hdr);
    if (!l)
        return;
    l->next = nh;
    if ((b2 & AYIYA_LOW_NIBBLE) != AYIYA_OP_FORWARD)
        return;
    if (nh == IPPROTO_IPV6_)
        dec_ipv6(d, off + hdr);
    else if (nh == IPPROTO_IPIP_)
        dec_ipv4(d, off + hdr);
    else
        dec_stop_unknown(d, CSC_STOP_IPPROTO, off + hdr, nh);
}
