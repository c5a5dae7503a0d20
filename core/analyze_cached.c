/*
 * analyze_cached.c - csc_analyze() with a memoised replay (see
 * include/csumcheck/rcache.h). It sits beside analyze.c, outside replay/:
 * it calls the replay, it is not part of the kernel model.
 *
 * The key is the replay's input (replay.c: rp_input), not a list of fields:
 * a field the replay reads is in it because the replay can read nothing
 * else of the result (values.h), and a byte the replay reads is kept with
 * the entry because the replay read it (rec.h). A new rule of the model is
 * therefore keyed on whatever it reads, by construction.
 */
#include "csumcheck/rcache.h"

#include "pkt.h"
#include "rec.h"
#include "replay/addr.h"
#include "replay/replay.h"
#include "stages.h"

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

static inline uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* A frame the memo may serve: every verdict one the bytes cannot make fail
 * (good, none, zero6, none at all), no RCO announcement, the whole frame
 * captured, no step trace wanted, a stack the key holds. */
static bool memo_may_serve(const struct csc_config *cfg, const struct csc_frame *f,
                           const struct csc_result *r)
{
    if (cfg->trace_steps || f->caplen < f->wirelen ||
        offsetof(struct csc_result, layers) + r->nlayers * sizeof r->layers[0] > CSC_RCACHE_KEY)
        return false;
    const unsigned ok = (1u << CSC_V_NA) | (1u << CSC_V_GOOD) | (1u << CSC_V_NONE) |
                        (1u << CSC_V_ZERO6);
    for (unsigned i = 0; i < r->nlayers; i++)
        if (!((1u << r->layers[i].verdict) & ok) || (r->layers[i].notes & CSC_N_RCO))
            return false;
    return true;
}

/* The hash of the key: the frame's length and link, its head and the first
 * 16 bytes of each layer (protocol, verdict, offsets, end, notes: what tells
 * shapes apart); the key itself is compared in full */
static uint64_t key_hash(const struct csc_frame *f, const struct csc_result *in)
{
    uint64_t h = mix(0x243f6a8885a308d3ull, (uint64_t)f->wirelen << 8 | f->link);
    uint64_t a, b;
    memcpy(&a, in, 8);
    memcpy(&b, (const uint8_t *)in + 8, 8);
    h = mix(h, a ^ (b << 23 | b >> 41));
    for (unsigned i = 0; i < in->nlayers; i++) {
        memcpy(&a, &in->layers[i], 8);
        memcpy(&b, (const uint8_t *)&in->layers[i] + 8, 8);
        h = mix(h, a ^ (b << 23 | b >> 41));
    }
    h ^= h >> 32;
    return h * 0x9e3779b97f4a7c15ull;
}

/* Does frame f read as the entry's replay read its frame? */
static bool reads_match(const struct csc_rcache_entry *e, const struct csc_frame *f)
{
    struct pkt p = pkt_of(f, NULL);
    for (unsigned i = 0; i < e->nreads; i++) {
        const struct csc_rcache_read *rd = &e->reads[i];
        if (rd->len) {
            const uint8_t *b = pkt_sum_span(&p, rd->off, rd->len);
            if (!b || memcmp(b, rd->bytes, rd->len))
                return false;
        } else if (rd->bytes[0] == RCL_ADDR) {
            if (ip_addr_classes_at(&p, rd->bytes[1], rd->off) != rd->value)
                return false;
        } else {
            return false;               /* a class the replay does not take */
        }
    }
    return true;
}

/* What the replay read, from its record, into the entry; false when it
 * read more than an entry keeps (or what its bytes decided is not a class
 * the entry can check) */
static bool keep_reads(struct csc_rcache_read *reads, uint8_t *nreads, const struct csc_rec *rec)
{
    unsigned n = 0;
    if (rec->overflow)
        return false;
    for (unsigned i = 0; i < rec->hi; i++) {   /* the window: runs of guarded bytes */
        if (!rec->mask[i])
            continue;
        unsigned len = 0;
        while (i + len < rec->hi && rec->mask[i + len] && len < 8)
            len++;
        if (n >= CSC_RCACHE_READS)
            return false;
        struct csc_rcache_read *rd = &reads[n++];
        rd->off = i;
        rd->len = (uint8_t)len;
        for (unsigned j = 0; j < len; j++)   /* a byte read in part: all of it (safe) */
            rd->bytes[j] = rec->val[i + j] | (uint8_t)~rec->mask[i + j];
        i += len - 1;
    }
    for (unsigned i = 0; i < rec->nfar; i++) {
        if (n >= CSC_RCACHE_READS)
            return false;
        struct csc_rcache_read *rd = &reads[n++];
        rd->off = rec->far[i].off;
        rd->len = rec->far[i].len;
        memcpy(rd->bytes, rec->far[i].bytes, rd->len);
    }
    for (unsigned i = 0; i < rec->nclass; i++) {
        if (n >= CSC_RCACHE_READS + CSC_RCACHE_CLASSES || rec->cls[i].kind != RCL_ADDR)
            return false;
        struct csc_rcache_read *rd = &reads[n++];
        rd->off = rec->cls[i].at;
        rd->len = 0;
        rd->bytes[0] = rec->cls[i].kind;
        rd->bytes[1] = rec->cls[i].proto;
        rd->value = rec->cls[i].value;
    }
    *nreads = (uint8_t)n;
    return true;
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

/* What the entry's replay read, as guards and classes of a plan's record */
static void reads_to_rec(const struct csc_rcache_entry *e, struct csc_rec *rec)
{
    for (unsigned i = 0; i < e->nreads; i++) {
        const struct csc_rcache_read *rd = &e->reads[i];
        if (rd->len)
            rec_guard_at(rec, rd->off, rd->bytes, rd->len);
        else
            rec_class(rec, rd->bytes[0], rd->bytes[1], rd->off, rd->value);
    }
}

bool memo_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out,
                 struct csc_rcache *c, struct csc_rec *plan)
{
    if (!memo_may_serve(cfg, f, out)) {
        c->bypass++;
        csc_replay(cfg, f, out);
        return false;
    }
    if (!c->have_cfg || memcmp(&c->cfg, cfg, sizeof *cfg)) {
        memset(c->tag, 0, sizeof c->tag);   /* another receiver: forget */
        memcpy(&c->cfg, cfg, sizeof *cfg);
        c->have_cfg = 1;
    }
    struct csc_result in;                   /* the replay's input: the key */
    size_t n = rp_input(out, &in);
    const uint8_t *key = (const uint8_t *)&in;
    uint64_t h = key_hash(f, &in);
    unsigned set = (unsigned)h & (CSC_RCACHE_SETS - 1);
    uint32_t tag = (uint32_t)(h >> 32) | 1u;
    unsigned first = set * CSC_RCACHE_WAYS;
    struct csc_rcache_entry *w = &c->e[first];
    uint32_t *tg = &c->tag[first];
    for (unsigned i = 0; i < CSC_RCACHE_WAYS; i++)
        if (tg[i] == tag && w[i].keylen == n && w[i].wirelen == f->wirelen &&
            w[i].link == f->link && !memcmp(w[i].key, key, n) && reads_match(&w[i], f)) {
            c->lru[set] = (uint8_t)(i ^ 1);   /* two ways: the other one goes next */
            serve(c, &w[i], out);
            if (plan)
                reads_to_rec(&w[i], plan);
            return true;
        }
    c->misses++;
    /* the entry to fill: its key before the replay writes the layers'
     * kernel parts into the input */
    unsigned v = !tg[0] ? 0 : !tg[1] ? 1 : c->lru[set];
    struct csc_rcache_entry *e = &w[v];
    if (tg[v])
        c->evicted++;
    tg[v] = 0;
    e->wirelen = f->wirelen;
    e->link = f->link;
    e->keylen = (uint16_t)n;
    memcpy(e->key, key, n);
    struct csc_rec rec;
    rec_init(&rec);
    rp_replay(cfg, f, out, &in, &rec);
    if (!keep_reads(e->reads, &e->nreads, &rec)) {
        c->unkept++;
        return false;
    }
    c->lru[set] = (uint8_t)(v ^ 1);
    tg[v] = tag;
    memcpy(e->kernel, &out->kernel, sizeof e->kernel);
    for (unsigned i = 0; i < out->nlayers; i++)
        e->lk[i] = out->layers[i].k;
    if (plan)
        rec_merge(plan, &rec);
    return true;
}

void csc_analyze_cached(const struct csc_config *cfg, const struct csc_frame *f,
                        struct csc_result *out, struct csc_rcache *c)
{
    csc_decode(cfg, f, out);
    csc_verify(cfg, f, out);
    csc_direction(cfg, f, out);
    if (c)
        memo_replay(cfg, f, out, c, NULL);
    else
        csc_replay(cfg, f, out);
    csc_tx(cfg, f, out);
}
