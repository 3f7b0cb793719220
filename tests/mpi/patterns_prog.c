/* One job per file-sharing class, for test_sharing.sh (4 ranks):
 *   patterns_prog nn DIR      each rank writes its own file DIR/own.RANK:
 *                             8 write()s of 65536 bytes
 *   patterns_prog n1 DIR      all ranks write DIR/shared through MPI-IO,
 *                             MPI_File_write_at of 65536 bytes at block
 *                             i * nprocs + rank (i = 0..15): each rank
 *                             strided, 65536 * nprocs apart; then
 *                             DIR/viewed: the same layout through a file
 *                             view, 4 MPI_File_write_all of one block
 *   patterns_prog nm DIR      ranks in pairs (0-1, 2-3, ...) share a file
 *                             DIR/pair.K: each rank pwrite()s 8 blocks of
 *                             65536 bytes, alternating with its partner
 *   patterns_prog rank0 DIR   rank 0 writes 64 blocks of 65536 bytes to
 *                             DIR/rank0; every other rank 1000 bytes to
 *                             its own DIR/small.RANK
 * Exit status 0, or 1 with a message on stderr. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 65536

static char block[BLOCK];

static void die(const char *what)
{
    perror(what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static int create(const char *dir, const char *name, int rank, int truncate)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%d", dir, name, rank);
    int fd = open(path, O_CREAT | O_WRONLY | (truncate ? O_TRUNC : 0), 0644);
    if (fd < 0)
        die(path);
    return fd;
}

static void put_at(int fd, size_t size, off_t at)
{
    if (pwrite(fd, block, size, at) != (ssize_t)size)
        die("pwrite");
}

static void file_per_process(const char *dir, int rank)
{
    int fd = create(dir, "own.", rank, 1);
    for (int i = 0; i < 8; i++)
        if (write(fd, block, BLOCK) != BLOCK)
            die("write");
    close(fd);
}

static void one_shared_file(const char *dir, int rank, int nprocs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/shared", dir);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS)
        die("MPI_File_open");
    for (int i = 0; i < 16; i++) {
        MPI_Offset at = ((MPI_Offset)i * nprocs + rank) * BLOCK;
        if (MPI_File_write_at(fh, at, block, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            die("MPI_File_write_at");
    }
    MPI_File_close(&fh);
}

/* The same blocks through a view: each rank's filetype is one block out of
 * nprocs, displaced by its rank; collective writes through the individual
 * file pointer, 4 blocks a call. */
static void shared_through_view(const char *dir, int rank, int nprocs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/viewed", dir);
    MPI_File fh;
    MPI_Datatype one_of_n;
    MPI_Type_vector(1, BLOCK, BLOCK * nprocs, MPI_BYTE, &one_of_n);
    MPI_Datatype tile;
    MPI_Type_create_resized(one_of_n, 0, (MPI_Aint)BLOCK * nprocs, &tile);
    MPI_Type_commit(&tile);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS)
        die("MPI_File_open");
    MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK, MPI_BYTE, tile, "native", MPI_INFO_NULL);
    for (int i = 0; i < 4; i++)
        if (MPI_File_write_all(fh, block, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            die("MPI_File_write_all");
    MPI_File_close(&fh);
    MPI_Type_free(&tile);
    MPI_Type_free(&one_of_n);
}

static void pairs(const char *dir, int rank)
{
    int fd = create(dir, "pair.", rank / 2, 0);
    for (int i = 0; i < 8; i++)
        put_at(fd, BLOCK, ((off_t)i * 2 + rank % 2) * BLOCK);
    close(fd);
}

static void rank0_io(const char *dir, int rank)
{
    if (rank == 0) {
        int fd = create(dir, "rank", 0, 1);
        for (int i = 0; i < 64; i++)
            put_at(fd, BLOCK, (off_t)i * BLOCK);
        close(fd);
    } else {
        int fd = create(dir, "small.", rank, 1);
        put_at(fd, 1000, 0);
        close(fd);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 3) {
        if (rank == 0)
            fprintf(stderr, "usage: %s nn|n1|nm|rank0 DIR\n", argv[0]);
        MPI_Finalize();
        return 1;
    }
    memset(block, 's', sizeof block);
    const char *mode = argv[1], *dir = argv[2];
    if (strcmp(mode, "nn") == 0)
        file_per_process(dir, rank);
    else if (strcmp(mode, "n1") == 0) {
        one_shared_file(dir, rank, nprocs);
        shared_through_view(dir, rank, nprocs);
    }
    else if (strcmp(mode, "nm") == 0)
        pairs(dir, rank);
    else if (strcmp(mode, "rank0") == 0)
        rank0_io(dir, rank);
    else
        die(mode);
    MPI_Finalize();
    return 0;
}
