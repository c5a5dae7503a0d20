/*
 * frag.c - bounded IP reassembly (see include/csumcheck/frag.h).
 * RFC 791 §3.2 (IPv4 fragments), RFC 8200 §4.5 (IPv6 fragment header).
 *
 * With a byte store attached, the datagram is rebuilt as the kernel rebuilds
 * it (ip_frag_reasm, net/ipv4/ip_fragment.c; ip6_frag_reasm,
 * net/ipv6/reassembly.c; v6.12): the first fragment's header - IPv4 with its
 * options, total length set, frag_off cleared (IP_DF kept when the largest
 * fragment had it) and the header checksum recomputed (ip_send_check); IPv6
 * up to the fragment header, which is removed (the next-header byte that
 * named it takes its next header), payload length set - then the payload.
 *
 *   slot area:  [ ... room ... | first fragment's header | payload ... ]
 *                               ^ the datagram frame       ^ CSC_FRAG_HDR_ROOM
 */
#include "csum.h"
#include "pkt.h"
#include "slots.h"
#include "proto/wire.h"
#include "replay/replay.h"

#include "csumcheck/frag.h"

#include <string.h>

void csc_frag_init(struct csc_frag_table *t)
{
    memset(t, 0, sizeof *t);
    lru_init(&t->lru);
    t->nfree = CSC_FRAG_SLOTS;
    for (unsigned i = 0; i < CSC_FRAG_SLOTS; i++)
        t->free[i] = (uint8_t)(CSC_FRAG_SLOTS - 1 - i);   /* slot 0 first */
}

void csc_frag_attach(struct csc_frag_table *t, const struct csc_config *cfg, uint8_t *store)
{
    t->cfg = cfg;
    t->store = cfg ? store : NULL;
}

_Static_assert(CSC_FRAG_SLOTS < CSC_SLOT_NIL && CSC_FRAG_INDEX <= 65536 &&
               (CSC_FRAG_INDEX & (CSC_FRAG_INDEX - 1)) == 0 && CSC_FRAG_INDEX >= 4 * CSC_FRAG_SLOTS,
               "slots fit the LRU links; the home fits the 16-bit tag; load <= 1/4");

/* ---- the table: a bounded table of datagrams (core/slots.h) ---- */

/* the datagram's index hash (its low bits are its home) */
static uint32_t tag_of(const struct csc_frag_entry *k)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)k->id << 16) ^ ((uint64_t)k->proto << 8) ^ k->v6;
    for (unsigned i = 0; i < 16; i += 8) {
        uint64_t a, b;
        memcpy(&a, k->saddr + i, 8);
        memcpy(&b, k->daddr + i, 8);
        h = (h ^ a) * 0x9e3779b97f4a7c15ull;
        h = (h ^ b) * 0x9e3779b97f4a7c15ull;
    }
    return (uint32_t)(h >> 40) & 0xffff;
}

static bool same_datagram(const struct csc_frag_entry *e, const struct csc_frag_entry *k)
{
    return e->v6 == k->v6 && e->proto == k->proto && e->id == k->id &&
           !memcmp(e->saddr, k->saddr, 16) && !memcmp(e->daddr, k->daddr, 16);
}

static unsigned slot_of(const struct csc_frag_table *t, const struct csc_frag_entry *e)
{
    return (unsigned)(e - t->e);
}

static void entry_free(struct csc_frag_table *t, struct csc_frag_entry *e)
{
    t->bytes -= e->bytes;
    index_del(t->index, CSC_FRAG_INDEX, tag_of(e), slot_of(t, e));
    lru_unlink(&t->lru, t->lru_link, slot_of(t, e));
    memset(e, 0, sizeof *e);
    t->free[t->nfree++] = (uint8_t)slot_of(t, e);
}

static struct csc_frag_entry *lookup(struct csc_frag_table *t, const struct csc_frag_entry *k)
{
    uint32_t tag = tag_of(k);
    unsigned at = index_home(tag, CSC_FRAG_INDEX);
    for (int i; (i = index_next(t->index, CSC_FRAG_INDEX, tag, &at)) >= 0;)
        if (same_datagram(&t->e[i], k))
            return &t->e[i];
    return NULL;
}

/* A new entry for datagram k: a free slot, or the least recently fed
 * datagram's (evicted, counted). */
static struct csc_frag_entry *alloc_entry(struct csc_frag_table *t, const struct csc_frag_entry *k)
{
    if (!t->nfree) {
        t->evicted++;
        entry_free(t, &t->e[t->lru.oldest]);
    }
    struct csc_frag_entry *e = &t->e[t->free[--t->nfree]];
    *e = *k;
    e->used = 1;
    index_add(t->index, CSC_FRAG_INDEX, tag_of(e), slot_of(t, e));
    lru_push_newest(&t->lru, t->lru_link, slot_of(t, e));
    return e;
}

/* e was fed a fragment: it becomes the most recent */
static void touch(struct csc_frag_table *t, struct csc_frag_entry *e, uint64_t frame_no)
{
    e->last_frame = frame_no;
    lru_touch(&t->lru, t->lru_link, slot_of(t, e));
}

enum add { ADD_OK, ADD_OVERLAP, ADD_DUP, ADD_FULL };

/* inet_frag_queue_insert (net/ipv4/inet_fragment.c, v6.12 and 7.2.13; the
 * same since the rbtree of runs, v5.1, so on Debian's 5.10 and 6.1 too):
 * the queue is a sorted list of runs. A fragment ending beyond every run
 * either extends the last run (it starts where that ends), starts a new one
 * after it, or overlaps it; any other fragment is looked up among the runs:
 * inside one it is a duplicate (IPFRAG_DUP: this skb dropped, the queue
 * lives on), touching one otherwise an overlap (IPFRAG_OVERLAP), and in a
 * gap a run of its own, never merged with its neighbours - so a fragment
 * spanning two runs is an overlap even where the bytes agree. */
static enum add queue_insert(struct csc_frag_entry *e, uint32_t a, uint32_t b)
{
    unsigned n = e->nranges, pos = n;
    if (n && e->r[n - 1].b < b) {                 /* to the end */
        if (a < e->r[n - 1].b)
            return ADD_OVERLAP;
        if (a == e->r[n - 1].b) {                 /* fragrun_append_to_last */
            e->r[n - 1].b = b;
            return ADD_OK;
        }
    } else {
        for (pos = 0; pos < n && e->r[pos].b <= a; pos++)
            ;
        if (pos < n && e->r[pos].a < b)
            return a >= e->r[pos].a && b <= e->r[pos].b ? ADD_DUP : ADD_OVERLAP;
    }
    if (n == CSC_FRAG_RANGES)
        return ADD_FULL;
    memmove(&e->r[pos + 1], &e->r[pos], (n - pos) * sizeof e->r[0]);
    e->r[pos] = (struct csc_frag_range){ a, b };
    e->nranges++;
    return ADD_OK;
}

/* Why ip_frag_queue / ip6_frag_queue kill the queue before the insert
 * (discard_qp / discard_fq: inet_frag_kill, IpReasmFails; v6.12 and
 * 7.2.13): a last fragment ending below what the queue has, or a second
 * last ending elsewhere; a fragment with more to come ending beyond a known
 * last. Otherwise the queue's length (q.len) grows to the fragment's end and
 * a last one sets it (INET_FRAG_LAST_IN) - before the insert, which may
 * still find a duplicate. */
static bool queue_len_refused(struct csc_frag_entry *e, uint32_t end, bool more)
{
    if (!more) {
        if (end < e->qlen || (e->have_last && end != e->qlen))
            return true;
        e->have_last = 1;
        e->total = e->qlen = end;
        return false;
    }
    if (end > e->qlen) {
        if (e->have_last)
            return true;
        e->qlen = end;
    }
    return false;
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
    if (!l) {
        l = &r->layers[r->nlayers++];
        if (r->stop != CSC_STOP_END)  /* the stop rides on the last layer (csc_result.stop_layer) */
            r->stop_layer = (uint8_t)(r->nlayers - 1u);
    }
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
    /* A UDP length shorter than the datagram: __udp4_lib_rcv /
     * __udp6_lib_rcv trim the skb to it (pskb_trim_rcsum, v6.12) and check
     * what is left, as tshark does: the sum of the first ulen bytes (every
     * share of them fed, none fed before the first fragment below it), or
     * the whole sum less a short tail. */
    uint32_t len = e->total, sum = e->sum;
    if (l->proto == CSC_P_UDP && e->ulen && e->ulen != e->total) {
        uint32_t trail = e->total - e->ulen;
        if (e->ulen < e->total && !e->usum_lost && (!e->early || e->early_min >= e->ulen)) {
            sum = e->usum;
        } else if (e->ulen > e->total || trail > e->tail_len) {
            l->field = (uint16_t)(e->csum_at >> 16);
            l->verdict = CSC_V_UNVERIFIABLE;
            l->reason = CSC_R_LEN_MISMATCH;
            return;
        } else {
            uint32_t ts = csum_partial(e->tail + e->tail_len - trail, trail, 0);
            sum = csum_block_sub(sum, ts, e->ulen);
        }
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

/* A fragment's share of the datagram's first ulen bytes (UDP: the length
 * the datagram is trimmed to, see complete()): known once the first
 * fragment told ulen; of a fragment fed before that, only its offset is
 * kept (its share is nothing when it starts at ulen or after). */
static void add_udp_share(struct csc_frag_entry *e, const struct pkt *p, uint32_t pay, uint32_t foff,
                          uint32_t len, uint32_t sum)
{
    if (l4_of(e->proto) != CSC_P_UDP)
        return;
    if (!e->have_first) {
        if (!e->early || foff < e->early_min)
            e->early_min = foff;
        e->early = 1;
        return;
    }
    if (foff >= e->ulen)
        return;
    uint32_t n = e->ulen - foff;      /* foff is a multiple of 8: no byte swap */
    if (n >= len) {
        e->usum = csum_add(e->usum, sum);
        return;
    }
    const uint8_t *b = pkt_span(p, pay, n);
    if (!b)
        e->usum_lost = 1;
    else
        e->usum = csum_add(e->usum, csum_partial(b, n, 0));
}

/* ip4_frag_ecn / ip6_frag_ecn (net/ipv4/ip_fragment.c, net/ipv6/reassembly.c,
 * v6.12): the fragment's ECN codepoint as one bit (IPFRAG_ECN_NOT_ECT 1,
 * ECT_1 2, ECT_0 4, CE 8) for the queue's OR. IPv4: the TOS byte; IPv6:
 * the traffic class, whose ECN bits are the second byte's 0x30. */
static uint8_t ip_frag_ecn(const struct pkt *p, const struct csc_layer *ip)
{
    uint8_t b = 0;
    if (!pkt_u8(p, ip->off + 1u, &b))
        return 0;
    uint8_t cp = ip->proto == CSC_P_IPV4 ? (uint8_t)(b & 0x03) : (uint8_t)((b >> 4) & 0x03);
    return (uint8_t)(1u << cp);
}

/* ip_frag_ecn_table (net/ipv4/inet_fragment.c, v6.12 and 7.2.13; Debian's
 * 5.10 and 6.1 agree on the fixed cases, fr4-12): Not-ECT mixed with any ECN-capable codepoint is invalid
 * (0xff: the datagram dropped); CE with ECT_0 or ECT_1 makes the datagram
 * CE; anything else leaves the head's field as it is (0). */
#define IPFRAG_ECN_NOT_ECT 0x01u
#define IPFRAG_ECN_ECT_1 0x02u
#define IPFRAG_ECN_ECT_0 0x04u
#define IPFRAG_ECN_CE 0x08u
#define IPFRAG_ECN_INVALID 0xffu
static uint8_t ip_frag_ecn_table(uint8_t bits)
{
    if ((bits & IPFRAG_ECN_NOT_ECT) && (bits & ~IPFRAG_ECN_NOT_ECT))
        return IPFRAG_ECN_INVALID;
    if ((bits & IPFRAG_ECN_CE) && (bits & (IPFRAG_ECN_ECT_0 | IPFRAG_ECN_ECT_1)))
        return 0x03;                  /* INET_ECN_CE */
    return 0;
}

/* ip_frag_reasm / ip6_frag_reasm (net/ipv4/ip_fragment.c,
 * net/ipv6/reassembly.c; v6.12, the same in 7.2.13) before they
 * build the datagram: the queue is already killed (inet_frag_kill), then an
 * invalid ECN mix, or a datagram longer than its 16-bit length field
 * (IPv4: the head's header + q.len over 65535; IPv6: the unfragmentable
 * headers + q.len over IPV6_MAXPLEN), goes to out_fail: ReasmFails, the
 * fragments freed with the queue. ip_frag_queue has no bound on the end of
 * an IPv4 fragment, and ip6_frag_queue bounds q.len alone, so these are
 * the only checks of the whole length. */
static enum kdrop ip_frag_reasm(struct csc_frag_entry *e)
{
    uint8_t ecn = ip_frag_ecn_table(e->ecn);
    if (ecn == IPFRAG_ECN_INVALID)
        return KD_FRAG_ECN;
    uint32_t len = e->v6 ? e->head_hlen - IPV6_HLEN + e->total : e->head_hlen + e->total;
    if (len > 0xffff)
        return KD_FRAG_OVERSIZE;
    e->reasm_ecn = ecn;
    return KD_NONE;
}

/* ---- the byte store: the datagram as ip_frag_reasm / ip6_frag_reasm rebuild it ---- */

static uint8_t *slot_area(const struct csc_frag_table *t, const struct csc_frag_entry *e)
{
    return t->store + (size_t)(e - t->e) * CSC_FRAG_SLOT_BYTES;
}

/* IPv6: the fragment header behind the unfragmentable part (ipv6_frag_rcv
 * finds it the same way) and the offset of the next-header byte naming it;
 * false when it is not where the walk ends within the decoded header. */
static bool ipv6_frag_header(const struct pkt *p, const struct csc_layer *ip, uint32_t *frag_at,
                             uint32_t *nh_at)
{
    uint32_t cur = ip->off + IPV6_HLEN, nh_pos = ip->off + WIRE_OFF(ipv6_hdr, nexthdr);
    uint8_t nh = 0;
    if (!pkt_u8(p, nh_pos, &nh))
        return false;
    while (cur < ip->off + ip->hdr_len) {
        if (nh == IPPROTO_FRAG_) {
            *frag_at = cur;
            *nh_at = nh_pos - ip->off;
            return true;
        }
        if (nh != IPPROTO_HOPOPTS_ && nh != IPPROTO_DSTOPTS_ && nh != IPPROTO_ROUTING_ &&
            nh != IPPROTO_AH_)
            return false;
        uint8_t hl = 0, this = nh;       /* the length unit is this header's (ipv6_skip_exthdr) */
        nh_pos = cur + WIRE_OFF(ipv6_opt_hdr, nexthdr);
        if (!pkt_u8(p, nh_pos, &nh) || !pkt_u8(p, cur + WIRE_OFF(ipv6_opt_hdr, hdrlen), &hl))
            return false;
        cur += this == IPPROTO_AH_ ? ((uint32_t)hl + 2) * IPV6_AH_UNIT
                                   : ((uint32_t)hl + 1) * IPV6_EXT_UNIT;
    }
    return false;
}

/* The checksum state the fragment reached ip_defrag with (the replay's NIC
 * entry): inet_frag_reasm_finish keeps the head's (the offset-0 fragment's)
 * ip_summed when every fragment has the same, CHECKSUM_NONE otherwise. A
 * fragment the replay dropped before ip_defrag, or whose path it does not
 * know, is not counted as queued. */
static void note_skb_state(struct csc_frag_entry *e, const struct csc_result *r, uint32_t foff,
                           bool rounded)
{
    const struct csc_kernel *k = &r->kernel;
    if (!k->ran || k->verdict != CSC_K_UNKNOWN || k->drop_layer != CSC_NO_LAYER ||
        (k->warnings & CSC_W_NOT_MODELLED)) {
        e->kernel_lost = 1;
        return;
    }
    const struct csc_skb_state *s = &k->devs[0].entry;
    uint8_t summed = s->ip_summed;
    if (rounded && summed != CSC_CHECKSUM_UNNECESSARY)
        summed = CSC_CHECKSUM_NONE;             /* ip_frag_queue's `end &= ~7` (v6.12) */
    if (!e->state_seen)
        e->head_summed = summed;                /* the first fragment fed */
    else if (e->head_summed != summed)
        e->summed_mixed = 1;
    e->state_seen = 1;
    if (foff == 0) {
        if (e->head_summed != summed)
            e->summed_mixed = 1;
        e->head_summed = summed;
        e->head_level = s->csum_level;
    }
}

/* Copy one fragment into its slot's area: the payload at its offset (less
 * the cut bytes ip_frag_queue trims off its end), and from the first
 * fragment the header the datagram keeps. */
static void store_fragment(struct csc_frag_table *t, struct csc_frag_entry *e, const struct pkt *p,
                           const struct csc_layer *ip, uint32_t foff, uint32_t cut)
{
    uint8_t *area = slot_area(t, e);
    uint32_t from = ip->off + ip->hdr_len, frag_at = 0, nh_at = 0;
    if (ip->proto == CSC_P_IPV6) {
        if (!ipv6_frag_header(p, ip, &frag_at, &nh_at)) {
            e->bytes_ok = 0;
            return;
        }
        from = frag_at + WIRE_LEN(ipv6_frag_hdr);
    }
    uint32_t len = ip->end > from + cut ? ip->end - from - cut : 0;
    if ((uint64_t)foff + len > CSC_FRAG_DGRAM_MAX ||
        !pkt_copy(p, from, len, area + CSC_FRAG_HDR_ROOM + foff)) {
        e->bytes_ok = 0;                  /* ip_frag_reasm: oversized, the kernel fails it too */
        return;
    }
    uint32_t fragsize = len + (from - ip->off);
    uint16_t fo = ip->u.ip.frag_off;
    if (fragsize > e->max_size)
        e->max_size = (uint16_t)(fragsize > 0xffff ? 0xffff : fragsize);
    if (ip->proto == CSC_P_IPV4 && (fo & IP_DF) && fragsize > e->max_df_size)
        e->max_df_size = (uint16_t)(fragsize > 0xffff ? 0xffff : fragsize);
    if (foff != 0)
        return;
    uint32_t hlen = ip->proto == CSC_P_IPV6 ? frag_at - ip->off : ip->hdr_len;
    if (hlen > CSC_FRAG_HDR_ROOM ||
        !pkt_copy(p, ip->off, hlen, area + CSC_FRAG_HDR_ROOM - hlen) ||
        (ip->proto == CSC_P_IPV6 && !pkt_u8(p, frag_at, &e->frag_nh))) {
        e->bytes_ok = 0;
        return;
    }
    e->hlen = (uint16_t)hlen;
    e->nh_at = (uint16_t)nh_at;
}

static void put_be16(uint8_t *b, uint16_t v)
{
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
}

/* ip_frag_reasm / ip6_frag_reasm: the header the reassembled skb carries.
 * False when the datagram is too long for one (out_oversize). */
static bool rebuild_header(struct csc_frag_entry *e, uint8_t *h)
{
    uint32_t len = e->hlen + e->total;
    if (!e->v6) {
        if (len > 0xffff)
            return false;
        put_be16(h + WIRE_OFF(ipv4_hdr, tot_len), (uint16_t)len);
        put_be16(h + WIRE_OFF(ipv4_hdr, frag_off),
                 e->max_df_size && e->max_df_size == e->max_size ? IP_DF : 0);
        h[WIRE_OFF(ipv4_hdr, tos)] |= e->reasm_ecn;              /* iph->tos |= ecn */
        put_be16(h + WIRE_OFF(ipv4_hdr, check), 0);
        put_be16(h + WIRE_OFF(ipv4_hdr, check), csum_fold(csum_partial(h, e->hlen, 0)));  /* ip_send_check */
        return true;
    }
    if (len - IPV6_HLEN > 0xffff)
        return false;
    put_be16(h + WIRE_OFF(ipv6_hdr, payload_len), (uint16_t)(len - IPV6_HLEN));
    h[e->nh_at] = e->frag_nh;
    h[1] |= (uint8_t)(e->reasm_ecn << 4);   /* ipv6_change_dsfield(.., 0xff, ecn) */
    return true;
}

/* Layer index j of the datagram's analysis in the frame's result: its IP
 * header is the frame's fragment layer ipi, the rest follow base. */
static uint8_t map_layer(uint8_t j, uint8_t ipi, unsigned base)
{
    if (j == CSC_NO_LAYER)
        return j;
    return j == 0 ? ipi : (uint8_t)(base + j - 1u);
}

static uint8_t map_dev(uint8_t d, unsigned dbase)
{
    if (d == CSC_NO_DEV)
        return d;
    return d == 0 ? 0 : (uint8_t)(dbase + d - 1u);
}

/* The frame goes on as the reassembled skb: its kernel outcome is the
 * datagram's, its trace continues with the datagram's steps, and the
 * tunnel devices the datagram reached follow the NIC. */
static void merge_kernel(struct csc_kernel *k, const struct csc_kernel *dk, uint8_t ipi,
                         unsigned base, unsigned nappended)
{
    unsigned dbase = k->ndevs;
    for (unsigned d = 1; d < dk->ndevs; d++) {
        if (k->ndevs >= CSC_MAX_DEVS) {
            k->warnings |= CSC_W_NOT_MODELLED;
            break;
        }
        struct csc_dev *nd = &k->devs[k->ndevs++];
        *nd = dk->devs[d];
        nd->layer = map_layer(nd->layer, ipi, base);
        nd->gro_layer = map_layer(nd->gro_layer, ipi, base);
    }
    for (unsigned s = 0; s < dk->nsteps; s++) {
        if (k->nsteps >= CSC_MAX_STEPS) {
            k->trace_truncated = 1;
            break;
        }
        struct csc_step *st = &k->steps[k->nsteps++];
        *st = dk->steps[s];
        st->layer = map_layer(st->layer, ipi, base);
        st->dev = map_dev(st->dev, dbase);
        if (st->layer != CSC_NO_LAYER && st->layer >= base + nappended)
            st->layer = CSC_NO_LAYER;   /* beyond what the frame's layers hold */
    }
    k->trace_truncated |= dk->trace_truncated;
    k->verdict = dk->verdict;
    k->drop_layer = map_layer(dk->drop_layer, ipi, base);
    if (k->drop_layer != CSC_NO_LAYER && k->drop_layer >= base + nappended)
        k->drop_layer = ipi;
    k->drop_reason = dk->drop_reason;
    k->counters |= dk->counters;
    k->warnings |= dk->warnings;
    k->sw_passes = (uint8_t)(k->sw_passes + dk->sw_passes);
    k->sw_bytes += dk->sw_bytes;
    k->hdr_bytes += dk->hdr_bytes;
    uint8_t last = map_layer(dk->last_layer, ipi, base);
    if (last != CSC_NO_LAYER && last > k->last_layer && last < base + nappended)
        k->last_layer = last;
}

/* Append the datagram's layers after the fragment's IP layer ipi (they
 * replace what the frame decoded beyond it: the first fragment's cut
 * transport and inner headers). */
static void merge_datagram(struct csc_result *r, const struct csc_result *d, uint8_t ipi,
                           bool replayed)
{
    unsigned base = (unsigned)ipi + 1u, n = 0;
    r->nlayers = (uint8_t)base;
    for (unsigned j = 1; j < d->nlayers; j++) {
        if (base + n >= CSC_MAX_LAYERS) {
            r->stop = CSC_STOP_DEPTH;
            r->stop_proto = d->layers[j].proto;
            r->stop_off = d->layers[j].off;
            r->stop_has_value = 0;
            r->stop_opt = CSC_SO_NONE;
            r->stop_layer = (uint8_t)(base + n - 1u);
            r->stop_reasm = 1;
            break;
        }
        struct csc_layer *l = &r->layers[base + n++];
        *l = d->layers[j];
        l->ip = map_layer(l->ip, ipi, base);
        l->notes |= CSC_N_REASSEMBLED;
        if (j == 1)
            l->notes |= CSC_N_FRAGMENT;      /* the datagram's transport, as before */
        if ((l->verdict == CSC_V_GOOD || l->verdict == CSC_V_BAD) &&
            (l->reason == CSC_R_NONE || l->reason == CSC_R_MISMATCH))
            l->reason = CSC_R_FRAG_REASSEMBLED;
        if (!replayed)
            memset(&l->k, 0, sizeof l->k);
        else
            l->k.dev = map_dev(l->k.dev, r->kernel.ndevs);
    }
    r->nlayers = (uint8_t)(base + n);
    r->worst = CSC_V_NA;              /* over what the frame reports now */
    for (unsigned i = 0; i < r->nlayers; i++)
        if (csc_verdict_rank(r->layers[i].verdict) > csc_verdict_rank(r->worst))
            r->worst = r->layers[i].verdict;
    if (r->kernel.ran)
        r->kernel.reasm_dev = r->kernel.ndevs;   /* the datagram's devices start here */
    if (r->stop != CSC_STOP_DEPTH || !r->stop_reasm) {
        r->stop = d->stop;
        r->stop_proto = d->stop_proto;
        r->stop_off = d->stop_off;
        r->stop_value = d->stop_value;
        r->stop_has_value = d->stop_has_value;
        r->stop_opt = d->stop_opt;
        r->stop_opt_proto = d->stop_opt_proto;
        r->stop_layer = map_layer(d->stop_layer, ipi, base);
        r->stop_reasm = d->stop != CSC_STOP_END;
    }
    if (replayed)
        merge_kernel(&r->kernel, &d->kernel, ipi, base, n);
}

/* The datagram completed with its bytes in the slot: analyse it as a frame
 * (decode, verify), replay it from ip_defrag on, merge it into r. */
static bool complete_datagram(struct csc_frag_table *t, struct csc_frag_entry *e,
                              struct csc_result *r, uint8_t ipi)
{
    uint8_t *h = slot_area(t, e) + CSC_FRAG_HDR_ROOM - e->hlen;
    if (!rebuild_header(e, h))
        return false;
    uint32_t len = e->hlen + e->total;
    struct csc_frame df = { h, len, len, (uint8_t)(e->v6 ? CSC_LINK_IPV6 : CSC_LINK_IPV4),
                            r->direction };
    struct csc_result *d = &t->dgram;
    csc_decode(t->cfg, &df, d);
    csc_verify(t->cfg, &df, d);
    d->via = r->via;                  /* the interface the fragments came in on */
    if (d->nlayers < 1 || d->layers[0].proto != r->layers[ipi].proto)
        return false;
    bool replay = !e->kernel_lost && r->kernel.ran;
    if (replay) {
        uint8_t summed = e->summed_mixed ? CSC_CHECKSUM_NONE : e->head_summed;
        csc_replay_reassembled(t->cfg, &df, d, summed, e->head_level);
        replay = d->kernel.ran;
    }
    merge_datagram(r, d, ipi, replay);
    return true;
}

/* discard_qp / discard_fq (ip_frag_queue, ip6_frag_queue; v6.12 and
 * 7.2.13): inet_frag_kill takes the queue away with the fragments it held,
 * the skb is freed. The frame the replay left queued at ip_defrag is
 * dropped there; a later fragment of the datagram starts a new queue. */
static void queue_kill(struct csc_frag_table *t, struct csc_frag_entry *e, struct csc_result *r,
                       uint8_t ipi, enum kdrop why)
{
    entry_free(t, e);
    struct csc_kernel *k = &r->kernel;
    if (!k->ran || k->verdict != CSC_K_UNKNOWN || k->drop_layer != CSC_NO_LAYER ||
        (k->warnings & CSC_W_NOT_MODELLED))
        return;                       /* the replay did not leave it queued */
    k->verdict = CSC_K_DROP;
    k->drop_layer = ipi;
    k->drop_reason = (uint8_t)why;
    for (unsigned s = k->nsteps; s-- > 0;) {   /* the trace, when kept */
        struct csc_step *st = &k->steps[s];
        if (st->fn == KF_IP_DEFRAG && st->what == W_QUEUED) {
            st->what = W_DROP;
            st->ok = CSC_TRI_NO;
            break;
        }
    }
}

/* The replay refused this IPv6 fragment with a parameter problem of
 * ip6_frag_queue's (core/replay/defrag.c): it never joins the queue. */
static bool ip6_frag_queue_refused(const struct csc_result *r, int ipi)
{
    const struct csc_kernel *k = &r->kernel;
    return k->ran && k->verdict == CSC_K_DROP && k->drop_layer == ipi &&
           (k->drop_reason == KD_FRAG_NOT_ROUNDED || k->drop_reason == KD_FRAG_TOO_FAR);
}

bool csc_frag_feed(struct csc_frag_table *t, const struct csc_frame *f, struct csc_result *r,
                   uint64_t frame_no)
{
    if (!r->ip_fragment)
        return false;              /* the usual frame: no fragment anywhere */
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
    struct pkt p = pkt_of(f, NULL);
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
    k.addrsum = ip->pseudo;
    if (k.v6 && ip6_frag_queue_refused(r, ipi)) {
        /* 7.2.13 kills the queue too (era IP6_FRAG_PROB_KILLS) */
        struct csc_frag_entry *e = lookup(t, &k);
        if (e && t->cfg && (t->cfg->era.sw & CSC_ERA_BIT(CSC_E_IP6_FRAG_PROB_KILLS)))
            entry_free(t, e);
        return false;
    }
    uint32_t len = ip->end > pay ? ip->end - pay : 0;
    uint32_t sum;
    if (ip->notes & CSC_N_LEN_EXCEEDS || !csc_region_sum(r, pay, ip->end, &sum)) {
        t->dropped++;
        return false;                 /* not captured in full: cannot account it */
    }
    /* A fragment that is not the last ends on a multiple of 8, or
     * ip_frag_queue rounds its end down and trims the rest (`end &= ~7`,
     * v6.12), while ipv6_frag_rcv refuses it (ip6_frag_queue's parameter
     * problem, v6.12: never queued). The replay's ip_frag_queue
     * (core/replay/defrag.c) says the same of the frame. */
    uint32_t cut = more ? (foff + len) & 7u : 0;
    if (cut && k.v6)
        return false;
    if (cut) {
        const uint8_t *tb = pkt_span(&p, ip->end - cut, cut);
        if (!tb) {
            t->dropped++;
            return false;
        }
        len -= cut;
        sum = csum_block_sub(sum, csum_partial(tb, cut, 0), len);
    }
    struct csc_frag_entry *e = lookup(t, &k);
    if (len == 0) {                   /* end == offset: discard_qp / discard_fq kill the queue */
        if (e)
            entry_free(t, e);
        return false;
    }
    if (!e) {
        e = alloc_entry(t, &k);
        e->bytes_ok = t->store != NULL;
    }
    touch(t, e, frame_no);
    /* A fragment the replay dropped before ip_defrag (a bad header
     * checksum, ...) never reaches the kernel's queue and cannot kill it:
     * the decode view still takes its bytes, and an overlap it brings makes
     * the datagram unverifiable when it completes. */
    bool queued = !(r->kernel.ran && r->kernel.verdict == CSC_K_DROP);
    uint32_t end = foff + len;
    if (queued && queue_len_refused(e, end, more)) {
        t->dropped++;
        queue_kill(t, e, r, (uint8_t)ipi, KD_FRAG_BAD_END);
        return false;
    }
    if (!queued && !more) {
        e->have_last = 1;
        e->total = end;
    }
    if (!queued && end > e->qlen)
        e->qlen = end;
    enum add added = queue_insert(e, foff, end);
    if (added == ADD_DUP)
        return false;                 /* ip_frag_queue: the duplicate skb is dropped */
    if (added == ADD_FULL) {
        t->dropped++;
        entry_free(t, e);
        return false;
    }
    if (added == ADD_OVERLAP) {
        t->overlaps++;
        if (queued) {                 /* IPFRAG_OVERLAP: IpReasmOverlaps, IpReasmFails */
            queue_kill(t, e, r, (uint8_t)ipi, KD_FRAG_OVERLAP);
            return false;
        }
        e->overlap = 1;
    }
    if (queued)
        e->ecn |= ip_frag_ecn(&p, ip);   /* qp->ecn |= ecn, after the insert */
    note_skb_state(e, r, foff, cut != 0);
    if (e->bytes_ok)
        store_fragment(t, e, &p, ip, foff, cut);
    e->sum = csum_add(e->sum, sum);
    e->bytes += len;
    t->bytes += len;
    if (foff == 0) {
        e->have_first = 1;
        e->head_hlen = (uint16_t)(ip->proto == CSC_P_IPV6 ? ip->hdr_len - WIRE_LEN(ipv6_frag_hdr)
                                                           : ip->hdr_len);
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
    add_udp_share(e, &p, pay, foff, len, sum);
    if (!more) {
        e->tail_len = (uint8_t)(len < sizeof e->tail ? len : sizeof e->tail);
        pkt_copy(&p, ip->end - e->tail_len, e->tail_len, e->tail);
    }
    /* over the byte bound: the least recently fed datagrams go (e, just
     * fed, is the newest and stays) */
    while (t->bytes > CSC_FRAG_MAX_BYTES && t->lru.oldest != slot_of(t, e)) {
        t->evicted++;
        entry_free(t, &t->e[t->lru.oldest]);
    }
    uint32_t meat = 0;                /* the bytes the runs hold (ip_frag_queue's q.meat) */
    for (unsigned i = 0; i < e->nranges; i++)
        meat += e->r[i].b - e->r[i].a;
    if (e->have_first && e->have_last && meat == e->total && !e->overlap) {
        enum kdrop fail = ip_frag_reasm(e);
        if (fail != KD_NONE) {
            t->dropped++;
            queue_kill(t, e, r, (uint8_t)ipi, fail);
            return false;
        }
        if (e->bytes_ok && complete_datagram(t, e, r, (uint8_t)ipi))
            t->completed++;
        else
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
