/* Advice rules on the job as a whole: rank-0 bottleneck, rank imbalance,
 * metadata-dominated time, heavy STDIO, shared files without collective
 * MPI-IO, HDF5 without collective transfer (rules in iolens-parser(1),
 * ADVICE). */
#include "analysis/advice_rules.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/sharing.h"
#include "format/sat_math.h"

/* ------------------------------------------------------------ rank 0 -- */

void advice_rank0(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                  struct advice_list *l)
{
    struct iolens_sharing s;
    if (iolens_sharing_of_job(log, &s) != 0) {
        l->nomem = 1;
        return;
    }
    if (s.nprocs < 2 || s.bytes < t->min_bytes || s.top_rank < 0 ||
        s.top_rank_share < t->rank0_share)
        return;
    struct iolens_finding *f = advice_add(l, "RANK0_BOTTLENECK", 90, s.top_rank_share,
                                          t->rank0_share);
    if (f == NULL)
        return;
    advice_evidence(f,
                    "rank %" PRId64 " moved %.1f%% of the %" PRId64 " bytes at the %s layer; "
                    "the job has %" PRId64 " ranks",
                    s.top_rank, 100.0 * s.top_rank_share, s.bytes, iolens_layer_name(s.layer),
                    s.nprocs);
    advice_fix(f, "let every rank read or write its own part instead of funnelling the data "
                  "through rank %" PRId64 ": collective MPI-IO to a shared file "
                  "(MPI_File_write_at_all) or parallel HDF5",
               s.top_rank);
}

/* --------------------------------------------------------- imbalance -- */

struct rank_time {
    int64_t rank;
    double time;
};

static int by_rank(const void *a, const void *b)
{
    int64_t x = ((const struct rank_time *)a)->rank, y = ((const struct rank_time *)b)->rank;
    return (x > y) - (x < y);
}

/* The slowest and the fastest of a set of ranks. */
struct spread {
    const char *where;        /* "files of their own" or a shared file's name */
    int64_t slow_rank, fast_rank;
    double slow, fast;
};

static double spread_ratio(const struct spread *s)
{
    return s->fast > 0 ? s->slow / s->fast : 1e9;
}

/* Ranks' summed I/O time on their own files (per-rank POSIX records),
 * among the ranks that have such files.  0: fewer than two such ranks. */
static int unique_file_spread(const struct iolens_log_layer *L, struct spread *out, int *nomem)
{
    struct rank_time *t = malloc((L->record_count + 1) * sizeof *t);
    if (t == NULL) {
        *nomem = 1;
        return 0;
    }
    size_t n = 0;
    for (uint64_t r = 0; r < L->record_count; r++)
        if (L->rank[r] >= 0 && !advice_is_stream(L->id[r]))
            t[n++] = (struct rank_time){L->rank[r],
                                        iolens_log_fcounter(L, r, POSIX_F_READ_TIME) +
                                            iolens_log_fcounter(L, r, POSIX_F_WRITE_TIME) +
                                            iolens_log_fcounter(L, r, POSIX_F_META_TIME)};
    qsort(t, n, sizeof *t, by_rank);
    size_t ranks = 0;
    *out = (struct spread){.where = NULL};
    for (size_t i = 0; i < n;) {
        struct rank_time sum = {t[i].rank, 0.0};
        for (; i < n && t[i].rank == sum.rank; i++)
            sum.time += t[i].time;
        if (ranks == 0 || sum.time > out->slow) {
            out->slow = sum.time;
            out->slow_rank = sum.rank;
        }
        if (ranks == 0 || sum.time < out->fast) {
            out->fast = sum.time;
            out->fast_rank = sum.rank;
        }
        ranks++;
    }
    free(t);
    return ranks >= 2;
}

/* A shared record's slowest and fastest ranks (the reduction's counters). */
static int shared_file_spread(const struct iolens_log *log, const struct iolens_log_layer *L,
                              uint64_t r, struct spread *out)
{
    if (L->rank[r] != IOLENS_RANK_ALL || iolens_log_counter(L, r, POSIX_RANKS_OPENED) < 2)
        return 0;
    *out = (struct spread){
        .where = advice_name(log, L->id[r]),
        .slow_rank = iolens_log_counter(L, r, POSIX_SLOWEST_RANK),
        .fast_rank = iolens_log_counter(L, r, POSIX_FASTEST_RANK),
        .slow = iolens_log_fcounter(L, r, POSIX_F_SLOWEST_RANK_TIME),
        .fast = iolens_log_fcounter(L, r, POSIX_F_FASTEST_RANK_TIME),
    };
    return 1;
}

static void keep_worst(struct spread *worst, int *have, const struct spread *s,
                       const struct iolens_advice_thresholds *t)
{
    if (s->slow < t->imbalance_min_time)
        return;
    if (!*have || spread_ratio(s) > spread_ratio(worst))
        *worst = *s;
    *have = 1;
}

void advice_imbalance(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                      struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL || advice_nprocs(log) < 2)
        return;
    struct spread worst, s;
    int have = 0;
    if (unique_file_spread(L, &s, &l->nomem))
        keep_worst(&worst, &have, &s, t);
    for (uint64_t r = 0; r < L->record_count; r++)
        if (shared_file_spread(log, L, r, &s))
            keep_worst(&worst, &have, &s, t);
    double ratio = have ? spread_ratio(&worst) : 0.0;
    if (!have || ratio < t->imbalance_ratio)
        return;
    struct iolens_finding *f = advice_add(l, "RANK_IMBALANCE", 70, ratio, t->imbalance_ratio);
    if (f == NULL)
        return;
    char times[64];
    if (worst.fast > 0)
        snprintf(times, sizeof times, "%.2f times", ratio);
    else
        snprintf(times, sizeof times, "the fastest had no measurable I/O time");
    advice_evidence(f,
                    "slowest rank %" PRId64 " spent %.6f s in POSIX I/O, fastest rank %" PRId64
                    " %.6f s (%s) on %s",
                    worst.slow_rank, worst.slow, worst.fast_rank, worst.fast, times,
                    worst.where != NULL ? worst.where : "the files of their own");
    advice_fix(f, "give every rank the same amount of data (decompose by bytes, not by "
                  "items), and check the slowest rank's node and storage targets for "
                  "contention; on shared files collective MPI-IO evens out the load");
}

/* ---------------------------------------------------------- metadata -- */

struct meta_sums {
    double meta, io;
    int64_t files, opens, stats, syncs, bytes;
};

static void meta_sums_of(const struct iolens_log_layer *L, struct meta_sums *m)
{
    *m = (struct meta_sums){0};
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (advice_is_stream(L->id[r]))
            continue;
        double meta = iolens_log_fcounter(L, r, POSIX_F_META_TIME);
        m->meta += meta;
        m->io += meta + iolens_log_fcounter(L, r, POSIX_F_READ_TIME) +
                 iolens_log_fcounter(L, r, POSIX_F_WRITE_TIME);
        m->files++;
        m->opens = iolens_sat_add(m->opens, iolens_log_counter(L, r, POSIX_OPENS));
        m->stats = iolens_sat_add(m->stats, iolens_log_counter(L, r, POSIX_STATS));
        m->syncs = iolens_sat_add(m->syncs, iolens_sat_add(iolens_log_counter(L, r, POSIX_FSYNCS),
                                                           iolens_log_counter(L, r, POSIX_FDSYNCS)));
        m->bytes = iolens_sat_add(m->bytes, iolens_sat_add(iolens_log_counter(L, r, POSIX_BYTES_READ),
                                                           iolens_log_counter(L, r, POSIX_BYTES_WRITTEN)));
    }
}

void advice_metadata(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                     struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL)
        return;
    struct meta_sums m;
    meta_sums_of(L, &m);
    double sh = m.io > 0 ? m.meta / m.io : 0.0;
    if (m.meta < t->meta_min_time || sh < t->meta_share)
        return;
    struct iolens_sharing s;
    if (iolens_sharing_of_job(log, &s) != 0) {
        l->nomem = 1;
        return;
    }
    struct iolens_finding *f = advice_add(l, "METADATA_DOMINATED", 65, sh, t->meta_share);
    if (f == NULL)
        return;
    int64_t avg = m.files > 0 ? m.bytes / m.files : 0;
    int many_small = m.files >= t->many_files && avg < t->min_bytes;
    int fpp = s.cls == IOLENS_SHARING_N_N && s.nprocs > 1 && m.files >= s.nprocs;
    advice_evidence(f,
                    "metadata took %.6f s of %.6f s of POSIX I/O time (%.1f%%): %" PRId64
                    " opens, %" PRId64 " stats, %" PRId64 " syncs on %" PRId64
                    " files of %" PRId64 " bytes on average%s",
                    m.meta, m.io, 100.0 * sh, m.opens, m.stats, m.syncs, m.files, avg,
                    many_small ? " (many small files)"
                    : fpp      ? " (file per process)"
                               : "");
    if (many_small)
        advice_fix(f, "pack the small files into a few large ones (one HDF5 file or an "
                      "archive with an index) and open each once");
    else if (fpp)
        advice_fix(f, "write one shared file (collective MPI-IO or parallel HDF5) or one file "
                      "per node instead of one file per process");
    else
        advice_fix(f, "open each file once and keep it open, cache stat results, and sync "
                      "only when the data must be durable");
}

/* ------------------------------------------------------------- stdio -- */

static int64_t layer_bytes(const struct iolens_log_layer *L, int read, int written)
{
    int64_t b = 0;
    for (uint64_t r = 0; L != NULL && r < L->record_count; r++)
        if (!advice_is_stream(L->id[r]))
            b = iolens_sat_add(b, iolens_sat_add(iolens_log_counter(L, r, read),
                                                 iolens_log_counter(L, r, written)));
    return b;
}

void advice_stdio(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                  struct advice_list *l)
{
    const struct iolens_log_layer *S = iolens_log_layer_of(log, IOLENS_REGION_STDIO);
    const struct iolens_log_layer *P = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    int64_t sb = layer_bytes(S, STDIO_BYTES_READ, STDIO_BYTES_WRITTEN);
    int64_t pb = layer_bytes(P, POSIX_BYTES_READ, POSIX_BYTES_WRITTEN);
    double sh = iolens_sat_add(sb, pb) > 0 ? (double)sb / ((double)sb + (double)pb) : 0.0;
    if (sb < t->min_bytes || sh < t->stdio_share)
        return;
    struct iolens_finding *f = advice_add(l, "HEAVY_STDIO", 40, sh, t->stdio_share);
    if (f == NULL)
        return;
    advice_evidence(f,
                    "%" PRId64 " bytes went through STDIO streams and %" PRId64
                    " through POSIX calls: STDIO is %.1f%% of the file data",
                    sb, pb, 100.0 * sh);
    advice_fix(f, "move the bulk data to POSIX read/write of large blocks, MPI-IO or HDF5; "
                  "if it must stay on a stream, give the stream a large buffer (setvbuf, 1 MiB "
                  "or more) and write binary data with fwrite, not formatted text");
}

/* ---------------------------------------------------- collective I/O -- */

/* Independent and collective accesses of the shared records of a layer. */
struct coll_sums {
    int64_t indep, coll, files, top_indep;
    uint64_t top_rec;
};

static void coll_add(struct coll_sums *c, uint64_t r, int64_t indep, int64_t coll)
{
    c->indep = iolens_sat_add(c->indep, indep);
    c->coll = iolens_sat_add(c->coll, coll);
    if (indep > 0)
        c->files++;
    if (indep > c->top_indep) {
        c->top_indep = indep;
        c->top_rec = r;
    }
}

static const int indep_ops[] = {MPIIO_INDEP_READS, MPIIO_INDEP_WRITES};
static const int coll_ops[] = {MPIIO_COLL_READS, MPIIO_COLL_WRITES, MPIIO_SPLIT_READS,
                               MPIIO_SPLIT_WRITES};

/* The saturating sum of n counters of record r. */
static int64_t mpiio_sum(const struct iolens_log_layer *L, uint64_t r, const int *which, int n)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum = iolens_sat_add(sum, iolens_log_counter(L, r, which[i]));
    return sum;
}

static double indep_share(const struct coll_sums *c)
{
    double all = (double)c->indep + (double)c->coll;
    return all > 0 ? (double)c->indep / all : 0.0;
}

void advice_mpiio_indep(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                        struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_MPIIO);
    if (L == NULL)
        return;
    struct coll_sums c = {0};
    for (uint64_t r = 0; r < L->record_count; r++)
        if (L->rank[r] == IOLENS_RANK_ALL && iolens_log_counter(L, r, MPIIO_RANKS_OPENED) >= 2)
            coll_add(&c, r, mpiio_sum(L, r, indep_ops, 2), mpiio_sum(L, r, coll_ops, 4));
    double sh = indep_share(&c);
    if (c.indep == 0 || sh < t->indep_share)
        return;
    struct iolens_finding *f = advice_add(l, "NO_COLLECTIVE_MPIIO", 80, sh, t->indep_share);
    if (f == NULL)
        return;
    advice_evidence(f,
                    "%" PRId64 " independent and %" PRId64 " collective MPI-IO reads and writes "
                    "(%.1f%% independent) on %" PRId64 " shared files; most on %s (%" PRId64
                    " independent, %" PRId64 " ranks)",
                    c.indep, c.coll, 100.0 * sh, c.files, advice_name(log, L->id[c.top_rec]),
                    c.top_indep, iolens_log_counter(L, c.top_rec, MPIIO_RANKS_OPENED));
    advice_site(f, log, L, c.top_rec, 1);
    advice_fix(f, "use the collective calls (MPI_File_write_at_all, MPI_File_read_at_all, or "
                  "_all with a file view) so that MPI-IO aggregates the ranks' pieces into "
                  "large contiguous requests (two-phase I/O)");
}

void advice_hdf5_indep(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                       struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_H5D);
    if (L == NULL)
        return;
    struct coll_sums c = {0};
    for (uint64_t r = 0; r < L->record_count; r++)
        if (L->rank[r] == IOLENS_RANK_ALL && iolens_log_counter(L, r, H5D_RANKS_OPENED) >= 2)
            coll_add(&c, r, iolens_log_counter(L, r, H5D_INDEP_ACCESSES),
                     iolens_log_counter(L, r, H5D_COLL_ACCESSES));
    double sh = indep_share(&c);
    if (c.indep == 0 || sh < t->indep_share)
        return;
    struct iolens_finding *f = advice_add(l, "HDF5_INDEPENDENT", 55, sh, t->indep_share);
    if (f == NULL)
        return;
    advice_evidence(f,
                    "%" PRId64 " independent and %" PRId64 " collective H5Dread/H5Dwrite calls "
                    "(%.1f%% independent) on %" PRId64 " datasets shared by ranks; most on %s "
                    "(%" PRId64 " independent, %" PRId64 " ranks)",
                    c.indep, c.coll, 100.0 * sh, c.files, advice_name(log, L->id[c.top_rec]),
                    c.top_indep, iolens_log_counter(L, c.top_rec, H5D_RANKS_OPENED));
    advice_site(f, log, L, c.top_rec, 1);
    advice_fix(f, "set a collective transfer property list: H5Pset_dxpl_mpio(dxpl, "
                  "H5FD_MPIO_COLLECTIVE) and pass it to H5Dwrite/H5Dread (and enable "
                  "collective metadata with H5Pset_coll_metadata_write and "
                  "H5Pset_all_coll_metadata_ops)");
}
