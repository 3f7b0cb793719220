/* The per-layer interval stores of the process (layer_intervals.h). */
#include "layers/layer_intervals.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/budget.h"
#include "core/clock.h"
#include "iolens/log_format.h"
#include "core/state.h"
#include "format/record_merge.h"
#include "layers/layer_ops.h"

struct iolens_interval_store iolens_layer_intervals[IOLENS_NLAYERS];

/* The other threads' stores (layer_intervals.h), NULL until first used. */
static struct iolens_interval_store *thread_stores[IOLENS_NLAYERS][IOLENS_INTERVAL_THREAD_STORES];
/* Bytes of one thread store of a layer (0: the layer has no main store). */
static size_t thread_store_bytes[IOLENS_NLAYERS];
/* Round robin over the thread stores. */
static unsigned next_thread_slot;
/* Layers with a main store, and the thread stores ever asked for: what
 * the stores take at any budget (main_store_bytes, thread_stores_demand). */
static unsigned recording_layers;
static _Atomic unsigned thread_stores_wanted;
/* 0 for a library layer's main store shared out at start-up but not
 * taken yet (iolens_intervals_take_store), 1 for every other layer. */
static _Atomic int store_taken[IOLENS_NLAYERS];
static _Atomic int store_take_lock;
/* IOLENS_MEMORY as iolens_intervals_init was given it: the stores' share. */
static size_t store_memory;

/* The calling thread's store slot: 0 not chosen yet, 1 the main store,
 * 2 + k thread store k.  Initial-exec TLS: the runtime is preloaded or
 * linked in, never dlopen'ed, and this keeps the read to one instruction. */
static __thread unsigned char thread_slot __attribute__((tls_model("initial-exec")));

/* The i-th data layer (log_format.h: IOLENS_LAYERS), in the order their
 * intervals go into the log. */
static enum iolens_layer data_layer(size_t i)
{
    return (enum iolens_layer)iolens_layer_desc_index(iolens_data_layer_at((unsigned)i));
}
#define NDATA ((size_t)IOLENS_NDATA_LAYERS)

/* Whether a layer can see accesses in this process at all, when it is not
 * switched off.  A base layer (IOLENS_LAYERS' BASE column: its calls are
 * the C library's) always can, and is answered from the layer table, not
 * the ops table: a unit test linked to the static core has only the ops
 * entries it references, and must still share the stores out as
 * libiolens.so does.  A library's layer (MPI-IO, HDF5) can when it is
 * compiled in, which is when it has an ops entry, and its entry says it
 * can now (MPI-IO: in an MPI program). */
static int layer_can_record(enum iolens_layer layer)
{
    if (iolens_layers_off & (1u << layer))
        return 0;
    if (iolens_layer_desc_at(layer)->base)
        return 1;
    const struct iolens_layer_ops *ops = iolens_layer_ops_of(layer);
    return ops != NULL && (ops->can_record == NULL || ops->can_record());
}

/* One main store at a budget (a scaled allocation, budget.h). */
static size_t main_store_bytes(size_t budget)
{
    return recording_layers > 0 ? budget / IOLENS_INTERVAL_BUDGET_DIVISOR / recording_layers : 0;
}

static size_t thread_store_total(size_t budget)
{
    return sizeof(struct iolens_interval_store) +
           iolens_budget_round(main_store_bytes(budget) / IOLENS_INTERVAL_THREAD_DIVISOR);
}

/* Every thread store asked for, at a budget (a demand function). */
static uint64_t thread_stores_demand(uint64_t budget)
{
    return (uint64_t)atomic_load_explicit(&thread_stores_wanted, memory_order_relaxed) *
           iolens_budget_round(thread_store_total((size_t)budget));
}

static void take_store(enum iolens_layer layer);

void iolens_intervals_init(size_t memory)
{
    memset(iolens_layer_intervals, 0, sizeof iolens_layer_intervals);
    memset(thread_store_bytes, 0, sizeof thread_store_bytes);
    store_memory = memory;
    for (unsigned l = 0; l < IOLENS_NLAYERS; l++)
        atomic_store(&store_taken[l], 1);
    unsigned n = 0;
    for (size_t i = 0; i < NDATA; i++)
        n += (unsigned)layer_can_record(data_layer(i));
    recording_layers = n;
    atomic_store(&thread_stores_wanted, 0);
    if (n == 0)
        return;
    iolens_budget_add_demand(thread_stores_demand);
    for (size_t i = 0; i < NDATA; i++) {
        enum iolens_layer layer = data_layer(i);
        if (!layer_can_record(layer))
            continue;
        if (iolens_layer_desc_at(layer)->base)
            take_store(layer);
        else
            atomic_store(&store_taken[layer], 0);
    }
}

/* Allocates and sets up a layer's main store.  A refused allocation
 * leaves the store disabled (capacity 0): it still counts accesses and
 * bytes, and the budget's "needed" figure shows what was missing. */
static void take_store(enum iolens_layer layer)
{
    size_t share = main_store_bytes(store_memory);
    void *mem = iolens_budget_alloc_scaled(main_store_bytes);
    iolens_interval_store_init(&iolens_layer_intervals[layer], mem, mem != NULL ? share : 0);
    if (mem != NULL)
        thread_store_bytes[layer] = share / IOLENS_INTERVAL_THREAD_DIVISOR;
}

static void take_store_of(void *layer)
{
    take_store(*(const enum iolens_layer *)layer);
}

void iolens_intervals_take_store(enum iolens_layer layer)
{
    if ((unsigned)layer < IOLENS_NLAYERS)
        iolens_once(&store_taken[layer], &store_take_lock, take_store_of, &layer);
}

void iolens_intervals_reset(void)
{
    for (size_t i = 0; i < NDATA; i++) {
        enum iolens_layer layer = data_layer(i);
        iolens_interval_store_reset(&iolens_layer_intervals[layer]);
        for (unsigned k = 0; k < IOLENS_INTERVAL_THREAD_STORES; k++)
            if (thread_stores[layer][k] != NULL)
                iolens_interval_store_reset(thread_stores[layer][k]);
    }
}

void iolens_intervals_release_locks(void)
{
    iolens_unlock_always(&store_take_lock);
    for (size_t i = 0; i < NDATA; i++) {
        enum iolens_layer layer = data_layer(i);
        iolens_unlock_always(&iolens_layer_intervals[layer].lock);
        for (unsigned k = 0; k < IOLENS_INTERVAL_THREAD_STORES; k++)
            if (thread_stores[layer][k] != NULL)
                iolens_unlock_always(&thread_stores[layer][k]->lock);
    }
}

/* ------------------------------------------------------ thread stores -- */

static unsigned char choose_thread_slot(void)
{
    if (syscall(SYS_gettid) == getpid())
        return 1;
    unsigned k = __atomic_fetch_add(&next_thread_slot, 1, __ATOMIC_RELAXED);
    return (unsigned char)(2 + k % IOLENS_INTERVAL_THREAD_STORES);
}

/* Thread store k of a layer, made on first use; NULL if the budget
 * refuses.  Two threads racing to make the same store both allocate, one
 * wins: the loser's few bytes stay unused in the arena. */
static struct iolens_interval_store *thread_store(enum iolens_layer layer, unsigned k)
{
    static _Atomic unsigned char wanted[IOLENS_NLAYERS][IOLENS_INTERVAL_THREAD_STORES];
    struct iolens_interval_store *s = __atomic_load_n(&thread_stores[layer][k], __ATOMIC_ACQUIRE);
    if (s != NULL || thread_store_bytes[layer] == 0)
        return s;
    /* Counted once per store, however often a refusal makes it retry. */
    if (!atomic_exchange_explicit(&wanted[layer][k], 1, memory_order_relaxed))
        atomic_fetch_add_explicit(&thread_stores_wanted, 1, memory_order_relaxed);
    struct iolens_interval_store *made = iolens_budget_alloc_uncounted(sizeof *made + thread_store_bytes[layer]);
    if (made == NULL)
        return NULL;
    iolens_interval_store_init(made, made + 1, thread_store_bytes[layer]);
    if (__atomic_compare_exchange_n(&thread_stores[layer][k], &s, made, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return made;
    return s;
}

struct iolens_interval_store *iolens_intervals_thread_store(enum iolens_layer layer)
{
    if (thread_slot == 0)
        thread_slot = choose_thread_slot();
    struct iolens_interval_store *s = NULL;
    if (thread_slot >= 2)
        s = thread_store(layer, thread_slot - 2u);
    return s != NULL ? s : &iolens_layer_intervals[layer];
}

/* ------------------------------------------------------------ packing -- */

/* Whether an entry is whole.  The log written at a signal comes from a
 * snapshot copy of the process whose runtime locks are all released
 * (core/termination.c): a thread stopped inside the store's bookkeeping
 * may have left the entry it was appending unwritten, which the reader
 * would refuse (no access, an end before the start), and the whole log
 * with it. */
static int entry_is_whole(const struct iolens_interval *iv)
{
    return iv->accesses > 0 && iv->start <= iv->end && iv->busy >= 0 && iv->bytes >= 0;
}

/* Appends a consistent copy of one store to p (under the store's lock:
 * a thread may still be appending), whole entries only; p->iv has room
 * for it.  The same snapshot may have caught an access counted in its
 * entry but not yet in the store's total, which the reader would refuse
 * (intervals holding more accesses than the layer counted): the total is
 * then the entries' own. */
static void append_store(struct iolens_interval_store *s, struct iolens_intervals_packed *p)
{
    iolens_lock_always(&s->lock);
    size_t n = s->count;
    uint64_t in_entries = 0;
    for (size_t i = 0; i < n; i++)
        if (entry_is_whole(&s->iv[i])) {
            p->iv[p->count++] = s->iv[i];
            in_entries += s->iv[i].accesses;
        }
    p->accesses += in_entries > s->accesses ? in_entries : s->accesses;
    p->error_bound += s->error_bound;
    p->bytes += s->bytes;
    p->sum_duration += s->sum_duration;
    p->overlap += s->overlap;
    iolens_unlock_always(&s->lock);
}

/* The stores of a layer: the main one, then the thread stores made. */
static size_t stores_of(enum iolens_layer layer, struct iolens_interval_store **out)
{
    size_t n = 0;
    out[n++] = &iolens_layer_intervals[layer];
    for (unsigned k = 0; k < IOLENS_INTERVAL_THREAD_STORES; k++) {
        struct iolens_interval_store *s = __atomic_load_n(&thread_stores[layer][k], __ATOMIC_ACQUIRE);
        if (s != NULL)
            out[n++] = s;
    }
    return n;
}

void iolens_intervals_rename(enum iolens_layer layer, uint64_t from, uint64_t to)
{
    struct iolens_interval_store *stores[1 + IOLENS_INTERVAL_THREAD_STORES];
    size_t n = stores_of(layer, stores);
    for (size_t i = 0; i < n; i++) {
        iolens_lock_always(&stores[i]->lock);
        iolens_interval_store_rename(stores[i], from, to);
        iolens_unlock_always(&stores[i]->lock);
    }
}

/* All the stores of a layer merged into p (the error bounds add up: each
 * store's union overestimates its own accesses' by at most its bound).
 * Room is taken for the stores' capacities, so that a thread appending
 * meanwhile cannot overflow the copy. */
static int copy_layer(enum iolens_layer layer, struct iolens_intervals_packed *p)
{
    struct iolens_interval_store *stores[1 + IOLENS_INTERVAL_THREAD_STORES];
    size_t n = stores_of(layer, stores), room = 1;
    for (size_t i = 0; i < n; i++)
        room += stores[i]->capacity;
    p->iv = malloc(room * sizeof *p->iv);
    if (p->iv == NULL)
        return -1;
    /* Each store bounds only its own accesses' overlap: those of two
     * threads may overlap each other.  With more than one store in use
     * the layer's union is known to be at least the largest store's
     * (sum_duration - overlap), which is what p->overlap then says. */
    double best_floor = 0.0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        double sum_before = p->sum_duration, overlap_before = p->overlap;
        uint64_t accesses_before = p->accesses;
        append_store(stores[i], p);
        double floor = (p->sum_duration - sum_before) - (p->overlap - overlap_before);
        used += p->accesses > accesses_before;
        if (floor > best_floor)
            best_floor = floor;
    }
    if (used > 1)
        p->overlap = p->sum_duration - best_floor;
    return 0;
}

static void to_seconds(struct iolens_intervals_packed *p, double seconds_per_unit, double shift)
{
    for (size_t i = 0; i < p->count; i++) {
        p->iv[i].start = p->iv[i].start * seconds_per_unit + shift;
        p->iv[i].end = p->iv[i].end * seconds_per_unit + shift;
    }
    for (size_t i = 0; i < p->count; i++)
        p->iv[i].busy *= seconds_per_unit;
    p->error_bound *= seconds_per_unit;
    p->sum_duration *= seconds_per_unit;
    p->overlap *= seconds_per_unit;
}

/* POSIX and STDIO are always in the region (as their record regions are
 * always in the log); MPI-IO and H5D only when they saw an access. */
static int layer_written(enum iolens_layer layer)
{
    if (layer == IOLENS_LAYER_POSIX || layer == IOLENS_LAYER_STDIO)
        return 1;
    struct iolens_interval_store *stores[1 + IOLENS_INTERVAL_THREAD_STORES];
    size_t n = stores_of(layer, stores);
    for (size_t i = 0; i < n; i++)
        if (__atomic_load_n(&stores[i]->accesses, __ATOMIC_RELAXED) > 0)
            return 1;
    return 0;
}

int iolens_intervals_pack(unsigned layers_off, double shift_seconds,
                          struct iolens_intervals_packed *out)
{
    double seconds_per_unit = iolens_clock_seconds_per_unit();
    int n = 0;
    for (size_t i = 0; i < NDATA; i++) {
        enum iolens_layer layer = data_layer(i);
        if ((layers_off & (1u << layer)) || !layer_written(layer))
            continue;
        struct iolens_intervals_packed *p = &out[n];
        memset(p, 0, sizeof *p);
        p->region_kind = iolens_layer_region_kind(layer);
        if (copy_layer(layer, p) != 0) {
            iolens_intervals_packed_free(out, n);
            return -1;
        }
        to_seconds(p, seconds_per_unit, shift_seconds);
        n++;
    }
    return n;
}

void iolens_intervals_packed_free(struct iolens_intervals_packed *p, int n)
{
    for (int i = 0; i < n; i++) {
        free(p[i].iv);
        p[i].iv = NULL;
    }
}
