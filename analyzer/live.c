/*
 * live.c - csumcheck --live: every frame of the inputs written into the
 * running kernel's receive path, in a private network namespace the tool
 * makes (libcsclive, live/), side by side with the model (csc_analyze on
 * the same bytes), both judged with the differential test's rules
 * (live/judge.h). docs/live.md walks through an example.
 *
 * A frame is replayed as the receiver of its stack would get it:
 *   - the link header becomes one Ethernet header addressed to the TAP
 *     (VLAN tags, SLL, a raw-IP capture: nothing a checksum covers);
 *   - the TAP's virtio-net header carries the report (--rx none,
 *     partial:outer, partial:inner), or a tc BPF program raises the skb to
 *     CHECKSUM_UNNECESSARY (--rx unnecessary:L);
 *   - the namespace takes every destination address as its own: a local
 *     route for each (on lo, whichever device the frame arrives on), which
 *     holds at once where an IPv6 address would wait for addrconf;
 *     it accepts local sources (a capture holds both directions of a
 *     conversation) and 127/8 from the TAP (a loopback capture);
 *   - a tunnel gets its device (VXLAN, VXLAN-GPE, GENEVE, external, on the
 *     port the model decoded), with a BPF program that takes the inner
 *     Ethernet destination as the device's own;
 *   - the innermost transport gets a listening socket on its port (none
 *     with --no-socket).
 * The model analyses exactly the bytes written, with the receiver's
 * configuration (no GRO on the TAP; the era preset of the running kernel).
 * Frames are written one at a time, in capture order; each is observed
 * until a sentinel frame behind it came through and the counters held
 * still. What cannot be replayed is named per frame with the reason.
 *
 * Frames go through in chunks: a chunk is one namespace (one child
 * process), as many frames as its limits (addresses, sockets, devices)
 * hold, so memory stays bounded whatever the capture's length.
 */
#define _GNU_SOURCE
#include "live_cli.h"

#include "jw.h"
#include "stats.h"
#include "wbuf.h"

#include "judge.h"
#include "live.h"
#include "pb.h"

#include "csumcheck/csumcheck.h"

#include <glib.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 256                    /* frames of one namespace at most */
#define SENT_PORT 5999               /* the sentinels' UDP port (socket 0) */
#define FRAME_MS 5000                /* one frame's answer, at most */
#define CHUNK_S 600                  /* one namespace's whole life, at most */
#define DEV_MAC "02:00:00:00:00:03"  /* the tunnel devices' address */

/* The receivers --live makes */
enum lk { LK_PLAIN = 0, LK_VXLAN, LK_GPE, LK_GENEVE, LK__COUNT };
static const char *const LK_NAME[LK__COUNT] = { "plain", "vxlan", "vxlan-gpe", "geneve" };

/* The innermost transport */
enum lt { LT_UDP = 0, LT_TCP, LT_ICMP };
static const char *const LT_NAME[] = { "udp", "tcp", "icmp" };

/* What happened to one frame */
enum lr { LR_AGREE = 0, LR_DISAGREE, LR_SKIPPED, LR_NOT_REPLAYABLE, LR_ERROR, LR__COUNT };

struct lframe {
    uint64_t no;                     /* frame number in its file, from 1 */
    char why[160];                   /* not replayable / skipped / error: why */
    uint8_t result;                  /* enum lr (LR_NOT_REPLAYABLE until judged) */
    uint8_t kind;                    /* enum lk */
    uint8_t l4, in6;                 /* innermost transport (enum lt) and family */
    int dev, sock;                   /* device and socket index in the setup (-1: none) */
    int mclass, kclass;
    int64_t mcnt[LIVE_N_CNT], kcnt[LIVE_N_CNT];
    char mdrop[48];                  /* the model's drop reason */
    char deltas[400];                /* -v: every counter that moved in the namespace */
    int64_t at_dev;                  /* skbs the tunnel device counted (rx_packets) */
    size_t rec_off, rec_len;         /* JSON: its packet record in chunk.rec (rec_len 0: none) */
    struct live_frame fr;            /* as written */
};

/* The namespace being planned and the frames it will take */
struct chunk {
    struct live_setup s;
    uint16_t dev_port[LIVE_MAX_DEVS];
    uint8_t dev_kind[LIVE_MAX_DEVS];
    int n;
    GString *rec;                    /* JSON: the frames' packet records, open for their "live" */
    struct lframe f[CHUNK];
};

struct live_ctx {
    const struct cli_opts *o;
    struct csc_config cfg;
    struct live_tools tools;
    char bpf[512];
    char release[65];
    const char *era;
    struct wbuf *w;
    bool json;
    const char *file;
    struct cli_run run;              /* the run as --live sets it (era of the kernel, no NIC GRO) */
    struct out_file out;             /* JSON: the packet records of the current file */
    struct cli_stats st;             /* a frame's findings (stats_account_frame) */
    /* --kernel: a first pass writes the job, the VM runs it, a second pass
     * judges each frame from its observation */
    enum { LM_HERE = 0, LM_JOB, LM_JUDGE } mode;
    FILE *job;
    int32_t seq;                     /* the next replayed frame's case id */
    GPtrArray *obs;                  /* struct vm_obs by case id */
    const char *vm;                  /* the VM kernel (csc-vm's name), NULL: this machine's */
    double vm_seconds;               /* the VM's run, boot included */
    /* totals: [kind][result] */
    uint64_t tot[LK__COUNT][LR__COUNT];
    uint64_t frames, setups, skipped_setups;
    double seconds;                  /* in namespaces (making them, their frames) */
    double frame_seconds;            /* writing and observing replayed frames */
    unsigned disagreements, errors;
    int64_t t0;
};

static volatile sig_atomic_t live_stop;

static void on_signal(int sig)
{
    live_stop = sig;
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- can it run here at all ---- */

static const char *bpf_object(char *buf, size_t n)
{
    const char *env = getenv("CSC_LIVE_BPF");
    if (env && *env)
        snprintf(buf, n, "%s", env);
    else
        snprintf(buf, n, "%s", CSC_LIVE_BPF_OBJ);
    return buf[0] && access(buf, R_OK) == 0 ? buf : NULL;
}

/* 0: ready; else the reason it cannot run in why */
static int live_preflight_all(struct live_ctx *c, char *why, size_t n)
{
    if (geteuid() != 0) {
        snprintf(why, n, "needs root (a private network namespace and a TAP)");
        return -1;
    }
    if (access("/dev/net/tun", R_OK | W_OK) != 0) {
        snprintf(why, n, "/dev/net/tun is missing");
        return -1;
    }
    if (live_find_tools(&c->tools)) {
        snprintf(why, n, "iproute2 (ip) not found");
        return -1;
    }
    c->tools.bpf_obj = bpf_object(c->bpf, sizeof c->bpf);
    if (live_preflight(&c->tools, why, n)) {
        if (!why[0])
            snprintf(why, n, "cannot make a network namespace with a TAP here");
        return -1;
    }
    return 0;
}

/* The device reports a TAP can make; else the reason */
static const char *report_refused(const struct csc_report *r)
{
    switch (r->kind) {
    case CSC_RX_NONE: return NULL;
    case CSC_RX_UNNECESSARY:
        return r->level <= 2 ? NULL : "unnecessary:L with L > 2 (the BPF object has levels 0-2)";
    case CSC_RX_PARTIAL:
        return r->where == CSC_PARTIAL_EXPLICIT ? "partial:START:OFFSET (use partial:outer or partial:inner)"
                                                : NULL;
    default: return "this report (a TAP makes none, partial:outer, partial:inner; BPF unnecessary:0-2)";
    }
}

/* ---- planning one frame ---- */

static void why(struct lframe *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(struct lframe *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
}

static int first_ip(const struct csc_result *r, int from)
{
    for (int i = from; i < r->nlayers; i++)
        if (r->layers[i].proto == CSC_P_IPV4 || r->layers[i].proto == CSC_P_IPV6)
            return i;
    return -1;
}

/* The frame as the TAP gets it: one Ethernet header to the TAP, then the
 * captured bytes from the first IP header on. 0 or the reason. */
static const char *make_written(const struct live_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
                                uint8_t link, struct lframe *f)
{
    static struct csc_result r;
    struct csc_frame cf = { data, h->caplen, h->len, link, CSC_DIR_IN };
    if (h->caplen < h->len)
        return "the capture cut it short (caplen < length): the kernel would get other bytes";
    csc_decode(&c->cfg, &cf, &r);
    int ip = first_ip(&r, 0);
    if (ip < 0)
        return "no IP header";
    uint32_t l3 = r.layers[ip].off;
    if (h->caplen - l3 + 14 > LIVE_MAX_FRAME)
        return "longer than a jumbo frame (9216 bytes)";
    static const uint8_t eth[12] = { 0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01 };
    uint8_t *p = f->fr.data;
    memcpy(p, eth, sizeof eth);
    if (link == CSC_LINK_ETHERNET && h->caplen >= 12)
        memcpy(p + 6, data + 6, 6);           /* keep the sender */
    uint16_t type = r.layers[ip].proto == CSC_P_IPV4 ? 0x0800 : 0x86dd;
    p[12] = (uint8_t)(type >> 8);
    p[13] = (uint8_t)type;
    memcpy(p + 14, data + l3, h->caplen - l3);
    f->fr.len = (uint16_t)(h->caplen - l3 + 14);
    memset(f->fr.vnet, 0, sizeof f->fr.vnet);
    return NULL;
}

/* An address the kernel drops before any checksum (martian), or one a
 * namespace cannot own: the reason, else NULL. */
static const char *martian(const uint8_t *a, int v6, int dst)
{
    static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
    if (!v6) {
        if (a[0] == 0)
            return dst ? "destination 0/8" : "source 0/8";
        if (a[0] >= 224)
            return dst ? "multicast or reserved destination" : "multicast or reserved source";
        return NULL;
    }
    static const uint8_t zero[16];
    if (a[0] == 0xff)
        return dst ? "multicast destination" : "multicast source";
    if (!memcmp(a, zero, 15) && (a[15] == 0 || a[15] == 1))
        return dst ? "destination :: or ::1" : "source :: or ::1";
    if (!memcmp(a, mapped, 12))
        return "IPv4-mapped address";
    if (dst && a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
        return "link-local destination";
    return NULL;
}

static void addr_text(const uint8_t *a, int v6, char *buf, size_t n)
{
    if (!v6) {
        snprintf(buf, n, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
        return;
    }
    size_t o = 0;
    for (int i = 0; i < 16 && o < n; i += 2)
        o += (size_t)snprintf(buf + o, n - o, "%s%x", i ? ":" : "", (a[i] << 8) | a[i + 1]);
}

/* Checks on one IP layer: not a fragment, addresses a namespace can own. */
static const char *ip_refused(const struct csc_frame *cf, const struct csc_result *r, int ip, char *addr,
                              size_t an)
{
    const struct csc_layer *l = &r->layers[ip];
    int v6 = l->proto == CSC_P_IPV6;
    if (v6 ? (l->u.ip.frag_off & 0xfff9) != 0 : (l->u.ip.frag_off & 0x3fff) != 0)
        return "an IP fragment (the kernel holds it for reassembly)";
    uint8_t src[16], dst[16];
    if (!csc_ip_addresses(cf, l->proto, l->u.ip.addr_off, src, dst))
        return "its IP addresses are not in the capture";
    const char *m = martian(dst, v6, 1);
    if (!m)
        m = martian(src, v6, 0);
    if (m)
        return m;
    addr_text(dst, v6, addr, an);
    return NULL;
}

/* The receiver a tunnel layer needs; -1 none that --live makes */
static int tunnel_kind(const struct live_ctx *c, const struct csc_layer *t)
{
    switch (t->proto) {
    case CSC_P_VXLAN: return LK_VXLAN;
    case CSC_P_VXLAN_GPE: return LK_GPE;
    case CSC_P_GENEVE: return c->cfg.geneve_external ? LK_GENEVE : -1;
    default: return -1;
    }
}

/* What one frame needs of the namespace */
struct need {
    int kind;
    uint16_t port;                   /* the tunnel's UDP port */
    char outer[48], inner[48];       /* destination addresses to own */
    int sock_kind;                   /* enum live_sock_kind, -1: none */
    uint16_t sock_port;
};

/* Read the frame's stack: the receiver, the addresses and the socket it
 * needs; NULL, or why it cannot be replayed. */
static const char *plan_stack(const struct live_ctx *c, const struct csc_result *r, struct lframe *f,
                              struct need *nd)
{
    struct csc_frame cf = { f->fr.data, f->fr.len, f->fr.len, CSC_LINK_ETHERNET, CSC_DIR_IN };
    memset(nd, 0, sizeof *nd);
    nd->sock_kind = -1;
    int outer = first_ip(r, 0);
    const char *no = outer < 0 ? "no IP header" : ip_refused(&cf, r, outer, nd->outer, sizeof nd->outer);
    if (no)
        return no;
    int l4 = outer + 1, ip = outer;
    if (l4 >= r->nlayers)
        return "nothing after the IP header";
    uint8_t p = r->layers[l4].proto;
    nd->kind = LK_PLAIN;
    if (p == CSC_P_UDP && l4 + 1 < r->nlayers && csc_proto_is_tunnel(r->layers[l4 + 1].proto)) {
        const struct csc_layer *t = &r->layers[l4 + 1];
        nd->kind = tunnel_kind(c, t);
        if (nd->kind < 0)
            return "a tunnel --live makes no receiver for (it makes VXLAN, VXLAN-GPE, external GENEVE)";
        nd->port = r->layers[l4].u.ports.dport;
        ip = first_ip(r, l4 + 2);
        if (ip < 0)
            return "no inner IP header";
        for (int i = l4 + 2; i < ip; i++)
            if (r->layers[i].proto != CSC_P_ETH) {
                static char tag[96];
                snprintf(tag, sizeof tag, "a %s header inside the tunnel (--live makes no device for it)",
                         csc_proto_name(r->layers[i].proto));
                return tag;
            }
        if ((no = ip_refused(&cf, r, ip, nd->inner, sizeof nd->inner)))
            return no;
        l4 = ip + 1;
        if (l4 >= r->nlayers)
            return "nothing after the inner IP header";
        p = r->layers[l4].proto;
    }
    if (p == CSC_P_ICMP || p == CSC_P_ICMPV6) {
        uint8_t type = r->layers[l4].u.icmp.type;
        if (p == CSC_P_ICMP ? type == 3 || type == 4 || type == 5 || type == 11 || type == 12 : type < 128)
            return "an ICMP error: the kernel looks up the socket of the flow it quotes, which the namespace "
                   "lacks (IcmpInErrors)";
        f->l4 = LT_ICMP;             /* the kernel answers an echo; no socket */
        f->in6 = p == CSC_P_ICMPV6;
        return NULL;
    }
    if (first_ip(r, l4) >= 0)
        return "a tunnel inside a tunnel";
    if (p != CSC_P_UDP && p != CSC_P_TCP)
        return "the innermost transport is not UDP, TCP or ICMP (--live reads only those outcomes)";
    if (l4 + 1 < r->nlayers && csc_proto_is_tunnel(r->layers[l4 + 1].proto))
        return "a tunnel inside a tunnel";
    f->l4 = p == CSC_P_TCP ? LT_TCP : LT_UDP;
    f->in6 = r->layers[ip].proto == CSC_P_IPV6;
    int tcp = f->l4 == LT_TCP;
    uint16_t dport = r->layers[l4].u.ports.dport;
    if (!dport)
        return "destination port 0";
    if (!c->cfg.inner_socket)
        return NULL;
    nd->sock_kind = tcp ? (f->in6 ? LIVE_TCP6 : LIVE_TCP4) : (f->in6 ? LIVE_UDP6 : LIVE_UDP4);
    nd->sock_port = dport;
    return NULL;
}

/* The virtio-net header of the report (partial:outer/inner: NEEDS_CSUM at
 * the outermost / innermost L4 checksum). NULL or why not. */
static const char *set_report(const struct live_ctx *c, const struct csc_result *r, struct lframe *f)
{
    const struct csc_report *rx = &c->cfg.rx;
    if (rx->kind != CSC_RX_PARTIAL)
        return NULL;
    int at = -1;
    for (int i = first_ip(r, 0) + 1; i > 0 && i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        int l4 = l->proto == CSC_P_UDP || l->proto == CSC_P_TCP || l->proto == CSC_P_GRE;
        if (!l4 || l->csum_off == CSC_NO_OFF)
            continue;
        at = i;
        if (rx->where == CSC_PARTIAL_OUTER)
            break;
    }
    if (at < 0)
        return "no L4 checksum for the partial report";
    const struct csc_layer *l = &r->layers[at];
    live_frame_partial(&f->fr, (uint16_t)l->off, (uint16_t)(l->csum_off - l->off));
    return NULL;
}

/* ---- the namespace of a chunk ---- */

static int has_line(const struct live_setup *s, const char *line)
{
    for (int i = 0; i < s->ncmds; i++)
        if (!strcmp(s->cmds[i], line))
            return 1;
    return 0;
}

static int add_line(struct live_setup *s, const char *line)
{
    if (has_line(s, line))
        return 0;
    if (s->ncmds >= LIVE_MAX_CMDS)
        return -1;
    snprintf(s->cmds[s->ncmds++], LIVE_CMD_LEN, "%s", line);
    return 0;
}

static int find_sock(const struct live_setup *s, int kind, uint16_t port)
{
    for (int i = 0; i < s->nsocks; i++)
        if (s->socks[i].kind == kind && s->socks[i].port == port)
            return i;
    return -1;
}

static int add_sock(struct live_setup *s, int kind, uint16_t port)
{
    int i = find_sock(s, kind, port);
    if (i >= 0 || s->nsocks >= LIVE_MAX_SOCKS)
        return i;
    s->socks[s->nsocks].kind = (uint8_t)kind;
    s->socks[s->nsocks].port = port;
    return s->nsocks++;
}

static void dev_line(struct live_dev *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dev_line(struct live_dev *d, const char *fmt, ...)
{
    if (d->ncmds >= LIVE_MAX_DEV_CMDS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->cmds[d->ncmds++], LIVE_CMD_LEN, fmt, ap);
    va_end(ap);
}

/* The sentinel of a device: a clean frame through it carrying UDP from
 * 198.19.0.1 to 198.19.0.2:5999 (on lo), or for the TAP itself from
 * 198.18.0.1 to 198.18.0.2 (on the TAP). Socket 0 reads it. */
static void sentinel_of(int kind, uint16_t port, struct live_frame *fr)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV4);
    static const uint8_t s0[4] = { 198, 18, 0, 1 }, d0[4] = { 198, 18, 0, 2 };
    static const uint8_t s1[4] = { 198, 19, 0, 1 }, d1[4] = { 198, 19, 0, 2 };
    memcpy(ip->src, s0, 4);
    memcpy(ip->dst, d0, 4);
    if (kind != LK_PLAIN) {
        pb_push(&f, PB_UDP)->dport = port;
        pb_push(&f, kind == LK_VXLAN ? PB_VXLAN : kind == LK_GPE ? PB_VXLAN_GPE : PB_GENEVE)->vni = 1;
        if (kind != LK_GPE)
            pb_push(&f, PB_ETH);
        ip = pb_push(&f, PB_IPV4);
        memcpy(ip->src, s1, 4);
        memcpy(ip->dst, d1, 4);
    }
    pb_push(&f, PB_UDP)->dport = SENT_PORT;
    pb_push(&f, PB_PAYLOAD)->len = 16;
    uint8_t buf[256];
    size_t n = pb_build(&f, buf, sizeof buf);
    live_frame_set(fr, buf, n);
}

/* The device lines of a receiver kind on a port */
static void make_dev(const struct live_ctx *c, struct live_dev *d, int kind, uint16_t port)
{
    static const char *const pfx[LK__COUNT] = { "", "vx", "gpe", "gnv" };
    const char *u6z = c->cfg.udp6_zero_csum_rx ? " udp6zerocsumrx" : "";
    memset(d, 0, sizeof *d);
    snprintf(d->ifname, sizeof d->ifname, "%s%u", pfx[kind], port);
    snprintf(d->name, sizeof d->name, "%s%u (%s port %u)", pfx[kind], port, LK_NAME[kind], port);
    switch (kind) {
    case LK_VXLAN:
        dev_line(d, "ip link add %s address " DEV_MAC " type vxlan external dstport %u nolearning%s%s%s",
                 d->ifname, port, c->cfg.remcsum_rx ? " remcsumrx" : "",
                 c->cfg.remcsum_rx_given && !c->cfg.remcsum_rx ? " noremcsumrx" : "", u6z);
        break;
    case LK_GPE:
        dev_line(d, "ip link add %s type vxlan gpe external dstport %u%s", d->ifname, port, u6z);
        break;
    case LK_GENEVE:
        dev_line(d, "ip link add %s address " DEV_MAC " type geneve external dstport %u%s%s", d->ifname, port,
                 u6z, c->cfg.geneve_inner_proto_inherit ? " innerprotoinherit" : "");
        break;
    }
    dev_line(d, "ip link set %s up", d->ifname);
    d->to_host = kind == LK_VXLAN || kind == LK_GENEVE;
    d->nsent = 1;
    d->sent_sock[0] = 0;
    sentinel_of(kind, port, &d->sent[0]);
}

static void chunk_begin(const struct live_ctx *c, struct chunk *ch)
{
    struct live_setup *s = &ch->s;
    memset(s, 0, sizeof *s);
    ch->n = 0;
    g_string_truncate(ch->rec, 0);
    snprintf(s->name, sizeof s->name, "csumcheck --live %.100s", c->file);
    s->pin = 1;                      /* one CPU: every queue keeps write order */
    s->level = c->cfg.rx.kind == CSC_RX_UNNECESSARY ? (int8_t)c->cfg.rx.level : -1;
    add_line(s, "@sysctl net.ipv4.conf.all.accept_local=1");
    add_line(s, "@sysctl net.ipv4.conf.all.route_localnet=1");   /* 127/8 from the TAP (a loopback capture) */
    add_line(s, "ip addr add 198.18.0.2/32 dev " LIVE_TAP_NAME);
    add_line(s, "ip addr add 198.19.0.2/32 dev lo");
    add_sock(s, LIVE_UDP4, SENT_PORT);
    struct live_dev *d = &s->devs[s->ndevs++];
    memset(d, 0, sizeof *d);
    snprintf(d->ifname, sizeof d->ifname, LIVE_TAP_NAME);
    snprintf(d->name, sizeof d->name, LIVE_TAP_NAME " (no tunnel)");
    d->nsent = 1;
    sentinel_of(LK_PLAIN, 0, &d->sent[0]);
    ch->dev_kind[0] = LK_PLAIN;
    ch->dev_port[0] = 0;
}

/* Take a frame's needs into the chunk's setup; -1 when the setup is full
 * (nothing was added then). */
static int chunk_take(const struct live_ctx *c, struct chunk *ch, const struct need *nd, struct lframe *f)
{
    struct live_setup *s = &ch->s;
    int dev = -1;
    for (int i = 0; i < s->ndevs && dev < 0; i++)
        if (ch->dev_kind[i] == nd->kind && ch->dev_port[i] == nd->port)
            dev = i;
    char l1[LIVE_CMD_LEN], l2[LIVE_CMD_LEN];
    l1[0] = 0;
    if (strncmp(nd->outer, "127.", 4))   /* 127/8 is lo's already */
        snprintf(l1, sizeof l1, "ip route replace local %s/%d dev lo", nd->outer, strchr(nd->outer, ':') ? 128 : 32);
    l2[0] = 0;
    if (nd->inner[0] && strncmp(nd->inner, "127.", 4))
        snprintf(l2, sizeof l2, "ip route replace local %s/%d dev lo", nd->inner, strchr(nd->inner, ':') ? 128 : 32);
    int lines = (l1[0] && !has_line(s, l1)) + (l2[0] && !has_line(s, l2));
    int sock = nd->sock_kind >= 0 ? find_sock(s, nd->sock_kind, nd->sock_port) : -1;
    if (s->ncmds + lines > LIVE_MAX_CMDS || (dev < 0 && s->ndevs >= LIVE_MAX_DEVS) ||
        (nd->sock_kind >= 0 && sock < 0 && s->nsocks >= LIVE_MAX_SOCKS) || ch->n >= CHUNK)
        return -1;
    if (l1[0])
        add_line(s, l1);
    if (l2[0])
        add_line(s, l2);
    if (dev < 0) {
        dev = s->ndevs++;
        make_dev(c, &s->devs[dev], nd->kind, nd->port);
        ch->dev_kind[dev] = (uint8_t)nd->kind;
        ch->dev_port[dev] = nd->port;
    }
    f->dev = dev;
    f->sock = nd->sock_kind >= 0 ? add_sock(s, nd->sock_kind, nd->sock_port) : -1;
    f->kind = (uint8_t)nd->kind;
    return 0;
}

/* ---- judging ---- */

/* The model's side, from csc_analyze over the written bytes */
static void judge_model(const struct csc_result *r, struct lframe *f)
{
    f->mclass = live_model_class(r);
    memset(f->mcnt, 0, sizeof f->mcnt);
    live_model_counts(r->kernel.counters, f->mcnt);
    live_model_counts_finish(f->mcnt);
    snprintf(f->mdrop, sizeof f->mdrop, "%s",
             r->kernel.verdict == CSC_K_DROP ? csc_drop_name(r->kernel.drop_reason) : "");
}

/* Did the frame reach its socket? UDP: the socket read it. TCP: it was
 * counted in and not as an error (a listener answers; nothing is read). */
static int kernel_delivered(const struct lframe *f, const struct live_obs *o)
{
    if (f->l4 == LT_ICMP)            /* taken in (an echo is answered), not counted as an error */
        return f->in6 ? live_obs_get(o, "Icmp6InMsgs") >= 1 && !live_obs_get(o, "Icmp6InErrors")
                      : live_obs_get(o, "IcmpInMsgs") >= 1 && !live_obs_get(o, "IcmpInErrors");
    if (f->sock < 0)
        return 0;
    if (f->l4 == LT_TCP)
        return live_obs_get(o, "TcpInSegs") >= 1 && !live_obs_get(o, "TcpInErrs");
    char name[16];
    snprintf(name, sizeof name, "sock:%d", f->sock);
    return live_obs_get(o, name) > 0;
}

static void judge_kernel(const struct chunk *ch, struct lframe *f, const struct live_obs *o)
{
    if (o->status != LIVE_OK) {
        f->result = o->status == LIVE_SKIPPED ? LR_SKIPPED : LR_ERROR;
        why(f, "%s", o->msg[0] ? o->msg : "no observation");
        return;
    }
    const char *dev = f->kind == LK_PLAIN ? NULL : ch->s.devs[f->dev].ifname;
    size_t at = 0;
    for (int i = 0; i < o->n && at < sizeof f->deltas; i++)
        at += (size_t)snprintf(f->deltas + at, sizeof f->deltas - at, "%s%s=%lld", i ? " " : "", o->v[i].name,
                               (long long)o->v[i].delta);
    if (dev) {
        char name[LIVE_NAME_LEN];
        snprintf(name, sizeof name, "dev:%s:rx_packets", dev);
        f->at_dev = live_obs_get(o, name);
    }
    int delivered = kernel_delivered(f, o);
    f->kclass = live_kernel_class(o, dev, f->sock < 0, f->in6, delivered);
    live_kernel_counts(o, dev, f->kcnt);
    f->result = LR_AGREE;
    f->why[0] = 0;
    if (f->mclass != f->kclass) {
        why(f, "%s: model %s, kernel %s", f->mclass == LIVE_C_DELIVERED || f->kclass == LIVE_C_DELIVERED
                                              ? "delivered"
                                              : "drop layer",
            live_class_name(f->mclass), live_class_name(f->kclass));
        f->result = LR_DISAGREE;
        return;
    }
    int i = live_counts_diff(f->mcnt, f->kcnt);
    if (i >= 0) {
        why(f, "%s: model %lld, kernel %lld", live_count_name((unsigned)i), (long long)f->mcnt[i],
            (long long)f->kcnt[i]);
        f->result = LR_DISAGREE;
    }
}

/* ---- output ---- */

static const char *outcome_word(int cls)
{
    return cls == LIVE_C_DELIVERED ? "accept" : live_class_name(cls);
}

static void print_text(struct live_ctx *c, const struct lframe *f)
{
    struct wbuf *w = c->w;
    if (f->result == LR_AGREE && c->o->quiet)
        return;
    wb_printf(w, "  frame %-5llu ", (unsigned long long)f->no);
    if (f->result == LR_NOT_REPLAYABLE || f->result == LR_SKIPPED || f->result == LR_ERROR) {
        static const char *const what[] = { [LR_NOT_REPLAYABLE] = "not replayable",
                                            [LR_SKIPPED] = "not replayable on this kernel",
                                            [LR_ERROR] = "HARNESS ERROR" };
        wb_printf(w, "%s: %s\n", what[f->result], f->why);
        return;
    }
    char mc[200], kc[200];
    live_counts_text(f->mcnt, mc, sizeof mc);
    live_counts_text(f->kcnt, kc, sizeof kc);
    wb_printf(w, "%-9s %-4s model: %-9s {%s}  kernel: %-9s {%s}  %s%s\n", LK_NAME[f->kind],
              LT_NAME[f->l4], outcome_word(f->mclass), mc, outcome_word(f->kclass), kc,
              f->result == LR_AGREE ? "agree" : "DISAGREE: ", f->result == LR_AGREE ? "" : f->why);
    if (c->o->verbose)
        wb_printf(w, "              the namespace's counters that moved: %s\n", f->deltas[0] ? f->deltas : "none");
}

/* A device statistic the model names too (dev:rx_dropped): its count is
 * already under the model's counter of that name */
static bool dev_stat_named_by_model(unsigned i)
{
    if (i < CSC_C__COUNT)
        return false;
    for (unsigned k = 0; k < CSC_C__COUNT; k++)
        if (!strcmp(csc_counter_name(k), live_count_name(i)))
            return true;
    return false;
}

static void json_side(struct jw *j, int cls, const int64_t *cnt, const char *drop)
{
    JW_WORD(j, "outcome", cls == LIVE_C_DELIVERED ? "accept" : "drop");
    JW_WORD(j, "class", live_class_name(cls));
    if (drop && drop[0])
        JW_STR(j, "drop_reason", drop);
    JW_ARR(j, "counters");
    for (unsigned i = 0; i < LIVE_N_CNT; i++)
        if (cnt[i] && !dev_stat_named_by_model(i)) {
            jw_elem(j);
            jw_obj(j);
            JW_STR(j, "name", live_count_name(i));
            JW_U64(j, "n", (uint64_t)cnt[i]);
            jw_end_obj(j);
        }
    jw_end_arr(j);
}

/* The frame's "live" object: what the kernel did beside the model, or why
 * it was not replayed (docs/json.md) */
static void json_live(struct live_ctx *c, struct jw *j, const struct lframe *f)
{
    static const char *const res[LR__COUNT] = { "agree", "disagree", "not-replayable-here", "not-replayable",
                                                "error" };
    JW_OBJ(j, "live");
    JW_WORD(j, "result", res[f->result]);
    JW_STR(j, "kernel_release", c->release);
    if (f->result == LR_AGREE || f->result == LR_DISAGREE) {
        JW_WORD(j, "receiver", LK_NAME[f->kind]);
        JW_WORD(j, "transport", LT_NAME[f->l4]);
        /* one frame per case: nothing of its flow is in flight beside it,
         * so neither side can merge it (the record's gro_fate is []) */
        JW_WORD(j, "written", "alone");
        JW_OBJ(j, "model");
        json_side(j, f->mclass, f->mcnt, f->mdrop);
        jw_end_obj(j);
        JW_OBJ(j, "kernel");
        json_side(j, f->kclass, f->kcnt, NULL);
        if (f->kind != LK_PLAIN)
            JW_U64(j, "at_device", (uint64_t)f->at_dev);
        jw_end_obj(j);
    }
    if (f->why[0])
        JW_STR(j, "why", f->why);
    if (c->o->verbose && f->deltas[0])
        JW_STR(j, "moved", f->deltas);
    jw_end_obj(j);
}

/* The packet record made at planning time, its "live" object, its close */
static void print_json(struct live_ctx *c, const struct chunk *ch, const struct lframe *f)
{
    if (!f->rec_len)
        return;
    wb_write(c->w, ch->rec->str + f->rec_off, f->rec_len);
    struct jw j = { c->w, false };   /* inside the packet record */
    json_live(c, &j, f);
    c->out.fmt->fate(c->w, &c->out, NULL);   /* "gro_fate":[] and the close */
}

static void account(struct live_ctx *c, const struct chunk *ch, const struct lframe *f)
{
    c->tot[f->kind][f->result]++;
    c->frames++;
    if (f->result == LR_DISAGREE)
        c->disagreements++;
    if (f->result == LR_ERROR)
        c->errors++;
    if (c->json)
        print_json(c, ch, f);
    else
        print_text(c, f);
}

/* ---- running a chunk ---- */

static void chunk_to_job(struct live_ctx *c, struct chunk *ch);
static void chunk_from_vm(struct live_ctx *c, struct chunk *ch);

static void chunk_run(struct live_ctx *c, struct chunk *ch)
{
    if (c->mode == LM_JOB) {
        chunk_to_job(c, ch);
        return;
    }
    if (c->mode == LM_JUDGE) {
        chunk_from_vm(c, ch);
        return;
    }
    static struct live_session ss;
    static struct live_obs o;
    int replayable = 0;
    for (int i = 0; i < ch->n; i++)
        replayable += ch->f[i].dev >= 0;
    int rc = 1;
    int64_t t = now_us();
    if (replayable && !live_stop) {
        rc = live_session_start(&ss, &c->tools, &ch->s, CHUNK_S);
        c->setups++;
    }
    for (int i = 0; i < ch->n; i++) {
        struct lframe *f = &ch->f[i];
        if (f->dev >= 0 && rc == 0 && !live_stop) {
            struct live_batch b = { (int32_t)i, (uint8_t)f->dev, 1, { &f->fr } };
            int64_t tf = now_us();
            live_session_run(&ss, &b, &o, FRAME_MS);
            c->frame_seconds += (double)(now_us() - tf) / 1e6;
            judge_kernel(ch, f, &o);
        } else if (f->dev >= 0) {
            f->result = rc > 0 && !live_stop ? LR_SKIPPED : LR_ERROR;
            why(f, "%s", live_stop ? "stopped by a signal" : ss.msg);
        }
        account(c, ch, f);
    }
    if (replayable && rc == 0)
        live_session_end(&ss);
    c->seconds += (double)(now_us() - t) / 1e6;
    wb_flush(c->w);
    ch->n = 0;
}

/* ---- one file ---- */

/* Appends to a GString: a chunk's records (wbuf's flush hands them on) */
static void gstring_flush(struct wbuf *w)
{
    g_string_append_len(w->ctx, w->p, (gssize)w->len);
    w->len = 0;
}

/* JSON: the frame's packet record, as csumcheck writes it for the capture's
 * bytes under the receiver --live makes (c->run), kept open in ch->rec for
 * the "live" object its replay will add. */
static void record_frame(struct live_ctx *c, struct chunk *ch, struct lframe *f, const struct pcap_pkthdr *h,
                         const uint8_t *data, uint8_t link)
{
    static struct csc_result r;
    static char buf[4096];
    f->rec_len = 0;
    if (!c->json || !c->out.frames || c->mode == LM_JOB)
        return;
    struct csc_frame cf = { data, h->caplen, h->len, link, CSC_DIR_UNKNOWN };
    csc_analyze(&c->run.cfg, &cf, &r);
    struct frame_view v = { f->no, h, &r, stats_account_frame(&c->st, &r, &cf) };
    if (c->out.show && !(v.findings & c->out.show))
        return;                      /* --show */
    struct wbuf w = { buf, 0, sizeof buf, gstring_flush, ch->rec };
    f->rec_off = ch->rec->len;
    if (!c->out.fmt->frame(&w, &c->out, &v))
        return;
    wb_flush(&w);
    f->rec_len = ch->rec->len - f->rec_off;
}

static void plan_frame(struct live_ctx *c, struct chunk *ch, const struct pcap_pkthdr *h, const uint8_t *data,
                       uint8_t link, uint64_t no)
{
    static struct csc_result r;
    struct lframe *f = &ch->f[ch->n];
    memset(f, 0, offsetof(struct lframe, fr));
    f->no = no;
    record_frame(c, ch, f, h, data, link);
    f->dev = f->sock = -1;
    f->result = LR_NOT_REPLAYABLE;
    const char *no_why = link == CSC_LINK_UNKNOWN ? "a link type csumcheck does not decode"
                                                  : make_written(c, h, data, link, f);
    struct need nd;
    if (!no_why) {
        struct csc_frame cf = { f->fr.data, f->fr.len, f->fr.len, CSC_LINK_ETHERNET, CSC_DIR_IN };
        csc_analyze(&c->cfg, &cf, &r);
        no_why = plan_stack(c, &r, f, &nd);
        if (!no_why)
            no_why = set_report(c, &r, f);
        if (!no_why)
            judge_model(&r, f);
    }
    if (no_why) {
        why(f, "%s", no_why);
        ch->n++;
        return;
    }
    if (chunk_take(c, ch, &nd, f) < 0) {
        struct lframe keep = *f;     /* the setup is full: run it, then this frame opens the next */
        char *rec = keep.rec_len ? g_strndup(ch->rec->str + keep.rec_off, keep.rec_len) : NULL;
        chunk_run(c, ch);
        chunk_begin(c, ch);
        if (rec)
            g_string_append_len(ch->rec, rec, (gssize)keep.rec_len), keep.rec_off = 0;
        g_free(rec);
        ch->f[0] = keep;
        f = &ch->f[0];
        chunk_take(c, ch, &nd, f);
    }
    ch->n++;
}

static int live_file(struct live_ctx *c, struct chunk *ch, const char *path)
{
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline(path, err);
    if (!p) {
        if (c->mode != LM_JUDGE)         /* said once under --kernel */
            fprintf(stderr, CLI_NAME ": %s: %s\n", path, err);
        return -1;
    }
    c->file = path;
    bool out = c->mode != LM_JOB;    /* --kernel's first pass writes the job only */
    if (c->json && out)
        out_file_open(&c->out, c->o, &c->run, path);
    uint8_t link = (uint8_t)csc_link_from_linktype((uint32_t)pcap_datalink(p));
    if (!c->json && out)
        wb_printf(c->w, "%s\n", path);
    chunk_begin(c, ch);
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t no = 0;
    int rc;
    while (!live_stop && (rc = pcap_next_ex(p, &h, &data)) == 1) {
        plan_frame(c, ch, h, data, link, ++no);
        if (ch->n >= CHUNK)
            chunk_run(c, ch), chunk_begin(c, ch);
    }
    chunk_run(c, ch);
    pcap_close(p);
    if (c->json && out)
        out_file_close(&c->out);
    return 0;
}

/* ---- --kernel: the same replay inside one of Debian's kernels in a VM ----
 * The VM machinery of the live-kernel differential test (tests/kernel,
 * docs/kernel-diff.md): live/vm/csc-vm boots the kernel under qemu and runs
 * csc-live-agent (live/agent_main.c) on a job (live/job.c) shared over 9p.
 * A first pass over the inputs plans every chunk exactly as on this machine
 * and writes its setup and frames to the job; the VM runs the whole job in
 * one boot; a second pass plans again (the same chunks, the same case ids)
 * and judges each frame from its observation, with the model set to the
 * VM kernel's era. */

/* The VM kernels: what --kernel takes, and csc-vm's name for each */
static const struct vm_kernel {
    const char *suite;               /* csc-vm's name */
    const char *series;              /* as the user says it */
    const char *alias[3];
} VM_KERNELS[] = {
    { "bullseye", "5.10", { "5.10", "bullseye", NULL } },
    { "bookworm", "6.1", { "6.1", "bookworm", NULL } },
    { "trixie", "6.12", { "6.12", "trixie", NULL } },
    { "sid", "7.x", { "7", "7.x", "unstable" } },
};

static const char *vm_kernel_names(void)
{
    return "5.10 (Debian bullseye), 6.1 (bookworm), 6.12 (trixie), 7.x (sid: Debian unstable's kernel of "
           "the day)";
}

static const struct vm_kernel *vm_kernel_of(const char *name)
{
    for (size_t i = 0; i < sizeof VM_KERNELS / sizeof *VM_KERNELS; i++) {
        const struct vm_kernel *k = &VM_KERNELS[i];
        if (!strcmp(name, k->suite))
            return k;
        for (size_t a = 0; a < 3 && k->alias[a]; a++)
            if (!strcmp(name, k->alias[a]))
                return k;
    }
    return NULL;
}

/* One observation as the VM sent it, kept until the second pass: only the
 * counters that moved (a struct live_obs is ~6 KB, most of it empty) */
struct vm_obs {
    int32_t status;
    int n;
    char *msg;
    struct { char name[LIVE_NAME_LEN]; int64_t delta; } v[];
};

static void vm_obs_keep(void *ctx, const struct live_obs *o)
{
    struct live_ctx *c = ctx;
    if (o->id < 0 || o->id >= c->seq)
        return;                      /* not a case of this job */
    int n = o->n < LIVE_MAX_VALUES ? o->n : LIVE_MAX_VALUES;
    struct vm_obs *k = g_malloc(sizeof *k + (size_t)n * sizeof k->v[0]);
    k->status = o->status;
    k->n = n;
    k->msg = o->msg[0] ? g_strdup(o->msg) : NULL;
    for (int i = 0; i < n; i++) {
        memcpy(k->v[i].name, o->v[i].name, LIVE_NAME_LEN);
        k->v[i].delta = o->v[i].delta;
    }
    struct vm_obs *old = g_ptr_array_index(c->obs, o->id);
    if (old)
        g_free(old->msg), g_free(old);
    g_ptr_array_index(c->obs, o->id) = k;
}

static void vm_obs_free(void *p)
{
    struct vm_obs *k = p;
    if (k)
        g_free(k->msg), g_free(k);
}

/* case id's observation back as a struct live_obs; NULL: the VM sent none */
static const struct live_obs *vm_obs_get(struct live_ctx *c, int32_t id)
{
    static struct live_obs o;
    const struct vm_obs *k = id < (int32_t)c->obs->len ? g_ptr_array_index(c->obs, id) : NULL;
    if (!k)
        return NULL;
    memset(&o, 0, offsetof(struct live_obs, v));
    o.id = id;
    o.status = k->status;
    o.n = k->n;
    for (int i = 0; i < k->n; i++) {
        memcpy(o.v[i].name, k->v[i].name, LIVE_NAME_LEN);
        o.v[i].delta = k->v[i].delta;
    }
    g_snprintf(o.msg, sizeof o.msg, "%s", k->msg ? k->msg : "");
    return &o;
}

/* First pass: the chunk's setup and its replayable frames, one case each */
static void chunk_to_job(struct live_ctx *c, struct chunk *ch)
{
    bool setup = false;
    for (int i = 0; i < ch->n; i++) {
        struct lframe *f = &ch->f[i];
        if (f->dev < 0)
            continue;
        if (!setup) {
            live_job_setup(c->job, &ch->s);
            c->setups++;
            setup = true;
        }
        struct live_batch b = { c->seq++, (uint8_t)f->dev, 1, { &f->fr } };
        live_job_batch(c->job, &b);
    }
    ch->n = 0;
}

/* Second pass: each frame judged from the VM's observation of its case */
static void chunk_from_vm(struct live_ctx *c, struct chunk *ch)
{
    for (int i = 0; i < ch->n; i++) {
        struct lframe *f = &ch->f[i];
        if (f->dev >= 0) {
            const struct live_obs *o = vm_obs_get(c, c->seq++);
            if (o) {
                judge_kernel(ch, f, o);
            } else {
                f->result = LR_ERROR;
                why(f, "the VM sent no observation of it (the agent stopped before it: see -v)");
            }
        }
        account(c, ch, f);
    }
    wb_flush(c->w);
    ch->n = 0;
}

static const char *vm_path(const char *env, const char *built)
{
    const char *e = getenv(env);
    return e && *e ? e : built;
}

/* A command's standard output and error, line by line: copied to log (and
 * stderr with -v); a "csc-vm: UNAVAILABLE: " line is kept in why, the last
 * other line in last. A signal to csumcheck ends the command (csc-vm takes
 * its VM down). Returns the command's exit status (125: it could not run). */
static int vm_command(const struct live_ctx *c, const char *cmd, FILE *log, char *last, size_t ln, char *why,
                      size_t wn)
{
    int fd[2];
    if (pipe(fd))
        return 125;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return 125;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]), close(fd[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(125);
    }
    close(fd[1]);
    FILE *p = fdopen(fd[0], "r");
    char line[1024];
    while (p && !live_stop && fgets(line, sizeof line, p)) {
        if (log)
            fputs(line, log);
        if (c->o->verbose)
            fputs(line, stderr);
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(line, "csc-vm: UNAVAILABLE: ", 21))
            g_strlcpy(why, line + 21, wn);
        else if (last && line[0])
            g_strlcpy(last, line, ln);
    }
    if (live_stop)
        kill(pid, SIGTERM);
    if (p)
        fclose(p);
    else
        close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 125;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 125;
}

/* Can the VM kernel run here: the runner and agent exist, the kernel is
 * (or can be) cached. Its release goes to c->release. 0; else the exit
 * status (LIVE_EXIT_SKIP: not here, with why; 2: an error). */
static int vm_prepare(struct live_ctx *c, const struct vm_kernel *k, const char *runner, const char *agent,
                      char *why, size_t wn)
{
    if (access(runner, X_OK) || access(agent, X_OK)) {
        g_snprintf(why, (gulong)wn, "--kernel needs the VM runner and csc-live-agent of a csumcheck build (%s, %s: "
                 "not found); set CSC_VM_RUNNER and CSC_LIVE_AGENT to them", runner, agent);
        return LIVE_EXIT_SKIP;
    }
    char cmd[1200], last[200] = "";
    g_snprintf(cmd, sizeof cmd, "'%s' --prepare '%s'", runner, k->suite);
    if (!c->o->quiet)
        fprintf(stderr, CLI_NAME ": --kernel %s: preparing Debian %s's kernel (cached in "
                "${CSC_CACHE:-~/.cache/csumcheck}/vm; the first time it is downloaded from Debian's archive)\n",
                k->series, k->suite);
    why[0] = 0;
    int rc = vm_command(c, cmd, NULL, last, sizeof last, why, wn);
    char suite[32], rel[65];
    if (rc == 0 && sscanf(last, "%31s %64s", suite, rel) == 2) {
        g_snprintf(c->release, sizeof c->release, "%s", rel);
        return 0;
    }
    if (rc == 123) {
        char tmp[400];
        g_snprintf(tmp, sizeof tmp, "%s", why[0] ? why : "the VM runner cannot run it here");
        g_snprintf(why, (gulong)wn, "the VM kernel %s cannot run here: %s (once it can, '%s --prepare %s' fetches and "
                 "caches the kernel; '%s --kernels' lists them)", k->series, tmp, runner, k->suite, runner);
        return LIVE_EXIT_SKIP;
    }
    g_snprintf(why, (gulong)wn, "the VM runner failed to prepare %s (status %d): %s", k->series, rc, last);
    return 2;
}

/* The job in the VM; the observations into c->obs. 0, or the exit status
 * with the reason in why. */
static int vm_run(struct live_ctx *c, const struct vm_kernel *k, const char *runner, const char *agent,
                  const char *dir, char *why, size_t wn)
{
    char env[1024] = "", log[256], res[256], bpf[256], agentp[4096];
    g_snprintf(log, sizeof log, "%s/vm.log", dir);
    g_snprintf(res, sizeof res, "%s/result.txt", dir);
    g_snprintf(bpf, sizeof bpf, "%s/csum_level.bpf.o", dir);
    if (!realpath(agent, agentp)) {
        g_snprintf(why, (gulong)wn, "%s: %s", agent, strerror(errno));
        return 2;
    }
    bool have_bpf = false;
    if (c->tools.bpf_obj) {          /* the BPF object goes over 9p with the job */
        char cp[1200];
        g_snprintf(cp, sizeof cp, "cp '%s' '%s'", c->tools.bpf_obj, bpf);
        have_bpf = system(cp) == 0;
    }
    size_t eo = 0;                   /* a sanitizer build's agent gets this run's options */
    static const char *const pass[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS" };
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        const char *v = getenv(pass[i]);
        if (v && !strchr(v, '\'') && eo < sizeof env)
            eo += (size_t)g_snprintf(env + eo, (gulong)(sizeof env - eo), " '%s=%s'", pass[i], v);
    }
    /* the whole VM: boot, then up to two seconds a frame and fifteen a
     * namespace under TCG (measured: 2.4 s a frame at worst, with a load
     * of 12 on 2 CPUs; 0.1-0.3 s on a quiet machine) */
    unsigned limit = 300 + 2 * (unsigned)c->seq + 15 * (unsigned)c->setups;
    char *cmd = g_strdup_printf("'%s' -s '%s' -f '%s' -T %u '%s' -- env%s '%s' %s%s --timeout %u "
                                "/mnt/host/job.txt /mnt/host/result.txt",
                                runner, dir, agentp, limit, k->suite, env, agentp, have_bpf ? "--bpf " : "",
                                have_bpf ? "/mnt/host/csum_level.bpf.o" : "", CHUNK_S);
    if (!c->o->quiet)
        fprintf(stderr, CLI_NAME ": --kernel %s: %d frames in %llu namespaces, in one VM (qemu; a few "
                "minutes under TCG)\n", k->series, (int)c->seq, (unsigned long long)c->setups);
    FILE *lf = fopen(log, "w");
    why[0] = 0;
    int64_t t = now_us();
    int rc = vm_command(c, cmd, lf, NULL, 0, why, wn);
    g_free(cmd);
    c->vm_seconds = (double)(now_us() - t) / 1e6;
    if (lf)
        fclose(lf);
    if (live_stop)
        return 128 + (int)live_stop;
    if (rc == 123 || rc == 77) {
        char tmp[400];
        g_snprintf(tmp, sizeof tmp, "%s", why[0] ? why : "the agent cannot make namespaces in the guest");
        g_snprintf(why, (gulong)wn, "the VM kernel %s cannot run here: %s", k->series, tmp);
        return LIVE_EXIT_SKIP;
    }
    if (rc != 0 && rc != 1) {        /* 1: some setup failed or was skipped; its cases say why */
        g_snprintf(why, (gulong)wn, "the VM run of %s ended with status %d%s (its console: %s, kept)", k->series, rc,
                 rc == 124 ? " (timeout)" : "", log);
        return 2;
    }
    FILE *r = fopen(res, "r");
    char release[65] = "";
    int n = r ? live_result_read(r, release, sizeof release, vm_obs_keep, c) : -1;
    if (r)
        fclose(r);
    if (n < 0) {
        g_snprintf(why, (gulong)wn, "no readable result from the agent in the VM (its console: %s, kept)", log);
        return 2;
    }
    if (release[0])
        g_snprintf(c->release, sizeof c->release, "%s", release);
    return 0;
}

/* Both passes and the VM between them. 0, or the exit status. */
static int vm_main(struct live_ctx *c, struct chunk *ch, const struct job *jobs, unsigned njobs)
{
    const struct vm_kernel *k = vm_kernel_of(c->o->live_kernel);
    char why[600];
    if (!k) {
        fprintf(stderr, CLI_NAME ": --kernel %s: not a VM kernel; they are %s\n", c->o->live_kernel,
                vm_kernel_names());
        return 2;
    }
    const char *runner = vm_path("CSC_VM_RUNNER", CSC_LIVE_VM_RUNNER);
    const char *agent = vm_path("CSC_LIVE_AGENT", CSC_LIVE_AGENT);
    int rc = vm_prepare(c, k, runner, agent, why, sizeof why);
    if (rc) {
        fprintf(stderr, CLI_NAME ": --live %s: %s\n", rc == LIVE_EXIT_SKIP ? "skipped" : "failed", why);
        return rc;
    }
    c->vm = k->suite;
    c->era = live_era_for_release(c->release);
    csc_era_by_name(c->era, &c->cfg.era);
    c->run.cfg = c->cfg;
    char dir[] = "/tmp/csc-live-vm.XXXXXX";
    const char *tmp = getenv("TMPDIR");
    char dbuf[512];
    g_snprintf(dbuf, sizeof dbuf, "%s/csc-live-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *d = mkdtemp(strlen(dbuf) < sizeof dbuf - 1 ? dbuf : dir);
    char job[600];
    if (!d) {
        perror(CLI_NAME ": mkdtemp");
        return 2;
    }
    g_snprintf(job, sizeof job, "%s/job.txt", d);
    c->job = fopen(job, "w");
    if (!c->job) {
        perror(job);
        return 2;
    }
    live_job_begin(c->job);
    c->mode = LM_JOB;
    for (unsigned i = 0; i < njobs && !live_stop; i++)
        if (!jobs[i].error)
            live_file(c, ch, jobs[i].path);
    int bad = ferror(c->job);
    if (fclose(c->job) != 0 || bad) {
        fprintf(stderr, CLI_NAME ": %s: cannot write the job\n", job);
        return 2;
    }
    c->job = NULL;
    c->obs = g_ptr_array_new_with_free_func(vm_obs_free);
    g_ptr_array_set_size(c->obs, (guint)c->seq);
    rc = c->seq && !live_stop ? vm_run(c, k, runner, agent, d, why, sizeof why) : live_stop ? 128 + live_stop : 0;
    if (rc && rc < 128)
        fprintf(stderr, CLI_NAME ": --live %s: %s\n", rc == LIVE_EXIT_SKIP ? "skipped" : "failed", why);
    bool keep = rc == 2 || getenv("CSC_LIVE_KEEP");
    if (keep) {
        fprintf(stderr, CLI_NAME ": the job, the result and the VM's console are in %s\n", d);
    } else {
        static const char *const files[] = { "job.txt", "result.txt", "vm.log", "csum_level.bpf.o" };
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            char fp[700];
            g_snprintf(fp, sizeof fp, "%s/%s", d, files[i]);
            unlink(fp);
        }
        rmdir(d);
    }
    if (!rc) {
        c->mode = LM_JUDGE;
        c->seq = 0;
    }
    return rc;
}

/* ---- summary ---- */

static void summary_text(struct live_ctx *c)
{
    struct wbuf *w = c->w;
    char rx[48];
    csc_report_format(&c->cfg.rx, rx, sizeof rx);
    if (c->vm)
        wb_printf(w, "\nlive: kernel %s (Debian %s's, in a VM; model era %s), report %s: agreeing / replayed "
                     "frames per receiver\n", c->release, c->vm, c->era, rx);
    else
        wb_printf(w, "\nlive: kernel %s (model era %s), report %s: agreeing / replayed frames per receiver\n",
                  c->release, c->era, rx);
    wb_printf(w, "%-10s %8s %8s %10s %14s %14s %7s\n", "receiver", "agree", "replayed", "disagree",
              "kernel-lacks", "not-replayable", "errors");
    uint64_t t[LR__COUNT] = { 0 };
    for (int k = 0; k < LK__COUNT; k++) {
        const uint64_t *x = c->tot[k];
        for (int r = 0; r < LR__COUNT; r++)
            t[r] += x[r];
        if (k == LK_PLAIN)
            continue;                /* printed last; it also holds the frames not replayed (no receiver) */
        if (x[LR_AGREE] + x[LR_DISAGREE] + x[LR_SKIPPED] + x[LR_ERROR] == 0)
            continue;
        wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14s %7llu\n", LK_NAME[k], (unsigned long long)x[LR_AGREE],
                  (unsigned long long)(x[LR_AGREE] + x[LR_DISAGREE]), (unsigned long long)x[LR_DISAGREE],
                  (unsigned long long)x[LR_SKIPPED], "-", (unsigned long long)x[LR_ERROR]);
    }
    const uint64_t *x = c->tot[LK_PLAIN];
    wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14s %7llu\n", "plain", (unsigned long long)x[LR_AGREE],
              (unsigned long long)(x[LR_AGREE] + x[LR_DISAGREE]), (unsigned long long)x[LR_DISAGREE],
              (unsigned long long)x[LR_SKIPPED], "-", (unsigned long long)x[LR_ERROR]);
    uint64_t rep = t[LR_AGREE] + t[LR_DISAGREE];
    wb_printf(w, "%-10s %8llu %8llu %10llu %14llu %14llu %7llu\n", "all", (unsigned long long)t[LR_AGREE],
              (unsigned long long)rep, (unsigned long long)t[LR_DISAGREE], (unsigned long long)t[LR_SKIPPED],
              (unsigned long long)t[LR_NOT_REPLAYABLE], (unsigned long long)t[LR_ERROR]);
    if (c->vm) {
        wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu, %llu namespaces; the VM ran %.0f s "
                     "(boot included)\n",
                  (unsigned long long)t[LR_AGREE], (unsigned long long)rep,
                  rep ? 100.0 * (double)t[LR_AGREE] / (double)rep : 0.0, (unsigned long long)c->frames,
                  (unsigned long long)c->setups, c->vm_seconds);
        return;
    }
    wb_printf(w, "agreement: %llu/%llu replayed frames (%.1f%%) of %llu, %llu namespaces; %.0f frames/s "
                 "(%.0f counting the namespaces' making)\n",
              (unsigned long long)t[LR_AGREE], (unsigned long long)rep, rep ? 100.0 * (double)t[LR_AGREE] / (double)rep : 0.0,
              (unsigned long long)c->frames, (unsigned long long)c->setups,
              c->frame_seconds > 0 ? (double)rep / c->frame_seconds : 0.0,
              c->seconds > 0 ? (double)rep / c->seconds : 0.0);
}

static void summary_json(struct live_ctx *c)
{
    struct jw j = jw_on(c->w);
    char rx[48];
    csc_report_format(&c->cfg.rx, rx, sizeof rx);
    jw_obj(&j);
    JW_WORD(&j, "type", "live_summary");
    JW_OBJ(&j, "live_summary");
    JW_STR(&j, "kernel", c->release);
    JW_STR(&j, "era", c->era);
    JW_STR(&j, "rx", rx);
    if (c->vm) {
        JW_WORD(&j, "vm", c->vm);
        jw_key(&j, "vm_seconds");
        jw_double(&j, c->vm_seconds);
    }
    JW_ARR(&j, "receivers");
    static const char *const res[LR__COUNT] = { "agree", "disagree", "not_replayable_here", "not_replayable",
                                                "errors" };
    for (int k = 0; k < LK__COUNT; k++) {
        jw_elem(&j);
        jw_obj(&j);
        JW_WORD(&j, "receiver", LK_NAME[k]);
        for (int r = 0; r < LR__COUNT; r++)
            if (r != LR_NOT_REPLAYABLE)
                jw_num(&j, res[r], c->tot[k][r]);
        jw_end_obj(&j);
    }
    jw_end_arr(&j);
    uint64_t nrep = 0;
    for (int k = 0; k < LK__COUNT; k++)
        nrep += c->tot[k][LR_NOT_REPLAYABLE];
    JW_U64(&j, "not_replayable", nrep);
    JW_U64(&j, "frames", c->frames);
    JW_U64(&j, "namespaces", c->setups);
    jw_end_obj(&j);
    jw_end_obj(&j);
    wb_putc(c->w, '\n');
}

/* ---- entry ---- */

static void stdout_flush(struct wbuf *w)
{
    fwrite(w->p, 1, w->len, stdout);
    fflush(stdout);
}

static int live_config(struct live_ctx *c, const struct cli_run *run, char *err, size_t n)
{
    c->cfg = run->cfg;
    const char *no = report_refused(&c->cfg.rx);
    if (no) {
        snprintf(err, n, "--live cannot make %s", no);
        return -1;
    }
    if (c->cfg.remcsum_nopartial) {
        snprintf(err, n, "--live makes no remcsum-nopartial device yet");
        return -1;
    }
    struct utsname u;
    uname(&u);
    snprintf(c->release, sizeof c->release, "%s", u.release);
    c->era = live_era_for_release(u.release);
    csc_era_by_name(c->era, &c->cfg.era);
    c->cfg.gro_nic = false;          /* the TAP has no IFF_NAPI: no GRO before the stack */
    c->cfg.gro_tunnel = true;        /* a tunnel device's gro_cells always run */
    c->cfg.trace_steps = false;
    return 0;
}

int live_main(const struct cli_opts *o, struct cli_run *runs, const struct job *jobs, unsigned njobs,
              unsigned nerrors)
{
    static struct live_ctx c;
    static struct chunk ch;
    static char outbuf[1u << 16];
    char err[240] = "";
    memset(&c, 0, sizeof c);
    c.o = o;
    c.json = o->format == &out_json;
    if (o->nruns > 1 || runs[0].rewrite) {
        fprintf(stderr, CLI_NAME ": --live replays the capture as it is: no --compare, no --rewrite\n");
        return 2;
    }
    if (live_config(&c, &runs[0], err, sizeof err)) {
        fprintf(stderr, CLI_NAME ": %s\n", err);
        return 2;
    }
    c.run = runs[0];
    c.run.cfg = c.cfg;
    if (!ch.rec)
        ch.rec = g_string_sized_new(1u << 16);
    if (!o->live_kernel && live_preflight_all(&c, err, sizeof err)) {
        fprintf(stderr, CLI_NAME ": --live skipped: %s\n", err);
        return LIVE_EXIT_SKIP;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    struct wbuf w = { outbuf, 0, sizeof outbuf, stdout_flush, NULL };
    c.w = &w;
    if (o->live_kernel) {            /* the frames go to a VM kernel: this machine needs no root */
        c.tools.bpf_obj = bpf_object(c.bpf, sizeof c.bpf);
        int rc = vm_main(&c, &ch, jobs, njobs);
        if (rc) {
            if (c.obs)
                g_ptr_array_free(c.obs, TRUE), c.obs = NULL;
            if (rc > 128)
                fprintf(stderr, CLI_NAME ": --live stopped by signal %d; the VM went down with it\n", rc - 128);
            return rc;
        }
    }
    unsigned failed = nerrors;
    for (unsigned i = 0; i < njobs && !live_stop; i++) {
        if (jobs[i].error) {       /* an input that could not be expanded (issue 17: a job) */
            fprintf(stderr, CLI_NAME ": %s: %s\n", jobs[i].path, jobs[i].error);
            failed++;
        } else if (live_file(&c, &ch, jobs[i].path)) {
            failed++;
        }
    }
    if (c.json)
        summary_json(&c);
    else
        summary_text(&c);
    wb_flush(&w);
    if (c.obs)
        g_ptr_array_free(c.obs, TRUE), c.obs = NULL;
    if (live_stop) {
        fprintf(stderr, CLI_NAME ": --live stopped by signal %d; the namespace went with its process\n",
                (int)live_stop);
        return 128 + (int)live_stop;
    }
    return failed || c.errors ? 2 : c.disagreements ? 1 : 0;
}
