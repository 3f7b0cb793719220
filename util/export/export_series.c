/* Dense per-rank time series for the exports (export_series.h). */
#include "export/export_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export/export.h"
#include "format/record_merge.h"


const char *const iolens_xs_item_names[IOLENS_XS_NITEMS] = {
    "bytes_read", "bytes_written", "bytes_read_write",
    "reads",      "writes",        "accesses_read_write",
};

uint32_t iolens_xs_kind(int l)
{
    const struct iolens_layer_desc *d = iolens_data_layer_at((unsigned)l);
    return d != NULL ? d->region_kind : 0;
}

int iolens_xs_layer_of_kind(uint32_t kind)
{
    return iolens_data_layer_index(kind);
}

int iolens_xs_layer_named(const char *name)
{
    for (int l = 0; l < IOLENS_XS_NLAYERS; l++)
        if (strcasecmp(iolens_data_layer_at((unsigned)l)->name, name) == 0)
            return l;
    return -1;
}

int iolens_xs_item_named(const char *name)
{
    for (int i = 0; i < IOLENS_XS_NITEMS; i++)
        if (strcmp(iolens_xs_item_names[i], name) == 0)
            return i;
    return -1;
}

const char *iolens_xs_strerror(enum iolens_xs_status st)
{
    switch (st) {
    case IOLENS_XS_OK: return "ok";
    case IOLENS_XS_NOMEM: return "out of memory";
    case IOLENS_XS_TOO_MANY_BINS: return "too many time bins (use a larger --bin)";
    }
    return "unknown error";
}

double iolens_xs_time(const struct iolens_xseries *xs, int64_t row)
{
    return (double)(xs->first_bin + row) * xs->width;
}

/* Ranks: the job's nprocs, at least 1, and enough for every rank that has
 * intervals. */
static int64_t rank_count(const struct iolens_log *log, const struct iolens_ts_bin *b, size_t n)
{
    int64_t nranks = log->job.nprocs > 0 ? (int64_t)log->job.nprocs : 1;
    for (size_t i = 0; i < n; i++)
        if (b[i].rank >= nranks)
            nranks = b[i].rank + 1;
    return nranks;
}

/* Rows: from min(0, first bin with an access) to max(last such bin, the
 * bin holding the end of the run time). */
static enum iolens_xs_status bin_range(const struct iolens_log *log, struct iolens_xseries *xs)
{
    double run_bins = ceil(log->job.run_time / xs->width);
    if (!(run_bins >= 0 && run_bins <= (double)IOLENS_TS_MAX_PIECES))
        return IOLENS_XS_TOO_MANY_BINS;
    int64_t lo = 0, hi = (int64_t)run_bins - 1;   /* inclusive; -1: none */
    for (size_t i = 0; i < xs->n; i++) {
        if (xs->bins[i].bin < lo)
            lo = xs->bins[i].bin;
        if (xs->bins[i].bin > hi)
            hi = xs->bins[i].bin;
    }
    if (hi - lo + 1 > (int64_t)IOLENS_TS_MAX_PIECES)
        return IOLENS_XS_TOO_MANY_BINS;
    xs->first_bin = lo;
    xs->nbins = hi >= lo ? hi - lo + 1 : 0;
    return IOLENS_XS_OK;
}

/* lo/hi: each (layer, rank)'s bins are contiguous in iolens_timeseries'
 * order (kind, then the whole job's, then by rank and bin). */
static enum iolens_xs_status index_ranks(struct iolens_xseries *xs)
{
    size_t cells = (size_t)IOLENS_XS_NLAYERS * (size_t)xs->nranks;
    xs->lo = calloc(cells, sizeof *xs->lo);
    xs->hi = calloc(cells, sizeof *xs->hi);
    if (xs->lo == NULL || xs->hi == NULL)
        return IOLENS_XS_NOMEM;
    for (size_t i = 0; i < xs->n; i++) {
        const struct iolens_ts_bin *b = &xs->bins[i];
        int l = iolens_xs_layer_of_kind(b->kind);
        if (l < 0 || b->rank < 0)
            continue;
        size_t c = (size_t)l * (size_t)xs->nranks + (size_t)b->rank;
        if (xs->hi[c] == 0)
            xs->lo[c] = i;
        xs->hi[c] = i + 1;
        xs->layer_present[l] = true;
    }
    return IOLENS_XS_OK;
}

enum iolens_xs_status iolens_xs_build(const struct iolens_log *log, double width,
                                      struct iolens_xseries *out)
{
    memset(out, 0, sizeof *out);
    out->width = width;
    out->has_intervals = log->ninterval_sets > 0;
    enum iolens_ts_status ts = iolens_timeseries(log, width, &out->bins, &out->n);
    if (ts != IOLENS_TS_OK)
        return ts == IOLENS_TS_NOMEM ? IOLENS_XS_NOMEM : IOLENS_XS_TOO_MANY_BINS;
    out->nranks = rank_count(log, out->bins, out->n);
    enum iolens_xs_status st = bin_range(log, out);
    if (st == IOLENS_XS_OK)
        st = index_ranks(out);
    if (st != IOLENS_XS_OK)
        iolens_xs_free(out);
    return st;
}

void iolens_xs_free(struct iolens_xseries *xs)
{
    free(xs->bins);
    free(xs->lo);
    free(xs->hi);
    memset(xs, 0, sizeof *xs);
}

static void bin_items(const struct iolens_ts_bin *b, int64_t *v)
{
    v[IOLENS_XS_BYTES_READ] = b->bytes_read;
    v[IOLENS_XS_BYTES_WRITTEN] = b->bytes_written;
    v[IOLENS_XS_BYTES_READ_WRITE] = b->bytes_rw;
    v[IOLENS_XS_READS] = b->reads;
    v[IOLENS_XS_WRITES] = b->writes;
    v[IOLENS_XS_ACCESSES_READ_WRITE] = b->accesses_rw;
}

static size_t cell(const struct iolens_xseries *xs, int l, int64_t rank)
{
    return (size_t)l * (size_t)xs->nranks + (size_t)rank;
}

bool iolens_xs_rank_active(const struct iolens_xseries *xs, int l, int64_t rank)
{
    size_t c = cell(xs, l, rank);
    return xs->hi[c] > xs->lo[c];
}

void iolens_xs_add_rank(const struct iolens_xseries *xs, int l, int64_t rank,
                        struct iolens_xs_row *rows)
{
    size_t c = cell(xs, l, rank);
    for (size_t i = xs->lo[c]; i < xs->hi[c]; i++) {
        int64_t v[IOLENS_XS_NITEMS];
        bin_items(&xs->bins[i], v);
        struct iolens_xs_row *r = &rows[xs->bins[i].bin - xs->first_bin];
        for (int k = 0; k < IOLENS_XS_NITEMS; k++)
            r->v[k] += v[k];
    }
}

/* ------------------------------------------------------------ cursor -- */

int iolens_xs_cursor_init(struct iolens_xs_cursor *c, const struct iolens_xseries *xs, int l,
                          int item)
{
    *c = (struct iolens_xs_cursor){.xs = xs, .layer = l, .item = item};
    c->pos = malloc((size_t)xs->nranks * sizeof *c->pos);
    if (c->pos == NULL)
        return -1;
    for (int64_t r = 0; r < xs->nranks; r++)
        c->pos[r] = xs->lo[cell(xs, l, r)];
    return 0;
}

/* Rank r's value in the cursor's row (0 without an access). */
static int64_t next_value(struct iolens_xs_cursor *c, int64_t r)
{
    const struct iolens_xseries *xs = c->xs;
    size_t end = xs->hi[cell(xs, c->layer, r)];
    if (c->pos[r] >= end || xs->bins[c->pos[r]].bin != xs->first_bin + c->row)
        return 0;
    int64_t v[IOLENS_XS_NITEMS];
    bin_items(&xs->bins[c->pos[r]++], v);
    return v[c->item];
}

void iolens_xs_row_values(struct iolens_xs_cursor *c, int64_t *values, struct iolens_xs_stat *stat)
{
    *stat = (struct iolens_xs_stat){0};
    long double sum = 0;
    for (int64_t r = 0; r < c->xs->nranks; r++) {
        int64_t v = next_value(c, r);
        if (values != NULL)
            values[r] = v;
        if (r == 0 || v < stat->min) {
            stat->min = v;
            stat->rank_of_min = r;
        }
        if (r == 0 || v > stat->max) {
            stat->max = v;
            stat->rank_of_max = r;
        }
        sum += v;
    }
    /* the bins' own sums saturate; so does this */
    stat->sum = sum >= (long double)INT64_MAX ? INT64_MAX : (int64_t)sum;
    stat->avg = (double)(sum / (long double)c->xs->nranks);
    c->row++;
}

void iolens_xs_cursor_free(struct iolens_xs_cursor *c)
{
    free(c->pos);
    c->pos = NULL;
}

/* --------------------------------------------------------------- jobs -- */

int iolens_export_read_log(const char *path, struct iolens_log *log)
{
    char err[256];
    if (iolens_log_read(path, log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, IOLENS_EXPORT_PROG ": %s: %s\n", path, err);
        return -1;
    }
    return 0;
}

void iolens_export_job_name(const struct iolens_log *log, char *buf, size_t size)
{
    const char *jobid = log->jobstr[IOLENS_JOBSTR_JOBID];
    long long start = (long long)log->job.start_time_sec, pid = (long long)log->job.pid;
    if (jobid[0] == '\0')
        snprintf(buf, size, "pid%lld-%lld", pid, start);
    else if (log->job.parent_pid != 0)   /* a forked child: its parent has the plain name */
        snprintf(buf, size, "%s-%lld-pid%lld", jobid, start, pid);
    else
        snprintf(buf, size, "%s-%lld", jobid, start);
    for (char *p = buf; *p != '\0'; p++)
        if (*p == '/')
            *p = '_';
}
