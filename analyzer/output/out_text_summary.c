/*
 * out_text_summary.c - the text format's summaries: a run's totals (with
 * its GRO engine section and top flows) and --compare's table of two runs.
 */
#include "out.h"

#include "job.h"

#include "compare.h"
#include "gro_totals.h"
#include "stats.h"
#include "sumfields.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* The nonzero counts of a table from index `from` on, "name n" separated by
 * ", ", the first after `lead`. Returns whether there was one. */
static bool text_counts(struct wbuf *w, const char *lead, const uint64_t *v, unsigned from,
                        unsigned n, const char *(*name)(unsigned))
{
    bool any = false;
    for (unsigned i = from; i < n; i++) {
        if (!v[i])
            continue;
        wb_printf(w, "%s%s %ju", any ? ", " : lead, name(i), (uintmax_t)v[i]);
        any = true;
    }
    return any;
}

/* the same as a line of its own */
static void text_counts_line(struct wbuf *w, const char *lead, const uint64_t *v, unsigned from,
                             unsigned n, const char *(*name)(unsigned))
{
    if (text_counts(w, lead, v, from, n, name))
        wb_putc(w, '\n');
}

/* "rx none, era modern, gro on, ..." */
static void run_config_words(struct wbuf *w, const struct cli_run *run)
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
    if (c->via != CSC_VIA_NIC)
        wb_printf(w, ", iface %s", csc_via_name(c->via));
    for (unsigned i = 0; c->local && i < c->local->n; i++) {
        char a[64];
        wb_printf(w, "%s%s", i ? " " : ", local ", csc_local_format(&c->local->a[i], a, sizeof a));
    }
    if (!c->guess_direction)
        wb_puts(w, ", no-direction-guess");
    if (c->replay_sent)
        wb_puts(w, ", replay-sent");
    if (run->peer_on)
        wb_printf(w, ", peer-rx %s", run->peer_name);
}

/* a group of the summary's counts in words (sumfields.c): "accepted 3,
 * dropped 1" or "3 completed, 0 evicted" */
static void text_sum_group(struct wbuf *w, const struct cli_stats *st, unsigned group)
{
    bool first = true;
    for (unsigned i = 0; i < sum_nfields; i++) {
        const struct sum_field *f = &sum_fields[i];
        if (f->group != group || !f->text)
            continue;
        wb_puts(w, first ? "" : ", ");
        first = false;
        if (f->count_first)
            wb_printf(w, "%ju %s", (uintmax_t)sum_get(st, f), f->text);
        else
            wb_printf(w, "%s %ju", f->text, (uintmax_t)sum_get(st, f));
    }
}

/* the closing lines: what -w wrote, the errors */
static void text_closing(struct wbuf *w, const struct cli_opts *o, const struct cli_stats *st,
                         unsigned nerrors, int stopped_by)
{
    if (stopped_by)
        wb_printf(w, "interrupted by %s: the frames read until then are above\n",
                  out_signal_name(stopped_by));
    if (o->write_path) {
        wb_puts(w, "wrote ");
        wb_u64(w, st->selected - st->select_lost);
        wb_printf(w, " selected %s to ", plural(st->selected - st->select_lost, "frame", "frames"));
        wb_text_name(w, o->write_path);
        if (st->select_lost)
            wb_printf(w, " (%ju not written: %s)", (uintmax_t)st->select_lost,
                      st->select_lost == st->selected ? "see standard error" : "link type");
        wb_putc(w, '\n');
    }
    if (o->baseline_path) {
        wb_puts(w, "frames since the baseline: ");
        text_sum_group(w, st, SG_BASELINE);
        wb_puts(w, " (");
        wb_text_name(w, o->baseline_path);
        wb_puts(w, ")\n");
    }
    if (nerrors)
        wb_printf(w, "errors: %u (%ju %s not read to the end; see standard error)\n", nerrors,
                  (uintmax_t)st->files_failed, plural(st->files_failed, "file", "files"));
}

static void text_head(struct wbuf *w, const char *title, const struct cli_stats *st)
{
    wb_printf(w, "%s: %ju %s, %ju %s, %ju bytes captured\n", title, (uintmax_t)st->files,
              plural(st->files, "file", "files"), (uintmax_t)st->frames,
              plural(st->frames, "frame", "frames"), (uintmax_t)st->cap_bytes);
}

/* "direction: 11 sent (pkttype 9, guess 2), 2 received (pkttype 2), 0 unknown" when
 * any frame's direction is known */
static void text_direction(struct wbuf *w, const struct cli_stats *st)
{
    uint64_t sent = direction_total(st, CSC_DIR_OUT), recv = direction_total(st, CSC_DIR_IN);
    if (!sent && !recv)
        return;
    wb_printf(w, "direction: %ju sent", (uintmax_t)sent);
    if (text_counts(w, " (", st->direction[CSC_DIR_OUT], 0, CSC_DF__COUNT, csc_dir_from_name))
        wb_putc(w, ')');
    wb_printf(w, ", %ju received", (uintmax_t)recv);
    if (text_counts(w, " (", st->direction[CSC_DIR_IN], 0, CSC_DF__COUNT, csc_dir_from_name))
        wb_putc(w, ')');
    wb_printf(w, ", %ju unknown\n", (uintmax_t)direction_total(st, CSC_DIR_UNKNOWN));
}

/* "sent, not received: 10 frames, their TX view (partial 7, gso 1, lco 4); peer:
 * accept 6, drop 1, not replayed: gso 1" when a frame was given its TX view */
static void text_tx_totals(struct wbuf *w, const struct cli_stats *st)
{
    if (!st->tx_frames)
        return;
    wb_printf(w, "sent, not received: %ju %s, their TX view", (uintmax_t)st->tx_frames,
              plural(st->tx_frames, "frame", "frames"));
    if (text_counts(w, " (", st->tx_kind, 1, CSC_TX__COUNT, csc_tx_kind_name))
        wb_putc(w, ')');
    bool peer = text_counts(w, "; peer: ", st->tx_peer, 0, CSC_K__COUNT, csc_kverdict_name);
    text_counts(w, peer ? ", not replayed: " : "; peer: not replayed: ", st->tx_peer_not, 1,
                CSC_TXP__COUNT, csc_tx_peer_not_name);
    wb_putc(w, '\n');
}

/* under "decoding stopped early:", a line per reason by the protocol it
 * stopped in: "  unknown-ethertype: gre 2, eth 1" */
static void text_stop_detail(struct wbuf *w, const struct cli_stats *st)
{
    for (unsigned s = 1; s < CSC_STOP__COUNT; s++) {
        if (!st->stop[s])
            continue;
        wb_printf(w, "  %s: ", csc_stop_name(s));
        text_counts(w, "", st->stop_proto[s], 0, CSC_P__COUNT, csc_proto_name);
        wb_putc(w, '\n');
    }
}

/* the table of checksummed layers by protocol and verdict */
static void text_checksums(struct wbuf *w, const struct cli_stats *st)
{
    wb_puts(w, "\nchecksums   ");
    for (size_t i = 0; i < G_N_ELEMENTS(verdict_cols); i++)
        wb_printf(w, " %12s", csc_verdict_name(verdict_cols[i]));
    wb_putc(w, '\n');
    bool rows = false;
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        if (!layer_total(st, p))
            continue;
        rows = true;
        wb_printf(w, "  %-10s", csc_proto_name(p));
        for (size_t i = 0; i < G_N_ELEMENTS(verdict_cols); i++)
            wb_printf(w, " %12ju", (uintmax_t)st->layer[p][verdict_cols[i]]);
        wb_putc(w, '\n');
    }
    if (!rows)
        wb_puts(w, "  (no checksummed layer)\n");
}

/* "frames with findings: N (bad a, drop b, ...)": what needs action (FD_ACTION);
 * "absent by design: M (none c, ...)": the frames with only checksums absent or
 * left undone by design (FD_BY_DESIGN; --show none lists them) */
static void text_findings(struct wbuf *w, const struct cli_stats *st)
{
    uint64_t act[FD__COUNT] = { 0 };
    for (unsigned i = 0; i < FD__COUNT; i++)
        if (FD_ACTION & (1u << i))
            act[i] = st->finding[i];
    wb_printf(w, "\nframes with findings: %ju", (uintmax_t)st->action_any);
    bool any = text_counts(w, " (", act, 0, FD__COUNT, cli_finding_name);
    wb_puts(w, any ? ")\n" : "\n");
    if (!st->by_design_any)
        return;
    wb_printf(w, "absent by design: %ju", (uintmax_t)st->by_design_any);
    if (text_counts(w, " (", st->by_design, 0, FD__COUNT, cli_finding_name))
        wb_putc(w, ')');
    wb_putc(w, '\n');
}

/* the kernel's outcomes: verdicts, counters, drop reasons, passes, GRO, warnings */
static void text_kernel(struct wbuf *w, const struct cli_stats *st)
{
    wb_puts(w, "\nkernel: ");
    text_sum_group(w, st, SG_KVERDICT);
    if (st->kverdict[CSC_K_SENT])
        wb_printf(w, ", sent (not received) %ju", (uintmax_t)st->kverdict[CSC_K_SENT]);
    wb_putc(w, '\n');
    text_counts_line(w, "  counters: ", st->counter, 0, CSC_C__COUNT, csc_counter_name);
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
        if (!gro_kind_total(st, d))
            continue;
        wb_printf(w, "  gro at %s: held %ju", csc_dev_name(d), (uintmax_t)st->gro[d][CSC_G_NONE]);
        text_counts(w, "; not held: ", st->gro[d], 1, CSC_G__COUNT, csc_gro_reason_name);
        wb_putc(w, '\n');
    }
    text_counts_line(w, "  warnings: ", st->warning, 0, CLI_BITS, csc_warning_name);
}

/* the GRO engine's devices: frames in and out, refusals, flushes */
static void text_gro_devices(struct wbuf *w, const struct cli_gro_totals *t)
{
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
    unsigned nd = sorted_devs(t, dv);
    char name[32], lead[64];
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
        snprintf(lead, sizeof lead, "  %s not eligible: ", name);
        text_counts_line(w, lead, dv[i]->refused, 0, CSC_G__COUNT, csc_gro_reason_name);
        snprintf(lead, sizeof lead, "  %s flushes: ", name);
        text_counts_line(w, lead, dv[i]->flushes, 1, CSC_GF__COUNT, csc_gro_flush_name);
        if (dv[i]->order_dep)
            wb_printf(w, "  %s: %ju frames' fates depend on the order the NIC sends packets up "
                      "(not known from the capture; docs/gro.md)\n", name, (uintmax_t)dv[i]->order_dep);
    }
}

static void text_top_flows(struct wbuf *w, const struct cli_gro_totals *t, const struct cli_opts *o)
{
    char name[32];
    wb_printf(w, "  top %u by frames:\n", t->ntop);
    wb_printf(w, "    %10s %10s %8s  %-10s %s\n", "frames", "packets", "avg", "device", "flow");
    for (unsigned i = 0; i < t->ntop; i++) {
        const struct cli_gro_flow *fl = &t->top[i];
        dev_label(name, sizeof name, t, fl->kind, fl->depth);
        wb_printf(w, "    %10ju %10ju %8.2f  %-10s ", (uintmax_t)fl->frames_in,
                  (uintmax_t)fl->packets_out, ratio(fl->frames_in, fl->packets_out), name);
        gro_flow_label(w, &fl->id);
        if (out_files_read(o) > 1) {
            wb_puts(w, " in ");
            wb_text_name(w, out_job_name(o, fl->file));
        }
        wb_printf(w, " (from frame %ju)", (uintmax_t)fl->id.first_frame);
        text_counts(w, "; flushes: ", fl->flushes, 1, CSC_GF__COUNT, csc_gro_flush_name);
        wb_putc(w, '\n');
    }
}

/* --flows: the N worst flows */
static void text_flows(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_flow_totals *t = &run->flows;
    wb_printf(w, "\nflows (innermost 5-tuple and tunnel id): %ju", (uintmax_t)t->flows);
    if (t->evicted)
        wb_printf(w, " (%ju pushed out of a full table and counted again if they came back)",
                  (uintmax_t)t->evicted);
    if (t->frames_unnamed)
        wb_printf(w, "; %ju %s without an IP layer", (uintmax_t)t->frames_unnamed,
                  plural(t->frames_unnamed, "frame", "frames"));
    wb_putc(w, '\n');
    if (!t->ntop)
        return;
    wb_printf(w, "  top %u by drops, then software checksum passes:\n", t->ntop);
    wb_printf(w, "    %10s %10s %10s %12s  %s\n", "drops", "sw passes", "bad", "frames", "flow");
    for (unsigned i = 0; i < t->ntop; i++) {
        const struct cli_flow *fl = &t->top[i];
        wb_printf(w, "    %10ju %10ju %10ju %12ju  ", (uintmax_t)fl->drops,
                  (uintmax_t)fl->sw_passes, (uintmax_t)fl->bad, (uintmax_t)fl->frames);
        gro_flow_label(w, &fl->id);
        if (out_files_read(o) > 1) {
            wb_puts(w, " in ");
            wb_text_name(w, out_job_name(o, fl->file));
        }
        wb_printf(w, " (from frame %ju%s)\n", (uintmax_t)fl->id.first_frame,
                  fl->evicted ? ", until pushed out" : "");
    }
}

static void text_gro(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_gro_totals *t = &run->gro;
    const struct csc_gro_cfg *gc = &run->gro_cfg;
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
    if (!sorted_devs(t, dv))
        return;
    wb_printf(w, "\ngro engine: budget %u, flush timeout %u us, gro_max_size %u, poll gap %u us%s\n",
              gc->budget, gc->flush_timeout_us, gc->max_size, gc->poll_gap_us,
              gc->nic_no_rx_hash ? ", NIC without an RX hash (one bucket)" : "");
    text_gro_devices(w, t);
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
    if (t->ntop)
        text_top_flows(w, t, o);
}

/* per file: the inputs with the most findings first (input order between
 * equals), at most TEXT_FILES of them; JSON lists every one */
#define TEXT_FILES 20

static int job_rank(const void *pa, const void *pb)
{
    const struct job *a = *(const struct job *const *)pa, *b = *(const struct job *const *)pb;
    if (a->findings != b->findings)
        return a->findings > b->findings ? -1 : 1;
    if (a->drops != b->drops)
        return a->drops > b->drops ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void text_per_file(struct wbuf *w, const struct cli_opts *o)
{
    const struct job **read = g_new(const struct job *, o->njobv ? o->njobv : 1);
    unsigned n = 0;
    for (unsigned i = 0; i < o->njobv; i++)
        if (!o->jobv[i].error && !o->jobv[i].skipped)
            read[n++] = &o->jobv[i];
    if (n > 1) {
        qsort(read, n, sizeof read[0], job_rank);
        wb_printf(w, "\n%-6s%13s%13s%13s  file%s\n", "files", "frames", "findings", "drops",
                  n > TEXT_FILES ? " (most findings first)" : "");
        for (unsigned i = 0; i < n && i < TEXT_FILES; i++) {
            wb_printf(w, "%6s%13ju%13ju%13ju  ", "", (uintmax_t)read[i]->frames,
                      (uintmax_t)read[i]->findings, (uintmax_t)read[i]->drops);
            wb_text_name(w, read[i]->path);
            wb_puts(w, read[i]->failed ? " (not read to the end)\n" : "\n");
        }
        if (n > TEXT_FILES)
            wb_printf(w, "  ... and %u more files (--format json lists every one)\n",
                      n - TEXT_FILES);
    }
    g_free(read);
}

void text_summary(struct wbuf *w, const struct out_summary *s)
{
    const struct cli_run *run = &s->runs[0];
    const struct cli_stats *st = &run->st;
    text_head(w, "csumcheck", st);
    wb_puts(w, "receiver: ");
    run_config_words(w, run);
    wb_putc(w, '\n');
    text_direction(w, st);
    text_tx_totals(w, st);
    text_checksums(w, st);
    text_findings(w, st);
    text_kernel(w, st);
    text_gro(w, run, s->o);
    if (st->frag_completed || st->frag_evicted || st->frag_overlaps || st->frag_dropped)
    {
        wb_puts(w, "\nip reassembly: ");
        text_sum_group(w, st, SG_FRAG);
        wb_putc(w, '\n');
    }
    text_counts_line(w, "decoding stopped early: ", st->stop, 1, CSC_STOP__COUNT, csc_stop_name);
    text_stop_detail(w, st);
    if (s->o->flows)
        text_flows(w, run, s->o);
    text_per_file(w, s->o);
    text_closing(w, s->o, st, s->nerrors, s->stopped_by);
}

/* --compare: both configurations, then one row per figure */
static void text_compare_head(struct wbuf *w, const struct cli_run *runs)
{
    text_head(w, "csumcheck --compare", &runs[0].st);
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
}

void text_compare(struct wbuf *w, const struct out_summary *s)
{
    GArray *rows = compare_rows(s->runs);
    const char *sec = "";
    unsigned ndiff = 0;
    text_compare_head(w, s->runs);
    wb_printf(w, "\n%-40s %14s %14s %12s\n", "", "A", "B", "B - A");
    for (unsigned i = 0; i < rows->len; i++) {
        const struct row *r = &g_array_index(rows, struct row, i);
        if (strcmp(sec, r->section)) {
            sec = r->section;
            wb_printf(w, "%s\n", sec);
        }
        char x[32], y[32], d[32] = "";
        row_value(x, sizeof x, r, r->a, 2);
        row_value(y, sizeof y, r, r->b, 2);
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
    if (s->o->verbose == 0 && ndiff)
        wb_puts(w, " (-v lists the frames whose outcome differs)");
    wb_putc(w, '\n');
    g_array_free(rows, TRUE);
    text_closing(w, s->o, &s->runs[0].st, s->nerrors, s->stopped_by);
}
