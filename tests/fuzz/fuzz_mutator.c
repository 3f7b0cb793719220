/*
 * A libFuzzer custom mutator for iolens logs (linked only into the
 * libFuzzer build of tests/fuzz/run-fuzz.sh).
 *
 * Blind byte mutations almost never get past the CRCs and the zlib
 * streams, so coverage would stop at the header checks.  This mutator
 * works on the structure instead:
 *   5 in 8  decompress one region, let libFuzzer mutate its raw bytes,
 *           recompress it and rebuild the file with correct offsets, sizes
 *           and CRCs: the damage reaches the region parsers;
 *   1 in 8  set one header or table field to a boundary value;
 *   2 in 8  mutate the file's bytes as they are, then fix every CRC that
 *           can be fixed.
 * Anything without a usable header and table gets a plain mutation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "iolens/log_format.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* Regions larger than this are not decompressed for mutation. */
#define RAW_MUTATE_MAX (256u * 1024u)

struct frame {
    struct iolens_file_header h;
    struct iolens_region_desc *table;   /* malloc'd copy */
    size_t data_start;
};

/* Reads the header and table of data; 0 if both are usable. */
static int parse_frame(const uint8_t *data, size_t size, struct frame *f)
{
    f->table = NULL;
    if (size < sizeof f->h)
        return -1;
    memcpy(&f->h, data, sizeof f->h);
    if (memcmp(f->h.magic, IOLENS_MAGIC, IOLENS_MAGIC_LEN) != 0 || f->h.region_count == 0 ||
        f->h.region_count > 4096)
        return -1;
    f->data_start = sizeof f->h + (size_t)f->h.region_count * sizeof *f->table;
    if (size < f->data_start)
        return -1;
    f->table = malloc(f->h.region_count * sizeof *f->table);
    if (f->table == NULL)
        return -1;
    memcpy(f->table, data + sizeof f->h, f->h.region_count * sizeof *f->table);
    return 0;
}

static int region_inside(const struct iolens_region_desc *d, size_t size)
{
    return d->offset <= size && d->stored_size <= size - d->offset;
}

/* Fixes each region's CRC (where the region lies in the file) and then
 * the header CRC over the table. */
static void reseal(uint8_t *data, size_t size)
{
    struct frame f;
    if (parse_frame(data, size, &f) != 0)
        return;
    for (uint32_t i = 0; i < f.h.region_count; i++) {
        struct iolens_region_desc *d = &f.table[i];
        if (region_inside(d, size))
            d->crc32 = (uint32_t)crc32(0, data + d->offset, (uInt)d->stored_size);
    }
    f.h.header_crc = 0;
    uLong crc = crc32(0, (const Bytef *)&f.h, sizeof f.h);
    crc = crc32(crc, (const Bytef *)f.table, (uInt)(f.h.region_count * sizeof *f.table));
    f.h.header_crc = (uint32_t)crc;
    memcpy(data, &f.h, sizeof f.h);
    memcpy(data + sizeof f.h, f.table, f.h.region_count * sizeof *f.table);
    free(f.table);
}

/* Rebuilds the file with region victim replaced by packed[0..plen). */
static size_t rebuild(uint8_t *data, size_t size, size_t max_size, struct frame *f,
                      uint32_t victim, const uint8_t *packed, size_t plen, size_t raw_len)
{
    size_t total = f->data_start;
    for (uint32_t i = 0; i < f->h.region_count; i++)
        total += i == victim ? plen : (region_inside(&f->table[i], size) ? f->table[i].stored_size : 0);
    if (total > max_size)
        return 0;
    uint8_t *out = malloc(total ? total : 1);
    if (out == NULL)
        return 0;
    size_t at = f->data_start;
    for (uint32_t i = 0; i < f->h.region_count; i++) {
        struct iolens_region_desc *d = &f->table[i];
        size_t len = i == victim ? plen : (region_inside(d, size) ? d->stored_size : 0);
        const uint8_t *src = i == victim ? packed : len > 0 ? data + d->offset : NULL;
        if (i == victim)
            d->raw_size = raw_len;
        d->stored_size = len;
        d->offset = at;
        if (len > 0)
            memcpy(out + at, src, len);
        at += len;
    }
    memcpy(out, &f->h, sizeof f->h);
    memcpy(out + sizeof f->h, f->table, f->h.region_count * sizeof *f->table);
    memcpy(data, out, total);
    free(out);
    reseal(data, total);
    return total;
}

static size_t mutate_region(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    struct frame f;
    if (parse_frame(data, size, &f) != 0)
        return 0;
    uint32_t victim = (seed >> 3) % f.h.region_count;
    const struct iolens_region_desc *d = &f.table[victim];
    size_t result = 0;
    if (region_inside(d, size) && d->raw_size <= RAW_MUTATE_MAX) {
        size_t cap = (size_t)d->raw_size * 2 + 1024;
        uint8_t *raw = malloc(cap);
        uLongf raw_len = (uLongf)d->raw_size;
        if (raw != NULL && uncompress(raw, &raw_len, data + d->offset, d->stored_size) == Z_OK) {
            size_t n = LLVMFuzzerMutate(raw, raw_len, cap);
            uLongf plen = compressBound(n);
            uint8_t *packed = malloc(plen);
            if (packed != NULL && compress2(packed, &plen, raw, n, 1) == Z_OK)
                result = rebuild(data, size, max_size, &f, victim, packed, plen, n);
            free(packed);
        }
        free(raw);
    }
    free(f.table);
    return result;
}

static size_t mutate_field(uint8_t *data, size_t size, unsigned seed)
{
    static const uint64_t values[] = {0, 1, 2, 7, 8, 40, 255, 4096, 0x7fffffff, 0xffffffff,
                                      0x100000000ull, 0x7fffffffffffffffull, UINT64_MAX};
    struct frame f;
    if (parse_frame(data, size, &f) != 0)
        return 0;
    size_t words = f.data_start / 4;
    free(f.table);
    size_t field = 2 + (seed >> 3) % (words - 2); /* the magic is left alone */
    uint64_t v = values[(seed >> 16) % (sizeof values / sizeof values[0])];
    size_t w = ((seed >> 24) & 1) && field * 4 + 8 <= f.data_start ? 8 : 4;
    memcpy(data + field * 4, &v, w);
    reseal(data, size);
    return size;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    size_t n = 0;
    switch (seed % 8) {
    case 0: case 1: case 2: case 3: case 4:
        n = mutate_region(data, size, max_size, seed);
        break;
    case 5:
        n = mutate_field(data, size, seed);
        break;
    default:
        break;
    }
    if (n != 0)
        return n;
    n = LLVMFuzzerMutate(data, size, max_size);
    reseal(data, n);
    return n;
}
