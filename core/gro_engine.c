/*
 * gro_engine.c - GRO coalescing across frames (see include/csumcheck/gro.h).
 *
 * Per device: 8 hash buckets of at most 8 held packets (GRO_HASH_BUCKETS,
 * MAX_GRO_SKBS). A frame the per-frame replay found eligible is matched to
 * a held packet of its flow and merged or refused as tcp_gro_receive does:
 *   flush the held packet if ack/flags/options/tos/ttl differ, CWR is set
 *   (by era, csc_gro_cfg.era_sw: or differs, 6.18; only differs, 7.2),
 *   the segment is larger than the flow's mss ((len - 1) >= mss), the
 *   sequence is not the next one, or gro_max_size would be exceeded;
 *   after a merge, a segment smaller than mss or carrying PSH/FIN/URG/RST/SYN
 *   pushes the merged packet up (out_check_final).
 * Flow identity is the headers the gro_receive callbacks compare (one
 * definition: key_layer() below). The hash bucket of a held packet is
 * the flow key's (the kernel uses skb->hash, the NIC's RSS hash, which a
 * capture does not carry).
 * What the tunnel devices get when, from the NIC's flushes: gro_cascade.c.
 */
#include "csum.h"
#include "pkt.h"
#include "slots.h"
#include "proto/wire.h"
#include "proto/protos.h"

#include "csumcheck/gro.h"
#include "gro_internal.h"

#include <string.h>

#define JIFFY_US 1000

void csc_gro_cfg_default(struct csc_gro_cfg *cfg)
{
    cfg->budget = 64;
    cfg->max_size = 65536;
    cfg->poll_gap_us = 100;
    cfg->flush_timeout_us = 0;
    cfg->nic_no_rx_hash = false;
    struct csc_era e;
    cfg->era_sw = csc_era_by_name("modern", &e) ? e.sw : 0;
}

void csc_gro_init(struct csc_gro *g, const struct csc_gro_cfg *cfg)
{
    memset(g, 0, sizeof *g);
    if (cfg)
        g->cfg = *cfg;
    else
        csc_gro_cfg_default(&g->cfg);
    if (!g->cfg.budget)
        g->cfg.budget = 64;
    if (!g->cfg.max_size)
        g->cfg.max_size = 65536;
    lru_init(&g->lru);
}

const char *csc_gro_flush_name(unsigned f)
{
    static const char *const t[CSC_GF__COUNT] = {
        [CSC_GF_ALONE] = "not-eligible", [CSC_GF_POLL_END] = "poll-end",
        [CSC_GF_TIMEOUT] = "flush-timeout", [CSC_GF_AGE] = "older-than-jiffy",
        [CSC_GF_BUCKET_FULL] = "bucket-full", [CSC_GF_SIZE] = "gro-max-size",
        [CSC_GF_SEQ] = "seq-gap", [CSC_GF_HEADER] = "header-differs", [CSC_GF_MSS] = "above-mss",
        [CSC_GF_SMALL] = "below-mss", [CSC_GF_TCP_FLAGS] = "tcp-flags", [CSC_GF_END] = "end-of-capture",
    };
    return f < CSC_GF__COUNT && t[f] ? t[f] : "?";
}

/* ---- the flow key: one definition ----
 *
 * key_layer() says which bytes of a layer the kernel's gro_receive
 * callbacks compare: those that must match for two segments to be one flow
 * go into the key chain, those that must match for them to merge into the
 * header chain. A device's chains run from its first layer to the next TCP
 * header. A device deeper in the frame sees a suffix of the layers the NIC
 * sees, so the chains are built from the TCP header outwards: one walk over
 * the layers gives every device its key at its first layer. Each layer
 * enters as words (little-endian loads, so every machine gets the same keys
 * and buckets) led by a word naming the layer and its length, so two chains
 * are equal only when the bytes compared are. */
#define KEY_SEED 0x243f6a8885a308d3ull

/* n bytes (8 at most) as a little-endian word: on a big-endian machine
 * they fill the high bytes, which the swap brings down */
static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t w = 0;
    memcpy(&w, p, n);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline uint64_t load_le64(const uint8_t *p)
{
    return load_le(p, 8);
}

static inline uint64_t load_le32(const uint8_t *p)
{
    return load_le(p, 4);
}

static inline uint64_t mix_word(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* murmur3's finaliser: every bit reaches the low ones (the bucket) */
static inline uint64_t key_final(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

/* the word that leads a layer's share: the protocol, what follows, and
 * whether its bytes were captured */
#define KW(proto, what, captured) ((uint64_t)(proto) | (uint64_t)(what) << 8 | \
                                   (uint64_t)!(captured) << 63)

/* the bytes [off, off + len) of the frame, all of them, in words */
static inline uint64_t mix_span(uint64_t h, const struct pkt *p, uint32_t off, uint32_t len)
{
    const uint8_t *b = pkt_span(p, off, len);
    if (!b)
        return h;        /* not captured: the leading word says so (KW) */
    if (len >= 8) {
        for (uint32_t i = 0; i + 8 < len; i += 8)
            h = mix_word(h, load_le64(b + i));
        return mix_word(h, load_le64(b + len - 8));   /* the last 8 (may overlap) */
    }
    if (len >= 4)
        return mix_word(h, load_le32(b) << 32 | load_le32(b + len - 4));
    if (len)
        return mix_word(h, (uint64_t)b[0] | (uint64_t)b[len / 2] << 8 | (uint64_t)b[len - 1] << 16);
    return h;
}

/* One layer's share of the key chain (what must match for two segments to
 * be one flow) and of the header chain (what must match for them to merge),
 * as the kernel's gro_receive callbacks compare them: addresses and
 * protocols (inet/ipv6_gro_receive), tos/ttl/DF and IPv6 class/flow
 * label/hop limit (their flush checks), UDP ports with "both checksums zero
 * or both non-zero" (udp_gro_receive), the tunnel and inner Ethernet
 * headers, TCP ports; ack, flags and options (tcp_gro_receive). */
static inline void key_layer(uint64_t *k, uint64_t *h, const struct pkt *p,
                             const struct csc_layer *l, unsigned rule)
{
    const uint8_t *b;
    switch (rule) {
    case GRO_KEY_IPV4:
        b = pkt_span(p, l->off, IPV4_HLEN);
        if (!b) {
            *k = mix_word(*k, KW(CSC_P_IPV4, 0, 0));
            break;
        }
        *k = mix_word(*k, KW(CSC_P_IPV4, b[WIRE_OFF(ipv4_hdr, protocol)], 1));
        *k = mix_word(*k, load_le64(b + WIRE_OFF(ipv4_hdr, saddr)));   /* both addresses */
        *h = mix_word(*h, KW(CSC_P_IPV4, (uint32_t)b[WIRE_OFF(ipv4_hdr, tos)] |
                                         (uint32_t)b[WIRE_OFF(ipv4_hdr, ttl)] << 8 |
                                         (uint32_t)!!(l->u.ip.frag_off & IP_DF) << 16, 1));
        break;
    case GRO_KEY_IPV6: {
        /* ipv6_gro_receive (v6.1, v6.12): version and flow label differ,
         * another flow (not_same_flow: the held packet stays); traffic
         * class and hop limit differ, a flush */
        b = pkt_span(p, l->off, IPV6_HLEN);
        if (!b) {
            *k = mix_word(*k, KW(CSC_P_IPV6, l->next, 0));
            break;
        }
        const uint8_t *w = b + WIRE_OFF(ipv6_hdr, vtc_flow);
        uint32_t vtc = (uint32_t)w[0] << 24 | (uint32_t)w[1] << 16 | (uint32_t)w[2] << 8 | w[3];
        *k = mix_word(*k, KW(CSC_P_IPV6, l->next, 1) | (uint64_t)(vtc & 0xf00fffffu) << 16);
        for (unsigned i = 0; i < 2 * IPV6_ADDR_LEN; i += 8)
            *k = mix_word(*k, load_le64(b + WIRE_OFF(ipv6_hdr, saddr) + i));
        *h = mix_word(*h, KW(CSC_P_IPV6, (vtc >> 20 & 0xff) << 8 | b[WIRE_OFF(ipv6_hdr, hop_limit)], 1));
        break;
    }
    case GRO_KEY_UDP:    /* ports, and whether the checksum is zero */
        b = pkt_span(p, l->off, L4_PORTS_LEN);
        *k = mix_word(*k, KW(CSC_P_UDP, (b ? load_le32(b) << 1 : 0) | (l->field == 0), b));
        break;
    case GRO_KEY_HEADER:
        b = pkt_span(p, l->off, l->hdr_len);
        *k = mix_span(mix_word(*k, KW(l->proto, l->hdr_len, b)), p, l->off, l->hdr_len);
        break;
    case GRO_KEY_GRE: {
        /* gre_gro_receive (net/ipv4/gre_offload.c, 6.12): the same flow has
         * the same flags and protocol and, with K, the same 32-bit word
         * after the base header - the key, or with C the checksum word (the
         * kernel reads greh + 1 either way). The checksum alone is not
         * compared. */
        uint32_t len = l->u.gre.flags & GRE_K ? GRE_HLEN + GRE_OPT_LEN : GRE_HLEN;
        b = pkt_span(p, l->off, len);
        *k = mix_span(mix_word(*k, KW(CSC_P_GRE, len, b)), p, l->off, len);
        break;
    }
    case GRO_KEY_TCP:    /* ports; ack, flags, options */
        b = pkt_span(p, l->off, l->hdr_len);
        *k = mix_word(*k, KW(CSC_P_TCP, b ? load_le32(b) : 0, b));
        *h = mix_word(*h, KW(CSC_P_TCP, l->hdr_len, b));
        *h = mix_word(*h, (uint64_t)l->u.tcp.ack |
                          (uint64_t)(l->u.tcp.flags & ~(TCP_CWR | TCP_FIN | TCP_PSH)) << 32);
        if (l->hdr_len > TCP_HLEN)                                   /* options */
            *h = mix_span(*h, p, l->off + TCP_HLEN, l->hdr_len - TCP_HLEN);
        break;
    default:
        *k = mix_word(*k, KW(l->proto, 0, 1));
        break;
    }
}

/* The IP headers the ID rule reads (ipid_flush): the outermost and the
 * innermost from the device's first layer to the TCP header. */
static void seg_ip(struct csc_gro_seg *o, const struct pkt *p, const struct csc_result *r,
                   unsigned tcp, unsigned l0)
{
    o->nip = 0;
    for (unsigned i = l0; i < tcp; i++) {
        const struct csc_layer *l = &r->layers[i];
        unsigned rule = layer_row(l)->gro_key;
        if (rule != GRO_KEY_IPV4 && rule != GRO_KEY_IPV6)
            continue;
        if (o->nip == 1) {               /* the one seen so far was the outermost */
            o->ip_v4[0] = o->ip_v4[1];
            o->ip_df[0] = o->ip_df[1];
            o->ip_id[0] = o->ip_id[1];
        }
        o->nip = o->nip ? 2 : 1;
        const uint8_t *b = rule == GRO_KEY_IPV4 ? pkt_span(p, l->off, IPV4_HLEN) : NULL;
        o->ip_v4[1] = b != NULL;
        o->ip_df[1] = b && (l->u.ip.frag_off & IP_DF);
        o->ip_id[1] = b ? (uint16_t)(b[WIRE_OFF(ipv4_hdr, id)] << 8 | b[WIRE_OFF(ipv4_hdr, id) + 1]) : 0;
    }
}

/* the TCP segment's own fields, as the device whose first layer is l0 sees it */
static void seg_tcp(struct csc_gro_seg *o, const struct csc_result *r, unsigned tcp, unsigned l0)
{
    const struct csc_layer *l = &r->layers[tcp];
    o->tcp = 1;
    o->flags = l->u.tcp.flags;
    o->seq = l->u.tcp.seq;
    o->ack = l->u.tcp.ack;
    o->payload = l->end > l->off + l->hdr_len ? l->end - l->off - l->hdr_len : 0;
    o->len = l->end - r->layers[l0].off;
}

/* Every device's segment (device d's first layer: l0s[d]): the chains
 * built once from the innermost layer outwards; the one of a device runs
 * from its first layer to the next TCP header (none: o->tcp 0, the engine
 * then keys the frame by its number). The same walk sees whether a packet
 * merged there is lost at its encap UDP socket: a FOU/GUE layer carrying
 * GRE after the first layer (fou_gro_receive/gue_gro_receive clear
 * encap_mark, so gre_gro_receive merges; see csc_gro_seg.gso_lost). */
#define FOU_OR_GUE (1ull << CSC_P_FOU | 1ull << CSC_P_GUE)
_Static_assert(CSC_P__COUNT <= 64, "a protocol set fits a 64-bit mask");
#if defined(__GNUC__)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif
/* gso_lost of each device's first layer (starts), walking as segments_all
 * does: only for a frame that has a FOU or GUE layer. */
static void gso_lost_at(const struct csc_result *r, unsigned n, unsigned low, uint32_t starts,
                        uint8_t *lostat)
{
    unsigned lost = 0;
    for (unsigned i = n; i-- > low;) {
        const struct csc_layer *l = &r->layers[i];
        if (starts & (1u << i))
            lostat[i] = (uint8_t)lost;       /* the layers after the first, to the TCP */
        if (layer_row(l)->gro_key == GRO_KEY_TCP)
            lost = 0;
        if (((1ull << l->proto) & FOU_OR_GUE) != 0 && i > 0 && i + 1 < n &&
            r->layers[i - 1].proto == CSC_P_UDP && r->layers[i + 1].proto == CSC_P_GRE)
            lost = 1;
    }
}

static void segments_all(const struct csc_frame *f, const struct csc_result *r,
                         const uint8_t *l0s, unsigned nd, struct csc_gro_seg *out)
{
    struct pkt p = pkt_of(f, NULL);
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS, low = n;
    uint32_t starts = 0;
    for (unsigned d = 0; d < nd; d++) {
        out[d].tcp = out[d].gso_lost = out[d].nip = 0;
        out[d].key = out[d].hdr = 0;
        if (l0s[d] < n) {
            starts |= 1u << l0s[d];
            low = l0s[d] < low ? l0s[d] : low;
        }
    }
    uint64_t kat[CSC_MAX_LAYERS], hat[CSC_MAX_LAYERS];
    uint8_t tcpat[CSC_MAX_LAYERS], lostat[CSC_MAX_LAYERS];
    uint64_t k = KEY_SEED, h = KEY_SEED, seen = 0;
    unsigned tcp = CSC_NO_LAYER;
    for (unsigned i = n; i-- > low;) {
        const struct csc_layer *l = &r->layers[i];
        unsigned rule = layer_row(l)->gro_key;   /* the protocol row's flow-key rule */
        seen |= 1ull << l->proto;
        if (rule == GRO_KEY_TCP) {           /* a device's chains end at its next TCP */
            k = h = KEY_SEED;
            tcp = i;
        }
        key_layer(&k, &h, &p, l, rule);
        if (starts & (1u << i)) {
            kat[i] = k;
            hat[i] = h;
            tcpat[i] = (uint8_t)tcp;
        }
    }
    /* merged, GRE under FOU/GUE is lost at the encap UDP socket
     * (csc_gro_seg.gso_lost): a second walk, only where it can be */
    if (UNLIKELY((seen & FOU_OR_GUE) != 0))
        gso_lost_at(r, n, low, starts, lostat);
    for (unsigned d = 0; d < nd; d++) {
        unsigned ld = l0s[d];
        if (ld >= n)
            continue;
        out[d].gso_lost = (seen & FOU_OR_GUE) ? lostat[ld] : 0;
        if (tcpat[ld] == CSC_NO_LAYER)
            continue;
        out[d].key = key_final(kat[ld]);
        out[d].hdr = key_final(hat[ld]);
        seg_tcp(&out[d], r, tcpat[ld], ld);
        seg_ip(&out[d], &p, r, tcpat[ld], ld);
    }
}

/* segments_all's walk, its decisions read from w (csc_gro_walk_make) */
static void segments_walk(const struct csc_frame *f, const struct csc_result *r,
                          const struct csc_gro_walk *w, const uint8_t *l0s, unsigned nd,
                          struct csc_gro_seg *out)
{
    struct pkt p = pkt_of(f, NULL);
    unsigned n = w->n;
    for (unsigned d = 0; d < nd; d++) {
        out[d].tcp = out[d].gso_lost = out[d].nip = 0;
        out[d].key = out[d].hdr = 0;
    }
    uint64_t kat[CSC_GRO_WALK_LAYERS], hat[CSC_GRO_WALK_LAYERS];
    uint64_t k = KEY_SEED, h = KEY_SEED;
    for (unsigned i = n; i-- > w->low;) {
        unsigned rule = w->rule[i];
        if (rule == GRO_KEY_TCP)
            k = h = KEY_SEED;
        key_layer(&k, &h, &p, &r->layers[i], rule);
        kat[i] = k;
        hat[i] = h;
    }
    for (unsigned d = 0; d < nd; d++) {
        unsigned ld = l0s[d];
        if (ld >= n)
            continue;
        out[d].gso_lost = w->fou ? w->lostat[ld] : 0;
        if (w->tcpat[ld] == CSC_NO_LAYER)
            continue;
        out[d].key = key_final(kat[ld]);
        out[d].hdr = key_final(hat[ld]);
        seg_tcp(&out[d], r, w->tcpat[ld], ld);
        seg_ip(&out[d], &p, r, w->tcpat[ld], ld);
    }
}

/* ---- statistics ---- */

/* flow[] is a bounded table (core/slots.h): found by (dev, key) through
 * the index, the least recently seen flow's entry reused. */
static uint32_t index_hash(uint8_t dev, uint64_t key)
{
    uint64_t h = (key ^ ((uint64_t)dev * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    return (uint32_t)(h >> 48);
}

_Static_assert(CSC_GRO_INDEX <= 65536 && (CSC_GRO_INDEX & (CSC_GRO_INDEX - 1)) == 0 &&
               CSC_GRO_INDEX >= 4 * CSC_GRO_FLOWS && CSC_GRO_FLOWS < CSC_SLOT_NIL,
               "the home fits the 16-bit tag; load <= 1/4; slots fit the LRU links");

static struct csc_gro_flow_stats *index_find(struct csc_gro *g, uint8_t dev, uint64_t key,
                                             uint32_t tag)
{
    unsigned at = index_home(tag, CSC_GRO_INDEX);
    for (int i; (i = index_next(g->flow_index, CSC_GRO_INDEX, tag, &at)) >= 0;)
        if (g->flow[i].dev == dev && g->flow[i].key == key)
            return &g->flow[i];
    return NULL;
}

/* The next victim's cache lines, fetched ahead: with many flows it is the
 * coldest entry of the table, and a new flow comes nearly every frame. */
static inline void prefetch_victim(const struct csc_gro *g)
{
#if defined(__GNUC__)
    if (g->flows_used == CSC_GRO_FLOWS && g->lru.oldest != CSC_SLOT_NIL) {
        const char *v = (const char *)&g->flow[g->lru.oldest];
        __builtin_prefetch(v, 1);
        __builtin_prefetch(v + 64, 1);
        __builtin_prefetch(v + sizeof g->flow[0] - 1, 1);
    }
#else
    (void)g;
#endif
}

/* The flow's statistics entry. A new flow takes an unused entry while
 * there is one; once all are used, the least recently seen flow's entry is
 * reused (counted in flows_evicted). */
static struct csc_gro_flow_stats *flow_stats(struct csc_gro *g, uint8_t dev, uint64_t key,
                                             uint32_t tag, uint64_t frame)
{
    struct csc_gro_flow_stats *fs = index_find(g, dev, key, tag);
    if (fs) {
        fs->last_frame = frame;
        lru_touch(&g->lru, g->lru_link, (unsigned)(fs - g->flow));
        return fs;
    }
    if (g->flows_used < CSC_GRO_FLOWS) {
        fs = &g->flow[CSC_GRO_FLOWS - 1 - g->flows_used++];
    } else {
        unsigned victim = g->lru.oldest;
        fs = &g->flow[victim];
        g->flows_evicted++;
        index_del(g->flow_index, CSC_GRO_INDEX, fs->tag, victim);
        lru_unlink(&g->lru, g->lru_link, victim);
        prefetch_victim(g);
    }
    memset(fs, 0, sizeof *fs);
    fs->used = 1;
    fs->dev = dev;
    fs->tag = (uint16_t)tag;
    fs->key = key;
    fs->last_frame = frame;
    unsigned slot = (unsigned)(fs - g->flow);
    index_add(g->flow_index, CSC_GRO_INDEX, tag, slot);
    lru_push_newest(&g->lru, g->lru_link, slot);
    return fs;
}

static uint8_t dev_index(struct csc_gro *g, uint8_t kind, uint8_t depth)
{
    if (depth < CSC_MAX_DEVS && kind < CSC_P__COUNT) {   /* the map: each device once */
        uint8_t *m = &g->dev_of[depth][kind];
        if (!*m && g->ndevs < CSC_GRO_DEVS) {
            struct csc_gro_dev_stats *d = &g->dev[g->ndevs];
            d->used = 1;
            d->kind = kind;
            d->depth = depth;
            *m = ++g->ndevs;
        }
        return *m ? (uint8_t)(*m - 1) : CSC_GRO_NO_DEV;
    }
    for (uint8_t i = 0; i < CSC_GRO_DEVS; i++) {
        struct csc_gro_dev_stats *d = &g->dev[i];
        if (d->used && d->kind == kind && d->depth == depth)
            return i;
        if (!d->used) {
            d->used = 1;
            d->kind = kind;
            d->depth = depth;
            g->ndevs = (uint8_t)(i + 1);
            return i;
        }
    }
    return CSC_GRO_NO_DEV;
}

/* A held packet leaves the list: one packet up, counted by reason. */
void held_deliver(struct csc_gro *g, uint8_t dev, struct csc_gro_held *h, enum csc_gro_flush why)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    if (dev == 0)
        nic_sends_early(g, h, why);
    d->packets_out++;
    d->flushes[why]++;
    if (h->count > 1)
        d->merged_frames += h->count;
    if (h->count > 1 && h->gso_lost)
        d->gso_lost_frames += h->count;
    struct csc_gro_flow_stats *fs = &g->flow[h->flow];
    if (!fs->used || fs->dev != dev || fs->key != h->key)   /* evicted meanwhile */
        fs = index_find(g, dev, h->key, h->tag);            /* (then maybe back, elsewhere) */
    if (fs) {
        fs->packets_out++;
        fs->flushes[why]++;
        if (h->count > 1)
            fs->merged_frames += h->count;
    }
    /* A packet flushed alone keeps the passes the per-frame replay charged
     * after GRO; a merged one is CHECKSUM_PARTIAL from tcp_gro_complete on. */
    if (dev == 0 && h->count == 1) {
        g->passes_merged += h->later_passes;
        g->bytes_merged += h->later_bytes;
    }
    h->used = 0;
    unsigned at = (unsigned)(h - &d->held[0][0]), b = at / CSC_GRO_PER_BUCKET;
    d->held_used[b] &= (uint8_t)~(1u << (at % CSC_GRO_PER_BUCKET));
    d->held_tags[b] &= ~(0xffull << 8 * (at % CSC_GRO_PER_BUCKET));
}

static void flush_held(struct csc_gro *g, uint8_t dev, enum csc_gro_flush why, uint64_t now,
                       uint32_t min_age)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    for (unsigned b = 0; b < CSC_GRO_BUCKETS; b++)
        for (unsigned m = d->held_used[b]; m; m &= m - 1) {
            struct csc_gro_held *h = &d->held[b][__builtin_ctz(m)];
            if (!min_age || now - h->first_us >= min_age)
                held_deliver(g, dev, h, why);
        }
}

static void poll_boundary(struct csc_gro *g, uint8_t dev, uint64_t now)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    const struct csc_gro_cfg *c = &g->cfg;
    bool gap = d->in_poll && now - d->last_us > c->poll_gap_us;
    bool full = d->in_poll >= c->budget;
    if (gap || full) {
        if (full)                       /* net_rx_action: budget used up */
            flush_held(g, dev, CSC_GF_AGE, now, JIFFY_US);
        if (gap && !c->flush_timeout_us)  /* napi_complete_done */
            flush_held(g, dev, CSC_GF_POLL_END, now, 0);
        else if (gap && dev > 0)
            flush_arrived(g, dev);
        d->in_poll = 0;
    }
    if (c->flush_timeout_us)
        flush_held(g, dev, CSC_GF_TIMEOUT, now, c->flush_timeout_us);
}

/* the byte of a key in held_tags (its top bits, never 0) */
static inline unsigned held_tag(uint64_t key)
{
    return (unsigned)(key >> 56) | 0x80;
}

/* dev_gro_receive's hash bucket: skb_get_hash_raw(skb) & (GRO_HASH_BUCKETS
 * - 1) (net/core/gro.c, v6.12). The NIC's RX hash is taken as the flow key's;
 * a NIC without one (cfg nic_no_rx_hash: a TAP) puts every flow in bucket 0. */
static unsigned gro_bucket(const struct csc_gro *g, uint8_t dev, uint64_t key)
{
    return dev == 0 && g->cfg.nic_no_rx_hash ? 0 : (unsigned)(key % CSC_GRO_BUCKETS);
}

struct csc_gro_held *find_held(struct csc_gro *g, uint8_t dev, uint64_t key)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    unsigned b = gro_bucket(g, dev, key);
    /* the bytes of held_tags equal to the key's: 0x80 where x has a zero byte */
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t x = d->held_tags[b] ^ (0x0101010101010101ull * held_tag(key));
    uint64_t zero = ~(((x & lo7) + lo7) | x | lo7);
    for (; zero; zero &= zero - 1) {
        unsigned i = (unsigned)__builtin_ctzll(zero) / 8;
        if (d->held_key[b][i] == key)
            return &d->held[b][i];
    }
    return NULL;
}

static struct csc_gro_held *new_held(struct csc_gro *g, uint8_t dev, uint64_t key)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    unsigned b = gro_bucket(g, dev, key);
    uint8_t m = d->held_used[b];
    if (m != (uint8_t)((1u << CSC_GRO_PER_BUCKET) - 1))
        return &d->held[b][__builtin_ctz(~(unsigned)m)];   /* the first unused */
    unsigned oldest = 0;   /* gro_flush_oldest: the least first frame (they differ) */
    uint64_t first = d->held_first[b][0];
    for (unsigned i = 1; i < CSC_GRO_PER_BUCKET; i++) {
        bool older = d->held_first[b][i] < first;
        first = older ? d->held_first[b][i] : first;
        oldest = older ? i : oldest;
    }
    held_deliver(g, dev, &d->held[b][oldest], CSC_GF_BUCKET_FULL);   /* gro_flush_oldest */
    return &d->held[b][oldest];
}

_Static_assert(CSC_GRO_PER_BUCKET <= 8, "a bucket's used entries fit a byte");

/* The IPv4 ID rule: does s flush the held packet h of its flow? A DF
 * header's ID is either fixed or goes up by one a segment (decided at the
 * second); a header without DF must go up by one. Headers whose TTL, TOS or
 * DF differ never get here (the header chain). */
static bool ipid_flush(struct csc_gro_held *h, const struct csc_gro_seg *s, uint64_t era_sw)
{
    const uint16_t count = h->count;
    unsigned first = s->nip >= 2 ? 0 : 1;
    if (era_sw & CSC_ERA_BIT(CSC_E_GRO_FIXEDID_PER_HEADER)) {
        /* inet_gro_flush (v7.2): fixed or +1 per header, DF or not; the
         * header checked as inner (encap_mark) has bit 2 of ip_fixedid */
        unsigned flush = 0;
        for (unsigned i = first; i < 2; i++) {
            if (!s->ip_v4[i])
                continue;
            unsigned bit = i == 1 && s->nip >= 2 ? 2 : 1;
            uint16_t off = (uint16_t)(s->ip_id[i] - h->ip_id[i]);
            if (count == 1 && !off)
                h->fixedid |= (uint8_t)bit;
            flush |= (uint16_t)(off ^ (uint16_t)(count * !(h->fixedid & bit)));
        }
        return flush != 0;
    }
    if (era_sw & CSC_ERA_BIT(CSC_E_GRO_NETWORK_FLUSH)) {
        /* gro_receive_network_flush (v6.12): inet_gro_flush on the
         * outermost header (outer with encap_mark: DF skips the ID), then
         * the innermost; one ip_fixedid for both */
        unsigned flush = 0;
        for (unsigned i = first; i < 2; i++) {
            if (!s->ip_v4[i] || (i == 0 && s->ip_df[i]))
                continue;                /* ipv6_gro_flush has no ID */
            uint16_t off = (uint16_t)(s->ip_id[i] - h->ip_id[i]);
            if (count == 1 && s->ip_df[i] && !off)
                h->fixedid = 1;
            flush |= (uint16_t)(off ^ (uint16_t)(count * !h->fixedid));
        }
        return flush != 0;
    }
    if (!(era_sw & CSC_ERA_BIT(CSC_E_GRO_FIXEDID_DF))) {
        /* inet_gro_receive (v4.6): each IPv4 header overwrites flush_id,
         * so the innermost one's ID must go up by one a segment, DF or not
         * (tcp_gro_receive ORs it into its flush) */
        for (unsigned i = 2; i-- > first;)
            if (s->ip_v4[i])
                return (uint16_t)(s->ip_id[i] - h->ip_id[i]) != count;
        return false;
    }
    /* inet_gro_receive / ipv6_gro_receive (v6.1): each header's flush_id
     * replaces the one before when that one had DF (or was IPv6), else adds
     * to it; tcp_gro_receive then takes the second segment's +1 as the end
     * of fixed-ID mode (is_atomic) */
    uint16_t fid = 0;
    bool skb_atomic = true;
    for (unsigned i = first; i < 2; i++) {
        if (!s->ip_v4[i]) {
            if (skb_atomic)
                fid = 0;
            skb_atomic = true;
            continue;
        }
        uint16_t f = (uint16_t)(s->ip_id[i] - h->ip_id[i]);
        if (!h->atomic || !s->ip_df[i])
            f = (uint16_t)(f ^ count) ? 0xffff : 0;
        fid = skb_atomic ? f : (uint16_t)(fid | f);
        skb_atomic = s->ip_df[i];
    }
    if (fid != 1 || count != 1 || !h->atomic)
        return fid != 0;
    h->atomic = 0;
    return false;
}

/* One frame at one device. Returns the fate. */
static struct csc_gro_fate feed_dev(struct csc_gro *g, uint8_t dev, const struct csc_gro_seg *kd,
                                    const struct csc_gro_input *in, uint64_t frame_no,
                                    uint64_t now, bool nic_held)
{
    struct csc_gro_dev_stats *d = &g->dev[dev];
    struct csc_gro_fate fate = { dev, kd->kind, 0, 0, kd->gro_reason, 0, 0, 0, 0, 0 };
    uint32_t later_passes = in->later_passes;
    uint32_t later_bytes = in->later_bytes;
    poll_boundary(g, dev, now);
    d->in_poll++;
    d->last_us = now;
    d->frames_in++;
    const struct csc_gro_seg *s = kd;
    uint64_t fkey = s->tcp ? s->key : frame_no;
    uint32_t tag = index_hash(dev, fkey);
    struct csc_gro_flow_stats *fs = flow_stats(g, dev, fkey, tag, frame_no);
    fs->frames_in++;
    fate.flow = (uint16_t)(fs - g->flow);
    struct csc_gro_held *h = s->tcp && kd->gro_ran ? find_held(g, dev, s->key) : NULL;

    bool eligible = kd->gro_ran && kd->gro_reason == CSC_G_NONE && s->tcp;
    /* A segment that only tcp_gro_receive's out_check_final stops still
     * merges into a held packet of its flow, then pushes it up. */
    bool ends_flow = kd->gro_ran && s->tcp && h &&
                     (kd->gro_reason == CSC_G_TCP_FLAGS || kd->gro_reason == CSC_G_TCP_NO_PAYLOAD);
    if (!eligible && !ends_flow) {
        d->alone++;
        d->packets_out++;
        d->flushes[CSC_GF_ALONE]++;
        d->refused[kd->gro_reason < CSC_G__COUNT ? kd->gro_reason : 0]++;
        fs->packets_out++;
        fs->flushes[CSC_GF_ALONE]++;
        if (dev == 0) {
            g->passes_merged += later_passes;
            g->bytes_merged += later_bytes;
        }
        return fate;
    }

    if (h) {
        enum csc_gro_flush why = CSC_GF__COUNT;
        /* tcp_gro_receive's CWR rule by era (docs/eras.md): a CWR segment
         * flushes; "gro: prevent ACE field corruption & better AccECN
         * handling": a CWR difference flushes too; "gro: flushing when CWR
         * is set negatively affects AccECN" (7.2.13): only the difference */
        uint64_t sw = g->cfg.era_sw;
        bool cwr = (!(sw & CSC_ERA_BIT(CSC_E_TCP_GRO_CWR_NO_FLUSH)) && (s->flags & TCP_CWR)) ||
                   ((sw & CSC_ERA_BIT(CSC_E_TCP_GRO_CWR_IN_FLAGS)) && ((h->flags ^ s->flags) & TCP_CWR));
        if (h->hdr != s->hdr || cwr)
            why = CSC_GF_HEADER;
        else if (s->payload == 0 || s->payload > h->mss)     /* (len - 1) >= mss */
            why = s->payload == 0 ? CSC_GF_SMALL : CSC_GF_MSS;
        else if (s->seq != h->next_seq)
            why = CSC_GF_SEQ;     /* named before the ID: a lost segment took an ID too */
        else if (ipid_flush(h, s, g->cfg.era_sw))
            why = CSC_GF_HEADER;
        else if (h->len + s->payload > g->cfg.max_size)
            why = CSC_GF_SIZE;
        if (why == CSC_GF__COUNT) {                         /* skb_gro_receive */
            bool depends = dev > 0 && device_merge_depends(g, h, in->dev[0].key, nic_held);
            fate.order_dep = depends || grown_seq_differs(h, s);
            d->order_dep += fate.order_dep;
            h->count++;
            h->len += s->payload;
            h->next_seq += s->payload;
            if (dev == 0)
                nic_grows(g, h);
            h->later_passes = h->later_bytes = 0;   /* merged: PARTIAL from here on */
            h->gso_lost = kd->gso_lost;
            fate.held = fate.merged = 1;
            fate.gso_lost = kd->gso_lost;
            fate.super = h->first_frame;
            if (s->payload < h->mss)
                held_deliver(g, dev, h, CSC_GF_SMALL);
            else if (s->flags & (TCP_FIN | TCP_SYN | TCP_RST | TCP_PSH | TCP_URG))
                held_deliver(g, dev, h, CSC_GF_TCP_FLAGS);
            return fate;
        }
        fate.flushed_other = (uint8_t)why;
        fate.order_dep = h->order_dep || grown_seq_differs(h, s);
        d->order_dep += fate.order_dep;
        held_deliver(g, dev, h, why);
        if (!eligible) {                                    /* the ACK/FIN itself goes up */
            d->alone++;
            d->packets_out++;
            d->flushes[CSC_GF_ALONE]++;
            fs->packets_out++;
            if (dev == 0) {
                g->passes_merged += later_passes;
                g->bytes_merged += later_bytes;
            }
            return fate;
        }
    }
    h = new_held(g, dev, s->key);
    memset(h, 0, sizeof *h);
    h->used = 1;
    unsigned at = (unsigned)(h - &d->held[0][0]);
    d->held_used[at / CSC_GRO_PER_BUCKET] |= (uint8_t)(1u << (at % CSC_GRO_PER_BUCKET));
    d->held_tags[at / CSC_GRO_PER_BUCKET] |= (uint64_t)held_tag(s->key) << 8 * (at % CSC_GRO_PER_BUCKET);
    d->held_key[at / CSC_GRO_PER_BUCKET][at % CSC_GRO_PER_BUCKET] = s->key;
    d->held_first[at / CSC_GRO_PER_BUCKET][at % CSC_GRO_PER_BUCKET] = frame_no;
    h->count = 1;
    h->mss = (uint16_t)(s->payload > 0xffff ? 0xffff : s->payload);
    h->flags = s->flags;
    h->flow = (uint16_t)(fs - g->flow);
    h->tag = (uint16_t)tag;
    h->next_seq = s->seq + s->payload;
    h->ack = s->ack;
    h->len = s->len;
    h->key = s->key;
    h->hdr = s->hdr;
    h->ip_id[0] = s->ip_id[0];
    h->ip_id[1] = s->ip_id[1];
    h->atomic = s->nip && s->ip_v4[1] ? s->ip_df[1] : 1;   /* is_atomic: the innermost DF */
    h->fixedid = 0;
    h->first_frame = frame_no;
    h->first_us = now;
    h->next_dev = CSC_GRO_NO_DEV;
    h->nic_key = in->dev[0].key;
    h->nic_held = nic_held;
    h->later_passes = later_passes;
    h->later_bytes = later_bytes;
    fate.held = 1;
    fate.super = frame_no;
    return fate;
}

void csc_gro_walk_make(const struct csc_result *r, struct csc_gro_walk *w)
{
    memset(w, 0, sizeof *w);
    const struct csc_kernel *k = &r->kernel;
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    if (!k->ran || k->reasm_dev != CSC_NO_DEV || n > CSC_GRO_WALK_LAYERS)
        return;
    unsigned nd = k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS, low = n;
    uint32_t starts = 0;
    for (unsigned d = 0; d < nd; d++)    /* as csc_gro_prepare and segments_all */
        if (k->devs[d].layer < n) {
            starts |= 1u << k->devs[d].layer;
            low = k->devs[d].layer < low ? k->devs[d].layer : low;
        }
    uint64_t seen = 0;
    unsigned tcp = CSC_NO_LAYER;
    for (unsigned i = n; i-- > low;) {
        const struct csc_layer *l = &r->layers[i];
        unsigned rule = layer_row(l)->gro_key;
        w->rule[i] = (uint8_t)rule;
        seen |= 1ull << l->proto;
        if (rule == GRO_KEY_TCP)
            tcp = i;
        if (starts & (1u << i))
            w->tcpat[i] = (uint8_t)tcp;
    }
    w->fou = (seen & FOU_OR_GUE) != 0;
    if (w->fou)
        gso_lost_at(r, n, low, starts, w->lostat);
    w->n = (uint8_t)n;
    w->low = (uint8_t)low;
    w->starts = starts;
    w->made = 1;
}

void csc_gro_prepare(const struct csc_frame *f, const struct csc_result *r,
                     struct csc_gro_input *in)
{
    csc_gro_prepare_walk(f, r, in, NULL);
}

void csc_gro_prepare_walk(const struct csc_frame *f, const struct csc_result *r,
                          struct csc_gro_input *in, const struct csc_gro_walk *w)
{
    const struct csc_kernel *k = &r->kernel;
    in->ran = k->ran;
    in->ndevs = 0;
    if (!k->ran)
        return;
    in->sw_passes = k->sw_passes;
    in->sw_bytes = k->sw_bytes;
    in->nic_passes = k->devs[0].gro_passes;
    in->nic_bytes = k->devs[0].gro_pass_bytes;
    in->later_passes = k->sw_passes - k->devs[0].gro_passes;
    in->later_bytes = k->sw_bytes - k->devs[0].gro_pass_bytes;
    unsigned n = k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS;
    /* a frame that completed a datagram (csc_frag_feed): the NIC saw a
     * fragment, no TCP segment; the layers and devices of the datagram
     * that follow are not f's bytes */
    bool reassembled = k->reasm_dev != CSC_NO_DEV;
    if (reassembled && k->reasm_dev < n)
        n = k->reasm_dev;
    uint8_t l0s[CSC_MAX_DEVS];
    for (unsigned i = 0; i < n; i++) {
        const struct csc_dev *kd = &k->devs[i];
        struct csc_gro_seg *sg = &in->dev[i];
        l0s[i] = kd->layer;
        sg->kind = kd->kind;
        sg->gro_ran = kd->gro_ran;
        sg->gro_reason = kd->gro_reason;
        sg->layer = kd->layer;
    }
    unsigned nl = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    if (n && !reassembled && w && w->made && w->n == nl)
        segments_walk(f, r, w, l0s, n, in->dev);
    else if (n && !reassembled)
        segments_all(f, r, l0s, n, in->dev);
    for (unsigned i = 0; reassembled && i < n; i++)
        in->dev[i].tcp = 0;
    in->ndevs = (uint8_t)n;
}

void csc_gro_feed_input(struct csc_gro *g, const struct csc_gro_input *in, uint64_t frame_no,
                        uint64_t ts_us, struct csc_gro_decision *d)
{
    if (d)
        d->n = 0;
    g->frames++;
    if (!in->ran)
        return;
    g->passes_single += in->sw_passes;
    g->bytes_single += in->sw_bytes;
    /* At the NIC, GRO passes are spent per segment whatever happens. */
    g->passes_merged += in->nic_passes;
    g->bytes_merged += in->nic_bytes;
    bool merged_at_nic = false;
    struct csc_gro_held *nic_new = NULL;
    bool nic_held = false;              /* the frame waits in the NIC's GRO list */
    for (unsigned i = 0; i < in->ndevs; i++) {
        uint8_t dev = dev_index(g, in->dev[i].kind, (uint8_t)i);
        if (dev == CSC_GRO_NO_DEV) {
            g->frames_devs_full++;
            break;
        }
        /* A frame merged into a NIC super-packet reaches the tunnel device
         * inside it, not on its own (see gro.h). */
        if (i > 0 && merged_at_nic)
            break;
        struct csc_gro_fate fate = feed_dev(g, dev, &in->dev[i], in, frame_no, ts_us, nic_held);
        if (i == 0) {
            merged_at_nic = fate.merged;
            nic_held = fate.held;
        } else if (nic_new) {                /* where the NIC's new packet goes next */
            nic_new->next_dev = dev;
            nic_new->next_key = in->dev[i].key;
            nic_new = NULL;
        }
        if (i == 0 && fate.held && !fate.merged)
            nic_new = find_held(g, dev, in->dev[0].key);
        if (d)
            d->fate[d->n++] = fate;
    }
    prefetch_victim(g);   /* for the next frame */
}

void csc_gro_feed(struct csc_gro *g, const struct csc_frame *f, const struct csc_result *r,
                  uint64_t frame_no, uint64_t ts_us, struct csc_gro_decision *d)
{
    struct csc_gro_input in;
    csc_gro_prepare(f, r, &in);
    csc_gro_feed_input(g, &in, frame_no, ts_us, d);
}

void csc_gro_finish(struct csc_gro *g)
{
    for (uint8_t i = 0; i < CSC_GRO_DEVS; i++)
        if (g->dev[i].used)
            flush_held(g, i, CSC_GF_END, 0, 0);
}
