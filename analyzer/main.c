/*
 * main.c - csumcheck [OPTIONS] FILE|DIR|- ...
 *
 * Parse the options, expand the inputs, run one job per capture file on a
 * GThreadPool (-j N; one worker by default), keep the output in input
 * order (sink.c), then print the summary and exit 0 / 1 (--fail-on) / 2
 * (errors). Exit 2 wins over 1: an input that could not be read is never a
 * pass.
 */
#include "cli.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void worker(gpointer data, gpointer user)
{
    run_job(user, data);
}

static void stdout_flush(struct wbuf *w)
{
    fwrite(w->p, 1, w->len, stdout);
}

static char *kernel_prefix(const struct cli_run *run)
{
    char tmp[256];
    GString *g = g_string_new("\"kernel\":{\"rx\":");
    struct wbuf w = { tmp, 0, sizeof tmp, NULL, NULL };
    wb_json_str(&w, run->rx_name);
    wb_puts(&w, ",\"era\":");
    wb_json_str(&w, run->cfg.era.name);
    g_string_append_len(g, tmp, (gssize)w.len);
    return g_string_free(g, FALSE);
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
    for (unsigned i = 0; i < o.nruns; i++) {
        /* --compare prints no per-frame trace: the replay runs without it */
        runs[i].cfg.trace_steps = o.nruns == 1 && o.verbose > 0 &&
                                  (o.format == FMT_JSON || (o.format == FMT_TEXT && o.verbose > 1));
        runs[i].json_kernel_prefix = kernel_prefix(&runs[i]);
    }

    unsigned njobs = 0, nerrors = 0;
    int status = 2;
    struct cli_sink *sink = NULL;
    struct job *jobs = inputs_expand(o.inputs, &njobs, &nerrors);
    o.jobv = jobs;
    o.njobv = njobs;
    if (o.write_path && write_path_is_input(o.write_path, jobs, njobs)) {
        fprintf(stderr, CLI_NAME ": %s: -w would overwrite an input; choose another file\n",
                o.write_path);
        goto out;
    }

    static char outbuf[1u << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    sink = sink_new(jobs, njobs, stdout, o.write_path, o.quiet);
    if (!sink)
        goto out;

    char hdr_tmp[512];
    struct wbuf w = { hdr_tmp, 0, sizeof hdr_tmp, stdout_flush, NULL };
    if (o.format == FMT_CSV && o.nruns == 1) {
        render_csv_header(&w);
        wb_flush(&w);
    }

    struct run_shared rs;
    memset(&rs, 0, sizeof rs);
    rs.o = &o;
    rs.run = runs;
    rs.sink = sink;
    g_mutex_init(&rs.merge_lock);
    pipeline_start(o.threads);
    if (njobs) {
        GError *err = NULL;
        unsigned nthreads = (unsigned)o.jobs < njobs ? (unsigned)o.jobs : njobs;
        GThreadPool *pool = g_thread_pool_new(worker, &rs, (gint)nthreads, TRUE, &err);
        if (!pool) {
            fprintf(stderr, CLI_NAME ": cannot start worker threads: %s\n", err->message);
            g_error_free(err);
            sink_close(sink, -1);
            pipeline_stop();
            g_mutex_clear(&rs.merge_lock);
            goto out;
        }
        for (unsigned i = 0; i < njobs; i++)
            g_thread_pool_push(pool, &jobs[i], NULL);
        sink_wait_all(sink, o.progress);
        g_thread_pool_free(pool, FALSE, TRUE);
    }

    int fallback_link = -1;
    for (unsigned i = 0; i < njobs && fallback_link < 0; i++)
        fallback_link = jobs[i].linktype;
    unsigned errors = nerrors + sink_errors(sink);
    status = errors ? 2 : atomic_load(&rs.fail_hit) ? 1 : 0;
    pipeline_stop();
    g_mutex_clear(&rs.merge_lock);
    if (o.nruns > 1) {
        runs[1].st.selected = runs[0].st.selected;
        runs[1].st.select_lost = runs[0].st.select_lost;
        if (o.format == FMT_JSON)
            summary_compare_json(&w, runs, &o, errors, status);
        else if (o.format == FMT_CSV)
            summary_compare_csv(&w, runs, &o);
        else
            summary_compare_text(&w, runs, &o, errors);
    } else if (o.format == FMT_JSON) {
        summary_json(&w, &runs[0], &o, errors, njobs, status);
    } else if (o.format == FMT_TEXT) {
        summary_text(&w, &runs[0], &o, errors, njobs);
    }
    wb_flush(&w);
    if (!sink_close(sink, fallback_link))
        status = 2;
out:
    sink_free(sink);

    for (unsigned i = 0; i < njobs; i++)
        g_free(jobs[i].path);
    g_free(jobs);
    options_free_runs(runs, CLI_MAX_RUNS);
    g_strfreev(o.inputs);
    g_free((char *)o.write_path);
    return status;
}
