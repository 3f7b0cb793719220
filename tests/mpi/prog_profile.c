/* An MPI program that test_profile.sh links with the MPICH profile
 * (mpicc -profile=...) and runs WITHOUT LD_PRELOAD.  Every rank r writes,
 * under the directory argv[1]:
 *   posix.<r>   with write(2): 1000 bytes, then 24 bytes;
 *   stdio.<r>   with fwrite(3): 3 times 100 bytes;
 *   mpiio.dat   (shared by all ranks) its own 4096-byte block at offset
 *               4096 * r, with one MPI_File_write_at. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];

static int fail(const char *what, const char *path)
{
    perror(what);
    fprintf(stderr, "prog_profile: %s %s failed\n", what, path);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

static int write_posix(const char *path)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return fail("open", path);
    if (write(fd, buf, 1000) != 1000 || write(fd, buf, 24) != 24)
        return fail("write", path);
    if (close(fd) != 0)
        return fail("close", path);
    return 0;
}

static int write_stdio(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return fail("fopen", path);
    for (int i = 0; i < 3; i++)
        if (fwrite(buf, 1, 100, f) != 100)
            return fail("fwrite", path);
    if (fclose(f) != 0)
        return fail("fclose", path);
    return 0;
}

static int write_mpiio(const char *path, int rank)
{
    MPI_File fh;
    MPI_Status st;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS)
        return fail("MPI_File_open", path);
    if (MPI_File_write_at(fh, (MPI_Offset)rank * 4096, buf, 4096, MPI_BYTE, &st) != MPI_SUCCESS)
        return fail("MPI_File_write_at", path);
    if (MPI_File_close(&fh) != MPI_SUCCESS)
        return fail("MPI_File_close", path);
    return 0;
}

int main(int argc, char **argv)
{
    int rank;
    char path[4096];
    MPI_Init(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(buf, 'p', sizeof buf);

    snprintf(path, sizeof path, "%s/posix.%d", argv[1], rank);
    write_posix(path);
    snprintf(path, sizeof path, "%s/stdio.%d", argv[1], rank);
    write_stdio(path);
    snprintf(path, sizeof path, "%s/mpiio.dat", argv[1]);
    write_mpiio(path, rank);

    MPI_Finalize();
    return 0;
}
