/* The pure half of the shared-file reduction at MPI_Finalize: deciding
 * which rank writes each record, packing and unpacking the buffers the
 * ranks exchange, and reducing the records of a file that several ranks
 * hold into one.  No MPI and no I/O here, so unit tests drive it directly;
 * lib/mpi/mpi_runtime.c moves the buffers with the collectives.
 *
 * The protocol, per rank (every step is one collective for the whole job,
 * whatever the number of files or layers):
 *  1. the distinct ids of the rank's records (all layers) go to the id's
 *     owner, a rank picked by hashing the id (iolens_share_owner);
 *  2. each owner sees which ranks hold an id and picks its writer: the
 *     holder itself if only one rank has it, else one of the holders,
 *     picked by another hash so that the work spreads
 *     (iolens_share_decide); the writer of each id goes back to the ranks
 *     that sent it;
 *  3. every record whose writer is another rank is sent to that writer
 *     (iolens_share_split), which merges, per layer, the records of an id
 *     that came from more than one rank into its own (iolens_share_reduce),
 *     one record with rank
 *     IOLENS_RANK_ALL and the rank statistics (iolens_share_reduce).
 * Since all records of an id end up on one rank, each name is written
 * once, by the rank that has it in its own record table. */
#ifndef IOLENS_SHARED_REDUCE_H
#define IOLENS_SHARED_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "format/record_merge.h"

#define IOLENS_SHARE_MAX_LAYERS 8

/* Records of one rank: per layer (index of iolens_layer_desc_at), count
 * records of the layer's record_size laid out back to back. */
struct iolens_record_set {
    unsigned nlayers;
    void *records[IOLENS_SHARE_MAX_LAYERS];   /* malloc'd, or NULL */
    size_t count[IOLENS_SHARE_MAX_LAYERS];
};
void iolens_record_set_free(struct iolens_record_set *s);

/* Adds offset (seconds) to every timestamp fcounter (named *_TIMESTAMP)
 * that is set (non-zero) in n records: moves them from the rank's own
 * process start to the job start. */
void iolens_share_shift_timestamps(const struct iolens_layer_desc *d, void *records, size_t n,
                                   double offset);

/* Rank that decides about id. */
int iolens_share_owner(uint64_t id, int nprocs);

/* The distinct ids of the set's records, sorted, grouped by owner: out
 * gets them in owner order (malloc'd), counts[r] how many go to rank r and
 * displs[r] where they start.  Returns the number of ids or -1. */
long iolens_share_ids_by_owner(const struct iolens_record_set *s, int nprocs, uint64_t **out,
                               int *counts, int *displs);

/* Owner side: ids received from every rank (recv[displs[r] ..
 * displs[r] + counts[r]) from rank r).  Writes writer[i] for every
 * received id: the rank that will write the records of recv[i].  Returns
 * 0 or -1 (out of memory). */
int iolens_share_decide(const uint64_t *recv, const int *counts, const int *displs, int nprocs,
                        int32_t *writer);

/* Writer of each id, for lookups: sorted by id. */
struct iolens_share_assign {
    uint64_t id;
    int32_t writer;
    int32_t reserved;
};
/* Pairs the ids sent with the writers that came back and sorts them by id.
 * Returns a malloc'd array or NULL. */
struct iolens_share_assign *iolens_share_assign_build(const uint64_t *ids, const int32_t *writers,
                                                      size_t n);
/* Writer of id, or -1 if id is not in the table. */
int iolens_share_writer_of(const struct iolens_share_assign *a, size_t n, uint64_t id);

/* Splits the set in place: every record whose writer is another rank is
 * packed for its writer into *buf as (uint32 layer, uint32 0, record),
 * grouped by writer, counts[r]/displs[r] in bytes, and taken out of the
 * set; the records whose writer is self stay, in their order.  Nothing is
 * copied but the records that leave (a rank's own files are most of its
 * records, megabytes at shutdown).  Returns 0 or -1 (out of memory, or
 * more than INT_MAX bytes for one rank; the set is then unchanged). */
int iolens_share_split(struct iolens_record_set *set, const struct iolens_share_assign *a,
                       size_t na, int self, int nprocs, unsigned char **buf, int *counts,
                       int *displs);

/* Reduces the len bytes received (packed by iolens_share_split on the
 * other ranks) into the set of kept records, in place: per layer, one
 * record per id; an id held by more than one rank becomes one record with
 * rank IOLENS_RANK_ALL, merged by the AGG rules (in rank order) and with
 * the rank statistics.  The merged record takes the place of the kept
 * one; an id the set has no record of in the layer is appended.  The
 * order of the records is not the ids' (the writer orders them by name).
 * Returns 0, or -1 (out of memory, or a malformed buffer, found before
 * anything changes). */
int iolens_share_reduce(struct iolens_record_set *set, const unsigned char *recv, size_t len);

/* The distinct ids of the set's records, sorted (for the names region).
 * Returns the count, or -1; *ids is malloc'd. */
long iolens_share_distinct_ids(const struct iolens_record_set *s, uint64_t **ids);

#endif
