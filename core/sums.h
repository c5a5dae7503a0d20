/*
 * sums.h - the breakpoint lists of struct csc_sums, shared by the decoder
 * (which records the points, decode.h) and the verifier (which sums the
 * pieces between them, verify.c).
 */
#ifndef CSC_SUMS_H
#define CSC_SUMS_H

#include "csumcheck/csumcheck.h"

/* A point that is not the next header edge (a region end, an RCO start,
 * where the capture stops) into the short side list, each value once. */
static inline void sums_side(struct csc_sums *s, uint32_t v)
{
    for (unsigned i = 0; i < s->nends; i++)
        if (s->ends[i] == v)
            return;
    if (s->nends < CSC_MAX_ENDS)
        s->ends[s->nends++] = v;
}

#endif
