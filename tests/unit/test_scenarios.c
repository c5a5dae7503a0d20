/*
 * test_scenarios.c - kernel-rx-checksum-model.md §6: every worked scenario
 * S1-S18 (and variants) as a test. The frame is built here, analysed under
 * the scenario's era, report and configuration, and the per-layer methods,
 * software passes, GRO outcome and verdict are asserted.
 */
#include "helpers.h"

#define GRO CSC_PATH_GRO
#define NORMAL CSC_PATH_NORMAL

/* outer IPv4|IPv6 / UDP[u] / VXLAN / Eth / IPv4 / TCP[t] or UDP[t] / payload */
static void vxlan(struct pb_frame *f, int outer6, enum pb_state u, int inner_udp, enum pb_state t,
                  int payload)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, outer6 ? PB_IPV6 : PB_IPV4);
    pb_push(f, PB_UDP)->csum = (uint8_t)u;
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, inner_udp ? PB_UDP : PB_TCP)->csum = (uint8_t)t;
    pb_push(f, PB_PAYLOAD)->len = (uint16_t)payload;
}

static uint32_t bytes_from(int layer)
{
    return (uint32_t)(FRAME_LEN - R.layers[layer].off);
}

/* No replay without an IP layer the receive path starts from: the verdict
 * stays unknown (not "accept"), and a stack the model does not cover says
 * so. */
/* tcp_inbound_hash on the listener, before tcp_checksum_complete
 * (net/ipv4/tcp.c v6.12 = 7.2.13; 6.1.192 tcp_parse_md5sig_option). 8
 * option bytes: a length-0 option then an MSS - only a CONFIG_TCP_AO build
 * (7.2) walks under 18 bytes and refuses it; 20 bytes: an 18-byte MD5 option
 * with no key drops on every era, ahead of a bad checksum; with no socket
 * the checksum decides. */
static void tcp_with_options(struct pb_frame *f, const uint8_t *opt, unsigned n, int bad)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    struct pb_layer *t = pb_push(f, PB_TCP);
    t->ip_opts = (uint8_t)n;
    if (bad)
        t->csum = PB_BAD;
    pb_push(f, PB_PAYLOAD)->len = 100;   /* past CHECKSUM_BREAK: skb_checksum_init defers the sum */
    struct pb_patch *p = pb_patch_add(f, 2, PB_PATCH_SET, 20, n);
    memcpy(p->val, opt, n);
}

START_TEST(tcp_inbound_hash_by_era)
{
    static const uint8_t len0_mss[8] = { 2, 0, 1, 1, 2, 4, 5, 0xb4 };
    static const uint8_t md5[20] = { 19, 18, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 1, 1 };
    struct pb_frame f;
    tcp_with_options(&f, len0_mss, sizeof len0_mss, 1);
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert(has_counter(CSC_C_TCP_IN_CSUM_ERRORS));       /* under 18 bytes: not walked */
    cfg_set("none", "7.2");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert(!has_counter(CSC_C_TCP_IN_CSUM_ERRORS));      /* TCP_AUTH_HDR first */
    ck_assert_int_ne(find_step("tcp_v4_rcv", "drop"), -1);
    tcp_with_options(&f, md5, sizeof md5, 1);
    for (int e = 0; e < 3; e++) {
        cfg_set("none", e == 0 ? "6.1" : e == 1 ? "6.12" : "7.2");
        run(&f);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert(!has_counter(CSC_C_TCP_IN_CSUM_ERRORS));  /* TCPMD5Unexpected first */
        CFG.inner_socket = false;                           /* no socket: no hash check */
        run(&f);
        ck_assert(has_counter(CSC_C_TCP_IN_CSUM_ERRORS));
    }
    tcp_with_options(&f, len0_mss, sizeof len0_mss, 0);
    cfg_set("none", "6.1");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    /* an AO option, then an MD5 one: a second signature option, refused
     * (TCP_AUTH_HDR) by 6.12 without CONFIG_TCP_AO too; 6.1 sees the MD5 alone */
    static const uint8_t ao_md5[24] = { 29, 6, 1, 1, 0, 0, 19, 18, 1, 2, 3, 4, 5, 6, 7, 8,
                                        9, 10, 11, 12, 13, 14, 15, 16 };
    tcp_with_options(&f, ao_md5, sizeof ao_md5, 0);
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "TCP_AUTH_HDR");
    cfg_set("none", "6.1");
    run(&f);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "TCP_MD5UNEXPECTED / TCP_AOUNEXPECTED (no key)");
}
END_TEST

START_TEST(no_ip_layer_verdict_unknown)
{
    static const uint8_t arp[42] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06,
                                     0, 1, 8, 0, 6, 4, 0, 1 };
    cfg_set("none", "modern");
    run_bytes(arp, sizeof arp, sizeof arp, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.ran, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_uint_eq(R.kernel.warnings, 0);

    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_MPLS);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    run(&f);
    ck_assert_int_eq(lay(CSC_P_MPLS, 0), 1);
    ck_assert_int_eq(R.kernel.ran, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_uint_eq(R.kernel.warnings, CSC_W_NOT_MODELLED);
}
END_TEST

START_TEST(s1_none_gro_on_nic)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    cfg_set("none", "modern");
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ASSERT_METHOD(ou, CSC_M_SW_PASS, GRO);
    ASSERT_METHOD(it, CSC_M_COMPLETE, GRO);
    ck_assert_int_eq(R.layers[ou].k.gro_conv, 0);   /* cb already valid: no conversion */
    ASSERT_PASSES(1);
    ck_assert_uint_eq(R.kernel.sw_bytes, bytes_from(ou));
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);      /* held */
    const struct csc_dev *vx = dev_of_kind(CSC_P_VXLAN);
    ck_assert_int_eq(vx->entry.ip_summed, CSC_CHECKSUM_UNNECESSARY);  /* O: vx0 sees U */
    ck_assert_int_eq(vx->entry.csum_level, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

START_TEST(s2_none_no_gro_on_nic)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    cfg_set("none", "modern");
    CFG.gro_nic = false;
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ASSERT_METHOD(ou, CSC_M_SW_PASS, NORMAL);   /* encap check: udp_lib_checksum_complete */
    ASSERT_METHOD(it, CSC_M_COMPLETE, GRO);     /* vx0 GRO on the software COMPLETE */
    ck_assert_int_eq(R.layers[ou].k.normal_conv, 0);   /* deferred: csum_valid 0 */
    ASSERT_PASSES(1);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->entry.ip_summed, CSC_CHECKSUM_COMPLETE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

static void s3_for(const char *era)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    cfg_set("unnecessary:0", era);
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ASSERT_METHOD(ou, CSC_M_DEVICE, GRO);
    ck_assert_int_eq(R.layers[ou].k.gro_conv, 1);   /* Part VI: conversion allows GRO */
    ASSERT_METHOD(it, CSC_M_COMPLETE, GRO);
    ASSERT_PASSES(0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}

START_TEST(s3_u0_conversion_allows_gro)
{
    s3_for("3.18");
    s3_for("modern");
}
END_TEST

START_TEST(s3prime_u0_before_part_vi)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    cfg_set("unnecessary:0", "pre-part-vi");
    CFG.gro_tunnel = false;          /* the spec's row: the pass in tcp_checksum_complete */
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);
    ck_assert_int_eq(R.layers[ou].k.gro_conv, 0);
    ASSERT_METHOD(ou, CSC_M_DEVICE, GRO);
    ASSERT_METHOD(it, CSC_M_SW_PASS, NORMAL);
    ASSERT_PASSES(1);
    ck_assert_uint_eq(R.kernel.sw_bytes, bytes_from(it));
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);

    /* GRO on the VXLAN device changes nothing here: before v4.3 vxlan_rcv
     * ended in netif_rx (v4.2.8 drivers/net/vxlan.c), no GRO pass at vx0
     * (the spec's [U] question, settled by the source). */
    cfg_set("unnecessary:0", "pre-part-vi");
    run(&f);
    ASSERT_METHOD(it, CSC_M_SW_PASS, NORMAL);
    ck_assert_int_eq(R.layers[it].k.dev, 1);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->gro_reason, CSC_G_NETIF_RX);
    ASSERT_PASSES(1);
}
END_TEST

START_TEST(s4_u1_nic_parses_vxlan)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    cfg_set("unnecessary:1", "modern");
    run(&f);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_DEVICE, GRO);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_DEVICE, GRO);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.gro_conv, 0);
    ASSERT_PASSES(0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    /* GRO consumed csum_cnt only: the skb still carries level 1 into the normal path */
    const struct csc_dev *vx = dev_of_kind(CSC_P_VXLAN);
    ck_assert_int_eq(vx->entry.ip_summed, CSC_CHECKSUM_UNNECESSARY);
    ck_assert_int_eq(vx->entry.csum_level, 0);
}
END_TEST

START_TEST(s5_complete)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    cfg_set("complete", "modern");
    run(&f);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_COMPLETE, GRO);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, GRO);
    ASSERT_PASSES(0);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->entry.ip_summed, CSC_CHECKSUM_COMPLETE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

START_TEST(s6a_82599_zero_csum_no_gro)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_ZERO, 0, PB_OK, 100);
    cfg_set("none", "4.6");
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);   /* ~3 vs 8.6 Gbit/s */
    ASSERT_METHOD(ou, CSC_M_ZERO, GRO);
    ASSERT_METHOD(it, CSC_M_SW_PASS, GRO);
    ck_assert_int_eq(R.layers[it].k.dev, 1);                          /* in vx0's GRO */
    ASSERT_PASSES(1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);

    /* The outer-l4 profile (82599) derives the same NONE report from the bytes. */
    cfg_set("outer-l4", "4.6");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].entry.ip_summed, CSC_CHECKSUM_NONE);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);
}
END_TEST

START_TEST(s6b_zero_csum_gro_after_fix)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_ZERO, 0, PB_OK, 100);
    cfg_set("none", "modern");
    run(&f);
    int it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);       /* aggregated on the NIC */
    ASSERT_METHOD(it, CSC_M_SW_PASS, GRO);
    ck_assert_int_eq(R.layers[it].k.dev, 0);
    ASSERT_PASSES(1);
    ck_assert_uint_eq(R.kernel.sw_bytes, bytes_from(it));
    const struct csc_dev *vx = dev_of_kind(CSC_P_VXLAN);
    ck_assert_int_eq(vx->entry.ip_summed, CSC_CHECKSUM_UNNECESSARY); /* O: single frame: U */
    /* 5.12 is the first preset with 89e5c58fc1e2 */
    cfg_set("none", "5.12");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    cfg_set("none", "4.20");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);
}
END_TEST

START_TEST(s7_u0_zero_csum)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_ZERO, 0, PB_OK, 100);
    cfg_set("unnecessary:0", "4.6");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_DEVICE, GRO);
    ASSERT_PASSES(1);
    cfg_set("unnecessary:0", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_SW_PASS, GRO);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].k.dev, 0);
    ASSERT_PASSES(1);
    /* tunnel-l4 NICs (ice/i40e) count the zero checksum as verified */
    cfg_set("tunnel-l4", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].entry.ip_summed, CSC_CHECKSUM_UNNECESSARY);
    ck_assert_int_eq(R.kernel.devs[0].entry.csum_level, 1);
    ASSERT_PASSES(0);
}
END_TEST

/* Seed 000: IP > GRE(csum) > IP > UDP(zero) > VXLAN > IP > UDP(csum) */
static void double_encap(struct pb_frame *f, enum pb_state mid, int inner_ip_opts)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_GRE)->gre_flags = 0x8000;
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP)->csum = (uint8_t)mid;
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4)->ip_opts = (uint8_t)inner_ip_opts;
    pb_push(f, PB_UDP);
    pb_push(f, PB_PAYLOAD)->len = 100;
}

START_TEST(s8a_double_encap_part_vi)
{
    struct pb_frame f;
    double_encap(&f, PB_ZERO, 0);
    cfg_set("none", "3.18");
    run(&f);
    ASSERT_METHOD(lay(CSC_P_GRE, 0), CSC_M_SW_PASS, GRO);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_ZERO, GRO);
    ASSERT_METHOD(lay(CSC_P_UDP, 1), CSC_M_COMPLETE, GRO);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_ENCAP_MARK);   /* udp_mark */
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, lay(CSC_P_UDP, 1));
    ASSERT_PASSES(1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

START_TEST(s8b_double_encap_inner_options)
{
    struct pb_frame f;
    double_encap(&f, PB_ZERO, 4);
    cfg_set("none", "3.18");
    run(&f);
    ASSERT_METHOD(lay(CSC_P_GRE, 0), CSC_M_SW_PASS, GRO);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_IP_OPTIONS);
    ck_assert_int_eq(dev_of_kind(CSC_P_GRE)->gro_reason, CSC_G_UDP_GATE);
    ASSERT_METHOD(lay(CSC_P_UDP, 1), CSC_M_SW_PASS, NORMAL);         /* at recvmsg */
    ASSERT_PASSES(2);                 /* seed 000: "skb_checksum in GRO and normal path" */
}
END_TEST

START_TEST(s8c_double_encap_modern)
{
    struct pb_frame f;
    double_encap(&f, PB_ZERO, 0);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_ENCAP_MARK);  /* GRE set encap_mark */
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, lay(CSC_P_UDP, 0));
    ASSERT_METHOD(lay(CSC_P_GRE, 0), CSC_M_SW_PASS, GRO);
    const struct csc_dev *gre = dev_of_kind(CSC_P_GRE);
    ck_assert_int_eq(gre->gro_reason, CSC_G_NOT_TUNNEL);               /* gate ok, inner flush */
    int in = lay(CSC_P_UDP, 1);
    ASSERT_METHOD(in, CSC_M_SW_PASS, GRO);
    ck_assert_int_eq(R.layers[in].k.dev, 1);
    ASSERT_PASSES(2);
}
END_TEST

START_TEST(s8cprime_double_encap_4_6)
{
    struct pb_frame f;
    double_encap(&f, PB_ZERO, 0);
    cfg_set("none", "4.6");
    run(&f);
    ck_assert_int_eq(dev_of_kind(CSC_P_GRE)->gro_reason, CSC_G_UDP_GATE);
    int in = lay(CSC_P_UDP, 1);
    ASSERT_METHOD(in, CSC_M_SW_PASS, GRO);
    ck_assert_int_eq(R.kernel.devs[R.layers[in].k.dev].kind, CSC_P_VXLAN);
    ASSERT_PASSES(2);
}
END_TEST

START_TEST(s8d_double_encap_mid_csum)
{
    struct pb_frame f;
    double_encap(&f, PB_OK, 0);
    cfg_set("none", "modern");
    run(&f);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_COMPLETE, GRO);
    int in = lay(CSC_P_UDP, 1);
    ASSERT_METHOD(in, CSC_M_COMPLETE, GRO);
    ck_assert_int_eq(R.kernel.devs[R.layers[in].k.dev].kind, CSC_P_GRE);
    ASSERT_PASSES(1);                 /* the "right combination" of seed 000 */
    /* the GRO conversion at the mid UDP happens in gre0's GRO pass */
    int conv = 0;
    for (int i = 0; i < R.kernel.nsteps; i++)
        if (!strcmp(csc_what_name(R.kernel.steps[i].what), "convert") &&
            R.kernel.steps[i].layer == lay(CSC_P_UDP, 0))
            conv = R.kernel.steps[i].dev;
    ck_assert_int_eq(R.kernel.devs[conv].kind, CSC_P_GRE);
}
END_TEST

static void gre_tcp(struct pb_frame *f, enum pb_state g)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    struct pb_layer *gl = pb_push(f, PB_GRE);
    gl->gre_flags = 0x8000;
    gl->csum = (uint8_t)g;
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP);
    pb_push(f, PB_PAYLOAD)->len = 100;
}

START_TEST(s9_bad_gre_two_passes)
{
    struct pb_frame f;
    gre_tcp(&f, PB_BAD);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_GRE, 0));
    ck_assert_uint_eq(R.kernel.counters, 0);                /* silent kfree_skb */
    ASSERT_PASSES(2);
    ASSERT_METHOD(lay(CSC_P_GRE, 0), CSC_M_SW_PASS, NORMAL);
}
END_TEST

START_TEST(s9prime_bad_gre_csum_bad)
{
    struct pb_frame f;
    gre_tcp(&f, PB_BAD);
    cfg_set("none", "3.18");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ASSERT_PASSES(1);
    ASSERT_METHOD(lay(CSC_P_GRE, 0), CSC_M_CSUM_BAD, NORMAL);
}
END_TEST

START_TEST(s10_bad_inner_tcp_three_passes)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_BAD, 100);
    cfg_set("unnecessary:0", "modern");
    run(&f);
    int it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, it);
    ck_assert_uint_eq(R.kernel.counters,
                      counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.normal_conv, 1);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->entry.ip_summed, CSC_CHECKSUM_COMPLETE);
    ASSERT_PASSES(3);
    ck_assert_int_eq(R.layers[it].k.passes, 3);
}
END_TEST

START_TEST(s10prime_bad_inner_tcp_csum_bad)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_BAD, 100);
    cfg_set("unnecessary:0", "3.18");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters,
                      counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.normal_conv, 0);   /* refused: csum_bad */
    /* v3.18 vxlan_rcv ends in netif_rx: no GRO pass at vx0 (the GRO skip on
     * csum_bad shows at a gro_cells device: S9' over GRE) */
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->gro_reason, CSC_G_NETIF_RX);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_CSUM_BAD, NORMAL);
    ASSERT_PASSES(1);
}
END_TEST

START_TEST(s11_bad_outer_udp_complete)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_BAD, 1, PB_OK, 100);
    cfg_set("complete", "modern");
    run(&f);
    int ou = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, ou);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
    ASSERT_PASSES(2);
    /* db4f1be3ca9b: the COMPLETE value was unset in udp4_csum_init */
    int unset = 0;
    for (int i = 0; i < R.kernel.nsteps; i++)
        unset |= !strcmp(csc_what_name(R.kernel.steps[i].what), "complete-unset");
    ck_assert_int_eq(unset, 1);
}
END_TEST

START_TEST(s11prime_bad_outer_udp_complete_old)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_BAD, 1, PB_OK, 100);
    cfg_set("complete", "4.13");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
    ASSERT_PASSES(2);
    for (int i = 0; i < R.kernel.nsteps; i++)
        ck_assert_str_ne(csc_what_name(R.kernel.steps[i].what), "complete-unset");
}
END_TEST

START_TEST(s12_ipv6_zero_csum_refused)
{
    struct pb_frame f;
    vxlan(&f, 1, PB_ZERO, 1, PB_OK, 100);
    cfg_set("none", "modern");
    run(&f);
    int ou = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[ou].verdict, CSC_V_ZERO6);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, ou);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP6_IN_CSUM_ERRORS, CSC_C_UDP6_IN_ERRORS));
    ASSERT_PASSES(1);                 /* the inner pass in GRO, wasted */
    ASSERT_METHOD(lay(CSC_P_UDP, 1), CSC_M_SW_PASS, GRO);
}
END_TEST

START_TEST(s12prime_ipv6_zero_csum_allowed)
{
    struct pb_frame f;
    vxlan(&f, 1, PB_ZERO, 1, PB_OK, 100);
    cfg_set("none", "modern");
    CFG.udp6_zero_csum_rx = true;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ASSERT_PASSES(1);
}
END_TEST

/* IPv4 / UDP[u] / VXLAN+RCO / Eth / IPv4 / TCP[t] */
static void rco(struct pb_frame *f, enum pb_state u, enum pb_state t)
{
    vxlan(f, 0, u, 0, t, 100);
    f->l[3].rco = 1;
}

/* The garbage-accepted warning looks at this frame's layers only: a frame
 * whose last layer index held a bad, reached checksum in the frame before
 * (IPv4 in IPv4 / UDP bad, dropped) is accepted clean */
START_TEST(garbage_warning_reads_this_frames_layers)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 20;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.layers[3].verdict, CSC_V_BAD);
    ck_assert_int_ne(R.layers[3].k.method, CSC_M_NOT_REACHED);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    run(&f);
    ck_assert_int_eq(R.nlayers, 3);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_uint_eq(R.kernel.warnings & CSC_W_GARBAGE_ACCEPTED, 0);
}
END_TEST

START_TEST(s13_rco_partial_default)
{
    struct pb_frame f;
    rco(&f, PB_OK, PB_SEED);
    cfg_set("unnecessary:0", "modern");
    CFG.remcsum_rx = true;
    run(&f);
    int it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.layers[it].verdict, CSC_V_RCO);
    ASSERT_METHOD(it, CSC_M_REMCSUM, GRO);
    ASSERT_PASSES(0);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->entry.ip_summed, CSC_CHECKSUM_PARTIAL);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

START_TEST(s13b_rco_garbage_accepted)
{
    struct pb_frame f;
    rco(&f, PB_OK, PB_GARBAGE);
    cfg_set("unnecessary:0", "modern");
    CFG.remcsum_rx = true;
    run(&f);
    int it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.layers[it].verdict, CSC_V_BAD);           /* flagged by us */
    ck_assert_int_eq(R.layers[it].reason, CSC_R_RCO_WRONG_SEED);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);            /* accepted by the kernel */
    ASSERT_PASSES(0);
    ck_assert(R.kernel.warnings & CSC_W_GARBAGE_ACCEPTED);
}
END_TEST

START_TEST(s13c_rco_without_remcsumrx)
{
    struct pb_frame f;
    rco(&f, PB_OK, PB_SEED);
    cfg_set("none", "modern");
    run(&f);
    int vx = lay(CSC_P_VXLAN, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, vx);
    ck_assert_uint_eq(R.kernel.counters,
                      counters_of(CSC_C_DEV_RX_FRAME_ERRORS, CSC_C_DEV_RX_ERRORS));   /* v6.14+ */
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_CSUM_FAIL);   /* TCP vs the seed */
    cfg_set("none", "5.12");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 0);                           /* no counter before */
}
END_TEST

START_TEST(s13d_rco_zero_outer_nothing_verified)
{
    struct pb_frame f;
    rco(&f, PB_ZERO, PB_GARBAGE);
    cfg_set("none", "modern");
    CFG.remcsum_rx = true;
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_RCO_NO_CSUM);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert(R.kernel.warnings & CSC_W_RCO_NOTHING_VERIFIED);
    ASSERT_PASSES(0);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_OUTER_MISSING);
}
END_TEST

START_TEST(s14_rco_nopartial)
{
    struct pb_frame f;
    rco(&f, PB_OK, PB_SEED);
    cfg_set("none", "modern");
    CFG.remcsum_rx = true;
    CFG.remcsum_nopartial = true;
    run(&f);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_SW_PASS, GRO);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, GRO);
    ASSERT_PASSES(2);                 /* seed 002: "csum_partial potentially twice" */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    /* a wrong seed now fails the inner validation */
    rco(&f, PB_OK, PB_GARBAGE);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
}
END_TEST

START_TEST(s14prime_rco_nopartial_complete)
{
    struct pb_frame f;
    rco(&f, PB_OK, PB_SEED);
    cfg_set("complete", "modern");
    CFG.remcsum_rx = true;
    CFG.remcsum_nopartial = true;
    run(&f);
    ASSERT_PASSES(0);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, GRO);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* RCO with nopartial twice on one packet: vxlan_gro_remcsum adjusts the
 * inner TCP field, skb_gro_flush_final_remcsum puts it back
 * (skb_gro_remcsum_cleanup, include/net/gro.h v6.12), then vxlan_rcv's
 * vxlan_remcsum adjusts it again on the normal path. A sender that filled
 * in the full TCP checksum (not the seed RCO wants) ends with a field
 * adjusted by the delta: bad, TCP drops. The second adjustment lands on
 * the field the first was undone from (its patch slot reused). */
START_TEST(rco_adjusted_again_after_gro_undid_it)
{
    struct pb_frame f;
    rco(&f, PB_OK, PB_OK);
    cfg_set("none", "modern");
    CFG.remcsum_rx = true;
    CFG.remcsum_nopartial = true;
    run(&f);
    int t = lay(CSC_P_TCP, 0);
    int undo = find_step("skb_gro_flush_final_remcsum", "remcsum-cleanup");
    ck_assert_int_ge(undo, 0);
    ck_assert_int_gt(find_step("vxlan_remcsum", "remcsum-adjust"), undo);
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, t);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    ck_assert_int_eq(R.layers[t].k.ok, 0);
    ck_assert_uint_eq(R.kernel.warnings, 0);
}
END_TEST

START_TEST(s15_gue_rco_ipip)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_GUE)->rco = 1;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("complete", "modern");
    run(&f);
    int g = lay(CSC_P_GUE, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_uint_eq(R.layers[g].rco_start, 20);
    ck_assert_uint_eq(R.layers[g].rco_offset, 36);
    ck_assert_int_eq(R.layers[it].verdict, CSC_V_RCO);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_COMPLETE, GRO);
    ASSERT_METHOD(it, CSC_M_REMCSUM, GRO);
    ASSERT_PASSES(0);
    ck_assert_int_eq(dev_of_kind(CSC_P_IPV4)->entry.ip_summed, CSC_CHECKSUM_PARTIAL);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

START_TEST(s16_lying_nic_level1)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_BAD, 0, PB_BAD, 100);
    cfg_set("unnecessary:1", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ASSERT_PASSES(0);
    ck_assert(R.kernel.warnings & CSC_W_GARBAGE_ACCEPTED);
}
END_TEST

START_TEST(s16p_lying_nic_level0_with_gro)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_BAD, 1, PB_OK, 44);   /* inner UDP datagram of 52 bytes (<= 76) */
    cfg_set("unnecessary:0", "modern");
    run(&f);
    int in = lay(CSC_P_UDP, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ASSERT_METHOD(in, CSC_M_SW_PASS, GRO);     /* the converted sum is off by the error */
    ASSERT_PASSES(1);
    ck_assert(!(R.kernel.warnings & CSC_W_HW_CSUM_FAULT));   /* skb is U: no fault report */
}
END_TEST

START_TEST(s16pp_level0_after_gro_hw_fault)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_BAD, 1, PB_OK, 44);
    cfg_set("unnecessary:0", "modern");
    CFG.gro_nic = false;                       /* BPF bpf_csum_level() after the TAP's GRO */
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->entry.ip_summed, CSC_CHECKSUM_COMPLETE);
    ASSERT_PASSES(2);
    ck_assert(R.kernel.warnings & CSC_W_HW_CSUM_FAULT);
}
END_TEST

/* S16'' with an inner TCP segment to a multicast MAC: tcp4_gro_receive at
 * the VXLAN device takes the converted (wrong) sum, computes the segment in
 * software (__skb_gro_checksum_complete, include/net/gro.h v6.12) and finds
 * it good - netdev_rx_csum_fault for a CHECKSUM_COMPLETE not made in
 * software; tcp_v4_rcv then discards the segment (not PACKET_HOST) before
 * its own checksum, so the GRO pass is the only one and its report the
 * only report */
START_TEST(s16pp_gro_pass_hw_fault_multicast)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_BAD, 0, PB_OK, 44);
    struct pb_patch *p = pb_patch_add(&f, 4, PB_PATCH_SET, 0, 1);
    ck_assert_ptr_nonnull(p);
    p->mask[0] = 0x01;
    p->val[0] = 0x01;
    cfg_set("unnecessary:0", "modern");
    CFG.gro_nic = false;
    run(&f);
    int t = lay(CSC_P_TCP, 0);
    ASSERT_METHOD(t, CSC_M_SW_PASS, GRO);
    ASSERT_PASSES(1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, t);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ck_assert(R.kernel.warnings & CSC_W_HW_CSUM_FAULT);
}
END_TEST

START_TEST(s17_partial_inner_lco)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_LCO, 0, PB_SEED, 100);
    cfg_set("partial:inner", "modern");
    CFG.replay_sent = true;   /* the outermost checksum is LCO: "probably sent" otherwise */
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.layers[ou].verdict, CSC_V_LCO);
    ck_assert_int_eq(R.layers[it].verdict, CSC_V_PARTIAL);
    ASSERT_METHOD(ou, CSC_M_PARTIAL, GRO);
    ASSERT_METHOD(it, CSC_M_PARTIAL, GRO);
    ASSERT_PASSES(0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
}
END_TEST

START_TEST(s18_bad_ip_header)
{
    struct pb_frame f;
    vxlan(&f, 0, PB_OK, 0, PB_OK, 100);
    f.l[1].csum = PB_BAD;
    const char *reports[] = { "none", "unnecessary:1", "complete", "partial:inner" };
    for (int i = 0; i < 4; i++) {
        cfg_set(reports[i], "modern");
        run(&f);
        ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_IP_CSUM);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_IPV4, 0));
        ck_assert_uint_eq(R.kernel.counters,
                          counters_of(CSC_C_IP_IN_CSUM_ERRORS, CSC_C_IP_IN_HDR_ERRORS));
        ASSERT_PASSES(0);
    }
}
END_TEST

/* An IPv4 header the decoder refuses right after Ethernet - ihl 4, or
 * version 6 under EtherType 0x0800: ip_rcv_core (net/ipv4/ip_input.c
 * v6.12) drops it, IpInHdrErrors (IP_INHDR), at the Ethernet layer that
 * carries it. */
START_TEST(ip_rcv_core_refuses_a_malformed_header)
{
    static const uint8_t b0[] = { 0x44, 0x65 };
    for (unsigned i = 0; i < 2; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 40;
        cfg_set("none", "modern");
        run(&f);
        FRAME[14] = b0[i];
        run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
        ck_assert_int_eq(R.nlayers, 1);
        ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
        ck_assert_int_eq(R.stop_proto, CSC_P_IPV4);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, 0);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_INHDR");
        ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP_IN_HDR_ERRORS);
        ck_assert_int_ge(find_step("ip_rcv_core", "drop"), 0);
    }
}
END_TEST

/* An IP header the frame ends inside (a 24-byte IPv4, a 34-byte IPv6
 * frame: only a TAP carries them, tun_get_user takes any frame of
 * ETH_HLEN on): ip_rcv_core / ip6_rcv_core's pskb_may_pull of the fixed
 * header fails, IpInHdrErrors / Ip6InHdrErrors (IP_INHDR). The same bytes
 * cut by the capture (caplen < len) are not decided. */
START_TEST(ip_rcv_core_drops_a_header_the_frame_does_not_hold)
{
    for (int v6 = 0; v6 < 2; v6++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH)->proto = v6 ? 0x86dd : 0x0800;
        struct pb_layer *r = pb_push(&f, PB_RAW);
        memcpy(r->raw, v6 ? "\x60\x00\x00\x00\x00\x1c\x06\x40" : "\x45\x00\x00\x1c\x00\x01\x40\x00", 8);
        r->len = v6 ? 20 : 10;
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_uint_eq(FRAME_LEN, v6 ? 34u : 24u);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, 0);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_INHDR");
        ck_assert_uint_eq(R.kernel.counters, 1u << (v6 ? CSC_C_IP6_IN_HDR_ERRORS : CSC_C_IP_IN_HDR_ERRORS));
        ck_assert_int_ge(find_step(v6 ? "ipv6_rcv" : "ip_rcv_core", "drop"), 0);
        run_bytes(FRAME, FRAME_LEN, FRAME_LEN + 40u, CSC_LINK_ETHERNET);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    }
}
END_TEST

/* A VXLAN packet whose inner IP header ends with it, every outer length
 * right. Since "vxlan: Pull inner IP header in vxlan_rcv()" (era
 * VXLAN_INNER_PULL, 6.1 on) vxlan_rcv drops it: rx_length_errors +
 * rx_errors. Before it (5.10) the device takes it: the cell's GRO pass
 * flushes it (inet_gro_receive / ipv6_gro_receive: skb_gro_header fails)
 * and ip_rcv_core / ip6_rcv_core's pull fails: Ip[6]InHdrErrors. Under an
 * outer CE, 5.10's IP_ECN_decapsulate reads the short header's TOS (Not-ECT)
 * and drops it: rx_frame_errors + rx_errors; a header of one byte has no
 * TOS there: not decided. */
START_TEST(vxlan_inner_ip_header_short_by_era)
{
    for (int v6 = 0; v6 < 2; v6++)
        for (int e = 0; e < 4; e++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4);
            pb_push(&f, PB_UDP);
            pb_push(&f, PB_VXLAN);
            pb_push(&f, PB_ETH)->proto = v6 ? 0x86dd : 0x0800;
            struct pb_layer *r = pb_push(&f, PB_RAW);
            memcpy(r->raw, v6 ? "\x60\x00\x00\x00\x00\x1c\x06\x40" : "\x45\x00\x00\x1c\x00\x01\x40\x00", 8);
            r->len = e == 3 ? 1 : v6 ? 20 : 10;      /* 3: no TOS byte to read */
            if (e >= 2) {
                struct pb_patch *p = pb_patch_add(&f, 1, PB_PATCH_SET, 1, 1);
                p->val[0] = 0x03;                     /* outer CE */
            }
            cfg_set("none", e == 0 ? "6.12" : "5.10");
            run(&f);
            if (e == 3) {
                ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
                continue;
            }
            if (R.kernel.verdict != CSC_K_DROP)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            if (e == 2) {
                ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_VXLAN, 0));
                ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_TUNNEL_ECN");
                ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_DEV_RX_FRAME_ERRORS, CSC_C_DEV_RX_ERRORS));
                continue;
            }
            if (e == 0) {
                ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_VXLAN, 0));
                ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "PKT_TOO_SMALL");
                ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_DEV_RX_LENGTH_ERRORS, CSC_C_DEV_RX_ERRORS));
                continue;
            }
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_ETH, 1));
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_INHDR");
            ck_assert_uint_eq(R.kernel.counters, 1u << (v6 ? CSC_C_IP6_IN_HDR_ERRORS : CSC_C_IP_IN_HDR_ERRORS));
            ck_assert_int_eq(R.kernel.ndevs, 2);
            ck_assert_int_eq(R.kernel.devs[1].kind, CSC_P_VXLAN);
            ck_assert_int_eq(R.kernel.devs[1].gro_reason, CSC_G_TRUNCATED);
            ck_assert_int_ge(find_step(v6 ? "ipv6_gro_receive" : "inet_gro_receive", "flush"), 0);
            ck_assert_int_ge(find_step(v6 ? "ipv6_rcv" : "ip_rcv_core", "drop"), 0);
        }
}
END_TEST

/* CHECKSUM_COMPLETE and a bad TCP checksum at the NIC's GRO:
 * __skb_gro_checksum_validate (include/net/gro.h v6.12) tries the device's
 * sum (csum_valid), it fails: a failed check on a sum already there, no
 * bytes summed by that step; __skb_gro_checksum_complete then sums the
 * segment in software. */
START_TEST(gro_complete_fails_on_the_device_sum)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("complete", "modern");
    run(&f);
    int s = -1;
    for (int i = 0; i < R.kernel.nsteps && s < 0; i++)
        if (R.kernel.steps[i].what == CSC_M_COMPLETE && R.kernel.steps[i].ok == CSC_TRI_NO &&
            R.kernel.steps[i].path == CSC_PATH_GRO)
            s = i;
    if (s < 0)
        dump_result();
    ck_assert_int_ge(s, 0);
    ck_assert_str_eq(csc_fn_name(R.kernel.steps[s].fn), "tcp4_gro_receive");
    ck_assert_int_eq(R.kernel.steps[s].layer, lay(CSC_P_TCP, 0));
    ck_assert_uint_eq(R.kernel.steps[s].bytes, 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_CSUM_FAIL);
    ASSERT_PASSES(2);          /* GRO's software sum, then tcp_v4_rcv's again */
}
END_TEST

Suite *scenarios_suite(void);
Suite *scenarios_suite(void)
{
    Suite *s = suite_create("scenarios S1-S18");
    TCase *t = tcase_create("S");
    tcase_add_test(t, s1_none_gro_on_nic);
    tcase_add_test(t, s2_none_no_gro_on_nic);
    tcase_add_test(t, s3_u0_conversion_allows_gro);
    tcase_add_test(t, s3prime_u0_before_part_vi);
    tcase_add_test(t, s4_u1_nic_parses_vxlan);
    tcase_add_test(t, s5_complete);
    tcase_add_test(t, s6a_82599_zero_csum_no_gro);
    tcase_add_test(t, s6b_zero_csum_gro_after_fix);
    tcase_add_test(t, s7_u0_zero_csum);
    tcase_add_test(t, s8a_double_encap_part_vi);
    tcase_add_test(t, s8b_double_encap_inner_options);
    tcase_add_test(t, s8c_double_encap_modern);
    tcase_add_test(t, s8cprime_double_encap_4_6);
    tcase_add_test(t, s8d_double_encap_mid_csum);
    tcase_add_test(t, s9_bad_gre_two_passes);
    tcase_add_test(t, s9prime_bad_gre_csum_bad);
    tcase_add_test(t, s10_bad_inner_tcp_three_passes);
    tcase_add_test(t, s10prime_bad_inner_tcp_csum_bad);
    tcase_add_test(t, s11_bad_outer_udp_complete);
    tcase_add_test(t, s11prime_bad_outer_udp_complete_old);
    tcase_add_test(t, s12_ipv6_zero_csum_refused);
    tcase_add_test(t, s12prime_ipv6_zero_csum_allowed);
    tcase_add_test(t, s13_rco_partial_default);
    tcase_add_test(t, s13b_rco_garbage_accepted);
    tcase_add_test(t, s13c_rco_without_remcsumrx);
    tcase_add_test(t, s13d_rco_zero_outer_nothing_verified);
    tcase_add_test(t, s14_rco_nopartial);
    tcase_add_test(t, s16pp_gro_pass_hw_fault_multicast);
    tcase_add_test(t, garbage_warning_reads_this_frames_layers);
    tcase_add_test(t, s14prime_rco_nopartial_complete);
    tcase_add_test(t, s15_gue_rco_ipip);
    tcase_add_test(t, s16_lying_nic_level1);
    tcase_add_test(t, s16p_lying_nic_level0_with_gro);
    tcase_add_test(t, s16pp_level0_after_gro_hw_fault);
    tcase_add_test(t, s17_partial_inner_lco);
    tcase_add_test(t, s18_bad_ip_header);
    tcase_add_test(t, rco_adjusted_again_after_gro_undid_it);
    tcase_add_test(t, no_ip_layer_verdict_unknown);
    tcase_add_test(t, gro_complete_fails_on_the_device_sum);
    tcase_add_test(t, ip_rcv_core_refuses_a_malformed_header);
    tcase_add_test(t, ip_rcv_core_drops_a_header_the_frame_does_not_hold);
    tcase_add_test(t, vxlan_inner_ip_header_short_by_era);
    tcase_add_test(t, tcp_inbound_hash_by_era);
    suite_add_tcase(s, t);
    return s;
}
