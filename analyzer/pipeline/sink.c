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

#include <glib.h>
#include <pcap/pcap.h>

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
    FILE *wfp;
    pcap_t *dead;
    pcap_dumper_t *dumper;
    int dump_linktype;
    bool dump_failed;
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
                          bool quiet)
{
    struct cli_sink *s = g_new0(struct cli_sink, 1);
    g_mutex_init(&s->lock);
    g_cond_init(&s->cond);
    s->jobs = jobs;
    s->njobs = njobs;
    s->out = out;
    s->quiet = quiet;
    s->dump_linktype = -1;
    s->t0 = g_get_monotonic_time();
    if (write_path) {
        s->write_path = write_path;
        s->wfp = fopen(write_path, "wb");
        if (!s->wfp) {
            fprintf(stderr, CLI_NAME ": %s: cannot create: %s\n", write_path, g_strerror(errno));
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

static bool dumper_open(struct cli_sink *s, int linktype)
{
    if (s->dumper)
        return true;
    if (s->dump_failed || !s->wfp)
        return false;
    s->dead = pcap_open_dead_with_tstamp_precision(linktype, SNAPLEN_OUT, PCAP_TSTAMP_PRECISION_NANO);
    s->dumper = s->dead ? pcap_dump_fopen(s->dead, s->wfp) : NULL;
    if (!s->dumper) {
        error_locked(s, "%s: cannot write pcap: %s", s->write_path,
                     s->dead ? pcap_geterr(s->dead) : "out of memory");
        s->dump_failed = true;
        return false;
    }
    s->dump_linktype = linktype;
    return true;
}

static void emit_record(struct cli_sink *s, struct job *j, const struct rec_hdr *rh,
                        const unsigned char *data)
{
    if (rh->linktype < 0 || !dumper_open(s, rh->linktype)) {
        j->frames_lost++;
        return;
    }
    if (rh->linktype != s->dump_linktype) {
        if (!j->link_mismatch_told) {
            const char *a = pcap_datalink_val_to_name(rh->linktype);
            const char *b = pcap_datalink_val_to_name(s->dump_linktype);
            char *msg = g_strdup_printf("link type %s (%d) differs from %s's %s (%d): its "
                                        "selected frames are not written (a pcap file holds one "
                                        "link type; use one -w run per link type)",
                                        a ? a : "DLT", rh->linktype, s->write_path, b ? b : "DLT",
                                        s->dump_linktype);
            error_locked(s, "%s: %s", j->path, msg);
            if (s->error_record && !s->out_failed)
                s->error_record(s->out, j->path, msg);
            g_free(msg);
            j->link_mismatch_told = true;
        }
        j->frames_lost++;
        return;
    }
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = (time_t)rh->sec;
    h.ts.tv_usec = (suseconds_t)rh->nsec;   /* nanosecond dumper */
    h.caplen = rh->caplen;
    h.len = rh->len;
    pcap_dump((u_char *)s->dumper, &h, data);
}

static void emit_records(struct cli_sink *s, struct job *j, const unsigned char *p, size_t n)
{
    while (n >= sizeof(struct rec_hdr)) {
        struct rec_hdr rh;
        memcpy(&rh, p, sizeof rh);
        emit_record(s, j, &rh, p + sizeof rh);
        p += sizeof rh + rh.caplen;
        n -= sizeof rh + rh.caplen;
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
            if (rh.caplen > s->scratch_cap) {
                s->scratch_cap = rh.caplen;
                s->scratch = g_realloc(s->scratch, s->scratch_cap);
            }
            if (rh.caplen && fread(s->scratch, rh.caplen, 1, sp) != 1)
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
    if (!s->out_failed && (fflush(s->out) || ferror(s->out)))
        out_failed(s);
    bool ok = !s->out_failed;
    if (s->wfp) {
        if (!s->dumper && !s->dump_failed)
            dumper_open(s, fallback_linktype >= 0 ? fallback_linktype : DLT_EN10MB);
        if (s->dumper) {
            if (pcap_dump_flush(s->dumper) != 0) {
                fprintf(stderr, CLI_NAME ": %s: write failed\n", s->write_path);
                ok = false;
            }
            pcap_dump_close(s->dumper);   /* closes wfp */
            pcap_close(s->dead);
        } else {
            fclose(s->wfp);
            ok = false;
        }
        s->wfp = NULL;
        if (s->dump_failed)
            ok = false;
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
