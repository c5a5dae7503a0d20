/*
 * pull.h - a header the packet does not hold: the pskb_may_pull (and
 * __iptunnel_pull_header, pskb_inet_may_pull) that fails on it, in the
 * kernel function that pulls it (pull.c). Internal to core/replay.
 */
#ifndef CSC_REPLAY_PULL_H
#define CSC_REPLAY_PULL_H

#include "replay.h"

/* The decoder stopped on a header shorter than its fixed part with every
 * enclosing length right (malformed: cut on the wire, not by a capture),
 * right after layer `at` or after the L2 header `at` carries. When the
 * kernel function that takes the packet there pulls more than the bytes
 * left, its drop is made (drop reason, counters) and true returned; false:
 * not a short header, or none the model knows the puller of. */
bool pskb_may_pull_fails(struct rp *rp, uint8_t at);

/* gre_rcv (net/ipv4/gre_demux.c): fewer than 12 bytes from the GRE header
 * on over IPv4 (also under FOU) - dropped before anything looks at them.
 * g is the GRE layer; true: dropped. */
bool gre_demux_short(struct rp *rp, uint8_t g);
/* 7.2.13's gre_rcv counts its own drops in the receiving device's rx_dropped (era GRE_RX_DROPPED) */
uint32_t gre_drop_nic(const struct rp *rp);

/* pskb_trim_rcsum_slow (net/core/skbuff.c, v6.12): a CHECKSUM_PARTIAL skb
 * whose checksum field would lie past the new end is not trimmed: -EINVAL.
 * ip_rcv_core then counts IpInDiscards, ip6_rcv_core Ip6InHdrErrors,
 * __udp4_lib_rcv / __udp6_lib_rcv Udp[6]InErrors (short_packet). */
bool pskb_trim_rcsum_fails(const struct rp *rp, uint32_t new_tail);

#endif
