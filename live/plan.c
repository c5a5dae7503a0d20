/*
 * plan.c - what one frame needs of a namespace, and the namespace (chunk)
 * that holds the frames of a run (replay.h). A frame is replayed as the
 * receiver of its stack would get it:
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
 *   - a tunnel gets its receiver (receiver.c) on the port the model decoded;
 *   - the innermost transport gets a listening socket on its port (none
 *     with --no-socket).
 * What cannot be replayed is named per frame with the reason.
 */
#define _GNU_SOURCE
#include "replay_int.h"

#include <stdio.h>
#include <string.h>

static int first_ip(const struct csc_result *r, int from)
{
    for (int i = from; i < r->nlayers; i++)
        if (r->layers[i].proto == CSC_P_IPV4 || r->layers[i].proto == CSC_P_IPV6)
            return i;
    return -1;
}

/* The frame as the TAP gets it: one Ethernet header to the TAP, then the
 * captured bytes from the first IP header on. 0 or the reason. */
const char *live_plan_written(const struct csc_config *cfg, const uint8_t *data, uint32_t caplen, uint32_t len,
                              uint8_t link, struct live_fr *f)
{
    static struct csc_result r;
    struct csc_frame cf = { data, caplen, len, link, CSC_DIR_IN };
    if (link == CSC_LINK_UNKNOWN)
        return "a link type csumcheck does not decode";
    if (caplen < len)
        return "the capture cut it short (caplen < length): the kernel would get other bytes";
    csc_decode(cfg, &cf, &r);
    int ip = first_ip(&r, 0);
    if (ip < 0)
        return "no IP header";
    uint32_t l3 = r.layers[ip].off;
    if (caplen - l3 + 14 > LIVE_MAX_FRAME)
        return "longer than a jumbo frame (9216 bytes)";
    static const uint8_t eth[12] = { 0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01 };
    uint8_t *p = f->fr.data;
    memcpy(p, eth, sizeof eth);
    if (link == CSC_LINK_ETHERNET && caplen >= 12)
        memcpy(p + 6, data + 6, 6);           /* keep the sender */
    uint16_t type = r.layers[ip].proto == CSC_P_IPV4 ? 0x0800 : 0x86dd;
    p[12] = (uint8_t)(type >> 8);
    p[13] = (uint8_t)type;
    memcpy(p + 14, data + l3, caplen - l3);
    f->fr.len = (uint16_t)(caplen - l3 + 14);
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
static int tunnel_kind(const struct csc_config *cfg, const struct csc_layer *t)
{
    switch (t->proto) {
    case CSC_P_VXLAN: return LIVE_RK_VXLAN;
    case CSC_P_VXLAN_GPE: return LIVE_RK_GPE;
    case CSC_P_GENEVE: return cfg->geneve_external ? LIVE_RK_GENEVE : -1;
    default: return -1;
    }
}

/* Read the frame's stack: the receiver, the addresses and the socket it
 * needs; NULL, or why it cannot be replayed. */
static const char *plan_stack(const struct csc_config *cfg, const struct csc_result *r, struct live_fr *f,
                              struct live_need *nd)
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
    nd->kind = LIVE_RK_PLAIN;
    if (p == CSC_P_UDP && l4 + 1 < r->nlayers && csc_proto_is_tunnel(r->layers[l4 + 1].proto)) {
        const struct csc_layer *t = &r->layers[l4 + 1];
        nd->kind = tunnel_kind(cfg, t);
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
        f->l4 = LIVE_TP_ICMP;             /* the kernel answers an echo; no socket */
        f->in6 = p == CSC_P_ICMPV6;
        return NULL;
    }
    if (first_ip(r, l4) >= 0)
        return "a tunnel inside a tunnel";
    if (p != CSC_P_UDP && p != CSC_P_TCP)
        return "the innermost transport is not UDP, TCP or ICMP (--live reads only those outcomes)";
    if (l4 + 1 < r->nlayers && csc_proto_is_tunnel(r->layers[l4 + 1].proto))
        return "a tunnel inside a tunnel";
    f->l4 = p == CSC_P_TCP ? LIVE_TP_TCP : LIVE_TP_UDP;
    f->in6 = r->layers[ip].proto == CSC_P_IPV6;
    int tcp = f->l4 == LIVE_TP_TCP;
    uint16_t dport = r->layers[l4].u.ports.dport;
    if (!dport)
        return "destination port 0";
    if (!cfg->inner_socket)
        return NULL;
    nd->sock_kind = tcp ? (f->in6 ? LIVE_TCP6 : LIVE_TCP4) : (f->in6 ? LIVE_UDP6 : LIVE_UDP4);
    nd->sock_port = dport;
    return NULL;
}

/* The virtio-net header of the report (partial:outer/inner: NEEDS_CSUM at
 * the outermost / innermost L4 checksum). NULL or why not. */
static const char *set_report(const struct csc_config *cfg, const struct csc_result *r, struct live_fr *f)
{
    const struct csc_report *rx = &cfg->rx;
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

const char *live_plan_stack(const struct csc_config *cfg, const struct csc_result *r, struct live_fr *f,
                            struct live_need *nd)
{
    const char *no = plan_stack(cfg, r, f, nd);
    return no ? no : set_report(cfg, r, f);
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

void live_chunk_begin(const struct live_replay *lr, struct live_chunk *ch)
{
    struct live_setup *s = &ch->s;
    memset(s, 0, sizeof *s);
    ch->n = 0;
    snprintf(s->name, sizeof s->name, "csumcheck --live %.100s", lr->file);
    s->pin = 1;                      /* one CPU: every queue keeps write order */
    s->level = lr->cfg.rx.kind == CSC_RX_UNNECESSARY ? (int8_t)lr->cfg.rx.level : -1;
    add_line(s, "@sysctl net.ipv4.conf.all.accept_local=1");
    add_line(s, "@sysctl net.ipv4.conf.all.route_localnet=1");   /* 127/8 from the TAP (a loopback capture) */
    add_line(s, "ip addr add 198.18.0.2/32 dev " LIVE_TAP_NAME);
    add_line(s, "ip addr add 198.19.0.2/32 dev lo");
    add_sock(s, LIVE_UDP4, LIVE_SENT_PORT);
    struct live_dev *d = &s->devs[s->ndevs++];
    memset(d, 0, sizeof *d);
    snprintf(d->ifname, sizeof d->ifname, LIVE_TAP_NAME);
    snprintf(d->name, sizeof d->name, LIVE_TAP_NAME " (no tunnel)");
    d->nsent = 1;
    live_receiver_sentinel(LIVE_RK_PLAIN, 0, &d->sent[0]);
    ch->dev_kind[0] = LIVE_RK_PLAIN;
    ch->dev_port[0] = 0;
}

/* Take a frame's needs into the chunk's setup; -1 when the setup is full
 * (nothing was added then). */
int live_chunk_take(const struct live_replay *lr, struct live_chunk *ch, const struct live_need *nd, struct live_fr *f)
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
        (nd->sock_kind >= 0 && sock < 0 && s->nsocks >= LIVE_MAX_SOCKS) || ch->n >= LIVE_CHUNK)
        return -1;
    if (l1[0])
        add_line(s, l1);
    if (l2[0])
        add_line(s, l2);
    if (dev < 0) {
        dev = s->ndevs++;
        live_receiver_dev(&lr->cfg, &s->devs[dev], nd->kind, nd->port);
        ch->dev_kind[dev] = (uint8_t)nd->kind;
        ch->dev_port[dev] = nd->port;
    }
    f->dev = dev;
    f->sock = nd->sock_kind >= 0 ? add_sock(s, nd->sock_kind, nd->sock_port) : -1;
    f->kind = (uint8_t)nd->kind;
    return 0;
}
