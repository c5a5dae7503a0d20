/*
 * main.c - csumcheck [OPTIONS] FILE|DIR|- ... [FILTER]
 *
 * Parse the options, expand the inputs, run one job per capture file on a
 * GThreadPool (-j N; one worker by default), keep the output in input
 * order (sink.c), then print the summary and exit 0 / 1 (--fail-on) / 2
 * (errors). Exit 2 wins over 1: an input that could not be read is never a
 * pass. A run stopped by SIGINT, SIGTERM or a closed standard output
 * (stop.c) ends as a finished one does, its summary marked, and exits
 * 128 + the signal. --merge reads JSON summaries instead (merge.c).
 */
#include "baseline.h"
#include "filter.h"
#include "job.h"
#include "junit.h"
#include "live_cli.h"
#include "merge.h"
#include "opts.h"
#include "out.h"
#include "pipeline.h"
#include "run.h"
#include "sink.h"
#include "stop.h"

#include <glib.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void worker(gpointer data, gpointer user)
{
    run_job(user, data);
}

/* the report's stream: standard output, or standard error under -w - */
static void report_flush(struct wbuf *w)
{
    fwrite(w->p, 1, w->len, w->ctx);
}

/* --baseline PREVIOUS.json read, or NULL (said) */
static struct baseline *load_baseline(const char *path)
{
    char *err = NULL;
    struct baseline *b = baseline_load(path, &err);
    if (!b) {
        fprintf(stderr, CLI_NAME ": --baseline: %s\n", err);
        g_free(err);
    }
    return b;
}

/* -w OUT must not overwrite one of the inputs */
static bool write_path_is_input(const char *out, const struct job *jobs, unsigned n)
{
    struct stat so, si;
    if (stat(out, &so) != 0)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (strcmp(jobs[i].path, "-") && stat(jobs[i].path, &si) == 0 &&
            si.st_dev == so.st_dev && si.st_ino == so.st_ino)
            return true;
    return false;
}

/* Every job on the thread pool; false when the pool cannot start. */
static bool run_all(struct run_shared *rs, struct job *jobs, unsigned njobs)
{
    GError *err = NULL;
    unsigned nthreads = (unsigned)rs->o->jobs < njobs ? (unsigned)rs->o->jobs : njobs;
    GThreadPool *pool = g_thread_pool_new(worker, rs, (gint)nthreads, TRUE, &err);
    if (!pool) {
        fprintf(stderr, CLI_NAME ": cannot start worker threads: %s\n", err->message);
        g_error_free(err);
        return false;
    }
    for (unsigned i = 0; i < njobs; i++)
        g_thread_pool_push(pool, &jobs[i], NULL);
    sink_wait_all(rs->sink, rs->o->progress);
    g_thread_pool_free(pool, FALSE, TRUE);
    return true;
}

/* The format's closing record(s): a run's summary, or two runs compared */
static void print_summary(struct wbuf *w, const struct cli_opts *o, struct cli_run *runs,
                          unsigned nerrors, unsigned njobs, int status)
{
    struct out_summary s = { o, runs, nerrors, njobs, status, stop_signal() };
    if (o->nruns > 1) {
        runs[1].st.selected = runs[0].st.selected;
        runs[1].st.select_lost = runs[0].st.select_lost;
        if (o->format->compare)
            o->format->compare(w, &s);
    } else if (o->format->summary) {
        o->format->summary(w, &s);
    }
    wb_flush(w);
}

/* --fail-on: which files and frames tripped it, the first CLI_FAIL_LIST in
 * input order; on stderr even with -q (it is why the exit status is 1) */
static void print_fail_list(const struct cli_opts *o, const struct fail_list *l)
{
    if (!l->frames)
        return;
    fprintf(stderr, CLI_NAME ": --fail-on: %ju %s in %ju %s%s\n", (uintmax_t)l->frames,
            l->frames == 1 ? "frame" : "frames", (uintmax_t)l->files,
            l->files == 1 ? "file" : "files", l->frames > l->n ? ", the first ones:" : ":");
    for (unsigned i = 0; i < l->n; i++) {
        const struct fail_hit *h = &l->first[i];
        char *name = wb_escaped(wb_text_name, o->jobv[h->file].path);
        fprintf(stderr, "  %s:%ju:", name, (uintmax_t)h->frame);
        for (uint32_t b = h->findings; b; b &= b - 1)
            fprintf(stderr, " %s", cli_finding_name((unsigned)__builtin_ctz(b)));
        fputc('\n', stderr);
        g_free(name);
    }
}

/* A capture was opened: there is something to sum up */
static bool any_read(const struct job *jobs, unsigned njobs)
{
    for (unsigned i = 0; i < njobs; i++)
        if (jobs[i].opened)
            return true;
    return false;
}

/* The exit status: a stop, else errors, else a --fail-on finding */
static int run_status(unsigned errors, bool fail_hit)
{
    int sig = stop_signal();
    if (sig)
        return 128 + sig;
    return errors ? 2 : fail_hit ? 1 : 0;
}

/* Analyse every input, print the summary; returns the exit status. */
static int run_inputs(struct cli_opts *o, struct cli_run *runs, struct job *jobs, unsigned njobs)
{
    static char outbuf[1u << 16];
    setvbuf(stdout, outbuf, o->line_buffered ? _IOLBF : _IOFBF, sizeof outbuf);
    /* -w -: the capture takes standard output, the report standard error */
    FILE *report = o->write_path && !strcmp(o->write_path, "-") ? stderr : stdout;
    struct cli_sink *sink = sink_new(jobs, njobs, report, o->write_path, o->write_format, o->quiet);
    if (!sink)
        return 2;
    if (o->format == &out_json)
        sink_set_error_record(sink, json_error_line);
    char hdr_tmp[512];
    struct wbuf w = { hdr_tmp, 0, sizeof hdr_tmp, report_flush, report };
    if (o->format->begin) {
        o->format->begin(&w, o);
        wb_flush(&w);
    }
    struct run_shared rs;
    memset(&rs, 0, sizeof rs);
    rs.o = o;
    rs.run = runs;
    rs.sink = sink;
    rs.budget = (int64_t)o->count;
    char *ferr = NULL;
    rs.filter = o->filter ? filter_new(o->filter, &ferr) : NULL;   /* compiled once already */
    g_free(ferr);
    g_mutex_init(&rs.merge_lock);
    pipeline_start(o->threads);
    int status = 2;
    if (!njobs || run_all(&rs, jobs, njobs)) {
        int fallback_link = -1;
        for (unsigned i = 0; i < njobs && fallback_link < 0; i++)
            fallback_link = jobs[i].linktype;
        pipeline_stop();
        /* -w is finished before the summary, which says what it holds: a
         * write error leaves nothing usable (the old file, or a cut stream) */
        if (!sink_close_write(sink, fallback_link))
            runs[0].st.select_lost = runs[0].st.selected;
        unsigned errors = sink_errors(sink);
        status = run_status(errors, atomic_load(&rs.fail_hit));
        if (any_read(jobs, njobs))     /* nothing read: nothing to sum up */
            print_summary(&w, o, runs, errors, njobs, status);
        if (!sink_close(sink, fallback_link))
            status = 2;
        if (stop_signal())             /* standard output closed while the summary went out */
            status = 128 + stop_signal();
        print_fail_list(o, &rs.fails);
    } else {
        sink_close(sink, -1);
        pipeline_stop();
    }
    filter_free(rs.filter);
    g_mutex_clear(&rs.merge_lock);
    sink_free(sink);
    return status;
}

int main(int argc, char **argv)
{
    static struct cli_opts o;
    static struct cli_run runs[CLI_MAX_RUNS];
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");   /* numbers in the output are never localised */

    int rc = options_parse(&argc, &argv, &o, runs);
    if (rc >= 0) {
        options_free_runs(runs, CLI_MAX_RUNS);
        return rc;
    }
    if (!o.live)                     /* --live decides in live_main (its helper keeps them) */
        live_drop_file_caps();
    for (unsigned i = 0; i < o.nruns; i++)   /* the replay records its trace if it is printed */
        runs[i].cfg.trace_steps = out_traces(&o);

    int status = 2;
    gint64 t0 = g_get_monotonic_time();
    if (o.merge) {
        status = merge_main(&o, runs);
    } else {
        /* Catch SIGINT/SIGTERM before the inputs are looked at: a signal
         * while directories are walked and files sniffed stops the run as
         * one during the reading does (--live has handlers of its own). */
        if (!o.live && !o.era_list)
            stop_install();
        if (o.baseline_path && !(o.baseline = load_baseline(o.baseline_path))) {
            status = 2;
            goto out;
        }
        unsigned njobs = 0;
        struct job *jobs = inputs_expand(o.inputs, &njobs, o.quiet);
        o.jobv = jobs;
        o.njobv = njobs;
        if (o.live || o.era_list)
            status = live_main(&o, runs, jobs, njobs, 0);   /* expansion errors are jobs */
        else if (o.write_path && write_path_is_input(o.write_path, jobs, njobs))
            fprintf(stderr, CLI_NAME ": %s: -w would overwrite an input; choose another file\n",
                    o.write_path);
        else
            status = run_inputs(&o, runs, jobs, njobs);
        if (o.junit_path && !o.live) {
            char *err = NULL;
            double secs = (double)(g_get_monotonic_time() - t0) / 1e6;
            if (!junit_write(o.junit_path, jobs, njobs, secs, &err)) {
                fprintf(stderr, CLI_NAME ": --junit: %s\n", err);
                g_free(err);
                status = 2;
            }
        }
        for (unsigned i = 0; i < njobs; i++) {
            g_free(jobs[i].path);
            g_free(jobs[i].error);
            if (jobs[i].junit)
                g_string_free(jobs[i].junit, TRUE);
        }
        g_free(jobs);
    }
out:
    baseline_free(o.baseline);
    g_free(o.baseline_path);
    g_free(o.junit_path);
    options_free_runs(runs, CLI_MAX_RUNS);
    g_strfreev(o.inputs);
    g_free((char *)o.write_path);
    g_free(o.live_kernel);
    g_free(o.era_list);
    g_free(o.filter);
    return status;
}
