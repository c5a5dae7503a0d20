/*
 * compare.h - --compare's figures: the totals of two runs as rows (one per
 * figure: metric key, words, A, B), made once (compare.c) and written by
 * each format (text table, the {"type":"compare"} record, CSV rows).
 */
#ifndef CSUMCHECK_COMPARE_H
#define CSUMCHECK_COMPARE_H

#include "opts.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

struct row {
    char section[48];          /* the text table's heading */
    char key[112];             /* metric name, the JSON/CSV key */
    char text[112];            /* what the text table says */
    bool dbl;                  /* a ratio (else a count) */
    double a, b;
};

/* The rows of runs[0] (A) against runs[1] (B), in table order */
GArray *compare_rows(const struct cli_run *runs);
bool row_differs(const struct row *r);
/* a row's value: a count, or a ratio with `decimals` digits */
void row_value(char *buf, size_t n, const struct row *r, double v, int decimals);

#endif
