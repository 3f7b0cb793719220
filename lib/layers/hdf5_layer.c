/* HDF5 layers bookkeeping: the counters of IOLENS_H5F_COUNTERS and
 * IOLENS_H5D_COUNTERS (log_format.h), fed by wrappers/hdf5.c.
 *
 * Structures, all carved from the budget:
 *  - one H5F record per file and one H5D record per dataset, hung on
 *    entries of the record table (the file's own entry; an entry named
 *    "<file>:<dataset>" for a dataset), each with its own spinlock;
 *  - the dataset handle table: hid_t -> H5D record, open addressing under
 *    one small lock (HDF5 calls cost far more than the lock);
 *  - the records of anonymous datasets' handles, until H5Olink names them.
 * What the layer learns from HDF5 (names, dataspaces, property lists:
 * hdf5_query.h) it asks before taking a record's lock. */
#include "layers/hdf5_layer.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layers/access_stats.h"
#include "core/budget.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "core/hdf5_calls.h"
#include "layers/hdf5_query.h"
#include "layers/layer_intervals.h"
#include "layers/layer_ops.h"
#include "format/record_merge.h"
#include "core/state.h"
#include "core/spinlock.h"

/* Distinct access shapes remembered per dataset (space-saving): exact
 * while a dataset has at most this many, estimates beyond
 * (H5D_ACCESS_TOP_STATE). */
#define SHAPE_SLOTS 8
#define TOP_SHAPES 4

enum last_io { IO_NONE, IO_READ, IO_WRITE };

struct iolens_h5f_rec {
    _Atomic int lock;
    struct iolens_h5f_record disk;
    double last_meta_end;
};

/* One access shape: its bytes and the extents of its bounding box. */
struct shape {
    int64_t bytes;
    int64_t len[IOLENS_H5_KEPT_DIMS];
    int64_t count;
};

struct shapes {
    struct shape slot[SHAPE_SLOTS];
    int used;
    int estimated;   /* 1 once a shape was given up: counts are estimates */
};

struct iolens_h5d_rec {
    _Atomic int lock;
    struct iolens_h5d_record disk;
    double last_read_end, last_write_end, last_meta_end;
    enum last_io last_io;
    struct shapes shapes;
    /* An anonymous dataset's own record (below): the record of
     * "<file>:<anonymous>" it merges into if never linked.  NULL for the
     * records of the table. */
    struct iolens_h5d_rec *anon_home;
    struct iolens_h5d_rec *next_free; /* on the free list of such records */
};

typedef struct iolens_h5f_rec h5f_rec;
typedef struct iolens_h5d_rec h5d_rec;

/* Their entries of the runtime ops table (layer_ops.h), defined at the end. */
static const struct iolens_layer_ops h5f_ops, h5d_ops;

/* -------------------------------------------------------- records -- */

static const struct iolens_layer_ops h5f_ops, h5d_ops;

static void clear_h5f(h5f_rec *r)
{
    iolens_layer_zero_counters(&h5f_ops, r);
    r->last_meta_end = 0.0;
}

static void init_h5f(void *rec, struct iolens_file *file)
{
    iolens_layer_record_init(&h5f_ops, rec, file);
}

static void clear_h5d(h5d_rec *r)
{
    iolens_layer_zero_counters(&h5d_ops, r);
    r->disk.counters[H5D_DATASPACE_NDIMS] = -1;
    r->disk.counters[H5D_DATASPACE_NPOINTS] = -1;
    r->disk.counters[H5D_DATATYPE_SIZE] = -1;
    r->disk.counters[H5D_LAYOUT] = -1;
    r->last_read_end = r->last_write_end = r->last_meta_end = 0.0;
    r->last_io = IO_NONE;
    memset(&r->shapes, 0, sizeof r->shapes);
}

/* The entry's clear_record keeps a forked child's dataset facts; a new
 * record has none yet (-1). */
static void init_h5d(void *rec, struct iolens_file *file)
{
    iolens_layer_record_init(&h5d_ops, rec, file);
    clear_h5d(rec);
}

static h5f_rec *h5f_record_of(struct iolens_file *file)
{
    return iolens_file_layer_record(file, IOLENS_LAYER_H5F, sizeof(h5f_rec), init_h5f);
}

static h5d_rec *h5d_record_of(struct iolens_file *file)
{
    return iolens_file_layer_record(file, IOLENS_LAYER_H5D, sizeof(h5d_rec), init_h5d);
}

/* The entry of a name; NULL (and the fold noted) when the budget is full. */
static struct iolens_file *entry_of(const char *name, size_t len)
{
    struct iolens_file *file = iolens_file_get(name, len);
    if (file == NULL)
        iolens_file_note_folded(iolens_path_hash(name, len), len, IOLENS_LAYER_H5D, 1);
    return file;
}

/* The record of entry, the entry of name (NULL: the budget refused it),
 * or <other files>' (made at start-up) when the budget cannot hold that
 * record either: the fold is then noted, with the opens given. */
static h5f_rec *h5f_record_or_other(struct iolens_file *entry, const char *name, size_t len)
{
    h5f_rec *r = entry != NULL ? h5f_record_of(entry) : NULL;
    if (r == NULL && entry != NULL)
        iolens_file_note_folded(iolens_path_hash(name, len), len, IOLENS_LAYER_H5F, 1);
    return r != NULL ? r : h5f_record_of(iolens_file_other());
}

static h5d_rec *h5d_record_or_other(struct iolens_file *entry, const char *name, size_t len,
                                    uint64_t opens)
{
    h5d_rec *r = entry != NULL ? h5d_record_of(entry) : NULL;
    if (r == NULL && entry != NULL)
        iolens_file_note_folded(iolens_path_hash(name, len), len, IOLENS_LAYER_H5D, opens);
    return r != NULL ? r : h5d_record_of(iolens_file_other());
}

/* --------------------------------------------------- handle table -- */

#define KEY_EMPTY ((hid_t)0)     /* H5P_DEFAULT: never a dataset */
#define KEY_TOMB ((hid_t)-1)     /* H5I_INVALID_HID */
#define MAX_SLOTS 4096u
#define MIN_SLOTS 64u

struct dset_slot {
    hid_t key;
    h5d_rec *rec;
};

static struct dset_slot *slots;
static unsigned slot_bits;
static _Atomic int table_lock;

static size_t nslots(void)
{
    return (size_t)1 << slot_bits;
}

static size_t home_of(hid_t key)
{
    uint64_t h = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> (64 - slot_bits));
}

/* Under the table lock. */
static struct dset_slot *find_slot(hid_t key)
{
    size_t mask = nslots() - 1, i = home_of(key);
    for (size_t n = 0; n < nslots(); n++, i = (i + 1) & mask) {
        if (slots[i].key == KEY_EMPTY)
            return NULL;
        if (slots[i].key == key)
            return &slots[i];
    }
    return NULL;
}

/* Under the table lock. */
static struct dset_slot *claim_slot(hid_t key)
{
    struct dset_slot *slot = find_slot(key); /* a stale entry of the same id */
    if (slot != NULL)
        return slot;
    size_t mask = nslots() - 1, i = home_of(key);
    for (size_t n = 0; n < nslots(); n++, i = (i + 1) & mask)
        if (slots[i].key == KEY_EMPTY || slots[i].key == KEY_TOMB)
            return &slots[i];
    return NULL;
}

/* Under the table lock.  A slot followed by an empty one ends no probe
 * chain, so it (and tombstones before it) can become empty again. */
static void release_slot(struct dset_slot *slot)
{
    size_t mask = nslots() - 1, i = (size_t)(slot - slots);
    if (slots[(i + 1) & mask].key != KEY_EMPTY) {
        slot->key = KEY_TOMB;
        return;
    }
    slot->key = KEY_EMPTY;
    for (size_t n = 1; n < nslots(); n++) {
        size_t j = (i - n) & mask;
        if (slots[j].key != KEY_TOMB)
            break;
        slots[j].key = KEY_EMPTY;
    }
}

static int valid_key(hid_t key)
{
    return slots != NULL && key != KEY_EMPTY && key != KEY_TOMB;
}

/* Under the table lock, the table full: frees the slots of the handles
 * HDF5 no longer has, closed without a call iolens wraps (H5Fclose of a
 * file opened with H5F_CLOSE_STRONG closes its datasets so), so that they
 * do not hold the table for good.  The records of anonymous handles among
 * them are chained through next_free into *gone, to be sent home once
 * the lock is released.  HDF5 is asked under the table lock: no thread
 * takes that lock inside an HDF5 call. */
static void free_dead_handles(h5d_rec **gone)
{
    if (!IOLENS_H5_HAVE(H5Iis_valid))
        return;
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    for (size_t i = 0; i < nslots(); i++) {
        if (!valid_key(slots[i].key) || IOLENS_H5(H5Iis_valid)(slots[i].key) != 0)
            continue;
        h5d_rec *r = slots[i].rec;
        if (r != NULL && r->anon_home != NULL) {
            r->next_free = *gone;
            *gone = r;
        }
        release_slot(&slots[i]);
    }
    iolens_h5q_quiet_end(&q);
}

static void let_go(h5d_rec *r);

/* Binds dset to r: 1, or 0 when the table is full.  *stale is the record
 * a stale entry of the same id was bound to (HDF5 closed that handle
 * without the program's close call), NULL if none. */
static int track(hid_t dset, h5d_rec *r, h5d_rec **stale)
{
    *stale = NULL;
    if (!valid_key(dset))
        return 0;
    h5d_rec *gone = NULL;
    iolens_lock_always(&table_lock);
    struct dset_slot *slot = claim_slot(dset);
    if (slot == NULL) {
        free_dead_handles(&gone);
        slot = claim_slot(dset);
    }
    if (slot != NULL) {
        if (slot->key == dset)
            *stale = slot->rec;
        *slot = (struct dset_slot){dset, r};
    }
    iolens_unlock_always(&table_lock);
    while (gone != NULL) {
        h5d_rec *next = gone->next_free;
        let_go(gone);
        gone = next;
    }
    return slot != NULL;
}

/* dset, bound to from, is bound to to: 1, or 0 if it was not bound to
 * from (closed meanwhile). */
static int rebind(hid_t dset, const h5d_rec *from, h5d_rec *to)
{
    if (!valid_key(dset))
        return 0;
    iolens_lock_always(&table_lock);
    struct dset_slot *slot = find_slot(dset);
    int bound = slot != NULL && slot->rec == from;
    if (bound)
        slot->rec = to;
    iolens_unlock_always(&table_lock);
    return bound;
}

static h5d_rec *untrack(hid_t dset)
{
    if (!valid_key(dset))
        return NULL;
    h5d_rec *r = NULL;
    iolens_lock_always(&table_lock);
    struct dset_slot *slot = find_slot(dset);
    if (slot != NULL) {
        r = slot->rec;
        release_slot(slot);
    }
    iolens_unlock_always(&table_lock);
    return r;
}

static h5d_rec *rec_of(hid_t dset)
{
    if (!valid_key(dset))
        return NULL;
    iolens_lock_always(&table_lock);
    struct dset_slot *slot = find_slot(dset);
    h5d_rec *r = slot != NULL ? slot->rec : NULL;
    iolens_unlock_always(&table_lock);
    return r;
}

int iolens_h5d_is_traced(hid_t dset)
{
    return rec_of(dset) != NULL;
}

/* ------------------------------------------------------------- H5F -- */

static void h5f_meta(h5f_rec *r, double t0, double t1)
{
    r->disk.fcounters[H5F_F_META_TIME] = iolens_time_add_nonoverlap(
        r->disk.fcounters[H5F_F_META_TIME], &r->last_meta_end, t0, t1);
}

void iolens_h5f_open(hid_t file, hid_t fapl, int created, double t0, double t1)
{
    char path[PATH_MAX];
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    long len = iolens_h5q_file_path(file, path, sizeof path);
    struct iolens_h5q_fapl_facts facts = {0, 0};
    if (len >= 0)
        facts = iolens_h5q_fapl_facts(file, fapl);
    iolens_h5q_quiet_end(&q);
    if (len < 0)
        return;
    struct iolens_file *entry = entry_of(path, (size_t)len);
    h5f_rec *r = h5f_record_or_other(entry, path, (size_t)len);
    if (r == NULL)
        return;
    iolens_lock_always(&r->lock);
    r->disk.counters[H5F_OPENS]++; /* creates too, as Darshan */
    r->disk.counters[H5F_CREATES] += created != 0;
    if (facts.use_mpiio)
        r->disk.counters[H5F_USE_MPIIO] = 1;
    if (facts.coll_metadata)
        r->disk.counters[H5F_COLL_METADATA] = 1;
    iolens_note_earliest(&r->disk.fcounters[H5F_F_OPEN_START_TIMESTAMP], t0);
    iolens_note_last(&r->disk.fcounters[H5F_F_OPEN_END_TIMESTAMP], t1);
    h5f_meta(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

/* The H5F record of the file holding object, if it has one already. */
static h5f_rec *h5f_existing(hid_t object)
{
    char path[PATH_MAX];
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    long len = iolens_h5q_file_path(object, path, sizeof path);
    iolens_h5q_quiet_end(&q);
    if (len < 0)
        return NULL;
    struct iolens_file *entry = iolens_file_find(path, (size_t)len);
    if (entry == NULL)
        entry = iolens_file_other();
    return atomic_load_explicit(&entry->layer_rec[IOLENS_LAYER_H5F], memory_order_acquire);
}

void iolens_h5f_flush(hid_t object, double t0, double t1)
{
    h5f_rec *r = h5f_existing(object);
    if (r == NULL)
        return;
    iolens_lock_always(&r->lock);
    r->disk.counters[H5F_FLUSHES]++;
    h5f_meta(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

h5f_rec *iolens_h5f_close_begin(hid_t file)
{
    return h5f_existing(file);
}

void iolens_h5f_close_end(h5f_rec *r, double t0, double t1)
{
    iolens_layer_close_end(&h5f_ops, r, r != NULL ? &r->last_meta_end : NULL, t0, t1);
}

/* ------------------------------------------------------------- H5D -- */

static void h5d_meta(h5d_rec *r, double t0, double t1)
{
    r->disk.fcounters[H5D_F_META_TIME] = iolens_time_add_nonoverlap(
        r->disk.fcounters[H5D_F_META_TIME], &r->last_meta_end, t0, t1);
}

static void store_facts(h5d_rec *r, const struct iolens_h5q_dset_facts *f, uint64_t file_id)
{
    int64_t *c = r->disk.counters;
    c[H5D_DATASPACE_NDIMS] = f->ndims;
    c[H5D_DATASPACE_NPOINTS] = f->npoints;
    c[H5D_DATATYPE_SIZE] = f->type_size;
    c[H5D_LAYOUT] = f->layout;
    c[H5D_CHUNK_NDIMS] = f->chunk_ndims;
    c[H5D_FILTERS] = f->nfilters;
    for (int i = 0; i < IOLENS_H5_KEPT_DIMS; i++) {
        c[H5D_DATASPACE_DIM1 + i] = f->dims[i];
        c[H5D_CHUNK_DIM1 + i] = f->chunk[i];
    }
    c[H5D_FILE_REC_ID] = (int64_t)file_id;
}

/* ---------------------------------------------- anonymous datasets -- */

/* h5py's f["x"] = array makes the dataset with H5Dcreate_anon, writes it,
 * and only then links it under its name (H5Olink).  So that those writes
 * are the named dataset's, an anonymous dataset's handle counts in a
 * record of its own: in no entry of the record table, with an id of its
 * own for its intervals.  When the handle is linked, the record merges
 * into the named dataset's, and the handle counts there from then on; when
 * it is closed unlinked, or the log is written first, into its file's
 * "<file>:<anonymous>" (its home).  A merged record goes to a free list,
 * so a program that makes datasets one after another reuses one.  A thread
 * accessing a handle while another links or closes it may count in the
 * record being merged: lost, as any call racing the log is. */

static h5d_rec *free_anon; /* under the table lock */
static _Atomic uint64_t anon_made;

static void add_shape(struct shapes *s, int64_t bytes, const int64_t len[IOLENS_H5_KEPT_DIMS],
                      int64_t n);

/* An id no entry of the table has (with the odds of a 64-bit hash), for
 * the intervals of one anonymous handle's record. */
static uint64_t anon_id(void)
{
    char name[48];
    uint64_t n = atomic_fetch_add_explicit(&anon_made, 1, memory_order_relaxed);
    int len = snprintf(name, sizeof name, "<anonymous handle %llu>", (unsigned long long)n);
    return iolens_path_hash(name, (size_t)len);
}

/* A fresh record for an anonymous handle whose home is home; NULL when
 * the budget has no room (the handle then counts in home itself). */
static h5d_rec *anon_take(h5d_rec *home)
{
    iolens_lock_always(&table_lock);
    h5d_rec *r = free_anon;
    if (r != NULL)
        free_anon = r->next_free;
    iolens_unlock_always(&table_lock);
    if (r == NULL && (r = iolens_budget_alloc(sizeof *r)) == NULL)
        return NULL;
    memset(r, 0, sizeof *r);
    r->disk.id = anon_id();
    clear_h5d(r);
    r->anon_home = home;
    return r;
}

static void anon_give_back(h5d_rec *r)
{
    iolens_lock_always(&table_lock);
    r->next_free = free_anon;
    free_anon = r;
    iolens_unlock_always(&table_lock);
}

static int has_activity(const h5d_rec *r)
{
    const int64_t *c = r->disk.counters;
    return c[H5D_OPENS] || c[H5D_READS] || c[H5D_WRITES] || c[H5D_FLUSHES];
}

/* Under dest's lock: what src counted, added to dest by the rules of the
 * shared-file reduction (record_merge.h); into a record that counted
 * nothing yet, as it is (its dataset facts included). */
static void merge_counts(h5d_rec *dest, const h5d_rec *src)
{
    if (!has_activity(dest)) {
        memcpy(dest->disk.counters, src->disk.counters, sizeof dest->disk.counters);
        memcpy(dest->disk.fcounters, src->disk.fcounters, sizeof dest->disk.fcounters);
        dest->last_io = src->last_io;
    } else {
        iolens_record_merge_no_top(iolens_layer_desc_by_kind(IOLENS_REGION_H5D), &dest->disk,
                                   &src->disk);
        if (src->last_io != IO_NONE)
            dest->last_io = src->last_io;
    }
    for (int i = 0; i < src->shapes.used; i++)
        add_shape(&dest->shapes, src->shapes.slot[i].bytes, src->shapes.slot[i].len,
                  src->shapes.slot[i].count);
    dest->shapes.estimated |= src->shapes.estimated;
    if (src->last_read_end > dest->last_read_end)
        dest->last_read_end = src->last_read_end;
    if (src->last_write_end > dest->last_write_end)
        dest->last_write_end = src->last_write_end;
    if (src->last_meta_end > dest->last_meta_end)
        dest->last_meta_end = src->last_meta_end;
}

/* An anonymous handle's record r, no longer bound to any handle, merged
 * into dest with its intervals, then freed. */
static void anon_merge(h5d_rec *r, h5d_rec *dest)
{
    h5d_rec mine;
    iolens_lock_always(&r->lock);
    memcpy(&mine, r, sizeof mine);
    iolens_unlock_always(&r->lock);
    iolens_lock_always(&dest->lock);
    merge_counts(dest, &mine);
    iolens_unlock_always(&dest->lock);
    iolens_intervals_rename(IOLENS_LAYER_H5D, mine.disk.id, dest->disk.id);
    anon_give_back(r);
}

/* A record a handle no longer counts in: an anonymous handle's goes home. */
static void let_go(h5d_rec *r)
{
    if (r != NULL && r->anon_home != NULL)
        anon_merge(r, r->anon_home);
}

/* Before the log: every anonymous handle still bound to a record of its
 * own counts in its home from now on, and its record merges there. */
static void send_anonymous_home(void)
{
    h5d_rec *moved = NULL;
    iolens_lock_always(&table_lock);
    for (size_t i = 0; slots != NULL && i < nslots(); i++) {
        h5d_rec *r = slots[i].rec;
        if (valid_key(slots[i].key) && r != NULL && r->anon_home != NULL) {
            slots[i].rec = r->anon_home;
            r->next_free = moved;
            moved = r;
        }
    }
    iolens_unlock_always(&table_lock);
    while (moved != NULL) {
        h5d_rec *next = moved->next_free;
        anon_merge(moved, moved->anon_home);
        moved = next;
    }
}

/* A forked child: its anonymous handles' records start afresh too (the
 * counts so far are the parent's), their dataset facts kept. */
static void h5d_clear_record(void *rec, struct iolens_file *file);
static void clear_anonymous(void)
{
    for (size_t i = 0; slots != NULL && i < nslots(); i++) {
        h5d_rec *r = slots[i].rec;
        if (valid_key(slots[i].key) && r != NULL && r->anon_home != NULL) {
            atomic_store(&r->lock, 0);
            h5d_clear_record(r, NULL);
        }
    }
}

void iolens_h5d_open(hid_t dset, enum iolens_h5d_naming naming, double t0, double t1)
{
    char name[2 * PATH_MAX];
    long file_len = 0;
    int anonymous = naming != IOLENS_H5D_NAMED;
    const char *placeholder = naming == IOLENS_H5D_BY_REFERENCE ? "<by reference>" : "<anonymous>";
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    long len = iolens_h5q_dataset_name(dset, placeholder, name, sizeof name, &file_len, &anonymous);
    struct iolens_h5q_dset_facts facts;
    memset(&facts, 0, sizeof facts);
    if (len >= 0)
        facts = iolens_h5q_dset_facts(dset);
    iolens_h5q_quiet_end(&q);
    if (len < 0) {
        let_go(untrack(dset)); /* forget a stale entry of the same id */
        return;
    }
    iolens_intervals_take_store(IOLENS_LAYER_H5D);
    struct iolens_file *file_entry = entry_of(name, (size_t)file_len);
    uint64_t file_id = file_entry != NULL ? file_entry->id : IOLENS_ID_OTHER_FILES;
    struct iolens_file *entry = entry_of(name, (size_t)len);
    h5d_rec *r = h5d_record_or_other(entry, name, (size_t)len, 1);
    if (r == NULL)
        return;
    if (anonymous && naming != IOLENS_H5D_BY_REFERENCE) {
        h5d_rec *own = anon_take(r);
        r = own != NULL ? own : r;
    }
    h5d_rec *stale;
    int tracked = track(dset, r, &stale);
    let_go(stale);
    iolens_lock_always(&r->lock);
    r->disk.counters[H5D_OPENS]++;
    store_facts(r, &facts, file_id);
    iolens_note_earliest(&r->disk.fcounters[H5D_F_OPEN_START_TIMESTAMP], t0);
    iolens_note_last(&r->disk.fcounters[H5D_F_OPEN_END_TIMESTAMP], t1);
    h5d_meta(r, t0, t1);
    iolens_unlock_always(&r->lock);
    if (!tracked)
        let_go(r);
}

void iolens_h5d_link(hid_t dset)
{
    h5d_rec *own = rec_of(dset);
    if (own == NULL || own->anon_home == NULL)
        return;
    char name[2 * PATH_MAX];
    long file_len = 0;
    int anonymous = 0;
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    long len = iolens_h5q_dataset_name(dset, "<anonymous>", name, sizeof name, &file_len,
                                       &anonymous);
    iolens_h5q_quiet_end(&q);
    if (len < 0 || anonymous)
        return;
    struct iolens_file *entry = entry_of(name, (size_t)len);
    h5d_rec *named = h5d_record_or_other(entry, name, (size_t)len, 0);
    if (named == NULL)
        return;
    if (rebind(dset, own, named))
        anon_merge(own, named);
}

/* Space-saving count of n accesses of a shape: exact while at most
 * SHAPE_SLOTS distinct shapes were seen; then the least frequent is
 * replaced. */
static void add_shape(struct shapes *s, int64_t bytes, const int64_t len[IOLENS_H5_KEPT_DIMS],
                      int64_t n)
{
    int least = 0;
    for (int i = 0; i < s->used; i++) {
        struct shape *sh = &s->slot[i];
        if (sh->bytes == bytes && memcmp(sh->len, len, sizeof sh->len) == 0) {
            sh->count += n;
            return;
        }
        if (sh->count < s->slot[least].count)
            least = i;
    }
    int64_t count = n;
    if (s->used < SHAPE_SLOTS) {
        least = s->used++;
    } else {
        count = s->slot[least].count + n;
        s->estimated = 1;
    }
    s->slot[least].bytes = bytes;
    memcpy(s->slot[least].len, len, sizeof s->slot[least].len);
    s->slot[least].count = count;
}

/* Most frequent first; ties by larger bytes, then larger extents (as the
 * merge of records, record_merge.h, and as Darshan). */
static int compare_shapes(const void *a, const void *b)
{
    const struct shape *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    for (int i = 0; i < IOLENS_H5_KEPT_DIMS; i++)
        if (x->len[i] != y->len[i])
            return x->len[i] > y->len[i] ? -1 : 1;
    return 0;
}

/* Fills the H5D_ACCESSn_* groups of out and H5D_ACCESS_TOP_STATE. */
static void emit_top_shapes(struct shapes s, int64_t *c)
{
    c[H5D_ACCESS_TOP_STATE] = s.estimated       ? IOLENS_TOP_ESTIMATE
                              : s.used > TOP_SHAPES ? IOLENS_TOP_EXACT
                                                    : IOLENS_TOP_EXACT_ALL;
    qsort(s.slot, (size_t)s.used, sizeof s.slot[0], compare_shapes);
    enum { GROUP = H5D_ACCESS2_ACCESS - H5D_ACCESS1_ACCESS };
    for (int n = 0; n < TOP_SHAPES; n++) {
        int64_t *g = &c[H5D_ACCESS1_ACCESS + n * GROUP];
        if (n >= s.used) {
            memset(g, 0, sizeof(int64_t) * GROUP);
            continue;
        }
        g[H5D_ACCESS1_ACCESS - H5D_ACCESS1_ACCESS] = s.slot[n].bytes;
        for (int d = 0; d < IOLENS_H5_KEPT_DIMS; d++)
            g[H5D_ACCESS1_LENGTH_D1 - H5D_ACCESS1_ACCESS + d] = s.slot[n].len[d];
        g[H5D_ACCESS1_COUNT - H5D_ACCESS1_ACCESS] = s.slot[n].count;
    }
}

_Static_assert(H5D_ACCESS1_COUNT - H5D_ACCESS1_ACCESS == 6, "ACCESSn group layout");
_Static_assert(H5D_ACCESS4_COUNT - H5D_ACCESS1_ACCESS == 27, "four ACCESSn groups");

/* The counter indices that differ between reads and writes. */
struct rw_ids {
    int ops, bytes, size0, max_time_size;
    int f_start, f_end, f_time, f_max_time;
    enum last_io kind;
};

static const struct rw_ids rw_ids[2] = {
    [IOLENS_H5D_READ] = {H5D_READS, H5D_BYTES_READ, H5D_SIZE_READ_AGG_0_100,
                         H5D_MAX_READ_TIME_SIZE, H5D_F_READ_START_TIMESTAMP,
                         H5D_F_READ_END_TIMESTAMP, H5D_F_READ_TIME, H5D_F_MAX_READ_TIME, IO_READ},
    [IOLENS_H5D_WRITE] = {H5D_WRITES, H5D_BYTES_WRITTEN, H5D_SIZE_WRITE_AGG_0_100,
                          H5D_MAX_WRITE_TIME_SIZE, H5D_F_WRITE_START_TIMESTAMP,
                          H5D_F_WRITE_END_TIMESTAMP, H5D_F_WRITE_TIME, H5D_F_MAX_WRITE_TIME,
                          IO_WRITE},
};

static const int select_counter[] = {
    [IOLENS_H5Q_SEL_NONE] = -1,
    [IOLENS_H5Q_SEL_ALL] = H5D_ALL_SELECTS,
    [IOLENS_H5Q_SEL_REGULAR] = H5D_REGULAR_HYPERSLAB_SELECTS,
    [IOLENS_H5Q_SEL_IRREGULAR] = H5D_IRREGULAR_HYPERSLAB_SELECTS,
    [IOLENS_H5Q_SEL_POINTS] = H5D_POINT_SELECTS,
};

/* Under the record's lock. */
static void count_access(h5d_rec *r, enum iolens_h5d_dir dir, const struct iolens_h5q_access *a,
                         double t0, double t1)
{
    const struct rw_ids *id = &rw_ids[dir];
    int64_t *c = r->disk.counters;
    double *f = r->disk.fcounters;
    c[id->ops]++;
    c[id->bytes] += a->bytes;
    c[id->size0 + iolens_size_bin(a->bytes)]++;
    if (r->last_io != IO_NONE && r->last_io != id->kind)
        c[H5D_RW_SWITCHES]++;
    r->last_io = id->kind;
    if (select_counter[a->kind] >= 0)
        c[select_counter[a->kind]]++;
    c[a->collective ? H5D_COLL_ACCESSES : H5D_INDEP_ACCESSES]++;
    if (a->bytes != 0) /* as Darshan: accesses of 0 bytes are not common values */
        add_shape(&r->shapes, a->bytes, a->len, 1);

    iolens_note_earliest(&f[id->f_start], t0);
    iolens_note_last(&f[id->f_end], t1);
    double *last_end = dir == IOLENS_H5D_READ ? &r->last_read_end : &r->last_write_end;
    f[id->f_time] = iolens_time_add_nonoverlap(f[id->f_time], last_end, t0, t1);
    if (t1 - t0 > f[id->f_max_time]) {
        f[id->f_max_time] = t1 - t0;
        c[id->max_time_size] = a->bytes;
    }
}

void iolens_h5d_access(hid_t dset, enum iolens_h5d_dir dir, hid_t mem_type, hid_t mem_space,
                       hid_t file_space, hid_t dxpl, double t0, double t1)
{
    (void)mem_space; /* its points equal the file selection's */
    h5d_rec *r = rec_of(dset);
    if (r == NULL)
        return;
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    struct iolens_h5q_access a = iolens_h5q_describe(dset, mem_type, file_space, dxpl);
    iolens_h5q_quiet_end(&q);
    iolens_lock_always(&r->lock);
    count_access(r, dir, &a, t0, t1);
    iolens_unlock_always(&r->lock);
    iolens_intervals_add(IOLENS_LAYER_H5D, t0, t1, r->disk.id, a.bytes,
                         dir == IOLENS_H5D_READ ? IOLENS_IV_READ : IOLENS_IV_WRITE);
}

void iolens_h5d_failed_access(hid_t dset, enum iolens_h5d_dir dir, hid_t mem_type,
                              hid_t file_space, hid_t dxpl, double t0, double t1)
{
    h5d_rec *r = rec_of(dset);
    if (r == NULL)
        return;
    /* The program may look at the error stack of the failed call (every
     * HDF5 call clears it on entry, the layer's questions included): it
     * is taken aside and put back. */
    hid_t errors = IOLENS_H5_HAVE(H5Eget_current_stack) && IOLENS_H5_HAVE(H5Eset_current_stack)
                       ? IOLENS_H5(H5Eget_current_stack)()
                       : H5I_INVALID_HID;
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    struct iolens_h5q_access a = iolens_h5q_describe(dset, mem_type, file_space, dxpl);
    iolens_h5q_quiet_end(&q);
    if (errors >= 0)
        IOLENS_H5(H5Eset_current_stack)(errors);
    uint32_t flags = IOLENS_IV_FAILED | (dir == IOLENS_H5D_READ ? IOLENS_IV_READ : IOLENS_IV_WRITE);
    iolens_intervals_add(IOLENS_LAYER_H5D, t0, t1, r->disk.id, a.bytes, flags);
}

void iolens_h5d_flush(hid_t dset, double t0, double t1)
{
    h5d_rec *r = rec_of(dset);
    if (r == NULL)
        return;
    iolens_lock_always(&r->lock);
    r->disk.counters[H5D_FLUSHES]++;
    h5d_meta(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

h5d_rec *iolens_h5d_close_begin(hid_t dset)
{
    return untrack(dset);
}

void iolens_h5d_close_end(h5d_rec *r, int closed, double t0, double t1)
{
    if (closed)
        iolens_layer_close_end(&h5d_ops, r, r != NULL ? &r->last_meta_end : NULL, t0, t1);
    let_go(r);
}

/* -------------------------------------------------------- start-up -- */

static unsigned table_bits(size_t budget)
{
    size_t n = MAX_SLOTS;
    while (n > MIN_SLOTS && n * sizeof(struct dset_slot) > budget / 64)
        n /= 2;
    unsigned bits = 0;
    while (((size_t)1 << bits) < n)
        bits++;
    return bits;
}

/* The table's bytes at a budget (a scaled allocation, budget.h). */
static size_t table_bytes(size_t budget)
{
    return sizeof(struct dset_slot) << table_bits(budget);
}

static void layer_init(void)
{
    unsigned bits = table_bits(iolens_budget_size());
    slots = iolens_budget_alloc_scaled(table_bytes);
    slot_bits = bits;
    if (slots != NULL)
        for (size_t i = 0; i < nslots(); i++)
            slots[i].key = KEY_EMPTY;
    /* So that folding never needs memory. */
    h5f_record_of(iolens_file_other());
    h5d_record_of(iolens_file_other());
}

/* --------------------------------------------- the layers' entries -- */

static int h5f_pack(void *rec, void *record)
{
    h5f_rec *r = rec;
    struct iolens_h5f_record *out = record;
    iolens_lock_always(&r->lock);
    *out = r->disk;
    iolens_unlock_always(&r->lock);
    static const int ops[] = {H5F_OPENS, H5F_FLUSHES};
    return iolens_counters_any(out->counters, ops, sizeof ops / sizeof ops[0]);
}

static int h5d_pack(void *rec, void *record)
{
    h5d_rec *r = rec;
    struct iolens_h5d_record *out = record;
    struct shapes shapes;
    iolens_lock_always(&r->lock);
    *out = r->disk;
    shapes = r->shapes;
    iolens_unlock_always(&r->lock);
    emit_top_shapes(shapes, out->counters);
    static const int ops[] = {H5D_OPENS, H5D_READS, H5D_WRITES, H5D_FLUSHES};
    return iolens_counters_any(out->counters, ops, sizeof ops / sizeof ops[0]);
}

static void h5f_clear_record(void *rec, struct iolens_file *file)
{
    (void)file;
    clear_h5f(rec);
}

/* The dataset facts stay: the child may go on with open handles. */
static void h5d_clear_record(void *rec, struct iolens_file *file)
{
    (void)file;
    h5d_rec *d = rec;
    enum { FIRST = H5D_DATASPACE_NDIMS, NFACTS = H5D_FILE_REC_ID - H5D_DATASPACE_NDIMS + 1 };
    int64_t facts[NFACTS];
    memcpy(facts, &d->disk.counters[FIRST], sizeof facts);
    clear_h5d(d);
    memcpy(&d->disk.counters[FIRST], facts, sizeof facts);
}

static void release_table_lock(void)
{
    iolens_unlock_always(&table_lock);
}

_Static_assert(sizeof(struct iolens_h5f_record) <= IOLENS_LAYER_RECORD_MAX, "record size");
_Static_assert(sizeof(struct iolens_h5d_record) <= IOLENS_LAYER_RECORD_MAX, "record size");

/* Regions only in a job where some rank has records of them, so that a
 * job without HDF5 does not carry two empty regions per rank.  The
 * dataset table is H5D's own; H5F has none. */
IOLENS_LAYER_OPS(h5f_ops) = {
    .layer = IOLENS_LAYER_H5F,
    .region_kind = IOLENS_REGION_H5F,
    .lock_offset = offsetof(h5f_rec, lock),
    .disk_offset = offsetof(h5f_rec, disk),
    .pack = h5f_pack,
    .clear_record = h5f_clear_record,
};

IOLENS_LAYER_OPS(h5d_ops) = {
    .layer = IOLENS_LAYER_H5D,
    .region_kind = IOLENS_REGION_H5D,
    .lock_offset = offsetof(h5d_rec, lock),
    .disk_offset = offsetof(h5d_rec, disk),
    .init = layer_init,
    .release_locks = release_table_lock,
    .reset = clear_anonymous,
    .before_pack = send_anonymous_home,
    .pack = h5d_pack,
    .clear_record = h5d_clear_record,
};
