/*
 * test_gro_ipv6.c - ipv6_gro_receive and the transports' GRO under IPv6
 * (issue 28 findings 11 and 12): where IPv6 GRO stops, and the
 * pseudo-header its checksum checks use.
 */
#include "helpers.h"

#include "csumcheck/gro.h"

/* eth / IPv6 (extension headers ext) / TCP or UDP, 1,000 payload bytes */
static void ipv6_l4(uint8_t ext, int udp, enum pb_state l4, uint32_t seq)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV6);
    ip->v6_ext = ext;
    ip->frag = 0;                     /* a fragment header: atomic (offset 0, no M) */
    struct pb_layer *t = pb_push(&f, udp ? PB_UDP : PB_TCP);
    t->csum = (uint8_t)l4;
    t->seq = seq;
    pb_push(&f, PB_PAYLOAD)->len = 1000;
    run(&f);
}

/* Finding 11: ipv6_gro_receive (net/ipv6/ip6_offload.c, v6.12 and v6.1)
 * walks routing, destination options and hop-by-hop headers only
 * (ipv6_gro_pull_exthdrs: no inet6_offloads[NEXTHDR_FRAGMENT]): at an
 * atomic fragment header GRO stops, flushes, and tcp6_gro_receive never
 * checks the segment - the checksum is checked once, in tcp_v6_rcv. The
 * model walked past it: a GRO pass (and merges across segments). */
START_TEST(gro_stops_at_a_fragment_header)
{
    cfg_set("none", "modern");
    ipv6_l4(PB_X_FRAG, 0, PB_OK, 1);
    ck_assert(!(R.layers[1].notes & CSC_N_FRAGMENT));             /* atomic: not a fragment */
    ck_assert(R.layers[1].u.ip.rh_flags & CSC_RH_FRAG_HDR);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_IP_FRAGMENT);
    ck_assert_int_eq(R.kernel.devs[0].gro_layer, 1);
    ck_assert_uint_eq(R.kernel.devs[0].gro_passes, 0);
    int t = lay(CSC_P_TCP, 0);
    ASSERT_METHOD(t, CSC_M_SW_PASS, CSC_PATH_NORMAL);
    ASSERT_PASSES(1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(find_step("tcp6_gro_receive", "enter"), -1);
    /* bad: counted by tcp_v6_rcv, never seen by GRO */
    ipv6_l4(PB_X_FRAG, 0, PB_BAD, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_IP_FRAGMENT);
    ck_assert(has_counter(CSC_C_TCP_IN_CSUM_ERRORS));
    /* without it, or with a destination options header, GRO goes on to TCP */
    ipv6_l4(PB_X_DST, 0, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ASSERT_METHOD(lay(CSC_P_TCP, 0), CSC_M_SW_PASS, CSC_PATH_GRO);
    /* a run of two segments: the engine merges none of them */
    static struct csc_gro g;
    struct csc_gro_decision d;
    for (int frag = 0; frag < 2; frag++) {
        csc_gro_init(&g, NULL);
        for (int s = 0; s < 2; s++) {
            ipv6_l4(frag ? PB_X_FRAG : 0, 0, PB_OK, 1 + 1000u * (uint32_t)s);
            struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, 0 };
            csc_gro_feed(&g, &fr, &R, (uint64_t)s + 1, (uint64_t)s, &d);
        }
        csc_gro_finish(&g);
        ck_assert_uint_eq(g.dev[0].merged_frames, frag ? 0 : 2);
        ck_assert_uint_eq(g.dev[0].packets_out, frag ? 2 : 1);
    }
}
END_TEST

/* Finding 12: tcp6_gro_receive and udp6_gro_receive check with
 * ip6_gro_compute_pseudo (include/net/ip6_checksum.h, v6.12 and v6.1):
 * the addresses of the IPv6 header, not a routing header's final
 * destination or a Home Address option's source, which the sender's
 * checksum covers (RFC 8200 8.1). A right checksum fails in GRO (one
 * software pass, flush); the normal path then drops the packet at the
 * routing header / the home address anyway. The model checked with the
 * final destination and held the segment. */
START_TEST(gro_pseudo_header_is_the_header_s)
{
    cfg_set("none", "modern");
    ipv6_l4(PB_X_RH0, 0, PB_OK, 1);
    ck_assert(R.layers[1].notes & CSC_N_ROUTING_DST);
    int t = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.layers[t].verdict, CSC_V_GOOD);           /* with the final destination */
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_CSUM_FAIL);
    ASSERT_METHOD(t, CSC_M_SW_PASS, CSC_PATH_GRO);
    ck_assert_int_eq(R.layers[t].k.ok, CSC_TRI_NO);
    ck_assert_uint_eq(R.kernel.devs[0].gro_passes, 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 1);
    ck_assert(has_counter(CSC_C_IP6_IN_HDR_ERRORS));
    /* UDP with a Home Address option: udp6_gro_receive the same */
    ipv6_l4(PB_X_HAO, 1, PB_OK, 1);
    ck_assert(R.layers[1].notes & CSC_N_HOME_ADDRESS);
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_CSUM_FAIL);
    ck_assert_int_eq(R.layers[u].k.ok, CSC_TRI_NO);
    /* no routing header: the same checksum passes GRO and the segment is held */
    ipv6_l4(0, 0, PB_OK, 1);
    ck_assert_int_eq(R.kernel.devs[0].gro_reason, CSC_G_NONE);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].k.ok, CSC_TRI_YES);
}
END_TEST

Suite *gro_ipv6_suite(void);
Suite *gro_ipv6_suite(void)
{
    Suite *s = suite_create("gro_ipv6");
    TCase *t = tcase_create("ipv6_gro_receive");
    tcase_add_test(t, gro_stops_at_a_fragment_header);
    tcase_add_test(t, gro_pseudo_header_is_the_header_s);
    suite_add_tcase(s, t);
    return s;
}
