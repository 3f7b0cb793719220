/*
 * Descriptor table: a static top array of chunk pointers, each chunk
 * IOLENS_FD_CHUNK atomic ofd pointers allocated from the budget the first
 * time a descriptor in its range is bound.  Lookups (the read/write path)
 * are two acquire loads; binding and unbinding are atomic exchanges.
 *
 * ofds are recycled through a free list.  It is touched only on open,
 * dup and close, so a tiny spinlock guards it (no ABA to reason about);
 * the read/write path never sees it.
 */
#include "fd_table.h"

#include <stddef.h>

#include "budget.h"
#include "spinlock.h"

#define NCHUNKS (IOLENS_FD_MAX / IOLENS_FD_CHUNK)

typedef iolens_ofd_slot ofd_slot;

_Atomic(iolens_ofd_slot *) iolens_fd_chunks[IOLENS_FD_MAX / IOLENS_FD_CHUNK];
static struct iolens_ofd *free_list;
static atomic_flag free_lock = ATOMIC_FLAG_INIT;

int iolens_fd_table_init(void)
{
    for (unsigned i = 0; i < NCHUNKS; i++)
        atomic_store(&iolens_fd_chunks[i], NULL);
    free_list = NULL;
    atomic_flag_clear(&free_lock);
    return 0;
}

void iolens_fd_table_release_locks(void)
{
    atomic_flag_clear(&free_lock);
}

static int fd_in_range(int fd)
{
    return fd >= 0 && fd < IOLENS_FD_MAX;
}

struct iolens_ofd *iolens_fd_get(int fd)
{
    return iolens_fd_lookup(fd);
}

/* The slot of fd, creating its chunk if needed; NULL if fd is out of range
 * or the budget cannot hold the chunk. */
static ofd_slot *slot_of(int fd)
{
    if (!fd_in_range(fd))
        return NULL;
    _Atomic(ofd_slot *) *top = &iolens_fd_chunks[fd / IOLENS_FD_CHUNK];
    ofd_slot *chunk = atomic_load_explicit(top, memory_order_acquire);
    if (chunk == NULL) {
        ofd_slot *fresh = iolens_budget_alloc(IOLENS_FD_CHUNK * sizeof(ofd_slot));
        if (fresh == NULL)
            return NULL;
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
    unsigned spins = 0;
    while (atomic_flag_test_and_set_explicit(&free_lock, memory_order_acquire))
        iolens_spin_wait(&spins);
}

static void unlock_free_list(void)
{
    atomic_flag_clear_explicit(&free_lock, memory_order_release);
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

static struct iolens_ofd *new_ofd(struct iolens_file *file, void *rec, int flags)
{
    struct iolens_ofd *ofd = take_free_ofd();
    if (ofd == NULL)
        ofd = iolens_budget_alloc(sizeof(*ofd));
    if (ofd == NULL)
        return NULL;
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

/* Drops one descriptor's reference; the last one recycles the ofd. */
static void unref_ofd(struct iolens_ofd *ofd)
{
    if (ofd != NULL && atomic_fetch_sub_explicit(&ofd->refs, 1, memory_order_acq_rel) == 1)
        recycle_ofd(ofd);
}

/* Publishes ofd (which may be NULL) in slot and drops what was there. */
static void rebind(ofd_slot *slot, struct iolens_ofd *ofd)
{
    unref_ofd(atomic_exchange_explicit(slot, ofd, memory_order_acq_rel));
}

struct iolens_ofd *iolens_fd_open(int fd, struct iolens_file *file, void *rec, int flags)
{
    ofd_slot *slot = slot_of(fd);
    if (slot == NULL) {
        iolens_fd_close(fd);
        return NULL;
    }
    struct iolens_ofd *ofd = new_ofd(file, rec, flags);
    /* Even when no ofd could be had, the old binding belongs to a
     * descriptor the kernel has reused, so it must go. */
    rebind(slot, ofd);
    return ofd;
}

struct iolens_ofd *iolens_fd_dup(int oldfd, int newfd)
{
    struct iolens_ofd *ofd = iolens_fd_get(oldfd);
    if (oldfd == newfd)
        return ofd;
    if (ofd == NULL) {
        iolens_fd_close(newfd);
        return NULL;
    }
    ofd_slot *slot = slot_of(newfd);
    if (slot == NULL) {
        iolens_fd_close(newfd);
        return NULL;
    }
    atomic_fetch_add_explicit(&ofd->refs, 1, memory_order_relaxed);
    rebind(slot, ofd);
    return ofd;
}

void iolens_fd_close(int fd)
{
    if (!fd_in_range(fd))
        return;
    ofd_slot *chunk =
        atomic_load_explicit(&iolens_fd_chunks[fd / IOLENS_FD_CHUNK], memory_order_acquire);
    if (chunk != NULL)
        rebind(&chunk[fd % IOLENS_FD_CHUNK], NULL);
}
