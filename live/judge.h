/*
 * judge.h - one frame's two outcomes in the same words: what the model
 * (csc_analyze) says and what a real kernel did (a struct live_obs), as a
 * class (delivered, or the layer of the drop), and the counters each moved.
 * Shared by the live-kernel differential test (tests/kernel) and
 * `csumcheck --live` (replay.c): both judge a kernel with the same
 * rules. Unlike libcsclive it links the core (library csclive-judge).
 */
#ifndef CSC_LIVE_JUDGE_H
#define CSC_LIVE_JUDGE_H

#include "live.h"

#include "csumcheck/csumcheck.h"

#include <stddef.h>
#include <stdint.h>

/* Where a frame ended. "outer" is the first IP header and the L4 or tunnel
 * header after it; "inner" is the second IP header and what it carries. A
 * frame with one IP header (no tunnel) ends at outer-ip, outer-l4 or
 * delivered. */
enum live_class {
    LIVE_C_DELIVERED = 0, LIVE_C_OUTER_IP, LIVE_C_OUTER_L4, LIVE_C_TUNNEL, LIVE_C_INNER_IP,
    LIVE_C_INNER_L4, LIVE_C_INNER_SILENT, LIVE_C_SILENT, LIVE_C_UNKNOWN, LIVE_C_MIXED,
    LIVE_C__COUNT
};
const char *live_class_name(int k);

/* The era preset that claims a kernel release ("5.10.0-46-amd64"). */
const char *live_era_for_release(const char *release);
/* Whether the kernel of this release has CONFIG_IPV6_MIP6 (csc_config.ipv6_mip6):
 * this machine's from /proc/config.gz or /boot/config-RELEASE; another
 * (a Debian VM kernel) and one whose config is not readable: true */
bool live_kernel_mip6(const char *release);
/* Whether the kernel of this release has CONFIG_VLAN_8021Q (csc_config.vlan_8021q:
 * the 802.1Q GRO handler), read as live_kernel_mip6 (the host's 6.18 has not) */
bool live_kernel_vlan_8021q(const char *release);
/* Whether this machine's kernel (release: uname's) has an 802.2 packet
 * handler now (/proc/net/ptype lists 0004: llc_rcv); a VM's kernel: no */
bool live_kernel_llc(const char *release);

/* The model's class of one analysed frame. */
int live_model_class(const struct csc_result *r);

/* The kernel's class of one frame from its observation. dev: the tunnel
 * device the frame was meant for (NULL: no tunnel, the TAP itself);
 * nosock: no socket listened for its transport; in6: the innermost IP is
 * IPv6; delivered: its socket got it. */
int live_kernel_class(const struct live_obs *o, const char *dev, int nosock, int in6, int delivered);

/* Counters compared: every model counter (enum csc_counter), then the
 * statistics of the tunnel device the kernel may move on a drop. */
#define LIVE_N_DEV_STATS 7
#define LIVE_N_CNT (CSC_C__COUNT + LIVE_N_DEV_STATS)
const char *live_count_name(unsigned i);
/* The device statistic k (0..LIVE_N_DEV_STATS) by name ("rx_errors"...). */
const char *live_dev_stat_name(unsigned k);
/* cnt[LIVE_N_CNT]: += 1 for each counter in the model's mask (csc_kernel.counters) */
void live_model_counts(uint32_t counters, int64_t *cnt);
/* After the last live_model_counts: the device statistics the model names. */
void live_model_counts_finish(int64_t *cnt);
/* cnt[LIVE_N_CNT] from an observation; dev as for live_kernel_class. */
void live_kernel_counts(const struct live_obs *o, const char *dev, int64_t *cnt);
/* "TcpInCsumErrors,TcpInErrs" or "-" (device statistics the model names
 * are shown once, under the model's name) */
void live_counts_text(const int64_t *cnt, char *buf, size_t n);
/* The first counter that differs, -1 when all agree. */
int live_counts_diff(const int64_t *model, const int64_t *kernel);

#endif
