/* The byte-plane column codec (column_codec.h). */
#include "format/column_codec.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t iolens_column_bytes(uint64_t n)
{
    if (n > SIZE_MAX / 8)
        return 0;
    return (size_t)n * 8;
}

#if defined(__SSE2__)
/* Values i .. i + 15 into the planes p[0..8), whole: the transpose of
 * decode16.  Each register of two values has its halves' bytes paired
 * (byte b of both values in 16-bit lane b); the 8 registers are then an
 * 8 x 8 matrix of 16-bit lanes, whose transpose (16, 32 and 64 bits at a
 * time) has in register b the bytes b of the 16 values, in order. */
static inline void encode16(const uint64_t *values, size_t i, unsigned char *const p[8])
{
    __m128i s[8];
#pragma GCC unroll 8
    for (unsigned k = 0; k < 8; k++) {
        __m128i two = _mm_loadu_si128((const __m128i *)(const void *)(values + i + 2 * k));
        s[k] = _mm_unpacklo_epi8(two, _mm_srli_si128(two, 8));
    }
    __m128i t[8];
#pragma GCC unroll 4
    for (unsigned k = 0; k < 4; k++) {
        t[2 * k] = _mm_unpacklo_epi16(s[2 * k], s[2 * k + 1]);
        t[2 * k + 1] = _mm_unpackhi_epi16(s[2 * k], s[2 * k + 1]);
    }
    /* u[q]: lanes 2q and 2q + 1 of s[0..4); u[4 + q]: of s[4..8). */
    __m128i u[8] = {_mm_unpacklo_epi32(t[0], t[2]), _mm_unpackhi_epi32(t[0], t[2]),
                    _mm_unpacklo_epi32(t[1], t[3]), _mm_unpackhi_epi32(t[1], t[3]),
                    _mm_unpacklo_epi32(t[4], t[6]), _mm_unpackhi_epi32(t[4], t[6]),
                    _mm_unpacklo_epi32(t[5], t[7]), _mm_unpackhi_epi32(t[5], t[7])};
#pragma GCC unroll 4
    for (unsigned q = 0; q < 4; q++) {
        _mm_storeu_si128((__m128i *)(void *)(p[2 * q] + i), _mm_unpacklo_epi64(u[q], u[4 + q]));
        _mm_storeu_si128((__m128i *)(void *)(p[2 * q + 1] + i),
                         _mm_unpackhi_epi64(u[q], u[4 + q]));
    }
}
#endif

void iolens_column_encode(const uint64_t *values, size_t n, unsigned char *planes)
{
    size_t i = 0;
#if defined(__SSE2__)
    unsigned char *p[8];
    for (unsigned b = 0; b < 8; b++)
        p[b] = planes + b * n;
    for (; i + 16 <= n; i += 16)
        encode16(values, i, p);
#endif
    for (; i < n; i++)
        iolens_column_put(planes, n, i, values[i]);
}

#if defined(__SSE2__)
/* Values i .. i + 15 of the planes p[0..8), whole: out[2 g] and
 * out[2 g + 1] hold values 4 g .. 4 g + 3, two to a register.  The 8
 * planes' bytes interleaved 8, 16 and 32 bits at a time give the values
 * (x86 is little-endian, as the format is). */
static inline void decode16(const unsigned char *const p[8], size_t i, __m128i out[8])
{
    __m128i x[8];
    /* Unrolled (GCC's -O2 would loop): the loop was a third of the work. */
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; b++)
        x[b] = _mm_loadu_si128((const __m128i *)(const void *)(p[b] + i));
    __m128i lo[4], hi[4];
#pragma GCC unroll 4
    for (unsigned b = 0; b < 4; b++) {
        lo[b] = _mm_unpacklo_epi8(x[2 * b], x[2 * b + 1]);
        hi[b] = _mm_unpackhi_epi8(x[2 * b], x[2 * b + 1]);
    }
    /* w[g], z[g]: bytes 0-3 and 4-7 of values 4g .. 4g + 3. */
    __m128i w[4] = {_mm_unpacklo_epi16(lo[0], lo[1]), _mm_unpackhi_epi16(lo[0], lo[1]),
                    _mm_unpacklo_epi16(hi[0], hi[1]), _mm_unpackhi_epi16(hi[0], hi[1])};
    __m128i z[4] = {_mm_unpacklo_epi16(lo[2], lo[3]), _mm_unpackhi_epi16(lo[2], lo[3]),
                    _mm_unpacklo_epi16(hi[2], hi[3]), _mm_unpackhi_epi16(hi[2], hi[3])};
#pragma GCC unroll 4
    for (unsigned g = 0; g < 4; g++) {
        out[2 * g] = _mm_unpacklo_epi32(w[g], z[g]);
        out[2 * g + 1] = _mm_unpackhi_epi32(w[g], z[g]);
    }
}
#endif

/* Value i of the planes p[0..8), one byte at a time. */
static inline uint64_t decode1(const unsigned char *const p[8], size_t i)
{
    uint64_t x = 0;
    for (unsigned b = 0; b < 8; b++)
        x |= (uint64_t)p[b][i] << (8 * b);
    return x;
}

static void planes_at(const unsigned char *planes, uint64_t n, uint64_t i0,
                      const unsigned char *p[8])
{
    for (unsigned b = 0; b < 8; b++)
        p[b] = planes + b * n + i0;
}

void iolens_column_decode_block(const unsigned char *planes, uint64_t n, uint64_t i0, size_t m,
                                uint64_t *v)
{
    const unsigned char *p[8];
    planes_at(planes, n, i0, p);
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= m; i += 16) {
        __m128i out[8];
        decode16(p, i, out);
#pragma GCC unroll 8
        for (unsigned k = 0; k < 8; k++)
            _mm_storeu_si128((__m128i *)(void *)(v + i + 2 * k), out[k]);
    }
#endif
    for (; i < m; i++)
        v[i] = decode1(p, i);
}

void iolens_column_decode_strided(const unsigned char *planes, uint64_t n, uint64_t i0, size_t m,
                                  void *dst, size_t stride)
{
    const unsigned char *p[8];
    planes_at(planes, n, i0, p);
    unsigned char *d = dst;
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= m; i += 16) {
        __m128i out[8];
        decode16(p, i, out);
#pragma GCC unroll 8
        for (unsigned k = 0; k < 8; k++) {
            _mm_storel_epi64((__m128i *)(void *)(d + (i + 2 * k) * stride), out[k]);
            _mm_storel_epi64((__m128i *)(void *)(d + (i + 2 * k + 1) * stride),
                             _mm_unpackhi_epi64(out[k], out[k]));
        }
    }
#endif
    for (; i < m; i++) {
        uint64_t x = decode1(p, i);
        memcpy(d + i * stride, &x, sizeof x);
    }
}

int iolens_column_decode(const unsigned char *bytes, size_t len, uint64_t n, uint64_t *values)
{
    size_t need = iolens_column_bytes(n);
    if ((n > 0 && need == 0) || len < need)
        return -1;
    iolens_column_decode_block(bytes, n, 0, (size_t)n, values);
    return 0;
}
