/*
 * csum.c - csum_partial, the one loop that sums packet bytes.
 *
 * Sums native 32-bit words into a 64-bit accumulator (vectorises), then folds.
 * On a little-endian host that yields the byte-swapped sum; byte swapping
 * commutes with ones'-complement addition (RFC 1071 §2(B)), so one swap of the
 * folded result gives the canonical big-endian value.
 */
#include "csum.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(CSC_NO_CLONES)
#define CSC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CSC_CLONES
#endif

/* 32-bit words summed into 64 bits. With GCC/clang vector extensions:
 * 64 bytes at a time into 16-bit halves kept apart in 32-bit lanes (no
 * carry lost: a lane takes at most 0xffff per 32 bytes, flushed every
 * 16,384 of them), congruent to the plain loop's total modulo 0xffff
 * (and not 0 unless every byte is); AVX2 when the CPU has it
 * (CSC_CLONES), SSE2 otherwise. */
#if defined(__GNUC__)
typedef uint32_t v8u32 __attribute__((vector_size(32)));
#endif

CSC_CLONES
static uint64_t sum_words(const uint8_t *p, size_t n4)
{
    uint64_t acc = 0;
    size_t i = 0;
#if defined(__GNUC__)
    while (n4 - i >= 8) {
        v8u32 lo = { 0 }, hi = { 0 }, lo2 = { 0 }, hi2 = { 0 };
        size_t stop = n4 - i > 8 * 16384 ? i + 8 * 16384 : n4;
        for (; i + 16 <= stop; i += 16) {   /* two chains: 64 bytes a step */
            v8u32 x, y;
            memcpy(&x, p + 4 * i, sizeof x);
            memcpy(&y, p + 4 * i + sizeof x, sizeof y);
            lo += x & 0xffff;
            hi += x >> 16;
            lo2 += y & 0xffff;
            hi2 += y >> 16;
        }
        if (i + 8 <= stop) {
            v8u32 x;
            memcpy(&x, p + 4 * i, sizeof x);
            lo += x & 0xffff;
            hi += x >> 16;
            i += 8;
        }
        /* each lane holds at most 0xffff x 8,193: the four add up in 32 bits;
         * hi * 2^16 is hi modulo 0xffff */
        lo += lo2 + hi + hi2;
        for (unsigned j = 0; j < 8; j++)
            acc += lo[j];
    }
#endif
    for (; i < n4; i++) {
        uint32_t w;
        memcpy(&w, p + 4 * i, 4);
        acc += w;
    }
    return acc;
}

uint64_t csum_native(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    size_t n4 = len / 4;
    uint64_t acc = sum_words(p, n4);
    p += 4 * n4;
    len -= 4 * n4;
    if (len >= 2) {
        uint16_t w;
        memcpy(&w, p, 2);
        acc += w;
        p += 2;
        len -= 2;
    }
    if (len)
        acc += csum_native_byte(p[0]);
    return acc;
}

uint32_t csum_partial(const void *buf, size_t len, uint32_t init)
{
    uint16_t f = fold16(csum_native64_fold(csum_native(buf, len)));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return csum_add(init, f);
#else
    return csum_add(init, (uint16_t)((f >> 8) | (f << 8)));
#endif
}

uint16_t csum_ipv6_magic(const uint8_t saddr[16], const uint8_t daddr[16], uint32_t len,
                         uint8_t proto, uint32_t sum)
{
    for (int i = 0; i < 16; i += 2) {
        sum = csum_add(sum, ((uint32_t)saddr[i] << 8) | saddr[i + 1]);
        sum = csum_add(sum, ((uint32_t)daddr[i] << 8) | daddr[i + 1]);
    }
    sum = csum_add(sum, len >> 16);
    sum = csum_add(sum, len & 0xffff);
    sum = csum_add(sum, proto);
    return csum_fold(sum);
}
