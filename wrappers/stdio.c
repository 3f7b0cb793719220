/* STDIO interposition.  As in wrappers/posix.c: get the real function
 * (ENOSYS if missing), tail-call it when the STDIO layer is not tracing,
 * else time it and, on success, hand the facts to lib/layers/stdio_layer.c with
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

#include "core/call_site.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "core/real_calls.h"
#include "core/state.h"
#include "core/stderr_copy.h"
#define IOLENS_WRAPPER_LAYER IOLENS_LAYER_STDIO
#include "wrapper.h"
#include "layers/stdio_layer.h"

/* Old glibc headers made some of these macros; every name below is a
 * function of its own. */
#undef getc
#undef putc
#undef getchar
#undef putchar
#undef getc_unlocked
#undef putc_unlocked
#undef getchar_unlocked
#undef putchar_unlocked
#undef fgetc_unlocked
#undef fputc_unlocked
#undef fread_unlocked
#undef fwrite_unlocked

/* Entry points the headers declare only in fortified or old builds. */
int _IO_getc(FILE *stream);
int _IO_putc(int c, FILE *stream);
int __printf_chk(int flag, const char *format, ...);
int __vprintf_chk(int flag, const char *format, va_list ap);
int __fprintf_chk(FILE *stream, int flag, const char *format, ...);
int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list ap);
size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t nmemb, FILE *stream);
size_t __fread_unlocked_chk(void *ptr, size_t ptrlen, size_t size, size_t nmemb, FILE *stream);
char *__fgets_chk(char *s, size_t size, int n, FILE *stream);
char *__fgets_unlocked_chk(char *s, size_t size, int n, FILE *stream);

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

/* The stream's tracking entry when the call is to be traced, else NULL
 * (layer off, runtime busy, stream not tracked): then the real call runs
 * untimed.  Looked up once, before the call, where the bytes inline code
 * moved through the buffer since the last call are caught up with (the
 * read and write functions note the pointers again after the call). */
static inline struct iolens_stdio_stream *traced_stream(FILE *stream)
{
    return tracing() ? iolens_stdio_begin(stream) : NULL;
}

/* The same bracket for calls that are not reads or writes (seek, tell,
 * flush, fileno): before them catch up, after them note the pointers,
 * which such calls move (a seek inside the buffer, a flush).  Untracked
 * streams cost a table lookup, as the calls' own bookkeeping does. */
static inline void catch_up_before(FILE *stream)
{
    int saved = enter();
    iolens_stdio_catch_up_file(stream);
    leave(saved);
}

static inline void resync_after(FILE *stream)
{
    int saved = enter();
    iolens_stdio_resync_file(stream);
    leave(saved);
}

/* A read or write that failed: only its access interval, with the bytes
 * requested (out of line, off the hot path; errno kept). */
static __attribute__((noinline, cold)) void failed_access(struct iolens_stdio_stream *s,
                                                           FILE *stream, int64_t requested,
                                                           int is_write, double t0, double t1)
{
    int saved = enter();
    iolens_stdio_resync(s, stream);
    iolens_stdio_failed_access(s, requested, is_write, t0, t1);
    leave(saved);
}

/* ok: whether the call succeeded; bytes: what it moved; requested: what
 * it asked for (used only if it failed).  Inlined into every read and
 * write wrapper: the hot path; and so are the helpers that call them, so
 * that __builtin_return_address(0) here is the exported wrapper's, the
 * call site in the program. */
static inline __attribute__((always_inline)) void
after_read(struct iolens_stdio_stream *s, FILE *stream, int ok, int64_t bytes, double t0,
           int64_t requested)
{
    double t1 = iolens_now();
    if (__builtin_expect(ok, 1)) {
        guard_on(); /* a signal handler's I/O now passes untraced */
        iolens_stdio_read_stream(s, stream, bytes, t0, t1,
                                 iolens_site_of(__builtin_return_address(0)));
        guard_off();
    } else {
        failed_access(s, stream, requested, 0, t0, t1);
    }
}

static inline __attribute__((always_inline)) void
after_write(struct iolens_stdio_stream *s, FILE *stream, int ok, int64_t bytes, double t0,
            int64_t requested)
{
    double t1 = iolens_now();
    if (__builtin_expect(ok, 1)) {
        guard_on(); /* a signal handler's I/O now passes untraced */
        iolens_stdio_write_stream(s, stream, bytes, t0, t1,
                                  iolens_site_of(__builtin_return_address(0)));
        guard_off();
    } else {
        failed_access(s, stream, requested, 1, t0, t1);
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
    return __builtin_expect(ret > 0, 1) || size == 0 || nmemb == 0 || !ferror(stream);
}

/* fwrite returning fewer than nmemb items failed (partly); what it did
 * write is still counted. */
static int fwrite_ok(size_t ret, size_t size, size_t nmemb)
{
    return __builtin_expect(ret > 0, 1) || size == 0 || nmemb == 0;
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

/* tmpfile opens its file inside the C library, where no open is seen. */
static FILE *tmpfile_common(FILE *(*real)(void))
{
    if (!tracing())
        return real();
    double t0 = iolens_now();
    FILE *ret = real();
    double t1 = iolens_now();
    if (ret != NULL) {
        int saved = enter();
        iolens_stdio_tmpfile(ret, t0, t1);
        leave(saved);
    }
    return ret;
}

IOLENS_EXPORT FILE *tmpfile(void)
{
    REAL_OR_FAIL(real, tmpfile, NULL);
    return tmpfile_common(real);
}

IOLENS_EXPORT FILE *tmpfile64(void)
{
    REAL_OR_FAIL(real, tmpfile64, NULL);
    return tmpfile_common(real);
}

/* fclose and freopen: the layer takes the stream's record out of its
 * tables before the real call; fclose charges it the close if the call
 * succeeded, freopen the reopen. */
static struct iolens_stdio_rec *before_close(FILE *stream)
{
    int saved = enter();
    struct iolens_stdio_rec *rec = iolens_stdio_close_begin(stream);
    leave(saved);
    return rec;
}

static FILE *freopen_common(FILE *(*real)(const char *, const char *, FILE *), const char *path,
                            const char *mode, FILE *stream)
{
    if (!tracing())
        return real(path, mode, stream);
    struct iolens_stdio_rec *old = before_close(stream);
    double t0 = iolens_now();
    FILE *ret = real(path, mode, stream);
    double t1 = iolens_now();
    int saved = enter();
    iolens_stdio_reopen(old, ret, path, mode, t0, t1);
    /* freopen of stderr is how a program redirects it. */
    if (ret != NULL && fileno(ret) == 2)
        iolens_stderr_adopt();
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

static int after_close(struct iolens_stdio_rec *rec, int ret, double t0)
{
    double t1 = iolens_now();
    if (ret == 0) {
        int saved = enter();
        iolens_stdio_close_end(rec, t0, t1);
        leave(saved);
    }
    return ret;
}

IOLENS_EXPORT int fclose(FILE *stream)
{
    REAL_OR_FAIL(real, fclose, EOF);
    if (!tracing())
        return real(stream);
    struct iolens_stdio_rec *rec = before_close(stream);
    double t0 = iolens_now();
    return after_close(rec, real(stream), t0);
}

/* ----------------------------------------------------------- reading -- */

/* fread, fgets and their _unlocked forms, whose real functions also come
 * fortified (_chk, taking the destination's size first): the one that is
 * not NULL is called.  Inlined with a constant choice, so the plain fread
 * path keeps no test. */
struct fread_real {
    size_t (*plain)(void *, size_t, size_t, FILE *);
    size_t (*checked)(void *, size_t, size_t, size_t, FILE *);
};

struct fgets_real {
    char *(*plain)(char *, int, FILE *);
    char *(*checked)(char *, size_t, int, FILE *);
};

static inline __attribute__((always_inline)) size_t
call_fread(struct fread_real real, void *ptr, size_t ptrlen, size_t size, size_t nmemb,
           FILE *stream)
{
    if (real.checked != NULL)
        return real.checked(ptr, ptrlen, size, nmemb, stream);
    return real.plain(ptr, size, nmemb, stream);
}

static inline __attribute__((always_inline)) size_t
read_items(struct fread_real real, void *ptr, size_t ptrlen, size_t size, size_t nmemb,
           FILE *stream)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return call_fread(real, ptr, ptrlen, size, nmemb, stream);
    double t0 = iolens_now();
    size_t ret = call_fread(real, ptr, ptrlen, size, nmemb, stream);
    int ok = fread_ok(ret, size, nmemb, stream);
    /* requested only matters, and so is only worked out, if it failed */
    after_read(s, stream, ok, (int64_t)(ret * size), t0, ok ? 0 : items_bytes(size, nmemb));
    return ret;
}

static char *call_fgets(struct fgets_real real, char *s, size_t size, int n, FILE *stream)
{
    if (real.checked != NULL)
        return real.checked(s, size, n, stream);
    return real.plain(s, n, stream);
}

static inline __attribute__((always_inline)) char *read_line(struct fgets_real real, char *s, size_t size, int n, FILE *stream)
{
    struct iolens_stdio_stream *ts = traced_stream(stream);
    if (ts == NULL)
        return call_fgets(real, s, size, n, stream);
    double t0 = iolens_now();
    char *ret = call_fgets(real, s, size, n, stream);
    after_read(ts, stream, ret != NULL || !ferror(stream), fgets_bytes(ret), t0,
               n > 1 ? n - 1 : 0);
    return ret;
}

IOLENS_EXPORT size_t fread(void *ptr, size_t size, size_t nmemb, FILE *stream)
{
    REAL_OR_FAIL(real, fread, 0);
    return read_items((struct fread_real){.plain = real}, ptr, 0, size, nmemb, stream);
}

IOLENS_EXPORT size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t nmemb,
                                 FILE *stream)
{
    REAL_OR_FAIL(real, __fread_chk, 0);
    return read_items((struct fread_real){.checked = real}, ptr, ptrlen, size, nmemb, stream);
}

IOLENS_EXPORT char *fgets(char *s, int n, FILE *stream)
{
    REAL_OR_FAIL(real, fgets, NULL);
    return read_line((struct fgets_real){.plain = real}, s, 0, n, stream);
}

IOLENS_EXPORT char *__fgets_chk(char *s, size_t size, int n, FILE *stream)
{
    REAL_OR_FAIL(real, __fgets_chk, NULL);
    return read_line((struct fgets_real){.checked = real}, s, size, n, stream);
}

/* The _unlocked forms count as the locked ones (the caller holds the
 * stream's lock; the layer's bookkeeping takes none of the stream's). */
IOLENS_EXPORT size_t fread_unlocked(void *ptr, size_t size, size_t nmemb, FILE *stream)
{
    REAL_OR_FAIL(real, fread_unlocked, 0);
    return read_items((struct fread_real){.plain = real}, ptr, 0, size, nmemb, stream);
}

IOLENS_EXPORT size_t __fread_unlocked_chk(void *ptr, size_t ptrlen, size_t size, size_t nmemb,
                                          FILE *stream)
{
    REAL_OR_FAIL(real, __fread_unlocked_chk, 0);
    return read_items((struct fread_real){.checked = real}, ptr, ptrlen, size, nmemb, stream);
}

IOLENS_EXPORT char *fgets_unlocked(char *s, int n, FILE *stream)
{
    REAL_OR_FAIL(real, fgets_unlocked, NULL);
    return read_line((struct fgets_real){.plain = real}, s, 0, n, stream);
}

IOLENS_EXPORT char *__fgets_unlocked_chk(char *s, size_t size, int n, FILE *stream)
{
    REAL_OR_FAIL(real, __fgets_unlocked_chk, NULL);
    return read_line((struct fgets_real){.checked = real}, s, size, n, stream);
}

/* One character read (per-character calls: kept as cheap as fread's
 * path).  EOF without the error flag is a 0-byte read at end of file. */
static inline __attribute__((always_inline)) int get_char(int (*real)(FILE *), FILE *stream)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(stream);
    double t0 = iolens_now();
    int ret = real(stream);
    after_read(s, stream, ret != EOF || !ferror(stream), ret != EOF, t0, 1);
    return ret;
}

/* getchar and getchar_unlocked: the same on stdin as it is at the call. */
static inline __attribute__((always_inline)) int get_stdin_char(int (*real)(void))
{
    FILE *in = stdin;
    struct iolens_stdio_stream *s = traced_stream(in);
    if (s == NULL)
        return real();
    double t0 = iolens_now();
    int ret = real();
    after_read(s, in, ret != EOF || !ferror(in), ret != EOF, t0, 1);
    return ret;
}

IOLENS_EXPORT int fgetc(FILE *stream)
{
    REAL_OR_FAIL(real, fgetc, EOF);
    return get_char(real, stream);
}

IOLENS_EXPORT int getc(FILE *stream)
{
    REAL_OR_FAIL(real, getc, EOF);
    return get_char(real, stream);
}

/* What the getc macro of glibc before 2.28 called. */
IOLENS_EXPORT int _IO_getc(FILE *stream)
{
    REAL_OR_FAIL(real, _IO_getc, EOF);
    return get_char(real, stream);
}

/* The _unlocked character functions are counted when called; glibc's
 * headers inline getc_unlocked, getchar_unlocked and fgetc_unlocked in
 * optimized builds, and what those inlined reads take from the buffer is
 * counted by buffer accounting (traced_stream, __uflow). */
IOLENS_EXPORT int fgetc_unlocked(FILE *stream)
{
    REAL_OR_FAIL(real, fgetc_unlocked, EOF);
    return get_char(real, stream);
}

IOLENS_EXPORT int getc_unlocked(FILE *stream)
{
    REAL_OR_FAIL(real, getc_unlocked, EOF);
    return get_char(real, stream);
}

IOLENS_EXPORT int getchar(void)
{
    REAL_OR_FAIL(real, getchar, EOF);
    return get_stdin_char(real);
}

IOLENS_EXPORT int getchar_unlocked(void)
{
    REAL_OR_FAIL(real, getchar_unlocked, EOF);
    return get_stdin_char(real);
}

/* What glibc's inline getc_unlocked, getchar_unlocked and fgetc_unlocked
 * call when the read buffer is empty: it refills the buffer and takes one
 * byte, so it counts as one call of one byte (as getc).  (__underflow,
 * which only looks at the next byte, is not reached from glibc's current
 * headers and is not wrapped.) */
IOLENS_EXPORT int __uflow(FILE *stream)
{
    REAL_OR_FAIL(real, __uflow, EOF);
    return get_char(real, stream);
}

/* getw returns EOF both for an error and for a word of all ones: the
 * stream's flags tell.  At end of file it is a 0-byte read. */
IOLENS_EXPORT int getw(FILE *stream)
{
    REAL_OR_FAIL(real, getw, EOF);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(stream);
    double t0 = iolens_now();
    int ret = real(stream);
    int at_end = ret == EOF && feof(stream);
    after_read(s, stream, ret != EOF || !ferror(stream), at_end ? 0 : (int64_t)sizeof(int), t0,
               (int64_t)sizeof(int));
    return ret;
}

/* Not counted (Darshan does not count it either): the tracked position
 * goes back by one, and the byte counts when it is read again. */
IOLENS_EXPORT int ungetc(int c, FILE *stream)
{
    REAL_OR_FAIL(real, ungetc, EOF);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(c, stream);
    int ret = real(c, stream);
    guard_on();
    if (ret != EOF)
        iolens_stdio_unget(s, stream);
    else
        iolens_stdio_resync(s, stream);
    guard_off();
    return ret;
}

/* getline and getdelim: the bytes are the length returned.  -1 without
 * the error flag is a 0-byte read at end of file. */
static inline __attribute__((always_inline)) void after_getdelim(struct iolens_stdio_stream *s, FILE *stream, ssize_t ret,
                                  double t0)
{
    after_read(s, stream, ret >= 0 || !ferror(stream), ret > 0 ? ret : 0, t0, 0);
}

IOLENS_EXPORT ssize_t getline(char **lineptr, size_t *n, FILE *stream)
{
    REAL_OR_FAIL(real, getline, -1);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(lineptr, n, stream);
    double t0 = iolens_now();
    ssize_t ret = real(lineptr, n, stream);
    after_getdelim(s, stream, ret, t0);
    return ret;
}

static ssize_t getdelim_common(ssize_t (*real)(char **, size_t *, int, FILE *), char **lineptr,
                               size_t *n, int delim, FILE *stream)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(lineptr, n, delim, stream);
    double t0 = iolens_now();
    ssize_t ret = real(lineptr, n, delim, stream);
    after_getdelim(s, stream, ret, t0);
    return ret;
}

IOLENS_EXPORT ssize_t getdelim(char **lineptr, size_t *n, int delim, FILE *stream)
{
    REAL_OR_FAIL(real, getdelim, -1);
    return getdelim_common(real, lineptr, n, delim, stream);
}

/* What glibc's inline getline (optimized builds) calls. */
IOLENS_EXPORT ssize_t __getdelim(char **lineptr, size_t *n, int delim, FILE *stream)
{
    REAL_OR_FAIL(real, __getdelim, -1);
    return getdelim_common(real, lineptr, n, delim, stream);
}

/* fscanf: the bytes consumed are the distance the position moved. */
static inline __attribute__((always_inline)) int scan_common(int (*real)(FILE *, const char *, va_list), FILE *stream,
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

/* fwrite and fwrite_unlocked (the hot path: inlined). */
static inline __attribute__((always_inline)) size_t
write_items(size_t (*real)(const void *, size_t, size_t, FILE *), const void *ptr, size_t size,
            size_t nmemb, FILE *stream)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(ptr, size, nmemb, stream);
    double t0 = iolens_now();
    size_t ret = real(ptr, size, nmemb, stream);
    int ok = fwrite_ok(ret, size, nmemb);
    /* requested only matters, and so is only worked out, if it failed */
    after_write(s, stream, ok, (int64_t)(ret * size), t0, ok ? 0 : items_bytes(size, nmemb));
    return ret;
}

/* fputs and fputs_unlocked. */
static inline __attribute__((always_inline)) int write_string(int (*real)(const char *, FILE *), const char *s, FILE *stream)
{
    struct iolens_stdio_stream *ts = traced_stream(stream);
    if (ts == NULL)
        return real(s, stream);
    double t0 = iolens_now();
    int ret = real(s, stream);
    int64_t len = (int64_t)strlen(s);
    after_write(ts, stream, ret != EOF, len, t0, len);
    return ret;
}

IOLENS_EXPORT size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *stream)
{
    REAL_OR_FAIL(real, fwrite, 0);
    return write_items(real, ptr, size, nmemb, stream);
}

IOLENS_EXPORT int fputs(const char *s, FILE *stream)
{
    REAL_OR_FAIL(real, fputs, EOF);
    return write_string(real, s, stream);
}

IOLENS_EXPORT size_t fwrite_unlocked(const void *ptr, size_t size, size_t nmemb, FILE *stream)
{
    REAL_OR_FAIL(real, fwrite_unlocked, 0);
    return write_items(real, ptr, size, nmemb, stream);
}

IOLENS_EXPORT int fputs_unlocked(const char *s, FILE *stream)
{
    REAL_OR_FAIL(real, fputs_unlocked, EOF);
    return write_string(real, s, stream);
}

/* puts writes the string and a newline to stdout. */
IOLENS_EXPORT int puts(const char *s)
{
    REAL_OR_FAIL(real, puts, EOF);
    FILE *out = stdout;
    struct iolens_stdio_stream *ts = traced_stream(out);
    if (ts == NULL)
        return real(s);
    double t0 = iolens_now();
    int ret = real(s);
    int64_t len = (int64_t)strlen(s) + 1;
    after_write(ts, out, ret != EOF, len, t0, len);
    return ret;
}

/* One character written (compilers turn fprintf(f, "\n") into fputc). */
static inline __attribute__((always_inline)) int put_char(int (*real)(int, FILE *), int c,
                                                          FILE *stream)
{
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(c, stream);
    double t0 = iolens_now();
    int ret = real(c, stream);
    after_write(s, stream, ret != EOF, 1, t0, 1);
    return ret;
}

/* putchar and putchar_unlocked: the same on stdout as it is at the call. */
static inline __attribute__((always_inline)) int put_stdout_char(int (*real)(int), int c)
{
    FILE *out = stdout;
    struct iolens_stdio_stream *s = traced_stream(out);
    if (s == NULL)
        return real(c);
    double t0 = iolens_now();
    int ret = real(c);
    after_write(s, out, ret != EOF, 1, t0, 1);
    return ret;
}

IOLENS_EXPORT int fputc(int c, FILE *stream)
{
    REAL_OR_FAIL(real, fputc, EOF);
    return put_char(real, c, stream);
}

IOLENS_EXPORT int putc(int c, FILE *stream)
{
    REAL_OR_FAIL(real, putc, EOF);
    return put_char(real, c, stream);
}

/* What the putc macro of glibc before 2.28 called. */
IOLENS_EXPORT int _IO_putc(int c, FILE *stream)
{
    REAL_OR_FAIL(real, _IO_putc, EOF);
    return put_char(real, c, stream);
}

/* Counted when called; inlined by glibc's headers in optimized builds
 * (see fgetc_unlocked). */
IOLENS_EXPORT int fputc_unlocked(int c, FILE *stream)
{
    REAL_OR_FAIL(real, fputc_unlocked, EOF);
    return put_char(real, c, stream);
}

IOLENS_EXPORT int putc_unlocked(int c, FILE *stream)
{
    REAL_OR_FAIL(real, putc_unlocked, EOF);
    return put_char(real, c, stream);
}

IOLENS_EXPORT int putchar(int c)
{
    REAL_OR_FAIL(real, putchar, EOF);
    return put_stdout_char(real, c);
}

IOLENS_EXPORT int putchar_unlocked(int c)
{
    REAL_OR_FAIL(real, putchar_unlocked, EOF);
    return put_stdout_char(real, c);
}

/* What glibc's inline putc_unlocked and putchar_unlocked call when the
 * write buffer is full (or the stream is line-buffered or unbuffered):
 * one call of one byte.  The bytes those macros put in the buffer
 * without a call are caught up with before it.  ch EOF (a flush) writes
 * no byte of its own. */
IOLENS_EXPORT int __overflow(FILE *stream, int ch)
{
    REAL_OR_FAIL(real, __overflow, EOF);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(stream, ch);
    double t0 = iolens_now();
    int ret = real(stream, ch);
    after_write(s, stream, ret != EOF, ch != EOF, t0, ch != EOF);
    return ret;
}

/* putw writes one int; it returns 0, or EOF on error. */
IOLENS_EXPORT int putw(int w, FILE *stream)
{
    REAL_OR_FAIL(real, putw, EOF);
    struct iolens_stdio_stream *s = traced_stream(stream);
    if (s == NULL)
        return real(w, stream);
    double t0 = iolens_now();
    int ret = real(w, stream);
    after_write(s, stream, ret == 0, (int64_t)sizeof(int), t0, (int64_t)sizeof(int));
    return ret;
}

static inline __attribute__((always_inline)) int print_common(int (*real)(FILE *, const char *, va_list), FILE *stream,
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

static inline __attribute__((always_inline)) int print_chk_common(int (*real)(FILE *, int, const char *, va_list), FILE *stream,
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

/* printf and its forms are their fprintf forms on stdout (as glibc
 * implements them), so they go through the real vfprintf and
 * __vfprintf_chk with the stdout of the moment. */
IOLENS_EXPORT int vprintf(const char *format, va_list ap)
{
    REAL_OR_FAIL(real, vfprintf, -1);
    return print_common(real, stdout, format, ap);
}

IOLENS_EXPORT int __vprintf_chk(int flag, const char *format, va_list ap)
{
    REAL_OR_FAIL(real, __vfprintf_chk, -1);
    return print_chk_common(real, stdout, flag, format, ap);
}

IOLENS_EXPORT int printf(const char *format, ...)
{
    REAL_OR_FAIL(real, vfprintf, -1);
    va_list ap;
    va_start(ap, format);
    int ret = print_common(real, stdout, format, ap);
    va_end(ap);
    return ret;
}

IOLENS_EXPORT int __printf_chk(int flag, const char *format, ...)
{
    REAL_OR_FAIL(real, __vfprintf_chk, -1);
    va_list ap;
    va_start(ap, format);
    int ret = print_chk_common(real, stdout, flag, format, ap);
    va_end(ap);
    return ret;
}

/* ----------------------------------------------------------- seeking -- */

/* The position after a successful seek: known for SEEK_SET, else asked. */
static void after_seek(FILE *stream, int ret, int64_t offset, int whence, double t0)
{
    double t1 = iolens_now();
    resync_after(stream);
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
    catch_up_before(stream);
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
    catch_up_before(stream);
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
    catch_up_before(stream);
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
    catch_up_before(stream);
    double t0 = iolens_now();
    real(stream);
    after_seek(stream, 0, 0, SEEK_SET, t0);
}

/* fsetpos: a seek to a position fgetpos gave; where that is, ftello
 * tells. */
IOLENS_EXPORT int fsetpos(FILE *stream, const fpos_t *pos)
{
    REAL_OR_FAIL(real, fsetpos, -1);
    if (!tracing())
        return real(stream, pos);
    catch_up_before(stream);
    double t0 = iolens_now();
    int ret = real(stream, pos);
    after_seek(stream, ret, 0, SEEK_CUR, t0);
    return ret;
}

IOLENS_EXPORT int fsetpos64(FILE *stream, const fpos64_t *pos)
{
    REAL_OR_FAIL(real, fsetpos64, -1);
    if (!tracing())
        return real(stream, pos);
    catch_up_before(stream);
    double t0 = iolens_now();
    int ret = real(stream, pos);
    after_seek(stream, ret, 0, SEEK_CUR, t0);
    return ret;
}

/* ftell and friends are not counted; their answer refreshes the tracked
 * position. */
static void after_tell(FILE *stream, int64_t ret)
{
    resync_after(stream);
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
    catch_up_before(stream);
    long ret = real(stream);
    after_tell(stream, ret);
    return ret;
}

IOLENS_EXPORT off_t ftello(FILE *stream)
{
    REAL_OR_FAIL(real, ftello, -1);
    if (!tracing())
        return real(stream);
    catch_up_before(stream);
    off_t ret = real(stream);
    after_tell(stream, ret);
    return ret;
}

IOLENS_EXPORT off64_t ftello64(FILE *stream)
{
    REAL_OR_FAIL(real, ftello64, -1);
    if (!tracing())
        return real(stream);
    catch_up_before(stream);
    off64_t ret = real(stream);
    after_tell(stream, ret);
    return ret;
}

/* fgetpos is not counted either; on a traced stream the position it
 * took refreshes the tracked one (asked with ftello: fpos_t is opaque). */
static void after_getpos(FILE *stream, int ret)
{
    resync_after(stream);
    if (ret != 0 || !iolens_stdio_is_traced(stream))
        return;
    off_t (*real_ftello)(FILE *) = IOLENS_REAL(ftello);
    if (real_ftello == NULL)
        return;
    int saved = enter();
    off_t pos = real_ftello(stream);
    if (pos >= 0)
        iolens_stdio_tell(stream, pos);
    leave(saved);
}

IOLENS_EXPORT int fgetpos(FILE *stream, fpos_t *pos)
{
    REAL_OR_FAIL(real, fgetpos, -1);
    if (!tracing())
        return real(stream, pos);
    catch_up_before(stream);
    int ret = real(stream, pos);
    after_getpos(stream, ret);
    return ret;
}

IOLENS_EXPORT int fgetpos64(FILE *stream, fpos64_t *pos)
{
    REAL_OR_FAIL(real, fgetpos64, -1);
    if (!tracing())
        return real(stream, pos);
    catch_up_before(stream);
    int ret = real(stream, pos);
    after_getpos(stream, ret);
    return ret;
}

/* ----------------------------------------------------- flush, fileno -- */

/* fflush(NULL) flushes every stream and is not attributed to any; what
 * inline code left in the buffers it empties is caught up with first. */
static int flush_all(int (*real)(FILE *))
{
    int saved = enter();
    iolens_stdio_catch_up_all();
    leave(saved);
    int ret = real(NULL);
    saved = enter();
    iolens_stdio_resync_all();
    leave(saved);
    return ret;
}

/* fflush and fflush_unlocked (gnulib's unlocked-io makes every fflush of
 * coreutils and tar the latter): the buffer they empty may hold bytes
 * that inline code put there, caught up with first. */
static int flush_stream(int (*real)(FILE *), FILE *stream)
{
    if (!tracing())
        return real(stream);
    if (stream == NULL)
        return flush_all(real);
    catch_up_before(stream);
    double t0 = iolens_now();
    int ret = real(stream);
    double t1 = iolens_now();
    resync_after(stream);
    if (ret == 0) {
        int saved = enter();
        iolens_stdio_flush(stream, t0, t1);
        leave(saved);
    }
    return ret;
}

/* fcloseall flushes every stream (glibc keeps the FILEs, unbuffered): as
 * fflush(NULL). */
IOLENS_EXPORT int fcloseall(void)
{
    REAL_OR_FAIL(real, fcloseall, EOF);
    if (!tracing())
        return real();
    int saved = enter();
    iolens_stdio_catch_up_all();
    leave(saved);
    int ret = real();
    saved = enter();
    iolens_stdio_resync_all();
    leave(saved);
    return ret;
}

IOLENS_EXPORT int fflush(FILE *stream)
{
    REAL_OR_FAIL(real, fflush, EOF);
    return flush_stream(real, stream);
}

IOLENS_EXPORT int fflush_unlocked(FILE *stream)
{
    REAL_OR_FAIL(real, fflush_unlocked, EOF);
    return flush_stream(real, stream);
}

IOLENS_EXPORT int fileno(FILE *stream)
{
    REAL_OR_FAIL(real, fileno, -1);
    if (!tracing())
        return real(stream);
    catch_up_before(stream);
    int ret = real(stream);
    resync_after(stream);
    if (ret >= 0) {
        int saved = enter();
        iolens_stdio_fileno(stream, ret);
        leave(saved);
    }
    return ret;
}
