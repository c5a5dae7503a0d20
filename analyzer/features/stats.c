/*
 * stats.c - a run's totals: one frame's findings and counters, merged per
 * file and per run (stats.h), and the findings vocabulary.
 */
#include "stats.h"

#include <glib.h>
#include <string.h>

static const char *const finding_names[FD__COUNT] = {
    [FD_BAD] = "bad",         [FD_DROP] = "drop",       [FD_PARTIAL] = "partial",
    [FD_UNVERIFIABLE] = "unverifiable", [FD_LCO] = "lco", [FD_RCO] = "rco",
    [FD_ZERO6] = "zero6",     [FD_NONE] = "none",       [FD_WARNING] = "warning",
    [FD_TRUNCATED] = "truncated", [FD_MALFORMED] = "malformed", [FD_STOP] = "stop",
    [FD_SNAPLEN] = "snaplen",
};

const char *cli_finding_name(unsigned i)
{
    return i < FD__COUNT ? finding_names[i] : "?";
}

bool cli_finding_parse(const char *s, uint32_t *mask, char **bad)
{
    uint32_t m = 0;
    gchar **words = g_strsplit(s, ",", -1);
    bool ok = words[0] != NULL;
    for (gchar **w = words; *w && ok; w++) {
        gchar *t = g_strstrip(*w);
        bool drop = *t == '-';     /* "any,-none": every finding but none */
        if (drop)
            t++;
        uint32_t bits = 0;
        if (!strcmp(t, "any")) {
            bits = FD_ANY;
        } else if (!strcmp(t, "action")) {
            bits = FD_ACTION;
        } else {
            for (unsigned i = 0; i < FD__COUNT && !bits; i++)
                if (!strcmp(t, finding_names[i]))
                    bits = 1u << i;
        }
        if (!bits) {
            *bad = g_strdup(t);
            ok = false;
        } else if (drop) {
            m &= ~bits;
        } else {
            m |= bits;
        }
    }
    if (!ok && !*bad)
        *bad = g_strdup(s);
    g_strfreev(words);
    *mask = m;
    return ok;
}

void cli_stats_merge(struct cli_stats *into, const struct cli_stats *s)
{
    /* every member is a uint64_t counter (or an array of them) */
    uint64_t *a = (uint64_t *)(void *)into;
    const uint64_t *b = (const uint64_t *)(const void *)s;
    G_STATIC_ASSERT(sizeof(struct cli_stats) % sizeof(uint64_t) == 0);
    for (size_t i = 0; i < sizeof *s / sizeof(uint64_t); i++)
        a[i] += b[i];
}

/* The summaries' verdict columns, in the order of the vocabulary */
const unsigned verdict_cols[CSC_V__COUNT - 1] = { CSC_V_GOOD, CSC_V_BAD, CSC_V_NONE, CSC_V_ZERO6,
                                               CSC_V_PARTIAL, CSC_V_LCO, CSC_V_RCO,
                                               CSC_V_UNVERIFIABLE };

uint64_t counts_total(const uint64_t *v, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++)
        t += v[i];
    return t;
}

uint64_t layer_total(const struct cli_stats *st, unsigned p)
{
    return counts_total(st->layer[p], CSC_V__COUNT);
}

/* Drop reasons summed by name (two ids may share one name) */
unsigned drops_by_name(const struct cli_stats *st, struct named *out)
{
    unsigned n = 0;
    for (unsigned d = 0; d < CLI_DROP_NAMES; d++) {
        if (!st->drop_reason[d])
            continue;
        const char *nm = csc_drop_name(d);
        unsigned i;
        for (i = 0; i < n; i++)
            if (!strcmp(out[i].name, nm))
                break;
        if (i == n)
            out[n++] = (struct named){ nm, 0 };
        out[i].n += st->drop_reason[d];
    }
    return n;
}

uint64_t direction_total(const struct cli_stats *st, unsigned dir)
{
    return counts_total(st->direction[dir], CSC_DF__COUNT);
}

uint64_t gro_kind_total(const struct cli_stats *st, unsigned kind)
{
    return counts_total(st->gro[kind], CSC_G__COUNT);
}

/* The finding a layer verdict makes (none for good and n/a) */
static const uint32_t verdict_finding[CSC_V__COUNT] = {
    [CSC_V_BAD] = 1u << FD_BAD,           [CSC_V_NONE] = 1u << FD_NONE,
    [CSC_V_ZERO6] = 1u << FD_ZERO6,       [CSC_V_PARTIAL] = 1u << FD_PARTIAL,
    [CSC_V_LCO] = 1u << FD_LCO,           [CSC_V_RCO] = 1u << FD_RCO,
    [CSC_V_UNVERIFIABLE] = 1u << FD_UNVERIFIABLE,
};

bool stop_is_finding(const struct csc_result *r)
{
    return csc_stop_is_finding(r->stop);   /* the core's rule, the plugin's too */
}

/* The frame's by-design findings: see FD_BY_DESIGN (a sent frame's partial
 * and lco are not: they are its TX view) */
static uint32_t by_design_of(const struct csc_result *r, uint32_t m)
{
    if (m & FD_ACTION)
        return 0;
    uint32_t d = m & FD_BY_DESIGN;
    if (r->direction == CSC_DIR_OUT)
        d &= ~((1u << FD_PARTIAL) | (1u << FD_LCO));
    return d;
}

/* One counter of a frame: added, and noted in rec when a plan's deltas are
 * being made (stats_account_shaped) */
static inline void bump(struct cli_stats *st, struct stat_shape *rec, uint64_t *counter, uint64_t v)
{
    *counter += v;
    if (__builtin_expect(rec != NULL, 0) && v) {
        if (rec->n < STAT_DELTAS && v <= UINT32_MAX)
            rec->d[rec->n] = (struct stat_delta){
                (uint32_t)(((const char *)counter - (const char *)st) / sizeof *counter), (uint32_t)v };
        rec->n += rec->n <= STAT_DELTAS;   /* past STAT_DELTAS (or too big): not kept */
        if (v > UINT32_MAX)
            rec->n = STAT_DELTAS + 1;
    }
}
#define BUMP(counter, v) bump(st, rec, &(counter), (v))

/* A sent frame's TX view: what it left to the NIC; --peer-rx: the wire
 * frame's verdict or why there was none */
static inline void account_tx(struct cli_stats *st, const struct csc_tx *tx, struct stat_shape *rec)
{
    uint32_t kinds = 0;
    BUMP(st->tx_frames, 1);
    for (unsigned i = 0; i < tx->n && i < CSC_TX_MAX; i++)
        if (tx->c[i].kind < CSC_TX__COUNT)
            kinds |= 1u << tx->c[i].kind;
    for (uint32_t b = kinds; b; b &= b - 1)
        BUMP(st->tx_kind[__builtin_ctz(b)], 1);
    if (tx->peer.ran)
        BUMP(st->tx_peer[tx->peer.verdict < CSC_K__COUNT ? tx->peer.verdict : CSC_K_UNKNOWN], 1);
    else if (tx->peer.not_why && tx->peer.not_why < CSC_TXP__COUNT)
        BUMP(st->tx_peer_not[tx->peer.not_why], 1);
}

/* Counters of one frame; returns its findings (enum cli_finding bits). */
static inline uint32_t account(struct cli_stats *st, const struct csc_result *r,
                               struct stat_shape *rec)
{
    uint32_t m = 0;
    unsigned n = r->nlayers < CSC_MAX_LAYERS ? r->nlayers : CSC_MAX_LAYERS;
    for (unsigned i = 0; i < n; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->verdict == CSC_V_NA && l->csum_off == CSC_NO_OFF)
            continue;
        if (l->verdict < CSC_V__COUNT) {
            if (l->proto < CSC_P__COUNT)
                BUMP(st->layer[l->proto][l->verdict], 1);
            m |= verdict_finding[l->verdict];
        }
        if (l->reason < CSC_R__COUNT)
            BUMP(st->reason[l->reason], 1);
        if (l->verdict == CSC_V_UNVERIFIABLE && l->reason == CSC_R_SNAPLEN)
            m |= 1u << FD_SNAPLEN;
    }
    if (r->stop < CSC_STOP__COUNT) {
        BUMP(st->stop[r->stop], 1);
        if (r->stop != CSC_STOP_END && r->stop_proto < CSC_P__COUNT)
            BUMP(st->stop_proto[r->stop][r->stop_proto], 1);
    }
    if (r->direction <= CSC_DIR_OUT && r->dir_from < CSC_DF__COUNT)
        BUMP(st->direction[r->direction][r->dir_from], 1);
    if (r->stop == CSC_STOP_TRUNCATED)
        m |= 1u << FD_TRUNCATED;
    else if (r->stop == CSC_STOP_MALFORMED)
        m |= 1u << FD_MALFORMED;
    if (stop_is_finding(r))
        m |= 1u << FD_STOP;

    const struct csc_kernel *k = &r->kernel;
    if (k->ran) {
        BUMP(st->kverdict[k->verdict < CSC_K__COUNT ? k->verdict : CSC_K_UNKNOWN], 1);
        if (k->verdict == CSC_K_DROP) {
            m |= 1u << FD_DROP;
            BUMP(st->drop_reason[k->drop_reason < CLI_DROP_NAMES ? k->drop_reason : 0], 1);
        }
        for (uint32_t c = k->counters; c; c &= c - 1)
            BUMP(st->counter[__builtin_ctz(c) < CSC_C__COUNT ? __builtin_ctz(c) : 0], 1);
        BUMP(st->sw_passes, k->sw_passes);
        BUMP(st->sw_bytes, k->sw_bytes);
        BUMP(st->hdr_bytes, k->hdr_bytes);
        unsigned nd = k->ndevs < CSC_MAX_DEVS ? k->ndevs : CSC_MAX_DEVS;
        for (unsigned d = 0; d < nd; d++) {
            const struct csc_dev *dv = &k->devs[d];
            if (dv->kind < CSC_P__COUNT && dv->gro_reason < CSC_G__COUNT)
                BUMP(st->gro[dv->kind][dv->gro_reason], 1);
        }
    } else if (k->verdict == CSC_K_SENT) {
        BUMP(st->kverdict[CSC_K_SENT], 1);   /* sent, not received: its TX view stands */
    } else {
        BUMP(st->kernel_not_run, 1);
    }
    if (r->tx.sent)
        account_tx(st, &r->tx, rec);
    if (k->warnings) {              /* not-modelled comes without a replay */
        m |= 1u << FD_WARNING;
        for (uint32_t w = k->warnings; w; w &= w - 1)
            BUMP(st->warning[__builtin_ctz(w)], 1);
    }
    for (uint32_t b = m; b; b &= b - 1)
        BUMP(st->finding[__builtin_ctz(b)], 1);
    if (m)
        BUMP(st->findings_any, 1);
    if (m & FD_ACTION)
        BUMP(st->action_any, 1);
    uint32_t d = by_design_of(r, m);
    for (uint32_t b = d; b; b &= b - 1)
        BUMP(st->by_design[__builtin_ctz(b)], 1);
    if (d)
        BUMP(st->by_design_any, 1);
    return m;
}

uint32_t stats_account_frame(struct cli_stats *st, const struct csc_result *r,
                             const struct csc_frame *f0)
{
    uint32_t m = account(st, r, NULL);
    st->frames++;
    st->cap_bytes += f0->caplen;
    st->wire_bytes += f0->wirelen;
    return m;
}

_Static_assert(sizeof(struct cli_stats) % sizeof(uint64_t) == 0, "cli_stats is counters only");

uint32_t stats_account_shaped(struct cli_stats *st, const struct csc_result *r,
                              const struct csc_frame *f0, struct stat_shapes *shapes,
                              uint64_t served)
{
    if (!served || !shapes || r->kernel.reasm_dev != CSC_NO_DEV || r->tx.peer.ran ||
        r->tx.peer.not_why)        /* --peer-rx: a replay of its own, outside the plan */
        return stats_account_frame(st, r, f0);
    struct stat_shape *e = &shapes->e[served & (STAT_SHAPES - 1)];
    if (e->serial != served) {     /* the plan's first frame here: counted, its deltas noted */
        e->n = 0;
        e->m = account(st, r, e);
        e->serial = e->n <= STAT_DELTAS ? served : 0;
    } else {
        uint64_t *w = (uint64_t *)st;
        for (uint32_t i = 0; i < e->n; i++)
            w[e->d[i].word] += e->d[i].add;
    }
    st->frames++;
    st->cap_bytes += f0->caplen;
    st->wire_bytes += f0->wirelen;
    return e->m;
}
