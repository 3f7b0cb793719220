/* The two ways a program enters a seccomp sandbox through a function
 * that can be wrapped: prctl(PR_SET_SECCOMP), as OpenSSH does, and
 * libseccomp's seccomp_load.  The runtime is told first, while every
 * system call is still allowed: once the filter is in, a system call the
 * runtime makes (to write the log at exit, say) may be forbidden, or
 * kill the process (lib/runtime.c, iolens_runtime_on_sandbox).  A program
 * that makes the seccomp system call itself is not seen (iolens(7)). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/prctl.h>

#include "core/real_calls.h"
#include "runtime.h"
#include "wrapper.h"

IOLENS_EXPORT int prctl(int option, ...)
{
    /* prctl takes up to four more machine words; the C library reads as
     * many whatever the option. */
    va_list ap;
    va_start(ap, option);
    unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long),
                  a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
    va_end(ap);
    REAL_OR_FAIL(real, prctl, -1);
    if (option == PR_SET_SECCOMP)
        iolens_runtime_on_sandbox();
    return real(option, a2, a3, a4, a5);
}

/* libseccomp is often loaded after the runtime resolved the C library's
 * functions (a dlopen): its seccomp_load is looked up at its first call,
 * which a program makes once. */
IOLENS_EXPORT int seccomp_load(void *ctx)
{
    static _Atomic(void *) real_load;
    int (*real)(void *) = (int (*)(void *))atomic_load(&real_load);
    if (real == NULL) {
        real = (int (*)(void *))dlsym(RTLD_NEXT, "seccomp_load");
        if (real == NULL)
            return -ENOSYS; /* libseccomp's convention: a negative errno */
        atomic_store(&real_load, (void *)real);
    }
    iolens_runtime_on_sandbox();
    return real(ctx);
}
