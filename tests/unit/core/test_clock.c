/* The runtime clock (lib/core/clock.c): units, the two-point calibration, the
 * monotonic fallback; and the path fast path of the POSIX layer
 * (iolens_posix_resolve), which must give exactly what the general
 * normalizer gives. */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/pathname.h"
#include "layers/posix_layer.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t start_mono_ns(void)
{
    return (uint64_t)iolens_clock_start_mono.tv_sec * 1000000000u +
           (uint64_t)iolens_clock_start_mono.tv_nsec;
}

START_TEST(rate_is_time_over_ticks)
{
    /* 3e9 ticks in 1 s: a 3 GHz counter. */
    double r = iolens_clock_rate(1000, 5000, 1000 + 3000000000u, 5000 + 1000000000u);
    ck_assert_double_eq_tol(r, 1.0 / 3e9, 1e-24);
    /* 24 MHz (a common aarch64 counter) over 2.5 s. */
    r = iolens_clock_rate(0, 0, 60000000u, 2500000000u);
    ck_assert_double_eq_tol(r, 1.0 / 24e6, 1e-20);
    /* Origins far from zero do not matter, only the differences. */
    r = iolens_clock_rate(UINT64_C(1) << 62, UINT64_C(7) << 40, (UINT64_C(1) << 62) + 2000,
                          (UINT64_C(7) << 40) + 1000);
    ck_assert_double_eq_tol(r, 0.5e-9, 1e-24);
}
END_TEST

START_TEST(rate_without_an_interval_counts_nanoseconds)
{
    ck_assert_double_eq(iolens_clock_rate(100, 100, 100, 200), 1e-9);  /* no tick */
    ck_assert_double_eq(iolens_clock_rate(100, 100, 50, 200), 1e-9);   /* went back */
    ck_assert_double_eq(iolens_clock_rate(100, 100, 200, 100), 1e-9);  /* no time */
    ck_assert_double_eq(iolens_clock_rate(100, 200, 200, 100), 1e-9);
}
END_TEST

START_TEST(monotonic_fallback_counts_nanoseconds)
{
    uint64_t before = mono_ns();
    iolens_clock_init_source(IOLENS_CLOCK_MONOTONIC);
    ck_assert_int_eq(iolens_clock_source_in_use, IOLENS_CLOCK_MONOTONIC);
    ck_assert_uint_ge(start_mono_ns(), before);
    sleep_ms(20);
    double units = iolens_now();
    uint64_t after = mono_ns();
    ck_assert_double_eq(iolens_clock_seconds_per_unit(), 1e-9);
    /* A unit is a nanosecond: at least the 20 ms slept, at most the time
     * between the readings taken around init and now. */
    ck_assert_double_ge(units, 20e6);
    ck_assert_double_le(units, (double)(after - before));
    ck_assert_double_eq(iolens_clock_to_seconds(units), units * 1e-9);
}
END_TEST

/* The defining property of the calibration: at the moment it is taken,
 * units since init convert to exactly the monotonic time since init (to
 * within the time the readings take), whatever the counter's rate. */
static void check_calibrated_source(enum iolens_clock_source src)
{
    iolens_clock_init_source(src);
    sleep_ms(30);
    iolens_clock_calibrate();
    uint64_t m0 = mono_ns();
    double elapsed = iolens_clock_elapsed_seconds();
    uint64_t m1 = mono_ns();
    double lo = (double)(m0 - start_mono_ns()) * 1e-9, hi = (double)(m1 - start_mono_ns()) * 1e-9;
    ck_assert_double_ge(elapsed, lo - 20e-6);
    ck_assert_double_le(elapsed, hi + 20e-6);
    ck_assert_double_ge(elapsed, 0.030);
}

START_TEST(counter_converts_to_monotonic_seconds)
{
    check_calibrated_source(IOLENS_CLOCK_COUNTER);
    if (iolens_clock_counter_usable()) {
        ck_assert_int_eq(iolens_clock_source_in_use, IOLENS_CLOCK_COUNTER);
        /* Any real counter runs between 1 MHz and 100 GHz. */
        double spu = iolens_clock_seconds_per_unit();
        ck_assert_double_ge(spu, 1e-11);
        ck_assert_double_le(spu, 1e-6);
    } else {
        ck_assert_int_eq(iolens_clock_source_in_use, IOLENS_CLOCK_MONOTONIC);
    }
}
END_TEST

START_TEST(fallback_converts_to_monotonic_seconds)
{
    check_calibrated_source(IOLENS_CLOCK_MONOTONIC);
}
END_TEST

START_TEST(calibration_is_taken_once_and_reset_by_init)
{
    iolens_clock_init();
    sleep_ms(10);
    double first = iolens_clock_seconds_per_unit();
    sleep_ms(10);
    ck_assert_double_eq(iolens_clock_seconds_per_unit(), first); /* not re-measured */
    /* A new init (as in a forked child) forgets it; a monotonic start
     * then has exactly 1 ns per unit. */
    iolens_clock_init_source(IOLENS_CLOCK_MONOTONIC);
    ck_assert_double_eq(iolens_clock_seconds_per_unit(), 1e-9);
}
END_TEST

START_TEST(now_never_goes_back)
{
    iolens_clock_init();
    double prev = iolens_now();
    ck_assert_double_ge(prev, 0.0);
    for (int i = 0; i < 100000; i++) {
        double t = iolens_now();
        ck_assert_double_ge(t, prev);
        prev = t;
    }
}
END_TEST

/* ------------------------------------------------ path fast path -- */

static void check_resolves_like_normalizer(const char *base, const char *path)
{
    char fast[PATH_MAX], slow[PATH_MAX];
    long n_fast = iolens_posix_resolve(AT_FDCWD, path, fast, sizeof fast);
    long n_slow = iolens_path_normalize(base, path, slow, sizeof slow);
    ck_assert_msg(n_fast == n_slow, "%s: length %ld, want %ld", path, n_fast, n_slow);
    if (n_slow >= 0)
        ck_assert_msg(strcmp(fast, slow) == 0, "%s: '%s', want '%s'", path, fast, slow);
}

static const char *const paths[] = {
    "/", "/a", "/a/b/c.dat", "/dev/shm/x", "/a/", "/a//b", "//a", "/./a", "/a/.",
    "/a/..", "/a/../b", "/..", "/a/.hidden", "/a/..b", "/a/b..", "/a/.../b", "a", "a/b",
    "./a", "../a", "a/./b", "a/../b", "a/", ".", "..", ".x", "..x", "a//b", "a/b/..",
};

START_TEST(resolve_matches_normalizer_absolute_and_relative)
{
    char cwd[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    iolens_posix_cwd_changed();
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        check_resolves_like_normalizer(cwd, paths[i]);
}
END_TEST

START_TEST(resolve_relative_from_root_and_after_chdir)
{
    char old[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(old, sizeof old));
    ck_assert_int_eq(chdir("/"), 0);
    iolens_posix_cwd_changed();
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        check_resolves_like_normalizer("/", paths[i]);
    char out[PATH_MAX];
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "tmp", out, sizeof out), 4);
    ck_assert_str_eq(out, "/tmp"); /* "/" joined with "tmp": no "//" */
    ck_assert_int_eq(chdir("/tmp"), 0);
    iolens_posix_cwd_changed();
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "f.dat", out, sizeof out), 10);
    ck_assert_str_eq(out, "/tmp/f.dat");
    ck_assert_int_eq(chdir(old), 0);
    iolens_posix_cwd_changed();
}
END_TEST

START_TEST(resolve_errors)
{
    char out[16];
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "", out, sizeof out), -1);
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, NULL, out, sizeof out), -1);
    /* Too long for out: -1 on the fast path as on the slow one. */
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "/0123456789abcdef", out, sizeof out), -1);
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "/0123456789abcde", out, sizeof out), -1);
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "/0123456789abcd", out, sizeof out), 15);
    ck_assert_str_eq(out, "/0123456789abcd");
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "/0123456789abcd/", out, sizeof out), 15);
    char cwd[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    iolens_posix_cwd_changed();
    size_t room = strlen(cwd) + 1 + 3; /* cwd + '/' + "abc" leaves no room for NUL */
    char small[PATH_MAX];
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "abc", small, room), -1);
    ck_assert_int_eq(iolens_posix_resolve(AT_FDCWD, "abc", small, room + 1), (long)room);
}
END_TEST

static Suite *clock_suite(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("clock");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rate_is_time_over_ticks);
    tcase_add_test(tc, rate_without_an_interval_counts_nanoseconds);
    tcase_add_test(tc, monotonic_fallback_counts_nanoseconds);
    tcase_add_test(tc, counter_converts_to_monotonic_seconds);
    tcase_add_test(tc, fallback_converts_to_monotonic_seconds);
    tcase_add_test(tc, calibration_is_taken_once_and_reset_by_init);
    tcase_add_test(tc, now_never_goes_back);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("resolve");
    tcase_add_test(tp, resolve_matches_normalizer_absolute_and_relative);
    tcase_add_test(tp, resolve_relative_from_root_and_after_chdir);
    tcase_add_test(tp, resolve_errors);
    suite_add_tcase(s, tp);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(clock_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
