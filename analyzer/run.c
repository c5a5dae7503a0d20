/*
 * run.c - one capture file: read in blocks (pcapblk.c; libpcap for what it
 * must judge) -> per configuration ([csc_rewrite()]
 * csc_analyze_cached()) -> csc_frag_feed() -> counters -> the GRO engine ->
 * renderers, -w selection. This is the hot path: nothing is allocated per
 * frame, nothing goes through stdio per frame.
 *
 * Two ways through a file, with byte-identical output:
 *  - in one thread (--threads 1, --compare with per-frame output): each
 *    frame read is analysed, accounted, fed to the GRO engine and rendered
 *    in turn (frame_full());
 *  - the pipeline (pipeline.c, default with 2 CPUs or more): worker threads
 *    analyse and render batches of frames, the file's thread takes them
 *    back in capture order for what depends on the order; both use the
 *    steps of one frame below.
 */
#include "run.h"

#include <errno.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>

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

static void endpoint_of(struct cli_endpoint *e, const struct csc_frame *f, const struct flow_ref *ref,
                        int k)
{
    uint8_t ip_proto = ref->ip_proto[k];
    memset(e, 0, sizeof *e);
    if (csc_ip_addresses(f, ip_proto, ref->addr_off[k], e->src, e->dst))
        e->family = ip_proto == CSC_P_IPV6 ? CLI_FAMILY_IPV6 : CLI_FAMILY_IPV4;
    if (ref->l4_proto[k]) {
        e->l4 = ref->l4_proto[k];
        e->sport = ref->sport[k];
        e->dport = ref->dport[k];
    }
}

/* The layers that name the flow of a device whose first layer is l0. */
static void flow_ref_of(struct flow_ref *ref, const struct csc_result *r, unsigned l0)
{
    const struct csc_layer *ips[2] = { NULL, NULL }, *l4s[2] = { NULL, NULL };
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    memset(ref, 0, sizeof *ref);
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
        } else if (!ref->tunnel && csc_proto_is_tunnel(l->proto)) {
            ref->tunnel = l->proto;
            ref->tunnel_id = csc_layer_id(l);
        }
    }
    if (ips[1] == ips[0])      /* no inner IP: the inner endpoint stays empty */
        ips[1] = NULL;
    for (int k = 0; k < 2; k++) {
        if (ips[k]) {
            ref->ip_proto[k] = ips[k]->proto;
            ref->addr_off[k] = ips[k]->u.ip.addr_off;
        }
        if (ips[k] && l4s[k]) {
            ref->l4_proto[k] = l4s[k]->proto;
            ref->sport[k] = l4s[k]->u.ports.sport;
            ref->dport[k] = l4s[k]->u.ports.dport;
        }
    }
}

/* The references of every device of a frame that carries a TCP segment */
void flow_refs_of(struct flow_ref *refs, const struct csc_result *r, const struct csc_gro_input *in)
{
    for (unsigned i = 0; i < in->ndevs; i++)
        if (in->dev[i].tcp)
            flow_ref_of(&refs[i], r, in->dev[i].layer);
}

/* Only on a frame that opens a TCP flow (a new entry in the engine's table). */
static void flow_id_of(struct cli_flow_id *id, const struct csc_frame *f, const struct flow_ref *ref,
                       uint64_t frame)
{
    memset(id, 0, sizeof *id);
    id->first_frame = frame;
    id->tcp = 1;
    id->tunnel = ref->tunnel;
    id->tunnel_id = ref->tunnel_id;
    if (ref->ip_proto[0])
        endpoint_of(&id->outer, f, ref, 0);
    if (ref->ip_proto[1])
        endpoint_of(&id->inner, f, ref, 1);
}

/* ---- one frame ------------------------------------------------------------ */

/* The frame under one configuration: rewritten first when the run says so
 * (into *rw, over rwbuf), analysed into r. Returns the frame analysed. */
const struct csc_frame *analyse_result(const struct cli_run *run, struct csc_rcache *rc,
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
bool needs_order(const struct csc_result *r)
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
 * named from the frame's bytes at the layers refs[] found. */
void gro_feed(struct run_file *rf, const struct csc_gro_input *in, const struct flow_ref *refs,
              const struct csc_frame *fa, uint64_t n, uint64_t ts_us)
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
        flow_id_of(id, fa, &refs[i], n);
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
    uint32_t m = stats_account_frame(&rf->st, &rf->r, f0);
    csc_gro_prepare(fa, &rf->r, &rf->gin);
    flow_refs_of(rf->refs, &rf->r, &rf->gin);
    gro_feed(rf, &rf->gin, rf->refs, fa, n, ts_us);
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

/* Output of one frame of a single run, before / after its GRO fate */
bool render_start(const struct file_view *fv, struct wbuf *w, const struct frame_view *v)
{
    const struct out_format *fmt = fv->out.fmt;
    return fv->out.frames && fmt->frame && fmt->frame(w, &fv->out, v);
}

void render_fate(const struct file_view *fv, struct wbuf *w, const struct csc_gro_decision *gd)
{
    if (fv->out.fmt->fate)
        fv->out.fmt->fate(w, &fv->out, gd);
}

void render_end(const struct file_view *fv, struct wbuf *w, const struct frame_view *v)
{
    if (fv->out.fmt->frame_end)
        fv->out.fmt->frame_end(w, &fv->out, v);
}

/* Everything after the analysis that every frame needs, in order */
void frame_done(struct file_ctx *c, uint32_t mall, const struct pcap_pkthdr *h, const uint8_t *data)
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
void frame_in_order(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
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
    struct frame_view v = { n, h, &c->rf[0].r, m };
    if (c->cmp) {
        if (c->fv.out.diffs && outcome_differs(&c->rf[0], &c->rf[1], m, mb)) {
            const struct csc_result *rr[CLI_MAX_RUNS] = { &c->rf[0].r, &c->rf[1].r };
            const struct csc_gro_decision *gg[CLI_MAX_RUNS] = { &c->rf[0].gd, &c->rf[1].gd };
            c->fv.out.fmt->diff(&c->out, &c->fv.out, &v, rr, gg);
        }
        return;
    }
    if (render_start(&c->fv, &c->out, &v)) {
        render_fate(&c->fv, &c->out, &c->rf[0].gd);
        render_end(&c->fv, &c->out, &v);
    }
}

/* ---- the frame loop ------------------------------------------------------------ */

/* An input that cannot be read, or not to its end: a line on stderr and the
 * format's error record (frame 0: the file as a whole) */
static void file_error(struct file_ctx *c, uint64_t frame, const char *msg)
{
    sink_error(c->rs->sink, "%s: %s", c->job->path, msg);
    if (c->fv.out.fmt->error)
        c->fv.out.fmt->error(&c->out, &c->fv.out, frame, msg);
}

static void read_error(struct file_ctx *c, pcap_t *p, uint64_t n)
{
    const char *e = pcap_geterr(p);
    char msg[PCAP_ERRBUF_SIZE + 160];
    if (n)
        snprintf(msg, sizeof msg, "damaged after frame %ju (%s); frames 1-%ju were analysed",
                 (uintmax_t)n, e, (uintmax_t)n);
    else
        snprintf(msg, sizeof msg, "cannot read the first frame (%s)", e);
    file_error(c, n + 1, msg);
}

static bool use_pipeline(const struct file_ctx *c)
{
    /* --compare renders frames from both results at once: in one thread */
    return pipeline_running() && !c->fv.out.diffs;
}

/* The records of a classic pcap read in blocks, in this thread (pcapblk.c).
 * Returns with *pp set when libpcap must take over. */
static void blk_in_order(struct file_ctx *c, struct blk *k, uint64_t *np, pcap_t **pp)
{
    struct job *j = c->job;
    size_t cap = BLK_BUF, have = 0, pos = 0;
    uint8_t *buf = g_malloc(cap);
    uint64_t n = *np;
    for (;;) {
        struct pcap_pkthdr h;
        int st = blk_record(k, buf + pos, have - pos, &h);
        if (st == BLK_FRAME) {
            frame_in_order(c, &h, buf + pos + 16, ++n);
            pos += 16 + (size_t)h.caplen;
            if ((n & 1023) == 0)
                atomic_store_explicit(&j->done_bytes, k->bytes, memory_order_relaxed);
            continue;
        }
        if (st == BLK_MORE) {
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
            *pp = blk_libpcap(k, buf + pos, have - pos, errbuf);
            if (!*pp)
                sink_error(c->rs->sink, "%s: %s", j->path, errbuf);   /* k->failed */
        }
        break;
    }
    g_free(buf);
    *np = n;
}

/* Returns false when the file could not be read to its end. k: the block
 * reader when the file is read in blocks, p: libpcap otherwise (or after
 * the block reader hands over). */
static bool analyse_file(struct file_ctx *c, pcap_t *p, struct blk *k)
{
    struct job *j = c->job;
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t n = 0, bytes = 0;
    int rc = 0;

    if (c->link == CSC_LINK_UNKNOWN) {
        const char *name = pcap_datalink_val_to_name(j->linktype);
        sink_warning(c->rs->sink, "%s: link type %d%s%s%s is not decoded: its frames stop at "
                     "unknown-link", j->path, j->linktype, name ? " (" : "", name ? name : "",
                     name ? ")" : "");
    }
    if (use_pipeline(c)) {
        rc = pipeline_file(c, &p, k, &n);
    } else {
        if (k->fast) {
            blk_in_order(c, k, &n, &p);
            bytes = k->bytes;
        }
        if (p) {
            while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
                frame_in_order(c, h, data, ++n);
                bytes += h->caplen + 16u;
                if ((n & 1023) == 0)
                    atomic_store_explicit(&j->done_bytes, bytes, memory_order_relaxed);
            }
        }
    }
    bool ok = true;
    if (rc == -1) {
        read_error(c, p, n);
        ok = false;
    } else if (k->failed) {
        ok = false;   /* the hand-over to libpcap failed (said already) */
    }
    if (p)
        pcap_close(p);
    return ok;
}

/* ---- per file ------------------------------------------------------------------ */

static void run_file_init(struct run_file *rf, const struct cli_run *run)
{
    rf->run = run;
    rf->st.files = 1;
    csc_frag_init(&rf->frag);
    /* the fragments' bytes: one area per slot, untouched (so never paged in)
     * until a fragment comes */
    rf->frag_store = g_malloc(CSC_FRAG_STORE_BYTES);
    csc_frag_attach(&rf->frag, &run->cfg, rf->frag_store);
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
    g_free(rf->frag_store);
    g_free(rf->gro);
    g_free(rf->fid);
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
    file_gro_totals(rf, file, rs->o->top_flows, &t);
    struct cli_run *run = &rs->run[rf->run->index];
    g_mutex_lock(&rs->merge_lock);
    gro_totals_merge(&run->gro, &t, rs->o->top_flows);
    if (rf->run->index > 0)
        cli_stats_merge(&run->st, &rf->st);
    g_mutex_unlock(&rs->merge_lock);
    gro_totals_free(&t);
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
    g_mutex_init(&c->lock);
    g_mutex_init(&c->rd);
    g_cond_init(&c->cond);
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_init(&c->rf[i], &rs->run[i]);
    c->out = (struct wbuf){ g_malloc(CLI_OUT_BUF), 0, CLI_OUT_BUF, flush_out, c };
    c->rec = (struct wbuf){ o->write_path ? g_malloc(CLI_REC_BUF) : NULL, 0,
                            o->write_path ? CLI_REC_BUF : 0, flush_rec, c };
    c->fv.runs = rs->run;
    c->fv.nruns = c->nruns;
    out_file_open(&c->fv.out, o, rs->run, j->path);
    return c;
}

static void file_ctx_free(struct file_ctx *c)
{
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_free(&c->rf[i]);
    out_file_close(&c->fv.out);
    g_mutex_clear(&c->lock);
    g_mutex_clear(&c->rd);
    g_cond_clear(&c->cond);
    g_free(c->out.p);
    g_free(c->rec.p);
    g_free(c);
}

/* A classic pcap is read in blocks (pcapblk.c); anything else goes to
 * libpcap over a stream that replays the header bytes read. False (said)
 * when the file is not a capture that can be read. */
static bool open_capture(struct file_ctx *c, FILE *fp, bool is_stdin, char *rbuf, struct blk *blk,
                         pcap_t **pp)
{
    struct job *j = c->job;
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    struct stat sb;
    bool empty = !is_stdin && fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0;
    *pp = NULL;
    if (blk_open(blk, fileno(fp))) {
        j->linktype = blk->linktype;
        return true;
    }
    FILE *rsf = blk_rest_stream(blk, NULL, 0);
    if (rsf) {
        setvbuf(rsf, rbuf, _IOFBF, CLI_READ_BUF);
        /* Only this thread reads it: no stdio lock per fread (libpcap makes
         * two per frame, and with worker threads glibc would lock each). */
        __fsetlocking(rsf, FSETLOCKING_BYCALLER);
        *pp = pcap_fopen_offline_with_tstamp_precision(rsf, PCAP_TSTAMP_PRECISION_NANO, errbuf);
        if (!*pp)
            fclose(rsf);
    } else {
        snprintf(errbuf, sizeof errbuf, "%s", g_strerror(errno));
    }
    if (!*pp) {
        const char *why = open_problem(errbuf, empty);
        char msg[PCAP_ERRBUF_SIZE + 64];
        snprintf(msg, sizeof msg, "%s", why ? why : errbuf);
        file_error(c, 0, msg);
        return false;
    }
    j->linktype = pcap_datalink(*pp);
    return true;
}

void run_job(struct run_shared *rs, struct job *j)
{
    struct file_ctx *c = file_ctx_new(rs, j);
    char *rbuf = g_malloc(CLI_READ_BUF);
    bool ok = false;
    bool is_stdin = !strcmp(j->path, "-");
    FILE *fp = is_stdin ? stdin : fopen(j->path, "rb");
    if (!fp) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open: %s", g_strerror(errno));
        file_error(c, 0, msg);
    } else {
        struct blk blk;
        pcap_t *p;
        if (open_capture(c, fp, is_stdin, rbuf, &blk, &p)) {
            c->link = (uint8_t)csc_link_from_linktype((uint32_t)j->linktype);
            c->fv.link = c->link;
            ok = analyse_file(c, p, &blk);
        }
        if (!is_stdin)
            fclose(fp);
    }
    for (unsigned i = 0; i < c->nruns; i++)
        run_file_finish(rs, &c->rf[i], j->index, ok);
    j->failed = !ok;
    wb_flush(&c->out);
    if (c->rec.p)
        wb_flush(&c->rec);
    sink_job_done(rs->sink, j, &c->rf[0].st, &rs->run[0].st);
    file_ctx_free(c);
    g_free(rbuf);
}
