/*
 * run.c - one capture file, a job of the run: opened (source.c), its frames
 * through the analysis, its totals into the run's at the end.
 *
 * Two ways through a file, with byte-identical output:
 *  - in one thread (--threads 1, --compare with per-frame output): each
 *    frame read is analysed, accounted, fed to the GRO engine and rendered
 *    in turn (frame_in_order(), frame.c);
 *  - the pipeline (pipeline.c, default with 2 CPUs or more): worker threads
 *    analyse and render batches of frames, the file's thread takes them
 *    back in capture order for what depends on the order; both use the
 *    steps of one frame of frame.c.
 */
#include "run.h"

#include "baseline.h"
#include "blk.h"
#include "frame.h"
#include "pipeline.h"
#include "source.h"
#include "stop.h"
#include "wout.h"
#include "wtr.h"

#include <errno.h>
#include <string.h>

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

static bool use_pipeline(const struct file_ctx *c)
{
    /* --compare renders frames from both results at once: in one thread */
    return pipeline_running() && !c->fv.out.diffs;
}

/* The records of a classic pcap read in blocks, in this thread (pcapblk.c).
 * Returns with rd->pcap set when libpcap must take over. */
static void blk_in_order(struct file_ctx *c, struct blk *k, uint64_t *np, struct rdr *rd)
{
    struct job *j = c->job;
    size_t cap = BLK_BUF, have = 0, pos = 0;
    uint8_t *buf = g_malloc(cap);
    uint64_t n = *np;
    for (;;) {
        struct pcap_pkthdr h;
        int st = blk_record(k, buf + pos, have - pos, &h);
        if (st == BLK_FRAME) {
            const uint8_t *d = buf + pos + 16;
            pos += 16 + (size_t)h.caplen;
            int g = c->gated ? frame_gate(c, &h, d, &c->fin) : GATE_TAKE;
            if (g == GATE_STOP)
                break;
            ++n;
            if (g == GATE_TAKE)
                frame_in_order(c, &h, d, n, &c->fin);
            if ((n & 1023) == 0)
                atomic_store_explicit(&j->done_bytes, k->bytes, memory_order_relaxed);
            continue;
        }
        if (st == BLK_MORE) {
            if (cli_stopping())
                break;             /* checked once a block */
            memmove(buf, buf + pos, have - pos);
            have -= pos;
            pos = 0;
            if (have >= 16) {   /* a record longer than the buffer */
                uint32_t caplen;
                memcpy(&caplen, buf + 8, 4);
                if (16 + (size_t)caplen > cap) {
                    cap = 16 + (size_t)caplen;
                    buf = g_realloc(buf, cap);
                }
            }
            ssize_t r = blk_fill(k, buf, have, cap);
            if (r >= 0) {
                have += (size_t)r;
                continue;
            }
            st = BLK_LIBPCAP;   /* a read error: libpcap reads again and says it */
        }
        if (st == BLK_LIBPCAP) {
            char errbuf[PCAP_ERRBUF_SIZE];
            rd->pcap = blk_libpcap(k, buf + pos, have - pos, errbuf);
            if (!rd->pcap)
                sink_error(c->rs->sink, "%s: %s", j->path, errbuf);   /* k->failed */
            rd->bytes = k->bytes;
        }
        break;
    }
    g_free(buf);
    *np = n;
}

/* The records libpcap or libwiretap reads, in this thread */
static int rdr_in_order(struct file_ctx *c, struct rdr *rd, uint64_t *np)
{
    struct pcap_pkthdr *h;
    const u_char *data;
    struct frame_in fi;
    uint64_t n = *np;
    int rc;
    while ((rc = rdr_next(c, rd, &h, &data, &fi)) == 1) {
        int g = c->gated ? frame_gate(c, h, data, &fi) : cli_stopping() ? GATE_STOP : GATE_TAKE;
        if (g == GATE_STOP) {
            rc = 0;
            break;
        }
        ++n;
        if (g == GATE_TAKE)
            frame_in_order(c, h, data, n, &fi);
        if ((n & 1023) == 0)
            atomic_store_explicit(&c->job->done_bytes, rd->wtr ? wtr_bytes(rd->wtr) : rd->bytes,
                                  memory_order_relaxed);
    }
    *np = n;
    return rc;
}

/* Returns false when the file could not be read to its end. k: the block
 * reader when the file is read in blocks; rd: libpcap or libwiretap
 * otherwise (or libpcap after the block reader hands over). */
static bool analyse_file(struct file_ctx *c, struct rdr *rd, struct blk *k)
{
    uint64_t n = 0;
    int rc = 0;
    if (use_pipeline(c)) {
        rc = pipeline_file(c, rd, k, &n);
    } else {
        if (k->fast)
            blk_in_order(c, k, &n, rd);
        if (rd->pcap || rd->wtr)
            rc = rdr_in_order(c, rd, &n);
    }
    bool ok = true;
    if (rc == -1) {
        report_read_error(c, rd, n);
        ok = false;
    } else if (k->failed) {
        ok = false;   /* the hand-over to libpcap failed (said already) */
    }
    if (rd->pcap)
        pcap_close(rd->pcap);
    wtr_close(rd->wtr);
    return ok;
}

static void run_file_init(struct run_file *rf, const struct cli_run *run, bool fast_path)
{
    rf->run = run;
    rf->fp = fast_path ? &rf->fast : NULL;
    rf->st.files = 1;
    csc_frag_init(&rf->frag);
    /* the fragments' bytes: one area per slot, untouched (so never paged in)
     * until a fragment comes */
    rf->frag_store = g_malloc(CSC_FRAG_STORE_BYTES);
    csc_frag_attach(&rf->frag, &run->cfg, rf->frag_store);
    csc_fast_init(&rf->fast);
    rf->gro = g_malloc(sizeof *rf->gro);
    struct csc_gro_cfg gcfg = run->gro_cfg;
    gcfg.era_sw = run->cfg.era.sw;      /* the run's era: the IPv4 ID and CWR rules */
    csc_gro_init(rf->gro, &gcfg);
    rf->fid = g_new0(struct cli_flow_id, CSC_GRO_FLOWS);
    rf->shapes = fast_path ? g_new0(struct flow_shapes, 1) : NULL;
    rf->stat_shapes = fast_path ? g_new0(struct stat_shapes, 1) : NULL;
    if (run->rewrite || run->peer_on) {   /* --peer-rx: the wire frame in the second half */
        rf->rwbuf = g_malloc(run->peer_on ? 2 * RW_BUF : RW_BUF);
        rf->base = g_malloc(sizeof *rf->base);
    }
}

static void run_file_free(struct run_file *rf)
{
    g_free(rf->frag_store);
    g_free(rf->gro);
    g_free(rf->fid);
    g_free(rf->shapes);
    g_free(rf->stat_shapes);
    g_free(rf->rwbuf);
    g_free(rf->base);
}

/* End of the file: the counters of one run_file into its run's totals */
static void run_file_finish(struct run_shared *rs, struct run_file *rf, unsigned file, bool ok)
{
    csc_gro_finish(rf->gro);
    rf->st.frag_completed = rf->frag.completed;
    rf->st.frag_evicted = rf->frag.evicted;
    rf->st.frag_overlaps = rf->frag.overlaps;
    rf->st.frag_dropped = rf->frag.dropped;
    if (!ok)
        rf->st.files_failed = 1;
    struct cli_gro_totals t;
    gro_totals_init(&t);
    gro_totals_of_engine(rf->gro, rf->fid, rf->tcp_flows, rf->other_frames, file, rs->o->top_flows, &t);
    struct cli_run *run = &rs->run[rf->run->index];
    g_mutex_lock(&rs->merge_lock);
    gro_totals_merge(&run->gro, &t, rs->o->top_flows);
    if (rf->run->index > 0)
        cli_stats_merge(&run->st, &rf->st);
    g_mutex_unlock(&rs->merge_lock);
    gro_totals_free(&t);
}

/* --flows: a flow's record, when it leaves the table */
static void flow_out(void *ctx, const struct cli_flow *fl)
{
    struct file_ctx *c = ctx;
    if (c->fv.out.flows)
        c->fv.out.fmt->flow(&c->out, &c->fv.out, fl);
}

static struct file_ctx *file_ctx_new(struct run_shared *rs, struct job *j)
{
    const struct cli_opts *o = rs->o;
    struct file_ctx *c = g_malloc0(sizeof *c);
    c->rs = rs;
    c->job = j;
    c->nruns = o->nruns;
    c->cmp = c->nruns > 1;
    c->want_rec = o->write_path != NULL;
    c->want_comment = c->want_rec && wout_format_for(o->write_path, o->write_format) == WOUT_PCAPNG;
    c->want_outcome = o->baseline != NULL;
    if (o->junit_path && !j->junit)
        j->junit = g_string_new(NULL);
    c->gated = rs->filter || o->count;
    c->flt_dlt = INT32_MIN;
    g_mutex_init(&c->lock);
    g_mutex_init(&c->rd);
    g_cond_init(&c->cond);
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_init(&c->rf[i], &rs->run[i], o->fast_path);
    c->out = (struct wbuf){ g_malloc(CLI_OUT_BUF), 0, CLI_OUT_BUF, flush_out, c };
    c->rec = (struct wbuf){ o->write_path ? g_malloc(CLI_REC_BUF) : NULL, 0,
                            o->write_path ? CLI_REC_BUF : 0, flush_rec, c };
    c->fv.runs = rs->run;
    c->fv.nruns = c->nruns;
    c->fv.fast_path = o->fast_path;
    out_file_open(&c->fv.out, o, rs->run, j->path);
    out_file_open_comment(&c->cout, o, rs->run, j->path);
    if (o->flows)
        c->flows = flow_table_new(j->index, flow_out, c, o->flows);
    return c;
}

static void file_ctx_free(struct file_ctx *c)
{
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_free(&c->rf[i]);
    out_file_close(&c->fv.out);
    out_file_close(&c->cout);
    flow_table_free(c->flows);
    g_mutex_clear(&c->lock);
    g_mutex_clear(&c->rd);
    g_cond_clear(&c->cond);
    g_free(c->out.p);
    g_free(c->rec.p);
    g_free(c);
}

static int fail_cmp(const void *pa, const void *pb)
{
    const struct fail_hit *a = pa, *b = pb;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->frame < b->frame ? -1 : a->frame > b->frame;
}

/* --fail-on: the file's first frames into the run's list (the first ones in
 * input order, whatever order the -j files end in) */
static void fails_merge(struct run_shared *rs, const struct file_ctx *c)
{
    if (!c->fail_frames)
        return;
    struct fail_list *l = &rs->fails;
    struct fail_hit all[2 * CLI_FAIL_LIST];
    g_mutex_lock(&rs->merge_lock);
    memcpy(all, l->first, l->n * sizeof all[0]);
    memcpy(all + l->n, c->fail, c->nfail * sizeof all[0]);
    qsort(all, l->n + c->nfail, sizeof all[0], fail_cmp);
    l->n = MIN(l->n + c->nfail, CLI_FAIL_LIST);
    memcpy(l->first, all, l->n * sizeof all[0]);
    l->frames += c->fail_frames;
    l->files++;
    g_mutex_unlock(&rs->merge_lock);
}

/* An input that was not read: its error (an argument that could not be
 * expanded), or nothing (a stop came first); in its place in the order */
static void job_not_read(struct run_shared *rs, struct job *j)
{
    struct file_ctx *c = file_ctx_new(rs, j);
    if (j->error)
        report_file_error(c, 0, j->error);
    wb_flush(&c->out);
    struct cli_stats none;
    memset(&none, 0, sizeof none);
    sink_job_done(rs->sink, j, &none, &rs->run[0].st);
    file_ctx_free(c);
}

void run_job(struct run_shared *rs, struct job *j)
{
    bool budget_spent = rs->o->count && atomic_load(&rs->budget) <= 0;   /* -c N reached */
    if (j->error || cli_stopping() || budget_spent) {
        j->skipped = !j->error;
        job_not_read(rs, j);
        return;
    }
    struct file_ctx *c = file_ctx_new(rs, j);
    char *rbuf = g_malloc(CLI_READ_BUF);
    bool ok = false;
    bool is_stdin = !strcmp(j->path, "-");
    FILE *fp = is_stdin ? stdin : fopen(j->path, "rb");
    if (!fp) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open: %s", g_strerror(errno));
        report_file_error(c, 0, msg);
    } else {
        struct blk blk;
        struct rdr rd;
        j->opened = open_capture(c, fp, is_stdin, rbuf, &blk, &rd);
        if (j->opened)
            ok = analyse_file(c, &rd, &blk);
        if (!is_stdin)
            fclose(fp);
    }
    /* --baseline: its frames this run did not see, when it read them all */
    if (j->opened && ok && !c->gated && !cli_stopping())
        baseline_file_end(c);
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_finish(rs, &c->rf[i], j->index, ok);
    fails_merge(rs, c);
    if (c->flows) {                /* its flows written out, the worst into the run's */
        flow_table_finish(c->flows);
        g_mutex_lock(&rs->merge_lock);
        flow_table_merge(&rs->run[0].flows, c->flows, rs->o->flows);
        g_mutex_unlock(&rs->merge_lock);
    }
    j->failed = !ok;
    j->frames = c->rf[0].st.frames;
    j->findings = c->rf[0].st.action_any;
    j->drops = c->rf[0].st.kverdict[CSC_K_DROP];
    wb_flush(&c->out);
    if (c->rec.p)
        wb_flush(&c->rec);
    sink_job_done(rs->sink, j, &c->rf[0].st, &rs->run[0].st);
    file_ctx_free(c);
    g_free(rbuf);
}
