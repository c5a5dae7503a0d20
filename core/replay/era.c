/*
 * era.c - kernel-era presets over the replay switches. Each preset names the
 * commits that set its switches; docs/eras.md explains them for users.
 */
#include "csumcheck/csumcheck.h"

#include <string.h>

#define E(x) CSC_ERA_BIT(CSC_E_##x)

_Static_assert(CSC_E__COUNT <= 64, "era switches are bits of a uint64_t");

/* Net-next between the csum_level series (77cffe23c1f8) and Part VI: levels,
 * no conversion. Kernels <= 3.17 are not modelled (skb->encapsulation rule). */
#define SW_PRE_PART_VI (E(HAS_LEVELS) | E(UDP_GATE_BEFORE_LOOKUP) | E(SAVE_SW_COMPLETE))
/* v3.18: Part VI c5a65680b3c2 - csum_bad, conversions 2abb7cdc0dc8;
 * setup_udp_tunnel_sock and fou_create set convert_csum on every UDP
 * tunnel socket (source: v3.18.20 net/ipv4/udp_tunnel.c, net/ipv4/fou.c). */
#define SW_3_18 (SW_PRE_PART_VI | E(HAS_CSUM_BAD) | E(HAS_CONVERSION) | E(CONVERT_ALL_TUNNELS))
/* v4.0: RCO (vxlan_rco 2733135329e9) and 'rco_correctness': nopartial knob,
 * PARTIAL-start rule, GRO flushes when RCO was already done. The GUE header
 * of v3.19 (include/net/gue.h: 2-bit version, control bit, private flags;
 * v3.18 had a 4-bit version and no flags). geneve_gro_receive on the GENEVE
 * socket (v3.19.8: NULL callbacks; v4.0.4 has it). */
#define SW_4_0 (SW_3_18 | E(RCO) | E(RCO_NOPARTIAL_KNOB) | E(PARTIAL_START_RULE) | \
                E(RCO_GRO_FLUSH_IF_DONE) | E(GUE_HDR_2015) | E(GENEVE_GRO))
/* v4.6: encap_mark fac8e0f57969, FOU/GUE stacking c3483384ee51, is_fou
 * a0ca153f98db, normal-path RCO skip on remcsum_offload again. Tunnel
 * devices: VXLAN and the GENEVE netdev use gro_cells (v4.2.8 vxlan netif_rx,
 * v4.0.4 no drivers/net/geneve.c, v4.3 both gro_cells), sit_gro_receive
 * (v4.3 none, v4.6.2 has it); sit itself still ends in netif_rx. */
#define SW_4_6 ((SW_4_0 & ~E(RCO_GRO_FLUSH_IF_DONE)) | E(GRE_SETS_ENCAP_MARK) | \
                E(ENCAP_CLEARED_BY_FOU) | E(GUE_IS_FOU) | E(RCO_NORMAL_SKIPS_FLAG) | \
                E(VXLAN_GRO_CELLS) | E(GENEVE_NETDEV) | E(SIT_GRO))
/* v4.13: csum_bad removed (5d65a16a689a series); vxlan_gro_receive and
 * gue_gro_receive clear remcsum_offload on exit (source: absent in v4.12,
 * present in v4.13.4). GENEVE: geneve_newlink asks for IPv6 checksums only
 * for a remote6 (v4.7.4 lacks, v4.12 has), geneve_rx counts the critical-
 * options drop (v4.12 lacks, v4.13.4 has), geneve_udp_encap_recv drops a
 * bad version/protocol (v4.6.2 returns it to UDP, v4.7.4 drops). ip6_tunnel
 * and ip6_gre: ip6_tnl_rcv with gro_cells, ip4ip6/ip6ip6 GRO callbacks
 * (v4.6.2 netif_rx and none, v4.7.4 has them). Routing type 4 has its
 * handler, ipv6_srh_rcv (1ababeba4a21, v4.10); hop-by-hop CALIPSO has
 * ipv6_hop_calipso (v4.8). GRO's IPv4 ID rule with is_atomic (v4.7: a
 * DF header may keep its ID fixed; every header is checked); v4.6's
 * inet_gro_receive keeps only the innermost header's flush_id. GRO's
 * recursion limit ("net: add recursion limit to GRO", v4.9). */
#define SW_4_13 ((SW_4_6 & ~E(HAS_CSUM_BAD)) | E(REMCSUM_CLEARED_ON_EXIT) | \
                 E(GENEVE_ZERO6_EXTERNAL) | E(GENEVE_CRIT_COUNTERS) | \
                 E(GENEVE_BAD_HDR_DROPPED) | E(IP6_TNL_GRO) | E(SEG6_RCV) | E(HOP_CALIPSO) | \
                 E(GRO_FIXEDID_DF) | E(GRO_RECURSION_LIMIT))
/* v4.20: COMPLETE unset in UDP db4f1be3ca9b; pskb_trim_rcsum keeps COMPLETE
 * ("net: pskb_trim_rcsum() and CHECKSUM_COMPLETE are friends": absent in
 * v4.13.4, pskb_trim_rcsum_slow in v4.20). The UDP tunnel gate still comes
 * before the socket lookup (v4.20 udp_gro_receive). */
#define SW_4_20 (SW_4_13 | E(UDP_COMPLETE_UNSET) | E(PSKB_TRIM_KEEPS_COMPLETE))
/* v5.12: zero-checksum tunnel GRO gate 89e5c58fc1e2; plain UDP GRO
 * (e20cf8d3f1f7, v5.0) has moved the socket lookup before the gate.
 * Routing type 3 has its handler, ipv6_rpl_srh_rcv (8610c7c6e3bd, v5.7). */
#define SW_5_12 ((SW_4_20 & ~E(UDP_GATE_BEFORE_LOOKUP)) | E(UDP_GATE_NONZERO_CHECK) | \
                 E(RPL_RCV))
/* Debian bullseye's 5.10 (source 5.10.262; live 5.10.0-46): 5.12's gate fix
 * 89e5c58fc1e2 is in it by stable backport (live: kernel-findings.md L10),
 * and innerprotoinherit, the tunnels' pull of the inner network header
 * (ip_tunnel_rcv / __ip6_tnl_rcv, 2024 backports; live: kfuzz-cases.txt);
 * not the GPE GRO callback (live L11), the 2024
 * encapsulation flush or the 2026 GUE REMCSUM order check. */
#define SW_5_10 (SW_5_12 | E(GENEVE_INNER_PROTO_INHERIT) | E(TUNNEL_INNER_PULL))
/* Debian bookworm's 6.1 (6.1.192) and trixie's 6.12 (6.12.117): the GPE
 * GRO callback, "udp: prevent local UDP tunnel packets from being GROed"
 * (2024; 6.1 by backport), "net: gue: reject invalid REMCSUM offsets" (2026
 * stable), vxlan_rcv's pull of the inner IP header (2024; the 5.10 VM
 * kernel lacks it: kfuzz-cases), IOAM's hop-by-hop option (ipv6_hop_ioam,
 * v5.15), a refused jumbo option counted once (5.10.0-46 counts it twice:
 * kfuzz-cases); not v6.14's VXLAN reserved-bits order
 * (6.12.117 vxlan_rcv). */
#define SW_6_1 (SW_5_10 | E(VXLAN_GPE_GRO) | E(UDP_ENCAP_FLUSH) | E(GUE_REMCSUM_ORDER) | E(VXLAN_INNER_PULL) | \
                E(HOP_IOAM) | E(HOP_JUMBO_ONE_COUNT))
/* Debian trixie's 6.12: GRO's L3 flush checks moved from inet_gro_receive /
 * ipv6_gro_receive into tcp_gro_receive ("net: gro: move L3 flush checks to
 * tcp_gro_receive and udp_gro_receive_segment", v6.10: 6.12.118's
 * include/net/gro.h gro_receive_network_flush / inet_gro_flush; 6.1.192 has
 * inet_gro_receive's flush_id and is_atomic). geneve_udp_encap_recv
 * without 6.1.192's early drop of a protocol other than TEB, IPv4, IPv6
 * (6.12.117 read; bookworm and bullseye drop MPLS silently, kfuzz-cases;
 * the commit between was not identified). */
/* The 2026 stable fix "net: limit priority VLAN untag depth" (Debian's
 * 6.12.118 changelog; net/core/dev.c priority_tag_depth): in 6.12.118 and
 * the host's 6.18.44, not in 6.1.192 or 7.2.13 (both deliver a stack of 13
 * priority tags; trixie and the host drop it: kfuzz-cases). */
/* tcp_inbound_hash (net/ipv4/tcp.c) parses the options with
 * tcp_do_parse_auth_options since TCP-AO (v6.7): 6.12.118, the host's
 * 6.18.44 and 7.2.13 refuse a malformed option before the checksum (sid
 * seed 5004 frame 35167); 6.1.192's tcp_parse_md5sig_option ignores it.
 * Only Debian's 7.2 is built with CONFIG_TCP_AO (TCP_AO: the walk goes on
 * while 5 bytes remain; trixie and the host stop under 18: kfuzz-cases). */
#define SW_6_12 (SW_6_1 | E(GRO_NETWORK_FLUSH) | E(PRIO_TAG_DEPTH_LIMIT) | E(TCP_AUTH_OPTS) | \
                 E(GENEVE_ANY_INNER_PROTO))
/* modern (6.14+, 6.18, 7.x): v6.14 VXLAN reserved bits checked before RCO.
 * inet_gro_flush (include/net/gro.h) takes a fixed IPv4 ID with or without
 * DF, keeps one ip_fixedid bit per header (ip_fixedid:2, "1 << inner") and
 * checks the outer header's ID with DF too: read in 7.2.13, seen on the host
 * 6.18.44 (kfuzz-host cases), absent in 6.12.118; 6.14-6.17 not checked.
 * tcp_gro_receive flushes on a CWR difference (AccECN preparation, "gro:
 * prevent ACE field corruption & better AccECN handling"): 6.12.118 masks
 * it, the host's 6.18.44 flushes (kfuzz-cases, "CWR"); the first release
 * between them was not read here. */
#define SW_MODERN (SW_6_12 | E(VXLAN_RESERVED_EARLY) | E(GRO_FIXEDID_PER_HEADER) | E(TCP_GRO_CWR_IN_FLAGS))
/* Debian sid's 7.2 (7.2.13): gre_rcv's drop label in net/ipv4/ip_gre.c and
 * net/ipv6/ip6_gre.c, and gre_demux.c's, call
 * dev_core_stats_rx_dropped_inc(skb->dev) - a GRE header or checksum that
 * fails counts in the receiving device's rx_dropped (issue 28, finding 2).
 * Debian's 6.12.118 lacks it; the commit and first release between them
 * could not be read here (no history in the source packages; the host 6.18
 * has no GRE): the preset is the release seen to have it. */
/* tcp_gro_receive (net/ipv4/tcp_offload.c, 7.2.13) no longer flushes on a
 * CWR segment: the AccECN series' "gro: flushing when CWR is set
 * negatively affects AccECN" (posted as v13 in January 2026; the host's
 * 6.18.44 still flushes). A run whose every segment has CWR merges on 7.2
 * (sid seed 5001 frame 26925: the old KF50). */
/* ip6_frag_queue (net/ipv6/reassembly.c, 7.2.13) calls inet_frag_kill and
 * counts Ip6ReasmFails before it returns a parameter problem, so the
 * fragments queued before are lost; 6.12.118 returns at once, and so does
 * the host's 6.18.44 (a refused fragment between two that complete: Ip6ReasmOKs
 * 1, Ip6ReasmFails 0). The commit was not read here. */
#define SW_7_2 ((SW_MODERN & ~E(PRIO_TAG_DEPTH_LIMIT)) | E(GRE_RX_DROPPED) | E(TCP_GRO_CWR_NO_FLUSH) | E(TCP_AO) | \
                E(IP6_FRAG_PROB_KILLS))

struct era_def {
    struct csc_era era;
    const char *desc;
};

static const struct era_def eras[] = {
    { { "pre-part-vi", SW_PRE_PART_VI },
      "net-next 2014 before Part VI: csum_level/csum_cnt (77cffe23c1f8), GRO gate "
      "(662880f44203), no UNNECESSARY->COMPLETE conversion, no csum_bad" },
    { { "3.18", SW_3_18 },
      "Part VI (c5a65680b3c2): csum_bad, conversions (2abb7cdc0dc8) on every UDP tunnel "
      "socket; gate before lookup" },
    { { "4.0", SW_4_0 },
      "RCO (2733135329e9) + rco_correctness: PARTIAL-mode RCO, nopartial knob, "
      "PARTIAL counts only up to csum_start" },
    { { "4.6", SW_4_6 },
      "encap_mark on GRE/IPIP (fac8e0f57969), FOU/GUE stacking (c3483384ee51), is_fou "
      "(a0ca153f98db), GRO via UDP sockets (a6024562ffd7); zero-csum gate still refuses" },
    { { "4.13", SW_4_13 },
      "csum_bad removed (5d65a16a689a series); GRO clears remcsum_offload on exit" },
    { { "4.20", SW_4_20 },
      "UDP COMPLETE unset (db4f1be3ca9b); pskb_trim_rcsum keeps COMPLETE; the UDP tunnel "
      "gate still before the socket lookup" },
    { { "5.10", SW_5_10 },
      "Debian bullseye's 5.10 (5.10.24x-5.10.262): 5.12's zero-checksum gate fix by stable "
      "backport, GENEVE innerprotoinherit; no VXLAN-GPE GRO callback" },
    { { "5.12", SW_5_12 },
      "plain UDP GRO (e20cf8d3f1f7, v5.0): lookup before gate; zero outer UDP checksum no "
      "longer refuses tunnel GRO (89e5c58fc1e2)" },
    { { "6.1", SW_6_1 },
      "Debian bookworm's 6.1 (6.1.192): 5.10 + VXLAN-GPE GRO, the 2024 encapsulation flush "
      "and the 2026 GUE REMCSUM order check (stable backports)" },
    { { "6.12", SW_6_12 },
      "Debian trixie's 6.12 (6.12.117): 6.1 + GRO's L3 checks in tcp_gro_receive (v6.10: "
      "outermost and innermost IP header, one ip_fixedid); no v6.14 VXLAN reserved-bits order" },
    { { "modern", SW_MODERN },
      "6.14 and later (6.18, 7.x): 6.12 + the VXLAN reserved-bits check before RCO; GRO takes "
      "a fixed IPv4 ID per header, with or without DF; TCP GRO flushes on a CWR change (AccECN)" },
    { { "7.2", SW_7_2 },
      "Debian sid's 7.2 (7.2.13): modern + a GRE drop in gre_rcv counts the receiving "
      "device's rx_dropped; TCP GRO merges CWR segments (AccECN); an IPv6 fragment's "
      "parameter problem kills its reassembly queue" },
};

size_t csc_era_count(void)
{
    return sizeof eras / sizeof eras[0];
}

const struct csc_era *csc_era_at(size_t i)
{
    return i < csc_era_count() ? &eras[i].era : NULL;
}

bool csc_era_by_name(const char *name, struct csc_era *out)
{
    for (size_t i = 0; i < csc_era_count(); i++)
        if (!strcmp(eras[i].era.name, name)) {
            *out = eras[i].era;
            return true;
        }
    return false;
}

const char *csc_era_description(const char *name)
{
    for (size_t i = 0; i < csc_era_count(); i++)
        if (!strcmp(eras[i].era.name, name))
            return eras[i].desc;
    return "";
}
