/* The life cycle of the runtime: start-up, fork, exit.  The state it
 * sets (tracing on, configuration, identity) is in state.h. */
#ifndef IOLENS_RUNTIME_H
#define IOLENS_RUNTIME_H

#include "core/state.h"

/* Initializes the runtime if not done yet (safe to call from any wrapper
 * before the library constructor ran). */
void iolens_runtime_ensure_init(void);

/* At MPI_Init, in a process that was not traced because it had no MPI
 * library at its start (one loaded later by dlopen: Python and mpi4py):
 * tracing starts now, and the job's log is written at MPI_Finalize as
 * for any rank.  Does nothing otherwise (traced already, IOLENS_DISABLE). */
void iolens_runtime_start_at_mpi_init(void);

/* Writes the log and stops tracing; runs at exit (destructor). */
void iolens_runtime_shutdown(void);

/* Writes this process's log now, marked IOLENS_FLAG_INCOMPLETE (an MPI
 * rank's under its own .rank<N>.incomplete.iolens name), without
 * stopping tracing.  For an abnormal ending: a signal, exit without
 * MPI_Finalize.  Returns 0 or -1. */
int iolens_runtime_write_incomplete(void);

/* The log a normal exit writes, without stopping tracing (for a snapshot
 * copy of the process).  Returns 0, or -1 (also if this process writes
 * no log of its own). */
int iolens_runtime_write_final(void);

/* _exit()/_Exit(): the process ends without its destructors; its log is
 * written first, by a snapshot copy (_exit may be called from a signal
 * handler).  Not in a vfork child, which shares its parent's memory. */
void iolens_runtime_on_immediate_exit(void);

/* A program is about to enter a seccomp sandbox (prctl PR_SET_SECCOMP,
 * or the seccomp system call through syscall()), after which any system
 * call the runtime makes may be forbidden, or kill the process: a
 * process that writes a log of its own says so in one line, and stops
 * tracing, writes no log and gives the application its own signal
 * dispositions back, while every system call is still allowed.  Not in a
 * live MPI rank (the job's log needs every rank at MPI_Finalize), nor in
 * a vfork child. */
void iolens_runtime_on_sandbox(void);

/* Before an exec: the new program starts a runtime of its own, and this
 * one's data would vanish with the old image, so this process's log is
 * written now, marked IOLENS_FLAG_EXEC.  path is the file the exec will
 * run when known (NULL: a PATH search or a descriptor); if it certainly
 * does not exist, or if nothing was done yet (a shell's forked child that
 * only execs), nothing is written.  Not in a vfork child, nor in a live
 * MPI rank (the job's log belongs to MPI_Finalize).  The log's path goes
 * to path_out ("" if none was written). */
void iolens_runtime_before_exec(const char *path, char *path_out, size_t path_outsz);

/* The exec failed and this program goes on: the log written before it is
 * removed, and tracing continues with the counts intact, for the log at
 * exit. */
void iolens_runtime_exec_failed(const char *log_path);

/* Releases every runtime lock without touching the data: in a
 * single-threaded copy of the process (fork child, snapshot at a signal) a
 * lock held by another thread of the original would never be released. */
void iolens_runtime_release_locks(void);

#endif
