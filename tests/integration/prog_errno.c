/* Failing calls must fail exactly as without iolens, and must not be
 * counted; successful calls must leave errno alone (test_errno.sh).
 *
 * usage: prog_errno DIR EXIT_CODE
 *   DIR holds "data" (100 bytes).  Every check that fails prints a line
 *   and makes the program exit 1; otherwise it exits with EXIT_CODE, which
 *   the test compares. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "prog_errno: %s (errno %d: %s)\n", what, errno, strerror(errno));
        failures++;
    }
}

/* A call that must fail with -1 and the given errno. */
#define EXPECT_FAIL(call, err)                                       \
    do {                                                             \
        errno = 0;                                                   \
        long ret_ = (long)(call);                                    \
        check(ret_ == -1 && errno == (err), #call " -> " #err);      \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DIR EXIT_CODE\n", argv[0]);
        return 2;
    }
    char data[4096], missing[4096];
    snprintf(data, sizeof data, "%s/data", argv[1]);
    snprintf(missing, sizeof missing, "%s/missing", argv[1]);
    char buf[200];
    struct stat st;

    EXPECT_FAIL(open(missing, O_RDONLY), ENOENT);
    EXPECT_FAIL(openat(AT_FDCWD, missing, O_RDONLY), ENOENT);
    EXPECT_FAIL(read(12345, buf, 10), EBADF);
    EXPECT_FAIL(write(12345, buf, 10), EBADF);
    EXPECT_FAIL(close(12345), EBADF);
    EXPECT_FAIL(stat(missing, &st), ENOENT);
    EXPECT_FAIL(unlink(missing), ENOENT);
    EXPECT_FAIL(rename(missing, data), ENOENT);
    EXPECT_FAIL(dup(12345), EBADF);
    EXPECT_FAIL(fcntl(12345, F_DUPFD, 0), EBADF);
    EXPECT_FAIL(fsync(12345), EBADF);

    /* A read-only descriptor on a traced file: failing calls on it. */
    errno = EXDEV;
    int fd = open(data, O_RDONLY);
    check(fd >= 0, "open data");
    check(errno == EXDEV, "errno unchanged by a successful open");
    EXPECT_FAIL(write(fd, buf, 10), EBADF);
    EXPECT_FAIL(pread(fd, buf, 10, -1), EINVAL);
    EXPECT_FAIL(lseek(fd, -5, SEEK_SET), EINVAL);
    EXPECT_FAIL(ftruncate(fd, 0), EINVAL);
    errno = EXDEV;
    check(read(fd, buf, sizeof buf) == 100, "read data");
    check(errno == EXDEV, "errno unchanged by a successful read");
    errno = EXDEV;
    check(close(fd) == 0 && errno == EXDEV, "close data");

    int p[2];
    check(pipe(p) == 0, "pipe");
    EXPECT_FAIL(lseek(p[0], 0, SEEK_SET), ESPIPE);
    close(p[0]);
    close(p[1]);

    /* stdio */
    errno = 0;
    check(fopen(missing, "r") == NULL && errno == ENOENT, "fopen missing -> ENOENT");
    FILE *f = fopen(data, "r");
    check(f != NULL, "fopen data");
    if (f != NULL) {
        check(fputs("x", f) == EOF, "fputs on a read-only stream fails");
        clearerr(f);
        errno = EXDEV;
        check(fread(buf, 1, sizeof buf, f) == 100 && errno == EXDEV, "fread data");
        check(fclose(f) == 0, "fclose data");
    }
    return failures > 0 ? 1 : atoi(argv[2]);
}
