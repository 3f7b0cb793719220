/* The STDIO layer's stream tables: the slot a FILE pointer has, where
 * its record, tracked position and buffer marks are kept.
 *
 * Open addressing keyed by the FILE pointer, linear probing, tombstones
 * on close.  The first table is made at start-up, sized by the budget
 * (1024 slots, fewer when the budget is small); when the tables made are
 * at their cap, another of the same size comes from the budget, up to
 * IOLENS_STDIO_MAX_TABLES.  Each table fills at most three quarters of its
 * slots (streams and tombstones), so that probes stay short: a lookup that
 * misses (a stream of a later table, an untraced one) probes until an
 * empty slot, 8.5 slots on average at that load, every slot of a full
 * table.
 *
 * A stream no table has room for (the budget holds no more) counts in
 * <other files> through one static slot, the overflow slot, found through
 * a bitmap indexed by the stream's descriptor, so that binding it needs no
 * memory.  Its streams share its position, and their buffers are not
 * watched (stdio_buffer.h).
 *
 * Lookups are lock-free loads; claiming and releasing slots, which change
 * the tables, are done under the tables' lock (iolens_stdio_streams_lock),
 * taken by opening and closing only.  What a slot is bound to is the
 * layer's business (stdio_layer.c). */
#ifndef IOLENS_STDIO_STREAMS_H
#define IOLENS_STDIO_STREAMS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "layers/stdio_buffer.h"

struct iolens_stdio_rec;

struct iolens_stdio_stream {
    _Atomic uintptr_t key;         /* the FILE pointer, or IOLENS_STDIO_SLOT_* */
    struct iolens_stdio_rec *rec;  /* of its file, or <other files>' */
    _Atomic int64_t pos;           /* tracked position */
    int append;                    /* opened in an "a" mode */
    /* The stream's buffer pointers when iolens last looked (after the
     * last wrapped call on it): what inline code moved since is counted
     * at the next look (stdio_buffer.h).  Not kept for the overflow slot,
     * which many streams share. */
    struct iolens_stdio_marks seen;
};

#define IOLENS_STDIO_SLOT_EMPTY ((uintptr_t)0)
#define IOLENS_STDIO_SLOT_TOMB ((uintptr_t)1)
#define IOLENS_STDIO_MAX_TABLES 8

/* Read on every lookup; set once at start-up (tables_first NULL: no table,
 * nothing is tracked), ntables and overflow_used as they grow.  Declared
 * hidden, as they are defined, so that the lookup inlined into the
 * read/write path loads them directly rather than through their address
 * (one instruction less for each). */
#define IOLENS_STDIO_HIDDEN __attribute__((visibility("hidden")))
extern IOLENS_STDIO_HIDDEN struct iolens_stdio_stream *iolens_stdio_tables_first;
extern IOLENS_STDIO_HIDDEN size_t iolens_stdio_slot_mask;   /* slots per table - 1 */
extern IOLENS_STDIO_HIDDEN unsigned iolens_stdio_slot_shift; /* 64 - log2(slots per table) */
extern IOLENS_STDIO_HIDDEN _Atomic unsigned iolens_stdio_ntables;
extern IOLENS_STDIO_HIDDEN _Atomic int iolens_stdio_overflow_used;
extern IOLENS_STDIO_HIDDEN struct iolens_stdio_stream iolens_stdio_overflow_slot;

/* FILE pointers of a program's streams mostly lie at one stride (the
 * FILE and its buffer), with some other allocations between.  Multiplying
 * alone spread such a run over the slots in a pattern that filled up in
 * long clusters: with mawk's 3,000 streams, a lookup that missed probed
 * 34 slots on average instead of about 8.  Folding higher bits in first
 * breaks the pattern. */
static inline size_t iolens_stdio_home_of(FILE *stream)
{
    uintptr_t p = (uintptr_t)stream;
    uint64_t h = ((p >> 4) ^ (p >> 16)) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> iolens_stdio_slot_shift);
}

/* Lock-free: stream's slot in table, or NULL.  Usually the home slot or
 * the next ones. */
static inline struct iolens_stdio_stream *iolens_stdio_find_in(struct iolens_stdio_stream *table,
                                                               FILE *stream)
{
    size_t mask = iolens_stdio_slot_mask;
    size_t i = iolens_stdio_home_of(stream);
    for (size_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uintptr_t key = atomic_load_explicit(&table[i].key, memory_order_acquire);
        if (key == (uintptr_t)stream)
            return &table[i];
        if (key == IOLENS_STDIO_SLOT_EMPTY)
            break;
    }
    return NULL;
}

/* Out of line: the tables after the first, then the overflow slot. */
struct iolens_stdio_stream *iolens_stdio_find_later(FILE *stream);

/* A stream the first table does not hold: its slot in a later one, the
 * overflow slot if it is bound there, else NULL (not tracked).  The
 * usual process, with one table and nothing on the overflow slot, makes
 * no call. */
static inline struct iolens_stdio_stream *iolens_stdio_find_untabled(FILE *stream)
{
    if (__builtin_expect(atomic_load_explicit(&iolens_stdio_ntables, memory_order_relaxed) > 1 ||
                             atomic_load_explicit(&iolens_stdio_overflow_used,
                                                  memory_order_relaxed),
                         0))
        return iolens_stdio_find_later(stream);
    return NULL;
}

/* Any stream's slot (the overflow slot included), or NULL. */
static inline struct iolens_stdio_stream *iolens_stdio_find_slot(FILE *stream)
{
    if (__builtin_expect(iolens_stdio_tables_first == NULL || stream == NULL, 0))
        return NULL;
    struct iolens_stdio_stream *s = iolens_stdio_find_in(iolens_stdio_tables_first, stream);
    return s != NULL ? s : iolens_stdio_find_untabled(stream);
}

/* Start-up: the first table, from the budget; 0 if there was no room. */
int iolens_stdio_streams_init(void);

void iolens_stdio_streams_lock(void);
/* Also what clears the lock in a forked child or at an abnormal end. */
void iolens_stdio_streams_unlock(void);

/* Under the lock.  stream's own slot (a FILE that libc closed behind our
 * back and reused: *stale set), else a free one in a table with room
 * (another table made if need be), else NULL.  A stale binding of its
 * descriptor on the overflow slot is dropped. */
struct iolens_stdio_stream *iolens_stdio_slot_claim(FILE *stream, int *stale);
/* Under the lock: slot, filled in, now holds stream (key stored last). */
void iolens_stdio_slot_publish(struct iolens_stdio_stream *slot, FILE *stream);
/* Under the lock: slot lets its stream go. */
void iolens_stdio_slot_release(struct iolens_stdio_stream *slot);

/* Under the lock: stream bound to the overflow slot; 0 when its
 * descriptor cannot be marked. */
int iolens_stdio_overflow_bind(FILE *stream);
/* Under the lock: stream no longer on the overflow slot. */
void iolens_stdio_overflow_unbind(FILE *stream);

/* Each slot holding a stream, in every table made (not the overflow
 * slot).  The key is read once: a stream closing meanwhile leaves its
 * table before libc frees it (iolens_stdio_close_begin). */
void iolens_stdio_streams_foreach(void (*fn)(struct iolens_stdio_stream *slot, FILE *stream,
                                             void *arg),
                                  void *arg);

#endif
