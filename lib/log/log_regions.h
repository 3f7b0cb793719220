/* The regions of this process's log, gathered from the runtime (the mount
 * table, the record table, the layer table, the interval stores) and
 * encoded by region_encode.h.  Shared by the single-process writer
 * (log_writer.c) and the MPI collective writer (mpi_log.c), so both
 * produce exactly the same format. */
#ifndef IOLENS_LOG_REGIONS_H
#define IOLENS_LOG_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "log/region_encode.h"

/* Mount region from the runtime's mount table (lib/core/mounts.h). */
int iolens_region_mounts(struct iolens_buf *out);

/* One names region for the given ids, sorted by name (names looked up in
 * the record table; ids without a name are skipped). */
int iolens_build_names_region(struct iolens_buf *out, const uint64_t *ids, size_t n);
/* The same as one names region per IOLENS_REGION_RECORDS of them (one
 * empty region when there are none), handed to the sink, one after the
 * other: one names block (log_format.h), whose entries *block finds
 * (freed with iolens_names_block_free, also after a failure). */
int iolens_emit_names_regions(const struct iolens_region_sink *sink, const uint64_t *ids,
                              size_t n, struct iolens_names_block *block);

/* One layer region of n records laid out back to back, stored in the
 * order of their names in the record table when memory allows (files of
 * one directory together, which compresses better), naming them by id. */
int iolens_build_layer_region(struct iolens_buf *out, const struct iolens_layer_desc *d,
                              const void *records, size_t n);
/* The n records as one region per IOLENS_REGION_RECORDS of them (one
 * empty region when n is 0), in name order across all of them, handed to
 * the sink; they name their files by place in names (the names block
 * before them) where they can. */
int iolens_emit_layer_regions(const struct iolens_region_sink *sink,
                              const struct iolens_layer_desc *d, const void *records, size_t n,
                              const struct iolens_names_block *names);

/* This process's intervals region (log_format.h) into out: the stores
 * packed (layer_intervals.h: iolens_intervals_pack), with the rank and the
 * clock offset to rank 0 (and its uncertainty, seconds; 0 and 0 outside
 * MPI); files named by place in names (the names block before it) where
 * they can.  Returns 0 or -1. */
int iolens_gather_intervals_region(struct iolens_buf *out, int64_t rank, unsigned layers_off,
                                   double shift_seconds, double clock_offset,
                                   double clock_uncertainty, const struct iolens_names_block *names);

/* Collects every record of the layers of descs[0..n) (n at most
 * IOLENS_NLAYERS) from the runtime, in one walk over the files
 * (layers/layer_ops.h), packed and with rank set to the caller's rank and
 * the sharing counters of a per-rank record filled.  records[i] is
 * malloc'd (or NULL) and counts[i] its count (0 for a layer not compiled
 * in), or -1 when memory ran out for it.  Returns 0, or -1 if it did for
 * any layer. */
int iolens_layers_collect(const struct iolens_layer_desc *const *descs, unsigned n, int64_t rank,
                          void **records, long *counts);

struct iolens_site_list;
/* The same, and in the same walk this process's call sites into sites
 * (iolens_gather_sites, sites_region.h): 0, or -1 when memory ran out
 * for a layer or the sites. */
int iolens_layers_collect_with_sites(const struct iolens_layer_desc *const *descs, unsigned n,
                                     int64_t rank, void **records, long *counts,
                                     struct iolens_site_list *sites);

#endif
