/*
 * file.h - one capture file's state as the pipeline stage holds it: what
 * every file's job shares (struct run_shared), what each configuration keeps
 * per file (struct run_file) and the file's context (struct file_ctx), read
 * by run.c (the file in capture order), pipeline.c (the same file over the
 * worker threads), frame.c (the steps of one frame) and source.c (its
 * records).
 */
#ifndef CSUMCHECK_FILE_H
#define CSUMCHECK_FILE_H

#include "gro_totals.h"
#include "job.h"
#include "opts.h"
#include "out.h"
#include "sink.h"
#include "stats.h"
#include "wbuf.h"

#include "csumcheck/csumcheck.h"
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"
#include "csumcheck/fast.h"

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

/* What every file's job shares (run.c: run_job) */
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

/* The layers that name a device's flow (flow_refs_of): the outer and inner
 * IP layers, their transports, the first tunnel; FLOW_NO_LAYER: none */
#define FLOW_NO_LAYER 0xff
struct flow_layers {
    uint8_t l0, ip[2], l4[2], tun;
};

/* What names the flows of a frame's devices depends on its shape alone:
 * kept per fast-path plan (csc_fast_served), so a frame a plan served finds
 * its devices' layers without walking them. Direct-mapped by the plan's
 * serial, bounded, an entry replaced by the next plan of its slot. */
#define FLOW_SHAPES 1024
struct flow_shapes {
    struct flow_shape {
        uint64_t serial;         /* the plan (0: empty) */
        uint8_t ndevs;
        struct flow_layers d[CSC_MAX_DEVS];
    } e[FLOW_SHAPES];
};

/* What one configuration (struct cli_run) keeps per file, in capture
 * order: the frag table, the GRO engine (allocated per file: about
 * 130 KiB), the result of the current frame and the counters, merged into
 * the run's totals at the end of the file. */
struct run_file {
    const struct cli_run *run;
    struct csc_frag_table frag;
    uint8_t *frag_store;          /* the fragments' bytes (CSC_FRAG_STORE_BYTES) */
    struct csc_fast fast;         /* the fast path's tables (shapes, the replay memo) */
    struct csc_fast *fp;          /* &fast, or NULL (--no-fast-path) */
    struct csc_result r;
    struct cli_stats st;
    struct csc_gro *gro;
    struct csc_gro_input gin;     /* the current frame's GRO input */
    struct csc_gro_decision gd;   /* the current frame's fates */
    struct cli_flow_id *fid;      /* per slot of gro->flow: what names the flow */
    struct flow_ref refs[CSC_MAX_DEVS];   /* the current frame's */
    struct flow_shapes *shapes;   /* the refs' layers by plan (NULL: --no-fast-path) */
    struct stat_shapes *stat_shapes;   /* the counters a plan's frames add (NULL: the same) */
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
    bool fast_path;            /* not --no-fast-path */
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

static inline uint64_t ts_usec(const struct pcap_pkthdr *h)
{
    /* the file is opened with nanosecond precision: tv_usec holds ns */
    return (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec / 1000u;
}

#endif
