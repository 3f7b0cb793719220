/* What the runtime core asks of every layer, through one table: start-up,
 * a forked child's fresh counts, releasing locks, the packed records for
 * the log, and whether there was any activity.  The core (runtime.c,
 * lib/log, lib/mpi) walks the table and never names a layer.
 *
 * Each layer's bookkeeping file defines its own entry with
 * IOLENS_LAYER_OPS; the linker gathers the entries of the files it was
 * given.  A layer not compiled in (MPI-IO without MPI, HDF5 without HDF5)
 * has no entry and is not walked.  Walks go in the order of enum
 * iolens_layer, whatever the link order.
 *
 * The walks over a layer's records (emit, reset, release) are shared
 * (layer_ops.c): a layer says where its records are (file->layer_rec),
 * where their lock is, and how to pack and clear one. */
#ifndef IOLENS_LAYER_OPS_H
#define IOLENS_LAYER_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/file_table.h"

/* Gets each packed record, in the layer's on-disk struct (log_format.h). */
typedef void (*iolens_record_fn)(const void *record, void *arg);

/* The largest on-disk record of any layer (checked by each entry). */
#define IOLENS_LAYER_RECORD_MAX 4096

/* Which logs carry the layer's region even when it has no records. */
enum {
    IOLENS_EMPTY_IN_PROCESS_LOG = 1u << 0,   /* log_writer.c */
    IOLENS_EMPTY_IN_JOB_LOG = 1u << 1,       /* mpi_runtime.c */
};

struct iolens_layer_ops {
    enum iolens_layer layer;      /* its slot in file->layer_rec */
    uint32_t region_kind;         /* IOLENS_REGION_*: its layer descriptor */
    unsigned empty_region;        /* IOLENS_EMPTY_IN_* */
    size_t lock_offset;           /* of the record's _Atomic int lock */
    /* Of the record's on-disk struct (log_format.h), for the shared
     * helpers of layer_ops.c.  A compact record that packs itself at
     * emit time (POSIX, MPI-IO) holds none: 0, and it never calls them. */
    size_t disk_offset;
    /* Of the record's struct iolens_site_ref (core/call_site.h),
     * which the log writer reads; 0: the layer keeps no call sites. */
    size_t sites_offset;
    /* Whether the layer of a library (not a base layer, log_format.h)
     * can see accesses in this process at all, asked when the interval
     * stores are shared out (layer_intervals.c).  NULL: always. */
    int (*can_record)(void);
    /* Start-up, after the budget and the file table exist.  NULL: none. */
    void (*init)(void);
    /* The layer's own locks beyond its records' (tables): cleared after
     * a fork or at an abnormal end.  NULL: none. */
    void (*release_locks)(void);
    /* A forked child: after every record was cleared (clear_record),
     * whatever else of the layer starts afresh.  NULL: nothing. */
    void (*reset)(void);
    /* Before the records are packed (bytes still in buffers).  NULL: none. */
    void (*before_pack)(void);
    /* Copies rec's on-disk record into out (id and times are set by the
     * caller), taking the record's lock; returns whether the record shows
     * any activity (one that does not is not written). */
    int (*pack)(void *rec, void *out);
    /* A forked child's record: counters afresh (the lock is cleared
     * already). */
    void (*clear_record)(void *rec, struct iolens_file *file);
    /* A layer whose slots may hold parked records (park_pool.h): file's
     * record to read for the log, the live one or a copy in scratch
     * (IOLENS_PARK_MAX_WORDS * 8 bytes) that need hold only bytes
     * [offset, offset + bytes), the rest zero.  The walks leave a parked
     * slot to the layer otherwise.  NULL: the slot's value is the
     * record. */
    void *(*read_record)(struct iolens_file *file, void *scratch, size_t offset, size_t bytes);
};

/* Defines a layer's entry: IOLENS_LAYER_OPS(posix_ops) = { ... };
 * The pointer to it goes into the section the walkers read. */
#define IOLENS_LAYER_OPS(name)                                                          \
    static const struct iolens_layer_ops name;                                          \
    __attribute__((used, section("iolens_layer_ops"))) static const struct iolens_layer_ops \
        *const name##_entry = &name;                                                    \
    static const struct iolens_layer_ops name

/* The entry of a layer, or NULL when it is not compiled in. */
const struct iolens_layer_ops *iolens_layer_ops_of(enum iolens_layer layer);
/* The entry of a region kind (IOLENS_REGION_*), or NULL. */
const struct iolens_layer_ops *iolens_layer_ops_of_kind(uint32_t region_kind);

/* Each in enum order over the layers compiled in. */
void iolens_layers_init(void);
void iolens_layers_reset(void);           /* a forked child */
/* The same for one layer (nothing when it is not compiled in). */
void iolens_layer_init(enum iolens_layer layer);
void iolens_layer_reset(enum iolens_layer layer);
void iolens_layers_release_locks(void);   /* runtime.h */
/* 1 if some layer has a record with activity. */
int iolens_layers_any_activity(void);

/* Every record of the layer with activity, packed, id set and times in
 * seconds (iolens_clock_seconds_per_unit).  Nothing for a layer not
 * compiled in. */
void iolens_layer_foreach_record(uint32_t region_kind, iolens_record_fn fn, void *arg);

/* The same for several layers in one walk over the files: a shutdown
 * with many files pays a cache miss per file and walk, not per layer. */
struct iolens_layer_walk {
    uint32_t region_kind;
    iolens_record_fn fn;
    void *arg;
};
/* also, if not NULL, is called on every file of the walk too (after its
 * records), with also_arg: another pass over the files in the same walk. */
void iolens_layers_foreach_record(const struct iolens_layer_walk *walks, unsigned n,
                                  void (*also)(struct iolens_file *file, void *arg),
                                  void *also_arg);

/* Copies the call sites (core/call_site.h) of file's record of the
 * layer of ops, under the record's lock: 1 if it has any, else 0. */
struct iolens_site_snapshot;
int iolens_layer_copy_sites(struct iolens_file *file, const struct iolens_layer_ops *ops,
                            struct iolens_site_snapshot *out);

/* A new record of file (the init function of iolens_file_layer_record):
 * the lock free, the on-disk id and rank set, the counters at their
 * "nothing happened" values (the entry's clear_record). */
void iolens_layer_record_init(const struct iolens_layer_ops *ops, void *rec,
                              struct iolens_file *file);
/* Zeroes the counters and fcounters of rec's on-disk struct (the id and
 * rank stay): where every clear_record starts. */
void iolens_layer_zero_counters(const struct iolens_layer_ops *ops, void *rec);

/* A successful close charged to rec (NULL: nothing), under its lock: the
 * earliest close start, the last close end (the descriptor's f_close_start
 * and f_close_end roles) and the call's time as metadata time (meta_time),
 * overlapping calls counted once (last_meta_end: the record's own). */
void iolens_layer_close_end(const struct iolens_layer_ops *ops, void *rec,
                            double *last_meta_end, double t0, double t1);

/* Whether any of counters[which[0..n)] is above 0: the layers' "has
 * activity" tests. */
int iolens_counters_any(const int64_t *counters, const int *which, size_t n);

#endif
