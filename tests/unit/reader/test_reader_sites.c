/* The sites region (log_format.h) as the reader takes it: a hand-made
 * region read back and merged by module and offset, and every kind of
 * damage refused as corrupt. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hand_log.h"

struct sites_spec {
    int64_t rank;
    uint32_t reserved;
    uint32_t module_count;        /* claimed; the modules below are written */
    uint32_t path_len0;           /* 0: the real length */
    uint32_t build_id_len0;       /* of module 0 */
    int nul_in_path;
    int64_t entry_extra;          /* added to the claimed entry count */
    struct iolens_site_entry e[4];
    unsigned ne;
    uint32_t version;             /* IOLENS_SITES_VERSION or _VERSION_1 */
    int a_as_extra;               /* version 2: ID_A as an extra id, not a place */
    int64_t nextra_extra;         /* version 2: added to the claimed extra ids */
    uint64_t record0;             /* version 2: entry 0's record value if not 0 */
};

/* Version 2's record column value of id (log_format.h): the names block
 * of standard_content holds ID_C, ID_A and ID_B, in that order. */
static uint64_t record_value(const struct sites_spec *s, uint64_t id)
{
    uint64_t nextra = s->a_as_extra ? 1 : 0;
    if (id == ID_A)
        return IOLENS_IV_FIRST_PLACE + (s->a_as_extra ? 0 : nextra + 1);
    if (id == ID_B)
        return IOLENS_IV_FIRST_PLACE + nextra + 2;
    return id;
}

/* Version 2's extra ids and columns of s's entries. */
static void put_site_columns(struct bytes *b, const struct sites_spec *s)
{
    put_u64(b, (uint64_t)((int64_t)(s->a_as_extra ? 1 : 0) + s->nextra_extra));
    if (s->a_as_extra)
        put_u64(b, ID_A);
    uint64_t v[4];
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = i == 0 && s->record0 ? s->record0 : record_value(s, s->e[i].record_id);
    put_planes(b, v, s->ne, 8);
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = s->e[i].layer_kind;
    put_planes(b, v, s->ne, 4);
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = s->e[i].module;
    put_planes(b, v, s->ne, 4);
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = s->e[i].offset;
    put_planes(b, v, s->ne, 8);
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = s->e[i].ops;
    put_planes(b, v, s->ne, 8);
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = (uint64_t)s->e[i].bytes;
    put_planes(b, v, s->ne, 8);
    for (unsigned i = 0; i < s->ne; i++)
        v[i] = (uint64_t)(s->e[i].time * 1e9 + 0.5);
    put_planes(b, v, s->ne, 8);
}

/* Two modules with the same path and build-id (a reader keeps one), and
 * four entries of ID_A's POSIX record: site 0x10 of module 0 (100 bytes,
 * 2 calls), the same site as module 1 (50, 1), site 0x20 (300, 1) and the
 * other bucket (5, 1). */
static struct sites_spec good_spec(void)
{
    struct sites_spec s = {.rank = 0, .module_count = 2, .ne = 4, .version = IOLENS_SITES_VERSION};
    s.e[0] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, 0, 0x10, 2, 100, 0.5};
    s.e[1] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, 1, 0x10, 1, 50, 0.25};
    s.e[2] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, 0, 0x20, 1, 300, 1.0};
    s.e[3] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, IOLENS_SITE_OTHER, 0, 1, 5,
                                        0.125};
    return s;
}

static struct bytes sites_raw(const struct sites_spec *s)
{
    struct bytes b = {0};
    struct iolens_sites_head h = {s->rank, s->module_count, s->reserved,
                                  (uint64_t)((int64_t)s->ne + s->entry_extra)};
    put(&b, &h, sizeof h);
    const char *path = s->nul_in_path ? "/bin/a\0pp" : "/bin/app";
    const unsigned char id[4] = {1, 2, 3, 4};
    for (int m = 0; m < 2; m++) {
        uint32_t plen = m == 0 && s->path_len0 ? s->path_len0 : 8;
        uint32_t blen = m == 0 && s->build_id_len0 ? s->build_id_len0 : 4;
        put_u32(&b, plen);
        put_u32(&b, blen);
        put(&b, path, plen <= 8 ? plen : 8);
        put(&b, id, blen <= 4 ? blen : 4);
    }
    if (s->version == IOLENS_SITES_VERSION_1)
        put(&b, s->e, s->ne * sizeof s->e[0]);
    else
        put_site_columns(&b, s);
    return b;
}

static enum iolens_read_status read_with(const struct sites_spec *s, struct iolens_log *log)
{
    struct content c;
    standard_content(&c);
    struct bytes raw = sites_raw(s);
    c.r[c.n++] = (struct region){IOLENS_REGION_SITES, s->version, raw};
    struct bytes file = assemble(&c);
    free_content(&c);
    enum iolens_read_status st = read_bytes(file.p, file.len, log);
    free(file.p);
    return st;
}

static enum iolens_read_status status_with(const struct sites_spec *s)
{
    struct iolens_log log;
    enum iolens_read_status st = read_with(s, &log);
    iolens_log_free(&log);
    return st;
}

/* Loop tests: _i 0 the current layout, 1 version 1, 2 the current
 * layout with the record named by an extra id instead of a place. */
static struct sites_spec spec_for(int i)
{
    struct sites_spec s = good_spec();
    if (i == 1)
        s.version = IOLENS_SITES_VERSION_1;
    s.a_as_extra = i == 2;
    return s;
}

START_TEST(sites_read_and_merged)
{
    struct sites_spec s = spec_for(_i);
    struct iolens_log log;
    ck_assert_int_eq(read_with(&s, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.nsite_modules, 1);
    ck_assert_str_eq(log.site_modules[0].path, "/bin/app");
    ck_assert_uint_eq(log.site_modules[0].build_id_len, 4);
    ck_assert_uint_eq(log.nsites, 4);
    struct iolens_log_site out[IOLENS_SITES_LOGGED + 1];
    size_t n = iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_A, 0, out);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(out[0].offset, 0x20);
    ck_assert_int_eq(out[0].bytes, 300);
    ck_assert_uint_eq(out[1].offset, 0x10); /* the two entries of one site, merged */
    ck_assert_int_eq(out[1].bytes, 150);
    ck_assert_uint_eq(out[1].ops, 3);
    ck_assert_double_eq(out[1].time, 0.75);
    ck_assert_uint_eq(out[2].module, IOLENS_SITE_OTHER);
    ck_assert_int_eq(out[2].bytes, 5);
    /* Another record, another layer: none. */
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_B, 0, out), 0);
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_STDIO, ID_A, 0, out), 0);
    /* A record is found by id and layer in any rank's region: the record
     * of rank 3 that its file's writer (here rank 0) wrote. */
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_A, 3, out), 3);
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_A, IOLENS_RANK_ALL,
                                              out), 3);
    iolens_log_free(&log);
}
END_TEST

/* More than IOLENS_SITES_LOGGED sites: the rest join the other bucket. */
START_TEST(sites_beyond_the_top_join_other)
{
    struct sites_spec s = spec_for(_i);
    s.e[1].offset = 0x30;
    s.e[3] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, 1, 0x40, 7, 70, 0.0};
    struct iolens_log log;
    ck_assert_int_eq(read_with(&s, &log), IOLENS_READ_OK);
    struct iolens_log_site out[IOLENS_SITES_LOGGED + 1];
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_A, 0, out), 4);
    ck_assert_int_eq(out[0].bytes, 300);
    ck_assert_int_eq(out[3].bytes, 50);
    iolens_log_free(&log);
}
END_TEST

START_TEST(damaged_sites_are_corrupt)
{
    struct sites_spec s;
#define CORRUPT(edit)                                                    \
    do {                                                                 \
        s = spec_for(_i);                                                \
        edit;                                                            \
        ck_assert_int_eq(status_with(&s), IOLENS_READ_CORRUPT);          \
    } while (0)
    CORRUPT(s.reserved = 1);
    CORRUPT(s.rank = 1);                  /* the job has 1 rank */
    CORRUPT(s.rank = -1);
    CORRUPT(s.module_count = 1000000);
    CORRUPT(s.module_count = 3);
    CORRUPT(s.path_len0 = 0x7fffffff);
    CORRUPT(s.build_id_len0 = IOLENS_SITES_BUILD_ID_MAX + 1);
    CORRUPT(s.nul_in_path = 1);
    CORRUPT(s.entry_extra = 1);
    CORRUPT(s.entry_extra = -1);
    CORRUPT(s.entry_extra = (int64_t)(UINT64_MAX / 48));
    CORRUPT(s.e[0].module = 2);
    CORRUPT(s.e[3].offset = 1);
    CORRUPT(s.e[0].bytes = -1);
    CORRUPT(s.e[0].layer_kind = 99);
    if (s.version == IOLENS_SITES_VERSION_1) { /* version 2 stores no NaN nor sign */
        CORRUPT(s.e[0].time = NAN);
        CORRUPT(s.e[0].time = -1.0);
    } else {
        CORRUPT(s.nextra_extra = 1);
        CORRUPT(s.nextra_extra = (int64_t)(UINT64_MAX / 8));
        /* A place past the names block (of 3), and far past it. */
        CORRUPT(s.record0 = IOLENS_IV_FIRST_PLACE + (uint64_t)s.a_as_extra + 3);
        CORRUPT(s.record0 = IOLENS_IV_FIRST_PLACE + 1000000);
    }
#undef CORRUPT
    s = spec_for(_i);
    ck_assert_int_eq(status_with(&s), IOLENS_READ_OK);
}
END_TEST

/* Two records' entries interleaved in the region, and a reserved id
 * among them: the reader's index (sorted by record and layer) gives each
 * record exactly its own. */
START_TEST(interleaved_records_each_get_their_own)
{
    struct sites_spec s = spec_for(_i);
    s.e[0] = (struct iolens_site_entry){ID_B, IOLENS_REGION_POSIX, 0, 0x10, 1, 7, 0.0};
    s.e[1] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, 0, 0x10, 2, 100, 0.0};
    s.e[2] = (struct iolens_site_entry){3, IOLENS_REGION_POSIX, 0, 0x30, 4, 9, 0.0};
    s.e[3] = (struct iolens_site_entry){ID_A, IOLENS_REGION_POSIX, 0, 0x20, 1, 300, 0.0};
    struct iolens_log log;
    ck_assert_int_eq(read_with(&s, &log), IOLENS_READ_OK);
    struct iolens_log_site out[IOLENS_SITES_LOGGED + 1];
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_A, 0, out), 2);
    ck_assert_int_eq(out[0].bytes, 300);
    ck_assert_int_eq(out[1].bytes, 100);
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_B, 0, out), 1);
    ck_assert_int_eq(out[0].bytes, 7);
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, 3, 0, out), 1);
    ck_assert_uint_eq(out[0].ops, 4);
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_STDIO, ID_A, 0, out), 0);
    iolens_log_free(&log);
}
END_TEST

/* Version 2: a reserved id (<STDOUT>'s) is stored as it is, not as a
 * place; it reads back as that record's site. */
START_TEST(a_reserved_record_is_its_own_id)
{
    struct sites_spec s = good_spec();
    s.ne = 1;
    s.e[0].record_id = 3;
    struct iolens_log log;
    ck_assert_int_eq(read_with(&s, &log), IOLENS_READ_OK);
    struct iolens_log_site out[IOLENS_SITES_LOGGED + 1];
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, 3, 0, out), 1);
    ck_assert_int_eq(out[0].bytes, 100);
    ck_assert_uint_eq(iolens_log_record_sites(&log, IOLENS_REGION_POSIX, ID_A, 0, out), 0);
    iolens_log_free(&log);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("reader_sites");
    TCase *tc = tcase_create("sites");
    tcase_add_loop_test(tc, sites_read_and_merged, 0, 3);
    tcase_add_loop_test(tc, sites_beyond_the_top_join_other, 0, 3);
    tcase_add_loop_test(tc, damaged_sites_are_corrupt, 0, 3);
    tcase_add_test(tc, a_reserved_record_is_its_own_id);
    tcase_add_loop_test(tc, interleaved_records_each_get_their_own, 0, 3);
    suite_add_tcase(suite, tc);
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
