/* The shutdown's collectives, waiting without hogging a core (mpi_coll.h). */
#include "mpi/mpi_coll.h"

#include <sched.h>
#include <time.h>

#include "core/mpi_calls.h"

long iolens_coll_pause_ns(unsigned tests)
{
    if (tests < IOLENS_COLL_YIELD_TESTS)
        return 0;
    unsigned doublings = tests - IOLENS_COLL_YIELD_TESTS;
    long ns = IOLENS_COLL_FIRST_SLEEP_NS;
    while (doublings-- > 0 && ns < IOLENS_COLL_MAX_SLEEP_NS)
        ns *= 2;
    return ns < IOLENS_COLL_MAX_SLEEP_NS ? ns : IOLENS_COLL_MAX_SLEEP_NS;
}

/* Tests req until it is done, pausing between tests as
 * iolens_coll_pause_ns says.  Returns the MPI error code of the failing
 * test, else MPI_SUCCESS. */
static int wait_pausing(MPI_Request *req)
{
    for (unsigned tests = 0;; tests++) {
        int done = 0;
        int rc = IOLENS_PMPI(PMPI_Test)(req, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS || done)
            return rc;
        long ns = iolens_coll_pause_ns(tests);
        if (ns == 0) {
            sched_yield();
        } else {
            struct timespec pause = {0, ns};
            nanosleep(&pause, NULL);
        }
    }
}

/* The nonblocking call's result, waited for. */
static int started(int rc, MPI_Request *req)
{
    return rc == MPI_SUCCESS ? wait_pausing(req) : rc;
}

int iolens_coll_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    MPI_Request req;
    if (IOLENS_PMPI(PMPI_Ibcast) == NULL || IOLENS_PMPI(PMPI_Test) == NULL)
        return IOLENS_PMPI(PMPI_Bcast)(buf, count, type, root, comm);
    return started(IOLENS_PMPI(PMPI_Ibcast)(buf, count, type, root, comm, &req), &req);
}

int iolens_coll_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm)
{
    MPI_Request req;
    if (IOLENS_PMPI(PMPI_Igather) == NULL || IOLENS_PMPI(PMPI_Test) == NULL)
        return IOLENS_PMPI(PMPI_Gather)(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    return started(
        IOLENS_PMPI(PMPI_Igather)(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, &req),
        &req);
}

int iolens_coll_gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int *rcounts, const int *displs, MPI_Datatype rtype, int root,
                        MPI_Comm comm)
{
    MPI_Request req;
    if (IOLENS_PMPI(PMPI_Igatherv) == NULL || IOLENS_PMPI(PMPI_Test) == NULL)
        return IOLENS_PMPI(PMPI_Gatherv)(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
                                         comm);
    return started(IOLENS_PMPI(PMPI_Igatherv)(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                              root, comm, &req),
                   &req);
}

int iolens_coll_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Request req;
    if (IOLENS_PMPI(PMPI_Ialltoall) == NULL || IOLENS_PMPI(PMPI_Test) == NULL)
        return IOLENS_PMPI(PMPI_Alltoall)(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return started(
        IOLENS_PMPI(PMPI_Ialltoall)(sbuf, scount, stype, rbuf, rcount, rtype, comm, &req), &req);
}

int iolens_coll_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                          MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                          MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Request req;
    if (IOLENS_PMPI(PMPI_Ialltoallv) == NULL || IOLENS_PMPI(PMPI_Test) == NULL)
        return IOLENS_PMPI(PMPI_Alltoallv)(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                                           rtype, comm);
    return started(IOLENS_PMPI(PMPI_Ialltoallv)(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                                                rdispls, rtype, comm, &req),
                   &req);
}

int iolens_coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    MPI_Request req;
    if (IOLENS_PMPI(PMPI_Iallreduce) == NULL || IOLENS_PMPI(PMPI_Test) == NULL)
        return IOLENS_PMPI(PMPI_Allreduce)(sbuf, rbuf, count, type, op, comm);
    return started(IOLENS_PMPI(PMPI_Iallreduce)(sbuf, rbuf, count, type, op, comm, &req), &req);
}
