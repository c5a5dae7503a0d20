/*
 * tlv.h - the verdict of ip6_parse_tlv on an IPv6 layer's hop-by-hop header
 * (tlv.c); the memoised replay keys on it too.
 */
#ifndef CSC_REPLAY_TLV_H
#define CSC_REPLAY_TLV_H

#include "../pkt.h"
#include "csumcheck/csumcheck.h"

/* TLV_HAO: a destination options header's Home Address option drops */
enum { TLV_OK = 0, TLV_BAD, TLV_UNKNOWN, TLV_HAO };
/* sw: the era switches (CSC_ERA_BIT) */
unsigned ip6_hbh_verdict(const struct pkt *p, const struct csc_layer *l, uint64_t sw);


/* An IPv6 layer's extension headers in chain order (1: the first after the
 * IPv6 header; 0: none): the first destination options header that
 * ip6_parse_tlv refuses (and its verdict), the first routing header, the
 * first fragment header. A fragment's chain ends at its fragment header. */
struct ip6_marks { uint8_t bad_dst, dst_verdict, rh, frag; };
void ip6_chain_marks(const struct pkt *p, const struct csc_layer *l, struct ip6_marks *m);

#endif
