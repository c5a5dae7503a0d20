/*
 * slots.h - a bounded table's LRU list and hash index (the types:
 * csumcheck/slots.h). The owner keeps the entries, the list's links (one a
 * slot) and the index, and picks the key's 16-bit hash tag; both are O(1)
 * whatever the number of keys. Internal to core/ (gro_engine.c, frag.c).
 *
 * The index: linear probing in a power-of-two array at a load of at most
 * 1/4, backward-shift deletion. An entry holds the slot + 1 (low 16 bits, 0:
 * empty) and the tag (high 16 bits), whose low bits are its home: a probe
 * compares tags before it reads an entry, and a deletion finds every home
 * without reading any.
 */
#ifndef CSC_SLOTS_H
#define CSC_SLOTS_H

#include <stdbool.h>

#include "csumcheck/slots.h"

static inline void lru_init(struct csc_lru *l)
{
    l->newest = l->oldest = CSC_SLOT_NIL;
}

static inline void lru_unlink(struct csc_lru *l, struct csc_lru_link *link, unsigned i)
{
    struct csc_lru_link *e = &link[i];
    if (e->newer != CSC_SLOT_NIL)
        link[e->newer].older = e->older;
    else
        l->newest = e->older;
    if (e->older != CSC_SLOT_NIL)
        link[e->older].newer = e->newer;
    else
        l->oldest = e->newer;
}

static inline void lru_push_newest(struct csc_lru *l, struct csc_lru_link *link, unsigned i)
{
    link[i].newer = CSC_SLOT_NIL;
    link[i].older = l->newest;
    if (l->newest != CSC_SLOT_NIL)
        link[l->newest].newer = (uint16_t)i;
    else
        l->oldest = (uint16_t)i;
    l->newest = (uint16_t)i;
}

/* Slot i was used: it becomes the newest */
static inline void lru_touch(struct csc_lru *l, struct csc_lru_link *link, unsigned i)
{
    if (l->newest != i) {
        lru_unlink(l, link, i);
        lru_push_newest(l, link, i);
    }
}

/* Where a probe for tag starts (size: the index's, a power of two) */
static inline unsigned index_home(uint32_t tag, unsigned size)
{
    return tag & (size - 1);
}

/* From *at on, the next slot whose tag is tag, or -1 at the probe's end;
 * *at moves past it. Start at index_home(tag, size). */
static inline int index_next(const uint32_t *ix, unsigned size, uint32_t tag, unsigned *at)
{
    for (unsigned i = *at;; i = (i + 1) & (size - 1)) {
        uint32_t v = ix[i];
        if (!v)
            return -1;
        if (v >> 16 == tag) {
            *at = (i + 1) & (size - 1);
            return (int)(v & 0xffff) - 1;
        }
    }
}

static inline void index_add(uint32_t *ix, unsigned size, uint32_t tag, unsigned slot)
{
    unsigned i = index_home(tag, size);
    while (ix[i])
        i = (i + 1) & (size - 1);
    ix[i] = tag << 16 | (slot + 1);
}

static inline void index_del(uint32_t *ix, unsigned size, uint32_t tag, unsigned slot)
{
    uint32_t want = tag << 16 | (slot + 1);
    unsigned i = index_home(tag, size);
    while (ix[i] != want) {
        if (!ix[i])
            return;
        i = (i + 1) & (size - 1);
    }
    /* backward shift: later entries of the cluster move into the hole
     * unless their home lies cyclically in (i, j] */
    for (unsigned j = (i + 1) & (size - 1);; j = (j + 1) & (size - 1)) {
        uint32_t v = ix[j];
        if (!v)
            break;
        unsigned home = index_home(v >> 16, size);
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            ix[i] = v;
            i = j;
        }
    }
    ix[i] = 0;
}

#endif
