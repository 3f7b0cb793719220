/* The findings list and the helpers every advice rule shares
 * (advice_list.h). */
#include "analysis/advice_list.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iolens_finding *advice_add(struct advice_list *l, const char *code, int base,
                                  double metric, double threshold)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        struct iolens_finding *f = realloc(l->f, cap * sizeof *f);
        if (f == NULL) {
            l->nomem = 1;
            return NULL;
        }
        l->f = f;
        l->cap = cap;
    }
    struct iolens_finding *f = &l->f[l->n++];
    memset(f, 0, sizeof *f);
    f->code = code;
    f->metric = metric;
    f->threshold = threshold;
    /* up to 9 points more as the figure reaches twice its threshold */
    double excess = threshold > 0 ? metric / threshold - 1.0 : 1.0;
    if (!(excess >= 0))
        excess = 0;
    f->priority = base + (int)floor(9.0 * fmin(excess, 1.0));
    return f;
}

void advice_evidence(struct iolens_finding *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->evidence, sizeof f->evidence, fmt, ap);
    va_end(ap);
}

void advice_fix(struct iolens_finding *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->fix, sizeof f->fix, fmt, ap);
    va_end(ap);
}

void advice_site(struct iolens_finding *f, const struct iolens_log *log,
                 const struct iolens_log_layer *L, uint64_t r, int by_ops)
{
    struct iolens_log_site sites[IOLENS_SITES_LOGGED + 1];
    size_t n = iolens_log_record_sites(log, L->kind, L->id[r], L->rank[r], sites);
    const struct iolens_log_site *best = NULL;
    for (size_t k = 0; k < n; k++) {
        const struct iolens_log_site *s = &sites[k];
        if (s->module == IOLENS_SITE_OTHER)
            continue;
        if (best == NULL || (by_ops ? s->ops > best->ops : s->bytes > best->bytes))
            best = s;
    }
    f->has_site = best != NULL;
    if (best != NULL)
        f->site = *best;
}

int advice_is_stream(uint64_t id)
{
    return id == IOLENS_ID_STDIN || id == IOLENS_ID_STDOUT || id == IOLENS_ID_STDERR;
}

const char *advice_name(const struct iolens_log *log, uint64_t id)
{
    const char *n = iolens_log_name_of(log, id);
    return n != NULL ? n : "?";
}

int64_t advice_nprocs(const struct iolens_log *log)
{
    return log->job.nprocs > 0 ? (int64_t)log->job.nprocs : 1;
}
