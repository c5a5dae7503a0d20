/*
 * analyze_cached.c - csc_analyze() with a memoised replay (see
 * include/csumcheck/rcache.h). It sits beside analyze.c, outside replay/:
 * it calls the replay, it is not part of the kernel model.
 */
#include "csumcheck/rcache.h"

#include "pkt.h"
#include "replay/addr.h"
#include "replay/tlv.h"

#include <stddef.h>

#include <string.h>

_Static_assert(CSC_RCACHE_WAYS == 2 && (CSC_RCACHE_SETS & (CSC_RCACHE_SETS - 1)) == 0,
               "two ways (the LRU is one bit a set), a power-of-two number of sets");

/* Only the bookkeeping is cleared: an entry is read only once its tag is
 * set, so a fresh cache costs a few KiB of stores and no more pages. */
void csc_rcache_init(struct csc_rcache *c)
{
    memset(c, 0, offsetof(struct csc_rcache, e));
}

/* One layer's part of the key: every field the replay's functions read,
 * and nothing that varies per packet without changing a branch (sequence
 * numbers, ports, checksum values other than zero), in five words:
 *   the layer's head as it is in struct csc_layer (protocol, verdict,
 *   reason, IP layer, offset, header length, end, notes, checksum offset:
 *   three words copied, not assembled) |
 *   fragment field (IPv6: + routing header type, segments left, order) or GRE
 *   flags, next protocol, RCO start, RCO offset |
 *   tunnel flags or an IP layer's address classes (replay/addr.h), bits
 *   (TCP flags, a zero UDP checksum, an Ethernet destination's I/G bit),
 *   version.
 * Fields a protocol does not use stay zero. The frame's part, two words:
 * wire length, where the decoder stopped (offset | link, reason, protocol,
 * layers, the interface kind: a virtual one has its own report). */
#define KEY_HEAD 2
#define KEY_LAYER 5
#define KEY_LAYER_HEAD 3   /* words of the layer's head */

_Static_assert(offsetof(struct csc_layer, proto) == 0 && offsetof(struct csc_layer, verdict) == 1 &&
               offsetof(struct csc_layer, reason) == 2 && offsetof(struct csc_layer, ip) == 3 &&
               offsetof(struct csc_layer, off) == 4 && offsetof(struct csc_layer, hdr_len) == 8 &&
               offsetof(struct csc_layer, end) == 12 && offsetof(struct csc_layer, notes) == 16 &&
               offsetof(struct csc_layer, csum_off) == 20 &&
               offsetof(struct csc_layer, cov_off) == 8 * KEY_LAYER_HEAD,
               "the key copies the layer's head: proto .. csum_off, no padding, nothing else");

/* The key, built in place (the stored key is its first n words). */
struct rkey {
    uint64_t w[KEY_HEAD + KEY_LAYER * CSC_MAX_LAYERS];
};

static inline uint64_t rotl64(uint64_t w, unsigned s)
{
    return w << s | w >> (64 - s);
}

static inline uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* The key of a frame the memo may serve, and its hash, made in one pass
 * over the layers; 0 when the frame must be replayed: a verdict the bytes
 * could make fail (bad, partial, lco, rco, unverifiable), an RCO
 * announcement, a cut frame, a run that wants the step trace, a stack
 * deeper than the key holds. */
static size_t make_key(const struct csc_config *cfg, const struct csc_frame *f,
                       const struct csc_result *r, struct rkey *key, uint64_t *hash)
{
    size_t n = (KEY_HEAD + KEY_LAYER * (size_t)r->nlayers) * sizeof key->w[0];
    if (cfg->trace_steps || f->caplen < f->wirelen || n > CSC_RCACHE_KEY)
        return 0;
    struct pkt p = { f->data, f->caplen < f->wirelen ? f->caplen : f->wirelen, f->wirelen };
    uint64_t *w = key->w;
    /* gue_hdr_valid compares the stop with a GUE layer's offset */
    w[0] = f->wirelen | (uint64_t)r->stop_off << 32;
    w[1] = f->link | (uint64_t)r->stop << 8 | (uint64_t)r->stop_proto << 16 |
           (uint64_t)r->nlayers << 24 | (uint64_t)r->via << 32;   /* via: the report */
    uint64_t h = mix(mix(0x243f6a8885a308d3ull, w[0]), w[1]);
    w += KEY_HEAD;
    for (unsigned i = 0; i < r->nlayers; i++, w += KEY_LAYER) {
        const struct csc_layer *l = &r->layers[i];
        if (!((1u << l->verdict) & ((1u << CSC_V_NA) | (1u << CSC_V_GOOD) | (1u << CSC_V_NONE) |
                                    (1u << CSC_V_ZERO6))) ||
            (l->notes & CSC_N_RCO))
            return 0;
        uint64_t flags = 0, aux = 0, vers = 0;   /* w[3], w[4] */
        uint8_t bits = 0;
        switch (l->proto) {
        case CSC_P_UDP:
            bits = l->field == 0;
            break;
        case CSC_P_TCP:
            bits = l->u.tcp.flags;
            break;
        case CSC_P_ETH:                 /* geneve_rx: the destination's I/G bit (OTHERHOST) */
            if (pkt_u8(&p, l->off, &bits))
                bits = (bits & 1) | 2;
            break;
        case CSC_P_IPV4: case CSC_P_IPV6:   /* + ipv6_rthdr_rcv's routing header */
            flags = l->u.ip.frag_off | (uint32_t)l->next << 16 |
                    (uint64_t)l->u.ip.rh_type << 32 | (uint64_t)l->u.ip.rh_segs_left << 40 |
                    (uint64_t)l->u.ip.rh_flags << 48;
            aux = ip_addr_classes(&p, l) | ip6_hbh_verdict(&p, l) << 16;   /* addr.c, tlv.c */
            break;
        case CSC_P_GRE:
            flags = l->u.gre.flags | (uint32_t)l->next << 16;   /* GRE flags and version */
            break;
        case CSC_P_ERSPAN:              /* erspan_rcv pulls by the header's own version */
            vers = l->u.erspan.version;
            break;
        case CSC_P_VXLAN: case CSC_P_VXLAN_GPE: case CSC_P_GENEVE: case CSC_P_GUE:
        case CSC_P_FOU:
            aux = l->proto == CSC_P_GENEVE ? l->u.geneve.flags   /* tunnel flags */
                  : l->proto == CSC_P_GUE  ? l->u.gue.flags
                  : l->proto == CSC_P_FOU  ? 0
                                           : l->u.vxlan.flags;
            vers = l->proto == CSC_P_GENEVE ? l->u.geneve.ver      /* version / variant */
                   : l->proto == CSC_P_GUE  ? l->u.gue.variant
                                            : 0;
            flags = (uint64_t)l->next << 16 | (uint64_t)l->rco_start << 32 |
                    (uint64_t)l->rco_offset << 48;
            break;
        default:
            break;
        }
        memcpy(w, l, KEY_LAYER_HEAD * sizeof w[0]);
        w[3] = flags;
        w[4] = aux | (uint64_t)bits << 32 | vers << 40;
        /* two multiplies a layer: the words folded pairwise first (the
         * key is compared in full, the hash only picks the set and tag) */
        h = mix(mix(h, w[0] ^ rotl64(w[1], 23) ^ rotl64(w[4], 47)), w[2] ^ rotl64(w[3], 11));
    }
    h ^= h >> 32;
    *hash = h * 0x9e3779b97f4a7c15ull;
    return n;
}

static bool entry_is(const struct csc_rcache *c, unsigned i, const uint8_t *key, size_t n)
{
    return c->e[i].keylen == n && !memcmp(c->e[i].key, key, n);
}

/* The outcome without the trace: what the replay writes of csc_kernel up
 * to its devices, the devices used, each layer's part. */
static void serve(struct csc_rcache *c, const struct csc_rcache_entry *e, struct csc_result *out)
{
    c->hits++;
    struct csc_kernel *k = &out->kernel;
    memcpy(k, e->kernel, offsetof(struct csc_kernel, devs));
    memcpy(k->devs, e->kernel + offsetof(struct csc_kernel, devs),
           (k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS) * sizeof k->devs[0]);
    k->nsteps = 0;
    for (unsigned i = 0; i < out->nlayers; i++)
        out->layers[i].k = e->lk[i];
}

void csc_analyze_cached(const struct csc_config *cfg, const struct csc_frame *f,
                        struct csc_result *out, struct csc_rcache *c)
{
    csc_decode(cfg, f, out);
    csc_verify(cfg, f, out);
    csc_direction(cfg, f, out);
    struct rkey rk;
    uint64_t h;
    size_t n = c ? make_key(cfg, f, out, &rk, &h) : 0;
    if (!n) {
        if (c)
            c->bypass++;
        csc_replay(cfg, f, out);
        return;
    }
    if (!c->have_cfg || memcmp(&c->cfg, cfg, sizeof *cfg)) {
        memset(c->tag, 0, sizeof c->tag);   /* another receiver: forget */
        memcpy(&c->cfg, cfg, sizeof *cfg);
        c->have_cfg = 1;
    }
    const uint8_t *key = (const uint8_t *)&rk;
    unsigned set = (unsigned)h & (CSC_RCACHE_SETS - 1);
    uint32_t tag = (uint32_t)(h >> 32) | 1u;
    unsigned first = set * CSC_RCACHE_WAYS;
    struct csc_rcache_entry *w = &c->e[first];
    uint32_t *tg = &c->tag[first];
    for (unsigned i = 0; i < CSC_RCACHE_WAYS; i++)
        if (tg[i] == tag && entry_is(c, first + i, key, n)) {
            c->lru[set] = (uint8_t)(i ^ 1);   /* two ways: the other one goes next */
            serve(c, &w[i], out);
            return;
        }
    c->misses++;
    csc_replay(cfg, f, out);
    unsigned v = !tg[0] ? 0 : !tg[1] ? 1 : c->lru[set];
    struct csc_rcache_entry *e = &w[v];
    if (tg[v])
        c->evicted++;
    c->lru[set] = (uint8_t)(v ^ 1);
    tg[v] = tag;
    e->keylen = (uint16_t)n;
    memcpy(e->key, key, n);
    memcpy(e->kernel, &out->kernel, sizeof e->kernel);
    for (unsigned i = 0; i < out->nlayers; i++)
        e->lk[i] = out->layers[i].k;
}
