/* The shared records' call sites at MPI_Finalize (lib/mpi/shared_sites.c).
 * No MPI: the Alltoallv of lib/mpi/mpi_runtime.c is simulated in memory,
 * each rank's packed bytes for a writer handed to that writer. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/shared_sites.h"

#define POSIX IOLENS_REGION_POSIX
#define OTHER IOLENS_SITE_OTHER
#define NRANKS 4

static const unsigned char build_id[3] = {0xab, 0xcd, 0xef};

static uint32_t module(struct iolens_site_list *l, const char *path)
{
    long m = iolens_site_list_module(l, path, strlen(path), build_id, sizeof build_id);
    ck_assert_int_ge(m, 0);
    return (uint32_t)m;
}

static void add(struct iolens_site_list *l, uint64_t id, uint32_t m, uint64_t offset,
                uint64_t ops, int64_t bytes)
{
    struct iolens_site_entry *e = iolens_site_list_add(l);
    ck_assert_ptr_nonnull(e);
    *e = (struct iolens_site_entry){id, POSIX, m, offset, ops, bytes, 0.25 * (double)ops};
}

/* Ids 1 ... 3 are written by ranks 1 ... 3; id 100 + r only by rank r. */
static struct iolens_share_assign *assignment(size_t *n)
{
    static struct iolens_share_assign a[3 + NRANKS];
    size_t k = 0;
    for (int r = 1; r <= 3; r++)
        a[k++] = (struct iolens_share_assign){(uint64_t)r, r, 0};
    for (int r = 0; r < NRANKS; r++)
        a[k++] = (struct iolens_share_assign){100 + (uint64_t)r, r, 0};
    *n = k;
    return a;
}

/* Rank r's list: its modules in an order of its own (the program, then a
 * library, or the other way round), and for shared id 1 sites of both:
 * the program's 0x10 (r + 1 calls of 100 bytes) and 0x20 (1 call, 10 r
 * bytes), the library's 0x30 on rank 3 only, its other (1 call, 1 byte);
 * its own id 100 + r: one site. */
static void rank_list(int r, struct iolens_site_list *l)
{
    memset(l, 0, sizeof *l);
    uint32_t app, lib;
    if (r % 2 == 0) {
        app = module(l, "/home/u/app");
        lib = module(l, "/usr/lib/libx.so");
    } else {
        lib = module(l, "/usr/lib/libx.so");
        app = module(l, "/home/u/app");
    }
    add(l, 100 + (uint64_t)r, app, 0x99, 1, 7);
    add(l, 1, app, 0x10, (uint64_t)r + 1, 100 * ((int64_t)r + 1));
    if (r > 0)
        add(l, 1, app, 0x20, 1, 10 * (int64_t)r);
    if (r == 3)
        add(l, 1, lib, 0x30, 2, 5);
    struct iolens_site_entry *e = iolens_site_list_add(l);
    *e = (struct iolens_site_entry){1, POSIX, OTHER, 0, 1, 1, 0.0};
}

START_TEST(split_keeps_own_sites_and_packs_the_rest_by_writer)
{
    size_t na;
    const struct iolens_share_assign *a = assignment(&na);
    struct iolens_site_list l;
    rank_list(0, &l);
    unsigned char *buf;
    int counts[NRANKS], displs[NRANKS];
    ck_assert_int_eq(iolens_share_sites_split(&l, a, na, 0, NRANKS, &buf, counts, displs), 0);
    /* Only id 100 stays; id 1's two entries went to rank 1. */
    ck_assert_uint_eq(l.n, 1);
    ck_assert_uint_eq(l.e[0].record_id, 100);
    ck_assert_int_eq(counts[0], 0);
    ck_assert_int_eq(counts[2], 0);
    ck_assert_int_eq(counts[3], 0);
    /* 56 bytes a site, the program's path (11) and build-id (3) in 16. */
    ck_assert_int_eq(counts[1], (56 + 16) + 56);
    ck_assert_int_eq(displs[1], 0);
    ck_assert_int_eq(displs[2], counts[1]);
    free(buf);
    iolens_site_list_free(&l);
}
END_TEST

/* The whole exchange for four ranks: the writer of id 1 (rank 1) ends
 * with the job's sites of it, merged by module path and build-id whatever
 * each rank's module order, exact; the other ranks with none of them. */
START_TEST(exchange_gives_the_writer_the_job_sites)
{
    size_t na;
    const struct iolens_share_assign *a = assignment(&na);
    struct iolens_site_list l[NRANKS];
    unsigned char *buf[NRANKS];
    int counts[NRANKS][NRANKS], displs[NRANKS][NRANKS];
    for (int r = 0; r < NRANKS; r++) {
        rank_list(r, &l[r]);
        ck_assert_int_eq(
            iolens_share_sites_split(&l[r], a, na, r, NRANKS, &buf[r], counts[r], displs[r]), 0);
    }
    for (int w = 0; w < NRANKS; w++) {
        size_t len = 0;
        for (int r = 0; r < NRANKS; r++)
            len += (size_t)counts[r][w];
        unsigned char *recv = malloc(len + 1);
        size_t at = 0;
        for (int r = 0; r < NRANKS; r++) {
            memcpy(recv + at, buf[r] + displs[r][w], (size_t)counts[r][w]);
            at += (size_t)counts[r][w];
        }
        ck_assert_int_eq(iolens_share_sites_merge(&l[w], recv, len), 0);
        free(recv);
    }
    for (int r = 0; r < NRANKS; r++) {
        size_t want = r == 1 ? 1 + 4 : 1; /* its own id, and id 1's entries at rank 1 */
        ck_assert_uint_eq(l[r].n, want);
    }
    /* Rank 1's list, reduced: id 1 (0x10: 1+2+3+4 calls, 1000 bytes;
     * 0x20: 3 calls, 60; the library's 0x30: 2, 5; other: 4, 4), then id 101. */
    const struct iolens_site_entry *e = l[1].e;
    ck_assert_uint_eq(e[0].record_id, 1);
    ck_assert_str_eq(l[1].modules[e[0].module].path, "/home/u/app");
    ck_assert_uint_eq(e[0].offset, 0x10);
    ck_assert_uint_eq(e[0].ops, 10);
    ck_assert_int_eq(e[0].bytes, 1000);
    ck_assert_double_eq(e[0].time, 2.5);
    ck_assert_uint_eq(e[1].offset, 0x20);
    ck_assert_uint_eq(e[1].ops, 3);
    ck_assert_int_eq(e[1].bytes, 60);
    ck_assert_str_eq(l[1].modules[e[2].module].path, "/usr/lib/libx.so");
    ck_assert_uint_eq(l[1].modules[e[2].module].build_id_len, 3);
    ck_assert_uint_eq(e[2].offset, 0x30);
    ck_assert_int_eq(e[2].bytes, 5);
    ck_assert_uint_eq(e[3].module, OTHER);
    ck_assert_uint_eq(e[3].ops, 4);
    ck_assert_int_eq(e[3].bytes, 4);
    ck_assert_uint_eq(e[4].record_id, 101);
    ck_assert_uint_eq(l[1].nmodules, 2);
    for (int r = 0; r < NRANKS; r++) {
        free(buf[r]);
        iolens_site_list_free(&l[r]);
    }
}
END_TEST

/* One packed site of path_len 4 ("/bin") and build-id 3, as split packs
 * it, for the malformed-buffer cases. */
static size_t one_packed(unsigned char *out)
{
    struct iolens_site_list l = {0};
    uint32_t m = (uint32_t)iolens_site_list_module(&l, "/bin", 4, build_id, 3);
    add(&l, 1, m, 0x10, 1, 5);
    struct iolens_share_assign a = {1, 1, 0};
    unsigned char *buf;
    int counts[2], displs[2];
    ck_assert_int_eq(iolens_share_sites_split(&l, &a, 1, 0, 2, &buf, counts, displs), 0);
    ck_assert_int_eq(counts[1], 64);
    memcpy(out, buf, 64);
    free(buf);
    iolens_site_list_free(&l);
    return 64;
}

START_TEST(merge_refuses_a_malformed_buffer_before_changing_anything)
{
    unsigned char good[64], bad[64];
    size_t len = one_packed(good);
    struct iolens_site_list l = {0};
    add(&l, 2, OTHER, 0, 1, 1);
    uint32_t v;
    /* cut short: in the head, in the names */
    ck_assert_int_eq(iolens_share_sites_merge(&l, good, 40), -1);
    ck_assert_int_eq(iolens_share_sites_merge(&l, good, 60), -1);
    /* a path too long for the buffer, or for any module */
    memcpy(bad, good, len);
    v = 9;
    memcpy(bad + 12, &v, 4);
    ck_assert_int_eq(iolens_share_sites_merge(&l, bad, len), -1);
    v = IOLENS_SITES_PATH_MAX;
    memcpy(bad + 12, &v, 4);
    ck_assert_int_eq(iolens_share_sites_merge(&l, bad, len), -1);
    /* a build-id too long; a build-id without a path */
    memcpy(bad, good, len);
    v = IOLENS_SITES_BUILD_ID_MAX + 1;
    memcpy(bad + 48, &v, 4);
    ck_assert_int_eq(iolens_share_sites_merge(&l, bad, len), -1);
    memcpy(bad, good, len);
    v = 0;
    memcpy(bad + 12, &v, 4);
    ck_assert_int_eq(iolens_share_sites_merge(&l, bad, len), -1);
    /* a NUL in the path; negative bytes */
    memcpy(bad, good, len);
    bad[56 + 1] = '\0';
    ck_assert_int_eq(iolens_share_sites_merge(&l, bad, len), -1);
    memcpy(bad, good, len);
    int64_t neg = -1;
    memcpy(bad + 32, &neg, 8);
    ck_assert_int_eq(iolens_share_sites_merge(&l, bad, len), -1);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_uint_eq(l.nmodules, 0);
    /* The good one is taken. */
    ck_assert_int_eq(iolens_share_sites_merge(&l, good, len), 0);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.modules[0].path, "/bin");
    iolens_site_list_free(&l);
}
END_TEST

static Suite *shared_sites_suite(void)
{
    Suite *s = suite_create("shared_sites");
    TCase *tc = tcase_create("shared_sites");
    tcase_add_test(tc, split_keeps_own_sites_and_packs_the_rest_by_writer);
    tcase_add_test(tc, exchange_gives_the_writer_the_job_sites);
    tcase_add_test(tc, merge_refuses_a_malformed_buffer_before_changing_anything);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(shared_sites_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
