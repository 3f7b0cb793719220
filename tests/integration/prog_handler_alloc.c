/* Whether the runtime allocates in a signal handler (test_signals.sh).
 *
 * usage: prog_handler_alloc MODE FILE
 *   Writes 1000 bytes to FILE, then sends itself SIGUSR1.  MODE:
 *   handler-exit  its handler ends the process with _exit(9), the usual
 *                 way out of a handler (async-signal-safe)
 *   default       no handler: the runtime's own handler runs, then the
 *                 process ends killed by SIGUSR1
 *
 * The program replaces malloc, free, calloc and realloc (glibc routes its
 * own calls through them too) and, from the moment it sends the signal,
 * ends at once with exit status 5 if this process allocates or frees: a
 * handler interrupting malloc would deadlock or corrupt the heap there.
 * The runtime's snapshot copy of the process, another process that may
 * allocate, is told apart by its pid. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void __libc_free(void *p);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static volatile sig_atomic_t watching;
static pid_t watched_pid;

static void check(void)
{
    static const char msg[] = "prog_handler_alloc: allocation on the signal's path\n";
    if (watching && syscall(SYS_getpid) == watched_pid) {
        (void)!write(2, msg, sizeof msg - 1);
        syscall(SYS_exit_group, 5);
    }
}

void *malloc(size_t size)
{
    check();
    return __libc_malloc(size);
}

void free(void *p)
{
    check();
    __libc_free(p);
}

void *calloc(size_t n, size_t size)
{
    check();
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    check();
    return __libc_realloc(p, size);
}

static void on_usr1(int sig)
{
    (void)sig;
    _exit(9);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int fd = open(argv[2], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    char block[1000];
    memset(block, 'a', sizeof block);
    if (fd < 0 || write(fd, block, sizeof block) != (ssize_t)sizeof block)
        return 3;
    if (strcmp(argv[1], "handler-exit") == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_usr1;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGUSR1, &sa, NULL) != 0)
            return 4;
    } else if (strcmp(argv[1], "default") != 0) {
        return 2;
    }
    watched_pid = (pid_t)syscall(SYS_getpid);
    watching = 1;
    kill(watched_pid, SIGUSR1);
    watching = 0;
    return 6; /* the signal must have ended the process */
}
