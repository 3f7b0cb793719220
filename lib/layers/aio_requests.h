/* POSIX asynchronous I/O requests in flight (wrappers/aio.c).  glibc
 * carries out aio_read and aio_write on threads of its own with internal
 * calls that no wrapper sees (MPICH's ROMIO and Open MPI's OMPIO do
 * nonblocking MPI-IO so): a request is noted when it is submitted, and
 * counted by the POSIX layer as one read or write when aio_return gives
 * its result, from the submission to that return, as Darshan counts it.
 *
 * Memory: a table of IOLENS_AIO_SLOTS notes, taken from the budget at the
 * first submission (a process that never submits pays nothing), filled to
 * three quarters at most.  A request that finds no room is counted when
 * it is submitted instead (aio.c), with the bytes it asks for.
 *
 * Locking: one lock for the table.  glibc takes one global mutex of its
 * own at every submission and every aio_return, so the table's lock
 * serializes nothing that was not already serialized. */
#ifndef IOLENS_AIO_REQUESTS_H
#define IOLENS_AIO_REQUESTS_H

#include <stdint.h>

#define IOLENS_AIO_SLOTS 512

/* What a note keeps of a request. */
struct iolens_aio_request {
    double t0;      /* iolens_now() before the submission */
    uintptr_t site; /* the call site of the submission */
    int is_write;
};

/* Notes the request whose control block is cb (a struct aiocb).  A
 * control block noted already (its earlier request never returned) is
 * noted afresh.  Returns 0, or -1 when the table has no room. */
int iolens_aio_note(const void *cb, const struct iolens_aio_request *req);

/* Takes cb's note out into *out: 1, or 0 when cb has none. */
int iolens_aio_take(const void *cb, struct iolens_aio_request *out);

/* A forked child: no request of its parent's returns in it. */
void iolens_aio_reset(void);
/* Clears the table's lock (runtime.h: iolens_runtime_release_locks). */
void iolens_aio_release_lock(void);

#endif
