/*
 * The raw bytes of each log region (layouts in include/iolens/log_format.h)
 * and their compression, from what the caller hands over: nothing here
 * reads the runtime's tables (log_regions.c gathers from them).
 *
 * This runs at shutdown only, so it uses malloc freely; the memory budget
 * bounds what the runtime keeps while the program runs, not this.
 */
#include "log/region_encode.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/column_codec.h"
#include "format/path_hash.h"

/* Level 1: 3000 POSIX records (1.9 MB raw, about a full 2 MiB budget)
 * compress to 14% in 14 ms; level 6 gets 12.5% but takes 30 ms, level 9
 * 11.8% in 275 ms.  Exit time matters more than 10% of a small file. */
#define LOG_COMPRESS_LEVEL 1

_Static_assert(sizeof(struct iolens_job_fixed) == 120, "job record layout");
_Static_assert(sizeof(struct iolens_layer_head) == 16, "layer head layout");
_Static_assert(sizeof(struct iolens_rank_info) == 24, "rank info layout");

/* ------------------------------------------------------------ buffer -- */

void iolens_buf_free(struct iolens_buf *b)
{
    free(b->data);
    *b = (struct iolens_buf){0};
}

/* Makes room for n more bytes; returns NULL (and marks b failed) if it
 * cannot. */
unsigned char *iolens_buf_reserve(struct iolens_buf *b, size_t n)
{
    if (b->failed)
        return NULL;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) {
                b->failed = 1;
                return NULL;
            }
            cap *= 2;
        }
        unsigned char *p = realloc(b->data, cap);
        if (p == NULL) {
            b->failed = 1;
            return NULL;
        }
        b->data = p;
        b->cap = cap;
    }
    return b->data + b->len;
}

void iolens_buf_put(struct iolens_buf *b, const void *data, size_t n)
{
    unsigned char *p = iolens_buf_reserve(b, n);
    if (p == NULL)
        return;
    if (n > 0)
        memcpy(p, data, n);
    b->len += n;
}

void iolens_buf_put_u32(struct iolens_buf *b, uint32_t v) { iolens_buf_put(b, &v, sizeof v); }
void iolens_buf_put_u64(struct iolens_buf *b, uint64_t v) { iolens_buf_put(b, &v, sizeof v); }

void iolens_buf_put_string(struct iolens_buf *b, const char *s, size_t len)
{
    iolens_buf_put_u32(b, (uint32_t)len);
    iolens_buf_put(b, s, len);
}

void iolens_buf_put_cstring(struct iolens_buf *b, const char *s)
{
    iolens_buf_put_string(b, s, s != NULL ? strlen(s) : 0);
}

int iolens_buf_status(const struct iolens_buf *b)
{
    return b->failed ? -1 : 0;
}

/* ----------------------------------------------------- job-wide ones -- */

int iolens_region_job(struct iolens_buf *out, const struct iolens_job_fixed *fixed,
                      const char *const *strings, const size_t *lens)
{
    iolens_buf_put(out, fixed, sizeof *fixed);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++) {
        /* A string longer than the format can count is cut. */
        size_t len = lens[i] > UINT32_MAX ? UINT32_MAX : lens[i];
        iolens_buf_put_string(out, strings[i], len);
    }
    return iolens_buf_status(out);
}

int iolens_region_ranks(struct iolens_buf *out, const struct iolens_rank_info *ranks, uint32_t n)
{
    iolens_buf_put_u32(out, n);
    iolens_buf_put(out, ranks, (size_t)n * sizeof *ranks);
    return iolens_buf_status(out);
}

/* ------------------------------------------------------------- names -- */

/* Entry layout (log_format.h): uint32 len << 1 | explicit, the id only
 * when it is not the hash of the name (a re-derived id after a collision,
 * a reserved name), then the name. */
static void put_name_entry(struct iolens_buf *out, const struct iolens_file *file)
{
    size_t len = file->name_len > IOLENS_NAME_LEN_MAX ? IOLENS_NAME_LEN_MAX : file->name_len;
    int explicit_id = file->id != iolens_name_id(file->name, len);
    iolens_buf_put_u32(out, (uint32_t)len << 1 | (uint32_t)explicit_id);
    if (explicit_id)
        iolens_buf_put_u64(out, file->id);
    iolens_buf_put(out, file->name, len);
}

int iolens_encode_names(struct iolens_buf *out, struct iolens_file *const *files, size_t n)
{
    iolens_buf_put_u32(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        put_name_entry(out, files[i]);
    return iolens_buf_status(out);
}

/* ------------------------------------------------------------ regions -- */

size_t iolens_region_slice_len(size_t n, size_t from)
{
    return n - from < IOLENS_REGION_RECORDS ? n - from : IOLENS_REGION_RECORDS;
}

int iolens_region_sink_add(const struct iolens_region_sink *sink, uint32_t kind,
                           uint32_t version, struct iolens_buf *raw)
{
    if (raw->failed) {
        iolens_buf_free(raw);
        return -1;
    }
    return sink->add(sink->arg, kind, version, raw) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ layers -- */

/* Times are stored as multiples of 2^-30 s (0.93 ns): finer digits are
 * noise from converting clock units, and zeroing them lets the byte-planes
 * of the time columns compress (see log_format.h). */
#define TIME_GRID_SCALE 1073741824.0   /* 2^30 */

/* Without libm (the runtime does not link it).  From 2^52 on, a double
 * is an integer already; NaN and infinities fail both tests and pass. */
static double round_time(double t)
{
    double x = t * TIME_GRID_SCALE;
    if (x >= 0 && x < 4503599627370496.0)
        return (double)(int64_t)(x + 0.5) / TIME_GRID_SCALE;
    if (x < 0 && x > -4503599627370496.0)
        return -(double)(int64_t)(-x + 0.5) / TIME_GRID_SCALE;
    return t;
}

/* Whether fcounter i of the layer is in seconds: all are, except the two
 * variances (seconds squared and bytes squared). */
static int fcounter_is_seconds(const struct iolens_layer_desc *d, uint32_t i)
{
    return (int)i != d->f_fastest_rank_time + 2 && (int)i != d->f_fastest_rank_time + 3;
}

/* Value of column c of record rec (row-major, as the layers emit it),
 * with times rounded to the grid. */
static uint64_t column_value(const struct iolens_layer_desc *d, const unsigned char *rec,
                             uint32_t c)
{
    uint64_t v;
    memcpy(&v, rec + 8 * (size_t)c, sizeof v);
    if (c >= 2 + d->ncounters && fcounter_is_seconds(d, c - 2 - d->ncounters)) {
        double t;
        memcpy(&t, &v, sizeof t);
        t = round_time(t);
        memcpy(&v, &t, sizeof v);
    }
    return v;
}

/* Layout (log_format.h): the head, then column by column (id, rank,
 * counters, fcounters), each column as 8 byte-planes of n bytes, least
 * significant byte first.  The region holds rows order[first..first+n)
 * of recs, or rows first..first+n when order is NULL. */
int iolens_encode_layer(struct iolens_buf *out, const struct iolens_layer_desc *d,
                        const unsigned char *recs, const size_t *order, size_t first, size_t n)
{
    struct iolens_layer_head head = {d->ncounters, d->nfcounters, (uint64_t)n};
    iolens_buf_put(out, &head, sizeof head);
    if (n > SIZE_MAX / d->record_size) {
        out->failed = 1;
        return -1;
    }
    unsigned char *body = iolens_buf_reserve(out, n * d->record_size);
    if (body == NULL)
        return -1;
    uint32_t ncols = 2 + d->ncounters + d->nfcounters;
    for (uint32_t c = 0; c < ncols; c++) {
        unsigned char *planes = body + (size_t)c * 8 * n;
        for (size_t i = 0; i < n; i++) {
            size_t row = order != NULL ? order[first + i] : first + i;
            iolens_column_put(planes, n, i, column_value(d, recs + row * d->record_size, c));
        }
    }
    out->len += n * d->record_size;
    return iolens_buf_status(out);
}

/* --------------------------------------------------------- intervals -- */

_Static_assert(sizeof(struct iolens_intervals_head) == 32, "intervals head layout");
_Static_assert(sizeof(struct iolens_intervals_layer) == 56, "intervals layer layout");

#define NS_CAP 4611686018427387904.0   /* 2^62 ns, 146 years: sums stay in int64 */

/* Seconds to ns, rounded; negative times and NaN become 0. */
static int64_t seconds_to_ns(double t)
{
    if (!(t > 0))
        return 0;
    double ns = t * 1e9 + 0.5;
    return ns < NS_CAP ? (int64_t)ns : (int64_t)NS_CAP;
}

/* A non-negative finite value, else 0 (the reader rejects anything else). */
static double non_negative(double x)
{
    return x >= 0 && x < NS_CAP ? x : 0.0;
}

static int compare_iv_start(const void *a, const void *b)
{
    const struct iolens_interval *x = *(const struct iolens_interval *const *)a;
    const struct iolens_interval *y = *(const struct iolens_interval *const *)b;
    int64_t sx = seconds_to_ns(x->start), sy = seconds_to_ns(y->start);
    return sx < sy ? -1 : sx > sy;
}

/* The seven columns of log_format.h, from intervals sorted by start. */
static void put_interval_columns(struct iolens_buf *out, const struct iolens_interval *const *v,
                                 size_t n)
{
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t start = seconds_to_ns(v[i]->start);
        iolens_buf_put_u64(out, (uint64_t)(start - prev));
        prev = start;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t d = seconds_to_ns(v[i]->end) - seconds_to_ns(v[i]->start);
        iolens_buf_put_u64(out, (uint64_t)(d > 0 ? d : 0));
    }
    for (size_t i = 0; i < n; i++)
        iolens_buf_put_u64(out, (uint64_t)seconds_to_ns(v[i]->busy));
    for (size_t i = 0; i < n; i++)
        iolens_buf_put_u64(out, (uint64_t)(v[i]->bytes > 0 ? v[i]->bytes : 0));
    for (size_t i = 0; i < n; i++)
        iolens_buf_put_u64(out, v[i]->file_id);
    for (size_t i = 0; i < n; i++)
        iolens_buf_put_u32(out, v[i]->accesses > 0 ? v[i]->accesses : 1);
    for (size_t i = 0; i < n; i++)
        iolens_buf_put_u32(out, v[i]->flags);
}

static void put_interval_layer(struct iolens_buf *out, const struct iolens_intervals_layer_in *L)
{
    const struct iolens_interval **sorted = malloc((L->count > 0 ? L->count : 1) * sizeof *sorted);
    if (sorted == NULL) {
        out->failed = 1;
        return;
    }
    for (size_t i = 0; i < L->count; i++)
        sorted[i] = &L->iv[i];
    qsort(sorted, L->count, sizeof *sorted, compare_iv_start);
    struct iolens_intervals_layer head = {
        .kind = L->kind,
        .count = L->count,
        .error_bound = non_negative(L->error_bound),
        .accesses = L->accesses,
        .bytes = L->bytes > 0 ? L->bytes : 0,
        .sum_duration = non_negative(L->sum_duration),
        .overlap = non_negative(L->overlap),
    };
    iolens_buf_put(out, &head, sizeof head);
    put_interval_columns(out, sorted, L->count);
    free(sorted);
}

int iolens_encode_intervals_region(struct iolens_buf *out,
                                   const struct iolens_intervals_rank *in)
{
    double offset = in->clock_offset;
    struct iolens_intervals_head head = {
        .rank = in->rank,
        .clock_offset = offset == offset && offset > -NS_CAP && offset < NS_CAP ? offset : 0.0,
        .clock_uncertainty = non_negative(in->clock_uncertainty),
        .nlayers = in->nlayers,
    };
    iolens_buf_put(out, &head, sizeof head);
    for (uint32_t l = 0; l < in->nlayers; l++)
        put_interval_layer(out, &in->layers[l]);
    return iolens_buf_status(out);
}

/* ------------------------------------------------------- compression -- */

uint32_t iolens_crc32(const void *data, size_t len)
{
    /* zlib's crc32 takes a uInt length: feed large buffers in pieces. */
    const Bytef *p = data;
    uLong crc = crc32(0L, Z_NULL, 0);
    while (len > 0) {
        uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = crc32(crc, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)crc;
}

int iolens_region_compress(const void *raw, size_t rawlen, void **out, size_t *outlen)
{
    *out = NULL;
    *outlen = 0;
    if ((uLong)rawlen != rawlen)
        return -1;
    uLongf bound = compressBound((uLong)rawlen);
    unsigned char *dst = malloc(bound);
    if (dst == NULL)
        return -1;
    /* zlib wants a non-NULL source even for zero bytes. */
    const Bytef *src = rawlen > 0 ? raw : (const Bytef *)"";
    if (compress2(dst, &bound, src, (uLong)rawlen, LOG_COMPRESS_LEVEL) != Z_OK) {
        free(dst);
        return -1;
    }
    *out = dst;
    *outlen = bound;
    return 0;
}
