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
 * counter, no call: run untraced).
 */
#include <errno.h>
#include <fcntl.h>
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
 * clock_gettime(CLOCK_MONOTONIC) elsewhere), read here directly: the
 * runtime reads it twice a traced call, so this is the floor under the
 * call figures on the machine at hand. */
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
};

static const struct op ops[] = {
    {"pwrite1", run_pwrite1},
    {"pwrite4k", run_pwrite4k},
    {"openclose", run_openclose},
    {"stat", run_stat},
    {"fwrite16", run_fwrite16},
    {"fprintf1", run_fprintf1},
    {"tsc", run_tsc},
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
static double batch_ns_per_call(const struct op *op, struct bench *b, long per_batch)
{
    double start = now_ns();
    op->run(b, per_batch);
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
        ns[i] = batch_ns_per_call(op, b, per_batch);
    return median(ns, BATCHES);
}

/* Traced and twin batches alternate (and swap which goes first), so that
 * whatever slows the machine down for a while hits both of a pair. */
static void paired_ns_per_call(const struct op *op, struct bench *traced, struct bench *twin,
                               long per_batch, double out[4])
{
    double t[PAIRS], u[PAIRS], d[PAIRS], r[PAIRS];
    op->run(traced, per_batch);
    reset_between_batches(traced);
    op->run(twin, per_batch);
    reset_between_batches(twin);
    for (int i = 0; i < PAIRS; i++) {
        if (i % 2 == 0) {
            t[i] = batch_ns_per_call(op, traced, per_batch);
            u[i] = batch_ns_per_call(op, twin, per_batch);
        } else {
            u[i] = batch_ns_per_call(op, twin, per_batch);
            t[i] = batch_ns_per_call(op, traced, per_batch);
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
                    "and the median paired ratio.\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5)
        usage();
    const struct op *op = find_op(argv[1]);
    char *end;
    long iterations = strtol(argv[2], &end, 10);
    if (!op || *end != '\0' || iterations < 2 * PAIRS)
        usage();

    static struct bench b, twin;
    setup(&b, argc >= 4 ? argv[3] : "/dev/shm");
    if (argc == 5) {
        double ns[4];
        setup(&twin, argv[4]);
        paired_ns_per_call(op, &b, &twin, iterations / (2 * PAIRS), ns);
        teardown(&twin);
        printf("%.1f %.1f %.1f %.4f\n", ns[0], ns[1], ns[2], ns[3]);
    } else {
        printf("%.1f\n", median_ns_per_call(op, &b, iterations / BATCHES));
    }
    teardown(&b);
    return 0;
}
