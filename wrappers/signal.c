/* sigaction(), signal() and bsd_signal() for the signals that end a
 * process in normal use (core/termination.h), whose real dispositions the runtime keeps while it traces
 * (lib/core/termination.c): the application sets and reads its own
 * dispositions as if iolens were not there.  Every other signal, and
 * those in a process that is not traced, go straight to the C library.
 *
 * These wrappers can run before anything is set up: a sanitizer runtime
 * (ThreadSanitizer) installs its own handlers from its initializer, before
 * iolens's constructor and before the sanitizer itself is ready.  So they
 * are not instrumented, decide with one plain load, and pass sigaction
 * through glibc's own __sigaction (no symbol lookup needed). */
#include <signal.h>

#include "core/real_calls.h"
#include "core/state.h"
#include "runtime.h"
#include "core/termination.h"
#include "wrapper.h"

#define IOLENS_NO_SANITIZE __attribute__((no_sanitize("thread", "address", "undefined")))

extern int __sigaction(int, const struct sigaction *, struct sigaction *);

/* Whether sig's disposition goes through the runtime.  Not in a vfork
 * child (core/state.h): what it sets is its own, and the runtime's record
 * of the application's dispositions is its parent's. */
static inline IOLENS_NO_SANITIZE int keeps_disposition(int sig)
{
    return iolens_termination_keeps(sig) && iolens_termination_handling() &&
           !iolens_in_vfork_child();
}

IOLENS_EXPORT IOLENS_NO_SANITIZE int sigaction(int sig, const struct sigaction *act,
                                               struct sigaction *old)
{
    if (keeps_disposition(sig))
        return iolens_termination_sigaction(sig, act, old);
    return __sigaction(sig, act, old);
}

IOLENS_EXPORT __sighandler_t signal(int sig, __sighandler_t handler)
{
    if (keeps_disposition(sig))
        return iolens_termination_signal(sig, handler);
    return IOLENS_REAL(signal)(sig, handler);
}

IOLENS_EXPORT __sighandler_t bsd_signal(int sig, __sighandler_t handler)
{
    if (keeps_disposition(sig))
        return iolens_termination_signal(sig, handler);
    return IOLENS_REAL(bsd_signal)(sig, handler);
}

/* _exit() and _Exit() skip the destructors, and with them the log: a
 * forked worker that ends so (Python's multiprocessing does) would lose
 * its I/O.  The log is written first. */
IOLENS_EXPORT void _exit(int status)
{
    iolens_runtime_on_immediate_exit();
    IOLENS_REAL(_exit)(status);
    __builtin_unreachable();
}

IOLENS_EXPORT void _Exit(int status)
{
    iolens_runtime_on_immediate_exit();
    IOLENS_REAL(_Exit)(status);
    __builtin_unreachable();
}
