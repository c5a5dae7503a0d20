/*
 * merge.h - csumcheck --merge SUMMARY.json ...: the JSON summaries of
 * separate runs (a corpus split over machines) combined into the summary
 * of their union, exactly as one run over all the files would print it.
 */
#ifndef CSUMCHECK_MERGE_H
#define CSUMCHECK_MERGE_H

#include "opts.h"

#include <stdbool.h>
#include <stddef.h>

/* Reads o->inputs, prints the merged summary in o->format; the exit status */
int merge_main(struct cli_opts *o, struct cli_run *runs);

/* The reader alone (the fuzz target, tests/fuzz/fuzz_merge.c): summaries
 * added one line at a time into runs[0]; false and merge_error() when a
 * line is not a summary csumcheck wrote. */
struct merged;
struct merged *merge_new(struct cli_opts *o, struct cli_run *runs);
bool merge_line(struct merged *m, const char *line, size_t len);
const char *merge_error(const struct merged *m);
/* The summary of what was added, in fmt (text or JSON); the exit status
 * one run over all the files would have had */
struct wbuf;
struct out_format;
int merge_write(struct merged *m, struct wbuf *w, const struct out_format *fmt);
void merge_free(struct merged *m);

#endif
