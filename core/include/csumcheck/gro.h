/*
 * gro.h - GRO coalescing across frames (issue "GRO coalescing across frames").
 *
 * csc_analyze() says, per frame and per receiving device (the NIC, then each
 * tunnel device through gro_cells), whether dev_gro_receive would hold the
 * frame (eligible to merge) or pass it up at once, and why. This engine
 * follows frames in capture order through each device's GRO list the way
 * net/core/gro.c and tcp_gro_receive() (net/ipv4/tcp_offload.c) do: flows matched on the headers GRO compares, TCP sequence continuity,
 * the segment-size rule (mss of the first segment), flags that end a
 * super-packet, gro_max_size, the held-packet limit per hash bucket, and
 * flushes at the end of each NAPI poll or on gro_flush_timeout. A segment
 * that is not eligible goes up at once and overtakes the held segments of
 * its flow.
 *
 * Caller-owned fixed tables; nothing allocated. Simplifications (documented
 * in docs/gro.md): a tunnel device is fed in capture order, not in the
 * order the NIC sends its packets up (order_dep marks where that shows),
 * and a super-packet built at the NIC reaches it as one packet that is not
 * merged again there.
 */
#ifndef CSUMCHECK_GRO_H
#define CSUMCHECK_GRO_H

#include "csumcheck.h"
#include "slots.h"

#define CSC_GRO_BUCKETS 8        /* GRO_HASH_BUCKETS */
#define CSC_GRO_PER_BUCKET 8     /* MAX_GRO_SKBS */
#define CSC_GRO_FLOWS 512        /* per-flow statistics kept (LRU beyond) */
#define CSC_GRO_DEVS 16

/* Why a held (possibly merged) packet left the GRO list */
enum csc_gro_flush {
    CSC_GF_ALONE = 0,        /* not eligible: passed up at once (csc_dev.gro_reason) */
    CSC_GF_POLL_END,         /* napi_complete_done at the end of a poll */
    CSC_GF_TIMEOUT,          /* gro_flush_timeout expired */
    CSC_GF_AGE,              /* budget exhausted: older than a jiffy */
    CSC_GF_BUCKET_FULL,      /* MAX_GRO_SKBS reached: the oldest goes */
    CSC_GF_SIZE,             /* would exceed gro_max_size */
    CSC_GF_SEQ,              /* sequence not consecutive */
    CSC_GF_HEADER,           /* ack / flags / options / tos / ttl differ */
    CSC_GF_MSS,              /* segment larger than the flow's mss */
    CSC_GF_SMALL,            /* segment smaller than mss: end of a burst */
    CSC_GF_TCP_FLAGS,        /* PSH/FIN/URG/RST/SYN end the super-packet */
    CSC_GF_END,              /* end of the capture */
    CSC_GF__COUNT
};

struct csc_gro_cfg {
    uint16_t budget;         /* frames per NAPI poll (64) */
    uint32_t max_size;       /* gro_max_size (65536) */
    uint32_t poll_gap_us;    /* a gap longer than this ends a poll (100) */
    uint32_t flush_timeout_us; /* gro_flush_timeout; 0: flush at every poll end */
    uint64_t era_sw;         /* the kernel era's switches (csc_era.sw; default: modern's):
                                the IPv4 ID rule (GRO_NETWORK_FLUSH, GRO_FIXEDID_PER_HEADER)
                                and tcp_gro_receive's CWR rule (TCP_GRO_CWR_*) */    bool nic_no_rx_hash;     /* the NIC gives no RX hash (skb->hash 0: a TAP, a NIC without
                                RSS hashing): dev_gro_receive's bucket (skb_get_hash_raw &
                                (GRO_HASH_BUCKETS - 1)) is 0 for every flow, so a ninth
                                held flow flushes the oldest (MAX_GRO_SKBS). Default
                                false: the flows spread over the 8 buckets as an RSS hash
                                spreads them (by flow key). Tunnel devices keep theirs. */
};

struct csc_gro_held {
    uint8_t used;
    uint16_t count;          /* segments merged */
    uint16_t mss;
    uint8_t flags;
    uint16_t flow;           /* index in the flow table */
    uint16_t tag;            /* the flow's index hash (speed only) */
    uint32_t next_seq, ack, len;
    uint64_t key, hdr;       /* flow key; header words that must match */
    uint64_t first_frame, first_us;
    uint32_t later_passes, later_bytes;  /* passes after NIC GRO, if it goes up alone */
    uint8_t gso_lost;        /* merged, the encap UDP socket loses it (csc_gro_seg) */
    uint8_t atomic;          /* v6.1 NAPI_GRO_CB(p)->is_atomic: fixed-ID mode still open */
    uint8_t fixedid;         /* v6.12 NAPI_GRO_CB(p)->ip_fixedid */
    uint16_t ip_id[2];       /* the first segment's IPv4 IDs (csc_gro_seg.ip_id) */
    /* Where a packet the NIC holds goes next, and what a tunnel device
     * holds came from: a tunnel device gets the NIC's output, not the
     * capture (see order_dep in csc_gro_fate) */
    uint8_t next_dev;        /* NIC: the engine index of the device its first frame reached */
    uint64_t next_key;       /* NIC: that frame's flow key there */
    uint64_t nic_key;        /* tunnel device: its first frame's flow key at the NIC */
    uint8_t nic_mixed;       /* tunnel device: frames the NIC held in other flows merged in */
    uint8_t nic_sent;        /* tunnel device: the NIC sent its first frame up inside a poll */
    uint8_t nic_held;        /* tunnel device: a frame of it waited in the NIC's GRO list (it
                                comes when the NIC sends it up: no flush at the poll's end) */
    uint8_t nic_grown;       /* tunnel device: its first frame's NIC packet grew there, */
    uint32_t nic_next_seq;   /*   and ends here (the sequence the kernel's device compares) */
    uint8_t order_dep;       /* tunnel device: no longer what the NIC sends it (order_dep) */
};

struct csc_gro_flow_stats {
    uint8_t used;
    uint8_t dev;
    uint16_t tag;            /* index hash of (dev, key) (speed only) */
    uint64_t key, last_frame;
    uint64_t frames_in, packets_out, merged_frames;
    uint64_t flushes[CSC_GF__COUNT];
};

struct csc_gro_dev_stats {
    uint8_t used, kind, depth;
    uint64_t frames_in, packets_out, merged_frames, alone;
    uint64_t order_dep;                /* fates here that depend on the NIC's order
                                          (csc_gro_fate.order_dep) */
    uint64_t gso_lost_frames;          /* segments of merged packets lost at the encap UDP
                                          socket (csc_gro_seg.gso_lost) */
    uint64_t refused[CSC_G__COUNT];   /* not eligible, by csc_gro_reason */
    uint64_t flushes[CSC_GF__COUNT];
    struct csc_gro_held held[CSC_GRO_BUCKETS][CSC_GRO_PER_BUCKET];
    /* speed only: per bucket, which held entries are used (bit i), a byte
     * of each one's key (0 when unused: 8 compared at once), their keys and
     * first frames, so a lookup reads one cache line, not eight */
    uint8_t held_used[CSC_GRO_BUCKETS];
    uint64_t held_tags[CSC_GRO_BUCKETS];
    uint64_t held_key[CSC_GRO_BUCKETS][CSC_GRO_PER_BUCKET];
    uint64_t held_first[CSC_GRO_BUCKETS][CSC_GRO_PER_BUCKET];
    uint16_t in_poll;
    uint64_t last_us;
};

#define CSC_GRO_NO_DEV 0xffu     /* an engine device index that names no device */

/* The three fates of a frame at a device, in words (csc_gro_fate_name) */
enum csc_gro_fate_kind {
    CSC_FATE_ALONE = 0,      /* passed up at once (alone_reason says why) */
    CSC_FATE_HELD,           /* entered the GRO list as a first segment */
    CSC_FATE_MERGED,         /* merged into a held super-packet */
    CSC_FATE__COUNT
};
static inline enum csc_gro_fate_kind csc_gro_fate_kind(unsigned held, unsigned merged)
{
    return merged ? CSC_FATE_MERGED : held ? CSC_FATE_HELD : CSC_FATE_ALONE;
}
const char *csc_gro_fate_name(unsigned kind);   /* "alone", "held", "merged" */

/* What happened to one frame at one device */
struct csc_gro_fate {
    uint8_t dev;             /* engine device index, CSC_GRO_NO_DEV if unused */
    uint8_t kind;            /* csc_dev kind */
    uint8_t held;            /* 1: entered the GRO list (new or merged) */
    uint8_t merged;          /* 1: merged into an existing super-packet */
    uint8_t alone_reason;    /* csc_gro_reason when not held */
    uint8_t flushed_other;   /* enum csc_gro_flush of a held packet this frame pushed out */
    uint8_t gso_lost;        /* merged into a packet the encap UDP socket drops: the whole
                                super-packet (from frame `super` on) is lost, UDP_MIB_INERRORS
                                per segment */
    uint64_t super;          /* frame number of the super-packet's first segment */
    uint16_t flow;           /* index of the frame's entry in csc_gro.flow */
    uint8_t order_dep;       /* tunnel device, merged or flushing: the outcome depends on
                                what the NIC sends up and when, which the engine does not
                                follow (docs/gro.md): the packet met here was merged with
                                frames the NIC held in another flow and sent up apart, or
                                grew at the NIC after its first frame came here */
};

struct csc_gro_decision {
    uint8_t n;
    struct csc_gro_fate fate[CSC_MAX_DEVS];
};

/* Speed only, no effect on the results: an index of csc_gro.flow by
 * (device, key). */
#define CSC_GRO_INDEX (4 * CSC_GRO_FLOWS)

struct csc_gro {
    struct csc_gro_cfg cfg;
    struct csc_gro_dev_stats dev[CSC_GRO_DEVS];
    struct csc_gro_flow_stats flow[CSC_GRO_FLOWS];
    uint64_t frames;
    uint64_t frames_devs_full;             /* frames not followed at some device: all
                                              CSC_GRO_DEVS (kind, depth) slots taken */
    uint64_t passes_single, bytes_single;  /* per-frame replay, nothing merged */
    uint64_t passes_merged, bytes_merged;  /* after merging at the NIC */
    uint64_t flows_evicted;                /* statistics entries reused for a new flow */
    /* private */
    uint16_t flows_used;
    struct csc_lru lru;                    /* flow[] by last use (core/slots.h) */
    struct csc_lru_link lru_link[CSC_GRO_FLOWS];
    uint32_t flow_index[CSC_GRO_INDEX];    /* flow[] by (dev, key) (core/slots.h) */
    uint8_t ndevs;                         /* dev[] entries used (taken in order) */
    uint8_t dev_of[CSC_MAX_DEVS][CSC_P__COUNT];   /* (depth, kind) -> dev index + 1 */
};

/* What the engine needs of one frame: its segment as each device sees it
 * (flow key and header hashes, sequence, sizes) and the replay's GRO result
 * there. csc_gro_prepare() makes it from the analysis alone, without engine
 * state, so it may run in any thread; csc_gro_feed_input() then feeds it in
 * capture order. csc_gro_feed() is the two in one. */
struct csc_gro_seg {
    uint8_t kind, gro_ran, gro_reason, layer;
    uint8_t tcp;             /* a TCP segment: the fields below are set */
    uint8_t gso_lost;        /* merged here, the packet is GRE under FOU/GUE: gre_gro_complete
                                sets gso_type = SKB_GSO_GRE, dropping the UDP_TUNNEL bit, so
                                the FOU/GUE socket's udp_unexpected_gso() sends it to
                                udp_rcv_segment(), whose segmentation fails (6.12) */
    uint8_t flags;
    uint8_t nip;             /* IP headers from the device's first layer to the TCP (2: two
                                or more, the kernel's encap_mark): [0] the outermost, [1] the
                                innermost (with one: [1] only) */
    uint8_t ip_v4[2], ip_df[2];
    uint16_t ip_id[2];       /* IPv4 identification (the GRO ID rule: ipid_flush) */
    uint32_t seq, ack, payload, len;
    uint64_t key, hdr;
};

struct csc_gro_input {
    uint8_t ran, ndevs;
    uint32_t sw_passes, sw_bytes;        /* the frame-by-frame replay */
    uint32_t nic_passes, nic_bytes;      /* spent in the NIC's GRO pass */
    uint32_t later_passes, later_bytes;  /* spent after it */
    struct csc_gro_seg dev[CSC_MAX_DEVS];
};

/* What csc_gro_prepare's walk over the layers decides from a frame's shape
 * alone (each layer's flow-key rule, where each device's chains end at a
 * TCP header, GRE under FOU/GUE): made once for a fast-path plan
 * (fast.h), so a frame of that shape only mixes its bytes into the keys. */
#define CSC_GRO_WALK_LAYERS 12
struct csc_gro_walk {
    uint8_t made, n, low, fou;
    uint32_t starts;             /* bit i: a device's first layer */
    uint8_t rule[CSC_GRO_WALK_LAYERS];
    uint8_t tcpat[CSC_GRO_WALK_LAYERS], lostat[CSC_GRO_WALK_LAYERS];
};
/* The walk of r's shape (w->made 0: this shape has none; the general way) */
void csc_gro_walk_make(const struct csc_result *r, struct csc_gro_walk *w);
/* csc_gro_prepare() with the walk of r's shape (NULL or not made: the same) */
void csc_gro_prepare_walk(const struct csc_frame *f, const struct csc_result *r,
                          struct csc_gro_input *in, const struct csc_gro_walk *w);

void csc_gro_cfg_default(struct csc_gro_cfg *cfg);
void csc_gro_init(struct csc_gro *g, const struct csc_gro_cfg *cfg);
/* Feed one analysed frame (capture order); d may be NULL. */
void csc_gro_feed(struct csc_gro *g, const struct csc_frame *f, const struct csc_result *r,
                  uint64_t frame_no, uint64_t ts_us, struct csc_gro_decision *d);
void csc_gro_prepare(const struct csc_frame *f, const struct csc_result *r,
                     struct csc_gro_input *in);
void csc_gro_feed_input(struct csc_gro *g, const struct csc_gro_input *in, uint64_t frame_no,
                        uint64_t ts_us, struct csc_gro_decision *d);
/* Flush everything still held (end of the capture). */
void csc_gro_finish(struct csc_gro *g);

const char *csc_gro_flush_name(unsigned f);

#endif
