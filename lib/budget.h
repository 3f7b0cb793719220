/* The one memory budget of a process.  Everything the runtime keeps after
 * initialization (file entries, names, layer records, descriptor state) is
 * carved out of a single arena of IOLENS_MEMORY bytes that is mapped once.
 * Allocation is a lock-free bump of an offset; nothing is ever returned to
 * the arena (descriptor state is recycled through its own free list). */
#ifndef IOLENS_BUDGET_H
#define IOLENS_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* Maps the arena.  Returns 0, or -1 if the arena could not be mapped. */
int iolens_budget_init(size_t bytes);
/* Unmaps the arena (used by unit tests; the runtime never calls it). */
void iolens_budget_fini(void);

/* Returns zeroed, 16-byte aligned memory, or NULL when the budget is
 * exhausted.  A failed request is still added to the "needed" figure. */
void *iolens_budget_alloc(size_t bytes);

/* Adds bytes to the "needed" figure without allocating: used to account
 * for what a folded file would have cost. */
void iolens_budget_add_needed(size_t bytes);

struct iolens_budget_stats {
    uint64_t budget;       /* arena size */
    uint64_t used;         /* bytes handed out */
    uint64_t needed;       /* bytes handed out + bytes refused or folded */
};
void iolens_budget_stats(struct iolens_budget_stats *out);

#endif
