/*
 * parse.h - what the parts of the command line parser share (options.c:
 * the parse and the settings; table.c: every option, its handler and its
 * help; spec.c: the receiver's settings in words and --compare SPEC).
 */
#ifndef CSUMCHECK_PARSE_H
#define CSUMCHECK_PARSE_H

#include "opts.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
        no_direction_guess, no_fast_path, replay_sent;
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

/* A handler: NULL when the value is taken, else what is wrong (g_free it) */
typedef char *(*opt_fn)(struct parse_state *ps, const char *name, const char *value);

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

/* options.c: "csumcheck: MESSAGE" on stderr; returns the exit status 2 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* spec.c: receiver settings from words; false when the word is none of them */
bool set_gro(struct csc_config *c, const char *value);
bool set_gre_csum(struct csc_config *c, const char *value);
bool parse_uint(const char *s, unsigned long max, unsigned long *out);
/* The protocol row whose port option this is ("--vxlan-port" -> CSC_P_VXLAN) */
unsigned port_option_proto(const char *name);
/* --gro-budget, --gro-flush-timeout, --gro-max-size, --poll-gap (and the same
 * keys in a SPEC): false with *expect saying what the value should be */
bool set_gro_param(struct csc_gro_cfg *g, const char *key, const char *value, const char **expect);
/* One --compare SPEC applied to a run made from the base options; false
 * with the message in err */
bool apply_spec(struct cli_run *run, const char *spec, GString *err);

/* table.c: every option (a --PROTO-port per protocol row that has one),
 * help texts made here kept in texts; --help from them */
GArray *option_defs(GPtrArray *texts);
void print_help(const GArray *defs);

#endif
