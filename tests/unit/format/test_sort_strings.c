/* Sorting items by a string (format/sort_strings.c), against qsort with
 * strcmp (and the input place for equal strings) as the oracle. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/sort_strings.h"

struct item {
    const char *name;
    size_t place; /* in the input */
};

static const char *name_of(const void *item)
{
    return ((const struct item *)item)->name;
}

static int by_strcmp_then_place(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c != 0)
        return c;
    return x->place < y->place ? -1 : x->place > y->place;
}

/* Sorts names[0..n) both ways and compares item by item. */
static void check_sorts_like_strcmp(const char *const *names, size_t n)
{
    struct item *got = malloc((n + 1) * sizeof *got);
    struct item *want = malloc((n + 1) * sizeof *want);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    for (size_t i = 0; i < n; i++)
        got[i] = want[i] = (struct item){names[i], i};
    qsort(want, n, sizeof *want, by_strcmp_then_place);
    ck_assert_int_eq(iolens_sort_by_string(got, n, sizeof *got, name_of), 0);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(got[i].name, want[i].name);
        ck_assert_uint_eq(got[i].place, want[i].place);
    }
    free(got);
    free(want);
}

START_TEST(a_directory_of_numbered_files)
{
    enum { N = 3000 };
    static char buf[N][64];
    const char *names[N];
    for (size_t i = 0; i < N; i++) {
        /* Shuffled: i * 7919 mod N visits every number once. */
        snprintf(buf[i], sizeof buf[i], "/scratch/run/out/u%zu.%zu", (i * 7919) % 3, (i * 7919) % N);
        names[i] = buf[i];
    }
    check_sorts_like_strcmp(names, N);
}
END_TEST

START_TEST(names_tied_past_eight_bytes_and_prefixes_of_each_other)
{
    const char *names[] = {
        "/d/abcdefgh-2", "/d/abcdefgh-10", "/d/abcdefgh", "/d/abcdefgh-1",
        "/d/abcdefg", "/d/abcdefgh-10", "/d/", "/d/abcdefghijklmnopq",
        "/d/abcdefghijklmnopp", "/d/abcdefgh-10x",
    };
    check_sorts_like_strcmp(names, sizeof names / sizeof names[0]);
}
END_TEST

START_TEST(bytes_above_127_sort_after_ascii_as_strcmp_says)
{
    const char *names[] = {"/d/\xc3\xa9t\xc3\xa9", "/d/ete", "/d/\x7f", "/d/\x80", "/d/\xff\xff",
                           "/d/e", "/d/\xff", "/d/\x01"};
    check_sorts_like_strcmp(names, sizeof names / sizeof names[0]);
}
END_TEST

START_TEST(equal_and_empty_names_keep_their_order)
{
    const char *names[] = {"b", "", "a", "b", "", "a", "b", "abcdefghij", "abcdefghij"};
    check_sorts_like_strcmp(names, sizeof names / sizeof names[0]);
    const char *one[] = {"x"};
    check_sorts_like_strcmp(one, 1);
    check_sorts_like_strcmp(NULL, 0);
}
END_TEST

START_TEST(random_names_over_a_small_alphabet)
{
    enum { N = 5000 };
    static char buf[N][24];
    const char *names[N];
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t len = x % 20;
        for (size_t j = 0; j < len; j++)
            buf[i][j] = "ab\x80/"[(x >> (2 * j + 8)) & 3];
        buf[i][len] = '\0';
        names[i] = buf[i];
    }
    check_sorts_like_strcmp(names, N);
}
END_TEST

static Suite *sort_strings_suite(void)
{
    Suite *s = suite_create("sort_strings");
    TCase *tc = tcase_create("sort_strings");
    tcase_add_test(tc, a_directory_of_numbered_files);
    tcase_add_test(tc, names_tied_past_eight_bytes_and_prefixes_of_each_other);
    tcase_add_test(tc, bytes_above_127_sort_after_ascii_as_strcmp_says);
    tcase_add_test(tc, equal_and_empty_names_keep_their_order);
    tcase_add_test(tc, random_names_over_a_small_alphabet);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sort_strings_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
