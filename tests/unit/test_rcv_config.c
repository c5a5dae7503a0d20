/*
 * test_rcv_config.c - issue 28 finding 13, what the receiver has or lacks:
 * an AF_PACKET capture on the receiving device (gro_cells_receive takes
 * netif_rx for the cloned skb: no GRO pass at the tunnel device) and UDP
 * port 6635 (MPLS-in-UDP), where Linux has no socket unless a FOU port is
 * configured (UdpNoPorts, after the checksum).
 */
#include "helpers.h"

static void vxlan_tcp(struct pb_frame *f, enum pb_state tcp)
{
    pb_init(f);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_TCP)->csum = (uint8_t)tcp;
    pb_push(f, PB_PAYLOAD)->len = 200;
}

/* gro_cells_receive (net/core/gro_cells.c v6.12 = 6.1.192 = 7.2.13):
 * skb_cloned -> netif_rx */
START_TEST(capture_clone_skips_device_gro)
{
    struct pb_frame f;
    vxlan_tcp(&f, PB_OK);
    cfg_set("none", "6.12");
    run(&f);
    const struct csc_dev *d = dev_of_kind(CSC_P_VXLAN);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->gro_ran, 1);                    /* no capture: the device's GRO pass */
    ck_assert_int_ge(find_step("gro_cells_receive", "enter"), 0);
    ck_assert_int_eq(d->gro_reason, CSC_G_NONE);         /* held for merging */

    cfg_set("none", "6.12");
    CFG.rx_capture = true;
    run(&f);
    d = dev_of_kind(CSC_P_VXLAN);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->gro_ran, 0);
    ck_assert_int_eq(d->gro_reason, CSC_G_NETIF_RX);
    ck_assert_int_ge(find_step("netif_rx", "enter"), 0);
    ck_assert_int_eq(find_step("gro_cells_receive", "enter"), -1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    vxlan_tcp(&f, PB_BAD);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_TCP_IN_CSUM_ERRORS, CSC_C_TCP_IN_ERRS));
}
END_TEST

static void mpls_udp(struct pb_frame *f, enum pb_state outer)
{
    pb_init(f);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4);
    struct pb_layer *u = pb_push(f, PB_UDP);
    u->csum = (uint8_t)outer;
    u->dport = 6635;
    pb_push(f, PB_MPLS); pb_push(f, PB_IPV4); pb_push(f, PB_UDP);
    pb_push(f, PB_PAYLOAD)->len = 40;
}

/* __udp4_lib_rcv (net/ipv4/udp.c v6.12): no socket on 6635 - the checksum
 * is completed, then UdpNoPorts (an ICMP port unreachable to the sender) */
START_TEST(mpls_in_udp_has_no_socket)
{
    struct pb_frame f;
    mpls_udp(&f, PB_OK);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(lay(CSC_P_MPLS, 0), 3);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "NO_SOCKET");
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_UDP_NO_PORTS);
    ck_assert_int_eq(R.kernel.drop_layer, 2);

    mpls_udp(&f, PB_BAD);
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
}
END_TEST

/* csc_config_set_port: CSC_MAX_PORTS ports fit, the next new one is refused
 * (the table is full at exactly CSC_MAX_PORTS), a port already there is
 * still changed in place. The spare slots after the configuration catch a
 * write past the table. */
START_TEST(port_table_full_at_its_size)
{
    struct { struct csc_config c; struct csc_port spare[2]; } w;
    memset(&w, 0, sizeof w);
    csc_config_default(&w.c);
    unsigned start = w.c.nports;
    ck_assert_uint_lt(start, CSC_MAX_PORTS);
    for (unsigned i = start; i < CSC_MAX_PORTS; i++)
        ck_assert_msg(csc_config_set_port(&w.c, (uint16_t)(50000 + i), CSC_P_VXLAN, 0),
                      "port %u of %u refused", i + 1, CSC_MAX_PORTS);
    ck_assert_uint_eq(w.c.nports, CSC_MAX_PORTS);
    ck_assert(!csc_config_set_port(&w.c, 60000, CSC_P_GENEVE, 0));
    ck_assert_uint_eq(w.c.nports, CSC_MAX_PORTS);
    ck_assert_uint_eq(w.spare[0].port, 0);
    /* full, but a known port is changed in place */
    ck_assert(csc_config_set_port(&w.c, (uint16_t)(50000 + CSC_MAX_PORTS - 1), CSC_P_GENEVE, 0));
    ck_assert_uint_eq(w.c.ports[CSC_MAX_PORTS - 1].proto, CSC_P_GENEVE);
    ck_assert_uint_eq(w.c.nports, CSC_MAX_PORTS);
}
END_TEST

/* csc_report_format gives back what csc_report_parse read, for every kind */
START_TEST(report_format_round_trip)
{
    static const char *const names[] = { "none", "unnecessary:0", "unnecessary:3", "complete",
                                         "partial:outer", "partial:inner", "partial:54:16",
                                         "outer-l4", "tunnel-l4" };
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
        struct csc_report r;
        char buf[64];
        ck_assert_msg(csc_report_parse(names[i], &r), "%s", names[i]);
        ck_assert_str_eq(csc_report_format(&r, buf, sizeof buf), names[i]);
    }
}
END_TEST

/* outer-l4: a NIC that verifies the outermost L4 checksum once the IP
 * header passed - an IPv4 header checksum good, IPv6 having none - gives
 * CHECKSUM_UNNECESSARY to the outer UDP (no software pass); behind a
 * bad IPv4 header checksum it verifies nothing: NONE */
START_TEST(outer_l4_needs_a_good_ip_header)
{
    for (int k = 0; k < 3; k++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, k == 1 ? PB_IPV6 : PB_IPV4);
        if (k == 2)
            ip->csum = PB_BAD;
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 30;
        cfg_set("outer-l4", "modern");
        run(&f);
        ck_assert_int_eq(R.kernel.devs[0].entry.ip_summed, k == 2 ? 0 : 1);   /* NONE, UNNECESSARY */
        if (k < 2) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
            ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.method, CSC_M_DEVICE);
            ASSERT_PASSES(0);
        }
    }
}
END_TEST

Suite *rcv_config_suite(void);
Suite *rcv_config_suite(void)
{
    Suite *s = suite_create("rcv_config");
    TCase *tc = tcase_create("receiver");
    tcase_add_test(tc, capture_clone_skips_device_gro);
    tcase_add_test(tc, mpls_in_udp_has_no_socket);
    tcase_add_test(tc, port_table_full_at_its_size);
    tcase_add_test(tc, report_format_round_trip);
    tcase_add_test(tc, outer_l4_needs_a_good_ip_header);
    suite_add_tcase(s, tc);
    return s;
}
