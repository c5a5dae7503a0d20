/*
 * fast.h - the fast path: csc_analyze() for frames of a known shape.
 *
 * csc_analyze_fast() gives the result csc_analyze() gives, byte for byte,
 * and spends far less on a frame whose shape it has seen. A shape is what
 * the analysis of a frame depends on: its length and link, and the bytes
 * the general path read to decode, verify, place and replay it (rec.h). On
 * the first frame of a shape the general path runs with its reads recorded
 * and compiles a plan (fast.c):
 *   - the guard: every byte the general path branched on, with its value
 *     (a mask and the values over the headers), and the classes it took of
 *     bytes it did not branch on directly (the address classes, the UDP
 *     port table's row);
 *   - the values to read again: each field the decoder filled from a value
 *     (a port, a sequence number, an identifier, an address sum), with its
 *     frame offset and its place in the result;
 *   - the template: the result itself (layers, breakpoints, direction, the
 *     replay's outcome), and each checksummed layer's verdict before and
 *     after the verifier.
 * A later frame of that length and link whose guard holds is analysed from
 * the plan: the template copied, the values read at their offsets, one pass
 * over the bytes for the sums of every region, each checksum judged by the
 * verifier's own code; if a verdict differs from the template's (a bad
 * checksum), or the guard does not hold, the general path runs. What a plan
 * checks is derived from the general path's reads, never listed by hand: a
 * new rule that reads a byte is guarded by that read. tests/fastpath
 * (csc-fastpath-check: every capture, corpus file and fuzz seed, each
 * header byte changed in turn; the CLI with and without --no-fast-path)
 * holds the two paths to the same bytes.
 *
 * The tables are the caller's (struct csc_fast, fixed size and bounded,
 * counted eviction; pages touched only as shapes arrive); the core
 * allocates nothing.
 */
#ifndef CSUMCHECK_FAST_H
#define CSUMCHECK_FAST_H

#include "csumcheck.h"
#include "gro.h"
#include "rcache.h"

#include <stddef.h>
#include <stdint.h>

#define CSC_FAST_SETS 512        /* plans in sets by length and link (power of two) */
#define CSC_FAST_WAYS 8
#define CSC_PLAN_LAYERS 12       /* a deeper stack is not planned */
#define CSC_PLAN_BREAKS 40
#define CSC_PLAN_WIN 192         /* the guarded window (REC_WIN) */
#define CSC_PLAN_FAR 8
#define CSC_PLAN_OPS 40
#define CSC_PLAN_CLASSES 6

/* One plan (private: fast.c) */
struct csc_plan_op {
    uint8_t kind, dsize, shift, ip;
    uint16_t dst, src;
    uint32_t mask;
};
struct csc_plan_class {
    uint8_t kind, proto;
    uint16_t pad;
    uint32_t at, value;
};
struct csc_plan_far {
    uint32_t off;
    uint8_t len, pad[3];
    uint8_t bytes[8];
};
struct csc_plan {
    uint64_t serial;             /* which plan: its number among the table's (never 0) */
    uint32_t wirelen;
    uint8_t link, dir, nlayers, nfar, nclass, nops, ncheck, nbp;
    uint16_t glen;               /* the guarded window: bytes [0, glen) */
    uint16_t npieces;
    uint32_t bytes_summed;
    uint32_t hits;
    uint8_t gmask[CSC_PLAN_WIN], gval[CSC_PLAN_WIN];
    struct csc_plan_far far[CSC_PLAN_FAR];
    struct csc_plan_class cls[CSC_PLAN_CLASSES];
    struct csc_plan_op ops[CSC_PLAN_OPS];
    uint8_t check[CSC_PLAN_LAYERS];         /* the checksummed layers, innermost first */
    uint16_t good;               /* bit k: check[k] had no verdict before verify and is good */
    int8_t region[CSC_PLAN_LAYERS][2];      /* check[k]'s region: breakpoint indices (verify.h) */
    uint8_t pre_verdict[CSC_PLAN_LAYERS], pre_reason[CSC_PLAN_LAYERS];   /* before verify */
    uint8_t head[offsetof(struct csc_result, layers)];
    struct csc_layer layers[CSC_PLAN_LAYERS];
    uint64_t values[CSC_PLAN_LAYERS][2];
    uint32_t bp[CSC_PLAN_BREAKS];
    uint8_t at[CSC_PLAN_LAYERS];
    uint8_t kernel[offsetof(struct csc_kernel, steps)];   /* the outcome, without steps */
    struct csc_gro_walk gro;     /* the GRO keys' walk of this shape (csc_gro_prepare_fast) */
};

struct csc_fast {
    struct csc_config cfg;       /* the configuration the plans were made under */
    uint8_t have_cfg;
    int32_t budget;              /* plans that may still be made before they pay (fast.c) */
    uint64_t hits, compiles, evicted, fallbacks, general;
    uint64_t served;             /* the plan that served the last frame (its serial), 0: none */
    const struct csc_plan *served_plan;   /* and the plan itself (while served) */
    uint8_t used[CSC_FAST_SETS];            /* plans in each set */
    uint8_t order[CSC_FAST_SETS][CSC_FAST_WAYS];   /* each set's plans, most recent first */
    struct csc_rcache memo;      /* the replay's outcome by the replay's input */
    struct csc_plan plan[CSC_FAST_SETS][CSC_FAST_WAYS];
};

struct csc_fast_stats {
    uint64_t known;              /* frames served from a plan */
    uint64_t compiles;           /* plans made */
    uint64_t evicted;            /* plans replaced by another */
    uint64_t fallbacks;          /* a plan's guard held, a verdict differed: the general path */
    uint64_t general;            /* frames the general path analysed */
    uint64_t memo_hits, memo_misses, memo_bypass, memo_evicted;
};

/* Empty tables (cheap: only the bookkeeping is written). */
void csc_fast_init(struct csc_fast *t);
/* csc_analyze() through the tables t (NULL: csc_analyze itself). */
void csc_analyze_fast(const struct csc_config *cfg, const struct csc_frame *f,
                      struct csc_result *out, struct csc_fast *t);
void csc_fast_stats(const struct csc_fast *t, struct csc_fast_stats *st);
/* The plan that served the frame csc_analyze_fast() analysed last: its
 * serial, the same for every frame of that plan and never again for another
 * (a caller keys what it derives from the frame's shape by it), 0 when the
 * general path analysed the frame or t is NULL. */
static inline uint64_t csc_fast_served(const struct csc_fast *t)
{
    return t ? t->served : 0;
}
/* csc_gro_prepare() of the frame csc_analyze_fast() analysed last into r:
 * a frame a plan served has its keys mixed along the plan's walk. */
void csc_gro_prepare_fast(const struct csc_frame *f, const struct csc_result *r,
                          struct csc_gro_input *in, const struct csc_fast *t);

#endif
