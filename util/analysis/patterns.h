/* Access-pattern labels for one record, from the detector counters the
 * runtime keeps (the <LAYER>_PAT_* counters of log_format.h).  The rules
 * and thresholds are documented in iolens-parser(1). */
#ifndef IOLENS_PATTERNS_H
#define IOLENS_PATTERNS_H

#include <stdint.h>
#include <stdio.h>

#include "reader/reader.h"

/* Share of a record's steps that must fit a label (iolens-parser(1)). */
#define IOLENS_PATTERN_THRESHOLD 0.9

enum iolens_pattern_kind {
    IOLENS_PATTERN_NONE,            /* no reads or writes */
    IOLENS_PATTERN_CONSECUTIVE,     /* each access starts where the previous ended */
    IOLENS_PATTERN_SEQUENTIAL,      /* increasing offsets, irregular gaps */
    IOLENS_PATTERN_STRIDED,         /* a constant stride */
    IOLENS_PATTERN_NESTED_STRIDED,  /* groups of strided accesses, the groups strided */
    IOLENS_PATTERN_RANDOM,          /* none of the above */
    IOLENS_PATTERN_UNKNOWN,         /* the layer keeps no detector counters */
};

struct iolens_pattern {
    enum iolens_pattern_kind kind;
    int64_t accesses;       /* reads + writes of the record */
    int64_t access_size;    /* most common access size, bytes (0 if unknown) */
    int64_t stride;         /* strided: offset step; nested: inner step */
    int64_t inner_count;    /* nested: accesses per group */
    int64_t outer_stride;   /* nested: offset step between group starts */
    int64_t outer_count;    /* nested: groups that fit the pattern */
    double regular_share;   /* share of the steps that fit the label, 0..1;
                               random: the share no other label fits */
};

/* "none", "consecutive", "sequential", "strided", "nested-strided",
 * "random", "unknown". */
const char *iolens_pattern_name(enum iolens_pattern_kind kind);

/* Labels record rec of layer L.  Layers without detector counters (and
 * logs that predate them) give IOLENS_PATTERN_UNKNOWN. */
void iolens_pattern_of_record(const struct iolens_log_layer *L, uint64_t rec,
                              struct iolens_pattern *out);

/* The rules themselves, on the IOLENS_PAT_NCOUNTERS detector counters
 * pat[] (enum iolens_pat_counter order, log_format.h, from <L>_PAT_STEPS), the record's
 * reads + writes and its most common access size.  Parameters the ranks
 * of a shared record disagree on are IOLENS_PAT_MIXED. */
void iolens_pattern_classify(const int64_t *pat, int64_t accesses, int64_t access_size,
                             struct iolens_pattern *out);

/* Writes the label's parameters as "key=value" words separated by
 * spaces ("size=4096 stride=16384"), "mixed" for IOLENS_PAT_MIXED, "-"
 * for none and unknown. */
void iolens_pattern_print_params(FILE *out, const struct iolens_pattern *p);

#endif
