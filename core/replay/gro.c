/*
 * gro.c - the GRO path for one frame: dev_gro_receive (net/core/gro.c), the
 * NAPI_GRO_CB checksum helpers (include/net/gro.h) and the gro_receive
 * callbacks of every protocol the model covers (net/ipv4/af_inet.c,
 * net/ipv6/ip6_offload.c, udp_offload.c, tcp_offload.c, gre_offload.c,
 * fou_core.c, drivers/net/vxlan/vxlan_core.c, geneve.c; read at v6.12).
 *
 * GRO never moves skb->data: it walks with NAPI_GRO_CB(skb)->data_offset and
 * keeps its own COMPLETE-style sum in the control block. What GRO leaves on
 * the skb (ip_summed/csum_level raised by skb_gro_incr_csum_unnecessary,
 * csum_bad, remcsum_offload) is what the normal path starts from.
 */
#include "replay.h"

#include "../proto/decode.h"
#include "../proto/protos.h"

#include <string.h>


static void gro_ipproto(struct rp *rp, uint8_t i, bool v6);
static void gro_receive_by_type(struct rp *rp, uint8_t i, uint16_t type, uint8_t from, enum kfn fn);
static bool gro_has_receive_by_type(const struct rp *rp, uint16_t type);

static void gro_flush(struct rp *rp, uint8_t layer, enum kfn fn, enum csc_gro_reason why)
{
    if (!rp->cb.flush) {
        rp->cb.reason = (uint8_t)why;
        rp->cb.reason_layer = layer;
    }
    rp->cb.flush = 1;
    rp_step(rp, layer, fn, W_FLUSH, CSC_TRI_UNDECIDED, 0, NULL);
}

#define GRO_RECURSION_LIMIT 15

/* gro_recursion_inc_test (include/net/gro.h, v6.12 = 7.2.13; "net: add
 * recursion limit to GRO", v4.9): call_gro_receive, call_gro_receive_sk and
 * the indirect_call_gro_receive{,_inet,_l4} macros count every call from one
 * protocol's gro_receive into the next one's, and refuse the 15th: flush |=
 * 1, NULL - the layers after it get no GRO look. dev_gro_receive's own call
 * (INDIRECT_CALL_INET) is not counted, nor are the direct ones
 * (ipip_gro_receive -> inet_gro_receive, tcp4_gro_receive ->
 * tcp_gro_receive, udp4_gro_receive -> udp_gro_receive). Called where the
 * kernel makes a counted call, after the callee was found: true when it was
 * refused (flushed at layer `from`, in fn). */
static bool gro_recursion_inc_test(struct rp *rp, uint8_t from, enum kfn fn)
{
    if (!era(rp, CSC_E_GRO_RECURSION_LIMIT) || ++rp->cb.recursion_counter != GRO_RECURSION_LIMIT)
        return false;
    gro_flush(rp, from, fn, CSC_G_RECURSION);
    return true;
}

/* The layer GRO would go on to is not in the result: the capture ends first
 * (truncated, or a header that cannot be), or it is a payload the decoder
 * does not know (an unknown or encrypted protocol), for which the kernel has
 * no gro_receive either. */
static void gro_missing(struct rp *rp, uint8_t from, enum kfn fn)
{
    uint8_t s = rp->r->stop;
    gro_flush(rp, from, fn, s == CSC_STOP_TRUNCATED || s == CSC_STOP_MALFORMED || s == CSC_STOP_END
                                ? CSC_G_TRUNCATED : CSC_G_NO_HANDLER);
}

static void skb_gro_postpull_rcsum(struct rp *rp, uint32_t start, uint32_t len)
{
    uint32_t sum;
    if (!rp->cb.csum_valid)
        return;
    bool known = rp_region(rp, start, start + len, &sum);
    rp->cb.csum = csum_sub(rp->cb.csum, known ? sum : 0);
    rp->cb.csum_known = rp->cb.csum_known && known;
    rp->k->hdr_bytes += len;
}

static void skb_gro_pull(struct rp *rp, uint32_t len)
{
    skb_gro_postpull_rcsum(rp, rp->cb.data_offset, len);
    rp->cb.data_offset += len;
}

/* skb_gro_incr_csum_unnecessary (include/net/gro.h) */
static void skb_gro_incr_csum_unnecessary(struct rp *rp)
{
    if (rp->cb.csum_cnt > 0)
        rp->cb.csum_cnt--;
    else
        __skb_incr_checksum_unnecessary(rp);
}

static bool __skb_gro_checksum_validate_needed(const struct rp *rp, bool zero_okay, uint16_t check)
{
    const struct sk_buff_model *s = &rp->skb;
    bool partial_covers = s->ip_summed == CHECKSUM_PARTIAL &&
                          (!era(rp, CSC_E_PARTIAL_START_RULE) ||
                           s->csum_start >= rp->cb.data_offset);
    return !partial_covers && rp->cb.gro_remcsum_start != rp->cb.data_offset &&
           rp->cb.csum_cnt == 0 && (!zero_okay || check != 0);
}

static int __skb_gro_checksum_complete(struct rp *rp, uint8_t layer, enum kfn fn)
{
    struct csc_skb_state before = rp_snap(rp);
    uint32_t sum = 0, bytes = rp->skb.tail - rp->cb.data_offset;
    bool known = rp_region(rp, rp->cb.data_offset, rp->skb.tail, &sum) && rp->cb.csum_known;
    int ok = rp_check(rp, layer, known, csum_add(rp->cb.csum, sum));
    rp_count_pass(rp, bytes);
    if (ok && rp->skb.ip_summed == CHECKSUM_COMPLETE && !rp->skb.csum_complete_sw)
        rp->k->warnings |= CSC_W_HW_CSUM_FAULT;
    rp->cb.csum = sum;
    rp->cb.csum_known = rp_region(rp, rp->cb.data_offset, rp->skb.tail, &sum);
    rp->cb.csum_valid = true;         /* set even when the check failed */
    rp_step(rp, layer, fn, CSC_M_SW_PASS, ok, bytes, &before);
    rp_layer_result(rp, layer, CSC_M_SW_PASS, ok, bytes);
    return !ok;
}

static int __skb_gro_checksum_validate(struct rp *rp, uint8_t layer, enum kfn fn, bool zero_okay,
                                       uint16_t check, uint32_t psum)
{
    int r = 0;
    struct csc_skb_state before = rp_snap(rp);
    if (__skb_gro_checksum_validate_needed(rp, zero_okay, check)) {
        if (rp->cb.csum_valid && rp_check(rp, layer, rp->cb.csum_known,
                                          csum_add(psum, rp->cb.csum))) {
            rp_step(rp, layer, fn, CSC_M_COMPLETE, CSC_TRI_YES, 0, &before);
            rp_layer_result(rp, layer, CSC_M_COMPLETE, true, 0);
        } else {
            if (rp->cb.csum_valid)
                rp_step(rp, layer, fn, CSC_M_COMPLETE, CSC_TRI_NO, 0, &before);
            rp->cb.csum = psum;
            rp->cb.csum_known = true;
            r = __skb_gro_checksum_complete(rp, layer, fn);
        }
    } else {
        enum csc_method m = CSC_M_DEVICE;
        if (rp->cb.gro_remcsum_start == rp->cb.data_offset && rp->cb.gro_remcsum_start)
            m = CSC_M_REMCSUM;
        else if (rp->skb.ip_summed == CHECKSUM_PARTIAL && rp->cb.csum_cnt == 0)
            m = CSC_M_PARTIAL;
        else if (rp->cb.csum_cnt == 0)
            m = CSC_M_ZERO;
        rp_step(rp, layer, fn, m, CSC_TRI_YES, 0, &before);
        rp_layer_result(rp, layer, m, true, 0);
    }
    if (r)
        __skb_mark_checksum_bad(rp);
    else
        skb_gro_incr_csum_unnecessary(rp);
    rp_amend_last(rp);
    return r;
}

/* skb_gro_checksum_try_convert (include/net/gro.h, from v3.18) */
static void skb_gro_checksum_try_convert(struct rp *rp, uint8_t layer, enum kfn fn, uint32_t psum)
{
    if (!era(rp, CSC_E_HAS_CONVERSION))
        return;
    if (rp->cb.csum_cnt != 0 || rp->cb.csum_valid)
        return;
    rp->cb.csum = ~psum;
    rp->cb.csum_known = true;
    rp->cb.csum_valid = true;
    rp_step(rp, layer, fn, W_CONVERT, CSC_TRI_YES, 0, NULL);
    L(rp, layer)->k.gro_conv = 1;
}

/* ---- L3 ---- */

static void inet_gro_receive(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    rp_enter(rp, i, KF_INET_GRO_RECEIVE);
    if (ip->hdr_len != IPV4_HLEN) {
        gro_flush(rp, i, KF_INET_GRO_RECEIVE, CSC_G_IP_OPTIONS);
        return;
    }
    if (ip->notes & CSC_N_FRAGMENT) {
        gro_flush(rp, i, KF_INET_GRO_RECEIVE, CSC_G_IP_FRAGMENT);
        return;
    }
    int hdr_ok = ip->verdict == CSC_V_GOOD ||
                 (ip->verdict != CSC_V_BAD && rp_check(rp, i, false, 0));
    if (!hdr_ok) {                    /* ip_fast_csum(iph, 5) != 0 */
        gro_flush(rp, i, KF_INET_GRO_RECEIVE, CSC_G_IP_CSUM);
        return;
    }
    /* tot_len must equal the GRO length (link padding, lying lengths and
     * super-packets fail this); the L4 then skips checksum work. */
    uint32_t gro_len = rp->skb.tail - rp->cb.data_offset;
    if ((ip->notes & (CSC_N_GSO | CSC_N_LEN_EXCEEDS)) || ip->end - ip->off != gro_len)
        gro_flush(rp, i, KF_INET_GRO_RECEIVE, CSC_G_IP_LEN);
    /* the same flush word takes frag_off's bits but DF (v6.12: a fragment
     * went above, so the reserved bit is what is left) */
    if (ip->u.ip.frag_off & ~(uint16_t)IP_DF)
        gro_flush(rp, i, KF_INET_GRO_RECEIVE, CSC_G_IP_FLAGS);
    rp->cb.data_offset += IPV4_HLEN;  /* no postpull: a valid header sums to 0 */
    if (!has_layer(rp, i + 1u) || L(rp, i + 1)->off != rp->cb.data_offset) {
        gro_flush(rp, i, KF_INET_GRO_RECEIVE, CSC_G_NO_HANDLER);
        return;
    }
    gro_ipproto(rp, i + 1, false);
}

static void ipv6_gro_receive(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    rp_enter(rp, i, KF_IPV6_GRO_RECEIVE);
    /* ipv6_gro_pull_exthdrs (net/ipv6/ip6_offload.c, v6.12; v6.1's
     * ipv6_gso_pull_exthdrs) walks only the headers with an offload marked
     * INET6_PROTO_GSO_EXTHDR - routing, destination options, hop-by-hop.
     * There is no inet6_offloads[NEXTHDR_FRAGMENT]: a fragment header, an
     * atomic one (offset 0, no M) too, ends GRO there (goto out, flush),
     * before any transport's gro_receive and its checksum. */
    if ((ip->notes & CSC_N_FRAGMENT) || (ip->u.ip.rh_flags & CSC_RH_FRAG_HDR)) {
        gro_flush(rp, i, KF_IPV6_GRO_RECEIVE, CSC_G_IP_FRAGMENT);
        return;
    }
    /* payload_len against the GRO length, as the field says: 0 before a
     * hop-by-hop header without a jumbo option flushes though the decoder
     * takes the packet as long as the link carried it (ip6_rcv_core) */
    uint32_t gro_len = rp->skb.tail - rp->cb.data_offset;
    uint16_t plen = 0;
    if ((ip->notes & (CSC_N_GSO | CSC_N_LEN_EXCEEDS | CSC_N_JUMBO)) ||
        !pkt_be16(&rp->p, (uint64_t)ip->off + 4u, &plen) || IPV6_HLEN + (uint32_t)plen != gro_len)
        gro_flush(rp, i, KF_IPV6_GRO_RECEIVE, CSC_G_IP_LEN);
    skb_gro_pull(rp, ip->hdr_len);    /* header and extension headers, postpulled */
    if (!has_layer(rp, i + 1u) || L(rp, i + 1)->off != rp->cb.data_offset) {
        gro_flush(rp, i, KF_IPV6_GRO_RECEIVE, CSC_G_NO_HANDLER);
        return;
    }
    gro_ipproto(rp, i + 1, true);
}

static void gro_l3(struct rp *rp, uint8_t i)
{
    if (L(rp, i)->proto == CSC_P_IPV4)
        inet_gro_receive(rp, i);
    else if (L(rp, i)->proto == CSC_P_IPV6)
        ipv6_gro_receive(rp, i);
    else
        gro_flush(rp, i, KF_DEV_GRO_RECEIVE, CSC_G_NO_HANDLER);
}

/* encap_mark (v4.6+) in fn, an IP-in-IP or GRE gro_receive: a second
 * tunnel header in one pass is flushed. False: flushed. */
static bool gro_encap_mark(struct rp *rp, uint8_t i, enum kfn fn)
{
    if (!era(rp, CSC_E_GRE_SETS_ENCAP_MARK))
        return true;
    if (rp->cb.encap_mark) {
        gro_flush(rp, i, fn, CSC_G_ENCAP_MARK);
        return false;
    }
    rp->cb.encap_mark = 1;
    return true;
}

/* ipip_gro_receive / sit_ip6ip6_gro_receive / ip4ip6_gro_receive: encap_mark
 * (v4.6+), then the inner header's own gro_receive */
static void gro_ip_in_ip(struct rp *rp, uint8_t i, enum kfn fn)
{
    rp_enter(rp, i, fn);
    if (gro_encap_mark(rp, i, fn))
        gro_l3(rp, i);
}

/* ---- L4 ---- */

/* The pseudo-header sum GRO checks a transport checksum with. Under IPv6
 * it is ip6_gro_compute_pseudo (include/net/ip6_checksum.h, v6.12 and
 * v6.1; tcp6_gro_receive, udp6_gro_receive): the IPv6 header's addresses
 * as they are on the wire, not a routing header's final destination or a
 * Home Address option's source, which the verifier uses and the normal
 * path puts in later (ipv6_rthdr_rcv, ipv6_dest_hao). The header's
 * addresses are read (guarded: the outcome depends on them). */
static uint32_t gro_l4_pseudo(const struct rp *rp, const struct csc_layer *l)
{
    uint32_t psum = l4_pseudo(rp, l);
    uint8_t ip = l->ip;
    if (ip == CSC_NO_LAYER || L(rp, ip)->proto != CSC_P_IPV6 ||
        !(L(rp, ip)->notes & (CSC_N_ROUTING_DST | CSC_N_HOME_ADDRESS)))
        return psum;
    uint8_t a[2 * IPV6_ADDR_LEN];
    if (!pkt_copy(&rp->p, L(rp, ip)->u.ip.addr_off, sizeof a, a))
        return psum;
    uint32_t used = rp->vals->layers[ip].pseudo;   /* a value: the addresses the verifier summed */
    return csum_add(csum_sub(psum, used), csc_pseudo6(a, a + IPV6_ADDR_LEN));
}

/* tcp4_gro_receive / tcp6_gro_receive and tcp_gro_receive */
void tcp_gro_receive(struct rp *rp, uint8_t i)
{
    const struct csc_layer *th = L(rp, i);
    bool v6 = under_ipv6(rp, i);
    enum kfn fn = v6 ? KF_TCP6_GRO_RECEIVE : KF_TCP4_GRO_RECEIVE;
    rp_enter(rp, i, fn);
    if (!rp->cb.flush) {
        if (__skb_gro_checksum_validate(rp, i, fn, false, 0, gro_l4_pseudo(rp, th))) {
            gro_flush(rp, i, fn, CSC_G_CSUM_FAIL);
            return;
        }
    } else {
        rp_step(rp, i, fn, W_SKIP_FLUSH, CSC_TRI_UNDECIDED, 0, NULL);
    }
    /* tcp_gro_receive, out_check_final for a segment with no held flow:
     * flush = len < mss (mss 1: a segment without payload), and
     * URG|PSH|RST|SYN|FIN push the packet up at once. */
    if (th->u.tcp.flags & (TCP_URG | TCP_PSH | TCP_RST | TCP_SYN | TCP_FIN))
        gro_flush(rp, i, KF_TCP_GRO_RECEIVE, CSC_G_TCP_FLAGS);
    else if (th->end <= th->off + th->hdr_len)
        gro_flush(rp, i, KF_TCP_GRO_RECEIVE, CSC_G_TCP_NO_PAYLOAD);
}

bool is_udp_tunnel(const struct rp *rp, uint8_t t)
{
    unsigned p = L(rp, t)->proto;
    return proto_has(p, CSC_PF_UDP_TUNNEL) && !csc_proto_port_unbound(p, under_ipv6(rp, t));
}

/* A UDP tunnel socket with a gro_receive callback listens on this port. */
static bool udp_tunnel_gro_sock(const struct rp *rp, uint8_t i)
{
    if (has_layer(rp, i + 1u) && L(rp, i + 1)->proto == CSC_P_GENEVE && !era(rp, CSC_E_GENEVE_GRO))
        return false;                 /* v3.18/v3.19: the offload's gro_receive is NULL */
    return has_layer(rp, i + 1u) && is_udp_tunnel(rp, i + 1) &&
           proto_row(L(rp, i + 1)->proto)->gro_receive;
}

static bool udp_gate_refuses(const struct rp *rp, uint16_t check)
{
    bool nonzero = !era(rp, CSC_E_UDP_GATE_NONZERO_CHECK) || check != 0;
    return nonzero && rp->skb.ip_summed != CHECKSUM_PARTIAL && rp->cb.csum_cnt == 0 &&
           !rp->cb.csum_valid;
}

/* udp_gro_receive (net/ipv4/udp_offload.c). Before v4.20 the gate and encap_mark came before
 * the tunnel lookup; since then a non-tunnel socket is sorted out first. */
static void udp_gro_receive(struct rp *rp, uint8_t i)
{
    uint16_t check = rp_field(rp, L(rp, i));
    bool tunnel = udp_tunnel_gro_sock(rp, i);
    bool lookup_first = !era(rp, CSC_E_UDP_GATE_BEFORE_LOOKUP);
    if (lookup_first && !tunnel) {
        gro_flush(rp, i, KF_UDP_GRO_RECEIVE, CSC_G_NOT_TUNNEL);
        return;
    }
    if (rp->cb.encap_mark) {
        gro_flush(rp, i, KF_UDP_GRO_RECEIVE, CSC_G_ENCAP_MARK);
        return;
    }
    if (udp_gate_refuses(rp, check)) {
        rp_step(rp, i, KF_UDP_GRO_RECEIVE, W_GATE_REFUSED, CSC_TRI_NO, 0, NULL);
        gro_flush(rp, i, KF_UDP_GRO_RECEIVE, CSC_G_UDP_GATE);
        return;
    }
    rp->cb.encap_mark = 1;
    if (!tunnel) {
        gro_flush(rp, i, KF_UDP_GRO_RECEIVE, CSC_G_NOT_TUNNEL);
        return;
    }
    rp_step(rp, i, KF_UDP_GRO_RECEIVE, W_ENCAP_MARK, CSC_TRI_UNDECIDED, 0, NULL);
    skb_gro_pull(rp, UDP_HLEN);
    if (!gro_recursion_inc_test(rp, i, KF_UDP_GRO_RECEIVE))     /* call_gro_receive_sk */
        proto_row(L(rp, i + 1)->proto)->gro_receive(rp, i + 1);   /* the tunnel socket's */
}

/* udp4_gro_receive / udp6_gro_receive */
void udp_l4_gro_receive(struct rp *rp, uint8_t i)
{
    const struct csc_layer *uh = L(rp, i);
    bool v6 = under_ipv6(rp, i);
    enum kfn fn = v6 ? KF_UDP6_GRO_RECEIVE : KF_UDP4_GRO_RECEIVE;
    uint16_t check = rp_field(rp, uh);
    rp_enter(rp, i, fn);
    bool run = era(rp, CSC_E_GRO_UDP_FLUSH_INVERTED) ? rp->cb.flush : !rp->cb.flush;
    if (run) {
        if (__skb_gro_checksum_validate(rp, i, fn, true, check, gro_l4_pseudo(rp, uh))) {
            gro_flush(rp, i, fn, CSC_G_CSUM_FAIL);
            return;
        }
        if (check != 0)
            skb_gro_checksum_try_convert(rp, i, fn, gro_l4_pseudo(rp, uh));
    } else {
        rp_step(rp, i, fn, W_SKIP_FLUSH, CSC_TRI_UNDECIDED, 0, NULL);
    }
    rp->cb.is_ipv6 = v6;
    udp_gro_receive(rp, i);
}

/* gre_gro_receive (net/ipv4/gre_offload.c) */
void gre_gro_receive(struct rp *rp, uint8_t i)
{
    const struct csc_layer *g = L(rp, i);
    uint16_t flags = g->u.gre.flags;
    rp_enter(rp, i, KF_GRE_GRO_RECEIVE);
    if (!gro_encap_mark(rp, i, KF_GRE_GRO_RECEIVE))
        return;
    if ((flags & GRE_VERSION) != GRE_VERSION_0 || (flags & ~(GRE_C | GRE_K | GRE_VERSION))) {
        gro_flush(rp, i, KF_GRE_GRO_RECEIVE, CSC_G_GRE_FLAGS);
        return;
    }
    if ((flags & GRE_C) && rp->cb.is_fou && era(rp, CSC_E_GUE_IS_FOU)) {
        gro_flush(rp, i, KF_GRE_GRO_RECEIVE, CSC_G_GRE_CSUM_FOU);
        return;
    }
    if (!gro_has_receive_by_type(rp, g->next)) {
        gro_flush(rp, i, KF_GRE_GRO_RECEIVE, CSC_G_NO_HANDLER);
        return;
    }
    if ((flags & GRE_C) && !rp->cb.flush) {
        if (__skb_gro_checksum_validate(rp, i, KF_GRE_GRO_RECEIVE, false, 0, 0)) {
            gro_flush(rp, i, KF_GRE_GRO_RECEIVE, CSC_G_CSUM_FAIL);
            return;
        }
        skb_gro_checksum_try_convert(rp, i, KF_GRE_GRO_RECEIVE, 0);
    }
    skb_gro_pull(rp, g->hdr_len);
    gro_receive_by_type(rp, i + 1, g->next, i, KF_GRE_GRO_RECEIVE);
}

/* inet_offloads[] / inet6_offloads[] for IP in IP (af_inet.c, ip6_offload.c,
 * 6.12): IPv4 in IPv4 ipip_gro_receive (inet_gro_receive itself up to
 * v4.5), IPv6 in IPv4 sit_ip6ip6_gro_receive (from v4.6), IPv4 or IPv6 in
 * IPv6 ip4ip6_gro_receive / sit_ip6ip6_gro_receive (from v4.7). */
void ip_in_ip_gro_receive(struct rp *rp, uint8_t i)
{
    bool v6 = under_ipv6(rp, i);
    bool inner6 = L(rp, i)->proto == CSC_P_IPV6;
    enum kfn fn = inner6 ? KF_SIT_GRO_RECEIVE : v6 ? KF_IP4IP6_GRO_RECEIVE : KF_IPIP_GRO_RECEIVE;
    bool exists = v6 ? era(rp, CSC_E_IP6_TNL_GRO) : !inner6 || era(rp, CSC_E_SIT_GRO);
    if (!exists) {
        gro_flush(rp, i, v6 ? KF_IPV6_GRO_RECEIVE : KF_INET_GRO_RECEIVE, CSC_G_NO_HANDLER);
        return;
    }
    gro_ip_in_ip(rp, i, fn);
}

/* inet_offloads[] / inet6_offloads[]: the protocol's gro_receive callback */
static void gro_ipproto(struct rp *rp, uint8_t i, bool v6)
{
    void (*gro_receive)(struct rp *, uint8_t) = proto_row(L(rp, i)->proto)->gro_receive;
    enum kfn caller = v6 ? KF_IPV6_GRO_RECEIVE : KF_INET_GRO_RECEIVE;
    if (!gro_receive)
        gro_flush(rp, i, caller, CSC_G_NO_HANDLER);
    else if (!gro_recursion_inc_test(rp, i - 1u, caller))
        gro_receive(rp, i);
}

/* gro_find_receive_by_type: the packet_offloads with a gro_receive are IPv4,
 * IPv6 (af_inet.c, ip6_offload.c), TEB (eth.c eth_offload_init) and
 * 802.1Q/802.1ad (net/8021q/vlan_core.c, a kernel with CONFIG_VLAN_8021Q), 6.12. */
static bool gro_has_receive_by_type(const struct rp *rp, uint16_t type)
{
    return type == ETH_P_IP || type == ETH_P_IPV6 || type == ETH_P_TEB ||
           ((type == ETH_P_8021Q || type == ETH_P_8021AD) && rp->cfg->vlan_8021q);
}

static void eth_gro_receive(struct rp *rp, uint8_t i);
static void vlan_gro_receive(struct rp *rp, uint8_t i);

/* ptype->callbacks.gro_receive for the header at layer i, reached through
 * `type` from layer `from` (whose function fn decided it): a counted call
 * in every caller (call_gro_receive, indirect_call_gro_receive_inet). */
static void gro_receive_by_type(struct rp *rp, uint8_t i, uint16_t type, uint8_t from, enum kfn fn)
{
    if (!has_layer(rp, i)) {
        gro_missing(rp, from, fn);
        return;
    }
    uint8_t p = L(rp, i)->proto;
    bool teb = type == ETH_P_TEB && p == CSC_P_ETH;
    bool vlan = (type == ETH_P_8021Q || type == ETH_P_8021AD) && p == CSC_P_VLAN && rp->cfg->vlan_8021q;
    bool l3 = (type == ETH_P_IP && p == CSC_P_IPV4) || (type == ETH_P_IPV6 && p == CSC_P_IPV6);
    if (!teb && !vlan && !l3)
        gro_flush(rp, from, fn, CSC_G_NO_HANDLER);
    else if (gro_recursion_inc_test(rp, from, fn))
        return;
    else if (teb)
        eth_gro_receive(rp, i);
    else if (vlan)
        vlan_gro_receive(rp, i);
    else
        gro_l3(rp, i);
}

/* eth_gro_receive (net/ethernet/eth.c) / vlan_gro_receive (vlan_core.c):
 * postpull the header, dispatch by its type */
static void eth_gro_receive(struct rp *rp, uint8_t i)
{
    rp_enter(rp, i, KF_ETH_GRO_RECEIVE);
    skb_gro_pull(rp, L(rp, i)->hdr_len);
    gro_receive_by_type(rp, i + 1, L(rp, i)->next, i, KF_ETH_GRO_RECEIVE);
}

/* vlan_gro_receive (net/8021q/vlan_core.c, v6.12 = 5.10): a type after the
 * tag with no offload (not IP, IPv6 or another tag) flushes, whatever the
 * decoder made of the bytes behind it */
static void vlan_gro_receive(struct rp *rp, uint8_t i)
{
    uint16_t type = L(rp, i)->next;
    rp_enter(rp, i, KF_VLAN_GRO_RECEIVE);
    skb_gro_pull(rp, L(rp, i)->hdr_len);
    if (!has_layer(rp, i + 1u) && type != ETH_P_IP && type != ETH_P_IPV6 && type != ETH_P_8021Q &&
        type != ETH_P_8021AD)
        gro_flush(rp, i, KF_VLAN_GRO_RECEIVE, CSC_G_NO_HANDLER);
    else
        gro_receive_by_type(rp, i + 1, type, i, KF_VLAN_GRO_RECEIVE);
}

/* skb_gro_remcsum_process (include/net/gro.h) for VXLAN (hdrlen 8) and GUE */
static bool gro_remcsum(struct rp *rp, uint8_t t, enum kfn fn, struct gro_remcsum *grc)
{
    const struct csc_layer *tl = L(rp, t);
    uint32_t inner = tl->off + tl->hdr_len;
    bool nopartial = !era(rp, CSC_E_RCO_NOPARTIAL_KNOB) || rp->cfg->remcsum_nopartial;
    if (rp->skb.remcsum_offload) {
        if (era(rp, CSC_E_RCO_GRO_FLUSH_IF_DONE)) {
            gro_flush(rp, t, fn, CSC_G_RCO_NO_CSUM);
            return false;
        }
        return true;
    }
    if (!rp->cb.csum_valid) {
        gro_flush(rp, t, fn, CSC_G_RCO_NO_CSUM);
        return false;
    }
    struct csc_skb_state before = rp_snap(rp);
    if (!nopartial) {
        rp->cb.gro_remcsum_start = inner + tl->rco_start;
        rp_step(rp, t, KF_SKB_GRO_REMCSUM_PROCESS, W_REMCSUM_START, CSC_TRI_UNDECIDED, 0, &before);
    } else {
        uint32_t need = tl->rco_offset + CSUM_LEN > tl->rco_start ? tl->rco_offset + CSUM_LEN : tl->rco_start;
        if ((uint64_t)inner + need > rp->skb.tail) {
            gro_flush(rp, t, fn, CSC_G_TRUNCATED);
            return false;
        }
        uint32_t delta = remcsum_adjust(rp, inner, rp->cb.csum, rp->cb.csum_known, tl->rco_start,
                                        tl->rco_offset);
        rp->cb.csum = csum_add(rp->cb.csum, delta);
        grc->offset = inner + tl->rco_offset;
        grc->delta = delta;
        grc->active = 1;
        rp_step(rp, t, KF_SKB_GRO_REMCSUM_PROCESS, W_REMCSUM_ADJUST, CSC_TRI_UNDECIDED, 0, &before);
    }
    rp->skb.remcsum_offload = true;
    return true;
}

/* skb_gro_flush_final_remcsum: restore the field, clear remcsum_offload */
static void gro_remcsum_final(struct rp *rp, uint8_t t, struct gro_remcsum *grc)
{
    if (grc->active) {
        rp_unpatch(rp, grc->offset);
        rp_step(rp, t, KF_SKB_GRO_FLUSH_FINAL_REMCSUM, W_REMCSUM_CLEANUP, CSC_TRI_UNDECIDED, 0, NULL);
    }
    if (era(rp, CSC_E_REMCSUM_CLEARED_ON_EXIT))
        rp->skb.remcsum_offload = false;
}

void vxlan_gro_receive(struct rp *rp, uint8_t t)
{
    const struct csc_layer *vx = L(rp, t);
    struct gro_remcsum grc = { 0, 0, 0 };
    rp_enter(rp, t, KF_VXLAN_GRO_RECEIVE);
    skb_gro_postpull_rcsum(rp, vx->off, VXLAN_HLEN);
    bool ok = true;
    if (vx->proto == CSC_P_VXLAN && (vx->u.vxlan.flags & VXLAN_HF_RCO) && rp->cfg->remcsum_rx &&
        era(rp, CSC_E_RCO))
        ok = gro_remcsum(rp, t, KF_VXLAN_GRO_RECEIVE, &grc);
    if (ok) {
        rp->cb.data_offset += VXLAN_HLEN;
        gro_receive_by_type(rp, t + 1, ETH_P_TEB, t, KF_VXLAN_GRO_RECEIVE);
    }
    gro_remcsum_final(rp, t, &grc);
}

/* vxlan_gpe_gro_receive (drivers/net/vxlan/vxlan_core.c, v6.12): after the
 * pull, vxlan_parse_gpe_proto (P clear, a version, O) flushes (`goto out`);
 * the I flag and reserved bits are not looked at; ETH_P_NSH and ETH_P_MPLS_UC
 * have no gro_receive: flush (`goto out`). Before it a GPE socket ran
 * vxlan_gro_receive (era switch VXLAN_GPE_GRO) */
void vxlan_gpe_gro_receive(struct rp *rp, uint8_t t)
{
    if (!era(rp, CSC_E_VXLAN_GPE_GRO)) {
        vxlan_gro_receive(rp, t);
        return;
    }
    rp_enter(rp, t, KF_VXLAN_GPE_GRO_RECEIVE);
    skb_gro_pull(rp, VXLAN_HLEN);
    if (!vxlan_parse_gpe_proto(rp, t))
        gro_flush(rp, t, KF_VXLAN_GPE_GRO_RECEIVE, CSC_G_TUNNEL_FLAGS);
    else if (gpe_next_unhandled(rp, t))   /* NSH, MPLS: whatever follows */
        gro_flush(rp, t, KF_VXLAN_GPE_GRO_RECEIVE, CSC_G_NO_HANDLER);
    else if (!has_layer(rp, t + 1u))
        gro_missing(rp, t, KF_VXLAN_GPE_GRO_RECEIVE);
    else if (L(rp, t + 1)->proto != CSC_P_ETH && L(rp, t + 1)->proto != CSC_P_IPV4 &&
             L(rp, t + 1)->proto != CSC_P_IPV6)
        gro_flush(rp, t, KF_VXLAN_GPE_GRO_RECEIVE, CSC_G_NO_HANDLER);
    else if (gro_recursion_inc_test(rp, t, KF_VXLAN_GPE_GRO_RECEIVE))   /* call_gro_receive */
        return;
    else if (L(rp, t + 1)->proto == CSC_P_ETH)
        eth_gro_receive(rp, t + 1);
    else
        gro_l3(rp, t + 1);
}

/* geneve_gro_receive (drivers/net/geneve.c, 6.12): a version other than 0 or
 * the OAM bit flush before the pull (`goto out`); the protocol is then
 * dispatched by type. */
void geneve_gro_receive(struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    rp_enter(rp, t, KF_GENEVE_GRO_RECEIVE);
    if (g->u.geneve.ver != 0 || (g->u.geneve.flags & GENEVE_OAM)) {
        gro_flush(rp, t, KF_GENEVE_GRO_RECEIVE, CSC_G_TUNNEL_FLAGS);
        return;
    }
    skb_gro_pull(rp, g->hdr_len);
    gro_receive_by_type(rp, t + 1, g->next, t, KF_GENEVE_GRO_RECEIVE);
}

/* The header checks of gue_gro_receive (6.12): variant 1 must carry IPv4 or
 * IPv6, variants 2 and 3, a control message or flags validate_gue_flags
 * rejects flush (`goto out`). v3.18's gue_gro_receive checked nothing; a
 * header whose 4-bit version is not 0 there (a later variant 1, control bit
 * or hlen >= 16) is taken as a flush. */
static bool gue_gro_header_ok(const struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    if (!era(rp, CSC_E_GUE_HDR_2015)) {
        uint8_t b0 = 0;
        pkt_u8(&rp->p, g->off + WIRE_OFF(guehdr, control), &b0);
        return (b0 >> GUE_2014_VER_SHIFT) == 0;
    }
    if (g->u.gue.variant == GUE_VARIANT_1)
        return has_layer(rp, t + 1u) &&
               (L(rp, t + 1)->proto == CSC_P_IPV4 || L(rp, t + 1)->proto == CSC_P_IPV6);
    return !(g->notes & CSC_N_TUNNEL_OAM) && gue_hdr_valid(rp, g);
}

/* gue_gro_receive / fou_gro_receive (net/ipv4/fou_core.c) */
void gue_gro_receive(struct rp *rp, uint8_t t)
{
    const struct csc_layer *g = L(rp, t);
    enum kfn fn = g->proto == CSC_P_FOU ? KF_FOU_GRO_RECEIVE : KF_GUE_GRO_RECEIVE;
    struct gro_remcsum grc = { 0, 0, 0 };
    rp_enter(rp, t, fn);
    if (g->proto == CSC_P_GUE && !gue_gro_header_ok(rp, t)) {
        gro_flush(rp, t, fn, CSC_G_TUNNEL_FLAGS);
        return;
    }
    skb_gro_postpull_rcsum(rp, g->off, g->hdr_len);
    bool ok = true;
    if ((g->notes & CSC_N_RCO) && era(rp, CSC_E_RCO))
        ok = gro_remcsum(rp, t, fn, &grc);
    if (ok) {
        rp->cb.data_offset += g->hdr_len;
        if (era(rp, CSC_E_ENCAP_CLEARED_BY_FOU))
            rp->cb.encap_mark = 0;
        if (era(rp, CSC_E_GUE_IS_FOU))
            rp->cb.is_fou = 1;
        if (!has_layer(rp, t + 1u))
            gro_missing(rp, t, fn);
        else
            gro_ipproto(rp, t + 1, L(rp, L(rp, t)->ip)->proto == CSC_P_IPV6);
    }
    gro_remcsum_final(rp, t, &grc);
}

/* The VLAN tags right before li, the layer the replay starts a device's
 * GRO walk at: a TAP (or a NIC that does not strip them) and a tunnel
 * device (its inner frame's tags: skb_vlan_untag runs later, in
 * __netif_receive_skb_core) hand them to GRO in the packet.
 * dev_gro_receive reaches the first one's vlan_gro_receive uncounted; each
 * tag's call into what it carries is counted (indirect_call_gro_receive_inet,
 * net/8021q/vlan_core.c v6.12). The replay strips the tags on the normal
 * path (skb_vlan_untag, check_vlan_id), so here they only count - or, on a
 * kernel without CONFIG_VLAN_8021Q, find no handler: dev_gro_receive's
 * `goto normal`, no GRO pass. True: flushed. */
static bool gro_vlan_tags(struct rp *rp, uint8_t li)
{
    uint8_t first = li;
    while (first > 0 && L(rp, first - 1)->proto == CSC_P_VLAN)
        first--;
    for (uint8_t v = first; v < li; v++) {
        if (!rp->cfg->vlan_8021q) {
            gro_flush(rp, v, KF_DEV_GRO_RECEIVE, CSC_G_NO_HANDLER);
            return true;
        }
        if (gro_recursion_inc_test(rp, v, KF_VLAN_GRO_RECEIVE))
            return true;
    }
    return false;
}

/* The start of dev_gro_receive (net/core/gro.c) on the current device for
 * a network header at off (step layer li): GRO off on the device, or (era
 * HAS_CSUM_BAD) an skb marked csum_bad, go the normal way - false; else the
 * control block is re-created, true. */
static bool dev_gro_start(struct rp *rp, uint8_t li, uint32_t off)
{
    struct csc_dev *dev = &rp->k->devs[rp->dev];
    bool enabled = rp->dev == 0 ? rp->cfg->gro_nic : rp->cfg->gro_tunnel;
    rp->path = CSC_PATH_GRO;
    if (!enabled) {
        dev->gro_reason = CSC_G_OFF;
        rp_step(rp, li, KF_DEV_GRO_RECEIVE, W_GRO_OFF, CSC_TRI_UNDECIDED, 0, NULL);
        rp->path = CSC_PATH_NORMAL;
        return false;
    }
    memset(&rp->cb, 0, sizeof rp->cb);
    rp->cb.data_offset = off;
    dev->gro_ran = 1;
    if (era(rp, CSC_E_HAS_CSUM_BAD) && rp->skb.csum_bad) {
        dev->gro_reason = CSC_G_CSUM_BAD;
        dev->gro_layer = li;
        rp_step(rp, li, KF_DEV_GRO_RECEIVE, W_CSUM_BAD_SKIP, CSC_TRI_UNDECIDED, 0, NULL);
        rp->path = CSC_PATH_NORMAL;
        return false;
    }
    return true;
}

/* inet_gro_receive / ipv6_gro_receive (net/ipv4/af_inet.c,
 * net/ipv6/ip6_offload.c, v6.12 = 5.10) on a header shorter than its fixed
 * part: skb_gro_header fails, `goto out` flushes; dev_gro_receive sends the
 * skb on the normal way (GRO_NORMAL). at: the layer it follows. */
void dev_gro_receive_short_ip(struct rp *rp, uint8_t at, bool v6)
{
    const struct csc_layer *l = L(rp, at);
    if (!dev_gro_start(rp, at, l->off + l->hdr_len))
        return;
    struct csc_dev *dev = &rp->k->devs[rp->dev];
    enum kfn fn = v6 ? KF_IPV6_GRO_RECEIVE : KF_INET_GRO_RECEIVE;
    rp_enter(rp, at, KF_DEV_GRO_RECEIVE);
    rp_enter(rp, at, fn);
    gro_flush(rp, at, fn, CSC_G_TRUNCATED);
    dev->gro_reason = rp->cb.reason;
    dev->gro_layer = at;
    rp_step(rp, at, KF_NAPI_GRO_RECEIVE_RET, W_FLUSH, CSC_TRI_UNDECIDED, 0, NULL);
    rp->path = CSC_PATH_NORMAL;
}

/* dev_gro_receive (net/core/gro.c): re-create the control block from the skb. */
bool dev_gro_receive(struct rp *rp, uint8_t li)
{
    struct csc_dev *dev = &rp->k->devs[rp->dev];
    if (!dev_gro_start(rp, li, L(rp, li)->off))
        return false;
    if (rp->skb.ip_summed == CHECKSUM_COMPLETE) {
        rp->cb.csum = rp->skb.csum;
        rp->cb.csum_known = rp->skb.csum_known;
        rp->cb.csum_valid = true;
    } else if (rp->skb.ip_summed == CHECKSUM_UNNECESSARY) {
        rp->cb.csum_cnt = (uint8_t)(rp->skb.csum_level + 1);
    }
    rp_enter(rp, li, KF_DEV_GRO_RECEIVE);
    if (gro_vlan_tags(rp, li))
        ;                             /* flushed in the tags */
    else if (L(rp, li)->proto == CSC_P_ETH)
        eth_gro_receive(rp, li);      /* ETH_P_TEB on a GPE device (gpe.c) */
    else if (L(rp, li)->proto == CSC_P_VLAN)
        vlan_gro_receive(rp, li);     /* an inner tag (rx.c:teb_vlan_no_handler) */
    else
        gro_l3(rp, li);
    bool held = !rp->cb.flush;
    dev->gro_reason = held ? CSC_G_NONE : rp->cb.reason;
    dev->gro_layer = held ? li : rp->cb.reason_layer;
    rp_step(rp, li, KF_NAPI_GRO_RECEIVE_RET, held ? W_HELD : W_FLUSH, CSC_TRI_UNDECIDED, 0, NULL);
    rp->path = CSC_PATH_NORMAL;
    return held;
}
