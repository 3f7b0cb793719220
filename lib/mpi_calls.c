#include "mpi_calls.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define IOLENS_MPI_DEFINE(name, ret, params) ret(*iolens_##name) params;
IOLENS_MPI_CALLS(IOLENS_MPI_DEFINE)
#undef IOLENS_MPI_DEFINE

/* An MPI library loaded into a local scope (iolens_mpi_calls_resolve_loaded),
 * or NULL. */
static void *_Atomic local_mpi;

/* RTLD_NEXT finds the MPI library after libiolens whether libiolens was
 * preloaded or linked in by mpicc -profile; RTLD_DEFAULT is the fallback
 * for an MPI library loaded before us; local_mpi one that neither sees. */
static void *lookup(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    if (fn == NULL)
        fn = dlsym(RTLD_DEFAULT, name);
    void *local = atomic_load(&local_mpi);
    return fn != NULL || local == NULL ? fn : dlsym(local, name);
}

static void resolve_all(void)
{
#define IOLENS_MPI_LOOKUP(name, ret, params) \
    __atomic_store_n((void **)&iolens_##name, lookup(#name), __ATOMIC_RELEASE);
    IOLENS_MPI_CALLS(IOLENS_MPI_LOOKUP)
#undef IOLENS_MPI_LOOKUP
}

/* Until an MPI library is found the lookup is repeated on demand, so a
 * program that loads libmpi after start-up (mpi4py, a plugin) is still
 * served; once PMPI_Init is found the pointers are final.  A process
 * without MPI pays one or two dlsym calls per check, not the whole list:
 * every process under the preload (shells, ls) asks at start-up. */
struct loaded_objects {
    char **names;
    size_t n, cap;
};

static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct loaded_objects *o = arg;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
        return 0;
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        char **names = realloc(o->names, cap * sizeof *names);
        if (names == NULL)
            return 1;
        o->names = names;
        o->cap = cap;
    }
    if ((o->names[o->n] = strdup(info->dlpi_name)) != NULL)
        o->n++;
    return 0;
}

/* A handle on the loaded object that defines symbol, kept open; NULL if
 * none does.  The names are taken first and opened after: dlopen inside
 * dl_iterate_phdr's callback would run under the loader's lock. */
static void *loaded_object_defining(const char *symbol)
{
    struct loaded_objects o = {0};
    dl_iterate_phdr(note_object, &o);
    void *found = NULL;
    for (size_t i = 0; i < o.n; i++) {
        void *h = found == NULL ? dlopen(o.names[i], RTLD_LAZY | RTLD_NOLOAD) : NULL;
        if (h != NULL && dlsym(h, symbol) != NULL)
            found = h;
        else if (h != NULL)
            dlclose(h);
        free(o.names[i]);
    }
    free(o.names);
    return found;
}

int iolens_mpi_calls_resolve_loaded(void)
{
    if (iolens_mpi_calls_resolve())
        return 1;
    void *h = loaded_object_defining("PMPI_Init");
    if (h == NULL)
        return 0;
    void *expected = NULL;
    if (!atomic_compare_exchange_strong(&local_mpi, &expected, h))
        dlclose(h); /* another thread was first: same library */
    return iolens_mpi_calls_resolve();
}

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
