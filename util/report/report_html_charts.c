/* The bar-chart sections of iolens-report: the I/O cost per layer (read,
 * write and metadata time), the access-size histograms, and the BPS
 * figures against conventional bandwidth.  Each builds the values of one
 * iolens_html_bars and hands it to report_html_svg.c. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bps.h"
#include "report/report_html.h"
#include "format/record_merge.h"
#include "format/sat_math.h"

/* ---------------------------------------------------------- cost -- */

int iolens_html_cost(struct iolens_html *h)
{
    static const char *const series[] = {"read", "write", "metadata"};
    const char *cat[IOLENS_PERF_NLAYERS];
    double v[IOLENS_PERF_NLAYERS * 3];
    size_t n = 0;
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++) {
        const struct iolens_perf_layer *p = &h->perf.layer[i];
        if (!p->present)
            continue;
        cat[n] = p->name;
        v[n * 3 + 0] = p->time_read;
        v[n * 3 + 1] = p->time_write;
        v[n * 3 + 2] = p->time_meta;
        n++;
    }
    if (n == 0) {
        fputs("<p class=\"note\">The log has no layer records.</p>\n", h->out);
        return 0;
    }
    fputs("<p class=\"note\">Time spent in each layer's calls, summed over every rank and file "
          "(an upper layer's time includes the layers below it).</p>\n",
          h->out);
    struct iolens_html_bars b = {.id = "cost-chart", .title = "I/O time per layer",
                                 .unit = "seconds (sum over ranks)", .ncat = n, .nseries = 3,
                                 .cat = cat, .series = series, .values = v, .stacked = 1};
    iolens_html_bar_chart(h->out, &b);
    return 0;
}

/* ---------------------------------------------------- access sizes -- */

#define SIZE_LABEL_(P, suffix, upper, range, label) label,
static const char *const SIZE_LABEL[IOLENS_NSIZE_BINS] = {IOLENS_SIZE_BIN_TABLE(SIZE_LABEL_, ~)};
#undef SIZE_LABEL_

/* The counter indexes of a layer's read and write size bins (its
 * descriptor's first bins, then one counter per bin, as IOLENS_SIZE_COUNTERS
 * lays them out); false when the layer has none or the log's records are
 * too short to hold them. */
static bool size_counters(const struct iolens_log_layer *L, uint32_t *rd, uint32_t *wr)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    if (d == NULL || d->size_read_first < 0 || d->size_write_first < 0)
        return false;
    for (uint32_t b = 0; b < IOLENS_NSIZE_BINS; b++) {
        rd[b] = (uint32_t)d->size_read_first + b;
        wr[b] = (uint32_t)d->size_write_first + b;
    }
    return rd[IOLENS_NSIZE_BINS - 1] < L->counter_count &&
           wr[IOLENS_NSIZE_BINS - 1] < L->counter_count;
}

/* Sums the bins over the layer's records (per-rank and shared records
 * are different files, so every record counts once). */
static double size_totals(const struct iolens_log_layer *L, const uint32_t *rd, const uint32_t *wr,
                          double *v)
{
    double all = 0;
    for (int b = 0; b < IOLENS_NSIZE_BINS; b++) {
        int64_t r = 0, w = 0;
        for (uint64_t rec = 0; rec < L->record_count; rec++) {
            r = iolens_sat_add(r, L->counters[rec * L->counter_count + rd[b]]);
            w = iolens_sat_add(w, L->counters[rec * L->counter_count + wr[b]]);
        }
        v[b * 2] = (double)r;
        v[b * 2 + 1] = (double)w;
        all += (double)r + (double)w;
    }
    return all;
}

static void size_chart(FILE *out, const struct iolens_log_layer *L, const double *v)
{
    static const char *const series[] = {"reads", "writes"};
    const char *layer = iolens_layer_name(L->kind);
    char id[48], title[96];
    snprintf(id, sizeof id, "sizes-%s", layer);
    snprintf(title, sizeof title, "%s access sizes", layer);
    fprintf(out, "<h3>%s</h3>\n", layer);
    struct iolens_html_bars b = {.id = id, .title = title, .unit = "accesses", .ncat =
                                 IOLENS_NSIZE_BINS, .nseries = 2, .cat = SIZE_LABEL,
                                 .series = series, .values = v, .stacked = 0};
    iolens_html_bar_chart(out, &b);
}

int iolens_html_sizes(struct iolens_html *h)
{
    int shown = 0;
    for (size_t l = 0; l < h->log->nlayers; l++) {
        const struct iolens_log_layer *L = &h->log->layers[l];
        uint32_t rd[IOLENS_NSIZE_BINS], wr[IOLENS_NSIZE_BINS];
        double v[IOLENS_NSIZE_BINS * 2];
        if (iolens_layer_name(L->kind) == NULL || !size_counters(L, rd, wr))
            continue;
        if (size_totals(L, rd, wr, v) > 0) {
            size_chart(h->out, L, v);
            shown++;
        }
    }
    if (shown == 0)
        fputs("<p class=\"note\">No layer with access-size counters read or wrote.</p>\n",
              h->out);
    else
        fputs("<p class=\"note\">Access counts per request size, every rank and file "
              "together (MPI-IO and HDF5: the sizes the application asked for).</p>\n",
              h->out);
    return 0;
}

/* ------------------------------------------------------------- BPS -- */

static void put_bps_row(FILE *out, const struct iolens_bps *b, const struct iolens_bps_figures *f)
{
    fprintf(out, "<tr><td>%s</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRIu64
                 "</td><td class=\"n\">",
            iolens_layer_name(b->kind), b->bytes, b->accesses);
    iolens_html_perf_real(out, b->time);
    fputs("</td><td class=\"n\">", out);
    iolens_html_perf_real(out, b->time_lower);
    fputs(" to ", out);
    iolens_html_perf_real(out, b->time_upper);
    if (f->wide)
        fputs(" <span class=\"wide\">(wide)</span>", out);
    fputs("</td><td class=\"n\">", out);
    iolens_html_perf_real(out, f->bps);
    fputs("</td><td class=\"n\">", out);
    iolens_html_perf_real(out, f->mib_per_s);
    if (f->wide) {
        fputs(" <span class=\"wide\">(wide bounds: ", out);
        iolens_html_perf_real(out, f->mib_per_s_min);
        fputs(" to ", out);
        iolens_html_perf_real(out, f->mib_per_s_max);
        fputs(")</span>", out);
    }
    fputs("</td><td class=\"n\">", out);
    iolens_html_perf_real(out, b->access_time);
    fputs("</td><td class=\"n\">", out);
    iolens_html_perf_real(out, f->conv_mib_per_s);
    fputs("</td><td class=\"n\">", out);
    iolens_html_perf_real(out, 100.0 * f->busy_fraction);
    fputs("</td></tr>\n", out);
}

static void put_bps_table(FILE *out, const struct iolens_bps *const *rows,
                          const struct iolens_bps_figures *f, size_t n)
{
    fputs("<table id=\"bps-table\">\n<tr><th>layer</th><th>bytes</th><th>accesses</th>"
          "<th>busy time T (s)</th><th>T lies within (s)</th><th>BPS (512 B blocks/s)</th><th>MiB/s over T</th>"
          "<th>access time, sum (s)</th><th>conventional MiB/s</th><th>T % of run time</th>"
          "</tr>\n",
          out);
    for (size_t i = 0; i < n; i++)
        put_bps_row(out, rows[i], &f[i]);
    fputs("</table>\n", out);
}

static void put_bps_chart(FILE *out, const struct iolens_bps *const *rows,
                          const struct iolens_bps_figures *f, size_t n)
{
    static const char *const series[] = {"BPS: bytes / busy time", "conventional: bytes / "
                                         "summed access time"};
    const char *cat[IOLENS_PERF_NLAYERS];
    double v[IOLENS_PERF_NLAYERS * 2];
    for (size_t i = 0; i < n; i++) {
        cat[i] = iolens_layer_name(rows[i]->kind);
        v[i * 2] = f[i].mib_per_s;
        v[i * 2 + 1] = f[i].conv_mib_per_s;
    }
    struct iolens_html_bars b = {.id = "bps-chart", .title = "BPS against conventional bandwidth",
                                 .unit = "MiB/s", .ncat = n, .nseries = 2, .cat = cat,
                                 .series = series, .values = v, .stacked = 0};
    iolens_html_bar_chart(out, &b);
}

int iolens_html_bps(struct iolens_html *h)
{
    struct iolens_bps_report r;
    if (iolens_bps_compute(h->log, &r) != 0)
        return -1;
    const struct iolens_bps *rows[IOLENS_PERF_NLAYERS];
    struct iolens_bps_figures f[IOLENS_PERF_NLAYERS];
    size_t n = 0;
    for (size_t i = 0; i < r.n && n < IOLENS_PERF_NLAYERS; i++) {
        if (r.rows[i].file_id != 0)
            continue;
        rows[n] = &r.rows[i];
        iolens_bps_derive(rows[n], IOLENS_HTML_BLOCK_SIZE, h->log->job.run_time, &f[n]);
        n++;
    }
    if (n == 0) {
        fputs("<p class=\"note\">The log has no access intervals, so there is no BPS figure "
              "(the runtime keeps them unless told not to).</p>\n",
              h->out);
    } else {
        fputs("<p class=\"note\">BPS divides the data by the time at least one access was "
              "under way (the union of the access intervals, overlaps counted once); the "
              "conventional figure divides it by the sum of the accesses' durations, which "
              "overlapping accesses inflate.</p>\n",
              h->out);
        put_bps_chart(h->out, rows, f, n);
        put_bps_table(h->out, rows, f, n);
    }
    iolens_bps_report_free(&r);
    return 0;
}
