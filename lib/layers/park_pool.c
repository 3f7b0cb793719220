/* A layer's records, live or parked (park_pool.h). */
#include "layers/park_pool.h"

#include <string.h>

#include "core/budget.h"
#include "core/call_site.h"
#include "core/file_table.h"
#include "core/spinlock.h"
#include "format/record_merge.h"
#include "layers/layer_intervals.h"

/* ------------------------------------------------ record fields -- */

static _Atomic int *lock_of(const struct iolens_park_pool *p, void *rec)
{
    return (_Atomic int *)(void *)((char *)rec + p->lock_offset);
}

static uint32_t *holds_of(const struct iolens_park_pool *p, void *rec)
{
    return (uint32_t *)(void *)((char *)rec + p->holds_offset);
}

static _Atomic(void *) *slot_of(const struct iolens_park_pool *p, struct iolens_file *file)
{
    return &file->layer_rec[p->layer];
}

void iolens_pool_init(struct iolens_park_pool *p, size_t cap)
{
    iolens_park_codec_init(&p->codec, p->rec_size);
    memset(&p->store, 0, sizeof p->store);
    atomic_store(&p->lock, 0);
    p->free_recs = NULL;
    p->live = 0;
    size_t by_budget = iolens_budget_size() / 8u / p->rec_size;
    p->cap = cap != 0 ? cap : (by_budget > 4 ? by_budget : 4);
    p->hand = 0;
    atomic_store(&p->made, 0);
    p->parks = p->unparks = p->folds = 0;
    p->frozen = 0;
    p->folded_any = 0;
}

/* --------------------------------------------- under the pool lock -- */

static void push_free(struct iolens_park_pool *p, void *rec)
{
    memcpy((char *)rec + p->link_offset, &p->free_recs, sizeof(void *));
    p->free_recs = rec;
}

static void *pop_free(struct iolens_park_pool *p)
{
    void *rec = p->free_recs;
    if (rec != NULL)
        memcpy(&p->free_recs, (char *)rec + p->link_offset, sizeof(void *));
    return rec;
}

static void *from_budget(struct iolens_park_pool *p)
{
    /* Uncounted: iolens_pool_demand gives the pool's whole demand; a
     * refused record makes a folded file, accounted as such. */
    void *rec = iolens_budget_alloc_uncounted(p->rec_size);
    if (rec != NULL)
        p->live++;
    return rec;
}

/* Copies rec, under its lock, around its lock word, which other threads
 * may be writing as they wait for the lock (an atomic exchange); the
 * copy's lock is free. */
static void copy_record(const struct iolens_park_pool *p, void *copy, const void *rec)
{
    size_t lock_end = p->lock_offset + sizeof(_Atomic int);
    memcpy(copy, rec, p->lock_offset);
    memcpy((char *)copy + lock_end, (const char *)rec + lock_end, p->rec_size - lock_end);
    atomic_store(lock_of(p, copy), 0);
}

/* Parks file's record if it is live and nothing holds it.  1: parked,
 * 0: left as it is, -1: no room for its packed form. */
static int park_file(struct iolens_park_pool *p, struct iolens_file *file)
{
    void *rec = atomic_load_explicit(slot_of(p, file), memory_order_acquire);
    if (!iolens_slot_is_live(rec) || p->codec.nwords == 0 || p->never_park(file))
        return 0;
    int held = iolens_lock(lock_of(p, rec));
    if (*holds_of(p, rec) != 0) {
        iolens_unlock(lock_of(p, rec), held);
        return 0;
    }
    _Alignas(16) unsigned char copy[IOLENS_PARK_MAX_WORDS * 8u];
    copy_record(p, copy, rec);
    void *blob = iolens_park_store_record(&p->store, &p->codec, copy);
    if (blob == NULL) {
        iolens_unlock(lock_of(p, rec), held);
        return -1;
    }
    atomic_store_explicit(slot_of(p, file), iolens_parked_slot_value(blob), memory_order_release);
    iolens_unlock(lock_of(p, rec), held);
    push_free(p, rec);
    p->parks++;
    return 1;
}

/* Parks the next idle record after the hand, going round the table once
 * at most.  Returns whether one was parked. */
static int park_next_idle(struct iolens_park_pool *p)
{
    size_t start = p->hand;
    int wrapped = 0;
    for (;;) {
        struct iolens_file *file = iolens_file_next(&p->hand);
        if (file == NULL) {
            if (wrapped || start == 0)
                return 0;
            wrapped = 1;
            continue;
        }
        if (wrapped && p->hand > start)
            return 0;
        int r = park_file(p, file);
        if (r != 0)
            return r > 0;
    }
}

/* A record's memory for one more live record: one parking freed, else
 * the budget's while under the cap, else what parking an idle one frees,
 * else the budget's beyond the cap. */
static void *take_record(struct iolens_park_pool *p)
{
    void *rec = pop_free(p);
    if (rec == NULL && p->live < p->cap)
        rec = from_budget(p);
    if (rec == NULL && !p->frozen && park_next_idle(p))
        rec = pop_free(p);
    return rec != NULL ? rec : from_budget(p);
}

/* Copies src into rec but for the lock word, under rec's lock: a thread
 * holding a stale pointer to rec (read from the slot before rec was
 * parked) may hold that lock to find the slot changed. */
static void install(struct iolens_park_pool *p, void *rec, const void *src,
                    struct iolens_file *file)
{
    int held = iolens_lock(lock_of(p, rec));
    size_t lock_end = p->lock_offset + sizeof(_Atomic int);
    memcpy(rec, src, p->lock_offset);
    memcpy((char *)rec + lock_end, (const char *)src + lock_end, p->rec_size - lock_end);
    atomic_store_explicit(slot_of(p, file), rec, memory_order_release);
    iolens_unlock(lock_of(p, rec), held);
}

static struct iolens_site_ref *sites_of(const struct iolens_park_pool *p, void *rec)
{
    return (struct iolens_site_ref *)(void *)((char *)rec + p->sites_offset);
}

/* Merges rec, file's record (a copy), into the files folded whole, and
 * its sites into <other files>' record; its intervals become that
 * file's, its opens folded opens. */
static void fold_record(struct iolens_park_pool *p, struct iolens_file *file, void *rec)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(p->region_kind);
    _Alignas(8) unsigned char out[IOLENS_LAYER_RECORD_MAX];
    int64_t opens = 0, calls = 0;
    if (p->pack(rec, out)) {
        if (p->folded_any)
            iolens_record_merge(d, p->folded, out);
        else
            iolens_record_merge_begin(d, p->folded, out);
        p->folded_any = 1;
        opens = d->opens[0] >= 0 ? iolens_rec_counters(out)[d->opens[0]] : 0;
        calls = iolens_record_read_ops(d, out) + iolens_record_write_ops(d, out);
    }
    struct iolens_file *other = iolens_file_other();
    void *orec = atomic_load_explicit(slot_of(p, other), memory_order_acquire);
    if (iolens_slot_is_live(orec)) { /* reserved: made at start-up */
        int held = iolens_lock(lock_of(p, orec));
        iolens_sites_fold(sites_of(p, orec), sites_of(p, rec), calls > 0);
        iolens_unlock(lock_of(p, orec), held);
        iolens_intervals_rename(p->layer, file->id, other->id);
    }
    iolens_file_note_folded(iolens_path_hash(file->name, file->name_len), file->name_len,
                            p->layer, opens > 0 ? (uint64_t)opens : 0);
}

/* A parked file that cannot be made live again, folded whole
 * (park_pool.h); its blob is freed for other parked forms. */
static void fold_parked(struct iolens_park_pool *p, struct iolens_file *file, void *cur)
{
    void *blob = iolens_parked_blob(cur);
    _Alignas(16) unsigned char rec[IOLENS_PARK_MAX_WORDS * 8u];
    if (iolens_park_peek_record(&p->codec, blob, rec) == 0)
        fold_record(p, file, rec);
    iolens_park_free_blob(&p->store, blob);
    atomic_store_explicit(slot_of(p, file), IOLENS_REFUSED_SLOT, memory_order_release);
    p->folds++;
}

/* file's record made live: unparked, or made afresh.  NULL without room
 * (a file refused its first record is refused for good; a parked one is
 * folded whole). */
static void *make_live(struct iolens_park_pool *p, struct iolens_file *file)
{
    void *cur = atomic_load_explicit(slot_of(p, file), memory_order_acquire);
    if (cur == IOLENS_REFUSED_SLOT || iolens_slot_is_live(cur))
        return cur == IOLENS_REFUSED_SLOT ? NULL : cur;
    void *rec = take_record(p);
    if (rec == NULL) {
        if (cur == NULL)
            atomic_store_explicit(slot_of(p, file), IOLENS_REFUSED_SLOT, memory_order_release);
        else if (!p->frozen) /* the log's walk may have read it already */
            fold_parked(p, file, cur);
        return NULL;
    }
    /* Parking above may have parked nothing of file's (it had none live). */
    _Alignas(16) unsigned char fresh[IOLENS_PARK_MAX_WORDS * 8u];
    void *blob = cur != NULL ? iolens_parked_blob(cur) : NULL;
    if (blob == NULL || iolens_park_peek_record(&p->codec, blob, fresh) != 0) {
        memset(fresh, 0, p->rec_size);
        p->fill(fresh, file);
        if (blob == NULL)
            atomic_fetch_add_explicit(&p->made, 1, memory_order_relaxed);
    } else {
        p->unparks++;
        iolens_park_free_blob(&p->store, blob);
    }
    *holds_of(p, fresh) = 0;
    install(p, rec, fresh, file);
    return rec;
}

/* ------------------------------------------------------- the calls -- */

void *iolens_pool_lock_live(struct iolens_park_pool *p, struct iolens_file *file, int *held)
{
    for (;;) {
        void *rec = atomic_load_explicit(slot_of(p, file), memory_order_acquire);
        if (!iolens_slot_is_live(rec)) {
            iolens_lock_always(&p->lock);
            rec = make_live(p, file);
            iolens_unlock_always(&p->lock);
            if (rec == NULL)
                return NULL;
        }
        *held = iolens_lock(lock_of(p, rec));
        if (atomic_load_explicit(slot_of(p, file), memory_order_acquire) == rec)
            return rec;
        iolens_unlock(lock_of(p, rec), *held); /* parked meanwhile: again */
    }
}

uint64_t iolens_pool_demand(struct iolens_park_pool *p, uint64_t budget)
{
    (void)budget;
    return atomic_load_explicit(&p->made, memory_order_relaxed) *
           iolens_budget_round(p->rec_size);
}

void *iolens_pool_read(struct iolens_park_pool *p, struct iolens_file *file, void *scratch,
                       size_t offset, size_t bytes)
{
    iolens_lock_always(&p->lock);
    p->frozen = 1;
    void *rec = atomic_load_explicit(slot_of(p, file), memory_order_acquire);
    size_t first = offset / 8u, end = (offset + bytes + 7u) / 8u;
    if (rec == IOLENS_REFUSED_SLOT)
        rec = NULL;
    else if (rec != NULL && iolens_is_parked(rec))
        rec = iolens_park_peek_part(&p->codec, iolens_parked_blob(rec), first, end - first,
                                    scratch) == 0
                  ? scratch
                  : NULL;
    iolens_unlock_always(&p->lock);
    return rec;
}

struct clear_walk {
    struct iolens_park_pool *p;
    void (*clear)(void *rec, struct iolens_file *file);
};

static void clear_parked(struct iolens_file *file, void *arg)
{
    struct clear_walk *w = arg;
    void *cur = atomic_load_explicit(slot_of(w->p, file), memory_order_acquire);
    if (cur == NULL || !iolens_is_parked(cur))
        return;
    _Alignas(16) unsigned char copy[IOLENS_PARK_MAX_WORDS * 8u];
    void *blob = iolens_parked_blob(cur);
    if (iolens_park_peek_record(&w->p->codec, blob, copy) != 0)
        return;
    w->clear(copy, file);
    if (iolens_park_repack_record(&w->p->codec, blob, copy) != 0) {
        /* Cleared, a record only loses words; should it not fit, it is
         * made live (the child's first record). */
        void *rec = take_record(w->p);
        if (rec != NULL)
            install(w->p, rec, copy, file);
    }
}

void iolens_pool_clear_parked(struct iolens_park_pool *p,
                              void (*clear)(void *rec, struct iolens_file *file))
{
    struct clear_walk w = {p, clear};
    iolens_lock_always(&p->lock);
    p->frozen = 0;
    p->folded_any = 0; /* the parent's counts */
    iolens_file_foreach(clear_parked, &w);
    iolens_unlock_always(&p->lock);
}

/* fold_idle and fold_held: file's live record folded whole if nothing
 * holds it, or (even_held) whatever holds it.  A held record's memory is
 * not freed: its holders still point at it until the caller moves them
 * (its slot refused, it is never folded nor freed again). */
static int fold_live(struct iolens_park_pool *p, struct iolens_file *file, int even_held)
{
    int folded = 0, idle = 0;
    iolens_lock_always(&p->lock);
    void *rec = atomic_load_explicit(slot_of(p, file), memory_order_acquire);
    if (!p->frozen && iolens_slot_is_live(rec) && !p->never_park(file)) {
        _Alignas(16) unsigned char copy[IOLENS_PARK_MAX_WORDS * 8u];
        int held = iolens_lock(lock_of(p, rec));
        idle = *holds_of(p, rec) == 0;
        if (idle || even_held) {
            copy_record(p, copy, rec);
            /* A thread that read the slot before finds it changed once it
             * has the lock, and looks again (iolens_pool_lock_live). */
            atomic_store_explicit(slot_of(p, file), IOLENS_REFUSED_SLOT, memory_order_release);
            folded = 1;
        }
        iolens_unlock(lock_of(p, rec), held);
        if (folded) {
            fold_record(p, file, copy);
            if (idle)
                push_free(p, rec);
            p->folds++;
        }
    }
    iolens_unlock_always(&p->lock);
    return folded;
}

int iolens_pool_fold_idle(struct iolens_park_pool *p, struct iolens_file *file)
{
    return fold_live(p, file, 0);
}

int iolens_pool_fold_held(struct iolens_park_pool *p, struct iolens_file *file)
{
    return fold_live(p, file, 1);
}

int iolens_pool_add_folded(struct iolens_park_pool *p, void *out, int has)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(p->region_kind);
    iolens_lock_always(&p->lock);
    if (p->folded_any) {
        if (has) {
            iolens_record_merge(d, out, p->folded);
        } else { /* nothing of its own to merge with: the folded files' */
            uint64_t id;
            memcpy(&id, out, sizeof id);
            memcpy(out, p->folded, d->record_size);
            memcpy(out, &id, sizeof id);
        }
        has = 1;
    }
    iolens_unlock_always(&p->lock);
    return has;
}

void iolens_pool_release_lock(struct iolens_park_pool *p)
{
    iolens_unlock_always(&p->lock);
}

void iolens_pool_stats(struct iolens_park_pool *p, struct iolens_pool_stats *out)
{
    iolens_lock_always(&p->lock);
    out->live = p->live;
    out->cap = p->cap;
    out->parked = p->store.blobs;
    out->parked_bytes = p->store.blob_bytes;
    out->parks = p->parks;
    out->unparks = p->unparks;
    out->folds = p->folds;
    iolens_unlock_always(&p->lock);
}
