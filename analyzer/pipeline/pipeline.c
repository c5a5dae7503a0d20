/*
 * pipeline.c - one file over the worker threads (--threads, default with
 * 2 CPUs or more), with output byte-identical to run.c's frame loop: a
 * classic pcap is read in blocks by the threads that analyse them (read
 * tasks, one block at a time in file order; pcapblk.c), anything else is
 * read by the file's thread through libpcap into batches (a bounded arena
 * of copied frames); worker threads (a pool shared by all files, each with
 * its own replay cache) analyse the frames of a batch, count them into the batch's
 * counters, prepare their GRO input (csc_gro_prepare: the flow hashes) and
 * render their output into the batch's buffer with a hole for the GRO fate;
 * the file's thread then takes the batches back in capture order and does
 * what depends on the order: the GRO engine (csc_gro_feed_input), the fates
 * in the output, -w, and the rare frames with an IP fragment, which it
 * analyses itself in order (csc_frag_feed is capture-ordered). At most
 * 2 x workers + 2 batches per file are in flight, so memory stays bounded
 * whatever the file size.
 */
#include "pipeline.h"

#include "blk.h"
#include "frame.h"
#include "source.h"
#include "stop.h"
#include "wtr.h"

#include <stddef.h>
#include <string.h>

#define PIPE_ARENA (256u * 1024u)    /* frame bytes per batch (a bigger frame gets its own) */
#define PIPE_OUT0 (16u * 1024u)      /* a batch's output buffer (text), grown as needed */
#define PIPE_BIG_FRAME 8192u         /* a frame printed with its replay trace */
#define PIPE_WIDE_FRAME 512u         /* a frame printed as JSON or CSV rows */

struct pmeta {
    int64_t sec;
    uint64_t frame;               /* its number in the file (-f skips some) */
    uint32_t nsec, off, caplen, len;
    struct frame_in fi;           /* its link type and direction */
    uint32_t m[CLI_MAX_RUNS];     /* findings (worker) */
    uint32_t goff[CLI_MAX_RUNS];  /* the GRO input in gbuf (worker) */
    uint32_t o1, o2, o3;          /* output [o1, o2) before the fate, [o2, o3) after */
    uint32_t words[4];            /* frame_words: the line, the outcome (offsets in out) */
    uint8_t order;                /* an IP fragment: the file's thread analyses it */
    uint8_t out;                  /* has output */
};

struct batch {
    struct file_ctx *c;
    unsigned n, max;
    uint8_t *arena;
    size_t alen, acap;
    struct pmeta *meta;
    struct flow_obs *obs;         /* --flows: each frame's flow (run A) */
    uint8_t *gbuf[CLI_MAX_RUNS];  /* GRO inputs, packed: the devices a frame has */
    size_t glen[CLI_MAX_RUNS];
    struct cli_stats st[CLI_MAX_RUNS];
    char *out;
    size_t olen, ocap;
    bool done;                    /* under c->lock */
    bool fill;                    /* a read task: read the batch (under c->rd), then analyse it */
    bool empty;                   /* under c->lock: a read task that found the input done */
    uint64_t seq;                 /* its place in capture order (read tasks) */
};

/* Worker state: one per pool thread (and one for the file threads that help) */
struct worker {
    struct csc_fast fast[CLI_MAX_RUNS];   /* the fast path's tables, per run */
    struct flow_shapes shapes[CLI_MAX_RUNS];   /* flow_refs_of's layers by plan, per run */
    struct stat_shapes *stat_shapes[CLI_MAX_RUNS];   /* the counters by plan, per run (lazily) */
    struct csc_result r[CLI_MAX_RUNS];
    struct csc_result base;
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
        csc_fast_init(&w->fast[i]);
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
    for (unsigned i = 0; i < CLI_MAX_RUNS; i++) {
        g_free(w->rwbuf[i]);
        g_free(w->stat_shapes[i]);
    }
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

/* the libpcap record header a frame of a batch was read with */
static struct pcap_pkthdr pkthdr_of(const struct pmeta *pm)
{
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = (time_t)pm->sec;
    h.ts.tv_usec = (suseconds_t)pm->nsec;
    h.caplen = pm->caplen;
    h.len = pm->len;
    return h;
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
        f.link = pm->fi.link;
        f.direction = pm->fi.dir;
        struct csc_frame rw[CLI_MAX_RUNS];
        const struct csc_frame *fa[CLI_MAX_RUNS];
        pm->order = 0;
        pm->out = 0;
        for (unsigned r = 0; r < fv.nruns; r++) {
            if ((fv.runs[r].rewrite || fv.runs[r].peer_on) && !wk->rwbuf[r])
                wk->rwbuf[r] = g_malloc(2 * RW_BUF);   /* --peer-rx: the second half */
            fa[r] = analyse_result(&fv.runs[r], fv.fast_path ? &wk->fast[r] : NULL, &wk->r[r],
                                   &wk->base, wk->rwbuf[r], &f, &rw[r]);
            if (needs_order(&wk->r[r]))
                pm->order = 1;
        }
        if (pm->order)
            continue;
        for (unsigned r = 0; r < fv.nruns; r++) {
            uint64_t served = fv.fast_path ? csc_fast_served(&wk->fast[r]) : 0;
            if (served && !wk->stat_shapes[r])
                wk->stat_shapes[r] = g_new0(struct stat_shapes, 1);
            pm->m[r] = stats_account_shaped(&b->st[r], &wk->r[r], &f, wk->stat_shapes[r], served);
            /* prepared in place (the batch's buffer has room for a whole
             * input at any 8-byte boundary), then what names the flow at
             * each device (struct flow_ref) right after its used part */
            struct csc_gro_input *gin = (struct csc_gro_input *)(b->gbuf[r] + b->glen[r]);
            csc_gro_prepare_fast(fa[r], &wk->r[r], gin, fv.fast_path ? &wk->fast[r] : NULL);
            size_t sz = gin_size(gin);
            size_t rsz = gin->ndevs * sizeof(struct flow_ref);
            flow_refs_of((struct flow_ref *)((uint8_t *)gin + ((sz + 7) & ~(size_t)7)), &wk->r[r],
                         gin, &wk->shapes[r], fv.fast_path ? csc_fast_served(&wk->fast[r]) : 0);
            pm->goff[r] = (uint32_t)b->glen[r];
            b->glen[r] += ((sz + 7) & ~(size_t)7) + ((rsz + 7) & ~(size_t)7);
        }
        if (b->obs)
            flow_obs_of(&b->obs[i], &f, &wk->r[0], pm->m[0]);
        struct pcap_pkthdr h = pkthdr_of(pm);
        struct frame_view v = { pm->frame, &h, &wk->r[0], pm->m[0] };
        uint32_t mall = 0;
        for (unsigned r = 0; r < fv.nruns; r++)
            mall |= pm->m[r];
        frame_words_render(c, &w, &v, mall, &b->olen, pm->words);
        if (!fv.out.frames)
            continue;   /* nothing to render (--compare renders no frame here) */
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

static void run_task(struct batch *b, struct worker *wk);

static gpointer pool_thread(gpointer data)
{
    struct pool *p = data;
    for (;;) {
        struct batch *b = g_async_queue_pop(p->q);
        if (b == (struct batch *)p)   /* the stop marker */
            break;
        run_task(b, worker_get());
    }
    worker_free(g_private_get(&worker_key));
    g_private_set(&worker_key, NULL);
    return NULL;
}

/* `threads` threads analyse: the thread reading a file is one of them (it
 * analyses queued batches while it waits, see help()), so the pool has one
 * fewer. A pool of one per CPU oversubscribed the CPUs: on 2 CPUs small
 * frames took 17% longer (docs/performance.md). */
void pipeline_start(unsigned threads)
{
    if (threads < 2)
        return;
    struct pool *p = g_new0(struct pool, 1);
    p->q = g_async_queue_new();
    p->n = threads - 1;
    p->t = g_new0(GThread *, p->n);
    for (unsigned i = 0; i < p->n; i++)
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
    b->obs = c->flows ? g_new(struct flow_obs, max) : NULL;
    for (unsigned r = 0; r < c->nruns; r++)   /* untouched pages stay unmapped */
        b->gbuf[r] = g_malloc((size_t)max * (((sizeof(struct csc_gro_input) + 7) & ~(size_t)7) +
                                             CSC_MAX_DEVS * sizeof(struct flow_ref) + 8));
    /* sized for the batch's output up front (growing it would churn the heap) */
    b->ocap = c->fv.out.frame_bytes >= PIPE_WIDE_FRAME ? 256u * 1024u : PIPE_OUT0;
    b->out = g_malloc(b->ocap);
    return b;
}

static void batch_free(struct batch *b)
{
    if (!b)
        return;
    g_free(b->arena);
    g_free(b->meta);
    g_free(b->obs);
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
        uint64_t n = pm->frame;
        struct pcap_pkthdr h = pkthdr_of(pm);
        const uint8_t *data = b->arena + pm->off;
        if (pm->order) {
            frame_in_order(c, &h, data, n, &pm->fi);
            continue;
        }
        struct csc_frame f = { data, pm->caplen, pm->len, pm->fi.link, pm->fi.dir };
        uint64_t ts_us = ts_usec(&h);
        uint32_t mall = 0;
        for (unsigned r = 0; r < c->nruns; r++) {
            struct run_file *rf = &c->rf[r];
            /* a new TCP flow is named from a decode of the frame as captured: a
             * rewrite changes checksum fields only, not what names a flow */
            const struct csc_gro_input *in =
                (const struct csc_gro_input *)(b->gbuf[r] + pm->goff[r]);
            const struct flow_ref *refs =
                (const struct flow_ref *)((const uint8_t *)in + ((gin_size(in) + 7) & ~(size_t)7));
            gro_feed(rf, in, refs, &f, n, ts_us);
            mall |= pm->m[r];
        }
        if (c->flows)
            flow_table_feed(c->flows, &b->obs[i], n);
        struct frame_words fw = { b->out + pm->words[0], b->out + pm->words[2],
                                  pm->words[1] - pm->words[0], pm->words[3] - pm->words[2] };
        frame_done(c, n, mall, &h, data, &pm->fi, &fw);
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
    run_task(b, w);
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
 * batches in flight stay small when every frame is rendered (the format
 * says what a frame takes: a JSON object is about 2 KiB, 10 KiB with the
 * trace). */
static unsigned batch_frames(const struct file_ctx *c)
{
    unsigned fb = c->fv.out.frame_bytes;
    return fb >= PIPE_BIG_FRAME ? 16 : fb ? 64 : 1024;
}

/* The pool is up: pipeline_start() was asked for 2 threads or more */
bool pipeline_running(void)
{
    return the_pool != NULL;
}

/* A batch from the block reader: the carry (the bytes after the last
 * record the previous batch took) first, then read() into the arena; the
 * records are analysed where they lie. Returns BLK_MORE (more to read),
 * BLK_END, or BLK_LIBPCAP (then *pp reads the rest, or k->failed). */
struct blk_state {
    uint8_t *carry;
    size_t ncarry, ccap;
    uint64_t frames, bytes;       /* records read so far (-f may skip some) and their bytes */
};

/* How far to fill a batch's arena: a batch holds at most max records, and
 * what is read beyond them is copied to the next batch (the carry); with
 * small frames a full arena held twice the records a batch takes. So read
 * about what the records still missing take, at the file's average size so
 * far (always some bytes more than held, never beyond the arena). */
static size_t fill_limit(const struct blk_state *bs, const struct batch *b, size_t have)
{
    if (bs->frames < 64)
        return b->acap;
    uint64_t avg = bs->bytes / bs->frames + 1;
    uint64_t want = have + (uint64_t)(b->max - b->n) * avg + avg / 2 + 4096;
    return want < b->acap ? (size_t)want : b->acap;
}

static int fill_batch_blk(struct file_ctx *c, struct blk *k, struct blk_state *bs,
                          struct batch *b, uint64_t *n, pcap_t **pp)
{
    if (bs->ncarry > b->acap) {
        b->acap = bs->ncarry;
        b->arena = g_realloc(b->arena, b->acap);
    }
    if (bs->ncarry)
        memcpy(b->arena, bs->carry, bs->ncarry);
    size_t have = bs->ncarry, pos = 0;
    bs->ncarry = 0;
    int st;
    for (;;) {
        if (b->n == b->max) {
            st = BLK_MORE;
            break;
        }
        struct pcap_pkthdr h;
        st = blk_record(k, b->arena + pos, have - pos, &h);
        if (st == BLK_FRAME) {
            size_t off = pos + 16;
            pos = off + (size_t)h.caplen;
            bs->frames++;                  /* every record read, filtered out or not */
            bs->bytes += 16 + (uint64_t)h.caplen;
            int g = c->gated ? frame_gate(c, &h, b->arena + off, &c->fin) : GATE_TAKE;
            if (g == GATE_STOP) {
                st = BLK_END;
                break;
            }
            ++*n;
            if (g == GATE_SKIP)
                continue;          /* its bytes stay in the arena, unused */
            struct pmeta *pm = &b->meta[b->n++];
            pm->sec = (int64_t)h.ts.tv_sec;
            pm->frame = *n;
            pm->nsec = (uint32_t)h.ts.tv_usec;
            pm->off = (uint32_t)off;
            pm->caplen = h.caplen;
            pm->len = h.len;
            pm->fi = c->fin;
            continue;
        }
        if (st != BLK_MORE)
            break;
        if (cli_stopping()) {           /* checked once a block */
            st = BLK_END;
            break;
        }
        if (have == b->acap) {          /* the arena is full */
            if (b->n)
                break;                  /* the record goes to the next batch */
            if (pos) {                  /* every record before it was filtered out */
                memmove(b->arena, b->arena + pos, have - pos);
                have -= pos;
                pos = 0;
                continue;
            }
            uint32_t caplen;            /* one record longer than the arena */
            memcpy(&caplen, b->arena + pos + 8, 4);
            b->acap = pos + 16 + (size_t)caplen;
            b->arena = g_realloc(b->arena, b->acap);
        }
        ssize_t r = blk_fill(k, b->arena, have, fill_limit(bs, b, have));
        if (r < 0) {
            st = BLK_LIBPCAP;           /* a read error: libpcap reads again and says it */
            break;
        }
        have += (size_t)r;
    }
    size_t rest = have - pos;
    if (st == BLK_LIBPCAP) {
        char errbuf[PCAP_ERRBUF_SIZE];
        *pp = blk_libpcap(k, b->arena + pos, rest, errbuf);
        if (!*pp)
            sink_error(c->rs->sink, "%s: %s", c->job->path, errbuf);
    } else if (rest) {
        if (rest > bs->ccap) {
            bs->ccap = rest;
            bs->carry = g_realloc(bs->carry, bs->ccap);
        }
        memcpy(bs->carry, b->arena + pos, rest);
        bs->ncarry = rest;
    }
    return st;
}

/* A record read but not yet in a batch: it did not fit in the last one
 * (libpcap and libwiretap keep its bytes until the next read) */
struct carry {
    struct pcap_pkthdr *h;
    const u_char *data;
    struct frame_in fi;
    uint64_t frame;
};

/* A batch from libpcap or libwiretap: its frames copied into the arena.
 * Returns rdr_next()'s last status (1: more to read). */
static int fill_batch_rdr(struct file_ctx *c, struct rdr *rd, struct batch *b, uint64_t *n,
                          struct carry *cy)
{
    struct pcap_pkthdr *h;
    const u_char *data;
    struct frame_in fi;
    uint64_t frame;
    int rc = 1;
    while (b->n < b->max) {
        if (cy->h) {                    /* a frame that did not fit in the last batch */
            h = cy->h;
            data = cy->data;
            fi = cy->fi;
            frame = cy->frame;
            cy->h = NULL;
        } else {
            if ((rc = rdr_next(c, rd, &h, &data, &fi)) != 1)
                break;
            int g = c->gated ? frame_gate(c, h, data, &fi) : cli_stopping() ? GATE_STOP
                                                                             : GATE_TAKE;
            if (g == GATE_STOP) {
                rc = 0;
                break;
            }
            frame = ++*n;
            if (g == GATE_SKIP)
                continue;
        }
        if (h->caplen > b->acap - b->alen) {
            if (b->n) {
                *cy = (struct carry){ h, data, fi, frame };
                break;
            }
            b->acap = h->caplen;        /* a frame bigger than the arena: a batch of its own */
            b->arena = g_realloc(b->arena, b->acap);
        }
        struct pmeta *pm = &b->meta[b->n++];
        pm->sec = (int64_t)h->ts.tv_sec;
        pm->frame = frame;
        pm->nsec = (uint32_t)h->ts.tv_usec;
        pm->off = (uint32_t)b->alen;
        pm->caplen = h->caplen;
        pm->len = h->len;
        pm->fi = fi;
        memcpy(b->arena + b->alen, data, h->caplen);
        b->alen += h->caplen;
    }
    return rc;
}

/* A read task (the block reader in the pipeline): the thread that takes it
 * reads the next block of the file into the batch, under c->rd so that
 * blocks are read in file order, takes the batch's place in capture order,
 * and analyses it while the bytes are in its own cache. Reading in one
 * thread and analysing in another moved every byte between the CPUs'
 * caches once more: with full-size frames the pipeline was no faster than
 * one thread (docs/performance.md). */
static void run_task(struct batch *b, struct worker *wk)
{
    if (!b->fill) {
        analyse_batch(b, wk);
        return;
    }
    struct file_ctx *c = b->c;
    g_mutex_lock(&c->rd);
    g_mutex_lock(&c->lock);
    bool over = c->blk_done;
    g_mutex_unlock(&c->lock);
    int st = BLK_END;
    b->n = 0;
    b->alen = 0;
    if (!over) {
        st = fill_batch_blk(c, c->blk, c->bs, b, &c->nframes, &c->handover);
        if (b->n)
            b->seq = c->nfilled++;
        atomic_store_explicit(&c->job->done_bytes, c->blk->bytes, memory_order_relaxed);
    }
    g_mutex_lock(&c->lock);
    if (st != BLK_MORE)
        c->blk_done = true;        /* (under rd: no later task reads the file again) */
    if (b->n)
        c->ring[b->seq % c->depth] = b;
    g_mutex_unlock(&c->lock);
    g_mutex_unlock(&c->rd);
    if (b->n) {
        analyse_batch(b, wk);      /* done: the file's thread sequences it */
        return;
    }
    /* nothing read: the last touch of b and c (the file may end right after) */
    g_mutex_lock(&c->lock);
    b->empty = true;
    c->outstanding--;
    g_cond_broadcast(&c->cond);
    g_mutex_unlock(&c->lock);
}

/* The block reader through the pipeline: `depth` batches go round as read
 * tasks; this thread sequences them in capture order (helping meanwhile).
 * Returns when the reader is done and every batch is sequenced. */
static void pipeline_blk(struct file_ctx *c, struct blk *k, unsigned max, uint64_t *np)
{
    struct blk_state bs = { 0 };
    struct batch **all = g_new0(struct batch *, c->depth);
    struct batch **freeb = g_new0(struct batch *, c->depth);
    unsigned nfree = c->depth;
    for (unsigned i = 0; i < c->depth; i++)
        freeb[i] = all[i] = batch_new(c, max);
    c->blk = k;
    c->bs = &bs;
    c->handover = NULL;
    c->nframes = c->nfilled = 0;
    c->blk_done = false;
    c->outstanding = 0;
    for (unsigned i = 0; i < c->depth; i++)
        c->ring[i] = NULL;
    uint64_t nseq = 0;
    for (;;) {
        g_mutex_lock(&c->lock);
        bool in_done = c->blk_done;
        g_mutex_unlock(&c->lock);
        while (nfree && !in_done) {        /* every free batch becomes a read task */
            struct batch *b = freeb[--nfree];
            b->fill = true;
            b->done = b->empty = false;
            g_mutex_lock(&c->lock);
            c->outstanding++;
            g_mutex_unlock(&c->lock);
            g_async_queue_push(the_pool->q, b);
        }
        /* the head batch, read and analysed */
        struct batch *h = NULL;
        g_mutex_lock(&c->lock);
        for (;;) {
            struct batch *r = c->ring[nseq % c->depth];
            if (r && r->seq == nseq && r->done) {
                h = r;
                c->ring[nseq % c->depth] = NULL;
                break;
            }
            if (c->blk_done && !c->outstanding)
                break;
            g_mutex_unlock(&c->lock);
            bool helped = help(c);
            g_mutex_lock(&c->lock);
            if (helped)
                continue;
            r = c->ring[nseq % c->depth];
            if (!(r && r->seq == nseq && r->done) && !(c->blk_done && !c->outstanding))
                g_cond_wait(&c->cond, &c->lock);
        }
        g_mutex_unlock(&c->lock);
        if (!h)
            break;
        sequence_batch(c, h);
        nseq++;
        g_mutex_lock(&c->lock);
        c->outstanding--;
        g_mutex_unlock(&c->lock);
        freeb[nfree++] = h;
    }
    /* read tasks that found the input done are back (outstanding 0) */
    for (unsigned i = 0; i < c->depth; i++)
        batch_free(all[i]);
    g_free(all);
    g_free(freeb);
    g_free(bs.carry);
    c->blk = NULL;
    c->bs = NULL;
    *np = c->nframes;
}

/* One file through the pipeline: read batches (the block reader while
 * k->fast, then libpcap or libwiretap, rd), hand them to the workers, take
 * them back in order. Returns rdr_next()'s last status (0 when the block
 * reader read to the end, -3 when its hand-over failed); *np: the records
 * read. */
int pipeline_file(struct file_ctx *c, struct rdr *rd, struct blk *k, uint64_t *np)
{
    struct job *j = c->job;
    uint64_t n = 0;
    int rc = 1;

    c->depth = 2 * the_pool->n + 2;
    c->ring = g_new0(struct batch *, c->depth);
    unsigned max = batch_frames(c);
    if (k->fast) {                  /* read tasks; libpcap afterwards if it takes over */
        pipeline_blk(c, k, max, &n);
        rc = k->failed ? -3 : 0;
        rd->pcap = c->handover;
        rd->bytes = k->bytes;
        if (!rd->pcap) {
            g_free(c->ring);
            c->ring = NULL;
            *np = n;
            return rc;
        }
        rc = 1;
        for (unsigned i = 0; i < c->depth; i++)
            c->ring[i] = NULL;
    }
    uint64_t nread = 0, nseq = 0;   /* batches read / sequenced */
    struct carry cy = { NULL, NULL, { 0, 0, 0 }, 0 };
    bool more = true;               /* input left */
    while (more || cy.h || nseq < nread) {
        if ((more || cy.h) && nread - nseq < c->depth) {
            unsigned slot = (unsigned)(nread % c->depth);
            struct batch *b = c->ring[slot];
            if (!b)
                b = c->ring[slot] = batch_new(c, max);
            b->n = 0;
            b->alen = 0;
            b->done = false;
            rc = fill_batch_rdr(c, rd, b, &n, &cy);
            more = rc == 1;
            if (b->n) {
                nread++;
                g_async_queue_push(the_pool->q, b);
                atomic_store_explicit(&j->done_bytes, rd->wtr ? wtr_bytes(rd->wtr) : rd->bytes,
                                      memory_order_relaxed);
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
    *np = n;
    return rc;
}
