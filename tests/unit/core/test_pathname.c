/* Path normalization and prefix lists (lib/core/pathname.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pathname.h"

static char out[4096];

/* Normalizes and checks both the returned length and the text. */
static void expect_norm(const char *base, const char *path, const char *want)
{
    memset(out, 'X', sizeof out);
    long n = iolens_path_normalize(base, path, out, sizeof out);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(n, (long)strlen(want));
}

START_TEST(relative_joined_to_base)
{
    expect_norm("/x/y", "a/b", "/x/y/a/b");
    expect_norm("/x/y/", "a", "/x/y/a");
    expect_norm("/", "a", "/a");
}
END_TEST

START_TEST(cleans_slashes_dots_and_dotdot)
{
    expect_norm("/ignored", "//a///b/./c/../d/", "/a/b/d");
    expect_norm(NULL, "/a/b/../../c", "/c");
    expect_norm(NULL, "/a/./././b", "/a/b");
    expect_norm(NULL, "/a/b/..", "/a");
    expect_norm(NULL, "/a/b/.", "/a/b");
    expect_norm(NULL, "/a/..b/c", "/a/..b/c");     /* "..b" is a name */
    expect_norm(NULL, "/a/.hidden", "/a/.hidden");
    expect_norm(NULL, "/a/...", "/a/...");
}
END_TEST

START_TEST(dotdot_never_above_root)
{
    expect_norm(NULL, "/../..", "/");
    expect_norm(NULL, "/..", "/");
    expect_norm(NULL, "/../a", "/a");
    expect_norm("/w", "../../../x", "/x");
    expect_norm("/w/v", "../u", "/w/u");
}
END_TEST

START_TEST(root_and_dot)
{
    expect_norm("/w", ".", "/w");
    expect_norm("/w", "./", "/w");
    expect_norm(NULL, "/", "/");
    expect_norm(NULL, "///", "/");
    expect_norm("/", ".", "/");
    expect_norm("/w", "..", "/");
}
END_TEST

START_TEST(rejects_empty_and_bad_base)
{
    ck_assert_int_eq(iolens_path_normalize("/w", "", out, sizeof out), -1);
    ck_assert_int_eq(iolens_path_normalize("/w", NULL, out, sizeof out), -1);
    ck_assert_int_eq(iolens_path_normalize(NULL, "rel", out, sizeof out), -1);
    ck_assert_int_eq(iolens_path_normalize("notabs", "rel", out, sizeof out), -1);
}
END_TEST

START_TEST(buffer_size_is_exact)
{
    char small[8];
    /* "/a/b/cd" is 7 characters: fits in 8 with its NUL, not in 7. */
    ck_assert_int_eq(iolens_path_normalize(NULL, "/a/b/cd", small, 8), 7);
    ck_assert_str_eq(small, "/a/b/cd");
    ck_assert_int_eq(iolens_path_normalize(NULL, "/a/b/cd", small, 7), -1);
    ck_assert_int_eq(iolens_path_normalize("/x/y", "z", small, 5), -1);
    ck_assert_int_eq(iolens_path_normalize(NULL, "/", small, 1), -1);
    ck_assert_int_eq(iolens_path_normalize(NULL, "/", small, 2), 1);
    ck_assert_str_eq(small, "/");
    /* A long component removed by ".." does not need room. */
    ck_assert_int_eq(iolens_path_normalize(NULL, "/averyveryverylongname/../ab", small, 4), 3);
    ck_assert_str_eq(small, "/ab");
}
END_TEST

START_TEST(prefix_matches_on_component_boundary)
{
    struct iolens_prefix_list list = { 0 };
    iolens_prefix_list_add(&list, "/usr");
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/usr"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/usr/lib"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/usr/lib/x.so"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/usrlocal"), 0);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/us"), 0);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/home/usr"), 0);
}
END_TEST

START_TEST(prefix_trailing_slash_dropped)
{
    struct iolens_prefix_list list = { 0 };
    iolens_prefix_list_add(&list, "/scratch/");
    ck_assert_uint_eq(list.len[0], 8);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/scratch"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/scratch/a"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/scratchy"), 0);
}
END_TEST

START_TEST(prefix_root_matches_everything)
{
    struct iolens_prefix_list list = { 0 };
    iolens_prefix_list_add(&list, "/");
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/any/thing"), 1);
}
END_TEST

START_TEST(empty_list_matches_nothing)
{
    struct iolens_prefix_list list = { 0 };
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/usr"), 0);
    iolens_prefix_list_add(&list, "");
    iolens_prefix_list_add(&list, NULL);
    ck_assert_uint_eq(list.count, 0);
}
END_TEST

START_TEST(parse_comma_list)
{
    struct iolens_prefix_list list = { 0 };
    char storage[] = "/a,,/b/, /c d ,";
    iolens_prefix_list_parse(&list, storage);
    ck_assert_uint_eq(list.count, 3);
    ck_assert_str_eq(list.prefix[0], "/a");
    ck_assert_str_eq(list.prefix[1], "/b");
    ck_assert_uint_eq(list.len[1], 2);
    ck_assert_str_eq(list.prefix[2], "/c d");
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/b/x"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/c d/x"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/c"), 0);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/ab"), 0);
}
END_TEST

START_TEST(parse_appends_and_caps_at_max)
{
    struct iolens_prefix_list list = { 0 };
    iolens_prefix_list_add(&list, "/first");
    static char storage[IOLENS_MAX_PREFIXES * 8];
    char *p = storage;
    for (int i = 0; i < IOLENS_MAX_PREFIXES + 5; i++)
        p += sprintf(p, "/p%d,", i);
    iolens_prefix_list_parse(&list, storage);
    ck_assert_uint_eq(list.count, IOLENS_MAX_PREFIXES);
    ck_assert_str_eq(list.prefix[0], "/first");
    ck_assert_str_eq(list.prefix[1], "/p0");
    ck_assert_str_eq(list.prefix[IOLENS_MAX_PREFIXES - 1], "/p62");
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/p62/x"), 1);
    ck_assert_int_eq(iolens_prefix_list_match(&list, "/p63/x"), 0);
}
END_TEST

/* Open MPI's session directory "ompi.HOST.UID" (any depth, HOST may hold
 * dots), "NAME.locktest.N" and ROMIO's ".NAME.shfp.N.M" files (names as
 * strace showed the MPIs open them); near misses are the program's. */
START_TEST(mpi_own_files)
{
    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/ompi.vm.0"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/ompi.vm.0/pid.15881/hwloc.sm"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/scratch/t/ompi.n01.cluster.org.1000/x"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/out.dat.locktest.0"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/out.dat.locktest.17"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/a.locktest.3"), 1);

    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/ompi.txt"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/ompi.vm"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/ompi..0"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/ompi.vm.0x"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/tmp/myompi.vm.0/x"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/out.locktest"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.locktest.0"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/out.locktest.0/inside"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/out.locktest.x"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.sh.dat.shfp.1324531853.19785"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.x.shfp.7"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.x.shfp.shfp.7"), 1);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/x.shfp.7"), 0);          /* not hidden */
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.x.shfp."), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.x.shfp.7a"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.shfp.7"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/.x.shfp.7/y"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/d/out.dat"), 0);
    ck_assert_int_eq(iolens_path_is_mpi_own("/"), 0);
}
END_TEST

static Suite *pathname_suite(void)
{
    Suite *s = suite_create("pathname");
    TCase *norm = tcase_create("normalize");
    tcase_add_test(norm, relative_joined_to_base);
    tcase_add_test(norm, cleans_slashes_dots_and_dotdot);
    tcase_add_test(norm, dotdot_never_above_root);
    tcase_add_test(norm, root_and_dot);
    tcase_add_test(norm, rejects_empty_and_bad_base);
    tcase_add_test(norm, buffer_size_is_exact);
    suite_add_tcase(s, norm);
    TCase *pre = tcase_create("prefix");
    tcase_add_test(pre, prefix_matches_on_component_boundary);
    tcase_add_test(pre, prefix_trailing_slash_dropped);
    tcase_add_test(pre, prefix_root_matches_everything);
    tcase_add_test(pre, empty_list_matches_nothing);
    tcase_add_test(pre, parse_comma_list);
    tcase_add_test(pre, parse_appends_and_caps_at_max);
    tcase_add_test(pre, mpi_own_files);
    suite_add_tcase(s, pre);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pathname_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
