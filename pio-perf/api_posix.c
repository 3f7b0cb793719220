/* The RAW (POSIX) test: open/pwrite/pread/close on a file shared by the
 * ranks.  Dataset k is the byte range [k * extent, (k + 1) * extent). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pio_perf.h"

struct pio_file {
    int fd;
    uint64_t extent;
    const char *path;
};

static struct pio_file *posix_open(const char *path, enum pio_op op, MPI_Comm comm,
                                   uint64_t ndsets, uint64_t extent)
{
    (void)ndsets;
    struct pio_file *f = malloc(sizeof *f);
    if (f == NULL)
        pio_fail("malloc", strerror(errno));
    *f = (struct pio_file){.fd = -1, .extent = extent, .path = path};
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (op == PIO_WRITE) {
        /* Rank 0 truncates the file before the others open it.  The data
         * files' names are predictable (in /tmp by default): a symlink
         * planted at one is never followed. */
        if (rank == 0)
            f->fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_NOFOLLOW, 0644);
        MPI_Barrier(comm);
        if (rank != 0)
            f->fd = open(path, O_WRONLY | O_NOFOLLOW);
    } else {
        f->fd = open(path, O_RDONLY | O_NOFOLLOW);
    }
    if (f->fd < 0)
        pio_fail("open", path);
    return f;
}

static void posix_write(struct pio_file *f, uint64_t dset, uint64_t offset, const void *buf,
                        uint64_t len)
{
    const char *p = buf;
    off_t at = (off_t)(dset * f->extent + offset);
    while (len > 0) {
        ssize_t n = pwrite(f->fd, p, len, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            pio_fail("pwrite", n < 0 ? strerror(errno) : "wrote nothing");
        p += n;
        at += n;
        len -= (uint64_t)n;
    }
}

static void posix_read(struct pio_file *f, uint64_t dset, uint64_t offset, void *buf,
                       uint64_t len)
{
    char *p = buf;
    off_t at = (off_t)(dset * f->extent + offset);
    while (len > 0) {
        ssize_t n = pread(f->fd, p, len, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            pio_fail("pread", n < 0 ? strerror(errno) : "unexpected end of file");
        p += n;
        at += n;
        len -= (uint64_t)n;
    }
}

static void posix_close(struct pio_file *f)
{
    if (close(f->fd) != 0)
        pio_fail("close", strerror(errno));
    free(f);
}

const struct pio_api_ops pio_posix_ops = {
    .name = "RAW", .key = "posix",
    .open = posix_open, .write = posix_write, .read = posix_read, .close = posix_close,
};
