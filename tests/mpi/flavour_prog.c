/* An MPI program for tests/mpi/test_mpi_flavours.sh.
 *
 *   flavour_prog DIR N STATUS
 *
 * Each rank writes N bytes to DIR/out.RANK with write(2), and 2N bytes to
 * DIR/shared through MPI-IO: N at offset RANK*N (MPI_File_write_at, on
 * MPI_COMM_WORLD with MPI_INFO_NULL and MPI_BYTE: the handles that differ
 * between MPICH and Open MPI) and N at (NPROCS+RANK)*N, nonblocking
 * (MPI_File_iwrite_at and MPI_Wait: Open MPI's requests are pointers,
 * MPICH's integers); then it calls MPI_Finalize and exits with STATUS.  It prints "rank R of P" to stdout, so that a run shows that
 * MPI itself worked. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    MPI_Init(&argc, &argv);
    int rank = -1, nprocs = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int n = atoi(argv[2]);
    char *buf = malloc((size_t)n);
    char path[4096];
    if (buf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 4);
    memset(buf, 'a' + rank % 26, (size_t)n);

    snprintf(path, sizeof path, "%s/out.%d", argv[1], rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, (size_t)n) != n || close(fd) != 0)
        MPI_Abort(MPI_COMM_WORLD, 5);

    snprintf(path, sizeof path, "%s/shared", argv[1]);
    MPI_File fh;
    MPI_Status status;
    int written = -1;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS ||
        MPI_File_write_at(fh, (MPI_Offset)rank * n, buf, n, MPI_BYTE, &status) != MPI_SUCCESS ||
        MPI_Get_count(&status, MPI_BYTE, &written) != MPI_SUCCESS || written != n)
        MPI_Abort(MPI_COMM_WORLD, 6);
    MPI_Request req = MPI_REQUEST_NULL;
    if (MPI_File_iwrite_at(fh, (MPI_Offset)(nprocs + rank) * n, buf, n, MPI_BYTE, &req) !=
            MPI_SUCCESS ||
        MPI_Wait(&req, &status) != MPI_SUCCESS || req != MPI_REQUEST_NULL ||
        MPI_Get_count(&status, MPI_BYTE, &written) != MPI_SUCCESS || written != n ||
        MPI_File_close(&fh) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 6);
    printf("rank %d of %d\n", rank, nprocs);
    free(buf);
    MPI_Finalize();
    return atoi(argv[3]);
}
