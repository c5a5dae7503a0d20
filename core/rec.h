/*
 * rec.h - the recorder: what the analysis of one frame read of its bytes,
 * and how. Internal to core/.
 *
 * A frame's outcome depends on its bytes only through what decode, verify,
 * direction and the replay read of them, and every read goes through pkt.h.
 * With a recorder attached to the struct pkt (pkt.rec), each read is noted:
 *   - a guarded read (any pkt_* accessor, a span's span_* field): the
 *     outcome may branch on these bytes, so a frame reuses the outcome only
 *     with the same bytes there;
 *   - a value read (pkt_val*, the decoders' dec_val*): a field the outcome
 *     carries but never branches on (a port, a sequence number, an address
 *     sum); the plan reads it again from the same offset (a copy);
 *   - a class (rec_class): a fact computed from bytes (the address classes
 *     of an IP header); the plan computes it again and compares.
 * Bytes read no other way (the summing pass) are not noted: the plan sums
 * them again. So what a plan or a memo entry must check is derived from the
 * reads the general path made, not from a list kept by hand: a rule that
 * reads a new byte is guarded by that read (fast.c, analyze_cached.c).
 */
#ifndef CSC_REC_H
#define CSC_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_WIN 192          /* guarded bytes [0, REC_WIN) kept as a mask and values */
#define REC_MAX_FAR 8        /* guarded reads beyond the window (<= 8 bytes each) */
#define REC_MAX_OPS 40       /* value copies and derived values */
#define REC_MAX_CLASS 6      /* facts from bytes */

/* A value the plan makes again (fast.c: plan_values) */
enum rec_op_kind {
    ROP_BE8 = 1, ROP_BE16, ROP_BE32,  /* (frame[src..] & mask) >> shift into dst (1, 2 or 4 bytes) */
    ROP_PSEUDO4,              /* IPv4 address sum: csum_tcpudp_nofold(saddr, daddr) at src */
    ROP_PSEUDO6,              /* IPv6 address sum of the 16 bytes at src and at arg */
    ROP_L4_PSEUDO,            /* an L4 pseudo-header sum from the IP layer's (dec_l4_pseudo) */
};
struct rec_op {
    uint8_t kind, dsize;      /* enum rec_op_kind; bytes at dst */
    uint8_t shift, ip;        /* ROP_BE*: right shift; ROP_L4_PSEUDO: the IP layer */
    uint16_t dst;             /* the field: its offset in struct csc_result */
    uint16_t src;             /* frame offset (ROP_L4_PSEUDO: the L4 protocol) */
    uint32_t mask;            /* ROP_BE*: bits kept; ROP_PSEUDO6: the second address's offset;
                                 ROP_L4_PSEUDO: the length, with_len in bit 31 */
};

enum rec_class_kind { RCL_ADDR = 1, RCL_PORT };
struct rec_class {
    uint8_t kind;             /* enum rec_class_kind */
    uint8_t proto;            /* RCL_ADDR: the IP layer's protocol */
    uint16_t pad;
    uint32_t at;              /* RCL_ADDR: the addresses' offset; RCL_PORT: the ports' */
    uint32_t value;           /* what it gave */
};

struct rec_far {
    uint32_t off;
    uint8_t len, pad[3];
    uint8_t bytes[8];
};

struct csc_rec {
    uint16_t hi;              /* one past the last guarded byte in the window */
    uint8_t nfar, nops, nclass;
    uint8_t overflow;         /* a read did not fit: nothing may be made of this record */
    uint8_t mask[REC_WIN];    /* 0xff: the byte is guarded (bits of it: masked reads) */
    uint8_t val[REC_WIN];     /* its value */
    struct rec_far far[REC_MAX_FAR];
    struct rec_op ops[REC_MAX_OPS];
    struct rec_class cls[REC_MAX_CLASS];
};

/* Start an empty record (the arrays are written as reads come) */
void rec_init(struct csc_rec *r);
/* A guarded read of [off, off + len) of data (already bounds-checked) */
void rec_guard(struct csc_rec *r, const uint8_t *data, uint64_t off, uint64_t len);
/* A guard on bytes at off (their values given, not read from a frame) */
void rec_guard_at(struct csc_rec *r, uint64_t off, const uint8_t *bytes, uint64_t len);
/* A guarded read of some bits of one byte */
void rec_guard_bits(struct csc_rec *r, const uint8_t *data, uint64_t off, uint8_t bits);
void rec_op(struct csc_rec *r, const struct rec_op *op);
void rec_class(struct csc_rec *r, uint8_t kind, uint8_t proto, uint32_t at, uint32_t value);
/* What src guarded and classed, added to dst (its ops are dst's own) */
void rec_merge(struct csc_rec *dst, const struct csc_rec *src);

#endif
