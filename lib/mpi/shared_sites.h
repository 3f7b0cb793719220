/* The call sites of shared records at MPI_Finalize: after the records'
 * reduction (shared_reduce.h), every rank sends the sites of the records
 * it no longer writes to their writer, which adds them to its own and
 * keeps each record's top sites for the job (site_list.h).  So a shared
 * record's sites are written once, by its writer, as its counters are.
 * No MPI here: lib/mpi/mpi_runtime.c moves the buffers.
 *
 * Sites travel position-independently, each with its module's path and
 * build-id: the ranks may load a module at other addresses, or list their
 * modules in another order. */
#ifndef IOLENS_SHARED_SITES_H
#define IOLENS_SHARED_SITES_H

#include <stddef.h>

#include "log/site_list.h"
#include "mpi/shared_reduce.h"

/* Splits the list in place: every entry whose record's writer (in a, as
 * iolens_share_split uses it) is another rank is packed for that writer
 * into *buf, grouped by writer, counts[r]/displs[r] in bytes, and taken
 * out of the list; the others stay, in their order.  Returns 0 or -1 (out
 * of memory, or more than INT_MAX bytes; the list is then unchanged). */
int iolens_share_sites_split(struct iolens_site_list *l, const struct iolens_share_assign *a,
                             size_t na, int self, int nprocs, unsigned char **buf, int *counts,
                             int *displs);

/* Adds the len bytes received (packed by iolens_share_sites_split on the
 * other ranks) to the list, then, if any arrived, reduces it
 * (iolens_site_list_reduce).  Returns 0, or -1 (a malformed buffer, found
 * before anything changes, or out of memory). */
int iolens_share_sites_merge(struct iolens_site_list *l, const unsigned char *recv, size_t len);

#endif
