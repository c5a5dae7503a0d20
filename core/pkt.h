/*
 * pkt.h - the one bounds-checked accessor layer for packet bytes.
 *
 * Every read of frame bytes in core/ goes through these functions. They know
 * the end of captured data (caplen) and return false instead of reading past
 * it; callers turn false into a truncation finding. Offsets are frame
 * offsets; arithmetic is done in 64 bits so a lying length cannot wrap.
 *
 * When the fast path compiles a plan, the frame carries a recorder (rec.h):
 * each read is then noted, as a guard (pkt_u8 .. pkt_span, a header span's
 * fields), a value (pkt_val*: read again by the plan, never branched on) or
 * not at all (pkt_sum_span: the summing pass, done again by the plan). With
 * no recorder (every other frame) a read costs one test more.
 */
#ifndef CSC_PKT_H
#define CSC_PKT_H

#include <stdbool.h>
#include <stdint.h>

#include "csumcheck/csumcheck.h"
#include "rec.h"

struct pkt {
    const uint8_t *data;
    uint32_t caplen;
    uint32_t wirelen;
    struct csc_rec *rec;      /* NULL unless the reads are being recorded */
};

/* The frame's bytes as far as they were captured (and the wire has them),
 * its reads noted in rec (NULL: not noted) */
static inline struct pkt pkt_of(const struct csc_frame *f, struct csc_rec *rec)
{
    struct pkt p = { f->data, f->caplen < f->wirelen ? f->caplen : f->wirelen, f->wirelen, rec };
    return p;
}

#if defined(__GNUC__)
#define PKT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PKT_UNLIKELY(x) (x)
#endif

/* The number at b in network (be) or little-endian (le) byte order: the one
 * spelling of each, for bytes the accessors below have checked. */
static inline uint16_t bytes_be16(const uint8_t *b)
{
    return (uint16_t)((b[0] << 8) | b[1]);
}

static inline uint16_t bytes_le16(const uint8_t *b)
{
    return (uint16_t)((b[1] << 8) | b[0]);
}

static inline uint32_t bytes_be32(const uint8_t *b)
{
    return ((uint32_t)bytes_be16(b) << 16) | bytes_be16(b + 2);
}

static inline uint32_t bytes_le32(const uint8_t *b)
{
    return ((uint32_t)bytes_le16(b + 2) << 16) | bytes_le16(b);
}

static inline void pkt_note(const struct pkt *p, uint64_t off, uint64_t len)
{
    if (PKT_UNLIKELY(p->rec != 0))
        rec_guard(p->rec, p->data, off, len);
}

static inline bool pkt_has(const struct pkt *p, uint64_t off, uint64_t len)
{
    return off + len <= p->caplen;
}

/* The one way to bytes that may decide something: checked against caplen,
 * and noted as a guard when the reads are recorded. Every accessor below
 * but the three marked "not noted" reads through it. */
static inline const uint8_t *pkt_at(const struct pkt *p, uint64_t off, uint64_t len)
{
    if (!pkt_has(p, off, len))
        return 0;
    pkt_note(p, off, len);
    return p->data + off;
}

static inline bool pkt_u8(const struct pkt *p, uint64_t off, uint8_t *v)
{
    const uint8_t *b = pkt_at(p, off, 1);
    if (!b)
        return false;
    *v = b[0];
    return true;
}

static inline bool pkt_be16(const struct pkt *p, uint64_t off, uint16_t *v)
{
    const uint8_t *b = pkt_at(p, off, 2);
    if (!b)
        return false;
    *v = bytes_be16(b);
    return true;
}

static inline bool pkt_le16(const struct pkt *p, uint64_t off, uint16_t *v)
{
    const uint8_t *b = pkt_at(p, off, 2);
    if (!b)
        return false;
    *v = bytes_le16(b);
    return true;
}

static inline bool pkt_be32(const struct pkt *p, uint64_t off, uint32_t *v)
{
    const uint8_t *b = pkt_at(p, off, 4);
    if (!b)
        return false;
    *v = bytes_be32(b);
    return true;
}

static inline bool pkt_le32(const struct pkt *p, uint64_t off, uint32_t *v)
{
    const uint8_t *b = pkt_at(p, off, 4);
    if (!b)
        return false;
    *v = bytes_le32(b);
    return true;
}

/* Copy len bytes (small, fixed-size fields such as addresses). */
static inline bool pkt_copy(const struct pkt *p, uint64_t off, uint32_t len, uint8_t *dst)
{
    const uint8_t *b = pkt_at(p, off, len);
    if (!b)
        return false;
    for (uint32_t i = 0; i < len; i++)
        dst[i] = b[i];
    return true;
}

/* A checked view of [off, off+len), every byte of it guarded when recorded
 * (the whole span is what the caller may look at). */
static inline const uint8_t *pkt_span(const struct pkt *p, uint64_t off, uint64_t len)
{
    return pkt_at(p, off, len);
}

/* The summing pass's view: not noted (a plan sums the bytes again) */
static inline const uint8_t *pkt_sum_span(const struct pkt *p, uint64_t off, uint64_t len)
{
    if (!pkt_has(p, off, len))
        return 0;
    return p->data + off;
}

/* A value: read, never branched on (a plan reads it again at off): not noted */
static inline bool pkt_val_be16(const struct pkt *p, uint64_t off, uint16_t *v)
{
    if (!pkt_has(p, off, 2))
        return false;
    *v = bytes_be16(p->data + off);
    return true;
}

/* A header read field by field: pkt_hdr checks [off, off+len) once, then
 * span_u8 / span_be16 / span_be32 read a field that may decide something
 * (a guard when recorded) and the decoders' dec_val* read a value. */
struct span {
    const uint8_t *b;
    uint32_t off;             /* the frame offset of b[0] */
    struct csc_rec *rec;
};

/* (not noted itself: its span_* reads are, DEC_VAL's are values) */
static inline bool pkt_hdr(const struct pkt *p, uint64_t off, uint64_t len, struct span *s)
{
    if (!pkt_has(p, off, len))
        return false;
    s->b = p->data + off;
    s->off = (uint32_t)off;
    s->rec = p->rec;
    return true;
}

/* A guard on the span's bytes [at, at + len) when the reads are recorded */
static inline void span_note(const struct span *s, unsigned at, unsigned len)
{
    if (PKT_UNLIKELY(s->rec != 0))
        rec_guard(s->rec, s->b - s->off, (uint64_t)s->off + at, len);
}

static inline uint8_t span_u8(const struct span *s, unsigned at)
{
    span_note(s, at, 1);
    return s->b[at];
}

/* Some bits of a byte (the rest is a value, or unused) */
static inline uint8_t span_bits(const struct span *s, unsigned at, uint8_t bits)
{
    if (PKT_UNLIKELY(s->rec != 0))
        rec_guard_bits(s->rec, s->b - s->off, (uint64_t)s->off + at, bits);
    return s->b[at] & bits;
}

static inline uint16_t span_be16(const struct span *s, unsigned at)
{
    span_note(s, at, 2);
    return bytes_be16(s->b + at);
}

static inline uint32_t span_be32(const struct span *s, unsigned at)
{
    span_note(s, at, 4);
    return bytes_be32(s->b + at);
}

/* Unnoted reads of a span's bytes, for dec_val* only */
static inline uint16_t span_raw16(const struct span *s, unsigned at)
{
    return bytes_be16(s->b + at);
}

static inline uint32_t span_raw32(const struct span *s, unsigned at)
{
    return bytes_be32(s->b + at);
}

#endif
