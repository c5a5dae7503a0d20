/*
 * kdiff.h - the live-kernel differential test (docs/kernel-diff.md).
 *
 * A case is one frame, or a run of segments of one flow, written to a TAP
 * under a tunnel device in a private network namespace of some kernel (the
 * host's, or one booted under qemu by live/vm/csc-vm); the same bytes go
 * through csc_analyze() (and the GRO engine) with the configuration that
 * matches the receiver and the era preset that claims that kernel, and the
 * two outcomes are compared.
 *
 *   kdiff_cases.c   the tunnels, the case matrix and the labels
 *   kdiff_frames.c  the frames (captures/lib/pb), the receiver setups
 *   kdiff_model.c   the model's outcome, the kernel's outcome, the comparison
 *   kdiff_main.c    driver: runs the kernel side (libcsclive, live/), tables
 */
#ifndef CSC_KDIFF_H
#define CSC_KDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "live.h"
#include "pb.h"

#define KD_MAX_SEGS 10
#define KD_TCP_PAYLOAD 100
#define KD_UDP_PAYLOAD 64
#define KD_GRO_TIMEOUT_NS 4000000u   /* gro_flush_timeout of the GRO setups */
#define KD_FOU_PORT 5555             /* + the FOU variant */
#define KD_GUE_PORT 6080             /* + 100 x the GUE variant */
#define KD_GREUDP_PORT 4754          /* GRE-in-UDP (RFC 8086); 4755 with icsum */
#define KD_L2TP_PORT 1701            /* L2TPv3 over UDP: the tunnel socket's port */
#define KD_L2TP_PEER_PORT 40000      /* its peer's (the socket is connected): every frame's
                                        outer UDP source port */
#define KD_L2TP_UDP 17               /* kd_group.payload of L2TP over UDP */

/* What is tunnelled, named by the wire; the underlay picks the device. */
enum kd_tun {
    KT_VXLAN = 0,   /* vxlan: UDP 4789, inner Ethernet */
    KT_GPE,         /* vxlan gpe external: UDP 4790, inner IP */
    KT_GENEVE,      /* geneve: UDP 6081, inner Ethernet (or IP with innerprotoinherit) */
    KT_GRE,         /* gre / ip6gre: inner IP */
    KT_GRETAP,      /* gretap / ip6gretap: inner Ethernet */
    KT_IPIP,        /* IPv4 in IP: ipip / ip6tnl mode ipip6 (4in6) */
    KT_IP6,         /* IPv6 in IP: sit / ip6tnl mode ip6ip6 (6in6) */
    KT_FOU,         /* fou port 5555: bare IPv4/IPv6/GRE in UDP, to ipip/sit/ip6tnl/gre */
    KT_GUE,         /* fou port 6080 gue: GUE header, then IPv4/IPv6/GRE */
    KT_GREUDP,      /* fou port 4754 ipproto 47: GRE-in-UDP */
    KT_PLAIN,       /* no tunnel: the TAP receives plain IP (the fuzzer) */
    KT_ERSPAN,      /* erspan / ip6erspan: GRE 0x88be (I, II) / 0x22eb (III), mirrored frame */
    KT_L2TP,        /* L2TPv3 Ethernet pseudowire (an l2tpeth session device): payload 0 over IP
                       (protocol 115, l2tp_ip / l2tp_ip6), KD_L2TP_UDP over UDP (port 1701);
                       no cookie, the default L2-specific sublayer; fixed cases only (the
                       generator does not draw it) */
    KT__COUNT
};

/* Receiver options: what the device (or FOU port) is created with. */
enum kd_opt {
    KO_REMCSUM = 1u << 0,      /* vxlan remcsumrx */
    KO_NOPARTIAL = 1u << 1,    /* vxlan remcsum nopartial */
    KO_NOREMCSUM = 1u << 2,    /* vxlan noremcsumrx given explicitly */
    KO_U6Z = 1u << 3,          /* udp6zerocsumrx (vxlan, geneve) */
    KO_EXTERNAL = 1u << 4,     /* geneve external (collect_md) */
    KO_INHERIT = 1u << 5,      /* geneve innerprotoinherit */
    KO_ICSUM = 1u << 6,        /* gre icsum: a GRE checksum is required */
    KO_IKEY = 1u << 7,         /* gre ikey 77 */
    KO_ERSPAN1 = 1u << 8,      /* erspan_ver 1 (seq, key KD_ERSPAN_SESSION); without: erspan_ver 0 (type I) */
    KO_ERSPAN2 = 1u << 9,      /* erspan_ver 2 (seq, key KD_ERSPAN_SESSION) */
    KO_NOGRO = 1u << 10,       /* the device's GRO off (@gro DEV off): gro_cells_receive hands
                                  the skb to netif_rx; its peers are 10.0.3.P / 2001:db8::3:P,
                                  its ports 1000 up, its name nP */
};
#define KD_ERSPAN_SESSION 7

/* What a case needs of the kernel: the namespace (underlay and TAP mode:
 * v6, napi, gro, level) and the receiving device in it (tun, payload, opts).
 * One namespace holds every device its cases use; each device has its own
 * peer address and port, so none of them sees another's frames. */
struct kd_group {
    uint8_t tun;         /* enum kd_tun */
    uint8_t payload;     /* FOU/GUE: 4 (IPv4), 41 (IPv6), 47 (GRE) */
    uint8_t v6;          /* IPv6 underlay */
    uint8_t napi;        /* TAP with IFF_NAPI: GRO on the TAP */
    uint8_t gro;         /* gro_flush_timeout on the TAP (needs napi) */
    int8_t level;        /* tc-ingress BPF csum level, -1: no program */
    uint16_t opts;       /* enum kd_opt */
};

/* Device report as the harness produces it */
enum kd_report {
    KR_NONE = 0,         /* virtio-net header flags 0 */
    KR_POUT,             /* NEEDS_CSUM at the outermost L4 checksum (UDP, or GRE with C) */
    KR_PIN,              /* NEEDS_CSUM at the inner L4 checksum */
    KR_U0,               /* BPF: UNNECESSARY level 0 */
    KR_U1,               /* BPF: UNNECESSARY level 1 */
    KR__COUNT
};

/* Checksum state of one field */
enum kd_state { KS_OK = 0, KS_BAD, KS_ZERO, KS_SEED, KS_GARB };

/* Tunnel header variants (bits) */
enum kd_hdr {
    KH_RCO = 1u << 0,          /* VXLAN / GUE remote checksum offload for the inner L4 */
    KH_GRE_C = 1u << 1,        /* GRE checksum present */
    KH_GRE_K = 1u << 2,        /* GRE key present (key 77) */
    KH_GRE_S = 1u << 3,        /* GRE sequence number present */
    KH_GNV_OPT = 1u << 4,      /* GENEVE: one 8-byte option (non-critical type) */
    KH_GNV_CRIT = 1u << 5,     /* GENEVE: critical-options bit (C) */
    KH_GNV_OAM = 1u << 6,      /* GENEVE: OAM bit (O) */
    KH_GNV_VER1 = 1u << 7,     /* GENEVE: version 1 */
    KH_L3 = 1u << 8,           /* GENEVE: inner IP with no Ethernet (protocol 0x0800/0x86dd) */
    KH_GUE_CTRL = 1u << 9,     /* GUE control message (C bit) */
    KH_GUE_PRIV = 1u << 10,    /* GUE private flags word with an unknown flag */
    KH_GUE_VER1 = 1u << 11,    /* GUE variant 1: direct IP, no GUE header */
    KH_GUE_FLAG = 1u << 12,    /* GUE: an unknown (reserved) header flag */
    KH_GUE_VER2 = 1u << 13,    /* GUE version field 2 */
    KH_ERSPAN2 = 1u << 14,     /* ERSPAN type II header (GRE 0x88be with S) */
    KH_ERSPAN3 = 1u << 15,     /* ERSPAN type III header (GRE 0x22eb with S) */
};

struct kd_case {
    struct kd_group g;
    uint8_t report;               /* enum kd_report */
    uint8_t inner6;               /* inner IPv6 */
    uint8_t tcp;                  /* inner TCP, else UDP */
    uint8_t nosock;               /* inner port without a listener */
    uint8_t nseg;                 /* 1: single frame; 2..KD_MAX_SEGS: a run */
    uint16_t hdr;                 /* enum kd_hdr */
    uint8_t ip[KD_MAX_SEGS];      /* outer IPv4 header checksum */
    uint8_t oudp[KD_MAX_SEGS];    /* outer UDP checksum (UDP tunnels) */
    uint8_t gcs[KD_MAX_SEGS];     /* GRE checksum (with KH_GRE_C) */
    uint8_t icsum[KD_MAX_SEGS];   /* inner L4 checksum */
    uint16_t id;                  /* case number (ports derive from it) */
    uint8_t icmp;                 /* inner ICMP (IPv4) instead of TCP/UDP: */
    uint8_t icmp_type, icmp_len;  /*   its type and the bytes after its 8-byte header */
    uint8_t hbh;                  /* inner IPv6 with a hop-by-hop header: 1 + index in
                                     kd_hbh_opts (docs/kernel-branches.md B5) */
    uint8_t addr;                 /* enum kd_addr: an inner address of a class the kernel
                                     drops by (docs/kernel-branches.md B1) */
    uint8_t frag;                 /* enum kd_frag: the frame cut into IP fragments, each a
                                     segment (ip[] per fragment; the rest from index 0) */
};

/* Inner addresses the receive path drops by (ip6_rcv_core; the martians of
 * ip_route_input_slow): the label says "+<name>" (kd_addr_name) */
enum kd_addr { KA_NONE = 0, KA_SRC_LOOPBACK, KA_DST_LOOPBACK, KA_SRC_MCAST, KA_SRC_ZERONET,
               KA_DST_ZERONET, KA_DST_MC_SCOPE1, KA_DST_MC_SCOPE0, KA__COUNT };
const char *kd_addr_name(unsigned a);
/* The hop-by-hop options of the B5 cases: name and 6 option bytes */
struct kd_hbh { const char *name; uint8_t opts[6]; };
extern const struct kd_hbh kd_hbh_opts[];
extern const unsigned kd_n_hbh_opts;

/* A frame sent as IP fragments of KD_FRAG_PAYLOAD bytes (issue 16) */
enum kd_frag { KF_NONE = 0, KF_INORDER, KF_REVERSE };
#define KD_FRAG_PAYLOAD 64

/* kdiff_cases.c */
size_t kd_make_cases(struct kd_case *out, size_t cap);
int kd_group_eq(const struct kd_group *a, const struct kd_group *b);
const char *kd_tun_name(const struct kd_group *g);   /* "vxlan", "fou-gre", "ip6tnl-4in6", ... */
const char *kd_state_name(unsigned s);
const char *kd_report_name(unsigned r);
void kd_group_label(const struct kd_group *g, char *buf, size_t n);
void kd_case_label(const struct kd_case *c, char *buf, size_t n);
int kd_is_udp_tunnel(const struct kd_group *g);
int kd_inner_l2(const struct kd_case *c);    /* inner Ethernet header present */

/* The receiving device of a group: its name, its peer (the outer source
 * address: 10.0.0.P, 2001:db8::P) and its UDP port (UDP tunnels). */
struct kd_devspec {
    int idx;
    char name[16];            /* "t<idx>" ("n<idx>" with KO_NOGRO) */
    uint8_t peer;
    uint8_t net;              /* the peer's network: 10.0.NET.PEER, 2001:db8::NET:PEER (0: ::PEER) */
    uint16_t port;
};
/* The peer's address as text */
void kd_peer_text(const struct kd_group *g, char *buf, size_t n);
void kd_dev_of(const struct kd_group *g, struct kd_devspec *d);
/* An L2TP device's tunnel and session ID (one number, distinct per device) */
uint32_t kd_l2tp_id(const struct kd_group *g);
int kd_ns_eq(const struct kd_group *a, const struct kd_group *b);
int kd_dev_eq(const struct kd_group *a, const struct kd_group *b);

/* kdiff_frames.c */
struct kd_frame_info {
    size_t len;
    size_t outer_l4, outer_csum;  /* outermost L4 checksum (UDP or GRE), 0: none */
    size_t inner_l4, inner_csum;
    size_t inner_l3_len;          /* inner IP packet length (the device's rx_bytes) */
};
size_t kd_build(const struct kd_case *c, int seg, uint8_t *out, size_t cap, struct kd_frame_info *fi);
/* The layers of segment seg of a case pushed into f, not built yet (the
 * fuzzer mutates them first); ix: the pb layer of each part, -1 absent.
 * dport 0: the case's own. */
struct kd_stack_idx {
    int oeth, oip, outer_l4, udp, tun, ieth, iip, l4, pay;
};
void kd_stack(const struct kd_case *c, int seg, uint16_t dport, struct pb_frame *f, struct kd_stack_idx *ix);
/* The number of fragments a case with frag set is cut into (0: cannot) */
int kd_frag_count(const struct kd_case *c);
/* The namespace of a group with no device yet (TAP, sockets), then each
 * device (its lines and sentinels); returns the device's index in s. */
void kd_setup_of(const struct kd_group *g, struct live_setup *s);
int kd_setup_add_dev(struct live_setup *s, const struct kd_group *g);
/* The case as frames with their virtio-net headers, on device dev */
int kd_live_case(const struct kd_case *c, int dev, struct live_case *lc);

/* kdiff_model.c (the classes and counters are judge.h's, shared with csumcheck --live) */

struct kd_outcome {
    int frames;
    int delivered;            /* frames delivered to the inner socket */
    int at_dev;               /* frames (segments) that entered the tunnel device */
    int cls;                  /* single frame: enum live_class */
    int64_t cnt[LIVE_N_CNT];  /* per counter (judge.h): how many times it moved */
    int skbs_dev;             /* kernel: t0 rx_packets */
    int merges;               /* kernel: segments merged by the TAP's GRO; model: GRO engine */
    int merges_all;           /* model: merged at the NIC or at a tunnel device (gro_cells) */
    int lost_merges;          /* kernel: of them, in super-packets the UDP socket lost (L8) */
    int gro_order_dep;        /* model: a tunnel device's merge depends on the order the NIC
                                 sends its packets up (csc_gro_fate.order_dep): how many skbs
                                 leave that device is not known, only between 1 and dev_segs */
    int dev_segs;             /* model: segments that reached the tunnel device */
    int64_t dev_cnt[LIVE_N_CNT];  /* model: the part of cnt[] counted on skbs that left it */
    char note[160];
};

/* The model's configuration for a receiver of this group: report as
 * csc_report_parse reads it, the device's options and port, the era */
struct csc_config;
/* CONFIG_IPV6_MIP6 of the kernel under test (kd_config_of; default 1: Debian's
 * VM kernels); the mains set it for this machine's kernel (live_kernel_mip6) */
extern int kd_kernel_mip6;
extern int kd_kernel_vlan_8021q;  /* the kernel has CONFIG_VLAN_8021Q (live_kernel_vlan_8021q) */
extern int kd_kernel_llc;       /* this machine's kernel has llc_rcv (live_kernel_llc) */
void kd_config_of(const struct kd_group *g, const char *report, int nosock, const char *era,
                  struct csc_config *cfg);
void kd_model(const struct kd_case *c, const char *era, struct kd_outcome *m, int perturb);
void kd_kernel(const struct kd_case *c, const struct live_obs *o, struct kd_outcome *k);
/* The same over frames built elsewhere (the fuzzer): the model's outcome of
 * a run of nseg frames through a receiver of group g, GRO engine included */
void kd_model_frames(const struct csc_config *cfg, const struct kd_group *g, int nseg,
                     const struct live_frame *const *frames, struct kd_outcome *m);
/* Datagrams the last kd_model_frames left in its reassembly queue (a
 * fragment queued for one is decided only when it completes or is dropped) */
int kd_model_frag_pending(void);
/* How kd_model_frames analyses a frame: csc_analyze (NULL, the default) or
 * the caller's (csc-kfuzz: the fast path, kfuzz_fast.c) */
struct csc_frame;
struct csc_result;
extern void (*kd_analyze)(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r);
/* and the kernel's, from what the run looks like: the device, the
 * transport, the innermost family, each segment's inner IP packet length
 * and transport payload (equal for every segment of a run) */
struct kd_run_shape {
    struct kd_group g;
    int nseg, tcp, nosock, in6;
    int64_t inner_l3_len, payload;
};
void kd_kernel_of(const struct kd_run_shape *c, const struct live_obs *o, struct kd_outcome *k);
int kd_compare(const struct kd_case *c, const struct kd_outcome *m, const struct kd_outcome *k,
               int strict_gro, char *why, size_t n);
void kd_outcome_text(const struct kd_case *c, const struct kd_outcome *x, char *buf, size_t n);
void kd_dump_model(const struct kd_case *c, const char *era);
void kd_dump_kernel(const struct live_obs *o);

#endif
