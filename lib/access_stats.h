/* The rules that turn one access into counter updates: size bins,
 * alignment, consecutive/sequential, common values and non-overlapping
 * time.  Pure functions on small structs, unit-tested on their own. */
#ifndef IOLENS_ACCESS_STATS_H
#define IOLENS_ACCESS_STATS_H

#include <stdint.h>

#include "iolens/log_format.h"

/* Index 0..9 of the histogram bin of an access of size bytes
 * (IOLENS_SIZE_BINS in log_format.h).  Inline, and the bounds are tried
 * from the smallest up: small accesses, the ones whose cost this adds to
 * most, take one comparison. */
#define IOLENS_SIZE_BIN_STEP_(name, upper) \
    if (size <= (int64_t)(upper))          \
        return bin;                        \
    bin++;
static inline int iolens_size_bin(int64_t size)
{
    int bin = 0;
    IOLENS_SIZE_BINS(IOLENS_SIZE_BIN_STEP_)
    return IOLENS_NSIZE_BINS - 1;
}
#undef IOLENS_SIZE_BIN_STEP_

/* 1 if value is not a multiple of alignment (alignment <= 0 never counts). */
int iolens_is_misaligned(uint64_t value, int64_t alignment);

/* The same test with its answer prepared once per alignment, for the
 * read/write path: iolens_align_mask(alignment) is alignment - 1 for a
 * power of two, 0 when alignment <= 0 (never counts), and -1 otherwise,
 * where iolens_is_misaligned_masked falls back to the division. */
static inline int64_t iolens_align_mask(int64_t alignment)
{
    if (alignment <= 0)
        return 0;
    return (alignment & (alignment - 1)) == 0 ? alignment - 1 : -1;
}
static inline int iolens_is_misaligned_masked(uint64_t value, int64_t mask, int64_t alignment)
{
    if (__builtin_expect(mask >= 0, 1))
        return (value & (uint64_t)mask) != 0;
    return value % (uint64_t)alignment != 0; /* mask -1: alignment > 0 */
}

/* Consecutive: the access starts exactly where the previous one on the
 * same descriptor ended.  Sequential: it starts at or after that end.
 * prev_end is -1 when the descriptor has no previous access. */
static inline int iolens_is_consecutive(int64_t offset, int64_t prev_end)
{
    return prev_end >= 0 && offset == prev_end;
}
static inline int iolens_is_sequential(int64_t offset, int64_t prev_end)
{
    return prev_end >= 0 && offset >= prev_end;
}

/* Bounded "most common values" counter (space-saving algorithm): exact
 * while at most IOLENS_COMMON_SLOTS distinct values were seen; afterwards
 * the least frequent slot is replaced, so heavy hitters are kept. */
#define IOLENS_COMMON_SLOTS 8
struct iolens_common_values {
    int64_t value[IOLENS_COMMON_SLOTS];
    int64_t count[IOLENS_COMMON_SLOTS];
    int used;
    int last;   /* slot of the value added last (a memo; 0 when unused) */
};
/* Counts one occurrence of value.  Inline fast path: the same value as
 * the previous call (the usual case: fixed-size accesses, fixed strides)
 * is one compare; anything else takes the out-of-line search. */
void iolens_common_add_search(struct iolens_common_values *cv, int64_t value);
/* Whether value is the one counted last; then counting it again is
 * cv->count[cv->last]++ (what iolens_common_add does). */
static inline int iolens_common_is_last(const struct iolens_common_values *cv, int64_t value)
{
    int last = cv->last;
    return (unsigned)last < (unsigned)cv->used && cv->value[last] == value;
}
static inline void iolens_common_add(struct iolens_common_values *cv, int64_t value)
{
    if (__builtin_expect(iolens_common_is_last(cv, value), 1))
        cv->count[cv->last]++;
    else
        iolens_common_add_search(cv, value);
}
/* Writes the top n (n <= IOLENS_COMMON_SLOTS) values and counts, most
 * frequent first, ties broken by larger value first; unused slots get 0. */
void iolens_common_top(const struct iolens_common_values *cv, int n,
                       int64_t *values, int64_t *counts);
/* Merges src into dst (used when folding and when reducing ranks). */
void iolens_common_merge(struct iolens_common_values *dst, const struct iolens_common_values *src);

/* Cumulative busy time where overlapping calls are counted once:
 * adds the part of [start, end] that lies after *last_end, then advances
 * *last_end.  Returns the updated total. */
static inline double iolens_time_add_nonoverlap(double total, double *last_end, double start,
                                                double end)
{
    if (end <= *last_end)
        return total;
    double from = start > *last_end ? start : *last_end;
    if (end > from)
        total += end - from;
    *last_end = end;
    return total;
}

/* First-event and last-event timestamps of a record (0 means "never"):
 * note_first keeps the first value written, note_earliest the smallest
 * (for operations accounted out of order, at completion), note_last the
 * largest. */
static inline void iolens_note_first(double *slot, double t)
{
    if (*slot == 0.0)
        *slot = t;
}

static inline void iolens_note_earliest(double *slot, double t)
{
    if (*slot == 0.0 || t < *slot)
        *slot = t;
}

static inline void iolens_note_last(double *slot, double t)
{
    if (t > *slot)
        *slot = t;
}

#endif
