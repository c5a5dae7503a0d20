/*
 * kfuzz_judge.c - a fuzz frame's two outcomes and their comparison, in the
 * words of live/judge.c (the classes and counters csumcheck --live and the
 * differential matrix use): the model's from csc_analyze() with the
 * receiver's configuration (kd_config_of) at the kernel's era, the kernel's
 * from the counters that moved.
 *
 * Which socket a frame meets is the model's decode's to say: the innermost
 * transport (the last TCP/UDP/ICMP layer outside an ICMP quote) has a
 * listener when it is UDP to 5000 or TCP to 5001 (the namespace's sockets,
 * kd_setup_of); ICMP has its handlers but for an echo reply, which wants a
 * ping socket and the namespace opens none (ping_rcv: NO_SOCKET, no
 * counter); anything else is "no socket" for both sides.
 */
#include "kfuzz.h"

#include "csumcheck/csumcheck.h"

#include <stdio.h>
#include <string.h>

#define UDP_PORT 5000
#define TCP_PORT 5001
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_ACK 0x10

/* The innermost transport of a decoded frame, -1: none */
static int innermost_l4(const struct csc_result *r)
{
    int last = -1;
    for (int i = 0; i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_QUOTED)
            break;
        if (l->proto == CSC_P_TCP || l->proto == CSC_P_UDP || l->proto == CSC_P_ICMP || l->proto == CSC_P_ICMPV6)
            last = i;
    }
    return last;
}

/* An echo reply (ICMP 0, 43; ICMPv6 129, 161): ping_rcv's, which needs a ping socket */
static int ping_reply(const struct csc_layer *l)
{
    uint8_t t = l->u.icmp.type;
    return l->proto == CSC_P_ICMP ? t == 0 || t == 43 : t == 129 || t == 161;
}

static int innermost_ip6(const struct csc_result *r, int l4)
{
    int ip = -1;
    for (int i = 0; i < r->nlayers && (l4 < 0 || i < l4); i++)
        if (r->layers[i].proto == CSC_P_IPV4 || r->layers[i].proto == CSC_P_IPV6)
            ip = i;
    return ip >= 0 && r->layers[ip].proto == CSC_P_IPV6;
}

static void config_of(const struct kf_case *c, const struct kf_frame *fr, const char *era, int nosock,
                      struct csc_config *cfg)
{
    char rep[40];
    kf_report_name(c, fr, rep, sizeof rep);
    kd_config_of(&c->g, rep, nosock, era, cfg);
}

static struct csc_result LAST;          /* kf_model's last result (kf_model_why_unknown) */
static struct csc_config LAST_CFG;      /* and what it was made of */
static struct csc_frame LAST_F;

/* Why the model's last verdict was unknown: the function of its last step
 * ("ip_defrag" for a queued fragment, "vxlan_rcv" for a path it does not
 * know), or the decoder's stop. The model ran without a step trace (the
 * fast path's way): the frame is analysed again with one. */
const char *kf_model_why_unknown(void)
{
    LAST_CFG.trace_steps = true;
    csc_analyze(&LAST_CFG, &LAST_F, &LAST);
    const struct csc_kernel *k = &LAST.kernel;
    if (k->nsteps)
        return csc_fn_name(k->steps[k->nsteps - 1].fn);
    return LAST.stop != CSC_STOP_END ? csc_stop_name(LAST.stop) : "no replay";
}

/* A source address of another class: the listener's reset has no route
 * back to it (tcp_v[46]_send_reset: no dst, no TcpOutRsts), or is never
 * sent (an unspecified source), so the reset cannot tell delivery */
static int source_mutated(const struct kf_case *c)
{
    for (int i = 0; i < c->nmut; i++)
        if (c->mut[i].kind == MK_SADDR)
            return 1;
    return 0;
}

void kf_model(const struct kf_case *c, const struct kf_frame *fr, const char *era, struct kf_outcome *m)
{
#define r LAST
    struct csc_config cfg;
    memset(m, 0, sizeof *m);
    config_of(c, fr, era, 0, &cfg);
    struct csc_frame f = { fr->lf.data, fr->lf.len, fr->lf.len, CSC_LINK_ETHERNET, CSC_DIR_IN };
    csc_decode(&cfg, &f, &r);
    int l4 = innermost_l4(&r);
    m->in6 = innermost_ip6(&r, l4);
    /* a transport too short to decode (core/replay/pull.c): its family is
     * the IP layer's it stopped after, not the outer UDP's */
    int short_l4 = r.stop == CSC_STOP_MALFORMED && r.stop_layer + 1 == r.nlayers &&
                   (r.stop_proto == CSC_P_TCP || r.stop_proto == CSC_P_UDP || r.stop_proto == CSC_P_ICMP ||
                    r.stop_proto == CSC_P_ICMPV6) &&
                   (r.layers[r.stop_layer].proto == CSC_P_IPV4 || r.layers[r.stop_layer].proto == CSC_P_IPV6);
    if (short_l4)
        m->in6 = r.layers[r.stop_layer].proto == CSC_P_IPV6;
    m->l4proto = l4 >= 0 ? r.layers[l4].proto : CSC_P_NONE;
    m->l4layer = l4;
    if (m->l4proto == CSC_P_TCP)
        m->answered = (r.layers[l4].u.tcp.flags & (TCP_SYN | TCP_RST | TCP_ACK)) == TCP_ACK &&
                      !source_mutated(c);
    if (short_l4 && (r.stop_proto == CSC_P_TCP || r.stop_proto == CSC_P_UDP))
        m->nosock = 0;   /* a transport header too short to read: discarded before any socket
                            lookup, nothing answers it (core/replay/pull.c) */
    else if (l4 >= 0 && (m->l4proto == CSC_P_TCP || m->l4proto == CSC_P_UDP))
        m->nosock = r.layers[l4].u.ports.dport != (m->l4proto == CSC_P_TCP ? TCP_PORT : UDP_PORT);
    else if (l4 >= 0 && (m->l4proto == CSC_P_ICMP || m->l4proto == CSC_P_ICMPV6))
        /* ICMP of the other IP family reaches only a raw socket, which the harness has not */
        m->nosock = (m->l4proto == CSC_P_ICMPV6) != m->in6 || ping_reply(&r.layers[l4]);
    else
        m->nosock = 1;
    cfg.inner_socket = !m->nosock;
    kf_analyze(&cfg, &f, &r);
    LAST_CFG = cfg;
    LAST_F = f;
    if (m->l4proto == CSC_P_UDP && l4 < r.nlayers && r.layers[l4].end > r.layers[l4].off + 8)
        m->bytes = (int64_t)r.layers[l4].end - r.layers[l4].off - 8;
    m->o.frames = 1;
    m->o.cls = live_model_class(&r);
    /* accepted with no listener for the innermost transport (the replay ran
     * without one): a UDP datagram its tunnel's encap_rcv gave back, queued
     * on the tunnel's own socket (core/replay/l2tp.c: l2tp_udp_pass), which
     * nobody reads - to the kernel's counters a packet past the outer
     * checks that never reached the device */
    if (m->o.cls == LIVE_C_DELIVERED && m->nosock && m->l4proto == CSC_P_UDP)
        m->o.cls = LIVE_C_TUNNEL;
    m->o.delivered = m->o.cls == LIVE_C_DELIVERED;
    m->o.at_dev = r.kernel.ndevs >= 2;
    m->unknown = r.kernel.verdict == CSC_K_UNKNOWN || m->o.cls == LIVE_C_UNKNOWN;
    live_model_counts(r.kernel.counters, m->o.cnt);
    live_model_counts_finish(m->o.cnt);
#undef r
}

void kf_kernel(const struct kf_case *c, const struct kf_outcome *m, const struct live_obs *o, struct kf_outcome *k)
{
    memset(k, 0, sizeof *k);
    k->in6 = m->in6;
    k->nosock = m->nosock;
    k->l4proto = m->l4proto;
    struct kd_devspec ds;
    kd_dev_of(&c->g, &ds);
    const char *dev = c->g.tun == KT_PLAIN ? NULL : ds.name;
    int delivered = 0;
    switch (m->l4proto) {
    case CSC_P_UDP:
        delivered = !m->nosock && live_obs_get(o, "sock:0") + live_obs_get(o, "sock:1") > 0;
        break;
    case CSC_P_TCP:
        delivered = !m->nosock && live_obs_get(o, "TcpInSegs") >= 1 && !live_obs_get(o, "TcpInErrs");
        /* discard_it (a data offset past the segment, tcp-4) counts TcpInSegs
         * as a segment the listener takes does; for an ACK the listener's
         * answer tells them apart: a reset (TcpOutRsts), which discard_it
         * never sends (a SYN's SYN-ACK is not read - its retransmissions
         * would move a later frame's counters) */
        if (delivered && m->answered)
            delivered = live_obs_get(o, "TcpOutRsts") >= 1;
        break;
    /* an echo reply with no ping socket (nosock) is freed with no counter:
     * icmp_rcv counted it in InMsgs as it does a message it takes */
    case CSC_P_ICMP:
        delivered = !m->nosock && live_obs_get(o, "IcmpInMsgs") >= 1 && !live_obs_get(o, "IcmpInErrors");
        break;
    case CSC_P_ICMPV6:
        delivered = !m->nosock && live_obs_get(o, "Icmp6InMsgs") >= 1 && !live_obs_get(o, "Icmp6InErrors");
        break;
    default:
        break;
    }
    k->o.frames = 1;
    k->o.delivered = delivered;
    if (m->l4proto == CSC_P_UDP)
        k->bytes = live_obs_get(o, "sockbytes:0") + live_obs_get(o, "sockbytes:1");
    k->o.cls = live_kernel_class(o, dev, m->nosock, m->in6, delivered);
    live_kernel_counts(o, dev, k->o.cnt);
    if (dev) {
        char name[LIVE_NAME_LEN];
        snprintf(name, sizeof name, "dev:%s:rx_packets", dev);
        k->o.at_dev = live_obs_get(o, name) > 0;
    }
}

void kf_model_run(const struct kf_case *c, const struct kf_frame *seg, const char *era, struct kf_outcome *m)
{
    struct kf_outcome one;
    struct csc_config cfg;
    const struct live_frame *fp[KD_MAX_SEGS];
    /* the run's transport (family, protocol, listener) is the flow's: read
     * from a segment no one-segment mutation broke (a cut, another
     * protocol on segment 1 alone would name the wrong socket) */
    int base = -1, flow = 0, deepest = -2, unknown = 0, queued = 0;
    for (int s = 0; s < c->nseg && s < KD_MAX_SEGS; s++) {
        int hit = 0;
        for (int i = 0; i < c->nmut; i++)
            hit |= c->mut[i].seg == s + 1;
        kf_model(c, &seg[s], era, &one);
        /* a fragment queued for reassembly is unknown alone; the run's
         * reassembly (kd_model_frames, core/frag.c) decides it when its
         * datagram completes or is dropped within the run */
        if (one.unknown && !strcmp(kf_model_why_unknown(), "ip_defrag"))
            queued = 1;
        else
            unknown |= one.unknown;
        if (!hit && base < 0)
            base = s;
        if (one.l4layer > deepest) {   /* every segment touched: the one decoded deepest */
            deepest = one.l4layer;
            flow = s;
        }
    }
    base = base >= 0 ? base : flow;
    kf_model(c, &seg[base], era, m);
    for (int s = 0; s < c->nseg && s < KD_MAX_SEGS; s++)
        fp[s] = &seg[s].lf;
    config_of(c, &seg[0], era, m->nosock, &cfg);
    kd_model_frames(&cfg, &c->g, c->nseg, fp, &m->o);
    m->unknown = unknown || (queued && kd_model_frag_pending() > 0);
    /* TCP counts what it takes in per skb (TcpInSegs), after merges at the
     * NIC and at the tunnel device: a run's TCP deliveries are compared as
     * "some segment reached the listener", the merges at the NIC on their
     * own (kd_compare) */
    if (m->l4proto == CSC_P_TCP)
        m->o.delivered = m->o.delivered > 0;
}

void kf_kernel_run(const struct kf_case *c, const struct kf_frame *seg, const struct kf_outcome *m,
                   const struct live_obs *o, struct kf_outcome *k)
{
    memset(k, 0, sizeof *k);
    k->in6 = m->in6;
    k->nosock = m->nosock;
    k->l4proto = m->l4proto;
    struct kd_run_shape sh = { c->g, c->nseg, m->l4proto == CSC_P_TCP, m->nosock, m->in6,
                               (int64_t)seg[0].inner_l3_len, c->paylen };
    kd_kernel_of(&sh, o, &k->o);
    if (m->l4proto == CSC_P_TCP)
        k->o.delivered = !m->nosock && live_obs_get(o, "TcpInSegs") - live_obs_get(o, "TcpInErrs") > 0;
}

static int silent_before_device(const struct kd_outcome *x)
{
    if (x->delivered || x->at_dev)
        return 0;
    for (unsigned i = 0; i < LIVE_N_CNT; i++)
        if (x->cnt[i])
            return 0;
    return x->cls == LIVE_C_OUTER_IP || x->cls == LIVE_C_OUTER_L4 || x->cls == LIVE_C_TUNNEL ||
           x->cls == LIVE_C_SILENT;
}

int kf_compare(const struct kf_outcome *m, const struct kf_outcome *k, int nseg, char *why, size_t n)
{
    struct kd_case one;
    memset(&one, 0, sizeof one);
    one.nseg = (uint8_t)nseg;
    one.g.gro = nseg > 1;
    if (m->unknown) {
        snprintf(why, n, "the model does not know (kernel: %s)", live_class_name(k->o.cls));
        return 2;
    }
    int ok = kd_compare(&one, &m->o, &k->o, 1, why, n);
    /* what the socket read: the payload the UDP length leaves */
    if (ok && nseg == 1 && m->l4proto == CSC_P_UDP && m->o.delivered && k->o.delivered && m->bytes != k->bytes) {
        snprintf(why, n, "bytes: model %lld, kernel %lld", (long long)m->bytes, (long long)k->bytes);
        ok = 0;
    }
    /* A drop before the device that no counter shows is all the kernel
     * tells of it, whatever layer the model names (the outer IP, the
     * tunnel header): both silent, both before the device, agree. */
    if (!ok && nseg == 1 && silent_before_device(&m->o) && silent_before_device(&k->o)) {
        why[0] = 0;
        return 1;
    }
    return ok;
}

void kf_disagreement_key(const struct kf_outcome *m, const struct kf_outcome *k, int nseg, char *buf, size_t n)
{
    char why[200];
    kf_compare(m, k, nseg, why, sizeof why);
    const char *colon = strstr(why, ": model");
    if (!colon)
        colon = strstr(why, ": engine");
    if (nseg > 1)
        snprintf(buf, n, "run: %.*s", colon ? (int)(colon - why) : (int)strlen(why), why);
    else
        snprintf(buf, n, "model %s, kernel %s (%.*s)", live_class_name(m->o.cls), live_class_name(k->o.cls),
                 colon ? (int)(colon - why) : (int)strlen(why), why);
}

void kf_dump_model(const struct kf_case *c, const struct kf_frame *fr, const char *era, FILE *out)
{
    static struct csc_result r;
    struct kf_outcome m;
    struct csc_config cfg;
    kf_model(c, fr, era, &m);
    config_of(c, fr, era, m.nosock, &cfg);
    struct csc_frame f = { fr->lf.data, fr->lf.len, fr->lf.len, CSC_LINK_ETHERNET, CSC_DIR_IN };
    csc_analyze(&cfg, &f, &r);
    const struct csc_kernel *k = &r.kernel;
    fprintf(out, "  model (era %s): %s", era, csc_kverdict_name(k->verdict));
    if (k->drop_layer < r.nlayers)
        fprintf(out, " at layer %u (%s) %s", k->drop_layer, csc_proto_name(r.layers[k->drop_layer].proto),
                csc_drop_name(k->drop_reason));
    if (r.stop != CSC_STOP_END)
        fprintf(out, "; decoding stopped: %s in %s at %u", csc_stop_name(r.stop), csc_proto_name(r.stop_proto),
                r.stop_off);
    fprintf(out, "\n");
    for (int i = 0; i < k->ndevs; i++)
        fprintf(out, "    dev %s entry %s/%u gro %s\n", csc_dev_name(k->devs[i].kind),
                csc_ip_summed_name(k->devs[i].entry.ip_summed), k->devs[i].entry.csum_level,
                k->devs[i].gro_ran ? csc_gro_reason_name(k->devs[i].gro_reason) : "not run");
    for (int i = 0; i < r.nlayers; i++) {
        const struct csc_layer *l = &r.layers[i];
        fprintf(out, "    L%d %-9s off %-4u %-8s k:%s/%s ok=%u\n", i, csc_proto_name(l->proto), l->off,
                csc_verdict_name(l->verdict), csc_method_name(l->k.method), csc_path_name(l->k.path), l->k.ok);
    }
    for (int i = 0; i < k->nsteps; i++) {
        const struct csc_step *s = &k->steps[i];
        fprintf(out, "    step %-2d L%-3d %-28s %-22s %s\n", i, s->layer == CSC_NO_LAYER ? -1 : s->layer,
                csc_fn_name(s->fn), csc_what_name(s->what), csc_tri_name(s->ok));
    }
}
