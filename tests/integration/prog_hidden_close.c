/* Descriptors the C library closes out of a wrapper's sight
 * (test_hidden_close.sh).  After each such close a pipe is made, which
 * takes the freed numbers again, and 5 bytes are written into it and read
 * back: none of them may count for the file the number was open on.
 *
 * usage: prog_hidden_close DIR FILE1 FILE2 FILE3
 *   1. DIR opened with open(O_DIRECTORY), read by fdopendir and readdir,
 *      closed by closedir (which closes the descriptor inside glibc).
 *   2. FILE1 and FILE2 opened, 3 and 4 bytes written, both closed by one
 *      close_range(first, last, 0).
 *   3. FILE3 opened; close_range(fd, fd, CLOSE_RANGE_CLOEXEC) closes
 *      nothing, and 6 bytes are written; close_range(fd + 1, fd, 0) fails
 *      with EINVAL, and 7 bytes are written; closefrom(fd) closes it.
 * Exit status 0, or the step that went wrong (a pipe that did not take a
 * freed number makes the test meaningless, and is an error too). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* A pipe whose read end is fd: 5 bytes through it; 0 on success. */
static int pipe_through(int fd)
{
    int p[2];
    char b[5];
    if (pipe(p) != 0 || p[0] != fd)
        return -1;
    int ok = write(p[1], "hello", 5) == 5 && read(p[0], b, 5) == 5;
    close(p[0]);
    close(p[1]);
    return ok ? 0 : -1;
}

static int create(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

static int closedir_step(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL)
        return -1;
    while (readdir(d) != NULL)
        continue;
    if (closedir(d) != 0)
        return -1;
    return pipe_through(fd);
}

static int close_range_step(const char *file1, const char *file2)
{
    int a = create(file1), b = create(file2);
    if (a < 0 || b != a + 1 || write(a, "abc", 3) != 3 || write(b, "defg", 4) != 4)
        return -1;
    if (close_range((unsigned)a, (unsigned)b, 0) != 0)
        return -1;
    return pipe_through(a);
}

static int closefrom_step(const char *file3)
{
    int fd = create(file3);
    if (fd < 0 || close_range((unsigned)fd, (unsigned)fd, CLOSE_RANGE_CLOEXEC) != 0 ||
        write(fd, "123456", 6) != 6)
        return -1;
    errno = 0;
    if (close_range((unsigned)fd + 1, (unsigned)fd, 0) != -1 || errno != EINVAL)
        return -1;
    if (write(fd, "1234567", 7) != 7)
        return -1;
    closefrom(fd);
    return pipe_through(fd);
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return 9;
    if (closedir_step(argv[1]) != 0)
        return 1;
    if (close_range_step(argv[2], argv[3]) != 0)
        return 2;
    if (closefrom_step(argv[4]) != 0)
        return 3;
    return 0;
}
