/* The bandwidth figures of a log (iolens-parser --perf), computed once and
 * reused by --json, --csv and --summary.  Computes, prints nothing.
 *
 * Definitions (iolens-parser(1), PERFORMANCE):
 *   slowest time   Darshan's agg_perf_by_slowest time: the largest, over
 *                  ranks, of the rank's metadata + read + write time on
 *                  its unique files (per-rank records), plus for every
 *                  shared record (rank -1) its <L>_F_SLOWEST_RANK_TIME
 *                  (a shared file's slowest rank is counted as if every
 *                  rank waited for it).
 *   open to last I/O  the Intrepid study's fallback for shared files: per
 *                  shared record, the time from the first open to the end
 *                  of the last read or write, in place of the slowest
 *                  rank's time.
 *   agg MiB/s      bytes / 2^20 / slowest time.
 *   MiB/s/CN       agg MiB/s / N_cn (distinct compute nodes).
 *   union MiB/s    bytes / 2^20 / the union time of the access intervals
 *                  (util/analysis/bps.h), NaN when the log has no intervals; with
 *                  its bounds (bytes over the upper and lower bounds of
 *                  the union time), wide when IOLENS_BPS_WIDE says so.
 * The whole job ("job") is the POSIX and STDIO layers together: the bytes
 * that reached files, each counted once (MPI-IO and HDF5 bytes pass
 * through POSIX; STDIO's own writes are not seen again at POSIX).
 * A figure that is undefined (a division by zero) is NaN. */
#ifndef IOLENS_PERF_H
#define IOLENS_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

/* The layers, in the order they are reported: every layer, in the order
 * of IOLENS_LAYERS (log_format.h). */
#define IOLENS_PERF_NLAYERS IOLENS_NLAYERS

struct iolens_perf_layer {
    uint32_t kind;               /* region kind; 0 for the whole job */
    const char *name;            /* "POSIX" ... "H5D", or "job" */
    int present;                 /* the log has a region of this layer */
    uint64_t records, shared_records;
    int64_t bytes_read, bytes_written, bytes;   /* bytes = read + written */
    int64_t reads, writes, opens;
    double time_read, time_write, time_meta;    /* sums over the records, s */
    double unique_time;          /* slowest rank's time on its unique files, s */
    int64_t slowest_rank;        /* that rank, -1 if no unique-file time */
    double unique_meta_time;     /* its metadata part, s */
    double shared_slowest_time;  /* sum of the shared records' slowest-rank times */
    double shared_open_to_last_io; /* sum of the shared records' open-to-last-I/O times */
    double slowest_time;         /* unique_time + shared_slowest_time */
    double fallback_time;        /* unique_time + shared_open_to_last_io */
    double agg_mib_s;            /* bytes / 2^20 / slowest_time */
    double fallback_mib_s;       /* bytes / 2^20 / fallback_time */
    double mib_s_per_cn;         /* agg_mib_s / compute nodes */
    double union_time;           /* union of the access intervals, s (0: none) */
    double union_time_lower, union_time_upper;   /* it lies within these, s */
    double union_error_bound;    /* s */
    double union_mib_s;          /* bytes / 2^20 / union_time */
    double union_mib_s_min, union_mib_s_max;     /* over the upper and lower bound */
    int union_wide;              /* the bounds are wide (util/analysis/bps.h) */
    double io_share;             /* min(slowest_time, run time) / run time, 0..1 */
    double meta_share;           /* time_meta / (time_read + time_write + time_meta) */
};

struct iolens_perf {
    double run_time;             /* s */
    uint32_t compute_nodes;      /* N_cn: --nodes, else nnodes, else the host names counted */
    struct iolens_perf_layer layer[IOLENS_PERF_NLAYERS];  /* POSIX STDIO MPIIO H5F H5D */
    struct iolens_perf_layer job;                         /* the base layers: POSIX + STDIO */
};

/* 0, or -1 when out of memory. */
int iolens_perf_compute(const struct iolens_log *log, struct iolens_perf *out);

/* The layer of a region kind, or NULL. */
const struct iolens_perf_layer *iolens_perf_layer_of(const struct iolens_perf *p, uint32_t kind);

/* Facts about one record that the per-file outputs share: its I/O time
 * (meta + read + write), its slowest rank's time (a shared record's
 * F_SLOWEST_RANK_TIME, else its I/O time), and the open-to-last-I/O time
 * (NaN when the layer keeps no such timestamps or the record has none). */
struct iolens_perf_record {
    int64_t bytes_read, bytes_written, reads, writes, opens;
    double time_read, time_write, time_meta, io_time, slowest_time;
    double open_start, last_io_end, open_to_last_io;
    int64_t nranks;              /* ranks that opened it (1 for a per-rank record) */
};
void iolens_perf_record(const struct iolens_log_layer *L, uint64_t rec,
                        struct iolens_perf_record *out);

/* Compute nodes of a job: the tool's --nodes (nodes_given), else nnodes,
 * else the number of host names; 0 when none is known. */
uint32_t iolens_perf_compute_nodes(const struct iolens_log *log);
/* Where that count came from: "option" (--nodes), "log", "dxt_hosts" (a
 * Darshan log's DXT host names), "hosts" (the host names) or "none". */
const char *iolens_perf_nodes_source(const struct iolens_log *log);

#endif
