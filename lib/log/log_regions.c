/*
 * The raw bytes of each log region (layouts in include/iolens/log_format.h)
 * and their compression.  Used by the single-process writer
 * (log_writer.c) and the MPI collective writer (mpi_log.c).
 *
 * This runs at shutdown only, so it uses malloc freely; the memory budget
 * bounds what the runtime keeps while the program runs, not this.
 */
#include "log/log_regions.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/file_table.h"
#include "layers/layer_intervals.h"
#include "core/mounts.h"
#include "format/compare.h"
#include "format/path_hash.h"
#include "layers/posix_layer.h"
#include "layers/stdio_layer.h"
#ifdef IOLENS_HAVE_MPI
#include "layers/mpiio_layer.h"
#endif
#ifdef IOLENS_HAVE_HDF5
#include "layers/hdf5_layer.h"
#endif

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
static unsigned char *reserve(struct iolens_buf *b, size_t n)
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

static void put(struct iolens_buf *b, const void *data, size_t n)
{
    unsigned char *p = reserve(b, n);
    if (p == NULL)
        return;
    if (n > 0)
        memcpy(p, data, n);
    b->len += n;
}

static void put_u32(struct iolens_buf *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_u64(struct iolens_buf *b, uint64_t v) { put(b, &v, sizeof v); }

static void put_string(struct iolens_buf *b, const char *s, size_t len)
{
    put_u32(b, (uint32_t)len);
    put(b, s, len);
}

static void put_cstring(struct iolens_buf *b, const char *s)
{
    put_string(b, s, s != NULL ? strlen(s) : 0);
}

static int done(const struct iolens_buf *b)
{
    return b->failed ? -1 : 0;
}

/* ----------------------------------------------------- job-wide ones -- */

int iolens_region_job(struct iolens_buf *out, const struct iolens_job_fixed *fixed,
                      const char *const *strings, const size_t *lens)
{
    put(out, fixed, sizeof *fixed);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++) {
        /* A string longer than the format can count is cut. */
        size_t len = lens[i] > UINT32_MAX ? UINT32_MAX : lens[i];
        put_string(out, strings[i], len);
    }
    return done(out);
}

int iolens_region_mounts(struct iolens_buf *out)
{
    size_t n = iolens_mounts_count();
    put_u32(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        const struct iolens_mount *m = iolens_mounts_at(i);
        put_u64(out, (uint64_t)m->block_size);
        put_cstring(out, m->point);
        put_cstring(out, m->fstype);
    }
    return done(out);
}

int iolens_region_ranks(struct iolens_buf *out, const struct iolens_rank_info *ranks, uint32_t n)
{
    put_u32(out, n);
    put(out, ranks, (size_t)n * sizeof *ranks);
    return done(out);
}

/* ------------------------------------------------------------- names -- */

/* Byte order of the names; names hold no NUL. */
static int compare_files_by_name(const void *a, const void *b)
{
    const struct iolens_file *x = *(const struct iolens_file *const *)a;
    const struct iolens_file *y = *(const struct iolens_file *const *)b;
    return strcmp(x->name, y->name);
}

struct names_ctx {
    const uint64_t *ids;      /* sorted */
    size_t nids;
    struct iolens_file **files;
    size_t nfiles;            /* at most nids: an id is in the table once */
};

static void pick_named_file(struct iolens_file *file, void *arg)
{
    struct names_ctx *ctx = arg;
    if (ctx->nfiles < ctx->nids &&
        bsearch(&file->id, ctx->ids, ctx->nids, sizeof *ctx->ids, iolens_compare_u64) != NULL)
        ctx->files[ctx->nfiles++] = file;
}

/* Entry layout (log_format.h): uint32 len << 1 | explicit, the id only
 * when it is not the hash of the name (a re-derived id after a collision,
 * a reserved name), then the name. */
static void put_name_entry(struct iolens_buf *out, const struct iolens_file *file)
{
    size_t len = file->name_len > IOLENS_NAME_LEN_MAX ? IOLENS_NAME_LEN_MAX : file->name_len;
    int explicit_id = file->id != iolens_name_id(file->name, len);
    put_u32(out, (uint32_t)len << 1 | (uint32_t)explicit_id);
    if (explicit_id)
        put_u64(out, file->id);
    put(out, file->name, len);
}

/* The files of the table whose ids are among ids[0..n), sorted by name:
 * neighbours share long prefixes, which is what lets zlib shrink a
 * directory of similar names.  *files is malloc'd (NULL when n is 0).
 * Returns the count, or -1 when memory is short. */
static long named_files(const uint64_t *ids, size_t n, struct iolens_file ***files)
{
    struct names_ctx ctx = {0};
    *files = NULL;
    if (n == 0)
        return 0;
    uint64_t *sorted = malloc(n * sizeof *sorted);
    ctx.files = malloc(n * sizeof *ctx.files);
    if (sorted == NULL || ctx.files == NULL) {
        free(sorted);
        free(ctx.files);
        return -1;
    }
    memcpy(sorted, ids, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, iolens_compare_u64);
    ctx.ids = sorted;
    ctx.nids = n;
    iolens_file_foreach(pick_named_file, &ctx);
    free(sorted);
    qsort(ctx.files, ctx.nfiles, sizeof *ctx.files, compare_files_by_name);
    *files = ctx.files;
    return (long)ctx.nfiles;
}

static int put_names(struct iolens_buf *out, struct iolens_file *const *files, size_t n)
{
    put_u32(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        put_name_entry(out, files[i]);
    return done(out);
}

int iolens_region_names(struct iolens_buf *out, const uint64_t *ids, size_t n)
{
    struct iolens_file **files;
    long nfiles = named_files(ids, n, &files);
    if (nfiles < 0) {
        out->failed = 1;
        return -1;
    }
    int rc = put_names(out, files, (size_t)nfiles);
    free(files);
    return rc;
}

/* Entries in the region that starts at entry from of n. */
static size_t slice_len(size_t n, size_t from)
{
    return n - from < IOLENS_REGION_RECORDS ? n - from : IOLENS_REGION_RECORDS;
}

/* Hands raw to the sink, which owns it from then on. */
static int emit(const struct iolens_region_sink *sink, uint32_t kind, uint32_t version,
                struct iolens_buf *raw)
{
    if (raw->failed) {
        iolens_buf_free(raw);
        return -1;
    }
    return sink->add(sink->arg, kind, version, raw) == 0 ? 0 : -1;
}

int iolens_regions_names(const struct iolens_region_sink *sink, const uint64_t *ids, size_t n)
{
    struct iolens_file **files;
    long nfiles = named_files(ids, n, &files);
    if (nfiles < 0)
        return -1;
    int rc = 0;
    size_t from = 0;
    do {
        size_t m = slice_len((size_t)nfiles, from);
        struct iolens_buf raw = {0};
        put_names(&raw, m > 0 ? files + from : NULL, m); /* files is NULL for none */
        rc = emit(sink, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &raw);
        from += m;
    } while (rc == 0 && from < (size_t)nfiles);
    free(files);
    return rc;
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

/* ------------------------------------------------- record order -- */

/* The name of each id in the record table, sorted by id. */
struct id_name {
    uint64_t id;
    const char *name;
};

struct id_names {
    struct id_name *v;
    size_t n, cap;
};

static void add_id_name(struct iolens_file *file, void *arg)
{
    struct id_names *t = arg;
    if (t->n < t->cap)
        t->v[t->n++] = (struct id_name){file->id, file->name};
}

static int compare_id_names(const void *a, const void *b)
{
    return iolens_compare_u64(&((const struct id_name *)a)->id, &((const struct id_name *)b)->id);
}

/* One record's sort key. */
struct row_key {
    const char *name;     /* NULL when the table has no such id */
    uint64_t id;
    size_t index;
};

/* By name as in the NAMES region, unnamed records last; the id and then
 * the input position settle ties, so the order is deterministic. */
static int compare_rows(const void *a, const void *b)
{
    const struct row_key *x = a, *y = b;
    if (x->name != NULL && y->name != NULL) {
        int c = strcmp(x->name, y->name);
        if (c != 0)
            return c;
    } else if (x->name != y->name) {
        return x->name == NULL ? 1 : -1;
    }
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The order in which to store n records: by name.  Files a program
 * creates one after another usually have neighbouring names, so their
 * timestamps and sizes are alike and the byte-planes of those columns
 * compress better (3 bytes per record less for a directory of 1000
 * files written once).  Returns a malloc'd permutation, or NULL when
 * memory is short (the records are then stored as they come; readers do
 * not depend on the order).
 */
static size_t *record_order(const struct iolens_layer_desc *d, const unsigned char *recs,
                            size_t n)
{
    size_t nfiles = iolens_file_count();
    struct id_names t = {malloc((nfiles > 0 ? nfiles : 1) * sizeof *t.v), 0, nfiles};
    struct row_key *keys = malloc((n > 0 ? n : 1) * sizeof *keys);
    size_t *order = malloc((n > 0 ? n : 1) * sizeof *order);
    if (t.v == NULL || keys == NULL || order == NULL) {
        free(order);
        order = NULL;
        goto out;
    }
    iolens_file_foreach(add_id_name, &t);
    qsort(t.v, t.n, sizeof *t.v, compare_id_names);
    for (size_t i = 0; i < n; i++) {
        struct id_name probe;
        memcpy(&probe.id, recs + i * d->record_size, sizeof probe.id);
        const struct id_name *hit = bsearch(&probe, t.v, t.n, sizeof *t.v, compare_id_names);
        keys[i] = (struct row_key){hit != NULL ? hit->name : NULL, probe.id, i};
    }
    qsort(keys, n, sizeof *keys, compare_rows);
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].index;
out:
    free(t.v);
    free(keys);
    return order;
}

/* Layout (log_format.h): the head, then column by column (id, rank,
 * counters, fcounters), each column as 8 byte-planes of n bytes, least
 * significant byte first.  The region holds rows order[first..first+n)
 * of recs, or rows first..first+n when order is NULL. */
static int encode_layer(struct iolens_buf *out, const struct iolens_layer_desc *d,
                        const unsigned char *recs, const size_t *order, size_t first, size_t n)
{
    struct iolens_layer_head head = {d->ncounters, d->nfcounters, (uint64_t)n};
    put(out, &head, sizeof head);
    if (n > SIZE_MAX / d->record_size) {
        out->failed = 1;
        return -1;
    }
    unsigned char *body = reserve(out, n * d->record_size);
    if (body == NULL)
        return -1;
    uint32_t ncols = 2 + d->ncounters + d->nfcounters;
    for (uint32_t c = 0; c < ncols; c++) {
        unsigned char *planes = body + (size_t)c * 8 * n;
        for (size_t i = 0; i < n; i++) {
            size_t row = order != NULL ? order[first + i] : first + i;
            uint64_t v = column_value(d, recs + row * d->record_size, c);
            for (unsigned b = 0; b < 8; b++)
                planes[b * n + i] = (unsigned char)(v >> (8 * b));
        }
    }
    out->len += n * d->record_size;
    return done(out);
}

/* Records are stored in name order when memory allows (record_order). */
int iolens_region_layer(struct iolens_buf *out, const struct iolens_layer_desc *d,
                        const void *records, size_t n)
{
    size_t *order = n > 1 ? record_order(d, records, n) : NULL;
    int rc = encode_layer(out, d, records, order, 0, n);
    free(order);
    return rc;
}

/* One order for all the regions: the records of a directory stay
 * together, in the same order as the names regions' entries. */
int iolens_regions_layer(const struct iolens_region_sink *sink, const struct iolens_layer_desc *d,
                         const void *records, size_t n)
{
    size_t *order = n > 1 ? record_order(d, records, n) : NULL;
    int rc = 0;
    size_t from = 0;
    do {
        size_t m = slice_len(n, from);
        struct iolens_buf raw = {0};
        encode_layer(&raw, d, records, order, from, m);
        rc = emit(sink, d->region_kind, d->version, &raw);
        from += m;
    } while (rc == 0 && from < n);
    free(order);
    return rc;
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
        put_u64(out, (uint64_t)(start - prev));
        prev = start;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t d = seconds_to_ns(v[i]->end) - seconds_to_ns(v[i]->start);
        put_u64(out, (uint64_t)(d > 0 ? d : 0));
    }
    for (size_t i = 0; i < n; i++)
        put_u64(out, (uint64_t)seconds_to_ns(v[i]->busy));
    for (size_t i = 0; i < n; i++)
        put_u64(out, (uint64_t)(v[i]->bytes > 0 ? v[i]->bytes : 0));
    for (size_t i = 0; i < n; i++)
        put_u64(out, v[i]->file_id);
    for (size_t i = 0; i < n; i++)
        put_u32(out, v[i]->accesses > 0 ? v[i]->accesses : 1);
    for (size_t i = 0; i < n; i++)
        put_u32(out, v[i]->flags);
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
    put(out, &head, sizeof head);
    put_interval_columns(out, sorted, L->count);
    free(sorted);
}

int iolens_region_intervals(struct iolens_buf *out, const struct iolens_intervals_rank *in)
{
    double offset = in->clock_offset;
    struct iolens_intervals_head head = {
        .rank = in->rank,
        .clock_offset = offset == offset && offset > -NS_CAP && offset < NS_CAP ? offset : 0.0,
        .clock_uncertainty = non_negative(in->clock_uncertainty),
        .nlayers = in->nlayers,
    };
    put(out, &head, sizeof head);
    for (uint32_t l = 0; l < in->nlayers; l++)
        put_interval_layer(out, &in->layers[l]);
    return done(out);
}

struct collect_ctx {
    const struct iolens_layer_desc *d;
    int64_t rank;
    struct iolens_buf buf;
    long count;
};

static void collect_one(struct collect_ctx *ctx, const void *rec)
{
    unsigned char *p = reserve(&ctx->buf, ctx->d->record_size);
    if (p == NULL)
        return;
    memcpy(p, rec, ctx->d->record_size);
    memcpy(p + 8, &ctx->rank, sizeof ctx->rank);
    iolens_record_fill_own_sharing(ctx->d, p);
    ctx->buf.len += ctx->d->record_size;
    ctx->count++;
}

/* One callback per layer: the emit functions' record types differ. */
static void collect_posix(const struct iolens_posix_record *rec, void *arg)
{
    collect_one(arg, rec);
}

static void collect_stdio(const struct iolens_stdio_record *rec, void *arg)
{
    collect_one(arg, rec);
}

#ifdef IOLENS_HAVE_MPI
static void collect_mpiio(const struct iolens_mpiio_record *rec, void *arg)
{
    collect_one(arg, rec);
}
#endif

#ifdef IOLENS_HAVE_HDF5
static void collect_h5f(const struct iolens_h5f_record *rec, void *arg)
{
    collect_one(arg, rec);
}

static void collect_h5d(const struct iolens_h5d_record *rec, void *arg)
{
    collect_one(arg, rec);
}
#endif

long iolens_layer_collect(const struct iolens_layer_desc *d, int64_t rank, void **records)
{
    struct collect_ctx ctx = {.d = d, .rank = rank};
    *records = NULL;
    switch (d->region_kind) {
    case IOLENS_REGION_POSIX:
        iolens_posix_foreach_record(collect_posix, &ctx);
        break;
    case IOLENS_REGION_STDIO:
        iolens_stdio_foreach_record(collect_stdio, &ctx);
        break;
#ifdef IOLENS_HAVE_MPI
    case IOLENS_REGION_MPIIO:
        iolens_mpiio_foreach_record(collect_mpiio, &ctx);
        break;
#endif
#ifdef IOLENS_HAVE_HDF5
    case IOLENS_REGION_H5F:
        iolens_h5f_foreach_record(collect_h5f, &ctx);
        break;
    case IOLENS_REGION_H5D:
        iolens_h5d_foreach_record(collect_h5d, &ctx);
        break;
#endif
    default:
        break;
    }
    if (ctx.buf.failed) {
        iolens_buf_free(&ctx.buf);
        return -1;
    }
    *records = ctx.buf.data;
    return ctx.count;
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

/* ----------------------------------------- this process's intervals -- */

/* The stores packed (layer_intervals.c), then encoded as above. */
int iolens_intervals_region(struct iolens_buf *out, int64_t rank, unsigned layers_off,
                            double shift_seconds, double clock_offset, double clock_uncertainty)
{
    struct iolens_intervals_packed packed[IOLENS_NLAYERS];
    struct iolens_intervals_layer_in in[IOLENS_NLAYERS];
    int n = iolens_intervals_pack(layers_off, shift_seconds, packed);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++)
        in[i] = (struct iolens_intervals_layer_in){
            .kind = packed[i].region_kind,
            .iv = packed[i].iv,
            .count = packed[i].count,
            .error_bound = packed[i].error_bound,
            .accesses = packed[i].accesses,
            .bytes = packed[i].bytes,
            .sum_duration = packed[i].sum_duration,
            .overlap = packed[i].overlap,
        };
    struct iolens_intervals_rank r = {
        .rank = rank,
        .clock_offset = clock_offset,
        .clock_uncertainty = clock_uncertainty,
        .layers = in,
        .nlayers = (uint32_t)n,
    };
    int rc = iolens_region_intervals(out, &r);
    iolens_intervals_packed_free(packed, n);
    return rc;
}
