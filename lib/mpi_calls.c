#include "mpi_calls.h"

#include <dlfcn.h>
#include <pthread.h>

#define IOLENS_MPI_DEFINE(name, ret, params) ret(*iolens_##name) params;
IOLENS_MPI_CALLS(IOLENS_MPI_DEFINE)
#undef IOLENS_MPI_DEFINE

/* RTLD_NEXT finds the MPI library after libiolens whether libiolens was
 * preloaded or linked in by mpicc -profile; RTLD_DEFAULT is the fallback
 * for an MPI library loaded before us. */
static void *lookup(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    return fn != NULL ? fn : dlsym(RTLD_DEFAULT, name);
}

static void resolve_all(void)
{
#define IOLENS_MPI_LOOKUP(name, ret, params) \
    __atomic_store_n((void **)&iolens_##name, lookup(#name), __ATOMIC_RELEASE);
    IOLENS_MPI_CALLS(IOLENS_MPI_LOOKUP)
#undef IOLENS_MPI_LOOKUP
}

int iolens_mpi_calls_resolve(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, resolve_all);
    return iolens_PMPI_Init != NULL;
}
