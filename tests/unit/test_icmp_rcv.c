/*
 * test_icmp_rcv.c - icmp_rcv after the checksum (core/replay/icmp.c;
 * docs/kernel-branches.md B7), read in Debian's 6.12.117 and 6.1.192: the
 * type check and the handlers' length checks count IcmpInErrors and drop.
 * The live cases are csc-kdiff's "vxlan+icmpT/L ..." family.
 */
#include "helpers.h"

/* IPv4 / UDP / VXLAN / Eth / IPv4 / ICMP type t with n bytes after its header */
static void run_icmp(uint8_t type, size_t n, enum pb_state csum, const char *rx)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *ic = pb_push(&f, PB_ICMP);
    ic->icmp_type = type;
    ic->csum = (uint8_t)csum;
    struct pb_layer *pl = pb_push(&f, PB_PAYLOAD);
    pl->len = n;
    pl->fill = 0x40;                  /* a quoted "IPv4 header" with ihl 0 */
    cfg_set(rx, "6.12");
    run(&f);
}

static void expect_icmp_drop(const char *reason, uint32_t counters)
{
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_ICMP, 0));
    ck_assert_uint_eq(R.kernel.counters, counters);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), reason);
}

/* icmp_rcv: type 99 (> NR_ICMP_TYPES, not 42/43) is UNHANDLED_PROTO with
 * IcmpInErrors; a bad checksum is found first (IcmpInCsumErrors too); under
 * UNNECESSARY the checksum is trusted and the type still fails. */
START_TEST(icmp_type_above_18)
{
    run_icmp(99, 16, PB_OK, "none");
    expect_icmp_drop("UNHANDLED_PROTO", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(99, 16, PB_BAD, "none");
    expect_icmp_drop("ICMP_CSUM", counters_of(CSC_C_ICMP_IN_CSUM_ERRORS, CSC_C_ICMP_IN_ERRORS));
    run_icmp(99, 16, PB_BAD, "unnecessary:1");
    expect_icmp_drop("UNHANDLED_PROTO", 1u << CSC_C_ICMP_IN_ERRORS);
}
END_TEST

/* icmp_unreach (3, 4, 11, 12): a quote under 20 bytes, or with ihl < 5;
 * icmp_redirect under 20, icmp_timestamp under 4 bytes (PKT_TOO_SMALL). An
 * echo request and a 12-byte timestamp are taken (answered). */
START_TEST(icmp_handler_lengths)
{
    run_icmp(3, 8, PB_OK, "none");
    expect_icmp_drop("NOT_SPECIFIED (icmp quote)", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(11, 28, PB_OK, "none");    /* 28 bytes, but ihl 0 */
    expect_icmp_drop("NOT_SPECIFIED (icmp quote)", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(5, 8, PB_OK, "none");
    expect_icmp_drop("PKT_TOO_SMALL", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(13, 2, PB_OK, "none");
    expect_icmp_drop("PKT_TOO_SMALL", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(13, 3, PB_OK, "none");                 /* icmp_timestamp's edge: 3 short, 4 taken */
    expect_icmp_drop("PKT_TOO_SMALL", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(13, 4, PB_OK, "none");
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    run_icmp(5, 19, PB_OK, "none");                 /* icmp_redirect's: 19 short, 20 taken */
    expect_icmp_drop("PKT_TOO_SMALL", 1u << CSC_C_ICMP_IN_ERRORS);
    run_icmp(13, 12, PB_OK, "none");
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    run_icmp(8, 56, PB_OK, "none");
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* icmp_rcv on a multicast route (v6.12 net/ipv4/icmp.c, rt_flags &
 * RTCF_MULTICAST): the model routes the all-hosts group 224.0.0.1 locally;
 * echo and timestamp are refused (icmp_echo_ignore_broadcasts 1, the
 * default), every other type but the address mask pair too: INVALID_PROTO,
 * IcmpInErrors. A bad checksum is found first. kfuzz cases "plain4 ip4
 * none icmp4 oip.daddr=mcast-all ..." */
START_TEST(icmp_to_all_hosts)
{
    static const uint8_t all_hosts[4] = { 224, 0, 0, 1 };
    static const struct { uint8_t type; size_t n; enum pb_state csum; int accept; } c[] = {
        { 8, 56, PB_OK, 0 }, { 13, 12, PB_OK, 0 }, { 0, 56, PB_OK, 0 }, { 3, 28, PB_OK, 0 },
        { 17, 4, PB_OK, 1 }, { 18, 4, PB_OK, 1 }, { 8, 56, PB_BAD, 0 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV4);
        memcpy(ip->dst, all_hosts, 4);
        struct pb_layer *ic = pb_push(&f, PB_ICMP);
        ic->icmp_type = c[i].type;
        ic->csum = (uint8_t)c[i].csum;
        pb_push(&f, PB_PAYLOAD)->len = (uint16_t)c[i].n;
        cfg_set("none", "6.12");
        run(&f);
        if (c[i].accept) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
            ck_assert_uint_eq(R.kernel.counters, 0);
        } else if (c[i].csum == PB_BAD) {
            expect_icmp_drop("ICMP_CSUM", counters_of(CSC_C_ICMP_IN_CSUM_ERRORS, CSC_C_ICMP_IN_ERRORS));
        } else {
            expect_icmp_drop("INVALID_PROTO", 1u << CSC_C_ICMP_IN_ERRORS);
        }
    }
}
END_TEST

/* igmp_rcv (net/ipv4/igmp.c v6.12): skb_checksum_simple_validate, no
 * pseudo-header (psum 0), over the IGMP message; a good report to
 * 224.0.0.1 goes on (accepted, no counter), a bad one is freed with no
 * counter (the model's "igmp checksum" reason). */
START_TEST(igmp_checksum_has_no_pseudo_header)
{
    static const uint8_t all_hosts[4] = { 224, 0, 0, 1 };
    for (int bad = 0; bad < 2; bad++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        memcpy(pb_push(&f, PB_IPV4)->dst, all_hosts, 4);
        pb_push(&f, PB_IGMP)->csum = bad ? PB_BAD : PB_OK;
        cfg_set("none", "6.12");
        run(&f);
        int g = lay(CSC_P_IGMP, 0);
        ck_assert_int_eq(R.layers[g].verdict, bad ? CSC_V_BAD : CSC_V_GOOD);
        ck_assert_int_eq(R.layers[g].k.method, CSC_M_SW_PASS);
        ck_assert_int_eq(R.layers[g].k.ok, bad ? CSC_TRI_NO : CSC_TRI_YES);   /* the kernel's sum agrees */
        if (R.kernel.verdict != (bad ? CSC_K_DROP : CSC_K_ACCEPT))
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, bad ? CSC_K_DROP : CSC_K_ACCEPT);
        ck_assert_uint_eq(R.kernel.counters, 0);
        if (bad) {
            ck_assert_int_eq(R.kernel.drop_layer, g);
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "NOT_SPECIFIED (igmp checksum)");
        }
    }
}
END_TEST

/* icmpv6_notify skips a quote's extension headers (ipv6_skip_exthdr), which
 * the model does not follow: a destination unreachable quoting an IPv6
 * packet whose next header is one of ipv6_ext_hdr's (include/net/ipv6.h
 * v6.12: hop-by-hop 0, routing 43, fragment 44, AH 51, none 59, destination
 * options 60) is unknown; quoting UDP it goes on (the old rule). */
START_TEST(icmpv6_quote_with_extension_header_unknown)
{
    static const struct { uint8_t ext; uint8_t nh; } c[] = {
        { PB_X_HBH, 0 }, { PB_X_FRAG, 44 }, { PB_X_DST, 60 }, { 0, 17 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV6);
        pb_push(&f, PB_ICMPV6)->icmp_type = 1;
        pb_push(&f, PB_IPV6)->v6_ext = c[i].ext;
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 16;
        cfg_set("none", "6.12");
        run(&f);
        int ic = lay(CSC_P_ICMPV6, 0);
        ck_assert_uint_eq(FRAME[R.layers[ic].off + 8 + 6], c[i].nh);   /* the quote's next header */
        /* type 1, the lowest error type: its quote is decoded, as quoted */
        ck_assert(R.layers[lay(CSC_P_IPV6, 1)].notes & CSC_N_QUOTED);
        if (c[i].nh == 17) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
            ck_assert_int_ge(find_step("icmpv6_rcv", "deliver"), 0);
        } else {
            if (R.kernel.verdict != CSC_K_UNKNOWN)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
            ck_assert_int_ge(find_step("icmpv6_rcv", "not-modelled"), 0);
        }
    }
    /* the rest of the list (routing, AH, no next header): the quote's next
     * header byte written before the checksums are */
    static const uint8_t nh[] = { 43, 51, 59 };
    for (unsigned i = 0; i < sizeof nh; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV6);
        pb_push(&f, PB_ICMPV6)->icmp_type = 1;
        pb_push(&f, PB_IPV6);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 16;
        struct pb_patch *p = pb_patch_add(&f, 3, PB_PATCH_SET, 6, 1);
        p->mask[0] = 0xff;
        p->val[0] = nh[i];
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_uint_eq(FRAME[R.layers[lay(CSC_P_ICMPV6, 0)].off + 8 + 6], nh[i]);
        if (R.kernel.verdict != CSC_K_UNKNOWN)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
        ck_assert_int_ge(find_step("icmpv6_rcv", "not-modelled"), 0);
    }
}
END_TEST

/* An ICMP message of 4 bytes, shorter than its 8-byte header, over IPv4
 * (icmp_rcv v6.12): skb_checksum_simple_validate over the 4 bytes, then
 * pskb_pull(skb, sizeof(*icmph)) fails - IcmpInErrors (PKT_TOO_SMALL), and
 * IcmpInCsumErrors first when those 4 bytes do not sum to 0xffff */
START_TEST(icmp_shorter_than_its_header)
{
    for (int bad = 0; bad < 2; bad++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4)->proto = 1;
        struct pb_layer *r = pb_push(&f, PB_RAW);
        /* echo request, code 0, checksum ~0x0800 = 0xf7ff over the 4 bytes */
        memcpy(r->raw, bad ? "\x08\x00\xf7\xfe" : "\x08\x00\xf7\xff", 4);
        r->len = 4;
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_uint_eq(FRAME_LEN, 14 + 20 + 4);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_ge(find_step("icmp_rcv", "drop"), 0);
        if (bad) {
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_ICMP_IN_CSUM_ERRORS, CSC_C_ICMP_IN_ERRORS));
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "ICMP_CSUM");
        } else {
            ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_ICMP_IN_ERRORS);
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "PKT_TOO_SMALL");
        }
    }
}
END_TEST

/* An ICMPv6 message of no bytes at all (payload length 0, the capture
 * ending with the IPv6 header): icmpv6_rcv's skb_checksum_validate sums the
 * pseudo-header - the 32 address bytes, length 0 - and nothing else; no
 * byte past the addresses is read. Then the pull of the header fails. */
START_TEST(icmpv6_without_a_byte)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV6)->proto = 58;
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_uint_eq(FRAME_LEN, 14 + 40);
    ck_assert_uint_eq((unsigned)FRAME[18] << 8 | FRAME[19], 0);   /* payload length */
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_ge(find_step("icmpv6_rcv", "drop"), 0);
    /* the pseudo-header alone does not sum to 0xffff: csum_error, then discard_it */
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_ICMP6_IN_CSUM_ERRORS, CSC_C_ICMP6_IN_ERRORS));
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "ICMP_CSUM");
}
END_TEST

/* IPv4 in IPv4 with 10 bytes of inner header (tunnel4_rcv v6.12:
 * pskb_may_pull(skb, sizeof(struct iphdr)) fails, kfree_skb, no counter);
 * in IPv6 the same short header goes to ip6_tnl_rcv's pull (pull.c) */
START_TEST(ipip_inner_header_short)
{
    for (int v6 = 0; v6 < 2; v6++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        pb_push(&f, v6 ? PB_IPV6 : PB_IPV4)->proto = 4;
        struct pb_layer *r = pb_push(&f, PB_RAW);
        memcpy(r->raw, "\x45\x00\x00\x1c\x00\x01\x40\x00\x40\x11", 10);
        r->len = 10;
        cfg_set("none", "6.12");
        run(&f);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_uint_eq(R.kernel.counters, 0);
        ck_assert_int_ge(find_step(v6 ? "ip6_tnl_rcv" : "ipip_rcv", "drop"), 0);
    }
}
END_TEST

/* The same 10 bytes as VXLAN's inner IPv4 header behind its Ethernet
 * header: vxlan_rcv (6.1 on: pskb_inet_may_pull) drops it, the device's
 * rx_length_errors + rx_errors */
START_TEST(vxlan_inner_ip_header_short)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH)->proto = 0x0800;
    struct pb_layer *r = pb_push(&f, PB_RAW);
    memcpy(r->raw, "\x45\x00\x00\x1c\x00\x01\x40\x00\x40\x11", 10);
    r->len = 10;
    cfg_set("none", "6.12");
    run(&f);
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "PKT_TOO_SMALL");
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_DEV_RX_LENGTH_ERRORS, CSC_C_DEV_RX_ERRORS));
    ck_assert_int_ge(find_step("vxlan_rcv", "drop"), 0);
}
END_TEST

/* The same pull in ip6gretap (__ip6_tnl_rcv, v6.12): the inner IPv4
 * header cut short behind the Ethernet header GRE carries over IPv6 is
 * dropped by ip6_tnl_rcv, rx_length_errors; over IPv4 by ip_tunnel_rcv. */
START_TEST(gretap_inner_ip_header_short_by_outer_family)
{
    for (int v6 = 0; v6 < 2; v6++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
        pb_push(&f, PB_GRE)->proto = 0x6558;
        pb_push(&f, PB_ETH)->proto = 0x0800;
        struct pb_layer *r = pb_push(&f, PB_RAW);
        memcpy(r->raw, "\x45\x00\x00\x1c\x00\x01\x40\x00\x40\x11", 10);
        r->len = 10;
        cfg_set("none", "6.12");
        run(&f);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "PKT_TOO_SMALL");
        ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_DEV_RX_LENGTH_ERRORS, CSC_C_DEV_RX_ERRORS));
        ck_assert_int_ge(find_step(v6 ? "ip6_tnl_rcv" : "ip_tunnel_rcv", "drop"), 0);
    }
}
END_TEST

/* icmp-10: an echo reply (ICMP 0, ICMPv6 129) goes to ping_rcv
 * (net/ipv4/ping.c v6.12), which finds no ping socket on a receiver without
 * one (--no-socket; the kernel harnesses open none): NO_SOCKET, kfree_skb,
 * no counter. With the receiver's socket (the default) it is taken. */
START_TEST(echo_reply_without_ping_socket)
{
    for (int v6 = 0; v6 < 2; v6++)
        for (int sock = 0; sock < 2; sock++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
            pb_push(&f, v6 ? PB_ICMPV6 : PB_ICMP)->icmp_type = v6 ? 129 : 8;
            pb_push(&f, PB_PAYLOAD)->len = 56;
            if (!v6) {                /* pb writes type 0 as an echo request: the type byte set */
                struct pb_patch *p = pb_patch_add(&f, 2, PB_PATCH_SET, 0, 1);
                p->mask[0] = 0xff;
                p->val[0] = 0;
            }
            cfg_set("none", "6.12");
            CFG.inner_socket = sock;
            run(&f);
            int ic = lay(v6 ? CSC_P_ICMPV6 : CSC_P_ICMP, 0);
            ck_assert_uint_eq(FRAME[R.layers[ic].off], v6 ? 129 : 0);
            ck_assert_uint_eq(R.kernel.counters, 0);
            if (sock) {
                ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
                continue;
            }
            if (R.kernel.verdict != CSC_K_DROP)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, ic);
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "NO_SOCKET");
            ck_assert_int_ge(find_step("ping_rcv", "drop"), 0);
        }
    /* an echo request is answered whatever the sockets */
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_ICMP)->icmp_type = 8;
    pb_push(&f, PB_PAYLOAD)->len = 56;
    cfg_set("none", "6.12");
    CFG.inner_socket = false;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* icmp-9: icmp_socket_deliver (v6.12) pulls the quoted IPv4 header and 8
 * bytes past it (ihl * 4 + 8); short, it counts IcmpInErrors and returns -
 * icmp_unreach / icmp_redirect return SKB_NOT_DROPPED_YET and icmp_rcv
 * consume_skb's the message: taken, with the counter. A quote of 28 bytes
 * (ihl 5) is whole; icmp_unreach's own exits (code above 15, a reassembly
 * time exceeded) come before it and count nothing. */
START_TEST(icmp_quote_short_of_8_bytes_past_its_header)
{
    static const struct { uint8_t type, code, vihl; size_t n; int errors; } c[] = {
        { 3, 3, 0x45, 24, 1 }, { 3, 3, 0x45, 27, 1 }, { 3, 3, 0x45, 28, 0 }, { 11, 0, 0x46, 28, 1 },
        { 11, 0, 0x46, 32, 0 }, { 12, 0, 0x4f, 60, 1 }, { 4, 0, 0x45, 20, 1 }, { 5, 1, 0x45, 24, 1 },
        { 3, 16, 0x45, 24, 0 }, { 11, 1, 0x45, 24, 0 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        struct pb_layer *ic = pb_push(&f, PB_ICMP);
        ic->icmp_type = c[i].type;
        ic->icmp_code = c[i].code;
        struct pb_layer *q = pb_push(&f, PB_RAW);     /* the quote: its version and ihl, then a pattern */
        q->raw[0] = c[i].vihl;
        q->len = 1;
        struct pb_layer *z = pb_push(&f, PB_PAYLOAD);
        z->len = (uint16_t)(c[i].n - 1);
        z->fill = 0;
        cfg_set("none", "6.12");
        run(&f);
        int l = lay(CSC_P_ICMP, 0);
        ck_assert_uint_eq(FRAME[R.layers[l].off + 1], c[i].code);
        ck_assert_uint_eq(FRAME[R.layers[l].off + 8], c[i].vihl);
        ck_assert_uint_eq(R.layers[l].end - R.layers[l].off - 8, c[i].n);
        if (R.kernel.verdict != CSC_K_ACCEPT)
            dump_result();
        ck_assert_msg(R.kernel.verdict == CSC_K_ACCEPT, "case %u", i);
        ck_assert_msg(R.kernel.counters == (c[i].errors ? 1u << CSC_C_ICMP_IN_ERRORS : 0u), "case %u: %x", i,
                      R.kernel.counters);
        ck_assert_int_eq(find_step("icmp_socket_deliver", "short-packet") >= 0, c[i].errors);
    }
}
END_TEST

Suite *icmp_rcv_suite(void);
Suite *icmp_rcv_suite(void)
{
    Suite *s = suite_create("icmp_rcv");
    TCase *t = tcase_create("icmp_rcv");
    tcase_add_test(t, icmp_type_above_18);
    tcase_add_test(t, icmp_handler_lengths);
    tcase_add_test(t, icmp_to_all_hosts);
    tcase_add_test(t, echo_reply_without_ping_socket);
    tcase_add_test(t, icmp_quote_short_of_8_bytes_past_its_header);
    tcase_add_test(t, igmp_checksum_has_no_pseudo_header);
    tcase_add_test(t, icmpv6_quote_with_extension_header_unknown);
    tcase_add_test(t, icmp_shorter_than_its_header);
    tcase_add_test(t, icmpv6_without_a_byte);
    tcase_add_test(t, ipip_inner_header_short);
    tcase_add_test(t, vxlan_inner_ip_header_short);
    tcase_add_test(t, gretap_inner_ip_header_short_by_outer_family);
    suite_add_tcase(s, t);
    return s;
}
