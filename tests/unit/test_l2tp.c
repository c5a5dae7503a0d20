/*
 * test_l2tp.c - the L2TPv3 Ethernet pseudowire's receive (core/replay/l2tp.c,
 * net/l2tp/ v6.12): l2tp_eth_dev_recv sets CHECKSUM_NONE, so whatever the
 * NIC reported every inner checksum is computed in software; the l2tpeth
 * device takes the frame through netif_rx (no GRO pass). What
 * l2tp_udp_encap_recv gives back (short, control) is queued on the tunnel's
 * UDP socket. Not modelled: a default sublayer with S (the session's
 * sequence state), L2TPv2, a control message over IP to a non-zero ID.
 * (captures/l2tpv3.pcap 1-6 agree on 5.10, 6.1, 6.12, 7.x.)
 */
#include "helpers.h"

enum { OVER_IP, OVER_UDP };

/* L2TPv3 (over IP or UDP, IPv4) / Ethernet / IPv4 / TCP (inner state) / 100 bytes */
static struct pb_frame l2tp_frame(int over, uint8_t inner_csum, int no_l2spec)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    if (over == OVER_UDP)
        pb_push(&f, PB_UDP);
    pb_push(&f, PB_L2TPV3)->l2tp_no_l2spec = (uint8_t)no_l2spec;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = inner_csum;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    return f;
}

/* The NIC vouched for every level (unnecessary:3): L2TP forgets it, the bad
 * inner TCP checksum is found by a software pass and dropped */
START_TEST(none_after_l2tp)
{
    for (int over = OVER_IP; over <= OVER_UDP; over++) {
        struct pb_frame f = l2tp_frame(over, PB_BAD, 0);
        cfg_set("unnecessary:3", "6.12");
        run(&f);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
        ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
        ck_assert_int_ge(find_step("l2tp_eth_dev_recv", "checksum-none-set"), 0);
        const struct csc_dev *d = dev_of_kind(CSC_P_L2TP);
        ck_assert_ptr_nonnull(d);
        ck_assert_int_eq(d->entry.ip_summed, 0);            /* CHECKSUM_NONE */
        ck_assert_int_eq(d->gro_ran, 0);                    /* netif_rx: no GRO pass */
        ck_assert_int_eq(d->gro_reason, CSC_G_NETIF_RX);
        ck_assert_int_ge(find_step(over == OVER_UDP ? "l2tp_udp_encap_recv" : "l2tp_ip_recv", "enter"), 0);
    }
}
END_TEST

/* A good inner frame is delivered after one software pass, with or
 * without the L2-specific sublayer */
START_TEST(good_delivered)
{
    for (int nosub = 0; nosub < 2; nosub++) {
        struct pb_frame f = l2tp_frame(OVER_UDP, PB_OK, nosub);
        cfg_set("unnecessary:1", "6.12");
        CFG.l2tp_l2spec_len = nosub ? 0 : 4;
        run(&f);
        if (R.kernel.verdict != CSC_K_ACCEPT)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
        ck_assert_uint_eq(R.kernel.counters, 0);
        ASSERT_PASSES(1);
        ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_SW_PASS, CSC_PATH_NORMAL);
    }
}
END_TEST

/* The default sublayer with S: l2tp_recv_data_seq decides by the session's
 * sequence state - unknown, never accept */
START_TEST(sequence_unknown)
{
    struct pb_frame f = l2tp_frame(OVER_IP, PB_OK, 0);
    struct pb_patch *p = pb_patch_add(&f, 2, PB_PATCH_SET, 4, 1);   /* the sublayer's first byte */
    ck_assert_ptr_nonnull(p);
    p->mask[0] = 0x40;
    p->val[0] = 0x40;
    cfg_set("none", "6.12");
    CFG.l2tp_l2spec_len = 4;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_int_ge(find_step("l2tp_recv_common", "not-modelled"), 0);
}
END_TEST

/* The L2-specific sublayer guess (no --l2tp-l2spec) at the 802.3 length
 * edges: after the session ID comes a frame whose first byte has reserved
 * sublayer bits (0x02: no sublayer reading) and whose type field is an
 * 802.3 length when it is from LLC_MIN_LEN (3: DSAP, SSAP, control) to
 * 0x05ff, an EtherType from 0x0600 (IEEE 802.3 3.2.6; eth_type_trans's
 * eth_proto_is_802_3). A length of 3 with its LLC bytes makes the bare
 * reading a frame; 0x0600, an unknown EtherType, makes neither reading one:
 * the decoder stops and asks for the sublayer option. */
START_TEST(l2spec_guess_llc_length_edges)
{
    static const uint8_t eth[12] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2 };
    for (int edge = 0; edge < 2; edge++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_L2TPV3)->l2tp_no_l2spec = 1;
        struct pb_layer *r = pb_push(&f, PB_RAW);
        memcpy(r->raw, eth, 12);
        if (edge == 0) {
            memcpy(r->raw + 12, "\x00\x03\x42\x42\x03", 5);     /* length 3: STP's LLC */
            r->len = 17;
        } else {
            memcpy(r->raw + 12, "\x06\x00", 2);                 /* 0x0600 */
            r->len = 14;
            pb_push(&f, PB_PAYLOAD)->len = 0x0600;
        }
        cfg_set("none", "6.12");
        run(&f);
        int l = lay(CSC_P_L2TP, 0);
        if (edge == 0) {
            if (R.stop == CSC_STOP_NEEDS_OPTION)
                dump_result();
            ck_assert_int_ne(R.stop, CSC_STOP_NEEDS_OPTION);
            ck_assert_int_gt(R.nlayers, l + 1);
            ck_assert_int_eq(R.layers[l + 1].proto, CSC_P_ETH);
            ck_assert_uint_eq(R.layers[l + 1].off, f.off[3]);   /* no sublayer */
        } else {
            if (R.stop != CSC_STOP_NEEDS_OPTION)
                dump_result();
            ck_assert_int_eq(R.stop, CSC_STOP_NEEDS_OPTION);
            ck_assert_int_eq(R.stop_opt, CSC_SO_L2TP_L2SPEC);
            ck_assert_int_eq(R.nlayers, l + 1);
        }
    }
}
END_TEST

/* The guess weighs its readings: ARP (plausible 2) bare beats an 802.3
 * length read 4 bytes on (LLC: 1), so the frame has no sublayer; the same
 * bytes one sublayer later (an LLC frame bare, ARP behind 4 bytes) have
 * one. Reserved sublayer bits clear (first byte 0x00) so both readings
 * count. */
static void l2tp_over(const uint8_t *eth, unsigned len)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_L2TPV3)->l2tp_no_l2spec = 1;
    struct pb_layer *r = pb_push(&f, PB_RAW);
    memcpy(r->raw, eth, len);
    r->len = (uint16_t)len;
    pb_push(&f, PB_PAYLOAD)->len = 40;
    cfg_set("none", "6.12");
    run(&f);
}

START_TEST(l2spec_guess_arp_over_llc)
{
    /* bare: MACs, 0x0806; 4 bytes on: the type field reads 0x0010 (16) */
    static const uint8_t arp[18] = { 0, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x06,
                                     0, 1, 0x00, 0x10 };
    /* bare: an 802.3 length 0x0010; 4 bytes on: 0x0806 */
    static const uint8_t llc[18] = { 0, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x00, 0x10,
                                     0, 0, 0x08, 0x06 };
    for (int k = 0; k < 2; k++) {
        l2tp_over(k ? llc : arp, 18);
        int l = lay(CSC_P_L2TP, 0);
        ck_assert_int_eq(R.stop, CSC_STOP_END);
        ck_assert_int_gt(R.nlayers, l + 1);
        ck_assert_int_eq(R.layers[l + 1].proto, CSC_P_ETH);
        /* 14 + 20 + the 4-byte session ID, and the sublayer's 4 when guessed */
        ck_assert_uint_eq(R.layers[l + 1].off, k ? 42u : 38u);
        ck_assert_uint_eq(R.layers[l].hdr_len, k ? 8u : 4u);
    }
}
END_TEST

/* IP outranks ARP: bare, the frame is IPv4 (0x0800, 0x45); behind a
 * sublayer (its first byte 0: allowed) the type would read ARP - bare wins
 * (a tie would go to the sublayer, the RFC's default). */
START_TEST(l2spec_guess_ip_outranks_arp)
{
    static const uint8_t eth[18] = { 0x00, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00,
                                     0x45, 0x00, 0x08, 0x06 };
    l2tp_over(eth, 18);
    int l = lay(CSC_P_L2TP, 0);
    ck_assert_int_gt(R.nlayers, l + 1);
    ck_assert_uint_eq(R.layers[l].hdr_len, 4);
    ck_assert_int_eq(R.layers[l + 1].proto, CSC_P_ETH);
    ck_assert_uint_eq(R.layers[l + 1].off, 38);
}
END_TEST

/* eth_plausible skips up to two VLAN tags (802.1Q, 802.1ad) to the type
 * that tells: a tagged IPv4 frame, once or twice, read bare is a frame;
 * behind a sublayer its first byte (0x02, a reserved bit) is not. */
START_TEST(l2spec_guess_reads_past_vlan_tags)
{
    static const uint8_t one[22] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x81, 0x00, 0, 5,
                                     0x08, 0x00, 0x45, 0, 0, 40 };
    static const uint8_t two[26] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x88, 0xa8, 0, 5,
                                     0x81, 0x00, 0, 6, 0x08, 0x00, 0x45, 0, 0, 40 };
    for (int k = 0; k < 2; k++) {
        l2tp_over(k ? two : one, k ? 26 : 22);
        int l = lay(CSC_P_L2TP, 0);
        if (R.nlayers <= l + 1)
            dump_result();
        ck_assert_int_gt(R.nlayers, l + 1);
        ck_assert_uint_eq(R.layers[l].hdr_len, 4);           /* the session ID alone: no sublayer */
        ck_assert_int_eq(R.layers[l + 1].proto, CSC_P_ETH);
        ck_assert_uint_eq(R.layers[l + 1].off, 38);
    }
    /* a third tag is one too many: neither reading is a frame */
    static const uint8_t three[30] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x88, 0xa8, 0, 5,
                                       0x81, 0x00, 0, 6, 0x81, 0x00, 0, 7, 0x08, 0x00, 0x45, 0, 0, 40 };
    l2tp_over(three, 30);
    int l = lay(CSC_P_L2TP, 0);
    ck_assert_int_eq(R.nlayers, l + 1);
    ck_assert_int_ne(R.stop, CSC_STOP_END);
}
END_TEST

/* Nothing after the session ID: neither reading has a byte to go by, so
 * there is no sublayer to guess (the header is the session ID alone) */
START_TEST(l2spec_guess_nothing_after_the_session)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_L2TPV3)->l2tp_no_l2spec = 1;
    cfg_set("none", "6.12");
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    ck_assert_int_eq(R.nlayers, 3);
    ck_assert_int_eq(R.layers[2].proto, CSC_P_L2TP);
    ck_assert_uint_eq(R.layers[2].hdr_len, 4);
}
END_TEST

/* A cookie the configuration lacks, with the default sublayer after it:
 * neither reading at the session header's end is a frame, but 8 bytes on
 * the sublayer reading finds Ethernet / IPv4 (plausible 3): the decoder
 * asks for --l2tp-cookie-len 8 */
START_TEST(cookie_found_behind_the_sublayer)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_L2TPV3)->l2tp_cookie = 8;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    cfg_set("none", "6.12");
    run(&f);
    if (R.stop != CSC_STOP_NEEDS_OPTION)
        dump_result();
    ck_assert_int_eq(R.stop, CSC_STOP_NEEDS_OPTION);
    ck_assert_int_eq(R.stop_opt, CSC_SO_L2TP_COOKIE);
    ck_assert_uint_eq(R.stop_value, 8);
    CFG.l2tp_cookie_len = 8;                        /* told: the sublayer is guessed */
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    ck_assert_int_eq(R.layers[lay(CSC_P_L2TP, 0)].hdr_len, 16);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_GOOD);
}
END_TEST

/* Headers cut short with every outer length right (the kfuzz cases of
 * docs/kernel-branches.md l2tp-5 and l2tp-10 agree on 5.10, 6.1, 6.12,
 * 7.2): l2tp_ip_recv's pull of the session ID and
 * l2tp_v3_ensure_opt_in_linear's of the sublayer discard the packet, and
 * l2tp_eth_dev_recv's pskb_may_pull(ETH_HLEN) frees it - no counter, over
 * IPv4 and IPv6 alike (v6.12). Over UDP a short L2TP header goes back to
 * the socket (l2tp_udp_encap_recv: l2tp_udp_short_back_to_socket). */
START_TEST(short_headers_dropped_silently)
{
    /* what follows the session ID: 0 the sublayer's first 2 bytes only,
     * 1 the whole sublayer then 10 bytes of Ethernet, 2 the sublayer and
     * nothing after it */
    for (int v6 = 0; v6 < 2; v6++)
        for (int cut = 0; cut < 3; cut++) {
            struct pb_frame f;
            pb_init(&f);
            f.no_pad = 1;
            pb_push(&f, PB_ETH);
            pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
            pb_push(&f, PB_L2TPV3)->l2tp_no_l2spec = cut == 0;
            if (cut < 2) {
                struct pb_layer *r = pb_push(&f, PB_RAW);
                memset(r->raw, 0, sizeof r->raw);
                r->len = cut == 0 ? 2 : 10;
            }
            cfg_set("none", "6.12");
            CFG.l2tp_l2spec_len = 4;
            run(&f);
            if (R.kernel.verdict != CSC_K_DROP || R.kernel.counters)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_uint_eq(R.kernel.counters, 0);
            if (cut == 0) {
                ck_assert_int_eq(R.kernel.drop_layer, 1);   /* the IP layer's handler */
                ck_assert_int_ge(find_step(v6 ? "l2tp_ip6_recv" : "l2tp_ip_recv", "drop"), 0);
            } else {
                ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_L2TP, 0));
                ck_assert_int_ge(find_step("l2tp_eth_dev_recv", "drop"), 0);
            }
        }
    /* over UDP the sublayer cut short: back to the tunnel's socket */
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_L2TPV3)->l2tp_no_l2spec = 1;
    struct pb_layer *r = pb_push(&f, PB_RAW);
    memset(r->raw, 0, sizeof r->raw);
    r->len = 2;
    cfg_set("none", "6.12");
    CFG.l2tp_l2spec_len = 4;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_ge(find_step("udp_queue_rcv_one_skb", "deliver"), 0);
}
END_TEST

/* IPv4 or IPv6 / UDP 1701 / `n` bytes: an L2TPv3 data header (flags 0x0003,
 * session 1, the default sublayer) then zeros, or the first n of them (past
 * 32, a payload after them) */
static void l2tp_udp_bytes(int v6, unsigned n, uint16_t flags, uint8_t udp_csum)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
    struct pb_layer *u = pb_push(&f, PB_UDP);
    u->dport = 1701;
    u->csum = udp_csum;
    struct pb_layer *r = pb_push(&f, PB_RAW);
    memset(r->raw, 0, sizeof r->raw);
    r->raw[0] = (uint8_t)(flags >> 8);
    r->raw[1] = (uint8_t)flags;
    r->raw[7] = 1;                                  /* session ID 1 */
    r->len = (uint16_t)(n < sizeof r->raw ? n : sizeof r->raw);
    if (n > sizeof r->raw)
        pb_push(&f, PB_PAYLOAD)->len = (uint16_t)(n - sizeof r->raw);
    cfg_set("none", "6.12");
    CFG.l2tp_l2spec_len = 4;
    run(&f);
}

/* l2tp_udp_encap_recv (v6.12; l2tp_udp_recv_core in 6.1 and 5.10): fewer
 * than L2TP_HDR_SIZE_MAX (14) bytes after UDP are passed back, and
 * udp_queue_rcv_one_skb queues them on the tunnel's socket - accepted, no
 * counter (kfuzz: l2tp-udp tun.short=6, l2tp-udp6 tun.short=13 agree on
 * 5.10, 6.1, 6.12, 7.2). The decoder names a header the payload ends in:
 * malformed in l2tp, its value the bytes there. 14 bytes are L2TP to the
 * kernel: the 12-byte header, then 2 bytes l2tp_eth_dev_recv frees. */
START_TEST(l2tp_udp_short_back_to_socket)
{
    static const unsigned lens[] = { 1, 6, 11, 13 };
    for (int v6 = 0; v6 < 2; v6++)
        for (unsigned k = 0; k < sizeof lens / sizeof lens[0]; k++) {
            l2tp_udp_bytes(v6, lens[k], 0x0003, PB_OK);
            if (R.kernel.verdict != CSC_K_ACCEPT)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
            ck_assert_uint_eq(R.kernel.counters, 0);
            ck_assert_int_ge(find_step("l2tp_udp_encap_recv", "short-packet"), 0);
            ck_assert_int_ge(find_step("udp_queue_rcv_one_skb", "deliver"), 0);
            if (lens[k] < 12) {                     /* the header itself is cut: a named stop */
                ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
                ck_assert_int_eq(R.stop_proto, CSC_P_L2TP);
                ck_assert_int_eq(R.stop_has_value, 1);
                ck_assert_uint_eq(R.stop_value, lens[k]);
            } else {
                ck_assert_int_ge(lay(CSC_P_L2TP, 0), 0);
            }
        }
    l2tp_udp_bytes(0, 14, 0x0003, PB_OK);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_L2TP, 0));
    ck_assert_int_ge(find_step("l2tp_eth_dev_recv", "drop"), 0);
    /* the checksum is verified before encap_rcv: a bad one is UDP's error */
    l2tp_udp_bytes(0, 6, 0x0003, PB_BAD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
}
END_TEST

/* A control message over UDP (T): "handled by userspace", back to the
 * socket - whatever follows, with a bad UDP checksum UDP's error first */
START_TEST(l2tp_udp_control_back_to_socket)
{
    for (int v6 = 0; v6 < 2; v6++) {
        l2tp_udp_bytes(v6, 32, 0xc803, PB_OK);
        if (R.kernel.verdict != CSC_K_ACCEPT)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
        ck_assert_uint_eq(R.kernel.counters, 0);
        ck_assert_int_ge(find_step("l2tp_udp_encap_recv", "control-message"), 0);
        ck_assert_int_ge(find_step("udp_queue_rcv_one_skb", "deliver"), 0);
    }
    l2tp_udp_bytes(0, 100, 0x8003, PB_BAD);  /* past CHECKSUM_BREAK: deferred to encap_rcv */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
    ck_assert_int_ge(find_step("udp_queue_rcv_one_skb", "drop"), 0);
}
END_TEST

/* Over IP, session ID 0: l2tp_ip_recv / l2tp_ip6_recv's pass_up (v6.12 =
 * 6.1.192 = 7.2) - fewer than 12 bytes after the ID, T and L not both set,
 * or control connection ID 0 (no daemon's socket on the stock receiver) are
 * freed with no counter; another ID is the unmanaged tunnel's socket or
 * none: unknown */
START_TEST(l2tp_ip_control_message)
{
    static const struct { uint8_t b0; uint8_t ccid; unsigned len; int verdict; const char *what; } c[] = {
        { 0xc8, 0, 16, CSC_K_DROP, "no-socket" },
        { 0x00, 0, 16, CSC_K_DROP, "invalid-header" },
        { 0x80, 0, 16, CSC_K_DROP, "invalid-header" },
        { 0xc8, 0, 15, CSC_K_DROP, "short-packet" },
        { 0xc8, 7, 16, CSC_K_UNKNOWN, "not-modelled" },
    };
    for (int v6 = 0; v6 < 2; v6++)
        for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
            struct pb_frame f;
            pb_init(&f);
            f.no_pad = 1;
            pb_push(&f, PB_ETH);
            pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
            struct pb_layer *r = pb_push(&f, PB_RAW);
            memset(r->raw, 0, sizeof r->raw);
            r->raw[4] = c[k].b0;
            r->raw[5] = 0x03;
            r->raw[11] = c[k].ccid;
            r->len = (uint16_t)c[k].len;
            f.l[1].proto = 115;                     /* IPPROTO_L2TP */
            cfg_set("none", "6.12");
            run(&f);
            if (R.kernel.verdict != c[k].verdict)
                dump_result();
            ck_assert_int_eq(R.kernel.verdict, c[k].verdict);
            ck_assert_uint_eq(R.kernel.counters, 0);
            ck_assert_int_ge(find_step(v6 ? "l2tp_ip6_recv" : "l2tp_ip_recv", c[k].what), 0);
        }
}
END_TEST

Suite *l2tp_suite(void);
Suite *l2tp_suite(void)
{
    Suite *s = suite_create("l2tp");
    TCase *tc = tcase_create("l2tp_eth");
    tcase_add_test(tc, none_after_l2tp);
    tcase_add_test(tc, good_delivered);
    tcase_add_test(tc, sequence_unknown);
    tcase_add_test(tc, l2spec_guess_llc_length_edges);
    tcase_add_test(tc, cookie_found_behind_the_sublayer);
    tcase_add_test(tc, l2spec_guess_nothing_after_the_session);
    tcase_add_test(tc, l2spec_guess_arp_over_llc);
    tcase_add_test(tc, l2spec_guess_reads_past_vlan_tags);
    tcase_add_test(tc, l2spec_guess_ip_outranks_arp);
    tcase_add_test(tc, short_headers_dropped_silently);
    tcase_add_test(tc, l2tp_udp_short_back_to_socket);
    tcase_add_test(tc, l2tp_udp_control_back_to_socket);
    tcase_add_test(tc, l2tp_ip_control_message);
    suite_add_tcase(s, tc);
    return s;
}
