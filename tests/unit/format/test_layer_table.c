/* What IOLENS_LAYERS (include/iolens/log_format.h) generates: the layer
 * indexes, region kinds, record types and descriptors agree with each
 * other, and every role of a descriptor points at the counter of that
 * meaning, checked by the name Darshan and iolens-log(5) give it (not by
 * the enum the table itself names). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format/record_merge.h"
#include "iolens/log_format.h"

/* The layers as iolens-log(5) lists them: name, region kind (stable on
 * disk), carries data, base layer. */
struct expected_layer {
    const char *name;
    uint32_t kind;
    int data, base;
};

static const struct expected_layer expected[] = {
    {"POSIX", 16, 1, 1}, {"STDIO", 17, 1, 1}, {"MPIIO", 18, 1, 0},
    {"H5F", 19, 0, 0},   {"H5D", 20, 1, 0},
};
#define NEXPECTED (sizeof expected / sizeof expected[0])

START_TEST(layer_indexes_kinds_and_descriptors_agree)
{
    ck_assert_uint_eq(IOLENS_NLAYERS, NEXPECTED);
    ck_assert_uint_eq(iolens_layer_desc_count(), NEXPECTED);
    ck_assert_uint_eq(IOLENS_NDATA_LAYERS, 4);
    const unsigned index[] = {IOLENS_LAYER_POSIX, IOLENS_LAYER_STDIO, IOLENS_LAYER_MPIIO,
                              IOLENS_LAYER_H5F, IOLENS_LAYER_H5D};
    const uint32_t kind[] = {IOLENS_REGION_POSIX, IOLENS_REGION_STDIO, IOLENS_REGION_MPIIO,
                             IOLENS_REGION_H5F, IOLENS_REGION_H5D};
    const size_t size[] = {sizeof(struct iolens_posix_record), sizeof(struct iolens_stdio_record),
                           sizeof(struct iolens_mpiio_record), sizeof(struct iolens_h5f_record),
                           sizeof(struct iolens_h5d_record)};
    const uint32_t version[] = {IOLENS_POSIX_VERSION, IOLENS_STDIO_VERSION, IOLENS_MPIIO_VERSION,
                                IOLENS_H5F_VERSION, IOLENS_H5D_VERSION};
    for (unsigned i = 0; i < NEXPECTED; i++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(index[i]);
        ck_assert_ptr_nonnull(d);
        ck_assert_uint_eq(index[i], i);
        ck_assert_str_eq(d->name, expected[i].name);
        ck_assert_uint_eq(d->region_kind, expected[i].kind);
        ck_assert_uint_eq(kind[i], expected[i].kind);
        ck_assert_ptr_eq(iolens_layer_desc_by_kind(kind[i]), d);
        ck_assert_uint_eq(iolens_layer_desc_index(d), i);
        ck_assert_uint_eq(iolens_layer_region_kind(i), expected[i].kind);
        ck_assert_uint_eq(d->version, version[i]);
        ck_assert_uint_eq(d->record_size, size[i]);
        ck_assert_uint_eq(d->record_size, 16 + 8 * (size_t)(d->ncounters + d->nfcounters));
        ck_assert_int_eq(d->carries_data, expected[i].data);
        ck_assert_int_eq(d->base, expected[i].base);
    }
    ck_assert_ptr_null(iolens_layer_desc_at(NEXPECTED));
    ck_assert_uint_eq(iolens_layer_region_kind(NEXPECTED), 0);
    ck_assert_ptr_null(iolens_layer_desc_by_kind(IOLENS_REGION_INTERVALS));
    ck_assert_ptr_null(iolens_layer_desc_by_kind(21));
    /* the other region kinds keep their numbers */
    ck_assert_int_eq(IOLENS_REGION_JOB, 1);
    ck_assert_int_eq(IOLENS_REGION_INTERVALS, 5);
}
END_TEST

START_TEST(data_layers_walk_in_table_order)
{
    static const char *const names[] = {"POSIX", "STDIO", "MPIIO", "H5D"};
    for (unsigned i = 0; i < 4; i++) {
        const struct iolens_layer_desc *d = iolens_data_layer_at(i);
        ck_assert_ptr_nonnull(d);
        ck_assert_str_eq(d->name, names[i]);
        ck_assert_int_eq(iolens_data_layer_index(d->region_kind), (int)i);
    }
    ck_assert_ptr_null(iolens_data_layer_at(4));
    ck_assert_int_eq(iolens_data_layer_index(IOLENS_REGION_H5F), -1);
    ck_assert_int_eq(iolens_data_layer_index(IOLENS_REGION_NAMES), -1);
    ck_assert_int_eq(iolens_data_layer_index(99), -1);
}
END_TEST

/* The counter name at a role's index, "-" when the layer lacks it. */
static const char *counter_at(const struct iolens_layer_desc *d, int i)
{
    if (i < 0)
        return "-";
    ck_assert_int_lt(i, (int)d->ncounters);
    return d->counter_names[i];
}

static const char *fcounter_at(const struct iolens_layer_desc *d, int i)
{
    if (i < 0)
        return "-";
    ck_assert_int_lt(i, (int)d->nfcounters);
    return d->fcounter_names[i];
}

/* Expected roles of one layer, by counter name ("-": none). */
struct expected_roles {
    const char *opens0, *opens1, *reads, *writes, *bytes_read, *bytes_written;
    const char *max_byte_read, *max_byte_written, *size_read_first, *size_write_first;
    const char *access_first, *pattern_first, *slowest_read_size, *slowest_write_size;
    const char *ranks_opened;
    const char *read_ops[4], *write_ops[4];
    const char *f_open_start, *f_open_end, *f_read_start, *f_read_end;
    const char *f_write_start, *f_write_end, *f_close_start, *f_close_end;
    const char *read_time, *write_time, *meta_time, *f_max_read_time, *f_max_write_time;
    const char *f_fastest_rank_time;
};

#define TIMESTAMPS(L)                                                                   \
    L "_F_OPEN_START_TIMESTAMP", L "_F_OPEN_END_TIMESTAMP", L "_F_READ_START_TIMESTAMP", \
        L "_F_READ_END_TIMESTAMP", L "_F_WRITE_START_TIMESTAMP", L "_F_WRITE_END_TIMESTAMP", \
        L "_F_CLOSE_START_TIMESTAMP", L "_F_CLOSE_END_TIMESTAMP"

static const struct expected_roles roles[] = {
    {"POSIX_OPENS", "-", "POSIX_READS", "POSIX_WRITES", "POSIX_BYTES_READ",
     "POSIX_BYTES_WRITTEN", "POSIX_MAX_BYTE_READ", "POSIX_MAX_BYTE_WRITTEN",
     "POSIX_SIZE_READ_0_100", "POSIX_SIZE_WRITE_0_100", "POSIX_ACCESS1_ACCESS",
     "POSIX_PAT_STEPS", "POSIX_MAX_READ_TIME_SIZE", "POSIX_MAX_WRITE_TIME_SIZE",
     "POSIX_RANKS_OPENED", {"POSIX_READS", "-", "-", "-"}, {"POSIX_WRITES", "-", "-", "-"},
     TIMESTAMPS("POSIX"), "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME",
     "POSIX_F_MAX_READ_TIME", "POSIX_F_MAX_WRITE_TIME", "POSIX_F_FASTEST_RANK_TIME"},
    {"STDIO_OPENS", "-", "STDIO_READS", "STDIO_WRITES", "STDIO_BYTES_READ",
     "STDIO_BYTES_WRITTEN", "STDIO_MAX_BYTE_READ", "STDIO_MAX_BYTE_WRITTEN", "-", "-", "-", "-",
     "-", "-", "STDIO_RANKS_OPENED", {"STDIO_READS", "-", "-", "-"},
     {"STDIO_WRITES", "-", "-", "-"}, TIMESTAMPS("STDIO"), "STDIO_F_READ_TIME",
     "STDIO_F_WRITE_TIME", "STDIO_F_META_TIME", "-", "-", "STDIO_F_FASTEST_RANK_TIME"},
    {"MPIIO_INDEP_OPENS", "MPIIO_COLL_OPENS", "MPIIO_INDEP_READS", "MPIIO_INDEP_WRITES",
     "MPIIO_BYTES_READ", "MPIIO_BYTES_WRITTEN", "-", "-", "MPIIO_SIZE_READ_AGG_0_100",
     "MPIIO_SIZE_WRITE_AGG_0_100", "MPIIO_ACCESS1_ACCESS", "MPIIO_PAT_STEPS",
     "MPIIO_MAX_READ_TIME_SIZE", "MPIIO_MAX_WRITE_TIME_SIZE", "MPIIO_RANKS_OPENED",
     {"MPIIO_INDEP_READS", "MPIIO_COLL_READS", "MPIIO_SPLIT_READS", "MPIIO_NB_READS"},
     {"MPIIO_INDEP_WRITES", "MPIIO_COLL_WRITES", "MPIIO_SPLIT_WRITES", "MPIIO_NB_WRITES"},
     TIMESTAMPS("MPIIO"), "MPIIO_F_READ_TIME", "MPIIO_F_WRITE_TIME", "MPIIO_F_META_TIME",
     "MPIIO_F_MAX_READ_TIME", "MPIIO_F_MAX_WRITE_TIME", "MPIIO_F_FASTEST_RANK_TIME"},
    {"H5F_OPENS", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
     "H5F_RANKS_OPENED", {"-", "-", "-", "-"}, {"-", "-", "-", "-"},
     "H5F_F_OPEN_START_TIMESTAMP", "H5F_F_OPEN_END_TIMESTAMP", "-", "-", "-", "-",
     "H5F_F_CLOSE_START_TIMESTAMP", "H5F_F_CLOSE_END_TIMESTAMP", "-", "-", "H5F_F_META_TIME",
     "-", "-", "H5F_F_FASTEST_RANK_TIME"},
    {"H5D_OPENS", "-", "H5D_READS", "H5D_WRITES", "H5D_BYTES_READ", "H5D_BYTES_WRITTEN", "-",
     "-", "H5D_SIZE_READ_AGG_0_100", "H5D_SIZE_WRITE_AGG_0_100", "H5D_ACCESS1_ACCESS", "-",
     "H5D_MAX_READ_TIME_SIZE", "H5D_MAX_WRITE_TIME_SIZE", "H5D_RANKS_OPENED",
     {"H5D_READS", "-", "-", "-"}, {"H5D_WRITES", "-", "-", "-"}, TIMESTAMPS("H5D"),
     "H5D_F_READ_TIME", "H5D_F_WRITE_TIME", "H5D_F_META_TIME", "H5D_F_MAX_READ_TIME",
     "H5D_F_MAX_WRITE_TIME", "H5D_F_FASTEST_RANK_TIME"},
};

START_TEST(roles_point_at_the_counters_of_their_meaning)
{
    ck_assert_uint_eq(sizeof roles / sizeof roles[0], NEXPECTED);
    for (unsigned l = 0; l < NEXPECTED; l++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        const struct expected_roles *e = &roles[l];
        ck_assert_str_eq(counter_at(d, d->opens[0]), e->opens0);
        ck_assert_str_eq(counter_at(d, d->opens[1]), e->opens1);
        ck_assert_str_eq(counter_at(d, d->reads), e->reads);
        ck_assert_str_eq(counter_at(d, d->writes), e->writes);
        ck_assert_str_eq(counter_at(d, d->bytes_read), e->bytes_read);
        ck_assert_str_eq(counter_at(d, d->bytes_written), e->bytes_written);
        ck_assert_str_eq(counter_at(d, d->max_byte_read), e->max_byte_read);
        ck_assert_str_eq(counter_at(d, d->max_byte_written), e->max_byte_written);
        ck_assert_str_eq(counter_at(d, d->size_read_first), e->size_read_first);
        ck_assert_str_eq(counter_at(d, d->size_write_first), e->size_write_first);
        ck_assert_str_eq(counter_at(d, d->access_first), e->access_first);
        ck_assert_str_eq(counter_at(d, d->pattern_first), e->pattern_first);
        ck_assert_str_eq(counter_at(d, d->file_rec_id),
                         strcmp(d->name, "H5D") == 0 ? "H5D_FILE_REC_ID" : "-");
        ck_assert_str_eq(counter_at(d, d->slowest_read_size), e->slowest_read_size);
        ck_assert_str_eq(counter_at(d, d->slowest_write_size), e->slowest_write_size);
        ck_assert_str_eq(counter_at(d, d->ranks_opened), e->ranks_opened);
        for (int i = 0; i < 4; i++) {
            ck_assert_str_eq(counter_at(d, d->read_ops[i]), e->read_ops[i]);
            ck_assert_str_eq(counter_at(d, d->write_ops[i]), e->write_ops[i]);
        }
        ck_assert_str_eq(fcounter_at(d, d->f_open_start), e->f_open_start);
        ck_assert_str_eq(fcounter_at(d, d->f_open_end), e->f_open_end);
        ck_assert_str_eq(fcounter_at(d, d->f_read_start), e->f_read_start);
        ck_assert_str_eq(fcounter_at(d, d->f_read_end), e->f_read_end);
        ck_assert_str_eq(fcounter_at(d, d->f_write_start), e->f_write_start);
        ck_assert_str_eq(fcounter_at(d, d->f_write_end), e->f_write_end);
        ck_assert_str_eq(fcounter_at(d, d->f_close_start), e->f_close_start);
        ck_assert_str_eq(fcounter_at(d, d->f_close_end), e->f_close_end);
        ck_assert_str_eq(fcounter_at(d, d->read_time), e->read_time);
        ck_assert_str_eq(fcounter_at(d, d->write_time), e->write_time);
        ck_assert_str_eq(fcounter_at(d, d->meta_time), e->meta_time);
        ck_assert_str_eq(fcounter_at(d, d->f_max_read_time), e->f_max_read_time);
        ck_assert_str_eq(fcounter_at(d, d->f_max_write_time), e->f_max_write_time);
        ck_assert_str_eq(fcounter_at(d, d->f_fastest_rank_time), e->f_fastest_rank_time);
        /* the slowest-operation pairs the merge follows */
        ck_assert_int_eq(iolens_record_slowest_time_index(d, d->slowest_read_size),
                         d->slowest_read_size >= 0 ? d->f_max_read_time : -1);
        ck_assert_int_eq(iolens_record_slowest_time_index(d, d->slowest_write_size),
                         d->slowest_write_size >= 0 ? d->f_max_write_time : -1);
    }
}
END_TEST

/* The bins as iolens-log(5) and Darshan name them, the upper bounds, and
 * the description of each read bin. */
static const char *const bin_suffix[] = {"0_100",  "100_1K",   "1K_10K",  "10K_100K",
                                         "100K_1M", "1M_4M",   "4M_10M",  "10M_100M",
                                         "100M_1G", "1G_PLUS"};
static const char *const bin_desc[] = {
    "reads of 0-100 bytes",   "reads of 101 bytes-1 KiB", "reads of 1-10 KiB",
    "reads of 10-100 KiB",    "reads of 100 KiB-1 MiB",   "reads of 1-4 MiB",
    "reads of 4-10 MiB",      "reads of 10-100 MiB",      "reads of 100 MiB-1 GiB",
    "reads over 1 GiB"};

START_TEST(size_bins_are_named_and_described_in_order)
{
    ck_assert_int_eq(IOLENS_NSIZE_BINS, 10);
    const int64_t upper[] = {100, 1024, 10240, 102400, 1048576, 4194304, 10485760,
                             104857600, 1073741824, INT64_MAX};
    int b = 0;
#define CHECK_BIN(suffix, bound) \
    ck_assert_int_eq((int64_t)(bound), upper[b]); \
    b++;
    IOLENS_SIZE_BINS(CHECK_BIN)
#undef CHECK_BIN
    ck_assert_int_eq(b, 10);
    int layers_with_bins = 0;
    for (unsigned l = 0; l < NEXPECTED; l++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        if (d->size_read_first < 0)
            continue;
        layers_with_bins++;
        /* POSIX: <L>_SIZE_READ_<bin>; MPIIO and H5D: <L>_SIZE_READ_AGG_<bin> */
        const char *agg = strcmp(d->name, "POSIX") == 0 ? "" : "AGG_";
        for (int i = 0; i < IOLENS_NSIZE_BINS; i++) {
            char name[64], wname[64], wdesc[64];
            snprintf(name, sizeof name, "%s_SIZE_READ_%s%s", d->name, agg, bin_suffix[i]);
            snprintf(wname, sizeof wname, "%s_SIZE_WRITE_%s%s", d->name, agg, bin_suffix[i]);
            snprintf(wdesc, sizeof wdesc, "writes%s", bin_desc[i] + strlen("reads"));
            ck_assert_str_eq(d->counter_names[d->size_read_first + i], name);
            ck_assert_str_eq(d->counter_names[d->size_write_first + i], wname);
            ck_assert_str_eq(d->counter_descs[d->size_read_first + i], bin_desc[i]);
            ck_assert_str_eq(d->counter_descs[d->size_write_first + i], wdesc);
            ck_assert_int_eq(d->agg[d->size_read_first + i], IOLENS_AGG_SUM);
        }
    }
    ck_assert_int_eq(layers_with_bins, 3);
}
END_TEST

START_TEST(chart_labels_come_from_the_bin_table)
{
    static const char *const labels[] = {"0-100 B",  "101 B-1 KiB", "1-10 KiB",
                                         "10-100 KiB", "100 KiB-1 MiB", "1-4 MiB",
                                         "4-10 MiB", "10-100 MiB", "100 MiB-1 GiB",
                                         "over 1 GiB"};
    int b = 0;
#define CHECK_LABEL(P, suffix, bound, range, label) \
    ck_assert_str_eq(label, labels[b]);              \
    ck_assert_str_eq("reads " range, bin_desc[b]);   \
    ck_assert_str_eq(#suffix, bin_suffix[b]);        \
    b++;
    IOLENS_SIZE_BIN_TABLE(CHECK_LABEL, ~)
#undef CHECK_LABEL
    ck_assert_int_eq(b, 10);
}
END_TEST

static Suite *layer_table_suite(void)
{
    Suite *s = suite_create("layer_table");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, layer_indexes_kinds_and_descriptors_agree);
    tcase_add_test(tc, data_layers_walk_in_table_order);
    tcase_add_test(tc, roles_point_at_the_counters_of_their_meaning);
    tcase_add_test(tc, size_bins_are_named_and_described_in_order);
    tcase_add_test(tc, chart_labels_come_from_the_bin_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(layer_table_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
