/* Where the streaming reader (reader_stream.c) and its decoding thread
 * (reader_prefetch.c) read a log's regions from: a file read with pread,
 * or the whole file in memory.  Not part of the reader's API. */
#ifndef IOLENS_READER_SOURCE_H
#define IOLENS_READER_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "reader/reader_internal.h"

/* Where the regions' stored bytes are: a file read with pread, or the
 * whole file in memory (mem != NULL). */
struct rd_source {
    int fd;
    const unsigned char *mem;
    const struct iolens_region_desc *table;
};

/* len stored bytes at off into dst: 0, an errno value, or -1 when the
 * file ends early (it changed while read). */
int rd_source_read(const struct rd_source *src, uint64_t off, size_t len, unsigned char *dst);

/* Reports the failure e of rd_source_read with r: IOLENS_READ_IO. */
enum iolens_read_status rd_source_failed(struct reader *r, int e);

/* Region i's stored bytes (its bounds checked) into *buf, grown as
 * needed; a read error is reported with r. */
enum iolens_read_status rd_source_load(struct reader *r, const struct rd_source *src,
                                       unsigned i, unsigned char **buf, size_t *bufcap);

/* The region's stored bytes into *buf (grown as needed), its CRC checked
 * and its content parsed with r into r->log, a scratch log emptied first
 * (rd_clear_scratch). */
enum iolens_read_status rd_source_decode(struct reader *r, const struct rd_source *src,
                                         unsigned i, unsigned char **buf, size_t *bufcap);

#endif
