/*
 * The log reader: validates a whole log held in memory and decodes it.
 *
 * Order of checks (each failure is reported, nothing is trusted before it
 * is checked):
 *   1. size and magic, byte order, format version, header size;
 *   2. the region table fits in the file and the header CRC matches;
 *   3. every region lies inside the file and its stored-bytes CRC matches;
 *   4. each known region decompresses to exactly its raw size and is then
 *      parsed with a bounds-checked cursor that must consume it exactly.
 * Region kinds (or region versions) this reader does not know are skipped
 * after step 3 and counted in log->unknown_regions.
 */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ------------------------------------------------------ counter tables -- */

#define X_NAME(name, agg, desc) #name,
#define X_DESC(name, agg, desc) desc,
static const char *const posix_names[] = {IOLENS_POSIX_COUNTERS(X_NAME)};
static const char *const posix_descs[] = {IOLENS_POSIX_COUNTERS(X_DESC)};
static const char *const posix_fnames[] = {IOLENS_POSIX_FCOUNTERS(X_NAME)};
static const char *const posix_fdescs[] = {IOLENS_POSIX_FCOUNTERS(X_DESC)};
static const char *const stdio_names[] = {IOLENS_STDIO_COUNTERS(X_NAME)};
static const char *const stdio_descs[] = {IOLENS_STDIO_COUNTERS(X_DESC)};
static const char *const stdio_fnames[] = {IOLENS_STDIO_FCOUNTERS(X_NAME)};
static const char *const stdio_fdescs[] = {IOLENS_STDIO_FCOUNTERS(X_DESC)};
#undef X_NAME
#undef X_DESC

struct layer_info {
    uint32_t kind;
    uint32_t version;
    const char *name;
    const char *const *names;
    const char *const *descs;
    uint32_t count;
    const char *const *fnames;
    const char *const *fdescs;
    uint32_t fcount;
};

static const struct layer_info layers_known[] = {
    {IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, "POSIX", posix_names, posix_descs,
     POSIX_NUM_COUNTERS, posix_fnames, posix_fdescs, POSIX_F_NUM_COUNTERS},
    {IOLENS_REGION_STDIO, IOLENS_STDIO_VERSION, "STDIO", stdio_names, stdio_descs,
     STDIO_NUM_COUNTERS, stdio_fnames, stdio_fdescs, STDIO_F_NUM_COUNTERS},
};

static const struct layer_info *layer_info(uint32_t kind)
{
    for (size_t i = 0; i < sizeof layers_known / sizeof layers_known[0]; i++)
        if (layers_known[i].kind == kind)
            return &layers_known[i];
    return NULL;
}

const char *iolens_layer_name(uint32_t kind)
{
    const struct layer_info *li = layer_info(kind);
    return li ? li->name : NULL;
}

const char *iolens_counter_name(uint32_t kind, uint32_t index)
{
    const struct layer_info *li = layer_info(kind);
    return li && index < li->count ? li->names[index] : NULL;
}

const char *iolens_fcounter_name(uint32_t kind, uint32_t index)
{
    const struct layer_info *li = layer_info(kind);
    return li && index < li->fcount ? li->fnames[index] : NULL;
}

const char *iolens_counter_desc(uint32_t kind, uint32_t index)
{
    const struct layer_info *li = layer_info(kind);
    return li && index < li->count ? li->descs[index] : NULL;
}

const char *iolens_fcounter_desc(uint32_t kind, uint32_t index)
{
    const struct layer_info *li = layer_info(kind);
    return li && index < li->fcount ? li->fdescs[index] : NULL;
}

uint32_t iolens_counter_known(uint32_t kind)
{
    const struct layer_info *li = layer_info(kind);
    return li ? li->count : 0;
}

uint32_t iolens_fcounter_known(uint32_t kind)
{
    const struct layer_info *li = layer_info(kind);
    return li ? li->fcount : 0;
}

/* Name of a region kind for error messages. */
static const char *region_label(uint32_t kind, char *buf, size_t bufsz)
{
    switch (kind) {
    case IOLENS_REGION_JOB: return "job";
    case IOLENS_REGION_MOUNTS: return "mounts";
    case IOLENS_REGION_NAMES: return "names";
    default: break;
    }
    const char *layer = iolens_layer_name(kind);
    if (layer != NULL)
        return layer;
    snprintf(buf, bufsz, "kind %u", (unsigned)kind);
    return buf;
}

/* ------------------------------------------------------------ errors -- */

struct reader {
    const unsigned char *data;
    size_t size;
    struct iolens_log *log;
    char *err;
    size_t errsz;
    bool seen[IOLENS_REGION_STDIO + 1];   /* known kinds already parsed */
};

__attribute__((format(printf, 3, 4)))
static enum iolens_read_status fail(struct reader *r, enum iolens_read_status st,
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

/* ------------------------------------------------------------ cursor -- */

/* Reads from a decompressed region; every read is checked against what is
 * left, and a failed read leaves the cursor unusable (left = 0). */
struct cursor {
    const unsigned char *p;
    size_t left;
};

static bool take(struct cursor *c, void *out, size_t n)
{
    if (c->left < n) {
        c->left = 0;
        return false;
    }
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
    return true;
}

static bool take_u32(struct cursor *c, uint32_t *v) { return take(c, v, sizeof *v); }
static bool take_u64(struct cursor *c, uint64_t *v) { return take(c, v, sizeof *v); }

/* A uint32 length followed by that many bytes, copied into a new
 * NUL-terminated string.  allow_nul: the string is a NUL-separated list;
 * otherwise an embedded NUL makes it corrupt. */
static enum iolens_read_status take_string(struct cursor *c, bool allow_nul, char **out,
                                           size_t *len_out)
{
    uint32_t len;
    if (!take_u32(c, &len) || len > c->left)
        return IOLENS_READ_CORRUPT;
    if (!allow_nul && memchr(c->p, '\0', len) != NULL)
        return IOLENS_READ_CORRUPT;
    char *s = malloc((size_t)len + 1);
    if (s == NULL)
        return IOLENS_READ_NOMEM;
    memcpy(s, c->p, len);
    s[len] = '\0';
    c->p += len;
    c->left -= len;
    *out = s;
    if (len_out != NULL)
        *len_out = len;
    return IOLENS_READ_OK;
}

static bool skip_string(struct cursor *c)
{
    uint32_t len;
    if (!take_u32(c, &len) || len > c->left)
        return false;
    c->p += len;
    c->left -= len;
    return true;
}

/* ------------------------------------------------------- job region -- */

static enum iolens_read_status parse_job(struct reader *r, struct cursor *c)
{
    struct iolens_log *log = r->log;
    if (!take(c, &log->job, sizeof log->job))
        return fail(r, IOLENS_READ_CORRUPT, "corrupt job region: shorter than its fixed part");
    if (log->job.string_count < IOLENS_JOB_NSTRINGS)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt job region: %llu strings, %d expected",
                    (unsigned long long)log->job.string_count, IOLENS_JOB_NSTRINGS);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++) {
        bool list = i == IOLENS_JOBSTR_ARGS || i == IOLENS_JOBSTR_HOSTS;
        enum iolens_read_status st = take_string(c, list, &log->jobstr[i], &log->jobstr_len[i]);
        if (st == IOLENS_READ_NOMEM)
            return fail(r, st, "out of memory");
        if (st != IOLENS_READ_OK)
            return fail(r, st, "corrupt job region: bad string %d", i);
    }
    /* Strings added by later writers: skipped, but they must be well formed.
     * Each takes at least 4 bytes, so the loop ends with the region. */
    for (uint64_t i = IOLENS_JOB_NSTRINGS; i < log->job.string_count; i++)
        if (!skip_string(c))
            return fail(r, IOLENS_READ_CORRUPT, "corrupt job region: bad extra string");
    return IOLENS_READ_OK;
}

/* ---------------------------------------------------- mounts region -- */

/* Smallest encoding of one mount entry: block size and two lengths. */
#define MOUNT_ENTRY_MIN (8 + 4 + 4)

static enum iolens_read_status parse_mounts(struct reader *r, struct cursor *c)
{
    struct iolens_log *log = r->log;
    uint32_t count;
    if (!take_u32(c, &count) || count > c->left / MOUNT_ENTRY_MIN)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt mounts region: bad count");
    if (count == 0)
        return IOLENS_READ_OK;
    log->mounts = calloc(count, sizeof *log->mounts);
    if (log->mounts == NULL)
        return fail(r, IOLENS_READ_NOMEM, "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        struct iolens_log_mount *m = &log->mounts[i];
        uint64_t bsize;
        if (!take_u64(c, &bsize))
            return fail(r, IOLENS_READ_CORRUPT, "corrupt mounts region: entry %u", (unsigned)i);
        m->block_size = (int64_t)bsize;
        log->nmounts = i + 1; /* from here on its strings are freed with the log */
        enum iolens_read_status st = take_string(c, false, &m->point, NULL);
        if (st == IOLENS_READ_OK)
            st = take_string(c, false, &m->fstype, NULL);
        if (st == IOLENS_READ_NOMEM)
            return fail(r, st, "out of memory");
        if (st != IOLENS_READ_OK)
            return fail(r, st, "corrupt mounts region: entry %u", (unsigned)i);
    }
    return IOLENS_READ_OK;
}

/* ----------------------------------------------------- names region -- */

#define NAME_ENTRY_MIN (8 + 4)

static int compare_names(const void *a, const void *b)
{
    uint64_t x = ((const struct iolens_log_name *)a)->id;
    uint64_t y = ((const struct iolens_log_name *)b)->id;
    return x < y ? -1 : x > y;
}

static enum iolens_read_status parse_names(struct reader *r, struct cursor *c)
{
    struct iolens_log *log = r->log;
    uint32_t count;
    if (!take_u32(c, &count) || count > c->left / NAME_ENTRY_MIN)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt names region: bad count");
    if (count == 0)
        return IOLENS_READ_OK;
    log->names = calloc(count, sizeof *log->names);
    if (log->names == NULL)
        return fail(r, IOLENS_READ_NOMEM, "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        struct iolens_log_name *n = &log->names[i];
        if (!take_u64(c, &n->id))
            return fail(r, IOLENS_READ_CORRUPT, "corrupt names region: entry %u", (unsigned)i);
        log->nnames = i + 1;
        enum iolens_read_status st = take_string(c, false, &n->name, NULL);
        if (st == IOLENS_READ_NOMEM)
            return fail(r, st, "out of memory");
        if (st != IOLENS_READ_OK)
            return fail(r, st, "corrupt names region: entry %u", (unsigned)i);
    }
    qsort(log->names, log->nnames, sizeof *log->names, compare_names);
    for (size_t i = 1; i < log->nnames; i++)
        if (log->names[i].id == log->names[i - 1].id)
            return fail(r, IOLENS_READ_CORRUPT, "corrupt names region: id %llu named twice",
                        (unsigned long long)log->names[i].id);
    return IOLENS_READ_OK;
}

/* ----------------------------------------------------- layer region -- */

/* Allocates n elements of size sz (n * sz already known to fit in the
 * region); a zero-sized array stays NULL. */
static bool alloc_array(void **out, uint64_t n, size_t sz)
{
    *out = NULL;
    if (n == 0 || sz == 0)
        return true;
    *out = malloc((size_t)n * sz);
    return *out != NULL;
}

static enum iolens_read_status parse_layer(struct reader *r, struct cursor *c, uint32_t kind,
                                           uint32_t version)
{
    struct iolens_log *log = r->log;
    const char *lname = iolens_layer_name(kind);
    struct iolens_layer_head head;
    if (!take(c, &head, sizeof head))
        return fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: no layer head", lname);

    /* The record count must account for the region exactly.  cc and fc are
     * 32-bit, so the record size fits in 64 bits; the product is checked. */
    uint64_t rec_size = 16 + 8 * ((uint64_t)head.counter_count + head.fcounter_count);
    uint64_t body;
    if (__builtin_mul_overflow(head.record_count, rec_size, &body) || body != c->left)
        return fail(r, IOLENS_READ_CORRUPT,
                    "corrupt %s region: %llu records of %llu bytes do not fill %llu bytes", lname,
                    (unsigned long long)head.record_count, (unsigned long long)rec_size,
                    (unsigned long long)c->left);

    struct iolens_log_layer *grown = realloc(log->layers, (log->nlayers + 1) * sizeof *grown);
    if (grown == NULL)
        return fail(r, IOLENS_READ_NOMEM, "out of memory");
    log->layers = grown;
    struct iolens_log_layer *L = &log->layers[log->nlayers++];
    memset(L, 0, sizeof *L);
    L->kind = kind;
    L->version = version;
    L->counter_count = head.counter_count;
    L->fcounter_count = head.fcounter_count;
    L->record_count = head.record_count;

    uint64_t n = head.record_count;
    if (!alloc_array((void **)&L->id, n, sizeof *L->id) ||
        !alloc_array((void **)&L->rank, n, sizeof *L->rank) ||
        !alloc_array((void **)&L->counters, n * head.counter_count, sizeof *L->counters) ||
        !alloc_array((void **)&L->fcounters, n * head.fcounter_count, sizeof *L->fcounters))
        return fail(r, IOLENS_READ_NOMEM, "out of memory");

    /* The takes cannot fail: the sizes were checked against the region. */
    for (uint64_t i = 0; i < n; i++) {
        take_u64(c, &L->id[i]);
        take(c, &L->rank[i], sizeof L->rank[i]);
        if (head.counter_count > 0)
            take(c, L->counters + i * head.counter_count, 8 * (size_t)head.counter_count);
        if (head.fcounter_count > 0)
            take(c, L->fcounters + i * head.fcounter_count, 8 * (size_t)head.fcounter_count);
    }
    return IOLENS_READ_OK;
}

/* ---------------------------------------------------------- regions -- */

static uint32_t known_version(uint32_t kind)
{
    switch (kind) {
    case IOLENS_REGION_JOB: return IOLENS_JOB_VERSION;
    case IOLENS_REGION_MOUNTS: return IOLENS_MOUNTS_VERSION;
    case IOLENS_REGION_NAMES: return IOLENS_NAMES_VERSION;
    default: break;
    }
    const struct layer_info *li = layer_info(kind);
    return li ? li->version : 0;
}

/* Checks that region i lies inside the file and that its CRC matches. */
static enum iolens_read_status check_region_bytes(struct reader *r, unsigned i,
                                                  const struct iolens_region_desc *d,
                                                  size_t data_start)
{
    char kb[32];
    const char *label = region_label(d->kind, kb, sizeof kb);
    if (d->offset < data_start)
        return fail(r, IOLENS_READ_CORRUPT,
                    "corrupt region table: region %u (%s) overlaps the header", i, label);
    if (d->offset > r->size || d->stored_size > r->size - d->offset)
        return fail(r, IOLENS_READ_TRUNCATED,
                    "truncated: region %u (%s) ends past the end of the file (%zu bytes)", i, label,
                    r->size);
    /* zlib's crc32 takes a uInt length; feed it in pieces. */
    uLong crc = crc32(0L, Z_NULL, 0);
    const unsigned char *p = r->data + d->offset;
    for (uint64_t left = d->stored_size; left > 0;) {
        uInt n = left > (1u << 30) ? (1u << 30) : (uInt)left;
        crc = crc32(crc, p, n);
        p += n;
        left -= n;
    }
    if ((uint32_t)crc != d->crc32)
        return fail(r, IOLENS_READ_CRC, "CRC mismatch in region %u (%s)", i, label);
    return IOLENS_READ_OK;
}

static enum iolens_read_status inflate_region(struct reader *r, unsigned i,
                                              const struct iolens_region_desc *d,
                                              unsigned char **out)
{
    char kb[32];
    const char *label = region_label(d->kind, kb, sizeof kb);
    *out = NULL;
    if (d->compression != IOLENS_COMPRESS_ZLIB)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt region %u (%s): unknown compression %u", i,
                    label, (unsigned)d->compression);
    if (d->raw_size > IOLENS_READER_MAX_RAW_SIZE)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt region %u (%s): raw size %llu is too large", i,
                    label, (unsigned long long)d->raw_size);
    /* deflate cannot shrink data by more than about 1032:1, so a larger
     * claim is corrupt; this also bounds the allocation by the input. */
    if (d->raw_size / 1032 > d->stored_size + 64)
        return fail(r, IOLENS_READ_CORRUPT,
                    "corrupt region %u (%s): raw size %llu is impossible for %llu stored bytes", i,
                    label, (unsigned long long)d->raw_size, (unsigned long long)d->stored_size);
    /* stored_size fits in the file, and the raw size is capped: both fit uLong. */
    unsigned char *raw = malloc(d->raw_size > 0 ? (size_t)d->raw_size : 1);
    if (raw == NULL)
        return fail(r, IOLENS_READ_NOMEM, "out of memory");
    uLongf raw_len = (uLongf)d->raw_size;
    uLong src_len = (uLong)d->stored_size;
    int zr = uncompress2(raw, &raw_len, r->data + d->offset, &src_len);
    if (zr != Z_OK || raw_len != d->raw_size || src_len != d->stored_size) {
        free(raw);
        return fail(r, IOLENS_READ_CORRUPT,
                    "corrupt region %u (%s): does not decompress to its %llu bytes", i, label,
                    (unsigned long long)d->raw_size);
    }
    *out = raw;
    return IOLENS_READ_OK;
}

static bool is_layer_kind(uint32_t kind) { return layer_info(kind) != NULL; }

static enum iolens_read_status parse_region(struct reader *r, unsigned i,
                                            const struct iolens_region_desc *d)
{
    uint32_t expect = known_version(d->kind);
    if (expect == 0 || d->version != expect) {
        r->log->unknown_regions++;
        return IOLENS_READ_OK;
    }
    char kb[32];
    const char *label = region_label(d->kind, kb, sizeof kb);
    if (r->seen[d->kind])
        return fail(r, IOLENS_READ_CORRUPT, "corrupt: %s region appears twice", label);
    r->seen[d->kind] = true;

    unsigned char *raw;
    enum iolens_read_status st = inflate_region(r, i, d, &raw);
    if (st != IOLENS_READ_OK)
        return st;
    struct cursor c = {raw, (size_t)d->raw_size};
    if (d->kind == IOLENS_REGION_JOB)
        st = parse_job(r, &c);
    else if (d->kind == IOLENS_REGION_MOUNTS)
        st = parse_mounts(r, &c);
    else if (d->kind == IOLENS_REGION_NAMES)
        st = parse_names(r, &c);
    else if (is_layer_kind(d->kind))
        st = parse_layer(r, &c, d->kind, d->version);
    if (st == IOLENS_READ_OK && c.left != 0)
        st = fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: %zu trailing bytes", label, c.left);
    free(raw);
    return st;
}

/* ----------------------------------------------------------- header -- */

static enum iolens_read_status check_header(struct reader *r, struct iolens_file_header *h)
{
    size_t n = r->size < IOLENS_MAGIC_LEN ? r->size : IOLENS_MAGIC_LEN;
    if (memcmp(r->data, IOLENS_MAGIC, n) != 0)
        return fail(r, IOLENS_READ_NOT_IOLENS, "not an iolens log");
    if (r->size == 0)
        return fail(r, IOLENS_READ_TRUNCATED, "truncated: empty file");
    if (r->size < sizeof *h)
        return fail(r, IOLENS_READ_TRUNCATED, "truncated: %zu bytes, shorter than the header",
                    r->size);
    memcpy(h, r->data, sizeof *h);
    if (h->byte_order != IOLENS_BYTE_ORDER_MARK)
        return fail(r, IOLENS_READ_VERSION, "unsupported byte order (mark 0x%08x)",
                    (unsigned)h->byte_order);
    if (h->version != IOLENS_FORMAT_VERSION)
        return fail(r, IOLENS_READ_VERSION, "unsupported format version %u (this reader knows %u)",
                    (unsigned)h->version, IOLENS_FORMAT_VERSION);
    if (h->header_size != sizeof *h)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt header: header size %u, expected %zu",
                    (unsigned)h->header_size, sizeof *h);
    if (h->region_count > IOLENS_MAX_REGIONS)
        return fail(r, IOLENS_READ_CORRUPT, "corrupt header: %u regions (at most %u)",
                    (unsigned)h->region_count, IOLENS_MAX_REGIONS);
    size_t table = (size_t)h->region_count * sizeof(struct iolens_region_desc);
    if (r->size - sizeof *h < table)
        return fail(r, IOLENS_READ_TRUNCATED,
                    "truncated: the region table ends past the end of the file");

    struct iolens_file_header zeroed = *h;
    zeroed.header_crc = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)&zeroed, sizeof zeroed);
    crc = crc32(crc, r->data + sizeof *h, (uInt)table);
    if ((uint32_t)crc != h->header_crc)
        return fail(r, IOLENS_READ_CRC, "CRC mismatch in the header");
    return IOLENS_READ_OK;
}

static enum iolens_read_status read_all(struct reader *r)
{
    struct iolens_file_header h;
    enum iolens_read_status st = check_header(r, &h);
    if (st != IOLENS_READ_OK)
        return st;
    r->log->version = h.version;
    r->log->flags = h.flags;

    size_t data_start = sizeof h + (size_t)h.region_count * sizeof(struct iolens_region_desc);
    struct iolens_region_desc table[IOLENS_MAX_REGIONS];
    memcpy(table, r->data + sizeof h, (size_t)h.region_count * sizeof table[0]);

    /* All bounds and CRCs first, so a damaged file reports damage rather
     * than whatever a half-parsed region happens to say. */
    for (unsigned i = 0; i < h.region_count; i++)
        if ((st = check_region_bytes(r, i, &table[i], data_start)) != IOLENS_READ_OK)
            return st;
    for (unsigned i = 0; i < h.region_count; i++)
        if ((st = parse_region(r, i, &table[i])) != IOLENS_READ_OK)
            return st;
    if (!r->seen[IOLENS_REGION_JOB])
        return fail(r, IOLENS_READ_CORRUPT, "corrupt: no job region");
    return IOLENS_READ_OK;
}

enum iolens_read_status iolens_log_read_buffer(const void *data, size_t size,
                                               struct iolens_log *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (err != NULL && errsz > 0)
        err[0] = '\0';
    struct reader r = {.data = data, .size = size, .log = out, .err = err, .errsz = errsz};
    if (data == NULL && size > 0)
        return fail(&r, IOLENS_READ_IO, "no data");
    static const unsigned char empty[1];
    if (data == NULL)
        r.data = empty;
    enum iolens_read_status st = read_all(&r);
    if (st != IOLENS_READ_OK)
        iolens_log_free(out);
    return st;
}

/* -------------------------------------------------------------- file -- */

/* Reads all of fd into a malloc'd buffer.  Returns 0 or an errno value. */
static int slurp(int fd, unsigned char **out, size_t *outsz)
{
    struct stat sb;
    size_t cap = 64 * 1024;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (unsigned long long)sb.st_size < SIZE_MAX / 2)
        cap = (size_t)sb.st_size + 1; /* +1: reach EOF without growing */
    unsigned char *buf = malloc(cap);
    size_t len = 0;
    if (buf == NULL)
        return ENOMEM;
    for (;;) {
        if (len == cap) {
            if (cap > SIZE_MAX / 2) {
                free(buf);
                return EFBIG;
            }
            unsigned char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                return ENOMEM;
            }
            buf = grown;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            return e;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    *out = buf;
    *outsz = len;
    return 0;
}

enum iolens_read_status iolens_log_read(const char *path, struct iolens_log *out, char *err,
                                        size_t errsz)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int e = 0;
    unsigned char *buf = NULL;
    size_t size = 0;
    if (fd < 0) {
        e = errno;
    } else {
        e = slurp(fd, &buf, &size);
        close(fd);
    }
    if (e != 0) {
        if (err != NULL && errsz > 0)
            snprintf(err, errsz, "%s", strerror(e));
        return e == ENOMEM ? IOLENS_READ_NOMEM : IOLENS_READ_IO;
    }
    enum iolens_read_status st = iolens_log_read_buffer(buf, size, out, err, errsz);
    free(buf);
    return st;
}

void iolens_log_free(struct iolens_log *log)
{
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        free(log->jobstr[i]);
    for (size_t i = 0; i < log->nmounts; i++) {
        free(log->mounts[i].point);
        free(log->mounts[i].fstype);
    }
    free(log->mounts);
    for (size_t i = 0; i < log->nnames; i++)
        free(log->names[i].name);
    free(log->names);
    for (size_t i = 0; i < log->nlayers; i++) {
        free(log->layers[i].id);
        free(log->layers[i].rank);
        free(log->layers[i].counters);
        free(log->layers[i].fcounters);
    }
    free(log->layers);
    memset(log, 0, sizeof *log);
}

/* ----------------------------------------------------------- lookups -- */

const char *iolens_log_name_of(const struct iolens_log *log, uint64_t id)
{
    size_t lo = 0, hi = log->nnames;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (log->names[mid].id < id)
            lo = mid + 1;
        else if (log->names[mid].id > id)
            hi = mid;
        else
            return log->names[mid].name;
    }
    return NULL;
}

/* 1 if point is name or a parent directory of it ("/a" covers "/a/b",
 * not "/ab"). */
static bool covers(const char *point, const char *name)
{
    size_t len = strlen(point);
    while (len > 1 && point[len - 1] == '/')
        len--;
    if (len == 1 && point[0] == '/')
        return name[0] == '/';
    return strncmp(point, name, len) == 0 && (name[len] == '/' || name[len] == '\0');
}

const struct iolens_log_mount *iolens_log_mount_of(const struct iolens_log *log, const char *name)
{
    const struct iolens_log_mount *best = NULL;
    size_t best_len = 0;
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < log->nmounts; i++) {
        const struct iolens_log_mount *m = &log->mounts[i];
        size_t len = strlen(m->point);
        /* >=: a later mount on the same point hides the earlier one. */
        if (covers(m->point, name) && (best == NULL || len >= best_len)) {
            best = m;
            best_len = len;
        }
    }
    return best;
}
