/* What every wrapper file shares: the export attribute, the lookup of the
 * real function, the layer's tracing test and the brackets around a
 * wrapper's bookkeeping. */
#ifndef IOLENS_WRAPPER_H
#define IOLENS_WRAPPER_H

#include <errno.h>
#include <stdatomic.h>

#include "core/file_table.h"
#include "core/real_calls.h"
#include "core/state.h"

#define IOLENS_EXPORT __attribute__((visibility("default")))

/* Declares fn as the real C library function; returns errval with errno
 * ENOSYS if the C library does not have it. */
#define REAL_OR_FAIL(fn, name, errval)                     \
    __typeof__(iolens_real_##name) fn = IOLENS_REAL(name); \
    if (__builtin_expect(fn == NULL, 0)) {                 \
        errno = ENOSYS;                                    \
        return errval;                                     \
    }

/* A wrapper file of one layer defines IOLENS_WRAPPER_LAYER (an
 * IOLENS_LAYER_* value) before including this header; tracing() then
 * says whether that layer traces now. */
#ifdef IOLENS_WRAPPER_LAYER
static inline int tracing(void)
{
    return iolens_tracing(IOLENS_WRAPPER_LAYER);
}
#endif

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

/* The read/write path's lighter bracket: the layers' read and write
 * functions keep errno themselves, so only the per-thread guard is set. */
static inline void guard_on(void)
{
    iolens_guard_on();
}

static inline void guard_off(void)
{
    iolens_guard_off();
}

#endif
