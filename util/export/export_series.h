/* The time series of one log as the exports lay them out (iolens-export(1)):
 * dense rows, one per time bin from the first bin with an access (or 0)
 * to the last bin of the job, per layer and rank, built from the binned
 * access intervals of util/analysis/bps.h (iolens_timeseries).  Also the statistics
 * of one series item across the job's ranks, per bin. */
#ifndef IOLENS_EXPORT_SERIES_H
#define IOLENS_EXPORT_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/bps.h"
#include "reader/reader.h"

/* The layers that have access intervals: those that carry data, in the
 * order of IOLENS_LAYERS (log_format.h).  Layer l's region kind is
 * iolens_xs_kind(l). */
#define IOLENS_XS_NLAYERS IOLENS_NDATA_LAYERS
uint32_t iolens_xs_kind(int l);

/* The items of one bin, in the order of the HDF5 fields. */
enum iolens_xs_item {
    IOLENS_XS_BYTES_READ,
    IOLENS_XS_BYTES_WRITTEN,
    IOLENS_XS_BYTES_READ_WRITE,
    IOLENS_XS_READS,
    IOLENS_XS_WRITES,
    IOLENS_XS_ACCESSES_READ_WRITE,
    IOLENS_XS_NITEMS
};
extern const char *const iolens_xs_item_names[IOLENS_XS_NITEMS];

struct iolens_xs_row {
    int64_t v[IOLENS_XS_NITEMS];
};

struct iolens_xseries {
    double width;               /* seconds per bin */
    int64_t first_bin;          /* row i is bin first_bin + i */
    int64_t nbins;              /* rows */
    int64_t nranks;             /* ranks 0 .. nranks-1 (nprocs, at least 1) */
    bool has_intervals;         /* the log has any intervals region */
    bool layer_present[IOLENS_XS_NLAYERS];   /* intervals of that layer */
    struct iolens_ts_bin *bins; /* iolens_timeseries' output */
    size_t n;
    /* layer l, rank r: bins[lo[l * nranks + r] .. hi[l * nranks + r]) */
    size_t *lo, *hi;
};

/* The statistics of one item across ranks in one bin (ranks without
 * accesses count as 0; ties go to the lowest rank). */
struct iolens_xs_stat {
    int64_t min, max, sum;
    double avg;
    int64_t rank_of_min, rank_of_max;
};

enum iolens_xs_status {
    IOLENS_XS_OK = 0,
    IOLENS_XS_NOMEM,
    IOLENS_XS_TOO_MANY_BINS,
};

enum iolens_xs_status iolens_xs_build(const struct iolens_log *log, double width,
                                      struct iolens_xseries *out);
void iolens_xs_free(struct iolens_xseries *xs);
/* One-line reason of a status, for stderr. */
const char *iolens_xs_strerror(enum iolens_xs_status st);

/* Layer index of a region kind or of a layer name ("POSIX"), -1 if none. */
int iolens_xs_layer_of_kind(uint32_t kind);
int iolens_xs_layer_named(const char *name);
/* Item index of a name ("bytes_written"), -1 if none. */
int iolens_xs_item_named(const char *name);

/* Start of row i in seconds since the job start (rank 0's clock). */
double iolens_xs_time(const struct iolens_xseries *xs, int64_t row);

/* Adds rank r's rows of layer l into rows[0 .. nbins) (the caller zeroes
 * them first; adding lets a node sum its ranks). */
void iolens_xs_add_rank(const struct iolens_xseries *xs, int l, int64_t rank,
                        struct iolens_xs_row *rows);
/* True when rank r has any access of layer l. */
bool iolens_xs_rank_active(const struct iolens_xseries *xs, int l, int64_t rank);

/* A cursor over the ranks of one layer and item, row by row: call
 * iolens_xs_row_values for rows 0, 1, ... in order; it fills values[0 ..
 * nranks) and stat.  values may be NULL. */
struct iolens_xs_cursor {
    const struct iolens_xseries *xs;
    int layer, item;
    int64_t row;
    size_t *pos;                /* per rank: next bin */
};
int iolens_xs_cursor_init(struct iolens_xs_cursor *c, const struct iolens_xseries *xs, int l,
                          int item);
void iolens_xs_row_values(struct iolens_xs_cursor *c, int64_t *values, struct iolens_xs_stat *stat);
void iolens_xs_cursor_free(struct iolens_xs_cursor *c);

#endif
