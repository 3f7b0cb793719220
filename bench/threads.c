/*
 * Thread-scaling micro-benchmark: the cost of a 1-byte pwrite when
 * several threads write at once.
 *
 *   threads NTHREADS CALLS DIR separate|shared [TWIN_DIR]
 *
 * Each of NTHREADS threads makes CALLS 1-byte pwrites, in BATCHES timed
 * batches after a warm-up batch, to its own file in DIR (separate) or all
 * to one file (shared).  Threads start together at a barrier.  Prints the
 * median over batches and threads of the nanoseconds per call.
 *
 * With TWIN_DIR, every batch on the DIR file is followed by one on a twin
 * file in TWIN_DIR (shared or separate alike), which run-threads.sh tells
 * the runtime not to trace; then three figures are printed: the medians
 * of the traced and of the twin batches, and the median of the per-pair
 * differences, the cost of tracing measured inside one process (steadier
 * than two processes compared on a busy machine).  A lock convoy would
 * show as a difference that grows with the threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 9
#define MAX_THREADS 64

struct worker {
    pthread_t thread;
    int fd, twin_fd;            /* twin_fd -1: no twin */
    long per_batch;
    int index;
    double ns[BATCHES], twin_ns[BATCHES], diff_ns[BATCHES];
};

static pthread_barrier_t start_line;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void write_batch(int fd, const struct worker *w)
{
    char byte = 'x';
    /* Each thread writes its own byte of a shared file, so the data is
     * well defined whichever mode runs. */
    for (long i = 0; i < w->per_batch; i++)
        if (pwrite(fd, &byte, 1, w->index) != 1) {
            perror("threads: pwrite");
            exit(1);
        }
}

static double timed_batch(int fd, const struct worker *w)
{
    double t0 = now_ns();
    write_batch(fd, w);
    return (now_ns() - t0) / (double)w->per_batch;
}

static void *run_worker(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(&start_line);
    write_batch(w->fd, w);   /* warm-up */
    if (w->twin_fd >= 0)
        write_batch(w->twin_fd, w);
    for (int b = 0; b < BATCHES; b++) {
        w->ns[b] = timed_batch(w->fd, w);
        if (w->twin_fd >= 0) {
            w->twin_ns[b] = timed_batch(w->twin_fd, w);
            w->diff_ns[b] = w->ns[b] - w->twin_ns[b];
        }
    }
    return NULL;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the BATCHES figures of every thread (field: offset into
 * struct worker of one of its arrays). */
static double median_over(const struct worker *w, int n, size_t field)
{
    static double all[MAX_THREADS * BATCHES];
    for (int i = 0; i < n; i++)
        memcpy(all + i * BATCHES, (const char *)&w[i] + field, BATCHES * sizeof(double));
    qsort(all, (size_t)n * BATCHES, sizeof all[0], compare_double);
    return all[n * BATCHES / 2];
}

static int open_scratch(const char *dir, int index)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/threads-%d", dir, index);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
    if (fd < 0) {
        fprintf(stderr, "threads: open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return fd;
}

/* The twin files (TWIN_DIR): one shared, or one per thread. */
static int twin_of(const char *twin_dir, int shared, int index, int *shared_twin)
{
    if (twin_dir == NULL)
        return -1;
    if (!shared)
        return open_scratch(twin_dir, index);
    if (*shared_twin < 0)
        *shared_twin = open_scratch(twin_dir, 0);
    return *shared_twin;
}

int main(int argc, char **argv)
{
    if ((argc != 5 && argc != 6) ||
        (strcmp(argv[4], "separate") != 0 && strcmp(argv[4], "shared") != 0)) {
        fprintf(stderr, "usage: threads NTHREADS CALLS DIR separate|shared [TWIN_DIR]\n");
        return 1;
    }
    int n = atoi(argv[1]);
    long calls = atol(argv[2]);
    int shared = strcmp(argv[4], "shared") == 0;
    const char *twin_dir = argc == 6 ? argv[5] : NULL;
    if (n < 1 || n > MAX_THREADS || calls < BATCHES + 1) {
        fprintf(stderr, "threads: 1..%d threads and at least %d calls\n", MAX_THREADS, BATCHES + 1);
        return 1;
    }
    static struct worker w[MAX_THREADS];
    int shared_fd = shared ? open_scratch(argv[3], 0) : -1, shared_twin = -1;
    pthread_barrier_init(&start_line, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) {
        w[i] = (struct worker){.fd = shared ? shared_fd : open_scratch(argv[3], i),
                               .twin_fd = twin_of(twin_dir, shared, i, &shared_twin),
                               .per_batch = calls / (BATCHES + 1), .index = i};
        pthread_create(&w[i].thread, NULL, run_worker, &w[i]);
    }
    for (int i = 0; i < n; i++) {
        pthread_join(w[i].thread, NULL);
        if (!shared) {
            close(w[i].fd);
            if (w[i].twin_fd >= 0)
                close(w[i].twin_fd);
        }
    }
    if (shared) {
        close(shared_fd);
        if (shared_twin >= 0)
            close(shared_twin);
    }
    printf("%.1f", median_over(w, n, offsetof(struct worker, ns)));
    if (twin_dir != NULL)
        printf(" %.1f %.1f", median_over(w, n, offsetof(struct worker, twin_ns)),
               median_over(w, n, offsetof(struct worker, diff_ns)));
    putchar('\n');
    return 0;
}
