/*
 * gro_totals.c - the GRO engine's totals (struct cli_gro_totals): taken
 * from a file's engine at the end of the file, merged into the run's
 * totals. The top flows keep a total order, so -j gives the same output.
 */
#include "gro_totals.h"

#include "wbuf.h"

#include <arpa/inet.h>
#include <glib.h>
#include <stdio.h>

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
    unsigned i = 0;   /* the device's slot, else the first unused one */
    while (i < CLI_GRO_DEVS && t->dev[i].used && (t->dev[i].kind != kind || t->dev[i].depth != depth))
        i++;
    if (i == CLI_GRO_DEVS)
        return NULL;
    if (!t->dev[i].used)
        t->dev[i] = (struct cli_gro_dev){ .used = 1, .kind = kind, .depth = depth };
    return &t->dev[i];
}

static void dev_add(struct cli_gro_dev *d, const struct cli_gro_dev *s)
{
    d->frames_in += s->frames_in;
    d->packets_out += s->packets_out;
    d->merged_frames += s->merged_frames;
    d->alone += s->alone;
    d->order_dep += s->order_dep;
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

/* One file's engine under one run (fid[]: what names each flow slot's
 * flow), its `top` best flows kept */
void gro_totals_of_engine(const struct csc_gro *g, const struct cli_flow_id *fid, uint64_t tcp_flows,
                          uint64_t other_frames, unsigned file, unsigned top, struct cli_gro_totals *t)
{
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++) {
        const struct csc_gro_dev_stats *s = &g->dev[i];
        if (!s->used)
            continue;
        struct cli_gro_dev *d = dev_slot(t, s->kind, s->depth);
        if (!d)
            continue;
        struct cli_gro_dev x = { 1, s->kind, s->depth, s->frames_in, s->packets_out,
                                 s->merged_frames, s->alone, s->order_dep, { 0 }, { 0 } };
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
    t->tcp_flows = tcp_flows;
    t->other_frames = other_frames;
    t->flows_evicted = g->flows_evicted;
    t->ntop = 0;
    for (unsigned i = 0; i < CSC_GRO_FLOWS && top; i++) {
        const struct csc_gro_flow_stats *fs = &g->flow[i];
        if (!fs->used || !fid[i].tcp || fs->dev >= CSC_GRO_DEVS)
            continue;
        struct cli_gro_flow *fl = &t->top[t->ntop++];
        fl->file = file;
        fl->kind = g->dev[fs->dev].kind;
        fl->depth = g->dev[fs->dev].depth;
        fl->id = fid[i];
        fl->frames_in = fs->frames_in;
        fl->packets_out = fs->packets_out;
        fl->merged_frames = fs->merged_frames;
        memcpy(fl->flushes, fs->flushes, sizeof fl->flushes);
    }
    qsort(t->top, t->ntop, sizeof *t->top, flow_cmp);
    if (t->ntop > top)
        t->ntop = top;
}

/* ---- words: devices and flows ---------------------------------------- */

/* Devices in output order: by depth, then kind */
unsigned sorted_devs(const struct cli_gro_totals *t, const struct cli_gro_dev **out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < CLI_GRO_DEVS; i++)
        if (t->dev[i].used)
            out[n++] = &t->dev[i];
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0; j--) {
            const struct cli_gro_dev *a = out[j - 1], *b = out[j];
            if (a->depth < b->depth || (a->depth == b->depth && a->kind <= b->kind))
                break;
            out[j - 1] = b;
            out[j] = a;
        }
    return n;
}

/* "vxlan", or "vxlan@2" when another device of that kind is at another depth */
void dev_label(char *buf, size_t n, const struct cli_gro_totals *t, uint8_t kind, uint8_t depth)
{
    bool dup = false;
    for (unsigned i = 0; i < CLI_GRO_DEVS; i++)
        if (t->dev[i].used && t->dev[i].kind == kind && t->dev[i].depth != depth)
            dup = true;
    if (dup)
        snprintf(buf, n, "%s@%u", csc_dev_name(kind), depth);
    else
        snprintf(buf, n, "%s", csc_dev_name(kind));
}

double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

void endpoint_addr(char *buf, size_t n, const struct cli_endpoint *e, bool src)
{
    const uint8_t *x = src ? e->src : e->dst;
    if (e->family == CLI_FAMILY_IPV4)
        snprintf(buf, n, "%u.%u.%u.%u", x[0], x[1], x[2], x[3]);
    else if (!inet_ntop(AF_INET6, x, buf, (socklen_t)n))
        snprintf(buf, n, "?");
}

/* "10.0.0.1:40000" or "[2001:db8::1]:40000" */
static void addr_words(struct wbuf *w, const struct cli_endpoint *e, bool src)
{
    char a[64];
    if (e->family == CLI_FAMILY_IPV4) {
        endpoint_addr(a, sizeof a, e, src);
    } else if (!inet_ntop(AF_INET6, src ? e->src : e->dst, a + 1, sizeof a - 2)) {
        snprintf(a, sizeof a, "?");
    } else {
        a[0] = '[';
        size_t l = strlen(a);
        a[l] = ']';
        a[l + 1] = 0;
    }
    wb_puts(w, a);
    if (e->l4) {
        wb_putc(w, ':');
        wb_u64(w, src ? e->sport : e->dport);
    }
}

static void endpoint_words(struct wbuf *w, const struct cli_endpoint *e)
{
    wb_puts(w, e->l4 ? csc_proto_name(e->l4) : "ip");
    wb_putc(w, ' ');
    addr_words(w, e, true);
    wb_puts(w, " > ");
    addr_words(w, e, false);
}

/* A VNI (VXLAN, VXLAN-GPE, GENEVE: CSC_PF_VNI); a GRE key when set */
bool tunnel_has_id(const struct cli_flow_id *id)
{
    return (csc_proto_desc(id->tunnel)->flags & CSC_PF_VNI) ||
           (id->tunnel == CSC_P_GRE && id->tunnel_id);
}

void gro_flow_label(struct wbuf *w, const struct cli_flow_id *id)
{
    bool any = false;
    if (id->outer.family) {
        endpoint_words(w, &id->outer);
        any = true;
    }
    if (id->tunnel) {
        wb_puts(w, any ? ", " : "");
        wb_puts(w, csc_proto_name(id->tunnel));
        if (tunnel_has_id(id)) {
            wb_putc(w, ' ');
            wb_u64(w, id->tunnel_id);
        }
        any = true;
    }
    if (id->inner.family) {
        wb_puts(w, any ? ", " : "");
        endpoint_words(w, &id->inner);
        any = true;
    }
    if (!any)
        wb_puts(w, "-");
}
