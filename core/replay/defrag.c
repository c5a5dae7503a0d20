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
void ip_frag_queue(struct rp *rp, uint8_t i)
{
    const struct csc_layer *ip = L(rp, i);
    bool v6 = ip->proto == CSC_P_IPV6, more;
    enum kfn fn = v6 ? KF_IPV6_FRAG_RCV : KF_IP_DEFRAG;
    uint32_t offset, end;
    frag_place(ip, &offset, &end, &more);
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
    rp->done = 1;
}
