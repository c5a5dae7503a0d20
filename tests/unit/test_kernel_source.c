/*
 * test_kernel_source.c - the replay against kernel SOURCE: every fix of the
 * issue-15 audit (and what was found beside it) as a test that names the
 * kernel function and the release the behaviour was read in (what the live
 * kernels showed, and was then read in the source, is test_kernel_live.c).
 * Release trees read: Debian linux-source-6.12 (6.12.117) and -6.1
 * (6.1.192); 3.18.20, 3.19.8, 4.0.4, 4.2.8, 4.3, 4.6.2, 4.7.4, 4.12, 4.13.4,
 * 4.20 (see docs/eras.md for which switch was read where).
 */
#include "helpers.h"

#include "csumcheck/gro.h"
#include "proto/wire.h"

#define GRO CSC_PATH_GRO
#define NORMAL CSC_PATH_NORMAL

/* ---- era boundaries (core/replay/era.c) ---- */

/* outer IPv4 / UDP / VXLAN+RCO / Eth / IPv4 / TCP with the seed in place */
static void vxlan_rco(struct pb_frame *f)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP);
    pb_push(f, PB_VXLAN)->rco = 1;
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP)->csum = PB_SEED;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* vxlan_gro_receive ends with skb->remcsum_offload = 0 from v4.13 (absent in
 * v4.12, present in v4.13.4); before, the flag GRO set survives into
 * vxlan_rcv, whose vxlan_remcsum (v4.6+) then skips RCO. */
START_TEST(era_remcsum_cleared_on_exit_from_4_13)
{
    struct pb_frame f;
    vxlan_rco(&f);
    cfg_set("complete", "4.6");
    CFG.remcsum_rx = true;
    run(&f);
    ck_assert_int_ge(find_step("skb_gro_remcsum_process", "remcsum-start"), 0);
    ck_assert_int_ge(find_step("vxlan_remcsum", "remcsum-skip-done-in-gro"), 0);
    ck_assert_int_eq(find_step("vxlan_remcsum", "remcsum-partial"), -1);

    cfg_set("complete", "4.13");
    CFG.remcsum_rx = true;
    run(&f);
    ck_assert_int_ge(find_step("skb_gro_remcsum_process", "remcsum-start"), 0);
    ck_assert_int_eq(find_step("vxlan_remcsum", "remcsum-skip-done-in-gro"), -1);
    ck_assert_int_ge(find_step("vxlan_remcsum", "remcsum-partial"), 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* vxlan_remcsum (drivers/net/vxlan/vxlan_core.c, v6.12) pulls the RCO
 * checksum field, offset + 2 bytes behind the VXLAN header: a field whose
 * last byte is the packet's last is there; one byte further is a drop.
 * Inner Eth + IPv4 + TCP + 4 bytes: 58 bytes; the start 34 + shift, the
 * TCP field 16 further, so shift 6 ends the field at byte 58. */
START_TEST(vxlan_remcsum_field_at_the_packet_end)
{
    struct pb_frame f;
    for (int shift = 6; shift <= 8; shift += 2) {
        vxlan_rco(&f);
        f.l[7].len = 4;
        f.l[3].rco_shift = (int16_t)shift;
        cfg_set("none", "6.12");
        CFG.remcsum_rx = true;
        CFG.gro_nic = false;
        run(&f);
        int v = lay(CSC_P_VXLAN, 0);
        ck_assert_uint_eq(R.layers[v].rco_start, 34 + shift);
        ck_assert_uint_eq(R.layers[v].rco_offset, 50 + shift);
        if (shift == 6) {
            ck_assert_int_eq(find_step("vxlan_remcsum", "drop"), -1);
            ck_assert_int_ge(find_step("vxlan_remcsum", "remcsum-partial"), 0);
        } else {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "VXLAN_INVALID_HDR");
            ck_assert_int_eq(R.kernel.drop_layer, v);
            ck_assert_int_eq(find_step("vxlan_remcsum", "remcsum-partial"), -1);
        }
        /* skb_gro_remcsum_process with nopartial (vxlan_gro_remcsum): the
         * same edge - the field's last byte the packet's is adjusted (then
         * TCP's own check fails: the field adjusted is not its), one byte
         * further flushes the packet as cut short */
        cfg_set("complete", "6.12");
        CFG.remcsum_rx = true;
        CFG.remcsum_nopartial = true;
        run(&f);
        ck_assert_int_eq(R.kernel.devs[0].gro_reason, shift == 6 ? CSC_G_CSUM_FAIL : CSC_G_TRUNCATED);
    }
}
END_TEST

/* pskb_trim_rcsum on Ethernet padding: v4.13.4 turns COMPLETE into NONE,
 * v4.20 keeps it (pskb_trim_rcsum_slow with csum_block_sub, "net:
 * pskb_trim_rcsum() and CHECKSUM_COMPLETE are friends"). */
START_TEST(era_pskb_trim_keeps_complete_by_4_20)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 4;        /* 46 bytes, padded to 60 */
    int u;
    cfg_set("complete", "4.13");
    CFG.gro_nic = false;
    run(&f);
    u = lay(CSC_P_UDP, 0);
    ck_assert_int_ge(find_step("pskb_trim_rcsum", "trim-complete-to-none"), 0);
    ASSERT_METHOD(u, CSC_M_SW_PASS, NORMAL);
    ASSERT_PASSES(1);

    cfg_set("complete", "4.20");
    CFG.gro_nic = false;
    run(&f);
    ck_assert_int_ge(find_step("pskb_trim_rcsum", "trim-keep-complete"), 0);
    ASSERT_METHOD(u, CSC_M_COMPLETE, NORMAL);
    ASSERT_PASSES(0);
}
END_TEST

/* v3.18 setup_udp_tunnel_sock and fou_create call udp_set_convert_csum for
 * every UDP tunnel socket, not only VXLAN and L2TP: the outer checksum a
 * device verified (UNNECESSARY level 0) becomes COMPLETE at
 * udp_unicast_rcv_skb, and the inner TCP behind FOU/GUE needs no pass. */
START_TEST(era_convert_all_tunnels_from_3_18)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_GUE);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("unnecessary:0", "3.18");
    CFG.gro_nic = false;
    CFG.gro_tunnel = false;
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.normal_conv, 1);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, NORMAL);
    ASSERT_PASSES(0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* Plain UDP with a zero checksum and nothing verified: up to v4.20
 * udp_gro_receive refuses at the tunnel gate before it looks up a socket;
 * from v5.0 (e20cf8d3f1f7) the lookup comes first and finds no tunnel. */
START_TEST(era_udp_gate_before_lookup_until_4_20)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("none", "4.20");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_UDP_GATE);
    int s = find_step("udp_gro_receive", "tunnel-gro-refused");
    ck_assert_int_ge(s, 0);
    ck_assert_uint_eq(R.kernel.steps[s].bytes, 0);          /* an action: nothing summed */
    cfg_set("none", "5.12");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NOT_TUNNEL);
}
END_TEST


/* ---- zero outer UDP checksum over IPv6 per tunnel socket (finding 1) ---- */

/* outer IPv6 / UDP (zero) / TUN / [Eth] / IPv4 / TCP */
static void over_ipv6_zero(struct pb_frame *f, enum pb_kind tun)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV6);
    pb_push(f, PB_UDP)->csum = PB_ZERO;
    pb_push(f, tun);
    if (tun != PB_GUE)
        pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP);
    pb_push(f, PB_PAYLOAD)->len = 100;
}

static void assert_zero6_refused(void)
{
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, u);
    ck_assert_uint_eq(R.kernel.counters,
                      counters_of(CSC_C_UDP6_IN_CSUM_ERRORS, CSC_C_UDP6_IN_ERRORS));
    ck_assert_int_ge(find_step("__udp6_lib_rcv", "zero-refused"), 0);
}

/* fou_core.c parse_nl_config (6.12) zeroes its udp_port_cfg and never sets
 * use_udp6_rx_checksums, so udp_sock_create6 sets no_check6_rx: a FOU/GUE
 * socket accepts a zero checksum over IPv6 with no knob at all. */
START_TEST(zero6_gue_socket_accepts)
{
    struct pb_frame f;
    over_ipv6_zero(&f, PB_GUE);
    cfg_set("none", "modern");
    CFG.gro_nic = false;              /* the socket's rule, not udp6_gro_receive's */
    run(&f);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_ZERO, NORMAL);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(find_step("__udp6_lib_rcv", "zero-refused"), -1);
    ck_assert_int_ge(find_step("gue_udp_recv", "enter"), 0);
}
END_TEST

/* geneve_newlink (v4.12+, 6.12): use_udp6_rx_checksums is set only with a
 * remote6, so an `external` device accepts a zero checksum; v4.6/v4.7
 * geneve_create_sock asks for checksums unless udp6zerocsumrx. VXLAN keeps
 * its knob (vxlan_socket_create). */
START_TEST(zero6_geneve_external_and_remote6)
{
    struct pb_frame f;
    over_ipv6_zero(&f, PB_GENEVE);
    cfg_set("none", "modern");
    ck_assert(CFG.geneve_external);   /* the default: OVS/OVN's device */
    CFG.gro_nic = false;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ASSERT_METHOD(lay(CSC_P_UDP, 0), CSC_M_ZERO, NORMAL);

    cfg_set("none", "modern");        /* a device with a remote6 */
    CFG.geneve_external = false;
    run(&f);
    assert_zero6_refused();
    CFG.udp6_zero_csum_rx = true;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);

    cfg_set("none", "4.6");           /* before: every device needs udp6zerocsumrx */
    run(&f);
    assert_zero6_refused();

    over_ipv6_zero(&f, PB_VXLAN);
    cfg_set("none", "modern");
    run(&f);
    assert_zero6_refused();
}
END_TEST

/* ---- GENEVE normal path drops (finding 2) and GRO flushes (finding 7) ---- */

/* IPv4 / UDP (zero: the header may be patched) / GENEVE / [Eth] / IPv4 / TCP */
static void geneve(struct pb_frame *f, int teb)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP)->csum = PB_ZERO;
    pb_push(f, PB_GENEVE)->opt_words = 2;
    if (teb)
        pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP);
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* Build f, OR mask into byte `at` of the GENEVE header, analyse. */
static void run_geneve_patched(struct pb_frame *f, unsigned at, uint8_t mask)
{
    FRAME_LEN = pb_build(f, FRAME, sizeof FRAME);
    ck_assert_uint_gt(FRAME_LEN, 0);
    FRAME[f->off[3] + at] |= mask;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
}

/* geneve_rx (6.12; v4.13.4 counts, v4.12 does not): the critical-options bit
 * on a device that does not collect metadata is dropped, rx_frame_errors +
 * rx_errors; an `external` device keeps the options as metadata. */
START_TEST(geneve_critical_bit_dropped_unless_external)
{
    struct pb_frame f;
    geneve(&f, 1);
    cfg_set("none", "modern");
    CFG.geneve_external = false;      /* a device with a remote */
    run_geneve_patched(&f, 1, 0x40);
    int g = lay(CSC_P_GENEVE, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, g);
    ck_assert_uint_eq(R.kernel.counters,
                      counters_of(CSC_C_DEV_RX_FRAME_ERRORS, CSC_C_DEV_RX_ERRORS));
    ck_assert_int_ge(find_step("geneve_rx", "invalid-header"), 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);   /* GRO does not look */

    cfg_set("none", "4.6");
    CFG.geneve_external = false;
    run_geneve_patched(&f, 1, 0x40);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 0);

    cfg_set("none", "modern");
    run_geneve_patched(&f, 1, 0x40);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* geneve_udp_encap_recv (6.12): a protocol other than TEB without
 * innerprotoinherit is dropped and counted in rx_dropped (Debian 5.10.262,
 * 6.1.192 too); v4.20 drops it silently (no inner_proto_inherit yet). */
START_TEST(geneve_non_teb_needs_inner_proto_inherit)
{
    struct pb_frame f;
    geneve(&f, 0);
    cfg_set("none", "modern");
    run(&f);
    int g = lay(CSC_P_GENEVE, 0);
    ck_assert_uint_eq(R.layers[g].next, 0x0800);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, g);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_DEV_RX_DROPPED);
    ck_assert_str_eq(csc_counter_name(CSC_C_DEV_RX_DROPPED), "dev:rx_dropped");

    CFG.geneve_inner_proto_inherit = true;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(dev_of_kind(CSC_P_GENEVE)->layer, lay(CSC_P_IPV4, 1));

    cfg_set("none", "4.20");
    CFG.geneve_inner_proto_inherit = true;      /* no such attribute yet */
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 0);
}
END_TEST

/* geneve_udp_encap_recv: "Return packets with reserved bits set" - a version
 * other than 0 is dropped by the GENEVE socket (no counter), not delivered
 * as a plain datagram; geneve_gro_receive flushes it (`goto out`). */
START_TEST(geneve_version_dropped_and_flushed)
{
    struct pb_frame f;
    geneve(&f, 1);
    cfg_set("none", "modern");
    run_geneve_patched(&f, 0, 0x40);          /* version 1 */
    int g = lay(CSC_P_GENEVE, 0);
    ck_assert_int_eq(R.layers[g].u.geneve.ver, 1);
    ck_assert(R.layers[g].notes & CSC_N_RESERVED_BITS);
    ck_assert_int_eq(R.stop, CSC_STOP_UNSUPPORTED);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, g);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "NOT_SPECIFIED (geneve header)");
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_TUNNEL_FLAGS);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, g);
}
END_TEST

/* geneve_gro_receive: the OAM bit flushes; the normal path delivers. */
START_TEST(geneve_oam_flushed_delivered)
{
    struct pb_frame f;
    geneve(&f, 1);
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);         /* held */
    run_geneve_patched(&f, 1, 0x80);
    ck_assert(R.layers[lay(CSC_P_GENEVE, 0)].notes & CSC_N_TUNNEL_OAM);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_TUNNEL_FLAGS);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* gro_find_receive_by_type: 802.1Q has a GRO handler (vlan_gro_receive,
 * net/8021q/vlan_core.c); GRE carrying a VLAN tag is aggregated. */
START_TEST(gre_vlan_goes_to_vlan_gro_receive)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_GRE);
    pb_push(&f, PB_VLAN);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("complete", "modern");
    run(&f);
    ck_assert_uint_eq(R.layers[lay(CSC_P_GRE, 0)].next, 0x8100);
    ck_assert_int_ge(find_step("vlan_gro_receive", "enter"), 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* The other handlers of gro_find_receive_by_type: TEB (gretap,
 * eth_gro_receive) is aggregated; a type with no gro_receive (0x88be,
 * ERSPAN's) flushes at gre_gro_receive */
START_TEST(gre_teb_has_a_gro_handler_erspan_none)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_GRE);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("complete", "modern");
    run(&f);
    ck_assert_uint_eq(R.layers[lay(CSC_P_GRE, 0)].next, 0x6558);
    ck_assert_int_ge(find_step("eth_gro_receive", "enter"), 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    f.l[2].proto = 0x88be;
    run(&f);
    ck_assert_uint_eq(R.layers[lay(CSC_P_GRE, 0)].next, 0x88be);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NO_HANDLER);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, lay(CSC_P_GRE, 0));
}
END_TEST

/* gro_find_receive_by_type for the IP types: IPv4 and IPv6 behind GRE
 * each reach their own gro_receive and are held. */
START_TEST(gre_ip_types_have_their_gro_handlers)
{
    for (int v6 = 0; v6 < 2; v6++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_GRE);
        pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
        pb_push(&f, PB_TCP);
        pb_push(&f, PB_PAYLOAD)->len = 100;
        cfg_set("complete", "modern");
        run(&f);
        ck_assert_uint_eq(R.layers[lay(CSC_P_GRE, 0)].next, v6 ? 0x86dd : 0x0800);
        ck_assert_int_ge(find_step(v6 ? "ipv6_gro_receive" : "inet_gro_receive", "enter"), 0);
        ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    }
}
END_TEST

/* gro_missing: a layer GRO would go on to that the decoder has not. Behind
 * an EtherType it does not know it is a type without a gro_receive
 * (NO_HANDLER), not a capture cut short (TRUNCATED). */
START_TEST(gro_missing_layer_by_stop)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_GRE)->proto = 0x6558;
    pb_push(&f, PB_ETH)->proto = 0x88b5;
    pb_push(&f, PB_PAYLOAD)->len = 60;
    cfg_set("complete", "modern");
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_ETHERTYPE);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NO_HANDLER);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, lay(CSC_P_ETH, 1));
}
END_TEST

/* ---- GUE normal path and GRO (finding 3) ---- */

/* IPv4 / UDP (zero: the header may be patched) / GUE [+RCO] / IPv4 / TCP */
static void gue(struct pb_frame *f, int rco)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4);
    pb_push(f, PB_UDP)->csum = PB_ZERO;
    pb_push(f, PB_GUE)->rco = (uint8_t)rco;
    pb_push(f, PB_IPV4);
    pb_push(f, PB_TCP)->csum = rco ? PB_SEED : PB_OK;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* Build f, write byte `at` of the GUE header (layer 3) as (old & keep) | set. */
static void run_gue_patched(struct pb_frame *f, unsigned at, uint8_t keep, uint8_t set)
{
    FRAME_LEN = pb_build(f, FRAME, sizeof FRAME);
    ck_assert_uint_gt(FRAME_LEN, 0);
    uint8_t *b = &FRAME[f->off[3] + at];
    *b = (uint8_t)((*b & keep) | set);
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
}

static void assert_gue_dropped(const char *fn, const char *reason)
{
    int g = lay(CSC_P_GUE, 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, g);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), reason);
    ck_assert_int_ge(find_step(fn, "invalid-header"), 0);
}

/* validate_gue_flags (include/net/gue.h) with "net: gue: reject invalid
 * REMCSUM offsets" (Debian 6.12.117, 6.1.192; stable 6.12.112): an offset
 * below its start is dropped by gue_udp_recv and flushed by gue_gro_receive.
 * Before the fix (5.12) RCO was applied. */
START_TEST(gue_remcsum_offset_below_start)
{
    struct pb_frame f;
    gue(&f, 1);
    cfg_set("complete", "modern");
    run(&f);
    int g = lay(CSC_P_GUE, 0);
    ck_assert_uint_eq(R.layers[g].rco_start, 20);
    ck_assert_uint_eq(R.layers[g].rco_offset, 36);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    run_gue_patched(&f, 11, 0, 18);   /* offset 18 < start 20 */
    ck_assert_uint_eq(R.layers[g].rco_offset, 18);
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_TUNNEL_FLAGS);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, g);

    cfg_set("complete", "5.12");
    run_gue_patched(&f, 11, 0, 18);
    ck_assert_int_eq(find_step("gue_udp_recv", "invalid-header"), -1);
    ck_assert_int_ge(find_step("gue_remcsum", "remcsum-partial"), 0);   /* RCO applied */
    ck_assert_int_ne(R.kernel.devs[0].gro_reason, CSC_G_TUNNEL_FLAGS);
}
END_TEST

/* gue_udp_recv: a control message (C bit) is freed by gue_control_message;
 * gue_gro_receive flushes it. */
START_TEST(gue_control_message_dropped)
{
    struct pb_frame f;
    gue(&f, 0);
    cfg_set("none", "modern");
    run_gue_patched(&f, 0, 0xff, 0x20);
    int g = lay(CSC_P_GUE, 0);
    ck_assert(R.layers[g].notes & CSC_N_TUNNEL_OAM);
    ck_assert_int_eq(R.stop, CSC_STOP_UNSUPPORTED);
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue control message)");
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_TUNNEL_FLAGS);
}
END_TEST

/* gue_udp_recv: "Undefined version" (variants 2 and 3) is dropped; the
 * decoder keeps the layer. Protocol 0 is dropped too ("gue: Fix skb memleak
 * with inner IP protocol 0": before it the skb was consumed, not delivered). */
START_TEST(gue_variant_2_and_protocol_0_dropped)
{
    struct pb_frame f;
    gue(&f, 0);
    cfg_set("none", "modern");
    run_gue_patched(&f, 0, 0x3f, 0x80);
    ck_assert_int_eq(R.layers[lay(CSC_P_GUE, 0)].u.gue.variant, 2);
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_TUNNEL_FLAGS);

    run_gue_patched(&f, 1, 0, 0);
    ck_assert_uint_eq(R.layers[lay(CSC_P_GUE, 0)].next, 0);
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");
}
END_TEST

/* gue_udp_recv, variant 1: an IP version other than 4 or 6 is dropped. */
START_TEST(gue_variant_1_needs_ip)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    pb_push(&f, PB_GUE)->gue_variant = 1;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    /* gue_gro_receive takes an inner IPv4 header too: held, not flushed */
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ck_assert_int_ge(find_step("gue_gro_receive", "enter"), 0);
    run_gue_patched(&f, 0, 0x0f, 0x50);       /* "IPv5" */
    ck_assert_int_eq(R.layers[lay(CSC_P_GUE, 0)].u.gue.variant, 1);
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");
}
END_TEST

/* v3.18 fou.c: the GUE header had a 4-bit version and flags that must be 0
 * (gue_udp_recv drops anything else); its gue_gro_receive checked neither.
 * The v3.19 header (control bit, private flags) starts with preset 4.0. */
START_TEST(gue_v3_18_header)
{
    struct pb_frame f;
    gue(&f, 0);
    cfg_set("none", "3.18");
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    run_gue_patched(&f, 3, 0xff, 0x02);       /* a flag v3.19 would call reserved */
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");
    ck_assert_int_eq(find_step("gue_gro_receive", "flush"), -1);   /* GRO did not look */
    run_gue_patched(&f, 0, 0xff, 0x20);       /* C bit: 4-bit version 2 */
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");

    gue(&f, 1);                               /* PRIV flag: dropped in 3.18 ... */
    cfg_set("complete", "3.18");
    run(&f);
    assert_gue_dropped("gue_udp_recv", "NOT_SPECIFIED (gue header)");
    cfg_set("complete", "4.0");               /* ... RCO from 4.0 */
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* ---- tunnel-device GRO pass by device and era (findings 5, 6) ---- */

/* outer IPv4|IPv6 / inner IPv4|IPv6 / TCP[t]: IP in IP */
static void ip_in_ip(struct pb_frame *f, int outer6, int inner6, enum pb_state t)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, outer6 ? PB_IPV6 : PB_IPV4);
    pb_push(f, inner6 ? PB_IPV6 : PB_IPV4);
    pb_push(f, PB_TCP)->csum = (uint8_t)t;
    pb_push(f, PB_PAYLOAD)->len = 100;
}

/* ipip6_rcv (net/ipv6/sit.c, 6.12 and every release read) ends in netif_rx:
 * the sit device has no GRO pass. A bad inner TCP costs the NIC's GRO pass
 * and tcp_v6_rcv's: 2 passes, not 3. The device is "sit", not "ip6tnl". */
START_TEST(sit_netif_rx_no_gro_pass)
{
    struct pb_frame f;
    ip_in_ip(&f, 0, 1, PB_BAD);
    cfg_set("none", "modern");
    run(&f);
    const struct csc_dev *d = dev_of_kind(CSC_P_SIT);
    ck_assert_str_eq(csc_dev_name(CSC_P_SIT), "sit");
    ck_assert_int_eq(d->gro_ran, 0);
    ck_assert_int_eq(d->gro_reason, CSC_G_NETIF_RX);
    ck_assert_str_eq(csc_gro_reason_name(CSC_G_NETIF_RX), "netif-rx");
    ck_assert_int_ge(find_step("ipip6_rcv", "enter"), 0);
    ck_assert_int_ge(find_step("netif_rx", "enter"), 0);
    ck_assert_int_ge(find_step("sit_ip6ip6_gro_receive", "enter"), 0);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ASSERT_PASSES(2);

    /* IPv4 in IPv4 (ipip_rcv -> ip_tunnel_rcv) keeps its gro_cells pass */
    ip_in_ip(&f, 0, 0, PB_BAD);
    run(&f);
    ck_assert_int_eq(dev_of_kind(CSC_P_IPV4)->gro_ran, 1);
    ASSERT_PASSES(3);
}
END_TEST

/* IPv4 in IPv6 is ip6tnl's (ip4ip6_rcv -> ip6_tnl_rcv, gro_cells since v4.7),
 * and the NIC's GRO callback is ip4ip6_gro_receive; v4.6.2 had neither: no
 * GRO callback for IPPROTO_IPIP in inet6_offloads, netif_rx. */
START_TEST(ip6tnl_gro_by_era)
{
    struct pb_frame f;
    ip_in_ip(&f, 1, 0, PB_OK);
    cfg_set("none", "modern");
    run(&f);
    const struct csc_dev *d = dev_of_kind(CSC_P_IPV6);
    ck_assert_str_eq(csc_dev_name(CSC_P_IPV6), "ip6tnl");
    ck_assert_int_eq(d->gro_ran, 1);
    ck_assert_int_ge(find_step("ip4ip6_gro_receive", "enter"), 0);
    ck_assert_int_ge(find_step("ip6_tnl_rcv", "enter"), 0);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);

    cfg_set("none", "4.6");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NO_HANDLER);
    ck_assert_int_eq(dev_of_kind(CSC_P_IPV6)->gro_reason, CSC_G_NETIF_RX);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}
END_TEST

/* IPv6 in IPv4 GRO: sit_gro_receive from v4.6 (v4.3's sit_offload has only
 * gso_segment, so the NIC's GRO flushes at the inner header). */
START_TEST(sit_gro_callback_from_4_6)
{
    struct pb_frame f;
    ip_in_ip(&f, 0, 1, PB_OK);
    cfg_set("none", "4.6");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    cfg_set("none", "4.0");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NO_HANDLER);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, lay(CSC_P_IPV6, 0));
}
END_TEST

/* vxlan_rcv ended in netif_rx up to v4.2 (v4.2.8), gro_cells from v4.3:
 * under preset 4.0 the inner checksum is checked by tcp_v4_rcv, not by vx0's
 * GRO. In v3.18 a failed check skips GRO at a gro_cells device on csum_bad:
 * GRE (ip_tunnel_rcv) shows it. */
START_TEST(vxlan_gro_cells_from_4_3)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("none", "4.0");
    CFG.gro_nic = false;
    run(&f);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->gro_reason, CSC_G_NETIF_RX);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, NORMAL);
    cfg_set("none", "4.6");
    CFG.gro_nic = false;
    run(&f);
    ck_assert_int_eq(dev_of_kind(CSC_P_VXLAN)->gro_reason, CSC_G_NONE);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_COMPLETE, GRO);

    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_GRE);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_BAD;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    cfg_set("none", "3.18");
    run(&f);
    ck_assert_int_eq(dev_of_kind(CSC_P_GRE)->gro_reason, CSC_G_CSUM_BAD);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_CSUM_BAD, NORMAL);
}
END_TEST

/* GENEVE before the netdev: v3.19.8's GENEVE offload has NULL callbacks (UDP
 * GRO treats it as no tunnel), v4.0.4 has geneve_gro_receive; only Open
 * vSwitch's vport received GENEVE before v4.1, which the replay does not
 * follow. v4.6.2's geneve_udp_encap_recv returned a bad version to UDP (the
 * datagram is queued on the socket); v4.7.4 drops it. */
START_TEST(geneve_by_era)
{
    struct pb_frame f;
    geneve(&f, 1);
    cfg_set("complete", "3.18");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NOT_TUNNEL);
    ck_assert_uint_eq(R.kernel.warnings & CSC_W_NOT_MODELLED, CSC_W_NOT_MODELLED);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);      /* not modelled: never accept */
    cfg_set("complete", "4.0");
    run(&f);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);

    cfg_set("none", "4.6");
    run_geneve_patched(&f, 0, 0x40);          /* version 1 */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_ge(find_step("udp_queue_rcv_one_skb", "deliver"), 0);
    cfg_set("none", "4.13");
    run_geneve_patched(&f, 0, 0x40);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
}
END_TEST

/* Live (kernel-findings.md L4, 6.1/6.12/7.2): a GENEVE device made with
 * innerprotoinherit is ARPHRD_NONE without an address, so geneve_rx's
 * eth_type_trans marks a unicast inner frame PACKET_OTHERHOST and
 * ip_rcv_core drops it (SKB_DROP_REASON_OTHERHOST, no MIB counter) after the
 * device counted it. A multicast destination is not OTHERHOST but
 * PACKET_MULTICAST, which tcp_v4_rcv discards before counting anything
 * (issue 28 finding 4). */
START_TEST(geneve_inherit_teb_is_otherhost)
{
    struct pb_frame f;
    geneve(&f, 1);
    cfg_set("none", "modern");
    CFG.geneve_inner_proto_inherit = true;
    run(&f);
    int in = lay(CSC_P_IPV4, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, in);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "OTHERHOST");
    ck_assert_uint_eq(R.kernel.counters, 0);
    ck_assert_int_eq(dev_of_kind(CSC_P_GENEVE)->gro_ran, 1);

    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    FRAME[f.off[4]] |= 1;                     /* inner destination multicast */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_TCP, 0));
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "NOT_SPECIFIED (pkt_type not host)");
    ck_assert_uint_eq(R.kernel.counters, 0);
}
END_TEST

/* ---- audit finding 4, refuted: IPv6 underlay, outer and inner UDP bad,
 * UNNECESSARY level 0, no GRO ---- */

/* udp6_csum_init consumes level 0 for the outer UDP (csum_valid, level
 * decremented to NONE), udp6_unicast_rcv_skb converts to COMPLETE with the
 * outer pseudo sum, vxlan_rcv/eth_type_trans postpull; at the inner
 * udp4_csum_init the COMPLETE arithmetic fails (the outer error is not the
 * inner's), the datagram is short enough for __skb_checksum_complete: drop,
 * UdpInCsumErrors. The live kernels agree (kernel-findings.md: all five);
 * the audit's "model delivers" did not reproduce. The IPv4 twin alike. */
START_TEST(finding4_ipv6_outer_and_inner_bad_u0_dropped)
{
    for (int outer6 = 0; outer6 <= 1; outer6++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, outer6 ? PB_IPV6 : PB_IPV4);
        pb_push(&f, PB_UDP)->csum = PB_BAD;
        pb_push(&f, PB_VXLAN);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP)->csum = PB_BAD;
        pb_push(&f, PB_PAYLOAD)->len = 50;
        cfg_set("unnecessary:0", "modern");
        CFG.gro_nic = false;
        CFG.gro_tunnel = false;
        run(&f);
        int ou = lay(CSC_P_UDP, 0), iu = lay(CSC_P_UDP, 1);
        ASSERT_METHOD(ou, CSC_M_DEVICE, NORMAL);
        ck_assert_int_eq(R.layers[ou].k.normal_conv, 1);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, iu);
        ck_assert_uint_eq(R.kernel.counters,
                          counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
    }
}
END_TEST

/* Every era by name: csc_era_by_name finds it and csc_era_description has a
 * line for it, the first as the last; an unknown name has none */
START_TEST(every_era_described)
{
    ck_assert_uint_gt(csc_era_count(), 1);
    for (size_t i = 0; i < csc_era_count(); i++) {
        const struct csc_era *e = csc_era_at(i);
        struct csc_era by;
        ck_assert_ptr_nonnull(e);
        ck_assert_msg(csc_era_by_name(e->name, &by), "%s", e->name);
        ck_assert_msg(csc_era_description(e->name)[0] != '\0', "era %zu (%s) has no description", i, e->name);
    }
    ck_assert_str_eq(csc_era_description("no-such-era"), "");
}
END_TEST

/* gue_udp_recv resubmits the packet with the GUE header's protocol; over
 * IPv6 ip6_protocol_deliver_rcu (net/ipv6/ip6_input.c v6.12), have_final
 * set by UDP, discards a non-final one - 43, 44, 60 - silently for the
 * model (Ip6InDiscards); a protocol with no handler (253) is
 * Ip6InUnknownProtos, and over IPv4 44 has no handler either */
static void gue_carrying(int v6, uint16_t proto)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_GUE)->proto = proto;
    pb_push(&f, PB_PAYLOAD)->len = 40;
    cfg_set("none", "6.12");
    run(&f);
    if (R.kernel.verdict != CSC_K_DROP)
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
}

START_TEST(gue_over_ipv6_non_final_protocol)
{
    static const uint16_t non_final[] = { 43, 44, 60 };
    for (unsigned i = 0; i < 3; i++) {
        gue_carrying(1, non_final[i]);
        ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_GUE, 0));
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason),
                         "NOT_SPECIFIED (a non-final protocol after a final one)");
        ck_assert_uint_eq(R.kernel.counters, 0);
    }
    gue_carrying(1, 253);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_IPV6, 0));
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_UNKNOWN_PROTOS);
    gue_carrying(0, 44);
    ck_assert_int_eq(R.kernel.drop_layer, lay(CSC_P_IPV4, 0));
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP_IN_UNKNOWN_PROTOS);
}
END_TEST

Suite *kernel_source_suite(void);
Suite *kernel_source_suite(void)
{
    Suite *s = suite_create("kernel source (issue 15)");
    TCase *t = tcase_create("core");
    tcase_add_test(t, era_remcsum_cleared_on_exit_from_4_13);
    tcase_add_test(t, vxlan_remcsum_field_at_the_packet_end);
    tcase_add_test(t, every_era_described);
    tcase_add_test(t, era_pskb_trim_keeps_complete_by_4_20);
    tcase_add_test(t, era_convert_all_tunnels_from_3_18);
    tcase_add_test(t, era_udp_gate_before_lookup_until_4_20);
    tcase_add_test(t, zero6_gue_socket_accepts);
    tcase_add_test(t, zero6_geneve_external_and_remote6);
    tcase_add_test(t, geneve_critical_bit_dropped_unless_external);
    tcase_add_test(t, geneve_non_teb_needs_inner_proto_inherit);
    tcase_add_test(t, geneve_version_dropped_and_flushed);
    tcase_add_test(t, geneve_oam_flushed_delivered);
    tcase_add_test(t, gre_vlan_goes_to_vlan_gro_receive);
    tcase_add_test(t, gre_teb_has_a_gro_handler_erspan_none);
    tcase_add_test(t, gre_ip_types_have_their_gro_handlers);
    tcase_add_test(t, gro_missing_layer_by_stop);
    tcase_add_test(t, gue_remcsum_offset_below_start);
    tcase_add_test(t, gue_control_message_dropped);
    tcase_add_test(t, gue_variant_2_and_protocol_0_dropped);
    tcase_add_test(t, gue_variant_1_needs_ip);
    tcase_add_test(t, gue_v3_18_header);
    tcase_add_test(t, gue_over_ipv6_non_final_protocol);
    tcase_add_test(t, sit_netif_rx_no_gro_pass);
    tcase_add_test(t, ip6tnl_gro_by_era);
    tcase_add_test(t, sit_gro_callback_from_4_6);
    tcase_add_test(t, vxlan_gro_cells_from_4_3);
    tcase_add_test(t, geneve_by_era);
    tcase_add_test(t, geneve_inherit_teb_is_otherhost);
    tcase_add_test(t, finding4_ipv6_outer_and_inner_bad_u0_dropped);
    suite_add_tcase(s, t);
    return s;
}
