#include <inttypes.h>
#include <stdio.h>

#include "analysis/bps.h"
#include "analysis/perf.h"
#include "output/real_text.h"
#include "output/put_escaped.h"
#include "report/report_text.h"

/*
 * --bps: for each layer with intervals, the figures of the whole job, then
 * those of each shared file at that layer (sorted by record id), as
 * "<layer> <file> <metric> <value>" lines (file "*" for the whole layer).
 * The metrics and their formulas are in iolens-parser(1); util/analysis/bps.c
 * computes them.  An undefined figure (a division by zero) prints "-", an
 * unbounded one "inf".
 */

static void bps_line_start(FILE *out, const struct iolens_log *log, const struct iolens_bps *b,
                           const char *metric)
{
    fprintf(out, "%s\t", iolens_layer_name(b->kind));
    const char *name = b->file_id != 0 ? iolens_log_name_of(log, b->file_id) : "*";
    if (name != NULL)
        iolens_put_escaped(out, name);
    else
        fprintf(out, "%" PRIu64, b->file_id);
    fprintf(out, "\t%s\t", metric);
}

static void bps_real(FILE *out, const struct iolens_log *log, const struct iolens_bps *b,
                     const char *metric, double v)
{
    bps_line_start(out, log, b, metric);
    iolens_put_real(out, v);
    fputc('\n', out);
}

static void bps_int(FILE *out, const struct iolens_log *log, const struct iolens_bps *b, const char *metric,
                    uint64_t v)
{
    bps_line_start(out, log, b, metric);
    fprintf(out, "%" PRIu64 "\n", v);
}

static void print_bps_row(FILE *out, const struct iolens_log *log, const struct iolens_bps *b,
                          uint64_t block_size)
{
    struct iolens_bps_figures f;
    iolens_bps_derive(b, block_size, log->job.run_time, &f);
    bps_int(out, log, b, "intervals", b->intervals);
    bps_int(out, log, b, "accesses", b->accesses);
    bps_line_start(out, log, b, "bytes");
    fprintf(out, "%" PRId64 "\n", b->bytes);
    bps_int(out, log, b, "block_size", block_size);
    bps_real(out, log, b, "blocks", f.blocks);
    bps_real(out, log, b, "time", b->time);
    bps_real(out, log, b, "time_lower", b->time_lower);
    bps_real(out, log, b, "time_upper", b->time_upper);
    bps_line_start(out, log, b, "time_bounds");
    fputs(f.wide ? "wide\n" : "tight\n", out);
    bps_real(out, log, b, "error_bound", b->error_bound);
    bps_real(out, log, b, "bps", f.bps);
    bps_real(out, log, b, "bps_min", f.bps_min);
    bps_real(out, log, b, "bps_max", f.bps_max);
    bps_real(out, log, b, "mib_per_s", f.mib_per_s);
    bps_real(out, log, b, "mib_per_s_min", f.mib_per_s_min);
    bps_real(out, log, b, "mib_per_s_max", f.mib_per_s_max);
    bps_real(out, log, b, "busy_fraction", f.busy_fraction);
    bps_real(out, log, b, "access_time", b->access_time);
    bps_real(out, log, b, "iops", f.iops);
    bps_real(out, log, b, "conv_mib_per_s", f.conv_mib_per_s);
    bps_real(out, log, b, "avg_response_time", f.avg_response_time);
    if (b->file_id == 0)
        bps_int(out, log, b, "mixed_intervals", b->mixed);
}

/* A layer's read_* or write_* lines (util/analysis/bps.h: iolens_bps_direction). */
static int print_bps_direction(FILE *out, const struct iolens_log *log, const struct iolens_bps *b,
                               uint32_t flag, const char *dir)
{
    struct iolens_bps_direction d;
    if (iolens_bps_direction(log, b->kind, flag, &d) != 0)
        return -1;
    char metric[32];
    snprintf(metric, sizeof metric, "%s_intervals", dir);
    bps_int(out, log, b, metric, d.intervals);
    snprintf(metric, sizeof metric, "%s_accesses", dir);
    bps_int(out, log, b, metric, d.accesses);
    snprintf(metric, sizeof metric, "%s_bytes", dir);
    bps_line_start(out, log, b, metric);
    fprintf(out, "%" PRId64 "\n", d.bytes);
    snprintf(metric, sizeof metric, "%s_time", dir);
    bps_real(out, log, b, metric, d.time);
    snprintf(metric, sizeof metric, "%s_mib_per_s", dir);
    bps_real(out, log, b, metric, d.mib_per_s);
    snprintf(metric, sizeof metric, "%s_rw_merged", dir);
    bps_int(out, log, b, metric, d.rw_merged);
    return 0;
}

/* One line per rank with intervals (the sets are sorted by rank). */
static void print_clock_offsets(FILE *out, const struct iolens_log *log)
{
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (i > 0 && s->rank == log->intervals[i - 1].rank)
            continue;
        fprintf(out, "# bps rank %" PRId64 ": clock offset %.9f uncertainty %.9f\n", s->rank,
               s->clock_offset, s->clock_uncertainty);
    }
}

/* A Darshan log without DXT has no access intervals: no BPS, but the
 * Intrepid study's fallback bandwidth (analysis/perf.h) per layer. */
static int print_no_intervals(FILE *out, const struct iolens_log *log)
{
    struct iolens_perf p;
    if (iolens_perf_compute(log, &p) != 0)
        return -1;
    fprintf(out, "# bps: not available: this Darshan log has no DXT trace (access intervals)\n");
    fprintf(out, "# bps fallback: Intrepid bandwidth, bytes over the slowest rank's unique-file "
                 "time plus each shared file's first open to last I/O\n");
    fprintf(out, "#<layer>\t<metric>\t<value>\n");
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++) {
        const struct iolens_perf_layer *L = &p.layer[i];
        if (!L->present || L->bytes == 0)
            continue;
        fprintf(out, "%s\tfallback_mib_s\t", L->name);
        iolens_put_real(out, L->fallback_mib_s);
        fputc('\n', out);
    }
    return 0;
}

int iolens_report_bps(FILE *out, const struct iolens_log *log, uint64_t block_size)
{
    if (log->source == IOLENS_SOURCE_DARSHAN && log->ninterval_sets == 0)
        return print_no_intervals(out, log);
    struct iolens_bps_report r;
    if (iolens_bps_compute(log, &r) != 0)
        return -1;
    fprintf(out, "# bps block size: %" PRIu64 "\n", block_size);
    print_clock_offsets(out, log);
    fprintf(out, "#<layer>\t<file>\t<metric>\t<value>\n");
    int rc = 0;
    for (size_t i = 0; i < r.n && rc == 0; i++) {
        print_bps_row(out, log, &r.rows[i], block_size);
        if (r.rows[i].file_id == 0)
            rc = print_bps_direction(out, log, &r.rows[i], IOLENS_IV_READ, "read") != 0 ||
                         print_bps_direction(out, log, &r.rows[i], IOLENS_IV_WRITE, "write") != 0
                     ? -1
                     : 0;
    }
    iolens_bps_report_free(&r);
    return rc;
}

