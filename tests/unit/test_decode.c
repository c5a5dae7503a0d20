/*
 * test_decode.c - every decoder: a good frame, every truncation point, and
 * lying lengths. The truncation property: cutting a frame at any byte c
 * keeps every decoded header inside [0, c), ends the stack with
 * "truncated" naming the header that was cut, and turns every checksum whose
 * bytes are missing into unverifiable/snaplen (ASan checks the reads).
 */
#include "helpers.h"

typedef void (*recipe)(struct pb_frame *f);

static void r_udp4(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 30; }
static void r_qinq_tcp(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_QINQ)->vlan = 100; pb_push(f, PB_VLAN)->vlan = 200;
    pb_push(f, PB_IPV4)->ip_opts = 8; pb_push(f, PB_TCP)->mss = 1460; pb_push(f, PB_PAYLOAD)->len = 21;
}
static void r_mpls_icmp(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_MPLS)->label = 16; pb_push(f, PB_MPLS)->label = 17;
    pb_push(f, PB_IPV4); pb_push(f, PB_ICMP); pb_push(f, PB_PAYLOAD)->len = 16;
}
static void r_sll2_v6ext(struct pb_frame *f)
{
    pb_push(f, PB_SLL2)->pkttype = 4; pb_push(f, PB_IPV6)->v6_ext = PB_X_HBH | PB_X_DST | PB_X_RH0;
    pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 9;
}
static void r_raw_icmp6(struct pb_frame *f) { pb_push(f, PB_IPV6); pb_push(f, PB_ICMPV6); pb_push(f, PB_PAYLOAD)->len = 12; }
static void r_gre_cks(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4);
    struct pb_layer *g = pb_push(f, PB_GRE); g->gre_flags = 0xb000; g->key = 5;
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_gretap(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_GRE)->gre_flags = 0x2000;
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_vxlan(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_geneve6(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_GENEVE)->opt_words = 3;
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_gpe(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN_GPE);
    pb_push(f, PB_IPV4); pb_push(f, PB_ICMP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_gue_rco(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_GUE)->rco = 1;
    pb_push(f, PB_IPV4); pb_push(f, PB_TCP)->csum = PB_SEED; pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_gue_v1(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_GUE)->gue_variant = 1;
    pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_l2tpv3(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_L2TPV3);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_gre_udp6(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_UDP)->dport = 4754;
    struct pb_layer *g = pb_push(f, PB_GRE); g->gre_flags = 0x2000; g->key = 7;
    pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_4in6(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20; }
static void r_6in4(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20; }

static void raw(struct pb_frame *f, const char *bytes, size_t n)
{
    struct pb_layer *l = pb_push(f, PB_RAW);
    memcpy(l->raw, bytes, n);
    l->len = (uint16_t)n;
}

static void r_pppoe(struct pb_frame *f)
{
    pb_push(f, PB_ETH)->proto = 0x8864;
    raw(f, "\x11\x00\x00\x01\x00\x2e\x00\x21", 8);    /* length 46 = 2 + 20 + 8 + 16 */
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 16;
}
/* L2TPv2 over UDP 1701 (RFC 2661 3.1): with the length field (L), tunnel 1,
 * session 7, then PPP with address/control and a two-byte protocol; and
 * without L, PPP's protocol compressed to one byte (0x21, IPv4). (A PPP
 * header of that byte alone, cut right behind it, is called truncated at
 * PPP: dec_ppp asks for two bytes before it knows; not tested here.) */
static void r_l2tpv2(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 1701;
    raw(f, "\x40\x02\x00\x38\x00\x01\x00\x07\xff\x03\x00\x21", 12);   /* length 56 = 12 + 20 + 8 + 16 */
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 16;
}
/* with the offset field (O): offset size 2, two bytes of padding */
static void r_l2tpv2_offset(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 1701;
    raw(f, "\x02\x02\x00\x01\x00\x07\x00\x02\x00\x00\xff\x03\x00\x21", 14);
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 16;
}
static void r_l2tpv2_pfc(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 1701;
    raw(f, "\x00\x02\x00\x01\x00\x07\xff\x03\x21", 9);
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 16;
}
/* PPTP (RFC 2637 4.1: enhanced GRE, version 1, key = payload length and
 * call ID) carrying PPP with address/control and protocol field
 * compression (RFC 1661 6.5: an odd first byte is the whole protocol,
 * 0x21 IPv4): one protocol byte before the IP header */
static void r_pptp_pfc(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4);
    struct pb_layer *g = pb_push(f, PB_GRE);
    g->gre_flags = 0x2001; g->proto = 0x880b; g->key = (3u + 20 + 8 + 16) << 16 | 7;
    raw(f, "\xff\x03\x21", 3);
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 16;
}
static void r_erspan2(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4);
    struct pb_layer *g = pb_push(f, PB_GRE); g->gre_flags = 0x1000; g->proto = 0x88be;
    raw(f, "\x10\x64\x00\x07\x00\x00\x00\x01", 8);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_ICMP); pb_push(f, PB_PAYLOAD)->len = 8;
}
static void r_erspan3(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4);
    struct pb_layer *g = pb_push(f, PB_GRE); g->gre_flags = 0x1000; g->proto = 0x22eb;
    raw(f, "\x20\x64\x00\x07\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00", 20);
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_ICMP); pb_push(f, PB_PAYLOAD)->len = 8;
}
static void r_gtp(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 2152;
    raw(f, "\x34\xff\x00\x30\x00\x00\x00\x01\x00\x00\x00\x85\x01\x00\x01\x00", 16);  /* E: PDU session ext */
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 12;
}
static void r_teredo(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 3544;
    raw(f, "\x00\x00\x0d\x96\x3f\xff\xff\xfe", 8);           /* origin indication */
    pb_push(f, PB_IPV6); pb_push(f, PB_ICMPV6); pb_push(f, PB_PAYLOAD)->len = 8;
}
/* Teredo with both indicators (RFC 4380 5.1.1): authentication (no client
 * ID, no value: nonce and confirmation), then origin */
static void r_teredo_auth(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 3544;
    raw(f, "\x00\x01\x00\x00\x11\x22\x33\x44\x55\x66\x77\x88\x00"
           "\x00\x00\x0d\x96\x3f\xff\xff\xfe", 21);
    pb_push(f, PB_IPV6); pb_push(f, PB_ICMPV6); pb_push(f, PB_PAYLOAD)->len = 8;
}
static void r_nsh(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN_GPE)->proto = 4;   /* next protocol: NSH */
    raw(f, "\x00\x06\x01\x01\x00\x00\x01\xff\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 24);
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 8;
}
static void r_ayiya(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 5072;
    raw(f, "\x41\x22\x11\x29\x00\x00\x00\x00" "0123456789abcdef" "\x00\x00\x00\x00\x00\x00\x00\x00", 32);
    pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 8;
}

/* issue 24's encapsulations: IPsec AH and ESP, Ethernet in IPv6 (143),
 * Aruba's 802.11 over GRE, L2TPv3 without the L2-specific sublayer */
static void r_ah4(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_AH); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20; }
static void r_ah4_tunnel(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_AH);
    pb_push(f, PB_IPV4); pb_push(f, PB_ICMP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_ah6(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6)->v6_ext = PB_X_HBH; pb_push(f, PB_AH);
    pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_esp(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_ESP)->len = 24; }
static void r_eth6(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_srh_eth6(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6)->v6_ext = PB_X_SRH; pb_push(f, PB_ETH);
    pb_push(f, PB_VLAN)->vlan = 5; pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_aruba(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_GRE)->gre_flags = 0x2000; pb_push(f, PB_WLAN);
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_aruba_ccmp(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_GRE);
    pb_push(f, PB_WLAN)->wlan_prot = 1; pb_push(f, PB_PAYLOAD)->len = 40;
}
static void r_l2tpv3_nosub(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_L2TPV3)->l2tp_no_l2spec = 1;
    pb_push(f, PB_ETH); pb_push(f, PB_IPV6); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 20;
}
/* MACsec (802.1AE): integrity only with and without an SCI, short secure
 * data (SL), encrypted */
static void r_macsec(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_MACSEC); pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 60;
}
static void r_macsec_short(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_MACSEC)->macsec_tci = 0; pb_push(f, PB_IPV4); pb_push(f, PB_UDP);
    pb_push(f, PB_PAYLOAD)->len = 4;
}
static void r_macsec_enc(struct pb_frame *f) { pb_push(f, PB_ETH); pb_push(f, PB_MACSEC)->macsec_tci = 0x2c; }
/* AMT (RFC 7450): a Multicast Data message (type 6) carrying IPv4 and
 * IPv6, and a Membership Update (type 5: MAC, nonce) carrying IGMP */
static void r_amt_data4(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 2268; raw(f, "\x06\x00", 2);
    pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 20;
}
static void r_amt_data6(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 2268; raw(f, "\x06\x00", 2);
    pb_push(f, PB_IPV6); pb_push(f, PB_ICMPV6); pb_push(f, PB_PAYLOAD)->len = 8;
}
static void r_amt_update(struct pb_frame *f)
{
    pb_push(f, PB_ETH); pb_push(f, PB_IPV4); pb_push(f, PB_UDP)->dport = 2268;
    raw(f, "\x05\x00\x02\x00\x00\x00\x00\x01\x12\x34\x56\x78", 12);
    pb_push(f, PB_IPV4); pb_push(f, PB_IGMP);
}

struct recipe_case {
    const char *name;
    recipe fn;
    int nlayers;            /* layers of the full decode */
    enum csc_stop stop;     /* where the full decode ends (end: the payload) */
};

static const struct recipe_case cases[] = {
    { "udp4", r_udp4, 3, CSC_STOP_END }, { "qinq-tcp", r_qinq_tcp, 5, CSC_STOP_END }, { "mpls-icmp", r_mpls_icmp, 4, CSC_STOP_END },
    { "sll2-ipv6-ext", r_sll2_v6ext, 3, CSC_STOP_END }, { "raw-icmp6", r_raw_icmp6, 2, CSC_STOP_END },
    { "gre-cks", r_gre_cks, 5, CSC_STOP_END }, { "gretap", r_gretap, 6, CSC_STOP_END }, { "vxlan", r_vxlan, 7, CSC_STOP_END },
    { "geneve6", r_geneve6, 7, CSC_STOP_END }, { "vxlan-gpe", r_gpe, 6, CSC_STOP_END }, { "gue-rco", r_gue_rco, 6, CSC_STOP_END },
    { "gue-v1", r_gue_v1, 6, CSC_STOP_END }, { "l2tpv3", r_l2tpv3, 6, CSC_STOP_END }, { "4in6", r_4in6, 4, CSC_STOP_END },
    { "6in4", r_6in4, 4, CSC_STOP_END }, { "pppoe", r_pppoe, 4, CSC_STOP_END }, { "pptp-pfc", r_pptp_pfc, 6, CSC_STOP_END }, { "erspan2", r_erspan2, 7, CSC_STOP_END },
    { "erspan3", r_erspan3, 7, CSC_STOP_END }, { "gtp", r_gtp, 6, CSC_STOP_END }, { "teredo", r_teredo, 6, CSC_STOP_END },
    { "nsh", r_nsh, 7, CSC_STOP_END }, { "ayiya", r_ayiya, 6, CSC_STOP_END }, { "gre-in-udp6", r_gre_udp6, 7, CSC_STOP_END },
    { "ah4", r_ah4, 4, CSC_STOP_END }, { "ah4-tunnel", r_ah4_tunnel, 5, CSC_STOP_END }, { "ah6", r_ah6, 4, CSC_STOP_END },
    { "esp", r_esp, 3, CSC_STOP_ENCRYPTED }, { "eth6", r_eth6, 5, CSC_STOP_END }, { "srh-eth6", r_srh_eth6, 6, CSC_STOP_END },
    { "aruba", r_aruba, 6, CSC_STOP_END }, { "aruba-ccmp", r_aruba_ccmp, 4, CSC_STOP_ENCRYPTED },
    { "l2tpv3-nosub", r_l2tpv3_nosub, 7, CSC_STOP_END },
    { "macsec", r_macsec, 4, CSC_STOP_END }, { "macsec-short", r_macsec_short, 4, CSC_STOP_END },
    { "macsec-encrypted", r_macsec_enc, 2, CSC_STOP_ENCRYPTED },
    { "amt-data4", r_amt_data4, 6, CSC_STOP_END }, { "amt-data6", r_amt_data6, 6, CSC_STOP_END },
    { "amt-update", r_amt_update, 6, CSC_STOP_END },
    { "l2tpv2", r_l2tpv2, 7, CSC_STOP_END }, { "l2tpv2-pfc", r_l2tpv2_pfc, 7, CSC_STOP_END },
    { "l2tpv2-offset", r_l2tpv2_offset, 7, CSC_STOP_END }, { "teredo-auth", r_teredo_auth, 6, CSC_STOP_END },
};

static struct csc_result full;

START_TEST(good_frames)
{
    const struct recipe_case *c = &cases[_i];
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    c->fn(&f);
    cfg_set("none", "modern");
    run(&f);
    if (R.nlayers != c->nlayers || R.stop != c->stop)
        dump_result();
    ck_assert_msg(R.nlayers == c->nlayers, "%s: %d layers, want %d", c->name, R.nlayers, c->nlayers);
    ck_assert_msg(R.stop == c->stop, "%s: stop %s", c->name, csc_stop_name(R.stop));
    ck_assert_msg(R.stop == CSC_STOP_END || R.stop_layer == R.nlayers - 1, "%s: stop on layer %u", c->name,
                  R.stop_layer);
    for (int i = 0; i < R.nlayers; i++) {
        const struct csc_layer *l = &R.layers[i];
        if (l->verdict != CSC_V_NA)
            ck_assert_msg(l->verdict == CSC_V_GOOD || l->verdict == CSC_V_RCO ||
                          l->verdict == CSC_V_NONE,
                          "%s: layer %d %s is %s", c->name, i, csc_proto_name(l->proto),
                          csc_verdict_name(l->verdict));
    }
    ck_assert_int_eq(R.worst == CSC_V_BAD, 0);
}
END_TEST

START_TEST(every_truncation_point)
{
    const struct recipe_case *c = &cases[_i];
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    c->fn(&f);
    cfg_set("none", "modern");
    run(&f);
    full = R;
    static uint8_t copy[2048];
    for (size_t cut = 0; cut < FRAME_LEN; cut++) {
        /* copy only the captured bytes to a tight buffer: ASan flags any read past it */
        uint8_t *buf = copy + sizeof copy - cut;
        memcpy(buf, FRAME, cut);
        run_bytes(buf, cut, FRAME_LEN, csc_link_from_linktype(pb_linktype(&f)));
        /* the header the cut falls into (a zero-length header: cut at its start) */
        int cut_layer = -1;
        for (int i = 0; i < full.nlayers; i++) {
            const struct csc_layer *l = &full.layers[i];
            if ((l->hdr_len && l->off <= cut && cut < l->off + l->hdr_len) ||
                (!l->hdr_len && l->off == cut)) {
                cut_layer = i;
                break;
            }
        }
        for (int i = 0; i < R.nlayers; i++) {
            const struct csc_layer *l = &R.layers[i];
            ck_assert_msg(l->off + l->hdr_len <= cut, "%s cut %zu: layer %d past caplen", c->name, cut, i);
            if (l->csum_off != CSC_NO_OFF && l->cov_end > cut && l->verdict != CSC_V_NONE &&
                l->verdict != CSC_V_ZERO6)
                ck_assert_msg(l->verdict == CSC_V_UNVERIFIABLE,
                              "%s cut %zu: layer %d %s should be unverifiable", c->name, cut, i,
                              csc_verdict_name(l->verdict));
        }
        if (cut_layer >= 0) {
            /* Teredo confirms its payload is IPv6 before it claims the bytes. */
            int peek = cut_layer > 0 && full.layers[cut_layer - 1].proto == CSC_P_TEREDO &&
                       cut == full.layers[cut_layer].off;
            /* An L2TPv3 sublayer chosen from the bytes needs the frame behind it:
             * cut there, the L2TP header itself cannot be told (truncated at it). */
            int g = -1;
            for (int i = 0; i < full.nlayers; i++)
                if (full.layers[i].notes & CSC_N_L2SPEC_GUESSED)
                    g = i;
            bool guess_cut = g >= 0 && R.nlayers == g && R.stop_proto == CSC_P_L2TP && cut_layer > g;
            ck_assert_msg(R.nlayers == cut_layer - peek || guess_cut, "%s cut %zu: %d layers, want %d",
                          c->name, cut, R.nlayers, cut_layer - peek);
            ck_assert_msg(R.stop == CSC_STOP_TRUNCATED, "%s cut %zu: stop %s", c->name, cut,
                          csc_stop_name(R.stop));
            /* the stop is the last decoded layer's */
            ck_assert_msg(R.stop_layer == (R.nlayers ? (unsigned)R.nlayers - 1 : CSC_NO_LAYER),
                          "%s cut %zu: stop on layer %u of %d", c->name, cut, R.stop_layer, R.nlayers);
        }
        /* the replay never reads past caplen either, and decides on assumptions */
        if (R.kernel.ran && R.nlayers > 2)
            ck_assert(R.kernel.verdict <= CSC_K_UNKNOWN);
    }
}
END_TEST

/* MACsec integrity only: the SecTAG (8 bytes, 16 with an SCI) and the
 * cleartext EtherType are one layer; the user data ends where the ICV (16
 * bytes, or what SL says) starts; a bad inner TCP is judged bad; the
 * replay stops at macsec_handle_frame, unknown (the receiver's SecY). */
START_TEST(macsec_integrity_only)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    r_macsec(&f);
    f.l[3].csum = PB_BAD;
    run(&f);
    ck_assert_int_eq(R.nlayers, 4);
    ck_assert_int_eq(R.layers[1].proto, CSC_P_MACSEC);
    ck_assert_int_eq(R.layers[1].hdr_len, 6 + 8 + 2);
    ck_assert_int_eq(R.layers[1].next, 0x0800);
    ck_assert_int_eq(R.layers[1].u.macsec.sl, 0);             /* 80 bytes of secure data */
    ck_assert_int_eq(R.layers[2].off, 14 + 16);
    ck_assert_int_eq(R.layers[2].end, FRAME_LEN - 16);
    ck_assert_int_eq(R.layers[3].cov_end, FRAME_LEN - 16);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.layers[3].verdict, CSC_V_BAD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
    ck_assert_int_ge(find_step("macsec_handle_frame", "not-modelled"), 0);

    /* no SCI, secure data under 48 bytes: SL gives its end, also when more
     * bytes follow the ICV than 16 (here 4 more: a longer ICV or padding) */
    pb_init(&f);
    r_macsec_short(&f);
    run(&f);
    ck_assert_int_eq(FRAME_LEN, 14 + 8 + 20 + 8 + 4 + 16);
    ck_assert_int_eq(R.layers[1].hdr_len, 6 + 2);
    ck_assert_int_eq(R.layers[1].u.macsec.sl, 2 + 20 + 8 + 4);
    static uint8_t longer[128];
    memcpy(longer, FRAME, FRAME_LEN);
    run_bytes(longer, FRAME_LEN + 4, FRAME_LEN + 4, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.nlayers, 4);
    ck_assert_int_eq(R.layers[2].end, 14 + 6 + 34);
    ck_assert_int_eq(R.layers[2].notes & CSC_N_PADDING, 0);
    ck_assert_int_eq(R.layers[3].verdict, CSC_V_GOOD);

    /* SL ending the data inside the cleartext EtherType: malformed at MACsec */
    FRAME[15] = 1;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[1].u.macsec.sl, 1);
    ck_assert(R.layers[1].notes & CSC_N_LEN_SHORT);
    ck_assert_int_eq(R.nlayers, 2);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_MACSEC);

    /* E set: encrypted at MACsec, unknown */
    pb_init(&f);
    r_macsec_enc(&f);
    run(&f);
    ck_assert_int_eq(R.nlayers, 2);
    ck_assert_int_eq(R.layers[1].hdr_len, 14);
    ck_assert_int_eq(R.stop, CSC_STOP_ENCRYPTED);
    ck_assert_int_eq(R.stop_proto, CSC_P_MACSEC);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_UNKNOWN);
}
END_TEST

/* Patch a 16-bit field of the last built frame and re-run. */
static void patch16(size_t off, uint16_t v)
{
    FRAME[off] = (uint8_t)(v >> 8);
    FRAME[off + 1] = (uint8_t)v;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
}

/* AMT's first byte: version 0 only (else unsupported, no value), types 1
 * to 7 (else malformed, the type); Discovery, Advertisement, Request and
 * Teardown carry no packet (unsupported, the type); each stop is on the AMT
 * layer. A Query's 12 bytes lead its IP packet; Data's reserved byte is
 * ignored. */
static void amt_frame(const char *hdr, size_t n, bool inner)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_UDP)->dport = 2268;
    raw(&f, hdr, n);
    if (inner) {
        pb_push(&f, PB_IPV4); pb_push(&f, PB_IGMP);
    }
    cfg_set("none", "modern");
    run(&f);
}

/* value -1: none */
static void assert_amt_stop(enum csc_stop why, int value, int nlayers)
{
    ck_assert_int_eq(R.nlayers, nlayers);
    ck_assert_int_eq(R.stop, why);
    ck_assert_int_eq(R.stop_proto, CSC_P_AMT);
    ck_assert_uint_eq(R.stop_off, 14 + 20 + 8);
    ck_assert_int_eq(R.stop_has_value, value >= 0);
    if (value >= 0)
        ck_assert_uint_eq(R.stop_value, (uint32_t)value);
    ck_assert_uint_eq(R.stop_layer, nlayers - 1);
}

START_TEST(amt_message_types)
{
    amt_frame("\x16\x00\x00\x00\x00\x00\x00\x00", 8, false);       /* version 1 */
    assert_amt_stop(CSC_STOP_UNSUPPORTED, -1, 4);
    amt_frame("\x00\x00\x00\x00\x00\x00\x00\x00", 8, false);       /* type 0 */
    assert_amt_stop(CSC_STOP_MALFORMED, 0, 4);
    amt_frame("\x08\x00\x00\x00\x00\x00\x00\x00", 8, false);       /* type 8 */
    assert_amt_stop(CSC_STOP_MALFORMED, 8, 4);
    ck_assert_uint_eq(R.layers[3].hdr_len, 2);
    static const uint8_t no_packet[] = { 1, 2, 3, 7 };
    for (unsigned i = 0; i < sizeof no_packet; i++) {
        char h[8] = { (char)no_packet[i], 0, 0, 0, 0x12, 0x34, 0x56, 0x78 };   /* + a nonce */
        amt_frame(h, sizeof h, false);
        assert_amt_stop(CSC_STOP_UNSUPPORTED, no_packet[i], 4);
        ck_assert_int_eq(R.layers[3].proto, CSC_P_AMT);
        ck_assert_uint_eq(R.layers[3].hdr_len, 2);
        ck_assert_uint_eq(R.layers[3].next, no_packet[i]);
    }
    amt_frame("\x04\x01\x02\x00\x00\x00\x00\x01\x12\x34\x56\x78", 12, true);   /* Query, G */
    ck_assert_int_eq(R.nlayers, 6);
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    ck_assert_uint_eq(R.layers[3].hdr_len, 12);
    ck_assert_uint_eq(R.layers[3].next, 4);
    ck_assert_int_eq(R.layers[4].off, 14 + 20 + 8 + 12);
    ck_assert_int_eq(R.layers[5].proto, CSC_P_IGMP);
    ck_assert_int_eq(R.layers[5].verdict, CSC_V_GOOD);
    amt_frame("\x06\x5a", 2, true);                                   /* Data, reserved set */
    ck_assert_int_eq(R.nlayers, 6);
    ck_assert_uint_eq(R.layers[3].next, 6);
    ck_assert_int_eq(R.layers[4].off, 14 + 20 + 8 + 2);
    amt_frame("\x06\x00\x50\x00", 4, false);                         /* Data, not IP: nibble 5 */
    ck_assert_int_eq(R.nlayers, 4);
    ck_assert_int_eq(R.stop, CSC_STOP_NEXT);
    ck_assert_uint_eq(R.stop_value, 5);
}
END_TEST

START_TEST(lying_lengths)
{
    struct pb_frame f;
    cfg_set("none", "modern");
    pb_init(&f);
    r_vxlan(&f);
    run(&f);
    size_t ip = f.off[1], udp = f.off[2], iip = f.off[5], tcp = f.off[6];
    /* outer IPv4 total length below the header */
    patch16(ip + 2, 12);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_IPV4);
    ck_assert(R.layers[1].notes & CSC_N_LEN_SHORT);
    run(&f);
    /* UDP length below 8, and beyond the IP payload */
    patch16(udp + 4, 7);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_LEN_MISMATCH);
    patch16(udp + 4, 2000);
    ck_assert(R.layers[2].notes & CSC_N_LEN_EXCEEDS);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_LEN_MISMATCH);
    run(&f);
    /* UDP length shorter than the IP payload: legal (trimmed), inner cut */
    patch16(udp + 4, 20);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);        /* VXLAN+Eth do not fit in 12 bytes */
    run(&f);
    /* inner TCP data offset below 5 and beyond the segment */
    FRAME[tcp + 12] = 0x30;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert(R.layers[6].notes & CSC_N_LEN_SHORT);
    FRAME[tcp + 12] = 0xf0;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    run(&f);
    /* inner IPv4 claims more than the outer carries: the TCP segment, right
     * over the bytes present, is whole (verify_short_ip); wrong, it proves
     * nothing */
    patch16(iip + 2, 1400);
    ck_assert(R.layers[5].notes & CSC_N_LEN_EXCEEDS);
    ck_assert_int_eq(R.layers[6].verdict, CSC_V_GOOD);
    FRAME[tcp + 16] ^= 0xff;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.layers[6].verdict, CSC_V_UNVERIFIABLE);
    ck_assert_int_eq(R.layers[6].reason, CSC_R_LEN_MISMATCH);

    /* GENEVE options beyond the packet */
    pb_init(&f);
    r_geneve6(&f);
    run(&f);
    FRAME[f.off[3]] = 0x3f;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_GENEVE);
    /* IPv6 payload length beyond the frame: the UDP datagram, whole by its
     * own length, is judged; with its length beyond the frame too it is not */
    run(&f);
    patch16(f.off[1] + 4, 9000);
    ck_assert(R.layers[1].notes & CSC_N_LEN_EXCEEDS);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    patch16(f.off[2] + 4, 9000);
    ck_assert_int_eq(R.layers[2].reason, CSC_R_LEN_MISMATCH);

    /* GUE header length beyond the packet */
    pb_init(&f);
    r_gue_rco(&f);
    run(&f);
    FRAME[f.off[3]] = 0x1f;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_GUE);

    /* IPv6 extension header longer than the packet */
    pb_init(&f);
    r_sll2_v6ext(&f);
    run(&f);
    FRAME[f.off[1] + 41] = 0xff;
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_SLL2);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_IPV6);
    ck_assert_int_eq(R.direction, CSC_DIR_OUT);

    /* PPPoE length shorter than the IP packet */
    pb_init(&f);
    r_pppoe(&f);
    run(&f);
    patch16(f.off[1] + 4, 30);
    ck_assert(R.layers[2].notes & CSC_N_LINK_LEN_SHORT);
    ck_assert_int_eq(R.layers[3].reason, CSC_R_LEN_MISMATCH);

    /* MPLS stack without bottom of stack: ends truncated at the frame end */
    static uint8_t mpls[14 + 64];
    memset(mpls, 0, sizeof mpls);
    mpls[12] = 0x88;
    mpls[13] = 0x47;
    run_bytes(mpls, sizeof mpls, sizeof mpls + 100, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.stop, CSC_STOP_TRUNCATED);
    ck_assert_int_eq(R.stop_proto, CSC_P_MPLS);
}
END_TEST

START_TEST(depth_limit_is_a_finding)
{
    /* 40 stacked VLAN tags: the stack stops at CSC_MAX_LAYERS with "depth" */
    static uint8_t b[14 + 40 * 4 + 20];
    memset(b, 0, sizeof b);
    b[12] = 0x81;
    for (int i = 0; i < 40; i++) {
        b[14 + 4 * i + 2] = 0x81;
        b[14 + 4 * i + 3] = 0x00;
    }
    cfg_set("none", "modern");
    run_bytes(b, sizeof b, sizeof b, CSC_LINK_ETHERNET);
    ck_assert_int_eq(R.nlayers, CSC_MAX_LAYERS);
    ck_assert_int_eq(R.stop, CSC_STOP_DEPTH);
    /* 40 nested IPIP headers */
    static uint8_t ip[40 * 20 + 8];
    for (int i = 0; i < 40; i++) {
        uint8_t *h = ip + 20 * i;
        memset(h, 0, 20);
        h[0] = 0x45;
        h[2] = (uint8_t)((sizeof ip - 20 * i) >> 8);
        h[3] = (uint8_t)(sizeof ip - 20 * i);
        h[9] = 4;
    }
    run_bytes(ip, sizeof ip, sizeof ip, CSC_LINK_RAW);
    ck_assert_int_eq(R.stop, CSC_STOP_DEPTH);
    ck_assert_int_eq(R.nlayers, CSC_MAX_LAYERS);
}
END_TEST

/* A raw-IP capture (DLT_RAW): no link layer for the NIC to strip, the
 * replay starts at layer 0, the IPv4 header (ip_rcv, udp_rcv) */
START_TEST(raw_ip_replayed_from_layer_0)
{
    struct pb_frame f;
    for (int bad = 0; bad < 2; bad++) {
        pb_init(&f);
        pb_push(&f, PB_IPV4);
        pb_push(&f, PB_UDP)->csum = bad ? PB_BAD : PB_OK;
        pb_push(&f, PB_PAYLOAD)->len = 30;
        cfg_set("none", "modern");
        FRAME_LEN = pb_build(&f, FRAME, sizeof FRAME);
        run_bytes(FRAME, FRAME_LEN, FRAME_LEN, CSC_LINK_RAW);
        ck_assert_int_eq(R.layers[0].proto, CSC_P_IPV4);
        if (!bad) {
            ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
            continue;
        }
        ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
        ck_assert_int_eq(R.kernel.drop_layer, 1);
        ck_assert_uint_eq(R.kernel.counters, counters_of(CSC_C_UDP_IN_CSUM_ERRORS, CSC_C_UDP_IN_ERRORS));
    }
}
END_TEST

/* MACsec's inner type (802.1AE integrity only): 0x0600 and up is an
 * EtherType (0x0600 itself unknown here: a stop naming it), below it an
 * 802.3 length - the secure data ends the stack, no stop. */
START_TEST(macsec_inner_type_at_the_ethertype_edge)
{
    static const struct { uint16_t type; enum csc_stop stop; } c[] = {
        { 0x0600, CSC_STOP_ETHERTYPE }, { 0x05ff, CSC_STOP_END },
    };
    for (unsigned i = 0; i < 2; i++) {
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        pb_push(&f, PB_MACSEC)->proto = c[i].type;
        pb_push(&f, PB_PAYLOAD)->len = 40;
        cfg_set("none", "modern");
        run(&f);
        if (R.stop != c[i].stop)
            dump_result();
        ck_assert_msg(R.stop == c[i].stop, "type %#x: stop %s", c[i].type, csc_stop_name(R.stop));
        ck_assert_int_eq(R.nlayers, 2);
        ck_assert_int_eq(R.layers[1].proto, CSC_P_MACSEC);
        if (c[i].stop == CSC_STOP_ETHERTYPE) {
            ck_assert_int_eq(R.stop_proto, CSC_P_MACSEC);
            ck_assert_uint_eq(R.stop_value, 0x0600);
        }
    }
}
END_TEST

START_TEST(link_types)
{
    cfg_set("none", "modern");
    ck_assert_int_eq(csc_link_from_linktype(1), CSC_LINK_ETHERNET);
    ck_assert_int_eq(csc_link_from_linktype(101), CSC_LINK_RAW);
    ck_assert_int_eq(csc_link_from_linktype(12), CSC_LINK_RAW);
    ck_assert_int_eq(csc_link_from_linktype(113), CSC_LINK_SLL);
    ck_assert_int_eq(csc_link_from_linktype(276), CSC_LINK_SLL2);
    ck_assert_int_eq(csc_link_from_linktype(0), CSC_LINK_NULL);
    ck_assert_int_eq(csc_link_from_linktype(147), CSC_LINK_UNKNOWN);
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    run(&f);
    static uint8_t b[4 + 64];
    /* BSD loopback (host order) and OpenBSD loop (network order) */
    memcpy(b + 4, FRAME, FRAME_LEN);
    b[0] = 2;
    run_bytes(b, FRAME_LEN + 4, FRAME_LEN + 4, CSC_LINK_NULL);
    ck_assert_int_eq(R.nlayers, 3);
    ck_assert_uint_eq(R.layers[0].next, 2);
    ck_assert_int_eq(R.layers[1].proto, CSC_P_IPV4);
    ck_assert_uint_eq(R.layers[1].off, 4);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    b[0] = 0;
    b[3] = 2;
    run_bytes(b, FRAME_LEN + 4, FRAME_LEN + 4, CSC_LINK_LOOP);
    ck_assert_int_eq(R.nlayers, 3);               /* not layers left by the run before */
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    ck_assert_uint_eq(R.layers[0].next, 2);       /* the family, read at byte 0 */
    ck_assert_int_eq(R.layers[1].proto, CSC_P_IPV4);
    ck_assert_uint_eq(R.layers[1].off, 4);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    /* Linux SLL, outgoing */
    static uint8_t s[16 + 64];
    memset(s, 0, 16);
    s[1] = 4;
    s[14] = 0x08;
    memcpy(s + 16, FRAME, FRAME_LEN);
    run_bytes(s, FRAME_LEN + 16, FRAME_LEN + 16, CSC_LINK_SLL);
    ck_assert_int_eq(R.direction, CSC_DIR_OUT);
    ck_assert_int_eq(R.layers[2].verdict, CSC_V_GOOD);
    /* unknown link */
    run_bytes(b, 10, 10, CSC_LINK_UNKNOWN);
    ck_assert_int_eq(R.stop, CSC_STOP_LINK);
    ck_assert_int_eq(R.nlayers, 0);
    ck_assert(!R.kernel.ran);                     /* no layer: no replay, though the run before had one */
    /* the decoder alone says no replay ran over a result that had one */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    run(&f);
    ck_assert(R.kernel.ran);
    struct csc_frame fr = { FRAME, (uint32_t)FRAME_LEN, (uint32_t)FRAME_LEN, CSC_LINK_ETHERNET, CSC_DIR_UNKNOWN };
    csc_decode(&CFG, &fr, &R);
    ck_assert_int_eq(R.nlayers, 3);
    ck_assert(!R.kernel.ran);
}
END_TEST

START_TEST(ports_are_configurable)
{
    struct pb_frame f;
    pb_init(&f);
    r_vxlan(&f);
    f.l[2].dport = 8472;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.nlayers, 3);                     /* 8472 is not VXLAN by default: */
    ck_assert_int_eq(R.stop, CSC_STOP_NEEDS_OPTION);    /* the stop names its option */
    ck_assert_int_eq(R.stop_value, 8472);
    ck_assert(csc_config_set_port(&CFG, 8472, CSC_P_VXLAN, 0));
    run(&f);
    ck_assert_int_eq(R.layers[3].proto, CSC_P_VXLAN);
    csc_config_clear_ports(&CFG, CSC_P_VXLAN);
    f.l[2].dport = 4789;
    run(&f);
    ck_assert_int_eq(R.nlayers, 3);
    /* FOU: IPIP directly in UDP on a configured port */
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP)->dport = 5555;
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    cfg_set("none", "modern");
    ck_assert(csc_config_set_port(&CFG, 5555, CSC_P_FOU, 4));
    run(&f);
    ck_assert_int_eq(R.layers[3].proto, CSC_P_FOU);
    ck_assert_int_eq(R.layers[4].proto, CSC_P_IPV4);
    ck_assert_int_eq(R.layers[5].verdict, CSC_V_GOOD);
}
END_TEST

/* A jumbo option with a payload length other than 0 (RFC 2675 3: an
 * error): the payload length gives the packet's extent, no jumbo note */
START_TEST(jumbo_option_with_payload_length)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV6);
    ip->v6_ext = PB_X_HBH;
    memcpy(ip->hbh_opts, "\xc2\x04\x00\x01\x00\x00", 6);   /* jumbo, 65536 */
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_PAYLOAD)->len = 16;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_uint_eq((unsigned)FRAME[18] << 8 | FRAME[19], 8 + 8 + 16);   /* payload length */
    int v6 = lay(CSC_P_IPV6, 0), u = lay(CSC_P_UDP, 0);
    if (R.stop != CSC_STOP_END) dump_result();
    ck_assert_int_eq(R.stop, CSC_STOP_END);
    ck_assert_uint_eq(R.layers[v6].notes & (CSC_N_JUMBO | CSC_N_LEN_EXCEEDS | CSC_N_LEN_SHORT), 0);
    ck_assert_int_eq(R.layers[u].verdict, CSC_V_GOOD);
    /* ipv6_hop_jumbo (net/ipv6/exthdrs.c v6.12): a payload length beside
     * the option is a parameter problem, Ip6InHdrErrors; so is a value of
     * 65,535 or less (both sides of its two checks) */
    if (R.kernel.verdict != CSC_K_DROP) dump_result();
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_int_eq(R.kernel.drop_layer, v6);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_HDR_ERRORS);
    memcpy(ip->hbh_opts, "\xc2\x04\x00\x00\xff\xff", 6);   /* jumbo, 65535 */
    ip->tot_len_zero = 1;
    run(&f);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_DROP);
    ck_assert_uint_eq(R.kernel.counters, 1u << CSC_C_IP6_IN_HDR_ERRORS);
}
END_TEST

/* A jumbogram as ipv6_hop_jumbo (net/ipv6/exthdrs.c v6.12) takes it: option
 * length 4 at 4n + 2, a value over 65,535, payload length 0, the bytes all
 * there: the TCP under it is checked and taken. */
START_TEST(jumbo_option_taken)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV6);
    ip->v6_ext = PB_X_HBH;
    ip->tot_len_zero = 1;
    memcpy(ip->hbh_opts, "\xc2\x04\x00\x01\x00\x00", 6);   /* 8 + 20 + 65508 = 65536 */
    pb_push(&f, PB_TCP);
    pb_push(&f, PB_PAYLOAD)->len = 65508;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_uint_eq(FRAME_LEN, 14 + 40 + 65536);
    ck_assert_uint_eq((unsigned)FRAME[18] << 8 | FRAME[19], 0);   /* payload length */
    int v6 = lay(CSC_P_IPV6, 0), t = lay(CSC_P_TCP, 0);
    if (R.stop != CSC_STOP_END || R.kernel.verdict != CSC_K_ACCEPT) dump_result();
    ck_assert(R.layers[v6].notes & CSC_N_JUMBO);
    ck_assert_int_eq(R.layers[t].verdict, CSC_V_GOOD);
    ck_assert_int_eq(R.kernel.verdict, CSC_K_ACCEPT);
    ck_assert_uint_eq(R.kernel.counters, 0);
}
END_TEST

/* The VLAN ID is the TCI's low 12 bits: the priority above them masked
 * off, the ID not shifted */
START_TEST(vlan_id_from_the_tci)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_VLAN)->vlan = 0xa005;                   /* PCP 5, VID 5 */
    pb_push(&f, PB_IPV4); pb_push(&f, PB_UDP); pb_push(&f, PB_PAYLOAD)->len = 20;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_uint_eq(R.layers[lay(CSC_P_VLAN, 0)].u.vlan.vid, 5);
    f.l[1].vlan = 0x0fff;
    run(&f);
    ck_assert_uint_eq(R.layers[lay(CSC_P_VLAN, 0)].u.vlan.vid, 0xfff);
}
END_TEST

/* GTP-U extension header with a length of 0 words (TS 29.281 5.2.1: a
 * length is at least 1): a malformed stop at that byte, no GTP layer */
START_TEST(gtp_extension_length_zero)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH); pb_push(&f, PB_IPV4); pb_push(&f, PB_UDP)->dport = 2152;
    raw(&f, "\x34\xff\x00\x30\x00\x00\x00\x01\x00\x00\x00\x85\x00\x00\x01\x00", 16);
    pb_push(&f, PB_IPV4); pb_push(&f, PB_UDP); pb_push(&f, PB_PAYLOAD)->len = 12;
    cfg_set("none", "modern");
    run(&f);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_GTP);
    ck_assert_uint_eq(R.stop_off, 14 + 20 + 8 + 12);
    ck_assert_int_eq(R.nlayers, 3);
    ck_assert_int_eq(R.layers[2].proto, CSC_P_UDP);
}
END_TEST

/* IPv6 payload length 0: without a jumbo option and over 65535 bytes a BIG
 * TCP packet (GSO, the extent the captured bytes); up to 65535 an empty
 * packet (ip6_rcv_core trims it to its header: the TCP header it names is
 * not there); with a jumbo option, RFC 2675's jumbogram. A jumbo option
 * beside a payload length of 1 is not a jumbogram. */
START_TEST(ipv6_payload_length_zero)
{
    struct pb_frame f;
    pb_init(&f);
    f.no_pad = 1;
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, PB_IPV6);
    ip->tot_len_zero = 1;
    pb_push(&f, PB_TCP);
    struct pb_layer *pay = pb_push(&f, PB_PAYLOAD);
    pay->len = 65535;
    cfg_set("none", "modern");
    run(&f);
    int v6 = lay(CSC_P_IPV6, 0);
    ck_assert_uint_eq(R.layers[v6].notes & (CSC_N_GSO | CSC_N_JUMBO | CSC_N_PADDING), CSC_N_GSO);
    ck_assert_uint_eq(R.layers[v6].end, 14 + 40 + 20 + 65535);
    ck_assert_int_eq(R.stop, CSC_STOP_END);

    pay->len = 65535 - 20;      /* 65535 bytes after the header: the most a payload length names */
    run(&f);
    v6 = lay(CSC_P_IPV6, 0);
    ck_assert_uint_eq(R.layers[v6].notes & CSC_N_GSO, 0);
    ck_assert_uint_eq(R.layers[v6].end, 14 + 40);
    ck_assert_int_eq(R.stop, CSC_STOP_MALFORMED);
    ck_assert_int_eq(R.stop_proto, CSC_P_TCP);
    pay->len = 100;

    ip->tot_len_zero = 0;
    ip->len_override = 1;
    ip->v6_ext = PB_X_HBH;
    memcpy(ip->hbh_opts, "\xc2\x04\x00\x01\x00\x00", 6);   /* jumbo, 65536 */
    run(&f);
    v6 = lay(CSC_P_IPV6, 0);
    ck_assert_uint_eq(R.layers[v6].notes & (CSC_N_GSO | CSC_N_JUMBO), 0);
}
END_TEST

Suite *decode_suite(void);
Suite *decode_suite(void)
{
    int n = (int)(sizeof cases / sizeof cases[0]);
    Suite *s = suite_create("decode");
    TCase *t = tcase_create("decoders");
    tcase_add_loop_test(t, good_frames, 0, n);
    tcase_add_loop_test(t, every_truncation_point, 0, n);
    tcase_add_test(t, lying_lengths);
    tcase_add_test(t, depth_limit_is_a_finding);
    tcase_add_test(t, link_types);
    tcase_add_test(t, macsec_inner_type_at_the_ethertype_edge);
    tcase_add_test(t, raw_ip_replayed_from_layer_0);
    tcase_add_test(t, ports_are_configurable);
    tcase_add_test(t, macsec_integrity_only);
    tcase_add_test(t, amt_message_types);
    tcase_add_test(t, jumbo_option_with_payload_length);
    tcase_add_test(t, jumbo_option_taken);
    tcase_add_test(t, vlan_id_from_the_tci);
    tcase_add_test(t, gtp_extension_length_zero);
    tcase_add_test(t, ipv6_payload_length_zero);
    suite_add_tcase(s, t);
    return s;
}
