/* iolens-export: logs into other formats (iolens-export(1)).
 *   tools/iolens-export.c   the command line; dispatches to:
 *   export_hdf5.c    --hdf5 OUT.h5 LOG...  (built only with HDF5)
 *   export_item.c    --item-extract (CSV; no HDF5 needed)
 *   export_sqlite.c  --sqlite DB LOG...
 *   export_series.c  the dense time series and the job names both use
 * Each exporter reads the logs one by one: a log that cannot be read gets
 * one stderr line ("iolens-export: LOG: reason") and the others are still
 * exported.  Return value: 0 all exported, 2 a log could not be read, 3 the
 * output could not be written (one stderr line says why). */
#ifndef IOLENS_EXPORT_H
#define IOLENS_EXPORT_H

#include <stdio.h>

#define IOLENS_EXPORT_PROG "iolens-export"

struct iolens_export_series {
    const char *series;     /* --series: POSIX, STDIO, MPIIO, H5D */
    const char *data;       /* --data: an item of export_series.h (bytes_read ...) */
    double bin;             /* seconds per time bin (--bin, default 1) */
};

/* force: replace a job group already in the file (else it is kept and
 * the log skipped, with a note on stderr). */
int iolens_export_hdf5(const char *out_path, char *const *logs, int nlogs, double bin, int force);
/* --item-extract: CSV on out, one row per time bin (iolens-export(1)). */
int iolens_export_item(FILE *out, char *const *logs, int nlogs,
                       const struct iolens_export_series *what);
int iolens_export_sqlite(const char *db_path, char *const *logs, int nlogs);

/* Shared by the exporters (export_series.c). */
struct iolens_log;
/* Reads a log; on error prints "iolens-export: LOG: reason" and returns -1. */
int iolens_export_read_log(const char *path, struct iolens_log *log);
/* The job's name in every export: "<jobid>-<start>", start the job's
 * start in whole seconds since the epoch; a forked child's log
 * "<jobid>-<start>-pid<pid>" (its parent has the plain name); a log
 * without a job id (not run by a batch system) "pid<pid>-<start>".
 * '/' becomes '_'. */
void iolens_export_job_name(const struct iolens_log *log, char *buf, size_t size);

#endif
