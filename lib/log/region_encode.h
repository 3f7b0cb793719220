/* Encoding the raw (uncompressed) bytes of each log region, and
 * compressing them: pure functions of what the caller hands over, shared
 * by the writers (through log_regions.h) and by the tests and benchmarks
 * that build logs of their own. */
#ifndef IOLENS_REGION_ENCODE_H
#define IOLENS_REGION_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "core/file_table.h"
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
/* Room for n more bytes at the end (len is not moved); NULL, and b
 * marked failed, when there is none. */
unsigned char *iolens_buf_reserve(struct iolens_buf *b, size_t n);
/* Appends; after a failure they do nothing (b stays failed). */
void iolens_buf_put(struct iolens_buf *b, const void *data, size_t n);
void iolens_buf_put_u32(struct iolens_buf *b, uint32_t v);
void iolens_buf_put_u64(struct iolens_buf *b, uint64_t v);
/* A uint32 length, then the bytes (NULL: an empty string). */
void iolens_buf_put_string(struct iolens_buf *b, const char *s, size_t len);
void iolens_buf_put_cstring(struct iolens_buf *b, const char *s);
/* 0, or -1 when an allocation failed. */
int iolens_buf_status(const struct iolens_buf *b);

/* Job region.  strings[i]/lens[i] for i < IOLENS_JOB_NSTRINGS. */
int iolens_region_job(struct iolens_buf *out, const struct iolens_job_fixed *fixed,
                      const char *const *strings, const size_t *lens);
/* Ranks region (MPI jobs). */
int iolens_region_ranks(struct iolens_buf *out, const struct iolens_rank_info *ranks, uint32_t n);

/* A names region of files[0..n), in that order. */
int iolens_encode_names(struct iolens_buf *out, struct iolens_file *const *files, size_t n);

/* The entries of a rank's names block (log_format.h: the NAMES regions
 * that a layer or intervals region refers to), found by id: each id with
 * its place in the block, sorted by id. */
struct iolens_name_place {
    uint64_t id;
    uint64_t index;
};
struct iolens_names_block {
    struct iolens_name_place *by_id;    /* malloc'd, sorted by id */
    size_t n;
    /* by_id[bucket[k] .. bucket[k + 1]) are the ids whose top
     * bucket_bits bits are k (2^bucket_bits + 1 entries, malloc'd; NULL:
     * no index, the search bisects the whole block). */
    uint32_t *bucket;
    unsigned bucket_bits;
};
/* The block of files[0..n), in that order.  Returns 0 or -1 (memory). */
int iolens_names_block_make(struct iolens_names_block *b, struct iolens_file *const *files,
                            size_t n);
void iolens_names_block_free(struct iolens_names_block *b);
/* 1 and *index when id is in the block, else 0. */
int iolens_names_block_find(const struct iolens_names_block *b, uint64_t id, uint64_t *index);

/* A layer region (the IOLENS_<layer>_VERSION layout of log_format.h) of
 * n records of recs (row-major, as the layers pack them): rows
 * order[first..first+n), or rows first..first+n when order is NULL, as
 * byte-plane columns (format/column_codec.h) with times rounded to the
 * grid of log_format.h.  The records name their files by their place in
 * names when every one of them is there in increasing places, else by
 * id; names may be NULL (ids). */
int iolens_encode_layer(struct iolens_buf *out, const struct iolens_layer_desc *d,
                        const unsigned char *recs, const size_t *order, size_t first, size_t n,
                        const struct iolens_names_block *names);

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
/* Entries of the region that starts at entry from of n. */
size_t iolens_region_slice_len(size_t n, size_t from);
/* Hands raw to the sink, which owns it from then on (a failed raw is
 * freed here).  Returns 0 or -1. */
int iolens_region_sink_add(const struct iolens_region_sink *sink, uint32_t kind,
                           uint32_t version, struct iolens_buf *raw);

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
    const struct iolens_names_block *names; /* the rank's names, or NULL */
};

/* The intervals region of in.  A layer's file column holds places in
 * in->names when every file of its intervals is there (or a reserved
 * id), else ids. */
int iolens_encode_intervals_region(struct iolens_buf *out,
                                   const struct iolens_intervals_rank *in);

/* The entries part of a sites region of version 2 (log_format.h): the
 * extra ids and the columns of e[0..n), whose records are named by their
 * places in names.  Failures mark out failed. */
void iolens_encode_site_entries(struct iolens_buf *out, const struct iolens_site_entry *e,
                                size_t n, const struct iolens_names_block *names);

/* zlib-compresses raw into a malloc'd buffer.  Returns 0 or -1. */
int iolens_region_compress(const void *raw, size_t rawlen, void **out, size_t *outlen);

/* CRC32 (zlib's) of any length, as stored in struct iolens_region_desc. */
uint32_t iolens_crc32(const void *data, size_t len);

#endif
