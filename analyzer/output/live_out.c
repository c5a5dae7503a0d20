/*
 * live_out.c - csumcheck --live's records (live_out.h). With one kernel a
 * frame is one line (or one "live" object): the model's outcome and the
 * kernel's, and whether they agree. With several (--kernel A,B,...), each
 * kernel's outcome beside the model's at that kernel's era, in the order
 * given, and the frames whose fate changes from one kernel to the next.
 * --era A,B (no --live) prints the same from the model alone.
 */
#include "live_out.h"

#include "vm.h"

#include "csumcheck/csumcheck.h"

#include <stdio.h>
#include <string.h>

static const char *const RESULT_WORD[LIVE_RES__COUNT] = { "agree", "disagree", "not-replayable-here",
                                                          "not-replayable", "error", "model", "not-replayed" };

static const char *outcome_word(int cls)
{
    return cls == LIVE_C_DELIVERED ? "accept" : live_class_name(cls);
}

static bool several(const struct live_out *lo)
{
    return lo->lr->nk > 1;
}

/* Does the frame's fate change between two kernels next to each other? */
static bool fate_changes(const struct live_replay *lr, const struct live_fr *f)
{
    for (int i = 0; i + 1 < lr->nk; i++)
        if (live_fate_known(&f->k[i]) && live_fate_known(&f->k[i + 1]) && !live_fate_same(&f->k[i], &f->k[i + 1]))
            return true;
    return false;
}

/* ---- text ---- */

static void text_one(const struct live_out *lo, const struct live_fr *f)
{
    struct wbuf *w = lo->w;
    const struct live_outcome *k = &f->k[0];
    if ((k->result == LIVE_RES_AGREE && lo->o->quiet) || k->result == LIVE_RES_NOT_RUN)
        return;                      /* interrupted: counted in the summary */
    wb_printf(w, "  frame %-5llu ", (unsigned long long)f->no);
    if (k->result == LIVE_RES_NOT_REPLAYABLE || k->result == LIVE_RES_SKIPPED || k->result == LIVE_RES_ERROR) {
        static const char *const what[] = { [LIVE_RES_NOT_REPLAYABLE] = "not replayable",
                                            [LIVE_RES_SKIPPED] = "not replayable on this kernel",
                                            [LIVE_RES_ERROR] = "HARNESS ERROR" };
        wb_printf(w, "%s: %s\n", what[k->result], k->why);
        return;
    }
    char mc[200], kc[200];
    live_counts_text(k->mcnt, mc, sizeof mc);
    live_counts_text(k->kcnt, kc, sizeof kc);
    wb_printf(w, "%-9s %-4s model: %-9s {%s}  kernel: %-9s {%s}  %s%s\n", live_rk_name(f->kind),
              live_tp_name(f->l4), outcome_word(k->mclass), mc, outcome_word(k->kclass), kc,
              k->result == LIVE_RES_AGREE ? "agree" : "DISAGREE: ", k->result == LIVE_RES_AGREE ? "" : k->why);
    if (lo->o->verbose)
        wb_printf(w, "              the namespace's counters that moved: %s\n", k->deltas[0] ? k->deltas : "none");
}

/* One kernel's part of a frame's line */
static void text_cell(struct wbuf *w, const struct live_kernel *kn, const struct live_outcome *o)
{
    char fate[240], mc[200];
    switch (o->result) {
    case LIVE_RES_AGREE: case LIVE_RES_MODEL:
        live_fate_text(o, fate, sizeof fate);
        wb_printf(w, "%s: %s%s", kn->name, fate, o->result == LIVE_RES_AGREE ? " agree" : "");
        break;
    case LIVE_RES_DISAGREE:
        live_fate_text(o, fate, sizeof fate);
        live_counts_text(o->mcnt, mc, sizeof mc);
        wb_printf(w, "%s: %s DISAGREE (model %s {%s})", kn->name, fate, outcome_word(o->mclass), mc);
        break;
    case LIVE_RES_SKIPPED:
        wb_printf(w, "%s: not replayable here (%s)", kn->name, o->why);
        break;
    case LIVE_RES_NOT_RUN:
        wb_printf(w, "%s: not replayed (interrupted)", kn->name);
        break;
    default:
        wb_printf(w, "%s: HARNESS ERROR (%s)", kn->name, o->why);
        break;
    }
}

static void text_several(const struct live_out *lo, const struct live_fr *f)
{
    const struct live_replay *lr = lo->lr;
    struct wbuf *w = lo->w;
    if (f->k[0].result == LIVE_RES_NOT_REPLAYABLE) {
        if (!lo->o->quiet)
            wb_printf(w, "  frame %-5llu not replayable: %s\n", (unsigned long long)f->no, f->k[0].why);
        return;
    }
    bool changes = fate_changes(lr, f), all_agree = true, any_run = false;
    for (int i = 0; i < lr->nk; i++) {
        all_agree &= f->k[i].result == LIVE_RES_AGREE || f->k[i].result == LIVE_RES_MODEL;
        any_run |= f->k[i].result != LIVE_RES_NOT_RUN;
    }
    if (!any_run)
        return;                      /* interrupted: counted in the summary */
    if (lo->o->quiet && all_agree && !changes)
        return;
    wb_printf(w, "  frame %-5llu %-9s %-4s ", (unsigned long long)f->no, live_rk_name(f->kind), live_tp_name(f->l4));
    for (int i = 0; i < lr->nk; i++) {
        if (i)
            wb_puts(w, " | ");
        text_cell(w, &lr->k[i], &f->k[i]);
    }
    wb_puts(w, changes ? "  FATE CHANGES\n" : "\n");
    if (lo->o->verbose)
        for (int i = 0; i < lr->nk; i++)
            if (f->k[i].deltas[0])
                wb_printf(w, "              %s: the namespace's counters that moved: %s\n", lr->k[i].name,
                          f->k[i].deltas);
}

void live_out_text(const struct live_out *lo, const struct live_fr *f)
{
    if (several(lo))
        text_several(lo, f);
    else
        text_one(lo, f);
}

/* ---- JSON ---- */

/* A device statistic the model names too (dev:rx_dropped): its count is
 * already under the model's counter of that name */
static bool dev_stat_named_by_model(unsigned i)
{
    if (i < CSC_C__COUNT)
        return false;
    for (unsigned k = 0; k < CSC_C__COUNT; k++)
        if (!strcmp(csc_counter_name(k), live_count_name(i)))
            return true;
    return false;
}

static void json_side(struct jw *j, int cls, const int64_t *cnt, const char *drop)
{
    JW_WORD(j, "outcome", cls == LIVE_C_DELIVERED ? "accept" : cls == LIVE_C_UNKNOWN ? "unknown" : "drop");
    JW_WORD(j, "class", live_class_name(cls));
    if (drop && drop[0])
        JW_STR(j, "drop_reason", drop);
    JW_ARR(j, "counters");
    for (unsigned i = 0; i < LIVE_N_CNT; i++)
        if (cnt[i] && !dev_stat_named_by_model(i)) {
            jw_elem(j);
            jw_obj(j);
            JW_STR(j, "name", live_count_name(i));
            JW_U64(j, "n", (uint64_t)cnt[i]);
            jw_end_obj(j);
        }
    jw_end_arr(j);
}

/* One kernel's outcome: the members of a "live" object (one kernel) or of
 * an element of its "kernels" (several) */
static void json_outcome(const struct live_out *lo, struct jw *j, const struct live_fr *f, int k)
{
    const struct live_outcome *o = &f->k[k];
    bool replayed = o->result == LIVE_RES_AGREE || o->result == LIVE_RES_DISAGREE;
    if (replayed || o->result == LIVE_RES_MODEL) {
        JW_OBJ(j, "model");
        json_side(j, o->mclass, o->mcnt, o->mdrop);
        jw_end_obj(j);
    }
    if (replayed) {
        JW_OBJ(j, "kernel");
        json_side(j, o->kclass, o->kcnt, NULL);
        if (f->kind != LIVE_RK_PLAIN)
            JW_U64(j, "at_device", (uint64_t)o->at_dev);
        jw_end_obj(j);
    }
    if (o->why[0])
        JW_STR(j, "why", o->why);
    if (lo->o->verbose && o->deltas[0])
        JW_STR(j, "moved", o->deltas);
}

static void json_frame_members(struct jw *j, const struct live_fr *f)
{
    JW_WORD(j, "receiver", live_rk_name(f->kind));
    JW_WORD(j, "transport", live_tp_name(f->l4));
    /* one frame per case: nothing of its flow is in flight beside it,
     * so neither side can merge it (the record's gro_fate is []) */
    JW_WORD(j, "written", "alone");
}

void live_out_json(const struct live_out *lo, struct jw *j, const struct live_fr *f)
{
    const struct live_replay *lr = lo->lr;
    JW_OBJ(j, "live");
    if (!several(lo)) {              /* one kernel: its outcome is the object's */
        const struct live_outcome *k = &f->k[0];
        JW_WORD(j, "result", RESULT_WORD[k->result]);
        JW_STR(j, "kernel_release", lr->k[0].release);
        if (k->result == LIVE_RES_AGREE || k->result == LIVE_RES_DISAGREE)
            json_frame_members(j, f);
        json_outcome(lo, j, f, 0);
        jw_end_obj(j);
        return;
    }
    if (f->k[0].result == LIVE_RES_NOT_REPLAYABLE) {
        JW_WORD(j, "result", RESULT_WORD[LIVE_RES_NOT_REPLAYABLE]);
        JW_STR(j, "why", f->k[0].why);
        jw_end_obj(j);
        return;
    }
    json_frame_members(j, f);
    JW_ARR(j, "kernels");
    for (int i = 0; i < lr->nk; i++) {
        const struct live_kernel *kn = &lr->k[i];
        jw_elem(j);
        jw_obj(j);
        JW_STR(j, "name", kn->name);
        if (!kn->model_only)
            JW_STR(j, "kernel_release", kn->release);
        JW_STR(j, "era", kn->era);
        JW_WORD(j, "result", RESULT_WORD[f->k[i].result]);
        json_outcome(lo, j, f, i);
        jw_end_obj(j);
    }
    jw_end_arr(j);
    JW_BOOL(j, "fate_changes", fate_changes(lr, f));
    jw_end_obj(j);
}

/* ---- CSV: a row per frame and kernel ---- */

/* A field, quoted (RFC 4180) when it holds a comma, a quote or a newline */
static void csv_field(struct wbuf *w, const char *s, bool last)
{
    if (strpbrk(s, ",\"\n")) {
        wb_putc(w, '"');
        for (const char *p = s; *p; p++) {
            if (*p == '"')
                wb_putc(w, '"');
            wb_putc(w, *p);
        }
        wb_putc(w, '"');
    } else {
        wb_puts(w, s);
    }
    wb_putc(w, last ? '\n' : ',');
}

/* "TcpInCsumErrors;TcpInErrs" */
static void counters_field(const int64_t *cnt, char *buf, size_t n)
{
    live_counts_text(cnt, buf, n);
    for (char *p = buf; *p; p++)
        if (*p == ',')
            *p = ';';
}

void live_out_csv_begin(const struct live_out *lo)
{
    WB_LIT(lo->w, "file,frame,receiver,transport,kernel,release,era,result,model_class,model_counters,"
                  "kernel_class,kernel_counters,at_device,why\n");
}

void live_out_csv(const struct live_out *lo, const char *file, const struct live_fr *f)
{
    const struct live_replay *lr = lo->lr;
    struct wbuf *w = lo->w;
    bool replayable = f->k[0].result != LIVE_RES_NOT_REPLAYABLE;
    for (int i = 0; i < lr->nk; i++) {
        const struct live_outcome *o = &f->k[i];
        bool model = replayable && (o->result == LIVE_RES_AGREE || o->result == LIVE_RES_DISAGREE ||
                                    o->result == LIVE_RES_MODEL);
        bool kernel = o->result == LIVE_RES_AGREE || o->result == LIVE_RES_DISAGREE;
        char num[24], mc[200] = "", kc[200] = "";
        csv_field(w, file, false);
        snprintf(num, sizeof num, "%llu", (unsigned long long)f->no);
        csv_field(w, num, false);
        csv_field(w, replayable ? live_rk_name(f->kind) : "", false);
        csv_field(w, replayable ? live_tp_name(f->l4) : "", false);
        csv_field(w, lr->k[i].name, false);
        csv_field(w, lr->k[i].model_only ? "" : lr->k[i].release, false);
        csv_field(w, lr->k[i].era, false);
        csv_field(w, RESULT_WORD[o->result], false);
        if (model)
            counters_field(o->mcnt, mc, sizeof mc);
        if (kernel)
            counters_field(o->kcnt, kc, sizeof kc);
        csv_field(w, model ? live_class_name(o->mclass) : "", false);
        csv_field(w, mc, false);
        csv_field(w, kernel ? live_class_name(o->kclass) : "", false);
        csv_field(w, kc, false);
        snprintf(num, sizeof num, "%lld", (long long)o->at_dev);
        csv_field(w, kernel && f->kind != LIVE_RK_PLAIN ? num : "", false);
        csv_field(w, o->why, true);
    }
}

/* ---- summaries ---- */

/* [result] totals of a kernel over every receiver */
static void totals(const struct live_kernel *k, uint64_t *t)
{
    memset(t, 0, sizeof(uint64_t) * LIVE_RES__COUNT);
    for (int r = 0; r < LIVE_RK__COUNT; r++)
        for (int s = 0; s < LIVE_RES__COUNT; s++)
            t[s] += k->tot[r][s];
}

static void table_row(struct wbuf *w, const char *name, const uint64_t *x, const char *nrep)
{
    wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14s %7llu\n", name, (unsigned long long)x[LIVE_RES_AGREE],
              (unsigned long long)(x[LIVE_RES_AGREE] + x[LIVE_RES_DISAGREE]),
              (unsigned long long)x[LIVE_RES_DISAGREE], (unsigned long long)x[LIVE_RES_SKIPPED], nrep,
              (unsigned long long)x[LIVE_RES_ERROR]);
}

static void summary_one(const struct live_out *lo)
{
    const struct live_replay *lr = lo->lr;
    const struct live_kernel *k = &lr->k[0];
    struct wbuf *w = lo->w;
    char rx[48];
    csc_report_format(&lr->cfg.rx, rx, sizeof rx);
    if (k->vm)
        wb_printf(w, "\nlive: kernel %s (Debian %s's, in a VM; model era %s), report %s: agreeing / replayed "
                     "frames per receiver\n", k->release, k->vm->suite, k->era, rx);
    else
        wb_printf(w, "\nlive: kernel %s (model era %s), report %s: agreeing / replayed frames per receiver\n",
                  k->release, k->era, rx);
    wb_printf(w, "%-10s %8s %8s %10s %14s %14s %7s\n", "receiver", "agree", "replayed", "disagree",
              "kernel-lacks", "not-replayable", "errors");
    for (int r = 0; r < LIVE_RK__COUNT; r++) {
        const uint64_t *x = k->tot[r];
        if (r == LIVE_RK_PLAIN)
            continue;                /* printed last; it also holds the frames not replayed (no receiver) */
        if (x[LIVE_RES_AGREE] + x[LIVE_RES_DISAGREE] + x[LIVE_RES_SKIPPED] + x[LIVE_RES_ERROR] == 0)
            continue;
        table_row(w, live_rk_name((unsigned)r), x, "-");
    }
    table_row(w, "plain", k->tot[LIVE_RK_PLAIN], "-");
    uint64_t t[LIVE_RES__COUNT];
    totals(k, t);
    char nrep[24];
    snprintf(nrep, sizeof nrep, "%llu", (unsigned long long)t[LIVE_RES_NOT_REPLAYABLE]);
    table_row(w, "all", t, nrep);
    uint64_t rep = t[LIVE_RES_AGREE] + t[LIVE_RES_DISAGREE];
    double pct = rep ? 100.0 * (double)t[LIVE_RES_AGREE] / (double)rep : 0.0;
    if (lr->interrupted)
        wb_printf(w, "INTERRUPTED by signal %d: %llu frames read were not replayed (not errors); the inputs were "
                     "not read to their end\n", lr->interrupted, (unsigned long long)t[LIVE_RES_NOT_RUN]);
    if (k->vm) {
        wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu, %llu namespaces; the VM ran %.0f s "
                     "(boot included)\n",
                  (unsigned long long)t[LIVE_RES_AGREE], (unsigned long long)rep, pct,
                  (unsigned long long)lr->frames, (unsigned long long)lr->setups, k->vm_seconds);
        return;
    }
    wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu, %llu namespaces; %.0f frames/s "
                 "(%.0f counting the namespaces' making)\n",
              (unsigned long long)t[LIVE_RES_AGREE], (unsigned long long)rep, pct, (unsigned long long)lr->frames,
              (unsigned long long)lr->setups, lr->frame_seconds > 0 ? (double)rep / lr->frame_seconds : 0.0,
              lr->seconds > 0 ? (double)rep / lr->seconds : 0.0);
}

static bool model_only(const struct live_replay *lr)
{
    return lr->k[0].model_only;
}

/* "upgrading A -> B changes the fate of N of M frames:" and its groups */
static void fates_text(const struct live_out *lo)
{
    const struct live_replay *lr = lo->lr;
    const struct live_fates *fs = lr->fates;
    struct wbuf *w = lo->w;
    if (!fs)
        return;
    wb_printf(w, "fates across %s, in the order given (%s):\n", model_only(lr) ? "eras" : "kernels",
              model_only(lr) ? "the model's outcome at each era" : "each kernel's own outcome, frames it replayed");
    for (int i = 0; i + 1 < lr->nk; i++) {
        wb_printf(w, "  upgrading %s -> %s changes the fate of %llu of %llu frames%s\n", lr->k[i].name,
                  lr->k[i + 1].name, (unsigned long long)fs->changed[i], (unsigned long long)fs->compared[i],
                  fs->changed[i] ? ":" : "");
        for (int g = 0; g < fs->ngroups[i]; g++) {
            const struct live_fate_group *c = &fs->g[i][g];
            char frames[240];
            live_fate_frames(c, frames, sizeof frames);
            wb_printf(w, "    %s %s: %s -> %s\n", c->file, frames, c->from, c->to);
        }
        if (fs->unlisted[i])
            wb_printf(w, "    ... and %llu more frames\n", (unsigned long long)fs->unlisted[i]);
    }
}

static void summary_several(const struct live_out *lo)
{
    const struct live_replay *lr = lo->lr;
    struct wbuf *w = lo->w;
    char rx[48];
    csc_report_format(&lr->cfg.rx, rx, sizeof rx);
    uint64_t all[LIVE_RES__COUNT], t[LIVE_RES__COUNT];
    memset(all, 0, sizeof all);
    if (model_only(lr)) {
        wb_printf(w, "\nmodel: %d eras, report %s: the model's outcome of every frame --live would replay\n",
                  lr->nk, rx);
        totals(&lr->k[0], t);
        wb_printf(w, "%llu frames, %llu replayable, %llu not\n", (unsigned long long)lr->frames,
                  (unsigned long long)t[LIVE_RES_MODEL], (unsigned long long)t[LIVE_RES_NOT_REPLAYABLE]);
        fates_text(lo);
        return;
    }
    wb_printf(w, "\nlive: %d kernels, report %s: agreeing / replayed frames per kernel, the model at each kernel's "
                 "era\n", lr->nk, rx);
    wb_printf(w, "%-10s %-28s %-8s %8s %8s %10s %14s %14s %7s\n", "kernel", "release", "era", "agree", "replayed",
              "disagree", "kernel-lacks", "not-replayable", "errors");
    double vm_s = 0;
    for (int i = 0; i < lr->nk; i++) {
        const struct live_kernel *k = &lr->k[i];
        totals(k, t);
        for (int s = 0; s < LIVE_RES__COUNT; s++)
            all[s] += t[s];
        char rel[80];
        snprintf(rel, sizeof rel, "%.60s%s", k->release, k->vm ? " (VM)" : "");
        wb_printf(w, "%-10s %-28s %-8s %8llu %8llu %10llu %14llu %14llu %7llu\n", k->name, rel, k->era,
                  (unsigned long long)t[LIVE_RES_AGREE], (unsigned long long)(t[LIVE_RES_AGREE] + t[LIVE_RES_DISAGREE]),
                  (unsigned long long)t[LIVE_RES_DISAGREE], (unsigned long long)t[LIVE_RES_SKIPPED],
                  (unsigned long long)t[LIVE_RES_NOT_REPLAYABLE], (unsigned long long)t[LIVE_RES_ERROR]);
        if (k->vm && k->vm_seconds > vm_s)
            vm_s = k->vm_seconds;
    }
    fates_text(lo);
    if (lr->interrupted)
        wb_printf(w, "INTERRUPTED by signal %d: %llu frame outcomes not replayed (not errors); the inputs were not "
                     "read to their end\n", lr->interrupted, (unsigned long long)all[LIVE_RES_NOT_RUN]);
    uint64_t rep = all[LIVE_RES_AGREE] + all[LIVE_RES_DISAGREE];
    wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu frames in %d kernels, %llu namespaces",
              (unsigned long long)all[LIVE_RES_AGREE], (unsigned long long)rep,
              rep ? 100.0 * (double)all[LIVE_RES_AGREE] / (double)rep : 0.0, (unsigned long long)lr->frames, lr->nk,
              (unsigned long long)lr->setups);
    if (vm_s > 0)
        wb_printf(w, "; the VMs ran %.0f s side by side (boot included)", vm_s);
    wb_putc(w, '\n');
}

void live_out_summary_text(const struct live_out *lo)
{
    if (several(lo))
        summary_several(lo);
    else
        summary_one(lo);
}

static void json_receivers(struct jw *j, const struct live_kernel *k)
{
    JW_ARR(j, "receivers");
    static const char *const res[LIVE_RES__COUNT] = { "agree", "disagree", "not_replayable_here", "not_replayable",
                                                      "errors", "model", "not_replayed" };
    for (int r = 0; r < LIVE_RK__COUNT; r++) {
        jw_elem(j);
        jw_obj(j);
        JW_WORD(j, "receiver", live_rk_name((unsigned)r));
        for (int s = 0; s < LIVE_RES__COUNT; s++)
            if (s != LIVE_RES_NOT_REPLAYABLE && (s != LIVE_RES_MODEL || k->model_only) &&
                (s != LIVE_RES_NOT_RUN || k->tot[r][s]))
                jw_num(j, res[s], k->tot[r][s]);
        jw_end_obj(j);
    }
    jw_end_arr(j);
}

static void json_vm(struct jw *j, const struct live_kernel *k)
{
    if (k->vm) {
        JW_WORD(j, "vm", k->vm->suite);
        jw_key(j, "vm_seconds");
        jw_double(j, k->vm_seconds);
    }
}

static void json_fates(struct jw *j, const struct live_replay *lr)
{
    const struct live_fates *fs = lr->fates;
    JW_ARR(j, "fate_changes");
    for (int i = 0; fs && i + 1 < lr->nk; i++) {
        jw_elem(j);
        jw_obj(j);
        JW_STR(j, "from", lr->k[i].name);
        JW_STR(j, "to", lr->k[i + 1].name);
        JW_U64(j, "compared", fs->compared[i]);
        JW_U64(j, "changed", fs->changed[i]);
        JW_ARR(j, "groups");
        for (int g = 0; g < fs->ngroups[i]; g++) {
            const struct live_fate_group *c = &fs->g[i][g];
            char frames[240];
            live_fate_frames(c, frames, sizeof frames);
            jw_elem(j);
            jw_obj(j);
            JW_STR(j, "file", c->file);
            JW_STR(j, "frames", frames);
            JW_U64(j, "n", c->n);
            JW_STR(j, "fate_from", c->from);
            JW_STR(j, "fate_to", c->to);
            jw_end_obj(j);
        }
        jw_end_arr(j);
        JW_U64(j, "unlisted", fs->unlisted[i]);
        jw_end_obj(j);
    }
    jw_end_arr(j);
}

void live_out_summary_json(const struct live_out *lo)
{
    const struct live_replay *lr = lo->lr;
    struct jw j = jw_on(lo->w);
    char rx[48];
    csc_report_format(&lr->cfg.rx, rx, sizeof rx);
    jw_obj(&j);
    JW_WORD(&j, "type", "live_summary");
    JW_OBJ(&j, "live_summary");
    uint64_t t[LIVE_RES__COUNT];
    totals(&lr->k[0], t);
    if (!several(lo)) {
        const struct live_kernel *k = &lr->k[0];
        JW_STR(&j, "kernel", k->release);
        JW_STR(&j, "era", k->era);
        JW_STR(&j, "rx", rx);
        json_vm(&j, k);
        json_receivers(&j, k);
    } else {
        JW_STR(&j, "rx", rx);
        JW_ARR(&j, "kernels");
        for (int i = 0; i < lr->nk; i++) {
            const struct live_kernel *k = &lr->k[i];
            jw_elem(&j);
            jw_obj(&j);
            JW_STR(&j, "name", k->name);
            if (!k->model_only)
                JW_STR(&j, "kernel", k->release);
            JW_STR(&j, "era", k->era);
            JW_TRUE_IF(&j, "model_only", k->model_only);
            json_vm(&j, k);
            json_receivers(&j, k);
            jw_end_obj(&j);
        }
        jw_end_arr(&j);
        json_fates(&j, lr);
    }
    JW_U64(&j, "not_replayable", t[LIVE_RES_NOT_REPLAYABLE]);
    if (lr->interrupted)
        JW_U64(&j, "interrupted", (uint64_t)lr->interrupted);
    JW_U64(&j, "frames", lr->frames);
    JW_U64(&j, "namespaces", lr->setups);
    jw_end_obj(&j);
    jw_end_obj(&j);
    wb_putc(lo->w, '\n');
}
