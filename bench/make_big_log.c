/*
 * Writes a large synthetic log for the parser benchmark (run-parser.sh):
 *
 *   make_big_log [--jobs N] OUTPUT RECORDS [RANKS]
 *
 * --jobs N writes N logs, OUTPUT.0 to OUTPUT.<N-1>, each of a job of its
 * own (for the database import benchmark, run-import.sh): log i has job
 * id "bench-<i>", pid i + 1, a start time 600 s after log i - 1's,
 * exe /bench/app<i % 4> and 4 ranks a node (RANKS / 4 nodes, rounded up);
 * the records are the same in every log.
 *
 * RECORDS POSIX records of files of their own, spread over RANKS ranks
 * (default 512: 10^6 records make some 2000 a rank, whose part fits the
 * runtime's default 2 MiB budget, as a real job's would), laid out as the
 * MPI writer lays a job out: per rank a names region and a POSIX region
 * for each IOLENS_REGION_RECORDS records.  The counters vary from record to
 * record like a real job's (sizes, offsets, times), so the regions do not
 * compress to nothing.  It goes through the runtime's own region encoder
 * and log writer, so the file is exactly what the runtime would write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log_format.h"
#include "log/log_regions.h"
#include "log/log_writer.h"
#include "format/record_merge.h"

static void die(const char *what)
{
    fprintf(stderr, "make_big_log: %s\n", what);
    exit(1);
}

static void put(struct iolens_buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (d == NULL)
            die("out of memory");
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u32(struct iolens_buf *b, uint32_t v) { put(b, &v, sizeof v); }

static void put_str(struct iolens_buf *b, const char *s, size_t len)
{
    put_u32(b, (uint32_t)len);
    put(b, s, len);
}

/* job -1: the single log's job; job i >= 0: log i of --jobs. */
static void build_job(struct iolens_buf *b, uint32_t ranks, long job)
{
    int64_t start = 1700000000 + 600 * (job < 0 ? 0 : job);
    struct iolens_job_fixed j = {
        .uid = 1000, .start_time_sec = start, .end_time_sec = start + 600,
        .run_time = 600.0, .nprocs = ranks, .nnodes = job < 0 ? 1 : (ranks + 3) / 4,
        .pid = job < 0 ? 1 : job + 1,
        .budget_bytes = 1ull << 30, .budget_used = 1ull << 29, .budget_needed = 1ull << 29,
        .string_count = IOLENS_JOB_NSTRINGS,
    };
    char jobid[32] = "1", exe[32] = "/bench/app";
    if (job >= 0) {
        snprintf(jobid, sizeof jobid, "bench-%ld", job);
        snprintf(exe, sizeof exe, "/bench/app%ld", job % 4);
    }
    put(b, &j, sizeof j);
    put_str(b, jobid, strlen(jobid));
    put_str(b, "bench", 5);
    put_str(b, exe, strlen(exe));
    put_str(b, "", 0);
    put_str(b, "node001", 7);
    put_str(b, "bench", 5);
    put_str(b, "", 0);
    put_str(b, exe, strlen(exe)); /* the executables: one */
}

static uint64_t record_id(long i) { return 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1); }

/* An explicit-id NAMES entry (log_format.h: length << 1 | 1, id, bytes). */
static void put_name(struct iolens_buf *b, long i, uint32_t rank)
{
    char name[128];
    int len = snprintf(name, sizeof name, "/scratch/project/run42/rank%05u/output.%07ld.dat",
                       rank, i);
    put_u32(b, (uint32_t)len << 1 | 1u);
    uint64_t id = record_id(i);
    put(b, &id, sizeof id);
    put(b, name, (size_t)len);
}

/* A record of 16..(16+i%64) writes of 4 KiB-ish, with times. */
static void fill_record(struct iolens_posix_record *r, long i, uint32_t rank)
{
    memset(r, 0, sizeof *r);
    r->id = record_id(i);
    r->rank = rank;
    int64_t writes = 16 + i % 64, size = 4096 + (i % 7) * 512;
    r->counters[POSIX_OPENS] = 1;
    r->counters[POSIX_WRITES] = writes;
    r->counters[POSIX_BYTES_WRITTEN] = writes * size;
    r->counters[POSIX_MAX_BYTE_WRITTEN] = writes * size - 1;
    r->counters[POSIX_MAX_BYTE_READ] = -1;
    r->counters[POSIX_MODE] = 0644;
    r->counters[POSIX_CONSEC_WRITES] = writes - 1;
    r->counters[POSIX_SEQ_WRITES] = writes - 1;
    r->counters[POSIX_SIZE_WRITE_1K_10K] = writes;
    r->counters[POSIX_ACCESS1_ACCESS] = size;
    r->counters[POSIX_ACCESS1_COUNT] = writes;
    r->counters[POSIX_STRIDE1_STRIDE] = size;
    r->counters[POSIX_STRIDE1_COUNT] = writes - 1;
    r->counters[POSIX_FILE_ALIGNMENT] = 4096;
    r->counters[POSIX_MEM_ALIGNMENT] = 8;
    r->counters[POSIX_FILE_NOT_ALIGNED] = (i % 7) ? writes - 1 : 0;
    r->counters[POSIX_MAX_WRITE_TIME_SIZE] = size;
    double t0 = (double)(i % 600000) / 1000.0;
    r->fcounters[POSIX_F_OPEN_START_TIMESTAMP] = t0;
    r->fcounters[POSIX_F_OPEN_END_TIMESTAMP] = t0 + 1e-5;
    r->fcounters[POSIX_F_WRITE_START_TIMESTAMP] = t0 + 2e-5;
    r->fcounters[POSIX_F_WRITE_END_TIMESTAMP] = t0 + 2e-5 + writes * 3e-6;
    r->fcounters[POSIX_F_CLOSE_START_TIMESTAMP] = t0 + 3e-5 + writes * 3e-6;
    r->fcounters[POSIX_F_CLOSE_END_TIMESTAMP] = t0 + 4e-5 + writes * 3e-6;
    r->fcounters[POSIX_F_WRITE_TIME] = writes * 3e-6;
    r->fcounters[POSIX_F_META_TIME] = 2e-5;
    r->fcounters[POSIX_F_MAX_WRITE_TIME] = 9e-6 + (double)(i % 13) * 1e-7;
    iolens_record_fill_own_sharing(iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), r);
}

/* Regions of a log being built, raw, with the buffers that own them. */
struct big_log {
    struct iolens_region_src *regions;
    struct iolens_buf *bufs;
    unsigned n;
};

/* A names region and a POSIX region for records first..last of rank. */
static void add_slice(struct big_log *log, struct iolens_posix_record *recs, long first, long last,
                      uint32_t rank)
{
    struct iolens_buf *names = &log->bufs[log->n], *layer = &log->bufs[log->n + 1];
    put_u32(names, (uint32_t)(last - first));
    for (long i = first; i < last; i++) {
        put_name(names, i, rank);
        fill_record(&recs[i - first], i, rank);
    }
    if (iolens_build_layer_region(layer, iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), recs,
                            (size_t)(last - first)) != 0)
        die("out of memory");
    log->regions[log->n++] =
        (struct iolens_region_src){IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, names->data, names->len};
    log->regions[log->n++] = (struct iolens_region_src){IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION,
                                                        layer->data, layer->len};
}

/* Writes one log of n records over the ranks, for job (build_job). */
static void write_log(const char *path, long n, uint32_t ranks, long job)
{
    const long slice = IOLENS_REGION_RECORDS;
    size_t slices = (size_t)ranks * (size_t)((n / ranks + 1 + slice - 1) / slice);
    struct big_log log = {calloc(1 + 2 * slices, sizeof *log.regions),
                          calloc(1 + 2 * slices, sizeof *log.bufs), 0};
    struct iolens_posix_record *recs = malloc((size_t)slice * sizeof *recs);
    if (log.regions == NULL || log.bufs == NULL || recs == NULL)
        die("out of memory");
    build_job(&log.bufs[0], ranks, job);
    log.regions[log.n++] = (struct iolens_region_src){IOLENS_REGION_JOB, IOLENS_JOB_VERSION,
                                                      log.bufs[0].data, log.bufs[0].len};
    for (uint32_t rank = 0; rank < ranks; rank++) {
        long first = n * rank / ranks, last = n * (rank + 1) / ranks;
        do {
            long end = last - first > slice ? first + slice : last;
            add_slice(&log, recs, first, end, rank);
            first = end;
        } while (first < last);
    }
    char err[256];
    if (iolens_log_write_file(path, 0, log.regions, log.n, err, sizeof err) != 0) {
        fprintf(stderr, "make_big_log: %s\n", err);
        exit(1);
    }
    for (unsigned i = 0; i < log.n; i++)
        iolens_buf_free(&log.bufs[i]);
    free(recs);
    free(log.bufs);
    free(log.regions);
}

int main(int argc, char **argv)
{
    long jobs = -1;
    if (argc > 2 && strcmp(argv[1], "--jobs") == 0) {
        jobs = atol(argv[2]);
        if (jobs < 1)
            die("--jobs takes a positive number of logs");
        argc -= 2;
        argv += 2;
    }
    if (argc != 3 && argc != 4)
        die("usage: make_big_log [--jobs N] OUTPUT RECORDS [RANKS]");
    long n = atol(argv[2]);
    uint32_t ranks = argc == 4 ? (uint32_t)atoi(argv[3]) : 512;
    if (n < 1 || ranks < 1 || ranks > 1u << 20)
        die("RECORDS and RANKS must be positive");
    if (jobs < 0) {
        write_log(argv[1], n, ranks, -1);
        return 0;
    }
    size_t size = strlen(argv[1]) + 32;
    char *path = malloc(size);
    if (path == NULL)
        die("out of memory");
    for (long job = 0; job < jobs; job++) {
        snprintf(path, size, "%s.%ld", argv[1], job);
        write_log(path, n, ranks, job);
    }
    free(path);
    return 0;
}
