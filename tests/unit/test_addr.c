/*
 * test_addr.c - what the receive path decides from the addresses alone
 * (core/replay/addr.c; docs/kernel-branches.md B1): ip6_rcv_core's checks
 * and the martians of ip_route_input_slow, read in Debian's 6.12.117 and
 * 6.1.192. The live cases are csc-kdiff's "vxlan+src-loopback ..." family.
 */
#include "helpers.h"

/* IPv4 / UDP / VXLAN / Eth / inner IP (addresses set) / TCP */
static void vxlan_inner(struct pb_frame *f, int inner6, const uint8_t *src, const uint8_t *dst)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP);
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    struct pb_layer *ip = pb_push(f, inner6 ? PB_IPV6 : PB_IPV4);
    if (src)
        memcpy(ip->src, src, inner6 ? 16 : 4);
    if (dst)
        memcpy(ip->dst, dst, inner6 ? 16 : 4);
    pb_push(f, PB_TCP)->csum = PB_BAD;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

static void expect_dropped_at_inner(int inner6, uint32_t counters, const char *reason)
{
    int ip = lay(inner6 ? CSC_P_IPV6 : CSC_P_IPV4, inner6 ? 0 : 1);
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, ip);
    ck_assert_uint_eq(R.kernel.counters, counters);   /* not TcpInCsumErrors: TCP never ran */
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), reason);
}

/* ip_route_input_slow: 127.0.0.1, 224.0.0.5 or 0.0.0.0 as the source,
 * 127.0.0.1 or 0.0.0.0 as the destination: martians, dropped without a MIB
 * counter, before the bad TCP checksum is looked at. 0.0.0.5 is unicast
 * (ipv4_is_zeronet is addr == 0 in 5.10-6.12; the live cases showed it). */
START_TEST(ipv4_martians_dropped_silently)
{
    static const uint8_t lo[4] = { 127, 0, 0, 1 }, mc[4] = { 224, 0, 0, 5 }, zs[4] = { 0, 0, 0, 0 },
                         zd[4] = { 0, 0, 0, 0 }, z5[4] = { 0, 0, 0, 5 };
    const uint8_t *srcs[] = { lo, mc, zs, NULL, NULL };
    const uint8_t *dsts[] = { NULL, NULL, NULL, lo, zd };
    for (unsigned i = 0; i < 5; i++) {
        struct pb_frame f;
        vxlan_inner(&f, 0, srcs[i], dsts[i]);
        cfg_set("none", "6.12");
        run(&f);
        expect_dropped_at_inner(0, 0, "NOT_SPECIFIED (martian address)");
        ck_assert_int_ge(find_step("ip_route_input_slow", "drop"), 0);
        ck_assert_int_eq(find_step("tcp_v4_rcv", "enter"), -1);
    }
    struct pb_frame f;
    vxlan_inner(&f, 0, lo, NULL);     /* route_localnet (--live's receiver): 127/8 is routed */
    cfg_set("none", "6.12");
    CFG.route_localnet = true;
    run(&f);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    vxlan_inner(&f, 0, z5, NULL);
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);           /* by TCP, not routing */
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
}
END_TEST

/* ip6_rcv_core: ::1 as the source or destination, ff02::1 as the source,
 * ff01::1 (scope 1) or ff00::1 (scope 0) as the destination: Ip6InHdrErrors. */
START_TEST(ipv6_address_header_errors)
{
    static const uint8_t lo[16] = { [15] = 1 }, mc2[16] = { 0xff, 0x02, [15] = 1 },
                         mc1[16] = { 0xff, 0x01, [15] = 1 }, mc0[16] = { 0xff, 0x00, [15] = 1 };
    const uint8_t *srcs[] = { lo, NULL, mc2, NULL, NULL };
    const uint8_t *dsts[] = { NULL, lo, NULL, mc1, mc0 };
    for (unsigned i = 0; i < 5; i++) {
        struct pb_frame f;
        vxlan_inner(&f, 1, srcs[i], dsts[i]);
        cfg_set("none", "6.1");
        run(&f);
        expect_dropped_at_inner(1, 1u << CSC_C_IP6_IN_HDR_ERRORS, "IP_INHDR");
        ck_assert_int_eq(find_step("tcp_v6_rcv", "enter"), -1);
    }
}
END_TEST

/* A multicast or limited-broadcast destination depends on the receiver's
 * groups and sockets: unknown, never accept - but the all-hosts / all-nodes
 * group every interface is in (224.0.0.1, ff02::1) goes on to TCP. */
START_TEST(multicast_destination_unknown_but_all_hosts)
{
    static const uint8_t mc4[4] = { 239, 1, 1, 1 }, bc4[4] = { 255, 255, 255, 255 },
                         all4[4] = { 224, 0, 0, 1 }, mc6[16] = { 0xff, 0x02, [11] = 1, 0xff, 0, 0, 1 },
                         all6[16] = { 0xff, 0x02, [15] = 1 };
    struct pb_frame f;
    const uint8_t *unknown4[] = { mc4, bc4 };
    for (unsigned i = 0; i < 2; i++) {
        vxlan_inner(&f, 0, NULL, unknown4[i]);
        cfg_set("none", "modern");
        run(&f);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
        ck_assert_uint_eq(R.kernel.warnings & CSC_W_NOT_MODELLED, CSC_W_NOT_MODELLED);
    }
    vxlan_inner(&f, 1, NULL, mc6);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);

    vxlan_inner(&f, 0, NULL, all4);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);       /* the bad TCP checksum */
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    vxlan_inner(&f, 1, NULL, all6);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
}
END_TEST

/* ip_route_input_rcu (v6.12 net/ipv4/route.c): a group the device did not
 * join, on a receiver that forwards no multicast, is -EINVAL - dropped in
 * ip_rcv_finish_core without a counter, before the bad TCP checksum. The
 * model decides it only when told the receiver joined none but 224.0.0.1
 * (cfg mc_only_all_hosts, the kernel harnesses'); IPv6 and the limited
 * broadcast stay unknown. kfuzz cases "... oip.daddr=mcast-group". */
START_TEST(multicast_group_not_joined_dropped_when_known)
{
    static const uint8_t mc4[4] = { 239, 1, 2, 3 }, bc4[4] = { 255, 255, 255, 255 },
                         all4[4] = { 224, 0, 0, 1 }, mc6[16] = { 0xff, 0x0e, [14] = 1, 0x23 };
    struct pb_frame f;
    vxlan_inner(&f, 0, NULL, mc4);
    cfg_set("none", "6.12");
    CFG.mc_only_all_hosts = true;
    run(&f);
    expect_dropped_at_inner(0, 0, "NOT_SPECIFIED (multicast group not joined)");
    ck_assert_int_ge(find_step("ip_route_input_slow", "drop"), 0);

    vxlan_inner(&f, 0, NULL, all4);                   /* joined: on to TCP */
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    vxlan_inner(&f, 0, NULL, bc4);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    vxlan_inner(&f, 1, NULL, mc6);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
}
END_TEST

/* The outer header too: a VXLAN packet from a multicast source never
 * reaches UDP (ip_rcv_finish_core routes before ip_local_deliver). */
START_TEST(outer_martian_before_udp)
{
    struct pb_frame f;
    vxlan_inner(&f, 0, NULL, NULL);
    static const uint8_t mc[4] = { 224, 0, 0, 5 };
    memcpy(f.l[1].src, mc, 4);
    cfg_set("none", "5.10");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_IPV4, 0));
    ck_assert_uint_eq(R.kernel.counters, 0);
}
END_TEST

/* A capture of loopback traffic (outermost 127.0.0.1 > 127.0.0.1, as zeek's
 * fixtures are made): taken on lo, the replay goes on to UDP as before; the
 * same addresses inside a tunnel are martians on the tunnel device. */
START_TEST(loopback_capture_outer_exempt_inner_not)
{
    static const uint8_t lo[4] = { 127, 0, 0, 1 };
    struct pb_frame f;
    vxlan_inner(&f, 0, NULL, NULL);
    memcpy(f.l[1].src, lo, 4);
    memcpy(f.l[1].dst, lo, 4);
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_SENT);          /* a loopback frame: sent */
    CFG.replay_sent = true;                                  /* replayed as received anyway */
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);          /* the inner bad TCP checksum */
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
    memcpy(f.l[5].src, lo, 4);
    memcpy(f.l[5].dst, lo, 4);
    run(&f);
    expect_dropped_at_inner(0, 0, "NOT_SPECIFIED (martian address)");
}
END_TEST

/* ipv6_parse_hopopts / ip6_parse_tlv (tlv.c): an unknown option with
 * action 00 is skipped; 01, 10, 11 drop; a PadN with data and a router
 * alert of length 4 drop (Ip6InHdrErrors, before TCP); so does CALIPSO
 * (ipv6_hop_calipso: length under 8, and no DOI on a stock receiver). */
START_TEST(hop_by_hop_options)
{
    static const struct { uint8_t o[6]; int verdict; } t[] = {
        { { 1, 4, 0, 0, 0, 0 }, CSC_K_DROP },    /* taken: TCP's bad checksum drops */
        { { 0x3e, 4, 0, 0, 0, 0 }, CSC_K_DROP },
        { { 0x7e, 4, 0, 0, 0, 0 }, -1 }, { { 0xbe, 4, 0, 0, 0, 0 }, -1 }, { { 0xfe, 4, 0, 0, 0, 0 }, -1 },
        { { 1, 4, 0, 1, 0, 0 }, -1 }, { { 5, 4, 0, 0, 0, 0 }, -1 }, { { 5, 2, 0, 0, 0, 0 }, CSC_K_DROP },
        { { 7, 4, 0, 0, 0, 0 }, -1 },
        { { 1, 2, 0, 0, 0x1e, 0 }, CSC_K_DROP },  /* PadN(4), then a 2-byte option ends the header */
    };
    for (unsigned i = 0; i < sizeof t / sizeof *t; i++) {
        struct pb_frame f;
        vxlan_inner(&f, 1, NULL, NULL);
        f.l[5].v6_ext = PB_X_HBH;
        memcpy(f.l[5].hbh_opts, t[i].o, 6);
        cfg_set("none", "6.12");
        run(&f);
        if (t[i].verdict == -1) {
            expect_dropped_at_inner(1, 1u << CSC_C_IP6_IN_HDR_ERRORS, "IP_INHDR");
        } else {
            ck_assert_int_eq(R.kernel.verdict, t[i].verdict);
            if (t[i].verdict == CSC_K_DROP)
                ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        }
    }
}
END_TEST

/* ip6_parse_tlv's option count (net/ipv6/exthdrs.c v6.12: tlv_count >
 * max_count, net.ipv6.max_hbh_opts_number default 8, pads not counted):
 * 8 unknown skip options (type 0x1e, action 00) pass to TCP, whose bad
 * checksum drops; a 9th drops at the IPv6 header (Ip6InHdrErrors). A
 * 24-byte hop-by-hop header, padded with one PadN. */
START_TEST(hop_by_hop_option_count_limit)
{
    for (unsigned nopt = 8; nopt <= 9; nopt++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_VXLAN);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV6)->proto = 0x100;          /* next header 0: hop-by-hop */
        struct pb_layer *h = pb_push(&f, PB_RAW);
        memset(h->raw, 0, sizeof h->raw);
        h->raw[0] = 6;                                /* TCP */
        h->raw[1] = 2;                                /* (2 + 1) * 8 = 24 bytes */
        unsigned o = 2;
        for (unsigned k = 0; k < nopt; k++, o += 2)
            h->raw[o] = 0x1e, h->raw[o + 1] = 0;
        h->raw[o] = 1, h->raw[o + 1] = (uint8_t)(24 - o - 2);   /* PadN to the end */
        ck_assert_uint_le(24 - o, 7);
        h->len = 24;
        pb_push(&f, PB_TCP)->csum = PB_BAD;
        pb_push(&f, PB_PAYLOAD)->len = 100;
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_BAD);
        if (nopt > 8) {
            expect_dropped_at_inner(1, 1u << CSC_C_IP6_IN_HDR_ERRORS, "IP_INHDR");
        } else {
            if (R.kernel.verdict != CSC_K_DROP)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        }
    }
}
END_TEST

/* ip6_parse_tlv's run of Pad1 options (net/ipv6/exthdrs.c v6.12: padlen >
 * 7 goto bad): 7 in a row pass, the 8th drops at the IPv6 header
 * (Ip6InHdrErrors). A 16-byte hop-by-hop header: n Pad1, a skip option
 * (0x1e, action 00, empty) that ends the run, 12 - n Pad1 to the end. */
START_TEST(hop_by_hop_pad1_run_limit)
{
    for (unsigned n = 7; n <= 8; n++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_VXLAN);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV6)->proto = 0x100;          /* next header 0: hop-by-hop */
        struct pb_layer *h = pb_push(&f, PB_RAW);
        memset(h->raw, 0, sizeof h->raw);             /* Pad1 is type 0 */
        h->raw[0] = 6;                                /* TCP */
        h->raw[1] = 1;                                /* (1 + 1) * 8 = 16 bytes */
        h->raw[2 + n] = 0x1e;                         /* length 0 */
        h->len = 16;
        pb_push(&f, PB_TCP)->csum = PB_BAD;
        pb_push(&f, PB_PAYLOAD)->len = 100;
        cfg_set("none", "6.12");
        run(&f);
        if (n > 7) {
            expect_dropped_at_inner(1, 1u << CSC_C_IP6_IN_HDR_ERRORS, "IP_INHDR");
        } else {
            if (R.kernel.verdict != CSC_K_DROP)
                dump_result();
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        }
    }
}
END_TEST

/* ip6_rcv_core trims to the payload length before the first extension
 * header's handler pulls it (net/ipv6/ip6_input.c, exthdrs.c v6.12): a
 * destination options header of (40 + 1) * 8 = 328 bytes after a payload
 * length of 0x0104 = 260 (the high byte counts: 260, not 4) does not fit,
 * ipv6_destopt_rcv's pull fails: Ip6InHdrErrors. With 328 it fits (and its
 * options are ones ip6_parse_tlv skips). */
START_TEST(ipv6_first_extension_beyond_payload_length)
{
    for (int fits = 0; fits < 2; fits++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV6);
        ip->proto = 60;                                   /* destination options */
        ip->len_override = fits ? 328 : 0x0104;
        /* no next header, 328 bytes: two skip options (0x1e, action 00) of
         * 255 and 67 bytes, the payload their data (ip6_parse_tlv takes them) */
        struct pb_layer *h = pb_push(&f, PB_RAW);
        memcpy(h->raw, "\x3b\x28\x1e\xff\x00\x00\x00\x00", 8);
        h->len = 8;
        pb_push(&f, PB_PAYLOAD)->len = 251;
        h = pb_push(&f, PB_RAW);
        memcpy(h->raw, "\x1e\x43", 2);
        h->len = 2;
        pb_push(&f, PB_PAYLOAD)->len = 67;
        cfg_set("none", "6.12");
        run(&f);
        int v6 = lay(CSC_P_IPV6, 0);
        if (fits) {
            ck_assert_uint_eq(R.kernel.counters, 0);
            ck_assert_int_lt(find_step("ipv6_destopt_rcv", "drop"), 0);
        } else {
            if (R.kernel.verdict != CSC_K_DROP)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, v6);
            ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_HDR_ERRORS);
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_INHDR");
            ck_assert_int_ge(find_step("ipv6_destopt_rcv", "drop"), 0);
        }
    }
}
END_TEST

/* __ip_options_compile (net/ipv4/ip_options.c v6.12): an option needs 2
 * bytes left (l < 2: error), an unknown one is skipped on receive. NOP NOP
 * and the experimental option 0x9e of length 2 as the last two bytes:
 * parsed, the inner TCP's bad checksum drops. */
START_TEST(ipv4_option_of_two_bytes_at_the_end)
{
    struct pb_frame f;
    vxlan_inner(&f, 0, NULL, NULL);
    f.l[5].ip_opts = 4;
    struct pb_patch *p = pb_patch_add(&f, 5, PB_PATCH_SET, 20, 4);
    ck_assert_ptr_nonnull(p);
    memcpy(p->val, "\x01\x01\x9e\x02", 4);
    memset(p->mask, 0xff, 4);
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_uint_eq(FRAME[f.off[5]] & 0x0f, 6);                 /* ihl 6 */
    ck_assert_uint_eq(FRAME[f.off[5] + 22], 0x9e);
    if (R.kernel.verdict != CSC_K_DROP || R.kernel.drop_layer != lay(CSC_P_TCP, 0))
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
}
END_TEST

/* __ip_options_compile's timestamp option (v6.12): pointer 5 in an
 * 8-byte option leaves room for one 4-byte entry: timestamps only (flag 0)
 * fit (5 + 3 <= 8), address + timestamp (flag 1) need 8 (5 + 7 > 8):
 * error, Ip InHdrErrors, before TCP */
START_TEST(ipv4_timestamp_option_room_by_flag)
{
    for (uint8_t fl = 0; fl < 2; fl++) {
        struct pb_frame f;
        vxlan_inner(&f, 0, NULL, NULL);
        f.l[5].ip_opts = 8;
        struct pb_patch *p = pb_patch_add(&f, 5, PB_PATCH_SET, 20, 8);
        ck_assert_ptr_nonnull(p);
        const uint8_t o[8] = { 0x44, 8, 5, fl, 0, 0, 0, 0 };
        memcpy(p->val, o, 8);
        memset(p->mask, 0xff, 8);
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_uint_eq(FRAME[f.off[5] + 23], fl);
        if (fl == 0) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        } else {
            expect_dropped_at_inner(0, 1u << CSC_C_IP_IN_HDR_ERRORS,
                                    "NOT_SPECIFIED (ip options: parameter problem)");
            ck_assert_int_ge(find_step("ip_rcv_options", "drop"), 0);
        }
    }
}
END_TEST

/* __ip_options_compile's record route (v6.12) in a 7-byte option: a
 * pointer within it needs room for an address (4: 4 + 3 <= 7, fine; 7:
 * 7 + 3 > 7, error, Ip InHdrErrors); 8, past it, is a full option: fine. */
START_TEST(ipv4_record_route_pointer_edges)
{
    static const struct { uint8_t ptr; bool bad; } c[] = { { 4, false }, { 7, true }, { 8, false } };
    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        struct pb_frame f;
        vxlan_inner(&f, 0, NULL, NULL);
        f.l[5].ip_opts = 8;
        struct pb_patch *p = pb_patch_add(&f, 5, PB_PATCH_SET, 20, 8);
        ck_assert_ptr_nonnull(p);
        const uint8_t o[8] = { 0x07, 7, c[k].ptr, 0, 0, 0, 0, 0 };
        memcpy(p->val, o, 8);
        memset(p->mask, 0xff, 8);
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_uint_eq(FRAME[f.off[5] + 22], c[k].ptr);
        if (!c[k].bad) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        } else {
            expect_dropped_at_inner(0, 1u << CSC_C_IP_IN_HDR_ERRORS,
                                    "NOT_SPECIFIED (ip options: parameter problem)");
        }
    }
}
END_TEST

/* A full timestamp option (pointer 9 past its 8 bytes) counts the
 * overflow in the high nibble of byte 3 (__ip_options_compile v6.12): 14
 * goes up to 15, fine; 15 would wrap: error, Ip InHdrErrors. */
START_TEST(ipv4_timestamp_overflow_counter)
{
    for (uint8_t oflw = 14; oflw <= 15; oflw++) {
        struct pb_frame f;
        vxlan_inner(&f, 0, NULL, NULL);
        f.l[5].ip_opts = 8;
        struct pb_patch *p = pb_patch_add(&f, 5, PB_PATCH_SET, 20, 8);
        ck_assert_ptr_nonnull(p);
        const uint8_t o[8] = { 0x44, 8, 9, (uint8_t)(oflw << 4), 0, 0, 0, 0 };
        memcpy(p->val, o, 8);
        memset(p->mask, 0xff, 8);
        cfg_set("none", "6.12");
        run(&f);
        ck_assert_uint_eq(FRAME[f.off[5] + 23] >> 4, oflw);
        if (oflw == 14) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
        } else {
            expect_dropped_at_inner(0, 1u << CSC_C_IP_IN_HDR_ERRORS,
                                    "NOT_SPECIFIED (ip options: parameter problem)");
        }
    }
}
END_TEST

/* An inner IPv6 layer whose first extension header is a raw one, next
 * header nh, len bytes of raw (its next header 6: TCP with a bad checksum) */
static struct pb_layer *vxlan_inner_ext(struct pb_frame *f, uint16_t nh, unsigned len)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP);
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV6)->proto = nh;
    struct pb_layer *h = pb_push(f, PB_RAW);
    memset(h->raw, 0, sizeof h->raw);
    h->raw[0] = 6;
    h->raw[1] = (uint8_t)(len / 8 - 1);
    h->len = (uint16_t)len;
    pb_push(f, PB_TCP)->csum = PB_BAD;
    pb_push(f, PB_PAYLOAD)->len = 100;
    return h;
}

/* ipv6_destopt_rcv -> ip6_parse_tlv(false, ...) (net/ipv6/exthdrs.c v6.12,
 * 6.1.192): an unknown destination option with action 00 is skipped (TCP's
 * bad checksum then drops), 01 / 10 / 11 drop at the IPv6 layer
 * (Ip6InHdrErrors, before TCP); so do a PadN with data and an option over
 * the header. Router alert (5, length 4) and CALIPSO (7) are hop-by-hop
 * only: in destination options, unknown options with action 00. A Home
 * Address option drops (no xfrm state; without MIP6 action 11). */
START_TEST(destination_options)
{
    static const struct { uint8_t o[6]; const char *reason; } t[] = {
        { { 0x1e, 4, 0, 0, 0, 0 }, NULL }, { { 5, 4, 0, 0, 0, 0 }, NULL }, { { 7, 4, 0, 0, 0, 0 }, NULL },
        { { 4, 1, 1, 1, 0, 0 }, NULL },    /* tunnel encapsulation limit, then PadN(3) */
        { { 0x5e, 4, 0, 0, 0, 0 }, "IP_INHDR" }, { { 0x9e, 4, 0, 0, 0, 0 }, "IP_INHDR" },
        { { 0xde, 4, 0, 0, 0, 0 }, "IP_INHDR" }, { { 0xc2, 4, 0, 1, 0, 0 }, "IP_INHDR" },
        { { 1, 4, 0, 1, 0, 0 }, "IP_INHDR" }, { { 1, 5, 0, 0, 0, 0 }, "IP_INHDR" },
        { { 0xc9, 4, 0, 0, 0, 0 }, "XFRM_POLICY (home address; UNHANDLED_PROTO without MIP6)" },
    };
    for (unsigned i = 0; i < sizeof t / sizeof *t; i++) {
        struct pb_frame f;
        struct pb_layer *h = vxlan_inner_ext(&f, 60, 8);
        memcpy(h->raw + 2, t[i].o, 6);
        cfg_set("none", "6.12");
        run(&f);
        if (t[i].reason) {
            expect_dropped_at_inner(1, 1u << CSC_C_IP6_IN_HDR_ERRORS, t[i].reason);
        } else {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        }
    }
}
END_TEST

/* max_dst_opts_cnt (IP6_DEFAULT_MAX_DST_OPTS_CNT 8, pads not counted): 8
 * skip options pass to TCP, a 9th drops at the IPv6 header */
START_TEST(destination_option_count_limit)
{
    for (unsigned nopt = 8; nopt <= 9; nopt++) {
        struct pb_frame f;
        struct pb_layer *h = vxlan_inner_ext(&f, 60, 24);
        unsigned o = 2;
        for (unsigned k = 0; k < nopt; k++, o += 2)
            h->raw[o] = 0x1e, h->raw[o + 1] = 0;
        h->raw[o] = 1, h->raw[o + 1] = (uint8_t)(24 - o - 2);
        cfg_set("none", "6.12");
        run(&f);
        if (nopt > 8) {
            expect_dropped_at_inner(1, 1u << CSC_C_IP6_IN_HDR_ERRORS, "IP_INHDR");
        } else {
            ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
            ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        }
    }
}
END_TEST

Suite *addr_suite(void);
Suite *addr_suite(void)
{
    Suite *s = suite_create("addr");
    TCase *t = tcase_create("addr");
    tcase_add_test(t, ipv4_martians_dropped_silently);
    tcase_add_test(t, ipv6_address_header_errors);
    tcase_add_test(t, multicast_destination_unknown_but_all_hosts);
    tcase_add_test(t, multicast_group_not_joined_dropped_when_known);
    tcase_add_test(t, outer_martian_before_udp);
    tcase_add_test(t, loopback_capture_outer_exempt_inner_not);
    tcase_add_test(t, hop_by_hop_options);
    tcase_add_test(t, hop_by_hop_option_count_limit);
    tcase_add_test(t, hop_by_hop_pad1_run_limit);
    tcase_add_test(t, destination_options);
    tcase_add_test(t, destination_option_count_limit);
    tcase_add_test(t, ipv6_first_extension_beyond_payload_length);
    tcase_add_test(t, ipv4_option_of_two_bytes_at_the_end);
    tcase_add_test(t, ipv4_timestamp_option_room_by_flag);
    tcase_add_test(t, ipv4_record_route_pointer_edges);
    tcase_add_test(t, ipv4_timestamp_overflow_counter);
    suite_add_tcase(s, t);
    return s;
}
