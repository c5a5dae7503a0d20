/*
 * out.h - the output interface. A format (text, JSON Lines, CSV) is one
 * struct out_format, implemented once in out_text.c, out_json*.c and
 * out_csv.c; run.c, pipeline.c and main.c call it and know no format.
 *
 * Records, in the order they appear:
 *   begin      once, before anything (the CSV header row)
 *   frame      one frame, before its GRO fate; false: the frame prints nothing
 *   fate       the frame's GRO engine fates (known only in capture order, so
 *              the pipeline's workers leave a hole for it)
 *   frame_end  the rest of the frame's record (text: the -vv trace)
 *   diff       --compare: a frame whose outcome differs between the runs
 *   error      an input that could not be read, or not to its end
 *   summary    the totals of a run; compare: of two runs side by side
 * A NULL entry prints nothing. A new format is a new struct out_format
 * (docs/architecture.md).
 */
#ifndef CSUMCHECK_OUT_H
#define CSUMCHECK_OUT_H

#include "flows.h"
#include "opts.h"
#include "wbuf.h"

#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>

/* One file as a format writes it: set when the file starts (setup fills
 * the flags), read-only afterwards (the pipeline's workers copy it). */
struct out_file {
    const struct out_format *fmt;
    const struct cli_opts *o;
    const struct cli_run *runs;
    unsigned nruns;
    char *name;                /* the file name as the format writes it (escaped) */
    char *kernel_members;      /* JSON: "rx":"..","era":".." of the first run */
    bool frames;               /* frame records are printed */
    uint32_t show;             /* only frames with one of these findings (0: all): --show,
                                  else the format's show_default */
    bool diffs;                /* --compare: the frames whose outcome differs are printed */
    bool flows;                /* --flows: a record per flow (formats that have one) */
    bool color;                /* text: ANSI colours (--color) */
    unsigned frame_bytes;      /* about what a printed frame takes (batch sizes) */
};

/* One frame under one run */
struct frame_view {
    uint64_t frame;            /* 1-based */
    const struct pcap_pkthdr *h;
    const struct csc_result *r;
    uint32_t findings;         /* 1 << enum cli_finding */
};

/* The end of the output */
struct out_summary {
    const struct cli_opts *o;
    const struct cli_run *runs;    /* o->nruns of them */
    unsigned nerrors, njobs;
    int exit_status;
    int stopped_by;                /* the signal that ended the run early, 0: none */
};

#define OUT_TRACE_BYTES 10240u   /* a frame record with the replay trace */

struct out_format {
    const char *name;                               /* --format NAME */
    void (*escape)(struct wbuf *w, const char *s);  /* a file name as this format writes it */
    int frames_from_v;         /* frame records from this many -v on (diffs too); -1 never */
    int trace_from_v;          /* the replay trace from this many -v on; -1 never */
    uint32_t show_default;     /* the frames printed without --show (findings mask; 0: all) */
    unsigned frame_bytes;      /* about what a frame record takes without the trace */
    void (*begin)(struct wbuf *w, const struct cli_opts *o);
    bool (*frame)(struct wbuf *w, const struct out_file *f, const struct frame_view *v);
    void (*fate)(struct wbuf *w, const struct out_file *f, const struct csc_gro_decision *gd);
    void (*frame_end)(struct wbuf *w, const struct out_file *f, const struct frame_view *v);
    void (*diff)(struct wbuf *w, const struct out_file *f, const struct frame_view *v,
                 const struct csc_result *const *r, const struct csc_gro_decision *const *gd);
    void (*error)(struct wbuf *w, const struct out_file *f, uint64_t frame, const char *msg);
    /* --flows: one flow of the file (at the end of the file, or when pushed out) */
    void (*flow)(struct wbuf *w, const struct out_file *f, const struct cli_flow *fl);
    /* --baseline: a frame whose outcome is not the baseline's (was or now
     * NULL: on one side only; now is nnow bytes) */
    void (*baseline)(struct wbuf *w, const struct out_file *f, uint64_t frame, const char *was,
                     const char *now, size_t nnow);
    void (*summary)(struct wbuf *w, const struct out_summary *s);
    void (*compare)(struct wbuf *w, const struct out_summary *s);
};

extern const struct out_format out_text, out_json, out_csv;
/* "text", "json", "csv"; NULL when unknown */
const struct out_format *out_format_by_name(const char *name);

/* The replay records its trace: the format prints it */
bool out_traces(const struct cli_opts *o);
/* out_file's setup and release (run.c, per file) */
void out_file_open(struct out_file *f, const struct cli_opts *o, const struct cli_run *runs,
                   const char *path);
/* The text line of a frame for a -w pcapng comment (no colour, run A) */
void out_file_open_comment(struct out_file *f, const struct cli_opts *o, const struct cli_run *runs,
                           const char *path);
/* out_text.c: that line, "FILE:FRAME: findings; kernel: ..." as -v prints
 * it, in two parts: before the GRO fate (the analysis), and the fate */
void text_comment(struct wbuf *w, const struct out_file *f, const struct frame_view *v);
void text_comment_fate(struct wbuf *w, const struct csc_gro_decision *gd);
void out_file_close(struct out_file *f);

/* Shared by the formats */
static inline unsigned out_nlayers(const struct csc_result *r)
{
    return r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
}
/* the layer carries a checksum field or a verdict */
static inline bool out_has_csum(const struct csc_layer *l)
{
    return l->csum_off != CSC_NO_OFF || l->verdict != CSC_V_NA;
}
/* An inner checksum remcsum_adjust was computed for: resolved good (rco) or
 * bad for an RCO reason that still leaves a resolved value. */
static inline bool out_rco_resolved(const struct csc_layer *l)
{
    return l->reason == CSC_R_RCO || l->reason == CSC_R_RCO_WRONG_SEED ||
           l->reason == CSC_R_RCO_OUTER_BAD || l->reason == CSC_R_RCO_OUTER_MISSING;
}
const char *plural(uint64_t n, const char *one, const char *many);
/* "SIGINT", "SIGTERM", "SIGPIPE" */
const char *out_signal_name(int sig);
/* the path of input `file` (a job index) */
const char *out_job_name(const struct cli_opts *o, unsigned file);
/* the inputs read (not an expansion error, not skipped by a stop) */
unsigned out_files_read(const struct cli_opts *o);

/* The summary halves of the text and JSON formats (out_*_summary.c) */
void text_summary(struct wbuf *w, const struct out_summary *s);
void text_compare(struct wbuf *w, const struct out_summary *s);
void json_summary(struct wbuf *w, const struct out_summary *s);
void json_compare(struct wbuf *w, const struct out_summary *s);
/* An {"type":"error"} line for an error found outside a file's job */
void json_error_line(FILE *out, const char *path, const char *msg);
/* --flows: a {"type":"flow"} record */
void json_flow_record(struct wbuf *w, const struct out_file *f, const struct cli_flow *fl);

#endif
