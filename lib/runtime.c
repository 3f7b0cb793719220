/* Life cycle of the runtime in one process: start-up (library
 * constructor, or the first intercepted call if that comes earlier),
 * fork, and the log written at exit. */
#include "runtime.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "core/budget.h"
#include "core/call_site.h"
#include "core/clock.h"
#include "core/fd_table.h"
#include "core/file_table.h"
#include "log/jobinfo.h"
#include "layers/layer_intervals.h"
#include "log/log_place.h"
#include "log/log_writer.h"
#include "core/mounts.h"
#include "layers/layer_ops.h"
#include "core/real_calls.h"
#include "core/stderr_copy.h"
#include "core/termination.h"
#include "iolens/text_escape.h"
#ifdef IOLENS_HAVE_MPI
#include "mpi/mpi_runtime.h"
#endif

enum init_state { INIT_NOT_STARTED, INIT_RUNNING, INIT_DONE };
static _Atomic int init_state;

/* The runtime's only messages: one line each, straight to fd 2. */
static void say(const char *what)
{
    char line[512];
    if (snprintf(line, sizeof line, "iolens: %s\n", what) > 0)
        iolens_real_say(line); /* cut short by snprintf if too long */
}

/* secure_getenv: nothing in a secure-execution process (setuid, setgid,
 * file capabilities), which is not traced anyway (secure_execution). */
static const char *getenv_adapter(const char *name)
{
    return secure_getenv(name);
}

/* A setuid or setgid program (AT_SECURE) runs with rights its user does
 * not have: its environment is the user's to choose, so no IOLENS_*
 * variable may steer what it writes where.  It is not traced at all, and
 * says nothing (man iolens(7), SECURITY). */
static int secure_execution(void)
{
    return getauxval(AT_SECURE) != 0;
}

/* A forked child traces its own I/O from the fork on and writes its own
 * log, which names the parent. */
static void on_fork_child(void)
{
#ifdef IOLENS_HAVE_MPI
    iolens_mpi_on_fork_child();
#endif
    if (!atomic_load(&iolens_active))
        return;
    iolens_state_set_identity((long)getpid(), (long)getppid());
    iolens_log_token_renew(); /* the child's log name is its own */
    /* Another thread of the parent may have held any runtime lock at the
     * fork: released here, before the child's first traced call.  The
     * fd table stays (the child inherits the descriptors); the counters
     * start afresh. */
    iolens_runtime_release_locks();
    iolens_termination_on_fork_child();
    iolens_clock_init();
    iolens_layers_reset();
    iolens_intervals_reset();
    iolens_file_forget_folded();
}

/* quick_exit() runs the at_quick_exit handlers, then ends as _exit does,
 * without the destructors.  Registered once tracing starts, before the
 * program's own handlers, so it runs after them and the log has their
 * I/O too. */
static void on_quick_exit(void)
{
    iolens_runtime_on_immediate_exit();
}

/* A process's log is written once every library's destructor has run:
 * libgfortran's writes out what the units a program left open still
 * buffer (Fortran needs no CLOSE), a C++ library's static destructors may
 * write, and the loader calls all of them after libiolens's own
 * destructor.  An exit handler registered with no library handle before
 * the loader's own (which calls the destructors), as from a library's
 * constructor, runs after it.  stdio's buffers are written later still;
 * the STDIO layer counted those bytes when the program wrote them into
 * the buffer.  Registered
 * from MPI_Init instead (an MPI library loaded late), it runs before the
 * destructors, as the destructor would.  If it cannot be registered, the
 * destructor writes the log. */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso_handle);
static int exit_handler_registered;

static void on_exit_after_destructors(void *unused)
{
    (void)unused;
    iolens_runtime_shutdown();
}

static int build_state(void)
{
    size_t memory = iolens_runtime_config()->memory;
    iolens_clock_init();
    iolens_state_set_identity((long)getpid(), 0);
    iolens_log_token_renew();
    if (iolens_budget_init(memory) != 0) {
        say("cannot map the memory budget; tracing disabled");
        return -1;
    }
    iolens_mounts_load();
    if (iolens_file_table_init_for_budget() != 0 ||
        iolens_fd_table_init() != 0) {
        say("memory budget too small for the record table; tracing disabled");
        return -1;
    }
    iolens_intervals_init(memory);
    iolens_layers_init();
    iolens_jobinfo_capture();
    char hostname[256] = "";
    if (gethostname(hostname, sizeof hostname - 1) != 0)
        strcpy(hostname, "unknown");
    iolens_state_set_hostname(hostname);
    pthread_atfork(NULL, NULL, on_fork_child);
    at_quick_exit(on_quick_exit);
    exit_handler_registered = __cxa_atexit(on_exit_after_destructors, NULL, NULL) == 0;
    return 0;
}

/* An MPI program (libmpi loaded) is traced from its start: its log is
 * written at MPI_Finalize, and I/O before MPI_Init belongs to the rank.
 * Any other process (mpiexec, a shell, ls) only with IOLENS_NONMPI=1. */
static int tracing_wanted(void)
{
    if (iolens_runtime_config()->disabled)
        return 0;
    if (iolens_runtime_config()->nonmpi)
        return 1;
#ifdef IOLENS_HAVE_MPI
    return iolens_mpi_program_detected();
#else
    return 0;
#endif
}

/* At exit: a per-process log for a non-MPI process, or an MPI program that
 * never called MPI_Init when IOLENS_NONMPI=1.  An MPI program that called
 * MPI_Init has the job's log, written at MPI_Finalize (or none if it never
 * got there).  A child a rank forked has its own, as a non-MPI process's
 * forked child does: what it did (a checkpoint written in the background,
 * say) is in no rank's records. */
static int per_process_log_wanted(void)
{
#ifdef IOLENS_HAVE_MPI
    if (iolens_mpi_init_seen())
        return iolens_mpi_forked_from_rank();
    /* IOLENS_NONMPI first: the detection looks MPI's symbols up until it
     * finds them (dlsym, which allocates), and this runs in _exit, which a
     * signal handler may call.  With IOLENS_NONMPI=1 the answer does not
     * depend on it; without, a traced process is one whose MPI library
     * was found already, and the detection only reads that. */
    if (iolens_runtime_config()->nonmpi)
        return 1;
    return !iolens_mpi_program_detected();
#endif
    return 1;
}

/* The process was not traced at its start for want of an MPI library:
 * MPI_Init may still start it (iolens_runtime_start_at_mpi_init). */
static _Atomic int waiting_for_mpi;

static void start_tracing(void)
{
    /* Only a traced process has messages to give, and a copy to keep. */
    iolens_stderr_copy_take();
    /* Every rank reads the same environment: one line for the job, from
     * the launcher's rank 0 (or the process a launcher did not number). */
    const char *problem = iolens_runtime_config()->error;
    if (problem[0] != '\0' && iolens_jobinfo_launcher_rank() <= 0)
        say(problem);
    if (build_state() == 0) {
        atomic_store(&iolens_active, 1);
        static const struct iolens_termination_hooks hooks = {
            iolens_runtime_release_locks, iolens_runtime_write_incomplete,
            iolens_runtime_write_final};
        iolens_termination_init(&hooks);
    }
}

static void initialize(void)
{
    iolens_real_calls_resolve();
    if (secure_execution()) {
        iolens_state_config()->disabled = 1;
        return;
    }
    char cwd[PATH_MAX];
    iolens_config_load(iolens_state_config(), getenv_adapter, getcwd(cwd, sizeof cwd));
    iolens_layers_off = iolens_runtime_config()->layers_off;
    iolens_sites_on = !iolens_runtime_config()->sites_off;
    /* A process that is not traced is left alone entirely: no budget, no
     * log. */
    if (tracing_wanted())
        start_tracing();
    else
        atomic_store(&waiting_for_mpi, !iolens_runtime_config()->disabled);
}

void iolens_runtime_start_at_mpi_init(void)
{
    iolens_runtime_ensure_init();
    if (!atomic_exchange(&waiting_for_mpi, 0))
        return;
    int saved = iolens_in_runtime;
    iolens_in_runtime = 1;
    start_tracing();
    iolens_in_runtime = saved;
}

void iolens_runtime_ensure_init(void)
{
    int expected = INIT_NOT_STARTED;
    if (!atomic_compare_exchange_strong(&init_state, &expected, INIT_RUNNING))
        return; /* done, or running in this or another thread: not traced yet */
    iolens_in_runtime = 1;
    initialize();
    iolens_in_runtime = 0;
    atomic_store(&init_state, INIT_DONE);
}

void iolens_runtime_release_locks(void)
{
    iolens_fd_table_release_locks();
    iolens_intervals_release_locks();
    iolens_layers_release_locks();
}

/* A live MPI rank (MPI_Init seen, MPI_Finalize not) cannot take part in a
 * job log at an abnormal ending: it writes its own, named after its rank. */
static int live_mpi_rank(void)
{
#ifdef IOLENS_HAVE_MPI
    return iolens_mpi_initialized();
#else
    return 0;
#endif
}

/* A process's own log, with flags: at the usual place, or, for a child a
 * rank forked, beside the job's log as "<job log>.rank<N>.pid<P>.iolens",
 * so that it is read with the job's.  One name whether complete or not:
 * written at a signal and again at exit (Python's Pool ends its workers
 * with SIGTERM as they exit), the later replaces the earlier in the log
 * directory, as a non-MPI process's does, and no count is read twice. */
static int write_own_log(uint64_t flags, char *path_out, size_t path_outsz)
{
    char suffix[96];
    const char *name_suffix = NULL, *base_path = NULL;
#ifdef IOLENS_HAVE_MPI
    if (iolens_mpi_forked_from_rank() && iolens_mpi_job_log_path() != NULL) {
        snprintf(suffix, sizeof suffix, ".rank%d.pid%ld.iolens", iolens_mpi_rank(),
                 iolens_runtime_pid());
        name_suffix = suffix;
        base_path = iolens_mpi_job_log_path();
    }
#endif
    return iolens_log_write_process(flags, base_path, name_suffix, path_out, path_outsz);
}

/* The incomplete log; the path written goes to path_out (may be NULL). */
static int write_incomplete_to(char *path_out, size_t path_outsz)
{
    int saved_guard = iolens_in_runtime;
    int rc = -1;
    if (live_mpi_rank()) {
#ifdef IOLENS_HAVE_MPI
        char suffix[64];
        snprintf(suffix, sizeof suffix, ".rank%d.incomplete.iolens", iolens_mpi_rank());
        iolens_in_runtime = 1;
        rc = iolens_log_write_process(IOLENS_FLAG_INCOMPLETE, iolens_mpi_job_log_path(), suffix,
                                      path_out, path_outsz);
#endif
    } else if (per_process_log_wanted()) {
        iolens_in_runtime = 1;
        rc = write_own_log(IOLENS_FLAG_INCOMPLETE, path_out, path_outsz);
    }
    iolens_in_runtime = saved_guard;
    return rc;
}

int iolens_runtime_write_incomplete(void)
{
    return write_incomplete_to(NULL, 0);
}

/* Rank 0 ends through exit() without MPI_Finalize: the job gets no log
 * of its own, which the user is told, once (iolens(7), MPI JOBS). */
static void rank_exit_without_finalize(void)
{
    char path[PATH_MAX] = "";
    int rc = write_incomplete_to(path, sizeof path);
#ifdef IOLENS_HAVE_MPI
    if (iolens_mpi_rank() != 0)
        return;
    char line[PATH_MAX + 160], shown[PATH_MAX];
    iolens_escape_text(shown, sizeof shown, path, strlen(path));
    if (rc == 0)
        snprintf(line, sizeof line,
                 "iolens: rank 0 exited without MPI_Finalize: no job log; each rank that "
                 "ended so wrote its own incomplete log, like %s\n",
                 shown);
    else
        snprintf(line, sizeof line, "iolens: rank 0 exited without MPI_Finalize: no job log\n");
    iolens_real_say(line);
#else
    (void)rc;
#endif
}

int iolens_runtime_write_final(void)
{
    if (live_mpi_rank())
        return iolens_runtime_write_incomplete();
    if (!per_process_log_wanted())
        return -1;
    int saved_guard = iolens_in_runtime;
    iolens_in_runtime = 1;
    int rc = write_own_log(0, NULL, 0);
    iolens_in_runtime = saved_guard;
    return rc;
}

void iolens_runtime_on_immediate_exit(void)
{
    /* A vfork child runs in its parent's memory (no atfork handler ran,
     * so the pid differs from the one cached): hands off. */
    if (!atomic_load(&iolens_active) || (long)getpid() != iolens_runtime_pid())
        return;
    if (!live_mpi_rank() && !per_process_log_wanted()) {
        /* No log of its own: an MPI program that ends without having
         * called MPI_Init, which only IOLENS_NONMPI=1 asks to trace. */
        atomic_store(&iolens_active, 0);
        return;
    }
    /* After a signal's log (a SIGTERM handler that ends with _exit) the
     * log stays marked incomplete, with what the handler did too. */
    iolens_write_log_from_copy(live_mpi_rank() || iolens_termination_signalled());
    atomic_store(&iolens_active, 0);
}

void iolens_runtime_on_sandbox(void)
{
    if (!atomic_load(&iolens_active) || iolens_in_vfork_child() ||
        (long)getpid() != iolens_runtime_pid() || live_mpi_rank() || !per_process_log_wanted())
        return;
    say("the program enters a seccomp sandbox: tracing stops here and no log is written "
        "(the sandbox may forbid the system calls that write it)");
    atomic_store(&iolens_active, 0);
    iolens_termination_stop();
}

/* An exec that would fail with one of these errors needs no log (a shell
 * tries each directory of PATH in turn). */
static int exec_surely_fails(const char *path)
{
    if (path == NULL)
        return 0;
    if (access(path, X_OK) == 0)
        return 0;
    return errno == ENOENT || errno == ENOTDIR || errno == EACCES;
}

void iolens_runtime_before_exec(const char *path, char *path_out, size_t path_outsz)
{
    path_out[0] = '\0';
    if (!atomic_load(&iolens_active) || (long)getpid() != iolens_runtime_pid())
        return;
    if (live_mpi_rank() || !per_process_log_wanted())
        return;
    int saved_errno = errno;
    /* A shell's forked child that only execs a command did nothing worth
     * a log of its own; one that opened a redirection did. */
    if (!exec_surely_fails(path) && iolens_layers_any_activity())
        write_own_log(IOLENS_FLAG_EXEC, path_out, path_outsz);
    errno = saved_errno;
}

void iolens_runtime_exec_failed(const char *log_path)
{
    if (log_path[0] == '\0')
        return;
    int saved_errno = errno;
    IOLENS_REAL(unlink)(log_path);
    errno = saved_errno;
}

void iolens_runtime_shutdown(void)
{
    /* Not traced, or no longer (a sandboxed process): not even getpid. */
    if (!atomic_load(&iolens_active))
        return;
    /* A vfork child that calls exit() (after an exec that failed, say)
     * runs the process's exit handlers, this one included, on its
     * parent's memory, and glibc does not run them again when the parent
     * exits.  So the log is written now, with what the parent did until
     * the vfork, marked incomplete, and tracing ends (iolens(7)). */
    if ((long)getpid() != iolens_runtime_pid()) {
        if (atomic_exchange(&iolens_active, 0))
            write_incomplete_to(NULL, 0);
        return;
    }
    /* exit() without MPI_Finalize: the rank's data alone, incomplete. */
    if (live_mpi_rank() && atomic_exchange(&iolens_active, 0)) {
        rank_exit_without_finalize();
        return;
    }
    if (!atomic_exchange(&iolens_active, 0) || !per_process_log_wanted())
        return;
    iolens_in_runtime = 1;
    write_own_log(0, NULL, 0);
    iolens_in_runtime = 0;
}

__attribute__((constructor)) static void iolens_runtime_constructor(void)
{
    iolens_runtime_ensure_init();
}

__attribute__((destructor)) static void iolens_runtime_destructor(void)
{
    if (!exit_handler_registered)
        iolens_runtime_shutdown();
}
