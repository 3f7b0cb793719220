/*
 * Shutdown benchmark: the time spent in MPI_Finalize, where iolens reduces
 * shared records and writes the job's log.
 *
 *   shutdown DIR UNIQUE SHARED
 *
 * Every rank creates UNIQUE files of its own (DIR/u<rank>.<i>) and opens
 * the SHARED files that all ranks share (DIR/s<j>), with one 8-byte write
 * each, so the log has nprocs * UNIQUE + SHARED records.  After a barrier
 * each rank times MPI_Finalize with clock_gettime (MPI_Wtime cannot be
 * called after it) and prints "finalize_seconds <s>" once it has returned;
 * run-shutdown.sh takes the largest over the ranks.  The printing comes
 * after MPI_Finalize so that it is not traced itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char payload[8] = "iolens!";

static void die(const char *what, const char *path)
{
    fprintf(stderr, "shutdown: %s %s: %s\n", what, path, strerror(errno));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Creates (or truncates) path and writes 8 bytes at offset. */
static void write_once(const char *path, int flags, off_t offset)
{
    int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
    if (fd < 0)
        die("open", path);
    if (pwrite(fd, payload, sizeof payload, offset) != (ssize_t)sizeof payload)
        die("pwrite", path);
    if (close(fd) != 0)
        die("close", path);
}

static long parse_count(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0) {
        fprintf(stderr, "shutdown: bad count '%s'\n", s);
        exit(2);
    }
    return v;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rank;
    char path[4096];
    MPI_Init(&argc, &argv);
    if (argc != 4) {
        fprintf(stderr, "usage: %s DIR UNIQUE SHARED\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long unique = parse_count(argv[2]);
    long shared = parse_count(argv[3]);

    for (long i = 0; i < unique; i++) {
        snprintf(path, sizeof path, "%s/u%d.%ld", argv[1], rank, i);
        write_once(path, O_TRUNC, 0);
    }
    /* Shared files: no O_TRUNC, each rank writes its own 8 bytes. */
    for (long j = 0; j < shared; j++) {
        snprintf(path, sizeof path, "%s/s%ld", argv[1], j);
        write_once(path, 0, (off_t)rank * (off_t)sizeof payload);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double start = now();
    MPI_Finalize();
    double seconds = now() - start;
    printf("finalize_seconds %.6f\n", seconds);
    return 0;
}
