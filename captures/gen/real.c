/*
 * real.c - generated stand-ins for the public captures the repository may
 * not carry.
 *
 * The public corpus (tests/data/real/, MANIFEST.tsv) keeps only captures
 * whose licence allows redistribution. Nine captures of kaorimatz/pcaps
 * state no licence: pings through a tunnel between two Linux network
 * namespaces, captured on a veth. The tests that read them read these
 * instead: the same frames in the same order with the same layers and
 * checksum states (ARP, then an ICMP echo request and its reply inside the
 * tunnel, the tunnel's own ARP), with the generator's addresses and
 * payloads. `csc-gen real -o tests/data/real` writes them
 * (scripts/regen-captures.sh); captures-uptodate checks the committed
 * copies byte for byte.
 */
#include "gen.h"

#define C(n, s, w) { n, s, w, 0, 0, GEN_FRAG_NONE, CAPW_DIR_NONE }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ARP who-has 10.0.0.2 tell 10.0.0.1, and the reply, between pb's MACs */
#define ARP_REQ "raw:hex=0001080006040001020000000001" "0a000001" "000000000000" "0a000002"
#define ARP_REP "raw:hex=0001080006040002020000000002" "0a000002" "020000000001" "0a000001"
#define ARP(l2) C("arp-request", l2 ":proto=0x0806 " ARP_REQ, "ARP request (no checksum)"), \
                C("arp-reply", l2 ":proto=0x0806 " ARP_REP, "ARP reply")
/* ping -c 1: 8 header bytes, 56 data bytes */
#define PING " icmp pay:len=56"
#define PONG " icmp:reply pay:len=56"

static const struct gen_case vlan[] = {
    C("arp-request", "eth vlan:vlan=100,proto=0x0806 " ARP_REQ, "ARP request in an 802.1Q frame"),
    C("arp-reply", "eth vlan:vlan=100,proto=0x0806 " ARP_REP, "ARP reply"),
    C("ping", "eth vlan:vlan=100 ipv4" PING, "echo request in an 802.1Q frame"),
    C("pong", "eth vlan:vlan=100 ipv4:rev" PONG, "echo reply"),
};

static const struct gen_case gre[] = {
    ARP("eth"),
    C("ping", "eth ipv4 gre ipv4" PING, "echo request in GRE without checksum (gre none)"),
    C("pong", "eth ipv4:rev gre ipv4:rev" PONG, "echo reply"),
    ARP("eth"),
};

static const struct gen_case tunl[] = {
    C("ping", "ipv4" PING, "echo request as the tunnel device sees it (raw IP)"),
    C("pong", "ipv4:rev" PONG, "echo reply"),
};

static const struct gen_case gue[] = {
    ARP("eth"),
    C("ping", "eth ipv4 udp:zero gue ipv4" PING, "echo request in GUE (IPIP) on UDP 6080, UDP checksum 0"),
    C("pong", "eth ipv4:rev udp:zero gue ipv4:rev" PONG, "echo reply"),
    ARP("eth"),
};

static const struct gen_case ipip[] = {
    ARP("eth"),
    C("ping", "eth ipv4 ipv4" PING, "echo request in IPIP"),
    C("pong", "eth ipv4:rev ipv4:rev" PONG, "echo reply"),
    ARP("eth"),
};

#define L2TP "eth ipv4 l2tp eth"
#define L2TPR "eth ipv4:rev l2tp eth"
static const struct gen_case l2tp[] = {
    ARP("eth"),
    C("l2tp-arp-request", L2TP ":proto=0x0806 " ARP_REQ, "ARP request in L2TPv3 over IP (session 1, no cookie, "
                                                       "4-byte sublayer)"),
    C("l2tp-arp-reply", L2TPR ":proto=0x0806 " ARP_REP, "its reply"),
    C("ping", L2TP " ipv4" PING, "echo request in L2TPv3 over IP"),
    C("pong", L2TPR " ipv4:rev" PONG, "echo reply"),
    C("arp-request", "eth:proto=0x0806 " ARP_REQ, "ARP request"),
    C("l2tp-arp-request", L2TPR ":proto=0x0806 " ARP_REQ, "ARP request in L2TPv3, the other way"),
    C("arp-reply", "eth:proto=0x0806 " ARP_REP, "ARP reply"),
    C("l2tp-arp-reply", L2TP ":proto=0x0806 " ARP_REP, "its reply in L2TPv3"),
};

static const struct gen_case mpls[] = {
    ARP("eth"),
    C("ping", "eth mpls:label=100 ipv4" PING, "echo request under one MPLS label"),
    C("pong", "eth mpls:label=200 ipv4:rev" PONG, "echo reply"),
    ARP("eth"),
};

#define VX "eth ipv4 udp:zero vxlan:vni=1 eth"
#define VXR "eth ipv4:rev udp:zero vxlan:vni=1 eth"
static const struct gen_case vxlan[] = {
    C("igmp", "eth ipv4:opts=4 igmp", "IGMP membership report (router alert option)"),
    C("igmp", "eth ipv4:opts=4 igmp", "IGMP membership report, repeated"),
    C("igmp", "eth ipv4:opts=4,rev igmp", "IGMP membership report of the other end"),
    C("igmp", "eth ipv4:opts=4,rev igmp", "IGMP membership report of the other end, repeated"),
    C("vxlan-arp-request", VX ":proto=0x0806 " ARP_REQ, "ARP request in VXLAN (VNI 1), outer UDP checksum 0"),
    ARP("eth"),
    C("vxlan-arp-reply", VXR ":proto=0x0806 " ARP_REP, "its reply in VXLAN"),
    C("ping", VX " ipv4" PING, "echo request in VXLAN"),
    C("pong", VXR " ipv4:rev" PONG, "echo reply"),
    ARP("eth"),
    C("vxlan-arp-request", VXR ":proto=0x0806 " ARP_REQ, "ARP request in VXLAN, the other way"),
    C("vxlan-arp-reply", VX ":proto=0x0806 " ARP_REP, "its reply"),
};

static const struct gen_case vxlan_dev[] = {
    ARP("eth"),
    C("ping", "eth ipv4" PING, "echo request as the VXLAN device sees it"),
    C("pong", "eth ipv4:rev" PONG, "echo reply"),
    ARP("eth"),
};

#define F(n, theme, arr) { n, theme, CAPW_PCAP, 0, arr, N(arr), NULL }

/* Each name says which kaorimatz/pcaps capture it stands in for. */
const struct gen_file gen_real_files[] = {
    F("gen__802.1q-ping.pcap", "kaorimatz-pcaps__802.1q__ping__veth2.pcap: ping over 802.1Q", vlan),
    F("gen__gre-ip-ping.pcap", "kaorimatz-pcaps__gre-ip__ping__veth2.pcap: ping through GRE", gre),
    F("gen__gue-ipip-ping-tunl.pcap", "kaorimatz-pcaps__gue-ipip__ping__tunl2.pcap: the same ping on the tunnel "
                                      "device (raw IP)", tunl),
    F("gen__gue-ipip-ping.pcap", "kaorimatz-pcaps__gue-ipip__ping__veth2.pcap: ping through GUE (IPIP)", gue),
    F("gen__ipip-ping.pcap", "kaorimatz-pcaps__ipip__ping__veth2.pcap: ping through IPIP", ipip),
    F("gen__l2tp-ip-ping.pcap", "kaorimatz-pcaps__l2tp-ip__ping__veth2.pcap: ping through L2TPv3 over IP", l2tp),
    F("gen__mpls-ping.pcap", "kaorimatz-pcaps__mpls__ping__veth21.pcap: ping over MPLS", mpls),
    F("gen__vxlan-ping.pcap", "kaorimatz-pcaps__vxlan__ping__veth2.pcap: IGMP, then ping through VXLAN", vxlan),
    F("gen__vxlan-ping-inner.pcap", "kaorimatz-pcaps__vxlan__ping__vxlan2.pcap: the same ping on the VXLAN device",
      vxlan_dev),
};

const size_t gen_nreal_files = N(gen_real_files);
