/* The MPI job's life cycle as the runtime sees it.  Called from the
 * MPI_Init/MPI_Finalize wrappers (wrappers/mpi.c) and from runtime.c.
 * libiolens never links libmpi: every MPI function is reached through
 * lib/mpi_calls.h, resolved in the running process. */
#ifndef IOLENS_MPI_RUNTIME_H
#define IOLENS_MPI_RUNTIME_H

/* 1 if the process has an MPI library loaded (PMPI_Init resolvable), i.e.
 * it is an MPI program: traced from its start without IOLENS_NONMPI. */
int iolens_mpi_program_detected(void);

/* After PMPI_Init/PMPI_Init_thread returned MPI_SUCCESS. */
void iolens_mpi_on_init(void);
/* At MPI_Finalize, before PMPI_Finalize: reduces shared records and writes
 * the job's one log collectively, then stops tracing. */
void iolens_mpi_on_finalize(void);

int iolens_mpi_initialized(void);   /* MPI_Init seen and not finalized */
int iolens_mpi_rank(void);          /* 0 before MPI_Init */
int iolens_mpi_nprocs(void);        /* 1 before MPI_Init */

#endif
