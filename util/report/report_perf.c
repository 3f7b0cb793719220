/*
 * --perf: the figures of perf.h, one "<layer>\t<metric>\t<value>" line
 * each, for every layer the log has and then for the whole job ("job",
 * POSIX + STDIO).  Times in seconds, rates in MiB/s (2^20 bytes), shares
 * in percent; an undefined figure (nothing to divide by) prints "-".
 */
#include <inttypes.h>
#include <math.h>

#include "analysis/perf.h"
#include "output/real_text.h"
#include "report/report.h"

static void put_real_line(FILE *out, const char *scope, const char *metric, double v)
{
    fprintf(out, "%s\t%s\t", scope, metric);
    iolens_put_real(out, v);
    fputc('\n', out);
}

static void put_int(FILE *out, const char *scope, const char *metric, int64_t v)
{
    fprintf(out, "%s\t%s\t%" PRId64 "\n", scope, metric, v);
}

static void print_layer(FILE *out, const struct iolens_perf_layer *p)
{
    const char *s = p->name;
    put_int(out, s, "records", (int64_t)p->records);
    put_int(out, s, "shared_records", (int64_t)p->shared_records);
    put_int(out, s, "bytes", p->bytes);
    put_int(out, s, "bytes_read", p->bytes_read);
    put_int(out, s, "bytes_written", p->bytes_written);
    put_int(out, s, "reads", p->reads);
    put_int(out, s, "writes", p->writes);
    put_int(out, s, "opens", p->opens);
    put_real_line(out, s, "time_read", p->time_read);
    put_real_line(out, s, "time_write", p->time_write);
    put_real_line(out, s, "time_meta", p->time_meta);
    put_real_line(out, s, "unique_slowest_time", p->unique_time);
    put_int(out, s, "unique_slowest_rank", p->slowest_rank);
    put_real_line(out, s, "shared_slowest_time", p->shared_slowest_time);
    put_real_line(out, s, "slowest_time", p->slowest_time);
    put_real_line(out, s, "agg_mib_s", p->agg_mib_s);
    put_real_line(out, s, "mib_s_per_cn", p->mib_s_per_cn);
    put_real_line(out, s, "shared_open_to_last_io", p->shared_open_to_last_io);
    put_real_line(out, s, "fallback_time", p->fallback_time);
    put_real_line(out, s, "fallback_mib_s", p->fallback_mib_s);
    put_real_line(out, s, "union_time", p->union_time);
    put_real_line(out, s, "union_time_lower", p->union_time_lower);
    put_real_line(out, s, "union_time_upper", p->union_time_upper);
    fprintf(out, "%s\tunion_bounds\t%s\n", s, p->union_wide ? "wide" : "tight");
    put_real_line(out, s, "union_error_bound", p->union_error_bound);
    put_real_line(out, s, "union_mib_s", p->union_mib_s);
    put_real_line(out, s, "union_mib_s_min", p->union_mib_s_min);
    put_real_line(out, s, "union_mib_s_max", p->union_mib_s_max);
    put_real_line(out, s, "io_pct_of_runtime", 100.0 * p->io_share);
    put_real_line(out, s, "meta_pct_of_io_time", 100.0 * p->meta_share);
}

int iolens_report_perf(FILE *out, const struct iolens_log *log)
{
    struct iolens_perf p;
    if (iolens_perf_compute(log, &p) != 0)
        return -1;
    fprintf(out, "# perf compute nodes: %" PRIu32 "%s\n", p.compute_nodes,
            log->nodes_given > 0 ? " (from --nodes)" : "");
    fprintf(out, "# perf job layers: POSIX STDIO\n");
    fprintf(out, "#<layer>\t<metric>\t<value>\n");
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++)
        if (p.layer[i].present)
            print_layer(out, &p.layer[i]);
    print_layer(out, &p.job);
    return 0;
}
