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

CSC_CLONES
static uint64_t sum_words(const uint8_t *p, size_t n4)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n4; i++) {
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
