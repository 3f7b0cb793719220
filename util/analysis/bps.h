/* BPS analysis of a log's access intervals (He, Sun and Yin, "BPS: A
 * Performance Metric of I/O System"), for iolens-parser --bps and
 * --timeseries, and later for the exports.  Computes, prints nothing.
 *
 * Times are seconds from the job start on rank 0's clock: each rank's
 * intervals are shifted by its clock offset before anything is combined. */
#ifndef IOLENS_BPS_H
#define IOLENS_BPS_H

#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

/* The raw figures of one layer for the whole job (file_id 0), or of one
 * shared file at one layer. */
struct iolens_bps {
    uint32_t kind;            /* layer region kind */
    uint64_t file_id;         /* 0: the whole layer */
    uint64_t intervals;       /* stored intervals (after any compaction) */
    uint64_t accesses;        /* accesses they stand for */
    int64_t bytes;            /* bytes requested (failed accesses too) */
    double time;              /* T: the union of the access times, as estimated
                              * from the stored intervals (analysis/interval_bounds.h);
                              * exact when time_lower == time_upper */
    double time_lower, time_upper;   /* the true union lies within these, and so does T */
    double error_bound;       /* the union of the stored spans exceeds the true
                              * union by at most this */
    double access_time;       /* sum of the per-access durations */
    uint64_t mixed;           /* intervals that merged several files (layer only) */
};

struct iolens_bps_report {
    size_t n;
    struct iolens_bps *rows;  /* per layer (kind order), each followed by its shared files */
};

/* Figures derived from one row; a figure that is undefined (division by
 * zero) is NaN, an unbounded one +inf. */
struct iolens_bps_figures {
    double blocks;            /* B = bytes / block size */
    double bps, bps_min, bps_max;   /* B / T, B / time_upper, B / time_lower */
    double mib_per_s;         /* bytes / T / 2^20 */
    double mib_per_s_min, mib_per_s_max;   /* over time_upper and time_lower */
    int wide;                 /* the bounds are more than IOLENS_BPS_WIDE of T apart */
    double busy_fraction;     /* T / run time */
    double iops;              /* accesses / access_time */
    double conv_mib_per_s;    /* bytes / access_time / 2^20 */
    double avg_response_time; /* access_time / accesses */
};

/* Bounds further apart than this fraction of T are called wide: the
 * figures print the bounds and say so beside T. */
#define IOLENS_BPS_WIDE 0.05
/* Whether [lower, upper] is wide around t (see IOLENS_BPS_WIDE). */
int iolens_bps_wide(double lower, double t, double upper);

/* 0, or -1 when out of memory. */
int iolens_bps_compute(const struct iolens_log *log, struct iolens_bps_report *out);
void iolens_bps_report_free(struct iolens_bps_report *r);
/* The whole-layer figures of the intervals of several layers together
 * (their union on rank 0's clock; row->kind is kinds[0]): --perf's job
 * figure over POSIX and STDIO.  0, or -1 when out of memory. */
int iolens_bps_union(const struct iolens_log *log, const uint32_t *kinds, size_t nkinds,
                     struct iolens_bps *row);
/* One direction of a whole layer: the union of the intervals that hold
 * only reads (flag IOLENS_IV_READ) or only writes (IOLENS_IV_WRITE), so
 * that a write phase and a read phase can be told apart.  rw_merged
 * counts the intervals the runtime's store merged across reads and
 * writes (interval_store.h): they are in neither direction.  0, or -1
 * when out of memory. */
struct iolens_bps_direction {
    uint64_t intervals, accesses, rw_merged;
    int64_t bytes;
    double time;              /* union, s: estimated as T is */
    double time_lower, time_upper;
    double mib_per_s;         /* bytes / time / 2^20, NaN if time is 0 */
};
int iolens_bps_direction(const struct iolens_log *log, uint32_t kind, uint32_t flag,
                         struct iolens_bps_direction *out);
void iolens_bps_derive(const struct iolens_bps *b, uint64_t block_size, double run_time,
                       struct iolens_bps_figures *f);

/* Time series: bytes per bin [k * width, (k + 1) * width) of one layer,
 * for the whole job (rank IOLENS_RANK_ALL) or one rank.  An interval's
 * bytes are spread over the bins it spans in proportion to the time it
 * spends in each (integers; they add up to the interval's bytes exactly);
 * an interval of length 0 puts them all in its start's bin.  Intervals
 * flagged both read and write (merged by the store) count as bytes_rw.
 * The interval's accesses are spread the same way into reads, writes and
 * accesses_rw (a single access lands in the last bin it spans). */
struct iolens_ts_bin {
    uint32_t kind;
    int64_t rank;
    int64_t bin;
    int64_t bytes_read, bytes_written, bytes_rw;
    int64_t reads, writes, accesses_rw;
};

enum iolens_ts_status { IOLENS_TS_OK = 0, IOLENS_TS_NOMEM, IOLENS_TS_TOO_MANY_BINS };

/* Largest number of (interval, bin) pieces a time series may need. */
#define IOLENS_TS_MAX_PIECES (1ull << 22)

/* Bins with no bytes and no accesses are left out.  Sorted by kind, then the whole-job
 * bins by bin, then each rank's bins by rank and bin. */
enum iolens_ts_status iolens_timeseries(const struct iolens_log *log, double width,
                                        struct iolens_ts_bin **out, size_t *n);

#endif
