/*
 * opts.h - the command line, parsed once (options.c) and read-only while
 * jobs run: struct cli_opts, and one struct cli_run per configuration (two
 * with --compare A B), which also gathers that configuration's totals.
 */
#ifndef CSUMCHECK_OPTS_H
#define CSUMCHECK_OPTS_H

#include "flows.h"
#include "gro_totals.h"
#include "stats.h"

#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"

#include <stdbool.h>
#include <stdint.h>

#define CLI_NAME "csumcheck"
#define CLI_MAX_RUNS 2                /* --compare A B */
#define CLI_LABEL 48                  /* a run's short name in tables */

struct out_format;
struct job;

enum cli_progress { PROG_AUTO = 0, PROG_ALWAYS, PROG_NEVER };

#define CLI_FAIL_LIST 20              /* --fail-on: frames named on stderr */
#define CLI_FLOWS_DEFAULT 10          /* --flows: flows in the text summary */

struct cli_opts {
    const struct out_format *format;   /* --format: out_text, out_json or out_csv */
    int verbose;
    bool quiet;
    bool live;                 /* --live: replay through this machine's kernel (live.c) */
    char *live_kernel;         /* --kernel LIST: --live in those kernels (VMs, host) instead (NULL: here) */
    char *era_list;            /* --era A,B,...: the model's fates across eras (live.c), NULL: none */
    enum cli_progress progress;
    uint32_t fail_on;          /* finding mask */
    uint32_t select;           /* finding mask for -w */
    bool select_given;
    uint32_t show;             /* --show: frames printed (finding mask; all bits: every frame) */
    bool show_given;
    bool summary_only;         /* --summary-only: no frame records */
    bool line_buffered;        /* -l, or standard output is a terminal */
    bool color;                /* --color: after auto is decided */
    bool merge;                /* --merge: the inputs are JSON summaries */
    unsigned flows;            /* --flows[=N]: per-flow view, N in text (0: off) */
    const char *write_path;    /* -w */
    char *baseline_path;       /* --baseline PREVIOUS.json */
    struct baseline *baseline; /* it, read */
    char *junit_path;          /* --junit FILE */
    uint32_t junit_on;         /* the findings that fail a frame in it (--fail-on's, else bad,drop) */
    int write_format;          /* --write-format: enum wout_format (0: by the name) */
    int jobs;
    unsigned threads;          /* --threads: analysis workers (1: no pipeline) */
    bool fast_path;            /* not --no-fast-path: the per-shape fast path and the memo */
    unsigned top_flows;        /* --gro-flows N (default 10) */
    uint64_t count;            /* -c N: analyse N frames, then stop (0: all) */
    char *filter;              /* -f EXPR or the words after the inputs (NULL: none) */
    unsigned nruns;            /* 1, or 2 with --compare */
    char **inputs;             /* NULL-terminated */
    struct csc_local_set local;/* --local: this host's addresses (the runs' cfg.local) */
    const struct job *jobv;    /* the expanded inputs (for the summaries) */
    unsigned njobv;
};

/* One configuration over the inputs (two of them for --compare). */
struct cli_run {
    unsigned index;            /* 0 = A, 1 = B */
    struct csc_config cfg;
    unsigned rewrite;          /* csc_rewrite ops applied to every frame first */
    struct csc_gro_cfg gro_cfg;
    char rx_name[48];          /* csc_report_format(cfg.rx) */
    bool peer_on;              /* --peer-rx: a sent frame's wire frame replayed at a receiver */
    struct csc_report peer_rx; /* its device report */
    char peer_name[48];        /* csc_report_format(peer_rx) */
    char label[CLI_LABEL];     /* "A" / "B" */
    char *spec;                /* the --compare SPEC as given (NULL: none) */
    struct cli_stats st;       /* merged totals, guarded by the sink lock */
    struct cli_gro_totals gro; /* guarded by run_shared.merge_lock */
    struct cli_flow_totals flows;   /* --flows (run A), guarded by merge_lock */
};

/* Returns -1 to go on, else the exit status (usage error, --version...). */
int options_parse(int *argc, char ***argv, struct cli_opts *o, struct cli_run *runs);
void options_free_runs(struct cli_run *runs, unsigned n);
/* The run's rewrite operations in words ("outer-zero,inner-good") */
const char *rewrite_words(unsigned ops);

#endif
