/*
 * sumfields.h - the summary's counts, defined once (sumfields.c): the JSON
 * key, the words of the text summary and the member of struct cli_stats of
 * each. The JSON writer (out_json_summary.c), the --merge reader
 * (merge.c) and the text summary (out_text_summary.c) go through this
 * table; CTest schema-sumfields checks that docs/json.md and
 * docs/schema/summary.schema.json have every key (csc-vocab --summary).
 * The switches of "config" and the totals of "gro" are rows too (groups
 * SG_CONFIG and SG_GRO), read and written by the same two.
 */
#ifndef CSUMCHECK_SUMFIELDS_H
#define CSUMCHECK_SUMFIELDS_H

#include "gro_totals.h"
#include "stats.h"

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>

enum sum_group {
    SG_HEAD,        /* the record's own members, after "type" */
    SG_KVERDICT,    /* "kernel": frames per replay verdict */
    SG_KWORK,       /* "kernel": the software checksum work */
    SG_FRAG,        /* "frag": IP reassembly */
    SG_BASELINE,    /* "baseline" (--baseline) */
    SG_CONFIG,      /* "config": switches (bool members of struct csc_config) */
    SG_GRO,         /* "gro": the run's totals (members of struct cli_gro_totals) */
    SG__COUNT
};

#define SUM_ERRORS SIZE_MAX      /* "errors": the run's error count, no cli_stats member */
#define SUM_GRE_CSUM (SIZE_MAX - 1)  /* "config": "gre_csum", a name (csc_gre_csum_name) */

struct sum_field {
    uint8_t group;
    const char *key;             /* JSON */
    const char *text;            /* text summary words (NULL: not a word of its own) */
    uint8_t count_first;         /* text: "3 completed" rather than "accepted 3" */
    size_t off;                  /* offsetof the group's struct (cli_stats, csc_config,
                                    cli_gro_totals), SUM_ERRORS or SUM_GRE_CSUM */
};

extern const struct sum_field sum_fields[];
extern const unsigned sum_nfields;
/* the JSON object a group is in ("" for the record itself) */
const char *sum_group_object(unsigned group);

/* f's member of rec, the struct of f's group: a uint64_t (SG_CONFIG: a bool) */
static inline void *sum_at(void *rec, const struct sum_field *f)
{
    return (char *)rec + f->off;
}

static inline uint64_t sum_get(const void *rec, const struct sum_field *f)
{
    return *(const uint64_t *)(const void *)((const char *)rec + f->off);
}

static inline bool sum_flag(const void *rec, const struct sum_field *f)
{
    return *(const bool *)(const void *)((const char *)rec + f->off);
}

#endif
