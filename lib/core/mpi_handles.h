/* mpi.h for the runtime: the MPI's predefined handles without a link-time
 * reference to libmpi.
 *
 * libiolens is never linked to libmpi (lib/core/mpi_calls.h), yet every
 * process under the preload loads it.  MPICH's predefined handles
 * (MPI_COMM_WORLD, MPI_BYTE, MPI_REQUEST_NULL ...) are integer constants,
 * so that costs nothing.  Open MPI's are the addresses of variables in
 * libmpi (MPI_COMM_WORLD is &ompi_mpi_comm_world): a library that took
 * those addresses would need libmpi loaded, and every non-MPI program
 * under the preload would die in the loader.  With Open MPI's mpi.h,
 * this header therefore makes each predefined handle a read of a
 * variable that iolens_mpi_handles_resolve fills in the running process
 * (dlsym) once an MPI library is found: one load, on the hot path too.
 * A handle the runtime uses that is missing from IOLENS_OMPI_HANDLES
 * below is a compile error, never a link-time reference.
 *
 * Every runtime file includes this header instead of <mpi.h>. */
#ifndef IOLENS_MPI_HANDLES_H
#define IOLENS_MPI_HANDLES_H

#include <mpi.h>

#include "core/mpi_family.h"

/* The MPI family the runtime was compiled for, from mpi.h itself (what
 * the compiler saw, whatever configure was told). */
#if defined(OPEN_MPI)
#define IOLENS_MPI_BUILT_FOR IOLENS_MPI_FAMILY_OPENMPI
#elif defined(MPICH_VERSION)
#define IOLENS_MPI_BUILT_FOR IOLENS_MPI_FAMILY_MPICH
#else
#error "mpi.h is neither MPICH's nor Open MPI's"
#endif

#ifdef OPEN_MPI
/* The variables behind the predefined handles the runtime uses. */
#define IOLENS_OMPI_HANDLES(X) \
    X(ompi_mpi_comm_world) X(ompi_mpi_comm_self) X(ompi_mpi_info_null) X(ompi_request_null) \
    X(ompi_mpi_datatype_null) X(ompi_mpi_byte) X(ompi_mpi_char) \
    X(ompi_mpi_signed_char) X(ompi_mpi_unsigned_char) X(ompi_mpi_int) \
    X(ompi_mpi_unsigned) X(ompi_mpi_long) X(ompi_mpi_unsigned_long) \
    X(ompi_mpi_long_long_int) X(ompi_mpi_unsigned_long_long) X(ompi_mpi_float) \
    X(ompi_mpi_double) X(ompi_mpi_int32_t) X(ompi_mpi_int64_t) X(ompi_mpi_uint64_t) \
    X(ompi_mpi_2int) X(ompi_mpi_op_min) X(ompi_mpi_op_maxloc)

struct iolens_ompi_handles {
#define IOLENS_OMPI_FIELD(global) void *global;
    IOLENS_OMPI_HANDLES(IOLENS_OMPI_FIELD)
#undef IOLENS_OMPI_FIELD
};
extern struct iolens_ompi_handles iolens_ompi_handles;

/* Open MPI's mpi.h spells every predefined handle as
 * OMPI_PREDEFINED_GLOBAL(type, variable); the macro is expanded where a
 * handle is used, so redefining it here turns every use into a read of
 * the resolved address. */
#undef OMPI_PREDEFINED_GLOBAL
#define OMPI_PREDEFINED_GLOBAL(type, global) ((type)iolens_ompi_handles.global)
#endif

/* Fills the predefined handles from the MPI library of the running
 * process; lookup(name) finds a symbol there (NULL if none).  Nothing to
 * do for MPICH.  Called with the PMPI pointers, before they are published. */
void iolens_mpi_handles_resolve(void *(*lookup)(const char *name));

#endif
