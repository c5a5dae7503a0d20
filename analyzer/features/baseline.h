/*
 * baseline.h - csumcheck --baseline PREVIOUS.json (baseline.c): what changed
 * per frame since a previous run (its -F json output): the verdicts, the
 * kernel's fate, the counters. For CI over a user's own corpus.
 */
#ifndef CSUMCHECK_BASELINE_H
#define CSUMCHECK_BASELINE_H

#include "csumcheck/csumcheck.h"
#include "wbuf.h"

#include <stdbool.h>
#include <stdint.h>

struct baseline;
/* Reads the packet records of PREVIOUS (JSON Lines). NULL and *err (g_free)
 * when it cannot be read or a record is not one csumcheck writes. */
struct baseline *baseline_load(const char *path, char **err);
void baseline_free(struct baseline *b);

/* A frame's outcome in words, the same from a result and from a packet
 * record: "worst bad; udp@34 bad (mismatch); kernel drop UDP_CSUM;
 * counters UdpInCsumErrors UdpInErrors" */
void baseline_outcome(struct wbuf *w, const struct csc_result *r);

/* The baseline's outcome of FILE's frame N (NULL: the baseline has no such
 * frame); marks it seen. Read-only otherwise: any thread may ask. */
const char *baseline_of(struct baseline *b, const char *file, uint64_t frame);
/* Whether the baseline has frames of FILE at all (a file it never saw is
 * new as a whole, and said once) */
bool baseline_has_file(const struct baseline *b, const char *file);
/* After FILE was read to its end: each of its baseline frames not seen, in
 * frame order, through fn; returns how many */
uint64_t baseline_gone(struct baseline *b, const char *file,
                       void (*fn)(void *ctx, uint64_t frame, const char *was), void *ctx);

#endif
