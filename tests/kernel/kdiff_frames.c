/*
 * kdiff_frames.c - the frames of a case, built with the project's frame
 * builder (captures/lib/pb), and the receiver each group of cases needs.
 *
 * Addresses are pb's defaults: the outer packet goes 10.0.0.1 -> 10.0.0.2
 * (2001:db8::1 -> ::2), the TAP's address; the inner one 10.0.1.1 ->
 * 10.0.1.2 (2001:db8:0:1::1 -> ::2), t0's. Every Ethernet destination is
 * 02:00:00:00:00:02, the MAC the TAP and the Ethernet-carrying tunnel devices
 * get. Inner TCP goes to 5001, inner UDP to 5000 (5003/5002 when no socket
 * listens); the sentinel is inner UDP to 5999.
 *
 * Header variants the builder has no field for (GENEVE flags and versions,
 * GUE control, flags and versions) are written as raw bytes (PB_RAW), which
 * the outer checksums then cover like any other header.
 */
#include "kdiff.h"

#include "pb.h"

#include <stdio.h>
#include <string.h>

#define SENTINEL_PORT 5999
#define GRE_KEY 77
#define GENEVE_VNI 42

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

static int inner_is6(const struct kd_case *c)
{
    switch (c->g.tun) {
    case KT_IPIP: return 0;
    case KT_IP6: return 1;
    case KT_PLAIN: return c->g.v6 != 0;
    case KT_FOU: case KT_GUE:
        if (c->g.payload == 4)
            return 0;
        if (c->g.payload == 41)
            return 1;
        return c->inner6;
    default: return c->inner6;
    }
}

static void push_gre(struct pb_frame *f, const struct kd_case *c, int seg)
{
    struct pb_layer *g = pb_push(f, PB_GRE);
    g->gre_flags = (uint16_t)(((c->hdr & KH_GRE_C) ? 0x8000 : 0) | ((c->hdr & KH_GRE_K) ? 0x2000 : 0) |
                              ((c->hdr & KH_GRE_S) ? 0x1000 : 0));
    g->key = GRE_KEY;
    /* An ERSPAN device requires S and drops a sequence number behind the
     * last one it took (ip_tunnel_rcv: rx_fifo_errors); after 0xffffffff
     * it expects 0, and i_seqno 0 means "no order yet": every frame with
     * this number is taken, whatever came before. */
    g->gre_seq = c->g.tun == KT_ERSPAN ? 0xffffffffu : (uint32_t)(seg + 1);
    g->csum = pb_state_of(c->gcs[seg]);
}

/* GENEVE (RFC 8926) as raw bytes: ver(2)|optlen(6), O|C|rsvd, protocol,
 * VNI, reserved, then an option of class 0x0102 type 0x01 (not critical)
 * with 4 bytes of data. */
static void push_geneve(struct pb_frame *f, const struct kd_case *c, int inner6)
{
    struct pb_layer *r = pb_push(f, PB_RAW);
    int opt = (c->hdr & KH_GNV_OPT) != 0;
    uint16_t proto = (c->hdr & KH_L3) ? (inner6 ? 0x86dd : 0x0800) : 0x6558;
    uint8_t *p = r->raw;
    memset(p, 0, sizeof r->raw);
    p[0] = (uint8_t)(((c->hdr & KH_GNV_VER1) ? 0x40 : 0) | (opt ? 2 : 0));
    p[1] = (uint8_t)(((c->hdr & KH_GNV_OAM) ? 0x80 : 0) | ((c->hdr & KH_GNV_CRIT) ? 0x40 : 0));
    p[2] = (uint8_t)(proto >> 8);
    p[3] = (uint8_t)proto;
    p[4] = (uint8_t)(GENEVE_VNI >> 16);
    p[5] = (uint8_t)(GENEVE_VNI >> 8);
    p[6] = (uint8_t)GENEVE_VNI;
    if (opt) {
        p[8] = 0x01;
        p[9] = 0x02;
        p[10] = 0x01;
        p[11] = 1;                     /* option data: 1 word */
        memcpy(p + 12, "\xca\xfe\xf0\x0d", 4);
    }
    r->len = (uint16_t)(8 + (opt ? 8 : 0));
}

/* GUE variants the builder does not name, as raw bytes (draft-ietf-intarea-gue):
 * ver(2)|C|hlen(5), proto/ctype, flags(16), then extension fields. */
static void push_gue_raw(struct pb_frame *f, const struct kd_case *c, uint8_t proto)
{
    struct pb_layer *r = pb_push(f, PB_RAW);
    uint8_t *p = r->raw;
    memset(p, 0, sizeof r->raw);
    r->len = 4;
    p[1] = proto;
    if (c->hdr & KH_GUE_CTRL)
        p[0] |= 0x20;                  /* control message, ctype = the proto byte */
    if (c->hdr & KH_GUE_VER2)
        p[0] |= 0x80;
    if (c->hdr & KH_GUE_FLAG)
        p[2] = 0x40;                   /* a header flag GUE does not define */
    if (c->hdr & KH_GUE_PRIV) {
        p[0] |= 1;                     /* hlen: one extension word */
        p[3] = 0x01;                   /* GUE_FLAG_PRIV */
        p[4] = 0x40;                   /* private flags: not GUE_PFLAG_REMCSUM */
        r->len = 8;
    }
}

/* The inner address of a class the kernel drops by (enum kd_addr) */
static void set_inner_addr(struct pb_layer *l, int inner6, uint8_t addr)
{
    uint8_t *a = addr == KA_SRC_LOOPBACK || addr == KA_SRC_MCAST || addr == KA_SRC_ZERONET ? l->src : l->dst;
    if (addr == KA_NONE)
        return;
    memset(a, 0, 16);
    if (!inner6) {
        static const uint8_t v4[KA__COUNT][4] = { [KA_SRC_LOOPBACK] = { 127, 0, 0, 1 },
                                                  [KA_DST_LOOPBACK] = { 127, 0, 0, 1 },
                                                  [KA_SRC_MCAST] = { 224, 0, 0, 5 },
                                                  [KA_SRC_ZERONET] = { 0, 0, 0, 0 },
                                                  [KA_DST_ZERONET] = { 0, 0, 0, 0 } };
        memcpy(a, v4[addr], 4);
    } else if (addr == KA_SRC_LOOPBACK || addr == KA_DST_LOOPBACK) {
        a[15] = 1;                             /* ::1 */
    } else {
        a[0] = 0xff;                           /* ff02::1 as a source; ff01::1, ff00::1 */
        a[1] = addr == KA_SRC_MCAST ? 0x02 : addr == KA_DST_MC_SCOPE1 ? 0x01 : 0x00;
        a[15] = 1;
    }
}

static void push_inner_ip(struct pb_frame *f, const struct kd_case *c, int inner6, int seg)
{
    struct pb_layer *l = pb_push(f, inner6 ? PB_IPV6 : PB_IPV4);
    l->ip_id = (uint16_t)(seg + 1);
    set_inner_addr(l, inner6, c->addr);
    if (inner6 && c->hbh && c->hbh <= kd_n_hbh_opts) {
        l->v6_ext |= PB_X_HBH;
        memcpy(l->hbh_opts, kd_hbh_opts[c->hbh - 1].opts, sizeof l->hbh_opts);
    }
}

/* ERSPAN type II (8 bytes) or III (12 bytes) after GRE with S (RFC-less:
 * draft-foschiano-erspan): version, VLAN, COS/En/T, session ID (the
 * receiving device's key), then the index (II) or timestamp, SGT, flags (III). */
static void push_erspan(struct pb_frame *f, const struct kd_case *c)
{
    struct pb_layer *r = pb_push(f, PB_RAW);
    uint8_t *p = r->raw;
    memset(p, 0, sizeof r->raw);
    int v3 = (c->hdr & KH_ERSPAN3) != 0;
    p[0] = (uint8_t)((v3 ? 2 : 1) << 4);
    p[2] = 0;
    p[3] = KD_ERSPAN_SESSION;          /* session ID 7 (10 bits), COS/En/T 0 */
    if (v3)
        p[11] = 0;                     /* hw ID, direction, granularity, O: 0 */
    else
        p[7] = 1;                      /* index */
    r->len = (uint16_t)(v3 ? 12 : 8);
}

/* Everything from the tunnel header to the inner IP header. */
static void push_tunnel(struct pb_frame *f, const struct kd_case *c, int seg, struct kd_stack_idx *ix)
{
    int inner6 = inner_is6(c);
    struct pb_layer *u;
    struct kd_devspec ds;
    kd_dev_of(&c->g, &ds);
    switch (c->g.tun) {
    case KT_VXLAN: case KT_GPE: case KT_GENEVE: case KT_FOU: case KT_GUE: case KT_GREUDP: case KT_L2TP:
        if (!kd_is_udp_tunnel(&c->g))
            break;
        ix->outer_l4 = ix->udp = f->n;
        u = pb_push(f, PB_UDP);
        u->csum = pb_state_of(c->oudp[seg]);
        u->sport = KD_L2TP_PEER_PORT;   /* 40000: also the port an L2TP tunnel's socket is connected to */
        u->dport = ds.port;
        break;
    default:
        break;
    }
    ix->tun = f->n;
    switch (c->g.tun) {
    case KT_VXLAN:
        pb_push(f, PB_VXLAN)->rco = (c->hdr & KH_RCO) != 0;
        ix->ieth = f->n;
        pb_push(f, PB_ETH);
        break;
    case KT_GPE:
        pb_push(f, PB_VXLAN_GPE);
        break;
    case KT_GENEVE:
        push_geneve(f, c, inner6);
        if (!(c->hdr & KH_L3)) {
            ix->ieth = f->n;
            pb_push(f, PB_ETH);
        }
        break;
    case KT_GRE: case KT_GRETAP:
        if (c->hdr & KH_GRE_C)
            ix->outer_l4 = f->n;
        push_gre(f, c, seg);
        if (c->g.tun == KT_GRETAP) {
            ix->ieth = f->n;
            pb_push(f, PB_ETH);
        }
        break;
    case KT_ERSPAN:
        if (c->hdr & KH_GRE_C)
            ix->outer_l4 = f->n;
        push_gre(f, c, seg);
        f->l[f->n - 1].proto = (c->hdr & KH_ERSPAN3) ? 0x22eb : 0x88be;
        if (c->hdr & (KH_ERSPAN2 | KH_ERSPAN3)) {
            ix->tun = f->n;            /* the ERSPAN header plays the tunnel */
            push_erspan(f, c);
        }
        ix->ieth = f->n;
        pb_push(f, PB_ETH);
        break;
    case KT_L2TP: {
        /* session ID, the default L2-specific sublayer (0: no S), the
         * pseudowire's Ethernet frame */
        struct pb_layer *l = pb_push(f, PB_L2TPV3);
        l->key = kd_l2tp_id(&c->g);
        ix->ieth = f->n;
        pb_push(f, PB_ETH);
        break;
    }
    case KT_FOU: case KT_GREUDP:
        if (c->g.payload == 47 || c->g.tun == KT_GREUDP)
            push_gre(f, c, seg);
        else
            ix->tun = -1;              /* FOU: nothing between UDP and IP */
        break;
    case KT_GUE:
        if (c->hdr & KH_GUE_VER1) {
            pb_push(f, PB_GUE)->gue_variant = 1;
        } else if (c->hdr & (KH_GUE_CTRL | KH_GUE_PRIV | KH_GUE_FLAG | KH_GUE_VER2)) {
            push_gue_raw(f, c, c->g.payload);
        } else {
            pb_push(f, PB_GUE)->rco = (c->hdr & KH_RCO) != 0;
        }
        if (c->g.payload == 47)
            push_gre(f, c, seg);
        break;
    default:
        ix->tun = -1;                  /* IP in IP: the inner header follows the outer */
        break;
    }
    ix->iip = f->n;
    push_inner_ip(f, c, inner6, seg);
}

void kd_stack(const struct kd_case *c, int seg, uint16_t dport, struct pb_frame *f, struct kd_stack_idx *ix)
{
    memset(ix, -1, sizeof *ix);
    pb_init(f);
    ix->oeth = f->n;
    pb_push(f, PB_ETH);
    ix->oip = f->n;
    struct pb_layer *ip = pb_push(f, c->g.v6 ? PB_IPV6 : PB_IPV4);
    struct kd_devspec ds;
    kd_dev_of(&c->g, &ds);
    ip->src[c->g.v6 ? 15 : 3] = ds.peer;  /* the device's peer: tunnels find their device by it */
    ip->src[c->g.v6 ? 13 : 2] = ds.net;
    ip->csum = pb_state_of(c->ip[seg]);
    ip->ip_id = (uint16_t)(seg + 1);
    if (c->g.tun != KT_PLAIN)
        push_tunnel(f, c, seg, ix);
    ix->l4 = f->n;
    struct pb_layer *l4 = pb_push(f, c->icmp ? PB_ICMP : c->tcp ? PB_TCP : PB_UDP);
    l4->csum = pb_state_of(c->icsum[seg]);
    l4->icmp_type = c->icmp_type;
    l4->sport = (uint16_t)(20000 + c->id);
    l4->dport = dport ? dport : c->nosock ? (c->tcp ? 5003 : 5002) : 0;
    if (c->tcp) {
        l4->seq = 1000u + (uint32_t)seg * KD_TCP_PAYLOAD;
        l4->ack = 1;
    }
    ix->pay = f->n;
    struct pb_layer *pl = pb_push(f, PB_PAYLOAD);
    pl->len = c->icmp ? c->icmp_len : c->tcp ? KD_TCP_PAYLOAD : KD_UDP_PAYLOAD;
    pl->fill = (uint8_t)(0x40 + seg);
}

static size_t build(const struct kd_case *c, int seg, uint16_t dport, uint8_t *out, size_t cap,
                    struct kd_frame_info *fi)
{
    static struct pb_frame f;
    struct kd_stack_idx ix;
    kd_stack(c, seg, dport, &f, &ix);
    size_t n = pb_build(&f, out, cap);
    if (fi) {
        memset(fi, 0, sizeof *fi);
        fi->len = n;
        if (ix.outer_l4 >= 0) {
            fi->outer_l4 = f.off[ix.outer_l4];
            fi->outer_csum = f.off[ix.outer_l4] + (f.l[ix.outer_l4].kind == PB_GRE ? 4 : 6);
        }
        fi->inner_l4 = f.off[ix.l4];
        fi->inner_csum = f.off[ix.l4] + (c->icmp ? 2 : c->tcp ? 16 : 6);
        fi->inner_l3_len = f.len - f.off[ix.l4 - 1];
    }
    return n;
}

/* ---- a frame cut into IP fragments (issue 16) ---- */

struct frags {
    int n, want;                 /* fragments seen, the one wanted */
    uint8_t *out;
    size_t cap, len;
};

static void take_fragment(void *ctx, const uint8_t *b, size_t len)
{
    struct frags *fr = ctx;
    if (fr->n++ == fr->want && len <= fr->cap) {
        memcpy(fr->out, b, len);
        fr->len = len;
    }
}

/* Fragment k (in sending order) of the case's frame, built as segment 0
 * without DF; its outer IPv4 header checksum is c->ip[seg]. fi describes
 * the whole frame. */
static size_t build_fragment(const struct kd_case *c, int seg, uint8_t *out, size_t cap,
                             struct kd_frame_info *fi, int *count)
{
    uint8_t whole[LIVE_MAX_FRAME];
    struct kd_case w = *c;
    w.frag = KF_NONE;
    w.ip[0] = KS_OK;
    size_t n = build(&w, 0, 0, whole, sizeof whole, fi);
    if (!n)
        return 0;
    if (!c->g.v6) {
        whole[14 + 6] = 0;            /* no DF: a datagram a router may cut */
        whole[14 + 7] = 0;
        whole[14 + 10] = whole[14 + 11] = 0;
        uint32_t sum = 0;
        for (int i = 0; i < 20; i += 2)
            sum += (uint32_t)(whole[14 + i] << 8 | whole[14 + i + 1]);
        while (sum >> 16)
            sum = (sum & 0xffff) + (sum >> 16);
        whole[14 + 10] = (uint8_t)(~sum >> 8);
        whole[14 + 11] = (uint8_t)~sum;
    }
    struct frags fr = { 0, 0, out, cap, 0 };
    int total = c->g.v6 ? pb_fragment_ipv6(whole, n, 14, KD_FRAG_PAYLOAD, 0x5000u + c->id, take_fragment, &fr)
                        : pb_fragment_ipv4(whole, n, 14, KD_FRAG_PAYLOAD, take_fragment, &fr);
    if (count)
        *count = total;
    if (total <= 0 || seg >= total)
        return 0;
    fr.n = 0;
    fr.want = c->frag == KF_REVERSE ? total - 1 - seg : seg;
    fr.len = 0;
    if (c->g.v6)
        pb_fragment_ipv6(whole, n, 14, KD_FRAG_PAYLOAD, 0x5000u + c->id, take_fragment, &fr);
    else
        pb_fragment_ipv4(whole, n, 14, KD_FRAG_PAYLOAD, take_fragment, &fr);
    if (fr.len && !c->g.v6 && c->ip[seg] == KS_BAD)
        out[14 + 11] ^= 0x5a;         /* this fragment's IPv4 header checksum */
    return fr.len;
}

int kd_frag_count(const struct kd_case *c)
{
    uint8_t buf[LIVE_MAX_FRAME];
    int count = 0;
    build_fragment(c, 0, buf, sizeof buf, NULL, &count);
    return count;
}

size_t kd_build(const struct kd_case *c, int seg, uint8_t *out, size_t cap, struct kd_frame_info *fi)
{
    if (c->frag)
        return build_fragment(c, seg, out, cap, fi, NULL);
    return build(c, seg, 0, out, cap, fi);
}

int kd_live_case(const struct kd_case *c, int dev, struct live_case *lc)
{
    memset(lc, 0, sizeof *lc);
    lc->id = c->id;
    lc->dev = (uint8_t)dev;
    lc->nframes = c->nseg;
    for (int s = 0; s < c->nseg; s++) {
        struct kd_frame_info fi;
        struct live_frame *fr = &lc->frames[s];
        uint8_t buf[LIVE_MAX_FRAME];
        size_t n = kd_build(c, s, buf, sizeof buf, &fi);
        if (!n)
            return -1;
        live_frame_set(fr, buf, n);
        if (c->report == KR_POUT || c->report == KR_PIN) {
            size_t l4 = c->report == KR_POUT ? fi.outer_l4 : fi.inner_l4;
            size_t cs = c->report == KR_POUT ? fi.outer_csum : fi.inner_csum;
            if (!l4)
                return -1;
            live_frame_partial(fr, (uint16_t)l4, (uint16_t)(cs - l4));
        }
    }
    return 0;
}

/* ---- the receiver ---- */

static void dev_line(struct live_dev *d, const char *line)
{
    if (d->ncmds < LIVE_MAX_DEV_CMDS)
        snprintf(d->cmds[d->ncmds++], LIVE_CMD_LEN, "%s", line);
}

/* The device that receives a bare IP or GRE payload over this underlay. */
static const char *ip_tunnel_type(int v6, int payload)
{
    switch (payload) {
    case 4: return v6 ? "ip6tnl mode ipip6" : "ipip";
    case 41: return v6 ? "ip6tnl mode ip6ip6" : "sit mode ip6ip";
    default: return v6 ? "ip6gre" : "gre";
    }
}

void kd_setup_of(const struct kd_group *g, struct live_setup *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s underlay, TAP %s%s%s", g->v6 ? "IPv6" : "IPv4",
             g->napi ? "IFF_NAPI" : "plain", g->gro ? " + gro_flush_timeout" : "",
             g->level >= 0 ? (g->level ? " + BPF level 1" : " + BPF level 0") : "");
    s->napi = g->napi;
    s->gro_flush_ns = g->gro ? KD_GRO_TIMEOUT_NS : 0;
    s->level = g->level;
    s->ncmds = 1;
    if (g->v6)
        snprintf(s->cmds[0], LIVE_CMD_LEN, "ip addr add 2001:db8::2/64 dev " LIVE_TAP_NAME " nodad");
    else
        snprintf(s->cmds[0], LIVE_CMD_LEN, "ip addr add 10.0.0.2/24 dev " LIVE_TAP_NAME);
    static const struct live_sock socks[] = {
        { LIVE_UDP4, 5000 }, { LIVE_UDP6, 5000 }, { LIVE_TCP4, 5001 }, { LIVE_TCP6, 5001 },
        { LIVE_UDP4, SENTINEL_PORT }, { LIVE_UDP6, SENTINEL_PORT },
    };
    s->nsocks = (int)(sizeof socks / sizeof *socks);
    memcpy(s->socks, socks, sizeof socks);
}

int kd_setup_add_dev(struct live_setup *s, const struct kd_group *g)
{
    if (s->ndevs >= LIVE_MAX_DEVS)
        return -1;
    struct kd_devspec ds;
    kd_dev_of(g, &ds);
    struct live_dev *d = &s->devs[s->ndevs];
    memset(d, 0, sizeof *d);
    snprintf(d->ifname, sizeof d->ifname, "%s", g->tun == KT_PLAIN ? LIVE_TAP_NAME : ds.name);
    snprintf(d->name, sizeof d->name, "%s (%s)", g->tun == KT_PLAIN ? LIVE_TAP_NAME : ds.name, kd_tun_name(g));
    char me[24], peer[24], line[LIVE_CMD_LEN], o[64];
    snprintf(me, sizeof me, "%s", g->v6 ? "2001:db8::2" : "10.0.0.2");
    kd_peer_text(g, peer, sizeof peer);
    const char *fam = g->v6 ? "-6 " : "";
    int inherit = 0;
    snprintf(o, sizeof o, "%s%s", (g->opts & KO_ICSUM) ? " icsum" : "", (g->opts & KO_IKEY) ? " ikey 77" : "");
    switch (g->tun) {
    case KT_VXLAN:
        snprintf(line, sizeof line, "@vxlan %s address " LIVE_TAP_MAC " id 42 dstport %u local %s nolearning%s%s%s%s",
                 ds.name, ds.port, me, (g->opts & KO_REMCSUM) ? " remcsumrx" : "",
                 (g->opts & KO_NOREMCSUM) ? " noremcsumrx" : "", (g->opts & KO_NOPARTIAL) ? " remcsum-nopartial" : "",
                 (g->opts & KO_U6Z) ? " udp6zerocsumrx" : "");
        break;
    case KT_GPE:
        snprintf(line, sizeof line, "ip link add %s type vxlan dstport %u gpe external%s", ds.name, ds.port,
                 (g->opts & KO_U6Z) ? " udp6zerocsumrx" : "");
        break;
    case KT_GENEVE: {
        char id[48];
        inherit = (g->opts & KO_INHERIT) != 0;
        if (g->opts & KO_EXTERNAL)
            snprintf(id, sizeof id, "external");
        else
            snprintf(id, sizeof id, "id 42 remote %s", peer);
        snprintf(line, sizeof line, "ip link add %s%s type geneve %s dstport %u%s%s", ds.name,
                 inherit ? "" : " address " LIVE_TAP_MAC, id, ds.port, (g->opts & KO_U6Z) ? " udp6zerocsumrx" : "",
                 inherit ? " innerprotoinherit" : "");
        break;
    }
    case KT_GRE: case KT_GRETAP:
        snprintf(line, sizeof line, "ip link add %s%s type %s%s local %s remote %s%s", ds.name,
                 g->tun == KT_GRETAP ? " address " LIVE_TAP_MAC : "", g->v6 ? "ip6gre" : "gre",
                 g->tun == KT_GRETAP ? "tap" : "", me, peer, o);
        break;
    case KT_IPIP: case KT_IP6:
        snprintf(line, sizeof line, "ip link add %s type %s local %s remote %s", ds.name,
                 ip_tunnel_type(g->v6, g->tun == KT_IPIP ? 4 : 41), me, peer);
        break;
    case KT_ERSPAN: {
        int ver = (g->opts & KO_ERSPAN1) ? 1 : (g->opts & KO_ERSPAN2) ? 2 : 0;
        char v[64];
        if (ver)
            snprintf(v, sizeof v, " seq key %u erspan_ver %d %s", KD_ERSPAN_SESSION, ver,
                     ver == 1 ? "erspan 1" : "erspan_dir ingress erspan_hwid 1");
        else
            snprintf(v, sizeof v, " erspan_ver 0");
        snprintf(line, sizeof line, "ip link add %s address " LIVE_TAP_MAC " type %s local %s remote %s%s", ds.name,
                 g->v6 ? "ip6erspan" : "erspan", me, peer, v);
        break;
    }
    case KT_PLAIN:
        line[0] = 0;                   /* the TAP receives: nothing to make */
        break;
    case KT_L2TP: {
        /* an unmanaged tunnel (its socket bound to the TAP's address and
         * connected to the peer, over which the TAP's subnet route goes),
         * one session whose l2tpeth device gets the TAP's MAC: the inner
         * frames are the host's (l2tp_eth_dev_recv's dev_forward_skb runs
         * eth_type_trans on it) */
        uint32_t id = kd_l2tp_id(g);
        char udp[64] = "";
        /* the tunnel's socket is bound and connected when it is made, and
         * lines with a global option run before the batch that gives the
         * TAP its address and subnet: the local end and a route to the
         * peer first (as live/plan.c does for --live) */
        if (g->v6)
            snprintf(line, sizeof line, "ip -6 addr replace %s/128 dev lo nodad", me);
        else
            snprintf(line, sizeof line, "ip -4 route replace local %s/32 dev lo", me);
        dev_line(d, line);
        snprintf(line, sizeof line, "ip -%d route replace %s/%d dev " LIVE_TAP_NAME, g->v6 ? 6 : 4, peer,
                 g->v6 ? 128 : 32);
        dev_line(d, line);
        if (g->payload == KD_L2TP_UDP)
            snprintf(udp, sizeof udp, " udp_sport %u udp_dport %u", ds.port, KD_L2TP_PEER_PORT);
        snprintf(line, sizeof line, "ip l2tp add tunnel tunnel_id %u peer_tunnel_id %u encap %s local %s remote %s%s",
                 id, id, g->payload == KD_L2TP_UDP ? "udp" : "ip", me, peer, udp);
        dev_line(d, line);
        snprintf(line, sizeof line, "ip l2tp add session name %s tunnel_id %u session_id %u peer_session_id %u"
                 " l2spec_type default", ds.name, id, id, id);
        dev_line(d, line);
        snprintf(line, sizeof line, "ip link set %s address " LIVE_TAP_MAC, ds.name);
        break;
    }
    case KT_FOU: case KT_GUE: case KT_GREUDP: {
        int payload = g->tun == KT_GREUDP ? 47 : g->payload;
        char port[LIVE_CMD_LEN];
        if (g->tun == KT_GUE)
            snprintf(port, sizeof port, "ip %sfou add port %u gue", fam, ds.port);
        else
            snprintf(port, sizeof port, "ip %sfou add port %u ipproto %d", fam, ds.port, payload);
        dev_line(d, port);
        snprintf(line, sizeof line, "ip link add %s type %s local %s remote %s%s", ds.name,
                 ip_tunnel_type(g->v6, payload), me, peer, payload == 47 ? o : "");
        break;
    }
    default:
        return -1;
    }
    if (g->tun != KT_PLAIN) {
        dev_line(d, line);
        snprintf(line, sizeof line, "ip link set %s up", ds.name);
        dev_line(d, line);
        if (g->opts & KO_NOGRO) {
            snprintf(line, sizeof line, "@gro %s off", ds.name);
            dev_line(d, line);
        }
        snprintf(line, sizeof line, "ip addr add 10.0.1.2/24 dev %s", ds.name);
        dev_line(d, line);
        snprintf(line, sizeof line, "ip addr add 2001:db8:0:1::2/64 dev %s nodad", ds.name);
        dev_line(d, line);
    }
    /* Permanent neighbours for what the namespace answers (TCP resets, ICMP
     * errors): the peer on the TAP and, behind an Ethernet-carrying device,
     * the inner source. A resolution that times out would send the stack
     * host-unreachable errors of its own, counted as IcmpInErrors in some
     * later case. */
    snprintf(line, sizeof line, "ip neigh replace %s lladdr 02:00:00:00:00:01 dev " LIVE_TAP_NAME " nud permanent",
             peer);
    dev_line(d, line);
    if (g->tun == KT_VXLAN || g->tun == KT_GRETAP || g->tun == KT_ERSPAN || g->tun == KT_L2TP ||
        (g->tun == KT_GENEVE && !inherit)) {
        snprintf(line, sizeof line, "ip neigh replace 10.0.1.1 lladdr 02:00:00:00:00:01 dev %s nud permanent", ds.name);
        dev_line(d, line);
        snprintf(line, sizeof line, "ip neigh replace 2001:db8:0:1::1 lladdr 02:00:00:00:00:01 dev %s nud permanent",
                 ds.name);
        dev_line(d, line);
    }
    /* Sentinels: a clean frame through this device carrying UDP to 5999,
     * inner IPv4 first (it ends every case), then inner IPv6, where the
     * tunnel carries that family (sockets 4 and 5). */
    struct kd_case sc;
    memset(&sc, 0, sizeof sc);
    sc.g = *g;
    sc.nseg = 1;
    sc.hdr = (uint16_t)(((g->opts & KO_ICSUM) ? KH_GRE_C : 0) | ((g->opts & KO_IKEY) ? KH_GRE_K : 0));
    if (g->tun == KT_ERSPAN && (g->opts & (KO_ERSPAN1 | KO_ERSPAN2)))
        sc.hdr |= KH_GRE_S | ((g->opts & KO_ERSPAN2) ? KH_ERSPAN3 : KH_ERSPAN2);
    if (g->tun == KT_GENEVE && inherit)
        sc.hdr |= KH_L3;
    for (int in6 = 0; in6 <= 1; in6++) {
        sc.inner6 = (uint8_t)in6;
        if (inner_is6(&sc) != in6)
            continue;
        uint8_t buf[LIVE_MAX_FRAME];
        size_t n = build(&sc, 0, SENTINEL_PORT, buf, sizeof buf, NULL);
        d->sent_sock[d->nsent] = (uint8_t)(in6 ? 5 : 4);
        live_frame_set(&d->sent[d->nsent++], buf, n);
    }
    return s->ndevs++;
}
