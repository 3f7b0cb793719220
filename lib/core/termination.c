/*
 * The signals that end a process in normal use (termination.h).  While the
 * runtime traces, the real disposition of each is the runtime's handler
 * whenever it is to write a log at the signal: for SIGTERM unless the
 * application ignores it, for the others only while the application
 * leaves them at SIG_DFL.  The handler is installed with the
 * application's signal mask and flags (SA_RESTART, SA_ONSTACK,
 * SA_NODEFER, SA_RESETHAND), so that it runs exactly where the
 * application's would.  The application's disposition is kept here and is
 * what its sigaction()/signal() calls report while the runtime's handler
 * is installed; anything else (SIG_IGN, and the application's own handler
 * for the others) is installed as such: an ignored signal never reaches
 * the runtime and stays ignored across exec, and a program that catches
 * Ctrl-C runs its own handler with nothing of iolens's in between.
 *
 * The handler has the log written, then runs the application's handler
 * (with the signal's siginfo and context) or the default action: SIG_DFL
 * is restored and the signal raised again, so the process ends "killed by
 * SIGINT" (or the rest) as it would without iolens.  A SIGTERM that the
 * application handles has its log only the first time (a program that
 * goes on may get many); a signal that ends the process always gets one,
 * fresher than any an earlier SIGTERM left.
 *
 * Async-signal safety.  Writing a log allocates (malloc, zlib), and the
 * signal may have stopped this thread inside malloc, or inside the
 * runtime's bookkeeping with a record's spinlock held (SIGPIPE comes
 * inside a traced write, as its system call returns).  So the handler writes nothing itself:
 * it clones a snapshot copy of the process (no shared memory; unlike
 * fork() no atfork handler runs, and with no exit signal the copy is
 * invisible to the application's wait() and SIGCHLD handler).  The copy
 * has one thread: it releases every runtime lock (their holders do not
 * exist there), writes the log and exits.  The handler waits for it at
 * most IOLENS_TERM_WAIT_MS: the copy can still block if the signal
 * arrived while the allocator's lock was held; it is then killed, and the
 * application goes on without a log.  The application never hangs on
 * iolens.  The copy leaves the process group, so that it finishes even if
 * the process is killed meanwhile; while it writes, other signals to the
 * process wait (IOLENS_TERM_WAIT_MS at most).  clone, setpgid, waitpid,
 * nanosleep, kill and sigaction are async-signal-safe.
 */
#include "core/termination.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/real_calls.h"
#include "core/stderr_copy.h"
#include "core/state.h"

#define TICK_NS 1000000L /* 1 ms between looks at the snapshot copy */

/* The flags of the application's disposition that the runtime's handler
 * takes over, so that interrupted calls and stacks behave as they would. */
#define MIRRORED_FLAGS (SA_RESTART | SA_ONSTACK | SA_NODEFER | SA_RESETHAND)

/* The signals, in the order of app_actions. */
static const int kept_signals[] = {SIGTERM, SIGINT,  SIGHUP,
                                   SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM};
#define N_KEPT (sizeof kept_signals / sizeof kept_signals[0])

/* What the application installed for each (read only while the
 * runtime's handler is the real disposition). */
static struct sigaction app_actions[N_KEPT];
static struct iolens_termination_hooks hooks; /* from iolens_termination_init */
int iolens_termination_on;          /* iolens_termination_init ran */
static _Atomic int grace_ms;        /* iolens_termination_set_grace */

/* Which log a signal has had: none yet, one at a SIGTERM the application
 * handled (it may have gone on), or one at a signal that ends the
 * process (no other is written after it). */
enum snapshot_state { SNAPSHOT_NONE, SNAPSHOT_HANDLED, SNAPSHOT_ENDING };
static _Atomic int snapshot_state;

/* ------------------------------------------------------ the snapshot -- */

/* In the copy: one thread, which writes the log and leaves.  It inherits
 * the mask with every signal blocked, so none of the application's
 * handlers runs in it. */
static void snapshot_copy_main(int incomplete)
{
    /* Out of the process group: a launcher that kills the whole group of
     * a rank (MPICH's hydra does, once one rank has died) ends the rank
     * but not its log. */
    setpgid(0, 0);
    if (hooks.write_final == NULL) /* cannot happen: init comes first */
        syscall(SYS_exit_group, 1);
    hooks.release_locks();
    int rc = incomplete ? hooks.write_incomplete() : hooks.write_final();
    syscall(SYS_exit_group, rc == 0 ? 0 : 1);
}

/* Waits for the copy, at most IOLENS_TERM_WAIT_MS; kills it after that. */
static int wait_for_copy(pid_t pid)
{
    const struct timespec tick = {0, TICK_NS};
    int status;
    for (long waited = 0; waited < IOLENS_TERM_WAIT_MS * (1000000L / TICK_NS); waited++) {
        pid_t r = waitpid(pid, &status, __WALL | WNOHANG);
        if (r == pid)
            return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
        if (r < 0 && errno != EINTR)
            return -1;
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
        ;
    iolens_real_say("iolens: log abandoned: writing it took longer than the limit (10 s)\n");
    return -1;
}

/* Every other catchable signal waits until the log is written (at most
 * IOLENS_TERM_WAIT_MS): an MPI launcher, seeing one rank end, signals the
 * others (MPICH's hydra sends SIGUSR1, whose default action would end a
 * rank in the middle of its log). */
void iolens_write_log_from_copy(int incomplete)
{
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    /* Flags 0: a copy of the memory (no CLONE_VM) and no exit signal. */
    long pid = syscall(SYS_clone, 0UL, NULL, NULL, NULL, NULL);
    if (pid == 0)
        snapshot_copy_main(incomplete); /* does not return */
    if (pid > 0) {
        /* The copy leaves the process group itself, but on a loaded node it
         * may not run for milliseconds, while a launcher kills the group:
         * this process, running now, moves it out at once (whichever call
         * comes second changes nothing). */
        setpgid((pid_t)pid, (pid_t)pid);
        wait_for_copy((pid_t)pid);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

void iolens_termination_set_grace(int ms)
{
    atomic_store(&grace_ms, ms > 0 ? ms : 0);
}

/* The grace of a rank of a parallel job (termination.h), slept in the
 * handler (nanosleep is async-signal-safe; an interrupted sleep goes on
 * for what is left). */
static void hold_for_grace(void)
{
    int ms = atomic_load(&grace_ms);
    struct timespec left = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
}

/* ------------------------------------------------- the handler chain -- */

static void run_application_action(const struct sigaction *app, int sig, siginfo_t *info,
                                   void *context)
{
    if (app->sa_handler == SIG_IGN)
        return;
    if (app->sa_handler == SIG_DFL) {
        /* The default action, as without iolens: the signal is blocked in
         * this handler (unless SA_NODEFER), so it is delivered, and ends
         * the process, once the handler returns. */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        IOLENS_REAL(sigaction)(sig, &dfl, NULL);
        raise(sig);
        return;
    }
    if (app->sa_flags & SA_SIGINFO)
        app->sa_sigaction(sig, info, context);
    else
        app->sa_handler(sig);
}

/* Whether this signal, with the application's disposition app, is to
 * have its log written now (see the top of this file). */
static int log_wanted_at(const struct sigaction *app)
{
    if (!atomic_load(&iolens_active))
        return 0;
    if (app->sa_handler == SIG_DFL)
        return atomic_exchange(&snapshot_state, SNAPSHOT_ENDING) != SNAPSHOT_ENDING;
    int none = SNAPSHOT_NONE;
    return atomic_compare_exchange_strong(&snapshot_state, &none, SNAPSHOT_HANDLED);
}

/* sig's place in kept_signals (sig is one of them). */
static size_t slot_of(int sig)
{
    size_t i = 0;
    while (i < N_KEPT - 1 && kept_signals[i] != sig)
        i++;
    return i;
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    size_t i = slot_of(sig);
    struct sigaction app = app_actions[i];
    /* SA_RESETHAND: the kernel has just made the real disposition SIG_DFL,
     * which is what the application now has too. */
    if (app.sa_flags & SA_RESETHAND) {
        memset(&app_actions[i], 0, sizeof app_actions[i]);
        app_actions[i].sa_handler = SIG_DFL;
    }
    /* A vfork child (core/state.h) runs on its parent's memory: a log
     * now would be its parent's, and would use up the parent's own. */
    if (!iolens_in_vfork_child() && log_wanted_at(&app)) {
        iolens_write_log_from_copy(1);
        hold_for_grace();
    }
    run_application_action(&app, sig, info, context);
    errno = saved_errno;
}

/* --------------------------------------------------- dispositions -- */

/* Whether the runtime's handler stands for act: SIG_DFL, and for SIGTERM
 * the application's handlers too. */
static int handled_by_runtime(int sig, const struct sigaction *act)
{
    if (act->sa_handler == SIG_IGN)
        return 0;
    return act->sa_handler == SIG_DFL || sig == SIGTERM;
}

/* Makes the real disposition of sig the one act asks for: the runtime's
 * handler where it stands for act, else act itself. */
static int install(int sig, const struct sigaction *act)
{
    if (!handled_by_runtime(sig, act))
        return IOLENS_REAL(sigaction)(sig, act, NULL);
    struct sigaction mine;
    memset(&mine, 0, sizeof mine);
    mine.sa_sigaction = on_signal;
    mine.sa_mask = act->sa_mask;
    mine.sa_flags = SA_SIGINFO | (act->sa_handler == SIG_DFL ? SA_RESTART
                                                             : act->sa_flags & MIRRORED_FLAGS);
    return IOLENS_REAL(sigaction)(sig, &mine, NULL);
}

static int is_runtime_handler(const struct sigaction *real)
{
    return (real->sa_flags & SA_SIGINFO) && real->sa_sigaction == on_signal;
}

void iolens_termination_init(const struct iolens_termination_hooks *h)
{
    hooks = *h;
    if (IOLENS_REAL(sigaction) == NULL)
        return;
    for (size_t i = 0; i < N_KEPT; i++) {
        struct sigaction current;
        if (IOLENS_REAL(sigaction)(kept_signals[i], NULL, &current) != 0)
            return;
        app_actions[i] = current;
        if (install(kept_signals[i], &current) != 0)
            return;
    }
    __atomic_store_n(&iolens_termination_on, 1, __ATOMIC_RELEASE);
}

void iolens_termination_stop(void)
{
    if (!iolens_termination_handling() || IOLENS_REAL(sigaction) == NULL)
        return;
    /* Off first: a disposition the application sets from now on is real
     * at once, and is not the runtime's handler below. */
    __atomic_store_n(&iolens_termination_on, 0, __ATOMIC_RELEASE);
    for (size_t i = 0; i < N_KEPT; i++) {
        struct sigaction current;
        if (IOLENS_REAL(sigaction)(kept_signals[i], NULL, &current) == 0 &&
            is_runtime_handler(&current))
            IOLENS_REAL(sigaction)(kept_signals[i], &app_actions[i], NULL);
    }
}

int iolens_termination_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    /* sig is blocked while the two dispositions change, so that the
     * handler never sees them half-updated in this thread. */
    sigset_t one, saved;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_BLOCK, &one, &saved);
    size_t i = slot_of(sig);
    /* What the application has: the real disposition unless it is the
     * runtime's handler (so that what the kernel reports, and what a
     * call that bypassed these wrappers set, shows as it is). */
    struct sigaction previous;
    int rc = IOLENS_REAL(sigaction)(sig, NULL, &previous);
    if (rc == 0 && is_runtime_handler(&previous))
        previous = app_actions[i];
    if (rc == 0 && act != NULL) {
        rc = install(sig, act);
        if (rc == 0)
            app_actions[i] = *act;
    }
    int saved_errno = errno;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    errno = saved_errno;
    if (rc == 0 && old != NULL)
        *old = previous;
    return rc;
}

__sighandler_t iolens_termination_signal(int sig, __sighandler_t handler)
{
    /* glibc's signal(): BSD semantics, the signal blocked in its handler
     * and interrupted calls restarted. */
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, sig);
    act.sa_flags = SA_RESTART;
    if (iolens_termination_sigaction(sig, &act, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

int iolens_termination_signalled(void)
{
    return atomic_load(&snapshot_state) != SNAPSHOT_NONE;
}

void iolens_termination_on_fork_child(void)
{
    atomic_store(&snapshot_state, SNAPSHOT_NONE);
}
