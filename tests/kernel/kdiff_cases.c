/*
 * kdiff_cases.c - the case matrix of the live-kernel differential test and
 * the frames it writes, built with the project's frame builder (pb).
 *
 * Frame: Ethernet / outer IPv4 or IPv6 / UDP -> 4789 / VXLAN VNI 42 /
 * Ethernet / inner IPv4 or IPv6 / TCP -> 5001 or UDP -> 5000 / payload.
 * pb's default addresses are used as they are: the outer destination
 * (10.0.0.2, 2001:db8::2) is the TAP's address, the inner destination
 * (10.0.1.2, 2001:db8:0:1::2) is vx0's, and both Ethernet destinations are
 * 02:00:00:00:00:02, the MAC the harness gives the TAP and vx0.
 */
#include "kdiff.h"

#include <stdio.h>
#include <string.h>

static const char *const state_names[] = { "ok", "bad", "zero", "seed", "garbage" };
static const char *const report_names[] = { "none", "partial:outer", "partial:inner",
                                            "unnecessary:0", "unnecessary:1" };

const char *kd_state_name(unsigned s)
{
    return s < sizeof state_names / sizeof *state_names ? state_names[s] : "?";
}

const char *kd_report_name(unsigned r)
{
    return r < sizeof report_names / sizeof *report_names ? report_names[r] : "?";
}

const char *kd_obs_name(unsigned o)
{
    static const char *const t[O__COUNT] = {
        [O_IP_INHDR] = "IpInHdrErrors", [O_IP_CSUM] = "IpExtInCsumErrors",
        [O_IP_TRUNC] = "IpExtInTruncatedPkts", [O_UDP_INDG] = "UdpInDatagrams",
        [O_UDP_NOPORTS] = "UdpNoPorts", [O_UDP_INERR] = "UdpInErrors",
        [O_UDP_CSUM] = "UdpInCsumErrors", [O_UDP6_INDG] = "Udp6InDatagrams",
        [O_UDP6_NOPORTS] = "Udp6NoPorts", [O_UDP6_INERR] = "Udp6InErrors",
        [O_UDP6_CSUM] = "Udp6InCsumErrors", [O_TCP_INSEGS] = "TcpInSegs",
        [O_TCP_INERRS] = "TcpInErrs", [O_TCP_CSUM] = "TcpInCsumErrors",
        [O_ICMP_INERR] = "IcmpInErrors", [O_ICMP_CSUM] = "IcmpInCsumErrors",
        [O_ICMP6_INERR] = "Icmp6InErrors", [O_ICMP6_CSUM] = "Icmp6InCsumErrors",
        [O_IP6_INHDR] = "Ip6InHdrErrors", [O_IP6_TRUNC] = "Ip6InTruncatedPkts",
        [O_VX_RXP] = "vx0:rx_packets", [O_VX_RXB] = "vx0:rx_bytes",
        [O_VX_RXERR] = "vx0:rx_errors", [O_VX_RXFRAME] = "vx0:rx_frame_errors",
        [O_VX_RXCRC] = "vx0:rx_crc_errors", [O_VX_RXDROP] = "vx0:rx_dropped",
        [O_TAP_RXP] = "tap:rx_packets", [O_TAP_RXDROP] = "tap:rx_dropped",
        [O_SOCK_UDP] = "udp4-socket:read", [O_SOCK_UDP6] = "udp6-socket:read",
    };
    return o < O__COUNT && t[o] ? t[o] : "?";
}

int kd_group_eq(const struct kd_group *a, const struct kd_group *b)
{
    return a->v6 == b->v6 && a->napi == b->napi && a->gro == b->gro && a->level == b->level &&
           a->remcsum == b->remcsum && a->nopartial == b->nopartial &&
           a->rcsum_off_explicit == b->rcsum_off_explicit && a->u6z == b->u6z;
}

void kd_group_label(const struct kd_group *g, char *buf, size_t n)
{
    snprintf(buf, n, "%s underlay, TAP %s%s%s%s%s%s%s", g->v6 ? "IPv6" : "IPv4",
             g->napi ? "IFF_NAPI" : "plain", g->gro ? " + gro_flush_timeout" : "",
             g->level >= 0 ? (g->level ? " + BPF level 1" : " + BPF level 0") : "",
             g->remcsum ? ", vx0 remcsumrx" : "", g->nopartial ? " nopartial" : "",
             g->rcsum_off_explicit ? ", vx0 noremcsumrx" : "", g->u6z ? ", vx0 udp6zerocsumrx" : "");
}

static void states(char *buf, size_t n, const uint8_t *s, int nseg)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < nseg && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "", kd_state_name(s[i]));
}

void kd_case_label(const struct kd_case *c, char *buf, size_t n)
{
    char ip[40], ou[40], in[48];
    if (c->g.v6)
        snprintf(ip, sizeof ip, "ip6");
    else {
        char s[36];
        states(s, sizeof s, c->ip, c->nseg);
        snprintf(ip, sizeof ip, "ip=%s", s);
    }
    states(ou, sizeof ou, c->oudp, c->nseg);
    states(in, sizeof in, c->icsum, c->nseg);
    const char *tap = c->g.gro ? "napi+gro" : c->g.napi ? "napi" : "plain";
    snprintf(buf, n, "%s udp=%s %s %s%c=%s%s rx=%s tap=%s%s%s%s%s", ip, ou,
             c->rco ? "vxlan-rco" : "vxlan", c->tcp ? "tcp" : "udp", c->inner6 ? '6' : '4', in,
             c->nosock ? "(no-socket)" : "", kd_report_name(c->report), tap,
             c->g.remcsum ? " remcsumrx" : "", c->g.nopartial ? " nopartial" : "",
             c->g.rcsum_off_explicit ? " noremcsumrx" : "", c->g.u6z ? " udp6zerocsumrx" : "");
}

/* ---- the matrix ---- */

struct rm { uint8_t report, napi; int8_t level; };

static const struct rm RM_ALL[] = {
    { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 }, { KR_POUT, 1, -1 },
    { KR_PIN, 0, -1 }, { KR_PIN, 1, -1 }, { KR_U0, 0, 0 }, { KR_U1, 0, 1 },
};
static const struct rm RM_INNER6[] = {
    { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 }, { KR_PIN, 1, -1 },
    { KR_U0, 0, 0 }, { KR_U1, 0, 1 },
};
static const struct rm RM_RCO[] = {
    { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 }, { KR_POUT, 1, -1 },
    { KR_PIN, 0, -1 }, { KR_U0, 0, 0 }, { KR_U1, 0, 1 },
};
static const struct rm RM_RCO_OFF[] = {
    { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 }, { KR_U1, 0, 1 },
};

struct builder {
    struct kd_case *out;
    size_t cap, n;
};

static void add(struct builder *b, const struct kd_case *c)
{
    if (b->n < b->cap) {
        b->out[b->n] = *c;
        b->out[b->n].id = (uint16_t)b->n;
    }
    b->n++;
}

static struct kd_case base(int v6, const struct rm *rm)
{
    struct kd_case c;
    memset(&c, 0, sizeof c);
    c.g.v6 = (uint8_t)v6;
    c.g.napi = rm->napi;
    c.g.level = rm->level;
    c.report = rm->report;
    c.nseg = 1;
    return c;
}

/* Single frames, no RCO: every state of every layer x report x TAP mode. */
static void singles(struct builder *b)
{
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < sizeof RM_ALL / sizeof *RM_ALL; r++)
            for (int ip = KS_OK; ip <= (v6 ? KS_OK : KS_BAD); ip++)
                for (int ou = KS_OK; ou <= KS_ZERO; ou++)
                    for (int z = 0; z <= (v6 && ou == KS_ZERO); z++)
                        for (int tcp = 0; tcp <= 1; tcp++)
                            for (int ic = KS_OK; ic <= (tcp ? KS_BAD : KS_ZERO); ic++) {
                                struct kd_case c = base(v6, &RM_ALL[r]);
                                c.g.u6z = (uint8_t)z;
                                c.ip[0] = (uint8_t)ip;
                                c.oudp[0] = (uint8_t)ou;
                                c.tcp = (uint8_t)tcp;
                                c.icsum[0] = (uint8_t)ic;
                                add(b, &c);
                            }
}

/* Inner IPv6 (Udp6 counters, IPv6 zero-checksum rule inside the tunnel). */
static void inner6(struct builder *b)
{
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < sizeof RM_INNER6 / sizeof *RM_INNER6; r++)
            for (int ou = KS_OK; ou <= KS_BAD; ou++)
                for (int tcp = 0; tcp <= 1; tcp++)
                    for (int ic = KS_OK; ic <= (tcp ? KS_BAD : KS_ZERO); ic++) {
                        struct kd_case c = base(v6, &RM_INNER6[r]);
                        c.inner6 = 1;
                        c.oudp[0] = (uint8_t)ou;
                        c.tcp = (uint8_t)tcp;
                        c.icsum[0] = (uint8_t)ic;
                        add(b, &c);
                    }
}

/* VXLAN RCO: TCP and UDP inner, good seed or garbage in the inner field,
 * outer UDP good/bad/zero, remcsumrx on and off. */
static void rco(struct builder *b)
{
    /* on: 2 = remcsumrx with remcsum nopartial, 1 = remcsumrx, 0 = off */
    for (int v6 = 0; v6 <= 1; v6++)
        for (int on = 2; on >= 0; on--) {
            const struct rm *rms = on ? RM_RCO : RM_RCO_OFF;
            size_t nrm = on ? sizeof RM_RCO / sizeof *RM_RCO : sizeof RM_RCO_OFF / sizeof *RM_RCO_OFF;
            for (size_t r = 0; r < nrm; r++)
                for (int ou = KS_OK; ou <= KS_ZERO; ou++) {
                    /* IPv6 zero outer: udp6zerocsumrx, and once without it */
                    int zmax = v6 && ou == KS_ZERO;
                    int zmin = zmax && !(rms[r].report == KR_NONE && !rms[r].napi);
                    for (int z = zmax; z >= zmin; z--)
                        for (int tcp = 0; tcp <= 1; tcp++)
                            for (int seed = KS_SEED; seed <= KS_GARB; seed++) {
                                struct kd_case c = base(v6, &rms[r]);
                                c.g.remcsum = on > 0;
                                c.g.nopartial = on == 2;
                                c.g.u6z = (uint8_t)z;
                                c.rco = 1;
                                c.oudp[0] = (uint8_t)ou;
                                c.tcp = (uint8_t)tcp;
                                c.icsum[0] = (uint8_t)seed;
                                add(b, &c);
                            }
                }
        }
}

static void run_of(struct builder *b, int v6, uint8_t report, int napi, int gro, int tcp,
                   int rcoon, uint8_t ou_state, const uint8_t *ou, const uint8_t *ic, int nseg)
{
    struct rm rm = { report, (uint8_t)napi, -1 };
    struct kd_case c = base(v6, &rm);
    c.g.gro = (uint8_t)gro;
    c.g.u6z = (uint8_t)(v6 && ou_state == KS_ZERO);
    c.g.remcsum = rcoon > 0;
    c.g.nopartial = rcoon == 2;
    c.rco = rcoon > 0;
    c.tcp = (uint8_t)tcp;
    c.nseg = (uint8_t)nseg;
    for (int i = 0; i < nseg; i++) {
        c.oudp[i] = ou ? ou[i] : ou_state;
        c.icsum[i] = ic[i];
    }
    add(b, &c);
}

/* Runs of segments of one flow for GRO: IFF_NAPI with gro_flush_timeout. */
static void runs(struct builder *b)
{
    static const uint8_t P_OK2[] = { KS_OK, KS_OK }, P_OKBAD[] = { KS_OK, KS_BAD },
                         P_BADOK[] = { KS_BAD, KS_OK }, P_OK4[] = { KS_OK, KS_OK, KS_OK, KS_OK },
                         P_OK_BAD3[] = { KS_OK, KS_OK, KS_BAD, KS_OK };
    static const uint8_t P_SEED2[] = { KS_SEED, KS_SEED }, P_SEEDGARB[] = { KS_SEED, KS_GARB };
    static const uint8_t OU_OKBAD[] = { KS_OK, KS_BAD }, OU_ZEROOK[] = { KS_ZERO, KS_OK };
    const uint8_t reports[] = { KR_NONE, KR_POUT, KR_PIN };
    for (int v6 = 0; v6 <= 1; v6++) {
        for (size_t r = 0; r < sizeof reports; r++) {
            for (int ou = KS_OK; ou <= KS_ZERO; ou += KS_ZERO - KS_OK) {
                run_of(b, v6, reports[r], 1, 1, 1, 0, (uint8_t)ou, NULL, P_OK2, 2);
                run_of(b, v6, reports[r], 1, 1, 1, 0, (uint8_t)ou, NULL, P_OKBAD, 2);
                run_of(b, v6, reports[r], 1, 1, 1, 0, (uint8_t)ou, NULL, P_BADOK, 2);
                run_of(b, v6, reports[r], 1, 1, 1, 0, (uint8_t)ou, NULL, P_OK4, 4);
                run_of(b, v6, reports[r], 1, 1, 1, 0, (uint8_t)ou, NULL, P_OK_BAD3, 4);
                run_of(b, v6, reports[r], 1, 1, 0, 0, (uint8_t)ou, NULL, P_OK2, 2);
            }
            run_of(b, v6, reports[r], 1, 1, 1, 0, KS_OK, OU_OKBAD, P_OK2, 2);
        }
        /* a zero outer checksum then a non-zero one: different GRO flows */
        if (!v6)
            run_of(b, v6, KR_NONE, 1, 1, 1, 0, KS_OK, OU_ZEROOK, P_OK2, 2);
        /* RCO runs (remcsumrx, then with nopartial): GRO remcsum with a good
         * and a garbage seed */
        for (int on = 1; on <= 2; on++)
            for (int tcp = 0; tcp <= 1; tcp++) {
                run_of(b, v6, KR_NONE, 1, 1, tcp, on, KS_OK, NULL, P_SEED2, 2);
                run_of(b, v6, KR_NONE, 1, 1, tcp, on, KS_OK, NULL, P_SEEDGARB, 2);
            }
        /* controls: no coalescing without NAPI, or without a flush timeout */
        run_of(b, v6, KR_NONE, 0, 0, 1, 0, KS_OK, NULL, P_OK2, 2);
        run_of(b, v6, KR_NONE, 1, 0, 1, 0, KS_OK, NULL, P_OK2, 2);
    }
}

/* remcsum off given explicitly (`ip link add ... noremcsumrx`, i.e. the
 * IFLA_VXLAN_REMCSUM_RX attribute present with 0): remcsum_rx false but
 * remcsum_rx_given true, so on v6.14+ the RCO bits are not reserved and the
 * frame reaches the inner checksum. */
static void rco_explicit_off(struct builder *b)
{
    static const struct rm rms[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 } };
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < sizeof rms / sizeof *rms; r++)
            for (int tcp = 0; tcp <= 1; tcp++)
                for (int seed = KS_SEED; seed <= KS_GARB; seed++) {
                    struct kd_case c = base(v6, &rms[r]);
                    c.g.rcsum_off_explicit = 1;
                    c.rco = 1;
                    c.tcp = (uint8_t)tcp;
                    c.icsum[0] = (uint8_t)seed;
                    add(b, &c);
                }
}

/* No listener on the inner port (UdpNoPorts; TCP answered with a reset). */
static void nosock(struct builder *b)
{
    static const struct rm rms[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_PIN, 0, -1 },
                                     { KR_U1, 0, 1 } };
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < sizeof rms / sizeof *rms; r++)
            for (int in6 = 0; in6 <= 1; in6++)
                for (int tcp = 0; tcp <= 1; tcp++)
                    for (int ic = KS_OK; ic <= KS_BAD; ic++) {
                        struct kd_case c = base(v6, &rms[r]);
                        c.nosock = 1;
                        c.inner6 = (uint8_t)in6;
                        c.tcp = (uint8_t)tcp;
                        c.icsum[0] = (uint8_t)ic;
                        add(b, &c);
                    }
}

size_t kd_make_cases(struct kd_case *out, size_t cap)
{
    struct builder b = { out, cap, 0 };
    singles(&b);
    inner6(&b);
    nosock(&b);
    rco(&b);
    rco_explicit_off(&b);
    runs(&b);
    return b.n;
}

/* ---- frames ---- */

static uint8_t pb_state_of(uint8_t s)
{
    switch (s) {
    case KS_BAD: return PB_BAD;
    case KS_ZERO: return PB_ZERO;
    case KS_SEED: return PB_SEED;
    case KS_GARB: return PB_GARBAGE;
    default: return PB_OK;
    }
}

size_t kd_build(const struct kd_case *c, int seg, uint8_t *out, size_t cap, struct kd_frame_info *fi)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    struct pb_layer *ip = pb_push(&f, c->g.v6 ? PB_IPV6 : PB_IPV4);
    ip->csum = pb_state_of(c->ip[seg]);
    ip->ip_id = (uint16_t)(seg + 1);
    int oudp = f.n;
    struct pb_layer *u = pb_push(&f, PB_UDP);
    u->csum = pb_state_of(c->oudp[seg]);
    u->sport = 40000;
    struct pb_layer *vx = pb_push(&f, PB_VXLAN);
    vx->rco = c->rco;
    pb_push(&f, PB_ETH);
    struct pb_layer *in = pb_push(&f, c->inner6 ? PB_IPV6 : PB_IPV4);
    in->ip_id = (uint16_t)(seg + 1);
    int il4 = f.n;
    struct pb_layer *l4 = pb_push(&f, c->tcp ? PB_TCP : PB_UDP);
    l4->csum = pb_state_of(c->icsum[seg]);
    l4->sport = (uint16_t)(20000 + c->id);
    if (c->nosock)
        l4->dport = c->tcp ? 5003 : 5002;     /* nothing listens there */
    if (c->tcp) {
        l4->seq = 1000u + (uint32_t)seg * KD_TCP_PAYLOAD;
        l4->ack = 1;
    }
    struct pb_layer *pl = pb_push(&f, PB_PAYLOAD);
    pl->len = c->tcp ? KD_TCP_PAYLOAD : KD_UDP_PAYLOAD;
    pl->fill = (uint8_t)(0x40 + seg);
    size_t n = pb_build(&f, out, cap);
    if (fi) {
        memset(fi, 0, sizeof *fi);
        fi->len = n;
        fi->outer_l4 = f.off[oudp];
        fi->outer_csum = f.off[oudp] + 6;
        fi->inner_l4 = f.off[il4];
        fi->inner_csum = f.off[il4] + (c->tcp ? 16 : 6);
        fi->inner_l3_len = f.len - f.off[il4 - 1];
    }
    return n;
}
