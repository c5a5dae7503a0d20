/*
 * pkt.h - the one bounds-checked accessor layer for packet bytes.
 *
 * Every read of frame bytes in core/ goes through these functions. They know
 * the end of captured data (caplen) and return false instead of reading past
 * it; callers turn false into a truncation finding. Offsets are frame
 * offsets; arithmetic is done in 64 bits so a lying length cannot wrap.
 */
#ifndef CSC_PKT_H
#define CSC_PKT_H

#include <stdbool.h>
#include <stdint.h>

struct pkt {
    const uint8_t *data;
    uint32_t caplen;
    uint32_t wirelen;
};

static inline bool pkt_has(const struct pkt *p, uint64_t off, uint64_t len)
{
    return off + len <= p->caplen;
}

static inline bool pkt_u8(const struct pkt *p, uint64_t off, uint8_t *v)
{
    if (!pkt_has(p, off, 1))
        return false;
    *v = p->data[off];
    return true;
}

static inline bool pkt_be16(const struct pkt *p, uint64_t off, uint16_t *v)
{
    if (!pkt_has(p, off, 2))
        return false;
    *v = (uint16_t)((p->data[off] << 8) | p->data[off + 1]);
    return true;
}

static inline bool pkt_be32(const struct pkt *p, uint64_t off, uint32_t *v)
{
    if (!pkt_has(p, off, 4))
        return false;
    const uint8_t *b = p->data + off;
    *v = ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
    return true;
}

/* little-endian fields: IEEE 802.11 frame control, BSD loopback families */
static inline bool pkt_le16(const struct pkt *p, uint64_t off, uint16_t *v)
{
    if (!pkt_has(p, off, 2))
        return false;
    *v = (uint16_t)((p->data[off + 1] << 8) | p->data[off]);
    return true;
}

static inline bool pkt_le32(const struct pkt *p, uint64_t off, uint32_t *v)
{
    if (!pkt_has(p, off, 4))
        return false;
    const uint8_t *b = p->data + off;
    *v = ((uint32_t)b[3] << 24) | ((uint32_t)b[2] << 16) | ((uint32_t)b[1] << 8) | b[0];
    return true;
}

/* Copy len bytes (small, fixed-size fields such as addresses). */
static inline bool pkt_copy(const struct pkt *p, uint64_t off, uint32_t len, uint8_t *dst)
{
    if (!pkt_has(p, off, len))
        return false;
    for (uint32_t i = 0; i < len; i++)
        dst[i] = p->data[off + i];
    return true;
}

/* A checked view of [off, off+len) for the summing pass, or a header read
 * field by field (span_be16/span_be32) once it is known to be there. */
static inline const uint8_t *pkt_span(const struct pkt *p, uint64_t off, uint64_t len)
{
    if (!pkt_has(p, off, len))
        return 0;
    return p->data + off;
}

/* Big-endian fields inside a span pkt_span returned (at < its length) */
static inline uint16_t span_be16(const uint8_t *b, unsigned at)
{
    return (uint16_t)((b[at] << 8) | b[at + 1]);
}

static inline uint32_t span_be32(const uint8_t *b, unsigned at)
{
    return ((uint32_t)b[at] << 24) | ((uint32_t)b[at + 1] << 16) | ((uint32_t)b[at + 2] << 8) |
           b[at + 3];
}

#endif
