/* The MPI program traced by build-and-demo.sh: a toy checkpoint.
 *
 *   demo-mpi DIR
 *
 * Every rank writes its own file DIR/rank-<r>.dat (16 write()s of 64 KiB),
 * then all ranks write one shared file DIR/checkpoint.dat collectively
 * (MPI_File_write_at_all, 1 MiB per rank) and, after the sync-barrier-sync
 * that makes the others' data visible, each reads back its neighbour's
 * block independently (MPI_File_read_at).  Rank 0 finally
 * writes a one-line summary to DIR/summary.txt with fprintf.
 * The log then shows file-per-process, shared-file and stdio I/O, with
 * the shared file reduced to one record. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK (1 << 20)
#define CHUNK (64 << 10)

static void die(const char *what, const char *path)
{
    fprintf(stderr, "demo-mpi: %s %s failed\n", what, path);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void write_own_file(const char *dir, int rank, const char *buf)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%d.dat", dir, rank);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        die("open", path);
    for (int i = 0; i < BLOCK / CHUNK; i++)
        if (write(fd, buf, CHUNK) != CHUNK)
            die("write", path);
    if (close(fd) != 0)
        die("close", path);
}

static void checkpoint(const char *dir, int rank, int nprocs, char *buf)
{
    char path[4096];
    MPI_File fh;
    snprintf(path, sizeof path, "%s/checkpoint.dat", dir);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS)
        die("MPI_File_open", path);
    if (MPI_File_write_at_all(fh, (MPI_Offset)rank * BLOCK, buf, BLOCK, MPI_BYTE,
                              MPI_STATUS_IGNORE) != MPI_SUCCESS)
        die("MPI_File_write_at_all", path);
    /* sync-barrier-sync: MPI-IO's way to make the other ranks' writes
     * visible before reading them. */
    if (MPI_File_sync(fh) != MPI_SUCCESS || MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_File_sync(fh) != MPI_SUCCESS)
        die("MPI_File_sync", path);
    int next = (rank + 1) % nprocs;
    if (MPI_File_read_at(fh, (MPI_Offset)next * BLOCK, buf, BLOCK, MPI_BYTE,
                         MPI_STATUS_IGNORE) != MPI_SUCCESS)
        die("MPI_File_read_at", path);
    if (MPI_File_close(&fh) != MPI_SUCCESS)
        die("MPI_File_close", path);
}

static void write_summary(const char *dir, int nprocs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        die("fopen", path);
    fprintf(f, "%d ranks wrote %d MiB each, twice\n", nprocs, BLOCK >> 20);
    if (fclose(f) != 0)
        die("fclose", path);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: %s DIR\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *buf = malloc(BLOCK);
    if (buf == NULL)
        die("malloc", "");
    memset(buf, 'a' + rank % 26, BLOCK);

    write_own_file(argv[1], rank, buf);
    checkpoint(argv[1], rank, nprocs, buf);
    if (rank == 0)
        write_summary(argv[1], nprocs);

    free(buf);
    MPI_Finalize();
    return 0;
}
