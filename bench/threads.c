/*
 * Thread-scaling micro-benchmark: the cost of a 1-byte pwrite when
 * several threads write at once.
 *
 *   threads NTHREADS CALLS DIR separate|shared
 *
 * Each of NTHREADS threads makes CALLS 1-byte pwrites, in BATCHES timed
 * batches after a warm-up batch, to its own file in DIR (separate) or all
 * to one file (shared).  Threads start together at a barrier.  Prints the
 * median over batches and threads of the nanoseconds per call.
 * run-threads.sh runs it with and without the iolens runtime: a lock
 * convoy would show as an added cost per call that grows with the threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 9
#define MAX_THREADS 64

struct worker {
    pthread_t thread;
    int fd;
    long per_batch;
    int index;
    double ns[BATCHES];
};

static pthread_barrier_t start_line;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void write_batch(const struct worker *w)
{
    char byte = 'x';
    /* Each thread writes its own byte of a shared file, so the data is
     * well defined whichever mode runs. */
    for (long i = 0; i < w->per_batch; i++)
        if (pwrite(w->fd, &byte, 1, w->index) != 1) {
            perror("threads: pwrite");
            exit(1);
        }
}

static void *run_worker(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(&start_line);
    write_batch(w);   /* warm-up */
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        write_batch(w);
        w->ns[b] = (now_ns() - t0) / (double)w->per_batch;
    }
    return NULL;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[4], "separate") != 0 && strcmp(argv[4], "shared") != 0)) {
        fprintf(stderr, "usage: threads NTHREADS CALLS DIR separate|shared\n");
        return 1;
    }
    int n = atoi(argv[1]);
    long calls = atol(argv[2]);
    int shared = strcmp(argv[4], "shared") == 0;
    if (n < 1 || n > MAX_THREADS || calls < BATCHES + 1) {
        fprintf(stderr, "threads: 1..%d threads and at least %d calls\n", MAX_THREADS, BATCHES + 1);
        return 1;
    }
    static struct worker w[MAX_THREADS];
    int shared_fd = shared ? open_scratch(argv[3], 0) : -1;
    pthread_barrier_init(&start_line, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) {
        w[i] = (struct worker){.fd = shared ? shared_fd : open_scratch(argv[3], i),
                               .per_batch = calls / (BATCHES + 1), .index = i};
        pthread_create(&w[i].thread, NULL, run_worker, &w[i]);
    }
    double all[MAX_THREADS * BATCHES];
    for (int i = 0; i < n; i++) {
        pthread_join(w[i].thread, NULL);
        memcpy(all + i * BATCHES, w[i].ns, sizeof w[i].ns);
        if (!shared)
            close(w[i].fd);
    }
    if (shared)
        close(shared_fd);
    qsort(all, (size_t)n * BATCHES, sizeof all[0], compare_double);
    printf("%.1f\n", all[n * BATCHES / 2]);
    return 0;
}
