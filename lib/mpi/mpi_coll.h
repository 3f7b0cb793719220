/* The shutdown's collectives, waiting without hogging a core.
 *
 * MPICH (and Open MPI by default) wait for a collective by polling: a
 * rank that arrives early spins on its core until the others catch up.
 * When a node runs more ranks than it has cores, the spinning ranks take
 * the cores from the very ranks they wait for, and every step of every
 * collective waits for the scheduler to give the late rank a turn: on 2
 * cores, each collective of the shutdown took 20 ms at 8 ranks and
 * 80-150 ms at 16.  These helpers start the nonblocking form of the
 * collective (MPI-3) and, while it is not done, test it and give the core
 * away between tests (iolens_coll_pause_ns).  An MPI library without the
 * nonblocking form gets the blocking call.
 *
 * Each returns what the MPI call returned. */
#ifndef IOLENS_MPI_COLL_H
#define IOLENS_MPI_COLL_H

#include "core/mpi_handles.h"

/* The pause after the tests-th test (from 0) that found a collective not
 * done: 0 for the first IOLENS_COLL_YIELD_TESTS, meaning sched_yield, then
 * a sleep of IOLENS_COLL_FIRST_SLEEP_NS nanoseconds, doubling at each test
 * up to IOLENS_COLL_MAX_SLEEP_NS.  Yielding alone still woke every waiting
 * rank at each turn of the scheduler: at 8 ranks x 10000 files on 2 cores
 * the waiters' sched_yield and context switches took a fifth of the CPU
 * the shutdown used (6,000 to 32,000 switches), CPU the ranks still at
 * work needed.  Sleeping, a waiter wakes a few thousand times a second at
 * most.  A rank sees its collective complete at most
 * IOLENS_COLL_MAX_SLEEP_NS late, and a step it must pass on (a tree-shaped
 * broadcast) waits as long.  With a core per rank the short collectives
 * finish within the yields. */
#define IOLENS_COLL_YIELD_TESTS 16u
#define IOLENS_COLL_FIRST_SLEEP_NS 10000L
#define IOLENS_COLL_MAX_SLEEP_NS 250000L
long iolens_coll_pause_ns(unsigned tests);

int iolens_coll_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int iolens_coll_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm);
int iolens_coll_gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int *rcounts, const int *displs, MPI_Datatype rtype, int root,
                        MPI_Comm comm);
int iolens_coll_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm);
int iolens_coll_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                          MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                          MPI_Datatype rtype, MPI_Comm comm);
int iolens_coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm);

#endif
