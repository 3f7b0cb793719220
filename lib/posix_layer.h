/* Bookkeeping of the POSIX layer: the wrappers in wrappers/posix.c time a
 * call, run it and hand the facts here.  Every function takes the call's
 * start and end time (iolens_now()) and is called only after the real
 * call returned successfully, unless its comment says otherwise.  None of
 * them allocates on the read/write path. */
#ifndef IOLENS_POSIX_LAYER_H
#define IOLENS_POSIX_LAYER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* open/openat/creat succeeded with descriptor fd.  dirfd is AT_FDCWD for
 * the non-at forms.  mode is -1 when the call did not create. */
void iolens_posix_open(int dirfd, const char *path, int fd, int flags, int mode,
                       double t0, double t1);
void iolens_posix_close(int fd, double t0, double t1);

/* A read or write of ret bytes from buffer buf (for readv/writev: the
 * first iovec's base).  offset is the explicit file offset of the
 * p-forms, or -1 for the forms that use and advance the file position. */
void iolens_posix_read(int fd, const void *buf, int64_t offset, ssize_t ret,
                       double t0, double t1);
void iolens_posix_write(int fd, const void *buf, int64_t offset, ssize_t ret,
                        double t0, double t1);

/* lseek returned new_offset. */
void iolens_posix_seek(int fd, int64_t new_offset, double t0, double t1);

/* stat family: by path (dirfd/AT_FDCWD) or by descriptor (path NULL). */
void iolens_posix_stat_path(int dirfd, const char *path, double t0, double t1);
void iolens_posix_stat_fd(int fd, double t0, double t1);

void iolens_posix_fsync(int fd, int data_only, double t0, double t1);
void iolens_posix_dup(int oldfd, int newfd, double t0, double t1);
void iolens_posix_mmap(int fd, double t0, double t1);
void iolens_posix_truncate(int fd, double t0, double t1);
void iolens_posix_unlink(int dirfd, const char *path, double t0, double t1);
void iolens_posix_rename(int olddirfd, const char *oldpath, int newdirfd,
                         const char *newpath, double t0, double t1);

/* The current working directory changed (chdir/fchdir): drop the cache. */
void iolens_posix_cwd_changed(void);

/* Log writer side: pack every POSIX record into the on-disk form. */
struct iolens_posix_record;
typedef void (*iolens_posix_emit_fn)(const struct iolens_posix_record *rec, void *arg);
void iolens_posix_foreach_record(iolens_posix_emit_fn fn, void *arg);

/* A forked child starts its own counts: zero every record. */
void iolens_posix_reset(void);

#endif
