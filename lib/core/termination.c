/*
 * SIGTERM (termination.h).  While the runtime traces, the real SIGTERM
 * disposition is the runtime's handler, installed with the application's
 * signal mask and flags (SA_RESTART, SA_ONSTACK, SA_NODEFER,
 * SA_RESETHAND), so that it runs exactly where the application's would.
 * The application's disposition is kept here and is what its
 * sigaction()/signal() calls report.  SIG_IGN is installed for real: an
 * ignored SIGTERM never reaches the runtime, and stays ignored across exec.
 *
 * On the first SIGTERM the handler has the log written, then runs the
 * application's handler (with the signal's siginfo and context) or the
 * default action: SIG_DFL is restored and the signal raised again, so the
 * process ends "killed by SIGTERM" as it would without iolens.
 *
 * Async-signal safety.  Writing a log allocates (malloc, zlib), and the
 * signal may have stopped this thread inside malloc, or inside the
 * runtime's bookkeeping with a record's spinlock held.  So the handler
 * writes nothing itself: it clones a snapshot copy of the process (no
 * shared memory; unlike fork() no atfork handler runs, and with no exit
 * signal the copy is invisible to the application's wait() and SIGCHLD
 * handler).  The copy has one thread: it releases every runtime lock
 * (their holders do not exist there), writes the log and exits.  The
 * handler waits for it at most IOLENS_TERM_WAIT_MS: the copy can still
 * block if the signal arrived while the allocator's lock was held; it is
 * then killed, and the application goes on without a log.  The
 * application never hangs on iolens.  The copy leaves the process group,
 * so that it finishes even if the process is killed meanwhile; while it
 * writes, other signals to the process wait (IOLENS_TERM_WAIT_MS at most).
 * clone, setpgid, waitpid, nanosleep, kill and sigaction are
 * async-signal-safe.
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

static struct sigaction app_action; /* what the application installed */
static struct iolens_termination_hooks hooks; /* from iolens_termination_init */
int iolens_termination_on;          /* iolens_termination_init ran */
static _Atomic int snapshot_taken;  /* the first SIGTERM had its log */
static _Atomic int grace_ms;        /* iolens_termination_set_grace */

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

static void on_sigterm(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    struct sigaction app = app_action;
    /* SA_RESETHAND: the kernel has just made the real disposition SIG_DFL,
     * which is what the application now has too. */
    if (app.sa_flags & SA_RESETHAND) {
        memset(&app_action, 0, sizeof app_action);
        app_action.sa_handler = SIG_DFL;
    }
    if (atomic_load(&iolens_active) && !atomic_exchange(&snapshot_taken, 1)) {
        iolens_write_log_from_copy(1);
        hold_for_grace();
    }
    run_application_action(&app, sig, info, context);
    errno = saved_errno;
}

/* --------------------------------------------------- dispositions -- */

/* Makes the real disposition the one act asks for: SIG_IGN as such,
 * anything else through the runtime's handler. */
static int install(const struct sigaction *act)
{
    if (act->sa_handler == SIG_IGN)
        return IOLENS_REAL(sigaction)(SIGTERM, act, NULL);
    struct sigaction mine;
    memset(&mine, 0, sizeof mine);
    mine.sa_sigaction = on_sigterm;
    mine.sa_mask = act->sa_mask;
    mine.sa_flags = SA_SIGINFO | (act->sa_handler == SIG_DFL ? SA_RESTART
                                                             : act->sa_flags & MIRRORED_FLAGS);
    return IOLENS_REAL(sigaction)(SIGTERM, &mine, NULL);
}

void iolens_termination_init(const struct iolens_termination_hooks *h)
{
    hooks = *h;
    struct sigaction current;
    if (IOLENS_REAL(sigaction) == NULL || IOLENS_REAL(sigaction)(SIGTERM, NULL, &current) != 0)
        return;
    app_action = current;
    if (install(&current) != 0)
        return;
    __atomic_store_n(&iolens_termination_on, 1, __ATOMIC_RELEASE);
}

int iolens_termination_sigaction(const struct sigaction *act, struct sigaction *old)
{
    /* SIGTERM is blocked while the two dispositions change, so that the
     * handler never sees them half-updated in this thread. */
    sigset_t term, saved;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, &saved);
    struct sigaction previous = app_action;
    int rc = 0;
    if (act != NULL) {
        rc = install(act);
        if (rc == 0)
            app_action = *act;
    }
    int saved_errno = errno;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    errno = saved_errno;
    if (rc == 0 && old != NULL)
        *old = previous;
    return rc;
}

__sighandler_t iolens_termination_signal(__sighandler_t handler)
{
    /* glibc's signal(): BSD semantics, the signal blocked in its handler
     * and interrupted calls restarted. */
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGTERM);
    act.sa_flags = SA_RESTART;
    if (iolens_termination_sigaction(&act, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

int iolens_termination_signalled(void)
{
    return atomic_load(&snapshot_taken);
}

void iolens_termination_on_fork_child(void)
{
    atomic_store(&snapshot_taken, 0);
}
