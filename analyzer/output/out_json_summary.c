/*
 * out_json_summary.c - the JSON format's closing records: {"type":"summary"}
 * with a run's totals (docs/json.md lists the keys) and {"type":"compare"}
 * with both runs and the figures that differ. The same figures as the text
 * summary (out_text_summary.c).
 */
#include "out.h"

#include "job.h"

#include "compare.h"
#include "gro_totals.h"
#include "jw.h"
#include "stats.h"
#include "sumfields.h"

#include "csumcheck/rewrite.h"

#include <glib.h>

/* "key":{"name":n,...} with the nonzero counts of a table from index `from` */
static void json_counts(struct jw *j, const char *key, const uint64_t *v, unsigned from,
                        unsigned n, const char *(*name)(unsigned))
{
    jw_key(j, key);
    jw_obj(j);
    for (unsigned i = from; i < n; i++)
        if (v[i])
            jw_num(j, name(i), v[i]);
    jw_end_obj(j);
}

/* "key":{"<protocol>":{"name":n,...},...}: a table of n counts per protocol
 * (rows, CSC_P__COUNT of them), the protocols with any count */
static void json_proto_table(struct jw *j, const char *key, const uint64_t *rows, unsigned n,
                             const char *(*row_name)(unsigned), const char *(*name)(unsigned))
{
    jw_key(j, key);
    jw_obj(j);
    for (unsigned p = 0; p < CSC_P__COUNT; p++, rows += n)
        if (counts_total(rows, n))
            json_counts(j, row_name(p), rows, 0, n, name);
    jw_end_obj(j);
}

/* a group of the summary's fields (sumfields.c) from rec, the group's
 * struct, as members */
static void json_sum_group(struct jw *j, const void *rec, unsigned group, uint64_t nerrors)
{
    for (unsigned i = 0; i < sum_nfields; i++) {
        const struct sum_field *f = &sum_fields[i];
        if (f->group != group)
            continue;
        jw_key(j, f->key);
        if (f->off == SUM_ERRORS)
            jw_u64(j, nerrors);
        else if (f->off == SUM_GRE_CSUM)
            jw_str(j, csc_gre_csum_name(((const struct csc_config *)rec)->gre_csum));
        else if (group == SG_CONFIG)
            jw_bool(j, sum_flag(rec, f));
        else
            jw_u64(j, sum_get(rec, f));
    }
}

static void json_config(struct jw *j, const struct cli_run *run)
{
    static const unsigned ops[] = { CSC_RW_OUTER_CSUM, CSC_RW_OUTER_ZERO, CSC_RW_INNER_GOOD };
    const struct csc_config *c = &run->cfg;
    JW_OBJ(j, "config");
    JW_STR(j, "rx", run->rx_name);
    JW_STR(j, "era", c->era.name);
    json_sum_group(j, c, SG_CONFIG, 0);
    JW_STR(j, "iface_kind", csc_via_name(c->via));
    JW_BOOL(j, "direction_guess", c->guess_direction);
    JW_BOOL(j, "replay_sent", c->replay_sent);
    JW_KEY(j, "peer_rx");
    if (run->peer_on)
        jw_str(j, run->peer_name);
    else
        jw_null(j);
    JW_ARR(j, "local");
    for (unsigned i = 0; c->local && i < c->local->n; i++) {
        char a[64];
        jw_elem(j);
        jw_str(j, csc_local_format(&c->local->a[i], a, sizeof a));
    }
    jw_end_arr(j);
    JW_ARR(j, "rewrite");
    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++)
        if (run->rewrite & ops[i]) {
            jw_elem(j);
            jw_str(j, rewrite_words(ops[i]));
        }
    jw_end_arr(j);
    jw_end_obj(j);
}

static void json_layers(struct jw *j, const struct cli_stats *st)
{
    json_proto_table(j, "layers", &st->layer[0][0], CSC_V__COUNT, csc_proto_name, csc_verdict_name);
    json_counts(j, "reasons", st->reason, 1, CSC_R__COUNT, csc_reason_name);
    JW_OBJ(j, "findings");
    for (unsigned i = 0; i < FD__COUNT; i++)
        jw_num(j, cli_finding_name(i), st->finding[i]);
    jw_num(j, "any", st->findings_any);
    jw_end_obj(j);
    JW_U64(j, "action", st->action_any);
    JW_OBJ(j, "by_design");
    JW_U64(j, "frames", st->by_design_any);
    json_counts(j, "findings", st->by_design, 0, FD__COUNT, cli_finding_name);
    jw_end_obj(j);
}

static void json_kernel_totals(struct jw *j, const struct cli_stats *st)
{
    JW_OBJ(j, "kernel");
    json_sum_group(j, st, SG_KVERDICT, 0);
    json_counts(j, "counters", st->counter, 0, CSC_C__COUNT, csc_counter_name);
    JW_OBJ(j, "drop_reasons");
    struct named dn[CLI_DROP_NAMES];
    unsigned ndn = drops_by_name(st, dn);
    for (unsigned i = 0; i < ndn; i++)
        jw_num(j, dn[i].name, dn[i].n);
    jw_end_obj(j);
    json_sum_group(j, st, SG_KWORK, 0);
    json_proto_table(j, "gro", &st->gro[0][0], CSC_G__COUNT, csc_dev_name, csc_gro_reason_name);
    json_counts(j, "warnings", st->warning, 0, CLI_BITS, csc_warning_name);
    jw_end_obj(j);
}

static void json_endpoint(struct jw *j, const char *key, const struct cli_endpoint *e)
{
    char a[64];
    jw_key(j, key);
    if (!e->family) {
        jw_null(j);
        return;
    }
    jw_obj(j);
    JW_STR(j, "proto", e->l4 ? csc_proto_name(e->l4) : "ip");
    endpoint_addr(a, sizeof a, e, true);
    JW_STR(j, "src", a);
    endpoint_addr(a, sizeof a, e, false);
    JW_STR(j, "dst", a);
    if (e->l4) {
        JW_U64(j, "sport", e->sport);
        JW_U64(j, "dport", e->dport);
    }
    jw_end_obj(j);
}

/* "tunnel":{"proto","id"} or null */
static void json_tunnel(struct jw *j, const struct cli_flow_id *id)
{
    JW_KEY(j, "tunnel");
    if (!id->tunnel) {
        jw_null(j);
        return;
    }
    jw_obj(j);
    JW_STR(j, "proto", csc_proto_name(id->tunnel));
    JW_KEY(j, "id");
    if (tunnel_has_id(id))
        jw_u64(j, id->tunnel_id);
    else
        jw_null(j);
    jw_end_obj(j);
}

static void json_gro_devices(struct jw *j, const struct cli_gro_totals *t)
{
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
    unsigned nd = sorted_devs(t, dv);
    JW_ARR(j, "devices");
    for (unsigned i = 0; i < nd; i++) {
        const struct cli_gro_dev *d = dv[i];
        jw_elem(j);
        jw_obj(j);
        JW_STR(j, "device", csc_dev_name(d->kind));
        JW_U64(j, "depth", d->depth);
        JW_U64(j, "frames_in", d->frames_in);
        JW_U64(j, "packets_out", d->packets_out);
        JW_KEY(j, "ratio");
        jw_double(j, ratio(d->frames_in, d->packets_out));
        JW_U64(j, "merged_frames", d->merged_frames);
        JW_U64(j, "alone", d->alone);
        if (d->order_dep)             /* written only when it applies */
            JW_U64(j, "order_dependent", d->order_dep);
        json_counts(j, "refused", d->refused, 0, CSC_G__COUNT, csc_gro_reason_name);
        json_counts(j, "flushes", d->flushes, 1, CSC_GF__COUNT, csc_gro_flush_name);
        jw_end_obj(j);
    }
    jw_end_arr(j);
}

static void json_flow(struct jw *j, const struct cli_gro_flow *fl, const struct cli_opts *o)
{
    char tmp[256];
    struct wbuf lw = { tmp, 0, sizeof tmp - 1, NULL, NULL };
    jw_elem(j);
    jw_obj(j);
    JW_STR(j, "file", out_job_name(o, fl->file));
    JW_U64(j, "first_frame", fl->id.first_frame);
    JW_STR(j, "device", csc_dev_name(fl->kind));
    JW_U64(j, "depth", fl->depth);
    gro_flow_label(&lw, &fl->id);
    tmp[lw.len] = 0;
    JW_STR(j, "flow", tmp);
    json_endpoint(j, "outer", &fl->id.outer);
    json_tunnel(j, &fl->id);
    json_endpoint(j, "inner", &fl->id.inner);
    JW_U64(j, "frames_in", fl->frames_in);
    JW_U64(j, "packets_out", fl->packets_out);
    JW_KEY(j, "avg_merge");
    jw_double(j, ratio(fl->frames_in, fl->packets_out));
    JW_U64(j, "merged_frames", fl->merged_frames);
    json_counts(j, "flushes", fl->flushes, 1, CSC_GF__COUNT, csc_gro_flush_name);
    jw_end_obj(j);
}

/* --flows: "tunnel", "inner" and the figures of one flow, as members */
static void json_flow_members(struct jw *j, const struct cli_flow *fl)
{
    char tmp[256];
    struct wbuf lw = { tmp, 0, sizeof tmp - 1, NULL, NULL };
    JW_U64(j, "first_frame", fl->id.first_frame);
    gro_flow_label(&lw, &fl->id);
    tmp[lw.len] = 0;
    JW_STR(j, "flow", tmp);
    json_tunnel(j, &fl->id);
    json_endpoint(j, "inner", &fl->id.inner);
    JW_U64(j, "frames", fl->frames);
    JW_U64(j, "drops", fl->drops);
    JW_U64(j, "bad", fl->bad);
    JW_U64(j, "sw_passes", fl->sw_passes);
    JW_U64(j, "sw_bytes", fl->sw_bytes);
    JW_TRUE_IF(j, "evicted", fl->evicted);
}

void json_flow_record(struct wbuf *w, const struct out_file *f, const struct cli_flow *fl)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "type", "flow");
    JW_KEY(&j, "file");
    wb_puts(w, f->name);
    json_flow_members(&j, fl);
    jw_end_obj(&j);
    wb_putc(w, '\n');
}

/* --flows in the summary: the totals and the N worst */
static void json_flows(struct jw *j, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_flow_totals *t = &run->flows;
    JW_OBJ(j, "flows");
    JW_U64(j, "flows", t->flows);
    JW_U64(j, "evicted", t->evicted);
    JW_U64(j, "frames_without_flow", t->frames_unnamed);
    JW_ARR(j, "top");
    for (unsigned i = 0; i < t->ntop; i++) {
        jw_elem(j);
        jw_obj(j);
        JW_STR(j, "file", out_job_name(o, t->top[i].file));
        json_flow_members(j, &t->top[i]);
        jw_end_obj(j);
    }
    jw_end_arr(j);
    jw_end_obj(j);
}

static void json_gro(struct jw *j, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_gro_totals *t = &run->gro;
    const struct csc_gro_cfg *gc = &run->gro_cfg;
    JW_OBJ(j, "gro");
    JW_U64(j, "budget", gc->budget);
    JW_U64(j, "flush_timeout_us", gc->flush_timeout_us);
    JW_U64(j, "max_size", gc->max_size);
    JW_U64(j, "poll_gap_us", gc->poll_gap_us);
    JW_TRUE_IF(j, "nic_no_rx_hash", gc->nic_no_rx_hash);
    JW_U64(j, "frames", t->frames);
    json_gro_devices(j, t);
    json_sum_group(j, t, SG_GRO, 0);
    if (t->frames_unfollowed)
        JW_U64(j, "frames_unfollowed", t->frames_unfollowed);
    JW_ARR(j, "top_flows");
    for (unsigned i = 0; i < t->ntop; i++)
        json_flow(j, &t->top[i], o);
    jw_end_arr(j);
    jw_end_obj(j);
}

/* what every run's summary has after its head */
static void json_run_members(struct jw *j, const struct cli_run *run, const struct cli_opts *o)
{
    const struct cli_stats *st = &run->st;
    json_config(j, run);
    json_layers(j, st);
    json_kernel_totals(j, st);
    JW_OBJ(j, "frag");
    json_sum_group(j, st, SG_FRAG, 0);
    jw_end_obj(j);
    json_counts(j, "stops", st->stop, 1, CSC_STOP__COUNT, csc_stop_name);
    JW_OBJ(j, "stops_by_proto");          /* STOP -> { PROTO -> frames } */
    for (unsigned s = 1; s < CSC_STOP__COUNT; s++)
        if (st->stop[s])
            json_counts(j, csc_stop_name(s), st->stop_proto[s], 0, CSC_P__COUNT, csc_proto_name);
    jw_end_obj(j);
    JW_OBJ(j, "direction");
    json_counts(j, "sent", st->direction[CSC_DIR_OUT], 0, CSC_DF__COUNT, csc_dir_from_name);
    json_counts(j, "received", st->direction[CSC_DIR_IN], 0, CSC_DF__COUNT, csc_dir_from_name);
    JW_U64(j, "unknown", direction_total(st, CSC_DIR_UNKNOWN));
    jw_end_obj(j);
    JW_OBJ(j, "tx");
    JW_U64(j, "frames", st->tx_frames);
    json_counts(j, "left", st->tx_kind, 1, CSC_TX__COUNT, csc_tx_kind_name);
    json_counts(j, "peer", st->tx_peer, 0, CSC_K__COUNT, csc_kverdict_name);
    json_counts(j, "peer_not_replayed", st->tx_peer_not, 1, CSC_TXP__COUNT, csc_tx_peer_not_name);
    jw_end_obj(j);
    json_gro(j, run, o);
}

/* type, files, errors, frames, bytes */
static void json_summary_head(struct jw *j, const char *type, const struct out_summary *s)
{
    const struct cli_stats *st = &s->runs[0].st;
    jw_obj(j);
    JW_STR(j, "type", type);
    json_sum_group(j, st, SG_HEAD, s->nerrors);
}

/* written (-w) and the exit status close both records */
static void json_summary_tail(struct jw *j, const struct out_summary *s)
{
    const struct cli_stats *st = &s->runs[0].st;
    if (s->o->write_path)
        JW_U64(j, "written", st->selected - st->select_lost);
    if (s->o->baseline_path) {     /* --baseline: frames whose outcome is not the baseline's */
        JW_OBJ(j, "baseline");
        json_sum_group(j, st, SG_BASELINE, 0);
        jw_end_obj(j);
    }
    if (s->stopped_by) {           /* the inputs were not read to their end */
        JW_BOOL(j, "interrupted", true);
        JW_WORD(j, "signal", out_signal_name(s->stopped_by));
    }
    JW_U64(j, "exit_status", (uint64_t)s->exit_status);
    jw_end_obj(j);
    wb_putc(j->w, '\n');
}

/* the per-file table: every input read (run A's figures) */
static void json_per_file(struct jw *j, const struct cli_opts *o)
{
    JW_ARR(j, "per_file");
    for (unsigned i = 0; i < o->njobv; i++) {
        const struct job *jb = &o->jobv[i];
        if (jb->error || jb->skipped)
            continue;
        jw_elem(j);
        jw_obj(j);
        JW_STR(j, "file", jb->path);
        JW_U64(j, "frames", jb->frames);
        JW_U64(j, "findings", jb->findings);
        JW_U64(j, "drops", jb->drops);
        JW_TRUE_IF(j, "failed", jb->failed);
        jw_end_obj(j);
    }
    jw_end_arr(j);
}

void json_summary(struct wbuf *w, const struct out_summary *s)
{
    struct jw j = jw_on(w);
    json_summary_head(&j, "summary", s);
    json_run_members(&j, &s->runs[0], s->o);
    if (s->o->flows)
        json_flows(&j, &s->runs[0], s->o);
    json_per_file(&j, s->o);
    json_summary_tail(&j, s);
}

void json_compare(struct wbuf *w, const struct out_summary *s)
{
    struct jw j = jw_on(w);
    json_summary_head(&j, "compare", s);
    JW_ARR(&j, "runs");
    for (unsigned i = 0; i < 2; i++) {
        jw_elem(&j);
        jw_obj(&j);
        JW_STR(&j, "run", s->runs[i].label);
        JW_KEY(&j, "spec");
        if (s->runs[i].spec)
            jw_str(&j, s->runs[i].spec);
        else
            jw_null(&j);
        json_run_members(&j, &s->runs[i], s->o);
        jw_end_obj(&j);
    }
    jw_end_arr(&j);
    JW_OBJ(&j, "diff");
    GArray *rows = compare_rows(s->runs);
    for (unsigned i = 0; i < rows->len; i++) {
        const struct row *r = &g_array_index(rows, struct row, i);
        if (!row_differs(r))
            continue;
        jw_key(&j, r->key);
        if (r->dbl)
            wb_printf(w, "[%.3f,%.3f]", r->a, r->b);
        else
            wb_printf(w, "[%.0f,%.0f]", r->a, r->b);
    }
    g_array_free(rows, TRUE);
    jw_end_obj(&j);
    json_summary_tail(&j, s);
}
