#include "hdf5_calls.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

#define IOLENS_HDF5_DEFINE(name, ret, params) ret(*iolens_h5_##name) params;
IOLENS_HDF5_CALLS(IOLENS_HDF5_DEFINE)
#undef IOLENS_HDF5_DEFINE

/* RTLD_NEXT finds libhdf5 after libiolens (preloaded or linked first);
 * RTLD_DEFAULT is the fallback for a library loaded before us.  Neither
 * loads anything. */
static void *lookup(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    return fn != NULL ? fn : dlsym(RTLD_DEFAULT, name);
}

static void resolve_all(void)
{
#define IOLENS_HDF5_LOOKUP(name, ret, params) \
    __atomic_store_n((void **)&iolens_h5_##name, lookup(#name), __ATOMIC_RELEASE);
    IOLENS_HDF5_CALLS(IOLENS_HDF5_LOOKUP)
#undef IOLENS_HDF5_LOOKUP
}

/* As lib/mpi_calls.c: repeated until the library is found (h5py loads it
 * late, with dlopen); final afterwards. */
int iolens_hdf5_calls_resolve(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static _Atomic int final;
    if (!atomic_load_explicit(&final, memory_order_acquire)) {
        pthread_mutex_lock(&lock);
        if (!atomic_load_explicit(&final, memory_order_relaxed)) {
            resolve_all();
            if (iolens_h5_H5Fopen != NULL)
                atomic_store_explicit(&final, 1, memory_order_release);
        }
        pthread_mutex_unlock(&lock);
    }
    return iolens_h5_H5Fopen != NULL;
}
