/*
 * recv.h - the receiving devices of a setup (libcsclive): one description of
 * a kernel tunnel receiver - a VXLAN, VXLAN-GPE or GENEVE device, a GRE,
 * gretap, ERSPAN or IP-in-IP device behind an optional FOU/GUE port, an
 * L2TPv3 session - and the iproute2 lines that make it. Shared by
 * `csumcheck --live` (live/receiver.c fills it from the receiver options the
 * model reads) and the live-kernel differential test and fuzzer
 * (tests/kernel), so every harness makes a receiver the same way.
 */
#ifndef CSC_LIVE_RECV_H
#define CSC_LIVE_RECV_H

#include "live.h"

#include <stddef.h>
#include <stdint.h>

/* The device that takes the packet */
enum live_tun {
    LIVE_TUN_VXLAN = 0,   /* vxlan */
    LIVE_TUN_GPE,         /* vxlan gpe */
    LIVE_TUN_GENEVE,      /* geneve */
    LIVE_TUN_GRE,         /* gre / ip6gre: inner IP */
    LIVE_TUN_GRETAP,      /* gretap / ip6gretap: inner Ethernet */
    LIVE_TUN_IPIP,        /* IPv4 in IP: ipip / ip6tnl mode ipip6 */
    LIVE_TUN_IP6,         /* IPv6 in IP: sit mode ip6ip / ip6tnl mode ip6ip6 */
    LIVE_TUN_ERSPAN,      /* erspan / ip6erspan */
    LIVE_TUN_L2TP,        /* an L2TPv3 tunnel and its Ethernet session (l2tp_eth) */
    LIVE_TUN__COUNT
};

/* A UDP port in front of an IP-protocol device (fou_core.c) */
enum live_encap { LIVE_ENC_NONE = 0, LIVE_ENC_FOU, LIVE_ENC_GUE };

/* Options of the device (or port) */
enum live_recv_opt {
    LIVE_RO_EXTERNAL = 1u << 0,   /* vxlan/gpe/geneve `external` (collect_md); else id KEY */
    LIVE_RO_REMCSUM = 1u << 1,    /* vxlan remcsumrx */
    LIVE_RO_NOREMCSUM = 1u << 2,  /* vxlan noremcsumrx given explicitly */
    LIVE_RO_NOPARTIAL = 1u << 3,  /* vxlan remcsum-nopartial (the @vxlan built-in) */
    LIVE_RO_U6Z = 1u << 4,        /* udp6zerocsumrx (vxlan, gpe, geneve) */
    LIVE_RO_INHERIT = 1u << 5,    /* geneve innerprotoinherit */
    LIVE_RO_ICSUM = 1u << 6,      /* gre/erspan icsum: a GRE checksum required */
    LIVE_RO_IKEY = 1u << 7,       /* gre ikey KEY */
    LIVE_RO_L2TP_UDP = 1u << 8,   /* l2tp encap udp (else ip) */
    LIVE_RO_LOCALREMOTE = 1u << 9,/* ip6tnl allow-localremote */
};

struct live_recv {
    uint8_t tun;                  /* enum live_tun */
    uint8_t v6;                   /* IPv6 underlay */
    uint8_t encap;                /* enum live_encap */
    uint8_t fou_proto;            /* LIVE_ENC_FOU: the port's ipproto (4, 41, 47) */
    uint8_t erspan_ver;           /* 0 (type I), 1 (II), 2 (III) */
    uint8_t l2tp_cookie_len;      /* 0, 4, 8 */
    uint8_t l2tp_l2spec;          /* 0: l2spec_type none, else default (4 bytes) */
    uint8_t l2tp_cookie[8];       /* the peer cookie a packet must carry (l2tp_cookie_len bytes) */
    uint16_t port;                /* VXLAN/GPE/GENEVE dstport, FOU/GUE port, L2TP UDP port */
    uint16_t peer_port;           /* L2TP over UDP: the remote end's port */
    uint32_t opts;                /* enum live_recv_opt */
    uint32_t key;                 /* vxlan/geneve id, gre ikey, erspan session, l2tp session */
    char local[48], remote[48];   /* the underlay's addresses ("": none) */
    char mac[18];                 /* the device's address ("": the kernel's) */
};

/* The lines that make r as device ifname (d->cmds), d->to_host for an
 * Ethernet-carrying device meant to take any inner destination (not ERSPAN:
 * a mirrored frame is for another host). with_port: the FOU/GUE port line
 * too (several devices behind one port: only the first). 0, or -1 when
 * no kernel device makes this combination. */
int live_recv_lines(const struct live_recv *r, const char *ifname, int with_port, struct live_dev *d);
/* The FOU/GUE port line of r ("" without encap) */
void live_recv_port_line(const struct live_recv *r, char *buf, size_t n);
/* Its name as iproute2 calls the device: "vxlan", "ip6gretap", "ip6tnl", ... */
const char *live_recv_kind(const struct live_recv *r);
/* The kernel module that makes it ("ip_gre", "fou", "l2tp_eth", ...) */
const char *live_recv_module(const struct live_recv *r);
/* Two receivers the kernel keeps apart: 0 the same device, 1 both can
 * exist in one namespace, -1 they cannot (ip_tunnel_find: the same
 * endpoints and key with other flags; one collect_md device per kind) */
int live_recv_coexist(const struct live_recv *a, const struct live_recv *b);

#endif
