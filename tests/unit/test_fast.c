/*
 * test_fast.c - the fast path (core/fast.c) and what it is derived from:
 * frames of a known shape are served from a plan with the general path's
 * result; a bad checksum, another header byte, another address class go
 * the general way; the replay sees every value blank (core/values.h).
 */
#include "helpers.h"

#include "csumcheck/fast.h"
#include "replay/replay.h"

#include <stddef.h>
#include <stdlib.h>

static struct csc_fast *T;
static struct csc_result A, B;

static void fast_setup(void)
{
    T = malloc(sizeof *T);
    ck_assert_ptr_nonnull(T);
    csc_fast_init(T);
    cfg_set("none", "modern");
    CFG.trace_steps = false;
}

static void fast_teardown(void)
{
    free(T);
}

/* The whole result, the parts both paths write */
static void same(const struct csc_result *x, const struct csc_result *y)
{
    ck_assert_int_eq(x->nlayers, y->nlayers);
    ck_assert_int_eq(x->worst, y->worst);
    ck_assert_int_eq(x->direction, y->direction);
    for (unsigned i = 0; i < x->nlayers; i++)
        ck_assert_msg(!memcmp(&x->layers[i], &y->layers[i], sizeof x->layers[i]),
                      "layer %u (%s) differs", i, csc_proto_name(x->layers[i].proto));
    ck_assert_int_eq(x->sums.n, y->sums.n);
    ck_assert(!memcmp(x->sums.prefix, y->sums.prefix, (x->sums.npieces + 1u) * 4));
    ck_assert(x->kernel.verdict == y->kernel.verdict && x->kernel.counters == y->kernel.counters &&
              x->kernel.sw_passes == y->kernel.sw_passes && x->kernel.ndevs == y->kernel.ndevs &&
              x->kernel.drop_reason == y->kernel.drop_reason);
}

/* Index of the n-th layer of protocol p in r (the test fails without one) */
static unsigned at(const struct csc_result *r, enum csc_proto p, int n)
{
    for (unsigned i = 0; i < r->nlayers; i++)
        if (r->layers[i].proto == p && n-- == 0)
            return i;
    ck_abort_msg("no layer %s", csc_proto_name(p));
    return 0;
}

/* Both paths on FRAME; returns how many frames plans served so far */
static uint64_t both(void)
{
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, 0 };
    csc_analyze(&CFG, &fr, &A);
    csc_analyze_fast(&CFG, &fr, &B, T);
    same(&A, &B);
    struct csc_fast_stats st;
    csc_fast_stats(T, &st);
    return st.known;
}

/* A VXLAN frame of one TCP flow of many: ports, addresses, VNI, sequence */
static void vxlan_tcp(unsigned flow, uint32_t seq, uint8_t tcp_csum)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV4);
    ip->src[3] = (uint8_t)flow;
    ip->ip_id = (uint16_t)(seq * 7);
    pb_push(&f, PB_UDP)->sport = (uint16_t)(40000 + flow);
    pb_push(&f, PB_VXLAN)->vni = 100 + flow;
    pb_push(&f, PB_ETH);
    struct pb_layer *in = pb_push(&f, PB_IPV4);
    in->dst[3] = (uint8_t)(flow * 3);
    struct pb_layer *t = pb_push(&f, PB_TCP);
    t->sport = (uint16_t)(1000 + flow);
    t->seq = seq;
    t->ack = seq ^ 0x5555;
    t->csum = tcp_csum;
    pb_push(&f, PB_PAYLOAD)->len = 200;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
}

/* One shape, many flows: the first frame makes the plan, the rest are served */
START_TEST(plan_serves_other_flows)
{
    uint64_t known = 0;
    for (unsigned i = 0; i < 40; i++) {
        vxlan_tcp(i % 13, 1000u * i, PB_OK);
        known = both();
    }
    ck_assert_uint_eq(known, 39);
    ck_assert_int_eq(B.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* A plan pays back one plan of budget every 16th frame it serves, up to
 * 4096 (fast.c BUDGET_START 256, BUDGET_MAX): the first plan costs one */
START_TEST(budget_paid_back_every_16th_hit)
{
    vxlan_tcp(1, 1000, PB_OK);
    both();                                  /* makes the plan */
    ck_assert_int_eq(T->budget, 255);
    for (unsigned i = 1; i <= 15; i++) {
        vxlan_tcp(1, 1000 + 200 * i, PB_OK);
        both();
    }
    ck_assert_uint_eq(T->hits, 15);
    ck_assert_int_eq(T->budget, 255);
    vxlan_tcp(1, 1000 + 200 * 16, PB_OK);
    both();
    ck_assert_int_eq(T->budget, 256);        /* the 16th */
    T->budget = 4096;
    for (unsigned i = 17; i <= 32; i++) {
        vxlan_tcp(1, 1000 + 200 * i, PB_OK);
        both();
    }
    ck_assert_uint_eq(T->hits, 32);
    ck_assert_int_eq(T->budget, 4096);       /* the cap holds at the 32nd */
}
END_TEST

/* Another receiver on the same tables: plans and memoised outcomes are
 * forgotten (the memo's key is the replay's input, not the configuration) */
START_TEST(another_config_forgets)
{
    for (unsigned i = 0; i < 4; i++) {
        vxlan_tcp(i, 1000u * i, PB_OK);
        both();
    }
    static const char *const rx[] = { "none", "complete", "unnecessary:1", "none" };
    static const char *const era[] = { "modern", "4.6", "modern", "5.10" };
    for (unsigned c = 0; c < 8; c++) {
        cfg_set(rx[c % 4], era[c / 2 % 4]);
        CFG.trace_steps = false;
        CFG.inner_socket = c & 1;
        for (unsigned i = 0; i < 3; i++) {
            vxlan_tcp(i + c, 99 + i, PB_OK);
            both();                           /* the general path's result, each time */
        }
    }
}
END_TEST

/* A bad checksum in a known shape: the general path, and its verdict */
START_TEST(bad_checksum_goes_the_general_way)
{
    vxlan_tcp(1, 5, PB_OK);
    both();
    vxlan_tcp(2, 6, PB_OK);
    ck_assert_uint_eq(both(), 1);
    ck_assert_uint_eq(T->served, 1);                  /* the first plan served it */
    vxlan_tcp(3, 7, PB_BAD);
    ck_assert_uint_eq(both(), 1);
    ck_assert_uint_eq(T->served, 0);                  /* no plan served this one */
    ck_assert_int_eq(B.layers[at(&B, CSC_P_TCP, 0)].verdict, CSC_V_BAD);
    struct csc_fast_stats st;
    csc_fast_stats(T, &st);
    ck_assert_uint_eq(st.fallbacks, 1);
}
END_TEST

/* A checksum the plan does not expect good (a UDP checksum of zero: none
 * sent) is verified again and served when its verdict is the plan's; a
 * good one in its place is another verdict: the general way. */
START_TEST(zero_udp_checksum_served_when_the_verdict_is_the_plans)
{
    static const uint8_t csum[] = { PB_ZERO, PB_ZERO, PB_ZERO, PB_OK };
    uint64_t before = 0;
    for (unsigned i = 0; i < sizeof csum; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4)->src[3] = (uint8_t)(10 + i);
        struct pb_layer *u = pb_push(&f, PB_UDP);
        u->sport = (uint16_t)(5000 + i);
        u->csum = csum[i];
        pb_push(&f, PB_PAYLOAD)->len = 64;
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        uint64_t known = both();
        ck_assert_msg(known - before == (i == 1 || i == 2), "frame %u: served %d", i, (int)(known - before));
        before = known;
        ck_assert_int_eq(B.layers[at(&B, CSC_P_UDP, 0)].verdict, csum[i] == PB_ZERO ? CSC_V_NONE : CSC_V_GOOD);
    }
    struct csc_fast_stats st;
    csc_fast_stats(T, &st);
    ck_assert_uint_eq(st.fallbacks, 1);
}
END_TEST

/* An ICMP frame of 24 payload bytes: one length, so one set of plans,
 * and a plan per type (the type is guarded) */
static uint64_t icmp_of_type(uint8_t type)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_ICMP)->icmp_type = type;
    pb_push(&f, PB_PAYLOAD)->len = 24;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    return both();
}

/* A full set (CSC_FAST_WAYS plans of one length) takes a new shape in
 * place of its least recently used plan. Nine ICMP types of nine shapes
 * (types handled alike share one: found first, in a table of their own);
 * eight fill the set, the first is used again, the ninth comes - the
 * second type's plan goes, the third's stays. */
START_TEST(full_set_evicts_the_least_recently_used)
{
    ck_assert_int_eq(CSC_FAST_WAYS, 8);
    uint8_t types[9];
    unsigned n = 0;
    uint64_t known = 0;
    for (unsigned type = 0; type < 256 && n < 9; type++) {
        uint64_t k = icmp_of_type((uint8_t)type);
        if (k == known)
            types[n++] = (uint8_t)type;          /* not served: a shape of its own */
        known = k;
    }
    ck_assert_uint_eq(n, 9);
    csc_fast_init(T);
    for (unsigned i = 0; i < 8; i++)
        known = icmp_of_type(types[i]);
    ck_assert_uint_eq(known, 0);
    ck_assert_uint_eq(icmp_of_type(types[0]), 1);           /* served: now the most recent */
    icmp_of_type(types[8]);                                 /* a ninth shape */
    struct csc_fast_stats st;
    csc_fast_stats(T, &st);
    ck_assert_uint_eq(st.evicted, 1);
    ck_assert_uint_eq(icmp_of_type(types[2]), 2);           /* kept */
    ck_assert_uint_eq(icmp_of_type(types[0]), 3);
    ck_assert_uint_eq(icmp_of_type(types[1]), 3);           /* evicted: the general way */
}
END_TEST

/* The ICMP type decides icmp_rcv's fate (B7): a byte the replay reads
 * through the layer's view, so another type is another shape */
START_TEST(icmp_type_is_guarded)
{
    static const uint8_t types[] = { 8, 13, 50, 8, 50, 13 };
    uint64_t before = 0;
    for (unsigned i = 0; i < sizeof types; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        struct pb_layer *ic = pb_push(&f, PB_ICMP);
        ic->icmp_type = types[i];
        pb_push(&f, PB_PAYLOAD)->len = 24;
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        uint64_t known = both();
        /* served only where the same type came before */
        ck_assert_uint_eq(known - before, i >= 3);
        before = known;
        ck_assert_int_eq(B.kernel.verdict, types[i] == 50 ? CSC_K_DROP : CSC_K_ACCEPT);
    }
}
END_TEST

/* An address class (a martian source) is a class of value bytes: the plan
 * of a unicast source does not serve a loopback one */
START_TEST(address_class_is_guarded)
{
    for (unsigned i = 0; i < 4; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV4);
        ip->src[0] = i == 2 ? 127 : 10;
        ip->src[3] = (uint8_t)(i + 1);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 30;
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        uint64_t known = both();
        ck_assert_uint_eq(known, i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 1 : 2);
        /* 127/8: a loopback frame, sent by this host (its TX view, no replay) */
        ck_assert_int_eq(B.kernel.verdict, i == 2 ? CSC_K_SENT : CSC_K_ACCEPT);
    }
}
END_TEST

/* The replay's input: every value blank, nothing else touched */
START_TEST(replay_input_blanks_values)
{
    vxlan_tcp(5, 0x12345678, PB_OK);
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, 0 };
    csc_decode(&CFG, &fr, &A);
    csc_verify(&CFG, &fr, &A);
    static struct csc_result in;
    size_t n = rp_input(&A, &in);
    ck_assert_uint_eq(n, offsetof(struct csc_result, layers) + A.nlayers * sizeof A.layers[0]);
    unsigned ti = at(&A, CSC_P_TCP, 0);
    const struct csc_layer *t = &in.layers[ti], *ta = &A.layers[ti];
    ck_assert_uint_eq(ta->u.tcp.seq, 0x12345678);
    ck_assert_uint_eq(t->u.tcp.seq, 0);
    ck_assert_uint_eq(t->u.tcp.ack, 0);
    ck_assert_uint_eq(t->u.tcp.sport, 0);
    ck_assert_uint_eq(t->field, 0);
    ck_assert_uint_eq(t->expected, 0);
    ck_assert_uint_eq(t->pseudo, 0);
    ck_assert_uint_eq(t->u.tcp.flags, ta->u.tcp.flags);   /* a branch, not a value */
    ck_assert_uint_eq(t->cov_end, ta->cov_end);
    ck_assert_uint_eq(in.layers[at(&A, CSC_P_VXLAN, 0)].u.vxlan.vni, 0);
    ck_assert_uint_eq(in.layers[at(&A, CSC_P_VXLAN, 0)].u.vxlan.flags,
                      A.layers[at(&A, CSC_P_VXLAN, 0)].u.vxlan.flags);
    ck_assert_uint_eq(in.layers[at(&A, CSC_P_IPV4, 0)].u.ip.id, 0);
    ck_assert_uint_eq(in.layers[at(&A, CSC_P_IPV4, 0)].u.ip.addr_off,
                      A.layers[at(&A, CSC_P_IPV4, 0)].u.ip.addr_off);
    ck_assert_uint_eq(in.layers[at(&A, CSC_P_UDP, 0)].u.ports.sport, 0);
}
END_TEST

/* GENEVE options push the inner headers across the recorder's window
 * (rec.h REC_WIN, 192 bytes): a plan keeps the reads on both sides of its
 * edge, and serves the next frame of the shape with the general result.
 * (From 35 words on no plan is made for this shape: the general path.) */
START_TEST(plan_across_the_window_edge)
{
    for (unsigned words = 24; words <= 34; words++) {
        uint64_t known = 0;
        for (unsigned i = 0; i < 3; i++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4)->ip_id = (uint16_t)(7 * i);
            pb_push(&f, PB_UDP)->sport = (uint16_t)(40000 + i);
            pb_push(&f, PB_GENEVE)->opt_words = (uint8_t)words;
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4);
            struct pb_layer *t = pb_push(&f, PB_TCP);
            t->seq = 1000u * i;
            pb_push(&f, PB_PAYLOAD)->len = 100;
            FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
            uint64_t k = both();
            if (i)
                ck_assert_msg(k == known + 1, "words %u frame %u: not served", words, i);
            known = k;
        }
    }
}
END_TEST

/* A plan made from a memoised replay (the general path memoised the shape
 * while no budget was left): it guards what the memo entry's replay read,
 * no more, and serves the shape's next frames */
START_TEST(plan_from_a_memo_entry)
{
    T->budget = 0;
    vxlan_tcp(1, 1000, PB_OK);
    ck_assert_uint_eq(both(), 0);             /* the general path, memoised */
    struct csc_fast_stats st;
    csc_fast_stats(T, &st);
    ck_assert_uint_eq(st.compiles, 0);
    ck_assert_uint_eq(st.memo_misses, 1);
    T->budget = 1;
    vxlan_tcp(2, 2000, PB_OK);
    ck_assert_uint_eq(both(), 0);             /* a plan, from the memo entry */
    csc_fast_stats(T, &st);
    ck_assert_uint_eq(st.compiles, 1);
    ck_assert_uint_eq(st.memo_hits, 1);
    for (unsigned i = 3; i < 6; i++) {
        vxlan_tcp(i, 1000 * i, PB_OK);
        ck_assert_uint_eq(both(), i - 2);
    }
}
END_TEST

/* Bounded: far more shapes than plans; every frame the general path's */
START_TEST(plans_bounded)
{
    for (int round = 0; round < 2; round++)
        for (unsigned len = 1; len <= CSC_FAST_SETS * CSC_FAST_WAYS / 4; len++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4);
            pb_push(&f, PB_TCP);
            pb_push(&f, PB_PAYLOAD)->len = (uint16_t)len;
            FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
            both();
        }
    struct csc_fast_stats st;
    csc_fast_stats(T, &st);
    ck_assert_uint_gt(st.compiles, 0);
    ck_assert_uint_gt(st.known, 0);
    ck_assert_uint_eq(st.known + st.general, 2 * (CSC_FAST_SETS * CSC_FAST_WAYS / 4));
}
END_TEST

/* A UDP datagram of flow `flow`; zero_sum: its payload's first word chosen
 * so that the checksum computes to 0, sent as 0xffff (RFC 768) */
static void udp_flow(unsigned flow, int zero_sum)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4)->src[3] = (uint8_t)flow;
    pb_push(&f, PB_UDP)->sport = (uint16_t)(30000 + flow);
    pb_push(&f, PB_PAYLOAD)->len = 64;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    if (!zero_sum)
        return;
    size_t u = f.off[2], pay = f.off[3];
    uint32_t c = (uint32_t)FRAME[u + 6] << 8 | FRAME[u + 7];
    uint32_t w = ((uint32_t)FRAME[pay] << 8 | FRAME[pay + 1]) + c;   /* one's complement + */
    if (w > 0xffff)
        w -= 0xffff;
    struct pb_patch *pt = pb_patch_add(&f, 3, PB_PATCH_SET, 0, 2);
    ck_assert_ptr_nonnull(pt);
    pt->val[0] = (uint8_t)(w >> 8), pt->val[1] = (uint8_t)w;
    pt->mask[0] = pt->mask[1] = 0xff;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    ck_assert_uint_eq((uint32_t)FRAME[u + 6] << 8 | FRAME[u + 7], 0xffff);
}

/* A UDP checksum that computes to 0 goes out as 0xffff (RFC 768; the
 * kernel's udp_csum / csum_tcpudp_magic callers: CSUM_MANGLED_0): a frame
 * the plan serves expects 0xffff as the general path does */
START_TEST(udp_computed_zero_is_mangled)
{
    udp_flow(1, 0);
    ck_assert_uint_eq(both(), 0);
    udp_flow(2, 1);
    ck_assert_uint_eq(both(), 1);                 /* served by the plan */
    unsigned u = at(&B, CSC_P_UDP, 0);
    ck_assert_int_eq(B.layers[u].verdict, CSC_V_GOOD);
    ck_assert_uint_eq(B.layers[u].field, 0xffff);
    ck_assert_uint_eq(B.layers[u].expected, 0xffff);
    ck_assert_uint_eq(A.layers[u].expected, 0xffff);
}
END_TEST

Suite *fast_suite(void);
Suite *fast_suite(void)
{
    Suite *s = suite_create("fast");
    TCase *t = tcase_create("fast");
    tcase_add_checked_fixture(t, fast_setup, fast_teardown);
    tcase_add_test(t, plan_serves_other_flows);
    tcase_add_test(t, budget_paid_back_every_16th_hit);
    tcase_add_test(t, plan_across_the_window_edge);
    tcase_add_test(t, plan_from_a_memo_entry);
    tcase_add_test(t, another_config_forgets);
    tcase_add_test(t, bad_checksum_goes_the_general_way);
    tcase_add_test(t, full_set_evicts_the_least_recently_used);
    tcase_add_test(t, zero_udp_checksum_served_when_the_verdict_is_the_plans);
    tcase_add_test(t, icmp_type_is_guarded);
    tcase_add_test(t, address_class_is_guarded);
    tcase_add_test(t, replay_input_blanks_values);
    tcase_add_test(t, plans_bounded);
    tcase_add_test(t, udp_computed_zero_is_mangled);
    suite_add_tcase(s, t);
    return s;
}
