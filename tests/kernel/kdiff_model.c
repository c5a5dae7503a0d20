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
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kd_kernel_mip6 = 1;
int kd_kernel_llc = 0;
int kd_kernel_vlan_8021q = 1;

void kd_config_of(const struct kd_group *g, const char *report, int nosock, const char *era,
                  struct csc_config *cfg)
{
    csc_config_default(cfg);
    cfg->ipv6_mip6 = kd_kernel_mip6 != 0;
    cfg->rx_llc = kd_kernel_llc != 0;
    cfg->vlan_8021q = kd_kernel_vlan_8021q != 0;
    cfg->replay_sent = true;             /* the TAP receives every frame, whatever it carries */
    csc_report_parse(report, &cfg->rx);
    if (!csc_era_by_name(era, &cfg->era))
        csc_era_by_name("modern", &cfg->era);
    cfg->gro_nic = g->napi != 0;         /* the TAP runs GRO only with IFF_NAPI */
    cfg->gro_tunnel = !(g->opts & KO_NOGRO);   /* the tunnel device as the kernel made it */
    cfg->remcsum_rx = (g->opts & KO_REMCSUM) || g->tun == KT_GUE;   /* GUE has no knob: always on */
    cfg->remcsum_rx_given = (g->opts & (KO_REMCSUM | KO_NOREMCSUM)) != 0;
    cfg->remcsum_nopartial = (g->opts & KO_NOPARTIAL) != 0;
    cfg->udp6_zero_csum_rx = (g->opts & KO_U6Z) != 0;
    cfg->geneve_external = (g->opts & KO_EXTERNAL) != 0;        /* else made with a remote */
    cfg->geneve_inner_proto_inherit = (g->opts & KO_INHERIT) != 0;
    cfg->inner_socket = !nosock;
    /* a GRE device either requires the checksum flag (icsum) or refuses it */
    cfg->gre_csum = (g->opts & KO_ICSUM) ? CSC_GRE_CSUM_ON : CSC_GRE_CSUM_OFF;
    /* the address kd_setup_add_dev gives the VXLAN and GENEVE devices
     * (LIVE_TAP_MAC; an innerprotoinherit GENEVE device has none): their
     * loop check drops an inner frame from it (vxlan_set_mac, geneve_rx) */
    if (g->tun == KT_VXLAN || (g->tun == KT_GENEVE && !(g->opts & KO_INHERIT))) {
        static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };   /* LIVE_TAP_MAC */
        cfg->dev_mac_known = true;
        memcpy(cfg->dev_mac, mac, sizeof mac);
    }
    /* the namespace joins no IPv4 group but 224.0.0.1 and routes no multicast */
    cfg->mc_only_all_hosts = true;
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
    case KT_L2TP:
        if (ds.port)
            csc_config_set_port(cfg, ds.port, CSC_P_L2TP, 0);
        break;
    default: break;
    }
    /* the session as kd_setup_add_dev makes it: no cookie, the default
     * L2-specific sublayer (l2spec_type default) */
    if (g->tun == KT_L2TP) {
        cfg->l2tp_cookie_len = 0;
        cfg->l2tp_l2spec_len = 4;
    }
}

static void model_config(const struct kd_case *c, const char *era, struct csc_config *cfg, int perturb)
{
    static const char *const rep[] = { "none", "partial:outer", "partial:inner", "unnecessary:0",
                                       "unnecessary:1" };
    static const char *const wrong[] = { "unnecessary:1", "none", "none", "none", "unnecessary:0" };
    kd_config_of(&c->g, perturb ? wrong[c->report] : rep[c->report], c->nosock, era, cfg);
    if (perturb) {
        cfg->remcsum_rx = !cfg->remcsum_rx;
        cfg->udp6_zero_csum_rx = !cfg->udp6_zero_csum_rx;
    }
}

/* IP reassembly as the CLI does it: the frame completing a datagram carries
 * the datagram's outcome (core/frag.c), the other fragments are queued. */
static struct csc_frag_table FRAG;
void (*kd_analyze)(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r);
static uint8_t FRAG_STORE[CSC_FRAG_STORE_BYTES];

void kd_model_frames(const struct csc_config *cfg, const struct kd_group *g, int nseg,
                     const struct live_frame *const *frames, struct kd_outcome *m)
{
    static struct csc_result r;
    static struct csc_gro gro;
    struct csc_gro_cfg gcfg;
    memset(m, 0, sizeof *m);
    csc_gro_cfg_default(&gcfg);
    gcfg.flush_timeout_us = g->gro ? KD_GRO_TIMEOUT_NS / 1000 : 0;
    gcfg.poll_gap_us = 10;              /* every write is a NAPI poll of its own */
    gcfg.era_sw = cfg->era.sw;          /* the kernel's IPv4 ID and CWR rules */
    gcfg.nic_no_rx_hash = true;         /* tun sets no skb->hash: one GRO bucket at the TAP */
    csc_gro_init(&gro, &gcfg);
    csc_frag_init(&FRAG);
    csc_frag_attach(&FRAG, cfg, FRAG_STORE);
    m->frames = nseg;
    m->cls = -1;
    /* per segment: csc_analyze's outcome, then what the GRO engine says of
     * the run: a super-packet the encapsulating UDP socket loses (L8:
     * gso_lost) takes every segment merged into it */
    int delivered[KD_MAX_SEGS] = { 0 }, at_dev[KD_MAX_SEGS] = { 0 }, lost[KD_MAX_SEGS] = { 0 };
    int merged[KD_MAX_SEGS] = { 0 }, before_udp[KD_MAX_SEGS] = { 0 };
    uint32_t counters[KD_MAX_SEGS] = { 0 };
    for (int s = 0; s < nseg && s < KD_MAX_SEGS; s++) {
        struct csc_frame f = { frames[s]->data, frames[s]->len, frames[s]->len, CSC_LINK_ETHERNET, CSC_DIR_IN };
        if (kd_analyze)
            kd_analyze(cfg, &f, &r);
        else
            csc_analyze(cfg, &f, &r);
        csc_frag_feed(&FRAG, &f, &r, (uint64_t)s + 1);
        int cls = live_model_class(&r);
        delivered[s] = cls == LIVE_C_DELIVERED;
        at_dev[s] = r.kernel.ndevs >= 2;
        counters[s] = r.kernel.counters;
        /* dropped before the encapsulating UDP socket (the outer IPv6
         * routing header, ipv6_rthdr_rcv): a super-packet it stands for
         * never reaches udp_rcv_segment */
        if (r.kernel.verdict == CSC_K_DROP && r.kernel.drop_layer != CSC_NO_LAYER) {
            int udp = 0;
            while (udp < r.nlayers && r.layers[udp].proto != CSC_P_UDP)
                udp++;
            before_udp[s] = r.kernel.drop_layer < udp;
        }
        m->cls = m->cls < 0 || m->cls == cls ? cls : LIVE_C_MIXED;
        struct csc_gro_decision d;
        csc_gro_feed(&gro, &f, &r, (uint64_t)s, (uint64_t)s * 50, &d);
        for (int i = 0; i < d.n; i++) {
            m->gro_order_dep |= d.fate[i].order_dep;
            if (d.fate[i].merged)
                m->merges_all++;
            if (d.fate[i].kind == CSC_P_NONE && d.fate[i].merged) {
                m->merges++;
                merged[s] = 1;
            } else if (d.fate[i].merged && r.kernel.drop_layer != CSC_NO_LAYER &&
                       i < r.kernel.ndevs && r.kernel.drop_layer >= r.kernel.devs[i].layer) {
                /* merged by the tunnel device's gro_cells (two segments the
                 * NIC held apart, as an outer flow label makes them): a drop
                 * after it counts once per super-packet, like a NIC merge */
                merged[s] = 1;
            }
            if (d.fate[i].gso_lost && !before_udp[s] &&
                !(d.fate[i].super < (uint64_t)nseg && before_udp[d.fate[i].super])) {
                lost[s] = 1;
                if (d.fate[i].super < (uint64_t)nseg)
                    lost[d.fate[i].super] = 1;
            }
        }
    }
    for (int s = 0; s < nseg && s < KD_MAX_SEGS; s++) {
        if (lost[s]) {               /* udp_rcv_segment: UDP_MIB_INERRORS, the outer family's */
            delivered[s] = at_dev[s] = 0;
            counters[s] = 1u << (g->v6 ? CSC_C_UDP6_IN_ERRORS : CSC_C_UDP_IN_ERRORS);
        } else if (merged[s]) {
            /* a segment merged at the NIC is not an skb of its own: what
             * happens after GRO (a drop further in) is counted once, on the
             * super-packet its first segment stands for */
            counters[s] = 0;
        }
        m->delivered += delivered[s];
        m->at_dev += at_dev[s];
        live_model_counts(counters[s], m->cnt);
        if (at_dev[s] && !lost[s])
            live_model_counts(counters[s], m->dev_cnt);
    }
    m->dev_segs = m->at_dev;
    live_model_counts_finish(m->cnt);
    live_model_counts_finish(m->dev_cnt);
    csc_gro_finish(&gro);
}

int kd_model_frag_pending(void)
{
    return CSC_FRAG_SLOTS - FRAG.nfree;
}

void kd_model(const struct kd_case *c, const char *era, struct kd_outcome *m, int perturb)
{
    struct csc_config cfg;
    static struct live_frame fr[KD_MAX_SEGS];
    const struct live_frame *fp[KD_MAX_SEGS];
    model_config(c, era, &cfg, perturb);
    for (int s = 0; s < c->nseg && s < KD_MAX_SEGS; s++) {
        uint8_t buf[LIVE_MAX_FRAME];
        size_t n = kd_build(c, s, buf, sizeof buf, NULL);
        live_frame_set(&fr[s], buf, n);
        fp[s] = &fr[s];
    }
    kd_model_frames(&cfg, &c->g, c->nseg, fp, m);
}

/* ---- kernel side ---- */

static int64_t dev_stat(const struct kd_group *g, const struct live_obs *o, const char *stat)
{
    char name[LIVE_NAME_LEN];
    struct kd_devspec ds;
    kd_dev_of(g, &ds);
    snprintf(name, sizeof name, "dev:%s:%s", ds.name, stat);
    return live_obs_get(o, name);
}

static int frame_inner6(const struct kd_case *c)
{
    if (c->frag)
        return c->inner6;             /* a fragment holds the inner header at another place */
    uint8_t buf[LIVE_MAX_FRAME];
    struct kd_frame_info fi;
    size_t n = kd_build(c, 0, buf, sizeof buf, &fi);
    /* the inner IP header starts inner_l3_len bytes before the frame's end */
    size_t at = fi.len >= fi.inner_l3_len ? fi.len - fi.inner_l3_len : 0;
    return at < n && (buf[at] >> 4) == 6;
}

void kd_kernel_of(const struct kd_run_shape *c, const struct live_obs *o, struct kd_outcome *k)
{
    memset(k, 0, sizeof *k);
    int in6 = c->in6;
    struct kd_devspec ds;
    kd_dev_of(&c->g, &ds);
    const char *dev = c->g.tun == KT_PLAIN ? NULL : ds.name;
    k->frames = c->nseg;
    live_kernel_counts(o, dev, k->cnt);
    /* Segments through the device from its byte counter: a merged
     * super-packet is one rx_packet carrying the payload of all its
     * segments. */
    int64_t payload = c->payload;
    int64_t hdr = c->inner_l3_len - payload;
    int64_t rxp = dev ? dev_stat(&c->g, o, "rx_packets") : 0, rxb = dev ? dev_stat(&c->g, o, "rx_bytes") : 0;
    k->skbs_dev = (int)rxp;
    int64_t segs = 0;
    if (rxp > 0 && payload > 0) {
        /* what the device counts besides the inner IP packet: the inner
         * Ethernet header or not, and an inner VLAN tag or two, still in
         * skb->len when the tunnel counts it (skb_vlan_untag comes later,
         * in __netif_receive_skb_core) */
        static const int64_t extra[] = { 0, 14, 4, 18, 8, 22 };
        int64_t rest = rxb - rxp * hdr;
        size_t i = 0;
        while (rest % payload && ++i < sizeof extra / sizeof extra[0])
            rest = rxb - rxp * (hdr + extra[i]);
        if (rest % payload)
            snprintf(k->note, sizeof k->note, "%s rx_bytes %lld not a whole number of segments", ds.name,
                     (long long)rxb);
        segs = rest / payload;
    }
    k->at_dev = (int)segs;
    k->merges = (int)(segs - rxp);
    if (dev && c->nseg > 1 && dev_stat(&c->g, o, "rx_frame_errors") > 0) {
        /* A super-packet the device drops on ECN (ip_tunnel_rcv, ipip6_rcv,
         * vxlan_rcv: rx_frame_errors before dev_sw_netstats_rx_add, v6.1)
         * is not in rx_bytes. ip_rcv_core counts every GRO packet once in
         * InReceives and once per segment in the ECN counters: over the
         * outer family E - R is every merge at the NIC, and again at the
         * inner IP of the same family for what went through the device. */
        static const char *const e4[] = { "IpExtInNoECTPkts", "IpExtInECT1Pkts", "IpExtInECT0Pkts", "IpExtInCEPkts" };
        static const char *const e6[] = { "Ip6InNoECTPkts", "Ip6InECT1Pkts", "Ip6InECT0Pkts", "Ip6InCEPkts" };
        int64_t e = 0;
        for (int i = 0; i < 4; i++)
            e += live_obs_get(o, c->g.v6 ? e6[i] : e4[i]);
        int64_t nic = e - live_obs_get(o, c->g.v6 ? "Ip6InReceives" : "IpInReceives") -
                      (in6 == (c->g.v6 != 0) ? k->merges : 0);
        if (nic > k->merges)
            k->merges = (int)nic;
    }
    if (!dev || (c->nseg > 1 && rxp == 0)) {
        /* nothing reached a tunnel device: the merges are what ip_rcv_core
         * saw, once per GRO packet in InReceives and once per segment in
         * the ECN counters */
        static const char *const e4[] = { "IpExtInNoECTPkts", "IpExtInECT1Pkts", "IpExtInECT0Pkts", "IpExtInCEPkts" };
        static const char *const e6[] = { "Ip6InNoECTPkts", "Ip6InECT1Pkts", "Ip6InECT0Pkts", "Ip6InCEPkts" };
        int64_t e = 0;
        for (int i = 0; i < 4; i++)
            e += live_obs_get(o, c->g.v6 ? e6[i] : e4[i]);
        int64_t r = live_obs_get(o, c->g.v6 ? "Ip6InReceives" : "IpInReceives");
        k->merges = (int)(e - r);
        /* a run that never reached IP, dropped whole at the TAP (the ninth
         * of a stack of priority tags: __netif_receive_skb_core's drop,
         * one rx_dropped per GRO packet): merges = segments - drops */
        int64_t nic_drops = live_obs_get(o, "dev:" LIVE_TAP_NAME ":rx_dropped");
        if (c->nseg > 1 && r == 0 && nic_drops > 0 && nic_drops <= c->nseg)
            k->merges = (int)(c->nseg - nic_drops);
        if (k->merges < 0)
            k->merges = 0;
        if (!dev)
            segs = live_obs_get(o, "TcpInSegs");  /* every segment TCP took in, merged or not */
    }
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
    if (dev && c->nseg > 1 && rxp == 0 && lost_segs > 1)   /* lost whole at the UDP socket (L8) */
        k->lost_merges = k->merges < lost_segs - 1 ? k->merges : (int)(lost_segs - 1);
    if (c->nseg > 1 && lost_segs > 1 && rxp > 0) {
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
            ok = live_obs_get(o, "TcpInSegs") == 1 && live_obs_get(o, "TcpInErrs") == 0 && (segs == 1 || !dev);
        k->delivered = (int)(ok < 0 || c->nosock ? 0 : ok);
    } else {
        k->delivered = (int)live_obs_get(o, in6 ? "sock:1" : "sock:0");
    }
    if (!dev)
        k->at_dev = 0;
    k->cls = c->nseg == 1 ? live_kernel_class(o, dev, c->nosock, in6, k->delivered) : -1;
}

void kd_kernel(const struct kd_case *c, const struct live_obs *o, struct kd_outcome *k)
{
    struct kd_frame_info fi;
    uint8_t buf[LIVE_MAX_FRAME];
    kd_build(c, 0, buf, sizeof buf, &fi);
    struct kd_run_shape sh = { c->g, c->nseg, c->tcp, c->nosock, frame_inner6(c),
                               (int64_t)fi.inner_l3_len, c->tcp ? KD_TCP_PAYLOAD : KD_UDP_PAYLOAD };
    kd_kernel_of(&sh, o, k);
    if (c->icmp && c->nseg == 1) {
        /* ICMP has no socket: the kernel took the message when it counted it
         * and no error (icmp_rcv; an echo or timestamp is answered) */
        struct kd_devspec ds;
        kd_dev_of(&c->g, &ds);
        k->delivered = live_obs_get(o, "IcmpInMsgs") == 1 && !live_obs_get(o, "IcmpInErrors");
        k->cls = live_kernel_class(o, c->g.tun == KT_PLAIN ? NULL : ds.name, c->nosock, sh.in6, k->delivered);
    }
}

/* ---- comparison and printing ---- */

void kd_outcome_text(const struct kd_case *c, const struct kd_outcome *x, char *buf, size_t n)
{
    char cnt[240];
    live_counts_text(x->cnt, cnt, sizeof cnt);
    if (c->nseg == 1) {
        snprintf(buf, n, "%s {%s}", x->cls == LIVE_C_DELIVERED ? "accept" : live_class_name(x->cls), cnt);
        return;
    }
    snprintf(buf, n, "%d/%d delivered, %d at the device {%s}", x->delivered, x->frames, x->at_dev, cnt);
}

/* The first counter the kernel moved otherwise than the model. Where the
 * tunnel device's merges depend on the NIC's order (gro_order_dep), a
 * counter of the skbs leaving that device moved between once and once a
 * segment. */
static int counts_diff(const struct kd_outcome *m, const struct kd_outcome *k)
{
    if (!m->gro_order_dep)
        return live_counts_diff(m->cnt, k->cnt);
    for (unsigned i = 0; i < LIVE_N_CNT; i++) {
        int64_t before = m->cnt[i] - m->dev_cnt[i];
        int64_t lo = before + (m->dev_cnt[i] > 0), hi = before + (m->dev_cnt[i] > 0 ? m->dev_segs : 0);
        if (k->cnt[i] < lo || k->cnt[i] > hi)
            return (int)i;
    }
    return -1;
}

int kd_compare(const struct kd_case *c, const struct kd_outcome *m, const struct kd_outcome *k,
               int strict_gro, char *why, size_t n)
{
    why[0] = 0;
    if (m->delivered != k->delivered)
        snprintf(why, n, "delivered: model %d, kernel %d", m->delivered, k->delivered);
    else if (c->nseg == 1 && m->cls != k->cls)
        snprintf(why, n, "drop layer: model %s, kernel %s", live_class_name(m->cls), live_class_name(k->cls));
    else if (m->at_dev != k->at_dev)
        snprintf(why, n, "segments at the device: model %d, kernel %d", m->at_dev, k->at_dev);
    else {
        int i = counts_diff(m, k);
        if (i >= 0)
            snprintf(why, n, "%s: model %lld, kernel %lld", live_count_name((unsigned)i),
                     (long long)m->cnt[i], (long long)k->cnt[i]);
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
    csc_frag_init(&FRAG);
    csc_frag_attach(&FRAG, &cfg, FRAG_STORE);
    for (int seg = 0; seg < c->nseg; seg++) {
        size_t n = kd_build(c, seg, buf, sizeof buf, NULL);
        struct csc_frame f = { buf, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, CSC_DIR_IN };
        csc_analyze(&cfg, &f, &r);
        csc_frag_feed(&FRAG, &f, &r, (uint64_t)seg + 1);
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
