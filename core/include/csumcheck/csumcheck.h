/*
 * csumcheck.h - public interface of libcsumcore.
 *
 * One call, csc_analyze(), turns one captured frame into a csc_result:
 *   decode  -> a stack of layers (bounds-checked, never reads past caplen)
 *   verify  -> the raw checksum verdict of every checksummed layer
 *   replay  -> what the Linux RX path does with the frame (kernel-model.md)
 * The core allocates nothing and prints nothing; the caller owns every
 * struct. Front-ends render the result; the names tables at the bottom turn
 * enums into the stable strings of the JSON contract (docs/json.md).
 */
#ifndef CSUMCHECK_H
#define CSUMCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSC_MAX_LAYERS   32   /* deeper stacks end with CSC_STOP_DEPTH */
#define CSC_MAX_PORTS    16   /* configurable UDP tunnel ports */
#define CSC_PROTO_PORTS   2   /* default UDP ports per protocol row */
#define CSC_MAX_BREAKS  192   /* summing breakpoints per frame */
#define CSC_MAX_STEPS    96   /* replay trace entries per frame */
#define CSC_MAX_DEVS      8   /* GRO/RX entries: NIC + tunnel devices */
#define CSC_NO_OFF   0xffffffffu /* an offset that is not there (no checksum field) */
#define CSC_NO_LAYER 0xffu       /* a layer index that names no layer (the frame, none) */
#define CSC_NO_DEV   0xffu       /* a csc_kernel.devs index that names no device */
#define CSC_L2TP_L2SPEC_AUTO 0xffu /* csc_config.l2tp_l2spec_len: guess it from the bytes */

/* A result that may be undecided: a check the replay did not (or could not)
 * make, a trace step that is an action rather than a check. */
enum csc_tri { CSC_TRI_NO = 0, CSC_TRI_YES = 1, CSC_TRI_UNDECIDED = 2, CSC_TRI__COUNT };

/* ------------------------------------------------------------------ */
/* Link layers (our own numbering; csc_link_from_linktype() maps pcap's) */
enum csc_link {
    CSC_LINK_UNKNOWN = 0,
    CSC_LINK_ETHERNET,
    CSC_LINK_RAW,        /* first nibble says IPv4 or IPv6 */
    CSC_LINK_IPV4,
    CSC_LINK_IPV6,
    CSC_LINK_SLL,
    CSC_LINK_SLL2,
    CSC_LINK_NULL,       /* BSD loopback, host byte order family */
    CSC_LINK_LOOP,       /* OpenBSD loopback, network byte order family */
    CSC_LINK_PPP,
};

enum csc_direction { CSC_DIR_UNKNOWN = 0, CSC_DIR_IN, CSC_DIR_OUT };

/* Where a frame's direction came from (csc_dir_from_name; csc_direction()) */
enum csc_dir_from {
    CSC_DF_NONE = 0,     /* nothing says: the frame is taken as received */
    CSC_DF_CAPTURE,      /* the capture's packet flags (pcapng epb_flags) */
    CSC_DF_PKTTYPE,      /* the Linux cooked header's packet type (SLL, SLL2) */
    CSC_DF_LOOPBACK,     /* a loopback frame: this host sent it to itself */
    CSC_DF_LOCAL,        /* its addresses against this host's (csc_config.local) */
    CSC_DF_GUESS,        /* probably sent: its outermost checksum is a sender's partial */
    CSC_DF__COUNT
};

/* What the capture's interface is (csc_config.via, csc_result.via, csc_via_name). A frame on
 * loopback or on a virtual device (veth, tun) crosses as an skb, with the
 * checksum state its sender left: nothing completes a partial checksum. */
enum csc_via {
    CSC_VIA_NIC = 0,     /* a device with a wire (the default: nothing says otherwise) */
    CSC_VIA_LOOPBACK,    /* lo (also seen in the frame: docs/direction.md) */
    CSC_VIA_VIRTUAL,     /* veth, tun/tap */
    CSC_VIA__COUNT
};

/* Linux packet types (if_packet.h PACKET_*), csc_pkttype_name; none: 0xff */
#define CSC_NO_PKTTYPE 0xffu

/* This host's addresses (--local): a frame from one was sent, a frame to
 * one received. Caller-owned, read-only while frames are analysed. */
#define CSC_MAX_LOCAL 32
enum csc_local_kind { CSC_LOCAL_MAC = 1, CSC_LOCAL_IPV4 = 4, CSC_LOCAL_IPV6 = 6 };
struct csc_local_addr {
    uint8_t kind;            /* enum csc_local_kind */
    uint8_t addr[16];        /* 6 (MAC), 4 or 16 bytes */
};
struct csc_local_set {
    unsigned n;
    struct csc_local_addr a[CSC_MAX_LOCAL];
};

/* ------------------------------------------------------------------ */
/* Layers */
enum csc_proto {
    CSC_P_NONE = 0,
    CSC_P_ETH, CSC_P_VLAN, CSC_P_MPLS, CSC_P_PPPOE, CSC_P_PPP,
    CSC_P_SLL, CSC_P_SLL2, CSC_P_NULL,
    CSC_P_IPV4, CSC_P_IPV6,
    CSC_P_UDP, CSC_P_TCP, CSC_P_ICMP, CSC_P_ICMPV6, CSC_P_IGMP,
    CSC_P_GRE, CSC_P_VXLAN, CSC_P_VXLAN_GPE, CSC_P_GENEVE, CSC_P_GUE,
    CSC_P_FOU, CSC_P_L2TP, CSC_P_ERSPAN, CSC_P_NSH, CSC_P_GTP,
    CSC_P_TEREDO, CSC_P_AYIYA, CSC_P_CW, CSC_P_WCCP, CSC_P_CMD,
    CSC_P_SIT,           /* a device kind only: the sit device (IPv6 in IPv4);
                            ipip is CSC_P_IPV4 (IPv4 in IPv4), ip6tnl CSC_P_IPV6 */
    CSC_P_GRE_UDP,       /* GRE-in-UDP (RFC 8086): a marker layer, GRE follows */
    CSC_P_NHRP,          /* NHRP over GRE (RFC 2332), its checksum; a traffic
                            indication quotes the packet that caused it */
    CSC_P_ESP,           /* IPsec ESP (RFC 4303): SPI and sequence; the rest is encrypted */
    CSC_P_AH,            /* IPsec AH (RFC 4302): authenticates, hides nothing; the payload
                            (transport or, in tunnel mode, an IP packet) is decoded */
    CSC_P_WLAN,          /* IEEE 802.11 frame without FCS (Aruba's GRE 0x8200..0x8370),
                            its LLC/SNAP header included */
    CSC_P_MACSEC,        /* MACsec SecTAG (IEEE 802.1AE, EtherType 0x88E5); without
                            encryption its cleartext EtherType is part of the layer and
                            the user data is decoded */
    CSC_P_AMT,           /* Automatic Multicast Tunneling (RFC 7450, UDP 2268): a
                            multicast data message carries an IP packet */
    CSC_P__COUNT
};

/* What a protocol is, for everyone who reads the protocol table
 * (csc_proto_desc; the rows are in core/proto/protos.c) */
enum csc_proto_flag {
    CSC_PF_LINK         = 1u << 0,  /* a link header the receiving NIC strips before L3 */
    CSC_PF_TUNNEL       = 1u << 1,  /* what follows is an encapsulated packet or frame */
    CSC_PF_UDP_TUNNEL   = 1u << 2,  /* a kernel UDP tunnel socket receives it (encap_rcv) */
    CSC_PF_CONVERT_CSUM = 1u << 3,  /* that socket converts a verified checksum to COMPLETE
                                       (VXLAN, L2TP; every UDP tunnel from 4.0) */
    CSC_PF_PSEUDO_HDR   = 1u << 4,  /* its checksum covers the IP pseudo-header */
    CSC_PF_PORT_IPPROTO = 1u << 5,  /* a UDP port maps to it with the IP protocol it
                                       carries (FOU: PORT:IPPROTO) */
    CSC_PF_VNI          = 1u << 6,  /* its header names a virtual network (VNI) */
    CSC_PF_ID           = 1u << 7,  /* its view starts with an identifier (csc_layer_id) */
    CSC_PF_UNBOUND_PORT = 1u << 8,  /* decoded on its port, where nothing listens unless
                                       configured (a FOU port): the datagram is UdpNoPorts */
    CSC_PF_SOCKET_IPV4  = 1u << 9,  /* its UDP tunnel socket is AF_INET only: over IPv6
                                       nothing listens on the port (Udp6NoPorts) */
};

struct csc_proto_desc {
    const char *name;        /* the JSON vocabulary (csc_proto_name) */
    const char *dev;         /* its receiving device's kind (csc_dev_name); NULL: name */
    const char *title;       /* in words, for help texts ("VXLAN", "MPLS-in-UDP") */
    uint32_t flags;          /* enum csc_proto_flag */
    uint16_t ports[CSC_PROTO_PORTS]; /* UDP ports decoded as it by default; 0 ends the list */
    const char *option;      /* CLI option that adds a UDP port ("vxlan-port"); NULL: none */
    const char *pref;        /* plugin preference with its UDP ports ("vxlan_ports") */
};

/* Raw verdict of the bytes of one checksummed layer (design.md) */
enum csc_verdict {
    CSC_V_NA = 0,        /* the layer carries no checksum */
    CSC_V_GOOD,
    CSC_V_BAD,
    CSC_V_NONE,          /* UDP/IPv4 zero, GRE without C */
    CSC_V_ZERO6,         /* zero UDP checksum over IPv6 */
    CSC_V_PARTIAL,       /* field holds the pseudo-header seed (TX capture) */
    CSC_V_LCO,           /* right once inner partial fields are completed */
    CSC_V_RCO,           /* inner field left for the receiver, resolves good */
    CSC_V_UNVERIFIABLE,
    CSC_V__COUNT
};

/* Machine-readable reason attached to a verdict */
enum csc_reason {
    CSC_R_NONE = 0,
    CSC_R_MISMATCH,          /* bad: field differs from the computed value */
    CSC_R_ZERO,              /* none/zero6: field is zero */
    CSC_R_NO_C_BIT,          /* none: GRE without checksum */
    CSC_R_SEED,              /* partial: pseudo-header sum incl. length */
    CSC_R_SEED_NOLEN,        /* partial: pseudo-header sum without length */
    CSC_R_GSO,               /* partial: GSO/TSO/BIG TCP super-packet */
    CSC_R_LCO,               /* lco: matches lco_csum() prediction */
    CSC_R_RCO,               /* rco: seed in place, remcsum resolves good */
    CSC_R_RCO_WRONG_SEED,    /* bad: RCO field is not the pseudo seed */
    CSC_R_RCO_BAD_TARGET,    /* bad: start/offset miss the inner checksum */
    CSC_R_RCO_OUTER_MISSING, /* bad: RCO with a zero outer checksum */
    CSC_R_RCO_OUTER_BAD,     /* bad: RCO with a bad outer checksum */
    CSC_R_SNAPLEN,           /* unverifiable: covered bytes not captured */
    CSC_R_FRAGMENT,          /* unverifiable: IP fragment */
    CSC_R_LEN_MISMATCH,      /* unverifiable: length fields disagree */
    CSC_R_GSO_LEN,           /* unverifiable: super-packet length 0/too big */
    CSC_R_ICMP_QUOTE,        /* unverifiable: transport quoted in ICMP error */
    CSC_R_FRAG_OVERLAP,      /* unverifiable: reassembly saw overlapping data */
    CSC_R_FRAG_REASSEMBLED,  /* good/bad: verified on the completing fragment */
    CSC_R__COUNT
};

/* Notes: findings on a layer that are not verdicts (bit set) */
enum csc_note {
    CSC_N_IP_OPTIONS      = 1u << 0,
    CSC_N_FRAGMENT        = 1u << 1,   /* this IP packet is a fragment */
    CSC_N_LEN_EXCEEDS     = 1u << 2,   /* declared length beyond the frame */
    CSC_N_PADDING         = 1u << 3,   /* bytes after the declared end */
    CSC_N_HOME_ADDRESS    = 1u << 4,   /* IPv6 HAO replaced the pseudo src */
    CSC_N_ROUTING_DST     = 1u << 5,   /* IPv6 routing hdr final destination */
    CSC_N_JUMBO           = 1u << 6,   /* IPv6 jumbo payload option */
    CSC_N_QUOTED          = 1u << 7,   /* inside an ICMP error quote */
    CSC_N_GSO             = 1u << 8,   /* super-packet: length 0 / > MTU */
    CSC_N_RCO             = 1u << 9,   /* tunnel header announces RCO */
    CSC_N_RCO_OFF_TARGET  = 1u << 10,  /* RCO start/offset miss the L4 csum */
    CSC_N_RCO_OUT_OF_PKT  = 1u << 11,  /* RCO start/offset beyond the packet */
    CSC_N_RESERVED_BITS   = 1u << 12,  /* reserved bits set in a tunnel hdr */
    CSC_N_LEN_SHORT       = 1u << 13,  /* declared length shorter than hdr */
    CSC_N_LINK_LEN_SHORT  = 1u << 14,  /* link (PPPoE) length < IP length */
    CSC_N_OUTGOING        = 1u << 15,  /* capture says TX direction */
    CSC_N_GRE_SEQ         = 1u << 16,
    CSC_N_GRE_KEY         = 1u << 17,
    CSC_N_GENEVE_OPTIONS  = 1u << 18,
    CSC_N_TUNNEL_OAM      = 1u << 19,
    CSC_N_REASSEMBLED     = 1u << 20,  /* a layer of the datagram IP reassembly completed
                                          on this frame: its offsets are in that datagram
                                          (its IP header at 0), not in the frame */
    CSC_N_L2SPEC_GUESSED  = 1u << 21,  /* L2TPv3: no L2-specific sublayer length was
                                          configured; the one the layer has was chosen
                                          from the bytes (l2tp.c) */
};

/* Why the layer stack ended before the innermost payload (docs/json.md, STOP).
 * END: it did not - transport data, or a payload that carries no packet (ARP,
 * LLDP, OSPF, an ICMP echo, ...). Every other reason says a layer may follow
 * that was not decoded, so nothing in it was judged. The decoder records the
 * reason, the protocol being decoded (or whose field named the payload), its
 * offset, the layer that carries the stop (the last one decoded) and, for
 * some reasons, a value (csc_result.stop_value) and an option. */
enum csc_stop {
    CSC_STOP_END = 0,        /* the innermost payload was reached */
    CSC_STOP_TRUNCATED,      /* header cut by caplen */
    CSC_STOP_MALFORMED,      /* a header field is impossible */
    CSC_STOP_DEPTH,          /* CSC_MAX_LAYERS reached, or a longer IPv6 extension chain */
    CSC_STOP_UNSUPPORTED,    /* known protocol, variant or option we do not decode
                                (value: the field, e.g. the GRE version) */
    CSC_STOP_FRAGMENT,       /* non-first fragment: no L4 header here (by design) */
    CSC_STOP_LINK,           /* unknown link type */
    CSC_STOP_ETHERTYPE,      /* unknown-ethertype: the layer's EtherType field names a
                                payload we do not decode (value: the EtherType) */
    CSC_STOP_IPPROTO,        /* unknown-ipproto: the IP protocol / next header (value) */
    CSC_STOP_NEXT,           /* unknown-next: a header's own next-protocol code (value:
                                PPP protocol, VXLAN-GPE/NSH next protocol, the first
                                nibble after MPLS or GTP-U, a BSD address family) */
    CSC_STOP_ENCRYPTED,      /* encrypted: ESP, a protected 802.11 frame (value: SPI or
                                key index) */
    CSC_STOP_NEEDS_OPTION,   /* needs-option: decoding on needs a receiver option
                                (csc_stop_option(); value: what to give it) */
    CSC_STOP__COUNT
};

/* The option a needs-option stop names (csc_stop_option) */
enum csc_stop_opt {
    CSC_SO_NONE = 0,
    CSC_SO_PORT,             /* the UDP port option of protocol stop_opt_proto (--vxlan-port) */
    CSC_SO_L2TP_COOKIE,      /* --l2tp-cookie-len */
    CSC_SO_L2TP_L2SPEC,      /* --l2tp-l2spec-len */
    CSC_SO__COUNT
};

struct csc_layer_kernel;

/* What the replay says about one checksummed layer (summary of the trace) */
enum csc_method {
    CSC_M_NOT_REACHED = 0,   /* the packet was dropped/consumed before */
    CSC_M_DEVICE,            /* a device (or earlier GRO) level consumed */
    CSC_M_COMPLETE,          /* COMPLETE arithmetic, no pass */
    CSC_M_SW_PASS,           /* full software pass over the bytes */
    CSC_M_ZERO,              /* zero UDP checksum accepted */
    CSC_M_PARTIAL,           /* covered by CHECKSUM_PARTIAL */
    CSC_M_REMCSUM,           /* RCO: gro_remcsum_start / PARTIAL from RCO */
    CSC_M_CSUM_BAD,          /* failed on csum_bad without computing */
    CSC_M_IP_FAST_CSUM,      /* IPv4 header: ip_fast_csum */
    CSC_M_UNCHECKED,         /* reached but never checked (e.g. GRE no C) */
    CSC_M__COUNT
};

enum csc_path { CSC_PATH_NONE = 0, CSC_PATH_GRO, CSC_PATH_NORMAL, CSC_PATH__COUNT };

struct csc_layer_kernel {
    uint8_t method;      /* enum csc_method: how the check finally resolved */
    uint8_t path;        /* enum csc_path where it resolved */
    uint8_t dev;         /* index into csc_kernel.devs */
    uint8_t ok;          /* enum csc_tri: good, failed, not decided */
    uint8_t gro_conv;    /* GRO converted UNNECESSARY->NAPI csum here */
    uint8_t normal_conv; /* normal path skb_checksum_try_convert here */
    uint8_t passes;      /* software passes attributed to this layer */
    uint8_t assumed;     /* result rests on an assumption (bytes missing) */
    uint32_t pass_bytes;
};

/* Typed views of the header fields a layer's readers need beyond offsets and
 * checksums, one per protocol family; csc_layer.proto says which one holds
 * (the decoder in core/proto/ fills it). A view with an identifier has it
 * first (CSC_PF_ID), so csc_layer_id() reads it whatever the protocol. */
/* csc_layer_view.ip.rh_flags: an IPv6 routing header is in the chain; it
 * comes after the destination options header carrying a Home Address option;
 * a fragment header is in the chain (an atomic one too: IPv6 GRO stops there);
 * the first routing header's hdrlen is 2: one address (a valid type 2 header);
 * a routing header / a Home Address option comes before the first fragment
 * header (their handlers run before ipv6_frag_rcv queues the fragment); a
 * second fragment header follows the first (frag_off is the first's); a
 * destination options header is in the chain (ipv6_destopt_rcv parses it) */
enum { CSC_RH_SEEN = 1u << 0, CSC_RH_AFTER_HAO = 1u << 1, CSC_RH_FRAG_HDR = 1u << 2,
       CSC_RH_HDRLEN2 = 1u << 3, CSC_RH_BEFORE_FRAG = 1u << 4, CSC_RH_HAO_BEFORE_FRAG = 1u << 5,
       CSC_RH_FRAG_TWICE = 1u << 6, CSC_RH_DSTOPTS = 1u << 7 };

union csc_layer_view {
    struct {                      /* ipv4, ipv6 */
        uint32_t addr_off;        /* frame offset of the header's source address; the
                                     destination follows (4 or 16 bytes each) */
        uint32_t id;              /* IPv4 identification; IPv6 fragment identification */
        uint32_t flow_label;      /* IPv6 */
        uint16_t frag_off;        /* IPv4: flags and offset (IP_DF, IP_MF, IP_OFFSET);
                                     IPv6: the fragment header's offset << 3 | M */
        uint8_t rh_type;          /* IPv6: the first routing header's type */
        uint8_t rh_segs_left;     /* and its segments left */
        uint8_t rh_flags;         /* CSC_RH_* */
    } ip;
    struct {                      /* udp; tcp starts alike */
        uint16_t sport, dport;
    } ports;
    struct {
        uint16_t sport, dport;
        uint32_t seq, ack;
        uint16_t mss;             /* the MSS option, 0 when absent */
        uint8_t flags;            /* FIN SYN RST PSH ACK URG ECE CWR */
        /* what the kernel's signature-option walks read (tcp_inbound_hash),
         * each as the option bytes left at that option, 0 when none:
         * the first option of size under 2 or past the options (the walk
         * stops), the first MD5 option not 18 long / AO option of 4 or less
         * / second MD5 or AO option, the first well-formed MD5 and AO option
         * before any other, and the first MD5 option at all (md5_first_ok:
         * 18 long) */
        uint8_t auth_bad_len, auth_bad, auth_md5, auth_ao, md5_first;
        bool md5_first_ok;
    } tcp;
    struct { uint8_t type; } icmp;                 /* icmp, icmpv6 */
    struct { uint32_t id; } id;                    /* what every CSC_PF_ID view starts with */
    struct {                      /* vxlan, vxlan-gpe */
        uint32_t vni;
        uint32_t flags;           /* VXLAN: the flags word (I, RCO, GBP); GPE: its flags byte */
    } vxlan;
    struct { uint32_t vni; uint8_t flags, ver; } geneve; /* flags: O (OAM), C */
    struct { uint32_t key; uint16_t flags; } gre;       /* key with K; flags C R K S .. version */
    struct { uint16_t flags; uint8_t variant; } gue;    /* variant 1: IP directly */
    struct { uint32_t session; uint8_t version, l2spec; } l2tp;  /* l2spec: the L2-specific
                                                                 sublayer's length (L2TPv3) */
    struct { uint32_t session; uint8_t version; } erspan;
    struct { uint32_t teid; } gtp;
    struct { uint32_t spi_si; } nsh;
    struct { uint32_t sgt; } cmd;                       /* Cisco MetaData security group tag */
    struct { uint32_t spi, seq; } ipsec;                /* ah, esp */
    struct { uint32_t pn; uint8_t tci_an, sl; } macsec; /* packet number, TCI|AN, short length */
    struct { uint32_t vid; } vlan;
    struct { uint32_t label; uint8_t depth; } mpls;     /* the bottom label, labels in the stack */
    struct { uint32_t session; } pppoe;
    struct { uint32_t ifindex; uint16_t pkttype, hatype; } sll;  /* sll (no ifindex), sll2 */
};

struct csc_layer {
    uint8_t proto;        /* enum csc_proto */
    uint8_t verdict;      /* enum csc_verdict (CSC_V_NA: no checksum) */
    uint8_t reason;       /* enum csc_reason */
    uint8_t ip;           /* index of the enclosing IP layer, CSC_NO_LAYER if none */
    uint32_t off;         /* header offset in the frame */
    uint32_t hdr_len;
    uint32_t end;         /* end (wire offset) of what this layer governs */
    uint32_t notes;       /* enum csc_note bits */
    /* checksum; csum_off == CSC_NO_OFF when the layer has none */
    uint32_t csum_off;
    uint32_t cov_off, cov_end;   /* covered region [cov_off, cov_end) */
    uint32_t pseudo;      /* L4: pseudo-header sum (canonical); IP: sum of the
                             addresses the pseudo-header uses (HAO/RH applied) */
    uint16_t field;       /* value in the packet */
    uint16_t expected;    /* value that would be right over these bytes */
    uint16_t resolved;    /* RCO: remcsum_adjust result; LCO: inner fill */
    uint16_t rco_delta;   /* RCO: delta remcsum_adjust returns */
    uint16_t next;        /* ethertype / IP protocol / next protocol of the payload */
    uint16_t rco_start, rco_offset;  /* an RCO announcement (VXLAN, GUE: CSC_N_RCO) */
    union csc_layer_view u;   /* the header's own fields, by protocol */
    struct csc_layer_kernel k;
};

/* ------------------------------------------------------------------ */
/* Device report, receiver configuration and kernel era */
enum csc_report_kind {
    CSC_RX_NONE = 0,
    CSC_RX_UNNECESSARY,      /* level = csum_level (0..3) */
    CSC_RX_COMPLETE,         /* sum over the L3 packet */
    CSC_RX_PARTIAL,          /* where: outer / inner / explicit start,offset */
    CSC_RX_OUTER_L4,         /* profile: NIC verifies the outermost L4 only */
    CSC_RX_TUNNEL_L4,        /* profile: NIC verifies outer and inner L4 */
    CSC_RX_VIRTUAL,          /* no NIC: the sender's skb crossed (veth, lo, tun): a field
                                holding a seed is CHECKSUM_PARTIAL there, else NONE */
};

enum csc_partial_where { CSC_PARTIAL_OUTER = 0, CSC_PARTIAL_INNER, CSC_PARTIAL_EXPLICIT };

struct csc_report {
    uint8_t kind;            /* enum csc_report_kind */
    uint8_t level;           /* UNNECESSARY: csum_level */
    uint8_t where;           /* PARTIAL: enum csc_partial_where */
    uint16_t start, offset;  /* PARTIAL explicit: csum_start (from L3), csum_offset */
};

/* Kernel-era switches (docs/eras.md says where each was read): bit numbers
 * in csc_era.sw, tested with CSC_ERA_BIT(). Presets: csc_era_by_name(). */
enum csc_era_switch {
    CSC_E_HAS_LEVELS = 0,             /* csum_level/csum_cnt exist (3.18 series) */
    CSC_E_HAS_CSUM_BAD,               /* v3.18-v4.12 */
    CSC_E_HAS_CONVERSION,             /* UNNECESSARY->COMPLETE, Part VI */
    CSC_E_PARTIAL_START_RULE,         /* PARTIAL covers only from csum_start (v4.0) */
    CSC_E_GRO_UDP_FLUSH_INVERTED,     /* net-next only, never released */
    CSC_E_GRE_SETS_ENCAP_MARK,        /* fac8e0f57969, v4.6 */
    CSC_E_UDP_GATE_NONZERO_CHECK,     /* 89e5c58fc1e2, v5.12 */
    CSC_E_UDP_GATE_BEFORE_LOOKUP,     /* before e20cf8d3f1f7, v5.0 */
    CSC_E_UDP_COMPLETE_UNSET,         /* db4f1be3ca9b, by v4.20 */
    CSC_E_RCO,                        /* RCO exists (2733135329e9, v4.0) */
    CSC_E_RCO_NOPARTIAL_KNOB,         /* default PARTIAL RCO (v4.0) */
    CSC_E_RCO_NORMAL_SKIPS_FLAG,      /* normal RCO skips on remcsum_offload */
    CSC_E_REMCSUM_CLEARED_ON_EXIT,    /* GRO clears remcsum_offload on exit, v4.13 */
    CSC_E_RCO_GRO_FLUSH_IF_DONE,      /* 2015: GRO flushes when RCO done */
    CSC_E_VXLAN_RESERVED_EARLY,       /* v6.14: reserved bits checked first */
    CSC_E_PSKB_TRIM_KEEPS_COMPLETE,   /* pskb_trim_rcsum_slow, by v4.20 */
    CSC_E_SAVE_SW_COMPLETE,           /* 7e3cead51729: pass leaves COMPLETE */
    CSC_E_UDP_ENCAP_FLUSH,            /* 2024: non-tunnel UDP w/ encapsulation */
    CSC_E_GUE_IS_FOU,                 /* is_fou + GRE_CSUM refusal, a0ca153f98db */
    CSC_E_ENCAP_CLEARED_BY_FOU,       /* c3483384ee51: FOU/GUE clear encap_mark */
    CSC_E_CONVERT_ALL_TUNNELS,        /* setup_udp_tunnel_sock/fou_create set
                                         convert_csum on every UDP tunnel socket, v3.18
                                         (docs/model-notes.md) */
    CSC_E_GENEVE_ZERO6_EXTERNAL,      /* geneve_newlink: use_udp6_rx_checksums only with
                                         a remote6 (v4.7.4 lacks, v4.12 has) */
    CSC_E_GENEVE_CRIT_COUNTERS,       /* geneve_rx counts a critical-options drop in
                                         rx_frame_errors/rx_errors (v4.12 lacks, v4.13.4) */
    CSC_E_GENEVE_INNER_PROTO_INHERIT, /* innerprotoinherit exists; a non-TEB protocol
                                         without it counts rx_dropped (v4.20 lacks,
                                         Debian 5.10.262 and 6.1.192 have it) */
    CSC_E_GUE_HDR_2015,               /* GUE header of v3.19+: 2-bit variant, control bit,
                                         validated flags and private flags (v3.18: 4-bit
                                         version, flags must be 0) */
    CSC_E_GUE_REMCSUM_ORDER,          /* validate_gue_flags rejects a REMCSUM offset below
                                         its start ("net: gue: reject invalid REMCSUM
                                         offsets", stable 6.12.112 and 6.1.19x) */
    CSC_E_VXLAN_GRO_CELLS,            /* vxlan_rcv ends in gro_cells_receive (v4.2.8:
                                         netif_rx; v4.3 gro_cells) */
    CSC_E_GENEVE_NETDEV,              /* drivers/net/geneve.c with gro_cells (v4.0.4: only
                                         the OVS vport of net/ipv4/geneve.c; v4.3 has it) */
    CSC_E_GENEVE_BAD_HDR_DROPPED,     /* geneve_udp_encap_recv drops a bad version or
                                         protocol (v4.6.2: returns 1, the datagram is
                                         queued on the socket; v4.7.4 drops) */
    CSC_E_GENEVE_GRO,                 /* the GENEVE socket has a gro_receive (v3.19.8: NULL
                                         callbacks; v4.0.4 geneve_gro_receive) */
    CSC_E_SIT_GRO,                    /* inet_offloads[IPPROTO_IPV6] has a gro_receive
                                         (v4.3: gso only; v4.6.2 sit_gro_receive) */
    CSC_E_VXLAN_GPE_GRO,              /* GPE sockets have vxlan_gpe_gro_receive (Debian
                                         5.10.262: vxlan_gro_receive, eth_gro_receive on
                                         the GPE payload; 6.1.192 has it) */
    CSC_E_IP6_TNL_GRO,                /* ip4ip6/ip6ip6 GRO callbacks and gro_cells in
                                         ip6_tnl_rcv, used by ip6_gre too (v4.6.2: none,
                                         netif_rx; v4.7.4 has them) */
    CSC_E_SEG6_RCV,                   /* ipv6_srh_rcv takes routing type 4, freed while
                                         seg6_enabled is 0 (1ababeba4a21, v4.10) */
    CSC_E_RPL_RCV,                    /* ipv6_rpl_srh_rcv takes routing type 3, freed
                                         while rpl_seg_enabled is 0 (8610c7c6e3bd, v5.7) */
    CSC_E_TUNNEL_INNER_PULL,          /* geneve_rx, ip_tunnel_rcv, __ip6_tnl_rcv pull the
                                         inner network header, rx_length_errors when it
                                         is short (2024; Debian's 5.10 and 6.1 by backport) */
    CSC_E_VXLAN_INNER_PULL,           /* vxlan_rcv does too ("vxlan: Pull inner IP header
                                         in vxlan_rcv()", 2024; 6.1.192 has it, Debian's
                                         5.10.0-46 not: live) */
    CSC_E_HOP_CALIPSO,                /* ipv6_hop_calipso takes hop-by-hop option 7 (v4.8);
                                         before, an unknown option, skipped */
    CSC_E_HOP_IOAM,                   /* ipv6_hop_ioam takes option 0x31 (v5.15) */
    CSC_E_HOP_JUMBO_ONE_COUNT,        /* a refused jumbo option counts Ip6InHdrErrors once
                                         (ip6_rcv_core); the 5.10 VM kernel's ipv6_hop_jumbo
                                         counts it too (twice: not modelled) */
    CSC_E_GRE_RX_DROPPED,             /* gre_rcv (ip_gre.c, ip6_gre.c, gre_demux.c) counts
                                         its drops in the receiving device's rx_dropped
                                         (6.12.118 lacks, 7.2.13 has) */
    CSC_E_TCP_GRO_CWR_IN_FLAGS,       /* tcp_gro_receive: a CWR difference flushes ("gro:
                                         prevent ACE field corruption & better AccECN
                                         handling"; 6.12.118 lacks it, 6.18.44 and 7.2.13 have it) */
    CSC_E_TCP_GRO_CWR_NO_FLUSH,       /* tcp_gro_receive: a CWR segment no longer flushes
                                         by itself ("gro: flushing when CWR is set
                                         negatively affects AccECN"; 6.18.44 lacks it, 7.2.13 has it) */
    CSC_E_GRO_NETWORK_FLUSH,          /* GRO's L3 checks in tcp_gro_receive
                                         (gro_receive_network_flush, inet_gro_flush): the
                                         outermost and innermost IP header only, one
                                         ip_fixedid per held packet (v6.10; 6.12.118 has,
                                         6.1.192 has inet_gro_receive's flush_id/is_atomic) */
    CSC_E_GRO_FIXEDID_DF,             /* inet_gro_receive: a DF header may keep a fixed ID
                                         (is_atomic), every header's ID checked ("GRO: Add
                                         support for TCP with fixed IPv4 ID field, limit
                                         tunnel IP ID values", v4.7); before, only the
                                         innermost IPv4 header's, always +1 a segment */
    CSC_E_GRO_FIXEDID_PER_HEADER,     /* inet_gro_flush: a fixed ID with or without DF, one
                                         ip_fixedid bit per header, the outer one checked
                                         with DF too (7.2.13 and the host's 6.18.44
                                         have, 6.12.118 lacks) */
    CSC_E_IP6_FRAG_PROB_KILLS,        /* ip6_frag_queue's parameter problems (an end past
                                         IPV6_MAXPLEN, a non-last end not a multiple of 8)
                                         kill the queue too (7.2.13 has; 6.12.118 and the
                                         host's 6.18.44 keep it) */
    CSC_E_GRO_RECURSION_LIMIT,        /* gro_recursion_inc_test: 15 nested gro_receive calls
                                         flush ("net: add recursion limit to GRO", v4.9;
                                         before, a stack of VLAN tags recursed without end) */
    CSC_E_PRIO_TAG_DEPTH_LIMIT,       /* __netif_receive_skb_core's check_vlan_id loop strips
                                         at most VLAN_MAX_DEPTH (8) VID-0 priority tags: a
                                         ninth tag after eight is dropped, rx_dropped,
                                         UNHANDLED_PROTO ("net: limit priority VLAN untag
                                         depth": 6.12.118 and the host's 6.18.44 have,
                                         6.1.192 and 7.2.13 lack) */
    CSC_E_TCP_AUTH_OPTS,              /* tcp_inbound_hash's tcp_do_parse_auth_options (v6.7):
                                         a malformed option refused (TCP_AUTH_HDR); before,
                                         tcp_parse_md5sig_option ignored it (6.1.192) */
    CSC_E_TCP_AO,                     /* CONFIG_TCP_AO in Debian's build (7.2.13; not 6.12.118,
                                         nor the host's 6.18.44): the options walked while 5
                                         bytes remain, not 18, and an AO option with no key
                                         refused (TCPAOKeyNotFound) */
    CSC_E_GENEVE_ANY_INNER_PROTO,     /* geneve_udp_encap_recv no longer drops a protocol
                                         other than TEB, IPv4, IPv6 before the device
                                         lookup (silent): 6.12.117 lacks the check,
                                         6.1.192 and the 5.10 VM kernel have it */
    CSC_E__COUNT
};

#define CSC_ERA_BIT(s) (UINT64_C(1) << (s))

struct csc_era {
    const char *name;
    uint64_t sw;             /* CSC_ERA_BIT(enum csc_era_switch) set */
};

/* The GRE tunnel's configured checksum flag (ip_tunnel_parm i_flags & TUNNEL_CSUM) */
enum csc_gre_csum {
    CSC_GRE_CSUM_PACKET = 0, /* follow the packet: a tunnel with and one without */
    CSC_GRE_CSUM_ON,         /* icsum: a packet without the C bit is dropped */
    CSC_GRE_CSUM_OFF,        /* a packet with the C bit is dropped */
    CSC_GRE_CSUM__COUNT
};

struct csc_port {
    uint16_t port;
    uint8_t proto;           /* CSC_P_VXLAN, _VXLAN_GPE, _GENEVE, _GUE, _FOU, _L2TP, ... */
    uint8_t fou_ipproto;     /* FOU: protocol of the payload (4, 41, 47) */
};

struct csc_config {
    struct csc_report rx;
    struct csc_era era;
    bool gro_nic;            /* GRO on the receiving device */
    bool gro_tunnel;         /* GRO on tunnel devices (gro_cells) */
    bool remcsum_rx;         /* VXLAN remcsumrx / GUE remcsum accepted */
    bool remcsum_rx_given;   /* the VXLAN device was created with remcsumrx or
                                noremcsumrx given explicitly: from v6.14 the RCO
                                bits are then configured, not reserved */
    bool remcsum_nopartial;  /* VXLAN_F_REMCSUM_NOPARTIAL / FOU_F_REMCSUM_NOPARTIAL */
    bool udp6_zero_csum_rx;  /* udp6zerocsumrx / no_check6_rx (VXLAN, GENEVE, L2TP;
                                FOU/GUE sockets always accept a zero checksum) */
    bool geneve_external;    /* the GENEVE device is `external` (collect_md, as OVS and
                                OVN make it; the default): critical options are kept as
                                metadata, and it has no IPv6 remote, so its socket
                                accepts zero UDP6 checksums (v4.12+). False: a device
                                with a remote (`ip link add ... type geneve id N remote`) */
    bool geneve_inner_proto_inherit; /* GENEVE `innerprotoinherit`: a protocol other
                                than Ethernet (TEB) is accepted */
    uint8_t gre_csum;        /* enum csc_gre_csum */
    bool inner_socket;       /* inner L4 has a listening socket */
    bool route_localnet;     /* net.ipv4.conf.*.route_localnet: 127/8 routed, not a martian
                                (default false; --live's receiver sets it) */
    bool ipv6_mip6;          /* the kernel is built with CONFIG_IPV6_MIP6 (Debian's, most
                                distributions'): ipv6_rthdr_rcv drops routing type 2
                                (default true; a kernel without it: false) */
    bool vlan_8021q;         /* the kernel is built with CONFIG_VLAN_8021Q (y or m): its
                                built-in vlan_core registers the 802.1Q/802.1ad GRO handler
                                (vlan_offload_init: vlan_gro_receive). Default true
                                (Debian's kernels); false: a tagged frame gets no GRO pass */
    bool rx_capture;         /* an AF_PACKET capture runs on the receiving device: its clone
                                of the skb makes gro_cells_receive hand the decapsulated
                                packet to netif_rx, no GRO pass at the tunnel device
                                (default false) */
    bool rx_llc;             /* the receiver has an 802.2 packet handler (llc_rcv: the llc
                                module, built in or loaded with bridge/stp): an inner frame
                                with an 802.3 length is taken silently, not rx_dropped
                                (default false: Debian's stock kernels load none) */
    bool dev_mac_known;      /* dev_mac is the address of the receiver's VXLAN and GENEVE
                                devices: a decapsulated frame whose inner source MAC is it is
                                dropped (vxlan_set_mac LOCAL_MAC; geneve_rx rx_errors).
                                Default false: the model takes the inner source for another
                                host's, as the kernel harnesses' frames are (they set it) */
    uint8_t dev_mac[6];
    bool mc_only_all_hosts;  /* the receiver joined no IPv4 multicast group but the all-hosts
                                group 224.0.0.1 every interface joins, and forwards no
                                multicast (the kernel harnesses' namespace): a datagram to
                                another group is dropped by ip_route_input_rcu. Default false:
                                group membership unknown, the replay says unknown */
    bool assume_bad;         /* uncaptured checksums: assume bad (default good) */
    bool trace_steps;        /* record csc_kernel.steps (default true) */
    uint8_t l2tp_cookie_len; /* L2TPv3 cookie: 0, 4 or 8 bytes (default 0) */
    uint8_t l2tp_l2spec_len; /* L2TPv3 L2-specific sublayer: 0, 4, or CSC_L2TP_L2SPEC_AUTO
                                (the default): chosen per frame from the bytes, the layer
                                noted CSC_N_L2SPEC_GUESSED */
    bool guess_direction;    /* a frame nothing else places is "probably sent" when its
                                outermost checksum is a partial (default true) */
    const struct csc_local_set *local;   /* this host's addresses; NULL: none */
    bool replay_sent;        /* a sent frame is replayed as received too (--replay-sent);
                                default false: it gets its TX view (csc_tx) and no replay */
    uint8_t via;             /* enum csc_via: what the capture's interface is when the front
                                end knows (--iface-kind); loopback is also seen per frame */
    uint8_t nports;
    struct csc_port ports[CSC_MAX_PORTS];
};

/* ------------------------------------------------------------------ */
/* Replay output */
enum csc_ip_summed {
    CSC_CHECKSUM_NONE = 0, CSC_CHECKSUM_UNNECESSARY, CSC_CHECKSUM_COMPLETE, CSC_CHECKSUM_PARTIAL,
    CSC_CHECKSUM__COUNT
};

/* SENT: the frame was sent by the capturing host; it is not replayed through
 * the receive path (csc_kernel.ran 0) and has a TX view instead (csc_tx) */
enum csc_kverdict { CSC_K_ACCEPT = 0, CSC_K_DROP, CSC_K_UNKNOWN, CSC_K_SENT, CSC_K__COUNT };

/* nstat counter names (csc_counter_name) */
enum csc_counter {
    CSC_C_IP_IN_CSUM_ERRORS = 0, CSC_C_IP_IN_HDR_ERRORS, CSC_C_IP_IN_TRUNCATED,
    CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS, CSC_C_UDP_NO_PORTS,
    CSC_C_UDP6_IN_CSUM_ERRORS, CSC_C_UDP6_IN_ERRORS, CSC_C_UDP6_NO_PORTS,
    CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS,
    CSC_C_ICMP_IN_CSUM_ERRORS, CSC_C_ICMP_IN_ERRORS,
    CSC_C_ICMP6_IN_CSUM_ERRORS, CSC_C_ICMP6_IN_ERRORS,
    CSC_C_IP6_IN_HDR_ERRORS, CSC_C_IP6_IN_TRUNCATED,
    CSC_C_DEV_RX_ERRORS, CSC_C_DEV_RX_CRC_ERRORS, CSC_C_DEV_RX_FRAME_ERRORS,
    CSC_C_DEV_RX_DROPPED,
    CSC_C_IP_IN_UNKNOWN_PROTOS, CSC_C_IP6_IN_UNKNOWN_PROTOS,
    CSC_C_DEV_RX_FIFO_ERRORS,
    CSC_C_DEV_RX_LENGTH_ERRORS,
    CSC_C_IP6_IN_ADDR_ERRORS,
    CSC_C_NIC_RX_DROPPED,    /* the receiving device's (the NIC's) rx_dropped */
    CSC_C__COUNT
};

/* Why GRO did not hold a frame for merging */
enum csc_gro_reason {
    CSC_G_NONE = 0,          /* held: eligible to merge */
    CSC_G_OFF,               /* GRO disabled on the device */
    CSC_G_IP_OPTIONS,        /* inet_gro_receive: ihl != 5 */
    CSC_G_IP_FRAGMENT,
    CSC_G_IP_CSUM,           /* inet_gro_receive: bad header checksum */
    CSC_G_IP_LEN,            /* tot_len != gro len */
    CSC_G_CSUM_FAIL,         /* a GRO checksum validation failed */
    CSC_G_UDP_GATE,          /* udp_gro_receive: tunnel GRO refused (csum gate) */
    CSC_G_ENCAP_MARK,        /* tunnel under tunnel in one GRO pass */
    CSC_G_NOT_TUNNEL,        /* plain UDP, no UDP GRO socket */
    CSC_G_RCO_NO_CSUM,       /* RCO needs a NAPI csum */
    CSC_G_GRE_FLAGS,         /* GRE version/flags not aggregatable */
    CSC_G_GRE_CSUM_FOU,      /* GRE checksum under FOU/GUE */
    CSC_G_NO_HANDLER,        /* protocol without a GRO handler */
    CSC_G_CSUM_BAD,          /* skb->csum_bad set (3.18-4.12) */
    CSC_G_TRUNCATED,         /* capture ends before GRO could decide */
    CSC_G_TUNNEL_FLAGS,      /* a tunnel header GRO does not aggregate (GENEVE version
                                or OAM, GUE version/control/flags) */
    CSC_G_TCP_FLAGS,         /* TCP flags force a flush (tcp_gro_receive) */
    CSC_G_UDP_ENCAP,         /* 2024: encapsulation on a non-tunnel UDP */
    CSC_G_TCP_NO_PAYLOAD,    /* tcp_gro_receive: len < mss (a bare ACK) */
    CSC_G_NETIF_RX,          /* the tunnel device hands the packet to netif_rx: no GRO
                                pass (sit; ip6tnl/ip6gre up to v4.6, VXLAN up to v4.2) */
    CSC_G_IP_FLAGS,          /* inet_gro_receive: a frag_off bit other than DF (the
                                reserved bit) */
    CSC_G_RECURSION,         /* gro_recursion_inc_test: the 15th nested gro_receive call
                                (a stack of VLAN tags) is refused */
    CSC_G__COUNT
};

enum csc_kstep_fn;  /* kernel function ids, see csc_fn_name() */

struct csc_skb_state {
    uint8_t ip_summed, csum_level, csum_valid, csum_bad;
};

struct csc_cb_state {
    uint8_t csum_cnt, csum_valid, flush, encap_mark;
};

/* One step of the replay trace: a kernel function acting on one layer */
struct csc_step {
    uint8_t dev;             /* index into csc_kernel.devs */
    uint8_t path;            /* enum csc_path */
    uint8_t layer;           /* layer index, CSC_NO_LAYER for the frame */
    uint8_t fn;              /* kernel function id (csc_fn_name) */
    uint8_t what;            /* enum csc_method or action id (csc_what_name) */
    uint8_t ok;              /* enum csc_tri (undecided: an action, not a check) */
    uint16_t pad;
    uint32_t bytes;          /* software pass bytes, 0 if none */
    struct csc_skb_state before, after;
    struct csc_cb_state cb;  /* GRO control block after the step */
};

/* skb state at the entry of one device (NIC first, then tunnel devices) */
struct csc_dev {
    uint8_t kind;            /* enum csc_proto of the tunnel; CSC_P_NONE = nic */
    uint8_t layer;           /* first layer this device receives (inner L3/L2) */
    uint8_t gro_ran;         /* dev_gro_receive ran */
    uint8_t gro_reason;      /* enum csc_gro_reason (CSC_G_NONE: held) */
    uint8_t gro_layer;       /* layer where GRO decided */
    struct csc_skb_state entry;
    uint8_t gro_passes;      /* software passes in this device's GRO pass */
    uint8_t passes;          /* software passes while this device held the skb */
    uint32_t gro_pass_bytes, pass_bytes;
};

enum csc_warning {
    CSC_W_RCO_NOTHING_VERIFIED = 1u << 0,  /* RCO under a zero outer checksum */
    CSC_W_HW_CSUM_FAULT        = 1u << 1,  /* netdev_rx_csum_fault would log */
    CSC_W_NOT_MODELLED         = 1u << 2,  /* stack beyond what the model covers */
    CSC_W_ASSUMED              = 1u << 3,  /* uncaptured bytes: an assumption decided */
    CSC_W_GARBAGE_ACCEPTED     = 1u << 4,  /* a bad checksum was accepted (PARTIAL/lying dev) */
};

struct csc_kernel {
    uint8_t ran;             /* replay ran (false: no IP layer) */
    uint8_t verdict;         /* enum csc_kverdict */
    uint8_t drop_layer;      /* layer index of the drop, CSC_NO_LAYER if none */
    uint8_t drop_reason;     /* kernel drop reason id (csc_drop_name) */
    uint32_t counters;       /* 1 << enum csc_counter */
    uint32_t warnings;       /* enum csc_warning bits */
    uint8_t sw_passes;
    uint8_t ndevs;
    uint8_t nsteps;
    uint8_t last_layer;      /* deepest layer the replay reached */
    uint8_t trace_truncated; /* more steps happened than CSC_MAX_STEPS hold */
    uint8_t reasm_dev;       /* on a frame that completed a datagram (csc_frag_feed): the
                                index its devices beyond the NIC start at; CSC_NO_DEV on
                                every other frame */
    uint32_t sw_bytes;
    uint32_t hdr_bytes;      /* header-sized csum_partial work (postpulls...) */
    struct csc_dev devs[CSC_MAX_DEVS];
    struct csc_step steps[CSC_MAX_STEPS];
};

/* Breakpoint sums from the single pass over the bytes (verify) */
#define CSC_MAX_ENDS 32
struct csc_sums {
    uint16_t n;              /* number of breakpoints */
    uint16_t npieces;        /* pieces summed: [bp[0], bp[npieces]) was captured */
    uint16_t nends;          /* decode: region ends and other out-of-order points */
    uint32_t bp[CSC_MAX_BREAKS];  /* decode: header edges, ascending; verify: all, sorted */
    uint32_t ends[CSC_MAX_ENDS];  /* decode: the other points, each once */
    uint8_t at[CSC_MAX_LAYERS];   /* decode: bp index of each layer's first byte, where the
                                     verifier looks first (speed only; checked before use) */
    uint32_t prefix[CSC_MAX_BREAKS]; /* sum of [bp[0], bp[i]), aligned to bp[0] */
    uint32_t bytes_summed;
};

/* The TX view of a sent frame (core/tx.c, docs/direction.md): what the stack
 * left for the NIC and what the NIC puts on the wire. A sent frame was
 * captured before the NIC (dev_queue_xmit_nit): a CHECKSUM_PARTIAL field
 * holds the pseudo-header seed the NIC completes from csum_start; an outer
 * checksum computed by LCO is right once it has; a GSO super-packet is cut
 * into segments, each with its own checksums. */
#define CSC_TX_MAX 4
enum csc_tx_kind {
    CSC_TX_PARTIAL = 1,      /* a seed the NIC completes (CHECKSUM_PARTIAL at this layer) */
    CSC_TX_GSO,              /* a seed of a super-packet: completed per segment */
    CSC_TX_LCO,              /* computed by the stack (lco_csum): the wire carries it as is */
    CSC_TX__COUNT
};
enum csc_mss_from { CSC_MSS_NONE = 0, CSC_MSS_OPTION, CSC_MSS_MTU, CSC_MSS__COUNT };
struct csc_tx_csum {
    uint8_t layer;           /* the layer whose checksum it is */
    uint8_t kind;            /* enum csc_tx_kind */
    uint8_t wire_known;      /* wire holds what the NIC writes (partial, bytes captured) */
    uint8_t pad;
    uint16_t field;          /* what the stack left in the field */
    uint16_t wire;           /* what the wire carries: the checksum the NIC writes (partial),
                                the field as it is (lco) */
    uint32_t csum_start;     /* partial, gso: skb->csum_start as a frame offset (the layer's) */
    uint16_t csum_offset;    /* the field's offset from csum_start */
};
/* What a receiver's kernel does with the wire frame (--peer-rx; filled by the
 * front end, which replays the frame csc_tx_wire() wrote) */
struct csc_tx_peer {
    uint8_t ran;             /* the wire frame was replayed */
    uint8_t verdict;         /* enum csc_kverdict */
    uint8_t drop_layer;      /* a layer of this result (the same offsets), CSC_NO_LAYER */
    uint8_t drop_reason;     /* csc_drop_name */
    uint8_t not_why;         /* not replayed: enum csc_tx_peer_not */
    uint32_t counters;       /* 1 << enum csc_counter */
    uint32_t warnings;       /* enum csc_warning bits */
};
/* Why a sent frame's wire frame was not replayed (--peer-rx; none: it was, or not asked) */
enum csc_tx_peer_not { CSC_TXP_NONE = 0, CSC_TXP_GSO, CSC_TXP_SNAPLEN, CSC_TXP__COUNT };
struct csc_tx {
    uint8_t sent;            /* the frame was sent (direction out): this view stands for the
                                replay (csc_config.replay_sent: the replay ran as well) */
    uint8_t n;               /* entries in c */
    uint8_t gso;             /* a GSO super-packet (segs, mss) */
    uint8_t mss_from;        /* enum csc_mss_from */
    uint16_t segs, mss;
    struct csc_tx_csum c[CSC_TX_MAX];
    struct csc_tx_peer peer;
};

struct csc_frame {
    const uint8_t *data;
    uint32_t caplen;         /* bytes present in data */
    uint32_t wirelen;        /* bytes on the wire */
    uint8_t link;            /* enum csc_link */
    uint8_t direction;       /* enum csc_direction: the capture's packet flags (pcapng) */
};

struct csc_result {
    uint8_t nlayers;
    uint8_t stop;            /* enum csc_stop */
    uint8_t stop_proto;      /* protocol being decoded when it stopped (for an unknown
                                payload: the layer whose field named it) */
    uint8_t worst;           /* worst raw verdict (csc_verdict_rank) */
    uint32_t stop_off;       /* that protocol's offset */
    uint32_t stop_value;     /* with stop_has_value: the EtherType, IP protocol, ... */
    uint8_t stop_has_value;
    uint8_t stop_layer;      /* the layer that carries the stop: the last one decoded
                                when decoding ended (CSC_NO_LAYER: none) */
    uint8_t stop_opt;        /* enum csc_stop_opt (needs-option) */
    uint8_t stop_opt_proto;  /* CSC_SO_PORT: the protocol whose port option it is */
    uint8_t stop_reasm;      /* decoding stopped inside a reassembled datagram (csc_frag_feed):
                                stop_off is an offset in that datagram */
    uint8_t direction;       /* enum csc_direction, as csc_direction() decided */
    uint8_t dir_from;        /* enum csc_dir_from: what decided it */
    uint8_t pkttype;         /* the cooked header's packet type, CSC_NO_PKTTYPE: none */
    uint8_t via;             /* enum csc_via: the frame's, or loopback seen in it */
    uint8_t gso_segs_known;
    uint16_t gso_segs;       /* segments a NIC would cut (partial/gso) */
    uint8_t ip_fragment;     /* the decoder marked an IP layer CSC_N_FRAGMENT: without it,
                                csc_frag_feed has nothing to do (no walk over the layers) */
    struct csc_layer layers[CSC_MAX_LAYERS];
    /* Per layer, the bytes of its struct csc_layer that hold values (bit i:
     * byte i): fields the decoder and the verifier filled that only the
     * outputs and the checksum arithmetic read, never a branch of the model
     * (ports, sequence numbers, identifiers, address sums, checksum values).
     * The replay sees them as zero, and the memo and the fast path leave them
     * out of their keys (core/values.h). */
    uint64_t values[CSC_MAX_LAYERS][2];
    struct csc_sums sums;
    struct csc_kernel kernel;
    struct csc_tx tx;        /* csc_tx(): the TX view of a sent frame */
};

/* ------------------------------------------------------------------ */
/* API */

/* Defaults: report none, GRO on everywhere, era modern, standard ports. */
void csc_config_default(struct csc_config *cfg);

/* Add or replace a UDP port mapping; false when the table is full. */
bool csc_config_set_port(struct csc_config *cfg, uint16_t port, uint8_t proto, uint8_t fou_ipproto);
void csc_config_clear_ports(struct csc_config *cfg, uint8_t proto);

/* Parse "none", "unnecessary:L", "complete", "partial:outer|inner|S:O",
 * "outer-l4", "tunnel-l4", "virtual". Returns false on an unknown value. */
bool csc_report_parse(const char *s, struct csc_report *out);
/* Render a report back to the same syntax; returns buf. */
const char *csc_report_format(const struct csc_report *r, char *buf, size_t len);

/* Era presets: "pre-part-vi", "3.18", "4.0", "4.6", "4.13", "4.20", "5.12", "modern"
 * (docs/eras.md). */
bool csc_era_by_name(const char *name, struct csc_era *out);
size_t csc_era_count(void);
const struct csc_era *csc_era_at(size_t i);
const char *csc_era_description(const char *name);

/* Map a pcap LINKTYPE_ or DLT_ number to enum csc_link. */
enum csc_link csc_link_from_linktype(uint32_t linktype);

/* The whole pipeline for one frame: decode, verify, replay. */
void csc_analyze(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out);

/* Stages, for tests and tools that want only part of it. */
void csc_decode(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out);
void csc_verify(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out);
void csc_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out);
/* The frame's direction (after csc_verify: the guess reads the verdicts): the
 * capture's flags, the cooked header's packet type, loopback, this host's
 * addresses, then the guess (docs/direction.md). */
void csc_direction(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out);

/* The TX view of a sent frame (after csc_direction and csc_verify; csc_analyze
 * calls it): r->tx from the verdicts. Not sent: r->tx.sent 0 and nothing else. */
void csc_tx(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r);
/* The frame as the NIC puts it on the wire (a sent frame that is not a GSO
 * super-packet, every byte captured): f copied into out with each partial
 * field completed. Returns the bytes written, 0 when there is no such frame
 * (r->tx.peer.not_why says why). */
size_t csc_tx_wire(const struct csc_frame *f, struct csc_result *r, uint8_t *out, size_t cap);

/* "10.0.0.1", "2001:db8::1" or "02:00:00:00:00:01" into set; false when the
 * word is none of them or the set is full. */
bool csc_local_add(struct csc_local_set *set, const char *word);
/* The same word back (inet_ntop's form; a MAC in lower case); returns buf. */
const char *csc_local_format(const struct csc_local_addr *a, char *buf, size_t len);

/* Sum of [a, b) from the breakpoint sums; false if not computable. */
bool csc_region_sum(const struct csc_result *r, uint32_t a, uint32_t b, uint32_t *sum);

/* Ranking used for the frame's worst verdict (higher is worse). */
int csc_verdict_rank(enum csc_verdict v);

/* The protocol's row (never NULL; an unknown p gives the row of CSC_P_NONE). */
const struct csc_proto_desc *csc_proto_desc(unsigned p);
/* A tunnel header: what follows it is an encapsulated packet or frame. */
bool csc_proto_is_tunnel(unsigned p);
/* No socket listens on the row's port for this family unless configured: a
 * FOU-only encapsulation (CSC_PF_UNBOUND_PORT), or over IPv6 a tunnel whose
 * socket is AF_INET only (CSC_PF_SOCKET_IPV4). */
bool csc_proto_port_unbound(unsigned p, bool v6);

/* The identifier a layer's header carries (VNI, GRE key, L2TP session, GTP
 * TEID, VLAN id, MPLS label, ...; CSC_PF_ID), 0 when it has none. */
uint32_t csc_layer_id(const struct csc_layer *l);
/* The addresses of an IP layer's header (not the ones a Home Address or
 * routing header put in the pseudo-header), read through the bounds-checked
 * accessors: ip_proto and addr_off are the layer's proto and u.ip.addr_off;
 * 4 (IPv4) or 16 (IPv6) bytes into src and dst; returns that length, 0 when
 * the layer is not IP or the bytes were not captured. */
unsigned csc_ip_addresses(const struct csc_frame *f, unsigned ip_proto, uint32_t addr_off,
                          uint8_t src[16], uint8_t dst[16]);

/* Names: stable strings of the JSON contract. Never NULL. */
const char *csc_proto_name(unsigned p);
const char *csc_verdict_name(unsigned v);
const char *csc_reason_name(unsigned r);
const char *csc_stop_name(unsigned s);
/* A stop that needs action: any but end and fragment (a non-first fragment
 * has no L4 header by design). */
bool csc_stop_is_finding(unsigned s);
/* The stop of a result on its own (what a front end keeps of it). */
struct csc_stop_info {
    uint32_t off, value;
    uint8_t reason;          /* enum csc_stop */
    uint8_t proto, layer, has_value, opt, opt_proto, reasm;   /* as in csc_result */
};
void csc_stop_get(const struct csc_result *r, struct csc_stop_info *out);
/* The receiver option a needs-option stop names, as the CLI spells it without
 * the dashes ("vxlan-port", "l2tp-cookie-len"), and the plugin preference
 * ("vxlan_ports", "l2tp_cookie_len"); NULL for any other stop. */
const char *csc_stop_option(const struct csc_stop_info *s);
const char *csc_stop_pref(const struct csc_stop_info *s);
/* The stop in one short line, the same for every face: "truncated tcp@54",
 * "unknown-ethertype 0x8200 gre@34", "needs-option --vxlan-port 8472 udp@34";
 * "" for end. An offset in a reassembled datagram reads "reasm+N".
 * Returns buf (always terminated when len > 0). */
const char *csc_stop_describe(const struct csc_stop_info *s, char *buf, size_t len);
const char *csc_method_name(unsigned m);
const char *csc_path_name(unsigned p);
const char *csc_ip_summed_name(unsigned s);
const char *csc_kverdict_name(unsigned v);
const char *csc_counter_name(unsigned c);
const char *csc_gro_reason_name(unsigned g);
const char *csc_fn_name(unsigned fn);
const char *csc_what_name(unsigned what);
const char *csc_drop_name(unsigned d);
unsigned csc_drop_count(void);            /* drop reason ids are 0 .. count-1 */
const char *csc_warning_name(unsigned bit_index);
const char *csc_note_name(unsigned bit_index);
const char *csc_dev_name(unsigned kind);   /* "nic", "vxlan", "gre", ... */
const char *csc_report_kind_name(unsigned k);
const char *csc_tri_name(unsigned t);      /* "failed", "ok", "not decided" */
const char *csc_gre_csum_name(unsigned g); /* "packet", "on", "off" */
const char *csc_direction_name(unsigned d);  /* "unknown", "in", "out" */
const char *csc_dir_from_name(unsigned f);   /* "none", "capture", "pkttype", "loopback", ... */
const char *csc_via_name(unsigned v);        /* "nic", "loopback", "virtual" */
const char *csc_pkttype_name(unsigned t);    /* "host", "broadcast", ..., "outgoing" */
const char *csc_tx_kind_name(unsigned k);    /* "partial", "gso", "lco" */
const char *csc_mss_from_name(unsigned m);   /* "none", "option", "mtu" */
const char *csc_tx_peer_not_name(unsigned n);/* "none", "gso", "snaplen" */

const char *csc_version(void);

#ifdef __cplusplus
}
#endif
#endif
