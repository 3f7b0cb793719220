/* The shared numeric helpers: saturating arithmetic (format/sat_math.h)
 * and the u64 comparator (format/compare.h).  Expected values are plain
 * arithmetic: a result that fits is exact, one that does not stops at the
 * limit on the side it overflowed to. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "format/compare.h"
#include "format/sat_math.h"

START_TEST(sat_add_is_exact_when_it_fits)
{
    ck_assert_int_eq(iolens_sat_add(40, 2), 42);
    ck_assert_int_eq(iolens_sat_add(-40, -2), -42);
    ck_assert_int_eq(iolens_sat_add(INT64_MAX, INT64_MIN), -1);
    ck_assert_int_eq(iolens_sat_add(INT64_MAX - 1, 1), INT64_MAX);
    ck_assert_int_eq(iolens_sat_add(INT64_MIN + 1, -1), INT64_MIN);
}
END_TEST

START_TEST(sat_add_stops_at_the_top)
{
    ck_assert_int_eq(iolens_sat_add(INT64_MAX, 1), INT64_MAX);
    ck_assert_int_eq(iolens_sat_add(INT64_MAX - 5, 10), INT64_MAX);
    ck_assert_int_eq(iolens_sat_add(INT64_MAX, INT64_MAX), INT64_MAX);
}
END_TEST

/* A sum that overflows downwards stops at INT64_MIN, not INT64_MAX (the
 * sharing statistics' own copy once turned it into the largest count). */
START_TEST(sat_add_stops_at_the_bottom)
{
    ck_assert_int_eq(iolens_sat_add(INT64_MIN, -1), INT64_MIN);
    ck_assert_int_eq(iolens_sat_add(INT64_MIN + 5, -10), INT64_MIN);
    ck_assert_int_eq(iolens_sat_add(-1, INT64_MIN), INT64_MIN);
    ck_assert_int_eq(iolens_sat_add(INT64_MIN, INT64_MIN), INT64_MIN);
}
END_TEST

START_TEST(sat_sub_and_mul_stop_on_the_side_they_overflow_to)
{
    ck_assert_int_eq(iolens_sat_sub(10, 52), -42);
    ck_assert_int_eq(iolens_sat_sub(INT64_MIN, 1), INT64_MIN);
    ck_assert_int_eq(iolens_sat_sub(INT64_MAX, -1), INT64_MAX);
    ck_assert_int_eq(iolens_sat_sub(0, INT64_MIN), INT64_MAX);
    ck_assert_int_eq(iolens_sat_mul(-6, 7), -42);
    ck_assert_int_eq(iolens_sat_mul(INT64_MAX / 2 + 1, 2), INT64_MAX);
    ck_assert_int_eq(iolens_sat_mul(INT64_MAX, -2), INT64_MIN);
    ck_assert_int_eq(iolens_sat_mul(INT64_MIN, -1), INT64_MAX);
}
END_TEST

/* Ids above 2^63 sort after those below: a signed difference would not. */
START_TEST(compare_u64_orders_the_whole_range)
{
    uint64_t v[] = {UINT64_MAX, 0, (uint64_t)1 << 63, 7, ((uint64_t)1 << 63) - 1, 7};
    const uint64_t sorted[] = {0, 7, 7, ((uint64_t)1 << 63) - 1, (uint64_t)1 << 63, UINT64_MAX};
    qsort(v, 6, sizeof v[0], iolens_compare_u64);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(v[i], sorted[i]);
    uint64_t a = 1, b = UINT64_MAX;
    ck_assert_int_eq(iolens_compare_u64(&a, &b), -1);
    ck_assert_int_eq(iolens_compare_u64(&b, &a), 1);
    ck_assert_int_eq(iolens_compare_u64(&b, &b), 0);
    uint64_t key = (uint64_t)1 << 63;
    ck_assert_ptr_eq(bsearch(&key, sorted, 6, sizeof sorted[0], iolens_compare_u64), &sorted[4]);
}
END_TEST

static Suite *sat_math_suite(void)
{
    Suite *s = suite_create("sat_math");
    TCase *tc = tcase_create("numeric");
    tcase_add_test(tc, sat_add_is_exact_when_it_fits);
    tcase_add_test(tc, sat_add_stops_at_the_top);
    tcase_add_test(tc, sat_add_stops_at_the_bottom);
    tcase_add_test(tc, sat_sub_and_mul_stop_on_the_side_they_overflow_to);
    tcase_add_test(tc, compare_u64_orders_the_whole_range);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sat_math_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
