/* The iolens-parser modes that analyse a log, each in its own file:
 *   report_perf.c      --perf       bandwidths (perf.h)
 *   report_patterns.c  --patterns   access patterns and sharing
 *   report_json.c      --json       one JSON object (schema in iolens-parser(1))
 *   report_csv.c       --csv        one row per file record
 *   report_summary.c   --summary    one row per job, over many logs
 *   report_advice.c    --advice     tuning findings (advice.h)
 * Each writes to out and returns 0, or -1 when out of memory. */
#ifndef IOLENS_REPORT_H
#define IOLENS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "reader/reader.h"

int iolens_report_perf(FILE *out, const struct iolens_log *log);
int iolens_report_patterns(FILE *out, const struct iolens_log *log);
struct iolens_advice_thresholds;
/* advice: the thresholds of the "advice" array (NULL: the defaults). */
int iolens_report_json(FILE *out, const struct iolens_log *log, uint64_t block_size,
                       const struct iolens_advice_thresholds *advice);
/* debug_dir: where the call sites' separate debug files also are, or
 * NULL (site_resolve.h). */
int iolens_report_advice(FILE *out, const struct iolens_log *log,
                         const struct iolens_advice_thresholds *t, const char *debug_dir);
struct iolens_finding;
struct iolens_site_resolver;
/* The words a finding's evidence ends with when it has a call site,
 * "; most from LABEL: N calls, B bytes" (LABEL as --sites prints the
 * site, unescaped), else "", into buf; returns buf.  --advice and the
 * HTML page share them. */
const char *iolens_advice_site_words(const struct iolens_log *log,
                                     const struct iolens_finding *f,
                                     struct iolens_site_resolver *res, char *buf, size_t size);
int iolens_report_csv(FILE *out, const struct iolens_log *log);
/* --summary: the header line once, then a row per log that could be read. */
int iolens_report_summary_header(FILE *out);
int iolens_report_summary_row(FILE *out, const struct iolens_log *log, const char *path,
                              uint64_t block_size);

#endif
