/*
 * receiver.c - a capture's receiving device in a namespace: its lines (from
 * the struct live_recv plan.c filled from the receiver options the model
 * reads: recv.c), its name, and the sentinel frame that proves it works - a
 * clean frame through it to the sentinels' UDP socket: inner IPv4 from
 * 198.19.0.1 to 198.19.0.2:5999 (socket 0), inner IPv6 from fdcc::1 to
 * fdcc::2:5999 for the devices that carry IPv6, or for the TAP itself from
 * 198.18.0.1 to 198.18.0.2. The outer addresses are the device's endpoints
 * (the capture's), or 198.18.0.1 to 198.18.0.2 for a device that has none.
 */
#include "replay_int.h"

#include "pb.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>

static void set_addr(struct pb_layer *ip, int v6, const char *src, const char *dst)
{
    if (v6) {
        inet_pton(AF_INET6, src, ip->src);
        inet_pton(AF_INET6, dst, ip->dst);
    } else {
        inet_pton(AF_INET, src, ip->src);
        inet_pton(AF_INET, dst, ip->dst);
    }
}

/* The ERSPAN II (8 bytes) / III (12 bytes) header: version, session */
static void push_erspan(struct pb_frame *f, const struct live_recv *rv)
{
    struct pb_layer *e = pb_push(f, PB_RAW);
    memset(e->raw, 0, sizeof e->raw);
    e->raw[0] = (uint8_t)(rv->erspan_ver << 4);
    e->raw[2] = (uint8_t)((rv->key >> 8) & 3);
    e->raw[3] = (uint8_t)rv->key;
    e->len = rv->erspan_ver == 2 ? 12 : 8;
}

/* The L2TPv3 session header: session ID, cookie, L2-specific sublayer
 * (over UDP after the flags/version word) */
static void push_l2tp(struct pb_frame *f, const struct live_recv *rv)
{
    struct pb_layer *l = pb_push(f, PB_RAW);
    memset(l->raw, 0, sizeof l->raw);
    size_t o = 0;
    if (rv->opts & LIVE_RO_L2TP_UDP) {
        l->raw[1] = 3;               /* T=0, version 3 */
        o = 4;
    }
    l->raw[o] = (uint8_t)(rv->key >> 24), l->raw[o + 1] = (uint8_t)(rv->key >> 16);
    l->raw[o + 2] = (uint8_t)(rv->key >> 8), l->raw[o + 3] = (uint8_t)rv->key;
    o += 4;
    memcpy(l->raw + o, rv->l2tp_cookie, rv->l2tp_cookie_len);
    o += rv->l2tp_cookie_len + (rv->l2tp_l2spec ? 4 : 0);
    l->len = (uint16_t)o;
}


int live_receiver_sent6(const struct live_recv *rv)
{
    int udp_socket = rv->tun <= LIVE_TUN_GENEVE && !rv->encap;
    return rv->tun == LIVE_TUN_IP6 || (rv->v6 && !rv->local[0] && (!udp_socket || rv->remote[0]));
}

/* The MAC address text into 6 bytes */
static void mac_bytes(const char *text, uint8_t *b)
{
    unsigned x[6] = { 0 };
    sscanf(text, "%x:%x:%x:%x:%x:%x", &x[0], &x[1], &x[2], &x[3], &x[4], &x[5]);
    for (int i = 0; i < 6; i++)
        b[i] = (uint8_t)x[i];
}

void live_receiver_sentinel(const struct live_recv *rv, int kind, struct live_frame *fr)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    /* The underlay: a UDP socket's device (VXLAN, GPE, GENEVE external)
     * takes both families, IPv4 it is; the others their own family, from
     * their remote to their local end, or the sentinels' addresses */
    int udp_socket = kind != LIVE_RK_PLAIN && rv->tun <= LIVE_TUN_GENEVE && !rv->encap;
    int v6 = kind != LIVE_RK_PLAIN && rv->v6 && (!udp_socket || rv->remote[0]);
    struct pb_layer *ip = pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
    set_addr(ip, v6, "198.18.0.1", "198.18.0.2");
    if (kind != LIVE_RK_PLAIN && (!udp_socket || rv->remote[0]))
        set_addr(ip, v6, rv->remote[0] ? rv->remote : v6 ? "fdcc::1" : "198.18.0.1",
                 rv->local[0] ? rv->local : v6 ? "fdcc::2" : "198.18.0.2");
    int ipv6_proto = -1, inner_eth = -1;
    if (kind != LIVE_RK_PLAIN) {
        if (rv->encap || rv->tun <= LIVE_TUN_GENEVE || (rv->opts & LIVE_RO_L2TP_UDP)) {
            struct pb_layer *u = pb_push(&f, PB_UDP);
            u->dport = rv->port;
            if (rv->tun == LIVE_TUN_L2TP)
                u->sport = rv->peer_port;    /* its socket is connected to the remote end */
        }
        if (rv->encap == LIVE_ENC_GUE)
            pb_push(&f, PB_GUE);
        struct pb_layer *t;
        switch (rv->tun) {
        case LIVE_TUN_VXLAN: case LIVE_TUN_GPE: case LIVE_TUN_GENEVE:
            t = pb_push(&f, rv->tun == LIVE_TUN_VXLAN ? PB_VXLAN : rv->tun == LIVE_TUN_GPE ? PB_VXLAN_GPE : PB_GENEVE);
            t->vni = (rv->opts & LIVE_RO_EXTERNAL) ? 1 : rv->key;
            if (rv->tun == LIVE_TUN_VXLAN || (rv->tun == LIVE_TUN_GENEVE && !(rv->opts & LIVE_RO_INHERIT)))
                pb_push(&f, PB_ETH);
            break;
        case LIVE_TUN_GRE: case LIVE_TUN_GRETAP: case LIVE_TUN_ERSPAN:
            t = pb_push(&f, PB_GRE);
            t->gre_flags = (uint16_t)(((rv->opts & LIVE_RO_ICSUM) ? 0x8000 : 0) |
                                      ((rv->opts & LIVE_RO_IKEY) ? 0x2000 : 0));
            t->key = rv->key;
            if (rv->tun == LIVE_TUN_ERSPAN) {   /* type II, session 1 (a collect_md device takes any) */
                struct live_recv e = *rv;
                e.erspan_ver = 1, e.key = 1;
                t->proto = 0x88be;
                t->gre_flags |= 0x1000;
                t->gre_seq = 1;
                push_erspan(&f, &e);
            }
            if (rv->tun != LIVE_TUN_GRE) {
                inner_eth = f.n;
                pb_push(&f, PB_ETH);
            }
            break;
        case LIVE_TUN_L2TP:
            if (!(rv->opts & LIVE_RO_L2TP_UDP)) {
                if (v6)
                    ipv6_proto = f.n - 1;
                else
                    ip->proto = 115;
            }
            push_l2tp(&f, rv);
            pb_push(&f, PB_ETH);
            break;
        default:                     /* IP in IP: the inner header follows */
            break;
        }
        int in6 = rv->tun == LIVE_TUN_IP6;
        ip = pb_push(&f, in6 ? PB_IPV6 : PB_IPV4);
        set_addr(ip, in6, in6 ? "fdcc::1" : "198.19.0.1", in6 ? "fdcc::2" : "198.19.0.2");
    }
    pb_push(&f, PB_UDP)->dport = LIVE_SENT_PORT;
    pb_push(&f, PB_PAYLOAD)->len = 16;
    uint8_t buf[256];
    size_t n = pb_build(&f, buf, sizeof buf);
    if (ipv6_proto >= 0)
        buf[f.off[ipv6_proto] + 6] = 115;
    if (inner_eth >= 0 && rv->tun == LIVE_TUN_ERSPAN && rv->mac[0])
        mac_bytes(rv->mac, buf + f.off[inner_eth]);   /* no BPF takes another address as its own */
    live_frame_set(fr, buf, n);
}

/* The device's name: its kind and port for the devices one port makes
 * (as before: vx4789, gpe4790, gnv6081), else its kind and index */
static void dev_name(const struct live_recv *rv, int kind, int idx, char *buf, size_t n)
{
    static const char *const pfx[LIVE_RK__COUNT] = { "", "vx", "gpe", "gnv", "gre", "gtap", "g6re", "g6tap",
                                                     "ipip", "sit", "ip6t", "fou", "gue", "erspan", "l2tp" };
    if (kind == LIVE_RK_VXLAN || kind == LIVE_RK_GPE || (kind == LIVE_RK_GENEVE && (rv->opts & LIVE_RO_EXTERNAL)))
        snprintf(buf, n, "%s%u", pfx[kind], rv->port);
    else
        snprintf(buf, n, "%s%d", pfx[kind], idx);
}

int live_receiver_dev(const struct live_recv *rv, int kind, int idx, int with_port, struct live_dev *d)
{
    memset(d, 0, sizeof *d);
    dev_name(rv, kind, idx, d->ifname, sizeof d->ifname);
    if (rv->encap || rv->tun <= LIVE_TUN_GENEVE)
        snprintf(d->name, sizeof d->name, "%s (%s port %u)", d->ifname, live_rk_name((unsigned)kind), rv->port);
    else
        snprintf(d->name, sizeof d->name, "%s (%s)", d->ifname, live_rk_name((unsigned)kind));
    if (live_recv_lines(rv, d->ifname, with_port, d))
        return -1;
    d->nsent = 1;                    /* read on socket 0, or the IPv6 one (the caller's) */
    live_receiver_sentinel(rv, kind, &d->sent[0]);
    return 0;
}

/* The name of the module a refusal of device d means is missing, or NULL
 * when the refusal is of something else (an option this kernel lacks) */
const char *live_receiver_missing(const struct live_recv *rv, const char *refusal)
{
    if (strstr(refusal, "fou add"))
        return strstr(refusal, "Unknown family") || strstr(refusal, "not found") ||
                       strstr(refusal, "No such file")
                   ? (rv->v6 ? "fou6" : "fou")
                   : NULL;
    if (strstr(refusal, "l2tp add"))
        return strstr(refusal, "not found") || strstr(refusal, "Unknown family") ||
                       strstr(refusal, "Protocol not supported") || strstr(refusal, "No such file")
                   ? (rv->opts & LIVE_RO_L2TP_UDP ? "l2tp_eth" : rv->v6 ? "l2tp_ip6" : "l2tp_ip")
                   : NULL;
    return strstr(refusal, "Unknown device type") ? live_recv_module(rv) : NULL;
}
