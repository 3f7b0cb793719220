#include "core/hdf5_calls.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "core/symbol_lookup.h"

#define IOLENS_HDF5_DEFINE(name, ret, params) ret(*iolens_h5_##name) params;
IOLENS_HDF5_CALLS(IOLENS_HDF5_DEFINE)
#undef IOLENS_HDF5_DEFINE

_Atomic int iolens_h5_global;

/* One HDF5 library of the process: its handle (kept open, so that it is
 * never unloaded under a cached pointer) and its wrapped functions. */
struct h5_library {
    void *handle;
    void *wrapped[IOLENS_H5_NWRAPPED];
};

/* Distinct HDF5 libraries in one process are few (serial and parallel
 * builds); a call bound to a library beyond these fails. */
#define MAX_LIBRARIES 8
static struct h5_library libraries[MAX_LIBRARIES];
static size_t nlibraries;              /* under lock */
static struct h5_library *_Atomic traced_library;

/* Which library each calling object is bound to, appended under lock and
 * read without it: an entry is complete before the count covers it.  A
 * caller beyond the table is looked up again on each call. */
#define MAX_CALLERS 128
struct caller_binding {
    const void *object;
    struct h5_library *library;
};
static struct caller_binding callers[MAX_CALLERS];
static _Atomic size_t ncallers;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The loader generation of the last lookup that found no library at all
 * (plus one; 0: none yet): until another object is loaded, a call made
 * without any HDF5 library fails without a new search. */
static _Atomic uint64_t missed_at;

static const char *const wrapped_names[IOLENS_H5_NWRAPPED] = {
#define IOLENS_HDF5_NAME(name, ret, params) #name,
    IOLENS_HDF5_CALLS_WRAPPED(IOLENS_HDF5_NAME)
#undef IOLENS_HDF5_NAME
};

/* ------------------------------------------------ the traced library -- */

static void set_traced_from_global(void)
{
#define IOLENS_HDF5_GLOBAL(name, ret, params) \
    __atomic_store_n((void **)&iolens_h5_##name, iolens_symbol_global(#name), __ATOMIC_RELEASE);
    IOLENS_HDF5_CALLS(IOLENS_HDF5_GLOBAL)
#undef IOLENS_HDF5_GLOBAL
}

static void set_traced_from(void *handle)
{
#define IOLENS_HDF5_IN(name, ret, params) \
    __atomic_store_n((void **)&iolens_h5_##name, iolens_symbol_in(handle, #name), __ATOMIC_RELEASE);
    IOLENS_HDF5_CALLS(IOLENS_HDF5_IN)
#undef IOLENS_HDF5_IN
}

/* The library defining H5Fopen at fn, registered on first sight (under
 * lock); NULL if the table is full or fn's object cannot be opened. */
static struct h5_library *library_at(void *fn)
{
    for (size_t i = 0; i < nlibraries; i++)
        if (libraries[i].wrapped[IOLENS_H5_ID_H5Fopen] == fn)
            return &libraries[i];
    if (nlibraries == MAX_LIBRARIES)
        return NULL;
    void *handle = iolens_symbol_object_of(fn);
    if (handle == NULL)
        return NULL;
    struct h5_library *lib = &libraries[nlibraries++];
    lib->handle = handle;
    for (size_t id = 0; id < IOLENS_H5_NWRAPPED; id++)
        lib->wrapped[id] = iolens_symbol_in(handle, wrapped_names[id]);
    return lib;
}

/* The library in the global scope made the traced one, if there is one
 * and none is traced yet (under lock). */
static void try_global(void)
{
    if (atomic_load(&traced_library) != NULL)
        return;
    void *fn = iolens_symbol_global("H5Fopen");
    struct h5_library *lib = fn != NULL ? library_at(fn) : NULL;
    if (lib == NULL)
        return;
    set_traced_from_global();
    atomic_store_explicit(&traced_library, lib, memory_order_release);
    atomic_store_explicit(&iolens_h5_global, 1, memory_order_release);
}

static void trace_if_first(struct h5_library *lib)
{
    if (lib == NULL || atomic_load(&traced_library) != NULL)
        return;
    set_traced_from(lib->handle);
    atomic_store_explicit(&traced_library, lib, memory_order_release);
}

int iolens_hdf5_calls_resolve(void)
{
    if (atomic_load_explicit(&traced_library, memory_order_acquire) != NULL)
        return 1;
    pthread_mutex_lock(&lock);
    try_global();
    pthread_mutex_unlock(&lock);
    return atomic_load_explicit(&traced_library, memory_order_acquire) != NULL;
}

/* ---------------------------------------------------- the callers -- */

/* The loaded object that holds the code at address, as a key. */
static const void *object_key(const void *address)
{
#ifdef DLFO_STRUCT_HAS_EH_DBASE
    struct dl_find_object found; /* lock-free, glibc 2.35 on */
    return _dl_find_object((void *)address, &found) == 0 ? (const void *)found.dlfo_link_map : NULL;
#else
    Dl_info info;
    struct link_map *map = NULL;
    return dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) != 0 ? (const void *)map : NULL;
#endif
}

static struct h5_library *cached_binding(const void *object)
{
    size_t n = atomic_load_explicit(&ncallers, memory_order_acquire);
    for (size_t i = 0; i < n; i++)
        if (callers[i].object == object)
            return callers[i].library;
    return NULL;
}

static void cache_binding(const void *object, struct h5_library *lib)
{
    size_t n = atomic_load_explicit(&ncallers, memory_order_relaxed);
    if (object == NULL || n == MAX_CALLERS || cached_binding(object) != NULL)
        return;
    callers[n].object = object;
    callers[n].library = lib;
    atomic_store_explicit(&ncallers, n + 1, memory_order_release);
}

/* H5Fopen as the caller's object binds it: in the object and its
 * dependencies (a module loaded with RTLD_LOCAL sees its libhdf5 there);
 * else in the first loaded object that defines it. */
static void *bound_h5fopen(const void *caller)
{
    void *object = iolens_symbol_object_of(caller);
    void *fn = iolens_symbol_in(object, "H5Fopen");
    if (object != NULL)
        dlclose(object);
    if (fn != NULL)
        return fn;
    void *first = iolens_symbol_loaded_object_defining("H5Fopen");
    fn = iolens_symbol_in(first, "H5Fopen");
    if (first != NULL)
        dlclose(first); /* library_at keeps its own handle */
    return fn;
}

/* Under lock. */
static struct h5_library *find_binding(const void *caller)
{
    uint64_t generation = iolens_symbol_generation();
    if (atomic_load(&missed_at) == generation + 1)
        return NULL;
    try_global();
    if (atomic_load(&iolens_h5_global))
        return atomic_load(&traced_library);
    void *fn = bound_h5fopen(caller);
    if (fn == NULL) { /* no HDF5 library anywhere */
        atomic_store(&missed_at, generation + 1);
        return NULL;
    }
    struct h5_library *lib = library_at(fn);
    trace_if_first(lib);
    return lib;
}

void *iolens_hdf5_real_for(enum iolens_h5_wrapped_id id, const void *caller, int *ours)
{
    const void *object = object_key(caller);
    struct h5_library *lib = object != NULL ? cached_binding(object) : NULL;
    if (lib == NULL) {
        pthread_mutex_lock(&lock);
        lib = find_binding(caller);
        if (lib != NULL && !atomic_load(&iolens_h5_global))
            cache_binding(object, lib);
        pthread_mutex_unlock(&lock);
    }
    *ours = lib != NULL && lib == atomic_load_explicit(&traced_library, memory_order_acquire);
    return lib != NULL ? lib->wrapped[id] : NULL;
}
