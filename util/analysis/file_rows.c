/* Per-record rows for --json and --csv (file_rows.h).  A record's sharing
 * and its ranks: for a record reduced over ranks, sharing.h's
 * (iolens_file_sharing_of_record: "shared" when all the job's ranks opened
 * the file, "partshared" when some did); for a per-rank record, the number
 * of per-rank records of the same file at the layer (the runtime reduces
 * a file several ranks opened into one record, but a log may come from
 * another writer), "unique" when it is the only one. */
#include "analysis/file_rows.h"

#include <stdint.h>
#include <stdlib.h>

#include "analysis/sharing.h"
#include "format/compare.h"

/* Records with this id among the sorted ids: two binary searches, so that
 * a log whose records all share one id stays O(n log n), not O(n^2). */
static size_t count_id(const uint64_t *ids, size_t n, uint64_t id)
{
    size_t lo = iolens_u64_lower_bound(ids, n, id);
    if (id == UINT64_MAX)
        return n - lo;
    return iolens_u64_lower_bound(ids, n, id + 1) - lo;
}

static void sharing_of(const struct iolens_log *log, const struct iolens_log_layer *L, uint64_t r,
                       const uint64_t *ids, size_t n, struct iolens_file_row *row)
{
    struct iolens_file_share share;
    iolens_file_sharing_of_record(log, L, r, &share);
    size_t same = L->rank[r] == IOLENS_RANK_ALL ? 1 : count_id(ids, n, L->id[r]);
    if (same > 1) {
        share.nranks = share.nranks_io = (int64_t)same;
        share.kind = same >= (size_t)log->job.nprocs ? IOLENS_FILE_SHARED : IOLENS_FILE_PARTSHARED;
    }
    row->sharing = iolens_file_sharing_name(share.kind);
    row->nranks = share.nranks;
    row->nranks_io = share.nranks_io;
}

static int layer_rows(const struct iolens_log *log, const struct iolens_log_layer *L,
                      int (*fn)(const struct iolens_file_row *, void *), void *arg)
{
    size_t n = (size_t)L->record_count;
    if (L->record_count > SIZE_MAX / sizeof(uint64_t))
        return -1;
    uint64_t *ids = malloc((n > 0 ? n : 1) * sizeof *ids);
    if (ids == NULL)
        return -1;
    for (size_t r = 0; r < n; r++)
        ids[r] = L->id[r];
    qsort(ids, n, sizeof *ids, iolens_compare_u64);
    int rc = 0;
    for (size_t r = 0; r < n && rc == 0; r++) {
        struct iolens_file_row row = {
            .layer = L,
            .rec = r,
            .layer_name = iolens_layer_name(L->kind),
            .id = L->id[r],
            .rank = L->rank[r],
            .name = iolens_log_name_of(log, L->id[r]),
        };
        sharing_of(log, L, r, ids, n, &row);
        iolens_perf_record(L, r, &row.perf);
        iolens_pattern_of_record(L, r, &row.pattern);
        rc = fn(&row, arg);
    }
    free(ids);
    return rc;
}

int iolens_file_rows(const struct iolens_log *log,
                     int (*fn)(const struct iolens_file_row *row, void *arg), void *arg)
{
    for (size_t l = 0; l < log->nlayers; l++) {
        int rc = layer_rows(log, &log->layers[l], fn, arg);
        if (rc != 0)
            return rc;
    }
    return 0;
}
