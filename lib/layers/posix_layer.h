/* Bookkeeping of the POSIX layer: the wrappers in wrappers/posix.c time a
 * call, run it and hand the facts here.  Every function takes the call's
 * start and end time (iolens_now(): clock units, not seconds; see
 * clock.h) and is called only after the real call returned successfully,
 * unless its comment says otherwise.  None of them allocates on the
 * read/write path.
 *
 * Rules (also described in iolens(7)):
 *  - A descriptor is tracked when it was opened on a traced path (or is
 *    0, 1, 2, or was adopted from a traced stdio stream).  Its state (the
 *    offset and the previous access) lives in the descriptor table and is
 *    shared by dup'd descriptors; the counters live in the file's record.
 *  - read/write without an explicit offset use the tracked offset and
 *    advance it; the p-forms use their offset and leave it alone; O_APPEND
 *    writes learn where they landed from lseek(fd, 0, SEEK_CUR).
 *  - A read returning 0 (end of file) is an operation of size 0; a call
 *    that failed is not counted (only its access interval is kept).
 *  - Consecutive: the access starts where the previous one on the same
 *    descriptor ended; sequential: at or after that end.  The stride is
 *    start minus the previous start.
 *  - Times: per record, overlapping calls of one kind count once. */
#ifndef IOLENS_POSIX_LAYER_H
#define IOLENS_POSIX_LAYER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct iolens_file;

/* The runtime walks the layer through its entry in the layer table
 * (layers/layer_ops.h): start-up binds descriptors 0, 1 and 2 to the
 * standard records and makes sure <other files> has a POSIX record. */

/* 1 if fd is tracked (lets wrappers skip timing calls on sockets, pipes
 * and excluded files).  Two loads, no lock; iolens_fd_lookup (fd_table.h)
 * is the same check inline. */
int iolens_posix_is_traced(int fd);

/* open/openat/creat succeeded with descriptor fd.  dirfd is AT_FDCWD for
 * the non-at forms.  mode is -1 when the call did not create. */
void iolens_posix_open(int dirfd, const char *path, int fd, int flags, int mode,
                       double t0, double t1);

/* close is split in two so that the descriptor is unbound BEFORE the real
 * close: once the kernel frees the number another thread may get it back
 * from open at once, and its fresh binding must not be dropped.  (Linux
 * frees the number even when close fails with EINTR or EIO.)
 * iolens_posix_close_begin returns the record to charge, or NULL if fd is
 * not tracked; iolens_posix_close_end is called after every close it
 * returned a record for, with succeeded set when close returned 0 (only
 * then is the close counted; either way the record's hold is let go). */
struct iolens_posix_rec;
struct iolens_posix_rec *iolens_posix_close_begin(int fd);
void iolens_posix_close_end(struct iolens_posix_rec *rec, int succeeded, double t0, double t1);

/* close_range and closefrom: every descriptor from first to last that is
 * tracked is unbound and its close counted, at t (the call's start,
 * taking no time: the one call closes them all, and its time is no one
 * file's), before the real call, for the reason above.  A record held
 * open by no other descriptor is then let go. */
void iolens_posix_close_range(unsigned first, unsigned last, double t);

/* A read or write of ret bytes from buffer buf (for readv/writev: the
 * first iovec's base).  offset is the explicit file offset of the
 * p-forms, or -1 for the forms that use and advance the file position.
 * These two leave errno as it was (the wrappers rely on it).  The call
 * site is taken from iolens_site_note. */
void iolens_posix_read(int fd, const void *buf, int64_t offset, ssize_t ret,
                       double t0, double t1);
void iolens_posix_write(int fd, const void *buf, int64_t offset, ssize_t ret,
                        double t0, double t1);

/* The same for the wrappers' hot path, the facts handed over in the
 * wrapper's frame: the wrapper writes them there as it learns them, so
 * that none of them has to be kept in a register across the real call,
 * and these read what they need.  ofd is the descriptor's as
 * iolens_fd_lookup(fd) gave it before the real call (never NULL): the
 * call is charged to the file the descriptor was open on when it began,
 * and no second lookup is made.  site: the call site (iolens_site_of,
 * core/call_site.h; 0: none).  Also leave errno as it was. */
struct iolens_ofd;
struct iolens_posix_io {
    struct iolens_ofd *ofd;
    const void *buf;
    int64_t offset;
    ssize_t ret;            /* the real call's, >= 0 */
    double t0, t1;
    uintptr_t site;
    int fd;
};
void iolens_posix_read_io(const struct iolens_posix_io *io);
void iolens_posix_write_io(const struct iolens_posix_io *io);
/* A write the kernel appended whatever the descriptor's flags (pwritev2
 * with RWF_APPEND): counted where it landed, never on the fast path. */
void iolens_posix_appended_write_io(const struct iolens_posix_io *io);

/* A read or write on fd that failed (the real call returned -1): no
 * counter changes, but it is recorded as an access interval of the bytes
 * requested, flagged IOLENS_IV_FAILED (BPS counts every access;
 * layer_intervals.h).  Every successful read and write adds its interval
 * too.  Leaves errno as it was. */
void iolens_posix_failed_access(int fd, int64_t requested, int is_write, double t0, double t1);

/* lseek returned new_offset. */
void iolens_posix_seek(int fd, int64_t new_offset, double t0, double t1);

/* stat family: by path (dirfd/AT_FDCWD) or by descriptor.  A NULL or
 * empty path (AT_EMPTY_PATH) means the descriptor dirfd itself. */
void iolens_posix_stat_path(int dirfd, const char *path, double t0, double t1);
void iolens_posix_stat_fd(int fd, double t0, double t1);

void iolens_posix_fsync(int fd, int data_only, double t0, double t1);
/* dup family and fcntl(F_DUPFD*): newfd now refers to oldfd's file. */
void iolens_posix_dup(int oldfd, int newfd, double t0, double t1);
/* fcntl(F_SETFL): the status flags changed (O_APPEND matters). */
void iolens_posix_setfl(int fd, int flags);
void iolens_posix_mmap(int fd, double t0, double t1);
void iolens_posix_truncate(int fd, double t0, double t1);
void iolens_posix_unlink(int dirfd, const char *path, double t0, double t1);
void iolens_posix_rename(int olddirfd, const char *oldpath, int newdirfd,
                         const char *newpath, double t0, double t1);

/* Bytes of one file's POSIX record in memory (before the budget rounds
 * it up): what a traced file costs beside its record-table entry. */
size_t iolens_posix_record_size(void);

/* For unit tests: the live records made before parking starts
 * (park_pool.h; 0: the default, an eighth of the budget).  Read when the
 * layer starts. */
void iolens_posix_set_live_cap_for_test(size_t cap);
/* Live and parked records (park_pool.h), for tests and the bench. */
struct iolens_pool_stats;
void iolens_posix_pool_stats(struct iolens_pool_stats *out);

/* The current working directory changed (chdir/fchdir): drop the cache. */
void iolens_posix_cwd_changed(void);

/* Shared with the STDIO layer.  The normalized absolute form of path
 * relative to dirfd (AT_FDCWD: the working directory); returns its length
 * or -1. */
long iolens_posix_resolve(int dirfd, const char *path, char *out, size_t outsz);
/* For the library layers (MPI-IO, HDF5): the normalized absolute form of
 * a name a library was given, relative to the working directory, when
 * the include/exclude rules trace it; its length, else -1. */
long iolens_posix_resolve_traced(const char *path, char *out, size_t outsz);
/* The normalized absolute name of an open descriptor: its tracked file's
 * name, else what /proc/self/fd says; returns its length or -1. */
long iolens_posix_fd_path(int fd, char *out, size_t outsz);
/* Tracks fd as a descriptor on file (a stdio stream's descriptor, learnt
 * through fileno), unless fd is already tracked on that file. */
void iolens_posix_adopt_fd(int fd, struct iolens_file *file);

#endif
