/*
 * summary.c - the totals of a run: merged per file, rendered as the text
 * summary or the closing {"type":"summary"} JSON line. Both show the same
 * numbers (docs/json.md lists the keys). The GRO engine section is
 * summary_gro.c's, two runs side by side (--compare) compare.c's.
 */
#include "summary.h"

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
const unsigned text_cols[CSC_V__COUNT - 1] = { CSC_V_GOOD, CSC_V_BAD, CSC_V_NONE, CSC_V_ZERO6,
                                               CSC_V_PARTIAL, CSC_V_LCO, CSC_V_RCO,
                                               CSC_V_UNVERIFIABLE };

static uint64_t layer_total(const struct cli_stats *st, unsigned p)
{
    uint64_t t = 0;
    for (unsigned v = 0; v < CSC_V__COUNT; v++)
        t += st->layer[p][v];
    return t;
}

/* Drop reasons summed by name (two ids may share one name) */
unsigned drops_by_name(const struct cli_stats *st, struct named *out)
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

const char *plural(uint64_t n, const char *one, const char *many)
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
    wb_printf(w, "rx %s, era %s, gro %s%s%s%s%s%s%s%s%s%s%s", run->rx_name, c->era.name,
              c->gro_nic ? (c->gro_tunnel ? "on" : "nic") : (c->gro_tunnel ? "tunnel" : "off"),
              c->remcsum_rx ? ", remcsum-rx" : c->remcsum_rx_given ? ", no-remcsum-rx" : "",
              c->remcsum_nopartial ? ", remcsum-nopartial" : "",
              c->udp6_zero_csum_rx ? ", udp6-zero-csum-rx" : "",
              c->geneve_external ? "" : ", no-geneve-external",
              c->geneve_inner_proto_inherit ? ", geneve-inner-proto-inherit" : "",
              c->inner_socket ? "" : ", no-socket",
              c->assume_bad ? ", assume-bad" : "",
              c->gre_csum != CSC_GRE_CSUM_PACKET ? ", gre-csum " : "",
              c->gre_csum != CSC_GRE_CSUM_PACKET ? csc_gre_csum_name(c->gre_csum) : "",
              run->rewrite ? ", rewrite " : "");
    if (run->rewrite)
        wb_puts(w, rewrite_words(run->rewrite));
}

/* The closing lines of a text summary: what -w wrote, the errors. */
void summary_text_closing(struct wbuf *w, const struct cli_opts *o, const struct cli_stats *st,
                          unsigned nerrors)
{
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
    summary_text_closing(w, o, st, nerrors);
}

/* ---- JSON ------------------------------------------------------------------ */

void jkey(struct wbuf *w, bool *first, const char *k)
{
    if (!*first)
        wb_putc(w, ',');
    *first = false;
    wb_json_str(w, k);
    wb_putc(w, ':');
}

void jnum(struct wbuf *w, bool *first, const char *k, uint64_t v)
{
    jkey(w, first, k);
    wb_u64(w, v);
}

/* The members every run's summary has (after "frames" ... "wire_bytes") */
void summary_members(struct wbuf *w, bool *fp, const struct cli_run *run, const struct cli_opts *o)
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
    wb_json_str(w, csc_gre_csum_name(c->gre_csum));
    jkey(w, &f2, "remcsum_rx_given");
    wb_puts(w, c->remcsum_rx_given ? "true" : "false");
    jkey(w, &f2, "geneve_external");
    wb_puts(w, c->geneve_external ? "true" : "false");
    jkey(w, &f2, "geneve_inner_proto_inherit");
    wb_puts(w, c->geneve_inner_proto_inherit ? "true" : "false");
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
