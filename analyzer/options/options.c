/*
 * options.c - command line -> struct cli_opts + the runs' csc_config.
 * Receiver options map one to one onto csc_config fields, parsed by the
 * core's own parsers (csc_report_parse, csc_era_by_name, csc_rewrite_parse)
 * so the CLI and the plugin accept the same syntax.
 *
 * getopt_long (glibc), not GOption: GOption takes a short option's value
 * only from the next word, so -Fjson, -j2, -c10 and -wout.pcap, which
 * tcpdump and tshark users type, were refused or misread (docs/cli.md).
 * One table (table.c) lists every option with its handler and its help; the
 * protocol table adds a --PROTO-port option per tunnel that has one
 * (csc_proto_desc), and --help is written from both.
 *
 * Inputs: the words that are not options are files, directories or -
 * (standard input), up to the first word that is not a path and starts a
 * capture filter (a pcap-filter(7) keyword, '(' or '!'): from there on the
 * words are the filter, as tcpdump takes them. With -r FILE every word is
 * the filter, as in tcpdump -r. -f EXPR gives it as one argument.
 *
 * --compare SPEC (issue #9): the options make the base configuration; one
 * --compare SPEC compares the base (A) with the base changed by SPEC (B);
 * two --compare give A = base + SPEC1 and B = base + SPEC2 (spec.c).
 */
#include "opts.h"

#include "filter.h"
#include "out.h"
#include "parse.h"
#include "run.h"
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

int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(CLI_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
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
    c->replay_sent = ps->replay_sent;
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
        if (runs[i].peer_on)
            csc_report_format(&runs[i].peer_rx, runs[i].peer_name, sizeof runs[i].peer_name);
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
    o->fast_path = !ps->no_fast_path;
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
