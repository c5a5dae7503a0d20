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

static size_t slurp(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t got = 0;
    ssize_t r;
    while (got < cap - 1 && (r = read(fd, buf + got, cap - 1 - got)) > 0)
        got += (size_t)r;
    close(fd);
    buf[got] = 0;
    return got;
}

/* Only what arrives: the transmit side (every "Out" counter) moves on its
 * own (MLD reports, resets, ICMP errors) and says nothing of a frame's fate. */
static void put(struct snap *s, const char *name, size_t nlen, int64_t v)
{
    if (s->n >= SNAP_MAX || memmem(name, nlen, "Out", 3))
        return;
    if (nlen >= LIVE_NAME_LEN)
        nlen = LIVE_NAME_LEN - 1;
    memcpy(s->name[s->n], name, nlen);
    s->name[s->n][nlen] = 0;
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
            char *he = h, *ve = v;
            while (*he && *he != ' ')
                he++;
            while (*ve && *ve != ' ')
                ve++;
            char name[LIVE_NAME_LEN];
            int nl = snprintf(name, sizeof name, "%.*s%.*s", (int)pl - 1, line, (int)(he - h), h);
            put(s, name, nl > 0 ? (size_t)nl : 0, strtoll(v, NULL, 10));
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
            put(s, l, (size_t)(e - l), strtoll(v, NULL, 10));
        l = strchr(l, '\n');
        if (l)
            l++;
    }
}

void snap_take(struct snap *s, const int64_t *sock_reads, int nsocks, const int *ifindex, int nif)
{
    static char buf[32768];
    s->n = 0;
    static int prof = -1;
    if (prof < 0)
        prof = getenv("CSC_LIVE_PROFILE") != NULL;
    int64_t t[5];
    t[0] = live_now_us();
    if (slurp("/proc/net/snmp", buf, sizeof buf))
        parse_table(s, buf);
    t[1] = live_now_us();
    if (slurp("/proc/net/netstat", buf, sizeof buf))
        parse_table(s, buf);
    t[2] = live_now_us();
    if (slurp("/proc/net/snmp6", buf, sizeof buf))
        parse_lines(s, buf);
    t[3] = live_now_us();
    nl_link_stats(s, ifindex, nif);
    t[4] = live_now_us();
    if (prof)
        fprintf(stderr, "  snap: snmp %lld netstat %lld snmp6 %lld links %lld us, %d values\n",
                (long long)(t[1] - t[0]), (long long)(t[2] - t[1]), (long long)(t[3] - t[2]),
                (long long)(t[4] - t[3]), s->n);
    for (int i = 0; i < nsocks; i++) {
        char name[16];
        int nl = snprintf(name, sizeof name, "sock:%d", i);
        put(s, name, (size_t)nl, sock_reads[i]);
    }
}

int snap_equal(const struct snap *a, const struct snap *b)
{
    return a->n == b->n && !memcmp(a->v, b->v, sizeof a->v[0] * (size_t)a->n);
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

static int64_t value_of(const struct snap *s, int hint, const char *name)
{
    if (hint < s->n && !strcmp(s->name[hint], name))
        return s->v[hint];
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->name[i], name))
            return s->v[i];
    return 0;
}

void snap_delta(const struct snap *a, const struct snap *b, const struct live_obs *minus,
                struct live_obs *o)
{
    o->n = 0;
    for (int i = 0; i < b->n; i++) {
        int64_t d = b->v[i] - value_of(a, i, b->name[i]);
        if (minus)
            d -= live_obs_get(minus, b->name[i]);
        if (d)
            obs_add(o, b->name[i], d);
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
