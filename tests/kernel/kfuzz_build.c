/*
 * kfuzz_build.c - the bytes of a fuzz frame from its recipe: the tunnel
 * stack of the live-kernel differential test (kd_stack, kdiff_frames.c:
 * the receiver's ports, peers and header variants), its transport and
 * payload, then the mutations in three passes - inserted layers, fields
 * and patches (pb_build puts the checksums over them), cuts and padding -
 * and the virtio-net header of the report.
 */
#include "kfuzz.h"

#include <stdio.h>
#include <string.h>

static void to_kd_case(const struct kf_case *c, struct kd_case *k)
{
    memset(k, 0, sizeof *k);
    k->g = c->g;
    k->hdr = c->hdr;
    k->inner6 = c->inner6;
    k->tcp = c->l4 == KL_TCP;
    k->nseg = 1;
}

/* The GRE layer of the stack that is not the tunnel header itself */
static int other_gre(const struct pb_frame *f, int tun)
{
    for (int i = 0; i < f->n; i++)
        if (f->l[i].kind == PB_GRE && i != tun)
            return i;
    return -1;
}

void kf_base_stack(const struct kf_case *c, int seg, struct pb_frame *f, int *role)
{
    struct kd_case k;
    struct kd_stack_idx ix;
    to_kd_case(c, &k);
    kd_stack(&k, seg, 0, f, &ix);
    role[RO_OETH] = ix.oeth;
    role[RO_OIP] = ix.oip;
    role[RO_OL4] = ix.udp;
    role[RO_TUN] = ix.tun;
    role[RO_GRE] = other_gre(f, ix.tun);
    role[RO_IETH] = ix.ieth;
    role[RO_IIP] = ix.iip;
    role[RO_L4] = ix.l4;
    role[RO_PAY] = ix.pay;
    struct pb_layer *l4 = &f->l[ix.l4];
    int ip = ix.iip >= 0 ? ix.iip : ix.oip;
    if (c->l4 == KL_ICMP) {
        memset(l4, 0, sizeof *l4);
        l4->kind = f->l[ip].kind == PB_IPV6 ? PB_ICMPV6 : PB_ICMP;
    } else if (c->l4 == KL_NONE) {
        memset(l4, 0, sizeof *l4);
        l4->kind = PB_RAW;             /* no header: IP protocol 253 (experimental) */
    } else {
        l4->sport = c->sport;
        if (l4->kind == PB_TCP)
            l4->seq = 1000u + (uint32_t)seg * c->paylen;
    }
    f->l[ix.pay].len = c->paylen;
    if ((c->flags & KF_F_MPLSUDP) && c->g.tun == KT_PLAIN && l4->kind == PB_UDP && f->n + 3 <= PB_MAX_LAYERS) {
        /* MPLS-in-UDP: the UDP datagram goes to 6635 and carries a label
         * stack of one, then an IPv4 packet with the UDP the listener takes */
        struct pb_layer pay = f->l[ix.pay];
        l4->dport = KF_MPLSUDP_PORT;
        f->n = ix.pay;
        role[RO_TUN] = f->n;
        pb_push(f, PB_MPLS)->label = 100;
        role[RO_IIP] = f->n;
        pb_push(f, PB_IPV4);
        role[RO_OL4] = ix.l4;
        role[RO_L4] = f->n;
        pb_push(f, PB_UDP)->sport = c->sport;
        role[RO_PAY] = f->n;
        f->l[f->n++] = pay;
    }
    if (c->g.tun == KT_ERSPAN && ix.ieth >= 0 && !(c->flags & KF_F_BCAST_MIRROR)) {
        /* the mirrored frame is addressed to the monitored host */
        struct pb_patch *p = pb_patch_add(f, ix.ieth, PB_PATCH_SET, 0, 6);
        if (p)
            memcpy(p->val, "\x02\x00\x00\x00\x00\x77", 6);
    } else if (c->g.tun == KT_ERSPAN && ix.ieth >= 0) {
        struct pb_patch *p = pb_patch_add(f, ix.ieth, PB_PATCH_SET, 0, 6);
        if (p)
            memset(p->val, 0xff, 6);
    }
}

/* Where a layout-placed cut ends the frame (0: no such cut) */
static size_t cut_at(const struct pb_frame *f, const int *role, int where)
{
    int l;
    switch (where) {
    case 1:
        l = role[RO_L4];
        return l >= 0 && f->hlen[l] >= 2 ? f->off[l] + f->hlen[l] / 2 : 0;
    case 2:
        l = role[RO_TUN] >= 0 ? role[RO_TUN] : role[RO_GRE];
        return l >= 0 && f->hlen[l] >= 2 ? f->off[l] + f->hlen[l] / 2 : 0;
    case 3:
        l = role[RO_OIP];
        return l >= 0 ? f->off[l] + f->hlen[l] : 0;
    default:
        return 0;
    }
}

/* The checksum field of a layer as NEEDS_CSUM would name it: its offset in
 * the header, -1 when it has none */
static int csum_field(const struct pb_layer *l)
{
    switch (l->kind) {
    case PB_UDP: return 6;
    case PB_TCP: return 16;
    case PB_ICMP: case PB_ICMPV6: return 2;
    case PB_GRE: return (l->gre_flags & 0x8000) ? 4 : -1;
    case PB_IPV4: return 10;
    default: return -1;
    }
}

static void partial_of(const struct kf_case *c, const struct pb_frame *f, const int *role, size_t len,
                       struct kf_frame *fr)
{
    int target = c->ptarget, l = -1, off = -1;
    fr->pstart = fr->poff = 0xffff;
    if (target == 0) {                 /* the outermost L4 checksum: UDP, or GRE with C */
        l = role[RO_OL4];
        if (l < 0) {
            int g = role[RO_GRE] >= 0 ? role[RO_GRE] : role[RO_TUN];
            if (g >= 0 && csum_field(&f->l[g]) >= 0)
                l = g;
        }
        if (l < 0)
            target = 1;
    }
    if (target == 1)                   /* the innermost transport's */
        l = role[RO_L4];
    if (target == 3)                   /* an IP header checksum (v4), the inner one first */
        l = role[RO_IIP] >= 0 ? role[RO_IIP] : role[RO_OIP];
    if (l >= 0)
        off = csum_field(&f->l[l]);
    if (target == 2 || l < 0 || off < 0) {   /* any header, any even offset in it */
        int cand[RO__COUNT], n = 0;
        for (int r = RO_OIP; r < RO__COUNT; r++)
            if (role[r] >= 0 && f->hlen[role[r]] >= 2)
                cand[n++] = role[r];
        if (!n)
            return;
        l = cand[c->poff_sel % n];
        off = (int)(2 * ((c->poff_sel / n) % (f->hlen[l] / 2)));
    }
    size_t start = f->off[l];
    /* virtio_net_hdr_to_skb refuses a csum_start below sizeof(struct iphdr)
     * from the frame's start, or a field past its end: such a frame goes
     * with no report */
    if (start < fr->l3_off || start < 20 || start + (size_t)off + 2 > len || start > 0xfff0)
        return;
    fr->pstart = (uint16_t)start;
    fr->poff = (uint16_t)off;
    live_frame_partial(&fr->lf, fr->pstart, fr->poff);
}

/* An outer IP header cut short (oip.short=N): the frame ends inside it, under
 * the Ethernet minimum - a TAP takes any frame of ETH_HLEN on (tun_get_user,
 * drivers/net/tun.c, v6.12), so it goes unpadded for ip_rcv_core's pull of
 * the fixed header to fail (docs/kernel-branches.md ip4-3, ip6-3) */
static int outer_ip_short(const struct kf_case *c)
{
    for (int i = 0; i < c->nedit; i++)
        if (c->edit[i].op == KE_SHORT && c->edit[i].role == RO_OIP)
            return 1;
    return 0;
}

/* Does mutation m apply to segment seg? */
static int on_seg(const struct kf_mut *m, int seg)
{
    return m->seg == 0 || m->seg == seg + 1;
}

void kf_build(const struct kf_case *c, int seg, struct kf_frame *fr)
{
    static struct pb_frame f;
    int role[RO__COUNT];
    memset(fr, 0, sizeof *fr);
    fr->pstart = fr->poff = 0xffff;
    kf_base_stack(c, seg, &f, role);
    for (int i = 0; i < c->nmut; i++)
        if (on_seg(&c->mut[i], seg))
            kf_mut_insert_roles(c, &c->mut[i], &f, role);
    for (int i = 0; i < c->nmut; i++)
        if (on_seg(&c->mut[i], seg))
            kf_mut_apply(c, &c->mut[i], &f, role);
    if (c->nedit)
        kf_edits_apply(c, seg, &f, role);
    uint8_t buf[LIVE_MAX_FRAME];
    size_t n = pb_build(&f, buf, sizeof buf - 256);
    if (!n)
        return;
    size_t end = f.len;
    for (int i = 0; i < c->nmut; i++) {
        if (!on_seg(&c->mut[i], seg))
            continue;
        int where = kf_mut_trunc_at(&c->mut[i]);
        size_t at = where ? cut_at(&f, role, where) : 0;
        if (at && at < end)
            end = at;
    }
    for (int i = 0; i < c->nmut; i++)
        if (on_seg(&c->mut[i], seg) && !kf_mut_trunc_at(&c->mut[i]))
            end = kf_mut_post(c, &c->mut[i], buf, end, sizeof buf - 64);
    if (end < 14)
        end = 14;
    n = end;
    if (n < 60 && !outer_ip_short(c)) {   /* the Ethernet minimum, as pb pads */
        memset(buf + n, 0, 60 - n);
        n = 60;
    }
    for (int r = 0; r < RO__COUNT; r++)
        fr->role_layer[r] = role[r];
    fr->l3_off = f.off[role[RO_OIP]];
    int iip = role[RO_IIP] >= 0 ? role[RO_IIP] : role[RO_OIP];
    fr->inner_l3_len = f.len > f.off[iip] ? f.len - f.off[iip] : 0;
    fr->iip_off = role[RO_IIP] >= 0 ? f.off[role[RO_IIP]] : 0;
    live_frame_set(&fr->lf, buf, n);
    if (c->report == KFR_PARTIAL)
        partial_of(c, &f, role, n, fr);
    fr->ok = 1;
}

void kf_receiver_name(const struct kf_case *c, char *buf, size_t n)
{
    static const char *const names[] = { "remcsumrx", "nopartial", "noremcsumrx", "udp6zerocsumrx", "external",
                                         "innerprotoinherit", "icsum", "ikey", "erspan1", "erspan2", "nogro" };
    static const char *const hdrs[] = { "rco", "C", "K", "S", "opt", "crit", "oam", "ver1", "l3", "ctrl",
                                        "privflag", "direct", "flag", "ver2", "erspan2", "erspan3" };
    size_t o = (size_t)snprintf(buf, n, "%s%s", kf_tun_name(&c->g), (c->flags & KF_F_MPLSUDP) ? "+mplsudp" : "");
    for (unsigned i = 0; i < sizeof hdrs / sizeof *hdrs && o < n; i++)
        if (c->hdr & (1u << i))
            o += (size_t)snprintf(buf + o, n - o, "+%s", hdrs[i]);
    if (c->g.opts && o < n)
        o += (size_t)snprintf(buf + o, n - o, "[");
    for (unsigned i = 0, first = 1; i < sizeof names / sizeof *names && o < n; i++)
        if (c->g.opts & (1u << i)) {
            o += (size_t)snprintf(buf + o, n - o, "%s%s", first ? "" : ",", names[i]);
            first = 0;
        }
    if (c->g.opts && o < n)
        snprintf(buf + o, n - o, "]");
}

void kf_report_name(const struct kf_case *c, const struct kf_frame *fr, char *buf, size_t n)
{
    if (c->report == KFR_UNNECESSARY)
        snprintf(buf, n, "unnecessary:%d", c->g.level);
    else if (fr->pstart != 0xffff)
        snprintf(buf, n, "partial:%u:%u", (unsigned)(fr->pstart - fr->l3_off), fr->poff);
    else
        snprintf(buf, n, "none");
}

void kf_case_label(const struct kf_case *c, char *buf, size_t n)
{
    static const char *const l4[KL__COUNT] = { "tcp", "udp", "icmp", "raw" };
    char opts[96] = "", hdr[96] = "";
    struct kd_case k;
    to_kd_case(c, &k);
    char full[300];
    kd_case_label(&k, full, sizeof full);   /* for its header variants and options */
    const char *h = strchr(full, ' ');
    size_t tl = strlen(kf_tun_name(&c->g));
    if (h && (size_t)(h - full) > tl)
        snprintf(hdr, sizeof hdr, "%.*s", (int)(h - full - tl), full + tl);
    const char *o = strstr(full, " tap=");
    if (o && (o = strchr(o + 1, ' ')))
        snprintf(opts, sizeof opts, "%s", o);
    char runs[16] = "";
    if (c->nseg > 1)
        snprintf(runs, sizeof runs, " run%u", c->nseg);
    size_t at = (size_t)snprintf(buf, n, "%s%s%s %s%s %s%c tap=%s%s", kf_tun_name(&c->g), hdr, runs,
                                 c->g.v6 ? "ip6" : "ip4",
                                 c->report == KFR_PARTIAL ? " rx=partial" :
                                 c->report == KFR_UNNECESSARY ? " rx=unnecessary" : "",
                                 l4[c->l4 % KL__COUNT], c->g.tun == KT_PLAIN ? (c->g.v6 ? '6' : '4')
                                                                           : (c->inner6 ? '6' : '4'),
                                 c->g.gro ? "napi+gro" : c->g.napi ? "napi" : c->g.level >= 0 ? "bpf" :
                                 c->sysctl ? "plain+sysctl1" : "plain",
                                 opts);
    for (int i = 0; i < c->nmut && at < n; i++) {
        char m[80];
        kf_mut_name(c, &c->mut[i], m, sizeof m);
        at += (size_t)snprintf(buf + at, n - at, " %s", m);
    }
}
