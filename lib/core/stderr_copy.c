/* The runtime's own copy of standard error (stderr_copy.h). */
#include "core/stderr_copy.h"

#include "core/real_calls.h"

#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

static int copy_fd = -1;
static dev_t copy_dev;
static ino_t copy_ino;

/* Above the descriptors a program uses and above the ranges it may
 * close or dup2 onto by number (3 to 255, say), within the limit. */
static int first_free_from(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 1000;
    if (rl.rlim_cur > 1024)
        return 1000;
    return rl.rlim_cur > 64 ? (int)rl.rlim_cur - 24 : 10;
}

void iolens_stderr_copy_take(void)
{
    struct stat st;
    if (copy_fd >= 0 || IOLENS_REAL(fstat)(2, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
        return;
    int fd = IOLENS_REAL(fcntl)(2, F_DUPFD_CLOEXEC, first_free_from());
    if (fd < 0)
        return;
    copy_dev = st.st_dev;
    copy_ino = st.st_ino;
    copy_fd = fd;
}

int iolens_stderr_fd(void)
{
    if (IOLENS_REAL(fcntl)(2, F_GETFD) != -1)
        return 2;
    struct stat st;
    /* Never write to a descriptor the program has made its own since. */
    if (copy_fd >= 0 && IOLENS_REAL(fstat)(copy_fd, &st) == 0 && st.st_dev == copy_dev &&
        st.st_ino == copy_ino)
        return copy_fd;
    return -1;
}

void iolens_real_say(const char *line)
{
    int fd = iolens_stderr_fd(); /* 2, or the runtime's copy once 2 is closed */
    if (IOLENS_REAL(write) != NULL && fd >= 0)
        (void)!iolens_real_write(fd, line, strlen(line));
}
