/*
 * test_protos.c - the protocol table (core/proto/protos.c) and the protocols
 * added through it alone: GRE-in-UDP (RFC 8086, core/proto/gre_udp.c) and
 * AMT (RFC 7450, core/proto/amt.c).
 */
#include "helpers.h"
#include "proto/wire.h"

/* Every row has a name, names are the JSON vocabulary (unique); a default
 * port, a CLI option and a plugin preference belong to one row only. */
START_TEST(rows_are_unique)
{
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        const struct csc_proto_desc *a = csc_proto_desc(p);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(a->name);
        ck_assert_str_eq(csc_proto_name(p), a->name);
        ck_assert_msg(!a->option == !a->pref, "%s: option and preference go together", a->name);
        for (unsigned q = p + 1; q < CSC_P__COUNT; q++) {
            const struct csc_proto_desc *b = csc_proto_desc(q);
            ck_assert_str_ne(a->name, b->name);
            if (a->option && b->option) {
                ck_assert_str_ne(a->option, b->option);
                ck_assert_str_ne(a->pref, b->pref);
            }
            for (unsigned i = 0; i < CSC_PROTO_PORTS && a->ports[i]; i++)
                for (unsigned k = 0; k < CSC_PROTO_PORTS && b->ports[k]; k++)
                    ck_assert_uint_ne(a->ports[i], b->ports[k]);
        }
    }
    ck_assert_str_eq(csc_proto_desc(CSC_P__COUNT)->name, "none");   /* out of range */
}
END_TEST

/* [eth] IPv4 or IPv6 / UDP 4754 / GRE (K) / IPv4 / TCP */
static void gre_udp(struct pb_frame *f, bool v6, enum pb_state outer)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, v6 ? PB_IPV6 : PB_IPV4);
    struct pb_layer *u = pb_push(f, PB_UDP);
    u->dport = 4754;
    u->csum = outer;
    struct pb_layer *g = pb_push(f, PB_GRE);
    g->gre_flags = GRE_K;
    g->key = 42;
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP);
    pb_push(f, PB_PAYLOAD)->len = 100;
}

START_TEST(gre_in_udp_decoded_on_4754)
{
    struct pb_frame f;
    for (int v6 = 0; v6 <= 1; v6++) {
        gre_udp(&f, v6, PB_OK);
        cfg_set("none", "modern");
        run(&f);
        ck_assert_int_eq(R.nlayers, 7);
        ck_assert_int_eq(R.layers[3].proto, CSC_P_GRE_UDP);
        ck_assert_int_eq(R.layers[3].hdr_len, 0);          /* no header of its own */
        ck_assert_int_eq(R.layers[4].proto, CSC_P_GRE);
        ck_assert_uint_eq(R.layers[4].u.gre.key, 42);
        ck_assert_int_eq(R.layers[6].proto, CSC_P_TCP);
        ck_assert_int_eq(R.layers[6].verdict, CSC_V_GOOD);
        ck_assert(csc_proto_is_tunnel(CSC_P_GRE_UDP));
        csc_config_clear_ports(&CFG, CSC_P_GRE_UDP);        /* --no-default-ports */
        run(&f);
        ck_assert_int_eq(R.nlayers, 3);
    }
}
END_TEST

/* Linux has no GRE-in-UDP socket: without a FOU port, __udp4_lib_rcv /
 * __udp6_lib_rcv find no socket on 4754 (UdpNoPorts / Udp6NoPorts), after
 * the checksum (a bad one is InCsumErrors first). */
START_TEST(gre_in_udp_unbound_port)
{
    struct pb_frame f;
    for (int v6 = 0; v6 <= 1; v6++) {
        gre_udp(&f, v6, PB_OK);
        cfg_set("none", "modern");
        run(&f);
        int u = lay(CSC_P_UDP, 0);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, u);
        ck_assert(has_counter(v6 ? CSC_C_UDP6_NO_PORTS : CSC_C_UDP_NO_PORTS));
        ck_assert_int_ge(find_step(v6 ? "__udp6_lib_rcv" : "__udp4_lib_rcv", "no-socket"), 0);
        ck_assert_int_eq(find_step("gre_rcv", "enter"), -1);

        gre_udp(&f, v6, PB_BAD);
        run(&f);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert(has_counter(v6 ? CSC_C_UDP6_IN_CSUM_ERRORS : CSC_C_UDP_IN_CSUM_ERRORS));
        ck_assert(!has_counter(v6 ? CSC_C_UDP6_NO_PORTS : CSC_C_UDP_NO_PORTS));
    }
}
END_TEST

/* ip fou add port 4754 ipproto 47 (--fou-port 4754:47): the port is FOU,
 * fou_udp_recv resubmits the payload as IP protocol 47 to gre_rcv. */
START_TEST(gre_in_udp_as_fou)
{
    struct pb_frame f;
    for (int v6 = 0; v6 <= 1; v6++) {
        gre_udp(&f, v6, PB_OK);
        cfg_set("none", "modern");
        ck_assert(csc_config_set_port(&CFG, 4754, CSC_P_FOU, IPPROTO_GRE_));
        run(&f);
        ck_assert_int_eq(R.layers[3].proto, CSC_P_FOU);
        ck_assert_int_eq(R.layers[4].proto, CSC_P_GRE);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
        ck_assert_int_ge(find_step("fou_udp_recv", "enter"), 0);
        ck_assert_int_ge(find_step("gre_rcv", "enter"), 0);
        ck_assert_uint_eq(R.kernel.counters, 0);
    }
}
END_TEST

/* [eth] IPv4 or IPv6 / UDP 2268 / AMT Multicast Data / IPv4 / UDP */
static void amt_data(struct pb_frame *f, bool v6, enum pb_state outer)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, v6 ? PB_IPV6 : PB_IPV4);
    struct pb_layer *u = pb_push(f, PB_UDP);
    u->dport = 2268;
    u->csum = outer;
    struct pb_layer *a = pb_push(f, PB_RAW);
    memcpy(a->raw, "\x06\x00", 2);
    a->len = 2;
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP);
    pb_push(f, PB_PAYLOAD)->len = 64;
}

START_TEST(amt_decoded_on_2268)
{
    struct pb_frame f;
    amt_data(&f, false, PB_OK);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.nlayers, 6);
    ck_assert_int_eq(R.layers[3].proto, CSC_P_AMT);
    ck_assert_int_eq(R.layers[4].proto, CSC_P_IPV4);
    ck_assert_int_eq(R.layers[5].verdict, CSC_V_GOOD);
    ck_assert(csc_proto_is_tunnel(CSC_P_AMT));
    ck_assert_str_eq(csc_proto_desc(CSC_P_AMT)->option, "amt-port");
    ck_assert_uint_eq(csc_proto_desc(CSC_P_AMT)->ports[0], 2268);
    csc_config_clear_ports(&CFG, CSC_P_AMT);            /* --no-default-ports */
    run(&f);
    ck_assert_int_eq(R.nlayers, 3);
}
END_TEST

/* amt_rcv (drivers/net/amt.c v6.12) takes a data message only in gateway
 * mode, from the relay it discovered, after its request was answered
 * (amt_multicast_data_handler: AMT_STATUS_SENT_UPDATE): state no capture
 * holds. The socket completes the checksum first (udp_queue_rcv_one_skb),
 * then the replay says not modelled: unknown, never accept. No gro_receive
 * on the socket: GRO at the NIC ends not-tunnel. */
START_TEST(amt_rcv_not_modelled)
{
    struct pb_frame f;
    amt_data(&f, false, PB_OK);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_uint_eq(R.kernel.warnings & CSC_W_NOT_MODELLED, CSC_W_NOT_MODELLED);
    ck_assert_int_ge(find_step("udp_queue_rcv_one_skb", "not-modelled"), 0);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NOT_TUNNEL);

    amt_data(&f, false, PB_BAD);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 2);
    ck_assert(has_counter(CSC_C_UDP_IN_CSUM_ERRORS));
    ck_assert_uint_eq(R.kernel.warnings & CSC_W_NOT_MODELLED, 0);
}
END_TEST

/* amt_create_sock opens an AF_INET socket only: over IPv6 __udp6_lib_rcv
 * finds none on 2268 (Udp6NoPorts, after the checksum) */
START_TEST(amt_over_ipv6_no_socket)
{
    struct pb_frame f;
    amt_data(&f, true, PB_OK);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.layers[3].proto, CSC_P_AMT);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 2);
    ck_assert(has_counter(CSC_C_UDP6_NO_PORTS));
    ck_assert_int_ge(find_step("__udp6_lib_rcv", "no-socket"), 0);

    amt_data(&f, true, PB_BAD);
    run(&f);
    ck_assert(has_counter(CSC_C_UDP6_IN_CSUM_ERRORS));
    ck_assert(!has_counter(CSC_C_UDP6_NO_PORTS));
}
END_TEST

/* ERSPAN (issue 16): type I (0x88be, GRE header of 4 bytes, a marker
 * layer), II (0x88be with S, 8 bytes) down to the mirrored frame; the
 * replay's erspan_rcv: no GRO at the NIC (gre_gro_receive: no handler /
 * S flushes), the erspan device's gro_cells pass, and a unicast mirrored
 * frame dropped as PACKET_OTHERHOST at ip_rcv_core; multicast accepted. */
static void erspan_frame(int type2, int gre_c_bad, int v6)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = ETH_P_ERSPAN;
    g->gre_flags = (uint16_t)((type2 ? GRE_S : 0) | (gre_c_bad ? GRE_C : 0));
    if (gre_c_bad)
        g->csum = PB_BAD;
    if (type2) {
        struct pb_layer *e = pb_push(&f, PB_RAW);
        memcpy(e->raw, "\x10\x64\x00\x07\x00\x00\x00\x01", 8);   /* ver 1, session 100 */
        e->len = 8;
    }
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 40;
    run(&f);
}

START_TEST(erspan_types_and_rcv)
{
    cfg_set("none", "modern");
    for (int type2 = 0; type2 < 2; type2++) {
        erspan_frame(type2, 0, 0);
        int e = lay(CSC_P_ERSPAN, 0);
        ck_assert_int_eq(e, 3);
        ck_assert_int_eq(R.layers[e].u.erspan.version, type2 ? 1 : 0);
        ck_assert_uint_eq(R.layers[e].hdr_len, type2 ? 8 : 0);
        ck_assert_int_eq(R.layers[e + 1].proto, CSC_P_ETH);
        ck_assert_int_eq(lay(CSC_P_UDP, 0), 6);
        ck_assert_int_eq(R.kernel.devs[0].gro_reason, type2 ? CSC_G_GRE_FLAGS : CSC_G_NO_HANDLER);
        ck_assert_int_eq(R.kernel.ndevs, 2);
        ck_assert_int_eq(R.kernel.devs[1].kind, CSC_P_ERSPAN);
        ck_assert_int_ge(find_step("erspan_rcv", "enter"), 0);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, 5);                     /* the mirrored IPv4 */
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "OTHERHOST");
        ck_assert_uint_eq(R.kernel.counters, 0);
        /* the same frame to a multicast MAC goes up */
        FRAME[R.layers[e + 1].off] |= 1;
        run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
        ck_assert_int_eq(R.layers[6].k.ok, CSC_TRI_YES);
    }
    /* a bad GRE checksum: gre_parse_header drops it before erspan_rcv */
    erspan_frame(0, 1, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 2);
    ck_assert_int_lt(find_step("erspan_rcv", "enter"), 0);
    /* over IPv6: ip6erspan_rcv, the same device kind; its gro_cells from v4.7
     * (ip6_tnl_rcv, era switch IP6_TNL_GRO) - before, netif_rx. __ip6_tnl_rcv
     * scrubs after eth_type_trans: PACKET_HOST whatever the MAC (KF8) */
    erspan_frame(1, 0, 1);
    ck_assert_int_eq(lay(CSC_P_ERSPAN, 0), 3);
    ck_assert_int_ge(find_step("ip6erspan_rcv", "enter"), 0);
    ck_assert_int_eq(R.kernel.devs[1].kind, CSC_P_ERSPAN);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_ne(R.kernel.devs[1].gro_reason, CSC_G_NETIF_RX);
    cfg_set("none", "4.6");
    erspan_frame(1, 0, 1);
    ck_assert_int_eq(R.kernel.devs[1].gro_reason, CSC_G_NETIF_RX);
    cfg_set("none", "modern");
}
END_TEST

/* NHRP over GRE (0x2001): its own checksum over the whole NHRP packet, and a
 * traffic indication's quoted packet judged as an ICMP error's quote; the
 * kernel hands it to the gre device and checks nothing in it. */
START_TEST(nhrp_traffic_indication)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = ETH_P_NHRP;
    g->gre_flags = GRE_K;
    struct pb_layer *h = pb_push(&f, PB_RAW);      /* fixed header: IPv4, type 8, shtl 4 */
    memcpy(h->raw, "\x00\x01\x08\x00\x00\x00\x00\x00\x00\xff\x00\x00\x00\x00\x00\x00"
                   "\x01\x08\x04\x00", 20);
    h->len = 20;
    struct pb_layer *m = pb_push(&f, PB_RAW);      /* spl 4, tpl 4, code, 3 addresses */
    memcpy(m->raw, "\x04\x04\x00\x00\x00\x00\x00\x00\xc0\xa8\xc8\x01\x0a\xff\xff\x01"
                   "\x0a\xff\xff\x03", 20);
    m->len = 20;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_ICMP);
    pb_push(&f, PB_PAYLOAD)->len = 8;
    run(&f);
    size_t at = 14 + 20 + 8, len = FRAME_LEN - at;
    FRAME[at + 10] = (uint8_t)(len >> 8), FRAME[at + 11] = (uint8_t)len;   /* ar$pktsz */
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i += 2)
        sum += (uint32_t)(FRAME[at + i] << 8 | (i + 1 < len ? FRAME[at + i + 1] : 0));
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    FRAME[at + 12] = (uint8_t)(~sum >> 8), FRAME[at + 13] = (uint8_t)~sum;   /* ar$chksum */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    int n = lay(CSC_P_NHRP, 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(R.layers[n].verdict, CSC_V_GOOD);
    ck_assert_uint_eq(R.layers[n].cov_end - R.layers[n].cov_off, len);
    ck_assert_int_eq(R.layers[4].proto, CSC_P_IPV4);
    ck_assert(R.layers[4].notes & CSC_N_QUOTED);
    ck_assert_uint_eq(R.layers[4].off, at + 40);
    ck_assert_int_eq(R.layers[4].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.layers[5].proto, CSC_P_ICMP);
    ck_assert_int_eq(R.layers[5].verdict, CSC_V_GOOD);       /* quoted whole */
    /* no NHRP daemon's packet socket on the gre device: no handler for
     * 0x2001 in __netif_receive_skb_core (v6.12): rx_dropped (issue 28, 13) */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "UNHANDLED_PROTO");
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_DEV_RX_DROPPED);
    ck_assert_int_eq(R.kernel.drop_layer, 2);                /* the gre layer */
    ck_assert_int_eq(R.layers[n].k.method, CSC_M_UNCHECKED);
    ck_assert_str_eq(csc_proto_name(CSC_P_NHRP), "nhrp");
    FRAME[at + 30] ^= 0xff;                                  /* an address byte */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[n].verdict, CSC_V_BAD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);          /* a daemon's business */
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_DEV_RX_DROPPED);
    /* a packet length beyond the GRE payload: malformed */
    FRAME[at + 10] = 0x7f;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert(R.layers[n].notes & CSC_N_LEN_EXCEEDS);
}
END_TEST

/* A traffic indication whose source and target protocol addresses differ
 * in length (spl 4, tpl 0): the quoted packet starts after both, each
 * counted by its own length field */
START_TEST(nhrp_quote_after_unequal_addresses)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = ETH_P_NHRP;
    g->gre_flags = GRE_K;
    struct pb_layer *h = pb_push(&f, PB_RAW);      /* fixed header: IPv4, type 8, shtl 4 */
    memcpy(h->raw, "\x00\x01\x08\x00\x00\x00\x00\x00\x00\xff\x00\x00\x00\x00\x00\x00"
                   "\x01\x08\x04\x00", 20);
    h->len = 20;
    struct pb_layer *m = pb_push(&f, PB_RAW);      /* spl 4, tpl 0, code, 2 addresses */
    memcpy(m->raw, "\x04\x00\x00\x00\x00\x00\x00\x00\xc0\xa8\xc8\x01\x0a\xff\xff\x01", 16);
    m->len = 16;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_ICMP);
    pb_push(&f, PB_PAYLOAD)->len = 8;
    run(&f);
    size_t at = 14 + 20 + 8, len = FRAME_LEN - at;
    FRAME[at + 10] = (uint8_t)(len >> 8), FRAME[at + 11] = (uint8_t)len;   /* ar$pktsz */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(lay(CSC_P_NHRP, 0), 3);
    ck_assert_int_eq(R.layers[4].proto, CSC_P_IPV4);
    ck_assert(R.layers[4].notes & CSC_N_QUOTED);
    ck_assert_uint_eq(R.layers[4].off, at + 36);
    ck_assert_int_eq(R.layers[4].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.layers[5].proto, CSC_P_ICMP);
}
END_TEST

/* NHRP at its minimum: ar$pktsz 20, the fixed header alone (RFC 2332
 * 5.2.0.1 as the decoder's floor): a whole packet, its checksum judged over
 * those 20 bytes, no malformed stop */
START_TEST(nhrp_fixed_header_only)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = ETH_P_NHRP;
    g->gre_flags = GRE_K;
    struct pb_layer *h = pb_push(&f, PB_RAW);      /* resolution request (type 1), pktsz 20 */
    memcpy(h->raw, "\x00\x01\x08\x00\x00\x00\x00\x00\x00\xff\x00\x14\x00\x00\x00\x00"
                   "\x01\x01\x04\x00", 20);
    h->len = 20;
    run(&f);
    size_t at = 14 + 20 + 8;
    ck_assert_uint_eq(FRAME_LEN, at + 20);
    uint32_t sum = 0;
    for (size_t i = 0; i < 20; i += 2)
        sum += (uint32_t)(FRAME[at + i] << 8 | FRAME[at + i + 1]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    FRAME[at + 12] = (uint8_t)(~sum >> 8), FRAME[at + 13] = (uint8_t)~sum;   /* ar$chksum */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    int n = lay(CSC_P_NHRP, 0);
    if (R.stop == CSC_STOP_MALFORMED) dump_result();
    ck_assert_msg(R.stop != CSC_STOP_MALFORMED, "stop %s", csc_stop_name(R.stop));
    ck_assert_int_eq(R.layers[n].verdict, CSC_V_GOOD);
    ck_assert_uint_eq(R.layers[n].cov_end - R.layers[n].cov_off, 20);
    ck_assert_uint_eq(R.layers[n].notes & (CSC_N_LEN_SHORT | CSC_N_LEN_EXCEEDS), 0);
    FRAME[at + 11] = 19;                             /* one short of the header: malformed */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert(R.layers[n].notes & CSC_N_LEN_SHORT);
}
END_TEST

/* gro-2: the gre device's gro_cells pass for NHRP (skb->protocol 0x2001):
 * dev_gro_receive (net/core/gro.c, v6.12) finds no packet_offload with a
 * gro_receive for it - GRO_NORMAL, no checksum work, no counter - then
 * __netif_receive_skb_core no packet handler (rx_dropped). The replay goes
 * through gro.c:gro_l3 there: a flush at the NHRP layer. */
START_TEST(nhrp_gre_device_gro_pass)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = ETH_P_NHRP;
    struct pb_layer *h = pb_push(&f, PB_RAW);      /* resolution request (type 1), pktsz 20 */
    memcpy(h->raw, "\x00\x01\x08\x00\x00\x00\x00\x00\x00\xff\x00\x14\x00\x00\x00\x00"
                   "\x01\x01\x04\x00", 20);
    h->len = 20;
    run(&f);
    int n = lay(CSC_P_NHRP, 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_DEV_RX_DROPPED);
    ck_assert_int_eq(R.kernel.ndevs, 2);
    const struct csc_dev *d = &R.kernel.devs[1];
    ck_assert_int_eq(d->kind, CSC_P_GRE);
    ck_assert_uint_eq(d->gro_ran, 1);
    ck_assert_int_eq(d->gro_reason, CSC_G_NO_HANDLER);
    ck_assert_int_eq(d->gro_layer, n);
    int at = -1;
    for (unsigned i = 0; i < R.kernel.nsteps; i++)
        if (R.kernel.steps[i].layer == n && !strcmp(csc_fn_name(R.kernel.steps[i].fn), "dev_gro_receive") &&
            !strcmp(csc_what_name(R.kernel.steps[i].what), "flush"))
            at = (int)i;
    if (at < 0)
        dump_result();
    ck_assert_int_ge(at, 0);
    ck_assert_int_ge(find_step("napi_gro_receive", "flush"), 0);
    /* no checksum work: the skb leaves the pass as it entered the device */
    ck_assert_int_eq(R.kernel.steps[at].after.ip_summed, d->entry.ip_summed);
    ck_assert_uint_eq(R.kernel.steps[at].after.csum_valid, d->entry.csum_valid);
    /* GRO off at tunnel devices: no pass, the old record */
    cfg_set("none", "modern");
    CFG.gro_tunnel = false;
    run(&f);
    ck_assert_uint_eq(R.kernel.devs[1].gro_ran, 0);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_DEV_RX_DROPPED);
}
END_TEST

Suite *protos_suite(void);
Suite *protos_suite(void)
{
    Suite *s = suite_create("protocol table");
    TCase *t = tcase_create("protos");
    tcase_add_test(t, rows_are_unique);
    tcase_add_test(t, gre_in_udp_decoded_on_4754);
    tcase_add_test(t, gre_in_udp_unbound_port);
    tcase_add_test(t, gre_in_udp_as_fou);
    tcase_add_test(t, amt_decoded_on_2268);
    tcase_add_test(t, amt_rcv_not_modelled);
    tcase_add_test(t, amt_over_ipv6_no_socket);
    tcase_add_test(t, erspan_types_and_rcv);
    tcase_add_test(t, nhrp_traffic_indication);
    tcase_add_test(t, nhrp_fixed_header_only);
    tcase_add_test(t, nhrp_gre_device_gro_pass);
    tcase_add_test(t, nhrp_quote_after_unequal_addresses);
    suite_add_tcase(s, t);
    return s;
}
