/*
 * options.c - command line -> struct cli_opts + the runs' csc_config
 * (GOptionContext). Receiver options map one to one onto csc_config fields,
 * parsed by the core's own parsers (csc_report_parse, csc_era_by_name,
 * csc_rewrite_parse) so the CLI and the plugin accept the same syntax.
 *
 * --compare SPEC (issue #9): the options make the base configuration; one
 * --compare SPEC compares the base (A) with the base changed by SPEC (B);
 * two --compare give A = base + SPEC1 and B = base + SPEC2. SPEC is a comma
 * list of the receiver options without their dashes ("era=4.6,remcsum-rx",
 * "rx=unnecessary:0", "outer-zero", "gro=off", "gro-flush-timeout=2000").
 */
#include "opts.h"

#include "out.h"
#include "run.h"

#include "csumcheck/rewrite.h"

#include <glib.h>
#include <pcap/pcap.h>
#include <stdio.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct port_spec {
    uint16_t port;
    uint8_t proto, ipproto;
};

struct parse_state {
    struct cli_opts *o;
    struct cli_run *run;
    GArray *ports;               /* struct port_spec, applied after parsing */
    gboolean no_default_ports;
    gboolean remcsum_rx, no_remcsum_rx, remcsum_nopartial, udp6_zero, no_socket, assume_bad,
        no_geneve_external, geneve_inherit, quiet, version, live;
    gint jobs;
    gint threads;
    gint top_flows;
    GPtrArray *compare;          /* the --compare SPECs, in order */
    gchar *write_path;
    gchar **inputs;
    bool list_eras;
};

#define CB(f) G_OPTION_ARG_CALLBACK, (gpointer)(f)

#define FAIL(...)                                                                              \
    do {                                                                                       \
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, __VA_ARGS__);             \
        return FALSE;                                                                          \
    } while (0)

static gboolean opt_rx(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    if (!csc_report_parse(value, &ps->run->cfg.rx))
        FAIL("%s: unknown device report '%s' (none, unnecessary:L, complete, partial:outer, "
             "partial:inner, partial:START:OFFSET, outer-l4, tunnel-l4)", name, value);
    return TRUE;
}

static gboolean opt_era(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    if (!strcmp(value, "list")) {
        ps->list_eras = true;
        return TRUE;
    }
    if (!csc_era_by_name(value, &ps->run->cfg.era)) {
        GString *g = g_string_new(NULL);
        for (size_t i = 0; i < csc_era_count(); i++)
            g_string_append_printf(g, "%s%s", i ? ", " : "", csc_era_at(i)->name);
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s: unknown era '%s' (%s; '--era list' describes them)", name, value, g->str);
        g_string_free(g, TRUE);
        return FALSE;
    }
    return TRUE;
}

static bool set_gro(struct csc_config *c, const char *value)
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

static gboolean opt_gro(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    if (!set_gro(&ps->run->cfg, value))
        FAIL("%s: expected on, off, nic or tunnel, not '%s'", name, value);
    return TRUE;
}

static bool set_gre_csum(struct csc_config *c, const char *value)
{
    for (unsigned g = 0; g < CSC_GRE_CSUM__COUNT; g++)
        if (!strcmp(value, csc_gre_csum_name(g))) {
            c->gre_csum = (uint8_t)g;
            return true;
        }
    return false;
}

static gboolean opt_gre_csum(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    if (!set_gre_csum(&ps->run->cfg, value))
        FAIL("%s: expected packet, on or off, not '%s'", name, value);
    return TRUE;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
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

static gboolean opt_l2tp(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    unsigned long v;
    bool cookie = strstr(name, "cookie") != NULL;
    if (!parse_uint(value, 8, &v) || (cookie ? (v != 0 && v != 4 && v != 8) : (v != 0 && v != 4)))
        FAIL("%s: expected %s, not '%s'", name, cookie ? "0, 4 or 8" : "0 or 4", value);
    if (cookie)
        ps->run->cfg.l2tp_cookie_len = (uint8_t)v;
    else
        ps->run->cfg.l2tp_l2spec_len = (uint8_t)v;
    return TRUE;
}

/* The protocol row whose port option this is ("--vxlan-port" -> CSC_P_VXLAN) */
static unsigned port_option_proto(const char *name)
{
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        const char *opt = csc_proto_desc(p)->option;
        if (opt && !strcmp(opt, name + 2))
            return p;
    }
    return CSC_P_NONE;
}

static gboolean opt_port(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    struct port_spec p = { 0, (uint8_t)port_option_proto(name), 0 };
    bool with_ipproto = csc_proto_desc(p.proto)->flags & CSC_PF_PORT_IPPROTO;
    unsigned long v, ipp = 0;
    gchar *num = g_strdup(value);
    gchar *colon = strchr(num, ':');
    if (colon)
        *colon++ = 0;
    bool ok = parse_uint(num, 65535, &v) && v > 0;
    if (with_ipproto) {
        if (!colon || !parse_uint(colon, 255, &ipp) || ipp == 0)
            ok = false;
    } else if (colon) {
        ok = false;
    }
    g_free(num);
    if (!ok) {
        if (with_ipproto)
            FAIL("%s: expected PORT:IPPROTO (e.g. 5555:4 for IPIP, 5555:41 for IPv6, 5555:47 "
                 "for GRE), not '%s'", name, value);
        FAIL("%s: expected a UDP port 1-65535, not '%s'", name, value);
    }
    p.port = (uint16_t)v;
    p.ipproto = (uint8_t)ipp;
    g_array_append_val(ps->ports, p);
    return TRUE;
}

/* One --PROTO-port option per protocol row that has one; the texts are kept
 * in strs until the options are parsed. */
static void add_port_entries(GArray *entries, GPtrArray *strs, gboolean *no_default)
{
    GString *defaults = g_string_new(NULL);
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        const struct csc_proto_desc *d = csc_proto_desc(p);
        for (unsigned i = 0; i < CSC_PROTO_PORTS && d->ports[i]; i++)
            g_string_append_printf(defaults, "%s%u", defaults->len ? ", " : "", d->ports[i]);
        if (!d->option)
            continue;
        bool ipp = d->flags & CSC_PF_PORT_IPPROTO;
        char *help = ipp ? g_strdup_printf("Decode UDP PORT as %s carrying IP protocol IPPROTO",
                                           d->title)
                         : g_strdup_printf("Also decode UDP PORT as %s (repeatable)", d->title);
        g_ptr_array_add(strs, help);
        GOptionEntry e = { d->option, 0, 0, CB(opt_port), help, ipp ? "PORT:IPPROTO" : "PORT" };
        g_array_append_val(entries, e);
    }
    char *help = g_strdup_printf("Forget the default tunnel ports (%s)", defaults->str);
    g_string_free(defaults, TRUE);
    g_ptr_array_add(strs, help);
    GOptionEntry e = { "no-default-ports", 0, 0, G_OPTION_ARG_NONE, no_default, help, NULL };
    g_array_append_val(entries, e);
}

/* GRO engine parameters: --gro-budget, --gro-flush-timeout, --gro-max-size,
 * --poll-gap (and the same keys in a --compare SPEC). */
static bool set_gro_param(struct csc_gro_cfg *g, const char *key, const char *value,
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

static gboolean opt_gro_param(const gchar *name, const gchar *value, gpointer data,
                              GError **error)
{
    struct parse_state *ps = data;
    const char *expect = "";
    if (!set_gro_param(&ps->run->gro_cfg, name + 2, value, &expect))
        FAIL("%s: expected %s, not '%s'", name, expect, value);
    return TRUE;
}

static gboolean opt_rewrite(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    bool ok;
    unsigned ops = csc_rewrite_parse(value, &ok);
    if (!ok || !*value)
        FAIL("%s: expected a comma list of outer-csum, outer-zero, inner-good (outer-csum and "
             "outer-zero exclude each other), not '%s'", name, value);
    ps->run->rewrite = ops;
    return TRUE;
}

static gboolean opt_compare(const gchar *name, const gchar *value, gpointer data,
                            GError **error)
{
    struct parse_state *ps = data;
    if (ps->compare->len == CLI_MAX_RUNS)
        FAIL("%s: at most two (--compare A --compare B, or --compare B against the other "
             "options)", name);
    g_ptr_array_add(ps->compare, g_strdup(value));
    return TRUE;
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
static bool apply_spec(struct cli_run *run, const char *spec, GString *err)
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

static gboolean opt_format(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    ps->o->format = out_format_by_name(value);
    if (!ps->o->format)
        FAIL("%s: expected text, json or csv, not '%s'", name, value);
    return TRUE;
}

static gboolean opt_findings(const gchar *name, const gchar *value, gpointer data,
                             GError **error)
{
    struct parse_state *ps = data;
    uint32_t m;
    char *bad = NULL;
    if (!cli_finding_parse(value, &m, &bad)) {
        GString *g = g_string_new(NULL);
        for (unsigned i = 0; i < FD__COUNT; i++)
            g_string_append_printf(g, "%s,", cli_finding_name(i));
        g_string_append(g, "any");
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s: unknown finding '%s' (a comma list of %s)", name, bad, g->str);
        g_string_free(g, TRUE);
        g_free(bad);
        return FALSE;
    }
    if (!strcmp(name, "--fail-on")) {
        ps->o->fail_on |= m;
    } else {
        ps->o->select |= m;
        ps->o->select_given = true;
    }
    return TRUE;
}

static gboolean opt_progress(const gchar *name, const gchar *value, gpointer data,
                             GError **error)
{
    struct parse_state *ps = data;
    if (!strcmp(value, "auto"))
        ps->o->progress = PROG_AUTO;
    else if (!strcmp(value, "always"))
        ps->o->progress = PROG_ALWAYS;
    else if (!strcmp(value, "never"))
        ps->o->progress = PROG_NEVER;
    else
        FAIL("%s: expected auto, always or never, not '%s'", name, value);
    return TRUE;
}

static gboolean opt_verbose(const gchar *name, const gchar *value, gpointer data,
                            GError **error)
{
    struct parse_state *ps = data;
    (void)name;
    (void)value;
    (void)error;
    ps->o->verbose++;
    return TRUE;
}

static void list_eras(void)
{
    for (size_t i = 0; i < csc_era_count(); i++) {
        const struct csc_era *e = csc_era_at(i);
        printf("%-12s %s\n", e->name, csc_era_description(e->name));
    }
}

void options_free_runs(struct cli_run *runs, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        g_free(runs[i].spec);
        gro_totals_free(&runs[i].gro);
        runs[i].spec = NULL;
    }
}

/* The options' state while GOption parses (its callbacks get it as data). */
static struct parse_state ps_;

/* receiver, GRO engine and what-if options; then the protocol table's port
 * options (add_port_entries), then the rest */
static const GOptionEntry entries_head[] = {
    /* receiver */
    { "rx", 0, 0, CB(opt_rx), "Device report on the NIC: none (default), unnecessary:L, "
      "complete, partial:outer, partial:inner, partial:START:OFFSET, outer-l4, tunnel-l4",
      "REPORT" },
    { "era", 0, 0, CB(opt_era), "Kernel era to replay (default modern; 'list' shows them)",
      "NAME" },
    { "gro", 0, 0, CB(opt_gro), "GRO on the NIC and tunnel devices: on (default), off, nic, "
      "tunnel", "on|off|nic|tunnel" },
    { "remcsum-rx", 0, 0, G_OPTION_ARG_NONE, &ps_.remcsum_rx,
      "Receiver accepts remote checksum offload (VXLAN remcsumrx, GUE remcsum)", NULL },
    { "no-remcsum-rx", 0, 0, G_OPTION_ARG_NONE, &ps_.no_remcsum_rx,
      "The VXLAN device was created with noremcsumrx given explicitly (from 6.14 its RCO "
      "bits are then not reserved)", NULL },
    { "remcsum-nopartial", 0, 0, G_OPTION_ARG_NONE, &ps_.remcsum_nopartial,
      "RCO without CHECKSUM_PARTIAL (REMCSUM_NOPARTIAL)", NULL },
    { "udp6-zero-csum-rx", 0, 0, G_OPTION_ARG_NONE, &ps_.udp6_zero,
      "Tunnel sockets accept zero UDP checksums over IPv6 (udp6zerocsumrx; FOU/GUE always "
      "do)", NULL },
    { "no-geneve-external", 0, 0, G_OPTION_ARG_NONE, &ps_.no_geneve_external,
      "The GENEVE device has a remote instead of being 'external' (collect_md, as OVS makes "
      "it): critical options are dropped, zero UDP6 checksums need --udp6-zero-csum-rx",
      NULL },
    { "geneve-inner-proto-inherit", 0, 0, G_OPTION_ARG_NONE, &ps_.geneve_inherit,
      "The GENEVE device has innerprotoinherit: protocols other than Ethernet are accepted",
      NULL },
    { "gre-csum", 0, 0, CB(opt_gre_csum), "GRE tunnel's checksum flag: packet (default: the "
      "tunnel matches each packet), on (icsum), off", "packet|on|off" },
    { "no-socket", 0, 0, G_OPTION_ARG_NONE, &ps_.no_socket,
      "No socket listens for the innermost transport (UdpNoPorts...)", NULL },
    { "live", 0, 0, G_OPTION_ARG_NONE, &ps_.live,
      "Also write every frame into this machine's kernel (a private network namespace, a TAP, "
      "the tunnel devices the frames need; root) and show its outcome beside the model's "
      "(docs/live.md)", NULL },
    { "assume-bad", 0, 0, G_OPTION_ARG_NONE, &ps_.assume_bad,
      "Checksums over bytes the capture lacks are assumed bad (default: good)", NULL },
    /* GRO engine (frames followed in capture order through each device's GRO list) */
    { "gro-budget", 0, 0, CB(opt_gro_param), "Frames per NAPI poll (default 64)", "N" },
    { "gro-flush-timeout", 0, 0, CB(opt_gro_param),
      "gro_flush_timeout in microseconds (default 0: flush at the end of every poll)",
      "USEC" },
    { "gro-max-size", 0, 0, CB(opt_gro_param), "gro_max_size in bytes (default 65536)", "N" },
    { "poll-gap", 0, 0, CB(opt_gro_param),
      "A gap between frames longer than this ends a NAPI poll (default 100)", "USEC" },
    { "gro-flows", 0, 0, G_OPTION_ARG_INT, &ps_.top_flows,
      "GRO flows listed in the summary, most frames first (default 10; 0: none)", "N" },
    /* what-if */
    { "rewrite", 0, 0, CB(opt_rewrite), "Rewrite every frame before the replay: outer-csum "
      "(outer UDP checksum computed), outer-zero (set to 0), inner-good (inner checksums "
      "made right); a comma list", "LIST" },
    { "compare", 0, 0, CB(opt_compare), "Replay the capture under a second configuration "
      "(SPEC: comma list such as era=4.6,rx=unnecessary:0,outer-zero,remcsum-rx) and print "
      "both side by side; give it twice for A and B", "SPEC" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
};

static const GOptionEntry entries_tail[] = {
    { "l2tp-cookie-len", 0, 0, CB(opt_l2tp), "L2TPv3 cookie length: 0 (default), 4, 8",
      "N" },
    { "l2tp-l2spec-len", 0, 0, CB(opt_l2tp),
      "L2TPv3 L2-specific sublayer length: 0, 4 (default)", "N" },
    /* output */
    { "format", 'F', 0, CB(opt_format),
      "Output: text (summary, default), json (JSON Lines), csv (one row per checksum)",
      "text|json|csv" },
    { "verbose", 'v', G_OPTION_FLAG_NO_ARG, CB(opt_verbose),
      "text: one line per frame with a finding (-vv: and its kernel trace); json: add the "
      "kernel trace (steps)", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &ps_.quiet, "No progress bar, no warnings", NULL },
    { "progress", 0, 0, CB(opt_progress),
      "Progress bar on stderr: auto (a terminal and long work), always, never",
      "auto|always|never" },
    { "fail-on", 0, 0, CB(opt_findings),
      "Exit 1 when a frame has one of these findings: bad, drop, partial, unverifiable, "
      "lco, rco, zero6, none, warning, truncated, malformed, any", "LIST" },
    { "write", 'w', 0, G_OPTION_ARG_FILENAME, &ps_.write_path,
      "Write the selected frames, unchanged, to the pcap file OUT", "OUT" },
    { "select", 0, 0, CB(opt_findings),
      "Findings that select a frame for -w (same words as --fail-on; default bad,drop)",
      "LIST" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &ps_.jobs,
      "Analyse N files in parallel (0: one per CPU); output stays in input order", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &ps_.threads,
      "Threads that analyse the frames of a file: the one reading it and N-1 workers, "
      "in a pipeline (0: one per CPU, the default; 1: no pipeline)", "N" },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &ps_.version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ps_.inputs, NULL, NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
};

static GOptionContext *option_context(GArray *all, GPtrArray *texts)
{
    GOptionContext *ctx = g_option_context_new("FILE|DIR|- ...");
    g_option_context_set_summary(
        ctx, "Per packet and per layer of tunnel traffic: what the checksum bytes say and what "
             "the Linux RX path would do with them.");
    g_option_context_set_description(
        ctx, "Exit status: 0 no --fail-on finding, 1 a --fail-on finding, 2 an error (an input "
             "that could not be read completely, bad usage).\nSee csumcheck(1) and docs/json.md.\n");
    GOptionGroup *grp = g_option_group_new(CLI_NAME, "csumcheck options", "Show options", &ps_,
                                           NULL);
    g_array_append_vals(all, entries_head, G_N_ELEMENTS(entries_head) - 1);
    add_port_entries(all, texts, &ps_.no_default_ports);
    g_array_append_vals(all, entries_tail, G_N_ELEMENTS(entries_tail));
    g_option_group_add_entries(grp, (const GOptionEntry *)(void *)all->data);
    g_option_context_set_main_group(ctx, grp);
    return ctx;
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(CLI_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* The receiver switches and the tunnel ports into the base configuration */
static int apply_receiver(struct parse_state *ps, struct csc_config *c)
{
    if (ps->remcsum_rx && ps->no_remcsum_rx)
        return usage_error("--remcsum-rx and --no-remcsum-rx exclude each other");
    c->remcsum_rx = ps->remcsum_rx;
    c->remcsum_rx_given = ps->no_remcsum_rx;
    c->remcsum_nopartial = ps->remcsum_nopartial;
    c->udp6_zero_csum_rx = ps->udp6_zero;
    c->geneve_external = !ps->no_geneve_external;
    c->geneve_inner_proto_inherit = ps->geneve_inherit;
    c->inner_socket = !ps->no_socket;
    c->assume_bad = ps->assume_bad;
    if (ps->no_default_ports)
        c->nports = 0;
    for (unsigned i = 0; i < ps->ports->len; i++) {
        struct port_spec *p = &g_array_index(ps->ports, struct port_spec, i);
        if (!csc_config_set_port(c, p->port, p->proto, p->ipproto))
            return usage_error("too many tunnel ports (at most %d)", CSC_MAX_PORTS);
    }
    return -1;
}

/* --compare: A and B from the base configuration (one SPEC: A is the base,
 * B the base + SPEC; two: A and B), then every run's names */
static int make_runs(struct parse_state *ps, struct cli_opts *o, struct cli_run *runs)
{
    if (ps->top_flows < 0 || ps->top_flows > CLI_TOP_FLOWS_MAX)
        return usage_error("--gro-flows: expected 0-%d, not %d", CLI_TOP_FLOWS_MAX, ps->top_flows);
    o->top_flows = (unsigned)ps->top_flows;
    if (ps->compare->len) {
        struct cli_run base = runs[0];
        GString *emsg = g_string_new(NULL);
        o->nruns = 2;
        for (unsigned i = 0; i < 2; i++) {
            const char *spec = ps->compare->len == 2 ? ps->compare->pdata[i]
                               : i == 1              ? ps->compare->pdata[0]
                                                     : NULL;
            runs[i] = base;
            runs[i].spec = spec ? g_strdup(spec) : NULL;
            if (spec && !apply_spec(&runs[i], spec, emsg)) {
                int rc = usage_error("%s", emsg->str);
                g_string_free(emsg, TRUE);
                return rc;
            }
        }
        g_string_free(emsg, TRUE);
    }
    for (unsigned i = 0; i < o->nruns; i++) {
        runs[i].index = i;
        snprintf(runs[i].label, sizeof runs[i].label, "%s", o->nruns > 1 ? (i ? "B" : "A") : "");
        csc_report_format(&runs[i].cfg.rx, runs[i].rx_name, sizeof runs[i].rx_name);
        gro_totals_init(&runs[i].gro);
    }
    return -1;
}

/* -j, --threads, -q, -w and --select, the inputs */
static int apply_run_options(struct parse_state *ps, struct cli_opts *o)
{
    o->quiet = ps->quiet;
    o->live = ps->live;
    if (ps->quiet && o->progress == PROG_AUTO)
        o->progress = PROG_NEVER;
    if (ps->jobs < 0 || ps->jobs > 1024)
        return usage_error("-j: expected 0-1024, not %d", ps->jobs);
    o->jobs = ps->jobs ? ps->jobs : (int)g_get_num_processors();
    if (ps->threads < 0 || ps->threads > 256)
        return usage_error("--threads: expected 0-256, not %d", ps->threads);
    o->threads = ps->threads ? (unsigned)ps->threads : g_get_num_processors();
    o->write_path = ps->write_path;
    ps->write_path = NULL;
    if (o->select_given && !o->write_path)
        return usage_error("--select chooses the frames -w writes: give -w OUT");
    if (o->write_path && !o->select_given)
        o->select = (1u << FD_BAD) | (1u << FD_DROP);
    if (o->write_path && !strcmp(o->write_path, "-"))
        return usage_error("-w -: the report already uses standard output; give a file");
    if (!ps->inputs || !ps->inputs[0])
        return usage_error("no input: give capture files, directories, or - for standard "
                           "input\n(try '" CLI_NAME " --help')");
    o->inputs = ps->inputs;
    ps->inputs = NULL;
    return -1;
}

/* After GOption: --version, --era list, then the settings; -1 to go on */
static int after_parse(struct parse_state *ps, struct cli_opts *o, struct cli_run *runs)
{
    int rc;
    if (ps->version) {
        printf(CLI_NAME " %s (libcsumcore %s, %s)\n", CSC_VERSION, csc_version(),
               pcap_lib_version());
        return 0;
    }
    if (ps->list_eras) {
        list_eras();
        return 0;
    }
    if ((rc = apply_receiver(ps, &runs[0].cfg)) >= 0 || (rc = make_runs(ps, o, runs)) >= 0)
        return rc;
    return apply_run_options(ps, o);
}

int options_parse(int *argc, char ***argv, struct cli_opts *o, struct cli_run *runs)
{
    struct parse_state *ps = &ps_;
    memset(ps, 0, sizeof *ps);
    ps->o = o;
    ps->run = &runs[0];
    ps->ports = g_array_new(FALSE, FALSE, sizeof(struct port_spec));
    ps->compare = g_ptr_array_new_with_free_func(g_free);
    ps->jobs = 1;
    ps->top_flows = 10;
    memset(o, 0, sizeof *o);
    o->format = &out_text;
    o->nruns = 1;
    csc_config_default(&runs[0].cfg);
    csc_gro_cfg_default(&runs[0].gro_cfg);

    GArray *all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));   /* NULL-terminated */
    GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
    GOptionContext *ctx = option_context(all, texts);
    GError *err = NULL;
    int rc;
    if (!g_option_context_parse(ctx, argc, argv, &err)) {
        fprintf(stderr, CLI_NAME ": %s\n(try '" CLI_NAME " --help')\n", err->message);
        g_error_free(err);
        rc = 2;
    } else {
        rc = after_parse(ps, o, runs);
    }
    g_strfreev(ps->inputs);
    g_free(ps->write_path);
    g_array_free(ps->ports, TRUE);
    g_ptr_array_free(ps->compare, TRUE);
    g_option_context_free(ctx);
    g_array_free(all, TRUE);
    g_ptr_array_free(texts, TRUE);
    return rc;
}

const char *rewrite_words(unsigned ops)
{
    switch (ops & (CSC_RW_OUTER_ZERO | CSC_RW_OUTER_CSUM | CSC_RW_INNER_GOOD)) {
    case CSC_RW_OUTER_ZERO: return "outer-zero";
    case CSC_RW_OUTER_CSUM: return "outer-csum";
    case CSC_RW_INNER_GOOD: return "inner-good";
    case CSC_RW_OUTER_ZERO | CSC_RW_INNER_GOOD: return "outer-zero,inner-good";
    case CSC_RW_OUTER_CSUM | CSC_RW_INNER_GOOD: return "outer-csum,inner-good";
    default: return "";
    }
}
