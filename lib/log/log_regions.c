/*
 * The regions of this process's log gathered from the runtime: the mount
 * table, the names of the record table, every layer's records (through
 * the layer table, layers/layer_ops.h) and the interval stores, encoded by
 * region_encode.c.  Used by the single-process writer (log_writer.c) and
 * the MPI collective writer (mpi_log.c).
 *
 * This runs at shutdown only, so it uses malloc freely.
 */
#include "log/log_regions.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_table.h"
#include "layers/layer_intervals.h"
#include "layers/layer_ops.h"
#include "core/mounts.h"
#include "log/sites_region.h"
#include "format/compare.h"
#include "format/sort_strings.h"
#include "format/sort_u64.h"

/* ----------------------------------------------------- job-wide ones -- */

int iolens_region_mounts(struct iolens_buf *out)
{
    size_t n = iolens_mounts_count();
    iolens_buf_put_u32(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        const struct iolens_mount *m = iolens_mounts_at(i);
        iolens_buf_put_u64(out, (uint64_t)m->block_size);
        iolens_buf_put_cstring(out, m->point);
        iolens_buf_put_cstring(out, m->fstype);
    }
    return iolens_buf_status(out);
}

/* ------------------------------------------------------------- names -- */

/* The name of an item of an array of files. */
static const char *name_of(const void *item)
{
    return (*(const struct iolens_file *const *)item)->name;
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
    size_t at = iolens_u64_lower_bound(ctx->ids, ctx->nids, file->id);
    if (ctx->nfiles < ctx->nids && at < ctx->nids && ctx->ids[at] == file->id)
        ctx->files[ctx->nfiles++] = file;
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
    if (iolens_sort_by_u64(sorted, n, sizeof *sorted, 0) != 0) {
        free(sorted);
        free(ctx.files);
        return -1;
    }
    ctx.ids = sorted;
    ctx.nids = n;
    iolens_file_foreach(pick_named_file, &ctx);
    free(sorted);
    if (iolens_sort_by_string(ctx.files, ctx.nfiles, sizeof *ctx.files, name_of) != 0) {
        free(ctx.files);
        return -1;
    }
    *files = ctx.files;
    return (long)ctx.nfiles;
}

int iolens_build_names_region(struct iolens_buf *out, const uint64_t *ids, size_t n)
{
    struct iolens_file **files;
    long nfiles = named_files(ids, n, &files);
    if (nfiles < 0) {
        out->failed = 1;
        return -1;
    }
    int rc = iolens_encode_names(out, files, (size_t)nfiles);
    free(files);
    return rc;
}

int iolens_emit_names_regions(const struct iolens_region_sink *sink, const uint64_t *ids,
                              size_t n, struct iolens_names_block *block)
{
    struct iolens_file **files;
    *block = (struct iolens_names_block){0};
    long nfiles = named_files(ids, n, &files);
    if (nfiles < 0 || iolens_names_block_make(block, files, (size_t)nfiles) != 0) {
        free(files);
        return -1;
    }
    int rc = 0;
    size_t from = 0;
    do {
        size_t m = iolens_region_slice_len((size_t)nfiles, from);
        struct iolens_buf raw = {0};
        iolens_encode_names(&raw, m > 0 ? files + from : NULL, m); /* files is NULL for none */
        rc = iolens_region_sink_add(sink, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &raw);
        from += m;
    } while (rc == 0 && from < (size_t)nfiles);
    free(files);
    return rc;
}

/* ------------------------------------------------- record order -- */

/* A record's key in the names block's order. */
struct place_key {
    uint64_t place;       /* UINT64_MAX when names does not hold the id */
    uint64_t id;
    size_t index;
};

/*
 * The order in which to store n records: by name, unnamed records last
 * (by id), as the names block places them.  Files a program creates one
 * after another usually have neighbouring names, so their timestamps and
 * sizes are alike and the byte-planes of those columns compress better
 * (3 bytes per record less for a directory of 1000 files written once).
 * The writers have the block already: sorting its places is sorting the
 * names without reading one (a shutdown with 10000 files a rank spent
 * milliseconds on a strcmp sort).  Returns a malloc'd permutation, or
 * NULL when memory is short (the records are then stored as they come;
 * readers do not depend on the order).
 */
static size_t *order_by_place(const struct iolens_layer_desc *d, const unsigned char *recs,
                              size_t n, const struct iolens_names_block *names)
{
    struct place_key *keys = malloc(n * sizeof *keys);
    size_t *order = malloc(n * sizeof *order);
    if (keys == NULL || order == NULL) {
        free(keys);
        free(order);
        return NULL;
    }
    size_t unnamed = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t id, place;
        memcpy(&id, recs + i * d->record_size, sizeof id);
        int named = iolens_names_block_find(names, id, &place);
        unnamed += !named;
        keys[i] = (struct place_key){named ? place : UINT64_MAX, id, i};
    }
    /* By place, then id, then position: stable sorts by id, then by
     * place (records of one layer have distinct places; only the
     * unnamed share one, so only they need the first). */
    if ((unnamed > 1 &&
         iolens_sort_by_u64(keys, n, sizeof *keys, offsetof(struct place_key, id)) != 0) ||
        iolens_sort_by_u64(keys, n, sizeof *keys, offsetof(struct place_key, place)) != 0) {
        free(keys);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].index;
    free(keys);
    return order;
}

/* The same without a names block at hand: one made for the records. */
static size_t *record_order(const struct iolens_layer_desc *d, const unsigned char *recs,
                            size_t n)
{
    uint64_t *ids = malloc(n * sizeof *ids);
    struct iolens_file **files = NULL;
    struct iolens_names_block block = {0};
    size_t *order = NULL;
    if (ids == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        memcpy(&ids[i], recs + i * d->record_size, sizeof ids[i]);
    long nfiles = named_files(ids, n, &files);
    if (nfiles >= 0 && iolens_names_block_make(&block, files, (size_t)nfiles) == 0)
        order = order_by_place(d, recs, n, &block);
    iolens_names_block_free(&block);
    free(files);
    free(ids);
    return order;
}

/* Records are stored in name order when memory allows (record_order). */
int iolens_build_layer_region(struct iolens_buf *out, const struct iolens_layer_desc *d,
                              const void *records, size_t n)
{
    size_t *order = n > 1 ? record_order(d, records, n) : NULL;
    int rc = iolens_encode_layer(out, d, records, order, 0, n, NULL);
    free(order);
    return rc;
}

/* One order for all the regions: the records of a directory stay
 * together, in the same order as the names regions' entries. */
int iolens_emit_layer_regions(const struct iolens_region_sink *sink,
                              const struct iolens_layer_desc *d, const void *records, size_t n,
                              const struct iolens_names_block *names)
{
    size_t *order = n < 2 ? NULL
                    : names != NULL ? order_by_place(d, records, n, names)
                                    : record_order(d, records, n);
    int rc = 0;
    size_t from = 0;
    do {
        size_t m = iolens_region_slice_len(n, from);
        struct iolens_buf raw = {0};
        iolens_encode_layer(&raw, d, records, order, from, m, names);
        rc = iolens_region_sink_add(sink, d->region_kind, d->version, &raw);
        from += m;
    } while (rc == 0 && from < n);
    free(order);
    return rc;
}

/* ---------------------------------------------------- layer records -- */

struct collect_ctx {
    const struct iolens_layer_desc *d;
    int64_t rank;
    struct iolens_buf buf;
    long count;
};

static void collect_one(const void *rec, void *arg)
{
    struct collect_ctx *ctx = arg;
    unsigned char *p = iolens_buf_reserve(&ctx->buf, ctx->d->record_size);
    if (p == NULL)
        return;
    memcpy(p, rec, ctx->d->record_size);
    memcpy(p + 8, &ctx->rank, sizeof ctx->rank);
    iolens_record_fill_own_sharing(ctx->d, p);
    ctx->buf.len += ctx->d->record_size;
    ctx->count++;
}

/* iolens_layers_collect, with a second pass over each file (also). */
static int collect_layers_and(const struct iolens_layer_desc *const *descs, unsigned n,
                              int64_t rank, void **records, long *counts,
                              void (*also)(struct iolens_file *file, void *arg), void *also_arg)
{
    struct collect_ctx ctx[IOLENS_NLAYERS];
    struct iolens_layer_walk walks[IOLENS_NLAYERS] = {{0}};
    if (n > IOLENS_NLAYERS)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        ctx[i] = (struct collect_ctx){.d = descs[i], .rank = rank};
        walks[i] = (struct iolens_layer_walk){descs[i]->region_kind, collect_one, &ctx[i]};
    }
    iolens_layers_foreach_record(walks, n, also, also_arg);
    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        records[i] = NULL;
        counts[i] = -1;
        if (ctx[i].buf.failed) {
            iolens_buf_free(&ctx[i].buf);
            rc = -1;
            continue;
        }
        records[i] = ctx[i].buf.data;
        counts[i] = ctx[i].count;
    }
    return rc;
}

int iolens_layers_collect(const struct iolens_layer_desc *const *descs, unsigned n, int64_t rank,
                          void **records, long *counts)
{
    return n == 0 ? 0 : collect_layers_and(descs, n, rank, records, counts, NULL, NULL);
}

int iolens_layers_collect_with_sites(const struct iolens_layer_desc *const *descs, unsigned n,
                                     int64_t rank, void **records, long *counts,
                                     struct iolens_site_list *sites)
{
    struct iolens_sites_gather *g = iolens_sites_gather_start(sites);
    int rc = collect_layers_and(descs, n, rank, records, counts,
                                g != NULL ? iolens_sites_gather_file : NULL, g);
    return iolens_sites_gather_finish(g) == 0 ? rc : -1;
}

/* ----------------------------------------- this process's intervals -- */

/* The stores packed (layer_intervals.c), then encoded (region_encode.c). */
int iolens_gather_intervals_region(struct iolens_buf *out, int64_t rank, unsigned layers_off,
                                   double shift_seconds, double clock_offset,
                                   double clock_uncertainty, const struct iolens_names_block *names)
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
        .names = names,
    };
    int rc = iolens_encode_intervals_region(out, &r);
    iolens_intervals_packed_free(packed, n);
    return rc;
}
