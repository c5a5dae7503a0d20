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
/* verify_layer() for a layer without a verdict yet (n/a) that a plan
 * expects good: true when it is (field, expected and the verdict set as
 * verify_layer sets them), false when verify_layer would judge it
 * otherwise (the frame then goes the general way) */
bool verify_layer_good(struct csc_result *r, const struct pkt *p, unsigned i, int ia, int ib);
/* The breakpoints that bound layer i's covered region: [bp[*ia], bp[*ib])
 * (-1: not a breakpoint). Fixed for a plan's frames (their breakpoints are
 * the plan's, every byte captured). */
void verify_region_at(const struct csc_result *r, unsigned i, int *ia, int *ib);

#endif
