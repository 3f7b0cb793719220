/* A process that gets a terminating signal after doing some I/O
 * (test_sigterm.sh, test_signals.sh).
 *
 * usage: prog_sigterm MODE FILE [SIGNAL]
 *   Writes 3 x 1000 bytes to FILE, then sends itself SIGNAL: TERM (the
 *   default), INT, HUP, PIPE, USR1, USR2 or ALRM (PIPE as a write to a pipe whose reader is
 *   gone raises it, from inside write()).  Below, SIGTERM stands for it.
 *   MODE:
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
 *   after-term   (SIGNAL not TERM) a SIGTERM handler that returns, then
 *                500 more bytes, then the signal with no handler
 *   wait         like default, but waits for a SIGTERM from outside
 *                (after printing "ready"); for SIGINT it first sets
 *                SIG_DFL, which a shell's background job does not start
 *                with
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
static int sig_used = SIGTERM;

static int signal_named(const char *name)
{
    static const struct {
        const char *name;
        int sig;
    } names[] = {{"TERM", SIGTERM}, {"INT", SIGINT},   {"HUP", SIGHUP},   {"PIPE", SIGPIPE},
                 {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"ALRM", SIGALRM}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].sig;
    return 0;
}

/* SIGPIPE as it comes in real programs: a write to a pipe nobody reads. */
static void raise_signal(void)
{
    if (sig_used != SIGPIPE) {
        kill(getpid(), sig_used);
        return;
    }
    int p[2];
    if (pipe(p) != 0)
        return;
    close(p[0]);
    char c = 'p';
    if (write(p[1], &c, 1) != -1)
        return;
    close(p[1]);
}

static void fail(const char *what)
{
    fprintf(stderr, "prog_sigterm: %s\n", what);
    exit(1);
}

static void on_term_info(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (sig != sig_used || info == NULL || info->si_signo != sig_used ||
        (sig_used != SIGPIPE && info->si_pid != getpid()))
        _exit(3); /* the handler must get the signal's own siginfo */
    _exit(9);
}

static void on_term_plain(int sig)
{
    _exit(sig == sig_used ? 11 : 3);
}

static void on_term_back(int sig)
{
    handled = sig;
}

static __sighandler_t current_handler(void)
{
    struct sigaction now;
    if (sigaction(sig_used, NULL, &now) != 0)
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
    if (sigaction(sig_used, &sa, &old) != 0 || old.sa_handler != SIG_DFL)
        fail("sigaction did not report SIG_DFL as the old disposition");
    struct sigaction now;
    if (sigaction(sig_used, NULL, &now) != 0 || now.sa_sigaction != on_term_info ||
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
    if (argc < 3 || argc > 4 || (argc == 4 && (sig_used = signal_named(argv[3])) == 0)) {
        fprintf(stderr, "usage: %s MODE FILE [TERM|INT|HUP|PIPE|USR1|USR2|ALRM]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    fd = open(argv[2], O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0)
        fail("open");
    int ignored = strcmp(mode, "ignored") == 0;
    /* A background job of a shell without job control starts with SIGINT
     * ignored; a program waiting to be interrupted asks for it back. */
    if (strcmp(mode, "wait") == 0 && sig_used == SIGINT && signal(SIGINT, SIG_DFL) == SIG_ERR)
        fail("signal(SIGINT, SIG_DFL)");
    if (current_handler() != (ignored ? SIG_IGN : SIG_DFL))
        fail("the initial disposition is not the one inherited");
    if (strcmp(mode, "handler-exit") == 0)
        install_info_handler();
    else if (strcmp(mode, "signal-exit") == 0) {
        if (signal(sig_used, on_term_plain) != SIG_DFL || current_handler() != on_term_plain)
            fail("signal() does not report the dispositions");
    } else if (strcmp(mode, "handler-back") == 0) {
        if (signal(sig_used, on_term_back) == SIG_ERR)
            fail("signal");
    } else if (strcmp(mode, "threads") == 0)
        start_threads();
    else if (strcmp(mode, "after-term") == 0) {
        if (sig_used == SIGTERM || signal(SIGTERM, on_term_back) == SIG_ERR)
            fail("after-term needs a signal other than TERM");
    }
    for (int i = 0; i < 3; i++)
        write_block(1000);
    if (strcmp(mode, "wait") == 0) {
        printf("ready\n");
        fflush(stdout);
        for (;;)
            pause();
    }
    if (strcmp(mode, "after-term") == 0) {
        kill(getpid(), SIGTERM);
        if (handled != SIGTERM)
            fail("the SIGTERM handler did not run");
        write_block(500);
    }
    raise_signal();
    if (strcmp(mode, "handler-back") == 0) {
        if (handled != sig_used)
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
