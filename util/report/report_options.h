/* What the command line's options set for the reports (iolens-parser's
 * --block-size, --bin and --advice-thresholds): the values, their
 * defaults, and reading the numbers from text (report_options.c). */
#ifndef IOLENS_REPORT_OPTIONS_H
#define IOLENS_REPORT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/advice.h"

struct iolens_report_options {
    uint64_t block_size;                     /* --bps, --json, --summary */
    double bin;                              /* --timeseries, in seconds */
    struct iolens_advice_thresholds advice;  /* --advice, --json */
    const char *debug_dir;                   /* --sites, --advice: separate debug files, or NULL */
};

/* Blocks of 512 bytes, bins of 1 second, the advice rules' own thresholds. */
void iolens_report_options_defaults(struct iolens_report_options *o);

/* A block size: a whole number of bytes from 1 to 2^40.  A bin: a finite
 * number of seconds of at least 1e-9 (times are in nanoseconds).  Each
 * returns false, leaving *out alone, for anything else. */
bool iolens_parse_block_size(const char *s, uint64_t *out);
bool iolens_parse_bin(const char *s, double *out);

#endif
