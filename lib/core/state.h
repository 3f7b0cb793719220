/* Process-wide state that every part of the runtime reads: whether
 * tracing is on, the configuration and the identity of the process.
 * Only the life cycle (runtime.c) sets it; the layers, the log writers
 * and the wrappers read it, so none of them needs runtime.c.  Wrappers
 * ask only iolens_tracing() before doing any work. */
#ifndef IOLENS_STATE_H
#define IOLENS_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/config.h"

/* 1 once the runtime is initialized and tracing; 0 before, after the log
 * is written, or when disabled.  Read on every intercepted call. */
extern _Atomic int iolens_active;

/* Per-thread guard: set (1) while the runtime itself does I/O (writing
 * the log, reading the mount table) so that the wrappers pass through. */
extern __thread int iolens_in_runtime __attribute__((tls_model("initial-exec")));

/* The guard's value from a vfork (wrappers/vfork.c) until the thread
 * that called it is known to be the parent again.  A vfork child runs on
 * its parent's memory, this guard included, until it execs or exits:
 * what the wrappers did there changed the parent's bookkeeping (Python's
 * subprocess dup2s a traced file onto the child's stdout, and the
 * parent's own stdout then counted as that file).  So the child passes
 * every call through; the parent, which the kernel holds until then,
 * takes the mark away at its next call (iolens_in_vfork_child). */
#define IOLENS_GUARD_VFORK 2

/* Whether this thread is a vfork child (marked, and not the process the
 * runtime traces); in the parent, takes the mark away.  Out of line: it
 * asks the kernel for the pid, and runs only while the mark is set. */
int iolens_in_vfork_child(void);
/* iolens_tracing's answer for a marked thread: 0 in the vfork child; in
 * the parent the mark is taken away and the usual test made. */
int iolens_tracing_after_vfork(int layer);

/* Sets and clears the guard around bookkeeping that may take a record's
 * lock, so that a signal handler doing I/O in between passes through
 * untraced instead of spinning on that lock (wrappers/wrapper.h). */
static inline void iolens_guard_on(void)
{
    iolens_in_runtime = 1;
    atomic_signal_fence(memory_order_seq_cst);
}

static inline void iolens_guard_off(void)
{
    atomic_signal_fence(memory_order_seq_cst);
    iolens_in_runtime = 0;
}

/* Bit per enum iolens_layer that is switched off (IOLENS_DISABLE_LAYERS). */
extern unsigned iolens_layers_off;

/* The one check every wrapper makes before doing any bookkeeping:
 * layer is an enum iolens_layer (file_table.h).  The vfork mark is looked
 * at only where the usual test fails, so the usual path is unchanged. */
static inline int iolens_tracing(int layer)
{
    int guard = iolens_in_runtime;
    if (__builtin_expect(atomic_load_explicit(&iolens_active, memory_order_relaxed) &&
                             ((unsigned)guard | (iolens_layers_off & (1u << layer))) == 0,
                         1))
        return 1;
    return __builtin_expect(guard == IOLENS_GUARD_VFORK, 0) && iolens_tracing_after_vfork(layer);
}

/* The configuration, as the life cycle loaded it from the environment. */
const struct iolens_config *iolens_runtime_config(void);
/* pid of the traced parent when this process is a forked child, else 0. */
long iolens_runtime_parent_pid(void);
/* pid of the traced process (cached at start-up and at fork: a snapshot
 * copy writing the log at a signal reports the process it copies). */
long iolens_runtime_pid(void);
/* Host name of this process (for the job record). */
const char *iolens_runtime_hostname(void);

/* For the life cycle only: the configuration to load, and the process's
 * identity (at start-up and in a forked child). */
struct iolens_config *iolens_state_config(void);
void iolens_state_set_identity(long pid, long parent_pid);
void iolens_state_set_hostname(const char *name);

#endif
