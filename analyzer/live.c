/*
 * live.c - csumcheck --live, the CLI's side: the options, the inputs read
 * with libpcap, and the output - a line or a packet record per frame and a
 * summary. What a frame needs of a namespace, the namespaces, the kernels
 * (this machine's, Debian's in VMs) and the judging are libcsclive's
 * (live/replay.h). docs/live.md walks through an example.
 */
#define _GNU_SOURCE
#include "live_cli.h"

#include "filter.h"
#include "jw.h"
#include "live_out.h"
#include "stats.h"
#include "wbuf.h"

#include "broker.h"
#include "replay.h"
#include "vm.h"
#include "wtr.h"

#include "csumcheck/csumcheck.h"

#include <glib.h>

#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct live_ctx {
    const struct cli_opts *o;
    struct live_replay lr;
    struct live_out lo;              /* the records (live_out.c) */
    struct wbuf *w;
    bool json, csv;
    char *csv_name;                  /* CSV: the current file's name as a field */
    bool bar, bar_shown;             /* a download's progress bar on standard error */
    struct cli_run run;              /* the run as --live sets it (era of the kernel, no NIC GRO) */
    struct out_file out;             /* JSON: the packet records of the current file */
    struct cli_stats st;             /* a frame's findings (stats_account_frame) */
    GString *rec;                    /* JSON: the chunk's packet records, open for their "live" */
    struct cli_filter *flt;          /* -f / the words after the inputs: only the frames it passes */
    uint64_t left;                   /* -c N: frames still to take in this pass */
    struct live_broker brk;          /* the privileged helper (this machine's kernel) */
    bool privsep;
};

static volatile sig_atomic_t live_stop;

static void progress_clear(struct live_ctx *c)
{
    if (c->bar_shown) {
        fputs("\r\033[K", stderr);
        c->bar_shown = false;
    }
}

static void on_signal(int sig)
{
    live_stop = sig;
}

/* ---- a frame ---- */

/* The packet record made when the frame was read, its "live" object, its close */
static void print_json(struct live_ctx *c, const struct live_fr *f)
{
    if (!f->face_len)
        return;
    wb_write(c->w, c->rec->str + f->face_off, f->face_len);
    struct jw j = { c->w, false };   /* inside the packet record */
    live_out_json(&c->lo, &j, f);
    c->out.fmt->fate(c->w, &c->out, NULL);   /* "gro_fate":[] and the close */
}

static void on_frame(void *ctx, const struct live_fr *f)
{
    struct live_ctx *c = ctx;
    if (c->json)
        print_json(c, f);
    else if (c->csv)
        live_out_csv(&c->lo, c->csv_name, f);
    else
        live_out_text(&c->lo, f);
}

static void on_chunk_end(void *ctx)
{
    struct live_ctx *c = ctx;
    wb_flush(c->w);
    g_string_truncate(c->rec, 0);
}

static void on_note(void *ctx, const char *msg)
{
    struct live_ctx *c = ctx;
    progress_clear(c);
    fprintf(stderr, CLI_NAME ": %s\n", msg);
}

static void on_vm_line(void *ctx, const char *kernel, const char *line)
{
    struct live_ctx *c = ctx;
    if (!c->o->verbose)
        return;
    progress_clear(c);
    if (c->lr.nk > 1)
        fprintf(stderr, "[%s] %s\n", kernel, line);
    else
        fprintf(stderr, "%s\n", line);
}

/* A kernel's download: a bar on standard error (a terminal, or
 * --progress always), redrawn in place */
static void on_progress(void *ctx, const char *kernel, uint64_t got, uint64_t total)
{
    struct live_ctx *c = ctx;
    if (!c->bar)
        return;
    if (!total) {
        progress_clear(c);
        return;
    }
    int width = 30, done = got >= total ? width : (int)((double)got / (double)total * width);
    char bar[40];
    memset(bar, '#', (size_t)done);
    memset(bar + done, '.', (size_t)(width - done));
    bar[width] = 0;
    fprintf(stderr, "\r" CLI_NAME ": --kernel %s: fetching [%s] %3.0f%% %llu/%llu MB", kernel, bar,
            100.0 * (double)got / (double)total, (unsigned long long)(got >> 20), (unsigned long long)(total >> 20));
    fflush(stderr);
    c->bar_shown = true;
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

/* -c N: N frames taken in this pass */
static bool budget_spent(const struct live_ctx *c)
{
    return c->o->count && !c->left;
}

/* An input's descriptor: opened by this process (with the user's rights
 * once privilege is dropped), else by the helper when this process may not
 * (a root-only folder of a root run); "-" is standard input. -1: said. */
static int open_input(struct live_ctx *c, unsigned index, const char *path, bool say)
{
    if (!strcmp(path, "-"))
        return fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    int e = errno;
    char err[300] = "";
    if (fd < 0 && c->privsep && (e == EACCES || e == EPERM))
        fd = live_broker_open(&c->brk, index, err, sizeof err);
    if (fd < 0 && say)
        fprintf(stderr, CLI_NAME ": %s: %s\n", path, err[0] ? err : strerror(e));
    return fd;
}

/* A capture as the CLI reads it: a classic pcap or pcapng file by libpcap
 * (as before), anything else - compressed, other formats, a pipe - by
 * libwiretap (input/wtapread.c), fed through a pipe from the descriptor */
struct live_in {
    pcap_t *p;
    struct wtr *w;
    int fd;
};

static bool pcap_magic(const uint8_t m[4])
{
    static const uint8_t k[][4] = { { 0xd4, 0xc3, 0xb2, 0xa1 }, { 0xa1, 0xb2, 0xc3, 0xd4 },
                                    { 0x4d, 0x3c, 0xb2, 0xa1 }, { 0xa1, 0xb2, 0x3c, 0x4d },
                                    { 0x0a, 0x0d, 0x0d, 0x0a } };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (!memcmp(m, k[i], 4))
            return true;
    return false;
}

static bool in_open(struct live_in *in, int fd, const char *path, char *err, size_t n)
{
    memset(in, 0, sizeof *in);
    in->fd = fd;
    struct stat sb;
    uint8_t m[4] = { 0 };
    size_t got = 0;
    bool regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    if (regular) {
        ssize_t r = pread(fd, m, sizeof m, 0);
        got = r > 0 ? (size_t)r : 0;
    }
    if (regular && got == 4 && pcap_magic(m)) {
        FILE *f = fdopen(fd, "rb");
        char e[PCAP_ERRBUF_SIZE] = "";
        in->p = f ? pcap_fopen_offline(f, e) : NULL;
        if (!in->p) {
            snprintf(err, n, "%s", f ? e : strerror(errno));
            f ? (void)fclose(f) : (void)close(fd);
            in->fd = -1;
            return false;
        }
        in->fd = -1;                 /* pcap_close closes it */
        return true;
    }
    if (regular && sb.st_size == 0) {
        snprintf(err, n, "empty file, not a capture");
        return false;
    }
    char *msg = NULL;
    in->w = wtr_open(path, fd, true, NULL, 0, &msg);
    if (!in->w) {
        snprintf(err, n, "%s", msg ? msg : "cannot be read");
        g_free(msg);
        return false;
    }
    return true;
}

/* 1 (*h, *data, *dlt set), 0 at the end, -1 an error */
static int in_next(struct live_in *in, struct pcap_pkthdr **h, const u_char **data, int *dlt)
{
    if (in->p) {
        *dlt = pcap_datalink(in->p);
        int rc = pcap_next_ex(in->p, h, data);
        return rc == 1 ? 1 : rc == -1 ? -1 : 0;
    }
    uint8_t dir;
    return wtr_next(in->w, h, data, dlt, &dir);
}

static void in_close(struct live_in *in)
{
    if (in->p)
        pcap_close(in->p);
    if (in->w)
        wtr_close(in->w);
    if (in->fd >= 0)
        close(in->fd);
}

static int live_file(struct live_ctx *c, unsigned index, const char *path)
{
    char err[PCAP_ERRBUF_SIZE + 300];
    bool say = c->lr.pass != LIVE_PASS_JUDGE;   /* said once under --kernel */
    int fd = open_input(c, index, path, say);
    if (fd < 0)
        return -1;
    struct live_in in;
    if (!in_open(&in, fd, path, err, sizeof err)) {
        if (say)
            fprintf(stderr, CLI_NAME ": %s: %s\n", path, err);
        in_close(&in);
        return -1;
    }
    bool out = c->lr.pass != LIVE_PASS_JOB;  /* --kernel's first pass writes the job only */
    if (c->json && out)
        out_file_open(&c->out, c->o, &c->run, path);
    if (!c->json && !c->csv && out)
        wb_printf(c->w, "%s\n", path);
    c->csv_name = (char *)path;
    live_replay_file_begin(&c->lr, path);
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t no = 0;
    const struct bpf_program *prog = NULL;
    int dlt, last_dlt = INT32_MIN;
    uint8_t link = CSC_LINK_UNKNOWN;
    while (!live_stop && !budget_spent(c) && in_next(&in, &h, &data, &dlt) == 1) {
        no++;                        /* frames keep their numbers in the file */
        if (dlt != last_dlt) {       /* a pcapng read by libwiretap may have several */
            last_dlt = dlt;
            link = dlt < 0 ? CSC_LINK_UNKNOWN : (uint8_t)csc_link_from_linktype((uint32_t)dlt);
            if (c->flt) {            /* NULL: the filter cannot apply to this link type */
                char *why = NULL;
                prog = filter_prog(c->flt, dlt, &why);
                if (why)             /* said once in the run */
                    fprintf(stderr, CLI_NAME ": %s: %s\n", path, why);
                g_free(why);
            }
        }
        if (c->flt && (!prog || !filter_match(prog, h, data)))
            continue;
        c->left -= c->o->count != 0;
        struct live_fr *f = live_replay_frame(&c->lr, data, h->caplen, h->len, link, no);
        record_frame(c, f, h, data, link);
    }
    live_replay_file_end(&c->lr);
    in_close(&in);
    if (c->json && out)
        out_file_close(&c->out);
    return 0;
}

/* Every input once. The number that could not be read. */
static unsigned live_pass(struct live_ctx *c, enum live_pass pass, const struct job *jobs, unsigned njobs)
{
    unsigned failed = 0;
    c->left = c->o->count;           /* every pass takes the same frames */
    for (unsigned i = 0; i < njobs && !live_stop && !budget_spent(c); i++) {
        if (!jobs[i].error) {
            failed += live_file(c, i, jobs[i].path) != 0;
        } else if (pass != LIVE_PASS_JOB) {   /* an input that could not be expanded (issue 17: a job) */
            fprintf(stderr, CLI_NAME ": %s: %s\n", jobs[i].path, jobs[i].error);
            failed++;
        }
    }
    return failed;
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
    if (c->csv)
        live_out_csv_begin(&c->lo);
    unsigned failed = nerrors + live_pass(c, c->lr.pass, jobs, njobs);
    if (live_stop && !c->lr.interrupted)
        c->lr.interrupted = (int)live_stop;
    if (c->json)
        live_out_summary_json(&c->lo);
    else if (!c->csv)
        live_out_summary_text(&c->lo);
    wb_flush(c->w);
    if (live_stop) {
        fprintf(stderr, CLI_NAME ": --live stopped by signal %d; the namespace went with its process\n",
                (int)live_stop);
        return 128 + (int)live_stop;
    }
    unsigned errors = 0, disagreements = 0;
    for (int i = 0; i < c->lr.nk; i++)
        errors += c->lr.k[i].errors, disagreements += c->lr.k[i].disagreements;
    return failed || errors ? 2 : disagreements ? 1 : 0;
}

void live_drop_file_caps(void)
{
    live_privsep_drop_file_caps();
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
    c.csv = o->format == &out_csv;
    if (o->nruns > 1 || runs[0].rewrite) {
        fprintf(stderr, CLI_NAME ": %s replays the capture as it is: no --compare, no --rewrite\n",
                o->live ? "--live" : "--era A,B");
        return 2;
    }
    const char *no = o->write_path ? "-w (it writes no capture)" : o->baseline_path ? "--baseline" :
                     o->junit_path ? "--junit" : o->merge ? "--merge" : o->flows ? "--flows" : NULL;
    if (no) {
        fprintf(stderr, CLI_NAME ": %s does not take %s\n", o->live ? "--live" : "--era A,B", no);
        return 2;
    }
    int rc = o->live ? live_replay_init(&c.lr, &runs[0].cfg, o->live_kernel, err, sizeof err)
                     : live_replay_init_eras(&c.lr, &runs[0].cfg, o->era_list, err, sizeof err);
    if (rc) {
        fprintf(stderr, CLI_NAME ": %s\n", err);
        return rc;
    }
    char *ferr = NULL;
    if (o->filter && !(c.flt = filter_new(o->filter, &ferr))) {   /* checked with the options already */
        fprintf(stderr, CLI_NAME ": capture filter '%s': %s\n", o->filter, ferr);
        g_free(ferr);
        return 2;
    }
    c.lr.face = (struct live_replay_face){ .frame = on_frame, .chunk_end = on_chunk_end, .note = on_note,
                                           .vm_line = on_vm_line, .progress = on_progress, .ctx = &c };
    c.bar = !o->quiet && (o->progress == PROG_ALWAYS || (o->progress == PROG_AUTO && isatty(STDERR_FILENO)));
    c.lr.stop = &live_stop;
    c.lr.quiet = o->quiet;
    c.lr.keep_vm_files = getenv("CSC_LIVE_KEEP") != NULL;
    c.run = runs[0];
    c.run.cfg = c.lr.cfg;
    c.rec = g_string_sized_new(1u << 16);
    /* This machine's kernel: the namespaces are made by a privileged helper,
     * and this process reads the captures with no privilege (broker.h). A
     * VM kernel needs no privilege here, and its runner reads the kernel
     * cache of the user who runs it: such runs are not split (docs/live.md). */
    const char **paths = NULL;
    if (o->live && live_replay_has_host(&c.lr) && !live_replay_needs_job(&c.lr) &&
        (geteuid() == 0 || live_privsep_capable())) {
        paths = g_new0(const char *, njobs + 1);
        for (unsigned i = 0; i < njobs; i++)
            paths[i] = jobs[i].path;
        if (live_privsep_start(&c.brk, paths, njobs, err, sizeof err)) {
            fprintf(stderr, CLI_NAME ": --live: cannot separate the privileged helper: %s\n", err);
            return 2;
        }
        c.privsep = true;
        c.lr.brk = &c.brk;
    } else {
        live_drop_file_caps();       /* a VM kernel or --era: no privilege here */
    }
    catch_signals();
    struct wbuf w = { outbuf, 0, sizeof outbuf, stdout_flush, NULL };
    c.w = &w;
    c.lo = (struct live_out){ o, &c.lr, &w };
    rc = live_run(&c, jobs, njobs, nerrors);
    live_replay_end(&c.lr);
    if (c.privsep) {
        if (c.brk.dead && rc < 2)
            rc = 2;                  /* the helper died: the run is not complete */
        live_broker_close(&c.brk);
    }
    g_free(paths);
    g_string_free(c.rec, TRUE);
    if (c.flt)
        filter_free(c.flt);
    return rc;
}
