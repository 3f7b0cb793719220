/* The runtime's own copy of standard error (stderr_copy.h). */
#include "core/stderr_copy.h"

#include "core/real_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
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

/* A message must not change how the program ends: with fd 2 a pipe whose
 * reader has left (`prog 2>&1 | head`), the write raises SIGPIPE, whose
 * default action would kill a program that was about to exit 0.  SIGPIPE
 * is blocked around the write, and the one it raised taken back (unless
 * one was pending already, which is the program's).  All of it
 * async-signal-safe: termination.c says things from a signal handler. */
void iolens_real_say(const char *line)
{
    int fd = iolens_stderr_fd(); /* 2, or the runtime's copy once 2 is closed */
    if (IOLENS_REAL(write) == NULL || fd < 0)
        return;
    int saved_errno = errno;
    sigset_t pipe_only, saved, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &saved);
    int was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    if (iolens_real_write(fd, line, strlen(line)) < 0 && errno == EPIPE && !was_pending) {
        const struct timespec now = {0, 0};
        (void)sigtimedwait(&pipe_only, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    errno = saved_errno;
}
