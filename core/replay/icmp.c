/*
 * icmp.c - what icmp_rcv does with a message after its checksum
 * (net/ipv4/icmp.c, v6.12; the same in 6.1.192): the type, then the
 * handler's length checks. Each failure counts IcmpInErrors and drops.
 * Not modelled: what a handler does with a well-formed message (replies,
 * the error handlers of the quoted protocol, ping sockets for echo replies;
 * docs/kernel-branches.md section 26).
 */
#include "replay.h"

#define NR_ICMP_TYPES 18
#define ICMP_TIMESTAMP 13
#define ICMP_EXT_ECHO 42
#define ICMP_EXT_ECHOREPLY 43

/* icmp_rcv, v6.12: a type above NR_ICMP_TYPES but the extended echo pair
 * (UNHANDLED_PROTO); icmp_unreach (3, 4, 11, 12): a quoted IPv4 header of
 * fewer than 20 bytes or with ihl < 5; icmp_redirect (5): under 20 bytes
 * (PKT_TOO_SMALL); icmp_timestamp (13): under 4 bytes (PKT_TOO_SMALL).
 * False when the message was dropped. */
bool icmp_rcv_type(struct rp *rp, uint8_t i)
{
    const struct csc_layer *l = L(rp, i);
    uint8_t type = l->u.icmp.type;
    uint32_t body = l->end > l->off + ICMP_HLEN ? l->end - l->off - ICMP_HLEN : 0;   /* pskb_pull'ed */
    enum kdrop why = KD_NONE;
    if (type > NR_ICMP_TYPES && type != ICMP_EXT_ECHO && type != ICMP_EXT_ECHOREPLY) {
        why = KD_UNHANDLED_PROTO;
    } else if (type == ICMP_DEST_UNREACH || type == ICMP_SOURCE_QUENCH || type == ICMP_TIME_EXCEEDED ||
               type == ICMP_PARAMETERPROB) {
        uint8_t vihl = 0;
        if (body < IPV4_HLEN ||
            (pkt_u8(&rp->p, (uint64_t)l->off + ICMP_HLEN, &vihl) && (vihl & IPV4_IHL_MASK) < IPV4_IHL_MIN))
            why = KD_ICMP_QUOTE;      /* out_err: reason ?: NOT_SPECIFIED */
    } else if ((type == ICMP_REDIRECT && body < IPV4_HLEN) || (type == ICMP_TIMESTAMP && body < 4)) {
        why = KD_PKT_TOO_SMALL;
    }
    if (why == KD_NONE)
        return true;
    rp_drop(rp, i, KF_ICMP_RCV, why, CNT(CSC_C_ICMP_IN_ERRORS));
    return false;
}
