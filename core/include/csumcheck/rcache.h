/*
 * rcache.h - memoised replay for frames whose every checksum is right.
 *
 * When every checksummed layer of a frame is good (or none / zero6), every
 * validation the replay makes succeeds, so its outcome (methods, passes,
 * GRO results, verdict, counters) is a function of the replay's input: the
 * frame's head and layers with their values blank (core/values.h: ports,
 * sequence numbers, identifiers, address sums are invisible to the replay),
 * the configuration, and the frame bytes the replay itself reads. So the
 * memo's key IS that input, byte for byte (no list of fields kept by hand),
 * and an entry also keeps what the replay read of the bytes, as it read it
 * (core/rec.h: the bytes, or the class it took of them, like the address
 * classes), which a frame must match to be served. Any other frame, a cut
 * frame, or a run that asks for the step trace, is replayed from scratch.
 * tests/unit/test_rcache.c, tests/fastpath and the fuzz target check that
 * both paths give the same result.
 */
#ifndef CSUMCHECK_RCACHE_H
#define CSUMCHECK_RCACHE_H

#include <stddef.h>

#include "csumcheck.h"

#define CSC_RCACHE_SETS 2048     /* sets of CSC_RCACHE_WAYS entries (power of two) */
#define CSC_RCACHE_WAYS 2
#define CSC_RCACHE_SLOTS (CSC_RCACHE_SETS * CSC_RCACHE_WAYS)
#define CSC_RCACHE_KEY (offsetof(struct csc_result, layers) + 9 * sizeof(struct csc_layer))
#define CSC_RCACHE_READS 6       /* byte runs the replay read (at most 8 bytes each) */
#define CSC_RCACHE_CLASSES 4     /* classes it took of bytes */

/* What the replay read of a frame's bytes: a run of bytes, or a class */
struct csc_rcache_read {
    uint32_t off;
    uint8_t len;                 /* 1..8: bytes; 0: a class (kind, proto in bytes[0..1]) */
    uint8_t bytes[8];
    uint32_t value;              /* a class: what it gave */
};

struct csc_rcache_entry {
    uint32_t wirelen;
    uint16_t keylen;
    uint8_t link, nreads;
    uint8_t key[CSC_RCACHE_KEY];
    struct csc_rcache_read reads[CSC_RCACHE_READS + CSC_RCACHE_CLASSES];
    uint8_t kernel[offsetof(struct csc_kernel, steps)];   /* the kernel result without steps */
    struct csc_layer_kernel lk[CSC_MAX_LAYERS];
};

/* Entries in sets of two chosen by the key's hash; a miss replaces the
 * set's least recently used entry (counted in evicted). A tag per entry
 * (the hash's high bits, 0: empty) rejects most other shapes before their
 * keys are compared. Bounded: about 1.5 KiB an entry, touched only as
 * shapes arrive (a capture of few shapes uses few). 4,096 entries: small
 * frames of every length over a mix of tunnels make about 700 shapes
 * (bench small-64k-random-mix), which 512 entries replayed on one frame in
 * five. */
struct csc_rcache {
    struct csc_config cfg;       /* the configuration the entries were made under */
    uint8_t have_cfg;
    uint64_t hits, misses, bypass;
    uint64_t evicted;            /* a miss that replaced another shape's entry */
    uint64_t unkept;             /* a miss whose replay read more than an entry keeps */
    uint32_t tag[CSC_RCACHE_SLOTS];
    uint8_t lru[CSC_RCACHE_SETS];   /* the way to replace next */
    struct csc_rcache_entry e[CSC_RCACHE_SLOTS];
};

void csc_rcache_init(struct csc_rcache *c);
/* csc_analyze() with memoised replay; c may be NULL (plain csc_analyze). */
void csc_analyze_cached(const struct csc_config *cfg, const struct csc_frame *f,
                        struct csc_result *out, struct csc_rcache *c);

#endif
