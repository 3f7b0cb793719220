/* How a call to an MPI function reaches its wrapper.
 *
 * libiolens exports the MPI functions it wraps (MPI_Init, MPI_File_*,
 * MPI_Wait ...).  When the running MPI is not the one libiolens was
 * compiled for (MPI_Init's check, lib/mpi/mpi_runtime.c), the wrappers
 * must only forward each call, and a C function cannot forward what its
 * prototype cannot hold: built for MPICH, a wrapper's MPI_Comm or
 * MPI_Datatype is an int, and Open MPI's handles are pointers, which the
 * compiled wrapper cuts to 32 bits (the real call then crashes).
 *
 * So on x86-64 each exported name is an entry of a few instructions
 * (wrappers/mpi_entry.c) that leaves the argument registers and the stack
 * untouched: with the MPI refused it jumps to the PMPI function itself,
 * otherwise to the C wrapper, iolens_entry_<name>.  That costs a compare
 * and a jump per call.  Elsewhere the C wrapper is the exported name
 * itself (and a mismatched MPI is refused at MPI_Init, but a call with a
 * handle wider than the wrapper's type is not safe);
 * IOLENS_NO_MPI_ENTRY_STUBS builds that way on x86-64 too.
 *
 * Each entry is exported under its PMPI_ name as well: Open MPI's
 * Fortran bindings (libmpi_mpifh) call PMPI_Init, PMPI_File_open ...
 * directly, so a Fortran program's MPI calls reach no MPI_ name.  The
 * wrappers reach the MPI library's own PMPI_ functions through pointers
 * that never resolve to libiolens (core/mpi_calls.h), so a call is
 * counted once whichever name it came by.
 *
 * A wrapper is defined as
 *     IOLENS_MPI_ENTRY(MPI_File_open)(MPI_Comm comm, ...) { ... }
 * and its prototype is still checked against mpi.h's declaration of the
 * name (IOLENS_MPI4_ENTRY for the MPI-4 calls, which an MPI-3 mpi.h
 * does not declare). */
#ifndef IOLENS_MPI_ENTRY_H
#define IOLENS_MPI_ENTRY_H

#include "core/mpi_handles.h"
#include "wrapper.h"

/* Every MPI function libiolens exports (wrappers/mpi.c, wrappers/mpiio.c). */
#define IOLENS_MPI_ENTRIES(X) X(MPI_Abort) X(MPI_File_close) X(MPI_File_iread) \
    X(MPI_File_iread_all) X(MPI_File_iread_all_c) X(MPI_File_iread_at) \
    X(MPI_File_iread_at_all) X(MPI_File_iread_at_all_c) X(MPI_File_iread_at_c) \
    X(MPI_File_iread_c) X(MPI_File_iread_shared) X(MPI_File_iread_shared_c) \
    X(MPI_File_iwrite) X(MPI_File_iwrite_all) X(MPI_File_iwrite_all_c) X(MPI_File_iwrite_at) \
    X(MPI_File_iwrite_at_all) X(MPI_File_iwrite_at_all_c) X(MPI_File_iwrite_at_c) \
    X(MPI_File_iwrite_c) X(MPI_File_iwrite_shared) X(MPI_File_iwrite_shared_c) \
    X(MPI_File_open) X(MPI_File_preallocate) X(MPI_File_read) X(MPI_File_read_all) \
    X(MPI_File_read_all_begin) X(MPI_File_read_all_begin_c) X(MPI_File_read_all_c) \
    X(MPI_File_read_all_end) X(MPI_File_read_at) X(MPI_File_read_at_all) \
    X(MPI_File_read_at_all_begin) X(MPI_File_read_at_all_begin_c) X(MPI_File_read_at_all_c) \
    X(MPI_File_read_at_all_end) X(MPI_File_read_at_c) X(MPI_File_read_c) \
    X(MPI_File_read_ordered) X(MPI_File_read_ordered_begin) X(MPI_File_read_ordered_begin_c) \
    X(MPI_File_read_ordered_c) X(MPI_File_read_ordered_end) X(MPI_File_read_shared) \
    X(MPI_File_read_shared_c) X(MPI_File_set_info) X(MPI_File_set_size) X(MPI_File_set_view) \
    X(MPI_File_sync) X(MPI_File_write) X(MPI_File_write_all) X(MPI_File_write_all_begin) \
    X(MPI_File_write_all_begin_c) X(MPI_File_write_all_c) X(MPI_File_write_all_end) \
    X(MPI_File_write_at) X(MPI_File_write_at_all) X(MPI_File_write_at_all_begin) \
    X(MPI_File_write_at_all_begin_c) X(MPI_File_write_at_all_c) X(MPI_File_write_at_all_end) \
    X(MPI_File_write_at_c) X(MPI_File_write_c) X(MPI_File_write_ordered) \
    X(MPI_File_write_ordered_begin) X(MPI_File_write_ordered_begin_c) \
    X(MPI_File_write_ordered_c) X(MPI_File_write_ordered_end) X(MPI_File_write_shared) \
    X(MPI_File_write_shared_c) X(MPI_Finalize) X(MPI_Init) X(MPI_Init_thread) \
    X(MPI_Request_free) X(MPI_Test) X(MPI_Testall) X(MPI_Testany) X(MPI_Testsome) X(MPI_Wait) \
    X(MPI_Waitall) X(MPI_Waitany) X(MPI_Waitsome)

#if defined(__x86_64__) && defined(__ELF__) && !defined(IOLENS_NO_MPI_ENTRY_STUBS)
#define IOLENS_MPI_ENTRY_STUBS 1
#define IOLENS_MPI_ENTRY(name)                                                      \
    __typeof__(name) iolens_entry_##name __attribute__((visibility("hidden")));   \
    __attribute__((visibility("hidden"))) int iolens_entry_##name
#define IOLENS_MPI4_ENTRY_UNCHECKED(name) __attribute__((visibility("hidden"))) int iolens_entry_##name
#else
#define IOLENS_MPI_ENTRY(name)                                         \
    __typeof__(name) name IOLENS_EXPORT;                               \
    __typeof__(name) P##name IOLENS_EXPORT __attribute__((alias(#name))); \
    IOLENS_EXPORT int name
#define IOLENS_MPI4_ENTRY_UNCHECKED(name)                        \
    int P##name() IOLENS_EXPORT __attribute__((alias(#name)));   \
    IOLENS_EXPORT int name
#endif

#if MPI_VERSION >= 4
#define IOLENS_MPI4_ENTRY(name) IOLENS_MPI_ENTRY(name)
#else
#define IOLENS_MPI4_ENTRY(name) IOLENS_MPI4_ENTRY_UNCHECKED(name)
#endif

#endif
