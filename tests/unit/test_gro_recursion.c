/*
 * test_gro_recursion.c - GRO's recursion limit (gro_recursion_inc_test,
 * include/net/gro.h v6.12 = 7.2.13, GRO_RECURSION_LIMIT 15): which
 * gro_receive calls count, where the 15th is refused, and the kernel
 * without the 802.1Q GRO handler (CONFIG_VLAN_8021Q off: the host's 6.18);
 * and the normal path's limit on a stack of priority tags (6.12.118).
 */
#include "helpers.h"

#include "csumcheck/gro.h"

/* eth / `tags` VID-0 priority tags / IPv4 / TCP (state l4), 100 bytes */
static void tagged_tcp(int tags, enum pb_state l4, uint32_t seq)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    for (int i = 0; i < tags; i++)
        pb_push(&f, PB_VLAN)->vlan = 0;
    pb_push(&f, PB_IPV4);
    struct pb_layer *t = pb_push(&f, PB_TCP);
    t->csum = (uint8_t)l4;
    t->seq = seq;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
}

/* eth / IPv4 / UDP / VXLAN / eth / `tags` tags / IPv4 / TCP */
static void vxlan_tagged_tcp(int tags, enum pb_state l4)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    for (int i = 0; i < tags; i++)
        pb_push(&f, PB_VLAN)->vlan = 0;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = (uint8_t)l4;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
}

/* At the NIC, dev_gro_receive reaches the first tag uncounted; each tag's
 * call into what it carries counts, and so does inet_gro_receive's into
 * tcp4_gro_receive (indirect_call_gro_receive). 13 tags: 14 calls, TCP
 * checked in GRO (a bad sum fails there). 14 tags: the 15th call -
 * inet_gro_receive -> tcp4_gro_receive - is refused; the checksum is only
 * tcp_v4_rcv's. 15 tags: the last tag's call into IPv4 is refused. */
START_TEST(the_fifteenth_counted_call_flushes)
{
    cfg_set("none", "6.1");
    tagged_tcp(13, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_SW_PASS, CSC_PATH_GRO);
    tagged_tcp(13, PB_BAD, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_CSUM_FAIL);

    tagged_tcp(14, PB_OK, 1);
    int ip = lay(CSC_P_IPV4, 0);
    ck_assert_int_eq(ip, 15);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_RECURSION);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, ip);
    ck_assert_int_ne(find_step("inet_gro_receive", "enter"), -1);
    ck_assert_int_eq(find_step("tcp4_gro_receive", "enter"), -1);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_SW_PASS, CSC_PATH_NORMAL);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    tagged_tcp(14, PB_BAD, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_RECURSION);
    ck_assert(has_counter(CSC_C_TCP_IN_CSUM_ERRORS));

    tagged_tcp(15, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_RECURSION);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, 15);       /* the 15th tag */
    ck_assert_int_eq(find_step("inet_gro_receive", "enter"), -1);
    ck_assert_int_ne(find_step("vlan_gro_receive", "flush"), -1);
}
END_TEST

/* Through a VXLAN tunnel at the NIC: inet -> udp4 (1), udp_gro_receive's
 * call_gro_receive_sk -> vxlan (2), vxlan's call_gro_receive(eth) (3),
 * eth -> the first tag (4), each tag onwards, inet -> tcp4: 9 inner tags
 * make 14 calls, 10 make 15. */
START_TEST(tunnel_calls_count_too)
{
    cfg_set("none", "6.1");
    vxlan_tagged_tcp(9, PB_OK);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].k.path, CSC_PATH_GRO);
    vxlan_tagged_tcp(10, PB_OK);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_RECURSION);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, lay(CSC_P_IPV4, 1));
    ck_assert_int_ne(find_step("tcp4_gro_receive", "enter"), -1);   /* the device's pass */
    /* the VXLAN device's own GRO pass (gro_cells) starts at the inner
     * frame: its tags count from there - 13 make 14 calls, 14 make 15 */
    cfg_set("none", "6.1");
    CFG.gro_nic = false;
    vxlan_tagged_tcp(13, PB_OK);
    ck_assert_int_eq(R.kernel.devs[1].gro_reason, CSC_G_NONE);
    vxlan_tagged_tcp(14, PB_OK);
    ck_assert_int_eq(R.kernel.devs[1].gro_reason, CSC_G_RECURSION);
    ck_assert_int_eq(R.kernel.devs[1].gro_layer, lay(CSC_P_IPV4, 1));
}
END_TEST

/* Before v4.9 ("net: add recursion limit to GRO") nothing counted: the
 * preset 4.6 walks 14 tags to TCP. */
START_TEST(no_limit_before_4_9)
{
    cfg_set("none", "4.6");
    tagged_tcp(14, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    cfg_set("none", "4.13");
    tagged_tcp(14, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_RECURSION);
}
END_TEST

/* A kernel without CONFIG_VLAN_8021Q registers no 802.1Q GRO handler:
 * a tagged frame gets no GRO pass (dev_gro_receive's `goto normal`), its
 * run is not merged; untagged ones are. */
START_TEST(no_vlan_handler_no_gro_pass)
{
    cfg_set("none", "modern");
    CFG.vlan_8021q = false;
    tagged_tcp(1, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NO_HANDLER);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, 1);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_SW_PASS, CSC_PATH_NORMAL);
    tagged_tcp(0, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    /* an inner tag behind VXLAN: eth_gro_receive finds no handler either */
    vxlan_tagged_tcp(1, PB_OK);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NO_HANDLER);
    CFG.vlan_8021q = true;
    vxlan_tagged_tcp(1, PB_OK);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
}
END_TEST

/* __netif_receive_skb_core strips at most 8 priority tags on 6.12.118 and
 * 6.18.44 ("net: limit priority VLAN untag depth", priority_tag_depth): the
 * ninth is dropped, rx_dropped of the device it arrived on, UNHANDLED_PROTO;
 * 6.1.192 and 7.2.13 strip them all. */
START_TEST(ninth_priority_tag_dropped_on_6_12)
{
    cfg_set("none", "6.12");
    CFG.gro_nic = false;
    tagged_tcp(8, PB_OK, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    tagged_tcp(9, PB_OK, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 9);                 /* the ninth tag */
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "UNHANDLED_PROTO");
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_NIC_RX_DROPPED);
    /* behind VXLAN: the tunnel device's rx_dropped */
    vxlan_tagged_tcp(9, PB_OK);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_DEV_RX_DROPPED);
    const char *keep[] = { "6.1", "7.2" };
    for (int e = 0; e < 2; e++) {
        cfg_set("none", keep[e]);
        tagged_tcp(9, PB_OK, 1);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    }
    cfg_set("none", "modern");
    tagged_tcp(9, PB_OK, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
}
END_TEST

Suite *gro_recursion_suite(void);
Suite *gro_recursion_suite(void)
{
    Suite *s = suite_create("gro_recursion");
    TCase *t = tcase_create("gro_recursion_inc_test");
    tcase_add_test(t, the_fifteenth_counted_call_flushes);
    tcase_add_test(t, tunnel_calls_count_too);
    tcase_add_test(t, no_limit_before_4_9);
    tcase_add_test(t, no_vlan_handler_no_gro_pass);
    tcase_add_test(t, ninth_priority_tag_dropped_on_6_12);
    suite_add_tcase(s, t);
    return s;
}
