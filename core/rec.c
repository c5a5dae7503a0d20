/*
 * rec.c - the recorder (rec.h): reads noted while the general path analyses
 * a frame whose outcome a plan or a memo entry will keep.
 */
#include "rec.h"

#include <string.h>

void rec_init(struct csc_rec *r)
{
    r->hi = 0;
    r->nfar = r->nops = r->nclass = 0;
    r->overflow = 0;
    memset(r->mask, 0, sizeof r->mask);
}

static void guard_byte(struct csc_rec *r, uint32_t off, uint8_t v, uint8_t bits)
{
    r->mask[off] |= bits;
    r->val[off] = (uint8_t)((r->val[off] & ~bits) | (v & bits));
    if (off + 1u > r->hi)
        r->hi = (uint16_t)(off + 1u);
}

/* A read beyond the window: kept as it is (a few of them: an option deep in
 * a long header, a trailer); merged with one it repeats */
static void guard_far(struct csc_rec *r, const uint8_t *bytes, uint64_t off, uint64_t len)
{
    for (unsigned i = 0; i < r->nfar; i++)
        if (r->far[i].off == off && r->far[i].len == len)
            return;
    if (r->nfar >= REC_MAX_FAR || len > sizeof r->far[0].bytes) {
        r->overflow = 1;
        return;
    }
    struct rec_far *f = &r->far[r->nfar++];
    f->off = (uint32_t)off;
    f->len = (uint8_t)len;
    memcpy(f->bytes, bytes, len);
}

/* b: the bytes [off, off + len) */
static void guard_bytes(struct csc_rec *r, const uint8_t *b, uint64_t off, uint64_t len)
{
    while (len && off < REC_WIN) {
        guard_byte(r, (uint32_t)off, *b++, 0xff);
        off++;
        len--;
    }
    while (len) {                       /* the rest, in pieces of at most 8 */
        uint64_t n = len < 8 ? len : 8;
        guard_far(r, b, off, n);
        b += n;
        off += n;
        len -= n;
    }
}

void rec_guard(struct csc_rec *r, const uint8_t *data, uint64_t off, uint64_t len)
{
    guard_bytes(r, data + off, off, len);
}

void rec_guard_at(struct csc_rec *r, uint64_t off, const uint8_t *bytes, uint64_t len)
{
    guard_bytes(r, bytes, off, len);
}

void rec_guard_bits(struct csc_rec *r, const uint8_t *data, uint64_t off, uint8_t bits)
{
    if (off < REC_WIN)
        guard_byte(r, (uint32_t)off, data[off], bits);
    else
        guard_far(r, data + off, off, 1);
}

void rec_op(struct csc_rec *r, const struct rec_op *op)
{
    if (r->nops >= REC_MAX_OPS) {
        r->overflow = 1;
        return;
    }
    r->ops[r->nops++] = *op;
}

void rec_class(struct csc_rec *r, uint8_t kind, uint8_t proto, uint32_t at, uint32_t value)
{
    for (unsigned i = 0; i < r->nclass; i++) {
        const struct rec_class *c = &r->cls[i];
        if (c->kind == kind && c->proto == proto && c->at == at)
            return;                     /* asked twice: the same answer */
    }
    if (r->nclass >= REC_MAX_CLASS) {
        r->overflow = 1;
        return;
    }
    r->cls[r->nclass++] = (struct rec_class){ kind, proto, 0, at, value };
}

void rec_merge(struct csc_rec *dst, const struct csc_rec *src)
{
    dst->overflow |= src->overflow;
    for (unsigned i = 0; i < src->hi; i++)
        if (src->mask[i]) {
            dst->mask[i] |= src->mask[i];
            dst->val[i] = (uint8_t)((dst->val[i] & ~src->mask[i]) | (src->val[i] & src->mask[i]));
        }
    if (src->hi > dst->hi)
        dst->hi = src->hi;
    for (unsigned i = 0; i < src->nfar; i++)
        guard_far(dst, src->far[i].bytes, src->far[i].off, src->far[i].len);
    for (unsigned i = 0; i < src->nclass; i++)
        rec_class(dst, src->cls[i].kind, src->cls[i].proto, src->cls[i].at, src->cls[i].value);
}
