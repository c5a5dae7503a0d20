/*
 * values.c - a layer with its values blanked (values.h).
 */
#include "values.h"

#include <string.h>

/* The 8 bits of a mask byte as 8 bytes of 0x00 / 0xff (little-endian) */
static inline __attribute__((unused)) uint64_t bytes_of_bits(uint64_t b)
{
    b = (b | b << 28) & 0x0000000f0000000full;
    b = (b | b << 14) & 0x0003000300030003ull;
    b = (b | b << 7) & 0x0101010101010101ull;
    return b * 0xff;
}

void value_blank(struct csc_layer *dst, const struct csc_layer *src, const uint64_t mask[2])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(dst, src, offsetof(struct csc_layer, k));
    memset(&dst->k, 0, sizeof dst->k);
    for (unsigned b = 0; b < offsetof(struct csc_layer, k); b++)
        if ((mask[b >> 6] >> (b & 63)) & 1)
            ((uint8_t *)dst)[b] = 0;
#else
    uint64_t w[(sizeof *dst + 7) / 8];   /* byte i of the layer: bit i of the mask */
    memcpy(w, src, sizeof w);
    memset((uint8_t *)w + offsetof(struct csc_layer, k), 0, sizeof w - offsetof(struct csc_layer, k));
    uint64_t m = mask[0];
    for (unsigned g = 0; g < 8; g++, m >>= 8) {   /* bytes 0..63: most mask bytes 0 or all */
        unsigned bits = (unsigned)(m & 0xff);
        if (bits)
            w[g] = bits == 0xff ? 0 : w[g] & ~bytes_of_bits(bits);
    }
    m = mask[1];
    for (unsigned g = 8; g < sizeof w / sizeof w[0] && m; g++, m >>= 8)
        w[g] &= ~bytes_of_bits(m & 0xff);
    memcpy(dst, w, sizeof *dst);
#endif
}
