/* The runtime's own copy of standard error (stderr_copy.h). */
#include "core/stderr_copy.h"

#include "core/real_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* A file, as fstat names it. */
struct file_id {
    int open; /* 0: no file (fd 2 was closed) */
    dev_t dev;
    ino_t ino;
};

static int copy_fd = -1;
static struct file_id copy_id;    /* what fd 2 was at the start */

/* What fd 2 is meant to be now: set at the start and by any thread that
 * puts a file at 2, read by any thread with a message (a signal handler's
 * included), so its parts are atomics.  A read that mixes two settings
 * names no file, and the message goes to the copy. */
static _Atomic int stderr_known; /* 0 until the start: fd 2 is trusted */
static _Atomic int stderr_open;
static _Atomic dev_t stderr_dev;
static _Atomic ino_t stderr_ino;

static void set_stderr_id(struct file_id id)
{
    atomic_store_explicit(&stderr_open, id.open, memory_order_relaxed);
    atomic_store_explicit(&stderr_dev, id.dev, memory_order_relaxed);
    atomic_store_explicit(&stderr_ino, id.ino, memory_order_relaxed);
    atomic_store_explicit(&stderr_known, 1, memory_order_release);
}

static struct file_id stderr_id(void)
{
    struct file_id id = {atomic_load_explicit(&stderr_open, memory_order_relaxed),
                         atomic_load_explicit(&stderr_dev, memory_order_relaxed),
                         atomic_load_explicit(&stderr_ino, memory_order_relaxed)};
    return id;
}

static struct file_id id_of(int fd, struct stat *st)
{
    struct file_id id = {0, 0, 0};
    if (IOLENS_REAL(fstat)(fd, st) == 0) {
        id.open = 1;
        id.dev = st->st_dev;
        id.ino = st->st_ino;
    }
    return id;
}

static int same_file(struct file_id a, struct file_id b)
{
    return a.open && b.open && a.dev == b.dev && a.ino == b.ino;
}

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
    if (copy_fd >= 0)
        return;
    struct stat st;
    struct file_id id = id_of(2, &st);
    set_stderr_id(id);
    if (!id.open || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
        return;
    int fd = IOLENS_REAL(fcntl)(2, F_DUPFD_CLOEXEC, first_free_from());
    if (fd < 0)
        return;
    copy_id = id;
    copy_fd = fd;
}

void iolens_stderr_adopt(void)
{
    struct stat st;
    set_stderr_id(id_of(2, &st));
}

int iolens_stderr_fd(void)
{
    struct stat st;
    struct file_id now = id_of(2, &st);
    if (now.open && (!atomic_load_explicit(&stderr_known, memory_order_acquire) ||
                     same_file(now, stderr_id())))
        return 2;
    /* Never write to a descriptor the program has made its own since. */
    if (copy_fd >= 0 && same_file(id_of(copy_fd, &st), copy_id))
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
