#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/compare.h"
#include "format/record_merge.h"
#include "format/sat_math.h"
#include "report/report_text.h"

/*
 * --file: one entry per distinct file.  A file counts from its POSIX
 * records when it has any, else from its STDIO records, else from its
 * MPI-IO records (the layers above POSIX would count the same bytes
 * twice).  HDF5 records (H5F, H5D) are not counted: their files are
 * counted through the layers below, and --stack shows them.  A file is shared when it has a reduced record (rank
 * IOLENS_RANK_ALL); <L>_RANKS_OPENED of that record says by how many
 * ranks, which splits the shared files into shared_all (every rank of the
 * job) and shared_partial.
 */
struct file_use {
    uint64_t id;
    bool shared;
    int64_t ranks;           /* ranks that opened a shared file */
    int64_t reads, writes, bytes, max_offset;
};

/* Counter i of record r, or dflt where the layer has no such counter
 * (role -1) or the log's records are too short for it. */
static int64_t role_counter(const struct iolens_log_layer *L, uint64_t r, int i, int64_t dflt)
{
    return i >= 0 && (uint32_t)i < iolens_usable_counters(L) ? iolens_log_counter(L, r, i) : dflt;
}

static struct file_use file_use_of(const struct iolens_log_layer *L, uint64_t r,
                                   const struct iolens_layer_desc *d, void *rec)
{
    iolens_log_record_load(L, r, d, rec);
    int64_t mr = role_counter(L, r, d->max_byte_read, -1);
    int64_t mw = role_counter(L, r, d->max_byte_written, -1);
    bool shared = L->rank[r] == IOLENS_RANK_ALL;
    return (struct file_use){
        .id = L->id[r],
        .shared = shared,
        .ranks = shared ? iolens_rec_counters(rec)[d->ranks_opened] : 1,
        .reads = iolens_record_read_ops(d, rec),
        .writes = iolens_record_write_ops(d, rec),
        .bytes = iolens_record_io_bytes(d, rec),
        .max_offset = mr > mw ? mr : mw,
    };
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const struct file_use *)a)->id, y = ((const struct file_use *)b)->id;
    return x < y ? -1 : x > y;
}

/* Appends the uses of the records of L whose file is not in seen[0..nseen)
 * (sorted), then adds L's ids to seen. */
static int add_layer_files(const struct iolens_log_layer *L, struct file_use *f, size_t *n,
                           uint64_t *seen, size_t *nseen)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    void *rec = d != NULL ? malloc(d->record_size) : NULL;
    if (rec == NULL)
        return d == NULL ? 0 : -1;
    size_t before = *nseen;
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (bsearch(&L->id[r], seen, before, sizeof *seen, iolens_compare_u64) == NULL)
            f[(*n)++] = file_use_of(L, r, d, rec);
        seen[(*nseen)++] = L->id[r];
    }
    free(rec);
    qsort(seen, *nseen, sizeof *seen, iolens_compare_u64);
    return 0;
}

/* Merges the entries of one file (several per-rank records). */
static size_t merge_files(struct file_use *f, size_t n)
{
    if (n > 0)
        qsort(f, n, sizeof *f, by_id);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct file_use *prev = m > 0 ? &f[m - 1] : NULL;
        if (prev == NULL || prev->id != f[i].id) {
            f[m++] = f[i];
            continue;
        }
        if (f[i].shared && (!prev->shared || f[i].ranks > prev->ranks))
            prev->ranks = f[i].ranks;
        prev->shared = prev->shared || f[i].shared;
        prev->reads = iolens_sat_add(prev->reads, f[i].reads);
        prev->writes = iolens_sat_add(prev->writes, f[i].writes);
        prev->bytes = iolens_sat_add(prev->bytes, f[i].bytes);
        if (f[i].max_offset > prev->max_offset)
            prev->max_offset = f[i].max_offset;
    }
    return m;
}

static struct file_use *collect_files(const struct iolens_log *log, size_t *count)
{
    uint64_t total = 0;
    for (size_t l = 0; l < log->nlayers; l++)
        total += log->layers[l].record_count;
    if (total > SIZE_MAX / sizeof(struct file_use))
        return NULL;
    struct file_use *f = malloc((total > 0 ? (size_t)total : 1) * sizeof *f);
    uint64_t *seen = malloc((total > 0 ? (size_t)total : 1) * sizeof *seen);
    size_t n = 0, nseen = 0;
    int rc = f != NULL && seen != NULL ? 0 : -1;
    /* The data layers whose records are files (not H5D's datasets), in
     * table order: a file is counted once, at the first of them with a
     * record of it. */
    const struct iolens_layer_desc *d;
    for (unsigned k = 0; (d = iolens_data_layer_at(k)) != NULL && rc == 0; k++) {
        const struct iolens_log_layer *L = iolens_log_layer_of(log, d->region_kind);
        if (L != NULL && d->file_rec_id < 0)
            rc = add_layer_files(L, f, &n, seen, &nseen);
    }
    free(seen);
    if (rc != 0) {
        free(f);
        return NULL;
    }
    *count = merge_files(f, n);
    return f;
}

struct file_row {
    const char *label;
    int64_t files, bytes, max_offset;
};

static void add_to_row(struct file_row *row, const struct file_use *u)
{
    row->files++;
    row->bytes = iolens_sat_add(row->bytes, u->bytes);
    if (u->max_offset > row->max_offset)
        row->max_offset = u->max_offset;
}

int iolens_report_file(FILE *out, const struct iolens_log *log)
{
    size_t n = 0;
    struct file_use *f = collect_files(log, &n);
    if (f == NULL)
        return -1;
    enum { TOTAL, RO, WO, RW, UNIQUE, SHARED, SHARED_ALL, SHARED_PARTIAL, NROWS };
    struct file_row rows[NROWS] = {
        {"total", 0, 0, -1},      {"read_only", 0, 0, -1},  {"write_only", 0, 0, -1},
        {"read_write", 0, 0, -1}, {"unique", 0, 0, -1},     {"shared", 0, 0, -1},
        {"shared_all", 0, 0, -1}, {"shared_partial", 0, 0, -1},
    };
    for (size_t i = 0; i < n; i++) {
        const struct file_use *u = &f[i];
        add_to_row(&rows[TOTAL], u);
        if (u->reads > 0 && u->writes == 0)
            add_to_row(&rows[RO], u);
        else if (u->writes > 0 && u->reads == 0)
            add_to_row(&rows[WO], u);
        else if (u->writes > 0 && u->reads > 0)
            add_to_row(&rows[RW], u);
        add_to_row(&rows[u->shared ? SHARED : UNIQUE], u);
        if (u->shared)
            add_to_row(&rows[u->ranks >= (int64_t)log->job.nprocs ? SHARED_ALL : SHARED_PARTIAL],
                       u);
    }
    fprintf(out, "# <type>\t<files>\t<bytes>\t<max_offset>\n");
    for (int i = 0; i < NROWS; i++)
        fprintf(out, "%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", rows[i].label, rows[i].files,
               rows[i].bytes, rows[i].max_offset);
    free(f);
    return 0;
}

