/* Bounds of the union of access time (see interval_bounds.h): two sorts
 * (starts, ends), a counting sort by group and three sweeps, O(n log n). */
#include "analysis/interval_bounds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct iolens_union_item item;

static int by_start(const void *a, const void *b)
{
    const item *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

struct end_at {
    double end;
    size_t at;                 /* index in the start-sorted items */
};

static int by_end(const void *a, const void *b)
{
    const struct end_at *x = a, *y = b;
    return (x->end > y->end) - (x->end < y->end);
}

static double span_of(const item *it) { return it->end - it->start; }

/* busy, but never more than the span it lies in (rounding of the log's
 * nanoseconds can make it a little more). */
static double busy_in(const item *it)
{
    double span = span_of(it);
    return it->busy < span ? it->busy : span;
}

static double density(const item *it)
{
    double span = span_of(it);
    return span > 0 ? busy_in(it) / span : 0.0;
}

/* Drops items that add nothing or would upset the sorts (NaN, end <=
 * start, a group out of range), and negative busy times. */
static size_t keep_valid(item *v, size_t n, size_t ngroups)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(v[i].end > v[i].start) || v[i].group >= ngroups)
            continue;
        if (!(v[i].busy > 0))
            v[i].busy = 0;
        v[kept++] = v[i];
    }
    return kept;
}

/* The lower bound (see interval_union.h); v sorted by group and start. */
static double lower_bound(const item *v, size_t n, const struct iolens_union_group *groups,
                          double spans, double error_bound)
{
    double sum_lower = 0, max_lower = 0, sum_spans = 0;
    for (size_t i = 0; i < n;) {
        size_t g = v[i].group;
        double busy = 0, group_spans = 0, cur_start = v[i].start, cur_end = v[i].end;
        for (; i < n && v[i].group == g; i++) {
            busy += busy_in(&v[i]);
            if (v[i].start > cur_end) {
                group_spans += cur_end - cur_start;
                cur_start = v[i].start;
            }
            if (v[i].end > cur_end)
                cur_end = v[i].end;
        }
        group_spans += cur_end - cur_start;
        double floor = groups[g].floor > 0 ? groups[g].floor : 0;
        double lower = groups[g].disjoint && busy > floor ? busy : floor;
        if (lower > group_spans)
            lower = group_spans;
        sum_lower += lower;
        sum_spans += group_spans;
        if (lower > max_lower)
            max_lower = lower;
    }
    double best = spans - error_bound;
    if (max_lower > best)
        best = max_lower;
    if (sum_lower - (sum_spans - spans) > best)
        best = sum_lower - (sum_spans - spans);
    return best > 0 ? best : 0;
}

/* The union of the spans and the upper bound; v sorted by start. */
static void upper_bound(const item *v, size_t n, double *spans, double *upper)
{
    *spans = 0;
    *upper = 0;
    size_t i = 0;
    while (i < n) {
        double start = v[i].start, end = v[i].end, busy = 0;
        for (; i < n && v[i].start <= end; i++) {
            busy += busy_in(&v[i]);
            if (v[i].end > end)
                end = v[i].end;
        }
        *spans += end - start;
        *upper += busy < end - start ? busy : end - start;
    }
}

/* The sweep of the estimate: the product of (1 - density) over what is
 * busy, as a count of zero factors and a sum of logs of the others. */
struct sweep {
    double *group_density;     /* disjoint groups: densities active, summed */
    size_t *group_active;
    size_t zeros, active;
    double log_sum;
};

static void factor(struct sweep *w, double f, int sign)
{
    if (f < 1e-12)
        w->zeros = sign > 0 ? w->zeros + 1 : w->zeros - 1;
    else
        w->log_sum += sign * log(f);
}

/* Item it starts (sign 1) or ends (-1). */
static void sweep_step(struct sweep *w, const item *it, const struct iolens_union_group *groups,
                       int sign)
{
    w->active = sign > 0 ? w->active + 1 : w->active - 1;
    if (!groups[it->group].disjoint) {
        factor(w, 1 - density(it), sign);
    } else {
        double *d = &w->group_density[it->group];
        factor(w, 1 - (*d < 1 ? *d : 1), -1);
        size_t *a = &w->group_active[it->group];
        *a = sign > 0 ? *a + 1 : *a - 1;
        *d = *a == 0 ? 0 : *d + sign * density(it);
        factor(w, 1 - (*d < 1 ? *d : 1), 1);
    }
    if (w->active == 0) {      /* a clean start: no drift carried over */
        w->zeros = 0;
        w->log_sum = 0;
    }
}

/* Items sorted by start into group order, start order kept within each
 * group: a counting sort, O(n + ngroups).  0, or -1 when out of memory. */
static int group_items(item *v, size_t n, size_t ngroups)
{
    size_t *next = calloc(ngroups + 1, sizeof *next);
    item *out = malloc(n * sizeof *out);
    if (next == NULL || out == NULL) {
        free(next);
        free(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        next[v[i].group + 1]++;
    for (size_t g = 1; g <= ngroups; g++)
        next[g] += next[g - 1];
    for (size_t i = 0; i < n; i++)
        out[next[v[i].group]++] = v[i];
    memcpy(v, out, n * sizeof *v);
    free(out);
    free(next);
    return 0;
}

/* v sorted by start. */
static int estimate(const item *v, size_t n, const struct iolens_union_group *groups,
                    size_t ngroups, double *out)
{
    struct end_at *ends = malloc((n > 0 ? n : 1) * sizeof *ends);
    struct sweep w = {calloc(ngroups > 0 ? ngroups : 1, sizeof(double)),
                      calloc(ngroups > 0 ? ngroups : 1, sizeof(size_t)), 0, 0, 0};
    if (ends == NULL || w.group_density == NULL || w.group_active == NULL) {
        free(ends);
        free(w.group_density);
        free(w.group_active);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        ends[i] = (struct end_at){v[i].end, i};
    qsort(ends, n, sizeof *ends, by_end);
    double total = 0, t = n > 0 ? v[0].start : 0;
    size_t s = 0, e = 0;
    while (e < n) {
        int starting = s < n && v[s].start < ends[e].end;
        double next = starting ? v[s].start : ends[e].end;
        if (w.active > 0 && next > t)
            total += (next - t) * (1 - (w.zeros > 0 ? 0 : exp(w.log_sum)));
        t = next;
        if (starting)
            sweep_step(&w, &v[s++], groups, 1);
        else
            sweep_step(&w, &v[ends[e++].at], groups, -1);
    }
    free(ends);
    free(w.group_density);
    free(w.group_active);
    *out = total;
    return 0;
}

int iolens_union_bounds(struct iolens_union_item *items, size_t n,
                        const struct iolens_union_group *groups, size_t ngroups,
                        double error_bound, struct iolens_union_bounds *out)
{
    *out = (struct iolens_union_bounds){0};
    n = keep_valid(items, n, ngroups);
    if (n == 0)
        return 0;
    double spans, upper, est;
    qsort(items, n, sizeof *items, by_start);
    upper_bound(items, n, &spans, &upper);
    if (estimate(items, n, groups, ngroups, &est) != 0 || group_items(items, n, ngroups) != 0)
        return -1;
    double lower = lower_bound(items, n, groups, spans, error_bound > 0 ? error_bound : 0);
    if (lower > upper)         /* only by rounding */
        lower = upper;
    out->spans = spans;
    out->lower = lower;
    out->upper = upper;
    out->estimate = est < lower ? lower : est > upper ? upper : est;
    return 0;
}
