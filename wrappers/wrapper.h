/* What every wrapper file shares: the export attribute and the bracket
 * around a wrapper's bookkeeping. */
#ifndef IOLENS_WRAPPER_H
#define IOLENS_WRAPPER_H

#include <errno.h>
#include <stdatomic.h>

#include "core/state.h"

#define IOLENS_EXPORT __attribute__((visibility("default")))

/* Bookkeeping runs between enter() and leave(): errno is saved and
 * restored, and the per-thread runtime guard is set, so that a signal
 * handler doing I/O while this thread holds a record's spinlock passes
 * through untraced instead of spinning on that lock forever. */
static inline int enter(void)
{
    int saved_errno = errno;
    iolens_in_runtime = 1;
    atomic_signal_fence(memory_order_seq_cst);
    return saved_errno;
}

static inline void leave(int saved_errno)
{
    atomic_signal_fence(memory_order_seq_cst);
    iolens_in_runtime = 0;
    errno = saved_errno;
}

#endif
