/*
 * kfuzz_gen.c - the recipe of fuzz frame (seed, index): a receiver (every
 * tunnel the model knows, each with its device options; the host kernel
 * only has VXLAN and no GRE/GENEVE/FOU modules, so it gets what it can
 * make), a namespace (underlay family, TAP plain / IFF_NAPI / a BPF
 * csum level), a device report, the inner family and transport, and 0-10
 * mutations drawn by weight over the kinds and layers that apply.
 *
 * The generator is splitmix64 seeded from (seed, index) alone, so frame I
 * of seed S is the same whatever ran before it.
 */
#include "kfuzz.h"

#include <string.h>

uint64_t kf_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
    return n ? (unsigned)(kf_rng_next(s) % n) : 0;
}

static int chance(uint64_t *s, unsigned percent)
{
    return below(s, 100) < percent;
}

const char *kf_tun_name(const struct kd_group *g)
{
    return kd_tun_name(g);
}

/* The receivers, by weight; the host kernel's modules allow the first three */
static const struct { uint8_t tun, payload, weight; } TUNS[] = {
    { KT_PLAIN, 0, 8 }, { KT_VXLAN, 0, 10 }, { KT_GPE, 0, 5 },
    { KT_GENEVE, 0, 8 }, { KT_GRE, 0, 6 }, { KT_GRETAP, 0, 5 }, { KT_IPIP, 0, 3 }, { KT_IP6, 0, 3 },
    { KT_FOU, 4, 2 }, { KT_FOU, 41, 2 }, { KT_FOU, 47, 2 }, { KT_GUE, 4, 3 }, { KT_GUE, 41, 2 },
    { KT_GUE, 47, 2 }, { KT_GREUDP, 0, 3 }, { KT_ERSPAN, 0, 5 },
};
#define NTUNS (sizeof TUNS / sizeof *TUNS)
#define HOST_TUNS 3

static void pick_receiver(uint64_t *s, int host, struct kf_case *c)
{
    unsigned n = host ? HOST_TUNS : NTUNS, total = 0;
    for (unsigned i = 0; i < n; i++)
        total += TUNS[i].weight;
    unsigned x = below(s, total), i = 0;
    while (x >= TUNS[i].weight) {
        x -= TUNS[i].weight;
        i++;
    }
    struct kd_group *g = &c->g;
    g->tun = TUNS[i].tun;
    g->payload = TUNS[i].payload;
    g->v6 = (uint8_t)chance(s, 45);
    uint16_t o = 0, h = 0;
    switch (g->tun) {
    case KT_VXLAN: {
        static const uint16_t vo[] = { 0, KO_REMCSUM, KO_REMCSUM | KO_NOPARTIAL, KO_NOREMCSUM };
        o = vo[below(s, 4)];
        if (chance(s, (o & KO_REMCSUM) ? 50 : 15))
            h |= KH_RCO;
        break;
    }
    case KT_GENEVE: {
        static const uint16_t go[] = { 0, KO_EXTERNAL, KO_INHERIT };
        o = go[below(s, 3)];
        if (chance(s, (o & KO_INHERIT) ? 70 : 10))
            h |= KH_L3;
        if (chance(s, 30))
            h |= KH_GNV_OPT;
        break;
    }
    case KT_GRE: case KT_GRETAP: {
        static const uint16_t ro[] = { 0, KO_ICSUM, KO_IKEY, KO_ICSUM | KO_IKEY };
        o = ro[below(s, 4)];
        h = (uint16_t)(((o & KO_ICSUM) ? KH_GRE_C : 0) | ((o & KO_IKEY) ? KH_GRE_K : 0) |
                       (chance(s, 30) ? KH_GRE_S : 0));
        break;
    }
    case KT_FOU: case KT_GREUDP:
        if ((g->tun == KT_GREUDP || g->payload == 47) && chance(s, 40)) {
            o = KO_ICSUM;
            h = KH_GRE_C;
        }
        break;
    case KT_GUE:
        if (chance(s, 20))
            h |= KH_RCO;
        else if (g->payload != 47 && chance(s, 10))
            h |= KH_GUE_VER1;
        break;
    case KT_ERSPAN: {
        /* ip6erspan has no type I device (ip6erspan_tap_validate) */
        unsigned v = g->v6 ? 1 + below(s, 2) : below(s, 3);
        o = v == 1 ? KO_ERSPAN1 : v == 2 ? KO_ERSPAN2 : 0;
        h = v == 1 ? (KH_GRE_S | KH_ERSPAN2) : v == 2 ? (KH_GRE_S | KH_ERSPAN3) : 0;
        if (chance(s, 50))
            c->flags |= KF_F_BCAST_MIRROR;
        break;
    }
    default:
        break;
    }
    if (g->v6 && (g->tun == KT_VXLAN || g->tun == KT_GPE || g->tun == KT_GENEVE) && chance(s, 40))
        o |= KO_U6Z;
    if (g->tun != KT_PLAIN && chance(s, 15))
        o |= KO_NOGRO;                 /* the device's GRO off (the model's gro_tunnel) */
    g->opts = o;
    c->hdr = h;
}

/* The namespace's TAP and the report; a run of segments for GRO goes to a
 * TAP with IFF_NAPI and a gro_flush_timeout */
static void pick_report(uint64_t *s, struct kf_case *c)
{
    unsigned x = below(s, 100);
    c->g.napi = 0;
    c->g.gro = 0;
    c->g.level = -1;
    c->nseg = 1;
    if (chance(s, 12)) {
        static const uint8_t segs[] = { 2, 2, 3, 4, 4 };
        c->nseg = segs[below(s, sizeof segs)];
        c->g.napi = 1;
        c->g.gro = 1;
        c->report = chance(s, 40) ? KFR_PARTIAL : KFR_NONE;
        c->ptarget = (uint8_t)below(s, 2);
        return;
    }
    if (x < 40) {
        c->sysctl = (uint8_t)chance(s, 20);   /* sysctls off their defaults */
    } else if (x < 65) {
        c->g.napi = 1;
    } else {
        c->g.level = (int8_t)((x - 65) / 12 > 2 ? 2 : (x - 65) / 12);
    }
    if (c->g.level >= 0) {
        c->report = KFR_UNNECESSARY;
        return;
    }
    if (chance(s, 45)) {
        static const uint8_t targets[] = { 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3 };
        c->report = KFR_PARTIAL;
        c->ptarget = targets[below(s, sizeof targets)];
        c->poff_sel = (uint8_t)below(s, 256);
    } else {
        c->report = KFR_NONE;
    }
}

static int carries_both(const struct kd_group *g)
{
    switch (g->tun) {
    case KT_IPIP: case KT_IP6: case KT_PLAIN: return 0;
    case KT_FOU: case KT_GUE: return g->payload == 47;
    default: return 1;
    }
}

static void pick_mutations(uint64_t *s, struct kf_case *c)
{
    static const uint8_t counts[] = { 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 10 };
    unsigned want = counts[below(s, sizeof counts)];
    /* what applies: (kind, role) pairs with their weights */
    static struct { uint8_t k, r, n; } pairs[MK__COUNT * RO__COUNT];
    static struct pb_frame f;
    int role[RO__COUNT];
    kf_base_stack(c, 0, &f, role);
    unsigned np = 0, total = 0;
    for (unsigned k = 0; k < MK__COUNT; k++)
        for (unsigned r = 0; r < RO__COUNT; r++) {
            unsigned n = kf_mut_weight(k) ? kf_mut_nsel(c, &f, role, k, r) : 0;
            if (n) {
                pairs[np].k = (uint8_t)k;
                pairs[np].r = (uint8_t)r;
                pairs[np].n = (uint8_t)n;
                np++;
                total += kf_mut_weight(k);
            }
        }
    c->nmut = 0;
    for (unsigned tries = 0; c->nmut < (int)want && c->nmut < KF_MAX_MUT && tries < 40 && np; tries++) {
        unsigned x = below(s, total), i = 0;
        while (x >= kf_mut_weight(pairs[i].k)) {
            x -= kf_mut_weight(pairs[i].k);
            i++;
        }
        /* every field set: rep (a listed case's repeat) is 0 here */
        struct kf_mut m = { .kind = pairs[i].k, .role = pairs[i].r, .sel = (uint8_t)below(s, pairs[i].n) };
        if (c->nseg > 1) {
            if (chance(s, 40))
                m.seg = (uint8_t)(1 + below(s, c->nseg));
            if (!kf_mut_run_ok(m.kind, m.sel, m.seg != 0))
                continue;
        }
        /* one of a kind per layer, but options and headers that chain */
        int dup = 0;
        for (int j = 0; j < c->nmut; j++)
            if (c->mut[j].kind == m.kind && c->mut[j].role == m.role &&
                (m.kind != MK_IPOPT && m.kind != MK_V6EXT && m.kind != MK_TCPOPT))
                dup = 1;
        if (!dup)
            c->mut[c->nmut++] = m;
    }
}

void kf_generate(uint64_t seed, uint32_t index, int host, struct kf_case *c)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dull ^ ((uint64_t)index + 1) * 0x9e3779b97f4a7c15ull;
    kf_rng_next(&s);
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->index = index;
    pick_receiver(&s, host, c);
    pick_report(&s, c);
    if (c->g.tun == KT_PLAIN)
        c->inner6 = c->g.v6;
    else if (carries_both(&c->g))
        c->inner6 = (uint8_t)chance(&s, 40);
    else                               /* sit, ip6tnl 6in6, FOU/GUE 41 carry IPv6 */
        c->inner6 = c->g.tun == KT_IP6 || ((c->g.tun == KT_FOU || c->g.tun == KT_GUE) && c->g.payload == 41);
    unsigned x = below(&s, 100);
    static const uint16_t lens[] = { 0, 1, 7, 8, 31, 64, 64, 100, 100, 101, 159 };
    if (c->nseg > 1) {                 /* segments of one flow, equal payloads */
        c->l4 = x < 75 ? KL_TCP : KL_UDP;
        c->paylen = c->l4 == KL_TCP ? KD_TCP_PAYLOAD : KD_UDP_PAYLOAD;
    } else {
        c->l4 = x < 45 ? KL_TCP : x < 85 ? KL_UDP : x < 96 ? KL_ICMP : KL_NONE;
        c->paylen = lens[below(&s, sizeof lens / sizeof *lens)];
        if (c->g.tun == KT_PLAIN && c->l4 == KL_UDP && !c->g.v6 && chance(&s, 15))
            c->flags |= KF_F_MPLSUDP;
    }
    c->sport = (uint16_t)(20000 + index % 40000);   /* above every tunnel's port (a source port
                                                        that is one: the sport mutation) */
    pick_mutations(&s, c);
}
