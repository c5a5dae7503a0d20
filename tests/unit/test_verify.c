/*
 * test_verify.c - every raw verdict and reason, and the RCO/LCO math on the
 * worked vectors V9 (remcsum_adjust) and V10 (lco_csum) of the model.
 */
#include "helpers.h"

#include "csumcheck/frag.h"

static void eth_ip(struct pb_frame *f, int v6)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, v6 ? PB_IPV6 : PB_IPV4);
}

/* V9/V10 frame: outer 10.0.0.1:40000 -> 10.0.0.2:4789, VXLAN VNI 42 (+RCO),
 * inner 192.168.1.1:5001 -> 192.168.1.2:80 TCP seq 1 PSH|ACK, 40 bytes. */
static void v9_frame(struct pb_frame *f, enum pb_state outer, int rco, enum pb_state inner)
{
    eth_ip(f, 0);
    pb_push(f, PB_UDP)->csum = (uint8_t)outer;
    pb_push(f, PB_VXLAN)->rco = (uint8_t)rco;
    pb_push(f, PB_ETH);
    struct pb_layer *ip = pb_push(f, PB_IPV4);
    memcpy(ip->src, "\xc0\xa8\x01\x01", 4);
    memcpy(ip->dst, "\xc0\xa8\x01\x02", 4);
    struct pb_layer *t = pb_push(f, PB_TCP);
    t->sport = 5001;
    t->dport = 80;
    t->seq = 1;
    t->ack = 0;
    t->tcp_flags = 0x18;
    t->csum = (uint8_t)inner;
    struct pb_layer *p = pb_push(f, PB_PAYLOAD);
    p->len = 40;
    p->fill = 1;
}

START_TEST(v9_rco_vxlan_tcp)
{
    struct pb_frame f;
    v9_frame(&f, PB_OK, 1, PB_SEED);
    cfg_set("none", "modern");
    run(&f);
    int ou = lay(CSC_P_UDP, 0), vx = lay(CSC_P_VXLAN, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_uint_eq(R.layers[ou].field, 0x84b7);           /* V9 outer check */
    ck_assert_uint_eq(R.layers[ou].pseudo, 0x00001482);
    ck_assert_uint_eq(R.layers[vx].rco_start, 34);
    ck_assert_uint_eq(R.layers[vx].rco_offset, 50);
    ck_assert_uint_eq(FRAME[R.layers[vx].off + 1], 0x20);    /* header 08 20 00 00 00 00 2a 11 */
    ck_assert_uint_eq(FRAME[R.layers[vx].off + 7], 0x11);
    ck_assert_uint_eq(R.layers[it].field, 0x8396);            /* the seed */
    ck_assert_uint_eq(R.layers[it].verdict, CSC_V_RCO);
    ck_assert_uint_eq(R.layers[it].resolved, 0x86d1);         /* what remcsum_adjust writes */
    ck_assert_uint_eq(R.layers[it].rco_delta, 0x033b);
    ck_assert_uint_eq(R.layers[it].expected, 0x86d1);
    /* remcsum_unadjust round trip: field = csum_fold(delta - field) */
    uint32_t d = R.layers[it].rco_delta, fld = R.layers[it].resolved;
    ck_assert_uint_eq((uint16_t)~((((d + (0xffffu & ~fld)) & 0xffff) + ((d + (0xffffu & ~fld)) >> 16))), 0x8396);
    /* In the replay (nopartial, COMPLETE): GRO adjusts then restores the field. */
    cfg_set("complete", "modern");
    CFG.remcsum_rx = true;
    CFG.remcsum_nopartial = true;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    int adjust = 0, cleanup = 0;
    for (int i = 0; i < R.kernel.nsteps; i++) {
        adjust += !strcmp(csc_what_name(R.kernel.steps[i].what), "remcsum-adjust");
        cleanup += !strcmp(csc_what_name(R.kernel.steps[i].what), "remcsum-cleanup");
    }
    ck_assert_int_eq(adjust, 2);          /* GRO, then the normal path */
    ck_assert_int_eq(cleanup, 1);         /* skb_gro_flush_final_remcsum */
    ASSERT_PASSES(0);
}
END_TEST

START_TEST(v10_lco)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    /* V10 is "LCO on the same packet": the VXLAN header keeps its RCO bits. */
    v9_frame(&f, PB_LCO, 1, PB_SEED);
    run(&f);
    ck_assert_uint_eq(R.layers[lay(CSC_P_UDP, 0)].field, 0x817c);
    /* Classified without RCO: the outer is lco, the inner partial. */
    v9_frame(&f, PB_LCO, 0, PB_SEED);
    run(&f);
    int ou = lay(CSC_P_UDP, 0), it = lay(CSC_P_TCP, 0);
    ck_assert_int_eq(R.layers[ou].verdict, CSC_V_LCO);
    ck_assert_int_eq(R.layers[ou].reason, CSC_R_LCO);
    ck_assert_uint_eq(R.layers[ou].resolved, 0x86d1);         /* the NIC fills this in */
    ck_assert_uint_ne(R.layers[ou].field, R.layers[ou].expected);
    ck_assert_int_eq(R.layers[it].verdict, CSC_V_PARTIAL);
    ck_assert_int_eq(R.layers[it].reason, CSC_R_SEED);
    ck_assert_uint_eq(R.layers[it].expected, 0x86d1);
    /* An outer checksum that matches neither the bytes nor LCO is bad. */
    v9_frame(&f, PB_BAD, 0, PB_SEED);
    run(&f);
    ck_assert_int_eq(R.layers[ou].verdict, CSC_V_BAD);
    ck_assert_int_eq(R.layers[ou].reason, CSC_R_MISMATCH);
    /* GRE LCO (gre_build_header) */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->gre_flags = 0x8000;
    g->csum = PB_LCO;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 50;
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_GRE, 0)].verdict, CSC_V_LCO);
}
END_TEST

START_TEST(rco_findings)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    v9_frame(&f, PB_OK, 1, PB_GARBAGE);                       /* wrong seed */
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_BAD);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_WRONG_SEED);
    v9_frame(&f, PB_OK, 1, PB_OK);                            /* completed, not a seed */
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_WRONG_SEED);
    v9_frame(&f, PB_ZERO, 1, PB_SEED);                        /* nothing protects it */
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_OUTER_MISSING);
    v9_frame(&f, PB_BAD, 1, PB_SEED);
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_OUTER_BAD);
    v9_frame(&f, PB_OK, 1, PB_SEED);
    f.l[3].rco_shift = -2;                                    /* start lands 2 bytes early */
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_BAD_TARGET);
    ck_assert(R.layers[lay(CSC_P_VXLAN, 0)].notes & CSC_N_RCO_OFF_TARGET);
    v9_frame(&f, PB_OK, 1, PB_SEED);
    f.l[3].rco_shift = 200;                                   /* beyond the packet */
    run(&f);
    ck_assert(R.layers[lay(CSC_P_VXLAN, 0)].notes & CSC_N_RCO_OUT_OF_PKT);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_RCO_BAD_TARGET);
}
END_TEST

START_TEST(good_bad_expected)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    for (int v6 = 0; v6 < 2; v6++) {
        enum pb_kind l4s[] = { PB_UDP, PB_TCP, v6 ? PB_ICMPV6 : PB_ICMP };
        enum csc_proto ps[] = { CSC_P_UDP, CSC_P_TCP, v6 ? CSC_P_ICMPV6 : CSC_P_ICMP };
        for (int k = 0; k < 3; k++) {
            eth_ip(&f, v6);
            pb_push(&f, l4s[k]);
            pb_push(&f, PB_PAYLOAD)->len = 33;               /* odd length */
            run(&f);
            int i = lay(ps[k], 0);
            ck_assert_int_eq(R.layers[i].verdict, CSC_V_GOOD);
            uint16_t good = R.layers[i].field;
            f.l[2].csum = PB_BAD;
            run(&f);
            ck_assert_int_eq(R.layers[i].verdict, CSC_V_BAD);
            ck_assert_int_eq(R.layers[i].reason, CSC_R_MISMATCH);
            ck_assert_uint_eq(R.layers[i].expected, good);
            ck_assert_uint_eq(R.layers[i].field, good ^ 0x5a5a);
            ck_assert_int_eq(R.worst, CSC_V_BAD);
        }
    }
    /* IPv4 header */
    eth_ip(&f, 0);
    pb_push(&f, PB_PAYLOAD)->len = 10;
    f.l[1].csum = PB_BAD;
    run(&f);
    ck_assert_int_eq(R.layers[1].verdict, CSC_V_BAD);
    ck_assert_uint_eq(R.layers[1].expected ^ 0x5a5a, R.layers[1].field);
}
END_TEST

START_TEST(none_zero6_gre)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    /* the frame's worst: NA with no checksum at all (ARP), else the worst rank */
    pb_init(&f);
    pb_push(&f, PB_ETH)->proto = 0x0806;
    pb_push(&f, PB_PAYLOAD)->len = 28;
    run(&f);
    ck_assert_int_eq(R.worst, CSC_V_NA);
    eth_ip(&f, 0);
    pb_push(&f, PB_UDP);
    run(&f);
    ck_assert_int_eq(R.worst, CSC_V_GOOD);
    eth_ip(&f, 0);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_NONE);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_ZERO);
    ck_assert_uint_ne(R.layers[2].expected, 0);
    /* ... and in an ICMP error's quote, whose other checksums cannot be told */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_ICMP)->icmp_type = 3;
    pb_push(&f, PB_IPV4)->len_override = 576;
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    run(&f);
    int q = lay(CSC_P_UDP, 0);
    ck_assert(R.layers[q].notes & CSC_N_QUOTED);
    ck_assert_int_eq(R.layers[q].verdict, CSC_V_NONE);
    ck_assert_int_eq(R.layers[q].reason, CSC_R_ZERO);
    eth_ip(&f, 0);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    /* zero means "no checksum" even when the datagram is cut by the snaplen */
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
    run_bytes(FRAME, FRAME_LEN - 50, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_NONE);
    eth_ip(&f, 1);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_ZERO6);
    run_bytes(FRAME, FRAME_LEN - 50, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_ZERO6);
    eth_ip(&f, 0);
    pb_push(&f, PB_GRE);
    pb_push(&f, PB_IPV4);
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_NONE);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_NO_C_BIT);
    f.l[2].gre_flags = 0x8000 | 0x2000 | 0x1000;
    f.l[2].key = 7;
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    ck_assert_uint_eq(R.layers[2].u.gre.key, 7);
    f.l[2].csum = PB_BAD;
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_BAD);
}
END_TEST

START_TEST(partial_and_gso)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    eth_ip(&f, 0);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_PARTIAL);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_SEED);
    f.l[2].csum = PB_SEED_NOLEN;
    run(&f);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_SEED_NOLEN);
    /* a TSO super-packet: payload larger than the MSS */
    f.l[2].csum = PB_SEED;
    f.l[2].mss = 1000;
    f.l[3].len = 4500;
    run(&f);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_GSO);
    ck_assert_int_eq(R.gso_segs, 5);
    /* BIG TCP: IPv4 total length 0 */
    f.l[1].tot_len_zero = 1;
    f.l[2].mss = 0;
    f.l[3].len = 9000;
    run(&f);
    ck_assert(R.layers[1].notes & CSC_N_GSO);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_GSO);
    f.l[2].csum = PB_GARBAGE;                                 /* a length we cannot trust */
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_UNVERIFIABLE);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_GSO_LEN);
    /* GSO tunnel: outer UDP seed + inner TCP seed */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_SEED;
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP)->csum = PB_SEED;
    pb_push(&f, PB_PAYLOAD)->len = 3000;
    run(&f);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_PARTIAL);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].reason, CSC_R_GSO);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].reason, CSC_R_GSO);
    ck_assert_int_eq(R.gso_segs, 3);
}
END_TEST

START_TEST(unverifiable_reasons)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    eth_ip(&f, 0);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 100;
    run(&f);
    run_bytes(FRAME, FRAME_LEN - 10, FRAME_LEN, CSC_LINK_ETHERNET);   /* snaplen */
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_UNVERIFIABLE);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_SNAPLEN);
    ck_assert_int_eq(R.layers[1].verdict, CSC_V_GOOD);               /* header still judged */
    f.l[1].frag = 0x2000;                                             /* first fragment */
    run(&f);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_UNVERIFIABLE);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_FRAGMENT);
    f.l[1].frag = 0x2001;                                             /* later fragment */
    run(&f);
    ck_assert_int_eq(R.nlayers, 2);
    ck_assert_int_eq(R.stop, CSC_STOP_FRAGMENT);
    /* lying IP total length: the header is judged; a UDP datagram whose own
     * length fits is whole and judged too (verify_short_ip), a UDP length
     * beyond what is there is not */
    f.l[1].frag = 0x4000;
    run(&f);
    FRAME[17] += 40;                                                  /* tot_len += 40 */
    FRAME[24] = FRAME[25] = 0;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert(R.layers[1].notes & CSC_N_LEN_EXCEEDS);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    FRAME[14 + 20 + 7] ^= 1;                                          /* the UDP checksum */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_BAD);
    FRAME[14 + 20 + 5] += 40;                                         /* UDP length += 40 */
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_UNVERIFIABLE);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_LEN_MISMATCH);
    /* ICMP error quoting a cut datagram */
    uint8_t icmp[14 + 20 + 8 + 20 + 8] = { 0 };
    static const uint8_t hdr[] = { 0x45, 0, 0, 56, 0, 0, 0x40, 0, 64, 1, 0, 0, 10, 0, 0, 2, 10, 0, 0, 1 };
    static const uint8_t qip[] = { 0x45, 0, 0x05, 0xdc, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2 };
    icmp[12] = 0x08;
    memcpy(icmp + 14, hdr, 20);
    icmp[34] = 3;                                                     /* dest unreachable */
    memcpy(icmp + 42, qip, 20);
    icmp[62] = 0x9c;
    icmp[63] = 0x40;
    icmp[66] = 0x05;                                                  /* UDP len 1480 */
    icmp[67] = 0xc8;
    icmp[68] = 0x12;                                                  /* some checksum */
    run_bytes(icmp, sizeof icmp, sizeof icmp, CSC_LINK_ETHERNET);
    int q = lay(CSC_P_UDP, 0);
    ck_assert(R.layers[q].notes & CSC_N_QUOTED);
    ck_assert_int_eq(R.layers[q].verdict, CSC_V_UNVERIFIABLE);
    ck_assert_int_eq(R.layers[q].reason, CSC_R_ICMP_QUOTE);
    ck_assert_int_eq(R.layers[lay(CSC_P_IPV4, 1)].verdict, CSC_V_BAD);   /* quoted header judged */
}
END_TEST

START_TEST(ipv6_home_address_and_routing)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    eth_ip(&f, 1);
    f.l[1].v6_ext = PB_X_HAO;
    memcpy(f.l[1].hao, "\x20\x01\x0d\xb8\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xaa\xaa", 16);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    run(&f);
    ck_assert(R.layers[1].notes & CSC_N_HOME_ADDRESS);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);   /* pseudo-header uses the HoA */
    f.l[1].v6_ext = PB_X_RH0 | PB_X_HBH | PB_X_DST;
    run(&f);
    ck_assert(R.layers[1].notes & CSC_N_ROUTING_DST);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);   /* ...the final destination */
    ck_assert_uint_eq(R.layers[1].hdr_len, 40 + 8 + 8 + 24);
}
END_TEST

static uint8_t frag_buf[8][2000];
static size_t frag_len[8];
static int frag_n;

static void collect(void *ctx, const uint8_t *b, size_t len)
{
    (void)ctx;
    if (frag_n < 8) {
        memcpy(frag_buf[frag_n], b, len);
        frag_len[frag_n++] = len;
    }
}

static void feed(struct csc_frag_table *t, int i, int frame_no)
{
    run_bytes(frag_buf[i], frag_len[i], frag_len[i], CSC_LINK_ETHERNET);
    struct csc_frame fr = { frag_buf[i], (uint32_t)frag_len[i], (uint32_t)frag_len[i],
                            CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(t, &fr, &R, (uint64_t)frame_no);
}

START_TEST(reassembly)
{
    static struct csc_frag_table t;
    struct pb_frame f;
    cfg_set("none", "modern");
    for (int bad = 0; bad < 2; bad++) {
        eth_ip(&f, 0);
        f.l[1].frag = 0;
        f.l[1].ip_id = 77;
        pb_push(&f, PB_UDP)->csum = bad ? PB_BAD : PB_OK;
        pb_push(&f, PB_PAYLOAD)->len = 1001;
        run(&f);
        frag_n = 0;
        ck_assert_int_eq(pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 400, collect, NULL), 3);
        /* in order */
        csc_frag_init(&t);
        feed(&t, 0, 1);
        ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].reason, CSC_R_FRAGMENT);
        feed(&t, 1, 2);
        ck_assert_int_eq(R.nlayers, 2);
        feed(&t, 2, 3);
        int u = lay(CSC_P_UDP, 0);
        ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
        ck_assert_int_eq(R.layers[u].verdict, bad ? CSC_V_BAD : CSC_V_GOOD);
        ck_assert_uint_eq(t.completed, 1);
        /* first fragment last: the verdict lands on its own UDP layer */
        csc_frag_init(&t);
        feed(&t, 2, 1);
        feed(&t, 1, 2);
        feed(&t, 0, 3);
        ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, bad ? CSC_V_BAD : CSC_V_GOOD);
        ck_assert_int_eq(R.nlayers, 3);
    }
    /* a duplicate (the first fragment again) is dropped as
     * inet_frag_queue_insert drops it (IPFRAG_DUP): the datagram completes */
    csc_frag_init(&t);
    feed(&t, 0, 1);
    feed(&t, 0, 2);
    feed(&t, 1, 3);
    feed(&t, 2, 4);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].reason, CSC_R_FRAG_REASSEMBLED);
    ck_assert_uint_eq(t.overlaps, 0);
    ck_assert_uint_eq(t.completed, 1);
    /* overlap (the middle fragment once more, 8 bytes earlier): unverifiable */
    memcpy(frag_buf[3], frag_buf[1], frag_len[1]);
    frag_len[3] = frag_len[1];
    frag_buf[3][14 + 7] = (uint8_t)(frag_buf[3][14 + 7] - 1);   /* offset - 8 bytes */
    csc_frag_init(&t);
    feed(&t, 0, 1);
    feed(&t, 3, 2);
    feed(&t, 1, 3);
    feed(&t, 2, 4);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].reason, CSC_R_FRAG_OVERLAP);
    ck_assert_uint_eq(t.overlaps, 1);
    /* a flood of distinct datagrams is bounded: entries are evicted */
    csc_frag_init(&t);
    for (int i = 0; i < 1000; i++) {
        frag_buf[0][14 + 4] = (uint8_t)(i >> 8);              /* new IP id each time */
        frag_buf[0][14 + 5] = (uint8_t)i;
        feed(&t, 0, i + 1);
    }
    ck_assert_uint_eq(t.evicted, 1000 - CSC_FRAG_SLOTS);
    /* the least recently fed datagram goes: datagram A, fed again in the
     * middle of a flood of others, survives it and completes */
    csc_frag_init(&t);
    frag_buf[0][14 + 4] = 0, frag_buf[0][14 + 5] = 77;
    frag_buf[1][14 + 4] = 0, frag_buf[1][14 + 5] = 77;
    feed(&t, 0, 1);
    int fno = 2;
    for (int i = 0; i < 3 * CSC_FRAG_SLOTS; i++) {
        frag_buf[2][14 + 4] = (uint8_t)((i + 1000) >> 8);   /* a last fragment, new id */
        frag_buf[2][14 + 5] = (uint8_t)(i + 1000);
        feed(&t, 2, fno++);
        if (i == CSC_FRAG_SLOTS / 2)
            feed(&t, 1, fno++);                             /* A's middle fragment */
        if (i == CSC_FRAG_SLOTS / 2 + CSC_FRAG_SLOTS - 2) { /* A's last one */
            frag_buf[2][14 + 4] = 0, frag_buf[2][14 + 5] = 77;
            feed(&t, 2, fno++);
            ck_assert_uint_eq(t.completed, 1);
            ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].reason, CSC_R_FRAG_REASSEMBLED);
            ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_BAD);  /* bad=1 above */
        }
    }
    ck_assert_uint_eq(t.evicted, 3 * CSC_FRAG_SLOTS - CSC_FRAG_SLOTS);
    /* a datagram fed once at the start of a flood is gone: never completed */
    csc_frag_init(&t);
    feed(&t, 0, 1);
    for (int i = 0; i < CSC_FRAG_SLOTS; i++) {
        frag_buf[2][14 + 4] = (uint8_t)((i + 1000) >> 8);
        frag_buf[2][14 + 5] = (uint8_t)(i + 1000);
        feed(&t, 2, i + 2);
    }
    ck_assert_uint_eq(t.evicted, 1);
    feed(&t, 1, 100);
    frag_buf[2][14 + 4] = 0, frag_buf[2][14 + 5] = 77;
    feed(&t, 2, 101);
    ck_assert_uint_eq(t.completed, 0);
}
END_TEST

/* Issue 16: a VXLAN frame (inner TCP bad, or all good) cut into fragments,
 * over IPv4 and IPv6, in order and last first: with a byte store the frame
 * that completes it has every layer of the datagram, noted reassembled, with
 * offsets into the datagram, and the replay goes on from ip_defrag /
 * ipv6_frag_rcv through vxlan_rcv to the inner TCP (no NIC GRO: the NIC saw
 * fragments; the VXLAN device's gro_cells pass runs). */
START_TEST(reassembly_inner_stack)
{
    static struct csc_frag_table t;
    static uint8_t store[CSC_FRAG_STORE_BYTES];
    struct pb_frame f;
    cfg_set("none", "modern");
    for (int v6 = 0; v6 < 2; v6++)
        for (int bad = 0; bad < 2; bad++)
            for (int rev = 0; rev < 2; rev++) {
                eth_ip(&f, v6);
                if (!v6)
                    f.l[1].frag = 0, f.l[1].ip_id = 91;
                pb_push(&f, PB_UDP);
                pb_push(&f, PB_VXLAN);
                pb_push(&f, PB_ETH);
                pb_push(&f, PB_IPV4);
                pb_push(&f, PB_TCP)->csum = bad ? PB_BAD : PB_OK;
                pb_push(&f, PB_PAYLOAD)->len = 1000;
                run(&f);
                ck_assert_int_eq(R.nlayers, 7);
                uint32_t inner_tcp_off = R.layers[6].off - 14;   /* in the datagram */
                frag_n = 0;
                int n = v6 ? pb_fragment_ipv6(FRAME, FRAME_LEN, 14, 400, 0x1234, collect, NULL)
                           : pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 400, collect, NULL);
                ck_assert_int_ge(n, 3);
                csc_frag_init(&t);
                csc_frag_attach(&t, &CFG, store);
                for (int k = 0; k < n; k++) {
                    feed(&t, rev ? n - 1 - k : k, k + 1);
                    if (k < n - 1)
                        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);   /* queued */
                }
                ck_assert_uint_eq(t.completed, 1);
                ck_assert_int_eq(R.nlayers, 7);
                const enum csc_proto want[7] = { CSC_P_ETH, v6 ? CSC_P_IPV6 : CSC_P_IPV4, CSC_P_UDP,
                                                 CSC_P_VXLAN, CSC_P_ETH, CSC_P_IPV4, CSC_P_TCP };
                for (int i = 0; i < 7; i++)
                    ck_assert_int_eq(R.layers[i].proto, want[i]);
                for (int i = 2; i < 7; i++) {
                    ck_assert(R.layers[i].notes & CSC_N_REASSEMBLED);
                    ck_assert_int_eq(R.layers[i].ip, (i < 6 ? 1 : 5));
                }
                ck_assert(!(R.layers[1].notes & CSC_N_REASSEMBLED));
                ck_assert(R.layers[2].notes & CSC_N_FRAGMENT);
                ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
                ck_assert_int_eq(R.layers[2].reason, CSC_R_FRAG_REASSEMBLED);
                ck_assert_int_eq(R.layers[5].verdict, CSC_V_GOOD);
                ck_assert_int_eq(R.layers[6].verdict, bad ? CSC_V_BAD : CSC_V_GOOD);
                ck_assert_int_eq(R.layers[6].reason, CSC_R_FRAG_REASSEMBLED);
                /* offsets in the datagram: IPv6 loses its fragment header */
                ck_assert_uint_eq(R.layers[6].off, inner_tcp_off);
                ck_assert_uint_eq(R.layers[2].off, v6 ? 40 : 20);
                /* the kernel: the datagram's outcome, through the VXLAN device */
                const struct csc_kernel *kk = &R.kernel;
                ck_assert_int_eq(kk->ndevs, 2);
                ck_assert_int_eq(kk->devs[0].gro_reason, CSC_G_IP_FRAGMENT);
                ck_assert_int_eq(kk->devs[1].kind, CSC_P_VXLAN);
                ck_assert_int_eq(kk->devs[1].layer, 5);
                ck_assert_int_eq(kk->reasm_dev, 1);
                ck_assert_int_ge(find_step(v6 ? "ipv6_frag_rcv" : "ip_defrag", "reassembled"), 0);
                ck_assert_int_ge(find_step("vxlan_rcv", "enter"), 0);
                if (bad) {
                    ck_assert_int_eq(kk->verdict, CSC_K_DROP);
                    ck_assert_int_eq(kk->drop_layer, 6);
                    ck_assert(has_counter(CSC_C_TCP_IN_CSUM_ERRORS));
                    ck_assert_int_eq(R.layers[6].k.ok, CSC_TRI_NO);
                    ck_assert_int_eq(R.layers[6].k.dev, 1);
                } else {
                    ck_assert_int_eq(kk->verdict, CSC_K_ACCEPT);
                    ck_assert_int_eq(R.layers[6].k.ok, CSC_TRI_YES);
                }
                ck_assert_int_eq(R.layers[2].k.ok, CSC_TRI_YES);   /* outer UDP checked once */
                ck_assert_int_eq(R.worst, bad ? CSC_V_BAD : CSC_V_GOOD);
            }
}
END_TEST

/* inet_frag_reasm_finish: fragments that reached ip_defrag as CHECKSUM_COMPLETE
 * give a COMPLETE reassembled skb, whose sum the outer UDP check uses
 * without a software pass; a dropped fragment (bad IPv4 header: ip_rcv_core)
 * never reaches the queue, so the kernel never completes the datagram. */
START_TEST(reassembly_checksum_state)
{
    static struct csc_frag_table t;
    static uint8_t store[CSC_FRAG_STORE_BYTES];
    struct pb_frame f;
    cfg_set("complete", "modern");
    eth_ip(&f, 0);
    f.l[1].frag = 0, f.l[1].ip_id = 92;
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 1000;
    run(&f);
    frag_n = 0;
    ck_assert_int_eq(pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 400, collect, NULL), 3);
    csc_frag_init(&t);
    csc_frag_attach(&t, &CFG, store);
    for (int k = 0; k < 3; k++)
        feed(&t, k, k + 1);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[u].k.method, CSC_M_COMPLETE);
    ck_assert_int_eq(R.kernel.sw_passes, 0);
    ck_assert_int_ge(find_step("ip_defrag", "reassembled"), 0);
    /* a middle fragment with a bad IPv4 header checksum */
    cfg_set("none", "modern");
    frag_buf[1][14 + 10] ^= 0x5a;
    csc_frag_init(&t);
    csc_frag_attach(&t, &CFG, store);
    feed(&t, 0, 1);
    feed(&t, 1, 2);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    feed(&t, 2, 3);
    ck_assert_uint_eq(t.completed, 1);                     /* the bytes complete it... */
    ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);     /* ...the kernel never does */
    ck_assert_int_eq(R.layers[u].k.method, CSC_M_NOT_REACHED);
    frag_buf[1][14 + 10] ^= 0x5a;
}
END_TEST

/* The unfragmentable part of an IPv6 datagram fills the room the store
 * keeps for it exactly (40 + a 216-byte hop-by-hop header = 256 bytes,
 * one option of type 0x1e, which ip6_parse_tlv skips): the
 * datagram is rebuilt and decoded; 8 bytes more and it falls back to the
 * one-layer verdict. Frames by hand: eth, IPv6, HBH (PadN), fragment
 * header, UDP + 100 bytes in two fragments (64 + 44 payload bytes). */
static size_t v6_big_unfrag(uint8_t *b, unsigned hbh_units, int second, uint16_t ucsum)
{
    size_t hbh = 8u * (hbh_units + 1), o = 0;
    memset(b, 0, 1200);
    memcpy(b, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x86\xdd", 14);
    o = 14;
    size_t pay = second ? 44 : 64;
    b[o] = 0x60;
    b[o + 4] = (uint8_t)((hbh + 8 + pay) >> 8), b[o + 5] = (uint8_t)(hbh + 8 + pay);
    b[o + 6] = 0;                                      /* hop-by-hop */
    b[o + 7] = 64;
    memcpy(b + o + 8, "\x20\x01\x0d\xb8", 4);           /* 2001:db8::1 > 2001:db8::2 (::1 */
    memcpy(b + o + 24, "\x20\x01\x0d\xb8", 4);          /* is dropped by ip6_rcv_core) */
    b[o + 23] = 1, b[o + 39] = 2;
    o += 40;
    b[o] = 44, b[o + 1] = (uint8_t)hbh_units;          /* next: fragment */
    b[o + 2] = 0x1e, b[o + 3] = (uint8_t)(hbh - 4);    /* skipped (action 00); PadN > 7: drop */
    o += hbh;
    b[o] = 17;
    uint16_t fo = second ? (uint16_t)(64 | 0) : 1;     /* offset 64 (<<3 field) / M */
    b[o + 2] = (uint8_t)(fo >> 8), b[o + 3] = (uint8_t)fo;
    b[o + 7] = 0x42;
    o += 8;
    if (!second) {                                     /* UDP 5000 > 5001, length 108 */
        b[o] = 0x13, b[o + 1] = 0x88, b[o + 2] = 0x13, b[o + 3] = 0x89;
        b[o + 5] = 108;
        b[o + 6] = (uint8_t)(ucsum >> 8), b[o + 7] = (uint8_t)ucsum;
        for (int i = 8; i < 64; i++)
            b[o + i] = (uint8_t)i;
    } else {
        for (int i = 0; i < 44; i++)
            b[o + i] = (uint8_t)(64 + i);
    }
    return o + pay;
}

START_TEST(reassembly_ipv6_header_room)
{
    static struct csc_frag_table t;
    static uint8_t store[CSC_FRAG_STORE_BYTES];
    static uint8_t a[1200], b2[1200];
    cfg_set("none", "modern");
    for (unsigned units = 26; units <= 27; units++) {
        uint16_t ucsum = 0;
        for (int pass = 0; pass < 2; pass++) {
            size_t na = v6_big_unfrag(a, units, 0, ucsum), nb = v6_big_unfrag(b2, units, 1, 0);
            csc_frag_init(&t);
            csc_frag_attach(&t, &CFG, store);
            struct csc_frame fa = { a, (uint32_t)na, (uint32_t)na, CSC_LINK_ETHERNET, 0 };
            struct csc_frame fb = { b2, (uint32_t)nb, (uint32_t)nb, CSC_LINK_ETHERNET, 0 };
            run_bytes(a, na, na, CSC_LINK_ETHERNET);
            csc_frag_feed(&t, &fa, &R, 1);
            run_bytes(b2, nb, nb, CSC_LINK_ETHERNET);
            ck_assert(csc_frag_feed(&t, &fb, &R, 2));
            int u = lay(CSC_P_UDP, 0);
            ck_assert_int_ge(u, 0);
            if (pass == 0) {                           /* zero6: learn the right value */
                ck_assert_int_eq(R.layers[u].verdict, CSC_V_ZERO6);
                ucsum = R.layers[u].expected;
                continue;
            }
            ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
            if (units == 26) {                         /* 256 bytes: rebuilt, replayed */
                ck_assert(R.layers[u].notes & CSC_N_REASSEMBLED);
                ck_assert_uint_eq(R.layers[u].off, 256);
                ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
            } else {                                   /* 264: the one-layer verdict */
                ck_assert(!(R.layers[u].notes & CSC_N_REASSEMBLED));
                ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
            }
        }
    }
}
END_TEST

/* csc_verdict_rank: the order worst-of reads (good < none < rco < lco <
 * partial < zero6 < unverifiable < bad, n/a lowest); a value outside the
 * enum ranks 0, from CSC_V__COUNT up */
START_TEST(verdict_rank_order_and_bounds)
{
    static const enum csc_verdict order[] = { CSC_V_NA, CSC_V_GOOD, CSC_V_NONE, CSC_V_RCO, CSC_V_LCO,
                                              CSC_V_PARTIAL, CSC_V_ZERO6, CSC_V_UNVERIFIABLE, CSC_V_BAD };
    for (unsigned i = 0; i < sizeof order / sizeof *order; i++)
        ck_assert_int_eq(csc_verdict_rank(order[i]), (int)i);
    ck_assert_int_eq(csc_verdict_rank(CSC_V__COUNT), 0);
    ck_assert_int_eq(csc_verdict_rank((enum csc_verdict)(CSC_V__COUNT + 1)), 0);
    ck_assert_int_eq(csc_verdict_rank((enum csc_verdict)-1), 0);
}
END_TEST

Suite *verify_suite(void);
Suite *verify_suite(void)
{
    Suite *s = suite_create("verify");
    TCase *t = tcase_create("verdicts");
    tcase_add_test(t, v9_rco_vxlan_tcp);
    tcase_add_test(t, v10_lco);
    tcase_add_test(t, rco_findings);
    tcase_add_test(t, good_bad_expected);
    tcase_add_test(t, none_zero6_gre);
    tcase_add_test(t, partial_and_gso);
    tcase_add_test(t, unverifiable_reasons);
    tcase_add_test(t, ipv6_home_address_and_routing);
    tcase_add_test(t, reassembly);
    tcase_add_test(t, reassembly_inner_stack);
    tcase_add_test(t, reassembly_checksum_state);
    tcase_add_test(t, reassembly_ipv6_header_room);
    tcase_add_test(t, verdict_rank_order_and_bounds);
    suite_add_tcase(s, t);
    return s;
}
