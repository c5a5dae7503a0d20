/*
 * test_ecn.c - ECN on decapsulation (core/replay/ecn.c, issue 28 finding
 * 3): __INET_ECN_decapsulate as vxlan_rcv, geneve_rx, ip_tunnel_rcv,
 * ipip6_rcv and __ip6_tnl_rcv call it (v6.12). Outer CE over a Not-ECT
 * inner packet: dropped with rx_frame_errors + rx_errors; outer ECT over
 * Not-ECT: logged, delivered; an ECT inner packet: delivered (its TOS
 * rewritten, no checksum changes). gretap checks too: __iptunnel_pull_header
 * set the inner EtherType before ip_tunnel_rcv looks (trixie 6.12 agrees).
 */
#include "helpers.h"

enum { NOT_ECT = 0, ECT1 = 1, ECT0 = 2, CE = 3 };

/* Set the ECN field of builder layer i (IPv4: tos & 3; IPv6: traffic class) */
static void set_ecn(struct pb_frame *f, int i, int ecn)
{
    struct pb_patch *p = pb_patch_add(f, i, PB_PATCH_SET, 1, 1);
    ck_assert_ptr_nonnull(p);
    bool v6 = f->l[i].kind == PB_IPV6;
    p->mask[0] = v6 ? 0x30 : 0x03;
    p->val[0] = (uint8_t)(v6 ? ecn << 4 : ecn);
}

/* Each builder returns the builder indexes of the outer and inner IP layers */
static void vxlan4(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH); *i = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void vxlan_vlan(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_UDP); pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH); pb_push(f, PB_VLAN)->vlan = 0;
    *i = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void geneve6(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_GENEVE);
    pb_push(f, PB_ETH); *i = f->n; pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void gre4(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_GRE);
    *i = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void gretap4(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_GRE); pb_push(f, PB_ETH);
    *i = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void gretap6(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV6); pb_push(f, PB_GRE); pb_push(f, PB_ETH);
    *i = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void ipip(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV4);
    *i = f->n; pb_push(f, PB_IPV4); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void sit(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV4);
    *i = f->n; pb_push(f, PB_IPV6); pb_push(f, PB_TCP); pb_push(f, PB_PAYLOAD)->len = 40;
}
static void ip6ip6(struct pb_frame *f, int *o, int *i)
{
    pb_push(f, PB_ETH); *o = f->n; pb_push(f, PB_IPV6);
    *i = f->n; pb_push(f, PB_IPV6); pb_push(f, PB_UDP); pb_push(f, PB_PAYLOAD)->len = 40;
}

/* The first ECN step of the trace, -1 when none */
static int ecn_step(void)
{
    for (int i = 0; i < R.kernel.nsteps; i++)
        if (!strcmp(csc_what_name(R.kernel.steps[i].what), "ecn-not-ect-inner"))
            return i;
    return -1;
}

struct ecn_case {
    const char *name;
    void (*build)(struct pb_frame *f, int *o, int *i);
    int outer, inner;
    enum csc_kverdict verdict;
    const char *drop;          /* csc_drop_name, NULL: not dropped */
    const char *fn;            /* the function that checks (its step), NULL: no step */
};

#define ECN_DROP "NOT_SPECIFIED (ecn: ce over not-ect)"
static const struct ecn_case cases[] = {
    { "vxlan ce/not-ect", vxlan4, CE, NOT_ECT, CSC_K_DROP, "IP_TUNNEL_ECN", "vxlan_rcv" },
    { "vxlan ect0/not-ect: log only", vxlan4, ECT0, NOT_ECT, CSC_K_ACCEPT, NULL, "vxlan_rcv" },
    { "vxlan ect1/not-ect: log only", vxlan4, ECT1, NOT_ECT, CSC_K_ACCEPT, NULL, "vxlan_rcv" },
    { "vxlan ce/ect0: set ce", vxlan4, CE, ECT0, CSC_K_ACCEPT, NULL, NULL },
    { "vxlan ce/ce", vxlan4, CE, CE, CSC_K_ACCEPT, NULL, NULL },
    { "vxlan not-ect/not-ect", vxlan4, NOT_ECT, NOT_ECT, CSC_K_ACCEPT, NULL, NULL },
    { "vxlan inner vlan: not ip at the check", vxlan_vlan, CE, NOT_ECT, CSC_K_ACCEPT, NULL, NULL },
    { "geneve ipv6 ce/not-ect", geneve6, CE, NOT_ECT, CSC_K_DROP, ECN_DROP, "geneve_rx" },
    { "geneve ipv6 ce/ect1", geneve6, CE, ECT1, CSC_K_ACCEPT, NULL, NULL },
    { "gre ce/not-ect", gre4, CE, NOT_ECT, CSC_K_DROP, ECN_DROP, "ip_tunnel_rcv" },
    { "gretap: the inner EtherType at the check", gretap4, CE, NOT_ECT, CSC_K_DROP, ECN_DROP,
      "ip_tunnel_rcv" },
    { "gretap ect0/ect0", gretap4, ECT0, ECT0, CSC_K_ACCEPT, NULL, NULL },
    { "ip6gretap: after eth_type_trans", gretap6, CE, NOT_ECT, CSC_K_DROP, ECN_DROP, "ip6_tnl_rcv" },
    { "ipip ce/not-ect", ipip, CE, NOT_ECT, CSC_K_DROP, ECN_DROP, "ip_tunnel_rcv" },
    { "sit ce/not-ect", sit, CE, NOT_ECT, CSC_K_DROP, ECN_DROP, "ipip6_rcv" },
    { "sit ect0/not-ect: log only", sit, ECT0, NOT_ECT, CSC_K_ACCEPT, NULL, "ipip6_rcv" },
    { "ip6tnl ce/not-ect", ip6ip6, CE, NOT_ECT, CSC_K_DROP, ECN_DROP, "ip6_tnl_rcv" },
    { "ip6tnl ce/ect0", ip6ip6, CE, ECT0, CSC_K_ACCEPT, NULL, NULL },
};

START_TEST(decapsulation)
{
    const struct ecn_case *c = &cases[_i];
    struct pb_frame f;
    int o = -1, in = -1;
    pb_init(&f);
    c->build(&f, &o, &in);
    set_ecn(&f, o, c->outer);
    set_ecn(&f, in, c->inner);
    cfg_set("none", "6.12");
    run(&f);
    if (R.kernel.verdict != c->verdict)
        dump_result();
    ck_assert_msg(R.kernel.verdict == c->verdict, "%s: verdict %s", c->name,
                  csc_kverdict_name(R.kernel.verdict));
    int step = ecn_step();
    if (c->fn) {
        ck_assert_msg(step >= 0, "%s: no ECN step", c->name);
        ck_assert_str_eq(csc_fn_name(R.kernel.steps[step].fn), c->fn);
    } else {
        ck_assert_msg(step < 0, "%s: an ECN step", c->name);
    }
    if (c->verdict == CSC_K_DROP) {
        ck_assert_str_eq(csc_drop_name(R.kernel.drop_reason), c->drop);
        ck_assert_uint_eq(R.kernel.counters,
                          counters_of(CSC_C_DEV_RX_FRAME_ERRORS, CSC_C_DEV_RX_ERRORS));
        ck_assert_int_eq(R.kernel.ndevs, 1);          /* the tunnel device never counted it */
        ck_assert_int_eq(R.kernel.steps[step].ok, CSC_TRI_NO);
    } else {
        ck_assert_uint_eq(R.kernel.counters, 0);
        ck_assert_int_eq(R.kernel.ndevs, 2);          /* the NIC and the tunnel device */
        if (c->fn)
            ck_assert_int_eq(R.kernel.steps[step].ok, CSC_TRI_UNDECIDED);
    }
}
END_TEST

Suite *ecn_suite(void);
Suite *ecn_suite(void)
{
    Suite *s = suite_create("ecn");
    TCase *tc = tcase_create("decapsulation");
    tcase_add_loop_test(tc, decapsulation, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    return s;
}
