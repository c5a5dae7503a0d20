/*
 * frag.c - checksum-only IP reassembly (see include/csumcheck/frag.h).
 * RFC 791 §3.2 (IPv4 fragments), RFC 8200 §4.5 (IPv6 fragment header).
 */
#include "csum.h"
#include "pkt.h"
#include "proto/wire.h"

#include "csumcheck/frag.h"

#include <string.h>

void csc_frag_init(struct csc_frag_table *t)
{
    memset(t, 0, sizeof *t);
    t->newest = t->oldest = CSC_FRAG_NIL;
    t->nfree = CSC_FRAG_SLOTS;
    for (unsigned i = 0; i < CSC_FRAG_SLOTS; i++)
        t->free[i] = (uint8_t)(CSC_FRAG_SLOTS - 1 - i);   /* slot 0 first */
}

_Static_assert(CSC_FRAG_SLOTS < CSC_FRAG_NIL && (CSC_FRAG_INDEX & (CSC_FRAG_INDEX - 1)) == 0,
               "slot indices fit the LRU links, the index is a power of two");

/* ---- the table: a hash index (linear probing) and an LRU list ---- */

static unsigned home_of(const struct csc_frag_entry *k)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)k->id << 16) ^ ((uint64_t)k->proto << 8) ^ k->v6;
    for (unsigned i = 0; i < 16; i += 8) {
        uint64_t a, b;
        memcpy(&a, k->saddr + i, 8);
        memcpy(&b, k->daddr + i, 8);
        h = (h ^ a) * 0x9e3779b97f4a7c15ull;
        h = (h ^ b) * 0x9e3779b97f4a7c15ull;
    }
    return (unsigned)(h >> 40) & (CSC_FRAG_INDEX - 1);
}

static bool same_datagram(const struct csc_frag_entry *e, const struct csc_frag_entry *k)
{
    return e->v6 == k->v6 && e->proto == k->proto && e->id == k->id &&
           !memcmp(e->saddr, k->saddr, 16) && !memcmp(e->daddr, k->daddr, 16);
}

static void index_add(struct csc_frag_table *t, const struct csc_frag_entry *e)
{
    unsigned i = home_of(e);
    while (t->index[i])
        i = (i + 1) & (CSC_FRAG_INDEX - 1);
    t->index[i] = (uint8_t)(e - t->e + 1);
}

static void index_del(struct csc_frag_table *t, const struct csc_frag_entry *e)
{
    uint8_t want = (uint8_t)(e - t->e + 1);
    unsigned i = home_of(e);
    while (t->index[i] != want) {
        if (!t->index[i])
            return;
        i = (i + 1) & (CSC_FRAG_INDEX - 1);
    }
    /* backward shift: later entries of the cluster move into the hole
     * unless their home lies cyclically in (i, j] */
    for (unsigned j = (i + 1) & (CSC_FRAG_INDEX - 1);; j = (j + 1) & (CSC_FRAG_INDEX - 1)) {
        uint8_t v = t->index[j];
        if (!v)
            break;
        unsigned home = home_of(&t->e[v - 1]);
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            t->index[i] = v;
            i = j;
        }
    }
    t->index[i] = 0;
}

static void lru_unlink(struct csc_frag_table *t, struct csc_frag_entry *e)
{
    if (e->newer != CSC_FRAG_NIL)
        t->e[e->newer].older = e->older;
    else
        t->newest = e->older;
    if (e->older != CSC_FRAG_NIL)
        t->e[e->older].newer = e->newer;
    else
        t->oldest = e->newer;
}

static void lru_push_newest(struct csc_frag_table *t, struct csc_frag_entry *e)
{
    uint8_t i = (uint8_t)(e - t->e);
    e->newer = CSC_FRAG_NIL;
    e->older = t->newest;
    if (t->newest != CSC_FRAG_NIL)
        t->e[t->newest].newer = i;
    else
        t->oldest = i;
    t->newest = i;
}

static void entry_free(struct csc_frag_table *t, struct csc_frag_entry *e)
{
    t->bytes -= e->bytes;
    index_del(t, e);
    lru_unlink(t, e);
    memset(e, 0, sizeof *e);
    t->free[t->nfree++] = (uint8_t)(e - t->e);
}

static struct csc_frag_entry *lookup(struct csc_frag_table *t, const struct csc_frag_entry *k)
{
    for (unsigned i = home_of(k);; i = (i + 1) & (CSC_FRAG_INDEX - 1)) {
        uint8_t v = t->index[i];
        if (!v)
            return NULL;
        if (same_datagram(&t->e[v - 1], k))
            return &t->e[v - 1];
    }
}

/* A new entry for datagram k: a free slot, or the least recently fed
 * datagram's (evicted, counted). */
static struct csc_frag_entry *alloc_entry(struct csc_frag_table *t, const struct csc_frag_entry *k)
{
    if (!t->nfree) {
        t->evicted++;
        entry_free(t, &t->e[t->oldest]);
    }
    struct csc_frag_entry *e = &t->e[t->free[--t->nfree]];
    *e = *k;
    e->used = 1;
    index_add(t, e);
    lru_push_newest(t, e);
    return e;
}

/* e was fed a fragment: it becomes the most recent */
static void touch(struct csc_frag_table *t, struct csc_frag_entry *e, uint64_t frame_no)
{
    e->last_frame = frame_no;
    if (t->newest != e - t->e) {
        lru_unlink(t, e);
        lru_push_newest(t, e);
    }
}

/* Add [a, b); false on overlap. Ranges stay sorted and merged. */
static bool add_range(struct csc_frag_entry *e, uint32_t a, uint32_t b, bool *full)
{
    *full = false;
    for (unsigned i = 0; i < e->nranges; i++)
        if (a < e->r[i].b && e->r[i].a < b)
            return false;
    unsigned pos = 0;
    while (pos < e->nranges && e->r[pos].a < a)
        pos++;
    if (e->nranges == CSC_FRAG_RANGES) {
        *full = true;
        return true;
    }
    memmove(&e->r[pos + 1], &e->r[pos], (e->nranges - pos) * sizeof e->r[0]);
    e->r[pos] = (struct csc_frag_range){ a, b };
    e->nranges++;
    unsigned w = 0;
    for (unsigned i = 0; i < e->nranges; i++) {
        if (w && e->r[w - 1].b == e->r[i].a)
            e->r[w - 1].b = e->r[i].b;
        else
            e->r[w++] = e->r[i];
    }
    e->nranges = (uint8_t)w;
    return true;
}

static uint8_t l4_of(uint8_t proto)
{
    switch (proto) {
    case IPPROTO_UDP_: return CSC_P_UDP;
    case IPPROTO_TCP_: return CSC_P_TCP;
    case IPPROTO_ICMP_: return CSC_P_ICMP;
    case IPPROTO_ICMPV6_: return CSC_P_ICMPV6;
    default: return CSC_P_NONE;
    }
}

static void complete(struct csc_frag_table *t, struct csc_frag_entry *e, struct csc_result *r,
                     const struct csc_layer *ip, uint32_t pay)
{
    t->completed++;
    if (l4_of(e->proto) == CSC_P_NONE)
        return;
    /* Completed by its first fragment: that frame already has the L4 layer. */
    struct csc_layer *l = NULL;
    for (unsigned i = (unsigned)(ip - r->layers) + 1; i < r->nlayers; i++)
        if (r->layers[i].off == pay && r->layers[i].proto == l4_of(e->proto))
            l = &r->layers[i];
    if (!l && r->nlayers >= CSC_MAX_LAYERS)
        return;
    if (!l)
        l = &r->layers[r->nlayers++];
    memset(l, 0, sizeof *l);
    l->proto = l4_of(e->proto);
    l->off = pay;
    l->end = ip->end;
    l->ip = (uint8_t)(ip - r->layers);
    l->notes = CSC_N_FRAGMENT;
    l->csum_off = CSC_NO_OFF;
    l->cov_off = l->cov_end = CSC_NO_OFF;
    if (e->overlap) {                 /* which copy of the bytes counts is a policy */
        l->verdict = CSC_V_UNVERIFIABLE;
        l->reason = CSC_R_FRAG_OVERLAP;
        return;
    }
    /* A UDP length shorter than the datagram: the kernel trims to it. */
    uint32_t len = e->total, sum = e->sum;
    if (l->proto == CSC_P_UDP && e->ulen && e->ulen != e->total) {
        uint32_t trail = e->total - e->ulen;
        if (e->ulen > e->total || trail > e->tail_len) {
            l->verdict = CSC_V_UNVERIFIABLE;
            l->reason = CSC_R_LEN_MISMATCH;
            return;
        }
        uint32_t ts = csum_partial(e->tail + e->tail_len - trail, trail, 0);
        sum = csum_block_sub(sum, ts, e->ulen);
        len = e->ulen;
    }
    uint32_t pseudo = 0;
    if (l->proto != CSC_P_ICMP) {
        pseudo = csum_add(e->addrsum, e->proto);
        pseudo = csum_add(pseudo, len >> 16);
        pseudo = csum_add(pseudo, len & 0xffff);
        if (e->v6)
            pseudo = 0xffff0000u | fold16(pseudo);
    }
    l->pseudo = pseudo;
    l->reason = CSC_R_FRAG_REASSEMBLED;
    l->k.ok = CSC_TRI_UNDECIDED;      /* the replay did not decide this one */
    /* The first fragment told us the field and where it sits (UDP 6,
     * TCP 16, ICMP 2: even offsets into the datagram). */
    l->field = (uint16_t)(e->csum_at >> 16);
    uint32_t at = e->csum_at & 0xffff;
    uint32_t s0 = csum_sub(sum, csum_word_at(l->field, at));
    l->expected = csum_fold(csum_add(pseudo, s0));
    if (l->proto == CSC_P_UDP && l->expected == 0)
        l->expected = CSUM_MANGLED_0;
    if (l->proto == CSC_P_UDP && l->field == 0) {
        l->verdict = e->v6 ? CSC_V_ZERO6 : CSC_V_NONE;
    } else if (csum_valid_total(csum_add(pseudo, sum))) {
        l->verdict = CSC_V_GOOD;
    } else {
        l->verdict = CSC_V_BAD;
    }
    if (csc_verdict_rank(l->verdict) > csc_verdict_rank(r->worst))
        r->worst = l->verdict;
}

bool csc_frag_feed(struct csc_frag_table *t, const struct csc_frame *f, struct csc_result *r,
                   uint64_t frame_no)
{
    /* The innermost IP layer that is a fragment. */
    int ipi = -1;
    for (int i = (int)r->nlayers - 1; i >= 0; i--)
        if ((r->layers[i].proto == CSC_P_IPV4 || r->layers[i].proto == CSC_P_IPV6) &&
            (r->layers[i].notes & CSC_N_FRAGMENT) && !(r->layers[i].notes & CSC_N_QUOTED)) {
            ipi = i;
            break;
        }
    if (ipi < 0)
        return false;
    const struct csc_layer *ip = &r->layers[ipi];
    struct pkt p = { f->data, f->caplen < f->wirelen ? f->caplen : f->wirelen, f->wirelen };
    struct csc_frag_entry k;
    memset(&k, 0, sizeof k);
    uint32_t foff = 0, more = 0, pay = ip->off + ip->hdr_len;
    uint16_t fo = ip->u.ip.frag_off;
    k.proto = (uint8_t)ip->next;
    if (!csc_ip_addresses(f, ip->proto, ip->u.ip.addr_off, k.saddr, k.daddr))
        return false;
    if (ip->proto == CSC_P_IPV4) {
        foff = (fo & IP_OFFSET) * IP_FRAG_UNIT;
        more = fo & IP_MF;
    } else {
        k.v6 = 1;
        foff = (uint32_t)(fo >> IP6_OFFSET_SHIFT) * IP_FRAG_UNIT;
        more = fo & IP6_MF;
    }
    k.id = ip->u.ip.id;
    uint32_t len = ip->end > pay ? ip->end - pay : 0;
    uint32_t sum;
    if (ip->notes & CSC_N_LEN_EXCEEDS || !csc_region_sum(r, pay, ip->end, &sum)) {
        t->dropped++;
        return false;                 /* not captured in full: cannot account it */
    }
    k.addrsum = ip->pseudo;
    struct csc_frag_entry *e = lookup(t, &k);
    if (!e)
        e = alloc_entry(t, &k);
    touch(t, e, frame_no);
    bool full;
    if (!add_range(e, foff, foff + len, &full))
        e->overlap = 1, t->overlaps++;
    if (full) {
        t->dropped++;
        entry_free(t, e);
        return false;
    }
    e->sum = csum_add(e->sum, sum);
    e->bytes += len;
    t->bytes += len;
    if (foff == 0) {
        e->have_first = 1;
        /* L4 header facts from the first fragment's decoded layer. */
        for (unsigned i = (unsigned)ipi + 1; i < r->nlayers; i++)
            if (r->layers[i].csum_off != CSC_NO_OFF && r->layers[i].off == pay) {
                uint32_t at = r->layers[i].csum_off - pay;
                e->csum_at = ((uint32_t)r->layers[i].field << 16) | at;
                if (r->layers[i].proto == CSC_P_UDP)
                    e->ulen = r->layers[i].cov_end - r->layers[i].cov_off;
                if (r->layers[i].proto == CSC_P_UDP) {
                    uint16_t ul = 0;
                    pkt_be16(&p, pay + WIRE_OFF(udp_hdr, len), &ul);  /* not the fragment's share */
                    e->ulen = ul;
                }
                break;
            }
    }
    if (!more) {
        e->have_last = 1;
        e->total = foff + len;
        e->tail_len = (uint8_t)(len < sizeof e->tail ? len : sizeof e->tail);
        pkt_copy(&p, ip->end - e->tail_len, e->tail_len, e->tail);
    }
    /* over the byte bound: the least recently fed datagrams go (e, just
     * fed, is the newest and stays) */
    while (t->bytes > CSC_FRAG_MAX_BYTES && t->oldest != e - t->e) {
        t->evicted++;
        entry_free(t, &t->e[t->oldest]);
    }
    if (e->have_first && e->have_last && e->nranges == 1 && e->r[0].a == 0 &&
        e->r[0].b == e->total) {
        complete(t, e, r, ip, pay);
        entry_free(t, e);
        return true;
    }
    if (e->have_first && e->have_last && e->overlap) {
        complete(t, e, r, ip, pay);
        entry_free(t, e);
        return true;
    }
    return false;
}
