/* Failing calls must fail exactly as without iolens, and must not be
 * counted; successful calls must leave errno alone (test_errno.sh).
 *
 * usage: prog_errno DIR EXIT_CODE
 *   DIR holds "data" (100 bytes).  Every check that fails prints a line
 *   and makes the program exit 1; otherwise it exits with EXIT_CODE, which
 *   the test compares. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
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

static void on_alarm(int sig)
{
    (void)sig;
}

/* A read blocked on an empty pipe and interrupted by a signal whose
 * handler was installed without SA_RESTART: -1 with EINTR. */
static void check_eintr(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART */
    check(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction SIGALRM");
    int p[2];
    check(pipe(p) == 0, "pipe for EINTR");
    struct itimerval in_50ms = {{0, 0}, {0, 50000}};
    check(setitimer(ITIMER_REAL, &in_50ms, NULL) == 0, "setitimer");
    char c;
    errno = 0;
    ssize_t ret = read(p[0], &c, 1);
    check(ret == -1 && errno == EINTR, "read interrupted by a signal -> EINTR");
    check(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0, "make the pipe non-blocking");
    errno = 0;
    ret = readv(p[0], &(struct iovec){&c, 1}, 1);
    check(ret == -1 && errno == EAGAIN, "readv of an empty non-blocking pipe -> EAGAIN");
    close(p[0]);
    close(p[1]);
}

/* Short reads come back as they are: fewer bytes than asked. */
static void check_short_reads(const char *data)
{
    int p[2];
    char buf[200];
    check(pipe(p) == 0, "pipe for short reads");
    check(write(p[1], "hello", 5) == 5, "write 5 bytes to a pipe");
    errno = EXDEV;
    check(read(p[0], buf, sizeof buf) == 5 && errno == EXDEV, "short read of a pipe: 5 of 200");
    close(p[0]);
    close(p[1]);
    int fd = open(data, O_RDONLY);
    check(fd >= 0, "open data for short reads");
    check(pread(fd, buf, sizeof buf, 60) == 40, "short pread at the end of data: 40 of 200");
    check(pread(fd, buf, sizeof buf, 100) == 0, "pread at the end of data: 0");
    check(pread(fd, buf, sizeof buf, 5000) == 0, "pread past the end of data: 0");
    check(lseek(fd, 90, SEEK_SET) == 90, "lseek to 90");
    check(read(fd, buf, sizeof buf) == 10, "short read after lseek: 10 of 200");
    check(read(fd, buf, sizeof buf) == 0, "read at end of file: 0");
    check(close(fd) == 0, "close data after short reads");
    EXPECT_FAIL(close(fd), EBADF);
}

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
    check_short_reads(data);
    check_eintr();
    return failures > 0 ? 1 : atoi(argv[2]);
}
