/*
 * live.c - csumcheck --live, the CLI's side: the options, the inputs read
 * with libpcap, and the output - a line or a packet record per frame and a
 * summary. What a frame needs of a namespace, the namespaces, the kernels
 * (this machine's, Debian's in VMs) and the judging are libcsclive's
 * (live/replay.h). docs/live.md walks through an example.
 */
#define _GNU_SOURCE
#include "live_cli.h"

#include "jw.h"
#include "stats.h"
#include "wbuf.h"

#include "replay.h"
#include "vm.h"

#include "csumcheck/csumcheck.h"

#include <glib.h>

#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct live_ctx {
    const struct cli_opts *o;
    struct live_replay lr;
    struct wbuf *w;
    bool json;
    struct cli_run run;              /* the run as --live sets it (era of the kernel, no NIC GRO) */
    struct out_file out;             /* JSON: the packet records of the current file */
    struct cli_stats st;             /* a frame's findings (stats_account_frame) */
    GString *rec;                    /* JSON: the chunk's packet records, open for their "live" */
};

static volatile sig_atomic_t live_stop;

static void on_signal(int sig)
{
    live_stop = sig;
}

/* ---- a frame ---- */

static const char *outcome_word(int cls)
{
    return cls == LIVE_C_DELIVERED ? "accept" : live_class_name(cls);
}

static void print_text(struct live_ctx *c, const struct live_fr *f)
{
    struct wbuf *w = c->w;
    const struct live_outcome *k = &f->k[0];
    if (k->result == LIVE_RES_AGREE && c->o->quiet)
        return;
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
    if (c->o->verbose)
        wb_printf(w, "              the namespace's counters that moved: %s\n", k->deltas[0] ? k->deltas : "none");
}

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
    JW_WORD(j, "outcome", cls == LIVE_C_DELIVERED ? "accept" : "drop");
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

/* The frame's "live" object: what the kernel did beside the model, or why
 * it was not replayed (docs/json.md) */
static void json_live(struct live_ctx *c, struct jw *j, const struct live_fr *f)
{
    static const char *const res[LIVE_RES__COUNT] = { "agree", "disagree", "not-replayable-here",
                                                      "not-replayable", "error" };
    const struct live_outcome *k = &f->k[0];
    JW_OBJ(j, "live");
    JW_WORD(j, "result", res[k->result]);
    JW_STR(j, "kernel_release", c->lr.k[0].release);
    if (k->result == LIVE_RES_AGREE || k->result == LIVE_RES_DISAGREE) {
        JW_WORD(j, "receiver", live_rk_name(f->kind));
        JW_WORD(j, "transport", live_tp_name(f->l4));
        /* one frame per case: nothing of its flow is in flight beside it,
         * so neither side can merge it (the record's gro_fate is []) */
        JW_WORD(j, "written", "alone");
        JW_OBJ(j, "model");
        json_side(j, k->mclass, k->mcnt, k->mdrop);
        jw_end_obj(j);
        JW_OBJ(j, "kernel");
        json_side(j, k->kclass, k->kcnt, NULL);
        if (f->kind != LIVE_RK_PLAIN)
            JW_U64(j, "at_device", (uint64_t)k->at_dev);
        jw_end_obj(j);
    }
    if (k->why[0])
        JW_STR(j, "why", k->why);
    if (c->o->verbose && k->deltas[0])
        JW_STR(j, "moved", k->deltas);
    jw_end_obj(j);
}

/* The packet record made when the frame was read, its "live" object, its close */
static void print_json(struct live_ctx *c, const struct live_fr *f)
{
    if (!f->face_len)
        return;
    wb_write(c->w, c->rec->str + f->face_off, f->face_len);
    struct jw j = { c->w, false };   /* inside the packet record */
    json_live(c, &j, f);
    c->out.fmt->fate(c->w, &c->out, NULL);   /* "gro_fate":[] and the close */
}

static void on_frame(void *ctx, const struct live_fr *f)
{
    struct live_ctx *c = ctx;
    if (c->json)
        print_json(c, f);
    else
        print_text(c, f);
}

static void on_chunk_end(void *ctx)
{
    struct live_ctx *c = ctx;
    wb_flush(c->w);
    g_string_truncate(c->rec, 0);
}

static void on_note(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, CLI_NAME ": %s\n", msg);
}

static void on_vm_line(void *ctx, const char *line)
{
    const struct live_ctx *c = ctx;
    if (c->o->verbose)
        fprintf(stderr, "%s\n", line);
}

/* ---- one file ---- */

/* Appends to a GString: a chunk's records (wbuf's flush hands them on) */
static void gstring_flush(struct wbuf *w)
{
    g_string_append_len(w->ctx, w->p, (gssize)w->len);
    w->len = 0;
}

/* JSON: the frame's packet record, as csumcheck writes it for the capture's
 * bytes under the receiver --live makes (c->run), kept open in c->rec for
 * the "live" object its replay will add. */
static void record_frame(struct live_ctx *c, struct live_fr *f, const struct pcap_pkthdr *h, const uint8_t *data,
                         uint8_t link)
{
    static struct csc_result r;
    static char buf[4096];
    f->face_len = 0;
    if (!c->json || !c->out.frames || c->lr.pass == LIVE_PASS_JOB)
        return;
    struct csc_frame cf = { data, h->caplen, h->len, link, CSC_DIR_UNKNOWN };
    csc_analyze(&c->run.cfg, &cf, &r);
    struct frame_view v = { f->no, h, &r, stats_account_frame(&c->st, &r, &cf) };
    if (c->out.show && !(v.findings & c->out.show))
        return;                      /* --show */
    struct wbuf w = { buf, 0, sizeof buf, gstring_flush, c->rec };
    f->face_off = c->rec->len;
    if (!c->out.fmt->frame(&w, &c->out, &v))
        return;
    wb_flush(&w);
    f->face_len = c->rec->len - f->face_off;
}

static int live_file(struct live_ctx *c, const char *path)
{
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline(path, err);
    if (!p) {
        if (c->lr.pass != LIVE_PASS_JUDGE)   /* said once under --kernel */
            fprintf(stderr, CLI_NAME ": %s: %s\n", path, err);
        return -1;
    }
    bool out = c->lr.pass != LIVE_PASS_JOB;  /* --kernel's first pass writes the job only */
    if (c->json && out)
        out_file_open(&c->out, c->o, &c->run, path);
    uint8_t link = (uint8_t)csc_link_from_linktype((uint32_t)pcap_datalink(p));
    if (!c->json && out)
        wb_printf(c->w, "%s\n", path);
    live_replay_file_begin(&c->lr, path);
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t no = 0;
    while (!live_stop && pcap_next_ex(p, &h, &data) == 1) {
        struct live_fr *f = live_replay_frame(&c->lr, data, h->caplen, h->len, link, ++no);
        record_frame(c, f, h, data, link);
    }
    live_replay_file_end(&c->lr);
    pcap_close(p);
    if (c->json && out)
        out_file_close(&c->out);
    return 0;
}

/* Every input once. The number that could not be read. */
static unsigned live_pass(struct live_ctx *c, enum live_pass pass, const struct job *jobs, unsigned njobs)
{
    unsigned failed = 0;
    for (unsigned i = 0; i < njobs && !live_stop; i++) {
        if (!jobs[i].error) {
            failed += live_file(c, jobs[i].path) != 0;
        } else if (pass != LIVE_PASS_JOB) {   /* an input that could not be expanded (issue 17: a job) */
            fprintf(stderr, CLI_NAME ": %s: %s\n", jobs[i].path, jobs[i].error);
            failed++;
        }
    }
    return failed;
}

/* ---- summary ---- */

static void summary_text(struct live_ctx *c)
{
    const struct live_kernel *k = &c->lr.k[0];
    struct wbuf *w = c->w;
    char rx[48];
    csc_report_format(&c->lr.cfg.rx, rx, sizeof rx);
    if (k->vm)
        wb_printf(w, "\nlive: kernel %s (Debian %s's, in a VM; model era %s), report %s: agreeing / replayed "
                     "frames per receiver\n", k->release, k->vm->suite, k->era, rx);
    else
        wb_printf(w, "\nlive: kernel %s (model era %s), report %s: agreeing / replayed frames per receiver\n",
                  k->release, k->era, rx);
    wb_printf(w, "%-10s %8s %8s %10s %14s %14s %7s\n", "receiver", "agree", "replayed", "disagree",
              "kernel-lacks", "not-replayable", "errors");
    uint64_t t[LIVE_RES__COUNT] = { 0 };
    for (int r = 0; r < LIVE_RK__COUNT; r++) {
        const uint64_t *x = k->tot[r];
        for (int s = 0; s < LIVE_RES__COUNT; s++)
            t[s] += x[s];
        if (r == LIVE_RK_PLAIN)
            continue;                /* printed last; it also holds the frames not replayed (no receiver) */
        if (x[LIVE_RES_AGREE] + x[LIVE_RES_DISAGREE] + x[LIVE_RES_SKIPPED] + x[LIVE_RES_ERROR] == 0)
            continue;
        wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14s %7llu\n", live_rk_name((unsigned)r),
                  (unsigned long long)x[LIVE_RES_AGREE],
                  (unsigned long long)(x[LIVE_RES_AGREE] + x[LIVE_RES_DISAGREE]),
                  (unsigned long long)x[LIVE_RES_DISAGREE], (unsigned long long)x[LIVE_RES_SKIPPED], "-",
                  (unsigned long long)x[LIVE_RES_ERROR]);
    }
    const uint64_t *x = k->tot[LIVE_RK_PLAIN];
    wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14s %7llu\n", "plain", (unsigned long long)x[LIVE_RES_AGREE],
              (unsigned long long)(x[LIVE_RES_AGREE] + x[LIVE_RES_DISAGREE]), (unsigned long long)x[LIVE_RES_DISAGREE],
              (unsigned long long)x[LIVE_RES_SKIPPED], "-", (unsigned long long)x[LIVE_RES_ERROR]);
    uint64_t rep = t[LIVE_RES_AGREE] + t[LIVE_RES_DISAGREE];
    wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14llu %7llu\n", "all", (unsigned long long)t[LIVE_RES_AGREE],
              (unsigned long long)rep, (unsigned long long)t[LIVE_RES_DISAGREE],
              (unsigned long long)t[LIVE_RES_SKIPPED], (unsigned long long)t[LIVE_RES_NOT_REPLAYABLE],
              (unsigned long long)t[LIVE_RES_ERROR]);
    double pct = rep ? 100.0 * (double)t[LIVE_RES_AGREE] / (double)rep : 0.0;
    if (k->vm) {
        wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu, %llu namespaces; the VM ran %.0f s "
                     "(boot included)\n",
                  (unsigned long long)t[LIVE_RES_AGREE], (unsigned long long)rep, pct,
                  (unsigned long long)c->lr.frames, (unsigned long long)c->lr.setups, k->vm_seconds);
        return;
    }
    wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu, %llu namespaces; %.0f frames/s "
                 "(%.0f counting the namespaces' making)\n",
              (unsigned long long)t[LIVE_RES_AGREE], (unsigned long long)rep, pct, (unsigned long long)c->lr.frames,
              (unsigned long long)c->lr.setups, c->lr.frame_seconds > 0 ? (double)rep / c->lr.frame_seconds : 0.0,
              c->lr.seconds > 0 ? (double)rep / c->lr.seconds : 0.0);
}

static void summary_json(struct live_ctx *c)
{
    const struct live_kernel *k = &c->lr.k[0];
    struct jw j = jw_on(c->w);
    char rx[48];
    csc_report_format(&c->lr.cfg.rx, rx, sizeof rx);
    jw_obj(&j);
    JW_WORD(&j, "type", "live_summary");
    JW_OBJ(&j, "live_summary");
    JW_STR(&j, "kernel", k->release);
    JW_STR(&j, "era", k->era);
    JW_STR(&j, "rx", rx);
    if (k->vm) {
        JW_WORD(&j, "vm", k->vm->suite);
        jw_key(&j, "vm_seconds");
        jw_double(&j, k->vm_seconds);
    }
    JW_ARR(&j, "receivers");
    static const char *const res[LIVE_RES__COUNT] = { "agree", "disagree", "not_replayable_here",
                                                      "not_replayable", "errors" };
    uint64_t nrep = 0;
    for (int r = 0; r < LIVE_RK__COUNT; r++) {
        jw_elem(&j);
        jw_obj(&j);
        JW_WORD(&j, "receiver", live_rk_name((unsigned)r));
        for (int s = 0; s < LIVE_RES__COUNT; s++)
            if (s != LIVE_RES_NOT_REPLAYABLE)
                jw_num(&j, res[s], k->tot[r][s]);
        jw_end_obj(&j);
        nrep += k->tot[r][LIVE_RES_NOT_REPLAYABLE];
    }
    jw_end_arr(&j);
    JW_U64(&j, "not_replayable", nrep);
    JW_U64(&j, "frames", c->lr.frames);
    JW_U64(&j, "namespaces", c->lr.setups);
    jw_end_obj(&j);
    jw_end_obj(&j);
    wb_putc(c->w, '\n');
}

/* ---- entry ---- */

static void stdout_flush(struct wbuf *w)
{
    fwrite(w->p, 1, w->len, stdout);
    fflush(stdout);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* The VM kernels' pass: every input planned into the job, the job run.
 * 0, or the exit status. */
static int vm_pass(struct live_ctx *c, const struct job *jobs, unsigned njobs)
{
    char err[700] = "";
    int rc = live_replay_pass(&c->lr, LIVE_PASS_JOB, err, sizeof err);
    if (!rc) {
        live_pass(c, LIVE_PASS_JOB, jobs, njobs);
        rc = live_replay_run_vms(&c->lr, err, sizeof err);
    }
    if (rc && rc < 128)
        fprintf(stderr, CLI_NAME ": %s\n", err);
    if (rc > 128)
        fprintf(stderr, CLI_NAME ": --live stopped by signal %d; the VM went down with it\n", rc - 128);
    return rc;
}

static int live_run(struct live_ctx *c, const struct job *jobs, unsigned njobs, unsigned nerrors)
{
    char err[700] = "";
    int rc = live_replay_prepare(&c->lr, err, sizeof err);
    if (rc) {
        fprintf(stderr, CLI_NAME ": %s\n", err);
        return rc;
    }
    c->run.cfg = c->lr.k[0].cfg;
    if (live_replay_needs_job(&c->lr) && (rc = vm_pass(c, jobs, njobs)))
        return rc;
    c->run.cfg = c->lr.k[0].cfg;     /* the era of the kernel the VM reported */
    if ((rc = live_replay_pass(&c->lr, live_replay_needs_job(&c->lr) ? LIVE_PASS_JUDGE : LIVE_PASS_HERE, err,
                               sizeof err))) {
        fprintf(stderr, CLI_NAME ": %s\n", err);
        return rc;
    }
    unsigned failed = nerrors + live_pass(c, c->lr.pass, jobs, njobs);
    if (c->json)
        summary_json(c);
    else
        summary_text(c);
    wb_flush(c->w);
    if (live_stop) {
        fprintf(stderr, CLI_NAME ": --live stopped by signal %d; the namespace went with its process\n",
                (int)live_stop);
        return 128 + (int)live_stop;
    }
    return failed || c->lr.k[0].errors ? 2 : c->lr.k[0].disagreements ? 1 : 0;
}

int live_main(const struct cli_opts *o, struct cli_run *runs, const struct job *jobs, unsigned njobs,
              unsigned nerrors)
{
    static struct live_ctx c;
    static char outbuf[1u << 16];
    char err[700] = "";
    memset(&c, 0, sizeof c);
    c.o = o;
    c.json = o->format == &out_json;
    if (o->nruns > 1 || runs[0].rewrite) {
        fprintf(stderr, CLI_NAME ": --live replays the capture as it is: no --compare, no --rewrite\n");
        return 2;
    }
    int rc = live_replay_init(&c.lr, &runs[0].cfg, o->live_kernel, err, sizeof err);
    if (rc) {
        fprintf(stderr, CLI_NAME ": %s\n", err);
        return rc;
    }
    c.lr.face = (struct live_replay_face){ on_frame, on_chunk_end, on_note, on_vm_line, &c };
    c.lr.stop = &live_stop;
    c.lr.quiet = o->quiet;
    c.lr.keep_vm_files = getenv("CSC_LIVE_KEEP") != NULL;
    c.run = runs[0];
    c.run.cfg = c.lr.cfg;
    c.rec = g_string_sized_new(1u << 16);
    catch_signals();
    struct wbuf w = { outbuf, 0, sizeof outbuf, stdout_flush, NULL };
    c.w = &w;
    rc = live_run(&c, jobs, njobs, nerrors);
    live_replay_end(&c.lr);
    g_string_free(c.rec, TRUE);
    return rc;
}
