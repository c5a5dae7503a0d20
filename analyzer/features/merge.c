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
 *
 * A summary is input like a capture: it may be damaged or hostile. The
 * reader is bounded before json-glib (whose parser recurses) sees a byte:
 * a summary line of at most MERGE_MAX_LINE bytes, nested at most
 * MERGE_MAX_DEPTH deep, with at most MERGE_MAX_KEYS members; at most
 * MERGE_MAX_INPUTS summaries. Every count must be a JSON integer from 0 to
 * 2^53 - 1 (the integers every JSON reader keeps exactly; a run never
 * counts that far), a string a string, a flag true or false, and a member
 * the summary always has must be there: anything else is an error naming
 * the file, the line and the member, never a 0 or a wrapped sum. Sums are
 * checked for overflow (they cannot overflow within those bounds; the check
 * says so if that ever changes).
 */
#include "merge.h"

#include "flows.h"
#include "jsonline.h"
#include "sumfields.h"
#include "job.h"
#include "out.h"
#include "stats.h"

#include "csumcheck/rewrite.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#define MERGE_MAX_LINE (64u << 20)      /* bytes of a summary line */
#define MERGE_MAX_DEPTH JL_MAX_DEPTH    /* objects and arrays inside each other */
#define MERGE_MAX_KEYS 4000000u         /* members of objects, all told */
#define MERGE_MAX_INPUTS 1000u          /* summaries */
#define MERGE_MAX_COUNT ((UINT64_C(1) << 53) - 1)

struct merged {
    struct cli_run *run;
    struct cli_opts *o;
    GArray *jobs;              /* struct job: the per-file tables, in order */
    char *config;              /* the first summary's "config" and "gro" parameters, as text */
    uint64_t nerrors;
    int stopped_by;
    bool fail_hit, flows, baseline;
    bool bad;                  /* err holds the first error of this summary */
    GString *err;
};

/* The first error of a summary wins; the later ones follow from it */
static void bad(struct merged *m, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void bad(struct merged *m, const char *fmt, ...)
{
    if (m->bad)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_string_vprintf(m->err, fmt, ap);
    va_end(ap);
    m->bad = true;
}

/* ---- names back to indices ---------------------------------------------------- */

static int index_of(const char *(*name)(unsigned), unsigned n, const char *s)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(name(i), s))
            return (int)i;
    return -1;
}

/* A count in a node: a JSON integer 0 .. 2^53 - 1 */
static uint64_t count_node(struct merged *m, JsonNode *n, const char *k)
{
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64) {
        const char *what = !n                            ? "missing"
                           : JSON_NODE_HOLDS_NULL(n)     ? "null"
                           : JSON_NODE_HOLDS_OBJECT(n)   ? "an object"
                           : JSON_NODE_HOLDS_ARRAY(n)    ? "an array"
                           : json_node_get_value_type(n) == G_TYPE_STRING ? "a string"
                           : json_node_get_value_type(n) == G_TYPE_BOOLEAN ? "true/false"
                                                                           : "not an integer";
        bad(m, "\"%s\": %s, where a count (an integer from 0) is expected", k, what);
        return 0;
    }
    gint64 v = json_node_get_int(n);
    if (v < 0 || (uint64_t)v > MERGE_MAX_COUNT) {
        bad(m, "\"%s\": %" G_GINT64_FORMAT " is not a count (0 to 2^53-1)", k, v);
        return 0;
    }
    return (uint64_t)v;
}

/* member k of o: a count the summary always has */
static uint64_t u64_of(struct merged *m, JsonObject *o, const char *k)
{
    return count_node(m, o ? json_object_get_member(o, k) : NULL, k);
}

/* member k: a count written only when it applies (0 when absent) */
static uint64_t opt_u64_of(struct merged *m, JsonObject *o, const char *k)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    return n ? count_node(m, n, k) : 0;
}

/* a count that must also fit a narrower field */
static uint64_t small_of(struct merged *m, JsonObject *o, const char *k, uint64_t max)
{
    uint64_t v = u64_of(m, o, k);
    if (v > max) {
        bad(m, "\"%s\": %ju is out of range (at most %ju)", k, (uintmax_t)v, (uintmax_t)max);
        return 0;
    }
    return v;
}

/* member k: an object, or NULL (absent, or an error when required) */
static JsonObject *obj_node(struct merged *m, JsonNode *n, const char *k, bool required)
{
    if (n && JSON_NODE_HOLDS_OBJECT(n))
        return json_node_get_object(n);
    if (n || required)
        bad(m, "\"%s\": %s, where an object is expected", k, n ? "not an object" : "missing");
    return NULL;
}

static JsonObject *obj_of(struct merged *m, JsonObject *o, const char *k)
{
    return obj_node(m, o ? json_object_get_member(o, k) : NULL, k, true);
}

static JsonObject *opt_obj_of(struct merged *m, JsonObject *o, const char *k)
{
    return obj_node(m, o ? json_object_get_member(o, k) : NULL, k, false);
}

/* member k: an array (NULL and an error when it is not one) */
static JsonArray *arr_of(struct merged *m, JsonObject *o, const char *k)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    if (n && JSON_NODE_HOLDS_ARRAY(n))
        return json_node_get_array(n);
    bad(m, "\"%s\": %s, where an array is expected", k, n ? "not an array" : "missing");
    return NULL;
}

/* element i of an array: an object */
static JsonObject *elem_of(struct merged *m, JsonArray *a, unsigned i, const char *k)
{
    JsonNode *n = json_array_get_element(a, i);
    if (n && JSON_NODE_HOLDS_OBJECT(n))
        return json_node_get_object(n);
    bad(m, "\"%s\"[%u]: not an object", k, i);
    return NULL;
}

/* member k: a string (NULL when absent or not one: an error when required) */
static const char *str_node(struct merged *m, JsonObject *o, const char *k, bool required)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    if (n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING)
        return json_node_get_string(n);
    if (n || required)
        bad(m, "\"%s\": %s, where a string is expected", k, n ? "not a string" : "missing");
    return NULL;
}

static const char *str_of(struct merged *m, JsonObject *o, const char *k)
{
    return str_node(m, o, k, true);
}

/* {NAME: count} added into v[index of NAME]; false (m->err) on a name the
 * vocabulary does not have */
static bool add_counts(struct merged *m, JsonObject *o, const char *key, uint64_t *v, unsigned n,
                       const char *(*name)(unsigned))
{
    JsonObject *c = o ? obj_of(m, o, key) : NULL;
    if (!c)
        return !m->bad;
    GList *keys = json_object_get_members(c);
    for (GList *k = keys; k && !m->bad; k = k->next) {
        int i = index_of(name, n, k->data);
        if (i < 0)
            bad(m, "unknown name '%s' in \"%s\"", (const char *)k->data, key);
        else if (__builtin_add_overflow(v[i], u64_of(m, c, k->data), &v[i]))
            bad(m, "\"%s\": '%s' overflows", key, (const char *)k->data);
    }
    g_list_free(keys);
    return !m->bad;
}

/* {ROW: {NAME: count}} with a protocol or device kind for ROW (row_name),
 * added into the table t of CSC_P__COUNT rows of ncols counts; what names
 * a row in the message on an unknown one */
static void add_table(struct merged *m, JsonObject *o, uint64_t *t, unsigned ncols,
                      const char *(*row_name)(unsigned), const char *(*name)(unsigned), const char *what)
{
    GList *rows = o ? json_object_get_members(o) : NULL;
    for (GList *r = rows; r && !m->bad; r = r->next) {
        int i = index_of(row_name, CSC_P__COUNT, r->data);
        if (i < 0)
            bad(m, "unknown %s '%s'", what, (const char *)r->data);
        else
            add_counts(m, o, r->data, t + (size_t)i * ncols, ncols, name);
    }
    g_list_free(rows);
}

/* ---- the counters --------------------------------------------------------------- */

static bool bool_of(struct merged *m, JsonObject *o, const char *k);

/* a group of the summary's fields (sumfields.c) from object o into rec, the
 * group's struct ("errors" and "gre_csum" are read on their own) */
static void sum_group_of(struct merged *m, JsonObject *o, void *rec, unsigned group)
{
    for (unsigned i = 0; i < sum_nfields; i++) {
        const struct sum_field *f = &sum_fields[i];
        if (f->group != group || f->off == SUM_ERRORS || f->off == SUM_GRE_CSUM)
            continue;
        if (group == SG_CONFIG)
            *(bool *)sum_at(rec, f) = bool_of(m, o, f->key);
        else
            *(uint64_t *)sum_at(rec, f) = u64_of(m, o, f->key);
    }
}

static bool kernel_counts(struct merged *m, JsonObject *k, struct cli_stats *st)
{
    sum_group_of(m, k, st, SG_KVERDICT);
    sum_group_of(m, k, st, SG_KWORK);
    if (!add_counts(m, k, "counters", st->counter, CSC_C__COUNT, csc_counter_name) ||
        !add_counts(m, k, "drop_reasons", st->drop_reason, CLI_DROP_NAMES, csc_drop_name) ||
        !add_counts(m, k, "warnings", st->warning, CLI_BITS, csc_warning_name))
        return false;
    add_table(m, obj_of(m, k, "gro"), &st->gro[0][0], CSC_G__COUNT, csc_dev_name, csc_gro_reason_name,
              "device");
    return !m->bad;
}

static bool stats_of(struct merged *m, JsonObject *s, struct cli_stats *st)
{
    memset(st, 0, sizeof *st);
    sum_group_of(m, s, st, SG_HEAD);
    JsonObject *layers = obj_of(m, s, "layers"), *findings = obj_of(m, s, "findings");
    add_table(m, layers, &st->layer[0][0], CSC_V__COUNT, csc_proto_name, csc_verdict_name, "protocol");
    if (m->bad || !add_counts(m, s, "reasons", st->reason, CSC_R__COUNT, csc_reason_name) ||
        !add_counts(m, s, "stops", st->stop, CSC_STOP__COUNT, csc_stop_name))
        return false;
    JsonObject *sp = opt_obj_of(m, s, "stops_by_proto");
    for (unsigned i = 1; sp && i < CSC_STOP__COUNT; i++)
        if (json_object_has_member(sp, csc_stop_name(i)) &&
            !add_counts(m, sp, csc_stop_name(i), st->stop_proto[i], CSC_P__COUNT, csc_proto_name))
            return false;
    for (unsigned i = 0; findings && i < FD__COUNT; i++)
        st->finding[i] = u64_of(m, findings, cli_finding_name(i));
    st->findings_any = u64_of(m, findings, "any");
    st->action_any = u64_of(m, s, "action");
    JsonObject *bd = obj_of(m, s, "by_design");
    st->by_design_any = u64_of(m, bd, "frames");
    if (m->bad || !add_counts(m, bd, "findings", st->by_design, FD__COUNT, cli_finding_name))
        return false;
    JsonObject *dir = opt_obj_of(m, s, "direction");
    if (dir && (!add_counts(m, dir, "sent", st->direction[CSC_DIR_OUT], CSC_DF__COUNT,
                            csc_dir_from_name) ||
                !add_counts(m, dir, "received", st->direction[CSC_DIR_IN], CSC_DF__COUNT,
                            csc_dir_from_name)))
        return false;
    if (dir)
        st->direction[CSC_DIR_UNKNOWN][CSC_DF_NONE] = u64_of(m, dir, "unknown");
    JsonObject *tx = opt_obj_of(m, s, "tx");
    if (tx && (!add_counts(m, tx, "left", st->tx_kind, CSC_TX__COUNT, csc_tx_kind_name) ||
               !add_counts(m, tx, "peer", st->tx_peer, CSC_K__COUNT, csc_kverdict_name) ||
               !add_counts(m, tx, "peer_not_replayed", st->tx_peer_not, CSC_TXP__COUNT,
                           csc_tx_peer_not_name)))
        return false;
    if (tx)
        st->tx_frames = u64_of(m, tx, "frames");
    JsonObject *frag = obj_of(m, s, "frag"), *k = obj_of(m, s, "kernel");
    sum_group_of(m, frag, st, SG_FRAG);
    return !m->bad && kernel_counts(m, k, st);
}

/* ---- the configuration ------------------------------------------------------------ */

/* member k: true or false */
static bool bool_of(struct merged *m, JsonObject *o, const char *k)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    if (n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN)
        return json_node_get_boolean(n);
    bad(m, "\"%s\": %s, where true or false is expected", k, n ? "not a boolean" : "missing");
    return false;
}

/* The first summary's configuration becomes the run's; the others must be equal */
static bool config_of(struct merged *m, JsonObject *s)
{
    JsonNode *cn = json_object_get_member(s, "config"), *gn = json_object_get_member(s, "gro");
    if (!cn || !gn || !JSON_NODE_HOLDS_OBJECT(cn) || !JSON_NODE_HOLDS_OBJECT(gn)) {
        bad(m, "no \"config\" or \"gro\" object: not a csumcheck summary");
        return false;
    }
    JsonObject *c = json_node_get_object(cn), *g = json_node_get_object(gn);
    uint64_t budget = small_of(m, g, "budget", UINT16_MAX);
    uint64_t timeout = small_of(m, g, "flush_timeout_us", UINT32_MAX);
    uint64_t max = small_of(m, g, "max_size", UINT32_MAX);
    uint64_t gap = small_of(m, g, "poll_gap_us", UINT32_MAX);
    if (m->bad)
        return false;
    char *ct = json_to_string(cn, FALSE);
    bool one_bucket = json_object_has_member(g, "nic_no_rx_hash") && bool_of(m, g, "nic_no_rx_hash");
    char *text = g_strdup_printf("%s budget %ju timeout %ju max %ju gap %ju one-bucket %d", ct, (uintmax_t)budget,
                                 (uintmax_t)timeout, (uintmax_t)max, (uintmax_t)gap, one_bucket);
    g_free(ct);
    if (m->config) {
        bool same = !strcmp(text, m->config);
        g_free(text);
        if (!same)
            bad(m, "its configuration (\"config\", GRO engine) differs from the first summary's: "
                   "one run over all the files would have one");
        return same;
    }
    m->config = text;
    struct cli_run *run = m->run;
    struct csc_config *cfg = &run->cfg;
    const char *rx = str_of(m, c, "rx"), *era = str_of(m, c, "era"), *gre = str_of(m, c, "gre_csum");
    if (m->bad)
        return false;
    if (!csc_report_parse(rx, &cfg->rx) || !csc_era_by_name(era, &cfg->era) ||
        index_of(csc_gre_csum_name, CSC_GRE_CSUM__COUNT, gre) < 0) {
        bad(m, "\"config\": an rx, era or gre_csum this csumcheck does not know");
        return false;
    }
    csc_report_format(&cfg->rx, run->rx_name, sizeof run->rx_name);
    cfg->gre_csum = (uint8_t)index_of(csc_gre_csum_name, CSC_GRE_CSUM__COUNT, gre);
    sum_group_of(m, c, cfg, SG_CONFIG);
    const char *kind = str_node(m, c, "iface_kind", false);
    int via = kind ? index_of(csc_via_name, CSC_VIA__COUNT, kind) : CSC_VIA_NIC;
    if (via < 0) {
        bad(m, "\"config\": an iface_kind this csumcheck does not know");
        return false;
    }
    cfg->via = (uint8_t)via;
    cfg->guess_direction = !json_object_has_member(c, "direction_guess") ||
                           bool_of(m, c, "direction_guess");
    cfg->replay_sent = json_object_has_member(c, "replay_sent") && bool_of(m, c, "replay_sent");
    JsonNode *pn = json_object_get_member(c, "peer_rx");
    const char *peer = pn && !JSON_NODE_HOLDS_NULL(pn) ? str_node(m, c, "peer_rx", true) : NULL;
    run->peer_on = peer && csc_report_parse(peer, &run->peer_rx);
    if (run->peer_on)
        csc_report_format(&run->peer_rx, run->peer_name, sizeof run->peer_name);
    JsonArray *locals = json_object_has_member(c, "local") ? arr_of(m, c, "local") : NULL;
    for (unsigned i = 0; locals && !m->bad && i < json_array_get_length(locals); i++) {
        JsonNode *a = json_array_get_element(locals, i);
        bool ok = a && JSON_NODE_HOLDS_VALUE(a) && json_node_get_value_type(a) == G_TYPE_STRING &&
                  csc_local_add(&m->o->local, json_node_get_string(a));
        if (!ok) {
            bad(m, "\"config\": a local address this csumcheck does not take");
            return false;
        }
    }
    cfg->local = m->o->local.n ? &m->o->local : NULL;
    JsonArray *ops = arr_of(m, c, "rewrite");
    run->rewrite = 0;
    for (unsigned i = 0; ops && !m->bad && i < json_array_get_length(ops); i++) {
        JsonNode *op = json_array_get_element(ops, i);
        bool ok = op && JSON_NODE_HOLDS_VALUE(op) && json_node_get_value_type(op) == G_TYPE_STRING;
        unsigned rw = ok ? csc_rewrite_parse(json_node_get_string(op), &ok) : 0;
        if (!ok)
            bad(m, "\"config\": \"rewrite\"[%u] is not a --rewrite operation", i);
        run->rewrite |= rw;
    }
    run->gro_cfg.budget = (uint16_t)budget;
    run->gro_cfg.flush_timeout_us = (uint32_t)timeout;
    run->gro_cfg.max_size = (uint32_t)max;
    run->gro_cfg.poll_gap_us = (uint32_t)gap;
    run->gro_cfg.nic_no_rx_hash = json_object_has_member(g, "nic_no_rx_hash") && bool_of(m, g, "nic_no_rx_hash");
    return !m->bad;
}

/* ---- the GRO engine and the flows ------------------------------------------------- */

/* {"proto","src","dst","sport","dport"} or null, as json_endpoint writes it */
static bool endpoint_of(struct merged *m, JsonObject *o, const char *key, struct cli_endpoint *e)
{
    memset(e, 0, sizeof *e);
    JsonNode *n = json_object_get_member(o, key);
    if (!n || JSON_NODE_HOLDS_NULL(n))
        return true;
    JsonObject *p = obj_node(m, n, key, true);
    const char *proto = str_of(m, p, "proto"), *src = str_of(m, p, "src"), *dst = str_of(m, p, "dst");
    if (m->bad)
        return false;
    e->family = strchr(src, ':') ? CLI_FAMILY_IPV6 : CLI_FAMILY_IPV4;
    int af = e->family == CLI_FAMILY_IPV6 ? AF_INET6 : AF_INET;
    if (inet_pton(af, src, e->src) != 1 || inet_pton(af, dst, e->dst) != 1) {
        bad(m, "\"%s\": an address that is not one", key);
        return false;
    }
    if (strcmp(proto, "ip")) {
        int l4 = index_of(csc_proto_name, CSC_P__COUNT, proto);
        if (l4 < 0) {
            bad(m, "\"%s\": unknown protocol '%s'", key, proto);
            return false;
        }
        e->l4 = (uint8_t)l4;
        e->sport = (uint16_t)small_of(m, p, "sport", UINT16_MAX);
        e->dport = (uint16_t)small_of(m, p, "dport", UINT16_MAX);
    }
    return !m->bad;
}

/* tunnel, inner (and outer) of a flow record */
static bool flow_id_of(struct merged *m, JsonObject *o, struct cli_flow_id *id)
{
    memset(id, 0, sizeof *id);
    id->first_frame = u64_of(m, o, "first_frame");
    JsonNode *tn = json_object_get_member(o, "tunnel");
    if (tn && !JSON_NODE_HOLDS_NULL(tn)) {
        JsonObject *t = obj_node(m, tn, "tunnel", true);
        const char *proto = str_of(m, t, "proto");
        int p = proto ? index_of(csc_proto_name, CSC_P__COUNT, proto) : -1;
        if (p < 0) {
            bad(m, "\"tunnel\": unknown protocol");
            return false;
        }
        id->tunnel = (uint8_t)p;
        JsonNode *idn = json_object_get_member(t, "id");
        if (idn && !JSON_NODE_HOLDS_NULL(idn)) {
            uint64_t v = count_node(m, idn, "id");
            if (v > UINT32_MAX)
                bad(m, "\"tunnel\": an id beyond 32 bits");
            id->tunnel_id = (uint32_t)v;
        }
    }
    return !m->bad && endpoint_of(m, o, "outer", &id->outer) && endpoint_of(m, o, "inner", &id->inner);
}

/* the index, in the merged order, of a file a flow names: its place in this
 * summary's per-file table (first) + the files of the summaries before */
static bool file_of(struct merged *m, JsonObject *o, const GArray *jobs, unsigned first,
                    unsigned *file)
{
    const char *name = str_of(m, o, "file");
    for (unsigned i = first; name && i < jobs->len; i++)
        if (!strcmp(g_array_index(jobs, struct job, i).path, name)) {
            *file = i;
            return true;
        }
    bad(m, "a flow names a file that is not in \"per_file\"");
    return false;
}

/* The length of one of "gro"'s arrays (none: 0); false past max (what: of what) */
static bool gro_len(struct merged *m, JsonArray *a, unsigned max, const char *what, unsigned *n)
{
    *n = a ? json_array_get_length(a) : 0;
    if (*n <= max)
        return true;
    bad(m, "\"gro\": %u %s (at most %u)", *n, what, max);
    return false;
}

static bool gro_devices(struct merged *m, JsonArray *devs, struct cli_gro_totals *t)
{
    unsigned n;
    if (!gro_len(m, devs, CLI_GRO_DEVS, "devices", &n))
        return false;
    for (unsigned i = 0; i < n && !m->bad; i++) {
        JsonObject *d = elem_of(m, devs, i, "devices");
        const char *dev = str_of(m, d, "device");
        int kind = dev ? index_of(csc_dev_name, CSC_P__COUNT, dev) : -1;
        if (kind < 0) {
            bad(m, "\"gro\": an unknown device");
            return false;
        }
        struct cli_gro_dev *v = &t->dev[i];
        *v = (struct cli_gro_dev){ .used = 1, .kind = (uint8_t)kind,
                                   .depth = (uint8_t)small_of(m, d, "depth", UINT8_MAX) };
        v->frames_in = u64_of(m, d, "frames_in");
        v->packets_out = u64_of(m, d, "packets_out");
        v->merged_frames = u64_of(m, d, "merged_frames");
        v->alone = u64_of(m, d, "alone");
        v->order_dep = opt_u64_of(m, d, "order_dependent");
        add_counts(m, d, "refused", v->refused, CSC_G__COUNT, csc_gro_reason_name);
        add_counts(m, d, "flushes", v->flushes, CSC_GF__COUNT, csc_gro_flush_name);
    }
    return !m->bad;
}

static bool gro_top(struct merged *m, JsonArray *top, unsigned first, struct cli_gro_totals *t)
{
    unsigned n;
    if (!gro_len(m, top, CLI_TOP_FLOWS_MAX, "top flows", &n))
        return false;
    for (unsigned i = 0; i < n && !m->bad; i++) {
        JsonObject *f = elem_of(m, top, i, "top_flows");
        struct cli_gro_flow *fl = &t->top[t->ntop];
        memset(fl, 0, sizeof *fl);
        const char *dev = f ? str_of(m, f, "device") : NULL;
        int kind = dev ? index_of(csc_dev_name, CSC_P__COUNT, dev) : -1;
        if (kind < 0 || !flow_id_of(m, f, &fl->id) || !file_of(m, f, m->jobs, first, &fl->file) ||
            !add_counts(m, f, "flushes", fl->flushes, CSC_GF__COUNT, csc_gro_flush_name)) {
            bad(m, "\"gro\": top flow %u cannot be read back", i + 1);
            return false;
        }
        fl->kind = (uint8_t)kind;
        fl->depth = (uint8_t)small_of(m, f, "depth", UINT8_MAX);
        fl->id.tcp = 1;
        fl->frames_in = u64_of(m, f, "frames_in");
        fl->packets_out = u64_of(m, f, "packets_out");
        fl->merged_frames = u64_of(m, f, "merged_frames");
        t->ntop++;
    }
    return !m->bad;
}

static bool gro_of(struct merged *m, JsonObject *s, unsigned first)
{
    JsonObject *g = obj_of(m, s, "gro");
    struct cli_gro_totals t;
    gro_totals_init(&t);
    bool ok = g && gro_devices(m, arr_of(m, g, "devices"), &t) &&
              gro_top(m, arr_of(m, g, "top_flows"), first, &t);
    t.frames = u64_of(m, g, "frames");
    t.frames_unfollowed = opt_u64_of(m, g, "frames_unfollowed");
    sum_group_of(m, g, &t, SG_GRO);
    ok = ok && !m->bad;
    if (ok)
        gro_totals_merge(&m->run->gro, &t, m->o->top_flows);
    gro_totals_free(&t);
    return ok;
}

static bool flows_of(struct merged *m, JsonObject *s, unsigned first)
{
    JsonObject *f = opt_obj_of(m, s, "flows");
    if (!f)
        return !m->bad;
    m->flows = true;
    struct cli_flow_totals *t = &m->run->flows;
    t->flows += u64_of(m, f, "flows");
    t->evicted += u64_of(m, f, "evicted");
    t->frames_unnamed += u64_of(m, f, "frames_without_flow");
    JsonArray *top = arr_of(m, f, "top");
    for (unsigned i = 0; top && !m->bad && i < json_array_get_length(top); i++) {
        JsonObject *o = elem_of(m, top, i, "top");
        struct cli_flow fl;
        memset(&fl, 0, sizeof fl);
        if (!o || !flow_id_of(m, o, &fl.id) || !file_of(m, o, m->jobs, first, &fl.file)) {
            bad(m, "\"flows\": flow %u cannot be read back", i + 1);
            return false;
        }
        JsonNode *ev = json_object_get_member(o, "evicted");
        fl.evicted = ev && bool_of(m, o, "evicted");
        fl.frames = u64_of(m, o, "frames");
        fl.drops = u64_of(m, o, "drops");
        fl.bad = u64_of(m, o, "bad");
        fl.sw_passes = u64_of(m, o, "sw_passes");
        fl.sw_bytes = u64_of(m, o, "sw_bytes");
        if (!m->bad)
            flow_totals_offer(t, &fl, m->o->flows ? m->o->flows : CLI_FLOWS_DEFAULT);
    }
    return !m->bad;
}

/* ---- one summary ------------------------------------------------------------------ */

static bool per_file_of(struct merged *m, JsonObject *s)
{
    JsonArray *pf = arr_of(m, s, "per_file");
    for (unsigned i = 0; pf && !m->bad && i < json_array_get_length(pf); i++) {
        JsonObject *f = elem_of(m, pf, i, "per_file");
        const char *name = f ? str_of(m, f, "file") : NULL;
        struct job j;
        memset(&j, 0, sizeof j);
        j.frames = u64_of(m, f, "frames");
        j.findings = u64_of(m, f, "findings");
        j.drops = u64_of(m, f, "drops");
        j.failed = json_object_get_member(f ? f : s, "failed") && f && bool_of(m, f, "failed");
        if (m->bad)
            break;
        j.index = m->jobs->len;
        j.path = g_strdup(name);
        j.opened = true;
        g_array_append_val(m->jobs, j);
    }
    return !m->bad;
}

/* into += add, false on an overflow (struct cli_stats is uint64_t only) */
static bool stats_fit(const struct cli_stats *into, const struct cli_stats *add)
{
    const uint64_t *a = (const uint64_t *)(const void *)into, *b = (const uint64_t *)(const void *)add;
    uint64_t r;
    for (size_t i = 0; i < sizeof *into / sizeof(uint64_t); i++)
        if (__builtin_add_overflow(a[i], b[i], &r))
            return false;
    return true;
}

static const int exit_statuses[] = { 0, 1, 2, 130, 141, 143 };

static bool merge_summary(struct merged *m, JsonObject *s)
{
    unsigned first = m->jobs->len;
    struct cli_stats st;
    if (!config_of(m, s) || !stats_of(m, s, &st) || !per_file_of(m, s) || !gro_of(m, s, first) ||
        !flows_of(m, s, first))
        return false;
    JsonObject *bl = opt_obj_of(m, s, "baseline");
    if (bl) {                      /* --baseline runs: their counts add up */
        sum_group_of(m, bl, &st, SG_BASELINE);
        m->baseline = true;
    }
    uint64_t errors = u64_of(m, s, "errors"), status = u64_of(m, s, "exit_status");
    bool known = false;
    for (size_t i = 0; i < G_N_ELEMENTS(exit_statuses); i++)
        known |= status == (uint64_t)exit_statuses[i];
    if (!m->bad && !known)
        bad(m, "\"exit_status\": %ju is not one csumcheck exits with", (uintmax_t)status);
    if (!m->bad && !stats_fit(&m->run->st, &st))
        bad(m, "the counts overflow when added to the summaries before");
    if (m->bad)
        return false;
    cli_stats_merge(&m->run->st, &st);
    m->nerrors += errors;
    m->fail_hit |= status == 1;
    JsonNode *in = json_object_get_member(s, "interrupted");
    if (in && bool_of(m, s, "interrupted")) {
        const char *sig = str_of(m, s, "signal");
        if (!m->stopped_by)
            m->stopped_by = !g_strcmp0(sig, "SIGTERM") ? 15 : !g_strcmp0(sig, "SIGPIPE") ? 13 : 2;
    }
    return !m->bad;
}

bool merge_line(struct merged *m, const char *line, size_t len)
{
    m->bad = false;
    g_string_truncate(m->err, 0);
    const char *why = jl_unbounded(line, len, MERGE_MAX_DEPTH, MERGE_MAX_KEYS);
    if (why) {
        bad(m, "%s", why);
        return false;
    }
    JsonParser *p = json_parser_new();
    GError *e = NULL;
    bool ok = json_parser_load_from_data(p, line, (gssize)len, &e);
    if (!ok) {
        bad(m, "the summary is not JSON: %s", e->message);
        g_error_free(e);
    } else {
        JsonNode *root = json_parser_get_root(p);
        ok = root && JSON_NODE_HOLDS_OBJECT(root);
        if (!ok)
            bad(m, "the summary is not a JSON object");
        else
            ok = merge_summary(m, json_node_get_object(root));
    }
    g_object_unref(p);
    return ok;
}

/* The summary line of a JSON Lines output (its last {"type":"summary"}
 * line: the writer puts "type" first, so no other line is kept), at most
 * MERGE_MAX_LINE bytes; *lineno: its line number */
static char *summary_line(struct merged *m, FILE *f, size_t *len, uint64_t *lineno)
{
    static const char head[] = "{\"type\":\"summary\"", cmp[] = "{\"type\":\"compare\"";
    GString *cur = g_string_new(NULL);
    char *last = NULL;
    bool compare = false, keep = true, too_long = false;
    uint64_t no = 0;
    int ch;
    for (;;) {
        ch = getc(f);
        if (ch != EOF && ch != '\n') {
            if (keep && cur->len < MERGE_MAX_LINE)
                g_string_append_c(cur, (char)ch);
            else if (keep)
                too_long = true;
            /* past the head of another record: not kept */
            if (keep && cur->len == sizeof head - 1 && memcmp(cur->str, head, sizeof head - 1)) {
                compare |= !memcmp(cur->str, cmp, sizeof cmp - 1);
                keep = false;
            }
            continue;
        }
        if (cur->len || ch == '\n')
            no++;
        if (keep && cur->len >= sizeof head - 1) {
            if (too_long) {
                bad(m, "line %ju: a summary line longer than %u MiB", (uintmax_t)no,
                    MERGE_MAX_LINE >> 20);
                break;
            }
            g_free(last);
            *len = cur->len;
            last = g_strndup(cur->str, cur->len);
            *lineno = no;
        }
        g_string_truncate(cur, 0);
        keep = true;
        too_long = false;
        if (ch == EOF)
            break;
    }
    g_string_free(cur, TRUE);
    if (ferror(f))
        bad(m, "read error: %s", g_strerror(errno));
    if (m->bad) {
        g_free(last);
        return NULL;
    }
    if (!last)
        bad(m, compare ? "a --compare run: merge the summaries of plain runs"
                       : "no {\"type\":\"summary\"} line (csumcheck -F json output is expected)");
    return last;
}

static bool merge_file(struct merged *m, const char *path, uint64_t *lineno)
{
    m->bad = false;
    g_string_truncate(m->err, 0);
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        bad(m, "%s", g_strerror(errno));
        return false;
    }
    size_t len = 0;
    char *line = summary_line(m, f, &len, lineno);
    if (f != stdin)
        fclose(f);
    bool ok = line && merge_line(m, line, len);
    g_free(line);
    return ok;
}

int merge_write(struct merged *m, struct wbuf *w, const struct out_format *fmt)
{
    struct cli_opts *o = m->o;
    o->njobv = m->jobs->len;
    o->jobv = (struct job *)(void *)m->jobs->data;
    if (m->flows && !o->flows)
        o->flows = CLI_FLOWS_DEFAULT;
    if (m->baseline && !o->baseline_path)   /* the summary says the counts */
        o->baseline_path = g_strdup("the runs' baselines");
    int status = m->stopped_by ? 128 + m->stopped_by : m->nerrors ? 2 : m->fail_hit ? 1 : 0;
    struct out_summary s = { o, m->run, (unsigned)m->nerrors, o->njobv, status, m->stopped_by };
    fmt->summary(w, &s);
    wb_flush(w);
    o->jobv = NULL;
    o->njobv = 0;
    return status;
}

struct merged *merge_new(struct cli_opts *o, struct cli_run *runs)
{
    struct merged *m = g_new0(struct merged, 1);
    m->run = &runs[0];
    m->o = o;
    m->jobs = g_array_new(FALSE, TRUE, sizeof(struct job));
    m->err = g_string_new(NULL);
    return m;
}

const char *merge_error(const struct merged *m)
{
    return m->err->str;
}

void merge_free(struct merged *m)
{
    for (unsigned i = 0; i < m->jobs->len; i++)
        g_free(g_array_index(m->jobs, struct job, i).path);
    g_array_free(m->jobs, TRUE);
    g_free(m->config);
    g_string_free(m->err, TRUE);
    g_free(m);
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
    unsigned n = g_strv_length(o->inputs);
    if (n > MERGE_MAX_INPUTS) {
        fprintf(stderr, CLI_NAME ": --merge: %u summaries (at most %u at once: merge their merged "
                "summaries)\n", n, MERGE_MAX_INPUTS);
        return 2;
    }
    struct merged *m = merge_new(o, runs);
    int status = 0;
    for (char **in = o->inputs; *in && !status; in++) {
        uint64_t line = 0;
        if (!merge_file(m, *in, &line)) {
            char *name = wb_escaped(wb_text_name, *in);
            if (line)
                fprintf(stderr, CLI_NAME ": --merge: %s:%ju: %s\n", name, (uintmax_t)line,
                        m->err->str);
            else
                fprintf(stderr, CLI_NAME ": --merge: %s: %s\n", name, m->err->str);
            g_free(name);
            status = 2;
        }
    }
    if (!status && m->nerrors > UINT_MAX) {
        fprintf(stderr, CLI_NAME ": --merge: more errors than can be counted\n");
        status = 2;
    }
    if (!status) {
        static char buf[1u << 16];
        struct wbuf w = { buf, 0, sizeof buf, stdout_flush, NULL };
        status = merge_write(m, &w, o->format);
        if (fflush(stdout))
            status = 2;
    }
    merge_free(m);
    return status;
}
