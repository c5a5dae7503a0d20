/*
 * setup_cmp.c - does one setup hold another (live_setup_extend: a
 * namespace grows to a setup only when that setup holds everything it was
 * made with, in the same places).
 */
#include "live_int.h"

#include <string.h>

static int frame_same(const struct live_frame *a, const struct live_frame *b)
{
    return a->len == b->len && !memcmp(a->vnet, b->vnet, sizeof a->vnet) && !memcmp(a->data, b->data, a->len);
}

static int dev_same(const struct live_dev *a, const struct live_dev *b)
{
    if (strcmp(a->ifname, b->ifname) || strcmp(a->name, b->name) || a->ncmds != b->ncmds ||
        a->nsent != b->nsent || a->nwatch != b->nwatch || a->to_host != b->to_host)
        return 0;
    for (int i = 0; i < a->ncmds && i < LIVE_MAX_DEV_CMDS; i++)
        if (strcmp(a->cmds[i], b->cmds[i]))
            return 0;
    for (int i = 0; i < a->nsent && i < LIVE_MAX_SENT; i++)
        if (a->sent_sock[i] != b->sent_sock[i] || !frame_same(&a->sent[i], &b->sent[i]))
            return 0;
    for (int i = 0; i < a->nwatch && i < LIVE_MAX_WATCH; i++)
        if (strcmp(a->watch[i], b->watch[i]))
            return 0;
    return 1;
}

int live_setup_holds(const struct live_setup *s, const struct live_setup *o)
{
    if (s->pin != o->pin || s->napi != o->napi || s->gro_flush_ns != o->gro_flush_ns || s->level != o->level ||
        s->ncmds < o->ncmds || s->nsocks < o->nsocks || s->ndevs < o->ndevs || s->ncmds > LIVE_MAX_CMDS ||
        s->nsocks > LIVE_MAX_SOCKS || s->ndevs > LIVE_MAX_DEVS)
        return 0;
    for (int i = 0; i < o->ncmds; i++)
        if (strcmp(s->cmds[i], o->cmds[i]))
            return 0;
    for (int i = 0; i < o->nsocks; i++)
        if (s->socks[i].kind != o->socks[i].kind || s->socks[i].port != o->socks[i].port)
            return 0;
    for (int d = 0; d < o->ndevs; d++)
        if (!dev_same(&s->devs[d], &o->devs[d]))
            return 0;
    for (int d = o->ndevs; d < s->ndevs; d++)
        for (int i = 0; i < s->devs[d].nsent; i++)
            if (s->devs[d].nsent > LIVE_MAX_SENT || s->devs[d].sent_sock[i] >= s->nsocks)
                return 0;
    return 1;
}
