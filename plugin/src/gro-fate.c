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

#include "fields.h"

#include <epan/proto_data.h>
#include <epan/wmem_scopes.h>

#include <string.h>

static guint pref_budget = 64, pref_flush_timeout = 0, pref_max_size = 65536, pref_poll_gap = 100;

static struct csc_gro *engine;         /* ~0.5 MB: one per process, reset per file */
static wmem_map_t *heads;              /* first-segment frame number -> its struct pl_frame */


void pl_gro_init(uint64_t era_sw)
{
    struct csc_gro_cfg c;
    csc_gro_cfg_default(&c);
    c.budget = (uint16_t)(pref_budget && pref_budget <= 65535 ? pref_budget : c.budget);
    c.flush_timeout_us = pref_flush_timeout;
    c.max_size = pref_max_size ? pref_max_size : c.max_size;
    c.poll_gap_us = pref_poll_gap;
    c.era_sw = era_sw;
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


void pl_gro_fate_text(const struct pl_frame *s, unsigned i, struct sb *out)
{
    if (i >= s->nfate)
        return;
    const struct pl_fate *f = &pl_fates(s)[i];
    switch (fate_of(f)) {
    case CSC_FATE_ALONE:
        sb_s(out, "; GRO engine: alone (");
        sb_s(out, csc_gro_reason_name(f->alone_reason));
        sb_s(out, ")");
        break;
    case CSC_FATE_HELD:
        sb_s(out, "; GRO engine: held, first of ");
        sb_u(out, f->segs);
        sb_s(out, f->segs == 1 ? " segment so far" : " segments so far");
        break;
    default:
        sb_s(out, "; GRO engine: merged into the super-packet of frame ");
        sb_u(out, f->super);
    }
    if (f->flushed) {
        sb_s(out, ", flushed a held packet (");
        sb_s(out, csc_gro_flush_name(f->flushed));
        sb_s(out, ")");
    }
    if (f->order_dep)
        sb_s(out, " (depends on the order the NIC sends packets up)");
}

void pl_gro_render_dev(tvbuff_t *tvb, proto_tree *dt, const struct pl_frame *s, unsigned i)
{
    if (i >= s->nfate)
        return;   /* merged at the NIC: the tunnel device sees the super-packet, not this frame */
    const struct pl_fate *f = &pl_fates(s)[i];
    unsigned fate = fate_of(f);
    pl_gen(proto_tree_add_string(dt, hf_fate, tvb, 0, 0, csc_gro_fate_name(fate)));
    if (fate != CSC_FATE_ALONE) {   /* why alone: in the device's label, and csumcheck.gro */
        pl_gen(proto_tree_add_uint(dt, hf_super, tvb, 0, 0, f->super));
        if (f->segs)
            pl_gen(proto_tree_add_uint(dt, hf_segs, tvb, 0, 0, f->segs));
    }
    if (f->flushed)
        pl_gen(proto_tree_add_string(dt, hf_flushed, tvb, 0, 0, csc_gro_flush_name(f->flushed)));
}

bool pl_gro_fields_referenced(proto_tree *t)
{
    return proto_field_is_referenced(t, hf_fate) || proto_field_is_referenced(t, hf_super) ||
           proto_field_is_referenced(t, hf_segs) || proto_field_is_referenced(t, hf_flushed);
}

void pl_gro_register_prefs(module_t *module)
{
    prefs_register_uint_preference(module, "gro_budget", "GRO engine: NAPI budget",
                                   "Frames per NAPI poll (--gro-budget; 1-65535, default 64)", 10,
                                   &pref_budget);
    prefs_register_uint_preference(module, "gro_flush_timeout", "GRO engine: gro_flush_timeout (us)",
                                   "0: held packets leave at the end of each poll (--gro-flush-timeout)",
                                   10, &pref_flush_timeout);
    prefs_register_uint_preference(module, "gro_max_size", "GRO engine: gro_max_size",
                                   "Largest super-packet in bytes (--gro-max-size, default 65536)", 10,
                                   &pref_max_size);
    prefs_register_uint_preference(module, "poll_gap", "GRO engine: poll gap (us)",
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
