/*
 * The raw bytes of each log region (layouts in include/iolens/log_format.h)
 * and their compression, from what the caller hands over: nothing here
 * reads the runtime's tables (log_regions.c gathers from them).
 *
 * This runs at shutdown only, so it uses malloc freely; the memory budget
 * bounds what the runtime keeps while the program runs, not this.
 */
#include "log/region_encode.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/column_codec.h"
#include "format/compare.h"
#include "format/path_hash.h"
#include "format/sort_u64.h"

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

/* The index of the sorted ids by their top bits: the ids are hashes of
 * the names, spread evenly, so with about one bucket an id a lookup
 * bisects a bucket of one or two ids instead of the whole block (the
 * shutdown looks up every record's id a few times: a twentieth of its
 * work at 10000 files a rank was that bisection).  Ids bunched in few
 * buckets only make the search as slow as a plain bisection, never
 * wrong.  Without memory for it, no index. */
#define MAX_BUCKET_BITS 20

static void index_buckets(struct iolens_names_block *b)
{
    b->bucket = NULL;
    b->bucket_bits = 0;
    if (b->n < 2 || b->n > UINT32_MAX)
        return;
    unsigned bits = 1;
    while (bits < MAX_BUCKET_BITS && ((size_t)1 << (bits + 1)) <= b->n)
        bits++;
    size_t nb = (size_t)1 << bits;
    uint32_t *bucket = malloc((nb + 1) * sizeof *bucket);
    if (bucket == NULL)
        return;
    size_t i = 0;
    for (size_t k = 0; k < nb; k++) {
        while (i < b->n && (b->by_id[i].id >> (64 - bits)) < k)
            i++;
        bucket[k] = (uint32_t)i;
    }
    bucket[nb] = (uint32_t)b->n;
    b->bucket = bucket;
    b->bucket_bits = bits;
}

int iolens_names_block_make(struct iolens_names_block *b, struct iolens_file *const *files,
                            size_t n)
{
    b->n = 0;
    b->bucket = NULL;
    b->bucket_bits = 0;
    b->by_id = malloc((n > 0 ? n : 1) * sizeof *b->by_id);
    if (b->by_id == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        b->by_id[i] = (struct iolens_name_place){files[i]->id, i};
    if (iolens_sort_by_u64(b->by_id, n, sizeof *b->by_id, offsetof(struct iolens_name_place, id)) !=
        0) {
        free(b->by_id);
        b->by_id = NULL;
        return -1;
    }
    b->n = n;
    index_buckets(b);
    return 0;
}

void iolens_names_block_free(struct iolens_names_block *b)
{
    free(b->by_id);
    free(b->bucket);
    *b = (struct iolens_names_block){0};
}

int iolens_names_block_find(const struct iolens_names_block *b, uint64_t id, uint64_t *index)
{
    size_t lo = 0, hi = b->n;
    if (b->bucket != NULL) {
        uint64_t k = id >> (64 - b->bucket_bits);
        lo = b->bucket[k];
        hi = b->bucket[k + 1];
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->by_id[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == b->n || b->by_id[lo].id != id)
        return 0;
    *index = b->by_id[lo].index;
    return 1;
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
#define TIME_GRID_SCALE IOLENS_TICKS_PER_SECOND   /* 2^30 */

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

/* ------------------------------------------------- layer column codes -- */

static uint64_t zigzag(int64_t k)
{
    return ((uint64_t)k << 1) ^ (uint64_t)(k >> 63);
}

/* The ticks (log_format.h) of the time whose bits are v: 1 and *k when v
 * is exactly k ticks (the grid's times of under 2^22 s, +0.0 included),
 * else 0 (-0.0, NaN, infinities, times too large for the grid). */
static int time_ticks(uint64_t v, int64_t *k)
{
    double t;
    memcpy(&t, &v, sizeof t);
    double x = t * IOLENS_TICKS_PER_SECOND;
    if (!(x > -4503599627370496.0 && x < 4503599627370496.0))
        return 0;
    int64_t ticks = (int64_t)x;
    double back = (double)ticks / IOLENS_TICKS_PER_SECOND;
    uint64_t bits;
    memcpy(&bits, &back, sizeof bits);
    if (bits != v)
        return 0;
    *k = ticks;
    return 1;
}

/* The record at place i of the region. */
static const unsigned char *row_at(const struct iolens_layer_desc *d, const unsigned char *recs,
                                   const size_t *order, size_t first, size_t i)
{
    size_t row = order != NULL ? order[first + i] : first + i;
    return recs + row * d->record_size;
}

/* A region's columns while it is encoded: the code of each column, and
 * the values of the stored ones (all but IOLENS_COL_ZERO), column-major,
 * times rounded to the grid, so that the codes and the coded values are
 * worked out from contiguous arrays rather than a hundred strided passes
 * over the rows. */
struct layer_columns {
    const struct iolens_layer_desc *d;
    size_t n;
    unsigned char *codes;       /* ncols, in the output buffer's place */
    int32_t *slot;              /* column -> its place among the stored, -1 for zero */
    uint32_t *stored;           /* stored place -> column */
    uint32_t nstored;
    uint64_t *v;                /* nstored * n values */
};

static const uint64_t *values_of(const struct layer_columns *lc, uint32_t c)
{
    return lc->v + (size_t)lc->slot[c] * lc->n;
}

/* The region's rows sorted by their place in recs (malloc'd; NULL when
 * they are in that order already or memory is short). */
static uint64_t *rows_in_memory_order(const size_t *order, size_t first, size_t n)
{
    uint64_t *rows = order != NULL ? malloc((n > 0 ? n : 1) * sizeof *rows) : NULL;
    if (rows == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        rows[i] = order[first + i];
    /* Should the sort fail, the rows stay in name order: as right. */
    (void)iolens_sort_by_u64(rows, n, sizeof *rows, 0);
    return rows;
}

/* Which columns are all 0: one pass over the rows in the order they lie
 * in memory, which an OR does not mind and the processor prefetches (in
 * name order, a cache miss a row: 2 to 6 ms for 8192 POSIX records,
 * against 0.3 to 0.4 ms). */
static int find_zero_columns(struct layer_columns *lc, const unsigned char *recs,
                             const size_t *order, size_t first)
{
    const struct iolens_layer_desc *d = lc->d;
    uint32_t ncols = 2 + d->ncounters + d->nfcounters;
    uint64_t *ors = calloc(ncols, sizeof *ors);
    if (ors == NULL)
        return -1;
    uint64_t *rows = rows_in_memory_order(order, first, lc->n);
    for (size_t i = 0; i < lc->n; i++) {
        const unsigned char *rec = rows != NULL ? recs + rows[i] * d->record_size
                                                : row_at(d, recs, order, first, i);
        for (uint32_t c = 1; c < ncols; c++) {
            uint64_t v;
            memcpy(&v, rec + 8 * (size_t)c, sizeof v);
            ors[c] |= v;
        }
    }
    free(rows);
    lc->nstored = 0;
    for (uint32_t c = 0; c < ncols; c++) {
        int zero = c > 0 && ors[c] == 0; /* the id column is always stored */
        lc->codes[c] = zero ? IOLENS_COL_ZERO : IOLENS_COL_RAW;
        lc->slot[c] = zero ? -1 : (int32_t)lc->nstored;
        if (!zero)
            lc->stored[lc->nstored++] = c;
    }
    free(ors);
    return 0;
}

/* The stored columns' values, column-major, with times rounded to the
 * grid (log_format.h). */
static void gather_values(struct layer_columns *lc, const unsigned char *recs,
                          const size_t *order, size_t first)
{
    const struct iolens_layer_desc *d = lc->d;
    size_t n = lc->n;
    /* A block of rows at a time, column by column: the block stays in the
     * cache and each column's values are written in one stream (row by
     * row, the rows' values went to as many streams as stored columns). */
    enum { BLOCK = 64 };
    const unsigned char *rows[BLOCK];
    for (size_t i0 = 0; i0 < n; i0 += BLOCK) {
        size_t m = n - i0 < BLOCK ? n - i0 : BLOCK;
        for (size_t k = 0; k < m; k++)
            rows[k] = row_at(d, recs, order, first, i0 + k);
        for (uint32_t s = 0; s < lc->nstored; s++) {
            uint64_t *dst = lc->v + (size_t)s * n + i0;
            size_t at = 8 * (size_t)lc->stored[s];
            for (size_t k = 0; k < m; k++)
                memcpy(&dst[k], rows[k] + at, 8);
        }
    }
    for (uint32_t s = 0; s < lc->nstored; s++) {
        uint32_t c = lc->stored[s];
        if (c < 2 + d->ncounters || !fcounter_is_seconds(d, c - 2 - d->ncounters))
            continue;
        uint64_t *v = lc->v + (size_t)s * n;
        for (size_t i = 0; i < n; i++) {
            double t;
            memcpy(&t, &v[i], sizeof t);
            t = round_time(t);
            memcpy(&v[i], &t, sizeof t);
        }
    }
}

/* IOLENS_COL_NAME_PLACE when every record is in names, at places that
 * increase, else IOLENS_COL_RAW (ids).  The places go to places[]. */
static uint8_t id_column_code(const struct layer_columns *lc,
                              const struct iolens_names_block *names, uint64_t *places)
{
    if (names == NULL)
        return IOLENS_COL_RAW;
    const uint64_t *ids = values_of(lc, 0);
    for (size_t i = 0; i < lc->n; i++)
        if (!iolens_names_block_find(names, ids[i], &places[i]) ||
            (i > 0 && places[i] <= places[i - 1]))
            return IOLENS_COL_RAW;
    return IOLENS_COL_NAME_PLACE;
}

/* Whether fcounter f has refs, all in ticks (fcodes: the codes of the
 * fcounters before it; a zero column is 0 ticks). */
static int refs_in_ticks(const struct iolens_layer_desc *d, const unsigned char *fcodes, uint32_t f)
{
    int refs[3];
    int n = iolens_fcounter_time_refs(d, f, refs);
    for (int i = 0; i < n; i++)
        if (fcodes[refs[i]] != IOLENS_COL_TICKS && fcodes[refs[i]] != IOLENS_COL_TICKS_FROM_REF &&
            fcodes[refs[i]] != IOLENS_COL_ZERO)
            return 0;
    return n > 0;
}

/* The code of stored fcounter f: ticks when every value is on the grid
 * (from its refs when it has some, in ticks too), else raw.  Its values
 * become ticks in place (ticks[]: scratch of n). */
static uint8_t time_column_code(const struct layer_columns *lc, uint32_t f, int64_t *ticks)
{
    const struct iolens_layer_desc *d = lc->d;
    if (!fcounter_is_seconds(d, f))
        return IOLENS_COL_RAW;
    const uint64_t *v = values_of(lc, 2 + d->ncounters + f);
    for (size_t i = 0; i < lc->n; i++)
        if (!time_ticks(v[i], &ticks[i]))
            return IOLENS_COL_RAW;
    return refs_in_ticks(d, lc->codes + 2 + d->ncounters, f) ? IOLENS_COL_TICKS_FROM_REF
                                                              : IOLENS_COL_TICKS;
}

/* The ticks of value i of fcounter f (0 for a zero column; f is in
 * ticks: the caller checked). */
static int64_t ticks_at(const struct layer_columns *lc, uint32_t f, size_t i)
{
    uint32_t c = 2 + lc->d->ncounters + f;
    int64_t k = 0;
    if (lc->slot[c] >= 0 && !time_ticks(values_of(lc, c)[i], &k))
        k = 0;
    return k;
}

/* Stored values of fcounter f under code, into out[0..n). */
static void coded_times(const struct layer_columns *lc, uint32_t f, uint8_t code,
                        const int64_t *ticks, uint64_t *out)
{
    const uint64_t *v = values_of(lc, 2 + lc->d->ncounters + f);
    if (code == IOLENS_COL_TICKS) {
        for (size_t i = 0; i < lc->n; i++)
            out[i] = zigzag(ticks[i]);
        return;
    }
    int refs[3];
    int nrefs = iolens_fcounter_time_refs(lc->d, f, refs);
    for (size_t i = 0; i < lc->n; i++) {
        if (v[i] == 0) {
            out[i] = 0;
            continue;
        }
        int64_t k = ticks[i];
        for (int r = 0; r < nrefs; r++)
            k -= ticks_at(lc, (uint32_t)refs[r], i);
        out[i] = zigzag(k) + 1;
    }
}

/* Codes and planes of the stored columns (layout in log_format.h). */
static int encode_columns(struct layer_columns *lc, const struct iolens_names_block *names,
                          unsigned char *body)
{
    const struct iolens_layer_desc *d = lc->d;
    size_t n = lc->n;
    uint64_t *coded = malloc((n > 0 ? n : 1) * sizeof *coded);
    int64_t *ticks = malloc((n > 0 ? n : 1) * sizeof *ticks);
    if (coded == NULL || ticks == NULL) {
        free(coded);
        free(ticks);
        return -1;
    }
    lc->codes[0] = id_column_code(lc, names, coded);
    if (lc->codes[0] == IOLENS_COL_NAME_PLACE)
        iolens_column_encode(coded, n, body);
    else
        iolens_column_encode(values_of(lc, 0), n, body);
    /* The fcounters' codes first (each depends on its refs', before it);
     * the planes of a column in ticks are written at once, while its
     * ticks are at hand. */
    for (uint32_t s = 1; s < lc->nstored; s++) {
        uint32_t c = lc->stored[s];
        unsigned char *planes = body + (size_t)s * 8 * n;
        if (c < 2 + d->ncounters) {
            iolens_column_encode(values_of(lc, c), n, planes);
            continue;
        }
        uint32_t f = c - 2 - d->ncounters;
        lc->codes[c] = time_column_code(lc, f, ticks);
        if (lc->codes[c] == IOLENS_COL_RAW) {
            iolens_column_encode(values_of(lc, c), n, planes);
            continue;
        }
        coded_times(lc, f, lc->codes[c], ticks, coded);
        iolens_column_encode(coded, n, planes);
    }
    free(coded);
    free(ticks);
    return 0;
}

static void layer_columns_free(struct layer_columns *lc)
{
    free(lc->slot);
    free(lc->stored);
    free(lc->v);
}

/* Layout (log_format.h): the head, a code byte per column, then column by
 * column (id, rank, counters, fcounters), each column but those of
 * IOLENS_COL_ZERO as 8 byte-planes of n bytes, least significant byte
 * first. */
int iolens_encode_layer(struct iolens_buf *out, const struct iolens_layer_desc *d,
                        const unsigned char *recs, const size_t *order, size_t first, size_t n,
                        const struct iolens_names_block *names)
{
    struct iolens_layer_head head = {d->ncounters, d->nfcounters, (uint64_t)n};
    iolens_buf_put(out, &head, sizeof head);
    uint32_t ncols = 2 + d->ncounters + d->nfcounters;
    if (n > SIZE_MAX / d->record_size || iolens_buf_reserve(out, ncols + n * d->record_size) == NULL) {
        out->failed = 1;
        return -1;
    }
    /* Reserved whole: the buffer does not move from here on. */
    struct layer_columns lc = {
        .d = d,
        .n = n,
        .codes = out->data + out->len,
        .slot = malloc(ncols * sizeof *lc.slot),
        .stored = malloc(ncols * sizeof *lc.stored),
    };
    int rc = -1;
    if (lc.slot != NULL && lc.stored != NULL && find_zero_columns(&lc, recs, order, first) == 0 &&
        (lc.v = malloc((n > 0 ? n : 1) * lc.nstored * sizeof *lc.v)) != NULL) {
        gather_values(&lc, recs, order, first);
        rc = encode_columns(&lc, names, lc.codes + ncols);
    }
    if (rc == 0)
        out->len += ncols + n * 8 * lc.nstored;
    else
        out->failed = 1;
    layer_columns_free(&lc);
    return rc == 0 ? iolens_buf_status(out) : -1;
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

/* An interval with its start in ns, the key the region is sorted by. */
struct iv_by_start {
    uint64_t start_ns;
    const struct iolens_interval *iv;
};

/* How a layer's file column names its files (log_format.h): without
 * names, by id; with them, a reserved id as it is, then the ids that are
 * not in names (files another rank holds the record of: a shared file),
 * then the places in names. */
struct file_coding {
    const struct iolens_names_block *names;
    uint64_t *extra;                    /* sorted, distinct */
    size_t nextra;
};

static uint64_t file_value(const struct file_coding *fc, uint64_t id)
{
    uint64_t place;
    if (fc->names == NULL || id <= IOLENS_ID_RESERVED_MAX)
        return id;
    if (iolens_names_block_find(fc->names, id, &place))
        return IOLENS_IV_FIRST_PLACE + fc->nextra + place;
    const uint64_t *hit = bsearch(&id, fc->extra, fc->nextra, sizeof id, iolens_compare_u64);
    return IOLENS_IV_FIRST_PLACE + (uint64_t)(hit - fc->extra);
}

/* The ids (n of them, stride bytes apart from the first) that are neither
 * reserved nor in names, sorted and distinct, into fc.  -1: out of
 * memory. */
static int collect_extra_ids(const uint64_t *first, size_t n, size_t stride,
                             struct file_coding *fc)
{
    fc->extra = malloc((n > 0 ? n : 1) * sizeof *fc->extra);
    if (fc->extra == NULL)
        return -1;
    size_t k = 0;
    uint64_t place;
    for (size_t i = 0; i < n; i++) {
        uint64_t id;
        memcpy(&id, (const char *)first + i * stride, sizeof id);
        if (id > IOLENS_ID_RESERVED_MAX && !iolens_names_block_find(fc->names, id, &place))
            fc->extra[k++] = id;
    }
    if (iolens_sort_by_u64(fc->extra, k, sizeof *fc->extra, 0) != 0) {
        free(fc->extra);
        fc->extra = NULL;
        return -1;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < k; i++)
        if (distinct == 0 || fc->extra[distinct - 1] != fc->extra[i])
            fc->extra[distinct++] = fc->extra[i];
    fc->nextra = distinct;
    return 0;
}

/* Appends a column of n values of width bytes (8 or 4), byte-planed as
 * a layer's columns are (log_format.h): byte b of value i at b * n + i. */
static void put_planes(struct iolens_buf *out, const uint64_t *v, size_t n, unsigned width)
{
    unsigned char *p = iolens_buf_reserve(out, n * width);
    if (p == NULL)
        return;
    for (unsigned b = 0; b < width; b++)
        for (size_t i = 0; i < n; i++)
            p[b * n + i] = (unsigned char)(v[i] >> (8 * b));
    out->len += n * width;
}

/* The seven columns of log_format.h, from intervals sorted by start. */
/* The columns of n intervals in start order: each with its start in ns
 * (the sort key, computed once) and the interval. */
static void put_interval_columns(struct iolens_buf *out, const struct iv_by_start *v, size_t n,
                                 const struct file_coding *fc)
{
    uint64_t *col = malloc((n > 0 ? n : 1) * sizeof *col);
    if (col == NULL) {
        out->failed = 1;
        return;
    }
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t start = (int64_t)v[i].start_ns;
        col[i] = (uint64_t)(start - prev);
        prev = start;
    }
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++) {
        int64_t d = seconds_to_ns(v[i].iv->end) - (int64_t)v[i].start_ns;
        col[i] = (uint64_t)(d > 0 ? d : 0);
    }
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++) /* from the duration: 0 for one access */
        col[i] = zigzag((int64_t)col[i] - seconds_to_ns(v[i].iv->busy));
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = (uint64_t)(v[i].iv->bytes > 0 ? v[i].iv->bytes : 0);
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = file_value(fc, v[i].iv->file_id);
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = v[i].iv->accesses > 0 ? v[i].iv->accesses : 1;
    put_planes(out, col, n, 4);
    for (size_t i = 0; i < n; i++)
        col[i] = v[i].iv->flags;
    put_planes(out, col, n, 4);
    free(col);
}

static void put_interval_layer(struct iolens_buf *out, const struct iolens_intervals_layer_in *L,
                               const struct iolens_names_block *names)
{
    struct file_coding fc = {names, NULL, 0};
    struct iv_by_start *keys = malloc((L->count > 0 ? L->count : 1) * sizeof *keys);
    int failed = keys == NULL ||
                 (names != NULL && L->count > 0 &&
                  collect_extra_ids(&L->iv[0].file_id, L->count, sizeof L->iv[0], &fc) != 0);
    if (!failed) {
        /* By start, stable: intervals of one start keep the store's order. */
        for (size_t i = 0; i < L->count; i++)
            keys[i] = (struct iv_by_start){(uint64_t)seconds_to_ns(L->iv[i].start), &L->iv[i]};
        failed = iolens_sort_by_u64(keys, L->count, sizeof *keys,
                                    offsetof(struct iv_by_start, start_ns)) != 0;
    }
    if (failed) {
        free(keys);
        free(fc.extra);
        out->failed = 1;
        return;
    }
    struct iolens_intervals_layer head = {
        .kind = L->kind,
        .file_column = names != NULL ? IOLENS_IV_FILE_PLACES : IOLENS_IV_FILE_IDS,
        .count = L->count,
        .error_bound = non_negative(L->error_bound),
        .accesses = L->accesses,
        .bytes = L->bytes > 0 ? L->bytes : 0,
        .sum_duration = non_negative(L->sum_duration),
        .overlap = non_negative(L->overlap),
    };
    iolens_buf_put(out, &head, sizeof head);
    if (names != NULL) {
        iolens_buf_put_u64(out, fc.nextra);
        iolens_buf_put(out, fc.extra, fc.nextra * sizeof *fc.extra);
    }
    put_interval_columns(out, keys, L->count, &fc);
    free(fc.extra);
    free(keys);
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
        put_interval_layer(out, &in->layers[l], in->names);
    return iolens_buf_status(out);
}

/* The extra ids, then the seven columns of a sites region of version 2
 * (log_format.h). */
void iolens_encode_site_entries(struct iolens_buf *out, const struct iolens_site_entry *e,
                                size_t n, const struct iolens_names_block *names)
{
    static const struct iolens_names_block no_names = {NULL, 0, NULL, 0};
    struct file_coding fc = {names != NULL ? names : &no_names, NULL, 0};
    uint64_t *col = malloc((n > 0 ? n : 1) * sizeof *col);
    if (col == NULL || (n > 0 && collect_extra_ids(&e[0].record_id, n, sizeof e[0], &fc) != 0)) {
        free(col);
        out->failed = 1;
        return;
    }
    iolens_buf_put_u64(out, fc.nextra);
    iolens_buf_put(out, fc.extra, fc.nextra * sizeof *fc.extra);
    for (size_t i = 0; i < n; i++)
        col[i] = file_value(&fc, e[i].record_id);
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = e[i].layer_kind;
    put_planes(out, col, n, 4);
    for (size_t i = 0; i < n; i++)
        col[i] = e[i].module;
    put_planes(out, col, n, 4);
    for (size_t i = 0; i < n; i++)
        col[i] = e[i].offset;
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = e[i].ops;
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = (uint64_t)(e[i].bytes > 0 ? e[i].bytes : 0);
    put_planes(out, col, n, 8);
    for (size_t i = 0; i < n; i++)
        col[i] = (uint64_t)seconds_to_ns(e[i].time);
    put_planes(out, col, n, 8);
    free(fc.extra);
    free(col);
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
