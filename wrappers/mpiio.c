/* MPI-IO interposition through the profiling interface (PMPI).  As in
 * wrappers/posix.c, each wrapper:
 *   1. gets the PMPI function (resolved in the running process, see
 *      lib/core/mpi_calls.h; MPI_ERR_UNSUPPORTED_OPERATION if the MPI library
 *      lacks it);
 *   2. if the MPI-IO layer is not tracing, or the handle is not tracked,
 *      calls it straight away;
 *   3. else times the call and, when it returned MPI_SUCCESS, hands the
 *      facts to lib/layers/mpiio_layer.c.
 * The return value is always exactly the PMPI call's; errno is kept.
 *
 * The read/write wrappers all have the same four-line body, so a macro
 * declares each of them from its prototype (one line per call below); the
 * bookkeeping they share is in the typed after_* functions.  The
 * prototypes must match MPICH's mpio.h exactly (const-ness included): the
 * compiler checks them against the declarations there.
 *
 * MPI_Wait, MPI_Test, their variants and MPI_Request_free are wrapped to
 * time nonblocking MPI-IO to completion.  They cost one atomic load when
 * no MPI-IO request is pending. */
#include <errno.h>
#include <mpi.h>
#include <stdatomic.h>

#include "core/clock.h"
#include "core/file_table.h"
#include "core/mpi_calls.h"
#include "layers/mpiio_layer.h"
#include "core/state.h"
#include "wrapper.h"

/* Declares fn as the PMPI function name; fails the call if it is missing. */
#define PMPI_OR_FAIL(fn, name)                   \
    __typeof__(iolens_##name) fn = IOLENS_PMPI(name); \
    if (__builtin_expect(fn == NULL, 0))         \
        return MPI_ERR_UNSUPPORTED_OPERATION;

static inline int tracing(void)
{
    return iolens_tracing(IOLENS_LAYER_MPIIO);
}

/* Calls on a handle the layer does not track (opened before tracing
 * started, or on an excluded path) are passed straight through. */
static inline int traced(MPI_File fh)
{
    return tracing() && iolens_mpiio_is_traced(fh);
}

/* ------------------------------------------- after the real call -- */
/* Each takes the call's result and start time, reads the end time, and
 * reports a successful call to the layer (a failed read or write too: its
 * access interval counts for BPS). */

/* Where an access through the individual file pointer starts: the
 * pointer before the call (etypes in the view; mpiio_layer.h). */
static MPI_Offset pointer_position(MPI_File fh)
{
    MPI_Offset pos;
    int (*get)(MPI_File, MPI_Offset *) = IOLENS_PMPI(PMPI_File_get_position);
    if (get == NULL)
        return IOLENS_MPIIO_AT_UNKNOWN;
    int saved = enter();
    int rc = get(fh, &pos);
    leave(saved);
    return rc == MPI_SUCCESS ? pos : IOLENS_MPIIO_AT_UNKNOWN;
}

static int after_access(MPI_File fh, enum iolens_mpiio_dir dir, enum iolens_mpiio_kind kind,
                        MPI_Datatype dt, MPI_Count count, MPI_Offset at, int rc, double t0)
{
    double t1 = iolens_now();
    int saved = enter();
    if (rc == MPI_SUCCESS)
        iolens_mpiio_access_at(fh, dir, kind, dt, count, at, t0, t1);
    else
        iolens_mpiio_failed_access(fh, dir, dt, count, t0, t1);
    leave(saved);
    return rc;
}

static int after_issue(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                       MPI_Count count, MPI_Offset at, const MPI_Request *request, int rc,
                       double t0)
{
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS && request != NULL) {
        int saved = enter();
        iolens_mpiio_issue_at(fh, dir, dt, count, at, *request, t0, t1);
        leave(saved);
    } else if (rc != MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_failed_access(fh, dir, dt, count, t0, t1);
        leave(saved);
    }
    return rc;
}

/* A split collective is timed from the start of _begin to the return of
 * _end, so _begin reports its start time only. */
static int after_split_begin(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                             MPI_Count count, MPI_Offset at, int rc, double t0)
{
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_split_begin_at(fh, dir, dt, count, at, t0);
        leave(saved);
    } else {
        double t1 = iolens_now();
        int saved = enter();
        iolens_mpiio_failed_access(fh, dir, dt, count, t0, t1);
        leave(saved);
    }
    return rc;
}

static int after_split_end(MPI_File fh, int rc)
{
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_split_end(fh, t1);
        leave(saved);
    }
    return rc;
}

/* Metadata calls: report(fh, t0, t1) is the layer function to call. */
static int after_meta(MPI_File fh, void (*report)(MPI_File, double, double), int rc, double t0)
{
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        report(fh, t0, t1);
        leave(saved);
    }
    return rc;
}

/* ------------------------------------------- file management -- */

IOLENS_EXPORT int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                                MPI_File *fh)
{
    PMPI_OR_FAIL(real, PMPI_File_open);
    if (!tracing() || fh == NULL)
        return real(comm, filename, amode, info, fh);
    double t0 = iolens_now();
    int rc = real(comm, filename, amode, info, fh);
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_open(comm, filename, amode, info, *fh, t0, t1);
        leave(saved);
    }
    return rc;
}

IOLENS_EXPORT int MPI_File_close(MPI_File *fh)
{
    PMPI_OR_FAIL(real, PMPI_File_close);
    if (fh == NULL || !traced(*fh))
        return real(fh);
    int saved = enter();
    struct iolens_mpiio_rec *rec = iolens_mpiio_close_begin(*fh);
    leave(saved);
    double t0 = iolens_now();
    int rc = real(fh);
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        saved = enter();
        iolens_mpiio_close_end(rec, t0, t1);
        leave(saved);
    }
    return rc;
}

IOLENS_EXPORT int MPI_File_sync(MPI_File fh)
{
    PMPI_OR_FAIL(real, PMPI_File_sync);
    if (!traced(fh))
        return real(fh);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_sync, real(fh), t0);
}

IOLENS_EXPORT int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    PMPI_OR_FAIL(real, PMPI_File_set_size);
    if (!traced(fh))
        return real(fh, size);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_meta, real(fh, size), t0);
}

IOLENS_EXPORT int MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    PMPI_OR_FAIL(real, PMPI_File_preallocate);
    if (!traced(fh))
        return real(fh, size);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_meta, real(fh, size), t0);
}

IOLENS_EXPORT int MPI_File_set_info(MPI_File fh, MPI_Info info)
{
    PMPI_OR_FAIL(real, PMPI_File_set_info);
    if (!traced(fh))
        return real(fh, info);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_set_info, real(fh, info), t0);
}

IOLENS_EXPORT int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                                    MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
    PMPI_OR_FAIL(real, PMPI_File_set_view);
    if (!traced(fh))
        return real(fh, disp, etype, filetype, datarep, info);
    double t0 = iolens_now();
    int rc = real(fh, disp, etype, filetype, datarep, info);
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_set_view(fh, disp, etype, filetype, t0, t1);
        leave(saved);
    }
    return rc;
}

/* ---------------------------------------------------- reads, writes -- */

/* Prototype shapes: explicit offset (AT) or file pointer (PTR), ending in
 * a status (blocking), a request (nonblocking) or nothing (_begin).  B is
 * the buffer type, C the count type (int, or MPI_Count for _c). */
#define AT_STATUS(B, C) \
    (MPI_File fh, MPI_Offset offset, B buf, C count, MPI_Datatype datatype, MPI_Status *status)
#define AT_REQUEST(B, C) \
    (MPI_File fh, MPI_Offset offset, B buf, C count, MPI_Datatype datatype, MPI_Request *request)
#define AT_BEGIN(B, C) (MPI_File fh, MPI_Offset offset, B buf, C count, MPI_Datatype datatype)
#define PTR_STATUS(B, C) (MPI_File fh, B buf, C count, MPI_Datatype datatype, MPI_Status *status)
#define PTR_REQUEST(B, C) \
    (MPI_File fh, B buf, C count, MPI_Datatype datatype, MPI_Request *request)
#define PTR_BEGIN(B, C) (MPI_File fh, B buf, C count, MPI_Datatype datatype)
#define END(B) (MPI_File fh, B buf, MPI_Status *status)

#define ARGS_AT_STATUS (fh, offset, buf, count, datatype, status)
#define ARGS_AT_REQUEST (fh, offset, buf, count, datatype, request)
#define ARGS_AT_BEGIN (fh, offset, buf, count, datatype)
#define ARGS_PTR_STATUS (fh, buf, count, datatype, status)
#define ARGS_PTR_REQUEST (fh, buf, count, datatype, request)
#define ARGS_PTR_BEGIN (fh, buf, count, datatype)
#define ARGS_END (fh, buf, status)

/* Where an access starts (the "at" of mpiio_layer.h), evaluated before
 * the call: the explicit offset, the individual file pointer, or unknown
 * (shared file pointer). */
#define AT_OFFSET offset
#define AT_POINTER pointer_position(fh)
#define AT_SHARED IOLENS_MPIIO_AT_UNKNOWN

/* A blocking read or write of the given kind (INDEP or COLL). */
#define BLOCKING(name, dir, kind, where, params, args)                                 \
    IOLENS_EXPORT int name params                                                      \
    {                                                                                  \
        PMPI_OR_FAIL(real, P##name);                                                   \
        if (!traced(fh))                                                               \
            return real args;                                                          \
        MPI_Offset at = AT_##where;                                                    \
        double t0 = iolens_now();                                                      \
        int rc = real args;                                                            \
        return after_access(fh, IOLENS_MPIIO_##dir, IOLENS_MPIIO_##kind, datatype, count, \
                            at, rc, t0);                                               \
    }

#define NONBLOCKING(name, dir, where, params, args)                                        \
    IOLENS_EXPORT int name params                                                          \
    {                                                                                      \
        PMPI_OR_FAIL(real, P##name);                                                       \
        if (!traced(fh))                                                                   \
            return real args;                                                              \
        MPI_Offset at = AT_##where;                                                        \
        double t0 = iolens_now();                                                          \
        int rc = real args;                                                                \
        return after_issue(fh, IOLENS_MPIIO_##dir, datatype, count, at, request, rc, t0);  \
    }

#define SPLIT_BEGIN(name, dir, where, params, args)                                      \
    IOLENS_EXPORT int name params                                                        \
    {                                                                                    \
        PMPI_OR_FAIL(real, P##name);                                                     \
        if (!traced(fh))                                                                 \
            return real args;                                                            \
        MPI_Offset at = AT_##where;                                                      \
        double t0 = iolens_now();                                                        \
        int rc = real args;                                                              \
        return after_split_begin(fh, IOLENS_MPIIO_##dir, datatype, count, at, rc, t0);   \
    }

#define SPLIT_END(name, params, args)      \
    IOLENS_EXPORT int name params          \
    {                                      \
        PMPI_OR_FAIL(real, P##name);       \
        if (!traced(fh))                   \
            return real args;              \
        int rc = real args;                \
        return after_split_end(fh, rc);    \
    }

/* Explicit offset. */
BLOCKING(MPI_File_read_at, READ, INDEP, OFFSET, AT_STATUS(void *, int), ARGS_AT_STATUS)
BLOCKING(MPI_File_read_at_all, READ, COLL, OFFSET, AT_STATUS(void *, int), ARGS_AT_STATUS)
BLOCKING(MPI_File_write_at, WRITE, INDEP, OFFSET, AT_STATUS(const void *, int), ARGS_AT_STATUS)
BLOCKING(MPI_File_write_at_all, WRITE, COLL, OFFSET, AT_STATUS(const void *, int), ARGS_AT_STATUS)
BLOCKING(MPI_File_read_at_c, READ, INDEP, OFFSET, AT_STATUS(void *, MPI_Count), ARGS_AT_STATUS)
BLOCKING(MPI_File_read_at_all_c, READ, COLL, OFFSET, AT_STATUS(void *, MPI_Count), ARGS_AT_STATUS)
BLOCKING(MPI_File_write_at_c, WRITE, INDEP, OFFSET, AT_STATUS(const void *, MPI_Count),
         ARGS_AT_STATUS)
BLOCKING(MPI_File_write_at_all_c, WRITE, COLL, OFFSET, AT_STATUS(const void *, MPI_Count),
         ARGS_AT_STATUS)

/* Individual file pointer. */
BLOCKING(MPI_File_read, READ, INDEP, POINTER, PTR_STATUS(void *, int), ARGS_PTR_STATUS)
BLOCKING(MPI_File_read_all, READ, COLL, POINTER, PTR_STATUS(void *, int), ARGS_PTR_STATUS)
BLOCKING(MPI_File_write, WRITE, INDEP, POINTER, PTR_STATUS(const void *, int), ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_all, WRITE, COLL, POINTER, PTR_STATUS(const void *, int), ARGS_PTR_STATUS)
BLOCKING(MPI_File_read_c, READ, INDEP, POINTER, PTR_STATUS(void *, MPI_Count), ARGS_PTR_STATUS)
BLOCKING(MPI_File_read_all_c, READ, COLL, POINTER, PTR_STATUS(void *, MPI_Count), ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_c, WRITE, INDEP, POINTER, PTR_STATUS(const void *, MPI_Count),
         ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_all_c, WRITE, COLL, POINTER, PTR_STATUS(const void *, MPI_Count),
         ARGS_PTR_STATUS)

/* Shared file pointer: _shared is independent, _ordered collective. */
BLOCKING(MPI_File_read_shared, READ, INDEP, SHARED, PTR_STATUS(void *, int), ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_shared, WRITE, INDEP, SHARED, PTR_STATUS(const void *, int),
         ARGS_PTR_STATUS)
BLOCKING(MPI_File_read_ordered, READ, COLL, SHARED, PTR_STATUS(void *, int), ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_ordered, WRITE, COLL, SHARED, PTR_STATUS(const void *, int),
         ARGS_PTR_STATUS)
BLOCKING(MPI_File_read_shared_c, READ, INDEP, SHARED, PTR_STATUS(void *, MPI_Count),
         ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_shared_c, WRITE, INDEP, SHARED, PTR_STATUS(const void *, MPI_Count),
         ARGS_PTR_STATUS)
BLOCKING(MPI_File_read_ordered_c, READ, COLL, SHARED, PTR_STATUS(void *, MPI_Count),
         ARGS_PTR_STATUS)
BLOCKING(MPI_File_write_ordered_c, WRITE, COLL, SHARED, PTR_STATUS(const void *, MPI_Count),
         ARGS_PTR_STATUS)

/* Nonblocking. */
NONBLOCKING(MPI_File_iread_at, READ, OFFSET, AT_REQUEST(void *, int), ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iwrite_at, WRITE, OFFSET, AT_REQUEST(const void *, int), ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iread_at_all, READ, OFFSET, AT_REQUEST(void *, int), ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iwrite_at_all, WRITE, OFFSET, AT_REQUEST(const void *, int), ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iread, READ, POINTER, PTR_REQUEST(void *, int), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iwrite, WRITE, POINTER, PTR_REQUEST(const void *, int), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iread_all, READ, POINTER, PTR_REQUEST(void *, int), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iwrite_all, WRITE, POINTER, PTR_REQUEST(const void *, int), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iread_shared, READ, SHARED, PTR_REQUEST(void *, int), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iwrite_shared, WRITE, SHARED, PTR_REQUEST(const void *, int), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iread_at_c, READ, OFFSET, AT_REQUEST(void *, MPI_Count), ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iwrite_at_c, WRITE, OFFSET, AT_REQUEST(const void *, MPI_Count),
            ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iread_at_all_c, READ, OFFSET, AT_REQUEST(void *, MPI_Count), ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iwrite_at_all_c, WRITE, OFFSET, AT_REQUEST(const void *, MPI_Count),
            ARGS_AT_REQUEST)
NONBLOCKING(MPI_File_iread_c, READ, POINTER, PTR_REQUEST(void *, MPI_Count), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iwrite_c, WRITE, POINTER, PTR_REQUEST(const void *, MPI_Count),
            ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iread_all_c, READ, POINTER, PTR_REQUEST(void *, MPI_Count), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iwrite_all_c, WRITE, POINTER, PTR_REQUEST(const void *, MPI_Count),
            ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iread_shared_c, READ, SHARED, PTR_REQUEST(void *, MPI_Count), ARGS_PTR_REQUEST)
NONBLOCKING(MPI_File_iwrite_shared_c, WRITE, SHARED, PTR_REQUEST(const void *, MPI_Count),
            ARGS_PTR_REQUEST)

/* Split collective. */
SPLIT_BEGIN(MPI_File_read_at_all_begin, READ, OFFSET, AT_BEGIN(void *, int), ARGS_AT_BEGIN)
SPLIT_BEGIN(MPI_File_write_at_all_begin, WRITE, OFFSET, AT_BEGIN(const void *, int), ARGS_AT_BEGIN)
SPLIT_BEGIN(MPI_File_read_all_begin, READ, POINTER, PTR_BEGIN(void *, int), ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_write_all_begin, WRITE, POINTER, PTR_BEGIN(const void *, int), ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_read_ordered_begin, READ, SHARED, PTR_BEGIN(void *, int), ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_write_ordered_begin, WRITE, SHARED, PTR_BEGIN(const void *, int),
            ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_read_at_all_begin_c, READ, OFFSET, AT_BEGIN(void *, MPI_Count), ARGS_AT_BEGIN)
SPLIT_BEGIN(MPI_File_write_at_all_begin_c, WRITE, OFFSET, AT_BEGIN(const void *, MPI_Count),
            ARGS_AT_BEGIN)
SPLIT_BEGIN(MPI_File_read_all_begin_c, READ, POINTER, PTR_BEGIN(void *, MPI_Count), ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_write_all_begin_c, WRITE, POINTER, PTR_BEGIN(const void *, MPI_Count),
            ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_read_ordered_begin_c, READ, SHARED, PTR_BEGIN(void *, MPI_Count),
            ARGS_PTR_BEGIN)
SPLIT_BEGIN(MPI_File_write_ordered_begin_c, WRITE, SHARED, PTR_BEGIN(const void *, MPI_Count),
            ARGS_PTR_BEGIN)
SPLIT_END(MPI_File_read_at_all_end, END(void *), ARGS_END)
SPLIT_END(MPI_File_write_at_all_end, END(const void *), ARGS_END)
SPLIT_END(MPI_File_read_all_end, END(void *), ARGS_END)
SPLIT_END(MPI_File_write_all_end, END(const void *), ARGS_END)
SPLIT_END(MPI_File_read_ordered_end, END(void *), ARGS_END)
SPLIT_END(MPI_File_write_ordered_end, END(const void *), ARGS_END)

/* ------------------------------------------------ request completion -- */
/* Fast path: no MPI-IO request pending, call PMPI at once.  Slow path
 * (out of line, it has a sizeable stack frame): note which of the given
 * requests are pending MPI-IO, make the call, then time those that
 * completed (completion overwrote them with MPI_REQUEST_NULL). */

static void watch(struct iolens_mpiio_watch *w, const MPI_Request *reqs, int count)
{
    int saved = enter();
    iolens_mpiio_watch(w, reqs, count);
    leave(saved);
}

static int settle(const struct iolens_mpiio_watch *w, const MPI_Request *reqs, int rc)
{
    double t1 = iolens_now();
    if (w->n > 0) {
        int saved = enter();
        iolens_mpiio_settle(w, reqs, t1);
        leave(saved);
    }
    return rc;
}

static inline int nothing_pending(void)
{
    return __builtin_expect(!iolens_mpiio_any_pending(), 1);
}

static __attribute__((noinline)) int wait_watched(MPI_Request *request, MPI_Status *status)
{
    struct iolens_mpiio_watch w;
    watch(&w, request, 1);
    return settle(&w, request, iolens_PMPI_Wait(request, status));
}

IOLENS_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_Wait);
    if (nothing_pending() || request == NULL)
        return real(request, status);
    return wait_watched(request, status);
}

static __attribute__((noinline)) int test_watched(MPI_Request *request, int *flag,
                                                  MPI_Status *status)
{
    struct iolens_mpiio_watch w;
    watch(&w, request, 1);
    return settle(&w, request, iolens_PMPI_Test(request, flag, status));
}

IOLENS_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_Test);
    if (nothing_pending() || request == NULL)
        return real(request, flag, status);
    return test_watched(request, flag, status);
}

static __attribute__((noinline)) int request_free_watched(MPI_Request *request)
{
    struct iolens_mpiio_watch w;
    watch(&w, request, 1);
    return settle(&w, request, iolens_PMPI_Request_free(request));
}

/* A pending MPI-IO request given up with MPI_Request_free is timed to the
 * free: its end is unknown, and its handle may be reused at once. */
IOLENS_EXPORT int MPI_Request_free(MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_Request_free);
    if (nothing_pending() || request == NULL)
        return real(request);
    return request_free_watched(request);
}

static __attribute__((noinline)) int waitall_watched(int count, MPI_Request reqs[],
                                                     MPI_Status statuses[])
{
    struct iolens_mpiio_watch w;
    watch(&w, reqs, count);
    return settle(&w, reqs, iolens_PMPI_Waitall(count, reqs, statuses));
}

IOLENS_EXPORT int MPI_Waitall(int count, MPI_Request array_of_requests[],
                              MPI_Status array_of_statuses[])
{
    PMPI_OR_FAIL(real, PMPI_Waitall);
    if (nothing_pending() || array_of_requests == NULL)
        return real(count, array_of_requests, array_of_statuses);
    return waitall_watched(count, array_of_requests, array_of_statuses);
}

static __attribute__((noinline)) int waitany_watched(int count, MPI_Request reqs[], int *indx,
                                                     MPI_Status *status)
{
    struct iolens_mpiio_watch w;
    watch(&w, reqs, count);
    return settle(&w, reqs, iolens_PMPI_Waitany(count, reqs, indx, status));
}

IOLENS_EXPORT int MPI_Waitany(int count, MPI_Request array_of_requests[], int *indx,
                              MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_Waitany);
    if (nothing_pending() || array_of_requests == NULL)
        return real(count, array_of_requests, indx, status);
    return waitany_watched(count, array_of_requests, indx, status);
}

static __attribute__((noinline)) int waitsome_watched(int incount, MPI_Request reqs[],
                                                      int *outcount, int indices[],
                                                      MPI_Status statuses[])
{
    struct iolens_mpiio_watch w;
    watch(&w, reqs, incount);
    return settle(&w, reqs, iolens_PMPI_Waitsome(incount, reqs, outcount, indices, statuses));
}

IOLENS_EXPORT int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status array_of_statuses[])
{
    PMPI_OR_FAIL(real, PMPI_Waitsome);
    if (nothing_pending() || array_of_requests == NULL)
        return real(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return waitsome_watched(incount, array_of_requests, outcount, array_of_indices,
                            array_of_statuses);
}

static __attribute__((noinline)) int testall_watched(int count, MPI_Request reqs[], int *flag,
                                                     MPI_Status statuses[])
{
    struct iolens_mpiio_watch w;
    watch(&w, reqs, count);
    return settle(&w, reqs, iolens_PMPI_Testall(count, reqs, flag, statuses));
}

IOLENS_EXPORT int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                              MPI_Status array_of_statuses[])
{
    PMPI_OR_FAIL(real, PMPI_Testall);
    if (nothing_pending() || array_of_requests == NULL)
        return real(count, array_of_requests, flag, array_of_statuses);
    return testall_watched(count, array_of_requests, flag, array_of_statuses);
}

static __attribute__((noinline)) int testany_watched(int count, MPI_Request reqs[], int *indx,
                                                     int *flag, MPI_Status *status)
{
    struct iolens_mpiio_watch w;
    watch(&w, reqs, count);
    return settle(&w, reqs, iolens_PMPI_Testany(count, reqs, indx, flag, status));
}

IOLENS_EXPORT int MPI_Testany(int count, MPI_Request array_of_requests[], int *indx, int *flag,
                              MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_Testany);
    if (nothing_pending() || array_of_requests == NULL)
        return real(count, array_of_requests, indx, flag, status);
    return testany_watched(count, array_of_requests, indx, flag, status);
}

static __attribute__((noinline)) int testsome_watched(int incount, MPI_Request reqs[],
                                                      int *outcount, int indices[],
                                                      MPI_Status statuses[])
{
    struct iolens_mpiio_watch w;
    watch(&w, reqs, incount);
    return settle(&w, reqs, iolens_PMPI_Testsome(incount, reqs, outcount, indices, statuses));
}

IOLENS_EXPORT int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status array_of_statuses[])
{
    PMPI_OR_FAIL(real, PMPI_Testsome);
    if (nothing_pending() || array_of_requests == NULL)
        return real(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return testsome_watched(incount, array_of_requests, outcount, array_of_indices,
                            array_of_statuses);
}
