/*
 * render.c - one frame's csc_result as a JSON Lines object, CSV rows or a
 * text finding line. Every string of the vocabulary comes from the core's
 * csc_*_name() tables; docs/json.md is the contract.
 */
#include "cli.h"

#include <string.h>

#define LIT(w, s) wb_write((w), s, sizeof(s) - 1)

static unsigned nlayers(const struct csc_result *r)
{
    return r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
}

static bool has_csum(const struct csc_layer *l)
{
    return l->csum_off != CSC_NO_OFF || l->verdict != CSC_V_NA;
}

/* "key":value with the key a string literal */
#define KEY_U64(w, key, v) (LIT(w, "\"" key "\":"), wb_u64((w), (v)))
#define KEY_BOOL(w, key, v) ((v) ? LIT(w, "\"" key "\":true") : LIT(w, "\"" key "\":false"))

/* enum csc_tri in JSON: true, false, null (not decided) */
static void json_tristate(struct wbuf *w, uint8_t ok)
{
    if (ok == CSC_TRI_YES)
        LIT(w, "true");
    else if (ok == CSC_TRI_NO)
        LIT(w, "false");
    else
        LIT(w, "null");
}

static void json_hex(struct wbuf *w, uint16_t v)
{
    wb_putc(w, '"');
    wb_hex16(w, v);
    wb_putc(w, '"');
}

static void json_bits(struct wbuf *w, uint32_t bits, const char *(*name)(unsigned))
{
    wb_putc(w, '[');
    for (uint32_t b = bits, first = 1; b; b &= b - 1, first = 0) {
        if (!first)
            wb_putc(w, ',');
        wb_json_str(w, name((unsigned)__builtin_ctz(b)));
    }
    wb_putc(w, ']');
}

static void json_layer_index(struct wbuf *w, const struct csc_result *r, uint8_t i)
{
    if (i < nlayers(r))
        wb_u64(w, i);
    else
        LIT(w, "null");
}

static void json_skb(struct wbuf *w, const struct csc_skb_state *s)
{
    LIT(w, "{\"ip_summed\":\"");
    wb_puts(w, csc_ip_summed_name(s->ip_summed));
    LIT(w, "\",\"csum_level\":");
    wb_u64(w, s->csum_level);
    LIT(w, ",\"csum_valid\":");
    wb_u64(w, s->csum_valid);
    LIT(w, ",\"csum_bad\":");
    wb_u64(w, s->csum_bad);
    wb_putc(w, '}');
}

/* An inner checksum remcsum_adjust was computed for: resolved good (rco) or
 * bad for an RCO reason that still leaves a resolved value. */
static bool rco_resolved(const struct csc_layer *l)
{
    return l->reason == CSC_R_RCO || l->reason == CSC_R_RCO_WRONG_SEED ||
           l->reason == CSC_R_RCO_OUTER_BAD || l->reason == CSC_R_RCO_OUTER_MISSING;
}

static void json_layer(struct wbuf *w, const struct csc_result *r, unsigned i)
{
    const struct csc_layer *l = &r->layers[i];
    LIT(w, "{\"proto\":\"");
    wb_puts(w, csc_proto_name(l->proto));
    LIT(w, "\",\"offset\":");
    wb_u64(w, l->off);
    if (has_csum(l)) {
        LIT(w, ",\"csum\":{\"verdict\":\"");
        wb_puts(w, csc_verdict_name(l->verdict));
        LIT(w, "\",\"field\":");
        json_hex(w, l->field);
        LIT(w, ",\"expected\":");
        json_hex(w, l->expected);
        LIT(w, ",\"reason\":");
        if (l->reason)
            wb_json_str(w, csc_reason_name(l->reason));
        else
            LIT(w, "null");
        if (l->verdict == CSC_V_LCO || rco_resolved(l)) {
            LIT(w, ",\"resolved\":");
            json_hex(w, l->resolved);
        }
        if (rco_resolved(l)) {
            LIT(w, ",\"rco_delta\":");
            json_hex(w, l->rco_delta);
        }
        wb_putc(w, '}');
        const struct csc_layer_kernel *k = &l->k;
        LIT(w, ",\"kernel\":{\"method\":\"");
        wb_puts(w, csc_method_name(k->method));
        LIT(w, "\",\"path\":\"");
        wb_puts(w, csc_path_name(k->path));
        LIT(w, "\",\"device\":");
        if (k->method != CSC_M_NOT_REACHED && k->dev < r->kernel.ndevs)
            wb_u64(w, k->dev);
        else
            LIT(w, "null");
        LIT(w, ",\"ok\":");
        json_tristate(w, k->method == CSC_M_NOT_REACHED ? CSC_TRI_UNDECIDED : k->ok);
        LIT(w, ",");
        KEY_U64(w, "passes", k->passes);
        LIT(w, ",");
        KEY_U64(w, "pass_bytes", k->pass_bytes);
        LIT(w, ",");
        KEY_BOOL(w, "gro_convert", k->gro_conv);
        LIT(w, ",");
        KEY_BOOL(w, "convert", k->normal_conv);
        LIT(w, ",");
        KEY_BOOL(w, "assumed", k->assumed);
        wb_putc(w, '}');
    }
    if (l->notes & CSC_N_RCO) {
        LIT(w, ",\"rco\":{\"start\":");
        wb_u64(w, l->rco_start);
        LIT(w, ",\"offset\":");
        wb_u64(w, l->rco_offset);
        wb_putc(w, '}');
    }
    if (l->notes) {
        LIT(w, ",\"notes\":");
        json_bits(w, l->notes, csc_note_name);
    }
    wb_putc(w, '}');
}

static void json_kernel(struct wbuf *w, const struct frame_view *v, bool steps)
{
    const struct csc_result *r = v->r;
    const struct csc_kernel *k = &r->kernel;
    wb_puts(w, v->kernel_prefix);
    if (!k->ran) {
        LIT(w, ",\"ran\":false,\"verdict\":\"unknown\",\"counters\":[],\"sw_passes\":0,"
               "\"sw_bytes\":0,\"gro\":[],\"entry_state\":[],\"warnings\":");
        json_bits(w, k->warnings, csc_warning_name);   /* e.g. not-modelled */
        wb_putc(w, '}');
        return;
    }
    LIT(w, ",\"ran\":true,\"verdict\":\"");
    wb_puts(w, csc_kverdict_name(k->verdict));
    wb_putc(w, '"');
    if (k->verdict == CSC_K_DROP) {
        LIT(w, ",\"drop\":{\"layer\":");
        json_layer_index(w, r, k->drop_layer);
        LIT(w, ",\"proto\":");
        if (k->drop_layer < nlayers(r))
            wb_json_str(w, csc_proto_name(r->layers[k->drop_layer].proto));
        else
            LIT(w, "null");
        LIT(w, ",\"reason\":");
        wb_json_str(w, csc_drop_name(k->drop_reason));
        LIT(w, ",\"counters\":");
        json_bits(w, k->counters, csc_counter_name);
        wb_putc(w, '}');
    }
    LIT(w, ",\"counters\":");
    json_bits(w, k->counters, csc_counter_name);
    LIT(w, ",");
    KEY_U64(w, "sw_passes", k->sw_passes);
    LIT(w, ",");
    KEY_U64(w, "sw_bytes", k->sw_bytes);
    LIT(w, ",");
    KEY_U64(w, "hdr_bytes", k->hdr_bytes);
    unsigned nd = k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS;
    LIT(w, ",\"gro\":[");
    for (unsigned d = 0; d < nd; d++) {
        const struct csc_dev *dv = &k->devs[d];
        if (d)
            wb_putc(w, ',');
        LIT(w, "{\"device\":\"");
        wb_puts(w, csc_dev_name(dv->kind));
        LIT(w, "\",");
        KEY_BOOL(w, "ran", dv->gro_ran);
        LIT(w, ",\"result\":\"");
        wb_puts(w, csc_gro_reason_name(dv->gro_reason));
        LIT(w, "\",\"layer\":");
        json_layer_index(w, r, dv->gro_layer);
        LIT(w, ",");
        KEY_U64(w, "passes", dv->gro_passes);
        LIT(w, ",");
        KEY_U64(w, "pass_bytes", dv->gro_pass_bytes);
        wb_putc(w, '}');
    }
    LIT(w, "],\"entry_state\":[");
    for (unsigned d = 0; d < nd; d++) {
        const struct csc_dev *dv = &k->devs[d];
        if (d)
            wb_putc(w, ',');
        LIT(w, "{\"device\":\"");
        wb_puts(w, csc_dev_name(dv->kind));
        LIT(w, "\",\"layer\":");
        json_layer_index(w, r, dv->layer);
        LIT(w, ",\"ip_summed\":\"");
        wb_puts(w, csc_ip_summed_name(dv->entry.ip_summed));
        LIT(w, "\",\"csum_level\":");
        wb_u64(w, dv->entry.csum_level);
        LIT(w, ",\"csum_valid\":");
        wb_u64(w, dv->entry.csum_valid);
        LIT(w, ",");
        KEY_U64(w, "passes", dv->passes);
        LIT(w, ",");
        KEY_U64(w, "pass_bytes", dv->pass_bytes);
        wb_putc(w, '}');
    }
    LIT(w, "],\"warnings\":");
    json_bits(w, k->warnings, csc_warning_name);
    if (steps) {
        unsigned ns = k->nsteps < CSC_MAX_STEPS ? k->nsteps : CSC_MAX_STEPS;
        if (k->trace_truncated)
            LIT(w, ",\"trace_truncated\":true");
        else
            LIT(w, ",\"trace_truncated\":false");
        LIT(w, ",\"steps\":[");
        for (unsigned i = 0; i < ns; i++) {
            const struct csc_step *s = &k->steps[i];
            if (i)
                wb_putc(w, ',');
            LIT(w, "{\"dev\":");
            wb_u64(w, s->dev);
            LIT(w, ",\"path\":\"");
            wb_puts(w, csc_path_name(s->path));
            LIT(w, "\",\"layer\":");
            json_layer_index(w, r, s->layer);
            LIT(w, ",\"fn\":");
            wb_json_str(w, csc_fn_name(s->fn));
            LIT(w, ",\"what\":");
            wb_json_str(w, csc_what_name(s->what));
            LIT(w, ",\"ok\":");
            json_tristate(w, s->ok);
            LIT(w, ",");
            KEY_U64(w, "bytes", s->bytes);
            LIT(w, ",\"before\":");
            json_skb(w, &s->before);
            LIT(w, ",\"after\":");
            json_skb(w, &s->after);
            LIT(w, ",\"cb\":{\"csum_cnt\":");
            wb_u64(w, s->cb.csum_cnt);
            LIT(w, ",\"csum_valid\":");
            wb_u64(w, s->cb.csum_valid);
            LIT(w, ",\"flush\":");
            wb_u64(w, s->cb.flush);
            LIT(w, ",\"encap_mark\":");
            wb_u64(w, s->cb.encap_mark);
            LIT(w, "}}");
        }
        wb_putc(w, ']');
    }
    wb_putc(w, '}');
}

static void ts(struct wbuf *w, const struct pcap_pkthdr *h)
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

void render_json_frame_start(struct wbuf *w, const struct frame_view *v, bool steps)
{
    const struct csc_result *r = v->r;
    LIT(w, "{\"type\":\"packet\",\"file\":");
    wb_puts(w, v->json_file);
    LIT(w, ",\"frame\":");
    wb_u64(w, v->frame);
    LIT(w, ",\"ts\":");
    ts(w, v->h);
    LIT(w, ",\"caplen\":");
    wb_u64(w, v->h->caplen);
    LIT(w, ",\"len\":");
    wb_u64(w, v->h->len);
    if (r->direction == CSC_DIR_IN)
        LIT(w, ",\"direction\":\"in\"");
    else if (r->direction == CSC_DIR_OUT)
        LIT(w, ",\"direction\":\"out\"");
    LIT(w, ",\"worst\":\"");
    wb_puts(w, csc_verdict_name(r->worst));
    LIT(w, "\",\"findings\":");
    json_bits(w, v->findings, cli_finding_name);
    if (r->stop != CSC_STOP_END) {
        LIT(w, ",\"stop\":{\"reason\":\"");
        wb_puts(w, csc_stop_name(r->stop));
        LIT(w, "\",\"proto\":\"");
        wb_puts(w, csc_proto_name(r->stop_proto));
        LIT(w, "\",\"offset\":");
        wb_u64(w, r->stop_off);
        wb_putc(w, '}');
    }
    if (r->gso_segs_known) {
        LIT(w, ",\"gso_segs\":");
        wb_u64(w, r->gso_segs);
    }
    LIT(w, ",\"layers\":[");
    for (unsigned i = 0; i < nlayers(r); i++) {
        if (i)
            wb_putc(w, ',');
        json_layer(w, r, i);
    }
    LIT(w, "],");
    json_kernel(w, v, steps);
}

/* ---- GRO engine fates --------------------------------------------------- */

static const char *fate_word(const struct csc_gro_fate *f)
{
    return csc_gro_fate_name(csc_gro_fate_kind(f->held, f->merged));
}

void render_json_gro_fate(struct wbuf *w, const struct csc_gro_decision *gd)
{
    wb_putc(w, '[');
    for (unsigned i = 0; gd && i < gd->n; i++) {
        const struct csc_gro_fate *f = &gd->fate[i];
        if (i)
            wb_putc(w, ',');
        LIT(w, "{\"device\":\"");
        wb_puts(w, csc_dev_name(f->kind));
        LIT(w, "\",\"fate\":\"");
        wb_puts(w, fate_word(f));
        wb_putc(w, '"');
        if (f->held) {
            LIT(w, ",\"super\":");
            wb_u64(w, f->super);
        } else {
            LIT(w, ",\"reason\":\"");
            wb_puts(w, csc_gro_reason_name(f->alone_reason));
            wb_putc(w, '"');
        }
        if (f->flushed_other) {
            LIT(w, ",\"flushed\":\"");
            wb_puts(w, csc_gro_flush_name(f->flushed_other));
            wb_putc(w, '"');
        }
        if (f->gso_lost)
            LIT(w, ",\"lost\":\"udp-gso\"");
        wb_putc(w, '}');
    }
    wb_putc(w, ']');
}

void render_json_frame_end(struct wbuf *w, const struct csc_gro_decision *gd)
{
    LIT(w, ",\"gro_fate\":");
    render_json_gro_fate(w, gd);
    LIT(w, "}\n");
}

/* "nic merged into 1, vxlan -" */
void render_text_gro_fate(struct wbuf *w, const struct csc_gro_decision *gd)
{
    if (!gd || !gd->n) {
        LIT(w, "not fed");
        return;
    }
    for (unsigned i = 0; i < gd->n; i++) {
        const struct csc_gro_fate *f = &gd->fate[i];
        if (i)
            LIT(w, ", ");
        wb_puts(w, csc_dev_name(f->kind));
        wb_putc(w, ' ');
        if (f->merged) {
            LIT(w, "merged into ");
            wb_u64(w, f->super);
            if (f->gso_lost)
                LIT(w, " (lost at the UDP socket: GSO)");
        } else if (f->held) {
            LIT(w, "held");
        } else {
            LIT(w, "alone (");
            wb_puts(w, csc_gro_reason_name(f->alone_reason));
            wb_putc(w, ')');
        }
        if (f->flushed_other) {
            LIT(w, ", flushed ");
            wb_puts(w, csc_gro_flush_name(f->flushed_other));
        }
    }
}

/* ---- --compare: frames whose outcome differs ------------------------------ */

static void json_outcome(struct wbuf *w, const struct csc_result *r,
                         const struct csc_gro_decision *gd, const char *label)
{
    const struct csc_kernel *k = &r->kernel;
    LIT(w, "{\"run\":");
    wb_json_str(w, label);
    LIT(w, ",\"worst\":\"");
    wb_puts(w, csc_verdict_name(r->worst));
    LIT(w, "\",\"verdict\":\"");
    wb_puts(w, k->ran ? csc_kverdict_name(k->verdict) : "unknown");
    wb_putc(w, '"');
    if (k->ran && k->verdict == CSC_K_DROP) {
        LIT(w, ",\"drop\":{\"layer\":");
        json_layer_index(w, r, k->drop_layer);
        LIT(w, ",\"reason\":");
        wb_json_str(w, csc_drop_name(k->drop_reason));
        wb_putc(w, '}');
    }
    LIT(w, ",\"counters\":");
    json_bits(w, k->ran ? k->counters : 0, csc_counter_name);
    LIT(w, ",");
    KEY_U64(w, "sw_passes", k->ran ? k->sw_passes : 0);
    LIT(w, ",");
    KEY_U64(w, "sw_bytes", k->ran ? k->sw_bytes : 0);
    LIT(w, ",\"gro\":[");
    unsigned nd = k->ran ? (k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS) : 0;
    for (unsigned d = 0; d < nd; d++) {
        if (d)
            wb_putc(w, ',');
        wb_putc(w, '"');
        wb_puts(w, csc_gro_reason_name(k->devs[d].gro_reason));
        wb_putc(w, '"');
    }
    LIT(w, "],\"gro_fate\":");
    render_json_gro_fate(w, gd);
    wb_putc(w, '}');
}

void render_json_frame_diff(struct wbuf *w, const struct frame_view *v, const struct cli_run *runs,
                            const struct csc_result *const *r,
                            const struct csc_gro_decision *const *gd, unsigned nruns)
{
    LIT(w, "{\"type\":\"frame-diff\",\"file\":");
    wb_puts(w, v->json_file);
    LIT(w, ",\"frame\":");
    wb_u64(w, v->frame);
    LIT(w, ",\"ts\":");
    ts(w, v->h);
    LIT(w, ",\"caplen\":");
    wb_u64(w, v->h->caplen);
    LIT(w, ",\"len\":");
    wb_u64(w, v->h->len);
    LIT(w, ",\"runs\":[");
    for (unsigned i = 0; i < nruns; i++) {
        if (i)
            wb_putc(w, ',');
        json_outcome(w, r[i], gd[i], runs[i].label);
    }
    LIT(w, "]}\n");
}

/* "accept|drop [at proto@off reason counters...], N sw passes/B bytes" */
static void text_verdict(struct wbuf *w, const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    wb_puts(w, csc_kverdict_name(k->verdict));
    if (k->verdict == CSC_K_DROP) {
        if (k->drop_layer < nlayers(r)) {
            LIT(w, " at ");
            wb_puts(w, csc_proto_name(r->layers[k->drop_layer].proto));
            wb_putc(w, '@');
            wb_u64(w, r->layers[k->drop_layer].off);
        }
        wb_putc(w, ' ');
        wb_puts(w, csc_drop_name(k->drop_reason));
        for (uint32_t c = k->counters; c; c &= c - 1) {
            wb_putc(w, ' ');
            wb_puts(w, csc_counter_name((unsigned)__builtin_ctz(c)));
        }
    }
    LIT(w, ", ");
    wb_u64(w, k->sw_passes);
    LIT(w, " sw passes/");
    wb_u64(w, k->sw_bytes);
    LIT(w, " bytes");
}

static void text_outcome(struct wbuf *w, const struct csc_result *r,
                         const struct csc_gro_decision *gd)
{
    if (!r->kernel.ran) {
        LIT(w, "not run");
        return;
    }
    text_verdict(w, r);
    LIT(w, ", gro: ");
    render_text_gro_fate(w, gd);
}

void render_text_frame_diff(struct wbuf *w, const struct frame_view *v, const struct cli_run *runs,
                            const struct csc_result *const *r,
                            const struct csc_gro_decision *const *gd, unsigned nruns)
{
    wb_puts(w, v->text_file);
    wb_putc(w, ':');
    wb_u64(w, v->frame);
    wb_putc(w, ':');
    for (unsigned i = 0; i < nruns; i++) {
        wb_puts(w, i ? " | " : " ");
        wb_puts(w, runs[i].label);
        LIT(w, ": ");
        text_outcome(w, r[i], gd[i]);
    }
    wb_putc(w, '\n');
}

void render_json_error(struct wbuf *w, const char *json_file, uint64_t frame, const char *msg)
{
    LIT(w, "{\"type\":\"error\",\"file\":");
    wb_puts(w, json_file);
    if (frame) {
        LIT(w, ",\"frame\":");
        wb_u64(w, frame);
    }
    LIT(w, ",\"message\":");
    wb_json_str(w, msg);
    LIT(w, "}\n");
}

/* ---- CSV ----------------------------------------------------------------- */

void render_csv_header(struct wbuf *w)
{
    LIT(w, "file,frame,caplen,len,layer,proto,offset,verdict,reason,field,expected,resolved,"
           "method,path,device,ok,passes,pass_bytes,kernel_verdict,drop_layer,drop_reason\n");
}

void render_csv_frame(struct wbuf *w, const struct frame_view *v)
{
    const struct csc_result *r = v->r;
    const struct csc_kernel *k = &r->kernel;
    for (unsigned i = 0; i < nlayers(r); i++) {
        const struct csc_layer *l = &r->layers[i];
        if (!has_csum(l))
            continue;
        wb_puts(w, v->csv_file);
        wb_putc(w, ',');
        wb_u64(w, v->frame);
        wb_putc(w, ',');
        wb_u64(w, v->h->caplen);
        wb_putc(w, ',');
        wb_u64(w, v->h->len);
        wb_putc(w, ',');
        wb_u64(w, i);
        wb_putc(w, ',');
        wb_puts(w, csc_proto_name(l->proto));
        wb_putc(w, ',');
        wb_u64(w, l->off);
        wb_putc(w, ',');
        wb_puts(w, csc_verdict_name(l->verdict));
        wb_putc(w, ',');
        wb_puts(w, csc_reason_name(l->reason));
        wb_putc(w, ',');
        wb_hex16(w, l->field);
        wb_putc(w, ',');
        wb_hex16(w, l->expected);
        wb_putc(w, ',');
        if (l->verdict == CSC_V_RCO || l->verdict == CSC_V_LCO)
            wb_hex16(w, l->resolved);
        wb_putc(w, ',');
        wb_puts(w, csc_method_name(l->k.method));
        wb_putc(w, ',');
        wb_puts(w, csc_path_name(l->k.path));
        wb_putc(w, ',');
        if (k->ran && l->k.method != CSC_M_NOT_REACHED && l->k.dev < k->ndevs)
            wb_puts(w, csc_dev_name(k->devs[l->k.dev].kind));
        wb_putc(w, ',');
        if (l->k.ok != CSC_TRI_UNDECIDED && l->k.method != CSC_M_NOT_REACHED)
            wb_u64(w, l->k.ok);
        wb_putc(w, ',');
        wb_u64(w, l->k.passes);
        wb_putc(w, ',');
        wb_u64(w, l->k.pass_bytes);
        wb_putc(w, ',');
        wb_puts(w, k->ran ? csc_kverdict_name(k->verdict) : "unknown");
        wb_putc(w, ',');
        if (k->ran && k->verdict == CSC_K_DROP) {
            if (k->drop_layer < nlayers(r))
                wb_u64(w, k->drop_layer);
            wb_putc(w, ',');
            wb_csv_field(w, csc_drop_name(k->drop_reason));
        } else {
            wb_putc(w, ',');
        }
        wb_putc(w, '\n');
    }
}

/* ---- text: one line per frame with a finding ------------------------------ */

void render_text_frame_start(struct wbuf *w, const struct frame_view *v)
{
    const struct csc_result *r = v->r;
    const struct csc_kernel *k = &r->kernel;
    bool any = false;
    wb_puts(w, v->text_file);
    wb_putc(w, ':');
    wb_u64(w, v->frame);
    wb_putc(w, ':');
    for (unsigned i = 0; i < nlayers(r); i++) {
        const struct csc_layer *l = &r->layers[i];
        if (!has_csum(l) || l->verdict == CSC_V_GOOD)
            continue;
        wb_puts(w, any ? ", " : " ");
        any = true;
        wb_puts(w, csc_proto_name(l->proto));
        wb_putc(w, '@');
        wb_u64(w, l->off);
        wb_putc(w, ' ');
        wb_puts(w, csc_verdict_name(l->verdict));
        if (l->reason) {
            LIT(w, " (");
            wb_puts(w, csc_reason_name(l->reason));
            wb_putc(w, ')');
        }
        if (l->verdict == CSC_V_BAD) {
            LIT(w, " field ");
            wb_hex16(w, l->field);
            LIT(w, " expected ");
            wb_hex16(w, l->expected);
        }
    }
    if (r->stop == CSC_STOP_TRUNCATED || r->stop == CSC_STOP_MALFORMED) {
        wb_puts(w, any ? "; " : " ");
        any = true;
        wb_puts(w, csc_stop_name(r->stop));
        wb_putc(w, ' ');
        wb_puts(w, csc_proto_name(r->stop_proto));
        wb_putc(w, '@');
        wb_u64(w, r->stop_off);
    }
    wb_puts(w, any ? "; kernel: " : " kernel: ");
    if (!k->ran) {
        LIT(w, "not run");
    } else {
        text_verdict(w, r);
        if (k->warnings) {
            LIT(w, "; warnings:");
            for (uint32_t b = k->warnings; b; b &= b - 1) {
                wb_putc(w, ' ');
                wb_puts(w, csc_warning_name((unsigned)__builtin_ctz(b)));
            }
        }
    }
}

/* "; gro: ..." between the start and the end of a -v line */
void render_text_frame_fate(struct wbuf *w, const struct csc_gro_decision *gd)
{
    if (gd && gd->n) {
        LIT(w, "; gro: ");
        render_text_gro_fate(w, gd);
    }
}

void render_text_frame_end(struct wbuf *w, const struct frame_view *v, int verbose)
{
    const struct csc_result *r = v->r;
    const struct csc_kernel *k = &r->kernel;
    wb_putc(w, '\n');
    if (verbose < 2 || !k->ran)
        return;
    unsigned ns = k->nsteps < CSC_MAX_STEPS ? k->nsteps : CSC_MAX_STEPS;
    for (unsigned i = 0; i < ns; i++) {
        const struct csc_step *s = &k->steps[i];
        LIT(w, "    ");
        wb_puts(w, s->dev < k->ndevs ? csc_dev_name(k->devs[s->dev].kind) : "?");
        wb_putc(w, ' ');
        wb_puts(w, csc_path_name(s->path));
        wb_putc(w, ' ');
        if (s->layer < nlayers(r)) {
            wb_puts(w, csc_proto_name(r->layers[s->layer].proto));
            wb_putc(w, '@');
            wb_u64(w, r->layers[s->layer].off);
        } else {
            wb_putc(w, '-');
        }
        wb_putc(w, ' ');
        wb_puts(w, csc_fn_name(s->fn));
        LIT(w, ": ");
        wb_puts(w, csc_what_name(s->what));
        if (s->ok == CSC_TRI_YES)
            LIT(w, " ok");
        else if (s->ok == CSC_TRI_NO)
            LIT(w, " FAILED");
        if (s->bytes) {
            wb_putc(w, ' ');
            wb_u64(w, s->bytes);
            LIT(w, " bytes");
        }
        LIT(w, "  [");
        wb_puts(w, csc_ip_summed_name(s->before.ip_summed));
        wb_putc(w, '/');
        wb_u64(w, s->before.csum_level);
        LIT(w, " -> ");
        wb_puts(w, csc_ip_summed_name(s->after.ip_summed));
        wb_putc(w, '/');
        wb_u64(w, s->after.csum_level);
        if (s->after.csum_valid)
            LIT(w, " valid");
        LIT(w, "]\n");
    }
}
