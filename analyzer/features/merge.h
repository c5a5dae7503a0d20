/*
 * merge.h - csumcheck --merge SUMMARY.json ...: the JSON summaries of
 * separate runs (a corpus split over machines) combined into the summary
 * of their union, exactly as one run over all the files would print it.
 */
#ifndef CSUMCHECK_MERGE_H
#define CSUMCHECK_MERGE_H

#include "opts.h"

/* Reads o->inputs, prints the merged summary in o->format; the exit status */
int merge_main(struct cli_opts *o, struct cli_run *runs);

#endif
