/*
 * The interval store (see interval_store.h).
 *
 * Appending writes one entry at the end.  When the store is full it
 * compacts to half its capacity.  Nothing allocates.  First, two O(n)
 * passes in append order, which is nearly time order for each file:
 *
 *  A. every entry is compared with the latest kept entry of its file
 *     (found in a small direct-mapped table of recent files on the stack;
 *     a file that loses its slot just misses merges for a while): if they
 *     overlap or touch they merge, exactly; otherwise the gap between them
 *     goes into a histogram of log2 buckets.  Once a pass B has run, pass
 *     A also merges gaps as B did then, with the bucket B chose: a steady
 *     stream needs just this one pass;
 *  B. if still above the target, the histogram gives the smallest bucket
 *     B such that the gaps of buckets <= B are enough merges; a second
 *     pass merges every same-file neighbour whose gap is in a bucket below
 *     B, and those in bucket B left to right until enough merges are done,
 *     each merged gap added to error_bound.  This is the smallest-gap rule
 *     within a factor of 2: among the same-file neighbours the passes see,
 *     no gap merged is more than twice as long as a gap left (except in
 *     the end buckets, below 2^-19 or from 2^43 clock units, which are
 *     open-ended).
 *
 * Only if that is not enough (many interleaved files, or more files than
 * the table holds), the sort-based path, in three steps:
 *
 *  1. sort by (file, start) and merge same-file intervals that overlap or
 *     touch: exact, the union of every file (and of the layer) is the same;
 *  2. if still above the target, merge the same-file neighbours with the
 *     smallest gaps: the merged interval covers the gap, which is added to
 *     error_bound (an upper bound of what the union grew by);
 *  3. only if the store holds more distinct runs than the target (very many
 *     files), sort by start and merge neighbours of any files with the
 *     smallest gaps; a merged interval of two files gets the file id
 *     IOLENS_ID_OTHER_FILES and IOLENS_IV_MIXED, so per-file unions are
 *     kept for every file until the store has no room left for it.
 *
 * There "the smallest gaps" are chosen exactly with a radix selection of
 * the k-th smallest gap (8 passes over the store, 256 counters on the
 * stack).  A compaction asked for with nothing to free (count <= target,
 * only from tests) takes the sort-based path: it tidies the store into
 * (file, start) order.
 */
#include "layers/interval_store.h"

#include <math.h>     /* INFINITY */
#include <string.h>

#include "iolens/log_format.h"

#include "core/spinlock.h"

typedef struct iolens_interval interval;

/* ------------------------------------------------------------- lock -- */

/* Same scheme as the POSIX record lock: skipped while single-threaded;
 * returns whether it took the lock. */
static int lock_store(struct iolens_interval_store *s)
{
    return iolens_lock(&s->lock);
}

static void unlock_store(struct iolens_interval_store *s, int held)
{
    iolens_unlock(&s->lock, held);
}

/* ------------------------------------------------- in-place sorting -- */

/* Introsort (quicksort, heap sort past a depth limit, insertion sort for
 * short ranges), in place and without recursion deeper than O(log n).
 * The order is by start, or by file and then start; the comparison is
 * inlined, which makes it several times faster than qsort (which may
 * also allocate). */
#define INSERTION_MAX 16

static inline int less(const interval *a, const interval *b, int by_file)
{
    if (by_file && a->file_id != b->file_id)
        return a->file_id < b->file_id;
    return a->start < b->start;
}

static inline void swap_iv(interval *a, interval *b)
{
    interval t = *a;
    *a = *b;
    *b = t;
}

static void insertion_sort(interval *v, size_t n, int by_file)
{
    for (size_t i = 1; i < n; i++) {
        interval x = v[i];
        size_t j = i;
        for (; j > 0 && less(&x, &v[j - 1], by_file); j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static void sift_down(interval *v, size_t root, size_t n, int by_file)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && less(&v[child], &v[child + 1], by_file))
            child++;
        if (!less(&v[root], &v[child], by_file))
            return;
        swap_iv(&v[root], &v[child]);
    }
}

static void heap_sort(interval *v, size_t n, int by_file)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n, by_file);
    for (size_t end = n; end-- > 1;) {
        swap_iv(&v[0], &v[end]);
        sift_down(v, 0, end, by_file);
    }
}

/* Hoare partition around the median of three; returns p with every
 * v[0..p) <= every v[p..n), 0 < p < n. */
static size_t partition(interval *v, size_t n, int by_file)
{
    size_t mid = n / 2;
    if (less(&v[mid], &v[0], by_file))
        swap_iv(&v[mid], &v[0]);
    if (less(&v[n - 1], &v[0], by_file))
        swap_iv(&v[n - 1], &v[0]);
    if (less(&v[n - 1], &v[mid], by_file))
        swap_iv(&v[n - 1], &v[mid]);
    interval pivot = v[mid];
    size_t i = 0, j = n - 1;
    for (;;) {
        while (less(&v[i], &pivot, by_file))
            i++;
        while (less(&pivot, &v[j], by_file))
            j--;
        if (i >= j)
            return j + 1;
        swap_iv(&v[i++], &v[j--]);
    }
}

static void intro_sort(interval *v, size_t n, unsigned depth, int by_file)
{
    while (n > INSERTION_MAX) {
        if (depth-- == 0) {
            heap_sort(v, n, by_file);
            return;
        }
        size_t p = partition(v, n, by_file);
        if (p < n - p) {
            intro_sort(v, p, depth, by_file);
            v += p;
            n -= p;
        } else {
            intro_sort(v + p, n - p, depth, by_file);
            n = p;
        }
    }
    insertion_sort(v, n, by_file);
}

static void sort_intervals(interval *v, size_t n, int by_file)
{
    unsigned depth = 0;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    intro_sort(v, n, depth, by_file);
}

/* ------------------------------------------------------ merging -- */

/* Folds b into a. */
static inline void absorb(interval *a, const interval *b)
{
    if (b->start < a->start)
        a->start = b->start;
    if (b->end > a->end)
        a->end = b->end;
    a->bytes += b->bytes;
    a->busy += b->busy;
    /* saturates: 2^32 accesses in one interval must not wrap to 0 */
    a->accesses = b->accesses > UINT32_MAX - a->accesses ? UINT32_MAX : a->accesses + b->accesses;
    a->flags |= b->flags;
    if (a->file_id != b->file_id) {
        a->file_id = IOLENS_ID_OTHER_FILES;
        a->flags |= IOLENS_IV_MIXED;
    }
}

/* Step 1: exact merge of same-file intervals that overlap or touch
 * (the store must be sorted by file, then start). */
static void merge_overlaps(struct iolens_interval_store *s)
{
    size_t out = 0;
    for (size_t i = 1; i < s->count; i++) {
        interval *cur = &s->iv[out];
        if (s->iv[i].file_id == cur->file_id && s->iv[i].start <= cur->end)
            absorb(cur, &s->iv[i]);
        else
            s->iv[++out] = s->iv[i];
    }
    if (s->count > 0)
        s->count = out + 1;
}

/* ---------------------------------------------- gap selection -- */

/* Order-preserving map of a double to an unsigned key. */
static uint64_t gap_key(double g)
{
    uint64_t u;
    memcpy(&u, &g, sizeof u);
    return (u >> 63) ? ~u : u | (1ull << 63);
}

/* The gap before entry i, if it may be merged with entry i - 1. */
static int gap_before(const struct iolens_interval_store *s, size_t i, int same_file,
                      uint64_t *key)
{
    const interval *a = &s->iv[i - 1], *b = &s->iv[i];
    if (same_file && a->file_id != b->file_id)
        return 0;
    *key = gap_key(b->start - a->end);
    return 1;
}

/* Radix selection: the k-th smallest (k >= 1) mergeable gap key, one byte
 * per pass from the top; *below gets how many keys are smaller.  Returns
 * 0 if there are fewer than k mergeable gaps. */
static int kth_gap(const struct iolens_interval_store *s, int same_file, size_t k,
                   uint64_t *kth, size_t *below)
{
    uint64_t prefix = 0;
    size_t smaller = 0;
    for (int shift = 56; shift >= 0; shift -= 8) {
        size_t hist[256] = {0};
        uint64_t high_mask = shift == 56 ? 0 : ~0ull << (shift + 8);
        for (size_t i = 1; i < s->count; i++) {
            uint64_t key;
            if (gap_before(s, i, same_file, &key) && (key & high_mask) == prefix)
                hist[(key >> shift) & 0xff]++;
        }
        unsigned digit = 0;
        while (digit < 256 && smaller + hist[digit] < k)
            smaller += hist[digit++];
        if (digit == 256)
            return 0;
        prefix |= (uint64_t)digit << shift;
    }
    *kth = prefix;
    *below = smaller;
    return 1;
}

static size_t count_mergeable(const struct iolens_interval_store *s, int same_file)
{
    size_t n = 0;
    uint64_t key;
    for (size_t i = 1; i < s->count; i++)
        n += (size_t)gap_before(s, i, same_file, &key);
    return n;
}

/* Steps 2 and 3: merges the `merges` mergeable neighbours with the smallest
 * gaps (ties broken left to right), or every mergeable pair if there are
 * fewer.  Gaps are those between original neighbours, as kth_gap saw them.
 * Returns the number of merges done. */
static size_t merge_smallest_gaps(struct iolens_interval_store *s, size_t merges, int same_file)
{
    uint64_t kth;
    size_t below, available = count_mergeable(s, same_file);
    if (merges > available)
        merges = available;
    if (merges == 0 || !kth_gap(s, same_file, merges, &kth, &below))
        return 0;
    size_t ties = merges - below, out = 0;
    for (size_t i = 1; i < s->count; i++) {
        uint64_t key;
        int take = gap_before(s, i, same_file, &key) &&
                   (key < kth || (key == kth && ties > 0 && ties--));
        interval *cur = &s->iv[out];
        if (take) {
            /* What the union may grow by: the part of the gap not
             * already covered by the interval being extended. */
            if (s->iv[i].start > cur->end)
                s->error_bound += s->iv[i].start - cur->end;
            absorb(cur, &s->iv[i]);
        } else {
            s->iv[++out] = s->iv[i];
        }
    }
    s->count = out + 1;
    return merges;
}

/* ------------------------------------------------- O(n) passes -- */

#define RECENT_FILES 64         /* direct-mapped table of recent files */
#define GAP_BUCKETS 64          /* log2 buckets, 2^-20 .. 2^43 clock units */
#define GAP_BUCKET_SHIFT 20
#define HIST_LANES 4            /* histograms counted in turn, then summed */

struct recent_files {
    uint64_t file[RECENT_FILES];
    size_t kept[RECENT_FILES];  /* index of the file's latest kept entry */
    unsigned char used[RECENT_FILES];
};

static unsigned recent_slot(uint64_t file_id)
{
    return (unsigned)((file_id * 0x9E3779B97F4A7C15ull) >> 58);   /* top 6 bits */
}

static void recent_put(struct recent_files *r, uint64_t file_id, size_t kept)
{
    unsigned k = recent_slot(file_id);
    r->used[k] = 1;
    r->file[k] = file_id;
    r->kept[k] = kept;
}

/* Whether the table knows the file's latest kept entry (then in *kept). */
static int recent_get(const struct recent_files *r, uint64_t file_id, size_t *kept)
{
    unsigned k = recent_slot(file_id);
    if (!r->used[k] || r->file[k] != file_id)
        return 0;
    *kept = r->kept[k];
    return 1;
}

/* The empty time between two intervals; <= 0 if they overlap or touch. */
static double gap_between(const interval *a, const interval *b)
{
    double after = b->start - a->end, before = a->start - b->end;
    return after > before ? after : before;
}

/* The log2 bucket of a gap > 0 (clamped to the ends). */
static unsigned gap_bucket(double gap)
{
    uint64_t u;
    memcpy(&u, &gap, sizeof u);
    int e = (int)((u >> 52) & 0x7ff) - 1023 + GAP_BUCKET_SHIFT;
    return e < 0 ? 0 : e >= GAP_BUCKETS ? GAP_BUCKETS - 1 : (unsigned)e;
}

/* The smallest gap above bucket b: every gap < bucket_end(b) has a bucket
 * <= b (the last bucket takes everything). */
static double bucket_end(unsigned b)
{
    if (b >= GAP_BUCKETS - 1)
        return INFINITY;
    uint64_t u = (uint64_t)((int)b + 1 - GAP_BUCKET_SHIFT + 1023) << 52;   /* 2^(b+1-shift) */
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Whether a pass merges an entry into its file's latest kept entry: always
 * if they overlap or touch (exact), else if the gap's bucket is below top,
 * or is top while fewer than `needed` merges are done. */
static int take_gap(double gap, unsigned top, size_t needed, size_t merges)
{
    if (gap <= 0.0)
        return 1;
    unsigned b = gap_bucket(gap);
    return b < top || (b == top && merges < needed);
}

/* One pass in append order: merges each entry into its file's latest kept
 * entry as take_gap says (merged gaps added to error_bound); with hist,
 * counts the gaps of the entries kept after one of their file (in
 * HIST_LANES histograms, to be summed, so that a run of gaps of one
 * bucket does not wait on the same counter).  The latest kept entry of
 * the most recent file is held in `cur`, out of the array, so that a
 * stream of one file runs without a memory round trip per entry; other
 * files' are found by the table. */
static void merge_pass(struct iolens_interval_store *s, size_t (*hist)[GAP_BUCKETS], unsigned top,
                       size_t needed)
{
    size_t n = s->count;          /* locals: stores to s->iv may alias s's fields */
    double bound = s->error_bound;
    struct recent_files r;
    memset(r.used, 0, sizeof r.used);
    interval cur = {0};
    size_t cur_at = 0, out = 0, merges = 0;
    int have_cur = 0, cur_changed = 0;   /* cur differs from s->iv[cur_at] */
    for (size_t i = 0; i < n; i++) {
        const interval *e = &s->iv[i];
        if (have_cur && e->file_id != cur.file_id) {
            if (cur_changed)
                s->iv[cur_at] = cur;
            recent_put(&r, cur.file_id, cur_at);
            have_cur = recent_get(&r, e->file_id, &cur_at);
            if (have_cur)
                cur = s->iv[cur_at];
            cur_changed = 0;
        } else if (!have_cur && recent_get(&r, e->file_id, &cur_at)) {
            cur = s->iv[cur_at];
            have_cur = 1;
            cur_changed = 0;
        }
        if (have_cur) {
            double gap = gap_between(&cur, e);
            if (take_gap(gap, top, needed, merges)) {
                if (gap > 0.0)
                    bound += gap;
                absorb(&cur, e);
                merges++;
                cur_changed = 1;
                continue;
            }
            if (hist != NULL)
                hist[i % HIST_LANES][gap_bucket(gap)]++;
            if (cur_changed)
                s->iv[cur_at] = cur;
        }
        cur = *e;
        cur_changed = out != i;
        cur_at = out++;
        have_cur = 1;
    }
    if (have_cur && cur_changed)
        s->iv[cur_at] = cur;
    s->count = out;
    s->error_bound = bound;
}

/* The smallest bucket whose gaps, with those of every smaller bucket,
 * make `needed` merges (the last bucket if there are not that many). */
static unsigned threshold_bucket(const size_t (*hist)[GAP_BUCKETS], size_t needed)
{
    size_t sum = 0;
    for (unsigned b = 0; b < GAP_BUCKETS; b++) {
        for (unsigned lane = 0; lane < HIST_LANES; lane++)
            sum += hist[lane][b];
        if (sum >= needed)
            return b;
    }
    return GAP_BUCKETS - 1;
}

/* The largest double below d (d > 0, or +infinity: then the largest
 * finite one), so that gap <= just_below(d) is gap < d. */
static double just_below(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    u--;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Passes A and B; returns whether the store is down to the target.  The
 * bucket that was enough last time (gap_hint) usually is again (a steady
 * stream): pass A then merges below it too and mostly makes pass B
 * needless.  If the gaps got shorter that merges more than needed, but
 * still no merged gap is more than twice as long as one left. */
static int compact_in_order(struct iolens_interval_store *s, size_t target)
{
    size_t hist[HIST_LANES][GAP_BUCKETS] = {{0}};
    size_t needed = s->count - target;
    unsigned hint = s->gap_hint > 0 ? s->gap_hint - 1 : 0;
    merge_pass(s, hist, hint, s->gap_hint > 0 ? needed : 0);   /* pass A */
    if (s->count <= target)
        return 1;
    needed = s->count - target;
    unsigned top = threshold_bucket((const size_t (*)[GAP_BUCKETS])hist, needed);
    merge_pass(s, NULL, top, needed);   /* pass B */
    s->gap_hint = top + 1;
    s->absorb_upto = just_below(bucket_end(top));
    return s->count <= target;
}

/* -------------------------------------------------------- public -- */

/* The sort-based path (steps 1 to 3 above). */
static void compact_sorted(struct iolens_interval_store *s, size_t target)
{
    s->sort_compactions++;
    sort_intervals(s->iv, s->count, 1);
    merge_overlaps(s);
    if (s->count <= target)
        return;
    merge_smallest_gaps(s, s->count - target, 1);
    if (s->count <= target)
        return;
    sort_intervals(s->iv, s->count, 0);
    merge_smallest_gaps(s, s->count - target, 0);
}

/* Sets s->last after the entries changed. */
static void note_last(struct iolens_interval_store *s)
{
    s->last = s->count > 0 ? &s->iv[s->count - 1] : NULL;
}

void iolens_interval_compact(struct iolens_interval_store *s, size_t target)
{
    if (!(s->count > target && compact_in_order(s, target)))
        compact_sorted(s, target);
    note_last(s);
}

void iolens_interval_store_init(struct iolens_interval_store *s, void *mem, size_t bytes)
{
    size_t align = _Alignof(interval);
    size_t pad = mem != NULL ? (align - (uintptr_t)mem % align) % align : 0;
    size_t capacity = mem != NULL && bytes > pad ? (bytes - pad) / sizeof(interval) : 0;
    *s = (struct iolens_interval_store){.max_end = -INFINITY};
    if (capacity < 4)
        return;
    s->iv = (interval *)((unsigned char *)mem + pad);
    s->capacity = capacity;
}

void iolens_interval_store_rename(struct iolens_interval_store *s, uint64_t from, uint64_t to)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->iv[i].file_id == from)
            s->iv[i].file_id = to;
}

void iolens_interval_store_reset(struct iolens_interval_store *s)
{
    s->count = 0;
    s->last = NULL;
    s->error_bound = 0.0;
    s->accesses = 0;
    s->bytes = 0;
    s->sum_duration = 0.0;
    s->overlap = 0.0;
    s->max_end = -INFINITY;
    s->sort_compactions = 0;
    s->gap_hint = 0;
    s->absorb_upto = 0.0;
    s->lock = 0;
}

/* Merges a new access into the latest entry when the compaction would
 * merge them: same file and overlapping or touching (exact), or a gap in
 * a bucket no higher than the one the last in-order compaction needed
 * (the gap goes to error_bound; as in the passes, no gap merged is more
 * than twice as long as one kept).  A
 * steady stream then rarely fills the store, which is what keeps the
 * per-access cost to an append. */
static int absorbed_on_arrival(struct iolens_interval_store *s, const interval *fresh)
{
    if (s->count == 0)
        return 0;
    interval *last = &s->iv[s->count - 1];
    if (last->file_id != fresh->file_id)
        return 0;
    double gap = gap_between(last, fresh);
    if (gap > 0.0 && !(gap <= s->absorb_upto))   /* bucket above gap_hint's */
        return 0;
    if (gap > 0.0)
        s->error_bound += gap;
    absorb(last, fresh);
    return 1;
}

void iolens_interval_add(struct iolens_interval_store *s, double start, double end,
                         uint64_t file_id, int64_t bytes, uint32_t flags)
{
    if (!(end >= start)) {      /* end before start, or a NaN */
        if (start != start)
            start = 0.0;        /* NaN would upset the compaction's sort */
        end = start;
    }
    int held = lock_store(s);
    iolens_interval_note_access(s, start, end, bytes);
    if (s->capacity > 0) {
        interval fresh = {start, end, file_id, bytes, 1, flags, end - start};
        if (!absorbed_on_arrival(s, &fresh)) {
            if (s->count == s->capacity)
                iolens_interval_compact(s, s->capacity / 2);
            /* The entry first, then the count that shows it: a snapshot
             * of the process (the log written at a signal) never sees a
             * counted entry unwritten. */
            s->iv[s->count] = fresh;
            __atomic_store_n(&s->count, s->count + 1, __ATOMIC_RELEASE);
            note_last(s);
        }
    }
    unlock_store(s, held);
}
