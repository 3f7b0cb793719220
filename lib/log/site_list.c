/* A process's call sites, in memory (site_list.h).  Runs when the log is
 * written, never on the hot path, so it uses malloc. */
#include "log/site_list.h"

#include <stdlib.h>
#include <string.h>

void iolens_site_list_free(struct iolens_site_list *l)
{
    free(l->modules);
    free(l->e);
    memset(l, 0, sizeof *l);
}

long iolens_site_list_module(struct iolens_site_list *l, const char *path, size_t path_len,
                             const unsigned char *build_id, uint32_t build_id_len)
{
    if (path_len == 0 || path_len >= IOLENS_SITES_PATH_MAX ||
        build_id_len > IOLENS_SITES_BUILD_ID_MAX)
        return -1;
    for (uint32_t i = 0; i < l->nmodules; i++) {
        const struct iolens_site_module *m = &l->modules[i];
        if (m->build_id_len == build_id_len && strncmp(m->path, path, path_len) == 0 &&
            m->path[path_len] == '\0' &&
            (build_id_len == 0 || memcmp(m->build_id, build_id, build_id_len) == 0))
            return (long)i;
    }
    if (l->nmodules == IOLENS_SITE_OTHER - 1)
        return -1;
    if (l->nmodules == l->mcap) {
        uint32_t cap = l->mcap ? 2 * l->mcap : 8;
        struct iolens_site_module *m = realloc(l->modules, (size_t)cap * sizeof *m);
        if (m == NULL)
            return -1;
        l->modules = m;
        l->mcap = cap;
    }
    struct iolens_site_module *m = &l->modules[l->nmodules];
    memcpy(m->path, path, path_len);
    m->path[path_len] = '\0';
    memset(m->build_id, 0, sizeof m->build_id);
    if (build_id_len > 0)
        memcpy(m->build_id, build_id, build_id_len);
    m->build_id_len = build_id_len;
    return (long)l->nmodules++;
}

struct iolens_site_entry *iolens_site_list_add(struct iolens_site_list *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        struct iolens_site_entry *e = realloc(l->e, cap * sizeof *e);
        if (e == NULL)
            return NULL;
        l->e = e;
        l->cap = cap;
    }
    return &l->e[l->n++];
}

/* ------------------------------------------------------------ reduce -- */

/* Records in id, then layer order; within one, a site's entries together
 * (other, module IOLENS_SITE_OTHER, sorts last). */
static int by_record_then_site(const void *a, const void *b)
{
    const struct iolens_site_entry *x = a, *y = b;
    if (x->record_id != y->record_id)
        return x->record_id < y->record_id ? -1 : 1;
    if (x->layer_kind != y->layer_kind)
        return x->layer_kind < y->layer_kind ? -1 : 1;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Most bytes first; ties by operations, then by site, so that every rank
 * and every run picks the same top. */
static int more_bytes_first(const void *a, const void *b)
{
    const struct iolens_site_entry *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    if (x->ops != y->ops)
        return x->ops > y->ops ? -1 : 1;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void add_figures(struct iolens_site_entry *into, const struct iolens_site_entry *e)
{
    into->ops += e->ops;
    into->bytes += e->bytes;
    into->time += e->time;
}

static int same_record(const struct iolens_site_entry *x, const struct iolens_site_entry *y)
{
    return x->record_id == y->record_id && x->layer_kind == y->layer_kind;
}

/* Sums the entries of each site in place; returns the new count. */
static size_t merge_same_sites(struct iolens_site_entry *e, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (w > 0 && same_record(&e[w - 1], &e[i]) && e[w - 1].module == e[i].module &&
            e[w - 1].offset == e[i].offset)
            add_figures(&e[w - 1], &e[i]);
        else
            e[w++] = e[i];
    }
    return w;
}

/* One record's merged entries e[0..n) (its other, if any, last) into
 * out: its top sites, then its other.  out may be e or before it.
 * Returns the entries written (never more than n). */
static size_t keep_top(struct iolens_site_entry *e, size_t n, struct iolens_site_entry *out)
{
    struct iolens_site_entry other = e[0];
    other.module = IOLENS_SITE_OTHER;
    other.offset = 0;
    other.ops = 0;
    other.bytes = 0;
    other.time = 0.0;
    size_t sites = n;
    if (e[n - 1].module == IOLENS_SITE_OTHER)
        other = e[--sites];
    qsort(e, sites, sizeof *e, more_bytes_first);
    size_t kept = sites < IOLENS_SITES_LOGGED ? sites : IOLENS_SITES_LOGGED;
    for (size_t i = kept; i < sites; i++)
        add_figures(&other, &e[i]);
    memmove(out, e, kept * sizeof *e);
    if (other.ops > 0 || other.bytes > 0)
        out[kept++] = other;
    return kept;
}

void iolens_site_list_reduce(struct iolens_site_list *l)
{
    if (l->n == 0)
        return;
    qsort(l->e, l->n, sizeof *l->e, by_record_then_site);
    size_t n = merge_same_sites(l->e, l->n), w = 0;
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && same_record(&l->e[start], &l->e[end]); end++)
            ;
        w += keep_top(&l->e[start], end - start, &l->e[w]);
    }
    l->n = w;
}
