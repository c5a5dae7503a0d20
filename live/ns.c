/*
 * ns.c - one setup in a private network namespace: the TAP, the devices the
 * setup's commands make, the sockets, the BPF program, the sentinel frames;
 * then cases written to the TAP and observed (obs.c).
 *
 * Runs in a child process (live_run_setup) that unshares its network and
 * mount namespaces: every device, address, port, socket, qdisc and program
 * it makes dies with it, whatever way it ends, and it dies with its parent
 * (PR_SET_PDEATHSIG). Nothing is configured outside it.
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define IF_MAX (1 + LIVE_MAX_DEVS * (1 + LIVE_MAX_WATCH))

static struct {
    const struct live_tools *t;
    struct live_setup s;
    int tap;
    int socks[LIVE_MAX_SOCKS];
    int64_t reads[LIVE_MAX_SOCKS];
    int64_t bytes[LIVE_MAX_SOCKS];     /* payload bytes those reads returned */
    int ep;                                   /* epoll over the UDP sockets: drain() reads only those with data */
    int8_t dev_state[LIVE_MAX_DEVS];          /* 0 made, 1 not in this kernel, -1 failed */
    int cpu;                                  /* pinned to it (setup.pin), -1: not */
    uint8_t repin;                            /* free to move: pin again at the next case */
    int ifindex[IF_MAX];                      /* links read: the TAP, the current device and its watch list */
    char ifname[IF_MAX][16];                  /* their names */
    uint8_t watch_all;                        /* ifindex holds every device's links, for every case */
    int nif;
    int cur_dev;                              /* the device whose links ifindex holds, -1 none */
    char dev_err[LIVE_MAX_DEVS][180];
    struct live_obs footprint[LIVE_MAX_DEVS]; /* each device's sentinel's own traces */
} E;

/* ---- commands ---- */

static int run(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run(char *err, size_t n, const char *fmt, ...)
{
    char line[LIVE_CMD_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return cmd_run_line(E.t, line, err, n);
}

static void fail_dev(int d, int unsupported_here, const char *msg)
{
    if (E.dev_state[d])
        return;                       /* the first refusal says why */
    E.dev_state[d] = (int8_t)(unsupported_here ? 1 : -1);
    size_t o = strlen(E.s.devs[d].name);
    if (o > sizeof E.dev_err[d] - 3)
        o = sizeof E.dev_err[d] - 3;
    memcpy(E.dev_err[d], E.s.devs[d].name, o);
    memcpy(E.dev_err[d] + o, ": ", 2);
    o += 2;
    size_t l = strlen(msg);
    if (l > sizeof E.dev_err[d] - 1 - o)
        l = sizeof E.dev_err[d] - 1 - o;
    memcpy(E.dev_err[d] + o, msg, l);
    E.dev_err[d][o + l] = 0;
}

/* cmd_run_setup_lines' refusals */
static void fail_line(void *ctx, int d, int unsupported_here, const char *msg)
{
    fail_dev(d + (ctx ? *(const int *)ctx : 0), unsupported_here, msg);   /* ctx: the first device's index */
}

static int write_file(const char *path, const char *val)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, val, strlen(val));
    close(fd);
    return w == (ssize_t)strlen(val) ? 0 : -1;
}

/* ---- namespace, TAP, sockets ---- */

/* Section sec of the BPF object on dev's ingress: in this process, or by
 * tc when the section needs a loader (relocations) */
static int bpf_ingress(const char *dev, const char *sec, char *err, size_t n)
{
    int rc = tc_bpf_ingress(dev, E.t->bpf_obj, sec, err, n);
    if (rc <= 0)
        return rc;
    return run(err, n, "tc qdisc add dev %s clsact", dev) ||
                   run(err, n, "tc filter add dev %s ingress bpf da obj %s sec %s", dev, E.t->bpf_obj, sec)
               ? -1
               : 0;
}

/* `ip link set NAME [address MAC] up` without a fork and exec of ip: the
 * two ioctls it amounts to. */
static int link_up(const char *name, const char *mac, char *err, size_t n)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", name);
    const char *what = "socket";
    if (fd < 0)
        goto fail;
    if (mac) {
        unsigned b[6];
        what = "SIOCSIFHWADDR";
        if (sscanf(mac, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6) {
            errno = EINVAL;
            goto fail;
        }
        ifr.ifr_hwaddr.sa_family = 1;  /* ARPHRD_ETHER */
        for (int i = 0; i < 6; i++)
            ifr.ifr_hwaddr.sa_data[i] = (char)b[i];
        if (ioctl(fd, SIOCSIFHWADDR, &ifr) < 0)
            goto fail;
    }
    what = "SIOCGIFFLAGS";
    if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
        goto fail;
    what = "SIOCSIFFLAGS";
    ifr.ifr_flags |= IFF_UP;
    if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
        goto fail;
    close(fd);
    return 0;
fail:
    snprintf(err, n, "%s %s: %s", what, name, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

static int enter_ns(char *err, size_t n)
{
    if (unshare(CLONE_NEWNET | CLONE_NEWNS) < 0) {
        snprintf(err, n, "unshare(CLONE_NEWNET|CLONE_NEWNS): %s", strerror(errno));
        return -1;
    }
    /* sysfs shows the devices of the namespace it was mounted in: a fresh
     * one over /sys, privately (the host's mounts stay as they are) */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
        mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
        snprintf(err, n, "private sysfs mount: %s", strerror(errno));
        return -1;
    }
    /* tc keeps BPF state under /sys/fs/bpf: a private bpffs (only the
     * setups with a level need it) */
    mount("bpf", "/sys/fs/bpf", "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700");
    if (link_up("lo", NULL, err, n))
        return -1;
    /* before any device exists, so every one inherits them */
    write_file("/proc/sys/net/ipv4/conf/all/rp_filter", "0");
    write_file("/proc/sys/net/ipv4/conf/default/rp_filter", "0");
    write_file("/proc/sys/net/ipv6/conf/all/accept_dad", "0");
    write_file("/proc/sys/net/ipv6/conf/default/accept_dad", "0");
    write_file("/proc/sys/net/ipv6/conf/default/router_solicitations", "0");
    /* a capture's ports below 1024 get their sockets from a helper that
     * holds CAP_NET_ADMIN but not CAP_NET_BIND_SERVICE (broker.h) */
    write_file("/proc/sys/net/ipv4/ip_unprivileged_port_start", "0");
    return 0;
}

static int open_tap(int napi, char *err, size_t n)
{
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, n, "open /dev/net/tun: %s", strerror(errno));
        return -1;
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", LIVE_TAP_NAME);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR | (napi ? IFF_NAPI : 0);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        snprintf(err, n, "TUNSETIFF %s%s: %s", LIVE_TAP_NAME, napi ? " IFF_NAPI" : "", strerror(errno));
        close(fd);
        return -1;
    }
    int sz = (int)sizeof(struct virtio_net_hdr);
    if (ioctl(fd, TUNSETVNETHDRSZ, &sz) < 0) {
        snprintf(err, n, "TUNSETVNETHDRSZ: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

static int open_sock(const struct live_sock *s, char *err, size_t n)
{
    int v6 = s->kind == LIVE_UDP6 || s->kind == LIVE_TCP6;
    int tcp = s->kind == LIVE_TCP4 || s->kind == LIVE_TCP6;
    int fd = socket(v6 ? AF_INET6 : AF_INET, (tcp ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0)
        goto fail;
    if (v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) < 0)
        goto fail;
    if (v6) {
        struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(s->port) };
        if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0)
            goto fail;
    } else {
        struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(s->port) };
        if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0)
            goto fail;
    }
    if (tcp && listen(fd, 16) < 0)
        goto fail;
    return fd;
fail:
    snprintf(err, n, "%s%s socket on %u: %s", tcp ? "TCP" : "UDP", v6 ? "6" : "", s->port, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

int live_preflight(const struct live_tools *t, char *err, size_t n)
{
    int pfd[2];
    if (pipe(pfd) < 0)
        return -1;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0)
        return -1;
    if (p == 0) {
        close(pfd[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char e[200] = "";
        E.t = t;
        int r = enter_ns(e, sizeof e);
        if (!r && open_tap(0, e, sizeof e) < 0)
            r = -1;
        if (write(pfd[1], e, sizeof e) < 0)
            _exit(2);
        _exit(r ? 1 : 0);
    }
    close(pfd[1]);
    memset(err, 0, n);
    if (read(pfd[0], err, n - 1) < 0)
        err[0] = 0;
    close(pfd[0]);
    int st = 0;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* ---- writing and observing ---- */

static void drain(void)
{
    static uint8_t buf[LIVE_MAX_FRAME + 16];
    struct epoll_event ev[LIVE_MAX_SOCKS];
    int n = E.ep >= 0 ? epoll_wait(E.ep, ev, LIVE_MAX_SOCKS, 0) : 0;
    for (int k = 0; k < n; k++) {
        int i = (int)ev[k].data.u32;
        ssize_t r;
        while ((r = recv(E.socks[i], buf, sizeof buf, MSG_DONTWAIT)) >= 0) {
            E.reads[i]++;
            E.bytes[i] += r;
        }
    }
    /* what the namespace sends out (resets, ICMP errors, neighbour
     * discovery) leaves through the TAP: read and drop it */
    for (int i = 0; i < 64 && read(E.tap, buf, sizeof buf) > 0; i++) {
    }
}

static int64_t PROF_SNAP_US, PROF_SNAPS;

static void snap_copy(struct snap *to, const struct snap *from)
{
    to->n = from->n;
    to->layout = from->layout;
    memcpy(to->v, from->v, sizeof to->v[0] * (size_t)from->n);
}
static int PREV_VALID;          /* S_PREV holds the counters as the last case left them */

static void snapshot(struct snap *s)
{
    int64_t t = live_now_us();
    drain();
    snap_take(s, E.reads, E.bytes, E.s.nsocks, E.ifindex, E.ifname, E.nif);
    PROF_SNAP_US += live_now_us() - t;
    PROF_SNAPS++;
}

static int write_frame(const struct live_frame *fr)
{
    uint8_t buf[sizeof fr->vnet + LIVE_MAX_FRAME];
    size_t len = fr->len;
    if (len > LIVE_MAX_FRAME)
        return -1;
    memcpy(buf, fr->vnet, sizeof fr->vnet);
    memcpy(buf + sizeof fr->vnet, fr->data, len);
    ssize_t w = write(E.tap, buf, sizeof fr->vnet + len);
    return w == (ssize_t)(sizeof fr->vnet + len) ? 0 : -1;
}

/* Read the statistics of the TAP, of device d and of its watch list from
 * now on. The base snapshot of the next case is then read afresh (its names
 * change). */
static void watch_link(const char *name)
{
    int idx = (int)if_nametoindex(name);
    if (idx <= 0 || E.nif >= IF_MAX)
        return;
    for (int i = 0; i < E.nif; i++)
        if (E.ifindex[i] == idx)
            return;
    memcpy(E.ifname[E.nif], name, sizeof E.ifname[0]);
    E.ifname[E.nif][sizeof E.ifname[0] - 1] = 0;
    E.ifindex[E.nif++] = idx;
}

static void watch_dev(int d)
{
    if (d == E.cur_dev || E.watch_all)
        return;
    const struct live_dev *dev = &E.s.devs[d];
    PREV_VALID = 0;
    E.cur_dev = d;
    E.nif = 1;
    for (int i = 0; i < dev->nwatch && i < LIVE_MAX_WATCH; i++)
        watch_link(dev->watch[i]);
    watch_link(dev->ifname);
}

/* Every device's links at once: cases of different devices then share one
 * set of counters, and each case's end is the next one's start whichever
 * device it goes through (a counter of another device that moves is shown
 * with the case). */
static void watch_every_dev(void)
{
    E.nif = 1;
    for (int d = 0; d < E.s.ndevs; d++) {
        if (E.dev_state[d])
            continue;
        for (int i = 0; i < E.s.devs[d].nwatch && i < LIVE_MAX_WATCH; i++)
            watch_link(E.s.devs[d].watch[i]);
        watch_link(E.s.devs[d].ifname);
    }
    E.watch_all = 1;
    E.cur_dev = -1;
}

/* Write sentinel i of device d and wait (up to ms) for its socket to read it. */
static int sentinel(int d, int i, int ms)
{
    const struct live_dev *dev = &E.s.devs[d];
    if (write_frame(&dev->sent[i]))
        return -1;
    int sk = dev->sent_sock[i];
    struct pollfd pfd = { E.socks[sk], POLLIN, 0 };
    int pr;
    while ((pr = poll(&pfd, 1, ms)) < 0 && errno == EINTR) {
    }
    return pr > 0 ? 0 : 1;
}

/* After a sentinel arrived: the counters must hold still over two reads
 * 0.3 ms apart (they normally already do: the sentinel took the same queues
 * as everything before it). Reading them is most of a case's time under
 * TCG (about 1.2 ms a snapshot), hence no more reads than that. */
static void settle_from(struct snap *cur, struct snap *prev)
{
    for (int k = 0; k < 400; k++) {
        struct timespec ts = { 0, 300000 };
        nanosleep(&ts, NULL);
        snapshot(cur);
        int stable = snap_equal(cur, prev);
        if (!stable && getenv("CSC_LIVE_PROFILE"))
            for (int i = 0; i < cur->n; i++)
                if (i >= prev->n || cur->v[i] != prev->v[i])
                    fprintf(stderr, "  settle: %s moved\n", snap_name(cur, i));
        snap_copy(prev, cur);
        if (stable)
            break;
    }
}

static void settle(struct snap *cur, struct snap *prev)
{
    snapshot(prev);
    settle_from(cur, prev);
}

static struct snap S_BASE, S_CUR, S_PREV;

/* ---- the end of a case without waiting (ksoftirqd.c) ---- */
static uint64_t K_FAST, K_SLOW;      /* cases ended each way (CSC_LIVE_PROFILE) */

/* The cases of this setup can end on one snapshot */
static int fast_end_ok(void)
{
    return E.s.pin && !E.s.napi && !E.s.gro_flush_ns && ksirq_known();
}

/* Before the first case, for every device: each sentinel until it gets
 * through (IPv6 addresses become usable only once addrconf ran, even with
 * nodad), then the first sentinel's own traces, measured until two rounds in
 * a row agree (a first round can carry the end of the namespace's start-up).
 * A device whose sentinel never arrives fails alone. */
static void warm_up_dev(int d)
{
    const struct live_dev *dev = &E.s.devs[d];
    watch_dev(d);
    for (int i = 0; i < dev->nsent; i++) {
        int ok = 0;
        for (int tries = 0; tries < 100 && !ok; tries++) {
            int r = sentinel(d, i, 20);
            if (r < 0) {
                fail_dev(d, 0, "warm-up: cannot write to the TAP");
                return;
            }
            ok = r == 0;
        }
        if (!ok) {
            char m[64];
            snprintf(m, sizeof m, "warm-up: sentinel %d never reached its socket in 2 s", i);
            fail_dev(d, 0, m);
            return;
        }
    }
    struct live_obs fp[2];
    int same = 0;
    for (int round = 0; round < 6 && !same; round++) {
        struct live_obs *cur = &fp[round & 1], *prev = &fp[!(round & 1)];
        settle(&S_CUR, &S_BASE);
        if (sentinel(d, 0, 2000)) {
            fail_dev(d, 0, "warm-up: sentinel lost while measuring its traces");
            return;
        }
        settle(&S_CUR, &S_PREV);
        memset(cur, 0, sizeof *cur);
        snap_delta(&S_BASE, &S_PREV, NULL, cur);
        same = round > 0 && cur->n == prev->n;
        for (int i = 0; same && i < cur->n; i++)
            same = live_obs_get(prev, cur->v[i].name) == cur->v[i].delta;
    }
    if (!same) {
        char m[180];
        size_t o = (size_t)snprintf(m, sizeof m, "warm-up: the sentinel's traces keep changing:");
        for (int i = 0; i < fp[0].n && o < sizeof m; i++)
            if (live_obs_get(&fp[1], fp[0].v[i].name) != fp[0].v[i].delta)
                o += (size_t)snprintf(m + o, sizeof m - o, " %s", fp[0].v[i].name);
        fail_dev(d, 0, m);
        return;
    }
    E.footprint[d] = fp[0];
}

/* The to_host programs of the devices from index `from` on */
static void devs_to_host(int from)
{
    for (int d = from; d < E.s.ndevs; d++) {
        char e[180];
        if (!E.s.devs[d].to_host || E.dev_state[d])
            continue;
        if (!E.t->bpf_obj || !E.t->tc[0])
            fail_dev(d, 0, E.t->bpf_obj ? "tc (iproute2) not found" : "no BPF object (clang -target bpf)");
        else if (bpf_ingress(E.s.devs[d].ifname, "host", e, sizeof e))
            fail_dev(d, 0, e);
    }
}

/* The sockets from index `from` on, the UDP ones in the epoll set */
static int open_socks(int from, char *err, size_t n)
{
    for (int i = from; i < E.s.nsocks; i++) {
        if ((E.socks[i] = open_sock(&E.s.socks[i], err, n)) < 0)
            return -1;
        if (E.s.socks[i].kind == LIVE_TCP4 || E.s.socks[i].kind == LIVE_TCP6)
            continue;
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        if (epoll_ctl(E.ep, EPOLL_CTL_ADD, E.socks[i], &ev) < 0) {
            snprintf(err, n, "epoll_ctl: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* Pin this process to the CPU it runs on now: the queues a write fills
 * are then all on one CPU and drained in order */
static void pin_here(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpu = sched_getcpu();
    cpu = cpu >= 0 ? cpu : 0;
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0 && cpu != E.cpu)
        ksirq_open(cpu);
    E.cpu = cpu;
}

int live_setup(const struct live_tools *t, const struct live_setup *s, char *err, size_t n)
{
    E.t = t;
    E.s = *s;
    E.tap = -1;
    E.ep = -1;
    E.cur_dev = -1;
    E.nif = 1;
    E.watch_all = 0;
    memset(E.dev_state, 0, sizeof E.dev_state);
    for (int i = 0; i < LIVE_MAX_SOCKS; i++) {
        E.socks[i] = -1;
        E.reads[i] = 0;
        E.bytes[i] = 0;
    }
    if (s->nsocks > LIVE_MAX_SOCKS || s->ncmds > LIVE_MAX_CMDS || s->ndevs > LIVE_MAX_DEVS) {
        snprintf(err, n, "setup: %d sockets, %d commands, %d devices", s->nsocks, s->ncmds, s->ndevs);
        return -1;
    }
    for (int d = 0; d < s->ndevs; d++)
        for (int i = 0; i < s->devs[d].nsent; i++)
            if (s->devs[d].nsent > LIVE_MAX_SENT || s->devs[d].sent_sock[i] >= s->nsocks) {
                snprintf(err, n, "device %s: bad sentinel %d", s->devs[d].name, i);
                return -1;
            }
    int rc;
    int64_t t0 = live_now_us();
    int prof = getenv("CSC_LIVE_PROFILE") != NULL;
#define SETUP_MARK(what) \
    do { \
        if (prof) \
            fprintf(stderr, "setup: %-10s at %6lld us\n", what, (long long)(live_now_us() - t0)); \
    } while (0)
    E.cpu = -1;
    E.repin = 0;
    if (s->pin)
        pin_here();
    if ((rc = enter_ns(err, n)))
        return -1;
    snap_reset();
    SETUP_MARK("namespace");
    if ((E.tap = open_tap(s->napi, err, n)) < 0)
        return -1;
    if ((rc = link_up(LIVE_TAP_NAME, LIVE_TAP_MAC, err, n)))
        return -1;
    if (s->gro_flush_ns) {
        char v[24];
        snprintf(v, sizeof v, "%u", s->gro_flush_ns);
        if (write_file("/sys/class/net/" LIVE_TAP_NAME "/gro_flush_timeout", v)) {
            snprintf(err, n, "gro_flush_timeout: %s", strerror(errno));
            return -1;
        }
    }
    SETUP_MARK("tap");
    if (cmd_run_setup_lines(E.t, &E.s, fail_line, NULL, err, n))
        return -1;
    SETUP_MARK("lines");
    if (s->level >= 0) {
        if (!t->bpf_obj) {
            snprintf(err, n, "no BPF object (clang -target bpf was not available at build time)");
            return -1;
        }
        if (!t->tc[0]) {
            snprintf(err, n, "tc (iproute2) not found");
            return -1;
        }
        char sec[16];
        snprintf(sec, sizeof sec, "level%d", s->level);
        if (bpf_ingress(LIVE_TAP_NAME, sec, err, n))
            return -1;
    }
    devs_to_host(0);
    SETUP_MARK("bpf");
    if ((E.ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        snprintf(err, n, "epoll_create1: %s", strerror(errno));
        return -1;
    }
    if (open_socks(0, err, n))
        return -1;
    E.ifindex[0] = (int)if_nametoindex(LIVE_TAP_NAME);
    snprintf(E.ifname[0], sizeof E.ifname[0], "%s", LIVE_TAP_NAME);
    SETUP_MARK("sockets");
    PREV_VALID = 0;
    /* Every device watched lets one snapshot end a case and start the next
     * whichever device each uses; but a snapshot reads every watched link
     * (one RTM_GETSTATS each: 20-80 ms with 30 devices under TCG), so with
     * more than a few devices each case watches its own, and a change of
     * device costs one snapshot more (callers with many devices send a
     * device's cases together). */
    if (fast_end_ok() && s->ndevs <= LIVE_WATCH_ALL_MAX)
        watch_every_dev();
    for (int d = 0; d < s->ndevs; d++)
        if (!E.dev_state[d])
            warm_up_dev(d);
    PREV_VALID = 0;
    SETUP_MARK("warm-up");
#undef SETUP_MARK
    return 0;
}

/* ---- a setup that grows (live_setup_extend) ---- */

int live_setup_extend(const struct live_setup *s, char *err, size_t n)
{
    static struct live_setup add;    /* what s has more: its lines, its devices */
    if (!live_setup_holds(s, &E.s)) {
        snprintf(err, n, "the setup does not extend the namespace's (another start, other lines or devices)");
        return -1;
    }
    int c0 = E.s.ncmds, s0 = E.s.nsocks, d0 = E.s.ndevs;
    if (s->pin) {                    /* a long life pinned to one CPU of a loaded machine: each
                                        growth lets the scheduler move it (nothing is in flight) */
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int c = 0; c < CPU_SETSIZE; c++)
            CPU_SET(c, &set);
        E.repin = sched_setaffinity(0, sizeof set, &set) == 0;
    }
    if (s->ncmds == c0 && s->nsocks == s0 && s->ndevs == d0)
        return 0;
    if (E.repin) {                   /* the warm-up below writes frames: pinned again first */
        pin_here();
        E.repin = 0;
    }
    add.ncmds = s->ncmds - c0;
    memcpy(add.cmds, s->cmds[c0], sizeof add.cmds[0] * (size_t)add.ncmds);
    add.ndevs = s->ndevs - d0;
    memcpy(add.devs, &s->devs[d0], sizeof add.devs[0] * (size_t)add.ndevs);
    E.s = *s;
    for (int d = d0; d < s->ndevs; d++) {
        E.dev_state[d] = 0;
        E.dev_err[d][0] = 0;
    }
    if (cmd_run_setup_lines(E.t, &add, fail_line, &d0, err, n))
        return -1;
    devs_to_host(d0);
    if (open_socks(s0, err, n))
        return -1;
    /* every device watched while there are few of them; then each its own
     * (the footprints hold: a footprint's values are read by name) */
    PREV_VALID = 0;
    int all = E.watch_all && s->ndevs <= LIVE_WATCH_ALL_MAX;
    E.watch_all = 0;
    E.cur_dev = -1;
    E.nif = 1;
    if (all)
        watch_every_dev();
    /* the new devices' sentinels; with every device watched, the others'
     * traces again (a sentinel may move a counter of a new device) */
    for (int d = all || s->ndevs == d0 ? 0 : d0; d < s->ndevs; d++)
        if (!E.dev_state[d])
            warm_up_dev(d);
    PREV_VALID = 0;
    return 0;
}

/* The kernel's tick, as CLOCK_MONOTONIC_COARSE shows it (it moves when
 * jiffies does). */
static int64_t tick_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wait (at most 20 ms) for a tick to begin: a run written right after one
 * has a whole jiffy before napi_gro_flush(flush_old) would cut it. */
static void align_to_tick(void)
{
    int64_t t = tick_now(), end = live_now_us() + 20000;
    while (tick_now() == t && live_now_us() < end) {
    }
}

static int run_once(const struct live_batch *c, struct live_obs *o, int64_t *max_gap_us, int *straddled)
{
    memset(o, 0, sizeof *o);
    o->id = c->id;
    /* the counters as the previous case left them (they held still then,
     * and nothing was written since), or read now */
    watch_dev(c->dev);
    if (PREV_VALID)
        snap_copy(&S_BASE, &S_PREV);
    else
        snapshot(&S_BASE);
    PREV_VALID = 0;
    int gro_run = E.s.gro_flush_ns && c->nframes > 1;
    if (gro_run)
        align_to_tick();
    int fast = fast_end_ok();
    int64_t runs0 = fast ? ksirq_runs() : -1;
    fast = fast && runs0 >= 0;
    int64_t t0 = live_now_us(), prev_start = t0, tick0 = tick_now();
    *max_gap_us = 0;
    for (int i = 0; i < c->nframes; i++) {
        int64_t start = live_now_us();
        if (write_frame(c->frames[i])) {
            o->status = LIVE_ERROR;
            snprintf(o->msg, sizeof o->msg, "write to the TAP: %s", strerror(errno));
            return -1;
        }
        /* from the start of the previous write to the end of this one: the
         * longest the TAP's NAPI can have been idle between two frames */
        int64_t gap = live_now_us() - prev_start;
        if (i && gap > *max_gap_us)
            *max_gap_us = gap;
        prev_start = start;
    }
    *straddled = tick_now() != tick0;
    /* GRO: let gro_flush_timeout expire (twice over) first, so the sentinel
     * cannot overtake frames still held on the TAP */
    if (E.s.gro_flush_ns) {
        struct timespec ts = { 0, (long)E.s.gro_flush_ns * 2 };
        nanosleep(&ts, NULL);
    }
    int r = 0, sent = 1;
    if (fast) {
        snapshot(&S_PREV);
        sent = !(ksirq_asleep() && ksirq_runs() == runs0);
        K_FAST += !sent;
        K_SLOW += sent;
    }
    if (sent) {
        r = sentinel(c->dev, 0, 2000);
        settle(&S_CUR, &S_PREV);
    }
    o->settle_us = (uint32_t)(live_now_us() - t0);
    if (r) {
        snap_delta(&S_BASE, &S_PREV, NULL, o);
        o->status = LIVE_ERROR;
        snprintf(o->msg, sizeof o->msg, "the sentinel frame never arrived (2 s)");
        return -1;
    }
    snap_delta(&S_BASE, &S_PREV, sent ? &E.footprint[c->dev] : NULL, o);
    o->status = LIVE_OK;
    PREV_VALID = 1;
    if (getenv("CSC_LIVE_PROFILE"))
        fprintf(stderr, "case %d: %lld us, %lld snapshots %lld us (ended at once %llu, settled %llu)\n", c->id,
                (long long)(live_now_us() - t0), (long long)PROF_SNAPS, (long long)PROF_SNAP_US,
                (unsigned long long)K_FAST, (unsigned long long)K_SLOW);
    PROF_SNAPS = PROF_SNAP_US = 0;
    return 0;
}

/* A GRO run premises that its frames reach the TAP's GRO back to back: no
 * gro_flush_timeout expiry between two of them (the writer can lose its CPU
 * that long on a shared machine) and no tick in the middle of the run (at
 * the end of a NAPI poll napi_gro_flush() flushes what was held since an
 * earlier jiffy, so a run that straddles one is cut in two). Such a run did
 * not test what it meant to: it is written again (up to 4 attempts),
 * whatever its outcome. */
static int run_gro_attempts(const struct live_batch *c, struct live_obs *o)
{
    int rc = 0;
    uint32_t repeats = 0;
    for (uint32_t attempt = 0; attempt < 4; attempt++) {
        int64_t gap = 0;
        int straddled = 0;
        rc = run_once(c, o, &gap, &straddled);
        repeats = attempt;
        if (rc || !E.s.gro_flush_ns || c->nframes < 2 ||
            (gap * 2000 < (int64_t)E.s.gro_flush_ns && !straddled))
            break;
    }
    o->retries = repeats;
    return rc;
}

/* A GRO run is written twice; when the kernel did not do the same both
 * times (a flush nothing above explains: the machine is loaded), a third
 * time, and live_obs_decide picks the kernel's outcome among the three. The
 * model plays no part in this. */
int live_run_case(const struct live_case *c, struct live_obs *o)
{
    static struct live_batch b;
    b.id = c->id;
    b.dev = c->dev;
    b.nframes = c->nframes <= LIVE_MAX_FRAMES ? c->nframes : LIVE_MAX_FRAMES;
    for (int i = 0; i < b.nframes; i++)
        b.frames[i] = &c->frames[i];
    return live_run_batch(&b, o);
}

int live_run_batch(const struct live_batch *c, struct live_obs *o)
{
    if (E.repin) {
        pin_here();
        E.repin = 0;
    }
    if (c->dev >= E.s.ndevs || E.dev_state[c->dev]) {
        memset(o, 0, sizeof *o);
        o->id = c->id;
        o->status = c->dev < E.s.ndevs && E.dev_state[c->dev] > 0 ? LIVE_SKIPPED : LIVE_ERROR;
        snprintf(o->msg, sizeof o->msg, "%s", c->dev < E.s.ndevs ? E.dev_err[c->dev] : "no such device");
        return -1;
    }
    int gro_run = E.s.gro_flush_ns && c->nframes > 1;
    static struct live_obs a[3];
    int rc = run_gro_attempts(c, o);
    if (rc || !gro_run || (c->flags & LIVE_BATCH_ONCE))
        return rc;
    a[0] = *o;
    if ((rc = run_gro_attempts(c, &a[1])))
        return rc;
    uint32_t retries = a[0].retries + a[1].retries;
    if (live_obs_equal(&a[0], &a[1])) {
        *o = a[0];
    } else {
        if ((rc = run_gro_attempts(c, &a[2])))
            return rc;
        retries += a[2].retries;
        const struct live_obs *k = live_obs_decide(a, 3);
        *o = k ? *k : a[2];
        if (!k) {
            o->status = LIVE_ERROR;
            snprintf(o->msg, sizeof o->msg, "GRO run not reproducible: three writes, three outcomes, none the least");
            rc = -1;
        }
        o->disputed = 1;
    }
    o->retries = retries;
    return rc;
}

int live_run_setup(const struct live_tools *t, const struct live_setup *s,
                   const struct live_case *cases, size_t n, struct live_obs *obs, unsigned timeout_s)
{
    int pfd[2];
    for (size_t i = 0; i < n; i++) {
        memset(&obs[i], 0, sizeof obs[i]);
        obs[i].id = cases[i].id;
        obs[i].status = LIVE_ERROR;
    }
    if (pipe(pfd) < 0) {
        snprintf(obs[0].msg, sizeof obs[0].msg, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t p = live_fork_pair(pfd, NULL, 0);
    if (p < 0)
        return -1;
    if (p == 0) {
        close(pfd[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        signal(SIGPIPE, SIG_DFL);
        alarm(timeout_s);              /* a stuck setup ends as errors, not a hang */
        char err[180];
        int st = live_setup(t, s, err, sizeof err);
        for (size_t i = 0; i < n; i++) {
            static struct live_obs o;
            if (st) {
                memset(&o, 0, sizeof o);
                o.id = cases[i].id;
                o.status = st > 0 ? LIVE_SKIPPED : LIVE_ERROR;
                snprintf(o.msg, sizeof o.msg, "setup: %s", err);
            } else {
                live_run_case(&cases[i], &o);
            }
            if (write(pfd[1], &o, sizeof o) != (ssize_t)sizeof o)
                _exit(3);
        }
        _exit(0);
    }
    close(pfd[1]);
    size_t got = 0;
    static struct live_obs o;
    while (got < n && !live_read_full(pfd[0], &o, sizeof o))
        obs[got++] = o;
    close(pfd[0]);
    int st = 0;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    for (size_t i = got; i < n; i++)
        snprintf(obs[i].msg, sizeof obs[i].msg, "namespace child ended early (%s %d)",
                 WIFSIGNALED(st) ? "signal" : "status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    return got == n ? 0 : -1;
}

void live_frame_set(struct live_frame *fr, const uint8_t *data, size_t len)
{
    memset(fr->vnet, 0, sizeof fr->vnet);
    if (len > LIVE_MAX_FRAME)
        len = 0;
    fr->len = (uint16_t)len;
    memcpy(fr->data, data, len);
}

void live_frame_partial(struct live_frame *fr, uint16_t csum_start, uint16_t csum_offset)
{
    struct virtio_net_hdr vh;
    memset(&vh, 0, sizeof vh);
    vh.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    vh.gso_type = VIRTIO_NET_HDR_GSO_NONE;
    vh.csum_start = csum_start;       /* from the start of the frame */
    vh.csum_offset = csum_offset;
    memcpy(fr->vnet, &vh, sizeof fr->vnet);
}
