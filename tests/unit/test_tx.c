/*
 * test_tx.c - the TX view of a sent frame (core/tx.c, docs/direction.md):
 * no replay, what was left to the NIC, what the wire carries; the wire frame
 * csc_tx_wire() writes verifies good and a receiver accepts it.
 */
#include "helpers.h"

#include <string.h>

Suite *tx_suite(void);

static uint8_t WIRE[70000];
static struct csc_result W;

static void run_dir(uint8_t dir)
{
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, dir };
    csc_analyze(&CFG, &fr, &R);
}

/* the wire frame of R, analysed as received at a receiver with report rx */
static size_t run_wire(const char *rx)
{
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET,
                            CSC_DIR_OUT };
    size_t n = csc_tx_wire(&fr, &R, WIRE, sizeof WIRE);
    if (!n)
        return 0;
    struct csc_config c = CFG;
    ck_assert(csc_report_parse(rx, &c.rx));
    struct csc_frame wf = { WIRE, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, CSC_DIR_IN };
    csc_analyze(&c, &wf, &W);
    return n;
}

/* A sent TCP segment with its CHECKSUM_PARTIAL seed: no replay (sent), the
 * NIC writes what the bytes need at csum_start + csum_offset */
START_TEST(partial_seed_sent)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    cfg_set("none", "modern");
    run_dir(CSC_DIR_OUT);
    ck_assert_int_eq(R.kernel.ran, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_SENT);
    ck_assert_str_eq(csc_kverdict_name(R.kernel.verdict), "sent");
    ck_assert_int_eq(R.tx.sent, 1);
    ck_assert_int_eq(R.tx.n, 1);
    ck_assert_int_eq(R.tx.gso, 0);
    const struct csc_tx_csum *c = &R.tx.c[0];
    ck_assert_int_eq(c->layer, 2);
    ck_assert_int_eq(c->kind, CSC_TX_PARTIAL);
    ck_assert_uint_eq(c->csum_start, 34);
    ck_assert_uint_eq(c->csum_offset, 16);
    ck_assert_uint_eq(c->field, R.layers[2].field);
    ck_assert(c->wire_known);
    ck_assert_uint_eq(c->wire, R.layers[2].expected);
    ck_assert_uint_ne(c->wire, c->field);
    /* the wire frame: TCP good, a NIC without offloads accepts it */
    ck_assert_uint_eq(run_wire("none"), FRAME_LEN);
    ck_assert_int_eq(W.layers[2].verdict, CSC_V_GOOD);
    ck_assert_int_eq(W.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_uint_eq(((uint32_t)WIRE[50] << 8 | WIRE[51]), c->wire);
    /* --replay-sent: the receive path as well (the seed is a bad checksum there) */
    CFG.replay_sent = true;
    run_dir(CSC_DIR_OUT);
    ck_assert_int_eq(R.kernel.ran, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.tx.sent, 1);
    /* received: replayed, no TX view */
    CFG.replay_sent = false;
    run_dir(CSC_DIR_IN);
    ck_assert_int_eq(R.kernel.ran, 1);
    ck_assert_int_eq(R.tx.sent, 0);
}
END_TEST

/* VXLAN with an outer checksum by LCO over the inner seed: the NIC completes
 * the inner one, the outer goes on the wire as it is, and both verify */
START_TEST(lco_outer_partial_inner)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_LCO;
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 64;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    cfg_set("none", "modern");
    run_dir(CSC_DIR_UNKNOWN);                 /* the guess: an LCO outermost checksum */
    ck_assert_int_eq(R.direction, CSC_DIR_OUT);
    ck_assert_int_eq(R.dir_from, CSC_DF_GUESS);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_SENT);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.tx.n, 2);
    ck_assert_int_eq(R.tx.c[0].layer, it);    /* innermost first */
    ck_assert_int_eq(R.tx.c[0].kind, CSC_TX_PARTIAL);
    ck_assert_int_eq(R.tx.c[1].layer, ou);
    ck_assert_int_eq(R.tx.c[1].kind, CSC_TX_LCO);
    ck_assert_uint_eq(R.tx.c[1].wire, R.layers[ou].field);
    ck_assert(run_wire("none"));
    ck_assert_int_eq(W.layers[ou].verdict, CSC_V_GOOD);
    ck_assert_int_eq(W.layers[it].verdict, CSC_V_GOOD);
    ck_assert_int_eq(W.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* Four VXLAN headers, each outer UDP checksum by LCO, over a TCP seed:
 * five checksums left to the stack, the view keeps the innermost
 * CSC_TX_MAX (4) and leaves the outermost out */
START_TEST(more_checksums_than_the_view_holds)
{
    struct pb_frame f;
    pb_init(&f);
    for (int t = 0; t < 4; t++) {
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP)->csum = PB_LCO;
        pb_push(&f, PB_VXLAN);
    }
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 64;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    cfg_set("none", "modern");
    run_dir(CSC_DIR_OUT);
    ck_assert_int_eq(R.tx.n, CSC_TX_MAX);
    ck_assert_int_eq(R.tx.c[0].layer, lay(CSC_P_TCP, 0));
    ck_assert_int_eq(R.tx.c[0].kind, CSC_TX_PARTIAL);
    for (int u = 1; u < 4; u++) {
        ck_assert_int_eq(R.tx.c[u].layer, lay(CSC_P_UDP, 4 - u));
        ck_assert_int_eq(R.tx.c[u].kind, CSC_TX_LCO);
    }
}
END_TEST

/* Two seeds in one frame (outer UDP and inner TCP, not a super-packet): the
 * outer value takes the inner one the NIC writes in */
START_TEST(two_seeds)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_SEED;
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 64;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    cfg_set("none", "modern");
    run_dir(CSC_DIR_OUT);
    ck_assert_int_eq(R.tx.n, 2);
    ck_assert(run_wire("none"));
    ck_assert_int_eq(W.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_GOOD);
    ck_assert_int_eq(W.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    ck_assert_int_eq(W.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* A TSO super-packet: segments of the MSS option, no single wire frame */
START_TEST(gso_super_packet)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *t = pb_push(&f, PB_TCP);
    t->csum = PB_SEED;
    t->mss = 1000;
    pb_push(&f, PB_PAYLOAD)->len = 4500;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    cfg_set("none", "modern");
    run_dir(CSC_DIR_OUT);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_SENT);
    ck_assert_int_eq(R.tx.gso, 1);
    ck_assert_int_eq(R.tx.segs, 5);
    ck_assert_int_eq(R.tx.mss, 1000);
    ck_assert_int_eq(R.tx.mss_from, CSC_MSS_OPTION);
    ck_assert_int_eq(R.tx.c[0].kind, CSC_TX_GSO);
    ck_assert_int_eq(R.tx.c[0].wire_known, 0);
    ck_assert_uint_eq(run_wire("none"), 0);
    ck_assert_int_eq(R.tx.peer.not_why, CSC_TXP_GSO);
    ck_assert_str_eq(csc_tx_peer_not_name(R.tx.peer.not_why), "gso");
    /* cut by the capture: no wire frame either */
    t->mss = 0;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    struct csc_frame fr = { FRAME, 60, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, CSC_DIR_OUT };
    csc_analyze(&CFG, &fr, &R);
    ck_assert_uint_eq(csc_tx_wire(&fr, &R, WIRE, sizeof WIRE), 0);
    ck_assert_int_eq(R.tx.peer.not_why, CSC_TXP_SNAPLEN);
}
END_TEST

Suite *tx_suite(void)
{
    Suite *s = suite_create("tx");
    TCase *tc = tcase_create("tx");
    tcase_add_test(tc, partial_seed_sent);
    tcase_add_test(tc, lco_outer_partial_inner);
    tcase_add_test(tc, two_seeds);
    tcase_add_test(tc, more_checksums_than_the_view_holds);
    tcase_add_test(tc, gso_super_packet);
    suite_add_tcase(s, tc);
    return s;
}
