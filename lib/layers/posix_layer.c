/* POSIX layer bookkeeping: turns the facts the wrappers report into the
 * counters of IOLENS_POSIX_COUNTERS (log_format.h).
 *
 * Each file has one layer record (struct iolens_posix_rec) allocated from
 * the budget on the file's first traced open, stat, unlink or rename.  A
 * record has its own tiny spinlock, so threads working on different files
 * never meet and there is no global lock on the read/write path.  The
 * per-descriptor state (offset, previous access) is in the descriptor
 * table (fd_table.h); it is only touched under the lock of the record the
 * descriptor points to.
 *
 * A record no descriptor holds may be parked when the layer needs room
 * (park_pool.h): then a file at rest costs its packed form, and the next
 * open, stat, unlink or rename of it unparks it.
 *
 * When the budget cannot hold a new file (or its record), the file is
 * folded into <other files>: its counts go to that record, so totals stay
 * exact, and the job header learns about it (iolens_file_note_folded).
 * So is a descriptor the budget cannot hold state for: it is bound to the
 * overflow ofd of <other files> (fd_table.h), never left untraced. */
#include "layers/posix_layer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layers/access_pattern.h"
#include "layers/access_stats.h"
#include "core/budget.h"
#include "core/call_site.h"
#include "core/clock.h"
#include "core/fd_table.h"
#include "core/file_table.h"
#include "iolens/log_format.h"
#include "layers/layer_intervals.h"
#include "layers/aio_requests.h"
#include "layers/layer_ops.h"
#include "layers/park_pool.h"
#include "core/pathname.h"
#include "core/real_calls.h"
#include "format/record_merge.h"
#include "core/state.h"
#include "core/spinlock.h"

enum last_io { IO_NONE, IO_READ, IO_WRITE };

/*
 * The counters a record keeps while the program runs.  Its in-memory form
 * is compact: of the on-disk record (struct iolens_posix_record) it keeps
 * only what the calls count.  The counters before POSIX_STRIDE_TOP_STATE
 * keep their on-disk index; the sizes of the slowest read and write
 * follow them.  The rest is made when the record is packed: the top
 * tables from sizes and strides, the pattern counters from pat, and the
 * sharing counters and fcounters by the log writer
 * (iolens_record_fill_own_sharing).  So the log is what it was, and the
 * record is 304 bytes smaller than the on-disk one plus its trackers.
 */
enum {
    KEPT_AT_OWN_INDEX = POSIX_STRIDE_TOP_STATE,
    KEPT_MAX_READ_TIME_SIZE = KEPT_AT_OWN_INDEX,
    KEPT_MAX_WRITE_TIME_SIZE,
    NKEPT_COUNTERS
};
/* The fcounters kept: all but the sharing ones, at their own index. */
enum { NKEPT_FCOUNTERS = POSIX_F_FASTEST_RANK_TIME };

/* The layout pack relies on: the counters not kept are the top tables,
 * the sharing counters and the pattern counters, in that order. */
_Static_assert(POSIX_MAX_READ_TIME_SIZE == POSIX_ACCESS4_COUNT + 1 &&
                   POSIX_MAX_WRITE_TIME_SIZE == POSIX_MAX_READ_TIME_SIZE + 1 &&
                   POSIX_RANKS_OPENED == POSIX_MAX_WRITE_TIME_SIZE + 1 &&
                   POSIX_PAT_STEPS == POSIX_SLOWEST_RANK_BYTES + 1 &&
                   POSIX_NUM_COUNTERS == POSIX_PAT_STEPS + IOLENS_PAT_NCOUNTERS,
               "POSIX counters not kept in memory: top tables, sharing, pattern");
_Static_assert(POSIX_F_NUM_COUNTERS == POSIX_F_VARIANCE_RANK_BYTES + 1 &&
                   NKEPT_FCOUNTERS == POSIX_F_MAX_WRITE_TIME + 1,
               "POSIX fcounters not kept in memory: the sharing ones, last");

/*
 * The repeat run: most programs issue the same access over and over (the
 * same size, each starting the same step after the previous one on the
 * same descriptor: in place, back to back, or strided).  Once such an
 * access was counted in full, every counter a repeat of it changes,
 * changes by the same amount (the Darshan and pattern order counters, the
 * size bin, the alignment counters, the common size, stride and step), so
 * a repeat only counts itself in n, and the counters get n times those
 * amounts when the run is applied: before any other access of the record
 * is counted in full, and before the record is packed.  What differs
 * from call to call (the positions, the maximum byte, the times) is kept
 * per call.  Under the record lock like the counters, so counts stay
 * exact under threads.
 */
struct repeat_run {
    const struct iolens_ofd *ofd; /* the descriptor's; NULL: no run.  Only
                                   * compared, never followed: it may have
                                   * been closed (a recycled ofd starts
                                   * with last_start -1, which no run takes) */
    uint32_t size;                /* bytes of each access */
    uint32_t n;                   /* repeats not yet in the counters */
};

struct iolens_posix_rec {
    _Atomic int lock;
    uint8_t last_io;          /* enum last_io, for POSIX_RW_SWITCHES; the
                               * kind of the run's accesses while there is one */
    uint8_t run_misaligned;   /* the run's accesses: bit 0 memory, bit 1 file
                               * not aligned */
    int8_t mem_align_shift;   /* align_shift of POSIX_MEM_ALIGNMENT */
    int8_t file_align_shift;  /* ... and of POSIX_FILE_ALIGNMENT */
    /* Runtime-only state, not written to the log as such; next to the
     * lock, so that a read or write touches as few cache lines as it can. */
    double last_meta_end;     /* end of the last metadata call: non-overlapping
                               * time (reads and writes use their
                               * F_*_END_TIMESTAMP, which is the same value) */
    /* Darshan's rules for CONSEC, SEQ and STRIDE compare a read with the
     * previous read of the file and a write with the previous write (by
     * any descriptor): the last byte of each, 0 before the first and
     * again after each open, as in Darshan.  Indexed by last_io - 1. */
    int64_t last_byte[2];
    uint64_t id;              /* the file's, for its access intervals (and
                               * a free record's link: park_pool.h) */
    uint32_t holds;           /* descriptors' ofds on the record, and a
                               * close in progress: while any, it stays live */
    uint32_t lacks_calls;     /* a descriptor of the file got no state while
                               * another held the record: its calls went to
                               * <other files>, and the record follows them
                               * whole once idle (iolens_pool_fold_idle) */
    struct iolens_site_ref sites;      /* call sites (core/call_site.h) */
    struct repeat_run run;
    int64_t counters[NKEPT_COUNTERS];     /* see KEPT_* above */
    double fcounters[NKEPT_FCOUNTERS];
    struct iolens_common_values sizes;
    struct iolens_common_values strides;
    struct iolens_access_pattern pat;   /* the <POSIX>_PAT_* detector */
};

typedef struct iolens_posix_rec posix_rec;

static void end_run(posix_rec *r); /* in "read, write" below */

/*
 * The record lock, a test-and-test-and-set spinlock held for a few dozen
 * instructions.  While the process has a single thread (glibc's
 * __libc_single_threaded, which only pthread_create clears) nothing can
 * contend for it, and a signal handler's I/O in the middle of the
 * bookkeeping passes through untraced (iolens_in_runtime), so the atomic
 * exchange, the costliest single step of a traced read or write, is
 * skipped.  lock_rec returns whether it took the lock; unlock_rec gets
 * that answer back, so the pair stays matched even if the flag changed in
 * between.
 */
static inline int lock_rec(posix_rec *r)
{
    return iolens_lock(&r->lock);
}

static inline void unlock_rec(posix_rec *r, int held)
{
    iolens_unlock(&r->lock, held);
}

/* ------------------------------------------------------- records -- */

static int64_t configured_mem_alignment(void)
{
    const struct iolens_config *cfg = iolens_runtime_config();
    return cfg != NULL ? cfg->mem_alignment : 8;
}

/* Sets every counter to its "nothing happened" value; the alignments are
 * properties of the file and the run, so they are set here too. */
static const struct iolens_layer_ops posix_ops;

/* An alignment as the record keeps it, in a byte beside the lock (where
 * the run's 16 bytes are paid for): log2 of a power of two, 0 when the
 * alignment is <= 0 (never counts: iolens_align_mask's mask of 0), -1 for
 * any other value (the division, iolens_is_misaligned_masked). */
static int8_t align_shift(int64_t alignment)
{
    int64_t mask = iolens_align_mask(alignment);
    return mask < 0 ? -1 : (int8_t)__builtin_popcountll((uint64_t)mask);
}

/* 2^shift - 1 for each shift align_shift gives a power of two (0..62):
 * looked up rather than built by a shift by a variable count, which on
 * x86_64 must sit in %cl and so cost the read/write path a register.
 * Filled when the layer starts (pool_init), before any record exists. */
static uint64_t pow2_mask[63];

static void fill_pow2_masks(void)
{
    for (unsigned k = 0; k < sizeof pow2_mask / sizeof pow2_mask[0]; k++)
        pow2_mask[k] = (UINT64_C(1) << k) - 1;
}

/* iolens_is_misaligned_masked with the alignment as align_shift keeps it
 * (is_misaligned_pow2: shift >= 0). */
static inline unsigned is_misaligned_pow2(uint64_t value, int8_t shift)
{
    return (value & pow2_mask[shift]) != 0;
}

static inline unsigned is_misaligned_shift(uint64_t value, int8_t shift, int64_t alignment)
{
    if (__builtin_expect(shift >= 0, 1))
        return is_misaligned_pow2(value, shift);
    return (unsigned)iolens_is_misaligned_masked(value, -1, alignment);
}

static void clear_counters(posix_rec *r, const struct iolens_file *file)
{
    memset(r->counters, 0, sizeof r->counters);
    memset(r->fcounters, 0, sizeof r->fcounters);
    r->counters[POSIX_MEM_ALIGNMENT] = configured_mem_alignment();
    r->counters[POSIX_FILE_ALIGNMENT] = file->fs_block_size > 0 ? file->fs_block_size : 0;
    r->mem_align_shift = align_shift(r->counters[POSIX_MEM_ALIGNMENT]);
    r->file_align_shift = align_shift(r->counters[POSIX_FILE_ALIGNMENT]);
    r->last_meta_end = 0.0;
    r->last_io = IO_NONE;
    r->last_byte[0] = r->last_byte[1] = 0;
    memset(&r->sizes, 0, sizeof r->sizes);
    memset(&r->strides, 0, sizeof r->strides);
    memset(&r->pat, 0, sizeof r->pat);
    memset(&r->run, 0, sizeof r->run);
    r->run_misaligned = 0;
    r->lacks_calls = 0;
}

/* A new record (not iolens_layer_record_init: the record holds no
 * on-disk struct, only the file's id in front of its compact counters). */
static void init_rec(void *rec, struct iolens_file *file)
{
    posix_rec *r = rec;
    r->id = file->id;
    clear_counters(r, file);
}

static int is_reserved(const struct iolens_file *file)
{
    return file == iolens_file_other() || file == iolens_file_std(0) ||
           file == iolens_file_std(1) || file == iolens_file_std(2);
}

static int pack(void *rec, void *record);

static struct iolens_park_pool pool = {
    .layer = IOLENS_LAYER_POSIX,
    .rec_size = sizeof(posix_rec),
    .lock_offset = offsetof(posix_rec, lock),
    .holds_offset = offsetof(posix_rec, holds),
    .link_offset = offsetof(posix_rec, id),
    .fill = init_rec,
    .never_park = is_reserved,
    .region_kind = IOLENS_REGION_POSIX,
    .sites_offset = offsetof(posix_rec, sites),
    .pack = pack,
};
_Static_assert(sizeof(posix_rec) % 8 == 0 && sizeof(posix_rec) / 8 <= IOLENS_PARK_MAX_WORDS,
               "a POSIX record parks as words");

static size_t pool_cap_for_test; /* 0: the pool's default */

void iolens_posix_set_live_cap_for_test(size_t cap)
{
    pool_cap_for_test = cap;
}

void iolens_posix_pool_stats(struct iolens_pool_stats *out)
{
    iolens_pool_stats(&pool, out);
}

static uint64_t pool_demand(uint64_t budget);

/* Sets the pool up: its doubles (times) are packed as they are, and its
 * records' part of "memory needed" is its demand function. */
static void pool_init(void)
{
    fill_pow2_masks();
    iolens_pool_init(&pool, pool_cap_for_test);
    iolens_park_mark_raw(&pool.codec, offsetof(posix_rec, last_meta_end), sizeof(double));
    iolens_park_mark_raw(&pool.codec, offsetof(posix_rec, fcounters),
                         sizeof(((posix_rec *)0)->fcounters));
    iolens_park_mark_raw(&pool.codec, offsetof(posix_rec, sites.first.time), sizeof(double));
    iolens_file_note_record_size(IOLENS_LAYER_POSIX, sizeof(posix_rec));
    iolens_budget_add_demand(pool_demand);
}

/* file's record, live and locked (NULL: no room for it).  Inline for a
 * live one, the usual case; the pool unparks or makes one. */
static inline posix_rec *lock_live(struct iolens_file *file, int *held)
{
    _Atomic(void *) *slot = &file->layer_rec[IOLENS_LAYER_POSIX];
    posix_rec *r = atomic_load_explicit(slot, memory_order_acquire);
    if (iolens_slot_is_live(r)) {
        *held = lock_rec(r);
        if (atomic_load_explicit(slot, memory_order_acquire) == r)
            return r;
        unlock_rec(r, *held); /* parked meanwhile */
    }
    return iolens_pool_lock_live(&pool, file, held);
}

/* A hold keeps a record live (park_pool.h): one for each ofd on it, and
 * one for a close in progress.  Under the record's lock. */
static inline void hold(posix_rec *r)
{
    r->holds++;
}

static inline void let_go(posix_rec *r)
{
    r->holds--;
}

/* The file whose record has id (a linear walk: only for a record that
 * lacks calls, at its last close). */
static struct iolens_file *file_of_id(uint64_t id)
{
    size_t cursor = 0;
    struct iolens_file *file;
    while ((file = iolens_file_next(&cursor)) != NULL)
        if (file->id == id)
            return file;
    return NULL;
}

static _Atomic int lacking_any; /* some record has lacks_calls set */

/* r lacks the calls of a descriptor of its file that counts into <other
 * files>: it follows them whole once idle (let_go_unlock_then_fold_lacking),
 * or when the log is written (fold_held_lacking). */
static void mark_lacking(posix_rec *r)
{
    int held = lock_rec(r);
    r->lacks_calls = 1;
    unlock_rec(r, held);
    atomic_store_explicit(&lacking_any, 1, memory_order_relaxed);
}

static posix_rec *reserved_record(struct iolens_file *file);

struct moved_holds {
    posix_rec *from, *to;
    struct iolens_file *to_file;
};

/* A descriptor on a record folded whole goes to <other files> with its
 * hold, so that what it does after the log (a failed exec, whose log is
 * thrown away) still counts where the record's counts went. */
static void move_ofd(struct iolens_ofd *ofd, void *arg)
{
    struct moved_holds *m = arg;
    if (ofd->rec != m->from)
        return;
    ofd->file = m->to_file;
    ofd->rec = m->to;
    int held = lock_rec(m->from);
    let_go(m->from);
    unlock_rec(m->from, held);
    held = lock_rec(m->to);
    hold(m->to);
    unlock_rec(m->to, held);
}

static void fold_if_lacking(struct iolens_file *file, void *arg)
{
    (void)arg;
    posix_rec *r = atomic_load_explicit(&file->layer_rec[IOLENS_LAYER_POSIX], memory_order_acquire);
    if (!iolens_slot_is_live(r))
        return;
    int held = lock_rec(r);
    int lacks = r->lacks_calls;
    unlock_rec(r, held);
    struct iolens_file *other = iolens_file_other();
    if (!lacks || other == NULL || !iolens_pool_fold_held(&pool, file))
        return;
    struct moved_holds m = {r, reserved_record(other), other};
    if (m.to != NULL)
        iolens_fd_foreach_ofd(move_ofd, &m);
}

/* Before the log is written: a record that lacks calls and that a
 * descriptor still open holds goes to <other files> whole too, so that
 * no row in the log is short of a descriptor's calls. */
static void fold_held_lacking(void)
{
    if (atomic_exchange_explicit(&lacking_any, 0, memory_order_relaxed))
        iolens_file_foreach(fold_if_lacking, NULL);
}

/* Lets go of a hold on r, locked (held), and unlocks it; a record that
 * lacks calls (lacks_calls) and is now idle goes to <other files> whole.
 * file: r's, or NULL when the caller does not know it. */
static void let_go_unlock_then_fold_lacking(posix_rec *r, int held, struct iolens_file *file)
{
    let_go(r);
    int fold = r->lacks_calls && r->holds == 0;
    uint64_t id = r->id;
    unlock_rec(r, held);
    if (fold && (file != NULL || (file = file_of_id(id)) != NULL))
        iolens_pool_fold_idle(&pool, file);
}

/* The same, taking r's lock first. */
static void let_go_then_fold_lacking(posix_rec *r, struct iolens_file *file)
{
    let_go_unlock_then_fold_lacking(r, lock_rec(r), file);
}

size_t iolens_posix_record_size(void)
{
    return sizeof(posix_rec);
}

static int path_is_traced(const char *abspath)
{
    const struct iolens_config *cfg = iolens_runtime_config();
    return cfg == NULL || iolens_config_traces_path(cfg, abspath);
}

/* The file and record a path's counters go to, locked (*held): its own,
 * or <other files> when the budget holds neither; NULL when the path is
 * not traced.  Every
 * folded path is noted for the job header's folded files; only opens
 * count as folded opens.
 *
 * A path already in the record table was found traced when it was added
 * (every layer checks before adding one, and the rules do not change
 * while the program runs), so the include/exclude prefixes, which cost
 * more than a table lookup, are matched only for a path met for the first
 * time: repeated opens and stats of a file skip them. */
/* *file's record, live and locked; when it has none (or *file is NULL)
 * the path is counted as folded (with is_open opens) and *file becomes
 * <other files>, whose record is returned.  NULL only if that has none. */
static posix_rec *lock_live_or_other(struct iolens_file **file, const char *path, size_t len,
                                     int is_open, int *held)
{
    posix_rec *r = *file != NULL ? lock_live(*file, held) : NULL;
    if (r == NULL) {
        iolens_file_note_folded(iolens_path_hash(path, len), len, IOLENS_LAYER_POSIX, is_open);
        *file = iolens_file_other();
        r = *file != NULL ? lock_live(*file, held) : NULL;
    }
    return r;
}

/* A path that could not be made absolute (past PATH_MAX, or relative to
 * a directory whose own path is): it cannot be named in the log, so its
 * file is folded into <other files>, whose record is returned locked, as
 * for a file the budget had no room for. */
static posix_rec *lock_record_for_nameless(const char *path, int is_open,
                                           struct iolens_file **file_out, int *held)
{
    *file_out = NULL;
    return lock_live_or_other(file_out, path, strlen(path), is_open, held);
}

static posix_rec *lock_record_for_path(const char *abspath, size_t len, int is_open,
                                       struct iolens_file **file_out, int *held)
{
    struct iolens_file *file = iolens_file_find(abspath, len);
    if (file == NULL) {
        if (!path_is_traced(abspath))
            return NULL;
        file = iolens_file_get(abspath, len);
    }
    posix_rec *r = lock_live_or_other(&file, abspath, len, is_open, held);
    *file_out = file;
    return r;
}

/* ----------------------------------------------------------- time -- */

static void add_meta_time(posix_rec *r, double t0, double t1)
{
    r->fcounters[POSIX_F_META_TIME] = iolens_time_add_nonoverlap(
        r->fcounters[POSIX_F_META_TIME], &r->last_meta_end, t0, t1);
}

/* Counts one metadata operation (counter index) on a record: one a
 * descriptor holds, or one locked already (held: as lock_rec gave it). */
static void count_meta_locked(posix_rec *r, int held, int counter, double t0, double t1)
{
    r->counters[counter]++;
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
}

static void count_meta(posix_rec *r, int counter, double t0, double t1)
{
    if (r != NULL)
        count_meta_locked(r, lock_rec(r), counter, t0, t1);
}

int iolens_posix_is_traced(int fd)
{
    return iolens_fd_lookup(fd) != NULL;
}

static posix_rec *rec_of_fd(int fd)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    return ofd != NULL ? ofd->rec : NULL;
}

/* ---------------------------------------------------------- paths -- */

/* The working directory, cached: getcwd is a system call and opens of
 * relative paths are common.  chdir/fchdir bump a generation number
 * (lock-free, so the chdir wrappers need no guard); the cache is refreshed
 * when it was made under an older generation.  The generation is read
 * before getcwd, so a chdir racing with the refresh forces another one. */
static char cwd_cache[PATH_MAX];
static size_t cwd_cache_len;
static uint64_t cwd_cache_generation; /* generation cwd_cache belongs to */
static int cwd_cache_valid;
static _Atomic uint64_t cwd_generation;
static _Atomic int cwd_lock;

void iolens_posix_cwd_changed(void)
{
    atomic_fetch_add_explicit(&cwd_generation, 1, memory_order_release);
}

/*
 * The length of path if it is in normal form already, else 0: no empty,
 * "." or ".." component and no trailing '/' ("/" itself is normal).  Most
 * paths programs pass are, and then normalizing is a copy (or nothing):
 * this scan costs a fraction of iolens_path_normalize.
 */
static size_t normal_length(const char *path)
{
    const char *s = path;
    if (*s == '/' && *++s == '\0')
        return 1;
    for (;;) {
        if (s[0] == '/' || s[0] == '\0')
            return 0; /* empty component, or a trailing '/' */
        if (s[0] == '.' && (s[1] == '/' || s[1] == '\0' ||
                            (s[1] == '.' && (s[2] == '/' || s[2] == '\0'))))
            return 0;
        s = strchrnul(s, '/');
        if (*s == '\0')
            return (size_t)(s - path);
        s++;
    }
}

/* base (normal, absolute, base_len bytes) joined with the normal relative
 * path rel (rel_len bytes), or -1 if out is too small. */
static long join_normal(const char *base, size_t base_len, const char *rel, size_t rel_len,
                        char *out, size_t outsz)
{
    size_t sep = base_len > 1; /* "/" + "a" is "/a", not "//a" */
    if (base_len + sep + rel_len >= outsz)
        return -1;
    memcpy(out, base, base_len);
    out[base_len] = '/';
    memcpy(out + base_len + sep, rel, rel_len + 1);
    return (long)(base_len + sep + rel_len);
}

/* rel_len: normal_length(path), or 0 when path needs normalizing. */
static long normalize_against_cwd(const char *path, size_t rel_len, char *out, size_t outsz)
{
    long len = -1;
    iolens_lock_always(&cwd_lock);
    uint64_t now = atomic_load_explicit(&cwd_generation, memory_order_acquire);
    if (!cwd_cache_valid || cwd_cache_generation != now) {
        cwd_cache_valid = getcwd(cwd_cache, sizeof cwd_cache) != NULL && cwd_cache[0] == '/';
        /* getcwd's answer is normal; if it ever were not, the general
         * normalizer below still copes, and the join is not used. */
        cwd_cache_len = cwd_cache_valid ? normal_length(cwd_cache) : 0;
        cwd_cache_generation = now;
    }
    if (cwd_cache_valid && cwd_cache_len > 0 && rel_len > 0)
        len = join_normal(cwd_cache, cwd_cache_len, path, rel_len, out, outsz);
    else if (cwd_cache_valid)
        len = iolens_path_normalize(cwd_cache, path, out, outsz);
    iolens_unlock_always(&cwd_lock);
    return len;
}

/* What the kernel says fd is open on, if that is a path. */
static long proc_fd_path(int fd, char *out, size_t outsz)
{
    char link[64];
    char target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0 || target[0] != '/')
        return -1;
    target[n] = '\0';
    return iolens_path_normalize("/", target, out, outsz);
}

long iolens_posix_fd_path(int fd, char *out, size_t outsz)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    if (ofd != NULL && ofd->file != NULL && ofd->file->name[0] == '/') {
        if (ofd->file->name_len >= outsz)
            return -1;
        memcpy(out, ofd->file->name, ofd->file->name_len + 1);
        return ofd->file->name_len;
    }
    return proc_fd_path(fd, out, outsz);
}

/* iolens_posix_resolve, except that a path that is absolute and normal
 * already is returned as it is, without a copy; otherwise the result is
 * written to buf.  NULL if the path cannot be resolved. */
static const char *resolve_path(int dirfd, const char *path, char *buf, size_t bufsz,
                                size_t *len)
{
    if (path == NULL || path[0] == '\0')
        return NULL;
    size_t n = normal_length(path);
    if (path[0] == '/' && n > 0 && n < bufsz) {
        *len = n;
        return path;
    }
    long l = iolens_posix_resolve(dirfd, path, buf, bufsz);
    if (l < 0)
        return NULL;
    *len = (size_t)l;
    return buf;
}

long iolens_posix_resolve(int dirfd, const char *path, char *out, size_t outsz)
{
    if (path == NULL || path[0] == '\0')
        return -1;
    size_t n = normal_length(path);
    if (path[0] == '/') {
        if (n == 0)
            return iolens_path_normalize("/", path, out, outsz);
        if (n >= outsz)
            return -1;
        memcpy(out, path, n + 1);
        return (long)n;
    }
    if (dirfd == AT_FDCWD)
        return normalize_against_cwd(path, n, out, outsz);
    char base[PATH_MAX];
    if (iolens_posix_fd_path(dirfd, base, sizeof base) < 0)
        return -1;
    return iolens_path_normalize(base, path, out, outsz);
}

long iolens_posix_resolve_traced(const char *path, char *out, size_t outsz)
{
    long len = iolens_posix_resolve(AT_FDCWD, path, out, outsz);
    return len >= 0 && path_is_traced(out) ? len : -1;
}

/* Counts a stat, unlink or rename on the record of the path it names. */
static void count_meta_named(int dirfd, const char *path, int counter, double t0, double t1)
{
    if (path == NULL || path[0] == '\0')
        return;
    char buf[PATH_MAX];
    size_t len;
    const char *abspath = resolve_path(dirfd, path, buf, sizeof buf, &len);
    struct iolens_file *file;
    int held;
    posix_rec *r = abspath != NULL ? lock_record_for_path(abspath, len, 0, &file, &held)
                                   : lock_record_for_nameless(path, 0, &file, &held);
    if (r != NULL)
        count_meta_locked(r, held, counter, t0, t1);
}

/* ------------------------------------------------- open and close -- */

/* An ofd on a record went with its last descriptor: its hold goes. */
static void on_ofd_released(struct iolens_ofd *ofd)
{
    if (ofd->rec != NULL)
        let_go_then_fold_lacking(ofd->rec, ofd->file);
}

/* Binds fd to a new ofd on file's record r, locked (held), which it
 * unlocks.  The hold it takes first is the ofd's when fd got an ofd of its
 * own on r (*bound set); otherwise it is the caller's, to let go of when
 * done with r (let_go_then_fold_lacking).  A descriptor bound to <other
 * files> for want of state leaves r lacking its calls (mark_lacking). */
static struct iolens_ofd *bind_fd(int fd, struct iolens_file *file, posix_rec *r, int held,
                                  int flags, int *bound)
{
    hold(r);
    unlock_rec(r, held);
    struct iolens_ofd *ofd = iolens_fd_open(fd, file, r, flags);
    *bound = ofd != NULL && !iolens_fd_is_overflow(ofd);
    if (ofd != NULL && iolens_fd_is_overflow(ofd) && ofd->rec != r)
        mark_lacking(r);
    return ofd;
}

void iolens_posix_open(int dirfd, const char *path, int fd, int flags, int mode,
                       double t0, double t1)
{
    char buf[PATH_MAX];
    size_t len = 0;
    const char *abspath = resolve_path(dirfd, path, buf, sizeof buf, &len);
    if (abspath == NULL) {
        long l = proc_fd_path(fd, buf, sizeof buf);
        abspath = l >= 0 ? buf : NULL;
        len = l >= 0 ? (size_t)l : 0;
    }
    struct iolens_file *file;
    int held;
    posix_rec *own = abspath != NULL ? lock_record_for_path(abspath, len, 1, &file, &held)
                                     : lock_record_for_nameless(path, 1, &file, &held);
    if (own == NULL) {
        iolens_fd_close(fd); /* untraced: drop a stale binding of the number */
        return;
    }
    int bound;
    struct iolens_ofd *ofd = bind_fd(fd, file, own, held, flags, &bound);
    posix_rec *r = own;
    if (ofd != NULL && iolens_fd_is_overflow(ofd) && ofd->rec != r) {
        /* No descriptor state for this open: what the descriptor does goes
         * to <other files>, and so does the open, so that the file's own
         * record and <other files> each stay consistent (and the file's
         * record follows when it is idle: below). */
        iolens_file_note_folded(iolens_path_hash(abspath, len), len, IOLENS_LAYER_POSIX, 1);
        r = ofd->rec;
    }

    held = lock_rec(r);
    if (!bound && r == own)
        let_go(own); /* under the lock the open is counted under */
    r->counters[POSIX_OPENS]++;
    if (mode > 0) /* -1: the call passed none; Darshan keeps 0 as none too */
        r->counters[POSIX_MODE] = mode;
    end_run(r); /* its repeats follow a last byte this forgets */
    r->last_byte[0] = r->last_byte[1] = 0;
    iolens_note_first(&r->fcounters[POSIX_F_OPEN_START_TIMESTAMP], t0);
    iolens_note_last(&r->fcounters[POSIX_F_OPEN_END_TIMESTAMP], t1);
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
    /* The file's own record lacks this descriptor's calls (bind_fd): it
     * goes to <other files> whole, now if no other descriptor holds it,
     * else when the last one lets it go, so that no file is shown apart
     * with some of its calls missing. */
    if (!bound && r != own)
        let_go_then_fold_lacking(own, file);
}

/* The close holds the record from before the descriptor lets it go until
 * its end is counted: it cannot be parked in between. */
posix_rec *iolens_posix_close_begin(int fd)
{
    posix_rec *r = rec_of_fd(fd);
    if (r != NULL) {
        int held = lock_rec(r);
        hold(r);
        unlock_rec(r, held);
    }
    iolens_fd_close(fd);
    return r;
}

void iolens_posix_close_end(posix_rec *r, int succeeded, double t0, double t1)
{
    if (r == NULL)
        return;
    int held = lock_rec(r);
    if (succeeded) {
        iolens_note_first(&r->fcounters[POSIX_F_CLOSE_START_TIMESTAMP], t0);
        iolens_note_last(&r->fcounters[POSIX_F_CLOSE_END_TIMESTAMP], t1);
        add_meta_time(r, t0, t1);
    }
    let_go_unlock_then_fold_lacking(r, held, NULL);
}

void iolens_posix_close_range(unsigned first, unsigned last, double t)
{
    /* A descriptor is at most IOLENS_FD_MAX - 1: fd + 1 cannot wrap. */
    for (int fd = iolens_fd_next_bound(first, last); fd >= 0;
         fd = iolens_fd_next_bound((unsigned)fd + 1, last))
        iolens_posix_close_end(iolens_posix_close_begin(fd), 1, t, t);
}

/* Binds a descriptor opened before the runtime saw it (an inherited
 * standard one, or a stdio stream's) at the kernel's offset.  A file
 * whose POSIX record cannot be had (the budget full: a stream can get a
 * STDIO record of its own and its file no POSIX one) is bound to <other
 * files>, as an open of it would be: left unbound, the descriptor's reads
 * and writes were counted nowhere, and the totals lost them. */
static void bind_existing_fd(int fd, struct iolens_file *file, int flags)
{
    off_t (*real_lseek)(int, off_t, int) = IOLENS_REAL(lseek);
    off_t pos = real_lseek != NULL ? real_lseek(fd, 0, SEEK_CUR) : -1;
    int held;
    posix_rec *r = lock_live_or_other(&file, file->name, file->name_len, 0, &held);
    if (r == NULL)
        return;
    int bound;
    struct iolens_ofd *ofd = bind_fd(fd, file, r, held, flags < 0 ? 0 : flags, &bound);
    if (bound)
        atomic_store_explicit(&ofd->offset, pos > 0 ? pos : 0, memory_order_relaxed);
    else
        let_go_then_fold_lacking(r, file);
}

void iolens_posix_adopt_fd(int fd, struct iolens_file *file)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    /* Bound to <other files> already (an earlier fileno of a stream whose
     * file had no record): its calls stay there, where the earlier ones
     * went. */
    if (ofd != NULL && (ofd->file == file || ofd->file == iolens_file_other()))
        return;
    int (*real_fcntl)(int, int, ...) = IOLENS_REAL(fcntl);
    bind_existing_fd(fd, file, real_fcntl != NULL ? real_fcntl(fd, F_GETFL) : 0);
}

/* ---------------------------------------------------- read, write -- */

/* The counter indices that differ between reads and writes. */
struct rw_ids {
    int ops, bytes, max_byte, consec, seq, size0, max_time_size;
    int f_start, f_end, f_time, f_max_time;
    enum last_io kind;
};

static const struct rw_ids read_ids = {
    POSIX_READS, POSIX_BYTES_READ, POSIX_MAX_BYTE_READ, POSIX_CONSEC_READS,
    POSIX_SEQ_READS, POSIX_SIZE_READ_0_100, KEPT_MAX_READ_TIME_SIZE,
    POSIX_F_READ_START_TIMESTAMP, POSIX_F_READ_END_TIMESTAMP, POSIX_F_READ_TIME,
    POSIX_F_MAX_READ_TIME, IO_READ,
};

static const struct rw_ids write_ids = {
    POSIX_WRITES, POSIX_BYTES_WRITTEN, POSIX_MAX_BYTE_WRITTEN, POSIX_CONSEC_WRITES,
    POSIX_SEQ_WRITES, POSIX_SIZE_WRITE_0_100, KEPT_MAX_WRITE_TIME_SIZE,
    POSIX_F_WRITE_START_TIMESTAMP, POSIX_F_WRITE_END_TIMESTAMP, POSIX_F_WRITE_TIME,
    POSIX_F_MAX_WRITE_TIME, IO_WRITE,
};

/* The kernel's file position after an O_APPEND write (only the kernel
 * knows where it landed), else -1.  Asked before the record lock is taken:
 * no system call runs under a spinlock.  errno is kept, as the read/write
 * path promises (posix_layer.h). */
static __attribute__((noinline)) int64_t append_position(int fd)
{
    off_t (*real_lseek)(int, off_t, int) = IOLENS_REAL(lseek);
    if (real_lseek == NULL)
        return -1;
    int saved = errno;
    int64_t pos = real_lseek(fd, 0, SEEK_CUR);
    errno = saved;
    return pos;
}

/* The file's size, which an append at an explicit offset ends (a pwrite
 * on an O_APPEND descriptor, or with RWF_APPEND: Linux appends whatever
 * the offset, and leaves the descriptor's position alone, so lseek cannot
 * tell where it landed), else -1.  Asked, as append_position is, before
 * the record lock; errno kept. */
static __attribute__((noinline)) int64_t append_end(int fd)
{
    int (*real_fstat)(int, struct stat *) = IOLENS_REAL(fstat);
    if (real_fstat == NULL)
        return -1;
    int saved = errno;
    struct stat st;
    int64_t end = real_fstat(fd, &st) == 0 ? (int64_t)st.st_size : -1;
    errno = saved;
    return end;
}

/* Under the record lock: where an access of size bytes started.  Explicit
 * offsets are used as given.  Otherwise the tracked offset is used and
 * advanced; a descriptor's offset only changes under the lock of the
 * record it points to, so a plain load and store suffice (threads sharing
 * a descriptor each get their own start, without an atomic
 * read-modify-write on the hot path). */
static inline int64_t access_start(struct iolens_ofd *ofd, int64_t offset, int64_t size,
                                   int64_t append_pos)
{
    if (offset >= 0)
        return offset;
    int64_t start = append_pos >= size
                        ? append_pos - size
                        : atomic_load_explicit(&ofd->offset, memory_order_relaxed);
    atomic_store_explicit(&ofd->offset, start + size, memory_order_relaxed);
    return start;
}

/* Darshan's consecutive, sequential and stride rules (log_format.h):
 * against the last byte of the previous access of the same kind to the
 * file.  Returns the stride, 0 when there is none to count. */
static inline int64_t count_darshan_order(posix_rec *r, const struct rw_ids *k, int64_t start,
                                          int64_t size)
{
    int64_t *c = r->counters;
    int64_t *last = &r->last_byte[k->kind - IO_READ];
    c[k->consec] += iolens_is_darshan_consecutive(start, *last);
    c[k->seq] += iolens_is_darshan_sequential(start, *last);
    int64_t stride = iolens_darshan_stride(start, *last);
    *last = start + size - 1;
    return stride;
}

/* iolens's own rules (the PAT_* counters): against the previous access of
 * either kind on the same descriptor. */
static inline void count_pattern(posix_rec *r, struct iolens_ofd *ofd, const struct rw_ids *k,
                                 int64_t start, int64_t size)
{
    int64_t *c = r->counters;
    int64_t prev_end = ofd->last_end;
    r->pat.consec += iolens_is_consecutive(start, prev_end);
    r->pat.seq += iolens_is_sequential(start, prev_end);
    ofd->last_start = start;
    ofd->last_end = start + size;
    if (r->last_io != k->kind) {
        c[POSIX_RW_SWITCHES] += r->last_io != IO_NONE;
        r->last_io = k->kind;
    }
}

/* The times of an access whose kind's first timestamp is set already
 * (every repeat of a run: start_run asks for it). */
static inline void count_timing_after_first(posix_rec *r, const struct rw_ids *k, int64_t size,
                                            double t0, double t1)
{
    double *f = r->fcounters;
    /* The end of the last access of a kind is both F_*_END_TIMESTAMP and
     * the point from which non-overlapping time counts: one update does
     * both (iolens_note_last's rule is the same as the one below). */
    f[k->f_time] = iolens_time_add_nonoverlap(f[k->f_time], &f[k->f_end], t0, t1);
    if (__builtin_expect(t1 - t0 > f[k->f_max_time], 0)) {
        f[k->f_max_time] = t1 - t0;
        r->counters[k->max_time_size] = size;
    }
}

static inline void count_timing(posix_rec *r, const struct rw_ids *k, int64_t size, double t0,
                                double t1)
{
    iolens_note_first(&r->fcounters[k->f_start], t0);
    count_timing_after_first(r, k, size, t0, t1);
}

/* The common sizes and strides, and the pattern detector's step, when
 * any of them differs from the last one counted (out of line: see
 * count_access).  Sizes and strides of 0 are not counted (as Darshan). */
static __attribute__((noinline)) void count_common_values(posix_rec *r, int64_t size,
                                                           int64_t stride, int has_step,
                                                           int64_t step)
{
    if (size != 0)
        iolens_common_add(&r->sizes, size);
    if (stride != 0)
        iolens_common_add(&r->strides, stride);
    if (has_step)
        iolens_pat_step(&r->pat, step);
}

/* Bit 0: the buffer, bit 1: the start not aligned as the record's
 * alignments say (POSIX_MEM_NOT_ALIGNED, POSIX_FILE_NOT_ALIGNED). */
static inline unsigned misaligned_bits(const posix_rec *r, const void *buf, int64_t start)
{
    const int64_t *c = r->counters;
    unsigned mem = is_misaligned_shift((uintptr_t)buf, r->mem_align_shift, c[POSIX_MEM_ALIGNMENT]);
    unsigned file = is_misaligned_shift((uint64_t)start, r->file_align_shift,
                                        c[POSIX_FILE_ALIGNMENT]);
    return mem | file << 1;
}

/* The stride Darshan's rule gives every repeat of a run of accesses of
 * size bytes, each step bytes after the previous one: the gap past the
 * previous access's last byte, 0 when back to back or not forward. */
static inline int64_t repeat_stride(int64_t step, int64_t size)
{
    return step > size ? step - size : 0;
}

/* Puts the run's repeats into the counters: n times what one repeat adds
 * (each starts pat.run_stride after the previous access of the same kind
 * on the same descriptor, which is the record's previous access of that
 * kind too).  Under the record lock. */
static void apply_run(posix_rec *r)
{
    int64_t n = r->run.n;
    if (n == 0)
        return;
    const struct rw_ids *k = r->last_io == IO_READ ? &read_ids : &write_ids;
    int64_t size = r->run.size, step = r->pat.run_stride;
    int64_t *c = r->counters;
    c[k->ops] += n;
    c[k->bytes] += n * size;
    /* The repeats' furthest byte: the last one's when the run goes
     * forward or stays (step >= 0); going back, every repeat's is below
     * the model access's, counted in full already.  So the maximum with
     * the last byte of the latest access of the kind is right either way. */
    if (r->last_byte[k->kind - IO_READ] > c[k->max_byte])
        c[k->max_byte] = r->last_byte[k->kind - IO_READ];
    c[k->size0 + iolens_size_bin(size)] += n;
    c[POSIX_MEM_NOT_ALIGNED] += n * (r->run_misaligned & 1);
    c[POSIX_FILE_NOT_ALIGNED] += n * (r->run_misaligned >> 1);
    c[k->consec] += n * (step == size);
    c[k->seq] += n * (step >= size);
    r->pat.consec += n * (step == size);
    r->pat.seq += n * (step >= size);
    iolens_common_count_last(&r->sizes, n);
    if (repeat_stride(step, size) != 0)
        iolens_common_count_last(&r->strides, n);
    r->pat.run_len += n;
    r->run.n = 0;
}

/* Applies the run and ends it: the record's state it relies on changes. */
static void end_run(posix_rec *r)
{
    apply_run(r);
    r->run.ofd = NULL;
}

/* After an access counted in full: makes it the model of a run when every
 * counter a repeat of it changes would change by apply_run's amounts. */
static inline void start_run(posix_rec *r, const struct iolens_ofd *ofd, const struct rw_ids *k,
                             int64_t start, int64_t size, unsigned misaligned)
{
    int64_t stride = repeat_stride(r->pat.run_stride, size);
    r->run.ofd = NULL;
    if (size <= 0 || size > (int64_t)UINT32_MAX || !iolens_common_is_last(&r->sizes, size))
        return;
    if (stride != 0 && (!iolens_common_is_last(&r->strides, stride) ||
                        start + size - 1 == 0)) /* Darshan: a last byte 0 is none */
        return;
    if (r->fcounters[k->f_start] == 0.0)
        return;
    r->run.ofd = ofd;
    r->run.size = (uint32_t)size;
    r->run.n = 0;
    r->run_misaligned = (uint8_t)misaligned;
}

/* Whether this access repeats the record's run: the same descriptor,
 * kind, size and alignment, starting the run's step after the previous
 * access on the descriptor. */
static inline int repeats_run(const posix_rec *r, const struct iolens_ofd *ofd,
                              const struct rw_ids *k, int64_t start, int64_t size,
                              unsigned misaligned)
{
    int64_t prev_start = ofd->last_start;
    return r->run.ofd == ofd && r->last_io == k->kind && (uint64_t)size == r->run.size &&
           r->run_misaligned == misaligned && prev_start >= 0 &&
           start - prev_start == r->pat.run_stride && r->run.n != UINT32_MAX;
}

/* A repeat: what differs from call to call (positions, times), and one
 * more in the run.  The maximum byte follows from the last byte when the
 * run is applied (apply_run). */
static inline void count_repeat(posix_rec *r, struct iolens_ofd *ofd, const struct rw_ids *k,
                                int64_t start, int64_t size, double t0, double t1)
{
    r->last_byte[k->kind - IO_READ] = start + size - 1;
    ofd->last_start = start;
    ofd->last_end = start + size;
    count_timing_after_first(r, k, size, t0, t1);
    r->run.n++;
}

/* Every counter of one access (after the run's repeats are applied: the
 * tables' last slots and the detector's step may change here), then the
 * access becomes the next run's model if it can. */
static inline __attribute__((always_inline)) void
count_in_full(posix_rec *r, struct iolens_ofd *ofd, int64_t start, int64_t size, double t0,
              double t1, const struct rw_ids *k, unsigned misaligned)
{
    int64_t *c = r->counters;
    apply_run(r);
    int64_t prev_start = ofd->last_start;
    c[k->ops]++;
    c[k->bytes] += size;
    if (size > 0 && start + size - 1 > c[k->max_byte])
        c[k->max_byte] = start + size - 1;
    c[k->size0 + iolens_size_bin(size)]++;
    c[POSIX_MEM_NOT_ALIGNED] += misaligned & 1;
    c[POSIX_FILE_NOT_ALIGNED] += misaligned >> 1;
    int64_t stride = count_darshan_order(r, k, start, size);
    count_pattern(r, ofd, k, start, size);
    count_timing(r, k, size, t0, t1);
    int has_step = prev_start >= 0;
    int64_t step = start - prev_start;
    if ((size == 0 || iolens_common_is_last(&r->sizes, size)) &&
        (stride == 0 || iolens_common_is_last(&r->strides, stride)) &&
        (!has_step || step == r->pat.run_stride)) {
        iolens_common_count_last(&r->sizes, size != 0);
        iolens_common_count_last(&r->strides, stride != 0);
        r->pat.run_len += has_step;
    } else {
        count_common_values(r, size, stride, has_step, step);
    }
    start_run(r, ofd, k, start, size, misaligned);
}

/* Out of line, one per kind so that every k->... stays a constant: the
 * read/write path below then needs few registers. */
static __attribute__((noinline)) void count_read_in_full(posix_rec *r, struct iolens_ofd *ofd,
                                                         int64_t start, int64_t size, double t0,
                                                         double t1, unsigned misaligned)
{
    count_in_full(r, ofd, start, size, t0, t1, &read_ids, misaligned);
}

static __attribute__((noinline)) void count_write_in_full(posix_rec *r, struct iolens_ofd *ofd,
                                                          int64_t start, int64_t size, double t0,
                                                          double t1, unsigned misaligned)
{
    count_in_full(r, ofd, start, size, t0, t1, &write_ids, misaligned);
}

/*
 * Inlined into the read and write entry points, so that every k->... is a
 * constant.  A repeat of the record's run (above) is counted inline in a
 * few stores; any other access in full, out of line.  append_pos is the
 * kernel's position after an O_APPEND write (see append_position), else -1.
 */
static inline __attribute__((always_inline)) void
count_access(struct iolens_ofd *ofd, const void *buf, int64_t offset, int64_t size, double t0,
             double t1, const struct rw_ids *k, int64_t append_pos, uintptr_t site)
{
    posix_rec *r = ofd->rec;
    int held = lock_rec(r);
    iolens_sites_count(&r->sites, site, size, t1 - t0);
    int64_t start = access_start(ofd, offset, size, append_pos);
    unsigned misaligned = misaligned_bits(r, buf, start);
    if (__builtin_expect(repeats_run(r, ofd, k, start, size, misaligned), 1))
        count_repeat(r, ofd, k, start, size, t0, t1);
    else if (k->kind == IO_READ)
        count_read_in_full(r, ofd, start, size, t0, t1, misaligned);
    else
        count_write_in_full(r, ofd, start, size, t0, t1, misaligned);
    unlock_rec(r, held);
}

/* A write without offset on an O_APPEND descriptor: only the kernel knows
 * where it landed, so it is asked first (out of line, off the usual path). */
static __attribute__((noinline)) void count_append_write(struct iolens_ofd *ofd, int fd,
                                                         const void *buf, int64_t size,
                                                         double t0, double t1, uintptr_t site)
{
    count_access(ofd, buf, -1, size, t0, t1, &write_ids, append_position(fd), site);
}

/*
 * The fast path: a repeat of the record's run (the usual access) in a
 * process with one thread, which needs no lock.  It first tests
 * everything, changing nothing, and returns NULL when the access is not
 * such a repeat (or its site, its first, an O_APPEND write's position or
 * an alignment that is not a power of two needs a call or a division).
 * Otherwise it counts the access as count_access would and returns the
 * record (whose id the access interval takes).
 * The tests are repeats_run's and misaligned_bits', in the order that
 * keeps the fewest values live at once.
 */
static inline __attribute__((always_inline)) posix_rec *
count_repeat_alone(const struct iolens_posix_io *restrict io, const struct rw_ids *k)
{
    if (!iolens_single_threaded())
        return NULL;
    struct iolens_ofd *ofd = io->ofd;
    posix_rec *r = ofd->rec;
    int64_t size = io->ret;
    if (r->run.ofd != ofd || r->last_io != k->kind || (uint64_t)size != r->run.size ||
        r->run.n == UINT32_MAX)
        return NULL;
    /* A pwrite on an O_APPEND descriptor may stay here: the kernel
     * appended it, and the tests below pass only when its offset is the
     * run's next start, where the run's appends left the end of the file
     * (unless another process appended meanwhile). */
    int64_t start = io->offset;
    if (start < 0) {
        if (k->kind == IO_WRITE && __builtin_expect(ofd->flags & O_APPEND, 0))
            return NULL;
        start = atomic_load_explicit(&ofd->offset, memory_order_relaxed);
    }
    int64_t prev_start = ofd->last_start;
    if (prev_start < 0 || start - prev_start != r->pat.run_stride)
        return NULL;
    int8_t mem_shift = r->mem_align_shift, file_shift = r->file_align_shift;
    if ((mem_shift | file_shift) < 0)
        return NULL;
    uint8_t misaligned = (uint8_t)(is_misaligned_pow2((uintptr_t)io->buf, mem_shift) +
                                   2 * is_misaligned_pow2((uint64_t)start, file_shift));
    if (misaligned != r->run_misaligned ||
        !iolens_sites_count_inline(&r->sites, io->site, size, io->t1 - io->t0))
        return NULL;
    if (io->offset < 0)
        atomic_store_explicit(&ofd->offset, start + size, memory_order_relaxed);
    count_repeat(r, ofd, k, start, size, io->t0, io->t1);
    return r;
}

/* Every access the fast path leaves: counted from the start (with the
 * record's lock when the process has threads).  The access interval
 * (layer_intervals.h) is added after the lock is released, as the last
 * step: a call in tail position. */
static __attribute__((noinline)) void read_io_general(const struct iolens_posix_io *io)
{
    count_access(io->ofd, io->buf, io->offset, io->ret, io->t0, io->t1, &read_ids, -1,
                 io->site);
    iolens_intervals_add(IOLENS_LAYER_POSIX, io->t0, io->t1, ((posix_rec *)io->ofd->rec)->id,
                         io->ret, IOLENS_IV_READ);
}

/* A write the kernel appended (O_APPEND, RWF_APPEND): without offset,
 * where the descriptor's position now stands says where it landed; with
 * one, which the kernel ignored, the file's end does, and the position
 * did not move. */
static void count_appended(const struct iolens_posix_io *io)
{
    if (io->offset < 0) {
        count_append_write(io->ofd, io->fd, io->buf, io->ret, io->t0, io->t1, io->site);
        return;
    }
    int64_t end = append_end(io->fd);
    int64_t start = end >= io->ret ? end - io->ret : io->offset;
    count_access(io->ofd, io->buf, start, io->ret, io->t0, io->t1, &write_ids, -1, io->site);
}

/* A write counted from the start, appended by the kernel or not. */
static void write_general(const struct iolens_posix_io *io, int appended)
{
    if (appended)
        count_appended(io);
    else
        count_access(io->ofd, io->buf, io->offset, io->ret, io->t0, io->t1, &write_ids, -1,
                     io->site);
    iolens_intervals_add(IOLENS_LAYER_POSIX, io->t0, io->t1, ((posix_rec *)io->ofd->rec)->id,
                         io->ret, IOLENS_IV_WRITE);
}

static __attribute__((noinline)) void write_io_general(const struct iolens_posix_io *io)
{
    write_general(io, __builtin_expect(io->ofd->flags & O_APPEND, 0) != 0);
}

/* The fast path inline, every other way out a call in tail position: so
 * the usual access calls nothing and saves no registers.  Inlined into
 * the two entry points below, so that k, general and the flag are
 * constants there.  io is restrict at the entry points only: on this
 * inline helper too, GCC 12 compiled four instructions more into each. */
static inline __attribute__((always_inline)) void
count_io(const struct iolens_posix_io *io, const struct rw_ids *k,
         void (*general)(const struct iolens_posix_io *), uint32_t iv_flag)
{
    posix_rec *r = count_repeat_alone(io, k);
    if (r == NULL) {
        general(io);
        return;
    }
    iolens_intervals_add_alone(IOLENS_LAYER_POSIX, io->t0, io->t1, r->id, io->ret, iv_flag);
}

void iolens_posix_read_io(const struct iolens_posix_io *restrict io)
{
    count_io(io, &read_ids, read_io_general, IOLENS_IV_READ);
}

void iolens_posix_write_io(const struct iolens_posix_io *restrict io)
{
    count_io(io, &write_ids, write_io_general, IOLENS_IV_WRITE);
}

void iolens_posix_appended_write_io(const struct iolens_posix_io *io)
{
    write_general(io, 1);
}

void iolens_posix_failed_access(int fd, int64_t requested, int is_write, double t0, double t1)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    if (ofd == NULL)
        return;
    uint32_t flags = IOLENS_IV_FAILED | (is_write ? IOLENS_IV_WRITE : IOLENS_IV_READ);
    iolens_intervals_add(IOLENS_LAYER_POSIX, t0, t1, ((posix_rec *)ofd->rec)->id,
                         requested, flags);
}

void iolens_posix_read(int fd, const void *buf, int64_t offset, ssize_t ret, double t0,
                       double t1)
{
    struct iolens_posix_io io = {iolens_fd_lookup(fd), buf, offset, ret, t0, t1,
                                 iolens_site_take(), fd};
    if (io.ofd != NULL)
        read_io_general(&io);
}

void iolens_posix_write(int fd, const void *buf, int64_t offset, ssize_t ret, double t0,
                        double t1)
{
    struct iolens_posix_io io = {iolens_fd_lookup(fd), buf, offset, ret, t0, t1,
                                 iolens_site_take(), fd};
    if (io.ofd != NULL)
        write_io_general(&io);
}

/* ------------------------------------------- descriptor metadata -- */

void iolens_posix_seek(int fd, int64_t new_offset, double t0, double t1)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    if (ofd == NULL)
        return;
    posix_rec *r = ofd->rec;
    int held = lock_rec(r); /* the offset changes only under the record lock */
    atomic_store_explicit(&ofd->offset, new_offset, memory_order_relaxed);
    r->counters[POSIX_SEEKS]++;
    add_meta_time(r, t0, t1);
    unlock_rec(r, held);
}

void iolens_posix_stat_fd(int fd, double t0, double t1)
{
    count_meta(rec_of_fd(fd), POSIX_STATS, t0, t1);
}

void iolens_posix_stat_path(int dirfd, const char *path, double t0, double t1)
{
    if (path == NULL || path[0] == '\0')
        iolens_posix_stat_fd(dirfd, t0, t1);
    else
        count_meta_named(dirfd, path, POSIX_STATS, t0, t1);
}

void iolens_posix_fsync(int fd, int data_only, double t0, double t1)
{
    count_meta(rec_of_fd(fd), data_only ? POSIX_FDSYNCS : POSIX_FSYNCS, t0, t1);
}

void iolens_posix_dup(int oldfd, int newfd, double t0, double t1)
{
    if (oldfd == newfd)
        return; /* dup2(fd, fd) changes nothing */
    if (iolens_fd_lookup(oldfd) == NULL) {
        iolens_fd_close(newfd); /* dup2 closed whatever newfd was */
        return;
    }
    struct iolens_ofd *old = iolens_fd_lookup(oldfd);
    struct iolens_ofd *ofd = iolens_fd_dup(oldfd, newfd);
    if (ofd == NULL)
        return;
    count_meta(ofd->rec, POSIX_DUPS, t0, t1);
    if (iolens_fd_is_overflow(ofd) && old != ofd && old->rec != ofd->rec)
        mark_lacking(old->rec); /* newfd's calls go to <other files> */
}

void iolens_posix_setfl(int fd, int flags)
{
    struct iolens_ofd *ofd = iolens_fd_lookup(fd);
    if (ofd == NULL || iolens_fd_is_overflow(ofd))
        return; /* the overflow ofd is shared: it keeps no flags */
    /* F_SETFL changes only these; the access mode stays. */
    const int settable = O_APPEND | O_ASYNC | O_DIRECT | O_NOATIME | O_NONBLOCK;
    ofd->flags = (ofd->flags & ~settable) | (flags & settable);
}

void iolens_posix_mmap(int fd, double t0, double t1)
{
    count_meta(rec_of_fd(fd), POSIX_MMAPS, t0, t1);
}

void iolens_posix_truncate(int fd, double t0, double t1)
{
    count_meta(rec_of_fd(fd), POSIX_TRUNCATES, t0, t1);
}

void iolens_posix_unlink(int dirfd, const char *path, double t0, double t1)
{
    count_meta_named(dirfd, path, POSIX_UNLINKS, t0, t1);
}

void iolens_posix_rename(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
                         double t0, double t1)
{
    count_meta_named(olddirfd, oldpath, POSIX_RENAME_SOURCES, t0, t1);
    count_meta_named(newdirfd, newpath, POSIX_RENAME_TARGETS, t0, t1);
}

/* -------------------------------------------------------- start-up -- */

/* Tracks an inherited standard descriptor, if it is open. */
static void bind_std_fd(int fd)
{
    int (*real_fcntl)(int, int, ...) = IOLENS_REAL(fcntl);
    int flags = real_fcntl != NULL ? real_fcntl(fd, F_GETFL) : -1;
    struct iolens_file *file = iolens_file_std(fd);
    if (flags >= 0 && file != NULL)
        bind_existing_fd(fd, file, flags);
}

/* The record of a reserved entry, which is never parked: the pointer
 * stays good. */
static posix_rec *reserved_record(struct iolens_file *file)
{
    int held;
    posix_rec *r = file != NULL ? lock_live(file, &held) : NULL;
    if (r != NULL)
        unlock_rec(r, held);
    return r;
}

static void layer_init(void)
{
    int saved = errno;
    pool_init();
    iolens_fd_set_release_hook(on_ofd_released);
    /* Made now so that folding never needs memory; descriptors the
     * budget cannot hold state for count into it too (fd_table.h). */
    struct iolens_file *other = iolens_file_other();
    iolens_fd_set_overflow(other, reserved_record(other));
    for (int fd = 0; fd <= 2; fd++)
        bind_std_fd(fd);
    iolens_posix_cwd_changed();
    errno = saved;
}

/* ------------------------------------------------ the layer's entry -- */

static int has_activity(const struct iolens_posix_record *d)
{
    static const int ops[] = {
        POSIX_OPENS,   POSIX_READS,     POSIX_WRITES,  POSIX_SEEKS,
        POSIX_STATS,   POSIX_MMAPS,     POSIX_FSYNCS,  POSIX_FDSYNCS,
        POSIX_DUPS,    POSIX_TRUNCATES, POSIX_UNLINKS, POSIX_RENAME_SOURCES,
        POSIX_RENAME_TARGETS,
    };
    return iolens_counters_any(d->counters, ops, sizeof ops / sizeof ops[0]);
}

static int pack(void *rec, void *record)
{
    posix_rec *r = rec;
    struct iolens_posix_record *out = record;
    struct iolens_access_pattern pat;
    memset(out, 0, sizeof *out);
    int held = lock_rec(r);
    apply_run(r);
    out->id = r->id;   /* rank 0: the log writer sets a rank's */
    memcpy(out->counters, r->counters, KEPT_AT_OWN_INDEX * sizeof *out->counters);
    out->counters[POSIX_MAX_READ_TIME_SIZE] = r->counters[KEPT_MAX_READ_TIME_SIZE];
    out->counters[POSIX_MAX_WRITE_TIME_SIZE] = r->counters[KEPT_MAX_WRITE_TIME_SIZE];
    memcpy(out->fcounters, r->fcounters, sizeof r->fcounters);
    /* Under the lock: the tables' outer slots are not in a copy. */
    out->counters[POSIX_STRIDE_TOP_STATE] =
        iolens_common_top(&r->strides, 4, &out->counters[POSIX_STRIDE1_STRIDE],
                          &out->counters[POSIX_STRIDE1_COUNT]);
    out->counters[POSIX_ACCESS_TOP_STATE] =
        iolens_common_top(&r->sizes, 4, &out->counters[POSIX_ACCESS1_ACCESS],
                          &out->counters[POSIX_ACCESS1_COUNT]);
    pat = r->pat;
    unlock_rec(r, held);
    iolens_pat_pack(&pat, &out->counters[POSIX_PAT_STEPS]);
    int has = has_activity(out);
    struct iolens_file *other = iolens_file_other();
    if (other != NULL && atomic_load_explicit(&other->layer_rec[IOLENS_LAYER_POSIX],
                                              memory_order_acquire) == rec)
        has = iolens_pool_add_folded(&pool, out, has); /* park_pool.h */
    return has;
}

static void clear_record(void *rec, struct iolens_file *file)
{
    clear_counters(rec, file);
    iolens_sites_clear(&((posix_rec *)rec)->sites);
}

static void release_layer_locks(void)
{
    iolens_unlock_always(&cwd_lock);
    iolens_pool_release_lock(&pool);
    iolens_aio_release_lock();
}

/* A forked child: the parked records are cleared too, and the parent's
 * asynchronous requests forgotten. */
static void reset_layer(void)
{
    iolens_pool_clear_parked(&pool, clear_record);
    iolens_aio_reset();
}

static uint64_t pool_demand(uint64_t budget)
{
    return iolens_pool_demand(&pool, budget);
}

static void *read_record(struct iolens_file *file, void *scratch, size_t offset, size_t bytes)
{
    return iolens_pool_read(&pool, file, scratch, offset, bytes);
}

_Static_assert(sizeof(struct iolens_posix_record) <= IOLENS_LAYER_RECORD_MAX, "record size");

IOLENS_LAYER_OPS(posix_ops) = {
    .layer = IOLENS_LAYER_POSIX,
    .region_kind = IOLENS_REGION_POSIX,
    .empty_region = IOLENS_EMPTY_IN_PROCESS_LOG | IOLENS_EMPTY_IN_JOB_LOG,
    .lock_offset = offsetof(posix_rec, lock),
    /* No on-disk struct inside: the record is compact (see KEPT_*), made
     * by init_rec and packed by pack, so nothing uses this offset. */
    .disk_offset = 0,
    .sites_offset = offsetof(posix_rec, sites),
    .init = layer_init,
    .release_locks = release_layer_locks,
    .reset = reset_layer,
    .before_pack = fold_held_lacking,
    .pack = pack,
    .clear_record = clear_record,
    .read_record = read_record,
};
