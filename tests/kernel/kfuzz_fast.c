/*
 * kfuzz_fast.c - the model's frames through the fast path (issue 25): the
 * fuzzer judges what csumcheck runs, csc_analyze_fast(), plans and memo
 * included. A run's frames come under many receivers (the group's device,
 * report, era, socket), and a table forgets its plans when the
 * configuration changes, so there are a few tables, one a configuration
 * by its hash; a frame meets the table of its configuration.
 * --no-fast-path (kf_fast_path = 0): csc_analyze() on every frame.
 */
#include "kfuzz.h"

#include "csumcheck/fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KF_FAST_TABLES 16       /* the tables (power of two), each a few MiB touched as used */

int kf_fast_path = 1;
static struct csc_fast *T[KF_FAST_TABLES];

static void fast_free(void)
{
    for (unsigned i = 0; i < KF_FAST_TABLES; i++)
        free(T[i]);
}

/* The table of a configuration: its bytes hashed, the pointers in it (the
 * era's name, the local set) left out so that a run's tables are the same
 * whatever the addresses */
static unsigned slot_of(const struct csc_config *c0)
{
    struct csc_config c;
    memcpy(&c, c0, sizeof c);
    c.era.name = NULL;
    c.local = NULL;
    const struct csc_config *cfg = &c;
    const uint8_t *b = (const uint8_t *)cfg;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < sizeof *cfg; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return (unsigned)(h >> 32) & (KF_FAST_TABLES - 1);
}

void kf_analyze(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r)
{
    if (!kf_fast_path) {
        csc_analyze(cfg, f, r);
        return;
    }
    struct csc_config c;
    memcpy(&c, cfg, sizeof c);           /* padding too: the tables compare configurations bytewise */
    c.trace_steps = false;               /* as the CLI without a step trace: plans may serve */
    unsigned s = slot_of(&c);
    if (!T[s]) {
        static int registered;
        if (!registered++)
            atexit(fast_free);
        T[s] = malloc(sizeof *T[s]);
        if (!T[s]) {
            csc_analyze(&c, f, r);
            return;
        }
        csc_fast_init(T[s]);
    }
    csc_analyze_fast(&c, f, r, T[s]);
}

void kf_fast_report(FILE *out)
{
    struct csc_fast_stats sum;
    memset(&sum, 0, sizeof sum);
    for (unsigned i = 0; i < KF_FAST_TABLES; i++) {
        if (!T[i])
            continue;
        struct csc_fast_stats st;
        csc_fast_stats(T[i], &st);
        sum.known += st.known;
        sum.compiles += st.compiles;
        sum.fallbacks += st.fallbacks;
        sum.general += st.general;
        sum.memo_hits += st.memo_hits;
        sum.memo_misses += st.memo_misses;
    }
    if (!kf_fast_path) {
        fprintf(out, "fast path: off (--no-fast-path)\n");
        return;
    }
    fprintf(out, "fast path: %llu frames from a plan, %llu by the general path (%llu plans made, %llu "
                 "fallbacks); replay memo %llu hits, %llu misses\n",
            (unsigned long long)sum.known, (unsigned long long)sum.general,
            (unsigned long long)sum.compiles, (unsigned long long)sum.fallbacks,
            (unsigned long long)sum.memo_hits, (unsigned long long)sum.memo_misses);
}
