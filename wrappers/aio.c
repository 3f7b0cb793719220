/* POSIX asynchronous I/O: aio_read, aio_write and lio_listio submit,
 * aio_return gives a request's result (and their 64 forms, the same
 * functions on a 64-bit system).  glibc does the I/O on its own threads
 * by internal calls, so nothing else sees it.  A request on a traced
 * descriptor is noted at its submission (lib/layers/aio_requests.h) and
 * counted as one read or write of the bytes aio_return gives, at the
 * offset it names, from the submission to that return, as Darshan counts
 * it; a request that failed, as a failed access; a cancelled one, not at
 * all.  When the table of notes has no room, a request is counted at its
 * submission with the bytes it asks for, taking no time.  A request whose
 * result is never asked for is not counted. */
#include <aio.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "core/call_site.h"
#include "core/clock.h"
#include "core/fd_table.h"
#include "core/real_calls.h"
#include "layers/aio_requests.h"
#include "layers/posix_layer.h"
#define IOLENS_WRAPPER_LAYER IOLENS_LAYER_POSIX
#include "wrapper.h"

/* On a 64-bit system struct aiocb64 is struct aiocb, and glibc's *64
 * functions are its plain ones under a second name: one body serves
 * both. */
_Static_assert(sizeof(struct aiocb) == sizeof(struct aiocb64) &&
                   offsetof(struct aiocb, aio_offset) == offsetof(struct aiocb64, aio_offset),
               "struct aiocb64 is struct aiocb");

/* Counts a request as the POSIX layer counts a pread or pwrite of ret
 * bytes at its offset over [t0, t1]; ret < 0: failed, with the bytes it
 * asked for. */
static void count_request(const struct aiocb *cb, const struct iolens_aio_request *req,
                          ssize_t ret, double t1)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(cb->aio_fildes);
    if (ofd == NULL)
        return; /* closed, or its number given to an untraced file, since */
    guard_on(); /* a signal handler's I/O now passes untraced */
    if (ret < 0) {
        int64_t asked = cb->aio_nbytes > INT64_MAX ? INT64_MAX : (int64_t)cb->aio_nbytes;
        iolens_posix_failed_access(cb->aio_fildes, asked, req->is_write, req->t0, t1);
        guard_off();
        return;
    }
    struct iolens_posix_io io = {
        .ofd = ofd,
        .buf = (const void *)cb->aio_buf,
        .offset = cb->aio_offset,
        .ret = ret,
        .t0 = req->t0,
        .t1 = t1,
        .site = req->site,
        .fd = cb->aio_fildes,
    };
    if (req->is_write)
        iolens_posix_write_io(&io);
    else
        iolens_posix_read_io(&io);
    guard_off();
}

/* After a request on a traced descriptor was queued: noted, or counted
 * now when there is no room for the note. */
static void after_submit(const struct aiocb *cb, const struct iolens_aio_request *req)
{
    if (cb->aio_offset < 0 || iolens_fd_lookup(cb->aio_fildes) == NULL)
        return;
    int saved = enter();
    int noted = iolens_aio_note(cb, req) == 0;
    leave(saved);
    if (!noted)
        count_request(cb, req, cb->aio_nbytes > SSIZE_MAX ? SSIZE_MAX : (ssize_t)cb->aio_nbytes,
                      req->t0);
}

static int submit(int (*real)(struct aiocb *), struct aiocb *cb, int is_write, uintptr_t site)
{
    if (!tracing())
        return real(cb);
    struct iolens_aio_request req = {.t0 = iolens_now(), .site = site, .is_write = is_write};
    int ret = real(cb);
    if (ret == 0)
        after_submit(cb, &req);
    return ret;
}

IOLENS_EXPORT int aio_read(struct aiocb *cb)
{
    REAL_OR_FAIL(real, aio_read, -1);
    return submit(real, cb, 0, iolens_site_of(__builtin_return_address(0)));
}

IOLENS_EXPORT int aio_write(struct aiocb *cb)
{
    REAL_OR_FAIL(real, aio_write, -1);
    return submit(real, cb, 1, iolens_site_of(__builtin_return_address(0)));
}

IOLENS_EXPORT int aio_read64(struct aiocb64 *cb)
{
    REAL_OR_FAIL(real, aio_read64, -1);
    return submit((int (*)(struct aiocb *))real, (struct aiocb *)cb, 0,
                  iolens_site_of(__builtin_return_address(0)));
}

IOLENS_EXPORT int aio_write64(struct aiocb64 *cb)
{
    REAL_OR_FAIL(real, aio_write64, -1);
    return submit((int (*)(struct aiocb *))real, (struct aiocb *)cb, 1,
                  iolens_site_of(__builtin_return_address(0)));
}

/* lio_listio queued its requests when it returned 0, and also when it
 * failed with EIO (some of them failed; each one's result is asked for)
 * or, waiting, with EINTR (they go on). */
static int list_queued(int ret, int err)
{
    return ret == 0 || err == EIO || err == EINTR;
}

static int submit_list(int (*real)(int, struct aiocb *const[], int, struct sigevent *), int mode,
                       struct aiocb *const list[], int n, struct sigevent *sev, uintptr_t site)
{
    if (!tracing())
        return real(mode, list, n, sev);
    double t0 = iolens_now();
    int ret = real(mode, list, n, sev);
    int err = errno;
    if (list_queued(ret, err))
        for (int i = 0; i < n; i++) {
            const struct aiocb *cb = list[i];
            if (cb == NULL || (cb->aio_lio_opcode != LIO_READ && cb->aio_lio_opcode != LIO_WRITE))
                continue;
            struct iolens_aio_request req = {
                .t0 = t0, .site = site, .is_write = cb->aio_lio_opcode == LIO_WRITE};
            after_submit(cb, &req);
        }
    errno = err;
    return ret;
}

IOLENS_EXPORT int lio_listio(int mode, struct aiocb *const list[], int n, struct sigevent *sev)
{
    REAL_OR_FAIL(real, lio_listio, -1);
    return submit_list(real, mode, list, n, sev, iolens_site_of(__builtin_return_address(0)));
}

IOLENS_EXPORT int lio_listio64(int mode, struct aiocb64 *const list[], int n,
                               struct sigevent *sev)
{
    REAL_OR_FAIL(real, lio_listio64, -1);
    return submit_list((int (*)(int, struct aiocb *const[], int, struct sigevent *))real, mode,
                       (struct aiocb *const *)list, n, sev,
                       iolens_site_of(__builtin_return_address(0)));
}

/* After aio_return gave ret: the request's note is taken and counted,
 * unless it is still in progress (asked too early: it stays noted) or
 * was cancelled. */
static ssize_t after_return(const struct aiocb *cb, ssize_t ret)
{
    int saved = enter();
    int status = aio_error(cb);
    struct iolens_aio_request req;
    int noted = status != EINPROGRESS && iolens_aio_take(cb, &req);
    double t1 = iolens_now();
    leave(saved);
    if (noted && status != ECANCELED)
        count_request(cb, &req, ret, t1);
    return ret;
}

IOLENS_EXPORT ssize_t aio_return(struct aiocb *cb)
{
    REAL_OR_FAIL(real, aio_return, -1);
    if (!tracing())
        return real(cb);
    return after_return(cb, real(cb));
}

IOLENS_EXPORT ssize_t aio_return64(struct aiocb64 *cb)
{
    REAL_OR_FAIL(real, aio_return64, -1);
    if (!tracing())
        return real(cb);
    return after_return((const struct aiocb *)cb, real(cb));
}
