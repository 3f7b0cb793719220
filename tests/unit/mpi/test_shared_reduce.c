/* The pure half of the shared-file reduction (lib/mpi/shared_reduce.c) and the
 * pure helpers of the MPI log writer (lib/mpi/mpi_log.c).  No MPI: the
 * exchanges between ranks are simulated in memory, exactly as the
 * collectives in lib/mpi/mpi_runtime.c move the buffers. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log_format.h"
#include "mpi/mpi_log.h"
#include "format/compare.h"
#include "format/record_merge.h"
#include "mpi/shared_reduce.h"

#define POSIX_L 0u
#define STDIO_L 1u
#define MAXR 8

static const struct iolens_layer_desc *desc(unsigned l)
{
    return iolens_layer_desc_at(l);
}

/* Appends a POSIX record to set (layer 0). */
static struct iolens_posix_record *add_posix(struct iolens_record_set *s, uint64_t id,
                                             int64_t rank)
{
    s->nlayers = iolens_layer_desc_count();
    size_t n = s->count[POSIX_L] + 1;
    s->records[POSIX_L] = realloc(s->records[POSIX_L], n * sizeof(struct iolens_posix_record));
    struct iolens_posix_record *r = (struct iolens_posix_record *)s->records[POSIX_L] + n - 1;
    memset(r, 0, sizeof *r);
    r->id = id;
    r->rank = rank;
    s->count[POSIX_L] = n;
    return r;
}

static struct iolens_stdio_record *add_stdio(struct iolens_record_set *s, uint64_t id,
                                             int64_t rank)
{
    s->nlayers = iolens_layer_desc_count();
    size_t n = s->count[STDIO_L] + 1;
    s->records[STDIO_L] = realloc(s->records[STDIO_L], n * sizeof(struct iolens_stdio_record));
    struct iolens_stdio_record *r = (struct iolens_stdio_record *)s->records[STDIO_L] + n - 1;
    memset(r, 0, sizeof *r);
    r->id = id;
    r->rank = rank;
    s->count[STDIO_L] = n;
    return r;
}

/* A POSIX record as a rank would have it: opened once, wrote bytes in
 * time t, with its own sharing counters filled. */
static void posix_io(struct iolens_record_set *s, uint64_t id, int64_t rank, int64_t bytes,
                     double t)
{
    struct iolens_posix_record *r = add_posix(s, id, rank);
    r->counters[POSIX_OPENS] = 1;
    r->counters[POSIX_WRITES] = bytes > 0;
    r->counters[POSIX_BYTES_WRITTEN] = bytes;
    r->counters[POSIX_MAX_BYTE_WRITTEN] = bytes - 1;
    r->fcounters[POSIX_F_WRITE_TIME] = t;
    r->fcounters[POSIX_F_OPEN_START_TIMESTAMP] = 1.0 + (double)rank;
    r->fcounters[POSIX_F_WRITE_END_TIMESTAMP] = 10.0 + (double)rank;
    iolens_record_fill_own_sharing(desc(POSIX_L), r);
}

static const struct iolens_posix_record *posix_at(const struct iolens_record_set *s, size_t i)
{
    return (const struct iolens_posix_record *)s->records[POSIX_L] + i;
}

static const struct iolens_posix_record *find_posix(const struct iolens_record_set *s,
                                                    uint64_t id)
{
    for (size_t i = 0; i < s->count[POSIX_L]; i++)
        if (posix_at(s, i)->id == id)
            return posix_at(s, i);
    return NULL;
}

/* A deep copy of s into c. */
static void copy_set(const struct iolens_record_set *s, struct iolens_record_set *c)
{
    *c = *s;
    for (unsigned l = 0; l < IOLENS_SHARE_MAX_LAYERS; l++) {
        size_t bytes = s->count[l] * (l < s->nlayers ? desc(l)->record_size : 0);
        c->records[l] = NULL;
        if (s->records[l] != NULL) {
            c->records[l] = malloc(bytes + 1);
            ck_assert_ptr_nonnull(c->records[l]);
            memcpy(c->records[l], s->records[l], bytes);
        }
    }
}

/* ---------------------------------------------------------- owners -- */

START_TEST(owner_is_in_range_stable_and_spread)
{
    unsigned per[MAXR] = {0};
    for (uint64_t id = 1; id <= 8000; id++) {
        int o = iolens_share_owner(id * 0x9e3779b97f4a7c15ull, MAXR);
        ck_assert_int_ge(o, 0);
        ck_assert_int_lt(o, MAXR);
        ck_assert_int_eq(o, iolens_share_owner(id * 0x9e3779b97f4a7c15ull, MAXR));
        per[o]++;
    }
    for (int r = 0; r < MAXR; r++) {
        ck_assert_uint_gt(per[r], 800);
        ck_assert_uint_lt(per[r], 1200);
    }
    /* The reserved ids (1 ... 15) are not all sent to one rank. */
    int first = iolens_share_owner(1, MAXR), differ = 0;
    for (uint64_t id = 2; id <= 15; id++)
        differ |= iolens_share_owner(id, MAXR) != first;
    ck_assert(differ);
    ck_assert_int_eq(iolens_share_owner(12345, 1), 0);
}
END_TEST

START_TEST(distinct_ids_are_sorted_and_unique_across_layers)
{
    struct iolens_record_set s = {0};
    add_posix(&s, 30, 0);
    add_posix(&s, 10, 0);
    add_stdio(&s, 30, 0);
    add_stdio(&s, 20, 0);
    add_stdio(&s, 10, 0);
    uint64_t *ids;
    ck_assert_int_eq(iolens_share_distinct_ids(&s, &ids), 3);
    ck_assert_uint_eq(ids[0], 10);
    ck_assert_uint_eq(ids[1], 20);
    ck_assert_uint_eq(ids[2], 30);
    free(ids);
    iolens_record_set_free(&s);
    struct iolens_record_set empty = {0};
    ck_assert_int_eq(iolens_share_distinct_ids(&empty, &ids), 0);
    free(ids);
}
END_TEST

START_TEST(ids_by_owner_groups_each_id_under_its_owner)
{
    struct iolens_record_set s = {0};
    for (uint64_t id = 100; id < 160; id++) {
        add_posix(&s, id, 3);
        if (id % 3 == 0)
            add_stdio(&s, id, 3);
    }
    int counts[5], displs[5];
    uint64_t *out;
    ck_assert_int_eq(iolens_share_ids_by_owner(&s, 5, &out, counts, displs), 60);
    int total = 0;
    for (int r = 0; r < 5; r++) {
        ck_assert_int_eq(displs[r], total);
        for (int i = 0; i < counts[r]; i++)
            ck_assert_int_eq(iolens_share_owner(out[displs[r] + i], 5), r);
        total += counts[r];
    }
    ck_assert_int_eq(total, 60);
    free(out);
    iolens_record_set_free(&s);
}
END_TEST

/* ---------------------------------------------------------- writers -- */

START_TEST(decide_keeps_private_ids_and_picks_one_holder_of_shared_ones)
{
    /* As one owner: rank 0 sent {5, 9}, rank 1 {9}, rank 2 {7, 9}, rank 3
     * {5}.  7 is private to rank 2; 9 held by 0, 1, 2; 5 by 0 and 3. */
    uint64_t recv[] = {5, 9, 9, 7, 9, 5};
    int counts[] = {2, 1, 2, 1}, displs[] = {0, 2, 3, 5};
    int32_t w[6];
    ck_assert_int_eq(iolens_share_decide(recv, counts, displs, 4, w), 0);
    ck_assert_int_eq(w[3], 2);
    ck_assert(w[1] == 0 || w[1] == 1 || w[1] == 2);
    ck_assert_int_eq(w[2], w[1]);
    ck_assert_int_eq(w[4], w[1]);
    ck_assert(w[0] == 0 || w[0] == 3);
    ck_assert_int_eq(w[5], w[0]);

    /* The same holders in another arrival order pick the same writer. */
    uint64_t recv2[] = {9, 5, 7, 9, 5, 9};
    int counts2[] = {2, 0, 2, 2}, displs2[] = {0, 2, 2, 4};
    /* rank 0 {9,5}, rank 2 {7,9}, rank 3 {5,9}: 9 held by 0, 2, 3 */
    int32_t w2[6];
    ck_assert_int_eq(iolens_share_decide(recv2, counts2, displs2, 4, w2), 0);
    ck_assert_int_eq(w2[2], 2);
    ck_assert_int_eq(w2[1], w2[4]);
    ck_assert_int_eq(w2[1], w[0]); /* 5: holders {0, 3} both times */
}
END_TEST

START_TEST(writers_of_files_shared_by_all_spread_over_the_ranks)
{
    enum { NIDS = 800, NR = 8 };
    uint64_t *recv = malloc(NIDS * NR * sizeof *recv);
    int counts[NR], displs[NR];
    int32_t *w = malloc(NIDS * NR * sizeof *w);
    for (int r = 0; r < NR; r++) {
        counts[r] = NIDS;
        displs[r] = r * NIDS;
        for (int i = 0; i < NIDS; i++)
            recv[r * NIDS + i] = 0x1000 + (uint64_t)i * 7919;
    }
    ck_assert_int_eq(iolens_share_decide(recv, counts, displs, NR, w), 0);
    int per[NR] = {0};
    for (int i = 0; i < NIDS; i++) {
        for (int r = 1; r < NR; r++)
            ck_assert_int_eq(w[r * NIDS + i], w[i]);
        per[w[i]]++;
    }
    for (int r = 0; r < NR; r++) {
        ck_assert_int_gt(per[r], NIDS / NR / 2);
        ck_assert_int_lt(per[r], NIDS / NR * 2);
    }
    free(recv);
    free(w);
}
END_TEST

START_TEST(assign_lookup)
{
    uint64_t ids[] = {40, 10, 30};
    int32_t ws[] = {4, 1, 3};
    struct iolens_share_assign *a = iolens_share_assign_build(ids, ws, 3);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(iolens_share_writer_of(a, 3, 10), 1);
    ck_assert_int_eq(iolens_share_writer_of(a, 3, 30), 3);
    ck_assert_int_eq(iolens_share_writer_of(a, 3, 40), 4);
    ck_assert_int_eq(iolens_share_writer_of(a, 3, 20), -1);
    free(a);
}
END_TEST

/* Every id of tables of 0 to 40 entries is found, with its writer, and
 * every id between, below or above them is not. */
START_TEST(assign_lookup_every_size)
{
    for (size_t n = 0; n <= 40; n++) {
        uint64_t ids[40];
        int32_t ws[40];
        for (size_t i = 0; i < n; i++) {
            ids[i] = 10 * (n - i); /* given out of order */
            ws[i] = (int32_t)i;
        }
        struct iolens_share_assign *a = iolens_share_assign_build(ids, ws, n);
        ck_assert_ptr_nonnull(a);
        for (size_t i = 0; i < n; i++) {
            ck_assert_int_eq(iolens_share_writer_of(a, n, ids[i]), ws[i]);
            ck_assert_int_eq(iolens_share_writer_of(a, n, ids[i] - 5), -1);
        }
        ck_assert_int_eq(iolens_share_writer_of(a, n, 0), -1);
        ck_assert_int_eq(iolens_share_writer_of(a, n, 10 * n + 5), -1);
        ck_assert_int_eq(iolens_share_writer_of(a, n, UINT64_MAX), -1);
        free(a);
    }
}
END_TEST

/* The first value not below x, against a linear scan, at every size to
 * 33 and with runs of equal values. */
START_TEST(lower_bound_every_size)
{
    uint64_t v[33];
    for (size_t n = 0; n <= 33; n++) {
        for (size_t i = 0; i < n; i++)
            v[i] = 2 * (i / 3) + 2; /* 2 2 2 4 4 4 ... */
        for (uint64_t x = 0; x <= 2 * n + 4; x++) {
            size_t want = 0;
            while (want < n && v[want] < x)
                want++;
            ck_assert_uint_eq(iolens_u64_lower_bound(v, n, x), want);
        }
    }
}
END_TEST

/* ------------------------------------------------------------ split -- */

START_TEST(split_keeps_own_records_and_packs_the_rest_by_writer)
{
    struct iolens_record_set s = {0};
    posix_io(&s, 10, 1, 100, 0.5);  /* writer 1 (self) */
    posix_io(&s, 20, 1, 200, 0.5);  /* writer 3 */
    add_stdio(&s, 20, 1);           /* writer 3 */
    posix_io(&s, 30, 1, 300, 0.5);  /* writer 0 */
    posix_io(&s, 40, 1, 400, 0.5);  /* writer 1 (self), after the gaps */
    struct iolens_posix_record r30 = *find_posix(&s, 30), r40 = *find_posix(&s, 40);
    uint64_t ids[] = {10, 20, 30, 40};
    int32_t ws[] = {1, 3, 0, 1};
    struct iolens_share_assign *a = iolens_share_assign_build(ids, ws, 4);
    unsigned char *buf;
    int counts[4], displs[4];
    ck_assert_int_eq(iolens_share_split(&s, a, 4, 1, 4, &buf, counts, displs), 0);
    size_t ps = sizeof(struct iolens_posix_record), ss = sizeof(struct iolens_stdio_record);
    /* The set keeps its own records, in their order, unchanged. */
    ck_assert_uint_eq(s.count[POSIX_L], 2);
    ck_assert_uint_eq(s.count[STDIO_L], 0);
    ck_assert_uint_eq(posix_at(&s, 0)->id, 10);
    ck_assert_int_eq(posix_at(&s, 0)->counters[POSIX_BYTES_WRITTEN], 100);
    ck_assert_int_eq(memcmp(posix_at(&s, 1), &r40, ps), 0);
    ck_assert_int_eq(counts[0], (int)(8 + ps));
    ck_assert_int_eq(counts[1], 0);
    ck_assert_int_eq(counts[2], 0);
    ck_assert_int_eq(counts[3], (int)(8 + ps + 8 + ss));
    ck_assert_int_eq(displs[0], 0);
    ck_assert_int_eq(displs[3], counts[0]);
    uint32_t head[2];
    memcpy(head, buf, sizeof head);
    ck_assert_uint_eq(head[0], POSIX_L);
    ck_assert_uint_eq(head[1], 0);
    ck_assert_int_eq(memcmp(buf + 8, &r30, ps), 0);
    memcpy(head, buf + displs[3], sizeof head);
    ck_assert_uint_eq(head[0], POSIX_L);
    ck_assert_uint_eq(((const struct iolens_posix_record *)(buf + displs[3] + 8))->id, 20);
    memcpy(head, buf + displs[3] + 8 + ps, sizeof head);
    ck_assert_uint_eq(head[0], STDIO_L);
    free(buf);
    free(a);
    iolens_record_set_free(&s);
}
END_TEST

/* ----------------------------------------------------------- reduce -- */

/* Packs a record as iolens_share_split does. */
static size_t pack(unsigned char *buf, unsigned layer, const void *rec)
{
    uint32_t head[2] = {layer, 0};
    memcpy(buf, head, sizeof head);
    memcpy(buf + 8, rec, desc(layer)->record_size);
    return 8 + desc(layer)->record_size;
}

START_TEST(reduce_merges_a_shared_file_with_hand_computed_statistics)
{
    /* File 77 on ranks 0 (kept here), 1 and 2 (received): bytes 100, 200
     * and 600 written in 1, 2 and 6 seconds.  File 88 only on rank 2. */
    struct iolens_record_set kept = {0}, others = {0};
    posix_io(&kept, 77, 0, 100, 1.0);
    posix_io(&others, 77, 2, 600, 6.0);
    posix_io(&others, 77, 1, 200, 2.0);
    posix_io(&others, 88, 2, 50, 0.25);
    unsigned char buf[4 * (8 + sizeof(struct iolens_posix_record))];
    size_t len = 0;
    for (size_t i = 0; i < others.count[POSIX_L]; i++)
        len += pack(buf + len, POSIX_L, posix_at(&others, i));
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, len), 0);
    ck_assert_uint_eq(kept.count[POSIX_L], 2);
    ck_assert_uint_eq(kept.count[STDIO_L], 0);

    const struct iolens_posix_record *r = find_posix(&kept, 77);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->rank, IOLENS_RANK_ALL);
    ck_assert_int_eq(r->counters[POSIX_OPENS], 3);
    ck_assert_int_eq(r->counters[POSIX_WRITES], 3);
    ck_assert_int_eq(r->counters[POSIX_BYTES_WRITTEN], 900);
    ck_assert_int_eq(r->counters[POSIX_MAX_BYTE_WRITTEN], 599);
    ck_assert_int_eq(r->counters[POSIX_RANKS_OPENED], 3);
    ck_assert_int_eq(r->counters[POSIX_RANKS_IO], 3);
    ck_assert_int_eq(r->counters[POSIX_FASTEST_RANK], 0);
    ck_assert_int_eq(r->counters[POSIX_FASTEST_RANK_BYTES], 100);
    ck_assert_int_eq(r->counters[POSIX_SLOWEST_RANK], 2);
    ck_assert_int_eq(r->counters[POSIX_SLOWEST_RANK_BYTES], 600);
    ck_assert_double_eq(r->fcounters[POSIX_F_WRITE_TIME], 9.0);
    ck_assert_double_eq(r->fcounters[POSIX_F_FASTEST_RANK_TIME], 1.0);
    ck_assert_double_eq(r->fcounters[POSIX_F_SLOWEST_RANK_TIME], 6.0);
    /* Mean 3 s: (4 + 1 + 9) / 3; mean 300 bytes: (4e4 + 1e4 + 9e4) / 3. */
    ck_assert_double_eq_tol(r->fcounters[POSIX_F_VARIANCE_RANK_TIME], 14.0 / 3, 1e-12);
    ck_assert_double_eq_tol(r->fcounters[POSIX_F_VARIANCE_RANK_BYTES], 140000.0 / 3, 1e-9);
    /* Earliest start, latest end. */
    ck_assert_double_eq(r->fcounters[POSIX_F_OPEN_START_TIMESTAMP], 1.0);
    ck_assert_double_eq(r->fcounters[POSIX_F_WRITE_END_TIMESTAMP], 12.0);

    /* 88, which this rank has no record of, comes after the kept one. */
    const struct iolens_posix_record *p = find_posix(&kept, 88);
    ck_assert_ptr_eq(p, posix_at(&kept, 1));
    ck_assert_int_eq(memcmp(p, find_posix(&others, 88), sizeof *p), 0);
    iolens_record_set_free(&kept);
    iolens_record_set_free(&others);
}
END_TEST

START_TEST(reduce_counts_ranks_that_opened_apart_from_ranks_that_did_io)
{
    /* 4 ranks hold file 5: two opened and wrote, one only opened, one
     * only stat'ed it (no open). */
    struct iolens_record_set kept = {0}, others = {0};
    posix_io(&kept, 5, 0, 10, 0.1);
    posix_io(&others, 5, 1, 30, 0.3);
    posix_io(&others, 5, 2, 0, 0.0);
    struct iolens_posix_record *st = add_posix(&others, 5, 3);
    st->counters[POSIX_STATS] = 2;
    st->fcounters[POSIX_F_META_TIME] = 0.05;
    iolens_record_fill_own_sharing(desc(POSIX_L), st);
    unsigned char buf[4 * (8 + sizeof(struct iolens_posix_record))];
    size_t len = 0;
    for (size_t i = 0; i < others.count[POSIX_L]; i++)
        len += pack(buf + len, POSIX_L, posix_at(&others, i));
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, len), 0);
    ck_assert_uint_eq(kept.count[POSIX_L], 1);
    const struct iolens_posix_record *r = posix_at(&kept, 0);
    ck_assert_int_eq(r->counters[POSIX_OPENS], 3);
    ck_assert_int_eq(r->counters[POSIX_STATS], 2);
    ck_assert_int_eq(r->counters[POSIX_RANKS_OPENED], 3);
    ck_assert_int_eq(r->counters[POSIX_RANKS_IO], 2);
    ck_assert_int_eq(r->counters[POSIX_FASTEST_RANK], 2);
    ck_assert_int_eq(r->counters[POSIX_SLOWEST_RANK], 1);
    ck_assert_int_eq(r->counters[POSIX_BYTES_WRITTEN], 40);
    iolens_record_set_free(&kept);
    iolens_record_set_free(&others);
}
END_TEST

START_TEST(reduce_keeps_layers_apart)
{
    /* Id 9: POSIX on this rank and another (reduced); STDIO only here
     * (kept as this rank's own record). */
    struct iolens_record_set kept = {0}, others = {0};
    posix_io(&kept, 9, 4, 10, 0.1);
    struct iolens_stdio_record *sr = add_stdio(&kept, 9, 4);
    sr->counters[STDIO_OPENS] = 1;
    iolens_record_fill_own_sharing(desc(STDIO_L), sr);
    posix_io(&others, 9, 6, 10, 0.1);
    unsigned char buf[8 + sizeof(struct iolens_posix_record)];
    size_t len = pack(buf, POSIX_L, posix_at(&others, 0));
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, len), 0);
    ck_assert_uint_eq(kept.count[POSIX_L], 1);
    ck_assert_int_eq(posix_at(&kept, 0)->rank, IOLENS_RANK_ALL);
    ck_assert_int_eq(posix_at(&kept, 0)->counters[POSIX_RANKS_OPENED], 2);
    ck_assert_uint_eq(kept.count[STDIO_L], 1);
    const struct iolens_stdio_record *s = kept.records[STDIO_L];
    ck_assert_int_eq(s->rank, 4);
    ck_assert_int_eq(s->counters[STDIO_RANKS_OPENED], 1);
    iolens_record_set_free(&kept);
    iolens_record_set_free(&others);
}
END_TEST

START_TEST(reduce_rejects_a_malformed_buffer)
{
    struct iolens_record_set kept = {0}, others = {0};
    posix_io(&kept, 1, 0, 1, 0.1);
    posix_io(&others, 1, 1, 1, 0.1);
    struct iolens_posix_record before = *posix_at(&kept, 0);
    unsigned char buf[2 * (8 + sizeof(struct iolens_posix_record))];
    size_t len = pack(buf, POSIX_L, posix_at(&others, 0));
    /* Truncated record, truncated head, unknown layer: refused before the
     * kept records change. */
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, len - 1), -1);
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, 4), -1);
    uint32_t bad = iolens_layer_desc_count();
    memcpy(buf, &bad, sizeof bad);
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, len), -1);
    ck_assert_uint_eq(kept.count[POSIX_L], 1);
    ck_assert_int_eq(memcmp(posix_at(&kept, 0), &before, sizeof before), 0);
    /* Nothing received: the kept records come out unchanged. */
    ck_assert_int_eq(iolens_share_reduce(&kept, buf, 0), 0);
    ck_assert_uint_eq(kept.count[POSIX_L], 1);
    ck_assert_int_eq(memcmp(posix_at(&kept, 0), &before, sizeof before), 0);
    iolens_record_set_free(&kept);
    iolens_record_set_free(&others);
}
END_TEST

START_TEST(reduce_merges_in_rank_order_whichever_rank_keeps)
{
    /* File 3 on ranks 0 to 3, kept on rank 2.  Sums of doubles depend on
     * the order: the write times 0.5, 0.45, 0.65 and 0.79 add up to 2.39
     * in rank order but to 2.3899999999999997 from rank 2's first.  The
     * record must come out as when rank 0 keeps it. */
    const double t[4] = {0.5, 0.45, 0.65, 0.79};
    struct iolens_record_set on[4] = {{0}}, kept2 = {0}, kept0 = {0};
    for (int r = 0; r < 4; r++)
        posix_io(&on[r], 3, r, 64, t[r]);
    copy_set(&on[2], &kept2);
    copy_set(&on[0], &kept0);
    unsigned char buf[3 * (8 + sizeof(struct iolens_posix_record))];
    size_t len = 0;
    for (int r = 3; r >= 0; r--) /* received in any order */
        if (r != 2)
            len += pack(buf + len, POSIX_L, posix_at(&on[r], 0));
    ck_assert_int_eq(iolens_share_reduce(&kept2, buf, len), 0);
    len = 0;
    for (int r = 1; r < 4; r++)
        len += pack(buf + len, POSIX_L, posix_at(&on[r], 0));
    ck_assert_int_eq(iolens_share_reduce(&kept0, buf, len), 0);
    ck_assert_uint_eq(kept2.count[POSIX_L], 1);
    const struct iolens_posix_record *r = posix_at(&kept2, 0);
    ck_assert_int_eq(r->rank, IOLENS_RANK_ALL);
    ck_assert_int_eq(r->counters[POSIX_RANKS_OPENED], 4);
    ck_assert_int_eq(r->counters[POSIX_BYTES_WRITTEN], 256);
    ck_assert_double_eq(r->fcounters[POSIX_F_WRITE_TIME], ((t[0] + t[1]) + t[2]) + t[3]);
    ck_assert_double_ne(r->fcounters[POSIX_F_WRITE_TIME], ((t[2] + t[0]) + t[1]) + t[3]);
    ck_assert_int_eq(r->counters[POSIX_FASTEST_RANK], 1);
    ck_assert_int_eq(r->counters[POSIX_SLOWEST_RANK], 3);
    ck_assert_double_eq(r->fcounters[POSIX_F_OPEN_START_TIMESTAMP], 1.0);
    ck_assert_double_eq(r->fcounters[POSIX_F_WRITE_END_TIMESTAMP], 13.0);
    ck_assert_int_eq(memcmp(r, posix_at(&kept0, 0), sizeof *r), 0);
    for (int k = 0; k < 4; k++)
        iolens_record_set_free(&on[k]);
    iolens_record_set_free(&kept0);
    iolens_record_set_free(&kept2);
}
END_TEST

/* ------------------------------------------ the protocol, simulated -- */

/* Runs the whole exchange for n ranks in memory (what the Alltoall and
 * Alltoallv calls of lib/mpi/mpi_runtime.c do) and returns each rank's
 * output. */
static void simulate(int n, struct iolens_record_set *in, struct iolens_record_set *out)
{
    uint64_t *sent[MAXR];
    int scount[MAXR][MAXR], sdispl[MAXR][MAXR];
    long nsent[MAXR];
    for (int r = 0; r < n; r++)
        nsent[r] = iolens_share_ids_by_owner(&in[r], n, &sent[r], scount[r], sdispl[r]);
    /* Owners decide. */
    int32_t *reply[MAXR];
    for (int r = 0; r < n; r++)
        reply[r] = malloc(((size_t)nsent[r] + 1) * sizeof(int32_t));
    for (int o = 0; o < n; o++) {
        int counts[MAXR], displs[MAXR], total = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = scount[r][o];
            displs[r] = total;
            total += counts[r];
        }
        uint64_t *recv = malloc(((size_t)total + 1) * sizeof *recv);
        int32_t *w = malloc(((size_t)total + 1) * sizeof *w);
        for (int r = 0; r < n; r++)
            memcpy(recv + displs[r], sent[r] + sdispl[r][o], (size_t)counts[r] * sizeof *recv);
        ck_assert_int_eq(iolens_share_decide(recv, counts, displs, n, w), 0);
        for (int r = 0; r < n; r++)
            memcpy(reply[r] + sdispl[r][o], w + displs[r], (size_t)counts[r] * sizeof *w);
        free(recv);
        free(w);
    }
    /* Records to writers: each rank's output is its set, split and
     * reduced in place. */
    unsigned char *buf[MAXR];
    int bcount[MAXR][MAXR], bdispl[MAXR][MAXR];
    for (int r = 0; r < n; r++) {
        struct iolens_share_assign *a =
            iolens_share_assign_build(sent[r], reply[r], (size_t)nsent[r]);
        copy_set(&in[r], &out[r]);
        ck_assert_int_eq(iolens_share_split(&out[r], a, (size_t)nsent[r], r, n, &buf[r],
                                            bcount[r], bdispl[r]),
                         0);
        free(a);
    }
    for (int w = 0; w < n; w++) {
        size_t total = 0;
        for (int r = 0; r < n; r++)
            total += (size_t)bcount[r][w];
        unsigned char *recv = malloc(total + 1);
        size_t at = 0;
        for (int r = 0; r < n; r++) {
            memcpy(recv + at, buf[r] + bdispl[r][w], (size_t)bcount[r][w]);
            at += (size_t)bcount[r][w];
        }
        ck_assert_int_eq(iolens_share_reduce(&out[w], recv, total), 0);
        free(recv);
    }
    for (int r = 0; r < n; r++) {
        free(sent[r]);
        free(reply[r]);
        free(buf[r]);
    }
}

START_TEST(protocol_every_file_once_at_every_sharing_degree)
{
    /* 8 ranks: a private file each (id 1000 + r), one file shared by all
     * (id 500), files shared by pairs (600 + r / 2), and <STDOUT> written
     * by every rank through STDIO. */
    enum { N = 8 };
    struct iolens_record_set in[N] = {{0}}, out[N];
    for (int r = 0; r < N; r++) {
        posix_io(&in[r], 1000 + (uint64_t)r, r, 100 * (r + 1), 0.01 * (r + 1));
        posix_io(&in[r], 500, r, 10, 0.001 * (r + 1));
        posix_io(&in[r], 600 + (uint64_t)(r / 2), r, 7, 0.5);
        struct iolens_stdio_record *s = add_stdio(&in[r], IOLENS_ID_STDOUT, r);
        s->counters[STDIO_WRITES] = 1;
        s->counters[STDIO_BYTES_WRITTEN] = r;
        iolens_record_fill_own_sharing(desc(STDIO_L), s);
    }
    simulate(N, in, out);

    int seen_private[N] = {0}, seen_pair[N / 2] = {0}, seen_all = 0, seen_stdout = 0;
    for (int w = 0; w < N; w++) {
        for (size_t i = 0; i < out[w].count[POSIX_L]; i++) {
            const struct iolens_posix_record *p = posix_at(&out[w], i);
            if (p->id >= 1000) {
                int r = (int)(p->id - 1000);
                seen_private[r]++;
                ck_assert_int_eq(w, r); /* a private record stays home */
                ck_assert_int_eq(p->rank, r);
                ck_assert_int_eq(p->counters[POSIX_BYTES_WRITTEN], 100 * (r + 1));
            } else if (p->id >= 600) {
                int pair = (int)(p->id - 600);
                seen_pair[pair]++;
                ck_assert(w == 2 * pair || w == 2 * pair + 1);
                ck_assert_int_eq(p->rank, IOLENS_RANK_ALL);
                ck_assert_int_eq(p->counters[POSIX_RANKS_OPENED], 2);
                ck_assert_int_eq(p->counters[POSIX_BYTES_WRITTEN], 14);
            } else {
                ck_assert_uint_eq(p->id, 500);
                seen_all++;
                ck_assert_int_eq(p->rank, IOLENS_RANK_ALL);
                ck_assert_int_eq(p->counters[POSIX_OPENS], N);
                ck_assert_int_eq(p->counters[POSIX_RANKS_OPENED], N);
                ck_assert_int_eq(p->counters[POSIX_RANKS_IO], N);
                ck_assert_int_eq(p->counters[POSIX_BYTES_WRITTEN], 10 * N);
                ck_assert_int_eq(p->counters[POSIX_FASTEST_RANK], 0);
                ck_assert_int_eq(p->counters[POSIX_SLOWEST_RANK], N - 1);
                /* Population variance of 0.001 * {1 ... 8}: 0.001^2 * 5.25. */
                ck_assert_double_eq_tol(p->fcounters[POSIX_F_VARIANCE_RANK_TIME], 5.25e-6, 1e-15);
                ck_assert_double_eq(p->fcounters[POSIX_F_VARIANCE_RANK_BYTES], 0);
            }
        }
        for (size_t i = 0; i < out[w].count[STDIO_L]; i++) {
            const struct iolens_stdio_record *s =
                (const struct iolens_stdio_record *)out[w].records[STDIO_L] + i;
            ck_assert_uint_eq(s->id, IOLENS_ID_STDOUT);
            seen_stdout++;
            ck_assert_int_eq(s->rank, IOLENS_RANK_ALL);
            ck_assert_int_eq(s->counters[STDIO_WRITES], N);
            ck_assert_int_eq(s->counters[STDIO_BYTES_WRITTEN], N * (N - 1) / 2);
            ck_assert_int_eq(s->counters[STDIO_RANKS_IO], N);
            ck_assert_int_eq(s->counters[STDIO_RANKS_OPENED], 0);
        }
    }
    for (int r = 0; r < N; r++)
        ck_assert_int_eq(seen_private[r], 1);
    for (int p = 0; p < N / 2; p++)
        ck_assert_int_eq(seen_pair[p], 1);
    ck_assert_int_eq(seen_all, 1);
    ck_assert_int_eq(seen_stdout, 1);
    for (int r = 0; r < N; r++) {
        iolens_record_set_free(&in[r]);
        iolens_record_set_free(&out[r]);
    }
}
END_TEST

START_TEST(protocol_one_rank_changes_nothing)
{
    struct iolens_record_set in = {0}, out;
    posix_io(&in, 42, 0, 5, 0.5);
    posix_io(&in, 43, 0, 6, 0.5);
    simulate(1, &in, &out);
    ck_assert_uint_eq(out.count[POSIX_L], 2);
    ck_assert_int_eq(memcmp(out.records[POSIX_L], in.records[POSIX_L],
                            2 * sizeof(struct iolens_posix_record)), 0);
    iolens_record_set_free(&in);
    iolens_record_set_free(&out);
}
END_TEST

/* ------------------------------------------------------------ times -- */

START_TEST(shift_moves_only_timestamps_that_are_set)
{
    struct iolens_record_set s = {0};
    struct iolens_posix_record *r = add_posix(&s, 1, 0);
    r->fcounters[POSIX_F_OPEN_START_TIMESTAMP] = 1.5;
    r->fcounters[POSIX_F_CLOSE_END_TIMESTAMP] = 2.5;
    r->fcounters[POSIX_F_WRITE_TIME] = 0.75;
    r->fcounters[POSIX_F_MAX_WRITE_TIME] = 0.25;
    iolens_share_shift_timestamps(desc(POSIX_L), s.records[POSIX_L], 1, 0.125);
    r = s.records[POSIX_L];
    ck_assert_double_eq(r->fcounters[POSIX_F_OPEN_START_TIMESTAMP], 1.625);
    ck_assert_double_eq(r->fcounters[POSIX_F_CLOSE_END_TIMESTAMP], 2.625);
    ck_assert_double_eq(r->fcounters[POSIX_F_READ_START_TIMESTAMP], 0);
    ck_assert_double_eq(r->fcounters[POSIX_F_READ_END_TIMESTAMP], 0);
    ck_assert_double_eq(r->fcounters[POSIX_F_WRITE_TIME], 0.75);
    ck_assert_double_eq(r->fcounters[POSIX_F_MAX_WRITE_TIME], 0.25);
    ck_assert_double_eq(r->fcounters[POSIX_F_FASTEST_RANK_TIME], 0);
    iolens_record_set_free(&s);
}
END_TEST

/* ------------------------------------------------------ log helpers -- */

START_TEST(host_list_in_order_of_first_rank)
{
    char hosts[5][16] = {"node-a", "node-b", "node-a", "c", "node-b"};
    char out[64];
    size_t len;
    uint32_t index[5];
    ck_assert_int_eq(iolens_mpi_host_list(&hosts[0][0], 16, 5, out, sizeof out, &len, index), 3);
    ck_assert_uint_eq(len, 15);
    ck_assert_int_eq(memcmp(out, "node-a\0node-b\0c", 15), 0);
    ck_assert_uint_eq(index[0], 0);
    ck_assert_uint_eq(index[1], 1);
    ck_assert_uint_eq(index[2], 0);
    ck_assert_uint_eq(index[3], 2);
    ck_assert_uint_eq(index[4], 1);
    /* "node" is not "node-a": a prefix is a different host. */
    char two[2][16] = {"node-a", "node"};
    ck_assert_int_eq(iolens_mpi_host_list(&two[0][0], 16, 2, out, sizeof out, &len, index), 2);
    ck_assert_uint_eq(index[1], 1);
    ck_assert_int_eq(iolens_mpi_host_list(&hosts[0][0], 16, 5, out, 10, &len, index), -1);
}
END_TEST

START_TEST(version_string_becomes_one_line)
{
    const char *mpich = "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 2022\n"
                        "MPICH Device:\tch4:ucx\nMPICH configure:\t--prefix=/usr --with-a-lot\n";
    char out[80];
    iolens_mpi_version_line(mpich, out, sizeof out);
    ck_assert_str_eq(out, "MPICH Version: 4.0.2; MPICH Release date: Thu Apr 7 2022; "
                          "MPICH Device: ch4:ucx");
    char big[256];
    iolens_mpi_version_line(mpich, big, sizeof big);
    ck_assert_str_eq(big, "MPICH Version: 4.0.2; MPICH Release date: Thu Apr 7 2022; "
                          "MPICH Device: ch4:ucx; MPICH configure: --prefix=/usr --with-a-lot");
    /* A first line longer than the room is cut; blank lines vanish. */
    char small[12];
    iolens_mpi_version_line("\n  Open MPI v4.1.2, package: Debian\n", small, sizeof small);
    ck_assert_str_eq(small, "Open MPI v4");
    char empty[8];
    iolens_mpi_version_line(" \n\t\n", empty, sizeof empty);
    ck_assert_str_eq(empty, "");
}
END_TEST

static Suite *shared_reduce_suite(void)
{
    Suite *s = suite_create("shared_reduce");
    TCase *tc = tcase_create("owners");
    tcase_add_test(tc, owner_is_in_range_stable_and_spread);
    tcase_add_test(tc, distinct_ids_are_sorted_and_unique_across_layers);
    tcase_add_test(tc, ids_by_owner_groups_each_id_under_its_owner);
    tcase_add_test(tc, decide_keeps_private_ids_and_picks_one_holder_of_shared_ones);
    tcase_add_test(tc, writers_of_files_shared_by_all_spread_over_the_ranks);
    tcase_add_test(tc, assign_lookup);
    tcase_add_test(tc, assign_lookup_every_size);
    tcase_add_test(tc, lower_bound_every_size);
    suite_add_tcase(s, tc);
    tc = tcase_create("records");
    tcase_add_test(tc, split_keeps_own_records_and_packs_the_rest_by_writer);
    tcase_add_test(tc, reduce_merges_a_shared_file_with_hand_computed_statistics);
    tcase_add_test(tc, reduce_counts_ranks_that_opened_apart_from_ranks_that_did_io);
    tcase_add_test(tc, reduce_keeps_layers_apart);
    tcase_add_test(tc, reduce_rejects_a_malformed_buffer);
    tcase_add_test(tc, reduce_merges_in_rank_order_whichever_rank_keeps);
    tcase_add_test(tc, shift_moves_only_timestamps_that_are_set);
    suite_add_tcase(s, tc);
    tc = tcase_create("protocol");
    tcase_add_test(tc, protocol_every_file_once_at_every_sharing_degree);
    tcase_add_test(tc, protocol_one_rank_changes_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("log_helpers");
    tcase_add_test(tc, host_list_in_order_of_first_rank);
    tcase_add_test(tc, version_string_becomes_one_line);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(shared_reduce_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
