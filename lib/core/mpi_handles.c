#include "core/mpi_handles.h"

#ifdef OPEN_MPI
struct iolens_ompi_handles iolens_ompi_handles;

/* Release stores: a thread that sees a published PMPI pointer (stored
 * after these, with release, by lib/core/mpi_calls.c) sees the handles. */
void iolens_mpi_handles_resolve(void *(*lookup)(const char *name))
{
#define IOLENS_OMPI_LOOKUP(global) \
    __atomic_store_n(&iolens_ompi_handles.global, lookup(#global), __ATOMIC_RELEASE);
    IOLENS_OMPI_HANDLES(IOLENS_OMPI_LOOKUP)
#undef IOLENS_OMPI_LOOKUP
}
#else
void iolens_mpi_handles_resolve(void *(*lookup)(const char *name))
{
    (void)lookup; /* MPICH's handles are integer constants */
}
#endif
