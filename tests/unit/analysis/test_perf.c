/* The --perf figures (util/analysis/perf.c) on a hand-made log whose every
 * expected value is worked out below.  Sizes are whole MiB and times
 * binary fractions, so every expected figure is exact or one division.
 *
 * Job: 2 nodes, run time 10 s.
 *   POSIX  id 1 rank 0   1 MiB written, write 1.0 s, meta 0.25 s
 *          id 2 rank 1   2 MiB read,    read 0.5 s
 *          id 3 rank 0   1 MiB written, write 0.5 s
 *          id 4 rank -1  4 MiB read (shared by 4 ranks), read 2.0 s,
 *                        meta 0.5 s, slowest rank 0.75 s, first open at
 *                        1.0 s, last read ends at 2.5 s
 *   STDIO  id 5 rank 1   1 MiB written, write 1.5 s
 *   intervals: rank 0 POSIX [0, 1] [0.5, 2]; rank 1 STDIO [3, 4]
 *
 * POSIX: bytes 8 MiB; rank 0 1.75 s (meta 0.25), rank 1 0.5 s: unique
 *   1.75 s by rank 0; + shared 0.75 = 2.5 s -> 3.2 MiB/s, 1.6 per node;
 *   fallback 1.75 + 1.5 = 3.25 s -> 8 / 3.25; union 2 s -> 4 MiB/s;
 *   read 2.5, write 1.5, meta 0.75 s: meta share 0.75 / 4.75; I/O share
 *   2.5 / 10.
 * STDIO: 1 MiB, rank 1 1.5 s -> 1 / 1.5 MiB/s; union 1 s.
 * Job (POSIX + STDIO): 9 MiB; rank 1 now 0.5 + 1.5 = 2 s beats rank 0's
 *   1.75 s; + 0.75 = 2.75 s -> 9 / 2.75 MiB/s; union [0, 2] + [3, 4] =
 *   3 s -> 3 MiB/s. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf.h"

#define MIB 1048576

struct fixture {
    struct iolens_log log;
    struct iolens_log_layer layers[2];
    struct iolens_log_intervals iv[2];
    double iv_start0[2], iv_end0[2], iv_start1[1], iv_end1[1], iv_busy0[2], iv_busy1[1];
    int64_t iv_bytes[2];
    uint64_t iv_ids[2];
    uint32_t iv_acc[2], iv_flags[2];
    char *strings[IOLENS_JOB_NSTRINGS];
};

static void alloc_layer(struct iolens_log_layer *L, uint32_t kind, uint32_t nc, uint32_t nf,
                        uint64_t n)
{
    *L = (struct iolens_log_layer){.kind = kind, .version = 1, .counter_count = nc,
                                   .fcounter_count = nf, .record_count = n};
    L->id = calloc(n, sizeof *L->id);
    L->rank = calloc(n, sizeof *L->rank);
    L->counters = calloc(n * nc, sizeof *L->counters);
    L->fcounters = calloc(n * nf, sizeof *L->fcounters);
    ck_assert(L->id && L->rank && L->counters && L->fcounters);
}

#define PC(r, c) f->layers[0].counters[(r) * POSIX_NUM_COUNTERS + (c)]
#define PF(r, c) f->layers[0].fcounters[(r) * POSIX_F_NUM_COUNTERS + (c)]

static void posix_records(struct fixture *f)
{
    struct iolens_log_layer *L = &f->layers[0];
    alloc_layer(L, IOLENS_REGION_POSIX, POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, 4);
    static const int64_t ranks[] = {0, 1, 0, -1};
    for (int r = 0; r < 4; r++) {
        L->id[r] = (uint64_t)r + 1;
        L->rank[r] = ranks[r];
        PC(r, POSIX_OPENS) = 1;
    }
    PC(0, POSIX_BYTES_WRITTEN) = MIB;
    PC(0, POSIX_WRITES) = 1;
    PF(0, POSIX_F_WRITE_TIME) = 1.0;
    PF(0, POSIX_F_META_TIME) = 0.25;
    PC(1, POSIX_BYTES_READ) = 2 * MIB;
    PC(1, POSIX_READS) = 2;
    PF(1, POSIX_F_READ_TIME) = 0.5;
    PC(2, POSIX_BYTES_WRITTEN) = MIB;
    PC(2, POSIX_WRITES) = 4;
    PF(2, POSIX_F_WRITE_TIME) = 0.5;
    PC(3, POSIX_OPENS) = 4;
    PC(3, POSIX_BYTES_READ) = 4 * MIB;
    PC(3, POSIX_READS) = 8;
    PC(3, POSIX_RANKS_OPENED) = 4;
    PF(3, POSIX_F_READ_TIME) = 2.0;
    PF(3, POSIX_F_META_TIME) = 0.5;
    PF(3, POSIX_F_SLOWEST_RANK_TIME) = 0.75;
    PF(3, POSIX_F_OPEN_START_TIMESTAMP) = 1.0;
    PF(3, POSIX_F_READ_END_TIMESTAMP) = 2.5;
}

static void stdio_records(struct fixture *f)
{
    struct iolens_log_layer *L = &f->layers[1];
    alloc_layer(L, IOLENS_REGION_STDIO, STDIO_NUM_COUNTERS, STDIO_F_NUM_COUNTERS, 1);
    L->id[0] = 5;
    L->rank[0] = 1;
    L->counters[STDIO_OPENS] = 1;
    L->counters[STDIO_WRITES] = 3;
    L->counters[STDIO_BYTES_WRITTEN] = MIB;
    L->fcounters[STDIO_F_WRITE_TIME] = 1.5;
}

static void intervals(struct fixture *f)
{
    f->iv_start0[0] = 0.0, f->iv_end0[0] = 1.0;
    f->iv_start0[1] = 0.5, f->iv_end0[1] = 2.0;
    f->iv_start1[0] = 3.0, f->iv_end1[0] = 4.0;
    /* one access each; rank 0's two overlap by 0.5 s */
    f->iv_busy0[0] = 1.0, f->iv_busy0[1] = 1.5, f->iv_busy1[0] = 1.0;
    f->iv[0] = (struct iolens_log_intervals){
        .rank = 0, .kind = IOLENS_REGION_POSIX, .count = 2, .start = f->iv_start0,
        .end = f->iv_end0, .busy = f->iv_busy0, .sum_duration = 2.5, .overlap = 0.5, .bytes = f->iv_bytes, .file_id = f->iv_ids,
        .accesses = f->iv_acc, .flags = f->iv_flags};
    f->iv[1] = (struct iolens_log_intervals){
        .rank = 1, .kind = IOLENS_REGION_STDIO, .count = 1, .start = f->iv_start1,
        .end = f->iv_end1, .busy = f->iv_busy1, .sum_duration = 1.0, .bytes = f->iv_bytes, .file_id = f->iv_ids,
        .accesses = f->iv_acc, .flags = f->iv_flags};
    f->log.intervals = f->iv;
    f->log.ninterval_sets = 2;
}

static void set_hosts(struct fixture *f, const char *hosts, size_t len)
{
    f->log.jobstr[IOLENS_JOBSTR_HOSTS] = (char *)hosts;
    f->log.jobstr_len[IOLENS_JOBSTR_HOSTS] = len;
}

static struct fixture *make_fixture(void)
{
    struct fixture *f = calloc(1, sizeof *f);
    ck_assert_ptr_nonnull(f);
    static char empty[] = "";
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        f->log.jobstr[i] = empty;
    f->log.job.nprocs = 4;
    f->log.job.nnodes = 2;
    f->log.job.run_time = 10.0;
    posix_records(f);
    stdio_records(f);
    f->log.layers = f->layers;
    f->log.nlayers = 2;
    intervals(f);
    return f;
}

static void free_fixture(struct fixture *f)
{
    for (int l = 0; l < 2; l++) {
        free(f->layers[l].id);
        free(f->layers[l].rank);
        free(f->layers[l].counters);
        free(f->layers[l].fcounters);
    }
    free(f);
}

#define EQ(a, b) ck_assert_double_eq_tol((a), (b), 1e-12)

START_TEST(posix_layer)
{
    struct fixture *f = make_fixture();
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    const struct iolens_perf_layer *x = iolens_perf_layer_of(&p, IOLENS_REGION_POSIX);
    ck_assert_ptr_nonnull(x);
    ck_assert_int_eq(x->present, 1);
    ck_assert_uint_eq(x->records, 4);
    ck_assert_uint_eq(x->shared_records, 1);
    ck_assert_int_eq(x->bytes, 8 * MIB);
    ck_assert_int_eq(x->bytes_read, 6 * MIB);
    ck_assert_int_eq(x->bytes_written, 2 * MIB);
    ck_assert_int_eq(x->reads, 10);
    ck_assert_int_eq(x->writes, 5);
    ck_assert_int_eq(x->opens, 7);
    EQ(x->time_read, 2.5);
    EQ(x->time_write, 1.5);
    EQ(x->time_meta, 0.75);
    EQ(x->unique_time, 1.75);
    ck_assert_int_eq(x->slowest_rank, 0);
    EQ(x->unique_meta_time, 0.25);
    EQ(x->shared_slowest_time, 0.75);
    EQ(x->slowest_time, 2.5);
    EQ(x->agg_mib_s, 3.2);
    EQ(x->mib_s_per_cn, 1.6);
    EQ(x->shared_open_to_last_io, 1.5);
    EQ(x->fallback_time, 3.25);
    EQ(x->fallback_mib_s, 8.0 / 3.25);
    EQ(x->union_time, 2.0);
    EQ(x->union_time_lower, 2.0);
    EQ(x->union_time_upper, 2.0);
    ck_assert_int_eq(x->union_wide, 0);
    EQ(x->union_mib_s, 4.0);
    EQ(x->union_mib_s_min, 4.0);
    EQ(x->union_mib_s_max, 4.0);
    EQ(x->io_share, 0.25);
    EQ(x->meta_share, 0.75 / 4.75);
    ck_assert_uint_eq(p.compute_nodes, 2);
    free_fixture(f);
}
END_TEST

START_TEST(stdio_layer_and_job)
{
    struct fixture *f = make_fixture();
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    const struct iolens_perf_layer *s = iolens_perf_layer_of(&p, IOLENS_REGION_STDIO);
    ck_assert_int_eq(s->bytes, MIB);
    EQ(s->slowest_time, 1.5);
    ck_assert_int_eq(s->slowest_rank, 1);
    EQ(s->agg_mib_s, 1.0 / 1.5);
    EQ(s->union_time, 1.0);
    const struct iolens_perf_layer *j = &p.job;
    ck_assert_str_eq(j->name, "job");
    ck_assert_int_eq(j->bytes, 9 * MIB);
    EQ(j->unique_time, 2.0);
    ck_assert_int_eq(j->slowest_rank, 1);
    EQ(j->slowest_time, 2.75);
    EQ(j->agg_mib_s, 9.0 / 2.75);
    EQ(j->mib_s_per_cn, 9.0 / 2.75 / 2.0);
    EQ(j->union_time, 3.0);
    EQ(j->union_mib_s, 3.0);
    free_fixture(f);
}
END_TEST

START_TEST(absent_layers_are_undefined)
{
    struct fixture *f = make_fixture();
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    const struct iolens_perf_layer *h = iolens_perf_layer_of(&p, IOLENS_REGION_H5F);
    ck_assert_int_eq(h->present, 0);
    ck_assert_int_eq(h->bytes, 0);
    ck_assert_int_eq(h->slowest_rank, -1);
    ck_assert(isnan(h->agg_mib_s));
    ck_assert(isnan(h->union_mib_s));
    ck_assert(isnan(h->meta_share));
    const struct iolens_perf_layer *m = iolens_perf_layer_of(&p, IOLENS_REGION_MPIIO);
    ck_assert_int_eq(m->present, 0);
    ck_assert_ptr_null(iolens_perf_layer_of(&p, 12345));
    free_fixture(f);
}
END_TEST

START_TEST(compute_nodes_from_hosts)
{
    struct fixture *f = make_fixture();
    f->log.job.nnodes = 0;
    static const char hosts[] = "n1\0n2\0n3";
    set_hosts(f, hosts, sizeof hosts - 1);
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    ck_assert_uint_eq(p.compute_nodes, 3);
    EQ(p.layer[0].mib_s_per_cn, 3.2 / 3.0);
    /* neither nnodes nor host names: MiB/s/CN is undefined */
    set_hosts(f, "", 0);
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    ck_assert_uint_eq(p.compute_nodes, 0);
    ck_assert(isnan(p.job.mib_s_per_cn));
    EQ(p.job.agg_mib_s, 9.0 / 2.75);
    free_fixture(f);
}
END_TEST

/* Overlapping calls (threads) can sum to more than the run time; the
 * share of the run time is still at most 1, and only it is clamped. */
START_TEST(io_share_at_most_one)
{
    struct fixture *f = make_fixture();
    f->log.job.run_time = 2.0; /* POSIX slowest time 2.5 s, job 2.75 s */
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    EQ(p.layer[0].slowest_time, 2.5);
    EQ(p.layer[0].io_share, 1.0);
    EQ(p.job.io_share, 1.0);
    EQ(p.layer[1].io_share, 0.75); /* STDIO 1.5 s of 2: not clamped */
    free_fixture(f);
}
END_TEST

START_TEST(shared_record_without_timestamps)
{
    /* No open timestamp: the fallback keeps the slowest rank's time. */
    struct fixture *f = make_fixture();
    PF(3, POSIX_F_OPEN_START_TIMESTAMP) = 0.0;
    PF(3, POSIX_F_READ_END_TIMESTAMP) = 0.0;
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&f->log, &p), 0);
    EQ(p.layer[0].shared_open_to_last_io, 0.75);
    EQ(p.layer[0].fallback_time, 2.5);
    struct iolens_perf_record r;
    iolens_perf_record(&f->layers[0], 3, &r);
    ck_assert(isnan(r.open_to_last_io));
    ck_assert_int_eq(r.nranks, 4);
    EQ(r.slowest_time, 0.75);
    EQ(r.io_time, 2.5);
    free_fixture(f);
}
END_TEST

START_TEST(per_record_facts)
{
    struct fixture *f = make_fixture();
    struct iolens_perf_record r;
    iolens_perf_record(&f->layers[0], 0, &r);
    ck_assert_int_eq(r.bytes_written, MIB);
    ck_assert_int_eq(r.nranks, 1);
    EQ(r.io_time, 1.25);
    EQ(r.slowest_time, 1.25);
    iolens_perf_record(&f->layers[0], 3, &r);
    EQ(r.open_start, 1.0);
    EQ(r.last_io_end, 2.5);
    EQ(r.open_to_last_io, 1.5);
    free_fixture(f);
}
END_TEST

START_TEST(no_records)
{
    struct iolens_log log;
    memset(&log, 0, sizeof log);
    static char empty[] = "";
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        log.jobstr[i] = empty;
    log.job.run_time = 1.0;
    struct iolens_perf p;
    ck_assert_int_eq(iolens_perf_compute(&log, &p), 0);
    ck_assert_int_eq(p.job.bytes, 0);
    EQ(p.job.slowest_time, 0.0);
    ck_assert(isnan(p.job.agg_mib_s));
    EQ(p.job.union_time, 0.0);
}
END_TEST

static Suite *perf_suite(void)
{
    Suite *s = suite_create("perf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, posix_layer);
    tcase_add_test(tc, stdio_layer_and_job);
    tcase_add_test(tc, absent_layers_are_undefined);
    tcase_add_test(tc, compute_nodes_from_hosts);
    tcase_add_test(tc, io_share_at_most_one);
    tcase_add_test(tc, shared_record_without_timestamps);
    tcase_add_test(tc, per_record_facts);
    tcase_add_test(tc, no_records);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(perf_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
