/*
 * stats.h - a run's totals (struct cli_stats): one frame's findings and
 * counters (stats.c: stats_account_frame), merged per file and per run; and
 * the findings vocabulary of --select and --fail-on.
 */
#ifndef CSUMCHECK_STATS_H
#define CSUMCHECK_STATS_H

#include "csumcheck/csumcheck.h"

#include <stdbool.h>
#include <stdint.h>

#define CLI_DROP_NAMES 64             /* drop reason ids we count (csc_drop_name) */
#define CLI_BITS 32                   /* warning bits we count */

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
    FD_STOP,           /* decoding stopped before the innermost payload (stop_is_finding) */
    FD_SNAPLEN,        /* a checksum unverifiable: the capture cut the bytes it covers */
    FD__COUNT
};
#define FD_ANY ((1u << FD__COUNT) - 1u)
/* What needs action (the default of the text's frame lines and of "frames
 * with findings"): a bad checksum (a wrong RCO seed is one), a drop, a
 * decoder stop, a truncation that hides a verdict. --fail-on, --select and
 * --show take the group as the word "action". */
#define FD_ACTION ((1u << FD_BAD) | (1u << FD_DROP) | (1u << FD_TRUNCATED) | \
                   (1u << FD_MALFORMED) | (1u << FD_STOP) | (1u << FD_SNAPLEN))
/* Checksums absent or left undone by design, where nothing needs action:
 * none, zero6 (accepted), rco, unverifiable for a reason that is not the
 * capture's (fragment, ICMP quote, super-packet length); on a received
 * frame also partial and lco the receiver took (virtual interfaces). A
 * sent frame's partial and lco are its TX view, counted apart. */
#define FD_BY_DESIGN ((1u << FD_NONE) | (1u << FD_ZERO6) | (1u << FD_RCO) | \
                      (1u << FD_UNVERIFIABLE) | (1u << FD_PARTIAL) | (1u << FD_LCO))

const char *cli_finding_name(unsigned i);
/* "bad,drop" -> mask; also "any", and "-word" takes a finding out again
 ("any,-none"). false (and *bad = the offending word). */
bool cli_finding_parse(const char *s, uint32_t *mask, char **bad);

/* Totals of a run; summed over files (merge) and rendered by the summary. */
struct cli_stats {
    uint64_t files, files_failed, frames, cap_bytes, wire_bytes;
    uint64_t layer[CSC_P__COUNT][CSC_V__COUNT];   /* checksummed layers */
    uint64_t reason[CSC_R__COUNT];
    uint64_t finding[FD__COUNT];                   /* frames with the finding */
    uint64_t findings_any;                         /* frames with any finding */
    uint64_t action_any;                           /* frames with an FD_ACTION finding */
    uint64_t by_design_any;                        /* frames without one, with FD_BY_DESIGN */
    uint64_t by_design[FD__COUNT];                 /* those frames, by finding */
    uint64_t stop[CSC_STOP__COUNT];
    uint64_t stop_proto[CSC_STOP__COUNT][CSC_P__COUNT]; /* those frames by the protocol it
                                                      stopped in (the summary's detail) */
    uint64_t kverdict[CSC_K__COUNT];               /* accept / drop / unknown */
    uint64_t kernel_not_run;
    uint64_t counter[CSC_C__COUNT];                /* frames that bump it */
    uint64_t drop_reason[CLI_DROP_NAMES];
    uint64_t warning[CLI_BITS];
    uint64_t sw_passes, sw_bytes, hdr_bytes;
    uint64_t gro[CSC_P__COUNT][CSC_G__COUNT];      /* device kind x GRO result */
    uint64_t frag_completed, frag_evicted, frag_overlaps, frag_dropped;
    uint64_t selected, select_lost;                /* frames for -w / not written */
    uint64_t direction[3][CSC_DF__COUNT];          /* frames by csc_direction, dir_from */
    uint64_t tx_frames;                            /* sent frames given their TX view */
    uint64_t tx_kind[CSC_TX__COUNT];               /* those frames, by what was left to the NIC */
    uint64_t tx_peer[CSC_K__COUNT];                /* --peer-rx: the wire frames' verdicts */
    uint64_t tx_peer_not[CSC_TXP__COUNT];          /* --peer-rx: not replayed, why */
    uint64_t baseline_changed, baseline_new, baseline_gone;   /* --baseline */
};

void cli_stats_merge(struct cli_stats *into, const struct cli_stats *s);
/* A decoder stop the user should know of: decoding ended before the
 * innermost payload for a reason other than a non-first fragment. */
bool stop_is_finding(const struct csc_result *r);
/* One frame into the totals; returns its findings (1 << enum cli_finding). */
uint32_t stats_account_frame(struct cli_stats *st, const struct csc_result *r,
                             const struct csc_frame *f0);

/* A frame's counters depend on its shape alone (its verdicts, reasons,
 * stop, direction and replay outcome: a fast-path plan's template), so a
 * frame a plan served adds what the plan's first frame added: kept per
 * plan (csc_fast_served), direct-mapped by its serial, bounded (an entry is
 * replaced by the next plan of its slot; a frame whose counters do not fit
 * STAT_DELTAS is counted the general way). */
#define STAT_SHAPES 1024
#define STAT_DELTAS 40
struct stat_shapes {
    struct stat_shape {
        uint64_t serial;             /* the plan (0: empty) */
        uint32_t m;                  /* the frame's findings */
        uint32_t n;                  /* deltas */
        struct stat_delta {
            uint32_t word;           /* the counter: its index among cli_stats' words */
            uint32_t add;
        } d[STAT_DELTAS];
    } e[STAT_SHAPES];
};
/* stats_account_frame() for a frame that plan `served` analysed (0: none),
 * through shapes (NULL: the general way) */
uint32_t stats_account_shaped(struct cli_stats *st, const struct csc_result *r,
                              const struct csc_frame *f0, struct stat_shapes *shapes,
                              uint64_t served);

/* The verdicts of the summaries' columns, in the order of the vocabulary (all but n/a) */
extern const unsigned verdict_cols[CSC_V__COUNT - 1];

/* Drop reasons summed by name (two ids may share one name) */
struct named { const char *name; uint64_t n; };
unsigned drops_by_name(const struct cli_stats *st, struct named *out);
/* The sum of n counts */
uint64_t counts_total(const uint64_t *v, unsigned n);
/* Checksummed layers of protocol p, any verdict */
uint64_t layer_total(const struct cli_stats *st, unsigned p);
/* Frames in one direction (enum csc_direction), whatever decided it */
uint64_t direction_total(const struct cli_stats *st, unsigned dir);
/* Frames the GRO pass of a device of this kind saw */
uint64_t gro_kind_total(const struct cli_stats *st, unsigned kind);

#endif
