/* Bookkeeping of the MPI-IO layer, fed by wrappers/mpiio.c.  The wrappers
 * time a call, run it through PMPI and hand the facts here; every function
 * below is called only after the call returned MPI_SUCCESS, and takes the
 * call's start and end time (iolens_now(), clock units).
 *
 * Rules (also described in iolens(7)):
 *  - The record of a file is keyed by the normalized absolute path given
 *    to MPI_File_open (a ROMIO file-system prefix such as "ufs:" is
 *    dropped), so it is the same file entry the POSIX layer uses.  A file
 *    the budget cannot hold is folded into <other files>.
 *  - An MPI_File handle is tracked from a successful open of a traced path
 *    to its close, in a fixed table allocated from the budget at start-up;
 *    a handle opened while the table is full has its open counted, and
 *    nothing after it.
 *  - Bytes of an access are the datatype's size times the count, whatever
 *    the call then transferred.  The operation, its bytes, its size bin and
 *    its access size, a derived memory datatype and a read/write switch
 *    are counted when the operation is issued (program order).
 *  - Timing: a blocking call from its start to its return; a split
 *    collective from the start of _begin to the return of _end; a
 *    nonblocking call from the start of the call that issued it to the
 *    return of the MPI_Wait/Test family call (or MPI_Request_free) that
 *    completed it.  When the table of pending requests is full the
 *    nonblocking call is timed from its start to its return instead. */
#ifndef IOLENS_MPIIO_LAYER_H
#define IOLENS_MPIIO_LAYER_H

#include "core/mpi_handles.h"
#include <stdatomic.h>
#include <stdint.h>

#include "iolens/log_format.h"

/* The runtime walks the layer through its entry in the layer table
 * (layers/layer_ops.h): start-up allocates the MPI_File table and the
 * pending-request table from the budget. */

enum iolens_mpiio_dir { IOLENS_MPIIO_READ, IOLENS_MPIIO_WRITE };

/* Which family of counters an access goes to (log_format.h): _shared
 * calls are independent, _ordered ones collective. */
enum iolens_mpiio_kind {
    IOLENS_MPIIO_INDEP,   /* read, read_at, read_shared and the writes */
    IOLENS_MPIIO_COLL,    /* read_all, read_at_all, read_ordered ... */
    IOLENS_MPIIO_SPLIT,   /* *_begin / *_end */
    IOLENS_MPIIO_NB,      /* iread ... iwrite_at_all */
};

/* 1 if fh is a tracked handle (wrappers pass other calls straight on). */
int iolens_mpiio_is_traced(MPI_File fh);

/* MPI_File_open returned fh. */
void iolens_mpiio_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                       MPI_File fh, double t0, double t1);

/* close is split in two, as for stdio streams: the handle leaves the table
 * BEFORE the real close, since the freed handle may be handed out again at
 * once by another thread's open.  begin returns the record to charge (NULL
 * if fh is untracked); end is called if the close succeeded. */
struct iolens_mpiio_rec;
struct iolens_mpiio_rec *iolens_mpiio_close_begin(MPI_File fh);
void iolens_mpiio_close_end(struct iolens_mpiio_rec *rec, double t0, double t1);

void iolens_mpiio_sync(MPI_File fh, double t0, double t1);
/* set_size and preallocate: metadata time only. */
void iolens_mpiio_meta(MPI_File fh, double t0, double t1);
/* A new view (after a successful MPI_File_set_view). */
void iolens_mpiio_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                           MPI_Datatype filetype, double t0, double t1);
void iolens_mpiio_set_info(MPI_File fh, double t0, double t1);

/* A blocking read or write (kind INDEP or COLL) of count items of dt. */
void iolens_mpiio_access(MPI_File fh, enum iolens_mpiio_dir dir, enum iolens_mpiio_kind kind,
                         MPI_Datatype dt, MPI_Count count, double t0, double t1);

/* The _at forms below also take where the access started, for the
 * access-pattern detector (MPIIO_PAT_*): at is a position in etypes
 * relative to the handle's view (the offset of an explicit-offset call,
 * the individual file pointer before the call), which the layer turns
 * into a byte offset (MPI_File_get_byte_offset); IOLENS_MPIIO_AT_UNKNOWN
 * for shared-file-pointer calls, which do not feed the detector.  The
 * forms without _at are the same with IOLENS_MPIIO_AT_UNKNOWN.  Steps are
 * taken between accesses through the same handle. */
#define IOLENS_MPIIO_AT_UNKNOWN ((MPI_Offset)-1)
void iolens_mpiio_access_at(MPI_File fh, enum iolens_mpiio_dir dir, enum iolens_mpiio_kind kind,
                            MPI_Datatype dt, MPI_Count count, MPI_Offset at, double t0,
                            double t1);
void iolens_mpiio_split_begin_at(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                                 MPI_Count count, MPI_Offset at, double t0);
void iolens_mpiio_issue_at(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                           MPI_Count count, MPI_Offset at, MPI_Request req, double t0,
                           double t1);

/* A read or write (any kind) on fh that did not return MPI_SUCCESS: no
 * counter changes, only an access interval of the bytes requested,
 * flagged IOLENS_IV_FAILED (BPS counts every access; layer_intervals.h).
 * Every successful access adds its interval when it ends. */
void iolens_mpiio_failed_access(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                                MPI_Count count, double t0, double t1);
/* A split collective: _begin started at t0 (counted then), _end returned
 * at t1 (timed then).  At most one is in progress per handle (MPI rule). */
void iolens_mpiio_split_begin(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                              MPI_Count count, double t0);
void iolens_mpiio_split_end(MPI_File fh, double t1);

/* A nonblocking read or write returned request req. */
void iolens_mpiio_issue(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                        MPI_Count count, MPI_Request req, double t0, double t1);

/* ------------------------------------------------ request completion -- */

/* Nonblocking MPI-IO requests issued and not yet completed.  The wrappers
 * of MPI_Wait, MPI_Test, their variants and MPI_Request_free look at it
 * first: when it is 0 (no MPI-IO in flight, the usual case) they call
 * PMPI at once, and that one load is all they cost. */
extern _Atomic int iolens_mpiio_pending;

static inline int iolens_mpiio_any_pending(void)
{
    return atomic_load_explicit(&iolens_mpiio_pending, memory_order_acquire) != 0;
}

/* Most requests pending at once; beyond that a request is timed at issue. */
#define IOLENS_MPIIO_MAX_PENDING 256

/* The tracked requests among those a completion call was given, taken
 * BEFORE the call (which overwrites completed requests with
 * MPI_REQUEST_NULL).  seq tells a request from a later one that MPI gave
 * the same handle value. */
struct iolens_mpiio_watch {
    int n;
    struct {
        int index;          /* position in the caller's array */
        unsigned slot;      /* in the pending-request table */
        uint64_t seq;
    } req[IOLENS_MPIIO_MAX_PENDING];
};

/* Fills w with the tracked requests among reqs[0..count). */
void iolens_mpiio_watch(struct iolens_mpiio_watch *w, const MPI_Request *reqs, int count);
/* After the completion call returned at t1: every watched request that is
 * now MPI_REQUEST_NULL in reqs completed; its operation is timed to t1. */
void iolens_mpiio_settle(const struct iolens_mpiio_watch *w, const MPI_Request *reqs, double t1);

#endif
