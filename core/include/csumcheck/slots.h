/*
 * slots.h - the bookkeeping of a bounded table of entries (slots), shared by
 * the GRO engine's flow statistics (gro.h) and IP reassembly (frag.h): an
 * LRU list of the slots in use, whose oldest is the victim when all are
 * taken, and a hash index to find a slot by key. The types are here so the
 * tables can hold them; only core/slots.h touches them.
 */
#ifndef CSUMCHECK_SLOTS_H
#define CSUMCHECK_SLOTS_H

#include <stdint.h>

#define CSC_SLOT_NIL 0xffffu     /* no slot: the ends of the LRU list */

/* A slot's neighbours on the LRU list (CSC_SLOT_NIL at the ends) */
struct csc_lru_link { uint16_t newer, older; };

/* The LRU list's ends (CSC_SLOT_NIL: empty) */
struct csc_lru { uint16_t newest, oldest; };

#endif
