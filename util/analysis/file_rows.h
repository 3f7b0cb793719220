/* The per-file-record facts --json and --csv print, one row per record of
 * every layer, in log order (layers by region kind, records as stored). */
#ifndef IOLENS_FILE_ROWS_H
#define IOLENS_FILE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/patterns.h"
#include "analysis/perf.h"
#include "reader/reader.h"

struct iolens_file_row {
    const struct iolens_log_layer *layer;
    uint64_t rec;
    const char *layer_name;
    uint64_t id;
    int64_t rank;             /* -1: a shared record reduced over ranks */
    const char *name;         /* NULL when the log has no name for the id */
    const char *sharing;      /* "shared", "partshared" or "unique" (sharing.h) */
    int64_t nranks;           /* ranks that opened the file (1 for a per-rank record) */
    int64_t nranks_io;        /* ranks that read or wrote it */
    struct iolens_perf_record perf;
    struct iolens_pattern pattern;
};

/* Calls fn for each record; stops at and returns fn's first non-zero
 * result; -1 when out of memory. */
int iolens_file_rows(const struct iolens_log *log,
                     int (*fn)(const struct iolens_file_row *row, void *arg), void *arg);

#endif
