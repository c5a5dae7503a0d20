/*
 * icmp.c - what icmp_rcv does with a message after its checksum
 * (net/ipv4/icmp.c, v6.12; the same in 6.1.192): the type, then the
 * handler's length checks. Each failure counts IcmpInErrors and drops.
 * An echo reply goes to ping_rcv, which drops it when the receiver has no
 * ping socket; an error whose quote lacks 8 bytes past its IP header is
 * consumed by icmp_socket_deliver with IcmpInErrors. Not modelled: what a
 * handler does with a well-formed message (replies, the error handlers of
 * the quoted protocol; docs/kernel-branches.md section 26).
 */
#include "addr.h"
#include "replay.h"

#define NR_ICMP_TYPES 18
#define ICMP_TIMESTAMP 13
#define ICMP_ADDRESS 17
#define ICMP_ADDRESSREPLY 18
#define ICMP_EXT_ECHO 42
#define ICMP_EXT_ECHOREPLY 43
#define ICMP_ECHOREPLY 0
#define NR_ICMP_UNREACH 15
#define ICMP_EXC_FRAGTIME 1
#define ICMPV6_ECHO_REPLY 129
#define ICMPV6_EXT_ECHO_REPLY 161

/* ping_rcv (net/ipv4/ping.c, v6.12; icmp_rcv and icmpv6_rcv call it for an
 * echo reply, 0 / 129, and the extended one, 43 / 161): ping_lookup finds
 * the ping socket bound to the echo id, else SKB_DROP_REASON_NO_SOCKET and
 * the caller kfree_skb's it, no counter (6.1 and 5.10: a bool, false, the
 * same kfree_skb). The receiver's socket is cfg->inner_socket's: without
 * one (--no-socket; the kernel harnesses open no ping socket) the reply is
 * dropped. False: dropped. */
static bool ping_rcv(struct rp *rp, uint8_t i)
{
    if (rp->cfg->inner_socket)
        return true;
    rp_step(rp, i, KF_PING_RCV, W_NO_SOCKET, CSC_TRI_UNDECIDED, 0, NULL);
    rp_drop(rp, i, KF_PING_RCV, KD_NO_SOCKET, 0);
    return false;
}

/* icmp_socket_deliver (v6.12, the same in 6.1.192 and 5.10), from
 * icmp_unreach and icmp_redirect: pskb_may_pull(skb, iph->ihl * 4 + 8) on
 * the quote; when it fails, IcmpInErrors and return - the handler returns
 * SKB_NOT_DROPPED_YET, icmp_rcv consume_skb's it: taken, with a counter.
 * A whole quote goes to the quoted protocol's err handler (not modelled:
 * the old rule, taken). body: the bytes after the ICMP header. */
static void icmp_socket_deliver(struct rp *rp, uint8_t i, uint32_t body)
{
    uint8_t vihl = 0;
    if (!pkt_u8(&rp->p, (uint64_t)L(rp, i)->off + ICMP_HLEN, &vihl))
        return;
    if (body < (vihl & IPV4_IHL_MASK) * 4u + 8u)
        rp_count(rp, i, KF_ICMP_SOCKET_DELIVER, W_SHORT, CNT(CSC_C_ICMP_IN_ERRORS));
}

/* icmp_unreach's exits before icmp_socket_deliver (v6.12): a destination
 * unreachable code above NR_ICMP_UNREACH, a time exceeded in reassembly
 * (code 1): goto out, consumed with no counter */
static bool icmp_unreach_delivers(uint8_t type, uint8_t code)
{
    return !(type == ICMP_DEST_UNREACH && code > NR_ICMP_UNREACH) &&
           !(type == ICMP_TIME_EXCEEDED && code == ICMP_EXC_FRAGTIME);
}

/* The handler of a message icmp_rcv's checks let through: ping_rcv for an
 * echo reply, icmp_socket_deliver for an error with its quote (icmp_unreach)
 * and a redirect. False: dropped. */
static bool icmp_handler(struct rp *rp, uint8_t i, uint32_t body)
{
    const struct csc_layer *l = L(rp, i);
    uint8_t type = l->u.icmp.type, code = 0;
    if (type == ICMP_ECHOREPLY || type == ICMP_EXT_ECHOREPLY)
        return ping_rcv(rp, i);
    bool unreach = type == ICMP_DEST_UNREACH || type == ICMP_SOURCE_QUENCH || type == ICMP_TIME_EXCEEDED ||
                   type == ICMP_PARAMETERPROB;
    if (!pkt_u8(&rp->p, (uint64_t)l->off + 1u, &code))
        return true;
    if ((unreach && icmp_unreach_delivers(type, code)) || type == ICMP_REDIRECT)
        icmp_socket_deliver(rp, i, body);
    return true;
}

/* icmp_rcv, v6.12: a type above NR_ICMP_TYPES but the extended echo pair
 * (UNHANDLED_PROTO); on a multicast route (RTCF_MULTICAST: the model routes
 * only the all-hosts group 224.0.0.1 locally, addr.c; a broadcast
 * destination is unknown before this) every type but the address mask
 * pair (17, 18) - echo and timestamp because icmp_echo_ignore_broadcasts
 * is 1, the default the model's receiver keeps (INVALID_PROTO,
 * IcmpInErrors; the same in 6.1.192 and 5.10); icmp_unreach (3, 4, 11,
 * 12): a quoted IPv4 header of fewer than 20 bytes or with ihl < 5;
 * icmp_redirect (5): under 20 bytes (PKT_TOO_SMALL); icmp_timestamp (13):
 * under 4 bytes (PKT_TOO_SMALL). Then the type's handler (icmp_handler).
 * False when the message was dropped. */
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
        return icmp_handler(rp, i, body);
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
    if (type == ICMPV6_ECHO_REPLY || type == ICMPV6_EXT_ECHO_REPLY)
        return ping_rcv(rp, i);
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
