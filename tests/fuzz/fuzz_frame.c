/*
 * fuzz_frame.c - libFuzzer target 1: decode + verify + replay (+ reassembly
 * and the GRO engine) of one frame under a fuzzed link type, device report,
 * era and receiver configuration.
 *
 * Input: 8 header bytes, then the frame.
 *   [0] link (mod 10)  [1] report kind (mod 6)  [2] level / partial where
 *   [3] era index      [4] option bits          [5..6] caplen cut
 *   [7] explicit partial start
 * Besides "no crash, no sanitizer report", the target asserts the core's
 * invariants: every layer inside the captured bytes, enums in range, the
 * stop reason consistent, the trace bounded; and that the memoised replay
 * equals the plain one, for the frame itself and for a frame with the same
 * headers and other payload bytes and checksum values.
 */
#include "csumcheck/csumcheck.h"
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"
#include "csumcheck/rcache.h"
#include "csumcheck/rewrite.h"

#include "fuzz_input.h"

#include <stddef.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct csc_result res, res2;
static struct csc_rcache rcache;
static struct csc_frag_table frag;
static struct csc_gro gro;
static uint8_t copy[70000];

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void invariants(const struct csc_frame *f, const struct csc_result *r)
{
    uint32_t cap = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    CHECK(r->nlayers <= CSC_MAX_LAYERS);
    CHECK(r->stop < CSC_STOP__COUNT);
    /* a stop is carried by a decoded layer (or none: nothing was decoded) */
    CHECK(r->stop == CSC_STOP_END || r->stop_layer == CSC_NO_LAYER || r->stop_layer < r->nlayers);
    CHECK(r->stop != CSC_STOP_NEEDS_OPTION || r->stop_opt != CSC_SO_NONE);
    for (unsigned i = 0; i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        CHECK(l->proto < CSC_P__COUNT);
        CHECK(l->verdict < CSC_V__COUNT);
        CHECK(l->reason < CSC_R__COUNT);
        CHECK((uint64_t)l->off + l->hdr_len <= cap || l->notes & CSC_N_FRAGMENT);
        /* a verdict from the bytes needs the bytes (a zero UDP checksum
         * needs none: nothing was computed) */
        if (l->csum_off != CSC_NO_OFF && l->verdict != CSC_V_UNVERIFIABLE &&
            l->verdict != CSC_V_NA && l->verdict != CSC_V_NONE && l->verdict != CSC_V_ZERO6 &&
            l->reason != CSC_R_FRAG_REASSEMBLED)
            CHECK((uint64_t)l->cov_end <= cap);
        CHECK(csc_proto_name(l->proto)[0] != '?');
    }
    const struct csc_kernel *k = &r->kernel;
    if (k->ran) {
        CHECK(k->verdict <= CSC_K_UNKNOWN);
        CHECK(k->ndevs >= 1 && k->ndevs <= CSC_MAX_DEVS);
        CHECK(k->nsteps <= CSC_MAX_STEPS);
        CHECK(k->verdict != CSC_K_DROP || k->drop_layer < r->nlayers);
        for (unsigned i = 0; i < k->ndevs; i++)
            CHECK(k->devs[i].gro_reason < CSC_G__COUNT);
    }
}

/* The replay's outcome field by field: what a result holds beyond ndevs
 * devices (and in padding) is whatever an earlier frame left there. */
static void same_result(const struct csc_result *a, const struct csc_result *b)
{
    const struct csc_kernel *x = &a->kernel, *y = &b->kernel;
    CHECK(a->nlayers == b->nlayers);
    CHECK(x->ran == y->ran && x->verdict == y->verdict && x->drop_layer == y->drop_layer &&
          x->drop_reason == y->drop_reason && x->counters == y->counters &&
          x->warnings == y->warnings && x->sw_passes == y->sw_passes && x->ndevs == y->ndevs &&
          x->last_layer == y->last_layer && x->trace_truncated == y->trace_truncated &&
          x->sw_bytes == y->sw_bytes && x->hdr_bytes == y->hdr_bytes);
    for (unsigned i = 0; i < x->ndevs && i < CSC_MAX_DEVS; i++) {
        const struct csc_dev *p = &x->devs[i], *q = &y->devs[i];
        CHECK(p->kind == q->kind && p->layer == q->layer && p->gro_ran == q->gro_ran &&
              p->gro_reason == q->gro_reason && p->gro_layer == q->gro_layer &&
              !memcmp(&p->entry, &q->entry, sizeof p->entry) && p->gro_passes == q->gro_passes &&
              p->passes == q->passes && p->gro_pass_bytes == q->gro_pass_bytes &&
              p->pass_bytes == q->pass_bytes);
    }
    for (unsigned i = 0; i < a->nlayers; i++)
        CHECK(!memcmp(&a->layers[i].k, &b->layers[i].k, sizeof a->layers[i].k));
}

/* The memo across frames: the same headers, other values (the payload
 * changed, then every checksum the bytes made bad made right again,
 * innermost first, as often as an outer one covers an inner one). The
 * memo still holds the entry of the frame before; whether it serves this
 * one or not, the result is this frame's own plain replay. */
static void same_key_other_values(const struct csc_config *cfg, const struct csc_frame *f,
                                  const uint8_t *hdr)
{
    uint32_t cap = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    if (!res.nlayers || f->caplen < f->wirelen || !cap)
        return;
    const struct csc_layer *last = &res.layers[res.nlayers - 1];
    uint64_t start = (uint64_t)last->off + last->hdr_len;
    if (start >= cap)
        return;
    uint8_t *b = malloc(cap);
    memcpy(b, f->data, cap);
    for (uint32_t i = (uint32_t)start; i < cap; i++)
        b[i] ^= (uint8_t)(hdr[5] + 0x5bu * i) | 1u;
    struct csc_frame g = *f;
    g.data = b;
    for (unsigned round = 0; round <= res.nlayers; round++) {
        csc_decode(cfg, &g, &res2);
        csc_verify(cfg, &g, &res2);
        int fixed = 0;
        for (int i = (int)res2.nlayers - 1; i >= 0 && !fixed; i--) {
            const struct csc_layer *l = &res2.layers[i];
            if (l->verdict == CSC_V_BAD && l->reason == CSC_R_MISMATCH &&
                (uint64_t)l->csum_off + 2 <= cap) {
                b[l->csum_off] = (uint8_t)(l->expected >> 8);
                b[l->csum_off + 1] = (uint8_t)l->expected;
                fixed = 1;
            }
        }
        if (!fixed)
            break;
    }
    static struct csc_result plain;
    csc_analyze(cfg, &g, &plain);
    csc_analyze_cached(cfg, &g, &res2, &rcache);
    same_result(&plain, &res2);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    struct csc_config cfg;
    struct csc_frame f;
    fuzz_frame_input(data, size, &cfg, &f);
    /* The frame lives at the end of a heap buffer: ASan sees any overread. */
    size_t caplen = f.caplen;
    uint8_t *buf = malloc(caplen ? caplen : 1);
    memcpy(buf, data + 8, caplen);
    f.data = buf;
    csc_analyze(&cfg, &f, &res);
    invariants(&f, &res);

    /* the memoised replay: a miss then a hit, both equal to the plain one */
    csc_rcache_init(&rcache);
    for (int pass = 0; pass < 2; pass++) {
        csc_analyze_cached(&cfg, &f, &res2, &rcache);
        same_result(&res, &res2);
    }

    same_key_other_values(&cfg, &f, data);

    csc_frag_init(&frag);
    csc_frag_feed(&frag, &f, &res, 1);
    invariants(&f, &res);

    csc_gro_init(&gro, NULL);
    csc_gro_feed(&gro, &f, &res, 1, 0, NULL);
    csc_gro_feed(&gro, &f, &res, 2, 1, NULL);
    csc_gro_finish(&gro);

    size_t n = csc_rewrite(&f, &res, data[7] & 7, copy, sizeof copy);
    CHECK(n == caplen || n == sizeof copy);
    free(buf);
    return 0;
}
