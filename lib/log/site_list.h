/* A process's call sites as its sites region will hold them: the modules
 * they lie in and one entry per (record, layer, site), addresses already
 * turned into module offsets (log_format.h, struct iolens_site_entry).
 * Built by the sites region's gatherer (sites_region.h); an MPI rank adds
 * the shared records' sites the other ranks send it (mpi/shared_sites.h)
 * and reduces the list so that each record keeps the job's top sites. */
#ifndef IOLENS_SITE_LIST_H
#define IOLENS_SITE_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"

struct iolens_site_module {
    char path[IOLENS_SITES_PATH_MAX];   /* NUL-terminated, not empty */
    unsigned char build_id[IOLENS_SITES_BUILD_ID_MAX];
    uint32_t build_id_len;              /* 0: the module has none */
};

struct iolens_site_list {
    struct iolens_site_module *modules; /* entries' module indexes point here */
    uint32_t nmodules, mcap;
    struct iolens_site_entry *e;
    size_t n, cap;
};

void iolens_site_list_free(struct iolens_site_list *l);

/* The index of the module of this path (path_len bytes, no NUL; 1 ..
 * IOLENS_SITES_PATH_MAX - 1) and build-id (NULL when build_id_len is
 * 0), added if the list has none.
 * Returns -1 when out of memory or the lengths are out of range. */
long iolens_site_list_module(struct iolens_site_list *l, const char *path, size_t path_len,
                             const unsigned char *build_id, uint32_t build_id_len);

/* A new entry at the end, uninitialized, or NULL when out of memory. */
struct iolens_site_entry *iolens_site_list_add(struct iolens_site_list *l);

/* Brings every (record, layer) back to the region's shape after entries
 * of other ranks were added: the entries of one site (module and offset)
 * become one, summed; the IOLENS_SITES_LOGGED sites with the most bytes
 * stay apart (most bytes first) and every other site joins the one
 * IOLENS_SITE_OTHER entry, last.  Records end up in increasing id, then
 * layer.  Sums are exact: nothing is dropped. */
void iolens_site_list_reduce(struct iolens_site_list *l);

#endif
