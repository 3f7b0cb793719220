/* A process's call sites in memory (lib/log/site_list.c): modules found
 * by path and build-id, and the reduction that gives each record its top
 * sites after other ranks' entries were added, with every sum exact. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "log/site_list.h"

#define POSIX IOLENS_REGION_POSIX
#define STDIO IOLENS_REGION_STDIO
#define OTHER IOLENS_SITE_OTHER

static void add(struct iolens_site_list *l, uint64_t id, uint32_t kind, uint32_t module,
                uint64_t offset, uint64_t ops, int64_t bytes, double time)
{
    struct iolens_site_entry *e = iolens_site_list_add(l);
    ck_assert_ptr_nonnull(e);
    *e = (struct iolens_site_entry){id, kind, module, offset, ops, bytes, time};
}

static void check_entry(const struct iolens_site_entry *e, uint64_t id, uint32_t kind,
                        uint32_t module, uint64_t offset, uint64_t ops, int64_t bytes,
                        double time)
{
    ck_assert_uint_eq(e->record_id, id);
    ck_assert_uint_eq(e->layer_kind, kind);
    ck_assert_uint_eq(e->module, module);
    ck_assert_uint_eq(e->offset, offset);
    ck_assert_uint_eq(e->ops, ops);
    ck_assert_int_eq(e->bytes, bytes);
    ck_assert_double_eq(e->time, time);
}

START_TEST(modules_are_found_by_path_and_build_id)
{
    struct iolens_site_list l = {0};
    const unsigned char a[2] = {1, 2}, b[2] = {1, 3};
    ck_assert_int_eq(iolens_site_list_module(&l, "/bin/app", 8, a, 2), 0);
    ck_assert_int_eq(iolens_site_list_module(&l, "/bin/app", 8, b, 2), 1); /* rebuilt */
    ck_assert_int_eq(iolens_site_list_module(&l, "/bin/app", 8, a, 1), 2); /* shorter id */
    ck_assert_int_eq(iolens_site_list_module(&l, "/bin/ap", 7, a, 2), 3);  /* a prefix */
    ck_assert_int_eq(iolens_site_list_module(&l, "/bin/apps", 8, a, 2), 0); /* by length */
    ck_assert_int_eq(iolens_site_list_module(&l, "/lib/x.so", 9, NULL, 0), 4);
    ck_assert_int_eq(iolens_site_list_module(&l, "/lib/x.so", 9, NULL, 0), 4);
    ck_assert_str_eq(l.modules[3].path, "/bin/ap");
    ck_assert_uint_eq(l.modules[1].build_id_len, 2);
    ck_assert_uint_eq(l.modules[1].build_id[1], 3);
    ck_assert_uint_eq(l.nmodules, 5);
    /* Lengths out of range are refused, nothing added. */
    ck_assert_int_eq(iolens_site_list_module(&l, "", 0, NULL, 0), -1);
    static char longest[IOLENS_SITES_PATH_MAX];
    memset(longest, 'p', sizeof longest);
    ck_assert_int_eq(iolens_site_list_module(&l, longest, IOLENS_SITES_PATH_MAX, NULL, 0), -1);
    ck_assert_int_eq(iolens_site_list_module(&l, longest, IOLENS_SITES_PATH_MAX - 1, NULL, 0), 5);
    ck_assert_int_eq(iolens_site_list_module(&l, "/x", 2, a, IOLENS_SITES_BUILD_ID_MAX + 1), -1);
    ck_assert_uint_eq(l.nmodules, 6);
    iolens_site_list_free(&l);
}
END_TEST

/* Four ranks' entries of one record, as a writer holds them after the
 * exchange: six sites in all (each rank kept its own top and other), of
 * which the four with the most bytes over the job stay apart. */
START_TEST(reduce_keeps_the_job_top_sites_with_exact_sums)
{
    struct iolens_site_list l = {0};
    /* rank 0 */
    add(&l, 7, POSIX, 0, 0x10, 1, 100, 0.5);
    add(&l, 7, POSIX, 0, 0x20, 2, 40, 0.25);
    add(&l, 7, POSIX, OTHER, 0, 3, 3, 0.125);
    /* rank 1: 0x10 again, two new sites */
    add(&l, 7, POSIX, 0, 0x10, 4, 400, 1.0);
    add(&l, 7, POSIX, 0, 0x30, 1, 30, 0.0);
    add(&l, 7, POSIX, 1, 0x10, 1, 35, 0.0); /* other module, same offset: another site */
    /* rank 2 */
    add(&l, 7, POSIX, 0, 0x20, 2, 40, 0.25);
    add(&l, 7, POSIX, 0, 0x40, 1, 20, 0.0);
    add(&l, 7, POSIX, OTHER, 0, 1, 2, 0.0);
    /* rank 3: a site with as many bytes as another, fewer calls */
    add(&l, 7, POSIX, 0, 0x50, 1, 80, 0.0);
    iolens_site_list_reduce(&l);
    /* 0x10: 500; 0x20: 80; 0x50: 80 in 1 call; 1:0x10: 35; then 30 and 20 join other. */
    ck_assert_uint_eq(l.n, 5);
    check_entry(&l.e[0], 7, POSIX, 0, 0x10, 5, 500, 1.5);
    check_entry(&l.e[1], 7, POSIX, 0, 0x20, 4, 80, 0.5);
    check_entry(&l.e[2], 7, POSIX, 0, 0x50, 1, 80, 0.0);
    check_entry(&l.e[3], 7, POSIX, 1, 0x10, 1, 35, 0.0);
    check_entry(&l.e[4], 7, POSIX, OTHER, 0, 3 + 1 + 1 + 1, 3 + 2 + 30 + 20, 0.125);
    uint64_t ops = 0;
    int64_t bytes = 0;
    for (size_t i = 0; i < l.n; i++) {
        ops += l.e[i].ops;
        bytes += l.e[i].bytes;
    }
    ck_assert_uint_eq(ops, 1 + 2 + 3 + 4 + 1 + 1 + 2 + 1 + 1 + 1);
    ck_assert_int_eq(bytes, 100 + 40 + 3 + 400 + 30 + 35 + 40 + 20 + 2 + 80);
    iolens_site_list_free(&l);
}
END_TEST

/* Records and layers stay apart, come out in id then layer order, and a
 * record that needs nothing keeps its entries as they were. */
START_TEST(reduce_keeps_records_and_layers_apart)
{
    struct iolens_site_list l = {0};
    add(&l, 9, POSIX, 0, 0x10, 1, 10, 0.0);
    add(&l, 3, STDIO, 0, 0x10, 1, 11, 0.0);
    add(&l, 3, POSIX, 0, 0x10, 1, 12, 0.0);
    add(&l, 9, POSIX, 0, 0x10, 1, 13, 0.0);
    add(&l, 3, POSIX, 0, 0x20, 1, 14, 0.0);
    add(&l, 3, POSIX, OTHER, 0, 2, 15, 0.0);
    iolens_site_list_reduce(&l);
    ck_assert_uint_eq(l.n, 5);
    check_entry(&l.e[0], 3, POSIX, 0, 0x20, 1, 14, 0.0);
    check_entry(&l.e[1], 3, POSIX, 0, 0x10, 1, 12, 0.0);
    check_entry(&l.e[2], 3, POSIX, OTHER, 0, 2, 15, 0.0);
    check_entry(&l.e[3], 3, STDIO, 0, 0x10, 1, 11, 0.0);
    check_entry(&l.e[4], 9, POSIX, 0, 0x10, 2, 23, 0.0);
    iolens_site_list_free(&l);
}
END_TEST

/* Nothing is folded into an other bucket of nothing: a record with at
 * most IOLENS_SITES_LOGGED sites and no other gets none. */
START_TEST(reduce_adds_no_empty_other)
{
    struct iolens_site_list l = {0};
    for (uint64_t s = 1; s <= IOLENS_SITES_LOGGED; s++)
        add(&l, 5, POSIX, 0, s, 1, (int64_t)s, 0.0);
    iolens_site_list_reduce(&l);
    ck_assert_uint_eq(l.n, IOLENS_SITES_LOGGED);
    for (size_t i = 0; i < l.n; i++)
        ck_assert_uint_ne(l.e[i].module, OTHER);
    ck_assert_int_eq(l.e[0].bytes, IOLENS_SITES_LOGGED);
    iolens_site_list_reduce(&l); /* twice: the same */
    ck_assert_uint_eq(l.n, IOLENS_SITES_LOGGED);
    struct iolens_site_list empty = {0};
    iolens_site_list_reduce(&empty);
    ck_assert_uint_eq(empty.n, 0);
    iolens_site_list_free(&l);
}
END_TEST

static Suite *site_list_suite(void)
{
    Suite *s = suite_create("site_list");
    TCase *tc = tcase_create("site_list");
    tcase_add_test(tc, modules_are_found_by_path_and_build_id);
    tcase_add_test(tc, reduce_keeps_the_job_top_sites_with_exact_sums);
    tcase_add_test(tc, reduce_keeps_records_and_layers_apart);
    tcase_add_test(tc, reduce_adds_no_empty_other);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(site_list_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
