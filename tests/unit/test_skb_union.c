/*
 * test_skb_union.c - struct sk_buff keeps csum and {csum_start,
 * csum_offset} in one union (include/linux/skbuff.h): the deferred
 * validation's `skb->csum = psum` on a CHECKSUM_PARTIAL skb overwrites
 * csum_start, and skb_csum_unnecessary then trusts the transport checksum
 * (core/replay/skb.c skb_csum_union_write). captures/gue-rco.pcapng 6 (a
 * REMCSUM start 4 bytes before the TCP header) is delivered by 5.10, 6.1,
 * 6.12 and 7.x; the model dropped it before.
 */
#include "helpers.h"

/* GUE (REMCSUM when rco, its start moved by shift) / IPv4 / TCP (state) / 100 bytes */
static void gue_frame(int rco, int shift, uint8_t tcp)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    struct pb_layer *g = pb_push(&f, PB_GUE);
    g->rco = (uint8_t)rco;
    g->rco_shift = (int16_t)shift;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = tcp;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
}

static void assert_trusted_by_union(void)
{
    if (R.kernel.verdict != CSC_K_ACCEPT)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    int u = find_step("tcp_v4_rcv", "partial-start-overwritten");
    ck_assert_int_ge(u, 0);
    ck_assert_int_eq(R.kernel.steps[u].after.ip_summed, 3);   /* still CHECKSUM_PARTIAL */
    ck_assert_int_lt(find_step("tcp_checksum_complete", "sw-pass"), 0);   /* no pass */
    ck_assert_int_ge(find_step("tcp_v4_rcv", "deliver"), 0);
}

/* gue-rco.pcapng 6: skb_remcsum_adjust_partial's csum_start lies 4 bytes
 * before the TCP header, so tcp_v4_rcv defers; the pseudo sum written over
 * csum_start makes tcp_checksum_complete trust it */
START_TEST(remcsum_start_before_tcp)
{
    cfg_set("none", "6.12");
    CFG.trace_steps = true;
    gue_frame(1, -4, PB_SEED);
    assert_trusted_by_union();
}
END_TEST

/* The same with the start at the TCP header: PARTIAL covers it, nothing is
 * deferred, no overwrite */
START_TEST(remcsum_start_at_tcp)
{
    cfg_set("none", "6.12");
    CFG.trace_steps = true;
    gue_frame(1, 0, PB_SEED);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_lt(find_step("tcp_v4_rcv", "partial-start-overwritten"), 0);
}
END_TEST

/* partial:outer through GUE variant 0: gue_udp_recv keeps the PARTIAL with
 * csum_start behind data (finding 1), but ipip_tunnel_rcv's
 * iptunnel_pull_header(skb, 0) ends it (skb_postpull_rcsum): NONE, nothing
 * to overwrite, the bad TCP checksum dropped (trixie 6.12 agrees: kfuzz
 * cases gue-ipip partial:outer tcp4/udp4/tcp6 l4.csum=bad) */
START_TEST(gue_partial_outer_lost_at_ipip)
{
    cfg_set("partial:outer", "6.12");
    CFG.trace_steps = true;
    gue_frame(0, 0, PB_BAD);
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "TCP_CSUM");
    int lost = find_step("-", "partial-pulled-past"), ipip = find_step("ipip_rcv", "enter");
    ck_assert_int_ge(ipip, 0);
    ck_assert_int_gt(lost, ipip);              /* at ipip_rcv, not at the GUE pull */
    ck_assert_int_lt(find_step("tcp_v4_rcv", "partial-start-overwritten"), 0);
}
END_TEST

/* A plain PARTIAL lost at the pull (VXLAN: skb_postpull_rcsum makes it
 * NONE) is never overwritten: the bad TCP checksum is dropped */
START_TEST(vxlan_partial_outer_lost)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("partial:outer", "6.12");
    CFG.trace_steps = true;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_lt(find_step("tcp_v4_rcv", "partial-start-overwritten"), 0);
}
END_TEST

/* __skb_checksum_validate_complete (include/linux/skbuff.h v6.12): a
 * CHECKSUM_COMPLETE sum that checks sets skb->csum_valid, the one-bit field
 * the trace shows as 1 after the step */
START_TEST(complete_check_sets_csum_valid)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("complete", "6.12");
    CFG.trace_steps = true;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    int u = find_step("udp4_csum_init", "complete-arith");
    if (u < 0)
        dump_result();
    ck_assert_int_ge(u, 0);
    ck_assert_int_eq(R.kernel.steps[u].ok, CSC_TRI_YES);
    ck_assert_int_eq(R.kernel.steps[u].before.csum_valid, 0);
    ck_assert_int_eq(R.kernel.steps[u].after.csum_valid, 1);
    ck_assert_int_eq(R.kernel.steps[u].after.ip_summed, 2);   /* CHECKSUM_COMPLETE */
}
END_TEST

Suite *skb_union_suite(void);
Suite *skb_union_suite(void)
{
    Suite *s = suite_create("skb_union");
    TCase *tc = tcase_create("csum_start");
    tcase_add_test(tc, remcsum_start_before_tcp);
    tcase_add_test(tc, remcsum_start_at_tcp);
    tcase_add_test(tc, gue_partial_outer_lost_at_ipip);
    tcase_add_test(tc, vxlan_partial_outer_lost);
    tcase_add_test(tc, complete_check_sets_csum_valid);
    suite_add_tcase(s, tc);
    return s;
}
