/*
 * compare.c - --compare: the totals of two runs side by side, one row per
 * figure (text table, the closing {"type":"compare"} JSON line, or CSV
 * metric,a,b,differs).
 */
#include "summary.h"

#include <string.h>

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
    for (unsigned i = 0; i < CLI_GRO_DEVS; i++)
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
        for (unsigned i = 0; i < CLI_GRO_DEVS; i++) {
            if (!t->dev[i].used)
                continue;
            unsigned k;
            for (k = 0; k < CLI_GRO_DEVS && u.dev[k].used; k++)
                if (u.dev[k].kind == t->dev[i].kind && u.dev[k].depth == t->dev[i].depth)
                    break;
            if (k < CLI_GRO_DEVS && !u.dev[k].used)
                u.dev[k] = (struct cli_gro_dev){ .used = 1, .kind = t->dev[i].kind,
                                                 .depth = t->dev[i].depth };
        }
    }
    const struct cli_gro_dev *dv[CLI_GRO_DEVS];
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
    summary_text_closing(w, o, st, nerrors);
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
