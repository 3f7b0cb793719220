/* A layer's records, live or parked.  A file's slot (file->layer_rec) holds
 * either its live record or, once nothing held it and the layer needed
 * room, its parked form (record_park.h).  The layer asks for a file's
 * record locked and live (iolens_pool_lock_live), which unparks it, and
 * counts the holds on it (open descriptors, a close in progress) in a
 * uint32_t of the record, changed under the record's lock: a record with
 * holds is never parked.
 *
 * Live records come from the budget until the pool holds `cap` of them
 * (an eighth of the budget by default); a pool that needs one more then
 * parks one idle record (the next in the record table after the last one
 * parked) and reuses its memory.  When nothing is idle it takes from the
 * budget beyond the cap.  So a program with fewer files than that never
 * parks anything, and past it a file at rest costs its packed form, about
 * a sixth of a live POSIX record.
 *
 * "Memory needed" (core/budget.h) counts a live record for every file:
 * at that budget nothing would have to be parked.  Parking one record
 * for each record needed keeps a run at any budget within that figure:
 * each park costs a packed form and saves a live record.
 *
 * A parked file revisited when no live record can be had (the budget is
 * full and no idle record can be parked: a record parked again has grown
 * since, and its packed form finds no room) is folded whole into <other
 * files>: its counts are merged into what <other files> gets at pack time
 * (iolens_pool_add_folded), its call sites into that record's, its access
 * intervals become that file's, its opens count as folded, and from then
 * on it is a file the budget refused.  So is a file one of whose
 * descriptors got no state, once it is idle (iolens_pool_fold_idle, which
 * the layer calls then).  So a file the log shows apart has
 * all of its calls, whatever the budget, and the totals stay exact.
 *
 * Locks: the pool's lock (make, park, unpark, the free records, the
 * blobs) is taken before a record's lock, never after; the read/write
 * path never takes it (the record it counts into is live, held by the
 * descriptor) and takes the record's lock as before.  Once the log
 * is being written (iolens_pool_read) nothing is parked any more, so a
 * live record read for the log stays live. */
#ifndef IOLENS_PARK_POOL_H
#define IOLENS_PARK_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"
#include "layers/layer_ops.h"
#include "layers/record_park.h"

struct iolens_file;

struct iolens_park_pool {
    /* Set by the layer before first use (iolens_pool_init). */
    enum iolens_layer layer;
    size_t rec_size;
    size_t lock_offset;       /* the record's _Atomic int lock */
    size_t holds_offset;      /* its uint32_t count of holds */
    size_t link_offset;       /* an 8-byte word only the layer's own
                               * calls write (the id): links free records */
    /* Fills a record for file (fresh: zero, or one parking freed), every
     * field but the lock and the holds. */
    void (*fill)(void *rec, struct iolens_file *file);
    /* Whether file's record must stay live (reserved entries). */
    int (*never_park)(const struct iolens_file *file);
    /* For folding a file whole: the layer's on-disk records
     * (format/record_merge.h), where its struct iolens_site_ref is, and
     * its pack (struct iolens_layer_ops), which gets a copy. */
    uint32_t region_kind;
    size_t sites_offset;
    int (*pack)(void *rec, void *out);
    /* The pool's own. */
    struct iolens_park_codec codec;
    struct iolens_park_store store;
    _Atomic int lock;
    void *free_recs;
    size_t live, cap;
    size_t hand;                  /* where the next search for an idle
                                   * record starts (iolens_file_next) */
    _Atomic uint64_t made;        /* records made afresh: files with one */
    uint64_t parks, unparks, folds;
    int frozen;
    int folded_any;               /* folded holds a record */
    _Alignas(8) unsigned char folded[IOLENS_LAYER_RECORD_MAX]; /* the files
                                   * folded whole, packed and merged */
};

/* Sets the pool up for records of rec_size bytes (its codec as well; the
 * layer then marks its doubles with iolens_park_mark_raw) and a cap of
 * cap live records (0: an eighth of the budget). */
void iolens_pool_init(struct iolens_park_pool *p, size_t cap);

/* file's record, live and locked (iolens_lock; *held as it returns):
 * unparked or made as needed.  NULL when the budget has no room. */
void *iolens_pool_lock_live(struct iolens_park_pool *p, struct iolens_file *file, int *held);

/* The pool's part of "memory needed" (core/budget.h): a live record for
 * every file that got one.  The pool's own allocations are not counted:
 * this is its whole demand, the same at every budget. */
uint64_t iolens_pool_demand(struct iolens_park_pool *p, uint64_t budget);

/* For the log: file's record to read, the live one or a copy of the
 * parked one in scratch (IOLENS_PARK_MAX_WORDS * 8 bytes, 16-aligned);
 * NULL if it has none.  Of a parked record only bytes [offset, offset +
 * bytes) are copied, the rest of scratch being zero (its lock free).
 * From the first call on, nothing is parked. */
void *iolens_pool_read(struct iolens_park_pool *p, struct iolens_file *file, void *scratch,
                       size_t offset, size_t bytes);

/* Folds file's live record whole, as a parked one is when it cannot be
 * made live again, if nothing holds it: for a file whose descriptor the
 * runtime could keep no state for (core/fd_table.h), whose calls on that
 * descriptor went to <other files>.  Returns whether it did.  Takes the
 * pool's lock: call it without a record's. */
int iolens_pool_fold_idle(struct iolens_park_pool *p, struct iolens_file *file);
/* The same whatever holds the record: for the log, which is written with
 * such a file's descriptor still open.  The record's memory is not
 * reused: the caller moves its holders to another record (the POSIX
 * layer's descriptors go to <other files>). */
int iolens_pool_fold_held(struct iolens_park_pool *p, struct iolens_file *file);

/* <other files>' record, packed into out (pack gave has), gets the
 * files folded whole.  Returns whether out now shows any activity.
 * Takes the pool's lock: call it without a record's. */
int iolens_pool_add_folded(struct iolens_park_pool *p, void *out, int has);

/* A forked child: every parked record passes through clear (a copy,
 * unpacked and packed again in place) as the live ones do, and the files
 * folded whole are forgotten (they stay folded). */
void iolens_pool_clear_parked(struct iolens_park_pool *p,
                              void (*clear)(void *rec, struct iolens_file *file));
/* A forked child, or an abnormal end: the pool's lock is cleared. */
void iolens_pool_release_lock(struct iolens_park_pool *p);

struct iolens_pool_stats {
    uint64_t live;            /* records taken from the budget */
    uint64_t cap;
    uint64_t parked;          /* records parked now */
    uint64_t parked_bytes;    /* their blobs' bytes */
    uint64_t parks, unparks;  /* since start-up */
    uint64_t folds;           /* parked files folded whole */
};
void iolens_pool_stats(struct iolens_park_pool *p, struct iolens_pool_stats *out);

#endif
