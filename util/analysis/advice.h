/* Tuning advice from a log (iolens-parser --advice, the HTML report):
 * findings, each with a stable code, the evidence figures and a concrete
 * fix.  Computes, prints nothing.  The rules and their default thresholds
 * are documented in iolens-parser(1), ADVICE.
 *
 * Codes (stable; a new rule gets a new code, a code is never reused):
 *   SMALL_ACCESSES       many reads/writes smaller than small_access_bytes
 *   MISALIGNED_ACCESSES  many accesses at file offsets off the block size
 *   RANDOM_ACCESS        many accesses in files labelled random (patterns.h)
 *   RANK0_BOTTLENECK     one rank moved most of a multi-rank job's data
 *   RANK_IMBALANCE       the slowest rank spent far longer in I/O than the fastest
 *   METADATA_DOMINATED   metadata time is a large share of the I/O time
 *   HEAVY_STDIO          much of the data went through STDIO
 *   NO_COLLECTIVE_MPIIO  shared files accessed with independent MPI-IO only
 *   HDF5_INDEPENDENT     HDF5 dataset accesses with independent transfer
 *   REDUNDANT_READS      more bytes read than the files hold
 *   HDF5_AMPLIFICATION   HDF5 moved far more bytes at POSIX than its datasets' calls asked */
#ifndef IOLENS_ADVICE_H
#define IOLENS_ADVICE_H

#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

/* Findings sort by priority, highest first; ties by code. */
struct iolens_finding {
    const char *code;         /* static string, e.g. "SMALL_ACCESSES" */
    int priority;             /* the rule's base (30..90) plus 0..9 (advice.c) */
    char evidence[512];       /* one line: the figures that triggered it */
    char fix[512];            /* one line: what to change */
    double metric;            /* the figure compared with the threshold */
    double threshold;         /* the threshold it exceeded */
    /* The call site behind the file the evidence names most (has_site
     * 1): of that record's logged sites, the one with the most operations
     * or bytes, as the rule is about (iolens-parser(1), ADVICE).  0 for a
     * rule about no one file, or a record without sites.  The tools
     * resolve it to a line; the analysis never does. */
    int has_site;
    struct iolens_log_site site;
};

/* Every threshold; the comments give the --advice-thresholds key, and
 * iolens_advice_defaults() (advice_thresholds.c) the defaults. */
struct iolens_advice_thresholds {
    int64_t small_access_bytes;     /* small_size: a size bin whose upper bound is at
                                       most this counts as small, bytes */
    double small_access_share;      /* small_share: share of accesses that are small */
    int64_t min_accesses;           /* min_ops: rules on access shares need this many accesses */
    double misaligned_share;        /* misaligned_share: share of accesses off the alignment */
    double random_share;            /* random_share: share of accesses in random-labelled files */
    double rank0_share;             /* rank0_share: share of the bytes moved by one rank */
    double imbalance_ratio;         /* imbalance_ratio: slowest / fastest rank I/O time */
    double imbalance_min_time;      /* imbalance_min_time: s; a slowest rank time
                                       below this is ignored */
    double meta_share;              /* meta_share: metadata time / I/O time */
    double meta_min_time;           /* meta_min_time: s, metadata time below this is ignored */
    int64_t many_files;             /* many_files: file count for "many small files" */
    double stdio_share;             /* stdio_share: STDIO bytes / (STDIO + POSIX) bytes */
    int64_t min_bytes;              /* min_bytes: rules on byte shares need this many bytes */
    double indep_share;             /* indep_share: independent share of MPI-IO / H5D accesses */
    double redundant_factor;        /* redundant_factor: bytes read / file size */
    double hdf5_amplification;      /* hdf5_amplification: an HDF5 file's POSIX bytes /
                                       its datasets' H5D bytes */
};

void iolens_advice_defaults(struct iolens_advice_thresholds *t);

/* Sets one threshold from "key=value" (keys as in the comments above).
 * 0, or -1 with a reason in err for an unknown key or a bad value. */
int iolens_advice_set(struct iolens_advice_thresholds *t, const char *key_value,
                      char *err, size_t errsz);
/* A comma-separated list of key=value; 0 or -1 (err set). */
int iolens_advice_parse(struct iolens_advice_thresholds *t, const char *list,
                        char *err, size_t errsz);
/* Writes every threshold as "key=value,key=value..." (the form
 * iolens_advice_parse reads) into buf; returns buf. */
const char *iolens_advice_format(const struct iolens_advice_thresholds *t, char *buf,
                                 size_t size);

/* Computes the findings of log, sorted by priority.  *out is malloc'd
 * (NULL when there are none); free it with iolens_advice_free.  t NULL
 * means the defaults.  0, or -1 when out of memory. */
int iolens_advice_compute(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                          struct iolens_finding **out, size_t *n);
void iolens_advice_free(struct iolens_finding *findings);

#endif
