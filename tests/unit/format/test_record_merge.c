/* Layer descriptors, the AGG-driven merge of records and the per-rank
 * statistics of a shared file (format/record_merge.c). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log_format.h"
#include "format/record_merge.h"

static const struct iolens_layer_desc *posix(void)
{
    return iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
}

static const struct iolens_layer_desc *mpiio(void)
{
    return iolens_layer_desc_by_kind(IOLENS_REGION_MPIIO);
}

static const struct iolens_layer_desc *h5f(void)
{
    return iolens_layer_desc_by_kind(IOLENS_REGION_H5F);
}

static const struct iolens_layer_desc *h5d(void)
{
    return iolens_layer_desc_by_kind(IOLENS_REGION_H5D);
}

static struct iolens_posix_record posix_rec(int64_t rank)
{
    struct iolens_posix_record r;
    memset(&r, 0, sizeof r);
    r.id = 0xabcdef;
    r.rank = rank;
    return r;
}

/* Merges b into a through the public entry points. */
static struct iolens_posix_record merged(struct iolens_posix_record a,
                                         const struct iolens_posix_record *b)
{
    struct iolens_posix_record acc;
    iolens_record_merge_begin(posix(), &acc, &a);
    iolens_record_merge(posix(), &acc, b);
    return acc;
}

/* -------------------------------------------------------- descriptors -- */

START_TEST(descriptor_counts_match_the_enums)
{
    ck_assert_uint_eq(iolens_layer_desc_count(), 5);
    const struct iolens_layer_desc *p = iolens_layer_desc_at(0);
    const struct iolens_layer_desc *s = iolens_layer_desc_at(1);
    const struct iolens_layer_desc *m = iolens_layer_desc_at(2);
    const struct iolens_layer_desc *hf = iolens_layer_desc_at(3);
    const struct iolens_layer_desc *hd = iolens_layer_desc_at(4);
    ck_assert_ptr_null(iolens_layer_desc_at(5));
    ck_assert_ptr_eq(iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), p);
    ck_assert_ptr_eq(iolens_layer_desc_by_kind(IOLENS_REGION_STDIO), s);
    ck_assert_ptr_eq(iolens_layer_desc_by_kind(IOLENS_REGION_MPIIO), m);
    ck_assert_ptr_eq(iolens_layer_desc_by_kind(IOLENS_REGION_H5F), hf);
    ck_assert_ptr_eq(iolens_layer_desc_by_kind(IOLENS_REGION_H5D), hd);
    ck_assert_ptr_null(iolens_layer_desc_by_kind(IOLENS_REGION_NAMES));
    ck_assert_ptr_null(iolens_layer_desc_by_kind(21));

    ck_assert_str_eq(hf->name, "H5F");
    ck_assert_str_eq(hd->name, "H5D");
    ck_assert_uint_eq(hf->version, IOLENS_H5F_VERSION);
    ck_assert_uint_eq(hd->version, IOLENS_H5D_VERSION);
    ck_assert_uint_eq(hf->ncounters, H5F_NUM_COUNTERS);
    ck_assert_uint_eq(hf->nfcounters, H5F_F_NUM_COUNTERS);
    ck_assert_uint_eq(hd->ncounters, H5D_NUM_COUNTERS);
    ck_assert_uint_eq(hd->nfcounters, H5D_F_NUM_COUNTERS);
    ck_assert_uint_eq(hf->record_size, sizeof(struct iolens_h5f_record));
    ck_assert_uint_eq(hd->record_size, sizeof(struct iolens_h5d_record));
    ck_assert_uint_eq(hf->record_size, 16 + 8 * (5 + 6 + 5 + 4));
    ck_assert_uint_eq(hd->record_size, 16 + 8 * (35 + 1 + 4 * 7 + 17 + 6 + 13 + 4));
    /* H5F_OPENS counts creates too (as Darshan): it alone says "opened" */
    ck_assert_int_eq(hf->opens[0], H5F_OPENS);
    ck_assert_int_eq(hf->opens[1], -1);
    ck_assert_int_eq(hf->bytes_read, -1);
    ck_assert_int_eq(hf->bytes_written, -1);
    ck_assert_int_eq(hf->reads, -1);
    ck_assert_int_eq(hf->writes, -1);
    ck_assert_int_eq(hf->read_time, -1);
    ck_assert_int_eq(hf->write_time, -1);
    ck_assert_int_eq(hf->meta_time, H5F_F_META_TIME);
    ck_assert_int_eq(hf->ranks_opened, H5F_RANKS_OPENED);
    ck_assert_int_eq(hf->f_fastest_rank_time, H5F_F_FASTEST_RANK_TIME);
    ck_assert_int_eq(hd->opens[0], H5D_OPENS);
    ck_assert_int_eq(hd->opens[1], -1);
    ck_assert_int_eq(hd->bytes_read, H5D_BYTES_READ);
    ck_assert_int_eq(hd->bytes_written, H5D_BYTES_WRITTEN);
    ck_assert_int_eq(hd->reads, H5D_READS);
    ck_assert_int_eq(hd->writes, H5D_WRITES);
    ck_assert_int_eq(hd->read_time, H5D_F_READ_TIME);
    ck_assert_int_eq(hd->write_time, H5D_F_WRITE_TIME);
    ck_assert_int_eq(hd->meta_time, H5D_F_META_TIME);
    ck_assert_int_eq(hd->ranks_opened, H5D_RANKS_OPENED);
    ck_assert_int_eq(hd->f_fastest_rank_time, H5D_F_FASTEST_RANK_TIME);
    ck_assert_str_eq(hd->counter_names[H5D_ACCESS2_LENGTH_D3], "H5D_ACCESS2_LENGTH_D3");
    ck_assert_uint_eq(hd->agg[H5D_ACCESS2_LENGTH_D3], IOLENS_AGG_TOP_SHAPE);
    ck_assert_str_eq(hf->fcounter_names[H5F_F_META_TIME], "H5F_F_META_TIME");

    ck_assert_uint_eq(p->ncounters, POSIX_NUM_COUNTERS);
    ck_assert_uint_eq(p->nfcounters, POSIX_F_NUM_COUNTERS);
    ck_assert_uint_eq(s->ncounters, STDIO_NUM_COUNTERS);
    ck_assert_uint_eq(s->nfcounters, STDIO_F_NUM_COUNTERS);
    ck_assert_uint_eq(m->ncounters, MPIIO_NUM_COUNTERS);
    ck_assert_uint_eq(m->nfcounters, MPIIO_F_NUM_COUNTERS);
    ck_assert_uint_eq(p->record_size, sizeof(struct iolens_posix_record));
    ck_assert_uint_eq(s->record_size, sizeof(struct iolens_stdio_record));
    ck_assert_uint_eq(m->record_size, sizeof(struct iolens_mpiio_record));
    ck_assert_uint_eq(p->version, IOLENS_POSIX_VERSION);
    ck_assert_uint_eq(m->version, IOLENS_MPIIO_VERSION);
    ck_assert_str_eq(p->name, "POSIX");
    ck_assert_str_eq(s->name, "STDIO");
    ck_assert_str_eq(m->name, "MPIIO");
}
END_TEST

START_TEST(descriptor_names_aggs_and_indexes)
{
    const struct iolens_layer_desc *p = posix(), *m = mpiio();
    const struct iolens_layer_desc *s = iolens_layer_desc_by_kind(IOLENS_REGION_STDIO);
    ck_assert_str_eq(p->counter_names[POSIX_OPENS], "POSIX_OPENS");
    ck_assert_str_eq(p->counter_names[POSIX_NUM_COUNTERS - 1], "POSIX_PAT_GROUP_STEPS");
    ck_assert_str_eq(p->fcounter_names[POSIX_F_VARIANCE_RANK_BYTES], "POSIX_F_VARIANCE_RANK_BYTES");
    ck_assert_str_eq(s->counter_names[STDIO_BYTES_WRITTEN], "STDIO_BYTES_WRITTEN");
    ck_assert_str_eq(m->counter_names[MPIIO_COLL_OPENS], "MPIIO_COLL_OPENS");
    ck_assert_str_eq(m->fcounter_names[MPIIO_F_META_TIME], "MPIIO_F_META_TIME");
    ck_assert_str_eq(p->counter_descs[POSIX_SEEKS], "lseek and lseek64");
    ck_assert_str_eq(s->fcounter_descs[STDIO_F_OPEN_START_TIMESTAMP], "start of the first open");
    ck_assert_uint_eq(p->agg[POSIX_OPENS], IOLENS_AGG_SUM);
    ck_assert_uint_eq(p->agg[POSIX_MODE], IOLENS_AGG_MAX);
    ck_assert_uint_eq(p->agg[POSIX_ACCESS_TOP_STATE], IOLENS_AGG_TOP_STATE);
    ck_assert_uint_eq(p->agg[POSIX_MAX_BYTE_READ], IOLENS_AGG_MAX);
    ck_assert_uint_eq(p->agg[POSIX_ACCESS3_COUNT], IOLENS_AGG_TOP_COUNT);
    ck_assert_uint_eq(p->agg[POSIX_MAX_WRITE_TIME_SIZE], IOLENS_AGG_SLOWEST_SIZE);
    ck_assert_uint_eq(p->agg[POSIX_RANKS_IO], IOLENS_AGG_RANK_STAT);
    ck_assert_uint_eq(p->fagg[POSIX_F_OPEN_START_TIMESTAMP], IOLENS_AGG_MIN_NONZERO);
    ck_assert_uint_eq(m->fagg[MPIIO_F_WRITE_END_TIMESTAMP], IOLENS_AGG_MAX);

    ck_assert_int_eq(p->opens[0], POSIX_OPENS);
    ck_assert_int_eq(p->opens[1], -1);
    ck_assert_int_eq(s->opens[0], STDIO_OPENS);
    ck_assert_int_eq(s->opens[1], -1);
    ck_assert_int_eq(m->opens[0], MPIIO_INDEP_OPENS);
    ck_assert_int_eq(m->opens[1], MPIIO_COLL_OPENS);
    ck_assert_int_eq(p->bytes_read, POSIX_BYTES_READ);
    ck_assert_int_eq(s->bytes_written, STDIO_BYTES_WRITTEN);
    ck_assert_int_eq(m->bytes_written, MPIIO_BYTES_WRITTEN);
    ck_assert_int_eq(p->reads, POSIX_READS);
    ck_assert_int_eq(s->writes, STDIO_WRITES);
    ck_assert_int_eq(p->read_time, POSIX_F_READ_TIME);
    ck_assert_int_eq(s->write_time, STDIO_F_WRITE_TIME);
    ck_assert_int_eq(m->meta_time, MPIIO_F_META_TIME);
    ck_assert_int_eq(p->ranks_opened, POSIX_RANKS_OPENED);
    ck_assert_int_eq(s->ranks_opened, STDIO_RANKS_OPENED);
    ck_assert_int_eq(m->ranks_opened, MPIIO_RANKS_OPENED);
    ck_assert_int_eq(p->f_fastest_rank_time, POSIX_F_FASTEST_RANK_TIME);
    ck_assert_int_eq(m->f_fastest_rank_time, MPIIO_F_FASTEST_RANK_TIME);
}
END_TEST

/* Every TOP_VALUE counter pairs with the TOP_COUNT counter of the same
 * name stem (POSIX_ACCESS2_ACCESS with POSIX_ACCESS2_COUNT), and every
 * SLOWEST_SIZE counter with an F_MAX_*_TIME fcounter, in every layer. */
START_TEST(pairings_follow_the_names)
{
    unsigned pairs = 0, slowest = 0;
    for (unsigned l = 0; l < iolens_layer_desc_count(); l++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        for (uint32_t i = 0; i < d->ncounters; i++) {
            int c = iolens_record_top_pair(d, (int)i);
            if (d->agg[i] != IOLENS_AGG_TOP_VALUE) {
                ck_assert_int_eq(c, -1);
            } else {
                ck_assert_int_ge(c, 0);
                ck_assert_uint_eq(d->agg[c], IOLENS_AGG_TOP_COUNT);
                const char *v = d->counter_names[i], *n = d->counter_names[c];
                size_t stem = (size_t)(strrchr(v, '_') - v);
                ck_assert_int_eq(strncmp(v, n, stem + 1), 0);
                ck_assert_str_eq(n + stem + 1, "COUNT");
                pairs++;
            }
            int t = iolens_record_slowest_time_index(d, (int)i);
            if (d->agg[i] != IOLENS_AGG_SLOWEST_SIZE) {
                ck_assert_int_eq(t, -1);
            } else {
                /* POSIX_MAX_READ_TIME_SIZE -> POSIX_F_MAX_READ_TIME */
                char want[128];
                const char *name = d->counter_names[i];
                size_t layer_len = strlen(d->name);
                snprintf(want, sizeof want, "%s_F_%.*s", d->name,
                         (int)(strlen(name) - layer_len - 1 - strlen("_SIZE")),
                         name + layer_len + 1);
                ck_assert_int_ge(t, 0);
                ck_assert_str_eq(d->fcounter_names[t], want);
                slowest++;
            }
        }
    }
    /* POSIX strides and sizes, MPIIO sizes, H5D shapes */
    ck_assert_uint_eq(pairs, 4 + 4 + 4 + 4);
    ck_assert_uint_eq(slowest, 2 + 2 + 2); /* POSIX, MPIIO, H5D */
    ck_assert_int_eq(iolens_record_top_pair(h5d(), H5D_ACCESS3_ACCESS), H5D_ACCESS3_COUNT);
    ck_assert_int_eq(iolens_record_top_pair(h5d(), H5D_ACCESS3_LENGTH_D2), -1);
    ck_assert_int_eq(iolens_record_top_pair(posix(), -1), -1);
    ck_assert_int_eq(iolens_record_top_pair(posix(), POSIX_NUM_COUNTERS), -1);
}
END_TEST

/* -------------------------------------------------------------- merge -- */

/* Every SUM counter and fcounter of every layer adds. */
START_TEST(sum_adds_every_sum_counter_of_every_layer)
{
    for (unsigned l = 0; l < iolens_layer_desc_count(); l++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        unsigned char *a = calloc(1, d->record_size), *b = calloc(1, d->record_size);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        for (uint32_t i = 0; i < d->ncounters; i++) {
            iolens_rec_counters(a)[i] = (int64_t)i + 1;
            iolens_rec_counters(b)[i] = 2 * ((int64_t)i + 1);
        }
        for (uint32_t i = 0; i < d->nfcounters; i++) {
            iolens_rec_fcounters(d, a)[i] = 0.5 * (i + 1);
            iolens_rec_fcounters(d, b)[i] = 0.25 * (i + 1);
        }
        iolens_record_merge(d, a, b);
        unsigned sums = 0;
        for (uint32_t i = 0; i < d->ncounters; i++)
            if (d->agg[i] == IOLENS_AGG_SUM) {
                ck_assert_int_eq(iolens_rec_counters(a)[i], 3 * ((int64_t)i + 1));
                sums++;
            }
        for (uint32_t i = 0; i < d->nfcounters; i++)
            if (d->fagg[i] == IOLENS_AGG_SUM) {
                ck_assert_double_eq(iolens_rec_fcounters(d, a)[i], 0.75 * (i + 1));
                sums++;
            }
        ck_assert_uint_ge(sums, 4);    /* H5F has the fewest: 3 + 1 */
        free(a);
        free(b);
    }
}
END_TEST

START_TEST(sum_saturates_instead_of_wrapping)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1);
    a.counters[POSIX_BYTES_READ] = INT64_MAX - 5;
    b.counters[POSIX_BYTES_READ] = 10;
    a.counters[POSIX_BYTES_WRITTEN] = 7;
    b.counters[POSIX_BYTES_WRITTEN] = 8;
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_BYTES_READ], INT64_MAX);
    ck_assert_int_eq(m.counters[POSIX_BYTES_WRITTEN], 15);
}
END_TEST

START_TEST(max_keeps_the_largest)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1);
    a.counters[POSIX_MAX_BYTE_READ] = -1;
    b.counters[POSIX_MAX_BYTE_READ] = 4095;
    a.counters[POSIX_MAX_BYTE_WRITTEN] = 9999;
    b.counters[POSIX_MAX_BYTE_WRITTEN] = -1;
    a.fcounters[POSIX_F_READ_END_TIMESTAMP] = 7.5;
    b.fcounters[POSIX_F_READ_END_TIMESTAMP] = 3.0;
    a.fcounters[POSIX_F_MAX_WRITE_TIME] = 0.1;
    b.fcounters[POSIX_F_MAX_WRITE_TIME] = 0.2;
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_MAX_BYTE_READ], 4095);
    ck_assert_int_eq(m.counters[POSIX_MAX_BYTE_WRITTEN], 9999);
    ck_assert_double_eq(m.fcounters[POSIX_F_READ_END_TIMESTAMP], 7.5);
    ck_assert_double_eq(m.fcounters[POSIX_F_MAX_WRITE_TIME], 0.2);
}
END_TEST

START_TEST(min_nonzero_ignores_zeros)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1);
    a.fcounters[POSIX_F_OPEN_START_TIMESTAMP] = 0.0;   /* never opened */
    b.fcounters[POSIX_F_OPEN_START_TIMESTAMP] = 2.5;
    a.fcounters[POSIX_F_READ_START_TIMESTAMP] = 3.0;
    b.fcounters[POSIX_F_READ_START_TIMESTAMP] = 1.25;
    a.fcounters[POSIX_F_WRITE_START_TIMESTAMP] = 4.0;
    b.fcounters[POSIX_F_WRITE_START_TIMESTAMP] = 0.0;  /* never wrote */
    a.fcounters[POSIX_F_CLOSE_START_TIMESTAMP] = 1.0;
    b.fcounters[POSIX_F_CLOSE_START_TIMESTAMP] = 6.0;
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_double_eq(m.fcounters[POSIX_F_OPEN_START_TIMESTAMP], 2.5);
    ck_assert_double_eq(m.fcounters[POSIX_F_READ_START_TIMESTAMP], 1.25);
    ck_assert_double_eq(m.fcounters[POSIX_F_WRITE_START_TIMESTAMP], 4.0);
    ck_assert_double_eq(m.fcounters[POSIX_F_CLOSE_START_TIMESTAMP], 1.0);
    /* both zero stays zero */
    struct iolens_posix_record z = posix_rec(0);
    struct iolens_posix_record mz = merged(z, &z);
    ck_assert_double_eq(mz.fcounters[POSIX_F_OPEN_START_TIMESTAMP], 0.0);
}
END_TEST

START_TEST(same_gives_minus_one_when_records_differ)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1), c = posix_rec(2);
    a.counters[POSIX_FILE_ALIGNMENT] = 4096;
    b.counters[POSIX_FILE_ALIGNMENT] = 512;
    a.counters[POSIX_MEM_ALIGNMENT] = 8;
    b.counters[POSIX_MEM_ALIGNMENT] = 8;
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_FILE_ALIGNMENT], -1);
    ck_assert_int_eq(m.counters[POSIX_MEM_ALIGNMENT], 8);
    /* once different, always -1, even when a later record agrees with
     * the first */
    c.counters[POSIX_FILE_ALIGNMENT] = 4096;
    iolens_record_merge(posix(), &m, &c);
    ck_assert_int_eq(m.counters[POSIX_FILE_ALIGNMENT], -1);
}
END_TEST

/* POSIX_MODE of a shared file: 0 when no rank passed a mode (Darshan's
 * "none"; it was -1 before), the mode when a rank created it and the
 * others only opened it (was -1: "records differ"). */
START_TEST(mode_of_a_shared_file_is_darshans)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1), c = posix_rec(2);
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_MODE], 0);
    a.counters[POSIX_MODE] = 0644;
    m = merged(a, &b);
    iolens_record_merge(posix(), &m, &c);
    ck_assert_int_eq(m.counters[POSIX_MODE], 0644);
}
END_TEST

static void set_access(struct iolens_posix_record *r, const int64_t v[4], const int64_t c[4])
{
    for (int i = 0; i < 4; i++) {
        r->counters[POSIX_ACCESS1_ACCESS + i] = v[i];
        r->counters[POSIX_ACCESS1_COUNT + i] = c[i];
    }
}

static void assert_access(const struct iolens_posix_record *r, const int64_t v[4],
                          const int64_t c[4])
{
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(r->counters[POSIX_ACCESS1_ACCESS + i], v[i]);
        ck_assert_int_eq(r->counters[POSIX_ACCESS1_COUNT + i], c[i]);
    }
}

START_TEST(top_values_are_re_ranked_by_count_then_value)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1);
    set_access(&a, (int64_t[]){4096, 1024, 512, 0}, (int64_t[]){10, 5, 2, 0});
    set_access(&b, (int64_t[]){1024, 8, 4096, 16}, (int64_t[]){7, 3, 1, 3});
    struct iolens_posix_record m = merged(a, &b);
    /* 1024: 5+7=12, 4096: 10+1=11, 16: 3 and 8: 3 (tie: larger value
     * first), 512: 2 drops out. */
    assert_access(&m, (int64_t[]){1024, 4096, 16, 8}, (int64_t[]){12, 11, 3, 3});
}
END_TEST

/* The TOP_STATE before a table follows the merge: records that listed all
 * their values merge exactly (into EXACT once the union has more than 4);
 * a record that did not (or estimated) makes the merge an estimate, but
 * only when the other record has entries too. */
START_TEST(top_state_follows_the_merge)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1), e = posix_rec(2);
    set_access(&a, (int64_t[]){4096, 1024, 0, 0}, (int64_t[]){10, 5, 0, 0});
    set_access(&b, (int64_t[]){1024, 8, 0, 0}, (int64_t[]){7, 3, 0, 0});
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_ACCESS_TOP_STATE], IOLENS_TOP_EXACT_ALL);
    set_access(&b, (int64_t[]){1024, 8, 16, 32}, (int64_t[]){7, 3, 2, 1});
    m = merged(a, &b);
    /* 5 distinct values, each count exact: 32 (1) drops out */
    ck_assert_int_eq(m.counters[POSIX_ACCESS_TOP_STATE], IOLENS_TOP_EXACT);
    assert_access(&m, (int64_t[]){1024, 4096, 8, 16}, (int64_t[]){12, 10, 3, 2});
    /* m left 32 out: merging it with a record that has entries estimates */
    struct iolens_posix_record m2 = merged(m, &a);
    ck_assert_int_eq(m2.counters[POSIX_ACCESS_TOP_STATE], IOLENS_TOP_ESTIMATE);
    /* ... but not with one that has none */
    m2 = merged(m, &e);
    ck_assert_int_eq(m2.counters[POSIX_ACCESS_TOP_STATE], IOLENS_TOP_EXACT);
    m2 = merged(e, &m);
    ck_assert_int_eq(m2.counters[POSIX_ACCESS_TOP_STATE], IOLENS_TOP_EXACT);
    /* a record's own estimate stays one */
    b.counters[POSIX_ACCESS_TOP_STATE] = IOLENS_TOP_ESTIMATE;
    m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_ACCESS_TOP_STATE], IOLENS_TOP_ESTIMATE);
    /* the stride table has its own state, untouched by the access table */
    ck_assert_int_eq(m.counters[POSIX_STRIDE_TOP_STATE], IOLENS_TOP_EXACT_ALL);
}
END_TEST

START_TEST(top_ties_and_empty_slots)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1);
    set_access(&a, (int64_t[]){100, 0, 0, 0}, (int64_t[]){5, 0, 0, 0});
    set_access(&b, (int64_t[]){200, 0, 0, 0}, (int64_t[]){5, 0, 0, 0});
    struct iolens_posix_record m = merged(a, &b);
    assert_access(&m, (int64_t[]){200, 100, 0, 0}, (int64_t[]){5, 5, 0, 0});
    /* the other order gives the same result */
    m = merged(b, &a);
    assert_access(&m, (int64_t[]){200, 100, 0, 0}, (int64_t[]){5, 5, 0, 0});
    /* a value 0 with a count is real (a stride of 0), an empty slot is not */
    struct iolens_posix_record s = posix_rec(0), t = posix_rec(1);
    s.counters[POSIX_STRIDE1_STRIDE] = 0;
    s.counters[POSIX_STRIDE1_COUNT] = 4;
    t.counters[POSIX_STRIDE1_STRIDE] = 65536;
    t.counters[POSIX_STRIDE1_COUNT] = 9;
    t.counters[POSIX_STRIDE2_STRIDE] = 0;
    t.counters[POSIX_STRIDE2_COUNT] = 1;
    m = merged(s, &t);
    ck_assert_int_eq(m.counters[POSIX_STRIDE1_STRIDE], 65536);
    ck_assert_int_eq(m.counters[POSIX_STRIDE1_COUNT], 9);
    ck_assert_int_eq(m.counters[POSIX_STRIDE2_STRIDE], 0);
    ck_assert_int_eq(m.counters[POSIX_STRIDE2_COUNT], 5);
    ck_assert_int_eq(m.counters[POSIX_STRIDE3_COUNT], 0);
    ck_assert_int_eq(m.counters[POSIX_STRIDE4_COUNT], 0);
    /* the stride group did not leak into the access group */
    ck_assert_int_eq(m.counters[POSIX_ACCESS1_COUNT], 0);
}
END_TEST

START_TEST(mpiio_top_group_merges_too)
{
    const struct iolens_layer_desc *d = mpiio();
    struct iolens_mpiio_record a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.counters[MPIIO_ACCESS1_ACCESS] = 1048576;
    a.counters[MPIIO_ACCESS1_COUNT] = 2;
    b.counters[MPIIO_ACCESS1_ACCESS] = 1048576;
    b.counters[MPIIO_ACCESS1_COUNT] = 3;
    b.counters[MPIIO_ACCESS2_ACCESS] = 64;
    b.counters[MPIIO_ACCESS2_COUNT] = 6;
    iolens_record_merge(d, &a, &b);
    ck_assert_int_eq(a.counters[MPIIO_ACCESS1_ACCESS], 64);
    ck_assert_int_eq(a.counters[MPIIO_ACCESS1_COUNT], 6);
    ck_assert_int_eq(a.counters[MPIIO_ACCESS2_ACCESS], 1048576);
    ck_assert_int_eq(a.counters[MPIIO_ACCESS2_COUNT], 5);
}
END_TEST

START_TEST(slowest_size_follows_the_slower_record)
{
    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1), c = posix_rec(2);
    a.fcounters[POSIX_F_MAX_READ_TIME] = 0.5;
    a.counters[POSIX_MAX_READ_TIME_SIZE] = 100;
    b.fcounters[POSIX_F_MAX_READ_TIME] = 0.75;
    b.counters[POSIX_MAX_READ_TIME_SIZE] = 4096;
    a.fcounters[POSIX_F_MAX_WRITE_TIME] = 0.9;
    a.counters[POSIX_MAX_WRITE_TIME_SIZE] = 10;
    b.fcounters[POSIX_F_MAX_WRITE_TIME] = 0.125;
    b.counters[POSIX_MAX_WRITE_TIME_SIZE] = 20;
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_MAX_READ_TIME_SIZE], 4096);
    ck_assert_double_eq(m.fcounters[POSIX_F_MAX_READ_TIME], 0.75);
    ck_assert_int_eq(m.counters[POSIX_MAX_WRITE_TIME_SIZE], 10);
    ck_assert_double_eq(m.fcounters[POSIX_F_MAX_WRITE_TIME], 0.9);
    /* a faster third record changes nothing, however large its size */
    c.fcounters[POSIX_F_MAX_READ_TIME] = 0.625;
    c.counters[POSIX_MAX_READ_TIME_SIZE] = 1 << 30;
    iolens_record_merge(posix(), &m, &c);
    ck_assert_int_eq(m.counters[POSIX_MAX_READ_TIME_SIZE], 4096);
    /* equal times: the larger size, whatever the order */
    c.fcounters[POSIX_F_MAX_READ_TIME] = 0.75;
    c.counters[POSIX_MAX_READ_TIME_SIZE] = 8192;
    iolens_record_merge(posix(), &m, &c);
    ck_assert_int_eq(m.counters[POSIX_MAX_READ_TIME_SIZE], 8192);
    struct iolens_posix_record m2 = merged(c, &b);
    ck_assert_int_eq(m2.counters[POSIX_MAX_READ_TIME_SIZE], 8192);
}
END_TEST

START_TEST(rank_stats_counters_are_left_alone_and_begin_copies)
{
    struct iolens_posix_record a = posix_rec(3), b = posix_rec(4);
    a.counters[POSIX_RANKS_OPENED] = 1;
    a.counters[POSIX_FASTEST_RANK] = 3;
    a.fcounters[POSIX_F_VARIANCE_RANK_TIME] = 0.5;
    b.counters[POSIX_RANKS_OPENED] = 1;
    b.counters[POSIX_FASTEST_RANK] = 4;
    b.fcounters[POSIX_F_VARIANCE_RANK_TIME] = 2.0;
    struct iolens_posix_record m = merged(a, &b);
    ck_assert_int_eq(m.counters[POSIX_RANKS_OPENED], 1);
    ck_assert_int_eq(m.counters[POSIX_FASTEST_RANK], 3);
    ck_assert_double_eq(m.fcounters[POSIX_F_VARIANCE_RANK_TIME], 0.5);
    ck_assert_uint_eq(m.id, 0xabcdef);
    ck_assert_int_eq(m.rank, 3);
}
END_TEST

/* --------------------------------------------------------- rank stats -- */

/* A record of rank r whose I/O time (read+write+meta) is t and bytes
 * (read+written) are bytes. */
static struct iolens_posix_record timed(int64_t r, double t, int64_t bytes)
{
    struct iolens_posix_record x = posix_rec(r);
    x.counters[POSIX_OPENS] = 1;
    x.counters[POSIX_READS] = 1;
    x.counters[POSIX_BYTES_READ] = bytes / 2;
    x.counters[POSIX_BYTES_WRITTEN] = bytes - bytes / 2;
    x.fcounters[POSIX_F_READ_TIME] = t / 2;
    x.fcounters[POSIX_F_WRITE_TIME] = t / 4;
    x.fcounters[POSIX_F_META_TIME] = t / 4;
    return x;
}

START_TEST(rank_stats_hand_computed_variance)
{
    struct iolens_posix_record r[4];
    for (int i = 0; i < 4; i++)
        r[i] = timed(i, i + 1.0, 10 * (i + 1));
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    for (int i = 0; i < 4; i++)
        iolens_rank_stats_add(&s, posix(), i, &r[i]);
    struct iolens_posix_record out = posix_rec(IOLENS_RANK_ALL);
    iolens_rank_stats_store(&s, posix(), &out);
    /* times 1,2,3,4: mean 2.5, squared deviations 2.25+0.25+0.25+2.25 = 5,
     * /4 = 1.25; bytes 10..40: 225+25+25+225 = 500, /4 = 125. */
    ck_assert_double_eq(out.fcounters[POSIX_F_VARIANCE_RANK_TIME], 1.25);
    ck_assert_double_eq(out.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 125.0);
    ck_assert_int_eq(out.counters[POSIX_RANKS_OPENED], 4);
    ck_assert_int_eq(out.counters[POSIX_RANKS_IO], 4);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK], 0);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK_BYTES], 10);
    ck_assert_double_eq(out.fcounters[POSIX_F_FASTEST_RANK_TIME], 1.0);
    ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK], 3);
    ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK_BYTES], 40);
    ck_assert_double_eq(out.fcounters[POSIX_F_SLOWEST_RANK_TIME], 4.0);
    /* nothing else was touched */
    ck_assert_int_eq(out.counters[POSIX_OPENS], 0);
    ck_assert_double_eq(out.fcounters[POSIX_F_READ_TIME], 0.0);

    /* another order: the same result (to rounding for the variance) */
    int order[4] = {2, 0, 3, 1};
    iolens_rank_stats_init(&s);
    for (int i = 0; i < 4; i++)
        iolens_rank_stats_add(&s, posix(), order[i], &r[order[i]]);
    iolens_rank_stats_store(&s, posix(), &out);
    ck_assert_double_eq_tol(out.fcounters[POSIX_F_VARIANCE_RANK_TIME], 1.25, 1e-12);
    ck_assert_double_eq_tol(out.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 125.0, 1e-9);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK], 0);
    ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK], 3);
}
END_TEST

/* The same records given as rows of a decoded layer (counters and
 * fcounters apart, as iolens-parser --total hands them): the same
 * hand-computed statistics. */
START_TEST(rank_stats_from_rows_as_from_records)
{
    int64_t counters[3][POSIX_NUM_COUNTERS];
    double fcounters[3][POSIX_F_NUM_COUNTERS];
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    for (int i = 0; i < 3; i++) {
        struct iolens_posix_record x = timed(i, 3.0 - i, 10 * (i + 1));
        if (i == 2) /* opened, no I/O */
            x.counters[POSIX_READS] = 0;
        memcpy(counters[i], x.counters, sizeof counters[i]);
        memcpy(fcounters[i], x.fcounters, sizeof fcounters[i]);
        iolens_rank_stats_add_row(&s, posix(), i, counters[i], fcounters[i]);
    }
    struct iolens_posix_record out = posix_rec(IOLENS_RANK_ALL);
    iolens_rank_stats_store(&s, posix(), &out);
    /* times 3,2,1: mean 2, variance 2/3; bytes 10,20,30: variance 200/3 */
    ck_assert_double_eq_tol(out.fcounters[POSIX_F_VARIANCE_RANK_TIME], 2.0 / 3.0, 1e-12);
    ck_assert_double_eq_tol(out.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 200.0 / 3.0, 1e-9);
    ck_assert_int_eq(out.counters[POSIX_RANKS_OPENED], 3);
    ck_assert_int_eq(out.counters[POSIX_RANKS_IO], 2);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK], 2);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK_BYTES], 30);
    ck_assert_double_eq(out.fcounters[POSIX_F_FASTEST_RANK_TIME], 1.0);
    ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK], 0);
    ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK_BYTES], 10);
    ck_assert_double_eq(out.fcounters[POSIX_F_SLOWEST_RANK_TIME], 3.0);
}
END_TEST

START_TEST(rank_stats_large_values_keep_precision)
{
    /* 1e12 + {0, 2}: variance 1; a sum-of-squares formula loses it. */
    struct iolens_posix_record a = timed(0, 1.0, 1000000000000), b = timed(1, 1.0, 1000000000002);
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    iolens_rank_stats_add(&s, posix(), 0, &a);
    iolens_rank_stats_add(&s, posix(), 1, &b);
    struct iolens_posix_record out = posix_rec(IOLENS_RANK_ALL);
    iolens_rank_stats_store(&s, posix(), &out);
    ck_assert_double_eq(out.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 1.0);
    ck_assert_double_eq(out.fcounters[POSIX_F_VARIANCE_RANK_TIME], 0.0);
}
END_TEST

START_TEST(rank_stats_ties_go_to_the_lowest_rank)
{
    int orders[2][3] = {{5, 3, 7}, {7, 5, 3}};
    for (int o = 0; o < 2; o++) {
        struct iolens_rank_stats s;
        iolens_rank_stats_init(&s);
        for (int i = 0; i < 3; i++) {
            int r = orders[o][i];
            struct iolens_posix_record x = timed(r, 2.0, 100 + r);
            iolens_rank_stats_add(&s, posix(), r, &x);
        }
        struct iolens_posix_record out = posix_rec(IOLENS_RANK_ALL);
        iolens_rank_stats_store(&s, posix(), &out);
        ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK], 3);
        ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK_BYTES], 103);
        ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK], 3);
        ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK_BYTES], 103);
        ck_assert_double_eq(out.fcounters[POSIX_F_VARIANCE_RANK_TIME], 0.0);
        ck_assert_double_eq_tol(out.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 8.0 / 3.0, 1e-12);
    }
}
END_TEST

START_TEST(rank_stats_count_openers_and_io_ranks)
{
    struct iolens_posix_record opened_only = posix_rec(0), stat_only = posix_rec(1);
    struct iolens_posix_record io = timed(2, 1.0, 8);
    opened_only.counters[POSIX_OPENS] = 2;
    stat_only.counters[POSIX_STATS] = 1;
    struct iolens_posix_record zero_read = posix_rec(3);  /* read at EOF */
    zero_read.counters[POSIX_OPENS] = 1;
    zero_read.counters[POSIX_READS] = 1;
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    iolens_rank_stats_add(&s, posix(), 0, &opened_only);
    iolens_rank_stats_add(&s, posix(), 1, &stat_only);
    iolens_rank_stats_add(&s, posix(), 2, &io);
    iolens_rank_stats_add(&s, posix(), 3, &zero_read);
    ck_assert_int_eq(s.ranks_opened, 3);
    ck_assert_int_eq(s.ranks_io, 2);
    ck_assert_int_eq(s.n, 4);
    ck_assert_int_eq(s.fastest_rank, 0);   /* 0.0 s, tie with 1 and 3 */
    ck_assert_int_eq(s.slowest_rank, 2);

    /* MPI-IO: a collective open and a collective write count */
    const struct iolens_layer_desc *d = mpiio();
    struct iolens_mpiio_record m;
    memset(&m, 0, sizeof m);
    ck_assert_int_eq(iolens_record_opened(d, &m), 0);
    ck_assert_int_eq(iolens_record_did_io(d, &m), 0);
    m.counters[MPIIO_COLL_OPENS] = 1;
    m.counters[MPIIO_NB_WRITES] = 1;
    ck_assert_int_eq(iolens_record_opened(d, &m), 1);
    ck_assert_int_eq(iolens_record_did_io(d, &m), 1);
    m.counters[MPIIO_NB_WRITES] = 0;
    m.counters[MPIIO_SPLIT_READS] = 2;
    ck_assert_int_eq(iolens_record_did_io(d, &m), 1);
    /* every form of read and write adds up */
    m.counters[MPIIO_INDEP_READS] = 1;
    m.counters[MPIIO_COLL_READS] = 10;
    m.counters[MPIIO_NB_READS] = 100;
    m.counters[MPIIO_INDEP_WRITES] = 7;
    m.counters[MPIIO_SPLIT_WRITES] = 70;
    ck_assert_int_eq(iolens_record_read_ops(d, &m), 113);
    ck_assert_int_eq(iolens_record_write_ops(d, &m), 77);
    ck_assert_int_eq(iolens_record_read_ops(posix(), &io), 1);
    ck_assert_int_eq(iolens_record_write_ops(posix(), &io), 0);
}
END_TEST

START_TEST(rank_stats_store_with_no_ranks)
{
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    struct iolens_posix_record out = timed(0, 5.0, 5);
    iolens_rank_stats_store(&s, posix(), &out);
    ck_assert_int_eq(out.counters[POSIX_RANKS_OPENED], 0);
    ck_assert_int_eq(out.counters[POSIX_RANKS_IO], 0);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK], -1);
    ck_assert_int_eq(out.counters[POSIX_SLOWEST_RANK], -1);
    ck_assert_int_eq(out.counters[POSIX_FASTEST_RANK_BYTES], 0);
    ck_assert_double_eq(out.fcounters[POSIX_F_SLOWEST_RANK_TIME], 0.0);
    ck_assert_double_eq(out.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 0.0);
}
END_TEST

START_TEST(fill_own_sharing_describes_the_record_itself)
{
    struct iolens_posix_record r = posix_rec(5);
    r.counters[POSIX_OPENS] = 1;
    r.counters[POSIX_READS] = 2;
    r.counters[POSIX_BYTES_READ] = 100;
    r.counters[POSIX_BYTES_WRITTEN] = 50;
    r.fcounters[POSIX_F_READ_TIME] = 0.5;
    r.fcounters[POSIX_F_WRITE_TIME] = 0.25;
    r.fcounters[POSIX_F_META_TIME] = 0.125;
    r.fcounters[POSIX_F_VARIANCE_RANK_TIME] = 9.0;   /* overwritten */
    iolens_record_fill_own_sharing(posix(), &r);
    ck_assert_int_eq(r.counters[POSIX_RANKS_OPENED], 1);
    ck_assert_int_eq(r.counters[POSIX_RANKS_IO], 1);
    ck_assert_int_eq(r.counters[POSIX_FASTEST_RANK], 5);
    ck_assert_int_eq(r.counters[POSIX_FASTEST_RANK_BYTES], 150);
    ck_assert_int_eq(r.counters[POSIX_SLOWEST_RANK], 5);
    ck_assert_int_eq(r.counters[POSIX_SLOWEST_RANK_BYTES], 150);
    ck_assert_double_eq(r.fcounters[POSIX_F_FASTEST_RANK_TIME], 0.875);
    ck_assert_double_eq(r.fcounters[POSIX_F_SLOWEST_RANK_TIME], 0.875);
    ck_assert_double_eq(r.fcounters[POSIX_F_VARIANCE_RANK_TIME], 0.0);
    ck_assert_double_eq(r.fcounters[POSIX_F_VARIANCE_RANK_BYTES], 0.0);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 1);
    ck_assert_int_eq(r.rank, 5);

    /* a file only stat'ed: neither opened nor read or written */
    struct iolens_stdio_record st;
    const struct iolens_layer_desc *sd = iolens_layer_desc_by_kind(IOLENS_REGION_STDIO);
    memset(&st, 0, sizeof st);
    st.rank = 2;
    st.counters[STDIO_SEEKS] = 1;
    st.fcounters[STDIO_F_META_TIME] = 0.5;
    iolens_record_fill_own_sharing(sd, &st);
    ck_assert_int_eq(st.counters[STDIO_RANKS_OPENED], 0);
    ck_assert_int_eq(st.counters[STDIO_RANKS_IO], 0);
    ck_assert_int_eq(st.counters[STDIO_FASTEST_RANK], 2);
    ck_assert_int_eq(st.counters[STDIO_SLOWEST_RANK_BYTES], 0);
    ck_assert_double_eq(st.fcounters[STDIO_F_SLOWEST_RANK_TIME], 0.5);
}
END_TEST

/* ---------------------------------------------------- H5D top shapes -- */

/* The tables of the two layouts, as the merge and --total see them. */
START_TEST(top_tables_of_both_layouts)
{
    struct iolens_top_table t;
    uint32_t next = iolens_record_top_table(h5d(), H5D_ACCESS1_ACCESS, &t);
    ck_assert_uint_eq(next, H5D_DATASPACE_NDIMS);
    ck_assert_uint_eq(t.k, 4);
    ck_assert_uint_eq(t.width, 6);
    ck_assert_int_eq(t.state, H5D_ACCESS_TOP_STATE);
    ck_assert_uint_eq(t.value[0], H5D_ACCESS1_ACCESS);
    ck_assert_uint_eq(t.count[0], H5D_ACCESS1_COUNT);
    ck_assert_uint_eq(t.value[3], H5D_ACCESS4_ACCESS);
    ck_assert_uint_eq(t.count[3], H5D_ACCESS4_COUNT);
    /* no table starts inside one */
    ck_assert_uint_eq(iolens_record_top_table(h5d(), H5D_ACCESS2_ACCESS, &t), 0);
    ck_assert_uint_eq(iolens_record_top_table(h5d(), H5D_ACCESS1_LENGTH_D1, &t), 0);
    ck_assert_uint_eq(iolens_record_top_table(h5d(), H5D_NUM_COUNTERS, &t), 0);

    next = iolens_record_top_table(posix(), POSIX_ACCESS1_ACCESS, &t);
    ck_assert_uint_eq(next, POSIX_ACCESS4_COUNT + 1);
    ck_assert_int_eq(t.state, POSIX_ACCESS_TOP_STATE);
    ck_assert_uint_eq(t.k, 4);
    ck_assert_uint_eq(t.width, 1);
    ck_assert_uint_eq(t.value[2], POSIX_ACCESS3_ACCESS);
    ck_assert_uint_eq(t.count[2], POSIX_ACCESS3_COUNT);
    ck_assert_uint_eq(iolens_record_top_table(posix(), POSIX_ACCESS2_ACCESS, &t), 0);
}
END_TEST

/* Entry j of the H5D access table: size, D1 ... D5, count. */
static void set_shape(struct iolens_h5d_record *r, int j, const int64_t v[7])
{
    int base = H5D_ACCESS1_ACCESS + 7 * j;
    for (int i = 0; i < 7; i++)
        r->counters[base + i] = v[i];
}

static void assert_shape(const struct iolens_h5d_record *r, int j, const int64_t v[7])
{
    int base = H5D_ACCESS1_ACCESS + 7 * j;
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(r->counters[base + i], v[i]);
}

static struct iolens_h5d_record h5d_rec(int64_t rank)
{
    struct iolens_h5d_record r;
    memset(&r, 0, sizeof r);
    r.id = 0x5d5d;
    r.rank = rank;
    return r;
}

/* A shape is the size together with its extents: equal tuples add up,
 * the same size with other extents is another entry; ranked by count,
 * ties by the larger tuple. */
START_TEST(h5d_shapes_merge_as_tuples)
{
    struct iolens_h5d_record a = h5d_rec(0), b = h5d_rec(1), acc;
    set_shape(&a, 0, (int64_t[]){800, 10, 20, 2, 0, 0, 5});
    set_shape(&a, 1, (int64_t[]){400, 5, 20, 0, 0, 0, 3});
    set_shape(&a, 2, (int64_t[]){800, 20, 10, 2, 0, 0, 3});
    set_shape(&a, 3, (int64_t[]){8, 1, 1, 0, 0, 0, 1});
    set_shape(&b, 0, (int64_t[]){400, 5, 20, 0, 0, 0, 4});
    set_shape(&b, 1, (int64_t[]){800, 10, 20, 2, 0, 0, 1});
    set_shape(&b, 2, (int64_t[]){800, 10, 30, 2, 0, 0, 3});
    set_shape(&b, 3, (int64_t[]){16, 2, 1, 0, 0, 0, 2});
    iolens_record_merge_begin(h5d(), &acc, &a);
    iolens_record_merge(h5d(), &acc, &b);
    assert_shape(&acc, 0, (int64_t[]){400, 5, 20, 0, 0, 0, 7});
    assert_shape(&acc, 1, (int64_t[]){800, 10, 20, 2, 0, 0, 6});
    assert_shape(&acc, 2, (int64_t[]){800, 20, 10, 2, 0, 0, 3});
    assert_shape(&acc, 3, (int64_t[]){800, 10, 30, 2, 0, 0, 3});
    /* the other order gives the same result */
    iolens_record_merge_begin(h5d(), &acc, &b);
    iolens_record_merge(h5d(), &acc, &a);
    assert_shape(&acc, 0, (int64_t[]){400, 5, 20, 0, 0, 0, 7});
    assert_shape(&acc, 1, (int64_t[]){800, 10, 20, 2, 0, 0, 6});
    assert_shape(&acc, 2, (int64_t[]){800, 20, 10, 2, 0, 0, 3});
    assert_shape(&acc, 3, (int64_t[]){800, 10, 30, 2, 0, 0, 3});
}
END_TEST

/* Tuples that differ only in the last dimension stay apart; empty slots
 * stay empty; the shape counters next to the table are untouched. */
START_TEST(h5d_shapes_last_dimension_and_empty_slots)
{
    struct iolens_h5d_record a = h5d_rec(0), b = h5d_rec(1);
    set_shape(&a, 0, (int64_t[]){64, 4, 4, 1, 1, 1, 2});
    set_shape(&b, 0, (int64_t[]){64, 4, 4, 1, 1, 2, 2});
    a.counters[H5D_DATASPACE_NDIMS] = 5;
    b.counters[H5D_DATASPACE_NDIMS] = 5;
    iolens_record_merge(h5d(), &a, &b);
    assert_shape(&a, 0, (int64_t[]){64, 4, 4, 1, 1, 2, 2});
    assert_shape(&a, 1, (int64_t[]){64, 4, 4, 1, 1, 1, 2});
    assert_shape(&a, 2, (int64_t[]){0, 0, 0, 0, 0, 0, 0});
    assert_shape(&a, 3, (int64_t[]){0, 0, 0, 0, 0, 0, 0});
    ck_assert_int_eq(a.counters[H5D_DATASPACE_NDIMS], 5);
    ck_assert_int_eq(a.counters[H5D_SIZE_WRITE_AGG_1G_PLUS], 0);
}
END_TEST

/* SAME, SUM and SLOWEST_SIZE of the H5D layer. */
START_TEST(h5d_same_sum_and_slowest)
{
    struct iolens_h5d_record a = h5d_rec(0), b = h5d_rec(1);
    a.counters[H5D_LAYOUT] = 2;
    b.counters[H5D_LAYOUT] = 2;
    a.counters[H5D_CHUNK_DIM1] = 64;
    b.counters[H5D_CHUNK_DIM1] = 128;
    a.counters[H5D_BYTES_WRITTEN] = 800;
    b.counters[H5D_BYTES_WRITTEN] = 1600;
    a.counters[H5D_FILE_REC_ID] = 77;
    b.counters[H5D_FILE_REC_ID] = 77;
    a.counters[H5D_MAX_WRITE_TIME_SIZE] = 800;
    a.fcounters[H5D_F_MAX_WRITE_TIME] = 0.25;
    b.counters[H5D_MAX_WRITE_TIME_SIZE] = 1600;
    b.fcounters[H5D_F_MAX_WRITE_TIME] = 0.5;
    iolens_record_merge(h5d(), &a, &b);
    ck_assert_int_eq(a.counters[H5D_LAYOUT], 2);
    ck_assert_int_eq(a.counters[H5D_CHUNK_DIM1], -1);
    ck_assert_int_eq(a.counters[H5D_BYTES_WRITTEN], 2400);
    ck_assert_int_eq(a.counters[H5D_FILE_REC_ID], 77);
    ck_assert_int_eq(a.counters[H5D_MAX_WRITE_TIME_SIZE], 1600);
    ck_assert_double_eq(a.fcounters[H5D_F_MAX_WRITE_TIME], 0.5);
}
END_TEST

/* H5F has no bytes, reads, writes or read/write time (index -1): its
 * rank statistics use metadata time alone and 0 bytes. */
START_TEST(h5f_rank_stats_without_io_counters)
{
    struct iolens_h5f_record a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.rank = 3;
    a.counters[H5F_OPENS] = 1;
    a.fcounters[H5F_F_META_TIME] = 0.5;
    b.rank = 1;
    b.counters[H5F_OPENS] = 1;   /* a create: H5F_OPENS counts it too */
    b.counters[H5F_CREATES] = 1;
    b.fcounters[H5F_F_META_TIME] = 1.5;
    ck_assert_int_eq(iolens_record_opened(h5f(), &a), 1);
    ck_assert_int_eq(iolens_record_opened(h5f(), &b), 1);
    ck_assert_int_eq(iolens_record_did_io(h5f(), &a), 0);
    ck_assert_int_eq(iolens_record_io_bytes(h5f(), &a), 0);
    ck_assert_double_eq(iolens_record_io_time(h5f(), &b), 1.5);
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    iolens_rank_stats_add(&s, h5f(), a.rank, &a);
    iolens_rank_stats_add(&s, h5f(), b.rank, &b);
    struct iolens_h5f_record m = a;
    iolens_record_merge(h5f(), &m, &b);
    iolens_rank_stats_store(&s, h5f(), &m);
    ck_assert_int_eq(m.counters[H5F_CREATES], 1);
    ck_assert_int_eq(m.counters[H5F_OPENS], 2); /* an open and a create */
    ck_assert_double_eq(m.fcounters[H5F_F_META_TIME], 2.0);
    ck_assert_int_eq(m.counters[H5F_RANKS_OPENED], 2);
    ck_assert_int_eq(m.counters[H5F_RANKS_IO], 0);
    ck_assert_int_eq(m.counters[H5F_FASTEST_RANK], 3);
    ck_assert_int_eq(m.counters[H5F_FASTEST_RANK_BYTES], 0);
    ck_assert_int_eq(m.counters[H5F_SLOWEST_RANK], 1);
    ck_assert_double_eq(m.fcounters[H5F_F_FASTEST_RANK_TIME], 0.5);
    ck_assert_double_eq(m.fcounters[H5F_F_SLOWEST_RANK_TIME], 1.5);
    ck_assert_double_eq(m.fcounters[H5F_F_VARIANCE_RANK_TIME], 0.25);
    ck_assert_double_eq(m.fcounters[H5F_F_VARIANCE_RANK_BYTES], 0.0);
}
END_TEST

/* Pattern parameters (AGREE): the common value of the records that have
 * one; 0 does not vote; a disagreement is IOLENS_PAT_MIXED and stays so;
 * the pattern counts (SUM) add up.  Both layers. */
START_TEST(agree_keeps_the_common_pattern_parameter)
{
    const struct iolens_layer_desc *d = posix();
    ck_assert_uint_eq(d->agg[POSIX_PAT_STRIDE], IOLENS_AGG_AGREE);
    ck_assert_uint_eq(d->agg[POSIX_PAT_OUTER_STRIDE], IOLENS_AGG_AGREE);
    ck_assert_uint_eq(d->agg[POSIX_PAT_GROUPS], IOLENS_AGG_SUM);
    ck_assert_uint_eq(mpiio()->agg[MPIIO_PAT_INNER_COUNT], IOLENS_AGG_AGREE);

    struct iolens_posix_record a = posix_rec(0), b = posix_rec(1), c = posix_rec(2),
                               none = posix_rec(3), m;
    a.counters[POSIX_PAT_STRIDE] = b.counters[POSIX_PAT_STRIDE] = -8192;
    a.counters[POSIX_PAT_STRIDE_STEPS] = 10;
    b.counters[POSIX_PAT_STRIDE_STEPS] = 7;
    a.counters[POSIX_PAT_INNER_COUNT] = 4;
    b.counters[POSIX_PAT_INNER_COUNT] = 5;
    c.counters[POSIX_PAT_STRIDE] = -8192;
    c.counters[POSIX_PAT_INNER_COUNT] = 4;

    /* A record without a pattern (0) first: it does not vote. */
    iolens_record_merge_begin(d, &m, &none);
    iolens_record_merge(d, &m, &a);
    ck_assert_int_eq(m.counters[POSIX_PAT_STRIDE], -8192);
    ck_assert_int_eq(m.counters[POSIX_PAT_INNER_COUNT], 4);
    iolens_record_merge(d, &m, &none);
    ck_assert_int_eq(m.counters[POSIX_PAT_STRIDE], -8192);
    iolens_record_merge(d, &m, &b);
    ck_assert_int_eq(m.counters[POSIX_PAT_STRIDE], -8192);
    ck_assert_int_eq(m.counters[POSIX_PAT_STRIDE_STEPS], 17);
    ck_assert_int_eq(m.counters[POSIX_PAT_INNER_COUNT], IOLENS_PAT_MIXED);
    /* Mixed stays mixed, even when the next record agrees with the first. */
    iolens_record_merge(d, &m, &c);
    ck_assert_int_eq(m.counters[POSIX_PAT_INNER_COUNT], IOLENS_PAT_MIXED);
    iolens_record_merge(d, &m, &none);
    ck_assert_int_eq(m.counters[POSIX_PAT_INNER_COUNT], IOLENS_PAT_MIXED);
    ck_assert_int_eq(m.counters[POSIX_PAT_STRIDE], -8192);
}
END_TEST

/* ------------------------------------------------------- merge rows -- */

/* A value for counter c of record i that exercises every rule: small
 * numbers repeating (so SAME and AGREE sometimes agree), zeros (MIN_NONZERO
 * skips them), the odd huge one (SUM saturates), ties of the slowest times
 * (SLOWEST_SIZE's tie rule). */
static int64_t row_value(size_t i, uint32_t c)
{
    uint64_t x = (uint64_t)(i * 2654435761u) ^ (uint64_t)c * 40503u;
    x ^= x >> 13;
    switch (x % 7) {
    case 0:
        return 0;
    case 1:
        return INT64_MAX / 3;
    case 2:
        return 4096;
    default:
        return (int64_t)(x % 5);
    }
}

/* iolens_record_merge_rows_no_top against its definition: the same rows
 * merged a record at a time by iolens_record_merge_no_top, for every
 * layer, with row strides wider than the layer (a newer layout), and for
 * counts around the block of rows. */
START_TEST(merge_rows_equals_merging_record_by_record)
{
    static const size_t counts[] = {1, 2, 31, 32, 33, 100};
    for (unsigned l = 0; l < iolens_layer_desc_count(); l++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        size_t cs = d->ncounters + 2, fs = d->nfcounters + 1, nmax = 101;
        int64_t *c = calloc(nmax * cs, sizeof *c);
        double *f = calloc(nmax * fs, sizeof *f);
        unsigned char *rec = calloc(1, d->record_size), *want = calloc(1, d->record_size),
                      *got = calloc(1, d->record_size);
        ck_assert_ptr_nonnull(c);
        ck_assert_ptr_nonnull(f);
        for (size_t i = 0; i < nmax; i++) {
            for (uint32_t k = 0; k < cs; k++)
                c[i * cs + k] = row_value(i, k);
            for (uint32_t k = 0; k < fs; k++)
                f[i * fs + k] = (double)row_value(i, 1000 + k) * 0.25;
        }
        for (size_t t = 0; t < sizeof counts / sizeof counts[0]; t++) {
            size_t n = counts[t];
            /* Row 0 begins the total, rows 1 .. n are merged. */
            memset(rec, 0, d->record_size);
            memcpy(iolens_rec_counters(rec), c, d->ncounters * sizeof *c);
            memcpy(iolens_rec_fcounters(d, rec), f, d->nfcounters * sizeof *f);
            iolens_record_merge_begin(d, want, rec);
            iolens_record_merge_begin(d, got, rec);
            for (size_t i = 1; i <= n; i++) {
                memcpy(iolens_rec_counters(rec), c + i * cs, d->ncounters * sizeof *c);
                memcpy(iolens_rec_fcounters(d, rec), f + i * fs, d->nfcounters * sizeof *f);
                iolens_record_merge_no_top(d, want, rec);
            }
            iolens_record_merge_rows_no_top(d, got, c + cs, cs, f + fs, fs, n, NULL);
            ck_assert_mem_eq(got, want, d->record_size);
        }
        free(c);
        free(f);
        free(rec);
        free(want);
        free(got);
    }
}
END_TEST

/* Counters flagged zero are merged as a single 0 without being read, and
 * that is what merging their rows of zeros gives, for every aggregation:
 * the rows hold 0 there, the flagged columns' cells of the rows handed
 * over hold a poison that must not be read.  Totals begun from a row with
 * -1s (a MAX begun at -1 becomes 0), with +/-0.0 and with positive
 * values. */
START_TEST(merge_rows_skips_zero_columns_with_the_same_result)
{
    static const int64_t first_values[] = {-1, 0, 7};
    for (unsigned l = 0; l < iolens_layer_desc_count(); l++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        size_t cs = d->ncounters, fs = d->nfcounters, n = 40;
        int64_t *c = calloc((n + 1) * cs + 1, sizeof *c), *poisoned = calloc(n * cs + 1, sizeof *c);
        double *f = calloc((n + 1) * fs + 1, sizeof *f), *fpoisoned = calloc(n * fs + 1, sizeof *f);
        unsigned char *zero = calloc(cs + fs + 1, 1);
        unsigned char *rec = calloc(1, d->record_size), *want = calloc(1, d->record_size),
                      *got = calloc(1, d->record_size);
        ck_assert_ptr_nonnull(zero);
        /* Every third counter zero in rows 1..n; the others vary. */
        for (size_t k = 0; k < cs + fs; k++)
            zero[k] = k % 3 == 1;
        for (size_t v = 0; v < sizeof first_values / sizeof first_values[0]; v++) {
            for (size_t i = 0; i <= n; i++) {
                for (uint32_t k = 0; k < cs; k++)
                    c[i * cs + k] = i == 0 ? first_values[v] : zero[k] ? 0 : row_value(i, k);
                for (uint32_t k = 0; k < fs; k++)
                    f[i * fs + k] = i == 0 ? (v == 1 ? -0.0 : (double)first_values[v])
                                    : zero[cs + k] ? 0.0
                                                   : (double)row_value(i, 1000 + k) * 0.25;
            }
            /* The slowest calls' sizes are merged from their rows' times
             * whatever the flags: those four columns keep their zeros. */
            for (size_t i = 0; i < n; i++) {
                for (uint32_t k = 0; k < cs; k++)
                    poisoned[i * cs + k] = zero[k] && (int)k != d->slowest_read_size &&
                                                   (int)k != d->slowest_write_size
                                               ? INT64_MAX
                                               : c[(i + 1) * cs + k];
                for (uint32_t k = 0; k < fs; k++)
                    fpoisoned[i * fs + k] = zero[cs + k] && (int)k != d->f_max_read_time &&
                                                    (int)k != d->f_max_write_time
                                                ? 1e300
                                                : f[(i + 1) * fs + k];
            }
            memset(rec, 0, d->record_size);
            memcpy(iolens_rec_counters(rec), c, cs * sizeof *c);
            memcpy(iolens_rec_fcounters(d, rec), f, fs * sizeof *f);
            iolens_record_merge_begin(d, want, rec);
            iolens_record_merge_begin(d, got, rec);
            iolens_record_merge_rows_no_top(d, want, c + cs, cs, f + fs, fs, n, NULL);
            iolens_record_merge_rows_no_top(d, got, poisoned, cs, fpoisoned, fs, n, zero);
            ck_assert_mem_eq(got, want, d->record_size);
        }
        free(c);
        free(poisoned);
        free(f);
        free(fpoisoned);
        free(zero);
        free(rec);
        free(want);
        free(got);
    }
}
END_TEST

static Suite *merge_suite(void)
{
    Suite *s = suite_create("record_merge");
    TCase *tc = tcase_create("descriptors");
    tcase_add_test(tc, descriptor_counts_match_the_enums);
    tcase_add_test(tc, descriptor_names_aggs_and_indexes);
    tcase_add_test(tc, pairings_follow_the_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("merge");
    tcase_add_test(tc, sum_adds_every_sum_counter_of_every_layer);
    tcase_add_test(tc, sum_saturates_instead_of_wrapping);
    tcase_add_test(tc, max_keeps_the_largest);
    tcase_add_test(tc, min_nonzero_ignores_zeros);
    tcase_add_test(tc, same_gives_minus_one_when_records_differ);
    tcase_add_test(tc, mode_of_a_shared_file_is_darshans);
    tcase_add_test(tc, top_state_follows_the_merge);
    tcase_add_test(tc, agree_keeps_the_common_pattern_parameter);
    tcase_add_test(tc, top_values_are_re_ranked_by_count_then_value);
    tcase_add_test(tc, top_ties_and_empty_slots);
    tcase_add_test(tc, mpiio_top_group_merges_too);
    tcase_add_test(tc, slowest_size_follows_the_slower_record);
    tcase_add_test(tc, rank_stats_counters_are_left_alone_and_begin_copies);
    suite_add_tcase(s, tc);
    tc = tcase_create("hdf5");
    tcase_add_test(tc, top_tables_of_both_layouts);
    tcase_add_test(tc, h5d_shapes_merge_as_tuples);
    tcase_add_test(tc, h5d_shapes_last_dimension_and_empty_slots);
    tcase_add_test(tc, h5d_same_sum_and_slowest);
    tcase_add_test(tc, h5f_rank_stats_without_io_counters);
    suite_add_tcase(s, tc);
    tc = tcase_create("rank_stats");
    tcase_add_test(tc, rank_stats_hand_computed_variance);
    tcase_add_test(tc, rank_stats_from_rows_as_from_records);
    tcase_add_test(tc, rank_stats_large_values_keep_precision);
    tcase_add_test(tc, rank_stats_ties_go_to_the_lowest_rank);
    tcase_add_test(tc, rank_stats_count_openers_and_io_ranks);
    tcase_add_test(tc, rank_stats_store_with_no_ranks);
    tcase_add_test(tc, fill_own_sharing_describes_the_record_itself);
    suite_add_tcase(s, tc);
    tc = tcase_create("merge_rows");
    tcase_add_test(tc, merge_rows_equals_merging_record_by_record);
    tcase_add_test(tc, merge_rows_skips_zero_columns_with_the_same_result);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(merge_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
