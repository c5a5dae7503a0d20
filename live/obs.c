/*
 * obs.c - what the kernel shows of one case: the receive-side SNMP MIB
 * counters of the namespace (/proc/net/snmp, netstat, snmp6: IP, ICMP, UDP,
 * TCP, their IPv6 twins and IpExt), the statistics of the links that matter
 * (netlink.c) and the datagrams read on each socket, taken as one snapshot;
 * a case's observation is the difference of two. Under TCG a snapshot is
 * most of a case's cost, so it reads no more than that: not TcpExt,
 * MPTcpExt, IcmpMsg or the per-type ICMPv6 lines, nor any transmit counter.
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int64_t live_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The counter files, kept open: a read at offset 0 makes the kernel print
 * the file afresh, and spares the path walk and the open of every
 * snapshot (most of a read's cost for /proc/net/netstat). */
enum { F_SNMP = 0, F_NETSTAT, F_SNMP6, F__COUNT };
static const char *const FILES[F__COUNT] = { "/proc/net/snmp", "/proc/net/netstat", "/proc/net/snmp6" };
static int FD[F__COUNT] = { -1, -1, -1 };

void snap_reset(void)
{
    for (int i = 0; i < F__COUNT; i++) {
        if (FD[i] >= 0)
            close(FD[i]);
        FD[i] = -1;
    }
}

static size_t slurp(int f, char *buf, size_t cap)
{
    if (FD[f] < 0 && (FD[f] = open(FILES[f], O_RDONLY | O_CLOEXEC)) < 0)
        return 0;
    size_t got = 0;
    ssize_t r;
    while (got < cap - 1 && (r = pread(FD[f], buf + got, cap - 1 - got, (off_t)got)) > 0)
        got += (size_t)r;
    buf[got] = 0;
    return got;
}

/* ---- layouts: the names of a snapshot's values ---- */

#define LAYOUTS 4                       /* kept, newest first by number */
static struct {
    unsigned id;                        /* 0: unused */
    int n;
    char name[SNAP_MAX][LIVE_NAME_LEN];
} L[LAYOUTS];
static unsigned LAST_ID;               /* the newest layout */

static int layout_slot(unsigned id)
{
    return id && L[id % LAYOUTS].id == id ? (int)(id % LAYOUTS) : -1;
}

const char *snap_name(const struct snap *s, int i)
{
    int k = layout_slot(s->layout);
    return k >= 0 && i < L[k].n ? L[k].name[i] : "?";
}

/* s goes on with a layout of its own from value n on: a new one, holding
 * the first n names of the one it had */
static int layout_fork(struct snap *s, int n)
{
    int old = layout_slot(s->layout);
    unsigned id = ++LAST_ID;
    if (!id)
        id = ++LAST_ID;
    int k = (int)(id % LAYOUTS);
    if (old >= 0 && old != k)
        memcpy(L[k].name, L[old].name, sizeof L[k].name[0] * (size_t)n);
    L[k].id = id;
    L[k].n = n;
    s->layout = id;
    return k;
}

/* Only what arrives: the transmit side (every "Out" counter) moves on its
 * own (MLD reports, ICMP errors) and says nothing of a frame's fate - but
 * Tcp OutRsts, a listener's answer to an ACK it took, which tells that from
 * tcp_v4_rcv's discard_it (both count TcpInSegs alone; kfuzz_judge.c) */
static bool transmit_side(const char *prefix, size_t pl, const char *field, size_t fl)
{
    if (pl == 3 && !memcmp(prefix, "Tcp", 3) && fl == 7 && !memcmp(field, "OutRsts", 7))
        return false;
    return memmem(field, fl, "Out", 3) != NULL;
}

void snap_put(struct snap *s, const char *prefix, size_t pl, const char *field, size_t fl, int64_t v)
{
    if (s->n >= SNAP_MAX || transmit_side(prefix, pl, field, fl))
        return;
    char name[LIVE_NAME_LEN];
    if (pl > LIVE_NAME_LEN - 1)
        pl = LIVE_NAME_LEN - 1;
    if (fl > LIVE_NAME_LEN - 1 - pl)
        fl = LIVE_NAME_LEN - 1 - pl;
    memcpy(name, prefix, pl);
    memcpy(name + pl, field, fl);
    name[pl + fl] = 0;
    int k = layout_slot(s->layout);
    if (k < 0 || s->n >= L[k].n || memcmp(L[k].name[s->n], name, pl + fl + 1) != 0) {
        if (k < 0 || L[k].n != s->n || s->layout != LAST_ID)
            k = layout_fork(s, k >= 0 ? s->n : 0);
        memcpy(L[k].name[s->n], name, pl + fl + 1);
        L[k].n = s->n + 1;
    }
    s->v[s->n++] = v;
}

static int table_kept(const char *line, size_t pl)
{
    static const char *const kept[] = { "Ip:", "Icmp:", "Tcp:", "Udp:", "IpExt:" };
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (strlen(kept[i]) == pl && !strncmp(line, kept[i], pl))
            return 1;
    return 0;
}

/* /proc/net/snmp and netstat: "Proto: name name ..." then "Proto: v v ...";
 * each value gets nstat's name, "Proto" + "name" (UdpInCsumErrors,
 * IpExtInCsumErrors), like the counters of the model (csc_counter_name). */
static void parse_table(struct snap *s, char *buf)
{
    char *line = buf;
    while (line && *line) {
        char *vals = strchr(line, '\n');
        if (!vals)
            break;
        *vals++ = 0;
        char *next = strchr(vals, '\n');
        if (next)
            *next++ = 0;
        char *colon = strchr(line, ':');
        if (!colon || strncmp(line, vals, (size_t)(colon - line + 1)) != 0) {
            line = next;
            continue;
        }
        size_t pl = (size_t)(colon - line + 1);
        if (!table_kept(line, pl)) {
            line = next;
            continue;
        }
        char *h = colon + 1, *v = vals + pl;
        for (;;) {
            while (*h == ' ')
                h++;
            while (*v == ' ')
                v++;
            if (!*h || !*v)
                break;
            char *he = h, *ve;
            while (*he && *he != ' ')
                he++;
            int64_t x = strtoll(v, &ve, 10);
            while (*ve && *ve != ' ')
                ve++;
            snap_put(s, line, pl - 1, h, (size_t)(he - h), x);
            h = he;
            v = ve;
        }
        line = next;
    }
}

/* /proc/net/snmp6: "Name   value" lines */
static void parse_lines(struct snap *s, const char *buf)
{
    for (const char *l = buf; l && *l;) {
        const char *e = l;
        while (*e && *e != ' ' && *e != '\t' && *e != '\n')
            e++;
        const char *v = e;
        while (*v == ' ' || *v == '\t')
            v++;
        int kept = (!strncmp(l, "Ip6", 3) || !strncmp(l, "Udp6", 4) || !strncmp(l, "Icmp6", 5)) &&
                   strncmp(l, "Icmp6InType", 11) != 0;
        if (kept && e > l && *v && *v != '\n')
            snap_put(s, "", 0, l, (size_t)(e - l), strtoll(v, NULL, 10));
        l = strchr(l, '\n');
        if (l)
            l++;
    }
}

void snap_begin(struct snap *s)
{
    s->n = 0;
    s->layout = LAST_ID;
}

void snap_end(struct snap *s)
{
    int k = layout_slot(s->layout);
    if (k >= 0 && L[k].n != s->n)      /* fewer values than the layout had */
        L[layout_fork(s, s->n)].n = s->n;
}

void snap_take(struct snap *s, const int64_t *sock_reads, const int64_t *sock_bytes, int nsocks, const int *ifindex,
               char (*ifname)[16], int nif)
{
    static char buf[32768];
    snap_begin(s);
    static int prof = -1;
    if (prof < 0)
        prof = getenv("CSC_LIVE_PROFILE") != NULL;
    int64_t t[5];
    t[0] = prof ? live_now_us() : 0;
    if (slurp(F_SNMP, buf, sizeof buf))
        parse_table(s, buf);
    t[1] = prof ? live_now_us() : 0;
    if (slurp(F_NETSTAT, buf, sizeof buf))
        parse_table(s, buf);
    t[2] = prof ? live_now_us() : 0;
    if (slurp(F_SNMP6, buf, sizeof buf))
        parse_lines(s, buf);
    t[3] = prof ? live_now_us() : 0;
    nl_link_stats(s, ifindex, ifname, nif);
    t[4] = prof ? live_now_us() : 0;
    if (prof)
        fprintf(stderr, "  snap: snmp %lld netstat %lld snmp6 %lld links %lld us, %d values\n",
                (long long)(t[1] - t[0]), (long long)(t[2] - t[1]), (long long)(t[3] - t[2]),
                (long long)(t[4] - t[3]), s->n);
    for (int i = 0; i < nsocks; i++) {
        char name[16];
        int nl = snprintf(name, sizeof name, "sock:%d", i);
        snap_put(s, "", 0, name, (size_t)nl, sock_reads[i]);
    }
    for (int i = 0; i < nsocks; i++) {
        char name[20];
        int nl = snprintf(name, sizeof name, "sockbytes:%d", i);
        snap_put(s, "", 0, name, (size_t)nl, sock_bytes[i]);
    }
    snap_end(s);
}

int snap_equal(const struct snap *a, const struct snap *b)
{
    return a->layout == b->layout && a->n == b->n && !memcmp(a->v, b->v, sizeof a->v[0] * (size_t)a->n);
}

void obs_add(struct live_obs *o, const char *name, int64_t delta)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->v[i].name, name)) {
            o->v[i].delta += delta;
            return;
        }
    if (!delta || o->n >= LIVE_MAX_VALUES)
        return;
    snprintf(o->v[o->n].name, sizeof o->v[o->n].name, "%s", name);
    o->v[o->n++].delta = delta;
}

/* a's value of b's counter i (a read with another layout: by name) */
static int64_t value_of(const struct snap *a, const struct snap *b, int i)
{
    if (a->layout == b->layout)
        return i < a->n ? a->v[i] : 0;
    const char *name = snap_name(b, i);
    if (i < a->n && !strcmp(snap_name(a, i), name))
        return a->v[i];
    for (int j = 0; j < a->n; j++)
        if (!strcmp(snap_name(a, j), name))
            return a->v[j];
    return 0;
}

/* minus by the layout's positions, kept for the device whose footprint it
 * is until the layout or the footprint changes */
static const int64_t *minus_by_position(const struct snap *b, const struct live_obs *minus)
{
    static int64_t dense[SNAP_MAX];
    static const struct live_obs *of;
    static struct live_obs copy;
    static unsigned layout;
    static int n;
    if (of == minus && layout == b->layout && n == b->n && copy.n == minus->n &&
        !memcmp(copy.v, minus->v, sizeof copy.v[0] * (size_t)minus->n))
        return dense;
    for (int i = 0; i < b->n; i++)
        dense[i] = live_obs_get(minus, snap_name(b, i));
    of = minus;
    layout = b->layout;
    n = b->n;
    copy.n = minus->n;
    memcpy(copy.v, minus->v, sizeof copy.v[0] * (size_t)minus->n);
    return dense;
}

void snap_delta(const struct snap *a, const struct snap *b, const struct live_obs *minus,
                struct live_obs *o)
{
    o->n = 0;
    const int64_t *m = minus ? minus_by_position(b, minus) : NULL;
    for (int i = 0; i < b->n; i++) {
        int64_t d = b->v[i] - value_of(a, b, i);
        if (m)
            d -= m[i];
        if (d)
            obs_add(o, snap_name(b, i), d);
    }
}

int64_t live_obs_get(const struct live_obs *o, const char *name)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->v[i].name, name))
            return o->v[i].delta;
    return 0;
}

int64_t live_obs_sum(const struct live_obs *o, const char *prefix, const char *suffix)
{
    size_t pl = strlen(prefix), sl = strlen(suffix);
    int64_t sum = 0;
    for (int i = 0; i < o->n; i++) {
        size_t nl = strlen(o->v[i].name);
        if (nl >= pl + sl && !strncmp(o->v[i].name, prefix, pl) &&
            !strcmp(o->v[i].name + nl - sl, suffix))
            sum += o->v[i].delta;
    }
    return sum;
}

int live_obs_equal(const struct live_obs *a, const struct live_obs *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (live_obs_get(b, a->v[i].name) != a->v[i].delta)
            return 0;
    return 1;
}

/* Every counter of a at most b's (a counter one of them lacks is 0 there). */
static int obs_at_most(const struct live_obs *a, const struct live_obs *b)
{
    for (int i = 0; i < a->n; i++)
        if (a->v[i].delta > live_obs_get(b, a->v[i].name))
            return 0;
    for (int i = 0; i < b->n; i++)
        if (live_obs_get(a, b->v[i].name) > b->v[i].delta)
            return 0;
    return 1;
}

/* The kernel's outcome among a GRO run's writes that differ. Timing can only
 * cut a run (a flush in the middle: one more skb up every layer, each
 * counter the same or higher), never merge more than the kernel's rules
 * allow; so a write whose counters are all at most every other write's is
 * the run as written back to back. None such: two that agree; else none. */
const struct live_obs *live_obs_decide(const struct live_obs *w, int n)
{
    for (int i = 0; i < n; i++) {
        int least = 1;
        for (int j = 0; j < n && least; j++)
            least = j == i || obs_at_most(&w[i], &w[j]);
        if (least)
            return &w[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (live_obs_equal(&w[i], &w[j]))
                return &w[i];
    return NULL;
}
