/*
 * Job-level file sharing, judged by the data moved (sharing.h).
 *
 * The layer: POSIX, where the data reaches the files; when POSIX moved no
 * data, the first of MPIIO, STDIO, H5D that did.  The standard streams
 * (<STDIN>, <STDOUT>, <STDERR>) are not files and do not count.
 *
 * Each record's bytes (read + written) go to one of three kinds of file,
 * by the ranks that read or wrote it (<L>_RANKS_IO of a shared record, 1
 * for a per-rank record: the runtime reduces every file opened by more
 * than one rank into one shared record):
 *   unique   one rank                         -> N:N
 *   all      every rank of a job of >1 ranks  -> N:1
 *   subset   more than one rank, not all      -> N:M
 * The class is the kind with the most bytes (a bytes-weighted majority;
 * ties go to the first in the order N:1, N:M, N:N), except that:
 *   - no bytes at all is "none";
 *   - in a job of more than one rank, when one rank moved at least 90% of
 *     the bytes, the class is "rank-0" (whichever rank it is).
 * A one-process job (serial, or non-MPI) is N:N when it moved data.
 *
 * A rank's bytes: every byte of its per-rank records, and of a shared
 * record the bytes the reduction attributes to it (<L>_FASTEST_RANK_BYTES
 * and <L>_SLOWEST_RANK_BYTES); the other ranks' part of a shared record
 * is not attributed, so the top rank's share is a lower bound.
 */
#include "analysis/sharing.h"

#include <stdint.h>
#include <stdlib.h>

#include "format/record_merge.h"
#include "format/sat_math.h"

const char *iolens_sharing_name(enum iolens_sharing_class c)
{
    switch (c) {
    case IOLENS_SHARING_NONE: return "none";
    case IOLENS_SHARING_N_N: return "N:N";
    case IOLENS_SHARING_N_1: return "N:1";
    case IOLENS_SHARING_N_M: return "N:M";
    case IOLENS_SHARING_RANK0: return "rank-0";
    }
    return "none";
}

const char *iolens_file_sharing_name(enum iolens_file_sharing s)
{
    switch (s) {
    case IOLENS_FILE_UNIQUE: return "unique";
    case IOLENS_FILE_PARTSHARED: return "partshared";
    case IOLENS_FILE_SHARED: return "shared";
    }
    return "unique";
}

static int is_std_stream(uint64_t id)
{
    return id == IOLENS_ID_STDIN || id == IOLENS_ID_STDOUT || id == IOLENS_ID_STDERR;
}

static int64_t record_bytes(const struct iolens_layer_desc *d, const struct iolens_log_layer *L,
                            uint64_t rec)
{
    int64_t r = iolens_log_counter(L, rec, d->bytes_read), w = iolens_log_counter(L, rec, d->bytes_written);
    return iolens_sat_add(r > 0 ? r : 0, w > 0 ? w : 0);
}

static int64_t job_nprocs(const struct iolens_log *log)
{
    return log->job.nprocs > 0 ? (int64_t)log->job.nprocs : 1;
}

void iolens_file_sharing_of_record(const struct iolens_log *log, const struct iolens_log_layer *L,
                                   uint64_t rec, struct iolens_file_share *out)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    *out = (struct iolens_file_share){.nranks = 1, .nranks_io = 1, .kind = IOLENS_FILE_UNIQUE};
    if (d == NULL || rec >= L->record_count || L->rank[rec] != IOLENS_RANK_ALL)
        return;
    int64_t opened = iolens_log_counter(L, rec, d->ranks_opened);
    int64_t io = iolens_log_counter(L, rec, d->ranks_opened + 1);
    out->nranks = opened > 0 ? opened : 1;
    out->nranks_io = io;
    int64_t nprocs = job_nprocs(log);
    if (out->nranks <= 1)
        out->kind = IOLENS_FILE_UNIQUE;
    else if (out->nranks >= nprocs)
        out->kind = IOLENS_FILE_SHARED;
    else
        out->kind = IOLENS_FILE_PARTSHARED;
}

/* The layer the class is judged on: the first layer that carries data,
 * in table order (POSIX, STDIO, MPIIO, H5D), that moved data in a file
 * other than the standard streams; NULL if none did. */
static const struct iolens_log_layer *data_layer(const struct iolens_log *log)
{
    for (unsigned k = 0; k < IOLENS_NDATA_LAYERS; k++)
        for (size_t l = 0; l < log->nlayers; l++) {
            const struct iolens_log_layer *L = &log->layers[l];
            const struct iolens_layer_desc *d = iolens_data_layer_at(k);
            if (L->kind != d->region_kind)
                continue;
            for (uint64_t r = 0; r < L->record_count; r++)
                if (!is_std_stream(L->id[r]) && record_bytes(d, L, r) > 0)
                    return L;
        }
    return NULL;
}

/* One rank's bytes from one record. */
struct credit {
    int64_t rank, bytes;
};

/* Bytes per kind of file, and the ranks' credits: at most two a record,
 * so the work follows the records the log holds, never the nprocs it
 * claims (a log may claim 10^9 ranks). */
struct tally {
    struct credit *credits;
    size_t ncredits;
    int64_t unique, all, subset, total;
};

static void credit_rank(struct tally *t, int64_t nprocs, int64_t rank, int64_t bytes)
{
    if (rank >= 0 && rank < nprocs && bytes > 0)
        t->credits[t->ncredits++] = (struct credit){rank, bytes};
}

static void tally_record(struct tally *t, const struct iolens_layer_desc *d,
                         const struct iolens_log_layer *L, uint64_t r, int64_t nprocs)
{
    int64_t bytes = record_bytes(d, L, r);
    if (bytes == 0 || is_std_stream(L->id[r]))
        return;
    t->total = iolens_sat_add(t->total, bytes);
    if (L->rank[r] != IOLENS_RANK_ALL) {
        credit_rank(t, nprocs, L->rank[r], bytes);
        t->unique = iolens_sat_add(t->unique, bytes);
        return;
    }
    int64_t io = iolens_log_counter(L, r, d->ranks_opened + 1);
    int64_t fastest = iolens_log_counter(L, r, d->ranks_opened + 2);
    int64_t slowest = iolens_log_counter(L, r, d->ranks_opened + 4);
    credit_rank(t, nprocs, fastest, iolens_log_counter(L, r, d->ranks_opened + 3));
    if (slowest != fastest)
        credit_rank(t, nprocs, slowest, iolens_log_counter(L, r, d->ranks_opened + 5));
    if (io <= 1)
        t->unique = iolens_sat_add(t->unique, bytes);
    else if (io >= nprocs)
        t->all = iolens_sat_add(t->all, bytes);
    else
        t->subset = iolens_sat_add(t->subset, bytes);
}

static int by_rank(const void *a, const void *b)
{
    int64_t x = ((const struct credit *)a)->rank, y = ((const struct credit *)b)->rank;
    return (x > y) - (x < y);
}

/* The rank with the most bytes (the lowest such rank on a tie), -1 if
 * none: the credits sorted by rank, each rank's run summed. */
static int64_t top_rank(struct tally *t, int64_t *top_bytes)
{
    qsort(t->credits, t->ncredits, sizeof *t->credits, by_rank);
    int64_t top = -1;
    *top_bytes = 0;
    for (size_t i = 0; i < t->ncredits;) {
        int64_t rank = t->credits[i].rank, sum = 0;
        for (; i < t->ncredits && t->credits[i].rank == rank; i++)
            sum = iolens_sat_add(sum, t->credits[i].bytes);
        if (sum > *top_bytes) {
            top = rank;
            *top_bytes = sum;
        }
    }
    return top;
}

static enum iolens_sharing_class majority(const struct tally *t, int64_t nprocs)
{
    if (t->total == 0)
        return IOLENS_SHARING_NONE;
    if (nprocs <= 1)
        return IOLENS_SHARING_N_N;
    if (t->all >= t->subset && t->all >= t->unique)
        return IOLENS_SHARING_N_1;
    if (t->subset >= t->unique)
        return IOLENS_SHARING_N_M;
    return IOLENS_SHARING_N_N;
}

int iolens_sharing_of_job(const struct iolens_log *log, struct iolens_sharing *out)
{
    int64_t nprocs = job_nprocs(log);
    *out = (struct iolens_sharing){.cls = IOLENS_SHARING_NONE, .nprocs = nprocs, .top_rank = -1};
    const struct iolens_log_layer *L = data_layer(log);
    if (L == NULL)
        return 0;
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    if (L->record_count > SIZE_MAX / (2 * sizeof(struct credit)))
        return -1;
    size_t max_credits = 2 * (size_t)L->record_count;
    struct tally t = {.credits = malloc((max_credits > 0 ? max_credits : 1) * sizeof *t.credits)};
    if (t.credits == NULL)
        return -1;
    for (uint64_t r = 0; r < L->record_count; r++)
        tally_record(&t, d, L, r, nprocs);
    out->layer = L->kind;
    out->bytes = t.total;
    out->bytes_unique = t.unique;
    out->bytes_all = t.all;
    out->bytes_subset = t.subset;
    int64_t top_bytes;
    out->top_rank = top_rank(&t, &top_bytes);
    if (out->top_rank >= 0 && t.total > 0)
        out->top_rank_share = (double)top_bytes / (double)t.total;
    free(t.credits);
    out->cls = majority(&t, nprocs);
    if (nprocs > 1 && out->top_rank_share >= IOLENS_SHARING_RANK0_SHARE)
        out->cls = IOLENS_SHARING_RANK0;
    return 0;
}
