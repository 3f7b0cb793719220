/* Counter rules for one access (lib/layers/access_stats.c). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "layers/access_stats.h"
#include "core/budget.h"
#include "iolens/log_format.h"

START_TEST(every_bin_boundary)
{
    static const struct { int64_t size; int bin; } cases[] = {
        { 0, 0 }, { 1, 0 }, { 100, 0 }, { 101, 1 }, { 1024, 1 }, { 1025, 2 },
        { 10240, 2 }, { 10241, 3 }, { 102400, 3 }, { 102401, 4 },
        { 1048576, 4 }, { 1048577, 5 }, { 4194304, 5 }, { 4194305, 6 },
        { 10485760, 6 }, { 10485761, 7 }, { 104857600, 7 }, { 104857601, 8 },
        { 1073741824, 8 }, { 1073741825, 9 }, { INT64_MAX, 9 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(iolens_size_bin(cases[i].size) == cases[i].bin,
                      "size %lld: bin %d, want %d", (long long)cases[i].size,
                      iolens_size_bin(cases[i].size), cases[i].bin);
    ck_assert_int_eq(IOLENS_NSIZE_BINS, 10);
}
END_TEST

START_TEST(alignment)
{
    ck_assert_int_eq(iolens_is_misaligned(0, 4096), 0);
    ck_assert_int_eq(iolens_is_misaligned(4096, 4096), 0);
    ck_assert_int_eq(iolens_is_misaligned(8192, 4096), 0);
    ck_assert_int_eq(iolens_is_misaligned(1, 4096), 1);
    ck_assert_int_eq(iolens_is_misaligned(4095, 4096), 1);
    ck_assert_int_eq(iolens_is_misaligned(4097, 4096), 1);
    ck_assert_int_eq(iolens_is_misaligned(24, 8), 0);
    ck_assert_int_eq(iolens_is_misaligned(20, 8), 1);
    ck_assert_int_eq(iolens_is_misaligned(30, 3), 0);      /* not only powers of 2 */
    ck_assert_int_eq(iolens_is_misaligned(31, 3), 1);
    ck_assert_int_eq(iolens_is_misaligned(UINT64_MAX, 1), 0);
    ck_assert_int_eq(iolens_is_misaligned(UINT64_MAX, 2), 1);
    /* No alignment known: never counted. */
    ck_assert_int_eq(iolens_is_misaligned(13, 0), 0);
    ck_assert_int_eq(iolens_is_misaligned(13, -1), 0);
}
END_TEST

START_TEST(consecutive_and_sequential)
{
    /* No previous access: neither. */
    ck_assert_int_eq(iolens_is_consecutive(0, -1), 0);
    ck_assert_int_eq(iolens_is_sequential(0, -1), 0);
    ck_assert_int_eq(iolens_is_sequential(100, -1), 0);
    /* Right after the previous end: both. */
    ck_assert_int_eq(iolens_is_consecutive(4096, 4096), 1);
    ck_assert_int_eq(iolens_is_sequential(4096, 4096), 1);
    ck_assert_int_eq(iolens_is_consecutive(0, 0), 1);
    /* A gap forward: sequential only. */
    ck_assert_int_eq(iolens_is_consecutive(8192, 4096), 0);
    ck_assert_int_eq(iolens_is_sequential(8192, 4096), 1);
    /* Backwards: neither. */
    ck_assert_int_eq(iolens_is_consecutive(0, 4096), 0);
    ck_assert_int_eq(iolens_is_sequential(4095, 4096), 0);
}
END_TEST

START_TEST(thousand_sequential_writes_give_999_consecutive)
{
    int64_t prev_end = -1, offset = 0;
    int consec = 0, seq = 0;
    for (int i = 0; i < 1000; i++) {
        consec += iolens_is_consecutive(offset, prev_end);
        seq += iolens_is_sequential(offset, prev_end);
        prev_end = offset + 4096;
        offset += 4096;
    }
    ck_assert_int_eq(consec, 999);
    ck_assert_int_eq(seq, 999);
}
END_TEST

START_TEST(strided_reads_are_sequential_not_consecutive)
{
    int64_t prev_end = -1;
    int consec = 0, seq = 0;
    for (int64_t i = 0; i < 100; i++) {
        int64_t offset = i * 10000;
        consec += iolens_is_consecutive(offset, prev_end);
        seq += iolens_is_sequential(offset, prev_end);
        prev_end = offset + 1000;
    }
    ck_assert_int_eq(consec, 0);
    ck_assert_int_eq(seq, 99);
}
END_TEST

/* Darshan's rules on a known sequence of reads of one file; the expected
 * counts are worked out by hand beside each access. */
START_TEST(darshan_consec_seq_stride)
{
    static const struct { int64_t off, size, consec, seq, stride; } seq_[] = {
        {0, 100, 0, 0, 0},     /* last 0: 0 is not past it */
        {100, 100, 1, 1, 0},   /* right after byte 99: gap 0, not counted */
        {300, 100, 0, 1, 100}, /* bytes 200..299 skipped */
        {50, 10, 0, 0, 0},     /* backwards: nothing */
        {60, 40, 1, 1, 0},     /* right after byte 59 */
        {1000, 1, 0, 1, 900},  /* bytes 100..999 skipped */
        {1000, 1, 0, 0, 0},    /* the same byte again: not past it */
    };
    int64_t last = 0;
    for (size_t i = 0; i < sizeof seq_ / sizeof seq_[0]; i++) {
        ck_assert_int_eq(iolens_is_darshan_consecutive(seq_[i].off, last), seq_[i].consec);
        ck_assert_int_eq(iolens_is_darshan_sequential(seq_[i].off, last), seq_[i].seq);
        ck_assert_int_eq(iolens_darshan_stride(seq_[i].off, last), seq_[i].stride);
        last = seq_[i].off + seq_[i].size - 1;
    }
    /* Before any access last is 0: a first access at 1 is consecutive,
     * one further on sequential but without a stride. */
    ck_assert_int_eq(iolens_is_darshan_consecutive(1, 0), 1);
    ck_assert_int_eq(iolens_is_darshan_sequential(4096, 0), 1);
    ck_assert_int_eq(iolens_darshan_stride(4096, 0), 0);
}
END_TEST

/* H5D shapes are right-aligned, as Darshan's LENGTH_D1..D5. */
START_TEST(dims_right_aligned)
{
    int64_t len[5] = {0};
    iolens_right_align_dims((const int64_t[]){10, 20}, 2, len, 5);
    ck_assert_int_eq(len[0], 0);
    ck_assert_int_eq(len[2], 0);
    ck_assert_int_eq(len[3], 10);
    ck_assert_int_eq(len[4], 20);
    int64_t one[5] = {0};
    iolens_right_align_dims((const int64_t[]){7}, 1, one, 5);
    ck_assert_int_eq(one[4], 7);
    ck_assert_int_eq(one[0], 0);
    int64_t six[5] = {0};
    iolens_right_align_dims((const int64_t[]){1, 2, 3, 4, 5, 6}, 6, six, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(six[i], i + 2); /* the last five */
}
END_TEST

static void add_n(struct iolens_common_values *cv, int64_t value, int n)
{
    for (int i = 0; i < n; i++)
        iolens_common_add(cv, value);
}

START_TEST(common_top4_exact_and_ordered)
{
    struct iolens_common_values cv = { 0 };
    /* 8 distinct values, interleaved, so the answer is exact. */
    static const int64_t v[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
    static const int n[8] = { 3, 7, 1, 5, 9, 2, 4, 6 };
    for (int round = 0; round < 9; round++)
        for (int i = 0; i < 8; i++)
            if (round < n[i])
                iolens_common_add(&cv, v[i]);
    int64_t values[4], counts[4];
    iolens_common_top(&cv, 4, values, counts);
    ck_assert_int_eq(values[0], 50); ck_assert_int_eq(counts[0], 9);
    ck_assert_int_eq(values[1], 20); ck_assert_int_eq(counts[1], 7);
    ck_assert_int_eq(values[2], 80); ck_assert_int_eq(counts[2], 6);
    ck_assert_int_eq(values[3], 40); ck_assert_int_eq(counts[3], 5);
    int64_t all_v[8], all_c[8];
    iolens_common_top(&cv, 8, all_v, all_c);
    ck_assert_int_eq(all_v[7], 30); ck_assert_int_eq(all_c[7], 1);
    ck_assert_int_eq(all_v[6], 60); ck_assert_int_eq(all_c[6], 2);
}
END_TEST

START_TEST(common_ties_larger_value_first)
{
    struct iolens_common_values cv = { 0 };
    add_n(&cv, 4096, 3);
    add_n(&cv, 512, 3);
    add_n(&cv, 65536, 3);
    add_n(&cv, -8, 3);
    add_n(&cv, 1, 2);
    int64_t values[4], counts[4];
    iolens_common_top(&cv, 4, values, counts);
    ck_assert_int_eq(values[0], 65536);
    ck_assert_int_eq(values[1], 4096);
    ck_assert_int_eq(values[2], 512);
    ck_assert_int_eq(values[3], -8);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(counts[i], 3);
}
END_TEST

START_TEST(common_unused_slots_are_zero)
{
    struct iolens_common_values cv = { 0 };
    int64_t values[4] = { 9, 9, 9, 9 }, counts[4] = { 9, 9, 9, 9 };
    iolens_common_top(&cv, 4, values, counts);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(values[i], 0);
        ck_assert_int_eq(counts[i], 0);
    }
    add_n(&cv, 7, 2);
    iolens_common_top(&cv, 4, values, counts);
    ck_assert_int_eq(values[0], 7); ck_assert_int_eq(counts[0], 2);
    ck_assert_int_eq(values[1], 0); ck_assert_int_eq(counts[1], 0);
    ck_assert_int_eq(values[3], 0); ck_assert_int_eq(counts[3], 0);
}
END_TEST

START_TEST(common_heavy_hitter_survives_many_rare_values)
{
    struct iolens_common_values cv = { 0 };
    for (int i = 0; i < 1000; i++) {
        iolens_common_add(&cv, 4096);
        iolens_common_add(&cv, 100000 + i);   /* each seen once */
    }
    ck_assert_int_eq(cv.used, IOLENS_COMMON_SLOTS);
    int64_t values[4], counts[4];
    iolens_common_top(&cv, 4, values, counts);
    ck_assert_int_eq(values[0], 4096);
    ck_assert_int_eq(counts[0], 1000);
}
END_TEST

START_TEST(common_eviction_inherits_min_count)
{
    enum { S = IOLENS_COMMON_SLOTS };
    struct iolens_common_values cv = { 0 };
    for (int v = 1; v <= S; v++)
        add_n(&cv, v, v == 1 ? 1 : 5);
    int64_t values[S], counts[S];
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts), IOLENS_TOP_EXACT);
    iolens_common_add(&cv, 99);   /* evicts 1 (count 1), takes count 2 */
    ck_assert_int_eq(cv.used, S);
    ck_assert_int_eq(iolens_common_top(&cv, S, values, counts), IOLENS_TOP_ESTIMATE);
    ck_assert_int_eq(values[S - 1], 99);
    ck_assert_int_eq(counts[S - 1], 2);
    for (int i = 0; i < S - 1; i++)
        ck_assert_int_ne(values[i], 1);
}
END_TEST

/* Exact top-4 tables: with few distinct values (here 31 strides, as an
 * IOR -z run of 16 transfers per block has), in a shuffled order, every
 * count is exact and said to be; the old 8-slot table inflated some
 * counts to 4 (truth 2) and dropped others.  The truth is counted here
 * by brute force. */
START_TEST(common_exact_while_values_fit)
{
    enum { NV = 31, N = 4000 };
    struct iolens_common_values cv = { 0 };
    int64_t truth[NV] = { 0 };
    uint64_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int k = (int)((x >> 33) % (NV * (NV + 1) / 2)), v = 0;
        while (k > v) /* value v with weight v + 1: the counts all differ */
            k -= ++v;
        truth[v]++;
        iolens_common_add(&cv, (v - 15) * 65536);
    }
    int64_t values[NV], counts[NV];
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts), IOLENS_TOP_EXACT);
    iolens_common_top(&cv, NV, values, counts);
    int64_t total = 0;
    for (int i = 0; i < NV; i++) {
        int v = (int)(values[i] / 65536) + 15;
        ck_assert_int_ge(v, 0);
        ck_assert_int_lt(v, NV);
        ck_assert_int_eq(counts[i], truth[v]);
        total += counts[i];
    }
    ck_assert_int_eq(total, N);
}
END_TEST

START_TEST(common_state_says_how_exact)
{
    struct iolens_common_values cv = { 0 };
    int64_t values[4], counts[4];
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts), IOLENS_TOP_EXACT_ALL);
    for (int v = 1; v <= 4; v++)
        add_n(&cv, v, v);
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts), IOLENS_TOP_EXACT_ALL);
    iolens_common_add(&cv, 5);
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts), IOLENS_TOP_EXACT);
    /* 4, 3, 2 then 5 and 1 tie at one: the larger value first */
    ck_assert_int_eq(values[3], 5);
    ck_assert_int_eq(counts[3], 1);
}
END_TEST

START_TEST(common_merge)
{
    struct iolens_common_values a = { 0 }, b = { 0 };
    add_n(&a, 4096, 10);
    add_n(&a, 512, 3);
    add_n(&b, 4096, 5);
    add_n(&b, 8, 20);
    add_n(&b, 1, 1);
    iolens_common_merge(&a, &b);
    ck_assert_int_eq(a.used, 4);
    int64_t values[4], counts[4];
    iolens_common_top(&a, 4, values, counts);
    ck_assert_int_eq(values[0], 8);    ck_assert_int_eq(counts[0], 20);
    ck_assert_int_eq(values[1], 4096); ck_assert_int_eq(counts[1], 15);
    ck_assert_int_eq(values[2], 512);  ck_assert_int_eq(counts[2], 3);
    ck_assert_int_eq(values[3], 1);    ck_assert_int_eq(counts[3], 1);
    /* src is unchanged */
    ck_assert_int_eq(b.used, 3);
}
END_TEST

START_TEST(common_merge_overflow_keeps_most_frequent)
{
    struct iolens_common_values a = { 0 }, b = { 0 };
    enum { S = IOLENS_COMMON_SLOTS };
    for (int v = 1; v <= S; v++)
        add_n(&a, v, v);               /* counts 1..S */
    for (int v = 101; v <= 100 + S; v++)
        add_n(&b, v, v - 100 + S / 2); /* counts S/2+1 .. 3S/2 */
    ck_assert_int_eq(a.estimated, 0);
    iolens_common_merge(&a, &b);
    ck_assert_int_eq(a.used, S);
    ck_assert_int_eq(a.estimated, 1); /* values were given up */
    int64_t values[S], counts[S];
    ck_assert_int_eq(iolens_common_top(&a, S, values, counts), IOLENS_TOP_ESTIMATE);
    /* the S largest counts of the union: b's all, then a's largest */
    for (int i = 0; i < S; i++)
        ck_assert_int_ge(counts[i], S / 2 + 1);
    ck_assert_int_eq(values[0], 100 + S);
    ck_assert_int_eq(counts[0], S + S / 2);
}
END_TEST

START_TEST(common_merge_into_empty)
{
    struct iolens_common_values a = { 0 }, b = { 0 };
    add_n(&b, 3, 2);
    iolens_common_merge(&a, &b);
    iolens_common_merge(&a, &(struct iolens_common_values){ 0 });
    int64_t values[4], counts[4];
    iolens_common_top(&a, 4, values, counts);
    ck_assert_int_eq(a.used, 1);
    ck_assert_int_eq(values[0], 3);
    ck_assert_int_eq(counts[0], 2);
}
END_TEST

START_TEST(nonoverlapping_time)
{
    double last_end = 0.0, total = 0.0;
    total = iolens_time_add_nonoverlap(total, &last_end, 0.0, 1.0);
    ck_assert_double_eq(total, 1.0);
    total = iolens_time_add_nonoverlap(total, &last_end, 0.5, 2.0);
    ck_assert_double_eq(total, 2.0);
    ck_assert_double_eq(last_end, 2.0);
    total = iolens_time_add_nonoverlap(total, &last_end, 3.0, 4.0);
    ck_assert_double_eq(total, 3.0);
    total = iolens_time_add_nonoverlap(total, &last_end, 0.2, 0.3);
    ck_assert_double_eq(total, 3.0);
    ck_assert_double_eq(last_end, 4.0);
    /* Ending exactly at last_end adds nothing; a zero-length call neither. */
    total = iolens_time_add_nonoverlap(total, &last_end, 3.5, 4.0);
    ck_assert_double_eq(total, 3.0);
    total = iolens_time_add_nonoverlap(total, &last_end, 5.0, 5.0);
    ck_assert_double_eq(total, 3.0);
    ck_assert_double_eq(last_end, 5.0);
}
END_TEST

/* The fast test with a prepared mask answers exactly as the division. */
START_TEST(alignment_mask_matches_division)
{
    ck_assert_int_eq(iolens_align_mask(4096), 4095);
    ck_assert_int_eq(iolens_align_mask(8), 7);
    ck_assert_int_eq(iolens_align_mask(1), 0);
    ck_assert_int_eq(iolens_align_mask(0), 0);
    ck_assert_int_eq(iolens_align_mask(-4096), 0);
    ck_assert_int_eq(iolens_align_mask(3), -1);
    ck_assert_int_eq(iolens_align_mask(4097), -1);
    static const int64_t alignments[] = { -8, 0, 1, 2, 3, 7, 8, 512, 1000, 4096, 65536, 1048576 };
    static const uint64_t values[] = { 0, 1, 2, 3, 7, 8, 9, 511, 512, 999, 1000, 4095, 4096,
                                       4097, 65536, 1048575, 1048576, UINT64_MAX };
    for (size_t a = 0; a < sizeof alignments / sizeof alignments[0]; a++) {
        int64_t mask = iolens_align_mask(alignments[a]);
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++)
            ck_assert_msg(iolens_is_misaligned_masked(values[v], mask, alignments[a]) ==
                              iolens_is_misaligned(values[v], alignments[a]),
                          "value %llu alignment %lld", (unsigned long long)values[v],
                          (long long)alignments[a]);
    }
}
END_TEST

/* A plain restatement of the space-saving rule, without the memo of the
 * last value nor the inline slots, to check that neither changes an
 * answer. */
struct reference_values {
    int64_t value[IOLENS_COMMON_SLOTS], count[IOLENS_COMMON_SLOTS];
    int used;
};
static void reference_add(struct reference_values *cv, int64_t value)
{
    for (int i = 0; i < cv->used; i++)
        if (cv->value[i] == value) {
            cv->count[i]++;
            return;
        }
    if (cv->used < IOLENS_COMMON_SLOTS) {
        cv->value[cv->used] = value;
        cv->count[cv->used++] = 1;
        return;
    }
    int min = 0;
    for (int i = 1; i < cv->used; i++)
        if (cv->count[i] < cv->count[min])
            min = i;
    cv->value[min] = value;
    cv->count[min]++;
}

START_TEST(common_memo_never_changes_the_counts)
{
    struct iolens_common_values cv = { 0 };
    struct reference_values ref = { 0 };
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 20000; i++) {
        /* Runs of one value, drawn from more values than there are slots,
         * so that hits, misses, inserts and evictions all happen. */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* includes 0 and negatives; more values than the inline slots */
        int64_t value = (int64_t)(x % 41) - 2;
        int run = 1 + (int)((x >> 20) % 5);
        for (int r = 0; r < run; r++) {
            iolens_common_add(&cv, value);
            reference_add(&ref, value);
        }
        ck_assert_int_eq(cv.used, ref.used);
        for (int s = 0; s < cv.used; s++) {
            ck_assert_int_eq(iolens_common_values_of(&cv)[s], ref.value[s]);
            ck_assert_int_eq(iolens_common_counts_of(&cv)[s], ref.count[s]);
        }
    }
}
END_TEST

START_TEST(common_memo_on_empty_and_after_merge)
{
    /* An empty summary's slot 0 holds 0: adding 0 must insert it, not
     * count a slot that is not in use. */
    struct iolens_common_values cv = { 0 };
    iolens_common_add(&cv, 0);
    ck_assert_int_eq(cv.used, 1);
    ck_assert_int_eq(cv.value[0], 0);
    ck_assert_int_eq(cv.count[0], 1);
    /* A merge re-sorts the slots; the memo must still find the value. */
    struct iolens_common_values other = { 0 };
    add_n(&cv, 5, 2);
    add_n(&other, 7, 9);
    iolens_common_merge(&cv, &other);
    add_n(&cv, 5, 3);
    add_n(&cv, 0, 1);
    int64_t values[4], counts[4];
    iolens_common_top(&cv, 4, values, counts);
    ck_assert_int_eq(values[0], 7); ck_assert_int_eq(counts[0], 9);
    ck_assert_int_eq(values[1], 5); ck_assert_int_eq(counts[1], 5);
    ck_assert_int_eq(values[2], 0); ck_assert_int_eq(counts[2], 2);
    ck_assert_int_eq(cv.used, 3);
}
END_TEST

/* Past the inline slots the table takes its other slots from the memory
 * budget; with none left it estimates from the value after the inline
 * ones on, and says so (the error path of the growth). */
START_TEST(common_without_budget_estimates_past_inline)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(16384), 0);
    while (iolens_budget_alloc(1024) != NULL)
        ;
    struct iolens_common_values cv = { 0 };
    int64_t values[4], counts[4];
    for (int v = 1; v <= IOLENS_COMMON_INLINE; v++)
        add_n(&cv, v, 10);
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts),
                     IOLENS_COMMON_INLINE > 4 ? IOLENS_TOP_EXACT : IOLENS_TOP_EXACT_ALL);
    iolens_common_add(&cv, 99);
    ck_assert_ptr_null(cv.ext);
    ck_assert_int_eq(cv.used, IOLENS_COMMON_INLINE);
    ck_assert_int_eq(iolens_common_top(&cv, 4, values, counts), IOLENS_TOP_ESTIMATE);
    ck_assert_int_eq(values[0], 99); /* took over a count of 10: 11 */
    ck_assert_int_eq(counts[0], 11);
}
END_TEST

/* The outer slots come from the budget only when a file needs them. */
START_TEST(common_takes_budget_only_past_inline)
{
    struct iolens_budget_stats before, after;
    struct iolens_common_values cv = { 0 };
    iolens_budget_stats(&before);
    for (int v = 1; v <= IOLENS_COMMON_INLINE; v++)
        iolens_common_add(&cv, v);
    iolens_budget_stats(&after);
    ck_assert_ptr_null(cv.ext);
    ck_assert_uint_eq(after.used, before.used);
    iolens_common_add(&cv, 100);
    iolens_budget_stats(&after);
    ck_assert_ptr_nonnull(cv.ext);
    ck_assert_uint_ge(after.used - before.used, sizeof(struct iolens_common_ext));
    int64_t values[IOLENS_COMMON_INLINE + 1], counts[IOLENS_COMMON_INLINE + 1];
    ck_assert_int_eq(iolens_common_top(&cv, IOLENS_COMMON_INLINE + 1, values, counts),
                     IOLENS_TOP_EXACT_ALL);
    ck_assert_int_eq(values[0], 100); /* all once: the largest first */
    ck_assert_int_eq(values[IOLENS_COMMON_INLINE], 1);
}
END_TEST

static void budget_up(void)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
}

static void budget_down(void)
{
    iolens_budget_fini();
}

static Suite *access_stats_suite(void)
{
    Suite *s = suite_create("access_stats");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, every_bin_boundary);
    tcase_add_test(tc, alignment);
    tcase_add_test(tc, alignment_mask_matches_division);
    tcase_add_test(tc, consecutive_and_sequential);
    tcase_add_test(tc, thousand_sequential_writes_give_999_consecutive);
    tcase_add_test(tc, strided_reads_are_sequential_not_consecutive);
    tcase_add_test(tc, nonoverlapping_time);
    tcase_add_test(tc, darshan_consec_seq_stride);
    tcase_add_test(tc, dims_right_aligned);
    suite_add_tcase(s, tc);
    TCase *cv = tcase_create("common_values");
    tcase_add_checked_fixture(cv, budget_up, budget_down);
    tcase_add_test(cv, common_without_budget_estimates_past_inline);
    tcase_add_test(cv, common_takes_budget_only_past_inline);
    tcase_add_test(cv, common_top4_exact_and_ordered);
    tcase_add_test(cv, common_ties_larger_value_first);
    tcase_add_test(cv, common_unused_slots_are_zero);
    tcase_add_test(cv, common_heavy_hitter_survives_many_rare_values);
    tcase_add_test(cv, common_eviction_inherits_min_count);
    tcase_add_test(cv, common_exact_while_values_fit);
    tcase_add_test(cv, common_state_says_how_exact);
    tcase_add_test(cv, common_merge);
    tcase_add_test(cv, common_merge_overflow_keeps_most_frequent);
    tcase_add_test(cv, common_merge_into_empty);
    tcase_add_test(cv, common_memo_never_changes_the_counts);
    tcase_add_test(cv, common_memo_on_empty_and_after_merge);
    suite_add_tcase(s, cv);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(access_stats_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
