/* The memory budget: one anonymous mapping of exactly IOLENS_MEMORY bytes,
 * handed out by an atomic bump of an offset.  Fresh anonymous pages are
 * zero, and nothing is ever handed back, so every allocation is zeroed
 * without a memset.  "needed" counts what was handed out plus what was
 * refused or folded, so the log can say how large a budget would have
 * kept every file apart. */
#include "budget.h"

#include "real_calls.h"

#include <stdatomic.h>
#include <sys/mman.h>

#define BUDGET_ALIGN 16u

static char *arena;
static size_t arena_size;
static _Atomic size_t arena_used;
static _Atomic uint64_t bytes_needed;

int iolens_budget_init(size_t bytes)
{
    if (bytes == 0)
        return -1;
    /* The real mmap: ours would count the arena as application I/O. */
    void *p = IOLENS_REAL(mmap)(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    arena = p;
    arena_size = bytes;
    atomic_store(&arena_used, 0);
    atomic_store(&bytes_needed, 0);
    return 0;
}

void iolens_budget_fini(void)
{
    if (arena)
        munmap(arena, arena_size);
    arena = NULL;
    arena_size = 0;
    atomic_store(&arena_used, 0);
    atomic_store(&bytes_needed, 0);
}

static size_t round_up(size_t bytes)
{
    return (bytes + BUDGET_ALIGN - 1) & ~(size_t)(BUDGET_ALIGN - 1);
}

void *iolens_budget_alloc(size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (bytes > SIZE_MAX - BUDGET_ALIGN) {
        iolens_budget_add_needed(bytes);
        return NULL;
    }
    size_t want = round_up(bytes);
    /* A CAS loop rather than fetch_add: a refused request must not move the
     * offset, or a later small request that fits would be refused too. */
    size_t old = atomic_load_explicit(&arena_used, memory_order_relaxed);
    do {
        if (arena == NULL || want > arena_size - old) {
            iolens_budget_add_needed(want);
            return NULL;
        }
    } while (!atomic_compare_exchange_weak_explicit(&arena_used, &old, old + want,
                                                    memory_order_relaxed, memory_order_relaxed));
    iolens_budget_add_needed(want);
    return arena + old;
}

void iolens_budget_add_needed(size_t bytes)
{
    atomic_fetch_add_explicit(&bytes_needed, bytes, memory_order_relaxed);
}

void iolens_budget_stats(struct iolens_budget_stats *out)
{
    out->budget = arena_size;
    out->used = atomic_load_explicit(&arena_used, memory_order_relaxed);
    out->needed = atomic_load_explicit(&bytes_needed, memory_order_relaxed);
}
