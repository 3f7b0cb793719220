/* STDIO layer bookkeeping: the counters of IOLENS_STDIO_COUNTERS
 * (log_format.h), per file, fed by wrappers/stdio.c.
 *
 * A stream's slot (its record, tracked position and buffer marks) is found
 * in the stream tables keyed by the FILE pointer (stdio_streams.h); this
 * file decides what a slot is bound to: the file's record, or <other
 * files>' when the budget has none, and when a file's record is folded
 * whole.  Records have their own spinlock, as in the POSIX layer. */
#include "layers/stdio_layer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "layers/access_stats.h"
#include "core/budget.h"
#include "core/call_site.h"
#include "core/clock.h"
#include "core/fd_table.h"
#include "core/file_table.h"
#include "iolens/log_format.h"
#include "layers/layer_intervals.h"
#include "layers/layer_ops.h"
#include "layers/posix_layer.h"
#include "layers/record_park.h"
#include "core/real_calls.h"
#include "format/record_merge.h"
#include "core/state.h"
#include "core/spinlock.h"
#include "layers/stdio_buffer.h"
#include "layers/stdio_streams.h"

struct iolens_stdio_rec {
    _Atomic int lock;
    /* Under the table lock: the table's slots bound to the record, and
     * whether a stream of its file counted in <other files> (the record
     * is then folded whole once no slot holds it, fold_whole). */
    uint16_t streams;
    uint8_t lacks_calls;
    struct iolens_file *file;  /* the file this record belongs to */
    struct iolens_stdio_record disk;
    struct iolens_site_ref sites;      /* call sites (core/call_site.h) */
    double last_meta_end;     /* runtime-only: non-overlapping time (reads and
                               * writes use their F_*_END_TIMESTAMP) */
};

typedef struct iolens_stdio_rec stdio_rec;

/* The record lock: as in the POSIX layer (see lock_rec there), skipped
 * while the process has a single thread; returns whether it was taken. */
static inline int lock_rec(stdio_rec *r)
{
    return iolens_lock(&r->lock);
}

static inline void unlock_rec(stdio_rec *r, int held)
{
    iolens_unlock(&r->lock, held);
}

/* ------------------------------------------------------- records -- */

static const struct iolens_layer_ops stdio_ops;
static int has_activity(const struct iolens_stdio_record *d);

static void clear_counters(stdio_rec *r)
{
    iolens_layer_zero_counters(&stdio_ops, r);
    r->last_meta_end = 0.0;
}

static void init_rec(void *p, struct iolens_file *file)
{
    stdio_rec *r = p;
    r->file = file;
    iolens_layer_record_init(&stdio_ops, r, file);
}

/* file's record, made if need be; NULL when the budget has no room or
 * the file was folded whole (its slot refused). */
static stdio_rec *record_of(struct iolens_file *file)
{
    void *rec = iolens_file_layer_record(file, IOLENS_LAYER_STDIO, sizeof(stdio_rec), init_rec);
    return iolens_slot_is_live(rec) ? rec : NULL;
}

/* file's record if it has one; none is made. */
static stdio_rec *record_if_any(struct iolens_file *file)
{
    void *rec = atomic_load_explicit(&file->layer_rec[IOLENS_LAYER_STDIO], memory_order_acquire);
    return iolens_slot_is_live(rec) ? rec : NULL;
}

static void note_folded(const struct iolens_file *file, uint64_t opens)
{
    iolens_file_note_folded(iolens_path_hash(file->name, file->name_len), file->name_len,
                            IOLENS_LAYER_STDIO, opens);
}

/* The file of a traced path, or <other files> when the budget has no
 * entry for it (noted as a folded open).  NULL when the path is not
 * traced.  As in the POSIX layer, a path whose file has a record is
 * known to be traced, so the prefix rules are matched only for another.
 * The record itself is made when the stream gets a slot (bind_slot): a
 * stream no table has room for, sent to <other files>, needs none. */
static struct iolens_file *file_for_path(const char *abspath, size_t len)
{
    struct iolens_file *file = iolens_file_find(abspath, len);
    if (file != NULL && record_if_any(file) != NULL)
        return file;
    const struct iolens_config *cfg = iolens_runtime_config();
    if (cfg != NULL && !iolens_config_traces_path(cfg, abspath))
        return NULL;
    file = iolens_file_get(abspath, len);
    if (file == NULL) {
        iolens_file_note_folded(iolens_path_hash(abspath, len), len, IOLENS_LAYER_STDIO, 1);
        file = iolens_file_other();
    }
    return file;
}

/* A file that cannot be named (its path could not be made absolute: past
 * PATH_MAX): folded into <other files>, as one the budget had no room
 * for.  name is what the program gave, for the folded-files estimate. */
static struct iolens_file *file_for_nameless(const char *name, size_t len)
{
    iolens_file_note_folded(iolens_path_hash(name, len), len, IOLENS_LAYER_STDIO, 1);
    return iolens_file_other();
}

static void add_meta_time(stdio_rec *r, double t0, double t1)
{
    r->disk.fcounters[STDIO_F_META_TIME] = iolens_time_add_nonoverlap(
        r->disk.fcounters[STDIO_F_META_TIME], &r->last_meta_end, t0, t1);
}

/* ---------------------------------------------- folding whole -- */

static _Atomic int lacking_any; /* some record has lacks_calls set */

static void move_slot(struct iolens_stdio_stream *slot, FILE *stream, void *arg)
{
    (void)stream;
    stdio_rec **from_to = arg;
    if (slot->rec != from_to[0])
        return;
    slot->rec = from_to[1];
    from_to[0]->streams--;
    from_to[1]->streams++;
}

/* Under the table lock: the slots bound to from are bound to to. */
static void move_slots(stdio_rec *from, stdio_rec *to)
{
    stdio_rec *from_to[2] = {from, to};
    if (from->streams > 0)
        iolens_stdio_streams_foreach(move_slot, from_to);
}

/* acc += src by the layer's aggregation rules; acc keeps its id. */
static void merge_counts(struct iolens_stdio_record *acc, const struct iolens_stdio_record *src)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_STDIO);
    if (has_activity(acc)) {
        iolens_record_merge(d, acc, src);
        return;
    }
    uint64_t id = acc->id; /* nothing of its own yet: src is where a merge starts */
    iolens_record_merge_begin(d, acc, src);
    acc->id = id;
}

/* Under the table lock: r, a file's record that lacks some of its
 * streams' calls (they counted in <other files>), folded whole into
 * <other files>, as the POSIX layer folds a record (park_pool.h): its
 * counts, call sites and access intervals move there, and so do the
 * slots still bound to it (streams open when the log is written).  The
 * file's slot is refused, so that its later streams count there too: its
 * row is then absent, never short.  The record's memory stays unused.
 * (At the log, a thread's call on such a stream racing the fold may count
 * in r, missing from the log as any call racing the log is.) */
static void fold_whole(stdio_rec *r)
{
    stdio_rec *other = iolens_stdio_overflow_slot.rec;
    struct iolens_file *file = r->file;
    atomic_store_explicit(&file->layer_rec[IOLENS_LAYER_STDIO], IOLENS_REFUSED_SLOT,
                          memory_order_release);
    move_slots(r, other);
    int held = lock_rec(r);
    struct iolens_stdio_record mine = r->disk;
    unlock_rec(r, held);
    int64_t calls = mine.counters[STDIO_READS] + mine.counters[STDIO_WRITES];
    held = lock_rec(other);
    merge_counts(&other->disk, &mine);
    iolens_sites_fold(&other->sites, &r->sites, calls > 0);
    unlock_rec(other, held);
    iolens_intervals_rename(IOLENS_LAYER_STDIO, file->id, other->file->id);
    note_folded(file, (uint64_t)mine.counters[STDIO_OPENS]);
    r->lacks_calls = 0;
}

/* Under the table lock: a stream of r's file counts in <other files>. */
static void note_lacking(stdio_rec *r)
{
    r->lacks_calls = 1;
    if (r->streams == 0)
        fold_whole(r);
    else
        atomic_store_explicit(&lacking_any, 1, memory_order_relaxed);
}

/* Under the table lock: a slot lets go of r.  Returns the record the
 * stream's close is charged to: <other files>' when r is folded now. */
static stdio_rec *let_go(stdio_rec *r)
{
    if (r->streams > 0)
        r->streams--;
    if (!r->lacks_calls || r->streams > 0)
        return r;
    fold_whole(r);
    return iolens_stdio_overflow_slot.rec;
}

static void fold_if_lacking(struct iolens_stdio_stream *slot, FILE *stream, void *arg)
{
    (void)stream;
    (void)arg;
    if (slot->rec->lacks_calls)
        fold_whole(slot->rec);
}

/* Before the log is written: records lacking calls that open streams
 * still hold, folded whole. */
static void fold_lacking(void)
{
    if (!atomic_load_explicit(&lacking_any, memory_order_relaxed))
        return;
    iolens_stdio_streams_lock();
    iolens_stdio_streams_foreach(fold_if_lacking, NULL);
    atomic_store_explicit(&lacking_any, 0, memory_order_relaxed);
    iolens_stdio_streams_unlock();
}

/* ------------------------------------------------- tracking streams -- */

/* Under the table lock: slot, free or stream's own (a FILE that libc
 * closed behind our back and reused), takes stream on file's record, or
 * on <other files>' when the budget has no record for file (or it was
 * folded whole). */
static int bind_slot(struct iolens_stdio_stream *slot, int stale, FILE *stream,
                     struct iolens_file *file, int64_t pos, int append)
{
    if (stale)
        let_go(slot->rec); /* first: it may fold the record file would get */
    stdio_rec *r = record_of(file);
    if (r == NULL)
        r = iolens_stdio_overflow_slot.rec;
    if (r == NULL) {
        if (stale)
            iolens_stdio_slot_release(slot);
        return 0;
    }
    r->streams++;
    slot->rec = r;
    atomic_store_explicit(&slot->pos, pos, memory_order_relaxed);
    slot->append = append;
    iolens_stdio_marks_take(&slot->seen, stream);
    iolens_stdio_slot_publish(slot, stream);
    return 1;
}

/* Under the table lock, no table with room: stream counts in <other
 * files> through the overflow slot; NULL when its descriptor cannot be
 * marked. */
static struct iolens_stdio_stream *bind_overflow(FILE *stream, struct iolens_file *file)
{
    if (iolens_stdio_overflow_slot.rec == NULL || !iolens_stdio_overflow_bind(stream))
        return NULL;
    stdio_rec *r = record_if_any(file);
    if (r != NULL && r != iolens_stdio_overflow_slot.rec)
        note_lacking(r);
    return &iolens_stdio_overflow_slot;
}

/* Adds (or rebinds) a stream; returns its slot (the overflow slot when no
 * table has room), or NULL when nothing can count it (no record for
 * the file nor for <other files>, which start-up makes unless the budget
 * is tiny). */
static struct iolens_stdio_stream *track_stream(FILE *stream, struct iolens_file *file,
                                                int64_t pos, int append)
{
    int stale;
    iolens_stdio_streams_lock();
    struct iolens_stdio_stream *slot = iolens_stdio_slot_claim(stream, &stale);
    if (slot == NULL)
        slot = bind_overflow(stream, file);
    else if (!bind_slot(slot, stale, stream, file, pos, append))
        slot = NULL;
    iolens_stdio_streams_unlock();
    return slot;
}

/* Removes a stream; returns the record its close is charged to, or NULL. */
static stdio_rec *untrack_stream(FILE *stream)
{
    stdio_rec *r = NULL;
    iolens_stdio_streams_lock();
    struct iolens_stdio_stream *slot = iolens_stdio_find_slot(stream);
    if (slot == &iolens_stdio_overflow_slot) {
        r = slot->rec;
        iolens_stdio_overflow_unbind(stream);
    } else if (slot != NULL) {
        r = let_go(slot->rec);
        iolens_stdio_slot_release(slot);
    }
    iolens_stdio_streams_unlock();
    return r;
}

/* -------------------------------------------------------- opening -- */

static int is_append_mode(const char *mode)
{
    return mode != NULL && strchr(mode, 'a') != NULL;
}

static void count_open(stdio_rec *r, double t0, double t1)
{
    int held = lock_rec(r);
    r->disk.counters[STDIO_OPENS]++;
    iolens_note_first(&r->disk.fcounters[STDIO_F_OPEN_START_TIMESTAMP], t0);
    iolens_note_last(&r->disk.fcounters[STDIO_F_OPEN_END_TIMESTAMP], t1);
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
}

/* The stream is new to this thread only, so its slot's binding is read
 * after the table lock without a race. */
static void open_on_file(FILE *stream, struct iolens_file *file, int64_t pos, int append,
                         double t0, double t1)
{
    struct iolens_stdio_stream *slot = track_stream(stream, file, pos, append);
    if (slot == NULL)
        return;
    if (slot->rec->file != file)
        note_folded(file, 1); /* counted in <other files> */
    count_open(slot->rec, t0, t1);
}

void iolens_stdio_open(FILE *stream, const char *path, const char *mode, double t0, double t1)
{
    char abspath[PATH_MAX];
    long len = iolens_posix_resolve(AT_FDCWD, path, abspath, sizeof abspath);
    struct iolens_file *file = len >= 0 ? file_for_path(abspath, (size_t)len)
                                        : file_for_nameless(path, strlen(path));
    if (file == NULL) {
        untrack_stream(stream); /* forget a stale entry of the same FILE */
        return;
    }
    open_on_file(stream, file, 0, is_append_mode(mode), t0, t1);
}

/* The file a descriptor is on: the one the POSIX layer tracks it on (so
 * <STDOUT> stays <STDOUT>), else the name the kernel gives.  A descriptor
 * the POSIX layer counts in <other files> is on a file that may have a
 * STDIO record of its own (sort writes a temporary file through one
 * stream, then reads it through another, each fdopen'd): the name finds
 * it, or makes it, or folds the stream's file for STDIO too. */
static struct iolens_file *file_of_fd(int fd)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    if (ofd != NULL && ofd->file != NULL && ofd->file != iolens_file_other())
        return ofd->file;
    char abspath[PATH_MAX];
    long len = iolens_posix_fd_path(fd, abspath, sizeof abspath);
    if (len >= 0)
        return file_for_path(abspath, (size_t)len);
    /* A descriptor the POSIX layer folded for want of a name. */
    return ofd != NULL ? file_for_nameless(abspath, 0) : NULL;
}

void iolens_stdio_fdopen(FILE *stream, int fd, const char *mode, double t0, double t1)
{
    struct iolens_file *file = file_of_fd(fd);
    if (file == NULL) {
        untrack_stream(stream);
        return;
    }
    off_t (*real_lseek)(int, off_t, int) = IOLENS_REAL(lseek);
    off_t pos = real_lseek != NULL ? real_lseek(fd, 0, SEEK_CUR) : -1;
    open_on_file(stream, file, pos > 0 ? pos : 0, is_append_mode(mode), t0, t1);
}

void iolens_stdio_tmpfile(FILE *stream, double t0, double t1)
{
    int (*real_fileno)(FILE *) = IOLENS_REAL(fileno);
    char path[PATH_MAX];
    long len = real_fileno != NULL ? iolens_posix_fd_path(real_fileno(stream), path, sizeof path)
                                   : -1;
    char *slash = len > 0 ? strrchr(path, '/') : NULL;
    if (slash == NULL)
        return;
    len = slash == path ? 1 : slash - path; /* the directory: "/tmp/#1234 (deleted)" */
    path[len] = '\0';
    struct iolens_file *file = file_for_path(path, (size_t)len);
    if (file != NULL)
        open_on_file(stream, file, 0, 0, t0, t1);
}

void iolens_stdio_reopen(stdio_rec *old_rec, FILE *ret, const char *path, const char *mode,
                         double t0, double t1)
{
    iolens_stdio_close_end(old_rec, t0, t1);
    if (ret == NULL)
        return;
    if (path != NULL)
        iolens_stdio_open(ret, path, mode, t0, t1);
    else if (old_rec != NULL)
        open_on_file(ret, old_rec->file, 0, is_append_mode(mode), t0, t1);
}

stdio_rec *iolens_stdio_close_begin(FILE *stream)
{
    iolens_stdio_catch_up_file(stream); /* before fclose flushes the buffer */
    int (*real_fileno)(FILE *) = IOLENS_REAL(fileno);
    int fd = real_fileno != NULL && stream != NULL ? real_fileno(stream) : -1;
    if (fd >= 0)
        iolens_fd_close(fd);
    return untrack_stream(stream);
}

void iolens_stdio_close_end(stdio_rec *r, double t0, double t1)
{
    if (r == NULL)
        return;
    int held = lock_rec(r);
    iolens_note_first(&r->disk.fcounters[STDIO_F_CLOSE_START_TIMESTAMP], t0);
    iolens_note_last(&r->disk.fcounters[STDIO_F_CLOSE_END_TIMESTAMP], t1);
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
}

/* ---------------------------------------------------- read, write -- */

struct rw_ids {
    int ops, bytes, max_byte, f_start, f_end, f_time;
};

static const struct rw_ids read_ids = {
    STDIO_READS, STDIO_BYTES_READ, STDIO_MAX_BYTE_READ,
    STDIO_F_READ_START_TIMESTAMP, STDIO_F_READ_END_TIMESTAMP, STDIO_F_READ_TIME,
};

static const struct rw_ids write_ids = {
    STDIO_WRITES, STDIO_BYTES_WRITTEN, STDIO_MAX_BYTE_WRITTEN,
    STDIO_F_WRITE_START_TIMESTAMP, STDIO_F_WRITE_END_TIMESTAMP, STDIO_F_WRITE_TIME,
};

/* Where an append-mode write landed: the true position after it, else
 * -1.  ftello may make a system call, so it is asked before the record
 * lock is taken; errno is kept, as the read/write path promises. */
static __attribute__((noinline)) int64_t append_position(FILE *stream)
{
    off_t (*real_ftello)(FILE *) = IOLENS_REAL(ftello);
    if (real_ftello == NULL)
        return -1;
    int saved = errno;
    int64_t pos = real_ftello(stream);
    errno = saved;
    return pos;
}

/* Under the record lock: where the access started; advances the tracked
 * position.  Positions change only under the lock of the stream's record,
 * so a plain load and store suffice. */
static inline int64_t access_start(struct iolens_stdio_stream *slot, int64_t bytes,
                                   int64_t append_pos)
{
    int64_t start = append_pos >= bytes ? append_pos - bytes
                                        : atomic_load_explicit(&slot->pos, memory_order_relaxed);
    atomic_store_explicit(&slot->pos, start + bytes, memory_order_relaxed);
    return start;
}

/* The counters of one access, under the record's lock (or in a process
 * with one thread), the call site apart.  append_pos: where an
 * append-mode write landed (append_position), or -1. */
static inline __attribute__((always_inline)) void
count_counters(stdio_rec *r, struct iolens_stdio_stream *slot, int64_t bytes, double t0,
               double t1, const struct rw_ids *k, int64_t append_pos)
{
    int64_t *c = r->disk.counters;
    double *f = r->disk.fcounters;
    int64_t start = access_start(slot, bytes, append_pos);
    c[k->ops]++;
    c[k->bytes] += bytes;
    if (bytes > 0 && start + bytes - 1 > c[k->max_byte])
        c[k->max_byte] = start + bytes - 1;
    iolens_note_first(&f[k->f_start], t0);
    /* F_*_END_TIMESTAMP is also where non-overlapping time resumes (see
     * the POSIX layer's count_timing). */
    f[k->f_time] = iolens_time_add_nonoverlap(f[k->f_time], &f[k->f_end], t0, t1);
}

/* Inlined into the entry points below, so that k->... are constants. */
static inline __attribute__((always_inline)) void
count_access(struct iolens_stdio_stream *slot, int64_t bytes, double t0, double t1,
             const struct rw_ids *k, int64_t append_pos, uintptr_t site)
{
    stdio_rec *r = slot->rec;
    int held = lock_rec(r);
    iolens_sites_count(&r->sites, site, bytes, t1 - t0);
    count_counters(r, slot, bytes, t0, t1, k, append_pos);
    unlock_rec(r, held);
}

/* A write to a stream opened in an "a" mode (out of line: it asks ftello). */
static __attribute__((noinline)) void count_append_write(struct iolens_stdio_stream *slot,
                                                         FILE *stream, int64_t bytes,
                                                         double t0, double t1, uintptr_t site)
{
    count_access(slot, bytes, t0, t1, &write_ids, append_position(stream), site);
}


/* ------------------------------------------------ buffer accounting -- */

/* Bytes inline code moved through the buffer: bytes and the furthest
 * byte, at the tracked position, which they advance.  Not a call: the
 * call counts, timestamps and times stay as they are, and no access
 * interval is added (no call made, so no time to place it at). */
static void count_buffered(struct iolens_stdio_stream *slot, int64_t bytes,
                           const struct rw_ids *k)
{
    stdio_rec *r = slot->rec;
    int64_t *c = r->disk.counters;
    int held = lock_rec(r);
    int64_t start = access_start(slot, bytes, -1);
    c[k->bytes] += bytes;
    if (start + bytes - 1 > c[k->max_byte])
        c[k->max_byte] = start + bytes - 1;
    unlock_rec(r, held);
}

/* Out of line: on the hot path the pointers have usually not moved. */
static __attribute__((noinline)) void catch_up_moved(struct iolens_stdio_stream *s,
                                                     FILE *stream)
{
    struct iolens_stdio_marks now;
    iolens_stdio_marks_take(&now, stream);
    int64_t read = iolens_stdio_marks_read_since(&s->seen, &now);
    int64_t written = iolens_stdio_marks_written_since(&s->seen, &now);
    s->seen = now;
    if (read > 0)
        count_buffered(s, read, &read_ids);
    if (written > 0)
        count_buffered(s, written, &write_ids);
}

/* Counting needs a process with one thread.  With several, another
 * thread's call could move the pointers between the end of its real call
 * and its resync, and a catch-up in that window would count its bytes
 * twice (or a resync skip inline bytes); holding the stream's lock across
 * the real call would close the window but leave the stream locked for
 * ever when a thread is cancelled inside that call.  So from the first
 * pthread_create on (glibc never goes back to one thread) the pointers
 * are only noted, and inline bytes are not counted, as before buffer
 * accounting: a miss, never a byte counted twice. */
static inline int accounting_on(void)
{
#ifdef IOLENS_HAVE_LIBC_SINGLE_THREADED
    return __libc_single_threaded;
#else
    return 0;
#endif
}

static inline void catch_up(struct iolens_stdio_stream *s, FILE *stream)
{
    if (__builtin_expect(s == &iolens_stdio_overflow_slot, 0) || !accounting_on())
        return;
    if (!iolens_stdio_marks_unmoved(&s->seen, stream))
        catch_up_moved(s, stream);
}

void iolens_stdio_catch_up(struct iolens_stdio_stream *s, FILE *stream)
{
    catch_up(s, stream);
}

/* begin's way when the pointers moved (out of line).  The guard covers
 * the catch-up, which may take the record's lock: a signal handler's I/O
 * meanwhile passes untraced. */
static __attribute__((noinline)) struct iolens_stdio_stream *
begin_moved(struct iolens_stdio_stream *s, FILE *stream)
{
    iolens_guard_on();
    catch_up_moved(s, stream);
    iolens_guard_off();
    return s;
}

/* The lookup and the catch-up in one call.  The usual way, a tracked
 * stream whose pointers did not move, calls nothing and needs no guard
 * (it only reads the table and the stream's pointers, which a signal
 * handler's traced I/O would leave consistent); the others are calls in
 * tail position (nothing is caught up on the overflow slot). */
struct iolens_stdio_stream *iolens_stdio_begin(FILE *stream)
{
    if (__builtin_expect(iolens_stdio_tables_first == NULL || stream == NULL, 0))
        return NULL;
    struct iolens_stdio_stream *s = iolens_stdio_find_in(iolens_stdio_tables_first, stream);
    if (s == NULL && ((s = iolens_stdio_find_untabled(stream)) == NULL ||
                      s == &iolens_stdio_overflow_slot))
        return s;
    if (accounting_on() && !iolens_stdio_marks_unmoved(&s->seen, stream))
        return begin_moved(s, stream);
    return s;
}

/* With several threads the marks are not noted either: nothing counts
 * from them then (accounting_on), and two threads' calls on one stream
 * would write the slot's marks at once, a data race.  A forked child,
 * which has one thread again, notes every stream's afresh (layer_reset). */
void iolens_stdio_resync(struct iolens_stdio_stream *s, FILE *stream)
{
    if (__builtin_expect(s != &iolens_stdio_overflow_slot, 1) && accounting_on())
        iolens_stdio_marks_take(&s->seen, stream);
}

void iolens_stdio_catch_up_file(FILE *stream)
{
    struct iolens_stdio_stream *s = iolens_stdio_find_slot(stream);
    if (s != NULL)
        iolens_stdio_catch_up(s, stream);
}

void iolens_stdio_resync_file(FILE *stream)
{
    struct iolens_stdio_stream *s = iolens_stdio_find_slot(stream);
    if (s != NULL)
        iolens_stdio_resync(s, stream);
}

static void catch_up_slot(struct iolens_stdio_stream *slot, FILE *stream, void *arg)
{
    (void)arg;
    iolens_stdio_catch_up(slot, stream);
}

static void resync_slot(struct iolens_stdio_stream *slot, FILE *stream, void *arg)
{
    (void)arg;
    iolens_stdio_resync(slot, stream);
}

void iolens_stdio_catch_up_all(void)
{
    iolens_stdio_streams_foreach(catch_up_slot, NULL);
}

void iolens_stdio_resync_all(void)
{
    iolens_stdio_streams_foreach(resync_slot, NULL);
}

/* Every read or write the fast path below leaves.  The access interval
 * (layer_intervals.h) goes in last, after the record lock is released. */
static __attribute__((noinline)) void read_stream_general(struct iolens_stdio_stream *s,
                                                          FILE *stream, int64_t bytes,
                                                          double t0, double t1, uintptr_t site)
{
    iolens_stdio_resync(s, stream);
    count_access(s, bytes, t0, t1, &read_ids, -1, site);
    iolens_intervals_add(IOLENS_LAYER_STDIO, t0, t1, s->rec->disk.id, bytes, IOLENS_IV_READ);
}

static __attribute__((noinline)) void write_stream_general(struct iolens_stdio_stream *s,
                                                           FILE *stream, int64_t bytes,
                                                           double t0, double t1, uintptr_t site)
{
    iolens_stdio_resync(s, stream);
    if (__builtin_expect(s->append, 0))
        count_append_write(s, stream, bytes, t0, t1, site);
    else
        count_access(s, bytes, t0, t1, &write_ids, -1, site);
    iolens_intervals_add(IOLENS_LAYER_STDIO, t0, t1, s->rec->disk.id, bytes, IOLENS_IV_WRITE);
}

/* The fast path: an access in a process with one thread (no lock), on a
 * stream of its own slot, neither appending (ftello) nor from a site the
 * record's first slot does not take (a call).  Returns NULL, having
 * changed nothing, for any other; else counts it as the general path
 * would and returns the record (whose id the access interval takes).
 * No call on the way: the entry points stay functions that save no
 * registers, every other way out a call in tail position. */
static inline __attribute__((always_inline)) stdio_rec *
count_alone(struct iolens_stdio_stream *s, FILE *stream, int64_t bytes, double t0, double t1,
            const struct rw_ids *k, uintptr_t site)
{
    if (!iolens_single_threaded() || s == &iolens_stdio_overflow_slot ||
        (k == &write_ids && s->append))
        return NULL;
    stdio_rec *r = s->rec;
    if (!iolens_sites_count_inline(&r->sites, site, bytes, t1 - t0))
        return NULL;
    iolens_stdio_marks_take(&s->seen, stream);
    count_counters(r, s, bytes, t0, t1, k, -1);
    return r;
}

/* The fast path inline, every other way out a call in tail position (as
 * the POSIX layer's count_io).  Inlined into the two entry points below,
 * so that k, general and the flag are constants there. */
static inline __attribute__((always_inline)) void
count_stream(struct iolens_stdio_stream *s, FILE *stream, int64_t bytes, double t0, double t1,
             uintptr_t site, const struct rw_ids *k,
             void (*general)(struct iolens_stdio_stream *, FILE *, int64_t, double, double,
                             uintptr_t),
             uint32_t iv_flag)
{
    stdio_rec *r = count_alone(s, stream, bytes, t0, t1, k, site);
    if (r == NULL) {
        general(s, stream, bytes, t0, t1, site);
        return;
    }
    iolens_intervals_add_alone(IOLENS_LAYER_STDIO, t0, t1, r->disk.id, bytes, iv_flag);
}

void iolens_stdio_read_stream(struct iolens_stdio_stream *s, FILE *stream, int64_t bytes,
                              double t0, double t1, uintptr_t site)
{
    count_stream(s, stream, bytes, t0, t1, site, &read_ids, read_stream_general,
                 IOLENS_IV_READ);
}

void iolens_stdio_write_stream(struct iolens_stdio_stream *s, FILE *stream, int64_t bytes,
                               double t0, double t1, uintptr_t site)
{
    count_stream(s, stream, bytes, t0, t1, site, &write_ids, write_stream_general,
                 IOLENS_IV_WRITE);
}

void iolens_stdio_failed_access(struct iolens_stdio_stream *s, int64_t requested, int is_write,
                                double t0, double t1)
{
    uint32_t flags = IOLENS_IV_FAILED | (is_write ? IOLENS_IV_WRITE : IOLENS_IV_READ);
    iolens_intervals_add(IOLENS_LAYER_STDIO, t0, t1, s->rec->disk.id, requested, flags);
}

void iolens_stdio_read(FILE *stream, int64_t bytes, double t0, double t1)
{
    struct iolens_stdio_stream *s = iolens_stdio_find_slot(stream);
    uintptr_t site = iolens_site_take();
    if (s != NULL)
        read_stream_general(s, stream, bytes, t0, t1, site);
}

void iolens_stdio_write(FILE *stream, int64_t bytes, double t0, double t1)
{
    struct iolens_stdio_stream *s = iolens_stdio_find_slot(stream);
    uintptr_t site = iolens_site_take();
    if (s != NULL)
        write_stream_general(s, stream, bytes, t0, t1, site);
}

/* ------------------------------------------------ seek, tell, flush -- */

void iolens_stdio_unget(struct iolens_stdio_stream *s, FILE *stream)
{
    iolens_stdio_resync(s, stream);
    int held = lock_rec(s->rec);
    int64_t pos = atomic_load_explicit(&s->pos, memory_order_relaxed);
    if (pos > 0)
        atomic_store_explicit(&s->pos, pos - 1, memory_order_relaxed);
    unlock_rec(s->rec, held);
}

void iolens_stdio_seek(FILE *stream, int64_t new_offset, double t0, double t1)
{
    struct iolens_stdio_stream *slot = iolens_stdio_find_slot(stream);
    if (slot == NULL)
        return;
    stdio_rec *r = slot->rec;
    int held = lock_rec(r);
    if (new_offset >= 0)
        atomic_store_explicit(&slot->pos, new_offset, memory_order_relaxed);
    r->disk.counters[STDIO_SEEKS]++;
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
}

void iolens_stdio_tell(FILE *stream, int64_t offset)
{
    struct iolens_stdio_stream *slot = iolens_stdio_find_slot(stream);
    if (slot == NULL || offset < 0)
        return;
    int held = lock_rec(slot->rec);
    atomic_store_explicit(&slot->pos, offset, memory_order_relaxed);
    unlock_rec(slot->rec, held);
}

void iolens_stdio_flush(FILE *stream, double t0, double t1)
{
    struct iolens_stdio_stream *slot = iolens_stdio_find_slot(stream);
    if (slot == NULL)
        return;
    stdio_rec *r = slot->rec;
    int held = lock_rec(r);
    r->disk.counters[STDIO_FLUSHES]++;
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
}

void iolens_stdio_fileno(FILE *stream, int fd)
{
    if (iolens_layers_off & (1u << IOLENS_LAYER_POSIX))
        return; /* nobody would count what the descriptor does */
    struct iolens_stdio_stream *slot = iolens_stdio_find_slot(stream);
    if (slot != NULL && fd >= 0)
        iolens_posix_adopt_fd(fd, slot->rec->file);
}

int iolens_stdio_is_traced(FILE *stream)
{
    return iolens_stdio_find_slot(stream) != NULL;
}

/* -------------------------------------------------------- start-up -- */

static void bind_std_stream(FILE *stream, int fd)
{
    struct iolens_file *file = iolens_file_std(fd);
    if (stream != NULL && file != NULL)
        track_stream(stream, file, 0, 0);
}

static void layer_init(void)
{
    if (!iolens_stdio_streams_init())
        return; /* no stream is tracked; the layer stays silent */
    /* Made now so that folding never needs memory; streams no table
     * holds count into it too (stdio_streams.h). */
    struct iolens_file *other = iolens_file_other();
    iolens_stdio_overflow_slot.rec = other != NULL ? record_of(other) : NULL;
    bind_std_stream(stdin, 0);
    bind_std_stream(stdout, 1);
    bind_std_stream(stderr, 2);
}

/* ------------------------------------------------ the layer's entry -- */

static int has_activity(const struct iolens_stdio_record *d)
{
    static const int ops[] = {
        STDIO_OPENS,   STDIO_READS,      STDIO_WRITES,        STDIO_SEEKS,
        STDIO_FLUSHES, STDIO_BYTES_READ, STDIO_BYTES_WRITTEN,
    };
    return iolens_counters_any(d->counters, ops, sizeof ops / sizeof ops[0]);
}

static int pack(void *rec, void *record)
{
    stdio_rec *r = rec;
    struct iolens_stdio_record *out = record;
    int held = lock_rec(r);
    *out = r->disk;
    unlock_rec(r, held);
    return has_activity(out);
}

static void clear_record(void *rec, struct iolens_file *file)
{
    (void)file;
    clear_counters(rec);
    iolens_sites_clear(&((stdio_rec *)rec)->sites);
}

static void release_layer_locks(void)
{
    iolens_stdio_streams_unlock();
}

/* What the buffers held at the fork the parent put there and counts
 * itself (at its next look): the child starts from here. */
static void layer_reset(void)
{
    iolens_stdio_resync_all();
}

/* Bytes inline code left in the buffers since the last call are counted
 * first (exit packs the records before libc's final flush). */
static void before_pack(void)
{
    iolens_stdio_catch_up_all();
    fold_lacking();
}

_Static_assert(sizeof(struct iolens_stdio_record) <= IOLENS_LAYER_RECORD_MAX, "record size");

IOLENS_LAYER_OPS(stdio_ops) = {
    .layer = IOLENS_LAYER_STDIO,
    .region_kind = IOLENS_REGION_STDIO,
    .empty_region = IOLENS_EMPTY_IN_PROCESS_LOG | IOLENS_EMPTY_IN_JOB_LOG,
    .lock_offset = offsetof(stdio_rec, lock),
    .disk_offset = offsetof(stdio_rec, disk),
    .sites_offset = offsetof(stdio_rec, sites),
    .init = layer_init,
    .release_locks = release_layer_locks,
    .reset = layer_reset,
    .before_pack = before_pack,
    .pack = pack,
    .clear_record = clear_record,
};
