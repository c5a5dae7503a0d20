/*
 * flows.c - the per-flow table of --flows (flows.h).
 *
 * A table of FLOW_TABLE entries per file, an open-addressing index of
 * twice as many slots (linear probing, a stored hash compared before the
 * key, backward-shift deletion) and an LRU list through the entries: a
 * frame costs one hash, a probe or two and a list move, whatever the
 * number of flows. When the table is full, the least recently seen flow is
 * pushed out: written out (out(), JSON: a flow record marked "evicted")
 * and offered to the file's worst-N, then counted. A flow that comes back
 * starts again from zero, as NetFlow does: its records add up.
 *
 * The worst N (drops, then software passes, ...) are kept per file in a
 * small heap and merged into the run's at the end of the file, so the
 * run's list is the same whatever order -j files end in, and --merge gets
 * the same list from the shards' lists (a flow belongs to one file).
 */
#include "flows.h"

#include "stats.h"

#include <glib.h>
#include <string.h>

#define FLOW_SLOTS (2 * FLOW_TABLE)
#define NONE UINT32_MAX

struct flow_entry {
    struct cli_flow fl;
    uint32_t hash;
    uint32_t prev, next;          /* LRU: prev toward the most recent */
};

struct flow_table {
    unsigned file, top;
    flow_out_fn out;
    void *ctx;
    uint32_t n, head, tail;       /* head: most recently seen */
    uint64_t made, evicted, unnamed;
    uint32_t slot[FLOW_SLOTS];    /* entry index + 1, 0 empty */
    struct flow_entry e[FLOW_TABLE];
    struct cli_flow_totals worst; /* this file's worst N */
};

/* ---- one frame's flow -------------------------------------------------------- */

void flow_obs_of(struct flow_obs *ob, const struct csc_frame *f, const struct csc_result *r,
                 uint32_t findings)
{
    const struct csc_layer *ip = NULL, *l4 = NULL;
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    memset(ob, 0, sizeof *ob);
    for (unsigned i = 0; i < n; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_QUOTED)
            break;                /* an ICMP error's quote is not this frame's flow */
        if (l->proto == CSC_P_IPV4 || l->proto == CSC_P_IPV6) {
            ip = l;
            l4 = NULL;
        } else if (ip && !l4 && (l->proto == CSC_P_UDP || l->proto == CSC_P_TCP ||
                                 l->proto == CSC_P_ICMP || l->proto == CSC_P_ICMPV6)) {
            l4 = l;
        } else if (!ob->id.tunnel && csc_proto_is_tunnel(l->proto)) {
            ob->id.tunnel = (uint8_t)l->proto;
            ob->id.tunnel_id = csc_layer_id(l);
        }
    }
    struct cli_endpoint *e = &ob->id.inner;
    if (!ip || !csc_ip_addresses(f, ip->proto, ip->u.ip.addr_off, e->src, e->dst))
        return;
    e->family = ip->proto == CSC_P_IPV6 ? CLI_FAMILY_IPV6 : CLI_FAMILY_IPV4;
    if (l4) {
        e->l4 = (uint8_t)l4->proto;
        if (l4->proto == CSC_P_UDP || l4->proto == CSC_P_TCP) {
            e->sport = l4->u.ports.sport;
            e->dport = l4->u.ports.dport;
        }
    }
    if (!tunnel_has_id(&ob->id))
        ob->id.tunnel_id = 0;
    ob->named = 1;
    ob->sw_passes = r->kernel.ran ? r->kernel.sw_passes : 0;
    ob->sw_bytes = r->kernel.ran ? r->kernel.sw_bytes : 0;
    ob->drop = (findings >> FD_DROP) & 1;
    ob->bad = (findings >> FD_BAD) & 1;
}

/* ---- ranking and the worst N ---------------------------------------------------- */

int flow_rank(const struct cli_flow *a, const struct cli_flow *b)
{
    const uint64_t x[] = { a->drops, a->sw_passes, a->bad, a->frames };
    const uint64_t y[] = { b->drops, b->sw_passes, b->bad, b->frames };
    for (size_t i = 0; i < G_N_ELEMENTS(x); i++)
        if (x[i] != y[i])
            return x[i] > y[i] ? -1 : 1;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->id.first_frame != b->id.first_frame)
        return a->id.first_frame < b->id.first_frame ? -1 : 1;
    return a->evicted == b->evicted ? 0 : a->evicted ? -1 : 1;
}

void flow_totals_init(struct cli_flow_totals *t)
{
    memset(t, 0, sizeof *t);
    t->top = g_new(struct cli_flow, CLI_TOP_FLOWS_MAX + 1);
}

void flow_totals_free(struct cli_flow_totals *t)
{
    g_free(t->top);
    t->top = NULL;
}

/* top[] sorted worst first, at most `top` long: an insertion (top is small;
 * a file offers its flows once, at its end or when one is evicted) */
void flow_totals_offer(struct cli_flow_totals *t, const struct cli_flow *fl, unsigned top)
{
    if (!top || (t->ntop == top && flow_rank(fl, &t->top[t->ntop - 1]) >= 0))
        return;
    unsigned i = t->ntop < top ? t->ntop++ : t->ntop - 1;
    while (i > 0 && flow_rank(fl, &t->top[i - 1]) < 0) {
        t->top[i] = t->top[i - 1];
        i--;
    }
    t->top[i] = *fl;
}

/* ---- the table ------------------------------------------------------------------ */

static uint32_t flow_hash(const struct cli_flow_id *id)
{
    /* the key's bytes: tunnel, its id and the inner endpoint (no padding
     * read: the endpoint's fields are hashed one by one) */
    const struct cli_endpoint *e = &id->inner;
    uint64_t h = ((uint64_t)id->tunnel << 56) ^ ((uint64_t)id->tunnel_id << 24) ^
                 ((uint64_t)e->family << 16) ^ e->l4;
    h ^= ((uint64_t)e->sport << 32 | e->dport) * 0x9e3779b97f4a7c15ull;
    uint64_t w[4];
    memcpy(w, e->src, 16);
    memcpy(w + 2, e->dst, 16);
    for (int i = 0; i < 4; i++) {
        h ^= w[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static bool same_flow(const struct cli_flow_id *a, const struct cli_flow_id *b)
{
    const struct cli_endpoint *x = &a->inner, *y = &b->inner;
    return a->tunnel == b->tunnel && a->tunnel_id == b->tunnel_id && x->family == y->family &&
           x->l4 == y->l4 && x->sport == y->sport && x->dport == y->dport &&
           !memcmp(x->src, y->src, 16) && !memcmp(x->dst, y->dst, 16);
}

struct flow_table *flow_table_new(unsigned file, flow_out_fn out, void *ctx, unsigned top)
{
    struct flow_table *t = g_malloc(sizeof *t);
    t->file = file;
    t->top = top;
    t->out = out;
    t->ctx = ctx;
    t->n = 0;
    t->head = t->tail = NONE;
    t->made = t->evicted = t->unnamed = 0;
    memset(t->slot, 0, sizeof t->slot);   /* the entries are written before they are read */
    flow_totals_init(&t->worst);
    return t;
}

void flow_table_free(struct flow_table *t)
{
    if (!t)
        return;
    flow_totals_free(&t->worst);
    g_free(t);
}

static void lru_unlink(struct flow_table *t, uint32_t i)
{
    struct flow_entry *e = &t->e[i];
    if (e->prev != NONE)
        t->e[e->prev].next = e->next;
    else
        t->head = e->next;
    if (e->next != NONE)
        t->e[e->next].prev = e->prev;
    else
        t->tail = e->prev;
}

static void lru_push(struct flow_table *t, uint32_t i)
{
    struct flow_entry *e = &t->e[i];
    e->prev = NONE;
    e->next = t->head;
    if (t->head != NONE)
        t->e[t->head].prev = i;
    t->head = i;
    if (t->tail == NONE)
        t->tail = i;
}

/* the slot of entry i, found from its hash */
static uint32_t slot_of(const struct flow_table *t, uint32_t i)
{
    uint32_t s = t->e[i].hash & (FLOW_SLOTS - 1);
    while (t->slot[s] != i + 1)
        s = (s + 1) & (FLOW_SLOTS - 1);
    return s;
}

/* backward-shift deletion: the entries after the hole that belong before it move up */
static void slot_delete(struct flow_table *t, uint32_t s)
{
    uint32_t hole = s;
    t->slot[hole] = 0;
    for (uint32_t j = (hole + 1) & (FLOW_SLOTS - 1); t->slot[j]; j = (j + 1) & (FLOW_SLOTS - 1)) {
        uint32_t home = t->e[t->slot[j] - 1].hash & (FLOW_SLOTS - 1);
        /* j may move to the hole unless its home lies in (hole, j] */
        bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (stays)
            continue;
        t->slot[hole] = t->slot[j];
        t->slot[j] = 0;
        hole = j;
    }
}

/* the least recently seen flow out: written, offered, its entry free */
static uint32_t evict(struct flow_table *t)
{
    uint32_t v = t->tail;
    struct flow_entry *e = &t->e[v];
    e->fl.evicted = true;
    t->out(t->ctx, &e->fl);
    flow_totals_offer(&t->worst, &e->fl, t->top);
    slot_delete(t, slot_of(t, v));
    lru_unlink(t, v);
    t->evicted++;
    return v;
}

void flow_table_feed(struct flow_table *t, const struct flow_obs *ob, uint64_t frame)
{
    if (!ob->named) {
        t->unnamed++;
        return;
    }
    uint32_t h = flow_hash(&ob->id), s = h & (FLOW_SLOTS - 1), i;
    for (; t->slot[s]; s = (s + 1) & (FLOW_SLOTS - 1)) {
        i = t->slot[s] - 1;
        if (t->e[i].hash == h && same_flow(&t->e[i].fl.id, &ob->id))
            goto found;
    }
    if (t->n < FLOW_TABLE) {
        i = t->n++;
    } else {
        i = evict(t);
        for (s = h & (FLOW_SLOTS - 1); t->slot[s]; s = (s + 1) & (FLOW_SLOTS - 1))
            ;                     /* the deletion moved slots: find a free one again */
    }
    t->slot[s] = i + 1;
    memset(&t->e[i].fl, 0, sizeof t->e[i].fl);
    t->e[i].fl.id = ob->id;
    t->e[i].fl.id.first_frame = frame;
    t->e[i].fl.file = t->file;
    t->e[i].hash = h;
    t->made++;
    lru_push(t, i);
    goto count;
found:
    if (t->head != i) {
        lru_unlink(t, i);
        lru_push(t, i);
    }
count:;
    struct cli_flow *fl = &t->e[i].fl;
    fl->frames++;
    fl->drops += ob->drop;
    fl->bad += ob->bad;
    fl->sw_passes += ob->sw_passes;
    fl->sw_bytes += ob->sw_bytes;
}

static int by_first_frame(const void *pa, const void *pb)
{
    const struct cli_flow *a = pa, *b = pb;
    return a->id.first_frame < b->id.first_frame ? -1 : a->id.first_frame > b->id.first_frame;
}

void flow_table_finish(struct flow_table *t)
{
    struct cli_flow *all = g_new(struct cli_flow, t->n ? t->n : 1);
    for (uint32_t i = 0; i < t->n; i++)
        all[i] = t->e[i].fl;
    qsort(all, t->n, sizeof all[0], by_first_frame);
    for (uint32_t i = 0; i < t->n; i++) {
        t->out(t->ctx, &all[i]);
        flow_totals_offer(&t->worst, &all[i], t->top);
    }
    g_free(all);
}

void flow_table_merge(struct cli_flow_totals *into, const struct flow_table *t, unsigned top)
{
    into->flows += t->made;
    into->evicted += t->evicted;
    into->frames_unnamed += t->unnamed;
    for (unsigned i = 0; i < t->worst.ntop; i++)
        flow_totals_offer(into, &t->worst.top[i], top);
}
