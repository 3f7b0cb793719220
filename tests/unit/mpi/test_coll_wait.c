/* How the shutdown's collectives wait (lib/mpi/mpi_coll.c): the pause
 * after each test that found a collective not done. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>

#include "mpi/mpi_coll.h"

START_TEST(the_first_tests_yield)
{
    for (unsigned t = 0; t < 16; t++)
        ck_assert_int_eq(iolens_coll_pause_ns(t), 0);
    ck_assert_uint_eq(IOLENS_COLL_YIELD_TESTS, 16);
}
END_TEST

START_TEST(then_sleeps_double_from_10_to_250_microseconds)
{
    const long expected[] = {10000, 20000, 40000, 80000, 160000, 250000, 250000};
    for (unsigned i = 0; i < sizeof expected / sizeof expected[0]; i++)
        ck_assert_int_eq(iolens_coll_pause_ns(16 + i), expected[i]);
}
END_TEST

START_TEST(a_long_wait_stays_at_the_cap)
{
    ck_assert_int_eq(iolens_coll_pause_ns(1000), 250000);
    ck_assert_int_eq(iolens_coll_pause_ns(UINT_MAX), 250000);
}
END_TEST

static Suite *coll_wait_suite(void)
{
    Suite *s = suite_create("coll_wait");
    TCase *tc = tcase_create("coll_wait");
    tcase_add_test(tc, the_first_tests_yield);
    tcase_add_test(tc, then_sleeps_double_from_10_to_250_microseconds);
    tcase_add_test(tc, a_long_wait_stays_at_the_cap);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(coll_wait_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
