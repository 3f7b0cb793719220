/* Advice driver: runs every rule of advice_access.c, advice_job.c and
 * advice_hdf5.c and sorts the findings (advice.h). */
#include "analysis/advice_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Highest priority first; equal priorities by code, so the order is stable. */
static int by_priority(const void *a, const void *b)
{
    const struct iolens_finding *x = a, *y = b;
    if (x->priority != y->priority)
        return x->priority > y->priority ? -1 : 1;
    return strcmp(x->code, y->code);
}

int iolens_advice_compute(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                          struct iolens_finding **out, size_t *n)
{
    struct iolens_advice_thresholds defaults;
    if (t == NULL) {
        iolens_advice_defaults(&defaults);
        t = &defaults;
    }
    struct advice_list l = {0};
    advice_small_accesses(log, t, &l);
    advice_misaligned(log, t, &l);
    advice_random(log, t, &l);
    advice_redundant_reads(log, t, &l);
    advice_rank0(log, t, &l);
    advice_imbalance(log, t, &l);
    advice_metadata(log, t, &l);
    advice_stdio(log, t, &l);
    advice_mpiio_indep(log, t, &l);
    advice_hdf5_indep(log, t, &l);
    advice_hdf5_amplification(log, t, &l);
    *out = NULL;
    *n = 0;
    if (l.nomem) {
        free(l.f);
        return -1;
    }
    if (l.n > 0)
        qsort(l.f, l.n, sizeof *l.f, by_priority);
    *out = l.f;
    *n = l.n;
    return 0;
}

void iolens_advice_free(struct iolens_finding *findings) { free(findings); }
