/*
 * analyze_cached.c - csc_analyze() with a memoised replay (see
 * include/csumcheck/rcache.h). It sits beside analyze.c, outside replay/:
 * it calls the replay, it is not part of the kernel model.
 */
#include "csumcheck/rcache.h"

#include "pkt.h"

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

static bool cacheable(const struct csc_config *cfg, const struct csc_frame *f,
                      const struct csc_result *r)
{
    if (cfg->trace_steps || f->caplen < f->wirelen)
        return false;
    for (unsigned i = 0; i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        switch (l->verdict) {
        case CSC_V_NA: case CSC_V_GOOD: case CSC_V_NONE: case CSC_V_ZERO6: break;
        default: return false;
        }
        if (l->notes & CSC_N_RCO)
            return false;
    }
    return true;
}

/* One layer's part of the key: every field the replay's functions read,
 * and nothing that varies per packet without changing a branch (sequence
 * numbers, ports, checksum values other than zero). Fields a protocol does
 * not use stay zero. */
struct key_layer {
    uint32_t off, end, notes, csum_off, aux;
    uint32_t hdr_len;
    uint16_t sport, next, rco_start, rco_offset;
    uint8_t proto, verdict, ip, bits;
    uint8_t vers, pad[3];
};

struct key_head {
    uint32_t wirelen, stop_off;
    uint8_t link, stop, stop_proto, nlayers;
};

_Static_assert(sizeof(struct key_layer) == 40 && sizeof(struct key_head) == 12, "no padding in keys");

/* The key, built in place (the stored key is its first n bytes). */
struct rkey {
    struct key_head h;
    struct key_layer l[CSC_MAX_LAYERS];
};

static size_t make_key(const struct csc_frame *f, const struct csc_result *r, struct rkey *key)
{
    size_t n = sizeof(struct key_head) + r->nlayers * sizeof(struct key_layer);
    if (n > CSC_RCACHE_KEY)
        return 0;
    struct pkt p = { f->data, f->caplen < f->wirelen ? f->caplen : f->wirelen, f->wirelen };
    /* gue_hdr_valid compares the stop with a GUE layer's offset */
    key->h = (struct key_head){ f->wirelen, r->stop_off, f->link, r->stop, r->stop_proto,
                                r->nlayers };
    for (unsigned i = 0; i < r->nlayers; i++) {
        const struct csc_layer *l = &r->layers[i];
        uint16_t sport = 0, next = 0, rco_start = 0, rco_offset = 0;
        uint32_t aux = 0;
        uint8_t bits = 0, vers = 0;
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
        case CSC_P_IPV4: case CSC_P_IPV6:
            sport = l->u.ip.frag_off;
            next = l->next;
            break;
        case CSC_P_GRE:
            sport = l->u.gre.flags;     /* GRE flags and version */
            next = l->next;
            break;
        case CSC_P_VXLAN: case CSC_P_VXLAN_GPE: case CSC_P_GENEVE: case CSC_P_GUE:
        case CSC_P_FOU:
            aux = l->proto == CSC_P_GENEVE ? l->u.geneve.flags   /* tunnel flags */
                  : l->proto == CSC_P_GUE  ? l->u.gue.flags
                  : l->proto == CSC_P_FOU  ? 0
                                           : l->u.vxlan.flags;
            next = l->next;
            rco_start = l->rco_start;
            rco_offset = l->rco_offset;
            vers = l->proto == CSC_P_GENEVE ? l->u.geneve.ver      /* version / variant */
                   : l->proto == CSC_P_GUE  ? l->u.gue.variant
                                            : 0;
            break;
        default:
            break;
        }
        key->l[i] = (struct key_layer){
            .off = l->off, .end = l->end, .notes = l->notes, .csum_off = l->csum_off, .aux = aux,
            .hdr_len = l->hdr_len, .sport = sport, .next = next, .rco_start = rco_start,
            .rco_offset = rco_offset, .proto = l->proto, .verdict = l->verdict, .ip = l->ip,
            .bits = bits, .vers = vers,
        };
    }
    return n;
}

static uint64_t hash_of(const uint8_t *key, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, key + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ key[i]) * 0x100000001b3ull;
    h ^= h >> 32;
    return h * 0x9e3779b97f4a7c15ull;
}

static bool entry_is(const struct csc_rcache *c, unsigned i, const uint8_t *key, size_t n)
{
    return c->tag[i] && c->e[i].keylen == n && !memcmp(c->e[i].key, key, n);
}

static void serve(struct csc_rcache *c, const struct csc_rcache_entry *e, struct csc_result *out)
{
    c->mru = (uint16_t)(e - c->e);
    c->hits++;
    memcpy(&out->kernel, e->kernel, sizeof e->kernel);
    out->kernel.nsteps = 0;
    for (unsigned i = 0; i < out->nlayers; i++)
        out->layers[i].k = e->lk[i];
}

void csc_analyze_cached(const struct csc_config *cfg, const struct csc_frame *f,
                        struct csc_result *out, struct csc_rcache *c)
{
    csc_decode(cfg, f, out);
    csc_verify(cfg, f, out);
    if (!c || !cacheable(cfg, f, out)) {
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
    struct rkey rk;
    const uint8_t *key = (const uint8_t *)&rk;
    size_t n = make_key(f, out, &rk);
    if (!n) {
        c->bypass++;
        csc_replay(cfg, f, out);
        return;
    }
    /* a capture repeats a shape many times in a row: the entry hit last
     * first, before hashing the key */
    if (entry_is(c, c->mru, key, n)) {
        serve(c, &c->e[c->mru], out);
        return;
    }
    uint64_t h = hash_of(key, n);
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
