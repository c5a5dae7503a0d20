/*
 * protos.c - one row per protocol: its name, what it is (link header,
 * tunnel, UDP tunnel socket...), its default UDP ports and the option and
 * preference that add more, the decoder a UDP port or an IP protocol number
 * leads to, the GRO flow-key rule and the replay's entry points (protos.h).
 * names.c, config.c, the decoder, the replay, the GRO engine, the CLI's
 * port options and the plugin's port preferences all read this table.
 *
 * Default ports: IANA's assignments (VXLAN 4789 RFC 7348, VXLAN-GPE 4790,
 * GENEVE 6081 RFC 8926, L2TP 1701, GTP-U 2152, Teredo 3544, AYIYA 5072,
 * MPLS-in-UDP 6635 RFC 7510, GRE-in-UDP 4754 RFC 8086, AMT 2268 RFC 7450) and GUE's 6080 (the
 * Linux fou examples). Port hints: 8472, the port a Linux VXLAN device
 * uses when none is given (drivers/net/vxlan, "dstport 0": the pre-IANA
 * value; flannel's and OTV's too).
 */
#include "protos.h"

#include "decode.h"
#include "../replay/replay.h"

#define ROW(p) [CSC_P_##p]

const struct proto_row csc_protos[CSC_P__COUNT] = {
    ROW(NONE) = { .pub = { .name = "none", .dev = "nic" } },
    /* also Ethernet in IPv6 (next header 143, RFC 8986): the kernel has no
     * inet6_protos[] handler for it (eth_in_ip_rcv) */
    ROW(ETH) = {
        .pub = { .name = "eth", .flags = CSC_PF_LINK }, .gro_key = GRO_KEY_HEADER,
        .decode_ip = dec_eth, .rcv = eth_in_ip_rcv,
    },
    ROW(VLAN) = { .pub = { .name = "vlan", .flags = CSC_PF_LINK | CSC_PF_ID }, .gro_key = GRO_KEY_HEADER },
    /* MPLS-in-UDP (RFC 7510): Linux has no socket on 6635 but a FOU port
     * (ip fou add port 6635 ipproto 137, the CLI's --fou-port 6635:137):
     * __udp4_lib_rcv counts UdpNoPorts (v6.12; issue 28, 13) */
    ROW(MPLS) = {
        .pub = { .name = "mpls", .title = "MPLS-in-UDP", .flags = CSC_PF_ID | CSC_PF_UNBOUND_PORT,
                 .ports = { 6635 }, .option = "mpls-port",
                 .pref = "mpls_ports" },
        .decode_ip = dec_mpls, .decode_udp = dec_mpls_udp,
    },
    ROW(PPPOE) = { .pub = { .name = "pppoe", .flags = CSC_PF_ID } },
    ROW(PPP) = { .pub = { .name = "ppp" } },
    ROW(SLL) = { .pub = { .name = "sll", .flags = CSC_PF_LINK } },
    ROW(SLL2) = { .pub = { .name = "sll2", .flags = CSC_PF_LINK } },
    ROW(NULL) = { .pub = { .name = "null", .flags = CSC_PF_LINK } },
    /* IPv4 and IPv6 inside IP (ip_in_ip_gro_receive picks ipip_gro_receive,
     * sit_ip6ip6_gro_receive or ip4ip6_gro_receive by family): IPv4 in IPv4
     * is the ipip device's, anything in IPv6 ip6tnl's, IPv6 in IPv4 sit's */
    ROW(IPV4) = {
        .pub = { .name = "ipv4", .dev = "ipip" },
        .decode_ip = dec_ipv4, .gro_key = GRO_KEY_IPV4,
        .gro_receive = ip_in_ip_gro_receive, .rcv = ipip_rcv,
    },
    ROW(IPV6) = {
        .pub = { .name = "ipv6", .dev = "ip6tnl" },
        .decode_ip = dec_ipv6, .gro_key = GRO_KEY_IPV6,
        .gro_receive = ip_in_ip_gro_receive, .rcv = ipip_rcv,
    },
    ROW(UDP) = {
        .pub = { .name = "udp", .flags = CSC_PF_PSEUDO_HDR },
        .decode_ip = dec_udp, .gro_key = GRO_KEY_UDP,
        .gro_receive = udp_l4_gro_receive, .rcv = udp_rcv,
    },
    ROW(TCP) = {
        .pub = { .name = "tcp", .flags = CSC_PF_PSEUDO_HDR },
        .decode_ip = dec_tcp, .gro_key = GRO_KEY_TCP,
        .gro_receive = tcp_gro_receive, .rcv = tcp_rcv,
    },
    ROW(ICMP) = { .pub = { .name = "icmp" }, .decode_ip = dec_icmp, .rcv = icmp_rcv },
    ROW(ICMPV6) = {
        .pub = { .name = "icmpv6", .flags = CSC_PF_PSEUDO_HDR },
        .decode_ip = dec_icmpv6, .rcv = icmpv6_rcv,
    },
    ROW(IGMP) = { .pub = { .name = "igmp" }, .decode_ip = dec_igmp, .rcv = igmp_rcv },
    ROW(GRE) = {
        .pub = { .name = "gre", .flags = CSC_PF_TUNNEL | CSC_PF_ID },
        .decode_ip = dec_gre, .gro_key = GRO_KEY_GRE,
        .gro_receive = gre_gro_receive, .rcv = gre_rcv,
    },
    ROW(VXLAN) = {
        .pub = { .name = "vxlan", .title = "VXLAN",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL | CSC_PF_CONVERT_CSUM | CSC_PF_VNI | CSC_PF_ID,
                 .ports = { 4789 }, .option = "vxlan-port", .pref = "vxlan_ports" },
        .decode_udp = dec_vxlan, .looks_like = vxlan_looks_like, .gro_key = GRO_KEY_HEADER,
        .gro_receive = vxlan_gro_receive, .rcv = vxlan_rcv,
    },
    ROW(VXLAN_GPE) = {
        .pub = { .name = "vxlan-gpe", .title = "VXLAN-GPE",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL | CSC_PF_VNI | CSC_PF_ID,
                 .ports = { 4790 }, .option = "vxlan-gpe-port", .pref = "vxlan_gpe_ports" },
        .decode_udp = dec_vxlan_gpe, .gro_key = GRO_KEY_HEADER,
        .gro_receive = vxlan_gpe_gro_receive, .rcv = vxlan_gpe_rcv,
    },
    ROW(GENEVE) = {
        .pub = { .name = "geneve", .title = "GENEVE",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL | CSC_PF_VNI | CSC_PF_ID,
                 .ports = { 6081 }, .option = "geneve-port", .pref = "geneve_ports" },
        .decode_udp = dec_geneve, .gro_key = GRO_KEY_HEADER,
        .gro_receive = geneve_gro_receive, .rcv = geneve_rcv,
    },
    ROW(GUE) = {
        .pub = { .name = "gue", .title = "GUE", .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL,
                 .ports = { 6080 }, .option = "gue-port", .pref = "gue_ports" },
        .decode_udp = dec_gue, .gro_key = GRO_KEY_HEADER,
        .gro_receive = gue_gro_receive, .rcv = gue_rcv,
    },
    ROW(FOU) = {
        .pub = { .name = "fou", .title = "FOU",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL | CSC_PF_PORT_IPPROTO,
                 .option = "fou-port", .pref = "fou_ports" },
        .decode_udp = dec_fou, .gro_receive = gue_gro_receive, .rcv = gue_rcv,
    },
    ROW(L2TP) = {
        .pub = { .name = "l2tp", .title = "L2TP",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL | CSC_PF_CONVERT_CSUM | CSC_PF_ID,
                 .ports = { 1701 }, .option = "l2tp-port", .pref = "l2tp_ports" },
        .decode_ip = dec_l2tp_ip, .decode_udp = dec_l2tp_udp, .rcv = l2tp_rcv,
    },
    ROW(ERSPAN) = { .pub = { .name = "erspan", .flags = CSC_PF_ID } },
    ROW(NSH) = { .pub = { .name = "nsh", .flags = CSC_PF_ID } },
    ROW(GTP) = {
        .pub = { .name = "gtp", .title = "GTP-U", .flags = CSC_PF_TUNNEL | CSC_PF_ID, .ports = { 2152 },
                 .option = "gtp-port", .pref = "gtp_ports" },
        .decode_udp = dec_gtp,
    },
    ROW(TEREDO) = {
        .pub = { .name = "teredo", .title = "Teredo", .flags = CSC_PF_TUNNEL, .ports = { 3544 },
                 .option = "teredo-port", .pref = "teredo_ports" },
        .decode_udp = dec_teredo,
    },
    ROW(AYIYA) = {
        .pub = { .name = "ayiya", .title = "AYIYA", .flags = CSC_PF_TUNNEL, .ports = { 5072 },
                 .option = "ayiya-port", .pref = "ayiya_ports" },
        .decode_udp = dec_ayiya,
    },
    ROW(CW) = { .pub = { .name = "pw-cw" } },
    ROW(WCCP) = { .pub = { .name = "wccp" } },
    ROW(CMD) = { .pub = { .name = "cisco-md", .flags = CSC_PF_ID } },
    /* a device kind only, never a decoded layer: the sit device */
    ROW(SIT) = { .pub = { .name = "sit" } },
    /* Linux receives it only through a FOU port (ip fou add port 4754 ipproto 47,
     * the CLI's --fou-port 4754:47, which makes the port FOU) */
    ROW(GRE_UDP) = {
        .pub = { .name = "gre-in-udp", .title = "GRE-in-UDP",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UNBOUND_PORT, .ports = { 4754 },
                 .option = "gre-in-udp-port", .pref = "gre_in_udp_ports" },
        .decode_udp = dec_gre_udp,
    },
    ROW(NHRP) = { .pub = { .name = "nhrp" } },
    ROW(ESP) = { .pub = { .name = "esp", .flags = CSC_PF_ID }, .decode_ip = dec_esp, .rcv = xfrm_rcv },
    ROW(AH) = { .pub = { .name = "ah", .flags = CSC_PF_ID }, .decode_ip = dec_ah, .rcv = xfrm_rcv },
    /* Aruba's 802.11 over GRE: decoded from GRE's protocol field (gre.c) */
    ROW(WLAN) = { .pub = { .name = "wlan", .title = "IEEE 802.11" } },
    /* 802.1AE's SecTAG: a link-layer header the real device's rx_handler
     * (macsec_handle_frame) takes off; no GRO handler for 0x88E5 */
    ROW(MACSEC) = { .pub = { .name = "macsec", .title = "MACsec" } },
    /* AMT (RFC 7450): the amt device's IPv4 socket (amt_socket_create,
     * encap_rcv amt_rcv, no gro_receive; drivers/net/amt.c v6.12). No rcv:
     * what amt_rcv does with a message depends on the device's mode and its
     * discovery and request state, which a capture lacks (not modelled) */
    ROW(AMT) = {
        .pub = { .name = "amt", .title = "AMT",
                 .flags = CSC_PF_TUNNEL | CSC_PF_UDP_TUNNEL | CSC_PF_SOCKET_IPV4,
                 .ports = { 2268 }, .option = "amt-port", .pref = "amt_ports" },
        .decode_udp = dec_amt,
    },
};

#define INET(n, p) [IPPROTO_##n##_] = &csc_protos[CSC_P_##p]

/* inet_protos[]: IP protocol number -> its row (NULL: not decoded) */
const struct proto_row *const csc_inet_protos[256] = {
    INET(ICMP, ICMP), INET(IGMP, IGMP), INET(IPIP, IPV4),     INET(TCP, TCP),   INET(UDP, UDP),
    INET(IPV6, IPV6), INET(GRE, GRE),   INET(ICMPV6, ICMPV6), INET(L2TP, L2TP), INET(MPLS, MPLS),
    INET(ESP, ESP),   INET(AH, AH),       INET(ETHERNET, ETH),
};

const struct port_hint csc_port_hints[] = {
    { 8472, CSC_P_VXLAN },
};
const unsigned csc_nport_hints = sizeof csc_port_hints / sizeof csc_port_hints[0];

const struct csc_proto_desc *csc_proto_desc(unsigned p)
{
    return &proto_row(p)->pub;
}

uint32_t csc_layer_id(const struct csc_layer *l)
{
    return proto_has(l->proto, CSC_PF_ID) ? l->u.id.id : 0;
}
