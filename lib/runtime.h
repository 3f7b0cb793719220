/* Process-wide runtime state: whether tracing is on, the configuration,
 * and the life cycle (start-up, fork, exit).  Wrappers ask only
 * iolens_tracing() before doing any work. */
#ifndef IOLENS_RUNTIME_H
#define IOLENS_RUNTIME_H

#include <stdatomic.h>
#include <stdint.h>

#include "config.h"

/* 1 once the runtime is initialized and tracing; 0 before, after the log
 * is written, or when disabled.  Read on every intercepted call. */
extern _Atomic int iolens_active;

/* Per-thread guard: set while the runtime itself does I/O (writing the
 * log, reading the mount table) so that the wrappers pass through. */
extern __thread int iolens_in_runtime __attribute__((tls_model("initial-exec")));

/* Bit per enum iolens_layer that is switched off (IOLENS_DISABLE_LAYERS). */
extern unsigned iolens_layers_off;

/* The one check every wrapper makes before doing any bookkeeping:
 * layer is an enum iolens_layer (file_table.h). */
static inline int iolens_tracing(int layer)
{
    return atomic_load_explicit(&iolens_active, memory_order_relaxed) && !iolens_in_runtime &&
           !(iolens_layers_off & (1u << layer));
}

const struct iolens_config *iolens_runtime_config(void);

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
 * stopping tracing.  For an abnormal ending: SIGTERM, exit without
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

/* Releases every runtime lock without touching the data: in a
 * single-threaded copy of the process (fork child, SIGTERM snapshot) a
 * lock held by another thread of the original would never be released. */
void iolens_runtime_release_locks(void);

/* pid of the traced parent when this process is a forked child, else 0. */
long iolens_runtime_parent_pid(void);
/* pid of the traced process (cached at start-up and at fork: a snapshot
 * copy writing the log at SIGTERM reports the process it copies). */
long iolens_runtime_pid(void);
/* Host name of this process (for the job record). */
const char *iolens_runtime_hostname(void);

#endif
