/* The byte-plane column codec (column_codec.h). */
#include "format/column_codec.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t iolens_column_bytes(uint64_t n)
{
    if (n > SIZE_MAX / 8)
        return 0;
    return (size_t)n * 8;
}

void iolens_column_encode(const uint64_t *values, size_t n, unsigned char *planes)
{
    for (size_t i = 0; i < n; i++)
        iolens_column_put(planes, n, i, values[i]);
}

void iolens_column_decode_block(const unsigned char *planes, uint64_t n, uint64_t i0, size_t m,
                                uint64_t *v)
{
    const unsigned char *p[8];
    for (unsigned b = 0; b < 8; b++)
        p[b] = planes + b * n + i0;
    size_t i = 0;
#if defined(__SSE2__)
    /* 16 values at a time: the 8 planes' bytes interleaved 8, 16 and 32
     * bits at a time give the values whole (x86 is little-endian, as the
     * format is). */
    for (; i + 16 <= m; i += 16) {
        __m128i x[8];
        for (unsigned b = 0; b < 8; b++)
            x[b] = _mm_loadu_si128((const __m128i *)(const void *)(p[b] + i));
        __m128i lo[4], hi[4];
        for (unsigned b = 0; b < 4; b++) {
            lo[b] = _mm_unpacklo_epi8(x[2 * b], x[2 * b + 1]);
            hi[b] = _mm_unpackhi_epi8(x[2 * b], x[2 * b + 1]);
        }
        /* q[g]: values 4g .. 4g + 3, bytes 0-3 (w) and 4-7 (z). */
        __m128i w[4] = {_mm_unpacklo_epi16(lo[0], lo[1]), _mm_unpackhi_epi16(lo[0], lo[1]),
                        _mm_unpacklo_epi16(hi[0], hi[1]), _mm_unpackhi_epi16(hi[0], hi[1])};
        __m128i z[4] = {_mm_unpacklo_epi16(lo[2], lo[3]), _mm_unpackhi_epi16(lo[2], lo[3]),
                        _mm_unpacklo_epi16(hi[2], hi[3]), _mm_unpackhi_epi16(hi[2], hi[3])};
        for (unsigned g = 0; g < 4; g++) {
            _mm_storeu_si128((__m128i *)(void *)(v + i + 4 * g), _mm_unpacklo_epi32(w[g], z[g]));
            _mm_storeu_si128((__m128i *)(void *)(v + i + 4 * g + 2),
                             _mm_unpackhi_epi32(w[g], z[g]));
        }
    }
#endif
    for (; i < m; i++) {
        uint64_t x = 0;
        for (unsigned b = 0; b < 8; b++)
            x |= (uint64_t)p[b][i] << (8 * b);
        v[i] = x;
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
