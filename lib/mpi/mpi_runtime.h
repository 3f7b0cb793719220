/* The MPI job's life cycle as the runtime sees it.  Called from the
 * MPI_Init/MPI_Finalize wrappers (wrappers/mpi.c) and from runtime.c.
 * libiolens never links libmpi: every MPI function is reached through
 * lib/core/mpi_calls.h, resolved in the running process. */
#ifndef IOLENS_MPI_RUNTIME_H
#define IOLENS_MPI_RUNTIME_H

#include <stddef.h>

/* 1 if the process has an MPI library loaded (PMPI_Init resolvable), i.e.
 * it is an MPI program: traced from its start without IOLENS_NONMPI; 0
 * once that library was refused (iolens_mpi_check_library). */
int iolens_mpi_program_detected(void);

/* Before PMPI_Init/PMPI_Init_thread: 1 if the running MPI library is the
 * family (and for Open MPI the major version) libiolens was compiled for.
 * If not, says so in one line (from rank 0), refuses the MPI calls
 * (lib/core/mpi_calls.h) and returns 0: the program is then traced as a
 * non-MPI one (POSIX, STDIO; one log per process), and the wrappers only
 * forward MPI calls. */
int iolens_mpi_check_library(void);

/* After PMPI_Init/PMPI_Init_thread returned MPI_SUCCESS. */
void iolens_mpi_on_init(void);
/* At MPI_Finalize, before PMPI_Finalize: reduces shared records and writes
 * the job's one log collectively, then stops tracing. */
void iolens_mpi_on_finalize(void);

int iolens_mpi_initialized(void);   /* MPI_Init seen and not finalized */
int iolens_mpi_rank(void);          /* 0 before MPI_Init */
int iolens_mpi_nprocs(void);        /* 1 before MPI_Init */

/* 1 once MPI_Init succeeded in this process (stays 1 after MPI_Finalize):
 * the job's log is the collective one, never a per-process log. */
int iolens_mpi_init_seen(void);

/* The path the job's log gets at MPI_Finalize, agreed on by the ranks at
 * MPI_Init; NULL before (or if it could not be built). */
const char *iolens_mpi_job_log_path(void);

/* This rank's clock offset to rank 0, measured at MPI_Init: seconds to
 * add to this rank's log times (seconds since the job start on its own
 * clock) to put them on rank 0's, and how wrong that may be (half the
 * best round trip).  0 and 0 on rank 0, before MPI_Init, or if it could
 * not be measured. */
void iolens_mpi_clock_offset(double *offset, double *uncertainty);

/* A forked child of a rank is not part of the job: it must not take part
 * in the shutdown collectives.  Called in the child after fork. */
void iolens_mpi_on_fork_child(void);

/* 1 in a child forked by a rank after MPI_Init: it writes a log of its
 * own, as a forked child of a non-MPI process does. */
int iolens_mpi_forked_from_rank(void);

/* The wrappers' answer when the MPI library lacks the PMPI function they
 * forward to (prints one line; returns MPI_ERR_INTERN). */
int iolens_mpi_missing(const char *name);

#endif
