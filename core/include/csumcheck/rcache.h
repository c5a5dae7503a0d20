/*
 * rcache.h - memoised replay for frames whose every checksum is right.
 *
 * When every checksummed layer of a frame is good (or none / zero6), every
 * validation the replay makes succeeds, so its outcome (methods, passes,
 * GRO results, verdict, counters) depends only on the frame's shape: the
 * protocols, offsets, lengths, notes and the few header fields the kernel
 * functions branch on (TCP flags, GRE flags, tunnel flags, zero UDP
 * checksums, RCO announcements). A bulk capture repeats a handful of shapes,
 * so csc_analyze_cached() serialises exactly those fields into a key and
 * reuses the replay of an earlier frame with a byte-identical key (compared
 * in full, not by hash). Any other frame, a cut frame, or a run that asks for
 * the step trace, is replayed from scratch. tests/unit/test_rcache.c and the
 * fuzz target check that both paths give the same result.
 */
#ifndef CSUMCHECK_RCACHE_H
#define CSUMCHECK_RCACHE_H

#include <stddef.h>

#include "csumcheck.h"

#define CSC_RCACHE_SETS 2048     /* sets of CSC_RCACHE_WAYS entries (power of two) */
#define CSC_RCACHE_WAYS 2
#define CSC_RCACHE_SLOTS (CSC_RCACHE_SETS * CSC_RCACHE_WAYS)
#define CSC_RCACHE_KEY 768

struct csc_rcache_entry {
    uint16_t keylen;
    uint8_t key[CSC_RCACHE_KEY];
    uint8_t kernel[offsetof(struct csc_kernel, steps)];   /* the kernel result without steps */
    struct csc_layer_kernel lk[CSC_MAX_LAYERS];
};

/* Entries in sets of two chosen by the key's hash; a miss replaces the
 * set's least recently used entry (counted in evicted). A tag per entry
 * (the hash's high bits, 0: empty) rejects most other shapes before their
 * keys are compared. Bounded: about 1.4 KiB an entry, touched only as
 * shapes arrive (a capture of few shapes uses few). 4,096 entries: small
 * frames of every length over a mix of tunnels make about 700 shapes
 * (bench small-64k-random-mix), which 512 entries replayed on one frame in
 * five. */
struct csc_rcache {
    struct csc_config cfg;       /* the configuration the entries were made under */
    uint8_t have_cfg;
    uint64_t hits, misses, bypass;
    uint64_t evicted;            /* a miss that replaced another shape's entry */
    uint32_t tag[CSC_RCACHE_SLOTS];
    uint8_t lru[CSC_RCACHE_SETS];   /* the way to replace next */
    struct csc_rcache_entry e[CSC_RCACHE_SLOTS];
};

void csc_rcache_init(struct csc_rcache *c);
/* csc_analyze() with memoised replay; c may be NULL (plain csc_analyze). */
void csc_analyze_cached(const struct csc_config *cfg, const struct csc_frame *f,
                        struct csc_result *out, struct csc_rcache *c);

#endif
