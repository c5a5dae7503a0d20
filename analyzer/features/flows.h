/*
 * flows.h - the per-flow view (--flows): drops, bad checksums and software
 * checksum passes by flow, a flow being the innermost 5-tuple and the first
 * tunnel with its id (VNI, GRE key). One bounded table per file (flows.c),
 * fed in capture order; a flow pushed out by a new one is written out then
 * (JSON) and counted; the run keeps the N worst flows for the summaries.
 */
#ifndef CSUMCHECK_FLOWS_H
#define CSUMCHECK_FLOWS_H

#include "gro_totals.h"

#include "csumcheck/csumcheck.h"

#include <stdbool.h>
#include <stdint.h>

#define FLOW_TABLE 16384              /* flows followed at once in one file */

/* What one frame brings to its flow, found where the frame is analysed */
struct flow_obs {
    struct cli_flow_id id;            /* tunnel, tunnel id, inner endpoint; no outer */
    uint32_t sw_passes, sw_bytes;
    uint8_t drop, bad;
    uint8_t named;                    /* the frame has an IP layer: it has a flow */
};

/* A flow's figures */
struct cli_flow {
    struct cli_flow_id id;            /* id.first_frame: the frame that opened it */
    unsigned file;                    /* job index */
    bool evicted;                     /* pushed out of the table before the file ended */
    uint64_t frames, drops, bad, sw_passes, sw_bytes;
};

/* The run's flows: totals and the N worst (struct cli_run.flows) */
struct cli_flow_totals {
    uint64_t flows;                   /* flow records: entries made in the tables */
    uint64_t evicted;                 /* of which pushed out before their file ended */
    uint64_t frames_unnamed;          /* frames without an IP layer: no flow */
    unsigned ntop;
    struct cli_flow *top;             /* CLI_TOP_FLOWS_MAX, worst first */
};

void flow_obs_of(struct flow_obs *ob, const struct csc_frame *f, const struct csc_result *r,
                 uint32_t findings);
/* worst first: drops, then software passes, bad, frames; then input order */
int flow_rank(const struct cli_flow *a, const struct cli_flow *b);

struct flow_table;
typedef void (*flow_out_fn)(void *ctx, const struct cli_flow *fl);
struct flow_table *flow_table_new(unsigned file, flow_out_fn out, void *ctx, unsigned top);
void flow_table_free(struct flow_table *t);
/* one frame into its flow: O(1) whatever the number of flows */
void flow_table_feed(struct flow_table *t, const struct flow_obs *ob, uint64_t frame);
/* end of file: every flow still in the table to out(), by first frame;
 * then the file's figures into the run's totals (the caller locks) */
void flow_table_finish(struct flow_table *t);
void flow_table_merge(struct cli_flow_totals *into, const struct flow_table *t, unsigned top);

void flow_totals_init(struct cli_flow_totals *t);
void flow_totals_free(struct cli_flow_totals *t);
/* a flow offered to the N worst (--merge reads them back this way) */
void flow_totals_offer(struct cli_flow_totals *t, const struct cli_flow *fl, unsigned top);

#endif
