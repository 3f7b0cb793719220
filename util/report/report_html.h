/* iolens-report: one self-contained HTML page about a log (iolens-report(1)).
 * No scripts, no external resources: charts are inline SVG, and a strict
 * Content-Security-Policy keeps the page from loading anything.
 *
 *   tools/iolens-report.c         the command line
 *   report_html.c          the document: head, style, sections in order
 *   report_html_escape.c   HTML text and number formatting
 *   report_html_svg.c      SVG primitives and the bar chart
 *   report_html_tables.c   job summary and the --perf figures
 *   report_html_patterns.c pattern and sharing tables, the largest files
 *   report_html_charts.c   cost per layer, access sizes, BPS figures
 *   report_html_heatmap.c  per-rank time-series heat map
 *   report_html_advice.c   the advice findings
 *   report_html_sites.c    the call sites of the busiest files
 * Each section function writes to out and returns 0, or -1 when out of
 * memory. */
#ifndef IOLENS_REPORT_HTML_H
#define IOLENS_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/perf.h"
#include "reader/reader.h"

/* Time bins of the heat map unless --bins says otherwise. */
#define IOLENS_HTML_DEFAULT_BINS 60
#define IOLENS_HTML_MAX_BINS 1000
/* Rows of the heat map at most: more ranks share a row. */
#define IOLENS_HTML_MAX_ROWS 256
/* Block size of the BPS figures (iolens-parser --bps' default). */
#define IOLENS_HTML_BLOCK_SIZE 512

struct iolens_advice_thresholds;
struct iolens_html_options {
    int bins;                 /* heat map time bins */
    const struct iolens_advice_thresholds *thresholds;  /* NULL: advice.h's defaults */
    const char *debug_dir;    /* where call sites' separate debug files also are, or NULL */
};

struct iolens_site_resolver;

struct iolens_html {
    FILE *out;
    const struct iolens_log *log;
    struct iolens_html_options opt;
    struct iolens_perf perf;
    struct iolens_site_resolver *sites;   /* resolves call sites (site_resolve.h) */
};

/* The whole page.  0, or -1 when out of memory. */
int iolens_html_report(FILE *out, const struct iolens_log *log,
                       const struct iolens_html_options *opt);

/* ---- report_html_escape.c ---- */
/* s[0..len) as HTML text (also safe inside a quoted attribute): & < > " '
 * as references, bytes outside well-formed UTF-8 as U+FFFD, control
 * characters as their Control Pictures (U+2400...), so a name stays
 * readable and the page stays valid. */
void iolens_html_text(FILE *out, const char *s, size_t len);
void iolens_html_cstr(FILE *out, const char *s);
/* A figure as iolens-parser --perf prints it: "%.6f", "-" for NaN, "inf". */
void iolens_html_perf_real(FILE *out, double v);
/* A figure for a chart label: 4 significant digits, "-" if not finite. */
void iolens_html_short(FILE *out, double v);
/* A byte count with a binary unit ("1.5 MiB"). */
void iolens_html_bytes(FILE *out, double bytes);

/* ---- report_html_svg.c ---- */
/* A horizontal bar chart: a row of bars per category, one bar per series
 * (grouped) or the series end to end (stacked).  values[c * nseries + s]. */
struct iolens_html_bars {
    const char *id;           /* id of the svg element */
    const char *title;        /* accessible name */
    const char *unit;         /* axis unit ("s", "MiB/s", "accesses") */
    size_t ncat, nseries;
    const char *const *cat;   /* category labels */
    const char *const *series;
    const double *values;
    int stacked;
};
void iolens_html_bar_chart(FILE *out, const struct iolens_html_bars *b);
/* Colour of series s (a fixed palette). */
const char *iolens_html_series_colour(size_t s);
/* Heat colour of t in [0, 1] as "#rrggbb" into buf (8 bytes). */
void iolens_html_heat_colour(double t, char *buf);

/* ---- sections ---- */
int iolens_html_summary(struct iolens_html *h);
int iolens_html_cost(struct iolens_html *h);
int iolens_html_heatmap(struct iolens_html *h);
int iolens_html_sizes(struct iolens_html *h);
int iolens_html_patterns(struct iolens_html *h);
int iolens_html_bps(struct iolens_html *h);
int iolens_html_advice(struct iolens_html *h);
int iolens_html_sites(struct iolens_html *h);

/* Opens a section: <section id="ID"><h2>TITLE</h2>. */
void iolens_html_section_begin(FILE *out, const char *id, const char *title);
void iolens_html_section_end(FILE *out);

#endif
