/*
 * fast.c - csc_analyze() for frames of a known shape (include/csumcheck/fast.h).
 *
 * A plan is compiled from one run of the general path with its reads
 * recorded (rec.h): what decode and direction branched on and what the
 * replay read (rec_merge from the memo, analyze_cached.c) make the guard;
 * the values the decoder read make the copies; the result is the template.
 * A frame of the plan's length, link and direction whose guard holds gets
 * the template, its own values, its own sums and its own verdicts (the
 * verifier's code); a verdict other than the template's sends it to the
 * general path.
 */
#include "csumcheck/fast.h"

#include "pkt.h"
#include "proto/decode.h"
#include "rec.h"
#include "replay/addr.h"
#include "stages.h"
#include "verify.h"

#include <string.h>

_Static_assert((CSC_FAST_SETS & (CSC_FAST_SETS - 1)) == 0, "a power-of-two number of sets");
_Static_assert(CSC_GRO_WALK_LAYERS >= CSC_PLAN_LAYERS, "a plan's walk holds its layers");
_Static_assert(CSC_FAST_WAYS <= 255, "a way's index fits a byte");
_Static_assert(CSC_PLAN_WIN == REC_WIN && CSC_PLAN_FAR == REC_MAX_FAR &&
               CSC_PLAN_OPS == REC_MAX_OPS && CSC_PLAN_CLASSES == REC_MAX_CLASS,
               "a plan holds what a record holds");
_Static_assert(sizeof(struct csc_plan_op) == sizeof(struct rec_op) &&
               sizeof(struct csc_plan_class) == sizeof(struct rec_class) &&
               sizeof(struct csc_plan_far) == sizeof(struct rec_far),
               "the record's entries are the plan's");

#define BUDGET_START 256     /* plans made before any has paid for itself */
#define BUDGET_MAX 4096

void csc_fast_init(struct csc_fast *t)
{
    memset(t, 0, offsetof(struct csc_fast, memo));
    t->budget = BUDGET_START;
    csc_rcache_init(&t->memo);
}

void csc_fast_stats(const struct csc_fast *t, struct csc_fast_stats *st)
{
    memset(st, 0, sizeof *st);
    st->known = t->hits;
    st->compiles = t->compiles;
    st->evicted = t->evicted;
    st->fallbacks = t->fallbacks;
    st->general = t->general;
    st->memo_hits = t->memo.hits;
    st->memo_misses = t->memo.misses;
    st->memo_bypass = t->memo.bypass;
    st->memo_evicted = t->memo.evicted;
}

static unsigned set_of(const struct csc_frame *f)
{
    uint64_t h = ((uint64_t)f->wirelen << 16 | (uint64_t)f->link << 8 | f->direction) *
                 0x9e3779b97f4a7c15ull;
    return (unsigned)(h >> 40) & (CSC_FAST_SETS - 1);
}

/* ---- applying a plan ---------------------------------------------------- */

#if defined(__GNUC__)
typedef uint8_t v16 __attribute__((vector_size(16)));
#endif

/* Do the frame's bytes d (the whole frame) hold what the plan branched on? */
static bool guard_holds(const struct csc_plan *pl, const struct csc_config *cfg, const uint8_t *d,
                        const struct pkt *p)
{
    unsigned g = pl->glen, i = 0;
    uint64_t diff = 0;
#if defined(__GNUC__)
    v16 acc = { 0 };
    for (; i + 16 <= g; i += 16) {
        v16 a, v, m;
        memcpy(&a, d + i, 16);
        memcpy(&v, pl->gval + i, 16);
        memcpy(&m, pl->gmask + i, 16);
        acc |= (a ^ v) & m;
    }
    uint64_t lo, hi;
    memcpy(&lo, &acc, 8);
    memcpy(&hi, (const uint8_t *)&acc + 8, 8);
    diff = lo | hi;
#endif
    for (; i < g; i++)
        diff |= (uint64_t)((d[i] ^ pl->gval[i]) & pl->gmask[i]);
    if (diff)
        return false;
    for (unsigned k = 0; k < pl->nfar; k++)
        if (memcmp(d + pl->far[k].off, pl->far[k].bytes, pl->far[k].len))
            return false;
    for (unsigned k = 0; k < pl->nclass; k++) {
        const struct csc_plan_class *c = &pl->cls[k];
        uint32_t v;
        if (c->kind == RCL_ADDR)
            v = ip_addr_classes_at(p, c->proto, c->at);
        else if (c->kind == RCL_PORT)
            v = csc_udp_port_class(cfg, (uint16_t)(d[c->at] << 8 | d[c->at + 1]),
                                   (uint16_t)(d[c->at + 2] << 8 | d[c->at + 3]));
        else
            return false;
        if (v != c->value)
            return false;
    }
    return true;
}

/* The values, read again at their offsets (in the decoder's order: an L4
 * pseudo-header sum comes after its IP layer's address sum) */
static void run_ops(const struct csc_plan *pl, const uint8_t *d, struct csc_result *r)
{
    uint8_t *base = (uint8_t *)r;
    for (unsigned k = 0; k < pl->nops; k++) {
        const struct csc_plan_op *op = &pl->ops[k];
        uint32_t v;
        switch (op->kind) {
        case ROP_BE8:
            v = (d[op->src] & op->mask) >> op->shift;
            break;
        case ROP_BE16:
            v = ((uint32_t)(d[op->src] << 8 | d[op->src + 1]) & op->mask) >> op->shift;
            break;
        case ROP_BE32:
            v = (((uint32_t)d[op->src] << 24 | (uint32_t)d[op->src + 1] << 16 |
                  (uint32_t)d[op->src + 2] << 8 | d[op->src + 3]) & op->mask) >> op->shift;
            break;
        case ROP_PSEUDO4:
            v = csc_pseudo4(d + op->src);
            break;
        case ROP_PSEUDO6:
            v = csc_pseudo6(d + op->src, d + op->mask);
            break;
        default:   /* ROP_L4_PSEUDO */
            v = csc_l4_pseudo(r, op->ip, (uint8_t)op->src, op->mask & 0x7fffffffu, op->mask >> 31);
            break;
        }
        if (op->dsize == 4) {
            memcpy(base + op->dst, &v, 4);
        } else if (op->dsize == 2) {
            uint16_t h = (uint16_t)v;
            memcpy(base + op->dst, &h, 2);
        } else {
            base[op->dst] = (uint8_t)v;
        }
    }
}

/* The frame from the plan; false when a verdict is not the template's (the
 * result is then to be made again by the general path) */
static bool plan_apply(const struct csc_plan *pl, const struct csc_frame *f, const uint8_t *d,
                       struct csc_result *r)
{
    struct pkt p = pkt_of(f, NULL);
    unsigned n = pl->nlayers;
    memcpy(r, pl->head, sizeof pl->head);
    memcpy(r->layers, pl->layers, n * sizeof r->layers[0]);
    memcpy(r->values, pl->values, n * sizeof r->values[0]);
    run_ops(pl, d, r);
    struct csc_sums *s = &r->sums;
    s->n = pl->nbp;
    s->nends = 0;
    memcpy(s->bp, pl->bp, pl->nbp * sizeof s->bp[0]);
    memcpy(s->at, pl->at, n);
    verify_sum_pass(&p, s);
    for (unsigned k = 0; k < pl->ncheck; k++) {
        unsigned i = pl->check[k];
        struct csc_layer *l = &r->layers[i];
        l->verdict = pl->pre_verdict[k];
        l->reason = pl->pre_reason[k];
        if (pl->good >> k & 1) {            /* the usual case: a good checksum */
            if (!verify_layer_good(r, &p, i, pl->region[k][0], pl->region[k][1]))
                return false;
            continue;
        }
        verify_layer(r, &p, i);
        if (l->verdict != pl->layers[i].verdict || l->reason != pl->layers[i].reason)
            return false;
    }
    struct csc_kernel *k = &r->kernel;
    memcpy(k, pl->kernel, offsetof(struct csc_kernel, devs));
    memcpy(k->devs, pl->kernel + offsetof(struct csc_kernel, devs),
           (k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS) * sizeof k->devs[0]);
    return true;
}

/* ---- compiling a plan --------------------------------------------------- */

/* May the frame be planned (and looked up)? */
static bool plannable(const struct csc_config *cfg, const struct csc_frame *f)
{
    return !cfg->trace_steps && f->caplen >= f->wirelen && f->wirelen <= UINT16_MAX;
}

static void plan_make(struct csc_plan *pl, const struct csc_frame *f, const struct csc_result *r,
                      const struct csc_rec *rec, const uint8_t *pre_v, const uint8_t *pre_r)
{
    unsigned n = r->nlayers;
    pl->wirelen = f->wirelen;
    pl->link = f->link;
    pl->dir = f->direction;
    pl->nlayers = (uint8_t)n;
    pl->hits = 0;
    /* the window, to a whole 16 bytes where the frame has them (the mask
     * is zero beyond what was read) */
    unsigned g = rec->hi;
    unsigned g16 = (g + 15u) & ~15u;
    if (g16 <= f->wirelen)
        g = g16;
    pl->glen = (uint16_t)g;
    memcpy(pl->gmask, rec->mask, g);
    for (unsigned i = 0; i < g; i++)
        pl->gval[i] = rec->val[i] & rec->mask[i];
    pl->nfar = rec->nfar;
    memcpy(pl->far, rec->far, rec->nfar * sizeof rec->far[0]);
    pl->nclass = rec->nclass;
    memcpy(pl->cls, rec->cls, rec->nclass * sizeof rec->cls[0]);
    pl->nops = rec->nops;
    memcpy(pl->ops, rec->ops, rec->nops * sizeof rec->ops[0]);
    unsigned nc = 0;
    pl->good = 0;
    _Static_assert(CSC_PLAN_LAYERS <= 16, "a check's bit fits plan.good");
    for (unsigned i = n; i-- > 0;)       /* innermost first, as csc_verify */
        if (r->layers[i].csum_off != CSC_NO_OFF) {
            pl->check[nc] = (uint8_t)i;
            pl->pre_verdict[nc] = pre_v[i];
            pl->pre_reason[nc] = pre_r[i];
            int ia, ib;
            verify_region_at(r, i, &ia, &ib);
            if (pre_v[i] == CSC_V_NA && r->layers[i].verdict == CSC_V_GOOD &&
                r->layers[i].reason == pre_r[i] && ia >= -1 && ia < 128 && ib >= -1 && ib < 128) {
                pl->good |= (uint16_t)(1u << nc);
                pl->region[nc][0] = (int8_t)ia;
                pl->region[nc][1] = (int8_t)ib;
            }
            nc++;
        }
    pl->ncheck = (uint8_t)nc;
    memcpy(pl->head, r, sizeof pl->head);
    memcpy(pl->layers, r->layers, n * sizeof r->layers[0]);
    memcpy(pl->values, r->values, n * sizeof r->values[0]);
    pl->nbp = (uint8_t)r->sums.n;
    memcpy(pl->bp, r->sums.bp, r->sums.n * sizeof r->sums.bp[0]);
    memcpy(pl->at, r->sums.at, n);
    memcpy(pl->kernel, &r->kernel, sizeof pl->kernel);
    csc_gro_walk_make(r, &pl->gro);
}

/* The general path, its reads recorded, and a plan made of it when it may */
static void compile(struct csc_fast *t, const struct csc_config *cfg, const struct csc_frame *f,
                    struct csc_result *out, unsigned set)
{
    struct csc_rec rec;
    rec_init(&rec);
    csc_decode_rec(cfg, f, out, &rec);
    uint8_t pre_v[CSC_MAX_LAYERS], pre_r[CSC_MAX_LAYERS];
    unsigned n = out->nlayers < CSC_MAX_LAYERS ? out->nlayers : CSC_MAX_LAYERS;
    for (unsigned i = 0; i < n; i++) {
        pre_v[i] = out->layers[i].verdict;
        pre_r[i] = out->layers[i].reason;
    }
    csc_verify(cfg, f, out);
    csc_direction_rec(cfg, f, out, &rec);
    bool kept = memo_replay(cfg, f, out, &t->memo, &rec);
    t->general++;
    if (!kept || rec.overflow || n > CSC_PLAN_LAYERS || out->sums.n > CSC_PLAN_BREAKS ||
        out->ip_fragment)
        return;
    unsigned used = t->used[set];
    unsigned way = used < CSC_FAST_WAYS ? used : t->order[set][CSC_FAST_WAYS - 1];
    if (used < CSC_FAST_WAYS)
        t->used[set] = (uint8_t)++used;
    else
        t->evicted++;
    plan_make(&t->plan[set][way], f, out, &rec, pre_v, pre_r);
    t->compiles++;
    t->plan[set][way].serial = t->compiles;   /* never reused: compiles only grows */
    t->budget--;
    /* the new plan goes first */
    uint8_t *o = t->order[set];
    unsigned at = used - 1;
    for (unsigned i = 0; i + 1 < used; i++)
        if (o[i] == way) {
            at = i;
            break;
        }
    memmove(o + 1, o, at);
    o[0] = (uint8_t)way;
}

/* The general path without a plan: the memo only */
static void general(struct csc_fast *t, const struct csc_config *cfg, const struct csc_frame *f,
                    struct csc_result *out)
{
    t->general++;
    csc_decode(cfg, f, out);
    csc_verify(cfg, f, out);
    csc_direction(cfg, f, out);
    memo_replay(cfg, f, out, &t->memo, NULL);
}

void csc_gro_prepare_fast(const struct csc_frame *f, const struct csc_result *r,
                          struct csc_gro_input *in, const struct csc_fast *t)
{
    csc_gro_prepare_walk(f, r, in, t && t->served ? &t->served_plan->gro : NULL);
}

static void analyze_fast(const struct csc_config *cfg, const struct csc_frame *f,
                         struct csc_result *out, struct csc_fast *t);

void csc_analyze_fast(const struct csc_config *cfg, const struct csc_frame *f,
                      struct csc_result *out, struct csc_fast *t)
{
    if (!t) {
        csc_analyze(cfg, f, out);
        return;
    }
    analyze_fast(cfg, f, out, t);
    csc_tx(cfg, f, out);             /* from this frame's verdicts, whichever way they came */
}

static void analyze_fast(const struct csc_config *cfg, const struct csc_frame *f,
                         struct csc_result *out, struct csc_fast *t)
{
    t->served = 0;
    if (!t->have_cfg || memcmp(&t->cfg, cfg, sizeof *cfg)) {
        memset(t->used, 0, sizeof t->used);   /* another receiver: forget the plans */
        csc_rcache_init(&t->memo);            /* and the outcomes (the memo's key has no cfg) */
        memcpy(&t->cfg, cfg, sizeof *cfg);
        t->have_cfg = 1;
    }
    if (!plannable(cfg, f)) {
        general(t, cfg, f, out);
        return;
    }
    unsigned set = set_of(f);
    struct pkt p = pkt_of(f, NULL);
    const uint8_t *d = pkt_sum_span(&p, 0, f->wirelen);   /* the whole frame (plannable) */
    uint8_t *o = t->order[set];
    for (unsigned i = 0; i < t->used[set]; i++) {
        const struct csc_plan *pl = &t->plan[set][o[i]];
        if (pl->wirelen != f->wirelen || pl->link != f->link || pl->dir != f->direction ||
            !guard_holds(pl, cfg, d, &p))
            continue;
        if (!plan_apply(pl, f, d, out)) {
            t->fallbacks++;
            general(t, cfg, f, out);
            return;
        }
        t->hits++;
        t->served = pl->serial;
        t->served_plan = pl;
        if ((++t->plan[set][o[i]].hits & 15) == 0 && t->budget < BUDGET_MAX)
            t->budget++;
        if (i) {                            /* most recent first */
            uint8_t w = o[i];
            memmove(o + 1, o, i);
            o[0] = w;
        }
        return;
    }
    if (t->budget > 0)
        compile(t, cfg, f, out, set);
    else
        general(t, cfg, f, out);
}
