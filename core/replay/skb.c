/*
 * skb.c - the skb checksum helpers of include/linux/skbuff.h and
 * net/core/skbuff.c (read at v6.12), one function each under the kernel's
 * name, with the older kernels' differences as era switches (core/replay/era.c,
 * docs/eras.md).
 */
#include "replay.h"

/* skb_csum_unnecessary (include/linux/skbuff.h). Before the PARTIAL-start
 * rule (CSC_E_PARTIAL_START_RULE) any PARTIAL counted as verified. */
bool skb_csum_unnecessary(const struct rp *rp)
{
    const struct sk_buff_model *s = &rp->skb;
    if (s->ip_summed == CHECKSUM_UNNECESSARY || s->csum_valid)
        return true;
    if (s->ip_summed == CHECKSUM_PARTIAL)
        return !era(rp, CSC_E_PARTIAL_START_RULE) || s->csum_start >= s->data;
    return false;
}

/* __skb_decr_checksum_unnecessary / __skb_incr_checksum_unnecessary
 * (include/linux/skbuff.h): one level of csum_level per validated header. */
void __skb_decr_checksum_unnecessary(struct rp *rp)
{
    struct sk_buff_model *s = &rp->skb;
    if (s->ip_summed != CHECKSUM_UNNECESSARY)
        return;
    if (s->csum_level == 0)
        s->ip_summed = CHECKSUM_NONE;
    else
        s->csum_level--;
}

void __skb_incr_checksum_unnecessary(struct rp *rp)
{
    struct sk_buff_model *s = &rp->skb;
    if (s->ip_summed == CHECKSUM_UNNECESSARY) {
        if (s->csum_level < SKB_MAX_CSUM_LEVEL)
            s->csum_level++;
    } else if (s->ip_summed == CHECKSUM_NONE) {
        s->ip_summed = CHECKSUM_UNNECESSARY;
        s->csum_level = 0;
    }
}

/* __skb_mark_checksum_bad: csum_bad came with Part VI (merge c5a65680b3c2,
 * v3.18) and went in v4.13 (series merged as 5d65a16a689a). */
void __skb_mark_checksum_bad(struct rp *rp)
{
    if (!era(rp, CSC_E_HAS_CSUM_BAD))
        return;
    if (rp->skb.ip_summed == CHECKSUM_NONE || rp->skb.ip_summed == CHECKSUM_UNNECESSARY)
        rp->skb.csum_bad = true;
}

/* __skb_checksum_complete (net/core/skbuff.c): a full software pass over
 * [data, tail). Returns 0 when good. Since "net: Save software checksum
 * complete" (7e3cead51729, 2014) a pass leaves CHECKSUM_COMPLETE behind
 * (CSC_E_SAVE_SW_COMPLETE). */
int __skb_checksum_complete(struct rp *rp, uint8_t layer, enum kfn fn)
{
    struct sk_buff_model *s = &rp->skb;
    struct csc_skb_state before = rp_snap(rp);
    uint32_t sum = 0, bytes = s->tail - s->data;
    bool known = rp_region(rp, s->data, s->tail, &sum) && s->csum_known;
    int ok = rp_check(rp, layer, known, csum_add(s->csum, sum));
    rp_count_pass(rp, bytes);
    if (ok && s->ip_summed == CHECKSUM_COMPLETE && !s->csum_complete_sw)
        rp->k->warnings |= CSC_W_HW_CSUM_FAULT;
    if (era(rp, CSC_E_SAVE_SW_COMPLETE)) {
        s->csum = sum;
        s->csum_known = rp_region(rp, s->data, s->tail, &sum);
        s->ip_summed = CHECKSUM_COMPLETE;
        s->csum_complete_sw = true;
        s->csum_valid = ok;
    }
    rp_step(rp, layer, fn, CSC_M_SW_PASS, ok, bytes, &before);
    rp_layer_result(rp, layer, CSC_M_SW_PASS, ok, bytes);
    return !ok;
}

/* What skb_csum_unnecessary-or-zero accepted, for the trace. */
static enum csc_method unneeded_method(const struct rp *rp, bool zero)
{
    const struct sk_buff_model *s = &rp->skb;
    if (s->ip_summed == CHECKSUM_UNNECESSARY)
        return CSC_M_DEVICE;
    if (s->csum_valid)
        return CSC_M_COMPLETE;
    if (s->ip_summed == CHECKSUM_PARTIAL && skb_csum_unnecessary(rp))
        return CSC_M_PARTIAL;
    return zero ? CSC_M_ZERO : CSC_M_DEVICE;
}

/* __skb_checksum_validate_needed (include/linux/skbuff.h) */
static bool __skb_checksum_validate_needed(struct rp *rp, uint8_t layer, enum kfn fn,
                                           bool zero_okay, uint16_t check)
{
    bool zero = zero_okay && check == 0;
    if (skb_csum_unnecessary(rp) || zero) {
        struct csc_skb_state before = rp_snap(rp);
        enum csc_method m = unneeded_method(rp, zero && !skb_csum_unnecessary(rp));
        rp->skb.csum_valid = true;
        __skb_decr_checksum_unnecessary(rp);
        rp_step(rp, layer, fn, m, CSC_TRI_YES, 0, &before);
        rp_layer_result(rp, layer, m, true, 0);
        return false;
    }
    return true;
}

/* The headroom the replay takes a NIC to leave before the frame: NET_SKB_PAD
 * (include/linux/skbuff.h; 64 on x86-64), what tun_build_skb and
 * tun_alloc_skb reserve (drivers/net/tun.c v6.12: --live's TAP).
 * csum_start counts from skb->head, the model's from the frame. */
#define RP_NIC_HEADROOM 64u

/* inet_compute_pseudo / ip6_compute_pseudo (include/net/ip.h,
 * include/net/ip6_checksum.h v6.12) as the kernel holds the __wsum on a
 * little-endian host: csum_tcpudp_nofold adds saddr, daddr and
 * (len + proto) << 8 as 32-bit words with end-around carry
 * (lib/checksum.c, arch/x86/include/asm/checksum_64.h); IPv6 keeps
 * ~csum_unfold(csum_ipv6_magic()), the folded sum in its low 16 bits. */
static uint32_t kernel_pseudo(const struct rp *rp, uint8_t layer, uint32_t len)
{
    const struct csc_layer *l = L(rp, layer);
    if (l->ip == CSC_NO_LAYER)
        return 0;
    const struct csc_layer *ip = L(rp, l->ip);
    uint8_t proto = l->proto == CSC_P_TCP ? 6 : l->proto == CSC_P_UDP ? 17 : 0;
    if (!proto)
        return 0;                     /* deferred validations are TCP's and UDP's */
    if (ip->proto == CSC_P_IPV4) {
        uint32_t sa = 0, da = 0;
        pkt_le32(&rp->p, (uint64_t)ip->off + WIRE_OFF(ipv4_hdr, saddr), &sa);
        pkt_le32(&rp->p, (uint64_t)ip->off + WIRE_OFF(ipv4_hdr, daddr), &da);
        uint64_t s = (uint64_t)sa + da + ((uint64_t)(len + proto) << 8);
        s = (s & 0xffffffffu) + (s >> 32);
        s = (s & 0xffffffffu) + (s >> 32);
        return (uint32_t)s;
    }
    uint32_t s = 0;
    uint16_t w = 0;
    for (unsigned o = 0; o < 32; o += 2) {     /* saddr, daddr: adjacent */
        pkt_be16(&rp->p, (uint64_t)ip->off + WIRE_OFF(ipv6_hdr, saddr) + o, &w);
        s += w;
    }
    s += (len >> 16) + (len & 0xffffu) + proto;
    while (s >> 16)
        s = (s & 0xffffu) + (s >> 16);
    return 0xffff0000u | (uint16_t)((s << 8 | s >> 8) & 0xffffu);   /* as read little-endian */
}

/* struct sk_buff keeps csum and {csum_start, csum_offset} in one union
 * (include/linux/skbuff.h, since 2.6.19): the deferred validation's
 * `skb->csum = psum` on a CHECKSUM_PARTIAL skb (a remote checksum offload
 * whose start is behind data, a GUE PARTIAL kept past its pull) overwrites
 * csum_start with the sum's low 16 bits and csum_offset with its high ones
 * (a little-endian host). skb_csum_unnecessary then reads that csum_start
 * against the headroom: nearly always past it, and the transport's
 * checksum is taken as verified without a pass. */
static void skb_csum_union_write(struct rp *rp, uint8_t layer, enum kfn fn)
{
    struct sk_buff_model *s = &rp->skb;
    struct csc_skb_state before = rp_snap(rp);
    uint32_t v = kernel_pseudo(rp, layer, s->tail - s->data);
    uint32_t start = v & 0xffffu;
    /* frame offset; before the frame (under the headroom): before data too */
    s->csum_start = start >= RP_NIC_HEADROOM ? start - RP_NIC_HEADROOM : 0;
    s->csum_offset = (uint16_t)(v >> 16);
    rp_step(rp, layer, fn, W_CSUM_UNION, CSC_TRI_UNDECIDED, 0, &before);
}

/* __skb_checksum_validate_complete (include/linux/skbuff.h): short packets
 * (CHECKSUM_BREAK) are summed at once, longer ones deferred to the socket. */
static int __skb_checksum_validate_complete(struct rp *rp, uint8_t layer, enum kfn fn,
                                            bool complete, uint32_t psum)
{
    struct sk_buff_model *s = &rp->skb;
    struct csc_skb_state before = rp_snap(rp);
    if (s->ip_summed == CHECKSUM_COMPLETE) {
        if (rp_check(rp, layer, s->csum_known, csum_add(psum, s->csum))) {
            s->csum_valid = true;
            rp_step(rp, layer, fn, CSC_M_COMPLETE, CSC_TRI_YES, 0, &before);
            rp_layer_result(rp, layer, CSC_M_COMPLETE, true, 0);
            return 0;
        }
        rp_step(rp, layer, fn, CSC_M_COMPLETE, CSC_TRI_NO, 0, &before);
    } else if (era(rp, CSC_E_HAS_CSUM_BAD) && s->csum_bad) {
        rp_step(rp, layer, fn, CSC_M_CSUM_BAD, CSC_TRI_NO, 0, &before);
        rp_layer_result(rp, layer, CSC_M_CSUM_BAD, false, 0);
        return 1;
    }
    s->csum = psum;                   /* the COMPLETE value is lost here */
    s->csum_known = true;
    if (complete || s->tail - s->data <= CHECKSUM_BREAK) {
        int r = __skb_checksum_complete(rp, layer, fn);
        s->csum_valid = !r;
        return r;
    }
    if (s->ip_summed == CHECKSUM_PARTIAL)   /* seen only when deferred: the pass sets COMPLETE */
        skb_csum_union_write(rp, layer, fn);
    rp_step(rp, layer, fn, W_DEFERRED, CSC_TRI_UNDECIDED, 0, &before);
    return 0;
}

/* __skb_checksum_validate (include/linux/skbuff.h): complete=false is
 * skb_checksum_init*, true skb_checksum_validate*. */
int __skb_checksum_validate(struct rp *rp, uint8_t layer, enum kfn fn, bool complete,
                            bool zero_okay, uint16_t check, uint32_t psum)
{
    rp->skb.csum_valid = false;
    if (__skb_checksum_validate_needed(rp, layer, fn, zero_okay, check))
        return __skb_checksum_validate_complete(rp, layer, fn, complete, psum);
    return 0;
}

/* skb_checksum_complete / udp_lib_checksum_complete / tcp_checksum_complete:
 * the deferred half of a validation (include/linux/skbuff.h). */
int skb_checksum_complete(struct rp *rp, uint8_t layer, enum kfn fn)
{
    if (skb_csum_unnecessary(rp))
        return 0;
    return __skb_checksum_complete(rp, layer, fn);
}

/* __skb_checksum_convert / skb_checksum_try_convert (include/linux/skbuff.h,
 * from v3.18, 2abb7cdc0dc8): a validated NONE becomes COMPLETE. */
void skb_checksum_try_convert(struct rp *rp, uint8_t layer, enum kfn fn, uint32_t psum)
{
    struct sk_buff_model *s = &rp->skb;
    if (!era(rp, CSC_E_HAS_CONVERSION))
        return;
    if (s->ip_summed != CHECKSUM_NONE || !s->csum_valid ||
        (era(rp, CSC_E_HAS_CSUM_BAD) && s->csum_bad))
        return;
    struct csc_skb_state before = rp_snap(rp);
    s->csum = ~psum;
    s->csum_known = true;
    s->ip_summed = CHECKSUM_COMPLETE;
    rp_step(rp, layer, fn, W_CONVERT, CSC_TRI_YES, 0, &before);
    if (layer < rp->r->nlayers)
        L(rp, layer)->k.normal_conv = 1;
}

/* skb_checksum_complete_unset (include/linux/skbuff.h) */
void skb_checksum_complete_unset(struct rp *rp)
{
    if (rp->skb.ip_summed == CHECKSUM_COMPLETE)
        rp->skb.ip_summed = CHECKSUM_NONE;
}

/* skb_postpull_rcsum (include/linux/skbuff.h): the pulled bytes leave the
 * COMPLETE sum; a pull past csum_start loses a PARTIAL. */
void skb_postpull_rcsum(struct rp *rp, uint32_t start, uint32_t len)
{
    struct sk_buff_model *s = &rp->skb;
    uint32_t sum;
    if (s->ip_summed == CHECKSUM_COMPLETE) {
        bool known = rp_region(rp, start, start + len, &sum);
        s->csum = csum_sub(s->csum, known ? sum : 0);
        s->csum_known = s->csum_known && known;
        rp->k->hdr_bytes += len;
    } else if (s->ip_summed == CHECKSUM_PARTIAL && era(rp, CSC_E_PARTIAL_START_RULE) &&
               s->csum_start < start + len) {
        struct csc_skb_state before = rp_snap(rp);
        s->ip_summed = CHECKSUM_NONE;   /* pulled past the offloaded checksum */
        rp_step(rp, CSC_NO_LAYER, KF_NONE, W_PARTIAL_LOST, CSC_TRI_UNDECIDED, 0, &before);
    }
}

void skb_pull_rcsum(struct rp *rp, uint32_t len)
{
    uint32_t start = rp->skb.data;
    rp->skb.data += len;
    skb_postpull_rcsum(rp, start, len);
}

/* pskb_trim_rcsum: cut link padding / bytes beyond a length field. */
void pskb_trim_rcsum(struct rp *rp, uint8_t layer, uint32_t new_tail)
{
    struct sk_buff_model *s = &rp->skb;
    if (new_tail >= s->tail)
        return;
    struct csc_skb_state before = rp_snap(rp);
    if (s->ip_summed == CHECKSUM_COMPLETE) {
        if (era(rp, CSC_E_PSKB_TRIM_KEEPS_COMPLETE)) {
            uint32_t sum;
            bool known = rp_region(rp, new_tail, s->tail, &sum);
            s->csum = csum_block_sub(s->csum, known ? sum : 0, new_tail - s->data);
            s->csum_known = s->csum_known && known;
            s->tail = new_tail;
            rp_step(rp, layer, KF_PSKB_TRIM_RCSUM, W_TRIM_KEEP, CSC_TRI_UNDECIDED, 0, &before);
            return;
        }
        s->ip_summed = CHECKSUM_NONE;
        rp_step(rp, layer, KF_PSKB_TRIM_RCSUM, W_TRIM_DOWNGRADE, CSC_TRI_UNDECIDED, 0, &before);
    }
    s->tail = new_tail;
}

/* remcsum_adjust (include/net/checksum.h): write the value that makes
 * [ptr+start, end) valid into ptr+offset, return the delta for the caller's
 * sum. */
uint32_t remcsum_adjust(struct rp *rp, uint32_t ptr, uint32_t csum, bool known, uint32_t start,
                        uint32_t offset)
{
    uint32_t prefix = 0;
    uint16_t old = 0;
    known = rp_region(rp, ptr, ptr + start, &prefix) && known;
    pkt_be16(&rp->p, (uint64_t)ptr + offset, &old);
    for (unsigned i = 0; i < rp->npatch; i++)
        if (rp->patch[i].off == ptr + offset)
            old = rp->patch[i].cur;
    uint16_t val = csum_fold(csum_sub(csum, prefix));
    uint32_t delta = csum_sub(csum_unfold(val), csum_unfold(old));
    if (known)
        rp_patch(rp, ptr + offset, old, val);
    return delta;
}

/* skb_remcsum_process (normal path) */
void skb_remcsum_process(struct rp *rp, uint8_t layer, enum kfn fn, uint32_t ptr, uint32_t start,
                         uint32_t offset, bool nopartial)
{
    struct sk_buff_model *s = &rp->skb;
    struct csc_skb_state before = rp_snap(rp);
    if (!nopartial) {                 /* skb_remcsum_adjust_partial */
        s->ip_summed = CHECKSUM_PARTIAL;
        s->csum_start = ptr + start;
        s->csum_offset = (uint16_t)(offset - start);
        rp_step(rp, layer, fn, W_REMCSUM_PARTIAL, CSC_TRI_UNDECIDED, 0, &before);
        return;
    }
    if (s->ip_summed != CHECKSUM_COMPLETE) {
        __skb_checksum_complete(rp, layer, fn);
        skb_postpull_rcsum(rp, s->data, ptr - s->data);
    }
    uint32_t delta = remcsum_adjust(rp, ptr, s->csum, s->csum_known, start, offset);
    s->csum = csum_add(s->csum, delta);
    rp_step(rp, layer, fn, W_REMCSUM_ADJUST, CSC_TRI_UNDECIDED, 0, &before);
}

uint32_t l4_pseudo(const struct rp *rp, const struct csc_layer *l)
{
    return rp->vals->layers[l - rp->r->layers].pseudo;   /* a value: from the result */
}
