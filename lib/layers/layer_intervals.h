/* The access intervals of this process: one interval store
 * (interval_store.h) per data layer (POSIX, STDIO, MPI-IO, H5D), for the
 * BPS metric of iolens-parser --bps.
 *
 * Memory.  The stores take up to a quarter of IOLENS_MEMORY, split
 * equally at start-up over the data layers that can see accesses in this
 * process: POSIX and STDIO unless switched off, MPI-IO in an MPI program,
 * H5D when built with HDF5; a layer switched off (IOLENS_DISABLE_LAYERS)
 * takes no share.  POSIX and STDIO take theirs from the budget at
 * start-up; MPI-IO and H5D when the program first opens a file through
 * them (iolens_intervals_take_store), so that a process that never does
 * leaves their share to its files' records.  With the default 2 MiB and
 * three layers that is 170 KiB, some 3600 intervals (48 bytes each) per
 * layer, before the first compaction (which merges the smallest same-file
 * gaps into the store's error bound; interval_store.h).  A store the
 * budget can no longer hold when its layer first opens a file is disabled
 * (it still counts accesses and bytes; "memory needed" shows the lack).
 *
 * What is recorded: one interval per data access that reached the layer's
 * bookkeeping, from the start of the call to its return (nonblocking
 * MPI-IO: from the issuing call to the completing one), with the bytes the
 * layer counts for it (POSIX and STDIO: the bytes moved, which is what was
 * requested unless the access was short, at end of file; MPI-IO and H5D:
 * the bytes requested) and IOLENS_IV_READ or IOLENS_IV_WRITE.  A failed
 * access is recorded with the bytes it requested and IOLENS_IV_FAILED too
 * (iolens_<layer>_failed_access): BPS counts every access. */
#ifndef IOLENS_LAYER_INTERVALS_H
#define IOLENS_LAYER_INTERVALS_H

#include <stddef.h>
#include <stdint.h>

#include "core/file_table.h"
#include "layers/interval_store.h"
#include "core/spinlock.h"   /* IOLENS_HAVE_LIBC_SINGLE_THREADED */

/* The fraction of IOLENS_MEMORY the stores take: 1 / this. */
#define IOLENS_INTERVAL_BUDGET_DIVISOR 4

/* Threads.  A store shared by threads would put its lock and its tail on
 * one cache line that every access of every thread writes: a convoy.  So
 * the process's main thread uses the layer's main store, and any other
 * thread that records an access gets one of IOLENS_INTERVAL_THREAD_STORES
 * stores per layer (round robin: more threads than that share them),
 * taken from the budget on first use, IOLENS_INTERVAL_THREAD_DIVISOR times
 * smaller than the main store.  If the budget refuses, the thread falls
 * back to the main store.  Packing merges a layer's stores. */
#define IOLENS_INTERVAL_THREAD_STORES 3
#define IOLENS_INTERVAL_THREAD_DIVISOR 8

/* Indexed by enum iolens_layer; the H5F store stays empty (capacity 0). */
extern struct iolens_interval_store iolens_layer_intervals[IOLENS_NLAYERS];

/* Start-up, after the budget exists and before the layers allocate:
 * takes the stores' share of the budget (memory is IOLENS_MEMORY). */
void iolens_intervals_init(size_t memory);

/* A library layer (MPI-IO, H5D) takes its main store, shared out at
 * start-up, when the program first opens a file through it: a process
 * that never does leaves that share to its records.  Call before the
 * layer records its first access; cheap once taken (one load).  A base
 * layer's store (POSIX, STDIO) was taken at start-up. */
void iolens_intervals_take_store(enum iolens_layer layer);

/* A forked child starts with empty stores. */
void iolens_intervals_reset(void);
/* The intervals a layer recorded for file from become file to's, in
 * every store of the layer (a file folded whole into <other files>,
 * layers/park_pool.h).  Not on the read/write path: a walk of the
 * stores, under each one's lock. */
void iolens_intervals_rename(enum iolens_layer layer, uint64_t from, uint64_t to);
/* Clears the stores' locks only (runtime.h: iolens_runtime_release_locks). */
void iolens_intervals_release_locks(void);

/* The store the calling thread records a layer's accesses in, when the
 * process has more than one thread. */
struct iolens_interval_store *iolens_intervals_thread_store(enum iolens_layer layer);

/* Records one access of a layer (t0, t1: iolens_now() readings).  Always
 * inlined: called last on the read/write path, where an out-of-line copy
 * cost a call and a second prologue on every access. */
static inline __attribute__((always_inline)) void
iolens_intervals_add(enum iolens_layer layer, double t0, double t1, uint64_t file_id,
                     int64_t bytes, uint32_t flags)
{
    struct iolens_interval_store *s = &iolens_layer_intervals[layer];
#ifdef IOLENS_HAVE_LIBC_SINGLE_THREADED
    if (__libc_single_threaded) {
        if (iolens_interval_try_absorb(s, t0, t1, file_id, bytes, flags))
            return;
    } else {
        s = iolens_intervals_thread_store(layer);
        if (iolens_interval_try_absorb_locked(s, t0, t1, file_id, bytes, flags))
            return;
    }
#else
    s = iolens_intervals_thread_store(layer);
    if (iolens_interval_try_absorb_locked(s, t0, t1, file_id, bytes, flags))
        return;
#endif
    iolens_interval_add(s, t0, t1, file_id, bytes, flags);
}

/* The same for a caller that knows the process has one thread
 * (iolens_single_threaded, core/spinlock.h): the layer's main store, no
 * lock. */
static inline __attribute__((always_inline)) void
iolens_intervals_add_alone(enum iolens_layer layer, double t0, double t1, uint64_t file_id,
                           int64_t bytes, uint32_t flags)
{
    struct iolens_interval_store *s = &iolens_layer_intervals[layer];
    if (!iolens_interval_try_absorb(s, t0, t1, file_id, bytes, flags))
        iolens_interval_add(s, t0, t1, file_id, bytes, flags);
}

/* ------------------------------------------------------------ packing -- */

/* One layer's intervals as the log stores them: times in seconds on the
 * log's time axis (shifted), in the store's order. */
struct iolens_intervals_packed {
    uint32_t region_kind;       /* IOLENS_REGION_POSIX ... of the layer */
    struct iolens_interval *iv; /* malloc'd, count entries */
    size_t count;
    double error_bound;         /* seconds */
    uint64_t accesses;
    int64_t bytes;
    double sum_duration;        /* seconds */
    double overlap;             /* seconds: the union of the accesses is at
                                 * least sum_duration - overlap */
};

/* Copies every data layer's store that is on (layers_off: bit per enum
 * iolens_layer; POSIX and STDIO always, MPI-IO and H5D when they saw an
 * access) into out[] (at most IOLENS_NLAYERS entries), times
 * converted to seconds and shift_seconds added (0 in a per-process log;
 * the process start minus the job start in an MPI job).  Returns the
 * number of layers filled, or -1 on allocation failure (nothing to free
 * then).  Free with iolens_intervals_packed_free. */
int iolens_intervals_pack(unsigned layers_off, double shift_seconds,
                          struct iolens_intervals_packed *out);
void iolens_intervals_packed_free(struct iolens_intervals_packed *p, int n);

#endif
