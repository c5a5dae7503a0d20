/*
 * floor.c - the benchmark's floor (issues 5, 13): read the file with read()
 * into a 256 KiB buffer (it stays in L2) and take the Internet ones'-
 * complement sum (RFC 1071: 16-bit big-endian words) of every byte, with
 * the fastest loop this machine has: AVX2 when the CPU has it (checked at
 * run time), else 64-bit words with an end-around carry. Nothing that
 * reads a capture and checks a checksum over every byte can be faster.
 *
 *   cc -O2 -o floor bench/floor.c && ./floor FILE|-
 *
 * The AVX2 loop keeps, per 32-bit lane, the sum of the high and of the low
 * 16-bit halves separately (no carries lost for 65,535 blocks), four blocks
 * (128 bytes) per iteration; the lanes are folded at the end of each read.
 * `perf stat` of it on a 1 GiB file in the page cache shows where the time
 * goes: the copy out of the page cache in read() (docs/performance.md).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1
#endif

#define BUF (256u * 1024u)

static unsigned char buf[BUF] __attribute__((aligned(64)));

/* 64-bit words, end-around carry: the sum of the native-order words; one
 * byte swap at the end gives the big-endian sum (RFC 1071 §2(B)) */
static uint64_t sum_scalar(const unsigned char *p, size_t n, uint64_t acc)
{
    unsigned __int128 a = acc;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w0, w1, w2, w3;
        memcpy(&w0, p + i, 8);
        memcpy(&w1, p + i + 8, 8);
        memcpy(&w2, p + i + 16, 8);
        memcpy(&w3, p + i + 24, 8);
        a += (unsigned __int128)w0 + w1 + w2 + w3;
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        a += w;
    }
    uint64_t tail = 0;
    memcpy(&tail, p + i, n - i);   /* little-endian: the odd byte lands where it belongs */
    a += tail;
    uint64_t lo = (uint64_t)a, hi = (uint64_t)(a >> 64);
    lo += hi;
    return lo + (lo < hi);
}

#ifdef HAVE_AVX2_PATH
__attribute__((target("avx2"))) static uint64_t sum_avx2(const unsigned char *p, size_t n,
                                                          uint64_t acc)
{
    const __m256i lo16 = _mm256_set1_epi32(0xffff);
    size_t i = 0;
    while (i + 128 <= n) {
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
        size_t end = i + (size_t)128 * 16384 < n ? i + (size_t)128 * 16384 : n;   /* no lane overflows */
        for (; i + 128 <= end; i += 128) {
            __m256i x0 = _mm256_load_si256((const __m256i *)(p + i));
            __m256i x1 = _mm256_load_si256((const __m256i *)(p + i + 32));
            __m256i x2 = _mm256_load_si256((const __m256i *)(p + i + 64));
            __m256i x3 = _mm256_load_si256((const __m256i *)(p + i + 96));
            a0 = _mm256_add_epi32(a0, _mm256_and_si256(x0, lo16));
            a1 = _mm256_add_epi32(a1, _mm256_srli_epi32(x0, 16));
            a2 = _mm256_add_epi32(a2, _mm256_and_si256(x1, lo16));
            a3 = _mm256_add_epi32(a3, _mm256_srli_epi32(x1, 16));
            a0 = _mm256_add_epi32(a0, _mm256_and_si256(x2, lo16));
            a1 = _mm256_add_epi32(a1, _mm256_srli_epi32(x2, 16));
            a2 = _mm256_add_epi32(a2, _mm256_and_si256(x3, lo16));
            a3 = _mm256_add_epi32(a3, _mm256_srli_epi32(x3, 16));
        }
        /* four lanes of 32-bit sums into 64-bit ones */
        __m256i s = _mm256_add_epi64(
            _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(a0)),
                             _mm256_cvtepu32_epi64(_mm256_extracti128_si256(a0, 1))),
            _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(a2)),
                             _mm256_cvtepu32_epi64(_mm256_extracti128_si256(a2, 1))));
        __m256i t = _mm256_add_epi64(
            _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(a1)),
                             _mm256_cvtepu32_epi64(_mm256_extracti128_si256(a1, 1))),
            _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(a3)),
                             _mm256_cvtepu32_epi64(_mm256_extracti128_si256(a3, 1))));
        s = _mm256_add_epi64(s, _mm256_slli_epi64(t, 16));   /* the high halves weigh 2^16 */
        uint64_t v[4];
        _mm256_storeu_si256((__m256i *)v, s);
        for (int k = 0; k < 4; k++) {
            acc += v[k];
            acc += acc < v[k];
        }
    }
    return sum_scalar(p + i, n - i, acc);
}
#endif

static uint16_t fold(uint64_t a)
{
    a = (a & 0xffffffffu) + (a >> 32);
    a = (a & 0xffffu) + (a >> 16);
    a = (a & 0xffffu) + (a >> 16);
    a = (a & 0xffffu) + (a >> 16);
    uint16_t s = (uint16_t)a;
    return (uint16_t)(s << 8 | s >> 8);   /* native (little-endian) words to network order */
}

int main(int argc, char **argv)
{
    int fd = argc > 1 && strcmp(argv[1], "-") ? open(argv[1], O_RDONLY) : 0;
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    uint64_t (*sum)(const unsigned char *, size_t, uint64_t) = sum_scalar;
    const char *how = "64-bit words";
#ifdef HAVE_AVX2_PATH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        sum = sum_avx2, how = "avx2";
#endif
    uint64_t acc = 0, total = 0;
    ssize_t n;
    for (;;) {
        /* fill the buffer whole (a pipe gives less per read) so that every
         * piece but the last starts at an even file offset */
        size_t have = 0;
        while (have < BUF && (n = read(fd, buf + have, BUF - have)) > 0)
            have += (size_t)n;
        if (!have)
            break;
        acc = sum(buf, have, acc);
        total += have;
        if (have < BUF)
            break;
    }
    if (n < 0) {
        perror("read");
        return 2;
    }
    printf("%llu bytes, ones'-complement sum 0x%04x (%s)\n", (unsigned long long)total,
           fold(acc), how);
    return 0;
}
