/*
 * run.c - one capture file: libpcap -> csc_analyze() -> csc_frag_feed() ->
 * counters, renderers, -w selection. This is the hot path: per frame one
 * pcap_next_ex(), one csc_analyze(), one csc_frag_feed(), a loop over the
 * layers for the counters, and (json/csv/-v) a render into the job's own
 * buffer. Nothing is allocated per frame and nothing here reads packet
 * bytes: the core does, the CLI reads struct fields.
 */
#include "cli.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* What one configuration (struct cli_run) keeps per file, in capture
 * order. --compare (issue #9) will hold two of these per file, and the GRO
 * coalescing engine (core/include/csumcheck/gro.h) belongs here too: fed
 * from analyse_frame(), its totals merged into st at the end of the file. */
struct run_file {
    const struct cli_run *run;
    struct csc_frag_table frag;
    struct csc_rcache rcache;     /* memoised replay of all-good frames */
    struct csc_result r;
    struct cli_stats st;
};

/* Per-file state */
struct file_ctx {
    struct run_file a;
    struct wbuf out, rec;
    struct run_shared *rs;
    struct job *job;
    char *json_file, *csv_file, *text_file;
};

static void flush_out(struct wbuf *w)
{
    struct file_ctx *c = w->ctx;
    sink_write(c->rs->sink, c->job, SINK_OUT, w->p, w->len);
}

static void flush_rec(struct wbuf *w)
{
    struct file_ctx *c = w->ctx;
    sink_write(c->rs->sink, c->job, SINK_REC, w->p, w->len);
}

static void append_gstring(struct wbuf *w)
{
    g_string_append_len(w->ctx, w->p, (gssize)w->len);
}

static char *escaped(void (*fn)(struct wbuf *, const char *), const char *s)
{
    char tmp[256];
    GString *g = g_string_new(NULL);
    struct wbuf w = { tmp, 0, sizeof tmp, append_gstring, g };
    fn(&w, s);
    wb_flush(&w);
    return g_string_free(g, FALSE);
}

/* Counters of one frame; returns its findings (enum cli_finding bits). */
static uint32_t account(struct cli_stats *st, const struct csc_result *r)
{
    uint32_t m = 0;
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    for (unsigned i = 0; i < n; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->verdict == CSC_V_NA && l->csum_off == CSC_NO_OFF)
            continue;
        if (l->proto < CSC_P__COUNT && l->verdict < CSC_V__COUNT)
            st->layer[l->proto][l->verdict]++;
        if (l->reason < CSC_R__COUNT)
            st->reason[l->reason]++;
        switch (l->verdict) {
        case CSC_V_BAD: m |= 1u << FD_BAD; break;
        case CSC_V_NONE: m |= 1u << FD_NONE; break;
        case CSC_V_ZERO6: m |= 1u << FD_ZERO6; break;
        case CSC_V_PARTIAL: m |= 1u << FD_PARTIAL; break;
        case CSC_V_LCO: m |= 1u << FD_LCO; break;
        case CSC_V_RCO: m |= 1u << FD_RCO; break;
        case CSC_V_UNVERIFIABLE: m |= 1u << FD_UNVERIFIABLE; break;
        default: break;
        }
    }
    if (r->stop < CSC_STOP__COUNT)
        st->stop[r->stop]++;
    if (r->stop == CSC_STOP_TRUNCATED)
        m |= 1u << FD_TRUNCATED;
    else if (r->stop == CSC_STOP_MALFORMED)
        m |= 1u << FD_MALFORMED;

    const struct csc_kernel *k = &r->kernel;
    if (k->ran) {
        st->kverdict[k->verdict < 3 ? k->verdict : CSC_K_UNKNOWN]++;
        if (k->verdict == CSC_K_DROP) {
            m |= 1u << FD_DROP;
            st->drop_reason[k->drop_reason < CLI_DROP_NAMES ? k->drop_reason : 0]++;
        }
        for (uint32_t c = k->counters; c; c &= c - 1)
            st->counter[__builtin_ctz(c) < CSC_C__COUNT ? __builtin_ctz(c) : 0]++;
        if (k->warnings) {
            m |= 1u << FD_WARNING;
            for (uint32_t w = k->warnings; w; w &= w - 1)
                st->warning[__builtin_ctz(w)]++;
        }
        st->sw_passes += k->sw_passes;
        st->sw_bytes += k->sw_bytes;
        st->hdr_bytes += k->hdr_bytes;
        unsigned nd = k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS;
        for (unsigned d = 0; d < nd; d++) {
            const struct csc_dev *dv = &k->devs[d];
            if (dv->kind < CSC_P__COUNT && dv->gro_reason < CSC_G__COUNT)
                st->gro[dv->kind][dv->gro_reason]++;
        }
    } else {
        st->kernel_not_run++;
    }
    for (uint32_t b = m; b; b &= b - 1)
        st->finding[__builtin_ctz(b)]++;
    if (m)
        st->findings_any++;
    return m;
}

static void put_record(struct file_ctx *c, const struct pcap_pkthdr *h, const u_char *data)
{
    struct rec_hdr rh = { (int64_t)h->ts.tv_sec, (uint32_t)h->ts.tv_usec, h->caplen, h->len, 0 };
    size_t need = sizeof rh + h->caplen;
    struct wbuf *w = &c->rec;
    if (need > w->cap - w->len)
        wb_flush(w);
    if (need > w->cap) {   /* a frame bigger than the buffer: one-off */
        char *big = g_malloc(need);
        memcpy(big, &rh, sizeof rh);
        memcpy(big + sizeof rh, data, h->caplen);
        sink_write(c->rs->sink, c->job, SINK_REC, big, need);
        g_free(big);
        return;
    }
    memcpy(w->p + w->len, &rh, sizeof rh);
    memcpy(w->p + w->len + sizeof rh, data, h->caplen);
    w->len += need;
}

static const char *open_problem(const char *pcap_err, bool empty)
{
    if (empty)
        return "empty file, not a pcap or pcapng capture";
    if (strstr(pcap_err, "unknown file format"))
        return "not a pcap or pcapng capture (unknown file format)";
    return NULL;
}

/* One frame under one configuration: the whole per-frame analysis.
 * Returns the frame's findings. */
static uint32_t analyse_frame(struct run_file *rf, const struct csc_frame *f, uint64_t n)
{
    csc_analyze_cached(&rf->run->cfg, f, &rf->r, &rf->rcache);
    csc_frag_feed(&rf->frag, f, &rf->r, n);
    uint32_t m = account(&rf->st, &rf->r);
    rf->st.frames++;
    rf->st.cap_bytes += f->caplen;
    rf->st.wire_bytes += f->wirelen;
    return m;
}

/* The frame loop. Returns false when the file could not be read to its end. */
static bool analyse_file(struct file_ctx *c, pcap_t *p)
{
    const struct cli_opts *o = c->rs->o;
    struct job *j = c->job;
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t n = 0, bytes = 0;
    int rc;
    uint8_t link = (uint8_t)csc_link_from_linktype((uint32_t)j->linktype);
    bool want_rec = o->write_path != NULL;
    bool json = o->format == FMT_JSON, csv = o->format == FMT_CSV;
    bool text_v = o->format == FMT_TEXT && o->verbose > 0;
    bool steps = json && o->verbose > 0;
    struct frame_view v = { c->json_file, c->csv_file, c->text_file,
                            c->rs->run->json_kernel_prefix, 0, NULL, &c->a.r, 0 };

    if (link == CSC_LINK_UNKNOWN) {
        const char *name = pcap_datalink_val_to_name(j->linktype);
        sink_warning(c->rs->sink, "%s: link type %d%s%s%s is not decoded: its frames stop at "
                     "unknown-link", j->path, j->linktype, name ? " (" : "", name ? name : "",
                     name ? ")" : "");
    }
    while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
        struct csc_frame f = { data, h->caplen, h->len, link, CSC_DIR_UNKNOWN };
        n++;
        uint32_t m = analyse_frame(&c->a, &f, n);
        if (m & o->fail_on)
            atomic_store_explicit(&c->rs->fail_hit, true, memory_order_relaxed);
        if (want_rec && (m & o->select)) {
            put_record(c, h, data);
            c->a.st.selected++;
        }
        if (json || csv || (text_v && m)) {
            v.frame = n;
            v.h = h;
            v.findings = m;
            if (json)
                render_json_frame(&c->out, &v, steps);
            else if (csv)
                render_csv_frame(&c->out, &v);
            else
                render_text_frame(&c->out, &v, o->verbose);
        }
        bytes += h->caplen + 16u;
        if ((n & 1023) == 0)
            atomic_store_explicit(&j->done_bytes, bytes, memory_order_relaxed);
    }
    if (rc == -1) {
        const char *e = pcap_geterr(p);
        char msg[PCAP_ERRBUF_SIZE + 160];
        if (n)
            snprintf(msg, sizeof msg, "damaged after frame %ju (%s); frames 1-%ju were analysed",
                     (uintmax_t)n, e, (uintmax_t)n);
        else
            snprintf(msg, sizeof msg, "cannot read the first frame (%s)", e);
        sink_error(c->rs->sink, "%s: %s", j->path, msg);
        if (json)
            render_json_error(&c->out, c->json_file, n + 1, msg);
        return false;
    }
    return true;
}

void run_job(struct run_shared *rs, struct job *j)
{
    struct file_ctx *c = g_malloc0(sizeof *c);
    char *rbuf = g_malloc(CLI_READ_BUF);
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    bool ok = false;
    FILE *fp;
    bool is_stdin = !strcmp(j->path, "-");

    c->rs = rs;
    c->job = j;
    c->a.run = rs->run;
    c->a.st.files = 1;
    c->out = (struct wbuf){ g_malloc(CLI_OUT_BUF), 0, CLI_OUT_BUF, flush_out, c };
    c->rec = (struct wbuf){ rs->o->write_path ? g_malloc(CLI_REC_BUF) : NULL, 0,
                            rs->o->write_path ? CLI_REC_BUF : 0, flush_rec, c };
    c->json_file = escaped(wb_json_str, j->path);
    c->csv_file = escaped(wb_csv_field, j->path);
    c->text_file = escaped(wb_text_name, j->path);
    csc_frag_init(&c->a.frag);
    csc_rcache_init(&c->a.rcache);

    fp = is_stdin ? stdin : fopen(j->path, "rb");
    if (!fp) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open: %s", g_strerror(errno));
        sink_error(rs->sink, "%s: %s", j->path, msg);
        if (rs->o->format == FMT_JSON)
            render_json_error(&c->out, c->json_file, 0, msg);
        goto done;
    }
    struct stat sb;
    bool empty = !is_stdin && fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0;
    setvbuf(fp, rbuf, _IOFBF, CLI_READ_BUF);
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!p) {
        const char *why = open_problem(errbuf, empty);
        char msg[PCAP_ERRBUF_SIZE + 64];
        snprintf(msg, sizeof msg, "%s", why ? why : errbuf);
        sink_error(rs->sink, "%s: %s", j->path, msg);
        if (rs->o->format == FMT_JSON)
            render_json_error(&c->out, c->json_file, 0, msg);
        if (!is_stdin)
            fclose(fp);
        goto done;
    }
    j->linktype = pcap_datalink(p);
    ok = analyse_file(c, p);
    pcap_close(p);   /* closes fp (stdin included) */

done:
    c->a.st.frag_completed = c->a.frag.completed;
    c->a.st.frag_evicted = c->a.frag.evicted;
    c->a.st.frag_overlaps = c->a.frag.overlaps;
    c->a.st.frag_dropped = c->a.frag.dropped;
    if (!ok)
        c->a.st.files_failed = 1;
    j->failed = !ok;
    wb_flush(&c->out);
    if (c->rec.p)
        wb_flush(&c->rec);
    sink_job_done(rs->sink, j, &c->a.st, &rs->run->st);
    g_free(c->out.p);
    g_free(c->rec.p);
    g_free(c->json_file);
    g_free(c->csv_file);
    g_free(c->text_file);
    g_free(c);
    g_free(rbuf);
}
