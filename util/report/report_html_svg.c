/* SVG pieces of iolens-report: the horizontal bar chart every chart but
 * the heat map uses, the series palette and the heat colour scale.  All
 * geometry is in SVG user units; the page scales the svg to its width. */
#include <math.h>
#include <string.h>

#include "report/report_html.h"

#define CHART_W 900.0
#define LABEL_W 170.0           /* category labels, left */
#define VALUE_W 90.0            /* value labels after the longest bar */
#define LEGEND_H 26.0
#define AXIS_H 34.0
#define BAR_H 14.0
#define GROUP_GAP 10.0

const char *iolens_html_series_colour(size_t s)
{
    /* distinguishable also in grey scale and for the common colour
     * vision deficiencies (Okabe-Ito) */
    static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73",
                                          "#CC79A7", "#56B4E9", "#D55E00"};
    return palette[s % (sizeof palette / sizeof palette[0])];
}

/* Perceptually ordered scale from pale yellow (little) to dark purple
 * (most), by linear interpolation between a few stops. */
void iolens_html_heat_colour(double t, char *buf)
{
    static const double stop[][3] = {
        {255, 255, 204}, {254, 217, 118}, {253, 141, 60}, {227, 26, 28}, {128, 0, 38}, {45, 0, 75},
    };
    const int n = (int)(sizeof stop / sizeof stop[0]) - 1;
    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    double pos = t * n;
    int i = (int)pos;
    if (i >= n)
        i = n - 1;
    double f = pos - i;
    int rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = (int)lround(stop[i][c] + f * (stop[i + 1][c] - stop[i][c]));
    snprintf(buf, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static double value_at(const struct iolens_html_bars *b, size_t c, size_t s)
{
    double v = b->values[c * b->nseries + s];
    return isfinite(v) && v > 0 ? v : 0;
}

static double largest(const struct iolens_html_bars *b)
{
    double m = 0;
    for (size_t c = 0; c < b->ncat; c++) {
        double sum = 0;
        for (size_t s = 0; s < b->nseries; s++) {
            double v = value_at(b, c, s);
            sum += v;
            if (!b->stacked && v > m)
                m = v;
        }
        if (b->stacked && sum > m)
            m = sum;
    }
    return m;
}

/* Smallest 1, 2 or 5 times a power of ten that makes at most 5 ticks. */
static double tick_step(double max)
{
    if (!(max > 0))
        return 1;
    double raw = max / 5;
    double p = pow(10, floor(log10(raw)));
    if (raw <= p)
        return p;
    if (raw <= 2 * p)
        return 2 * p;
    if (raw <= 5 * p)
        return 5 * p;
    return 10 * p;
}

static double group_height(const struct iolens_html_bars *b)
{
    return (b->stacked ? BAR_H + 4 : b->nseries * BAR_H) + GROUP_GAP;
}

static void put_legend(FILE *out, const struct iolens_html_bars *b)
{
    double x = LABEL_W;
    for (size_t s = 0; s < b->nseries; s++) {
        fprintf(out, "<rect x=\"%.1f\" y=\"6\" width=\"12\" height=\"12\" fill=\"%s\"/>", x,
                iolens_html_series_colour(s));
        fprintf(out, "<text x=\"%.1f\" y=\"16\">", x + 16);
        iolens_html_cstr(out, b->series[s]);
        fputs("</text>", out);
        x += 40 + 7.5 * (double)strlen(b->series[s]);
    }
}

static void put_axis(FILE *out, const struct iolens_html_bars *b, double scale, double step,
                     double top, double bottom)
{
    double plot_w = CHART_W - LABEL_W - VALUE_W;
    for (double v = 0; v * scale <= plot_w + 0.01; v += step) {
        double x = LABEL_W + v * scale;
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x,
                top, x, bottom);
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
                bottom + 14);
        iolens_html_short(out, v);
        fputs("</text>", out);
    }
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            LABEL_W + plot_w / 2, bottom + 30);
    iolens_html_cstr(out, b->unit);
    fputs("</text>", out);
}

static void put_bar(FILE *out, const struct iolens_html_bars *b, size_t c, size_t s, double x,
                    double y, double w, double h)
{
    fprintf(out, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                 "fill=\"%s\"><title>",
            x, y, w, h, iolens_html_series_colour(s));
    iolens_html_cstr(out, b->cat[c]);
    fputs(", ", out);
    iolens_html_cstr(out, b->series[s]);
    fputs(": ", out);
    iolens_html_short(out, b->values[c * b->nseries + s]);
    fputc(' ', out);
    iolens_html_cstr(out, b->unit);
    fputs("</title></rect>", out);
}

static void put_value_label(FILE *out, double x, double y, double v)
{
    fprintf(out, "<text class=\"val\" x=\"%.2f\" y=\"%.2f\">", x + 4, y);
    iolens_html_short(out, v);
    fputs("</text>", out);
}

static void put_group(FILE *out, const struct iolens_html_bars *b, size_t c, double y,
                      double scale)
{
    fprintf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6,
            y + (group_height(b) - GROUP_GAP) / 2 + 4);
    iolens_html_cstr(out, b->cat[c]);
    fputs("</text>", out);
    double x = LABEL_W, sum = 0;
    for (size_t s = 0; s < b->nseries; s++) {
        double v = value_at(b, c, s), w = v * scale;
        if (b->stacked) {
            put_bar(out, b, c, s, x, y, w, BAR_H + 4);
            x += w;
            sum += v;
        } else {
            put_bar(out, b, c, s, LABEL_W, y + s * BAR_H, w, BAR_H - 2);
            if (v > 0)   /* a row of "0" labels would only hide the bars that matter */
                put_value_label(out, LABEL_W + w, y + s * BAR_H + BAR_H - 4,
                                b->values[c * b->nseries + s]);
        }
    }
    if (b->stacked)
        put_value_label(out, x, y + BAR_H, sum);
}

void iolens_html_bar_chart(FILE *out, const struct iolens_html_bars *b)
{
    double plot_w = CHART_W - LABEL_W - VALUE_W;
    double step = tick_step(largest(b));
    double axis_max = step * ceil(largest(b) / step);
    if (!(axis_max > 0))
        axis_max = step;
    double scale = plot_w / axis_max;
    double top = LEGEND_H, bottom = top + (double)b->ncat * group_height(b);
    double height = bottom + AXIS_H;
    fprintf(out, "<svg id=\"%s\" class=\"chart\" role=\"img\" viewBox=\"0 0 %.0f %.0f\" "
                 "width=\"%.0f\" height=\"%.0f\"><title>",
            b->id, CHART_W, height, CHART_W, height);
    iolens_html_cstr(out, b->title);
    fputs("</title>", out);
    put_legend(out, b);
    put_axis(out, b, scale, step, top, bottom);
    for (size_t c = 0; c < b->ncat; c++)
        put_group(out, b, c, top + (double)c * group_height(b), scale);
    fputs("</svg>\n", out);
}
