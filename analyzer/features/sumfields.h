/*
 * sumfields.h - the summary's counts, defined once (sumfields.c): the JSON
 * key, the words of the text summary and the member of struct cli_stats of
 * each. The JSON writer (out_json_summary.c), the --merge reader
 * (merge.c) and the text summary (out_text_summary.c) go through this
 * table; CTest schema-sumfields checks that docs/json.md and
 * docs/schema/summary.schema.json have every key (csc-vocab --summary).
 */
#ifndef CSUMCHECK_SUMFIELDS_H
#define CSUMCHECK_SUMFIELDS_H

#include "stats.h"

#include <stddef.h>
#include <stdint.h>

enum sum_group {
    SG_HEAD,        /* the record's own members, after "type" */
    SG_KVERDICT,    /* "kernel": frames per replay verdict */
    SG_KWORK,       /* "kernel": the software checksum work */
    SG_FRAG,        /* "frag": IP reassembly */
    SG_BASELINE,    /* "baseline" (--baseline) */
    SG__COUNT
};

#define SUM_ERRORS SIZE_MAX      /* "errors": the run's error count, no cli_stats member */

struct sum_field {
    uint8_t group;
    const char *key;             /* JSON */
    const char *text;            /* text summary words (NULL: not a word of its own) */
    uint8_t count_first;         /* text: "3 completed" rather than "accepted 3" */
    size_t off;                  /* offsetof(struct cli_stats, ...) or SUM_ERRORS */
};

extern const struct sum_field sum_fields[];
extern const unsigned sum_nfields;
/* the JSON object a group is in ("" for the record itself) */
const char *sum_group_object(unsigned group);

static inline uint64_t *sum_at(struct cli_stats *st, const struct sum_field *f)
{
    return (uint64_t *)(void *)((char *)st + f->off);
}

static inline uint64_t sum_get(const struct cli_stats *st, const struct sum_field *f)
{
    return *(const uint64_t *)(const void *)((const char *)st + f->off);
}

#endif
