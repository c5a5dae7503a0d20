/*
 * shape.c - benchmark traffic shapes for `csc-gen bench` (issue 13): many
 * concurrent TCP flows over a mix of tunnels, interleaved the way a busy
 * link interleaves them, at realistic frame sizes, with random payloads and
 * a chosen fraction of bad checksums.
 *
 *   csc-gen bench --bytes N[K|M|G] | --frames N
 *                 [--flows N]                 concurrent TCP flows, 1 ... 1,000,000 (16)
 *                 [--interleave turn|random|burst:N]   how their frames follow each
 *                                             other: in turn, a random flow each
 *                                             frame, or N frames of a random flow (turn)
 *                 [--size full|small|imix]    1514 bytes; 64-180 bytes (uniform);
 *                                             IMIX 7:4:1 of 64/576/1500 bytes (full)
 *                 [--tunnel LIST]             comma list of vxlan, geneve, gre, ipip,
 *                                             plain, vxlan6 (VXLAN over an IPv6
 *                                             underlay); flow k uses LIST[k % n] (vxlan)
 *                 [--bad FRACTION]            frames with one bad checksum (0)
 *                 [--bad-layers LIST]         where: comma list of ip (outer IPv4
 *                                             header), udp (outer UDP), inner-ip, tcp;
 *                                             one picked at random per bad frame; a
 *                                             frame without it gets a bad TCP (tcp)
 *                 [--random-payload]          random payload bytes (else a pattern)
 *                 [--seed N]                  the random generator's seed (1)
 *                 [--format pcap|pcapng] -o FILE|-
 *
 * Frames are laid out directly (fixed header layouts, checksums from one
 * sum over the segment) rather than through the frame builder: a 1 GiB
 * capture is written in seconds. A frame shorter than its headers plus one
 * payload byte (64-byte frames of a tunnel) is made that long. Each flow
 * keeps its TCP sequence; the inner addresses and ports and the outer UDP
 * source port (the flow hash, as Linux picks it) name the flow.
 */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

enum sh_tunnel { SH_VXLAN, SH_GENEVE, SH_GRE, SH_IPIP, SH_PLAIN, SH_VXLAN6, SH__COUNT };
static const char *const sh_tunnel_name[SH__COUNT] = { "vxlan", "geneve", "gre", "ipip", "plain",
                                                       "vxlan6" };

enum sh_bad { SH_BAD_IP = 1, SH_BAD_UDP = 2, SH_BAD_INNER_IP = 4, SH_BAD_TCP = 8 };

struct shape {
    uint64_t bytes, frames;
    uint32_t flows;
    int interleave;                  /* 0 turn, 1 random, 2 burst */
    uint32_t burst;
    int size;                        /* 0 full, 1 small, 2 imix */
    uint8_t tunnels[SH__COUNT];
    unsigned ntunnels;
    double bad;
    unsigned bad_layers;             /* enum sh_bad bits */
    int random_payload;
    uint64_t seed;
};

/* xorshift64*: fast, reproducible */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
    uint64_t a = s;
    for (; n >= 2; p += 2, n -= 2)
        a += (uint32_t)(p[0] << 8 | p[1]);
    if (n)
        a += (uint32_t)p[0] << 8;
    while (a >> 16)
        a = (a & 0xffff) + (a >> 16);
    return (uint32_t)a;
}

static uint16_t fin(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)~s;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 1 }, mac_b[6] = { 0x02, 0, 0, 0, 0, 2 };

static uint8_t *eth(uint8_t *p, uint16_t type)
{
    memcpy(p, mac_b, 6);
    memcpy(p + 6, mac_a, 6);
    put16(p + 12, type);
    return p + 14;
}

/* IPv4 header at p; its checksum set (bad: off by one) */
static uint8_t *ipv4(uint8_t *p, uint16_t tot, uint16_t id, uint8_t proto, uint32_t src, uint32_t dst,
                     int bad)
{
    memset(p, 0, 20);
    p[0] = 0x45;
    put16(p + 2, tot);
    put16(p + 4, id);
    p[6] = 0x40;                               /* DF */
    p[8] = 64;
    p[9] = proto;
    put32(p + 12, src);
    put32(p + 16, dst);
    put16(p + 10, (uint16_t)(fin(sum16(p, 20, 0)) ^ (bad ? 0x0101 : 0)));
    return p + 20;
}

/* the frame's header layout */
struct lay {
    unsigned hdr;                    /* all headers, the inner TCP included */
    unsigned tcp;                    /* offset of the TCP header */
};

static struct lay layout(int t)
{
    switch (t) {
    case SH_VXLAN: case SH_GENEVE: return (struct lay){ 104, 84 };
    case SH_VXLAN6: return (struct lay){ 124, 104 };
    case SH_GRE: return (struct lay){ 78, 58 };
    case SH_IPIP: return (struct lay){ 74, 54 };
    default: return (struct lay){ 54, 34 };
    }
}

/* One frame of flow k: total length len, sequence seq, the bad layer (0:
 * none). Returns the length. */
static size_t frame(uint8_t *buf, int t, uint32_t k, size_t len, uint32_t seq, uint16_t ipid,
                    unsigned bad, int random_payload, uint64_t *rs)
{
    struct lay L = layout(t);
    if (len < L.hdr + 1)
        len = L.hdr + 1;
    size_t pay = len - L.hdr;
    uint8_t *tcp = buf + L.tcp, *data = tcp + 20;
    /* payload */
    if (random_payload) {
        size_t i = 0;
        for (; i + 8 <= pay; i += 8) {
            uint64_t r = rnd(rs);
            memcpy(data + i, &r, 8);
        }
        for (uint64_t r = rnd(rs); i < pay; i++, r >>= 8)
            data[i] = (uint8_t)r;
    } else {
        memset(data, (int)(0x20 + k % 64), pay);
    }
    /* inner IPv4 and TCP: the flow's addresses and ports */
    uint32_t isrc = 0x0a000000u | (k & 0xffffffu), idst = 0x0a800001u;
    uint16_t sport = (uint16_t)(1024 + k % 60000), dport = (uint16_t)(5001 + (k / 60000) % 1000);
    memset(tcp, 0, 20);
    put16(tcp, sport);
    put16(tcp + 2, dport);
    put32(tcp + 4, seq);
    put32(tcp + 8, 1);
    tcp[12] = 0x50;
    tcp[13] = 0x10;                            /* ACK */
    put16(tcp + 14, 65535);
    uint16_t seglen = (uint16_t)(20 + pay);
    uint32_t ps = (isrc >> 16) + (isrc & 0xffff) + (idst >> 16) + (idst & 0xffff) + 6 + seglen;
    uint32_t seg = sum16(tcp, seglen, 0);
    uint16_t tc = (uint16_t)(fin(seg + ps) ^ (bad == SH_BAD_TCP ? 0x0101 : 0));
    put16(tcp + 16, tc);
    seg = sum16(tcp + 16, 2, seg);             /* the segment's sum, field included */
    uint8_t *inner_ip = tcp - 20;
    ipv4(inner_ip, (uint16_t)(20 + seglen), ipid, 6, isrc, idst, bad == SH_BAD_INNER_IP);
    /* outer */
    uint32_t osrc = 0xc0a80001u + (uint32_t)t, odst = 0xc0a80101u;
    uint16_t usport = (uint16_t)(49152 + (k * 2654435761u >> 18) % 16384);
    uint8_t *p = buf;
    switch (t) {
    case SH_PLAIN:
        eth(buf, 0x0800);
        return len;
    case SH_IPIP:
        p = eth(p, 0x0800);
        ipv4(p, (uint16_t)(len - 14), (uint16_t)(ipid * 3), 4, osrc, odst, bad == SH_BAD_IP);
        return len;
    case SH_GRE:
        p = eth(p, 0x0800);
        p = ipv4(p, (uint16_t)(len - 14), (uint16_t)(ipid * 3), 47, osrc, odst, bad == SH_BAD_IP);
        put16(p, 0);
        put16(p + 2, 0x0800);
        return len;
    default:
        break;
    }
    /* UDP tunnels: outer Ethernet, IPv4 or IPv6, UDP, VXLAN/GENEVE, inner Ethernet */
    uint8_t *udp;
    uint16_t ulen = (uint16_t)(len - (t == SH_VXLAN6 ? 54 : 34));
    uint32_t ups;
    if (t == SH_VXLAN6) {
        p = eth(p, 0x86dd);
        memset(p, 0, 40);
        p[0] = 0x60;
        put16(p + 4, ulen);
        p[6] = 17;
        p[7] = 64;
        static const uint8_t s6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
        static const uint8_t d6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
        memcpy(p + 8, s6, 16);
        memcpy(p + 24, d6, 16);
        ups = sum16(p + 8, 32, 0) + 17 + ulen;
        udp = p + 40;
    } else {
        p = eth(p, 0x0800);
        udp = ipv4(p, (uint16_t)(len - 14), (uint16_t)(ipid * 3), 17, osrc, odst, bad == SH_BAD_IP);
        ups = (osrc >> 16) + (osrc & 0xffff) + (odst >> 16) + (odst & 0xffff) + 17 + ulen;
    }
    put16(udp, usport);
    put16(udp + 2, t == SH_GENEVE ? 6081 : 4789);
    put16(udp + 4, ulen);
    put16(udp + 6, 0);
    uint8_t *tun = udp + 8;
    memset(tun, 0, 8);
    if (t == SH_GENEVE) {
        put16(tun + 2, 0x6558);                /* transparent Ethernet bridging */
    } else {
        tun[0] = 0x08;                         /* VNI present */
    }
    put32(tun + 4, (1000u + k % 4096u) << 8);  /* VNI */
    eth(tun + 8, 0x0800);
    /* the UDP sum: its header, the tunnel and inner headers, then the segment */
    uint32_t us = sum16(udp, (size_t)(tcp - udp), ups) + seg;
    uint16_t uc = fin(us);
    if (uc == 0)
        uc = 0xffff;
    put16(udp + 6, (uint16_t)(uc ^ (bad == SH_BAD_UDP ? 0x0101 : 0)));
    return len;
}

static size_t frame_len(const struct shape *s, uint64_t *rs)
{
    switch (s->size) {
    case 1: return 64 + rnd(rs) % 117;                         /* 64-180 */
    case 2: {
        unsigned r = (unsigned)(rnd(rs) % 12);                  /* 7:4:1 */
        return r < 7 ? 64 : r < 11 ? 576 : 1500;
    }
    default: return 1514;
    }
}

static int parse_list(const char *v, const char *const *names, unsigned n, unsigned *bits,
                      uint8_t *order, unsigned *norder)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", v);
    *bits = 0;
    if (norder)
        *norder = 0;
    for (char *save = NULL, *w = strtok_r(tmp, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        unsigned i = 0;
        while (i < n && strcmp(names[i], w))
            i++;
        if (i == n)
            return -1;
        *bits |= 1u << i;
        if (order && *norder < SH__COUNT)
            order[(*norder)++] = (uint8_t)i;
    }
    return *bits ? 0 : -1;
}

/* Is this a shape option? (the caller then hands the whole command here) */
int gen_shape_option(const char *a)
{
    static const char *const opts[] = { "--interleave", "--tunnel", "--bad", "--bad-layers",
                                        "--random-payload", "--seed" };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(a, opts[i]))
            return 1;
    return 0;
}

int gen_cmd_shape(int argc, char **argv, int (*parse_size)(const char *, unsigned long long *),
                  FILE *(*open_out)(const char *, const char *))
{
    struct shape s = { 0, 0, 16, 0, 1, 0, { SH_VXLAN }, 1, 0, SH_BAD_TCP, 0, 1 };
    const char *out = NULL;
    int fmt = CAPW_PCAP;
    static const char *const bad_names[] = { "ip", "udp", "inner-ip", "tcp" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long x;
        if (!strcmp(a, "--random-payload")) {
            s.random_payload = 1;
            continue;
        }
        if (!v)
            goto usage;
        i++;
        if (!strcmp(a, "--bytes")) {
            if (parse_size(v, &x))
                goto usage;
            s.bytes = x;
        } else if (!strcmp(a, "--frames")) {
            if (parse_size(v, &x))
                goto usage;
            s.frames = x;
        } else if (!strcmp(a, "--flows")) {
            char *end;
            unsigned long f = strtoul(v, &end, 10);
            if (*end || f < 1 || f > 1000000)
                goto usage;
            s.flows = (uint32_t)f;
        } else if (!strcmp(a, "--interleave")) {
            if (!strcmp(v, "turn"))
                s.interleave = 0;
            else if (!strcmp(v, "random"))
                s.interleave = 1;
            else if (!strncmp(v, "burst:", 6) && atoi(v + 6) > 0)
                s.interleave = 2, s.burst = (uint32_t)atoi(v + 6);
            else
                goto usage;
        } else if (!strcmp(a, "--size")) {
            if (!strcmp(v, "full"))
                s.size = 0;
            else if (!strcmp(v, "small"))
                s.size = 1;
            else if (!strcmp(v, "imix"))
                s.size = 2;
            else
                goto usage;
        } else if (!strcmp(a, "--tunnel")) {
            unsigned bits;
            if (parse_list(v, sh_tunnel_name, SH__COUNT, &bits, s.tunnels, &s.ntunnels))
                goto usage;
        } else if (!strcmp(a, "--bad")) {
            char *end;
            s.bad = strtod(v, &end);
            if (*end || s.bad < 0 || s.bad > 1)
                goto usage;
        } else if (!strcmp(a, "--bad-layers")) {
            if (parse_list(v, bad_names, 4, &s.bad_layers, NULL, NULL))
                goto usage;
        } else if (!strcmp(a, "--seed")) {
            s.seed = strtoull(v, NULL, 0);
            if (!s.seed)
                s.seed = 1;
        } else if (!strcmp(a, "--format")) {
            if (!strcmp(v, "pcap"))
                fmt = CAPW_PCAP;
            else if (!strcmp(v, "pcapng"))
                fmt = CAPW_PCAPNG;
            else
                goto usage;
        } else if (!strcmp(a, "-o")) {
            out = v;
        } else {
            goto usage;
        }
    }
    if (!out || (!s.bytes == !s.frames))
        goto usage;
    FILE *f = open_out("bench", out);
    if (!f)
        return 2;
    uint32_t *seq = malloc((size_t)s.flows * sizeof *seq);
    if (!seq) {
        fclose(f);
        return 2;
    }
    uint64_t rs = s.seed * 0x9e3779b97f4a7c15ull | 1, ps = rs ^ 0x5851f42d4c957f2dull;
    for (uint32_t k = 0; k < s.flows; k++)
        seq[k] = (uint32_t)rnd(&rs);
    uint8_t bad_list[4];
    unsigned nbad = 0;
    for (unsigned b = 0; b < 4; b++)
        if (s.bad_layers & (1u << b))
            bad_list[nbad++] = (uint8_t)(1u << b);
    uint64_t bad_cut = (uint64_t)(s.bad * 18446744073709551615.0);
    struct capw w;
    int r = capw_open_stream(&w, f, (enum capw_format)fmt, 1, 262144);
    static uint8_t buf[2048];
    uint64_t written = fmt == CAPW_PCAP ? 24 : 48, ts = GEN_T0_USEC;
    uint32_t k = 0, left = 0, turn = 0;
    for (uint64_t i = 0; !r && (s.frames ? i < s.frames : written < s.bytes); i++) {
        switch (s.interleave) {
        case 0: k = turn; turn = turn + 1 == s.flows ? 0 : turn + 1; break;
        case 1: k = (uint32_t)(rnd(&rs) % s.flows); break;
        default:
            if (!left) {
                k = (uint32_t)(rnd(&rs) % s.flows);
                left = s.burst;
            }
            left--;
            break;
        }
        int t = s.tunnels[k % s.ntunnels];
        unsigned bad = 0;
        if (bad_cut && rnd(&rs) < bad_cut) {
            bad = bad_list[rnd(&rs) % nbad];
            if ((bad == SH_BAD_UDP && t != SH_VXLAN && t != SH_GENEVE && t != SH_VXLAN6) ||
                (bad == SH_BAD_INNER_IP && t == SH_PLAIN) || (bad == SH_BAD_IP && t == SH_VXLAN6))
                bad = SH_BAD_TCP;              /* the frame has no such layer */
        }
        size_t len = frame(buf, t, k, frame_len(&s, &rs), seq[k], (uint16_t)i, bad,
                           s.random_payload, &ps);
        seq[k] += (uint32_t)(len - layout(t).hdr);
        r |= capw_write(&w, ts, buf, (uint32_t)len, CAPW_DIR_NONE);
        ts += 1;
        written += fmt == CAPW_PCAP ? 16 + len : 32 + ((len + 3) & ~(size_t)3);
    }
    free(seq);
    r |= capw_close(&w);
    if (f != stdout)
        r |= fclose(f);
    return r ? 2 : 0;
usage:
    fprintf(stderr, "usage: csc-gen bench --bytes N[K|M|G] | --frames N [--flows N] "
                    "[--interleave turn|random|burst:N] [--size full|small|imix]\n"
                    "                     [--tunnel vxlan,geneve,gre,ipip,plain,vxlan6] "
                    "[--bad FRACTION] [--bad-layers ip,udp,inner-ip,tcp]\n"
                    "                     [--random-payload] [--seed N] [--format pcap|pcapng] "
                    "-o FILE|-\n");
    return 2;
}
