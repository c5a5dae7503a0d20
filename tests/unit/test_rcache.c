/*
 * test_rcache.c - the memoised replay gives exactly the plain replay's
 * result: over built frames of every shape the corpus generator uses, under
 * every era and report, a cache hit equals a fresh replay byte for byte.
 */
#include "helpers.h"

#include "csumcheck/rcache.h"

#include <stddef.h>

static struct csc_rcache C;
static struct csc_result A, B;

/* The replay's outcome field by field (a result's devices beyond ndevs
 * hold whatever an earlier frame left there). */
static void same(const struct csc_result *x, const struct csc_result *y)
{
    const struct csc_kernel *a = &x->kernel, *b = &y->kernel;
    ck_assert_int_eq(x->nlayers, y->nlayers);
    ck_assert(a->ran == b->ran && a->verdict == b->verdict && a->drop_layer == b->drop_layer &&
              a->drop_reason == b->drop_reason && a->counters == b->counters &&
              a->warnings == b->warnings && a->sw_passes == b->sw_passes &&
              a->ndevs == b->ndevs && a->last_layer == b->last_layer &&
              a->trace_truncated == b->trace_truncated && a->sw_bytes == b->sw_bytes &&
              a->hdr_bytes == b->hdr_bytes);
    for (unsigned i = 0; i < a->ndevs && i < CSC_MAX_DEVS; i++) {
        const struct csc_dev *p = &a->devs[i], *q = &b->devs[i];
        ck_assert(p->kind == q->kind && p->layer == q->layer && p->gro_ran == q->gro_ran &&
                  p->gro_reason == q->gro_reason && p->gro_layer == q->gro_layer &&
                  !memcmp(&p->entry, &q->entry, sizeof p->entry) &&
                  p->gro_passes == q->gro_passes && p->passes == q->passes &&
                  p->gro_pass_bytes == q->gro_pass_bytes && p->pass_bytes == q->pass_bytes);
    }
    for (unsigned i = 0; i < x->nlayers; i++)
        ck_assert(!memcmp(&x->layers[i].k, &y->layers[i].k, sizeof x->layers[i].k));
}

/* plain, then cached twice (miss, hit): all three agree */
static void check_frame(void)
{
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN,
                            csc_link_from_linktype(1), 0 };
    csc_analyze(&CFG, &fr, &A);
    csc_analyze_cached(&CFG, &fr, &B, &C);
    same(&A, &B);
    csc_analyze_cached(&CFG, &fr, &B, &C);
    same(&A, &B);
}

START_TEST(cached_equals_plain)
{
    static const char *const reports[] = { "none", "unnecessary:0", "unnecessary:1", "complete",
                                           "partial:outer", "partial:inner", "outer-l4", "tunnel-l4" };
    static const uint8_t outer[] = { PB_OK, PB_ZERO };
    csc_rcache_init(&C);
    uint64_t hits = 0;
    for (size_t e = 0; e < csc_era_count(); e++)
        for (size_t r = 0; r < sizeof reports / sizeof *reports; r++)
            for (int v6 = 0; v6 < 2; v6++)
                for (int o = 0; o < 2; o++)
                    for (int flags = 0; flags < 3; flags++) {
                        struct pb_frame f;
                        pb_init(&f);
                        pb_push(&f, PB_ETH);
                        pb_push(&f, v6 ? PB_IPV6 : PB_IPV4);
                        pb_push(&f, PB_UDP)->csum = outer[o];
                        pb_push(&f, PB_VXLAN);
                        pb_push(&f, PB_ETH);
                        pb_push(&f, PB_IPV4);
                        struct pb_layer *t = pb_push(&f, PB_TCP);
                        t->tcp_flags = flags == 0 ? 0x10 : flags == 1 ? 0x18 : 0x11;
                        pb_push(&f, PB_PAYLOAD)->len = (uint16_t)(flags == 2 ? 0 : 200);
                        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
                        cfg_set(reports[r], csc_era_at(e)->name);
                        CFG.trace_steps = false;
                        check_frame();
                        hits = C.hits;
                    }
    ck_assert_uint_gt(hits, 500);
    /* frames with a bad checksum are never served from the cache */
    uint64_t before = C.hits;
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_BAD;
    FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
    cfg_set("none", "modern");
    CFG.trace_steps = false;
    check_frame();
    ck_assert_uint_eq(C.hits, before);
}
END_TEST

/* Bounded: many shapes (frame lengths) through the sets; every miss fills
 * an empty entry or evicts one (counted), every served result is the plain
 * replay's, and a working set that fits is served from the cache. */
START_TEST(bounded_eviction)
{
    cfg_set("none", "modern");
    CFG.trace_steps = false;
    csc_rcache_init(&C);
    for (int round = 0; round < 2; round++)
        for (int len = 1; len <= 3 * CSC_RCACHE_SLOTS; len++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4);
            pb_push(&f, PB_TCP);
            pb_push(&f, PB_PAYLOAD)->len = (uint16_t)len;
            FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
            check_frame();
        }
    unsigned occupied = 0;
    for (unsigned i = 0; i < CSC_RCACHE_SLOTS; i++)
        occupied += C.tag[i] != 0;
    ck_assert_uint_eq(C.evicted + occupied, C.misses);
    ck_assert_uint_gt(C.evicted, 0);
    ck_assert_uint_le(occupied, CSC_RCACHE_SLOTS);
    /* a few shapes in turn: after the first round, all hits */
    csc_rcache_init(&C);
    for (int round = 0; round < 3; round++)
        for (int len = 1; len <= 40; len++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4);
            pb_push(&f, PB_UDP);
            pb_push(&f, PB_PAYLOAD)->len = (uint16_t)len;
            FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
            check_frame();
        }
    /* all 40 missed once; later rounds miss only where a third shape shares
     * a two-way set (here one set: 3 misses a round) */
    ck_assert_uint_ge(C.misses, 40);
    ck_assert_uint_le(C.misses - 40, 2 * 40 / 10);
}
END_TEST


/* The point of the memo: frames of one shape with other values (payload,
 * ports, sequence numbers, identification, so other checksums) are served
 * from the first one's entry, each equal to its own plain replay. */
START_TEST(served_across_values)
{
    static const char *const reports[] = { "none", "unnecessary:0", "complete", "partial:inner",
                                           "tunnel-l4" };
    for (size_t r = 0; r < sizeof reports / sizeof *reports; r++) {
        cfg_set(reports[r], "modern");
        CFG.trace_steps = false;
        csc_rcache_init(&C);
        for (int v = 0; v < 16; v++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            struct pb_layer *o = pb_push(&f, PB_IPV4);
            o->ip_id = (uint16_t)(100 + v);
            struct pb_layer *u = pb_push(&f, PB_UDP);
            u->sport = (uint16_t)(40000 + v);
            pb_push(&f, PB_VXLAN)->vni = 42u + (uint32_t)v;
            pb_push(&f, PB_ETH);
            pb_push(&f, PB_IPV4);
            struct pb_layer *t = pb_push(&f, PB_TCP);
            t->seq = 1000u * (uint32_t)v;
            t->ack = 77u + (uint32_t)v;
            t->sport = (uint16_t)(50000 + v);
            struct pb_layer *p = pb_push(&f, PB_PAYLOAD);
            p->len = 300;
            p->fill = (uint8_t)(v * 13);
            FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
            check_frame();
        }
        ck_assert_msg(C.misses == 1 && C.hits == 2 * 16 - 1,
                      "%s: %llu misses, %llu hits", reports[r], (unsigned long long)C.misses,
                      (unsigned long long)C.hits);
    }
}
END_TEST

/* Two frames whose cache keys must differ because the replay branches on
 * them: plain results differ, and each cached result is its own plain one
 * whichever frame filled the cache first. */
static void check_pair(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    struct csc_frame fa = { a, (uint32_t)alen, (uint32_t)alen, CSC_LINK_ETHERNET, 0 };
    struct csc_frame fb = { b, (uint32_t)blen, (uint32_t)blen, CSC_LINK_ETHERNET, 0 };
    static struct csc_result PA, PB;
    csc_analyze(&CFG, &fa, &PA);
    csc_analyze(&CFG, &fb, &PB);
    ck_assert_msg(PA.kernel.verdict != PB.kernel.verdict || PA.kernel.counters != PB.kernel.counters ||
                  PA.kernel.drop_reason != PB.kernel.drop_reason ||
                  PA.kernel.drop_layer != PB.kernel.drop_layer, "the pair must replay differently");
    for (int order = 0; order < 2; order++) {
        csc_rcache_init(&C);
        for (int rep = 0; rep < 2; rep++) {
            csc_analyze_cached(&CFG, order ? &fb : &fa, &B, &C);
            same(order ? &PB : &PA, &B);
            csc_analyze_cached(&CFG, order ? &fa : &fb, &B, &C);
            same(order ? &PA : &PB, &B);
        }
    }
}

/* geneve_rx with innerprotoinherit: eth_type_trans makes a unicast inner
 * frame PACKET_OTHERHOST (dropped), a multicast one is not: the inner
 * Ethernet destination's I/G bit is part of the key. */
START_TEST(key_has_inner_eth_group_bit)
{
    static uint8_t uni[256], multi[256];
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_ZERO;
    pb_push(&f, PB_GENEVE);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 40;
    size_t n = pb_build(&f, uni, sizeof uni);
    memcpy(multi, uni, n);
    multi[f.off[4]] |= 1;                 /* inner destination: a group address */
    cfg_set("none", "modern");
    CFG.trace_steps = false;
    CFG.geneve_inner_proto_inherit = true;
    check_pair(uni, n, multi, n);
}
END_TEST

/* erspan_rcv pulls erspan_hdr_len(ver) of the ERSPAN header's own version:
 * a type II header (GRE 0x88be with S, 8 bytes) saying version 1 is pulled,
 * one saying version 2 (12 bytes for the kernel) is not modelled - the same
 * layers but for the version, which is part of the key. */
START_TEST(key_has_erspan_version)
{
    static uint8_t v1[256], v2[256];
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *g = pb_push(&f, PB_GRE);
    g->proto = 0x88be;
    g->gre_flags = 0x1000;               /* S: type II */
    struct pb_layer *e = pb_push(&f, PB_RAW);
    memcpy(e->raw, "\x10\x64\x00\x07\x00\x00\x00\x01", 8);
    e->len = 8;
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 40;
    size_t n = pb_build(&f, v1, sizeof v1);
    memcpy(v2, v1, n);
    v2[f.off[3]] = 0x20;                 /* ERSPAN version 2 in a type II header */
    cfg_set("none", "modern");
    CFG.trace_steps = false;
    check_pair(v1, n, v2, n);
}
END_TEST

/* gue_hdr_valid compares where the decoder stopped with the GUE layer: a
 * REMCSUM private flag in a header too short for it stops at GUE, the same
 * header without it stops at the inner IPv4 (version 5): equal layers, a
 * different stop, a different replay. */
START_TEST(key_has_stop_protocol_and_offset)
{
    static uint8_t a[256], b[256];
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    struct pb_layer *u = pb_push(&f, PB_UDP);
    u->csum = PB_ZERO;
    u->dport = 6080;
    pb_push(&f, PB_PAYLOAD)->len = 48;
    size_t n = pb_build(&f, a, sizeof a);
    size_t g = f.off[3];
    /* GUE variant 0, hlen 1 (8 bytes), IPIP, flags PRIV; private flags */
    static const uint8_t gue[8] = { 0x01, 4, 0x00, 0x01, 0x80, 0, 0, 0 };
    memcpy(a + g, gue, sizeof gue);
    memcpy(b, a, n);
    b[g + 4] = 0;                         /* no REMCSUM: on to the inner header */
    a[g + 8] = b[g + 8] = 0x55;           /* an IPv4 header of version 5 */
    cfg_set("none", "modern");
    CFG.trace_steps = false;
    struct csc_frame fa = { a, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
    struct csc_frame fb = { b, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
    csc_analyze(&CFG, &fa, &A);
    ck_assert_int_eq(A.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(A.stop_proto, CSC_P_GUE);
    csc_analyze(&CFG, &fb, &A);
    ck_assert_int_eq(A.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(A.stop_proto, CSC_P_IPV4);
    check_pair(a, n, b, n);
}
END_TEST

/* ipv6_rthdr_rcv branches on the routing header's type: type 0 with
 * segments left is unknown_rh (Ip6InHdrErrors), type 4 is freed silently
 * (seg6 disabled); the same layers otherwise, so the type is in the key. */
START_TEST(key_has_ipv6_routing_type)
{
    static uint8_t rh0[256], srh[256];
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV6)->v6_ext = PB_X_RH0;
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 40;
    size_t n = pb_build(&f, rh0, sizeof rh0);
    memcpy(srh, rh0, n);
    srh[f.off[1] + 40 + 2] = 4;           /* routing type 4, one segment: same final dst */
    cfg_set("none", "modern");
    CFG.trace_steps = false;
    check_pair(rh0, n, srh, n);
}
END_TEST

/* An entry keeps at most CSC_RCACHE_READS (6) runs of bytes the replay
 * read: IPv6 with a type 0 routing header reads 6 (the destination MAC,
 * the next header, the addresses in four runs of 8) and is memoised; with a
 * hop-by-hop header before it, 7: never kept, replayed each time */
START_TEST(entry_keeps_six_reads)
{
    for (int hbh = 0; hbh < 2; hbh++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV6)->v6_ext = (uint8_t)(PB_X_RH0 | (hbh ? PB_X_HBH : 0));
        pb_push(&f, PB_TCP);
        pb_push(&f, PB_PAYLOAD)->len = 40;
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        cfg_set("none", "modern");
        CFG.trace_steps = false;
        csc_rcache_init(&C);
        check_frame();
        ck_assert_uint_eq(C.misses, (hbh ? 2 : 1));
        ck_assert_uint_eq(C.hits, (hbh ? 0 : 1));
        ck_assert_uint_eq(C.unkept, (hbh ? 2 : 0));
    }
}
END_TEST

/* The key holds a stack of 9 layers (CSC_RCACHE_KEY): a 9-layer frame is
 * memoised (a miss, then a hit), a 10-layer one (a VLAN tag more) passes
 * the memo by; both give the plain replay's result */
START_TEST(key_holds_nine_layers)
{
    for (int vlan = 0; vlan < 2; vlan++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        if (vlan)
            pb_push(&f, PB_VLAN);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_VXLAN);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_GRE);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 32;
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        cfg_set("none", "modern");
        CFG.trace_steps = false;
        csc_rcache_init(&C);
        check_frame();
        ck_assert_int_eq(A.nlayers, 9 + vlan);
        ck_assert_uint_le(offsetof(struct csc_result, layers) + 9 * sizeof A.layers[0], CSC_RCACHE_KEY);
        ck_assert_uint_eq(C.hits, vlan ? 0 : 1);
        ck_assert_uint_eq(C.misses, vlan ? 0 : 1);
        ck_assert_uint_eq(C.bypass, vlan ? 2 : 0);
    }
}
END_TEST

Suite *rcache_suite(void);
Suite *rcache_suite(void)
{
    Suite *s = suite_create("rcache");
    TCase *t = tcase_create("rcache");
    tcase_add_test(t, cached_equals_plain);
    tcase_add_test(t, bounded_eviction);
    tcase_add_test(t, served_across_values);
    tcase_add_test(t, key_has_inner_eth_group_bit);
    tcase_add_test(t, key_has_stop_protocol_and_offset);
    tcase_add_test(t, key_has_erspan_version);
    tcase_add_test(t, key_has_ipv6_routing_type);
    tcase_add_test(t, key_holds_nine_layers);
    tcase_add_test(t, entry_keeps_six_reads);
    suite_add_tcase(s, t);
    return s;
}
