/* iolens-export --item-extract: one item of one layer's time series as
 * CSV, one row per time bin and job (iolens-export(1), ITEM EXTRACT):
 *   job,time,min,avg,max,sum,rank_of_min,rank_of_max,rank_0,...,rank_<N-1>
 * N is the largest rank count of the logs; a job with fewer ranks leaves
 * its last rank cells empty.  Like sh5util --item-extract, but across the
 * ranks of a job rather than its nodes. */
#include "export/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_series.h"
#include "reader/reader.h"

#define PROG IOLENS_EXPORT_PROG

struct job_series {
    char name[256];
    struct iolens_xseries xs;
};

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void put_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s != '\0'; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Reads one log into js; 0, or -1 (said why on stderr). */
static int load_job(const char *path, double width, struct job_series *js)
{
    struct iolens_log log;
    if (iolens_export_read_log(path, &log) != 0)
        return -1;
    int rc = 0;
    if (log.ninterval_sets == 0) {
        fprintf(stderr, PROG ": %s: the log has no access intervals (no time series)\n", path);
        rc = -1;
    } else {
        enum iolens_xs_status st = iolens_xs_build(&log, width, &js->xs);
        if (st != IOLENS_XS_OK) {
            fprintf(stderr, PROG ": %s: %s\n", path, iolens_xs_strerror(st));
            rc = -1;
        }
        iolens_export_job_name(&log, js->name, sizeof js->name);
    }
    iolens_log_free(&log);
    return rc;
}

static void put_header(FILE *out, int64_t nranks)
{
    fputs("job,time,min,avg,max,sum,rank_of_min,rank_of_max", out);
    for (int64_t r = 0; r < nranks; r++)
        fprintf(out, ",rank_%lld", (long long)r);
    fputc('\n', out);
}

static int put_job_rows(FILE *out, const struct job_series *js, int layer, int item,
                        int64_t width_ranks)
{
    const struct iolens_xseries *xs = &js->xs;
    int64_t *v = malloc((size_t)xs->nranks * sizeof *v);
    struct iolens_xs_cursor c;
    if (v == NULL || iolens_xs_cursor_init(&c, xs, layer, item) != 0) {
        free(v);
        return -1;
    }
    for (int64_t i = 0; i < xs->nbins; i++) {
        struct iolens_xs_stat st;
        iolens_xs_row_values(&c, v, &st);
        put_field(out, js->name);
        fprintf(out, ",%.6f,%lld,%.6f,%lld,%lld,%lld,%lld", iolens_xs_time(xs, i),
                (long long)st.min, st.avg, (long long)st.max, (long long)st.sum,
                (long long)st.rank_of_min, (long long)st.rank_of_max);
        for (int64_t r = 0; r < width_ranks; r++) {
            if (r < xs->nranks)
                fprintf(out, ",%lld", (long long)v[r]);
            else
                fputc(',', out);
        }
        fputc('\n', out);
    }
    iolens_xs_cursor_free(&c);
    free(v);
    return 0;
}

int iolens_export_item(FILE *out, char *const *logs, int nlogs,
                       const struct iolens_export_series *what)
{
    int layer = iolens_xs_layer_named(what->series);
    int item = iolens_xs_item_named(what->data);
    if (layer < 0 || item < 0)
        return 1;   /* tools/iolens-export.c checks both first */
    struct job_series *jobs = calloc(nlogs > 0 ? (size_t)nlogs : 1, sizeof *jobs);
    if (jobs == NULL) {
        fprintf(stderr, PROG ": out of memory\n");
        return 2;
    }
    int rc = 0, n = 0;
    int64_t width_ranks = 0;
    for (int i = 0; i < nlogs; i++) {
        if (load_job(logs[i], what->bin, &jobs[n]) != 0) {
            rc = 2;
            continue;
        }
        if (jobs[n].xs.nranks > width_ranks)
            width_ranks = jobs[n].xs.nranks;
        n++;
    }
    put_header(out, width_ranks);
    for (int j = 0; j < n; j++) {
        if (put_job_rows(out, &jobs[j], layer, item, width_ranks) != 0) {
            fprintf(stderr, PROG ": out of memory\n");
            rc = 2;
        }
    }
    for (int j = 0; j < n; j++)
        iolens_xs_free(&jobs[j].xs);
    free(jobs);
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, PROG ": error writing the CSV: %s\n", strerror(errno));
        return 3;
    }
    return rc;
}
