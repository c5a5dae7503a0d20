/*
 * wire.h - numbers that appear on the wire, each named once: EtherTypes,
 * IP protocol numbers, header flags and fixed header sizes. Internal to
 * core/; the decoders (proto/), the replay (replay/), frag.c and
 * gro_engine.c all read them from here. Names follow the Linux headers
 * (include/uapi/linux/if_ether.h, in.h, ip.h, tcp.h, include/net/gre.h,
 * vxlan.h, gue.h, v6.12) with a trailing underscore where libc has the same
 * name, so the two can never clash.
 */
#ifndef CSC_WIRE_H
#define CSC_WIRE_H

/* ---- EtherTypes (if_ether.h) ---- */
#define ETH_P_IP        0x0800
#define ETH_P_ARP       0x0806
#define ETH_P_TEB       0x6558   /* transparent Ethernet bridging: GRE/GENEVE carry Ethernet */
#define ETH_P_8021Q     0x8100
#define ETH_P_8021AD    0x88a8
#define ETH_P_QINQ1     0x9100
#define ETH_P_IPV6      0x86dd
#define ETH_P_PPP       0x880b
#define ETH_P_MPLS_UC   0x8847
#define ETH_P_MPLS_MC   0x8848
#define ETH_P_PPP_SES   0x8864
#define ETH_P_ERSPAN    0x88be
#define ETH_P_ERSPAN3   0x22eb
#define ETH_P_NSH       0x894f
#define ETH_P_WCCP      0x883e
#define ETH_P_CMD       0x8909
#define ETH_P_802_3_MIN 0x0600   /* below: an 802.3 length, LLC follows */
#define ETH_HLEN        14
#define ETH_DATA_LEN    1500     /* the MTU assumed where a segment names no MSS */

/* ---- IP protocol numbers (in.h, in6.h) ---- */
#define IPPROTO_HOPOPTS_ 0
#define IPPROTO_ICMP_    1
#define IPPROTO_IGMP_    2
#define IPPROTO_IPIP_    4
#define IPPROTO_TCP_     6
#define IPPROTO_UDP_     17
#define IPPROTO_IPV6_    41
#define IPPROTO_ROUTING_ 43
#define IPPROTO_FRAG_    44
#define IPPROTO_GRE_     47
#define IPPROTO_AH_      51
#define IPPROTO_ICMPV6_  58
#define IPPROTO_NONE_    59
#define IPPROTO_DSTOPTS_ 60
#define IPPROTO_L2TP_    115
#define IPPROTO_MPLS_    137

/* ---- IPv4 (ip.h) ---- */
#define IPV4_HLEN       20       /* header without options (ihl 5) */
#define IPV4_IHL_MIN    5
#define IP_DF           0x4000   /* frag_off: don't fragment */
#define IP_MF           0x2000   /* frag_off: more fragments */
#define IP_OFFSET       0x1fff   /* frag_off: offset in 8-byte units */
#define IP_FRAG_UNIT    8

/* ---- IPv6 (ipv6.h) ---- */
#define IPV6_HLEN       40
#define IPV6_FLOWLABEL_MASK 0x000fffffu   /* of the first 32-bit word */
#define IP6_OFFSET      0xfff8   /* fragment header frag_off: offset << 3 */
#define IP6_OFFSET_SHIFT 3
#define IP6_MF          0x0001
#define IP6_FRAG_RES    0x0006   /* reserved bits between offset and M */
#define IPV6_TLV_PAD1   0x00
#define IPV6_TLV_JUMBO  0xc2
#define IPV6_TLV_HAO    0xc9     /* Home Address option (RFC 6275 §6.3) */
#define IPV6_SRCRT_TYPE_0 0
#define IPV6_SRCRT_TYPE_2 2
#define IPV6_SRCRT_TYPE_4 4      /* segment routing header */

/* ---- UDP, TCP (udp.h, tcp.h) ---- */
#define UDP_HLEN        8
#define UDP_CSUM_OFF    6        /* offsetof(struct udphdr, check) */
#define TCP_HLEN        20       /* header without options (doff 5) */
#define TCP_CSUM_OFF    16       /* offsetof(struct tcphdr, check) */
#define TCP_FIN         0x01
#define TCP_SYN         0x02
#define TCP_RST         0x04
#define TCP_PSH         0x08
#define TCP_ACK         0x10
#define TCP_URG         0x20
#define TCP_ECE         0x40
#define TCP_CWR         0x80
#define TCPOPT_EOL      0
#define TCPOPT_NOP      1
#define TCPOPT_MSS      2
#define TCPOLEN_MSS     4

/* ---- the Internet checksum field ---- */
#define CSUM_LEN        2        /* sizeof(__sum16) */

/* ---- ICMP (icmp.h, icmpv6.h): the error types that quote a packet ---- */
#define ICMP_HLEN             8
#define ICMP_DEST_UNREACH     3
#define ICMP_SOURCE_QUENCH    4
#define ICMP_REDIRECT         5
#define ICMP_TIME_EXCEEDED    11
#define ICMP_PARAMETERPROB    12
#define ICMPV6_DEST_UNREACH   1
#define ICMPV6_PARAMPROB      4   /* 1..4: the ICMPv6 error messages */

/* ---- GRE (include/net/gre.h; the flags word in host order) ---- */
#define GRE_HLEN        4
#define GRE_C           0x8000   /* checksum present */
#define GRE_R           0x4000   /* routing present (RFC 1701; never decapsulated) */
#define GRE_K           0x2000   /* key present */
#define GRE_S           0x1000   /* sequence number present */
#define GRE_A           0x0080   /* acknowledgment present (version 1, PPTP) */
#define GRE_VERSION     0x0007
#define GRE_VERSION_0   0
#define GRE_VERSION_1   1        /* enhanced GRE (PPTP) */

/* ---- VXLAN (include/net/vxlan.h; the flags word in host order) ---- */
#define VXLAN_HLEN      8
#define VXLAN_HF_VNI    0x08000000u
#define VXLAN_HF_RCO    0x00200000u
#define VXLAN_HF_GBP    0x80000000u
#define VXLAN_RCO_MASK  0x7f     /* low byte of the VNI word: start / 2 */
#define VXLAN_RCO_UDP   0x80     /* the covered checksum is UDP's (else TCP's) */
#define VXLAN_RCO_SHIFT 1
#define VXLAN_VNI_SHIFT 8        /* the VNI is the top 24 bits of its word */

/* ---- VXLAN-GPE (draft-ietf-nvo3-vxlan-gpe) ---- */
#define VXLAN_GPE_O     0x01     /* OAM */
#define VXLAN_GPE_P     0x04     /* next protocol present */
#define VXLAN_GPE_NP_IPV4 1
#define VXLAN_GPE_NP_IPV6 2
#define VXLAN_GPE_NP_ETHERNET 3
#define VXLAN_GPE_NP_NSH  4
#define VXLAN_GPE_NP_MPLS 5

/* ---- GENEVE (include/net/geneve.h) ---- */
#define GENEVE_HLEN     8
#define GENEVE_OAM      0x80     /* O bit, second byte */
#define GENEVE_CRITICAL 0x40     /* C bit, second byte: critical options present */
#define GENEVE_VER_SHIFT 6
#define GENEVE_OPTLEN_MASK 0x3f  /* options, in 4-byte words */

/* ---- GUE (include/net/gue.h) ---- */
#define GUE_HLEN        4
#define GUE_VARIANT_SHIFT 6
#define GUE_CONTROL     0x20     /* C bit: a control message */
#define GUE_HLEN_MASK   0x1f     /* extension fields, in 4-byte words */
#define GUE_FLAG_PRIV   0x0001
#define GUE_PFLAG_REMCSUM 0x80000000u
#define GUE_PLEN_REMCSUM 4       /* start:16 offset:16 */

/* ---- MPLS (RFC 3032) ---- */
#define MPLS_HLEN       4
#define MPLS_LS_S       0x00000100u   /* bottom of stack */
#define MPLS_LS_LABEL_SHIFT 12

/* ---- PPP (ppp_defs.h), PPPoE (if_pppox.h) ---- */
#define PPP_IP          0x0021
#define PPP_IPV6        0x0057
#define PPP_MPLS_UC     0x0281
#define PPP_MPLS_MC     0x0283
#define PPP_ALLSTATIONS 0xff
#define PPP_UI          0x03
#define PPPOE_VER_TYPE  0x11
#define PPPOE_SES_HLEN  6        /* before the PPP protocol field */

/* ---- Linux cooked captures (if_packet.h, tcpdump.org/linktypes) ---- */
#define PACKET_OUTGOING 4
#define LINUX_SLL_P_802_3 0x0001
#define LINUX_SLL_P_802_2 0x0004

/* ---- address families of the BSD loopback header ---- */
#define BSD_AF_INET         2
#define BSD_AF_INET6_LINUX  10
#define BSD_AF_INET6_BSD    24
#define BSD_AF_INET6_FREEBSD 28
#define BSD_AF_INET6_DARWIN 30

/* ---- GTP-U (3GPP TS 29.281) ---- */
#define GTP_VERSION_1   1
#define GTP_VERSION_SHIFT 5
#define GTP_E_S_PN      0x07     /* an optional 4-byte field follows */
#define GTP_E           0x04     /* extension headers follow */
#define GTP_TPDU        0xff     /* G-PDU: carries a user packet */

/* ---- L2TP (RFC 2661, RFC 3931) ---- */
#define L2TP_T          0x8000   /* control message */
#define L2TP_L          0x4000   /* length present */
#define L2TP_S          0x0800   /* Ns, Nr present */
#define L2TP_O          0x0200   /* offset size present */
#define L2TP_VERSION_MASK 0x000f
#define L2TP_VERSION_2  2
#define L2TP_VERSION_3  3

/* ---- pcap link types (tcpdump.org/linktypes.html; DLT_ values of libpcap) ---- */
#define LINKTYPE_NULL       0
#define LINKTYPE_ETHERNET   1
#define LINKTYPE_PPP        9
#define DLT_RAW_BSD         12   /* DLT_RAW on most BSDs */
#define DLT_RAW_OPENBSD     14   /* DLT_RAW on OpenBSD */
#define LINKTYPE_PPP_HDLC   50
#define LINKTYPE_RAW        101
#define LINKTYPE_LOOP       108
#define LINKTYPE_LINUX_SLL  113
#define LINKTYPE_IPV4       228
#define LINKTYPE_IPV6       229
#define LINKTYPE_LINUX_SLL2 276

/* ---- IP version nibble ---- */
#define IP_VERSION_4    4
#define IP_VERSION_6    6

#endif
