/*
 * stages.h - the stages of csc_analyze() with their reads recorded (rec.h),
 * for the fast path and the memo. Internal to core/. rec NULL: the public
 * csc_decode / csc_direction / csc_replay.
 */
#ifndef CSC_STAGES_H
#define CSC_STAGES_H

#include "csumcheck/csumcheck.h"
#include "rec.h"

void csc_decode_rec(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out,
                    struct csc_rec *rec);
void csc_direction_rec(const struct csc_config *cfg, const struct csc_frame *f,
                       struct csc_result *out, struct csc_rec *rec);

/* The memo's part of csc_analyze_cached, after decode, verify, direction:
 * the replay's outcome served or made (and kept). plan (NULL: none) gets
 * what the replay read of the frame, as guards and classes. False when the
 * memo could not keep it (a frame the memo does not serve, a replay that
 * read more than an entry holds): no plan may be made of the frame. */
struct csc_rcache;
bool memo_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out,
                 struct csc_rcache *c, struct csc_rec *plan);

#endif
