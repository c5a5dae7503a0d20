/*
 * test_pkt_type.c - skb->pkt_type (issue 28 finding 4, KF8): tcp_v4_rcv /
 * tcp_v6_rcv discard a segment that is not PACKET_HOST before InSegs and
 * the checksum; eth_type_trans makes a broadcast / multicast MAC so, and
 * each tunnel device's skb_scrub_packet resets it (core/replay/eth.c).
 */
#include "helpers.h"

#include "proto/wire.h"

enum { NIC_ETH = 0 };

/* Set the group bit (multicast) or all of a layer's destination MAC
 * (broadcast) before the checksums */
static void dmac(struct pb_frame *f, int layer, int bcast)
{
    struct pb_patch *p = pb_patch_add(f, layer, PB_PATCH_SET, 0, 6);
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < 6; i++) {
        p->mask[i] = bcast || i == 0 ? 0xff : 0;
        p->val[i] = bcast ? 0xff : 0x01;
    }
    if (!bcast)
        p->mask[0] = 0x01;
}

static void assert_pkt_type_drop(void)
{
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "NOT_SPECIFIED (pkt_type not host)");
    ck_assert_uint_eq(R.kernel.counters, 0);          /* no TcpInCsumErrors, no InSegs */
}

static void assert_tcp_csum_error(void)
{
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
}

/* A plain TCP segment with a bad checksum to a broadcast or multicast MAC
 * (IPv4 and IPv6): discarded silently; UDP goes on to its checksum */
START_TEST(plain_tcp_to_group_mac_discarded)
{
    cfg_set("none", "6.12");
    for (int v6 = 0; v6 < 2; v6++)
        for (int bcast = 0; bcast < 2; bcast++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
            pb_push(&f, PB_TCP)->csum = PB_BAD;
            pb_push(&f, PB_PAYLOAD)->len = 20;
            dmac(&f, NIC_ETH, bcast);
            run(&f);
            assert_pkt_type_drop();
            ck_assert_int_ge(find_step(v6 ? "tcp_v6_rcv" : "tcp_v4_rcv", "drop"), 0);
        }
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 20;
    dmac(&f, NIC_ETH, 1);
    run(&f);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
}
END_TEST

/* outer IPv4 or IPv6 / TUN / inner Ethernet (group MAC when bcast >= 0) /
 * IPv4 / TCP with a bad checksum */
static void tunnel_frame(enum pb_kind tun, int v6, int outer_bcast, int inner_bcast)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
    if (tun == PB_VXLAN)
        pb_push(&f, PB_UDP);
    pb_push(&f, tun);
    int ieth = f.n;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 20;
    if (outer_bcast >= 0)
        dmac(&f, NIC_ETH, outer_bcast);
    if (inner_bcast >= 0)
        dmac(&f, ieth, inner_bcast);
    run(&f);
}

/* VXLAN (vxlan_set_mac) and gretap (ip_tunnel_rcv) run eth_type_trans after
 * the scrub: the inner MAC decides; an outer group MAC is scrubbed away.
 * ip6gretap (__ip6_tnl_rcv) scrubs after eth_type_trans: PACKET_HOST. */
START_TEST(tunnel_inner_mac_decides)
{
    cfg_set("none", "6.12");
    tunnel_frame(PB_VXLAN, 0, -1, 1);
    assert_pkt_type_drop();
    tunnel_frame(PB_VXLAN, 1, -1, 0);
    assert_pkt_type_drop();
    tunnel_frame(PB_VXLAN, 0, 1, -1);           /* outer broadcast, inner unicast */
    assert_tcp_csum_error();
    tunnel_frame(PB_GRE, 0, -1, 1);             /* gretap */
    assert_pkt_type_drop();
    tunnel_frame(PB_GRE, 1, -1, 1);             /* ip6gretap */
    assert_tcp_csum_error();
}
END_TEST

/* An L3 GRE tunnel: ip_tunnel_rcv marks a multicast outer destination
 * PACKET_BROADCAST, and skb_scrub_packet after it makes it PACKET_HOST
 * again (v6.12): an outer broadcast MAC does not reach the inner TCP */
START_TEST(l3_tunnel_scrubs)
{
    cfg_set("none", "6.12");
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_GRE);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 20;
    dmac(&f, NIC_ETH, 1);
    run(&f);
    assert_tcp_csum_error();
}
END_TEST

/* ERSPAN: over IPv4 the mirrored frame's MAC decides (unicast: another
 * host's, OTHERHOST at ip_rcv_core; broadcast: TCP discards it); over IPv6
 * __ip6_tnl_rcv leaves PACKET_HOST whatever the MAC (KF8) */
static void erspan(int v6, int bcast)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = ETH_P_ERSPAN;
    g->gre_flags = GRE_S;
    struct pb_layer *e = pb_push(&f, PB_RAW);
    memcpy(e->raw, "\x10\x64\x00\x07\x00\x00\x00\x01", 8);   /* ver 1, session 100 */
    e->len = 8;
    int m = f.n;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 20;
    if (bcast)
        dmac(&f, m, 1);
    run(&f);
}

START_TEST(erspan_mirrored_mac)
{
    cfg_set("none", "6.12");
    erspan(0, 0);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "OTHERHOST");
    erspan(0, 1);
    assert_pkt_type_drop();
    erspan(1, 0);
    assert_tcp_csum_error();
    erspan(1, 1);
    assert_tcp_csum_error();
}
END_TEST

/* The loop check after the tunnel device's eth_type_trans (vxlan_set_mac:
 * LOCAL_MAC, no counter; geneve_rx: rx_errors), v6.12 = 6.1.192 = 5.10:
 * decided only with the device's MAC given (cfg dev_mac_known, as the
 * kernel harnesses set it); without it the source is another host's. An
 * innerprotoinherit GENEVE device is not checked. kfuzz cases "vxlan ip4
 * none tcp4 ieth.smac=own", "geneve ip4 none tcp4 ieth.smac=own". */
START_TEST(tunnel_loop_check_own_source_mac)
{
    static const uint8_t own[6] = { 0x02, 0, 0, 0, 0, 0x42 };
    for (int geneve = 0; geneve < 2; geneve++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_UDP);
        pb_push(&f, geneve ? PB_GENEVE : PB_VXLAN);
        pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_TCP);
        pb_push(&f, PB_PAYLOAD)->len = 40;
        struct pb_patch *p = pb_patch_add(&f, 4, PB_PATCH_SET, 6, 6);   /* the source MAC */
        ck_assert_ptr_nonnull(p);
        for (int i = 0; i < 6; i++) {
            p->mask[i] = 0xff;
            p->val[i] = own[i];
        }
        cfg_set("none", "6.12");
        run(&f);                                         /* not told: taken */
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);

        cfg_set("none", "6.12");
        CFG.dev_mac_known = true;
        memcpy(CFG.dev_mac, own, 6);
        run(&f);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, 3);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason),
                         geneve ? "NOT_SPECIFIED (geneve: inner source MAC is the device's)" : "LOCAL_MAC");
        ck_assert_uint_eq(R.kernel.counters, geneve ? 1u << CSC_C_DEV_RX_ERRORS : 0);
        ck_assert_int_ge(find_step(geneve ? "geneve_rx" : "vxlan_set_mac", "drop"), 0);

        CFG.dev_mac[5] = 0x43;                           /* another MAC: taken */
        run(&f);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    }
}
END_TEST

Suite *pkt_type_suite(void);
Suite *pkt_type_suite(void)
{
    Suite *s = suite_create("pkt_type (issue 28 finding 4)");
    TCase *t = tcase_create("core");
    tcase_add_test(t, plain_tcp_to_group_mac_discarded);
    tcase_add_test(t, tunnel_inner_mac_decides);
    tcase_add_test(t, l3_tunnel_scrubs);
    tcase_add_test(t, erspan_mirrored_mac);
    tcase_add_test(t, tunnel_loop_check_own_source_mac);
    suite_add_tcase(s, t);
    return s;
}
