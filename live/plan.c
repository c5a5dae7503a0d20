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

#include <stdarg.h>
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

/* Checks on one IP layer: not a fragment, addresses a namespace can own;
 * its destination (the address to own) and source as text. */
static const char *ip_refused(const struct csc_frame *cf, const struct csc_result *r, int ip, char *addr,
                              size_t an, char *from, size_t fn)
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
    if (from)
        addr_text(src, v6, from, fn);
    return NULL;
}

static const char *refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *refuse(const char *fmt, ...)
{
    static char buf[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

/* The summary row of a receiver */
static int recv_row(const struct live_recv *rv)
{
    if (rv->encap == LIVE_ENC_FOU)
        return LIVE_RK_FOU;
    if (rv->encap == LIVE_ENC_GUE)
        return LIVE_RK_GUE;
    switch (rv->tun) {
    case LIVE_TUN_VXLAN: return LIVE_RK_VXLAN;
    case LIVE_TUN_GPE: return LIVE_RK_GPE;
    case LIVE_TUN_GENEVE: return LIVE_RK_GENEVE;
    case LIVE_TUN_GRE: return rv->v6 ? LIVE_RK_IP6GRE : LIVE_RK_GRE;
    case LIVE_TUN_GRETAP: return rv->v6 ? LIVE_RK_IP6GRETAP : LIVE_RK_GRETAP;
    case LIVE_TUN_IPIP: case LIVE_TUN_IP6:
        return rv->v6 ? LIVE_RK_IP6TNL : rv->tun == LIVE_TUN_IPIP ? LIVE_RK_IPIP : LIVE_RK_SIT;
    case LIVE_TUN_ERSPAN: return LIVE_RK_ERSPAN;
    case LIVE_TUN_L2TP: return LIVE_RK_L2TP;
    default: return LIVE_RK_PLAIN;
    }
}

/* GRE's checksum flag on the device, as the model's configuration says
 * (ip_tunnel_rcv drops a packet whose C bit differs from icsum) */
static int gre_icsum(const struct csc_config *cfg, uint16_t flags)
{
    return cfg->gre_csum == CSC_GRE_CSUM_ON || (cfg->gre_csum == CSC_GRE_CSUM_PACKET && (flags & 0x8000));
}

/* An L2TPv3 session (over IP, or over UDP when the layer before is UDP):
 * its tunnel between the frame's ends, the session ID, the cookie the
 * packet carries as the session's peer cookie, the L2-specific sublayer -
 * the lengths the model decodes with (--l2tp-cookie-len, --l2tp-l2spec-len) */
static const char *l2tp_device(const struct csc_config *cfg, const struct csc_frame *cf, const struct csc_result *r,
                               int at, struct live_recv *rv, int *in)
{
    const struct csc_layer *l = &r->layers[at];
    if (l->u.l2tp.version != 3)
        return "L2TPv2 (PPP): --live makes no receiver for it (pppol2tp needs a PPP daemon)";
    if (!l->u.l2tp.session)
        return "an L2TPv3 control message";
    int udp = at > 0 && r->layers[at - 1].proto == CSC_P_UDP;
    rv->tun = LIVE_TUN_L2TP;
    rv->key = l->u.l2tp.session;
    rv->l2tp_l2spec = l->u.l2tp.l2spec != 0;   /* as the model decoded it (configured, or from the bytes) */
    rv->l2tp_cookie_len = cfg->l2tp_cookie_len;
    uint32_t c = l->off + (udp ? 8u : 4u);
    if (rv->l2tp_cookie_len && (c + rv->l2tp_cookie_len > cf->caplen || rv->l2tp_cookie_len > 8))
        return "its L2TPv3 cookie is not in the capture";
    memcpy(rv->l2tp_cookie, cf->data + c, rv->l2tp_cookie_len);
    if (udp) {
        rv->opts |= LIVE_RO_L2TP_UDP;
        rv->port = r->layers[at - 1].u.ports.dport;
        rv->peer_port = r->layers[at - 1].u.ports.sport;   /* the tunnel's socket is connected */
    }
    *in = at + 1;
    return NULL;
}

/* The device an IP protocol's payload at layer `at` goes to (ipip, sit,
 * ip6tnl, gre, gretap, erspan, l2tp over IP), under the outer IP layer
 * `outer`: rv filled (endpoints too), *in the first layer the device hands
 * on. NULL, or why none. */
static const char *ip_proto_device(const struct csc_config *cfg, const struct csc_frame *cf,
                                   const struct csc_result *r, int at, const struct live_need *nd,
                                   struct live_recv *rv, int *in)
{
    const struct csc_layer *l = &r->layers[at];
    snprintf(rv->local, sizeof rv->local, "%s", nd->outer);
    snprintf(rv->remote, sizeof rv->remote, "%s", nd->outer_src);
    *in = at + 1;
    switch (l->proto) {
    case CSC_P_IPV4: case CSC_P_IPV6:
        rv->tun = l->proto == CSC_P_IPV4 ? LIVE_TUN_IPIP : LIVE_TUN_IP6;
        if (rv->v6)                  /* ip6_tnl_rcv_ctl: a remote may be one of ours too */
            rv->opts |= LIVE_RO_LOCALREMOTE;
        *in = at;
        return NULL;
    case CSC_P_GRE: {
        uint16_t flags = l->u.gre.flags;
        if ((flags & 7) == 1)
            return "GRE version 1 (PPTP): the model does not replay it (the pptp module's receive)";
        if (at + 1 >= r->nlayers)
            return "nothing after the GRE header";
        uint8_t next = r->layers[at + 1].proto;
        if (gre_icsum(cfg, flags))
            rv->opts |= LIVE_RO_ICSUM;
        if (next == CSC_P_ERSPAN) {
            const struct csc_layer *e = &r->layers[at + 1];
            /* one collect_md device takes every version and session, with no
             * sequence check (the model keeps no per-device sequence); its
             * own address is not the mirrored frames' destination */
            (void)e;
            rv->tun = LIVE_TUN_ERSPAN;
            rv->opts |= LIVE_RO_EXTERNAL;
            rv->local[0] = rv->remote[0] = 0;
            snprintf(rv->mac, sizeof rv->mac, "%s", LIVE_DEV_MAC);
            *in = at + 2;
            return NULL;
        }
        if (flags & 0x2000) {
            rv->opts |= LIVE_RO_IKEY;
            rv->key = l->u.gre.key;
        }
        if (next == CSC_P_ETH) {
            rv->tun = LIVE_TUN_GRETAP;
            snprintf(rv->mac, sizeof rv->mac, "%s", LIVE_DEV_MAC);
            return NULL;
        }
        if (next == CSC_P_IPV4 || next == CSC_P_IPV6) {
            rv->tun = LIVE_TUN_GRE;
            return NULL;
        }
        return refuse("GRE carrying %s: the model does not replay what a gre device does with it",
                      csc_proto_name(next));
    }
    case CSC_P_L2TP:
        return l2tp_device(cfg, cf, r, at, rv, in);
    default:
        return refuse("%s in IP: --live makes no receiver for it", csc_proto_name(l->proto));
    }
}
/* The FOU port's payload protocol, as the model's port table says */
static uint8_t fou_proto_of(const struct csc_config *cfg, uint16_t port, uint8_t next)
{
    for (unsigned i = 0; i < cfg->nports; i++)
        if (cfg->ports[i].port == port && cfg->ports[i].proto == CSC_P_FOU && cfg->ports[i].fou_ipproto)
            return cfg->ports[i].fou_ipproto;
    return next == CSC_P_IPV6 ? 41 : next == CSC_P_GRE ? 47 : 4;
}

/* Nothing listens on the port of the UDP layer u (csc_proto_port_unbound:
 * the rule the model's udp_rcv follows) */
static int port_unbound(const struct csc_result *r, int u)
{
    if (u + 1 >= r->nlayers)
        return 0;
    return csc_proto_port_unbound(r->layers[u + 1].proto, u > 0 && r->layers[u - 1].proto == CSC_P_IPV6);
}

/* A UDP tunnel layer after the UDP layer u: its receiver in rv, *in the
 * first layer its device hands on. NULL, or why none; *plain: no kernel
 * receiver, the datagram goes to a socket (or to none) as the model says. */
static const char *udp_tunnel(const struct csc_config *cfg, const struct csc_frame *cf, const struct csc_result *r,
                              int u, const struct live_need *nd, struct live_recv *rv, int *in, int *plain)
{
    const struct csc_layer *t = &r->layers[u + 1];
    uint16_t port = r->layers[u].u.ports.dport;
    uint32_t u6z = cfg->udp6_zero_csum_rx ? LIVE_RO_U6Z : 0;
    *in = u + 2;
    *plain = 0;
    switch (t->proto) {
    case CSC_P_VXLAN:
        rv->tun = LIVE_TUN_VXLAN;
        rv->port = port;
        rv->opts = LIVE_RO_EXTERNAL | u6z | (cfg->remcsum_rx ? LIVE_RO_REMCSUM : 0) |
                   (cfg->remcsum_rx_given && !cfg->remcsum_rx ? LIVE_RO_NOREMCSUM : 0) |
                   (cfg->remcsum_nopartial ? LIVE_RO_NOPARTIAL : 0);
        snprintf(rv->mac, sizeof rv->mac, "%s", LIVE_DEV_MAC);
        return NULL;
    case CSC_P_VXLAN_GPE:
        rv->tun = LIVE_TUN_GPE;
        rv->port = port;
        rv->opts = LIVE_RO_EXTERNAL | u6z;
        return NULL;
    case CSC_P_GENEVE:
        rv->tun = LIVE_TUN_GENEVE;
        rv->port = port;
        rv->opts = u6z | (cfg->geneve_inner_proto_inherit ? LIVE_RO_INHERIT : 0);
        if (cfg->geneve_external) {
            rv->opts |= LIVE_RO_EXTERNAL;
        } else {                     /* a device with a remote: geneve_lookup by (source, VNI) */
            rv->key = t->u.geneve.vni;
            snprintf(rv->remote, sizeof rv->remote, "%s", nd->outer_src);
        }
        snprintf(rv->mac, sizeof rv->mac, "%s", LIVE_DEV_MAC);
        return NULL;
    case CSC_P_FOU: case CSC_P_GUE: {
        if (u + 2 >= r->nlayers)
            return t->proto == CSC_P_FOU ? "nothing after the FOU port" : "nothing after the GUE header";
        uint8_t encap = t->proto == CSC_P_FOU ? LIVE_ENC_FOU : LIVE_ENC_GUE;
        if (cfg->remcsum_nopartial && encap == LIVE_ENC_GUE && (t->notes & CSC_N_RCO))
            return "GUE remote checksum offload with --remcsum-nopartial: iproute2 cannot make such a port";
        const char *no = ip_proto_device(cfg, cf, r, u + 2, nd, rv, in);
        rv->encap = encap;
        rv->port = port;
        if (encap == LIVE_ENC_FOU)
            rv->fou_proto = fou_proto_of(cfg, port, r->layers[u + 2].proto);
        return no;
    }
    case CSC_P_L2TP:
        snprintf(rv->local, sizeof rv->local, "%s", nd->outer);
        snprintf(rv->remote, sizeof rv->remote, "%s", nd->outer_src);
        return l2tp_device(cfg, cf, r, u + 1, rv, in);
    default:
        if ((csc_proto_desc(t->proto)->flags & CSC_PF_UDP_TUNNEL) && !port_unbound(r, u))
            return refuse("a %s tunnel: --live makes no receiver for it", csc_proto_name(t->proto));
        /* no kernel receiver in the model either: a datagram to a socket on
         * the port (GTP-U, Teredo, AYIYA in user space), or to none (GRE-in-UDP
         * without a FOU port) */
        *plain = 1;
        return NULL;
    }
}

static int outer_ip(const struct csc_result *r)
{
    return first_ip(r, 0);
}

/* The transport at layer l4 (innermost IP ip): the socket it needs */
static const char *transport(const struct csc_config *cfg, const struct csc_result *r, int ip, int l4,
                             struct live_fr *f, struct live_need *nd, int nosock)
{
    uint8_t p = r->layers[l4].proto;
    if (p == CSC_P_ICMP || p == CSC_P_ICMPV6) {
        uint8_t type = r->layers[l4].u.icmp.type;
        if (p == CSC_P_ICMP ? type == 3 || type == 4 || type == 5 || type == 11 || type == 12 : type < 128)
            return "an ICMP error: the kernel looks up the socket of the flow it quotes, which the namespace "
                   "lacks (IcmpInErrors)";
        f->l4 = LIVE_TP_ICMP;        /* the kernel answers an echo; no socket */
        f->in6 = p == CSC_P_ICMPV6;
        if (type == (p == CSC_P_ICMP ? 8 : 128))
            snprintf(nd->reply_to, sizeof nd->reply_to, "%s", ip == outer_ip(r) ? nd->outer_src : nd->inner_src);
        return NULL;
    }
    if (p != CSC_P_UDP && p != CSC_P_TCP)
        return "the innermost transport is not UDP, TCP or ICMP (--live reads only those outcomes)";
    f->l4 = p == CSC_P_TCP ? LIVE_TP_TCP : LIVE_TP_UDP;
    f->in6 = r->layers[ip].proto == CSC_P_IPV6;
    int tcp = f->l4 == LIVE_TP_TCP;
    uint16_t dport = r->layers[l4].u.ports.dport;
    if (!dport)
        return "destination port 0";
    if (!cfg->inner_socket || nosock) {
        /* UdpNoPorts: the kernel sends a port unreachable to the source,
         * which must not come back in as the frame's (as an echo reply) */
        if (!tcp)
            snprintf(nd->reply_to, sizeof nd->reply_to, "%s", ip == outer_ip(r) ? nd->outer_src : nd->inner_src);
        return NULL;
    }
    nd->sock_kind = tcp ? (f->in6 ? LIVE_TCP6 : LIVE_TCP4) : (f->in6 ? LIVE_UDP6 : LIVE_UDP4);
    nd->sock_port = dport;
    return NULL;
}

/* Read the frame's stack: the receiver, the addresses and the socket it
 * needs; NULL, or why it cannot be replayed. */
static const char *plan_stack(const struct csc_config *cfg, const struct csc_result *r, struct live_fr *f,
                              struct live_need *nd)
{
    struct csc_frame cf = { f->fr.data, f->fr.len, f->fr.len, CSC_LINK_ETHERNET, CSC_DIR_IN };
    memset(nd, 0, sizeof *nd);
    nd->sock_kind = -1;
    nd->kind = LIVE_RK_PLAIN;
    int outer = first_ip(r, 0);
    const char *no = outer < 0 ? "no IP header"
                               : ip_refused(&cf, r, outer, nd->outer, sizeof nd->outer, nd->outer_src,
                                            sizeof nd->outer_src);
    if (no)
        return no;
    int l4 = outer + 1, ip = outer, in = -1, plain = 0;
    if (l4 >= r->nlayers)
        return "nothing after the IP header";
    uint8_t p = r->layers[l4].proto;
    struct live_recv *rv = &nd->rv;
    rv->v6 = r->layers[outer].proto == CSC_P_IPV6;
    if (p == CSC_P_UDP && l4 + 1 < r->nlayers && csc_proto_is_tunnel(r->layers[l4 + 1].proto))
        no = udp_tunnel(cfg, &cf, r, l4, nd, rv, &in, &plain);
    else if (p == CSC_P_GRE || p == CSC_P_IPV4 || p == CSC_P_IPV6 || p == CSC_P_L2TP)
        no = ip_proto_device(cfg, &cf, r, l4, nd, rv, &in);
    else
        plain = 1;
    if (no)
        return no;
    if (plain)                       /* the TAP's own stack: the transport after the outer IP */
        return transport(cfg, r, outer, l4, f, nd, port_unbound(r, l4));
    nd->has_recv = 1;
    nd->kind = recv_row(rv);
    nd->port = rv->port;
    ip = first_ip(r, in);
    if (ip < 0)
        return "no inner IP header";
    for (int i = in; i < ip; i++)
        if (r->layers[i].proto != CSC_P_ETH)
            return refuse("a %s header inside the tunnel (--live makes no device for it)",
                          csc_proto_name(r->layers[i].proto));
    if ((no = ip_refused(&cf, r, ip, nd->inner, sizeof nd->inner, nd->inner_src, sizeof nd->inner_src)))
        return no;
    l4 = ip + 1;
    if (l4 >= r->nlayers)
        return "nothing after the inner IP header";
    p = r->layers[l4].proto;
    if (p != CSC_P_ICMP && p != CSC_P_ICMPV6 &&
        (first_ip(r, l4) >= 0 || (l4 + 1 < r->nlayers && csc_proto_is_tunnel(r->layers[l4 + 1].proto))))
        return "a tunnel inside a tunnel (--live makes one level of receivers)";
    return transport(cfg, r, ip, l4, f, nd, 0);
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
    if (!no && nd->has_recv) {
        static struct live_dev d;
        d.ncmds = 0;
        if (live_recv_lines(&nd->rv, "t0", 1, &d))
            no = refuse("no %s device takes it (ERSPAN II/III with a GRE checksum, an L2TP tunnel without "
                        "both ends)", live_recv_kind(&nd->rv));
    }
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
    size_t n = strnlen(line, LIVE_CMD_LEN - 1);   /* cut as snprintf would, said to -O3 */
    char *dst = s->cmds[s->ncmds++];
    memcpy(dst, line, n);
    dst[n] = '\0';
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

void live_chunk_begin(const struct live_replay *lr, struct live_chunk *ch, int keep)
{
    struct live_setup *s = &ch->s;
    ch->n = 0;
    if (keep && ch->ns_frames) {     /* the namespace goes on */
        s->extends = 1;
        return;
    }
    memset(s, 0, sizeof *s);
    ch->ns_frames = 0;
    ch->nechos = 0;
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
    memset(&ch->dev_recv[0], 0, sizeof ch->dev_recv[0]);
    live_receiver_sentinel(&ch->dev_recv[0], LIVE_RK_PLAIN, &d->sent[0]);
    ch->dev_kind[0] = LIVE_RK_PLAIN;
}

static void route_line(char *buf, size_t n, const char *addr)
{
    buf[0] = 0;
    if (addr[0] && strncmp(addr, "127.", 4))   /* 127/8 is lo's already */
        snprintf(buf, n, "ip route replace local %s/%d dev lo", addr, strchr(addr, ':') ? 128 : 32);
}

/* Take a frame's needs into the chunk's setup; -1 when the setup is full,
 * or holds a device the frame's cannot live beside (nothing was added then). */
int live_chunk_take(const struct live_replay *lr, struct live_chunk *ch, const struct live_need *nd, struct live_fr *f)
{
    (void)lr;
    struct live_setup *s = &ch->s;
    int dev = nd->has_recv ? -1 : 0, with_port = nd->has_recv && nd->rv.encap;
    for (int i = 1; i < s->ndevs && nd->has_recv && dev < 0; i++) {
        const struct live_recv *o = &ch->dev_recv[i];
        int c = live_recv_coexist(o, &nd->rv);
        if (c < 0)
            return -1;
        if (c == 0)
            dev = i;
        if (o->encap && o->port == nd->rv.port && o->v6 == nd->rv.v6)
            with_port = 0;           /* the port is there, made by an earlier device */
    }
    enum { NL = 6 };
    char l[NL][LIVE_CMD_LEN];
    route_line(l[0], sizeof l[0], nd->outer);
    route_line(l[1], sizeof l[1], nd->inner);
    l[2][0] = l[3][0] = l[4][0] = l[5][0] = 0;
    /* ip6_tnl_rcv_ctl: the local end of an ip6tnl device must be an
     * address; an L2TP tunnel binds its socket to its local end when it is
     * made, before the batch that holds the routes ("ip -4 ..." is not
     * batched: it runs first) */
    int v6 = nd->has_recv && nd->rv.v6, tun = nd->has_recv ? nd->rv.tun : -1;
    if (v6 && (tun == LIVE_TUN_IPIP || tun == LIVE_TUN_IP6 || tun == LIVE_TUN_L2TP))
        snprintf(l[2], sizeof l[2], "ip -6 addr add %s/128 dev lo nodad", nd->outer);
    else if (tun == LIVE_TUN_L2TP && strncmp(nd->outer, "127.", 4))
        snprintf(l[2], sizeof l[2], "ip -4 route replace local %s/32 dev lo", nd->outer);
    if (tun == LIVE_TUN_L2TP) {      /* and connects it to the remote end: a route there, on the TAP */
        snprintf(l[4], sizeof l[4], "ip -%d route replace %s/%d dev " LIVE_TAP_NAME, v6 ? 6 : 4, nd->outer_src,
                 v6 ? 128 : 32);
        snprintf(l[5], sizeof l[5], "ip -%d neigh replace %s lladdr 02:00:00:00:00:01 dev " LIVE_TAP_NAME
                 " nud permanent", v6 ? 6 : 4, nd->outer_src);
    }
    int sent6 = dev < 0 && live_receiver_sent6(&nd->rv);
    if (sent6)
        snprintf(l[3], sizeof l[3], "ip route replace local fdcc::2/128 dev lo");
    int lines = 0;
    for (int i = 0; i < NL; i++)
        lines += l[i][0] && !has_line(s, l[i]);
    /* An echo request's reply goes to its source: when the namespace owns
     * that address, the reply comes back in and its counters would be the
     * frame's. Such a frame and an owner of its source take two namespaces. */
    if (ch->ns_frames > 0) {
        char own[LIVE_CMD_LEN];
        route_line(own, sizeof own, nd->reply_to);
        if (nd->reply_to[0] && own[0] && has_line(s, own))
            return -1;
        for (int i = 0; i < ch->nechos; i++)
            if (!strcmp(ch->echo_src[i], nd->outer) || !strcmp(ch->echo_src[i], nd->inner))
                return -1;
    }
    int sock = nd->sock_kind >= 0 ? find_sock(s, nd->sock_kind, nd->sock_port) : -1;
    int socks = (nd->sock_kind >= 0 && sock < 0) + (sent6 && find_sock(s, LIVE_UDP6, LIVE_SENT_PORT) < 0);
    if (s->ncmds + lines > LIVE_MAX_CMDS || (dev < 0 && s->ndevs >= LIVE_MAX_DEVS) ||
        s->nsocks + socks > LIVE_MAX_SOCKS || ch->n >= LIVE_CHUNK || (nd->reply_to[0] && ch->nechos >= LIVE_NS_ECHOS))
        return -1;
    for (int i = 0; i < NL; i++)
        if (l[i][0])
            add_line(s, l[i]);
    if (dev < 0) {
        dev = s->ndevs++;
        live_receiver_dev(&nd->rv, nd->kind, dev, with_port, &s->devs[dev]);
        if (sent6)
            s->devs[dev].sent_sock[0] = (uint8_t)add_sock(s, LIVE_UDP6, LIVE_SENT_PORT);
        ch->dev_kind[dev] = (uint8_t)nd->kind;
        ch->dev_recv[dev] = nd->rv;
    }
    if (nd->reply_to[0])
        snprintf(ch->echo_src[ch->nechos++], sizeof ch->echo_src[0], "%s", nd->reply_to);
    ch->ns_frames++;
    f->dev = dev;
    f->sock = nd->sock_kind >= 0 ? add_sock(s, nd->sock_kind, nd->sock_port) : -1;
    f->kind = (uint8_t)nd->kind;
    return 0;
}
