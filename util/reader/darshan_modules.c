/* The module records of a Darshan log as layers of an iolens log
 * (darshan.h): each Darshan counter goes to the iolens counter of the same
 * name, where the two agree; a counter iolens has and Darshan lacks is
 * marked absent (its value 0, printed "not in a Darshan log"), and a
 * counter Darshan has and iolens lacks is kept as an extra counter of the
 * layer, printed by the dump under its Darshan name.
 *
 * The counter lists are those of the record versions Darshan 3.5.0 writes
 * (log format 3.41), in record order, as darshan-parser names them.  A
 * module at another version is skipped with a note. */
#include <stdlib.h>
#include <string.h>

#include "format/record_merge.h"
#include "reader/darshan.h"

static const char *const posix_counters[] = {
    "POSIX_OPENS", "POSIX_FILENOS", "POSIX_DUPS", "POSIX_READS", "POSIX_WRITES", "POSIX_SEEKS",
    "POSIX_STATS", "POSIX_MMAPS", "POSIX_FSYNCS", "POSIX_FDSYNCS", "POSIX_RENAME_SOURCES",
    "POSIX_RENAME_TARGETS", "POSIX_RENAMED_FROM", "POSIX_MODE", "POSIX_BYTES_READ",
    "POSIX_BYTES_WRITTEN", "POSIX_MAX_BYTE_READ", "POSIX_MAX_BYTE_WRITTEN",
    "POSIX_CONSEC_READS", "POSIX_CONSEC_WRITES", "POSIX_SEQ_READS", "POSIX_SEQ_WRITES",
    "POSIX_RW_SWITCHES", "POSIX_MEM_NOT_ALIGNED", "POSIX_MEM_ALIGNMENT",
    "POSIX_FILE_NOT_ALIGNED", "POSIX_FILE_ALIGNMENT", "POSIX_MAX_READ_TIME_SIZE",
    "POSIX_MAX_WRITE_TIME_SIZE", "POSIX_SIZE_READ_0_100", "POSIX_SIZE_READ_100_1K",
    "POSIX_SIZE_READ_1K_10K", "POSIX_SIZE_READ_10K_100K", "POSIX_SIZE_READ_100K_1M",
    "POSIX_SIZE_READ_1M_4M", "POSIX_SIZE_READ_4M_10M", "POSIX_SIZE_READ_10M_100M",
    "POSIX_SIZE_READ_100M_1G", "POSIX_SIZE_READ_1G_PLUS", "POSIX_SIZE_WRITE_0_100",
    "POSIX_SIZE_WRITE_100_1K", "POSIX_SIZE_WRITE_1K_10K", "POSIX_SIZE_WRITE_10K_100K",
    "POSIX_SIZE_WRITE_100K_1M", "POSIX_SIZE_WRITE_1M_4M", "POSIX_SIZE_WRITE_4M_10M",
    "POSIX_SIZE_WRITE_10M_100M", "POSIX_SIZE_WRITE_100M_1G", "POSIX_SIZE_WRITE_1G_PLUS",
    "POSIX_STRIDE1_STRIDE", "POSIX_STRIDE2_STRIDE", "POSIX_STRIDE3_STRIDE",
    "POSIX_STRIDE4_STRIDE", "POSIX_STRIDE1_COUNT", "POSIX_STRIDE2_COUNT", "POSIX_STRIDE3_COUNT",
    "POSIX_STRIDE4_COUNT", "POSIX_ACCESS1_ACCESS", "POSIX_ACCESS2_ACCESS",
    "POSIX_ACCESS3_ACCESS", "POSIX_ACCESS4_ACCESS", "POSIX_ACCESS1_COUNT",
    "POSIX_ACCESS2_COUNT", "POSIX_ACCESS3_COUNT", "POSIX_ACCESS4_COUNT", "POSIX_FASTEST_RANK",
    "POSIX_FASTEST_RANK_BYTES", "POSIX_SLOWEST_RANK", "POSIX_SLOWEST_RANK_BYTES",
};
static const char *const posix_fcounters[] = {
    "POSIX_F_OPEN_START_TIMESTAMP", "POSIX_F_READ_START_TIMESTAMP",
    "POSIX_F_WRITE_START_TIMESTAMP", "POSIX_F_CLOSE_START_TIMESTAMP",
    "POSIX_F_OPEN_END_TIMESTAMP", "POSIX_F_READ_END_TIMESTAMP", "POSIX_F_WRITE_END_TIMESTAMP",
    "POSIX_F_CLOSE_END_TIMESTAMP", "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME",
    "POSIX_F_META_TIME", "POSIX_F_MAX_READ_TIME", "POSIX_F_MAX_WRITE_TIME",
    "POSIX_F_FASTEST_RANK_TIME", "POSIX_F_SLOWEST_RANK_TIME", "POSIX_F_VARIANCE_RANK_TIME",
    "POSIX_F_VARIANCE_RANK_BYTES",
};

static const char *const mpiio_counters[] = {
    "MPIIO_INDEP_OPENS", "MPIIO_COLL_OPENS", "MPIIO_INDEP_READS", "MPIIO_INDEP_WRITES",
    "MPIIO_COLL_READS", "MPIIO_COLL_WRITES", "MPIIO_SPLIT_READS", "MPIIO_SPLIT_WRITES",
    "MPIIO_NB_READS", "MPIIO_NB_WRITES", "MPIIO_SYNCS", "MPIIO_HINTS", "MPIIO_VIEWS",
    "MPIIO_MODE", "MPIIO_BYTES_READ", "MPIIO_BYTES_WRITTEN", "MPIIO_RW_SWITCHES",
    "MPIIO_MAX_READ_TIME_SIZE", "MPIIO_MAX_WRITE_TIME_SIZE", "MPIIO_SIZE_READ_AGG_0_100",
    "MPIIO_SIZE_READ_AGG_100_1K", "MPIIO_SIZE_READ_AGG_1K_10K", "MPIIO_SIZE_READ_AGG_10K_100K",
    "MPIIO_SIZE_READ_AGG_100K_1M", "MPIIO_SIZE_READ_AGG_1M_4M", "MPIIO_SIZE_READ_AGG_4M_10M",
    "MPIIO_SIZE_READ_AGG_10M_100M", "MPIIO_SIZE_READ_AGG_100M_1G",
    "MPIIO_SIZE_READ_AGG_1G_PLUS", "MPIIO_SIZE_WRITE_AGG_0_100", "MPIIO_SIZE_WRITE_AGG_100_1K",
    "MPIIO_SIZE_WRITE_AGG_1K_10K", "MPIIO_SIZE_WRITE_AGG_10K_100K",
    "MPIIO_SIZE_WRITE_AGG_100K_1M", "MPIIO_SIZE_WRITE_AGG_1M_4M", "MPIIO_SIZE_WRITE_AGG_4M_10M",
    "MPIIO_SIZE_WRITE_AGG_10M_100M", "MPIIO_SIZE_WRITE_AGG_100M_1G",
    "MPIIO_SIZE_WRITE_AGG_1G_PLUS", "MPIIO_ACCESS1_ACCESS", "MPIIO_ACCESS2_ACCESS",
    "MPIIO_ACCESS3_ACCESS", "MPIIO_ACCESS4_ACCESS", "MPIIO_ACCESS1_COUNT",
    "MPIIO_ACCESS2_COUNT", "MPIIO_ACCESS3_COUNT", "MPIIO_ACCESS4_COUNT", "MPIIO_FASTEST_RANK",
    "MPIIO_FASTEST_RANK_BYTES", "MPIIO_SLOWEST_RANK", "MPIIO_SLOWEST_RANK_BYTES",
};
static const char *const mpiio_fcounters[] = {
    "MPIIO_F_OPEN_START_TIMESTAMP", "MPIIO_F_READ_START_TIMESTAMP",
    "MPIIO_F_WRITE_START_TIMESTAMP", "MPIIO_F_CLOSE_START_TIMESTAMP",
    "MPIIO_F_OPEN_END_TIMESTAMP", "MPIIO_F_READ_END_TIMESTAMP", "MPIIO_F_WRITE_END_TIMESTAMP",
    "MPIIO_F_CLOSE_END_TIMESTAMP", "MPIIO_F_READ_TIME", "MPIIO_F_WRITE_TIME",
    "MPIIO_F_META_TIME", "MPIIO_F_MAX_READ_TIME", "MPIIO_F_MAX_WRITE_TIME",
    "MPIIO_F_FASTEST_RANK_TIME", "MPIIO_F_SLOWEST_RANK_TIME", "MPIIO_F_VARIANCE_RANK_TIME",
    "MPIIO_F_VARIANCE_RANK_BYTES",
};

static const char *const stdio_counters[] = {
    "STDIO_OPENS", "STDIO_FDOPENS", "STDIO_READS", "STDIO_WRITES", "STDIO_SEEKS",
    "STDIO_FLUSHES", "STDIO_BYTES_WRITTEN", "STDIO_BYTES_READ", "STDIO_MAX_BYTE_READ",
    "STDIO_MAX_BYTE_WRITTEN", "STDIO_FASTEST_RANK", "STDIO_FASTEST_RANK_BYTES",
    "STDIO_SLOWEST_RANK", "STDIO_SLOWEST_RANK_BYTES",
};
static const char *const stdio_fcounters[] = {
    "STDIO_F_META_TIME", "STDIO_F_WRITE_TIME", "STDIO_F_READ_TIME",
    "STDIO_F_OPEN_START_TIMESTAMP", "STDIO_F_CLOSE_START_TIMESTAMP",
    "STDIO_F_WRITE_START_TIMESTAMP", "STDIO_F_READ_START_TIMESTAMP",
    "STDIO_F_OPEN_END_TIMESTAMP", "STDIO_F_CLOSE_END_TIMESTAMP", "STDIO_F_WRITE_END_TIMESTAMP",
    "STDIO_F_READ_END_TIMESTAMP", "STDIO_F_FASTEST_RANK_TIME", "STDIO_F_SLOWEST_RANK_TIME",
    "STDIO_F_VARIANCE_RANK_TIME", "STDIO_F_VARIANCE_RANK_BYTES",
};

static const char *const h5f_counters[] = {
    "H5F_OPENS", "H5F_FLUSHES", "H5F_USE_MPIIO",
};
static const char *const h5f_fcounters[] = {
    "H5F_F_OPEN_START_TIMESTAMP", "H5F_F_CLOSE_START_TIMESTAMP", "H5F_F_OPEN_END_TIMESTAMP",
    "H5F_F_CLOSE_END_TIMESTAMP", "H5F_F_META_TIME",
};

static const char *const h5d_counters[] = {
    "H5D_OPENS", "H5D_READS", "H5D_WRITES", "H5D_FLUSHES", "H5D_BYTES_READ",
    "H5D_BYTES_WRITTEN", "H5D_RW_SWITCHES", "H5D_REGULAR_HYPERSLAB_SELECTS",
    "H5D_IRREGULAR_HYPERSLAB_SELECTS", "H5D_POINT_SELECTS", "H5D_MAX_READ_TIME_SIZE",
    "H5D_MAX_WRITE_TIME_SIZE", "H5D_SIZE_READ_AGG_0_100", "H5D_SIZE_READ_AGG_100_1K",
    "H5D_SIZE_READ_AGG_1K_10K", "H5D_SIZE_READ_AGG_10K_100K", "H5D_SIZE_READ_AGG_100K_1M",
    "H5D_SIZE_READ_AGG_1M_4M", "H5D_SIZE_READ_AGG_4M_10M", "H5D_SIZE_READ_AGG_10M_100M",
    "H5D_SIZE_READ_AGG_100M_1G", "H5D_SIZE_READ_AGG_1G_PLUS", "H5D_SIZE_WRITE_AGG_0_100",
    "H5D_SIZE_WRITE_AGG_100_1K", "H5D_SIZE_WRITE_AGG_1K_10K", "H5D_SIZE_WRITE_AGG_10K_100K",
    "H5D_SIZE_WRITE_AGG_100K_1M", "H5D_SIZE_WRITE_AGG_1M_4M", "H5D_SIZE_WRITE_AGG_4M_10M",
    "H5D_SIZE_WRITE_AGG_10M_100M", "H5D_SIZE_WRITE_AGG_100M_1G", "H5D_SIZE_WRITE_AGG_1G_PLUS",
    "H5D_ACCESS1_ACCESS", "H5D_ACCESS1_LENGTH_D1", "H5D_ACCESS1_LENGTH_D2",
    "H5D_ACCESS1_LENGTH_D3", "H5D_ACCESS1_LENGTH_D4", "H5D_ACCESS1_LENGTH_D5",
    "H5D_ACCESS1_STRIDE_D1", "H5D_ACCESS1_STRIDE_D2", "H5D_ACCESS1_STRIDE_D3",
    "H5D_ACCESS1_STRIDE_D4", "H5D_ACCESS1_STRIDE_D5", "H5D_ACCESS2_ACCESS",
    "H5D_ACCESS2_LENGTH_D1", "H5D_ACCESS2_LENGTH_D2", "H5D_ACCESS2_LENGTH_D3",
    "H5D_ACCESS2_LENGTH_D4", "H5D_ACCESS2_LENGTH_D5", "H5D_ACCESS2_STRIDE_D1",
    "H5D_ACCESS2_STRIDE_D2", "H5D_ACCESS2_STRIDE_D3", "H5D_ACCESS2_STRIDE_D4",
    "H5D_ACCESS2_STRIDE_D5", "H5D_ACCESS3_ACCESS", "H5D_ACCESS3_LENGTH_D1",
    "H5D_ACCESS3_LENGTH_D2", "H5D_ACCESS3_LENGTH_D3", "H5D_ACCESS3_LENGTH_D4",
    "H5D_ACCESS3_LENGTH_D5", "H5D_ACCESS3_STRIDE_D1", "H5D_ACCESS3_STRIDE_D2",
    "H5D_ACCESS3_STRIDE_D3", "H5D_ACCESS3_STRIDE_D4", "H5D_ACCESS3_STRIDE_D5",
    "H5D_ACCESS4_ACCESS", "H5D_ACCESS4_LENGTH_D1", "H5D_ACCESS4_LENGTH_D2",
    "H5D_ACCESS4_LENGTH_D3", "H5D_ACCESS4_LENGTH_D4", "H5D_ACCESS4_LENGTH_D5",
    "H5D_ACCESS4_STRIDE_D1", "H5D_ACCESS4_STRIDE_D2", "H5D_ACCESS4_STRIDE_D3",
    "H5D_ACCESS4_STRIDE_D4", "H5D_ACCESS4_STRIDE_D5", "H5D_ACCESS1_COUNT", "H5D_ACCESS2_COUNT",
    "H5D_ACCESS3_COUNT", "H5D_ACCESS4_COUNT", "H5D_DATASPACE_NDIMS", "H5D_DATASPACE_NPOINTS",
    "H5D_DATATYPE_SIZE", "H5D_CHUNK_SIZE_D1", "H5D_CHUNK_SIZE_D2", "H5D_CHUNK_SIZE_D3",
    "H5D_CHUNK_SIZE_D4", "H5D_CHUNK_SIZE_D5", "H5D_USE_MPIIO_COLLECTIVE", "H5D_USE_DEPRECATED",
    "H5D_FASTEST_RANK", "H5D_FASTEST_RANK_BYTES", "H5D_SLOWEST_RANK", "H5D_SLOWEST_RANK_BYTES",
};
static const char *const h5d_fcounters[] = {
    "H5D_F_OPEN_START_TIMESTAMP", "H5D_F_READ_START_TIMESTAMP", "H5D_F_WRITE_START_TIMESTAMP",
    "H5D_F_CLOSE_START_TIMESTAMP", "H5D_F_OPEN_END_TIMESTAMP", "H5D_F_READ_END_TIMESTAMP",
    "H5D_F_WRITE_END_TIMESTAMP", "H5D_F_CLOSE_END_TIMESTAMP", "H5D_F_READ_TIME",
    "H5D_F_WRITE_TIME", "H5D_F_META_TIME", "H5D_F_MAX_READ_TIME", "H5D_F_MAX_WRITE_TIME",
    "H5D_F_FASTEST_RANK_TIME", "H5D_F_SLOWEST_RANK_TIME", "H5D_F_VARIANCE_RANK_TIME",
    "H5D_F_VARIANCE_RANK_BYTES",
};

#define N(a) (uint32_t)(sizeof a / sizeof a[0])

static const struct dn_module modules[] = {
    {"POSIX", 4, IOLENS_REGION_POSIX, false, posix_counters, N(posix_counters),
     posix_fcounters, N(posix_fcounters)},
    {"MPI-IO", 3, IOLENS_REGION_MPIIO, false, mpiio_counters, N(mpiio_counters),
     mpiio_fcounters, N(mpiio_fcounters)},
    {"STDIO", 2, IOLENS_REGION_STDIO, false, stdio_counters, N(stdio_counters),
     stdio_fcounters, N(stdio_fcounters)},
    {"H5F", 3, IOLENS_REGION_H5F, false, h5f_counters, N(h5f_counters), h5f_fcounters,
     N(h5f_fcounters)},
    {"H5D", 2, IOLENS_REGION_H5D, true, h5d_counters, N(h5d_counters), h5d_fcounters,
     N(h5d_fcounters)},
};

const struct dn_module *dn_module_find(const char *name, uint32_t version)
{
    for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++)
        if (strcmp(modules[i].name, name) == 0 && modules[i].version == version)
            return &modules[i];
    return NULL;
}

/* Index of name among n names, or -1. */
static int index_of(const char *const *names, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

/* Where each of a module's counters goes: to[i] >= 0 an iolens counter,
 * else extra -1 - to[i]; the absent flags of the iolens counters no
 * Darshan counter fills.  Returns the number of extras. */
static uint32_t map_counters(const char *const *dn, uint32_t n, const char *const *ours,
                             uint32_t nours, int *to, unsigned char *absent,
                             const char **extra_names)
{
    uint32_t extras = 0;
    memset(absent, 1, nours);
    for (uint32_t i = 0; i < n; i++) {
        int j = index_of(ours, nours, dn[i]);
        if (j >= 0) {
            to[i] = j;
            absent[j] = 0;
        } else {
            extra_names[extras] = dn[i];
            to[i] = -1 - (int)extras++;
        }
    }
    return extras;
}

/* The counter maps of a module, sized for its tables. */
struct dn_map {
    int c[128], f[32];
    const char *cx[128], *fx[32];
    uint32_t ncx, nfx;
};

static enum iolens_read_status new_layer(struct reader *r, const struct dn_module *m,
                                         const struct iolens_layer_desc *d, uint64_t n,
                                         struct dn_map *map, struct iolens_log_layer **out)
{
    struct iolens_log *log = r->log;
    for (size_t i = 0; i < log->nlayers; i++)
        if (log->layers[i].kind == m->kind)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: two %s regions", m->name);
    struct iolens_log_layer *grown = realloc(log->layers, (log->nlayers + 1) * sizeof *grown);
    if (grown == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    log->layers = grown;
    struct iolens_log_layer *L = &log->layers[log->nlayers++];
    memset(L, 0, sizeof *L);
    L->kind = m->kind;
    L->version = m->version;
    L->counter_count = d->ncounters;
    L->fcounter_count = d->nfcounters;
    L->record_count = n;
    L->absent = malloc((size_t)d->ncounters + d->nfcounters);
    if (L->absent == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    map->ncx = map_counters(m->counters, m->ncounters, d->counter_names, d->ncounters, map->c,
                            L->absent, map->cx);
    map->nfx = map_counters(m->fcounters, m->nfcounters, d->fcounter_names, d->nfcounters,
                            map->f, L->absent + d->ncounters, map->fx);
    if (m->file_rec_id) {
        int j = index_of(d->counter_names, d->ncounters, "H5D_FILE_REC_ID");
        if (j >= 0)
            L->absent[j] = 0;
    }
    L->extra_count = map->ncx;
    L->fextra_count = map->nfx;
    /* The names live in the static tables: keep pointers to them. */
    const char **xn = malloc((map->ncx + map->nfx + 1) * sizeof *xn);
    if (xn == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    memcpy(xn, map->cx, map->ncx * sizeof *xn);
    memcpy(xn + map->ncx, map->fx, map->nfx * sizeof *xn);
    L->extra_names = xn;
    L->fextra_names = xn + map->ncx;
    size_t nn = n ? (size_t)n : 1;
    L->id = malloc(nn * sizeof *L->id);
    L->rank = malloc(nn * sizeof *L->rank);
    L->counters = calloc(nn * d->ncounters, sizeof *L->counters);
    L->fcounters = calloc(nn * d->nfcounters, sizeof *L->fcounters);
    L->extra = calloc(nn * (map->ncx ? map->ncx : 1), sizeof *L->extra);
    L->fextra = calloc(nn * (map->nfx ? map->nfx : 1), sizeof *L->fextra);
    if (!L->id || !L->rank || !L->counters || !L->fcounters || !L->extra || !L->fextra)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    *out = L;
    return IOLENS_READ_OK;
}

/* Record k's n 8-byte values at p (int64 counters or double fcounters,
 * copied as bytes) to where the map sends them: our counter to[i] of the
 * nours per record, else extra -1 - to[i] of the nextra per record.
 * Returns p past them. */
static const unsigned char *scatter(const unsigned char *p, uint32_t n, const int *to,
                                    uint64_t k, void *ours, uint32_t nours, void *extra,
                                    uint32_t nextra)
{
    for (uint32_t i = 0; i < n; i++, p += 8) {
        uint64_t at = to[i] >= 0 ? k * nours + (uint32_t)to[i]
                                 : k * nextra + (uint32_t)(-1 - to[i]);
        memcpy((unsigned char *)(to[i] >= 0 ? ours : extra) + 8 * at, p, 8);
    }
    return p;
}

static void decode_record(const struct dn_module *m, const struct dn_map *map,
                          struct iolens_log_layer *L, uint64_t k, const unsigned char *p,
                          int file_rec_at)
{
    L->id[k] = (uint64_t)get_i64(p);
    L->rank[k] = get_i64(p + 8);
    p += 16;
    if (m->file_rec_id) {
        if (file_rec_at >= 0)
            L->counters[k * L->counter_count + (uint32_t)file_rec_at] = get_i64(p);
        p += 8;
    }
    p = scatter(p, m->ncounters, map->c, k, L->counters, L->counter_count, L->extra,
                L->extra_count);
    scatter(p, m->nfcounters, map->f, k, L->fcounters, L->fcounter_count, L->fextra,
            L->fextra_count);
}

/* <L>_RANKS_OPENED and <L>_RANKS_IO are not in a Darshan log (they stay
 * marked absent), but the sharing analyses need them, and Darshan says
 * enough: it reduces to one record (rank -1) only a file that every rank
 * opened, so such a record was opened by nprocs ranks, a per-rank record
 * by one; the ranks that did I/O are taken as those, when the record has
 * bytes. */
static void derive_rank_counts(const struct iolens_layer_desc *d, struct iolens_log_layer *L,
                               uint64_t k, int64_t nprocs)
{
    if (d->ranks_opened < 0 || (uint32_t)d->ranks_opened + 1 >= L->counter_count)
        return;
    int64_t *c = L->counters + k * L->counter_count;
    int64_t bytes = (d->bytes_read >= 0 ? c[d->bytes_read] : 0) +
                    (d->bytes_written >= 0 ? c[d->bytes_written] : 0);
    int64_t opened = L->rank[k] == IOLENS_RANK_ALL ? nprocs : 1;
    c[d->ranks_opened] = opened;
    c[d->ranks_opened + 1] = bytes > 0 ? opened : 0;
}

enum iolens_read_status dn_read_module(struct reader *r, const struct dn_module *m,
                                       const unsigned char *raw, size_t len)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(m->kind);
    if (d == NULL || m->ncounters > 128 || m->nfcounters > 32)
        return rd_fail(r, IOLENS_READ_CORRUPT, "internal: no layer for Darshan's %s", m->name);
    size_t rec = 16 + (m->file_rec_id ? 8 : 0) + 8 * ((size_t)m->ncounters + m->nfcounters);
    if (len % rec != 0)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                       "corrupt Darshan log: the %s region (%zu bytes) is not a whole number of "
                       "%zu-byte records", m->name, len, rec);
    struct dn_map map;
    struct iolens_log_layer *L = NULL;
    enum iolens_read_status st = new_layer(r, m, d, len / rec, &map, &L);
    if (st != IOLENS_READ_OK)
        return st;
    int file_rec_at = index_of(d->counter_names, d->ncounters, "H5D_FILE_REC_ID");
    int64_t nprocs = r->log->job.nprocs;
    for (uint64_t k = 0; k < L->record_count; k++) {
        decode_record(m, &map, L, k, raw + k * rec, file_rec_at);
        if (L->rank[k] < -1 || L->rank[k] >= nprocs)
            return rd_fail(r, IOLENS_READ_CORRUPT,
                           "corrupt Darshan log: a %s record has rank %lld, not a rank of "
                           "the job's %lld", m->name, (long long)L->rank[k], (long long)nprocs);
        derive_rank_counts(d, L, k, nprocs);
    }
    return IOLENS_READ_OK;
}
