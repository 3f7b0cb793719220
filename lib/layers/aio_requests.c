/* POSIX AIO requests in flight (aio_requests.h): an open-addressing
 * table keyed by the control block's address, linear probing, deletion
 * by shifting the following entries back (no tombstones). */
#include "layers/aio_requests.h"

#include <stddef.h>
#include <string.h>

#include "core/budget.h"
#include "core/spinlock.h"

struct slot {
    const void *cb; /* NULL: free */
    struct iolens_aio_request req;
};

static struct slot *slots;
static size_t used;
static _Atomic int lock;

#define MASK (IOLENS_AIO_SLOTS - 1u)
_Static_assert((IOLENS_AIO_SLOTS & MASK) == 0, "a power of two");

static size_t home_of(const void *cb)
{
    uintptr_t p = (uintptr_t)cb;
    return (size_t)(((p >> 4) ^ (p >> 16)) * UINT64_C(0x9e3779b97f4a7c15) >> 32) & MASK;
}

/* The slot holding cb, or the free slot where it would go. */
static size_t find(const void *cb)
{
    size_t i = home_of(cb);
    while (slots[i].cb != NULL && slots[i].cb != cb)
        i = (i + 1) & MASK;
    return i;
}

int iolens_aio_note(const void *cb, const struct iolens_aio_request *req)
{
    int rc = -1;
    iolens_lock_always(&lock);
    if (slots == NULL)
        slots = iolens_budget_alloc(IOLENS_AIO_SLOTS * sizeof *slots);
    if (slots != NULL) {
        size_t i = find(cb);
        if (slots[i].cb == cb || used < IOLENS_AIO_SLOTS / 4 * 3) {
            used += slots[i].cb == NULL;
            slots[i].cb = cb;
            slots[i].req = *req;
            rc = 0;
        }
    }
    iolens_unlock_always(&lock);
    return rc;
}

/* Empties slot i, moving back each entry after it that would no longer
 * be found past the gap. */
static void remove_at(size_t i)
{
    size_t j = i;
    for (;;) {
        slots[i].cb = NULL;
        for (;;) {
            j = (j + 1) & MASK;
            if (slots[j].cb == NULL)
                return;
            size_t home = home_of(slots[j].cb);
            /* j's entry may fill the gap at i when its home is not
             * cyclically within (i, j]. */
            int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!stays)
                break;
        }
        slots[i] = slots[j];
        i = j;
    }
}

int iolens_aio_take(const void *cb, struct iolens_aio_request *out)
{
    int found = 0;
    iolens_lock_always(&lock);
    if (slots != NULL) {
        size_t i = find(cb);
        if (slots[i].cb == cb) {
            *out = slots[i].req;
            remove_at(i);
            used--;
            found = 1;
        }
    }
    iolens_unlock_always(&lock);
    return found;
}

void iolens_aio_reset(void)
{
    if (slots != NULL)
        memset(slots, 0, IOLENS_AIO_SLOTS * sizeof *slots);
    used = 0;
}

void iolens_aio_release_lock(void)
{
    iolens_unlock_always(&lock);
}
