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
#include "decode.h"

#define PW_CONTROL_WORD_NIBBLE 0   /* first nibble of a pseudowire control word */
#define PW_CW_LEN 4

void dec_mpls(struct dec *d, uint32_t off)
{
    uint32_t n = 0, entry = 0;
    do {
        if (!dec_need(d, CSC_P_MPLS, off + MPLS_HLEN * n, MPLS_HLEN))
            return;
        pkt_be32(&d->p, off + MPLS_HLEN * n, &entry);
        n++;
    } while (!(entry & MPLS_LS_S));
    struct csc_layer *l = dec_push(d, CSC_P_MPLS, off, MPLS_HLEN * n);
    if (!l)
        return;
    l->u.mpls.label = entry >> MPLS_LS_LABEL_SHIFT;   /* bottom label */
    l->u.mpls.depth = (uint8_t)n;                     /* labels in the stack */
    uint32_t pay = off + MPLS_HLEN * n;
    uint8_t first = 0;
    if (!pkt_u8(&d->p, pay, &first)) {
        if (pay < d->end)
            dec_stop(d, CSC_STOP_TRUNCATED, CSC_P_MPLS, pay);
        return;
    }
    switch (first >> IP_VERSION_SHIFT) {
    case IP_VERSION_4: dec_ipv4(d, pay); break;
    case IP_VERSION_6: dec_ipv6(d, pay); break;
    case PW_CONTROL_WORD_NIBBLE: {
        if (dec_header(d, CSC_P_CW, pay, PW_CW_LEN))
            dec_eth(d, pay + PW_CW_LEN);
        break;
    }
    default: dec_stop_unknown(d, CSC_STOP_NEXT, pay, first >> IP_VERSION_SHIFT); break;
    }
}

void dec_mpls_udp(struct dec *d, uint32_t off)
{
    dec_mpls(d, off);
}
