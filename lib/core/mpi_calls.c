#include "core/mpi_calls.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

#include "core/symbol_lookup.h"

#define IOLENS_MPI_DEFINE(name, ret, params) ret(*iolens_##name) params;
IOLENS_MPI_CALLS(IOLENS_MPI_DEFINE)
#undef IOLENS_MPI_DEFINE

/* An MPI library loaded into a local scope (iolens_mpi_calls_resolve_loaded),
 * or NULL. */
static void *_Atomic local_mpi;

/* RTLD_NEXT finds the MPI library after libiolens whether libiolens was
 * preloaded or linked in by mpicc -profile; RTLD_DEFAULT is the fallback
 * for an MPI library loaded before us; local_mpi one that neither sees.
 * Never libiolens's own symbols (lib/core/symbol_lookup.h). */
static void *lookup(const char *name)
{
    void *fn = iolens_symbol_global(name);
    return fn != NULL ? fn : iolens_symbol_in(atomic_load(&local_mpi), name);
}

/* The variables behind Open MPI's predefined handles are data: a program
 * that names MPI_COMM_WORLD gets, by copy relocation, its own copy of
 * ompi_mpi_comm_world, which libmpi then uses too; RTLD_NEXT would find
 * libmpi's unused original.  The global scope in load order finds the
 * copy first (libiolens defines none of these names). */
static void *lookup_data(const char *name)
{
    void *p = dlsym(RTLD_DEFAULT, name);
    return p != NULL ? p : iolens_symbol_in(atomic_load(&local_mpi), name);
}

static void resolve_all(void)
{
    iolens_mpi_handles_resolve(lookup_data);
#define IOLENS_MPI_LOOKUP(name, ret, params) \
    __atomic_store_n((void **)&iolens_##name, lookup(#name), __ATOMIC_RELEASE);
    IOLENS_MPI_CALLS(IOLENS_MPI_LOOKUP)
#undef IOLENS_MPI_LOOKUP
}

int iolens_mpi_calls_resolve_loaded(void)
{
    if (iolens_mpi_calls_resolve())
        return 1;
    void *h = iolens_symbol_loaded_object_defining("PMPI_Init");
    if (h == NULL)
        return 0;
    void *expected = NULL;
    if (!atomic_compare_exchange_strong(&local_mpi, &expected, h))
        dlclose(h); /* another thread was first: same library */
    return iolens_mpi_calls_resolve();
}

int iolens_mpi_refused;

void iolens_mpi_calls_refuse(void)
{
    __atomic_store_n(&iolens_mpi_refused, 1, __ATOMIC_SEQ_CST);
}

int iolens_mpi_calls_refused(void)
{
    return __atomic_load_n(&iolens_mpi_refused, __ATOMIC_RELAXED);
}

int iolens_mpi_calls_usable(void)
{
    return !iolens_mpi_calls_refused() && iolens_mpi_calls_resolve();
}

/* Until an MPI library is found the lookup is repeated on demand, so a
 * program that loads libmpi after start-up (mpi4py, a plugin) is still
 * served; once PMPI_Init is found the pointers are final.  A process
 * without MPI pays one or two dlsym calls per check, not the whole list:
 * every process under the preload (shells, ls) asks at start-up. */
int iolens_mpi_calls_resolve(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static _Atomic int final;
    if (atomic_load_explicit(&final, memory_order_acquire))
        return 1;
    if (lookup("PMPI_Init") == NULL)
        return 0;
    pthread_mutex_lock(&lock);
    if (!atomic_load_explicit(&final, memory_order_relaxed)) {
        resolve_all();
        atomic_store_explicit(&final, 1, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    return 1;
}
