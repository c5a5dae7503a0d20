/*
 * test_kernel_source.c - the replay against kernel SOURCE: every fix of the
 * issue-15 audit (and what was found beside it) as a test that names the
 * kernel function and the release the behaviour was read in. Release trees
 * read: Debian linux-source-6.12 (6.12.117) and -6.1 (6.1.192); 3.18.20,
 * 3.19.8, 4.0.4, 4.2.8, 4.3, 4.6.2, 4.7.4, 4.12, 4.13.4, 4.20 (see
 * docs/eras.md for which switch was read where).
 */
#include "helpers.h"

#define GRO CSC_PATH_GRO
#define NORMAL CSC_PATH_NORMAL

/* ---- era boundaries (core/era.c) ---- */

/* outer IPv4 / UDP / VXLAN+RCO / Eth / IPv4 / TCP with the seed in place */
static void vxlan_rco(struct pb_frame *f)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP);
    pb_push(f, PB_VXLAN)->rco = 1;
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP)->csum = PB_SEED;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* vxlan_gro_receive ends with skb->remcsum_offload = 0 from v4.13 (absent in
 * v4.12, present in v4.13.4); before, the flag GRO set survives into
 * vxlan_rcv, whose vxlan_remcsum (v4.6+) then skips RCO. */
START_TEST(era_remcsum_cleared_on_exit_from_4_13)
{
    struct pb_frame f;
    vxlan_rco(&f);
    cfg_set("complete", "4.6");
    CFG.remcsum_rx = true;
    run(&f);
    ck_assert_int_ge(find_step("skb_gro_remcsum_process", "remcsum-start"), 0);
    ck_assert_int_ge(find_step("vxlan_remcsum", "remcsum-skip-done-in-gro"), 0);
    ck_assert_int_eq(find_step("vxlan_remcsum", "remcsum-partial"), -1);

    cfg_set("complete", "4.13");
    CFG.remcsum_rx = true;
    run(&f);
    ck_assert_int_ge(find_step("skb_gro_remcsum_process", "remcsum-start"), 0);
    ck_assert_int_eq(find_step("vxlan_remcsum", "remcsum-skip-done-in-gro"), -1);
    ck_assert_int_ge(find_step("vxlan_remcsum", "remcsum-partial"), 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* pskb_trim_rcsum on Ethernet padding: v4.13.4 turns COMPLETE into NONE,
 * v4.20 keeps it (pskb_trim_rcsum_slow with csum_block_sub, "net:
 * pskb_trim_rcsum() and CHECKSUM_COMPLETE are friends"). */
START_TEST(era_pskb_trim_keeps_complete_by_4_20)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 4;        /* 46 bytes, padded to 60 */
    int u;
    cfg_set("complete", "4.13");
    CFG.gro_nic = false;
    run(&f);
    u = lay(CSC_P_UDP, 0);
    ck_assert_int_ge(find_step("pskb_trim_rcsum", "trim-complete-to-none"), 0);
    ASSERT_METHOD(u, CSC_M_SW_PASS, NORMAL);
    ASSERT_PASSES(1);

    cfg_set("complete", "4.20");
    CFG.gro_nic = false;
    run(&f);
    ck_assert_int_ge(find_step("pskb_trim_rcsum", "trim-keep-complete"), 0);
    ASSERT_METHOD(u, CSC_M_COMPLETE, NORMAL);
    ASSERT_PASSES(0);
}
END_TEST

/* v3.18 setup_udp_tunnel_sock and fou_create call udp_set_convert_csum for
 * every UDP tunnel socket, not only VXLAN and L2TP: the outer checksum a
 * device verified (UNNECESSARY level 0) becomes COMPLETE at
 * udp_unicast_rcv_skb, and the inner TCP behind FOU/GUE needs no pass. */
START_TEST(era_convert_all_tunnels_from_3_18)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_GUE);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("unnecessary:0", "3.18");
    CFG.gro_nic = false;
    CFG.gro_tunnel = false;
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.normal_conv, 1);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, NORMAL);
    ASSERT_PASSES(0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* Plain UDP with a zero checksum and nothing verified: up to v4.20
 * udp_gro_receive refuses at the tunnel gate before it looks up a socket;
 * from v5.0 (e20cf8d3f1f7) the lookup comes first and finds no tunnel. */
START_TEST(era_udp_gate_before_lookup_until_4_20)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("none", "4.20");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);
    cfg_set("none", "5.12");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NOT_TUNNEL);
}
END_TEST

Suite *kernel_source_suite(void);
Suite *kernel_source_suite(void)
{
    Suite *s = suite_create("kernel source (issue 15)");
    TCase *t = tcase_create("core");
    tcase_add_test(t, era_remcsum_cleared_on_exit_from_4_13);
    tcase_add_test(t, era_pskb_trim_keeps_complete_by_4_20);
    tcase_add_test(t, era_convert_all_tunnels_from_3_18);
    tcase_add_test(t, era_udp_gate_before_lookup_until_4_20);
    suite_add_tcase(s, t);
    return s;
}
