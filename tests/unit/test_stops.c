/*
 * test_stops.c - why decoding ended (issue 24): one generated frame per stop
 * reason, with the layer that carries it, its value and option, the line
 * every face prints, and what the replay does after it (a drop the kernel
 * is known to make, or unknown: never accept a path the decoder could not
 * follow; a tunnel's common port the configuration does not name is a plain
 * port); payloads that carry no packet are no stop.
 */
#include "helpers.h"
#include "proto/decode.h"

struct stop_case {
    const char *name;
    void (*build)(struct pb_frame *f);
    size_t snaplen;          /* 0: the whole frame */
    enum csc_stop reason;
    enum csc_proto proto;    /* the stop's protocol */
    int layer;               /* the layer that carries it (-1: none) */
    const char *text;        /* csc_stop_describe */
    const char *option, *pref;
    enum csc_kverdict verdict;
    const char *drop;        /* csc_drop_name when dropped */
    enum csc_counter counter;   /* the one counter the drop bumps, CSC_C__COUNT: none */
};

static void vxlan_tcp(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void ip_tcp_no_header(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4)->proto = 6; }
static void gre_v2(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_GRE)->gre_flags = 2; pb_push(f, PB_PAYLOAD); }
static void ip_fragment(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4)->frag = 0x0010; pb_push(f, PB_PAYLOAD); }
static void eth_88b5(struct pb_frame *f) { pb_push(f, PB_ETH)->proto = 0x88b5; pb_push(f, PB_PAYLOAD); }
static void gre_88b6(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_GRE)->proto = 0x88b6; pb_push(f, PB_PAYLOAD); }
static void ip_253(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4)->proto = 253; pb_push(f, PB_PAYLOAD); }
static void gue_253(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_GUE)->proto = 253; pb_push(f, PB_PAYLOAD);
}
/* a GUE header claiming 31 words of options that the datagram lacks */
static void gue_short(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_GUE); pb_push(f, PB_PAYLOAD)->len = 4;
    struct pb_patch *p = pb_patch_add(f, 3, PB_PATCH_SET, 0, 1);
    p->mask[0] = 0xff;
    p->val[0] = 0x1f;
}
static void gpe_9(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN_GPE)->proto = 9; pb_push(f, PB_PAYLOAD);
}
static void esp(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_ESP)->spi = 0xabcd; }
static void ccmp(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_GRE); pb_push(f, PB_WLAN)->wlan_prot = 1; pb_push(f, PB_PAYLOAD);
}
static void macsec_enc(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_MACSEC)->macsec_tci = 0x2c; }
static void vxlan_8472(struct pb_frame *f) { vxlan_tcp(f); f->l[2].dport = 8472; }
/* the same port, a payload that does not read as VXLAN (no I flag): data */
static void data_8472(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 8472; pb_push(f, PB_PAYLOAD)->len = 40;
}
static void l2tp_cookie(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4);
    struct pb_layer *l = pb_push(f, PB_L2TPV3);
    l->l2tp_cookie = 8;
    l->l2tp_no_l2spec = 1;
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD);
}
/* no stop: the payload carries no packet, or is data */
static void arp(struct pb_frame *f) { pb_push(f, PB_ETH)->proto = 0x0806; pb_push(f, PB_PAYLOAD)->len = 28; }
static void ospf(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4)->proto = 89; pb_push(f, PB_PAYLOAD); }
static void udp_data(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD); }
/* an ICMP error quoting 8 bytes of TCP: short by nature, no stop */
static void icmp_quote(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_ICMP)->icmp_type = 3;
    pb_push(f, PB_IPV4)->len_override = 576;
    struct pb_layer *r = pb_push(f, PB_RAW);
    memcpy(r->raw, "\x9c\x41\x13\x89\x00\x00\x00\x01", 8);   /* ports and sequence of a TCP header */
    r->len = 8;
}

#define NOC CSC_C__COUNT
static const struct stop_case cases[] = {
    { "truncated", vxlan_tcp, 46, CSC_STOP_TRUNCATED, CSC_P_VXLAN, 2, "truncated vxlan@42", NULL, NULL,
      CSC_K_UNKNOWN, NULL, NOC },
    /* a TCP header the packet does not hold: tcp_v4_rcv's pull fails
     * (core/replay/pull.c), a discard that counts nothing the model has */
    { "malformed", ip_tcp_no_header, 0, CSC_STOP_MALFORMED, CSC_P_TCP, 1, "malformed tcp@34", NULL, NULL,
      CSC_K_DROP, "PKT_TOO_SMALL", NOC },
    /* gue_udp_recv frees a header it cannot pull at its drop label (v6.12):
     * no reason, no counter */
    { "malformed-gue", gue_short, 0, CSC_STOP_MALFORMED, CSC_P_GUE, 2, "malformed gue@42", NULL, NULL,
      CSC_K_DROP, "NOT_SPECIFIED (gue header)", NOC },
    { "unsupported", gre_v2, 0, CSC_STOP_UNSUPPORTED, CSC_P_GRE, 2, "unsupported gre@34", NULL, NULL,
      CSC_K_DROP, "NOT_SPECIFIED (gre flags)", NOC },
    { "fragment", ip_fragment, 0, CSC_STOP_FRAGMENT, CSC_P_IPV4, 1, "fragment ipv4@34", NULL, NULL,
      CSC_K_UNKNOWN, NULL, NOC },
    { "unknown-ethertype", eth_88b5, 0, CSC_STOP_ETHERTYPE, CSC_P_ETH, 0, "unknown-ethertype 0x88b5 eth@0",
      NULL, NULL, CSC_K_UNKNOWN, NULL, NOC },
    { "unknown-ethertype-gre", gre_88b6, 0, CSC_STOP_ETHERTYPE, CSC_P_GRE, 2, "unknown-ethertype 0x88b6 gre@34",
      NULL, NULL, CSC_K_DROP, "UNHANDLED_PROTO", CSC_C_DEV_RX_DROPPED },
    { "unknown-ipproto", ip_253, 0, CSC_STOP_IPPROTO, CSC_P_IPV4, 1, "unknown-ipproto 253 ipv4@14", NULL, NULL,
      CSC_K_DROP, "IP_NOPROTO", CSC_C_IP_IN_UNKNOWN_PROTOS },
    { "unknown-ipproto-gue", gue_253, 0, CSC_STOP_IPPROTO, CSC_P_GUE, 3, "unknown-ipproto 253 gue@42", NULL,
      NULL, CSC_K_DROP, "IP_NOPROTO", CSC_C_IP_IN_UNKNOWN_PROTOS },
    { "unknown-next", gpe_9, 0, CSC_STOP_NEXT, CSC_P_VXLAN_GPE, 3, "unknown-next 0x9 vxlan-gpe@42", NULL, NULL,
      CSC_K_DROP, "NOT_SPECIFIED (vxlan-gpe next protocol)", NOC },
    { "encrypted-esp", esp, 0, CSC_STOP_ENCRYPTED, CSC_P_ESP, 2, "encrypted 0xabcd esp@54", NULL, NULL,
      CSC_K_UNKNOWN, NULL, NOC },
    { "encrypted-wlan", ccmp, 0, CSC_STOP_ENCRYPTED, CSC_P_WLAN, 3, "encrypted wlan@38", NULL, NULL,
      CSC_K_DROP, "UNHANDLED_PROTO", CSC_C_DEV_RX_DROPPED },
    /* macsec_handle_frame: the receiver's SecY decides (not modelled) */
    { "encrypted-macsec", macsec_enc, 0, CSC_STOP_ENCRYPTED, CSC_P_MACSEC, 1, "encrypted macsec@14", NULL, NULL,
      CSC_K_UNKNOWN, NULL, NOC },
    { "needs-option-port", vxlan_8472, 0, CSC_STOP_NEEDS_OPTION, CSC_P_UDP, 2,
      "needs-option --vxlan-port 8472 udp@34", "vxlan-port", "vxlan_ports", CSC_K_ACCEPT, NULL, NOC },
    { "needs-option-cookie", l2tp_cookie, 0, CSC_STOP_NEEDS_OPTION, CSC_P_L2TP, 2,
      "needs-option --l2tp-cookie-len 8 l2tp@34", "l2tp-cookie-len", "l2tp_cookie_len", CSC_K_UNKNOWN, NULL,
      NOC },
    { "arp", arp, 0, CSC_STOP_END, CSC_P_NONE, -1, "", NULL, NULL, CSC_K_UNKNOWN, NULL, NOC },
    { "ospf", ospf, 0, CSC_STOP_END, CSC_P_NONE, -1, "", NULL, NULL, CSC_K_ACCEPT, NULL, NOC },
    { "udp-data", udp_data, 0, CSC_STOP_END, CSC_P_NONE, -1, "", NULL, NULL, CSC_K_ACCEPT, NULL, NOC },
    { "udp-8472-data", data_8472, 0, CSC_STOP_END, CSC_P_NONE, -1, "", NULL, NULL, CSC_K_ACCEPT, NULL, NOC },
    { "icmp-quote", icmp_quote, 0, CSC_STOP_END, CSC_P_NONE, -1, "", NULL, NULL, CSC_K_ACCEPT, NULL, NOC },
};

START_TEST(every_reason)
{
    const struct stop_case *c = &cases[_i];
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    c->build(&f);
    cfg_set("none", "modern");
    run(&f);
    if (c->snaplen)
        run_bytes(FRAME, c->snaplen, FRAME_LEN, csc_link_from_linktype(pb_linktype(&f)));
    if (R.stop != c->reason)
        dump_result();
    ck_assert_msg(R.stop == c->reason, "%s: stop %s", c->name, csc_stop_name(R.stop));
    struct csc_stop_info si;
    char text[96];
    csc_stop_get(&R, &si);
    ck_assert_str_eq(csc_stop_describe(&si, text, sizeof text), c->text);
    ck_assert_int_eq(csc_stop_is_finding(R.stop), c->reason != CSC_STOP_END && c->reason != CSC_STOP_FRAGMENT);
    if (c->reason != CSC_STOP_END) {
        ck_assert_msg(R.stop_proto == c->proto, "%s: proto %s", c->name, csc_proto_name(R.stop_proto));
        ck_assert_msg(R.stop_layer == (unsigned)c->layer && R.stop_layer == R.nlayers - 1u,
                      "%s: carried by layer %u of %u", c->name, R.stop_layer, R.nlayers);
    }
    const char *opt = csc_stop_option(&si), *pref = csc_stop_pref(&si);
    ck_assert_msg((opt == NULL) == (c->option == NULL) && (!opt || !strcmp(opt, c->option)), "%s: option %s",
                  c->name, opt ? opt : "(none)");
    ck_assert_msg((pref == NULL) == (c->pref == NULL) && (!pref || !strcmp(pref, c->pref)), "%s: pref %s",
                  c->name, pref ? pref : "(none)");
    /* the replay after it: a drop the kernel is known to make, or unknown */
    const struct csc_kernel *k = &R.kernel;
    enum csc_kverdict v = k->ran ? (enum csc_kverdict)k->verdict : CSC_K_UNKNOWN;
    if (v != c->verdict)
        dump_result();
    ck_assert_msg(v == c->verdict, "%s: kernel %s, want %s", c->name, csc_kverdict_name(v),
                  csc_kverdict_name(c->verdict));
    if (c->drop)
        ck_assert_str_eq(csc_drop_name(k->drop_reason), c->drop);
    /* the counters: the one named, nothing else (no counter: none at all) */
    uint32_t want = c->counter != NOC ? 1u << c->counter : 0;
    ck_assert_msg(k->counters == want, "%s: counters %#x, want %#x", c->name, k->counters, want);
    /* a stop is never accepted, but a port the receiver as configured does
     * not use for a tunnel: a plain socket takes the datagram */
    if (csc_stop_is_finding(R.stop) && !(R.stop == CSC_STOP_NEEDS_OPTION && R.stop_opt == CSC_SO_PORT))
        ck_assert_msg(v != CSC_K_ACCEPT, "%s: accepted after a stop", c->name);
}
END_TEST

/* With the option given, the same frame decodes on */
/* What follows UDP on the VXLAN port cut by the capture: __udp4_lib_rcv
 * completes the checksum first (skb_checksum_complete),
 * then says not modelled - an action step, which sums nothing itself. */
START_TEST(cut_tunnel_not_modelled_step_sums_nothing)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    vxlan_tcp(&f);
    cfg_set("none", "modern");
    run(&f);
    run_bytes(FRAME, 46, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    int s = find_step("__udp4_lib_rcv", "not-modelled");
    if (s < 0)
        dump_result();
    ck_assert_int_ge(s, 0);
    ck_assert_int_eq(R.kernel.steps[s].layer, 2);
    ck_assert_uint_eq(R.kernel.steps[s].bytes, 0);
}
END_TEST

START_TEST(options_lift_the_stop)
{
    struct pb_frame f;
    pb_init(&f);
    vxlan_8472(&f);
    cfg_set("none", "modern");
    ck_assert(csc_config_set_port(&CFG, 8472, CSC_P_VXLAN, 0));
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);

    pb_init(&f);
    l2tp_cookie(&f);
    cfg_set("none", "modern");
    CFG.l2tp_cookie_len = 8;
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    int l = lay(CSC_P_L2TP, 0);
    ck_assert_int_eq(R.layers[l].hdr_len, 12);                  /* session + cookie, no sublayer */
    ck_assert(R.layers[l].notes & CSC_N_L2SPEC_GUESSED);
    ck_assert_int_eq(R.layers[lay(CSC_P_UDP, 0)].verdict, CSC_V_GOOD);
    /* told there is a sublayer, it is not guessed (and here misreads the frame) */
    CFG.l2tp_l2spec_len = 4;
    run(&f);
    ck_assert(!(R.layers[lay(CSC_P_L2TP, 0)].notes & CSC_N_L2SPEC_GUESSED));
    ck_assert_int_eq(R.layers[lay(CSC_P_L2TP, 0)].hdr_len, 16);
}
END_TEST

/* AH's Payload Len at its edge (RFC 4302 2.2, dec_ah): 1 is the 12-byte
 * header with no ICV (NULL integrity), decoded, the UDP after it judged;
 * 0 (8 bytes) is shorter than AH's own fields: malformed */
static void ah_len(uint8_t payload_len)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4)->proto = 51;
    struct pb_layer *a = pb_push(&f, PB_RAW);
    memcpy(a->raw, "\x11\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00\x01", 12);   /* next: UDP */
    a->raw[1] = payload_len;
    a->len = 12;
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 20;
    cfg_set("none", "modern");
    run(&f);
}

START_TEST(ah_payload_len_edges)
{
    ah_len(1);
    int ah = lay(CSC_P_AH, 0);
    ck_assert_int_eq(R.layers[ah].hdr_len, 12);
    ck_assert_int_eq(R.layers[ah].u.ipsec.spi, 0x1000);
    ck_assert_int_eq(lay(CSC_P_UDP, 0), ah + 1);
    ck_assert_int_eq(R.layers[ah + 1].verdict, CSC_V_GOOD);
    ah_len(0);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_AH);
}
END_TEST

/* The decoders of issue 24 and what the replay says after them */
START_TEST(new_encapsulations_replayed)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    /* AH transport mode: the TCP checksum is judged through AH; xfrm decides */
    pb_init(&f);
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_AH)->spi = 0x42;
    pb_push(&f, PB_TCP)->csum = PB_BAD; pb_push(&f, PB_PAYLOAD);
    run(&f);
    int ah = lay(CSC_P_AH, 0);
    ck_assert_int_eq(R.layers[ah].u.ipsec.spi, 0x42);
    ck_assert_int_eq(R.layers[ah].hdr_len, 24);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_BAD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert(find_step("xfrm_input", "not-modelled") >= 0);
    /* AH over IPv6: its own layer after the extension headers */
    pb_init(&f);
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV6)->v6_ext = PB_X_HBH | PB_X_DST; pb_push(&f, PB_AH);
    pb_push(&f, PB_UDP); pb_push(&f, PB_PAYLOAD);
    run(&f);
    ck_assert_int_eq(R.layers[1].hdr_len, 56);                   /* 40 + hop-by-hop + destination */
    ck_assert_int_eq(R.layers[2].proto, CSC_P_AH);
    ck_assert_int_eq(R.layers[3].verdict, CSC_V_GOOD);
    /* Ethernet in IPv6 (143): decoded; delivered locally it has no handler */
    pb_init(&f);
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV6); pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->csum = PB_BAD; pb_push(&f, PB_PAYLOAD);
    run(&f);
    ck_assert_int_eq(R.layers[2].proto, CSC_P_ETH);
    ck_assert_int_eq(R.layers[4].verdict, CSC_V_BAD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "IP_NOPROTO");
    ck_assert(has_counter(CSC_C_IP6_IN_UNKNOWN_PROTOS));
    /* Aruba's 802.11 over GRE: decoded to the inner TCP; the gre device drops it */
    pb_init(&f);
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_GRE)->proto = 0x8370; pb_push(&f, PB_WLAN);
    pb_push(&f, PB_IPV6); pb_push(&f, PB_TCP); pb_push(&f, PB_PAYLOAD);
    run(&f);
    int w = lay(CSC_P_WLAN, 0);
    ck_assert_int_eq(R.layers[w].hdr_len, 34);                   /* QoS data header + SNAP */
    ck_assert_int_eq(R.layers[w].next, 0x86dd);
    ck_assert_int_eq(R.layers[lay(CSC_P_TCP, 0)].verdict, CSC_V_GOOD);
    ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "UNHANDLED_PROTO");
    /* not an Aruba protocol (0x8205): an unknown EtherType */
    f.l[2].proto = 0x8205;
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_ETHERTYPE);
    ck_assert_int_eq(R.stop_value, 0x8205);
}
END_TEST

/* The first stop wins, for a needs-option stop too (dec_stop_option): after
 * a stop without a protocol (a truncated or malformed first byte of a raw
 * link, dec_ip_by_nibble) a later option does not overwrite its value or
 * name an option; on a clean result it sets all of them. */
START_TEST(first_stop_wins_over_an_option)
{
    static struct csc_result r;
    struct dec d;
    memset(&d, 0, sizeof d);
    d.r = &r;
    memset(&r, 0, sizeof r);
    r.stop = CSC_STOP_END;
    r.stop_proto = CSC_P_NONE;
    dec_stop_value(&d, CSC_STOP_MALFORMED, CSC_P_NONE, 0, 7);
    dec_stop(&d, CSC_STOP_TRUNCATED, CSC_P_UDP, 34);          /* nor a plain stop */
    ck_assert_int_eq(r.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(r.stop_proto, CSC_P_NONE);
    ck_assert_uint_eq(r.stop_off, 0);
    dec_stop_option(&d, CSC_SO_PORT, CSC_P_VXLAN, CSC_P_UDP, 34, 4789, true);
    ck_assert_int_eq(r.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(r.stop_proto, CSC_P_NONE);
    ck_assert_uint_eq(r.stop_value, 7);
    ck_assert_int_eq(r.stop_opt, 0);
    ck_assert_int_eq(r.stop_opt_proto, 0);

    memset(&r, 0, sizeof r);
    r.stop = CSC_STOP_END;
    r.stop_proto = CSC_P_NONE;
    dec_stop_option(&d, CSC_SO_PORT, CSC_P_VXLAN, CSC_P_UDP, 34, 4789, true);
    ck_assert_int_eq(r.stop, CSC_STOP_NEEDS_OPTION);
    ck_assert_int_eq(r.stop_proto, CSC_P_UDP);
    ck_assert_uint_eq(r.stop_value, 4789);
    ck_assert_int_eq(r.stop_opt, CSC_SO_PORT);
    ck_assert_int_eq(r.stop_opt_proto, CSC_P_VXLAN);
}
END_TEST

/* 802.11 over GRE: a protocol version other than 0 is a stop naming the
 * version; the SNAP header is taken for both OUIs that carry an EtherType
 * (RFC 1042 00-00-00, 802.1H 00-00-f8) and no other */
/* tcp_v4_rcv (v6.12) on a segment of its 20-byte header alone whose data
 * offset lies: 6 or 15 (past the segment) fail pskb_may_pull (discard,
 * TcpInSegs only), 4 (under 5) is a bad packet (TcpInErrs). (An offset of
 * 5 fits whenever the decoder has the 20 bytes: never lying.) */
START_TEST(tcp_data_offset_lying_both_ways)
{
    static const struct { uint8_t doff; bool errs; } c[] = { { 6, false }, { 15, false }, { 4, true } };
    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        struct pb_frame f;
        cfg_set("none", "6.12");
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_TCP);
        struct pb_patch *pt = pb_patch_add(&f, 2, PB_PATCH_SET, 12, 1);
        pt->mask[0] = 0xf0;
        pt->val[0] = (uint8_t)(c[k].doff << 4);
        run(&f);
        int t = lay(CSC_P_TCP, 0);
        ck_assert(R.layers[t].notes & CSC_N_LEN_SHORT);
        ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
        if (R.kernel.verdict != CSC_K_DROP)
            dump_result();
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), "PKT_TOO_SMALL");
        ck_assert_msg(R.kernel.counters == (c[k].errs ? 1u << CSC_C_TCP_IN_ERRS : 0), "doff %u: counters %#x",
                      c[k].doff, R.kernel.counters);
    }
}
END_TEST

/* A data frame's SNAP header cut by the capture is a truncated stop when
 * the packet holds it (its last byte the IPv4 packet's last, or one more);
 * when the packet itself ends one byte inside it, there is no SNAP header
 * to miss: the MAC header alone, no stop. */
START_TEST(wlan_snap_cut_by_the_capture)
{
    static const struct { int past; enum csc_stop stop; } c[] = {
        { 0, CSC_STOP_TRUNCATED }, { 1, CSC_STOP_TRUNCATED }, { -1, CSC_STOP_END },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct pb_frame f;
        cfg_set("none", "modern");
        pb_init(&f);
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV4);
        pb_push(&f, PB_GRE)->proto = 0x8370;
        pb_push(&f, PB_WLAN);
        pb_push(&f, PB_IPV6); pb_push(&f, PB_TCP); pb_push(&f, PB_PAYLOAD);
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        size_t snap_end = f.off[4];                  /* the MAC header (26) and SNAP (8) */
        ck_assert_uint_eq(snap_end - f.off[3], 34);
        ip->len_override = (uint16_t)(snap_end + (size_t)c[i].past - 14);
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        run_bytes(FRAME, snap_end - 4, FRAME_LEN, CSC_LINK_ETHERNET);
        if (R.stop != c[i].stop)
            dump_result();
        ck_assert_msg(R.stop == c[i].stop, "past %d: stop %s", c[i].past, csc_stop_name(R.stop));
        if (c[i].stop == CSC_STOP_TRUNCATED) {
            ck_assert_int_eq(R.stop_proto, CSC_P_WLAN);
            ck_assert_uint_eq(R.stop_off, f.off[3]);
        } else {
            ck_assert_uint_eq(R.layers[lay(CSC_P_WLAN, 0)].hdr_len, 26);
        }
    }
}
END_TEST

/* A data frame of its MAC header alone (the IPv4 packet ends there): no
 * stop, also as fragment 1 of an MSDU - no body, nothing to reassemble. */
START_TEST(wlan_data_frame_of_its_mac_header_alone)
{
    for (int frag = 0; frag < 2; frag++) {
        struct pb_frame f;
        cfg_set("none", "modern");
        pb_init(&f);
        f.no_pad = 1;
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV4);
        pb_push(&f, PB_GRE)->proto = 0x8370;
        pb_push(&f, PB_WLAN);
        if (frag) {
            struct pb_patch *pt = pb_patch_add(&f, 3, PB_PATCH_SET, 22, 1);   /* sequence control */
            pt->mask[0] = 0x0f;
            pt->val[0] = 0x01;
        }
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        size_t mac_end = f.off[3] + 26;
        ip->len_override = (uint16_t)(mac_end - 14);
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        run_bytes(FRAME, mac_end, mac_end, CSC_LINK_ETHERNET);
        if (R.stop != CSC_STOP_END)
            dump_result();
        ck_assert_msg(R.stop == CSC_STOP_END, "frag %d: stop %s", frag, csc_stop_name(R.stop));
        ck_assert_int_eq(R.nlayers, 4);
        ck_assert_int_eq(R.layers[3].proto, CSC_P_WLAN);
        ck_assert_uint_eq(R.layers[3].hdr_len, 26);
    }
}
END_TEST

START_TEST(wlan_version_and_snap_oui)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_GRE)->proto = 0x8370; pb_push(&f, PB_WLAN);
    pb_push(&f, PB_IPV6); pb_push(&f, PB_TCP); pb_push(&f, PB_PAYLOAD);
    struct pb_patch *pt = pb_patch_add(&f, 3, PB_PATCH_SET, 0, 1);
    pt->val[0] = 0x01;                                          /* frame control: version 1 */
    pt->mask[0] = 0x03;
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_UNSUPPORTED);
    ck_assert_int_eq(R.stop_proto, CSC_P_WLAN);
    ck_assert_uint_eq(R.stop_value, 1);

    static const struct { uint8_t oui[3]; unsigned hdr_len; } ouis[] = {
        { { 0x00, 0x00, 0x00 }, 34 }, { { 0x00, 0x00, 0xf8 }, 34 },
        { { 0x00, 0x00, 0xf9 }, 26 }, { { 0x00, 0x00, 0x01 }, 26 },
    };
    for (unsigned i = 0; i < sizeof ouis / sizeof ouis[0]; i++) {
        f.npatch = 0;
        pt = pb_patch_add(&f, 3, PB_PATCH_SET, 26 + 3, 3);      /* the SNAP OUI after the QoS header */
        memcpy(pt->val, ouis[i].oui, 3);
        run(&f);
        int w = lay(CSC_P_WLAN, 0);
        ck_assert_msg(R.layers[w].hdr_len == ouis[i].hdr_len, "oui %u: hdr_len %u", i,
                      (unsigned)R.layers[w].hdr_len);
        ck_assert_int_eq(R.layers[w].next, ouis[i].hdr_len == 34 ? 0x86dd : 0);
    }
}
END_TEST

Suite *stops_suite(void);
Suite *stops_suite(void)
{
    Suite *s = suite_create("stops");
    TCase *t = tcase_create("stops");
    tcase_add_loop_test(t, every_reason, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(t, options_lift_the_stop);
    tcase_add_test(t, cut_tunnel_not_modelled_step_sums_nothing);
    tcase_add_test(t, new_encapsulations_replayed);
    tcase_add_test(t, ah_payload_len_edges);
    tcase_add_test(t, first_stop_wins_over_an_option);
    tcase_add_test(t, wlan_version_and_snap_oui);
    tcase_add_test(t, wlan_snap_cut_by_the_capture);
    tcase_add_test(t, wlan_data_frame_of_its_mac_header_alone);
    tcase_add_test(t, tcp_data_offset_lying_both_ways);
    suite_add_tcase(s, t);
    return s;
}
