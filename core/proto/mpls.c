/*
 * mpls.c - MPLS label stack (RFC 3032), MPLS in UDP (RFC 7510) and the
 * pseudowire control word (RFC 4385).
 *
 *   0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                Label                  | TC  |S|      TTL      |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The stack is one layer. After the entry with S set, the payload type is
 * guessed from its first nibble: 4 IPv4, 6 IPv6, 0 a control word followed
 * by an Ethernet pseudowire (the common PW encapsulation).
 */
#include "../decode.h"

void dec_mpls(struct dec *d, uint32_t off)
{
    uint32_t n = 0, entry = 0;
    do {
        if (!dec_need(d, CSC_P_MPLS, off + 4 * n, 4))
            return;
        pkt_be32(&d->p, off + 4 * n, &entry);
        n++;
    } while (!(entry & 0x100));
    struct csc_layer *l = dec_push(d, CSC_P_MPLS, off, 4 * n);
    if (!l)
        return;
    l->key = entry >> 12;            /* bottom label */
    l->aux = n;                      /* labels in the stack */
    uint32_t pay = off + 4 * n;
    uint8_t first = 0;
    if (!pkt_u8(&d->p, pay, &first)) {
        if (pay < d->end)
            dec_stop(d, CSC_STOP_TRUNCATED, CSC_P_MPLS, pay);
        return;
    }
    switch (first >> 4) {
    case 4: dec_ipv4(d, pay); break;
    case 6: dec_ipv6(d, pay); break;
    case 0: {
        if (!dec_need(d, CSC_P_CW, pay, 4))
            return;
        struct csc_layer *cw = dec_push(d, CSC_P_CW, pay, 4);
        if (cw)
            dec_eth(d, pay + 4);
        break;
    }
    default: break;
    }
}

void dec_mpls_udp(struct dec *d, uint32_t off)
{
    dec_mpls(d, off);
}
