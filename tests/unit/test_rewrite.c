/*
 * test_rewrite.c - what-if rewrites: outer UDP zero / recomputed, inner made
 * good; the rewritten frame verifies as intended.
 */
#include "helpers.h"

#include "csumcheck/rewrite.h"

static uint8_t OUT[70000];

static void vx(struct pb_frame *f, enum pb_state outer, enum pb_state inner)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP)->csum = (uint8_t)outer;
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP)->csum = (uint8_t)inner;
    pb_push(f, PB_PAYLOAD)->len = 301;
}

static void rerun(unsigned ops)
{
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, 0 };
    size_t n = csc_rewrite(&fr, &R, ops, OUT, sizeof OUT);
    ck_assert_uint_eq(n, FRAME_LEN);
    run_bytes(OUT, n, n, CSC_LINK_ETHERNET);
}

START_TEST(rewrites)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    vx(&f, PB_OK, PB_BAD);
    run(&f);
    rerun(CSC_RW_INNER_GOOD);                    /* outer stays right */
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_GOOD);
    run(&f);
    rerun(CSC_RW_OUTER_ZERO);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_NONE);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_BAD);
    vx(&f, PB_ZERO, PB_BAD);
    run(&f);
    rerun(CSC_RW_OUTER_CSUM | CSC_RW_INNER_GOOD);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    bool ok;
    ck_assert_uint_eq(csc_rewrite_parse("outer-zero,inner-good", &ok), CSC_RW_OUTER_ZERO | CSC_RW_INNER_GOOD);
    ck_assert(ok);
    csc_rewrite_parse("outer-zero,outer-csum", &ok);
    ck_assert(!ok);
    csc_rewrite_parse("nonsense", &ok);
    ck_assert(!ok);
}
END_TEST

/* Each name alone, and one a byte short or long (csc_rewrite_parse compares
 * the whole comma-separated word) */
START_TEST(parse_each_name)
{
    static const struct { const char *s; unsigned ops; } names[] = {
        { "outer-zero", CSC_RW_OUTER_ZERO },
        { "outer-csum", CSC_RW_OUTER_CSUM },
        { "inner-good", CSC_RW_INNER_GOOD },
        { "outer-csum,inner-good", CSC_RW_OUTER_CSUM | CSC_RW_INNER_GOOD },
    };
    bool ok;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        ck_assert_uint_eq(csc_rewrite_parse(names[i].s, &ok), names[i].ops);
        ck_assert_msg(ok, "%s", names[i].s);
    }
    csc_rewrite_parse("outer-csu", &ok);
    ck_assert(!ok);
    csc_rewrite_parse("outer-csums", &ok);
    ck_assert(!ok);
    /* ten bytes but none of the names: the length alone does not match */
    ck_assert_uint_eq(csc_rewrite_parse("inner-bad!", &ok), 0);
    ck_assert(!ok);
}
END_TEST

Suite *rewrite_suite(void);
Suite *rewrite_suite(void)
{
    Suite *s = suite_create("rewrite");
    TCase *t = tcase_create("rewrite");
    tcase_add_test(t, rewrites);
    tcase_add_test(t, parse_each_name);
    suite_add_tcase(s, t);
    return s;
}
