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

static inline int iolens_tracing(void)
{
    return atomic_load_explicit(&iolens_active, memory_order_relaxed) && !iolens_in_runtime;
}

/* 1 if the layer is enabled (IOLENS_DISABLE_LAYERS). */
int iolens_layer_enabled(int layer);

const struct iolens_config *iolens_runtime_config(void);

/* Initializes the runtime if not done yet (safe to call from any wrapper
 * before the library constructor ran). */
void iolens_runtime_ensure_init(void);

/* Writes the log and stops tracing; runs at exit (destructor). */
void iolens_runtime_shutdown(void);

#endif
