/* N threads (1..MAX_THREADS, 4 unless a third argument says otherwise) do
 * I/O at once (test_threads.sh).  A barrier starts them together; each
 * thread t makes:
 *   - NOPS pwrite()s of 1 KiB to its own region of SHARED, through one
 *     descriptor opened by main;
 *   - NOPS write()s of 100 bytes to SHARED.seq through one descriptor
 *     opened by main, so the threads advance one shared offset;
 *   - NOPS write()s of 512 bytes to PREFIX.<t>, a file of its own;
 *   - NZERO 0-byte pread()s of SHARED: cheap calls, so the threads update
 *     SHARED's counters at a high rate.
 * Every total is exact. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 8
#define NOPS 2000
#define NZERO 20000
#define SHARED_SIZE 1024
#define SEQ_SIZE 100
#define OWN_SIZE 512

static int shared_fd, seq_fd;
static const char *prefix;
static pthread_barrier_t start;
static char buf[SHARED_SIZE];

static void *worker(void *arg)
{
    long t = (long)arg;
    char path[4096];
    snprintf(path, sizeof path, "%s.%ld", prefix, t);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return (void *)1;
    pthread_barrier_wait(&start);
    for (long i = 0; i < NOPS; i++) {
        off_t off = (off_t)(t * NOPS + i) * SHARED_SIZE;
        if (pwrite(shared_fd, buf, SHARED_SIZE, off) != SHARED_SIZE ||
            write(seq_fd, buf, SEQ_SIZE) != SEQ_SIZE || write(fd, buf, OWN_SIZE) != OWN_SIZE)
            return (void *)1;
    }
    for (long i = 0; i < NZERO; i++)
        if (pread(shared_fd, buf, 0, 0) != 0)
            return (void *)1;
    return close(fd) == 0 ? NULL : (void *)1;
}

int main(int argc, char **argv)
{
    int nthreads = argc == 4 ? atoi(argv[3]) : 4;
    if ((argc != 3 && argc != 4) || nthreads < 1 || nthreads > MAX_THREADS) {
        fprintf(stderr, "usage: %s SHARED PREFIX [THREADS]\n", argv[0]);
        return 2;
    }
    prefix = argv[2];
    memset(buf, 't', sizeof buf);
    char seq_path[4096];
    snprintf(seq_path, sizeof seq_path, "%s.seq", argv[1]);
    shared_fd = open(argv[1], O_CREAT | O_RDWR | O_TRUNC, 0644);
    seq_fd = open(seq_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (shared_fd < 0 || seq_fd < 0) {
        perror("open");
        return 1;
    }
    pthread_barrier_init(&start, NULL, (unsigned)nthreads);
    pthread_t tid[MAX_THREADS];
    for (long t = 0; t < nthreads; t++)
        if (pthread_create(&tid[t], NULL, worker, (void *)t) != 0)
            return 1;
    int failed = 0;
    for (int t = 0; t < nthreads; t++) {
        void *ret;
        pthread_join(tid[t], &ret);
        failed |= ret != NULL;
    }
    if (close(shared_fd) != 0 || close(seq_fd) != 0 || failed) {
        fprintf(stderr, "a thread failed\n");
        return 1;
    }
    return 0;
}
