/*
 * replay.h - the Linux RX checksum state machine (docs/kernel-model.md,
 * docs/model-notes.md). Internal to core/.
 *
 * Two state blocks, kept apart as the kernel keeps them:
 *   struct sk_buff_model  - the checksum fields of struct sk_buff
 *                           (include/linux/skbuff.h);
 *   struct napi_gro_cb    - NAPI_GRO_CB(skb) (include/net/gro.h), re-created
 *                           at every dev_gro_receive (NIC, then each tunnel
 *                           device).
 * Offsets are frame offsets. skb->csum is modelled literally (canonical
 * big-endian): with COMPLETE it is the sum of [data, tail); after a deferred
 * validation it holds the stashed pseudo-header sum, exactly as in the
 * kernel, so later helpers compute with what the kernel would have.
 *
 * Functions carry the names of the kernel functions they stand for, double
 * underscores included, so skbuff.h / gro.h / udp.c can be read beside them.
 */
#ifndef CSC_REPLAY_H
#define CSC_REPLAY_H

#include "../csum.h"
#include "../pkt.h"
#include "../proto/wire.h"
#include "csumcheck/csumcheck.h"

enum { CHECKSUM_NONE = 0, CHECKSUM_UNNECESSARY, CHECKSUM_COMPLETE, CHECKSUM_PARTIAL };
#define SKB_MAX_CSUM_LEVEL 3
#define CHECKSUM_BREAK 76

struct sk_buff_model {
    uint8_t ip_summed, csum_level;
    bool csum_valid, csum_complete_sw, csum_bad, remcsum_offload;   /* one-bit fields */
    bool csum_known;             /* csum computable (bytes captured) */
    uint32_t csum;               /* COMPLETE sum, or stashed pseudo sum */
    uint32_t csum_start;         /* PARTIAL: frame offset of the covered start */
    uint16_t csum_offset;
    uint32_t data, tail;         /* skb->data, end of packet (frame offsets) */
};

struct napi_gro_cb {
    uint32_t data_offset;        /* frame offset of the GRO pointer */
    uint32_t csum;
    bool csum_known, csum_valid;
    uint8_t flush, csum_cnt, encap_mark, is_fou, is_ipv6;
    uint8_t recursion_counter;   /* counted gro_receive calls (gro_recursion_inc_test) */
    uint8_t reason, reason_layer;/* first flush reason (enum csc_gro_reason) */
    uint32_t gro_remcsum_start;  /* frame offset, 0 = none */
};

struct gro_remcsum { uint32_t offset; uint32_t delta; uint8_t active; };

/* An in-place write (RCO nopartial) that later sums must see. */
struct field_patch { uint32_t off; uint16_t old, cur; };

struct rp {
    const struct csc_config *cfg;
    /* The replay's input (rp_input): the frame's head and its layers with
     * every value blank (values.h). The outcome is a function of it, of the
     * configuration and of what is read of the frame's bytes, and of nothing
     * else: the memo's key is this input (analyze_cached.c). The layers'
     * kernel parts are written here and copied out at the end. */
    struct csc_result *r;
    /* The frame's own result, for the checksum arithmetic only (rp_region,
     * rp_field, l4_pseudo): sums, checksum fields, pseudo-header sums */
    const struct csc_result *vals;
    struct csc_kernel *k;        /* the outcome: vals' kernel */
    struct pkt p;                /* the frame, read through pkt.h only */
    uint64_t sw;                 /* era switches, CSC_ERA_BIT(enum csc_era_switch) */
    uint32_t caplen, wirelen;
    struct sk_buff_model skb;
    struct napi_gro_cb cb;
    uint8_t dev;                 /* current device index in k->devs */
    uint8_t path;                /* enum csc_path */
    bool done;                   /* the packet was dropped or delivered */
    uint8_t pkt_type;            /* skb->pkt_type: PACKET_* (eth.c) */
    uint8_t npatch;
    struct field_patch patch[4];
};

/* skb->pkt_type (include/uapi/linux/if_packet.h) */
enum { PACKET_HOST = 0, PACKET_BROADCAST = 1, PACKET_MULTICAST = 2, PACKET_OTHERHOST = 3 };

static inline int era(const struct rp *rp, enum csc_era_switch s)
{
    return (int)((rp->sw >> s) & 1u);
}

/* Kernel function ids for the trace (names in names.c) */
enum kfn {
    KF_NONE = 0,
    KF_DRIVER, KF_DEV_GRO_RECEIVE, KF_INET_GRO_RECEIVE, KF_IPV6_GRO_RECEIVE,
    KF_UDP4_GRO_RECEIVE, KF_UDP6_GRO_RECEIVE, KF_UDP_GRO_RECEIVE, KF_VXLAN_GRO_RECEIVE,
    KF_VXLAN_GPE_GRO_RECEIVE, KF_GENEVE_GRO_RECEIVE, KF_GUE_GRO_RECEIVE, KF_FOU_GRO_RECEIVE,
    KF_GRE_GRO_RECEIVE, KF_IPIP_GRO_RECEIVE, KF_SIT_GRO_RECEIVE, KF_IP4IP6_GRO_RECEIVE,
    KF_ETH_GRO_RECEIVE,
    KF_VLAN_GRO_RECEIVE, KF_TCP4_GRO_RECEIVE, KF_TCP6_GRO_RECEIVE, KF_TCP_GRO_RECEIVE,
    KF_SKB_GRO_REMCSUM_PROCESS, KF_SKB_GRO_FLUSH_FINAL_REMCSUM, KF_GRO_CELLS_RECEIVE,
    KF_NAPI_GRO_RECEIVE_RET,
    KF_IP_RCV_CORE, KF_IPV6_RCV, KF_PSKB_TRIM_RCSUM, KF_IP6_PROTOCOL_DELIVER_RCU,
    KF_IP_LOCAL_DELIVER, KF_UDP4_LIB_RCV, KF_UDP4_CSUM_INIT, KF_UDP6_LIB_RCV,
    KF_UDP6_CSUM_INIT, KF_UDP_UNICAST_RCV_SKB, KF_UDP_QUEUE_RCV_ONE_SKB, KF_UDP_RECVMSG,
    KF_VXLAN_RCV, KF_VXLAN_REMCSUM, KF_SKB_REMCSUM_PROCESS, KF_VXLAN_SET_MAC,
    KF_GENEVE_UDP_ENCAP_RECV, KF_GENEVE_RX, KF_GUE_UDP_RECV, KF_GUE_REMCSUM, KF_FOU_UDP_RECV, KF_GRE_RCV,
    KF_GRE_PARSE_HEADER, KF_IP_TUNNEL_RCV, KF_IPIP_RCV, KF_TCP_V4_RCV, KF_TCP_V6_RCV,
    KF_TCP_CHECKSUM_COMPLETE, KF_ICMP_RCV, KF_ICMPV6_RCV, KF_IGMP_RCV, KF_IP_DEFRAG,
    KF_ETH_TYPE_TRANS, KF_VLAN_UNTAG, KF_L2TP_UDP_ENCAP_RECV, KF_IPIP6_RCV, KF_IP6_TNL_RCV,
    KF_NETIF_RX, KF_IPV6_FRAG_RCV, KF_ERSPAN_RCV, KF_IP6ERSPAN_RCV, KF_IPV6_RTHDR_RCV,
    KF_IPV6_DESTOPT_RCV, KF_NETIF_RECEIVE_SKB_CORE, KF_IP_ROUTE_INPUT, KF_IP_PROTOCOL_DELIVER_RCU,
    KF_XFRM_INPUT, KF_L2TP_IP_RECV, KF_L2TP_IP6_RECV, KF_L2TP_RECV_COMMON, KF_L2TP_ETH_DEV_RECV,
    KF_MACSEC_HANDLE_FRAME, KF_IP_RCV_OPTIONS, KF_IP6_ROUTE_INPUT, KF_PING_RCV, KF_ICMP_SOCKET_DELIVER,
    KF__COUNT
};

/* Step actions beyond enum csc_method (names in names.c) */
enum what {
    W_ENTRY = 32, W_GRO_OFF, W_CONVERT, W_GATE_REFUSED, W_FLUSH, W_HELD, W_DEFERRED, W_DROP,
    W_REMCSUM_PARTIAL, W_REMCSUM_ADJUST, W_REMCSUM_START, W_REMCSUM_CLEANUP, W_COMPLETE_UNSET,
    W_TRIM_KEEP, W_TRIM_DOWNGRADE, W_DELIVER, W_NO_SOCKET, W_ZERO_REFUSED, W_SKIP_FLUSH,
    W_NOT_MODELLED, W_QUEUED, W_ENCAP_MARK, W_CSUM_BAD_SKIP, W_PARTIAL_LOST, W_REMCSUM_SKIP,
    W_VALIDATE_FAIL, W_FLAG_MISMATCH, W_INVALID_HDR, W_SHORT, W_REASSEMBLED, W_ECN_NOT_ECT,
    W_CSUM_UNION, W_CSUM_NONE_SET, W_CONTROL, W__END
};

/* Kernel drop reasons (names in names.c, after SKB_DROP_REASON_*) */
enum kdrop {
    KD_NONE = 0, KD_IP_CSUM, KD_IP_INHDR, KD_PKT_TOO_SMALL, KD_UDP_CSUM, KD_TCP_CSUM,
    KD_ICMP_CSUM, KD_GRE_CSUM, KD_GRE_FLAGS, KD_VXLAN_INVALID_HDR, KD_NO_SOCKET,
    KD_IGMP_CSUM, KD_TUNNEL_CSUM_FLAGS, KD_GENEVE_HDR, KD_GUE_HDR, KD_GUE_CONTROL, KD_OTHERHOST,
    KD_RTHDR_UNKNOWN, KD_RTHDR_DISABLED, KD_HAO_NO_STATE, KD_UNHANDLED_PROTO, KD_MARTIAN,
    KD_ICMP_QUOTE, KD_IP_NOPROTO, KD_GPE_NEXT, KD_FRAG_NOT_ROUNDED, KD_FRAG_EMPTY, KD_GPE_HDR, KD_TUNNEL_SEQ, KD_PKT_TYPE,
    KD_IP_TUNNEL_ECN, KD_ECN_NOT_ECT, KD_RTHDR_MIP6, KD_RTHDR_NOT_HOST, KD_FRAG_TWICE, KD_IP_OPTIONS, KD_IP_SRR, KD_FRAG_HDR_INCOMPLETE, KD_FRAG_TOO_FAR,
    KD_IP6_NOT_FINAL, KD_LOCAL_MAC, KD_GENEVE_LOOP, KD_INVALID_PROTO, KD_MC_NOT_JOINED,
    KD_FRAG_OVERLAP, KD_FRAG_BAD_END, KD_NO_NEXT_HEADER, KD_IP_INADDRERRORS, KD_FRAG_ECN, KD_FRAG_OVERSIZE, KD_TCP_AUTH_HDR, KD_TCP_HASH_UNEXPECTED, KD_L2TP_CONTROL,
    KD__COUNT
};

/* ---- trace and outcome (trace.c) ---- */
static inline struct csc_skb_state rp_snap(const struct rp *rp)
{
    struct csc_skb_state s = { rp->skb.ip_summed, rp->skb.csum_level, rp->skb.csum_valid,
                               rp->skb.csum_bad };
    return s;
}
void rp_record(struct rp *rp, uint8_t layer, enum kfn fn, unsigned what, enum csc_tri ok,
               uint32_t bytes, const struct csc_skb_state *before);
/* One step of the trace; recorded only when the caller asked for steps. */
static inline void rp_step(struct rp *rp, uint8_t layer, enum kfn fn, unsigned what,
                           enum csc_tri ok, uint32_t bytes, const struct csc_skb_state *before)
{
    if (layer < rp->r->nlayers && layer > rp->k->last_layer)
        rp->k->last_layer = layer;
    if (rp->cfg->trace_steps)
        rp_record(rp, layer, fn, what, ok, bytes, before);
}
/* A kernel function starts on a layer (the "enter" step). */
static inline void rp_enter(struct rp *rp, uint8_t layer, enum kfn fn)
{
    rp_step(rp, layer, fn, W_ENTRY, CSC_TRI_UNDECIDED, 0, NULL);
}
/* Fold a state change that completes the last step into it (e.g. the level
 * skb_gro_incr_csum_unnecessary hands down after a validation). */
void rp_amend_last(struct rp *rp);
void rp_layer_result(struct rp *rp, uint8_t layer, enum csc_method m, bool ok, uint32_t pass_bytes);
void rp_drop(struct rp *rp, uint8_t layer, enum kfn fn, enum kdrop why, uint32_t counters);
/* counters a branch bumps on a packet it does not drop (consumed with IcmpInErrors) */
void rp_count(struct rp *rp, uint8_t layer, enum kfn fn, unsigned what, uint32_t counters);
/* A path the model does not know: verdict unknown (never accept), the
 * not-modelled warning, and the replay stops. */
void rp_unknown(struct rp *rp, uint8_t layer, enum kfn fn);
/* One full software pass of `bytes`, charged to the frame and the device. */
void rp_count_pass(struct rp *rp, uint32_t bytes);
#define CNT(c) (1u << (c))

/* ---- sums (sums.c) ---- */
bool rp_region(const struct rp *rp, uint32_t a, uint32_t b, uint32_t *sum);
int rp_check(struct rp *rp, uint8_t layer, bool known, uint32_t total);
void rp_patch(struct rp *rp, uint32_t off, uint16_t old, uint16_t cur);
void rp_unpatch(struct rp *rp, uint32_t off);
uint16_t rp_field(const struct rp *rp, const struct csc_layer *l);

/* ---- skb helpers (skb.c): include/linux/skbuff.h, net/core/skbuff.c ---- */
bool skb_csum_unnecessary(const struct rp *rp);
void __skb_decr_checksum_unnecessary(struct rp *rp);
void __skb_incr_checksum_unnecessary(struct rp *rp);
void __skb_mark_checksum_bad(struct rp *rp);
int __skb_checksum_complete(struct rp *rp, uint8_t layer, enum kfn fn);
int __skb_checksum_validate(struct rp *rp, uint8_t layer, enum kfn fn, bool complete,
                            bool zero_okay, uint16_t check, uint32_t psum);
int skb_checksum_complete(struct rp *rp, uint8_t layer, enum kfn fn);
void skb_checksum_try_convert(struct rp *rp, uint8_t layer, enum kfn fn, uint32_t psum);
void skb_checksum_complete_unset(struct rp *rp);
void skb_postpull_rcsum(struct rp *rp, uint32_t start, uint32_t len);
void skb_pull_rcsum(struct rp *rp, uint32_t len);
void pskb_trim_rcsum(struct rp *rp, uint8_t layer, uint32_t new_tail);
void skb_remcsum_process(struct rp *rp, uint8_t layer, enum kfn fn, uint32_t ptr, uint32_t start,
                         uint32_t offset, bool nopartial);
uint32_t remcsum_adjust(struct rp *rp, uint32_t ptr, uint32_t csum, bool known, uint32_t start,
                        uint32_t offset);
uint32_t l4_pseudo(const struct rp *rp, const struct csc_layer *l);

/* validate_gue_flags and the variant checks gue_udp_recv/gue_gro_receive
 * share (rx.c) */
bool gue_hdr_valid(const struct rp *rp, const struct csc_layer *g);

/* ---- GRO (gro.c) ---- */
/* dev_gro_receive on the current device for layer li (an L3 layer). Returns
 * true when GRO holds the packet (count 1: flushed alone, no gro_complete). */
bool dev_gro_receive(struct rp *rp, uint8_t li);
/* gro_receive callbacks, one per protocol row (core/proto/protos.c):
 * inet_offloads[] for IP protocols, the UDP tunnel socket's for tunnels */
void ip_in_ip_gro_receive(struct rp *rp, uint8_t i);
void udp_l4_gro_receive(struct rp *rp, uint8_t i);
void tcp_gro_receive(struct rp *rp, uint8_t i);
void gre_gro_receive(struct rp *rp, uint8_t i);
void vxlan_gro_receive(struct rp *rp, uint8_t t);
void vxlan_gpe_gro_receive(struct rp *rp, uint8_t t);
void geneve_gro_receive(struct rp *rp, uint8_t t);
void gue_gro_receive(struct rp *rp, uint8_t t);

/* ---- addresses (addr.c): ip6_rcv_core, ip_route_input; false: went no further ---- */
bool ip_route_input_addrs(struct rp *rp, uint8_t i);
/* ip_rcv_finish_core's ip_rcv_options for a header with options (addr.c) */
bool ip_rcv_options(struct rp *rp, uint8_t i);
/* the NIC's IP header the decoder refused: ip_rcv_core's header errors (rx.c) */
bool ip_rcv_core_refused(struct rp *rp, uint8_t eth);
bool ip6_rcv_core_addrs(struct rp *rp, uint8_t i);
bool ip6_route_input_addrs(struct rp *rp, uint8_t i);
/* the extension headers' handlers in chain order (exthdrs.c); false: one
 * of them took the packet */
bool ipv6_exthdrs_rcv(struct rp *rp, uint8_t i);
bool ipv6_exthdrs_before_frag(struct rp *rp, uint8_t i);
/* ip6_rcv_core's ipv6_parse_hopopts (tlv.c); false: went no further */
bool ipv6_parse_hopopts(struct rp *rp, uint8_t i);
/* ip_frag_queue / ip6_frag_queue before the queue (defrag.c): queued (verdict
 * unknown) or dropped; the replay goes no further either way */
void ip_frag_queue(struct rp *rp, uint8_t i);
/* icmp_rcv after the checksum (icmp.c); false: dropped */
bool icmp_rcv_type(struct rp *rp, uint8_t i);
bool icmpv6_rcv_type(struct rp *rp, uint8_t i);

/* ---- normal path (rx.c) ---- */
void netif_receive_skb(struct rp *rp, uint8_t li);
void ip_local_deliver_finish(struct rp *rp, uint8_t i);
void erspan_rcv(struct rp *rp, uint8_t g, uint8_t t);
/* ip_tunnel_rcv / __ip6_tnl_rcv's i_flags checks on an ERSPAN device
 * (erspan.c); false: dropped */
bool erspan_tunnel_flags_ok(struct rp *rp, uint8_t g, uint8_t t);
void ip6_protocol_deliver_rcu(struct rp *rp, uint8_t i);
void tunnel_dev_receive(struct rp *rp, uint8_t tunnel_layer, uint8_t inner_l3);
void tunnel_dev_no_handler(struct rp *rp, uint8_t tl, uint8_t at, uint8_t drop);
/* the first IP layer at or after i past inner Ethernet/VLAN, -1: none */
int next_l3(const struct rp *rp, unsigned i);
/* eth_type_trans + skb_vlan_untag of the L2 headers [from, l3) */
void pull_l2(struct rp *rp, uint8_t from, uint8_t l3);
/* receive handlers, one per protocol row: inet_protos[] for IP protocols,
 * encap_rcv for a UDP tunnel socket */
void ipip_rcv(struct rp *rp, uint8_t i);
void udp_rcv(struct rp *rp, uint8_t i);
void tcp_rcv(struct rp *rp, uint8_t i);
void icmp_rcv(struct rp *rp, uint8_t i);
void icmpv6_rcv(struct rp *rp, uint8_t i);
void igmp_rcv(struct rp *rp, uint8_t i);
void gre_rcv(struct rp *rp, uint8_t i);
void ip_no_protocol(struct rp *rp, uint8_t ip);
/* rx.c: a path the model does not know (unknown, never accept); the
 * innermost layer taken by its socket */
void not_modelled(struct rp *rp, uint8_t i, enum kfn fn);
void deliver(struct rp *rp, uint8_t i, enum kfn fn);
/* l4.c: the transport protocol after IP layer i-1 (ip_protocol_deliver_rcu) */
void deliver_l4(struct rp *rp, uint8_t i);
void xfrm_rcv(struct rp *rp, uint8_t i);
void macsec_handle_frame(struct rp *rp, uint8_t i);
void eth_in_ip_rcv(struct rp *rp, uint8_t i);
void vxlan_rcv(struct rp *rp, uint8_t t);
void vxlan_gpe_rcv(struct rp *rp, uint8_t t);
bool gpe_next_unhandled(const struct rp *rp, uint8_t t);
/* vxlan_parse_gpe_proto's header checks: P set, version 0, O clear (gpe.c) */
bool vxlan_parse_gpe_proto(const struct rp *rp, uint8_t t);
void geneve_rcv(struct rp *rp, uint8_t t);
void gue_rcv(struct rp *rp, uint8_t t);
/* l2tp_ip_recv / l2tp_ip6_recv / l2tp_udp_encap_recv (l2tp.c) */
void l2tp_rcv(struct rp *rp, uint8_t t);
/* l2tp_udp_encap_recv on an L2TP header the decoder stopped in after UDP
 * layer u: true when it went back to the socket (fewer than 14 bytes) */
bool l2tp_udp_encap_recv_short(struct rp *rp, uint8_t u);

/* ---- skb->pkt_type (eth.c) ---- */
/* the NIC's eth_type_trans of the frame's own Ethernet header */
void eth_type_trans_nic(struct rp *rp);
/* ether_addr_equal(eth_hdr(skb)->h_source, dev->dev_addr): the inner frame at
 * layer eth comes from the receiving tunnel device's own MAC (cfg dev_mac) */
bool ether_addr_equal_dev_addr(const struct rp *rp, uint8_t eth);
/* what the tunnel device hands on: scrubbed, then its eth_type_trans */
void tunnel_rx_pkt_type(struct rp *rp, uint8_t kind, bool outer_v6, uint8_t tunnel_layer,
                        uint8_t inner_l3);

/* ---- ECN on decapsulation (ecn.c) ---- */
/* IP_ECN_decapsulate / IP6_ECN_decapsulate for what tunnel layer tl
 * decapsulated (inner IP l3); false: dropped (rx_frame_errors + rx_errors) */
bool IP_ECN_decapsulate(struct rp *rp, uint8_t tl, uint8_t l3);
/* IP_ECN_decapsulate on an inner IP header at off the packet does not hold
 * (have bytes), after the inner Ethernet of tunnel layer tl (ecn.c).
 * 1: go on, 0: dropped, -1: not known */
int IP_ECN_decapsulate_short(struct rp *rp, uint8_t tl, uint32_t off, bool v6, uint32_t have);
/* A short inner IP header the tunnel tl did not pull, after its Ethernet
 * header eth: the device, its GRO pass and ip_rcv_core's pull (rx.c).
 * False: not decided (nothing recorded). */
bool tunnel_dev_short_ip(struct rp *rp, uint8_t tl, uint8_t eth, bool v6, uint32_t have);
/* dev_gro_receive on the current device for an IP header at the end of
 * layer `at` that the packet does not hold (gro.c) */
void dev_gro_receive_short_ip(struct rp *rp, uint8_t at, bool v6);

/* ---- device report (report.c) ---- */
void rp_from_report(struct rp *rp, uint8_t l3);

/* Layer navigation */
static inline struct csc_layer *L(const struct rp *rp, uint8_t i)
{
    return &rp->r->layers[i];
}
static inline bool has_layer(const struct rp *rp, unsigned i)
{
    return i < rp->r->nlayers;
}
/* The layer travels under IPv6: its enclosing IP layer is IPv6 (the udp6_ /
 * tcp6_ / __udp6_ functions rather than the v4 ones). */
static inline bool under_ipv6(const struct rp *rp, uint8_t i)
{
    uint8_t ip = L(rp, i)->ip;
    return ip != CSC_NO_LAYER && L(rp, ip)->proto == CSC_P_IPV6;
}
/* A kernel UDP tunnel socket of layer t's row listens for t's family */
bool is_udp_tunnel(const struct rp *rp, uint8_t t);

/* ---- the replay's input (replay.c), for the memo (analyze_cached.c) ---- */
/* The input of r's replay into in (its head and layers; values.h): its
 * first rp_input() bytes are all the replay reads of the result */
size_t rp_input(const struct csc_result *r, struct csc_result *in);
/* csc_replay of r from its input in, the frame's reads recorded in rec
 * (NULL: not recorded) */
void rp_replay(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r,
               struct csc_result *in, struct csc_rec *rec);

/* ---- the reassembled datagram (replay.c), for core/frag.c ---- */
/* Replay a datagram core/frag.c rebuilt (f: its IP header at 0, r: its
 * decode and verify) from where ip_defrag / ipv6_frag_rcv hand it on, with
 * the checksum state inet_frag_reasm_finish left (ip_summed, csum_level of
 * the head). */
void csc_replay_reassembled(const struct csc_config *cfg, const struct csc_frame *f,
                            struct csc_result *r, uint8_t ip_summed, uint8_t csum_level);

#endif
