/*
 * kdiff.h - the live-kernel differential test (docs/kernel-diff.md).
 *
 * A case is one frame, or a run of segments of one flow, written to a TAP
 * under a VXLAN device in a private network namespace; the same bytes go
 * through csc_analyze() with the configuration that matches the harness,
 * and the two outcomes are compared.
 *
 *   kdiff_cases.c   the case matrix, the frames (captures/lib/pb) and labels
 *   kdiff_ns.c      the namespace, devices, sockets, BPF, counters (child)
 *   kdiff_main.c    driver: one child per device setup, the model, compare
 */
#ifndef CSC_KDIFF_H
#define CSC_KDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "pb.h"

#define KD_MAX_SEGS 4
#define KD_TCP_PAYLOAD 100
#define KD_UDP_PAYLOAD 64
#define KD_GRO_TIMEOUT_NS 4000000u   /* gro_flush_timeout of the GRO setups */

/* Device setup: everything that needs its own namespace (one child each). */
struct kd_group {
    uint8_t v6;          /* IPv6 underlay */
    uint8_t napi;        /* TAP with IFF_NAPI: GRO on the TAP */
    uint8_t gro;         /* non-zero gro_flush_timeout on the TAP (needs napi) */
    int8_t level;        /* tc-ingress BPF csum level, -1: no program */
    uint8_t remcsum;     /* vx0 remcsumrx */
    uint8_t nopartial;   /* vx0 remcsum nopartial (VXLAN_F_REMCSUM_NOPARTIAL) */
    uint8_t rcsum_off_explicit; /* remcsum off given explicitly (`noremcsumrx`) */
    uint8_t u6z;         /* vx0 udp6zerocsumrx */
};

/* Device report as the harness produces it */
enum kd_report {
    KR_NONE = 0,         /* virtio-net header flags 0 */
    KR_POUT,             /* NEEDS_CSUM at the outer UDP checksum */
    KR_PIN,              /* NEEDS_CSUM at the inner L4 checksum */
    KR_U0,               /* BPF: UNNECESSARY level 0 */
    KR_U1,               /* BPF: UNNECESSARY level 1 */
};

/* Checksum state of one field (mapped onto pb_state) */
enum kd_state { KS_OK = 0, KS_BAD, KS_ZERO, KS_SEED, KS_GARB };

struct kd_case {
    struct kd_group g;
    uint8_t report;               /* enum kd_report */
    uint8_t inner6;               /* inner IPv6 */
    uint8_t tcp;                  /* inner TCP, else UDP */
    uint8_t rco;                  /* VXLAN RCO for the inner L4 */
    uint8_t nosock;               /* inner port without a listener */
    uint8_t nseg;                 /* 1: single frame; 2..KD_MAX_SEGS: a run */
    uint8_t ip[KD_MAX_SEGS];      /* outer IPv4 header checksum */
    uint8_t oudp[KD_MAX_SEGS];    /* outer UDP checksum */
    uint8_t icsum[KD_MAX_SEGS];   /* inner L4 checksum */
    uint16_t id;                  /* case number (ports derive from it) */
};

/* What the harness reads, as deltas over one case */
enum kd_obs {
    O_IP_INHDR, O_IP_CSUM, O_IP_TRUNC,
    O_UDP_INDG, O_UDP_NOPORTS, O_UDP_INERR, O_UDP_CSUM,
    O_UDP6_INDG, O_UDP6_NOPORTS, O_UDP6_INERR, O_UDP6_CSUM,
    O_TCP_INSEGS, O_TCP_INERRS, O_TCP_CSUM,
    O_ICMP_INERR, O_ICMP_CSUM, O_ICMP6_INERR, O_ICMP6_CSUM,
    O_IP6_INHDR, O_IP6_TRUNC,
    O_VX_RXP, O_VX_RXB, O_VX_RXERR, O_VX_RXFRAME, O_VX_RXCRC, O_VX_RXDROP,
    O_TAP_RXP, O_TAP_RXDROP,
    O_SOCK_UDP, O_SOCK_UDP6,      /* datagrams the inner UDP sockets read */
    O__COUNT
};

/* One case's observation, sent from the namespace child to the driver */
enum kd_status { KD_OK = 0, KD_SKIPPED, KD_ERROR };

struct kd_rec {
    int32_t idx;                  /* index in the case table */
    int32_t status;               /* enum kd_status */
    uint32_t settle_us;           /* time until the counters settled */
    uint32_t retries;             /* GRO runs repeated: a write gap over half gro_flush_timeout */
    int64_t d[O__COUNT];
    char msg[200];
};

/* kdiff_cases.c */
size_t kd_make_cases(struct kd_case *out, size_t cap);
int kd_group_eq(const struct kd_group *a, const struct kd_group *b);
/* Build segment seg of a case; returns the frame length (0 on failure) and
 * the offsets of the outer and inner L4 headers and checksum fields. */
struct kd_frame_info {
    size_t len;
    size_t outer_l4, outer_csum;  /* frame offsets (Ethernet included) */
    size_t inner_l4, inner_csum;
    size_t inner_l3_len;          /* inner IP packet length (vx0 rx_bytes) */
};
size_t kd_build(const struct kd_case *c, int seg, uint8_t *out, size_t cap, struct kd_frame_info *fi);
const char *kd_state_name(unsigned s);
const char *kd_report_name(unsigned r);
const char *kd_obs_name(unsigned o);
void kd_group_label(const struct kd_group *g, char *buf, size_t n);
void kd_case_label(const struct kd_case *c, char *buf, size_t n);

/* kdiff_ns.c (runs in the namespace child) */
struct kd_tools {
    char ip[64];
    char tc[64];
    const char *bpf_obj;          /* NULL: no BPF object was built */
    int verbose;
};
int kd_find_tools(struct kd_tools *t);
/* Enter a private network + mount namespace and set up the group. Returns 0,
 * or -1 with a message (setup failed), or 1 with a message (skip: BPF). */
int kd_setup(const struct kd_tools *t, const struct kd_group *g, char *err, size_t n);
/* Write the case's frames, wait until the kernel has processed them, and
 * fill the counter deltas. */
int kd_run(const struct kd_case *c, struct kd_rec *rec);
/* Can the harness run here at all? 0 yes, else a reason in err. */
int kd_preflight(const struct kd_tools *t, char *err, size_t n);

#endif
