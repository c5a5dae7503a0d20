/*
 * rewrite.h - what-if rewrites of a frame for comparisons ("would turning on
 * the outer checksum change anything?"). The frame is copied into a caller
 * buffer and checksum fields are rewritten by arithmetic on the analysis of
 * the original (no second pass over the bytes).
 */
#ifndef CSUMCHECK_REWRITE_H
#define CSUMCHECK_REWRITE_H

#include "csumcheck.h"

enum csc_rewrite_op {
    CSC_RW_INNER_GOOD  = 1u << 0,  /* every checksum inside a tunnel made right */
    CSC_RW_OUTER_ZERO  = 1u << 1,  /* outer (tunnel-carrying) UDP checksum set to 0 */
    CSC_RW_OUTER_CSUM  = 1u << 2,  /* outer UDP checksum computed over the result */
};

/* Copy f into out (at most cap bytes, the captured part) with the rewrites
 * applied, using r = the analysis of f. Returns the bytes written; the
 * rewritten frame keeps f's wire length. Fields whose bytes were not
 * captured are left as they are. */
size_t csc_rewrite(const struct csc_frame *f, const struct csc_result *r, unsigned ops, uint8_t *out,
                   size_t cap);

/* Parse "outer-zero", "outer-csum", "inner-good" (comma list); 0 on error. */
unsigned csc_rewrite_parse(const char *s, bool *ok);

#endif
