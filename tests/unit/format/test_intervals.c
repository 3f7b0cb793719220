/* The union of access intervals (format/interval_union.c) and the interval
 * store with its compaction (lib/layers/interval_store.c).
 *
 * The union is checked against independent computations: a coverage grid
 * (for integer times) and an event sweep (+1 at a start, -1 at an end).
 * The store is checked against the true union of every access added,
 * which the tests keep themselves.  Times are integers (as doubles) where
 * sums are compared, so that every sum is exact. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "analysis/interval_bounds.h"
#include "layers/interval_store.h"
#include "format/interval_union.h"
#include "layers/layer_intervals.h"

/* ------------------------------------------------------------ helpers -- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64*: deterministic for a seed, good enough for test data */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint64_t rnd_below(uint64_t n) { return rnd() % n; }

/* Union of integer spans within [0, grid): the number of covered unit
 * cells, counted with a difference array. */
static double grid_union(const struct iolens_span *spans, size_t n, size_t grid)
{
    int32_t *diff = calloc(grid + 1, sizeof *diff);
    ck_assert_ptr_nonnull(diff);
    for (size_t i = 0; i < n; i++) {
        if (!(spans[i].end > spans[i].start))
            continue;
        diff[(size_t)spans[i].start]++;
        diff[(size_t)spans[i].end]--;
    }
    int64_t depth = 0, covered = 0;
    for (size_t t = 0; t < grid; t++) {
        depth += diff[t];
        covered += depth > 0;
    }
    free(diff);
    return (double)covered;
}

struct event {
    double t;
    int delta;
};

static int compare_events(const void *a, const void *b)
{
    const struct event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return y->delta - x->delta;   /* starts before ends at the same time */
}

/* Union by an event sweep: time during which the depth is positive. */
static double event_union(const struct iolens_span *spans, size_t n)
{
    struct event *ev = malloc((2 * n + 1) * sizeof *ev);
    ck_assert_ptr_nonnull(ev);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (spans[i].end > spans[i].start) {
            ev[m++] = (struct event){spans[i].start, +1};
            ev[m++] = (struct event){spans[i].end, -1};
        }
    qsort(ev, m, sizeof *ev, compare_events);
    double total = 0.0, opened = 0.0;
    int depth = 0;
    for (size_t i = 0; i < m; i++) {
        if (depth == 0 && ev[i].delta > 0)
            opened = ev[i].t;
        depth += ev[i].delta;
        if (depth == 0)
            total += ev[i].t - opened;
    }
    free(ev);
    return total;
}

/* ------------------------------------------------------------- union -- */

/* He, Sun and Yin, Figure 2: R1, R2 and R3 overlap and make one busy
 * period dt1; R4 stands apart (dt2); the idle time between is not
 * counted: T = dt1 + dt2, not the sum of the four durations. */
START_TEST(paper_figure_2)
{
    struct iolens_span r[4] = {
        {10.0, 13.0},   /* R1 */
        {11.0, 14.0},   /* R2 */
        {12.5, 15.0},   /* R3: dt1 = 15 - 10 = 5 */
        {18.0, 20.5},   /* R4: dt2 = 2.5, after 3 s idle */
    };
    ck_assert_double_eq(iolens_union_length(r, 4), 7.5);
    /* the same given in another order */
    struct iolens_span s[4] = {r[3], r[1], r[0], r[2]};
    ck_assert_double_eq(iolens_union_length(s, 4), 7.5);
    ck_assert_double_eq(s[0].start, 10.0);   /* sorted in place */
    ck_assert_double_eq(s[3].start, 18.0);
    ck_assert_double_eq(iolens_union_length_sorted(s, 4), 7.5);
}
END_TEST

START_TEST(nested_identical_touching)
{
    struct iolens_span nested[3] = {{0, 10}, {2, 3}, {4, 9.5}};
    ck_assert_double_eq(iolens_union_length(nested, 3), 10.0);
    struct iolens_span same[3] = {{1, 2.5}, {1, 2.5}, {1, 2.5}};
    ck_assert_double_eq(iolens_union_length(same, 3), 1.5);
    struct iolens_span touching[3] = {{2, 3}, {0, 1}, {1, 2}};
    ck_assert_double_eq(iolens_union_length(touching, 3), 3.0);
    struct iolens_span apart[3] = {{0, 1}, {1, 2}, {2.5, 3}};
    ck_assert_double_eq(iolens_union_length(apart, 3), 2.5);
    /* a long span ends after later, shorter ones */
    struct iolens_span cover[4] = {{0, 100}, {1, 2}, {50, 60}, {99, 101}};
    ck_assert_double_eq(iolens_union_length(cover, 4), 101.0);
}
END_TEST

START_TEST(empty_input_and_empty_spans)
{
    ck_assert_double_eq(iolens_union_length(NULL, 0), 0.0);
    ck_assert_double_eq(iolens_union_length_sorted(NULL, 0), 0.0);
    struct iolens_span none[4] = {{5, 5}, {3, 2}, {NAN, 1}, {1, NAN}};
    ck_assert_double_eq(iolens_union_length(none, 4), 0.0);
    /* empty and NaN spans among real ones change nothing */
    struct iolens_span mixed[6] = {{NAN, NAN}, {4, 6}, {7, 1}, {0, 2}, {1, NAN}, {5, 5}};
    ck_assert_double_eq(iolens_union_length(mixed, 6), 4.0);
    struct iolens_span sorted[3] = {{0, 2}, {1, 0.5}, {3, 4}};
    ck_assert_double_eq(iolens_union_length_sorted(sorted, 3), 3.0);
}
END_TEST

/* Worst cases of a quicksort: sorted, reversed, all equal starts. */
START_TEST(adversarial_orders)
{
    size_t n = 100000;
    struct iolens_span *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (struct iolens_span){(double)(2 * i), (double)(2 * i + 1)};
    ck_assert_double_eq(iolens_union_length(v, n), (double)n);
    for (size_t i = 0; i < n; i++)
        v[i] = (struct iolens_span){(double)(2 * (n - i)), (double)(2 * (n - i) + 1)};
    ck_assert_double_eq(iolens_union_length(v, n), (double)n);
    for (size_t i = 0; i < n; i++)
        v[i] = (struct iolens_span){7.0, 7.0 + (double)(i % 13)};
    ck_assert_double_eq(iolens_union_length(v, n), 12.0);
    for (size_t i = 1; i < n; i++)
        ck_assert(v[i - 1].start <= v[i].start);
    free(v);
}
END_TEST

/* 10^6 random integer spans on a grid of 2 * 10^6: the grid count is an
 * independent, exact answer. */
START_TEST(million_random_vs_grid)
{
    size_t n = 1000000, grid = 2000000;
    struct iolens_span *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    rng_state = 0x1234567887654321ull;
    for (size_t i = 0; i < n; i++) {
        double start = (double)rnd_below(grid - 8);
        v[i] = (struct iolens_span){start, start + (double)rnd_below(8)};
    }
    double want = grid_union(v, n, grid);
    ck_assert(want > 1000000.0 && want < 1900000.0);   /* neither trivial nor full */
    ck_assert_double_eq(iolens_union_length(v, n), want);
    free(v);
}
END_TEST

/* Real-valued spans against the event sweep (equal up to rounding of the
 * different summation orders). */
START_TEST(random_reals_vs_events)
{
    size_t n = 200000;
    struct iolens_span *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    rng_state = 42;
    for (size_t i = 0; i < n; i++) {
        double start = (double)(rnd() >> 11) / 9007199254740992.0 * 1000.0;
        v[i] = (struct iolens_span){start, start + (double)(rnd() >> 11) / 9007199254740992.0 * 0.01};
    }
    double want = event_union(v, n);
    ck_assert_double_eq_tol(iolens_union_length(v, n), want, 1e-9);
    free(v);
}
END_TEST

/* ------------------------------------------------------------- store -- */

#define MAX_CAP 64

struct store_fixture {
    struct iolens_interval mem[MAX_CAP];
    struct iolens_interval_store s;
};

static struct iolens_span *spans_of_store(const struct iolens_interval_store *s, uint64_t file,
                                          int all, size_t *n)
{
    struct iolens_span *v = malloc((s->count + 1) * sizeof *v);
    ck_assert_ptr_nonnull(v);
    *n = 0;
    for (size_t i = 0; i < s->count; i++)
        if (all || s->iv[i].file_id == file)
            v[(*n)++] = (struct iolens_span){s->iv[i].start, s->iv[i].end};
    return v;
}

static double store_union(const struct iolens_interval_store *s, uint64_t file, int all)
{
    size_t n;
    struct iolens_span *v = spans_of_store(s, file, all, &n);
    double u = iolens_union_length(v, n);
    free(v);
    return u;
}

START_TEST(init_capacity_and_alignment)
{
    static struct iolens_interval mem[10];
    struct iolens_interval_store s;
    iolens_interval_store_init(&s, mem, sizeof mem);
    ck_assert_uint_eq(s.capacity, 10);
    ck_assert_ptr_eq(s.iv, mem);
    ck_assert_uint_eq(s.count, 0);
    /* an odd address: the store starts at the next 8-byte boundary */
    iolens_interval_store_init(&s, (char *)mem + 1, sizeof mem - 1);
    ck_assert_ptr_eq(s.iv, (char *)mem + 8);
    ck_assert_uint_eq(s.capacity, 9);
    iolens_interval_store_init(&s, mem, 4 * sizeof *mem);
    ck_assert_uint_eq(s.capacity, 4);
    iolens_interval_store_init(&s, mem, 4 * sizeof *mem - 1);   /* < 4 entries: disabled */
    ck_assert_uint_eq(s.capacity, 0);
    ck_assert_ptr_null(s.iv);
    iolens_interval_store_init(&s, NULL, 1000);
    ck_assert_uint_eq(s.capacity, 0);
    /* a disabled store still counts totals */
    iolens_interval_add(&s, 1.0, 3.0, 5, 100, IOLENS_IV_READ);
    iolens_interval_add(&s, 2.0, 1.0, 5, 7, IOLENS_IV_WRITE);   /* end < start: empty */
    ck_assert_uint_eq(s.accesses, 2);
    ck_assert_int_eq(s.bytes, 107);
    ck_assert_double_eq(s.sum_duration, 2.0);
    ck_assert_uint_eq(s.count, 0);
}
END_TEST

START_TEST(add_records_each_access)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    iolens_interval_add(&f.s, 1.0, 2.0, 7, 4096, IOLENS_IV_WRITE);
    iolens_interval_add(&f.s, 3.0, 2.0, 8, 10, IOLENS_IV_READ | IOLENS_IV_FAILED);
    ck_assert_uint_eq(f.s.count, 2);
    ck_assert_double_eq(f.s.iv[0].start, 1.0);
    ck_assert_double_eq(f.s.iv[0].end, 2.0);
    ck_assert_uint_eq(f.s.iv[0].file_id, 7);
    ck_assert_int_eq(f.s.iv[0].bytes, 4096);
    ck_assert_uint_eq(f.s.iv[0].accesses, 1);
    ck_assert_uint_eq(f.s.iv[0].flags, IOLENS_IV_WRITE);
    ck_assert_double_eq(f.s.iv[1].end, 3.0);   /* end before start: made empty */
    ck_assert_uint_eq(f.s.iv[1].flags, IOLENS_IV_READ | IOLENS_IV_FAILED);
    ck_assert_double_eq(f.s.sum_duration, 1.0);
    iolens_interval_add(&f.s, NAN, 4.0, 9, 1, 0);   /* a NaN time: an empty interval at 0 */
    iolens_interval_add(&f.s, 5.0, NAN, 9, 1, 0);
    ck_assert_double_eq(f.s.iv[2].start, 0.0);
    ck_assert_double_eq(f.s.iv[2].end, 0.0);
    ck_assert_double_eq(f.s.iv[3].start, 5.0);
    ck_assert_double_eq(f.s.iv[3].end, 5.0);
    ck_assert_double_eq(f.s.sum_duration, 1.0);
    iolens_interval_store_reset(&f.s);
    ck_assert_uint_eq(f.s.count, 0);
    ck_assert_uint_eq(f.s.accesses, 0);
    ck_assert_int_eq(f.s.bytes, 0);
    ck_assert_double_eq(f.s.sum_duration, 0.0);
    ck_assert_uint_eq(f.s.capacity, MAX_CAP);
}
END_TEST

/* Overlapping and touching intervals of one file merge exactly; those of
 * different files stay apart; nothing is added to the bound. */
START_TEST(compact_merges_overlaps_exactly)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    iolens_interval_add(&f.s, 5, 8, 1 + 100, 10, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 0, 2, 100, 1, IOLENS_IV_WRITE);
    iolens_interval_add(&f.s, 1, 3, 100, 2, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 3, 4, 100, 4, IOLENS_IV_FAILED);   /* touches */
    iolens_interval_add(&f.s, 6, 7, 100, 8, IOLENS_IV_WRITE);    /* apart; overlaps file 101 */
    /* target 1: after the exact merges, the same-file gap [4, 6] (2 s)
     * goes, then [0, 7] and file 101's [5, 8] (overlapping: adds 0) */
    iolens_interval_compact(&f.s, 1);
    ck_assert_uint_eq(f.s.count, 1);
    ck_assert_double_eq(f.s.error_bound, 2.0);
    ck_assert_uint_eq(f.s.iv[0].file_id, IOLENS_ID_OTHER_FILES);
    ck_assert_double_eq(store_union(&f.s, 0, 1), 8.0);             /* true: 7 */
    iolens_interval_store_reset(&f.s);

    iolens_interval_add(&f.s, 5, 8, 101, 10, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 0, 2, 100, 1, IOLENS_IV_WRITE);
    iolens_interval_add(&f.s, 1, 3, 100, 2, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 3, 4, 100, 4, IOLENS_IV_FAILED);
    iolens_interval_add(&f.s, 6, 7, 100, 8, IOLENS_IV_WRITE);
    iolens_interval_compact(&f.s, MAX_CAP);   /* a target already met: still merged */
    ck_assert_uint_eq(f.s.count, 3);
    ck_assert_double_eq(f.s.error_bound, 0.0);
    const struct iolens_interval *a = &f.s.iv[0], *b = &f.s.iv[1], *c = &f.s.iv[2];
    ck_assert_uint_eq(a->file_id, 100);
    ck_assert_double_eq(a->start, 0);
    ck_assert_double_eq(a->end, 4);
    ck_assert_int_eq(a->bytes, 7);
    ck_assert_uint_eq(a->accesses, 3);
    ck_assert_uint_eq(a->flags, IOLENS_IV_WRITE | IOLENS_IV_READ | IOLENS_IV_FAILED);
    ck_assert_uint_eq(b->file_id, 100);
    ck_assert_double_eq(b->start, 6);
    ck_assert_uint_eq(c->file_id, 101);
    ck_assert_double_eq(c->end, 8);
    ck_assert_uint_eq(f.s.accesses, 5);
    ck_assert_double_eq(store_union(&f.s, 0, 1), 7.0);   /* [0,4] + [5,8] */
}
END_TEST

/* Beyond exact merges, the smallest same-file gaps go first, and each
 * merged gap is added to the bound. */
START_TEST(compact_merges_smallest_gaps)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    double iv[5][2] = {{0, 1}, {1.5, 2}, {5, 6}, {6.25, 7}, {20, 21}};   /* gaps .5 3 .25 13 */
    for (int i = 0; i < 5; i++)
        iolens_interval_add(&f.s, iv[i][0], iv[i][1], 9, 1, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 6.5, 30, 10, 1, IOLENS_IV_READ);   /* other file: no effect */
    iolens_interval_compact(&f.s, 5);
    ck_assert_uint_eq(f.s.count, 5);
    ck_assert_double_eq(f.s.error_bound, 0.25);
    ck_assert_double_eq(f.s.iv[2].start, 5);
    ck_assert_double_eq(f.s.iv[2].end, 7);
    ck_assert_uint_eq(f.s.iv[2].accesses, 2);
    iolens_interval_compact(&f.s, 4);
    ck_assert_double_eq(f.s.error_bound, 0.75);
    ck_assert_double_eq(f.s.iv[0].end, 2);
    iolens_interval_compact(&f.s, 2);     /* file 9 left as one interval [0, 21] */
    ck_assert_uint_eq(f.s.count, 2);
    ck_assert_double_eq(f.s.error_bound, 0.75 + 3 + 13);
    ck_assert_double_eq(f.s.iv[0].start, 0);
    ck_assert_double_eq(f.s.iv[0].end, 21);
    ck_assert_uint_eq(f.s.iv[0].accesses, 5);
    ck_assert_uint_eq(f.s.iv[1].file_id, 10);
    ck_assert_uint_eq(f.s.iv[1].flags & IOLENS_IV_MIXED, 0);
}
END_TEST

/* An interval's access count saturates instead of wrapping to 0. */
START_TEST(accesses_saturate)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    /* file 6 in between keeps the two file-5 accesses apart on arrival */
    iolens_interval_add(&f.s, 0, 2, 5, 1, 0);
    iolens_interval_add(&f.s, 10, 11, 6, 1, 0);
    iolens_interval_add(&f.s, 1, 3, 5, 1, 0);
    ck_assert_uint_eq(f.s.count, 3);
    f.s.iv[0].accesses = UINT32_MAX - 1;
    f.s.iv[2].accesses = 3;
    iolens_interval_compact(&f.s, 2);
    ck_assert_uint_eq(f.s.count, 2);
    const struct iolens_interval *five = f.s.iv[0].file_id == 5 ? &f.s.iv[0] : &f.s.iv[1];
    ck_assert_uint_eq(five->file_id, 5);
    ck_assert_uint_eq(five->accesses, UINT32_MAX);
}
END_TEST

/* A new access of the latest entry's file that overlaps or touches it is
 * merged on arrival, exactly; one after a gap is merged on arrival only
 * up to the gap bucket the last in-order compaction needed. */
START_TEST(merge_on_arrival)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    iolens_interval_add(&f.s, 0, 2, 5, 10, IOLENS_IV_WRITE);
    iolens_interval_add(&f.s, 2, 3, 5, 20, IOLENS_IV_READ);   /* touches */
    iolens_interval_add(&f.s, 2.5, 4, 5, 30, IOLENS_IV_WRITE); /* overlaps */
    ck_assert_uint_eq(f.s.count, 1);
    ck_assert_double_eq(f.s.error_bound, 0);
    ck_assert_double_eq(f.s.iv[0].start, 0);
    ck_assert_double_eq(f.s.iv[0].end, 4);
    ck_assert_int_eq(f.s.iv[0].bytes, 60);
    ck_assert_uint_eq(f.s.iv[0].accesses, 3);
    ck_assert_uint_eq(f.s.iv[0].flags, IOLENS_IV_READ | IOLENS_IV_WRITE);
    /* no compaction yet: a gap is never merged on arrival */
    iolens_interval_add(&f.s, 5, 6, 5, 1, 0);
    ck_assert_uint_eq(f.s.count, 2);
    /* another file is never merged into the latest entry */
    iolens_interval_add(&f.s, 6, 7, 9, 1, 0);
    ck_assert_uint_eq(f.s.count, 3);
    ck_assert_uint_eq(f.s.accesses, 5);
    ck_assert_int_eq(f.s.bytes, 62);
}
END_TEST

/* Equal gaps: exactly as many merges as needed, the leftmost first. */
START_TEST(compact_ties)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    for (int i = 0; i < 6; i++)
        iolens_interval_add(&f.s, 2.0 * i, 2.0 * i + 1, 3, 1, 0);
    iolens_interval_compact(&f.s, 4);
    ck_assert_uint_eq(f.s.count, 4);
    ck_assert_double_eq(f.s.error_bound, 2.0);
    ck_assert_double_eq(f.s.iv[0].end, 5.0);   /* [0,1] [2,3] [4,5] merged */
    ck_assert_double_eq(f.s.iv[1].start, 6.0);
}
END_TEST

/* More files than room: neighbours of different files merge (by time),
 * marked IOLENS_IV_MIXED under IOLENS_ID_OTHER_FILES; the layer's union
 * stays within the bound. */
START_TEST(compact_across_files)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    for (int i = 0; i < 8; i++)
        iolens_interval_add(&f.s, 10.0 * i, 10.0 * i + (i == 3 ? 9.5 : 5), 1000 + (uint64_t)i,
                            1, IOLENS_IV_WRITE);
    iolens_interval_compact(&f.s, 7);   /* smallest gap: 0.5 after file 1003 */
    ck_assert_uint_eq(f.s.count, 7);
    ck_assert_double_eq(f.s.error_bound, 0.5);
    ck_assert_double_eq(f.s.iv[3].start, 30);
    ck_assert_double_eq(f.s.iv[3].end, 45);
    ck_assert_uint_eq(f.s.iv[3].file_id, IOLENS_ID_OTHER_FILES);
    ck_assert_uint_eq(f.s.iv[3].flags, IOLENS_IV_WRITE | IOLENS_IV_MIXED);
    ck_assert_uint_eq(f.s.iv[3].accesses, 2);
    ck_assert_uint_eq(f.s.iv[2].file_id, 1002);
    ck_assert_double_eq(store_union(&f.s, 0, 1), 45.0);   /* true 44.5, plus the 0.5 gap */
}
END_TEST

/* Across files, an overlap is the smallest gap (negative): merged first,
 * at no cost to the bound. */
START_TEST(compact_across_files_overlap_first)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    iolens_interval_add(&f.s, 30, 31, 4, 1, 0);
    iolens_interval_add(&f.s, 0, 10, 1 + 100, 1, 0);
    iolens_interval_add(&f.s, 20, 21, 3, 1, 0);
    iolens_interval_add(&f.s, 5, 6, 2 + 100, 1, 0);
    iolens_interval_compact(&f.s, 3);
    ck_assert_uint_eq(f.s.count, 3);
    ck_assert_double_eq(f.s.error_bound, 0.0);
    ck_assert_double_eq(f.s.iv[0].start, 0);
    ck_assert_double_eq(f.s.iv[0].end, 10);
    ck_assert_uint_eq(f.s.iv[0].flags, IOLENS_IV_MIXED);
    ck_assert_double_eq(store_union(&f.s, 0, 1), 12.0);
    iolens_interval_compact(&f.s, 2);    /* then the 9 s gap [21, 30] */
    ck_assert_double_eq(f.s.error_bound, 9.0);
    ck_assert_double_eq(f.s.iv[1].start, 20);
    ck_assert_double_eq(f.s.iv[1].end, 31);
}
END_TEST

/* ------------------------------------------------------ property test -- */

#define PROP_FILES 4

/* What the test knows of every access added. */
struct truth {
    struct iolens_span *all;
    uint64_t *file;
    size_t n;
    int64_t bytes;
};

static double true_union(const struct truth *t, uint64_t file, int all)
{
    struct iolens_span *v = malloc((t->n + 1) * sizeof *v);
    ck_assert_ptr_nonnull(v);
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++)
        if (all || t->file[i] == file)
            v[m++] = t->all[i];
    double u = iolens_union_length(v, m);
    free(v);
    return u;
}

static void check_sums(const struct iolens_interval_store *s, const struct truth *t)
{
    int64_t bytes = 0;
    uint64_t accesses = 0;
    for (size_t i = 0; i < s->count; i++) {
        bytes += s->iv[i].bytes;
        accesses += s->iv[i].accesses;
        ck_assert_uint_eq(s->iv[i].flags & IOLENS_IV_MIXED, 0);
    }
    ck_assert_int_eq(bytes, t->bytes);
    ck_assert_int_eq(s->bytes, t->bytes);
    ck_assert_uint_eq(accesses, t->n);
    ck_assert_uint_eq(s->accesses, t->n);
}

/* The store's unions (of the layer and of each file) are within
 * [true union, true union + error_bound]. */
static void check_bounds(const struct iolens_interval_store *s, const struct truth *t)
{
    double u = store_union(s, 0, 1), want = true_union(t, 0, 1);
    ck_assert_msg(u >= want && u <= want + s->error_bound, "layer: %g not in [%g, %g + %g]", u,
                  want, want, s->error_bound);
    for (uint64_t file = 0; file < PROP_FILES; file++) {
        u = store_union(s, 100 + file, 0);
        want = true_union(t, 100 + file, 0);
        ck_assert_msg(u >= want && u <= want + s->error_bound,
                      "file %llu: %g not in [%g, %g + %g]", (unsigned long long)file, u, want,
                      want, s->error_bound);
    }
}

/* One random access: integer times, so every union and bound is exact.
 * chained: each access overlaps the previous one of its file, so only
 * exact merges can happen. */
static void add_random(struct iolens_interval_store *s, struct truth *t, int chained,
                       double *last_end)
{
    uint64_t file = rnd_below(PROP_FILES);
    double start = (double)rnd_below(2000), len = (double)rnd_below(20);
    if (chained) {
        start = last_end[file] - (double)rnd_below(3);
        len = 1 + (double)rnd_below(5);
        last_end[file] = start + len;
    }
    int64_t bytes = (int64_t)rnd_below(1 << 20);
    iolens_interval_add(s, start, start + len, 100 + file, bytes, IOLENS_IV_READ);
    t->all[t->n] = (struct iolens_span){start, start + len};
    t->file[t->n++] = 100 + file;
    t->bytes += bytes;
}

static void property_run(uint64_t seed, int chained)
{
    rng_state = seed;
    struct store_fixture f;
    size_t cap = 16 + (size_t)rnd_below(MAX_CAP - 16 + 1);
    iolens_interval_store_init(&f.s, f.mem, cap * sizeof(struct iolens_interval));
    ck_assert_uint_eq(f.s.capacity, cap);
    size_t steps = 300 + (size_t)rnd_below(300);
    struct truth t = {malloc(steps * sizeof *t.all), malloc(steps * sizeof *t.file), 0, 0};
    double last_end[PROP_FILES] = {0};
    for (size_t i = 0; i < steps; i++) {
        add_random(&f.s, &t, chained, last_end);
        /* an early compaction, never below one interval per file (fewer
         * would have to merge across files: property_many_files) */
        if (rnd_below(50) == 0)
            iolens_interval_compact(&f.s, PROP_FILES + (size_t)rnd_below(f.s.count + 1));
        ck_assert_uint_le(f.s.count, cap);
        check_sums(&f.s, &t);
        check_bounds(&f.s, &t);
    }
    if (chained)
        ck_assert_double_eq(f.s.error_bound, 0.0);
    else
        ck_assert(f.s.error_bound > 0.0);   /* the run did merge gaps */
    free(t.all);
    free(t.file);
}

START_TEST(property_random_adds)
{
    for (uint64_t seed = 1; seed <= 40; seed++)
        property_run(seed * 0x9E3779B97F4A7C15ull, 0);
}
END_TEST

/* Without gaps to merge, the bound stays 0 and the unions are exact. */
START_TEST(property_no_gap_merge_no_bound)
{
    for (uint64_t seed = 1; seed <= 20; seed++)
        property_run(seed * 0xD1B54A32D192ED03ull, 1);
}
END_TEST

/* Many files (more than the store can keep apart): the layer's union
 * stays within the bound, and each file's own intervals never exceed its
 * true union plus the bound. */
START_TEST(property_many_files)
{
    rng_state = 777;
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, 16 * sizeof(struct iolens_interval));
    struct truth t = {malloc(2000 * sizeof *t.all), malloc(2000 * sizeof *t.file), 0, 0};
    int mixed = 0;
    for (size_t i = 0; i < 2000; i++) {
        double start = (double)rnd_below(100000), len = 1 + (double)rnd_below(30);
        uint64_t file = 100 + i;   /* every access another file */
        iolens_interval_add(&f.s, start, start + len, file, 1, IOLENS_IV_WRITE);
        t.all[t.n] = (struct iolens_span){start, start + len};
        t.file[t.n++] = file;
        double u = store_union(&f.s, 0, 1), want = true_union(&t, 0, 1);
        ck_assert(u >= want && u <= want + f.s.error_bound);
        uint64_t probe = 100 + rnd_below(i + 1);
        ck_assert(store_union(&f.s, probe, 0) <= true_union(&t, probe, 0) + f.s.error_bound);
        for (size_t k = 0; k < f.s.count; k++)
            mixed |= (f.s.iv[k].flags & IOLENS_IV_MIXED) != 0;
    }
    ck_assert(mixed);
    ck_assert_uint_eq(f.s.accesses, 2000);
    free(t.all);
    free(t.file);
}
END_TEST

/* ------------------------------------------------ in-order passes -- */

/* A stream of `steps` accesses cycling over `files` files (100, 101, ...),
 * each file's accesses in time order with random integer gaps (0 for
 * touching, sometimes); checks sums and bounds after every add. */
static void stream_run(uint64_t seed, unsigned files, size_t cap, size_t steps)
{
    rng_state = seed;
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, cap * sizeof(struct iolens_interval));
    struct truth t = {malloc(steps * sizeof *t.all), malloc(steps * sizeof *t.file), 0, 0};
    double next[PROP_FILES] = {0};
    for (size_t i = 0; i < steps; i++) {
        unsigned file = (unsigned)(i % files);
        double start = next[file] + (double)rnd_below(4) * (double)rnd_below(50);
        double len = 1 + (double)rnd_below(10);
        next[file] = start + len;
        int64_t bytes = (int64_t)rnd_below(1 << 16);
        iolens_interval_add(&f.s, start, start + len, 100 + file, bytes, IOLENS_IV_WRITE);
        t.all[t.n] = (struct iolens_span){start, start + len};
        t.file[t.n++] = 100 + file;
        t.bytes += bytes;
        ck_assert_uint_le(f.s.count, cap);
        check_sums(&f.s, &t);
        check_bounds(&f.s, &t);
    }
    ck_assert_uint_eq(f.s.sort_compactions, 0);
    ck_assert(f.s.error_bound > 0.0);
    free(t.all);
    free(t.file);
}

/* One file written sequentially: compactions never sort. */
START_TEST(sequential_stream_avoids_sort)
{
    for (uint64_t seed = 1; seed <= 10; seed++)
        stream_run(seed * 0x9E3779B97F4A7C15ull, 1, 16 + (size_t)(seed * 5) % 49, 2000);
}
END_TEST

/* Two or three files interleaved (A, B, A, B, ...): no sort either. */
START_TEST(interleaved_streams_avoid_sort)
{
    for (uint64_t seed = 1; seed <= 10; seed++)
        stream_run(seed * 0xD1B54A32D192ED03ull, 2 + (unsigned)(seed % 2),
                   16 + (size_t)(seed * 7) % 49, 2000);
}
END_TEST

/* The bench's pattern: equal gaps.  Each compaction merges exactly as many
 * as needed (to half the capacity), the earliest first, without sorting. */
START_TEST(equal_gaps_merge_exactly_enough)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    for (int i = 0; i < MAX_CAP; i++)
        iolens_interval_add(&f.s, 3.0 * i, 3.0 * i + 1, 7, 2, IOLENS_IV_WRITE);
    ck_assert_uint_eq(f.s.count, MAX_CAP);
    iolens_interval_add(&f.s, 3.0 * MAX_CAP, 3.0 * MAX_CAP + 1, 7, 2, IOLENS_IV_WRITE);
    ck_assert_uint_eq(f.s.count, MAX_CAP / 2 + 1);
    ck_assert_uint_eq(f.s.sort_compactions, 0);
    /* [0,1] .. [96,97] became one interval: 32 gaps of 2 */
    ck_assert_double_eq(f.s.iv[0].start, 0);
    ck_assert_double_eq(f.s.iv[0].end, 97);
    ck_assert_uint_eq(f.s.iv[0].accesses, 33);
    ck_assert_int_eq(f.s.iv[0].bytes, 66);
    ck_assert_double_eq(f.s.error_bound, 64.0);
    ck_assert_double_eq(f.s.iv[1].start, 99);
    ck_assert_double_eq(f.s.iv[MAX_CAP / 2].start, 3.0 * MAX_CAP);
}
END_TEST

/* A steady stream: the first compaction (in one pass) leaves exactly half
 * the capacity; from then on every access, its gap in the bucket that
 * compaction chose, is merged on arrival, so the store stops growing.
 * Each merge cost one gap of 2. */
START_TEST(steady_stream_keeps_half)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    for (int i = 0; i < 10 * MAX_CAP; i++) {
        size_t before = f.s.count;
        int hinted = f.s.gap_hint != 0;
        iolens_interval_add(&f.s, 3.0 * i, 3.0 * i + 1, 7, 2, IOLENS_IV_WRITE);
        size_t expected = hinted ? before : before == MAX_CAP ? MAX_CAP / 2 + 1 : before + 1;
        ck_assert_uint_eq(f.s.count, expected);
        ck_assert_double_eq(f.s.error_bound, 2.0 * (double)(f.s.accesses - f.s.count));
    }
    ck_assert_uint_eq(f.s.sort_compactions, 0);
    ck_assert_uint_ne(f.s.gap_hint, 0);
    /* disjoint accesses of 1: the union is theirs plus exactly the bound */
    ck_assert_double_eq(store_union(&f.s, 0, 1), 10.0 * MAX_CAP + f.s.error_bound);
    iolens_interval_store_reset(&f.s);
    ck_assert_uint_eq(f.s.gap_hint, 0);
}
END_TEST

/* The inline fast path (iolens_interval_try_absorb) must record exactly
 * what iolens_interval_add would: two stores fed one random stream, one
 * through the fast path with the call as fallback, one through the call
 * only, end identical entry for entry.  The stream mixes files, gaps on
 * both sides of the hinted bucket's edge (powers of two exactly on it),
 * overlaps, out-of-order starts and empty accesses. */
START_TEST(fast_path_matches_add)
{
    static struct store_fixture a, b;
    iolens_interval_store_init(&a.s, a.mem, sizeof a.mem);
    iolens_interval_store_init(&b.s, b.mem, sizeof b.mem);
    rng_state = 0x5eed1234;
    double t = 0;
    int fast = 0;
    for (int i = 0; i < 50 * MAX_CAP; i++) {
        uint64_t file = rnd_below(8) == 0 ? 1 + rnd_below(3) : 1;
        double gap;
        switch (rnd_below(5)) {
        case 0: gap = ldexp(1.0, (int)rnd_below(8) - 4); break;   /* on a bucket edge */
        case 1: gap = -0.5; break;                                  /* overlaps */
        case 2: gap = 0.0; break;
        default: gap = (double)rnd_below(1000) / 256.0; break;
        }
        double start = t + gap, end = start + (double)rnd_below(4) / 4.0;
        if (rnd_below(50) == 0)
            start -= 3.0;   /* out of order */
        int64_t bytes = (int64_t)rnd_below(4096);
        uint32_t flags = rnd_below(2) ? IOLENS_IV_READ : IOLENS_IV_WRITE;
        if (iolens_interval_try_absorb(&a.s, start, end, file, bytes, flags))
            fast++;
        else
            iolens_interval_add(&a.s, start, end, file, bytes, flags);
        iolens_interval_add(&b.s, start, end, file, bytes, flags);
        t = end > t ? end : t;
    }
    ck_assert_int_gt(fast, 10 * MAX_CAP);   /* the fast path did take most */
    ck_assert_uint_eq(a.s.count, b.s.count);
    ck_assert_uint_eq(a.s.accesses, b.s.accesses);
    ck_assert_int_eq(a.s.bytes, b.s.bytes);
    ck_assert_double_eq(a.s.error_bound, b.s.error_bound);
    ck_assert_double_eq(a.s.sum_duration, b.s.sum_duration);
    ck_assert_double_eq(a.s.overlap, b.s.overlap);
    ck_assert_double_eq(a.s.max_end, b.s.max_end);
    ck_assert_int_eq(memcmp(a.s.iv, b.s.iv, a.s.count * sizeof *a.s.iv), 0);
}
END_TEST

/* A gap of exactly 2^k lies in the bucket above every shorter gap: after a
 * compaction that chose the bucket of gap 2, a gap just under 4 merges on
 * arrival and a gap of 4 does not. */
START_TEST(fast_path_bucket_edge)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    for (int i = 0; i <= MAX_CAP; i++)   /* gaps of 2: the hint becomes 2's bucket */
        iolens_interval_add(&f.s, 3.0 * i, 3.0 * i + 1, 7, 1, IOLENS_IV_WRITE);
    ck_assert_uint_ne(f.s.gap_hint, 0);
    double end = f.s.iv[f.s.count - 1].end;
    ck_assert_int_eq(iolens_interval_try_absorb(&f.s, end + 3.75, end + 4, 7, 1, IOLENS_IV_WRITE), 1);
    end += 4;
    ck_assert_int_eq(iolens_interval_try_absorb(&f.s, end + 4, end + 5, 7, 1, IOLENS_IV_WRITE), 0);
    ck_assert_int_eq(iolens_interval_try_absorb(&f.s, end, end + 1, 8, 1, IOLENS_IV_WRITE), 0);
}
END_TEST

/* Gaps an order of magnitude apart: the small ones go first, wherever they
 * are in append order; a gap twice as long (next bucket) is kept. */
START_TEST(small_gaps_first_in_append_order)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    double iv[6][2] = {{0, 1}, {9, 10}, {13, 14}, {14.5, 15}, {15.5, 16}, {26, 27}};
    for (int i = 0; i < 6; i++)   /* gaps 8 3 .5 .5 10 */
        iolens_interval_add(&f.s, iv[i][0], iv[i][1], 4, 1, IOLENS_IV_READ);
    iolens_interval_compact(&f.s, 4);
    ck_assert_uint_eq(f.s.count, 4);
    ck_assert_double_eq(f.s.error_bound, 1.0);
    ck_assert_double_eq(f.s.iv[2].start, 13);
    ck_assert_double_eq(f.s.iv[2].end, 16);
    ck_assert_uint_eq(f.s.iv[2].accesses, 3);
    iolens_interval_compact(&f.s, 3);   /* then 3 (8 and 10 are a bucket above) */
    ck_assert_double_eq(f.s.error_bound, 4.0);
    ck_assert_double_eq(f.s.iv[1].start, 9);
    ck_assert_double_eq(f.s.iv[1].end, 16);
    ck_assert_uint_eq(f.s.sort_compactions, 0);
}
END_TEST

/* An access out of time order (earlier than its file's last) merges into
 * it when they overlap, extending its start; the bound stays 0. */
START_TEST(out_of_order_overlap_merges_exactly)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    iolens_interval_add(&f.s, 10, 20, 5, 1, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 40, 50, 6, 1, IOLENS_IV_READ);
    iolens_interval_add(&f.s, 5, 12, 5, 2, IOLENS_IV_WRITE);
    iolens_interval_add(&f.s, 50, 60, 6, 4, IOLENS_IV_READ);
    iolens_interval_compact(&f.s, 2);
    ck_assert_uint_eq(f.s.count, 2);
    ck_assert_uint_eq(f.s.sort_compactions, 0);
    ck_assert_double_eq(f.s.error_bound, 0.0);
    ck_assert_double_eq(f.s.iv[0].start, 5);
    ck_assert_double_eq(f.s.iv[0].end, 20);
    ck_assert_int_eq(f.s.iv[0].bytes, 3);
    ck_assert_uint_eq(f.s.iv[0].flags, IOLENS_IV_READ | IOLENS_IV_WRITE);
    ck_assert_double_eq(f.s.iv[1].end, 60);
    ck_assert_uint_eq(f.s.iv[1].accesses, 2);
}
END_TEST

/* Every access another file: the in-order passes free nothing and the
 * sort-based path runs (and is counted); reset clears the counter. */
START_TEST(many_files_take_sort_path)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, 16 * sizeof(struct iolens_interval));
    for (int i = 0; i < 16; i++)
        iolens_interval_add(&f.s, 10.0 * i, 10.0 * i + 1, 500 + (uint64_t)i, 1, 0);
    ck_assert_uint_eq(f.s.sort_compactions, 0);
    iolens_interval_add(&f.s, 200, 201, 600, 1, 0);
    ck_assert_uint_eq(f.s.sort_compactions, 1);
    ck_assert_uint_eq(f.s.count, 9);
    ck_assert_double_eq(f.s.error_bound, 8 * 9.0);
    iolens_interval_store_reset(&f.s);
    ck_assert_uint_eq(f.s.sort_compactions, 0);
}
END_TEST

/* ------------------------------------------------------------ threads -- */

#define THREADS 4
#define PER_THREAD 20000

static struct iolens_interval_store shared_store;

static void *add_many(void *arg)
{
    double base = (double)(uintptr_t)arg * 1e6;
    for (int i = 0; i < PER_THREAD; i++)
        iolens_interval_add(&shared_store, base + 2.0 * i, base + 2.0 * i + 1, (uintptr_t)arg, 3,
                            IOLENS_IV_WRITE);
    return NULL;
}

/* Concurrent appends and compactions lose nothing. */
START_TEST(threads_lose_nothing)
{
    static struct iolens_interval mem[256];
    iolens_interval_store_init(&shared_store, mem, sizeof mem);
    pthread_t th[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, add_many, (void *)i), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    uint64_t accesses = 0;
    int64_t bytes = 0;
    for (size_t i = 0; i < shared_store.count; i++) {
        accesses += shared_store.iv[i].accesses;
        bytes += shared_store.iv[i].bytes;
    }
    ck_assert_uint_eq(shared_store.accesses, THREADS * PER_THREAD);
    ck_assert_uint_eq(accesses, THREADS * PER_THREAD);
    ck_assert_int_eq(bytes, 3 * THREADS * PER_THREAD);
    ck_assert_double_eq(shared_store.sum_duration, THREADS * PER_THREAD);
    double u = store_union(&shared_store, 0, 1);
    ck_assert(u >= THREADS * PER_THREAD && u <= THREADS * PER_THREAD + shared_store.error_bound);
}
END_TEST

#define LAYER_THREADS 3
#define LAYER_PER_THREAD 5000
#define MAIN_ACCESSES 700

static void *add_to_layer(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    for (int i = 0; i < LAYER_PER_THREAD; i++)
        iolens_intervals_add(IOLENS_LAYER_POSIX, 10.0 * i, 10.0 * i + 1, id, 7, IOLENS_IV_WRITE);
    return NULL;
}

/* Threads other than the main one record into stores of their own (no
 * shared lock on the hot path), and packing merges every store. */
START_TEST(layer_stores_per_thread)
{
    ck_assert_int_eq(iolens_budget_init(64u << 20), 0);
    iolens_intervals_init(64u << 20);
    pthread_t th[LAYER_THREADS];
    for (uintptr_t i = 0; i < LAYER_THREADS; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, add_to_layer, (void *)(i + 1)), 0);
    for (int i = 0; i < MAIN_ACCESSES; i++)
        iolens_intervals_add(IOLENS_LAYER_POSIX, 10.0 * i + 5, 10.0 * i + 6, 99, 2, IOLENS_IV_READ);
    for (int i = 0; i < LAYER_THREADS; i++)
        pthread_join(th[i], NULL);

    /* The main thread's accesses alone are in the main store. */
    ck_assert_uint_eq(iolens_layer_intervals[IOLENS_LAYER_POSIX].accesses, MAIN_ACCESSES);

    struct iolens_intervals_packed packed[IOLENS_NLAYERS];
    int n = iolens_intervals_pack(0, 0.0, packed);
    ck_assert_int_ge(n, 1);
    ck_assert_uint_eq(packed[0].region_kind, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(packed[0].accesses, LAYER_THREADS * LAYER_PER_THREAD + MAIN_ACCESSES);
    ck_assert_int_eq(packed[0].bytes, 7 * LAYER_THREADS * LAYER_PER_THREAD + 2 * MAIN_ACCESSES);
    /* Room enough: nothing was merged, every access is its own interval. */
    ck_assert_uint_eq(packed[0].count, LAYER_THREADS * LAYER_PER_THREAD + MAIN_ACCESSES);
    uint64_t per_file[LAYER_THREADS + 1] = {0};
    for (size_t i = 0; i < packed[0].count; i++) {
        uint64_t f = packed[0].iv[i].file_id;
        per_file[f == 99 ? 0 : f] += packed[0].iv[i].accesses;
    }
    ck_assert_uint_eq(per_file[0], MAIN_ACCESSES);
    for (int t = 1; t <= LAYER_THREADS; t++)
        ck_assert_uint_eq(per_file[t], LAYER_PER_THREAD);

    /* A forked child's reset empties the thread stores too. */
    iolens_intervals_packed_free(packed, n);
    iolens_intervals_reset();
    n = iolens_intervals_pack(0, 0.0, packed);
    ck_assert_int_ge(n, 1);
    ck_assert_uint_eq(packed[0].accesses, 0);
    ck_assert_uint_eq(packed[0].count, 0);
    iolens_intervals_packed_free(packed, n);
    iolens_budget_fini();
}
END_TEST

/* The log written at SIGTERM packs a snapshot whose runtime locks were
 * released wherever its threads stood: an entry a thread was appending
 * may be counted but unwritten, an access merged into an entry not yet
 * in the store's total.  Packing leaves out such an entry (no access, an
 * end before its start), keeps every whole one, and never gives a total
 * below the entries' accesses (the reader refuses that). */
START_TEST(packing_leaves_out_a_torn_entry)
{
    ck_assert_int_eq(iolens_budget_init(64u << 20), 0);
    iolens_intervals_init(64u << 20);
    struct iolens_interval_store *s = &iolens_layer_intervals[IOLENS_LAYER_POSIX];
    for (int i = 0; i < 3; i++)
        iolens_interval_add(s, 100.0 * i, 100.0 * i + 1, 40 + (uint64_t)i, 8, IOLENS_IV_WRITE);
    ck_assert_uint_eq(s->count, 3);
    /* Counted, never written: as the budget hands it out, zeros. */
    memset(&s->iv[s->count], 0, sizeof s->iv[0]);
    s->count++;
    /* Half written: the time of a new access, no access counted yet. */
    s->iv[s->count] = (struct iolens_interval){500.0, 499.0, 43, 8, 0, IOLENS_IV_WRITE, 1.0};
    s->count++;
    /* An access merged into the last whole entry, not yet in the total. */
    s->iv[2].accesses++;
    struct iolens_intervals_packed packed[IOLENS_NLAYERS];
    int n = iolens_intervals_pack(0, 0.0, packed);
    ck_assert_int_ge(n, 1);
    ck_assert_uint_eq(packed[0].region_kind, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(packed[0].count, 3);
    for (size_t i = 0; i < packed[0].count; i++) {
        ck_assert_uint_eq(packed[0].iv[i].file_id, 40 + i);
        ck_assert_uint_eq(packed[0].iv[i].accesses, 1 + (i == 2));
    }
    ck_assert_uint_eq(s->accesses, 3);
    ck_assert_uint_eq(packed[0].accesses, 4); /* never fewer than the entries hold */
    iolens_intervals_packed_free(packed, n);
    iolens_intervals_reset();
    iolens_budget_fini();
}
END_TEST

/* ------------------------------------------------------------ bounds -- */

/* The stores' intervals as items of analysis/interval_bounds.h, store k being
 * group k (disjoint when its accesses never overlapped, with the floor
 * sum_duration - overlap), and their bounds. */
static struct iolens_union_bounds bounds_of_stores(const struct iolens_interval_store *st,
                                                   size_t nstores)
{
    size_t total = 0;
    double error_bound = 0;
    for (size_t k = 0; k < nstores; k++) {
        total += st[k].count;
        error_bound += st[k].error_bound;
    }
    struct iolens_union_item *it = malloc((total + 1) * sizeof *it);
    struct iolens_union_group *g = malloc((nstores + 1) * sizeof *g);
    ck_assert(it != NULL && g != NULL);
    size_t n = 0;
    for (size_t k = 0; k < nstores; k++) {
        g[k] = (struct iolens_union_group){st[k].overlap == 0, st[k].sum_duration - st[k].overlap};
        for (size_t i = 0; i < st[k].count; i++)
            it[n++] = (struct iolens_union_item){st[k].iv[i].start, st[k].iv[i].end,
                                                 st[k].iv[i].busy, k};
    }
    struct iolens_union_bounds b;
    ck_assert_int_eq(iolens_union_bounds(it, n, g, nstores, error_bound, &b), 0);
    free(it);
    free(g);
    return b;
}

/* The invariants the bounds promise, against the true union of the raw
 * accesses: lower <= truth <= upper, lower <= estimate <= upper, and the
 * upper bound never above the summed access time nor last end - first
 * start. */
static void check_invariants(const struct iolens_union_bounds *b, double truth, double busy,
                             double first, double last, double tol)
{
    ck_assert_msg(b->lower <= truth + tol, "lower %.9f above the truth %.9f", b->lower, truth);
    ck_assert_msg(truth <= b->upper + tol, "upper %.9f below the truth %.9f", b->upper, truth);
    ck_assert(b->lower <= b->estimate && b->estimate <= b->upper);
    ck_assert_msg(b->upper <= busy + tol, "upper %.9f above the summed busy %.9f", b->upper, busy);
    ck_assert_msg(b->upper <= last - first + tol, "upper %.9f above last - first %.9f", b->upper,
                  last - first);
}

/* Two groups built by hand: A [0, 10] busy 5, B [5, 15] busy 5, the
 * store's merged gaps 10 in all.  upper = min(15, 5 + 5) = 10; lower =
 * max(15 - 10, 5, 5 + 5 - (10 + 10 - 15)) = 5; the estimate: density 0.5
 * alone on [0, 5] and [10, 15], 1 - 0.5 * 0.5 on [5, 10]: 2.5 + 3.75 +
 * 2.5 = 8.75.  A third item of A inside [0, 10] with busy 5 makes A's
 * density 1 there (a disjoint group's densities add up). */
START_TEST(bounds_by_hand)
{
    struct iolens_union_item it[3] = {{0, 10, 5, 0}, {5, 15, 5, 1}, {2, 4, 2, 0}};
    struct iolens_union_group g[2] = {{1, 0}, {1, 0}};
    struct iolens_union_bounds b;
    ck_assert_int_eq(iolens_union_bounds(it, 2, g, 2, 10, &b), 0);
    ck_assert_double_eq(b.spans, 15);
    ck_assert_double_eq(b.upper, 10);
    ck_assert_double_eq(b.lower, 5);
    ck_assert_double_eq(b.estimate, 8.75);
    /* A's density is 1 on [2, 4] now (0.5 + 1, capped): 8.75 - 1 + 2 */
    struct iolens_union_item it3[3] = {{0, 10, 5, 0}, {5, 15, 5, 1}, {2, 4, 2, 0}};
    ck_assert_int_eq(iolens_union_bounds(it3, 3, g, 2, 10, &b), 0);
    ck_assert_double_eq(b.upper, 12);
    ck_assert_double_eq(b.lower, 7);   /* 7 + 5 - (10 + 10 - 15) */
    ck_assert_double_eq(b.estimate, 9.75);
    /* No merged gap (error bound 0): the spans are the union, exactly. */
    ck_assert_int_eq(iolens_union_bounds(it, 2, g, 2, 0, &b), 0);
    ck_assert_double_eq(b.lower, 10);
    ck_assert_double_eq(b.upper, 10);
    ck_assert_double_eq(b.estimate, 10);
    /* Nothing, and items that add nothing or name no group. */
    struct iolens_union_item junk[3] = {{3, 3, 0, 0}, {4, 2, 1, 0}, {0, 1, 1, 7}};
    ck_assert_int_eq(iolens_union_bounds(junk, 3, g, 2, 0, &b), 0);
    ck_assert_double_eq(b.upper, 0);
    ck_assert_double_eq(b.estimate, 0);
}
END_TEST

/* A serial program (one thread: no access overlaps another) reading file
 * A and writing file B in turn, 100000 times, with idle gaps between the
 * calls, through a store of 16 entries: it compacts thousands of times,
 * merging gaps.  Every figure is an integer: the true union is the sum
 * of the durations, by arithmetic.  The union of the stored spans (the
 * figure before the fix) is far above it, and above the summed access
 * time; the bounds are both exactly the truth. */
START_TEST(bounds_serial_stream_exact)
{
    static struct iolens_interval mem[16];
    struct iolens_interval_store st;
    iolens_interval_store_init(&st, mem, sizeof mem);
    rng_state = 42;
    double t = 1000, busy = 0, first = t;
    for (int i = 0; i < 100000; i++) {
        double d = (double)(1 + rnd_below(20)), gap = (double)rnd_below(100);
        iolens_interval_add(&st, t, t + d, i % 2 ? 2 : 1, 1, i % 2 ? IOLENS_IV_WRITE : IOLENS_IV_READ);
        busy += d;
        t += d + gap;
    }
    double last = t;   /* at least the last end */
    ck_assert_double_eq(st.sum_duration, busy);
    ck_assert_double_eq(st.overlap, 0);
    ck_assert(st.error_bound > 0);
    double spans = store_union(&st, 0, 1);
    ck_assert_msg(spans > 1.5 * busy, "spans %.0f, busy %.0f: the store merged no gap?", spans,
                  busy);
    struct iolens_union_bounds b = bounds_of_stores(&st, 1);
    check_invariants(&b, busy, busy, first, last, 0);
    ck_assert_double_eq(b.lower, busy);
    ck_assert_double_eq(b.upper, busy);
    ck_assert_double_eq(b.estimate, busy);
}
END_TEST

/* Random groups against the true union of their raw accesses: up to 4
 * stores of 8 to 64 entries, each serial (disjoint) or with accesses that
 * overlap each other (as threads sharing a store, or nonblocking I/O),
 * on integer times so that every sum is exact.  The invariants hold for
 * every sequence. */
START_TEST(bounds_invariants_random)
{
    static struct iolens_interval mem[4][64];
    rng_state = 7;
    for (int round = 0; round < 300; round++) {
        struct iolens_interval_store st[4];
        size_t nstores = 1 + rnd_below(4), total = 0;
        struct iolens_span *raw = malloc(4 * 2000 * sizeof *raw);
        ck_assert_ptr_nonnull(raw);
        double busy = 0, first = INFINITY, last = -INFINITY;
        for (size_t k = 0; k < nstores; k++) {
            size_t cap = 8 + rnd_below(57);
            iolens_interval_store_init(&st[k], mem[k], cap * sizeof mem[k][0]);
            int serial = rnd_below(2) == 0;
            size_t n = 1 + rnd_below(2000);
            double t = (double)rnd_below(1000);
            for (size_t i = 0; i < n; i++) {
                double d = (double)rnd_below(30);
                double start = serial ? t : t - (double)rnd_below(40);
                if (start < 0)
                    start = 0;
                iolens_interval_add(&st[k], start, start + d, 1 + rnd_below(3), 1, 0);
                raw[total++] = (struct iolens_span){start, start + d};
                busy += d;
                first = start < first ? start : first;
                last = start + d > last ? start + d : last;
                t = (serial ? start + d : t) + (double)rnd_below(50);
            }
        }
        double truth = iolens_union_length(raw, total);
        struct iolens_union_bounds b = bounds_of_stores(st, nstores);
        check_invariants(&b, truth, busy, first, last, 1e-6);
        free(raw);
    }
}
END_TEST

/* Four ranks each making 10^6 small accesses (1 to 4 us, 0 to 2 us
 * apart, all at once) through stores of the size IOLENS_MEMORY=256K
 * gives each (a quarter for intervals, three layers: 455 entries): the
 * estimate is within 5% of the true union of the 4 x 10^6 accesses,
 * which lies within the bounds. */
START_TEST(bounds_four_ranks_small_accesses)
{
    enum { RANKS = 4, N = 1000000 };
    size_t cap = 256 * 1024 / 4 / 3 / sizeof(struct iolens_interval);
    struct iolens_interval *mem = malloc(RANKS * cap * sizeof *mem);
    struct iolens_span *raw = malloc((size_t)RANKS * N * sizeof *raw);
    ck_assert(mem != NULL && raw != NULL);
    struct iolens_interval_store st[RANKS];
    rng_state = 11;
    double busy = 0, first = INFINITY, last = -INFINITY;
    size_t total = 0;
    for (int r = 0; r < RANKS; r++) {
        iolens_interval_store_init(&st[r], mem + r * cap, cap * sizeof *mem);
        double t = 1.0 + 1e-6 * (double)rnd_below(100);
        for (int i = 0; i < N; i++) {
            double d = 1e-6 + 3e-6 * (double)rnd_below(1000) / 1000;
            iolens_interval_add(&st[r], t, t + d, 5, 1, IOLENS_IV_WRITE);
            raw[total++] = (struct iolens_span){t, t + d};
            busy += d;
            first = t < first ? t : first;
            last = t + d > last ? t + d : last;
            t += d + 2e-6 * (double)rnd_below(1000) / 1000;
        }
        ck_assert_double_eq(st[r].overlap, 0);
    }
    double truth = iolens_union_length(raw, total);
    struct iolens_union_bounds b = bounds_of_stores(st, RANKS);
    check_invariants(&b, truth, busy, first, last, 1e-9);
    ck_assert_msg(fabs(b.estimate - truth) <= 0.05 * truth, "estimate %.6f, truth %.6f",
                  b.estimate, truth);
    free(raw);
    free(mem);
}
END_TEST

/* A store's overlap: what of each access lies before the latest end seen. */
START_TEST(overlap_measured)
{
    struct store_fixture f;
    iolens_interval_store_init(&f.s, f.mem, sizeof f.mem);
    iolens_interval_add(&f.s, 10, 20, 1, 1, 0);
    iolens_interval_add(&f.s, 20, 25, 1, 1, 0);   /* touches: no overlap */
    ck_assert_double_eq(f.s.overlap, 0);
    iolens_interval_add(&f.s, 15, 30, 2, 1, 0);   /* 10 of it before 25 */
    ck_assert_double_eq(f.s.overlap, 10);
    iolens_interval_add(&f.s, 0, 5, 2, 1, 0);     /* wholly before 30 */
    ck_assert_double_eq(f.s.overlap, 15);
    ck_assert_double_eq(f.s.sum_duration, 35);    /* union 30 >= 35 - 15 */
    ck_assert_double_eq(f.s.iv[0].busy + f.s.iv[1].busy + f.s.iv[2].busy, 35);
    iolens_interval_store_reset(&f.s);
    ck_assert_double_eq(f.s.overlap, 0);
    iolens_interval_add(&f.s, 1, 2, 1, 1, 0);
    ck_assert_double_eq(f.s.overlap, 0);
}
END_TEST

static Suite *intervals_suite(void)
{
    Suite *s = suite_create("intervals");
    TCase *u = tcase_create("union");
    tcase_add_test(u, paper_figure_2);
    tcase_add_test(u, nested_identical_touching);
    tcase_add_test(u, empty_input_and_empty_spans);
    tcase_add_test(u, adversarial_orders);
    tcase_add_test(u, million_random_vs_grid);
    tcase_add_test(u, random_reals_vs_events);
    suite_add_tcase(s, u);
    TCase *st = tcase_create("store");
    tcase_add_test(st, init_capacity_and_alignment);
    tcase_add_test(st, add_records_each_access);
    tcase_add_test(st, compact_merges_overlaps_exactly);
    tcase_add_test(st, compact_merges_smallest_gaps);
    tcase_add_test(st, compact_ties);
    tcase_add_test(st, accesses_saturate);
    tcase_add_test(st, merge_on_arrival);
    tcase_add_test(st, compact_across_files);
    tcase_add_test(st, compact_across_files_overlap_first);
    tcase_add_test(st, property_random_adds);
    tcase_add_test(st, property_no_gap_merge_no_bound);
    tcase_add_test(st, property_many_files);
    tcase_add_test(st, sequential_stream_avoids_sort);
    tcase_add_test(st, interleaved_streams_avoid_sort);
    tcase_add_test(st, equal_gaps_merge_exactly_enough);
    tcase_add_test(st, steady_stream_keeps_half);
    tcase_add_test(st, small_gaps_first_in_append_order);
    tcase_add_test(st, out_of_order_overlap_merges_exactly);
    tcase_add_test(st, many_files_take_sort_path);
    tcase_add_test(st, fast_path_matches_add);
    tcase_add_test(st, fast_path_bucket_edge);
    tcase_add_test(st, threads_lose_nothing);
    tcase_add_test(st, layer_stores_per_thread);
    tcase_add_test(st, packing_leaves_out_a_torn_entry);
    tcase_add_test(st, overlap_measured);
    tcase_add_test(st, bounds_by_hand);
    tcase_add_test(st, bounds_serial_stream_exact);
    tcase_add_test(st, bounds_invariants_random);
    tcase_add_test(st, bounds_four_ranks_small_accesses);
    suite_add_tcase(s, st);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(intervals_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
