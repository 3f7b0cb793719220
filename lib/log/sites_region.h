/* The SITES region of a process's log (log_format.h): each record's call
 * sites, their return addresses turned into (module, build-id, offset)
 * here, when the log is written, never on the hot path. */
#ifndef IOLENS_SITES_REGION_H
#define IOLENS_SITES_REGION_H

#include <stdint.h>

#include "log/region_encode.h"

struct iolens_site_list;

/* This process's records' sites into list (appended): the top sites of
 * each record's table, each in its module, and the rest in one other
 * entry per record.  Returns 0, or -1 when out of memory. */
int iolens_gather_sites(struct iolens_site_list *list);

/* The same in steps, for a caller that walks the file table anyway
 * (iolens_layers_collect): start (the loaded modules are listed; NULL
 * when out of memory), then each file, then finish (0, or -1 when memory
 * ran out at any step; frees the gather, NULL included). */
struct iolens_sites_gather;
struct iolens_file;
struct iolens_sites_gather *iolens_sites_gather_start(struct iolens_site_list *list);
void iolens_sites_gather_file(struct iolens_file *file, void *gather);
int iolens_sites_gather_finish(struct iolens_sites_gather *gather);

/* A sites region (IOLENS_SITES_VERSION) of list into out (rank: the MPI
 * rank, 0 outside MPI), its records named by their places in names, the
 * block of the names regions written before it.  Returns 0, or -1 when
 * out of memory. */
int iolens_put_sites_region(struct iolens_buf *out, int64_t rank,
                            const struct iolens_site_list *list,
                            const struct iolens_names_block *names);

/* Both: this process's sites region, as one process writes it. */
int iolens_gather_sites_region(struct iolens_buf *out, int64_t rank,
                               const struct iolens_names_block *names);

#endif
