/*
 * frame-record.h - the compact per-frame record the plugin keeps.
 *
 * A struct csc_result is ~10 KB (breakpoint sums, replay trace); Wireshark
 * keeps per-frame data for the whole file, so the plugin computes the result
 * once, on the first (in-order) pass, and keeps only what it renders:
 * the layer stack as protocol ids, one record per checksummed layer, the
 * packet's kernel outcome and one record per receiving device. Typical size:
 * 100-200 bytes per frame, in one allocation.
 *
 * Pure C11 over the core's public headers: no Wireshark types, so it can be
 * unit-tested.
 */
#ifndef CSC_PLUGIN_FRAME_RECORD_H
#define CSC_PLUGIN_FRAME_RECORD_H

#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"

#include <stddef.h>
#include <stdint.h>

/* One checksummed layer (csc_layer.verdict != CSC_V_NA). */
struct pl_layer {
    uint32_t off;            /* header offset in the frame */
    uint32_t csum_off;       /* checksum field offset, CSC_NO_OFF if none */
    uint32_t notes;          /* enum csc_note bits */
    union {
        uint32_t pass_bytes; /* replay: bytes of software passes */
        struct {             /* a sent frame, not replayed: its TX view of this layer */
            uint16_t tx_wire;    /* what the wire carries in the field */
            uint8_t tx_kind;     /* enum csc_tx_kind, 0: none */
            uint8_t tx_wire_known;
        };
    };
    uint16_t field, expected, resolved, rco_delta;
    uint8_t index;           /* index in the full layer stack (JSON "layers") */
    uint8_t proto, verdict, reason;
    uint8_t method, dev;     /* struct csc_layer_kernel */
    uint8_t passes;
    uint8_t flags;           /* PL_F_*, and the replay's path and result (below) */
};

#define PL_F_GRO_CONV    0x01u
#define PL_F_NORMAL_CONV 0x02u
#define PL_F_ASSUMED     0x04u
#define PL_F_PATH_SHIFT  3       /* enum csc_path, 2 bits */
#define PL_F_OK_SHIFT    5       /* csc_layer_kernel.ok: enum csc_tri, 2 bits */

static inline unsigned pl_layer_path(const struct pl_layer *l) { return (l->flags >> PL_F_PATH_SHIFT) & 3u; }
static inline unsigned pl_layer_ok(const struct pl_layer *l) { return (l->flags >> PL_F_OK_SHIFT) & 3u; }

/* Entry state and GRO decision of one receiving device (NIC, tunnels). */
struct pl_dev {
    uint32_t gro_pass_bytes, pass_bytes;
    uint8_t kind;            /* csc_dev_name() */
    uint8_t layer;           /* first layer it receives */
    uint8_t gro_ran, gro_reason, gro_layer;
    uint8_t ip_summed, csum_level, csum_valid, csum_bad;
    uint8_t gro_passes, passes;   /* software passes in its GRO pass / while it held the skb (all) */
};

/* What the GRO engine (csumcheck/gro.h) did with this frame at one device,
 * recorded on the first pass, in capture order: held as the first segment
 * of a super-packet, merged into one (super: the frame number of its first
 * segment), or passed up alone (why). */
struct pl_fate {
    uint32_t super;          /* first segment's frame number, when held */
    uint16_t segs;           /* on a first segment: segments merged into it so far, itself included */
    uint8_t kind;            /* csc_dev_name() */
    uint8_t held, merged;
    uint8_t alone_reason;    /* enum csc_gro_reason, when not held */
    uint8_t flushed;         /* enum csc_gro_flush of a held packet this frame pushed out */
    uint8_t order_dep;       /* csc_gro_fate.order_dep */
};

struct pl_frame {
    uint32_t counters;       /* 1 << enum csc_counter */
    uint32_t warnings;       /* enum csc_warning bits */
    uint32_t sw_bytes, hdr_bytes;
    uint16_t gso_segs;
    uint8_t nlayers, nck, ndevs;
    uint8_t worst, stop;     /* enum csc_stop; its details at stop_at */
    uint8_t ran, kverdict, drop_layer, drop_reason, sw_passes, gso_segs_known;
    uint8_t frag_reassembled;   /* csc_frag_feed appended a layer here */
    uint8_t l2spec_guessed;     /* an L2TPv3 sublayer length was chosen from the bytes: 1 + that length */
    uint8_t nfate;           /* GRO engine fates, one per device it reached (<= ndevs) */
    /* trailing storage: uint8_t protos[nlayers], then aligned
     * struct pl_layer ck[nck], struct pl_dev devs[ndevs], struct pl_fate fates[ndevs], and
     * when decoding stopped early a struct csc_stop_info (most frames have none) */
    uint32_t ck_at, dev_at, fate_at;  /* byte offsets of ck[], devs[], fates[] from the start */
    uint32_t stop_at;        /* byte offset of the csc_stop_info, 0 without a stop */
    uint8_t tail[];
};

static inline const uint8_t *pl_protos(const struct pl_frame *s) { return s->tail; }
static inline const struct pl_layer *pl_ck(const struct pl_frame *s)
{
    return (const struct pl_layer *)(const void *)((const uint8_t *)s + s->ck_at);
}
static inline const struct pl_dev *pl_devs(const struct pl_frame *s)
{
    return (const struct pl_dev *)(const void *)((const uint8_t *)s + s->dev_at);
}
static inline const struct pl_fate *pl_fates(const struct pl_frame *s)
{
    return (const struct pl_fate *)(const void *)((const uint8_t *)s + s->fate_at);
}
static inline struct pl_fate *pl_fates_mut(struct pl_frame *s)
{
    return (struct pl_fate *)(void *)((uint8_t *)s + s->fate_at);
}
/* Why decoding ended: the stored details, or a stop "end" */
const struct csc_stop_info *pl_stop(const struct pl_frame *s);

/* Bytes pl_summarize() needs for this result. */
size_t pl_summary_size(const struct csc_result *r);
/* Fill `out` (pl_summary_size(r) bytes, suitably aligned) from r. */
void pl_summarize(const struct csc_result *r, struct pl_frame *out);

/* Record the GRO engine's decision for this frame (the first d->n devices). */
void pl_set_fates(struct pl_frame *s, const struct csc_gro_decision *d, uint32_t frame);

/* Frame-level GRO outcome: the first device whose GRO pass refused or
 * flushed the frame, else "held" when some GRO pass held it, else the
 * NIC's reason (gro-off). Returns enum csc_gro_reason; *dev gets the
 * device index (CSC_NO_DEV when no device). */
uint8_t pl_frame_gro(const struct pl_frame *s, uint8_t *dev);

#endif
