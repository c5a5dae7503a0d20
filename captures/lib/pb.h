/*
 * pb.h - build frames layer by layer, with the intended state of every
 * checksum: the project's own packet generator (no scapy). Used by the
 * capture generator (csc-gen), the unit tests (scenarios S1-S18 built in
 * the test) and the live-kernel differential test.
 *
 *   struct pb_frame f;
 *   pb_init(&f);
 *   pb_push(&f, PB_ETH);
 *   pb_push(&f, PB_IPV4);
 *   pb_push(&f, PB_UDP)->csum = PB_ZERO;
 *   pb_push(&f, PB_VXLAN);
 *   pb_push(&f, PB_ETH);
 *   pb_push(&f, PB_IPV4);
 *   pb_push(&f, PB_TCP)->csum = PB_BAD;
 *   pb_push(&f, PB_PAYLOAD)->len = 100;
 *   size_t n = pb_build(&f, buf, sizeof buf);
 *
 * Next-protocol fields (EtherType, IP protocol, UDP port, GRE/GENEVE
 * protocol, GUE proto/ctype) follow from the next layer unless set.
 * PB_L2TPV3 after PB_UDP is L2TPv3 over UDP (port 1701, RFC 3931 §4.1.2.1:
 * a 4-byte T/ver header before the session ID); after IP it is over IP.
 * PB_ICMP/PB_ICMPV6 with an error type (3, 11 / 1, 2, 3) quote the layers
 * pushed after them. PB_ETH right after an IP layer is Ethernet in IP
 * (protocol 143, RFC 8986); PB_WLAN after PB_GRE is Aruba's 802.11 over GRE
 * (protocol 0x8200). PB_AH and PB_ESP are IPsec headers (RFC 4302, 4303):
 * AH's next header follows from the next layer (transport or tunnel mode);
 * ESP's payload is `len` opaque bytes. PB_MACSEC after PB_ETH is 802.1AE
 * (EtherType 0x88E5); its ICV trails the frame.
 * Checksums are computed innermost first, so an outer checksum covers the
 * inner fields as they end up in the frame; PB_LCO gives the value lco_csum()
 * computes: right once the inner partial fields are filled in.
 */
#ifndef CSC_PB_H
#define CSC_PB_H

#include <stddef.h>
#include <stdint.h>

#define PB_MAX_LAYERS 24

enum pb_kind {
    PB_ETH, PB_VLAN, PB_QINQ, PB_MPLS, PB_SLL2, PB_IPV4, PB_IPV6, PB_UDP, PB_TCP, PB_ICMP,
    PB_ICMPV6, PB_GRE, PB_VXLAN, PB_VXLAN_GPE, PB_GENEVE, PB_GUE, PB_L2TPV3, PB_PAYLOAD,
    PB_RAW,           /* raw[0..len) verbatim: headers the builder does not know */
    PB_IGMP,          /* IGMPv2 membership report for 239.1.1.1 */
    PB_NHRP,          /* NHRP traffic indication (RFC 2332 header, checksum over the
                         NHRP packet): the layers after it are the quoted packet */
    PB_AH,            /* IPsec AH, 12-byte ICV (24 bytes) */
    PB_ESP,           /* IPsec ESP: SPI, sequence, `len` bytes standing for the ciphertext */
    PB_WLAN,          /* IEEE 802.11 QoS data frame from the DS, no FCS, then LLC/SNAP
                         (with prot: a CCMP header, the rest opaque) */
    PB_MACSEC,        /* MACsec SecTAG (802.1AE), TCI/AN from macsec_tci (default 0x20:
                         SC, an SCI follows); E=0, C=0: the next layer's EtherType and
                         the layers after it in clear; E or C: `len` opaque bytes. A
                         16-byte ICV goes after the last layer (before any padding); SL
                         is set when the secure data is shorter than 48 bytes */
};

enum pb_state {
    PB_OK = 0,        /* right over the bytes as they end up in the frame */
    PB_BAD,           /* wrong (the right value xor 0x5a5a) */
    PB_ZERO,          /* zero (UDP: no checksum) */
    PB_SEED,          /* pseudo-header sum, as CHECKSUM_PARTIAL leaves it */
    PB_SEED_NOLEN,    /* pseudo-header sum without the length */
    PB_LCO,           /* lco_csum(): right once inner partial fields are filled */
    PB_GARBAGE,       /* a fixed unrelated value (0x1234) */
};

/* IPv6 extension headers (bit set); SRH: a segment routing header (type 4, RFC
 * 8754) with one segment, segments left 0 */
enum { PB_X_HBH = 1, PB_X_DST = 2, PB_X_RH0 = 4, PB_X_FRAG = 8, PB_X_HAO = 16, PB_X_SRH = 32 };

struct pb_layer {
    uint8_t kind;
    uint8_t csum;            /* enum pb_state; IPv4: header checksum */
    uint8_t src[16], dst[16];/* IPv4 uses the first 4 bytes */
    uint16_t sport, dport;   /* 0: from the next layer / defaults */
    uint32_t seq, ack;
    uint8_t tcp_flags;       /* default ACK (0x10) */
    uint16_t mss;            /* TCP: add an MSS option */
    uint8_t ip_opts;         /* IPv4 / TCP option bytes (multiple of 4, <= 40; NOPs, after
                                TCP's MSS option); patches write real options over them */
    uint16_t ip_id;
    uint16_t frag;           /* IPv4 flags+offset (default DF); IPv6 frag field */
    uint8_t tot_len_zero;    /* IPv4 tot_len / IPv6 payload length 0 (BIG TCP) */
    uint8_t v6_ext;          /* PB_X_* */
    uint8_t hbh_opts[6];     /* PB_X_HBH: its 6 option bytes (all 0: PadN of 4) */
    uint8_t hao[16];         /* home address for PB_X_HAO */
    uint16_t gre_flags;      /* C 0x8000, K 0x2000, S 0x1000 */
    uint32_t key, gre_seq;   /* GRE key and sequence; PB_L2TPV3: key the session ID (0: 1) */
    uint16_t proto;          /* override the next-protocol field (IPv6: of the last
                                extension header, or of the fixed header); an IP
                                layer writes the low byte, so 0x100 writes 0 */
    uint32_t vni;
    uint8_t rco;             /* VXLAN/GUE: announce RCO for the next L4 */
    int16_t rco_shift;       /* move the RCO start off target by this many bytes */
    uint8_t gue_variant;     /* 0 or 1 */
    uint8_t opt_words;       /* GENEVE option length (4-byte words) */
    uint16_t vlan;
    uint32_t label;
    uint8_t pkttype;         /* SLL2 packet type (4 = outgoing) */
    uint16_t len;            /* PAYLOAD / RAW length */
    uint8_t raw[32];         /* RAW bytes */
    uint8_t fill;            /* PAYLOAD first byte (pattern fill + i) */
    /* added for the capture corpus (csc-gen); zero keeps the defaults */
    uint8_t icmp_type;       /* ICMP/ICMPv6 type (0: echo request); errors quote the next layers */
    uint8_t icmp_code;
    uint16_t len_override;   /* IPv4 tot_len / IPv6 payload length / UDP length written
                                instead of the real one (an ICMP error quoting a cut datagram) */
    uint8_t echo_reply;      /* ICMP: echo reply (type 0) instead of the default request */
    uint8_t l2tp_cookie;     /* L2TPv3 cookie bytes: 0, 4, 8 */
    uint8_t l2tp_no_l2spec;  /* L2TPv3 without the 4-byte L2-specific sublayer */
    uint8_t wlan_prot;       /* 802.11 protected frame (CCMP header, payload opaque) */
    uint32_t spi;            /* AH / ESP SPI (default 0x1000) */
    uint8_t macsec_tci;      /* MACsec TCI/AN byte */
};

/* Bytes written over a layer's header after the builder wrote it and before
 * any checksum is computed: a field the builder has no name for (TOS, TTL,
 * reserved bits, IPv4 options, a length off by a few), which the checksums
 * then cover as they end up in the frame. */
#define PB_MAX_PATCHES 16
#define PB_PATCH_MAX 40
enum pb_patch_op {
    PB_PATCH_SET = 0,        /* byte = byte & ~mask | val & mask, len bytes */
    PB_PATCH_ADD16,          /* the big-endian 16-bit field at off += add */
};
struct pb_patch {
    uint8_t layer;           /* index into pb_frame.l */
    uint8_t op;              /* enum pb_patch_op */
    uint8_t len;             /* SET: bytes (<= PB_PATCH_MAX) */
    uint16_t off;            /* from the layer's first byte; past the frame: ignored */
    int16_t add;             /* ADD16 */
    uint8_t val[PB_PATCH_MAX], mask[PB_PATCH_MAX];
};

struct pb_frame {
    struct pb_layer l[PB_MAX_LAYERS];
    int n;
    uint8_t no_pad;          /* do not pad Ethernet to 60 bytes */
    int npatch;
    struct pb_patch patch[PB_MAX_PATCHES];
    /* filled by pb_build */
    size_t off[PB_MAX_LAYERS];   /* offset of every layer */
    size_t hlen[PB_MAX_LAYERS];  /* header length of every layer */
    size_t len;                  /* frame length without padding */
};

void pb_init(struct pb_frame *f);
/* Append a layer with defaults for its kind (addresses, ports, ...). */
struct pb_layer *pb_push(struct pb_frame *f, enum pb_kind kind);
/* Write the frame; returns its length, 0 if it does not fit in cap.
 * Fills f->off[], f->hlen[] and f->len. */
size_t pb_build(struct pb_frame *f, uint8_t *out, size_t cap);

/* The IP protocol number the layers from i on are carried as (59: none
 * follows; 253 for a layer the builder has no number for) */
uint8_t pb_ipproto(const struct pb_frame *f, int i);

/* A patch for layer i (applied by pb_build; NULL when the table is full):
 * SET with every mask bit on, to be filled in by the caller. */
struct pb_patch *pb_patch_add(struct pb_frame *f, int layer, enum pb_patch_op op, unsigned off, unsigned len);

/* Link type of the frame (LINKTYPE_ETHERNET, LINKTYPE_LINUX_SLL2, or
 * LINKTYPE_RAW when the first layer is IP). */
uint32_t pb_linktype(const struct pb_frame *f);

/* Cut an IPv4 datagram that starts at l3 into fragments of at most mtu
 * payload bytes (multiple of 8), each with a copy of the link header.
 * Calls emit() for each fragment; returns the number of fragments. */
int pb_fragment_ipv4(const uint8_t *frame, size_t len, size_t l3, size_t mtu,
                     void (*emit)(void *ctx, const uint8_t *frag, size_t len), void *ctx);

/* The same for an IPv6 packet at l3 without extension headers: each
 * fragment gets the base header, a Fragment header (identification id) and
 * at most mtu payload bytes (multiple of 8). Returns the number of fragments,
 * 0 when the packet cannot be cut that way. */
int pb_fragment_ipv6(const uint8_t *frame, size_t len, size_t l3, size_t mtu, uint32_t id,
                     void (*emit)(void *ctx, const uint8_t *frag, size_t len), void *ctx);

#endif
