/* Job-level file-sharing class, judged by the data moved (the Intrepid
 * study's categories).  Rules in iolens-parser(1). */
#ifndef IOLENS_SHARING_H
#define IOLENS_SHARING_H

#include <stdint.h>

#include "reader.h"

enum iolens_sharing_class {
    IOLENS_SHARING_NONE,     /* no data moved */
    IOLENS_SHARING_N_N,      /* file per process */
    IOLENS_SHARING_N_1,      /* one file shared by all ranks */
    IOLENS_SHARING_N_M,      /* files shared by subsets of the ranks */
    IOLENS_SHARING_RANK0,    /* one rank moved at least 90% of the data */
};

/* "none", "N:N", "N:1", "N:M", "rank-0". */
const char *iolens_sharing_name(enum iolens_sharing_class c);

struct iolens_sharing {
    enum iolens_sharing_class cls;
    int64_t nprocs;
    int64_t bytes;            /* data moved at the POSIX layer (or the lowest layer with data) */
    int64_t top_rank;         /* rank that moved the most data, -1 if none */
    double top_rank_share;    /* its share of bytes, 0..1 */
};

/* Classifies the job; 0, or -1 out of memory. */
int iolens_sharing_of_job(const struct iolens_log *log, struct iolens_sharing *out);

#endif
