/* An MPI job that does not reach MPI_Finalize (test_abnormal_end.sh).
 *
 * usage: abnormal_prog MODE DIR
 *   Every rank r writes (r + 1) x 1000 bytes to DIR/out.<r> in blocks of
 *   1000 and 100 bytes at r x 100 to DIR/shared, then meets the others
 *   in a barrier.  Then, by MODE:
 *   exit          exit(0) without MPI_Finalize
 *   sigterm       each rank sends itself SIGTERM (no handler)
 *   sigterm-trap  as sigterm, with a handler that _exit(9)s
 *   wait          each rank writes its pid to DIR/pid.<r> and waits for
 *                 a signal (the test sends SIGTERM to every rank at once)
 *   wait-trap     as wait, with a handler that _exit(9)s
 *   wait-int      as wait, with SIGINT at SIG_DFL (a job started in the
 *                 background may have it ignored): the test sends SIGINT,
 *                 as LSF's bkill does first
 *   abort         rank 0 calls MPI_Abort(MPI_COMM_WORLD, 3); the others
 *                 wait in a barrier that never completes
 *   finalize      MPI_Finalize, for comparison */
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char block[1000];

static void write_data(const char *dir, int rank)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/out.%d", dir, rank);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i <= rank; i++)
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
            MPI_Abort(MPI_COMM_WORLD, 1);
    close(fd);
    snprintf(path, sizeof path, "%s/shared", dir);
    fd = open(path, O_CREAT | O_WRONLY, 0644);
    if (fd < 0 || pwrite(fd, block, 100, (off_t)rank * 100) != 100)
        MPI_Abort(MPI_COMM_WORLD, 1);
    close(fd);
}

/* Written under a temporary name, then renamed: the test sees whole pids. */
static void write_pid(const char *dir, int rank)
{
    char tmp[4096], path[4096];
    snprintf(tmp, sizeof tmp, "%s/.pid.%d", dir, rank);
    snprintf(path, sizeof path, "%s/pid.%d", dir, rank);
    FILE *f = fopen(tmp, "w");
    if (f == NULL || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0 ||
        rename(tmp, path) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

static void on_term(int sig)
{
    _exit(sig == SIGTERM ? 9 : 3);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODE DIR\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    memset(block, 'a', sizeof block);
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(mode, "sigterm-trap") == 0 || strcmp(mode, "wait-trap") == 0)
        signal(SIGTERM, on_term);
    if (strcmp(mode, "wait-int") == 0)
        signal(SIGINT, SIG_DFL);
    write_data(argv[2], rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(mode, "exit") == 0)
        exit(0);
    if (strncmp(mode, "sigterm", 7) == 0) {
        kill(getpid(), SIGTERM);
        sleep(10);
        return 1;
    }
    if (strncmp(mode, "wait", 4) == 0) {
        write_pid(argv[2], rank);
        for (;;)
            pause();
    }
    if (strcmp(mode, "abort") == 0) {
        if (rank == 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
        MPI_Barrier(MPI_COMM_WORLD);
        return 1;
    }
    MPI_Finalize();
    return 0;
}
