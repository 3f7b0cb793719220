#include "core/real_calls.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>

#include "core/symbol_lookup.h"

#define IOLENS_REAL_DEFINE(name, ret, params) ret(*iolens_real_##name) params;
IOLENS_REAL_CALLS(IOLENS_REAL_DEFINE)
#undef IOLENS_REAL_DEFINE

/* The pre-2.33 stat entry points exist only as compat symbols in newer
 * glibc, which plain dlsym does not find; ask for their old version.
 * Never libiolens's own wrapper (lib/core/symbol_lookup.h): a wrapper calling
 * itself would never return. */
static void *lookup(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    if (fn == NULL)
        fn = dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5");
    if (fn == NULL)
        fn = dlvsym(RTLD_NEXT, name, "GLIBC_2.17"); /* aarch64 baseline */
    return iolens_symbol_is_own(fn) ? NULL : fn;
}

static void resolve_all(void)
{
#define IOLENS_REAL_LOOKUP(name, ret, params) \
    __atomic_store_n((void **)&iolens_real_##name, lookup(#name), __ATOMIC_RELEASE);
    IOLENS_REAL_CALLS(IOLENS_REAL_LOOKUP)
#undef IOLENS_REAL_LOOKUP
}

void iolens_real_calls_resolve(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, resolve_all);
}
