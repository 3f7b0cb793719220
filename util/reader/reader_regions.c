/* The region table of a log: the header and its CRC, each region's place in
 * the file and its CRC, the versions this reader reads, inflating a region,
 * and the one-line reasons a read fails (steps 1 to 3 of reader.c, and the
 * inflating of step 4). */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/record_merge.h"
#include "reader/reader_internal.h"

/* ------------------------------------------------------------ errors -- */

enum iolens_read_status rd_fail(struct reader *r, enum iolens_read_status st,
                                    const char *fmt, ...)
{
    if (r->err != NULL && r->errsz > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, r->errsz, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* Name of a region kind for error messages. */
const char *rd_region_label(uint32_t kind, char *buf, size_t bufsz)
{
    switch (kind) {
    case IOLENS_REGION_JOB: return "job";
    case IOLENS_REGION_MOUNTS: return "mounts";
    case IOLENS_REGION_NAMES: return "names";
    case IOLENS_REGION_RANKS: return "ranks";
    case IOLENS_REGION_INTERVALS: return "intervals";
    case IOLENS_REGION_SITES: return "sites";
    default: break;
    }
    const char *layer = iolens_layer_name(kind);
    if (layer != NULL)
        return layer;
    snprintf(buf, bufsz, "kind %u", (unsigned)kind);
    return buf;
}

/* ---------------------------------------------------------- regions -- */

bool iolens_region_readable(uint32_t kind, uint32_t version)
{
    uint32_t v = iolens_region_known_version(kind);
    /* The earlier layouts still read: intervals 1 and 2, sites 1, layers 2 and 3
     * (whose counters mean what version 4's do; layer version 1's meant
     * something else). */
    if (kind == IOLENS_REGION_INTERVALS &&
        (version == IOLENS_INTERVALS_VERSION_1 || version == IOLENS_INTERVALS_VERSION_2))
        return true;
    if (kind == IOLENS_REGION_SITES && version == IOLENS_SITES_VERSION_1)
        return true;
    if (v != 0 && kind >= IOLENS_REGION_POSIX &&
        (version == IOLENS_LAYER_VERSION_2 || version == IOLENS_LAYER_VERSION_3))
        return true;
    return v != 0 && v == version;
}

uint32_t iolens_region_known_version(uint32_t kind)
{
    switch (kind) {
    case IOLENS_REGION_JOB: return IOLENS_JOB_VERSION;
    case IOLENS_REGION_MOUNTS: return IOLENS_MOUNTS_VERSION;
    case IOLENS_REGION_NAMES: return IOLENS_NAMES_VERSION;
    case IOLENS_REGION_RANKS: return IOLENS_RANKS_VERSION;
    case IOLENS_REGION_INTERVALS: return IOLENS_INTERVALS_VERSION;
    case IOLENS_REGION_SITES: return IOLENS_SITES_VERSION;
    default: break;
    }
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    return d ? d->version : 0;
}

/* Checks that region i lies inside the file. */
enum iolens_read_status rd_check_region_bounds(struct reader *r, unsigned i,
                                               const struct iolens_region_desc *d,
                                               size_t data_start)
{
    char kb[32];
    const char *label = rd_region_label(d->kind, kb, sizeof kb);
    if (d->offset < data_start)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                    "corrupt region table: region %u (%s) overlaps the header", i, label);
    if (d->offset > r->size || d->stored_size > r->size - d->offset)
        return rd_fail(r, IOLENS_READ_TRUNCATED,
                    "truncated: region %u (%s) ends past the end of the file (%zu bytes)", i, label,
                    r->size);
    return IOLENS_READ_OK;
}

/* Checks that the stored bytes of region i (d->stored_size at stored)
 * match its CRC. */
enum iolens_read_status rd_check_region_crc(struct reader *r, unsigned i,
                                            const struct iolens_region_desc *d,
                                            const unsigned char *stored)
{
    /* zlib's crc32 takes a uInt length; feed it in pieces. */
    uLong crc = crc32(0L, Z_NULL, 0);
    const unsigned char *p = stored;
    for (uint64_t left = d->stored_size; left > 0;) {
        uInt n = left > (1u << 30) ? (1u << 30) : (uInt)left;
        crc = crc32(crc, p, n);
        p += n;
        left -= n;
    }
    char kb[32];
    if ((uint32_t)crc != d->crc32)
        return rd_fail(r, IOLENS_READ_CRC, "CRC mismatch in region %u (%s)", i,
                       rd_region_label(d->kind, kb, sizeof kb));
    return IOLENS_READ_OK;
}

/* Checks that region i lies inside the file and that its CRC matches. */
enum iolens_read_status rd_check_region_bytes(struct reader *r, unsigned i,
                                                  const struct iolens_region_desc *d,
                                                  size_t data_start)
{
    enum iolens_read_status st = rd_check_region_bounds(r, i, d, data_start);
    return st != IOLENS_READ_OK ? st : rd_check_region_crc(r, i, d, r->data + d->offset);
}

/* A zlib stream (RFC 1950) of exactly inlen bytes inflated into exactly
 * outlen bytes: Z_OK, Z_MEM_ERROR, or Z_DATA_ERROR for anything else.
 * The deflate body is inflated raw and the Adler-32 trailer is not
 * recomputed: every stored byte, the trailer included, is covered by the
 * region's CRC-32, which the reader checks before it parses a region, and
 * the Adler-32 alone took a fifth of the time of iolens-parser --total. */
static int inflate_zlib(const unsigned char *in, uint64_t inlen, unsigned char *out,
                        uint64_t outlen)
{
    enum { HEAD = 2, TRAILER = 4 };
    if (inlen < HEAD + TRAILER || inlen > UINT_MAX || outlen > UINT_MAX)
        return Z_DATA_ERROR;
    unsigned cmf = in[0], flg = in[1];
    bool deflate32k = (cmf & 0x0f) == Z_DEFLATED && (cmf >> 4) <= 7;
    bool preset_dict = (flg & 0x20) != 0;
    if (!deflate32k || preset_dict || (cmf * 256 + flg) % 31 != 0)
        return Z_DATA_ERROR;
    z_stream z = {0};
    int zr = inflateInit2(&z, -MAX_WBITS);
    if (zr != Z_OK)
        return zr == Z_MEM_ERROR ? Z_MEM_ERROR : Z_DATA_ERROR;
    z.next_in = (Bytef *)(uintptr_t)(in + HEAD); /* zlib's input is not const */
    z.avail_in = (uInt)(inlen - HEAD - TRAILER);
    z.next_out = out;
    z.avail_out = (uInt)outlen;
    zr = inflate(&z, Z_FINISH);
    bool exact = zr == Z_STREAM_END && z.avail_in == 0 && z.avail_out == 0;
    inflateEnd(&z);
    if (zr == Z_MEM_ERROR)
        return Z_MEM_ERROR;
    return exact ? Z_OK : Z_DATA_ERROR;
}

/* deflate cannot shrink data by more than about 1032:1, so a larger claim
 * is corrupt; this also bounds the allocation by the input. */
bool rd_raw_size_possible(const struct iolens_region_desc *d)
{
    return d->raw_size <= IOLENS_READER_MAX_RAW_SIZE && d->raw_size / 1032 <= d->stored_size + 64;
}

enum iolens_read_status rd_inflate_region(struct reader *r, unsigned i,
                                              const struct iolens_region_desc *d,
                                              const unsigned char *stored, unsigned char **out)
{
    char kb[32];
    const char *label = rd_region_label(d->kind, kb, sizeof kb);
    *out = NULL;
    if (d->compression != IOLENS_COMPRESS_ZLIB)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt region %u (%s): unknown compression %u", i,
                    label, (unsigned)d->compression);
    if (d->raw_size > IOLENS_READER_MAX_RAW_SIZE)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt region %u (%s): raw size %llu is too large", i,
                    label, (unsigned long long)d->raw_size);
    if (!rd_raw_size_possible(d))
        return rd_fail(r, IOLENS_READ_CORRUPT,
                    "corrupt region %u (%s): raw size %llu is impossible for %llu stored bytes", i,
                    label, (unsigned long long)d->raw_size, (unsigned long long)d->stored_size);
    /* One buffer reused region after region: a fresh one for each was a
     * page fault every 4 KiB, a third of the time of a log of few, large
     * regions. */
    size_t need = d->raw_size > 0 ? (size_t)d->raw_size : 1;
    if (need > r->raw_cap) {
        free(r->raw);
        r->raw_cap = 0;
        if ((r->raw = malloc(need)) == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        r->raw_cap = need;
    }
    unsigned char *raw = r->raw;
    int zr = inflate_zlib(stored, d->stored_size, raw, d->raw_size);
    if (zr == Z_MEM_ERROR)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    if (zr != Z_OK)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                       "corrupt region %u (%s): does not decompress to its %llu bytes", i, label,
                       (unsigned long long)d->raw_size);
    *out = raw;
    return IOLENS_READ_OK;
}

/* ----------------------------------------------------------- header -- */

enum iolens_read_status rd_check_header(struct reader *r, struct iolens_file_header *h)
{
    size_t n = r->size < IOLENS_MAGIC_LEN ? r->size : IOLENS_MAGIC_LEN;
    if (memcmp(r->data, IOLENS_MAGIC, n) != 0)
        return rd_fail(r, IOLENS_READ_NOT_IOLENS, "not an iolens log");
    if (r->size == 0)
        return rd_fail(r, IOLENS_READ_TRUNCATED, "truncated: empty file");
    if (r->size < sizeof *h)
        return rd_fail(r, IOLENS_READ_TRUNCATED, "truncated: %zu bytes, shorter than the header",
                    r->size);
    memcpy(h, r->data, sizeof *h);
    if (h->byte_order != IOLENS_BYTE_ORDER_MARK)
        return rd_fail(r, IOLENS_READ_VERSION, "unsupported byte order (mark 0x%08x)",
                    (unsigned)h->byte_order);
    if (h->version != IOLENS_FORMAT_VERSION && h->version != IOLENS_FORMAT_VERSION_2 &&
        h->version != IOLENS_FORMAT_VERSION_1)
        return rd_fail(r, IOLENS_READ_VERSION, "unsupported format version %u (this reader knows %u)",
                    (unsigned)h->version, IOLENS_FORMAT_VERSION);
    if (h->header_size != sizeof *h)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt header: header size %u, expected %zu",
                    (unsigned)h->header_size, sizeof *h);
    if (h->region_count > IOLENS_MAX_REGIONS)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt header: %u regions (at most %u)",
                    (unsigned)h->region_count, IOLENS_MAX_REGIONS);
    size_t table = (size_t)h->region_count * sizeof(struct iolens_region_desc);
    if (r->size - sizeof *h < table)
        return rd_fail(r, IOLENS_READ_TRUNCATED,
                    "truncated: the region table ends past the end of the file");

    struct iolens_file_header zeroed = *h;
    zeroed.header_crc = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)&zeroed, sizeof zeroed);
    crc = crc32(crc, r->data + sizeof *h, (uInt)table);
    if ((uint32_t)crc != h->header_crc)
        return rd_fail(r, IOLENS_READ_CRC, "CRC mismatch in the header");
    return IOLENS_READ_OK;
}
