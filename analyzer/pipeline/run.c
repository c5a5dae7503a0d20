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

#include "baseline.h"
#include "filter.h"
#include "wout.h"

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

static void put_record(struct file_ctx *c, const struct pcap_pkthdr *h, const u_char *data,
                       int32_t dlt, uint8_t dir, const char *comment, uint32_t clen)
{
    struct rec_hdr rh = { (int64_t)h->ts.tv_sec, (uint32_t)h->ts.tv_usec, h->caplen, h->len, dlt,
                          clen, dir };
    size_t need = sizeof rh + h->caplen + clen;
    struct wbuf *w = &c->rec;
    if (need > w->cap - w->len)
        wb_flush(w);
    char *p = need > w->cap ? g_malloc(need) : w->p + w->len;   /* bigger than the buffer: one-off */
    memcpy(p, &rh, sizeof rh);
    memcpy(p + sizeof rh, data, h->caplen);
    if (clen)
        memcpy(p + sizeof rh + h->caplen, comment, clen);
    if (need > w->cap) {
        sink_write(c->rs->sink, c->job, SINK_REC, p, need);
        g_free(p);
        return;
    }
    w->len += need;
}

bool frame_selected(const struct file_ctx *c, uint32_t mall)
{
    const struct cli_opts *o = c->rs->o;
    return (c->want_comment && (mall & o->select)) || (o->junit_path && (mall & o->junit_on));
}

void frame_words_render(const struct file_ctx *c, struct wbuf *w, const struct frame_view *v,
                        uint32_t mall, const size_t *base, uint32_t off[4])
{
    off[0] = off[1] = (uint32_t)(*base + w->len);
    if (frame_selected(c, mall)) {
        text_comment(w, &c->cout, v);
        off[1] = (uint32_t)(*base + w->len);
    }
    off[2] = off[3] = off[1];
    if (c->want_outcome) {
        baseline_outcome(w, v->r);
        off[3] = (uint32_t)(*base + w->len);
    }
}

/* --baseline: a frame whose outcome changed, or a frame on one side only
 * (was or now NULL), as a record of the output format (CSV: none) */
static void baseline_change(struct file_ctx *c, uint64_t frame, const char *was, const char *now,
                            size_t nnow)
{
    if (c->fv.out.fmt->baseline)
        c->fv.out.fmt->baseline(&c->out, &c->fv.out, frame, was, now, nnow);
}

static void baseline_frame(struct file_ctx *c, uint64_t n, const struct frame_words *fw)
{
    struct cli_stats *st = &c->rf[0].st;
    const char *was = baseline_of(c->rs->o->baseline, c->job->path, n);
    if (was && strlen(was) == fw->noutcome && !memcmp(was, fw->outcome, fw->noutcome))
        return;
    if (was)
        st->baseline_changed++;
    else
        st->baseline_new++;
    atomic_store_explicit(&c->rs->fail_hit, true, memory_order_relaxed);
    if (!was && !baseline_has_file(c->rs->o->baseline, c->job->path) && c->baseline_files_new++)
        return;                    /* a file the baseline does not have: its first frame says it */
    baseline_change(c, n, was, fw->outcome, fw->noutcome);
    if (c->job->junit && c->job->junit_failures < JUNIT_MAX_FAILURES) {
        g_string_append_printf(c->job->junit, "%ju\tchanged since the baseline: was %s; now ",
                               (uintmax_t)n, was ? was : "not in the baseline");
        g_string_append_len(c->job->junit, fw->outcome, (gssize)fw->noutcome);
        g_string_append_c(c->job->junit, '\n');
    }
    if (c->job->junit)
        c->job->junit_failures++;
}

static void baseline_gone_one(void *ctx, uint64_t frame, const char *was)
{
    struct file_ctx *c = ctx;
    baseline_change(c, frame, was, NULL, 0);
    if (c->job->junit && c->job->junit_failures++ < JUNIT_MAX_FAILURES)
        g_string_append_printf(c->job->junit, "%ju\tchanged since the baseline: was %s; now not in "
                               "the capture\n", (uintmax_t)frame, was);
}

void baseline_file_end(struct file_ctx *c)
{
    if (!c->rs->o->baseline)
        return;
    uint64_t gone = baseline_gone(c->rs->o->baseline, c->job->path, baseline_gone_one, c);
    c->rf[0].st.baseline_gone += gone;
    if (gone)
        atomic_store_explicit(&c->rs->fail_hit, true, memory_order_relaxed);
}

/* ---- flows: what names the flow a frame opened at one device ---------- */

/* e is zeroed (flow_id_of) */
static void endpoint_of(struct cli_endpoint *e, const struct csc_frame *f, const struct flow_ref *ref,
                        int k)
{
    uint8_t ip_proto = ref->ip_proto[k];
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
    if (!r->ip_fragment)
        return false;
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
    if (__builtin_expect(fv->out.show != 0, 0) && !(v->findings & fv->out.show))
        return false;              /* --show */
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
void frame_done(struct file_ctx *c, uint64_t n, uint32_t mall, const struct pcap_pkthdr *h,
                const uint8_t *data, const struct frame_in *fi, const struct frame_words *fw)
{
    const struct cli_opts *o = c->rs->o;
    if (o->baseline)
        baseline_frame(c, n, fw);
    if (c->job->junit && (mall & o->junit_on)) {
        if (c->job->junit_failures++ < JUNIT_MAX_FAILURES) {
            char line[FRAME_LINE_MAX];
            struct wbuf lw = { line, 0, sizeof line, NULL, NULL };
            wb_printf(&lw, "%ju\t", (uintmax_t)n);
            wb_write(&lw, fw->line, fw->nline < sizeof line / 2 ? fw->nline : sizeof line / 2);
            text_comment_fate(&lw, &c->rf[0].gd);
            g_string_append_len(c->job->junit, line, (gssize)lw.len);
            g_string_append_c(c->job->junit, '\n');
        }
    }
    if (mall & o->fail_on) {
        atomic_store_explicit(&c->rs->fail_hit, true, memory_order_relaxed);
        if (c->nfail < CLI_FAIL_LIST)
            c->fail[c->nfail++] = (struct fail_hit){ c->job->index, mall & o->fail_on, n };
        c->fail_frames++;
    }
    if (c->want_rec && (mall & o->select)) {
        char line[FRAME_LINE_MAX];  /* the verdict line + its GRO fate */
        struct wbuf lw = { line, 0, sizeof line, NULL, NULL };
        if (c->want_comment) {
            wb_write(&lw, fw->line, fw->nline < sizeof line / 2 ? fw->nline : sizeof line / 2);
            text_comment_fate(&lw, &c->rf[0].gd);
        }
        put_record(c, h, data, fi->dlt, fi->dir, line, (uint32_t)lw.len);
        c->rf[0].st.selected++;
    }
}

/* One frame read, all in this thread */
void frame_in_order(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
                    uint64_t n, const struct frame_in *fi)
{
    struct csc_frame f = { data, h->caplen, h->len, fi->link, fi->dir };
    uint64_t ts_us = ts_usec(h);
    uint32_t m = frame_full(&c->rf[0], &f, n, ts_us), mall = m, mb = 0;
    if (c->cmp) {
        mb = frame_full(&c->rf[1], &f, n, ts_us);
        mall |= mb;
    }
    if (c->flows) {
        struct flow_obs ob;
        flow_obs_of(&ob, &f, &c->rf[0].r, m);
        flow_table_feed(c->flows, &ob, n);
    }
    struct frame_view v = { n, h, &c->rf[0].r, m };
    char words[FRAME_LINE_MAX];
    struct wbuf ww = { words, 0, sizeof words, NULL, NULL };
    uint32_t off[4];
    static const size_t zero;
    frame_words_render(c, &ww, &v, mall, &zero, off);
    struct frame_words fw = { words + off[0], words + off[2], off[1] - off[0], off[3] - off[2] };
    frame_done(c, n, mall, h, data, fi, &fw);
    if (c->cmp) {
        if (c->fv.out.diffs && (!c->fv.out.show || (mall & c->fv.out.show)) &&
            outcome_differs(&c->rf[0], &c->rf[1], m, mb)) {
            const struct csc_result *rr[CLI_MAX_RUNS] = { &c->rf[0].r, &c->rf[1].r };
            const struct csc_gro_decision *gg[CLI_MAX_RUNS] = { &c->rf[0].gd, &c->rf[1].gd };
            c->fv.out.fmt->diff(&c->out, &c->fv.out, &v, rr, gg);
        }
        return;
    }
    if (render_start(&c->fv, &c->out, &v)) {
        render_fate(&c->fv, &c->out, &c->rf[0].gd);
        render_end(&c->fv, &c->out, &v);
        if (c->rs->o->line_buffered)
            wb_flush(&c->out);     /* -l: the frame's record goes out now */
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

static void read_error(struct file_ctx *c, const struct rdr *rd, uint64_t n)
{
    const char *e = rd->wtr ? wtr_error(rd->wtr) : pcap_geterr(rd->pcap);
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

/* The core's link for a pcap link type; an undecoded one is said once per
 * file and link type (a pcapng file may have several) */
static uint8_t link_of(struct file_ctx *c, int32_t dlt)
{
    uint8_t link = dlt < 0 ? CSC_LINK_UNKNOWN : (uint8_t)csc_link_from_linktype((uint32_t)dlt);
    if (link != CSC_LINK_UNKNOWN)
        return link;
    for (unsigned i = 0; i < c->ntold; i++)
        if (c->told_dlt[i] == dlt)
            return link;
    if (c->ntold < G_N_ELEMENTS(c->told_dlt))
        c->told_dlt[c->ntold++] = dlt;
    const char *name = dlt < 0 ? NULL : pcap_datalink_val_to_name(dlt);
    if (dlt < 0)
        sink_warning(c->rs->sink, "%s: frames of an encapsulation without a pcap link type are not "
                     "decoded: they stop at unknown-link", c->job->path);
    else
        sink_warning(c->rs->sink, "%s: link type %d%s%s%s is not decoded: its frames stop at "
                     "unknown-link", c->job->path, dlt, name ? " (" : "", name ? name : "",
                     name ? ")" : "");
    return link;
}

int rdr_next(struct file_ctx *c, struct rdr *r, struct pcap_pkthdr **h, const u_char **data,
             struct frame_in *fi)
{
    if (r->pcap) {
        int rc = pcap_next_ex(r->pcap, h, data);
        if (rc != 1)
            return rc == -1 ? -1 : 0;
        r->bytes += (*h)->caplen + 16u;
        *fi = c->fin;
        return 1;
    }
    int dlt;
    uint8_t dir;
    int rc = wtr_next(r->wtr, h, data, &dlt, &dir);
    if (rc != 1)
        return rc;
    if (dlt != r->last.dlt) {
        r->last.dlt = dlt;
        r->last.link = link_of(c, dlt);
    }
    *fi = r->last;
    fi->dir = dir;
    return 1;
}

/* -f: does the record pass the filter of its link type? */
static bool filter_passes(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
                          int32_t dlt)
{
    if (dlt != c->flt_dlt) {
        char *why = NULL;
        c->flt_dlt = dlt;
        c->flt_prog = filter_prog(c->rs->filter, dlt, &why);
        if (why) {                 /* said once per run and link type */
            file_error(c, 0, why);
            g_free(why);
        }
    }
    return c->flt_prog && filter_match(c->flt_prog, h, data);
}

int frame_gate(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
               const struct frame_in *fi)
{
    struct run_shared *rs = c->rs;
    if (cli_stopping())
        return GATE_STOP;
    if (rs->filter && !filter_passes(c, h, data, fi->dlt))
        return GATE_SKIP;
    if (rs->o->count) {            /* -c: one frame of the budget, in input order */
        int64_t left = atomic_load_explicit(&rs->budget, memory_order_relaxed);
        do {
            if (left <= 0)
                return GATE_STOP;
        } while (!atomic_compare_exchange_weak(&rs->budget, &left, left - 1));
    }
    return GATE_TAKE;
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
        read_error(c, rd, n);
        ok = false;
    } else if (k->failed) {
        ok = false;   /* the hand-over to libpcap failed (said already) */
    }
    if (rd->pcap)
        pcap_close(rd->pcap);
    wtr_close(rd->wtr);
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
        run_file_init(&c->rf[i], &rs->run[i]);
    c->out = (struct wbuf){ g_malloc(CLI_OUT_BUF), 0, CLI_OUT_BUF, flush_out, c };
    c->rec = (struct wbuf){ o->write_path ? g_malloc(CLI_REC_BUF) : NULL, 0,
                            o->write_path ? CLI_REC_BUF : 0, flush_rec, c };
    c->fv.runs = rs->run;
    c->fv.nruns = c->nruns;
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

/* A classic pcap in this machine's byte order is read in blocks
 * (pcapblk.c), any other classic pcap by libpcap over a stream that replays
 * the header bytes read, everything else by libwiretap (wtapread.c). False
 * (said) when the file is not a capture that can be read. */
static bool open_libpcap(struct file_ctx *c, struct blk *blk, char *rbuf, struct rdr *rd)
{
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    FILE *rsf = blk_rest_stream(blk, NULL, 0);
    if (rsf) {
        setvbuf(rsf, rbuf, _IOFBF, CLI_READ_BUF);
        /* Only this thread reads it: no stdio lock per fread (libpcap makes
         * two per frame, and with worker threads glibc would lock each). */
        __fsetlocking(rsf, FSETLOCKING_BYCALLER);
        rd->pcap = pcap_fopen_offline_with_tstamp_precision(rsf, PCAP_TSTAMP_PRECISION_NANO, errbuf);
        if (!rd->pcap)
            fclose(rsf);
    } else {
        snprintf(errbuf, sizeof errbuf, "%s", g_strerror(errno));
    }
    if (!rd->pcap) {
        file_error(c, 0, errbuf);
        return false;
    }
    c->job->linktype = pcap_datalink(rd->pcap);
    return true;
}

static bool open_wiretap(struct file_ctx *c, FILE *fp, bool is_pipe, struct blk *blk,
                         struct rdr *rd)
{
    char *msg = NULL;
    if (!blk->nhdr) {              /* libwiretap would take nothing for an ERF file */
        file_error(c, 0, "empty input, not a capture");
        return false;
    }
    rd->wtr = wtr_open(c->job->path, fileno(fp), is_pipe, blk->hdr, blk->nhdr, &msg);
    if (!rd->wtr) {
        file_error(c, 0, msg);
        g_free(msg);
        return false;
    }
    c->job->linktype = wtr_file_linktype(rd->wtr);
    rd->last.dlt = INT32_MIN;      /* no record read yet */
    return true;
}

static bool open_capture(struct file_ctx *c, FILE *fp, bool is_stdin, char *rbuf, struct blk *blk,
                         struct rdr *rd)
{
    struct stat sb;
    bool regular = fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode);
    memset(rd, 0, sizeof *rd);
    if (!is_stdin && regular && sb.st_size == 0) {
        file_error(c, 0, "empty file, not a capture");
        return false;
    }
    bool ok;
    if (blk_open(blk, fileno(fp))) {
        c->job->linktype = blk->linktype;
        blk->eager = c->rs->o->line_buffered;
        ok = true;
    } else if (blk_is_classic(blk)) {
        ok = open_libpcap(c, blk, rbuf, rd);
    } else {
        /* standard input is always fed through a pipe: its first bytes are read */
        ok = open_wiretap(c, fp, is_stdin || !regular, blk, rd);
    }
    if (ok) {
        c->fin.dlt = c->job->linktype;
        c->fin.link = link_of(c, c->fin.dlt);
        c->fin.dir = CSC_DIR_UNKNOWN;
    }
    return ok;
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
        file_error(c, 0, j->error);
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
        file_error(c, 0, msg);
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
