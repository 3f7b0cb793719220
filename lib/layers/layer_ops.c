/* The walks over the layer table (layer_ops.h) and over a layer's
 * records, and what every layer does the same way to one record.  None of
 * this is on the read/write path: it runs at start-up, at a close, after
 * a fork and when the log is written. */
#include "layers/layer_ops.h"

#include <stdatomic.h>
#include <string.h>

#include "core/call_site.h"
#include "core/clock.h"
#include "core/spinlock.h"
#include "format/record_merge.h"
#include "layers/access_stats.h"
#include "layers/record_park.h"

/* The entries the linker gathered (none: both NULL, an empty walk). */
extern const struct iolens_layer_ops *const __start_iolens_layer_ops[]
    __attribute__((weak, visibility("hidden")));
extern const struct iolens_layer_ops *const __stop_iolens_layer_ops[]
    __attribute__((weak, visibility("hidden")));

const struct iolens_layer_ops *iolens_layer_ops_of(enum iolens_layer layer)
{
    for (const struct iolens_layer_ops *const *e = __start_iolens_layer_ops;
         e != NULL && e < __stop_iolens_layer_ops; e++)
        if ((*e)->layer == layer)
            return *e;
    return NULL;
}

const struct iolens_layer_ops *iolens_layer_ops_of_kind(uint32_t region_kind)
{
    for (const struct iolens_layer_ops *const *e = __start_iolens_layer_ops;
         e != NULL && e < __stop_iolens_layer_ops; e++)
        if ((*e)->region_kind == region_kind)
            return *e;
    return NULL;
}

/* ------------------------------------------------- a layer's records -- */

/* The live record in file's slot; NULL if none (or parked, or refused). */
static void *record_in(const struct iolens_file *file, const struct iolens_layer_ops *ops)
{
    void *rec = atomic_load_explicit(&file->layer_rec[ops->layer], memory_order_acquire);
    return iolens_slot_is_live(rec) ? rec : NULL;
}

/* The record to read for the log: a parked one through its layer, of
 * which only bytes [offset, offset + bytes) are sure to be there. */
static void *record_to_read(struct iolens_file *file, const struct iolens_layer_ops *ops,
                            void *scratch, size_t offset, size_t bytes)
{
    if (ops->read_record != NULL)
        return ops->read_record(file, scratch, offset, bytes);
    return record_in(file, ops); /* a refused slot (a folded file) is not read */
}

static _Atomic int *lock_in(void *rec, const struct iolens_layer_ops *ops)
{
    return (_Atomic int *)(void *)((char *)rec + ops->lock_offset);
}

/* Copies the call sites of file's record of the layer into *out,
 * under the record's lock: 1 if it has any, else 0. */
int iolens_layer_copy_sites(struct iolens_file *file, const struct iolens_layer_ops *ops,
                            struct iolens_site_snapshot *out)
{
    _Alignas(16) unsigned char scratch[IOLENS_PARK_MAX_WORDS * 8u];
    /* Only the call sites: the counters were read for the layer's
     * region already. */
    void *rec = ops->sites_offset != 0 ? record_to_read(file, ops, scratch, ops->sites_offset,
                                                        sizeof(struct iolens_site_ref))
                                       : NULL;
    if (rec == NULL)
        return 0;
    const struct iolens_site_ref *ref =
        (const struct iolens_site_ref *)(const void *)((char *)rec + ops->sites_offset);
    _Atomic int *lock = lock_in(rec, ops);
    int held = iolens_lock(lock);
    int has = iolens_sites_snapshot(ref, out);
    iolens_unlock(lock, held);
    return has;
}

struct record_walk {
    const struct iolens_layer_ops *ops;
    const struct iolens_layer_desc *desc;
    iolens_record_fn fn;
    void *arg;
};

static void emit_file(struct iolens_file *file, void *arg)
{
    struct record_walk *w = arg;
    _Alignas(16) unsigned char scratch[IOLENS_PARK_MAX_WORDS * 8u];
    void *rec = record_to_read(file, w->ops, scratch, 0, sizeof scratch); /* all of it */
    if (rec == NULL)
        return;
    _Alignas(8) unsigned char out[IOLENS_LAYER_RECORD_MAX];
    if (!w->ops->pack(rec, out))
        return;
    memcpy(out, &file->id, sizeof file->id); /* the id is a record's first field */
    iolens_record_scale_times(w->desc, out, iolens_clock_seconds_per_unit());
    w->fn(out, w->arg);
}

struct layers_walk {
    struct record_walk w[IOLENS_NLAYERS];
    unsigned n;
    void (*also)(struct iolens_file *file, void *arg);
    void *also_arg;
};

static void emit_file_layers(struct iolens_file *file, void *arg)
{
    struct layers_walk *lw = arg;
    for (unsigned i = 0; i < lw->n; i++)
        emit_file(file, &lw->w[i]);
    if (lw->also != NULL)
        lw->also(file, lw->also_arg);
}

void iolens_layers_foreach_record(const struct iolens_layer_walk *walks, unsigned n,
                                  void (*also)(struct iolens_file *file, void *arg),
                                  void *also_arg)
{
    struct layers_walk lw = {.n = 0, .also = also, .also_arg = also_arg};
    for (unsigned i = 0; i < n && lw.n < IOLENS_NLAYERS; i++) {
        const struct iolens_layer_ops *ops = iolens_layer_ops_of_kind(walks[i].region_kind);
        if (ops == NULL)
            continue;
        lw.w[lw.n++] = (struct record_walk){ops, iolens_layer_desc_by_kind(walks[i].region_kind),
                                            walks[i].fn, walks[i].arg};
        if (ops->before_pack != NULL)
            ops->before_pack();
    }
    if (lw.n > 0 || also != NULL)
        iolens_file_foreach(emit_file_layers, &lw);
}

void iolens_layer_foreach_record(uint32_t region_kind, iolens_record_fn fn, void *arg)
{
    struct iolens_layer_walk w = {region_kind, fn, arg};
    iolens_layers_foreach_record(&w, 1, NULL, NULL);
}

/* The child of fork has one thread: a lock another thread of the parent
 * held would never be released, so it is cleared. */
static void reset_file(struct iolens_file *file, void *arg)
{
    const struct iolens_layer_ops *ops = arg;
    void *rec = record_in(file, ops);
    if (rec == NULL)
        return;
    atomic_store(lock_in(rec, ops), 0);
    ops->clear_record(rec, file);
}

static void release_file_lock(struct iolens_file *file, void *arg)
{
    const struct iolens_layer_ops *ops = arg;
    void *rec = record_in(file, ops);
    if (rec != NULL)
        atomic_store(lock_in(rec, ops), 0);
}

static void release_locks(const struct iolens_layer_ops *ops)
{
    if (ops->release_locks != NULL)
        ops->release_locks();
    iolens_file_foreach(release_file_lock, (void *)ops);
}

/* ------------------------------------------------ every layer's -- */

void iolens_layer_init(enum iolens_layer layer)
{
    const struct iolens_layer_ops *ops = iolens_layer_ops_of(layer);
    if (ops != NULL && ops->init != NULL)
        ops->init();
}

void iolens_layers_init(void)
{
    for (unsigned l = 0; l < IOLENS_NLAYERS; l++)
        iolens_layer_init((enum iolens_layer)l);
}

void iolens_layer_reset(enum iolens_layer layer)
{
    const struct iolens_layer_ops *ops = iolens_layer_ops_of(layer);
    if (ops == NULL)
        return;
    if (ops->release_locks != NULL)
        ops->release_locks();
    iolens_file_foreach(reset_file, (void *)ops);
    if (ops->reset != NULL)
        ops->reset();
}

void iolens_layers_reset(void)
{
    for (unsigned l = 0; l < IOLENS_NLAYERS; l++)
        iolens_layer_reset((enum iolens_layer)l);
}

void iolens_layers_release_locks(void)
{
    for (unsigned l = 0; l < IOLENS_NLAYERS; l++) {
        const struct iolens_layer_ops *ops = iolens_layer_ops_of((enum iolens_layer)l);
        if (ops != NULL)
            release_locks(ops);
    }
}

static void note_activity(const void *record, void *arg)
{
    (void)record;
    *(int *)arg = 1;
}

int iolens_layers_any_activity(void)
{
    int active = 0;
    for (unsigned l = 0; l < IOLENS_NLAYERS && !active; l++) {
        const struct iolens_layer_ops *ops = iolens_layer_ops_of((enum iolens_layer)l);
        if (ops != NULL)
            iolens_layer_foreach_record(ops->region_kind, note_activity, &active);
    }
    return active;
}

void iolens_layer_record_init(const struct iolens_layer_ops *ops, void *rec,
                              struct iolens_file *file)
{
    atomic_store(lock_in(rec, ops), 0);
    int64_t rank = 0;
    unsigned char *disk = (unsigned char *)rec + ops->disk_offset;
    memcpy(disk, &file->id, sizeof file->id); /* a record starts with id, rank */
    memcpy(disk + sizeof file->id, &rank, sizeof rank);
    ops->clear_record(rec, file);
}

void iolens_layer_zero_counters(const struct iolens_layer_ops *ops, void *rec)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(ops->region_kind);
    memset((unsigned char *)rec + ops->disk_offset + 16, 0, d->record_size - 16);
}

int iolens_counters_any(const int64_t *counters, const int *which, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (counters[which[i]] > 0)
            return 1;
    return 0;
}

void iolens_layer_close_end(const struct iolens_layer_ops *ops, void *rec,
                            double *last_meta_end, double t0, double t1)
{
    if (rec == NULL)
        return;
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(ops->region_kind);
    double *f = iolens_rec_fcounters(d, (unsigned char *)rec + ops->disk_offset);
    _Atomic int *lock = lock_in(rec, ops);
    iolens_lock_always(lock);
    iolens_note_earliest(&f[d->f_close_start], t0);
    iolens_note_last(&f[d->f_close_end], t1);
    f[d->meta_time] = iolens_time_add_nonoverlap(f[d->meta_time], last_meta_end, t0, t1);
    iolens_unlock_always(lock);
}
