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

/* Per-thread guard: set while the runtime itself does I/O (writing the
 * log, reading the mount table) so that the wrappers pass through. */
extern __thread int iolens_in_runtime __attribute__((tls_model("initial-exec")));

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
 * layer is an enum iolens_layer (file_table.h). */
static inline int iolens_tracing(int layer)
{
    return atomic_load_explicit(&iolens_active, memory_order_relaxed) && !iolens_in_runtime &&
           !(iolens_layers_off & (1u << layer));
}

/* The configuration, as the life cycle loaded it from the environment. */
const struct iolens_config *iolens_runtime_config(void);
/* pid of the traced parent when this process is a forked child, else 0. */
long iolens_runtime_parent_pid(void);
/* pid of the traced process (cached at start-up and at fork: a snapshot
 * copy writing the log at SIGTERM reports the process it copies). */
long iolens_runtime_pid(void);
/* Host name of this process (for the job record). */
const char *iolens_runtime_hostname(void);

/* For the life cycle only: the configuration to load, and the process's
 * identity (at start-up and in a forked child). */
struct iolens_config *iolens_state_config(void);
void iolens_state_set_identity(long pid, long parent_pid);
void iolens_state_set_hostname(const char *name);

#endif
