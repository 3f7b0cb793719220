/* The rules that turn one access into counter updates: size bins,
 * alignment, consecutive/sequential, common values and non-overlapping
 * time.  Pure functions on small structs, unit-tested on their own. */
#ifndef IOLENS_ACCESS_STATS_H
#define IOLENS_ACCESS_STATS_H

#include <stdint.h>

/* Index 0..9 of the histogram bin of an access of size bytes
 * (IOLENS_SIZE_BINS in log_format.h). */
int iolens_size_bin(int64_t size);

/* 1 if value is not a multiple of alignment (alignment <= 0 never counts). */
int iolens_is_misaligned(uint64_t value, int64_t alignment);

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
};
void iolens_common_add(struct iolens_common_values *cv, int64_t value);
/* Writes the top n (n <= IOLENS_COMMON_SLOTS) values and counts, most
 * frequent first, ties broken by larger value first; unused slots get 0. */
void iolens_common_top(const struct iolens_common_values *cv, int n,
                       int64_t *values, int64_t *counts);
/* Merges src into dst (used when folding and when reducing ranks). */
void iolens_common_merge(struct iolens_common_values *dst, const struct iolens_common_values *src);

/* Cumulative busy time where overlapping calls are counted once:
 * adds the part of [start, end] that lies after *last_end, then advances
 * *last_end.  Returns the updated total. */
double iolens_time_add_nonoverlap(double total, double *last_end, double start, double end);

#endif
