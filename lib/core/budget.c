/* The memory budget: one anonymous mapping of exactly IOLENS_MEMORY bytes,
 * handed out by an atomic bump of an offset.  Fresh anonymous pages are
 * zero, and nothing is ever handed back, so every allocation is zeroed
 * without a memset.  The "needed" figure is explained in budget.h. */
#include "core/budget.h"

#include "core/real_calls.h"

#include <stdatomic.h>
#include <sys/mman.h>

static char *arena;
static size_t arena_size;
static _Atomic size_t arena_used;
static _Atomic uint64_t bytes_counted;

/* Registered once each at start-up, by one thread, before any other
 * thread exists; read only when the log is written. */
static size_t (*scaled_fns[IOLENS_BUDGET_MAX_FNS])(size_t budget);
static unsigned nscaled;
static uint64_t (*demand_fns[IOLENS_BUDGET_MAX_FNS])(uint64_t budget);
static unsigned ndemand;
static uint64_t (*floor_fn)(void);

static void forget_functions(void)
{
    nscaled = 0;
    ndemand = 0;
    floor_fn = NULL;
}

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
    atomic_store(&bytes_counted, 0);
    forget_functions();
    return 0;
}

void iolens_budget_fini(void)
{
    if (arena)
        munmap(arena, arena_size);
    arena = NULL;
    arena_size = 0;
    atomic_store(&arena_used, 0);
    atomic_store(&bytes_counted, 0);
    forget_functions();
}

/* Takes want bytes (a multiple of the alignment) from the arena, or
 * returns NULL.  A CAS loop rather than fetch_add: a refused request must
 * not move the offset, or a later small request that fits would be
 * refused too. */
static void *take(size_t want)
{
    size_t old = atomic_load_explicit(&arena_used, memory_order_relaxed);
    do {
        if (arena == NULL || want > arena_size - old)
            return NULL;
    } while (!atomic_compare_exchange_weak_explicit(&arena_used, &old, old + want,
                                                    memory_order_relaxed, memory_order_relaxed));
    return arena + old;
}

/* bytes rounded up, or 0 if that would overflow. */
static size_t wanted(size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    return bytes > SIZE_MAX - IOLENS_BUDGET_ALIGN ? 0 : iolens_budget_round(bytes);
}

void *iolens_budget_alloc(size_t bytes)
{
    size_t want = wanted(bytes);
    if (want == 0) {
        iolens_budget_add_needed(bytes);
        return NULL;
    }
    iolens_budget_add_needed(want);
    return take(want);
}

void *iolens_budget_alloc_quiet(size_t bytes)
{
    size_t want = wanted(bytes);
    void *p = want != 0 ? take(want) : NULL;
    if (p != NULL)
        iolens_budget_add_needed(want);
    return p;
}

void *iolens_budget_alloc_uncounted(size_t bytes)
{
    size_t want = wanted(bytes);
    return want != 0 ? take(want) : NULL;
}

void *iolens_budget_alloc_scaled(size_t (*bytes_for)(size_t budget))
{
    if (nscaled < IOLENS_BUDGET_MAX_FNS)
        scaled_fns[nscaled++] = bytes_for;
    size_t want = wanted(bytes_for(arena_size));
    return want != 0 ? take(want) : NULL;
}

void iolens_budget_add_needed(size_t bytes)
{
    atomic_fetch_add_explicit(&bytes_counted, bytes, memory_order_relaxed);
}

void iolens_budget_add_demand(uint64_t (*bytes_for)(uint64_t budget))
{
    if (ndemand < IOLENS_BUDGET_MAX_FNS)
        demand_fns[ndemand++] = bytes_for;
}

void iolens_budget_set_floor(uint64_t (*min_budget)(void))
{
    floor_fn = min_budget;
}

#define GRAIN IOLENS_BUDGET_ALIGN

static uint64_t round_grain(uint64_t bytes)
{
    return (bytes + GRAIN - 1) / GRAIN * GRAIN;
}

/* What a budget of m bytes would have to hold, rounded up to the allocation grain. */
static uint64_t demand_at(uint64_t m, uint64_t counted)
{
    uint64_t total = counted;
    for (unsigned i = 0; i < nscaled; i++)
        total += iolens_budget_round(scaled_fns[i]((size_t)m));
    for (unsigned i = 0; i < ndemand; i++)
        total += demand_fns[i](m);
    return round_grain(total);
}

/* The smallest budget m (in steps of the grain) with demand_at(m) <= m and m at or
 * above the floor.  The scaled parts take a fixed fraction of the budget
 * at most (well under a half), so the iteration climbs to the fixed point
 * in a few steps; the bound on steps is only a guard. */
static uint64_t budget_needed(void)
{
    uint64_t counted = atomic_load_explicit(&bytes_counted, memory_order_relaxed);
    uint64_t m = round_grain(counted);
    if (floor_fn != NULL && floor_fn() > m)
        m = round_grain(floor_fn());
    for (int step = 0; step < 200; step++) {
        uint64_t want = demand_at(m, counted);
        if (want <= m)
            return m;
        m = want;
    }
    return m;
}

void iolens_budget_stats(struct iolens_budget_stats *out)
{
    out->budget = arena_size;
    out->used = atomic_load_explicit(&arena_used, memory_order_relaxed);
    out->needed = budget_needed();
}

size_t iolens_budget_size(void)
{
    return arena_size;
}
