/*
 * live_int.h - internals shared by the files of libcsclive.
 */
#ifndef CSC_LIVE_INT_H
#define CSC_LIVE_INT_H

#include "live.h"

#define SNAP_MAX 1024

/* Every counter the namespace shows at one moment, in a stable order. */
struct snap {
    int n;
    char name[SNAP_MAX][LIVE_NAME_LEN];
    int64_t v[SNAP_MAX];
};

/* obs.c */
/* ifindex[0..nif): the links whose statistics are read */
void snap_take(struct snap *s, const int64_t *sock_reads, int nsocks, const int *ifindex, int nif);
/* o->v = b - a - minus (minus may be NULL), non-zero entries only */
void snap_delta(const struct snap *a, const struct snap *b, const struct live_obs *minus,
                struct live_obs *o);
int snap_equal(const struct snap *a, const struct snap *b);
void obs_add(struct live_obs *o, const char *name, int64_t delta);

/* netlink.c */
/* Append the "dev:NAME:stat" values of these links to s (one RTM_GETLINK
 * each: a dump of every link costs more under TCG than the rest of a
 * snapshot). */
int nl_link_stats(struct snap *s, const int *ifindex, int nif);
/* The built-in commands (a setup line whose first word starts with '@'). */
int builtin_run(int argc, char **argv, char *err, size_t n);

int64_t live_now_us(void);

#endif
