/*
 * receiver.c - the receiving devices a namespace gets for the frames of a
 * capture, made from the receiver options the model reads (struct
 * csc_config), and the sentinel frame that proves each one works.
 */
#include "replay_int.h"

#include "pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DEV_MAC "02:00:00:00:00:03"  /* the tunnel devices' address */

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
void live_receiver_sentinel(int kind, uint16_t port, struct live_frame *fr)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV4);
    static const uint8_t s0[4] = { 198, 18, 0, 1 }, d0[4] = { 198, 18, 0, 2 };
    static const uint8_t s1[4] = { 198, 19, 0, 1 }, d1[4] = { 198, 19, 0, 2 };
    memcpy(ip->src, s0, 4);
    memcpy(ip->dst, d0, 4);
    if (kind != LIVE_RK_PLAIN) {
        pb_push(&f, PB_UDP)->dport = port;
        pb_push(&f, kind == LIVE_RK_VXLAN ? PB_VXLAN : kind == LIVE_RK_GPE ? PB_VXLAN_GPE : PB_GENEVE)->vni = 1;
        if (kind != LIVE_RK_GPE)
            pb_push(&f, PB_ETH);
        ip = pb_push(&f, PB_IPV4);
        memcpy(ip->src, s1, 4);
        memcpy(ip->dst, d1, 4);
    }
    pb_push(&f, PB_UDP)->dport = LIVE_SENT_PORT;
    pb_push(&f, PB_PAYLOAD)->len = 16;
    uint8_t buf[256];
    size_t n = pb_build(&f, buf, sizeof buf);
    live_frame_set(fr, buf, n);
}

/* The device lines of a receiver kind on a port */
void live_receiver_dev(const struct csc_config *cfg, struct live_dev *d, int kind, uint16_t port)
{
    static const char *const pfx[LIVE_RK__COUNT] = { "", "vx", "gpe", "gnv" };
    const char *u6z = cfg->udp6_zero_csum_rx ? " udp6zerocsumrx" : "";
    memset(d, 0, sizeof *d);
    snprintf(d->ifname, sizeof d->ifname, "%s%u", pfx[kind], port);
    snprintf(d->name, sizeof d->name, "%s%u (%s port %u)", pfx[kind], port, live_rk_name((unsigned)kind), port);
    switch (kind) {
    case LIVE_RK_VXLAN:
        dev_line(d, "ip link add %s address " DEV_MAC " type vxlan external dstport %u nolearning%s%s%s",
                 d->ifname, port, cfg->remcsum_rx ? " remcsumrx" : "",
                 cfg->remcsum_rx_given && !cfg->remcsum_rx ? " noremcsumrx" : "", u6z);
        break;
    case LIVE_RK_GPE:
        dev_line(d, "ip link add %s type vxlan gpe external dstport %u%s", d->ifname, port, u6z);
        break;
    case LIVE_RK_GENEVE:
        dev_line(d, "ip link add %s address " DEV_MAC " type geneve external dstport %u%s%s", d->ifname, port,
                 u6z, cfg->geneve_inner_proto_inherit ? " innerprotoinherit" : "");
        break;
    }
    dev_line(d, "ip link set %s up", d->ifname);
    d->to_host = kind == LIVE_RK_VXLAN || kind == LIVE_RK_GENEVE;
    d->nsent = 1;
    d->sent_sock[0] = 0;
    live_receiver_sentinel(kind, port, &d->sent[0]);
}

