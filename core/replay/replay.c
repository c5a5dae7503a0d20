/*
 * replay.c - csc_replay(): drive one frame through the NIC's GRO pass
 * (napi_gro_receive), the normal path (netif_receive_skb) and every tunnel
 * device after it (gro_cells_receive).
 */
#include "replay.h"

#include "../proto/protos.h"
#include "../values.h"

#include <stddef.h>
#include <string.h>


static void finish(struct rp *rp)
{
    struct csc_kernel *k = rp->k;
    struct csc_result *r = rp->r;
    if (k->verdict != CSC_K_ACCEPT)
        return;
    for (unsigned i = 0; i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->verdict == CSC_V_BAD && l->k.method != CSC_M_NOT_REACHED)
            k->warnings |= CSC_W_GARBAGE_ACCEPTED;
        /* RCO with a zero outer checksum: the inner checksum was taken on
         * trust and nothing protected it (docs/rco-lco.md). */
        if ((l->notes & CSC_N_RCO) && i > 0 && r->layers[i - 1].proto == CSC_P_UDP &&
            rp_field(rp, &r->layers[i - 1]) == 0) {
            for (unsigned j = i + 1; j < r->nlayers; j++)
                if (r->layers[j].k.method == CSC_M_PARTIAL || r->layers[j].k.method == CSC_M_REMCSUM)
                    k->warnings |= CSC_W_RCO_NOTHING_VERIFIED;
        }
    }
}

/* The outcome before anything ran: no IP layer, nothing to say. */
static void kernel_reset(struct csc_result *r)
{
    struct csc_kernel *k = &r->kernel;
    /* (rp_input gave the input's layers a blank kernel part) */
    memset(k, 0, offsetof(struct csc_kernel, devs));   /* devs[], steps[]: as far as ndevs, nsteps say */
    k->verdict = CSC_K_UNKNOWN;
    k->drop_layer = CSC_NO_LAYER;
    k->reasm_dev = CSC_NO_DEV;
    for (unsigned i = 0; i < r->nlayers; i++)
        memset(&r->layers[i].k, 0, sizeof r->layers[i].k);
}

/* A frame the host sent is not received: it has a TX view instead (tx.c) */
static bool sent_not_replayed(const struct csc_config *cfg, const struct csc_result *r)
{
    return r->direction == CSC_DIR_OUT && !cfg->replay_sent;
}

size_t rp_input(const struct csc_result *r, struct csc_result *in)
{
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    memcpy(in, r, offsetof(struct csc_result, layers));   /* the head (csc_decode zeroed its padding) */
    for (unsigned i = 0; i < n; i++)
        value_blank(&in->layers[i], &r->layers[i], r->values[i]);
    return offsetof(struct csc_result, layers) + n * sizeof in->layers[0];
}

/* The layers' kernel parts, from the input the replay wrote them in */
static void copy_out(struct csc_result *r, const struct csc_result *in)
{
    for (unsigned i = 0; i < r->nlayers && i < CSC_MAX_LAYERS; i++)
        r->layers[i].k = in->layers[i].k;
}

/* The replay of frame f from its layer l0 (an IP header) on: its input in,
 * its result r */
static void rp_init(struct rp *rp, const struct csc_config *cfg, const struct csc_frame *f,
                    struct csc_result *r, struct csc_result *in, unsigned l0, struct csc_rec *rec)
{
    memset(rp, 0, sizeof *rp);
    rp->cfg = cfg;
    rp->r = in;
    rp->vals = r;
    rp->k = &r->kernel;
    rp->sw = cfg->era.sw;
    rp->p = pkt_of(f, rec);
    rp->skb.data = in->layers[l0].off;
    rp->skb.tail = f->wirelen;
    rp->skb.csum_known = true;        /* a fresh skb: csum 0 */
    rp->path = CSC_PATH_NORMAL;
    rp->k->ran = 1;
    rp->k->verdict = CSC_K_ACCEPT;
}

void csc_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r)
{
    struct csc_result in;
    rp_input(r, &in);
    rp_replay(cfg, f, r, &in, NULL);
}

/* A frame of one Ethernet header whose IP header the decoder refused: the
 * driver's eth_type_trans, then ip_rcv_core's checks (rx.c); otherwise the
 * outcome stays unknown */
static void ip_hdr_refused(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r,
                           struct csc_result *in, struct csc_rec *rec)
{
    if (in->nlayers != 1 || in->layers[0].proto != CSC_P_ETH)
        return;
    struct rp rp;
    rp_init(&rp, cfg, f, r, in, 0, rec);
    eth_type_trans_nic(&rp);
    r->kernel.ndevs = 1;
    r->kernel.devs[0] = (struct csc_dev){ CSC_P_NONE, 0, 0, CSC_G_OFF, 0, rp_snap(&rp), 0, 0, 0, 0 };
    rp_enter(&rp, 0, KF_DRIVER);
    if (!ip_rcv_core_refused(&rp, 0)) {
        kernel_reset(r);
        return;
    }
    finish(&rp);
    copy_out(r, in);
}

void rp_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r,
               struct csc_result *in, struct csc_rec *rec)
{
    struct csc_kernel *k = &r->kernel;
    kernel_reset(r);
    if (sent_not_replayed(cfg, in)) {
        k->verdict = CSC_K_SENT;
        return;
    }
    unsigned l0 = 0;
    while (l0 < in->nlayers && proto_has(in->layers[l0].proto, CSC_PF_LINK))   /* the NIC strips it */
        l0++;
    if (l0 >= in->nlayers) {
        ip_hdr_refused(cfg, f, r, in, rec);
        return;
    }
    uint8_t p0 = in->layers[l0].proto;
    if (p0 != CSC_P_IPV4 && p0 != CSC_P_IPV6 && p0 != CSC_P_MACSEC) {
        k->warnings |= CSC_W_NOT_MODELLED;
        return;
    }

    struct rp rp;
    rp_init(&rp, cfg, f, r, in, l0, rec);
    rp_from_report(&rp, (uint8_t)l0);
    eth_type_trans_nic(&rp);
    k->ndevs = 1;
    k->devs[0] = (struct csc_dev){ CSC_P_NONE, (uint8_t)l0, 0, CSC_G_OFF, (uint8_t)l0, rp_snap(&rp),
                                   0, 0, 0, 0 };
    rp_enter(&rp, (uint8_t)l0, KF_DRIVER);
    if (p0 == CSC_P_MACSEC) {
        macsec_handle_frame(&rp, (uint8_t)l0);   /* the real device's rx_handler (rx.c) */
    } else {
        dev_gro_receive(&rp, (uint8_t)l0);
        netif_receive_skb(&rp, (uint8_t)l0);
    }
    finish(&rp);
    copy_out(r, in);
}

/* inet_frag_reasm_finish (net/ipv4/inet_fragment.c, v6.12): the reassembled
 * skb is the head's (the offset-0 fragment's), and keeps its ip_summed when
 * every fragment had the same, CHECKSUM_NONE otherwise (the caller says
 * which). COMPLETE: the fragments' sums added, which is the sum over the
 * rebuilt packet from its IP header (the other fragments' IPv4 headers sum
 * to zero; ip6_frag_queue subtracts the IPv6 ones and ip6_frag_reasm
 * postpushes the head's). A CHECKSUM_PARTIAL skb is never fragmented
 * (ip_do_fragment resolves it first), so it does not come here. */
static void inet_frag_reasm_finish(struct rp *rp, uint8_t ip, uint8_t ip_summed, uint8_t level)
{
    struct sk_buff_model *s = &rp->skb;
    struct csc_skb_state before = rp_snap(rp);
    uint32_t sum = 0;
    s->ip_summed = CHECKSUM_NONE;
    if (ip_summed == CHECKSUM_UNNECESSARY) {
        s->ip_summed = CHECKSUM_UNNECESSARY;
        s->csum_level = level;
    } else if (ip_summed == CHECKSUM_COMPLETE) {
        s->ip_summed = CHECKSUM_COMPLETE;
        s->csum_known = rp_region(rp, s->data, s->tail, &sum);
        s->csum = s->csum_known ? sum : 0;
    }
    enum kfn fn = L(rp, ip)->proto == CSC_P_IPV6 ? KF_IPV6_FRAG_RCV : KF_IP_DEFRAG;
    rp_step(rp, ip, fn, W_REASSEMBLED, CSC_TRI_YES, 0, &before);
}

/* The reassembled datagram goes on where the kernel hands it on: IPv4 from
 * ip_defrag in ip_local_deliver (ip_rcv_core ran on every fragment), IPv6
 * from ipv6_frag_rcv back into ip6_protocol_deliver_rcu. No GRO at the NIC
 * (inet_gro_receive / ipv6_gro_receive flush every fragment, and the
 * reassembled skb does not come back through napi_gro_receive); a tunnel
 * device further in still runs its own (gro_cells_receive). */
void csc_replay_reassembled(const struct csc_config *cfg, const struct csc_frame *f,
                            struct csc_result *r, uint8_t ip_summed, uint8_t csum_level)
{
    struct csc_kernel *k = &r->kernel;
    kernel_reset(r);
    if (sent_not_replayed(cfg, r)) {
        k->verdict = CSC_K_SENT;
        return;
    }
    if (r->nlayers == 0 || (r->layers[0].proto != CSC_P_IPV4 && r->layers[0].proto != CSC_P_IPV6))
        return;
    struct csc_result in;
    rp_input(r, &in);
    struct rp rp;
    rp_init(&rp, cfg, f, r, &in, 0, NULL);
    k->ndevs = 1;
    k->devs[0] = (struct csc_dev){ CSC_P_NONE, 0, 0, CSC_G_IP_FRAGMENT, 0, rp_snap(&rp),
                                   0, 0, 0, 0 };
    inet_frag_reasm_finish(&rp, 0, ip_summed, csum_level);
    if (r->layers[0].proto == CSC_P_IPV4)
        ip_local_deliver_finish(&rp, 0);
    else
        ip6_protocol_deliver_rcu(&rp, 0);
    finish(&rp);
    copy_out(r, &in);
}
