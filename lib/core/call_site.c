/* Call sites (call_site.h): the per-thread slots and the tables' memory. */
#include "core/call_site.h"

#include <string.h>

#include "core/budget.h"

int iolens_sites_on = 1;
__thread uintptr_t iolens_site_current __attribute__((tls_model("initial-exec")));
__thread uintptr_t iolens_site_outer __attribute__((tls_model("initial-exec")));

struct iolens_site_table *iolens_sites_attach(struct iolens_site_table **tablep)
{
    struct iolens_site_table *t = iolens_sites_on ? iolens_budget_alloc(sizeof *t) : NULL;
    *tablep = t != NULL ? t : IOLENS_SITES_NONE;
    return *tablep;
}

void iolens_sites_clear(struct iolens_site_table *table)
{
    if (table != NULL && table != IOLENS_SITES_NONE)
        memset(table, 0, sizeof *table);
}

unsigned long iolens_sites_table_size(void)
{
    return (unsigned long)iolens_budget_round(sizeof(struct iolens_site_table));
}
