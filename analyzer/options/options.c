/*
 * options.c - command line -> struct cli_opts + the runs' csc_config.
 * Receiver options map one to one onto csc_config fields, parsed by the
 * core's own parsers (csc_report_parse, csc_era_by_name, csc_rewrite_parse)
 * so the CLI and the plugin accept the same syntax.
 *
 * getopt_long (glibc), not GOption: GOption takes a short option's value
 * only from the next word, so -Fjson, -j2, -c10 and -wout.pcap, which
 * tcpdump and tshark users type, were refused or misread (docs/cli.md).
 * One table (opts[]) lists every option with its help; the protocol table
 * adds a --PROTO-port option per tunnel that has one (csc_proto_desc), and
 * --help is written from both.
 *
 * Inputs: the words that are not options are files, directories or -
 * (standard input), up to the first word that is not a path and starts a
 * capture filter (a pcap-filter(7) keyword, '(' or '!'): from there on the
 * words are the filter, as tcpdump takes them. With -r FILE every word is
 * the filter, as in tcpdump -r. -f EXPR gives it as one argument.
 *
 * --compare SPEC (issue #9): the options make the base configuration; one
 * --compare SPEC compares the base (A) with the base changed by SPEC (B);
 * two --compare give A = base + SPEC1 and B = base + SPEC2. SPEC is a comma
 * list of the receiver options without their dashes ("era=4.6,remcsum-rx",
 * "rx=unnecessary:0", "outer-zero", "gro=off", "gro-flush-timeout=2000").
 */
#include "opts.h"

#include "filter.h"
#include "out.h"
#include "wout.h"

#include "csumcheck/rewrite.h"

#include <glib.h>
#include <pcap/pcap.h>
#include <stdio.h>

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct port_spec {
    uint16_t port;
    uint8_t proto, ipproto;
};

struct parse_state {
    struct cli_opts *o;
    struct cli_run *run;
    GArray *ports;               /* struct port_spec, applied after parsing */
    bool no_default_ports;
    bool remcsum_rx, no_remcsum_rx, remcsum_nopartial, udp6_zero, no_socket, assume_bad,
        no_geneve_external, geneve_inherit, quiet, version, help, list_eras, live,
        no_direction_guess;
    long jobs, threads, top_flows;
    GPtrArray *compare;          /* the --compare SPECs, in order */
    GPtrArray *reads;            /* -r FILE, in order */
    char *write_path;
    int write_format;          /* enum wout_format */
    char *live_kernel;           /* --kernel VERSION (with --live) */
    char *era_list;              /* --era A,B */
    char *filter;                /* -f EXPR */
    int color;                   /* -1 never, 0 auto, 1 always */
    bool line_buffered, o_summary_only, o_merge;
};

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


static bool set_gre_csum(struct csc_config *c, const char *value)
{
    for (unsigned g = 0; g < CSC_GRE_CSUM__COUNT; g++)
        if (!strcmp(value, csc_gre_csum_name(g))) {
            c->gre_csum = (uint8_t)g;
            return true;
        }
    return false;
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


/* ---- option handlers: NULL when the value is taken, else what is wrong ---- */

typedef char *(*opt_fn)(struct parse_state *ps, const char *name, const char *value);

static char *opt_rx(struct parse_state *ps, const char *name, const char *value)
{
    if (!csc_report_parse(value, &ps->run->cfg.rx))
        return g_strdup_printf("%s: unknown device report '%s' (none, unnecessary:L, complete, "
                               "partial:outer, partial:inner, partial:START:OFFSET, outer-l4, "
                               "tunnel-l4, virtual)", name, value);
    return NULL;
}

/* --local ADDR|MAC,...: this host's addresses (repeatable) */
static char *opt_local(struct parse_state *ps, const char *name, const char *value)
{
    gchar **words = g_strsplit(value, ",", -1);
    char *err = NULL;
    for (gchar **w = words; *w && !err; w++) {
        gchar *t = g_strstrip(*w);
        if (!*t)
            continue;
        if (ps->o->local.n >= CSC_MAX_LOCAL)
            err = g_strdup_printf("%s: at most %d addresses", name, CSC_MAX_LOCAL);
        else if (!csc_local_add(&ps->o->local, t))
            err = g_strdup_printf("%s: '%s' is not an IPv4, IPv6 or MAC address", name, t);
    }
    g_strfreev(words);
    return err;
}

/* --iface-kind: what the capture's interface is */
static char *opt_iface_kind(struct parse_state *ps, const char *name, const char *value)
{
    uint8_t *via = &ps->run->cfg.via;
    if (!strcmp(value, "nic"))
        *via = CSC_VIA_NIC;
    else if (!strcmp(value, "veth") || !strcmp(value, "tun") || !strcmp(value, "virtual"))
        *via = CSC_VIA_VIRTUAL;
    else if (!strcmp(value, "lo") || !strcmp(value, "loopback"))
        *via = CSC_VIA_LOOPBACK;
    else
        return g_strdup_printf("%s: expected nic, veth, tun or lo, not '%s'", name, value);
    return NULL;
}

static char *opt_era(struct parse_state *ps, const char *name, const char *value)
{
    if (!strcmp(value, "list")) {
        ps->list_eras = true;
        return NULL;
    }
    char first[64];
    if (strchr(value, ',')) {        /* --era A,B: the fates across eras (live.c) */
        snprintf(first, sizeof first, "%.*s", (int)strcspn(value, ","), value);
        if (ps->era_list)
            return g_strdup_printf("%s: give one list of eras", name);
        ps->era_list = g_strdup(value);
    } else {
        snprintf(first, sizeof first, "%s", value);
    }
    if (csc_era_by_name(first, &ps->run->cfg.era))
        return NULL;
    GString *g = g_string_new(NULL);
    for (size_t i = 0; i < csc_era_count(); i++)
        g_string_append_printf(g, "%s%s", i ? ", " : "", csc_era_at(i)->name);
    char *m = g_strdup_printf("%s: unknown era '%s' (%s; '--era list' describes them)", name, first,
                              g->str);
    g_string_free(g, TRUE);
    return m;
}

static char *opt_gro(struct parse_state *ps, const char *name, const char *value)
{
    if (!set_gro(&ps->run->cfg, value))
        return g_strdup_printf("%s: expected on, off, nic or tunnel, not '%s'", name, value);
    return NULL;
}

static char *opt_gre_csum(struct parse_state *ps, const char *name, const char *value)
{
    if (!set_gre_csum(&ps->run->cfg, value))
        return g_strdup_printf("%s: expected packet, on or off, not '%s'", name, value);
    return NULL;
}

static char *opt_l2tp(struct parse_state *ps, const char *name, const char *value)
{
    unsigned long v;
    bool cookie = strstr(name, "cookie") != NULL;
    if (!parse_uint(value, 8, &v) || (cookie ? (v != 0 && v != 4 && v != 8) : (v != 0 && v != 4)))
        return g_strdup_printf("%s: expected %s, not '%s'", name, cookie ? "0, 4 or 8" : "0 or 4",
                               value);
    if (cookie)
        ps->run->cfg.l2tp_cookie_len = (uint8_t)v;
    else
        ps->run->cfg.l2tp_l2spec_len = (uint8_t)v;
    return NULL;
}

static char *opt_port(struct parse_state *ps, const char *name, const char *value)
{
    struct port_spec p = { 0, (uint8_t)port_option_proto(name), 0 };
    bool with_ipproto = csc_proto_desc(p.proto)->flags & CSC_PF_PORT_IPPROTO;
    unsigned long v, ipp = 0;
    char *num = g_strdup(value);
    char *colon = strchr(num, ':');
    if (colon)
        *colon++ = 0;
    bool ok = parse_uint(num, 65535, &v) && v > 0;
    if (with_ipproto)
        ok = ok && colon && parse_uint(colon, 255, &ipp) && ipp > 0;
    else
        ok = ok && !colon;
    g_free(num);
    if (!ok && with_ipproto)
        return g_strdup_printf("%s: expected PORT:IPPROTO (e.g. 5555:4 for IPIP, 5555:41 for "
                               "IPv6, 5555:47 for GRE), not '%s'", name, value);
    if (!ok)
        return g_strdup_printf("%s: expected a UDP port 1-65535, not '%s'", name, value);
    p.port = (uint16_t)v;
    p.ipproto = (uint8_t)ipp;
    g_array_append_val(ps->ports, p);
    return NULL;
}

static char *opt_gro_param(struct parse_state *ps, const char *name, const char *value)
{
    const char *expect = "";
    if (!set_gro_param(&ps->run->gro_cfg, name + 2, value, &expect))
        return g_strdup_printf("%s: expected %s, not '%s'", name, expect, value);
    return NULL;
}

static char *opt_rewrite(struct parse_state *ps, const char *name, const char *value)
{
    bool ok;
    unsigned ops = csc_rewrite_parse(value, &ok);
    if (!ok || !*value)
        return g_strdup_printf("%s: expected a comma list of outer-csum, outer-zero, inner-good "
                               "(outer-csum and outer-zero exclude each other), not '%s'", name,
                               value);
    ps->run->rewrite = ops;
    return NULL;
}

static char *opt_compare(struct parse_state *ps, const char *name, const char *value)
{
    if (ps->compare->len == CLI_MAX_RUNS)
        return g_strdup_printf("%s: at most two (--compare A --compare B, or --compare B against "
                               "the other options)", name);
    g_ptr_array_add(ps->compare, g_strdup(value));
    return NULL;
}

static char *opt_format(struct parse_state *ps, const char *name, const char *value)
{
    ps->o->format = out_format_by_name(value);
    if (!ps->o->format)
        return g_strdup_printf("%s: expected text, json or csv, not '%s'", name, value);
    return NULL;
}

/* --fail-on, --select and --show: comma lists of findings */
static char *opt_findings(struct parse_state *ps, const char *name, const char *value)
{
    uint32_t m;
    char *bad = NULL;
    if (!cli_finding_parse(value, &m, &bad)) {
        GString *g = g_string_new(NULL);
        for (unsigned i = 0; i < FD__COUNT; i++)
            g_string_append_printf(g, "%s,", cli_finding_name(i));
        g_string_append(g, "any; -WORD takes one out");
        char *msg = g_strdup_printf("%s: unknown finding '%s' (a comma list of %s)", name, bad,
                                    g->str);
        g_string_free(g, TRUE);
        g_free(bad);
        return msg;
    }
    if (!strcmp(name, "--fail-on")) {
        ps->o->fail_on |= m;
    } else if (!strcmp(name, "--show")) {
        ps->o->show |= m;
        ps->o->show_given = true;
    } else {
        ps->o->select |= m;
        ps->o->select_given = true;
    }
    return NULL;
}

/* auto|always|never into *out (0, 1, -1) */
static char *when_word(const char *name, const char *value, int *out)
{
    if (!strcmp(value, "auto"))
        *out = 0;
    else if (!strcmp(value, "always"))
        *out = 1;
    else if (!strcmp(value, "never"))
        *out = -1;
    else
        return g_strdup_printf("%s: expected auto, always or never, not '%s'", name, value);
    return NULL;
}

static char *opt_progress(struct parse_state *ps, const char *name, const char *value)
{
    int w;
    char *m = when_word(name, value, &w);
    if (m)
        return m;
    ps->o->progress = w == 1 ? PROG_ALWAYS : w == -1 ? PROG_NEVER : PROG_AUTO;
    return NULL;
}

static char *opt_color(struct parse_state *ps, const char *name, const char *value)
{
    return when_word(name, value ? value : "auto", &ps->color);
}

static char *opt_verbose(struct parse_state *ps, const char *name, const char *value)
{
    (void)name;
    (void)value;
    ps->o->verbose++;
    return NULL;
}

/* a count into *out: 0..max */
static char *count_word(const char *name, const char *value, unsigned long max, long *out)
{
    unsigned long v;
    if (!parse_uint(value, max, &v))
        return g_strdup_printf("%s: expected 0-%lu, not '%s'", name, max, value);
    *out = (long)v;
    return NULL;
}

static char *opt_jobs(struct parse_state *ps, const char *name, const char *value)
{
    return count_word(name, value, 1024, &ps->jobs);
}

static char *opt_threads(struct parse_state *ps, const char *name, const char *value)
{
    return count_word(name, value, 256, &ps->threads);
}

static char *opt_gro_flows(struct parse_state *ps, const char *name, const char *value)
{
    return count_word(name, value, CLI_TOP_FLOWS_MAX, &ps->top_flows);
}

static char *opt_flows(struct parse_state *ps, const char *name, const char *value)
{
    long n = CLI_FLOWS_DEFAULT;
    char *m = value ? count_word(name, value, CLI_TOP_FLOWS_MAX, &n) : NULL;
    ps->o->flows = n ? (unsigned)n : 0;
    if (!m && !n)
        m = g_strdup_printf("%s: expected 1-%d flows in the text summary, not 0", name,
                            CLI_TOP_FLOWS_MAX);
    return m;
}

static char *opt_count(struct parse_state *ps, const char *name, const char *value)
{
    unsigned long v;
    if (!parse_uint(value, ULONG_MAX, &v) || v == 0)
        return g_strdup_printf("%s: expected a number of frames, 1 or more, not '%s'", name, value);
    ps->o->count = v;
    return NULL;
}

static char *opt_filter(struct parse_state *ps, const char *name, const char *value)
{
    if (ps->filter)
        return g_strdup_printf("%s: give the capture filter once", name);
    ps->filter = g_strdup(value);
    return NULL;
}

static char *opt_read(struct parse_state *ps, const char *name, const char *value)
{
    (void)name;
    g_ptr_array_add(ps->reads, g_strdup(value));
    return NULL;
}

static char *opt_write(struct parse_state *ps, const char *name, const char *value)
{
    if (ps->write_path)
        return g_strdup_printf("%s: give one output file", name);
    ps->write_path = g_strdup(value);
    return NULL;
}

/* --baseline, --junit: a path, given once */
static char *opt_path(struct parse_state *ps, const char *name, const char *value)
{
    char **slot = !strcmp(name, "--baseline") ? &ps->o->baseline_path : &ps->o->junit_path;
    if (*slot)
        return g_strdup_printf("%s: give it once", name);
    *slot = g_strdup(value);
    return NULL;
}

static char *opt_write_format(struct parse_state *ps, const char *name, const char *value)
{
    if (!strcmp(value, "pcap"))
        ps->write_format = WOUT_PCAP;
    else if (!strcmp(value, "pcapng"))
        ps->write_format = WOUT_PCAPNG;
    else
        return g_strdup_printf("%s: '%s': pcap or pcapng", name, value);
    return NULL;
}

static char *opt_live_kernel(struct parse_state *ps, const char *name, const char *value)
{
    if (ps->live_kernel)
        return g_strdup_printf("%s: give one kernel list (VERSION[,VERSION...])", name);
    ps->live_kernel = g_strdup(value);
    return NULL;
}

/* ---- the table ----------------------------------------------------------------- */

#define FLAG(f) NULL, offsetof(struct parse_state, f)
#define FN(f) f, 0

struct opt_def {
    const char *name;          /* long name (--name) */
    char shortc;               /* -c, or 0 */
    int has_arg;               /* no_argument, required_argument, optional_argument */
    const char *argname;
    opt_fn set;                /* or: */
    size_t flag;               /* a bool of struct parse_state set to true */
    const char *help;
    const char *section;       /* a heading for --help before this option */
};

/* The protocol table's port options go after the what-if options (PORTS_AT) */
static const struct opt_def opts_head[] = {
    { "rx", 0, required_argument, "REPORT", FN(opt_rx), "Device report on the NIC: none "
      "(default), unnecessary:L, complete, partial:outer, partial:inner, partial:START:OFFSET, "
      "outer-l4, tunnel-l4, virtual (no NIC: veth, lo, tun)", "The receiver (what the kernel replays)" },
    { "era", 0, required_argument, "NAME", FN(opt_era),
      "Kernel era to replay (default modern; 'list' shows them); A,B,...: the fate of every frame "
      "--live would replay at each era, and what changes from one to the next (docs/live.md)", NULL },
    { "gro", 0, required_argument, "on|off|nic|tunnel", FN(opt_gro),
      "GRO on the NIC and tunnel devices: on (default), off, nic, tunnel", NULL },
    { "remcsum-rx", 0, no_argument, NULL, FLAG(remcsum_rx),
      "Receiver accepts remote checksum offload (VXLAN remcsumrx, GUE remcsum)", NULL },
    { "no-remcsum-rx", 0, no_argument, NULL, FLAG(no_remcsum_rx), "The VXLAN device was created "
      "with noremcsumrx given explicitly (from 6.14 its RCO bits are then not reserved)", NULL },
    { "remcsum-nopartial", 0, no_argument, NULL, FLAG(remcsum_nopartial),
      "RCO without CHECKSUM_PARTIAL (REMCSUM_NOPARTIAL)", NULL },
    { "udp6-zero-csum-rx", 0, no_argument, NULL, FLAG(udp6_zero), "Tunnel sockets accept zero "
      "UDP checksums over IPv6 (udp6zerocsumrx; FOU/GUE always do)", NULL },
    { "no-geneve-external", 0, no_argument, NULL, FLAG(no_geneve_external), "The GENEVE device "
      "has a remote instead of being 'external' (collect_md, as OVS makes it): critical options "
      "are dropped, zero UDP6 checksums need --udp6-zero-csum-rx", NULL },
    { "geneve-inner-proto-inherit", 0, no_argument, NULL, FLAG(geneve_inherit), "The GENEVE "
      "device has innerprotoinherit: protocols other than Ethernet are accepted", NULL },
    { "gre-csum", 0, required_argument, "packet|on|off", FN(opt_gre_csum), "GRE tunnel's "
      "checksum flag: packet (default: the tunnel matches each packet), on (icsum), off", NULL },
    { "no-socket", 0, no_argument, NULL, FLAG(no_socket),
      "No socket listens for the innermost transport (UdpNoPorts...)", NULL },
    { "live", 0, no_argument, NULL, FLAG(live), "Also write every frame into this machine's "
      "kernel (a private network namespace, a TAP, the tunnel devices the frames need; root) "
      "and show its outcome beside the model's (docs/live.md)", NULL },
    { "kernel", 0, required_argument, "VERSION", FN(opt_live_kernel), "With --live: write the "
      "frames into Debian's kernels in VMs instead, a comma list: 5.10, 6.1, 6.12, 7.x (sid), host "
      "(this machine's); several: each kernel beside the model and the fates that change (live/vm/csc-vm)",
      NULL },
    { "local", 0, required_argument, "ADDR,...", FN(opt_local), "This host's addresses (IPv4, "
      "IPv6, MAC; repeatable): a frame from one was sent, a frame to one received, where the "
      "capture does not say (docs/direction.md)", "Direction (which frames this host sent)" },
    { "iface-kind", 0, required_argument, "nic|veth|tun|lo", FN(opt_iface_kind), "What the "
      "capture's interface is (default nic; loopback is also seen in the frames): on veth and tun "
      "a received frame crosses with its sender's checksum state (--rx virtual)", NULL },
    { "no-direction-guess", 0, no_argument, NULL, FLAG(no_direction_guess), "Do not take a frame "
      "nothing else places as \"probably sent\" when its outermost checksum is a partial", NULL },
    { "assume-bad", 0, no_argument, NULL, FLAG(assume_bad),
      "Checksums over bytes the capture lacks are assumed bad (default: good)", NULL },
    { "gro-budget", 0, required_argument, "N", FN(opt_gro_param),
      "Frames per NAPI poll (default 64)", "The GRO engine (frames followed in capture order)" },
    { "gro-flush-timeout", 0, required_argument, "USEC", FN(opt_gro_param),
      "gro_flush_timeout in microseconds (default 0: flush at the end of every poll)", NULL },
    { "gro-max-size", 0, required_argument, "N", FN(opt_gro_param),
      "gro_max_size in bytes (default 65536)", NULL },
    { "poll-gap", 0, required_argument, "USEC", FN(opt_gro_param),
      "A gap between frames longer than this ends a NAPI poll (default 100)", NULL },
    { "gro-flows", 0, required_argument, "N", FN(opt_gro_flows),
      "GRO flows listed in the summary, most frames first (default 10; 0: none)", NULL },
    { "rewrite", 0, required_argument, "LIST", FN(opt_rewrite), "Rewrite every frame before "
      "the replay: outer-csum (outer UDP checksum computed), outer-zero (set to 0), inner-good "
      "(inner checksums made right); a comma list", "What if" },
    { "compare", 0, required_argument, "SPEC", FN(opt_compare), "Replay the capture under a "
      "second configuration (SPEC: comma list such as era=4.6,rx=unnecessary:0,outer-zero,"
      "remcsum-rx) and print both side by side; give it twice for A and B", NULL },
};

static const struct opt_def opts_tail[] = {
    { "l2tp-cookie-len", 0, required_argument, "N", FN(opt_l2tp),
      "L2TPv3 cookie length: 0 (default), 4, 8", NULL },
    { "l2tp-l2spec-len", 0, required_argument, "N", FN(opt_l2tp),
      "L2TPv3 L2-specific sublayer length: 0, 4 (default: chosen per frame from the bytes, "
      "the layer noted l2spec-guessed)", NULL },
    { "read", 'r', required_argument, "FILE", FN(opt_read), "Read FILE (repeatable); the words "
      "after the options are then a capture filter, as in tcpdump -r", "Choosing what to read" },
    { "filter", 'f', required_argument, "EXPR", FN(opt_filter), "Analyse only the frames the "
      "capture filter EXPR matches (pcap-filter(7), compiled by libpcap per link type); words "
      "after the inputs that start a filter are taken the same way", NULL },
    { "count", 'c', required_argument, "N", FN(opt_count), "Stop after N frames (the ones the "
      "filter matches), the inputs read one after the other", NULL },
    { "format", 'F', required_argument, "text|json|csv", FN(opt_format), "Output: text "
      "(summary, default), json (JSON Lines), csv (one row per checksum)", "Output" },
    { "verbose", 'v', no_argument, NULL, FN(opt_verbose), "text: one line per frame with a "
      "finding (-vv: and its kernel trace); json: add the kernel trace (steps)", NULL },
    { "show", 0, required_argument, "LIST", FN(opt_findings), "Print only the frames with one of "
      "these findings (the words of --fail-on; 'any,-none' excludes none), in every format; "
      "text: as -v does", NULL },
    { "summary-only", 0, no_argument, NULL, FLAG(o_summary_only),
      "No frame records, only the summary (and error records)", NULL },
    { "flows", 0, optional_argument, "N", FN(opt_flows), "Per-flow view: drops and software "
      "checksum passes by inner 5-tuple and tunnel id (the top N in text, default 10; every "
      "flow in JSON)", NULL },
    { "quiet", 'q', no_argument, NULL, FLAG(quiet), "No progress bar, no warnings", NULL },
    { "progress", 0, required_argument, "auto|always|never", FN(opt_progress),
      "Progress bar on stderr: auto (a terminal and long work), always, never", NULL },
    { "color", 0, optional_argument, "auto|always|never", FN(opt_color), "Color the text "
      "output: auto (default: when standard output is a terminal and NO_COLOR is unset), "
      "always, never", NULL },
    { "line-buffered", 'l', no_argument, NULL, FLAG(line_buffered), "Write each frame's output "
      "as soon as it is analysed (the default when standard output is a terminal)", NULL },
    { "fail-on", 0, required_argument, "LIST", FN(opt_findings), "Exit 1 when a frame has one of "
      "these findings: bad, drop, partial, unverifiable, lco, rco, zero6, none, warning, "
      "truncated, malformed, any (the first frames are named on stderr)", NULL },
    { "write", 'w', required_argument, "OUT", FN(opt_write), "Write the selected frames, "
      "unchanged, to OUT: pcap, or pcapng (with each frame's verdict line as its comment) when "
      "OUT ends in .pcapng; '-': standard output (the report then goes to standard error)",
      NULL },
    { "write-format", 0, required_argument, "pcap|pcapng", FN(opt_write_format),
      "The format of -w OUT, whatever its name", NULL },
    { "baseline", 0, required_argument, "PREVIOUS.json", FN(opt_path), "Compare each frame's "
      "outcome (verdicts, the kernel's fate, counters) with a previous run's -F json output: "
      "every frame that changed is reported, and the exit status is 1", NULL },
    { "junit", 0, required_argument, "FILE", FN(opt_path), "Write a JUnit XML report to FILE: "
      "a test case per input file, a failure per frame with a --fail-on finding (default "
      "bad,drop) or a change since --baseline", NULL },
    { "select", 0, required_argument, "LIST", FN(opt_findings),
      "Findings that select a frame for -w (same words as --fail-on; default bad,drop)", NULL },
    { "jobs", 'j', required_argument, "N", FN(opt_jobs), "Analyse N files in parallel (0: one "
      "per CPU); output stays in input order", "Running" },
    { "threads", 0, required_argument, "N", FN(opt_threads), "Threads that analyse the frames "
      "of a file: the one reading it and N-1 workers, in a pipeline (0: one per CPU, the "
      "default; 1: no pipeline)", NULL },
    { "merge", 0, no_argument, NULL, FLAG(o_merge), "The inputs are JSON summaries of separate "
      "runs (csumcheck -F json ... > SUMMARY.json): print the summary of their union", NULL },
    { "version", 'V', no_argument, NULL, FLAG(version), "Print the version and exit", NULL },
    { "help", 'h', no_argument, NULL, FLAG(help), "Show this help", NULL },
};

/* Every option: the head, a --PROTO-port per protocol row that has one and
 * --no-default-ports, the tail. Help texts made here are kept in texts. */
static GArray *option_defs(GPtrArray *texts)
{
    GArray *defs = g_array_new(FALSE, TRUE, sizeof(struct opt_def));
    g_array_append_vals(defs, opts_head, G_N_ELEMENTS(opts_head));
    GString *defaults = g_string_new(NULL);
    bool first = true;
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
        g_ptr_array_add(texts, help);
        struct opt_def e = { d->option, 0, required_argument, ipp ? "PORT:IPPROTO" : "PORT",
                             FN(opt_port), help, first ? "Tunnel ports" : NULL };
        g_array_append_val(defs, e);
        first = false;
    }
    char *help = g_strdup_printf("Forget the default tunnel ports (%s)", defaults->str);
    g_string_free(defaults, TRUE);
    g_ptr_array_add(texts, help);
    struct opt_def e = { "no-default-ports", 0, no_argument, NULL, FLAG(no_default_ports), help,
                         NULL };
    g_array_append_val(defs, e);
    g_array_append_vals(defs, opts_tail, G_N_ELEMENTS(opts_tail));
    return defs;
}

/* "  -F, --format=text|json|csv" then the help, wrapped at 79 columns */
static void help_option(GString *g, const struct opt_def *d)
{
    size_t start = g->len;
    g_string_append(g, "  ");
    if (d->shortc)
        g_string_append_printf(g, "-%c, ", d->shortc);
    g_string_append_printf(g, "--%s", d->name);
    if (d->has_arg == required_argument)
        g_string_append_printf(g, "=%s", d->argname);
    else if (d->has_arg == optional_argument)
        g_string_append_printf(g, "[=%s]", d->argname);
    const size_t col = 32, width = 79;
    size_t at = g->len - start;
    if (at + 2 > col) {
        g_string_append_c(g, '\n');
        at = 0;
    }
    char **words = g_strsplit(d->help, " ", -1);
    bool line_empty = true;
    for (char **w = words; *w; w++) {
        size_t n = strlen(*w);
        if (!line_empty && at + 1 + n > width) {
            g_string_append_c(g, '\n');
            at = 0;
            line_empty = true;
        }
        for (; at < col; at++)
            g_string_append_c(g, ' ');
        if (!line_empty) {
            g_string_append_c(g, ' ');
            at++;
        }
        g_string_append(g, *w);
        at += n;
        line_empty = false;
    }
    g_strfreev(words);
    g_string_append_c(g, '\n');
}

static void print_help(const GArray *defs)
{
    GString *g = g_string_new(NULL);
    g_string_append(g, "Usage:\n"
                       "  " CLI_NAME " [OPTION...] FILE|DIR|- ... [FILTER EXPRESSION]\n"
                       "  " CLI_NAME " [OPTION...] -r FILE ... [FILTER EXPRESSION]\n"
                       "  " CLI_NAME " --merge [OPTION...] SUMMARY.json ...\n\n"
                       "Per packet and per layer of tunnel traffic: what the checksum bytes say "
                       "and what\nthe Linux RX path would do with them. Reads pcap, pcapng "
                       "(several link types),\ngzip/zstd/lz4-compressed captures and the other "
                       "formats tshark reads.\n");
    for (unsigned i = 0; i < defs->len; i++) {
        const struct opt_def *d = &g_array_index(defs, struct opt_def, i);
        if (d->section)
            g_string_append_printf(g, "\n%s:\n", d->section);
        help_option(g, d);
    }
    g_string_append(g, "\nExit status: 0 no --fail-on finding, 1 a --fail-on finding, 2 an error "
                       "(an input\nthat could not be read completely, bad usage); 130, 143, 141: "
                       "stopped by SIGINT,\nSIGTERM, a closed standard output (the summary says "
                       "\"interrupted\").\nSee csumcheck(1), docs/cli.md and docs/json.md.\n");
    fputs(g->str, stdout);
    g_string_free(g, TRUE);
}

/* ---- the words that are not options: inputs, then a capture filter ---------- */

/* A word that starts a capture filter: a pcap-filter(7) keyword, alone or
 * before [ (ip[0]) or a digit-free rest, '(' or '!' */
static bool starts_filter(const char *w)
{
    static const char *const keywords[] = {
        "not", "and", "or", "ip", "ip6", "arp", "rarp", "tcp", "udp", "icmp", "icmp6", "igmp",
        "igrp", "pim", "sctp", "vrrp", "ah", "esp", "host", "net", "port", "portrange", "src",
        "dst", "ether", "link", "ppp", "fddi", "tr", "wlan", "vlan", "mpls", "pppoed", "pppoes",
        "geneve", "proto", "protochain", "len", "less", "greater", "broadcast", "multicast",
        "gateway", "inbound", "outbound", "ifname", "on", "iso", "clnp", "esis", "isis", "decnet",
        "atalk", "aarp", "ipx", "netbeui", "stp", "lat", "mopdl", "moprc", "sca",
    };
    if (*w == '(' || *w == '!')
        return true;
    size_t n = strcspn(w, "[ ");
    for (size_t i = 0; i < G_N_ELEMENTS(keywords); i++)
        if (strlen(keywords[i]) == n && !strncmp(w, keywords[i], n))
            return true;
    return false;
}

/* argv[first..]: inputs, then the words of a capture filter (none with -r:
 * every word is the filter then). The filter is compiled once here so a
 * mistake is a usage error before anything is read. */
static int take_words(struct parse_state *ps, struct cli_opts *o, int argc, char **argv, int first)
{
    GPtrArray *in = g_ptr_array_new();
    int i = first;
    for (unsigned k = 0; k < ps->reads->len; k++)
        g_ptr_array_add(in, g_strdup(ps->reads->pdata[k]));
    struct stat st;
    if (!ps->reads->len && !ps->o_merge)
        for (; i < argc; i++) {
            if (strcmp(argv[i], "-") && stat(argv[i], &st) != 0 && starts_filter(argv[i]))
                break;
            g_ptr_array_add(in, g_strdup(argv[i]));
        }
    else if (ps->o_merge)
        for (; i < argc; i++)
            g_ptr_array_add(in, g_strdup(argv[i]));
    g_ptr_array_add(in, NULL);
    o->inputs = (char **)g_ptr_array_free(in, FALSE);
    if (i < argc) {
        if (ps->filter)
            return usage_error("a capture filter with -f and words after the inputs ('%s'): "
                               "give it once", argv[i]);
        ps->filter = g_strjoinv(" ", argv + i);
    }
    if (ps->filter) {
        char *err = NULL;
        struct cli_filter *f = filter_new(ps->filter, &err);
        if (!f) {
            int rc = usage_error("capture filter '%s': %s", ps->filter, err);
            g_free(err);
            return rc;
        }
        filter_free(f);
        o->filter = ps->filter;
        ps->filter = NULL;
    }
    if (!o->inputs[0])
        return usage_error("no input: give capture files, directories, or - for standard "
                           "input%s\n(try '" CLI_NAME " --help')",
                           o->merge ? " (--merge: JSON summaries)" : "");
    return -1;
}

/* ---- parsing ------------------------------------------------------------------- */

/* getopt_long over the table; -1 to go on, else the exit status */
static int parse_args(struct parse_state *ps, const GArray *defs, int argc, char **argv)
{
    struct option *lo = g_new0(struct option, defs->len + 1);
    GString *shorts = g_string_new(":");   /* ':' first: a missing value is told apart */
    for (unsigned i = 0; i < defs->len; i++) {
        const struct opt_def *d = &g_array_index(defs, struct opt_def, i);
        lo[i] = (struct option){ d->name, d->has_arg, NULL, 256 + (int)i };
        if (d->shortc)
            g_string_append_printf(shorts, "%c%s", d->shortc,
                                   d->has_arg == required_argument ? ":" : "");
    }
    int rc = -1, c, li;
    opterr = 0;
    optind = 1;
    while (rc < 0 && (c = getopt_long(argc, argv, shorts->str, lo, &li)) != -1) {
        if (c == '?' || c == ':') {
            const char *what = optopt ? NULL : argv[optind - 1];
            char sh[3] = { '-', (char)optopt, 0 };
            rc = usage_error("%s '%s'\n(try '" CLI_NAME " --help')",
                             c == '?' ? "unknown option" : "this option needs a value:",
                             what ? what : sh);
            break;
        }
        unsigned k = 0;
        if (c >= 256)
            k = (unsigned)(c - 256);
        else
            while (g_array_index(defs, struct opt_def, k).shortc != c)
                k++;
        const struct opt_def *d = &g_array_index(defs, struct opt_def, k);
        char name[64];             /* as given: messages name it so */
        if (c >= 256)
            snprintf(name, sizeof name, "--%s", d->name);
        else
            snprintf(name, sizeof name, "-%c", c);
        if (!d->set) {
            *(bool *)(void *)((char *)ps + d->flag) = true;
            continue;
        }
        char *err = d->set(ps, name, optarg);
        if (err) {
            rc = usage_error("%s", err);
            g_free(err);
        }
    }
    g_free(lo);
    g_string_free(shorts, TRUE);
    return rc;
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
        flow_totals_free(&runs[i].flows);
        runs[i].spec = NULL;
    }
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
    c->guess_direction = !ps->no_direction_guess;
    c->local = ps->o->local.n ? &ps->o->local : NULL;
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
        flow_totals_init(&runs[i].flows);
    }
    return -1;
}

/* -j, --threads, -q, -w, --select, --show and the output's manners */
static int apply_run_options(struct parse_state *ps, struct cli_opts *o)
{
    o->quiet = ps->quiet;
    o->live = ps->live;
    o->live_kernel = ps->live_kernel;
    ps->live_kernel = NULL;
    o->era_list = ps->era_list;
    ps->era_list = NULL;
    if (o->live_kernel && !o->live)
        return usage_error("--kernel VERSION says which kernel --live writes into: give --live too");
    if (o->era_list && o->live)
        return usage_error("--live judges each kernel at its own era: --era A,B compares eras without it "
                           "(the model alone)");
    if (ps->quiet && o->progress == PROG_AUTO)
        o->progress = PROG_NEVER;
    o->jobs = ps->jobs ? (int)ps->jobs : (int)g_get_num_processors();
    if (o->count)
        o->jobs = 1;               /* -c counts frames in input order */
    o->threads = ps->threads ? (unsigned)ps->threads : g_get_num_processors();
    o->write_path = ps->write_path;
    ps->write_path = NULL;
    if (o->select_given && !o->write_path)
        return usage_error("--select chooses the frames -w writes: give -w OUT");
    if (o->write_path && !o->select_given)
        o->select = (1u << FD_BAD) | (1u << FD_DROP);
    if (ps->write_format && !o->write_path)
        return usage_error("--write-format says how -w OUT is written: give -w OUT");
    o->write_format = ps->write_format;
    o->junit_on = o->fail_on ? o->fail_on : (1u << FD_BAD) | (1u << FD_DROP);
    o->summary_only = ps->o_summary_only;
    if (o->summary_only && o->show_given)
        return usage_error("--summary-only and --show exclude each other");
    bool tty = isatty(STDOUT_FILENO) != 0;
    o->line_buffered = ps->line_buffered || tty;
    if (o->line_buffered)
        o->threads = 1;            /* each frame written as it is read: no batches */
    const char *no_color = getenv("NO_COLOR");
    o->color = ps->color > 0 || (ps->color == 0 && tty && !(no_color && *no_color) &&
                                 g_strcmp0(getenv("TERM"), "dumb"));
    return -1;
}

/* After the options: --help, --version, --era list, then the settings and
 * the words; -1 to go on */
static int after_parse(struct parse_state *ps, struct cli_opts *o, struct cli_run *runs,
                       const GArray *defs, int argc, char **argv)
{
    int rc;
    if (ps->help) {
        print_help(defs);
        return 0;
    }
    if (ps->version) {
        printf(CLI_NAME " %s (libcsumcore %s, %s)\n", CSC_VERSION, csc_version(),
               pcap_lib_version());
        if (optind < argc || ps->reads->len)
            fprintf(stderr, CLI_NAME ": -V prints the version only: the inputs given are not "
                            "read\n");
        return 0;
    }
    if (ps->list_eras) {
        list_eras();
        return 0;
    }
    o->merge = ps->o_merge;
    if ((rc = apply_receiver(ps, &runs[0].cfg)) >= 0 || (rc = make_runs(ps, o, runs)) >= 0 ||
        (rc = apply_run_options(ps, o)) >= 0)
        return rc;
    return take_words(ps, o, argc, argv, optind);
}

int options_parse(int *argc, char ***argv, struct cli_opts *o, struct cli_run *runs)
{
    struct parse_state state, *ps = &state;
    memset(ps, 0, sizeof *ps);
    ps->o = o;
    ps->run = &runs[0];
    ps->ports = g_array_new(FALSE, FALSE, sizeof(struct port_spec));
    ps->compare = g_ptr_array_new_with_free_func(g_free);
    ps->reads = g_ptr_array_new_with_free_func(g_free);
    ps->jobs = 1;
    ps->top_flows = 10;
    memset(o, 0, sizeof *o);
    o->format = &out_text;
    o->nruns = 1;
    csc_config_default(&runs[0].cfg);
    csc_gro_cfg_default(&runs[0].gro_cfg);

    GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
    GArray *defs = option_defs(texts);
    int rc = parse_args(ps, defs, *argc, *argv);
    if (rc < 0)
        rc = after_parse(ps, o, runs, defs, *argc, *argv);
    g_free(ps->write_path);
    g_free(ps->live_kernel);
    g_free(ps->era_list);
    g_free(ps->filter);
    g_array_free(ps->ports, TRUE);
    g_ptr_array_free(ps->compare, TRUE);
    g_ptr_array_free(ps->reads, TRUE);
    g_array_free(defs, TRUE);
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
