/* The job summary section of iolens-report: who ran what, where and for
 * how long, then the figures of iolens-parser --perf per layer, printed
 * exactly as --perf prints them (each cell carries data-layer and
 * data-metric, so a test or a scraper can compare the two). */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "report/report_html.h"

static void row_begin(FILE *out, const char *label)
{
    fputs("<tr><th>", out);
    iolens_html_cstr(out, label);
    fputs("</th><td>", out);
}

static void row_end(FILE *out)
{
    fputs("</td></tr>\n", out);
}

static void put_jobstr(FILE *out, const struct iolens_log *log, enum iolens_job_string which)
{
    iolens_html_text(out, log->jobstr[which], log->jobstr_len[which]);
}

/* A NUL-separated list (arguments, hosts) as its items separated by sep. */
static void put_list(FILE *out, const char *s, size_t len, const char *sep)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\0')
            continue;
        if (i > start || i < len) {
            if (start > 0)
                fputs(sep, out);
            fputs("<span class=\"name\">", out);
            iolens_html_text(out, s + start, i - start);
            fputs("</span>", out);
        }
        start = i + 1;
    }
}

static void put_time(FILE *out, int64_t sec)
{
    time_t t = (time_t)sec;
    struct tm tm;
    char buf[64];
    if (sec <= 0 || gmtime_r(&t, &tm) == NULL || strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
        fputs("-", out);
    else
        fputs(buf, out);
}

/* The MPI library's first line (MPI_Get_library_version is multi-line). */
static void put_first_line(FILE *out, const char *s, size_t len)
{
    const char *nl = memchr(s, '\n', len);
    iolens_html_text(out, s, nl != NULL ? (size_t)(nl - s) : len);
}

static void put_job_table(FILE *out, const struct iolens_html *h)
{
    const struct iolens_log *log = h->log;
    const struct iolens_job_fixed *j = &log->job;
    fputs("<table id=\"job-table\">\n", out);
    row_begin(out, "Job id");
    put_jobstr(out, log, IOLENS_JOBSTR_JOBID);
    row_end(out);
    row_begin(out, "User");
    put_jobstr(out, log, IOLENS_JOBSTR_USER);
    fprintf(out, " (uid %" PRIu64 ")", j->uid);
    row_end(out);
    row_begin(out, "Executable");
    fputs("<span class=\"name\">", out);
    put_jobstr(out, log, IOLENS_JOBSTR_EXE);
    fputs("</span>", out);
    row_end(out);
    row_begin(out, "Arguments");
    put_list(out, log->jobstr[IOLENS_JOBSTR_ARGS], log->jobstr_len[IOLENS_JOBSTR_ARGS], " ");
    row_end(out);
    const char *exes = log->jobstr[IOLENS_JOBSTR_EXES];
    size_t exes_len = log->jobstr_len[IOLENS_JOBSTR_EXES];
    if (exes != NULL && memchr(exes, '\0', exes_len) != NULL) { /* an MPMD job */
        row_begin(out, "Executables of the ranks");
        put_list(out, exes, exes_len, ", ");
        row_end(out);
    }
    row_begin(out, "Processes");
    fprintf(out, "%" PRIu32, j->nprocs);
    row_end(out);
    row_begin(out, "Compute nodes");
    fprintf(out, "%" PRIu32 "%s: ", h->perf.compute_nodes,
            log->nodes_given > 0 ? " (from --nodes)" : "");
    put_list(out, log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS], ", ");
    row_end(out);
    row_begin(out, "Start");
    put_time(out, j->start_time_sec);
    row_end(out);
    row_begin(out, "End");
    put_time(out, j->end_time_sec);
    row_end(out);
    row_begin(out, "Run time (s)");
    iolens_html_perf_real(out, h->perf.run_time);
    row_end(out);
    if (j->parent_pid != 0) {
        row_begin(out, "Forked from pid");
        fprintf(out, "%" PRId64, j->parent_pid);
        row_end(out);
    }
    if (j->folded_opens > 0) {
        row_begin(out, "Files folded (memory budget)");
        fprintf(out, "about %" PRIu64 " files, %" PRIu64 " opens, into &lt;other files&gt;",
                j->folded_files, j->folded_opens);
        row_end(out);
    }
    row_begin(out, "MPI library");
    put_first_line(out, log->jobstr[IOLENS_JOBSTR_MPI_VERSION],
                   log->jobstr_len[IOLENS_JOBSTR_MPI_VERSION]);
    row_end(out);
    row_begin(out, "iolens version");
    put_jobstr(out, log, IOLENS_JOBSTR_VERSION);
    row_end(out);
    fputs("</table>\n", out);
}

/* ------------------------------------------------------------ perf -- */

enum metric_type { M_INT, M_REAL, M_PCT, M_WIDE /* an int flag: "wide" or "tight" */ };

struct metric {
    const char *name;         /* as iolens-parser --perf names it */
    const char *label;
    enum metric_type type;
    size_t offset;            /* into struct iolens_perf_layer */
};

#define M(name, label, type, field) {name, label, type, offsetof(struct iolens_perf_layer, field)}
static const struct metric METRICS[] = {
    M("records", "file records", M_INT, records),
    M("shared_records", "shared records", M_INT, shared_records),
    M("bytes", "bytes moved", M_INT, bytes),
    M("bytes_read", "bytes read", M_INT, bytes_read),
    M("bytes_written", "bytes written", M_INT, bytes_written),
    M("reads", "reads", M_INT, reads),
    M("writes", "writes", M_INT, writes),
    M("opens", "opens", M_INT, opens),
    M("time_read", "read time, sum (s)", M_REAL, time_read),
    M("time_write", "write time, sum (s)", M_REAL, time_write),
    M("time_meta", "metadata time, sum (s)", M_REAL, time_meta),
    M("unique_slowest_time", "slowest rank, unique files (s)", M_REAL, unique_time),
    M("unique_slowest_rank", "that rank", M_INT, slowest_rank),
    M("shared_slowest_time", "shared files, slowest rank (s)", M_REAL, shared_slowest_time),
    M("slowest_time", "I/O time, slowest rank (s)", M_REAL, slowest_time),
    M("agg_mib_s", "aggregate MiB/s", M_REAL, agg_mib_s),
    M("mib_s_per_cn", "MiB/s per compute node", M_REAL, mib_s_per_cn),
    M("shared_open_to_last_io", "shared files, open to last I/O (s)", M_REAL,
      shared_open_to_last_io),
    M("fallback_time", "I/O time, open to last I/O (s)", M_REAL, fallback_time),
    M("fallback_mib_s", "MiB/s by open to last I/O", M_REAL, fallback_mib_s),
    M("union_time", "union of access intervals (s)", M_REAL, union_time),
    M("union_time_lower", "its lower bound (s)", M_REAL, union_time_lower),
    M("union_time_upper", "its upper bound (s)", M_REAL, union_time_upper),
    M("union_bounds", "bounds more than 5% apart?", M_WIDE, union_wide),
    M("union_error_bound", "gaps merged by the runtime (s)", M_REAL, union_error_bound),
    M("union_mib_s", "MiB/s over the union", M_REAL, union_mib_s),
    M("union_mib_s_min", "its lower bound", M_REAL, union_mib_s_min),
    M("union_mib_s_max", "its upper bound", M_REAL, union_mib_s_max),
    M("io_pct_of_runtime", "I/O % of run time", M_PCT, io_share),
    M("meta_pct_of_io_time", "metadata % of I/O time", M_PCT, meta_share),
};
#undef M

/* int64 for the signed counts, uint64 for the record counts: the
 * struct's own types. */
static int64_t metric_int(const struct iolens_perf_layer *p, const struct metric *m)
{
    const char *base = (const char *)p + m->offset;
    if (m->offset == offsetof(struct iolens_perf_layer, records) ||
        m->offset == offsetof(struct iolens_perf_layer, shared_records))
        return (int64_t) * (const uint64_t *)(const void *)base;
    return *(const int64_t *)(const void *)base;
}

/* Beside the union time and its MiB/s: their bounds, when those are
 * wide (util/analysis/bps.h), so that the figure is not read as exact. */
static void put_wide_note(FILE *out, const struct iolens_perf_layer *p, const struct metric *m)
{
    int is_time = m->offset == offsetof(struct iolens_perf_layer, union_time);
    if (!p->union_wide || !(is_time || m->offset == offsetof(struct iolens_perf_layer, union_mib_s)))
        return;
    fputs(" <span class=\"wide\">(wide bounds: ", out);
    iolens_html_perf_real(out, is_time ? p->union_time_lower : p->union_mib_s_min);
    fputs(" to ", out);
    iolens_html_perf_real(out, is_time ? p->union_time_upper : p->union_mib_s_max);
    fputs(")</span>", out);
}

static void put_metric(FILE *out, const struct iolens_perf_layer *p, const struct metric *m)
{
    fprintf(out, "<td class=\"n\" data-layer=\"%s\" data-metric=\"%s\">", p->name, m->name);
    const double *d = (const double *)(const void *)((const char *)p + m->offset);
    if (m->type == M_INT)
        fprintf(out, "%" PRId64, metric_int(p, m));
    else if (m->type == M_WIDE)
        fputs(p->union_wide ? "wide" : "tight", out);
    else
        iolens_html_perf_real(out, m->type == M_PCT ? 100.0 * *d : *d);
    put_wide_note(out, p, m);
    fputs("</td>", out);
}

static void put_perf_table(FILE *out, const struct iolens_perf *perf)
{
    const struct iolens_perf_layer *cols[IOLENS_PERF_NLAYERS + 1];
    size_t ncols = 0;
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++)
        if (perf->layer[i].present)
            cols[ncols++] = &perf->layer[i];
    cols[ncols++] = &perf->job;
    fputs("<h3>Bandwidth figures (as iolens-parser --perf)</h3>\n", out);
    fprintf(out, "<p class=\"note\">Compute nodes: %" PRIu32 ". The job column is POSIX and "
                 "STDIO together: the bytes that reached files.</p>\n",
            perf->compute_nodes);
    fputs("<table id=\"perf-table\">\n<tr><th>metric</th><th>meaning</th>", out);
    for (size_t c = 0; c < ncols; c++)
        fprintf(out, "<th>%s</th>", cols[c]->name);
    fputs("</tr>\n", out);
    for (size_t m = 0; m < sizeof METRICS / sizeof METRICS[0]; m++) {
        fprintf(out, "<tr><td><code>%s</code></td><td>%s</td>", METRICS[m].name,
                METRICS[m].label);
        for (size_t c = 0; c < ncols; c++)
            put_metric(out, cols[c], &METRICS[m]);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

int iolens_html_summary(struct iolens_html *h)
{
    put_job_table(h->out, h);
    put_perf_table(h->out, &h->perf);
    return 0;
}
