/*
 * protos.h - one row per protocol (core/proto/protos.c): what the decoder,
 * the replay, the GRO engine, the front ends' options and the plugin's
 * preferences know about it. The public part is struct csc_proto_desc
 * (csumcheck.h); the rest is the core's own: the decoder a UDP port or an IP
 * protocol number leads to, the GRO flow-key rule, and the replay's entry
 * points, dispatched the way the kernel dispatches through inet_protos[] /
 * inet_offloads[] and a UDP tunnel socket's encap_rcv / gro_receive.
 * docs/architecture.md, "How to add a tunnel", walks through a new row.
 */
#ifndef CSC_PROTOS_H
#define CSC_PROTOS_H

#include "csumcheck/csumcheck.h"

#include <stdint.h>

struct dec;
struct rp;

/* What identifies a GRO flow in a protocol's header (gro_engine.c): the
 * fields its gro_receive callback compares before two packets may merge. */
enum gro_key {
    GRO_KEY_PROTO = 0,   /* only that the protocol is there */
    GRO_KEY_HEADER,      /* the whole header (memcmp in eth/vxlan/geneve/gue_gro_receive) */
    GRO_KEY_GRE,         /* flags, protocol and with K the word after them (gre_gro_receive) */
    GRO_KEY_IPV4,        /* addresses and protocol; tos, ttl, DF must match to merge */
    GRO_KEY_IPV6,        /* addresses and next header; class, flow label, hop limit */
    GRO_KEY_UDP,         /* ports, and both checksums zero or both not */
    GRO_KEY_TCP,         /* ports; ack, flags, options must match to merge */
};

struct proto_row {
    struct csc_proto_desc pub;
    /* decode: reached as an IP protocol's payload, or on a UDP port */
    void (*decode_ip)(struct dec *d, uint32_t off);
    void (*decode_udp)(struct dec *d, uint32_t off);
    /* the payload at off reads as this protocol's header (a port hint) */
    bool (*looks_like)(struct dec *d, uint32_t off);
    uint8_t gro_key;     /* enum gro_key */
    /* replay: the gro_receive callback (inet_offloads[], or the UDP tunnel
     * socket's), and the receive handler (inet_protos[], or encap_rcv) */
    void (*gro_receive)(struct rp *rp, uint8_t layer);
    void (*rcv)(struct rp *rp, uint8_t layer);
};

extern const struct proto_row csc_protos[CSC_P__COUNT];

static inline const struct proto_row *proto_row(unsigned p)
{
    return &csc_protos[p < CSC_P__COUNT ? p : CSC_P_NONE];
}

/* The row of a decoded layer: the decoder only writes valid protocols, so
 * hot loops over layers skip proto_row's range check. */
static inline const struct proto_row *layer_row(const struct csc_layer *l)
{
    return &csc_protos[l->proto];
}

static inline bool proto_has(unsigned p, uint32_t flags)
{
    return (proto_row(p)->pub.flags & flags) != 0;
}

/* inet_protos[]: the row of the protocol an IP protocol number carries
 * (NULL: not decoded) */
extern const struct proto_row *const csc_inet_protos[256];
/* An IP protocol that carries no packet (OSPF, VRRP, No Next Header...): the
 * decoder ends the stack at it without a stop (decode.c) */
bool csc_ipproto_is_leaf(uint8_t proto);

/* Ports a protocol is often found on without being its own (Linux's VXLAN
 * default 8472): not decoded unless configured, but a payload there that
 * reads as the protocol ends the stack needs-option, naming the port option
 * (dec_udp_payload). */
struct port_hint { uint16_t port; uint8_t proto; };
extern const struct port_hint csc_port_hints[];
extern const unsigned csc_nport_hints;

#endif
