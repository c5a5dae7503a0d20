/*
 * csum.h - ones'-complement arithmetic, named after include/net/checksum.h
 * and arch/x86/include/asm/checksum_64.h (RFC 1071; test vectors in
 * tests/unit/test_csum.c).
 *
 * Values are in the canonical big-endian convention of the model: a sum of
 * big-endian 16-bit words with end-around carry. Only folded results are
 * comparable between implementations; csum_partial() returns a value
 * congruent to the kernel's, not the same raw 32 bits.
 */
#ifndef CSC_CSUM_H
#define CSC_CSUM_H

#include <stddef.h>
#include <stdint.h>

#define CSUM_MANGLED_0 0xffffu

/* csum_add: 32-bit add with end-around carry */
static inline uint32_t csum_add(uint32_t a, uint32_t b)
{
    uint32_t r = a + b;
    return r + (r < b);
}

/* csum_sub: the ones'-complement difference */
static inline uint32_t csum_sub(uint32_t a, uint32_t b)
{
    return csum_add(a, ~b);
}

/* fold16: 32 bits folded to 16 with end-around carry */
static inline uint16_t fold16(uint32_t a)
{
    a = (a & 0xffff) + (a >> 16);
    a = (a & 0xffff) + (a >> 16);
    return (uint16_t)a;
}

/* csum_fold: complement of fold16; 0 means the sum is ones'-complement zero */
static inline uint16_t csum_fold(uint32_t a)
{
    return (uint16_t)~fold16(a);
}

static inline uint32_t csum_unfold(uint16_t n)
{
    return n;
}

static inline uint32_t ror32(uint32_t w, unsigned s)
{
    return (w >> s) | (w << (32 - s));
}

/* csum_block_add: add the sum of a block that starts at an odd offset */
static inline uint32_t csum_block_add(uint32_t a, uint32_t b, size_t off)
{
    if (off & 1)
        b = ror32(b, 8);
    return csum_add(a, b);
}

static inline uint32_t csum_block_sub(uint32_t a, uint32_t b, size_t off)
{
    return csum_block_add(a, ~b, off);
}

static inline uint16_t csum16_add(uint16_t c, uint16_t x)
{
    uint32_t r = (uint32_t)c + x;
    return (uint16_t)(r + (r >> 16));
}

static inline uint16_t csum16_sub(uint16_t c, uint16_t x)
{
    return csum16_add(c, (uint16_t)~x);
}

/* wsum_negate: two's complement, the 5.17+ postpull form */
static inline uint32_t wsum_negate(uint32_t x)
{
    return (uint32_t)(0u - x);
}

/* Sum of a 16-bit value that sits at byte offset off inside a region */
static inline uint32_t csum_word_at(uint16_t v, size_t off)
{
    return csum_block_add(0, v, off);
}

/* csum_partial: add the big-endian words of buf into init. An odd trailing
 * byte is the high byte of a word. The only loop over packet bytes. */
uint32_t csum_partial(const void *buf, size_t len, uint32_t init);

/* The native sum of buf: its 16-bit words in the machine's byte order
 * (32-bit words added into 64 bits; an odd trailing byte is the first byte
 * of a word), not folded. Congruent modulo 0xffff to the canonical sum byte
 * swapped on a little-endian machine, the canonical sum itself on a
 * big-endian one (RFC 1071 2(B)): csum_native_to_canonical() after a fold.
 * Native sums add with end-around carry in 64 bits (csum_native_add) and a
 * sum of bytes that start an odd distance away is rotated by 8 bits, as
 * csum_block_add does. */
uint64_t csum_native(const void *buf, size_t len);

static inline uint32_t csum_native_byte(uint8_t b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint32_t)b << 8;
#else
    return b;
#endif
}

static inline uint64_t csum_native_add(uint64_t a, uint64_t b)
{
    a += b;
    return a + (a < b);
}

static inline uint64_t rol64(uint64_t w, unsigned s)
{
    return (w << s) | (w >> (64 - s));
}

/* 64 bits folded to 32 with end-around carry (congruent modulo 0xffff) */
static inline uint32_t csum_native64_fold(uint64_t a)
{
    a = (a & 0xffffffffu) + (a >> 32);
    a = (a & 0xffffffffu) + (a >> 32);
    return (uint32_t)a;
}

static inline uint32_t csum_native_to_canonical(uint32_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return x;
#else
    return ror32(x, 8);
#endif
}

/* csum_tcpudp_nofold: IPv4 pseudo-header sum */
static inline uint32_t csum_tcpudp_nofold(uint32_t saddr, uint32_t daddr, uint32_t len,
                                          uint8_t proto, uint32_t sum)
{
    sum = csum_add(sum, saddr >> 16);
    sum = csum_add(sum, saddr & 0xffff);
    sum = csum_add(sum, daddr >> 16);
    sum = csum_add(sum, daddr & 0xffff);
    sum = csum_add(sum, proto);
    sum = csum_add(sum, len);
    return sum;
}

/* csum_ipv6_magic: folded, complemented IPv6 pseudo-header checksum */
uint16_t csum_ipv6_magic(const uint8_t saddr[16], const uint8_t daddr[16], uint32_t len,
                         uint8_t proto, uint32_t sum);

/* ip6 pseudo as the kernel's ip6_compute_pseudo: ~csum_unfold(magic) */
static inline uint32_t ip6_pseudo(const uint8_t saddr[16], const uint8_t daddr[16],
                                  uint32_t len, uint8_t proto)
{
    return ~csum_unfold(csum_ipv6_magic(saddr, daddr, len, proto, 0));
}

/* A checksum over a region validates iff the folded total is zero. */
static inline int csum_valid_total(uint32_t total)
{
    return csum_fold(total) == 0;
}

#endif
