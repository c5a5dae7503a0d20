/*
 * stop-info.c - why decoding ended early, in the plugin (stop-info.h). The
 * words are the core's (csc_stop_name, csc_stop_describe, csc_stop_pref), so
 * the expert text reads as the CLI's -v line.
 */
#include "stop-info.h"

#include "fields.h"

#include <epan/expert.h>

/* An L2TPv3 sublayer length chosen from the bytes (no preference said it) */
static void guess_expert(packet_info *pinfo, proto_item *at, const struct pl_frame *s)
{
    if (s->l2spec_guessed)
        expert_add_info_format(pinfo, at, &ei_l2spec_guessed,
                               "L2TPv3 L2-specific sublayer of %u bytes, chosen from the bytes "
                               "(preference csumcheck.l2tp_l2spec_len says it)",
                               (unsigned)(s->l2spec_guessed - 1));
}

void pl_stop_expert(packet_info *pinfo, proto_item *at, const struct pl_frame *s)
{
    guess_expert(pinfo, at, s);
    const struct csc_stop_info *st = pl_stop(s);
    if (!csc_stop_is_finding(st->reason))
        return;
    char why[96];
    csc_stop_describe(st, why, sizeof why);
    bool broken = st->reason == CSC_STOP_TRUNCATED || st->reason == CSC_STOP_MALFORMED ||
                  st->reason == CSC_STOP_DEPTH;
    const char *pref = csc_stop_pref(st);
    expert_add_info_format(pinfo, at, broken ? &ei_stop : &ei_stop_undecoded,
                           "Layer stack ends early: %s; the layers after it are not judged%s%s", why,
                           pref ? ". Preference csumcheck." : "", pref ? pref : "");
}

void pl_stop_render(tvbuff_t *tvb, packet_info *pinfo, proto_tree *t, const struct pl_frame *s)
{
    const struct csc_stop_info *st = pl_stop(s);
    if (s->l2spec_guessed) {
        proto_item *gi = pl_gen(proto_tree_add_uint(t, hf_l2spec_guessed, tvb, 0, 0, s->l2spec_guessed - 1u));
        if (st->reason == CSC_STOP_END)
            guess_expert(pinfo, gi, s);
    }
    if (st->reason == CSC_STOP_END)
        return;
    char why[96];
    proto_item *pi = pl_gen(proto_tree_add_string(t, hf_stop, tvb, 0, 0, csc_stop_name(st->reason)));
    pl_gen(proto_tree_add_uint(t, hf_stop_offset, tvb, 0, 0, st->off));
    if (st->has_value)
        pl_gen(proto_tree_add_uint(t, hf_stop_value, tvb, 0, 0, st->value));
    const char *opt = csc_stop_option(st);
    if (opt)
        pl_gen(proto_tree_add_string(t, hf_stop_option, tvb, 0, 0, opt));
    pl_gen(proto_tree_add_string(t, hf_stop_text, tvb, 0, 0, csc_stop_describe(st, why, sizeof why)));
    pl_stop_expert(pinfo, pi, s);
}
