/*
 * A log's regions read from its file (reader_source.h), for the streaming
 * reader and its decoding thread.
 */
#include "reader/reader_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rd_source_read(const struct rd_source *src, uint64_t off, size_t len, unsigned char *dst)
{
    if (src->mem != NULL) {
        memcpy(dst, src->mem + off, len);
        return 0;
    }
    while (len > 0) {
        ssize_t n = pread(src->fd, dst, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return -1;
        dst += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    return 0;
}

enum iolens_read_status rd_source_failed(struct reader *r, int e)
{
    return rd_fail(r, IOLENS_READ_IO, "%s", e > 0 ? strerror(e) : "the file changed while read");
}

enum iolens_read_status rd_source_load(struct reader *r, const struct rd_source *src,
                                       unsigned i, unsigned char **buf, size_t *bufcap)
{
    const struct iolens_region_desc *d = &src->table[i];
    size_t n = (size_t)d->stored_size; /* inside the file (checked): fits */
    if (n + 1 > *bufcap) {
        unsigned char *p = realloc(*buf, n + 1);
        if (p == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        *buf = p;
        *bufcap = n + 1;
    }
    int e = rd_source_read(src, d->offset, n, *buf);
    return e != 0 ? rd_source_failed(r, e) : IOLENS_READ_OK;
}

enum iolens_read_status rd_source_decode(struct reader *r, const struct rd_source *src,
                                         unsigned i, unsigned char **buf, size_t *bufcap)
{
    enum iolens_read_status st = rd_source_load(r, src, i, buf, bufcap);
    if (st == IOLENS_READ_OK)
        st = rd_check_region_crc(r, i, &src->table[i], *buf);
    if (st != IOLENS_READ_OK)
        return st;
    rd_clear_scratch(r->log);
    return rd_parse_region(r, i, &src->table[i], *buf);
}
