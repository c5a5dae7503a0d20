/*
 * test_direction.c - csc_direction() (core/direction.c, docs/direction.md):
 * the capture's flags, the cooked header's packet type, loopback, this
 * host's addresses and the guess, in that order; the virtual device report.
 */
#include "helpers.h"

#include <stdio.h>

Suite *direction_suite(void);

/* Ethernet / IPv4 10.0.0.1 > 10.0.0.2 / TCP with its checksum in state cs */
static void eth_tcp(struct pb_frame *f, enum pb_state cs)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP)->csum = cs;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* the same behind a Linux cooked v2 header of packet type pkttype */
static void sll2_tcp(struct pb_frame *f, enum pb_state cs, uint8_t pkttype)
{
    pb_init(f);
    pb_push(f, PB_SLL2)->pkttype = pkttype;
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP)->csum = cs;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* the built frame again, with the capture's direction flag */
static void run_flagged(uint8_t dir, enum csc_link link)
{
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, (uint8_t)link, dir };
    csc_analyze(&CFG, &fr, &R);
}

#define ASSERT_DIR(d, from)                                                                   \
    do {                                                                                      \
        ck_assert_msg(R.direction == (d) && R.dir_from == (from), "direction %s (%s)",        \
                      csc_direction_name(R.direction), csc_dir_from_name(R.dir_from));        \
    } while (0)

START_TEST(capture_flags_first)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    eth_tcp(&f, PB_OK);
    run(&f);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
    ck_assert_int_eq(R.pkttype, CSC_NO_PKTTYPE);
    ck_assert_int_eq(R.via, CSC_VIA_NIC);
    run_flagged(CSC_DIR_OUT, CSC_LINK_ETHERNET);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_CAPTURE);
    ck_assert(R.layers[0].notes & CSC_N_OUTGOING);
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ASSERT_DIR(CSC_DIR_IN, CSC_DF_CAPTURE);
    ck_assert(!(R.layers[0].notes & CSC_N_OUTGOING));

    /* the flags win over the cooked header's packet type */
    sll2_tcp(&f, PB_OK, 4);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    run_flagged(CSC_DIR_IN, CSC_LINK_SLL2);
    ASSERT_DIR(CSC_DIR_IN, CSC_DF_CAPTURE);
    ck_assert_str_eq(csc_pkttype_name(R.pkttype), "outgoing");
}
END_TEST

START_TEST(cooked_packet_type)
{
    static const struct { uint8_t pkttype; uint8_t dir; const char *name; } t[] = {
        { 0, CSC_DIR_IN, "host" },          { 1, CSC_DIR_IN, "broadcast" },
        { 2, CSC_DIR_IN, "multicast" },     { 3, CSC_DIR_IN, "otherhost" },
        { 4, CSC_DIR_OUT, "outgoing" },
    };
    struct pb_frame f;
    cfg_set("none", "modern");
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        sll2_tcp(&f, PB_OK, t[i].pkttype);
        run(&f);
        ASSERT_DIR(t[i].dir, CSC_DF_PKTTYPE);
        ck_assert_str_eq(csc_pkttype_name(R.pkttype), t[i].name);
        ck_assert_int_eq(!!(R.layers[0].notes & CSC_N_OUTGOING), t[i].dir == CSC_DIR_OUT);
    }
    /* a packet type Linux does not have: recorded as none, direction not decided */
    sll2_tcp(&f, PB_OK, 0x42);
    run(&f);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
    ck_assert_int_eq(R.pkttype, CSC_NO_PKTTYPE);
}
END_TEST

START_TEST(loopback_frames)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    /* Linux lo: Ethernet with both addresses zero */
    eth_tcp(&f, PB_SEED);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    memset(FRAME, 0, 12);
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.via, CSC_VIA_LOOPBACK);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOOPBACK);
    /* an outermost address in 127.0.0.0/8, even with the capture saying inbound */
    eth_tcp(&f, PB_OK);
    memcpy(f.l[1].dst, "\x7f\x00\x00\x01", 4);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.via, CSC_VIA_LOOPBACK);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOOPBACK);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    /* ::1 */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip6 = pb_push(&f, PB_IPV6);
    memset(ip6->src, 0, 16);
    ip6->src[15] = 1;
    memcpy(ip6->dst, ip6->src, 16);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    run(&f);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOOPBACK);
    /* -i any: lo's cooked header (ARPHRD_LOOPBACK), packet type host */
    sll2_tcp(&f, PB_SEED, 0);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    FRAME[8] = 0x03;
    FRAME[9] = 0x04;            /* 772 */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_SLL2);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOOPBACK);
    ck_assert_str_eq(csc_pkttype_name(R.pkttype), "host");
    /* BSD loopback header: AF_INET, host byte order */
    static const uint8_t null4[4] = { 2, 0, 0, 0 };
    eth_tcp(&f, PB_OK);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    memmove(FRAME + 4, FRAME + 14, FRAME_LEN - 14);
    memcpy(FRAME, null4, 4);
    run_bytes(FRAME, FRAME_LEN - 10, FRAME_LEN - 10, CSC_LINK_NULL);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOOPBACK);
    /* a raw IP capture (no link header): the outermost IP is layer 0 */
    eth_tcp(&f, PB_OK);
    memcpy(f.l[1].dst, "\x7f\x00\x00\x01", 4);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    memmove(FRAME, FRAME + 14, FRAME_LEN - 14);
    run_bytes(FRAME, FRAME_LEN - 14, FRAME_LEN - 14, CSC_LINK_RAW);
    ck_assert_int_eq(R.layers[0].proto, CSC_P_IPV4);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOOPBACK);
    /* the inner Ethernet of a tunnel with zero addresses is not the capture's */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 8;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    memset(FRAME + f.off[4], 0, 12);
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.via, CSC_VIA_NIC);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
}
END_TEST

START_TEST(local_addresses)
{
    struct csc_local_set set = { 0 };
    struct pb_frame f;
    cfg_set("none", "modern");
    CFG.local = &set;
    ck_assert(csc_local_add(&set, "10.0.0.1"));
    eth_tcp(&f, PB_OK);
    run(&f);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOCAL);
    set.n = 0;
    ck_assert(csc_local_add(&set, "10.0.0.2"));
    run(&f);
    ASSERT_DIR(CSC_DIR_IN, CSC_DF_LOCAL);
    set.n = 0;
    ck_assert(csc_local_add(&set, "02:00:00:00:00:01"));   /* the builder's source MAC */
    run(&f);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOCAL);
    set.n = 0;
    ck_assert(csc_local_add(&set, "192.0.2.9"));
    ck_assert(csc_local_add(&set, "2001:db8::9"));
    run(&f);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
    /* the cooked header's link address is the source's */
    set.n = 0;
    ck_assert(csc_local_add(&set, "02:00:00:00:00:01"));
    sll2_tcp(&f, PB_OK, 0);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    FRAME[10] = 0x42;           /* a packet type that decides nothing */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_SLL2);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOCAL);
    /* and the v1 cooked header's (DLT_LINUX_SLL: packet type, ARPHRD_ETHER,
     * address length 6 as a 16-bit field, the address, the protocol) */
    {
        static uint8_t sll[16 + 2000];
        static const uint8_t hdr[16] = { 0x00, 0x42, 0x00, 0x01, 0x00, 0x06, 0x02, 0x00, 0x00,
                                         0x00, 0x00, 0x01, 0x00, 0x00, 0x08, 0x00 };
        ck_assert_uint_lt(FRAME_LEN - 20, sizeof sll - 16);
        memcpy(sll, hdr, 16);
        memcpy(sll + 16, FRAME + 20, FRAME_LEN - 20);      /* the IPv4 packet after SLL2's 20 */
        run_bytes(sll, FRAME_LEN - 4, FRAME_LEN - 4, CSC_LINK_SLL);
        ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
        ASSERT_DIR(CSC_DIR_OUT, CSC_DF_LOCAL);
    }
    /* IPv6 */
    set.n = 0;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip6 = pb_push(&f, PB_IPV6);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    run(&f);
    char a[64];
    snprintf(a, sizeof a, "%x:%x::%x", ip6->dst[0] << 8 | ip6->dst[1],
             ip6->dst[2] << 8 | ip6->dst[3], ip6->dst[14] << 8 | ip6->dst[15]);
    ck_assert_msg(csc_local_add(&set, a), "%s", a);
    run(&f);
    ASSERT_DIR(CSC_DIR_IN, CSC_DF_LOCAL);
    CFG.local = NULL;
}
END_TEST

START_TEST(local_words)
{
    struct csc_local_set set = { 0 };
    ck_assert(csc_local_add(&set, "0a:0B:0c:0d:0e:0f"));
    ck_assert_int_eq(set.a[0].kind, CSC_LOCAL_MAC);
    ck_assert_int_eq(set.a[0].addr[1], 0x0b);
    ck_assert(csc_local_add(&set, "::1"));
    ck_assert_int_eq(set.a[1].kind, CSC_LOCAL_IPV6);
    ck_assert(!csc_local_add(&set, "10.0.0"));
    ck_assert(!csc_local_add(&set, "02:00:00:00:00"));
    ck_assert(!csc_local_add(&set, "02:00:00:00:00:01:02"));
    ck_assert(!csc_local_add(&set, "2:0:0:0:0:1"));
    ck_assert(!csc_local_add(&set, "eth0"));
    ck_assert_uint_eq(set.n, 2);
    while (set.n < CSC_MAX_LOCAL)
        ck_assert(csc_local_add(&set, "10.1.1.1"));
    ck_assert(!csc_local_add(&set, "10.1.1.2"));
    /* csc_local_format: each kind, and "" when the buffer is too short
     * for the address (inet_ntop fails: the old bytes must not show) */
    char buf[64];
    ck_assert_str_eq(csc_local_format(&set.a[0], buf, sizeof buf), "0a:0b:0c:0d:0e:0f");
    ck_assert_str_eq(csc_local_format(&set.a[1], buf, sizeof buf), "::1");
    ck_assert_str_eq(csc_local_format(&set.a[2], buf, sizeof buf), "10.1.1.1");
    memcpy(buf, "xxxxxxxx", 9);
    ck_assert_str_eq(csc_local_format(&set.a[2], buf, 8), "");
    memcpy(buf, "xxxxxxxx", 9);
    ck_assert_str_eq(csc_local_format(&set.a[1], buf, 3), "");
}
END_TEST

START_TEST(guess_from_partial)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    eth_tcp(&f, PB_SEED);
    run(&f);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_GUESS);
    ck_assert(!(R.layers[0].notes & CSC_N_OUTGOING));   /* the capture did not say */
    CFG.guess_direction = false;
    run(&f);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
    CFG.guess_direction = true;
    /* bad is not partial */
    eth_tcp(&f, PB_BAD);
    run(&f);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
    /* the outermost checksum there is: a zero outer UDP is skipped, the inner seed counts */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 50;
    run(&f);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_GUESS);
    /* an outer good checksum hides an inner seed: received */
    f.l[2].csum = PB_OK;
    run(&f);
    ASSERT_DIR(CSC_DIR_UNKNOWN, CSC_DF_NONE);
    /* LCO outer */
    f.l[2].csum = PB_LCO;
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_LCO);
    ASSERT_DIR(CSC_DIR_OUT, CSC_DF_GUESS);
    /* the capture's flags are never overruled by the guess */
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ASSERT_DIR(CSC_DIR_IN, CSC_DF_CAPTURE);
}
END_TEST

START_TEST(virtual_device_report)
{
    struct pb_frame f;
    /* received with a seed on a NIC reporting nothing: dropped */
    cfg_set("none", "modern");
    eth_tcp(&f, PB_SEED);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    /* on veth the sender's CHECKSUM_PARTIAL crosses: accepted, nothing summed */
    CFG.via = CSC_VIA_VIRTUAL;
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.via, CSC_VIA_VIRTUAL);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(R.kernel.devs[0].entry.ip_summed, CSC_CHECKSUM_PARTIAL);
    ck_assert_uint_eq(R.kernel.sw_passes, 0);
    /* a bad checksum was completed (wrongly) in software: NONE, dropped */
    eth_tcp(&f, PB_BAD);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.devs[0].entry.ip_summed, CSC_CHECKSUM_NONE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    /* the same report by name, on any interface */
    cfg_set("virtual", "modern");
    eth_tcp(&f, PB_SEED);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    run_flagged(CSC_DIR_IN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    char buf[32];
    ck_assert_str_eq(csc_report_format(&CFG.rx, buf, sizeof buf), "virtual");
    /* tun: a cooked header of device type ARPHRD_NONE */
    cfg_set("none", "modern");
    sll2_tcp(&f, PB_SEED, 0);
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    FRAME[8] = 0xff;
    FRAME[9] = 0xfe;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_SLL2);
    ck_assert_int_eq(R.via, CSC_VIA_VIRTUAL);
    ASSERT_DIR(CSC_DIR_IN, CSC_DF_PKTTYPE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

Suite *direction_suite(void)
{
    Suite *s = suite_create("direction");
    TCase *tc = tcase_create("direction");
    tcase_add_test(tc, capture_flags_first);
    tcase_add_test(tc, cooked_packet_type);
    tcase_add_test(tc, loopback_frames);
    tcase_add_test(tc, local_addresses);
    tcase_add_test(tc, local_words);
    tcase_add_test(tc, guess_from_partial);
    tcase_add_test(tc, virtual_device_report);
    suite_add_tcase(s, tc);
    return s;
}
