/* The interval store: one per layer per process, inside the memory budget.
 * Every data access adds (start, end, bytes, file, read/write).  When the
 * store is full it compacts: intervals of the same file that overlap are
 * merged exactly, then the pairs of same-file neighbours with the smallest
 * gaps are merged until half the capacity is free, each merged gap added
 * to error_bound.  The union of the stored intervals (of the whole layer,
 * or of one file) therefore overestimates the true union by at most
 * error_bound.  Each interval keeps the summed durations of its accesses
 * (busy), and the store keeps by how much its accesses overlapped each
 * other (overlap: 0 for one thread's blocking calls), so that a reader
 * can bound the union from both sides and stays exact where the accesses
 * did not overlap (format/interval_union.h).  (Only if the store holds more files than room do
 * neighbours of different files merge, marked IOLENS_IV_MIXED: the layer's
 * union keeps the bound, that file's own figures lose those accesses.)
 * Appending is O(1).  A compaction first tries two O(n) passes in append
 * order (exact merges, then the smallest same-file gaps chosen by log2
 * buckets: within a factor of 2 of the smallest-gap rule), and sorts,
 * O(n log n), only if those could not reach the target (many interleaved
 * files); once per n/2 appends, so O(1) amortized in the common cases.
 * Nothing allocates after init. */
#ifndef IOLENS_INTERVAL_STORE_H
#define IOLENS_INTERVAL_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/spinlock.h"
#include "iolens/log_format.h"   /* IOLENS_IV_* flags */

struct iolens_interval {
    double start, end;          /* clock units while running, seconds once packed */
    uint64_t file_id;           /* record id of the file */
    int64_t bytes;              /* bytes requested, summed over merged accesses */
    uint32_t accesses;          /* accesses merged into this interval */
    uint32_t flags;             /* IOLENS_IV_* or'ed over merged accesses */
    double busy;                /* durations of the merged accesses, summed */
};

struct iolens_interval_store {
    struct iolens_interval *iv; /* capacity entries, from the budget */
    size_t capacity, count;
    struct iolens_interval *last; /* &iv[count - 1], NULL when empty: what
                                   * the arrival test reads first */
    double error_bound;         /* sum of merged gaps, clock units */
    uint64_t accesses;          /* every access ever added */
    int64_t bytes;              /* every byte ever requested */
    double sum_duration;        /* sum of individual access durations */
    double overlap;             /* time of accesses that lay before the latest
                                 * end seen: the store's accesses cover at least
                                 * sum_duration - overlap (see note_access) */
    double max_end;             /* latest end of an access added */
    uint64_t sort_compactions;  /* compactions that took the sort-based path */
    double absorb_upto;         /* gaps up to this (gap_hint's bucket and below:
                                 * the double just under the bucket's end)
                                 * merge on arrival; 0: overlaps and touching
                                 * accesses only.  So the arrival test is
                                 * one compare, a gap <= 0 passing it too */
    unsigned gap_hint;          /* 1 + gap bucket of the last O(n) merge, 0: none */
    _Atomic int lock;           /* taken only while the process has threads */
};
/* The thread stores' share of the budget counts this struct
 * (layer_intervals.c): the last pointer took the padding after gap_hint
 * and the lock, which now share a word, so that the share is as it was. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct iolens_interval_store) == 13 * 8, "the store's size is budgeted");
#endif

/* Sets the store up on memory of bytes (from the budget); capacity is what
 * fits (at least 4 entries, else the store is disabled: capacity 0). */
void iolens_interval_store_init(struct iolens_interval_store *s, void *mem, size_t bytes);
/* Adds one access (thread-safe). */
void iolens_interval_add(struct iolens_interval_store *s, double start, double end,
                         uint64_t file_id, int64_t bytes, uint32_t flags);
/* Counts one access in the store's totals.  overlap grows by the part of
 * [start, end] before the latest end seen so far: what is left of each
 * access is disjoint from every earlier one, so the accesses' union is at
 * least sum_duration - overlap, whatever the order they arrive in. */
static inline void iolens_interval_note_access(struct iolens_interval_store *s, double start,
                                               double end, int64_t bytes)
{
    s->accesses++;
    s->bytes += bytes;
    s->sum_duration += end - start;
    if (start < s->max_end)
        s->overlap += (end < s->max_end ? end : s->max_end) - start;
    if (end > s->max_end)
        s->max_end = end;
}

/* The common case of iolens_interval_add, inline and without the lock:
 * the access continues the latest entry's file, starts no earlier than
 * every access so far ended (max_end: so it overlaps none, and its gap to
 * the latest entry is >= 0), and the gap is one the store would merge on
 * arrival anyway (see absorbed_on_arrival in interval_store.c, which this
 * must agree with).  One thread's blocking calls always start so; an
 * access that overlaps an earlier one takes the call, which also counts
 * the overlap.  Returns 1 if it recorded the access, 0 if the caller must
 * call iolens_interval_add.  Only for a store no other thread can touch. */
static inline int iolens_interval_try_absorb(struct iolens_interval_store *s, double start,
                                             double end, uint64_t file_id, int64_t bytes,
                                             uint32_t flags)
{
    struct iolens_interval *last = s->last;
    if (last == NULL)
        return 0;
    double gap = start - last->end;
    if (last->file_id != file_id || !(start >= s->max_end) || !(end >= start) ||
        !(gap <= s->absorb_upto) || last->accesses == UINT32_MAX)
        return 0;
    /* gap >= 0 here (last->end <= max_end <= start): a gap of 0 adds 0 */
    s->error_bound += gap;
    last->end = end;
    last->bytes += bytes;
    last->busy += end - start;
    last->accesses++;
    last->flags |= flags;
    s->accesses++;
    s->bytes += bytes;
    s->sum_duration += end - start;
    s->max_end = end;           /* no overlap: start >= max_end */
    return 1;
}

/* iolens_interval_try_absorb for a store other threads may use: under
 * the store's lock if it is free at once, else 0 (the caller then calls
 * iolens_interval_add, which waits for it). */
static inline int iolens_interval_try_absorb_locked(struct iolens_interval_store *s,
                                                    double start, double end, uint64_t file_id,
                                                    int64_t bytes, uint32_t flags)
{
    if (!iolens_trylock(&s->lock))
        return 0;
    int done = iolens_interval_try_absorb(s, start, end, file_id, bytes, flags);
    iolens_unlock_always(&s->lock);
    return done;
}

/* Forgets everything (forked child). */
void iolens_interval_store_reset(struct iolens_interval_store *s);
/* Gives the intervals of file from to file to (a file folded whole into
 * <other files>); the caller holds the store's lock. */
void iolens_interval_store_rename(struct iolens_interval_store *s, uint64_t from, uint64_t to);
/* Compacts now (exposed for tests); keeps at most target entries. */
void iolens_interval_compact(struct iolens_interval_store *s, size_t target);

#endif
