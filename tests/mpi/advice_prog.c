/* The hidden causes of the iolens-parser --advice findings that need an
 * MPI job (test_advice_mpi.sh), one per mode, with files in DATA:
 *
 *   advice_prog MODE DATA
 *   rank0      rank 0 writes 8 MiB (1 MiB writes), the others nothing
 *                                                        RANK0_BOTTLENECK
 *   straggler  each rank writes 8 MiB to its own file; the last rank
 *              32 MiB with an fsync after every MiB      RANK_IMBALANCE
 *   indep      a shared file, each rank 64 independent MPI_File_write_at
 *              of 64 KiB, interleaved                    NO_COLLECTIVE_MPIIO
 *   coll       the same with MPI_File_write_at_all: no NO_COLLECTIVE_MPIIO
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024 * 1024)
#define BLOCK (64 * 1024)

static char buf[MIB];

static int write_mib(const char *path, int n, int sync_each)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    for (int i = 0; i < n; i++)
        if (write(fd, buf, MIB) != MIB || (sync_each && fsync(fd) != 0)) {
            perror("write");
            return 1;
        }
    return close(fd) != 0;
}

static int own_file(const char *dir, int rank, int n, int sync_each)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/r%d.dat", dir, rank);
    return write_mib(path, n, sync_each);
}

static int shared(const char *dir, int rank, int nprocs, int collective)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/shared.dat", dir);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS)
        return 1;
    for (int i = 0; i < 64; i++) {
        MPI_Offset off = ((MPI_Offset)i * nprocs + rank) * BLOCK;
        int rc = collective
                     ? MPI_File_write_at_all(fh, off, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE)
                     : MPI_File_write_at(fh, off, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return 1;
    }
    return MPI_File_close(&fh) != MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nprocs, rc = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    memset(buf, 'm', sizeof buf);
    if (argc != 3)
        fprintf(stderr, "usage: %s rank0|straggler|indep|coll DATA\n", argv[0]);
    else if (strcmp(argv[1], "rank0") == 0)
        rc = rank == 0 ? own_file(argv[2], rank, 8, 0) : 0;
    else if (strcmp(argv[1], "straggler") == 0)
        rc = rank == nprocs - 1 ? own_file(argv[2], rank, 32, 1) : own_file(argv[2], rank, 8, 0);
    else if (strcmp(argv[1], "indep") == 0)
        rc = shared(argv[2], rank, nprocs, 0);
    else if (strcmp(argv[1], "coll") == 0)
        rc = shared(argv[2], rank, nprocs, 1);
    else
        fprintf(stderr, "%s: unknown mode %s\n", argv[0], argv[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
