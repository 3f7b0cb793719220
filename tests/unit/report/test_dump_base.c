/* The hand-made %.6f of the counter dump (util/report/dump_base.c) against
 * printf's, on values of every magnitude, ties and edge cases. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/dump_base.h"

static void check_same(double v)
{
    char mine[400], ref[400];
    int n = iolens_format_fixed6(v, mine, sizeof mine);
    snprintf(ref, sizeof ref, "%.6f", v);
    ck_assert_msg(strcmp(mine, ref) == 0, "%a: got %s, printf says %s", v, mine, ref);
    ck_assert_int_eq(n, (int)strlen(ref));
}

START_TEST(edge_values)
{
    const double v[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-7, -1e-7, 5e-7, 4.9999999e-7,
                        0.0000005, 0.0078125, 0.0234375, -0.0234375, 1e-300, -1e-300,
                        0x1p-1074, 123456.7890125, 0.1, 0.2, 0.3, 2.5e-6, 3.5e-6,
                        0x1p59, 0x1p60, -0x1p60, 1e18, 1e300, -1e300, INFINITY,
                        -INFINITY, NAN, 1700000003.75, 4294967296.000001};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        check_same(v[i]);
}
END_TEST

/* Exact ties at the 7th decimal: k / 2^7 has 7 decimals ending in 5. */
START_TEST(ties_round_half_even)
{
    for (int k = -4096; k <= 4096; k++)
        check_same(k / 128.0);
}
END_TEST

START_TEST(random_magnitudes)
{
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 2000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double mant = (double)(x >> 11) / 0x1p53;
        int exp = (int)(x % 140) - 80;          /* 2^-80 .. 2^59 */
        double v = ldexp(mant, exp) * ((x >> 3) & 1 ? -1 : 1);
        check_same(v);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dump_base");
    TCase *t = tcase_create("fixed6");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, edge_values);
    tcase_add_test(t, ties_round_half_even);
    tcase_add_test(t, random_magnitudes);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
