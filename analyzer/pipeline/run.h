/*
 * run.h - what run.c (a file in capture order), pipeline.c (the same file
 * over the worker threads) and gro_totals.c share: a file's state and the
 * steps of one frame.
 */
#ifndef CSUMCHECK_RUN_H
#define CSUMCHECK_RUN_H

#include "gro_totals.h"
#include "job.h"
#include "opts.h"
#include "out.h"
#include "sink.h"
#include "stats.h"
#include "stop.h"
#include "wbuf.h"

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

struct cli_filter;

/* --fail-on: a frame that tripped it, named on stderr at the end */
struct fail_hit {
    unsigned file;             /* job index */
    uint32_t findings;         /* the --fail-on findings it has */
    uint64_t frame;
};
struct fail_list {
    struct fail_hit first[CLI_FAIL_LIST];   /* the first ones in input order */
    unsigned n;
    uint64_t frames, files;    /* all of them */
};

/* What every file's job shares (run.c) */
struct run_shared {
    const struct cli_opts *o;
    struct cli_run *run;       /* o->nruns of them */
    struct cli_sink *sink;
    struct cli_filter *filter; /* -f / trailing words: NULL without */
    GMutex merge_lock;         /* run[i].gro and run[1].st */
    atomic_bool fail_hit;      /* a --fail-on finding was seen */
    struct fail_list fails;    /* under merge_lock */
    _Atomic int64_t budget;    /* -c N: frames still to analyse (-1: no limit) */
};
void run_job(struct run_shared *rs, struct job *j);

/* pipeline.c: the worker threads, shared by all files (none below 2) */
void pipeline_start(unsigned threads);
void pipeline_stop(void);

#define RW_BUF 262144u               /* a rewritten frame (libpcap's largest snaplen) */
#define CLI_READ_BUF (256u * 1024u)   /* setvbuf size for the capture FILE */
#define CLI_OUT_BUF (256u * 1024u)    /* per-job output buffer */
#define CLI_REC_BUF (256u * 1024u)    /* per-job -w record buffer */

/* What names a frame's flow at one device: the layers flow_id_of() reads
 * (the outermost and innermost IP with their transports, the first tunnel),
 * found where the frame is analysed, so that the file's thread names a new
 * flow from the frame's bytes without decoding it again (with thousands of
 * flows, nearly every frame opens one in the engine's table). */
struct flow_ref {
    uint32_t addr_off[2];         /* the IP layers' csc_layer.u.ip.addr_off */
    uint32_t tunnel_id;
    uint16_t sport[2], dport[2];  /* as decoded (a reassembled transport has none) */
    uint8_t ip_proto[2], l4_proto[2];
    uint8_t tunnel;
};

/* What one configuration (struct cli_run) keeps per file, in capture
 * order: the frag table, the GRO engine (allocated per file: about
 * 130 KiB), the result of the current frame and the counters, merged into
 * the run's totals at the end of the file. */
struct run_file {
    const struct cli_run *run;
    struct csc_frag_table frag;
    uint8_t *frag_store;          /* the fragments' bytes (CSC_FRAG_STORE_BYTES) */
    struct csc_rcache rcache;     /* memoised replay of all-good frames */
    struct csc_result r;
    struct cli_stats st;
    struct csc_gro *gro;
    struct csc_gro_input gin;     /* the current frame's GRO input */
    struct csc_gro_decision gd;   /* the current frame's fates */
    struct cli_flow_id *fid;      /* per slot of gro->flow: what names the flow */
    struct flow_ref refs[CSC_MAX_DEVS];   /* the current frame's */
    uint64_t tcp_flows, other_frames;
    uint8_t *rwbuf;               /* the rewritten frame (run->rewrite) */
    struct csc_result *base;      /* the original frame's analysis, for csc_rewrite */
};

struct batch;
struct blk_state;
struct wtr;

/* What a frame is read with besides its bytes: a pcapng file has one link
 * type per interface, and its packet flags may give the direction. */
struct frame_in {
    int32_t dlt;                  /* pcap link type (-w writes it), -1: none */
    uint8_t link;                 /* enum csc_link */
    uint8_t dir;                  /* enum csc_direction */
};

/* A capture read one record at a time: libpcap (a classic pcap it must
 * judge, from the block reader's hand-over on) or libwiretap (every other
 * format, wtapread.c). */
struct rdr {
    pcap_t *pcap;
    struct wtr *wtr;
    struct frame_in last;         /* the link of the last record */
    uint64_t bytes;               /* read so far (the progress bar) */
};

/* What the workers read of a file: set when the file starts, read-only
 * afterwards (they take a copy per batch, so no cache line they read per
 * frame is one the file's thread writes). */
struct file_view {
    const struct cli_run *runs;
    unsigned nruns;
    struct out_file out;       /* how the output format writes this file */
};

/* Per-file state */
struct file_ctx {
    struct run_file rf[CLI_MAX_RUNS];
    struct file_view fv;
    unsigned nruns;
    struct wbuf out, rec;
    struct run_shared *rs;
    struct job *job;
    struct frame_in fin;          /* the file's link (a classic pcap: every frame's) */
    bool cmp, want_rec;
    bool want_comment;            /* -w pcapng: each written frame's verdict line */
    bool want_outcome;            /* --baseline: each frame's outcome in words */
    struct out_file cout;         /* that line's text format */
    uint64_t baseline_files_new;  /* --baseline: this file is not in it (said once) */
    bool gated;                   /* -f or -c: every record passes frame_gate() */
    int32_t told_dlt[8];          /* link types already said to be undecoded */
    unsigned ntold;
    struct flow_table *flows;     /* --flows: this file's table (run A) */
    struct fail_hit fail[CLI_FAIL_LIST];   /* --fail-on: this file's first frames */
    unsigned nfail;
    uint64_t fail_frames;
    int32_t flt_dlt;              /* -f: the link type of flt_prog */
    const struct bpf_program *flt_prog;   /* NULL: the filter cannot apply to flt_dlt */
    /* the pipeline */
    struct batch **ring;
    unsigned depth;
    GMutex lock;
    GCond cond;
    /* the block reader in the pipeline: the thread that analyses a batch
     * also reads it (pipeline.c, fill_task) */
    GMutex rd;                    /* held while a batch is read */
    struct blk *blk;
    struct blk_state *bs;
    pcap_t *handover;             /* libpcap for the rest, once the reader hands over */
    uint64_t nframes, nfilled;    /* under rd: frames read, batches read */
    bool blk_done;                /* under lock: no more batches from the reader */
    unsigned outstanding;         /* under lock: read tasks not yet sequenced or found empty */
};

/* run.c: the steps of one frame, shared by both ways through a file */
void flow_refs_of(struct flow_ref *refs, const struct csc_result *r, const struct csc_gro_input *in);
const struct csc_frame *analyse_result(const struct cli_run *run, struct csc_rcache *rc,
                                       struct csc_result *r, struct csc_result *base,
                                       uint8_t *rwbuf, const struct csc_frame *f0,
                                       struct csc_frame *rw);
bool needs_order(const struct csc_result *r);
void gro_feed(struct run_file *rf, const struct csc_gro_input *in, const struct flow_ref *refs,
              const struct csc_frame *fa, uint64_t n, uint64_t ts_us);
/* A frame's output: before its GRO fate, the fate, after it */
bool render_start(const struct file_view *fv, struct wbuf *w, const struct frame_view *v);
void render_fate(const struct file_view *fv, struct wbuf *w, const struct csc_gro_decision *gd);
void render_end(const struct file_view *fv, struct wbuf *w, const struct frame_view *v);
/* What the analysing thread wrote of a frame for frame_done: its verdict
 * line before the GRO fate (-w pcapng comments, --junit failures) and its
 * outcome in words (--baseline) */
struct frame_words {
    const char *line, *outcome;
    size_t nline, noutcome;
};
#define FRAME_LINE_MAX 16384      /* a verdict line: 32 layers, counters, a long file name */
void frame_done(struct file_ctx *c, uint64_t n, uint32_t mall, const struct pcap_pkthdr *h,
                const uint8_t *data, const struct frame_in *fi, const struct frame_words *fw);
/* Is the frame's verdict line wanted (a -w pcapng frame, a --junit failure)? */
bool frame_selected(const struct file_ctx *c, uint32_t mall);
/* --baseline: the end of a file read whole (its frames the run did not see) */
void baseline_file_end(struct file_ctx *c);
/* Render what frame_done will want of the frame into w; the offsets of the
 * line [off[0], off[1]) and the outcome [off[2], off[3]) count from where
 * w's bytes go (*base: the bytes w flushed there before its own) */
void frame_words_render(const struct file_ctx *c, struct wbuf *w, const struct frame_view *v,
                        uint32_t mall, const size_t *base, uint32_t off[4]);
void frame_in_order(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
                    uint64_t n, const struct frame_in *fi);

/* -f and -c (and the end of the run on a signal): what to do with a record
 * read, before it is numbered into the analysis */
enum { GATE_TAKE, GATE_SKIP, GATE_STOP };
int frame_gate(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
               const struct frame_in *fi);
/* the next record of r: 1 (*h, *data, *fi set), 0 at the end, -1 an error */
int rdr_next(struct file_ctx *c, struct rdr *r, struct pcap_pkthdr **h, const u_char **data,
             struct frame_in *fi);

static inline uint64_t ts_usec(const struct pcap_pkthdr *h)
{
    /* the file is opened with nanosecond precision: tv_usec holds ns */
    return (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec / 1000u;
}

/* pcapblk.c: classic pcap read in blocks into the analysing buffer; libpcap
 * for everything else, from the first record it must judge on */
#define BLK_BUF (256u * 1024u)
enum { BLK_FRAME, BLK_MORE, BLK_END, BLK_LIBPCAP };
struct blk {
    int fd;
    bool fast;                   /* records are read here (else libpcap reads) */
    bool nano, eof;
    bool eager;                  /* -l: hand on what one read() gives (a slow pipe) */
    bool failed;                 /* the hand-over to libpcap failed */
    uint8_t hdr[24];
    size_t nhdr;                 /* header bytes read (all of them when fast) */
    uint32_t snap;
    int linktype;
    uint64_t bytes;              /* read so far */
};
/* Reads the file header; true when the records can be read here. */
bool blk_open(struct blk *k, int fd);
/* read() into buf[have, cap): bytes read, 0 at the end, -1 on error */
ssize_t blk_fill(struct blk *k, uint8_t *buf, size_t have, size_t cap);
/* the record at p (avail bytes there): BLK_FRAME (h set, its data at p + 16),
 * BLK_MORE (read more), BLK_END, or BLK_LIBPCAP (libpcap must take it) */
int blk_record(const struct blk *k, const uint8_t *p, size_t avail, struct pcap_pkthdr *h);
/* libpcap over the header, the unused bytes and the rest of the file */
pcap_t *blk_libpcap(struct blk *k, const uint8_t *unused, size_t nunused, char *errbuf);
/* The header read is a classic pcap's (any byte order): libpcap's to judge */
bool blk_is_classic(const struct blk *k);
FILE *blk_rest_stream(const struct blk *k, const uint8_t *unused, size_t nunused);

/* wtapread.c: libwiretap. A pipe input (is_pipe) is read from fd after the
 * npending bytes already read from it. */
struct wtr *wtr_open(const char *path, int fd, bool is_pipe, const uint8_t *pending,
                     size_t npending, char **errmsg);
int wtr_next(struct wtr *r, struct pcap_pkthdr **h, const uint8_t **data, int *dlt,
             uint8_t *dir);
const char *wtr_error(const struct wtr *r);
int wtr_file_linktype(const struct wtr *r);
/* libwiretap knows the format of the file at path (compressed files found
 * in a directory are looked into this way) */
bool wtr_is_capture(const char *path);
uint64_t wtr_bytes(const struct wtr *r);
void wtr_close(struct wtr *r);


/* pipeline.c */
bool pipeline_running(void);
int pipeline_file(struct file_ctx *c, struct rdr *rd, struct blk *k, uint64_t *np);

/* gro_totals.c */
void file_gro_totals(const struct run_file *rf, unsigned file, unsigned top,
                     struct cli_gro_totals *t);

#endif
