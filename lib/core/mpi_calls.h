/* Pointers to the MPI profiling interface (PMPI_*), resolved in the
 * running process with dlsym, with the MPI's predefined handles
 * (lib/core/mpi_handles.h).  libiolens is compiled against one MPI's
 * mpi.h (MPICH's or Open MPI's, configure --with-mpi) but never linked to
 * libmpi, so a non-MPI program under LD_PRELOAD does not load MPI, and
 * LD_BIND_NOW=1 finds no undefined MPI symbol.
 *
 * X(name, return type, parameter list). */
#ifndef IOLENS_MPI_CALLS_H
#define IOLENS_MPI_CALLS_H

#include "core/mpi_handles.h"

/* Job life cycle, the collectives used at shutdown and the point-to-point
 * calls of the clock-offset ping-pong at MPI_Init. */
#define IOLENS_MPI_CALLS_CORE(X) \
    X(PMPI_Init, int, (int *, char ***)) \
    X(PMPI_Init_thread, int, (int *, char ***, int, int *)) \
    X(PMPI_Finalize, int, (void)) \
    X(PMPI_Abort, int, (MPI_Comm, int)) \
    X(PMPI_Initialized, int, (int *)) \
    X(PMPI_Finalized, int, (int *)) \
    X(PMPI_Comm_rank, int, (MPI_Comm, int *)) \
    X(PMPI_Comm_size, int, (MPI_Comm, int *)) \
    X(PMPI_Get_library_version, int, (char *, int *)) \
    X(PMPI_Get_processor_name, int, (char *, int *)) \
    X(PMPI_Barrier, int, (MPI_Comm)) \
    X(PMPI_Bcast, int, (void *, int, MPI_Datatype, int, MPI_Comm)) \
    X(PMPI_Gather, int, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm)) \
    X(PMPI_Gatherv, int, (const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, int, MPI_Comm)) \
    X(PMPI_Allgather, int, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm)) \
    X(PMPI_Alltoall, int, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm)) \
    X(PMPI_Alltoallv, int, (const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, MPI_Comm)) \
    X(PMPI_Allreduce, int, (const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm)) \
    X(PMPI_Exscan, int, (const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm)) \
    X(PMPI_Type_size, int, (MPI_Datatype, int *)) \
    X(PMPI_Type_size_x, int, (MPI_Datatype, MPI_Count *)) \
    X(PMPI_Type_get_envelope, int, (MPI_Datatype, int *, int *, int *, int *)) \
    X(PMPI_Comm_get_attr, int, (MPI_Comm, int, void *, int *)) \
    X(PMPI_Send, int, (const void *, int, MPI_Datatype, int, int, MPI_Comm)) \
    X(PMPI_Recv, int, (void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *)) \
    X(PMPI_Ibcast, int, (void *, int, MPI_Datatype, int, MPI_Comm, MPI_Request *)) \
    X(PMPI_Igather, int, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm, MPI_Request *)) \
    X(PMPI_Igatherv, int, (const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, int, MPI_Comm, MPI_Request *)) \
    X(PMPI_Ialltoall, int, (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm, MPI_Request *)) \
    X(PMPI_Ialltoallv, int, (const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, MPI_Comm, MPI_Request *)) \
    X(PMPI_Iallreduce, int, (const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request *))

/* MPI-IO and request completion, used by the MPI-IO layer (every call
 * wrappers/mpiio.c wraps, and MPI_Request_free) and by the collective log
 * writer.  The layer's datatype questions (PMPI_Type_size_x,
 * PMPI_Type_get_envelope) are in the CORE list. */
#define IOLENS_MPI_CALLS_FILE(X) \
    X(PMPI_File_open, int, (MPI_Comm, const char *, int, MPI_Info, MPI_File *)) \
    X(PMPI_File_close, int, (MPI_File *)) \
    X(PMPI_File_write_at_all, int, (MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_at, int, (MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_delete, int, (const char *, MPI_Info)) \
    X(PMPI_File_sync, int, (MPI_File)) \
    X(PMPI_File_set_size, int, (MPI_File, MPI_Offset)) \
    X(PMPI_File_preallocate, int, (MPI_File, MPI_Offset)) \
    X(PMPI_File_set_view, int, (MPI_File, MPI_Offset, MPI_Datatype, MPI_Datatype, const char *, MPI_Info)) \
    X(PMPI_File_set_info, int, (MPI_File, MPI_Info)) \
    X(PMPI_File_get_position, int, (MPI_File, MPI_Offset *)) \
    X(PMPI_File_get_byte_offset, int, (MPI_File, MPI_Offset, MPI_Offset *)) \
    X(PMPI_File_read_at, int, (MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_at_all, int, (MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read, int, (MPI_File, void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_all, int, (MPI_File, void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_shared, int, (MPI_File, void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_ordered, int, (MPI_File, void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_all, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_shared, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_ordered, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_iread_at, int, (MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_at_all, int, (MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_at, int, (MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_at_all, int, (MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread, int, (MPI_File, void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_all, int, (MPI_File, void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_shared, int, (MPI_File, void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_all, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_shared, int, (MPI_File, const void *, int, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_read_at_all_begin, int, (MPI_File, MPI_Offset, void *, int, MPI_Datatype)) \
    X(PMPI_File_write_at_all_begin, int, (MPI_File, MPI_Offset, const void *, int, MPI_Datatype)) \
    X(PMPI_File_read_all_begin, int, (MPI_File, void *, int, MPI_Datatype)) \
    X(PMPI_File_read_ordered_begin, int, (MPI_File, void *, int, MPI_Datatype)) \
    X(PMPI_File_write_all_begin, int, (MPI_File, const void *, int, MPI_Datatype)) \
    X(PMPI_File_write_ordered_begin, int, (MPI_File, const void *, int, MPI_Datatype)) \
    X(PMPI_File_read_at_c, int, (MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_at_all_c, int, (MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_at_c, int, (MPI_File, MPI_Offset, const void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_at_all_c, int, (MPI_File, MPI_Offset, const void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_all_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_shared_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_read_ordered_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_all_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_shared_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_write_ordered_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Status *)) \
    X(PMPI_File_iread_at_c, int, (MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_at_all_c, int, (MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_at_c, int, (MPI_File, MPI_Offset, const void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_at_all_c, int, (MPI_File, MPI_Offset, const void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_all_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iread_shared_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_all_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_iwrite_shared_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Request *)) \
    X(PMPI_File_read_at_all_begin_c, int, (MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype)) \
    X(PMPI_File_write_at_all_begin_c, int, (MPI_File, MPI_Offset, const void *, MPI_Count, MPI_Datatype)) \
    X(PMPI_File_read_all_begin_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype)) \
    X(PMPI_File_read_ordered_begin_c, int, (MPI_File, void *, MPI_Count, MPI_Datatype)) \
    X(PMPI_File_write_all_begin_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype)) \
    X(PMPI_File_write_ordered_begin_c, int, (MPI_File, const void *, MPI_Count, MPI_Datatype)) \
    X(PMPI_File_read_at_all_end, int, (MPI_File, void *, MPI_Status *)) \
    X(PMPI_File_read_all_end, int, (MPI_File, void *, MPI_Status *)) \
    X(PMPI_File_read_ordered_end, int, (MPI_File, void *, MPI_Status *)) \
    X(PMPI_File_write_at_all_end, int, (MPI_File, const void *, MPI_Status *)) \
    X(PMPI_File_write_all_end, int, (MPI_File, const void *, MPI_Status *)) \
    X(PMPI_File_write_ordered_end, int, (MPI_File, const void *, MPI_Status *)) \
    X(PMPI_Wait, int, (MPI_Request *, MPI_Status *)) \
    X(PMPI_Waitall, int, (int, MPI_Request *, MPI_Status *)) \
    X(PMPI_Waitany, int, (int, MPI_Request *, int *, MPI_Status *)) \
    X(PMPI_Waitsome, int, (int, MPI_Request *, int *, int *, MPI_Status *)) \
    X(PMPI_Test, int, (MPI_Request *, int *, MPI_Status *)) \
    X(PMPI_Testall, int, (int, MPI_Request *, int *, MPI_Status *)) \
    X(PMPI_Testany, int, (int, MPI_Request *, int *, int *, MPI_Status *)) \
    X(PMPI_Testsome, int, (int, MPI_Request *, int *, int *, MPI_Status *)) \
    X(PMPI_Request_free, int, (MPI_Request *))

#define IOLENS_MPI_CALLS(X) IOLENS_MPI_CALLS_CORE(X) IOLENS_MPI_CALLS_FILE(X)

#define IOLENS_MPI_DECLARE(name, ret, params) extern ret(*iolens_##name) params;
IOLENS_MPI_CALLS(IOLENS_MPI_DECLARE)
#undef IOLENS_MPI_DECLARE

/* Resolves every pointer (idempotent, thread-safe).  Returns 1 if the
 * process has an MPI library (PMPI_Init was found), else 0. */
int iolens_mpi_calls_resolve(void);

/* iolens_mpi_calls_resolve, and when it finds no MPI library, a search of
 * every loaded object for PMPI_Init: a library loaded by dlopen with
 * RTLD_LOCAL (Python's extension modules, mpi4py) is in no scope that
 * dlsym(RTLD_NEXT) or RTLD_DEFAULT searches, yet its module's calls to
 * MPI_Init reach our wrapper first.  For MPI_Init only: it walks the
 * loaded objects.  Returns 1 if an MPI library was found. */
int iolens_mpi_calls_resolve_loaded(void);

/* The running MPI library is not the one libiolens was compiled for
 * (MPI_Init's check, lib/mpi/mpi_runtime.c): its handles, requests and
 * structs mean other things.  The PMPI pointers stay, so that the
 * wrappers still forward every call, but nothing else may use MPI. */
void iolens_mpi_calls_refuse(void);
int iolens_mpi_calls_refused(void);
/* 1 once refused: read by the exported entries' instructions
 * (wrappers/mpi_entry.c), hence a plain int. */
extern int iolens_mpi_refused;

/* An MPI library is present and it is the one libiolens was compiled
 * for: the MPI layers may work (iolens_mpi_calls_resolve, and not
 * refused). */
int iolens_mpi_calls_usable(void);

/* The wrappers' way to reach PMPI_x: iolens_PMPI_x after resolution. */
#define IOLENS_PMPI(name) \
    (__builtin_expect(iolens_##name != NULL, 1) ? iolens_##name \
                                               : (iolens_mpi_calls_resolve(), iolens_##name))

#endif
