/* The whole-log reader's internals shared by its files (reader.c,
 * reader_regions.c, reader_parse.c, reader_limit.c) and the streaming
 * reader (reader_stream.c): not part of the reader's API. */
#ifndef IOLENS_READER_INTERNAL_H
#define IOLENS_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

/* Layer kinds one log can hold (the reader's descriptors). */
#define MAX_LAYER_KINDS 8

/* The names blocks of a log (log_format.h): every names entry's id, in
 * table and entry order, and the runs of NAMES regions one right after
 * the other that make each block.  A layer or intervals region names its
 * files by place in the block that comes last before it. */
struct rd_names_block {
    unsigned first_region, last_region;   /* table indexes */
    size_t first;                         /* its first entry in ids */
    size_t n;
};
struct rd_names_blocks {
    uint64_t *ids;
    size_t nids, capids;
    struct rd_names_block *v;
    size_t nv, capv;
};
/* Appends the n ids of names region i (regions come in table order).
 * False: out of memory. */
bool rd_blocks_add(struct rd_names_blocks *b, unsigned region, const struct iolens_log_name *names,
                   size_t n);
/* The block before region i, or NULL when there is none. */
const struct rd_names_block *rd_blocks_before(const struct rd_names_blocks *b, unsigned region);
void rd_blocks_free(struct rd_names_blocks *b);

/* How a region's file column names its files (log_format.h: the
 * intervals' of version 3, the sites' of version 2): names NULL, by id;
 * else a reserved id, an extra id (nextra uint64 ids at extra, in the
 * region), or a place in the names block. */
struct rd_file_refs {
    const struct rd_names_blocks *blocks;
    const struct rd_names_block *names;
    const unsigned char *extra;
    uint64_t nextra;
};
/* The id of file column value v; false when it refers to nothing. */
bool rd_file_of(const struct rd_file_refs *f, uint64_t v, uint64_t *id);

/* How a layer region's columns are stored (log_format.h): a code per
 * column (NULL for version 2: every column raw), the ids of the names
 * block its places refer to, and its layer (the refs of its times). */
struct iolens_layer_desc;
struct column_codes {
    const unsigned char *codes;
    const uint64_t *places;
    const struct iolens_layer_desc *desc;
};

/* data/size: the log (the streaming reader holds only the header and the
 * region table at data, and size is the file's size). */
struct reader {
    const unsigned char *data;
    size_t size;
    struct iolens_log *log;
    char *err;
    size_t errsz;
    bool seen_job, seen_mounts, seen_ranks;   /* kinds that appear at most once */
    size_t names_cap;                         /* allocated entries of log->names */
    uint64_t layer_cap[MAX_LAYER_KINDS];      /* allocated records of log->layers[i] */
    size_t intervals_cap;                     /* allocated entries of log->intervals */
    unsigned char *raw;                       /* a region inflated, reused by the next */
    size_t raw_cap;
    /* Set by the streaming reader for a huge region: a layer region's head
     * is checked but its records are left in raw (deferred), to be decoded
     * a chunk at a time with rd_decode_deferred. */
    bool defer_records;
    struct {
        const unsigned char *body;            /* the records' columns, in raw */
        uint64_t n;
        size_t layer;                         /* index in log->layers */
        struct column_codes codes;            /* how its columns are stored */
    } deferred;
    /* The names blocks layer and intervals regions refer to (NULL: none
     * known, so a region that refers to one is corrupt); NAMES regions
     * parsed are added to them when blocks_grow is set. */
    struct rd_names_blocks *blocks;
    bool blocks_grow;
    /* NAMES regions parsed for their ids alone: every entry is checked,
     * but its name is left NULL (no copy of it is made). */
    bool names_ids_only;
};

/* Records [from, from + m) of the deferred layer region decoded into its
 * layer, which then holds those m records alone.  False: out of memory. */
bool rd_decode_deferred(struct reader *r, uint64_t from, size_t m);

/* Frees what a reader keeps between regions (not its log). */
void rd_reader_release(struct reader *r);

/* Reads from a decompressed region; every read is checked against what is
 * left, and a failed read leaves the cursor unusable (left = 0). */
struct cursor {
    const unsigned char *p;
    size_t left;
};

/* Writes the one-line reason into r->err; returns st. */
__attribute__((format(printf, 3, 4)))
enum iolens_read_status rd_fail(struct reader *r, enum iolens_read_status st, const char *fmt,
                                ...);
/* A region's raw size is one deflate could give from its stored bytes,
 * and within IOLENS_READER_MAX_RAW_SIZE (else the region is corrupt). */
bool rd_raw_size_possible(const struct iolens_region_desc *d);
/* Step 2 of reader.c: the sum of the known regions' raw sizes is within
 * the limit (reader_limit.c); a region whose claim is impossible is left
 * out, to be reported as the damage it is. */
enum iolens_read_status rd_check_log_size(struct reader *r, const struct iolens_region_desc *table,
                                          unsigned count);
/* The most decompressed bytes one log may claim (reader.h): the tool's,
 * else IOLENS_MAX_LOG_SIZE's, else the default. */
enum iolens_read_status rd_current_limit(struct reader *r, uint64_t *limit);
/* Gives log the tool's --nodes (reader_nodes.c), once its job is read. */
void rd_apply_nodes(struct iolens_log *log);
/* Step 1 of reader.c: magic, byte order, version, sizes, header CRC. */
enum iolens_read_status rd_check_header(struct reader *r, struct iolens_file_header *h);
/* Step 3, in two parts: region i lies inside the file; its stored bytes
 * match its CRC. */
enum iolens_read_status rd_check_region_bounds(struct reader *r, unsigned i,
                                               const struct iolens_region_desc *d,
                                               size_t data_start);
enum iolens_read_status rd_check_region_crc(struct reader *r, unsigned i,
                                            const struct iolens_region_desc *d,
                                            const unsigned char *stored);
/* Step 3 whole: region i lies inside the file and its CRC matches. */
enum iolens_read_status rd_check_region_bytes(struct reader *r, unsigned i,
                                              const struct iolens_region_desc *d,
                                              size_t data_start);
/* Name of a region kind for error messages (buf holds "kind N"). */
const char *rd_region_label(uint32_t kind, char *buf, size_t bufsz);
/* Region i's stored bytes inflated into r->raw (*out), exactly its raw
 * size (reader_regions.c). */
enum iolens_read_status rd_inflate_region(struct reader *r, unsigned i,
                                          const struct iolens_region_desc *d,
                                          const unsigned char *stored, unsigned char **out);
/* Step 4 for region i whose stored bytes are at stored: decompressed and
 * parsed into r->log (NAMES appended, layer records appended to the layer
 * of their kind, intervals appended). */
/* Sorts the log's sites by record and layer, once every region is read,
 * so that a record's sites are found by bisection (reader_sites.c). */
void rd_index_sites(struct iolens_log *log);
/* Sites region i (reader_sites.c) of version: raw bytes of len. */
enum iolens_read_status rd_parse_sites(struct reader *r, unsigned i, uint32_t version,
                                       const unsigned char *raw, size_t len);
enum iolens_read_status rd_parse_region(struct reader *r, unsigned i,
                                        const struct iolens_region_desc *d,
                                        const unsigned char *stored);
/* Step 5 pieces: names sorted and checked, ranks checked. */
enum iolens_read_status rd_finish_names(struct reader *r);
enum iolens_read_status rd_check_ranks(struct reader *r);
enum iolens_read_status rd_check_interval_ranks(struct reader *r);
enum iolens_read_status rd_check_ranks_region(struct reader *r);
bool rd_rank_valid(const struct iolens_log *log, int64_t rank);
enum iolens_read_status rd_bad_record_rank(struct reader *r, uint32_t kind, uint64_t record,
                                           int64_t rank);
enum iolens_read_status rd_name_twice(struct reader *r, uint64_t id);
/* A region of kind with cc+fc counters after one with earlier_cc+earlier_fc. */
enum iolens_read_status rd_counts_differ(struct reader *r, uint32_t kind, uint32_t cc, uint32_t fc,
                                         uint32_t earlier_cc, uint32_t earlier_fc);
/* Reads all of fd into a malloc'd buffer, or only its first bytes when
 * they can begin no log (reader.c).  Returns 0 or an errno value. */
int rd_slurp(int fd, uint64_t max, unsigned char **out, size_t *outsz);
/* The most stored bytes a log whose content is within the limit can have
 * (compression adds far less than this), or 0 with the reason in r when
 * the limit cannot be known: the bound of rd_slurp on a pipe. */
uint64_t rd_stored_bound(struct reader *r);
/* qsort comparator of struct iolens_log_name by id. */
int rd_compare_names(const void *a, const void *b);
/* Grows *arr (of elem-sized entries, *cap allocated) to hold need. */
bool rd_grow(void **arr, size_t *cap, size_t need, size_t elem);
void rd_free_interval_set(struct iolens_log_intervals *set);
/* Empties a scratch log for the next region: no names, and no records in
 * its layers (their arrays and counter counts are kept). */
void rd_clear_scratch(struct iolens_log *log);

#endif
