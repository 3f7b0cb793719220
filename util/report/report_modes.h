/* The iolens-parser modes that take options (--block-size, --bin,
 * --advice-thresholds), each behind one shape so that the parser's table
 * of modes calls them alike (report_modes.c).  The modes without options
 * are called as they are: iolens_report_total ... (report_text.h,
 * report.h); --list-counters and the --summary header read no log
 * (report_counters.c, report_summary.c). */
#ifndef IOLENS_REPORT_MODES_H
#define IOLENS_REPORT_MODES_H

#include <stdbool.h>
#include <stdio.h>

#include "reader/reader.h"
#include "report/report_options.h"

/* The shape: prints one read log (path: as the command line named it)
 * and returns 0, -1 when out of memory, or -2 when --bin makes more than
 * IOLENS_TS_MAX_PIECES pieces (--timeseries). */
typedef int iolens_mode_fn(FILE *out, const struct iolens_log *log, const char *path,
                           const struct iolens_report_options *o);

/* --base (whole log), --bps, --timeseries, --json, --summary (one row),
 * --advice. */
iolens_mode_fn iolens_mode_base, iolens_mode_bps, iolens_mode_timeseries, iolens_mode_json,
    iolens_mode_summary, iolens_mode_advice;

/* --sites: per file and layer, the top call sites of its reads and
 * writes with bytes, operations and time, resolved to function (file:line)
 * through the program's debug information (report_sites.c). */
iolens_mode_fn iolens_mode_sites;
/* --sites --csv: the same sites as CSV rows for scripts, with the module,
 * build-id, offset and the resolved function, source file and line in
 * columns of their own (report_sites_csv.c). */
iolens_mode_fn iolens_mode_sites_csv;

/* --base and --total read region by region (reader_stream.h), memory
 * bounded by a region rather than the log: prints the job header of path,
 * then its totals (total) or every record.  0; -1 out of memory; -2 the
 * log cannot be opened or read, err says why. */
int iolens_mode_streamed(FILE *out, const char *path, bool total, char *err, size_t errlen);

/* --list-counters: every counter of every layer with its meaning, one
 * "LAYER<TAB>NAME<TAB>DESCRIPTION" line each (report_counters.c). */
int iolens_report_counters(FILE *out);

#endif
