/* Threads that open, write and close many files, then do it again:
 *   prog_churn DIR THREADS FILES [ROUNDS]
 * Thread t makes DIR/tT_I for I < FILES: open (create), write 10 bytes,
 * close; then stats each by name; then opens each again read-write,
 * fstats it, writes 5 bytes at offset 10 and closes it.  Under a small
 * budget the closed files' records are parked and unparked while the
 * other threads open and close theirs (test_threads.sh).  With ROUNDS,
 * each thread then stats every thread's files, ROUNDS times over: the
 * threads lock the same idle records, which the pool parks and unparks
 * under them. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_THREADS 16

static const char *dir;
static long nfiles;
static int nthreads;
static long rounds;

/* Every thread's files, by name, rounds times (ROUNDS). */
static int stat_all(void)
{
    char path[4096];
    struct stat st;
    for (long r = 0; r < rounds; r++)
        for (long i = 0; i < nfiles; i++)
            for (int t = 0; t < nthreads; t++) {
                snprintf(path, sizeof path, "%s/t%d_%ld", dir, t, i);
                if (stat(path, &st) != 0 || st.st_size != 15)
                    return -1;
            }
    return 0;
}

static int churn(long t)
{
    char path[4096];
    struct stat st;
    for (long i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/t%ld_%ld", dir, t, i);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0 || write(fd, "0123456789", 10) != 10 || close(fd) != 0)
            return -1;
    }
    for (long i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/t%ld_%ld", dir, t, i);
        if (stat(path, &st) != 0 || st.st_size != 10)
            return -1;
    }
    for (long i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/t%ld_%ld", dir, t, i);
        int fd = open(path, O_RDWR);
        if (fd < 0 || fstat(fd, &st) != 0 || pwrite(fd, "abcde", 5, 10) != 5 || close(fd) != 0)
            return -1;
    }
    return 0;
}

static pthread_barrier_t churned;

static void *worker(void *arg)
{
    int failed = churn((long)arg) != 0;
    pthread_barrier_wait(&churned); /* every file has its 15 bytes */
    if (!failed && stat_all() != 0)
        failed = 1;
    return failed ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5 || atoi(argv[2]) < 1 || atoi(argv[2]) > MAX_THREADS) {
        fprintf(stderr, "usage: %s DIR THREADS FILES [ROUNDS]\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    nthreads = atoi(argv[2]);
    nfiles = atol(argv[3]);
    rounds = argc == 5 ? atol(argv[4]) : 0;
    if (pthread_barrier_init(&churned, NULL, (unsigned)nthreads) != 0)
        return 1;
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
    if (failed)
        perror("prog_churn");
    return failed;
}
