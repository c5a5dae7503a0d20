/*
 * sumfields.c - the summary's counts, one row each (sumfields.h).
 */
#include "sumfields.h"

#define ST(m) offsetof(struct cli_stats, m)

const struct sum_field sum_fields[] = {
    { SG_HEAD, "files", NULL, 0, ST(files) },
    { SG_HEAD, "files_failed", NULL, 0, ST(files_failed) },
    { SG_HEAD, "errors", NULL, 0, SUM_ERRORS },
    { SG_HEAD, "frames", NULL, 0, ST(frames) },
    { SG_HEAD, "bytes", NULL, 0, ST(cap_bytes) },
    { SG_HEAD, "wire_bytes", NULL, 0, ST(wire_bytes) },
    { SG_KVERDICT, "accept", "accepted", 0, ST(kverdict[CSC_K_ACCEPT]) },
    { SG_KVERDICT, "drop", "dropped", 0, ST(kverdict[CSC_K_DROP]) },
    { SG_KVERDICT, "unknown", "unknown", 0, ST(kverdict[CSC_K_UNKNOWN]) },
    { SG_KVERDICT, "not_run", "not run", 0, ST(kernel_not_run) },
    { SG_KVERDICT, "sent", NULL, 0, ST(kverdict[CSC_K_SENT]) },   /* text: its own words */
    { SG_KWORK, "sw_passes", NULL, 0, ST(sw_passes) },
    { SG_KWORK, "sw_bytes", NULL, 0, ST(sw_bytes) },
    { SG_KWORK, "hdr_bytes", NULL, 0, ST(hdr_bytes) },
    { SG_FRAG, "completed", "completed", 1, ST(frag_completed) },
    { SG_FRAG, "evicted", "evicted", 1, ST(frag_evicted) },
    { SG_FRAG, "overlaps", "overlapping", 1, ST(frag_overlaps) },
    { SG_FRAG, "dropped", "dropped", 1, ST(frag_dropped) },
    { SG_BASELINE, "changed", "changed", 1, ST(baseline_changed) },
    { SG_BASELINE, "new", "new", 1, ST(baseline_new) },
    { SG_BASELINE, "gone", "gone", 1, ST(baseline_gone) },
};
const unsigned sum_nfields = sizeof sum_fields / sizeof sum_fields[0];

const char *sum_group_object(unsigned group)
{
    static const char *const o[SG__COUNT] = { "", "kernel", "kernel", "frag", "baseline" };
    return group < SG__COUNT ? o[group] : "?";
}
