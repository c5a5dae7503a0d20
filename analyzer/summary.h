/*
 * summary.h - what summary.c (a run's totals), summary_gro.c (their GRO
 * engine section) and compare.c (two runs side by side) share.
 */
#ifndef CSUMCHECK_SUMMARY_H
#define CSUMCHECK_SUMMARY_H

#include "cli.h"

/* summary.c */
/* Text verdict columns, in the order of the vocabulary (all but na) */
extern const unsigned text_cols[CSC_V__COUNT - 1];

/* Drop reasons summed by name (two ids may share one name) */
struct named { const char *name; uint64_t n; };
unsigned drops_by_name(const struct cli_stats *st, struct named *out);

const char *plural(uint64_t n, const char *one, const char *many);
/* JSON members: "k": after a comma unless *first */
void jkey(struct wbuf *w, bool *first, const char *k);
void jnum(struct wbuf *w, bool *first, const char *k, uint64_t v);
void summary_members(struct wbuf *w, bool *fp, const struct cli_run *run, const struct cli_opts *o);
void summary_text_closing(struct wbuf *w, const struct cli_opts *o, const struct cli_stats *st,
                          unsigned nerrors);

/* summary_gro.c */
void gro_text(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o);
void gro_json(struct wbuf *w, const struct cli_run *run, const struct cli_opts *o);
unsigned sorted_devs(const struct cli_gro_totals *t, const struct cli_gro_dev **out);
void dev_label(char *buf, size_t n, const struct cli_gro_totals *t, uint8_t kind, uint8_t depth);
double ratio(uint64_t a, uint64_t b);

#endif
