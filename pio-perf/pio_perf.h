/* iolens-pio-perf: a parallel I/O benchmark modelled on HDF5's pio_perf and
 * the pio-bench suite (man iolens-pio-perf(1)).  Shared declarations of its
 * parts: options.c, pattern.c, buffer.c, api_*.c, timing.c, phase.c,
 * report.c, main.c. */
#ifndef IOLENS_PIO_PERF_H
#define IOLENS_PIO_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

#define PIO_PROG "iolens-pio-perf"
#define PIO_ELMT_SIZE 4u            /* elements are native ints, as in the classic tool */
#define PIO_MIB (1024.0 * 1024.0)   /* "MB" in the reports: 2^20 bytes */

enum pio_api { PIO_POSIX = 0, PIO_MPIIO = 1, PIO_PHDF5 = 2, PIO_NAPIS = 3 };
enum pio_op { PIO_WRITE = 0, PIO_READ = 1 };
enum pio_pattern_kind { PIO_CONTIGUOUS, PIO_STRIDED, PIO_NESTED };

struct pio_options {
    uint64_t num_dsets;        /* -d */
    uint64_t file_size;        /* -f: bytes accessed per file */
    uint64_t num_files;        /* -F */
    uint64_t iterations;       /* -i */
    uint64_t min_procs, max_procs;  /* -p, -P */
    uint64_t min_xfer, max_xfer;    /* -x, -X */
    unsigned apis;             /* bit (1 << enum pio_api); 0: all available */
    const char *output;        /* -o: raw results, or NULL */
    const char *dir;           /* --dir: data files */
    bool keep, verify, json;
    enum pio_pattern_kind pattern;
    uint64_t block, stride, nest_count, nest_stride;  /* 0: default */
};

/* Parses argv into o.  Returns 0, or 1 after printing the problem and the
 * usage (to stderr) for a bad option, or -1 after printing the usage (to
 * stdout) for --help; prints nothing unless verbose. */
int pio_parse_options(int argc, char **argv, struct pio_options *o, bool verbose);
void pio_usage(FILE *f);
/* A size: digits with an optional K, M or G (binary); 0 on success. */
int pio_parse_size(const char *s, uint64_t *out);
/* Checks the combinations of -p/-P/-x/-X with the pattern; prints the
 * problem and returns -1, or 0. */
int pio_check_cases(const struct pio_options *o, int world_size);

/* ----------------------------------------------------------- pattern -- */

/* The offsets (in bytes, within one dataset region) of one rank's
 * transfers, for one (process count, transfer size) case. */
struct pio_pattern {
    enum pio_pattern_kind kind;
    uint64_t xfer;             /* bytes per transfer */
    uint64_t share;            /* bytes of one rank per dataset */
    uint64_t block, stride, nest_count, nest_stride;  /* defaults resolved */
    uint64_t nprocs;
    int rank;
};

void pio_pattern_init(struct pio_pattern *p, const struct pio_options *o, uint64_t nprocs,
                      int rank, uint64_t xfer);
uint64_t pio_pattern_transfers(const struct pio_pattern *p);
uint64_t pio_pattern_offset(const struct pio_pattern *p, uint64_t i);
/* Bytes a dataset region spans (holes included). */
uint64_t pio_pattern_extent(const struct pio_pattern *p);
const char *pio_pattern_name(enum pio_pattern_kind k);

/* ------------------------------------------------------------ buffer -- */

/* The transfer buffer: every 8-byte word holds a value derived from its
 * absolute position (file, offset), so a read that lands elsewhere fails
 * the check.  Filling and checking are done outside the timed accesses
 * (see phase.c). */
void pio_fill(unsigned char *buf, uint64_t len, uint64_t file, uint64_t offset);
/* The offset of the first bad byte within buf, or -1 if all are right. */
int64_t pio_check(const unsigned char *buf, uint64_t len, uint64_t file, uint64_t offset);

/* --------------------------------------------------------------- APIs -- */

/* One file of one API.  Errors are fatal (pio_fail). */
struct pio_file;
struct pio_api_ops {
    const char *name;          /* RAW, MPIO, PHDF5 */
    const char *key;           /* posix, mpiio, phdf5 (JSON, file names) */
    struct pio_file *(*open)(const char *path, enum pio_op op, MPI_Comm comm,
                             uint64_t ndsets, uint64_t dset_bytes);
    /* dset: dataset index; offset: bytes within the dataset. */
    void (*write)(struct pio_file *f, uint64_t dset, uint64_t offset, const void *buf,
                  uint64_t len);
    void (*read)(struct pio_file *f, uint64_t dset, uint64_t offset, void *buf, uint64_t len);
    void (*close)(struct pio_file *f);
};

extern const struct pio_api_ops pio_posix_ops, pio_mpiio_ops;
#ifdef IOLENS_HAVE_HDF5
extern const struct pio_api_ops pio_phdf5_ops;
#endif
/* The ops of api, or NULL when this build lacks it. */
const struct pio_api_ops *pio_api(enum pio_api api);

/* Prints "iolens-pio-perf: CALL: detail" to stderr and aborts the job
 * with status 2. */
_Noreturn void pio_fail(const char *call, const char *detail);

/* ------------------------------------------------------------ timing -- */

double pio_now(void);   /* seconds, CLOCK_MONOTONIC */

/* One rank's times of one phase (one iteration). */
struct pio_rank_times {
    double open, close;        /* duration of opening / closing every file */
    double barrier_end;        /* end of the barrier before the accesses */
    double first, last;        /* start of the first access, end of the last */
    double closing_end;        /* end of the barrier after them */
};

/* Figures of one phase over all ranks and iterations. */
struct pio_stats {
    double min, max, sum;      /* per-rank T (first access to end of last) */
    double open_min, open_max, open_sum;
    double close_min, close_max, close_sum;
    double s_sum, t_sum, b_sum;     /* per rank, summed over ranks and iterations */
    double stb_max_sum;        /* per iteration, the largest S+T+B, summed */
    double t_all_sum;          /* per iteration, first access of any rank to end
                                * of the last access of any rank, summed */
    uint64_t samples;          /* ranks x iterations */
    uint64_t iterations;
};

void pio_stats_init(struct pio_stats *s);
/* Gathers the ranks' times of one iteration on rank 0 of comm into all
 * (room for every rank of comm; rank 0 only) and adds them to s
 * (collective). */
void pio_stats_add(struct pio_stats *s, const struct pio_rank_times *t, MPI_Comm comm,
                   struct pio_rank_times *all);

/* ------------------------------------------------------------ phases -- */

struct pio_case {
    const struct pio_options *opts;
    const struct pio_api_ops *api;
    uint64_t nprocs, xfer;
    MPI_Comm comm;             /* the first nprocs ranks */
    int rank;
    char **paths;              /* num_files */
};

/* The transfer buffers of one rank: slots of xfer bytes, transfer g uses
 * slot g % slots.  While a rank's phase fits in the ring (at most
 * PIO_RING_MAX bytes), its data are made before the first access and
 * checked after the last, so nothing but the accesses happens between
 * them; a larger phase refills or checks a slot just before reusing it. */
#define PIO_RING_MAX ((uint64_t)256 << 20)
struct pio_ring {
    unsigned char *buf;
    uint64_t slots;
};

/* Transfers of one rank in one phase (all files and datasets). */
uint64_t pio_case_transfers(const struct pio_case *c);
/* Runs one phase of one iteration on this rank and returns its times. */
void pio_run_phase(const struct pio_case *c, enum pio_op op, struct pio_ring *ring,
                   struct pio_rank_times *t);

/* ------------------------------------------------------------ report -- */

struct pio_result {
    const struct pio_case *c;
    enum pio_op op;
    uint64_t bytes;            /* per iteration, all ranks */
    struct pio_stats st;
};

void pio_report_case_header(FILE *f, const struct pio_options *o, uint64_t nprocs,
                            uint64_t xfer);
void pio_report_text(FILE *f, const struct pio_result *r);
void pio_report_json(FILE *f, const struct pio_result *r);
/* One line per rank: the raw times of one iteration (-o). */
void pio_report_raw(FILE *f, const struct pio_case *c, enum pio_op op, uint64_t iter,
                    const struct pio_rank_times *all);

#endif
