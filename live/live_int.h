/*
 * live_int.h - internals shared by the files of libcsclive.
 */
#ifndef CSC_LIVE_INT_H
#define CSC_LIVE_INT_H

#include "live.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SNAP_MAX 1024
#define LIVE_WATCH_ALL_MAX 4   /* devices a setup watches all at once (ns.c) */

/* Every counter the namespace shows at one moment, in a stable order. The
 * names are not copied into every snapshot: they are the layout's (obs.c),
 * which changes only when the set of counters read does (another device
 * watched), so two snapshots of one layout compare value by value. */
struct snap {
    int n;
    unsigned layout;
    int64_t v[SNAP_MAX];
};

/* obs.c */
/* ifindex[0..nif): the links whose statistics are read, ifname their names */
/* sock_reads / sock_bytes: datagrams and payload bytes each socket read */
void snap_take(struct snap *s, const int64_t *sock_reads, const int64_t *sock_bytes, int nsocks, const int *ifindex,
               char (*ifname)[16], int nif);
/* Forget the counter files kept open (they show the namespace they were
 * opened in): call after entering a new one. */
void snap_reset(void);
/* A snapshot by hand: begin, put every value in order, end */
void snap_begin(struct snap *s);
/* Append one value named prefix + field (a table's "Udp" + "InErrors") */
void snap_put(struct snap *s, const char *prefix, size_t pl, const char *field, size_t fl, int64_t v);
void snap_end(struct snap *s);
const char *snap_name(const struct snap *s, int i);
/* o->v = b - a - minus (minus may be NULL), non-zero entries only */
void snap_delta(const struct snap *a, const struct snap *b, const struct live_obs *minus,
                struct live_obs *o);
int snap_equal(const struct snap *a, const struct snap *b);
void obs_add(struct live_obs *o, const char *name, int64_t delta);

/* netlink.c */
/* Append the "dev:NAME:stat" values of these links to s (one RTM_GETSTATS
 * each: a dump of every link costs more under TCG than the rest of a
 * snapshot). */
int nl_link_stats(struct snap *s, const int *ifindex, char (*ifname)[16], int nif);
/* A clsact qdisc on dev and section sec of the BPF object obj as a
 * direct-action ingress filter (tc's "ingress bpf da obj OBJ sec SEC"),
 * without tc. 0 done, -1 failed (err says why), 1 the section needs tc. */
int tc_bpf_ingress(const char *dev, const char *obj, const char *sec, char *err, size_t n);
/* The built-in commands (a setup line whose first word starts with '@'). */
int builtin_run(int argc, char **argv, char *err, size_t n);

int64_t live_now_us(void);

/* ksoftirqd.c: this CPU's ksoftirqd, for ending a case on one snapshot */
void ksirq_open(int cpu);    /* find it in /proc and keep its stat files open */
int ksirq_known(void);       /* found */
int64_t ksirq_runs(void);    /* times it was switched in, -1 unknown */
int ksirq_asleep(void);      /* not on a run queue now */

/* setup_cmp.c: s holds everything of o (its start, lines, sockets and
 * devices, in the same places) and perhaps more; 1 yes, 0 no */
int live_setup_holds(const struct live_setup *s, const struct live_setup *o);

/* cmd.c */
/* One setup line: "ip ..." / "tc ..." with the tools found, "@name" a
 * built-in. 0 done, 1 refused as "this kernel lacks it", -1 failed (err). */
int cmd_run_line(const struct live_tools *t, const char *line, char *err, size_t n);
/* A refusal of device d's line (unsupported_here: the kernel lacks it) */
typedef void (*cmd_fail_fn)(void *ctx, int d, int unsupported_here, const char *msg);
/* Every line of a setup: the common ones (a failure is the setup's: -1,
 * err), then each device's (a refusal goes to fail, the device only). */
int cmd_run_setup_lines(const struct live_tools *t, const struct live_setup *s, cmd_fail_fn fail, void *ctx,
                        char *err, size_t n);

enum live_io { LIVE_READ, LIVE_WRITE, LIVE_SEND };

/* n bytes from or to fd, across short transfers and signals; -1 at the end
 * or on an error (a struct live_obs is larger than PIPE_BUF: a pipe may give
 * part). LIVE_SEND: a socket whose peer may be gone (no SIGPIPE). */
static inline int live_io_full(enum live_io how, int fd, void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        char *p = (char *)buf + done;
        ssize_t r = how == LIVE_READ    ? read(fd, p, n - done)
                    : how == LIVE_WRITE ? write(fd, p, n - done)
                                        : send(fd, p, n - done, MSG_NOSIGNAL);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        done += (size_t)r;
    }
    return 0;
}

/* fork with both ends of a pipe or socket pair open: on failure both are
 * closed and err (when given) says why. The child's pid, 0 in the child,
 * -1 on failure. */
static inline pid_t live_fork_pair(int fd[2], char *err, size_t n)
{
    pid_t p = fork();
    if (p < 0) {
        if (err)
            snprintf(err, n, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
    }
    return p;
}

static inline int live_read_full(int fd, void *buf, size_t n)
{
    return live_io_full(LIVE_READ, fd, buf, n);
}

/* (write(2) and send(2) only read buf: the cast drops nothing) */
static inline int live_write_full(int fd, const void *buf, size_t n)
{
    return live_io_full(LIVE_WRITE, fd, (void *)(uintptr_t)buf, n);
}

#endif
