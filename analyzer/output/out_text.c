/*
 * out_text.c - the text format: a summary of the run (and with -v one line
 * per frame that has a finding, -vv with its kernel trace; --compare -v one
 * line per frame whose outcome differs). The summary's GRO engine section
 * and the --compare table are out_text_summary.c's.
 */
#include "out.h"

#include "stats.h"

/* "proto@off": a layer of a datagram the frame completed (csc_frag_feed)
 * sits at an offset in that datagram, not in the frame: "proto@reasm+off" */
static void text_at(struct wbuf *w, const struct csc_layer *l)
{
    wb_puts(w, csc_proto_name(l->proto));
    wb_putc(w, '@');
    if (l->notes & CSC_N_REASSEMBLED)
        WB_LIT(w, "reasm+");
    wb_u64(w, l->off);
}

/* --color: SGR escapes as grep writes them (file names magenta, frame
 * numbers green), bad checksums and drops bold red, the other findings
 * yellow, accepts green; nothing without --color */
#define SGR_FILE "35"
#define SGR_FRAME "32"
#define SGR_BAD "1;31"
#define SGR_NOTE "33"
#define SGR_GOOD "32"

static void sgr(struct wbuf *w, const struct out_file *f, const char *code)
{
    if (!f->color)
        return;
    WB_LIT(w, "\033[");
    wb_puts(w, code);
    wb_putc(w, 'm');
}

static void sgr_end(struct wbuf *w, const struct out_file *f)
{
    if (f->color)
        WB_LIT(w, "\033[m");
}

/* a word in color: s between sgr(code) and sgr_end */
static void colored(struct wbuf *w, const struct out_file *f, const char *code, const char *s)
{
    sgr(w, f, code);
    wb_puts(w, s);
    sgr_end(w, f);
}

/* "accept|drop [at proto@off reason counters...]": a replay's verdict (the
 * frame's, or its wire frame's at the peer) */
static void text_kverdict(struct wbuf *w, const struct out_file *f, const struct csc_result *r,
                          uint8_t verdict, uint8_t drop_layer, uint8_t drop_reason, uint32_t counters)
{
    colored(w, f, verdict == CSC_K_DROP ? SGR_BAD : verdict == CSC_K_ACCEPT ? SGR_GOOD : SGR_NOTE,
            csc_kverdict_name(verdict));
    if (verdict != CSC_K_DROP)
        return;
    if (drop_layer < out_nlayers(r)) {
        WB_LIT(w, " at ");
        text_at(w, &r->layers[drop_layer]);
    }
    wb_putc(w, ' ');
    wb_puts(w, csc_drop_name(drop_reason));
    for (uint32_t c = counters; c; c &= c - 1) {
        wb_putc(w, ' ');
        wb_puts(w, csc_counter_name((unsigned)__builtin_ctz(c)));
    }
}

/* "accept|drop [at proto@off reason counters...], N sw passes/B bytes" */
static void text_verdict(struct wbuf *w, const struct out_file *f, const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    text_kverdict(w, f, r, k->verdict, k->drop_layer, k->drop_reason, k->counters);
    WB_LIT(w, ", ");
    wb_u64(w, k->sw_passes);
    WB_LIT(w, " sw passes/");
    wb_u64(w, k->sw_bytes);
    WB_LIT(w, " bytes");
}

/* "nic merged into 1, vxlan held" */
static void text_gro_fates(struct wbuf *w, const struct csc_gro_decision *gd)
{
    if (!gd || !gd->n) {
        WB_LIT(w, "not fed");
        return;
    }
    for (unsigned i = 0; i < gd->n; i++) {
        const struct csc_gro_fate *f = &gd->fate[i];
        if (i)
            WB_LIT(w, ", ");
        wb_puts(w, csc_dev_name(f->kind));
        wb_putc(w, ' ');
        if (f->merged) {
            WB_LIT(w, "merged into ");
            wb_u64(w, f->super);
            if (f->gso_lost)
                WB_LIT(w, " (lost at the UDP socket: GSO)");
        } else if (f->held) {
            WB_LIT(w, "held");
        } else {
            WB_LIT(w, "alone (");
            wb_puts(w, csc_gro_reason_name(f->alone_reason));
            wb_putc(w, ')');
        }
        if (f->flushed_other) {
            WB_LIT(w, ", flushed ");
            wb_puts(w, csc_gro_flush_name(f->flushed_other));
        }
        if (f->order_dep)
            WB_LIT(w, " (depends on the NIC's order)");
    }
}

/* "file:frame:" */
static void text_frame_head(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    colored(w, f, SGR_FILE, f->name);
    wb_putc(w, ':');
    sgr(w, f, SGR_FRAME);
    wb_u64(w, v->frame);
    sgr_end(w, f);
    wb_putc(w, ':');
}

/* " sent (pkttype):", " probably sent (guess):"; nothing for a received frame */
static void text_direction(struct wbuf *w, const struct csc_result *r)
{
    if (r->direction != CSC_DIR_OUT)
        return;
    wb_puts(w, r->dir_from == CSC_DF_GUESS ? " probably sent (" : " sent (");
    wb_puts(w, csc_dir_from_name(r->dir_from));
    WB_LIT(w, "):");
}

/* every layer whose verdict is not good, and why decoding stopped early */
static bool text_findings(struct wbuf *w, const struct out_file *f, const struct csc_result *r)
{
    bool any = false;
    for (unsigned i = 0; i < out_nlayers(r); i++) {
        const struct csc_layer *l = &r->layers[i];
        if (!out_has_csum(l) || l->verdict == CSC_V_GOOD)
            continue;
        wb_puts(w, any ? ", " : " ");
        any = true;
        text_at(w, l);
        wb_putc(w, ' ');
        colored(w, f, l->verdict == CSC_V_BAD ? SGR_BAD : SGR_NOTE, csc_verdict_name(l->verdict));
        if (l->reason) {
            WB_LIT(w, " (");
            wb_puts(w, csc_reason_name(l->reason));
            wb_putc(w, ')');
        }
        if (l->verdict == CSC_V_BAD) {
            WB_LIT(w, " field ");
            wb_hex16(w, l->field);
            WB_LIT(w, " expected ");
            wb_hex16(w, l->expected);
        }
    }
    if (csc_stop_is_finding(r->stop)) {
        char why[96];
        struct csc_stop_info si;
        csc_stop_get(r, &si);
        wb_puts(w, any ? "; " : " ");
        any = true;
        wb_puts(w, csc_stop_describe(&si, why, sizeof why));
    }
    return any;
}

/* --peer-rx: "; peer: accept", "; peer: drop at udp@40 UDP_CSUM UdpInCsumErrors ...",
 * "; peer: not replayed (gso)" */
static void text_peer(struct wbuf *w, const struct out_file *f, const struct csc_result *r)
{
    const struct csc_tx_peer *p = &r->tx.peer;
    if (!p->ran && !p->not_why)
        return;
    WB_LIT(w, "; peer: ");
    if (!p->ran) {
        WB_LIT(w, "not replayed (");
        wb_puts(w, csc_tx_peer_not_name(p->not_why));
        wb_putc(w, ')');
        return;
    }
    text_kverdict(w, f, r, p->verdict, p->drop_layer, p->drop_reason, p->counters);
}

/* a sent frame: "sent, not received; tx: tcp@90 partial 0x1c46 -> 0x9b1e, udp@40 lco
 * 0x15f8 as is[, gso 4 segments of mss 1448 (mtu)][; peer: ...]" (outermost first) */
static void text_tx(struct wbuf *w, const struct out_file *f, const struct csc_result *r)
{
    const struct csc_tx *tx = &r->tx;
    WB_LIT(w, "sent, not received; tx:");
    if (!tx->n)
        WB_LIT(w, " nothing left to the NIC");
    for (unsigned e = tx->n < CSC_TX_MAX ? tx->n : CSC_TX_MAX; e-- > 0;) {
        const struct csc_tx_csum *c = &tx->c[e];
        if (c->layer >= out_nlayers(r))
            continue;
        wb_puts(w, e + 1 == tx->n ? " " : ", ");
        text_at(w, &r->layers[c->layer]);
        wb_putc(w, ' ');
        wb_puts(w, csc_tx_kind_name(c->kind));
        wb_putc(w, ' ');
        wb_hex16(w, c->field);
        if (c->kind == CSC_TX_LCO)
            WB_LIT(w, " as is");
        else if (c->wire_known) {
            WB_LIT(w, " -> ");
            wb_hex16(w, c->wire);
        } else
            WB_LIT(w, " -> per segment");
    }
    if (tx->gso && tx->segs) {
        wb_printf(w, ", gso %u segments of mss %u (%s)", tx->segs, tx->mss,
                  csc_mss_from_name(tx->mss_from));
    }
    text_peer(w, f, r);
}

/* the frame's line up to its GRO fate */
static void text_line(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    const struct csc_kernel *k = &v->r->kernel;
    text_frame_head(w, f, v);
    text_direction(w, v->r);
    wb_puts(w, text_findings(w, f, v->r) ? "; kernel: " : " kernel: ");
    if (!k->ran && k->verdict == CSC_K_SENT) {
        text_tx(w, f, v->r);
        return;
    }
    if (!k->ran) {
        WB_LIT(w, "not run");
        return;
    }
    text_verdict(w, f, v->r);
    if (k->warnings) {
        WB_LIT(w, "; warnings:");
        for (uint32_t b = k->warnings; b; b &= b - 1) {
            wb_putc(w, ' ');
            wb_puts(w, csc_warning_name((unsigned)__builtin_ctz(b)));
        }
    }
}

/* -v: one line per frame with a finding (the --show ones: render_start) */
static bool text_frame(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    if (!f->frames || !v->findings)
        return false;
    text_line(w, f, v);
    return true;
}

void text_comment(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    text_line(w, f, v);
}

void text_comment_fate(struct wbuf *w, const struct csc_gro_decision *gd)
{
    if (gd && gd->n) {
        WB_LIT(w, "; gro: ");
        text_gro_fates(w, gd);
    }
}

static void text_fate(struct wbuf *w, const struct out_file *f, const struct csc_gro_decision *gd)
{
    (void)f;
    text_comment_fate(w, gd);
}

/* one step of the trace: "    nic gro udp@34 udp4_gro_receive: sw-pass ok 170 bytes  [..]" */
static void text_step(struct wbuf *w, const struct csc_result *r, const struct csc_step *s)
{
    const struct csc_kernel *k = &r->kernel;
    WB_LIT(w, "    ");
    wb_puts(w, s->dev < k->ndevs ? csc_dev_name(k->devs[s->dev].kind) : "?");
    wb_putc(w, ' ');
    wb_puts(w, csc_path_name(s->path));
    wb_putc(w, ' ');
    if (s->layer < out_nlayers(r)) {
        text_at(w, &r->layers[s->layer]);
    } else {
        wb_putc(w, '-');
    }
    wb_putc(w, ' ');
    wb_puts(w, csc_fn_name(s->fn));
    WB_LIT(w, ": ");
    wb_puts(w, csc_what_name(s->what));
    if (s->ok == CSC_TRI_YES)
        WB_LIT(w, " ok");
    else if (s->ok == CSC_TRI_NO)
        WB_LIT(w, " FAILED");
    if (s->bytes) {
        wb_putc(w, ' ');
        wb_u64(w, s->bytes);
        WB_LIT(w, " bytes");
    }
    WB_LIT(w, "  [");
    wb_puts(w, csc_ip_summed_name(s->before.ip_summed));
    wb_putc(w, '/');
    wb_u64(w, s->before.csum_level);
    WB_LIT(w, " -> ");
    wb_puts(w, csc_ip_summed_name(s->after.ip_summed));
    wb_putc(w, '/');
    wb_u64(w, s->after.csum_level);
    if (s->after.csum_valid)
        WB_LIT(w, " valid");
    WB_LIT(w, "]\n");
}

/* the end of the line; -vv: the kernel trace under it */
static void text_frame_end(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    const struct csc_kernel *k = &v->r->kernel;
    wb_putc(w, '\n');
    if (!out_traces(f->o) || !k->ran)
        return;
    unsigned ns = k->nsteps < CSC_MAX_STEPS ? k->nsteps : CSC_MAX_STEPS;
    for (unsigned i = 0; i < ns; i++)
        text_step(w, v->r, &k->steps[i]);
}

static void text_outcome(struct wbuf *w, const struct out_file *f, const struct csc_result *r,
                         const struct csc_gro_decision *gd)
{
    if (!r->kernel.ran) {
        WB_LIT(w, "not run");
        return;
    }
    text_verdict(w, f, r);
    WB_LIT(w, ", gro: ");
    text_gro_fates(w, gd);
}

/* --compare -v: "file:frame: A: ... | B: ..." */
static void text_diff(struct wbuf *w, const struct out_file *f, const struct frame_view *v,
                      const struct csc_result *const *r, const struct csc_gro_decision *const *gd)
{
    text_frame_head(w, f, v);
    for (unsigned i = 0; i < f->nruns; i++) {
        wb_puts(w, i ? " | " : " ");
        wb_puts(w, f->runs[i].label);
        WB_LIT(w, ": ");
        text_outcome(w, f, r[i], gd[i]);
    }
    wb_putc(w, '\n');
}

/* --baseline: "FILE:FRAME: changed since the baseline: was ...; now ..." */
static void text_baseline(struct wbuf *w, const struct out_file *f, uint64_t frame, const char *was,
                          const char *now, size_t nnow)
{
    wb_puts(w, f->name);
    wb_printf(w, ":%ju: changed since the baseline: ", (uintmax_t)frame);
    wb_puts(w, was ? "was " : "not in the baseline");
    if (was)
        wb_puts(w, was);
    wb_puts(w, now ? "; now " : "; now not in the capture");
    if (now)
        wb_write(w, now, nnow);
    wb_putc(w, '\n');
}

const struct out_format out_text = {
    .name = "text",
    .escape = wb_text_name,
    .frames_from_v = 1,        /* -v: a line per frame with a finding */
    .trace_from_v = 2,         /* -vv: and its trace */
    .show_default = FD_ACTION, /* a line per frame that needs action (--show none: the others) */
    .frame_bytes = 256,
    .frame = text_frame,
    .fate = text_fate,
    .frame_end = text_frame_end,
    .diff = text_diff,
    .baseline = text_baseline,
    .summary = text_summary,
    .compare = text_compare,
};
