/* Union length of access intervals: sort by start, then one sweep that
 * merges overlapping spans (see interval_union.h).
 *
 * The sort is an in-place introsort written for struct iolens_span:
 * comparisons are inlined (qsort's callback costs about half of the time
 * at 10^7 spans) and nothing is allocated, so the runtime may use it too. */
#include "format/interval_union.h"

#include <stdint.h>

#define INSERTION_MAX 16

static inline void swap_spans(struct iolens_span *a, struct iolens_span *b)
{
    struct iolens_span t = *a;
    *a = *b;
    *b = t;
}

static void insertion_sort(struct iolens_span *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct iolens_span x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].start > x.start; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static void sift_down(struct iolens_span *v, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && v[child].start < v[child + 1].start)
            child++;
        if (!(v[root].start < v[child].start))
            return;
        swap_spans(&v[root], &v[child]);
    }
}

/* The fallback that bounds the worst case to O(n log n). */
static void heap_sort(struct iolens_span *v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        swap_spans(&v[0], &v[end]);
        sift_down(v, 0, end);
    }
}

/* Hoare partition around the median of three; returns the split point p:
 * every v[0..p) <= every v[p..n). */
static size_t partition(struct iolens_span *v, size_t n)
{
    size_t mid = n / 2;
    if (v[mid].start < v[0].start)
        swap_spans(&v[mid], &v[0]);
    if (v[n - 1].start < v[0].start)
        swap_spans(&v[n - 1], &v[0]);
    if (v[n - 1].start < v[mid].start)
        swap_spans(&v[n - 1], &v[mid]);
    double pivot = v[mid].start;
    size_t i = 0, j = n - 1;
    for (;;) {
        while (v[i].start < pivot)
            i++;
        while (pivot < v[j].start)
            j--;
        if (i >= j)
            return j + 1;
        swap_spans(&v[i++], &v[j--]);
    }
}

/* Recurses on the smaller side only, so the stack stays O(log n). */
static void intro_sort(struct iolens_span *v, size_t n, unsigned depth)
{
    while (n > INSERTION_MAX) {
        if (depth-- == 0) {
            heap_sort(v, n);
            return;
        }
        size_t p = partition(v, n);
        if (p < n - p) {
            intro_sort(v, p, depth);
            v += p;
            n -= p;
        } else {
            intro_sort(v + p, n - p, depth);
            n = p;
        }
    }
    insertion_sort(v, n);
}

/* Moves spans that add nothing (end <= start, or a NaN, which would upset
 * the comparisons of the sort) to the tail; returns how many remain. */
static size_t drop_empty(struct iolens_span *v, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].end > v[i].start)
            swap_spans(&v[kept++], &v[i]);
    return kept;
}

double iolens_union_length(struct iolens_span *spans, size_t n)
{
    n = drop_empty(spans, n);
    unsigned depth = 0;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    intro_sort(spans, n, depth);
    return iolens_union_length_sorted(spans, n);
}

double iolens_union_length_sorted(const struct iolens_span *spans, size_t n)
{
    double total = 0.0, cur_start = 0.0, cur_end = 0.0;
    int open = 0;
    for (size_t i = 0; i < n; i++) {
        const struct iolens_span *s = &spans[i];
        if (!(s->end > s->start))
            continue;
        if (open && s->start <= cur_end) {
            if (s->end > cur_end)
                cur_end = s->end;
            continue;
        }
        if (open)
            total += cur_end - cur_start;
        cur_start = s->start;
        cur_end = s->end;
        open = 1;
    }
    return open ? total + (cur_end - cur_start) : total;
}
