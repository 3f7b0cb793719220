/* The rules that turn one access into counter updates: size bins,
 * alignment, consecutive/sequential, common values and non-overlapping
 * time.  Pure functions on small structs, unit-tested on their own. */
#ifndef IOLENS_ACCESS_STATS_H
#define IOLENS_ACCESS_STATS_H

#include <stddef.h>
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

/* iolens's own rules (the <L>_PAT_CONSEC and <L>_PAT_SEQ counters):
 * consecutive, the access starts exactly where the previous one on the
 * same descriptor ended; sequential, it starts at or after that end.
 * prev_end is -1 when the descriptor has no previous access. */
static inline int iolens_is_consecutive(int64_t offset, int64_t prev_end)
{
    return prev_end >= 0 && offset == prev_end;
}
static inline int iolens_is_sequential(int64_t offset, int64_t prev_end)
{
    return prev_end >= 0 && offset >= prev_end;
}

/* Darshan's rules, for POSIX_CONSEC_*, POSIX_SEQ_* and POSIX_STRIDE*:
 * last is the last byte of the previous access of the same kind to the
 * file, 0 when there was none (Darshan starts from 0, so a first read at
 * offset 1 is consecutive, and one at any offset above 0 sequential).
 * The stride is the gap from last to the access, counted only when the
 * access starts past last and last is not 0; 0 means no stride. */
static inline int iolens_is_darshan_consecutive(int64_t offset, int64_t last)
{
    return offset == last + 1;
}
static inline int iolens_is_darshan_sequential(int64_t offset, int64_t last)
{
    return offset > last;
}
static inline int64_t iolens_darshan_stride(int64_t offset, int64_t last)
{
    return offset > 0 && offset > last && last != 0 ? offset - last - 1 : 0;
}

/* The extents of an n-dimensional access as Darshan keeps them in kept
 * counters: right-aligned, the last dimension in len[kept - 1], and only
 * the last kept dimensions of a higher rank; len[0 .. kept - ndims) are
 * left as they are (0). */
static inline void iolens_right_align_dims(const int64_t *extent, int ndims, int64_t *len,
                                           int kept)
{
    for (int i = ndims > kept ? ndims - kept : 0; i < ndims; i++)
        len[kept - ndims + i] = extent[i];
}

/* Bounded "most common values" counter (space-saving algorithm): every
 * distinct value gets a slot and an exact count while at most
 * IOLENS_COMMON_SLOTS distinct values were seen (as many as Darshan
 * tracks); afterwards a newcomer replaces the least frequent slot and
 * inherits its count (so heavy hitters are kept, with counts that are
 * upper bounds), and the summary says from then on that it estimates.
 * The first IOLENS_COMMON_INLINE slots, as many as the log's top tables
 * list, live in the record; most files never see more distinct sizes or
 * strides (fixed-size records, a buffer size and a last partial one), so
 * the other slots are only taken from the memory budget (budget.h) when a
 * file needs them: a record stays small and the budget holds more files.
 * If the budget has no room, the summary estimates beyond the inline
 * slots. */
#define IOLENS_COMMON_SLOTS 32
#define IOLENS_COMMON_INLINE 4
struct iolens_common_ext {
    int64_t value[IOLENS_COMMON_SLOTS];
    int64_t count[IOLENS_COMMON_SLOTS];
};
struct iolens_common_values {
    int64_t value[IOLENS_COMMON_INLINE];
    int64_t count[IOLENS_COMMON_INLINE];
    struct iolens_common_ext *ext; /* every slot, once the inline ones were
                                    * outgrown; NULL before */
    /* Bytes: at most IOLENS_COMMON_SLOTS slots, and the struct is in
     * every POSIX and MPI-IO record, where each byte is a byte a file. */
    uint8_t used;
    uint8_t last;       /* slot of the value added last (a memo; 0 when unused) */
    uint8_t estimated;  /* 1 once a value was given up: counts are estimates */
    uint8_t no_ext;     /* the budget had no room for ext: do not ask again */
};
_Static_assert(IOLENS_COMMON_SLOTS <= UINT8_MAX, "slot numbers fit in a byte");
/* The slots in use: value i and its count. */
static inline int64_t *iolens_common_values_of(struct iolens_common_values *cv)
{
    return cv->ext != NULL ? cv->ext->value : cv->value;
}
static inline int64_t *iolens_common_counts_of(struct iolens_common_values *cv)
{
    return cv->ext != NULL ? cv->ext->count : cv->count;
}
static inline const int64_t *iolens_common_cvalues_of(const struct iolens_common_values *cv)
{
    return cv->ext != NULL ? cv->ext->value : cv->value;
}
static inline const int64_t *iolens_common_ccounts_of(const struct iolens_common_values *cv)
{
    return cv->ext != NULL ? cv->ext->count : cv->count;
}
/* Counts one occurrence of value.  Inline fast path: the same value as
 * the previous call (the usual case: fixed-size accesses, fixed strides)
 * is one compare; anything else takes the out-of-line search. */
void iolens_common_add_search(struct iolens_common_values *cv, int64_t value);
/* Whether value is the one counted last; then counting it again is
 * iolens_common_count_last (what iolens_common_add does). */
static inline int iolens_common_is_last(const struct iolens_common_values *cv, int64_t value)
{
    unsigned last = cv->last;
    return last < cv->used && iolens_common_cvalues_of(cv)[last] == value;
}
static inline void iolens_common_count_last(struct iolens_common_values *cv, int64_t n)
{
    iolens_common_counts_of(cv)[cv->last] += n;
}
static inline void iolens_common_add(struct iolens_common_values *cv, int64_t value)
{
    if (__builtin_expect(iolens_common_is_last(cv, value), 1))
        iolens_common_count_last(cv, 1);
    else
        iolens_common_add_search(cv, value);
}
/* Writes the top n (n <= IOLENS_COMMON_SLOTS) values and counts, most
 * frequent first, ties broken by larger value first; unused slots get 0.
 * Returns how exact they are: IOLENS_TOP_ESTIMATE once the summary gave a
 * value up, else IOLENS_TOP_EXACT when it holds more than n values, else
 * IOLENS_TOP_EXACT_ALL (log_format.h).  Callers hold the record's lock:
 * the slots beyond the inline ones are not part of a copy of the struct. */
int iolens_common_top(const struct iolens_common_values *cv, int n, int64_t *values,
                      int64_t *counts);
/* Merges src into dst (used when folding records): exact while the union
 * of their values fits, else the least frequent values are given up and
 * dst is marked estimated. */
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
