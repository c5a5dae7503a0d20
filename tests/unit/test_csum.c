/*
 * test_csum.c - the arithmetic of kernel-rx-checksum-model.md §2 with its
 * worked vectors V1-V10 (V9/V10 also through the decoder/verifier and the
 * replay's remcsum_adjust / lco_csum paths in test_verify.c).
 */
#include <check.h>

#include "csum.h"

static const uint8_t v1_hdr[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                                    0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
static const uint8_t v2_udp[12] = { 0x04, 0xd2, 0x12, 0xb5, 0x00, 0x0c, 0xdc, 0xab,
                                    0x68, 0x69, 0x21, 0x21 };
static const uint32_t v2_src = 0xc0a80001, v2_dst = 0xc0a800c7;

START_TEST(primitives)
{
    ck_assert_uint_eq(csum_add(0xffffffffu, 1), 1);          /* end-around carry */
    ck_assert_uint_eq(csum_add(0x80000000u, 0x80000000u), 1);
    ck_assert_uint_eq(csum_sub(5, 5), 0xffffffffu);           /* x - x = -0 */
    ck_assert_uint_eq(fold16(0x0001ffffu), 1);
    ck_assert_uint_eq(csum_fold(0xffffu), 0);
    ck_assert_uint_eq(csum_fold(0), 0xffff);
    ck_assert_uint_eq(csum16_add(0xffff, 1), 1);
    ck_assert_uint_eq(csum16_sub(0x1234, 0x1234), 0xffff);
    ck_assert_uint_eq(wsum_negate(1), 0xffffffffu);
    /* odd trailing byte is the high byte of a word */
    ck_assert_uint_eq(fold16(csum_partial("\xab", 1, 0)), 0xab00);
    ck_assert_uint_eq(csum_partial("", 0, 0x1234), 0x1234);
}
END_TEST

START_TEST(v1_ipv4_header)
{
    uint8_t h[20];
    memcpy(h, v1_hdr, 20);
    h[10] = h[11] = 0;
    ck_assert_uint_eq(csum_fold(csum_partial(h, 20, 0)), 0xb861);
    ck_assert_uint_eq(fold16(csum_partial(v1_hdr, 20, 0)), 0xffff);
    ck_assert_uint_eq(csum_fold(csum_partial(v1_hdr, 20, 0)), 0);     /* ip_fast_csum == 0 */
}
END_TEST

START_TEST(v2_udp4_pseudo)
{
    uint32_t p = csum_tcpudp_nofold(v2_src, v2_dst, 12, 17, 0);
    ck_assert_uint_eq(p, 0x00018235);
    ck_assert_uint_eq(fold16(p), 0x8236);
    ck_assert_uint_eq(csum_fold(csum_add(p, csum_partial(v2_udp, 12, 0))), 0);
    uint8_t u[12];
    memcpy(u, v2_udp, 12);
    u[6] = u[7] = 0;
    ck_assert_uint_eq(csum_fold(csum_partial(u, 12, p)), 0xdcab);
}
END_TEST

START_TEST(v3_complete_postpull)
{
    uint8_t pkt[32] = { 0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xb8, 0xb4,
                        0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
    memcpy(pkt + 20, v2_udp, 12);
    uint32_t c = csum_partial(pkt, 32, 0);
    ck_assert_uint_eq(fold16(c), 0x7dc9);                          /* raw 0x00047dc5 */
    ck_assert_uint_eq(fold16(csum_partial(pkt, 20, 0)), 0xffff);
    uint32_t after_ip = csum_sub(c, csum_partial(pkt, 20, 0));      /* skb_postpull_rcsum */
    ck_assert_uint_eq(fold16(after_ip), 0x7dc9);                   /* raw 0x00017dc8 */
    uint32_t p = csum_tcpudp_nofold(v2_src, v2_dst, 12, 17, 0);
    ck_assert_uint_eq(csum_fold(csum_add(p, c)), 0);
    ck_assert_uint_eq(csum_fold(csum_add(p, after_ip)), 0);
    uint32_t payload = csum_sub(after_ip, csum_partial(pkt + 20, 8, 0));
    ck_assert_uint_eq(fold16(payload), 0x898a);
    ck_assert_uint_eq(fold16(payload), fold16(csum_partial(pkt + 28, 4, 0)));
}
END_TEST

START_TEST(v4_conversion)
{
    uint32_t p = csum_tcpudp_nofold(v2_src, v2_dst, 12, 17, 0);
    ck_assert_uint_eq(~p, 0xfffe7dcau);
    ck_assert_uint_eq(fold16(~p), 0x7dc9);
    ck_assert_uint_eq(fold16(~p), fold16(csum_partial(v2_udp, 12, 0)));
    ck_assert_uint_eq(csum_fold(csum_add(p, ~p)), 0);
}
END_TEST

START_TEST(v5_bad_udp)
{
    uint8_t u[12];
    memcpy(u, v2_udp, 12);
    u[6] = 0xdd;
    uint32_t p = csum_tcpudp_nofold(v2_src, v2_dst, 12, 17, 0);
    ck_assert_uint_eq(csum_fold(csum_add(p, csum_partial(u, 12, 0))), 0xfeff);
}
END_TEST

START_TEST(v6_ipv6_pseudo)
{
    uint8_t s[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 }, d[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
    ck_assert_uint_eq(csum_ipv6_magic(s, d, 12, 17, 0), 0xa46d);
    ck_assert_uint_eq(ip6_pseudo(s, d, 12, 17), 0xffff5b92u);
    uint8_t u[12];
    memcpy(u, v2_udp, 12);
    u[6] = u[7] = 0;
    ck_assert_uint_eq(csum_fold(csum_partial(u, 12, ip6_pseudo(s, d, 12, 17))), 0x0350);
}
END_TEST

START_TEST(v7_gre)
{
    uint8_t g[12] = { 0x80, 0x00, 0x08, 0x00, 0, 0, 0, 0, 0x45, 0x00, 0x00, 0x14 };
    uint16_t cs = csum_fold(csum_partial(g, 12, 0));
    ck_assert_uint_eq(cs, 0x32eb);
    g[4] = (uint8_t)(cs >> 8);
    g[5] = (uint8_t)cs;
    ck_assert_uint_eq(csum_fold(csum_partial(g, 12, 0)), 0);
    ck_assert_uint_eq(fold16(~(uint32_t)0), 0xffff);       /* GRE conversion value ~0 */
}
END_TEST

START_TEST(v8_odd_offset)
{
    uint32_t a = csum_partial("\xab", 1, 0);
    uint32_t b = csum_partial("\x12\x34\x56", 3, 0);
    ck_assert_uint_eq(fold16(a), 0xab00);
    ck_assert_uint_eq(fold16(b), 0x6834);
    uint32_t c = csum_block_add(a, b, 1);
    ck_assert_uint_eq(fold16(c), 0xdf68);
    ck_assert_uint_eq(fold16(c), fold16(csum_partial("\xab\x12\x34\x56", 4, 0)));
    ck_assert_uint_eq(fold16(csum_block_sub(c, b, 1)), fold16(a));
}
END_TEST

/* V9 / V10 arithmetic on the numbers of the spec (the full frame is built
 * and run through decode/verify/replay in test_verify.c). */
START_TEST(v9_v10_remcsum_lco_numbers)
{
    /* remcsum_unadjust(field, delta) restores the old value */
    uint16_t field = 0x86d1, delta = 0x033b;
    ck_assert_uint_eq(csum_fold(csum_sub(delta, field)), 0x8396);
    /* an original 0xffff comes back as 0x0000 (same value in ones' complement) */
    uint32_t d2 = csum_sub(csum_unfold(0x1234), csum_unfold(0xffff));
    ck_assert_uint_eq(csum_fold(csum_sub(d2, 0x1234)), 0x0000);
}
END_TEST

START_TEST(large_buffers)
{
    static uint8_t buf[9001];
    uint32_t ref = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    for (size_t i = 0; i + 1 < sizeof buf; i += 2)
        ref = csum_add(ref, ((uint32_t)buf[i] << 8) | buf[i + 1]);
    ref = csum_add(ref, (uint32_t)buf[sizeof buf - 1] << 8);
    for (size_t n = 0; n <= 64; n++)    /* every tail length and alignment */
        for (size_t o = 0; o < 4; o++) {
            uint32_t r = 0;
            for (size_t i = o; i + 1 < o + n; i += 2)
                r = csum_add(r, ((uint32_t)buf[i] << 8) | buf[i + 1]);
            if (n & 1)
                r = csum_add(r, (uint32_t)buf[o + n - 1] << 8);
            ck_assert_uint_eq(fold16(csum_partial(buf + o, n, 0)), fold16(r));
        }
    ck_assert_uint_eq(fold16(csum_partial(buf, sizeof buf, 0)), fold16(ref));
}
END_TEST

Suite *csum_suite(void);
Suite *csum_suite(void)
{
    Suite *s = suite_create("arithmetic V1-V10");
    TCase *t = tcase_create("csum");
    tcase_add_test(t, primitives);
    tcase_add_test(t, v1_ipv4_header);
    tcase_add_test(t, v2_udp4_pseudo);
    tcase_add_test(t, v3_complete_postpull);
    tcase_add_test(t, v4_conversion);
    tcase_add_test(t, v5_bad_udp);
    tcase_add_test(t, v6_ipv6_pseudo);
    tcase_add_test(t, v7_gre);
    tcase_add_test(t, v8_odd_offset);
    tcase_add_test(t, v9_v10_remcsum_lco_numbers);
    tcase_add_test(t, large_buffers);
    suite_add_tcase(s, t);
    return s;
}
