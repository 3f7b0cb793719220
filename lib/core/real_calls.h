/* Pointers to the real (next-in-line) implementations of every function
 * iolens intercepts, resolved with dlsym(RTLD_NEXT).  The wrappers call
 * through them, and so does the runtime for its own I/O (the mount table,
 * the log's writes and directory calls, its messages), never the wrappers
 * of its own library (tests/integration/test_runtime_calls.sh checks).
 *
 * IOLENS_REAL_CALLS is the one list of intercepted functions:
 * X(name, return type, parameter list). */
#ifndef IOLENS_REAL_CALLS_H
#define IOLENS_REAL_CALLS_H

#include <aio.h>
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

struct statx;

#define IOLENS_REAL_CALLS_POSIX(X) \
    X(open, int, (const char *, int, ...)) \
    X(open64, int, (const char *, int, ...)) \
    X(openat, int, (int, const char *, int, ...)) \
    X(openat64, int, (int, const char *, int, ...)) \
    X(creat, int, (const char *, mode_t)) \
    X(creat64, int, (const char *, mode_t)) \
    X(mkstemp, int, (char *)) \
    X(mkstemp64, int, (char *)) \
    X(mkostemp, int, (char *, int)) \
    X(mkostemp64, int, (char *, int)) \
    X(mkstemps, int, (char *, int)) \
    X(mkstemps64, int, (char *, int)) \
    X(mkostemps, int, (char *, int, int)) \
    X(mkostemps64, int, (char *, int, int)) \
    X(__open_2, int, (const char *, int)) \
    X(__open64_2, int, (const char *, int)) \
    X(__openat_2, int, (int, const char *, int)) \
    X(__openat64_2, int, (int, const char *, int)) \
    X(close, int, (int)) \
    X(close_range, int, (unsigned int, unsigned int, int)) \
    X(closefrom, void, (int)) \
    X(closedir, int, (DIR *)) \
    X(aio_read, int, (struct aiocb *)) \
    X(aio_write, int, (struct aiocb *)) \
    X(aio_read64, int, (struct aiocb64 *)) \
    X(aio_write64, int, (struct aiocb64 *)) \
    X(lio_listio, int, (int, struct aiocb *const[], int, struct sigevent *)) \
    X(lio_listio64, int, (int, struct aiocb64 *const[], int, struct sigevent *)) \
    X(aio_return, ssize_t, (struct aiocb *)) \
    X(aio_return64, ssize_t, (struct aiocb64 *)) \
    X(read, ssize_t, (int, void *, size_t)) \
    X(write, ssize_t, (int, const void *, size_t)) \
    X(pread, ssize_t, (int, void *, size_t, off_t)) \
    X(pwrite, ssize_t, (int, const void *, size_t, off_t)) \
    X(pread64, ssize_t, (int, void *, size_t, off64_t)) \
    X(pwrite64, ssize_t, (int, const void *, size_t, off64_t)) \
    X(readv, ssize_t, (int, const struct iovec *, int)) \
    X(writev, ssize_t, (int, const struct iovec *, int)) \
    X(preadv, ssize_t, (int, const struct iovec *, int, off_t)) \
    X(pwritev, ssize_t, (int, const struct iovec *, int, off_t)) \
    X(preadv64, ssize_t, (int, const struct iovec *, int, off64_t)) \
    X(pwritev64, ssize_t, (int, const struct iovec *, int, off64_t)) \
    X(preadv2, ssize_t, (int, const struct iovec *, int, off_t, int)) \
    X(pwritev2, ssize_t, (int, const struct iovec *, int, off_t, int)) \
    X(preadv64v2, ssize_t, (int, const struct iovec *, int, off64_t, int)) \
    X(pwritev64v2, ssize_t, (int, const struct iovec *, int, off64_t, int)) \
    X(__read_chk, ssize_t, (int, void *, size_t, size_t)) \
    X(__pread_chk, ssize_t, (int, void *, size_t, off_t, size_t)) \
    X(__pread64_chk, ssize_t, (int, void *, size_t, off64_t, size_t)) \
    X(copy_file_range, ssize_t, (int, off64_t *, int, off64_t *, size_t, unsigned int)) \
    X(sendfile, ssize_t, (int, int, off_t *, size_t)) \
    X(sendfile64, ssize_t, (int, int, off64_t *, size_t)) \
    X(splice, ssize_t, (int, off64_t *, int, off64_t *, size_t, unsigned int)) \
    X(lseek, off_t, (int, off_t, int)) \
    X(lseek64, off64_t, (int, off64_t, int)) \
    X(stat, int, (const char *, struct stat *)) \
    X(lstat, int, (const char *, struct stat *)) \
    X(fstat, int, (int, struct stat *)) \
    X(fstatat, int, (int, const char *, struct stat *, int)) \
    X(stat64, int, (const char *, struct stat64 *)) \
    X(lstat64, int, (const char *, struct stat64 *)) \
    X(fstat64, int, (int, struct stat64 *)) \
    X(fstatat64, int, (int, const char *, struct stat64 *, int)) \
    X(statx, int, (int, const char *, int, unsigned int, struct statx *)) \
    X(__xstat, int, (int, const char *, struct stat *)) \
    X(__lxstat, int, (int, const char *, struct stat *)) \
    X(__fxstat, int, (int, int, struct stat *)) \
    X(__fxstatat, int, (int, int, const char *, struct stat *, int)) \
    X(__xstat64, int, (int, const char *, struct stat64 *)) \
    X(__lxstat64, int, (int, const char *, struct stat64 *)) \
    X(__fxstat64, int, (int, int, struct stat64 *)) \
    X(__fxstatat64, int, (int, int, const char *, struct stat64 *, int)) \
    X(fsync, int, (int)) \
    X(fdatasync, int, (int)) \
    X(dup, int, (int)) \
    X(dup2, int, (int, int)) \
    X(dup3, int, (int, int, int)) \
    X(fcntl, int, (int, int, ...)) \
    X(fcntl64, int, (int, int, ...)) \
    X(mmap, void *, (void *, size_t, int, int, int, off_t)) \
    X(mmap64, void *, (void *, size_t, int, int, int, off64_t)) \
    X(ftruncate, int, (int, off_t)) \
    X(ftruncate64, int, (int, off64_t)) \
    X(unlink, int, (const char *)) \
    X(unlinkat, int, (int, const char *, int)) \
    X(rename, int, (const char *, const char *)) \
    X(renameat, int, (int, const char *, int, const char *)) \
    X(renameat2, int, (int, const char *, int, const char *, unsigned int)) \
    X(remove, int, (const char *)) \
    X(chdir, int, (const char *)) \
    X(fchdir, int, (int))

#define IOLENS_REAL_CALLS_STDIO(X) \
    X(fopen, FILE *, (const char *, const char *)) \
    X(fopen64, FILE *, (const char *, const char *)) \
    X(fdopen, FILE *, (int, const char *)) \
    X(tmpfile, FILE *, (void)) \
    X(tmpfile64, FILE *, (void)) \
    X(freopen, FILE *, (const char *, const char *, FILE *)) \
    X(freopen64, FILE *, (const char *, const char *, FILE *)) \
    X(fclose, int, (FILE *)) \
    X(fread, size_t, (void *, size_t, size_t, FILE *)) \
    X(fwrite, size_t, (const void *, size_t, size_t, FILE *)) \
    X(__fread_chk, size_t, (void *, size_t, size_t, size_t, FILE *)) \
    X(fgets, char *, (char *, int, FILE *)) \
    X(__fgets_chk, char *, (char *, size_t, int, FILE *)) \
    X(fputs, int, (const char *, FILE *)) \
    X(vfprintf, int, (FILE *, const char *, va_list)) \
    X(__vfprintf_chk, int, (FILE *, int, const char *, va_list)) \
    X(vfscanf, int, (FILE *, const char *, va_list)) \
    X(__isoc99_vfscanf, int, (FILE *, const char *, va_list)) \
    X(fseek, int, (FILE *, long, int)) \
    X(fseeko, int, (FILE *, off_t, int)) \
    X(fseeko64, int, (FILE *, off64_t, int)) \
    X(ftell, long, (FILE *)) \
    X(ftello, off_t, (FILE *)) \
    X(ftello64, off64_t, (FILE *)) \
    X(rewind, void, (FILE *)) \
    X(fflush, int, (FILE *)) \
    X(fflush_unlocked, int, (FILE *)) \
    X(fcloseall, int, (void)) \
    X(fileno, int, (FILE *)) \
    X(fread_unlocked, size_t, (void *, size_t, size_t, FILE *)) \
    X(__fread_unlocked_chk, size_t, (void *, size_t, size_t, size_t, FILE *)) \
    X(fwrite_unlocked, size_t, (const void *, size_t, size_t, FILE *)) \
    X(fgets_unlocked, char *, (char *, int, FILE *)) \
    X(__fgets_unlocked_chk, char *, (char *, size_t, int, FILE *)) \
    X(fputs_unlocked, int, (const char *, FILE *)) \
    X(fputc, int, (int, FILE *)) \
    X(putc, int, (int, FILE *)) \
    X(_IO_putc, int, (int, FILE *)) \
    X(fputc_unlocked, int, (int, FILE *)) \
    X(putc_unlocked, int, (int, FILE *)) \
    X(putchar, int, (int)) \
    X(putchar_unlocked, int, (int)) \
    X(putw, int, (int, FILE *)) \
    X(puts, int, (const char *)) \
    X(fgetc, int, (FILE *)) \
    X(getc, int, (FILE *)) \
    X(_IO_getc, int, (FILE *)) \
    X(fgetc_unlocked, int, (FILE *)) \
    X(getc_unlocked, int, (FILE *)) \
    X(getchar, int, (void)) \
    X(getchar_unlocked, int, (void)) \
    X(getw, int, (FILE *)) \
    X(ungetc, int, (int, FILE *)) \
    X(getline, ssize_t, (char **, size_t *, FILE *)) \
    X(getdelim, ssize_t, (char **, size_t *, int, FILE *)) \
    X(__getdelim, ssize_t, (char **, size_t *, int, FILE *)) \
    X(fgetpos, int, (FILE *, fpos_t *)) \
    X(fgetpos64, int, (FILE *, fpos64_t *)) \
    X(fsetpos, int, (FILE *, const fpos_t *)) \
    X(fsetpos64, int, (FILE *, const fpos64_t *)) \
    X(__uflow, int, (FILE *)) \
    X(__overflow, int, (FILE *, int))

/* Signal dispositions (SIGTERM is handled by the runtime: lib/core/termination.c),
 * the immediate exits, which skip the destructor that writes the log, and
 * the two ways a program enters a seccomp sandbox (wrappers/sandbox.c). */
#define IOLENS_REAL_CALLS_SIGNAL(X) \
    X(sigaction, int, (int, const struct sigaction *, struct sigaction *)) \
    X(signal, __sighandler_t, (int, __sighandler_t)) \
    X(bsd_signal, __sighandler_t, (int, __sighandler_t)) \
    X(_exit, void, (int)) \
    X(_Exit, void, (int)) \
    X(prctl, int, (int, ...))

/* execve and its siblings: the process image, and with it the runtime's
 * data, ends at a successful one (lib/runtime.c writes the log first).
 * The C library's own exec functions call its internal execve, so each
 * public one is wrapped.  vfork makes a child that runs on this process's
 * memory until it execs (wrappers/vfork.c). */
#define IOLENS_REAL_CALLS_EXEC(X) \
    X(vfork, pid_t, (void)) \
    X(execve, int, (const char *, char *const[], char *const[])) \
    X(execv, int, (const char *, char *const[])) \
    X(execvp, int, (const char *, char *const[])) \
    X(execvpe, int, (const char *, char *const[], char *const[])) \
    X(fexecve, int, (int, char *const[], char *const[])) \
    X(execveat, int, (int, const char *, char *const[], char *const[], int))

#define IOLENS_REAL_CALLS(X) \
    IOLENS_REAL_CALLS_POSIX(X) IOLENS_REAL_CALLS_STDIO(X) IOLENS_REAL_CALLS_SIGNAL(X) \
    IOLENS_REAL_CALLS_EXEC(X)

#define IOLENS_REAL_DECLARE(name, ret, params) extern ret(*iolens_real_##name) params;
IOLENS_REAL_CALLS(IOLENS_REAL_DECLARE)
#undef IOLENS_REAL_DECLARE

/* Resolves every pointer (idempotent, thread-safe).  A symbol that the
 * C library does not have stays NULL; its wrapper then fails with ENOSYS. */
void iolens_real_calls_resolve(void);

/* The wrappers' way to get a real function: resolves on first use, which
 * may come before the library constructor (another library's constructor
 * doing I/O). */
#define IOLENS_REAL(name) \
    (__builtin_expect(iolens_real_##name != NULL, 1) ? iolens_real_##name \
                                                     : (iolens_real_calls_resolve(), iolens_real_##name))

#endif
