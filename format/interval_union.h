/* The union of access intervals: the time during which at least one access
 * was in progress (He, Sun and Yin's BPS metric).  Pure functions shared
 * by the runtime's tests and iolens-parser. */
#ifndef IOLENS_INTERVAL_UNION_H
#define IOLENS_INTERVAL_UNION_H

#include <stddef.h>

/* A bare [start, end] pair; end < start is treated as empty. */
struct iolens_span {
    double start, end;
};

/* Sorts spans by start (in place) and returns the length of their union.
 * O(n log n). */
double iolens_union_length(struct iolens_span *spans, size_t n);

/* The same for spans already sorted by start: O(n). */
double iolens_union_length_sorted(const struct iolens_span *spans, size_t n);

#endif
