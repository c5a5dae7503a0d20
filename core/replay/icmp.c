/*
 * icmp.c - what icmp_rcv does with a message after its checksum
 * (net/ipv4/icmp.c, v6.12; the same in 6.1.192): the type, then the
 * handler's length checks. Each failure counts IcmpInErrors and drops.
 * Not modelled: what a handler does with a well-formed message (replies,
 * the error handlers of the quoted protocol, ping sockets for echo replies;
 * docs/kernel-branches.md section 26).
 */
#include "addr.h"
#include "replay.h"

#define NR_ICMP_TYPES 18
#define ICMP_TIMESTAMP 13
#define ICMP_ADDRESS 17
#define ICMP_ADDRESSREPLY 18
#define ICMP_EXT_ECHO 42
#define ICMP_EXT_ECHOREPLY 43

/* icmp_rcv, v6.12: a type above NR_ICMP_TYPES but the extended echo pair
 * (UNHANDLED_PROTO); on a multicast route (RTCF_MULTICAST: the model routes
 * only the all-hosts group 224.0.0.1 locally, addr.c; a broadcast
 * destination is unknown before this) every type but the address mask
 * pair (17, 18) - echo and timestamp because icmp_echo_ignore_broadcasts
 * is 1, the default the model's receiver keeps (INVALID_PROTO,
 * IcmpInErrors; the same in 6.1.192 and 5.10); icmp_unreach (3, 4, 11,
 * 12): a quoted IPv4 header of fewer than 20 bytes or with ihl < 5;
 * icmp_redirect (5): under 20 bytes (PKT_TOO_SMALL); icmp_timestamp (13):
 * under 4 bytes (PKT_TOO_SMALL). False when the message was dropped. */
bool icmp_rcv_type(struct rp *rp, uint8_t i)
{
    const struct csc_layer *l = L(rp, i);
    uint8_t type = l->u.icmp.type;
    uint32_t body = l->end > l->off + ICMP_HLEN ? l->end - l->off - ICMP_HLEN : 0;   /* pskb_pull'ed */
    enum kdrop why = KD_NONE;
    if (type > NR_ICMP_TYPES && type != ICMP_EXT_ECHO && type != ICMP_EXT_ECHOREPLY) {
        why = KD_UNHANDLED_PROTO;
    } else if (type <= NR_ICMP_TYPES && type != ICMP_ADDRESS && type != ICMP_ADDRESSREPLY &&
               l->ip != CSC_NO_LAYER && (ip_addr_classes(&rp->p, L(rp, l->ip)) & A_DST_MCAST)) {
        why = KD_INVALID_PROTO;       /* rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST) */
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

#define ICMPV6_PKT_TOOBIG 2
#define ICMPV6_INFOMSG_MASK 0x80

/* ipv6_ext_hdr (include/net/ipv6.h): the headers icmpv6_notify skips */
static bool ipv6_ext_hdr(uint8_t nh)
{
    return nh == 0 || nh == 43 || nh == 44 || nh == 51 || nh == 59 || nh == 60;
}

/* icmpv6_rcv -> icmpv6_notify (net/ipv6/icmp.c, v6.12; the same in 6.1.192
 * and 5.10) for an error type (below 128: unreachable, packet too big, time
 * exceeded, parameter problem and the unknown ones, which go "to upper
 * level" the same way): the quote after the 8-byte header must hold an
 * IPv6 header (too big: before icmpv6_notify, goto discard_it) and 8 bytes
 * of what it carries; a shorter one counts Icmp6InErrors and is dropped
 * (NOT_SPECIFIED). A quote with extension headers (ipv6_skip_exthdr) and
 * what a whole quote meets (the quoted protocol's err handler, its socket)
 * are not modelled: unknown. False when the message went no further. */
bool icmpv6_rcv_type(struct rp *rp, uint8_t i)
{
    const struct csc_layer *l = L(rp, i);
    uint8_t type = l->u.icmp.type, nh = 0;
    uint32_t body = l->end > l->off + ICMP_HLEN ? l->end - l->off - ICMP_HLEN : 0;
    if (type & ICMPV6_INFOMSG_MASK)
        return true;
    if (body >= IPV6_HLEN) {
        if (!pkt_u8(&rp->p, (uint64_t)l->off + ICMP_HLEN + 6u, &nh))
            return true;               /* not read: the old rule */
        if (type != ICMPV6_PKT_TOOBIG && ipv6_ext_hdr(nh)) {
            rp_unknown(rp, i, KF_ICMPV6_RCV);
            return false;
        }
        if (type == ICMPV6_PKT_TOOBIG || body >= IPV6_HLEN + 8u)
            return true;               /* a whole quote: the old rule (B7) */
    }
    rp_drop(rp, i, KF_ICMPV6_RCV, KD_ICMP_QUOTE, CNT(CSC_C_ICMP6_IN_ERRORS));
    return false;
}
