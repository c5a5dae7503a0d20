/*
 * frag.h - bounded IP reassembly: checksums from sums, and - with a byte
 * store attached - the whole reassembled datagram decoded and replayed.
 *
 * A fragmented datagram's L4 checksum covers bytes spread over several
 * frames. Every fragment's payload starts at a multiple of 8, so the sum of
 * the datagram is the plain ones'-complement sum of the fragments' payload
 * sums, which the verifier already has. The table keeps, per datagram, only
 * that sum, the byte ranges seen and the L4 header facts of the first
 * fragment: constant memory, caller-owned, nothing allocated.
 *
 * On the frame that completes a datagram, csc_frag_feed() appends a layer
 * (the L4 protocol, reason "reassembled") with the verdict over the whole
 * datagram, as tshark does with reassembly on. A fragment that overlaps
 * the queue, or whose end disagrees with it, kills the queue as the kernel
 * does (ip_frag_queue, ip6_frag_queue, inet_frag_queue_insert; v6.12): the
 * frame is dropped at ip_defrag, counted in overlaps or dropped. Only a
 * fragment the replay dropped before the queue can bring an overlap into a
 * completed datagram: "unverifiable" (frag-overlap). Bounded by entries,
 * runs and bytes in flight;
 * the least recently fed datagram is evicted (an LRU list, O(1)), and
 * evictions are counted.
 *
 * With csc_frag_attach() (a configuration and a caller-owned byte store of
 * CSC_FRAG_STORE_BYTES, one fixed area per slot: nothing is allocated per
 * packet) the table also keeps the fragments' bytes. The frame that
 * completes a datagram then gets ALL of the datagram's layers (transport,
 * tunnel, every inner layer), decoded and verified like a frame and replayed
 * as the kernel goes on with the reassembled skb (core/replay/replay.c,
 * csc_replay_reassembled): they are appended to the frame's layers with the
 * note "reassembled" (offsets in the datagram), checksums computed over it
 * say reason "reassembled", and the frame's kernel outcome becomes the
 * datagram's. Without a store (or for a datagram the kernel could not
 * rebuild) the one-layer verdict above is what it gets.
 */
#ifndef CSUMCHECK_FRAG_H
#define CSUMCHECK_FRAG_H

#include "csumcheck.h"
#include "slots.h"

#define CSC_FRAG_SLOTS 64
#define CSC_FRAG_INDEX (4 * CSC_FRAG_SLOTS)   /* hash index of the entries (power of 2) */
#define CSC_FRAG_RANGES 64              /* runs of a queue (inet_frag_queue_insert: fragments
                                           out of order are runs of their own) */
#define CSC_FRAG_MAX_BYTES (4u << 20)   /* like ipfrag_high_thresh */
#define CSC_FRAG_HDR_ROOM 256u          /* the first fragment's header (IPv4 with options,
                                           IPv6 up to its fragment header) */
#define CSC_FRAG_DGRAM_MAX 65536u       /* the payload of a datagram: an IPv4 total length
                                           and an IPv6 payload length are 16 bits */
#define CSC_FRAG_SLOT_BYTES (CSC_FRAG_HDR_ROOM + CSC_FRAG_DGRAM_MAX)
#define CSC_FRAG_STORE_BYTES ((size_t)CSC_FRAG_SLOTS * CSC_FRAG_SLOT_BYTES)

struct csc_frag_range { uint32_t a, b; };

struct csc_frag_entry {
    uint8_t used, v6, proto, have_first, have_last, overlap, nranges;
    uint8_t saddr[16], daddr[16];
    uint32_t id;
    uint32_t total;              /* datagram payload length, once the last is seen */
    uint32_t qlen;               /* the highest end fed (ip_frag_queue's q.len) */
    uint32_t sum;                /* sum of the payload bytes seen */
    uint32_t addrsum;            /* pseudo-header address sum */
    uint32_t csum_at;            /* checksum field offset in the datagram */
    uint32_t bytes;
    uint32_t ulen;               /* UDP length from the first fragment */
    uint8_t tail_len;            /* last bytes of the datagram, for a UDP */
    uint8_t tail[32];            /* length shorter than the datagram */
    uint32_t usum;               /* sum of the datagram's first ulen bytes fed since the first
                                    fragment (what the UDP length trims the datagram to) */
    uint32_t early_min;          /* the lowest offset fed before the first fragment */
    uint8_t early, usum_lost;    /* fragments fed before the first; a share not summed */
    uint64_t last_frame;
    /* the byte store (csc_frag_attach) */
    uint8_t bytes_ok;            /* every fragment's bytes are in the slot's area */
    uint16_t hlen;               /* the first fragment's header, stored before the payload
                                    (at most CSC_FRAG_HDR_ROOM) */
    uint16_t nh_at;              /* IPv6: offset in it of the next-header byte that named
                                    the fragment header */
    uint8_t frag_nh;             /* IPv6: the fragment header's next header */
    uint8_t state_seen, head_summed, head_level, summed_mixed;   /* ip_summed the fragments arrived with
                                    (the offset-0 one's; another on any: CHECKSUM_NONE) */
    uint8_t kernel_lost;         /* the replay dropped a fragment before ip_defrag */
    uint16_t max_size, max_df_size;  /* ip_frag_queue: largest fragment, with DF */
    uint8_t ecn;                 /* the queued fragments' ECN codepoints, one bit each
                                    (ip_frag_queue's qp->ecn) */
    uint8_t reasm_ecn;           /* what ip_frag_reasm ORs into the datagram's ECN field */
    uint16_t head_hlen;          /* the first fragment's header as the datagram keeps it
                                    (IPv6: less the fragment header) */
    struct csc_frag_range r[CSC_FRAG_RANGES];   /* the runs, sorted, disjoint */
};

struct csc_frag_table {
    struct csc_frag_entry e[CSC_FRAG_SLOTS];
    const struct csc_config *cfg;    /* csc_frag_attach: the datagram's analysis */
    uint8_t *store;                  /* CSC_FRAG_STORE_BYTES, caller-owned; NULL: sums only */
    struct csc_result dgram;         /* scratch: the completed datagram's analysis */
    uint32_t bytes;              /* payload bytes accounted in flight */
    uint64_t completed, evicted, overlaps, dropped;
    /* private: O(1) lookup and eviction */
    uint32_t index[CSC_FRAG_INDEX];  /* e[] by datagram (core/slots.h) */
    struct csc_lru lru;              /* e[] by last fed (core/slots.h) */
    struct csc_lru_link lru_link[CSC_FRAG_SLOTS];
    uint8_t nfree, free[CSC_FRAG_SLOTS];
};

void csc_frag_init(struct csc_frag_table *t);
/* Keep the fragments' bytes in store (CSC_FRAG_STORE_BYTES, need not be
 * zeroed) and analyse a completed datagram under cfg; both must outlive the
 * table's use. Call after csc_frag_init. */
void csc_frag_attach(struct csc_frag_table *t, const struct csc_config *cfg, uint8_t *store);
/* Call after csc_analyze() on every frame, in capture order; true when the
 * frame completed a datagram and its layers were appended to r. */
bool csc_frag_feed(struct csc_frag_table *t, const struct csc_frame *f, struct csc_result *r,
                   uint64_t frame_no);

#endif
