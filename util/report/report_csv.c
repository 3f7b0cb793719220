/*
 * --csv: one row per file record (RFC 4180: comma-separated, CRLF line
 * ends, a field quoted when it holds a comma, a quote, CR or LF, quotes
 * doubled), after a header row.  Names follow --json's rule: "path" is the
 * name when it is valid UTF-8, else its display form (invalid bytes as
 * U+FFFD) with the exact bytes in "path_hex" (empty otherwise).  Numbers
 * as in --json; an undefined figure is an empty field.  Several logs:
 * the header is repeated before each log's rows.
 */
#include <inttypes.h>
#include <string.h>

#include "analysis/file_rows.h"
#include "report/csv_out.h"
#include "report/json_out.h"
#include "report/report.h"

static const char *const columns[] = {
    "layer", "path", "path_hex", "record_id", "rank", "nranks", "sharing", "pattern",
    "access_size", "stride", "bytes_read", "bytes_written", "reads", "writes", "opens",
    "time_read", "time_write", "time_meta", "io_time", "slowest_rank_time", "open_start",
    "last_io_end", "open_to_last_io",
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

static void put_int(FILE *out, int64_t v) { fprintf(out, ",%" PRId64, v); }

/* A pattern parameter the ranks of a shared record disagree on: empty. */
static void put_param(FILE *out, int64_t v)
{
    if (v == IOLENS_PAT_MIXED)
        fputc(',', out);
    else
        put_int(out, v);
}

static int put_row(const struct iolens_file_row *row, void *arg)
{
    FILE *out = arg;
    const struct iolens_perf_record *p = &row->perf;
    fputs(row->layer_name, out);
    fputc(',', out);
    size_t len = row->name != NULL ? strlen(row->name) : 0;
    if (row->name != NULL)
        iolens_csv_text(out, row->name, len);
    fputc(',', out);
    if (row->name != NULL && !iolens_utf8_valid(row->name, len))
        iolens_put_hex(out, row->name, len);
    fprintf(out, ",%016" PRIx64, row->id);
    put_int(out, row->rank);
    put_int(out, row->nranks);
    fprintf(out, ",%s,%s", row->sharing, iolens_pattern_name(row->pattern.kind));
    put_param(out, row->pattern.access_size);
    put_param(out, row->pattern.stride);
    put_int(out, p->bytes_read);
    put_int(out, p->bytes_written);
    put_int(out, p->reads);
    put_int(out, p->writes);
    put_int(out, p->opens);
    iolens_csv_real(out, p->time_read);
    iolens_csv_real(out, p->time_write);
    iolens_csv_real(out, p->time_meta);
    iolens_csv_real(out, p->io_time);
    iolens_csv_real(out, p->slowest_time);
    iolens_csv_real(out, p->open_start);
    iolens_csv_real(out, p->last_io_end);
    iolens_csv_real(out, p->open_to_last_io);
    fputs("\r\n", out);
    return 0;
}

int iolens_report_csv(FILE *out, const struct iolens_log *log)
{
    iolens_csv_header(out, columns, NCOLUMNS);
    return iolens_file_rows(log, put_row, out) != 0 ? -1 : 0;
}
