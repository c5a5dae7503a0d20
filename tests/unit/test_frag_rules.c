/*
 * test_frag_rules.c - what ip_frag_queue / ip6_frag_queue do to a fragment
 * before it joins its queue (issue 28 findings 9 and 10): core/replay/defrag.c
 * for the frame, core/frag.c for the datagram.
 */
#include "helpers.h"

#include "csumcheck/frag.h"

static uint8_t fb[4][2000];
static size_t fl[4];
static int fn;

static void take(void *ctx, const uint8_t *b, size_t len)
{
    (void)ctx;
    if (fn < 4 && len <= sizeof fb[0]) {
        memcpy(fb[fn], b, len);
        fl[fn++] = len;
    }
}

/* Where pb_fragment_* writes fragments, for the tests that keep their own
 * buffers: up to max of stride bytes each */
struct sink { uint8_t *buf; size_t stride; size_t *len; int max, n; };

static void take_into(void *ctx, const uint8_t *b, size_t len)
{
    struct sink *s = ctx;
    if (s->n < s->max && len <= s->stride) {
        memcpy(s->buf + (size_t)s->n * s->stride, b, len);
        s->len[s->n++] = len;
    }
}

static void feed(struct csc_frag_table *t, int i, int frame_no)
{
    run_bytes(fb[i], fl[i], fl[i], CSC_LINK_ETHERNET);
    struct csc_frame fr = { fb[i], (uint32_t)fl[i], (uint32_t)fl[i], CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(t, &fr, &R, (uint64_t)frame_no);
}

static void be16_at(uint8_t *b, uint16_t v)
{
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
}

/* The IPv4 header checksum of the fragment at 14, written again */
static void ip4_recheck(uint8_t *b)
{
    b[14 + 10] = b[14 + 11] = 0;
    uint32_t s = 0;
    for (int i = 0; i < 20; i += 2)
        s += (uint32_t)b[14 + i] << 8 | b[14 + i + 1];
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    be16_at(b + 14 + 10, (uint16_t)~s);
}

/* An IPv4/UDP datagram (1,000 payload bytes, checksum good or bad) cut into
 * fragments of 400; the first one then carries `extra` bytes more (the
 * second's first bytes, as a sender that does not round its MTU would) */
static void ipv4_datagram(int bad, unsigned extra)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV4);
    ip->frag = 0;
    ip->ip_id = 0x2809;
    pb_push(&f, PB_UDP)->csum = bad ? PB_BAD : PB_OK;
    pb_push(&f, PB_PAYLOAD)->len = 1000;
    run(&f);
    fn = 0;
    ck_assert_int_eq(pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 400, take, NULL), 3);
    memcpy(fb[0] + fl[0], FRAME + 14 + 20 + 400, extra);
    fl[0] += extra;
    be16_at(fb[0] + 14 + 2, (uint16_t)(20 + 400 + extra));
    ip4_recheck(fb[0]);
}

/* Finding 9: a first fragment ending at 403 (not a multiple of 8) before
 * one at offset 400. ip_frag_queue (net/ipv4/ip_fragment.c, v6.12 and
 * v6.1) rounds its end down to 400 - no overlap - and the datagram
 * completes; the model called it an overlap (unverifiable, no replay). The
 * rounded fragment's CHECKSUM_COMPLETE becomes NONE, so the reassembled
 * skb is NONE (inet_frag_reasm_finish: the fragments differ) and the UDP
 * checksum costs a software pass instead of using the sum. */
START_TEST(ipv4_fragment_rounded_down)
{
    static struct csc_frag_table t;
    static uint8_t store[CSC_FRAG_STORE_BYTES];
    for (int bad = 0; bad < 2; bad++) {
        cfg_set("none", "modern");
        ipv4_datagram(bad, 3);
        csc_frag_init(&t);
        csc_frag_attach(&t, &CFG, store);
        feed(&t, 0, 1);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);          /* queued */
        ck_assert_int_ge(find_step("ip_defrag", "queued-for-reassembly"), 0);
        feed(&t, 1, 2);
        feed(&t, 2, 3);
        ck_assert_uint_eq(t.overlaps, 0);
        ck_assert_uint_eq(t.completed, 1);
        int u = lay(CSC_P_UDP, 0);
        ck_assert(R.layers[u].notes & CSC_N_REASSEMBLED);
        ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
        ck_assert_int_eq(R.layers[u].verdict, bad ? CSC_V_BAD : CSC_V_GOOD);
        ck_assert_uint_eq(R.layers[u].end - R.layers[u].off, 1008);   /* the datagram: 1,008 */
        ck_assert_int_eq(R.kernel.verdict, bad ? CSC_K_DROP : CSC_K_ACCEPT);
        if (bad)
            ck_assert(has_counter(CSC_C_UDP_IN_CSUM_ERRORS));
        /* without the byte store: the sums alone (the first fragment's
         * three extra bytes taken off) */
        csc_frag_init(&t);
        feed(&t, 0, 1);
        feed(&t, 1, 2);
        feed(&t, 2, 3);
        u = lay(CSC_P_UDP, 0);
        ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
        ck_assert_int_eq(R.layers[u].verdict, bad ? CSC_V_BAD : CSC_V_GOOD);
    }
    /* CHECKSUM_COMPLETE from the NIC: a whole fragment keeps it, the rounded
     * one is NONE, so the reassembled skb is NONE: one software pass over
     * the datagram (1,008 bytes) at udp4_csum_init / __skb_checksum_complete */
    cfg_set("complete", "modern");
    ipv4_datagram(0, 0);
    csc_frag_init(&t);
    csc_frag_attach(&t, &CFG, store);
    for (int k = 0; k < 3; k++)
        feed(&t, k, k + 1);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].k.method, CSC_M_COMPLETE);
    ASSERT_PASSES(0);
    ipv4_datagram(0, 3);
    csc_frag_init(&t);
    csc_frag_attach(&t, &CFG, store);
    feed(&t, 0, 1);
    ck_assert_int_ge(find_step("ip_defrag", "trim-complete-to-none"), 0);
    feed(&t, 1, 2);
    feed(&t, 2, 3);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(R.kernel.drop_layer, CSC_NO_LAYER);
    ck_assert_int_ne(R.layers[lay(CSC_P_UDP, 0)].k.method, CSC_M_COMPLETE);
    ASSERT_PASSES(1);
    ck_assert_uint_eq(R.kernel.sw_bytes, 1008);
}
END_TEST

/* A capture without a link header (DLT_RAW): the fragment's IPv4 header is
 * layer 0, and its fragments reassemble as they do behind Ethernet. */
START_TEST(ipv4_fragments_as_layer_0_reassemble)
{
    static struct csc_frag_table t;
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    csc_frag_init(&t);
    for (int k = 0; k < 3; k++) {
        run_bytes(fb[k] + 14, fl[k] - 14, fl[k] - 14, CSC_LINK_RAW);
        ck_assert_int_eq(R.layers[0].proto, CSC_P_IPV4);
        ck_assert(R.layers[0].notes & CSC_N_FRAGMENT);
        struct csc_frame fr = { fb[k] + 14, (uint32_t)fl[k] - 14, (uint32_t)fl[k] - 14, CSC_LINK_RAW, 0 };
        ck_assert_int_eq(csc_frag_feed(&t, &fr, &R, (uint64_t)k + 1), k == 2);
    }
    ck_assert_uint_eq(t.completed, 1);
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
    ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
}
END_TEST

/* A datagram whose IP header is all it has the decoder follow (protocol
 * 253, no handler): reassembled, it is replayed all the same -
 * ip_local_deliver_finish drops it, IP_NOPROTO, IpInUnknownProtos. */
START_TEST(ipv4_datagram_of_an_unknown_protocol_replayed)
{
    static struct csc_frag_table t;
    static uint8_t store[CSC_FRAG_STORE_BYTES];
    cfg_set("none", "modern");
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV4);
    ip->frag = 0;
    ip->ip_id = 0x2810;
    ip->proto = 253;
    pb_push(&f, PB_PAYLOAD)->len = 1000;
    run(&f);
    fn = 0;
    ck_assert_int_eq(pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 400, take, NULL), 3);
    csc_frag_init(&t);
    csc_frag_attach(&t, &CFG, store);
    for (int k = 0; k < 3; k++)
        feed(&t, k, k + 1);
    ck_assert_uint_eq(t.completed, 1);
    ck_assert(R.kernel.ran);
    if (R.kernel.verdict != CSC_K_DROP)
        dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_NOPROTO");
    ck_assert(has_counter(CSC_C_IP_IN_UNKNOWN_PROTOS));
}
END_TEST

/* ip_frag_queue: a fragment with MF and fewer than 8 payload bytes is
 * rounded to nothing (end == offset): discard_qp kills the queue (v6.12).
 * The frame is dropped with no counter of the model's (ReasmFails), and the
 * datagram's other fragments never complete. */
START_TEST(ipv4_fragment_rounded_to_nothing)
{
    static struct csc_frag_table t;
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    /* a fourth fragment: offset 400, MF, 5 payload bytes */
    memcpy(fb[3], fb[1], 14 + 20 + 5);
    fl[3] = 14 + 20 + 5;
    be16_at(fb[3] + 14 + 2, 25);
    ip4_recheck(fb[3]);
    run_bytes(fb[3], fl[3], fl[3], CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 0);
    ck_assert_int_ge(find_step("ip_defrag", "drop"), 0);
    csc_frag_init(&t);
    feed(&t, 0, 1);
    feed(&t, 3, 2);                       /* kills the queue with the first fragment */
    feed(&t, 1, 3);
    feed(&t, 2, 4);
    ck_assert_uint_eq(t.completed, 0);
}
END_TEST

/* An IPv6/UDP frame whose fragment header says offset 0, M, with 8 + paylen
 * bytes after it */
static size_t ipv6_first_fragment(uint16_t paylen)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV6);
    ip->v6_ext = PB_X_FRAG;
    ip->frag = 1;                         /* offset 0, M */
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = paylen;
    run(&f);
    return FRAME_LEN;
}

/* Finding 10: a first fragment of 8 + 65 bytes (not a multiple of 8).
 * ip6_frag_queue (net/ipv6/reassembly.c, v6.12 and v6.1) sets
 * prob_offset; ipv6_frag_rcv counts Ip6InHdrErrors and sends a parameter
 * problem; the fragment is never queued. The model queued it. 8 + 64
 * bytes is queued as before. */
START_TEST(ipv6_fragment_not_rounded)
{
    static struct csc_frag_table t;
    cfg_set("none", "modern");
    size_t n = ipv6_first_fragment(65);
    ck_assert(R.layers[1].notes & CSC_N_FRAGMENT);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 1);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_HDR_ERRORS);
    ck_assert_int_ge(find_step("ipv6_frag_rcv", "drop"), 0);
    csc_frag_init(&t);
    struct csc_frame fr = { FRAME, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
    ck_assert(!csc_frag_feed(&t, &fr, &R, 1));
    ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS);             /* nothing queued */
    n = ipv6_first_fragment(64);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_int_ge(find_step("ip_defrag", "queued-for-reassembly"), 0);
    struct csc_frame fr2 = { FRAME, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(&t, &fr2, &R, 2);
    ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS - 1);
}
END_TEST

/* ipv6_frag_rcv's first-fragment check (ipv6frag_thdr_truncated,
 * include/net/ipv6_frag.h v6.12) wants 8 bytes of a UDP header (20 of TCP,
 * 8 of ICMPv6) but 1 byte of any other next header: a first fragment of 4
 * bytes of "no next header" (59) passes it and meets ip6_frag_queue's
 * rounding (4 not a multiple of 8, parameter problem); with UDP (17) it
 * is the truncated-header parameter problem. Both Ip6InHdrErrors. */
START_TEST(ipv6_first_fragment_header_need_by_protocol)
{
    static const struct { uint8_t next; const char *why; } t[] = {
        { 59, "NOT_SPECIFIED (fragment not a multiple of 8: parameter problem)" },
        { 17, "NOT_SPECIFIED (first fragment without the upper-layer header: parameter problem)" },
    };
    for (unsigned i = 0; i < 2; i++) {
        struct pb_frame f;
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV6);
        ip->v6_ext = PB_X_FRAG;
        ip->frag = 1;                     /* offset 0, M */
        pb_push(&f, PB_UDP);
        cfg_set("none", "modern");
        run(&f);
        ck_assert_uint_eq(FRAME_LEN, 14 + 40 + 8 + 8);
        FRAME[54] = t[i].next;            /* the fragment header's next header */
        be16_at(&FRAME[18], 8 + 4);       /* 4 bytes after the fragment header */
        run_bytes(FRAME, 14 + 40 + 8 + 4, 14 + 40 + 8 + 4, CSC_LINK_ETHERNET);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, 1);
        ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_HDR_ERRORS);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), t[i].why);
    }
}
END_TEST

/* A destination options header before the fragment header (RFC 8200 4.1
 * order): the byte store finds the fragment header behind it, as
 * ipv6_frag_rcv's walk does, and rebuilds the datagram. The second
 * fragment is the first again at offset 72, last: 144 bytes, which
 * __udp6_lib_rcv trims to the UDP length (72) the checksum covers */
START_TEST(ipv6_fragment_behind_destination_options)
{
    static struct csc_frag_table t;
    cfg_set("none", "modern");
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV6);
    ip->v6_ext = PB_X_DST | PB_X_FRAG;
    ip->frag = 1;                         /* offset 0, M */
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 64;
    run(&f);
    ck_assert(R.layers[1].notes & CSC_N_FRAGMENT);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    static uint8_t store[CSC_FRAG_STORE_BYTES], second[200];
    csc_frag_init(&t);
    csc_frag_attach(&t, &CFG, store);
    ck_assert_uint_le(FRAME_LEN, sizeof second);
    size_t n = FRAME_LEN;
    memcpy(second, FRAME, n);
    struct csc_frame fr = { FRAME, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(&t, &fr, &R, 1);
    ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS - 1);
    be16_at(second + 14 + 40 + 8 + 2, 72);              /* offset 72 (9 units), last */
    run_bytes(second, n, n, CSC_LINK_ETHERNET);
    struct csc_frame f2 = { second, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(&t, &f2, &R, 2);
    ck_assert_uint_eq(t.completed, 1);
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
    ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);      /* trimmed to its UDP length 72 */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_int_eq(R.kernel.drop_layer, CSC_NO_LAYER);    /* accepted: no layer named */
    ck_assert_uint_eq(R.kernel.sw_bytes, 72);
}
END_TEST

/* Finding 14: a 65,528-byte IPv6/UDP datagram (UDP header + 65,520 bytes)
 * whose UDP length says 257, cut into fragments of 1,232. The UDP checksum
 * the builder wrote covers the whole datagram; __udp6_lib_rcv
 * (net/ipv6/udp.c, v6.12) trims the skb to the UDP length
 * (pskb_trim_rcsum) and checks those 257 bytes: bad, as tshark says. The
 * model kept a 32-byte tail to take off and called it unverifiable with
 * field 0x0000. */
static uint8_t big[60][1400];
static size_t bigl[60];

static struct sink big_sink = { &big[0][0], sizeof big[0], bigl, 60, 0 };

START_TEST(ipv6_udp_length_trims_a_big_datagram)
{
    static struct csc_frag_table t;
    static uint8_t store[CSC_FRAG_STORE_BYTES];
    struct pb_frame f;
    for (int with_store = 1; with_store >= 0; with_store--) {
        cfg_set("none", "modern");
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV6);
        pb_push(&f, PB_UDP)->len_override = 257;
        pb_push(&f, PB_PAYLOAD)->len = 65520;
        run(&f);
        ck_assert_uint_eq(FRAME_LEN, 14 + 40 + 65528);
        uint16_t field = (uint16_t)(FRAME[14 + 40 + 6] << 8 | FRAME[14 + 40 + 7]);
        /* what the checksum over the 257 bytes the kernel keeps should be */
        uint32_t s = 0;
        for (int i = 0; i < 32; i += 2)                   /* the addresses */
            s += (uint32_t)FRAME[14 + 8 + i] << 8 | FRAME[14 + 8 + i + 1];
        s += 17 + 257;
        for (int i = 0; i < 257; i += 2) {
            if (i == 6)
                continue;
            s += (uint32_t)FRAME[14 + 40 + i] << 8 | (i + 1 < 257 ? FRAME[14 + 40 + i + 1] : 0);
        }
        while (s >> 16)
            s = (s & 0xffff) + (s >> 16);
        uint16_t want = (uint16_t)~s;
        ck_assert_uint_ne(want, field);
        big_sink.n = 0;
        int n = pb_fragment_ipv6(FRAME, FRAME_LEN, 14, 1232, 0x1428, take_into, &big_sink);
        ck_assert_int_eq(n, 54);
        ck_assert_int_eq(big_sink.n, 54);
        csc_frag_init(&t);
        if (with_store)
            csc_frag_attach(&t, &CFG, store);
        for (int k = 0; k < n; k++) {
            run_bytes(big[k], bigl[k], bigl[k], CSC_LINK_ETHERNET);
            struct csc_frame fr = { big[k], (uint32_t)bigl[k], (uint32_t)bigl[k], CSC_LINK_ETHERNET, 0 };
            ck_assert(csc_frag_feed(&t, &fr, &R, (uint64_t)k + 1) == (k == n - 1));
        }
        int u = lay(CSC_P_UDP, 0);
        if (R.layers[u].verdict != CSC_V_BAD)
            dump_result();
        ck_assert_int_eq(R.layers[u].verdict, CSC_V_BAD);
        ck_assert_uint_eq(R.layers[u].field, field);
        ck_assert_uint_eq(R.layers[u].expected, want);
    }
}
END_TEST

/* ---- the queue killed (issue 28: fr4-3, fr4-6, fr4-10, fr6-8, fr6-9) ---- */

static uint8_t xb[4][2000];
static struct csc_frag_table kt;
static uint8_t kstore[CSC_FRAG_STORE_BYTES];

/* a table keeping the bytes: the completed datagram is replayed */
static struct csc_frag_table *table(void)
{
    csc_frag_init(&kt);
    csc_frag_attach(&kt, &CFG, kstore);
    return &kt;
}
static size_t xl[4];

/* Fragment x of the datagram ipv4_datagram() cut: the Ethernet and IPv4
 * headers of fb[0], `len` payload bytes from offset `off` of the datagram's
 * payload, MF as `more` */
static void piece(int x, uint32_t off, uint32_t len, int more)
{
    static uint8_t pay[1100];
    memcpy(pay, fb[0] + 34, 400);
    memcpy(pay + 400, fb[1] + 34, 400);
    memcpy(pay + 800, fb[2] + 34, fl[2] - 34);
    memcpy(xb[x], fb[0], 34);
    memcpy(xb[x] + 34, pay + off, len);
    xl[x] = 34 + len;
    be16_at(xb[x] + 14 + 2, (uint16_t)(20 + len));
    be16_at(xb[x] + 14 + 6, (uint16_t)((more ? 0x2000 : 0) | off / 8));
    ip4_recheck(xb[x]);
}

static void feed_x(struct csc_frag_table *t, int x, int frame_no)
{
    run_bytes(xb[x], xl[x], xl[x], CSC_LINK_ETHERNET);
    struct csc_frame fr = { xb[x], (uint32_t)xl[x], (uint32_t)xl[x], CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(t, &fr, &R, (uint64_t)frame_no);
}

/* the frame just fed was dropped at ip_defrag with the queue: the reason's
 * name, the step */
static void assert_killed(const char *why)
{
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, 1);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), why);
    ck_assert_int_ge(find_step("ip_defrag", "drop"), 0);
    ck_assert_int_lt(find_step("ip_defrag", "queued-for-reassembly"), 0);
}

#define BAD_END "NOT_SPECIFIED (fragment end past or short of the last: queue killed)"
#define OVERLAP "NOT_SPECIFIED (overlapping fragment: queue killed)"

/* the datagram fb[0..2] completes by the frame just fed, checksum good */
static void assert_completed(const struct csc_frag_table *t, uint64_t n)
{
    ck_assert_uint_eq(t->completed, n);
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
    ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
}

/* fr4-3: ip_frag_queue (v6.12, 7.2.13): a last fragment ending below what
 * the queue has (800) kills it (discard_qp); the fragment it held died with
 * it, so the other two do not complete the datagram until it comes again.
 * The model took the short last as a duplicate and completed the datagram
 * from fb[0] and fb[2]. */
START_TEST(ipv4_last_ending_below_the_queue)
{
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 400, 200, 0);                /* [400, 600), last */
    struct csc_frag_table *tp = table();
    feed(tp, 1, 1);                       /* [400, 800), MF */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    feed_x(tp, 0, 2);
    assert_killed(BAD_END);
    ck_assert_uint_eq(tp->dropped, 1);
    ck_assert_uint_eq(tp->overlaps, 0);
    ck_assert_int_eq(tp->nfree, CSC_FRAG_SLOTS);
    feed(tp, 0, 3);
    feed(tp, 2, 4);
    ck_assert_uint_eq(tp->completed, 0);
    feed(tp, 1, 5);
    assert_completed(tp, 1);
}
END_TEST

/* The edge of the rule above: a last fragment ending at the queue's 800
 * ([600, 800) inside the held [400, 800)) passes ip_frag_queue's end check
 * and sets INET_FRAG_LAST_IN with the length 800 before the insert finds it
 * a duplicate (dropped alone); [0, 400) then completes an 800-byte
 * datagram, whose UDP length (1,008) is longer than its data */
START_TEST(ipv4_last_ending_at_the_queue_end)
{
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 600, 200, 0);                /* [600, 800), last */
    struct csc_frag_table *tp = table();
    feed(tp, 1, 1);                       /* [400, 800), MF */
    feed_x(tp, 0, 2);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);   /* not a bad end */
    ck_assert_uint_eq(tp->dropped, 0);
    ck_assert_int_eq(tp->nfree, CSC_FRAG_SLOTS - 1);
    feed(tp, 0, 3);
    ck_assert_uint_eq(tp->completed, 1);
    int u = lay(CSC_P_UDP, 0);
    ck_assert_int_eq(R.layers[u].reason, CSC_R_LEN_MISMATCH);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert(has_counter(CSC_C_UDP_IN_ERRORS));
    /* the datagram's steps keep their layers (frag.c maps them back) */
    int d = find_step("ip_defrag", "reassembled"), s = find_step("__udp4_lib_rcv", "short-packet");
    ck_assert_int_ge(d, 0);
    ck_assert_int_ge(s, 0);
    ck_assert_int_eq(R.kernel.steps[d].layer, 1);
    ck_assert_int_eq(R.kernel.steps[s].layer, u);
}
END_TEST

/* fr4-3: a second last fragment with another end (1,000, not 1,008) kills
 * the queue; the model took it as a duplicate of the first last. */
START_TEST(ipv4_second_last_with_another_end)
{
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 800, 200, 0);                /* [800, 1000), last */
    struct csc_frag_table *tp = table();
    feed(tp, 2, 1);                       /* [800, 1008), last */
    feed_x(tp, 0, 2);
    assert_killed(BAD_END);
    ck_assert_uint_eq(tp->dropped, 1);
    feed(tp, 0, 3);
    feed(tp, 1, 4);
    ck_assert_uint_eq(tp->completed, 0);
    ck_assert_int_eq(tp->nfree, CSC_FRAG_SLOTS - 1);
    feed(tp, 2, 5);
    assert_completed(tp, 1);
}
END_TEST

/* fr4-6: with a last fragment in ([400, 600): the datagram ends at 600), a
 * fragment with more to come ending at 800 kills the queue. The model
 * called it an overlap and, with the first and the real last, reported the
 * datagram unverifiable (frag-overlap). */
START_TEST(ipv4_more_fragments_beyond_the_last)
{
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 400, 200, 0);
    struct csc_frag_table *tp = table();
    feed_x(tp, 0, 1);
    feed(tp, 1, 2);                       /* [400, 800), MF */
    assert_killed(BAD_END);
    ck_assert_uint_eq(tp->overlaps, 0);
    feed(tp, 0, 3);
    feed(tp, 2, 4);
    ck_assert_uint_eq(tp->completed, 0);
    feed(tp, 1, 5);
    assert_completed(tp, 1);
}
END_TEST

/* fr4-10: inet_frag_queue_insert (v6.12, 7.2.13): [200, 600) over the held
 * [0, 400) is IPFRAG_OVERLAP: the queue is killed (IpReasmOverlaps,
 * IpReasmFails). The model marked the overlap and reported the datagram
 * unverifiable when fb[1] and fb[2] came. */
START_TEST(ipv4_overlap_kills_the_queue)
{
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 200, 400, 1);
    struct csc_frag_table *tp = table();
    feed(tp, 0, 1);
    feed_x(tp, 0, 2);
    assert_killed(OVERLAP);
    ck_assert_uint_eq(tp->overlaps, 1);
    ck_assert_uint_eq(tp->dropped, 0);
    feed(tp, 1, 3);
    feed(tp, 2, 4);
    ck_assert_uint_eq(tp->completed, 0);
    for (int i = 0; i < R.nlayers; i++)
        ck_assert_int_ne(R.layers[i].reason, CSC_R_FRAG_OVERLAP);
    feed(tp, 0, 5);
    assert_completed(tp, 1);
}
END_TEST

/* fr4-9 / fr4-10: runs. Fragments fed out of order are runs of their own
 * (the rbtree insert), never merged: [400, 800) over the runs [400, 600)
 * and [600, 800) is an overlap although every byte of it is held. A
 * fragment appended at the end joins the last run (fragrun_append_to_last):
 * [200, 600) inside the run [0, 400) + [400, 600) is a duplicate. The
 * model merged ranges: the first a duplicate, the datagram completed. */
START_TEST(ipv4_runs_decide_duplicate_or_overlap)
{
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 400, 200, 1);                /* [400, 600) */
    piece(1, 600, 200, 1);                /* [600, 800) */
    piece(2, 200, 400, 1);                /* [200, 600) */
    struct csc_frag_table *tp = table();
    feed(tp, 2, 1);                       /* the tail: [800, 1008) */
    feed_x(tp, 1, 2);
    feed_x(tp, 0, 3);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    feed(tp, 1, 4);                       /* [400, 800): two runs */
    assert_killed(OVERLAP);
    feed(tp, 0, 5);
    ck_assert_uint_eq(tp->completed, 0);
    /* in order: [0, 400) then [400, 600) appended: one run */
    tp = table();
    feed(tp, 0, 1);
    feed_x(tp, 0, 2);
    feed_x(tp, 2, 3);                     /* inside the run: a duplicate */
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_uint_eq(tp->overlaps, 0);
    feed_x(tp, 1, 4);
    feed(tp, 2, 5);
    assert_completed(tp, 1);
}
END_TEST

/* fr6-8, fr6-9: ip6_frag_queue (net/ipv6/reassembly.c, v6.12, 7.2.13)
 * kills the queue the same way (discard_fq, Ip6ReasmFails; an overlap
 * IPFRAG_OVERLAP, Ip6ReasmOverlaps): [8, 80) over the held [0, 72), and a
 * last fragment [8, 64), ending below the queue's 72. The model kept the
 * queue. */
START_TEST(ipv6_overlap_and_short_last_kill_the_queue)
{
    static struct csc_frag_table t;
    static uint8_t first[2000], other[2000];
    cfg_set("none", "modern");
    for (int rule = 0; rule < 2; rule++) {
        size_t n = ipv6_first_fragment(64);           /* [0, 72), M */
        ck_assert_uint_le(n, sizeof first);
        memcpy(first, FRAME, n);
        memcpy(other, FRAME, n);
        size_t m = n;
        if (rule == 0) {
            be16_at(other + 14 + 40 + 2, 8 | 1);       /* [8, 80), M */
        } else {
            m = n - 16;                                 /* [8, 64), last */
            be16_at(other + 14 + 4, (uint16_t)(m - 14 - 40));
            be16_at(other + 14 + 40 + 2, 8);
        }
        csc_frag_init(&t);
        run_bytes(first, n, n, CSC_LINK_ETHERNET);
        struct csc_frame f1 = { first, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
        csc_frag_feed(&t, &f1, &R, 1);
        ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS - 1);
        run_bytes(other, m, m, CSC_LINK_ETHERNET);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);   /* alone: queued */
        struct csc_frame f2 = { other, (uint32_t)m, (uint32_t)m, CSC_LINK_ETHERNET, 0 };
        csc_frag_feed(&t, &f2, &R, 2);
        ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), rule == 0 ? OVERLAP : BAD_END);
        ck_assert_uint_eq(t.overlaps, rule == 0 ? 1 : 0);
        ck_assert_uint_eq(t.dropped, rule == 0 ? 0 : 1);
    }
}
END_TEST

/* A fragment the replay drops before ip_defrag (a bad IPv4 header
 * checksum) never reaches the kernel's queue: it kills nothing. */
START_TEST(ipv4_fragment_dropped_before_the_queue_kills_nothing)
{
    static struct csc_frag_table t;
    cfg_set("none", "modern");
    ipv4_datagram(0, 0);
    piece(0, 200, 400, 1);
    xb[0][14 + 10] ^= 0xff;               /* header checksum bad */
    csc_frag_init(&t);
    feed(&t, 0, 1);
    feed_x(&t, 0, 2);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_CSUM");
    ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS - 1);
}
END_TEST

/* fr6-7 by era: after [0, 72) M is queued, [72, 141) M is a parameter
 * problem of ip6_frag_queue (its end not a multiple of 8). 6.12.118 (and
 * the host's 6.18.44, measured) keep the queue: the last fragment [72, 144)
 * completes the datagram. 7.2.13 kills it (inet_frag_kill, Ip6ReasmFails;
 * era IP6_FRAG_PROB_KILLS): the last fragment starts a queue of its own. */
START_TEST(ipv6_parameter_problem_kills_the_queue_on_7_2)
{
    static uint8_t first[2000], bad[2000], last[2000];
    static const char *const eras[] = { "6.12", "modern", "7.2" };
    for (int e = 0; e < 3; e++) {
        int kills = e == 2;
        cfg_set("none", eras[e]);
        size_t n = ipv6_first_fragment(64);           /* [0, 72), M */
        ck_assert_uint_le(n, sizeof first);
        memcpy(first, FRAME, n);
        memcpy(bad, FRAME, n);
        memcpy(last, FRAME, n);
        size_t m = n - 3;                              /* [72, 141), M */
        be16_at(bad + 14 + 4, (uint16_t)(m - 14 - 40));
        be16_at(bad + 14 + 40 + 2, 72 | 1);
        be16_at(last + 14 + 40 + 2, 72);               /* [72, 144), last */
        struct csc_frag_table *t = table();
        run_bytes(first, n, n, CSC_LINK_ETHERNET);
        struct csc_frame f1 = { first, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
        csc_frag_feed(t, &f1, &R, 1);
        ck_assert_int_eq(t->nfree, CSC_FRAG_SLOTS - 1);
        run_bytes(bad, m, m, CSC_LINK_ETHERNET);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_HDR_ERRORS);
        struct csc_frame f2 = { bad, (uint32_t)m, (uint32_t)m, CSC_LINK_ETHERNET, 0 };
        ck_assert(!csc_frag_feed(t, &f2, &R, 2));
        ck_assert_int_eq(t->nfree, kills ? CSC_FRAG_SLOTS : CSC_FRAG_SLOTS - 1);
        run_bytes(last, n, n, CSC_LINK_ETHERNET);
        struct csc_frame f3 = { last, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
        ck_assert(csc_frag_feed(t, &f3, &R, 3) == !kills);
        ck_assert_uint_eq(t->completed, kills ? 0 : 1);
        ck_assert_int_eq(t->nfree, CSC_FRAG_SLOTS - kills);
        if (!kills)
            ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    }
}
END_TEST


/* ---- ip_frag_reasm / ip6_frag_reasm refuse the datagram (issue 28: fr4-12, fr4-13,
 * fr6-11, fr6-13) ---- */

#define ECN_MIX "NOT_SPECIFIED (fragments mix Not-ECT with ECT or CE: queue killed)"
#define OVERSIZE "NOT_SPECIFIED (reassembled datagram over 65535: queue killed)"

/* the ECN field of the IPv4 fragment at 14 (tos & 3), header checksum again */
static void set_tos_ecn(uint8_t *b, uint8_t ecn)
{
    b[14 + 1] = (uint8_t)((b[14 + 1] & ~3u) | ecn);
    ip4_recheck(b);
}

/* fr4-12: ip_frag_reasm (net/ipv4/ip_fragment.c, v6.12) looks the queue's
 * ECN bits up in ip_frag_ecn_table (net/ipv4/inet_fragment.c): Not-ECT with
 * ECT_0 is 0xff, out_fail (IpReasmFails), the queue already killed. The
 * model completed the datagram. ECT_0 with ECT_1, or all ECT_0, completes. */
START_TEST(ipv4_ecn_mix_fails_the_reassembly)
{
    static const struct { uint8_t ecn[3]; int fails; } t[] = {
        { { 0, 2, 0 }, 1 }, { { 2, 2, 0 }, 1 }, { { 3, 0, 3 }, 1 }, { { 2, 1, 2 }, 0 },
        { { 2, 2, 3 }, 0 }, { { 0, 0, 0 }, 0 },
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        cfg_set("none", "modern");
        ipv4_datagram(0, 0);
        for (int k = 0; k < 3; k++)
            set_tos_ecn(fb[k], t[i].ecn[k]);
        struct csc_frag_table *tp = table();
        feed(tp, 0, 1);
        feed(tp, 1, 2);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
        feed(tp, 2, 3);
        ck_assert_int_eq(tp->nfree, CSC_FRAG_SLOTS);
        if (t[i].fails) {
            assert_killed(ECN_MIX);
            ck_assert_uint_eq(tp->completed, 0);
            ck_assert_uint_eq(tp->dropped, 1);
        } else {
            assert_completed(tp, 1);
            ck_assert_uint_eq(tp->dropped, 0);
        }
    }
}
END_TEST

/* fr6-13: ip6_frag_reasm (net/ipv6/reassembly.c, v6.12) has the same
 * check over the traffic class's ECN bits: [0, 72) ECT_0, then [72, 144)
 * Not-ECT fails (Ip6ReasmFails); both ECT_0 completes. */
START_TEST(ipv6_ecn_mix_fails_the_reassembly)
{
    static uint8_t first[2000], last[2000];
    for (int mix = 0; mix < 2; mix++) {
        cfg_set("none", "modern");
        size_t n = ipv6_first_fragment(64);           /* [0, 72), M */
        ck_assert_uint_le(n, sizeof first);
        memcpy(first, FRAME, n);
        memcpy(last, FRAME, n);
        first[14 + 1] |= 0x20;                         /* traffic class ECT_0 */
        if (!mix)
            last[14 + 1] |= 0x20;
        be16_at(last + 14 + 40 + 2, 72);               /* [72, 144), last */
        struct csc_frag_table *t = table();
        run_bytes(first, n, n, CSC_LINK_ETHERNET);
        struct csc_frame f1 = { first, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
        csc_frag_feed(t, &f1, &R, 1);
        run_bytes(last, n, n, CSC_LINK_ETHERNET);
        struct csc_frame f2 = { last, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
        ck_assert(csc_frag_feed(t, &f2, &R, 2) == !mix);
        ck_assert_int_eq(t->nfree, CSC_FRAG_SLOTS);
        ck_assert_uint_eq(t->completed, mix ? 0 : 1);
        ck_assert_uint_eq(t->dropped, mix ? 1 : 0);
        ck_assert_int_eq(R.kernel.verdict, mix ? CSC_K_DROP : CSC_K_ACCEPT);
        if (mix)
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), ECN_MIX);
    }
}
END_TEST

/* fr4-12, what passes: ip_frag_reasm ORs the table's CE into the rebuilt
 * header (`iph->tos |= ecn`). A VXLAN datagram fragmented as ECT_0, CE
 * over a Not-ECT inner packet is CE when vxlan_rcv decapsulates it:
 * dropped (IP_TUNNEL_ECN). The model kept the head's ECT_0: delivered. */
static uint8_t vx[2][200];
static size_t vxl[2];

static struct sink vx_sink = { &vx[0][0], sizeof vx[0], vxl, 2, 0 };

START_TEST(ipv4_ecn_ce_reaches_the_reassembled_header)
{
    for (int ce = 0; ce < 2; ce++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_VXLAN);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_TCP);
        pb_push(&f, PB_PAYLOAD)->len = 40;
        cfg_set("none", "6.12");
        run(&f);
        vx_sink.n = 0;
        ck_assert_int_eq(pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 64, take_into, &vx_sink), 2);
        set_tos_ecn(vx[0], 2);                         /* ECT_0 */
        set_tos_ecn(vx[1], ce ? 3 : 2);                /* CE, or ECT_0 */
        struct csc_frag_table *t = table();
        for (int k = 0; k < 2; k++) {
            run_bytes(vx[k], vxl[k], vxl[k], CSC_LINK_ETHERNET);
            struct csc_frame fr = { vx[k], (uint32_t)vxl[k], (uint32_t)vxl[k], CSC_LINK_ETHERNET, 0 };
            ck_assert(csc_frag_feed(t, &fr, &R, (uint64_t)k + 1) == (k == 1));
        }
        ck_assert_uint_eq(t->completed, 1);
        if (R.kernel.verdict != (ce ? CSC_K_DROP : CSC_K_ACCEPT))
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, ce ? CSC_K_DROP : CSC_K_ACCEPT);
        if (ce) {
            ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_TUNNEL_ECN");
            ck_assert_uint_eq(R.kernel.counters,
                              counters_of(CSC_C_DEV_RX_FRAME_ERRORS, CSC_C_DEV_RX_ERRORS));
        }
    }
}
END_TEST

/* Two fragments of one IPv4/UDP datagram at huge[]: [0, 65512) and the
 * rest */
static uint8_t huge[2][66000];
static size_t hugel[2];

static struct sink huge_sink = { &huge[0][0], sizeof huge[0], hugel, 2, 0 };

static void feed_huge(struct csc_frag_table *t, int k, int frame_no)
{
    run_bytes(huge[k], hugel[k], hugel[k], CSC_LINK_ETHERNET);
    struct csc_frame fr = { huge[k], (uint32_t)hugel[k], (uint32_t)hugel[k], CSC_LINK_ETHERNET, 0 };
    csc_frag_feed(t, &fr, &R, (uint64_t)frame_no);
}

/* fr4-13: ip_frag_queue (v6.12) bounds no IPv4 fragment's end; ip_frag_reasm
 * does: the head's header (20) + q.len over 65535 is out_oversize,
 * out_fail (IpReasmFails). A 65,515-byte payload (total length 65,535)
 * completes; one byte more in the last fragment, or a last fragment ending
 * beyond the byte store (65,552), fails the same way with or without the
 * store. The model completed them from the sums. */
START_TEST(ipv4_reassembled_over_65535_fails)
{
    static const uint32_t last_len[] = { 3, 4, 40 };
    for (unsigned i = 0; i < 3; i++)
        for (int with_store = 1; with_store >= 0; with_store--) {
            int fails = last_len[i] > 3;
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            struct pb_layer *ip = pb_push(&f, PB_IPV4);
            ip->ip_id = 0x2813;
            pb_push(&f, PB_UDP);
            pb_push(&f, PB_PAYLOAD)->len = 65507;
            cfg_set("none", "modern");
            run(&f);
            ck_assert_uint_eq(FRAME_LEN, 14 + 65535);
            huge_sink.n = 0;
            ck_assert_int_eq(pb_fragment_ipv4(FRAME, FRAME_LEN, 14, 65512, take_into, &huge_sink), 2);
            ck_assert_uint_eq(hugel[1], 14 + 20 + 3);
            memset(huge[1] + 37, 0x5a, last_len[i] - 3);   /* the last made longer */
            hugel[1] = 34 + last_len[i];
            be16_at(huge[1] + 14 + 2, (uint16_t)(20 + last_len[i]));
            ip4_recheck(huge[1]);
            static struct csc_frag_table t;
            csc_frag_init(&t);
            if (with_store)
                csc_frag_attach(&t, &CFG, kstore);
            feed_huge(&t, 0, 1);
            ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
            feed_huge(&t, 1, 2);
            ck_assert_int_eq(t.nfree, CSC_FRAG_SLOTS);
            ck_assert_uint_eq(t.completed, fails ? 0 : 1);
            ck_assert_uint_eq(t.dropped, fails ? 1 : 0);
            if (fails) {
                assert_killed(OVERSIZE);
            } else {
                int u = lay(CSC_P_UDP, 0);
                ck_assert_int_eq(R.layers[u].reason, CSC_R_FRAG_REASSEMBLED);
                ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
            }
        }
}
END_TEST

/* fr6-11: ip6_frag_queue (v6.12) refuses a fragment ending past 65535,
 * counting only what follows the fragment header; ip6_frag_reasm adds the
 * unfragmentable part: 8 bytes of destination options + q.len 65,528 is a
 * payload of 65,536, over IPV6_MAXPLEN: out_oversize, Ip6ReasmFails. With
 * q.len 65,520 it is 65,528 and the datagram completes. */
START_TEST(ipv6_reassembled_payload_over_65535_fails)
{
    static uint8_t first[66000], last[200];
    for (int fails = 0; fails < 2; fails++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV6);
        ip->v6_ext = PB_X_DST | PB_X_FRAG;
        ip->frag = 1;                                  /* offset 0, M */
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 65504;          /* 65,512 after the fragment header */
        cfg_set("none", "modern");
        run(&f);
        ck_assert_uint_eq(FRAME_LEN, 14 + 40 + 8 + 8 + 65512);
        ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
        size_t n = FRAME_LEN, m = 14 + 40 + 16 + (fails ? 16 : 8);
        memcpy(first, FRAME, n);
        memcpy(last, FRAME, m);
        be16_at(last + 14 + 4, (uint16_t)(m - 14 - 40));
        be16_at(last + 14 + 40 + 8 + 2, 65512);        /* offset 65,512, last */
        struct csc_frag_table *t = table();
        struct csc_frame f1 = { first, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, 0 };
        csc_frag_feed(t, &f1, &R, 1);
        run_bytes(last, m, m, CSC_LINK_ETHERNET);
        struct csc_frame f2 = { last, (uint32_t)m, (uint32_t)m, CSC_LINK_ETHERNET, 0 };
        csc_frag_feed(t, &f2, &R, 2);
        ck_assert_int_eq(t->nfree, CSC_FRAG_SLOTS);
        ck_assert_uint_eq(t->completed, fails ? 0 : 1);
        ck_assert_uint_eq(t->dropped, fails ? 1 : 0);
        /* the frame itself: ipv6_frag_checks (core/replay/defrag.c) cannot
         * tell the destination options before the fragment header from
         * headers after it, which would count in the end: unknown, so the
         * kill leaves its verdict alone */
        ck_assert_int_eq(R.kernel.verdict, fails ? CSC_K_UNKNOWN : CSC_K_ACCEPT);
    }
}
END_TEST

Suite *frag_rules_suite(void);
Suite *frag_rules_suite(void)
{
    Suite *s = suite_create("frag_rules");
    TCase *t = tcase_create("ip_frag_queue");
    tcase_add_test(t, ipv4_fragment_rounded_down);
    tcase_add_test(t, ipv4_fragments_as_layer_0_reassemble);
    tcase_add_test(t, ipv4_datagram_of_an_unknown_protocol_replayed);
    tcase_add_test(t, ipv4_fragment_rounded_to_nothing);
    tcase_add_test(t, ipv6_fragment_not_rounded);
    tcase_add_test(t, ipv6_first_fragment_header_need_by_protocol);
    tcase_add_test(t, ipv6_fragment_behind_destination_options);
    tcase_add_test(t, ipv6_udp_length_trims_a_big_datagram);
    tcase_add_test(t, ipv4_last_ending_below_the_queue);
    tcase_add_test(t, ipv4_second_last_with_another_end);
    tcase_add_test(t, ipv4_last_ending_at_the_queue_end);
    tcase_add_test(t, ipv4_more_fragments_beyond_the_last);
    tcase_add_test(t, ipv4_overlap_kills_the_queue);
    tcase_add_test(t, ipv4_runs_decide_duplicate_or_overlap);
    tcase_add_test(t, ipv6_overlap_and_short_last_kill_the_queue);
    tcase_add_test(t, ipv4_fragment_dropped_before_the_queue_kills_nothing);
    tcase_add_test(t, ipv6_parameter_problem_kills_the_queue_on_7_2);
    tcase_add_test(t, ipv4_ecn_mix_fails_the_reassembly);
    tcase_add_test(t, ipv6_ecn_mix_fails_the_reassembly);
    tcase_add_test(t, ipv4_ecn_ce_reaches_the_reassembled_header);
    tcase_add_test(t, ipv4_reassembled_over_65535_fails);
    tcase_add_test(t, ipv6_reassembled_payload_over_65535_fails);
    suite_add_tcase(s, t);
    return s;
}
