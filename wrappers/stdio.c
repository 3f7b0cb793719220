/* STDIO interposition.  As in wrappers/posix.c: get the real function
 * (ENOSYS if missing), tail-call it when the STDIO layer is not tracing,
 * else time it and, on success, hand the facts to lib/stdio_layer.c with
 * errno kept as the call left it.  Return values and errno are always the
 * real call's.
 *
 * Compiled without _FILE_OFFSET_BITS=64 (off_t is 64-bit anyway on
 * x86_64 and aarch64): plain and *64 names are separate definitions. */
#undef _FILE_OFFSET_BITS
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "clock.h"
#include "file_table.h"
#include "real_calls.h"
#include "state.h"
#include "wrapper.h"
#include "stdio_layer.h"

/* Declares fn as the real function; returns errval with errno ENOSYS if
 * the C library does not have it. */
#define REAL_OR_FAIL(fn, name, errval)                     \
    __typeof__(iolens_real_##name) fn = IOLENS_REAL(name); \
    if (__builtin_expect(fn == NULL, 0)) {                 \
        errno = ENOSYS;                                    \
        return errval;                                     \
    }

static inline int tracing(void)
{
    return iolens_tracing(IOLENS_LAYER_STDIO);
}

/* ------------------------------------------- after the real call -- */

static FILE *after_open(FILE *ret, const char *path, const char *mode, double t0)
{
    double t1 = iolens_now();
    if (ret != NULL) {
        int saved = enter();
        iolens_stdio_open(ret, path, mode, t0, t1);
        leave(saved);
    }
    return ret;
}

/* The read/write path's lighter guard: the layer's read and write
 * functions keep errno themselves, so only the per-thread guard is set. */
static inline void guard_on(void)
{
    iolens_in_runtime = 1;
    atomic_signal_fence(memory_order_seq_cst);
}

static inline void guard_off(void)
{
    atomic_signal_fence(memory_order_seq_cst);
    iolens_in_runtime = 0;
}

/* The stream's tracking entry when the call is to be traced, else NULL
 * (layer off, runtime busy, stream not tracked): then the real call runs
 * untimed.  Looked up once, before the call. */
static inline struct iolens_stdio_stream *traced_stream(FILE *stream)
{
    return tracing() ? iolens_stdio_stream_of(stream) : NULL;
}

/* A read or write that failed: only its access interval, with the bytes
 * requested (out of line, off the hot path; errno kept). */
static __attribute__((noinline, cold)) void failed_access(struct iolens_stdio_stream *s,
                                                           int64_t requested, int is_write,
                                                           double t0, double t1)
{
    int saved = enter();
    iolens_stdio_failed_access(s, requested, is_write, t0, t1);
    leave(saved);
}

/* ok: whether the call succeeded; bytes: what it moved; requested: what
 * it asked for (used only if it failed).  Inlined into every read and
 * write wrapper: the hot path. */
static inline __attribute__((always_inline)) void
after_read(struct iolens_stdio_stream *s, FILE *stream, int ok, int64_t bytes, double t0,
           int64_t requested)
{
    double t1 = iolens_now();
    if (__builtin_expect(ok, 1)) {
        guard_on();
        iolens_stdio_read_stream(s, stream, bytes, t0, t1);
        guard_off();
    } else {
        failed_access(s, requested, 0, t0, t1);
    }
}

static inline __attribute__((always_inline)) void
after_write(struct iolens_stdio_stream *s, FILE *stream, int ok, int64_t bytes, double t0,
            int64_t requested)
{
    double t1 = iolens_now();
    if (__builtin_expect(ok, 1)) {
        guard_on();
        iolens_stdio_write_stream(s, stream, bytes, t0, t1);
        guard_off();
    } else {
        failed_access(s, requested, 1, t0, t1);
    }
}

/* size * nmemb as the layer's signed count (saturated). */
static inline int64_t items_bytes(size_t size, size_t nmemb)
{
    size_t total;
    if (__builtin_mul_overflow(size, nmemb, &total) || total > INT64_MAX)
        return INT64_MAX;
    return (int64_t)total;
}

/* fread returning 0 items is an end-of-file read (0 bytes) unless the
 * stream's error flag says it failed. */
static int fread_ok(size_t ret, size_t size, size_t nmemb, FILE *stream)
{
    return ret > 0 || size == 0 || nmemb == 0 || !ferror(stream);
}

/* fwrite returning fewer than nmemb items failed (partly); what it did
 * write is still counted. */
static int fwrite_ok(size_t ret, size_t size, size_t nmemb)
{
    return ret > 0 || size == 0 || nmemb == 0;
}

/* fgets returning NULL at end of file is a 0-byte read; with the error
 * flag set it failed. */
static int64_t fgets_bytes(const char *ret)
{
    return ret != NULL ? (int64_t)strlen(ret) : 0;
}

/* ----------------------------------------------------------- opening -- */

static FILE *fopen_common(FILE *(*real)(const char *, const char *), const char *path,
                          const char *mode)
{
    if (!tracing())
        return real(path, mode);
    double t0 = iolens_now();
    return after_open(real(path, mode), path, mode, t0);
}

IOLENS_EXPORT FILE *fopen(const char *path, const char *mode)
{
    REAL_OR_FAIL(real, fopen, NULL);
    return fopen_common(real, path, mode);
}

IOLENS_EXPORT FILE *fopen64(const char *path, const char *mode)
{
    REAL_OR_FAIL(real, fopen64, NULL);
    return fopen_common(real, path, mode);
}

IOLENS_EXPORT FILE *fdopen(int fd, const char *mode)
{
    REAL_OR_FAIL(real, fdopen, NULL);
    if (!tracing())
        return real(fd, mode);
    double t0 = iolens_now();
    FILE *ret = real(fd, mode);
    double t1 = iolens_now();
    if (ret != NULL) {
        int saved = enter();
        iolens_stdio_fdopen(ret, fd, mode, t0, t1);
        leave(saved);
    }
    return ret;
}

static FILE *freopen_common(FILE *(*real)(const char *, const char *, FILE *), const char *path,
                            const char *mode, FILE *stream)
{
    if (!tracing())
        return real(path, mode, stream);
    int saved = enter();
    struct iolens_stdio_rec *old = iolens_stdio_close_begin(stream);
    leave(saved);
    double t0 = iolens_now();
    FILE *ret = real(path, mode, stream);
    double t1 = iolens_now();
    saved = enter();
    iolens_stdio_reopen(old, ret, path, mode, t0, t1);
    leave(saved);
    return ret;
}

IOLENS_EXPORT FILE *freopen(const char *path, const char *mode, FILE *stream)
{
    REAL_OR_FAIL(real, freopen, NULL);
    return freopen_common(real, path, mode, stream);
}

IOLENS_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *stream)
{
    REAL_OR_FAIL(real, freopen64, NULL);
    return freopen_common(real, path, mode, stream);
}

IOLENS_EXPORT int fclose(FILE *stream)
{
    REAL_OR_FAIL(real, fclose, EOF);
    if (!tracing())
        return real(stream);
    int saved = enter();
    struct iolens_stdio_rec *rec = iolens_stdio_close_begin(stream);
    leave(saved);
    double t0 = iolens_now();
    int ret = real(stream);
    double t1 = iolens_now();
    if (ret == 0) {
        saved = enter();
        iolens_stdio_close_end(rec, t0, t1);
        leave(saved);
    }
    return ret;
}

/* ----------------------------------------------------------- reading -- */

IOLENS_EXPORT size_t fread(void *ptr, size_t size, size_t nmemb, FILE *stream)
{
    REAL_OR_FAIL(real, fread, 0);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(ptr, size, nmemb, stream);
    double t0 = iolens_now();
    size_t ret = real(ptr, size, nmemb, stream);
    after_read(s, stream, fread_ok(ret, size, nmemb, stream), (int64_t)(ret * size), t0,
               items_bytes(size, nmemb));
    return ret;
}

IOLENS_EXPORT size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t nmemb,
                                 FILE *stream)
{
    REAL_OR_FAIL(real, __fread_chk, 0);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(ptr, ptrlen, size, nmemb, stream);
    double t0 = iolens_now();
    size_t ret = real(ptr, ptrlen, size, nmemb, stream);
    after_read(s, stream, fread_ok(ret, size, nmemb, stream), (int64_t)(ret * size), t0,
               items_bytes(size, nmemb));
    return ret;
}

IOLENS_EXPORT char *fgets(char *s, int n, FILE *stream)
{
    REAL_OR_FAIL(real, fgets, NULL);
    struct iolens_stdio_stream *ts = traced_stream(stream);
    if (ts == NULL)
        return real(s, n, stream);
    double t0 = iolens_now();
    char *ret = real(s, n, stream);
    after_read(ts, stream, ret != NULL || !ferror(stream), fgets_bytes(ret), t0,
               n > 1 ? n - 1 : 0);
    return ret;
}

IOLENS_EXPORT char *__fgets_chk(char *s, size_t size, int n, FILE *stream)
{
    REAL_OR_FAIL(real, __fgets_chk, NULL);
    struct iolens_stdio_stream *ts = traced_stream(stream);
    if (ts == NULL)
        return real(s, size, n, stream);
    double t0 = iolens_now();
    char *ret = real(s, size, n, stream);
    after_read(ts, stream, ret != NULL || !ferror(stream), fgets_bytes(ret), t0,
               n > 1 ? n - 1 : 0);
    return ret;
}

/* fscanf: the bytes consumed are the distance the position moved. */
static int scan_common(int (*real)(FILE *, const char *, va_list), FILE *stream,
                       const char *format, va_list ap)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(stream, format, ap);
    off_t (*real_ftello)(FILE *) = IOLENS_REAL(ftello);
    int saved = enter();
    off_t before = real_ftello != NULL ? real_ftello(stream) : -1;
    leave(saved);
    double t0 = iolens_now();
    int ret = real(stream, format, ap);
    saved = enter();
    off_t after = real_ftello != NULL ? real_ftello(stream) : -1;
    leave(saved);
    int64_t bytes = before >= 0 && after >= before ? after - before : 0;
    after_read(s, stream, ret != EOF || !ferror(stream), bytes, t0, bytes);
    return ret;
}

/* glibc's headers may redirect fscanf and vfscanf to their __isoc99_
 * forms; both symbol families exist and are wrapped, so the plain ones
 * are defined under their exact symbol names with asm labels. */
IOLENS_EXPORT int iolens_wrap_vfscanf(FILE *stream, const char *format, va_list ap)
    __asm__("vfscanf");
IOLENS_EXPORT int iolens_wrap_fscanf(FILE *stream, const char *format, ...) __asm__("fscanf");

IOLENS_EXPORT int iolens_wrap_vfscanf(FILE *stream, const char *format, va_list ap)
{
    REAL_OR_FAIL(real, vfscanf, EOF);
    return scan_common(real, stream, format, ap);
}

IOLENS_EXPORT int __isoc99_vfscanf(FILE *stream, const char *format, va_list ap)
{
    REAL_OR_FAIL(real, __isoc99_vfscanf, EOF);
    return scan_common(real, stream, format, ap);
}

IOLENS_EXPORT int iolens_wrap_fscanf(FILE *stream, const char *format, ...)
{
    REAL_OR_FAIL(real, vfscanf, EOF);
    va_list ap;
    va_start(ap, format);
    int ret = scan_common(real, stream, format, ap);
    va_end(ap);
    return ret;
}

IOLENS_EXPORT int __isoc99_fscanf(FILE *stream, const char *format, ...)
{
    REAL_OR_FAIL(real, __isoc99_vfscanf, EOF);
    va_list ap;
    va_start(ap, format);
    int ret = scan_common(real, stream, format, ap);
    va_end(ap);
    return ret;
}

/* ----------------------------------------------------------- writing -- */

IOLENS_EXPORT size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *stream)
{
    REAL_OR_FAIL(real, fwrite, 0);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(ptr, size, nmemb, stream);
    double t0 = iolens_now();
    size_t ret = real(ptr, size, nmemb, stream);
    after_write(s, stream, fwrite_ok(ret, size, nmemb), (int64_t)(ret * size), t0,
                items_bytes(size, nmemb));
    return ret;
}

IOLENS_EXPORT int fputs(const char *s, FILE *stream)
{
    REAL_OR_FAIL(real, fputs, EOF);
    struct iolens_stdio_stream *ts = traced_stream(stream);
    if (ts == NULL)
        return real(s, stream);
    double t0 = iolens_now();
    int ret = real(s, stream);
    int64_t len = (int64_t)strlen(s);
    after_write(ts, stream, ret != EOF, len, t0, len);
    return ret;
}

static int print_common(int (*real)(FILE *, const char *, va_list), FILE *stream,
                        const char *format, va_list ap)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(stream, format, ap);
    double t0 = iolens_now();
    int ret = real(stream, format, ap);
    after_write(s, stream, ret >= 0, ret, t0, 0); /* a failed print's size is unknown */
    return ret;
}

static int print_chk_common(int (*real)(FILE *, int, const char *, va_list), FILE *stream,
                            int flag, const char *format, va_list ap)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(stream, flag, format, ap);
    double t0 = iolens_now();
    int ret = real(stream, flag, format, ap);
    after_write(s, stream, ret >= 0, ret, t0, 0); /* a failed print's size is unknown */
    return ret;
}

IOLENS_EXPORT int vfprintf(FILE *stream, const char *format, va_list ap)
{
    REAL_OR_FAIL(real, vfprintf, -1);
    return print_common(real, stream, format, ap);
}

IOLENS_EXPORT int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list ap)
{
    REAL_OR_FAIL(real, __vfprintf_chk, -1);
    return print_chk_common(real, stream, flag, format, ap);
}

IOLENS_EXPORT int fprintf(FILE *stream, const char *format, ...)
{
    REAL_OR_FAIL(real, vfprintf, -1);
    va_list ap;
    va_start(ap, format);
    int ret = print_common(real, stream, format, ap);
    va_end(ap);
    return ret;
}

IOLENS_EXPORT int __fprintf_chk(FILE *stream, int flag, const char *format, ...)
{
    REAL_OR_FAIL(real, __vfprintf_chk, -1);
    va_list ap;
    va_start(ap, format);
    int ret = print_chk_common(real, stream, flag, format, ap);
    va_end(ap);
    return ret;
}

/* ----------------------------------------------------------- seeking -- */

/* The position after a successful seek: known for SEEK_SET, else asked. */
static void after_seek(FILE *stream, int ret, int64_t offset, int whence, double t0)
{
    double t1 = iolens_now();
    if (ret != 0 || !iolens_stdio_is_traced(stream))
        return;
    int saved = enter();
    off_t (*real_ftello)(FILE *) = IOLENS_REAL(ftello);
    int64_t pos = whence == SEEK_SET ? offset : real_ftello != NULL ? real_ftello(stream) : -1;
    iolens_stdio_seek(stream, pos, t0, t1);
    leave(saved);
}

IOLENS_EXPORT int fseek(FILE *stream, long offset, int whence)
{
    REAL_OR_FAIL(real, fseek, -1);
    if (!tracing())
        return real(stream, offset, whence);
    double t0 = iolens_now();
    int ret = real(stream, offset, whence);
    after_seek(stream, ret, offset, whence, t0);
    return ret;
}

IOLENS_EXPORT int fseeko(FILE *stream, off_t offset, int whence)
{
    REAL_OR_FAIL(real, fseeko, -1);
    if (!tracing())
        return real(stream, offset, whence);
    double t0 = iolens_now();
    int ret = real(stream, offset, whence);
    after_seek(stream, ret, offset, whence, t0);
    return ret;
}

IOLENS_EXPORT int fseeko64(FILE *stream, off64_t offset, int whence)
{
    REAL_OR_FAIL(real, fseeko64, -1);
    if (!tracing())
        return real(stream, offset, whence);
    double t0 = iolens_now();
    int ret = real(stream, offset, whence);
    after_seek(stream, ret, offset, whence, t0);
    return ret;
}

IOLENS_EXPORT void rewind(FILE *stream)
{
    __typeof__(iolens_real_rewind) real = IOLENS_REAL(rewind);
    if (real == NULL) {
        errno = ENOSYS;
        return;
    }
    if (!tracing()) {
        real(stream);
        return;
    }
    double t0 = iolens_now();
    real(stream);
    after_seek(stream, 0, 0, SEEK_SET, t0);
}

/* ftell and friends are not counted; their answer refreshes the tracked
 * position. */
static void after_tell(FILE *stream, int64_t ret)
{
    if (ret >= 0) {
        int saved = enter();
        iolens_stdio_tell(stream, ret);
        leave(saved);
    }
}

IOLENS_EXPORT long ftell(FILE *stream)
{
    REAL_OR_FAIL(real, ftell, -1);
    if (!tracing())
        return real(stream);
    long ret = real(stream);
    after_tell(stream, ret);
    return ret;
}

IOLENS_EXPORT off_t ftello(FILE *stream)
{
    REAL_OR_FAIL(real, ftello, -1);
    if (!tracing())
        return real(stream);
    off_t ret = real(stream);
    after_tell(stream, ret);
    return ret;
}

IOLENS_EXPORT off64_t ftello64(FILE *stream)
{
    REAL_OR_FAIL(real, ftello64, -1);
    if (!tracing())
        return real(stream);
    off64_t ret = real(stream);
    after_tell(stream, ret);
    return ret;
}

/* ----------------------------------------------------- flush, fileno -- */

/* fflush(NULL) flushes every stream and is not attributed to any. */
IOLENS_EXPORT int fflush(FILE *stream)
{
    REAL_OR_FAIL(real, fflush, EOF);
    if (!tracing() || stream == NULL)
        return real(stream);
    double t0 = iolens_now();
    int ret = real(stream);
    double t1 = iolens_now();
    if (ret == 0) {
        int saved = enter();
        iolens_stdio_flush(stream, t0, t1);
        leave(saved);
    }
    return ret;
}

IOLENS_EXPORT int fileno(FILE *stream)
{
    REAL_OR_FAIL(real, fileno, -1);
    if (!tracing())
        return real(stream);
    int ret = real(stream);
    if (ret >= 0) {
        int saved = enter();
        iolens_stdio_fileno(stream, ret);
        leave(saved);
    }
    return ret;
}
