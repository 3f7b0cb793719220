/* Finding a library's functions in the running process, for the layers
 * whose libraries iolens is not linked to (MPI, HDF5) and for the C
 * library itself.
 *
 * The one rule: a lookup never returns a function of libiolens itself.
 * Preloaded, libiolens defines the very names it looks up (H5Fcreate,
 * MPI_Init); a lookup that found those would make the wrapper call itself
 * until the stack ran out, or loop forever where the compiler turned the
 * call into a jump.  Such a result is "not found", and the wrapper fails
 * the call as the library would. */
#ifndef IOLENS_SYMBOL_LOOKUP_H
#define IOLENS_SYMBOL_LOOKUP_H

#include <stdint.h>

/* 1 if fn is code or data of libiolens itself. */
int iolens_symbol_is_own(const void *fn);

/* name in the global scope, as the program's own references bind to it:
 * after libiolens (RTLD_NEXT), else anywhere (RTLD_DEFAULT, for a library
 * loaded before us); never libiolens's own.  NULL if none. */
void *iolens_symbol_global(const char *name);

/* name in the object behind handle and its dependencies (dlsym(handle)),
 * never libiolens's own.  NULL if none. */
void *iolens_symbol_in(void *handle, const char *name);

/* A handle, kept open, on the first loaded object (in load order, other
 * than libiolens) that itself defines symbol; NULL if none.  It finds a
 * library loaded by dlopen with RTLD_LOCAL (Python's extension modules
 * load libmpi and libhdf5 so), which no global lookup sees.  Walks every
 * loaded object: for the slow path only. */
void *iolens_symbol_loaded_object_defining(const char *symbol);

/* A handle, kept open, on the object that defines fn; NULL if none. */
void *iolens_symbol_object_of(const void *fn);

/* How many objects the loader has loaded and unloaded so far: a lookup
 * that found nothing need not be repeated until this changes. */
uint64_t iolens_symbol_generation(void);

#endif
