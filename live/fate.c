/*
 * fate.c - a frame's fate in several kernels (replay.h): what each kernel
 * did with it, compared from one kernel to the next in the order the user
 * gave them ("upgrading 6.1 -> 6.12 changes the fate of N frames"). The
 * fate is the kernel's outcome as judge.c words it - the class (delivered,
 * or where it was dropped) and the counters that moved - so two kernels
 * that both drop a frame at the tunnel device, one counting rx_frame_errors
 * and one counting nothing, give it two fates.
 */
#include "replay_int.h"

#include <stdio.h>
#include <string.h>

bool live_fate_known(const struct live_outcome *o)
{
    return o->result == LIVE_RES_AGREE || o->result == LIVE_RES_DISAGREE || o->result == LIVE_RES_MODEL;
}

bool live_fate_same(const struct live_outcome *a, const struct live_outcome *b)
{
    return a->kclass == b->kclass && live_counts_diff(a->kcnt, b->kcnt) < 0;
}

void live_fate_text(const struct live_outcome *o, char *buf, size_t n)
{
    char c[200];
    live_counts_text(o->kcnt, c, sizeof c);
    snprintf(buf, n, "%s {%s}", o->kclass == LIVE_C_DELIVERED ? "accept" : live_class_name(o->kclass), c);
}

static void range_text(uint64_t a, uint64_t b, char *buf, size_t n)
{
    if (a == b)
        snprintf(buf, n, "%llu", (unsigned long long)a);
    else
        snprintf(buf, n, "%llu-%llu", (unsigned long long)a, (unsigned long long)b);
}

void live_fate_frames(const struct live_fate_group *g, char *buf, size_t n)
{
    char r[48];
    range_text(g->first, g->last, r, sizeof r);
    snprintf(buf, n, "%s%s%s", g->frames, g->frames[0] ? ", " : "", r);
}

/* Frame no of file into the group of its change, or a new group */
static void add_change(struct live_fates *fs, int i, const char *file, uint64_t no, const char *from,
                       const char *to)
{
    struct live_fate_group *g = NULL;
    for (int k = fs->ngroups[i] - 1; k >= 0 && !g; k--) {
        struct live_fate_group *c = &fs->g[i][k];
        if (!strcmp(c->file, file) && !strcmp(c->from, from) && !strcmp(c->to, to))
            g = c;
    }
    if (g) {
        g->n++;
        if (no == g->last + 1) {
            g->last = no;
            return;
        }
        char r[48];
        range_text(g->first, g->last, r, sizeof r);
        size_t l = strlen(g->frames);
        if (l + strlen(r) + 8 < sizeof g->frames) {
            snprintf(g->frames + l, sizeof g->frames - l, "%s%s", l ? ", " : "", r);
        } else if (!strstr(g->frames, "...")) {
            snprintf(g->frames + l, sizeof g->frames - l, "%s...", l ? ", " : "");
        }
        g->first = g->last = no;
        return;
    }
    if (fs->ngroups[i] == LIVE_FATE_GROUPS) {
        fs->unlisted[i]++;
        return;
    }
    g = &fs->g[i][fs->ngroups[i]++];
    memset(g, 0, sizeof *g);
    snprintf(g->file, sizeof g->file, "%s", file);
    snprintf(g->from, sizeof g->from, "%s", from);
    snprintf(g->to, sizeof g->to, "%s", to);
    g->first = g->last = no;
    g->n = 1;
}

void live_fates_add(struct live_fates *fs, const struct live_replay *lr, const struct live_fr *f)
{
    const char *file = strrchr(lr->file, '/') ? strrchr(lr->file, '/') + 1 : lr->file;
    for (int i = 0; i + 1 < lr->nk; i++) {
        const struct live_outcome *a = &f->k[i], *b = &f->k[i + 1];
        if (!live_fate_known(a) || !live_fate_known(b))
            continue;
        fs->compared[i]++;
        if (live_fate_same(a, b))
            continue;
        fs->changed[i]++;
        char from[120], to[120];
        live_fate_text(a, from, sizeof from);
        live_fate_text(b, to, sizeof to);
        add_change(fs, i, file, f->no, from, to);
    }
}
