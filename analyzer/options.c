/*
 * options.c - command line -> struct cli_opts + the run's csc_config
 * (GOptionContext). Receiver options map one to one onto csc_config fields,
 * parsed by the core's own parsers (csc_report_parse, csc_era_by_name) so
 * the CLI and the plugin accept the same syntax.
 */
#include "cli.h"

#include <errno.h>
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
    gboolean remcsum_rx, remcsum_nopartial, udp6_zero, no_socket, assume_bad, quiet, version;
    gint jobs;
    gchar *write_path;
    gchar **inputs;
    bool list_eras;
};

static const char *const finding_names[FD__COUNT] = {
    [FD_BAD] = "bad",         [FD_DROP] = "drop",       [FD_PARTIAL] = "partial",
    [FD_UNVERIFIABLE] = "unverifiable", [FD_LCO] = "lco", [FD_RCO] = "rco",
    [FD_ZERO6] = "zero6",     [FD_NONE] = "none",       [FD_WARNING] = "warning",
    [FD_TRUNCATED] = "truncated", [FD_MALFORMED] = "malformed",
};

const char *cli_finding_name(unsigned i)
{
    return i < FD__COUNT ? finding_names[i] : "?";
}

bool cli_finding_parse(const char *s, uint32_t *mask, char **bad)
{
    uint32_t m = 0;
    gchar **words = g_strsplit(s, ",", -1);
    bool ok = words[0] != NULL;
    for (gchar **w = words; *w && ok; w++) {
        gchar *t = g_strstrip(*w);
        unsigned i;
        if (!strcmp(t, "any")) {
            m |= FD_ANY;
            continue;
        }
        for (i = 0; i < FD__COUNT; i++)
            if (!strcmp(t, finding_names[i]))
                break;
        if (i == FD__COUNT) {
            *bad = g_strdup(t);
            ok = false;
        } else {
            m |= 1u << i;
        }
    }
    if (!ok && !*bad)
        *bad = g_strdup(s);
    g_strfreev(words);
    *mask = m;
    return ok;
}

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

static gboolean opt_gro(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    struct csc_config *c = &ps->run->cfg;
    if (!strcmp(value, "on"))
        c->gro_nic = c->gro_tunnel = true;
    else if (!strcmp(value, "off"))
        c->gro_nic = c->gro_tunnel = false;
    else if (!strcmp(value, "nic"))
        c->gro_nic = true, c->gro_tunnel = false;
    else if (!strcmp(value, "tunnel"))
        c->gro_nic = false, c->gro_tunnel = true;
    else
        FAIL("%s: expected on, off, nic or tunnel, not '%s'", name, value);
    return TRUE;
}

static gboolean opt_gre_csum(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    if (!strcmp(value, "packet"))
        ps->run->cfg.gre_csum = 0;
    else if (!strcmp(value, "on"))
        ps->run->cfg.gre_csum = 1;
    else if (!strcmp(value, "off"))
        ps->run->cfg.gre_csum = 2;
    else
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

static gboolean opt_port(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    struct port_spec p = { 0, 0, 0 };
    unsigned long v, ipp = 0;
    const char *n = name + 2;   /* "--vxlan-port" */
    gchar *num = g_strdup(value);
    gchar *colon = strchr(num, ':');
    if (colon)
        *colon++ = 0;
    bool ok = parse_uint(num, 65535, &v) && v > 0;
    if (!strcmp(n, "vxlan-port"))
        p.proto = CSC_P_VXLAN;
    else if (!strcmp(n, "vxlan-gpe-port"))
        p.proto = CSC_P_VXLAN_GPE;
    else if (!strcmp(n, "geneve-port"))
        p.proto = CSC_P_GENEVE;
    else if (!strcmp(n, "gue-port"))
        p.proto = CSC_P_GUE;
    else if (!strcmp(n, "l2tp-port"))
        p.proto = CSC_P_L2TP;
    else if (!strcmp(n, "mpls-port"))
        p.proto = CSC_P_MPLS;
    else
        p.proto = CSC_P_FOU;
    if (p.proto == CSC_P_FOU) {
        if (!colon || !parse_uint(colon, 255, &ipp) || ipp == 0)
            ok = false;
    } else if (colon) {
        ok = false;
    }
    g_free(num);
    if (!ok) {
        if (p.proto == CSC_P_FOU)
            FAIL("%s: expected PORT:IPPROTO (e.g. 5555:4 for IPIP, 5555:41 for IPv6, 5555:47 "
                 "for GRE), not '%s'", name, value);
        FAIL("%s: expected a UDP port 1-65535, not '%s'", name, value);
    }
    p.port = (uint16_t)v;
    p.ipproto = (uint8_t)ipp;
    g_array_append_val(ps->ports, p);
    return TRUE;
}

static gboolean opt_format(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    struct parse_state *ps = data;
    if (!strcmp(value, "text"))
        ps->o->format = FMT_TEXT;
    else if (!strcmp(value, "json"))
        ps->o->format = FMT_JSON;
    else if (!strcmp(value, "csv"))
        ps->o->format = FMT_CSV;
    else
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
            g_string_append_printf(g, "%s,", finding_names[i]);
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

#define CB(f) G_OPTION_ARG_CALLBACK, (gpointer)(f)

int options_parse(int *argc, char ***argv, struct cli_opts *o, struct cli_run *run)
{
    struct parse_state ps;
    memset(&ps, 0, sizeof ps);
    ps.o = o;
    ps.run = run;
    ps.ports = g_array_new(FALSE, FALSE, sizeof(struct port_spec));
    ps.jobs = 1;
    memset(o, 0, sizeof *o);
    csc_config_default(&run->cfg);

    const GOptionEntry entries[] = {
        /* receiver */
        { "rx", 0, 0, CB(opt_rx), "Device report on the NIC: none (default), unnecessary:L, "
          "complete, partial:outer, partial:inner, partial:START:OFFSET, outer-l4, tunnel-l4",
          "REPORT" },
        { "era", 0, 0, CB(opt_era), "Kernel era to replay (default modern; 'list' shows them)",
          "NAME" },
        { "gro", 0, 0, CB(opt_gro), "GRO on the NIC and tunnel devices: on (default), off, nic, "
          "tunnel", "on|off|nic|tunnel" },
        { "remcsum-rx", 0, 0, G_OPTION_ARG_NONE, &ps.remcsum_rx,
          "Receiver accepts remote checksum offload (VXLAN remcsumrx, GUE remcsum)", NULL },
        { "remcsum-nopartial", 0, 0, G_OPTION_ARG_NONE, &ps.remcsum_nopartial,
          "RCO without CHECKSUM_PARTIAL (REMCSUM_NOPARTIAL)", NULL },
        { "udp6-zero-csum-rx", 0, 0, G_OPTION_ARG_NONE, &ps.udp6_zero,
          "Tunnel sockets accept zero UDP checksums over IPv6 (udp6zerocsumrx)", NULL },
        { "gre-csum", 0, 0, CB(opt_gre_csum), "GRE tunnel's checksum flag: packet (default: the "
          "tunnel matches each packet), on (icsum), off", "packet|on|off" },
        { "no-socket", 0, 0, G_OPTION_ARG_NONE, &ps.no_socket,
          "No socket listens for the innermost transport (UdpNoPorts...)", NULL },
        { "assume-bad", 0, 0, G_OPTION_ARG_NONE, &ps.assume_bad,
          "Checksums over bytes the capture lacks are assumed bad (default: good)", NULL },
        { "vxlan-port", 0, 0, CB(opt_port), "Also decode UDP PORT as VXLAN (repeatable)",
          "PORT" },
        { "vxlan-gpe-port", 0, 0, CB(opt_port), "Also decode UDP PORT as VXLAN-GPE", "PORT" },
        { "geneve-port", 0, 0, CB(opt_port), "Also decode UDP PORT as GENEVE", "PORT" },
        { "gue-port", 0, 0, CB(opt_port), "Also decode UDP PORT as GUE", "PORT" },
        { "fou-port", 0, 0, CB(opt_port), "Decode UDP PORT as FOU carrying IP protocol IPPROTO",
          "PORT:IPPROTO" },
        { "l2tp-port", 0, 0, CB(opt_port), "Also decode UDP PORT as L2TP", "PORT" },
        { "mpls-port", 0, 0, CB(opt_port), "Also decode UDP PORT as MPLS-in-UDP", "PORT" },
        { "no-default-ports", 0, 0, G_OPTION_ARG_NONE, &ps.no_default_ports,
          "Forget the standard tunnel ports (4789, 4790, 6081, 6080, 1701, ...)", NULL },
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
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &ps.quiet, "No progress bar, no warnings", NULL },
        { "progress", 0, 0, CB(opt_progress),
          "Progress bar on stderr: auto (a terminal and long work), always, never",
          "auto|always|never" },
        { "fail-on", 0, 0, CB(opt_findings),
          "Exit 1 when a frame has one of these findings: bad, drop, partial, unverifiable, "
          "lco, rco, zero6, none, warning, truncated, malformed, any", "LIST" },
        { "write", 'w', 0, G_OPTION_ARG_FILENAME, &ps.write_path,
          "Write the selected frames, unchanged, to the pcap file OUT", "OUT" },
        { "select", 0, 0, CB(opt_findings),
          "Findings that select a frame for -w (same words as --fail-on; default bad,drop)",
          "LIST" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &ps.jobs,
          "Analyse N files in parallel (0: one per CPU); output stays in input order", "N" },
        { "version", 'V', 0, G_OPTION_ARG_NONE, &ps.version, "Print the version and exit", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ps.inputs, NULL, NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };

    GOptionContext *ctx = g_option_context_new("FILE|DIR|- ...");
    g_option_context_set_summary(
        ctx, "Per packet and per layer of tunnel traffic: what the checksum bytes say and what "
             "the Linux RX path would do with them.");
    g_option_context_set_description(
        ctx, "Exit status: 0 no --fail-on finding, 1 a --fail-on finding, 2 an error (an input "
             "that could not be read completely, bad usage).\nSee csumcheck(1) and docs/json.md.\n");
    GOptionGroup *grp = g_option_group_new(CLI_NAME, "csumcheck options", "Show options", &ps, NULL);
    g_option_group_add_entries(grp, entries);
    g_option_context_set_main_group(ctx, grp);

    GError *err = NULL;
    int rc = -1;
    if (!g_option_context_parse(ctx, argc, argv, &err)) {
        fprintf(stderr, CLI_NAME ": %s\n(try '" CLI_NAME " --help')\n", err->message);
        g_error_free(err);
        rc = 2;
        goto out;
    }
    if (ps.version) {
        printf(CLI_NAME " %s (libcsumcore %s, %s)\n", CSC_VERSION, csc_version(),
               pcap_lib_version());
        rc = 0;
        goto out;
    }
    if (ps.list_eras) {
        list_eras();
        rc = 0;
        goto out;
    }

    struct csc_config *c = &run->cfg;
    c->remcsum_rx = ps.remcsum_rx;
    c->remcsum_nopartial = ps.remcsum_nopartial;
    c->udp6_zero_csum_rx = ps.udp6_zero;
    c->inner_socket = !ps.no_socket;
    c->assume_bad = ps.assume_bad;
    if (ps.no_default_ports)
        c->nports = 0;
    for (unsigned i = 0; i < ps.ports->len; i++) {
        struct port_spec *p = &g_array_index(ps.ports, struct port_spec, i);
        if (!csc_config_set_port(c, p->port, p->proto, p->ipproto)) {
            fprintf(stderr, CLI_NAME ": too many tunnel ports (at most %d)\n", CSC_MAX_PORTS);
            rc = 2;
            goto out;
        }
    }
    csc_report_format(&c->rx, run->rx_name, sizeof run->rx_name);

    o->quiet = ps.quiet;
    if (ps.quiet && o->progress == PROG_AUTO)
        o->progress = PROG_NEVER;
    if (ps.jobs < 0 || ps.jobs > 1024) {
        fprintf(stderr, CLI_NAME ": -j: expected 0-1024, not %d\n", ps.jobs);
        rc = 2;
        goto out;
    }
    o->jobs = ps.jobs ? ps.jobs : (int)g_get_num_processors();
    o->write_path = ps.write_path;
    ps.write_path = NULL;
    if (o->select_given && !o->write_path) {
        fprintf(stderr, CLI_NAME ": --select chooses the frames -w writes: give -w OUT\n");
        rc = 2;
        goto out;
    }
    if (o->write_path && !o->select_given)
        o->select = (1u << FD_BAD) | (1u << FD_DROP);
    if (o->write_path && !strcmp(o->write_path, "-")) {
        fprintf(stderr, CLI_NAME ": -w -: the report already uses standard output; give a file\n");
        rc = 2;
        goto out;
    }
    if (!ps.inputs || !ps.inputs[0]) {
        fprintf(stderr, CLI_NAME ": no input: give capture files, directories, or - for "
                        "standard input\n(try '" CLI_NAME " --help')\n");
        rc = 2;
        goto out;
    }
    o->inputs = ps.inputs;
    ps.inputs = NULL;
out:
    g_strfreev(ps.inputs);
    g_free(ps.write_path);
    g_array_free(ps.ports, TRUE);
    g_option_context_free(ctx);
    return rc;
}
