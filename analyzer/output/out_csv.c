/*
 * out_csv.c - the CSV format: one row per checksummed layer of every frame
 * (a header row first); with --compare one row per figure of the two runs
 * (metric,a,b,differs). RFC 4180 quoting where a field needs it.
 */
#include "out.h"

#include "compare.h"

#include <stdio.h>

/* a cell and the comma that ends it */
static void csv_word(struct wbuf *w, const char *s)
{
    wb_puts(w, s);
    wb_putc(w, ',');
}

static void csv_u64(struct wbuf *w, uint64_t v)
{
    wb_u64(w, v);
    wb_putc(w, ',');
}

static void csv_hex(struct wbuf *w, uint16_t v)
{
    wb_hex16(w, v);
    wb_putc(w, ',');
}

static void csv_begin(struct wbuf *w, const struct cli_opts *o)
{
    if (o->nruns == 1)
        WB_LIT(w, "file,frame,caplen,len,layer,proto,offset,verdict,reason,field,expected,"
                  "resolved,method,path,device,ok,passes,pass_bytes,kernel_verdict,drop_layer,"
                  "drop_reason,direction,direction_from,stop,stop_proto,stop_offset,stop_value,stop_option,"
                  "tx,tx_wire,peer_verdict\n");
}

/* the frame's part of a row: file,frame,caplen,len, */
static void csv_frame_cells(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    csv_word(w, f->name);
    csv_u64(w, v->frame);
    csv_u64(w, v->h->caplen);
    csv_u64(w, v->h->len);
}

/* the replay's part: method,path,device,ok,passes,pass_bytes, */
static void csv_replay_cells(struct wbuf *w, const struct csc_kernel *k, const struct csc_layer *l)
{
    csv_word(w, csc_method_name(l->k.method));
    csv_word(w, csc_path_name(l->k.path));
    if (k->ran && l->k.method != CSC_M_NOT_REACHED && l->k.dev < k->ndevs)
        wb_puts(w, csc_dev_name(k->devs[l->k.dev].kind));
    wb_putc(w, ',');
    if (l->k.ok != CSC_TRI_UNDECIDED && l->k.method != CSC_M_NOT_REACHED)
        wb_u64(w, l->k.ok);
    wb_putc(w, ',');
    csv_u64(w, l->k.passes);
    csv_u64(w, l->k.pass_bytes);
}

/* why decoding ended early: ,stop,stop_proto,stop_offset,stop_value,stop_option (empty
 * at the end of the payload) */
static void csv_stop_cells(struct wbuf *w, const struct csc_result *r)
{
    if (r->stop == CSC_STOP_END) {
        WB_LIT(w, ",,,,,");
        return;
    }
    wb_putc(w, ',');
    csv_word(w, csc_stop_name(r->stop));
    csv_word(w, csc_proto_name(r->stop_proto));
    csv_u64(w, r->stop_off);
    if (r->stop_has_value)
        wb_u64(w, r->stop_value);
    wb_putc(w, ',');
    struct csc_stop_info si;
    csc_stop_get(r, &si);
    const char *opt = csc_stop_option(&si);
    if (opt)
        wb_puts(w, opt);
}

/* a sent frame's TX view, of layer i (CSC_NO_LAYER: none): ,tx,tx_wire (what
 * was left to the NIC at this layer, what the wire carries), ,peer_verdict
 * (--peer-rx: the wire frame's verdict; "not-replayed" with no replay) */
static void csv_tx_cells(struct wbuf *w, const struct csc_result *r, unsigned i)
{
    const struct csc_tx *tx = &r->tx;
    const struct csc_tx_csum *c = NULL;
    for (unsigned e = 0; tx->sent && e < tx->n && e < CSC_TX_MAX; e++)
        if (tx->c[e].layer == i)
            c = &tx->c[e];
    wb_putc(w, ',');
    if (c)
        wb_puts(w, csc_tx_kind_name(c->kind));
    wb_putc(w, ',');
    if (c && c->wire_known)
        wb_hex16(w, c->wire);
    wb_putc(w, ',');
    if (tx->sent && tx->peer.ran)
        wb_puts(w, csc_kverdict_name(tx->peer.verdict));
    else if (tx->sent && tx->peer.not_why)
        wb_puts(w, "not-replayed");
}

/* the frame's outcome: kernel_verdict,drop_layer,drop_reason, then its direction
 * (direction,direction_from: empty when unknown), its stop and the TX view of layer i */
static void csv_outcome_cells(struct wbuf *w, const struct csc_result *r, unsigned i)
{
    const struct csc_kernel *k = &r->kernel;
    csv_word(w, k->ran || k->verdict == CSC_K_SENT ? csc_kverdict_name(k->verdict) : "unknown");
    if (k->ran && k->verdict == CSC_K_DROP) {
        if (k->drop_layer < out_nlayers(r))
            wb_u64(w, k->drop_layer);
        wb_putc(w, ',');
        wb_csv_field(w, csc_drop_name(k->drop_reason));
    } else {
        wb_putc(w, ',');
    }
    wb_putc(w, ',');
    if (r->direction == CSC_DIR_IN || r->direction == CSC_DIR_OUT) {
        wb_puts(w, csc_direction_name(r->direction));
        wb_putc(w, ',');
        wb_puts(w, csc_dir_from_name(r->dir_from));
    } else {
        wb_putc(w, ',');
    }
    csv_stop_cells(w, r);
    csv_tx_cells(w, r, i);
    wb_putc(w, '\n');
}

/* A frame with a stop but no checksummed layer still gets a row: the layer
 * that carries the stop (or none), no verdict. */
static void csv_stop_row(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    const struct csc_result *r = v->r;
    csv_frame_cells(w, f, v);
    if (r->stop_layer < out_nlayers(r)) {
        const struct csc_layer *l = &r->layers[r->stop_layer];
        csv_u64(w, r->stop_layer);
        csv_word(w, csc_proto_name(l->proto));
        wb_u64(w, l->off);
    } else {
        WB_LIT(w, ",,");
    }
    wb_putc(w, ',');
    wb_puts(w, csc_verdict_name(CSC_V_NA));
    WB_LIT(w, ",,,,,,,,,,,");   /* reason .. pass_bytes */
    csv_outcome_cells(w, r, CSC_NO_LAYER);
}

static bool csv_frame(struct wbuf *w, const struct out_file *f, const struct frame_view *v)
{
    const struct csc_result *r = v->r;
    if (!f->frames)
        return false;
    bool rows = false;
    for (unsigned i = 0; i < out_nlayers(r); i++) {
        const struct csc_layer *l = &r->layers[i];
        if (!out_has_csum(l))
            continue;
        rows = true;
        csv_frame_cells(w, f, v);
        csv_u64(w, i);
        csv_word(w, csc_proto_name(l->proto));
        csv_u64(w, l->off);
        csv_word(w, csc_verdict_name(l->verdict));
        csv_word(w, csc_reason_name(l->reason));
        csv_hex(w, l->field);
        csv_hex(w, l->expected);
        if (l->verdict == CSC_V_RCO || l->verdict == CSC_V_LCO)
            wb_hex16(w, l->resolved);
        wb_putc(w, ',');
        csv_replay_cells(w, &r->kernel, l);
        csv_outcome_cells(w, r, i);
    }
    if (!rows && r->stop != CSC_STOP_END)
        csv_stop_row(w, f, v);
    return true;
}

static void csv_compare(struct wbuf *w, const struct out_summary *s)
{
    GArray *rows = compare_rows(s->runs);
    WB_LIT(w, "metric,a,b,differs\n");
    for (unsigned i = 0; i < rows->len; i++) {
        const struct row *r = &g_array_index(rows, struct row, i);
        char x[32], y[32];
        row_value(x, sizeof x, r, r->a, 3);
        row_value(y, sizeof y, r, r->b, 3);
        wb_csv_field(w, r->key);
        wb_printf(w, ",%s,%s,%s\n", x, y, row_differs(r) ? "yes" : "no");
    }
    g_array_free(rows, TRUE);
}

const struct out_format out_csv = {
    .name = "csv",
    .escape = wb_csv_field,
    .frames_from_v = 0,
    .trace_from_v = -1,
    .frame_bytes = 512,        /* a few rows */
    .begin = csv_begin,
    .frame = csv_frame,
    .compare = csv_compare,
};
