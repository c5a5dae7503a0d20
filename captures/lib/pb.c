/*
 * pb.c - the frame builder (see pb.h). Header layouts follow the same RFCs
 * as the decoder in core/proto; the checksum arithmetic is core/csum.h.
 */
#include "pb.h"

#include "csum.h"

#include <string.h>

/* MACsec: the SecTAG after the EtherType is TCI/AN, SL, PN (6), with SC an
 * SCI (8); E=0, C=0: the user data's EtherType (2) is part of the layer */
#define PB_MACSEC_SC 0x20
#define PB_MACSEC_EC 0x0c
#define PB_MACSEC_ICV 16u

static const uint8_t v4_src[4] = { 10, 0, 0, 1 }, v4_dst[4] = { 10, 0, 0, 2 };
static const uint8_t v6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
static const uint8_t v6_mid[16] = { 0x20, 0x01, 0x0d, 0xb8, [14] = 0x99, [15] = 0x99 };

void pb_init(struct pb_frame *f)
{
    memset(f, 0, sizeof *f);
}

struct pb_layer *pb_push(struct pb_frame *f, enum pb_kind kind)
{
    if (f->n >= PB_MAX_LAYERS)
        return &f->l[PB_MAX_LAYERS - 1];   /* keep callers safe; pb_build fails */
    struct pb_layer *l = &f->l[f->n++];
    memset(l, 0, sizeof *l);
    l->kind = (uint8_t)kind;
    /* Inner IP layers get their own addresses so pseudo-headers differ. */
    int inner = 0;
    for (int i = 0; i < f->n - 1; i++)
        if (f->l[i].kind == PB_IPV4 || f->l[i].kind == PB_IPV6)
            inner++;
    switch (kind) {
    case PB_IPV4:
        memcpy(l->src, v4_src, 4);
        memcpy(l->dst, v4_dst, 4);
        l->src[2] = l->dst[2] = (uint8_t)inner;
        l->frag = 0x4000;
        break;
    case PB_IPV6:
        memcpy(l->src, v6_src, 16);
        memcpy(l->dst, v6_dst, 16);
        l->src[7] = l->dst[7] = (uint8_t)inner;
        break;
    case PB_TCP:
        l->tcp_flags = 0x10;
        l->seq = 1;
        l->ack = 1;
        break;
    case PB_VXLAN: case PB_VXLAN_GPE: case PB_GENEVE:
        l->vni = 42;
        break;
    case PB_PAYLOAD:
        l->len = 64;
        break;
    case PB_ESP:
        l->len = 48;
        l->spi = 0x1000;
        break;
    case PB_AH:
        l->spi = 0x1000;
        break;
    case PB_MACSEC:
        l->macsec_tci = PB_MACSEC_SC;
        l->len = 48;
        break;
    default:
        break;
    }
    return l;
}

static uint16_t ethertype_of(const struct pb_frame *f, int i)
{
    if (i >= f->n)
        return 0x88b5;               /* local experimental */
    switch (f->l[i].kind) {
    case PB_WLAN: return 0x8200;     /* Aruba WLAN over GRE */
    case PB_IPV4: return 0x0800;
    case PB_IPV6: return 0x86dd;
    case PB_VLAN: return 0x8100;
    case PB_QINQ: return 0x88a8;
    case PB_MPLS: return 0x8847;
    case PB_ETH: return 0x6558;
    case PB_NHRP: return 0x2001;
    case PB_MACSEC: return 0x88e5;
    default: return 0x88b5;
    }
}

static uint8_t ipproto_of(const struct pb_frame *f, int i)
{
    if (i >= f->n)
        return 59;
    switch (f->l[i].kind) {
    case PB_IPV4: return 4;
    case PB_IPV6: return 41;
    case PB_UDP: return 17;
    case PB_TCP: return 6;
    case PB_ICMP: return 1;
    case PB_ICMPV6: return 58;
    case PB_GRE: return 47;
    case PB_L2TPV3: return 115;
    case PB_IGMP: return 2;
    case PB_AH: return 51;
    case PB_ESP: return 50;
    case PB_ETH: return 143;         /* Ethernet in IPv6 (RFC 8986) */
    default: return 253;             /* experimental */
    }
}

uint8_t pb_ipproto(const struct pb_frame *f, int i)
{
    return ipproto_of(f, i);
}

static uint16_t udp_port_of(const struct pb_frame *f, int i)
{
    if (i >= f->n)
        return 5000;
    switch (f->l[i].kind) {
    case PB_VXLAN: return 4789;
    case PB_VXLAN_GPE: return 4790;
    case PB_GENEVE: return 6081;
    case PB_GUE: return 6080;
    case PB_L2TPV3: return 1701;
    default: return 5000;
    }
}

static size_t ext_len(const struct pb_layer *l)
{
    size_t n = 0;
    if (l->v6_ext & PB_X_HBH)
        n += 8;
    if (l->v6_ext & (PB_X_DST | PB_X_HAO))
        n += (l->v6_ext & PB_X_HAO) ? 24 : 8;
    if (l->v6_ext & PB_X_RH0)
        n += 24;
    if (l->v6_ext & PB_X_FRAG)
        n += 8;
    if (l->v6_ext & PB_X_SRH)
        n += 24;
    return n;
}

/* L2TPv3 header: [T/ver + reserved over UDP] session, cookie, L2-specific sublayer */
static size_t l2tpv3_len(const struct pb_frame *f, int i)
{
    const struct pb_layer *l = &f->l[i];
    size_t n = 4u + l->l2tp_cookie + (l->l2tp_no_l2spec ? 0 : 4);
    return (i > 0 && f->l[i - 1].kind == PB_UDP) ? n + 4 : n;
}

static size_t macsec_tag_len(const struct pb_layer *l)
{
    return 6u + ((l->macsec_tci & PB_MACSEC_SC) ? 8u : 0u);
}

/* 802.11 QoS data from the DS (24 + 2), then LLC/SNAP (8) or a CCMP header (8) */
#define WLAN_HLEN 26u

static size_t header_len(const struct pb_frame *f, int i)
{
    const struct pb_layer *l = &f->l[i];
    switch (l->kind) {
    case PB_ETH: return 14;
    case PB_VLAN: case PB_QINQ: case PB_MPLS: return 4;
    case PB_SLL2: return 20;
    case PB_IPV4: return 20u + (l->ip_opts & ~3u);
    case PB_IPV6: return 40 + ext_len(l);
    case PB_UDP: return 8;
    case PB_TCP: return (l->mss ? 24u : 20u) + (l->ip_opts & ~3u);
    case PB_ICMP: case PB_ICMPV6: case PB_IGMP: return 8;
    case PB_GRE:
        return 4u + ((l->gre_flags & 0x8000) ? 4 : 0) + ((l->gre_flags & 0x2000) ? 4 : 0) +
               ((l->gre_flags & 0x1000) ? 4 : 0);
    case PB_VXLAN: case PB_VXLAN_GPE: return 8;
    case PB_GENEVE: return 8u + 4u * l->opt_words;
    case PB_GUE: return l->gue_variant == 1 ? 0 : (l->rco ? 12 : 4);
    case PB_L2TPV3: return l2tpv3_len(f, i);
    case PB_AH: return 24;
    case PB_ESP: return 8u + l->len;
    case PB_WLAN: return WLAN_HLEN + 8;
    case PB_MACSEC: return macsec_tag_len(l) + ((l->macsec_tci & PB_MACSEC_EC) ? l->len : 2u);
    case PB_PAYLOAD: return l->len;
    case PB_RAW: return l->len <= sizeof l->raw ? l->len : sizeof l->raw;
    case PB_NHRP: return 40;         /* fixed header + the indication's mandatory part */
    default: return 0;
    }
}

static void be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Index of the first TCP/UDP layer after i (the RCO target). */
static int next_l4(const struct pb_frame *f, int i)
{
    for (int j = i + 1; j < f->n; j++)
        if (f->l[j].kind == PB_TCP || f->l[j].kind == PB_UDP)
            return j;
    return -1;
}

static void write_ipv6(struct pb_frame *f, int i, uint8_t *p, size_t tot)
{
    const struct pb_layer *l = &f->l[i];
    uint8_t order[5] = { PB_X_HBH, PB_X_DST | PB_X_HAO, PB_X_RH0, PB_X_SRH, PB_X_FRAG };
    uint8_t code[5] = { 0, 60, 43, 43, 44 };
    uint8_t last = l->proto ? (uint8_t)l->proto : ipproto_of(f, i + 1);
    be32(p, 0x60000000u);
    be16(p + 4, l->tot_len_zero ? 0 : l->len_override ? l->len_override : (uint16_t)(tot - 40));
    p[7] = 64;
    memcpy(p + 8, l->src, 16);
    memcpy(p + 24, (l->v6_ext & PB_X_RH0) ? v6_mid : l->dst, 16);
    uint8_t *nh = p + 6;
    uint8_t *q = p + 40;
    for (int k = 0; k < 5; k++) {
        if (!(l->v6_ext & order[k]))
            continue;
        *nh = code[k];
        nh = q;
        switch (k) {
        case 0:                                                         /* HBH + PadN */
            q[1] = 0; q[2] = 1; q[3] = 4;
            for (int o = 0; o < 6; o++)
                if (l->hbh_opts[o]) {
                    memcpy(q + 2, l->hbh_opts, 6);
                    break;
                }
            q += 8;
            break;
        case 1:
            if (l->v6_ext & PB_X_HAO) {                                 /* PadN(2) + HAO */
                q[1] = 2; q[2] = 1; q[3] = 2; q[6] = 0xc9; q[7] = 16;
                memcpy(q + 8, l->hao, 16);
                q += 24;
            } else {
                q[1] = 0; q[2] = 1; q[3] = 4; q += 8;
            }
            break;
        case 2: q[1] = 2; q[2] = 0; q[3] = 1; memcpy(q + 8, l->dst, 16); q += 24; break;
        case 3: q[1] = 2; q[2] = 4; q[3] = 0; q[4] = 0; memcpy(q + 8, l->dst, 16); q += 24; break;
        case 4: be16(q + 2, l->frag); be32(q + 4, 0x12345678u); q += 8; break;
        }
    }
    *nh = last;
}

static void write_headers(struct pb_frame *f, uint8_t *b, size_t *tot)
{
    for (int i = 0; i < f->n; i++) {
        const struct pb_layer *l = &f->l[i];
        uint8_t *p = b + f->off[i];
        switch (l->kind) {
        case PB_ETH:
            memcpy(p, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
            be16(p + 12, l->proto ? l->proto : ethertype_of(f, i + 1));
            break;
        case PB_VLAN: case PB_QINQ:
            be16(p, l->vlan);
            be16(p + 2, l->proto ? l->proto : ethertype_of(f, i + 1));
            break;
        case PB_MPLS:
            be32(p, (l->label << 12) | ((i + 1 < f->n && f->l[i + 1].kind == PB_MPLS) ? 0 : 0x100) | 64);
            break;
        case PB_SLL2:
            be16(p, l->proto ? l->proto : ethertype_of(f, i + 1));
            be32(p + 4, 1);
            be16(p + 8, 1);
            p[10] = l->pkttype;
            p[11] = 6;
            memcpy(p + 12, "\x02\x00\x00\x00\x00\x01", 6);
            break;
        case PB_IPV4:
            p[0] = (uint8_t)(0x40 | (f->hlen[i] / 4));
            be16(p + 2, l->tot_len_zero ? 0 : l->len_override ? l->len_override : (uint16_t)tot[i]);
            be16(p + 4, l->ip_id);
            be16(p + 6, l->frag);
            p[8] = 64;
            p[9] = l->proto ? (uint8_t)l->proto : ipproto_of(f, i + 1);
            memcpy(p + 12, l->src, 4);
            memcpy(p + 16, l->dst, 4);
            memset(p + 20, 1, f->hlen[i] - 20);                 /* NOP options */
            break;
        case PB_IPV6:
            write_ipv6(f, i, p, tot[i]);
            break;
        case PB_UDP:
            be16(p, l->sport ? l->sport : 40000);
            be16(p + 2, l->dport ? l->dport : udp_port_of(f, i + 1));
            be16(p + 4, l->len_override ? l->len_override : (uint16_t)tot[i]);
            break;
        case PB_TCP:
            be16(p, l->sport ? l->sport : 40001);
            be16(p + 2, l->dport ? l->dport : 5001);
            be32(p + 4, l->seq);
            be32(p + 8, l->ack);
            p[12] = (uint8_t)((f->hlen[i] / 4) << 4);
            p[13] = l->tcp_flags;
            be16(p + 14, 0xffff);
            memset(p + 20, 1, f->hlen[i] - 20);                 /* NOP options */
            if (l->mss) {
                p[20] = 2;
                p[21] = 4;
                be16(p + 22, l->mss);
            }
            break;
        case PB_ICMP:
            p[0] = l->echo_reply ? 0 : l->icmp_type ? l->icmp_type : 8;
            p[1] = l->icmp_code;
            if (p[0] == 8 || l->echo_reply) {
                be16(p + 4, 1);
                be16(p + 6, 1);
            } else if (p[0] == 3 && p[1] == 4) {
                be16(p + 6, 1400);             /* fragmentation needed: next-hop MTU */
            }
            break;
        case PB_ICMPV6:
            p[0] = l->icmp_type ? l->icmp_type : 128;
            p[1] = l->icmp_code;
            if (p[0] == 128) {
                be16(p + 4, 1);
                be16(p + 6, 1);
            } else if (p[0] == 2) {
                be32(p + 4, 1280);             /* packet too big: MTU */
            }
            break;
        case PB_GRE: {
            be16(p, l->gre_flags);
            uint16_t pr = l->proto ? l->proto : ethertype_of(f, i + 1);
            be16(p + 2, pr);
            uint8_t *q = p + 4;
            if (l->gre_flags & 0x8000)
                q += 4;
            if (l->gre_flags & 0x2000) {
                be32(q, l->key);
                q += 4;
            }
            if (l->gre_flags & 0x1000)
                be32(q, l->gre_seq);
            break;
        }
        case PB_VXLAN: {
            uint32_t flags = 0x08000000u, lo = 0;
            int t = next_l4(f, i);
            if (l->rco && t >= 0) {
                long start = (long)(f->off[t] - (f->off[i] + 8)) + l->rco_shift;
                flags |= 0x00200000u;
                lo = (uint32_t)((start >> 1) & 0x7f) | (f->l[t].kind == PB_UDP ? 0x80u : 0);
            }
            be32(p, flags);
            be32(p + 4, (l->vni << 8) | lo);
            break;
        }
        case PB_VXLAN_GPE: {
            uint8_t np = 3;
            if (l->proto)
                np = (uint8_t)l->proto;
            else if (i + 1 < f->n && f->l[i + 1].kind == PB_IPV4)
                np = 1;
            else if (i + 1 < f->n && f->l[i + 1].kind == PB_IPV6)
                np = 2;
            p[0] = 0x0c;
            p[3] = np;
            be32(p + 4, l->vni << 8);
            break;
        }
        case PB_GENEVE:
            p[0] = l->opt_words & 0x3f;
            be16(p + 2, l->proto ? l->proto : ethertype_of(f, i + 1));
            be32(p + 4, l->vni << 8);
            if (l->opt_words) {
                be16(p + 8, 0x0102);
                p[10] = 0x80;
                p[11] = (uint8_t)((l->opt_words - 1) & 0x1f);
            }
            break;
        case PB_GUE:
            if (l->gue_variant == 1)
                break;
            p[0] = l->rco ? 2 : 0;
            p[1] = l->proto ? (uint8_t)l->proto : ipproto_of(f, i + 1);
            if (l->rco) {
                int t = next_l4(f, i);
                long start = t >= 0 ? (long)(f->off[t] - (f->off[i] + 12)) + l->rco_shift : 0;
                be16(p + 2, 0x0001);
                be32(p + 4, 0x80000000u);
                be16(p + 8, (uint16_t)start);
                be16(p + 10, (uint16_t)(start + (t >= 0 && f->l[t].kind == PB_UDP ? 6 : 16)));
            }
            break;
        case PB_L2TPV3:
            if (i > 0 && f->l[i - 1].kind == PB_UDP) {   /* over UDP: T=0, ver 3, reserved */
                be32(p, 0x00030000u);
                p += 4;
            }
            be32(p, l->key ? l->key : 1);      /* session ID */
            for (size_t k = 0; k < l->l2tp_cookie; k++)
                p[4 + k] = (uint8_t)(0xc0 + k);   /* cookie; the L2-specific sublayer stays 0 */
            break;
        case PB_AH:
            p[0] = ipproto_of(f, i + 1);
            p[1] = 4;                          /* (24 bytes / 4) - 2 */
            be32(p + 4, l->spi);
            be32(p + 8, 1);                    /* sequence number */
            for (size_t k = 12; k < 24; k++)
                p[k] = (uint8_t)(0xa0 + k);    /* ICV (HMAC-SHA1-96 sized) */
            break;
        case PB_ESP:
            be32(p, l->spi);
            be32(p + 4, 1);
            for (size_t k = 8; k < f->hlen[i]; k++)
                p[k] = (uint8_t)(k * 37 + 11); /* stands for the ciphertext */
            break;
        case PB_WLAN:
            p[0] = 0x88;                       /* frame control: data, QoS data (LE) */
            p[1] = (uint8_t)(0x02 | (l->wlan_prot ? 0x40 : 0));   /* from DS [, protected] */
            memcpy(p + 4, "\x02\x00\x00\x00\x0a\x01\x02\x00\x00\x00\x0a\x02\x02\x00\x00\x00\x0a\x03", 18);
            if (l->wlan_prot) {                /* CCMP header: PN0 PN1 rsvd keyid|ExtIV PN2..5 */
                memcpy(p + WLAN_HLEN, "\x01\x00\x00\x20\x00\x00\x00\x00", 8);
            } else {                           /* LLC/SNAP, OUI 0, the EtherType */
                memcpy(p + WLAN_HLEN, "\xaa\xaa\x03\x00\x00\x00", 6);
                be16(p + WLAN_HLEN + 6, l->proto ? l->proto : ethertype_of(f, i + 1));
            }
            break;
        case PB_MACSEC: {
            size_t tag = macsec_tag_len(l);
            size_t secure = f->hlen[i] - tag + (i + 1 < f->n ? tot[i + 1] : 0);
            p[0] = l->macsec_tci;
            p[1] = secure < 48 ? (uint8_t)secure : 0;     /* SL (802.1AE §9.7) */
            be32(p + 2, 1);                               /* PN */
            if (l->macsec_tci & PB_MACSEC_SC) {           /* SCI: the source MAC, port 1 */
                memcpy(p + 6, "\x02\x00\x00\x00\x00\x01", 6);
                be16(p + 12, 1);
            }
            if (l->macsec_tci & PB_MACSEC_EC)
                for (size_t k = tag; k < f->hlen[i]; k++)
                    p[k] = (uint8_t)(k * 29 + 7);         /* stands for the ciphertext */
            else
                be16(p + tag, l->proto ? l->proto : ethertype_of(f, i + 1));
            break;
        }
        case PB_IGMP:
            p[0] = 0x16;                       /* v2 membership report */
            memcpy(p + 4, "\xef\x01\x01\x01", 4);
            break;
        case PB_PAYLOAD:
            for (size_t k = 0; k < l->len; k++)
                p[k] = (uint8_t)(l->fill + k);
            break;
        case PB_RAW:
            memcpy(p, l->raw, f->hlen[i]);
            break;
        case PB_NHRP:                          /* RFC 2332 §5.1, §5.2.7 layout */
            be16(p, 1);                        /* ar$afn: IPv4 */
            be16(p + 2, 0x0800);
            p[9] = 255;                        /* ar$hopcnt */
            be16(p + 10, (uint16_t)tot[i]);    /* ar$pktsz */
            p[16] = 1;                         /* ar$op.version */
            p[17] = 8;                         /* traffic indication */
            p[18] = 4;                         /* ar$shtl: a 4-byte NBMA address */
            p[20] = 4;                         /* src and dst protocol address lengths */
            p[21] = 4;
            memcpy(p + 28, "\xc0\xa8\xc8\x01\x0a\xff\xff\x01\x0a\xff\xff\x03", 12);
            break;
        }
    }
}

/* Pseudo-header of the L4 layer i: addresses of the nearest IP before it. */
static uint32_t pseudo_of(const struct pb_frame *f, int i, uint8_t proto, uint32_t len, int with_len)
{
    int ip = -1;
    for (int j = i - 1; j >= 0; j--)
        if (f->l[j].kind == PB_IPV4 || f->l[j].kind == PB_IPV6) {
            ip = j;
            break;
        }
    if (ip < 0)
        return 0;
    const struct pb_layer *l = &f->l[ip];
    uint32_t s = 0;
    if (l->kind == PB_IPV4) {
        for (int k = 0; k < 4; k += 2) {
            s = csum_add(s, ((uint32_t)l->src[k] << 8) | l->src[k + 1]);
            s = csum_add(s, ((uint32_t)l->dst[k] << 8) | l->dst[k + 1]);
        }
    } else {
        const uint8_t *src = (l->v6_ext & PB_X_HAO) ? l->hao : l->src;
        for (int k = 0; k < 16; k += 2) {
            s = csum_add(s, ((uint32_t)src[k] << 8) | src[k + 1]);
            s = csum_add(s, ((uint32_t)l->dst[k] << 8) | l->dst[k + 1]);
        }
    }
    s = csum_add(s, proto);
    if (with_len) {
        s = csum_add(s, len >> 16);
        s = csum_add(s, len & 0xffff);
    }
    return s;
}

struct csum_site { size_t field; size_t start, end; uint32_t pseudo, pseudo_nolen; int udp; };

static int site_of(const struct pb_frame *f, int i, const size_t *tot, struct csum_site *cs)
{
    const struct pb_layer *l = &f->l[i];
    size_t o = f->off[i];
    cs->start = o;
    cs->end = o + tot[i];
    cs->pseudo = cs->pseudo_nolen = 0;
    cs->udp = 0;
    switch (l->kind) {
    case PB_IPV4: cs->field = o + 10; cs->end = o + f->hlen[i]; return 1;
    case PB_UDP: cs->field = o + 6; cs->udp = 1; break;
    case PB_TCP: cs->field = o + 16; break;
    case PB_ICMP: case PB_IGMP: cs->field = o + 2; return 1;
    case PB_ICMPV6: cs->field = o + 2; break;
    case PB_GRE:
        if (!(l->gre_flags & 0x8000))
            return 0;
        cs->field = o + 4;
        return 1;
    case PB_NHRP: cs->field = o + 12; return 1;
    default: return 0;
    }
    uint8_t proto = l->kind == PB_UDP ? 17 : l->kind == PB_TCP ? 6 : 58;
    cs->pseudo = pseudo_of(f, i, proto, (uint32_t)tot[i], 1);
    cs->pseudo_nolen = pseudo_of(f, i, proto, (uint32_t)tot[i], 0);
    return 1;
}

static uint16_t compute(const uint8_t *b, const struct csum_site *cs)
{
    uint32_t s = csum_partial(b + cs->start, cs->end - cs->start, cs->pseudo);
    uint16_t v = csum_fold(s);
    if (cs->udp && v == 0)
        v = CSUM_MANGLED_0;
    return v;
}

struct pb_patch *pb_patch_add(struct pb_frame *f, int layer, enum pb_patch_op op, unsigned off, unsigned len)
{
    if (f->npatch >= PB_MAX_PATCHES || len > PB_PATCH_MAX || layer < 0 || layer >= PB_MAX_LAYERS)
        return NULL;
    struct pb_patch *p = &f->patch[f->npatch++];
    memset(p, 0, sizeof *p);
    p->layer = (uint8_t)layer;
    p->op = (uint8_t)op;
    p->off = (uint16_t)off;
    p->len = (uint8_t)len;
    memset(p->mask, 0xff, len);
    return p;
}

/* The patches, in order, within the frame's bytes */
static void apply_patches(const struct pb_frame *f, uint8_t *b, size_t frame)
{
    for (int k = 0; k < f->npatch && k < PB_MAX_PATCHES; k++) {
        const struct pb_patch *p = &f->patch[k];
        if (p->layer >= f->n)
            continue;
        size_t at = f->off[p->layer] + p->off;
        if (p->op == PB_PATCH_ADD16) {
            if (at + 2 <= frame)
                be16(b + at, (uint16_t)(((b[at] << 8) | b[at + 1]) + p->add));
            continue;
        }
        for (size_t j = 0; j < p->len && j < PB_PATCH_MAX && at + j < frame; j++)
            b[at + j] = (uint8_t)((b[at + j] & ~p->mask[j]) | (p->val[j] & p->mask[j]));
    }
}

size_t pb_build(struct pb_frame *f, uint8_t *out, size_t cap)
{
    size_t tot[PB_MAX_LAYERS + 1];
    if (f->n <= 0 || f->n > PB_MAX_LAYERS)
        return 0;
    size_t o = 0;
    for (int i = 0; i < f->n; i++) {
        f->hlen[i] = header_len(f, i);
        f->off[i] = o;
        o += f->hlen[i];
    }
    f->len = o;
    tot[f->n] = 0;
    for (int i = f->n - 1; i >= 0; i--)
        tot[i] = f->hlen[i] + tot[i + 1];
    /* a MACsec ICV after the last layer: inside the lengths of the layers
     * up to the SecTAG, outside those of the user data */
    size_t icv = 0;
    for (int i = f->n - 1; i >= 0; i--) {
        if (f->l[i].kind == PB_MACSEC)
            icv += PB_MACSEC_ICV;
        tot[i] += icv;
    }
    o += icv;
    f->len = o;
    size_t frame = o;
    if (!f->no_pad && f->l[0].kind == PB_ETH && frame < 60)
        frame = 60;
    if (frame > cap)
        return 0;
    memset(out, 0, frame);
    for (size_t k = o - icv; k < o; k++)
        out[k] = (uint8_t)(0xd0 + k % 16);                /* ICV */
    write_headers(f, out, tot);
    apply_patches(f, out, frame);

    /* Pass A: every checksum right, innermost first (the LCO values). */
    uint16_t right[PB_MAX_LAYERS];
    struct csum_site cs[PB_MAX_LAYERS];
    int has[PB_MAX_LAYERS];
    for (int i = f->n - 1; i >= 0; i--) {
        has[i] = site_of(f, i, tot, &cs[i]);
        if (!has[i])
            continue;
        out[cs[i].field] = out[cs[i].field + 1] = 0;
        right[i] = compute(out, &cs[i]);
        be16(out + cs[i].field, right[i]);
    }
    /* Pass B: the intended states, innermost first, so an outer checksum
     * covers the inner fields as they are in the frame. */
    for (int i = f->n - 1; i >= 0; i--) {
        if (!has[i])
            continue;
        uint16_t v;
        out[cs[i].field] = out[cs[i].field + 1] = 0;
        uint16_t now = compute(out, &cs[i]);
        switch (f->l[i].csum) {
        case PB_BAD: v = now ^ 0x5a5a; break;
        case PB_ZERO: v = 0; break;
        case PB_SEED: v = fold16(cs[i].pseudo); break;
        case PB_SEED_NOLEN: v = fold16(cs[i].pseudo_nolen); break;
        case PB_LCO: v = right[i]; break;
        case PB_GARBAGE: v = 0x1234; break;
        default: v = now; break;
        }
        be16(out + cs[i].field, v);
    }
    return frame;
}

int pb_fragment_ipv6(const uint8_t *frame, size_t len, size_t l3, size_t mtu, uint32_t id,
                     void (*emit)(void *ctx, const uint8_t *frag, size_t len), void *ctx)
{
    uint8_t buf[65600];
    if (l3 + 40 > len || mtu < 8 || (frame[l3] >> 4) != 6)
        return 0;
    size_t plen = ((size_t)frame[l3 + 4] << 8) | frame[l3 + 5];
    uint8_t nh = frame[l3 + 6];
    if (plen == 0 || l3 + 40 + plen > len)
        return 0;
    size_t step = mtu & ~(size_t)7, n = 0;
    for (size_t at = 0; at < plen; at += step, n++) {
        size_t chunk = plen - at < step ? plen - at : step;
        size_t flen = l3 + 48 + chunk;
        if (flen > sizeof buf)
            return (int)n;
        memcpy(buf, frame, l3 + 40);
        uint8_t *fh = buf + l3 + 40;
        fh[0] = nh;
        fh[1] = 0;
        be16(fh + 2, (uint16_t)(at | (at + chunk < plen ? 1 : 0)));   /* offset is at/8 << 3 */
        be32(fh + 4, id);
        memcpy(fh + 8, frame + l3 + 40 + at, chunk);
        buf[l3 + 6] = 44;
        be16(buf + l3 + 4, (uint16_t)(8 + chunk));
        emit(ctx, buf, flen);
    }
    return (int)n;
}

uint32_t pb_linktype(const struct pb_frame *f)
{
    if (f->n && f->l[0].kind == PB_SLL2)
        return 276;
    if (f->n && (f->l[0].kind == PB_IPV4 || f->l[0].kind == PB_IPV6))
        return 101;
    return 1;
}

int pb_fragment_ipv4(const uint8_t *frame, size_t len, size_t l3, size_t mtu,
                     void (*emit)(void *ctx, const uint8_t *frag, size_t len), void *ctx)
{
    uint8_t buf[65600];
    if (l3 + 20 > len || mtu < 8)
        return 0;
    size_t ihl = (size_t)(frame[l3] & 0xf) * 4;
    size_t tot = ((size_t)frame[l3 + 2] << 8) | frame[l3 + 3];
    if (l3 + tot > len || tot < ihl)
        return 0;
    size_t pay = tot - ihl, step = mtu & ~(size_t)7, n = 0;
    for (size_t at = 0; at < pay; at += step, n++) {
        size_t chunk = pay - at < step ? pay - at : step;
        size_t flen = l3 + ihl + chunk;
        if (flen > sizeof buf)
            return (int)n;
        memcpy(buf, frame, l3 + ihl);
        memcpy(buf + l3 + ihl, frame + l3 + ihl + at, chunk);
        uint16_t fr = (uint16_t)((at / 8) | (at + chunk < pay ? 0x2000 : 0));
        be16(buf + l3 + 2, (uint16_t)(ihl + chunk));
        be16(buf + l3 + 6, fr);
        buf[l3 + 10] = buf[l3 + 11] = 0;
        be16(buf + l3 + 10, csum_fold(csum_partial(buf + l3, ihl, 0)));
        emit(ctx, buf, flen);
    }
    return (int)n;
}
