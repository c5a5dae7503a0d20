/*
 * values.h - the value marks of a result (csc_result.values). Internal to
 * core/.
 *
 * A value is a field of a layer that the outputs carry and only the checksum
 * arithmetic reads: a port, a sequence number, an identifier, an address
 * sum, a checksum and what it should be. The model never branches on one.
 * The stage that fills it marks it (decode.h: dec_val*, verify.c), so that
 *   - the replay runs on the layers with every value zero (replay.c: a rule
 *     that reads one sees zero on every path, never a value the memo or a
 *     plan did not key on);
 *   - the memo's key is that input, byte for byte (analyze_cached.c);
 *   - a plan reads each value again from the frame (fast.c).
 * A field filled without a mark stays in every key: safe, only slower.
 */
#ifndef CSC_VALUES_H
#define CSC_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "csumcheck/csumcheck.h"

_Static_assert(sizeof(struct csc_layer) <= 128, "a layer's value marks fit two words");

/* Mark bytes [at, at + size) of layer l of r as a value */
static inline void value_mark(struct csc_result *r, const struct csc_layer *l, size_t at,
                              size_t size)
{
    uint64_t *m = r->values[l - r->layers];
    for (size_t b = at; b < at + size; b++)   /* constants: folded to one or two ORs */
        m[b >> 6] |= 1ull << (b & 63);
}
#define VALUE_MARK(r, l, member) \
    value_mark((r), (l), offsetof(struct csc_layer, member), sizeof (l)->member)

/* A layer as the replay and the keys see it: its values zero, its kernel
 * part (the replay's output) zero. */
void value_blank(struct csc_layer *dst, const struct csc_layer *src, const uint64_t mask[2]);

#endif
