/*
 * recv.c - the iproute2 lines of a kernel tunnel receiver (recv.h). Each
 * device is made the way its kernel code finds it for a received packet:
 *   - VXLAN, VXLAN-GPE, GENEVE: a UDP socket on the port; `external`
 *     (collect_md) takes every VNI, else `id VNI` (GENEVE: with the remote
 *     it is looked up by, geneve_lookup);
 *   - GRE, gretap, ERSPAN, ipip, sit: ip_tunnel_lookup, most specific first:
 *     local and remote, then the key (ip_tunnel_key_match); ip6gre, ip6tnl
 *     alike (ip6gre_tunnel_lookup, ip6_tnl_lookup); ip_tunnel_rcv then
 *     drops a packet whose C bit differs from the device's icsum;
 *   - FOU and GUE: a UDP port that resubmits its payload as the IP protocol
 *     of the port (fou_udp_recv) or of the GUE header (gue_udp_recv) to the
 *     device above;
 *   - L2TPv3: a tunnel (over IP or UDP) and a session, looked up by the
 *     session ID; the session's peer cookie must be the packet's.
 */
#define _GNU_SOURCE
#include "recv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void line(struct live_dev *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct live_dev *d, const char *fmt, ...)
{
    if (d->ncmds >= LIVE_MAX_DEV_CMDS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->cmds[d->ncmds++], LIVE_CMD_LEN, fmt, ap);
    va_end(ap);
}

/* " local A remote B" for the ones given */
static void endpoints(const struct live_recv *r, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    if (r->local[0])
        o += (size_t)snprintf(buf, n, " local %s", r->local);
    if (r->remote[0] && o < n)
        snprintf(buf + o, n - o, " remote %s", r->remote);
}

static void address(const struct live_recv *r, char *buf, size_t n)
{
    if (r->mac[0])
        snprintf(buf, n, " address %s", r->mac);
    else
        buf[0] = 0;
}

const char *live_recv_kind(const struct live_recv *r)
{
    switch (r->tun) {
    case LIVE_TUN_VXLAN: return "vxlan";
    case LIVE_TUN_GPE: return "vxlan-gpe";
    case LIVE_TUN_GENEVE: return "geneve";
    case LIVE_TUN_GRE: return r->v6 ? "ip6gre" : "gre";
    case LIVE_TUN_GRETAP: return r->v6 ? "ip6gretap" : "gretap";
    case LIVE_TUN_IPIP: return r->v6 ? "ip6tnl" : "ipip";
    case LIVE_TUN_IP6: return r->v6 ? "ip6tnl" : "sit";
    case LIVE_TUN_ERSPAN: return r->v6 ? "ip6erspan" : "erspan";
    case LIVE_TUN_L2TP: return "l2tp";
    default: return "?";
    }
}

const char *live_recv_module(const struct live_recv *r)
{
    switch (r->tun) {
    case LIVE_TUN_VXLAN: case LIVE_TUN_GPE: return "vxlan";
    case LIVE_TUN_GENEVE: return "geneve";
    case LIVE_TUN_GRE: case LIVE_TUN_GRETAP: case LIVE_TUN_ERSPAN: return r->v6 ? "ip6_gre" : "ip_gre";
    case LIVE_TUN_IPIP: return r->v6 ? "ip6_tunnel" : "ipip";
    case LIVE_TUN_IP6: return r->v6 ? "ip6_tunnel" : "sit";
    case LIVE_TUN_L2TP: return "l2tp_eth";
    default: return "?";
    }
}

void live_recv_port_line(const struct live_recv *r, char *buf, size_t n)
{
    const char *fam = r->v6 ? "-6 " : "";
    if (r->encap == LIVE_ENC_GUE)
        snprintf(buf, n, "ip %sfou add port %u gue", fam, r->port);
    else if (r->encap == LIVE_ENC_FOU)
        snprintf(buf, n, "ip %sfou add port %u ipproto %u", fam, r->port, r->fou_proto);
    else if (n)
        buf[0] = 0;
}

/* The device of an IP protocol over this underlay */
static const char *ip_tunnel_type(const struct live_recv *r)
{
    if (r->v6)
        return r->opts & LIVE_RO_LOCALREMOTE
                   ? (r->tun == LIVE_TUN_IPIP ? "ip6tnl mode ipip6 allow-localremote"
                                              : "ip6tnl mode ip6ip6 allow-localremote")
                   : (r->tun == LIVE_TUN_IPIP ? "ip6tnl mode ipip6" : "ip6tnl mode ip6ip6");
    return r->tun == LIVE_TUN_IPIP ? "ipip" : "sit mode ip6ip";
}

static void hex(const uint8_t *p, size_t n, char *buf, size_t bn)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 3 <= bn; i++)
        o += (size_t)snprintf(buf + o, bn - o, "%02x", p[i]);
}

static int l2tp_lines(const struct live_recv *r, const char *ifname, struct live_dev *d)
{
    char ep[120];
    snprintf(ep, sizeof ep, " local %s remote %s", r->local, r->remote);
    if (!r->local[0] || !r->remote[0])
        return -1;                   /* an L2TP tunnel has both ends */
    char udp[48] = "";
    if (r->opts & LIVE_RO_L2TP_UDP)
        snprintf(udp, sizeof udp, " udp_sport %u udp_dport %u", r->port, r->peer_port);
    line(d, "ip l2tp add tunnel tunnel_id %u peer_tunnel_id %u encap %s%s%s", r->key, r->key,
         (r->opts & LIVE_RO_L2TP_UDP) ? "udp" : "ip", ep, udp);
    /* l2tp_recv_common compares the packet's cookie with the peer cookie */
    char cookie[48] = "", h[20] = "";
    if (r->l2tp_cookie_len == 4 || r->l2tp_cookie_len == 8) {
        hex(r->l2tp_cookie, r->l2tp_cookie_len, h, sizeof h);
        snprintf(cookie, sizeof cookie, " peer_cookie %s", h);
    } else if (r->l2tp_cookie_len) {
        return -1;
    }
    line(d, "ip l2tp add session name %s tunnel_id %u session_id %u peer_session_id %u%s l2spec_type %s", ifname,
         r->key, r->key, r->key, cookie, r->l2tp_l2spec ? "default" : "none");
    d->to_host = 1;
    return 0;
}

int live_recv_lines(const struct live_recv *r, const char *ifname, int with_port, struct live_dev *d)
{
    char ep[120], mac[40], port[LIVE_CMD_LEN];
    endpoints(r, ep, sizeof ep);
    address(r, mac, sizeof mac);
    const char *u6z = (r->opts & LIVE_RO_U6Z) ? " udp6zerocsumrx" : "";
    if (with_port && r->encap != LIVE_ENC_NONE) {
        if (r->tun != LIVE_TUN_GRE && r->tun != LIVE_TUN_GRETAP && r->tun != LIVE_TUN_IPIP &&
            r->tun != LIVE_TUN_IP6)
            return -1;               /* FOU/GUE hand on IP protocols only */
        live_recv_port_line(r, port, sizeof port);
        line(d, "%s", port);
    }
    d->to_host = 0;
    switch (r->tun) {
    case LIVE_TUN_VXLAN:
        if ((r->opts & LIVE_RO_EXTERNAL) && !(r->opts & LIVE_RO_NOPARTIAL) && !r->local[0]) {
            line(d, "ip link add %s%s type vxlan external dstport %u nolearning%s%s%s", ifname, mac, r->port,
                 (r->opts & LIVE_RO_REMCSUM) ? " remcsumrx" : "", (r->opts & LIVE_RO_NOREMCSUM) ? " noremcsumrx" : "",
                 u6z);
        } else {                     /* remcsum-nopartial: iproute2 has no word for it */
            char id[24];
            if (r->opts & LIVE_RO_EXTERNAL)
                snprintf(id, sizeof id, "external");
            else
                snprintf(id, sizeof id, "id %u", r->key);
            line(d, "@vxlan %s%s %s dstport %u%s%s nolearning%s%s%s%s", ifname, mac, id, r->port,
                 r->local[0] ? " local " : "", r->local, (r->opts & LIVE_RO_REMCSUM) ? " remcsumrx" : "",
                 (r->opts & LIVE_RO_NOREMCSUM) ? " noremcsumrx" : "",
                 (r->opts & LIVE_RO_NOPARTIAL) ? " remcsum-nopartial" : "", u6z);
        }
        d->to_host = 1;
        break;
    case LIVE_TUN_GPE:
        line(d, "ip link add %s type vxlan gpe external dstport %u%s", ifname, r->port, u6z);
        break;
    case LIVE_TUN_GENEVE: {
        int inherit = (r->opts & LIVE_RO_INHERIT) != 0;
        char id[80];
        if (r->opts & LIVE_RO_EXTERNAL)
            snprintf(id, sizeof id, "external");
        else
            snprintf(id, sizeof id, "id %u remote %s", r->key, r->remote);
        /* innerprotoinherit makes an ARPHRD_NONE device: no address, and a
         * unicast inner Ethernet frame is PACKET_OTHERHOST on it */
        line(d, "ip link add %s%s type geneve %s dstport %u%s%s", ifname, inherit ? "" : mac, id, r->port, u6z,
             inherit ? " innerprotoinherit" : "");
        d->to_host = !inherit;
        break;
    }
    case LIVE_TUN_GRE: case LIVE_TUN_GRETAP: {
        int tap = r->tun == LIVE_TUN_GRETAP;
        char key[24] = "";
        if (r->opts & LIVE_RO_IKEY)
            snprintf(key, sizeof key, " ikey %u", r->key);
        line(d, "ip link add %s%s type %s%s%s%s%s", ifname, tap ? mac : "", r->v6 ? "ip6gre" : "gre", tap ? "tap" : "",
             ep, (r->opts & LIVE_RO_ICSUM) ? " icsum" : "", key);
        d->to_host = tap;
        break;
    }
    case LIVE_TUN_IPIP: case LIVE_TUN_IP6:
        line(d, "ip link add %s type %s%s", ifname, ip_tunnel_type(r), ep);
        break;
    case LIVE_TUN_ERSPAN: {
        char v[96];
        if (r->opts & LIVE_RO_EXTERNAL)    /* collect_md: any version and session, no sequence */
            snprintf(v, sizeof v, " external%s", (r->opts & LIVE_RO_ICSUM) ? " icsum" : "");
        else if (r->erspan_ver == 1)
            snprintf(v, sizeof v, " seq key %u erspan_ver 1 erspan 1", r->key);
        else if (r->erspan_ver == 2)
            snprintf(v, sizeof v, " seq key %u erspan_ver 2 erspan_dir ingress erspan_hwid 1", r->key);
        else
            snprintf(v, sizeof v, "%s erspan_ver 0", (r->opts & LIVE_RO_ICSUM) ? " icsum" : "");
        if (!(r->opts & LIVE_RO_EXTERNAL) && (r->erspan_ver > 2 || (r->erspan_ver && (r->opts & LIVE_RO_ICSUM))))
            return -1;               /* erspan_validate: II and III take seq and key only */
        line(d, "ip link add %s%s type %s%s%s", ifname, mac, r->v6 ? "ip6erspan" : "erspan", ep, v);
        break;
    }
    case LIVE_TUN_L2TP:
        if (l2tp_lines(r, ifname, d))
            return -1;
        break;
    default:
        return -1;
    }
    line(d, "ip link set %s up", ifname);
    return 0;
}

/* The lookup table a tunnel device lives in: ip_tunnel_find and its v6
 * cousins refuse a second device with the same endpoints and key there */
static int tunnel_net(const struct live_recv *r)
{
    switch (r->tun) {
    case LIVE_TUN_GRE: case LIVE_TUN_GRETAP: case LIVE_TUN_ERSPAN: case LIVE_TUN_IPIP:
        return r->tun * 2 + r->v6;
    case LIVE_TUN_IP6:               /* ip6tnl is one table for both payloads */
        return r->v6 ? LIVE_TUN_IPIP * 2 + 1 : LIVE_TUN_IP6 * 2;
    default:
        return -1;
    }
}

static int tunnel_key(const struct live_recv *r)
{
    if (r->tun == LIVE_TUN_ERSPAN)
        return r->erspan_ver ? (int)(r->key & 0x3ff) : -1;
    return (r->opts & LIVE_RO_IKEY) ? (int)(r->key & 0x7fffffff) : -1;
}

int live_recv_coexist(const struct live_recv *a, const struct live_recv *b)
{
    if (!memcmp(a, b, sizeof *a))
        return 0;
    /* a FOU/GUE port: one configuration per port and family */
    if (a->encap && b->encap && a->port == b->port && a->v6 == b->v6 &&
        (a->encap != b->encap || a->fou_proto != b->fou_proto))
        return -1;
    int ua = a->tun <= LIVE_TUN_GENEVE, ub = b->tun <= LIVE_TUN_GENEVE;
    if (ua && ub && a->port == b->port) {
        if (a->tun != b->tun || ((a->opts | b->opts) & LIVE_RO_EXTERNAL))
            return -1;               /* one socket per port: another kind, or a second collect_md device */
        return a->opts == b->opts && (a->key != b->key || strcmp(a->remote, b->remote)) ? 1 : -1;
    }
    if ((ua && b->encap && a->port == b->port) || (ub && a->encap && a->port == b->port))
        return -1;
    int na = tunnel_net(a), nb = tunnel_net(b);
    if (na >= 0 && na == nb && !strcmp(a->local, b->local) && !strcmp(a->remote, b->remote) &&
        tunnel_key(a) == tunnel_key(b) && a->erspan_ver == b->erspan_ver)
        return -1;                   /* the same lookup identity with other flags */
    if (a->tun == LIVE_TUN_L2TP && b->tun == LIVE_TUN_L2TP &&
        (a->key == b->key || ((a->opts & b->opts & LIVE_RO_L2TP_UDP) && a->port == b->port)))
        return -1;                   /* a session ID, a UDP tunnel's port: once each */
    return 1;
}
