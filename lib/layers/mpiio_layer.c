/* MPI-IO layer bookkeeping: the counters of IOLENS_MPIIO_COUNTERS
 * (log_format.h), per file, fed by wrappers/mpiio.c.
 *
 * Three structures, all carved from the budget:
 *  - one record per file (struct iolens_mpiio_rec), hung on the file's
 *    entry in the record table, with its own spinlock as in the POSIX
 *    layer;
 *  - the handle table: MPI_File -> record, plus the split collective in
 *    progress on that handle.  Open addressing keyed by the handle, lock-
 *    free lookups, a table lock for open and close (as the stdio layer's
 *    stream table);
 *  - the request table: pending nonblocking request -> (record, bytes,
 *    direction, issue time).  Everything on it happens under one small
 *    lock, and only while requests are pending (iolens_mpiio_pending). */
#include "layers/mpiio_layer.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

#include "layers/access_pattern.h"
#include "layers/access_stats.h"
#include "core/budget.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "layers/layer_intervals.h"
#include "layers/layer_ops.h"
#include "core/mpi_calls.h"
#include "layers/posix_layer.h"
#include "format/record_merge.h"
#include "core/state.h"
#include "core/spinlock.h"

enum last_io { IO_NONE, IO_READ, IO_WRITE };

/* The latest busy span of reads (or writes): time already counted. */
struct busy {
    double start, end;
};

/*
 * The counters a record keeps while the program runs: compact, as the
 * POSIX layer's (posix_layer.c).  The counters before
 * MPIIO_ACCESS_TOP_STATE keep their on-disk index and the sizes of the
 * slowest read and write follow them; pack makes the top table and the
 * pattern counters, the log writer the sharing counters and fcounters
 * (iolens_record_fill_own_sharing).
 */
enum {
    KEPT_AT_OWN_INDEX = MPIIO_ACCESS_TOP_STATE,
    KEPT_MAX_READ_TIME_SIZE = KEPT_AT_OWN_INDEX,
    KEPT_MAX_WRITE_TIME_SIZE,
    NKEPT_COUNTERS
};
enum { NKEPT_FCOUNTERS = MPIIO_F_FASTEST_RANK_TIME };

_Static_assert(MPIIO_MAX_READ_TIME_SIZE == MPIIO_ACCESS4_COUNT + 1 &&
                   MPIIO_MAX_WRITE_TIME_SIZE == MPIIO_MAX_READ_TIME_SIZE + 1 &&
                   MPIIO_RANKS_OPENED == MPIIO_MAX_WRITE_TIME_SIZE + 1 &&
                   MPIIO_PAT_STEPS == MPIIO_SLOWEST_RANK_BYTES + 1 &&
                   MPIIO_NUM_COUNTERS == MPIIO_PAT_STEPS + IOLENS_PAT_NCOUNTERS,
               "MPI-IO counters not kept in memory: top table, sharing, pattern");
_Static_assert(MPIIO_F_NUM_COUNTERS == MPIIO_F_VARIANCE_RANK_BYTES + 1 &&
                   NKEPT_FCOUNTERS == MPIIO_F_MAX_WRITE_TIME + 1,
               "MPI-IO fcounters not kept in memory: the sharing ones, last");

struct iolens_mpiio_rec {
    _Atomic int lock;
    uint64_t id;              /* the file's, for its access intervals */
    int64_t counters[NKEPT_COUNTERS];   /* see KEPT_* above */
    double fcounters[NKEPT_FCOUNTERS];
    /* Runtime-only state. */
    struct busy read_busy;    /* non-overlapping read and write time */
    struct busy write_busy;
    double last_meta_end;
    enum last_io last_io;     /* for MPIIO_RW_SWITCHES */
    struct iolens_common_values sizes;
    struct iolens_access_pattern pat;   /* the MPIIO_PAT_* detector */
};

typedef struct iolens_mpiio_rec mpiio_rec;

/* Its entry of the runtime ops table (layer_ops.h), defined at the end. */
static const struct iolens_layer_ops mpiio_ops;

/* ------------------------------------------------------- records -- */

static const struct iolens_layer_ops mpiio_ops;

static void clear_counters(mpiio_rec *r)
{
    memset(r->counters, 0, sizeof r->counters);
    memset(r->fcounters, 0, sizeof r->fcounters);
    r->read_busy = r->write_busy = (struct busy){0.0, 0.0};
    r->last_meta_end = 0.0;
    r->last_io = IO_NONE;
    memset(&r->sizes, 0, sizeof r->sizes);
    memset(&r->pat, 0, sizeof r->pat);
}

/* A new record (not iolens_layer_record_init: the record holds no
 * on-disk struct, only the file's id in front of its compact counters). */
static void init_rec(void *rec, struct iolens_file *file)
{
    mpiio_rec *r = rec;
    atomic_store(&r->lock, 0);
    r->id = file->id;
    clear_counters(r);
}

static mpiio_rec *record_of(struct iolens_file *file)
{
    return iolens_file_layer_record(file, IOLENS_LAYER_MPIIO, sizeof(mpiio_rec), init_rec);
}

/* The record of an opened path: its own, or <other files> (a folded open)
 * when the budget holds neither the entry nor the record. */
static mpiio_rec *record_for_open(const char *abspath, size_t len)
{
    struct iolens_file *file = iolens_file_get(abspath, len);
    mpiio_rec *r = file != NULL ? record_of(file) : NULL;
    if (r == NULL) {
        iolens_file_note_folded(iolens_path_hash(abspath, len), len, IOLENS_LAYER_MPIIO, 1);
        r = record_of(iolens_file_other());
    }
    return r;
}

/* ----------------------------------------------------------- time -- */

static void add_meta_time(mpiio_rec *r, double t0, double t1)
{
    r->fcounters[MPIIO_F_META_TIME] = iolens_time_add_nonoverlap(
        r->fcounters[MPIIO_F_META_TIME], &r->last_meta_end, t0, t1);
}

/*
 * Read (or write) time with overlapping operations counted once.  An
 * operation is accounted when it ends, and ends come in time order, but
 * nonblocking operations completed together (MPI_Waitall, a Waitany loop)
 * may come in any order of their starts.  So the time already counted is
 * kept as the latest busy span [start, end]: an operation that starts
 * after it opens a new span; one that overlaps it adds only what lies
 * outside it, before or after.  Exact for operations that overlap one
 * another or follow one another; an operation reaching back over an older
 * span (which is forgotten) counts that older part again.
 */
static double busy_add(double total, struct busy *b, double t0, double t1)
{
    if (t0 > b->end) {
        b->start = t0;
        b->end = t1;
        return total + (t1 - t0);
    }
    if (t1 < b->start)
        return total + (t1 - t0); /* before the span: only in thread races */
    if (t0 < b->start) {
        total += b->start - t0;
        b->start = t0;
    }
    if (t1 > b->end) {
        total += t1 - b->end;
        b->end = t1;
    }
    return total;
}

/* ---------------------------------------------------------- paths -- */

/* ROMIO lets a file name start with "<file system>:" to force a driver;
 * the file is the rest.  Only ROMIO's driver names count, so a relative
 * name with a colon ("run:1/out") is kept whole. */
static const char *strip_romio_prefix(const char *name)
{
    static const char *const prefixes[] = {
        "ufs:", "nfs:", "xfs:", "pvfs2:", "gpfs:", "lustre:", "panfs:", "daos:",
        "ime:", "quobyte:", "testfs:", "pfs:", "piofs:", "bgl:", "bglockless:", "zoidfs:",
        "gridftp:",
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncasecmp(name, prefixes[i], n) == 0)
            return name + n;
    }
    return name;
}

/* The normalized absolute path of an MPI_File_open name, or -1 when it
 * cannot be resolved or is not traced. */
static long traced_path(const char *filename, char *out, size_t outsz)
{
    if (filename == NULL)
        return -1;
    return iolens_posix_resolve_traced(strip_romio_prefix(filename), out, outsz);
}

/* ------------------------------------------------------ datatypes -- */

/* The size of the predefined datatypes most I/O uses, or 0 for any other.
 * Asking the MPI library (PMPI_Type_size_x, PMPI_Type_get_envelope) costs
 * two calls per access, a third of iolens's cost of a small
 * MPI_File_write_at; these handles are constants, never freed. */
static MPI_Count predefined_size(MPI_Datatype dt)
{
    if (dt == MPI_BYTE || dt == MPI_CHAR || dt == MPI_UNSIGNED_CHAR || dt == MPI_SIGNED_CHAR)
        return 1;
    if (dt == MPI_INT || dt == MPI_UNSIGNED)
        return (MPI_Count)sizeof(int);
    if (dt == MPI_FLOAT)
        return (MPI_Count)sizeof(float);
    if (dt == MPI_DOUBLE)
        return (MPI_Count)sizeof(double);
    if (dt == MPI_LONG || dt == MPI_UNSIGNED_LONG)
        return (MPI_Count)sizeof(long);
    if (dt == MPI_LONG_LONG || dt == MPI_UNSIGNED_LONG_LONG)
        return (MPI_Count)sizeof(long long);
    return 0;
}

/* Bytes of count items of dt (size x count, saturated). */
static int64_t access_bytes(MPI_Datatype dt, MPI_Count count)
{
    MPI_Count size = predefined_size(dt);
    if (count <= 0 || dt == MPI_DATATYPE_NULL)
        return 0;
    if (size == 0 && (IOLENS_PMPI(PMPI_Type_size_x) == NULL ||
                      IOLENS_PMPI(PMPI_Type_size_x)(dt, &size) != MPI_SUCCESS || size <= 0))
        return 0; /* also MPI_UNDEFINED: a size beyond MPI_Count */
    if (size > INT64_MAX / count)
        return INT64_MAX;
    return (int64_t)size * (int64_t)count;
}

/* 1 if dt is a derived datatype (not a predefined, named one). */
static int is_derived(MPI_Datatype dt)
{
    int nints, naddrs, ntypes, combiner;
    if (dt == MPI_DATATYPE_NULL || predefined_size(dt) > 0 ||
        IOLENS_PMPI(PMPI_Type_get_envelope) == NULL)
        return 0;
    if (IOLENS_PMPI(PMPI_Type_get_envelope)(dt, &nints, &naddrs, &ntypes, &combiner) !=
        MPI_SUCCESS)
        return 0;
    return combiner != MPI_COMBINER_NAMED;
}

/* What the layer learns about an access when it is issued. */
struct access {
    enum iolens_mpiio_dir dir;
    enum iolens_mpiio_kind kind;
    int64_t bytes;
    int derived;
};

static struct access describe(enum iolens_mpiio_dir dir, enum iolens_mpiio_kind kind,
                              MPI_Datatype dt, MPI_Count count)
{
    struct access a = {dir, kind, access_bytes(dt, count), is_derived(dt)};
    return a;
}

/* ------------------------------------------------------- counting -- */

/* Operation counter of each kind, by direction. */
static const int op_counter[4][2] = {
    [IOLENS_MPIIO_INDEP] = {MPIIO_INDEP_READS, MPIIO_INDEP_WRITES},
    [IOLENS_MPIIO_COLL] = {MPIIO_COLL_READS, MPIIO_COLL_WRITES},
    [IOLENS_MPIIO_SPLIT] = {MPIIO_SPLIT_READS, MPIIO_SPLIT_WRITES},
    [IOLENS_MPIIO_NB] = {MPIIO_NB_READS, MPIIO_NB_WRITES},
};

/* The counter indices that differ between reads and writes. */
struct rw_ids {
    int bytes, size0, max_time_size;
    int f_start, f_end, f_time, f_max_time;
    enum last_io kind;
};

static const struct rw_ids rw_ids[2] = {
    [IOLENS_MPIIO_READ] = {MPIIO_BYTES_READ, MPIIO_SIZE_READ_AGG_0_100, KEPT_MAX_READ_TIME_SIZE,
                           MPIIO_F_READ_START_TIMESTAMP, MPIIO_F_READ_END_TIMESTAMP,
                           MPIIO_F_READ_TIME, MPIIO_F_MAX_READ_TIME, IO_READ},
    [IOLENS_MPIIO_WRITE] = {MPIIO_BYTES_WRITTEN, MPIIO_SIZE_WRITE_AGG_0_100,
                            KEPT_MAX_WRITE_TIME_SIZE, MPIIO_F_WRITE_START_TIMESTAMP,
                            MPIIO_F_WRITE_END_TIMESTAMP, MPIIO_F_WRITE_TIME,
                            MPIIO_F_MAX_WRITE_TIME, IO_WRITE},
};

/* Under the record lock: the facts known at issue. */
static void count_issue(mpiio_rec *r, const struct access *a)
{
    const struct rw_ids *k = &rw_ids[a->dir];
    int64_t *c = r->counters;
    c[op_counter[a->kind][a->dir]]++;
    c[k->bytes] += a->bytes;
    c[k->size0 + iolens_size_bin(a->bytes)]++;
    if (a->bytes != 0) /* as Darshan: sizes of 0 are not common values */
        iolens_common_add(&r->sizes, a->bytes);
    c[MPIIO_DERIVED_DATATYPES] += a->derived;
    if (r->last_io != k->kind) {
        c[MPIIO_RW_SWITCHES] += r->last_io != IO_NONE;
        r->last_io = k->kind;
    }
}

/* Under the record lock: an operation of bytes that ran from t0 to t1. */
static void count_time(mpiio_rec *r, enum iolens_mpiio_dir dir, int64_t bytes, double t0,
                       double t1)
{
    const struct rw_ids *k = &rw_ids[dir];
    double *f = r->fcounters;
    struct busy *busy = dir == IOLENS_MPIIO_READ ? &r->read_busy : &r->write_busy;
    iolens_note_earliest(&f[k->f_start], t0);
    iolens_note_last(&f[k->f_end], t1);
    f[k->f_time] = busy_add(f[k->f_time], busy, t0, t1);
    if (t1 - t0 > f[k->f_max_time]) {
        f[k->f_max_time] = t1 - t0;
        r->counters[k->max_time_size] = bytes;
    }
    /* Every access ends here (blocking, split, nonblocking at completion):
     * its interval for BPS (layer_intervals.h). */
    iolens_intervals_add(IOLENS_LAYER_MPIIO, t0, t1, r->id, bytes,
                         dir == IOLENS_MPIIO_READ ? IOLENS_IV_READ : IOLENS_IV_WRITE);
}

/* Counts one metadata operation (counter, or -1 for time only). */
static void count_meta(mpiio_rec *r, int counter, double t0, double t1)
{
    iolens_lock_always(&r->lock);
    if (counter >= 0)
        r->counters[counter]++;
    add_meta_time(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

/* --------------------------------------------------- handle table -- */

#define KEY_EMPTY ((uintptr_t)0)
#define KEY_TOMB ((uintptr_t)1)
#define MAX_FILE_SLOTS 512u
#define MIN_SLOTS 16u

struct file_slot {
    _Atomic uintptr_t key;      /* the MPI_File, or KEY_EMPTY/KEY_TOMB */
    mpiio_rec *rec;
    /* The previous access through the handle (byte offsets, -1 none), for
     * the pattern detector; changed under the record's lock. */
    int64_t last_start, last_end;
    /* While the view is plain bytes (etype and filetype MPI_BYTE, as after
     * the open) the byte offset of etype 0, so that an offset needs no
     * call to MPI; -1 under any other view. */
    int64_t bytes_view_disp;
    /* The split collective in progress on the handle. */
    int split_active;
    enum iolens_mpiio_dir split_dir;
    int64_t split_bytes;
    double split_t0;
};

static struct file_slot *file_slots;
static unsigned file_bits;
static _Atomic int file_table_lock;
static void ensure_tables(void); /* "start-up" below */

static size_t file_nslots(void)
{
    return (size_t)1 << file_bits;
}

static size_t file_home(uintptr_t key)
{
    uint64_t h = (uint64_t)(key >> 4) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> (64 - file_bits));
}

/* Lock-free: the slot of a tracked handle, or NULL. */
static struct file_slot *find_file(MPI_File fh)
{
    uintptr_t want = (uintptr_t)fh;
    if (__atomic_load_n(&file_slots, __ATOMIC_ACQUIRE) == NULL || want <= KEY_TOMB)
        return NULL;
    size_t mask = file_nslots() - 1;
    size_t i = file_home(want);
    for (size_t n = 0; n < file_nslots(); n++, i = (i + 1) & mask) {
        uintptr_t key = atomic_load_explicit(&file_slots[i].key, memory_order_acquire);
        if (key == want)
            return &file_slots[i];
        if (key == KEY_EMPTY)
            return NULL;
    }
    return NULL;
}

/* Under the table lock: the handle's slot if it is there already (a
 * handle closed behind our back and handed out again), else a free one. */
static struct file_slot *claim_file_slot(MPI_File fh)
{
    struct file_slot *slot = find_file(fh);
    if (slot != NULL)
        return slot;
    size_t mask = file_nslots() - 1;
    size_t i = file_home((uintptr_t)fh);
    for (size_t n = 0; n < file_nslots(); n++, i = (i + 1) & mask) {
        uintptr_t key = atomic_load_explicit(&file_slots[i].key, memory_order_relaxed);
        if (key == KEY_EMPTY || key == KEY_TOMB)
            return &file_slots[i];
    }
    return NULL;
}

/* Under the table lock.  A slot followed by an empty one ends no probe
 * chain, so it (and tombstones before it) can become empty again. */
static void release_file_slot(struct file_slot *slot)
{
    size_t mask = file_nslots() - 1;
    size_t i = (size_t)(slot - file_slots);
    if (atomic_load_explicit(&file_slots[(i + 1) & mask].key, memory_order_relaxed) !=
        KEY_EMPTY) {
        atomic_store_explicit(&slot->key, KEY_TOMB, memory_order_release);
        return;
    }
    atomic_store_explicit(&slot->key, KEY_EMPTY, memory_order_release);
    for (size_t n = 1; n < file_nslots(); n++) {
        size_t j = (i - n) & mask;
        if (atomic_load_explicit(&file_slots[j].key, memory_order_relaxed) != KEY_TOMB)
            break;
        atomic_store_explicit(&file_slots[j].key, KEY_EMPTY, memory_order_release);
    }
}

static void track_file(MPI_File fh, mpiio_rec *r)
{
    if (__atomic_load_n(&file_slots, __ATOMIC_ACQUIRE) == NULL || (uintptr_t)fh <= KEY_TOMB)
        return;
    iolens_lock_always(&file_table_lock);
    struct file_slot *slot = claim_file_slot(fh);
    if (slot != NULL) {
        slot->rec = r;
        slot->last_start = slot->last_end = -1;
        slot->bytes_view_disp = 0;   /* the default view */
        slot->split_active = 0;
        atomic_store_explicit(&slot->key, (uintptr_t)fh, memory_order_release);
    }
    iolens_unlock_always(&file_table_lock);
}

static mpiio_rec *untrack_file(MPI_File fh)
{
    mpiio_rec *r = NULL;
    if (__atomic_load_n(&file_slots, __ATOMIC_ACQUIRE) == NULL)
        return NULL;
    iolens_lock_always(&file_table_lock);
    struct file_slot *slot = find_file(fh);
    if (slot != NULL) {
        r = slot->rec;
        release_file_slot(slot);
    }
    iolens_unlock_always(&file_table_lock);
    return r;
}

static mpiio_rec *rec_of(MPI_File fh)
{
    struct file_slot *slot = find_file(fh);
    return slot != NULL ? slot->rec : NULL;
}

int iolens_mpiio_is_traced(MPI_File fh)
{
    return find_file(fh) != NULL;
}

/* -------------------------------------------------- request table -- */

#define REQ_EMPTY INT64_MIN
#define REQ_TOMB (INT64_MIN + 1)
#define MAX_REQ_SLOTS (2u * IOLENS_MPIIO_MAX_PENDING)

/* A request's key in the table: MPICH's MPI_Request is an int, Open MPI's
 * a pointer; either converts to an integer of its value through intptr_t
 * (an int widens, a pointer becomes its address).  A handle whose key is
 * one of the two markers (no int is; a pointer would have to be near
 * 2^63) is not remembered: its access is timed at issue. */
_Static_assert(sizeof(MPI_Request) <= sizeof(int64_t), "MPI_Request fits a table key");

static int64_t request_key(MPI_Request req)
{
    return (int64_t)(intptr_t)req;
}

static int request_key_usable(int64_t key)
{
    return key != REQ_EMPTY && key != REQ_TOMB;
}

struct req_slot {
    int64_t key;                /* the request, or REQ_EMPTY/REQ_TOMB */
    uint64_t seq;               /* issue number: tells reused handles apart */
    mpiio_rec *rec;
    int64_t bytes;
    double t0;                  /* start of the issuing call */
    enum iolens_mpiio_dir dir;
};

_Atomic int iolens_mpiio_pending;
static struct req_slot *req_slots;
static unsigned req_bits;
static int req_capacity;        /* most entries at once (half the slots) */
static uint64_t req_seq;
static _Atomic int req_table_lock;

static size_t req_nslots(void)
{
    return (size_t)1 << req_bits;
}

static size_t req_home(int64_t key)
{
    uint64_t h = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> (64 - req_bits));
}

/* Under the table lock: the newest entry of key (a handle value MPI gave
 * again while the old entry awaits settling), or -1. */
static long find_req(int64_t key)
{
    size_t mask = req_nslots() - 1;
    size_t i = req_home(key);
    long best = -1;
    for (size_t n = 0; n < req_nslots(); n++, i = (i + 1) & mask) {
        if (req_slots[i].key == REQ_EMPTY)
            break;
        if (req_slots[i].key == key && (best < 0 || req_slots[i].seq > req_slots[best].seq))
            best = (long)i;
    }
    return best;
}

/* Under the table lock: remembers a request; 0, or -1 when full. */
static int insert_req(int64_t key, mpiio_rec *r, const struct access *a, double t0)
{
    if (__atomic_load_n(&req_slots, __ATOMIC_ACQUIRE) == NULL ||
        atomic_load_explicit(&iolens_mpiio_pending, memory_order_relaxed) >= req_capacity)
        return -1;
    size_t mask = req_nslots() - 1;
    size_t i = req_home(key);
    while (req_slots[i].key != REQ_EMPTY && req_slots[i].key != REQ_TOMB)
        i = (i + 1) & mask; /* ends: at most half the slots are in use */
    req_slots[i] = (struct req_slot){key, ++req_seq, r, a->bytes, t0, a->dir};
    atomic_fetch_add_explicit(&iolens_mpiio_pending, 1, memory_order_release);
    return 0;
}

/* Under the table lock, as release_file_slot. */
static void release_req_slot(size_t i)
{
    size_t mask = req_nslots() - 1;
    if (req_slots[(i + 1) & mask].key != REQ_EMPTY) {
        req_slots[i].key = REQ_TOMB;
    } else {
        req_slots[i].key = REQ_EMPTY;
        for (size_t n = 1; n < req_nslots(); n++) {
            size_t j = (i - n) & mask;
            if (req_slots[j].key != REQ_TOMB)
                break;
            req_slots[j].key = REQ_EMPTY;
        }
    }
    atomic_fetch_sub_explicit(&iolens_mpiio_pending, 1, memory_order_release);
}

void iolens_mpiio_watch(struct iolens_mpiio_watch *w, const MPI_Request *reqs, int count)
{
    w->n = 0;
    if (__atomic_load_n(&req_slots, __ATOMIC_ACQUIRE) == NULL || reqs == NULL)
        return;
    iolens_lock_always(&req_table_lock);
    for (int i = 0; i < count && w->n < IOLENS_MPIIO_MAX_PENDING; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        int64_t key = request_key(reqs[i]);
        long slot = request_key_usable(key) ? find_req(key) : -1;
        if (slot < 0)
            continue;
        w->req[w->n].index = i;
        w->req[w->n].slot = (unsigned)slot;
        w->req[w->n].seq = req_slots[slot].seq;
        w->n++;
    }
    iolens_unlock_always(&req_table_lock);
}

/* Takes a watched entry out of the table if it is still there. */
static int take_req(unsigned slot, uint64_t seq, struct req_slot *out)
{
    int found = 0;
    iolens_lock_always(&req_table_lock);
    struct req_slot *s = &req_slots[slot];
    if (s->key != REQ_EMPTY && s->key != REQ_TOMB && s->seq == seq) {
        *out = *s;
        release_req_slot(slot);
        found = 1;
    }
    iolens_unlock_always(&req_table_lock);
    return found;
}

void iolens_mpiio_settle(const struct iolens_mpiio_watch *w, const MPI_Request *reqs, double t1)
{
    for (int i = 0; i < w->n; i++) {
        struct req_slot done;
        if (reqs[w->req[i].index] != MPI_REQUEST_NULL ||
            !take_req(w->req[i].slot, w->req[i].seq, &done))
            continue;
        iolens_lock_always(&done.rec->lock);
        count_time(done.rec, done.dir, done.bytes, done.t0, t1);
        iolens_unlock_always(&done.rec->lock);
    }
}

/* ---------------------------------------------------- entry points -- */

void iolens_mpiio_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                       MPI_File fh, double t0, double t1)
{
    char abspath[PATH_MAX];
    long len = traced_path(filename, abspath, sizeof abspath);
    if (len < 0) {
        untrack_file(fh); /* forget a stale entry of the same handle */
        return;
    }
    ensure_tables();
    iolens_intervals_take_store(IOLENS_LAYER_MPIIO);
    int nprocs = 1;
    if (IOLENS_PMPI(PMPI_Comm_size) == NULL ||
        IOLENS_PMPI(PMPI_Comm_size)(comm, &nprocs) != MPI_SUCCESS)
        nprocs = 1;
    mpiio_rec *r = record_for_open(abspath, (size_t)len);
    if (r == NULL)
        return;
    track_file(fh, r);

    iolens_lock_always(&r->lock);
    r->counters[nprocs > 1 ? MPIIO_COLL_OPENS : MPIIO_INDEP_OPENS]++;
    r->counters[MPIIO_HINTS] += info != MPI_INFO_NULL;
    r->counters[MPIIO_MODE] = amode;
    iolens_note_earliest(&r->fcounters[MPIIO_F_OPEN_START_TIMESTAMP], t0);
    iolens_note_last(&r->fcounters[MPIIO_F_OPEN_END_TIMESTAMP], t1);
    add_meta_time(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

mpiio_rec *iolens_mpiio_close_begin(MPI_File fh)
{
    return untrack_file(fh);
}

void iolens_mpiio_close_end(mpiio_rec *r, double t0, double t1)
{
    /* Not iolens_layer_close_end: that helper finds the fcounters through
     * the on-disk struct, which this compact record does not hold. */
    if (r == NULL)
        return;
    iolens_lock_always(&r->lock);
    iolens_note_earliest(&r->fcounters[MPIIO_F_CLOSE_START_TIMESTAMP], t0);
    iolens_note_last(&r->fcounters[MPIIO_F_CLOSE_END_TIMESTAMP], t1);
    add_meta_time(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

void iolens_mpiio_sync(MPI_File fh, double t0, double t1)
{
    mpiio_rec *r = rec_of(fh);
    if (r != NULL)
        count_meta(r, MPIIO_SYNCS, t0, t1);
}

void iolens_mpiio_meta(MPI_File fh, double t0, double t1)
{
    mpiio_rec *r = rec_of(fh);
    if (r != NULL)
        count_meta(r, -1, t0, t1);
}

void iolens_mpiio_set_info(MPI_File fh, double t0, double t1)
{
    mpiio_rec *r = rec_of(fh);
    if (r != NULL)
        count_meta(r, MPIIO_HINTS, t0, t1);
}

void iolens_mpiio_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                           MPI_Datatype filetype, double t0, double t1)
{
    struct file_slot *slot = find_file(fh);
    if (slot == NULL)
        return;
    slot->bytes_view_disp = etype == MPI_BYTE && filetype == MPI_BYTE && disp >= 0 ? disp : -1;
    mpiio_rec *r = slot->rec;
    int derived = is_derived(filetype);
    iolens_lock_always(&r->lock);
    r->counters[MPIIO_VIEWS]++;
    r->counters[MPIIO_DERIVED_VIEWS] += derived;
    add_meta_time(r, t0, t1);
    iolens_unlock_always(&r->lock);
}

/* The absolute byte offset of position at (etypes, relative to the
 * handle's current view), or -1 when unknown.  Asked before the record
 * lock is taken: no MPI call runs under a spinlock. */
static int64_t byte_offset(MPI_File fh, const struct file_slot *slot, MPI_Offset at)
{
    if (at >= 0 && slot->bytes_view_disp >= 0)
        return at > INT64_MAX - slot->bytes_view_disp ? -1 : slot->bytes_view_disp + at;
    MPI_Offset disp;
    if (at < 0 || IOLENS_PMPI(PMPI_File_get_byte_offset) == NULL ||
        IOLENS_PMPI(PMPI_File_get_byte_offset)(fh, at, &disp) != MPI_SUCCESS || disp < 0)
        return -1;
    return (int64_t)disp;
}

/* Under the record lock: the access's step from the previous access
 * through the same handle, for the pattern detector (access_pattern.h). */
static void count_offset(mpiio_rec *r, struct file_slot *slot, int64_t start, int64_t bytes)
{
    if (start < 0)
        return;
    if (slot->last_start >= 0) {
        r->pat.consec += iolens_is_consecutive(start, slot->last_end);
        r->pat.seq += iolens_is_sequential(start, slot->last_end);
        iolens_pat_step(&r->pat, start - slot->last_start);
    }
    slot->last_start = start;
    slot->last_end = bytes > INT64_MAX - start ? INT64_MAX : start + bytes;
}

void iolens_mpiio_access(MPI_File fh, enum iolens_mpiio_dir dir, enum iolens_mpiio_kind kind,
                         MPI_Datatype dt, MPI_Count count, double t0, double t1)
{
    iolens_mpiio_access_at(fh, dir, kind, dt, count, IOLENS_MPIIO_AT_UNKNOWN, t0, t1);
}

void iolens_mpiio_access_at(MPI_File fh, enum iolens_mpiio_dir dir, enum iolens_mpiio_kind kind,
                            MPI_Datatype dt, MPI_Count count, MPI_Offset at, double t0,
                            double t1)
{
    struct file_slot *slot = find_file(fh);
    if (slot == NULL)
        return;
    mpiio_rec *r = slot->rec;
    struct access a = describe(dir, kind, dt, count);
    int64_t start = byte_offset(fh, slot, at);
    iolens_lock_always(&r->lock);
    count_issue(r, &a);
    count_offset(r, slot, start, a.bytes);
    count_time(r, dir, a.bytes, t0, t1);
    iolens_unlock_always(&r->lock);
}

void iolens_mpiio_failed_access(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                                MPI_Count count, double t0, double t1)
{
    mpiio_rec *r = rec_of(fh);
    if (r == NULL)
        return;
    uint32_t flags = IOLENS_IV_FAILED |
                     (dir == IOLENS_MPIIO_READ ? IOLENS_IV_READ : IOLENS_IV_WRITE);
    iolens_intervals_add(IOLENS_LAYER_MPIIO, t0, t1, r->id, access_bytes(dt, count), flags);
}

void iolens_mpiio_split_begin(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                              MPI_Count count, double t0)
{
    iolens_mpiio_split_begin_at(fh, dir, dt, count, IOLENS_MPIIO_AT_UNKNOWN, t0);
}

void iolens_mpiio_split_begin_at(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                                 MPI_Count count, MPI_Offset at, double t0)
{
    struct file_slot *slot = find_file(fh);
    if (slot == NULL)
        return;
    mpiio_rec *r = slot->rec;
    struct access a = describe(dir, IOLENS_MPIIO_SPLIT, dt, count);
    int64_t start = byte_offset(fh, slot, at);
    iolens_lock_always(&r->lock);
    count_issue(r, &a);
    count_offset(r, slot, start, a.bytes);
    slot->split_active = 1;
    slot->split_dir = dir;
    slot->split_bytes = a.bytes;
    slot->split_t0 = t0;
    iolens_unlock_always(&r->lock);
}

void iolens_mpiio_split_end(MPI_File fh, double t1)
{
    struct file_slot *slot = find_file(fh);
    if (slot == NULL)
        return;
    mpiio_rec *r = slot->rec;
    iolens_lock_always(&r->lock);
    if (slot->split_active) {
        slot->split_active = 0;
        count_time(r, slot->split_dir, slot->split_bytes, slot->split_t0, t1);
    }
    iolens_unlock_always(&r->lock);
}

void iolens_mpiio_issue(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                        MPI_Count count, MPI_Request req, double t0, double t1)
{
    iolens_mpiio_issue_at(fh, dir, dt, count, IOLENS_MPIIO_AT_UNKNOWN, req, t0, t1);
}

void iolens_mpiio_issue_at(MPI_File fh, enum iolens_mpiio_dir dir, MPI_Datatype dt,
                           MPI_Count count, MPI_Offset at, MPI_Request req, double t0,
                           double t1)
{
    struct file_slot *slot = find_file(fh);
    if (slot == NULL)
        return;
    mpiio_rec *r = slot->rec;
    struct access a = describe(dir, IOLENS_MPIIO_NB, dt, count);
    int64_t start = byte_offset(fh, slot, at);
    int remembered = -1;
    if (req != MPI_REQUEST_NULL && request_key_usable(request_key(req))) {
        iolens_lock_always(&req_table_lock);
        remembered = insert_req(request_key(req), r, &a, t0);
        iolens_unlock_always(&req_table_lock);
    }
    iolens_lock_always(&r->lock);
    count_issue(r, &a);
    count_offset(r, slot, start, a.bytes);
    if (remembered != 0)
        count_time(r, dir, a.bytes, t0, t1); /* no room to wait for completion */
    iolens_unlock_always(&r->lock);
}

/* -------------------------------------------------------- start-up -- */

/* The table size in slots: max_slots, halved while it takes more than
 * 1/32 of the budget. */
static unsigned table_bits(size_t budget, size_t max_slots, size_t slot_size)
{
    size_t n = max_slots;
    while (n > MIN_SLOTS && n * slot_size > budget / 32)
        n /= 2;
    unsigned bits = 0;
    while (((size_t)1 << bits) < n)
        bits++;
    return bits;
}

/* The tables' bytes at a budget (scaled allocations, budget.h). */
static size_t file_table_bytes(size_t budget)
{
    return sizeof(struct file_slot) << table_bits(budget, MAX_FILE_SLOTS, sizeof(struct file_slot));
}

static size_t req_table_bytes(size_t budget)
{
    return sizeof(struct req_slot) << table_bits(budget, MAX_REQ_SLOTS, sizeof(struct req_slot));
}

/* The tables and <other files>' record, taken once: at start-up in an
 * MPI program, else (a process traced before it loaded MPI) at its first
 * MPI_File_open.  A process without MPI pays nothing. */
static _Atomic int tables_taken;
static _Atomic int tables_lock;

/* Each table is published (a release store of its pointer) once its
 * size and empty keys are in place, and the entry points test the
 * pointer with an acquire load, so that a thread already making MPI-IO
 * calls when another takes them late sees either no table or a whole
 * one. */
static void take_tables(void *unused)
{
    (void)unused;
    size_t budget = iolens_budget_size();
    file_bits = table_bits(budget, MAX_FILE_SLOTS, sizeof(struct file_slot));
    __atomic_store_n(&file_slots, iolens_budget_alloc_scaled(file_table_bytes), __ATOMIC_RELEASE);

    req_bits = table_bits(budget, MAX_REQ_SLOTS, sizeof(struct req_slot));
    struct req_slot *reqs = iolens_budget_alloc_scaled(req_table_bytes);
    if (reqs != NULL) {
        for (size_t i = 0; i < req_nslots(); i++)
            reqs[i].key = REQ_EMPTY;
        req_capacity = (int)(req_nslots() / 2);
    }
    __atomic_store_n(&req_slots, reqs, __ATOMIC_RELEASE);
    record_of(iolens_file_other()); /* so that folding never needs memory */
}

static void ensure_tables(void)
{
    iolens_once(&tables_taken, &tables_lock, take_tables, NULL);
}

static void layer_init(void)
{
    atomic_store(&tables_taken, 0);
    if (iolens_mpi_calls_usable())
        ensure_tables();
}

/* ------------------------------------------------ the layer's entry -- */

static int has_activity(const struct iolens_mpiio_record *d)
{
    static const int ops[] = {
        MPIIO_INDEP_OPENS, MPIIO_COLL_OPENS,  MPIIO_INDEP_READS, MPIIO_INDEP_WRITES,
        MPIIO_COLL_READS,  MPIIO_COLL_WRITES, MPIIO_SPLIT_READS, MPIIO_SPLIT_WRITES,
        MPIIO_NB_READS,    MPIIO_NB_WRITES,   MPIIO_SYNCS,       MPIIO_HINTS,
        MPIIO_VIEWS,
    };
    return iolens_counters_any(d->counters, ops, sizeof ops / sizeof ops[0]);
}

static int pack(void *rec, void *record)
{
    mpiio_rec *r = rec;
    struct iolens_mpiio_record *out = record;
    struct iolens_access_pattern pat;
    memset(out, 0, sizeof *out);
    iolens_lock_always(&r->lock);
    out->id = r->id;   /* rank 0: the log writer sets a rank's */
    memcpy(out->counters, r->counters, KEPT_AT_OWN_INDEX * sizeof *out->counters);
    out->counters[MPIIO_MAX_READ_TIME_SIZE] = r->counters[KEPT_MAX_READ_TIME_SIZE];
    out->counters[MPIIO_MAX_WRITE_TIME_SIZE] = r->counters[KEPT_MAX_WRITE_TIME_SIZE];
    memcpy(out->fcounters, r->fcounters, sizeof r->fcounters);
    /* Under the lock: the table's outer slots are not in a copy. */
    out->counters[MPIIO_ACCESS_TOP_STATE] =
        iolens_common_top(&r->sizes, 4, &out->counters[MPIIO_ACCESS1_ACCESS],
                          &out->counters[MPIIO_ACCESS1_COUNT]);
    pat = r->pat;
    iolens_unlock_always(&r->lock);
    iolens_pat_pack(&pat, &out->counters[MPIIO_PAT_STEPS]);
    return has_activity(out);
}

static void clear_record(void *rec, struct iolens_file *file)
{
    (void)file;
    clear_counters(rec);
}

static void release_layer_locks(void)
{
    iolens_unlock_always(&file_table_lock);
    iolens_unlock_always(&req_table_lock);
    iolens_unlock_always(&tables_lock);
}

/* The parent's requests are not the child's to complete. */
static void layer_reset(void)
{
    if (req_slots != NULL)
        for (size_t i = 0; i < req_nslots(); i++)
            req_slots[i].key = REQ_EMPTY;
    iolens_unlock_always(&iolens_mpiio_pending);
}

_Static_assert(sizeof(struct iolens_mpiio_record) <= IOLENS_LAYER_RECORD_MAX, "record size");

/* Started after the POSIX and STDIO layers (enum order). */
IOLENS_LAYER_OPS(mpiio_ops) = {
    .layer = IOLENS_LAYER_MPIIO,
    .region_kind = IOLENS_REGION_MPIIO,
    .empty_region = IOLENS_EMPTY_IN_JOB_LOG,
    .lock_offset = offsetof(mpiio_rec, lock),
    .can_record = iolens_mpi_calls_usable,      /* an MPI program, of our MPI */
    /* No on-disk struct inside: the record is compact (see KEPT_*), made
     * by init_rec and packed by pack, so nothing uses this offset. */
    .disk_offset = 0,
    .init = layer_init,
    .release_locks = release_layer_locks,
    .reset = layer_reset,
    .pack = pack,
    .clear_record = clear_record,
};
