/*
 * frag.h - bounded IP reassembly for checksums, without storing bytes.
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
 * datagram, as tshark does with reassembly on. Overlapping fragments give
 * "unverifiable" (frag-overlap). Bounded by entries and by bytes in flight;
 * the least recently fed datagram is evicted (an LRU list, O(1)), and
 * evictions are counted.
 */
#ifndef CSUMCHECK_FRAG_H
#define CSUMCHECK_FRAG_H

#include "csumcheck.h"

#define CSC_FRAG_SLOTS 64
#define CSC_FRAG_INDEX (4 * CSC_FRAG_SLOTS)   /* hash index of the entries (power of 2) */
#define CSC_FRAG_NIL 0xffu                    /* end of the LRU list */
#define CSC_FRAG_RANGES 16
#define CSC_FRAG_MAX_BYTES (4u << 20)   /* like ipfrag_high_thresh */

struct csc_frag_range { uint32_t a, b; };

struct csc_frag_entry {
    uint8_t used, v6, proto, have_first, have_last, overlap, nranges;
    uint8_t saddr[16], daddr[16];
    uint32_t id;
    uint32_t total;              /* datagram payload length, once the last is seen */
    uint32_t sum;                /* sum of the payload bytes seen */
    uint32_t addrsum;            /* pseudo-header address sum */
    uint32_t csum_at;            /* checksum field offset in the datagram */
    uint32_t bytes;
    uint32_t ulen;               /* UDP length from the first fragment */
    uint8_t tail_len;            /* last bytes of the datagram, for a UDP */
    uint8_t tail[32];            /* length shorter than the datagram */
    uint64_t last_frame;
    uint8_t newer, older;        /* LRU list (slot indices, CSC_FRAG_NIL at the ends) */
    struct csc_frag_range r[CSC_FRAG_RANGES];
};

struct csc_frag_table {
    struct csc_frag_entry e[CSC_FRAG_SLOTS];
    uint32_t bytes;              /* payload bytes accounted in flight */
    uint64_t completed, evicted, overlaps, dropped;
    /* private: O(1) lookup and eviction */
    uint8_t index[CSC_FRAG_INDEX];   /* slot + 1, 0 empty (linear probing) */
    uint8_t newest, oldest;          /* LRU list ends */
    uint8_t nfree, free[CSC_FRAG_SLOTS];
};

void csc_frag_init(struct csc_frag_table *t);
/* Call after csc_analyze() on every frame; true when a reassembled L4
 * verdict was appended to r. */
bool csc_frag_feed(struct csc_frag_table *t, const struct csc_frame *f, struct csc_result *r,
                   uint64_t frame_no);

#endif
