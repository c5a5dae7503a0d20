/*
 * defrag.c - a fragment at ip_defrag / ipv6_frag_rcv: the checks of
 * ip_frag_queue (net/ipv4/ip_fragment.c) and ip6_frag_queue
 * (net/ipv6/reassembly.c) before the fragment joins its queue (read at
 * v6.12; the same in Debian's 6.1.192). What the queue makes of the
 * fragments together is core/frag.c's.
 */
#include "replay.h"

/* The fragment's place in its datagram: [offset, end) of the payload after
 * the decoded header (IPv6: the fragment header and any extension header
 * after it, each a multiple of 8: end & 7 is the kernel's), and MF. */
static void frag_place(const struct csc_layer *ip, uint32_t *offset, uint32_t *end, bool *more)
{
    uint16_t fo = ip->u.ip.frag_off;
    uint32_t pay = ip->off + ip->hdr_len, len = ip->end > pay ? ip->end - pay : 0;
    if (ip->proto == CSC_P_IPV4) {
        *offset = (uint32_t)(fo & IP_OFFSET) * IP_FRAG_UNIT;
        *more = fo & IP_MF;
    } else {
        *offset = (uint32_t)(fo >> IP6_OFFSET_SHIFT) * IP_FRAG_UNIT;
        *more = fo & IP6_MF;
    }
    *end = *offset + len;
}

/* ip_frag_queue / ip6_frag_queue (v6.12) up to inet_frag_queue_insert:
 *  - a fragment that is not the last must end on a multiple of 8. IPv4
 *    rounds its end down (`end &= ~7`, the bytes after it trimmed) and
 *    makes anything but CHECKSUM_UNNECESSARY CHECKSUM_NONE; IPv6 refuses
 *    it: ip6_frag_queue sets prob_offset, ipv6_frag_rcv counts
 *    Ip6InHdrErrors and sends a parameter problem (icmpv6_param_prob frees
 *    the skb; the queue lives on);
 *  - a fragment left with no payload (end == offset) goes to
 *    discard_qp / discard_fq: the queue is killed, ReasmFails (not among
 *    the model's counters), the skb freed.
 * Anything else is queued: the frame's verdict is unknown, the datagram's
 * is core/frag.c's. */
/* ipv6_frag_rcv (net/ipv6/reassembly.c, v6.12 = 6.1.192 = 5.10) before the
 * queue: a first fragment (offset 0) must hold the upper-layer header's fixed
 * part after the headers ipv6_skip_exthdr walks (ipv6frag_thdr_truncated:
 * TCP 20, UDP 8, ICMPv6 8, anything else 1 byte); then ip6_frag_queue refuses
 * a fragment whose end passes IPV6_MAXPLEN. Both: Ip6InHdrErrors, a
 * parameter problem. The kernel's end counts the headers after the fragment
 * header as payload, the model's does not (frag_place): where they could
 * fall on both sides of 65535 the model says unknown. False: dropped (or
 * unknown). */
static bool ipv6_frag_checks(struct rp *rp, uint8_t i, uint32_t offset, uint32_t end)
{
    const struct csc_layer *ip = L(rp, i);
    uint32_t pay = ip->off + ip->hdr_len;
    enum kdrop why = KD_NONE;
    if (offset == 0) {
        uint32_t need = ip->next == IPPROTO_TCP_ ? TCP_HLEN
                        : ip->next == IPPROTO_UDP_ || ip->next == IPPROTO_ICMPV6_ ? 8u : 1u;
        if (ip->next == IPPROTO_AH_) {         /* ipv6_skip_exthdr walks past AH, the decoder not */
            rp_unknown(rp, i, KF_IPV6_FRAG_RCV);
            return false;
        }
        if (pay + need > ip->end)
            why = KD_FRAG_HDR_INCOMPLETE;
    }
    if (why == KD_NONE && end > IPV6_MAXPLEN_) {
        why = KD_FRAG_TOO_FAR;
    } else if (why == KD_NONE && ip->hdr_len > IPV6_HLEN + 8u &&
               offset + (ip->end - ip->off - IPV6_HLEN - 8u) > IPV6_MAXPLEN_) {
        rp_unknown(rp, i, KF_IPV6_FRAG_RCV);   /* headers after the fragment header decide */
        return false;
    }
    if (why == KD_NONE)
        return true;
    rp_enter(rp, i, KF_IPV6_FRAG_RCV);
    rp_drop(rp, i, KF_IPV6_FRAG_RCV, why, CNT(CSC_C_IP6_IN_HDR_ERRORS));
    return false;
}

void ip_frag_queue(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    bool v6 = ip->proto == CSC_P_IPV6, more;
    enum kfn fn = v6 ? KF_IPV6_FRAG_RCV : KF_IP_DEFRAG;
    uint32_t offset, end;
    frag_place(ip, &offset, &end, &more);
    if (v6 && !ipv6_frag_checks(rp, i, offset, end))
        return;
    if (more && (end & 7u)) {
        if (v6) {
            rp_enter(rp, i, fn);
            rp_drop(rp, i, fn, KD_FRAG_NOT_ROUNDED, CNT(CSC_C_IP6_IN_HDR_ERRORS));
            return;
        }
        end &= ~7u;
        if (rp->skb.ip_summed != CHECKSUM_UNNECESSARY) {
            struct csc_skb_state before = rp_snap(rp);
            rp->skb.ip_summed = CHECKSUM_NONE;
            rp_step(rp, i, fn, W_TRIM_DOWNGRADE, CSC_TRI_UNDECIDED, 0, &before);
        }
    }
    if (end == offset) {
        rp_drop(rp, i, fn, KD_FRAG_EMPTY, 0);
        return;
    }
    rp->k->verdict = CSC_K_UNKNOWN;
    rp_step(rp, i, KF_IP_DEFRAG, W_QUEUED, CSC_TRI_UNDECIDED, 0, NULL);
    rp->done = true;
}
