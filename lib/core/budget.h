/* The one memory budget of a process.  Everything the runtime keeps after
 * initialization (file entries, names, layer records, descriptor state) is
 * carved out of a single arena of IOLENS_MEMORY bytes that is mapped once.
 * Allocation is a lock-free bump of an offset; nothing is ever returned to
 * the arena (descriptor state is recycled through its own free list).
 *
 * Besides handing memory out, the budget answers one question for the
 * log: what IOLENS_MEMORY would have let this run fold nothing ("memory
 * needed").  Three kinds of demand make up that answer:
 *   - counted bytes: allocations that would be the same at any budget,
 *     whether they succeeded or not (iolens_budget_alloc,
 *     iolens_budget_add_needed);
 *   - scaled allocations, whose size is a function of the budget (tables
 *     and stores sized at start-up): re-evaluated at the candidate budget;
 *   - demand functions of the components that retry or fold (descriptor
 *     table, record table): what they would still need, asked at the end;
 * plus a floor (the record table's entry limit follows the budget).  The
 * answer is the smallest candidate budget that holds all
 * of them: a fixed point, since the scaled parts grow with the budget. */
#ifndef IOLENS_BUDGET_H
#define IOLENS_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* Maps the arena.  Returns 0, or -1 if the arena could not be mapped. */
int iolens_budget_init(size_t bytes);
/* Unmaps the arena (used by unit tests; the runtime never calls it). */
void iolens_budget_fini(void);

/* The size every allocation is rounded up to a multiple of. */
#define IOLENS_BUDGET_ALIGN 16u
static inline size_t iolens_budget_round(size_t bytes)
{
    return (bytes + IOLENS_BUDGET_ALIGN - 1) & ~(size_t)(IOLENS_BUDGET_ALIGN - 1);
}

/* Returns zeroed, 16-byte aligned memory, or NULL when the budget is
 * exhausted.  A failed request is still added to the "needed" figure. */
void *iolens_budget_alloc(size_t bytes);

/* The same, except that a refusal is not counted: for callers that may
 * ask again for the same thing and account their unmet demand themselves
 * (a demand function).  A success is counted as usual. */
void *iolens_budget_alloc_quiet(size_t bytes);

/* Neither a success nor a refusal is counted: for a caller whose demand
 * function (below) gives all its bytes at any budget. */
void *iolens_budget_alloc_uncounted(size_t bytes);

/* Allocates bytes_for(budget) bytes, not counted: bytes_for is remembered
 * and evaluated again at each candidate budget when "needed" is computed.
 * bytes_for must not decrease as the budget grows.  NULL when refused. */
void *iolens_budget_alloc_scaled(size_t (*bytes_for)(size_t budget));

/* Adds bytes to the "needed" figure without allocating. */
void iolens_budget_add_needed(size_t bytes);

/* Registers a demand function: bytes a component still lacks (beyond what
 * it was given) at a candidate budget, asked when "needed" is computed.
 * Must not decrease as the budget grows.  Up to IOLENS_BUDGET_MAX_FNS. */
void iolens_budget_add_demand(uint64_t (*bytes_for)(uint64_t budget));
/* Registers the floor: the smallest budget whose derived limits (the
 * record table's entry limit) do not fold anything by themselves. */
void iolens_budget_set_floor(uint64_t (*min_budget)(void));
#define IOLENS_BUDGET_MAX_FNS 16

struct iolens_budget_stats {
    uint64_t budget;       /* arena size */
    uint64_t used;         /* bytes handed out */
    uint64_t needed;       /* smallest budget that folds nothing (see top) */
};
void iolens_budget_stats(struct iolens_budget_stats *out);
/* The arena size alone (for sizing tables at start-up). */
size_t iolens_budget_size(void);

#endif
