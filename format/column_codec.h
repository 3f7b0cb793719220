/* The byte-plane column codec of the log's layer regions (layout in
 * include/iolens/log_format.h): a column of n 64-bit values is stored as
 * 8 planes of n bytes, least significant byte first, so that byte b of
 * value i is at planes[b * n + i].  Bytes of one rank from neighbouring
 * records then sit together, which is what lets zlib shrink columns whose
 * high bytes are alike (timestamps, sizes, ids of one directory).
 *
 * The runtime encodes (lib/log), the reader decodes (util/reader); both
 * sides live here so that they cannot drift apart. */
#ifndef IOLENS_COLUMN_CODEC_H
#define IOLENS_COLUMN_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a column of n values takes (8 n), or 0 when that overflows
 * size_t (and n is not 0). */
size_t iolens_column_bytes(uint64_t n);

/* Stores value v as value i of the n-value column at planes. */
static inline void iolens_column_put(unsigned char *planes, size_t n, size_t i, uint64_t v)
{
    for (unsigned b = 0; b < 8; b++)
        planes[b * n + i] = (unsigned char)(v >> (8 * b));
}

/* Encodes values[0..n) as one column into planes (iolens_column_bytes(n)
 * bytes). */
void iolens_column_encode(const uint64_t *values, size_t n, unsigned char *planes);

/* Values [i0, i0 + m) of the n-value column at planes into v, unchecked:
 * the caller has checked that the column is whole (the reader checks a
 * region's size before it decodes it).  The block is gathered plane by
 * plane, which the compiler vectorizes. */
void iolens_column_decode_block(const unsigned char *planes, uint64_t n, uint64_t i0, size_t m,
                                uint64_t *v);

/* As iolens_column_decode_block, but value i0 + i goes to the 8 bytes at
 * dst + i * stride: straight into a field of row-major records, without
 * a pass through a block of values. */
void iolens_column_decode_strided(const unsigned char *planes, uint64_t n, uint64_t i0, size_t m,
                                  void *dst, size_t stride);

/* Decodes the n-value column at bytes (len bytes available) into
 * values[0..n).  Returns 0, or -1 when len cannot hold the column
 * (truncated input), with values untouched. */
int iolens_column_decode(const unsigned char *bytes, size_t len, uint64_t n, uint64_t *values);

#endif
