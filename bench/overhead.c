/*
 * Overhead micro-benchmark: the cost of one intercepted call.
 *
 *   overhead OP ITERATIONS [DIR [TWIN_DIR]]
 *
 * Runs ITERATIONS calls of OP on a scratch file in DIR (default /dev/shm,
 * a memory file system, so the figure is the call cost and not the disk),
 * split into BATCHES timed batches after one untimed warm-up batch, and
 * prints the median nanoseconds per call.  run-overhead.sh runs it with and
 * without the iolens runtime preloaded; the difference is what iolens adds.
 *
 * With TWIN_DIR, a second scratch file is made there, one the runtime is
 * told not to trace (run-overhead.sh traces DIR only), and PAIRS batches
 * on each of the two files alternate in the same process (the iterations
 * are split between them).  Then four figures are printed: the traced
 * file's median, the twin's median, the median of the per-pair
 * differences and the median of the per-pair ratios (traced over twin).
 * The difference is what tracing adds to a call over an untraced call
 * through the same wrappers; measured inside one process, pair by pair,
 * it is far less noisy than a comparison of two processes, which on a
 * shared machine differ by more than the effect measured.  The ratio is
 * taken pair by pair for the same reason: the two medians' quotient would
 * divide batches timed at different moments.
 *
 * Ops: pwrite1 (1-byte pwrite), pwrite4k (4 KiB pwrite), openclose
 * (open + close), stat, fwrite16 (16-byte fwrite to a FILE*), fprintf1
 * (a 1-character fprintf), tsc (one reading of the runtime's clock
 * counter, no call: run untraced), floor1, floor4k, floorfw16 and
 * floorfp1 (see below).
 *
 * floor1, floor4k, floorfw16 and floorfp1, run untraced and without
 * TWIN_DIR, measure what any tool that times a call must add to a 1-byte
 * and a 4 KiB pwrite, a 16-byte fwrite and a 1-character fprintf on this
 * machine: batches through a bare timing wrapper (read the clock counter,
 * call the function through a pointer, read the counter again, keep both
 * readings) alternate with batches through a pass-through wrapper (a tail
 * call through the same pointer, as an untraced call goes; for fprintf,
 * whose arguments cannot be passed on by a tail call, a call of vfprintf
 * as iolens's own fprintf makes untraced), and the four figures of the
 * paired mode are printed, the wrapper's batches in the traced column.
 * The difference is the floor under the op's figure: the two readings,
 * and the return into the wrapper after the call, which the pass-through
 * does not make.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 9
/* The paired mode uses more, shorter batches: a neighbour's load comes
 * and goes on a scale of milliseconds, and the median of many short pairs
 * shrugs it off. */
#define PAIRS 31

struct bench {
    char path[4096];
    int fd;          /* open read-write on path (pwrite ops) */
    FILE *stream;    /* open for writing on path (fwrite16, fprintf1) */
    char buf[4096];
};

typedef void (*op_fn)(struct bench *b, long calls);

static void die(const char *what, const char *path)
{
    fprintf(stderr, "overhead: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* One reading of the counter the runtime times calls with (lib/core/
 * clock.h: the time-stamp counter on x86_64, CNTVCT_EL0 on aarch64,
 * clock_gettime(CLOCK_MONOTONIC) elsewhere), read here directly.  The
 * runtime reads it twice a traced call.  In a loop of readings alone
 * (op tsc) each waits for the one before; around a system call much of
 * that time is hidden, so twice the tsc figure is not what the readings
 * add to a call: the floor ops measure that. */
static volatile uint64_t counter_sink;

static inline uint64_t read_counter(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_nsec;
#endif
}

static void run_tsc(struct bench *b, long calls)
{
    (void)b;
    for (long i = 0; i < calls; i++)
        counter_sink = read_counter();
}

/* The bare timing wrapper and the pass-through of floor1 and floor4k.
 * The pointer is read at each call, as the runtime reads the address of
 * the next definition; noinline, so that each is a call of its own. */
static ssize_t (*volatile next_pwrite)(int, const void *, size_t, off_t) = pwrite;
static volatile uint64_t floor_t0, floor_t1;

static __attribute__((noinline)) ssize_t timed_pwrite(int fd, const void *buf, size_t count,
                                                      off_t offset)
{
    uint64_t t0 = read_counter();
    ssize_t ret = next_pwrite(fd, buf, count, offset);
    uint64_t t1 = read_counter();
    floor_t0 = t0;
    floor_t1 = t1;
    return ret;
}

static __attribute__((noinline)) ssize_t passed_pwrite(int fd, const void *buf, size_t count,
                                                       off_t offset)
{
    return next_pwrite(fd, buf, count, offset);
}

static void pwrite_through(ssize_t (*wrapper)(int, const void *, size_t, off_t),
                           struct bench *b, size_t count, long calls)
{
    for (long i = 0; i < calls; i++)
        if (wrapper(b->fd, b->buf, count, 0) != (ssize_t)count)
            die("pwrite", b->path);
}

static void run_floor1(struct bench *b, long calls)
{
    pwrite_through(timed_pwrite, b, 1, calls);
}

static void pass_floor1(struct bench *b, long calls)
{
    pwrite_through(passed_pwrite, b, 1, calls);
}

static void run_floor4k(struct bench *b, long calls)
{
    pwrite_through(timed_pwrite, b, sizeof b->buf, calls);
}

static void pass_floor4k(struct bench *b, long calls)
{
    pwrite_through(passed_pwrite, b, sizeof b->buf, calls);
}

/* The same pair for fwrite and fprintf (floorfw16, floorfp1). */
static size_t (*volatile next_fwrite)(const void *, size_t, size_t, FILE *) = fwrite;
static int (*volatile next_vfprintf)(FILE *, const char *, va_list) = vfprintf;

static __attribute__((noinline)) size_t timed_fwrite(const void *p, size_t size, size_t n,
                                                     FILE *f)
{
    uint64_t t0 = read_counter();
    size_t ret = next_fwrite(p, size, n, f);
    uint64_t t1 = read_counter();
    floor_t0 = t0;
    floor_t1 = t1;
    return ret;
}

static __attribute__((noinline)) size_t passed_fwrite(const void *p, size_t size, size_t n,
                                                      FILE *f)
{
    return next_fwrite(p, size, n, f);
}

static __attribute__((noinline)) int timed_fprintf(FILE *f, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    uint64_t t0 = read_counter();
    int ret = next_vfprintf(f, format, ap);
    uint64_t t1 = read_counter();
    va_end(ap);
    floor_t0 = t0;
    floor_t1 = t1;
    return ret;
}

static __attribute__((noinline)) int passed_fprintf(FILE *f, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int ret = next_vfprintf(f, format, ap);
    va_end(ap);
    return ret;
}

static void fwrite_through(size_t (*wrapper)(const void *, size_t, size_t, FILE *),
                           struct bench *b, long calls)
{
    for (long i = 0; i < calls; i++)
        if (wrapper(b->buf, 16, 1, b->stream) != 1)
            die("fwrite", b->path);
}

static void fprintf_through(int (*wrapper)(FILE *, const char *, ...), struct bench *b,
                            long calls)
{
    for (long i = 0; i < calls; i++)
        if (wrapper(b->stream, "%c", 'x') != 1)
            die("fprintf", b->path);
}

static void run_floorfw16(struct bench *b, long calls)
{
    fwrite_through(timed_fwrite, b, calls);
}

static void pass_floorfw16(struct bench *b, long calls)
{
    fwrite_through(passed_fwrite, b, calls);
}

static void run_floorfp1(struct bench *b, long calls)
{
    fprintf_through(timed_fprintf, b, calls);
}

static void pass_floorfp1(struct bench *b, long calls)
{
    fprintf_through(passed_fprintf, b, calls);
}

static void run_pwrite1(struct bench *b, long calls)
{
    for (long i = 0; i < calls; i++)
        if (pwrite(b->fd, b->buf, 1, 0) != 1)
            die("pwrite", b->path);
}

static void run_pwrite4k(struct bench *b, long calls)
{
    for (long i = 0; i < calls; i++)
        if (pwrite(b->fd, b->buf, sizeof b->buf, 0) != (ssize_t)sizeof b->buf)
            die("pwrite", b->path);
}

static void run_openclose(struct bench *b, long calls)
{
    for (long i = 0; i < calls; i++) {
        int fd = open(b->path, O_RDONLY);
        if (fd < 0)
            die("open", b->path);
        close(fd);
    }
}

static void run_stat(struct bench *b, long calls)
{
    struct stat st;
    for (long i = 0; i < calls; i++)
        if (stat(b->path, &st) != 0)
            die("stat", b->path);
}

/* Plain fwrite calls: the stream's own buffer flushes (one write(2) per
 * 256 calls) are part of the cost; no explicit fflush is timed. */
static void run_fwrite16(struct bench *b, long calls)
{
    for (long i = 0; i < calls; i++)
        if (fwrite(b->buf, 16, 1, b->stream) != 1)
            die("fwrite", b->path);
}

static void run_fprintf1(struct bench *b, long calls)
{
    for (long i = 0; i < calls; i++)
        if (fprintf(b->stream, "%c", 'x') != 1)
            die("fprintf", b->path);
}

struct op {
    const char *name;
    op_fn run;
    op_fn pass; /* floor ops: the pass-through the run is paired with */
};

static const struct op ops[] = {
    {"pwrite1", run_pwrite1, NULL},
    {"pwrite4k", run_pwrite4k, NULL},
    {"openclose", run_openclose, NULL},
    {"stat", run_stat, NULL},
    {"fwrite16", run_fwrite16, NULL},
    {"fprintf1", run_fprintf1, NULL},
    {"tsc", run_tsc, NULL},
    {"floor1", run_floor1, pass_floor1},
    {"floor4k", run_floor4k, pass_floor4k},
    {"floorfw16", run_floorfw16, pass_floorfw16},
    {"floorfp1", run_floorfp1, pass_floorfp1},
};

static const struct op *find_op(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

/* The file is created with open(2) and reopened through the traced calls,
 * so that the runtime knows the descriptor and the stream. */
static void setup(struct bench *b, const char *dir)
{
    snprintf(b->path, sizeof b->path, "%s/iolens-overhead-%ld.dat", dir, (long)getpid());
    memset(b->buf, 'x', sizeof b->buf);
    b->fd = open(b->path, O_CREAT | O_TRUNC | O_RDWR, 0600);
    if (b->fd < 0)
        die("open", b->path);
    if (pwrite(b->fd, b->buf, sizeof b->buf, 0) != (ssize_t)sizeof b->buf)
        die("pwrite", b->path);
    b->stream = fopen(b->path, "r+");
    if (!b->stream)
        die("fopen", b->path);
}

static void teardown(struct bench *b)
{
    fclose(b->stream);
    close(b->fd);
    unlink(b->path);
}

/* Between batches, untimed: keeps the fwrite file from growing without end. */
static void reset_between_batches(struct bench *b)
{
    if (fflush(b->stream) != 0)
        die("fflush", b->path);
    rewind(b->stream);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], compare_double);
    return v[n / 2];
}

/* One timed batch: ns per call; the reset after it is not timed. */
static double batch_ns_per_call(op_fn run, struct bench *b, long per_batch)
{
    double start = now_ns();
    run(b, per_batch);
    double ns = (now_ns() - start) / (double)per_batch;
    reset_between_batches(b);
    return ns;
}

static double median_ns_per_call(const struct op *op, struct bench *b, long per_batch)
{
    double ns[BATCHES];
    op->run(b, per_batch); /* warm-up: page cache, lazy binding, runtime init */
    reset_between_batches(b);
    for (int i = 0; i < BATCHES; i++)
        ns[i] = batch_ns_per_call(op->run, b, per_batch);
    return median(ns, BATCHES);
}

/* Traced and twin batches alternate (and swap which goes first), so that
 * whatever slows the machine down for a while hits both of a pair.  The
 * twin runs twin_run: the same op on the twin file, or a floor op's
 * pass-through on the same file. */
static void paired_ns_per_call(op_fn run, struct bench *traced, op_fn twin_run,
                               struct bench *twin, long per_batch, double out[4])
{
    double t[PAIRS], u[PAIRS], d[PAIRS], r[PAIRS];
    run(traced, per_batch);
    reset_between_batches(traced);
    twin_run(twin, per_batch);
    reset_between_batches(twin);
    for (int i = 0; i < PAIRS; i++) {
        if (i % 2 == 0) {
            t[i] = batch_ns_per_call(run, traced, per_batch);
            u[i] = batch_ns_per_call(twin_run, twin, per_batch);
        } else {
            u[i] = batch_ns_per_call(twin_run, twin, per_batch);
            t[i] = batch_ns_per_call(run, traced, per_batch);
        }
        d[i] = t[i] - u[i];
        r[i] = u[i] > 0 ? t[i] / u[i] : 0;
    }
    out[0] = median(t, PAIRS);
    out[1] = median(u, PAIRS);
    out[2] = median(d, PAIRS);
    out[3] = median(r, PAIRS);
}

static void usage(void)
{
    fprintf(stderr, "usage: overhead OP ITERATIONS [DIR [TWIN_DIR]]\nOP:");
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        fprintf(stderr, " %s", ops[i].name);
    fprintf(stderr, "\nprints the median ns per call; DIR defaults to /dev/shm.\n"
                    "With TWIN_DIR (a directory iolens does not trace) prints the\n"
                    "traced median, the twin's median, the median paired difference\n"
                    "and the median paired ratio.  floor1, floor4k, floorfw16 and\n"
                    "floorfp1 (untraced, no TWIN_DIR) print the same four: a bare\n"
                    "timing wrapper's batches against a pass-through's.\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5)
        usage();
    const struct op *op = find_op(argv[1]);
    char *end;
    long iterations = strtol(argv[2], &end, 10);
    if (!op || *end != '\0' || iterations < 2 * PAIRS || (op->pass != NULL && argc == 5))
        usage();

    static struct bench b, twin;
    setup(&b, argc >= 4 ? argv[3] : "/dev/shm");
    if (op->pass != NULL || argc == 5) {
        double ns[4];
        if (op->pass != NULL) {
            paired_ns_per_call(op->run, &b, op->pass, &b, iterations / (2 * PAIRS), ns);
        } else {
            setup(&twin, argv[4]);
            paired_ns_per_call(op->run, &b, op->run, &twin, iterations / (2 * PAIRS), ns);
            teardown(&twin);
        }
        printf("%.1f %.1f %.1f %.4f\n", ns[0], ns[1], ns[2], ns[3]);
    } else {
        printf("%.1f\n", median_ns_per_call(op, &b, iterations / BATCHES));
    }
    teardown(&b);
    return 0;
}
