/*
 * verify.h - the verifier's steps, for the fast path (fast.c), which runs
 * them on a frame whose breakpoints and layers a plan already holds.
 * Internal to core/.
 */
#ifndef CSC_VERIFY_H
#define CSC_VERIFY_H

#include "csumcheck/csumcheck.h"
#include "pkt.h"

/* The one summing pass: the prefix sums at the sorted breakpoints s holds */
void verify_sum_pass(const struct pkt *p, struct csc_sums *s);
/* The raw verdict of layer i (its checksum field read, expected computed) */
void verify_layer(struct csc_result *r, const struct pkt *p, unsigned i);

#endif
