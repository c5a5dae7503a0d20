/*
 * gro_totals.h - the GRO engine's totals of a run (struct cli_gro_totals),
 * taken from each file's engine and merged (gro_totals.c), and the words
 * that name its devices and flows (shared by every output format).
 */
#ifndef CSUMCHECK_GRO_TOTALS_H
#define CSUMCHECK_GRO_TOTALS_H

#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"

#include <stddef.h>
#include <stdint.h>

#define CLI_TOP_FLOWS_MAX 1000        /* --gro-flows N */

struct wbuf;

/* GRO engine totals of a run (csumcheck/gro.h), merged over files. Devices
 * are keyed by (kind, depth): the NIC is depth 0, tunnel devices follow in
 * the order the frame reaches them. */
struct cli_gro_dev {
    uint8_t used, kind, depth;
    uint64_t frames_in, packets_out, merged_frames, alone;
    uint64_t order_dep;      /* fates that depend on the NIC's order (csc_gro_dev_stats) */
    uint64_t refused[CSC_G__COUNT];
    uint64_t flushes[CSC_GF__COUNT];
};

/* What names a flow: the outermost and innermost IP/L4 the device sees,
 * and the first tunnel id (copied from the frame that opened the flow). */
enum cli_family { CLI_FAMILY_NONE = 0, CLI_FAMILY_IPV4 = 4, CLI_FAMILY_IPV6 = 6 };
struct cli_endpoint {
    uint8_t family;            /* enum cli_family */
    uint8_t l4;                /* enum csc_proto of the transport, 0 none */
    uint16_t sport, dport;
    uint8_t src[16], dst[16];
};
struct cli_flow_id {
    uint8_t tunnel;            /* enum csc_proto of the first tunnel layer, 0 none */
    uint8_t tcp;               /* the device saw a TCP segment (a real GRO flow) */
    uint32_t tunnel_id;        /* VNI / GRE key */
    uint64_t first_frame;
    struct cli_endpoint outer, inner;
};

struct cli_gro_flow {
    unsigned file;             /* job index */
    uint8_t kind, depth;
    struct cli_flow_id id;
    uint64_t frames_in, packets_out, merged_frames;
    uint64_t flushes[CSC_GF__COUNT];
};

/* Devices of a run: every (kind, depth) any file's engine had. One file's
 * engine keeps CSC_GRO_DEVS; a run of many files may see more. */
#define CLI_GRO_DEVS 64

struct cli_gro_totals {
    struct cli_gro_dev dev[CLI_GRO_DEVS];
    uint64_t frames;
    uint64_t frames_unfollowed;   /* device table full: frames not followed at a device */
    uint64_t passes_single, bytes_single, passes_merged, bytes_merged;
    uint64_t tcp_flows, other_frames, flows_evicted;
    unsigned ntop;
    struct cli_gro_flow *top;  /* CLI_TOP_FLOWS_MAX, best first */
};

void gro_totals_init(struct cli_gro_totals *t);
void gro_totals_free(struct cli_gro_totals *t);
void gro_totals_merge(struct cli_gro_totals *into, const struct cli_gro_totals *t, unsigned top);
/* One file's engine into t (gro_totals_init'ed), its `top` best flows kept;
 * fid[] names the flow of each of the engine's flow slots */
void gro_totals_of_engine(const struct csc_gro *g, const struct cli_flow_id *fid, uint64_t tcp_flows,
                          uint64_t other_frames, unsigned file, unsigned top, struct cli_gro_totals *t);

/* Devices in output order (by depth, then kind) */
unsigned sorted_devs(const struct cli_gro_totals *t, const struct cli_gro_dev **out);
/* "vxlan", or "vxlan@2" when another device of that kind is at another depth */
void dev_label(char *buf, size_t n, const struct cli_gro_totals *t, uint8_t kind, uint8_t depth);
double ratio(uint64_t a, uint64_t b);
/* A VNI (VXLAN, VXLAN-GPE, GENEVE) or a GRE key names the tunnel */
bool tunnel_has_id(const struct cli_flow_id *id);
/* An endpoint's address in words: 10.0.0.1 or 2001:db8::1 (buf >= 64) */
void endpoint_addr(char *buf, size_t n, const struct cli_endpoint *e, bool src);
/* What names a flow, in words (outer, tunnel, inner) */
void gro_flow_label(struct wbuf *w, const struct cli_flow_id *id);

#endif
