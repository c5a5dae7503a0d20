/*
 * filter.h - the capture filter (-f EXPR, or words after the inputs as
 * tcpdump takes them): libpcap's BPF compiler and its offline filter, one
 * program per link type (a pcapng file may have several).
 */
#ifndef CSUMCHECK_FILTER_H
#define CSUMCHECK_FILTER_H

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>

struct cli_filter;

/* Compiles EXPR for Ethernet to check it; NULL and *err (g_free) when it
 * does not compile. */
struct cli_filter *filter_new(const char *expr, char **err);
void filter_free(struct cli_filter *f);
const char *filter_expr(const struct cli_filter *f);
/* The program for link type dlt, compiled on first use; NULL when the
 * expression cannot apply to that link type, and then, the first time in
 * the run only, *why says so (g_free). Thread-safe. */
const struct bpf_program *filter_prog(struct cli_filter *f, int32_t dlt, char **why);

static inline bool filter_match(const struct bpf_program *p, const struct pcap_pkthdr *h,
                                const uint8_t *data)
{
    return pcap_offline_filter(p, h, data) != 0;
}

#endif
