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
 * The wrappers are written out, one function per call; the bookkeeping
 * they share is in the typed after_* functions (and split_end, the whole
 * body of the split-collective _end calls).  The prototypes must match
 * the MPI's own declarations exactly (const-ness included): IOLENS_MPI_ENTRY
 * (wrappers/mpi_entry.h) has the compiler check them against mpi.h's; the
 * MPI-4 _c calls only where mpi.h declares them (MPICH 4, not Open MPI
 * 4.1).
 *
 * MPI_Wait, MPI_Test, their variants and MPI_Request_free are wrapped to
 * time nonblocking MPI-IO to completion.  They cost one atomic load when
 * no MPI-IO request is pending. */
#include <errno.h>
#include "core/mpi_handles.h"
#include <stdatomic.h>

#include "core/call_site.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "core/mpi_calls.h"
#include "layers/mpiio_layer.h"
#include "core/state.h"
#define IOLENS_WRAPPER_LAYER IOLENS_LAYER_MPIIO
#include "wrapper.h"
#include "mpi_entry.h"

/* Declares fn as the PMPI function name; fails the call if it is missing. */
#define PMPI_OR_FAIL(fn, name)                   \
    __typeof__(iolens_##name) fn = IOLENS_PMPI(name); \
    if (__builtin_expect(fn == NULL, 0))         \
        return MPI_ERR_UNSUPPORTED_OPERATION;

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

/* The body of the six split-collective _end wrappers.  The real call is
 * read_end for a read and write_end for a write (the other is NULL; both
 * NULL: the MPI library lacks it).  buf is the caller's own buffer, given
 * back to read_end as the writable one it was. */
static int split_end(MPI_File fh, int (*read_end)(MPI_File, void *, MPI_Status *),
                     int (*write_end)(MPI_File, const void *, MPI_Status *), const void *buf,
                     MPI_Status *status)
{
    if (__builtin_expect(read_end == NULL && write_end == NULL, 0))
        return MPI_ERR_UNSUPPORTED_OPERATION;
    int was_traced = traced(fh);   /* asked before the call, as every wrapper does */
    int rc = read_end != NULL ? read_end(fh, (void *)buf, status) : write_end(fh, buf, status);
    return was_traced ? after_split_end(fh, rc) : rc;
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

IOLENS_MPI_ENTRY(MPI_File_open)(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
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

/* MPI_File_close: the layer takes the record out of its tables before
 * the real call, and charges it the close if the call succeeded. */
static struct iolens_mpiio_rec *before_close(MPI_File fh)
{
    int saved = enter();
    struct iolens_mpiio_rec *rec = iolens_mpiio_close_begin(fh);
    leave(saved);
    return rec;
}

static int after_close(struct iolens_mpiio_rec *rec, int rc, double t0)
{
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_close_end(rec, t0, t1);
        leave(saved);
    }
    return rc;
}

IOLENS_MPI_ENTRY(MPI_File_close)(MPI_File *fh)
{
    PMPI_OR_FAIL(real, PMPI_File_close);
    if (fh == NULL || !traced(*fh))
        return real(fh);
    struct iolens_mpiio_rec *rec = before_close(*fh);
    double t0 = iolens_now();
    return after_close(rec, real(fh), t0);
}

IOLENS_MPI_ENTRY(MPI_File_sync)(MPI_File fh)
{
    PMPI_OR_FAIL(real, PMPI_File_sync);
    if (!traced(fh))
        return real(fh);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_sync, real(fh), t0);
}

IOLENS_MPI_ENTRY(MPI_File_set_size)(MPI_File fh, MPI_Offset size)
{
    PMPI_OR_FAIL(real, PMPI_File_set_size);
    if (!traced(fh))
        return real(fh, size);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_meta, real(fh, size), t0);
}

IOLENS_MPI_ENTRY(MPI_File_preallocate)(MPI_File fh, MPI_Offset size)
{
    PMPI_OR_FAIL(real, PMPI_File_preallocate);
    if (!traced(fh))
        return real(fh, size);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_meta, real(fh, size), t0);
}

IOLENS_MPI_ENTRY(MPI_File_set_info)(MPI_File fh, MPI_Info info)
{
    PMPI_OR_FAIL(real, PMPI_File_set_info);
    if (!traced(fh))
        return real(fh, info);
    double t0 = iolens_now();
    return after_meta(fh, iolens_mpiio_set_info, real(fh, info), t0);
}

IOLENS_MPI_ENTRY(MPI_File_set_view)(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                                    MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
    PMPI_OR_FAIL(real, PMPI_File_set_view);
    if (!traced(fh))
        return real(fh, disp, etype, filetype, datarep, info);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, disp, etype, filetype, datarep, info);
    iolens_site_leave(outer);
    double t1 = iolens_now();
    if (rc == MPI_SUCCESS) {
        int saved = enter();
        iolens_mpiio_set_view(fh, disp, etype, filetype, t0, t1);
        leave(saved);
    }
    return rc;
}

/* ---------------------------------------------------- reads, writes -- */

/* Explicit offset. */

IOLENS_MPI_ENTRY(MPI_File_read_at)(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                   MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_at);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, datatype, count, offset, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_read_at_all)(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                       MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_at_all);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, datatype, count, offset, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_at)(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                    MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_at);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, datatype, count, offset, rc,
                        t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_at_all)(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                        MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_at_all);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_COLL, datatype, count, offset, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_at_c)(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                     MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_at_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, datatype, count, offset, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_at_all_c)(MPI_File fh, MPI_Offset offset, void *buf,
                                         MPI_Count count, MPI_Datatype datatype,
                                         MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_at_all_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, datatype, count, offset, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_at_c)(MPI_File fh, MPI_Offset offset, const void *buf,
                                      MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_at_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, datatype, count, offset, rc,
                        t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_at_all_c)(MPI_File fh, MPI_Offset offset, const void *buf,
                                          MPI_Count count, MPI_Datatype datatype,
                                          MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_at_all_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_COLL, datatype, count, offset, rc, t0);
}

/* Individual file pointer. */

IOLENS_MPI_ENTRY(MPI_File_read)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, datatype, count, at, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_read_all)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                    MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_all);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, datatype, count, at, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write)(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                 MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, datatype, count, at, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_all)(MPI_File fh, const void *buf, int count,
                                     MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_all);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_COLL, datatype, count, at, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_c)(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                                  MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, datatype, count, at, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_all_c)(MPI_File fh, void *buf, MPI_Count count,
                                      MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_all_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, datatype, count, at, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_c)(MPI_File fh, const void *buf, MPI_Count count,
                                   MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, datatype, count, at, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_all_c)(MPI_File fh, const void *buf, MPI_Count count,
                                       MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_all_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_COLL, datatype, count, at, rc, t0);
}

/* Shared file pointer: _shared is independent, _ordered collective. */

IOLENS_MPI_ENTRY(MPI_File_read_shared)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                       MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_shared);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_shared)(MPI_File fh, const void *buf, int count,
                                        MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_shared);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_read_ordered)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                        MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_ordered);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_ordered)(MPI_File fh, const void *buf, int count,
                                         MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_ordered);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_COLL, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_shared_c)(MPI_File fh, void *buf, MPI_Count count,
                                         MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_shared_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_shared_c)(MPI_File fh, const void *buf, MPI_Count count,
                                          MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_shared_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_ordered_c)(MPI_File fh, void *buf, MPI_Count count,
                                          MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_read_ordered_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_ordered_c)(MPI_File fh, const void *buf, MPI_Count count,
                                           MPI_Datatype datatype, MPI_Status *status)
{
    PMPI_OR_FAIL(real, PMPI_File_write_ordered_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, status);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, status);
    iolens_site_leave(outer);
    return after_access(fh, IOLENS_MPIIO_WRITE, IOLENS_MPIIO_COLL, datatype, count,
                        IOLENS_MPIIO_AT_UNKNOWN, rc, t0);
}

/* Nonblocking. */

IOLENS_MPI_ENTRY(MPI_File_iread_at)(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                    MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_at);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iwrite_at)(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                     MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_at);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iread_at_all)(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                        MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_at_all);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iwrite_at_all)(MPI_File fh, MPI_Offset offset, const void *buf,
                                         int count, MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_at_all);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iread)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                 MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, at, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iwrite)(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                  MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, at, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iread_all)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                     MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_all);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, at, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iwrite_all)(MPI_File fh, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_all);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, at, request, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_iread_shared)(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                        MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_shared);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, request, rc,
                       t0);
}

IOLENS_MPI_ENTRY(MPI_File_iwrite_shared)(MPI_File fh, const void *buf, int count,
                                         MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_shared);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, request,
                       rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iread_at_c)(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                      MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_at_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iwrite_at_c)(MPI_File fh, MPI_Offset offset, const void *buf,
                                       MPI_Count count, MPI_Datatype datatype,
                                       MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_at_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iread_at_all_c)(MPI_File fh, MPI_Offset offset, void *buf,
                                          MPI_Count count, MPI_Datatype datatype,
                                          MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_at_all_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iwrite_at_all_c)(MPI_File fh, MPI_Offset offset, const void *buf,
                                           MPI_Count count, MPI_Datatype datatype,
                                           MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_at_all_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, offset, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iread_c)(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                                   MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, at, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iwrite_c)(MPI_File fh, const void *buf, MPI_Count count,
                                    MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, at, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iread_all_c)(MPI_File fh, void *buf, MPI_Count count,
                                       MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_all_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, at, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iwrite_all_c)(MPI_File fh, const void *buf, MPI_Count count,
                                        MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_all_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, at, request, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iread_shared_c)(MPI_File fh, void *buf, MPI_Count count,
                                          MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iread_shared_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_READ, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, request, rc,
                       t0);
}

IOLENS_MPI4_ENTRY(MPI_File_iwrite_shared_c)(MPI_File fh, const void *buf, MPI_Count count,
                                           MPI_Datatype datatype, MPI_Request *request)
{
    PMPI_OR_FAIL(real, PMPI_File_iwrite_shared_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype, request);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype, request);
    iolens_site_leave(outer);
    return after_issue(fh, IOLENS_MPIIO_WRITE, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, request,
                       rc, t0);
}

/* Split collective: timed from the start of _begin to the return of _end. */

IOLENS_MPI_ENTRY(MPI_File_read_at_all_begin)(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                             MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_read_at_all_begin);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_READ, datatype, count, offset, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_at_all_begin)(MPI_File fh, MPI_Offset offset, const void *buf,
                                              int count, MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_write_at_all_begin);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_WRITE, datatype, count, offset, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_read_all_begin)(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_read_all_begin);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_READ, datatype, count, at, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_all_begin)(MPI_File fh, const void *buf, int count,
                                           MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_write_all_begin);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_WRITE, datatype, count, at, rc, t0);
}

IOLENS_MPI_ENTRY(MPI_File_read_ordered_begin)(MPI_File fh, void *buf, int count,
                                              MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_read_ordered_begin);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_READ, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, rc,
                             t0);
}

IOLENS_MPI_ENTRY(MPI_File_write_ordered_begin)(MPI_File fh, const void *buf, int count,
                                               MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_write_ordered_begin);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_WRITE, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, rc,
                             t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_at_all_begin_c)(MPI_File fh, MPI_Offset offset, void *buf,
                                               MPI_Count count, MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_read_at_all_begin_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_READ, datatype, count, offset, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_at_all_begin_c)(MPI_File fh, MPI_Offset offset, const void *buf,
                                                MPI_Count count, MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_write_at_all_begin_c);
    if (!traced(fh))
        return real(fh, offset, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, offset, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_WRITE, datatype, count, offset, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_all_begin_c)(MPI_File fh, void *buf, MPI_Count count,
                                            MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_read_all_begin_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_READ, datatype, count, at, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_all_begin_c)(MPI_File fh, const void *buf, MPI_Count count,
                                             MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_write_all_begin_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    MPI_Offset at = pointer_position(fh);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_WRITE, datatype, count, at, rc, t0);
}

IOLENS_MPI4_ENTRY(MPI_File_read_ordered_begin_c)(MPI_File fh, void *buf, MPI_Count count,
                                                MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_read_ordered_begin_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_READ, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, rc,
                             t0);
}

IOLENS_MPI4_ENTRY(MPI_File_write_ordered_begin_c)(MPI_File fh, const void *buf, MPI_Count count,
                                                 MPI_Datatype datatype)
{
    PMPI_OR_FAIL(real, PMPI_File_write_ordered_begin_c);
    if (!traced(fh))
        return real(fh, buf, count, datatype);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    int rc = real(fh, buf, count, datatype);
    iolens_site_leave(outer);
    return after_split_begin(fh, IOLENS_MPIIO_WRITE, datatype, count, IOLENS_MPIIO_AT_UNKNOWN, rc,
                             t0);
}

IOLENS_MPI_ENTRY(MPI_File_read_at_all_end)(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end(fh, IOLENS_PMPI(PMPI_File_read_at_all_end), NULL, buf, status);
}

IOLENS_MPI_ENTRY(MPI_File_write_at_all_end)(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end(fh, NULL, IOLENS_PMPI(PMPI_File_write_at_all_end), buf, status);
}

IOLENS_MPI_ENTRY(MPI_File_read_all_end)(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end(fh, IOLENS_PMPI(PMPI_File_read_all_end), NULL, buf, status);
}

IOLENS_MPI_ENTRY(MPI_File_write_all_end)(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end(fh, NULL, IOLENS_PMPI(PMPI_File_write_all_end), buf, status);
}

IOLENS_MPI_ENTRY(MPI_File_read_ordered_end)(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end(fh, IOLENS_PMPI(PMPI_File_read_ordered_end), NULL, buf, status);
}

IOLENS_MPI_ENTRY(MPI_File_write_ordered_end)(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end(fh, NULL, IOLENS_PMPI(PMPI_File_write_ordered_end), buf, status);
}
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

IOLENS_MPI_ENTRY(MPI_Wait)(MPI_Request *request, MPI_Status *status)
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

IOLENS_MPI_ENTRY(MPI_Test)(MPI_Request *request, int *flag, MPI_Status *status)
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
IOLENS_MPI_ENTRY(MPI_Request_free)(MPI_Request *request)
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

IOLENS_MPI_ENTRY(MPI_Waitall)(int count, MPI_Request array_of_requests[],
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

IOLENS_MPI_ENTRY(MPI_Waitany)(int count, MPI_Request array_of_requests[], int *indx,
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

IOLENS_MPI_ENTRY(MPI_Waitsome)(int incount, MPI_Request array_of_requests[], int *outcount,
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

IOLENS_MPI_ENTRY(MPI_Testall)(int count, MPI_Request array_of_requests[], int *flag,
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

IOLENS_MPI_ENTRY(MPI_Testany)(int count, MPI_Request array_of_requests[], int *indx, int *flag,
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

IOLENS_MPI_ENTRY(MPI_Testsome)(int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status array_of_statuses[])
{
    PMPI_OR_FAIL(real, PMPI_Testsome);
    if (nothing_pending() || array_of_requests == NULL)
        return real(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return testsome_watched(incount, array_of_requests, outcount, array_of_indices,
                            array_of_statuses);
}
