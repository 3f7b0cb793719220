/* Threads that open, write and close many files, then do it again:
 *   prog_churn DIR THREADS FILES
 * Thread t makes DIR/tT_I for I < FILES: open (create), write 10 bytes,
 * close; then stats each by name; then opens each again read-write,
 * fstats it, writes 5 bytes at offset 10 and closes it.  Under a small
 * budget the closed files' records are parked and unparked while the
 * other threads open and close theirs (test_threads.sh). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_THREADS 16

static const char *dir;
static long nfiles;

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

static void *worker(void *arg)
{
    return churn((long)arg) == 0 ? NULL : (void *)1;
}

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[2]) < 1 || atoi(argv[2]) > MAX_THREADS) {
        fprintf(stderr, "usage: %s DIR THREADS FILES\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    int nthreads = atoi(argv[2]);
    nfiles = atol(argv[3]);
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
