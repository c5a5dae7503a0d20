/*
 * kfuzz_mut.c - the mutation catalogue of the differential fuzzer: for each
 * kind, the values the kernel's receive path branches on (RFC 791 options,
 * RFC 8200 extension headers and option action bits, address classes, the
 * flag and version bits of each tunnel header, ...), and how a value is put
 * into the frame: by inserting layers (VLAN tags, IPv6 extension headers),
 * by setting the builder's fields (checksum states, addresses, GRE flags),
 * by a patch over the written header (bits the builder has no name for: the
 * checksums then cover them), or after the build (truncation, padding).
 */
#include "kfuzz.h"

#include <stdio.h>
#include <string.h>

/* ---- names ---- */

static const char *const ROLE_NAMES[RO__COUNT] = { "oeth", "oip", "oudp", "tun", "gre", "ieth", "iip", "l4", "pay" };

const char *kf_role_name(unsigned r)
{
    return r < RO__COUNT ? ROLE_NAMES[r] : "?";
}

static const char *const KIND_NAMES[MK__COUNT] = {
    "csum", "ecn", "dscp", "ttl", "frag", "id", "ihl", "ver", "ipopt", "v6ext", "flow", "iplen", "saddr", "daddr",
    "proto", "dmac", "smac", "vlan", "etype", "udplen", "sport", "dport", "tcpflags", "tcpdoff", "tcpopt", "urg",
    "icmp", "bits", "tproto", "greflags", "gnvopt", "trunc", "pad",
};

const char *kf_mkind_name(unsigned k)
{
    return k < MK__COUNT ? KIND_NAMES[k] : "?";
}

/* How likely each kind is in a draw (out of the applicable ones) */
static const uint8_t WEIGHT[MK__COUNT] = {
    [MK_CSUM] = 14, [MK_ECN] = 8, [MK_DSCP] = 2, [MK_TTL] = 4, [MK_FRAG] = 4, [MK_IPID] = 1, [MK_IHL] = 3,
    [MK_IPVER] = 2, [MK_IPOPT] = 6, [MK_V6EXT] = 8, [MK_FLOW] = 1, [MK_IPLEN] = 4, [MK_SADDR] = 4,
    [MK_DADDR] = 5, [MK_NXT] = 3, [MK_DMAC] = 4, [MK_SMAC] = 1, [MK_VLAN] = 3, [MK_ETYPE] = 1, [MK_UDPLEN] = 4,
    [MK_SPORT] = 1, [MK_DPORT] = 3, [MK_TCPFLAGS] = 4, [MK_TCPDOFF] = 2, [MK_TCPOPT] = 3, [MK_TCPURG] = 1,
    [MK_ICMP] = 5, [MK_TUNBITS] = 10, [MK_TUNPROTO] = 5, [MK_GREFLAGS] = 5, [MK_GNVOPT] = 4, [MK_TRUNC] = 3,
    [MK_PAD] = 2,
};

unsigned kf_mut_weight(unsigned k)
{
    return k < MK__COUNT ? WEIGHT[k] : 0;
}

/* ---- the catalogues ---- */

struct named { const char *name; uint16_t v; };
struct bytes { const char *name; uint8_t len; uint8_t b[24]; };
struct bits { const char *name; uint8_t off, mask, val; };

static const char *const CSUM[] = { "bad", "zero", "garbage", "seed", "seed-nolen" };
static const uint8_t CSUM_PB[] = { PB_BAD, PB_ZERO, PB_GARBAGE, PB_SEED, PB_SEED_NOLEN };
static const char *const ECN[] = { "not-ect", "ect1", "ect0", "ce" };
static const struct named DSCP[] = { { "cs1", 8 }, { "ef", 46 }, { "cs7", 56 }, { "1", 1 } };
static const struct named TTL[] = { { "0", 0 }, { "1", 1 }, { "2", 2 }, { "255", 255 } };
/* IPv4 flags + fragment offset (the builder's default is DF) */
static const struct named FRAG[] = {
    { "no-df", 0 }, { "evil", 0xc000 }, { "evil-no-df", 0x8000 }, { "df+mf", 0x6000 }, { "mf", 0x2000 },
    { "off8", 0x0001 }, { "off8+mf", 0x2001 }, { "off-max", 0x1fff },
};
static const struct named IPID[] = { { "0", 0 }, { "ffff", 0xffff }, { "1234", 0x1234 } };
static const struct named IHL[] = { { "0", 0 }, { "1", 1 }, { "4", 4 }, { "6", 6 }, { "15", 15 } };
static const struct named IPVER[] = { { "0", 0 }, { "5", 5 }, { "7", 7 }, { "15", 15 }, { "other", 0xff } };

/* IPv4 options (RFC 791, 1108, 2113, 7126): each padded to 4 bytes */
static const struct bytes IPOPT[] = {
    { "eol", 4, { 0, 0, 0, 0 } },
    { "nop", 4, { 1, 1, 1, 1 } },
    { "rr", 8, { 7, 7, 4, 0, 0, 0, 0, 0 } },
    { "rr-full", 8, { 7, 7, 8, 10, 0, 0, 99, 0 } },
    { "rr-badptr", 8, { 7, 7, 3, 0, 0, 0, 0, 0 } },
    { "ts", 8, { 68, 8, 5, 0, 0, 0, 0, 0 } },
    { "ts-prespec", 12, { 68, 12, 5, 3, 10, 0, 0, 2, 0, 0, 0, 0 } },
    { "ts-badflag", 8, { 68, 8, 5, 2, 0, 0, 0, 0 } },
    { "ts-overflow", 8, { 68, 8, 9, 0xf0, 0, 0, 0, 1 } },
    { "lsrr", 8, { 131, 7, 4, 10, 0, 0, 99, 1 } },
    { "lsrr-done", 8, { 131, 7, 8, 10, 0, 0, 99, 1 } },
    { "ssrr", 8, { 137, 7, 4, 10, 0, 0, 99, 1 } },
    { "ra", 4, { 148, 4, 0, 0 } },
    { "cipso", 12, { 134, 10, 0, 0, 0, 1, 1, 4, 0, 0, 1, 1 } },
    { "cipso-short", 4, { 134, 3, 0, 1 } },
    { "sec", 12, { 130, 11, 0xab, 0xcd, 0, 0, 0, 0, 0, 0, 0, 1 } },
    { "sid", 4, { 136, 4, 0, 1 } },
    { "unknown", 4, { 0x9e, 4, 0, 0 } },
    { "len0", 4, { 7, 0, 1, 1 } },
    { "len1", 4, { 68, 1, 1, 1 } },
    { "len-overrun", 4, { 7, 40, 4, 0 } },
    { "eol-junk", 4, { 0, 7, 3, 4 } },
};

/* IPv6 extension headers (RFC 8200 4.2 option action bits, RFC 2711, 2675,
 * 6275, 6554, 8754, 9486): byte 0 is the next header (set when inserted) */
#define X_HBH 0
#define X_RH 43
#define X_FRAG 44
#define X_DST 60
#define X_AH 51
struct v6ext { const char *name; uint8_t type, len; uint8_t b[24]; };
static const struct v6ext V6EXT[] = {
    { "hbh-padn", X_HBH, 8, { 0, 0, 1, 4, 0, 0, 0, 0 } },
    { "hbh-pad1", X_HBH, 8, { 0, 0, 0, 0, 0, 0, 0, 0 } },
    { "hbh-ra", X_HBH, 8, { 0, 0, 5, 2, 0, 0, 1, 0 } },
    { "hbh-jumbo", X_HBH, 8, { 0, 0, 0xc2, 4, 0, 1, 0, 0 } },
    { "hbh-unk-skip", X_HBH, 8, { 0, 0, 0x1e, 4, 0, 0, 0, 0 } },
    { "hbh-unk-drop", X_HBH, 8, { 0, 0, 0x5e, 4, 0, 0, 0, 0 } },
    { "hbh-unk-icmp", X_HBH, 8, { 0, 0, 0x9e, 4, 0, 0, 0, 0 } },
    { "hbh-unk-icmp-nomc", X_HBH, 8, { 0, 0, 0xde, 4, 0, 0, 0, 0 } },
    { "hbh-calipso", X_HBH, 8, { 0, 0, 0x07, 4, 0, 0, 0, 0 } },
    { "hbh-ioam", X_HBH, 8, { 0, 0, 0x31, 4, 0, 0, 0, 0 } },
    { "hbh-badlen", X_HBH, 8, { 0, 0, 1, 9, 0, 0, 0, 0 } },
    { "hbh-16", X_HBH, 16, { 0, 1, 1, 12 } },
    { "dst-padn", X_DST, 8, { 0, 0, 1, 4, 0, 0, 0, 0 } },
    { "dst-unk-drop", X_DST, 8, { 0, 0, 0x5e, 4, 0, 0, 0, 0 } },
    { "dst-unk-icmp", X_DST, 8, { 0, 0, 0x9e, 4, 0, 0, 0, 0 } },
    { "dst-hao", X_DST, 24, { 0, 2, 1, 2, 0, 0, 0xc9, 16, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xaa, 0xaa } },
    { "dst-encap-limit", X_DST, 8, { 0, 0, 4, 1, 0, 1, 1, 0 } },
    { "rh0-sl0", X_RH, 24, { 0, 2, 0, 0, 0, 0, 0, 0, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    { "rh0-sl1", X_RH, 24, { 0, 2, 0, 1, 0, 0, 0, 0, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    { "rh2-sl0", X_RH, 24, { 0, 2, 2, 0, 0, 0, 0, 0, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    { "rh2-sl1", X_RH, 24, { 0, 2, 2, 1, 0, 0, 0, 0, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    { "rh3-sl0", X_RH, 8, { 0, 0, 3, 0, 0, 0, 0, 0 } },
    { "rh4-sl0", X_RH, 24, { 0, 2, 4, 0, 0, 0, 0, 0, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    { "rh4-sl1", X_RH, 24, { 0, 2, 4, 1, 0, 0, 0, 0, 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } },
    { "rh253-sl0", X_RH, 8, { 0, 0, 253, 0, 0, 0, 0, 0 } },
    { "rh253-sl1", X_RH, 8, { 0, 0, 253, 1, 0, 0, 0, 0 } },
    { "frag-atomic", X_FRAG, 8, { 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78 } },
    { "frag-first", X_FRAG, 8, { 0, 0, 0, 1, 0x12, 0x34, 0x56, 0x79 } },
    { "frag-last", X_FRAG, 8, { 0, 0, 0, 8, 0x12, 0x34, 0x56, 0x7a } },
    { "ah", X_AH, 24, { 0, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 } },
};

/* Address classes (v4 / v6); dst and src use the same list */
struct addr { const char *name; uint8_t a4[4]; uint8_t a6[16]; };
static const struct addr ADDR[] = {
    { "own-lo", { 10, 0, 9, 9 }, { 0x20, 1, 0x0d, 0xb8, 0, 9, [15] = 9 } },
    { "other", { 198, 51, 100, 7 }, { 0x20, 1, 0x0d, 0xb8, 0, 0xff, [15] = 7 } },
    { "loopback", { 127, 0, 0, 1 }, { [15] = 1 } },
    { "mcast-all", { 224, 0, 0, 1 }, { 0xff, 2, [15] = 1 } },
    { "mcast-group", { 239, 1, 2, 3 }, { 0xff, 0x0e, [14] = 1, [15] = 0x23 } },
    { "bcast", { 255, 255, 255, 255 }, { 0xff, 2, [15] = 2 } },
    { "unspec", { 0, 0, 0, 0 }, { 0 } },
    { "link-local", { 169, 254, 1, 1 }, { 0xfe, 0x80, [15] = 1 } },
    { "class-e", { 240, 0, 0, 1 }, { 0xfe, 0xc0, [15] = 1 } },
    { "zeronet", { 0, 1, 2, 3 }, { [12] = 10, 0, 0, 2 } },
    { "own-other-dev", { 10, 0, 1, 2 }, { 0x20, 1, 0x0d, 0xb8, 0, 0, 0, 1, [15] = 2 } },
    /* last: a destination only (as a source, the namespace's own ICMP error
     * to it loops back as a broadcast and shows in its counters) */
    { "subnet-bcast", { 10, 0, 0, 255 }, { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 } },
};
/* The own-other-dev address of an inner header is the TAP's */
static const uint8_t TAP4[4] = { 10, 0, 0, 2 };
static const uint8_t TAP6[16] = { 0x20, 1, 0x0d, 0xb8, [15] = 2 };

/* Above 0xff: a rule, not a protocol number (a number 0xfd..0xff is itself) */
enum { NXT_OTHER_FAMILY = 0x1ff, NXT_UDP_TCP_SWAP = 0x1fe, NXT_ICMP_OTHER = 0x1fd };
static const struct named NXT[] = {
    { "other-family", NXT_OTHER_FAMILY }, { "none", 59 }, { "hbh", 0 }, { "255", 255 }, { "253", 253 },
    { "udp-tcp-swap", NXT_UDP_TCP_SWAP }, { "sctp", 132 }, { "gre", 47 }, { "icmp", NXT_ICMP_OTHER },
};
static const struct bytes MAC[] = {
    { "bcast", 6, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
    { "mcast4", 6, { 0x01, 0x00, 0x5e, 0, 0, 1 } },
    { "mcast6", 6, { 0x33, 0x33, 0, 0, 0, 1 } },
    { "otherhost", 6, { 0x02, 0, 0, 0, 0, 0x99 } },
    { "zero", 6, { 0 } },
    { "own", 6, { 0x02, 0, 0, 0, 0, 0x02 } },
};
static const struct named VLAN[] = {
    { "prio-tag", 0x0000 }, { "vid1", 0x0001 }, { "vid4095", 0x0fff }, { "pcp7", 0xe000 }, { "qinq", 0x1005 },
    { "two-8100", 0x2005 },
};
static const struct named ETYPE[] = {
    { "other-ip", 0xffff }, { "mpls", 0x8847 }, { "arp", 0x0806 }, { "lldp", 0x88cc }, { "zero", 0 }, { "len", 0x05dc },
};
/* length deltas; 0x7f00 + n: the field set to n */
static const struct named LEN[] = {
    { "-1", (uint16_t)-1 }, { "-2", (uint16_t)-2 }, { "-8", (uint16_t)-8 }, { "+1", 1 }, { "+2", 2 }, { "+8", 8 },
    { "+64", 64 }, { "zero", 0x7f00 }, { "tiny", 0x7f07 },
};
static const struct named SPORT[] = { { "0", 0 }, { "53", 53 }, { "65535", 65535 }, { "1", 1 }, { "4789", 4789 },
                                      { "4790", 4790 }, { "6081", 6081 } };
static const struct named DPORT[] = { { "unbound", 33333 }, { "0", 0 }, { "swap", 0xffff }, { "9", 9 } };
static const struct named TCPFLAGS[] = {
    { "syn", 0x02 }, { "syn-ack", 0x12 }, { "fin-ack", 0x11 }, { "rst", 0x04 }, { "rst-ack", 0x14 },
    { "psh-ack", 0x18 }, { "urg-ack", 0x30 }, { "null", 0x00 }, { "xmas", 0xff }, { "syn-fin", 0x03 },
    { "ece-cwr-ack", 0xd0 }, { "fin", 0x01 }, { "syn-rst", 0x06 },
};
static const struct named TCPDOFF[] = { { "0", 0 }, { "4", 4 }, { "6", 6 }, { "15", 15 }, { "short", 0xff } };
/* TCP options (RFC 9293, 7323, 2018, 2385, 5925, 7413, 8684) */
static const struct bytes TCPOPT[] = {
    { "mss", 4, { 2, 4, 5, 0xb4 } },
    { "ws", 4, { 3, 3, 7, 1 } },
    { "sack-perm", 4, { 4, 2, 1, 1 } },
    { "ts", 12, { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0 } },
    { "sack", 12, { 1, 1, 5, 10, 0, 0, 3, 0xe8, 0, 0, 4, 0 } },
    { "md5", 20, { 19, 18, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 1, 1 } },
    { "ao", 8, { 29, 6, 1, 1, 0, 0, 1, 1 } },
    { "tfo", 4, { 34, 2, 1, 1 } },
    { "mptcp", 4, { 30, 4, 0, 0 } },
    { "unknown", 4, { 99, 4, 0, 0 } },
    { "len0", 4, { 2, 0, 1, 1 } },
    { "len-overrun", 4, { 2, 40, 5, 0xb4 } },
    { "eol-first", 4, { 0, 2, 4, 5 } },
};
static const struct named URG[] = { { "1", 1 }, { "ffff", 0xffff } };
/* type << 8 | code */
static const struct named ICMP4[] = {
    { "echo-reply", 0x0000 }, { "unreach-port", 0x0303 }, { "unreach-frag", 0x0304 }, { "redirect", 0x0501 },
    { "router-adv", 0x0900 }, { "time-exceeded", 0x0b00 }, { "param-prob", 0x0c00 }, { "timestamp", 0x0d00 },
    { "info", 0x0f00 }, { "mask", 0x1100 }, { "unknown-42", 0x2a00 }, { "echo-code255", 0x08ff },
};
static const struct named ICMP6[] = {
    { "echo-reply", 0x8100 }, { "unreach", 0x0104 }, { "too-big", 0x0200 }, { "time-exceeded", 0x0300 },
    { "param-prob", 0x0400 }, { "rs", 0x8500 }, { "ra", 0x8600 }, { "ns", 0x8700 }, { "na", 0x8800 },
    { "redirect", 0x8900 }, { "mld-query", 0x8200 }, { "mld-report", 0x8300 }, { "mldv2-report", 0x8f00 },
    { "unknown-200", 0xc800 }, { "echo-code1", 0x8001 },
};

/* Tunnel header bits: offset, mask, value */
static const struct bits VXLAN_BITS[] = {
    { "no-i", 0, 0x08, 0 }, { "g", 0, 0x80, 0x80 }, { "flag40", 0, 0x40, 0x40 }, { "flag01", 0, 0x01, 0x01 },
    { "rco", 1, 0x20, 0x20 }, { "flag1-80", 1, 0x80, 0x80 }, { "rsv2", 2, 0xff, 0x12 }, { "rsv3", 3, 0xff, 0x34 },
    { "rsv7", 7, 0xff, 0x01 }, { "rco-start-max", 7, 0x7f, 0x7f },
};
static const struct bits GPE_BITS[] = {
    { "no-p", 0, 0x04, 0 }, { "o", 0, 0x01, 0x01 }, { "ver1", 0, 0x30, 0x10 }, { "ver3", 0, 0x30, 0x30 },
    { "no-i", 0, 0x08, 0 }, { "b", 0, 0x02, 0x02 }, { "rsv0", 0, 0xc0, 0x80 }, { "rsv1", 1, 0xff, 0x01 },
    { "rsv7", 7, 0xff, 0x01 },
};
static const struct bits GENEVE_BITS[] = {
    { "ver1", 0, 0xc0, 0x40 }, { "ver3", 0, 0xc0, 0xc0 }, { "optlen1", 0, 0x3f, 1 }, { "optlen63", 0, 0x3f, 63 },
    { "oam", 1, 0x80, 0x80 }, { "crit", 1, 0x40, 0x40 }, { "rsv1", 1, 0x3f, 0x01 }, { "rsv7", 7, 0xff, 0x01 },
};
static const struct bits GRE_BITS[] = {
    { "r", 0, 0x40, 0x40 }, { "ssr", 0, 0x08, 0x08 }, { "recur", 0, 0x07, 0x03 }, { "flags", 1, 0xf8, 0x80 },
    { "ver1", 1, 0x07, 1 }, { "ver2", 1, 0x07, 2 }, { "ver7", 1, 0x07, 7 },
};
static const struct bits GUE_BITS[] = {
    { "ver1", 0, 0xc0, 0x40 }, { "ver2", 0, 0xc0, 0x80 }, { "ver3", 0, 0xc0, 0xc0 }, { "c", 0, 0x20, 0x20 },
    { "hlen1", 0, 0x1f, 1 }, { "hlen31", 0, 0x1f, 31 }, { "priv", 3, 0x01, 0x01 }, { "flag8000", 2, 0x80, 0x80 },
    { "flag4000", 2, 0x40, 0x40 },
};
static const struct bits ERSPAN_BITS[] = {
    { "ver0", 0, 0xf0, 0x00 }, { "ver1", 0, 0xf0, 0x10 }, { "ver2", 0, 0xf0, 0x20 }, { "ver3", 0, 0xf0, 0x30 },
    { "vlan", 1, 0xff, 0x64 }, { "cos", 2, 0xe0, 0xe0 }, { "en", 2, 0x18, 0x18 }, { "t", 2, 0x04, 0x04 },
    { "session", 2, 0x03, 0x01 }, { "o", 11, 0x01, 0x01 },
};
static const struct named GPE_PROTO[] = { { "ipv4", 1 }, { "ipv6", 2 }, { "eth", 3 }, { "nsh", 4 }, { "mpls", 5 },
                                          { "0", 0 }, { "0x80", 0x80 } };
static const struct named ETH_PROTO[] = { { "ipv4", 0x0800 }, { "ipv6", 0x86dd }, { "teb", 0x6558 },
                                          { "mpls", 0x8847 }, { "0", 0 }, { "erspan", 0x88be },
                                          { "erspan3", 0x22eb }, { "nhrp", 0x2001 }, { "ppp", 0x880b },
                                          { "wccp", 0x883e } };
static const struct named GUE_PROTO[] = { { "4", 4 }, { "41", 41 }, { "47", 47 }, { "0", 0 }, { "17", 17 },
                                          { "59", 59 }, { "6", 6 } };
static const char *const GREFLAGS[] = { "toggle-c", "toggle-k", "toggle-s", "cks", "none", "key-other" };
static const char *const GNVOPT[] = { "add", "add-crit", "add-two", "optlen-over", "opt-len-over", "class-exp" };
static const struct named TRUNC[] = { { "1", 1 }, { "2", 2 }, { "4", 4 }, { "8", 8 }, { "20", 20 },
                                      { "in-l4", 0xff01 }, { "in-tunnel", 0xff02 }, { "to-ip", 0xff03 } };
static const struct named PAD[] = { { "1", 1 }, { "2", 2 }, { "4", 4 }, { "16", 16 }, { "64", 64 }, { "ff4", 0x1004 } };

#define N(a) ((unsigned)(sizeof(a) / sizeof *(a)))

/* ---- what a role is in this case ---- */

/* The stack as the case builds it (the generator and the builder agree:
 * both call this) */
static void stack_of(const struct kf_case *c, struct pb_frame *f, int *role)
{
    kf_base_stack(c, 0, f, role);
}

static int kind_at(const struct pb_frame *f, const int *role, unsigned r)
{
    return r < RO__COUNT && role[r] >= 0 ? f->l[role[r]].kind : -1;
}

/* The tunnel header kind a role holds (for TUNBITS / TUNPROTO): the case's
 * tunnel decides, RO_GRE is always GRE */
enum tk { TK_NONE = 0, TK_VXLAN, TK_GPE, TK_GENEVE, TK_GRE, TK_GUE, TK_ERSPAN };
static int tunnel_kind(const struct kf_case *c, const struct pb_frame *f, const int *role, unsigned r)
{
    if (r == RO_GRE)
        return role[RO_GRE] >= 0 ? TK_GRE : TK_NONE;
    if (r != RO_TUN || role[RO_TUN] < 0)
        return TK_NONE;
    const struct pb_layer *l = &f->l[role[RO_TUN]];
    if (l->kind == PB_GRE)
        return TK_GRE;
    switch (c->g.tun) {
    case KT_VXLAN: return TK_VXLAN;
    case KT_GPE: return TK_GPE;
    case KT_GENEVE: return TK_GENEVE;
    case KT_GUE: return l->kind == PB_GUE && l->gue_variant == 1 ? TK_NONE : TK_GUE;
    case KT_ERSPAN: return TK_ERSPAN;
    default: return TK_NONE;
    }
}

static const struct bits *bits_of(int tk, unsigned *n)
{
    switch (tk) {
    case TK_VXLAN: *n = N(VXLAN_BITS); return VXLAN_BITS;
    case TK_GPE: *n = N(GPE_BITS); return GPE_BITS;
    case TK_GENEVE: *n = N(GENEVE_BITS); return GENEVE_BITS;
    case TK_GRE: *n = N(GRE_BITS); return GRE_BITS;
    case TK_GUE: *n = N(GUE_BITS); return GUE_BITS;
    case TK_ERSPAN: *n = N(ERSPAN_BITS); return ERSPAN_BITS;
    default: *n = 0; return NULL;
    }
}

static const struct named *proto_of(int tk, unsigned *n)
{
    switch (tk) {
    case TK_GPE: *n = N(GPE_PROTO); return GPE_PROTO;
    case TK_GENEVE: case TK_GRE: *n = N(ETH_PROTO); return ETH_PROTO;
    case TK_GUE: *n = N(GUE_PROTO); return GUE_PROTO;
    default: *n = 0; return NULL;
    }
}

/* The GRE layer of the stack: the tunnel itself or RO_GRE */
static int gre_layer(const struct pb_frame *f, const int *role)
{
    if (role[RO_GRE] >= 0)
        return role[RO_GRE];
    return role[RO_TUN] >= 0 && f->l[role[RO_TUN]].kind == PB_GRE ? role[RO_TUN] : -1;
}

/* Tunnels a receiver finds by the outer source (a remote) or destination
 * (a local): a frame from anywhere else meets no device at all, which the
 * model cannot know (it is told the device exists) - the outer addresses of
 * these stay the device's. */
static int outer_addr_fixed(const struct kf_case *c)
{
    switch (c->g.tun) {
    case KT_PLAIN: case KT_VXLAN: case KT_GPE: return 0;
    case KT_GENEVE: return !(c->g.opts & KO_EXTERNAL);
    default: return 1;
    }
}

static int is_ip(int k) { return k == PB_IPV4 || k == PB_IPV6; }

/* The fixed cases (kfuzz_cases.c) may also name the last MAC, "own", as a
 * source: the VXLAN and GENEVE loop check (vxlan_set_mac, geneve_rx), which
 * the model decides with the device's MAC the harness gives it
 * (kd_config_of). The generator leaves it out: elsewhere (the TAP, gretap,
 * ERSPAN) nothing checks it, and the seeds' frames stay what they were. */
unsigned kf_mut_nsel_cases(const struct kf_case *c, const struct pb_frame *fp, const int *role, unsigned k,
                           unsigned r)
{
    unsigned n = kf_mut_nsel(c, fp, role, k, r);
    return k == MK_SMAC && n ? (unsigned)N(MAC) : n;
}

unsigned kf_mut_nsel(const struct kf_case *c, const struct pb_frame *fp, const int *role, unsigned k, unsigned r)
{
    int kind = kind_at(fp, role, r);
    unsigned n = 0;
    if (kind < 0)
        return 0;
    switch (k) {
    case MK_CSUM:
        if (r == RO_OIP || r == RO_IIP)
            return kind == PB_IPV4 ? 1 : 0;
        if (r == RO_GRE || (r == RO_TUN && kind == PB_GRE))
            return (fp->l[role[r]].gre_flags & 0x8000) ? 3 : 0;
        if (r == RO_OL4)
            return 3;
        if (r == RO_L4)
            return kind == PB_TCP || kind == PB_UDP ? N(CSUM) : kind == PB_ICMP || kind == PB_ICMPV6 ? 3 : 0;
        return 0;
    case MK_ECN: return is_ip(kind) && r != RO_L4 ? N(ECN) : 0;
    case MK_DSCP: return is_ip(kind) && r != RO_L4 ? N(DSCP) : 0;
    case MK_TTL: return is_ip(kind) && r != RO_L4 ? N(TTL) : 0;
    case MK_FRAG: return kind == PB_IPV4 ? N(FRAG) : 0;
    case MK_IPID: return kind == PB_IPV4 ? N(IPID) : 0;
    case MK_IHL: return kind == PB_IPV4 ? N(IHL) : 0;
    case MK_IPVER: return is_ip(kind) && r != RO_L4 ? N(IPVER) : 0;
    case MK_IPOPT: return kind == PB_IPV4 ? N(IPOPT) : 0;
    case MK_V6EXT: return kind == PB_IPV6 ? N(V6EXT) : 0;
    case MK_FLOW: return kind == PB_IPV6 ? 1 : 0;
    case MK_IPLEN: return is_ip(kind) && r != RO_L4 ? N(LEN) : 0;
    case MK_SADDR: case MK_DADDR:
        if (!is_ip(kind) || r == RO_L4 || (r == RO_OIP && outer_addr_fixed(c)))
            return 0;
        return k == MK_SADDR ? N(ADDR) - 1 : N(ADDR);
    case MK_NXT: return is_ip(kind) && r != RO_L4 ? N(NXT) : 0;
    case MK_DMAC: return kind == PB_ETH ? N(MAC) : 0;
    case MK_SMAC: return kind == PB_ETH ? N(MAC) - 1 : 0;
    case MK_VLAN: return kind == PB_ETH ? N(VLAN) : 0;
    case MK_ETYPE: return kind == PB_ETH ? N(ETYPE) : 0;
    case MK_UDPLEN: return kind == PB_UDP ? N(LEN) : 0;
    case MK_SPORT: return kind == PB_UDP || kind == PB_TCP ? N(SPORT) : 0;
    case MK_DPORT: return kind == PB_UDP || kind == PB_TCP ? N(DPORT) : 0;
    case MK_TCPFLAGS: return kind == PB_TCP ? N(TCPFLAGS) : 0;
    case MK_TCPDOFF: return kind == PB_TCP ? N(TCPDOFF) : 0;
    case MK_TCPOPT: return kind == PB_TCP ? N(TCPOPT) : 0;
    case MK_TCPURG: return kind == PB_TCP ? N(URG) : 0;
    case MK_ICMP: return kind == PB_ICMP ? N(ICMP4) : kind == PB_ICMPV6 ? N(ICMP6) : 0;
    case MK_TUNBITS: bits_of(tunnel_kind(c, fp, role, r), &n); return n;
    case MK_TUNPROTO: proto_of(tunnel_kind(c, fp, role, r), &n); return n;
    case MK_GREFLAGS:
        return r == RO_TUN && role[RO_GRE] < 0 && kind == PB_GRE ? N(GREFLAGS) : r == RO_GRE ? N(GREFLAGS) : 0;
    case MK_GNVOPT: return tunnel_kind(c, fp, role, r) == TK_GENEVE ? N(GNVOPT) : 0;
    case MK_TRUNC: return r == RO_PAY ? N(TRUNC) : 0;
    case MK_PAD: return r == RO_PAY ? N(PAD) : 0;
    default: return 0;
    }
}

/* Whether a mutation keeps a run a run: every segment the same length, one
 * flow, no fragment (a segment of its own may differ in the fields GRO
 * compares: checksums, ECN, TOS, TTL, IDs, DF, TCP flags, tunnel bits) */
int kf_mut_run_ok(unsigned k, unsigned sel, int one_segment)
{
    switch (k) {
    case MK_CSUM: case MK_ECN: case MK_DSCP: case MK_TTL: case MK_IPID: case MK_FLOW: case MK_TCPFLAGS:
    case MK_TCPURG: case MK_TUNBITS:
        return 1;
    case MK_FRAG:
        return sel <= 2;               /* DF and the evil bit; never MF or an offset */
    case MK_IPOPT: case MK_TCPOPT: case MK_VLAN: case MK_DMAC:
        return !one_segment;
    case MK_V6EXT:
        return !one_segment && sel < N(V6EXT) && strcmp(V6EXT[sel].name, "frag-first") &&
               strcmp(V6EXT[sel].name, "frag-last");
    default:
        return 0;
    }
}

/* ---- names of a mutation ---- */

void kf_mut_name(const struct kf_case *c, const struct kf_mut *m, char *buf, size_t n)
{
    static struct pb_frame f;
    int role[RO__COUNT];
    stack_of(c, &f, role);
    int kind = kind_at(&f, role, m->role);
    int v6 = kind == PB_IPV6;
    unsigned s = m->sel, cnt = 0;
    const char *v = "?";
    switch (m->kind) {
    case MK_CSUM: v = m->role == RO_OIP || m->role == RO_IIP ? "bad" : s < N(CSUM) ? CSUM[s] : "?"; break;
    case MK_ECN: v = s < N(ECN) ? ECN[s] : "?"; break;
    case MK_DSCP: v = s < N(DSCP) ? DSCP[s].name : "?"; break;
    case MK_TTL: v = s < N(TTL) ? TTL[s].name : "?"; break;
    case MK_FRAG: v = s < N(FRAG) ? FRAG[s].name : "?"; break;
    case MK_IPID: v = s < N(IPID) ? IPID[s].name : "?"; break;
    case MK_IHL: v = s < N(IHL) ? IHL[s].name : "?"; break;
    case MK_IPVER: v = s < N(IPVER) ? IPVER[s].name : "?"; break;
    case MK_IPOPT: v = s < N(IPOPT) ? IPOPT[s].name : "?"; break;
    case MK_V6EXT: v = s < N(V6EXT) ? V6EXT[s].name : "?"; break;
    case MK_FLOW: v = "fffff"; break;
    case MK_IPLEN: case MK_UDPLEN: v = s < N(LEN) ? LEN[s].name : "?"; break;
    case MK_SADDR: case MK_DADDR: v = s < N(ADDR) ? ADDR[s].name : "?"; break;
    case MK_NXT: v = s < N(NXT) ? NXT[s].name : "?"; break;
    case MK_DMAC: case MK_SMAC: v = s < N(MAC) ? MAC[s].name : "?"; break;
    case MK_VLAN: v = s < N(VLAN) ? VLAN[s].name : "?"; break;
    case MK_ETYPE: v = s < N(ETYPE) ? ETYPE[s].name : "?"; break;
    case MK_SPORT: v = s < N(SPORT) ? SPORT[s].name : "?"; break;
    case MK_DPORT: v = s < N(DPORT) ? DPORT[s].name : "?"; break;
    case MK_TCPFLAGS: v = s < N(TCPFLAGS) ? TCPFLAGS[s].name : "?"; break;
    case MK_TCPDOFF: v = s < N(TCPDOFF) ? TCPDOFF[s].name : "?"; break;
    case MK_TCPOPT: v = s < N(TCPOPT) ? TCPOPT[s].name : "?"; break;
    case MK_TCPURG: v = s < N(URG) ? URG[s].name : "?"; break;
    case MK_ICMP:
        if (kind == PB_ICMPV6)
            v = s < N(ICMP6) ? ICMP6[s].name : "?";
        else
            v = s < N(ICMP4) ? ICMP4[s].name : "?";
        break;
    case MK_TUNBITS: {
        const struct bits *b = bits_of(tunnel_kind(c, &f, role, m->role), &cnt);
        v = b && s < cnt ? b[s].name : "?";
        break;
    }
    case MK_TUNPROTO: {
        const struct named *p = proto_of(tunnel_kind(c, &f, role, m->role), &cnt);
        v = p && s < cnt ? p[s].name : "?";
        break;
    }
    case MK_GREFLAGS: v = s < N(GREFLAGS) ? GREFLAGS[s] : "?"; break;
    case MK_GNVOPT: v = s < N(GNVOPT) ? GNVOPT[s] : "?"; break;
    case MK_TRUNC: v = s < N(TRUNC) ? TRUNC[s].name : "?"; break;
    case MK_PAD: v = s < N(PAD) ? PAD[s].name : "?"; break;
    default: break;
    }
    (void)v6;
    char rep[8] = "";
    if (m->rep > 1)
        snprintf(rep, sizeof rep, "*%u", m->rep);
    if (m->seg)
        snprintf(buf, n, "s%u:%s.%s=%s%s", m->seg, kf_role_name(m->role), kf_mkind_name(m->kind), v, rep);
    else
        snprintf(buf, n, "%s.%s=%s%s", kf_role_name(m->role), kf_mkind_name(m->kind), v, rep);
}

/* ---- applying ---- */

/* Insert a layer at position at, the later ones (and the roles) moving up */
static struct pb_layer *insert_layer(struct pb_frame *f, int at, int *role, enum pb_kind kind)
{
    if (f->n >= PB_MAX_LAYERS || at < 0 || at > f->n)
        return NULL;
    memmove(&f->l[at + 1], &f->l[at], sizeof f->l[0] * (size_t)(f->n - at));
    f->n++;
    for (int r = 0; r < RO__COUNT; r++)
        if (role[r] >= at)
            role[r]++;
    struct pb_layer *l = &f->l[at];
    memset(l, 0, sizeof *l);
    l->kind = (uint8_t)kind;
    return l;
}

/* The extension headers already inserted after IPv6 layer ip */
static int ext_count(const struct pb_frame *f, int ip)
{
    int n = 0;
    while (ip + 1 + n < f->n && f->l[ip + 1 + n].kind == PB_RAW && f->l[ip + 1 + n].ip_id == 0xe6e6)
        n++;
    return n;
}

static void insert_v6ext(struct pb_frame *f, int *role, unsigned r, const struct v6ext *x)
{
    int ip = role[r];
    int k = ext_count(f, ip);
    int at = ip + 1 + k;
    uint8_t next = k ? f->l[at - 1].raw[0] : f->l[ip].proto ? (uint8_t)f->l[ip].proto : pb_ipproto(f, ip + 1);
    struct pb_layer *l = insert_layer(f, at, role, PB_RAW);
    if (!l)
        return;
    memcpy(l->raw, x->b, x->len);
    l->len = x->len;
    l->raw[0] = next;
    l->ip_id = 0xe6e6;                 /* marks an inserted extension header */
    if (k)
        f->l[at - 1].raw[0] = x->type;
    else
        f->l[ip].proto = (uint16_t)(0x100 | x->type);   /* 0x100: hop-by-hop (0) too */
}

/* One VLAN tag (two for QinQ) right after the Ethernet header of role r */
static void insert_vlan(struct pb_frame *f, int *role, unsigned r, uint16_t v)
{
    int at = role[r] + 1;
    if ((v >> 12) == 1 || (v >> 12) == 2) {           /* two tags */
        struct pb_layer *o = insert_layer(f, at, role, (v >> 12) == 1 ? PB_QINQ : PB_VLAN);
        struct pb_layer *i = o ? insert_layer(f, at + 1, role, PB_VLAN) : NULL;
        if (o && i) {
            o->vlan = 7;
            i->vlan = (uint16_t)(v & 0xfff);
        }
    } else {
        struct pb_layer *t = insert_layer(f, at, role, PB_VLAN);
        if (t)
            t->vlan = v;
    }
}

/* Applied by the builder with the role table (inserting layers needs it) */
void kf_mut_insert_roles(const struct kf_case *c, const struct kf_mut *m, struct pb_frame *f, int *role)
{
    (void)c;
    if (m->role >= RO__COUNT || role[m->role] < 0)
        return;
    if (m->kind == MK_V6EXT && m->sel < N(V6EXT) && f->l[role[m->role]].kind == PB_IPV6) {
        insert_v6ext(f, role, m->role, &V6EXT[m->sel]);
    } else if (m->kind == MK_VLAN && m->sel < N(VLAN) && f->l[role[m->role]].kind == PB_ETH) {
        for (unsigned k = 1; k < m->rep; k++)      /* a listed case's stack of tags */
            insert_vlan(f, role, m->role, VLAN[m->sel].v);
        insert_vlan(f, role, m->role, VLAN[m->sel].v);
    }
}

static void patch_bits(struct pb_frame *f, int layer, unsigned off, uint8_t mask, uint8_t val)
{
    struct pb_patch *p = pb_patch_add(f, layer, PB_PATCH_SET, off, 1);
    if (p) {
        p->mask[0] = mask;
        p->val[0] = val;
    }
}

static void patch_bytes(struct pb_frame *f, int layer, unsigned off, const uint8_t *b, unsigned len)
{
    struct pb_patch *p = pb_patch_add(f, layer, PB_PATCH_SET, off, len);
    if (p)
        memcpy(p->val, b, len);
}

static void patch_be16(struct pb_frame *f, int layer, unsigned off, uint16_t v)
{
    uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };
    patch_bytes(f, layer, off, b, 2);
}

static void length_patch(struct pb_frame *f, int layer, unsigned off, uint16_t sel_v)
{
    if (sel_v >= 0x7f00) {
        patch_be16(f, layer, off, (uint16_t)(sel_v - 0x7f00));
        return;
    }
    struct pb_patch *p = pb_patch_add(f, layer, PB_PATCH_ADD16, off, 0);
    if (p)
        p->add = (int16_t)sel_v;
}

/* The option area of an IPv4 or TCP header grows by len; returns the
 * offset of the new bytes, -1 when the header is full */
static int grow_options(struct pb_layer *l, unsigned base, unsigned len)
{
    unsigned have = l->ip_opts & ~3u;
    if (have + len > 40)
        return -1;
    l->ip_opts = (uint8_t)(have + len);
    return (int)(base + have);
}

static void set_addr(struct pb_layer *l, int dst, const struct addr *a, unsigned r, int inner_other)
{
    uint8_t *p = dst ? l->dst : l->src;
    if (l->kind == PB_IPV4)
        memcpy(p, inner_other ? TAP4 : a->a4, 4);
    else
        memcpy(p, inner_other ? TAP6 : a->a6, 16);
    (void)r;
}

static void apply_gnvopt(struct pb_layer *l, unsigned sel)
{
    if (l->kind != PB_RAW || l->len < 8)
        return;
    uint8_t *p = l->raw;
    unsigned words = p[0] & 0x3f;
    switch (sel) {
    case 0: case 1: case 2: {
        unsigned add = sel == 2 ? 2 : 1;
        for (unsigned i = 0; i < add && (size_t)l->len + 8 <= sizeof l->raw; i++) {
            uint8_t *o = p + l->len;
            o[0] = 0x01;
            o[1] = (uint8_t)(0x10 + i);
            o[2] = sel == 1 ? 0x81 : 0x01;   /* type: the high bit marks it critical */
            o[3] = 1;                        /* one word of data */
            memcpy(o + 4, "\xde\xad\xbe\xef", 4);
            l->len = (uint16_t)(l->len + 8);
            words += 2;
        }
        p[0] = (uint8_t)((p[0] & 0xc0) | (words & 0x3f));
        break;
    }
    case 3:                                  /* the header says more option words than follow */
        p[0] = (uint8_t)((p[0] & 0xc0) | ((words + 3) & 0x3f));
        break;
    case 4:                                  /* an option longer than the options */
        if (words && l->len >= 12)
            p[11] = 0x1f;
        else
            p[0] = (uint8_t)((p[0] & 0xc0) | 1);
        break;
    case 5:
        if (words && l->len >= 12) {
            p[8] = 0xff;
            p[9] = 0xff;
        }
        break;
    default:
        break;
    }
}

void kf_mut_apply(const struct kf_case *c, const struct kf_mut *m, struct pb_frame *f, const int *role)
{
    unsigned r = m->role, s = m->sel;
    if (r >= RO__COUNT || role[r] < 0)
        return;
    int li = role[r];
    struct pb_layer *l = &f->l[li];
    int v4 = l->kind == PB_IPV4, v6 = l->kind == PB_IPV6;
    unsigned cnt = 0;
    switch (m->kind) {
    case MK_CSUM:
        if (r == RO_OIP || r == RO_IIP)
            l->csum = PB_BAD;
        else if (s < N(CSUM))
            l->csum = CSUM_PB[s];
        break;
    case MK_ECN:
        if (s < N(ECN))
            patch_bits(f, li, 1, v4 ? 0x03 : 0x30, (uint8_t)(v4 ? s : s << 4));
        break;
    case MK_DSCP:
        if (s >= N(DSCP))
            break;
        if (v4)
            patch_bits(f, li, 1, 0xfc, (uint8_t)(DSCP[s].v << 2));
        else {
            patch_bits(f, li, 0, 0x0f, (uint8_t)(DSCP[s].v >> 2));
            patch_bits(f, li, 1, 0xc0, (uint8_t)(DSCP[s].v << 6));
        }
        break;
    case MK_TTL:
        if (s < N(TTL))
            patch_bits(f, li, v4 ? 8 : 7, 0xff, (uint8_t)TTL[s].v);
        break;
    case MK_FRAG:
        if (v4 && s < N(FRAG))
            l->frag = FRAG[s].v;
        break;
    case MK_IPID:
        if (v4 && s < N(IPID))
            l->ip_id = IPID[s].v;
        break;
    case MK_IHL:
        if (v4 && s < N(IHL))
            patch_bits(f, li, 0, 0x0f, (uint8_t)IHL[s].v);
        break;
    case MK_IPVER:
        if (s < N(IPVER))
            patch_bits(f, li, 0, 0xf0, (uint8_t)((IPVER[s].v == 0xff ? (v4 ? 6 : 4) : IPVER[s].v) << 4));
        break;
    case MK_IPOPT:
        if (v4 && s < N(IPOPT)) {
            int at = grow_options(l, 20, IPOPT[s].len);
            if (at >= 0)
                patch_bytes(f, li, (unsigned)at, IPOPT[s].b, IPOPT[s].len);
        }
        break;
    case MK_FLOW:
        if (v6) {
            static const uint8_t fl[3] = { 0x0f, 0xff, 0xff };
            struct pb_patch *p = pb_patch_add(f, li, PB_PATCH_SET, 1, 3);
            if (p) {
                memcpy(p->val, fl, 3);
                p->mask[0] = 0x0f;
            }
        }
        break;
    case MK_IPLEN:
        if (s >= N(LEN))
            break;
        if (LEN[s].v == 0x7f00)
            l->tot_len_zero = 1;
        else
            length_patch(f, li, v4 ? 2 : 4, LEN[s].v);
        break;
    case MK_SADDR: case MK_DADDR:
        if (s < N(ADDR))
            set_addr(l, m->kind == MK_DADDR, &ADDR[s], r,
                     r == RO_IIP && m->kind == MK_DADDR && !strcmp(ADDR[s].name, "own-other-dev"));
        break;
    case MK_NXT: {
        if (s >= N(NXT))
            break;
        uint8_t cur = l->proto ? (uint8_t)l->proto : pb_ipproto(f, li + 1), v = (uint8_t)NXT[s].v;
        if (NXT[s].v == NXT_OTHER_FAMILY)
            v = cur == 4 ? 41 : cur == 41 ? 4 : v4 ? 41 : 4;
        else if (NXT[s].v == NXT_UDP_TCP_SWAP)
            v = cur == 17 ? 6 : 17;
        else if (NXT[s].v == NXT_ICMP_OTHER)
            v = v4 ? 58 : 1;
        patch_bits(f, li, v4 ? 9 : 6, 0xff, v);
        break;
    }
    case MK_DMAC: case MK_SMAC:
        if (s < N(MAC))
            patch_bytes(f, li, m->kind == MK_DMAC ? 0 : 6, MAC[s].b, 6);
        break;
    case MK_ETYPE: {
        if (s >= N(ETYPE))
            break;
        uint16_t v = ETYPE[s].v;
        if (v == 0xffff)
            v = li + 1 < f->n && f->l[li + 1].kind == PB_IPV6 ? 0x0800 : 0x86dd;
        patch_be16(f, li, 12, v);
        break;
    }
    case MK_UDPLEN:
        if (s < N(LEN)) {
            if (LEN[s].v == 0x7f00 || LEN[s].v == 0x7f07)
                patch_be16(f, li, 4, (uint16_t)(LEN[s].v - 0x7f00));
            else
                length_patch(f, li, 4, LEN[s].v);
        }
        break;
    case MK_SPORT:
        if (s < N(SPORT))
            patch_be16(f, li, 0, SPORT[s].v);
        break;
    case MK_DPORT: {
        if (s >= N(DPORT))
            break;
        uint16_t v = DPORT[s].v;
        if (v == 0xffff)                       /* the other transport's listener */
            v = l->kind == PB_TCP ? 5000 : 5001;
        patch_be16(f, li, 2, v);
        break;
    }
    case MK_TCPFLAGS:
        if (s < N(TCPFLAGS))
            l->tcp_flags = (uint8_t)TCPFLAGS[s].v;
        break;
    case MK_TCPDOFF:
        if (s < N(TCPDOFF)) {
            unsigned doff = TCPDOFF[s].v;
            if (doff == 0xff)                  /* shorter than the options it has */
                doff = 5;
            patch_bits(f, li, 12, 0xf0, (uint8_t)(doff << 4));
        }
        break;
    case MK_TCPOPT:
        if (s < N(TCPOPT)) {
            int at = grow_options(l, l->mss ? 24 : 20, TCPOPT[s].len);
            if (at >= 0)
                patch_bytes(f, li, (unsigned)at, TCPOPT[s].b, TCPOPT[s].len);
        }
        break;
    case MK_TCPURG:
        if (s < N(URG))
            patch_be16(f, li, 18, URG[s].v);
        break;
    case MK_ICMP: {
        const struct named *t = l->kind == PB_ICMPV6 ? ICMP6 : ICMP4;
        unsigned nt = l->kind == PB_ICMPV6 ? N(ICMP6) : N(ICMP4);
        if (s < nt) {
            l->icmp_type = (uint8_t)(t[s].v >> 8);
            l->icmp_code = (uint8_t)t[s].v;
            if (l->icmp_type == 0)             /* echo reply: pb writes 8 for type 0 */
                patch_bits(f, li, 0, 0xff, 0);
        }
        break;
    }
    case MK_TUNBITS: {
        const struct bits *b = bits_of(tunnel_kind(c, f, role, r), &cnt);
        if (b && s < cnt)
            patch_bits(f, li, b[s].off, b[s].mask, b[s].val);
        break;
    }
    case MK_TUNPROTO: {
        int tk = tunnel_kind(c, f, role, r);
        const struct named *p = proto_of(tk, &cnt);
        if (!p || s >= cnt)
            break;
        if (tk == TK_GPE)
            patch_bits(f, li, 3, 0xff, (uint8_t)p[s].v);
        else if (tk == TK_GUE)
            patch_bits(f, li, 1, 0xff, (uint8_t)p[s].v);
        else
            patch_be16(f, li, 2, p[s].v);
        break;
    }
    case MK_GREFLAGS: {
        int g = gre_layer(f, role);
        if (g < 0)
            break;
        struct pb_layer *gl = &f->l[g];
        switch (s) {
        case 0: gl->gre_flags ^= 0x8000; break;
        case 1: gl->gre_flags ^= 0x2000; gl->key = 77; break;
        case 2: gl->gre_flags ^= 0x1000; break;
        case 3: gl->gre_flags |= 0xb000; gl->key = 77; break;
        case 4: gl->gre_flags &= (uint16_t)~0xb000; break;
        case 5: gl->key = 78; break;
        default: break;
        }
        break;
    }
    case MK_GNVOPT:
        apply_gnvopt(l, s);
        break;
    default:
        break;
    }
}

/* ---- after the build ---- */

size_t kf_mut_post(const struct kf_case *c, const struct kf_mut *m, uint8_t *buf, size_t len, size_t cap)
{
    (void)c;
    if (m->kind == MK_TRUNC && m->sel < N(TRUNC)) {
        size_t cut = TRUNC[m->sel].v;
        if (cut >= 0xff00)                     /* resolved by the builder (kfuzz_build.c) */
            return len;
        return cut < len ? len - cut : len;
    }
    if (m->kind == MK_PAD && m->sel < N(PAD)) {
        size_t add = PAD[m->sel].v & 0xff;
        uint8_t fill = PAD[m->sel].v >> 8 ? 0xff : 0;
        if (len + add > cap)
            return len;
        memset(buf + len, fill, add);
        return len + add;
    }
    return len;
}

/* The truncations the builder resolves against the layout: 1 in the
 * innermost transport header, 2 in the tunnel header, 3 right after the
 * outer IP header; 0: a plain byte count (kf_mut_post) */
int kf_mut_trunc_at(const struct kf_mut *m)
{
    if (m->kind != MK_TRUNC || m->sel >= N(TRUNC) || TRUNC[m->sel].v < 0xff00)
        return 0;
    return TRUNC[m->sel].v & 0xff;
}
