/*
 * spec.c - the receiver's settings in words, as options take them and as
 * --compare SPEC gives them: gro, gre-csum, the GRO engine's parameters, the
 * receiver switches and the rewrites. SPEC is a comma list of the receiver
 * options without their dashes ("era=4.6,remcsum-rx", "rx=unnecessary:0",
 * "outer-zero", "gro=off", "gro-flush-timeout=2000").
 */
#include "parse.h"

#include "csumcheck/rewrite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool set_gro(struct csc_config *c, const char *value)
{
    if (!strcmp(value, "on"))
        c->gro_nic = c->gro_tunnel = true;
    else if (!strcmp(value, "off"))
        c->gro_nic = c->gro_tunnel = false;
    else if (!strcmp(value, "nic"))
        c->gro_nic = true, c->gro_tunnel = false;
    else if (!strcmp(value, "tunnel"))
        c->gro_nic = false, c->gro_tunnel = true;
    else
        return false;
    return true;
}

bool set_gre_csum(struct csc_config *c, const char *value)
{
    for (unsigned g = 0; g < CSC_GRE_CSUM__COUNT; g++)
        if (!strcmp(value, csc_gre_csum_name(g))) {
            c->gre_csum = (uint8_t)g;
            return true;
        }
    return false;
}

bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

/* The protocol row whose port option this is ("--vxlan-port" -> CSC_P_VXLAN) */
unsigned port_option_proto(const char *name)
{
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        const char *opt = csc_proto_desc(p)->option;
        if (opt && !strcmp(opt, name + 2))
            return p;
    }
    return CSC_P_NONE;
}

/* GRO engine parameters: --gro-budget, --gro-flush-timeout, --gro-max-size,
 * --poll-gap (and the same keys in a --compare SPEC). */
bool set_gro_param(struct csc_gro_cfg *g, const char *key, const char *value,
                          const char **expect)
{
    unsigned long v;
    if (!strcmp(key, "gro-budget")) {
        *expect = "a frame count 1-65535";
        if (!parse_uint(value, 65535, &v) || v == 0)
            return false;
        g->budget = (uint16_t)v;
    } else if (!strcmp(key, "gro-max-size")) {
        *expect = "a size in bytes 1-4294967295";
        if (!parse_uint(value, 0xffffffffu, &v) || v == 0)
            return false;
        g->max_size = (uint32_t)v;
    } else if (!strcmp(key, "gro-flush-timeout")) {
        *expect = "microseconds 0-4294967295";
        if (!parse_uint(value, 0xffffffffu, &v))
            return false;
        g->flush_timeout_us = (uint32_t)v;
    } else {   /* poll-gap */
        *expect = "microseconds 0-4294967295";
        if (!parse_uint(value, 0xffffffffu, &v))
            return false;
        g->poll_gap_us = (uint32_t)v;
    }
    return true;
}

/* --compare SPEC words without a value: receiver switches (a bool of
 * csc_config set to `on`) and rewrites (ops cleared, then set) */
static const struct spec_switch {
    const char *name;
    size_t field;              /* offsetof(struct csc_config, ...), or SIZE_MAX: a rewrite */
    bool on;
    unsigned clear, set;       /* csc_rewrite ops */
} spec_switches[] = {
    { "remcsum-rx", offsetof(struct csc_config, remcsum_rx), true, 0, 0 },
    { "remcsum-nopartial", offsetof(struct csc_config, remcsum_nopartial), true, 0, 0 },
    { "no-remcsum-nopartial", offsetof(struct csc_config, remcsum_nopartial), false, 0, 0 },
    { "udp6-zero-csum-rx", offsetof(struct csc_config, udp6_zero_csum_rx), true, 0, 0 },
    { "no-udp6-zero-csum-rx", offsetof(struct csc_config, udp6_zero_csum_rx), false, 0, 0 },
    { "geneve-external", offsetof(struct csc_config, geneve_external), true, 0, 0 },
    { "no-geneve-external", offsetof(struct csc_config, geneve_external), false, 0, 0 },
    { "geneve-inner-proto-inherit", offsetof(struct csc_config, geneve_inner_proto_inherit), true,
      0, 0 },
    { "no-geneve-inner-proto-inherit", offsetof(struct csc_config, geneve_inner_proto_inherit),
      false, 0, 0 },
    { "no-socket", offsetof(struct csc_config, inner_socket), false, 0, 0 },
    { "socket", offsetof(struct csc_config, inner_socket), true, 0, 0 },
    { "assume-bad", offsetof(struct csc_config, assume_bad), true, 0, 0 },
    { "assume-good", offsetof(struct csc_config, assume_bad), false, 0, 0 },
    { "outer-zero", SIZE_MAX, false, CSC_RW_OUTER_CSUM, CSC_RW_OUTER_ZERO },
    { "outer-csum", SIZE_MAX, false, CSC_RW_OUTER_ZERO, CSC_RW_OUTER_CSUM },
    { "inner-good", SIZE_MAX, false, 0, CSC_RW_INNER_GOOD },
    { "no-rewrite", SIZE_MAX, false, ~0u, 0 },
};

/* A SPEC word without a value; false when it is none */
static bool spec_switch(struct cli_run *run, const char *k)
{
    if (!strcmp(k, "no-remcsum-rx")) {   /* also says the attribute was given */
        run->cfg.remcsum_rx = false;
        run->cfg.remcsum_rx_given = true;
        return true;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(spec_switches); i++) {
        const struct spec_switch *sw = &spec_switches[i];
        if (strcmp(k, sw->name))
            continue;
        if (sw->field == SIZE_MAX)
            run->rewrite = (run->rewrite & ~sw->clear) | sw->set;
        else
            *(bool *)(void *)((char *)&run->cfg + sw->field) = sw->on;
        return true;
    }
    return false;
}

/* A SPEC word with a value: NULL when applied, else what was expected;
 * *known false when the key is none. */
static const char *spec_value(struct cli_run *run, const char *k, const char *val, bool *known)
{
    struct csc_config *c = &run->cfg;
    *known = true;
    if (!strcmp(k, "rx")) {
        if (!csc_report_parse(val, &c->rx))
            return "none, unnecessary:L, complete, partial:outer, partial:inner, "
                   "partial:START:OFFSET, outer-l4, tunnel-l4";
    } else if (!strcmp(k, "era")) {
        if (!csc_era_by_name(val, &c->era))
            return "an era (csumcheck --era list)";
    } else if (!strcmp(k, "gro")) {
        if (!set_gro(c, val))
            return "on, off, nic or tunnel";
    } else if (!strcmp(k, "gre-csum")) {
        if (!set_gre_csum(c, val))
            return "packet, on or off";
    } else {
        *known = false;
    }
    return NULL;
}

static bool is_gro_param(const char *k)
{
    return !strcmp(k, "gro-budget") || !strcmp(k, "gro-max-size") ||
           !strcmp(k, "gro-flush-timeout") || !strcmp(k, "poll-gap");
}

/* Apply one --compare SPEC to a run made from the base options. */
bool apply_spec(struct cli_run *run, const char *spec, GString *err)
{
    bool ok = true;
    gchar **items = g_strsplit(spec, ",", -1);
    for (gchar **it = items; *it && ok; it++) {
        char *k = g_strstrip(*it);
        if (!*k || !strcmp(k, "base"))
            continue;
        while (*k == '-')
            k++;
        char *eq = strchr(k, '=');
        const char *val = eq ? eq + 1 : NULL, *expect = NULL;
        if (eq)
            *eq = 0;
        bool known = true;
        if (is_gro_param(k)) {
            if (!val || !set_gro_param(&run->gro_cfg, k, val, &expect))
                expect = expect ? expect : "a number";
            else
                expect = NULL;
        } else if (val) {
            expect = spec_value(run, k, val, &known);
        } else {
            known = spec_switch(run, k);
        }
        if (!known) {
            g_string_printf(err, "--compare: unknown setting '%s%s%s' in '%s' (rx=, era=, gro=, "
                            "gre-csum=, gro-budget=, gro-max-size=, gro-flush-timeout=, "
                            "poll-gap=, remcsum-rx, no-remcsum-rx, remcsum-nopartial, "
                            "udp6-zero-csum-rx, no-geneve-external, geneve-inner-proto-inherit, "
                            "no-socket, assume-bad, outer-csum, outer-zero, "
                            "inner-good, no-rewrite, and their no- forms)",
                            k, val ? "=" : "", val ? val : "", spec);
            ok = false;
        } else if (expect) {
            g_string_printf(err, "--compare: %s: expected %s, not '%s'", k, expect,
                            val ? val : "");
            ok = false;
        }
    }
    g_strfreev(items);
    return ok;
}
