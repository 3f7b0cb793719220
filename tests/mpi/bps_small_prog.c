/* MPI job for test_bps_small.sh.  Usage:
 *
 *   bps_small_prog DIR N
 *
 * After a barrier every rank makes N pwrite() calls of 64 bytes to its own
 * file DIR/small.RANK (cycling over its first 64 KiB), all ranks at once:
 * many small accesses, so that the runtime's interval stores compact.
 * Exits 0, or 2 on a usage or I/O error. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long n = argc == 3 ? atol(argv[2]) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: bps_small_prog DIR N\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096], buf[64] = {0};
    snprintf(path, sizeof path, "%s/small.%d", argv[1], rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "bps_small_prog: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (long i = 0; i < n; i++)
        if (pwrite(fd, buf, sizeof buf, (off_t)(i % 1024) * 64) != 64) {
            fprintf(stderr, "bps_small_prog: pwrite failed\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    close(fd);
    MPI_Finalize();
    return 0;
}
