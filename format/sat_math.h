/* Saturating arithmetic on counters: sums of a log's counters stop at
 * INT64_MAX (and INT64_MIN) instead of overflowing, as iolens-parser(1)
 * documents; the one copy for the record merge and every tool. */
#ifndef IOLENS_SAT_MATH_H
#define IOLENS_SAT_MATH_H

#include <stdint.h>

static inline int64_t iolens_sat_add(int64_t a, int64_t b)
{
    int64_t s;
    if (__builtin_add_overflow(a, b, &s))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return s;
}

static inline int64_t iolens_sat_sub(int64_t a, int64_t b)
{
    int64_t s;
    if (__builtin_sub_overflow(a, b, &s))
        return b < 0 ? INT64_MAX : INT64_MIN;
    return s;
}

static inline int64_t iolens_sat_mul(int64_t a, int64_t b)
{
    int64_t p;
    if (__builtin_mul_overflow(a, b, &p))
        return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return p;
}

#endif
