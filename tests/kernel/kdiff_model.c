/*
 * kdiff_model.c - the two outcomes of a case and their comparison.
 *
 * Model: csc_analyze() on each frame with the configuration that matches the
 * receiver (the report, the TAP's GRO, the device's options, the ports) under
 * the era preset that claims the kernel, and the GRO engine over the frames
 * of a run. Kernel: the observation of libcsclive (counter deltas, socket
 * reads, the tunnel device's statistics).
 */
#include "kdiff.h"

#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *kd_class_name(int k)
{
    static const char *const t[] = { "delivered", "outer-ip", "outer-l4", "tunnel", "inner-ip", "inner-l4",
                                     "silent-after-device", "silent", "unknown", "mixed" };
    return k >= 0 && k <= KC_MIXED ? t[k] : "?";
}

/* The era preset that claims a kernel release. Debian's 5.10, 6.1 and 6.12
 * have presets of their own (core/replay/era.c: the series as Debian ships it,
 * stable backports included); others go by the release their series
 * follows. */
const char *kd_era_for_release(const char *release)
{
    static const struct { unsigned from; const char *era; } map[] = {
        { 6014, "modern" }, { 6012, "6.12" }, { 6001, "6.1" }, { 5012, "5.12" }, { 5010, "5.10" },
        { 4020, "4.20" }, { 4013, "4.13" }, { 4006, "4.6" }, { 4000, "4.0" }, { 3018, "3.18" },
    };
    unsigned maj = 0, min = 0;
    if (sscanf(release, "%u.%u", &maj, &min) != 2)
        return "modern";
    unsigned v = maj * 1000 + min;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        struct csc_era e;
        if (v >= map[i].from && csc_era_by_name(map[i].era, &e))
            return map[i].era;
    }
    return "pre-part-vi";
}

/* The name of the kernel counter a model counter stands for: nstat's names
 * are shared (csc_counter_name); "dev:X" is the tunnel device's X. */
static void counter_obs_name(const char *dev, unsigned i, char *buf, size_t n)
{
    const char *name = csc_counter_name(i);
    if (!strncmp(name, "dev:", 4))
        snprintf(buf, n, "dev:%s:%s", dev, name + 4);
    else
        snprintf(buf, n, "%s", name);
}

/* Device statistics the kernel may move on a drop; the model names some
 * (dev:rx_errors ...), the others must not move unless it does. */
static const char *const DEV_STATS[] = { "rx_errors", "rx_crc_errors", "rx_frame_errors", "rx_dropped",
                                         "rx_fifo_errors", "rx_length_errors", "rx_over_errors" };
#define N_DEV_STATS (sizeof DEV_STATS / sizeof *DEV_STATS)
/* kd_outcome.cnt[CNT_DEV0 + k]: DEV_STATS[k], as the model names it (0 if it does not) */
#define CNT_DEV0 CSC_C__COUNT
_Static_assert(CSC_C__COUNT + N_DEV_STATS <= sizeof ((struct kd_outcome *)0)->cnt / sizeof(int64_t),
               "kd_outcome.cnt holds every model counter and device statistic");

static int model_counter_of_dev_stat(size_t k)
{
    char want[40];
    snprintf(want, sizeof want, "dev:%s", DEV_STATS[k]);
    for (unsigned i = 0; i < CSC_C__COUNT; i++)
        if (!strcmp(csc_counter_name(i), want))
            return (int)i;
    return -1;
}

static void model_config(const struct kd_case *c, const char *era, struct csc_config *cfg, int perturb)
{
    static const char *const rep[] = { "none", "partial:outer", "partial:inner", "unnecessary:0",
                                       "unnecessary:1" };
    static const char *const wrong[] = { "unnecessary:1", "none", "none", "none", "unnecessary:0" };
    const struct kd_group *g = &c->g;
    csc_config_default(cfg);
    csc_report_parse(perturb ? wrong[c->report] : rep[c->report], &cfg->rx);
    if (!csc_era_by_name(era, &cfg->era))
        csc_era_by_name("modern", &cfg->era);
    cfg->gro_nic = g->napi != 0;         /* the TAP runs GRO only with IFF_NAPI */
    cfg->gro_tunnel = true;              /* the tunnel device as the kernel made it */
    cfg->remcsum_rx = (g->opts & KO_REMCSUM) || g->tun == KT_GUE;   /* GUE has no knob: always on */
    cfg->remcsum_rx_given = (g->opts & (KO_REMCSUM | KO_NOREMCSUM)) != 0;
    cfg->remcsum_nopartial = (g->opts & KO_NOPARTIAL) != 0;
    cfg->udp6_zero_csum_rx = (g->opts & KO_U6Z) != 0;
    cfg->geneve_external = (g->opts & KO_EXTERNAL) != 0;        /* else made with a remote */
    cfg->geneve_inner_proto_inherit = (g->opts & KO_INHERIT) != 0;
    cfg->inner_socket = !c->nosock;
    /* a GRE device either requires the checksum flag (icsum) or refuses it */
    cfg->gre_csum = (g->opts & KO_ICSUM) ? CSC_GRE_CSUM_ON : CSC_GRE_CSUM_OFF;
    /* the device's port, as the receiver was told (the standard ports are
     * in the defaults; the variants of a tunnel use ports of their own) */
    struct kd_devspec ds;
    kd_dev_of(g, &ds);
    switch (g->tun) {
    case KT_VXLAN: csc_config_set_port(cfg, ds.port, CSC_P_VXLAN, 0); break;
    case KT_GPE: csc_config_set_port(cfg, ds.port, CSC_P_VXLAN_GPE, 0); break;
    case KT_GENEVE: csc_config_set_port(cfg, ds.port, CSC_P_GENEVE, 0); break;
    case KT_GUE: csc_config_set_port(cfg, ds.port, CSC_P_GUE, 0); break;
    case KT_FOU: csc_config_set_port(cfg, ds.port, CSC_P_FOU, g->payload); break;
    case KT_GREUDP: csc_config_set_port(cfg, ds.port, CSC_P_FOU, 47); break;
    default: break;
    }
    if (perturb) {
        cfg->remcsum_rx = !cfg->remcsum_rx;
        cfg->udp6_zero_csum_rx = !cfg->udp6_zero_csum_rx;
    }
}

/* The layer the frame is delivered into the tunnel device with: the second
 * IP header. */
static void ip_layers(const struct csc_result *r, int *outer, int *inner)
{
    *outer = *inner = -1;
    for (int i = 0; i < r->nlayers; i++)
        if (r->layers[i].proto == CSC_P_IPV4 || r->layers[i].proto == CSC_P_IPV6) {
            if (*outer < 0)
                *outer = i;
            else if (*inner < 0)
                *inner = i;
        }
}

static int model_class(const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    if (k->verdict == CSC_K_ACCEPT)
        return KC_DELIVERED;
    if (k->verdict != CSC_K_DROP || k->drop_layer >= r->nlayers)
        return KC_UNKNOWN;
    int outer, inner;
    ip_layers(r, &outer, &inner);
    int d = k->drop_layer;
    uint8_t p = r->layers[d].proto;
    if (outer < 0)
        return KC_UNKNOWN;
    if (inner < 0)
        inner = r->nlayers;          /* the stack ends in the tunnel header (a version it does not parse) */
    if (d <= outer)
        return KC_OUTER_IP;
    if (d < inner)
        return p == CSC_P_UDP && d == outer + 1 ? KC_OUTER_L4 : KC_TUNNEL;
    /* past the device, an IP-level drop that counts nothing
     * (PACKET_OTHERHOST) shows in the kernel only as "reached the device,
     * then nothing" (a TCP segment with no listener still counts InSegs) */
    if (!k->counters && p != CSC_P_TCP && p != CSC_P_UDP)
        return KC_INNER_SILENT;
    if (d == inner)
        return KC_INNER_IP;
    return p == CSC_P_TCP || p == CSC_P_UDP ? KC_INNER_L4 : KC_INNER_IP;
}

void kd_model(const struct kd_case *c, const char *era, struct kd_outcome *m, int perturb)
{
    static struct csc_result r;
    static struct csc_gro gro;
    struct csc_config cfg;
    struct csc_gro_cfg gcfg;
    uint8_t buf[LIVE_MAX_FRAME];
    int dev_model[N_DEV_STATS];
    for (size_t k = 0; k < N_DEV_STATS; k++)
        dev_model[k] = model_counter_of_dev_stat(k);
    memset(m, 0, sizeof *m);
    model_config(c, era, &cfg, perturb);
    csc_gro_cfg_default(&gcfg);
    gcfg.flush_timeout_us = c->g.gro ? KD_GRO_TIMEOUT_NS / 1000 : 0;
    gcfg.poll_gap_us = 10;              /* every write is a NAPI poll of its own */
    csc_gro_init(&gro, &gcfg);
    m->frames = c->nseg;
    m->cls = -1;
    /* per segment: csc_analyze's outcome, then what the GRO engine says of
     * the run: a super-packet the encapsulating UDP socket loses (L8:
     * gso_lost) takes every segment merged into it */
    int delivered[KD_MAX_SEGS] = { 0 }, at_dev[KD_MAX_SEGS] = { 0 }, lost[KD_MAX_SEGS] = { 0 };
    uint32_t counters[KD_MAX_SEGS] = { 0 };
    for (int s = 0; s < c->nseg; s++) {
        struct kd_frame_info fi;
        size_t n = kd_build(c, s, buf, sizeof buf, &fi);
        struct csc_frame f = { buf, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, CSC_DIR_IN };
        csc_analyze(&cfg, &f, &r);
        int cls = model_class(&r);
        delivered[s] = cls == KC_DELIVERED;
        at_dev[s] = r.kernel.ndevs >= 2;
        counters[s] = r.kernel.counters;
        m->cls = m->cls < 0 || m->cls == cls ? cls : KC_MIXED;
        struct csc_gro_decision d;
        csc_gro_feed(&gro, &f, &r, (uint64_t)s, (uint64_t)s * 50, &d);
        for (int i = 0; i < d.n; i++) {
            if (d.fate[i].kind == CSC_P_NONE && d.fate[i].merged)
                m->merges++;
            if (d.fate[i].gso_lost) {
                lost[s] = 1;
                if (d.fate[i].super < (uint64_t)c->nseg)
                    lost[d.fate[i].super] = 1;
            }
        }
    }
    for (int s = 0; s < c->nseg; s++) {
        if (lost[s]) {               /* udp_rcv_segment: UDP_MIB_INERRORS, the outer family's */
            delivered[s] = at_dev[s] = 0;
            counters[s] = 1u << (c->g.v6 ? CSC_C_UDP6_IN_ERRORS : CSC_C_UDP_IN_ERRORS);
        }
        m->delivered += delivered[s];
        m->at_dev += at_dev[s];
        for (unsigned k = 0; k < CSC_C__COUNT; k++)
            if (counters[s] & (1u << k))
                m->cnt[k]++;
    }
    for (size_t k = 0; k < N_DEV_STATS; k++)
        m->cnt[CNT_DEV0 + k] = dev_model[k] >= 0 ? m->cnt[dev_model[k]] : 0;
    csc_gro_finish(&gro);
}

/* ---- kernel side ---- */

static int64_t dev_stat(const struct kd_case *c, const struct live_obs *o, const char *stat)
{
    char name[LIVE_NAME_LEN];
    struct kd_devspec ds;
    kd_dev_of(&c->g, &ds);
    snprintf(name, sizeof name, "dev:%s:%s", ds.name, stat);
    return live_obs_get(o, name);
}

static int kernel_class(const struct kd_case *c, const struct live_obs *o, int delivered, int in6)
{
    if (delivered)
        return KC_DELIVERED;
    int at_dev = dev_stat(c, o, "rx_packets") > 0;
    if (live_obs_get(o, "IpInHdrErrors") || live_obs_get(o, "IpExtInCsumErrors") ||
        live_obs_get(o, "Ip6InHdrErrors"))
        return at_dev ? KC_INNER_IP : KC_OUTER_IP;
    if (!at_dev && (live_obs_get(o, "UdpInErrors") || live_obs_get(o, "UdpInCsumErrors") ||
                    live_obs_get(o, "Udp6InErrors") || live_obs_get(o, "Udp6InCsumErrors") ||
                    live_obs_get(o, "UdpNoPorts") || live_obs_get(o, "Udp6NoPorts")))
        return KC_OUTER_L4;
    for (size_t k = 0; k < N_DEV_STATS; k++)
        if (dev_stat(c, o, DEV_STATS[k]))
            return KC_TUNNEL;
    if (!at_dev)
        return KC_TUNNEL;                /* past the outer checks, never reached the device */
    if (c->nosock && (live_obs_get(o, "UdpNoPorts") || live_obs_get(o, "Udp6NoPorts") ||
                      live_obs_get(o, "TcpInSegs")))
        return KC_INNER_L4;              /* no listener: NoPorts, or TCP answers with a reset */
    if (live_obs_get(o, "TcpInErrs") || live_obs_get(o, "TcpInCsumErrors") ||
        live_obs_get(o, in6 ? "Udp6InErrors" : "UdpInErrors") ||
        live_obs_get(o, in6 ? "Udp6InCsumErrors" : "UdpInCsumErrors"))
        return KC_INNER_L4;
    return KC_INNER_SILENT;
}

static int frame_inner6(const struct kd_case *c)
{
    uint8_t buf[LIVE_MAX_FRAME];
    struct kd_frame_info fi;
    size_t n = kd_build(c, 0, buf, sizeof buf, &fi);
    /* the inner IP header starts inner_l3_len bytes before the frame's end */
    size_t at = fi.len >= fi.inner_l3_len ? fi.len - fi.inner_l3_len : 0;
    return at < n && (buf[at] >> 4) == 6;
}

void kd_kernel(const struct kd_case *c, const struct live_obs *o, struct kd_outcome *k)
{
    struct kd_frame_info fi;
    uint8_t buf[LIVE_MAX_FRAME];
    memset(k, 0, sizeof *k);
    kd_build(c, 0, buf, sizeof buf, &fi);
    int in6 = frame_inner6(c);
    struct kd_devspec ds;
    kd_dev_of(&c->g, &ds);
    k->frames = c->nseg;
    for (unsigned i = 0; i < CSC_C__COUNT; i++) {
        char name[LIVE_NAME_LEN];
        counter_obs_name(ds.name, i, name, sizeof name);
        k->cnt[i] = live_obs_get(o, name);
    }
    for (size_t s = 0; s < N_DEV_STATS; s++)
        k->cnt[CNT_DEV0 + s] = dev_stat(c, o, DEV_STATS[s]);
    /* Segments through the device from its byte counter: a merged
     * super-packet is one rx_packet carrying the payload of all its
     * segments. */
    int64_t payload = c->tcp ? KD_TCP_PAYLOAD : KD_UDP_PAYLOAD;
    int64_t hdr = (int64_t)fi.inner_l3_len - payload;
    int64_t rxp = dev_stat(c, o, "rx_packets"), rxb = dev_stat(c, o, "rx_bytes");
    k->skbs_dev = (int)rxp;
    int64_t segs = 0;
    if (rxp > 0) {
        int64_t rest = rxb - rxp * hdr;
        if (rest % payload) {
            rest = rxb - rxp * (hdr + 14);   /* a device that counts the inner Ethernet header */
            if (rest % payload)
                snprintf(k->note, sizeof k->note, "%s rx_bytes %lld not a whole number of segments", ds.name,
                         (long long)rxb);
        }
        segs = rest / payload;
    }
    k->at_dev = (int)segs;
    k->merges = (int)(segs - rxp);
    /* Super-packets that never reached the device merged too: the
     * encapsulating UDP socket lost them whole (L8), counting
     * Udp[6]InErrors per segment with no checksum error. ip_rcv_core counts
     * a GRO packet once in InReceives and once per segment in the ECN
     * counters, so over the outer family E - R is every merge it saw: the
     * TAP's, and again at the inner IP for what reached the device when the
     * inner family is the same (a merge by the device's own GRO would count
     * there too: hence only when something was lost, and at most one fewer
     * than the segments lost). */
    int64_t lost_segs = c->g.v6 ? live_obs_get(o, "Udp6InErrors") - live_obs_get(o, "Udp6InCsumErrors")
                                : live_obs_get(o, "UdpInErrors") - live_obs_get(o, "UdpInCsumErrors");
    if (c->nseg > 1 && lost_segs > 1) {
        static const char *const ecn4[] = { "IpExtInNoECTPkts", "IpExtInECT1Pkts", "IpExtInECT0Pkts", "IpExtInCEPkts" };
        static const char *const ecn6[] = { "Ip6InNoECTPkts", "Ip6InECT1Pkts", "Ip6InECT0Pkts", "Ip6InCEPkts" };
        int64_t e = 0, r = live_obs_get(o, c->g.v6 ? "Ip6InReceives" : "IpInReceives");
        for (int i = 0; i < 4; i++)
            e += live_obs_get(o, c->g.v6 ? ecn6[i] : ecn4[i]);
        int64_t lost = e - r - (int64_t)k->merges * (1 + (in6 == (c->g.v6 != 0)));
        if (lost > lost_segs - 1)
            lost = lost_segs - 1;
        if (lost > 0) {
            k->merges += (int)lost;
            k->lost_merges = (int)lost;
        }
    }
    if (c->tcp) {
        /* A segment that reached TCP and was not counted in InErrs passed
         * the checksum and met the listener. A segment that fails a check
         * is never merged, so each TCP drop is one segment. */
        int64_t ok = segs - live_obs_get(o, "TcpInErrs");
        if (c->nseg == 1)
            ok = live_obs_get(o, "TcpInSegs") == 1 && live_obs_get(o, "TcpInErrs") == 0 && segs == 1;
        k->delivered = (int)(ok < 0 || c->nosock ? 0 : ok);
    } else {
        k->delivered = (int)live_obs_get(o, in6 ? "sock:1" : "sock:0");
    }
    k->cls = c->nseg == 1 ? kernel_class(c, o, k->delivered, in6) : -1;
}

/* ---- comparison and printing ---- */

static const char *cnt_name(unsigned i)
{
    static char buf[40];
    if (i < CSC_C__COUNT)
        return csc_counter_name(i);
    snprintf(buf, sizeof buf, "dev:%s", DEV_STATS[i - CNT_DEV0]);
    return buf;
}

#define N_CNT (CSC_C__COUNT + N_DEV_STATS)

static int dev_named_by_model(unsigned i)
{
    return i >= CNT_DEV0 && model_counter_of_dev_stat(i - CNT_DEV0) >= 0;
}

static void counters_text(const int64_t *cnt, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < N_CNT && o < n; i++) {
        if (!cnt[i] || dev_named_by_model(i))
            continue;
        if (cnt[i] == 1)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "," : "", cnt_name(i));
        else
            o += (size_t)snprintf(buf + o, n - o, "%s%lldx%s", o ? "," : "", (long long)cnt[i], cnt_name(i));
    }
    if (!o)
        snprintf(buf, n, "-");
}

void kd_outcome_text(const struct kd_case *c, const struct kd_outcome *x, char *buf, size_t n)
{
    char cnt[240];
    counters_text(x->cnt, cnt, sizeof cnt);
    if (c->nseg == 1) {
        snprintf(buf, n, "%s {%s}", x->cls == KC_DELIVERED ? "accept" : kd_class_name(x->cls), cnt);
        return;
    }
    snprintf(buf, n, "%d/%d delivered, %d at the device {%s}", x->delivered, x->frames, x->at_dev, cnt);
}

int kd_compare(const struct kd_case *c, const struct kd_outcome *m, const struct kd_outcome *k,
               int strict_gro, char *why, size_t n)
{
    why[0] = 0;
    if (m->delivered != k->delivered)
        snprintf(why, n, "delivered: model %d, kernel %d", m->delivered, k->delivered);
    else if (c->nseg == 1 && m->cls != k->cls)
        snprintf(why, n, "drop layer: model %s, kernel %s", kd_class_name(m->cls), kd_class_name(k->cls));
    else if (m->at_dev != k->at_dev)
        snprintf(why, n, "segments at the device: model %d, kernel %d", m->at_dev, k->at_dev);
    else {
        for (unsigned i = 0; i < N_CNT; i++)
            if (m->cnt[i] != k->cnt[i]) {
                snprintf(why, n, "%s: model %lld, kernel %lld", cnt_name(i), (long long)m->cnt[i],
                         (long long)k->cnt[i]);
                break;
            }
    }
    if (!why[0] && strict_gro && c->nseg > 1 && c->g.gro && m->merges != k->merges)
        snprintf(why, n, "GRO merges: engine %d, kernel %d", m->merges, k->merges);
    return why[0] == 0;
}

void kd_dump_model(const struct kd_case *c, const char *era)
{
    static struct csc_result r;
    struct csc_config cfg;
    uint8_t buf[LIVE_MAX_FRAME];
    model_config(c, era, &cfg, 0);
    for (int seg = 0; seg < c->nseg; seg++) {
        size_t n = kd_build(c, seg, buf, sizeof buf, NULL);
        struct csc_frame f = { buf, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, CSC_DIR_IN };
        csc_analyze(&cfg, &f, &r);
        const struct csc_kernel *k = &r.kernel;
        printf("        model (era %s) seg %d: %s", era, seg, csc_kverdict_name(k->verdict));
        if (k->drop_layer < r.nlayers)
            printf(" at layer %u (%s) %s", k->drop_layer, csc_proto_name(r.layers[k->drop_layer].proto),
                   csc_drop_name(k->drop_reason));
        printf("\n");
        for (int i = 0; i < k->ndevs; i++)
            printf("          dev %s entry %s/%u gro %s\n", csc_dev_name(k->devs[i].kind),
                   csc_ip_summed_name(k->devs[i].entry.ip_summed), k->devs[i].entry.csum_level,
                   k->devs[i].gro_ran ? csc_gro_reason_name(k->devs[i].gro_reason) : "not run");
        for (int i = 0; i < r.nlayers; i++) {
            const struct csc_layer *l = &r.layers[i];
            printf("          L%d %-7s %-8s k:%s/%s ok=%u\n", i, csc_proto_name(l->proto),
                   csc_verdict_name(l->verdict), csc_method_name(l->k.method), csc_path_name(l->k.path),
                   l->k.ok);
        }
    }
}

void kd_dump_kernel(const struct live_obs *o)
{
    printf("        kernel deltas:");
    for (int i = 0; i < o->n; i++)
        printf(" %s=%lld", o->v[i].name, (long long)o->v[i].delta);
    printf("%s (settled in %u us)\n", o->n ? "" : " none", o->settle_us);
}
