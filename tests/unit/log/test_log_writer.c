/* The log writer (lib/log/log_writer.c: iolens_log_write_file,
 * iolens_log_default_name, iolens_log_header_build) and the runtime's
 * region encoder (lib/log/log_regions.c), checked against logs built byte
 * by byte from the format's definition (tests/unit/reader/hand_log.c) and
 * read back with the reader. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/budget.h"
#include "core/file_table.h"
#include "iolens/log_format.h"
#include "log/log_regions.h"
#include "log/log_writer.h"
#include "reader/reader.h"
#include "format/record_merge.h"
#include "../reader/hand_log.h"

/* The real writer to a real file, read back by path. */
START_TEST(round_trip_writer_file)
{
    struct content c;
    standard_content(&c);
    struct iolens_region_src src[NREGIONS_STD];
    for (unsigned i = 0; i < NREGIONS_STD; i++)
        src[i] = (struct iolens_region_src){c.r[i].kind, c.r[i].version, c.r[i].raw.p,
                                            c.r[i].raw.len};
    char dir[] = "/tmp/iolens-test-reader-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[PATH_MAX], err[256] = "";
    snprintf(path, sizeof path, "%s/x.iolens", dir);
    ck_assert_int_eq(iolens_log_write_file(path, IOLENS_FLAG_PARTIAL, src, NREGIONS_STD, err,
                                           sizeof err), 0);
    free_content(&c);

    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 07777, 0400);
    struct iolens_log log;
    ck_assert_int_eq(iolens_log_read(path, &log, err, sizeof err), IOLENS_READ_OK);
    check_standard_log(&log);
    ck_assert_uint_eq(log.flags, IOLENS_FLAG_PARTIAL);
    iolens_log_free(&log);

    /* The temporary name is gone; only the log is left. */
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    ck_assert_int_eq(access(tmp, F_OK), -1);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(writer_reports_failure_and_leaves_nothing)
{
    struct iolens_region_src src = {IOLENS_REGION_JOB, 1, "x", 1};
    char err[256] = "";
    ck_assert_int_eq(iolens_log_write_file("/nonexistent-dir-iolens/x.iolens", 0, &src, 1, err,
                                           sizeof err), -1);
    ck_assert_str_eq(err, strerror(ENOENT));

    /* A stale file where the old fixed temporary name was: the writer's
     * temporary names are random (O_EXCL, retried), so it blocks nothing,
     * and it is not the writer's to remove. */
    char dir[] = "/tmp/iolens-test-reader-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[PATH_MAX], tmp[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/y.iolens", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    int fd = open(tmp, O_CREAT | O_WRONLY, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(iolens_log_write_file(path, 0, &src, 1, err, sizeof err), 0);
    ck_assert_int_eq(access(path, F_OK), 0);
    ck_assert_int_eq(access(tmp, F_OK), 0);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(unlink(tmp), 0);
    ck_assert_int_eq(rmdir(dir), 0);

    struct iolens_region_src *many = calloc(IOLENS_MAX_REGIONS + 1, sizeof *many);
    ck_assert_ptr_nonnull(many);
    for (unsigned i = 0; i <= IOLENS_MAX_REGIONS; i++)
        many[i] = src;
    ck_assert_int_eq(iolens_log_write_file("/tmp/never", 0, many, IOLENS_MAX_REGIONS + 1, err,
                                           sizeof err), -1);
    ck_assert_str_eq(err, "too many regions");
    free(many);
}
END_TEST

START_TEST(default_name)
{
    setenv("TZ", "UTC", 1);
    tzset();
    char out[PATH_MAX];
    ck_assert_int_eq(iolens_log_default_name(out, sizeof out, "/logs", "alice", "/usr/bin/my prog",
                                             "123.server", 1700000000, "0a1b2c3d", 4321), 0);
    ck_assert_str_eq(out, "/logs/alice_my-prog_123.server_20231114-221320_0a1b2c3d_4321.iolens");
    /* '/' inside a component, empty components. */
    ck_assert_int_eq(iolens_log_default_name(out, sizeof out, "/l", "", "", "a/b", 0, "t", 1), 0);
    ck_assert_str_eq(out, "/l/-_-_a-b_19700101-000000_t_1.iolens");
    /* Too small a buffer is an error, not a truncated name. */
    ck_assert_int_eq(iolens_log_default_name(out, 20, "/logs", "alice", "prog", "1", 0, "t", 1), -1);
}
END_TEST

/* The runtime's encoder writes exactly the layout above, with times
 * rounded to 2^-30 s and everything else bit for bit. */
START_TEST(encoder_layout_and_time_grid)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
    struct iolens_posix_record r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].id = 0x0102030405060708ull * (uint64_t)(i + 1);
        r[i].rank = i - 1;
        for (int k = 0; k < POSIX_NUM_COUNTERS; k++)
            r[i].counters[k] = (int64_t)(k * 1000003 + i) * (i == 1 ? -1 : 1);
        for (int k = 0; k < POSIX_F_NUM_COUNTERS; k++)
            r[i].fcounters[k] = 0.5 * k + 0.25 * i;   /* on the grid already */
    }
    struct iolens_buf out = {0};
    ck_assert_int_eq(iolens_build_layer_region(&out, d, r, 3), 0);
    struct bytes want = {0};
    put_layer(&want, POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, r, 3);
    ck_assert_uint_eq(out.len, want.len);
    ck_assert_int_eq(memcmp(out.data, want.p, want.len), 0);
    iolens_buf_free(&out);
    free(want.p);

    /* Off-grid times are rounded to the nearest multiple of 2^-30 s; the
     * variances (not seconds) are kept as they are. */
    double third = 1.0 / 3.0, tiny = 1e-12;
    r[0].fcounters[POSIX_F_READ_TIME] = third;
    r[0].fcounters[POSIX_F_OPEN_START_TIMESTAMP] = tiny;            /* rounds to 0 */
    r[0].fcounters[POSIX_F_SLOWEST_RANK_TIME] = 7e-10;             /* 0.75 * 2^-30: up to 2^-30 */
    r[0].fcounters[POSIX_F_VARIANCE_RANK_TIME] = tiny;
    r[0].fcounters[POSIX_F_VARIANCE_RANK_BYTES] = third;
    ck_assert_int_eq(iolens_build_layer_region(&out, d, r, 1), 0);
    struct content c;
    standard_content(&c);
    c.r[R_POSIX].raw.len = 0;
    put(&c.r[R_POSIX].raw, out.data, out.len);
    iolens_buf_free(&out);
    struct bytes file = assemble(&c);
    free_content(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    const double *f = log.layers[0].fcounters;
    double grid = 1.0 / 1073741824.0;
    ck_assert_double_eq(f[POSIX_F_READ_TIME], 357913941.0 * grid);   /* 2^30 / 3 = 357913941.33 */
    ck_assert_double_eq(f[POSIX_F_OPEN_START_TIMESTAMP], 0.0);
    ck_assert_double_eq(f[POSIX_F_SLOWEST_RANK_TIME], grid);
    ck_assert_double_eq(f[POSIX_F_VARIANCE_RANK_TIME], tiny);
    ck_assert_double_eq(f[POSIX_F_VARIANCE_RANK_BYTES], third);
    ck_assert_double_eq(f[POSIX_F_META_TIME], 0.5 * POSIX_F_META_TIME);
    ck_assert_int_eq(log.layers[0].rank[0], -1);
    ck_assert_int_eq(log.layers[0].counters[POSIX_MODE], POSIX_MODE * 1000003);
    iolens_log_free(&log);
    free(file.p);
}
END_TEST

/* Byte b of value i of column col of a layer region body with n records. */
static uint64_t stored_value(const struct iolens_buf *region, size_t n, size_t col, size_t i)
{
    const unsigned char *body = region->data + sizeof(struct iolens_layer_head);
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; b++)
        v |= (uint64_t)body[(col * 8 + b) * n + i] << (8 * b);
    return v;
}

static uint64_t real_hash_of_a(const char *path, size_t len)
{
    (void)path;
    (void)len;
    return XXH3_64bits("/w/a", 4);
}

/* The runtime's NAMES encoder: entries sorted by name, explicit ids only
 * where the id is not the name's hash (reserved names, an id re-derived
 * after a collision); layer records stored in the same name order. */
START_TEST(writer_names_and_record_order)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    ck_assert_int_eq(iolens_file_table_init(64), 0);
    struct iolens_file *b = iolens_file_get("/w/b", 4);
    struct iolens_file *a = iolens_file_get("/w/a", 4);
    iolens_file_table_set_hash_for_test(real_hash_of_a); /* "/w/z" collides with "/w/a" */
    struct iolens_file *z = iolens_file_get("/w/z", 4);
    iolens_file_table_set_hash_for_test(NULL);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(z);
    ck_assert_uint_eq(a->id, implied_id("/w/a"));
    ck_assert_uint_eq(b->id, implied_id("/w/b"));
    ck_assert_uint_ne(z->id, a->id);
    ck_assert_uint_ne(z->id, implied_id("/w/z"));

    /* ids in any order, with repeats and one id the table does not hold;
     * "/w/b" is in the table but not asked for. */
    uint64_t ids[] = {z->id, IOLENS_ID_STDOUT, a->id, 424242, z->id};
    struct iolens_buf out = {0};
    ck_assert_int_eq(iolens_build_names_region(&out, ids, 5), 0);
    struct bytes want = {0};
    put_u32(&want, 3);
    put_hashed_name(&want, "/w/a");
    put_name(&want, z->id, "/w/z");
    put_name(&want, IOLENS_ID_STDOUT, "<STDOUT>");
    ck_assert_uint_eq(out.len, want.len);
    ck_assert_int_eq(memcmp(out.data, want.p, want.len), 0);

    /* Read back in a log: every id finds its name. */
    struct content c;
    standard_content(&c);
    c.r[R_NAMES].raw.len = 0;
    put(&c.r[R_NAMES].raw, out.data, out.len);
    struct bytes file = assemble(&c);
    free_content(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.nnames, 3);
    ck_assert_str_eq(iolens_log_name_of(&log, a->id), "/w/a");
    ck_assert_str_eq(iolens_log_name_of(&log, z->id), "/w/z");
    ck_assert_str_eq(iolens_log_name_of(&log, IOLENS_ID_STDOUT), "<STDOUT>");
    iolens_log_free(&log);
    free(file.p);
    iolens_buf_free(&out);

    /* Layer records: by name, records of ids without a name last (by id). */
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
    struct iolens_posix_record r[5];
    memset(r, 0, sizeof r);
    uint64_t in_ids[5] = {900, z->id, IOLENS_ID_STDOUT, 800, a->id};
    for (int i = 0; i < 5; i++) {
        r[i].id = in_ids[i];
        r[i].counters[POSIX_OPENS] = i;
    }
    ck_assert_int_eq(iolens_build_layer_region(&out, d, r, 5), 0);
    uint64_t want_ids[5] = {a->id, z->id, IOLENS_ID_STDOUT, 800, 900};
    int64_t want_opens[5] = {4, 1, 2, 3, 0};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_uint_eq(stored_value(&out, 5, 0, i), want_ids[i]);
        ck_assert_uint_eq(stored_value(&out, 5, 2 + POSIX_OPENS, i), (uint64_t)want_opens[i]);
    }
    iolens_buf_free(&out);
    free(want.p);
    iolens_budget_fini();
}
END_TEST

/* iolens_log_header_build: the header the reader accepts, CRC over header
 * and table. */
START_TEST(header_build)
{
    struct iolens_region_desc t[2] = {
        {IOLENS_REGION_JOB, 1, 120, 10, 20, 0xabcd, IOLENS_COMPRESS_ZLIB},
        {IOLENS_REGION_NAMES, 1, 130, 5, 4, 0x1234, IOLENS_COMPRESS_ZLIB},
    };
    struct iolens_file_header h;
    memset(&h, 0x5a, sizeof h);
    iolens_log_header_build(&h, IOLENS_FLAG_PARTIAL, t, 2);
    ck_assert_int_eq(memcmp(h.magic, IOLENS_MAGIC, IOLENS_MAGIC_LEN), 0);
    ck_assert_uint_eq(h.version, IOLENS_FORMAT_VERSION);
    ck_assert_uint_eq(h.byte_order, IOLENS_BYTE_ORDER_MARK);
    ck_assert_uint_eq(h.flags, IOLENS_FLAG_PARTIAL);
    ck_assert_uint_eq(h.header_size, HDR);
    ck_assert_uint_eq(h.region_count, 2);
    ck_assert_uint_eq(h.reserved, 0);
    struct iolens_file_header z = h;
    z.header_crc = 0;
    uLong crc = crc32(0, (const Bytef *)&z, HDR);
    crc = crc32(crc, (const Bytef *)t, sizeof t);
    ck_assert_uint_eq(h.header_crc, (uint32_t)crc);
    iolens_log_header_build(&h, 0, t, 1);   /* the table is covered */
    ck_assert_uint_ne(h.header_crc, (uint32_t)crc);
    ck_assert_uint_eq(iolens_crc32(t, sizeof t), (uint32_t)crc32(0, (const Bytef *)t, sizeof t));
}
END_TEST

static Suite *log_writer_suite(void)
{
    Suite *s = suite_create("log_writer");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, round_trip_writer_file);
    tcase_add_test(tc, writer_reports_failure_and_leaves_nothing);
    tcase_add_test(tc, default_name);
    tcase_add_test(tc, encoder_layout_and_time_grid);
    tcase_add_test(tc, writer_names_and_record_order);
    tcase_add_test(tc, header_build);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(log_writer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
