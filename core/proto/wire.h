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

#include <stddef.h>
#include <stdint.h>

/* Header layouts are structs of byte arrays, in the manner of tcpdump's
 * nd_uint16_t headers: offsetof() gives a field's wire offset whatever the
 * host's alignment, and every read still goes through pkt.h:
 *   pkt_be16(&d->p, off + WIRE_OFF(ipv4_hdr, tot_len), &tot_len)            */
#define WIRE_OFF(hdr, field) ((uint32_t)offsetof(struct hdr, field))
#define WIRE_LEN(hdr)        ((uint32_t)sizeof(struct hdr))
#define WIRE_WORD 4u             /* header length fields that count 32-bit words */

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
#define ETH_P_NHRP      0x2001   /* GRE protocol type of NHRP (RFC 2332 over GRE, DMVPN) */
#define ETH_P_802_3_MIN 0x0600   /* below: an 802.3 length, LLC follows */
/* EtherTypes whose payload carries no packet (control protocols): the stack
 * ends there without a stop (decode.c, ethertype_is_leaf) */
#define ETH_P_RARP      0x8035
#define ETH_P_PPP_DISC  0x8863   /* PPPoE discovery */
#define ETH_P_SLOW      0x8809   /* LACP, marker, OAM */
#define ETH_P_PAE       0x888e   /* 802.1X EAPOL */
#define ETH_P_PREAUTH   0x88c7   /* 802.11i pre-authentication */
#define ETH_P_LLDP      0x88cc
#define ETH_P_MRP       0x88e3
#define ETH_P_1588      0x88f7   /* PTP */
#define ETH_P_CFM       0x8902   /* 802.1ag connectivity fault management */
#define ETH_P_FIP       0x8914   /* FCoE initialization */
#define ETH_P_LOOPBACK  0x9000   /* Ethernet configuration testing protocol */
#define ETH_P_MACSEC    0x88e5   /* 802.1AE SecTAG (macsec.c) */
#define ETH_P_CDP       0x2000   /* Cisco Discovery Protocol (over GRE as its protocol type) */
struct eth_hdr { uint8_t dst[6], src[6], type[2]; };
struct vlan_hdr { uint8_t tci[2], type[2]; };
#define ETH_HLEN        WIRE_LEN(eth_hdr)
#define ETH_P_802_3_MIN_ 0x0600  /* below: an 802.3 length, not an EtherType */
#define VLAN_HLEN       WIRE_LEN(vlan_hdr)
#define VLAN_VID_MASK   0x0fff
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
#define IPPROTO_ESP_     50
#define IPPROTO_ETHERNET_ 143    /* Ethernet in IPv6 (RFC 8986, SRv6 End.DX2) */
/* IP protocols whose payload carries no packet: the stack ends there
 * without a stop (decode.c, ipproto_is_leaf) */
#define IPPROTO_EGP_     8
#define IPPROTO_IGRP_    9
#define IPPROTO_DCCP_    33
#define IPPROTO_RSVP_    46
#define IPPROTO_EIGRP_   88
#define IPPROTO_OSPF_    89
#define IPPROTO_PIM_     103
#define IPPROTO_VRRP_    112
#define IPPROTO_SCTP_    132
#define IPPROTO_UDPLITE_ 136

/* ---- IEEE 802.11 (IEEE Std 802.11-2020 §9.2, §9.3.2.1), LLC/SNAP (IEEE 802.2) ---- */
struct wlan_hdr { uint8_t fc[2], duration[2], addr1[6], addr2[6], addr3[6], seq_ctrl[2]; };
#define WLAN_FC_VERSION     0x0003   /* frame control, little-endian */
#define WLAN_FC_TYPE_SHIFT  2
#define WLAN_FC_TYPE_MASK   0x3u
#define WLAN_FC_SUBTYPE_SHIFT 4
#define WLAN_FC_SUBTYPE_MASK 0xfu
#define WLAN_TYPE_MGMT      0
#define WLAN_TYPE_CTRL      1
#define WLAN_TYPE_DATA      2
#define WLAN_SUBTYPE_NODATA 0x4      /* null, CF-ack/poll without data */
#define WLAN_SUBTYPE_QOS    0x8
#define WLAN_FC_TO_DS       0x0100
#define WLAN_FC_FROM_DS     0x0200
#define WLAN_FC_MORE_FRAG   0x0400
#define WLAN_FC_PROTECTED   0x4000
#define WLAN_FC_ORDER       0x8000   /* with QoS: an HT control field follows */
#define WLAN_ADDR_LEN       6        /* addr4, with To DS and From DS */
#define WLAN_QOS_LEN        2
#define WLAN_HTC_LEN        4
#define WLAN_QOS_AMSDU      0x0080   /* QoS control (LE): the payload is an A-MSDU */
#define WLAN_SEQ_FRAG_MASK  0x000f   /* sequence control (LE): fragment number */
#define WLAN_CTRL_MIN_LEN   10       /* a control frame: frame control, duration, RA */
struct snap_hdr { uint8_t dsap, ssap, ctrl, oui[3], type[2]; };
#define LLC_SAP_SNAP        0xaa
#define LLC_UI              0x03
#define LLC_MIN_LEN         3        /* DSAP, SSAP, control */
#define SNAP_OUI_RFC1042    0x000000 /* encapsulated EtherType (RFC 1042) */
#define SNAP_OUI_8021H      0x0000f8 /* bridge tunnel (802.1H) */
#define ARUBA_GRE_FIRST     0x8200   /* Aruba WLAN over GRE: 0x8200, 0x8210, ... 0x8370 */
#define ARUBA_GRE_LAST      0x8370
#define ARUBA_GRE_STEP_MASK 0x000f

/* ---- IPsec (RFC 4302 AH, RFC 4303 ESP) ---- */
struct esp_hdr { uint8_t spi[4], seq[4]; };
struct ah_hdr { uint8_t nexthdr, hdrlen, reserved[2], spi[4], seq[4]; };   /* + ICV */
#define AH_HLEN_MIN     WIRE_LEN(ah_hdr)   /* Payload Len 1: no ICV (NULL integrity) */
#define AH_LEN_BIAS     2u       /* Payload Len counts 32-bit words minus 2 */

/* ---- MACsec (IEEE 802.1AE-2018 §9.3) ----
 * The SecTAG after the MACsec EtherType (the Ethernet layer holds that);
 * the bit names are Linux's (include/net/macsec.h). */
struct macsec_hdr { uint8_t tci_an, sl, pn[4]; };    /* + SCI (8) when TCI SC */
#define MACSEC_SCI_LEN      8u
#define MACSEC_TYPE_LEN     2u       /* the user data's EtherType (E=0, C=0) */
#define MACSEC_TCI_VERSION  0x80     /* V: must be 0 */
#define MACSEC_TCI_SC       0x20     /* an explicit SCI follows the PN */
#define MACSEC_TCI_E        0x08     /* encryption */
#define MACSEC_TCI_C        0x04     /* changed text: the user data is not as sent */
#define MACSEC_SL_MASK      0x3f     /* short length: the secure data's length when < 48 */
/* The ICV's length is a SecY setting the frame does not carry: 16 bytes is
 * the default (802.1AE §14: GCM-AES-128/256 and their XPN forms; Linux's
 * MACSEC_DEFAULT_ICV_LEN). Other lengths (Linux icvlen 8..32) are not told
 * from the bytes. */
#define MACSEC_ICV_LEN      16u

/* ---- IPv4 (ip.h) ---- */
struct ipv4_hdr {
    uint8_t vihl, tos, tot_len[2], id[2], frag_off[2], ttl, protocol, check[2], saddr[4], daddr[4];
};
#define IPV4_HLEN       WIRE_LEN(ipv4_hdr)   /* header without options (ihl 5) */
#define IPV4_IHL_MIN    5
#define IPV4_IHL_MASK   0x0f
#define IPV4_ADDR_LEN   4
/* IPv4 option types (include/uapi/linux/ip.h; '_': the kernel's names) */
#define IPOPT_END_      0
#define IPOPT_NOOP_     1
#define IPOPT_RR_       7
#define IPOPT_TS_       68
#define IPOPT_LSRR_     131
#define IPOPT_CIPSO_    134
#define IPOPT_SSRR_     137
#define IPOPT_RA_       148
#define IPOPT_TS_TSANDADDR_ 1    /* timestamp flags (low nibble of byte 3) */
#define IPOPT_TS_PRESPEC_   3
#define IP_DF           0x4000   /* frag_off: don't fragment */
#define IP_MF           0x2000   /* frag_off: more fragments */
#define IP_OFFSET       0x1fff   /* frag_off: offset in 8-byte units */
#define IP_FRAG_UNIT    8

/* ---- IPv6 (ipv6.h) ---- */
struct ipv6_hdr {
    uint8_t vtc_flow[4], payload_len[2], nexthdr, hop_limit, saddr[16], daddr[16];
};
struct ipv6_opt_hdr { uint8_t nexthdr, hdrlen; };   /* hop-by-hop, destination, routing: + TLVs */
struct ipv6_rt_hdr { uint8_t nexthdr, hdrlen, type, segments_left, reserved[4]; };  /* + addresses */
struct ipv6_frag_hdr { uint8_t nexthdr, reserved, frag_off[2], identification[4]; };
struct ipv6_tlv { uint8_t type, len; };             /* + len bytes of value */
#define IPV6_HLEN       WIRE_LEN(ipv6_hdr)
#define IPV6_ADDR_LEN   16
#define IPV6_EXT_UNIT   8        /* hdrlen counts 8-byte units after the first 8 */
#define IPV6_AH_UNIT    4        /* AH's counts 4-byte words after the first 8 (RFC 4302) */
#define IPV6_FLOWLABEL_MASK 0x000fffffu   /* of the first 32-bit word */
#define IP6_OFFSET      0xfff8   /* fragment header frag_off: offset << 3 */
#define IP6_OFFSET_SHIFT 3
#define IPV6_MAXPLEN_   65535    /* the largest payload without a jumbo option */
#define IP_MAX_TOT_LEN_ 65535    /* the largest IPv4 packet tot_len can name */
#define IP6_MF          0x0001
#define IP6_FRAG_RES    0x0006   /* reserved bits between offset and M */
#define IPV6_TLV_PAD1   0x00
#define IPV6_TLV_JUMBO  0xc2
#define IPV6_TLV_HAO    0xc9     /* Home Address option (RFC 6275 §6.3) */
#define IPV6_SRCRT_TYPE_0 0
#define IPV6_SRCRT_TYPE_2 2      /* Mobile IPv6 (RFC 6275 §6.4) */
#define IPV6_SRCRT_TYPE_3 3      /* RPL source route (RFC 6554) */
#define IPV6_SRCRT_TYPE_4 4      /* segment routing header */

/* ---- UDP, TCP (udp.h, tcp.h) ---- */
struct udp_hdr { uint8_t source[2], dest[2], len[2], check[2]; };
struct tcp_hdr {
    uint8_t source[2], dest[2], seq[4], ack_seq[4], doff, flags, window[2], check[2], urg_ptr[2];
};
#define UDP_HLEN        WIRE_LEN(udp_hdr)
#define UDP_CSUM_OFF    WIRE_OFF(udp_hdr, check)
#define TCP_HLEN        WIRE_LEN(tcp_hdr)    /* header without options (doff 5) */
#define TCP_CSUM_OFF    WIRE_OFF(tcp_hdr, check)
#define TCP_DOFF_SHIFT  4        /* doff: the high nibble, in 32-bit words */
#define L4_PORTS_LEN    4        /* source and destination port, first in UDP and TCP */
#define TCP_FIN         0x01
#define TCP_SYN         0x02
#define TCP_RST         0x04
#define TCP_PSH         0x08
#define TCP_ACK         0x10
#define TCP_URG         0x20
#define TCP_ECE         0x40
#define TCP_CWR         0x80
struct tcp_opt { uint8_t kind, len; };   /* + len - 2 bytes of value */
#define TCPOPT_EOL      0
#define TCPOPT_NOP      1
#define TCPOPT_MSS      2
#define TCPOLEN_MSS     4
#define TCPOPT_MD5SIG   19       /* RFC 2385 */
#define TCPOLEN_MD5SIG  18
#define TCPOPT_AO       29       /* RFC 5925 */
#define TCPOLEN_AO_HDR  4        /* kind, length, keyid, rnext_keyid */

/* ---- the Internet checksum field ---- */
#define CSUM_LEN        2        /* sizeof(__sum16) */

/* ---- ICMP (icmp.h, icmpv6.h): the error types that quote a packet ---- */
struct icmp_hdr { uint8_t type, code, checksum[2], rest[4]; };   /* IGMP and ICMPv6 alike */
#define ICMP_HLEN             WIRE_LEN(icmp_hdr)
#define ICMP_DEST_UNREACH     3
#define ICMP_SOURCE_QUENCH    4
#define ICMP_REDIRECT         5
#define ICMP_TIME_EXCEEDED    11
#define ICMP_PARAMETERPROB    12
#define ICMPV6_DEST_UNREACH   1
#define ICMPV6_PARAMPROB      4   /* 1..4: the ICMPv6 error messages */

/* ---- GRE (include/net/gre.h; the flags word in host order) ---- */
struct gre_hdr { uint8_t flags[2], protocol[2]; };   /* + checksum, key, sequence words */
#define GRE_HLEN        WIRE_LEN(gre_hdr)
#define GRE_OPT_LEN     4        /* each optional field (checksum+reserved, key, seq, ack) */
#define GRE_C           0x8000   /* checksum present */
#define GRE_R           0x4000   /* routing present (RFC 1701; never decapsulated) */
#define GRE_K           0x2000   /* key present */
#define GRE_S           0x1000   /* sequence number present */
#define GRE_A           0x0080   /* acknowledgment present (version 1, PPTP) */
#define GRE_VERSION     0x0007
#define GRE_VERSION_0   0
#define GRE_VERSION_1   1        /* enhanced GRE (PPTP) */
/* gre_demux's gre_rcv reads its "version" as skb->data[1] & 0x7f: the
 * version and the four flag bits above it below A (a reserved one set is a
 * version >= GREPROTO_MAX) */
#define GRE_DEMUX_VER   0x007f

/* ---- VXLAN (include/net/vxlan.h; the flags word in host order) ---- */
struct vxlan_hdr { uint8_t flags[4], vni[4]; };
#define VXLAN_HLEN      WIRE_LEN(vxlan_hdr)
#define VXLAN_HF_VNI    0x08000000u
#define VXLAN_HF_RCO    0x00200000u
#define VXLAN_HF_GBP    0x80000000u
#define VXLAN_RCO_MASK  0x7f     /* low byte of the VNI word: start / 2 */
#define VXLAN_RCO_UDP   0x80     /* the covered checksum is UDP's (else TCP's) */
#define VXLAN_RCO_SHIFT 1
#define VNI_SHIFT       8        /* a 24-bit VNI in the top of its word (VXLAN, GPE, GENEVE) */

/* ---- VXLAN-GPE (draft-ietf-nvo3-vxlan-gpe), NSH (RFC 8300) ---- */
struct vxlan_gpe_hdr { uint8_t flags, reserved[2], next_protocol, vni[4]; };
struct nsh_hdr { uint8_t ver_flags, ttl_len, md_type, next_protocol, spi_si[4]; };
#define NSH_HLEN_MIN    WIRE_LEN(nsh_hdr)
#define NSH_LEN_MASK    0x3f     /* ttl_len: length in 4-byte words */
#define NSH_VER_SHIFT   6
#define VXLAN_GPE_O     0x01     /* OAM */
#define VXLAN_GPE_P     0x04     /* next protocol present */
#define VXLAN_GPE_NP_IPV4 1
#define VXLAN_GPE_NP_IPV6 2
#define VXLAN_GPE_NP_ETHERNET 3
#define VXLAN_GPE_NP_NSH  4
#define VXLAN_GPE_NP_MPLS 5

/* ---- GENEVE (include/net/geneve.h) ---- */
struct geneve_hdr { uint8_t ver_optlen, flags, proto_type[2], vni[4]; };
#define GENEVE_HLEN     WIRE_LEN(geneve_hdr)
#define GENEVE_OAM      0x80     /* O bit, second byte */
#define GENEVE_CRITICAL 0x40     /* C bit, second byte: critical options present */
#define GENEVE_VER_SHIFT 6
#define GENEVE_OPTLEN_MASK 0x3f  /* options, in 4-byte words */

/* ---- GUE (include/net/gue.h) ---- */
struct guehdr { uint8_t control, proto_ctype, flags[2]; };
struct gue_remcsum { uint8_t start[2], offset[2]; };
#define GUE_HLEN        WIRE_LEN(guehdr)
#define GUE_VARIANT_SHIFT 6
#define GUE_CONTROL     0x20     /* C bit: a control message */
#define GUE_HLEN_MASK   0x1f     /* extension fields, in 4-byte words */
#define GUE_FLAG_PRIV   0x0001
#define GUE_PFLAG_REMCSUM 0x80000000u
#define GUE_PRIV_LEN    4        /* the private flags word */
#define GUE_PLEN_REMCSUM WIRE_LEN(gue_remcsum)
#define GUE_VARIANT_0   0
#define GUE_VARIANT_1   1        /* no header: IPv4 or IPv6 directly */
#define GUE_PROTO_NONE  0        /* proto_ctype 0: gue_udp_recv drops it */
/* v3.18's header (net/ipv4/fou.c, v3.18): a 4-bit version, then hlen,
 * proto_ctype and the 16-bit flags word at the same place as today's */
#define GUE_2014_VER_SHIFT 4

/* ---- MPLS (RFC 3032) ---- */
#define MPLS_HLEN       4        /* one label stack entry */
#define MPLS_LS_S       0x00000100u   /* bottom of stack */
#define MPLS_LS_LABEL_SHIFT 12

/* ---- PPP (ppp_defs.h), PPPoE (if_pppox.h) ---- */
#define PPP_IP          0x0021
#define PPP_IPV6        0x0057
#define PPP_MPLS_UC     0x0281
#define PPP_MPLS_MC     0x0283
#define PPP_ALLSTATIONS 0xff
#define PPP_UI          0x03
#define PPP_ADDR_CTRL_LEN 2      /* FF 03, which HDLC-like framing may keep */
struct pppoe_hdr { uint8_t ver_type, code, session[2], length[2], ppp_proto[2]; };
#define PPPOE_HLEN      WIRE_LEN(pppoe_hdr)
#define PPPOE_VER_TYPE  0x11
#define PPPOE_SES_HLEN  WIRE_OFF(pppoe_hdr, ppp_proto)  /* length counts from here */
#define PPP_PROTO_COMPRESSED 0x01  /* an odd first byte: a 1-byte protocol field */
#define PPP_CONTROL_MIN 0x8000   /* RFC 1661 §2: 8xxx-bxxx network control (IPCP...),
                                    cxxx-fxxx link control (LCP, PAP, CHAP): no packet */

/* ---- Linux cooked captures (if_packet.h, tcpdump.org/linktypes) ---- */
struct sll_hdr { uint8_t pkttype[2], hatype[2], halen[2], addr[8], protocol[2]; };
struct sll2_hdr {
    uint8_t protocol[2], reserved[2], ifindex[4], hatype[2], pkttype, halen, addr[8];
};
struct null_hdr { uint8_t family[4]; };
#define PACKET_OUTGOING 4        /* if_packet.h: 0 HOST .. 3 OTHERHOST, 4 OUTGOING */
#define PACKET_KERNEL 7
#define ARPHRD_LOOPBACK 772      /* if_arp.h: lo */
#define ARPHRD_NONE 0xfffe       /* if_arp.h: tun (no link header) */
#define LINUX_SLL_P_802_3 0x0001
#define LINUX_SLL_P_802_2 0x0004

/* ---- address families of the BSD loopback header ---- */
#define BSD_AF_INET         2
#define BSD_AF_INET6_LINUX  10
#define BSD_AF_INET6_BSD    24
#define BSD_AF_INET6_FREEBSD 28
#define BSD_AF_INET6_DARWIN 30

/* ---- GTP-U (3GPP TS 29.281) ---- */
struct gtp_hdr { uint8_t flags, type, length[2], teid[4]; };
struct gtp_opt { uint8_t seq[2], npdu, next_ext; };      /* present with E, S or PN */
#define GTP_HLEN        WIRE_LEN(gtp_hdr)
#define GTP_OPT_LEN     WIRE_LEN(gtp_opt)
#define GTP_VERSION_1   1
#define GTP_VERSION_SHIFT 5
#define GTP_E_S_PN      0x07     /* an optional 4-byte field follows */
#define GTP_E           0x04     /* extension headers follow */
#define GTP_TPDU        0xff     /* G-PDU: carries a user packet */

/* ---- L2TP (RFC 2661, RFC 3931) ---- */
#define L2TPV3_SESSION_LEN 4     /* the session ID (0: a control message) */
#define L2TPV3_UDP_HLEN  4       /* over UDP: flags, version, reserved first */
#define L2TP_FLAGS_LEN   2
#define L2TPV2_LENGTH_LEN 2
#define L2TPV2_IDS_LEN   4       /* tunnel ID, session ID */
#define L2TPV2_NS_NR_LEN 4
#define L2TPV2_OFFSET_LEN 2
#define L2TP_T          0x8000   /* control message */
#define L2TP_L          0x4000   /* length present */
#define L2TP_S          0x0800   /* Ns, Nr present */
#define L2TP_O          0x0200   /* offset size present */
#define L2TP_VERSION_MASK 0x000f
#define L2TP_VERSION_2  2
#define L2TP_VERSION_3  3
#define L2TPV3_L2SPEC_LEN 4      /* the default L2-specific sublayer (RFC 3931 §4.6) */
#define L2TPV3_L2SPEC_RSVD 0xbf  /* its first byte: |x|S|x|x|x|x|x|x|, x must be 0 */

/* ---- ERSPAN (draft-foschiano-erspan), Cisco MetaData, WCCP, AYIYA, Teredo ---- */
struct erspan2_hdr { uint8_t ver_vlan[2], cos_session[2], index[4]; };
struct erspan3_hdr { uint8_t ver_vlan[2], cos_session[2], timestamp[4], sgt[2], hw_o[2]; };
#define ERSPAN3_SUBHDR_LEN 8     /* platform-specific subheader when O is set */
#define ERSPAN3_O       0x01     /* last byte of the header */
#define ERSPAN_VER_SHIFT 12
#define ERSPAN_SESSION_MASK 0x03ff
struct cmd_hdr { uint8_t ethertype[2], version, length, option[2], sgt[2]; };
/* ---- NHRP (RFC 2332 §5.1) ---- */
struct nhrp_hdr {
    uint8_t afn[2], pro_type[2], pro_snap[5], hopcnt, pktsz[2], chksum[2], extoff[2];
    uint8_t op_version, op_type, shtl, sstl;
};
#define NHRP_TRAFFIC_INDICATION 8   /* Cisco: carries the packet that caused it */
#define NHRP_IND_MAND_LEN 8         /* proto lengths, code, unused: before the addresses */
#define NHRP_TL_LEN     0x3f        /* ar$shtl / ar$sstl: the length bits */
#define WCCP_REDIRECT_LEN 4      /* absent when an IPv4 header follows at once */
struct ayiya_hdr { uint8_t id_len_type, sig_len_hash, auth_opcode, next_header, epoch[4]; };
#define AYIYA_NIBBLE    4        /* IDlen/SigLen/OpCode share bytes with another field */
#define AYIYA_LOW_NIBBLE 0x0f
#define AYIYA_OP_FORWARD 1
#define AYIYA_SIG_UNIT  4        /* SigLen counts 4-byte words */
struct teredo_auth { uint8_t indicator[2], id_len, au_len; };  /* + id, auth, nonce, conf */
#define TEREDO_AUTH     0x0001   /* authentication indicator */
#define TEREDO_ORIGIN   0x0000   /* origin indication */
#define TEREDO_AUTH_HLEN WIRE_LEN(teredo_auth)
#define TEREDO_AUTH_TAIL 9       /* nonce (8) and confirmation (1) */
#define TEREDO_ORIGIN_LEN 8
#define TEREDO_MAX_INDICATORS 2

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
#define IP_VERSION_SHIFT 4
#define IP_VERSION_4    4
#define IP_VERSION_6    6

#endif
