/* Stable sort by a 64-bit key (sort_u64.h): least significant byte
 * first, one counting pass per byte, skipping the bytes every key shares
 * (the high bytes of places and times).  Short arrays take an insertion
 * sort, which needs no scratch. */
#include "format/sort_u64.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Below this many items the insertion sort wins. */
#define SHORT_SORT 32

static inline uint64_t key_at(const unsigned char *item, size_t key_offset)
{
    uint64_t k;
    memcpy(&k, item + key_offset, sizeof k);
    return k;
}

static int insertion_sort(unsigned char *items, size_t n, size_t size, size_t key_offset)
{
    unsigned char held[32];
    for (size_t i = 1; i < n; i++) {
        uint64_t k = key_at(items + i * size, key_offset);
        size_t j = i;
        while (j > 0 && key_at(items + (j - 1) * size, key_offset) > k)
            j--;
        if (j == i)
            continue;
        memcpy(held, items + i * size, size);
        memmove(items + (j + 1) * size, items + j * size, (i - j) * size);
        memcpy(items + j * size, held, size);
    }
    return 0;
}

/* One counting pass: the items of src to dst by byte b of their keys,
 * offsets[] holding where each byte value's run starts.  Inlined with a
 * constant size, so that each copy is a few moves, not a call. */
static inline __attribute__((always_inline)) void
scatter_sized(const unsigned char *src, unsigned char *dst, size_t n, size_t size,
              size_t key_offset, unsigned b, size_t *offsets)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char *item = src + i * size;
        size_t to = offsets[(key_at(item, key_offset) >> (8 * b)) & 0xff]++;
        memcpy(dst + to * size, item, size);
    }
}

static void scatter(const unsigned char *src, unsigned char *dst, size_t n, size_t size,
                    size_t key_offset, unsigned b, size_t *offsets)
{
    switch (size) {
    case 8:
        scatter_sized(src, dst, n, 8, key_offset, b, offsets);
        break;
    case 16:
        scatter_sized(src, dst, n, 16, key_offset, b, offsets);
        break;
    case 24:
        scatter_sized(src, dst, n, 24, key_offset, b, offsets);
        break;
    default:
        scatter_sized(src, dst, n, 32, key_offset, b, offsets);
        break;
    }
}

int iolens_sort_by_u64(void *items, size_t n, size_t size, size_t key_offset)
{
    if ((size != 8 && size != 16 && size != 24 && size != 32) || key_offset > size - 8)
        return -1;
    if (n < SHORT_SORT)
        return insertion_sort(items, n, size, key_offset);
    if (n > SIZE_MAX / size)
        return -1;
    unsigned char *scratch = malloc(n * size);
    size_t(*count)[256] = calloc(8, sizeof *count);
    if (scratch == NULL || count == NULL) {
        free(scratch);
        free(count);
        return -1;
    }
    const unsigned char *base = items;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key_at(base + i * size, key_offset);
        for (unsigned b = 0; b < 8; b++)
            count[b][(k >> (8 * b)) & 0xff]++;
    }
    uint64_t first = key_at(base, key_offset);
    unsigned char *src = items, *dst = scratch;
    for (unsigned b = 0; b < 8; b++) {
        if (count[b][(first >> (8 * b)) & 0xff] == n)
            continue; /* every key has this byte: the order stays */
        size_t at = 0;
        for (unsigned v = 0; v < 256; v++) {
            size_t c = count[b][v];
            count[b][v] = at;
            at += c;
        }
        scatter(src, dst, n, size, key_offset, b, count[b]);
        unsigned char *t = src;
        src = dst;
        dst = t;
    }
    if (src != items)
        memcpy(items, src, n * size);
    free(scratch);
    free(count);
    return 0;
}
