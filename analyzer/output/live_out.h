/*
 * live_out.h - csumcheck --live's records (live_out.c): a frame's line,
 * its packet record's "live" object or its CSV rows, and the summary, for
 * one kernel or several side by side (and for --era A,B, the model alone
 * at several eras).
 */
#ifndef CSUMCHECK_LIVE_OUT_H
#define CSUMCHECK_LIVE_OUT_H

#include "jw.h"
#include "opts.h"
#include "wbuf.h"

#include "replay.h"

#include <stdbool.h>

struct live_out {
    const struct cli_opts *o;
    const struct live_replay *lr;
    struct wbuf *w;
};

/* CSV: the header row */
void live_out_csv_begin(const struct live_out *lo);
/* A frame: text (a line), CSV (a row per kernel), or JSON's "live" object
 * into the packet record open in j */
void live_out_text(const struct live_out *lo, const struct live_fr *f);
void live_out_csv(const struct live_out *lo, const char *file, const struct live_fr *f);
void live_out_json(const struct live_out *lo, struct jw *j, const struct live_fr *f);
/* The end: the totals of each kernel, the fates that change between them */
void live_out_summary_text(const struct live_out *lo);
void live_out_summary_json(const struct live_out *lo);

#endif
