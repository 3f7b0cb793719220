/* The per-rank time-series heat map of iolens-report: for each layer with
 * access intervals, a grid of rank (rows) by time bin (columns) whose
 * colour is the bytes the rank moved in the bin (iolens_timeseries, bps.h:
 * read, written and merged read-write bytes together), on a logarithmic
 * scale so that a small phase next to a big one stays visible.  More than
 * IOLENS_HTML_MAX_ROWS ranks share rows (consecutive ranks, summed). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/bps.h"
#include "report/report_html.h"
#include "format/record_merge.h"
#include "format/sat_math.h"

#define MAP_X 70.0            /* rank labels, left */
#define MAP_W 800.0
#define MAP_TOP 10.0
#define LEGEND_W 200.0

struct grid {
    uint32_t kind;
    int64_t nranks, ranks_per_row, rows;
    int64_t first_bin, cols;
    double width;             /* seconds per bin */
    int64_t *cell;            /* rows * cols bytes */
    int64_t min, max;         /* smallest and largest non-empty cell */
};

static int64_t bin_bytes(const struct iolens_ts_bin *b)
{
    return iolens_sat_add(iolens_sat_add(b->bytes_read, b->bytes_written), b->bytes_rw);
}

/* Ranks of the job: nprocs, or more if the intervals say so. */
static int64_t rank_count(const struct iolens_log *log, const struct iolens_ts_bin *bins, size_t n)
{
    int64_t nr = log->job.nprocs > 0 ? (int64_t)log->job.nprocs : 1;
    for (size_t i = 0; i < n; i++)
        if (bins[i].rank >= nr)
            nr = bins[i].rank + 1;
    return nr;
}

/* Columns: from bin 0 (or earlier, when a clock offset put an access
 * before the job start) to the last bin with data, at least opt.bins. */
static void column_range(const struct iolens_ts_bin *bins, size_t n, int bins_wanted,
                         struct grid *g)
{
    int64_t lo = 0, hi = bins_wanted - 1;
    for (size_t i = 0; i < n; i++) {
        if (bins[i].kind != g->kind || bins[i].rank < 0)
            continue;
        if (bins[i].bin < lo)
            lo = bins[i].bin;
        if (bins[i].bin > hi)
            hi = bins[i].bin;
    }
    /* a wildly skewed clock cannot make the map unbounded */
    if (hi - lo + 1 > 4 * (int64_t)bins_wanted)
        hi = lo + 4 * (int64_t)bins_wanted - 1;
    g->first_bin = lo;
    g->cols = hi - lo + 1;
}

static int fill_grid(const struct iolens_ts_bin *bins, size_t n, struct grid *g)
{
    g->rows = (g->nranks + g->ranks_per_row - 1) / g->ranks_per_row;
    g->cell = calloc((size_t)(g->rows * g->cols), sizeof *g->cell);
    if (g->cell == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const struct iolens_ts_bin *b = &bins[i];
        if (b->kind != g->kind || b->rank < 0)
            continue;
        int64_t c = b->bin - g->first_bin;
        if (c >= g->cols)
            c = g->cols - 1;
        int64_t *cell = &g->cell[(b->rank / g->ranks_per_row) * g->cols + c];
        *cell = iolens_sat_add(*cell, bin_bytes(b));
    }
    for (int64_t i = 0; i < g->rows * g->cols; i++) {
        int64_t v = g->cell[i];
        if (v > 0 && (g->min == 0 || v < g->min))
            g->min = v;
        if (v > g->max)
            g->max = v;
    }
    return 0;
}

/* Where v sits between the smallest and the largest cell on a log
 * scale, from LOW_END (the palest colour still visible on the map's
 * background) to 1. */
#define LOW_END 0.15
static double heat_position(const struct grid *g, int64_t v)
{
    if (g->max <= g->min)
        return 1.0;
    double span = log((double)g->max / (double)g->min);
    return LOW_END + (1.0 - LOW_END) * log((double)v / (double)g->min) / span;
}

static void put_cell(FILE *out, const struct grid *g, int64_t row, int64_t col, double cw,
                     double rh)
{
    int64_t v = g->cell[row * g->cols + col];
    if (v <= 0)
        return;
    char colour[8];
    iolens_html_heat_colour(heat_position(g, v), colour);
    double t0 = (double)(g->first_bin + col) * g->width;
    int64_t r0 = row * g->ranks_per_row, r1 = r0 + g->ranks_per_row - 1;
    if (r1 >= g->nranks)
        r1 = g->nranks - 1;
    fprintf(out, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                 "fill=\"%s\"><title>",
            MAP_X + (double)col * cw, MAP_TOP + (double)row * rh, cw, rh, colour);
    if (r0 == r1)
        fprintf(out, "rank %" PRId64, r0);
    else
        fprintf(out, "ranks %" PRId64 "-%" PRId64, r0, r1);
    fprintf(out, ", %.4g-%.4g s: %" PRId64 " bytes (", t0, t0 + g->width, v);
    iolens_html_bytes(out, (double)v);
    fputs(")</title></rect>", out);
}

/* Every row's rank when the rows are few and tall enough to read, else
 * the first and the last rank. */
static void put_rank_labels(FILE *out, const struct grid *g, double map_h)
{
    double rh = map_h / (double)g->rows;
    if (g->ranks_per_row == 1 && rh >= 12) {
        for (int64_t r = 0; r < g->rows; r++)
            fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
                         "rank %" PRId64 "</text>",
                    MAP_X - 4, MAP_TOP + rh * (double)r + rh / 2 + 4, r);
        return;
    }
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">rank 0</text>",
            MAP_X - 4, MAP_TOP + 10);
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%" PRId64
                 "</text>",
            MAP_X - 4, MAP_TOP + map_h, g->nranks - 1);
}

static void put_axes(FILE *out, const struct grid *g, double map_h)
{
    double t0 = (double)g->first_bin * g->width, t1 = t0 + (double)g->cols * g->width;
    double y = MAP_TOP + map_h;
    for (int k = 0; k <= 4; k++) {
        double x = MAP_X + MAP_W * k / 4.0;
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                x, y, x, y + 4);
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.4g</text>",
                x, y + 16, t0 + (t1 - t0) * k / 4.0);
    }
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                 "seconds since the job start (rank 0's clock)</text>",
            MAP_X + MAP_W / 2, y + 32);
    put_rank_labels(out, g, map_h);
}

/* Colour legend: a gradient from the smallest to the largest cell. */
static void put_legend(FILE *out, const struct grid *g, double y)
{
    const char *layer = iolens_layer_name(g->kind);
    fprintf(out, "<defs><linearGradient id=\"heat-%s\">", layer);
    for (int k = 0; k <= 10; k++) {
        char colour[8];
        iolens_html_heat_colour(LOW_END + (1.0 - LOW_END) * k / 10.0, colour);
        fprintf(out, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", k * 10, colour);
    }
    fputs("</linearGradient></defs>", out);
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"url(#heat-%s)\"/>",
            MAP_X, y, LEGEND_W, layer);
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">", MAP_X, y + 26);
    iolens_html_bytes(out, (double)g->min);
    fputs("</text>", out);
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", MAP_X + LEGEND_W,
            y + 26);
    iolens_html_bytes(out, (double)g->max);
    fprintf(out, "</text><text class=\"tick\" x=\"%.1f\" y=\"%.1f\">bytes per bin (log scale); "
                 "blank: none</text>",
            MAP_X + LEGEND_W + 12, y + 10);
}

static void put_map(FILE *out, const struct grid *g)
{
    double rh = g->rows <= 16 ? 20.0 : g->rows <= 64 ? 8.0 : g->rows <= 128 ? 4.0 : 2.0;
    double cw = MAP_W / (double)g->cols, map_h = rh * (double)g->rows;
    double height = MAP_TOP + map_h + 80;
    const char *layer = iolens_layer_name(g->kind);
    fprintf(out, "<h3>%s</h3>\n", layer);
    fprintf(out, "<svg id=\"heatmap-%s\" class=\"chart heatmap\" role=\"img\" "
                 "viewBox=\"0 0 900 %.0f\" width=\"900\" height=\"%.0f\"><title>%s bytes per rank "
                 "and time bin</title>",
            layer, height, height, layer);
    fprintf(out, "<rect class=\"bg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
            MAP_X, MAP_TOP, MAP_W, map_h);
    /* crisp edges: no anti-aliased seams between neighbouring cells */
    fputs("<g shape-rendering=\"crispEdges\">", out);
    for (int64_t r = 0; r < g->rows; r++)
        for (int64_t c = 0; c < g->cols; c++)
            put_cell(out, g, r, c, cw, rh);
    fputs("</g>", out);
    put_axes(out, g, map_h);
    put_legend(out, g, MAP_TOP + map_h + 44);
    fputs("</svg>\n", out);
    if (g->ranks_per_row > 1)
        fprintf(out, "<p class=\"note\">%" PRId64 " ranks per row.</p>\n", g->ranks_per_row);
}

/* The bin width: the run time (or, without one, the last interval's end)
 * cut into opt.bins. */
static double bin_width(const struct iolens_log *log, int bins)
{
    double horizon = log->job.run_time;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (!(horizon > 0) && s->count > 0 && s->end[s->count - 1] > horizon)
            horizon = s->end[s->count - 1];
    }
    return horizon > 0 && isfinite(horizon) ? horizon / bins : 0;
}

static int layer_map(FILE *out, const struct iolens_log *log, const struct iolens_ts_bin *bins,
                     size_t n, uint32_t kind, int nbins, double width)
{
    struct grid g = {.kind = kind, .width = width};
    g.nranks = rank_count(log, bins, n);
    g.ranks_per_row = (g.nranks + IOLENS_HTML_MAX_ROWS - 1) / IOLENS_HTML_MAX_ROWS;
    column_range(bins, n, nbins, &g);
    if (fill_grid(bins, n, &g) != 0)
        return -1;
    if (g.max > 0)
        put_map(out, &g);
    free(g.cell);
    return 0;
}

static bool has_kind(const struct iolens_ts_bin *bins, size_t n, uint32_t kind)
{
    for (size_t i = 0; i < n; i++)
        if (bins[i].kind == kind && bins[i].rank >= 0 && bin_bytes(&bins[i]) > 0)
            return true;
    return false;
}

int iolens_html_heatmap(struct iolens_html *h)
{
    FILE *out = h->out;
    double width = bin_width(h->log, h->opt.bins);
    if (h->log->ninterval_sets == 0 || !(width > 0)) {
        fputs("<p class=\"note\">The log has no access intervals: no time series.</p>\n", out);
        return 0;
    }
    struct iolens_ts_bin *bins = NULL;
    size_t n = 0;
    enum iolens_ts_status st = iolens_timeseries(h->log, width, &bins, &n);
    if (st == IOLENS_TS_NOMEM)
        return -1;
    if (st == IOLENS_TS_TOO_MANY_BINS) {
        fputs("<p class=\"note\">Too many time bins for this log: try a smaller --bins.</p>\n",
              out);
        return 0;
    }
    fprintf(out, "<p class=\"note\">Bytes each rank moved per %.4g s bin.</p>\n", width);
    int rc = 0, shown = 0;
    for (unsigned l = 0; l < IOLENS_NDATA_LAYERS && rc == 0; l++) {
        uint32_t kind = iolens_data_layer_at(l)->region_kind;
        if (has_kind(bins, n, kind)) {
            rc = layer_map(out, h->log, bins, n, kind, h->opt.bins, width);
            shown++;
        }
    }
    if (rc == 0 && shown == 0)
        fputs("<p class=\"note\">No rank moved data in its access intervals.</p>\n", out);
    free(bins);
    return rc;
}
