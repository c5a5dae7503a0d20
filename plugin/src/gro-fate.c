/*
 * gro-fate.c - the GRO engine inside the plugin (see gro-fate.h).
 *
 * The engine needs frames in capture order, which only the first pass
 * guarantees (later passes, and the GUI, go in any order). So each frame's
 * fate is computed once, stored in its summary, and rendered from there. A
 * super-packet's segment count lives on its first segment and grows as
 * later segments merge: complete once the file has been read (the GUI,
 * tshark -2), partial in a single-pass tshark run for frames printed before
 * their last segment arrived.
 */
#include "gro-fate.h"

#include <epan/proto_data.h>
#include <epan/wmem_scopes.h>

#include <stdio.h>
#include <string.h>

static int hf_engine = -1;
static int hf_fate = -1;
static int hf_super = -1;
static int hf_segs = -1;
static int hf_alone = -1;
static int hf_flushed = -1;

static guint pref_budget = 64, pref_flush_timeout = 0, pref_max_size = 65536, pref_poll_gap = 100;

static struct csc_gro *engine;         /* ~0.5 MB: one per process, reset per file */
static wmem_map_t *heads;              /* first-segment frame number -> its struct pl_frame */

static value_string vals_fate[CSC_FATE__COUNT + 1];
static value_string vals_reason[CSC_G__COUNT + 1];

void pl_gro_init(void)
{
    struct csc_gro_cfg c;
    csc_gro_cfg_default(&c);
    c.budget = (uint16_t)(pref_budget && pref_budget <= 65535 ? pref_budget : c.budget);
    c.flush_timeout_us = pref_flush_timeout;
    c.max_size = pref_max_size ? pref_max_size : c.max_size;
    c.poll_gap_us = pref_poll_gap;
    if (!engine)
        engine = g_new(struct csc_gro, 1);
    csc_gro_init(engine, &c);
    heads = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
}

static unsigned fate_of(const struct pl_fate *f)
{
    return csc_gro_fate_kind(f->held, f->merged);
}

void pl_gro_feed(const struct csc_frame *f, const struct csc_result *r, const packet_info *pinfo,
                 struct pl_frame *s)
{
    struct csc_gro_decision d;
    uint64_t ts_us = (uint64_t)pinfo->abs_ts.secs * 1000000u + (uint64_t)pinfo->abs_ts.nsecs / 1000u;
    csc_gro_feed(engine, f, r, pinfo->num, ts_us, &d);
    pl_set_fates(s, &d, pinfo->num);

    const struct pl_fate *fa = pl_fates(s);
    for (unsigned i = 0; i < s->nfate; i++) {
        if (fate_of(&fa[i]) == CSC_FATE_HELD && fa[i].super == pinfo->num)
            wmem_map_insert(heads, GUINT_TO_POINTER(pinfo->num), s);
        if (fate_of(&fa[i]) != CSC_FATE_MERGED)
            continue;
        struct pl_frame *h = (struct pl_frame *)wmem_map_lookup(heads, GUINT_TO_POINTER(fa[i].super));
        struct pl_fate *hf = h ? pl_fates_mut(h) : NULL;
        for (unsigned j = 0; h && j < h->nfate; j++)
            if (hf[j].kind == fa[i].kind && hf[j].super == fa[i].super && hf[j].segs < 0xffff)
                hf[j].segs++;
    }
}

void pl_gro_words(const struct pl_frame *s, char *buf, size_t n)
{
    const struct pl_fate *fa = pl_fates(s);
    size_t at = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < s->nfate && at < n; i++) {
        const char *dev = csc_dev_name(fa[i].kind), *sep = i ? ", " : "";
        int w;
        switch (fate_of(&fa[i])) {
        case CSC_FATE_MERGED:
            w = snprintf(buf + at, n - at, "%s%s merged into %u", sep, dev, fa[i].super);
            break;
        case CSC_FATE_HELD:
            w = snprintf(buf + at, n - at, "%s%s held", sep, dev);
            break;
        default:
            w = snprintf(buf + at, n - at, "%s%s alone (%s)", sep, dev,
                         csc_gro_reason_name(fa[i].alone_reason));
        }
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

static proto_item *gen(proto_item *pi)
{
    proto_item_set_generated(pi);
    return pi;
}

void pl_gro_render_frame(tvbuff_t *tvb, proto_tree *t, const struct pl_frame *s)
{
    if (!s->nfate)
        return;
    char words[160];
    pl_gro_words(s, words, sizeof words);
    gen(proto_tree_add_string(t, hf_engine, tvb, 0, 0, words));
}

void pl_gro_render_dev(tvbuff_t *tvb, proto_tree *dt, const struct pl_frame *s, unsigned i)
{
    if (i >= s->nfate)
        return;   /* merged at the NIC: the tunnel device sees the super-packet, not this frame */
    const struct pl_fate *f = &pl_fates(s)[i];
    unsigned fate = fate_of(f);
    proto_item *fi = gen(proto_tree_add_uint(dt, hf_fate, tvb, 0, 0, fate));
    if (fate == CSC_FATE_ALONE) {
        proto_item_append_text(fi, " (%s)", csc_gro_reason_name(f->alone_reason));
        gen(proto_tree_add_uint(dt, hf_alone, tvb, 0, 0, f->alone_reason));
    } else {
        gen(proto_tree_add_uint(dt, hf_super, tvb, 0, 0, f->super));
        if (f->segs) {
            proto_item_append_text(fi, ": first segment of a super-packet of %u so far", f->segs);
            gen(proto_tree_add_uint(dt, hf_segs, tvb, 0, 0, f->segs));
        } else {
            proto_item_append_text(fi, " into the super-packet of frame %u", f->super);
        }
    }
    if (f->flushed)
        gen(proto_tree_add_string(dt, hf_flushed, tvb, 0, 0, csc_gro_flush_name(f->flushed)));
}

void pl_gro_register(int proto, module_t *prefs)
{
    for (unsigned i = 0; i < CSC_FATE__COUNT; i++)
        vals_fate[i] = (value_string){ i, csc_gro_fate_name(i) };
    vals_fate[CSC_FATE__COUNT] = (value_string){ 0, NULL };
    for (unsigned i = 0; i < CSC_G__COUNT; i++)
        vals_reason[i] = (value_string){ i, csc_gro_reason_name(i) };
    vals_reason[CSC_G__COUNT] = (value_string){ 0, NULL };

    static hf_register_info hf[] = {
        { &hf_engine, { "GRO engine", "csumcheck.gro.engine", FT_STRING, BASE_NONE, NULL, 0,
                        "What GRO did with the frame across frames, per device: merged into which "
                        "super-packet, held, or why alone", HFILL } },
        { &hf_fate, { "GRO engine", "csumcheck.dev.fate", FT_UINT8, BASE_NONE, VALS(vals_fate), 0,
                      "held: first segment of a super-packet; merged: into an earlier one; alone: "
                      "passed up at once", HFILL } },
        { &hf_super, { "Super-packet", "csumcheck.dev.super", FT_FRAMENUM, BASE_NONE, NULL, 0,
                       "Frame of the super-packet's first segment", HFILL } },
        { &hf_segs, { "Segments merged", "csumcheck.dev.super_segs", FT_UINT16, BASE_DEC, NULL, 0,
                      "On a first segment: segments in its super-packet (itself included)", HFILL } },
        { &hf_alone, { "Alone because", "csumcheck.dev.alone", FT_UINT8, BASE_NONE, VALS(vals_reason), 0,
                       NULL, HFILL } },
        { &hf_flushed, { "Flushed a held packet", "csumcheck.dev.flushed", FT_STRING, BASE_NONE, NULL, 0,
                         "Why a held super-packet left the GRO list when this frame arrived", HFILL } },
    };
    proto_register_field_array(proto, hf, array_length(hf));

    prefs_register_uint_preference(prefs, "gro_budget", "GRO engine: NAPI budget",
                                   "Frames per NAPI poll (--gro-budget; 1-65535, default 64)", 10,
                                   &pref_budget);
    prefs_register_uint_preference(prefs, "gro_flush_timeout", "GRO engine: gro_flush_timeout (us)",
                                   "0: held packets leave at the end of each poll (--gro-flush-timeout)",
                                   10, &pref_flush_timeout);
    prefs_register_uint_preference(prefs, "gro_max_size", "GRO engine: gro_max_size",
                                   "Largest super-packet in bytes (--gro-max-size, default 65536)", 10,
                                   &pref_max_size);
    prefs_register_uint_preference(prefs, "poll_gap", "GRO engine: poll gap (us)",
                                   "A gap between frames longer than this ends a NAPI poll (--poll-gap, "
                                   "default 100)", 10, &pref_poll_gap);
}

const char *pl_gro_pref_error(void)
{
    if (pref_budget == 0 || pref_budget > 65535)
        return "csumcheck.gro_budget must be 1-65535; using 64";
    if (pref_max_size == 0)
        return "csumcheck.gro_max_size must not be 0; using 65536";
    return NULL;
}
