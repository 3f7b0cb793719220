/*
 * iolens log format, version 2 (a reader reads version 1 too).
 *
 * This is the only definition of the on-disk format.  The runtime (lib/)
 * writes it and the reader (util/reader/) parses it; neither keeps a private copy.
 * The counter tables below are X-macros: each one feeds the counter enum,
 * the printed counter names and the generated documentation.
 *
 * Layout of a log file (all integers little-endian, as written by x86_64
 * and aarch64; the byte-order field lets a reader detect anything else):
 *
 *   struct iolens_file_header           fixed size, CRC-protected
 *   struct iolens_region_desc[n]        region table, covered by header CRC
 *   region payloads                     each zlib-compressed, each with CRC32
 *
 * Every region is located only through the region table, so a reader skips
 * region kinds it does not know.  Each region carries its own version.
 *
 * JOB, MOUNTS and RANKS appear at most once.  NAMES and the layer regions
 * may appear several times (an MPI job writes them per rank, each rank
 * compressing its own part, and the writers split a rank's names and each
 * of its layers into regions of at most 8192 entries, so that a reader
 * holds one bounded region at a time); a reader concatenates regions of
 * the same kind.  A record id appears in at most one NAMES region entry.
 *
 * Names blocks: a run of NAMES regions one right after the other in the
 * table is one names block, its entries numbered from 0 across its
 * regions in table order.  A layer or intervals region may name its
 * files by place in the names block that comes last before it in the
 * table (an MPI job's ranks each write their names, then their layers
 * and intervals), which compresses where the random 64-bit ids do not.
 *
 * Format version 2 (this one) has layer regions of version 3 and
 * intervals regions of version 3 (places in the names block, times in
 * ticks); version 1 had layer regions of version 2 and intervals regions
 * of versions 1 and 2, which a reader still reads.
 */
#ifndef IOLENS_LOG_FORMAT_H
#define IOLENS_LOG_FORMAT_H

#include <stdint.h>

#define IOLENS_MAGIC "IOLENS\r\n" /* 8 bytes; \r\n catches text-mode mangling */
#define IOLENS_MAGIC_LEN 8
#define IOLENS_FORMAT_VERSION 3u
/* The earlier formats, still read (their regions are of versions a
 * reader still reads too): 2 has layer regions of version 3, 1 of
 * version 2. */
#define IOLENS_FORMAT_VERSION_2 2u
#define IOLENS_FORMAT_VERSION_1 1u
#define IOLENS_BYTE_ORDER_MARK 0x01020304u
/* Regions in one log: a few job-wide ones plus, for each rank, its
 * intervals and a NAMES region and a region per layer for each 8192 files,
 * so this bounds the ranks of a job to about 1 M (fewer for ranks of many
 * files). */
#define IOLENS_MAX_REGIONS 4194304u

/* Header flags. */
#define IOLENS_FLAG_PARTIAL 0x1u  /* some records were folded into <other files> */
#define IOLENS_FLAG_FORKED 0x2u   /* the process is a forked child */
#define IOLENS_FLAG_INCOMPLETE 0x4u /* written at an abnormal ending (a signal
                                      * that ends the process, exit without
                                      * MPI_Finalize): see iolens(7) */
#define IOLENS_FLAG_EXEC 0x8u     /* written at execve: the process went on as
                                   * another program, with a log of its own */

struct iolens_file_header {
    char magic[IOLENS_MAGIC_LEN];
    uint32_t version;         /* IOLENS_FORMAT_VERSION */
    uint32_t byte_order;      /* IOLENS_BYTE_ORDER_MARK as written */
    uint64_t flags;           /* IOLENS_FLAG_* */
    uint32_t header_size;     /* sizeof(struct iolens_file_header) */
    uint32_t region_count;    /* entries in the region table that follows */
    uint32_t header_crc;      /* CRC32 of this header (with header_crc = 0)
                                 followed by the region table */
    uint32_t reserved;
};

/*
 * The layers, one row each, in region-kind order:
 *
 *   X(NAME, lower, KIND, VERSION, COUNTERS, FCOUNTERS, ROLES, DATA, BASE)
 *
 * NAME     the layer's name, the prefix of its counters (POSIX_OPENS), its
 *          layer index (IOLENS_LAYER_POSIX) and region kind
 *          (IOLENS_REGION_POSIX);
 * lower    the name of its types: struct iolens_posix_record ...;
 * KIND     the number of its region kind (stable: new layers only get new
 *          numbers);
 * VERSION  the version of its region's layout;
 * COUNTERS, FCOUNTERS  its counter tables (below);
 * ROLES    the counters tools find by what they mean, R(field, counter):
 *          the fields of struct iolens_layer_desc (format/record_merge.h);
 *          a role the layer lacks is left out;
 * DATA     1 if the layer reads and writes data: it has bytes, access
 *          intervals and BPS figures (H5F only creates, opens and closes
 *          files: its data moves through H5D);
 * BASE     1 if its calls reach the system without going through another
 *          traced layer, so the job's bytes are its bytes, each once (the
 *          bytes of MPI-IO and HDF5 go through POSIX again).
 *
 * Everything per layer is generated from this table: the layer enum, the
 * region kinds, the counter enums, the record types, the layer
 * descriptors (format/record_merge.c) and the sections of iolens-log(5)
 * (scripts/gen-counter-man.sh).
 */
#define IOLENS_LAYERS(X) \
    X(POSIX, posix, 16, IOLENS_POSIX_VERSION, IOLENS_POSIX_COUNTERS, IOLENS_POSIX_FCOUNTERS, \
      IOLENS_POSIX_ROLES, 1, 1) \
    X(STDIO, stdio, 17, IOLENS_STDIO_VERSION, IOLENS_STDIO_COUNTERS, IOLENS_STDIO_FCOUNTERS, \
      IOLENS_STDIO_ROLES, 1, 1) \
    X(MPIIO, mpiio, 18, IOLENS_MPIIO_VERSION, IOLENS_MPIIO_COUNTERS, IOLENS_MPIIO_FCOUNTERS, \
      IOLENS_MPIIO_ROLES, 1, 0) \
    X(H5F, h5f, 19, IOLENS_H5F_VERSION, IOLENS_H5F_COUNTERS, IOLENS_H5F_FCOUNTERS, \
      IOLENS_H5F_ROLES, 0, 0) \
    X(H5D, h5d, 20, IOLENS_H5D_VERSION, IOLENS_H5D_COUNTERS, IOLENS_H5D_FCOUNTERS, \
      IOLENS_H5D_ROLES, 1, 0)

/* Layer indexes, in table order: the runtime's per-file record slots and
 * the descriptors' order (iolens_layer_desc_at). */
#define IOLENS_X_LAYER_INDEX(NAME, lower, KIND, VERSION, C, F, ROLES, DATA, BASE) \
    IOLENS_LAYER_##NAME,
enum iolens_layer { IOLENS_LAYERS(IOLENS_X_LAYER_INDEX) IOLENS_NLAYERS };

/* The layers that carry data (DATA 1). */
#define IOLENS_X_LAYER_DATA(NAME, lower, KIND, VERSION, C, F, ROLES, DATA, BASE) +(DATA)
enum { IOLENS_NDATA_LAYERS = 0 IOLENS_LAYERS(IOLENS_X_LAYER_DATA) };

/* Region kinds.  Values are stable; new kinds only get new numbers. */
#define IOLENS_X_REGION_KIND(NAME, lower, KIND, VERSION, C, F, ROLES, DATA, BASE) \
    IOLENS_REGION_##NAME = KIND,
enum iolens_region_kind {
    IOLENS_REGION_JOB = 1,
    IOLENS_REGION_MOUNTS = 2,
    IOLENS_REGION_NAMES = 3,
    IOLENS_REGION_RANKS = 4,
    IOLENS_REGION_INTERVALS = 5,   /* access intervals, one region per rank */
    IOLENS_REGION_SITES = 6,       /* call sites of reads and writes, one per rank */
    IOLENS_LAYERS(IOLENS_X_REGION_KIND)   /* 16 and up */
};

/* The region kind of layer index layer, 0 past the last (the tools have
 * the same in the descriptors: iolens_layer_desc_at(layer)->region_kind). */
#define IOLENS_X_KIND_OF(NAME, lower, KIND, VERSION, C, F, ROLES, DATA, BASE) KIND,
static inline uint32_t iolens_layer_region_kind(unsigned layer)
{
    static const uint32_t kinds[IOLENS_NLAYERS] = {IOLENS_LAYERS(IOLENS_X_KIND_OF)};
    return layer < IOLENS_NLAYERS ? kinds[layer] : 0;
}

#define IOLENS_COMPRESS_ZLIB 1u

struct iolens_region_desc {
    uint32_t kind;            /* enum iolens_region_kind */
    uint32_t version;         /* version of this region's own layout */
    uint64_t offset;          /* from the start of the file */
    uint64_t stored_size;     /* bytes in the file (compressed) */
    uint64_t raw_size;        /* bytes after decompression */
    uint32_t crc32;           /* CRC32 of the stored bytes */
    uint32_t compression;     /* IOLENS_COMPRESS_ZLIB */
};

/* ---------------------------------------------------------------- job -- */

#define IOLENS_JOB_VERSION 1u

/*
 * Job region: this fixed part, then the strings it counts, each stored as
 * uint32 length + bytes (no terminator), in this order: job id, user name,
 * executable, arguments (NUL-separated), distinct host names
 * (NUL-separated, in order of first rank), iolens version, MPI library
 * version, distinct executables of the ranks (NUL-separated, in order of
 * first rank: an MPMD job, "mpiexec -n 4 atm : -n 8 ocn", has two; the
 * executable above is rank 0's).  nnodes is the number of distinct host
 * names.  Logs written before the executables list have the first
 * IOLENS_JOB_NSTRINGS_MIN strings: their ranks all ran the executable.
 */
struct iolens_job_fixed {
    uint64_t uid;
    int64_t start_time_sec;   /* absolute (CLOCK_REALTIME) job start */
    int64_t start_time_nsec;
    int64_t end_time_sec;
    int64_t end_time_nsec;
    double run_time;          /* seconds on the monotonic clock */
    uint32_t nprocs;
    uint32_t nnodes;
    int64_t pid;
    int64_t parent_pid;       /* pid of the traced parent if forked, else 0 */
    /* memory budget */
    uint64_t budget_bytes;    /* IOLENS_MEMORY */
    uint64_t budget_used;     /* bytes of the budget actually used */
    uint64_t budget_needed;   /* smallest IOLENS_MEMORY that folds nothing
                                 (an upper estimate when files were folded) */
    uint64_t folded_opens;    /* opens attributed to <other files> (exact) */
    uint64_t folded_files;    /* distinct paths folded, whatever reached them
                                 (HyperLogLog estimate when not 0; its relative
                                 standard error: IOLENS_FOLDED_FILES_ERROR) */
    uint64_t string_count;    /* strings that follow: IOLENS_JOB_NSTRINGS */
};

/* The folded-files sketch has 4096 registers when the budget is at least
 * IOLENS_FOLDED_SKETCH_LARGE_BUDGET, else 1024: relative standard error
 * 1.04 / sqrt(registers). */
#define IOLENS_FOLDED_SKETCH_LARGE_BUDGET 65536u
#define IOLENS_FOLDED_FILES_ERROR(budget_bytes) \
    ((budget_bytes) >= IOLENS_FOLDED_SKETCH_LARGE_BUDGET ? 1.04 / 64.0 : 1.04 / 32.0)

enum iolens_job_string {
    IOLENS_JOBSTR_JOBID,
    IOLENS_JOBSTR_USER,
    IOLENS_JOBSTR_EXE,
    IOLENS_JOBSTR_ARGS,
    IOLENS_JOBSTR_HOSTS,
    IOLENS_JOBSTR_VERSION,
    IOLENS_JOBSTR_MPI_VERSION,   /* MPI_Get_library_version, "" if not MPI */
    IOLENS_JOBSTR_EXES,          /* the ranks' distinct executables */
    IOLENS_JOB_NSTRINGS
};

/* The strings of logs written before IOLENS_JOBSTR_EXES. */
#define IOLENS_JOB_NSTRINGS_MIN 7

/* ------------------------------------------------------------- mounts -- */

#define IOLENS_MOUNTS_VERSION 1u

/* Mount region: uint32 count, then per entry: uint64 block_size,
 * uint32 len + mount point, uint32 len + file system type. */

/* -------------------------------------------------------------- ranks -- */

#define IOLENS_RANKS_VERSION 1u

/* Ranks region (MPI jobs only): uint32 count (= nprocs), then one entry per
 * rank in rank order. */
struct iolens_rank_info {
    double start_time;        /* absolute, seconds since the epoch: MPI_Init */
    double end_time;          /* absolute: start of MPI_Finalize */
    uint32_t host_index;      /* into the job's host list */
    uint32_t exe_index;       /* into the job's executables (0 in logs
                                 without them, where the field was 0) */
};

/* ---------------------------------------------------------- intervals -- */

#define IOLENS_INTERVALS_VERSION 3u
/* The earlier layouts, still read: version 2 has file ids only (its
 * layer heads' file_column is 0), version 1 has no busy column and no
 * overlap field either. */
#define IOLENS_INTERVALS_VERSION_2 2u
#define IOLENS_INTERVALS_VERSION_1 1u

/*
 * Intervals region: the data accesses of one rank (one process outside
 * MPI), for the BPS figures (union of access time, He, Sun and Yin).  At
 * most one region per rank.  struct iolens_intervals_head, then nlayers
 * times: struct iolens_intervals_layer, then its count intervals stored
 * column-major, each column count values back to back:
 *   int64  start     ns; the first is the first start itself, every later
 *                    one the difference from the previous start (the
 *                    intervals are sorted by start, so differences are
 *                    >= 0 and small: they compress)
 *   int64  duration  ns, >= 0 (end = start + duration)
 *   int64  busy      ns, >= 0: the summed durations of the accesses merged
 *                    into the interval (equal to duration for one access;
 *                    below it when the runtime merged across idle gaps)
 *   int64  bytes     bytes requested by the accesses merged into it, >= 0
 *   uint64 file_id   the file: with file_column IOLENS_IV_FILE_IDS its record
 *                    id (IOLENS_ID_OTHER_FILES when merged across files, then
 *                    flags has IOLENS_IV_MIXED); with IOLENS_IV_FILE_PLACES
 *                    (version 3 only) a reserved id (<= IOLENS_ID_RESERVED_MAX)
 *                    as it is, else IOLENS_IV_FIRST_PLACE + the place of the
 *                    file's entry in the names block before the region (see
 *                    the top of this file), which must be there
 *   uint32 accesses  accesses merged into the interval, >= 1
 *   uint32 flags     IOLENS_IV_* (read 1, write 2, failed 4, mixed 8) or'ed
 * so a layer's intervals take count * 48 bytes.  Times are in nanoseconds
 * since the job start, on this rank's clock (like the records' timestamps
 * of the same log, which are in seconds), never negative; add
 * clock_offset to put them on rank 0's clock.  The layer totals (accesses,
 * bytes, sum_duration) count every access ever made, also those folded
 * into merged intervals; error_bound is the total length of the gaps the
 * runtime covered when its store was full, so the union of the stored
 * intervals exceeds the true one by at most error_bound.  overlap bounds
 * how much the layer's accesses on this rank overlapped each other: the
 * union of their times is at least sum_duration - overlap (0: they never
 * overlapped, so that union is sum_duration exactly, and the accesses of
 * any set of its intervals are disjoint).  Version 1 (IOLENS_INTERVALS_VERSION_1)
 * has neither the busy column (count * 40 bytes) nor the overlap field
 * (the layer head ends at sum_duration, 48 bytes).  Layer kinds a
 * reader does not know are skipped (count says how far).  A reader
 * rejects a region whose rank is not a rank of the job, a rank with two
 * sets of one layer, counts that do not fill the region exactly, and
 * intervals holding more accesses than their layer's total.
 */
struct iolens_intervals_head {
    int64_t rank;               /* MPI rank; 0 outside MPI */
    double clock_offset;        /* seconds to add to put times on rank 0's clock */
    double clock_uncertainty;   /* seconds (>= 0): how wrong clock_offset may be */
    uint32_t nlayers;           /* struct iolens_intervals_layer that follow */
    uint32_t reserved;          /* 0 */
};

struct iolens_intervals_layer {
    uint32_t kind;              /* layer region kind: IOLENS_REGION_POSIX ... */
    uint32_t file_column;       /* IOLENS_IV_FILE_IDS or (version 3 on)
                                   IOLENS_IV_FILE_PLACES: what file_id holds */
    uint64_t count;             /* intervals stored */
    double error_bound;         /* seconds, >= 0 */
    uint64_t accesses;          /* every access of the layer */
    int64_t bytes;              /* every byte requested */
    double sum_duration;        /* seconds: sum of the accesses' durations */
    double overlap;             /* seconds, >= 0 (version 2 on) */
};

#define IOLENS_IV_FILE_IDS 0u
#define IOLENS_IV_FILE_PLACES 1u
/* A file_id of IOLENS_IV_FILE_PLACES from here up is a place in the names
 * block (plus this); below, a reserved id. */
#define IOLENS_IV_FIRST_PLACE (IOLENS_ID_RESERVED_MAX + 1u)

/* Bytes of a version 1 layer head: struct iolens_intervals_layer up to
 * sum_duration. */
#define IOLENS_INTERVALS_LAYER_SIZE_V1 48u

/* Interval flags (also used by the runtime's store, lib/layers/interval_store.h). */
#define IOLENS_IV_READ 0x1u
#define IOLENS_IV_WRITE 0x2u
#define IOLENS_IV_FAILED 0x4u   /* the access failed (still counted by BPS) */
#define IOLENS_IV_MIXED 0x8u    /* merged across files: file_id is then
                                 * IOLENS_ID_OTHER_FILES (only when the store
                                 * had no room left for per-file intervals) */

/* Bytes of one stored interval: the seven columns (version 1: six). */
#define IOLENS_INTERVAL_DISK_SIZE 48u
#define IOLENS_INTERVAL_DISK_SIZE_V1 40u

/* -------------------------------------------------------------- sites -- */

#define IOLENS_SITES_VERSION 2u
/* The first layout, still read: its entries are struct iolens_site_entry
 * rows, each naming its record by id. */
#define IOLENS_SITES_VERSION_1 1u

/*
 * Sites region: where in the program the reads and writes of each record
 * were made, one region per rank (one process outside MPI).  A call site
 * is the return address of the traced call, or for the reads and writes
 * an I/O library (MPI-IO, HDF5) makes beneath a traced library call, that
 * library call's return address; it is stored position-independently as
 * a module (its path and GNU build-id) and the offset of the address from
 * the module's load bias, so ASLR and other load addresses across ranks
 * do not matter.  A reader that does not know the kind skips the region.
 *
 * struct iolens_sites_head, then module_count modules, each:
 *   uint32 path_len (1 .. IOLENS_SITES_PATH_MAX), uint32 build_id_len
 *   (0 .. IOLENS_SITES_BUILD_ID_MAX), path_len bytes of the module's path
 *   (no NUL), build_id_len bytes of its build-id (0 bytes: it has none);
 * then (version 2) a uint64 extra_count and extra_count uint64 record ids,
 * then entry_count entries stored column-major, each column entry_count
 * values, each value's bytes spread over the column (byte b of value i
 * at b * entry_count + i), which must fill the region exactly:
 *   uint64 record  a reserved id (<= IOLENS_ID_RESERVED_MAX) as it is;
 *                  else IOLENS_IV_FIRST_PLACE + k: extra id k for k <
 *                  extra_count, or place k - extra_count in the names
 *                  block before the region (as the intervals' file
 *                  column), which must be there
 *   uint32 layer_kind, uint32 module, uint64 offset, uint64 ops,
 *   uint64 bytes   as in struct iolens_site_entry (bytes < 2^63)
 *   uint64 time    nanoseconds, summed call time
 * so that the records' ids, which do not compress, are not repeated.
 * Version 1 has no extra ids, and entry_count struct iolens_site_entry
 * (time in seconds) instead of the columns.
 * For each (record, layer kind) the entries list its top
 * IOLENS_SITES_LOGGED sites by bytes (most bytes first), each with the
 * operations, bytes and summed call time (seconds) charged to it, then at
 * most one entry with module IOLENS_SITE_OTHER (offset 0): every other
 * site of the record together.  The operations and bytes of a record's
 * entries add up to its layer's read and write calls and their bytes
 * (stdio bytes moved by inline buffer macros, which make no call, are
 * not in any site).  module is an index into the module table.  A record
 * with no entries kept no sites (sites off, or no memory for them).
 * A record's entries are in the region of the rank that wrote it (for a
 * record of one rank that came along with a file other ranks share, not
 * the record's rank): a reader finds them by record id and layer.  A
 * shared record (rank IOLENS_RANK_ALL) has the job's entries, reduced at
 * MPI_Finalize by (module path, build-id, offset) into the writer's top
 * IOLENS_SITES_LOGGED and other; logs written before that reduction have
 * each rank's entries in its own region, which a reader merges the same
 * way.
 */
struct iolens_sites_head {
    int64_t rank;               /* MPI rank; 0 outside MPI */
    uint32_t module_count;
    uint32_t reserved;          /* 0 */
    uint64_t entry_count;
};

/* An entry as version 1 stores it, and as the writers and readers hold
 * one in memory. */
struct iolens_site_entry {
    uint64_t record_id;
    uint32_t layer_kind;        /* IOLENS_REGION_POSIX ... */
    uint32_t module;            /* index into the module table, or IOLENS_SITE_OTHER */
    uint64_t offset;            /* return address - the module's load bias */
    uint64_t ops;
    int64_t bytes;
    double time;                /* seconds, >= 0 */
};

#define IOLENS_SITES_LOGGED 4u
#define IOLENS_SITE_OTHER 0xffffffffu
#define IOLENS_SITES_PATH_MAX 4096u
#define IOLENS_SITES_BUILD_ID_MAX 64u

/* -------------------------------------------------------------- names -- */

#define IOLENS_NAMES_VERSION 2u

/*
 * Name region: uint32 count, then per entry:
 *   uint32 len << 1 | explicit_id
 *   uint64 record id            only if explicit_id is 1
 *   len bytes of the name       normalized absolute path, or "<STDIN>",
 *                               "<other files>" ... (no NUL)
 * Without an explicit id, the id is the hash of the name (XXH3 64-bit,
 * moved off the reserved ids: format/path_hash.h), which the reader
 * recomputes; random 64-bit ids do not compress, so storing each once (in
 * the layer regions) instead of twice saves 8 bytes per record.  Ids
 * re-derived after a hash collision and the reserved ids are explicit.
 * Writers sort the entries by name (neighbours share prefixes, which
 * compresses); readers must not depend on any order.
 */
#define IOLENS_NAME_LEN_MAX 0x7fffffffu

/* ------------------------------------------------------------- layers -- */

/*
 * A layer region (version 4) holds struct iolens_layer_head, a code byte
 * per column (2 + counter_count + fcounter_count bytes, IOLENS_COL_*),
 * then record_count records.  Each record is a row of 8-byte values:
 * uint64 id, int64 rank, int64 counters[counter_count], double
 * fcounters[fcounter_count] (the in-memory struct iolens_<layer>_record).
 * On disk the rows are stored column-major and byte-shuffled: column
 * after column (ids, ranks, counter 0 of every record, counter 1, ...,
 * the last fcounter), each column as its 8 byte-planes (byte 0, the least
 * significant, of every value, then byte 1 of every value, ... byte 7).
 * Byte b of value i of the column stored k-th is at body offset (k * 8 +
 * b) * record_count + i; the body is record_count * 8 bytes for each
 * column not IOLENS_COL_ZERO.  Values of one counter are alike across records
 * and their high bytes even more so.  fcounters in seconds (all but the
 * two *_F_VARIANCE_RANK_*) are rounded to a multiple of 2^-30 s (0.93 ns,
 * a tick): finer digits are clock-conversion noise that does not
 * compress.  A column's code says how its values are stored:
 *   IOLENS_COL_RAW          the value's own 8 bytes (any column);
 *   IOLENS_COL_NAME_PLACE   the id column only: the place of the record's
 *                           entry in the names block before the region
 *                           (top of this file); places increase strictly
 *                           from record to record, so each names one
 *                           file once; the id is that entry's;
 *   IOLENS_COL_TICKS        an fcounter: k, zigzag-coded (0, -1, 1, -2 ...
 *                           as 0, 1, 2, 3 ...); the value is k ticks
 *                           (k / 2^30 s);
 *   IOLENS_COL_TICKS_FROM_REF  an fcounter that has refs, every one of
 *                           them IOLENS_COL_TICKS or _FROM_REF: 0 for
 *                           0.0, else 1 + the zigzag-coded ticks from
 *                           the sum of the record's refs.  The refs of
 *                           an fcounter (all before it): an end
 *                           timestamp's is its start (*_F_WRITE_END_-
 *                           TIMESTAMP from *_F_WRITE_START_TIMESTAMP),
 *                           another timestamp's the first open
 *                           (fcounter 0), *_F_MAX_READ_TIME's and
 *                           *_F_MAX_WRITE_TIME's the read or write time,
 *                           the rank times' (*_F_FASTEST_RANK_TIME,
 *                           *_F_SLOWEST_RANK_TIME) the read, write and
 *                           meta times the layer has; no other fcounter
 *                           has refs (format/record_merge.h:
 *                           iolens_fcounter_time_refs).  Times of one
 *                           file are close to each other: the
 *                           differences are small numbers.
 *   IOLENS_COL_ZERO         any column but the id (version 4): every
 *                           value is 0 (all 8 bytes; an fcounter +0.0),
 *                           and the column stores no bytes at all: the
 *                           body holds only the other columns, in order.
 *                           Most counters of most files are never used
 *                           (8 ranks of 10000 files written once: 69 of
 *                           a POSIX region's 102 columns), and leaving
 *                           them out spares the writer their planes, zlib
 *                           its scan of the zeros and the reader their
 *                           decoding.  An
 *                           fcounter in ticks may have refs that are
 *                           IOLENS_COL_ZERO (0 ticks).
 * The rank and the counters are IOLENS_COL_RAW or IOLENS_COL_ZERO.  Together: a POSIX
 * record of a file written once compresses (zlib level 1) to about 27
 * bytes (8 ranks of 1000 files, bench/run-shutdown.sh), against 40 with
 * ids and times stored as themselves (version 2).  A reader that knows fewer counters than the region holds
 * prints the ones it knows; the counts make the columns self-delimiting.
 * Version 3 (IOLENS_LAYER_VERSION_3, still read) is version 4 without
 * IOLENS_COL_ZERO: every column stored, the body record_count * 8 * (2 +
 * counter_count + fcounter_count) bytes.  Version 2
 * (IOLENS_LAYER_VERSION_2, still read) has no code bytes: every column
 * raw, the ids themselves.
 */
struct iolens_layer_head {
    uint32_t counter_count;
    uint32_t fcounter_count;
    uint64_t record_count;
};

#define IOLENS_LAYER_VERSION_2 2u
#define IOLENS_LAYER_VERSION_3 3u
#define IOLENS_COL_RAW 0u
#define IOLENS_COL_TICKS 1u
#define IOLENS_COL_TICKS_FROM_REF 2u
#define IOLENS_COL_NAME_PLACE 3u
#define IOLENS_COL_ZERO 4u
#define IOLENS_TICKS_PER_SECOND 1073741824.0   /* 2^30 */

/* rank value of a record that was reduced across ranks (a shared file:
 * opened by more than one rank; <L>_RANKS_OPENED says by how many). */
#define IOLENS_RANK_ALL (-1)

/* Reserved record ids (the hash of a real path never takes these values:
 * the runtime remaps a colliding hash). */
#define IOLENS_ID_OTHER_FILES 1u
#define IOLENS_ID_STDIN 2u
#define IOLENS_ID_STDOUT 3u
#define IOLENS_ID_STDERR 4u
#define IOLENS_ID_RESERVED_MAX 15u

#define IOLENS_NAME_OTHER_FILES "<other files>"
#define IOLENS_NAME_STDIN "<STDIN>"
#define IOLENS_NAME_STDOUT "<STDOUT>"
#define IOLENS_NAME_STDERR "<STDERR>"

/*
 * Access-size histogram bins shared by all layers, in order:
 * X(P, SUFFIX, upper bound in bytes (inclusive; K = 1024), the range as the
 * counter descriptions say it, the range as chart labels say it).  P is
 * passed through to X: the counter rows below carry their own X and name
 * prefix in it.
 */
#define IOLENS_SIZE_BIN_TABLE(X, P) \
    X(P, 0_100, 100, "of 0-100 bytes", "0-100 B") \
    X(P, 100_1K, 1024, "of 101 bytes-1 KiB", "101 B-1 KiB") \
    X(P, 1K_10K, 10240, "of 1-10 KiB", "1-10 KiB") \
    X(P, 10K_100K, 102400, "of 10-100 KiB", "10-100 KiB") \
    X(P, 100K_1M, 1048576, "of 100 KiB-1 MiB", "100 KiB-1 MiB") \
    X(P, 1M_4M, 4194304, "of 1-4 MiB", "1-4 MiB") \
    X(P, 4M_10M, 10485760, "of 4-10 MiB", "4-10 MiB") \
    X(P, 10M_100M, 104857600, "of 10-100 MiB", "10-100 MiB") \
    X(P, 100M_1G, 1073741824, "of 100 MiB-1 GiB", "100 MiB-1 GiB") \
    X(P, 1G_PLUS, INT64_MAX, "over 1 GiB", "over 1 GiB")

/* The bins as X(SUFFIX, upper bound). */
#define IOLENS_SIZE_BIN_SUFFIX_UPPER_(X, suffix, upper, range, label) X(suffix, upper)
#define IOLENS_SIZE_BINS(X) IOLENS_SIZE_BIN_TABLE(IOLENS_SIZE_BIN_SUFFIX_UPPER_, X)

#define IOLENS_SIZE_BIN_COUNT_(P, suffix, upper, range, label) +1
enum { IOLENS_NSIZE_BINS = 0 IOLENS_SIZE_BIN_TABLE(IOLENS_SIZE_BIN_COUNT_, ~) };

/* A layer's 20 size-bin counters (reads, then writes), for a counter table
 * X: X(READ_PREFIX<SUFFIX>, IOLENS_AGG_SUM, "reads <range>") for every bin,
 * then the same for the writes. */
#define IOLENS_SIZE_COUNTERS(X, READ_PREFIX, WRITE_PREFIX) \
    IOLENS_SIZE_BIN_TABLE(IOLENS_SIZE_COUNTER_, (X, READ_PREFIX, "reads ")) \
    IOLENS_SIZE_BIN_TABLE(IOLENS_SIZE_COUNTER_, (X, WRITE_PREFIX, "writes "))
#define IOLENS_SIZE_COUNTER_(P, suffix, upper, range, label) \
    IOLENS_SIZE_COUNTER_ROW_(IOLENS_SIZE_UNPAREN_ P, suffix, range)
#define IOLENS_SIZE_UNPAREN_(...) __VA_ARGS__
#define IOLENS_SIZE_COUNTER_ROW_(...) IOLENS_SIZE_COUNTER_ROW2_(__VA_ARGS__)
#define IOLENS_SIZE_COUNTER_ROW2_(X, prefix, verb, suffix, range) \
    X(prefix##suffix, IOLENS_AGG_SUM, verb range)

/*
 * Counter tables: X(NAME, AGG, "description").  AGG says how values of
 * the same counter combine across records, both when the runtime reduces a
 * shared file's per-rank records and when a tool totals a log:
 */
enum iolens_agg {
    IOLENS_AGG_SUM,          /* add */
    IOLENS_AGG_MAX,          /* largest */
    IOLENS_AGG_MIN_NONZERO,  /* smallest non-zero (first-event timestamps) */
    IOLENS_AGG_SAME,         /* the common value, -1 when records differ */
    IOLENS_AGG_TOP_VALUE,    /* Nth most common value: re-ranked from the */
    IOLENS_AGG_TOP_COUNT,    /*   merged (value, count) pairs of its group */
    IOLENS_AGG_SLOWEST_SIZE, /* size of the op that set the matching F_MAX_*_TIME */
    IOLENS_AGG_RANK_STAT,    /* computed by the shared-file reduction (below) */
    IOLENS_AGG_TOP_SHAPE,    /* a dimension of the shape of its ACCESSn group:
                                part of the group's value, like TOP_VALUE */
    IOLENS_AGG_AGREE,        /* a pattern parameter: the common value of the
                                records that have one (0 means none and does
                                not vote), IOLENS_PAT_MIXED when two differ */
    IOLENS_AGG_TOP_STATE,    /* how exact the top table right after it is
                                (IOLENS_TOP_*): re-derived when the table's
                                entries are merged */
};

/*
 * Values of an IOLENS_AGG_TOP_STATE counter (<L>_..._TOP_STATE), which
 * precedes the top table it describes.  The runtime counts each distinct
 * value exactly in a table of 32 values per POSIX and MPI-IO record (as
 * many as Darshan tracks; past the first 8 only if the memory budget has
 * room) and of 8 shapes per H5D record; only a record that saw more
 * distinct values than that has estimated counts (a newcomer then takes
 * over the least frequent value's slot and count, so counts are upper
 * bounds).  Merging records (a shared file's
 * ranks, a --total) sees only each record's top 4: it stays exact while
 * every merged record listed all of its values.
 */
#define IOLENS_TOP_EXACT_ALL 0   /* exact, and every distinct value is listed */
#define IOLENS_TOP_EXACT 1       /* the listed values and counts are exact (the
                                    true top values), more values exist */
#define IOLENS_TOP_ESTIMATE 2    /* the counts (and so the ranking) are estimates */

/* Value of an IOLENS_AGG_AGREE counter whose merged records disagree. */
#define IOLENS_PAT_MIXED INT64_MIN

/*
 * Sharing counters, the same in every layer (L = POSIX, STDIO, MPIIO).
 * For a per-rank record: RANKS_OPENED is 1 if it opened the file, RANKS_IO
 * 1 if it read or wrote, FASTEST/SLOWEST_RANK the record's own rank with
 * its bytes and I/O time (read + write + metadata), variances 0.  For a
 * shared record (rank IOLENS_RANK_ALL) they describe the ranks reduced.
 */
#define IOLENS_SHARING_COUNTERS(X, L) \
    X(L##_RANKS_OPENED, IOLENS_AGG_RANK_STAT, "ranks that opened the file") \
    X(L##_RANKS_IO, IOLENS_AGG_RANK_STAT, "ranks that read or wrote the file") \
    X(L##_FASTEST_RANK, IOLENS_AGG_RANK_STAT, "rank with the least I/O time on the file") \
    X(L##_FASTEST_RANK_BYTES, IOLENS_AGG_RANK_STAT, "bytes read and written by the fastest rank") \
    X(L##_SLOWEST_RANK, IOLENS_AGG_RANK_STAT, "rank with the most I/O time on the file") \
    X(L##_SLOWEST_RANK_BYTES, IOLENS_AGG_RANK_STAT, "bytes read and written by the slowest rank")

/*
 * Access-pattern detector counters (L = POSIX, MPIIO), kept at run time by
 * lib/layers/access_pattern.c and labelled by iolens-parser --patterns.  A "step"
 * is an access's start offset minus the previous access's start on the
 * same descriptor (POSIX) or file handle (MPIIO).  Steps are parsed into
 * runs of equal steps, and a run ended by a different step (the "jump")
 * makes a group: its signature is (inner stride, accesses per group,
 * outer stride = distance between group starts).  They are appended after
 * the sharing counters, so logs written before them still read (their
 * records simply have fewer counters: no pattern is known).
 */
#define IOLENS_PATTERN_COUNTERS(X, L) \
    X(L##_PAT_STEPS, IOLENS_AGG_SUM, "accesses that had a previous access on the same descriptor or handle: the steps the pattern detector saw") \
    X(L##_PAT_CONSEC, IOLENS_AGG_SUM, "steps whose access starts exactly where the previous access (read or write) on the descriptor or handle ended (iolens's rule; POSIX_CONSEC_* follow Darshan's)") \
    X(L##_PAT_SEQ, IOLENS_AGG_SUM, "steps whose access starts at or after the end of the previous access (read or write) on the descriptor or handle (iolens's rule; POSIX_SEQ_* follow Darshan's)") \
    X(L##_PAT_STRIDE, IOLENS_AGG_AGREE, "dominant stride: the step of the runs of equal steps that cover the most steps (0 if none; IOLENS_PAT_MIXED, -2^63, when merged records differ)") \
    X(L##_PAT_STRIDE_STEPS, IOLENS_AGG_SUM, "steps in runs of the dominant stride") \
    X(L##_PAT_INNER_STRIDE, IOLENS_AGG_AGREE, "nested strides: step inside a group of the most frequent group signature (0 if none; -2^63 when merged records differ)") \
    X(L##_PAT_INNER_COUNT, IOLENS_AGG_AGREE, "nested strides: accesses per group (0 if none; -2^63 when merged records differ)") \
    X(L##_PAT_OUTER_STRIDE, IOLENS_AGG_AGREE, "nested strides: distance between the starts of consecutive groups (0 if none; -2^63 when merged records differ)") \
    X(L##_PAT_GROUPS, IOLENS_AGG_SUM, "groups that match the signature, a trailing partial group included") \
    X(L##_PAT_GROUP_STEPS, IOLENS_AGG_SUM, "steps inside the matching groups and the jumps between them")

/* The pattern counters' order, from <L>_PAT_STEPS: what the runtime's
 * detector packs and the tools' classifier reads. */
#define IOLENS_X_PAT_INDEX(name, agg, desc) name,
enum iolens_pat_counter { IOLENS_PATTERN_COUNTERS(IOLENS_X_PAT_INDEX, IOLENS) IOLENS_PAT_NCOUNTERS };
#undef IOLENS_X_PAT_INDEX

#define IOLENS_SHARING_FCOUNTERS(X, L) \
    X(L##_F_FASTEST_RANK_TIME, IOLENS_AGG_RANK_STAT, "I/O time of the fastest rank") \
    X(L##_F_SLOWEST_RANK_TIME, IOLENS_AGG_RANK_STAT, "I/O time of the slowest rank") \
    X(L##_F_VARIANCE_RANK_TIME, IOLENS_AGG_RANK_STAT, "population variance of per-rank I/O time (seconds squared)") \
    X(L##_F_VARIANCE_RANK_BYTES, IOLENS_AGG_RANK_STAT, "population variance of per-rank bytes read and written")

/*
 * POSIX layer counters.  X(name, AGG, description), each with its own
 * merge rule: this table uses nine, SUM, MAX, SAME, SLOWEST_SIZE,
 * TOP_STATE, TOP_VALUE and TOP_COUNT, and through the pattern and sharing
 * counters it includes, AGREE and RANK_STAT.
 * Integer counters; -1 never appears except where a description says so.
 */
#define IOLENS_POSIX_VERSION 4u
#define IOLENS_POSIX_COUNTERS(X) \
    X(POSIX_OPENS, IOLENS_AGG_SUM, "open, open64, openat, creat and their fortified forms") \
    X(POSIX_READS, IOLENS_AGG_SUM, "read, pread, readv, preadv and their variants") \
    X(POSIX_WRITES, IOLENS_AGG_SUM, "write, pwrite, writev, pwritev and their variants") \
    X(POSIX_SEEKS, IOLENS_AGG_SUM, "lseek and lseek64") \
    X(POSIX_STATS, IOLENS_AGG_SUM, "stat, lstat, fstat, fstatat, statx and the old __xstat family") \
    X(POSIX_MMAPS, IOLENS_AGG_SUM, "mmap of a descriptor of this file") \
    X(POSIX_FSYNCS, IOLENS_AGG_SUM, "fsync") \
    X(POSIX_FDSYNCS, IOLENS_AGG_SUM, "fdatasync") \
    X(POSIX_DUPS, IOLENS_AGG_SUM, "dup, dup2, dup3 and fcntl(F_DUPFD*)") \
    X(POSIX_TRUNCATES, IOLENS_AGG_SUM, "ftruncate") \
    X(POSIX_UNLINKS, IOLENS_AGG_SUM, "unlink, unlinkat and remove of this file") \
    X(POSIX_RENAME_SOURCES, IOLENS_AGG_SUM, "rename, renameat and renameat2 with this file as the source") \
    X(POSIX_RENAME_TARGETS, IOLENS_AGG_SUM, "rename, renameat and renameat2 with this file as the target") \
    X(POSIX_MODE, IOLENS_AGG_MAX, "mode argument of the last open that passed one (O_CREAT, O_TMPFILE, creat), 0 if none (as Darshan); a shared file: the largest of the ranks' values") \
    X(POSIX_BYTES_READ, IOLENS_AGG_SUM, "bytes read") \
    X(POSIX_BYTES_WRITTEN, IOLENS_AGG_SUM, "bytes written") \
    X(POSIX_MAX_BYTE_READ, IOLENS_AGG_MAX, "offset of the last byte of the read that reached furthest, 0 if none (as Darshan)") \
    X(POSIX_MAX_BYTE_WRITTEN, IOLENS_AGG_MAX, "offset of the last byte of the write that reached furthest, 0 if none (as Darshan)") \
    X(POSIX_CONSEC_READS, IOLENS_AGG_SUM, "reads starting right after the last byte of the previous read of the file (by the process, since the last open; before any read that byte is 0, as Darshan)") \
    X(POSIX_CONSEC_WRITES, IOLENS_AGG_SUM, "writes starting right after the last byte of the previous write of the file (as POSIX_CONSEC_READS)") \
    X(POSIX_SEQ_READS, IOLENS_AGG_SUM, "reads starting after the last byte of the previous read of the file (as POSIX_CONSEC_READS; consecutive reads count too)") \
    X(POSIX_SEQ_WRITES, IOLENS_AGG_SUM, "writes starting after the last byte of the previous write of the file (as POSIX_SEQ_READS)") \
    X(POSIX_RW_SWITCHES, IOLENS_AGG_SUM, "changes between reading and writing") \
    X(POSIX_MEM_NOT_ALIGNED, IOLENS_AGG_SUM, "accesses whose buffer address is not a multiple of POSIX_MEM_ALIGNMENT") \
    X(POSIX_MEM_ALIGNMENT, IOLENS_AGG_SAME, "memory alignment used, bytes") \
    X(POSIX_FILE_NOT_ALIGNED, IOLENS_AGG_SUM, "accesses whose file offset is not a multiple of POSIX_FILE_ALIGNMENT") \
    X(POSIX_FILE_ALIGNMENT, IOLENS_AGG_SAME, "file alignment used: the file system block size, bytes") \
    IOLENS_SIZE_COUNTERS(X, POSIX_SIZE_READ_, POSIX_SIZE_WRITE_) \
    X(POSIX_STRIDE_TOP_STATE, IOLENS_AGG_TOP_STATE, "how exact the POSIX_STRIDE* table is: 0 exact, all strides listed; 1 exact, more strides exist; 2 estimated counts") \
    X(POSIX_STRIDE1_STRIDE, IOLENS_AGG_TOP_VALUE, "most common stride, as Darshan: the gap between the previous read's (write's) last byte and the start of a read (write) of the file, counted when it is positive and that last byte is not 0 (as POSIX_CONSEC_READS); 0 if none") \
    X(POSIX_STRIDE2_STRIDE, IOLENS_AGG_TOP_VALUE, "second most common stride") \
    X(POSIX_STRIDE3_STRIDE, IOLENS_AGG_TOP_VALUE, "third most common stride") \
    X(POSIX_STRIDE4_STRIDE, IOLENS_AGG_TOP_VALUE, "fourth most common stride") \
    X(POSIX_STRIDE1_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_STRIDE1_STRIDE") \
    X(POSIX_STRIDE2_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_STRIDE2_STRIDE") \
    X(POSIX_STRIDE3_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_STRIDE3_STRIDE") \
    X(POSIX_STRIDE4_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_STRIDE4_STRIDE") \
    X(POSIX_ACCESS_TOP_STATE, IOLENS_AGG_TOP_STATE, "how exact the POSIX_ACCESS* table is (as POSIX_STRIDE_TOP_STATE)") \
    X(POSIX_ACCESS1_ACCESS, IOLENS_AGG_TOP_VALUE, "most common access size, bytes (accesses of 0 bytes are not counted, as Darshan)") \
    X(POSIX_ACCESS2_ACCESS, IOLENS_AGG_TOP_VALUE, "second most common access size") \
    X(POSIX_ACCESS3_ACCESS, IOLENS_AGG_TOP_VALUE, "third most common access size") \
    X(POSIX_ACCESS4_ACCESS, IOLENS_AGG_TOP_VALUE, "fourth most common access size") \
    X(POSIX_ACCESS1_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_ACCESS1_ACCESS") \
    X(POSIX_ACCESS2_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_ACCESS2_ACCESS") \
    X(POSIX_ACCESS3_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_ACCESS3_ACCESS") \
    X(POSIX_ACCESS4_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of POSIX_ACCESS4_ACCESS") \
    X(POSIX_MAX_READ_TIME_SIZE, IOLENS_AGG_SLOWEST_SIZE, "size of the slowest read, bytes") \
    X(POSIX_MAX_WRITE_TIME_SIZE, IOLENS_AGG_SLOWEST_SIZE, "size of the slowest write, bytes") \
    IOLENS_SHARING_COUNTERS(X, POSIX) \
    IOLENS_PATTERN_COUNTERS(X, POSIX)

/* Floating-point POSIX counters: seconds relative to the process start;
 * in an MPI job's log, to the job start (the earliest process start of any
 * rank, the JOB record's start time), for every rank alike. */
#define IOLENS_POSIX_FCOUNTERS(X) \
    X(POSIX_F_OPEN_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first open") \
    X(POSIX_F_READ_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first read") \
    X(POSIX_F_WRITE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first write") \
    X(POSIX_F_CLOSE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first close") \
    X(POSIX_F_OPEN_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last open") \
    X(POSIX_F_READ_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last read") \
    X(POSIX_F_WRITE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last write") \
    X(POSIX_F_CLOSE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last close") \
    X(POSIX_F_READ_TIME, IOLENS_AGG_SUM, "cumulative read time, overlap within the process counted once") \
    X(POSIX_F_WRITE_TIME, IOLENS_AGG_SUM, "cumulative write time, overlap within the process counted once") \
    X(POSIX_F_META_TIME, IOLENS_AGG_SUM, "cumulative open, close, seek, stat, sync, dup, truncate, unlink and rename time") \
    X(POSIX_F_MAX_READ_TIME, IOLENS_AGG_MAX, "duration of the slowest read") \
    X(POSIX_F_MAX_WRITE_TIME, IOLENS_AGG_MAX, "duration of the slowest write") \
    IOLENS_SHARING_FCOUNTERS(X, POSIX)

/* POSIX roles (IOLENS_LAYERS). */
#define IOLENS_POSIX_ROLES(R) \
    R(opens[0], POSIX_OPENS) \
    R(reads, POSIX_READS) \
    R(writes, POSIX_WRITES) \
    R(read_ops[0], POSIX_READS) \
    R(write_ops[0], POSIX_WRITES) \
    R(bytes_read, POSIX_BYTES_READ) \
    R(bytes_written, POSIX_BYTES_WRITTEN) \
    R(max_byte_read, POSIX_MAX_BYTE_READ) \
    R(max_byte_written, POSIX_MAX_BYTE_WRITTEN) \
    R(size_read_first, POSIX_SIZE_READ_0_100) \
    R(size_write_first, POSIX_SIZE_WRITE_0_100) \
    R(access_first, POSIX_ACCESS1_ACCESS) \
    R(pattern_first, POSIX_PAT_STEPS) \
    R(slowest_read_size, POSIX_MAX_READ_TIME_SIZE) \
    R(slowest_write_size, POSIX_MAX_WRITE_TIME_SIZE) \
    R(f_open_start, POSIX_F_OPEN_START_TIMESTAMP) \
    R(f_open_end, POSIX_F_OPEN_END_TIMESTAMP) \
    R(f_read_start, POSIX_F_READ_START_TIMESTAMP) \
    R(f_read_end, POSIX_F_READ_END_TIMESTAMP) \
    R(f_write_start, POSIX_F_WRITE_START_TIMESTAMP) \
    R(f_write_end, POSIX_F_WRITE_END_TIMESTAMP) \
    R(f_close_start, POSIX_F_CLOSE_START_TIMESTAMP) \
    R(f_close_end, POSIX_F_CLOSE_END_TIMESTAMP) \
    R(read_time, POSIX_F_READ_TIME) \
    R(write_time, POSIX_F_WRITE_TIME) \
    R(meta_time, POSIX_F_META_TIME) \
    R(f_max_read_time, POSIX_F_MAX_READ_TIME) \
    R(f_max_write_time, POSIX_F_MAX_WRITE_TIME)

#define IOLENS_STDIO_VERSION 4u
#define IOLENS_STDIO_COUNTERS(X) \
    X(STDIO_OPENS, IOLENS_AGG_SUM, "fopen, fopen64, fdopen, freopen and tmpfile") \
    X(STDIO_READS, IOLENS_AGG_SUM, "read calls: fread, fgets, getline, fgetc and the like, fscanf, __uflow (the refill of glibc's inline getc_unlocked); bytes inline code takes from the buffer are no call") \
    X(STDIO_WRITES, IOLENS_AGG_SUM, "write calls: fwrite, fputs, puts, the printf family, fputc and the like, __overflow (what glibc's inline putc_unlocked calls on a full buffer); bytes inline code puts in the buffer are no call") \
    X(STDIO_SEEKS, IOLENS_AGG_SUM, "fseek, fseeko, fsetpos and rewind") \
    X(STDIO_FLUSHES, IOLENS_AGG_SUM, "fflush") \
    X(STDIO_BYTES_READ, IOLENS_AGG_SUM, "bytes read, with those inline getc_unlocked and the like took from the buffer (buffer accounting, iolens(7))") \
    X(STDIO_BYTES_WRITTEN, IOLENS_AGG_SUM, "bytes written, with those inline putc_unlocked and the like put in the buffer (buffer accounting, iolens(7))") \
    X(STDIO_MAX_BYTE_READ, IOLENS_AGG_MAX, "offset of the last byte of the read that reached furthest, 0 if none (as Darshan)") \
    X(STDIO_MAX_BYTE_WRITTEN, IOLENS_AGG_MAX, "offset of the last byte of the write that reached furthest, 0 if none (as Darshan)") \
    IOLENS_SHARING_COUNTERS(X, STDIO)

#define IOLENS_STDIO_FCOUNTERS(X) \
    X(STDIO_F_OPEN_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first open") \
    X(STDIO_F_READ_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first read") \
    X(STDIO_F_WRITE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first write") \
    X(STDIO_F_CLOSE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first close") \
    X(STDIO_F_OPEN_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last open") \
    X(STDIO_F_READ_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last read") \
    X(STDIO_F_WRITE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last write") \
    X(STDIO_F_CLOSE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last close") \
    X(STDIO_F_READ_TIME, IOLENS_AGG_SUM, "cumulative read time, overlap within the process counted once") \
    X(STDIO_F_WRITE_TIME, IOLENS_AGG_SUM, "cumulative write time, overlap within the process counted once") \
    X(STDIO_F_META_TIME, IOLENS_AGG_SUM, "cumulative open, close, seek and flush time") \
    IOLENS_SHARING_FCOUNTERS(X, STDIO)

/* STDIO roles (IOLENS_LAYERS): no size bins, top tables, patterns or
 * slowest operation. */
#define IOLENS_STDIO_ROLES(R) \
    R(opens[0], STDIO_OPENS) \
    R(reads, STDIO_READS) \
    R(writes, STDIO_WRITES) \
    R(read_ops[0], STDIO_READS) \
    R(write_ops[0], STDIO_WRITES) \
    R(bytes_read, STDIO_BYTES_READ) \
    R(bytes_written, STDIO_BYTES_WRITTEN) \
    R(max_byte_read, STDIO_MAX_BYTE_READ) \
    R(max_byte_written, STDIO_MAX_BYTE_WRITTEN) \
    R(f_open_start, STDIO_F_OPEN_START_TIMESTAMP) \
    R(f_open_end, STDIO_F_OPEN_END_TIMESTAMP) \
    R(f_read_start, STDIO_F_READ_START_TIMESTAMP) \
    R(f_read_end, STDIO_F_READ_END_TIMESTAMP) \
    R(f_write_start, STDIO_F_WRITE_START_TIMESTAMP) \
    R(f_write_end, STDIO_F_WRITE_END_TIMESTAMP) \
    R(f_close_start, STDIO_F_CLOSE_START_TIMESTAMP) \
    R(f_close_end, STDIO_F_CLOSE_END_TIMESTAMP) \
    R(read_time, STDIO_F_READ_TIME) \
    R(write_time, STDIO_F_WRITE_TIME) \
    R(meta_time, STDIO_F_META_TIME)

/*
 * MPI-IO layer.  Bytes are datatype size x count.  Shared-pointer reads and
 * writes (_shared) count as independent, _ordered ones as collective;
 * split collectives (_begin/_end) and nonblocking forms (iread ...) have
 * their own counters and are not also counted as independent/collective.
 */
#define IOLENS_MPIIO_VERSION 4u
#define IOLENS_MPIIO_COUNTERS(X) \
    X(MPIIO_INDEP_OPENS, IOLENS_AGG_SUM, "MPI_File_open on MPI_COMM_SELF or a one-rank communicator") \
    X(MPIIO_COLL_OPENS, IOLENS_AGG_SUM, "MPI_File_open on a communicator of more than one rank") \
    X(MPIIO_INDEP_READS, IOLENS_AGG_SUM, "independent reads: read, read_at, read_shared") \
    X(MPIIO_INDEP_WRITES, IOLENS_AGG_SUM, "independent writes: write, write_at, write_shared") \
    X(MPIIO_COLL_READS, IOLENS_AGG_SUM, "collective reads: read_all, read_at_all, read_ordered") \
    X(MPIIO_COLL_WRITES, IOLENS_AGG_SUM, "collective writes: write_all, write_at_all, write_ordered") \
    X(MPIIO_SPLIT_READS, IOLENS_AGG_SUM, "split collective reads (_begin)") \
    X(MPIIO_SPLIT_WRITES, IOLENS_AGG_SUM, "split collective writes (_begin)") \
    X(MPIIO_NB_READS, IOLENS_AGG_SUM, "nonblocking reads: iread, iread_at, iread_shared, iread_all, iread_at_all") \
    X(MPIIO_NB_WRITES, IOLENS_AGG_SUM, "nonblocking writes: iwrite, iwrite_at, iwrite_shared, iwrite_all, iwrite_at_all") \
    X(MPIIO_SYNCS, IOLENS_AGG_SUM, "MPI_File_sync") \
    X(MPIIO_HINTS, IOLENS_AGG_SUM, "MPI_File_set_info, and opens with an info object other than MPI_INFO_NULL") \
    X(MPIIO_VIEWS, IOLENS_AGG_SUM, "MPI_File_set_view") \
    X(MPIIO_MODE, IOLENS_AGG_MAX, "amode of the last open, 0 if none (as Darshan); a shared file: the largest of the ranks' values") \
    X(MPIIO_BYTES_READ, IOLENS_AGG_SUM, "bytes read") \
    X(MPIIO_BYTES_WRITTEN, IOLENS_AGG_SUM, "bytes written") \
    X(MPIIO_RW_SWITCHES, IOLENS_AGG_SUM, "changes between reading and writing") \
    X(MPIIO_DERIVED_DATATYPES, IOLENS_AGG_SUM, "reads and writes whose memory datatype is derived (not predefined)") \
    X(MPIIO_DERIVED_VIEWS, IOLENS_AGG_SUM, "set_view calls whose filetype is derived") \
    IOLENS_SIZE_COUNTERS(X, MPIIO_SIZE_READ_AGG_, MPIIO_SIZE_WRITE_AGG_) \
    X(MPIIO_ACCESS_TOP_STATE, IOLENS_AGG_TOP_STATE, "how exact the MPIIO_ACCESS* table is (as POSIX_STRIDE_TOP_STATE)") \
    X(MPIIO_ACCESS1_ACCESS, IOLENS_AGG_TOP_VALUE, "most common access size, bytes (accesses of 0 bytes are not counted, as Darshan)") \
    X(MPIIO_ACCESS2_ACCESS, IOLENS_AGG_TOP_VALUE, "second most common access size") \
    X(MPIIO_ACCESS3_ACCESS, IOLENS_AGG_TOP_VALUE, "third most common access size") \
    X(MPIIO_ACCESS4_ACCESS, IOLENS_AGG_TOP_VALUE, "fourth most common access size") \
    X(MPIIO_ACCESS1_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of MPIIO_ACCESS1_ACCESS") \
    X(MPIIO_ACCESS2_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of MPIIO_ACCESS2_ACCESS") \
    X(MPIIO_ACCESS3_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of MPIIO_ACCESS3_ACCESS") \
    X(MPIIO_ACCESS4_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of MPIIO_ACCESS4_ACCESS") \
    X(MPIIO_MAX_READ_TIME_SIZE, IOLENS_AGG_SLOWEST_SIZE, "size of the slowest read, bytes") \
    X(MPIIO_MAX_WRITE_TIME_SIZE, IOLENS_AGG_SLOWEST_SIZE, "size of the slowest write, bytes") \
    IOLENS_SHARING_COUNTERS(X, MPIIO) \
    IOLENS_PATTERN_COUNTERS(X, MPIIO)

#define IOLENS_MPIIO_FCOUNTERS(X) \
    X(MPIIO_F_OPEN_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first open") \
    X(MPIIO_F_READ_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first read") \
    X(MPIIO_F_WRITE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first write") \
    X(MPIIO_F_CLOSE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first close") \
    X(MPIIO_F_OPEN_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last open") \
    X(MPIIO_F_READ_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last read") \
    X(MPIIO_F_WRITE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last write") \
    X(MPIIO_F_CLOSE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last close") \
    X(MPIIO_F_READ_TIME, IOLENS_AGG_SUM, "cumulative read time (nonblocking: issue to completion), overlap within the process counted once") \
    X(MPIIO_F_WRITE_TIME, IOLENS_AGG_SUM, "cumulative write time (nonblocking: issue to completion), overlap within the process counted once") \
    X(MPIIO_F_META_TIME, IOLENS_AGG_SUM, "cumulative open, close, sync, set_size, preallocate, set_view and set_info time") \
    X(MPIIO_F_MAX_READ_TIME, IOLENS_AGG_MAX, "duration of the slowest read") \
    X(MPIIO_F_MAX_WRITE_TIME, IOLENS_AGG_MAX, "duration of the slowest write") \
    IOLENS_SHARING_FCOUNTERS(X, MPIIO)

/* MPI-IO roles (IOLENS_LAYERS): reads and writes are the independent
 * forms, read_ops and write_ops every form. */
#define IOLENS_MPIIO_ROLES(R) \
    R(opens[0], MPIIO_INDEP_OPENS) \
    R(opens[1], MPIIO_COLL_OPENS) \
    R(reads, MPIIO_INDEP_READS) \
    R(writes, MPIIO_INDEP_WRITES) \
    R(read_ops[0], MPIIO_INDEP_READS) \
    R(read_ops[1], MPIIO_COLL_READS) \
    R(read_ops[2], MPIIO_SPLIT_READS) \
    R(read_ops[3], MPIIO_NB_READS) \
    R(write_ops[0], MPIIO_INDEP_WRITES) \
    R(write_ops[1], MPIIO_COLL_WRITES) \
    R(write_ops[2], MPIIO_SPLIT_WRITES) \
    R(write_ops[3], MPIIO_NB_WRITES) \
    R(bytes_read, MPIIO_BYTES_READ) \
    R(bytes_written, MPIIO_BYTES_WRITTEN) \
    R(size_read_first, MPIIO_SIZE_READ_AGG_0_100) \
    R(size_write_first, MPIIO_SIZE_WRITE_AGG_0_100) \
    R(access_first, MPIIO_ACCESS1_ACCESS) \
    R(pattern_first, MPIIO_PAT_STEPS) \
    R(slowest_read_size, MPIIO_MAX_READ_TIME_SIZE) \
    R(slowest_write_size, MPIIO_MAX_WRITE_TIME_SIZE) \
    R(f_open_start, MPIIO_F_OPEN_START_TIMESTAMP) \
    R(f_open_end, MPIIO_F_OPEN_END_TIMESTAMP) \
    R(f_read_start, MPIIO_F_READ_START_TIMESTAMP) \
    R(f_read_end, MPIIO_F_READ_END_TIMESTAMP) \
    R(f_write_start, MPIIO_F_WRITE_START_TIMESTAMP) \
    R(f_write_end, MPIIO_F_WRITE_END_TIMESTAMP) \
    R(f_close_start, MPIIO_F_CLOSE_START_TIMESTAMP) \
    R(f_close_end, MPIIO_F_CLOSE_END_TIMESTAMP) \
    R(read_time, MPIIO_F_READ_TIME) \
    R(write_time, MPIIO_F_WRITE_TIME) \
    R(meta_time, MPIIO_F_META_TIME) \
    R(f_max_read_time, MPIIO_F_MAX_READ_TIME) \
    R(f_max_write_time, MPIIO_F_MAX_WRITE_TIME)

/*
 * HDF5 file layer (H5F).  One record per HDF5 file, keyed by its path like
 * the POSIX record of the same file.
 */
#define IOLENS_H5F_VERSION 4u
#define IOLENS_H5F_COUNTERS(X) \
    X(H5F_OPENS, IOLENS_AGG_SUM, "H5Fcreate and H5Fopen (as Darshan)") \
    X(H5F_CREATES, IOLENS_AGG_SUM, "H5Fcreate: the part of H5F_OPENS that created the file") \
    X(H5F_FLUSHES, IOLENS_AGG_SUM, "H5Fflush") \
    X(H5F_USE_MPIIO, IOLENS_AGG_MAX, "1 if a file access property list selected the MPI-IO driver") \
    X(H5F_COLL_METADATA, IOLENS_AGG_MAX, "1 if collective metadata reads or writes were enabled") \
    IOLENS_SHARING_COUNTERS(X, H5F)

#define IOLENS_H5F_FCOUNTERS(X) \
    X(H5F_F_OPEN_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first create or open") \
    X(H5F_F_CLOSE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first close") \
    X(H5F_F_OPEN_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last create or open") \
    X(H5F_F_CLOSE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last close") \
    X(H5F_F_META_TIME, IOLENS_AGG_SUM, "cumulative create, open, flush and close time") \
    IOLENS_SHARING_FCOUNTERS(X, H5F)

/* H5F roles (IOLENS_LAYERS): opens (creates included) and metadata time
 * only; a file's data moves through its datasets. */
#define IOLENS_H5F_ROLES(R) \
    R(opens[0], H5F_OPENS) \
    R(f_open_start, H5F_F_OPEN_START_TIMESTAMP) \
    R(f_open_end, H5F_F_OPEN_END_TIMESTAMP) \
    R(f_close_start, H5F_F_CLOSE_START_TIMESTAMP) \
    R(f_close_end, H5F_F_CLOSE_END_TIMESTAMP) \
    R(meta_time, H5F_F_META_TIME)

/*
 * HDF5 dataset layer (H5D).  One record per dataset, named
 * "<file path>:<dataset path>"; H5D_FILE_REC_ID is the record id of the
 * file's H5F record.  Bytes are the selected points times the memory
 * datatype size.  An access's shape is the extent of its file selection's
 * bounding box in each of the last 5 dimensions, right-aligned as in
 * Darshan: the last dimension in D5, a 2-D access in D4 and D5.
 */
#define IOLENS_H5D_VERSION 4u
#define IOLENS_H5D_ACCESS_SHAPE(X, N, ORD) \
    X(H5D_ACCESS##N##_ACCESS, IOLENS_AGG_TOP_VALUE, ORD " most common access size, bytes") \
    X(H5D_ACCESS##N##_LENGTH_D1, IOLENS_AGG_TOP_SHAPE, "extent in the 5th-last dimension of the " ORD " most common access shape (right-aligned as Darshan: 0 for a selection of rank below 5)") \
    X(H5D_ACCESS##N##_LENGTH_D2, IOLENS_AGG_TOP_SHAPE, "extent in the 4th-last dimension, 0 for a rank below 4") \
    X(H5D_ACCESS##N##_LENGTH_D3, IOLENS_AGG_TOP_SHAPE, "extent in the 3rd-last dimension, 0 for a rank below 3") \
    X(H5D_ACCESS##N##_LENGTH_D4, IOLENS_AGG_TOP_SHAPE, "extent in the 2nd-last dimension, 0 for a rank below 2") \
    X(H5D_ACCESS##N##_LENGTH_D5, IOLENS_AGG_TOP_SHAPE, "extent in the last dimension") \
    X(H5D_ACCESS##N##_COUNT, IOLENS_AGG_TOP_COUNT, "occurrences of this access shape")

#define IOLENS_H5D_COUNTERS(X) \
    X(H5D_OPENS, IOLENS_AGG_SUM, "H5Dcreate1/2, H5Dcreate_anon, H5Dopen1/2, and H5Oopen, H5Oopen_by_idx, H5Oopen_by_addr and H5Rdereference1/2 of a dataset") \
    X(H5D_READS, IOLENS_AGG_SUM, "H5Dread") \
    X(H5D_WRITES, IOLENS_AGG_SUM, "H5Dwrite") \
    X(H5D_FLUSHES, IOLENS_AGG_SUM, "H5Dflush") \
    X(H5D_BYTES_READ, IOLENS_AGG_SUM, "bytes read: selected points x memory datatype size") \
    X(H5D_BYTES_WRITTEN, IOLENS_AGG_SUM, "bytes written: selected points x memory datatype size") \
    X(H5D_RW_SWITCHES, IOLENS_AGG_SUM, "changes between reading and writing") \
    X(H5D_ALL_SELECTS, IOLENS_AGG_SUM, "accesses whose file selection is the whole dataspace (H5S_ALL or select_all)") \
    X(H5D_REGULAR_HYPERSLAB_SELECTS, IOLENS_AGG_SUM, "accesses with a regular hyperslab file selection") \
    X(H5D_IRREGULAR_HYPERSLAB_SELECTS, IOLENS_AGG_SUM, "accesses with an irregular hyperslab file selection") \
    X(H5D_POINT_SELECTS, IOLENS_AGG_SUM, "accesses with a point file selection") \
    X(H5D_COLL_ACCESSES, IOLENS_AGG_SUM, "reads and writes with a collective MPI-IO transfer property list") \
    X(H5D_INDEP_ACCESSES, IOLENS_AGG_SUM, "reads and writes with an independent (or no) MPI-IO transfer") \
    X(H5D_MAX_READ_TIME_SIZE, IOLENS_AGG_SLOWEST_SIZE, "size of the slowest read, bytes") \
    X(H5D_MAX_WRITE_TIME_SIZE, IOLENS_AGG_SLOWEST_SIZE, "size of the slowest write, bytes") \
    IOLENS_SIZE_COUNTERS(X, H5D_SIZE_READ_AGG_, H5D_SIZE_WRITE_AGG_) \
    X(H5D_ACCESS_TOP_STATE, IOLENS_AGG_TOP_STATE, "how exact the H5D_ACCESS* table is (as POSIX_STRIDE_TOP_STATE)") \
    IOLENS_H5D_ACCESS_SHAPE(X, 1, "first") \
    IOLENS_H5D_ACCESS_SHAPE(X, 2, "second") \
    IOLENS_H5D_ACCESS_SHAPE(X, 3, "third") \
    IOLENS_H5D_ACCESS_SHAPE(X, 4, "fourth") \
    X(H5D_DATASPACE_NDIMS, IOLENS_AGG_SAME, "rank of the dataset's dataspace, -1 if unknown") \
    X(H5D_DATASPACE_NPOINTS, IOLENS_AGG_SAME, "points in the dataset's dataspace, -1 if unknown") \
    X(H5D_DATASPACE_DIM1, IOLENS_AGG_SAME, "dataspace extent in dimension 1 (0 beyond the rank)") \
    X(H5D_DATASPACE_DIM2, IOLENS_AGG_SAME, "dataspace extent in dimension 2") \
    X(H5D_DATASPACE_DIM3, IOLENS_AGG_SAME, "dataspace extent in dimension 3") \
    X(H5D_DATASPACE_DIM4, IOLENS_AGG_SAME, "dataspace extent in dimension 4") \
    X(H5D_DATASPACE_DIM5, IOLENS_AGG_SAME, "dataspace extent in dimension 5") \
    X(H5D_DATATYPE_SIZE, IOLENS_AGG_SAME, "size of the dataset's datatype, bytes, -1 if unknown") \
    X(H5D_LAYOUT, IOLENS_AGG_SAME, "storage layout: 0 compact, 1 contiguous, 2 chunked, 3 virtual, -1 unknown") \
    X(H5D_CHUNK_NDIMS, IOLENS_AGG_SAME, "chunk rank, 0 when not chunked") \
    X(H5D_CHUNK_DIM1, IOLENS_AGG_SAME, "chunk extent in dimension 1 (0 beyond the chunk rank)") \
    X(H5D_CHUNK_DIM2, IOLENS_AGG_SAME, "chunk extent in dimension 2") \
    X(H5D_CHUNK_DIM3, IOLENS_AGG_SAME, "chunk extent in dimension 3") \
    X(H5D_CHUNK_DIM4, IOLENS_AGG_SAME, "chunk extent in dimension 4") \
    X(H5D_CHUNK_DIM5, IOLENS_AGG_SAME, "chunk extent in dimension 5") \
    X(H5D_FILTERS, IOLENS_AGG_SAME, "number of filters (compression ...) in the creation pipeline") \
    X(H5D_FILE_REC_ID, IOLENS_AGG_SAME, "record id of the file's H5F record (as a signed 64-bit value)") \
    IOLENS_SHARING_COUNTERS(X, H5D)

#define IOLENS_H5D_FCOUNTERS(X) \
    X(H5D_F_OPEN_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first open or create") \
    X(H5D_F_READ_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first read") \
    X(H5D_F_WRITE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first write") \
    X(H5D_F_CLOSE_START_TIMESTAMP, IOLENS_AGG_MIN_NONZERO, "start of the first close") \
    X(H5D_F_OPEN_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last open or create") \
    X(H5D_F_READ_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last read") \
    X(H5D_F_WRITE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last write") \
    X(H5D_F_CLOSE_END_TIMESTAMP, IOLENS_AGG_MAX, "end of the last close") \
    X(H5D_F_READ_TIME, IOLENS_AGG_SUM, "cumulative H5Dread time, overlap within the process counted once") \
    X(H5D_F_WRITE_TIME, IOLENS_AGG_SUM, "cumulative H5Dwrite time, overlap within the process counted once") \
    X(H5D_F_META_TIME, IOLENS_AGG_SUM, "cumulative create, open, flush and close time") \
    X(H5D_F_MAX_READ_TIME, IOLENS_AGG_MAX, "duration of the slowest read") \
    X(H5D_F_MAX_WRITE_TIME, IOLENS_AGG_MAX, "duration of the slowest write") \
    IOLENS_SHARING_FCOUNTERS(X, H5D)

/* H5D roles (IOLENS_LAYERS): access_first starts the table of access
 * shapes; a record is a dataset, file_rec_id names its file's record. */
#define IOLENS_H5D_ROLES(R) \
    R(opens[0], H5D_OPENS) \
    R(reads, H5D_READS) \
    R(writes, H5D_WRITES) \
    R(read_ops[0], H5D_READS) \
    R(write_ops[0], H5D_WRITES) \
    R(bytes_read, H5D_BYTES_READ) \
    R(bytes_written, H5D_BYTES_WRITTEN) \
    R(size_read_first, H5D_SIZE_READ_AGG_0_100) \
    R(size_write_first, H5D_SIZE_WRITE_AGG_0_100) \
    R(access_first, H5D_ACCESS1_ACCESS) \
    R(file_rec_id, H5D_FILE_REC_ID) \
    R(slowest_read_size, H5D_MAX_READ_TIME_SIZE) \
    R(slowest_write_size, H5D_MAX_WRITE_TIME_SIZE) \
    R(f_open_start, H5D_F_OPEN_START_TIMESTAMP) \
    R(f_open_end, H5D_F_OPEN_END_TIMESTAMP) \
    R(f_read_start, H5D_F_READ_START_TIMESTAMP) \
    R(f_read_end, H5D_F_READ_END_TIMESTAMP) \
    R(f_write_start, H5D_F_WRITE_START_TIMESTAMP) \
    R(f_write_end, H5D_F_WRITE_END_TIMESTAMP) \
    R(f_close_start, H5D_F_CLOSE_START_TIMESTAMP) \
    R(f_close_end, H5D_F_CLOSE_END_TIMESTAMP) \
    R(read_time, H5D_F_READ_TIME) \
    R(write_time, H5D_F_WRITE_TIME) \
    R(meta_time, H5D_F_META_TIME) \
    R(f_max_read_time, H5D_F_MAX_READ_TIME) \
    R(f_max_write_time, H5D_F_MAX_WRITE_TIME)

#define IOLENS_X_ENUM(name, agg, desc) name,

/* Each layer's counter enums (ending with <NAME>_NUM_COUNTERS and
 * <NAME>_F_NUM_COUNTERS) and its record as it lies in the (decompressed)
 * region: struct iolens_<lower>_record. */
#define IOLENS_X_LAYER_TYPES(NAME, lower, KIND, VERSION, C, F, ROLES, DATA, BASE) \
    enum iolens_##lower##_counter { C(IOLENS_X_ENUM) NAME##_NUM_COUNTERS };         \
    enum iolens_##lower##_fcounter { F(IOLENS_X_ENUM) NAME##_F_NUM_COUNTERS };      \
    struct iolens_##lower##_record {                                                \
        uint64_t id;                                                                \
        int64_t rank;                                                               \
        int64_t counters[NAME##_NUM_COUNTERS];                                      \
        double fcounters[NAME##_F_NUM_COUNTERS];                                    \
    };
IOLENS_LAYERS(IOLENS_X_LAYER_TYPES)

#endif /* IOLENS_LOG_FORMAT_H */
