/*
 * compare.c - --compare: the totals of two runs as rows, one per figure
 * (compare.h); out_text_summary.c, out_json_summary.c and out_csv.c write
 * them.
 */
#include "compare.h"

#include "gro_totals.h"
#include "stats.h"

#include <stdio.h>
#include <string.h>

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

/* the text of a row: the key without its section prefix */
static void row_text(char *t, size_t n, const char *key)
{
    const char *dot = strchr(key, '.');
    snprintf(t, n, "%s", dot ? dot + 1 : key);
}

#define ROW(sec, always, a, b, ...)                                                            \
    do {                                                                                       \
        char k_[112], t_[112];                                                                 \
        snprintf(k_, sizeof k_, __VA_ARGS__);                                                  \
        row_text(t_, sizeof t_, k_);                                                           \
        add_row(rows, sec, k_, t_, false, (double)(a), (double)(b), always);                   \
    } while (0)

/* nonzero counts of one table, one row each */
static void count_rows(GArray *rows, const char *sec, const char *prefix, const uint64_t *a,
                       const uint64_t *b, unsigned from, unsigned n, const char *(*name)(unsigned))
{
    for (unsigned i = from; i < n; i++)
        ROW(sec, false, a[i], b[i], "%s%s", prefix, name(i));
}

/* drop reasons by name, the union of both runs' names */
static void drop_rows(GArray *rows, const struct cli_stats *a, const struct cli_stats *b)
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

static void stats_rows(GArray *rows, const struct cli_run *runs)
{
    const struct cli_stats *a = &runs[0].st, *b = &runs[1].st;
    const struct cli_gro_totals *ga = &runs[0].gro, *gb = &runs[1].gro;
    ROW("capture", true, a->frames, b->frames, "frames");
    for (unsigned p = 0; p < CSC_P__COUNT; p++)
        for (size_t i = 0; i < CSC_V__COUNT - 1; i++) {
            unsigned v = verdict_cols[i];
            ROW("checksums", false, a->layer[p][v], b->layer[p][v], "layers.%s.%s",
                csc_proto_name(p), csc_verdict_name(v));
        }
    count_rows(rows, "findings (frames)", "findings.", a->finding, b->finding, 0, FD__COUNT,
               cli_finding_name);
    ROW("kernel", true, a->kverdict[CSC_K_ACCEPT], b->kverdict[CSC_K_ACCEPT], "kernel.accept");
    ROW("kernel", true, a->kverdict[CSC_K_DROP], b->kverdict[CSC_K_DROP], "kernel.drop");
    ROW("kernel", false, a->kverdict[CSC_K_UNKNOWN], b->kverdict[CSC_K_UNKNOWN], "kernel.unknown");
    ROW("kernel", false, a->kernel_not_run, b->kernel_not_run, "kernel.not_run");
    count_rows(rows, "kernel", "kernel.counters.", a->counter, b->counter, 0, CSC_C__COUNT,
               csc_counter_name);
    drop_rows(rows, a, b);
    count_rows(rows, "kernel", "kernel.warnings.", a->warning, b->warning, 0, CLI_BITS,
               csc_warning_name);
    ROW("software checksum", true, a->sw_passes, b->sw_passes, "kernel.sw_passes");
    ROW("software checksum", true, a->sw_bytes, b->sw_bytes, "kernel.sw_bytes");
    ROW("software checksum", true, ga->passes_merged, gb->passes_merged, "gro.sw_passes_merged");
    ROW("software checksum", true, ga->bytes_merged, gb->bytes_merged, "gro.sw_bytes_merged");
}

static const struct cli_gro_dev *find_dev(const struct cli_gro_totals *t, uint8_t kind,
                                          uint8_t depth)
{
    static const struct cli_gro_dev zero;
    for (unsigned i = 0; i < CLI_GRO_DEVS; i++)
        if (t->dev[i].used && t->dev[i].kind == kind && t->dev[i].depth == depth)
            return &t->dev[i];
    return &zero;
}

/* engine devices of either run, by depth then kind */
static unsigned union_devs(const struct cli_run *runs, struct cli_gro_totals *u,
                           const struct cli_gro_dev **dv)
{
    memset(u, 0, sizeof *u);
    for (int s = 0; s < 2; s++) {
        const struct cli_gro_totals *t = &runs[s].gro;
        for (unsigned i = 0; i < CLI_GRO_DEVS; i++) {
            if (!t->dev[i].used)
                continue;
            unsigned k;
            for (k = 0; k < CLI_GRO_DEVS && u->dev[k].used; k++)
                if (u->dev[k].kind == t->dev[i].kind && u->dev[k].depth == t->dev[i].depth)
                    break;
            if (k < CLI_GRO_DEVS && !u->dev[k].used)
                u->dev[k] = (struct cli_gro_dev){ .used = 1, .kind = t->dev[i].kind,
                                                  .depth = t->dev[i].depth };
        }
    }
    return sorted_devs(u, dv);
}

static void gro_dev_rows(GArray *rows, const struct cli_gro_dev *x, const struct cli_gro_dev *y,
                         const char *name)
{
    char sec[48], k[112], pre[64];
    snprintf(sec, sizeof sec, "gro engine at %s", name);
    ROW(sec, true, x->frames_in, y->frames_in, "gro.%s.frames_in", name);
    ROW(sec, true, x->packets_out, y->packets_out, "gro.%s.packets_out", name);
    snprintf(k, sizeof k, "gro.%s.ratio", name);
    add_row(rows, sec, k, "ratio", true, ratio(x->frames_in, x->packets_out),
            ratio(y->frames_in, y->packets_out), true);
    ROW(sec, true, x->merged_frames, y->merged_frames, "gro.%s.merged_frames", name);
    ROW(sec, false, x->alone, y->alone, "gro.%s.alone", name);
    snprintf(pre, sizeof pre, "gro.%s.refused.", name);
    count_rows(rows, sec, pre, x->refused, y->refused, 0, CSC_G__COUNT, csc_gro_reason_name);
    snprintf(pre, sizeof pre, "gro.%s.flushes.", name);
    count_rows(rows, sec, pre, x->flushes, y->flushes, 1, CSC_GF__COUNT, csc_gro_flush_name);
}

/* what the text table says for a key: its last part, in words */
static void row_words(struct row *r)
{
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
    else if (!strncmp(r->key, "kernel.counters.", 16) || !strncmp(r->key, "kernel.warnings.", 16))
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

GArray *compare_rows(const struct cli_run *runs)
{
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct row));
    stats_rows(rows, runs);
    struct cli_gro_totals u;
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
    unsigned nd = union_devs(runs, &u, dv);
    for (unsigned i = 0; i < nd; i++) {
        char name[32];
        dev_label(name, sizeof name, &u, dv[i]->kind, dv[i]->depth);
        gro_dev_rows(rows, find_dev(&runs[0].gro, dv[i]->kind, dv[i]->depth),
                     find_dev(&runs[1].gro, dv[i]->kind, dv[i]->depth), name);
    }
    for (unsigned i = 0; i < rows->len; i++)
        row_words(&g_array_index(rows, struct row, i));
    return rows;
}

bool row_differs(const struct row *r)
{
    return r->dbl ? (r->a - r->b > 0.0005 || r->b - r->a > 0.0005) : r->a != r->b;
}

void row_value(char *buf, size_t n, const struct row *r, double v, int decimals)
{
    if (r->dbl)
        snprintf(buf, n, "%.*f", decimals, v);
    else
        snprintf(buf, n, "%.0f", v);
}
