/*
 * summary.c - the totals of a run: merged per file, rendered as the text
 * summary or the closing {"type":"summary"} JSON line. Both show the same
 * numbers (docs/json.md lists the keys).
 */
#include "cli.h"

#include <arpa/inet.h>
#include <string.h>

void cli_stats_merge(struct cli_stats *into, const struct cli_stats *s)
{
    /* every member is a uint64_t counter (or an array of them) */
    uint64_t *a = (uint64_t *)(void *)into;
    const uint64_t *b = (const uint64_t *)(const void *)s;
    G_STATIC_ASSERT(sizeof(struct cli_stats) % sizeof(uint64_t) == 0);
    for (size_t i = 0; i < sizeof *s / sizeof(uint64_t); i++)
        a[i] += b[i];
}

/* Text verdict columns, in the order of the vocabulary */
static const unsigned text_cols[] = { CSC_V_GOOD, CSC_V_BAD, CSC_V_NONE, CSC_V_ZERO6,
                                      CSC_V_PARTIAL, CSC_V_LCO, CSC_V_RCO, CSC_V_UNVERIFIABLE };

static uint64_t layer_total(const struct cli_stats *st, unsigned p)
{
    uint64_t t = 0;
    for (unsigned v = 0; v < CSC_V__COUNT; v++)
        t += st->layer[p][v];
    return t;
}

/* Drop reasons summed by name (two ids may share one name) */
struct named { const char *name; uint64_t n; };

static unsigned drops_by_name(const struct cli_stats *st, struct named *out)
{
    unsigned n = 0;
    for (unsigned d = 0; d < CLI_DROP_NAMES; d++) {
        if (!st->drop_reason[d])
            continue;
        const char *nm = csc_drop_name(d);
        unsigned i;
        for (i = 0; i < n; i++)
            if (!strcmp(out[i].name, nm))
                break;
        if (i == n)
            out[n++] = (struct named){ nm, 0 };
        out[i].n += st->drop_reason[d];
    }
    return n;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static const char *rewrite_words(unsigned ops)
{
    switch (ops & (CSC_RW_OUTER_ZERO | CSC_RW_OUTER_CSUM | CSC_RW_INNER_GOOD)) {
    case CSC_RW_OUTER_ZERO: return "outer-zero";
    case CSC_RW_OUTER_CSUM: return "outer-csum";
    case CSC_RW_INNER_GOOD: return "inner-good";
    case CSC_RW_OUTER_ZERO | CSC_RW_INNER_GOOD: return "outer-zero,inner-good";
    case CSC_RW_OUTER_CSUM | CSC_RW_INNER_GOOD: return "outer-csum,inner-good";
    default: return "";
    }
}

void run_config_words(struct wbuf *w, const struct cli_run *run)
{
    const struct csc_config *c = &run->cfg;
    wb_printf(w, "rx %s, era %s, gro %s%s%s%s%s%s%s%s", run->rx_name, c->era.name,
              c->gro_nic ? (c->gro_tunnel ? "on" : "nic") : (c->gro_tunnel ? "tunnel" : "off"),
              c->remcsum_rx ? ", remcsum-rx" : c->remcsum_rx_given ? ", no-remcsum-rx" : "",
              c->remcsum_nopartial ? ", remcsum-nopartial" : "",
              c->udp6_zero_csum_rx ? ", udp6-zero-csum-rx" : "", c->inner_socket ? "" : ", no-socket",
              c->assume_bad ? ", assume-bad" : "",
              c->gre_csum == 1 ? ", gre-csum on" : c->gre_csum == 2 ? ", gre-csum off" : "",
              run->rewrite ? ", rewrite " : "");
    if (run->rewrite)
        wb_puts(w, rewrite_words(run->rewrite));
}

static void gro_text(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o);

void summary_text(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o,
                  unsigned nerrors, unsigned njobs)
{
    const struct cli_stats *st = &run->st;
    (void)njobs;
    wb_printf(w, "csumcheck: %ju %s, %ju %s, %ju bytes captured\n", (uintmax_t)st->files,
              plural(st->files, "file", "files"), (uintmax_t)st->frames,
              plural(st->frames, "frame", "frames"), (uintmax_t)st->cap_bytes);
    wb_puts(w, "receiver: ");
    run_config_words(w, run);
    wb_putc(w, '\n');

    wb_puts(w, "\nchecksums   ");
    for (size_t i = 0; i < G_N_ELEMENTS(text_cols); i++)
        wb_printf(w, " %12s", csc_verdict_name(text_cols[i]));
    wb_putc(w, '\n');
    bool rows = false;
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        if (!layer_total(st, p))
            continue;
        rows = true;
        wb_printf(w, "  %-10s", csc_proto_name(p));
        for (size_t i = 0; i < G_N_ELEMENTS(text_cols); i++)
            wb_printf(w, " %12ju", (uintmax_t)st->layer[p][text_cols[i]]);
        wb_putc(w, '\n');
    }
    if (!rows)
        wb_puts(w, "  (no checksummed layer)\n");

    wb_printf(w, "\nframes with findings: %ju", (uintmax_t)st->findings_any);
    bool first = true;
    for (unsigned i = 0; i < FD__COUNT; i++) {
        if (!st->finding[i])
            continue;
        wb_printf(w, "%s%s %ju", first ? " (" : ", ", cli_finding_name(i),
                  (uintmax_t)st->finding[i]);
        first = false;
    }
    wb_puts(w, first ? "\n" : ")\n");

    wb_printf(w, "\nkernel: accepted %ju, dropped %ju, unknown %ju, not replayed %ju\n",
              (uintmax_t)st->kverdict[CSC_K_ACCEPT], (uintmax_t)st->kverdict[CSC_K_DROP],
              (uintmax_t)st->kverdict[CSC_K_UNKNOWN], (uintmax_t)st->kernel_not_run);
    first = true;
    for (unsigned i = 0; i < CSC_C__COUNT; i++) {
        if (!st->counter[i])
            continue;
        wb_printf(w, "%s%s %ju", first ? "  counters: " : ", ", csc_counter_name(i),
                  (uintmax_t)st->counter[i]);
        first = false;
    }
    if (!first)
        wb_putc(w, '\n');
    struct named dn[CLI_DROP_NAMES];
    unsigned ndn = drops_by_name(st, dn);
    for (unsigned i = 0; i < ndn; i++)
        wb_printf(w, "%s%s %ju%s", i ? ", " : "  drop reasons: ", dn[i].name, (uintmax_t)dn[i].n,
                  i + 1 == ndn ? "\n" : "");
    wb_printf(w, "  software checksum passes: %ju over %ju bytes", (uintmax_t)st->sw_passes,
              (uintmax_t)st->sw_bytes);
    if (st->frames)
        wb_printf(w, " (%.2f passes per frame)", (double)st->sw_passes / (double)st->frames);
    wb_putc(w, '\n');
    for (unsigned d = 0; d < CSC_P__COUNT; d++) {
        uint64_t total = 0;
        for (unsigned g = 0; g < CSC_G__COUNT; g++)
            total += st->gro[d][g];
        if (!total)
            continue;
        wb_printf(w, "  gro at %s: held %ju", csc_dev_name(d), (uintmax_t)st->gro[d][CSC_G_NONE]);
        first = true;
        for (unsigned g = 1; g < CSC_G__COUNT; g++) {
            if (!st->gro[d][g])
                continue;
            wb_printf(w, "%s%s %ju", first ? "; not held: " : ", ", csc_gro_reason_name(g),
                      (uintmax_t)st->gro[d][g]);
            first = false;
        }
        wb_putc(w, '\n');
    }
    first = true;
    for (unsigned b = 0; b < CLI_BITS; b++) {
        if (!st->warning[b])
            continue;
        wb_printf(w, "%s%s %ju", first ? "  warnings: " : ", ", csc_warning_name(b),
                  (uintmax_t)st->warning[b]);
        first = false;
    }
    if (!first)
        wb_putc(w, '\n');

    gro_text(w, run, o);

    if (st->frag_completed || st->frag_evicted || st->frag_overlaps || st->frag_dropped)
        wb_printf(w, "\nip reassembly: %ju completed, %ju evicted, %ju overlapping, %ju dropped\n",
                  (uintmax_t)st->frag_completed, (uintmax_t)st->frag_evicted,
                  (uintmax_t)st->frag_overlaps, (uintmax_t)st->frag_dropped);
    first = true;
    for (unsigned s = 1; s < CSC_STOP__COUNT; s++) {
        if (!st->stop[s])
            continue;
        wb_printf(w, "%s%s %ju", first ? "decoding stopped early: " : ", ", csc_stop_name(s),
                  (uintmax_t)st->stop[s]);
        first = false;
    }
    if (!first)
        wb_putc(w, '\n');
    if (o->write_path) {
        wb_puts(w, "wrote ");
        wb_u64(w, st->selected - st->select_lost);
        wb_printf(w, " selected %s to ", plural(st->selected - st->select_lost, "frame", "frames"));
        wb_text_name(w, o->write_path);
        if (st->select_lost)
            wb_printf(w, " (%ju not written: link type)", (uintmax_t)st->select_lost);
        wb_putc(w, '\n');
    }
    if (nerrors)
        wb_printf(w, "errors: %u (%ju %s not read to the end; see standard error)\n", nerrors,
                  (uintmax_t)st->files_failed, plural(st->files_failed, "file", "files"));
}

/* ---- JSON ------------------------------------------------------------------ */

static void jkey(struct wbuf *w, bool *first, const char *k)
{
    if (!*first)
        wb_putc(w, ',');
    *first = false;
    wb_json_str(w, k);
    wb_putc(w, ':');
}

static void jnum(struct wbuf *w, bool *first, const char *k, uint64_t v)
{
    jkey(w, first, k);
    wb_u64(w, v);
}

static void gro_json(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o);

/* The members every run's summary has (after "frames" ... "wire_bytes") */
static void summary_members(struct wbuf *w, bool *fp, const struct cli_run *run,
                            const struct cli_opts *o)
{
    const struct cli_stats *st = &run->st;
    const struct csc_config *c = &run->cfg;
    bool f = *fp, f2, f3;
    jkey(w, &f, "config");
    wb_putc(w, '{');
    f2 = true;
    jkey(w, &f2, "rx");
    wb_json_str(w, run->rx_name);
    jkey(w, &f2, "era");
    wb_json_str(w, c->era.name);
    jkey(w, &f2, "gro_nic");
    wb_puts(w, c->gro_nic ? "true" : "false");
    jkey(w, &f2, "gro_tunnel");
    wb_puts(w, c->gro_tunnel ? "true" : "false");
    jkey(w, &f2, "remcsum_rx");
    wb_puts(w, c->remcsum_rx ? "true" : "false");
    jkey(w, &f2, "remcsum_nopartial");
    wb_puts(w, c->remcsum_nopartial ? "true" : "false");
    jkey(w, &f2, "udp6_zero_csum_rx");
    wb_puts(w, c->udp6_zero_csum_rx ? "true" : "false");
    jkey(w, &f2, "inner_socket");
    wb_puts(w, c->inner_socket ? "true" : "false");
    jkey(w, &f2, "assume_bad");
    wb_puts(w, c->assume_bad ? "true" : "false");
    jkey(w, &f2, "gre_csum");
    wb_json_str(w, c->gre_csum == 1 ? "on" : c->gre_csum == 2 ? "off" : "packet");
    jkey(w, &f2, "remcsum_rx_given");
    wb_puts(w, c->remcsum_rx_given ? "true" : "false");
    jkey(w, &f2, "rewrite");
    wb_putc(w, '[');
    {
        bool f4 = true;
        static const unsigned ops[] = { CSC_RW_OUTER_CSUM, CSC_RW_OUTER_ZERO, CSC_RW_INNER_GOOD };
        for (size_t i = 0; i < G_N_ELEMENTS(ops); i++)
            if (run->rewrite & ops[i]) {
                if (!f4)
                    wb_putc(w, ',');
                f4 = false;
                wb_json_str(w, rewrite_words(ops[i]));
            }
    }
    wb_putc(w, ']');
    wb_putc(w, '}');

    jkey(w, &f, "layers");
    wb_putc(w, '{');
    f2 = true;
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        if (!layer_total(st, p))
            continue;
        jkey(w, &f2, csc_proto_name(p));
        wb_putc(w, '{');
        f3 = true;
        for (unsigned v = 0; v < CSC_V__COUNT; v++)
            if (st->layer[p][v])
                jnum(w, &f3, csc_verdict_name(v), st->layer[p][v]);
        wb_putc(w, '}');
    }
    wb_putc(w, '}');
    jkey(w, &f, "reasons");
    wb_putc(w, '{');
    f2 = true;
    for (unsigned r = 1; r < CSC_R__COUNT; r++)
        if (st->reason[r])
            jnum(w, &f2, csc_reason_name(r), st->reason[r]);
    wb_putc(w, '}');
    jkey(w, &f, "findings");
    wb_putc(w, '{');
    f2 = true;
    for (unsigned i = 0; i < FD__COUNT; i++)
        jnum(w, &f2, cli_finding_name(i), st->finding[i]);
    jnum(w, &f2, "any", st->findings_any);
    wb_putc(w, '}');

    jkey(w, &f, "kernel");
    wb_putc(w, '{');
    f2 = true;
    jnum(w, &f2, "accept", st->kverdict[CSC_K_ACCEPT]);
    jnum(w, &f2, "drop", st->kverdict[CSC_K_DROP]);
    jnum(w, &f2, "unknown", st->kverdict[CSC_K_UNKNOWN]);
    jnum(w, &f2, "not_run", st->kernel_not_run);
    jkey(w, &f2, "counters");
    wb_putc(w, '{');
    f3 = true;
    for (unsigned i = 0; i < CSC_C__COUNT; i++)
        if (st->counter[i])
            jnum(w, &f3, csc_counter_name(i), st->counter[i]);
    wb_putc(w, '}');
    jkey(w, &f2, "drop_reasons");
    wb_putc(w, '{');
    f3 = true;
    struct named dn[CLI_DROP_NAMES];
    unsigned ndn = drops_by_name(st, dn);
    for (unsigned i = 0; i < ndn; i++)
        jnum(w, &f3, dn[i].name, dn[i].n);
    wb_putc(w, '}');
    jnum(w, &f2, "sw_passes", st->sw_passes);
    jnum(w, &f2, "sw_bytes", st->sw_bytes);
    jnum(w, &f2, "hdr_bytes", st->hdr_bytes);
    jkey(w, &f2, "gro");
    wb_putc(w, '{');
    f3 = true;
    for (unsigned d = 0; d < CSC_P__COUNT; d++) {
        uint64_t total = 0;
        for (unsigned g = 0; g < CSC_G__COUNT; g++)
            total += st->gro[d][g];
        if (!total)
            continue;
        jkey(w, &f3, csc_dev_name(d));
        wb_putc(w, '{');
        bool f4 = true;
        for (unsigned g = 0; g < CSC_G__COUNT; g++)
            if (st->gro[d][g])
                jnum(w, &f4, csc_gro_reason_name(g), st->gro[d][g]);
        wb_putc(w, '}');
    }
    wb_putc(w, '}');
    jkey(w, &f2, "warnings");
    wb_putc(w, '{');
    f3 = true;
    for (unsigned b = 0; b < CLI_BITS; b++)
        if (st->warning[b])
            jnum(w, &f3, csc_warning_name(b), st->warning[b]);
    wb_putc(w, '}');
    wb_putc(w, '}');

    jkey(w, &f, "frag");
    wb_putc(w, '{');
    f2 = true;
    jnum(w, &f2, "completed", st->frag_completed);
    jnum(w, &f2, "evicted", st->frag_evicted);
    jnum(w, &f2, "overlaps", st->frag_overlaps);
    jnum(w, &f2, "dropped", st->frag_dropped);
    wb_putc(w, '}');
    jkey(w, &f, "stops");
    wb_putc(w, '{');
    f2 = true;
    for (unsigned s = 1; s < CSC_STOP__COUNT; s++)
        if (st->stop[s])
            jnum(w, &f2, csc_stop_name(s), st->stop[s]);
    wb_putc(w, '}');
    jkey(w, &f, "gro");
    gro_json(w, run, o);
    *fp = f;
}

void summary_json(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o,
                  unsigned nerrors, unsigned njobs, int exit_status)
{
    const struct cli_stats *st = &run->st;
    bool f = true;
    (void)njobs;
    wb_putc(w, '{');
    jkey(w, &f, "type");
    wb_json_str(w, "summary");
    jnum(w, &f, "files", st->files);
    jnum(w, &f, "files_failed", st->files_failed);
    jnum(w, &f, "errors", nerrors);
    jnum(w, &f, "frames", st->frames);
    jnum(w, &f, "bytes", st->cap_bytes);
    jnum(w, &f, "wire_bytes", st->wire_bytes);
    summary_members(w, &f, run, o);
    if (o->write_path) {
        jkey(w, &f, "written");
        wb_u64(w, st->selected - st->select_lost);
    }
    jnum(w, &f, "exit_status", (uint64_t)exit_status);
    wb_puts(w, "}\n");
}

/* ---- GRO engine totals ------------------------------------------------------ */

/* Devices in output order: by depth, then kind */
static unsigned sorted_devs(const struct cli_gro_totals *t, const struct cli_gro_dev **out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++)
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
static void dev_label(char *buf, size_t n, const struct cli_gro_totals *t, uint8_t kind,
                      uint8_t depth)
{
    bool dup = false;
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++)
        if (t->dev[i].used && t->dev[i].kind == kind && t->dev[i].depth != depth)
            dup = true;
    if (dup)
        snprintf(buf, n, "%s@%u", csc_dev_name(kind), depth);
    else
        snprintf(buf, n, "%s", csc_dev_name(kind));
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void addr_words(struct wbuf *w, const struct cli_endpoint *e, bool src)
{
    char a[64];
    const uint8_t *x = src ? e->src : e->dst;
    if (e->family == 4)
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

/* VXLAN, VXLAN-GPE and GENEVE carry a VNI; GRE a key when set */
static bool tunnel_has_id(const struct cli_flow_id *id)
{
    return id->tunnel == CSC_P_VXLAN || id->tunnel == CSC_P_VXLAN_GPE ||
           id->tunnel == CSC_P_GENEVE || (id->tunnel == CSC_P_GRE && id->tunnel_id);
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

static void gro_text(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_gro_totals *t = &run->gro;
    const struct csc_gro_cfg *gc = &run->gro_cfg;
    const struct cli_gro_dev *dv[CSC_GRO_DEVS];
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
        if (e->family == 4)
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

static void gro_json(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_gro_totals *t = &run->gro;
    const struct csc_gro_cfg *gc = &run->gro_cfg;
    const struct cli_gro_dev *dv[CSC_GRO_DEVS];
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

/* ---- --compare: two runs side by side ---------------------------------------- */

struct row {
    char section[48];
    char key[112];             /* metric name, the JSON/CSV key */
    char text[112];            /* what the text table says */
    bool dbl;
    double a, b;
};

static void add_row(GArray *rows, const char *section, const char *key, const char *text,
                    bool dbl, double a, double b, bool always)
{
    if (!always && a == 0 && b == 0)
        return;
    struct row r;
    memset(&r, 0, sizeof r);
    snprintf(r.section, sizeof r.section, "%s", section);
    snprintf(r.key, sizeof r.key, "%s", key);
    snprintf(r.text, sizeof r.text, "%s", text);
    r.dbl = dbl;
    r.a = a;
    r.b = b;
    g_array_append_val(rows, r);
}

#define ROW(sec, always, a, b, ...)                                                            \
    do {                                                                                       \
        char k_[112], t_[112];                                                                 \
        snprintf(k_, sizeof k_, __VA_ARGS__);                                                  \
        row_text(t_, sizeof t_, k_);                                                           \
        add_row(rows, sec, k_, t_, false, (double)(a), (double)(b), always);                   \
    } while (0)

/* the text of a row: the key without its section prefix */
static void row_text(char *t, size_t n, const char *key)
{
    const char *dot = strchr(key, '.');
    snprintf(t, n, "%s", dot ? dot + 1 : key);
}

static const struct cli_gro_dev *find_dev(const struct cli_gro_totals *t, uint8_t kind,
                                          uint8_t depth)
{
    static const struct cli_gro_dev zero;
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++)
        if (t->dev[i].used && t->dev[i].kind == kind && t->dev[i].depth == depth)
            return &t->dev[i];
    return &zero;
}

static GArray *compare_rows(const struct cli_run *runs)
{
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct row));
    const struct cli_stats *a = &runs[0].st, *b = &runs[1].st;
    const struct cli_gro_totals *ga = &runs[0].gro, *gb = &runs[1].gro;

    ROW("capture", true, a->frames, b->frames, "frames");
    for (unsigned p = 0; p < CSC_P__COUNT; p++)
        for (size_t i = 0; i < G_N_ELEMENTS(text_cols); i++) {
            unsigned v = text_cols[i];
            ROW("checksums", false, a->layer[p][v], b->layer[p][v], "layers.%s.%s",
                csc_proto_name(p), csc_verdict_name(v));
        }
    for (unsigned i = 0; i < FD__COUNT; i++)
        ROW("findings (frames)", false, a->finding[i], b->finding[i], "findings.%s",
            cli_finding_name(i));
    ROW("kernel", true, a->kverdict[CSC_K_ACCEPT], b->kverdict[CSC_K_ACCEPT], "kernel.accept");
    ROW("kernel", true, a->kverdict[CSC_K_DROP], b->kverdict[CSC_K_DROP], "kernel.drop");
    ROW("kernel", false, a->kverdict[CSC_K_UNKNOWN], b->kverdict[CSC_K_UNKNOWN], "kernel.unknown");
    ROW("kernel", false, a->kernel_not_run, b->kernel_not_run, "kernel.not_run");
    for (unsigned i = 0; i < CSC_C__COUNT; i++)
        ROW("kernel", false, a->counter[i], b->counter[i], "kernel.counters.%s",
            csc_counter_name(i));
    {
        struct named da[CLI_DROP_NAMES], db[CLI_DROP_NAMES];
        unsigned na = drops_by_name(a, da), nb = drops_by_name(b, db);
        const char *names[2 * CLI_DROP_NAMES];
        unsigned nn = 0;
        for (unsigned i = 0; i < na + nb; i++) {
            const char *nm = i < na ? da[i].name : db[i - na].name;
            unsigned k;
            for (k = 0; k < nn && strcmp(names[k], nm); k++)
                ;
            if (k == nn)
                names[nn++] = nm;
        }
        for (unsigned k = 0; k < nn; k++) {
            uint64_t x = 0, y = 0;
            for (unsigned i = 0; i < na; i++)
                if (!strcmp(da[i].name, names[k]))
                    x = da[i].n;
            for (unsigned i = 0; i < nb; i++)
                if (!strcmp(db[i].name, names[k]))
                    y = db[i].n;
            ROW("kernel", false, x, y, "kernel.drop_reasons.%s", names[k]);
        }
    }
    for (unsigned i = 0; i < CLI_BITS; i++)
        ROW("kernel", false, a->warning[i], b->warning[i], "kernel.warnings.%s",
            csc_warning_name(i));
    ROW("software checksum", true, a->sw_passes, b->sw_passes, "kernel.sw_passes");
    ROW("software checksum", true, a->sw_bytes, b->sw_bytes, "kernel.sw_bytes");
    ROW("software checksum", true, ga->passes_merged, gb->passes_merged, "gro.sw_passes_merged");
    ROW("software checksum", true, ga->bytes_merged, gb->bytes_merged, "gro.sw_bytes_merged");

    /* engine devices: the union of both runs, by depth then kind */
    struct cli_gro_totals u;
    memset(&u, 0, sizeof u);
    for (int s = 0; s < 2; s++) {
        const struct cli_gro_totals *t = s ? gb : ga;
        for (unsigned i = 0; i < CSC_GRO_DEVS; i++) {
            if (!t->dev[i].used)
                continue;
            unsigned k;
            for (k = 0; k < CSC_GRO_DEVS && u.dev[k].used; k++)
                if (u.dev[k].kind == t->dev[i].kind && u.dev[k].depth == t->dev[i].depth)
                    break;
            if (k < CSC_GRO_DEVS && !u.dev[k].used)
                u.dev[k] = (struct cli_gro_dev){ .used = 1, .kind = t->dev[i].kind,
                                                 .depth = t->dev[i].depth };
        }
    }
    const struct cli_gro_dev *dv[CSC_GRO_DEVS];
    unsigned nd = sorted_devs(&u, dv);
    for (unsigned i = 0; i < nd; i++) {
        char name[32], sec[48];
        dev_label(name, sizeof name, &u, dv[i]->kind, dv[i]->depth);
        snprintf(sec, sizeof sec, "gro engine at %s", name);
        const struct cli_gro_dev *x = find_dev(ga, dv[i]->kind, dv[i]->depth),
                                 *y = find_dev(gb, dv[i]->kind, dv[i]->depth);
        ROW(sec, true, x->frames_in, y->frames_in, "gro.%s.frames_in", name);
        ROW(sec, true, x->packets_out, y->packets_out, "gro.%s.packets_out", name);
        {
            char k[112];
            snprintf(k, sizeof k, "gro.%s.ratio", name);
            add_row(rows, sec, k, "ratio", true, ratio(x->frames_in, x->packets_out),
                    ratio(y->frames_in, y->packets_out), true);
        }
        ROW(sec, true, x->merged_frames, y->merged_frames, "gro.%s.merged_frames", name);
        ROW(sec, false, x->alone, y->alone, "gro.%s.alone", name);
        for (unsigned g = 0; g < CSC_G__COUNT; g++)
            ROW(sec, false, x->refused[g], y->refused[g], "gro.%s.refused.%s", name,
                csc_gro_reason_name(g));
        for (unsigned g = 1; g < CSC_GF__COUNT; g++)
            ROW(sec, false, x->flushes[g], y->flushes[g], "gro.%s.flushes.%s", name,
                csc_gro_flush_name(g));
    }
    /* texts: drop the "gro.DEV." prefix too */
    for (unsigned i = 0; i < rows->len; i++) {
        struct row *r = &g_array_index(rows, struct row, i);
        if (!strcmp(r->key, "frames"))
            snprintf(r->text, sizeof r->text, "frames");
        if (!strncmp(r->key, "gro.", 4) && strncmp(r->key, "gro.sw_", 7)) {
            const char *d = strchr(r->key + 4, '.');
            snprintf(r->text, sizeof r->text, "%s", d ? d + 1 : r->key);
        }
        if (!strcmp(r->key, "gro.sw_passes_merged"))
            snprintf(r->text, sizeof r->text, "passes after GRO merging");
        else if (!strcmp(r->key, "gro.sw_bytes_merged"))
            snprintf(r->text, sizeof r->text, "bytes after GRO merging");
        else if (!strcmp(r->key, "kernel.sw_passes"))
            snprintf(r->text, sizeof r->text, "passes, frame by frame");
        else if (!strcmp(r->key, "kernel.sw_bytes"))
            snprintf(r->text, sizeof r->text, "bytes, frame by frame");
        else if (!strncmp(r->key, "kernel.counters.", 16) ||
                 !strncmp(r->key, "kernel.warnings.", 16))
            snprintf(r->text, sizeof r->text, "%s", r->key + 16);
        else if (!strncmp(r->key, "kernel.drop_reasons.", 20))
            snprintf(r->text, sizeof r->text, "drop reason %s", r->key + 20);
        else if (!strncmp(r->key, "layers.", 7)) {
            snprintf(r->text, sizeof r->text, "%s", r->key + 7);
            char *dot = strchr(r->text, '.');
            if (dot)
                *dot = ' ';
        }
        if (!strncmp(r->key, "gro.", 4))
            for (char *c = r->text; *c; c++)
                if (*c == '_' || *c == '.')
                    *c = ' ';
    }
    return rows;
}

static bool row_differs(const struct row *r)
{
    return r->dbl ? (r->a - r->b > 0.0005 || r->b - r->a > 0.0005) : r->a != r->b;
}

static void num(char *buf, size_t n, const struct row *r, double v)
{
    if (r->dbl)
        snprintf(buf, n, "%.2f", v);
    else
        snprintf(buf, n, "%.0f", v);
}

void summary_compare_text(struct wbuf *w, const struct cli_run *runs, const struct cli_opts *o,
                          unsigned nerrors)
{
    const struct cli_stats *st = &runs[0].st;
    wb_printf(w, "csumcheck --compare: %ju %s, %ju %s, %ju bytes captured\n", (uintmax_t)st->files,
              plural(st->files, "file", "files"), (uintmax_t)st->frames,
              plural(st->frames, "frame", "frames"), (uintmax_t)st->cap_bytes);
    for (unsigned i = 0; i < 2; i++) {
        wb_printf(w, "%s: ", runs[i].label);
        run_config_words(w, &runs[i]);
        if (runs[i].spec) {
            wb_puts(w, "  (--compare ");
            wb_text_name(w, runs[i].spec);
            wb_putc(w, ')');
        }
        wb_putc(w, '\n');
    }
    wb_printf(w, "gro engine: budget %u/%u, flush timeout %u/%u us, gro_max_size %u/%u, poll gap "
                 "%u/%u us (A/B)\n",
              runs[0].gro_cfg.budget, runs[1].gro_cfg.budget, runs[0].gro_cfg.flush_timeout_us,
              runs[1].gro_cfg.flush_timeout_us, runs[0].gro_cfg.max_size, runs[1].gro_cfg.max_size,
              runs[0].gro_cfg.poll_gap_us, runs[1].gro_cfg.poll_gap_us);
    GArray *rows = compare_rows(runs);
    const char *sec = "";
    unsigned ndiff = 0;
    wb_printf(w, "\n%-40s %14s %14s %12s\n", "", "A", "B", "B - A");
    for (unsigned i = 0; i < rows->len; i++) {
        const struct row *r = &g_array_index(rows, struct row, i);
        if (strcmp(sec, r->section)) {
            sec = r->section;
            wb_printf(w, "%s\n", sec);
        }
        char x[32], y[32], d[32] = "";
        num(x, sizeof x, r, r->a);
        num(y, sizeof y, r, r->b);
        if (row_differs(r)) {
            ndiff++;
            if (r->dbl)
                snprintf(d, sizeof d, "%+.2f", r->b - r->a);
            else
                snprintf(d, sizeof d, "%+.0f", r->b - r->a);
        }
        wb_printf(w, "  %-38s %14s %14s %12s\n", r->text, x, y, d);
    }
    wb_printf(w, "\n%u %s differ", ndiff, ndiff == 1 ? "figure" : "figures");
    if (o->verbose == 0 && ndiff)
        wb_puts(w, " (-v lists the frames whose outcome differs)");
    wb_putc(w, '\n');
    g_array_free(rows, TRUE);
    if (o->write_path) {
        wb_puts(w, "wrote ");
        wb_u64(w, st->selected - st->select_lost);
        wb_printf(w, " selected %s to ", plural(st->selected - st->select_lost, "frame", "frames"));
        wb_text_name(w, o->write_path);
        if (st->select_lost)
            wb_printf(w, " (%ju not written: link type)", (uintmax_t)st->select_lost);
        wb_putc(w, '\n');
    }
    if (nerrors)
        wb_printf(w, "errors: %u (%ju %s not read to the end; see standard error)\n", nerrors,
                  (uintmax_t)st->files_failed, plural(st->files_failed, "file", "files"));
}

void summary_compare_json(struct wbuf *w, const struct cli_run *runs, const struct cli_opts *o,
                          unsigned nerrors, int exit_status)
{
    const struct cli_stats *st = &runs[0].st;
    bool f = true;
    wb_putc(w, '{');
    jkey(w, &f, "type");
    wb_json_str(w, "compare");
    jnum(w, &f, "files", st->files);
    jnum(w, &f, "files_failed", st->files_failed);
    jnum(w, &f, "errors", nerrors);
    jnum(w, &f, "frames", st->frames);
    jnum(w, &f, "bytes", st->cap_bytes);
    jnum(w, &f, "wire_bytes", st->wire_bytes);
    jkey(w, &f, "runs");
    wb_putc(w, '[');
    for (unsigned i = 0; i < 2; i++) {
        bool f2 = true;
        if (i)
            wb_putc(w, ',');
        wb_putc(w, '{');
        jkey(w, &f2, "run");
        wb_json_str(w, runs[i].label);
        jkey(w, &f2, "spec");
        if (runs[i].spec)
            wb_json_str(w, runs[i].spec);
        else
            wb_puts(w, "null");
        summary_members(w, &f2, &runs[i], o);
        wb_putc(w, '}');
    }
    wb_putc(w, ']');
    jkey(w, &f, "diff");
    wb_putc(w, '{');
    GArray *rows = compare_rows(runs);
    bool f2 = true;
    for (unsigned i = 0; i < rows->len; i++) {
        const struct row *r = &g_array_index(rows, struct row, i);
        if (!row_differs(r))
            continue;
        jkey(w, &f2, r->key);
        if (r->dbl)
            wb_printf(w, "[%.3f,%.3f]", r->a, r->b);
        else
            wb_printf(w, "[%.0f,%.0f]", r->a, r->b);
    }
    g_array_free(rows, TRUE);
    wb_putc(w, '}');
    if (o->write_path) {
        jkey(w, &f, "written");
        wb_u64(w, st->selected - st->select_lost);
    }
    jnum(w, &f, "exit_status", (uint64_t)exit_status);
    wb_puts(w, "}\n");
}

void summary_compare_csv(struct wbuf *w, const struct cli_run *runs, const struct cli_opts *o)
{
    (void)o;
    GArray *rows = compare_rows(runs);
    wb_puts(w, "metric,a,b,differs\n");
    for (unsigned i = 0; i < rows->len; i++) {
        const struct row *r = &g_array_index(rows, struct row, i);
        char x[32], y[32];
        if (r->dbl) {
            snprintf(x, sizeof x, "%.3f", r->a);
            snprintf(y, sizeof y, "%.3f", r->b);
        } else {
            snprintf(x, sizeof x, "%.0f", r->a);
            snprintf(y, sizeof y, "%.0f", r->b);
        }
        wb_csv_field(w, r->key);
        wb_printf(w, ",%s,%s,%s\n", x, y, row_differs(r) ? "yes" : "no");
    }
    g_array_free(rows, TRUE);
}
