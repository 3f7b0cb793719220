/* POSIX asynchronous I/O (test_aio.sh).  glibc does the I/O on threads
 * of its own, by calls no wrapper sees.
 *
 * usage: prog_aio FILE MANY
 *   FILE: 8 aio_writes of 100 bytes at 0, 100, ..., 700, all in flight
 *   at once, then each one's aio_return (the first one's twice);
 *   2 aio_reads of 100 bytes at 0 and 750 (the second gets 50: the end
 *   of the file); one lio_listio(LIO_WAIT) of 3 writes of 10 bytes at
 *   800, 810 and 820 and a LIO_NOP; an aio_read through a descriptor
 *   opened write-only, which fails with EBADF.
 *   MANY: 400 one-byte aio_writes in flight at once, at 0 ... 399.
 * Exit status 0, or the step that went wrong. */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define MANY 400

static char data[1000];
static struct aiocb many[MANY];

static void set(struct aiocb *cb, int fd, void *buf, size_t n, off_t at)
{
    memset(cb, 0, sizeof *cb);
    cb->aio_fildes = fd;
    cb->aio_buf = buf;
    cb->aio_nbytes = n;
    cb->aio_offset = at;
}

/* Waits for cb and returns its aio_return. */
static ssize_t finish(struct aiocb *cb)
{
    const struct aiocb *list[1] = {cb};
    while (aio_error(cb) == EINPROGRESS)
        aio_suspend(list, 1, NULL);
    return aio_return(cb);
}

static int writes_and_reads(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    struct aiocb w[8];
    for (int i = 0; i < 8; i++) {
        set(&w[i], fd, data, 100, (off_t)i * 100);
        if (aio_write(&w[i]) != 0)
            return -1;
    }
    for (int i = 0; i < 8; i++)
        if (finish(&w[i]) != 100)
            return -1;
    if (aio_return(&w[0]) != 100) /* asked twice: glibc gives it again */
        return -1;
    char in[2][100];
    struct aiocb r[2];
    set(&r[0], fd, in[0], 100, 0);
    set(&r[1], fd, in[1], 100, 750);
    if (aio_read(&r[0]) != 0 || aio_read(&r[1]) != 0 || finish(&r[0]) != 100 ||
        finish(&r[1]) != 50)
        return -1;
    struct aiocb l[4];
    struct aiocb *list[4] = {&l[0], &l[1], &l[2], &l[3]};
    for (int i = 0; i < 3; i++) {
        set(&l[i], fd, data, 10, 800 + (off_t)i * 10);
        l[i].aio_lio_opcode = LIO_WRITE;
    }
    set(&l[3], fd, data, 10, 0);
    l[3].aio_lio_opcode = LIO_NOP;
    if (lio_listio(LIO_WAIT, list, 4, NULL) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (aio_return(&l[i]) != 10)
            return -1;
    int wronly = open(path, O_WRONLY);
    struct aiocb bad;
    set(&bad, wronly, in[0], 100, 0);
    if (wronly < 0 || aio_read(&bad) != 0 || finish(&bad) != -1 || aio_error(&bad) != EBADF)
        return -1;
    return close(wronly) == 0 && close(fd) == 0 ? 0 : -1;
}

static int many_in_flight(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    for (int i = 0; i < MANY; i++) {
        set(&many[i], fd, data, 1, i);
        if (aio_write(&many[i]) != 0)
            return -1;
    }
    for (int i = 0; i < MANY; i++)
        if (finish(&many[i]) != 1)
            return -1;
    return close(fd);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 9;
    memset(data, 'a', sizeof data);
    if (writes_and_reads(argv[1]) != 0)
        return 1;
    if (many_in_flight(argv[2]) != 0)
        return 2;
    return 0;
}
