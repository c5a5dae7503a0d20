/*
 * helpers.h - shared test helpers: build a frame with the project's
 * builder, run the core under a report/era/config, find layers.
 */
#ifndef CSC_TEST_HELPERS_H
#define CSC_TEST_HELPERS_H

#include <check.h>
#include <string.h>

#include "csumcheck/csumcheck.h"
#include "pb.h"

extern struct csc_result R;
extern struct csc_config CFG;
extern uint8_t FRAME[70000];
extern size_t FRAME_LEN;

/* Configure: report string, era name. Resets every other option. */
void cfg_set(const char *rx, const char *era);
/* Build f and analyse it under CFG. */
void run(struct pb_frame *f);
/* Analyse raw bytes under CFG (Ethernet unless link given). */
void run_bytes(const uint8_t *b, size_t caplen, size_t wirelen, enum csc_link link);
/* Index of the n-th (0-based) layer of a protocol; fails the test if absent. */
int lay(enum csc_proto p, int n);
/* Counter bit helpers */
int has_counter(enum csc_counter c);
uint32_t counters_of(enum csc_counter a, enum csc_counter b);
/* Number of devices with a given kind */
const struct csc_dev *dev_of_kind(enum csc_proto kind);
/* Index of the first trace step with this kernel function and action names
 * (csc_fn_name / csc_what_name), -1 when the trace has none. */
int find_step(const char *fn, const char *what);
/* Render the trace (for failure messages) */
void dump_result(void);

#define ASSERT_METHOD(li, m, p) do { \
    const struct csc_layer *L_ = &R.layers[li]; \
    if (L_->k.method != (m) || L_->k.path != (p)) dump_result(); \
    ck_assert_msg(L_->k.method == (m), "layer %d (%s): method %s, want %s", li, \
                  csc_proto_name(L_->proto), csc_method_name(L_->k.method), csc_method_name(m)); \
    ck_assert_msg(L_->k.path == (p), "layer %d (%s): path %s, want %s", li, \
                  csc_proto_name(L_->proto), csc_path_name(L_->k.path), csc_path_name(p)); \
} while (0)

#define ASSERT_PASSES(n) do { \
    if (R.kernel.sw_passes != (n)) dump_result(); \
    ck_assert_int_eq(R.kernel.sw_passes, (n)); \
} while (0)

#endif
