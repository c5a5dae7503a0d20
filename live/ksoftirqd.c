/*
 * ksoftirqd.c - the end of a case without waiting (ns.c's fast end): is
 * this CPU's ksoftirqd asleep, and was it switched in meanwhile.
 *
 * With the process pinned to one CPU and no NAPI on the TAP, a write to
 * the TAP runs the frame's whole receive path before it returns:
 * tun_get_user() hands it to netif_receive_skb() under local_bh_disable(),
 * and what that queues on this CPU (a tunnel's gro_cells, the backlog of
 * what the namespace sends itself) runs at local_bh_enable(). The one way
 * work outlives the write is a softirq left to this CPU's ksoftirqd (the
 * softirq loop ran too long, or ksoftirqd was already due). So: when
 * ksoftirqd/CPU was not switched in from before the first write until after
 * the snapshot, and is asleep then, nothing of the case is still in flight
 * and one snapshot ends it - no sentinel frame needed; otherwise the case
 * ends as any other: the sentinel behind it (2 s bound), then reads 0.3 ms
 * apart until two agree.
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
    int stat_fd, sched_fd;     /* /proc/PID/stat and schedstat of ksoftirqd/CPU, -1: none */
} K = { -1, -1 };

static void ksoftirqd_close(void)
{
    if (K.stat_fd >= 0)
        close(K.stat_fd);
    if (K.sched_fd >= 0)
        close(K.sched_fd);
    K.stat_fd = K.sched_fd = -1;
}

/* The kernel threads come first in /proc: the search ends within the
 * first few dozen entries. */
void ksirq_open(int cpu)
{
    ksoftirqd_close();
    char want[32];
    int wl = snprintf(want, sizeof want, "ksoftirqd/%d\n", cpu);
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[64], comm[32];
        snprintf(path, sizeof path, "/proc/%.20s/comm", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t r = read(fd, comm, sizeof comm - 1);
        close(fd);
        if (r != wl || memcmp(comm, want, (size_t)wl))
            continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        K.stat_fd = open(path, O_RDONLY | O_CLOEXEC);
        snprintf(path, sizeof path, "/proc/%.20s/schedstat", e->d_name);
        K.sched_fd = open(path, O_RDONLY | O_CLOEXEC);
        if (K.stat_fd < 0 || K.sched_fd < 0)
            ksoftirqd_close();
        break;
    }
    closedir(d);
}

/* Times ksoftirqd was switched in (schedstat's third field), -1 unknown */
int64_t ksirq_runs(void)
{
    char b[128];
    ssize_t r = K.sched_fd >= 0 ? pread(K.sched_fd, b, sizeof b - 1, 0) : -1;
    if (r <= 0)
        return -1;
    b[r] = 0;
    unsigned long long run, wait, n;
    return sscanf(b, "%llu %llu %llu", &run, &wait, &n) == 3 ? (int64_t)n : -1;
}

/* Asleep ("S"; "I" for an idle kernel thread): not on a run queue, so no
 * softirq is waiting for it */
int ksirq_asleep(void)
{
    char b[256];
    ssize_t r = K.stat_fd >= 0 ? pread(K.stat_fd, b, sizeof b - 1, 0) : -1;
    if (r <= 0)
        return 0;
    b[r] = 0;
    const char *p = strrchr(b, ')');  /* "PID (comm) S ..." */
    return p && p[1] == ' ' && (p[2] == 'S' || p[2] == 'I');
}


int ksirq_known(void)
{
    return K.sched_fd >= 0;
}
