/* Advice rule on the bytes HDF5 moved to and from its files at POSIX for
 * the bytes the program's dataset reads and writes asked for
 * (HDF5_AMPLIFICATION, iolens-parser(1), ADVICE).  A dataset record names
 * its file's H5F record (H5D_FILE_REC_ID), whose id is the file's POSIX
 * record id too. */
#include "analysis/advice_rules.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/sat_math.h"

/* One HDF5 file: what its datasets asked for, what moved at POSIX. */
struct h5_file {
    uint64_t id;
    int64_t asked_read, asked_written;   /* H5D bytes */
    int64_t moved_read, moved_written;   /* POSIX bytes */
    uint64_t top_dataset;                /* H5D record with the most bytes */
    int64_t top_dataset_bytes;
    uint64_t top_posix;                  /* POSIX record with the most bytes */
    int64_t top_posix_bytes;
};

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const struct h5_file *)a)->id, y = ((const struct h5_file *)b)->id;
    return x < y ? -1 : x > y;
}

static int64_t both(int64_t read, int64_t written)
{
    return iolens_sat_add(read, written);
}

/* One entry per dataset record, sorted by file and merged: the number of
 * files, or -1 when out of memory. */
static long files_of_datasets(const struct iolens_log_layer *H, struct h5_file **out)
{
    struct h5_file *f = calloc(H->record_count > 0 ? H->record_count : 1, sizeof *f);
    if (f == NULL)
        return -1;
    for (uint64_t r = 0; r < H->record_count; r++) {
        int64_t rd = iolens_log_counter(H, r, H5D_BYTES_READ);
        int64_t wr = iolens_log_counter(H, r, H5D_BYTES_WRITTEN);
        f[r] = (struct h5_file){.id = (uint64_t)iolens_log_counter(H, r, H5D_FILE_REC_ID),
                                .asked_read = rd > 0 ? rd : 0,
                                .asked_written = wr > 0 ? wr : 0,
                                .top_dataset = r};
        f[r].top_dataset_bytes = both(f[r].asked_read, f[r].asked_written);
    }
    qsort(f, H->record_count, sizeof *f, by_id);
    long n = 0;
    for (uint64_t r = 0; r < H->record_count; r++) {
        if (n > 0 && f[n - 1].id == f[r].id) {
            struct h5_file *m = &f[n - 1];
            m->asked_read = iolens_sat_add(m->asked_read, f[r].asked_read);
            m->asked_written = iolens_sat_add(m->asked_written, f[r].asked_written);
            if (f[r].top_dataset_bytes > m->top_dataset_bytes) {
                m->top_dataset = f[r].top_dataset;
                m->top_dataset_bytes = f[r].top_dataset_bytes;
            }
        } else {
            f[n++] = f[r];
        }
    }
    *out = f;
    return n;
}

static void add_posix(struct h5_file *files, long n, const struct iolens_log_layer *P)
{
    for (uint64_t r = 0; r < P->record_count; r++) {
        struct h5_file key = {.id = P->id[r]};
        struct h5_file *f = bsearch(&key, files, (size_t)n, sizeof *files, by_id);
        if (f == NULL)
            continue;
        int64_t rd = iolens_log_counter(P, r, POSIX_BYTES_READ);
        int64_t wr = iolens_log_counter(P, r, POSIX_BYTES_WRITTEN);
        f->moved_read = iolens_sat_add(f->moved_read, rd > 0 ? rd : 0);
        f->moved_written = iolens_sat_add(f->moved_written, wr > 0 ? wr : 0);
        int64_t bytes = both(rd > 0 ? rd : 0, wr > 0 ? wr : 0);
        if (bytes > f->top_posix_bytes) {
            f->top_posix = r;
            f->top_posix_bytes = bytes;
        }
    }
}

/* "a x b x c" of up to 5 extents, the last n of v[0..4]. */
static void put_extents(char *buf, size_t size, const int64_t v[5], int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 5 - n; i < 5 && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%" PRId64, i > 5 - n ? " x " : "", v[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static const char *layout_name(int64_t layout)
{
    switch (layout) {
    case 0: return "compact";
    case 1: return "contiguous";
    case 2: return "chunked";
    case 3: return "virtual";
    default: return "of unknown layout";
    }
}

/* What the busiest dataset is and how it was mostly accessed. */
static void describe_dataset(char *buf, size_t size, const struct iolens_log_layer *H, uint64_t r)
{
    int64_t ndims = iolens_log_counter(H, r, H5D_DATASPACE_NDIMS);
    int n = ndims >= 1 && ndims <= 5 ? (int)ndims : 0;
    int64_t dims[5] = {0}, chunk[5] = {0}, access[5];
    for (int i = 0; i < n; i++) {
        dims[5 - n + i] = iolens_log_counter(H, r, H5D_DATASPACE_DIM1 + i);
        chunk[5 - n + i] = iolens_log_counter(H, r, H5D_CHUNK_DIM1 + i);
    }
    for (int i = 0; i < 5; i++)
        access[i] = iolens_log_counter(H, r, H5D_ACCESS1_LENGTH_D1 + i);
    char d[120], c[120], a[120];
    put_extents(d, sizeof d, dims, n);
    put_extents(c, sizeof c, chunk, n);
    put_extents(a, sizeof a, access, n);
    int64_t layout = iolens_log_counter(H, r, H5D_LAYOUT);
    if (n == 0)
        snprintf(buf, size, "is %s", layout_name(layout));
    else if (layout == 2)
        snprintf(buf, size, "is chunked, %s in chunks of %s, mostly accessed %s", d, c, a);
    else
        snprintf(buf, size, "is %s, %s, mostly accessed %s", layout_name(layout), d, a);
}

static const char *fix_for(int64_t layout)
{
    switch (layout) {
    case 1:
        return "the accesses cut across the rows of a contiguous dataset, which HDF5 reads "
               "(and for a write writes back) in whole stretches through its sieve buffer: "
               "store the dataset in chunks shaped like the accesses (H5Pset_chunk), or read "
               "and write whole rows";
    case 2:
        return "each access takes part of a chunk, which HDF5 reads (and for a write writes "
               "back) whole: make the chunks the accesses' shape (H5Pset_chunk), or enlarge "
               "the chunk cache (H5Pset_chunk_cache) so that chunks stay in memory between "
               "accesses";
    default:
        return "the bytes beyond the data are HDF5's metadata: fewer and larger datasets, or "
               "a larger metadata block (H5Pset_meta_block_size)";
    }
}

void advice_hdf5_amplification(const struct iolens_log *log,
                               const struct iolens_advice_thresholds *t, struct advice_list *l)
{
    const struct iolens_log_layer *H = iolens_log_layer_of(log, IOLENS_REGION_H5D);
    const struct iolens_log_layer *P = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (H == NULL || P == NULL || H->record_count == 0)
        return;
    struct h5_file *files;
    long n = files_of_datasets(H, &files);
    if (n < 0) {
        l->nomem = 1;
        return;
    }
    add_posix(files, n, P);
    /* part: bytes moved at POSIX; whole: bytes the datasets asked for */
    int64_t part = 0, whole = 0, top_excess = 0;
    uint64_t nfiles = 0;
    const struct h5_file *top = NULL;
    for (long i = 0; i < n; i++) {
        const struct h5_file *f = &files[i];
        int64_t asked = both(f->asked_read, f->asked_written);
        int64_t moved = both(f->moved_read, f->moved_written);
        /* <other files> mixes folded files: no one file's figures. */
        if (asked <= 0 || f->top_posix_bytes <= 0 || f->id == IOLENS_ID_OTHER_FILES)
            continue;
        part = iolens_sat_add(part, moved);
        whole = iolens_sat_add(whole, asked);
        if ((double)moved >= t->hdf5_amplification * (double)asked)
            nfiles++;
        if (moved - asked > top_excess) {
            top_excess = moved - asked;
            top = f;
        }
    }
    double factor = whole > 0 ? (double)part / (double)whole : 0.0;
    if (whole < t->min_bytes || top == NULL || nfiles == 0 || factor < t->hdf5_amplification) {
        free(files);
        return;
    }
    struct iolens_finding *f =
        advice_add(l, "HDF5_AMPLIFICATION", 62, factor, t->hdf5_amplification);
    if (f != NULL) {
        char dataset[480];
        describe_dataset(dataset, sizeof dataset, H, top->top_dataset);
        advice_evidence(f,
                        "%" PRId64 " bytes moved at POSIX for %" PRId64
                        " bytes of HDF5 dataset reads and writes (%.2f times), in %" PRIu64
                        " files; most in %s (read %" PRId64 " for %" PRId64 ", written %" PRId64
                        " for %" PRId64 "); its busiest dataset %s %s",
                        part, whole, factor, nfiles, advice_name(log, top->id), top->moved_read,
                        top->asked_read, top->moved_written, top->asked_written,
                        advice_name(log, H->id[top->top_dataset]), dataset);
        advice_site(f, log, P, top->top_posix, 0);
        advice_fix(f, "%s", fix_for(iolens_log_counter(H, top->top_dataset, H5D_LAYOUT)));
    }
    free(files);
}
