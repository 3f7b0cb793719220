/* Call sites under MPI (test_sites_mpi.sh): sites_prog DATA.
 * Every rank calls MPI_File_write_at_all twice (4096 bytes each) from the
 * line tagged "SITE coll" on DATA/coll, so that the POSIX writes ROMIO
 * makes beneath belong to that line; then, on DATA/posix opened by every
 * rank, rank r makes r + 1 pwrites of 100 bytes from the line tagged
 * "SITE posix1" and 2 pwrites of 10 bytes from "SITE posix2"; last, on
 * DATA/mixed0 ... mixed7, rank 0 makes 3 fwrites of 50 bytes from "SITE
 * mixed" and every other rank one pwrite of 10 bytes: each file's POSIX
 * record is shared, its STDIO record rank 0's alone, and each file's
 * writer is one of the ranks, by a hash of its name. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static char buf[4096];

static int write_coll(const char *dir, int rank, int size)
{
    char path[4096];
    MPI_File fh;
    snprintf(path, sizeof path, "%s/coll", dir);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS)
        return 1;
    int rc = 0;
    for (int i = 0; i < 2; i++) {
        MPI_Offset at = ((MPI_Offset)i * size + rank) * 4096;
        rc |= MPI_File_write_at_all(fh, at, buf, 4096, MPI_BYTE, MPI_STATUS_IGNORE); /* SITE coll */
    }
    return MPI_File_close(&fh) != MPI_SUCCESS || rc != MPI_SUCCESS;
}

static int write_posix(const char *dir, int rank)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/posix", dir);
    int fd = open(path, O_CREAT | O_WRONLY, 0644);
    if (fd < 0)
        return 1;
    int rc = 0;
    for (int i = 0; i <= rank; i++)
        rc |= pwrite(fd, buf, 100, rank * 1000 + i * 100) != 100; /* SITE posix1 */
    for (int i = 0; i < 2; i++)
        rc |= pwrite(fd, buf, 10, 100000 + rank * 100 + i * 10) != 10; /* SITE posix2 */
    return close(fd) != 0 || rc;
}

static int write_mixed(const char *dir, int rank)
{
    int rc = 0;
    for (int k = 0; k < 8; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/mixed%d", dir, k);
        if (rank == 0) {
            FILE *f = fopen(path, "a");
            if (f == NULL)
                return 1;
            for (int i = 0; i < 3; i++)
                rc |= fwrite(buf, 1, 50, f) != 50; /* SITE mixed */
            rc |= fclose(f) != 0;
            continue;
        }
        int fd = open(path, O_CREAT | O_WRONLY, 0644);
        if (fd < 0)
            return 1;
        rc |= pwrite(fd, buf, 10, 1000 + rank * 10) != 10;
        rc |= close(fd) != 0;
    }
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = argc != 2 || write_coll(argv[1], rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    rc |= argc != 2 || write_posix(argv[1], rank);
    rc |= argc != 2 || write_mixed(argv[1], rank);
    MPI_Finalize();
    return rc;
}
