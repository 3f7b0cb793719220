/* The MPIO test: a file opened by the ranks together, independent
 * MPI_File_write_at / MPI_File_read_at at explicit offsets.  Dataset k is
 * the byte range [k * extent, (k + 1) * extent). */
#include <stdlib.h>
#include <string.h>

#include "pio_perf.h"

struct pio_file {
    MPI_File fh;
    uint64_t extent;
};

/* Fails with MPI's own message for err. */
static void check_mpi(int err, const char *call)
{
    if (err == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, msg, &len);
    pio_fail(call, msg);
}

static struct pio_file *mpiio_open(const char *path, enum pio_op op, MPI_Comm comm,
                                   uint64_t ndsets, uint64_t extent)
{
    (void)ndsets;
    struct pio_file *f = malloc(sizeof *f);
    if (f == NULL)
        pio_fail("malloc", "out of memory");
    f->extent = extent;
    int mode = op == PIO_WRITE ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    check_mpi(MPI_File_open(comm, path, mode, MPI_INFO_NULL, &f->fh), "MPI_File_open");
    /* Errors are reported by return code (the default for files, made
     * explicit). */
    MPI_File_set_errhandler(f->fh, MPI_ERRORS_RETURN);
    if (op == PIO_WRITE)
        check_mpi(MPI_File_set_size(f->fh, 0), "MPI_File_set_size");
    return f;
}

static void check_count(const MPI_Status *st, uint64_t len, const char *call)
{
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    if ((uint64_t)count != len)
        pio_fail(call, "short transfer");
}

static void mpiio_write(struct pio_file *f, uint64_t dset, uint64_t offset, const void *buf,
                        uint64_t len)
{
    MPI_Status st;
    check_mpi(MPI_File_write_at(f->fh, (MPI_Offset)(dset * f->extent + offset), buf, (int)len,
                                MPI_BYTE, &st),
              "MPI_File_write_at");
    check_count(&st, len, "MPI_File_write_at");
}

static void mpiio_read(struct pio_file *f, uint64_t dset, uint64_t offset, void *buf,
                       uint64_t len)
{
    MPI_Status st;
    check_mpi(MPI_File_read_at(f->fh, (MPI_Offset)(dset * f->extent + offset), buf, (int)len,
                               MPI_BYTE, &st),
              "MPI_File_read_at");
    check_count(&st, len, "MPI_File_read_at");
}

static void mpiio_close(struct pio_file *f)
{
    check_mpi(MPI_File_close(&f->fh), "MPI_File_close");
    free(f);
}

const struct pio_api_ops pio_mpiio_ops = {
    .name = "MPIO", .key = "mpiio",
    .open = mpiio_open, .write = mpiio_write, .read = mpiio_read, .close = mpiio_close,
};
