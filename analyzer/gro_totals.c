/*
 * gro_totals.c - the GRO engine's totals (struct cli_gro_totals): taken
 * from a file's engine at the end of the file, merged into the run's
 * totals. The top flows keep a total order, so -j gives the same output.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

static int flow_cmp(const void *pa, const void *pb)
{
    const struct cli_gro_flow *a = pa, *b = pb;
    if (a->frames_in != b->frames_in)
        return a->frames_in > b->frames_in ? -1 : 1;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->id.first_frame != b->id.first_frame)
        return a->id.first_frame < b->id.first_frame ? -1 : 1;
    return (int)a->depth - (int)b->depth;
}

void gro_totals_init(struct cli_gro_totals *t)
{
    memset(t, 0, sizeof *t);
    t->top = g_new0(struct cli_gro_flow, CLI_TOP_FLOWS_MAX);
}

void gro_totals_free(struct cli_gro_totals *t)
{
    g_free(t->top);
    t->top = NULL;
}

static struct cli_gro_dev *dev_slot(struct cli_gro_totals *t, uint8_t kind, uint8_t depth)
{
    for (unsigned i = 0; i < CLI_GRO_DEVS; i++) {
        struct cli_gro_dev *d = &t->dev[i];
        if (d->used && d->kind == kind && d->depth == depth)
            return d;
        if (!d->used) {
            d->used = 1;
            d->kind = kind;
            d->depth = depth;
            return d;
        }
    }
    return NULL;
}

static void dev_add(struct cli_gro_dev *d, const struct cli_gro_dev *s)
{
    d->frames_in += s->frames_in;
    d->packets_out += s->packets_out;
    d->merged_frames += s->merged_frames;
    d->alone += s->alone;
    for (unsigned g = 0; g < CSC_G__COUNT; g++)
        d->refused[g] += s->refused[g];
    for (unsigned g = 0; g < CSC_GF__COUNT; g++)
        d->flushes[g] += s->flushes[g];
}

void gro_totals_merge(struct cli_gro_totals *into, const struct cli_gro_totals *t, unsigned top)
{
    for (unsigned i = 0; i < CLI_GRO_DEVS; i++) {
        if (!t->dev[i].used)
            continue;
        struct cli_gro_dev *d = dev_slot(into, t->dev[i].kind, t->dev[i].depth);
        if (d)
            dev_add(d, &t->dev[i]);
        else
            into->frames_unfollowed += t->dev[i].frames_in;   /* said, not lost */
    }
    into->frames += t->frames;
    into->frames_unfollowed += t->frames_unfollowed;
    into->passes_single += t->passes_single;
    into->bytes_single += t->bytes_single;
    into->passes_merged += t->passes_merged;
    into->bytes_merged += t->bytes_merged;
    into->tcp_flows += t->tcp_flows;
    into->other_frames += t->other_frames;
    into->flows_evicted += t->flows_evicted;
    /* top flows: best of both lists (a total order, so the merge order of
     * the files does not matter) */
    unsigned n = into->ntop + t->ntop;
    struct cli_gro_flow *all = g_new(struct cli_gro_flow, n ? n : 1);
    memcpy(all, into->top, into->ntop * sizeof *all);
    memcpy(all + into->ntop, t->top, t->ntop * sizeof *all);
    qsort(all, n, sizeof *all, flow_cmp);
    into->ntop = n < top ? n : top;
    memcpy(into->top, all, into->ntop * sizeof *all);
    g_free(all);
}

/* One file's engine under one run, its `top` best flows kept */
void file_gro_totals(const struct run_file *rf, unsigned file, unsigned top,
                     struct cli_gro_totals *t)
{
    const struct csc_gro *g = rf->gro;
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++) {
        const struct csc_gro_dev_stats *s = &g->dev[i];
        if (!s->used)
            continue;
        struct cli_gro_dev *d = dev_slot(t, s->kind, s->depth);
        if (!d)
            continue;
        struct cli_gro_dev x = { 1, s->kind, s->depth, s->frames_in, s->packets_out,
                                 s->merged_frames, s->alone, { 0 }, { 0 } };
        memcpy(x.refused, s->refused, sizeof x.refused);
        memcpy(x.flushes, s->flushes, sizeof x.flushes);
        dev_add(d, &x);
    }
    t->frames = g->frames;
    t->frames_unfollowed = g->frames_devs_full;
    t->passes_single = g->passes_single;
    t->bytes_single = g->bytes_single;
    t->passes_merged = g->passes_merged;
    t->bytes_merged = g->bytes_merged;
    t->tcp_flows = rf->tcp_flows;
    t->other_frames = rf->other_frames;
    t->flows_evicted = g->flows_evicted;
    t->ntop = 0;
    for (unsigned i = 0; i < CSC_GRO_FLOWS && top; i++) {
        const struct csc_gro_flow_stats *fs = &g->flow[i];
        if (!fs->used || !rf->fid[i].tcp || fs->dev >= CSC_GRO_DEVS)
            continue;
        struct cli_gro_flow *fl = &t->top[t->ntop++];
        fl->file = file;
        fl->kind = g->dev[fs->dev].kind;
        fl->depth = g->dev[fs->dev].depth;
        fl->id = rf->fid[i];
        fl->frames_in = fs->frames_in;
        fl->packets_out = fs->packets_out;
        fl->merged_frames = fs->merged_frames;
        memcpy(fl->flushes, fs->flushes, sizeof fl->flushes);
    }
    qsort(t->top, t->ntop, sizeof *t->top, flow_cmp);
    if (t->ntop > top)
        t->ntop = top;
}
