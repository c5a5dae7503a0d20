/*
 * frame-record.c - csc_result -> struct pl_frame, the per-frame record (see frame-record.h).
 */
#include "frame-record.h"

#include <string.h>

#define ALIGN4(x) (((x) + 3u) & ~(size_t)3u)

static unsigned count_ck(const struct csc_result *r)
{
    unsigned n = 0;
    for (unsigned i = 0; i < r->nlayers; i++)
        if (r->layers[i].verdict != CSC_V_NA)
            n++;
    return n;
}

static unsigned count_devs(const struct csc_result *r)
{
    if (!r->kernel.ran)
        return 0;
    return r->kernel.ndevs < CSC_MAX_DEVS ? r->kernel.ndevs : CSC_MAX_DEVS;
}

struct layout {
    size_t ck_at, dev_at, fate_at, stop_at, total;
};

static struct layout layout(const struct csc_result *r)
{
    struct layout l;
    l.ck_at = ALIGN4(sizeof(struct pl_frame) + r->nlayers);
    l.dev_at = l.ck_at + count_ck(r) * sizeof(struct pl_layer);
    l.fate_at = l.dev_at + count_devs(r) * sizeof(struct pl_dev);
    l.stop_at = ALIGN4(l.fate_at + count_devs(r) * sizeof(struct pl_fate));
    l.total = r->stop != CSC_STOP_END ? l.stop_at + sizeof(struct csc_stop_info) : l.stop_at;
    if (r->stop == CSC_STOP_END)
        l.stop_at = 0;
    return l;
}

size_t pl_summary_size(const struct csc_result *r)
{
    return layout(r).total;
}

void pl_summarize(const struct csc_result *r, struct pl_frame *s)
{
    struct layout lo = layout(r);
    size_t ck_at = lo.ck_at, dev_at = lo.dev_at, total = lo.total;
    memset(s, 0, total);
    const struct csc_kernel *k = &r->kernel;

    s->nlayers = r->nlayers;
    s->worst = r->worst;
    for (unsigned i = 0; i < r->nlayers; i++)
        if (r->layers[i].notes & CSC_N_L2SPEC_GUESSED)
            s->l2spec_guessed = (uint8_t)(1 + r->layers[i].u.l2tp.l2spec);
    s->stop = r->stop;
    s->stop_at = (uint32_t)lo.stop_at;
    if (lo.stop_at)
        csc_stop_get(r, (struct csc_stop_info *)(void *)((uint8_t *)s + lo.stop_at));
    s->gso_segs = r->gso_segs;
    s->gso_segs_known = r->gso_segs_known;
    s->ran = k->ran;
    s->kverdict = k->verdict;
    s->drop_layer = k->drop_layer;
    s->drop_reason = k->drop_reason;
    s->counters = k->counters;
    s->warnings = k->warnings;
    s->sw_passes = k->sw_passes;
    s->sw_bytes = k->sw_bytes;
    s->hdr_bytes = k->hdr_bytes;
    s->ck_at = (uint32_t)ck_at;
    s->dev_at = (uint32_t)dev_at;
    s->fate_at = (uint32_t)lo.fate_at;

    for (unsigned i = 0; i < r->nlayers; i++)
        s->tail[i] = r->layers[i].proto;

    struct pl_layer *ck = (struct pl_layer *)(void *)((uint8_t *)s + ck_at);
    unsigned n = 0;
    for (unsigned i = 0; i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->verdict == CSC_V_NA)
            continue;
        struct pl_layer *p = &ck[n++];
        p->off = l->off;
        p->csum_off = l->csum_off;
        p->notes = l->notes;
        p->pass_bytes = l->k.pass_bytes;
        p->field = l->field;
        p->expected = l->expected;
        p->resolved = l->resolved;
        p->rco_delta = l->rco_delta;
        p->index = (uint8_t)i;
        p->proto = l->proto;
        p->verdict = l->verdict;
        p->reason = l->reason;
        p->method = l->k.method;
        p->dev = l->k.dev;
        p->passes = l->k.passes;
        p->flags = (uint8_t)((l->k.gro_conv ? PL_F_GRO_CONV : 0) |
                             (l->k.normal_conv ? PL_F_NORMAL_CONV : 0) |
                             (l->k.assumed ? PL_F_ASSUMED : 0) |
                             (unsigned)(l->k.path & 3u) << PL_F_PATH_SHIFT |
                             (unsigned)(l->k.ok & 3u) << PL_F_OK_SHIFT);
        for (unsigned e = 0; r->tx.sent && !k->ran && e < r->tx.n && e < CSC_TX_MAX; e++)
            if (r->tx.c[e].layer == i) {
                p->tx_kind = r->tx.c[e].kind;
                p->tx_wire = r->tx.c[e].wire;
                p->tx_wire_known = r->tx.c[e].wire_known;
            }
    }
    s->nck = (uint8_t)n;

    struct pl_dev *dv = (struct pl_dev *)(void *)((uint8_t *)s + dev_at);
    unsigned nd = count_devs(r);
    for (unsigned i = 0; i < nd; i++) {
        const struct csc_dev *d = &k->devs[i];
        dv[i] = (struct pl_dev){ .gro_pass_bytes = d->gro_pass_bytes, .pass_bytes = d->pass_bytes,
                                 .kind = d->kind, .layer = d->layer, .gro_ran = d->gro_ran,
                                 .gro_reason = d->gro_reason, .gro_layer = d->gro_layer,
                                 .ip_summed = d->entry.ip_summed, .csum_level = d->entry.csum_level,
                                 .csum_valid = d->entry.csum_valid, .csum_bad = d->entry.csum_bad,
                                 .gro_passes = d->gro_passes, .passes = d->passes };
    }
    s->ndevs = (uint8_t)nd;
}

void pl_set_fates(struct pl_frame *s, const struct csc_gro_decision *d, uint32_t frame)
{
    struct pl_fate *out = pl_fates_mut(s);
    unsigned n = d->n < s->ndevs ? d->n : s->ndevs;
    for (unsigned i = 0; i < n; i++) {
        const struct csc_gro_fate *f = &d->fate[i];
        out[i] = (struct pl_fate){ .super = f->held ? (uint32_t)f->super : 0,
                                   .segs = f->held && !f->merged && f->super == frame ? 1 : 0,
                                   .kind = f->kind, .held = f->held, .merged = f->merged,
                                   .alone_reason = f->alone_reason, .flushed = f->flushed_other,
                                   .order_dep = f->order_dep };
    }
    s->nfate = (uint8_t)n;
}

const struct csc_stop_info *pl_stop(const struct pl_frame *s)
{
    static const struct csc_stop_info end = { .reason = CSC_STOP_END, .layer = CSC_NO_LAYER };
    return s->stop_at ? (const struct csc_stop_info *)(const void *)((const uint8_t *)s + s->stop_at)
                      : &end;
}

uint8_t pl_frame_gro(const struct pl_frame *s, uint8_t *dev)
{
    const struct pl_dev *d = pl_devs(s);
    int held = -1;
    for (unsigned i = 0; i < s->ndevs; i++) {
        if (!d[i].gro_ran)
            continue;
        if (d[i].gro_reason != CSC_G_NONE) {
            *dev = (uint8_t)i;
            return d[i].gro_reason;
        }
        if (held < 0)
            held = (int)i;
    }
    if (held >= 0) {
        *dev = (uint8_t)held;
        return CSC_G_NONE;
    }
    if (s->ndevs) {
        *dev = 0;
        return d[0].gro_reason;
    }
    *dev = CSC_NO_DEV;
    return CSC_G_OFF;
}
