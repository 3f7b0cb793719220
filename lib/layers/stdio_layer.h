/* Bookkeeping of the STDIO layer, fed by wrappers/stdio.c.  A stream maps
 * to its file record and a tracked position through a fixed-size table
 * keyed by the FILE pointer, allocated from the budget at start-up.
 *
 * Rules (also described in iolens(7)):
 *  - A stream is tracked when it was opened on a traced path, or is
 *    stdin, stdout or stderr.  Its slot is in the stream tables
 *    (stdio_streams.h); when no table has room a new stream counts in
 *    <other files>, and so does one whose file the budget has no record
 *    for.  A file
 *    whose record counted an earlier stream is then folded whole into
 *    <other files>, so that no row lacks some of its streams' calls.
 *  - The position starts at 0 (fdopen: at the descriptor's position) and
 *    advances by the bytes each call moved; fseek/rewind/ftell set it.
 *    Streams opened for appending ("a" modes) learn where a write landed
 *    from ftello after it.
 *  - Bytes: fread size*items, fgets the string length, fputs the string
 *    length, puts the string length + 1, the printf family its result,
 *    getline/getdelim their result, fputc/getc and friends 1 (0 for getc
 *    at end of file), putw/getw sizeof(int), fscanf the distance ftello
 *    moved.  ungetc is not counted: it moves the tracked position back
 *    by one, and the byte counts again when it is read.
 *  - A call that failed is not counted (only its access interval is
 *    kept).
 *  - Bytes that moved through the stream's buffer without a call
 *    (getc_unlocked, putc_unlocked and the like, which glibc's headers
 *    expand inline) are found from its buffer pointers (stdio_buffer.h)
 *    at the next look: at the entry of every wrapped call on it, at
 *    fclose and when the log is written.  They add to the bytes and the
 *    furthest byte, not to the call counts; __uflow and __overflow, which
 *    such code calls when the buffer is empty or full, count as calls of
 *    one byte.  After each wrapped call the pointers are noted again, so
 *    that the call's own bytes are not counted twice.  Only while the
 *    process has a single thread (see accounting_on in stdio_layer.c). */
#ifndef IOLENS_STDIO_LAYER_H
#define IOLENS_STDIO_LAYER_H

#include <stdint.h>
#include <stdio.h>

/* The runtime walks the layer through its entry in the layer table
 * (layers/layer_ops.h): start-up allocates the stream table and binds
 * stdin, stdout and stderr. */

struct iolens_stdio_rec;

/* fopen/fopen64 succeeded (path may be relative). */
void iolens_stdio_open(FILE *stream, const char *path, const char *mode,
                       double t0, double t1);
/* fdopen succeeded: the stream takes the name of the descriptor's file. */
void iolens_stdio_fdopen(FILE *stream, int fd, const char *mode, double t0, double t1);
/* tmpfile succeeded: its file, which has no name, is named after the
 * directory it is in (P_tmpdir), as an O_TMPFILE open is. */
void iolens_stdio_tmpfile(FILE *stream, double t0, double t1);
/* freopen/freopen64: the wrapper calls iolens_stdio_close_begin(old)
 * before the real freopen (which closes old's descriptor, and fails with
 * old closed too), then this with the record begin returned and the
 * stream freopen returned (NULL on failure).  path NULL reopens the same
 * file with a new mode. */
void iolens_stdio_reopen(struct iolens_stdio_rec *old_rec, FILE *ret, const char *path,
                         const char *mode, double t0, double t1);

/* fclose is split in two so that the stream leaves the table BEFORE the
 * real fclose: the FILE may be freed and handed out by another thread's
 * fopen at once.  begin also forgets the stream's descriptor, which fclose
 * closes behind the POSIX layer's back.  end is called when fclose
 * returned 0, with the record begin returned (NULL: untracked). */
struct iolens_stdio_rec *iolens_stdio_close_begin(FILE *stream);
void iolens_stdio_close_end(struct iolens_stdio_rec *rec, double t0, double t1);

/* bytes transferred by a read (fread, fgets, fscanf) or write call.
 * t0 and t1 are iolens_now() readings (clock units, see clock.h).  These
 * leave errno as it was. */
void iolens_stdio_read(FILE *stream, int64_t bytes, double t0, double t1);
void iolens_stdio_write(FILE *stream, int64_t bytes, double t0, double t1);

/* The same split in two for the wrappers' hot path: the stream's tracking
 * entry is looked up once, before the real call (NULL: not tracked, so the
 * call need not even be timed), and handed back after it.  The entry stays
 * valid while the stream is open, which the caller's own use of the
 * stream guarantees for the duration of the call.  begin also catches up
 * with the stream's buffer (iolens_stdio_catch_up, below) when it is
 * tracked and the buffer's pointers moved, with the runtime's guard set
 * for the catch-up (state.h). */
struct iolens_stdio_stream;
struct iolens_stdio_stream *iolens_stdio_begin(FILE *stream);
/* site: the call site (iolens_site_of, core/call_site.h; 0: none), which
 * iolens_stdio_read and iolens_stdio_write take from iolens_site_note. */
void iolens_stdio_read_stream(struct iolens_stdio_stream *s, FILE *stream, int64_t bytes,
                              double t0, double t1, uintptr_t site);
void iolens_stdio_write_stream(struct iolens_stdio_stream *s, FILE *stream, int64_t bytes,
                               double t0, double t1, uintptr_t site);

/* A read or write on a tracked stream that failed: no counter changes,
 * only an access interval of the bytes requested, flagged
 * IOLENS_IV_FAILED (BPS counts every access; layer_intervals.h).  Every
 * successful read and write adds its interval too.  Keeps errno. */
void iolens_stdio_failed_access(struct iolens_stdio_stream *s, int64_t requested, int is_write,
                                double t0, double t1);

/* ungetc pushed a byte back: the position goes back by one (not
 * counted, as Darshan does not count it either).  Keeps errno. */
void iolens_stdio_unget(struct iolens_stdio_stream *s, FILE *stream);

/* Buffer accounting (see the rules above).  catch_up counts what the
 * stream's buffer pointers moved since they were last noted and notes
 * them; it is called before a wrapped call (a few loads and compares when
 * nothing moved).  resync only notes them, after the call; the read and
 * write functions above do it themselves.  The _file forms look the
 * stream up (nothing if untracked); the _all forms do every tracked
 * stream (fflush(NULL), writing the log).  None changes errno. */
void iolens_stdio_catch_up(struct iolens_stdio_stream *s, FILE *stream);
void iolens_stdio_resync(struct iolens_stdio_stream *s, FILE *stream);
void iolens_stdio_catch_up_file(FILE *stream);
void iolens_stdio_resync_file(FILE *stream);
void iolens_stdio_catch_up_all(void);
void iolens_stdio_resync_all(void);

/* fseek/fseeko/rewind/fsetpos: new_offset is the position after the call (the
 * wrapper learns it with ftell only when the whence is not SEEK_SET). */
void iolens_stdio_seek(FILE *stream, int64_t new_offset, double t0, double t1);
/* ftell/ftello told the true position: refresh the tracked one (not
 * counted; keeps positions right after calls iolens does not see, such as
 * the getc_unlocked that glibc's headers inline). */
void iolens_stdio_tell(FILE *stream, int64_t offset);
void iolens_stdio_flush(FILE *stream, double t0, double t1);
/* fileno returned fd: the POSIX layer tracks fd on the stream's file, so
 * fsync(fileno(f)) and the like are counted. */
void iolens_stdio_fileno(FILE *stream, int fd);

/* 1 if the stream is traced (lets wrappers skip costly extra calls). */
int iolens_stdio_is_traced(FILE *stream);

#endif
