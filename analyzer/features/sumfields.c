/*
 * sumfields.c - the summary's counts, one row each (sumfields.h).
 */
#include "sumfields.h"

#define ST(m) offsetof(struct cli_stats, m)
#define CFG(m) offsetof(struct csc_config, m)
#define GRO(m) offsetof(struct cli_gro_totals, m)
/* Rows whose JSON key is their member's name: a count of cli_stats, a switch of csc_config */
#define COUNT(group, m) { group, #m, NULL, 0, ST(m) }
#define CONFIG(m) { SG_CONFIG, #m, NULL, 0, CFG(m) }

const struct sum_field sum_fields[] = {
    COUNT(SG_HEAD, files),
    COUNT(SG_HEAD, files_failed),
    { SG_HEAD, "errors", NULL, 0, SUM_ERRORS },
    COUNT(SG_HEAD, frames),
    { SG_HEAD, "bytes", NULL, 0, ST(cap_bytes) },
    COUNT(SG_HEAD, wire_bytes),
    { SG_KVERDICT, "accept", "accepted", 0, ST(kverdict[CSC_K_ACCEPT]) },
    { SG_KVERDICT, "drop", "dropped", 0, ST(kverdict[CSC_K_DROP]) },
    { SG_KVERDICT, "unknown", "unknown", 0, ST(kverdict[CSC_K_UNKNOWN]) },
    { SG_KVERDICT, "not_run", "not run", 0, ST(kernel_not_run) },
    { SG_KVERDICT, "sent", NULL, 0, ST(kverdict[CSC_K_SENT]) },   /* text: its own words */
    COUNT(SG_KWORK, sw_passes),
    COUNT(SG_KWORK, sw_bytes),
    COUNT(SG_KWORK, hdr_bytes),
    { SG_FRAG, "completed", "completed", 1, ST(frag_completed) },
    { SG_FRAG, "evicted", "evicted", 1, ST(frag_evicted) },
    { SG_FRAG, "overlaps", "overlapping", 1, ST(frag_overlaps) },
    { SG_FRAG, "dropped", "dropped", 1, ST(frag_dropped) },
    { SG_BASELINE, "changed", "changed", 1, ST(baseline_changed) },
    { SG_BASELINE, "new", "new", 1, ST(baseline_new) },
    { SG_BASELINE, "gone", "gone", 1, ST(baseline_gone) },
    CONFIG(gro_nic),
    CONFIG(gro_tunnel),
    CONFIG(remcsum_rx),
    CONFIG(remcsum_nopartial),
    CONFIG(udp6_zero_csum_rx),
    CONFIG(inner_socket),
    CONFIG(assume_bad),
    { SG_CONFIG, "gre_csum", NULL, 0, SUM_GRE_CSUM },
    CONFIG(remcsum_rx_given),
    CONFIG(geneve_external),
    CONFIG(geneve_inner_proto_inherit),
    { SG_GRO, "sw_passes_single", NULL, 0, GRO(passes_single) },
    { SG_GRO, "sw_bytes_single", NULL, 0, GRO(bytes_single) },
    { SG_GRO, "sw_passes_merged", NULL, 0, GRO(passes_merged) },
    { SG_GRO, "sw_bytes_merged", NULL, 0, GRO(bytes_merged) },
    { SG_GRO, "tcp_flows", NULL, 0, GRO(tcp_flows) },
    { SG_GRO, "flows_evicted", NULL, 0, GRO(flows_evicted) },
};
const unsigned sum_nfields = sizeof sum_fields / sizeof sum_fields[0];

const char *sum_group_object(unsigned group)
{
    static const char *const o[SG__COUNT] = { "", "kernel", "kernel", "frag", "baseline", "config",
                                              "gro" };
    return group < SG__COUNT ? o[group] : "?";
}
