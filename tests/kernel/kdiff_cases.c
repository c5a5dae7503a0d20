/*
 * kdiff_cases.c - the case matrix of the live-kernel differential test:
 * every tunnel the kernels carry, over IPv4 and IPv6, with every device
 * report the harness can make, the checksum states of each layer, the header
 * variants each tunnel has, the receiver options of each device, and runs of
 * segments for GRO. Frames and receivers: kdiff_frames.c.
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

const char *kd_addr_name(unsigned a)
{
    static const char *const names[KA__COUNT] = { "", "+src-loopback", "+dst-loopback", "+src-mcast",
                                                  "+src-zeronet", "+dst-zeronet", "+dst-mc-scope1",
                                                  "+dst-mc-scope0" };
    return a < KA__COUNT ? names[a] : "?";
}

const struct kd_hbh kd_hbh_opts[] = {
    { "padn", { 1, 4, 0, 0, 0, 0 } },          /* PadN of 4: taken */
    { "skip", { 0x3e, 4, 0, 0, 0, 0 } },       /* unknown, action 00: skipped */
    { "discard", { 0x7e, 4, 0, 0, 0, 0 } },    /* unknown, action 01: dropped */
    { "icmp", { 0xbe, 4, 0, 0, 0, 0 } },       /* unknown, action 10: parameter problem */
    { "icmp-uc", { 0xfe, 4, 0, 0, 0, 0 } },    /* unknown, action 11 */
    { "padn-data", { 1, 4, 0, 1, 0, 0 } },     /* PadN with a non-zero byte */
    { "ra", { 5, 2, 0, 0, 0, 0 } },            /* router alert + Pad1 x 2 */
    { "ra-len4", { 5, 4, 0, 0, 0, 0 } },       /* router alert of length 4 */
};
const unsigned kd_n_hbh_opts = sizeof kd_hbh_opts / sizeof *kd_hbh_opts;

const char *kd_report_name(unsigned r)
{
    return r < sizeof report_names / sizeof *report_names ? report_names[r] : "?";
}

int kd_is_udp_tunnel(const struct kd_group *g)
{
    return g->tun == KT_VXLAN || g->tun == KT_GPE || g->tun == KT_GENEVE || g->tun == KT_FOU ||
           g->tun == KT_GUE || g->tun == KT_GREUDP || (g->tun == KT_L2TP && g->payload == KD_L2TP_UDP);
}

int kd_inner_l2(const struct kd_case *c)
{
    return c->g.tun == KT_VXLAN || c->g.tun == KT_GRETAP || c->g.tun == KT_ERSPAN || c->g.tun == KT_L2TP ||
           (c->g.tun == KT_GENEVE && !(c->hdr & KH_L3));
}

const char *kd_tun_name(const struct kd_group *g)
{
    static const char *const fou[2][3] = { { "fou-ipip", "fou-sit", "fou-gre" },
                                           { "fou-4in6", "fou-6in6", "fou-ip6gre" } };
    static const char *const gue[2][3] = { { "gue-ipip", "gue-sit", "gue-gre" },
                                           { "gue-4in6", "gue-6in6", "gue-ip6gre" } };
    int v6 = g->v6 != 0, p = g->payload == 4 ? 0 : g->payload == 41 ? 1 : 2;
    switch (g->tun) {
    case KT_VXLAN: return "vxlan";
    case KT_GPE: return "vxlan-gpe";
    case KT_GENEVE: return "geneve";
    case KT_GRE: return v6 ? "ip6gre" : "gre";
    case KT_GRETAP: return v6 ? "ip6gretap" : "gretap";
    case KT_IPIP: return v6 ? "ip6tnl-4in6" : "ipip";
    case KT_IP6: return v6 ? "ip6tnl-6in6" : "sit";
    case KT_FOU: return fou[v6][p];
    case KT_GUE: return gue[v6][p];
    case KT_GREUDP: return v6 ? "gre-in-udp6" : "gre-in-udp";
    case KT_PLAIN: return v6 ? "plain6" : "plain4";
    case KT_ERSPAN: return v6 ? "ip6erspan" : "erspan";
    case KT_L2TP:
        if (g->payload == KD_L2TP_UDP)
            return v6 ? "l2tp-udp6" : "l2tp-udp";
        return v6 ? "l2tp-ip6" : "l2tp-ip";
    default: return "?";
    }
}

int kd_ns_eq(const struct kd_group *a, const struct kd_group *b)
{
    return a->v6 == b->v6 && a->napi == b->napi && a->gro == b->gro && a->level == b->level;
}

int kd_dev_eq(const struct kd_group *a, const struct kd_group *b)
{
    return a->tun == b->tun && a->payload == b->payload && a->opts == b->opts;
}

int kd_group_eq(const struct kd_group *a, const struct kd_group *b)
{
    return kd_ns_eq(a, b) && kd_dev_eq(a, b);
}

/* Variant of a device within its tunnel kind, from its options (0..15) */
static int dev_variant(const struct kd_group *g)
{
    int icsum = (g->opts & KO_ICSUM) != 0, p = g->payload == 4 ? 0 : g->payload == 41 ? 1 : 2;
    switch (g->tun) {
    case KT_VXLAN: return g->opts & (KO_REMCSUM | KO_NOPARTIAL | KO_NOREMCSUM | KO_U6Z);
    case KT_GPE: return (g->opts & KO_U6Z) != 0;
    case KT_GENEVE:
        return ((g->opts & KO_U6Z) ? 1 : 0) | ((g->opts & KO_EXTERNAL) ? 2 : 0) | ((g->opts & KO_INHERIT) ? 4 : 0);
    case KT_GRE: case KT_GRETAP: return icsum | ((g->opts & KO_IKEY) ? 2 : 0);
    case KT_FOU: case KT_GUE: return p + (p == 2 && icsum);
    case KT_GREUDP: return icsum;
    case KT_ERSPAN: return (g->opts & KO_ERSPAN1) ? 1 : (g->opts & KO_ERSPAN2) ? 2 : 0;
    case KT_L2TP: return g->payload == KD_L2TP_UDP;
    default: return 0;
    }
}

void kd_dev_of(const struct kd_group *g, struct kd_devspec *d)
{
    int v = dev_variant(g), nogro = (g->opts & KO_NOGRO) != 0;
    d->idx = g->tun * 16 + v;
    snprintf(d->name, sizeof d->name, "%c%d", nogro ? 'n' : 't', d->idx);
    d->peer = (uint8_t)(20 + d->idx);
    d->net = (uint8_t)(nogro ? 3 : 0);
    switch (g->tun) {
    case KT_VXLAN: d->port = (uint16_t)(v ? 4800 + v : 4789); break;
    case KT_GPE: d->port = (uint16_t)(v ? 4890 : 4790); break;
    case KT_GENEVE: d->port = (uint16_t)(v ? 6090 + v : 6081); break;
    case KT_FOU: d->port = (uint16_t)(KD_FOU_PORT + v); break;
    case KT_GUE: d->port = (uint16_t)(KD_GUE_PORT + 100 * v); break;
    case KT_GREUDP: d->port = (uint16_t)(KD_GREUDP_PORT + v); break;
    case KT_L2TP: d->port = v ? KD_L2TP_PORT : 0; break;
    default: d->port = 0; break;
    }
    if (d->port && nogro)
        d->port = (uint16_t)(d->port + 1000);
}

uint32_t kd_l2tp_id(const struct kd_group *g)
{
    struct kd_devspec ds;
    kd_dev_of(g, &ds);
    return (uint32_t)ds.idx + (ds.net ? 1000u : 0u);
}

void kd_peer_text(const struct kd_group *g, char *buf, size_t n)
{
    struct kd_devspec ds;
    kd_dev_of(g, &ds);
    if (!g->v6)
        snprintf(buf, n, "10.0.%u.%u", ds.net, ds.peer);
    else if (ds.net)
        snprintf(buf, n, "2001:db8::%x:%x", ds.net, ds.peer);
    else
        snprintf(buf, n, "2001:db8::%x", ds.peer);
}

static size_t opts_text(uint16_t opts, char *buf, size_t n)
{
    static const char *const names[] = { " remcsumrx", " nopartial", " noremcsumrx", " udp6zerocsumrx",
                                         " external", " innerprotoinherit", " icsum", " ikey",
                                         " erspan_ver1", " erspan_ver2", " nogro" };
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof names / sizeof *names && o < n; i++)
        if (opts & (1u << i))
            o += (size_t)snprintf(buf + o, n - o, "%s", names[i]);
    return o;
}

void kd_group_label(const struct kd_group *g, char *buf, size_t n)
{
    char opts[128];
    opts_text(g->opts, opts, sizeof opts);
    snprintf(buf, n, "%s, %s underlay, TAP %s%s%s%s%s", kd_tun_name(g), g->v6 ? "IPv6" : "IPv4",
             g->napi ? "IFF_NAPI" : "plain", g->gro ? " + gro_flush_timeout" : "",
             g->level >= 0 ? (g->level ? " + BPF level 1" : " + BPF level 0") : "", opts[0] ? "," : "", opts);
}

static void states(char *buf, size_t n, const uint8_t *s, int nseg)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < nseg && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "", kd_state_name(s[i]));
}

static void hdr_text(const struct kd_case *c, char *buf, size_t n)
{
    static const char *const names[] = { "+rco", "+C", "+K", "+S", "+opt", "+crit", "+oam", "+ver1",
                                         "+l3", "+ctrl", "+privflag", "+direct", "+flag", "+ver2",
                                         "+erspan2", "+erspan3" };
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof names / sizeof *names && o < n; i++)
        if (c->hdr & (1u << i))
            o += (size_t)snprintf(buf + o, n - o, "%s", names[i]);
}

void kd_case_label(const struct kd_case *c, char *buf, size_t n)
{
    char ip[64], ou[64] = "", gc[64] = "", in[48], hdr[64], opts[128], s[40];
    if (c->g.v6)
        snprintf(ip, sizeof ip, "ip6");
    else {
        states(s, sizeof s, c->ip, c->nseg);
        snprintf(ip, sizeof ip, "ip=%s", s);
    }
    if (kd_is_udp_tunnel(&c->g)) {
        states(s, sizeof s, c->oudp, c->nseg);
        snprintf(ou, sizeof ou, " udp=%s", s);
    }
    if (c->hdr & KH_GRE_C) {
        states(s, sizeof s, c->gcs, c->nseg);
        snprintf(gc, sizeof gc, " grecsum=%s", s);
    }
    states(in, sizeof in, c->icsum, c->nseg);
    hdr_text(c, hdr, sizeof hdr);
    opts_text(c->g.opts, opts, sizeof opts);
    const char *tap = c->g.gro ? "napi+gro" : c->g.napi ? "napi" : "plain";
    int in6 = c->inner6;
    if (c->g.tun == KT_IPIP || ((c->g.tun == KT_FOU || c->g.tun == KT_GUE) && c->g.payload == 4))
        in6 = 0;
    if (c->g.tun == KT_IP6 || ((c->g.tun == KT_FOU || c->g.tun == KT_GUE) && c->g.payload == 41))
        in6 = 1;
    if (c->frag) {                    /* one frame, cut: its states are the first segment's */
        if (kd_is_udp_tunnel(&c->g))
            snprintf(ou, sizeof ou, " udp=%s", kd_state_name(c->oudp[0]));
        snprintf(in, sizeof in, "%s", kd_state_name(c->icsum[0]));
        size_t o = strlen(hdr);
        snprintf(hdr + o, sizeof hdr - o, "+frag%d%s", c->nseg, c->frag == KF_REVERSE ? "-reversed" : "");
    }
    size_t hl = strlen(hdr);
    hl += (size_t)snprintf(hdr + hl, sizeof hdr - hl, "%s", kd_addr_name(c->addr));
    if (c->hbh && c->hbh <= kd_n_hbh_opts && hl < sizeof hdr)
        hl += (size_t)snprintf(hdr + hl, sizeof hdr - hl, "+hbh-%s", kd_hbh_opts[c->hbh - 1].name);
    if (c->icmp && hl < sizeof hdr)
        snprintf(hdr + hl, sizeof hdr - hl, "+icmp%u/%u", c->icmp_type, c->icmp_len);
    snprintf(buf, n, "%s%s %s%s%s %s%c=%s%s rx=%s tap=%s%s", kd_tun_name(&c->g), hdr, ip, ou, gc,
             c->icmp ? "icmp" : c->tcp ? "tcp" : "udp", in6 ? '6' : '4', in, c->nosock ? "(no-socket)" : "",
             kd_report_name(c->report), tap, opts);
}

/* ---- building the matrix ---- */

/* A device report and the TAP mode that goes with it */
struct rm { uint8_t report, napi; int8_t level; };

static const struct rm RM_ALL[] = {
    { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 }, { KR_POUT, 1, -1 },
    { KR_PIN, 0, -1 }, { KR_PIN, 1, -1 }, { KR_U0, 0, 0 }, { KR_U1, 0, 1 },
};
#define N_RM_ALL (sizeof RM_ALL / sizeof *RM_ALL)
static const struct rm RM_FEW[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_PIN, 0, -1 }, { KR_U1, 0, 1 } };
#define N_RM_FEW (sizeof RM_FEW / sizeof *RM_FEW)
static const struct rm RM_NONE2[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 } };

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

static struct kd_case base(uint8_t tun, uint8_t payload, int v6, const struct rm *rm, uint16_t opts)
{
    struct kd_case c;
    memset(&c, 0, sizeof c);
    c.g.tun = tun;
    c.g.payload = payload;
    c.g.v6 = (uint8_t)v6;
    c.g.napi = rm->napi;
    c.g.level = rm->level;
    c.g.opts = opts;
    c.report = rm->report;
    c.nseg = 1;
    return c;
}

/* The inner transports of a single frame: TCP ok/bad, UDP ok/bad/zero */
static const struct { uint8_t tcp, state; } INNERS[] = {
    { 1, KS_OK }, { 1, KS_BAD }, { 0, KS_OK }, { 0, KS_BAD }, { 0, KS_ZERO },
};
#define N_INNERS (sizeof INNERS / sizeof *INNERS)

/* What every tunnel gets: both underlays x every report the frame allows x
 * outer UDP ok/bad/zero (UDP tunnels; over IPv6 zero also with
 * udp6zerocsumrx where the device has it) x the inner transports; and a bad
 * outer IPv4 header checksum (under every report with ip_bad_everywhere,
 * else twice). hdr: header variant bits of every frame. */
static void core_ip(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, uint16_t hdr, int inner6,
                    int u6z_knob, int ip_bad_everywhere)
{
    struct kd_group g = { tun, payload, 0, 0, 0, -1, opts };
    int udp = kd_is_udp_tunnel(&g), outer_l4 = udp || (hdr & KH_GRE_C);
    for (int v6 = 0; v6 <= 1; v6++) {
        for (size_t r = 0; r < N_RM_ALL; r++) {
            if (RM_ALL[r].report == KR_POUT && !outer_l4)
                continue;
            int ip_max = ip_bad_everywhere && !v6 ? KS_BAD : KS_OK;
            for (int ip = KS_OK; ip <= ip_max; ip++)
                for (int ou = KS_OK; ou <= (udp ? KS_ZERO : KS_OK); ou++)
                    for (int z = 0; z <= (v6 && ou == KS_ZERO && u6z_knob); z++)
                        for (size_t i = 0; i < N_INNERS; i++) {
                            struct kd_case c =
                                base(tun, payload, v6, &RM_ALL[r], (uint16_t)(opts | (z ? KO_U6Z : 0)));
                            c.hdr = hdr;
                            c.inner6 = (uint8_t)inner6;
                            c.ip[0] = (uint8_t)ip;
                            c.oudp[0] = (uint8_t)ou;
                            c.tcp = INNERS[i].tcp;
                            c.icsum[0] = INNERS[i].state;
                            add(b, &c);
                        }
        }
        if (!v6 && !ip_bad_everywhere)
            for (size_t r = 0; r < N_RM_FEW; r += 3) {
                struct kd_case c = base(tun, payload, 0, &RM_FEW[r], opts);
                c.hdr = hdr;
                c.inner6 = (uint8_t)inner6;
                c.ip[0] = KS_BAD;
                c.tcp = 1;
                add(b, &c);
            }
    }
}

static void core(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, uint16_t hdr, int inner6,
                 int u6z_knob)
{
    core_ip(b, tun, payload, opts, hdr, inner6, u6z_knob, 0);
}

/* The same for a tunnel that is a variant of one with the full core (VXLAN-GPE
 * of VXLAN, gretap of GRE, the sit and GRE payloads of FOU and GUE,
 * GRE-in-UDP of FOU-GRE): five reports (none plain and IFF_NAPI, the
 * outermost L4 partial where there is one, inner partial, unnecessary:1) x
 * outer UDP ok/bad/zero x TCP ok/bad, UDP zero. It keeps the VM matrix within
 * its time: a case costs about 9 ms under TCG. */
static void core_light(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, uint16_t hdr, int inner6)
{
    static const struct rm rms[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 },
                                     { KR_PIN, 0, -1 }, { KR_U1, 0, 1 } };
    static const struct { uint8_t tcp, state; } inners[] = { { 1, KS_OK }, { 1, KS_BAD }, { 0, KS_ZERO } };
    struct kd_group g = { tun, payload, 0, 0, 0, -1, opts };
    int udp = kd_is_udp_tunnel(&g), outer_l4 = udp || (hdr & KH_GRE_C);
    for (int v6 = 0; v6 <= 1; v6++) {
        for (size_t r = 0; r < sizeof rms / sizeof *rms; r++) {
            if (rms[r].report == KR_POUT && !outer_l4)
                continue;
            for (int ou = KS_OK; ou <= (udp ? KS_ZERO : KS_OK); ou++)
                for (size_t i = 0; i < sizeof inners / sizeof *inners; i++) {
                    struct kd_case c = base(tun, payload, v6, &rms[r], opts);
                    c.hdr = hdr;
                    c.inner6 = (uint8_t)inner6;
                    c.oudp[0] = (uint8_t)ou;
                    c.tcp = inners[i].tcp;
                    c.icsum[0] = inners[i].state;
                    add(b, &c);
                }
        }
        if (!v6) {
            struct kd_case c = base(tun, payload, 0, &rms[0], opts);
            c.hdr = hdr;
            c.inner6 = (uint8_t)inner6;
            c.ip[0] = KS_BAD;
            c.tcp = 1;
            add(b, &c);
        }
    }
}

/* Header variants: each on both underlays, a few reports, TCP ok/bad and
 * UDP ok. */
static void variants(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, const uint16_t *hdrs,
                     size_t nh, const struct rm *rms, size_t nrm, int inner6)
{
    static const struct { uint8_t tcp, state; } in3[] = { { 1, KS_OK }, { 1, KS_BAD }, { 0, KS_OK } };
    for (size_t h = 0; h < nh; h++)
        for (int v6 = 0; v6 <= 1; v6++)
            for (size_t r = 0; r < nrm; r++)
                for (size_t i = 0; i < 3; i++) {
                    struct kd_case c = base(tun, payload, v6, &rms[r], opts);
                    c.hdr = hdrs[h];
                    c.inner6 = (uint8_t)inner6;
                    c.tcp = in3[i].tcp;
                    c.icsum[0] = in3[i].state;
                    add(b, &c);
                }
}

/* Inner IPv6 (where the tunnel carries either family) and no listener. */
static void inner6_nosock(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, uint16_t hdr,
                          int both_families)
{
    for (int v6 = 0; v6 <= 1; v6++) {
        for (size_t r = 0; both_families && r < N_RM_FEW; r++)
            for (size_t i = 0; i < N_INNERS; i++) {
                struct kd_case c = base(tun, payload, v6, &RM_FEW[r], opts);
                c.hdr = hdr;
                c.inner6 = 1;
                c.tcp = INNERS[i].tcp;
                c.icsum[0] = INNERS[i].state;
                add(b, &c);
            }
        for (int tcp = 0; tcp <= 1; tcp++)
            for (int ic = KS_OK; ic <= KS_BAD; ic++) {
                struct kd_case c = base(tun, payload, v6, &RM_FEW[0], opts);
                c.hdr = hdr;
                c.nosock = 1;
                c.tcp = (uint8_t)tcp;
                c.icsum[0] = (uint8_t)ic;
                add(b, &c);
            }
    }
}

static void run_of(struct builder *b, const struct kd_group *g, uint8_t report, uint16_t hdr, int tcp,
                   int inner6, const uint8_t *ou, const uint8_t *ic, int nseg)
{
    struct kd_case c;
    memset(&c, 0, sizeof c);
    c.g = *g;
    c.report = report;
    c.hdr = hdr;
    c.tcp = (uint8_t)tcp;
    c.inner6 = (uint8_t)inner6;
    c.nseg = (uint8_t)nseg;
    for (int i = 0; i < nseg; i++) {
        c.oudp[i] = ou ? ou[i] : KS_OK;
        c.icsum[i] = ic[i];
    }
    add(b, &c);
}

static const uint8_t P_OK2[] = { KS_OK, KS_OK }, P_OKBAD[] = { KS_OK, KS_BAD }, P_BADOK[] = { KS_BAD, KS_OK },
                     P_OK4[] = { KS_OK, KS_OK, KS_OK, KS_OK }, P_OK_BAD3[] = { KS_OK, KS_OK, KS_BAD, KS_OK },
                     P_SEED2[] = { KS_SEED, KS_SEED }, P_SEEDGARB[] = { KS_SEED, KS_GARB },
                     OU_OKBAD[] = { KS_OK, KS_BAD }, OU_ZEROOK[] = { KS_ZERO, KS_OK },
                     OU_ZERO2[] = { KS_ZERO, KS_ZERO }, OU_ZERO4[] = { KS_ZERO, KS_ZERO, KS_ZERO, KS_ZERO };

/* Runs of one flow through the TAP's GRO (IFF_NAPI + gro_flush_timeout). */
static void runs(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, uint16_t hdr, int pout)
{
    const uint8_t reports[] = { KR_NONE, KR_POUT, KR_PIN };
    for (int v6 = 0; v6 <= 1; v6++) {
        struct kd_group g = { tun, payload, (uint8_t)v6, 1, 1, -1, opts };
        int udp = kd_is_udp_tunnel(&g);
        for (size_t r = 0; r < sizeof reports; r++) {
            if (reports[r] == KR_POUT && !pout)
                continue;
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_OK2, 2);
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_OKBAD, 2);
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_BADOK, 2);
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_OK4, 4);
            run_of(b, &g, reports[r], hdr, 0, 0, NULL, P_OK2, 2);
        }
        if (udp) {
            run_of(b, &g, KR_NONE, hdr, 1, 0, OU_OKBAD, P_OK2, 2);
            /* a zero and a non-zero outer checksum: different GRO flows */
            if (!v6)
                run_of(b, &g, KR_NONE, hdr, 1, 0, OU_ZEROOK, P_OK2, 2);
            /* the 82599 case of seed 004: a zero outer checksum, the NIC
             * reports nothing; before 5.12 the tunnel GRO gate refused */
            struct kd_group gz = g;
            if (v6 && (tun == KT_VXLAN || tun == KT_GENEVE || tun == KT_GPE))
                gz.opts |= KO_U6Z;
            run_of(b, &gz, KR_NONE, hdr, 1, 0, OU_ZERO2, P_OK2, 2);
            run_of(b, &gz, KR_NONE, hdr, 1, 0, OU_ZERO4, P_OK4, 4);
            run_of(b, &gz, KR_NONE, hdr, 1, 0, OU_ZERO4, P_OK_BAD3, 4);
        }
    }
}

/* The GRO runs of a variant tunnel (see core_light): pairs ok,ok and ok,bad
 * and a run of 4 with no report and partial:inner; zero outer checksums. */
static void runs_light(struct builder *b, uint8_t tun, uint8_t payload, uint16_t opts, uint16_t hdr)
{
    const uint8_t reports[] = { KR_NONE, KR_PIN };
    for (int v6 = 0; v6 <= 1; v6++) {
        struct kd_group g = { tun, payload, (uint8_t)v6, 1, 1, -1, opts };
        for (size_t r = 0; r < sizeof reports; r++) {
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_OK2, 2);
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_OKBAD, 2);
            run_of(b, &g, reports[r], hdr, 1, 0, NULL, P_OK4, 4);
        }
        if (kd_is_udp_tunnel(&g)) {
            struct kd_group gz = g;
            if (v6 && (tun == KT_VXLAN || tun == KT_GENEVE || tun == KT_GPE))
                gz.opts |= KO_U6Z;
            run_of(b, &gz, KR_NONE, hdr, 1, 0, OU_ZERO2, P_OK2, 2);
            run_of(b, &gz, KR_NONE, hdr, 1, 0, OU_ZERO4, P_OK_BAD3, 4);
        }
    }
}

/* ---- VXLAN: the original matrix of the host test ---- */

static void vxlan(struct builder *b)
{
    /* the host's matrix: a bad outer IPv4 header under every report, and
     * inner IPv6 under six reports with the outer UDP ok and bad */
    core_ip(b, KT_VXLAN, 0, 0, 0, 0, 1, 1);
    inner6_nosock(b, KT_VXLAN, 0, 0, 0, 1);
    static const struct rm RM_INNER6[] = { { KR_POUT, 0, -1 }, { KR_PIN, 1, -1 }, { KR_U0, 0, 0 } };
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < sizeof RM_INNER6 / sizeof *RM_INNER6; r++)
            for (int ou = KS_OK; ou <= KS_BAD; ou++)
                for (size_t i = 0; i < N_INNERS; i++) {
                    struct kd_case c = base(KT_VXLAN, 0, v6, &RM_INNER6[r], 0);
                    c.inner6 = 1;
                    c.oudp[0] = (uint8_t)ou;
                    c.tcp = INNERS[i].tcp;
                    c.icsum[0] = INNERS[i].state;
                    add(b, &c);
                }
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t i = 0; i < N_INNERS; i++) {
            struct kd_case c = base(KT_VXLAN, 0, v6, &RM_FEW[0], 0);
            c.inner6 = 1;
            c.oudp[0] = KS_BAD;
            c.tcp = INNERS[i].tcp;
            c.icsum[0] = INNERS[i].state;
            add(b, &c);
        }
    /* RCO: remcsumrx, remcsumrx + nopartial, off; outer UDP ok/bad/zero;
     * TCP/UDP inner with a good seed or garbage in the inner field */
    static const struct rm RM_RCO[] = {
        { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 }, { KR_POUT, 1, -1 },
        { KR_PIN, 0, -1 }, { KR_U0, 0, 0 }, { KR_U1, 0, 1 },
    };
    static const struct rm RM_RCO_OFF[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 },
                                            { KR_U1, 0, 1 } };
    for (int v6 = 0; v6 <= 1; v6++)
        for (int on = 2; on >= 0; on--) {
            const struct rm *rms = on ? RM_RCO : RM_RCO_OFF;
            size_t nrm = on ? sizeof RM_RCO / sizeof *RM_RCO : sizeof RM_RCO_OFF / sizeof *RM_RCO_OFF;
            uint16_t opts = (uint16_t)(on ? KO_REMCSUM : 0) | (on == 2 ? KO_NOPARTIAL : 0);
            for (size_t r = 0; r < nrm; r++)
                for (int ou = KS_OK; ou <= KS_ZERO; ou++) {
                    int zmax = v6 && ou == KS_ZERO;
                    int zmin = zmax && !(rms[r].report == KR_NONE && !rms[r].napi);
                    for (int z = zmax; z >= zmin; z--)
                        for (int tcp = 0; tcp <= 1; tcp++)
                            for (int seed = KS_SEED; seed <= KS_GARB; seed++) {
                                struct kd_case c = base(KT_VXLAN, 0, v6, &rms[r], (uint16_t)(opts | (z ? KO_U6Z : 0)));
                                c.hdr = KH_RCO;
                                c.oudp[0] = (uint8_t)ou;
                                c.tcp = (uint8_t)tcp;
                                c.icsum[0] = (uint8_t)seed;
                                add(b, &c);
                            }
                }
        }
    /* noremcsumrx given explicitly: from v6.14 the RCO bits are then not reserved */
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < 2; r++)
            for (int tcp = 0; tcp <= 1; tcp++)
                for (int seed = KS_SEED; seed <= KS_GARB; seed++) {
                    struct kd_case c = base(KT_VXLAN, 0, v6, &RM_NONE2[r], KO_NOREMCSUM);
                    c.hdr = KH_RCO;
                    c.tcp = (uint8_t)tcp;
                    c.icsum[0] = (uint8_t)seed;
                    add(b, &c);
                }
    runs(b, KT_VXLAN, 0, 0, 0, 1);
    /* RCO runs: GRO remcsum with a good and a garbage seed */
    for (int v6 = 0; v6 <= 1; v6++)
        for (int on = 1; on <= 2; on++) {
            struct kd_group g = { KT_VXLAN, 0, (uint8_t)v6, 1, 1, -1,
                                  (uint16_t)(KO_REMCSUM | (on == 2 ? KO_NOPARTIAL : 0)) };
            for (int tcp = 0; tcp <= 1; tcp++) {
                run_of(b, &g, KR_NONE, KH_RCO, tcp, 0, NULL, P_SEED2, 2);
                run_of(b, &g, KR_NONE, KH_RCO, tcp, 0, NULL, P_SEEDGARB, 2);
            }
        }
    /* controls: no coalescing without IFF_NAPI, or without a flush timeout */
    for (int v6 = 0; v6 <= 1; v6++) {
        struct kd_group g0 = { KT_VXLAN, 0, (uint8_t)v6, 0, 0, -1, 0 }, g1 = { KT_VXLAN, 0, (uint8_t)v6, 1, 0, -1, 0 };
        run_of(b, &g0, KR_NONE, 0, 1, 0, NULL, P_OK2, 2);
        run_of(b, &g1, KR_NONE, 0, 1, 0, NULL, P_OK2, 2);
    }
}

/* ---- the other tunnels ---- */

static void geneve(struct builder *b)
{
    core(b, KT_GENEVE, 0, 0, 0, 0, 1);
    inner6_nosock(b, KT_GENEVE, 0, 0, 0, 1);
    static const uint16_t hdrs[] = { KH_GNV_OPT, KH_GNV_CRIT, KH_GNV_CRIT | KH_GNV_OPT, KH_GNV_OAM,
                                     KH_GNV_VER1, KH_L3 };
    static const uint16_t opts[] = { 0, KO_EXTERNAL, KO_INHERIT };
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++)
        variants(b, KT_GENEVE, 0, opts[o], hdrs, sizeof hdrs / sizeof *hdrs, RM_NONE2, 2, 0);
    /* external: zero outer checksum over IPv6 without udp6zerocsumrx */
    for (size_t r = 0; r < N_RM_FEW; r++) {
        struct kd_case c = base(KT_GENEVE, 0, 1, &RM_FEW[r], KO_EXTERNAL);
        c.oudp[0] = KS_ZERO;
        c.tcp = 1;
        add(b, &c);
    }
    runs(b, KT_GENEVE, 0, 0, 0, 1);
    /* GRO and the header: options, OAM, version 1 */
    static const uint16_t gro_hdrs[] = { KH_GNV_OPT, KH_GNV_OAM, KH_GNV_VER1 };
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t h = 0; h < sizeof gro_hdrs / sizeof *gro_hdrs; h++) {
            struct kd_group g = { KT_GENEVE, 0, (uint8_t)v6, 1, 1, -1, KO_EXTERNAL };
            run_of(b, &g, KR_NONE, gro_hdrs[h], 1, 0, NULL, P_OK2, 2);
        }
}

static void gpe(struct builder *b)
{
    core_light(b, KT_GPE, 0, 0, 0, 0);
    inner6_nosock(b, KT_GPE, 0, 0, 0, 1);
    runs_light(b, KT_GPE, 0, 0, 0);
}

/* GRE: a receiver with or without icsum and ikey, and the frames that match
 * it or not (a checksum flag that differs from the device's is dropped) */
static void gre_family(struct builder *b, uint8_t tun, uint8_t payload)
{
    core(b, tun, payload, KO_ICSUM, KH_GRE_C, 0, 0);     /* GRE checksum present and required */
    static const struct { uint16_t opts, hdr; } combos[] = {
        { 0, 0 }, { 0, KH_GRE_S }, { 0, KH_GRE_C }, { KO_ICSUM, 0 }, { KO_ICSUM, KH_GRE_C | KH_GRE_S },
        { KO_IKEY, KH_GRE_K }, { KO_IKEY, KH_GRE_K | KH_GRE_S }, { KO_IKEY, KH_GRE_K | KH_GRE_C },
        { KO_ICSUM | KO_IKEY, KH_GRE_C | KH_GRE_K }, { KO_ICSUM | KO_IKEY, KH_GRE_C | KH_GRE_K | KH_GRE_S },
    };
    for (size_t i = 0; i < sizeof combos / sizeof *combos; i++)
        variants(b, tun, payload, combos[i].opts, &combos[i].hdr, 1, RM_FEW, N_RM_FEW, 0);
    /* a bad GRE checksum */
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < N_RM_ALL; r++) {
            struct kd_case c = base(tun, payload, v6, &RM_ALL[r], KO_ICSUM);
            c.hdr = KH_GRE_C;
            c.gcs[0] = KS_BAD;
            c.tcp = 1;
            add(b, &c);
        }
}

static void gre(struct builder *b)
{
    gre_family(b, KT_GRE, 0);
    inner6_nosock(b, KT_GRE, 0, 0, 0, 1);
    runs(b, KT_GRE, 0, 0, 0, 0);
    runs(b, KT_GRE, 0, KO_ICSUM, KH_GRE_C, 1);
    core_light(b, KT_GRETAP, 0, 0, 0, 0);
    inner6_nosock(b, KT_GRETAP, 0, 0, 0, 1);
    static const uint16_t hdrs[] = { KH_GRE_C, KH_GRE_S };
    variants(b, KT_GRETAP, 0, KO_ICSUM, hdrs, 1, RM_FEW, N_RM_FEW, 0);
    variants(b, KT_GRETAP, 0, 0, hdrs + 1, 1, RM_FEW, N_RM_FEW, 0);
    runs_light(b, KT_GRETAP, 0, 0, 0);
}

static void ip_in_ip(struct builder *b)
{
    core(b, KT_IPIP, 0, 0, 0, 0, 0);
    inner6_nosock(b, KT_IPIP, 0, 0, 0, 0);
    runs(b, KT_IPIP, 0, 0, 0, 0);
    core(b, KT_IP6, 0, 0, 0, 1, 0);
    inner6_nosock(b, KT_IP6, 0, 0, 0, 0);
    runs(b, KT_IP6, 0, 0, 0, 0);
}

static void fou(struct builder *b)
{
    static const uint8_t payloads[] = { 4, 41, 47 };
    for (size_t p = 0; p < sizeof payloads; p++) {
        if (payloads[p] == 4) {
            core(b, KT_FOU, 4, 0, 0, 0, 0);
            runs(b, KT_FOU, 4, 0, 0, 1);
        } else {
            core_light(b, KT_FOU, payloads[p], 0, 0, payloads[p] == 41);
            runs_light(b, KT_FOU, payloads[p], 0, 0);
        }
        inner6_nosock(b, KT_FOU, payloads[p], 0, 0, payloads[p] == 47);
    }
    /* GRE under FOU with a checksum (is_fou: GRO refuses it) */
    static const uint16_t c_hdr[] = { KH_GRE_C };
    variants(b, KT_FOU, 47, KO_ICSUM, c_hdr, 1, RM_FEW, N_RM_FEW, 0);
    runs(b, KT_FOU, 47, KO_ICSUM, KH_GRE_C, 1);
    /* GRE-in-UDP, port 4754 */
    core_light(b, KT_GREUDP, 0, 0, 0, 0);
    inner6_nosock(b, KT_GREUDP, 0, 0, 0, 1);
    variants(b, KT_GREUDP, 0, KO_ICSUM, c_hdr, 1, RM_FEW, N_RM_FEW, 0);
    runs_light(b, KT_GREUDP, 0, 0, 0);
}

static void gue(struct builder *b)
{
    static const uint8_t payloads[] = { 4, 41, 47 };
    for (size_t p = 0; p < sizeof payloads; p++) {
        if (payloads[p] == 4) {
            core(b, KT_GUE, 4, 0, 0, 0, 0);
            runs(b, KT_GUE, 4, 0, 0, 1);
        } else {
            core_light(b, KT_GUE, payloads[p], 0, 0, payloads[p] == 41);
            runs_light(b, KT_GUE, payloads[p], 0, 0);
        }
        inner6_nosock(b, KT_GUE, payloads[p], 0, 0, payloads[p] == 47);
        static const uint16_t hdrs[] = { KH_GUE_CTRL, KH_GUE_PRIV, KH_GUE_FLAG, KH_GUE_VER2, KH_GUE_VER1 };
        variants(b, KT_GUE, payloads[p], 0, hdrs, payloads[p] == 47 ? 4 : 5, RM_NONE2, 2, payloads[p] == 41);
    }
    /* RCO: seed or garbage in the inner field, TCP/UDP, outer ok/zero */
    static const struct rm RM_RCO[] = { { KR_NONE, 0, -1 }, { KR_NONE, 1, -1 }, { KR_POUT, 0, -1 },
                                        { KR_PIN, 0, -1 }, { KR_U0, 0, 0 }, { KR_U1, 0, 1 } };
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t r = 0; r < sizeof RM_RCO / sizeof *RM_RCO; r++)
            for (int ou = KS_OK; ou <= KS_ZERO; ou += KS_ZERO)
                for (int tcp = 0; tcp <= 1; tcp++)
                    for (int seed = KS_SEED; seed <= KS_GARB; seed++) {
                        struct kd_case c = base(KT_GUE, 4, v6, &RM_RCO[r], 0);
                        c.hdr = KH_RCO;
                        c.oudp[0] = (uint8_t)ou;
                        c.tcp = (uint8_t)tcp;
                        c.icsum[0] = (uint8_t)seed;
                        add(b, &c);
                    }
    for (int v6 = 0; v6 <= 1; v6++) {
        struct kd_group g = { KT_GUE, 4, (uint8_t)v6, 1, 1, -1, 0 };
        for (int tcp = 0; tcp <= 1; tcp++) {
            run_of(b, &g, KR_NONE, KH_RCO, tcp, 0, NULL, P_SEED2, 2);
            run_of(b, &g, KR_NONE, KH_RCO, tcp, 0, NULL, P_SEEDGARB, 2);
        }
    }
}

/* VXLAN on a fragmented underlay (issue 16): the frame cut into IP fragments
 * of 64 bytes, sent in order or last first; both underlays x inner IPv4/IPv6
 * x the inner transports x outer UDP ok/bad, on a plain TAP and (in order)
 * on a NAPI TAP whose GRO flushes every fragment; and one fragment with a bad
 * IPv4 header (ip_rcv_core drops it: the datagram never completes). The
 * kernel reassembles (ip_defrag / ipv6_frag_rcv), then decapsulates. */
static void add_fragmented(struct builder *b, struct kd_case c, int order)
{
    c.frag = (uint8_t)order;
    int n = kd_frag_count(&c);
    if (n < 2 || n > KD_MAX_SEGS)
        return;
    c.nseg = (uint8_t)n;
    for (int s = 1; s < n; s++) {
        c.oudp[s] = c.oudp[0];
        c.icsum[s] = c.icsum[0];
    }
    add(b, &c);
}

static void vxlan_fragmented(struct builder *b)
{
    for (int v6 = 0; v6 <= 1; v6++)
        for (int inner6 = 0; inner6 <= 1; inner6++)
            for (size_t i = 0; i < N_INNERS; i++)
                for (int ou = KS_OK; ou <= KS_BAD; ou++)
                    for (size_t r = 0; r < 2; r++)
                        for (int order = KF_INORDER; order <= KF_REVERSE; order++) {
                            if (RM_NONE2[r].napi && order == KF_REVERSE)
                                continue;
                            struct kd_case c = base(KT_VXLAN, 0, v6, &RM_NONE2[r], 0);
                            c.inner6 = (uint8_t)inner6;
                            c.tcp = INNERS[i].tcp;
                            c.icsum[0] = INNERS[i].state;
                            c.oudp[0] = (uint8_t)ou;
                            add_fragmented(b, c, order);
                        }
    for (int tcp = 0; tcp <= 1; tcp++) {
        struct kd_case c = base(KT_VXLAN, 0, 0, &RM_NONE2[0], 0);
        c.tcp = (uint8_t)tcp;
        c.ip[1] = KS_BAD;             /* the second fragment sent */
        add_fragmented(b, c, KF_INORDER);
    }
    /* every fragment CHECKSUM_UNNECESSARY level 0 (the tc BPF program): the
     * reassembled skb keeps it (inet_frag_reasm_finish), the outer UDP uses it */
    static const struct rm U0 = { KR_U0, 0, 0 };
    for (int v6 = 0; v6 <= 1; v6++)
        for (size_t i = 0; i < N_INNERS; i++)
            for (int ou = KS_OK; ou <= KS_BAD; ou++) {
                struct kd_case c = base(KT_VXLAN, 0, v6, &U0, 0);
                c.tcp = INNERS[i].tcp;
                c.icsum[0] = INNERS[i].state;
                c.oudp[0] = (uint8_t)ou;
                add_fragmented(b, c, KF_INORDER);
            }
}

/* Inner addresses the kernel drops by (docs/kernel-branches.md B1): VXLAN
 * over IPv4 and IPv6, inner IPv4 (the martians of ip_route_input_slow: a
 * silent drop after the device) and inner IPv6 (ip6_rcv_core:
 * Ip6InHdrErrors), TCP and UDP, no report and unnecessary:1. */
static void addresses(struct builder *b)
{
    static const uint8_t v4[] = { KA_SRC_LOOPBACK, KA_DST_LOOPBACK, KA_SRC_MCAST, KA_SRC_ZERONET,
                                  KA_DST_ZERONET };
    static const uint8_t v6[] = { KA_SRC_LOOPBACK, KA_DST_LOOPBACK, KA_SRC_MCAST, KA_DST_MC_SCOPE1,
                                  KA_DST_MC_SCOPE0 };
    static const struct rm rms[] = { { KR_NONE, 0, -1 }, { KR_U1, 0, 1 } };
    for (int v6u = 0; v6u <= 1; v6u++)
        for (int inner6 = 0; inner6 <= 1; inner6++)
            for (size_t a = 0; a < 5; a++)
                for (size_t r = 0; r < 2; r++)
                    for (int tcp = 0; tcp <= 1; tcp++) {
                        struct kd_case c = base(KT_VXLAN, 0, v6u, &rms[r], 0);
                        c.inner6 = (uint8_t)inner6;
                        c.addr = inner6 ? v6[a] : v4[a];
                        c.tcp = (uint8_t)tcp;
                        add(b, &c);
                    }
}

/* ICMP after its checksum (docs/kernel-branches.md B7): VXLAN over IPv4 and
 * IPv6, inner IPv4 ICMP of a type above 18, error messages whose quote is
 * under 20 bytes or has ihl < 5 (the payload's 0x40 fill), a redirect and
 * a timestamp too short (IcmpInErrors); an echo request and a timestamp
 * the kernel answers; a bad checksum before the type. None and
 * unnecessary:1. */
static void icmp_types(struct builder *b)
{
    static const struct { uint8_t type, len, bad; } t[] = {
        { 8, 56, 0 }, { 8, 56, 1 }, { 99, 16, 0 }, { 99, 16, 1 }, { 3, 8, 0 }, { 3, 28, 0 },
        { 11, 8, 0 }, { 5, 8, 0 }, { 13, 2, 0 }, { 13, 12, 0 },
    };
    static const struct rm rms[] = { { KR_NONE, 0, -1 }, { KR_U1, 0, 1 } };
    for (int v6u = 0; v6u <= 1; v6u++)
        for (size_t r = 0; r < 2; r++)
            for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
                struct kd_case c = base(KT_VXLAN, 0, v6u, &rms[r], 0);
                c.icmp = 1;
                c.icmp_type = t[i].type;
                c.icmp_len = t[i].len;
                c.icsum[0] = t[i].bad ? KS_BAD : KS_OK;
                add(b, &c);
            }
}

/* Hop-by-hop options (docs/kernel-branches.md B5): VXLAN over IPv4 and
 * IPv6, inner IPv6 TCP with a hop-by-hop header (kd_hbh_opts), none and
 * unnecessary:1. */
static void hbh_options(struct builder *b)
{
    static const struct rm rms[] = { { KR_NONE, 0, -1 }, { KR_U1, 0, 1 } };
    for (int v6u = 0; v6u <= 1; v6u++)
        for (size_t r = 0; r < 2; r++)
            for (unsigned h = 0; h < kd_n_hbh_opts; h++) {
                struct kd_case c = base(KT_VXLAN, 0, v6u, &rms[r], 0);
                c.inner6 = 1;
                c.tcp = 1;
                c.hbh = (uint8_t)(h + 1);
                add(b, &c);
            }
}

size_t kd_make_cases(struct kd_case *out, size_t cap)
{
    struct builder b = { out, cap, 0 };
    vxlan(&b);
    vxlan_fragmented(&b);
    gpe(&b);
    geneve(&b);
    gre(&b);
    ip_in_ip(&b);
    fou(&b);
    gue(&b);
    addresses(&b);
    icmp_types(&b);
    hbh_options(&b);
    return b.n;
}
