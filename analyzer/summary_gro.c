/*
 * summary_gro.c - the GRO engine section of a run's summary: devices,
 * refusals, flushes, software checksum passes before and after merging,
 * the top flows (text, and the "gro" object of the JSON summary).
 */
#include "summary.h"

#include <arpa/inet.h>
#include <string.h>

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

static void addr_words(struct wbuf *w, const struct cli_endpoint *e, bool src)
{
    char a[64];
    const uint8_t *x = src ? e->src : e->dst;
    if (e->family == CLI_FAMILY_IPV4)
        snprintf(a, sizeof a, "%u.%u.%u.%u", x[0], x[1], x[2], x[3]);
    else if (!inet_ntop(AF_INET6, x, a + 1, sizeof a - 2))
        snprintf(a, sizeof a, "?");
    else {
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
static bool tunnel_has_id(const struct cli_flow_id *id)
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

static const char *job_name(const struct cli_opts *o, unsigned file)
{
    return file < o->njobv ? o->jobv[file].path : "?";
}

void gro_text(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_gro_totals *t = &run->gro;
    const struct csc_gro_cfg *gc = &run->gro_cfg;
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
    unsigned nd = sorted_devs(t, dv);
    char name[32];
    if (!nd)
        return;
    wb_printf(w, "\ngro engine: budget %u, flush timeout %u us, gro_max_size %u, poll gap %u us\n",
              gc->budget, gc->flush_timeout_us, gc->max_size, gc->poll_gap_us);
    wb_printf(w, "  %-10s %12s %12s %8s %12s %12s\n", "device", "frames in", "packets out",
              "ratio", "merged", "alone");
    for (unsigned i = 0; i < nd; i++) {
        dev_label(name, sizeof name, t, dv[i]->kind, dv[i]->depth);
        wb_printf(w, "  %-10s %12ju %12ju %8.2f %12ju %12ju\n", name, (uintmax_t)dv[i]->frames_in,
                  (uintmax_t)dv[i]->packets_out, ratio(dv[i]->frames_in, dv[i]->packets_out),
                  (uintmax_t)dv[i]->merged_frames, (uintmax_t)dv[i]->alone);
    }
    for (unsigned i = 0; i < nd; i++) {
        dev_label(name, sizeof name, t, dv[i]->kind, dv[i]->depth);
        bool first = true;
        for (unsigned g = 0; g < CSC_G__COUNT; g++)
            if (dv[i]->refused[g]) {
                if (first)
                    wb_printf(w, "  %s not eligible: ", name);
                wb_printf(w, "%s%s %ju", first ? "" : ", ", csc_gro_reason_name(g),
                          (uintmax_t)dv[i]->refused[g]);
                first = false;
            }
        if (!first)
            wb_putc(w, '\n');
        first = true;
        for (unsigned g = 1; g < CSC_GF__COUNT; g++)
            if (dv[i]->flushes[g]) {
                if (first)
                    wb_printf(w, "  %s flushes: ", name);
                wb_printf(w, "%s%s %ju", first ? "" : ", ", csc_gro_flush_name(g),
                          (uintmax_t)dv[i]->flushes[g]);
                first = false;
            }
        if (!first)
            wb_putc(w, '\n');
    }
    wb_printf(w, "  software checksum passes: frame by frame %ju over %ju bytes; after merging "
                 "%ju over %ju bytes\n",
              (uintmax_t)t->passes_single, (uintmax_t)t->bytes_single,
              (uintmax_t)t->passes_merged, (uintmax_t)t->bytes_merged);
    wb_printf(w, "  flows: %ju TCP (counted at each device)", (uintmax_t)t->tcp_flows);
    if (t->flows_evicted)
        wb_printf(w, ", %ju evicted from the engine's flow table", (uintmax_t)t->flows_evicted);
    wb_putc(w, '\n');
    if (t->frames_unfollowed)
        wb_printf(w, "  not followed: %ju frame(s) at a device beyond the engine's table of "
                     "device kinds and depths\n", (uintmax_t)t->frames_unfollowed);
    if (!t->ntop)
        return;
    wb_printf(w, "  top %u by frames:\n", t->ntop);
    wb_printf(w, "    %10s %10s %8s  %-10s %s\n", "frames", "packets", "avg", "device", "flow");
    for (unsigned i = 0; i < t->ntop; i++) {
        const struct cli_gro_flow *fl = &t->top[i];
        dev_label(name, sizeof name, t, fl->kind, fl->depth);
        wb_printf(w, "    %10ju %10ju %8.2f  %-10s ", (uintmax_t)fl->frames_in,
                  (uintmax_t)fl->packets_out, ratio(fl->frames_in, fl->packets_out), name);
        gro_flow_label(w, &fl->id);
        if (o->njobv > 1) {
            wb_puts(w, " in ");
            wb_text_name(w, job_name(o, fl->file));
        }
        wb_printf(w, " (from frame %ju)", (uintmax_t)fl->id.first_frame);
        bool first = true;
        for (unsigned g = 1; g < CSC_GF__COUNT; g++)
            if (fl->flushes[g]) {
                wb_printf(w, "%s%s %ju", first ? "; flushes: " : ", ", csc_gro_flush_name(g),
                          (uintmax_t)fl->flushes[g]);
                first = false;
            }
        wb_putc(w, '\n');
    }
}

static void jdbl(struct wbuf *w, bool *first, const char *k, double v)
{
    jkey(w, first, k);
    wb_printf(w, "%.3f", v);
}

static void flushes_json(struct wbuf *w, const uint64_t *fl)
{
    bool f = true;
    wb_putc(w, '{');
    for (unsigned g = 1; g < CSC_GF__COUNT; g++)
        if (fl[g])
            jnum(w, &f, csc_gro_flush_name(g), fl[g]);
    wb_putc(w, '}');
}

static void endpoint_json(struct wbuf *w, const struct cli_endpoint *e)
{
    char a[64];
    bool f = true;
    if (!e->family) {
        wb_puts(w, "null");
        return;
    }
    wb_putc(w, '{');
    jkey(w, &f, "proto");
    wb_json_str(w, e->l4 ? csc_proto_name(e->l4) : "ip");
    for (int i = 0; i < 2; i++) {
        const uint8_t *x = i ? e->dst : e->src;
        if (e->family == CLI_FAMILY_IPV4)
            snprintf(a, sizeof a, "%u.%u.%u.%u", x[0], x[1], x[2], x[3]);
        else if (!inet_ntop(AF_INET6, x, a, sizeof a))
            snprintf(a, sizeof a, "?");
        jkey(w, &f, i ? "dst" : "src");
        wb_json_str(w, a);
    }
    if (e->l4) {
        jnum(w, &f, "sport", e->sport);
        jnum(w, &f, "dport", e->dport);
    }
    wb_putc(w, '}');
}

void gro_json(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_gro_totals *t = &run->gro;
    const struct csc_gro_cfg *gc = &run->gro_cfg;
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
    unsigned nd = sorted_devs(t, dv);
    bool f = true, f2, f3;
    wb_putc(w, '{');
    jnum(w, &f, "budget", gc->budget);
    jnum(w, &f, "flush_timeout_us", gc->flush_timeout_us);
    jnum(w, &f, "max_size", gc->max_size);
    jnum(w, &f, "poll_gap_us", gc->poll_gap_us);
    jnum(w, &f, "frames", t->frames);
    jkey(w, &f, "devices");
    wb_putc(w, '[');
    for (unsigned i = 0; i < nd; i++) {
        const struct cli_gro_dev *d = dv[i];
        if (i)
            wb_putc(w, ',');
        wb_putc(w, '{');
        f2 = true;
        jkey(w, &f2, "device");
        wb_json_str(w, csc_dev_name(d->kind));
        jnum(w, &f2, "depth", d->depth);
        jnum(w, &f2, "frames_in", d->frames_in);
        jnum(w, &f2, "packets_out", d->packets_out);
        jdbl(w, &f2, "ratio", ratio(d->frames_in, d->packets_out));
        jnum(w, &f2, "merged_frames", d->merged_frames);
        jnum(w, &f2, "alone", d->alone);
        jkey(w, &f2, "refused");
        wb_putc(w, '{');
        f3 = true;
        for (unsigned g = 0; g < CSC_G__COUNT; g++)
            if (d->refused[g])
                jnum(w, &f3, csc_gro_reason_name(g), d->refused[g]);
        wb_putc(w, '}');
        jkey(w, &f2, "flushes");
        flushes_json(w, d->flushes);
        wb_putc(w, '}');
    }
    wb_putc(w, ']');
    jnum(w, &f, "sw_passes_single", t->passes_single);
    jnum(w, &f, "sw_bytes_single", t->bytes_single);
    jnum(w, &f, "sw_passes_merged", t->passes_merged);
    jnum(w, &f, "sw_bytes_merged", t->bytes_merged);
    jnum(w, &f, "tcp_flows", t->tcp_flows);
    jnum(w, &f, "flows_evicted", t->flows_evicted);
    if (t->frames_unfollowed)
        jnum(w, &f, "frames_unfollowed", t->frames_unfollowed);
    jkey(w, &f, "top_flows");
    wb_putc(w, '[');
    for (unsigned i = 0; i < t->ntop; i++) {
        const struct cli_gro_flow *fl = &t->top[i];
        if (i)
            wb_putc(w, ',');
        wb_putc(w, '{');
        f2 = true;
        jkey(w, &f2, "file");
        wb_json_str(w, job_name(o, fl->file));
        jnum(w, &f2, "first_frame", fl->id.first_frame);
        jkey(w, &f2, "device");
        wb_json_str(w, csc_dev_name(fl->kind));
        jnum(w, &f2, "depth", fl->depth);
        jkey(w, &f2, "flow");
        {
            char tmp[256];
            struct wbuf lw = { tmp, 0, sizeof tmp - 1, NULL, NULL };
            gro_flow_label(&lw, &fl->id);
            tmp[lw.len] = 0;
            wb_json_str(w, tmp);
        }
        jkey(w, &f2, "outer");
        endpoint_json(w, &fl->id.outer);
        jkey(w, &f2, "tunnel");
        if (fl->id.tunnel) {
            wb_puts(w, "{\"proto\":");
            wb_json_str(w, csc_proto_name(fl->id.tunnel));
            wb_puts(w, ",\"id\":");
            if (tunnel_has_id(&fl->id))
                wb_u64(w, fl->id.tunnel_id);
            else
                wb_puts(w, "null");
            wb_putc(w, '}');
        } else {
            wb_puts(w, "null");
        }
        jkey(w, &f2, "inner");
        endpoint_json(w, &fl->id.inner);
        jnum(w, &f2, "frames_in", fl->frames_in);
        jnum(w, &f2, "packets_out", fl->packets_out);
        jdbl(w, &f2, "avg_merge", ratio(fl->frames_in, fl->packets_out));
        jnum(w, &f2, "merged_frames", fl->merged_frames);
        jkey(w, &f2, "flushes");
        flushes_json(w, fl->flushes);
        wb_putc(w, '}');
    }
    wb_putc(w, ']');
    wb_putc(w, '}');
}
