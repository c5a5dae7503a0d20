/*
 * trace.c - the replay's record: steps, per-layer results, drops, counters.
 */
#include "replay.h"

#include <string.h>

void rp_record(struct rp *rp, uint8_t layer, enum kfn fn, unsigned what, enum csc_tri ok,
               uint32_t bytes, const struct csc_skb_state *before)
{
    struct csc_kernel *k = rp->k;
    if (k->nsteps >= CSC_MAX_STEPS) {
        k->trace_truncated = 1;
        return;
    }
    struct csc_step *s = &k->steps[k->nsteps++];
    s->dev = rp->dev;
    s->path = rp->path;
    s->layer = layer;
    s->fn = (uint8_t)fn;
    s->what = (uint8_t)what;
    s->ok = (uint8_t)ok;
    s->pad = 0;
    s->bytes = bytes;
    s->after = rp_snap(rp);
    s->before = before ? *before : s->after;
    s->cb = (struct csc_cb_state){ rp->cb.csum_cnt, rp->cb.csum_valid, rp->cb.flush,
                                   rp->cb.encap_mark };
}

void rp_amend_last(struct rp *rp)
{
    struct csc_kernel *k = rp->k;
    if (!rp->cfg->trace_steps || !k->nsteps || k->trace_truncated)
        return;
    struct csc_step *s = &k->steps[k->nsteps - 1];
    s->after = rp_snap(rp);
    s->cb = (struct csc_cb_state){ rp->cb.csum_cnt, rp->cb.csum_valid, rp->cb.flush,
                                   rp->cb.encap_mark };
}

/* The first validation of a layer is its summary, unless the normal path
 * later had to spend work or failed (GRO failures are not final: the
 * normal path re-validates); the full story is in the steps. */
void rp_layer_result(struct rp *rp, uint8_t layer, enum csc_method m, bool ok, uint32_t pass_bytes)
{
    if (layer >= rp->r->nlayers)
        return;
    struct csc_layer_kernel *lk = &L(rp, layer)->k;
    if (pass_bytes) {
        lk->passes++;
        lk->pass_bytes += pass_bytes;
    }
    bool decided = lk->method != CSC_M_NOT_REACHED;
    bool override = rp->path == CSC_PATH_NORMAL &&
                    (!ok || lk->ok != CSC_TRI_YES || m == CSC_M_SW_PASS || m == CSC_M_CSUM_BAD);
    if (decided && !override)
        return;
    lk->method = (uint8_t)m;
    lk->path = rp->path;
    lk->dev = rp->dev;
    lk->ok = ok ? CSC_TRI_YES : CSC_TRI_NO;
}

void rp_count_pass(struct rp *rp, uint32_t bytes)
{
    struct csc_kernel *k = rp->k;
    struct csc_dev *d = &k->devs[rp->dev];
    k->sw_passes++;
    k->sw_bytes += bytes;
    d->passes++;
    d->pass_bytes += bytes;
    if (rp->path == CSC_PATH_GRO) {
        d->gro_passes++;
        d->gro_pass_bytes += bytes;
    }
}

void rp_drop(struct rp *rp, uint8_t layer, enum kfn fn, enum kdrop why, uint32_t counters)
{
    struct csc_kernel *k = rp->k;
    k->verdict = CSC_K_DROP;
    k->drop_layer = layer;
    k->drop_reason = (uint8_t)why;
    k->counters |= counters;
    rp->done = true;
    rp_step(rp, layer, fn, W_DROP, CSC_TRI_NO, 0, NULL);
}

void rp_count(struct rp *rp, uint8_t layer, enum kfn fn, unsigned what, uint32_t counters)
{
    rp->k->counters |= counters;
    rp_step(rp, layer, fn, what, CSC_TRI_NO, 0, NULL);
}

void rp_unknown(struct rp *rp, uint8_t layer, enum kfn fn)
{
    rp->k->verdict = CSC_K_UNKNOWN;
    rp->k->warnings |= CSC_W_NOT_MODELLED;
    rp_step(rp, layer, fn, W_NOT_MODELLED, CSC_TRI_UNDECIDED, 0, NULL);
    rp->done = true;
}
