/*
 * frame.c - the steps of one frame, shared by both ways through a file (run.c
 * in capture order, pipeline.c over the worker threads): [csc_rewrite()]
 * csc_analyze_fast()) -> csc_frag_feed() -> counters -> the GRO engine ->
 * renderers, -w selection, --fail-on, --baseline; and what names the flow a
 * frame opened at one device. This is the hot path: nothing is allocated per
 * frame, nothing goes through stdio per frame.
 */
#include "frame.h"

#include "baseline.h"
#include "filter.h"
#include "stop.h"
#include "wout.h"

#include "csumcheck/rewrite.h"

#include <string.h>


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
static void flow_layers_of(struct flow_layers *x, const struct csc_result *r, unsigned l0)
{
    unsigned ips[2] = { FLOW_NO_LAYER, FLOW_NO_LAYER }, l4s[2] = { FLOW_NO_LAYER, FLOW_NO_LAYER };
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    x->l0 = (uint8_t)l0;
    x->tun = FLOW_NO_LAYER;
    for (unsigned i = l0; i < n; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_QUOTED)
            break;
        if (l->proto == CSC_P_IPV4 || l->proto == CSC_P_IPV6) {
            if (ips[0] == FLOW_NO_LAYER)
                ips[0] = i;
            ips[1] = i;
            l4s[1] = FLOW_NO_LAYER;
        } else if ((l->proto == CSC_P_UDP || l->proto == CSC_P_TCP) && ips[1] != FLOW_NO_LAYER &&
                   l4s[1] == FLOW_NO_LAYER) {
            l4s[1] = i;
            if (ips[1] == ips[0])
                l4s[0] = i;
        } else if (x->tun == FLOW_NO_LAYER && csc_proto_is_tunnel(l->proto)) {
            x->tun = (uint8_t)i;
        }
    }
    if (ips[1] == ips[0])      /* no inner IP: the inner endpoint stays empty */
        ips[1] = FLOW_NO_LAYER;
    for (int k = 0; k < 2; k++) {
        x->ip[k] = (uint8_t)ips[k];
        x->l4[k] = (uint8_t)l4s[k];
    }
}

/* The references of one device from its layers */
static void flow_ref_fill(struct flow_ref *ref, const struct csc_result *r, const struct flow_layers *x)
{
    memset(ref, 0, sizeof *ref);
    if (x->tun != FLOW_NO_LAYER) {
        ref->tunnel = r->layers[x->tun].proto;
        ref->tunnel_id = csc_layer_id(&r->layers[x->tun]);
    }
    for (int k = 0; k < 2; k++) {
        if (x->ip[k] == FLOW_NO_LAYER)
            continue;
        const struct csc_layer *ip = &r->layers[x->ip[k]];
        ref->ip_proto[k] = ip->proto;
        ref->addr_off[k] = ip->u.ip.addr_off;
        if (x->l4[k] != FLOW_NO_LAYER) {
            const struct csc_layer *l4 = &r->layers[x->l4[k]];
            ref->l4_proto[k] = l4->proto;
            ref->sport[k] = l4->u.ports.sport;
            ref->dport[k] = l4->u.ports.dport;
        }
    }
}

/* The references of every device of a frame that carries a TCP segment.
 * A frame a plan served (served: csc_fast_served, shapes given) takes its
 * devices' layers from what the plan's first frame found. */
void flow_refs_of(struct flow_ref *refs, const struct csc_result *r, const struct csc_gro_input *in,
                  struct flow_shapes *shapes, uint64_t served)
{
    struct flow_layers x;
    if (served && shapes && r->kernel.reasm_dev == CSC_NO_DEV) {
        struct flow_shape *e = &shapes->e[served & (FLOW_SHAPES - 1)];
        if (e->serial != served || e->ndevs != in->ndevs) {
            e->serial = served;
            e->ndevs = in->ndevs;
            for (unsigned i = 0; i < in->ndevs; i++)
                flow_layers_of(&e->d[i], r, in->dev[i].layer);
        }
        for (unsigned i = 0; i < in->ndevs; i++)
            if (in->dev[i].tcp)
                flow_ref_fill(&refs[i], r, &e->d[i]);
        return;
    }
    for (unsigned i = 0; i < in->ndevs; i++)
        if (in->dev[i].tcp) {
            flow_layers_of(&x, r, in->dev[i].layer);
            flow_ref_fill(&refs[i], r, &x);
        }
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

/* --peer-rx: a sent frame's wire frame (csc_tx_wire, into wire) analysed as
 * received (into scratch) at a receiver with the run's peer report; on a
 * loopback or virtual interface the receiver gets the skb as it was sent
 * (report virtual: docs/direction.md). Its outcome into r->tx.peer. */
static void peer_replay(const struct cli_run *run, struct csc_result *r, struct csc_result *scratch,
                        uint8_t *wire, const struct csc_frame *fa)
{
    struct csc_frame wf = { wire, 0, 0, fa->link, CSC_DIR_IN };
    wf.caplen = wf.wirelen = (uint32_t)csc_tx_wire(fa, r, wire, RW_BUF);
    if (!wf.wirelen)
        return;
    struct csc_config pc = run->cfg;
    pc.rx = run->peer_rx;
    if (r->via != CSC_VIA_NIC)
        pc.rx.kind = CSC_RX_VIRTUAL;
    pc.replay_sent = true;           /* the receiver receives it, whatever it looks like */
    pc.via = CSC_VIA_NIC;
    pc.trace_steps = false;
    csc_analyze(&pc, &wf, scratch);
    const struct csc_kernel *k = &scratch->kernel;
    struct csc_tx_peer *p = &r->tx.peer;
    p->ran = k->ran;
    p->verdict = k->ran ? k->verdict : CSC_K_UNKNOWN;
    p->drop_layer = k->verdict == CSC_K_DROP && k->drop_layer < r->nlayers ? k->drop_layer
                                                                            : CSC_NO_LAYER;
    p->drop_reason = k->drop_reason;
    p->counters = k->counters;
    p->warnings = k->warnings;
}

/* The frame under one configuration: rewritten first when the run says so
 * (into *rw, over rwbuf), analysed into r; a sent frame's wire frame replayed
 * at the peer (--peer-rx: rwbuf's second half, base). Returns the frame analysed. */
const struct csc_frame *analyse_result(const struct cli_run *run, struct csc_fast *fp,
                                       struct csc_result *r, struct csc_result *base,
                                       uint8_t *rwbuf, const struct csc_frame *f0,
                                       struct csc_frame *rw)
{
    const struct csc_frame *fa = f0;
    if (run->rewrite) {   /* what-if: rewrite the frame, then replay the result */
        csc_analyze_fast(&run->cfg, f0, base, fp);
        rw->data = rwbuf;
        rw->caplen = (uint32_t)csc_rewrite(f0, base, run->rewrite, rwbuf, RW_BUF);
        rw->wirelen = f0->wirelen;
        rw->link = f0->link;
        rw->direction = f0->direction;
        fa = rw;
    }
    csc_analyze_fast(&run->cfg, fa, r, fp);
    if (run->peer_on && r->tx.sent)
        peer_replay(run, r, base, rwbuf + RW_BUF, fa);
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
        analyse_result(rf->run, rf->fp, &rf->r, rf->base, rf->rwbuf, f0, &rw);
    csc_frag_feed(&rf->frag, fa, &rf->r, n);
    uint32_t m = stats_account_shaped(&rf->st, &rf->r, f0, rf->stat_shapes, csc_fast_served(rf->fp));
    csc_gro_prepare_fast(fa, &rf->r, &rf->gin, rf->fp);
    flow_refs_of(rf->refs, &rf->r, &rf->gin, rf->shapes, csc_fast_served(rf->fp));
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

/* An input that cannot be read, or not to its end: a line on stderr and the
 * format's error record (frame 0: the file as a whole) */
void report_file_error(struct file_ctx *c, uint64_t frame, const char *msg)
{
    sink_error(c->rs->sink, "%s: %s", c->job->path, msg);
    if (c->fv.out.fmt->error)
        c->fv.out.fmt->error(&c->out, &c->fv.out, frame, msg);
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
            report_file_error(c, 0, why);
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
