/*
 * cli.h - the csumcheck batch front-end (issues #5, #9): shared types.
 *
 * Shape: options.c builds one struct cli_opts and one struct cli_run per
 * configuration (two with --compare); inputs.c expands FILE|DIR|- into a
 * list of jobs; run.c analyses one job (one capture file) in a worker
 * thread: libpcap -> per run: [csc_rewrite()] csc_analyze_cached() ->
 * csc_frag_feed() -> csc_gro_feed() -> counters + renderers, its frames
 * spread over pipeline.c's worker threads when there are some; sink.c puts
 * every job's output on stdout (and the selected frames in -w OUT) in the
 * order of the inputs; render.c turns a csc_result into text / JSON Lines /
 * CSV with the core's names tables; gro_totals.c sums the GRO engine's
 * figures; summary.c renders the totals (summary_gro.c their GRO section,
 * compare.c the side-by-side comparison of two runs).
 *
 * A run is "one configuration over the inputs": struct cli_run holds the
 * csc_config, the what-if rewrite, the GRO engine's parameters and the
 * merged totals. Per file and per run, struct run_file (run.h) holds the
 * capture-order state: frag table, GRO engine, result, counters.
 */
#ifndef CSUMCHECK_CLI_H
#define CSUMCHECK_CLI_H

#include "csumcheck/csumcheck.h"
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"
#include "csumcheck/rcache.h"
#include "csumcheck/rewrite.h"

#include <glib.h>
#include <pcap/pcap.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CLI_NAME "csumcheck"
#define CLI_READ_BUF (256u * 1024u)   /* setvbuf size for the capture FILE */
#define CLI_OUT_BUF (256u * 1024u)    /* per-job output buffer */
#define CLI_REC_BUF (256u * 1024u)    /* per-job -w record buffer */
#define CLI_DROP_NAMES 64             /* drop reason ids we count (csc_drop_name) */
#define CLI_BITS 32
#define CLI_MAX_RUNS 2                /* --compare A B */
#define CLI_TOP_FLOWS_MAX 1000        /* --gro-flows N */
#define CLI_LABEL 48                  /* a run's short name in tables */

enum cli_format { FMT_TEXT = 0, FMT_JSON, FMT_CSV };
enum cli_progress { PROG_AUTO = 0, PROG_ALWAYS, PROG_NEVER };

/* Per-frame findings: the vocabulary of --select and --fail-on. */
enum cli_finding {
    FD_BAD = 0,        /* a layer verdict is bad */
    FD_DROP,           /* the kernel replay drops the frame */
    FD_PARTIAL,        /* a layer verdict is partial */
    FD_UNVERIFIABLE,   /* a layer verdict is unverifiable */
    FD_LCO,
    FD_RCO,
    FD_ZERO6,
    FD_NONE,           /* a layer carries no checksum (UDP zero, GRE w/o C) */
    FD_WARNING,        /* the replay raised a warning */
    FD_TRUNCATED,      /* decoding stopped: header cut by caplen */
    FD_MALFORMED,      /* decoding stopped: impossible header field */
    FD__COUNT
};
#define FD_ANY ((1u << FD__COUNT) - 1u)

const char *cli_finding_name(unsigned i);
/* "bad,drop" -> mask; also "any". false (and *bad = the offending word). */
bool cli_finding_parse(const char *s, uint32_t *mask, char **bad);

/* Totals of a run; summed over files (merge) and rendered by the summary. */
struct cli_stats {
    uint64_t files, files_failed, frames, cap_bytes, wire_bytes;
    uint64_t layer[CSC_P__COUNT][CSC_V__COUNT];   /* checksummed layers */
    uint64_t reason[CSC_R__COUNT];
    uint64_t finding[FD__COUNT];                   /* frames with the finding */
    uint64_t findings_any;                         /* frames with any finding */
    uint64_t stop[CSC_STOP__COUNT];
    uint64_t kverdict[CSC_K__COUNT];               /* accept / drop / unknown */
    uint64_t kernel_not_run;
    uint64_t counter[CSC_C__COUNT];                /* frames that bump it */
    uint64_t drop_reason[CLI_DROP_NAMES];
    uint64_t warning[CLI_BITS];
    uint64_t sw_passes, sw_bytes, hdr_bytes;
    uint64_t gro[CSC_P__COUNT][CSC_G__COUNT];      /* device kind x GRO result */
    uint64_t frag_completed, frag_evicted, frag_overlaps, frag_dropped;
    uint64_t selected, select_lost;                /* frames for -w / not written */
};

void cli_stats_merge(struct cli_stats *into, const struct cli_stats *s);

/* GRO engine totals of a run (csumcheck/gro.h), merged over files. Devices
 * are keyed by (kind, depth): the NIC is depth 0, tunnel devices follow in
 * the order the frame reaches them. */
struct cli_gro_dev {
    uint8_t used, kind, depth;
    uint64_t frames_in, packets_out, merged_frames, alone;
    uint64_t refused[CSC_G__COUNT];
    uint64_t flushes[CSC_GF__COUNT];
};

/* What names a flow: the outermost and innermost IP/L4 the device sees,
 * and the first tunnel id (copied from the frame that opened the flow). */
enum cli_family { CLI_FAMILY_NONE = 0, CLI_FAMILY_IPV4 = 4, CLI_FAMILY_IPV6 = 6 };
struct cli_endpoint {
    uint8_t family;            /* enum cli_family */
    uint8_t l4;                /* enum csc_proto of the transport, 0 none */
    uint16_t sport, dport;
    uint8_t src[16], dst[16];
};
struct cli_flow_id {
    uint8_t tunnel;            /* enum csc_proto of the first tunnel layer, 0 none */
    uint8_t tcp;               /* the device saw a TCP segment (a real GRO flow) */
    uint32_t tunnel_id;        /* VNI / GRE key */
    uint64_t first_frame;
    struct cli_endpoint outer, inner;
};

struct cli_gro_flow {
    unsigned file;             /* job index */
    uint8_t kind, depth;
    struct cli_flow_id id;
    uint64_t frames_in, packets_out, merged_frames;
    uint64_t flushes[CSC_GF__COUNT];
};

/* Devices of a run: every (kind, depth) any file's engine had. One file's
 * engine keeps CSC_GRO_DEVS; a run of many files may see more. */
#define CLI_GRO_DEVS 64

struct cli_gro_totals {
    struct cli_gro_dev dev[CLI_GRO_DEVS];
    uint64_t frames;
    uint64_t frames_unfollowed;   /* device table full: frames not followed at a device */
    uint64_t passes_single, bytes_single, passes_merged, bytes_merged;
    uint64_t tcp_flows, other_frames, flows_evicted;
    unsigned ntop;
    struct cli_gro_flow *top;  /* CLI_TOP_FLOWS_MAX, best first */
};

/* The options, parsed once, read-only while jobs run. */
struct cli_opts {
    enum cli_format format;
    int verbose;
    bool quiet;
    enum cli_progress progress;
    uint32_t fail_on;          /* finding mask */
    uint32_t select;           /* finding mask for -w */
    bool select_given;
    const char *write_path;    /* -w */
    int jobs;
    unsigned threads;          /* --threads: analysis workers (1: no pipeline) */
    unsigned top_flows;        /* --gro-flows N (default 10) */
    unsigned nruns;            /* 1, or 2 with --compare */
    char **inputs;             /* NULL-terminated (G_OPTION_REMAINING) */
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
    char label[CLI_LABEL];     /* "A" / "B" */
    char *spec;                /* the --compare SPEC as given (NULL: none) */
    char *json_kernel_prefix;  /* "kernel":{"rx":"..","era":".." */
    struct cli_stats st;       /* merged totals, guarded by the sink lock */
    struct cli_gro_totals gro; /* guarded by run_shared.merge_lock */
};

/* Buffered writer: nothing per frame touches stdio. */
struct wbuf {
    char *p;
    size_t len, cap;
    void (*flush)(struct wbuf *w);
    void *ctx;
};

void wb_flush(struct wbuf *w);
void wb_write_slow(struct wbuf *w, const void *p, size_t n);
static inline void wb_write(struct wbuf *w, const void *p, size_t n)
{
    if (__builtin_expect(n <= w->cap - w->len, 1)) {
        memcpy(w->p + w->len, p, n);   /* constant n (LIT) inlines to moves */
        w->len += n;
    } else {
        wb_write_slow(w, p, n);
    }
}
static inline void wb_putc(struct wbuf *w, char c)
{
    if (w->len == w->cap)
        wb_flush(w);
    w->p[w->len++] = c;
}
void wb_puts(struct wbuf *w, const char *s);
void wb_u64(struct wbuf *w, uint64_t v);
void wb_hex16(struct wbuf *w, uint16_t v);         /* 0x1a2b */
void wb_json_str(struct wbuf *w, const char *s);   /* quoted and escaped */
void wb_csv_field(struct wbuf *w, const char *s);  /* RFC 4180 */
void wb_text_name(struct wbuf *w, const char *s);  /* control chars escaped */
void wb_printf(struct wbuf *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* One input file. */
struct job {
    unsigned index;
    char *path;                /* as given or found while walking; "-" = stdin */
    uint64_t size;             /* bytes, 0 when unknown (stdin, pipes) */
    _Atomic uint64_t done_bytes;
    int linktype;              /* pcap_datalink(), -1 before open */
    bool done, failed;
    /* ordered output: spooled while an earlier input is still running */
    FILE *spool[2];            /* [0] report text, [1] -w records */
    bool head_drained[2];
    bool link_mismatch_told;
    uint64_t frames_lost;      /* -w records not written (link type) */
};

enum { SINK_OUT = 0, SINK_REC = 1 };

/* sink.c: ordered emission of every job's bytes */
struct cli_sink;
struct cli_sink *sink_new(struct job *jobs, unsigned njobs, FILE *out, const char *write_path,
                          bool quiet);
void sink_write(struct cli_sink *s, struct job *j, int which, const void *p, size_t n);
void sink_job_done(struct cli_sink *s, struct job *j, const struct cli_stats *st,
                   struct cli_stats *total);
/* stderr line, never garbled by the progress bar */
void sink_error(struct cli_sink *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void sink_warning(struct cli_sink *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Wait for every job; draws the progress bar meanwhile. */
void sink_wait_all(struct cli_sink *s, enum cli_progress mode);
/* Finish -w OUT (creating it when nothing was selected); false on error. */
bool sink_close(struct cli_sink *s, int fallback_linktype);
unsigned sink_errors(const struct cli_sink *s);
void sink_count_error(struct cli_sink *s);
void sink_free(struct cli_sink *s);

/* -w record format in the buffers and spools (host order, then data) */
struct rec_hdr {
    int64_t sec;
    uint32_t nsec, caplen, len, pad;
};

/* inputs.c */
struct job *inputs_expand(char **args, unsigned *njobs, unsigned *nerrors);

/* run.c */
struct run_shared {
    const struct cli_opts *o;
    struct cli_run *run;       /* o->nruns of them */
    struct cli_sink *sink;
    GMutex merge_lock;         /* run[i].gro and run[1].st */
    atomic_bool fail_hit;      /* a --fail-on finding was seen */
};
void run_job(struct run_shared *rs, struct job *j);

/* pipeline.c: the worker threads, shared by all files (none below 2) */
void pipeline_start(unsigned threads);
void pipeline_stop(void);

/* per-frame renderers (render.c) */
struct frame_view {
    const char *json_file;     /* file name already escaped, quoted */
    const char *csv_file;      /* file name already quoted for CSV */
    const char *text_file;     /* file name with control chars escaped */
    const char *kernel_prefix; /* ,"kernel":{"rx":"..","era":".." */
    uint64_t frame;            /* 1-based */
    const struct pcap_pkthdr *h;
    const struct csc_result *r;
    const struct csc_gro_decision *gd;   /* the GRO engine's fates */
    uint32_t findings;
};
/* The packet object without its closing brace; render_json_frame_end()
 * adds "gro_fate" and closes it. */
void render_json_frame_start(struct wbuf *w, const struct frame_view *v, bool steps);
void render_json_frame_end(struct wbuf *w, const struct csc_gro_decision *gd);
void render_json_gro_fate(struct wbuf *w, const struct csc_gro_decision *gd);
void render_text_gro_fate(struct wbuf *w, const struct csc_gro_decision *gd);
/* --compare: one line for a frame whose outcome differs between the runs */
void render_json_frame_diff(struct wbuf *w, const struct frame_view *v, const struct cli_run *runs,
                            const struct csc_result *const *r,
                            const struct csc_gro_decision *const *gd, unsigned nruns);
void render_text_frame_diff(struct wbuf *w, const struct frame_view *v, const struct cli_run *runs,
                            const struct csc_result *const *r,
                            const struct csc_gro_decision *const *gd, unsigned nruns);
void render_csv_header(struct wbuf *w);
void render_csv_frame(struct wbuf *w, const struct frame_view *v);
/* a -v line: start, the GRO fate ("; gro: ..."), end (newline, -vv trace) */
void render_text_frame_start(struct wbuf *w, const struct frame_view *v);
void render_text_frame_fate(struct wbuf *w, const struct csc_gro_decision *gd);
void render_text_frame_end(struct wbuf *w, const struct frame_view *v, int verbose);
void render_json_error(struct wbuf *w, const char *json_file, uint64_t frame, const char *msg);

/* summary.c */
void summary_text(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o,
                  unsigned nerrors, unsigned njobs);
void summary_json(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o,
                  unsigned nerrors, unsigned njobs, int exit_status);
/* A run's configuration in words ("rx none, era modern, gro on, ...") */
void run_config_words(struct wbuf *w, const struct cli_run *run);

/* compare.c */
void summary_compare_text(struct wbuf *w, const struct cli_run *runs, const struct cli_opts *o,
                          unsigned nerrors);
void summary_compare_json(struct wbuf *w, const struct cli_run *runs, const struct cli_opts *o,
                          unsigned nerrors, int exit_status);
void summary_compare_csv(struct wbuf *w, const struct cli_run *runs, const struct cli_opts *o);

/* summary_gro.c: what names a flow, in words (outer, tunnel, inner) */
void gro_flow_label(struct wbuf *w, const struct cli_flow_id *id);

/* gro_totals.c */
void gro_totals_init(struct cli_gro_totals *t);
void gro_totals_free(struct cli_gro_totals *t);
void gro_totals_merge(struct cli_gro_totals *into, const struct cli_gro_totals *t, unsigned top);

/* options.c */
int options_parse(int *argc, char ***argv, struct cli_opts *o, struct cli_run *runs);
void options_free_runs(struct cli_run *runs, unsigned n);

#endif
