/*
 * sink.c - ordered output for -j: every job writes its report bytes (and
 * its -w records) through sink_write(). The job at the head of the input
 * order writes straight to stdout / OUT; a job that runs ahead of it spools
 * to an anonymous temporary file (tmpfile(3): on disk, so memory stays
 * flat), drained the moment it becomes the head. With -j 1 nothing is ever
 * spooled. Also owns stderr (error lines never tear the progress bar) and
 * the progress bar itself.
 */
#include "sink.h"

#include "stop.h"
#include "wout.h"

#include <glib.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#define SNAPLEN_OUT 262144

struct cli_sink {
    GMutex lock;
    GCond cond;
    struct job *jobs;
    unsigned njobs, next, ndone;
    FILE *out;
    bool out_failed;
    /* -w */
    const char *write_path;
    struct wout *wout;
    bool write_told, write_failed;
    char *write_error;         /* the first write error, as said */
    unsigned char *scratch;
    size_t scratch_cap;
    sink_error_record_fn error_record;
    /* stderr */
    bool quiet;
    unsigned errors;
    bool bar_shown, bar_tty;
    gint64 t0;
};

struct cli_sink *sink_new(struct job *jobs, unsigned njobs, FILE *out, const char *write_path,
                          int write_format, bool quiet)
{
    struct cli_sink *s = g_new0(struct cli_sink, 1);
    g_mutex_init(&s->lock);
    g_cond_init(&s->cond);
    s->jobs = jobs;
    s->njobs = njobs;
    s->out = out;
    s->quiet = quiet;
    s->t0 = g_get_monotonic_time();
    if (write_path) {
        char *err = NULL;
        s->write_path = write_path;
        s->wout = wout_open(write_path, (enum wout_format)write_format, &err);
        if (!s->wout) {
            fprintf(stderr, CLI_NAME ": %s: %s\n", write_path, err);
            g_free(err);
            sink_free(s);
            return NULL;
        }
    }
    return s;
}

void sink_free(struct cli_sink *s)
{
    if (!s)
        return;
    g_mutex_clear(&s->lock);
    g_cond_clear(&s->cond);
    g_free(s->scratch);
    g_free(s->write_error);
    g_free(s);
}

static void clear_bar(struct cli_sink *s)
{
    if (s->bar_shown) {
        fputs(s->bar_tty ? "\r\033[K" : "\n", stderr);
        s->bar_shown = false;
    }
}

static void verror(struct cli_sink *s, bool count, const char *fmt, va_list ap)
    G_GNUC_PRINTF(3, 0);
static void verror(struct cli_sink *s, bool count, const char *fmt, va_list ap)
{
    clear_bar(s);
    fputs(CLI_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fflush(stderr);
    if (count)
        s->errors++;
}

static void error_locked(struct cli_sink *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void error_locked(struct cli_sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(s, true, fmt, ap);
    va_end(ap);
}

void sink_error(struct cli_sink *s, const char *fmt, ...)
{
    va_list ap;
    g_mutex_lock(&s->lock);
    va_start(ap, fmt);
    verror(s, true, fmt, ap);
    va_end(ap);
    g_mutex_unlock(&s->lock);
}

void sink_warning(struct cli_sink *s, const char *fmt, ...)
{
    va_list ap;
    if (s->quiet)
        return;
    g_mutex_lock(&s->lock);
    va_start(ap, fmt);
    verror(s, false, fmt, ap);
    va_end(ap);
    g_mutex_unlock(&s->lock);
}

void sink_count_error(struct cli_sink *s)
{
    g_mutex_lock(&s->lock);
    s->errors++;
    g_mutex_unlock(&s->lock);
}

void sink_set_error_record(struct cli_sink *s, sink_error_record_fn fn)
{
    s->error_record = fn;
}

unsigned sink_errors(const struct cli_sink *s)
{
    return s->errors;
}

/* ---- -w OUT ---------------------------------------------------------- */

/* The output stops at its first write error: said once, with the path */
static void wout_failed(struct cli_sink *s)
{
    if (!s->write_told) {
        error_locked(s, "%s: %s", s->write_path, wout_error(s->wout));
        s->write_told = true;
        s->write_error = g_strdup(wout_error(s->wout));
    }
}

static void emit_record(struct cli_sink *s, struct job *j, const struct rec_hdr *rh,
                        const unsigned char *data)
{
    char *why = NULL;
    int rc = rh->linktype < 0 || !s->wout
                 ? WOUT_ERR
                 : wout_frame(s->wout, rh->linktype, rh->sec, rh->nsec, data, rh->caplen, rh->len,
                              (int)rh->dir, (const char *)data + rh->caplen, rh->clen, &why);
    if (rc == WOUT_OK)
        return;
    j->frames_lost++;
    if (rc == WOUT_ERR && s->wout && wout_error(s->wout))
        wout_failed(s);
    if (rc == WOUT_LINK && !j->link_mismatch_told) {
        char *msg = g_strdup_printf("%s: its selected frames of this link type are not written",
                                    why);
        error_locked(s, "%s: %s", j->path, msg);
        if (s->error_record && !s->out_failed)
            s->error_record(s->out, j->path, msg);
        g_free(msg);
        j->link_mismatch_told = true;
    }
    g_free(why);
}

static void emit_records(struct cli_sink *s, struct job *j, const unsigned char *p, size_t n)
{
    while (n >= sizeof(struct rec_hdr)) {
        struct rec_hdr rh;
        memcpy(&rh, p, sizeof rh);
        emit_record(s, j, &rh, p + sizeof rh);
        p += sizeof rh + rh.caplen + rh.clen;
        n -= sizeof rh + rh.caplen + rh.clen;
    }
}

/* A write to standard output failed. Its reader gone (EPIPE: `| head`) is
 * a stop, as SIGPIPE would have been, and no error; anything else is. */
static void out_failed(struct cli_sink *s)
{
    s->out_failed = true;
    if (errno == EPIPE)
        stop_request(SIGPIPE);
    else
        error_locked(s, "standard output: write failed: %s", g_strerror(errno));
}

static void emit(struct cli_sink *s, struct job *j, int which, const void *p, size_t n)
{
    if (which == SINK_REC) {
        emit_records(s, j, p, n);
        return;
    }
    if (!s->out_failed && fwrite(p, 1, n, s->out) != n)
        out_failed(s);
}

static void drain(struct cli_sink *s, struct job *j, int which)
{
    FILE *sp = j->spool[which];
    if (!sp)
        return;
    j->spool[which] = NULL;
    if (fflush(sp) || fseek(sp, 0, SEEK_SET)) {
        error_locked(s, "%s: temporary spool: %s", j->path, g_strerror(errno));
        fclose(sp);
        return;
    }
    if (which == SINK_OUT) {
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, sp)) > 0)
            emit(s, j, which, buf, n);
    } else {
        struct rec_hdr rh;
        while (fread(&rh, sizeof rh, 1, sp) == 1) {
            size_t need = (size_t)rh.caplen + rh.clen;
            if (need > s->scratch_cap) {
                s->scratch_cap = need;
                s->scratch = g_realloc(s->scratch, s->scratch_cap);
            }
            if (need && fread(s->scratch, need, 1, sp) != 1)
                break;
            emit_record(s, j, &rh, s->scratch);
        }
    }
    if (ferror(sp))
        error_locked(s, "%s: temporary spool: read error", j->path);
    fclose(sp);
}

void sink_write(struct cli_sink *s, struct job *j, int which, const void *p, size_t n)
{
    g_mutex_lock(&s->lock);
    if (j->index == s->next) {
        drain(s, j, which);
        emit(s, j, which, p, n);
    } else {
        if (!j->spool[which]) {
            j->spool[which] = tmpfile();
            if (!j->spool[which]) {
                error_locked(s, "%s: cannot create a temporary spool for -j: %s", j->path,
                             g_strerror(errno));
                g_mutex_unlock(&s->lock);
                return;
            }
        }
        if (fwrite(p, 1, n, j->spool[which]) != n)
            error_locked(s, "%s: temporary spool: write failed: %s", j->path, g_strerror(errno));
    }
    g_mutex_unlock(&s->lock);
}

void sink_job_done(struct cli_sink *s, struct job *j, const struct cli_stats *st,
                   struct cli_stats *total)
{
    g_mutex_lock(&s->lock);
    cli_stats_merge(total, st);
    if (j->size)
        atomic_store_explicit(&j->done_bytes, j->size, memory_order_relaxed);
    j->done = true;
    s->ndone++;
    while (s->next < s->njobs && s->jobs[s->next].done) {
        struct job *h = &s->jobs[s->next];
        drain(s, h, SINK_OUT);
        drain(s, h, SINK_REC);
        total->select_lost += h->frames_lost;
        s->next++;
    }
    if (s->next < s->njobs) {   /* the new head streams from now on */
        drain(s, &s->jobs[s->next], SINK_OUT);
        drain(s, &s->jobs[s->next], SINK_REC);
    }
    if (!s->out_failed && fflush(s->out))
        out_failed(s);
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
}

bool sink_close(struct cli_sink *s, int fallback_linktype)
{
    bool ok = sink_close_write(s, fallback_linktype);
    if (!s->out_failed && (fflush(s->out) || ferror(s->out)))
        out_failed(s);
    return ok && !s->out_failed && !s->write_failed;
}

bool sink_close_write(struct cli_sink *s, int fallback_linktype)
{
    bool ok = true;
    if (s->wout) {
        char *err = NULL;
        if (!wout_close(s->wout, fallback_linktype, &err)) {
            /* the error, and what became of the file (unless said already) */
            if (!s->write_error || strcmp(err, s->write_error)) {
                fprintf(stderr, CLI_NAME ": %s: %s\n", s->write_path, err);
                s->errors++;
            }
            ok = false;
            s->write_failed = true;
        }
        g_free(err);
        s->wout = NULL;
    }
    return ok;
}

/* ---- progress bar ------------------------------------------------------ */

static void human(char *buf, size_t n, double v, const char *unit)
{
    static const char *const pre[] = { "", "Ki", "Mi", "Gi", "Ti" };
    unsigned i = 0;
    while (v >= 1024.0 && i < 4) {
        v /= 1024.0;
        i++;
    }
    snprintf(buf, n, i ? "%.1f %s%s" : "%.0f %s%s", v, pre[i], unit);
}

static void draw_bar(struct cli_sink *s, gint64 now)
{
    uint64_t done = 0, total = 0;
    bool known = true;
    for (unsigned i = 0; i < s->njobs; i++) {
        done += atomic_load_explicit(&s->jobs[i].done_bytes, memory_order_relaxed);
        if (s->jobs[i].size)
            total += s->jobs[i].size;
        else if (!s->jobs[i].done)
            known = false;
    }
    double secs = (double)(now - s->t0) / 1e6;
    double rate = secs > 0 ? (double)done / secs : 0;
    char d[32], t[32], r[32];
    human(d, sizeof d, (double)done, "B");
    human(t, sizeof t, (double)total, "B");
    human(r, sizeof r, rate, "B/s");
    char line[160];
    if (known && total) {
        if (done > total)
            done = total;
        double frac = (double)done / (double)total;
        char bar[21];
        unsigned fill = (unsigned)(frac * 20.0);
        for (unsigned i = 0; i < 20; i++)
            bar[i] = i < fill ? '=' : (i == fill ? '>' : ' ');
        bar[20] = 0;
        double eta = rate > 0 ? (double)(total - done) / rate : 0;
        unsigned e = (unsigned)(eta + 0.5);
        snprintf(line, sizeof line, "[%s] %3u%%  %s / %s  %s  ETA %u:%02u  %u/%u files", bar,
                 (unsigned)(frac * 100.0), d, t, r, e / 60, e % 60, s->ndone, s->njobs);
    } else {
        snprintf(line, sizeof line, "%s  %s  %u/%u files", d, r, s->ndone, s->njobs);
    }
    fprintf(stderr, "\r%s%s", line, s->bar_tty ? "\033[K" : "");
    fflush(stderr);
    s->bar_shown = true;
}

void sink_wait_all(struct cli_sink *s, enum cli_progress mode)
{
    bool tty = isatty(STDERR_FILENO) != 0;
    bool enabled = mode == PROG_ALWAYS || (mode == PROG_AUTO && tty && !s->quiet);
    s->bar_tty = tty;
    g_mutex_lock(&s->lock);
    while (s->ndone < s->njobs) {
        gint64 until = g_get_monotonic_time() + 200 * G_TIME_SPAN_MILLISECOND;
        g_cond_wait_until(&s->cond, &s->lock, until);
        gint64 now = g_get_monotonic_time();
        /* "long" work: only after a second, unless asked for */
        if (enabled && s->ndone < s->njobs &&
            (mode == PROG_ALWAYS || now - s->t0 >= G_TIME_SPAN_SECOND))
            draw_bar(s, now);
    }
    if (enabled && mode == PROG_ALWAYS)
        draw_bar(s, g_get_monotonic_time());   /* the final 100% state */
    clear_bar(s);
    g_mutex_unlock(&s->lock);
}
