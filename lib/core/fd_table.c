/*
 * Descriptor table: a static top array of chunk pointers, each chunk
 * IOLENS_FD_CHUNK atomic ofd pointers allocated from the budget the first
 * time a descriptor in its range is bound.  Lookups (the read/write path)
 * are two acquire loads; binding and unbinding are atomic exchanges.
 *
 * ofds are recycled through a free list.  It is touched only on open,
 * dup and close, so a tiny spinlock guards it (no ABA to reason about);
 * the read/write path never sees it.
 *
 * The overflow ofd (fd_table.h) is static and never recycled.  A
 * descriptor is bound to it in its slot when the chunk exists, else by a
 * bit of overflow_bits; lookups consult the bits only when the slot is
 * empty and some overflow binding was ever made.
 */
#include "core/fd_table.h"

#include <stddef.h>

#include "core/budget.h"
#include "core/spinlock.h"

#define NCHUNKS (IOLENS_FD_MAX / IOLENS_FD_CHUNK)
#define BITS_PER_WORD 64u

typedef iolens_ofd_slot ofd_slot;

_Atomic(iolens_ofd_slot *) iolens_fd_chunks[IOLENS_FD_MAX / IOLENS_FD_CHUNK];
_Atomic int iolens_fd_overflow_used;
static struct iolens_ofd *free_list;
static _Atomic int free_lock;

static struct iolens_ofd overflow_ofd;
static int overflow_ready;
/* Descriptors bound to the overflow ofd for want of their chunk. */
static _Atomic uint64_t overflow_bits[IOLENS_FD_MAX / BITS_PER_WORD];

/* Demand bookkeeping (iolens_fd_table_unmet_bytes). */
static _Atomic uint64_t chunks_refused[NCHUNKS / BITS_PER_WORD];
static _Atomic long ofds_allocated;   /* ofds ever taken from the budget */
static _Atomic long ofds_live;        /* ofds in use + overflow bindings */
static _Atomic long ofds_peak;

int iolens_fd_table_init(void)
{
    for (unsigned i = 0; i < NCHUNKS; i++)
        atomic_store(&iolens_fd_chunks[i], NULL);
    for (unsigned i = 0; i < IOLENS_FD_MAX / BITS_PER_WORD; i++)
        atomic_store(&overflow_bits[i], 0);
    for (unsigned i = 0; i < NCHUNKS / BITS_PER_WORD; i++)
        atomic_store(&chunks_refused[i], 0);
    atomic_store(&iolens_fd_overflow_used, 0);
    atomic_store(&ofds_allocated, 0);
    atomic_store(&ofds_live, 0);
    atomic_store(&ofds_peak, 0);
    overflow_ready = 0;
    free_list = NULL;
    iolens_unlock_always(&free_lock);
    iolens_budget_add_demand(iolens_fd_table_unmet_bytes);
    return 0;
}

void iolens_fd_table_release_locks(void)
{
    iolens_unlock_always(&free_lock);
}

void iolens_fd_set_overflow(struct iolens_file *file, void *rec)
{
    overflow_ofd.file = file;
    overflow_ofd.rec = rec;
    atomic_store_explicit(&overflow_ofd.offset, 0, memory_order_relaxed);
    overflow_ofd.last_end = -1;
    overflow_ofd.last_start = -1;
    overflow_ofd.flags = 0;   /* per descriptor flags cannot be kept here */
    atomic_store_explicit(&overflow_ofd.refs, 1, memory_order_relaxed);
    overflow_ready = file != NULL && rec != NULL;
}

int iolens_fd_is_overflow(const struct iolens_ofd *ofd)
{
    return ofd == &overflow_ofd;
}

static int fd_in_range(int fd)
{
    return fd >= 0 && fd < IOLENS_FD_MAX;
}

static uint64_t fd_bit(int fd)
{
    return (uint64_t)1 << ((unsigned)fd % BITS_PER_WORD);
}

struct iolens_ofd *iolens_fd_lookup_overflow(int fd)
{
    uint64_t word = atomic_load_explicit(&overflow_bits[(unsigned)fd / BITS_PER_WORD],
                                         memory_order_acquire);
    return (word & fd_bit(fd)) ? &overflow_ofd : NULL;
}

struct iolens_ofd *iolens_fd_get(int fd)
{
    return iolens_fd_lookup(fd);
}

/* ------------------------------------------------------- demand -- */

static void note_live(long delta)
{
    long now = atomic_fetch_add_explicit(&ofds_live, delta, memory_order_relaxed) + delta;
    long peak = atomic_load_explicit(&ofds_peak, memory_order_relaxed);
    while (now > peak && !atomic_compare_exchange_weak_explicit(&ofds_peak, &peak, now,
                                                                memory_order_relaxed,
                                                                memory_order_relaxed))
        ;
}

uint64_t iolens_fd_table_unmet_bytes(uint64_t budget)
{
    (void)budget;
    uint64_t chunks = 0;
    for (unsigned i = 0; i < NCHUNKS / BITS_PER_WORD; i++)
        chunks += (uint64_t)__builtin_popcountll(atomic_load(&chunks_refused[i]));
    long missing = atomic_load(&ofds_peak) - atomic_load(&ofds_allocated);
    return chunks * iolens_budget_round(IOLENS_FD_CHUNK * sizeof(ofd_slot)) +
           (missing > 0 ? (uint64_t)missing * iolens_budget_round(sizeof(struct iolens_ofd)) : 0);
}

/* ----------------------------------------------------- bindings -- */

/* The slot of fd, creating its chunk if needed; NULL if fd is out of range
 * or the budget cannot hold the chunk. */
static ofd_slot *slot_of(int fd)
{
    if (!fd_in_range(fd))
        return NULL;
    unsigned index = (unsigned)fd / IOLENS_FD_CHUNK;
    _Atomic(ofd_slot *) *top = &iolens_fd_chunks[index];
    ofd_slot *chunk = atomic_load_explicit(top, memory_order_acquire);
    if (chunk == NULL) {
        ofd_slot *fresh = iolens_budget_alloc_quiet(IOLENS_FD_CHUNK * sizeof(ofd_slot));
        if (fresh == NULL) {
            atomic_fetch_or_explicit(&chunks_refused[index / BITS_PER_WORD],
                                     (uint64_t)1 << (index % BITS_PER_WORD), memory_order_relaxed);
            return NULL;
        }
        /* On a lost race the winner's chunk is used; ours stays unused
         * budget (at most once per chunk per racing thread). */
        if (atomic_compare_exchange_strong_explicit(top, &chunk, fresh,
                                                    memory_order_acq_rel, memory_order_acquire))
            chunk = fresh;
    }
    return &chunk[fd % IOLENS_FD_CHUNK];
}

static void lock_free_list(void)
{
    iolens_lock_always(&free_lock);
}

static void unlock_free_list(void)
{
    iolens_unlock_always(&free_lock);
}

static struct iolens_ofd *take_free_ofd(void)
{
    lock_free_list();
    struct iolens_ofd *ofd = free_list;
    if (ofd != NULL)
        free_list = ofd->next_free;
    unlock_free_list();
    return ofd;
}

static void recycle_ofd(struct iolens_ofd *ofd)
{
    lock_free_list();
    ofd->next_free = free_list;
    free_list = ofd;
    unlock_free_list();
}

/* A fresh ofd, or the overflow one (NULL if not set up) when the budget
 * cannot hold another.  Either way one more ofd is live. */
static struct iolens_ofd *new_ofd(struct iolens_file *file, void *rec, int flags)
{
    struct iolens_ofd *ofd = take_free_ofd();
    if (ofd == NULL) {
        ofd = iolens_budget_alloc_quiet(sizeof(*ofd));
        if (ofd != NULL)
            atomic_fetch_add_explicit(&ofds_allocated, 1, memory_order_relaxed);
    }
    if (ofd == NULL && !overflow_ready)
        return NULL;
    note_live(1);
    if (ofd == NULL)
        return &overflow_ofd;
    ofd->file = file;
    ofd->rec = rec;
    atomic_store_explicit(&ofd->offset, 0, memory_order_relaxed);
    ofd->last_end = -1;
    ofd->last_start = -1;
    ofd->flags = flags;
    atomic_store_explicit(&ofd->refs, 1, memory_order_relaxed);
    ofd->next_free = NULL;
    return ofd;
}

static void (*_Atomic release_hook)(struct iolens_ofd *ofd);

void iolens_fd_set_release_hook(void (*fn)(struct iolens_ofd *ofd))
{
    atomic_store_explicit(&release_hook, fn, memory_order_release);
}

/* Drops one descriptor's reference; the last one recycles the ofd.  An
 * overflow binding counted as one live ofd of its own (see new_ofd and
 * bind_overflow_bit): it is released here too. */
static void unref_ofd(struct iolens_ofd *ofd)
{
    if (ofd == NULL)
        return;
    if (ofd == &overflow_ofd) {
        note_live(-1);
        return;
    }
    if (atomic_fetch_sub_explicit(&ofd->refs, 1, memory_order_acq_rel) == 1) {
        note_live(-1);
        void (*hook)(struct iolens_ofd *) =
            atomic_load_explicit(&release_hook, memory_order_acquire);
        if (hook != NULL)
            hook(ofd);
        recycle_ofd(ofd);
    }
}

/* Publishes ofd (which may be NULL) in slot and drops what was there. */
static void rebind(ofd_slot *slot, struct iolens_ofd *ofd)
{
    unref_ofd(atomic_exchange_explicit(slot, ofd, memory_order_acq_rel));
}

/* Clears fd's overflow bit; returns whether it was set. */
static int clear_overflow_bit(int fd)
{
    if (!atomic_load_explicit(&iolens_fd_overflow_used, memory_order_relaxed))
        return 0;
    uint64_t old = atomic_fetch_and_explicit(&overflow_bits[(unsigned)fd / BITS_PER_WORD],
                                             ~fd_bit(fd), memory_order_acq_rel);
    return (old & fd_bit(fd)) != 0;
}

/* Binds fd, whose chunk the budget cannot hold, to the overflow ofd. */
static struct iolens_ofd *bind_overflow_bit(int fd)
{
    if (!overflow_ready)
        return NULL;
    atomic_store_explicit(&iolens_fd_overflow_used, 1, memory_order_relaxed);
    uint64_t old = atomic_fetch_or_explicit(&overflow_bits[(unsigned)fd / BITS_PER_WORD],
                                            fd_bit(fd), memory_order_acq_rel);
    if (!(old & fd_bit(fd)))
        note_live(1);
    return &overflow_ofd;
}

/* Drops whatever binding fd has: its slot and its overflow bit. */
static void unbind(int fd)
{
    if (clear_overflow_bit(fd))
        note_live(-1);
    ofd_slot *chunk =
        atomic_load_explicit(&iolens_fd_chunks[fd / IOLENS_FD_CHUNK], memory_order_acquire);
    if (chunk != NULL)
        rebind(&chunk[fd % IOLENS_FD_CHUNK], NULL);
}

/* Marks overflow as used before an overflow ofd is published in a slot,
 * so that lookups of other descriptors start consulting the bits. */
static struct iolens_ofd *publish(ofd_slot *slot, struct iolens_ofd *ofd)
{
    if (ofd == &overflow_ofd)
        atomic_store_explicit(&iolens_fd_overflow_used, 1, memory_order_relaxed);
    rebind(slot, ofd);
    return ofd;
}

struct iolens_ofd *iolens_fd_open(int fd, struct iolens_file *file, void *rec, int flags)
{
    if (!fd_in_range(fd))
        return NULL;
    /* The old binding belongs to a descriptor the kernel has reused, so
     * it must go, whatever happens next. */
    if (clear_overflow_bit(fd))
        note_live(-1);
    ofd_slot *slot = slot_of(fd);
    if (slot == NULL) {
        unbind(fd);
        return bind_overflow_bit(fd);   /* counts the ofd fd would have had */
    }
    return publish(slot, new_ofd(file, rec, flags));
}

struct iolens_ofd *iolens_fd_dup(int oldfd, int newfd)
{
    struct iolens_ofd *ofd = iolens_fd_get(oldfd);
    if (oldfd == newfd)
        return ofd;
    if (!fd_in_range(newfd))
        return NULL;
    if (ofd == NULL) {
        unbind(newfd);
        return NULL;
    }
    if (clear_overflow_bit(newfd))
        note_live(-1);
    ofd_slot *slot = slot_of(newfd);
    if (slot == NULL) {
        unbind(newfd);
        return bind_overflow_bit(newfd);
    }
    if (ofd == &overflow_ofd)
        note_live(1);   /* each overflow binding counts as one live ofd */
    else
        atomic_fetch_add_explicit(&ofd->refs, 1, memory_order_relaxed);
    return publish(slot, ofd);
}

void iolens_fd_close(int fd)
{
    if (fd_in_range(fd))
        unbind(fd);
}

int iolens_fd_next_bound(unsigned from, unsigned last)
{
    if (last >= IOLENS_FD_MAX)
        last = IOLENS_FD_MAX - 1;
    int overflow = atomic_load_explicit(&iolens_fd_overflow_used, memory_order_relaxed);
    for (unsigned fd = from; fd <= last; fd++) {
        /* A chunk never made holds no binding: skip it whole, unless
         * descriptors may be bound to the overflow ofd by its bitmap. */
        if (!overflow && atomic_load_explicit(&iolens_fd_chunks[fd / IOLENS_FD_CHUNK],
                                              memory_order_acquire) == NULL) {
            fd |= IOLENS_FD_CHUNK - 1;
            continue;
        }
        if (iolens_fd_lookup((int)fd) != NULL)
            return (int)fd;
    }
    return -1;
}

void iolens_fd_foreach_ofd(void (*fn)(struct iolens_ofd *ofd, void *arg), void *arg)
{
    for (size_t c = 0; c < IOLENS_FD_MAX / IOLENS_FD_CHUNK; c++) {
        ofd_slot *chunk = atomic_load_explicit(&iolens_fd_chunks[c], memory_order_acquire);
        for (size_t i = 0; chunk != NULL && i < IOLENS_FD_CHUNK; i++) {
            struct iolens_ofd *ofd = atomic_load_explicit(&chunk[i], memory_order_acquire);
            if (ofd != NULL && !iolens_fd_is_overflow(ofd))
                fn(ofd, arg);
        }
    }
}
