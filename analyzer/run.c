/*
 * run.c - one capture file: libpcap -> per configuration ([csc_rewrite()]
 * csc_analyze_cached()) -> csc_frag_feed() -> counters -> the GRO engine ->
 * renderers, -w selection. This is the hot path: nothing is allocated per
 * frame, nothing goes through stdio per frame.
 *
 * Two ways through a file, with byte-identical output:
 *  - in one thread (--threads 1, --compare with per-frame output): each
 *    frame read is analysed, accounted, fed to the GRO engine and rendered
 *    in turn (frame_full());
 *  - the pipeline (default with 2 CPUs or more): the file's thread reads
 *    frames into batches (a bounded arena of copied frames); worker threads
 *    (a pool shared by all files, each with its own replay cache) analyse
 *    the frames of a batch, count them into the batch's counters, prepare
 *    their GRO input (csc_gro_prepare: the flow hashes) and render their
 *    output into the batch's buffer with a hole for the GRO fate; the
 *    file's thread then takes the batches back in capture order and does
 *    what depends on the order: the GRO engine (csc_gro_feed_input), the
 *    fates in the output, -w, and the rare frames with an IP fragment,
 *    which it analyses itself in order (csc_frag_feed is capture-ordered).
 *    At most PIPE_DEPTH batches per file are in flight, so memory stays
 *    bounded whatever the file size.
 */
#include "cli.h"

#include <errno.h>
#include <stddef.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>

#define RW_BUF 262144u               /* a rewritten frame (libpcap's largest snaplen) */
#define PIPE_ARENA (256u * 1024u)    /* frame bytes per batch (a bigger frame gets its own) */
#define PIPE_OUT0 (16u * 1024u)      /* a batch's output buffer (text), grown as needed */

/* What one configuration (struct cli_run) keeps per file, in capture
 * order: the frag table, the GRO engine (allocated per file: about
 * 130 KiB), the result of the current frame and the counters, merged into
 * the run's totals at the end of the file. */
struct run_file {
    const struct cli_run *run;
    struct csc_frag_table frag;
    struct csc_rcache rcache;     /* memoised replay of all-good frames */
    struct csc_result r;
    struct cli_stats st;
    struct csc_gro *gro;
    struct csc_gro_input gin;     /* the current frame's GRO input */
    struct csc_gro_memo memo[CSC_MAX_DEVS];
    struct csc_gro_decision gd;   /* the current frame's fates */
    struct cli_flow_id *fid;      /* per slot of gro->flow: what names the flow */
    uint64_t tcp_flows, other_frames;
    uint8_t *rwbuf;               /* the rewritten frame (run->rewrite) */
    struct csc_result *base;      /* the original frame's analysis, for csc_rewrite */
    struct csc_result *dec;       /* decode-only scratch (flow names in the pipeline) */
};

struct batch;

/* What the workers read of a file: set when the file starts, read-only
 * afterwards (they take a copy per batch, so no cache line they read per
 * frame is one the file's thread writes). */
struct file_view {
    const struct cli_run *runs;
    unsigned nruns;
    uint8_t link;
    bool json, csv, text_v, steps, cmp;
    int verbose;
    const char *json_file, *csv_file, *text_file, *kernel_prefix;
};

/* Per-file state */
struct file_ctx {
    struct run_file rf[CLI_MAX_RUNS];
    struct file_view fv;
    unsigned nruns;
    struct wbuf out, rec;
    struct run_shared *rs;
    struct job *job;
    char *json_file, *csv_file, *text_file;
    uint8_t link;
    bool json, csv, text_v, steps, cmp, want_rec;
    /* the pipeline */
    struct batch **ring;
    unsigned depth;
    GMutex lock;
    GCond cond;
};

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

static uint32_t account_frame(struct cli_stats *st, const struct csc_result *r,
                              const struct csc_frame *f0)
{
    uint32_t m = account(st, r);
    st->frames++;
    st->cap_bytes += f0->caplen;
    st->wire_bytes += f0->wirelen;
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

/* ---- flows: what names the flow a frame opened at one device ---------- */

static void endpoint_of(struct cli_endpoint *e, const struct csc_frame *f,
                        const struct csc_layer *ip, const struct csc_layer *l4)
{
    uint32_t cap = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    memset(e, 0, sizeof *e);
    if (ip->proto == CSC_P_IPV4 && ip->off + 20 <= cap) {
        e->family = 4;
        memcpy(e->src, f->data + ip->off + 12, 4);
        memcpy(e->dst, f->data + ip->off + 16, 4);
    } else if (ip->proto == CSC_P_IPV6 && ip->off + 40 <= cap) {
        e->family = 6;
        memcpy(e->src, f->data + ip->off + 8, 16);
        memcpy(e->dst, f->data + ip->off + 24, 16);
    }
    if (l4) {
        e->l4 = l4->proto;
        e->sport = l4->sport;
        e->dport = l4->dport;
    }
}

static bool is_tunnel(uint8_t p)
{
    switch (p) {
    case CSC_P_VXLAN: case CSC_P_VXLAN_GPE: case CSC_P_GENEVE: case CSC_P_GUE: case CSC_P_FOU:
    case CSC_P_GRE: case CSC_P_L2TP: case CSC_P_GTP: case CSC_P_TEREDO: case CSC_P_AYIYA:
        return true;
    default:
        return false;
    }
}

/* Only on a frame that opens a TCP flow (a new entry in the engine's table). */
static void flow_id_of(struct cli_flow_id *id, const struct csc_frame *f, const struct csc_result *r,
                       unsigned l0, uint64_t frame)
{
    const struct csc_layer *ips[2] = { NULL, NULL }, *l4s[2] = { NULL, NULL };
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    memset(id, 0, sizeof *id);
    id->first_frame = frame;
    id->tcp = 1;
    for (unsigned i = l0; i < n; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_QUOTED)
            break;
        if (l->proto == CSC_P_IPV4 || l->proto == CSC_P_IPV6) {
            if (!ips[0])
                ips[0] = l;
            ips[1] = l;
            l4s[1] = NULL;
        } else if ((l->proto == CSC_P_UDP || l->proto == CSC_P_TCP) && ips[1] && !l4s[1]) {
            l4s[1] = l;
            if (ips[1] == ips[0])
                l4s[0] = l;
        } else if (is_tunnel(l->proto) && !id->tunnel) {
            id->tunnel = l->proto;
            id->tunnel_id = l->key;
        }
    }
    if (ips[0])
        endpoint_of(&id->outer, f, ips[0], l4s[0]);
    if (ips[1] && ips[1] != ips[0])
        endpoint_of(&id->inner, f, ips[1], l4s[1]);
}

/* ---- one frame ------------------------------------------------------------ */

/* The frame under one configuration: rewritten first when the run says so
 * (into *rw, over rwbuf), analysed into r. Returns the frame analysed. */
static const struct csc_frame *analyse_result(const struct cli_run *run, struct csc_rcache *rc,
                                              struct csc_result *r, struct csc_result *base,
                                              uint8_t *rwbuf, const struct csc_frame *f0,
                                              struct csc_frame *rw)
{
    const struct csc_frame *fa = f0;
    if (run->rewrite) {   /* what-if: rewrite the frame, then replay the result */
        csc_analyze_cached(&run->cfg, f0, base, rc);
        rw->data = rwbuf;
        rw->caplen = (uint32_t)csc_rewrite(f0, base, run->rewrite, rwbuf, RW_BUF);
        rw->wirelen = f0->wirelen;
        rw->link = f0->link;
        rw->direction = f0->direction;
        fa = rw;
    }
    csc_analyze_cached(&run->cfg, fa, r, rc);
    return fa;
}

/* csc_frag_feed() does something only with an IP fragment (not quoted) */
static bool needs_order(const struct csc_result *r)
{
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    for (unsigned i = 0; i < n; i++) {
        const struct csc_layer *l = &r->layers[i];
        if ((l->proto == CSC_P_IPV4 || l->proto == CSC_P_IPV6) && (l->notes & CSC_N_FRAGMENT) &&
            !(l->notes & CSC_N_QUOTED))
            return true;
    }
    return false;
}

/* The GRO engine, in capture order. A TCP flow seen for the first time is
 * named from the frame's layers: r, or (r NULL, the pipeline) a decode of
 * the frame. */
static void gro_feed(struct run_file *rf, const struct csc_gro_input *in, const struct csc_frame *fa,
                     const struct csc_result *r, uint64_t n, uint64_t ts_us)
{
    csc_gro_feed_input(rf->gro, in, n, ts_us, &rf->gd);
    for (unsigned i = 0; i < rf->gd.n; i++) {
        const struct csc_gro_fate *fa_ = &rf->gd.fate[i];
        if (fa_->flow >= CSC_GRO_FLOWS || rf->gro->flow[fa_->flow].frames_in != 1)
            continue;
        struct cli_flow_id *id = &rf->fid[fa_->flow];
        if (!in->dev[i].tcp) {
            memset(id, 0, sizeof *id);
            rf->other_frames++;
            continue;
        }
        if (!r) {
            if (!rf->dec)
                rf->dec = g_malloc(sizeof *rf->dec);
            csc_decode(&rf->run->cfg, fa, rf->dec);
            r = rf->dec;
        }
        flow_id_of(id, fa, r, in->dev[i].layer, n);
        rf->tcp_flows++;
    }
}

/* One frame under one configuration, all in order: the whole per-frame
 * analysis. Returns the frame's findings. */
static uint32_t frame_full(struct run_file *rf, const struct csc_frame *f0, uint64_t n,
                           uint64_t ts_us)
{
    struct csc_frame rw;
    const struct csc_frame *fa =
        analyse_result(rf->run, &rf->rcache, &rf->r, rf->base, rf->rwbuf, f0, &rw);
    csc_frag_feed(&rf->frag, fa, &rf->r, n);
    uint32_t m = account_frame(&rf->st, &rf->r, f0);
    csc_gro_prepare(fa, &rf->r, rf->memo, &rf->gin);
    gro_feed(rf, &rf->gin, fa, &rf->r, n, ts_us);
    return m;
}

/* Has the frame's outcome changed between the runs (--compare)? */
static bool outcome_differs(const struct run_file *a, const struct run_file *b, uint32_t ma,
                            uint32_t mb)
{
    const struct csc_kernel *x = &a->r.kernel, *y = &b->r.kernel;
    if (ma != mb || x->ran != y->ran)
        return true;
    if (x->ran && (x->verdict != y->verdict || x->counters != y->counters ||
                   x->sw_passes != y->sw_passes || x->sw_bytes != y->sw_bytes ||
                   (x->verdict == CSC_K_DROP && x->drop_reason != y->drop_reason)))
        return true;
    if (a->gd.n != b->gd.n)
        return true;
    for (unsigned i = 0; i < a->gd.n; i++) {
        const struct csc_gro_fate *p = &a->gd.fate[i], *q = &b->gd.fate[i];
        if (p->kind != q->kind || p->held != q->held || p->merged != q->merged ||
            p->super != q->super || (!p->held && p->alone_reason != q->alone_reason))
            return true;
    }
    return false;
}

static uint64_t ts_usec(const struct pcap_pkthdr *h)
{
    /* the file is opened with nanosecond precision: tv_usec holds ns */
    return (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec / 1000u;
}

/* Output of one frame of a single run, before / after its GRO fate */
static bool render_start(const struct file_view *fv, struct wbuf *w, const struct frame_view *v)
{
    if (fv->json)
        render_json_frame_start(w, v, fv->steps);
    else if (fv->csv)
        render_csv_frame(w, v);
    else if (fv->text_v && v->findings)
        render_text_frame_start(w, v);
    else
        return false;
    return true;
}

static void render_fate(const struct file_view *fv, struct wbuf *w,
                        const struct csc_gro_decision *gd)
{
    if (fv->json)
        render_json_frame_end(w, gd);
    else if (fv->text_v)
        render_text_frame_fate(w, gd);
}

static void render_end(const struct file_view *fv, struct wbuf *w, const struct frame_view *v)
{
    if (fv->text_v && !fv->json && !fv->csv)
        render_text_frame_end(w, v, fv->verbose);
}

/* Everything after the analysis that every frame needs, in order */
static void frame_done(struct file_ctx *c, uint32_t mall, const struct pcap_pkthdr *h,
                       const uint8_t *data)
{
    const struct cli_opts *o = c->rs->o;
    if (mall & o->fail_on)
        atomic_store_explicit(&c->rs->fail_hit, true, memory_order_relaxed);
    if (c->want_rec && (mall & o->select)) {
        put_record(c, h, data);
        c->rf[0].st.selected++;
    }
}

/* One frame read, all in this thread */
static void frame_in_order(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
                           uint64_t n)
{
    struct csc_frame f = { data, h->caplen, h->len, c->link, CSC_DIR_UNKNOWN };
    uint64_t ts_us = ts_usec(h);
    uint32_t m = frame_full(&c->rf[0], &f, n, ts_us), mall = m, mb = 0;
    if (c->cmp) {
        mb = frame_full(&c->rf[1], &f, n, ts_us);
        mall |= mb;
    }
    frame_done(c, mall, h, data);
    struct frame_view v = { c->json_file, c->csv_file, c->text_file,
                            c->rs->run[0].json_kernel_prefix, n, h, &c->rf[0].r, &c->rf[0].gd,
                            m };
    if (c->cmp) {
        if ((c->json || c->text_v) && outcome_differs(&c->rf[0], &c->rf[1], m, mb)) {
            const struct csc_result *rr[CLI_MAX_RUNS] = { &c->rf[0].r, &c->rf[1].r };
            const struct csc_gro_decision *gg[CLI_MAX_RUNS] = { &c->rf[0].gd, &c->rf[1].gd };
            if (c->json)
                render_json_frame_diff(&c->out, &v, c->rs->run, rr, gg, c->nruns);
            else
                render_text_frame_diff(&c->out, &v, c->rs->run, rr, gg, c->nruns);
        }
        return;
    }
    if (render_start(&c->fv, &c->out, &v)) {
        render_fate(&c->fv, &c->out, &c->rf[0].gd);
        render_end(&c->fv, &c->out, &v);
    }
}

/* ---- the pipeline ----------------------------------------------------------- */

struct pmeta {
    int64_t sec;
    uint32_t nsec, off, caplen, len;
    uint32_t m[CLI_MAX_RUNS];     /* findings (worker) */
    uint32_t goff[CLI_MAX_RUNS];  /* the GRO input in gbuf (worker) */
    uint32_t o1, o2, o3;          /* output [o1, o2) before the fate, [o2, o3) after */
    uint8_t order;                /* an IP fragment: the file's thread analyses it */
    uint8_t out;                  /* has output */
};

struct batch {
    struct file_ctx *c;
    uint64_t first;               /* frame number of frame 0 */
    unsigned n, max;
    uint8_t *arena;
    size_t alen, acap;
    struct pmeta *meta;
    uint8_t *gbuf[CLI_MAX_RUNS];  /* GRO inputs, packed: the devices a frame has */
    size_t glen[CLI_MAX_RUNS];
    struct cli_stats st[CLI_MAX_RUNS];
    char *out;
    size_t olen, ocap;
    bool done;                    /* under c->lock */
};

/* Worker state: one per pool thread (and one for the file threads that help) */
struct worker {
    struct csc_gro_input gin;
    struct csc_rcache rc[CLI_MAX_RUNS];
    struct csc_result r[CLI_MAX_RUNS];
    struct csc_result base;
    struct csc_gro_memo memo[CLI_MAX_RUNS][CSC_MAX_DEVS];
    uint8_t *rwbuf[CLI_MAX_RUNS];
    char scratch[PIPE_OUT0];
};

struct pool {
    GAsyncQueue *q;
    GThread **t;
    unsigned n;
};

static struct pool *the_pool;
static GPrivate worker_key = G_PRIVATE_INIT(NULL);

static struct worker *worker_new(void)
{
    struct worker *w = g_malloc0(sizeof *w);
    for (unsigned i = 0; i < CLI_MAX_RUNS; i++)
        csc_rcache_init(&w->rc[i]);
    return w;
}

static struct worker *worker_get(void)
{
    struct worker *w = g_private_get(&worker_key);
    if (!w) {
        w = worker_new();
        g_private_set(&worker_key, w);
    }
    return w;
}

static void worker_free(struct worker *w)
{
    if (!w)
        return;
    for (unsigned i = 0; i < CLI_MAX_RUNS; i++)
        g_free(w->rwbuf[i]);
    g_free(w);
}

/* a GRO input without its unused device entries */
static size_t gin_size(const struct csc_gro_input *in)
{
    return offsetof(struct csc_gro_input, dev) + in->ndevs * sizeof in->dev[0];
}

/* the batch's output: a wbuf over the worker's scratch, flushed into the
 * batch's growing buffer */
static void flush_batch(struct wbuf *w)
{
    struct batch *b = w->ctx;
    if (b->olen + w->len > b->ocap) {
        while (b->olen + w->len > b->ocap)
            b->ocap *= 2;
        b->out = g_realloc(b->out, b->ocap);
    }
    memcpy(b->out + b->olen, w->p, w->len);
    b->olen += w->len;
}

static void analyse_batch(struct batch *b, struct worker *wk)
{
    struct file_ctx *c = b->c;
    const struct file_view fv = c->fv;   /* a private copy, see struct file_view */
    struct wbuf w = { wk->scratch, 0, sizeof wk->scratch, flush_batch, b };
    b->olen = 0;
    for (unsigned r = 0; r < fv.nruns; r++) {
        memset(&b->st[r], 0, sizeof b->st[r]);
        b->glen[r] = 0;
    }
    for (unsigned i = 0; i < b->n; i++) {
        struct pmeta *pm = &b->meta[i];
        struct csc_frame f;
        f.data = b->arena + pm->off;
        f.caplen = pm->caplen;
        f.wirelen = pm->len;
        f.link = fv.link;
        f.direction = CSC_DIR_UNKNOWN;
        struct csc_frame rw[CLI_MAX_RUNS];
        const struct csc_frame *fa[CLI_MAX_RUNS];
        pm->order = 0;
        pm->out = 0;
        for (unsigned r = 0; r < fv.nruns; r++) {
            if (fv.runs[r].rewrite && !wk->rwbuf[r])
                wk->rwbuf[r] = g_malloc(RW_BUF);
            fa[r] = analyse_result(&fv.runs[r], &wk->rc[r], &wk->r[r], &wk->base, wk->rwbuf[r],
                                   &f, &rw[r]);
            if (needs_order(&wk->r[r]))
                pm->order = 1;
        }
        if (pm->order)
            continue;
        for (unsigned r = 0; r < fv.nruns; r++) {
            pm->m[r] = account_frame(&b->st[r], &wk->r[r], &f);
            csc_gro_prepare(fa[r], &wk->r[r], wk->memo[r], &wk->gin);
            size_t sz = gin_size(&wk->gin);
            memcpy(b->gbuf[r] + b->glen[r], &wk->gin, sz);
            pm->goff[r] = (uint32_t)b->glen[r];
            b->glen[r] += (sz + 7) & ~(size_t)7;
        }
        if (fv.cmp || !(fv.json || fv.csv || (fv.text_v && pm->m[0])))
            continue;   /* nothing to render (--compare renders no frame here) */
        struct pcap_pkthdr h;
        memset(&h, 0, sizeof h);
        h.ts.tv_sec = (time_t)pm->sec;
        h.ts.tv_usec = (suseconds_t)pm->nsec;
        h.caplen = pm->caplen;
        h.len = pm->len;
        struct frame_view v = { fv.json_file, fv.csv_file, fv.text_file, fv.kernel_prefix,
                                b->first + i, &h, &wk->r[0], NULL, pm->m[0] };
        pm->o1 = (uint32_t)(b->olen + w.len);
        if (render_start(&fv, &w, &v)) {
            pm->out = 1;
            pm->o2 = (uint32_t)(b->olen + w.len);
            render_end(&fv, &w, &v);
            pm->o3 = (uint32_t)(b->olen + w.len);
        }
    }
    wb_flush(&w);
    g_mutex_lock(&c->lock);
    b->done = true;
    g_cond_broadcast(&c->cond);
    g_mutex_unlock(&c->lock);
}

static gpointer pool_thread(gpointer data)
{
    struct pool *p = data;
    for (;;) {
        struct batch *b = g_async_queue_pop(p->q);
        if (b == (struct batch *)p)   /* the stop marker */
            break;
        analyse_batch(b, worker_get());
    }
    worker_free(g_private_get(&worker_key));
    g_private_set(&worker_key, NULL);
    return NULL;
}

void pipeline_start(unsigned threads)
{
    if (threads < 2)
        return;
    struct pool *p = g_new0(struct pool, 1);
    p->q = g_async_queue_new();
    p->n = threads;
    p->t = g_new0(GThread *, threads);
    for (unsigned i = 0; i < threads; i++)
        p->t[i] = g_thread_new("csumcheck-worker", pool_thread, p);
    the_pool = p;
}

void pipeline_stop(void)
{
    struct pool *p = the_pool;
    if (!p)
        return;
    for (unsigned i = 0; i < p->n; i++)
        g_async_queue_push(p->q, p);
    for (unsigned i = 0; i < p->n; i++)
        g_thread_join(p->t[i]);
    g_async_queue_unref(p->q);
    g_free(p->t);
    g_free(p);
    the_pool = NULL;
}

static struct batch *batch_new(struct file_ctx *c, unsigned max)
{
    struct batch *b = g_new0(struct batch, 1);
    b->c = c;
    b->max = max;
    b->acap = PIPE_ARENA;
    b->arena = g_malloc(b->acap);
    b->meta = g_new(struct pmeta, max);
    for (unsigned r = 0; r < c->nruns; r++)   /* untouched pages stay unmapped */
        b->gbuf[r] = g_malloc((size_t)max * ((sizeof(struct csc_gro_input) + 7) & ~(size_t)7));
    /* sized for the batch's output up front (growing it would churn the heap) */
    b->ocap = c->steps || (c->text_v && c->rs->o->verbose > 1) ? 256u * 1024u
              : c->json || c->csv                               ? 256u * 1024u
                                                                : PIPE_OUT0;
    b->out = g_malloc(b->ocap);
    return b;
}

static void batch_free(struct batch *b)
{
    if (!b)
        return;
    g_free(b->arena);
    g_free(b->meta);
    for (unsigned r = 0; r < CLI_MAX_RUNS; r++)
        g_free(b->gbuf[r]);
    g_free(b->out);
    g_free(b);
}

/* The file's thread takes a finished batch back, in capture order */
static void sequence_batch(struct file_ctx *c, struct batch *b)
{
    for (unsigned r = 0; r < c->nruns; r++)
        cli_stats_merge(&c->rf[r].st, &b->st[r]);
    for (unsigned i = 0; i < b->n; i++) {
        const struct pmeta *pm = &b->meta[i];
        uint64_t n = b->first + i;
        struct pcap_pkthdr h;
        memset(&h, 0, sizeof h);
        h.ts.tv_sec = (time_t)pm->sec;
        h.ts.tv_usec = (suseconds_t)pm->nsec;
        h.caplen = pm->caplen;
        h.len = pm->len;
        const uint8_t *data = b->arena + pm->off;
        if (pm->order) {
            frame_in_order(c, &h, data, n);
            continue;
        }
        struct csc_frame f = { data, pm->caplen, pm->len, c->link, CSC_DIR_UNKNOWN };
        uint64_t ts_us = ts_usec(&h);
        uint32_t mall = 0;
        for (unsigned r = 0; r < c->nruns; r++) {
            struct run_file *rf = &c->rf[r];
            /* a new TCP flow is named from a decode of the frame as captured: a
             * rewrite changes checksum fields only, not what names a flow */
            struct csc_gro_input in;
            const uint8_t *g = b->gbuf[r] + pm->goff[r];
            memcpy(&in, g, offsetof(struct csc_gro_input, dev));
            memcpy(in.dev, g + offsetof(struct csc_gro_input, dev), in.ndevs * sizeof in.dev[0]);
            gro_feed(rf, &in, &f, NULL, n, ts_us);
            mall |= pm->m[r];
        }
        frame_done(c, mall, &h, data);
        if (pm->out) {
            wb_write(&c->out, b->out + pm->o1, pm->o2 - pm->o1);
            render_fate(&c->fv, &c->out, &c->rf[0].gd);
            wb_write(&c->out, b->out + pm->o2, pm->o3 - pm->o2);
        }
    }
}

/* Analyse a batch in this thread while waiting for the head one */
static bool help(struct file_ctx *c)
{
    (void)c;
    struct batch *b = g_async_queue_try_pop(the_pool->q);
    if (!b)
        return false;
    if (b == (struct batch *)the_pool) {   /* a stop marker: put it back */
        g_async_queue_push(the_pool->q, b);
        return false;
    }
    static GPrivate helper_key = G_PRIVATE_INIT((GDestroyNotify)worker_free);
    struct worker *w = g_private_get(&helper_key);
    if (!w) {
        w = worker_new();
        g_private_set(&helper_key, w);
    }
    analyse_batch(b, w);
    return true;
}

/* Wait for the head batch (helping meanwhile), then sequence it */
static void take_head(struct file_ctx *c, struct batch *b)
{
    for (;;) {
        g_mutex_lock(&c->lock);
        bool done = b->done;
        g_mutex_unlock(&c->lock);
        if (done)
            break;
        if (help(c))
            continue;
        g_mutex_lock(&c->lock);
        while (!b->done)
            g_cond_wait(&c->cond, &c->lock);
        g_mutex_unlock(&c->lock);
        break;
    }
    sequence_batch(c, b);
}

/* Frames per batch: enough to make the hand-over cheap, few enough that the
 * batches in flight stay small when every frame is rendered (a JSON object
 * is about 2 KiB, 10 KiB with the trace). */
static unsigned batch_frames(const struct file_ctx *c)
{
    if (c->steps || (c->text_v && c->rs->o->verbose > 1))
        return 16;
    if (c->json || c->csv || c->text_v)
        return 64;
    return 1024;
}

/* ---- the frame loop ------------------------------------------------------------ */

static void read_error(struct file_ctx *c, pcap_t *p, uint64_t n)
{
    const char *e = pcap_geterr(p);
    char msg[PCAP_ERRBUF_SIZE + 160];
    if (n)
        snprintf(msg, sizeof msg, "damaged after frame %ju (%s); frames 1-%ju were analysed",
                 (uintmax_t)n, e, (uintmax_t)n);
    else
        snprintf(msg, sizeof msg, "cannot read the first frame (%s)", e);
    sink_error(c->rs->sink, "%s: %s", c->job->path, msg);
    if (c->json)
        render_json_error(&c->out, c->json_file, n + 1, msg);
}

static bool use_pipeline(const struct file_ctx *c)
{
    /* --compare renders frames from both results at once: in one thread */
    return the_pool && !(c->cmp && (c->json || c->text_v));
}

/* Returns false when the file could not be read to its end. */
static bool analyse_file(struct file_ctx *c, pcap_t *p)
{
    struct job *j = c->job;
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t n = 0, bytes = 0;
    int rc;

    if (c->link == CSC_LINK_UNKNOWN) {
        const char *name = pcap_datalink_val_to_name(j->linktype);
        sink_warning(c->rs->sink, "%s: link type %d%s%s%s is not decoded: its frames stop at "
                     "unknown-link", j->path, j->linktype, name ? " (" : "", name ? name : "",
                     name ? ")" : "");
    }
    if (!use_pipeline(c)) {
        while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
            frame_in_order(c, h, data, ++n);
            bytes += h->caplen + 16u;
            if ((n & 1023) == 0)
                atomic_store_explicit(&j->done_bytes, bytes, memory_order_relaxed);
        }
        if (rc == -1) {
            read_error(c, p, n);
            return false;
        }
        return true;
    }

    /* the pipeline: read batches, hand them to the workers, take them back in order */
    c->depth = 2 * the_pool->n + 2;
    c->ring = g_new0(struct batch *, c->depth);
    unsigned max = batch_frames(c);
    uint64_t nread = 0, nseq = 0;   /* batches read / sequenced */
    struct pcap_pkthdr *carry = NULL;   /* a frame that did not fit in the last batch */
    const u_char *carry_data = NULL;    /* (libpcap keeps it until the next read) */
    rc = 1;
    while (rc == 1 || carry || nseq < nread) {
        if ((rc == 1 || carry) && nread - nseq < c->depth) {
            unsigned slot = (unsigned)(nread % c->depth);
            struct batch *b = c->ring[slot];
            if (!b)
                b = c->ring[slot] = batch_new(c, max);
            b->n = 0;
            b->alen = 0;
            b->done = false;
            b->first = n + 1;
            while (b->n < b->max) {
                if (carry) {
                    h = carry;
                    data = carry_data;
                    carry = NULL;
                } else if (rc != 1 || (rc = pcap_next_ex(p, &h, &data)) != 1) {
                    break;
                }
                if (h->caplen > b->acap - b->alen) {
                    if (b->n) {
                        carry = h;
                        carry_data = data;
                        break;
                    }
                    b->acap = h->caplen;   /* a frame bigger than the arena: a batch of its own */
                    b->arena = g_realloc(b->arena, b->acap);
                }
                struct pmeta *pm = &b->meta[b->n++];
                pm->sec = (int64_t)h->ts.tv_sec;
                pm->nsec = (uint32_t)h->ts.tv_usec;
                pm->off = (uint32_t)b->alen;
                pm->caplen = h->caplen;
                pm->len = h->len;
                memcpy(b->arena + b->alen, data, h->caplen);
                b->alen += h->caplen;
                n++;
                bytes += h->caplen + 16u;
            }
            if (b->n) {
                nread++;
                g_async_queue_push(the_pool->q, b);
                atomic_store_explicit(&j->done_bytes, bytes, memory_order_relaxed);
            }
            continue;
        }
        take_head(c, c->ring[nseq % c->depth]);
        nseq++;
    }
    for (unsigned i = 0; i < c->depth; i++)
        batch_free(c->ring[i]);
    g_free(c->ring);
    c->ring = NULL;
    if (rc == -1) {
        read_error(c, p, n);
        return false;
    }
    return true;
}

/* ---- per file: GRO totals ---------------------------------------------------- */

static int flow_cmp(const void *pa, const void *pb)
{
    const struct cli_gro_flow *a = pa, *b = pb;
    if (a->frames_in != b->frames_in)
        return a->frames_in > b->frames_in ? -1 : 1;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->id.first_frame != b->id.first_frame)
        return a->id.first_frame < b->id.first_frame ? -1 : 1;
    return (int)a->depth - (int)b->depth;
}

void gro_totals_init(struct cli_gro_totals *t)
{
    memset(t, 0, sizeof *t);
    t->top = g_new0(struct cli_gro_flow, CLI_TOP_FLOWS_MAX);
}

void gro_totals_free(struct cli_gro_totals *t)
{
    g_free(t->top);
    t->top = NULL;
}

static struct cli_gro_dev *dev_slot(struct cli_gro_totals *t, uint8_t kind, uint8_t depth)
{
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++) {
        struct cli_gro_dev *d = &t->dev[i];
        if (d->used && d->kind == kind && d->depth == depth)
            return d;
        if (!d->used) {
            d->used = 1;
            d->kind = kind;
            d->depth = depth;
            return d;
        }
    }
    return NULL;
}

static void dev_add(struct cli_gro_dev *d, const struct cli_gro_dev *s)
{
    d->frames_in += s->frames_in;
    d->packets_out += s->packets_out;
    d->merged_frames += s->merged_frames;
    d->alone += s->alone;
    for (unsigned g = 0; g < CSC_G__COUNT; g++)
        d->refused[g] += s->refused[g];
    for (unsigned g = 0; g < CSC_GF__COUNT; g++)
        d->flushes[g] += s->flushes[g];
}

void gro_totals_merge(struct cli_gro_totals *into, const struct cli_gro_totals *t, unsigned top)
{
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++) {
        if (!t->dev[i].used)
            continue;
        struct cli_gro_dev *d = dev_slot(into, t->dev[i].kind, t->dev[i].depth);
        if (d)
            dev_add(d, &t->dev[i]);
    }
    into->frames += t->frames;
    into->passes_single += t->passes_single;
    into->bytes_single += t->bytes_single;
    into->passes_merged += t->passes_merged;
    into->bytes_merged += t->bytes_merged;
    into->tcp_flows += t->tcp_flows;
    into->other_frames += t->other_frames;
    into->flows_evicted += t->flows_evicted;
    /* top flows: best of both lists (a total order, so the merge order of
     * the files does not matter) */
    unsigned n = into->ntop + t->ntop;
    struct cli_gro_flow *all = g_new(struct cli_gro_flow, n ? n : 1);
    memcpy(all, into->top, into->ntop * sizeof *all);
    memcpy(all + into->ntop, t->top, t->ntop * sizeof *all);
    qsort(all, n, sizeof *all, flow_cmp);
    into->ntop = n < top ? n : top;
    memcpy(into->top, all, into->ntop * sizeof *all);
    g_free(all);
}

static void file_gro_totals(const struct run_file *rf, unsigned file, unsigned top,
                            struct cli_gro_totals *t)
{
    const struct csc_gro *g = rf->gro;
    for (unsigned i = 0; i < CSC_GRO_DEVS; i++) {
        const struct csc_gro_dev_stats *s = &g->dev[i];
        if (!s->used)
            continue;
        struct cli_gro_dev *d = dev_slot(t, s->kind, s->depth);
        if (!d)
            continue;
        struct cli_gro_dev x = { 1, s->kind, s->depth, s->frames_in, s->packets_out,
                                 s->merged_frames, s->alone, { 0 }, { 0 } };
        memcpy(x.refused, s->refused, sizeof x.refused);
        memcpy(x.flushes, s->flushes, sizeof x.flushes);
        dev_add(d, &x);
    }
    t->frames = g->frames;
    t->passes_single = g->passes_single;
    t->bytes_single = g->bytes_single;
    t->passes_merged = g->passes_merged;
    t->bytes_merged = g->bytes_merged;
    t->tcp_flows = rf->tcp_flows;
    t->other_frames = rf->other_frames;
    t->flows_evicted = g->flows_evicted;
    t->ntop = 0;
    for (unsigned i = 0; i < CSC_GRO_FLOWS && top; i++) {
        const struct csc_gro_flow_stats *fs = &g->flow[i];
        if (!fs->used || !rf->fid[i].tcp || fs->dev >= CSC_GRO_DEVS)
            continue;
        struct cli_gro_flow *fl = &t->top[t->ntop++];
        fl->file = file;
        fl->kind = g->dev[fs->dev].kind;
        fl->depth = g->dev[fs->dev].depth;
        fl->id = rf->fid[i];
        fl->frames_in = fs->frames_in;
        fl->packets_out = fs->packets_out;
        fl->merged_frames = fs->merged_frames;
        memcpy(fl->flushes, fs->flushes, sizeof fl->flushes);
    }
    qsort(t->top, t->ntop, sizeof *t->top, flow_cmp);
    if (t->ntop > top)
        t->ntop = top;
}

static void run_file_init(struct run_file *rf, const struct cli_run *run)
{
    rf->run = run;
    rf->st.files = 1;
    csc_frag_init(&rf->frag);
    csc_rcache_init(&rf->rcache);
    rf->gro = g_malloc(sizeof *rf->gro);
    csc_gro_init(rf->gro, &run->gro_cfg);
    rf->fid = g_new0(struct cli_flow_id, CSC_GRO_FLOWS);
    if (run->rewrite) {
        rf->rwbuf = g_malloc(RW_BUF);
        rf->base = g_malloc(sizeof *rf->base);
    }
}

static void run_file_free(struct run_file *rf)
{
    g_free(rf->gro);
    g_free(rf->fid);
    g_free(rf->rwbuf);
    g_free(rf->base);
    g_free(rf->dec);
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
    file_gro_totals(rf, file, rs->o->top_flows, &t);
    struct cli_run *run = &rs->run[rf->run->index];
    g_mutex_lock(&rs->merge_lock);
    gro_totals_merge(&run->gro, &t, rs->o->top_flows);
    if (rf->run->index > 0)
        cli_stats_merge(&run->st, &rf->st);
    g_mutex_unlock(&rs->merge_lock);
    gro_totals_free(&t);
}

void run_job(struct run_shared *rs, struct job *j)
{
    const struct cli_opts *o = rs->o;
    struct file_ctx *c = g_malloc0(sizeof *c);
    char *rbuf = g_malloc(CLI_READ_BUF);
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    bool ok = false;
    FILE *fp;
    bool is_stdin = !strcmp(j->path, "-");

    c->rs = rs;
    c->job = j;
    c->nruns = o->nruns;
    c->cmp = c->nruns > 1;
    c->json = o->format == FMT_JSON;
    c->csv = o->format == FMT_CSV && !c->cmp;
    c->text_v = o->format == FMT_TEXT && o->verbose > 0;
    c->steps = c->json && o->verbose > 0 && !c->cmp;
    c->want_rec = o->write_path != NULL;
    g_mutex_init(&c->lock);
    g_cond_init(&c->cond);
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_init(&c->rf[i], &rs->run[i]);
    c->out = (struct wbuf){ g_malloc(CLI_OUT_BUF), 0, CLI_OUT_BUF, flush_out, c };
    c->rec = (struct wbuf){ o->write_path ? g_malloc(CLI_REC_BUF) : NULL, 0,
                            o->write_path ? CLI_REC_BUF : 0, flush_rec, c };
    c->json_file = escaped(wb_json_str, j->path);
    c->csv_file = escaped(wb_csv_field, j->path);
    c->text_file = escaped(wb_text_name, j->path);
    c->fv = (struct file_view){ rs->run, c->nruns, 0, c->json, c->csv, c->text_v, c->steps, c->cmp,
                                o->verbose, c->json_file, c->csv_file, c->text_file,
                                rs->run[0].json_kernel_prefix };

    fp = is_stdin ? stdin : fopen(j->path, "rb");
    if (!fp) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open: %s", g_strerror(errno));
        sink_error(rs->sink, "%s: %s", j->path, msg);
        if (c->json)
            render_json_error(&c->out, c->json_file, 0, msg);
        goto done;
    }
    struct stat sb;
    bool empty = !is_stdin && fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0;
    setvbuf(fp, rbuf, _IOFBF, CLI_READ_BUF);
    /* Only this thread reads fp: no stdio lock per fread (libpcap makes two
     * per frame, and with worker threads glibc would lock each). */
    __fsetlocking(fp, FSETLOCKING_BYCALLER);
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!p) {
        const char *why = open_problem(errbuf, empty);
        char msg[PCAP_ERRBUF_SIZE + 64];
        snprintf(msg, sizeof msg, "%s", why ? why : errbuf);
        sink_error(rs->sink, "%s: %s", j->path, msg);
        if (c->json)
            render_json_error(&c->out, c->json_file, 0, msg);
        if (!is_stdin)
            fclose(fp);
        goto done;
    }
    j->linktype = pcap_datalink(p);
    c->link = (uint8_t)csc_link_from_linktype((uint32_t)j->linktype);
    c->fv.link = c->link;
    ok = analyse_file(c, p);
    pcap_close(p);   /* closes fp (stdin included) */

done:
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_finish(rs, &c->rf[i], j->index, ok);
    j->failed = !ok;
    wb_flush(&c->out);
    if (c->rec.p)
        wb_flush(&c->rec);
    sink_job_done(rs->sink, j, &c->rf[0].st, &rs->run[0].st);
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_free(&c->rf[i]);
    g_mutex_clear(&c->lock);
    g_cond_clear(&c->cond);
    g_free(c->out.p);
    g_free(c->rec.p);
    g_free(c->json_file);
    g_free(c->csv_file);
    g_free(c->text_file);
    g_free(c);
    g_free(rbuf);
}
