/* The access-pattern classifier (util/analysis/patterns.c) and the sharing
 * classifiers (util/analysis/sharing.c), on synthetic counters and logs. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layers/access_pattern.h"
#include "analysis/patterns.h"
#include "analysis/sharing.h"

/* ------------------------------------------------------- classifier -- */

struct pat {
    int64_t c[IOLENS_PAT_NCOUNTERS];
};

static struct iolens_pattern classify(const struct pat *p, int64_t accesses)
{
    struct iolens_pattern out;
    iolens_pattern_classify(p->c, accesses, 4096, &out);
    return out;
}

START_TEST(names)
{
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_NONE), "none");
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_CONSECUTIVE), "consecutive");
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_SEQUENTIAL), "sequential");
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_STRIDED), "strided");
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_NESTED_STRIDED), "nested-strided");
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_RANDOM), "random");
    ck_assert_str_eq(iolens_pattern_name(IOLENS_PATTERN_UNKNOWN), "unknown");
    ck_assert_str_eq(iolens_pattern_name((enum iolens_pattern_kind)99), "unknown");
}
END_TEST

START_TEST(none_and_a_single_access)
{
    struct pat p = {{0}};
    struct iolens_pattern r = classify(&p, 0);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_NONE);
    r = classify(&p, 1);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_CONSECUTIVE);
    ck_assert_double_eq(r.regular_share, 1.0);
    ck_assert_int_eq(r.accesses, 1);
    ck_assert_int_eq(r.access_size, 4096);
}
END_TEST

/* 90% of the steps is enough; 89 of 100 is not. */
START_TEST(consecutive_threshold)
{
    struct pat p = {{0}};
    p.c[IOLENS_PAT_STEPS] = 100;
    p.c[IOLENS_PAT_CONSEC] = 90;
    p.c[IOLENS_PAT_SEQ] = 90;
    struct iolens_pattern r = classify(&p, 101);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_CONSECUTIVE);
    ck_assert_double_eq_tol(r.regular_share, 0.9, 1e-12);
    p.c[IOLENS_PAT_CONSEC] = 89;
    p.c[IOLENS_PAT_SEQ] = 89;
    r = classify(&p, 101);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_RANDOM);
    ck_assert_double_eq_tol(r.regular_share, 0.11, 1e-12);
}
END_TEST

/* Consecutive fixed-size accesses are also one stride: consecutive comes
 * first. */
START_TEST(order_consecutive_before_strided_before_nested)
{
    struct pat p = {{0}};
    p.c[IOLENS_PAT_STEPS] = 63;
    p.c[IOLENS_PAT_CONSEC] = 63;
    p.c[IOLENS_PAT_SEQ] = 63;
    p.c[IOLENS_PAT_STRIDE] = 4096;
    p.c[IOLENS_PAT_STRIDE_STEPS] = 63;
    ck_assert_int_eq(classify(&p, 64).kind, IOLENS_PATTERN_CONSECUTIVE);

    p.c[IOLENS_PAT_CONSEC] = 0;
    p.c[IOLENS_PAT_STRIDE] = 16384;
    p.c[IOLENS_PAT_INNER_STRIDE] = 16384;
    p.c[IOLENS_PAT_INNER_COUNT] = 11;
    p.c[IOLENS_PAT_OUTER_STRIDE] = 1 << 20;
    p.c[IOLENS_PAT_GROUPS] = 6;
    p.c[IOLENS_PAT_GROUP_STEPS] = 63;
    p.c[IOLENS_PAT_STRIDE_STEPS] = 58;   /* 92%: strided wins */
    struct iolens_pattern r = classify(&p, 64);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_STRIDED);
    ck_assert_int_eq(r.stride, 16384);
    ck_assert_int_eq(r.inner_count, 0);

    p.c[IOLENS_PAT_STRIDE_STEPS] = 40;   /* 63%: the nesting explains it */
    r = classify(&p, 64);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_NESTED_STRIDED);
    ck_assert_int_eq(r.stride, 16384);
    ck_assert_int_eq(r.inner_count, 11);
    ck_assert_int_eq(r.outer_stride, 1 << 20);
    ck_assert_int_eq(r.outer_count, 6);
    ck_assert_double_eq(r.regular_share, 1.0);
}
END_TEST

/* One group is no nesting: a single interruption of a stride. */
START_TEST(nested_needs_two_groups)
{
    struct pat p = {{0}};
    p.c[IOLENS_PAT_STEPS] = 21;
    p.c[IOLENS_PAT_SEQ] = 21;
    p.c[IOLENS_PAT_STRIDE] = 512;
    p.c[IOLENS_PAT_STRIDE_STEPS] = 10;
    p.c[IOLENS_PAT_INNER_STRIDE] = 512;
    p.c[IOLENS_PAT_INNER_COUNT] = 11;
    p.c[IOLENS_PAT_GROUPS] = 1;
    p.c[IOLENS_PAT_GROUP_STEPS] = 21;
    ck_assert_int_eq(classify(&p, 22).kind, IOLENS_PATTERN_SEQUENTIAL);
    p.c[IOLENS_PAT_GROUPS] = 2;
    ck_assert_int_eq(classify(&p, 22).kind, IOLENS_PATTERN_NESTED_STRIDED);
}
END_TEST

START_TEST(sequential_and_random)
{
    struct pat p = {{0}};
    p.c[IOLENS_PAT_STEPS] = 50;
    p.c[IOLENS_PAT_SEQ] = 46;
    p.c[IOLENS_PAT_CONSEC] = 3;
    p.c[IOLENS_PAT_STRIDE] = 999;
    p.c[IOLENS_PAT_STRIDE_STEPS] = 2;
    struct iolens_pattern r = classify(&p, 51);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_SEQUENTIAL);
    ck_assert_double_eq_tol(r.regular_share, 0.92, 1e-12);
    ck_assert_int_eq(r.stride, 0);
    p.c[IOLENS_PAT_SEQ] = 25;
    r = classify(&p, 51);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_RANDOM);
    ck_assert_double_eq_tol(r.regular_share, 0.5, 1e-12);
}
END_TEST

/* A shared record whose ranks disagree on a parameter keeps its label
 * (the counts add up) and shows the parameter as mixed. */
START_TEST(shared_record_with_mixed_parameters)
{
    struct pat p = {{0}};
    p.c[IOLENS_PAT_STEPS] = 400;
    p.c[IOLENS_PAT_SEQ] = 400;
    p.c[IOLENS_PAT_STRIDE] = IOLENS_PAT_MIXED;
    p.c[IOLENS_PAT_STRIDE_STEPS] = 400;
    struct iolens_pattern r = classify(&p, 404);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_STRIDED);
    ck_assert_int_eq(r.stride, IOLENS_PAT_MIXED);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    iolens_pattern_print_params(f, &r);
    fputc('|', f);
    p.c[IOLENS_PAT_STRIDE_STEPS] = 0;
    p.c[IOLENS_PAT_INNER_STRIDE] = 64;
    p.c[IOLENS_PAT_INNER_COUNT] = IOLENS_PAT_MIXED;
    p.c[IOLENS_PAT_OUTER_STRIDE] = -4096;
    p.c[IOLENS_PAT_GROUPS] = 100;
    p.c[IOLENS_PAT_GROUP_STEPS] = 399;
    r = classify(&p, 404);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_NESTED_STRIDED);
    iolens_pattern_print_params(f, &r);
    fputc('|', f);
    r = classify(&p, 0);
    iolens_pattern_print_params(f, &r);
    fclose(f);
    ck_assert_str_eq(text, "size=4096 stride=mixed|size=4096 inner_stride=64 "
                           "inner_count=mixed outer_stride=-4096 outer_count=100|-");
    free(text);
}
END_TEST

/* ------------------------------------------------- synthetic logs -- */

struct fake {
    struct iolens_log log;
    struct iolens_log_layer layer[2];
};

/* A layer of kind with n zeroed records of counter_count counters. */
static void fake_layer(struct iolens_log_layer *L, uint32_t kind, uint32_t counter_count,
                       uint64_t n)
{
    memset(L, 0, sizeof *L);
    L->kind = kind;
    L->counter_count = counter_count;
    L->record_count = n;
    L->id = calloc(n, sizeof *L->id);
    L->rank = calloc(n, sizeof *L->rank);
    L->counters = calloc(n * counter_count, sizeof *L->counters);
    ck_assert(L->id != NULL && L->rank != NULL && L->counters != NULL);
}

static void free_layer(struct iolens_log_layer *L)
{
    free(L->id);
    free(L->rank);
    free(L->counters);
}

static int64_t *ctr(struct iolens_log_layer *L, uint64_t r, int i)
{
    return &L->counters[r * L->counter_count + (uint32_t)i];
}

static void fake_log(struct fake *f, uint32_t nprocs, size_t nlayers)
{
    memset(&f->log, 0, sizeof f->log);
    f->log.job.nprocs = nprocs;
    f->log.nlayers = nlayers;
    f->log.layers = f->layer;
}

START_TEST(record_of_posix_mpiio_and_other_layers)
{
    struct iolens_log_layer L;
    fake_layer(&L, IOLENS_REGION_MPIIO, MPIIO_NUM_COUNTERS, 1);
    *ctr(&L, 0, MPIIO_COLL_WRITES) = 30;
    *ctr(&L, 0, MPIIO_NB_READS) = 3;
    *ctr(&L, 0, MPIIO_ACCESS1_ACCESS) = 1 << 20;
    *ctr(&L, 0, MPIIO_PAT_STEPS) = 32;
    *ctr(&L, 0, MPIIO_PAT_STRIDE) = 4 << 20;
    *ctr(&L, 0, MPIIO_PAT_STRIDE_STEPS) = 32;
    struct iolens_pattern r;
    iolens_pattern_of_record(&L, 0, &r);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_STRIDED);
    ck_assert_int_eq(r.accesses, 33);
    ck_assert_int_eq(r.access_size, 1 << 20);
    ck_assert_int_eq(r.stride, 4 << 20);
    iolens_pattern_of_record(&L, 1, &r); /* no such record */
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_UNKNOWN);

    /* A log from before the detector: fewer counters, label unknown, the
     * accesses still counted. */
    L.counter_count = MPIIO_PAT_STEPS;
    iolens_pattern_of_record(&L, 0, &r);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_UNKNOWN);
    ck_assert_int_eq(r.accesses, 33);
    free_layer(&L);

    fake_layer(&L, IOLENS_REGION_STDIO, STDIO_NUM_COUNTERS, 1);
    *ctr(&L, 0, STDIO_WRITES) = 5;
    iolens_pattern_of_record(&L, 0, &r);
    ck_assert_int_eq(r.kind, IOLENS_PATTERN_UNKNOWN);
    free_layer(&L);
}
END_TEST

/* POSIX records: (rank, bytes written, ranks that did I/O) each; rank -1
 * is a shared record whose fastest and slowest ranks are given. */
struct rec {
    int64_t rank, bytes, ranks_io, fastest, fastest_bytes, slowest, slowest_bytes;
    uint64_t id;
};

/* A per-rank record, a shared one, a standard stream's. */
#define UNIQ(r, b) {.rank = (r), .bytes = (b)}
#define SHARED(b, io, f, fb, s, sb)                                                      \
    {.rank = IOLENS_RANK_ALL, .bytes = (b), .ranks_io = (io), .fastest = (f),            \
     .fastest_bytes = (fb), .slowest = (s), .slowest_bytes = (sb)}
#define STREAM(r, b, sid) {.rank = (r), .bytes = (b), .id = (sid)}

static struct iolens_sharing sharing_of(uint32_t nprocs, const struct rec *recs, size_t n)
{
    struct fake f;
    fake_log(&f, nprocs, 1);
    struct iolens_log_layer *L = &f.layer[0];
    fake_layer(L, IOLENS_REGION_POSIX, POSIX_NUM_COUNTERS, n);
    for (size_t i = 0; i < n; i++) {
        L->id[i] = recs[i].id != 0 ? recs[i].id : 100 + i;
        L->rank[i] = recs[i].rank;
        *ctr(L, i, POSIX_BYTES_WRITTEN) = recs[i].bytes;
        *ctr(L, i, POSIX_RANKS_OPENED) = recs[i].rank < 0 ? recs[i].ranks_io : 1;
        *ctr(L, i, POSIX_RANKS_IO) = recs[i].rank < 0 ? recs[i].ranks_io : 1;
        *ctr(L, i, POSIX_FASTEST_RANK) = recs[i].rank < 0 ? recs[i].fastest : recs[i].rank;
        *ctr(L, i, POSIX_FASTEST_RANK_BYTES) = recs[i].fastest_bytes;
        *ctr(L, i, POSIX_SLOWEST_RANK) = recs[i].rank < 0 ? recs[i].slowest : recs[i].rank;
        *ctr(L, i, POSIX_SLOWEST_RANK_BYTES) = recs[i].slowest_bytes;
    }
    struct iolens_sharing sh;
    ck_assert_int_eq(iolens_sharing_of_job(&f.log, &sh), 0);
    free_layer(L);
    return sh;
}

START_TEST(sharing_names)
{
    ck_assert_str_eq(iolens_sharing_name(IOLENS_SHARING_NONE), "none");
    ck_assert_str_eq(iolens_sharing_name(IOLENS_SHARING_N_N), "N:N");
    ck_assert_str_eq(iolens_sharing_name(IOLENS_SHARING_N_1), "N:1");
    ck_assert_str_eq(iolens_sharing_name(IOLENS_SHARING_N_M), "N:M");
    ck_assert_str_eq(iolens_sharing_name(IOLENS_SHARING_RANK0), "rank-0");
    ck_assert_str_eq(iolens_file_sharing_name(IOLENS_FILE_UNIQUE), "unique");
    ck_assert_str_eq(iolens_file_sharing_name(IOLENS_FILE_PARTSHARED), "partshared");
    ck_assert_str_eq(iolens_file_sharing_name(IOLENS_FILE_SHARED), "shared");
}
END_TEST

START_TEST(file_per_process)
{
    const struct rec r[] = {UNIQ(0, 100), UNIQ(1, 100), UNIQ(2, 120), UNIQ(3, 100)};
    struct iolens_sharing sh = sharing_of(4, r, 4);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_N);
    ck_assert_int_eq(sh.bytes, 420);
    ck_assert_int_eq(sh.bytes_unique, 420);
    ck_assert_int_eq(sh.top_rank, 2);
    ck_assert_double_eq_tol(sh.top_rank_share, 120.0 / 420.0, 1e-12);
    ck_assert_int_eq(sh.layer, IOLENS_REGION_POSIX);
}
END_TEST

/* One file all 4 ranks wrote carries most data; small per-rank files too. */
START_TEST(one_shared_file)
{
    const struct rec r[] = {SHARED(4000, 4, 1, 1000, 3, 1000), UNIQ(0, 10), UNIQ(1, 10)};
    struct iolens_sharing sh = sharing_of(4, r, 3);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_1);
    ck_assert_int_eq(sh.bytes_all, 4000);
    ck_assert_int_eq(sh.bytes_unique, 20);
    ck_assert_int_eq(sh.top_rank, 1);
    ck_assert_double_eq_tol(sh.top_rank_share, 1010.0 / 4020.0, 1e-12);
}
END_TEST

/* Two files, each written by a pair of ranks. */
START_TEST(files_shared_by_subsets)
{
    const struct rec r[] = {SHARED(500, 2, 0, 250, 1, 250), SHARED(500, 2, 2, 250, 3, 250)};
    struct iolens_sharing sh = sharing_of(4, r, 2);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_M);
    ck_assert_int_eq(sh.bytes_subset, 1000);
}
END_TEST

/* Rank 0 writes a shared file the others only opened, plus its own. */
START_TEST(rank0_moves_the_data)
{
    const struct rec r[] = {SHARED(950, 1, 3, 0, 0, 950), UNIQ(0, 40), UNIQ(2, 10)};
    struct iolens_sharing sh = sharing_of(4, r, 3);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_RANK0);
    ck_assert_int_eq(sh.top_rank, 0);
    ck_assert_double_eq_tol(sh.top_rank_share, 0.99, 1e-12);
    /* Just under 90%: the majority rule decides (here N:N). */
    const struct rec s[] = {UNIQ(0, 89), UNIQ(1, 11)};
    sh = sharing_of(2, s, 2);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_N);
    const struct rec t[] = {UNIQ(0, 90), UNIQ(1, 10)};
    sh = sharing_of(2, t, 2);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_RANK0);
}
END_TEST

/* No data, one process, and the standard streams (not files). */
START_TEST(none_serial_and_std_streams)
{
    const struct rec none[] = {UNIQ(0, 0), UNIQ(1, 0)};
    struct iolens_sharing sh = sharing_of(2, none, 2);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_NONE);
    ck_assert_int_eq(sh.top_rank, -1);
    ck_assert_int_eq(sh.layer, 0);

    const struct rec serial[] = {UNIQ(0, 5000)};
    sh = sharing_of(1, serial, 1);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_N);
    ck_assert_int_eq(sh.nprocs, 1);

    /* 4 ranks print a lot to <STDOUT>; the data is one shared file */
    const struct rec out[] = {STREAM(0, 9000, IOLENS_ID_STDOUT), STREAM(1, 9000, IOLENS_ID_STDOUT),
                              SHARED(400, 4, 0, 100, 3, 100)};
    sh = sharing_of(4, out, 3);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_1);
    ck_assert_int_eq(sh.bytes, 400);
}
END_TEST

/* POSIX moved nothing (no POSIX layer here): MPIIO decides. */
START_TEST(falls_back_to_mpiio)
{
    struct fake f;
    fake_log(&f, 2, 2);
    fake_layer(&f.layer[0], IOLENS_REGION_POSIX, POSIX_NUM_COUNTERS, 1);
    f.layer[0].id[0] = 7;
    *ctr(&f.layer[0], 0, POSIX_OPENS) = 1;
    fake_layer(&f.layer[1], IOLENS_REGION_MPIIO, MPIIO_NUM_COUNTERS, 1);
    f.layer[1].id[0] = 7;
    f.layer[1].rank[0] = IOLENS_RANK_ALL;
    *ctr(&f.layer[1], 0, MPIIO_BYTES_READ) = 64;
    *ctr(&f.layer[1], 0, MPIIO_RANKS_OPENED) = 2;
    *ctr(&f.layer[1], 0, MPIIO_RANKS_IO) = 2;
    *ctr(&f.layer[1], 0, MPIIO_SLOWEST_RANK) = 1;
    *ctr(&f.layer[1], 0, MPIIO_SLOWEST_RANK_BYTES) = 32;
    struct iolens_sharing sh;
    ck_assert_int_eq(iolens_sharing_of_job(&f.log, &sh), 0);
    ck_assert_int_eq(sh.layer, IOLENS_REGION_MPIIO);
    ck_assert_int_eq(sh.cls, IOLENS_SHARING_N_1);
    ck_assert_int_eq(sh.bytes, 64);
    ck_assert_int_eq(sh.top_rank, 1);

    struct iolens_file_share fs;
    iolens_file_sharing_of_record(&f.log, &f.layer[1], 0, &fs);
    ck_assert_int_eq(fs.kind, IOLENS_FILE_SHARED);
    ck_assert_int_eq(fs.nranks, 2);
    iolens_file_sharing_of_record(&f.log, &f.layer[0], 0, &fs);
    ck_assert_int_eq(fs.kind, IOLENS_FILE_UNIQUE);
    ck_assert_int_eq(fs.nranks, 1);
    f.log.job.nprocs = 3;
    iolens_file_sharing_of_record(&f.log, &f.layer[1], 0, &fs);
    ck_assert_int_eq(fs.kind, IOLENS_FILE_PARTSHARED);
    free_layer(&f.layer[0]);
    free_layer(&f.layer[1]);
}
END_TEST

static Suite *patterns_suite(void)
{
    Suite *s = suite_create("patterns");
    TCase *tc = tcase_create("classifier");
    tcase_add_test(tc, names);
    tcase_add_test(tc, none_and_a_single_access);
    tcase_add_test(tc, consecutive_threshold);
    tcase_add_test(tc, order_consecutive_before_strided_before_nested);
    tcase_add_test(tc, nested_needs_two_groups);
    tcase_add_test(tc, sequential_and_random);
    tcase_add_test(tc, shared_record_with_mixed_parameters);
    tcase_add_test(tc, record_of_posix_mpiio_and_other_layers);
    suite_add_tcase(s, tc);
    tc = tcase_create("sharing");
    tcase_add_test(tc, sharing_names);
    tcase_add_test(tc, file_per_process);
    tcase_add_test(tc, one_shared_file);
    tcase_add_test(tc, files_shared_by_subsets);
    tcase_add_test(tc, rank0_moves_the_data);
    tcase_add_test(tc, none_serial_and_std_streams);
    tcase_add_test(tc, falls_back_to_mpiio);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(patterns_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
