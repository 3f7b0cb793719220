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

/* Writes the log and stops tracing; runs at exit (destructor). */
void iolens_runtime_shutdown(void);

/* pid of the traced parent when this process is a forked child, else 0. */
long iolens_runtime_parent_pid(void);
/* Host name of this process (for the job record). */
const char *iolens_runtime_hostname(void);

#endif
