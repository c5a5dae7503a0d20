/*
 * summary.h - the compact per-frame record the plugin keeps.
 *
 * A struct csc_result is ~10 KB (breakpoint sums, replay trace); Wireshark
 * keeps per-frame data for the whole file, so the plugin computes the result
 * once, on the first (in-order) pass, and keeps only what it renders:
 * the layer stack as protocol ids, one record per checksummed layer, the
 * packet's kernel outcome and one record per receiving device. Typical size:
 * 100-200 bytes per frame, in one allocation.
 *
 * Pure C11 over the core's public header: no Wireshark types, so it can be
 * unit-tested and reused (the GRO engine of issue 9 will fill `gro`).
 */
#ifndef CSC_PLUGIN_SUMMARY_H
#define CSC_PLUGIN_SUMMARY_H

#include "csumcheck/csumcheck.h"

#include <stddef.h>
#include <stdint.h>

/* One checksummed layer (csc_layer.verdict != CSC_V_NA). */
struct pl_layer {
    uint32_t off;            /* header offset in the frame */
    uint32_t csum_off;       /* checksum field offset, CSC_NO_OFF if none */
    uint32_t notes;          /* enum csc_note bits */
    uint32_t pass_bytes;     /* replay: bytes of software passes */
    uint16_t field, expected, resolved;
    uint8_t index;           /* index in the full layer stack (JSON "layers") */
    uint8_t proto, verdict, reason;
    uint8_t method, path, dev, ok;   /* struct csc_layer_kernel */
    uint8_t passes;
    uint8_t flags;           /* PL_F_* */
};

#define PL_F_GRO_CONV    0x01u
#define PL_F_NORMAL_CONV 0x02u
#define PL_F_ASSUMED     0x04u

/* Entry state and GRO decision of one receiving device (NIC, tunnels). */
struct pl_dev {
    uint32_t gro_pass_bytes, pass_bytes;
    uint8_t kind;            /* csc_dev_name() */
    uint8_t layer;           /* first layer it receives */
    uint8_t gro_ran, gro_reason, gro_layer;
    uint8_t ip_summed, csum_level, csum_valid, csum_bad;
    uint8_t gro_passes, passes;   /* software passes in its GRO pass / while it held the skb (all) */
};

/*
 * Issue 9 seam: the multi-frame GRO engine will run where csc_frag_feed()
 * runs (first pass, capture order) and record here what happened to this
 * frame: merged into which super-packet (frame number of its head) or why it
 * was flushed alone. `valid` stays 0 until that engine exists; the dissector
 * renders the block only when it is set.
 */
struct pl_gro {
    uint32_t head_frame;     /* super-packet head frame, 0 = not merged */
    uint16_t segs;           /* segments in that super-packet */
    uint8_t reason;          /* enum csc_gro_reason of the flush */
    uint8_t valid;
};

struct pl_frame {
    uint32_t stop_off;
    uint32_t counters;       /* 1 << enum csc_counter */
    uint32_t warnings;       /* enum csc_warning bits */
    uint32_t sw_bytes, hdr_bytes;
    uint16_t gso_segs;
    uint8_t nlayers, nck, ndevs;
    uint8_t worst, stop, stop_proto;
    uint8_t ran, kverdict, drop_layer, drop_reason, sw_passes, gso_segs_known;
    uint8_t frag_reassembled;   /* csc_frag_feed appended a layer here */
    struct pl_gro gro;
    /* trailing storage: uint8_t protos[nlayers], then aligned
     * struct pl_layer ck[nck], struct pl_dev devs[ndevs] */
    uint32_t ck_at, dev_at;  /* byte offsets of ck[] and devs[] from the start */
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

/* Bytes pl_summarize() needs for this result. */
size_t pl_summary_size(const struct csc_result *r);
/* Fill `out` (pl_summary_size(r) bytes, suitably aligned) from r. */
void pl_summarize(const struct csc_result *r, struct pl_frame *out);

/* Frame-level GRO outcome: the first device whose GRO pass refused or
 * flushed the frame, else "held" when some GRO pass held it, else the
 * NIC's reason (gro-off). Returns enum csc_gro_reason; *dev gets the
 * device index (0xff when no device). */
uint8_t pl_frame_gro(const struct pl_frame *s, uint8_t *dev);

#endif
