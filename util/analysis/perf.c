/* The bandwidth figures of a log: definitions in perf.h. */
#include "analysis/perf.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bps.h"
#include "format/record_merge.h"
#include "format/sat_math.h"

#define MIB 1048576.0

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

/* The share of the run time spent in I/O, at most 1.  The slowest time
 * sums a rank's calls record by record, so calls that overlapped in time
 * (threads, or overlapping records) can add up to more than the run
 * time; the rank was never busier than the whole run. */
static double runtime_share(double io_time, double run_time)
{
    return ratio(fmin(io_time, run_time), run_time);
}

/* ---------------------------------------------------------- records -- */

/* Largest record any known layer has (H5D: a few hundred counters). */
#define MAX_RECORD_BYTES 16384

static double fcounter_of(const struct iolens_layer_desc *d, void *rec, int i)
{
    return i >= 0 ? iolens_rec_fcounters(d, rec)[i] : 0.0;
}

static int64_t counter_of(void *rec, int i)
{
    return i >= 0 ? iolens_rec_counters(rec)[i] : 0;
}

/* First open to the end of the last read or write; NaN if the layer has
 * no such timestamps or the record no I/O after an open. */
static void open_to_last_io(const struct iolens_layer_desc *d, void *rec,
                            struct iolens_perf_record *out)
{
    int open = d->f_open_start, rend = d->f_read_end, wend = d->f_write_end;
    out->open_start = open >= 0 ? fcounter_of(d, rec, open) : NAN;
    out->last_io_end = rend >= 0 || wend >= 0
                           ? fmax(fcounter_of(d, rec, rend), fcounter_of(d, rec, wend))
                           : NAN;
    double span = out->last_io_end - out->open_start;
    out->open_to_last_io = span > 0 && out->last_io_end > 0 ? span : NAN;
}

static void perf_record_of(const struct iolens_layer_desc *d, void *rec,
                           struct iolens_perf_record *out)
{
    *out = (struct iolens_perf_record){0};
    out->bytes_read = counter_of(rec, d->bytes_read);
    out->bytes_written = counter_of(rec, d->bytes_written);
    out->reads = iolens_record_read_ops(d, rec);
    out->writes = iolens_record_write_ops(d, rec);
    out->opens = iolens_sat_add(counter_of(rec, d->opens[0]), counter_of(rec, d->opens[1]));
    out->time_read = fcounter_of(d, rec, d->read_time);
    out->time_write = fcounter_of(d, rec, d->write_time);
    out->time_meta = fcounter_of(d, rec, d->meta_time);
    out->io_time = out->time_read + out->time_write + out->time_meta;
    int64_t rank;
    memcpy(&rank, (char *)rec + 8, 8);
    if (rank < 0) {
        /* the second sharing fcounter is F_SLOWEST_RANK_TIME */
        out->slowest_time = fcounter_of(d, rec, d->f_fastest_rank_time + 1);
        out->nranks = counter_of(rec, d->ranks_opened);
    } else {
        out->slowest_time = out->io_time;
        out->nranks = 1;
    }
    open_to_last_io(d, rec, out);
}

void iolens_perf_record(const struct iolens_log_layer *L, uint64_t rec,
                        struct iolens_perf_record *out)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    union {
        unsigned char bytes[MAX_RECORD_BYTES];
        int64_t align;
    } buf;
    if (d == NULL || d->record_size > sizeof buf.bytes) {
        *out = (struct iolens_perf_record){.open_start = NAN, .last_io_end = NAN,
                                           .open_to_last_io = NAN};
        return;
    }
    iolens_log_record_load(L, rec, d, buf.bytes);
    perf_record_of(d, buf.bytes, out);
}

/* ----------------------------------------------------- per-rank time -- */

struct rank_time {
    int64_t rank;
    double time, meta;
};

static int by_rank(const void *a, const void *b)
{
    int64_t x = ((const struct rank_time *)a)->rank, y = ((const struct rank_time *)b)->rank;
    return (x > y) - (x < y);
}

/* The rank with the largest summed time (ties: the lowest rank). */
static void slowest_of(struct rank_time *t, size_t n, struct iolens_perf_layer *p)
{
    qsort(t, n, sizeof *t, by_rank);
    p->unique_time = 0.0;
    p->unique_meta_time = 0.0;
    p->slowest_rank = -1;
    for (size_t i = 0; i < n;) {
        struct rank_time sum = {t[i].rank, 0.0, 0.0};
        for (; i < n && t[i].rank == sum.rank; i++) {
            sum.time += t[i].time;
            sum.meta += t[i].meta;
        }
        if (p->slowest_rank < 0 || sum.time > p->unique_time) {
            p->unique_time = sum.time;
            p->unique_meta_time = sum.meta;
            p->slowest_rank = sum.rank;
        }
    }
}

/* ------------------------------------------------------------ layers -- */

static void add_record(struct iolens_perf_layer *p, int64_t rank,
                       const struct iolens_perf_record *r, struct rank_time *t, size_t *nt)
{
    p->records++;
    p->bytes_read = iolens_sat_add(p->bytes_read, r->bytes_read);
    p->bytes_written = iolens_sat_add(p->bytes_written, r->bytes_written);
    p->reads = iolens_sat_add(p->reads, r->reads);
    p->writes = iolens_sat_add(p->writes, r->writes);
    p->opens = iolens_sat_add(p->opens, r->opens);
    p->time_read += r->time_read;
    p->time_write += r->time_write;
    p->time_meta += r->time_meta;
    if (rank < 0) {
        p->shared_records++;
        p->shared_slowest_time += r->slowest_time;
        /* without the timestamps the fallback keeps the slowest rank's time */
        p->shared_open_to_last_io += isnan(r->open_to_last_io) ? r->slowest_time
                                                              : r->open_to_last_io;
    } else {
        t[(*nt)++] = (struct rank_time){rank, r->io_time, r->time_meta};
    }
}

/* The figures derived from the sums. */
static void derive(struct iolens_perf_layer *p, double run_time, uint32_t nodes)
{
    p->bytes = iolens_sat_add(p->bytes_read, p->bytes_written);
    p->slowest_time = p->unique_time + p->shared_slowest_time;
    p->fallback_time = p->unique_time + p->shared_open_to_last_io;
    double mib = (double)p->bytes / MIB;
    p->agg_mib_s = ratio(mib, p->slowest_time);
    p->fallback_mib_s = ratio(mib, p->fallback_time);
    p->mib_s_per_cn = nodes > 0 ? p->agg_mib_s / nodes : NAN;
    p->union_mib_s = ratio(mib, p->union_time);
    p->union_mib_s_min = ratio(mib, p->union_time_upper);
    p->union_mib_s_max = p->union_time_lower > 0 ? mib / p->union_time_lower
                         : p->union_time_upper > 0 ? INFINITY : NAN;
    p->union_wide = iolens_bps_wide(p->union_time_lower, p->union_time, p->union_time_upper);
    p->io_share = runtime_share(p->slowest_time, run_time);
    p->meta_share = ratio(p->time_meta, p->time_read + p->time_write + p->time_meta);
}

static uint64_t records_of(const struct iolens_log *log, const uint32_t *kinds, size_t n)
{
    uint64_t total = 0;
    for (size_t k = 0; k < n; k++) {
        const struct iolens_log_layer *L = iolens_log_layer_of(log, kinds[k]);
        if (L != NULL)
            total += L->record_count;
    }
    return total;
}

/* Sums the records of the given layers into p. */
static int sum_layers(const struct iolens_log *log, const uint32_t *kinds, size_t n,
                      struct iolens_perf_layer *p)
{
    uint64_t total = records_of(log, kinds, n);
    if (total > SIZE_MAX / sizeof(struct rank_time))
        return -1;
    struct rank_time *t = malloc((total > 0 ? (size_t)total : 1) * sizeof *t);
    if (t == NULL)
        return -1;
    size_t nt = 0;
    for (size_t k = 0; k < n; k++) {
        const struct iolens_log_layer *L = iolens_log_layer_of(log, kinds[k]);
        if (L == NULL)
            continue;
        p->present = 1;
        for (uint64_t r = 0; r < L->record_count; r++) {
            struct iolens_perf_record rec;
            iolens_perf_record(L, r, &rec);
            add_record(p, L->rank[r], &rec, t, &nt);
        }
    }
    slowest_of(t, nt, p);
    free(t);
    return 0;
}

static int union_of(const struct iolens_log *log, const uint32_t *kinds, size_t n,
                    struct iolens_perf_layer *p)
{
    struct iolens_bps row;
    if (iolens_bps_union(log, kinds, n, &row) != 0)
        return -1;
    p->union_time = row.time;
    p->union_time_lower = row.time_lower;
    p->union_time_upper = row.time_upper;
    p->union_error_bound = row.error_bound;
    return 0;
}

static int layer_figures(const struct iolens_log *log, const struct iolens_perf *perf,
                         const uint32_t *kinds, size_t n, struct iolens_perf_layer *p)
{
    if (sum_layers(log, kinds, n, p) != 0 || union_of(log, kinds, n, p) != 0)
        return -1;
    derive(p, perf->run_time, perf->compute_nodes);
    return 0;
}

uint32_t iolens_perf_compute_nodes(const struct iolens_log *log)
{
    if (log->nodes_given > 0)
        return log->nodes_given;
    if (log->job.nnodes > 0)
        return log->job.nnodes;
    const char *h = log->jobstr[IOLENS_JOBSTR_HOSTS];
    size_t len = log->jobstr_len[IOLENS_JOBSTR_HOSTS];
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (h[i] != '\0' && (i == 0 || h[i - 1] == '\0'))
            n++;
    return n;
}

const char *iolens_perf_nodes_source(const struct iolens_log *log)
{
    if (log->nodes_given > 0)
        return "option";
    if (log->job.nnodes > 0)
        return log->source == IOLENS_SOURCE_DARSHAN ? "dxt_hosts" : "log";
    return iolens_perf_compute_nodes(log) > 0 ? "hosts" : "none";
}

int iolens_perf_compute(const struct iolens_log *log, struct iolens_perf *out)
{
    *out = (struct iolens_perf){.run_time = log->job.run_time,
                                .compute_nodes = iolens_perf_compute_nodes(log)};
    /* The job's bytes: those of the base layers, which reach files without
     * passing through another traced layer, so each byte counts once. */
    uint32_t job_kinds[IOLENS_PERF_NLAYERS];
    size_t njob = 0;
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at((unsigned)i);
        struct iolens_perf_layer *p = &out->layer[i];
        p->kind = d->region_kind;
        p->name = d->name;
        if (d->base)
            job_kinds[njob++] = d->region_kind;
        if (layer_figures(log, out, &d->region_kind, 1, p) != 0)
            return -1;
    }
    out->job.name = "job";
    return layer_figures(log, out, job_kinds, njob, &out->job);
}

const struct iolens_perf_layer *iolens_perf_layer_of(const struct iolens_perf *p, uint32_t kind)
{
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++)
        if (p->layer[i].kind == kind)
            return &p->layer[i];
    return NULL;
}
