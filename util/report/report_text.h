/* The text modes of iolens-parser that print after the job header, each
 * in its own file:
 *   report_header.c      the job header ("# ..." lines) every text mode starts with
 *   report_total.c       --total       counters combined by their AGG rules
 *   report_file.c        --file        file counts by access type and sharing
 *   report_stack.c       --stack       per file, bytes and time at each layer
 *   report_bps.c         --bps         BPS per layer and shared file (bps.h)
 *   report_timeseries.c  --timeseries  bytes per time bin, layer and rank
 * Each writes to out and returns 0, or -1 when out of memory. */
#ifndef IOLENS_REPORT_TEXT_H
#define IOLENS_REPORT_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "format/record_merge.h"
#include "reader/reader.h"

void iolens_report_job_header(FILE *out, const struct iolens_log *log);

int iolens_report_total(FILE *out, const struct iolens_log *log);
/* --total on a streamed log (reader_stream.h): iolens_totals_add_region is
 * the stream's layer callback (ctx: a zeroed struct iolens_totals), then
 * iolens_totals_print prints what the regions added up to. */
struct iolens_totals;
struct iolens_totals *iolens_totals_new(void);
int iolens_totals_add_region(void *totals, const struct iolens_log_layer *L);
void iolens_totals_print(FILE *out, struct iolens_totals *T);
void iolens_totals_free(struct iolens_totals *T);

int iolens_report_file(FILE *out, const struct iolens_log *log);
int iolens_report_stack(FILE *out, const struct iolens_log *log);
int iolens_report_bps(FILE *out, const struct iolens_log *log, uint64_t block_size);
/* Also -2: the bins of this width would be more than IOLENS_TS_MAX_PIECES. */
int iolens_report_timeseries(FILE *out, const struct iolens_log *log, double width);

/* Counters / fcounters of a layer region that this parser can name: those
 * both the region and the reader's tables have. */
static inline uint32_t iolens_usable_counters(const struct iolens_log_layer *L)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    uint32_t known = d != NULL ? d->ncounters : 0;
    return L->counter_count < known ? L->counter_count : known;
}

static inline uint32_t iolens_usable_fcounters(const struct iolens_log_layer *L)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    uint32_t known = d != NULL ? d->nfcounters : 0;
    return L->fcounter_count < known ? L->fcounter_count : known;
}

#endif
