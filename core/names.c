/*
 * names.c - enum -> string tables. These strings are the stable vocabulary
 * of the JSON contract (docs/json.md); never NULL.
 */
#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"
#include "proto/protos.h"
#include "replay/replay.h"

#define NAME(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof((tab)[0]) && (tab)[i] ? (tab)[i] : "?")

bool csc_proto_is_tunnel(unsigned p)
{
    return proto_has(p, CSC_PF_TUNNEL);
}

bool csc_proto_port_unbound(unsigned p, bool v6)
{
    return proto_has(p, CSC_PF_UNBOUND_PORT | (v6 ? CSC_PF_SOCKET_IPV4 : 0));
}

/* The protocol table's names (core/proto/protos.c) */
const char *csc_proto_name(unsigned p)
{
    return p < CSC_P__COUNT && csc_protos[p].pub.name ? csc_protos[p].pub.name : "?";
}

const char *csc_verdict_name(unsigned v)
{
    static const char *const t[CSC_V__COUNT] = {
        [CSC_V_NA] = "n/a", [CSC_V_GOOD] = "good", [CSC_V_BAD] = "bad", [CSC_V_NONE] = "none",
        [CSC_V_ZERO6] = "zero6", [CSC_V_PARTIAL] = "partial", [CSC_V_LCO] = "lco",
        [CSC_V_RCO] = "rco", [CSC_V_UNVERIFIABLE] = "unverifiable",
    };
    return NAME(t, v);
}

const char *csc_reason_name(unsigned r)
{
    static const char *const t[CSC_R__COUNT] = {
        [CSC_R_NONE] = "", [CSC_R_MISMATCH] = "mismatch", [CSC_R_ZERO] = "zero",
        [CSC_R_NO_C_BIT] = "no-c-bit", [CSC_R_SEED] = "seed", [CSC_R_SEED_NOLEN] = "seed-nolen",
        [CSC_R_GSO] = "gso", [CSC_R_LCO] = "lco", [CSC_R_RCO] = "rco",
        [CSC_R_RCO_WRONG_SEED] = "rco-wrong-seed", [CSC_R_RCO_BAD_TARGET] = "rco-bad-target",
        [CSC_R_RCO_OUTER_MISSING] = "rco-outer-missing", [CSC_R_RCO_OUTER_BAD] = "rco-outer-bad",
        [CSC_R_SNAPLEN] = "snaplen", [CSC_R_FRAGMENT] = "fragment",
        [CSC_R_LEN_MISMATCH] = "len-mismatch", [CSC_R_GSO_LEN] = "gso-len",
        [CSC_R_ICMP_QUOTE] = "icmp-quote", [CSC_R_FRAG_OVERLAP] = "frag-overlap",
        [CSC_R_FRAG_REASSEMBLED] = "reassembled",
    };
    return NAME(t, r);
}

const char *csc_stop_name(unsigned s)
{
    static const char *const t[CSC_STOP__COUNT] = {
        [CSC_STOP_END] = "end", [CSC_STOP_TRUNCATED] = "truncated",
        [CSC_STOP_MALFORMED] = "malformed", [CSC_STOP_DEPTH] = "depth",
        [CSC_STOP_UNSUPPORTED] = "unsupported", [CSC_STOP_FRAGMENT] = "fragment",
        [CSC_STOP_LINK] = "unknown-link", [CSC_STOP_ETHERTYPE] = "unknown-ethertype",
        [CSC_STOP_IPPROTO] = "unknown-ipproto", [CSC_STOP_NEXT] = "unknown-next",
        [CSC_STOP_ENCRYPTED] = "encrypted", [CSC_STOP_NEEDS_OPTION] = "needs-option",
    };
    return NAME(t, s);
}

const char *csc_method_name(unsigned m)
{
    static const char *const t[CSC_M__COUNT] = {
        [CSC_M_NOT_REACHED] = "not-reached", [CSC_M_DEVICE] = "device-level",
        [CSC_M_COMPLETE] = "complete-arith", [CSC_M_SW_PASS] = "sw-pass",
        [CSC_M_ZERO] = "zero-allowed", [CSC_M_PARTIAL] = "partial-covered",
        [CSC_M_REMCSUM] = "remcsum-start", [CSC_M_CSUM_BAD] = "csum-bad",
        [CSC_M_IP_FAST_CSUM] = "ip-fast-csum", [CSC_M_UNCHECKED] = "unchecked",
    };
    return NAME(t, m);
}

const char *csc_path_name(unsigned p)
{
    static const char *const t[CSC_PATH__COUNT] = {
        [CSC_PATH_NONE] = "none", [CSC_PATH_GRO] = "gro", [CSC_PATH_NORMAL] = "normal",
    };
    return NAME(t, p);
}

const char *csc_ip_summed_name(unsigned s)
{
    static const char *const t[CSC_CHECKSUM__COUNT] = {
        [CSC_CHECKSUM_NONE] = "NONE", [CSC_CHECKSUM_UNNECESSARY] = "UNNECESSARY",
        [CSC_CHECKSUM_COMPLETE] = "COMPLETE", [CSC_CHECKSUM_PARTIAL] = "PARTIAL",
    };
    return NAME(t, s);
}

const char *csc_kverdict_name(unsigned v)
{
    static const char *const t[CSC_K__COUNT] = {
        [CSC_K_ACCEPT] = "accept", [CSC_K_DROP] = "drop", [CSC_K_UNKNOWN] = "unknown",
        [CSC_K_SENT] = "sent",
    };
    return NAME(t, v);
}

const char *csc_counter_name(unsigned c)
{
    static const char *const t[CSC_C__COUNT] = {
        [CSC_C_IP_IN_CSUM_ERRORS] = "IpExtInCsumErrors", [CSC_C_IP_IN_HDR_ERRORS] = "IpInHdrErrors",
        [CSC_C_IP_IN_TRUNCATED] = "IpExtInTruncatedPkts",
        [CSC_C_UDP_IN_CSUM_ERRORS] = "UdpInCsumErrors", [CSC_C_UDP_IN_ERRORS] = "UdpInErrors",
        [CSC_C_UDP_NO_PORTS] = "UdpNoPorts", [CSC_C_UDP6_IN_CSUM_ERRORS] = "Udp6InCsumErrors",
        [CSC_C_UDP6_IN_ERRORS] = "Udp6InErrors", [CSC_C_UDP6_NO_PORTS] = "Udp6NoPorts",
        [CSC_C_TCP_IN_CSUM_ERRORS] = "TcpInCsumErrors", [CSC_C_TCP_IN_ERRS] = "TcpInErrs",
        [CSC_C_ICMP_IN_CSUM_ERRORS] = "IcmpInCsumErrors", [CSC_C_ICMP_IN_ERRORS] = "IcmpInErrors",
        [CSC_C_ICMP6_IN_CSUM_ERRORS] = "Icmp6InCsumErrors", [CSC_C_ICMP6_IN_ERRORS] = "Icmp6InErrors",
        [CSC_C_IP6_IN_HDR_ERRORS] = "Ip6InHdrErrors", [CSC_C_IP6_IN_TRUNCATED] = "Ip6InTruncatedPkts",
        [CSC_C_DEV_RX_ERRORS] = "dev:rx_errors", [CSC_C_DEV_RX_CRC_ERRORS] = "dev:rx_crc_errors",
        [CSC_C_DEV_RX_FRAME_ERRORS] = "dev:rx_frame_errors",
        [CSC_C_DEV_RX_DROPPED] = "dev:rx_dropped",
        [CSC_C_IP_IN_UNKNOWN_PROTOS] = "IpInUnknownProtos",
        [CSC_C_IP6_IN_UNKNOWN_PROTOS] = "Ip6InUnknownProtos",
        [CSC_C_DEV_RX_FIFO_ERRORS] = "dev:rx_fifo_errors",
        [CSC_C_DEV_RX_LENGTH_ERRORS] = "dev:rx_length_errors",
        [CSC_C_IP6_IN_ADDR_ERRORS] = "Ip6InAddrErrors",
        [CSC_C_NIC_RX_DROPPED] = "nic:rx_dropped",
    };
    return NAME(t, c);
}

const char *csc_gro_reason_name(unsigned g)
{
    static const char *const t[CSC_G__COUNT] = {
        [CSC_G_NONE] = "held", [CSC_G_OFF] = "gro-off", [CSC_G_IP_OPTIONS] = "ip-options",
        [CSC_G_IP_FRAGMENT] = "ip-fragment", [CSC_G_IP_CSUM] = "ip-csum", [CSC_G_IP_LEN] = "ip-len",
        [CSC_G_CSUM_FAIL] = "csum-fail", [CSC_G_UDP_GATE] = "udp-tunnel-gate",
        [CSC_G_ENCAP_MARK] = "encap-mark", [CSC_G_NOT_TUNNEL] = "not-tunnel",
        [CSC_G_RCO_NO_CSUM] = "rco-no-csum", [CSC_G_GRE_FLAGS] = "gre-flags",
        [CSC_G_GRE_CSUM_FOU] = "gre-csum-under-fou", [CSC_G_NO_HANDLER] = "no-gro-handler",
        [CSC_G_CSUM_BAD] = "csum-bad", [CSC_G_TRUNCATED] = "truncated",
        [CSC_G_TUNNEL_FLAGS] = "tunnel-flags", [CSC_G_TCP_FLAGS] = "tcp-flags",
        [CSC_G_UDP_ENCAP] = "udp-encapsulation", [CSC_G_TCP_NO_PAYLOAD] = "tcp-no-payload",
        [CSC_G_NETIF_RX] = "netif-rx", [CSC_G_IP_FLAGS] = "ip-flags",
        [CSC_G_RECURSION] = "recursion-limit",
    };
    return NAME(t, g);
}

const char *csc_fn_name(unsigned fn)
{
    static const char *const t[KF__COUNT] = {
        [KF_NONE] = "-", [KF_DRIVER] = "driver", [KF_DEV_GRO_RECEIVE] = "dev_gro_receive",
        [KF_INET_GRO_RECEIVE] = "inet_gro_receive", [KF_IPV6_GRO_RECEIVE] = "ipv6_gro_receive",
        [KF_UDP4_GRO_RECEIVE] = "udp4_gro_receive", [KF_UDP6_GRO_RECEIVE] = "udp6_gro_receive",
        [KF_UDP_GRO_RECEIVE] = "udp_gro_receive", [KF_VXLAN_GRO_RECEIVE] = "vxlan_gro_receive",
        [KF_VXLAN_GPE_GRO_RECEIVE] = "vxlan_gpe_gro_receive",
        [KF_GENEVE_GRO_RECEIVE] = "geneve_gro_receive", [KF_GUE_GRO_RECEIVE] = "gue_gro_receive",
        [KF_FOU_GRO_RECEIVE] = "fou_gro_receive", [KF_GRE_GRO_RECEIVE] = "gre_gro_receive",
        [KF_IPIP_GRO_RECEIVE] = "ipip_gro_receive", [KF_SIT_GRO_RECEIVE] = "sit_ip6ip6_gro_receive",
        [KF_IP4IP6_GRO_RECEIVE] = "ip4ip6_gro_receive",
        [KF_ETH_GRO_RECEIVE] = "eth_gro_receive", [KF_VLAN_GRO_RECEIVE] = "vlan_gro_receive",
        [KF_TCP4_GRO_RECEIVE] = "tcp4_gro_receive", [KF_TCP6_GRO_RECEIVE] = "tcp6_gro_receive",
        [KF_TCP_GRO_RECEIVE] = "tcp_gro_receive",
        [KF_SKB_GRO_REMCSUM_PROCESS] = "skb_gro_remcsum_process",
        [KF_SKB_GRO_FLUSH_FINAL_REMCSUM] = "skb_gro_flush_final_remcsum",
        [KF_GRO_CELLS_RECEIVE] = "gro_cells_receive", [KF_NAPI_GRO_RECEIVE_RET] = "napi_gro_receive",
        [KF_IP_RCV_CORE] = "ip_rcv_core", [KF_IPV6_RCV] = "ipv6_rcv",
        [KF_PSKB_TRIM_RCSUM] = "pskb_trim_rcsum",
        [KF_IP6_PROTOCOL_DELIVER_RCU] = "ip6_protocol_deliver_rcu",
        [KF_IP_LOCAL_DELIVER] = "ip_local_deliver", [KF_UDP4_LIB_RCV] = "__udp4_lib_rcv",
        [KF_UDP4_CSUM_INIT] = "udp4_csum_init", [KF_UDP6_LIB_RCV] = "__udp6_lib_rcv",
        [KF_UDP6_CSUM_INIT] = "udp6_csum_init", [KF_UDP_UNICAST_RCV_SKB] = "udp_unicast_rcv_skb",
        [KF_UDP_QUEUE_RCV_ONE_SKB] = "udp_queue_rcv_one_skb", [KF_UDP_RECVMSG] = "udp_recvmsg",
        [KF_VXLAN_RCV] = "vxlan_rcv", [KF_VXLAN_REMCSUM] = "vxlan_remcsum",
        [KF_SKB_REMCSUM_PROCESS] = "skb_remcsum_process", [KF_VXLAN_SET_MAC] = "vxlan_set_mac",
        [KF_GENEVE_UDP_ENCAP_RECV] = "geneve_udp_encap_recv", [KF_GENEVE_RX] = "geneve_rx", [KF_GUE_UDP_RECV] = "gue_udp_recv",
        [KF_GUE_REMCSUM] = "gue_remcsum", [KF_FOU_UDP_RECV] = "fou_udp_recv",
        [KF_GRE_RCV] = "gre_rcv", [KF_GRE_PARSE_HEADER] = "gre_parse_header",
        [KF_IP_TUNNEL_RCV] = "ip_tunnel_rcv", [KF_IPIP_RCV] = "ipip_rcv",
        [KF_IPIP6_RCV] = "ipip6_rcv", [KF_IP6_TNL_RCV] = "ip6_tnl_rcv", [KF_NETIF_RX] = "netif_rx",
        [KF_IPV6_RTHDR_RCV] = "ipv6_rthdr_rcv", [KF_IPV6_DESTOPT_RCV] = "ipv6_destopt_rcv",
        [KF_NETIF_RECEIVE_SKB_CORE] = "__netif_receive_skb_core", [KF_IP_ROUTE_INPUT] = "ip_route_input_slow",
        [KF_IP_PROTOCOL_DELIVER_RCU] = "ip_protocol_deliver_rcu", [KF_XFRM_INPUT] = "xfrm_input",
        [KF_TCP_V4_RCV] = "tcp_v4_rcv", [KF_TCP_V6_RCV] = "tcp_v6_rcv",
        [KF_TCP_CHECKSUM_COMPLETE] = "tcp_checksum_complete", [KF_ICMP_RCV] = "icmp_rcv",
        [KF_ICMPV6_RCV] = "icmpv6_rcv", [KF_IGMP_RCV] = "igmp_rcv", [KF_IP_DEFRAG] = "ip_defrag",
        [KF_ETH_TYPE_TRANS] = "eth_type_trans", [KF_VLAN_UNTAG] = "skb_vlan_untag",
        [KF_L2TP_UDP_ENCAP_RECV] = "l2tp_udp_encap_recv", [KF_IPV6_FRAG_RCV] = "ipv6_frag_rcv",
        [KF_ERSPAN_RCV] = "erspan_rcv", [KF_IP6ERSPAN_RCV] = "ip6erspan_rcv",
        [KF_L2TP_IP_RECV] = "l2tp_ip_recv", [KF_L2TP_IP6_RECV] = "l2tp_ip6_recv",
        [KF_L2TP_RECV_COMMON] = "l2tp_recv_common", [KF_L2TP_ETH_DEV_RECV] = "l2tp_eth_dev_recv",
        [KF_MACSEC_HANDLE_FRAME] = "macsec_handle_frame", [KF_IP_RCV_OPTIONS] = "ip_rcv_options",
        [KF_IP6_ROUTE_INPUT] = "ip6_route_input",
        [KF_PING_RCV] = "ping_rcv", [KF_ICMP_SOCKET_DELIVER] = "icmp_socket_deliver",
    };
    return NAME(t, fn);
}

const char *csc_what_name(unsigned what)
{
    static const char *const t[W__END] = {
        [W_ENTRY] = "enter", [W_GRO_OFF] = "gro-off", [W_CONVERT] = "convert",
        [W_GATE_REFUSED] = "tunnel-gro-refused", [W_FLUSH] = "flush", [W_HELD] = "held",
        [W_DEFERRED] = "deferred", [W_DROP] = "drop", [W_REMCSUM_PARTIAL] = "remcsum-partial",
        [W_REMCSUM_ADJUST] = "remcsum-adjust", [W_REMCSUM_START] = "remcsum-start",
        [W_REMCSUM_CLEANUP] = "remcsum-cleanup", [W_COMPLETE_UNSET] = "complete-unset",
        [W_TRIM_KEEP] = "trim-keep-complete", [W_TRIM_DOWNGRADE] = "trim-complete-to-none",
        [W_DELIVER] = "deliver", [W_NO_SOCKET] = "no-socket", [W_ZERO_REFUSED] = "zero-refused",
        [W_SKIP_FLUSH] = "skip-flushing", [W_NOT_MODELLED] = "not-modelled",
        [W_QUEUED] = "queued-for-reassembly", [W_ENCAP_MARK] = "encap-mark",
        [W_CSUM_BAD_SKIP] = "csum-bad-skip-gro", [W_PARTIAL_LOST] = "partial-pulled-past",
        [W_REMCSUM_SKIP] = "remcsum-skip-done-in-gro", [W_VALIDATE_FAIL] = "validate-fail",
        [W_FLAG_MISMATCH] = "csum-flag-mismatch", [W_INVALID_HDR] = "invalid-header",
        [W_SHORT] = "short-packet", [W_REASSEMBLED] = "reassembled",
        [W_ECN_NOT_ECT] = "ecn-not-ect-inner",
        [W_CSUM_UNION] = "partial-start-overwritten", [W_CSUM_NONE_SET] = "checksum-none-set",
        [W_CONTROL] = "control-message",
    };
    if (what < CSC_M__COUNT)
        return csc_method_name(what);
    return NAME(t, what);
}

const char *csc_drop_name(unsigned d)
{
    static const char *const t[KD__COUNT] = {
        [KD_NONE] = "NOT_SPECIFIED", [KD_IP_CSUM] = "IP_CSUM", [KD_IP_INHDR] = "IP_INHDR",
        [KD_PKT_TOO_SMALL] = "PKT_TOO_SMALL", [KD_UDP_CSUM] = "UDP_CSUM",
        [KD_TCP_CSUM] = "TCP_CSUM", [KD_ICMP_CSUM] = "ICMP_CSUM",
        [KD_GRE_CSUM] = "NOT_SPECIFIED (gre checksum)", [KD_GRE_FLAGS] = "NOT_SPECIFIED (gre flags)",
        [KD_VXLAN_INVALID_HDR] = "VXLAN_INVALID_HDR", [KD_NO_SOCKET] = "NO_SOCKET",
        [KD_IGMP_CSUM] = "NOT_SPECIFIED (igmp checksum)",
        [KD_TUNNEL_CSUM_FLAGS] = "NOT_SPECIFIED (tunnel csum flags)",
        [KD_GENEVE_HDR] = "NOT_SPECIFIED (geneve header)",
        [KD_GUE_HDR] = "NOT_SPECIFIED (gue header)",
        [KD_GUE_CONTROL] = "NOT_SPECIFIED (gue control message)", [KD_OTHERHOST] = "OTHERHOST",
        [KD_RTHDR_UNKNOWN] = "NOT_SPECIFIED (routing header)",
        [KD_RTHDR_DISABLED] = "NOT_SPECIFIED (source routing disabled)",
        [KD_HAO_NO_STATE] = "XFRM_POLICY (home address; UNHANDLED_PROTO without MIP6)",
        [KD_UNHANDLED_PROTO] = "UNHANDLED_PROTO",
        [KD_MARTIAN] = "NOT_SPECIFIED (martian address)",
        [KD_ICMP_QUOTE] = "NOT_SPECIFIED (icmp quote)",
        [KD_IP_NOPROTO] = "IP_NOPROTO", [KD_GPE_NEXT] = "NOT_SPECIFIED (vxlan-gpe next protocol)",
        [KD_FRAG_NOT_ROUNDED] = "NOT_SPECIFIED (fragment not a multiple of 8: parameter problem)",
        [KD_FRAG_EMPTY] = "NOT_SPECIFIED (fragment with no payload: queue killed)",
        [KD_FRAG_OVERLAP] = "NOT_SPECIFIED (overlapping fragment: queue killed)",
        [KD_FRAG_BAD_END] = "NOT_SPECIFIED (fragment end past or short of the last: queue killed)",
        [KD_NO_NEXT_HEADER] = "NOT_SPECIFIED (no next header: nodata_protocol frees it)",
        [KD_IP_INADDRERRORS] = "IP_INADDRERRORS",
        [KD_TCP_AUTH_HDR] = "TCP_AUTH_HDR",
        [KD_TCP_HASH_UNEXPECTED] = "TCP_MD5UNEXPECTED / TCP_AOUNEXPECTED (no key)",
        [KD_FRAG_ECN] = "NOT_SPECIFIED (fragments mix Not-ECT with ECT or CE: queue killed)",
        [KD_FRAG_OVERSIZE] = "NOT_SPECIFIED (reassembled datagram over 65535: queue killed)",
        [KD_L2TP_CONTROL] = "NOT_SPECIFIED (l2tp control message)",
        [KD_GPE_HDR] = "NOT_SPECIFIED (vxlan-gpe header)",
        [KD_TUNNEL_SEQ] = "NOT_SPECIFIED (tunnel sequence)",
        [KD_PKT_TYPE] = "NOT_SPECIFIED (pkt_type not host)",
        [KD_IP_TUNNEL_ECN] = "IP_TUNNEL_ECN", [KD_ECN_NOT_ECT] = "NOT_SPECIFIED (ecn: ce over not-ect)",
        [KD_RTHDR_MIP6] = "NOT_SPECIFIED (routing type 2)",
        [KD_RTHDR_NOT_HOST] = "NOT_SPECIFIED (routing header: multicast or not for this host)",
        [KD_FRAG_TWICE] = "NOT_SPECIFIED (a second fragment header: parameter problem)",
        [KD_IP_OPTIONS] = "NOT_SPECIFIED (ip options: parameter problem)",
        [KD_IP_SRR] = "NOT_SPECIFIED (source route, accept_source_route 0)",
        [KD_FRAG_HDR_INCOMPLETE] = "NOT_SPECIFIED (first fragment without the upper-layer header: parameter problem)",
        [KD_FRAG_TOO_FAR] = "NOT_SPECIFIED (fragment end past 65535: parameter problem)",
        [KD_IP6_NOT_FINAL] = "NOT_SPECIFIED (a non-final protocol after a final one)",
        [KD_LOCAL_MAC] = "LOCAL_MAC",
        [KD_INVALID_PROTO] = "INVALID_PROTO",
        [KD_MC_NOT_JOINED] = "NOT_SPECIFIED (multicast group not joined)",
        [KD_GENEVE_LOOP] = "NOT_SPECIFIED (geneve: inner source MAC is the device's)",
    };
    return NAME(t, d);
}

unsigned csc_drop_count(void)
{
    return KD__COUNT;
}

const char *csc_warning_name(unsigned bit)
{
    static const char *const t[] = {
        "rco-nothing-verified", "hw-csum-fault", "not-modelled", "assumed",
        "bad-checksum-accepted",
    };
    return NAME(t, bit);
}

const char *csc_note_name(unsigned bit)
{
    static const char *const t[] = {
        "ip-options", "fragment", "len-exceeds-frame", "padding", "home-address",
        "routing-final-dst", "jumbo", "quoted", "gso", "rco", "rco-off-target",
        "rco-out-of-packet", "reserved-bits", "len-short", "link-len-short", "outgoing",
        "gre-seq", "gre-key", "geneve-options", "oam", "reassembled", "l2spec-guessed",
    };
    return NAME(t, bit);
}

/* A device's kind is the protocol it decapsulates (CSC_P_NONE: the NIC) */
const char *csc_dev_name(unsigned kind)
{
    if (kind < CSC_P__COUNT && csc_protos[kind].pub.dev)
        return csc_protos[kind].pub.dev;
    return csc_proto_name(kind);
}

const char *csc_report_kind_name(unsigned k)
{
    static const char *const t[] = { "none", "unnecessary", "complete", "partial", "outer-l4",
                                     "tunnel-l4", "virtual" };
    return NAME(t, k);
}

const char *csc_tri_name(unsigned t)
{
    static const char *const n[CSC_TRI__COUNT] = {
        [CSC_TRI_NO] = "failed", [CSC_TRI_YES] = "ok", [CSC_TRI_UNDECIDED] = "not decided",
    };
    return NAME(n, t);
}

const char *csc_gre_csum_name(unsigned g)
{
    static const char *const t[CSC_GRE_CSUM__COUNT] = {
        [CSC_GRE_CSUM_PACKET] = "packet", [CSC_GRE_CSUM_ON] = "on", [CSC_GRE_CSUM_OFF] = "off",
    };
    return NAME(t, g);
}

const char *csc_direction_name(unsigned d)
{
    static const char *const t[] = { [CSC_DIR_UNKNOWN] = "unknown", [CSC_DIR_IN] = "in",
                                     [CSC_DIR_OUT] = "out" };
    return NAME(t, d);
}

const char *csc_dir_from_name(unsigned f)
{
    static const char *const t[CSC_DF__COUNT] = {
        [CSC_DF_NONE] = "none",         [CSC_DF_CAPTURE] = "capture",
        [CSC_DF_PKTTYPE] = "pkttype",   [CSC_DF_LOOPBACK] = "loopback",
        [CSC_DF_LOCAL] = "local",       [CSC_DF_GUESS] = "guess",
    };
    return NAME(t, f);
}

const char *csc_via_name(unsigned v)
{
    static const char *const t[CSC_VIA__COUNT] = {
        [CSC_VIA_NIC] = "nic", [CSC_VIA_LOOPBACK] = "loopback", [CSC_VIA_VIRTUAL] = "virtual",
    };
    return NAME(t, v);
}

/* include/uapi/linux/if_packet.h PACKET_HOST .. PACKET_KERNEL */
const char *csc_pkttype_name(unsigned t)
{
    static const char *const n[] = { "host", "broadcast", "multicast", "otherhost", "outgoing",
                                     "loopback", "user", "kernel" };
    return NAME(n, t);
}

const char *csc_tx_kind_name(unsigned k)
{
    static const char *const t[CSC_TX__COUNT] = {
        [0] = "none", [CSC_TX_PARTIAL] = "partial", [CSC_TX_GSO] = "gso", [CSC_TX_LCO] = "lco",
    };
    return NAME(t, k);
}

const char *csc_mss_from_name(unsigned m)
{
    static const char *const t[CSC_MSS__COUNT] = {
        [CSC_MSS_NONE] = "none", [CSC_MSS_OPTION] = "option", [CSC_MSS_MTU] = "mtu",
    };
    return NAME(t, m);
}

const char *csc_tx_peer_not_name(unsigned n)
{
    static const char *const t[CSC_TXP__COUNT] = {
        [CSC_TXP_NONE] = "none", [CSC_TXP_GSO] = "gso", [CSC_TXP_SNAPLEN] = "snaplen",
    };
    return NAME(t, n);
}

const char *csc_gro_fate_name(unsigned kind)
{
    static const char *const t[CSC_FATE__COUNT] = {
        [CSC_FATE_ALONE] = "alone", [CSC_FATE_HELD] = "held", [CSC_FATE_MERGED] = "merged",
    };
    return NAME(t, kind);
}
