/* The STDIO layer's stream tables (stdio_streams.h): lookups, claiming
 * and releasing slots, more tables from the budget, the overflow slot. */
#include "layers/stdio_streams.h"

#include "core/budget.h"
#include "core/real_calls.h"
#include "core/spinlock.h"

#define MAX_SLOTS 1024u
#define MIN_SLOTS 16u
#define OVERFLOW_FDS 65536

struct stream_table {
    struct iolens_stdio_stream *slots; /* set before the table is published */
    size_t taken;                      /* slots not empty, under the lock */
};

struct iolens_stdio_stream *iolens_stdio_tables_first;
size_t iolens_stdio_slot_mask;
unsigned iolens_stdio_slot_shift;
_Atomic unsigned iolens_stdio_ntables; /* published: made and zeroed */
_Atomic int iolens_stdio_overflow_used;
struct iolens_stdio_stream iolens_stdio_overflow_slot;

static struct stream_table tables[IOLENS_STDIO_MAX_TABLES];
static size_t slots_cap;     /* three quarters of a table's slots */
static int table_refused;    /* the budget had no room for one more */
static _Atomic int table_lock;
static _Atomic uint64_t overflow_fds[OVERFLOW_FDS / 64];

static size_t nslots(void)
{
    return iolens_stdio_slot_mask + 1;
}

static size_t table_bytes(void)
{
    return nslots() * sizeof(struct iolens_stdio_stream);
}

/* ------------------------------------------------------- start-up -- */

static size_t table_slots_for_budget(size_t budget)
{
    /* At most 1/16 of the budget goes to the first table. */
    size_t n = MAX_SLOTS;
    while (n > MIN_SLOTS && n * sizeof(struct iolens_stdio_stream) > budget / 16)
        n /= 2;
    return n;
}

/* The first table's bytes at a budget (a scaled allocation, budget.h). */
static size_t table_bytes_for_budget(size_t budget)
{
    return table_slots_for_budget(budget) * sizeof(struct iolens_stdio_stream);
}

int iolens_stdio_streams_init(void)
{
    size_t n = table_slots_for_budget(iolens_budget_size());
    struct iolens_stdio_stream *first = iolens_budget_alloc_scaled(table_bytes_for_budget);
    if (first == NULL)
        return 0;
    unsigned bits = 0;
    while (((size_t)1 << bits) < n)
        bits++;
    iolens_stdio_slot_shift = 64 - bits;
    iolens_stdio_slot_mask = n - 1;
    slots_cap = n - n / 4;
    table_refused = 0;
    tables[0] = (struct stream_table){first, 0};
    iolens_stdio_tables_first = first;
    atomic_store_explicit(&iolens_stdio_ntables, 1, memory_order_release);
    return 1;
}

void iolens_stdio_streams_lock(void)
{
    iolens_lock_always(&table_lock);
}

void iolens_stdio_streams_unlock(void)
{
    iolens_unlock_always(&table_lock);
}

/* ------------------------------------------------------ overflow -- */

static int stream_fd(FILE *stream)
{
    int (*real_fileno)(FILE *) = IOLENS_REAL(fileno);
    int fd = real_fileno != NULL ? real_fileno(stream) : -1;
    return fd >= 0 && fd < OVERFLOW_FDS ? fd : -1;
}

static struct iolens_stdio_stream *find_overflow(FILE *stream)
{
    int fd = stream_fd(stream);
    if (fd < 0)
        return NULL;
    uint64_t word = atomic_load_explicit(&overflow_fds[fd / 64], memory_order_acquire);
    return (word >> (fd % 64)) & 1 ? &iolens_stdio_overflow_slot : NULL;
}

/* Sets (on) or clears fd's bit; returns whether it was set. */
static int mark_overflow(int fd, int on)
{
    uint64_t bit = (uint64_t)1 << (fd % 64);
    uint64_t old = on ? atomic_fetch_or(&overflow_fds[fd / 64], bit)
                      : atomic_fetch_and(&overflow_fds[fd / 64], ~bit);
    return (old & bit) != 0;
}

/* Under the lock: one stream more (+1) or fewer (-1) on the overflow
 * slot.  Each time the most there at once passes a table's cap, the
 * bytes of one more table count as needed: the budget that gives every
 * stream a slot of its own (their buffers watched). */
static void note_overflow_stream(int delta)
{
    static size_t now, most;
    now = delta > 0 ? now + 1 : now - (now > 0);
    if (now <= most)
        return;
    most = now;
    if ((most - 1) % slots_cap == 0)
        iolens_budget_add_needed(table_bytes());
}

int iolens_stdio_overflow_bind(FILE *stream)
{
    int fd = stream_fd(stream);
    if (fd < 0)
        return 0;
    atomic_store_explicit(&iolens_stdio_overflow_used, 1, memory_order_relaxed);
    if (!mark_overflow(fd, 1))
        note_overflow_stream(1);
    return 1;
}

void iolens_stdio_overflow_unbind(FILE *stream)
{
    int fd = stream_fd(stream);
    if (fd >= 0 && mark_overflow(fd, 0))
        note_overflow_stream(-1);
}

/* -------------------------------------------------------- lookups -- */

struct iolens_stdio_stream *iolens_stdio_find_later(FILE *stream)
{
    unsigned n = atomic_load_explicit(&iolens_stdio_ntables, memory_order_acquire);
    for (unsigned k = 1; k < n; k++) {
        struct iolens_stdio_stream *s = iolens_stdio_find_in(tables[k].slots, stream);
        if (s != NULL)
            return s;
    }
    if (atomic_load_explicit(&iolens_stdio_overflow_used, memory_order_relaxed))
        return find_overflow(stream);
    return NULL;
}

/* ------------------------------------------- claiming, releasing -- */

/* A free slot for stream in t, or NULL when t is at its cap and no
 * tombstone lies on the stream's way. */
static struct iolens_stdio_stream *free_slot_in(struct stream_table *t, FILE *stream)
{
    size_t mask = iolens_stdio_slot_mask;
    size_t i = iolens_stdio_home_of(stream);
    for (size_t n = 0; n < nslots(); n++, i = (i + 1) & mask) {
        uintptr_t key = atomic_load_explicit(&t->slots[i].key, memory_order_relaxed);
        if (key == IOLENS_STDIO_SLOT_TOMB ||
            (key == IOLENS_STDIO_SLOT_EMPTY && t->taken < slots_cap))
            return &t->slots[i];
        if (key == IOLENS_STDIO_SLOT_EMPTY)
            return NULL;
    }
    return NULL;
}

/* One more table from the budget; 0 when there is no room (asked once:
 * what is needed, note_overflow_stream counts). */
static int add_table(void)
{
    unsigned n = atomic_load_explicit(&iolens_stdio_ntables, memory_order_relaxed);
    if (n >= IOLENS_STDIO_MAX_TABLES || table_refused)
        return 0;
    void *mem = iolens_budget_alloc_quiet(table_bytes()); /* zeroed: every slot empty */
    if (mem == NULL) {
        table_refused = 1;
        return 0;
    }
    tables[n] = (struct stream_table){mem, 0};
    atomic_store_explicit(&iolens_stdio_ntables, n + 1, memory_order_release);
    return 1;
}

static struct stream_table *table_of(const struct iolens_stdio_stream *slot)
{
    unsigned n = atomic_load_explicit(&iolens_stdio_ntables, memory_order_relaxed);
    for (unsigned k = 0; k < n; k++)
        if (slot >= tables[k].slots && slot < tables[k].slots + nslots())
            return &tables[k];
    return NULL;
}

struct iolens_stdio_stream *iolens_stdio_slot_claim(FILE *stream, int *stale)
{
    struct iolens_stdio_stream *slot = iolens_stdio_find_slot(stream);
    *stale = slot != NULL && slot != &iolens_stdio_overflow_slot;
    if (slot == &iolens_stdio_overflow_slot) {
        iolens_stdio_overflow_unbind(stream); /* a stale binding: try the tables again */
        slot = NULL;
    }
    if (slot != NULL || iolens_stdio_tables_first == NULL)
        return slot;
    for (unsigned k = 0; k < IOLENS_STDIO_MAX_TABLES; k++) {
        if (k == atomic_load_explicit(&iolens_stdio_ntables, memory_order_relaxed) && !add_table())
            return NULL;
        if ((slot = free_slot_in(&tables[k], stream)) != NULL)
            return slot;
    }
    return NULL;
}

void iolens_stdio_slot_publish(struct iolens_stdio_stream *slot, FILE *stream)
{
    if (atomic_load_explicit(&slot->key, memory_order_relaxed) == IOLENS_STDIO_SLOT_EMPTY)
        table_of(slot)->taken++;
    atomic_store_explicit(&slot->key, (uintptr_t)stream, memory_order_release);
}

/* A slot followed by an empty one ends no probe chain, so it (and
 * tombstones before it) can become empty again; that keeps chains short
 * after many opens and closes. */
void iolens_stdio_slot_release(struct iolens_stdio_stream *slot)
{
    struct stream_table *t = table_of(slot);
    struct iolens_stdio_stream *slots = t->slots;
    size_t mask = iolens_stdio_slot_mask;
    size_t i = (size_t)(slot - slots);
    if (atomic_load_explicit(&slots[(i + 1) & mask].key, memory_order_relaxed) !=
        IOLENS_STDIO_SLOT_EMPTY) {
        atomic_store_explicit(&slot->key, IOLENS_STDIO_SLOT_TOMB, memory_order_release);
        return;
    }
    atomic_store_explicit(&slot->key, IOLENS_STDIO_SLOT_EMPTY, memory_order_release);
    t->taken--;
    for (size_t n = 1; n < nslots(); n++) {
        size_t j = (i - n) & mask;
        if (atomic_load_explicit(&slots[j].key, memory_order_relaxed) != IOLENS_STDIO_SLOT_TOMB)
            break;
        atomic_store_explicit(&slots[j].key, IOLENS_STDIO_SLOT_EMPTY, memory_order_release);
        t->taken--;
    }
}

void iolens_stdio_streams_foreach(void (*fn)(struct iolens_stdio_stream *slot, FILE *stream,
                                             void *arg),
                                  void *arg)
{
    unsigned n = atomic_load_explicit(&iolens_stdio_ntables, memory_order_acquire);
    for (unsigned k = 0; k < n; k++)
        for (size_t i = 0; i < nslots(); i++) {
            uintptr_t key = atomic_load_explicit(&tables[k].slots[i].key, memory_order_acquire);
            if (key != IOLENS_STDIO_SLOT_EMPTY && key != IOLENS_STDIO_SLOT_TOMB)
                fn(&tables[k].slots[i], (FILE *)key, arg);
        }
}
