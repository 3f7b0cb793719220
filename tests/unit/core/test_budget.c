/* The memory budget (lib/core/budget.c). */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"

static struct iolens_budget_stats stats(void)
{
    struct iolens_budget_stats st;
    iolens_budget_stats(&st);
    return st;
}

static void teardown(void)
{
    iolens_budget_fini();
}

START_TEST(init_reports_size)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    struct iolens_budget_stats st = stats();
    ck_assert_uint_eq(st.budget, 4096);
    ck_assert_uint_eq(st.used, 0);
    ck_assert_uint_eq(st.needed, 0);
}
END_TEST

START_TEST(init_zero_fails)
{
    ck_assert_int_eq(iolens_budget_init(0), -1);
    ck_assert_ptr_null(iolens_budget_alloc(1));
}
END_TEST

START_TEST(used_is_exact_and_rounded_to_16)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    char *a = iolens_budget_alloc(1);
    char *b = iolens_budget_alloc(16);
    char *c = iolens_budget_alloc(17);
    char *d = iolens_budget_alloc(100);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_eq(b, a + 16);
    ck_assert_ptr_eq(c, b + 16);
    ck_assert_ptr_eq(d, c + 32);
    ck_assert_uint_eq(stats().used, 16 + 16 + 32 + 112);
    ck_assert_uint_eq(stats().needed, 16 + 16 + 32 + 112);
}
END_TEST

START_TEST(allocations_are_aligned_and_zeroed)
{
    ck_assert_int_eq(iolens_budget_init(1 << 16), 0);
    for (size_t n = 1; n < 200; n += 7) {
        unsigned char *p = iolens_budget_alloc(n);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        for (size_t i = 0; i < n; i++)
            ck_assert_uint_eq(p[i], 0);
        memset(p, 0xff, n);   /* the next allocation must still be zero */
    }
}
END_TEST

START_TEST(null_when_exhausted_and_needed_grows)
{
    ck_assert_int_eq(iolens_budget_init(64), 0);
    ck_assert_ptr_nonnull(iolens_budget_alloc(48));
    ck_assert_ptr_null(iolens_budget_alloc(32));       /* 16 left */
    struct iolens_budget_stats st = stats();
    ck_assert_uint_eq(st.used, 48);
    ck_assert_uint_eq(st.needed, 48 + 32);
    /* A refusal does not consume: the last 16 bytes are still there. */
    ck_assert_ptr_nonnull(iolens_budget_alloc(16));
    ck_assert_ptr_null(iolens_budget_alloc(1));
    st = stats();
    ck_assert_uint_eq(st.used, 64);
    ck_assert_uint_eq(st.needed, 48 + 32 + 16 + 16);
    ck_assert_uint_gt(st.needed, st.budget);
}
END_TEST

START_TEST(huge_request_refused)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    ck_assert_ptr_null(iolens_budget_alloc(SIZE_MAX));
    ck_assert_ptr_null(iolens_budget_alloc(SIZE_MAX - 8));
    ck_assert_ptr_null(iolens_budget_alloc(4097));
    ck_assert_uint_eq(stats().used, 0);
    ck_assert_ptr_nonnull(iolens_budget_alloc(4096));
    ck_assert_uint_eq(stats().used, 4096);
}
END_TEST

START_TEST(add_needed_does_not_allocate)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    iolens_budget_add_needed(1000);
    iolens_budget_add_needed(24);
    struct iolens_budget_stats st = stats();
    ck_assert_uint_eq(st.used, 0);
    ck_assert_uint_eq(st.needed, 1024);
}
END_TEST

/* A table of a quarter of the budget, as the interval stores take. */
static size_t quarter(size_t budget)
{
    return budget / 4;
}

static uint64_t demand_5000(uint64_t budget)
{
    (void)budget;
    return 5000;
}

static uint64_t floor_value;
static uint64_t floor_fn(void)
{
    return floor_value;
}

/* What a budget of m bytes must hold here: 1024 counted, the scaled
 * quarter at m, and the demand if registered (all rounded to 16). */
static uint64_t must_hold(uint64_t m, int with_demand)
{
    return 1024 + (m / 4 + 15) / 16 * 16 + (with_demand ? 5008 : 0);
}

/* "needed" is the smallest budget (a multiple of 16) that holds the
 * counted bytes, the scaled allocations at that budget and the demands;
 * a floor above it wins. */
START_TEST(needed_is_a_fixed_point_of_scaled_and_demand)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    ck_assert_ptr_nonnull(iolens_budget_alloc_scaled(quarter));   /* 1024, not counted */
    ck_assert_ptr_nonnull(iolens_budget_alloc(1024));
    ck_assert_uint_eq(stats().used, 2048);
    for (int with_demand = 0; with_demand <= 1; with_demand++) {
        if (with_demand)
            iolens_budget_add_demand(demand_5000);
        uint64_t m = stats().needed;
        ck_assert_uint_eq(m % 16, 0);
        ck_assert_uint_ge(m, must_hold(m, with_demand));
        ck_assert_uint_lt(m - 16, must_hold(m - 16, with_demand));
    }
    ck_assert_uint_eq(stats().needed, 8048);   /* 1024 + 2016 + 5008 */
    floor_value = 100000;
    iolens_budget_set_floor(floor_fn);
    ck_assert_uint_eq(stats().needed, 100000);
}
END_TEST

/* Quiet and uncounted allocations leave refusals (and, uncounted, even
 * successes) to their caller's demand function. */
START_TEST(quiet_and_uncounted_refusals_are_not_counted)
{
    ck_assert_int_eq(iolens_budget_init(64), 0);
    ck_assert_ptr_nonnull(iolens_budget_alloc_quiet(32));
    ck_assert_ptr_null(iolens_budget_alloc_quiet(64));
    ck_assert_ptr_nonnull(iolens_budget_alloc_uncounted(16));
    ck_assert_ptr_null(iolens_budget_alloc_uncounted(64));
    ck_assert_uint_eq(stats().used, 48);
    ck_assert_uint_eq(stats().needed, 32);
}
END_TEST

START_TEST(fini_resets_for_reinit)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    ck_assert_ptr_nonnull(iolens_budget_alloc(100));
    iolens_budget_fini();
    struct iolens_budget_stats st = stats();
    ck_assert_uint_eq(st.budget, 0);
    ck_assert_uint_eq(st.used, 0);
    ck_assert_uint_eq(st.needed, 0);
    ck_assert_ptr_null(iolens_budget_alloc(16));
    ck_assert_int_eq(iolens_budget_init(8192), 0);
    ck_assert_uint_eq(stats().budget, 8192);
    ck_assert_uint_eq(stats().needed, 0);
}
END_TEST

/* --------------------------------------------------------- threads -- */

#define NTHREADS 4
#define ARENA (256 * 1024)
#define MAX_PER_THREAD ARENA

struct grab {
    int tag;
    size_t count;
    size_t bytes;
    unsigned char **ptr;
    size_t *size;
};

/* Allocates varying sizes until refused, filling each block with the
 * thread's tag so that an overlap would show as a foreign byte. */
static void *grab_until_full(void *arg)
{
    struct grab *g = arg;
    for (size_t i = 0;; i++) {
        size_t n = 1 + (i * 37 + (size_t)g->tag * 11) % 200;
        unsigned char *p = iolens_budget_alloc(n);
        if (p == NULL)
            break;
        memset(p, g->tag, n);
        g->ptr[g->count] = p;
        g->size[g->count] = n;
        g->count++;
        g->bytes += (n + 15) & ~(size_t)15;
    }
    return NULL;
}

START_TEST(concurrent_allocations_never_overlap)
{
    ck_assert_int_eq(iolens_budget_init(ARENA), 0);
    pthread_t th[NTHREADS];
    struct grab g[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        g[t] = (struct grab){ .tag = t + 1 };
        g[t].ptr = calloc(ARENA / 16, sizeof(*g[t].ptr));
        g[t].size = calloc(ARENA / 16, sizeof(*g[t].size));
        ck_assert_int_eq(pthread_create(&th[t], NULL, grab_until_full, &g[t]), 0);
    }
    size_t total = 0;
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        total += g[t].bytes;
    }
    struct iolens_budget_stats st = stats();
    ck_assert_uint_eq(st.used, total);
    ck_assert_uint_le(st.used, ARENA);
    ck_assert_uint_gt(st.used, ARENA - 208);   /* filled up to the last block */
    for (int t = 0; t < NTHREADS; t++) {
        for (size_t i = 0; i < g[t].count; i++)
            for (size_t k = 0; k < g[t].size[i]; k++)
                ck_assert_uint_eq(g[t].ptr[i][k], (unsigned)(t + 1));
        free(g[t].ptr);
        free(g[t].size);
    }
}
END_TEST

static Suite *budget_suite(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("budget");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, init_reports_size);
    tcase_add_test(tc, init_zero_fails);
    tcase_add_test(tc, used_is_exact_and_rounded_to_16);
    tcase_add_test(tc, allocations_are_aligned_and_zeroed);
    tcase_add_test(tc, null_when_exhausted_and_needed_grows);
    tcase_add_test(tc, huge_request_refused);
    tcase_add_test(tc, add_needed_does_not_allocate);
    tcase_add_test(tc, needed_is_a_fixed_point_of_scaled_and_demand);
    tcase_add_test(tc, quiet_and_uncounted_refusals_are_not_counted);
    tcase_add_test(tc, fini_resets_for_reinit);
    tcase_add_test(tc, concurrent_allocations_never_overlap);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(budget_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
