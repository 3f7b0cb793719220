/* The signals that end a process in normal use: SIGTERM (a batch
 * system's time limit, scancel), SIGINT (Ctrl-C; LSF's bkill sends it
 * first), SIGHUP (the terminal or the ssh session went away), SIGPIPE
 * (the reader of a pipe left: `prog | head`), SIGUSR1 and SIGUSR2
 * (Slurm's --signal; Open MPI's mpirun passes them on to the ranks) and
 * SIGALRM (alarm() with no handler, a program's own time limit): every
 * catchable signal whose default action ends the process without a core
 * dump, but the real-time ones, SIGPROF, SIGVTALRM, SIGIO, SIGPWR and
 * SIGSTKFLT, which no one sends a program that does not handle them.  At such a signal the
 * runtime writes the log of the I/O done so far, marked incomplete, then
 * the application's own disposition runs as before
 * (lib/core/termination.c).  The application's sigaction()/signal() calls
 * for them reach iolens_termination_sigaction (wrappers/signal.c). */
#ifndef IOLENS_TERMINATION_H
#define IOLENS_TERMINATION_H

#include <signal.h>

/* Longest wait for the log at a signal, in milliseconds; after it the
 * application's disposition runs without a log. */
#define IOLENS_TERM_WAIT_MS 10000 /* the message in termination.c says 10 s */

/* What a snapshot copy of the process runs to write the log: the life
 * cycle's own functions (runtime.h), handed in so that this file needs
 * nothing of it. */
struct iolens_termination_hooks {
    void (*release_locks)(void);
    int (*write_incomplete)(void);
    int (*write_final)(void);
};

/* Whether sig is one of those signals.  A plain test: wrappers/signal.c
 * calls it before any runtime is ready. */
static inline int iolens_termination_keeps(int sig)
{
    return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGPIPE ||
           sig == SIGUSR1 || sig == SIGUSR2 || sig == SIGALRM;
}

/* At start-up, once tracing is on: keeps the hooks, and takes over the
 * real dispositions of those signals, keeping the ones in force as the
 * application's. */
void iolens_termination_init(const struct iolens_termination_hooks *hooks);

/* 1 once iolens_termination_init ran: those signals' dispositions then
 * go through iolens_termination_sigaction.  Inline, a plain atomic load:
 * wrappers/signal.c calls it before any runtime is ready. */
extern int iolens_termination_on;
static inline int iolens_termination_handling(void)
{
    return __atomic_load_n(&iolens_termination_on, __ATOMIC_ACQUIRE);
}

/* Gives each of those signals the application's disposition for real,
 * where the runtime's handler stood, and stops keeping them: from then on
 * they go straight to the C library (a process entering a sandbox,
 * runtime.h). */
void iolens_termination_stop(void);

/* sigaction(sig, act, old) for one of those signals, as the application
 * sees it: old gets the application's disposition, act becomes it
 * (SIG_DFL, and a SIGTERM handler, run behind the runtime's handler;
 * anything else is installed as such).  Returns 0, or -1 with errno
 * set. */
int iolens_termination_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* signal(sig, handler) with glibc's (BSD) semantics. */
__sighandler_t iolens_termination_signal(int sig, __sighandler_t handler);

/* Has the log written by a snapshot copy of the process (see
 * termination.c), waiting for it at most IOLENS_TERM_WAIT_MS: usable where
 * writing in the process itself is not safe (a signal handler).
 * incomplete: the write_incomplete hook, else write_final. */
void iolens_write_log_from_copy(int incomplete);

/* How long, in milliseconds, a rank of a parallel job holds its death
 * after its log at a signal, before the application's disposition runs.
 * A batch system signals every rank at once, and MPICH's hydra, even with
 * -disable-auto-cleanup, was seen to kill the other ranks' process groups
 * as soon as the first one died of it: a rank whose handler had not run
 * yet, on a loaded node, died without its log (3 of 30 jobs of 4 ranks on
 * 2 busy CPUs; none of 30 with the grace).  The grace lets every rank
 * start its snapshot copy, which leaves the process group and finishes on
 * its own. */
#define IOLENS_TERM_GRACE_MS 200

/* Set by the MPI layer at MPI_Init for a job of more than one rank:
 * ms of grace (0: none, the default). */
void iolens_termination_set_grace(int ms);

/* 1 once one of those signals had its log written. */
int iolens_termination_signalled(void);

/* In a forked child: its own signals get logs of their own. */
void iolens_termination_on_fork_child(void);

#endif
