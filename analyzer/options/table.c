/*
 * table.c - every option of the command line: its handler, its help, its
 * section of --help. One table (opts_head[], the protocol table's
 * --PROTO-port options, opts_tail[]); getopt_long and --help are made from
 * it (options.c, print_help()).
 */
#include "parse.h"

#include "out.h"
#include "wout.h"

#include "csumcheck/rewrite.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* ---- option handlers: NULL when the value is taken, else what is wrong ---- */

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

/* --peer-rx REPORT: a sent frame's wire frame through a receiver with this report */
static char *opt_peer_rx(struct parse_state *ps, const char *name, const char *value)
{
    if (!csc_report_parse(value, &ps->run->peer_rx))
        return g_strdup_printf("%s: unknown device report '%s' (the values of --rx)", name, value);
    ps->run->peer_on = true;
    return NULL;
}

/* A string option given once: kept in *slot; a second one is an error
 * ("NAME: give " what) */
static char *set_once(char **slot, const char *name, const char *value, const char *what)
{
    if (*slot)
        return g_strdup_printf("%s: give %s", name, what);
    *slot = g_strdup(value);
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
        char *m = set_once(&ps->era_list, name, value, "one list of eras");
        if (m)
            return m;
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

/* --gro-nic-no-rx-hash: the NIC's flows share one GRO hash bucket (a TAP) */
static char *opt_gro_no_rx_hash(struct parse_state *ps, const char *name, const char *value)
{
    (void)name;
    (void)value;
    ps->run->gro_cfg.nic_no_rx_hash = true;
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
    return set_once(&ps->filter, name, value, "the capture filter once");
}

static char *opt_read(struct parse_state *ps, const char *name, const char *value)
{
    (void)name;
    g_ptr_array_add(ps->reads, g_strdup(value));
    return NULL;
}

static char *opt_write(struct parse_state *ps, const char *name, const char *value)
{
    return set_once(&ps->write_path, name, value, "one output file");
}

/* --baseline, --junit: a path, given once */
static char *opt_path(struct parse_state *ps, const char *name, const char *value)
{
    char **slot = !strcmp(name, "--baseline") ? &ps->o->baseline_path : &ps->o->junit_path;
    return set_once(slot, name, value, "it once");
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
    return set_once(&ps->live_kernel, name, value, "one kernel list (VERSION[,VERSION...])");
}

/* ---- the table ----------------------------------------------------------------- */

#define FLAG(f) NULL, offsetof(struct parse_state, f)
#define FN(f) f, 0


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
    { "replay-sent", 0, no_argument, NULL, FLAG(replay_sent), "Replay a sent frame through the "
      "receive path as if received (default: its TX view, what it left to the NIC; docs/direction.md)",
      NULL },
    { "peer-rx", 0, required_argument, "REPORT", FN(opt_peer_rx), "A sent frame's TX view also "
      "says what a receiver with this device report (the values of --rx) does with the frame the "
      "NIC puts on the wire", NULL },
    { "assume-bad", 0, no_argument, NULL, FLAG(assume_bad),
      "Checksums over bytes the capture lacks are assumed bad (default: good)", NULL },
    { "gro-budget", 0, required_argument, "N", FN(opt_gro_param),
      "Frames per NAPI poll (default 64)", "The GRO engine (frames followed in capture order)" },
    { "gro-flush-timeout", 0, required_argument, "USEC", FN(opt_gro_param),
      "gro_flush_timeout in microseconds (default 0: flush at the end of every poll)", NULL },
    { "gro-max-size", 0, required_argument, "N", FN(opt_gro_param),
      "gro_max_size in bytes (default 65536)", NULL },
    { "gro-nic-no-rx-hash", 0, no_argument, NULL, FN(opt_gro_no_rx_hash),
      "The NIC gives no RX hash (a TAP, no RSS hashing): every flow at the NIC shares GRO hash "
      "bucket 0, so a ninth held flow flushes the oldest (default: flows spread over 8 buckets)", NULL },
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
    { "no-fast-path", 0, no_argument, NULL, FLAG(no_fast_path), "Analyse every frame layer by "
      "layer: no per-shape fast path, no memoised replay (the output is the same; slower)", NULL },
    { "merge", 0, no_argument, NULL, FLAG(o_merge), "The inputs are JSON summaries of separate "
      "runs (csumcheck -F json ... > SUMMARY.json): print the summary of their union", NULL },
    { "version", 'V', no_argument, NULL, FLAG(version), "Print the version and exit", NULL },
    { "help", 'h', no_argument, NULL, FLAG(help), "Show this help", NULL },
};

/* Every option: the head, a --PROTO-port per protocol row that has one and
 * --no-default-ports, the tail. Help texts made here are kept in texts. */
GArray *option_defs(GPtrArray *texts)
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

void print_help(const GArray *defs)
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
