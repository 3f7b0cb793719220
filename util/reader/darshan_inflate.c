/* Inflating the compressed parts of a Darshan log (darshan.h): zlib or
 * bzip2, one or more streams back to back, the output bounded by a limit
 * so that a small hostile log cannot claim gigabytes. */
#include <bzlib.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reader/darshan.h"

/* Output grows in steps; a part never needs more than limit bytes. */
struct outbuf {
    unsigned char *p;
    size_t len, cap, limit;
};

/* Room for at least one more byte; false: out of memory. */
static bool out_grow(struct outbuf *o)
{
    if (o->len < o->cap)
        return true;
    size_t cap = o->cap ? o->cap * 2 : 4096;
    if (cap > o->limit + 1)
        cap = o->limit + 1;   /* one past the limit: tells "too large" */
    if (cap <= o->len)
        return false;
    unsigned char *p = realloc(o->p, cap);
    if (p == NULL)
        return false;
    o->p = p;
    o->cap = cap;
    return true;
}

/* 0 done, 1 corrupt, 2 too large, 3 out of memory. */
static int zlib_all(const unsigned char *in, size_t inlen, struct outbuf *o)
{
    while (inlen > 0) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (inflateInit(&z) != Z_OK)
            return 3;
        int ret = Z_OK;
        while (ret != Z_STREAM_END) {
            if (!out_grow(o)) {
                inflateEnd(&z);
                return o->cap > o->limit ? 2 : 3;
            }
            if (o->len > o->limit) {
                inflateEnd(&z);
                return 2;
            }
            z.next_in = (unsigned char *)in;
            z.avail_in = inlen > UINT_MAX ? UINT_MAX : (unsigned)inlen;
            z.next_out = o->p + o->len;
            size_t room = o->cap - o->len;
            z.avail_out = room > UINT_MAX ? UINT_MAX : (unsigned)room;
            unsigned in_before = z.avail_in, out_before = z.avail_out;
            ret = inflate(&z, Z_NO_FLUSH);
            in += in_before - z.avail_in;
            inlen -= in_before - z.avail_in;
            o->len += out_before - z.avail_out;
            if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
                inflateEnd(&z);
                return 1;
            }
            if (ret == Z_BUF_ERROR && z.avail_out != 0) {
                inflateEnd(&z);   /* input ended inside a stream */
                return 1;
            }
        }
        inflateEnd(&z);
        if (o->len > o->limit)
            return 2;
    }
    return 0;
}

static int bzip2_all(const unsigned char *in, size_t inlen, struct outbuf *o)
{
    while (inlen > 0) {
        bz_stream z;
        memset(&z, 0, sizeof z);
        if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
            return 3;
        int ret = BZ_OK;
        while (ret != BZ_STREAM_END) {
            if (!out_grow(o)) {
                BZ2_bzDecompressEnd(&z);
                return o->cap > o->limit ? 2 : 3;
            }
            if (o->len > o->limit) {
                BZ2_bzDecompressEnd(&z);
                return 2;
            }
            z.next_in = (char *)in;
            z.avail_in = inlen > UINT_MAX ? UINT_MAX : (unsigned)inlen;
            z.next_out = (char *)(o->p + o->len);
            size_t room = o->cap - o->len;
            z.avail_out = room > UINT_MAX ? UINT_MAX : (unsigned)room;
            unsigned in_before = z.avail_in, out_before = z.avail_out;
            ret = BZ2_bzDecompress(&z);
            in += in_before - z.avail_in;
            inlen -= in_before - z.avail_in;
            o->len += out_before - z.avail_out;
            if (ret != BZ_OK && ret != BZ_STREAM_END) {
                BZ2_bzDecompressEnd(&z);
                return 1;
            }
            if (ret == BZ_OK && inlen == 0 && z.avail_out != 0) {
                BZ2_bzDecompressEnd(&z);   /* input ended inside a stream */
                return 1;
            }
        }
        BZ2_bzDecompressEnd(&z);
        if (o->len > o->limit)
            return 2;
    }
    return 0;
}

enum iolens_read_status dn_inflate(struct reader *r, int comp, const unsigned char *in,
                                   size_t inlen, size_t limit, const char *what,
                                   unsigned char **out, size_t *outlen)
{
    struct outbuf o = {.limit = limit};
    int rc;
    if (comp == DN_COMP_NONE) {
        rc = inlen > limit ? 2 : 0;
        if (rc == 0 && (o.p = malloc(inlen ? inlen : 1)) == NULL)
            rc = 3;
        if (rc == 0) {
            memcpy(o.p, in, inlen);
            o.len = inlen;
        }
    } else {
        rc = comp == DN_COMP_ZLIB ? zlib_all(in, inlen, &o) : bzip2_all(in, inlen, &o);
    }
    if (rc != 0) {
        free(o.p);
        if (rc == 3)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        if (rc == 2)
            return rd_fail(r, IOLENS_READ_NOMEM,
                           "Darshan %s decompresses to more than the limit of %zu bytes", what,
                           limit);
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: %s does not decompress",
                       what);
    }
    *out = o.p;
    *outlen = o.len;
    return IOLENS_READ_OK;
}
