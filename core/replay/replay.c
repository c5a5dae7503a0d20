/*
 * replay.c - csc_replay(): drive one frame through the NIC's GRO pass
 * (napi_gro_receive), the normal path (netif_receive_skb) and every tunnel
 * device after it (gro_cells_receive).
 */
#include "replay.h"

#include "../proto/protos.h"

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
            r->layers[i - 1].field == 0) {
            for (unsigned j = i + 1; j < r->nlayers; j++)
                if (r->layers[j].k.method == CSC_M_PARTIAL || r->layers[j].k.method == CSC_M_REMCSUM)
                    k->warnings |= CSC_W_RCO_NOTHING_VERIFIED;
        }
    }
}

void csc_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r)
{
    struct csc_kernel *k = &r->kernel;
    k->ran = 0;
    k->verdict = CSC_K_UNKNOWN;       /* until the replay runs: no IP layer, nothing to say */
    k->drop_layer = CSC_NO_LAYER;
    k->drop_reason = 0;
    k->counters = 0;
    k->warnings = 0;
    k->sw_passes = 0;
    k->ndevs = 0;
    k->nsteps = 0;
    k->last_layer = 0;
    k->trace_truncated = 0;
    k->sw_bytes = 0;
    k->hdr_bytes = 0;
    for (unsigned i = 0; i < r->nlayers; i++)
        memset(&r->layers[i].k, 0, sizeof r->layers[i].k);

    unsigned l0 = 0;
    while (l0 < r->nlayers && proto_has(r->layers[l0].proto, CSC_PF_LINK))   /* the NIC strips it */
        l0++;
    if (l0 >= r->nlayers)
        return;
    uint8_t p0 = r->layers[l0].proto;
    if (p0 != CSC_P_IPV4 && p0 != CSC_P_IPV6) {
        k->warnings |= CSC_W_NOT_MODELLED;
        return;
    }

    struct rp rp;
    memset(&rp, 0, sizeof rp);
    rp.cfg = cfg;
    rp.r = r;
    rp.k = k;
    rp.sw = cfg->era.sw;
    rp.p.data = f->data;
    rp.p.caplen = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    rp.p.wirelen = f->wirelen;
    rp.skb.data = r->layers[l0].off;
    rp.skb.tail = f->wirelen;
    rp.skb.csum_known = 1;            /* a fresh skb: csum 0 */
    rp.path = CSC_PATH_NORMAL;
    k->ran = 1;
    k->verdict = CSC_K_ACCEPT;

    rp_from_report(&rp, (uint8_t)l0);
    k->ndevs = 1;
    k->devs[0] = (struct csc_dev){ CSC_P_NONE, (uint8_t)l0, 0, CSC_G_OFF, (uint8_t)l0, rp_snap(&rp),
                                   0, 0, 0, 0 };
    rp_enter(&rp, (uint8_t)l0, KF_DRIVER);
    dev_gro_receive(&rp, (uint8_t)l0);
    netif_receive_skb(&rp, (uint8_t)l0);
    finish(&rp);
}
