/* MPI_Init, MPI_Init_thread and MPI_Finalize, through the profiling
 * interface (PMPI).  The job's life cycle itself is in lib/mpi/mpi_runtime.c.
 *
 * What the MPI library does inside PMPI_Init and PMPI_Finalize (reading
 * its configuration, setting up shared memory) is the library's I/O, not
 * the program's: the runtime guard is set around those calls so that it is
 * not traced. */
#include "core/mpi_handles.h"

#include "core/mpi_calls.h"
#include "mpi/mpi_runtime.h"
#include "runtime.h"
#include "wrapper.h"
#include "mpi_entry.h"

static inline int untraced_begin(void)
{
    int saved = iolens_in_runtime;
    iolens_in_runtime = 1;
    return saved;
}

static inline void untraced_end(int saved)
{
    iolens_in_runtime = saved;
}

/* Before PMPI_Init: the MPI library, wherever it was loaded; whether it
 * is the MPI libiolens was built for (if not, its handles must never be
 * used: the program is traced as a non-MPI one); and tracing started if
 * the process had no MPI library at its start. */
static void before_init(void)
{
    iolens_runtime_ensure_init();
    if (!iolens_mpi_calls_resolve_loaded())
        return;
    int saved = untraced_begin();
    (void)iolens_mpi_check_library();
    untraced_end(saved);
    iolens_runtime_start_at_mpi_init();
}

IOLENS_MPI_ENTRY(MPI_Init)(int *argc, char ***argv)
{
    before_init();
    __typeof__(iolens_PMPI_Init) init = IOLENS_PMPI(PMPI_Init);
    if (init == NULL)
        return iolens_mpi_missing("PMPI_Init");
    int saved = untraced_begin();
    int rc = init(argc, argv);
    untraced_end(saved);
    if (rc == MPI_SUCCESS)
        iolens_mpi_on_init();
    return rc;
}

IOLENS_MPI_ENTRY(MPI_Init_thread)(int *argc, char ***argv, int required, int *provided)
{
    before_init();
    __typeof__(iolens_PMPI_Init_thread) init = IOLENS_PMPI(PMPI_Init_thread);
    if (init == NULL)
        return iolens_mpi_missing("PMPI_Init_thread");
    int saved = untraced_begin();
    int rc = init(argc, argv, required, provided);
    untraced_end(saved);
    if (rc == MPI_SUCCESS)
        iolens_mpi_on_init();
    return rc;
}

IOLENS_MPI_ENTRY(MPI_Finalize)(void)
{
    __typeof__(iolens_PMPI_Finalize) finalize = IOLENS_PMPI(PMPI_Finalize);
    if (finalize == NULL)
        return iolens_mpi_missing("PMPI_Finalize");
    iolens_mpi_on_finalize();
    int saved = untraced_begin();
    int rc = finalize();
    untraced_end(saved);
    return rc;
}

/* MPI_Abort ends the job without MPI_Finalize: the calling rank's data is
 * written first, as its incomplete log (the other ranks are killed by
 * the launcher, usually with SIGKILL, and have none: iolens(7), GUARANTEES). */
IOLENS_MPI_ENTRY(MPI_Abort)(MPI_Comm comm, int errorcode)
{
    __typeof__(iolens_PMPI_Abort) abort_job = IOLENS_PMPI(PMPI_Abort);
    if (abort_job == NULL)
        return iolens_mpi_missing("PMPI_Abort");
    if (iolens_mpi_initialized() && atomic_exchange(&iolens_active, 0))
        iolens_runtime_write_incomplete();
    return abort_job(comm, errorcode);
}

