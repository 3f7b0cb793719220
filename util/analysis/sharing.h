/* Job-level file-sharing class, judged by the data moved (the Intrepid
 * study's categories).  Rules in iolens-parser(1). */
#ifndef IOLENS_SHARING_H
#define IOLENS_SHARING_H

#include <stdint.h>

#include "reader/reader.h"

enum iolens_sharing_class {
    IOLENS_SHARING_NONE,     /* no data moved */
    IOLENS_SHARING_N_N,      /* file per process */
    IOLENS_SHARING_N_1,      /* one file shared by all ranks */
    IOLENS_SHARING_N_M,      /* files shared by subsets of the ranks */
    IOLENS_SHARING_RANK0,    /* one rank moved at least 90% of the data */
};

/* "none", "N:N", "N:1", "N:M", "rank-0". */
const char *iolens_sharing_name(enum iolens_sharing_class c);

/* A job where one rank moved at least this share of the bytes is rank-0. */
#define IOLENS_SHARING_RANK0_SHARE 0.9

struct iolens_sharing {
    enum iolens_sharing_class cls;
    int64_t nprocs;
    int64_t bytes;            /* data moved at the POSIX layer (or the lowest layer with data) */
    int64_t top_rank;         /* rank that moved the most data, -1 if none */
    double top_rank_share;    /* its share of bytes, 0..1 (a lower bound: sharing.c) */
    uint32_t layer;           /* region kind judged on, 0 if none moved data */
    int64_t bytes_unique;     /* bytes in files one rank read or wrote */
    int64_t bytes_all;        /* ... that every rank of a multi-rank job did */
    int64_t bytes_subset;     /* ... that more than one rank but not all did */
};

/* Classifies the job; 0, or -1 out of memory. */
int iolens_sharing_of_job(const struct iolens_log *log, struct iolens_sharing *out);

/* How one file record is shared, by the ranks that opened it: a per-rank
 * record is its rank's own (the runtime reduces every file opened by
 * more than one rank into one record of rank IOLENS_RANK_ALL); a reduced
 * record is shared when all the job's ranks opened it, partshared when
 * some did. */
enum iolens_file_sharing {
    IOLENS_FILE_UNIQUE,
    IOLENS_FILE_PARTSHARED,
    IOLENS_FILE_SHARED,
};

/* "unique", "partshared", "shared". */
const char *iolens_file_sharing_name(enum iolens_file_sharing s);

struct iolens_file_share {
    enum iolens_file_sharing kind;
    int64_t nranks;           /* ranks that opened the file (1 for a per-rank record) */
    int64_t nranks_io;        /* ranks that read or wrote it */
};

void iolens_file_sharing_of_record(const struct iolens_log *log, const struct iolens_log_layer *L,
                                   uint64_t rec, struct iolens_file_share *out);

#endif
