/*
 * out_json.c - the JSON Lines format (docs/json.md is the contract): one
 * {"type":"packet"} record per frame, {"type":"frame-diff"} per frame whose
 * outcome differs under --compare, {"type":"error"} per input that could
 * not be read; the closing summary is out_json_summary.c's. Every word comes
 * from the core's csc_*_name() tables; every comma from the writer (jw.h).
 */
#include "out.h"

#include "jw.h"
#include "stats.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* "layer": a layer's index in the stack, null when it names none */
static void json_layer_member(struct jw *j, const struct csc_result *r, uint8_t i)
{
    JW_KEY(j, "layer");
    if (i < out_nlayers(r))
        wb_u64(j->w, i);
    else
        WB_LIT(j->w, "null");
}

/* enum csc_tri in JSON: true, false, null (not decided) */
static void json_tri(struct wbuf *w, uint8_t ok)
{
    if (ok == CSC_TRI_YES)
        WB_LIT(w, "true");
    else if (ok == CSC_TRI_NO)
        WB_LIT(w, "false");
    else
        WB_LIT(w, "null");
}

/* an skb's checksum state, as a step's before/after and a device's entry state have it */
static void json_skb_state(struct jw *j, const struct csc_skb_state *s)
{
    JW_WORD(j, "ip_summed", csc_ip_summed_name(s->ip_summed));
    JW_U64(j, "csum_level", s->csum_level);
    JW_U64(j, "csum_valid", s->csum_valid);
}

static void json_skb(struct wbuf *w, const struct csc_skb_state *s)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    json_skb_state(&j, s);
    JW_U64(&j, "csum_bad", s->csum_bad);
    jw_end_obj(&j);
}

/* the layer's raw verdict: {"verdict":..,"field":..,...} */
static void json_csum(struct wbuf *w, const struct csc_layer *l)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "verdict", csc_verdict_name(l->verdict));
    JW_HEX(&j, "field", l->field);
    JW_HEX(&j, "expected", l->expected);
    JW_KEY(&j, "reason");
    if (l->reason)
        jw_str(&j, csc_reason_name(l->reason));
    else
        jw_null(&j);
    bool rco = out_rco_resolved(l);
    if (l->verdict == CSC_V_LCO || rco)
        JW_HEX(&j, "resolved", l->resolved);
    if (rco)
        JW_HEX(&j, "rco_delta", l->rco_delta);
    jw_end_obj(&j);
}

/* how the replay resolved the layer's checksum */
static void json_layer_kernel(struct wbuf *w, const struct csc_result *r, const struct csc_layer *l)
{
    const struct csc_layer_kernel *k = &l->k;
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "method", csc_method_name(k->method));
    JW_WORD(&j, "path", csc_path_name(k->path));
    JW_KEY(&j, "dev");             /* an index: "device" is always a name */
    if (k->method != CSC_M_NOT_REACHED && k->dev < r->kernel.ndevs)
        jw_u64(&j, k->dev);
    else
        jw_null(&j);
    JW_KEY(&j, "ok");
    json_tri(w, k->method == CSC_M_NOT_REACHED ? CSC_TRI_UNDECIDED : k->ok);
    JW_U64(&j, "passes", k->passes);
    JW_U64(&j, "pass_bytes", k->pass_bytes);
    JW_BOOL(&j, "gro_convert", k->gro_conv);
    JW_BOOL(&j, "convert", k->normal_conv);
    JW_BOOL(&j, "assumed", k->assumed);
    jw_end_obj(&j);
}

/* why decoding ended before the payload: {"reason","proto","offset"[,"value"][,"option"]} */
static void json_stop(struct jw *j, const struct csc_result *r)
{
    JW_OBJ(j, "stop");
    JW_WORD(j, "reason", csc_stop_name(r->stop));
    JW_WORD(j, "proto", csc_proto_name(r->stop_proto));
    JW_U64(j, "offset", r->stop_off);
    if (r->stop_has_value)
        JW_U64(j, "value", r->stop_value);
    struct csc_stop_info si;
    csc_stop_get(r, &si);
    const char *opt = csc_stop_option(&si);
    if (opt)
        JW_WORD(j, "option", opt);
    jw_end_obj(j);
}

static void json_layer(struct wbuf *w, const struct csc_result *r, unsigned i)
{
    const struct csc_layer *l = &r->layers[i];
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "proto", csc_proto_name(l->proto));
    JW_U64(&j, "offset", l->off);
    if (out_has_csum(l)) {
        JW_KEY(&j, "csum");
        json_csum(w, l);
        JW_KEY(&j, "kernel");
        json_layer_kernel(w, r, l);
    }
    if (l->notes & CSC_N_RCO) {
        JW_OBJ(&j, "rco");
        JW_U64(&j, "start", l->rco_start);
        JW_U64(&j, "offset", l->rco_offset);
        jw_end_obj(&j);
    }
    if (l->notes) {
        JW_KEY(&j, "notes");
        jw_bits(w, l->notes, csc_note_name);
    }
    if (r->stop != CSC_STOP_END && r->stop_layer == i)
        json_stop(&j, r);
    jw_end_obj(&j);
}

static void json_drop(struct wbuf *w, const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    struct jw j = jw_on(w);
    jw_obj(&j);
    json_layer_member(&j, r, k->drop_layer);
    JW_KEY(&j, "proto");
    if (k->drop_layer < out_nlayers(r))
        jw_str(&j, csc_proto_name(r->layers[k->drop_layer].proto));
    else
        jw_null(&j);
    JW_STR(&j, "reason", csc_drop_name(k->drop_reason));
    JW_KEY(&j, "counters");
    jw_bits(w, k->counters, csc_counter_name);
    jw_end_obj(&j);
}

/* one receiving device's GRO result, after its "device" */
static void json_dev_gro(struct jw *j, const struct csc_result *r, const struct csc_dev *dv)
{
    JW_BOOL(j, "ran", dv->gro_ran);
    JW_WORD(j, "result", csc_gro_reason_name(dv->gro_reason));
    json_layer_member(j, r, dv->gro_layer);
    JW_U64(j, "passes", dv->gro_passes);
    JW_U64(j, "pass_bytes", dv->gro_pass_bytes);
}

/* one receiving device's skb state at entry, after its "device" */
static void json_dev_entry(struct jw *j, const struct csc_result *r, const struct csc_dev *dv)
{
    json_layer_member(j, r, dv->layer);
    json_skb_state(j, &dv->entry);
    JW_U64(j, "passes", dv->passes);
    JW_U64(j, "pass_bytes", dv->pass_bytes);
}

/* one step of the replay's trace (-v) */
static void json_step(struct wbuf *w, const struct csc_result *r, const struct csc_step *s)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_U64(&j, "dev", s->dev);
    JW_WORD(&j, "path", csc_path_name(s->path));
    json_layer_member(&j, r, s->layer);
    JW_STR(&j, "fn", csc_fn_name(s->fn));
    JW_STR(&j, "what", csc_what_name(s->what));
    JW_KEY(&j, "ok");
    json_tri(w, s->ok);
    JW_U64(&j, "bytes", s->bytes);
    JW_KEY(&j, "before");
    json_skb(w, &s->before);
    JW_KEY(&j, "after");
    json_skb(w, &s->after);
    JW_OBJ(&j, "cb");
    JW_U64(&j, "csum_cnt", s->cb.csum_cnt);
    JW_U64(&j, "csum_valid", s->cb.csum_valid);
    JW_U64(&j, "flush", s->cb.flush);
    JW_U64(&j, "encap_mark", s->cb.encap_mark);
    jw_end_obj(&j);
    jw_end_obj(&j);
}

/* "drop":{"layer":..,"reason":..}: a drop where only its place and reason are told
 * (--peer-rx's outcome, a frame-diff run) */
static void json_drop_brief(struct jw *j, const struct csc_result *r, uint8_t layer, uint8_t reason)
{
    JW_OBJ(j, "drop");
    json_layer_member(j, r, layer);
    JW_STR(j, "reason", csc_drop_name(reason));
    jw_end_obj(j);
}

/* "key":[{"device":..,..},..]: one object per receiving device, its other
 * members written by members() */
static void json_devs(struct jw *j, const char *key, const struct csc_result *r, unsigned nd,
                      void (*members)(struct jw *, const struct csc_result *, const struct csc_dev *))
{
    jw_key(j, key);
    jw_arr(j);
    for (unsigned d = 0; d < nd; d++) {
        const struct csc_dev *dv = &r->kernel.devs[d];
        jw_elem(j);
        struct jw o = jw_on(j->w);
        jw_obj(&o);
        JW_WORD(&o, "device", csc_dev_name(dv->kind));
        members(&o, r, dv);
        jw_end_obj(&o);
    }
    jw_end_arr(j);
}

/* the members of the kernel object after the configuration */
static void json_kernel_ran(struct jw *j, const struct csc_result *r, bool steps)
{
    const struct csc_kernel *k = &r->kernel;
    unsigned nd = k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS;
    if (k->verdict == CSC_K_DROP) {
        JW_KEY(j, "drop");
        json_drop(j->w, r);
    }
    JW_KEY(j, "counters");
    jw_bits(j->w, k->counters, csc_counter_name);
    JW_U64(j, "sw_passes", k->sw_passes);
    JW_U64(j, "sw_bytes", k->sw_bytes);
    JW_U64(j, "hdr_bytes", k->hdr_bytes);
    json_devs(j, "gro", r, nd, json_dev_gro);
    json_devs(j, "entry_state", r, nd, json_dev_entry);
    JW_KEY(j, "warnings");
    jw_bits(j->w, k->warnings, csc_warning_name);
    if (!steps)
        return;
    unsigned ns = k->nsteps < CSC_MAX_STEPS ? k->nsteps : CSC_MAX_STEPS;
    JW_BOOL(j, "trace_truncated", k->trace_truncated);
    JW_ARR(j, "steps");
    for (unsigned i = 0; i < ns; i++) {
        jw_elem(j);
        json_step(j->w, r, &k->steps[i]);
    }
    jw_end_arr(j);
}

/* a sent frame's TX view (docs/json.md, tx): what was left to the NIC, the
 * super-packet's segments, --peer-rx's outcome */
static void json_tx(struct jw *j, const struct csc_result *r)
{
    const struct csc_tx *tx = &r->tx;
    JW_OBJ(j, "tx");
    JW_ARR(j, "left");
    for (unsigned e = tx->n < CSC_TX_MAX ? tx->n : CSC_TX_MAX; e-- > 0;) {
        const struct csc_tx_csum *c = &tx->c[e];
        jw_elem(j);
        struct jw o = jw_on(j->w);
        jw_obj(&o);
        json_layer_member(&o, r, c->layer);
        JW_WORD(&o, "kind", csc_tx_kind_name(c->kind));
        JW_HEX(&o, "field", c->field);
        if (c->wire_known)
            JW_HEX(&o, "wire", c->wire);
        if (c->kind != CSC_TX_LCO) {
            JW_U64(&o, "csum_start", c->csum_start);
            JW_U64(&o, "csum_offset", c->csum_offset);
        }
        jw_end_obj(&o);
    }
    jw_end_arr(j);
    if (tx->gso) {
        JW_OBJ(j, "gso");
        JW_U64(j, "segs", tx->segs);
        JW_U64(j, "mss", tx->mss);
        JW_WORD(j, "mss_from", csc_mss_from_name(tx->mss_from));
        jw_end_obj(j);
    }
    const struct csc_tx_peer *p = &tx->peer;
    if (p->ran || p->not_why) {
        JW_OBJ(j, "peer");
        JW_BOOL(j, "ran", p->ran);
        JW_WORD(j, "verdict", csc_kverdict_name(p->ran ? p->verdict : CSC_K_UNKNOWN));
        if (!p->ran)
            JW_WORD(j, "not_replayed", csc_tx_peer_not_name(p->not_why));
        if (p->ran && p->verdict == CSC_K_DROP)
            json_drop_brief(j, r, p->drop_layer, p->drop_reason);
        JW_KEY(j, "counters");
        jw_bits(j->w, p->counters, csc_counter_name);
        JW_KEY(j, "warnings");
        jw_bits(j->w, p->warnings, csc_warning_name);
        jw_end_obj(j);
    }
    jw_end_obj(j);
}

static void json_kernel(struct wbuf *w, const struct out_file *f, const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    struct jw j = jw_on(w);
    jw_obj(&j);
    jw_members(&j, f->kernel_members);
    JW_BOOL(&j, "ran", k->ran);
    JW_WORD(&j, "verdict", csc_kverdict_name(k->ran || k->verdict == CSC_K_SENT ? k->verdict
                                                                                : CSC_K_UNKNOWN));
    if (k->ran) {
        json_kernel_ran(&j, r, out_traces(f->o));
    } else {
        WB_LIT(w, ",\"counters\":[],\"sw_passes\":0,\"sw_bytes\":0,\"gro\":[],"
                  "\"entry_state\":[]");
        JW_KEY(&j, "warnings");
        jw_bits(w, k->warnings, csc_warning_name);   /* e.g. not-modelled without a replay */
    }
    jw_end_obj(&j);
}

/* "sec.nanoseconds" */
static void json_ts(struct wbuf *w, const struct pcap_pkthdr *h)
{
    char frac[10];
    uint32_t ns = (uint32_t)h->ts.tv_usec;   /* nanoseconds: files are opened NANO */
    for (int i = 8; i >= 0; i--) {
        frac[i] = (char)('0' + ns % 10);
        ns /= 10;
    }
    frac[9] = 0;
    wb_putc(w, '"');
    if (h->ts.tv_sec < 0) {
        wb_putc(w, '-');
        wb_u64(w, (uint64_t)(-(int64_t)h->ts.tv_sec));
    } else {
        wb_u64(w, (uint64_t)h->ts.tv_sec);
    }
    wb_putc(w, '.');
    wb_write(w, frac, 9);
    wb_putc(w, '"');
}

/* type, file, frame, ts, caplen, len: every frame record starts so */
static void json_frame_head(struct jw *j, const char *type, const struct out_file *f,
                            const struct frame_view *v)
{
    jw_obj(j);
    JW_KEYQ(j, "type");
    wb_puts(j->w, type);
    wb_putc(j->w, '"');
    JW_KEY(j, "file");
    wb_puts(j->w, f->name);
    JW_U64(j, "frame", v->frame);
    JW_KEY(j, "ts");
    json_ts(j->w, v->h);
    JW_U64(j, "caplen", v->h->caplen);
    JW_U64(j, "len", v->h->len);
}

static bool json_frame(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    const struct csc_result *r = v->r;
    struct jw j = jw_on(w);
    json_frame_head(&j, "packet", f, v);
    if (r->direction == CSC_DIR_IN || r->direction == CSC_DIR_OUT) {
        JW_WORD(&j, "direction", csc_direction_name(r->direction));
        JW_WORD(&j, "direction_from", csc_dir_from_name(r->dir_from));
    }
    if (r->pkttype != CSC_NO_PKTTYPE)
        JW_WORD(&j, "pkttype", csc_pkttype_name(r->pkttype));
    if (r->via != CSC_VIA_NIC)
        JW_WORD(&j, "via", csc_via_name(r->via));
    JW_WORD(&j, "worst", csc_verdict_name(r->worst));
    JW_KEY(&j, "findings");
    jw_bits(j.w, v->findings, cli_finding_name);
    if (r->stop != CSC_STOP_END)
        json_stop(&j, r);
    if (r->gso_segs_known)
        JW_U64(&j, "gso_segs", r->gso_segs);
    JW_ARR(&j, "layers");
    for (unsigned i = 0; i < out_nlayers(r); i++) {
        jw_elem(&j);
        json_layer(w, r, i);
    }
    jw_end_arr(&j);
    JW_KEY(&j, "kernel");
    json_kernel(w, f, r);
    if (r->tx.sent)
        json_tx(&j, r);
    return true;   /* the record stays open for its GRO fate */
}

static void json_gro_fate(struct wbuf *w, const struct csc_gro_fate *fa)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "device", csc_dev_name(fa->kind));
    JW_WORD(&j, "fate", csc_gro_fate_name(csc_gro_fate_kind(fa->held, fa->merged)));
    if (fa->held)
        JW_U64(&j, "super", fa->super);
    else
        JW_WORD(&j, "reason", csc_gro_reason_name(fa->alone_reason));
    if (fa->flushed_other)
        JW_WORD(&j, "flushed", csc_gro_flush_name(fa->flushed_other));
    if (fa->gso_lost)
        JW_WORD(&j, "lost", "udp-gso");
    if (fa->order_dep)
        JW_WORD(&j, "depends", "nic-order");
    jw_end_obj(&j);
}

static void json_gro_fates(struct wbuf *w, const struct csc_gro_decision *gd)
{
    struct jw j = jw_on(w);
    jw_arr(&j);
    for (unsigned i = 0; gd && i < gd->n; i++) {
        jw_elem(&j);
        json_gro_fate(w, &gd->fate[i]);
    }
    jw_end_arr(&j);
}

/* the GRO fate closes the packet record */
static void json_fate(struct wbuf *w, const struct out_file *f, const struct csc_gro_decision *gd)
{
    struct jw j = { w, false };   /* inside the packet record */
    (void)f;
    JW_KEY(&j, "gro_fate");
    json_gro_fates(w, gd);
    WB_LIT(w, "}\n");
}

/* one run's outcome of a frame, for a frame-diff record */
static void json_outcome(struct wbuf *w, const struct csc_result *r,
                         const struct csc_gro_decision *gd, const char *label)
{
    const struct csc_kernel *k = &r->kernel;
    unsigned nd = k->ran ? (k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS) : 0;
    struct jw jo = jw_on(w), *j = &jo;
    jw_obj(j);
    JW_STR(j, "run", label);
    JW_WORD(j, "worst", csc_verdict_name(r->worst));
    JW_WORD(j, "verdict", k->ran || k->verdict == CSC_K_SENT ? csc_kverdict_name(k->verdict)
                                                              : "unknown");
    if (k->ran && k->verdict == CSC_K_DROP)
        json_drop_brief(j, r, k->drop_layer, k->drop_reason);
    JW_KEY(j, "counters");
    jw_bits(j->w, k->ran ? k->counters : 0, csc_counter_name);
    JW_U64(j, "sw_passes", k->ran ? k->sw_passes : 0);
    JW_U64(j, "sw_bytes", k->ran ? k->sw_bytes : 0);
    JW_ARR(j, "gro");
    for (unsigned d = 0; d < nd; d++) {
        jw_elem(j);
        jw_word(j, csc_gro_reason_name(k->devs[d].gro_reason));
    }
    jw_end_arr(j);
    JW_KEY(j, "gro_fate");
    json_gro_fates(w, gd);
    jw_end_obj(j);
}

static void json_diff(struct wbuf *w, const struct out_file *f, const struct frame_view *v,
                      const struct csc_result *const *r, const struct csc_gro_decision *const *gd)
{
    struct jw j = jw_on(w);
    json_frame_head(&j, "frame-diff", f, v);
    JW_ARR(&j, "runs");
    for (unsigned i = 0; i < f->nruns; i++) {
        jw_elem(&j);
        json_outcome(w, r[i], gd[i], f->runs[i].label);
    }
    jw_end_arr(&j);
    jw_end_obj(&j);
    wb_putc(w, '\n');
}

static void json_error(struct wbuf *w, const struct out_file *f, uint64_t frame, const char *msg)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "type", "error");
    JW_KEY(&j, "file");
    wb_puts(w, f->name);
    if (frame)
        JW_U64(&j, "frame", frame);
    JW_STR(&j, "message", msg);
    jw_end_obj(&j);
    wb_putc(w, '\n');
}

/* --baseline: {"type":"baseline-change","file","frame","was","now"} */
static void json_baseline(struct wbuf *w, const struct out_file *f, uint64_t frame, const char *was,
                          const char *now, size_t nnow)
{
    struct jw j = jw_on(w);
    jw_obj(&j);
    JW_WORD(&j, "type", "baseline-change");
    JW_KEY(&j, "file");
    wb_puts(w, f->name);
    JW_U64(&j, "frame", frame);
    JW_KEY(&j, "was");
    if (was)
        jw_str(&j, was);
    else
        jw_null(&j);
    JW_KEY(&j, "now");
    if (now) {
        char *s = g_strndup(now, nnow);
        jw_str(&j, s);
        g_free(s);
    } else {
        jw_null(&j);
    }
    jw_end_obj(&j);
    wb_putc(w, '\n');
}

static void flush_to_file(struct wbuf *w)
{
    fwrite(w->p, 1, w->len, w->ctx);
}

void json_error_line(FILE *out, const char *path, const char *msg)
{
    char tmp[1024];
    struct wbuf w = { tmp, 0, sizeof tmp, flush_to_file, out };
    struct out_file f;
    memset(&f, 0, sizeof f);
    f.name = wb_escaped(wb_json_str, path);
    json_error(&w, &f, 0, msg);
    wb_flush(&w);
    g_free(f.name);
}

const struct out_format out_json = {
    .name = "json",
    .escape = wb_json_str,
    .frames_from_v = 0,
    .trace_from_v = 1,
    .frame_bytes = 2048,
    .frame = json_frame,
    .fate = json_fate,
    .diff = json_diff,
    .error = json_error,
    .flow = json_flow_record,
    .baseline = json_baseline,
    .summary = json_summary,
    .compare = json_compare,
};
