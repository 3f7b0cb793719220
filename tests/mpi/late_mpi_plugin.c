/* The MPI part of tests/mpi/late_mpi_host.c, a shared object linked
 * against the MPI library and loaded by dlopen(RTLD_LOCAL), as Python
 * loads mpi4py's module: every rank writes 1000 bytes at offset
 * rank * 1000 of PATH with MPI_File_write_at, and 100 bytes to its own
 * PATH.<rank> with write().  Returns 0, or 2 on an error (with a
 * message). */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int late_mpi_run(const char *path);

static int own_file(const char *path, int rank)
{
    char name[4096], buf[100] = {0};
    snprintf(name, sizeof name, "%s.%d", path, rank);
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf || close(fd) != 0) {
        perror(name);
        return -1;
    }
    return 0;
}

int late_mpi_run(const char *path)
{
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        fprintf(stderr, "late_mpi_plugin: MPI_Init failed\n");
        return 2;
    }
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File fh;
    char buf[1000] = {0};
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                           &fh);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_write_at(fh, (MPI_Offset)rank * 1000, buf, 1000, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS || own_file(path, rank) != 0) {
        fprintf(stderr, "late_mpi_plugin: I/O on %s failed\n", path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return 0;
}
