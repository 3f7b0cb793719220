/* The log reader library.  It validates every length, offset and CRC and
 * returns an error instead of crashing on any malformed input. */
#ifndef IOLENS_READER_H
#define IOLENS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"

/* Largest decompressed region accepted (a sanity cap, far above what a
 * budget-bounded runtime writes). */
#define IOLENS_READER_MAX_RAW_SIZE (1ull << 30)

struct iolens_log_mount {
    char *point;
    char *fstype;
    int64_t block_size;
};

struct iolens_log_name {
    uint64_t id;
    char *name;
};

/* A decoded layer region: records of a fixed stride. */
struct iolens_log_layer {
    uint32_t kind;                /* IOLENS_REGION_POSIX ... */
    uint32_t version;
    uint32_t counter_count;       /* in the file */
    uint32_t fcounter_count;
    uint64_t record_count;
    /* record i: id, rank, counters, fcounters, decoded into these arrays */
    uint64_t *id;
    int64_t *rank;
    int64_t *counters;            /* record_count * counter_count */
    double *fcounters;            /* record_count * fcounter_count */
    /* NULL, or counter_count + fcounter_count flags: 1 where the region
     * (every region) the records came from stored that counter as all
     * zero (IOLENS_COL_ZERO), so that every record here holds 0 (+0.0) in
     * it and a pass over the records may skip it. */
    unsigned char *zero;
    /* A log another runtime wrote (a Darshan log, darshan_read.c): */
    unsigned char *absent;        /* NULL, or counter_count + fcounter_count
                                   * flags, 1 where that runtime keeps no such
                                   * counter (its value is 0 here; outputs say
                                   * "not in a Darshan log") */
    uint32_t extra_count, fextra_count;   /* that runtime's counters iolens lacks */
    const char *const *extra_names;       /* extra_count names (static) */
    const char *const *fextra_names;
    int64_t *extra;               /* record_count * extra_count */
    double *fextra;               /* record_count * fextra_count */
};

/* The access intervals of one layer of one rank (an intervals region,
 * log_format.h).  Times are in seconds since the job start on the rank's
 * clock: add clock_offset to put them on rank 0's clock.  Intervals are
 * sorted by start. */
struct iolens_log_intervals {
    int64_t rank;
    uint32_t kind;                /* layer: IOLENS_REGION_POSIX ... */
    double clock_offset;          /* seconds */
    double clock_uncertainty;     /* seconds */
    double error_bound;           /* seconds: the union may exceed the true one by this */
    uint64_t total_accesses;      /* every access of the layer on this rank */
    int64_t total_bytes;          /* every byte requested */
    double sum_duration;          /* seconds: sum of the accesses' durations */
    double overlap;               /* seconds: the accesses' union is at least
                                   * sum_duration - overlap (0: they are
                                   * disjoint; a version 1 log: sum_duration) */
    uint64_t count;               /* intervals stored */
    double *start, *end;          /* count each */
    double *busy;                 /* summed durations of each interval's
                                   * accesses (version 1 log: end - start) */
    int64_t *bytes;
    uint64_t *file_id;
    uint32_t *accesses;
    uint32_t *flags;              /* IOLENS_IV_* */
};

/* A module named by a sites region (log_format.h): one entry per distinct
 * path and build-id across the log's regions. */
struct iolens_log_site_module {
    char *path;
    unsigned char build_id[IOLENS_SITES_BUILD_ID_MAX];
    uint32_t build_id_len;        /* 0: the module had none */
};

/* One call site of one record (a sites region entry, with its rank). */
struct iolens_log_site {
    uint64_t record_id;
    int64_t rank;
    uint32_t layer_kind;          /* IOLENS_REGION_POSIX ... */
    uint32_t module;              /* index into log->site_modules, or IOLENS_SITE_OTHER */
    uint64_t offset;              /* return address - the module's load bias */
    uint64_t ops;
    int64_t bytes;
    double time;                  /* seconds */
};

struct iolens_log {
    uint32_t version;
    uint64_t flags;
    struct iolens_job_fixed job;
    char *jobstr[IOLENS_JOB_NSTRINGS];   /* NUL-terminated copies */
    size_t jobstr_len[IOLENS_JOB_NSTRINGS];
    size_t nmounts;
    struct iolens_log_mount *mounts;
    size_t nnames;
    struct iolens_log_name *names;       /* every names region, sorted by id */
    size_t nranks;                       /* 0 unless the log has a ranks region */
    struct iolens_rank_info *ranks;      /* per rank, in rank order */
    size_t nlayers;
    struct iolens_log_layer *layers;     /* one per kind: regions of a kind concatenated */
    size_t ninterval_sets;
    struct iolens_log_intervals *intervals;  /* per rank and known layer, sorted by rank, then kind */
    size_t nsite_modules;
    struct iolens_log_site_module *site_modules;
    size_t nsites;
    struct iolens_log_site *sites;       /* every sites region's entries: sorted by
                                          * record id and layer once sites_sorted */
    int sites_sorted;
    unsigned unknown_regions;            /* skipped region kinds */
    /* Which runtime wrote the log (the reader tells by magic number). */
    uint32_t source;                     /* IOLENS_SOURCE_* */
    char source_version[16];             /* Darshan: its log format version, "3.41" */
    uint64_t source_partial;             /* Darshan: bit m set when its module m ran
                                          * out of records (also IOLENS_FLAG_PARTIAL) */
    char *partial_modules;               /* Darshan: those modules by name, space-
                                          * separated, or NULL */
    char *skipped_modules;               /* Darshan: the modules not read, space-
                                          * separated ("HEATMAP"), or NULL */
    uint32_t nodes_given;                /* the tool's --nodes N (iolens_log_set_nodes),
                                          * which MiB/s/CN uses over job.nnodes; 0: none */
};

enum iolens_log_source {
    IOLENS_SOURCE_IOLENS = 0,
    IOLENS_SOURCE_DARSHAN = 1,
};

/* "iolens 3" or "darshan 3.41": the runtime that wrote the log and its
 * log format version, into buf. */
const char *iolens_log_source_label(const struct iolens_log *log, char *buf, size_t size);

/* Whether a regular file starts as a Darshan log (by magic number; false
 * for anything else, a pipe included, which is not read).  The tools'
 * streamed modes read such a log whole. */
bool iolens_log_file_is_darshan(const char *path);

/* Whether counter / fcounter i of L is one the log's writer does not keep
 * (a Darshan log: "not in a Darshan log"). */
bool iolens_log_counter_absent(const struct iolens_log_layer *L, int i);
bool iolens_log_fcounter_absent(const struct iolens_log_layer *L, int i);

enum iolens_read_status {
    IOLENS_READ_OK = 0,
    IOLENS_READ_IO,          /* could not open or read the file */
    IOLENS_READ_NOT_IOLENS,  /* bad magic */
    IOLENS_READ_VERSION,     /* unsupported format version or byte order */
    IOLENS_READ_TRUNCATED,   /* shorter than its header or regions say */
    IOLENS_READ_CRC,         /* a CRC does not match */
    IOLENS_READ_CORRUPT,     /* inconsistent sizes, bad compression ... */
    IOLENS_READ_NOMEM,
};

/* Reads and validates a log.  On error returns the status and writes a
 * one-line reason into err; *out is left empty. */
enum iolens_read_status iolens_log_read(const char *path, struct iolens_log *out,
                                        char *err, size_t errsz);
/* Same from a memory buffer (used by the fuzz target). */
enum iolens_read_status iolens_log_read_buffer(const void *data, size_t size,
                                               struct iolens_log *out, char *err, size_t errsz);
/* The most decompressed bytes one log may claim (the sum of the raw sizes
 * of the regions the reader inflates): a log that claims more is refused
 * (IOLENS_READ_NOMEM, "the log claims N decompressed bytes, more than the
 * limit ...") before anything is inflated, so that a tool's peak memory
 * is a small multiple of min(the log's real content, the limit).  The
 * limit is the tool's (iolens_log_set_max_size), else the environment's
 * IOLENS_MAX_LOG_SIZE, else this default. */
#define IOLENS_DEFAULT_MAX_LOG_SIZE (1ull << 30)
void iolens_log_set_max_size(uint64_t bytes);
/* A size: a whole number of bytes, or with K, M, G or T (binary; "KiB"
 * and "KB" too).  0, or -1 if s is not one (or is 0). */
int iolens_log_parse_size(const char *s, uint64_t *bytes);

/* The compute nodes a tool was told the job ran on (--nodes N): every log
 * read afterwards gets it as nodes_given, which replaces the log's own
 * count (or a Darshan log's lack of one) in MiB/s per compute node.  0
 * clears it. */
#define IOLENS_MAX_NODES 1000000u
void iolens_log_set_nodes(uint32_t nodes);
/* A --nodes value: a whole decimal number from 1 to IOLENS_MAX_NODES,
 * digits only (no sign, blank, exponent or suffix).  0, or -1 if s is not
 * one. */
int iolens_log_parse_nodes(const char *s, uint32_t *nodes);

/* Frees everything a successful read allocated; safe on a zeroed log. */
void iolens_log_free(struct iolens_log *log);

/* The call sites of the record (id, rank) of layer kind: the entries of
 * its id and layer in every sites region, merged by module and offset.
 * A log has one record per id and layer, and its sites are in the region
 * of the rank that wrote it (which, for a record another rank's shared
 * file brought along, is not the record's rank), or, in logs written
 * before sites were reduced at MPI_Finalize, a shared record's in every
 * rank's region: rank names the record, it does not filter the regions.
 * Up to IOLENS_SITES_LOGGED sites with the most bytes (most first) go
 * into out, then, if any bytes or operations are left, one entry with
 * module IOLENS_SITE_OTHER holding all the others: out must have room for
 * IOLENS_SITES_LOGGED + 1.  Returns how many were written (0: the record
 * kept no sites). */
size_t iolens_log_record_sites(const struct iolens_log *log, uint32_t kind, uint64_t id,
                               int64_t rank, struct iolens_log_site *out);

/* Name of a record id, or NULL. */
const char *iolens_log_name_of(const struct iolens_log *log, uint64_t id);
/* Mount whose point is the longest prefix of name, or NULL. */
const struct iolens_log_mount *iolens_log_mount_of(const struct iolens_log *log, const char *name);

/* The layer of a region kind in the log, or NULL if it has none. */
const struct iolens_log_layer *iolens_log_layer_of(const struct iolens_log *log, uint32_t kind);
/* Counter / fcounter i of record r of L, 0 when the region does not have
 * it (a log from a writer with fewer counters, or i < 0). */
int64_t iolens_log_counter(const struct iolens_log_layer *L, uint64_t r, int i);
double iolens_log_fcounter(const struct iolens_log_layer *L, uint64_t r, int i);

/* The version of a region kind this reader reads (0: a kind it does not
 * know). */
uint32_t iolens_region_known_version(uint32_t kind);
/* Whether this reader reads a region of kind at version: the known
 * version, and intervals regions of version 1 too. */
bool iolens_region_readable(uint32_t kind, uint32_t version);

/* Record r of L as a runtime record laid out as d describes it (id, rank,
 * counters, fcounters; record_merge.h), zero-filled beyond the counters the
 * region has (a log from a writer with fewer counters). */
struct iolens_layer_desc;
void iolens_log_record_load(const struct iolens_log_layer *L, uint64_t r,
                            const struct iolens_layer_desc *d, void *rec);

/* The name of a layer kind ("POSIX" ...: its descriptor's), NULL for a
 * kind no descriptor has.  A layer's counters, their names and
 * descriptions are its descriptor's (iolens_layer_desc_by_kind,
 * format/record_merge.h). */
const char *iolens_layer_name(uint32_t kind);

#endif
