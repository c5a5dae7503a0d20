/*
 * tlv.h - the verdict of ip6_parse_tlv on an IPv6 layer's hop-by-hop header
 * (tlv.c); the memoised replay keys on it too.
 */
#ifndef CSC_REPLAY_TLV_H
#define CSC_REPLAY_TLV_H

#include "../pkt.h"
#include "csumcheck/csumcheck.h"

enum { TLV_OK = 0, TLV_BAD, TLV_UNKNOWN };
/* sw: the era switches (CSC_ERA_BIT) */
unsigned ip6_hbh_verdict(const struct pkt *p, const struct csc_layer *l, uint64_t sw);

#endif
