/*
 * merge.c - csumcheck --merge SUMMARY.json ...: the JSON summaries of
 * separate runs over parts of a corpus, combined into the summary one run
 * over all of their files (in the order given) would print.
 *
 * Each summary is read back (json-glib) into the structures a run fills:
 * the counters (struct cli_stats, by the core's names), the GRO engine's
 * totals and top flows, the --flows totals and worst flows, the per-file
 * table. Those are summed with the functions that sum files within a run
 * (cli_stats_merge, gro_totals_merge, flow_totals_offer), and the summary
 * is written by the format that writes a run's: the same text or JSON,
 * byte for byte (tests/cli: merged == one run over captures/).
 *
 * Lists kept to N entries (GRO top flows, --flows) merge exactly because a
 * flow belongs to one file and a file to one run: the N best of the union
 * are among the N best of each part. N is the --gro-flows / --flows given
 * to --merge (the runs' defaults unless given), as each run must have used.
 * The runs must share a configuration (receiver, era, GRO engine): the
 * merge refuses summaries that differ there.
 */
#include "merge.h"

#include "flows.h"
#include "job.h"
#include "out.h"
#include "stats.h"

#include "csumcheck/rewrite.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

struct merged {
    struct cli_run *run;
    struct cli_opts *o;
    GArray *jobs;              /* struct job: the per-file tables, in order */
    char *config;              /* the first summary's "config" and "gro" parameters, as text */
    unsigned nerrors;
    int stopped_by;
    bool fail_hit, flows;
    GString *err;
};

/* ---- names back to indices ---------------------------------------------------- */

static int index_of(const char *(*name)(unsigned), unsigned n, const char *s)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(name(i), s))
            return (int)i;
    return -1;
}

static uint64_t u64_of(JsonObject *o, const char *k)
{
    JsonNode *n = json_object_get_member(o, k);
    return n && JSON_NODE_HOLDS_VALUE(n) ? (uint64_t)json_node_get_int(n) : 0;
}

static JsonObject *obj_of(JsonObject *o, const char *k)
{
    JsonNode *n = json_object_get_member(o, k);
    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static const char *str_of(JsonObject *o, const char *k)
{
    JsonNode *n = json_object_get_member(o, k);
    return n && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_string(n) : NULL;
}

/* {NAME: count} added into v[index of NAME]; false (m->err) on a name the
 * vocabulary does not have */
static bool add_counts(struct merged *m, JsonObject *o, const char *key, uint64_t *v, unsigned n,
                       const char *(*name)(unsigned))
{
    JsonObject *c = o ? obj_of(o, key) : NULL;
    if (!c)
        return true;
    GList *keys = json_object_get_members(c);
    bool ok = true;
    for (GList *k = keys; k && ok; k = k->next) {
        int i = index_of(name, n, k->data);
        if (i < 0) {
            g_string_printf(m->err, "unknown name '%s' in \"%s\"", (const char *)k->data, key);
            ok = false;
        } else {
            v[i] += u64_of(c, k->data);
        }
    }
    g_list_free(keys);
    return ok;
}

static const char *finding_name(unsigned i)
{
    return cli_finding_name(i);
}

/* ---- the counters --------------------------------------------------------------- */

static bool kernel_counts(struct merged *m, JsonObject *k, struct cli_stats *st)
{
    st->kverdict[CSC_K_ACCEPT] = u64_of(k, "accept");
    st->kverdict[CSC_K_DROP] = u64_of(k, "drop");
    st->kverdict[CSC_K_UNKNOWN] = u64_of(k, "unknown");
    st->kernel_not_run = u64_of(k, "not_run");
    st->sw_passes = u64_of(k, "sw_passes");
    st->sw_bytes = u64_of(k, "sw_bytes");
    st->hdr_bytes = u64_of(k, "hdr_bytes");
    if (!add_counts(m, k, "counters", st->counter, CSC_C__COUNT, csc_counter_name) ||
        !add_counts(m, k, "drop_reasons", st->drop_reason, CLI_DROP_NAMES, csc_drop_name) ||
        !add_counts(m, k, "warnings", st->warning, CLI_BITS, csc_warning_name))
        return false;
    JsonObject *gro = obj_of(k, "gro");
    GList *devs = gro ? json_object_get_members(gro) : NULL;
    bool ok = true;
    for (GList *d = devs; d && ok; d = d->next) {
        int kind = index_of(csc_dev_name, CSC_P__COUNT, d->data);
        if (kind < 0) {
            g_string_printf(m->err, "unknown device '%s'", (const char *)d->data);
            ok = false;
        } else {
            ok = add_counts(m, gro, d->data, st->gro[kind], CSC_G__COUNT, csc_gro_reason_name);
        }
    }
    g_list_free(devs);
    return ok;
}

static bool stats_of(struct merged *m, JsonObject *s, struct cli_stats *st)
{
    memset(st, 0, sizeof *st);
    st->files = u64_of(s, "files");
    st->files_failed = u64_of(s, "files_failed");
    st->frames = u64_of(s, "frames");
    st->cap_bytes = u64_of(s, "bytes");
    st->wire_bytes = u64_of(s, "wire_bytes");
    JsonObject *layers = obj_of(s, "layers"), *findings = obj_of(s, "findings");
    GList *protos = layers ? json_object_get_members(layers) : NULL;
    bool ok = true;
    for (GList *p = protos; p && ok; p = p->next) {
        int i = index_of(csc_proto_name, CSC_P__COUNT, p->data);
        ok = i >= 0 && add_counts(m, layers, p->data, st->layer[i], CSC_V__COUNT, csc_verdict_name);
        if (i < 0)
            g_string_printf(m->err, "unknown protocol '%s'", (const char *)p->data);
    }
    g_list_free(protos);
    if (!ok || !add_counts(m, s, "reasons", st->reason, CSC_R__COUNT, csc_reason_name) ||
        !add_counts(m, s, "stops", st->stop, CSC_STOP__COUNT, csc_stop_name))
        return false;
    for (unsigned i = 0; findings && i < FD__COUNT; i++)
        st->finding[i] = u64_of(findings, finding_name(i));
    st->findings_any = findings ? u64_of(findings, "any") : 0;
    JsonObject *dir = obj_of(s, "direction");
    if (dir && (!add_counts(m, dir, "sent", st->direction[CSC_DIR_OUT], CSC_DF__COUNT,
                            csc_dir_from_name) ||
                !add_counts(m, dir, "received", st->direction[CSC_DIR_IN], CSC_DF__COUNT,
                            csc_dir_from_name)))
        return false;
    if (dir)
        st->direction[CSC_DIR_UNKNOWN][CSC_DF_NONE] = u64_of(dir, "unknown");
    JsonObject *frag = obj_of(s, "frag"), *k = obj_of(s, "kernel");
    if (frag) {
        st->frag_completed = u64_of(frag, "completed");
        st->frag_evicted = u64_of(frag, "evicted");
        st->frag_overlaps = u64_of(frag, "overlaps");
        st->frag_dropped = u64_of(frag, "dropped");
    }
    return !k || kernel_counts(m, k, st);
}

/* ---- the configuration ------------------------------------------------------------ */

static bool bool_of(JsonObject *o, const char *k)
{
    JsonNode *n = json_object_get_member(o, k);
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_boolean(n);
}

/* The first summary's configuration becomes the run's; the others must be equal */
static bool config_of(struct merged *m, JsonObject *s)
{
    JsonObject *c = obj_of(s, "config"), *g = obj_of(s, "gro");
    if (!c || !g) {
        g_string_printf(m->err, "no \"config\" or \"gro\" object: not a csumcheck summary");
        return false;
    }
    char *ct = json_to_string(json_object_get_member(s, "config"), FALSE);
    char *text = g_strdup_printf("%s budget %ju timeout %ju max %ju gap %ju", ct,
                                 (uintmax_t)u64_of(g, "budget"),
                                 (uintmax_t)u64_of(g, "flush_timeout_us"),
                                 (uintmax_t)u64_of(g, "max_size"), (uintmax_t)u64_of(g, "poll_gap_us"));
    g_free(ct);
    if (m->config) {
        bool same = !strcmp(text, m->config);
        g_free(text);
        if (!same)
            g_string_printf(m->err, "its configuration (\"config\", GRO engine) differs from the "
                                    "first summary's: one run over all the files would have one");
        return same;
    }
    m->config = text;
    struct cli_run *run = m->run;
    struct csc_config *cfg = &run->cfg;
    const char *rx = str_of(c, "rx"), *era = str_of(c, "era"), *gre = str_of(c, "gre_csum");
    if (!rx || !csc_report_parse(rx, &cfg->rx) || !era || !csc_era_by_name(era, &cfg->era) ||
        !gre || index_of(csc_gre_csum_name, CSC_GRE_CSUM__COUNT, gre) < 0) {
        g_string_printf(m->err, "\"config\": an rx, era or gre_csum this csumcheck does not know");
        return false;
    }
    csc_report_format(&cfg->rx, run->rx_name, sizeof run->rx_name);
    cfg->gre_csum = (uint8_t)index_of(csc_gre_csum_name, CSC_GRE_CSUM__COUNT, gre);
    cfg->gro_nic = bool_of(c, "gro_nic");
    cfg->gro_tunnel = bool_of(c, "gro_tunnel");
    cfg->remcsum_rx = bool_of(c, "remcsum_rx");
    cfg->remcsum_nopartial = bool_of(c, "remcsum_nopartial");
    cfg->udp6_zero_csum_rx = bool_of(c, "udp6_zero_csum_rx");
    cfg->inner_socket = bool_of(c, "inner_socket");
    cfg->assume_bad = bool_of(c, "assume_bad");
    cfg->remcsum_rx_given = bool_of(c, "remcsum_rx_given");
    cfg->geneve_external = bool_of(c, "geneve_external");
    cfg->geneve_inner_proto_inherit = bool_of(c, "geneve_inner_proto_inherit");
    const char *kind = str_of(c, "iface_kind");
    int via = kind ? index_of(csc_via_name, CSC_VIA__COUNT, kind) : CSC_VIA_NIC;
    if (via < 0) {
        g_string_printf(m->err, "\"config\": an iface_kind this csumcheck does not know");
        return false;
    }
    cfg->via = (uint8_t)via;
    cfg->guess_direction = !json_object_has_member(c, "direction_guess") ||
                           bool_of(c, "direction_guess");
    JsonNode *lo = json_object_get_member(c, "local");
    JsonArray *locals = lo && JSON_NODE_HOLDS_ARRAY(lo) ? json_node_get_array(lo) : NULL;
    for (unsigned i = 0; locals && i < json_array_get_length(locals); i++)
        if (!csc_local_add(&m->o->local, json_array_get_string_element(locals, i))) {
            g_string_printf(m->err, "\"config\": a local address this csumcheck does not take");
            return false;
        }
    cfg->local = m->o->local.n ? &m->o->local : NULL;
    JsonNode *rw = json_object_get_member(c, "rewrite");
    JsonArray *ops = rw && JSON_NODE_HOLDS_ARRAY(rw) ? json_node_get_array(rw) : NULL;
    run->rewrite = 0;
    for (unsigned i = 0; ops && i < json_array_get_length(ops); i++) {
        bool ok;
        run->rewrite |= csc_rewrite_parse(json_array_get_string_element(ops, i), &ok);
    }
    run->gro_cfg.budget = (uint16_t)u64_of(g, "budget");
    run->gro_cfg.flush_timeout_us = (uint32_t)u64_of(g, "flush_timeout_us");
    run->gro_cfg.max_size = (uint32_t)u64_of(g, "max_size");
    run->gro_cfg.poll_gap_us = (uint32_t)u64_of(g, "poll_gap_us");
    return true;
}

/* ---- the GRO engine and the flows ------------------------------------------------- */

/* {"proto","src","dst","sport","dport"} or null, as json_endpoint writes it */
static bool endpoint_of(JsonObject *o, const char *key, struct cli_endpoint *e)
{
    memset(e, 0, sizeof *e);
    JsonObject *p = obj_of(o, key);
    if (!p)
        return true;
    const char *proto = str_of(p, "proto"), *src = str_of(p, "src"), *dst = str_of(p, "dst");
    if (!proto || !src || !dst)
        return false;
    e->family = strchr(src, ':') ? CLI_FAMILY_IPV6 : CLI_FAMILY_IPV4;
    int af = e->family == CLI_FAMILY_IPV6 ? AF_INET6 : AF_INET;
    if (inet_pton(af, src, e->src) != 1 || inet_pton(af, dst, e->dst) != 1)
        return false;
    if (strcmp(proto, "ip")) {
        int l4 = index_of(csc_proto_name, CSC_P__COUNT, proto);
        if (l4 < 0)
            return false;
        e->l4 = (uint8_t)l4;
        e->sport = (uint16_t)u64_of(p, "sport");
        e->dport = (uint16_t)u64_of(p, "dport");
    }
    return true;
}

/* tunnel, inner (and outer) of a flow record */
static bool flow_id_of(JsonObject *o, struct cli_flow_id *id)
{
    memset(id, 0, sizeof *id);
    id->first_frame = u64_of(o, "first_frame");
    JsonObject *t = obj_of(o, "tunnel");
    if (t) {
        int p = index_of(csc_proto_name, CSC_P__COUNT, str_of(t, "proto") ? str_of(t, "proto") : "");
        if (p < 0)
            return false;
        id->tunnel = (uint8_t)p;
        id->tunnel_id = (uint32_t)u64_of(t, "id");
    }
    return endpoint_of(o, "outer", &id->outer) && endpoint_of(o, "inner", &id->inner);
}

/* the index, in the merged order, of a file a flow names: its place in this
 * summary's per-file table (first) + the files of the summaries before */
static bool file_of(JsonObject *o, const GArray *jobs, unsigned first, unsigned *file)
{
    const char *name = str_of(o, "file");
    for (unsigned i = first; name && i < jobs->len; i++)
        if (!strcmp(g_array_index(jobs, struct job, i).path, name)) {
            *file = i;
            return true;
        }
    return false;
}

static bool gro_devices(struct merged *m, JsonArray *devs, struct cli_gro_totals *t)
{
    for (unsigned i = 0; devs && i < json_array_get_length(devs) && i < CLI_GRO_DEVS; i++) {
        JsonObject *d = json_array_get_object_element(devs, i);
        int kind = index_of(csc_dev_name, CSC_P__COUNT, str_of(d, "device") ? str_of(d, "device") : "");
        if (kind < 0) {
            g_string_printf(m->err, "\"gro\": an unknown device");
            return false;
        }
        struct cli_gro_dev *v = &t->dev[i];
        *v = (struct cli_gro_dev){ .used = 1, .kind = (uint8_t)kind,
                                   .depth = (uint8_t)u64_of(d, "depth") };
        v->frames_in = u64_of(d, "frames_in");
        v->packets_out = u64_of(d, "packets_out");
        v->merged_frames = u64_of(d, "merged_frames");
        v->alone = u64_of(d, "alone");
        if (!add_counts(m, d, "refused", v->refused, CSC_G__COUNT, csc_gro_reason_name) ||
            !add_counts(m, d, "flushes", v->flushes, CSC_GF__COUNT, csc_gro_flush_name))
            return false;
    }
    return true;
}

static bool gro_top(struct merged *m, JsonArray *top, unsigned first, struct cli_gro_totals *t)
{
    for (unsigned i = 0; top && i < json_array_get_length(top) && i < CLI_TOP_FLOWS_MAX; i++) {
        JsonObject *f = json_array_get_object_element(top, i);
        struct cli_gro_flow *fl = &t->top[t->ntop];
        memset(fl, 0, sizeof *fl);
        int kind = index_of(csc_dev_name, CSC_P__COUNT, str_of(f, "device") ? str_of(f, "device") : "");
        if (kind < 0 || !flow_id_of(f, &fl->id) || !file_of(f, m->jobs, first, &fl->file) ||
            !add_counts(m, f, "flushes", fl->flushes, CSC_GF__COUNT, csc_gro_flush_name)) {
            g_string_printf(m->err, "\"gro\": top flow %u cannot be read back", i + 1);
            return false;
        }
        fl->kind = (uint8_t)kind;
        fl->depth = (uint8_t)u64_of(f, "depth");
        fl->id.tcp = 1;
        fl->frames_in = u64_of(f, "frames_in");
        fl->packets_out = u64_of(f, "packets_out");
        fl->merged_frames = u64_of(f, "merged_frames");
        t->ntop++;
    }
    return true;
}

static bool gro_of(struct merged *m, JsonObject *s, unsigned first)
{
    JsonObject *g = obj_of(s, "gro");
    struct cli_gro_totals t;
    gro_totals_init(&t);
    JsonNode *dn = json_object_get_member(g, "devices"), *tn = json_object_get_member(g, "top_flows");
    bool ok = gro_devices(m, dn && JSON_NODE_HOLDS_ARRAY(dn) ? json_node_get_array(dn) : NULL, &t) &&
              gro_top(m, tn && JSON_NODE_HOLDS_ARRAY(tn) ? json_node_get_array(tn) : NULL, first, &t);
    t.frames = u64_of(g, "frames");
    t.frames_unfollowed = u64_of(g, "frames_unfollowed");
    t.passes_single = u64_of(g, "sw_passes_single");
    t.bytes_single = u64_of(g, "sw_bytes_single");
    t.passes_merged = u64_of(g, "sw_passes_merged");
    t.bytes_merged = u64_of(g, "sw_bytes_merged");
    t.tcp_flows = u64_of(g, "tcp_flows");
    t.flows_evicted = u64_of(g, "flows_evicted");
    if (ok)
        gro_totals_merge(&m->run->gro, &t, m->o->top_flows);
    gro_totals_free(&t);
    return ok;
}

static bool flows_of(struct merged *m, JsonObject *s, unsigned first)
{
    JsonObject *f = obj_of(s, "flows");
    if (!f)
        return true;
    m->flows = true;
    struct cli_flow_totals *t = &m->run->flows;
    t->flows += u64_of(f, "flows");
    t->evicted += u64_of(f, "evicted");
    t->frames_unnamed += u64_of(f, "frames_without_flow");
    JsonNode *tn = json_object_get_member(f, "top");
    JsonArray *top = tn && JSON_NODE_HOLDS_ARRAY(tn) ? json_node_get_array(tn) : NULL;
    for (unsigned i = 0; top && i < json_array_get_length(top); i++) {
        JsonObject *o = json_array_get_object_element(top, i);
        struct cli_flow fl;
        memset(&fl, 0, sizeof fl);
        if (!flow_id_of(o, &fl.id) || !file_of(o, m->jobs, first, &fl.file)) {
            g_string_printf(m->err, "\"flows\": flow %u cannot be read back", i + 1);
            return false;
        }
        fl.evicted = bool_of(o, "evicted");
        fl.frames = u64_of(o, "frames");
        fl.drops = u64_of(o, "drops");
        fl.bad = u64_of(o, "bad");
        fl.sw_passes = u64_of(o, "sw_passes");
        fl.sw_bytes = u64_of(o, "sw_bytes");
        flow_totals_offer(t, &fl, m->o->flows ? m->o->flows : CLI_FLOWS_DEFAULT);
    }
    return true;
}

/* ---- one summary ------------------------------------------------------------------ */

static void per_file_of(struct merged *m, JsonObject *s)
{
    JsonNode *pn = json_object_get_member(s, "per_file");
    JsonArray *pf = pn && JSON_NODE_HOLDS_ARRAY(pn) ? json_node_get_array(pn) : NULL;
    for (unsigned i = 0; pf && i < json_array_get_length(pf); i++) {
        JsonObject *f = json_array_get_object_element(pf, i);
        struct job j;
        memset(&j, 0, sizeof j);
        j.index = m->jobs->len;
        j.path = g_strdup(str_of(f, "file") ? str_of(f, "file") : "?");
        j.frames = u64_of(f, "frames");
        j.findings = u64_of(f, "findings");
        j.drops = u64_of(f, "drops");
        j.failed = bool_of(f, "failed");
        j.opened = true;
        g_array_append_val(m->jobs, j);
    }
}

static bool merge_summary(struct merged *m, JsonObject *s)
{
    unsigned first = m->jobs->len;
    struct cli_stats st;
    if (!config_of(m, s) || !stats_of(m, s, &st))
        return false;
    per_file_of(m, s);
    if (!gro_of(m, s, first) || !flows_of(m, s, first))
        return false;
    cli_stats_merge(&m->run->st, &st);
    m->nerrors += (unsigned)u64_of(s, "errors");
    m->fail_hit |= u64_of(s, "exit_status") == 1;
    const char *sig = str_of(s, "signal");
    if (bool_of(s, "interrupted") && !m->stopped_by)
        m->stopped_by = !g_strcmp0(sig, "SIGTERM") ? 15 : !g_strcmp0(sig, "SIGPIPE") ? 13 : 2;
    return true;
}

/* The summary line of a JSON Lines output (its last {"type":"summary"}
 * line: the writer puts "type" first, so no other line is parsed) */
static char *summary_line(const char *path, GString *err)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        g_string_printf(err, "%s", g_strerror(errno));
        return NULL;
    }
    char *line = NULL, *last = NULL;
    size_t cap = 0;
    bool compare = false;
    while (getline(&line, &cap, f) > 0) {
        if (!strncmp(line, "{\"type\":\"summary\"", 17)) {
            g_free(last);
            last = g_strdup(line);
        }
        compare |= !strncmp(line, "{\"type\":\"compare\"", 17);
    }
    free(line);
    if (f != stdin)
        fclose(f);
    if (!last)
        g_string_printf(err, compare ? "a --compare run: merge the summaries of plain runs"
                                     : "no {\"type\":\"summary\"} line (csumcheck -F json output "
                                       "is expected)");
    return last;
}

static bool merge_file(struct merged *m, const char *path)
{
    char *line = summary_line(path, m->err);
    if (!line)
        return false;
    JsonParser *p = json_parser_new();
    GError *e = NULL;
    bool ok = json_parser_load_from_data(p, line, -1, &e);
    if (!ok) {
        g_string_printf(m->err, "the summary is not JSON: %s", e->message);
        g_error_free(e);
    } else {
        ok = merge_summary(m, json_node_get_object(json_parser_get_root(p)));
    }
    g_object_unref(p);
    g_free(line);
    return ok;
}

static void stdout_flush(struct wbuf *w)
{
    fwrite(w->p, 1, w->len, stdout);
}

int merge_main(struct cli_opts *o, struct cli_run *runs)
{
    if (!o->format->summary || o->format == &out_csv) {
        fprintf(stderr, CLI_NAME ": --merge writes a text or JSON summary (-F text|json)\n");
        return 2;
    }
    struct merged m = { &runs[0], o, g_array_new(FALSE, TRUE, sizeof(struct job)), NULL, 0, 0,
                        false, false, g_string_new(NULL) };
    int status = 0;
    for (char **in = o->inputs; *in && !status; in++)
        if (!merge_file(&m, *in)) {
            fprintf(stderr, CLI_NAME ": --merge: %s: %s\n", *in, m.err->str);
            status = 2;
        }
    o->njobv = m.jobs->len;
    o->jobv = (struct job *)(void *)m.jobs->data;
    if (m.flows && !o->flows)
        o->flows = CLI_FLOWS_DEFAULT;
    if (!status) {
        status = m.stopped_by ? 128 + m.stopped_by : m.nerrors ? 2 : m.fail_hit ? 1 : 0;
        static char buf[1u << 16];
        struct wbuf w = { buf, 0, sizeof buf, stdout_flush, NULL };
        struct out_summary s = { o, runs, m.nerrors, o->njobv, status, m.stopped_by };
        o->format->summary(&w, &s);
        wb_flush(&w);
        if (fflush(stdout))
            status = 2;
    }
    for (unsigned i = 0; i < m.jobs->len; i++)
        g_free(g_array_index(m.jobs, struct job, i).path);
    g_array_free(m.jobs, TRUE);
    g_free(m.config);
    g_string_free(m.err, TRUE);
    o->jobv = NULL;
    o->njobv = 0;
    return status;
}
