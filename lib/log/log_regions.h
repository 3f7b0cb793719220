/* Building the raw (uncompressed) bytes of each log region and compressing
 * them.  Shared by the single-process writer (log_writer.c) and the MPI
 * collective writer (mpi_log.c), so both produce exactly the same format. */
#ifndef IOLENS_LOG_REGIONS_H
#define IOLENS_LOG_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"
#include "layers/interval_store.h"
#include "format/record_merge.h"

/* A growable byte buffer (malloc'd: used only at shutdown). */
struct iolens_buf {
    unsigned char *data;
    size_t len, cap;
    int failed;                 /* an allocation failed; contents unusable */
};
void iolens_buf_free(struct iolens_buf *b);

/* Job region.  strings[i]/lens[i] for i < IOLENS_JOB_NSTRINGS. */
int iolens_region_job(struct iolens_buf *out, const struct iolens_job_fixed *fixed,
                      const char *const *strings, const size_t *lens);
/* Mount region from the runtime's mount table (lib/core/mounts.h). */
int iolens_region_mounts(struct iolens_buf *out);
/* Ranks region (MPI jobs). */
int iolens_region_ranks(struct iolens_buf *out, const struct iolens_rank_info *ranks, uint32_t n);
/* Names region for the given ids (names looked up in the record table;
 * ids without a name are skipped). */
int iolens_region_names(struct iolens_buf *out, const uint64_t *ids, size_t n);
/* Layer region from n on-disk records laid out back to back. */
int iolens_region_layer(struct iolens_buf *out, const struct iolens_layer_desc *d,
                        const void *records, size_t n);

/*
 * A rank's names and each of its layers are written as several regions
 * of at most IOLENS_REGION_RECORDS entries (records) each, so that a
 * reader that takes a log region by region holds a bounded amount
 * whatever the number of files of a rank: 8192 POSIX records are some
 * 6 MiB inflated.  The format allows any size (log_format.h); this is the
 * writers' choice.
 */
#define IOLENS_REGION_RECORDS 8192u

/* Where the splitting builders put each region, raw.  add owns raw from
 * the call on (frees its bytes or keeps them) and returns 0, or nonzero
 * to stop the builder, which then returns -1. */
struct iolens_region_sink {
    int (*add)(void *arg, uint32_t kind, uint32_t version, struct iolens_buf *raw);
    void *arg;
};
/* The names of ids[0..n), sorted by name, as one names region per
 * IOLENS_REGION_RECORDS of them (one empty region when there are none). */
int iolens_regions_names(const struct iolens_region_sink *sink, const uint64_t *ids, size_t n);
/* The n records as one region per IOLENS_REGION_RECORDS of them (one
 * empty region when n is 0), in name order across all of them. */
int iolens_regions_layer(const struct iolens_region_sink *sink, const struct iolens_layer_desc *d,
                         const void *records, size_t n);

/* Intervals region (log_format.h): one per rank.  The intervals of each
 * layer are in seconds since the job start on the rank's own clock (the
 * packer converts clock units and shifts them like record timestamps), in
 * any order; the encoder sorts them by start.  Times before the job start
 * are stored as 0 (the format has no negative times). */
struct iolens_intervals_layer_in {
    uint32_t kind;                          /* IOLENS_REGION_POSIX ... */
    const struct iolens_interval *iv;       /* lib/layers/interval_store.h */
    size_t count;
    double error_bound;                     /* seconds */
    uint64_t accesses;
    int64_t bytes;
    double sum_duration;                    /* seconds */
    double overlap;                         /* seconds (log_format.h) */
};

struct iolens_intervals_rank {
    int64_t rank;
    double clock_offset;                    /* seconds, to rank 0's clock */
    double clock_uncertainty;               /* seconds */
    const struct iolens_intervals_layer_in *layers;
    uint32_t nlayers;
};

int iolens_region_intervals(struct iolens_buf *out, const struct iolens_intervals_rank *in);

/* This process's intervals region (log_format.h) into out: the stores
 * packed (layer_intervals.h: iolens_intervals_pack), with the rank and the clock offset to rank 0 (and its
 * uncertainty, seconds; 0 and 0 outside MPI).  Returns 0 or -1. */
int iolens_intervals_region(struct iolens_buf *out, int64_t rank, unsigned layers_off,
                            double shift_seconds, double clock_offset, double clock_uncertainty);

/* Collects every record of a layer from the runtime (the layer's
 * foreach_record), packed and with rank set to the caller's rank and the
 * sharing counters of a per-rank record filled.  *records is malloc'd.
 * Returns the count, or -1 on allocation failure. */
long iolens_layer_collect(const struct iolens_layer_desc *d, int64_t rank, void **records);

/* zlib-compresses raw into a malloc'd buffer.  Returns 0 or -1. */
int iolens_region_compress(const void *raw, size_t rawlen, void **out, size_t *outlen);

/* CRC32 (zlib's) of any length, as stored in struct iolens_region_desc. */
uint32_t iolens_crc32(const void *data, size_t len);

#endif
