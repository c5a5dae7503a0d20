/*
 * gro_internal.h - what the GRO engine's files share (core/gro_engine.c:
 * the lists and the merge rules; core/gro_cascade.c: what the tunnel
 * devices get when, from the NIC's flushes). Not part of the API.
 */
#ifndef CSC_GRO_INTERNAL_H
#define CSC_GRO_INTERNAL_H

#include "csumcheck/gro.h"

#include <stdbool.h>
#include <stdint.h>

/* gro_engine.c */
struct csc_gro_held *find_held(struct csc_gro *g, uint8_t dev, uint64_t key);
void held_deliver(struct csc_gro *g, uint8_t dev, struct csc_gro_held *h, enum csc_gro_flush why);

/* gro_cascade.c */
void nic_sends_early(struct csc_gro *g, const struct csc_gro_held *h, enum csc_gro_flush why);
void nic_grows(struct csc_gro *g, const struct csc_gro_held *h);
bool grown_seq_differs(const struct csc_gro_held *h, const struct csc_gro_seg *s);
bool device_merge_depends(const struct csc_gro *g, struct csc_gro_held *h, uint64_t nic_key, bool nic_held);
void flush_arrived(struct csc_gro *g, uint8_t dev);

#endif
