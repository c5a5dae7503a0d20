/*
 * addr.h - the address classes the receive path branches on (addr.c). The
 * replay's address rules and the direction's loopback rule read only these
 * bits, so a memo entry or a plan checks them (rec.h: a class).
 */
#ifndef CSC_REPLAY_ADDR_H
#define CSC_REPLAY_ADDR_H

#include "../pkt.h"
#include "csumcheck/csumcheck.h"

enum ip_addr_class {
    A_SRC_MCAST = 1u << 0, A_SRC_LBCAST = 1u << 1, A_SRC_ZERO = 1u << 2, A_SRC_LOOPBACK = 1u << 3,
    A_DST_MCAST = 1u << 4, A_DST_ALL_HOSTS = 1u << 5, A_DST_LBCAST = 1u << 6, A_DST_ZERO = 1u << 7,
    A_DST_LOOPBACK = 1u << 8, A_DST_MC_SCOPE01 = 1u << 9,
};

/* The classes of an IPv4 or IPv6 layer's addresses; 0 for plain unicast
 * (or addresses not captured). A class, not a guard, when recorded. */
unsigned ip_addr_classes(const struct pkt *p, const struct csc_layer *l);
/* The same from the addresses at addr_off of an IP header of protocol proto */
unsigned ip_addr_classes_at(const struct pkt *p, unsigned proto, uint32_t addr_off);

#endif
