/*
 * stop-info.c - why decoding ended early, in the plugin (stop-info.h). The
 * words are the core's (csc_stop_name, csc_stop_describe, csc_stop_pref), so
 * the expert text reads as the CLI's -v line.
 */
#include "stop-info.h"

#include "fields.h"

#include <epan/expert.h>

static int hf_stop = -1;
static int hf_stop_offset = -1;
static int hf_stop_value = -1;
static int hf_stop_option = -1;
static int hf_stop_text = -1;
static int hf_l2spec_guessed = -1;
static expert_field ei_stop = EI_INIT;
static expert_field ei_stop_undecoded = EI_INIT;
static expert_field ei_l2spec_guessed = EI_INIT;


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

void pl_stop_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_stop, { "Layer Stack End", "csumcheck.stop", FT_STRING, BASE_NONE, NULL, 0,
                      "Why decoding stopped before the payload: truncated, malformed, depth, unsupported, "
                      "fragment, unknown-link, unknown-ethertype, unknown-ipproto, unknown-next, encrypted, "
                      "needs-option", HFILL } },
        { &hf_stop_offset, { "Layer Stack End Offset", "csumcheck.stop.offset", FT_UINT32, BASE_DEC, NULL, 0,
                             "Offset of the header being decoded, or of the layer whose field named the "
                             "payload", HFILL } },
        { &hf_stop_value, { "Layer Stack End Value", "csumcheck.stop.value", FT_UINT32, BASE_HEX_DEC, NULL, 0,
                            "The EtherType, IP protocol, next-protocol code, SPI, or the value the option "
                            "needs", HFILL } },
        { &hf_stop_option, { "Layer Stack End Option", "csumcheck.stop.option", FT_STRING, BASE_NONE, NULL, 0,
                             "The receiver option decoding on needs (the CLI's --NAME; the preference of the "
                             "same name)", HFILL } },
        { &hf_stop_text, { "Layer Stack End Text", "csumcheck.stop.text", FT_STRING, BASE_NONE, NULL, 0,
                           "The stop in one line, as csumcheck -v says it", HFILL } },
        { &hf_l2spec_guessed, { "L2TPv3 Sublayer Guessed", "csumcheck.l2spec_guessed", FT_UINT8, BASE_DEC, NULL,
                                0, "The L2-specific sublayer length (0 or 4) chosen from the bytes, no "
                                "preference having said it", HFILL } },
    };
    static ei_register_info ei[] = {
        { &ei_stop, { "csumcheck.stack_ends", PI_MALFORMED, PI_NOTE, "Layer Stack Ends Early",
                      PL_EXPERT_DESC("Expert info: decoding stopped at a truncated or malformed header, or "
                                  "the stack is too deep (Note/Malformed)") } },
        { &ei_stop_undecoded, { "csumcheck.stack_ends.undecoded", PI_UNDECODED, PI_NOTE,
                                "Layer Stack Ends Undecoded",
                                PL_EXPERT_DESC("Expert info: decoding stopped at a payload csumcheck does not "
                                            "decode: unknown, encrypted, unsupported, or needing a preference "
                                            "(Note/Undecoded)") } },
        { &ei_l2spec_guessed, { "csumcheck.l2spec_guessed.note", PI_ASSUMPTION, PI_NOTE,
                                "L2TPv3 Sublayer Chosen From The Bytes",
                                PL_EXPERT_DESC("Expert info: the L2TPv3 L2-specific sublayer's length was "
                                            "chosen from the bytes (Note/Assumption)") } },
    };
    proto_register_field_array(proto, hf, array_length(hf));
    expert_module_t *em = expert_register_protocol(proto);
    expert_register_field_array(em, ei, array_length(ei));
}
