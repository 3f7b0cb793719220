/* Reading Darshan 3.x logs into a struct iolens_log: the internals shared
 * by util/reader/darshan_*.c, not part of the reader's API.
 *
 * The layout of a Darshan log (facts from Darshan's public headers, checked
 * against the logs in ../shared/fixtures/darshan and their darshan-parser
 * outputs); all integers little-endian as written on x86_64:
 *   header   version string (8 bytes, "3.41"), int64 magic 6567223, the
 *            compression type (one byte: 0 zlib, 1 bzip2, 2 none), the
 *            partial flags (a bit per module id that ran out of records),
 *            then the map: (offset, length) of the name records, then of
 *            each module's region, then each module's record version.
 *            Log format 3.41: 64 modules, the flags a uint64 at 24, the map
 *            at 32 (1328 bytes).  3.21: 16 modules, the flags a uint32 at
 *            20, the map at 24 (360 bytes).
 *   job      right after the header, compressed: uid, start time, end time
 *            (3.41: seconds and nanoseconds each), nprocs, jobid, 1024
 *            bytes of "key=value\n" metadata, then the command line, a
 *            newline, and one "fstype\tmount point\n" line per mount.
 *   names    (record id uint64, NUL-terminated path) back to back.
 *   modules  records back to back: record id, rank (-1 for a file shared
 *            by every rank), int64 counters, double fcounters (H5D has its
 *            file's record id after the rank).  DXT: per record id, rank,
 *            a shared flag, a 64-byte host name, write and read counts,
 *            then that many segments (offset, length, start, end, thread
 *            id: 40 bytes), the writes first.
 * Every compressed part is one or more streams back to back (each MPI rank
 * compresses its own share). */
#ifndef IOLENS_DARSHAN_H
#define IOLENS_DARSHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reader/reader_internal.h"

/* An int64 or a double of a decompressed Darshan region, which holds
 * them at any alignment, in the reader's byte order (a log of the other
 * byte order is refused). */
static inline int64_t get_i64(const unsigned char *p)
{
    int64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline double get_f64(const unsigned char *p)
{
    double v;
    memcpy(&v, p, 8);
    return v;
}

#define DN_MAGIC 6567223
#define DN_COMP_ZLIB 0
#define DN_COMP_BZIP2 1
#define DN_COMP_NONE 2

/* What a Darshan module's records hold, for the versions read. */
struct dn_module {
    const char *name;           /* Darshan's module name */
    uint32_t version;           /* the record version these tables describe */
    uint32_t kind;              /* the iolens layer it maps to (0: none) */
    bool file_rec_id;           /* H5D: a record id follows the rank */
    const char *const *counters;
    uint32_t ncounters;
    const char *const *fcounters;
    uint32_t nfcounters;
};

/* The module of a name at a version, or NULL (not read). */
const struct dn_module *dn_module_find(const char *name, uint32_t version);

/* A header's layout. */
struct dn_layout {
    const char *version;        /* "3.41" */
    size_t header_size;
    size_t partial_at, partial_size;   /* the partial flags: offset and size */
    size_t map_at;              /* the name map, then the module maps */
    unsigned nmods;
    const char *const *mod_names;      /* nmods names by module id */
    bool job_nsec;              /* the job's times have nanoseconds */
};

/* A compressed part inflated whole (every stream of it) into a new buffer
 * *out of *outlen bytes, at most limit: false with a reason in r. */
enum iolens_read_status dn_inflate(struct reader *r, int comp, const unsigned char *in,
                                   size_t inlen, size_t limit, const char *what,
                                   unsigned char **out, size_t *outlen);

/* A module's region (raw bytes) as records of an iolens layer. */
enum iolens_read_status dn_read_module(struct reader *r, const struct dn_module *m,
                                       const unsigned char *raw, size_t len);

/* A DXT region (raw bytes) as access intervals of layer kind. */
enum iolens_read_status dn_read_dxt(struct reader *r, uint32_t kind, const unsigned char *raw,
                                    size_t len);

/* Reads a Darshan log held in memory (the caller checked its magic). */
enum iolens_read_status dn_read_log(struct reader *r);

/* Whether data starts as a Darshan log. */
bool dn_is_darshan(const unsigned char *data, size_t size);

#endif
