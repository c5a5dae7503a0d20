/*
 * kfuzz.h - the differential fuzzer (issue 28, docs/kernel-diff.md): random
 * frames built from the tunnel stacks of the live-kernel differential test,
 * every header field mutated with a bias to the values the kernel branches
 * on, written into a real kernel (the host's, or Debian's in a VM) under a
 * receiver of the same kind, and compared with the model at that kernel's
 * era. A disagreement is minimised (its mutations undone one at a time while
 * it still disagrees the same way) and saved as a pcap with its report.
 *
 * Everything about frame I of seed S - its receiver, report, stack and
 * mutations - comes from a generator seeded with (S, I) alone: the frame
 * is reproduced by `csc-kfuzz --seed S --frame I`, whatever else ran.
 *
 *   kfuzz_gen.c    the receiver, report, stack and mutations of a frame
 *   kfuzz_mut.c    the mutation catalogue: names, values, how each applies
 *   kfuzz_build.c  a frame's bytes and virtio-net header from its recipe
 *   kfuzz_judge.c  the model's and the kernel's outcome, the comparison
 *   kfuzz_run.c    sessions per namespace, minimisation, the findings
 *   kfuzz_known.c  the known-disagreement list, --classify
 *   kfuzz_trace.c  where the kernel dropped a saved frame (skb:kfree_skb)
 *   kfuzz_oops.c   frames a kernel of the list crashes on (skipped, said)
 *   kfuzz_main.c   the program: options, the VM relay, known list, tables
 */
#ifndef CSC_KFUZZ_H
#define CSC_KFUZZ_H

#include "kdiff.h"
#include "pb.h"

#include <stdint.h>
#include <stdio.h>

#define KF_MAX_MUT 10
#define KF_PAYLOAD_MAX 160

/* The layers a mutation can name (which pb layer plays each is filled in
 * when the stack is built; a role may be absent) */
enum kf_role {
    RO_OETH = 0,      /* the frame's Ethernet header */
    RO_OIP,           /* the outer (or only) IP header */
    RO_OL4,           /* the outer UDP of a UDP tunnel */
    RO_TUN,           /* the tunnel header (VXLAN, GPE, GENEVE, GUE, ERSPAN; GRE when it is the tunnel) */
    RO_GRE,           /* a GRE header that is not RO_TUN (under FOU/GUE, before ERSPAN) */
    RO_IETH,          /* an inner Ethernet header */
    RO_IIP,           /* the inner IP header */
    RO_L4,            /* the innermost transport */
    RO_PAY,           /* its payload */
    RO__COUNT
};

/* The innermost transport */
enum kf_l4 { KL_TCP = 0, KL_UDP, KL_ICMP, KL_NONE, KL__COUNT };

/* Mutation kinds (kfuzz_mut.c has the catalogue of each) */
enum kf_mkind {
    MK_CSUM = 0,      /* a checksum's state: bad, zero, garbage, seed */
    MK_ECN,           /* the ECN bits of an IP header */
    MK_DSCP,
    MK_TTL,           /* TTL / hop limit */
    MK_FRAG,          /* IPv4 DF, MF, the evil bit, an offset */
    MK_IPID,
    MK_IHL,
    MK_IPVER,
    MK_IPOPT,         /* an IPv4 option */
    MK_V6EXT,         /* an IPv6 extension header (chained in order) */
    MK_FLOW,          /* IPv6 flow label */
    MK_IPLEN,         /* IPv4 total / IPv6 payload length off by some */
    MK_SADDR,         /* an IP source address of another class */
    MK_DADDR,         /* an IP destination address of another class */
    MK_NXT,           /* an IP protocol / next header */
    MK_DMAC,          /* an Ethernet destination of another class */
    MK_SMAC,
    MK_VLAN,          /* VLAN / QinQ tags after an Ethernet header */
    MK_ETYPE,         /* an EtherType */
    MK_UDPLEN,        /* a UDP length off by some */
    MK_SPORT,         /* a UDP/TCP source port */
    MK_DPORT,         /* a UDP/TCP destination port (never a tunnel's or the sentinel's) */
    MK_TCPFLAGS,
    MK_TCPDOFF,
    MK_TCPOPT,
    MK_TCPURG,
    MK_ICMP,          /* ICMP / ICMPv6 type and code */
    MK_TUNBITS,       /* a tunnel header's flags, version, reserved bits, lengths */
    MK_TUNPROTO,      /* a tunnel header's protocol field */
    MK_GREFLAGS,      /* GRE C/K/S added or removed (the layout follows) */
    MK_GNVOPT,        /* GENEVE options: class, type, critical, length */
    MK_TRUNC,         /* the frame cut short */
    MK_PAD,           /* bytes after the IP packet (an Ethernet trailer) */
    MK__COUNT
};

struct kf_mut {
    uint8_t kind;     /* enum kf_mkind */
    uint8_t role;     /* enum kf_role */
    uint8_t sel;      /* which value of the kind's catalogue */
    uint8_t seg;      /* a run: 0 every segment, s + 1 segment s only */
    uint8_t rep;      /* an inserted layer (VLAN tag) this many times; 0 and 1: once
                         (listed cases only: "oeth.vlan=prio-tag*13") */
};
#define KF_MAX_REP 16

/* The device report a frame is written with */
enum kf_report {
    KFR_NONE = 0,     /* no flags; napi decides whether GRO runs on the TAP */
    KFR_PARTIAL,      /* NEEDS_CSUM at [pstart, pstart+poff) */
    KFR_UNNECESSARY,  /* the namespace's BPF program: level */
};

/* An edit of a listed case (kfuzz_cases.c), beyond the mutation catalogue:
 * the generator never makes one */
enum kf_eop {
    KE_SHORT = 1,     /* the role's header and all after it: its first len bytes, raw */
    KE_SET,           /* len bytes val written at off of the role's header (before the checksums) */
};
#define KF_MAX_EDIT 12
struct kf_edit {
    uint8_t op, role, len;
    uint8_t seg;             /* 0: every segment; N: segment N of a run only ("sN:") */
    uint16_t off;
    uint8_t val[16];
};

/* The recipe of one fuzz frame: receiver, report, stack, mutations */
struct kf_case {
    uint64_t seed;
    uint32_t index;
    struct kd_group g;       /* namespace (v6, napi, level) and device (tun, payload, opts);
                                tun KT__COUNT: no tunnel (plain IP) */
    uint8_t report;          /* enum kf_report */
    uint8_t ptarget;         /* KFR_PARTIAL: where csum_start points (kfuzz_build.c) */
    uint8_t poff_sel;
    uint8_t inner6;          /* inner family where the tunnel carries either */
    uint8_t l4;              /* enum kf_l4 */
    uint16_t hdr;            /* tunnel header variant (enum kd_hdr bits) */
    uint16_t paylen;
    uint16_t sport;          /* innermost source port (unique per frame: no state is shared) */
    uint8_t flags;           /* KF_F_* */
    uint8_t sysctl;          /* 0: the namespace's sysctl defaults; 1: the profile of
                                kf_sysctl_lines (route_localnet, accept_local, seg6_enabled,
                                icmp_echo_ignore_broadcasts 0) - plain TAP only */
    uint8_t nseg;            /* 1: one frame; 2..KD_MAX_SEGS: a run of one flow for GRO
                                (namespace with IFF_NAPI and gro_flush_timeout) */
    int nmut;
    struct kf_mut mut[KF_MAX_MUT];
    int nedit;               /* listed cases only */
    struct kf_edit edit[KF_MAX_EDIT];
};

/* kf_case.flags */
enum {
    KF_F_BCAST_MIRROR = 1u << 0,  /* ERSPAN: the mirrored frame is a broadcast (else addressed to
                                     the monitored host) */
    KF_F_MPLSUDP = 1u << 1,       /* plain: MPLS-in-UDP (RFC 7510, UDP 6635, one label, then
                                     IPv4/UDP): no kernel socket unless `ip fou add port 6635
                                     ipproto 137` */
};
#define KF_MPLSUDP_PORT 6635

/* A frame as written: bytes, virtio-net header, and what the model needs */
struct kf_frame {
    struct live_frame lf;
    int ok;                  /* 0: the recipe made no frame (cannot be written) */
    int role_layer[RO__COUNT];   /* pb layer index of each role, -1: absent */
    size_t l3_off;           /* the outer IP header's offset (partial starts are from it) */
    size_t inner_l3_len;     /* the innermost IP packet's length (a run's device bytes) */
    size_t iip_off;          /* the inner IP header's offset, 0: no inner IP layer */
    uint16_t pstart, poff;   /* KFR_PARTIAL */
};

/* kfuzz_gen.c */
void kf_generate(uint64_t seed, uint32_t index, int host, struct kf_case *c);
const char *kf_tun_name(const struct kd_group *g);
uint64_t kf_rng_next(uint64_t *s);

/* kfuzz_mut.c */
const char *kf_role_name(unsigned r);
const char *kf_mkind_name(unsigned k);
void kf_mut_name(const struct kf_case *c, const struct kf_mut *m, char *buf, size_t n);
/* Number of values in the catalogue of kind k for role r of this case (0:
 * the kind does not apply there); f and role_layer: its base stack */
unsigned kf_mut_nsel(const struct kf_case *c, const struct pb_frame *f, const int *role_layer, unsigned k,
                     unsigned r);
/* The same for a fixed case's recipe (kfuzz_cases.c): also the values the
 * generator does not draw (a source MAC "own") */
unsigned kf_mut_nsel_cases(const struct kf_case *c, const struct pb_frame *f, const int *role_layer, unsigned k,
                           unsigned r);
/* Whether a mutation keeps a run a run (one_segment: it touches one) */
int kf_mut_run_ok(unsigned k, unsigned sel, int one_segment);
/* The weight of kind k in a random draw */
unsigned kf_mut_weight(unsigned k);
/* Apply m to the stack (before pb_build: layer fields, inserted layers,
 * patches). role_layer gives the pb layer of each role. */
void kf_mut_apply(const struct kf_case *c, const struct kf_mut *m, struct pb_frame *f, const int *role_layer);
/* The layers a mutation inserts (VLAN tags, IPv6 extension headers), first
 * of all: role_layer follows the layers that move. */
void kf_mut_insert_roles(const struct kf_case *c, const struct kf_mut *m, struct pb_frame *f, int *role_layer);
/* After pb_build, on the frame's real end (without the Ethernet minimum
 * padding): a cut by a byte count, or padding; returns the new end */
size_t kf_mut_post(const struct kf_case *c, const struct kf_mut *m, uint8_t *buf, size_t len, size_t cap);
/* A cut the builder places by the layout: 1 into the innermost transport
 * header, 2 into the tunnel header, 3 right after the outer IP header; 0
 * for any other mutation */
int kf_mut_trunc_at(const struct kf_mut *m);

/* kfuzz_build.c */
/* The stack of the case before any mutation, and the pb layer of each role */
void kf_base_stack(const struct kf_case *c, int seg, struct pb_frame *f, int *role_layer);
/* Segment seg of the case (0 for a single frame) */
void kf_build(const struct kf_case *c, int seg, struct kf_frame *fr);
void kf_case_label(const struct kf_case *c, char *buf, size_t n);
/* "gretap+icsum+ikey": the receiver and the options it was made with */
void kf_receiver_name(const struct kf_case *c, char *buf, size_t n);
void kf_report_name(const struct kf_case *c, const struct kf_frame *fr, char *buf, size_t n);

/* kfuzz_judge.c */
struct kf_outcome {
    struct kd_outcome o;     /* delivered, cls, at_dev, counters */
    int unknown;             /* the model: verdict unknown (not modelled, queued) */
    int in6, nosock;         /* the innermost IP family, no listener for the transport */
    int l4proto;             /* the innermost transport (enum csc_proto), CSC_P_NONE */
    int l4layer;             /* its layer index (how deep the decode went), -1 */
    int answered;            /* TCP: a listener that takes the segment sends a reset (an ACK
                                without SYN or RST: tcp_rcv_state_process, TCP_LISTEN) */
    int64_t bytes;           /* UDP delivered: the payload bytes the socket reads (model: the
                                datagram's UDP length less its header) */
};
void kf_model(const struct kf_case *c, const struct kf_frame *fr, const char *era, struct kf_outcome *m);
/* Why kf_model's last verdict was unknown (its last step's function, or the decoder's stop) */
const char *kf_model_why_unknown(void);
/* kfuzz_fast.c: the model's analysis of a frame, csc_analyze_fast() through
 * tables by configuration (issue 25) unless --no-fast-path (kf_fast_path 0);
 * the step trace is off (kf_model_why_unknown runs the general path again) */
extern int kf_fast_path;
void kf_analyze(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r);
void kf_fast_report(FILE *out);    /* frames from plans, by the general path, the memo */
void kf_kernel(const struct kf_case *c, const struct kf_outcome *m, const struct live_obs *o, struct kf_outcome *k);
/* A run: the model over its segments with the GRO engine, the kernel from
 * the run's counters (kd_model_frames, kd_kernel_of) */
void kf_model_run(const struct kf_case *c, const struct kf_frame *seg, const char *era, struct kf_outcome *m);
void kf_kernel_run(const struct kf_case *c, const struct kf_frame *seg, const struct kf_outcome *m,
                   const struct live_obs *o, struct kf_outcome *k);
/* 1 agree, 0 disagree (why says how: "drop layer: model ..., kernel ..."),
 * 2 the model does not know (its verdict is unknown: nothing to compare).
 * nseg > 1: a run, compared by segments delivered and at the device, counters
 * and GRO merges */
int kf_compare(const struct kf_outcome *m, const struct kf_outcome *k, int nseg, char *why, size_t n);
/* The short form of a disagreement minimisation keeps: classes and the first
 * counter that differs */
void kf_disagreement_key(const struct kf_outcome *m, const struct kf_outcome *k, int nseg, char *buf, size_t n);
void kf_dump_model(const struct kf_case *c, const struct kf_frame *fr, const char *era, FILE *out);

/* kfuzz_run.c: the fuzzer against the kernel this process runs on */
struct kf_opts {
    const char *kernel;      /* its name in labels, reports and the known list: host, bullseye, ... */
    uint64_t seed;
    uint32_t first, count;   /* frames first .. first+count-1 */
    const uint32_t *list;    /* or these count frames */
    const char *list_text;   /* the list as given (--frames 3,17,40), for the VM relay */
    int host_tunnels;        /* generate only the receivers the host kernel can make */
    const char *bpf;         /* csum_level.bpf.o (unnecessary:L reports) */
    const char *known;       /* the known-disagreement list */
    const char *out;         /* directory for the reports and pcaps, NULL: none */
    const char *summary;     /* the table, for CI and the docs */
    unsigned max_saved;      /* reports written at most (one per distinct disagreement) */
    int no_minimise;
    int minimise_all;        /* minimise every disagreement (else a known line and key that had
                                KNOWN_MINIMISED minimisations count the next ones as they come) */
    int trace;               /* trace drops for the reports (the VM: always) */
    int model_only;          /* no kernel: generate, build, model (the fuzzer's own cost) */
    const char *model_era;   /* --model-only's era (--era; default 6.12) */
    const struct kf_case *cases;   /* --cases: these count recipes instead of generated frames;
                                      each must agree (kfuzz_cases.c) */
    const char *cases_path;  /* the file they came from (for the VM relay) */
    int verbose;
    int no_fast_path;        /* --no-fast-path: the model's frames by csc_analyze() */
};
/* Exit status: 0 no disagreement outside the known list and no harness
 * error, 1 otherwise, 77 nothing could run here (with the reason) */
int kf_run_here(const struct kf_opts *o);

/* Frame i of a run: the listed recipe (o->cases) or frame i of the seed */
void kf_case_of(const struct kf_opts *o, uint32_t i, struct kf_case *c);

/* kfuzz_cases.c: fixed recipes, one a line (the file's grammar is at its top).
 * kf_case_parse: 0 a case, 1 a blank or comment line, -1 an error (err says) */
int kf_case_parse(const char *line, uint32_t index, struct kf_case *c, char *err, size_t en);
int kf_cases_load(const char *path, struct kf_case **out, uint32_t *n);
void kf_cases_free(void);      /* what kf_cases_load allocated */
/* The edits of a listed case, over its stack after the mutations (kf_build) */
void kf_edits_apply(const struct kf_case *c, int seg, struct pb_frame *f, int *role);
/* The recipe text of loaded case i, as written in the file */
const char *kf_case_text(uint32_t i);

/* kfuzz_trace.c: the skb:kfree_skb tracepoint around one more write of a
 * disagreeing frame (its report says where the kernel dropped it) */
int kf_trace_available(void);
void kf_trace_begin(void);
void kf_trace_end(char *buf, size_t n);

/* kfuzz_oops.c: why writing this frame would crash the kernel of this
 * release (the VM and the run with it), NULL when it would not */
const char *kf_oops(const struct kf_case *c, const struct kf_frame *fr, const char *release);

/* kfuzz_known.c: the known-disagreement list */
int kf_known_load(const char *path);
/* The first line whose kernels include kernel and whose pattern matches sig, -1 */
int kf_known_match(const char *kernel, const char *sig);
void kf_known_seen(int i);
const char *kf_known_why(int i);
void kf_known_report_unseen(const char *kernel);
void kf_known_free(void);
/* The disagreements a run's output printed, explained again by o->known */
int kf_classify(const struct kf_opts *o, const char *log);

#endif
