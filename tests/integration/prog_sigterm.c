/* A process that gets SIGTERM after doing some I/O (test_sigterm.sh).
 *
 * usage: prog_sigterm MODE FILE
 *   Writes 3 x 1000 bytes to FILE, then sends itself SIGTERM.  MODE:
 *   default      no handler: the process ends killed by SIGTERM
 *   handler-exit a sigaction (SA_SIGINFO) handler that _exit(9)s
 *   signal-exit  a signal() handler that _exit(11)s
 *   handler-back a handler that returns; the program then writes 500
 *                more bytes and exits 7
 *   ignored      SIGTERM ignored before the program started (the test
 *                runs it under trap '' TERM): the program goes on and
 *                exits 5
 *   threads      like default, while 4 threads make 0-byte preads on
 *                FILE as fast as they can (runtime locks busy at the signal)
 *   wait         like default, but waits for a SIGTERM from outside
 *                (after printing "ready")
 * Before and after installing its handler the program checks that
 * sigaction() reports what it installed (not iolens's handler); any
 * mismatch is printed and makes it exit 1. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static volatile sig_atomic_t stop_threads;
static int fd;

static void fail(const char *what)
{
    fprintf(stderr, "prog_sigterm: %s\n", what);
    exit(1);
}

static void on_term_info(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (sig != SIGTERM || info == NULL || info->si_signo != SIGTERM || info->si_pid != getpid())
        _exit(3); /* the handler must get the signal's own siginfo */
    _exit(9);
}

static void on_term_plain(int sig)
{
    _exit(sig == SIGTERM ? 11 : 3);
}

static void on_term_back(int sig)
{
    handled = sig;
}

static __sighandler_t current_handler(void)
{
    struct sigaction now;
    if (sigaction(SIGTERM, NULL, &now) != 0)
        fail("sigaction query failed");
    return now.sa_handler;
}

static void install_info_handler(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_term_info;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTERM, &sa, &old) != 0 || old.sa_handler != SIG_DFL)
        fail("sigaction did not report SIG_DFL as the old disposition");
    struct sigaction now;
    if (sigaction(SIGTERM, NULL, &now) != 0 || now.sa_sigaction != on_term_info ||
        !(now.sa_flags & SA_SIGINFO))
        fail("sigaction does not report the installed handler");
}

static void *busy_reader(void *arg)
{
    char c;
    while (!stop_threads)
        if (pread(fd, &c, 0, 0) != 0)
            return arg;
    return NULL;
}

static void start_threads(void)
{
    pthread_t tid;
    for (int i = 0; i < 4; i++)
        if (pthread_create(&tid, NULL, busy_reader, NULL) != 0)
            fail("pthread_create");
    usleep(20000); /* the readers are running */
}

static void write_block(size_t n)
{
    static char buf[1000];
    memset(buf, 's', sizeof buf);
    if (write(fd, buf, n) != (ssize_t)n)
        fail("write");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODE FILE\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    fd = open(argv[2], O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0)
        fail("open");
    int ignored = strcmp(mode, "ignored") == 0;
    if (current_handler() != (ignored ? SIG_IGN : SIG_DFL))
        fail("the initial disposition is not the one inherited");
    if (strcmp(mode, "handler-exit") == 0)
        install_info_handler();
    else if (strcmp(mode, "signal-exit") == 0) {
        if (signal(SIGTERM, on_term_plain) != SIG_DFL || current_handler() != on_term_plain)
            fail("signal() does not report the dispositions");
    } else if (strcmp(mode, "handler-back") == 0) {
        if (signal(SIGTERM, on_term_back) == SIG_ERR)
            fail("signal");
    } else if (strcmp(mode, "threads") == 0)
        start_threads();
    for (int i = 0; i < 3; i++)
        write_block(1000);
    if (strcmp(mode, "wait") == 0) {
        printf("ready\n");
        fflush(stdout);
        for (;;)
            pause();
    }
    kill(getpid(), SIGTERM);
    if (strcmp(mode, "handler-back") == 0) {
        if (handled != SIGTERM)
            fail("the handler did not run");
        write_block(500);
        printf("handled\n");
        return 7;
    }
    if (ignored) {
        printf("ignored\n");
        return 5;
    }
    sleep(5); /* the signal is pending; it must not get here */
    fail("still running after SIGTERM");
}
