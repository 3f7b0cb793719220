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
#include "reader/reader_stream.h"
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

static uint64_t zz(int64_t k)
{
    return k >= 0 ? (uint64_t)k * 2 : (uint64_t)(-(k + 1)) * 2 + 1;
}

/* A POSIX layer region of version 3 from the format's definition
 * (log_format.h), for records whose times are all on the grid and not
 * -0.0: ids raw, times in ticks, those with refs from them. */
static void put_posix_v3(struct bytes *b, const struct iolens_posix_record *r, size_t n)
{
    enum { CC = POSIX_NUM_COUNTERS, FC = POSIX_F_NUM_COUNTERS };
    struct iolens_layer_head h = {CC, FC, n};
    put(b, &h, sizeof h);
    /* Each fcounter's refs (-1: none; -2: not seconds, raw). */
    int refs[FC][3];
    for (int k = 0; k < FC; k++)
        refs[k][0] = refs[k][1] = refs[k][2] = -1;
    refs[POSIX_F_READ_START_TIMESTAMP][0] = POSIX_F_OPEN_START_TIMESTAMP;
    refs[POSIX_F_WRITE_START_TIMESTAMP][0] = POSIX_F_OPEN_START_TIMESTAMP;
    refs[POSIX_F_CLOSE_START_TIMESTAMP][0] = POSIX_F_OPEN_START_TIMESTAMP;
    refs[POSIX_F_OPEN_END_TIMESTAMP][0] = POSIX_F_OPEN_START_TIMESTAMP;
    refs[POSIX_F_READ_END_TIMESTAMP][0] = POSIX_F_READ_START_TIMESTAMP;
    refs[POSIX_F_WRITE_END_TIMESTAMP][0] = POSIX_F_WRITE_START_TIMESTAMP;
    refs[POSIX_F_CLOSE_END_TIMESTAMP][0] = POSIX_F_CLOSE_START_TIMESTAMP;
    refs[POSIX_F_MAX_READ_TIME][0] = POSIX_F_READ_TIME;
    refs[POSIX_F_MAX_WRITE_TIME][0] = POSIX_F_WRITE_TIME;
    for (int k = POSIX_F_FASTEST_RANK_TIME; k <= POSIX_F_SLOWEST_RANK_TIME; k++) {
        refs[k][0] = POSIX_F_READ_TIME;
        refs[k][1] = POSIX_F_WRITE_TIME;
        refs[k][2] = POSIX_F_META_TIME;
    }
    refs[POSIX_F_VARIANCE_RANK_TIME][0] = refs[POSIX_F_VARIANCE_RANK_BYTES][0] = -2;
    unsigned char codes[2 + CC + FC] = {0};
    for (int k = 0; k < FC; k++)
        codes[2 + CC + k] = refs[k][0] == -2   ? IOLENS_COL_RAW
                            : refs[k][0] == -1 ? IOLENS_COL_TICKS
                                               : IOLENS_COL_TICKS_FROM_REF;
    put(b, codes, sizeof codes);
    for (int col = 0; col < 2 + CC + FC; col++) {
        uint64_t v[8];
        ck_assert_uint_le(n, 8);
        for (size_t i = 0; i < n; i++) {
            const double *f = r[i].fcounters;
            int k = col - 2 - CC;
            if (col == 0)
                v[i] = r[i].id;
            else if (col == 1)
                v[i] = (uint64_t)r[i].rank;
            else if (k < 0)
                v[i] = (uint64_t)r[i].counters[col - 2];
            else if (codes[col] == IOLENS_COL_RAW)
                memcpy(&v[i], &f[k], sizeof v[i]);
            else if (codes[col] == IOLENS_COL_TICKS)
                v[i] = zz((int64_t)(f[k] * 1073741824.0));
            else if (f[k] == 0)
                v[i] = 0;
            else {
                int64_t t = (int64_t)(f[k] * 1073741824.0);
                for (int j = 0; j < 3 && refs[k][j] >= 0; j++)
                    t -= (int64_t)(f[refs[k][j]] * 1073741824.0);
                v[i] = zz(t) + 1;
            }
        }
        for (unsigned byte = 0; byte < 8; byte++)
            for (size_t i = 0; i < n; i++) {
                unsigned char x = (unsigned char)(v[i] >> (8 * byte));
                put(b, &x, 1);
            }
    }
}

/* The runtime's encoder writes exactly the layout above, with times
 * rounded to 2^-30 s and everything else bit for bit, and the reader
 * gives the records back bit for bit. */
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
    r[1].fcounters[POSIX_F_WRITE_END_TIMESTAMP] = 0; /* a time that never was */
    r[2].fcounters[POSIX_F_OPEN_END_TIMESTAMP] = 0.25; /* before its start */
    ck_assert_int_eq(iolens_build_layer_region(&out, d, r, 3), 0);
    struct bytes want = {0};
    put_posix_v3(&want, r, 3);
    ck_assert_uint_eq(out.len, want.len);
    ck_assert_int_eq(memcmp(out.data, want.p, want.len), 0);
    free(want.p);
    { /* read back (sums must not be negative there) */
        for (int k = 0; k < POSIX_NUM_COUNTERS; k++)
            r[1].counters[k] = -r[1].counters[k];
        r[2].rank = 0; /* the job has one process */
        iolens_buf_free(&out);
        ck_assert_int_eq(iolens_build_layer_region(&out, d, r, 3), 0);
        struct content c;
        standard_content(&c);
        c.r[R_POSIX].version = IOLENS_POSIX_VERSION;
        c.r[R_POSIX].raw.len = 0;
        put(&c.r[R_POSIX].raw, out.data, out.len);
        struct bytes file = assemble(&c);
        free_content(&c);
        struct iolens_log log;
        char err[256] = "";
        enum iolens_read_status st = iolens_log_read_buffer(file.p, file.len, &log, err, sizeof err);
        ck_assert_msg(st == IOLENS_READ_OK, "%s", err);
        const struct iolens_log_layer *L = &log.layers[0];
        ck_assert_uint_eq(L->record_count, 3);
        for (size_t i = 0; i < 3; i++) {
            ck_assert_uint_eq(L->id[i], r[i].id);
            ck_assert_int_eq(L->rank[i], r[i].rank);
            ck_assert_int_eq(memcmp(&L->counters[i * POSIX_NUM_COUNTERS], r[i].counters,
                                    sizeof r[i].counters), 0);
            ck_assert_int_eq(memcmp(&L->fcounters[i * POSIX_F_NUM_COUNTERS], r[i].fcounters,
                                    sizeof r[i].fcounters), 0);
        }
        iolens_log_free(&log);
        free(file.p);
    }
    iolens_buf_free(&out);

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
    c.r[R_POSIX].version = IOLENS_POSIX_VERSION;
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
    const unsigned char *codes = region->data + sizeof(struct iolens_layer_head);
    const unsigned char *body = codes + 2 + POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS;
    if (codes[col] == IOLENS_COL_ZERO)
        return 0;
    size_t at = 0; /* columns of IOLENS_COL_ZERO take no bytes */
    for (size_t k = 0; k < col; k++)
        at += codes[k] != IOLENS_COL_ZERO;
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; b++)
        v |= (uint64_t)body[(at * 8 + b) * n + i] << (8 * b);
    return v;
}

/* ----------------------------------------------------- zero columns -- */

static enum iolens_read_status both_readers(struct bytes *file, char *err, size_t errsz);

enum { ZC_N = 3, ZC_COLS = 2 + POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS };

/* Three records of one process whose only non-zero columns are the ids,
 * POSIX_OPENS, POSIX_BYTES_WRITTEN and POSIX_F_OPEN_END_TIMESTAMP (whose
 * ref, the first open, is 0 throughout), encoded by the runtime. */
static void zero_column_records(struct iolens_posix_record r[ZC_N], struct iolens_buf *out)
{
    memset(r, 0, ZC_N * sizeof *r);
    for (int i = 0; i < ZC_N; i++) {
        r[i].id = 0x1111111111111111ull * (uint64_t)(i + 1);
        r[i].counters[POSIX_OPENS] = i + 1;
        r[i].counters[POSIX_BYTES_WRITTEN] = 8 << i;
        r[i].fcounters[POSIX_F_OPEN_END_TIMESTAMP] = 0.25 * (i + 1);
    }
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
    *out = (struct iolens_buf){0};
    /* In record order, no names (the file table is not needed). */
    ck_assert_int_eq(iolens_encode_layer(out, d, (const unsigned char *)r, NULL, 0, ZC_N, NULL), 0);
}

/* The standard hand-made log with raw as its POSIX region of version. */
static struct bytes log_with_posix(const void *raw, size_t len, uint32_t version)
{
    struct content c;
    standard_content(&c);
    c.r[R_POSIX].version = version;
    c.r[R_POSIX].raw.len = 0;
    put(&c.r[R_POSIX].raw, raw, len);
    struct bytes file = assemble(&c);
    free_content(&c);
    return file;
}

/* Columns whose every value is 0 get IOLENS_COL_ZERO and take no bytes:
 * the body holds the four others, in column order; both readers give
 * every value back, zeros included. */
START_TEST(zero_columns_store_nothing)
{
    struct iolens_posix_record r[ZC_N];
    struct iolens_buf out;
    zero_column_records(r, &out);
    const unsigned char *codes = out.data + sizeof(struct iolens_layer_head);
    size_t fc0 = 2 + POSIX_NUM_COUNTERS;
    for (size_t k = 0; k < ZC_COLS; k++) {
        unsigned want = IOLENS_COL_ZERO;
        if (k == 0 || k == 2 + POSIX_OPENS || k == 2 + POSIX_BYTES_WRITTEN)
            want = IOLENS_COL_RAW;
        if (k == fc0 + POSIX_F_OPEN_END_TIMESTAMP)
            want = IOLENS_COL_TICKS_FROM_REF;
        ck_assert_msg(codes[k] == want, "column %zu: code %u, want %u", k, codes[k], want);
    }
    ck_assert_uint_eq(out.len, sizeof(struct iolens_layer_head) + ZC_COLS + ZC_N * 8 * 4);
    const unsigned char *body = codes + ZC_COLS;
    for (size_t i = 0; i < ZC_N; i++) { /* stored columns 1, 2, 3; plane 0 of each */
        ck_assert_uint_eq(body[(1 * 8) * ZC_N + i], i + 1);
        ck_assert_uint_eq(body[(2 * 8) * ZC_N + i], 8u << i);
        /* 0.25 (i + 1) s from a first open at 0: 1 + zigzag(2^28 (i + 1)),
         * 2^29 (i + 1) + 1, whose low byte is 1 and byte 3 is 0x20 (i + 1) */
        ck_assert_uint_eq(body[(3 * 8) * ZC_N + i], 1);
        ck_assert_uint_eq(body[(3 * 8 + 3) * ZC_N + i], 0x20 * (i + 1));
    }
    struct bytes file = log_with_posix(out.data, out.len, IOLENS_POSIX_VERSION);
    char err[256] = "";
    ck_assert_int_eq(both_readers(&file, err, sizeof err), IOLENS_READ_OK);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    const struct iolens_log_layer *L = &log.layers[0];
    ck_assert_uint_eq(L->kind, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(L->record_count, ZC_N);
    for (size_t i = 0; i < ZC_N; i++) {
        ck_assert_uint_eq(L->id[i], r[i].id);
        ck_assert_int_eq(L->rank[i], 0);
        ck_assert_int_eq(memcmp(&L->counters[i * POSIX_NUM_COUNTERS], r[i].counters,
                                sizeof r[i].counters), 0);
        ck_assert_int_eq(memcmp(&L->fcounters[i * POSIX_F_NUM_COUNTERS], r[i].fcounters,
                                sizeof r[i].fcounters), 0);
    }
    iolens_log_free(&log);
    free(file.p);
    iolens_buf_free(&out);
}
END_TEST

/* The zero code where it cannot be, or with a body that does not match
 * the codes, is damage: one line, from both readers alike. */
START_TEST(zero_code_damage)
{
    static const struct {
        size_t column;             /* whose code is set to code, or -1 */
        unsigned code;
        uint32_t version;
        int negative;              /* record 1's POSIX_BYTES_WRITTEN made negative */
        const char *reason;
    } cases[] = {
        {0, IOLENS_COL_ZERO, IOLENS_POSIX_VERSION, 0, "corrupt POSIX region: column 0 has code 4"},
        {(size_t)-1, 0, IOLENS_LAYER_VERSION_3, 0, "corrupt POSIX region: column 1 has code 4"},
        {2 + POSIX_OPENS, IOLENS_COL_ZERO, IOLENS_POSIX_VERSION, 0,
         "corrupt POSIX region: 3 records of 24 bytes do not fill 96 bytes"},
        {3, IOLENS_COL_RAW, IOLENS_POSIX_VERSION, 0,
         "corrupt POSIX region: 3 records of 40 bytes do not fill 96 bytes"},
        {3, 5, IOLENS_POSIX_VERSION, 0, "corrupt POSIX region: column 3 has code 5"},
        {(size_t)-1, 0, IOLENS_POSIX_VERSION, 1,
         "corrupt POSIX region: record 1: POSIX_BYTES_WRITTEN is negative"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct iolens_posix_record r[ZC_N];
        struct iolens_buf out;
        zero_column_records(r, &out);
        unsigned char *codes = out.data + sizeof(struct iolens_layer_head);
        if (cases[k].column != (size_t)-1)
            codes[cases[k].column] = (unsigned char)cases[k].code;
        if (cases[k].negative) /* stored column 2, its sign plane */
            codes[ZC_COLS + (2 * 8 + 7) * ZC_N + 1] = 0x80;
        struct bytes file = log_with_posix(out.data, out.len, cases[k].version);
        char err[256] = "";
        ck_assert_int_eq(both_readers(&file, err, sizeof err), IOLENS_READ_CORRUPT);
        ck_assert_str_eq(err, cases[k].reason);
        free(file.p);
        iolens_buf_free(&out);
    }
}
END_TEST

static uint64_t real_hash_of_a(const char *path, size_t len)
{
    (void)path;
    (void)len;
    return XXH3_64bits("/w/a", 4);
}

/* A region sink that keeps the last region handed to it in *arg. */
static int keep_last_region(void *arg, uint32_t kind, uint32_t version, struct iolens_buf *raw)
{
    (void)kind;
    (void)version;
    struct iolens_buf *keep = arg;
    iolens_buf_free(keep);
    *keep = *raw;
    *raw = (struct iolens_buf){0};
    return 0;
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

    /* The writers' path, with the names block of the names regions: the
     * same order, taken from the block's places instead of the names. */
    struct iolens_region_sink sink = {keep_last_region, &out};
    struct iolens_names_block names;
    ck_assert_int_eq(iolens_emit_names_regions(&sink, in_ids, 5, &names), 0);
    ck_assert_uint_eq(names.n, 3);
    ck_assert_int_eq(iolens_emit_layer_regions(&sink, d, r, 5, &names), 0);
    for (size_t i = 0; i < 5; i++) {
        ck_assert_uint_eq(stored_value(&out, 5, 0, i), want_ids[i]);
        ck_assert_uint_eq(stored_value(&out, 5, 2 + POSIX_OPENS, i), (uint64_t)want_opens[i]);
    }
    iolens_names_block_free(&names);
    iolens_buf_free(&out);
    free(want.p);
    iolens_budget_fini();
}
END_TEST


/* ------------------------------------------ records named by place -- */

/* A log of the standard content with names, POSIX and intervals regions
 * from the runtime's encoders: files /p/a, /p/b, /p/c named (block
 * places 0, 1, 2), POSIX records of /p/a and /p/c, intervals on /p/a, on
 * an id no names entry has (a shared file another rank holds) and on
 * <other files>. */
struct placed {
    struct content c;
    uint64_t id_a, id_c;
    size_t posix_places;     /* offset in the POSIX raw of column 0's byte planes */
    size_t iv_files;         /* offset in the intervals raw of the file column */
};

static void put_buf(struct bytes *b, struct iolens_buf *raw)
{
    b->len = 0;
    put(b, raw->data, raw->len);
    iolens_buf_free(raw);
}

static void placed_log(struct placed *pl)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    ck_assert_int_eq(iolens_file_table_init(64), 0);
    struct iolens_file *files[3] = {iolens_file_get("/p/a", 4), iolens_file_get("/p/b", 4),
                                    iolens_file_get("/p/c", 4)};
    struct iolens_names_block block;
    ck_assert_int_eq(iolens_names_block_make(&block, files, 3), 0);
    pl->id_a = files[0]->id;
    pl->id_c = files[2]->id;
    standard_content(&pl->c);
    struct iolens_buf raw = {0};
    ck_assert_int_eq(iolens_encode_names(&raw, files, 3), 0);
    put_buf(&pl->c.r[R_NAMES].raw, &raw);

    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
    struct iolens_posix_record r[2];
    memset(r, 0, sizeof r);
    r[0].id = pl->id_a;
    r[1].id = pl->id_c;
    r[0].counters[POSIX_OPENS] = 1;
    r[1].counters[POSIX_OPENS] = 2;
    r[1].fcounters[POSIX_F_OPEN_START_TIMESTAMP] = 0.5;
    r[1].fcounters[POSIX_F_OPEN_END_TIMESTAMP] = 0.75;
    ck_assert_int_eq(iolens_encode_layer(&raw, d, (const unsigned char *)r, NULL, 0, 2, &block), 0);
    size_t ncols = 2 + POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS;
    ck_assert_uint_eq(raw.data[sizeof(struct iolens_layer_head)], IOLENS_COL_NAME_PLACE);
    pl->posix_places = sizeof(struct iolens_layer_head) + ncols;
    ck_assert_uint_eq(raw.data[pl->posix_places], 0);       /* /p/a: place 0 */
    ck_assert_uint_eq(raw.data[pl->posix_places + 1], 2);   /* /p/c: place 2 */
    pl->c.r[R_POSIX].version = IOLENS_POSIX_VERSION;
    put_buf(&pl->c.r[R_POSIX].raw, &raw);

    struct iolens_interval iv[3] = {
        {0.25, 0.5, pl->id_a, 10, 1, IOLENS_IV_WRITE, 0.25},
        {0.5, 0.75, 424242, 20, 1, IOLENS_IV_WRITE, 0.25},
        {0.75, 1.0, IOLENS_ID_OTHER_FILES, 30, 2, IOLENS_IV_WRITE | IOLENS_IV_MIXED, 0.125},
    };
    struct iolens_intervals_layer_in layer = {IOLENS_REGION_POSIX, iv, 3, 0, 4, 60, 0.625, 0};
    struct iolens_intervals_rank in = {0, 0.0, 0.0, &layer, 1, &block};
    ck_assert_int_eq(iolens_encode_intervals_region(&raw, &in), 0);
    /* head, layer head, 1 extra id, then start, duration, busy, bytes */
    pl->iv_files = sizeof(struct iolens_intervals_head) + sizeof(struct iolens_intervals_layer) +
                   8 + 8 + 4 * 8 * 3;
    struct iolens_intervals_layer L;
    memcpy(&L, raw.data + sizeof(struct iolens_intervals_head), sizeof L);
    ck_assert_uint_eq(L.file_column, IOLENS_IV_FILE_PLACES);
    /* file values: /p/a is place 0 after the one extra id, 424242 extra 0,
     * <other files> as it is */
    ck_assert_uint_eq(raw.data[pl->iv_files], IOLENS_IV_FIRST_PLACE + 1);
    ck_assert_uint_eq(raw.data[pl->iv_files + 1], IOLENS_IV_FIRST_PLACE);
    ck_assert_uint_eq(raw.data[pl->iv_files + 2], IOLENS_ID_OTHER_FILES);
    struct region *ivr = &pl->c.r[pl->c.n++];
    *ivr = (struct region){IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, {0}};
    put_buf(&ivr->raw, &raw);
    iolens_names_block_free(&block);
    iolens_budget_fini();
}

/* Both readers' verdict on file, with the whole reader's reason. */
static enum iolens_read_status both_readers(struct bytes *file, char *err, size_t errsz)
{
    struct iolens_log log;
    enum iolens_read_status st = iolens_log_read_buffer(file->p, file->len, &log, err, errsz);
    if (st == IOLENS_READ_OK)
        iolens_log_free(&log);
    char path[] = "/tmp/iolens-placed.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, file->p, file->len), (ssize_t)file->len);
    close(fd);
    struct iolens_stream *s = NULL;
    char serr[256] = "";
    enum iolens_read_status sst = iolens_stream_open(path, NULL, NULL, &s, serr, sizeof serr);
    unlink(path);
    iolens_stream_close(s);
    ck_assert_int_eq(sst, st);
    ck_assert_str_eq(serr, err);
    return st;
}

START_TEST(records_named_by_place)
{
    struct placed pl;
    placed_log(&pl);
    struct bytes file = assemble(&pl.c);
    struct iolens_log log;
    char err[256] = "";
    ck_assert_int_eq(both_readers(&file, err, sizeof err), IOLENS_READ_OK);
    ck_assert_int_eq(iolens_log_read_buffer(file.p, file.len, &log, err, sizeof err),
                     IOLENS_READ_OK);
    const struct iolens_log_layer *L = iolens_log_layer_of(&log, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(L->record_count, 2);
    ck_assert_uint_eq(L->id[0], pl.id_a);
    ck_assert_uint_eq(L->id[1], pl.id_c);
    ck_assert_int_eq(L->counters[POSIX_NUM_COUNTERS + POSIX_OPENS], 2);
    ck_assert_double_eq(L->fcounters[POSIX_F_NUM_COUNTERS + POSIX_F_OPEN_START_TIMESTAMP], 0.5);
    ck_assert_double_eq(L->fcounters[POSIX_F_NUM_COUNTERS + POSIX_F_OPEN_END_TIMESTAMP], 0.75);
    ck_assert_str_eq(iolens_log_name_of(&log, L->id[1]), "/p/c");
    ck_assert_uint_eq(log.ninterval_sets, 1);
    const struct iolens_log_intervals *set = &log.intervals[0];
    ck_assert_uint_eq(set->count, 3);
    ck_assert_uint_eq(set->file_id[0], pl.id_a);
    ck_assert_uint_eq(set->file_id[1], 424242);
    ck_assert_uint_eq(set->file_id[2], IOLENS_ID_OTHER_FILES);
    ck_assert_double_eq(set->busy[2], 0.125);
    iolens_log_free(&log);
    free(file.p);
    free_content(&pl.c);
}
END_TEST

/* A place out of the names block, a record naming the entry of the one
 * before it again (a duplicate), and an interval's place out of the
 * block: damage, one line, from both readers alike. */
START_TEST(bad_places_are_damage)
{
    static const struct {
        int intervals;
        size_t at;
        unsigned char value;
        const char *reason;
    } cases[] = {
        {0, 1, 3, "corrupt POSIX region: record 1 names entry 3 of a names block of 3"},
        {0, 1, 0, "corrupt POSIX region: record 1 names entry 0 after entry 0"},
        {0, 0, 200, "corrupt POSIX region: record 0 names entry 200 of a names block of 3"},
        {1, 0, IOLENS_IV_FIRST_PLACE + 4,
         "corrupt intervals region: bad interval of rank 0 (POSIX)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct placed pl;
        placed_log(&pl);
        struct bytes *raw = cases[k].intervals ? &pl.c.r[pl.c.n - 1].raw : &pl.c.r[R_POSIX].raw;
        size_t base = cases[k].intervals ? pl.iv_files : pl.posix_places;
        raw->p[base + cases[k].at] = cases[k].value;
        struct bytes file = assemble(&pl.c);
        char err[256] = "";
        ck_assert_int_eq(both_readers(&file, err, sizeof err), IOLENS_READ_CORRUPT);
        ck_assert_str_eq(err, cases[k].reason);
        free(file.p);
        free_content(&pl.c);
    }
    /* Places with no names block before them: the POSIX region moved
     * ahead of the names. */
    struct placed pl;
    placed_log(&pl);
    struct region names = pl.c.r[R_NAMES];
    pl.c.r[R_NAMES] = pl.c.r[R_POSIX];
    pl.c.r[R_POSIX] = names;
    struct bytes file = assemble(&pl.c);
    char err[256] = "";
    ck_assert_int_eq(both_readers(&file, err, sizeof err), IOLENS_READ_CORRUPT);
    ck_assert_str_eq(err, "corrupt POSIX region: record 0 names entry 0 of a names block of 0");
    free(file.p);
    free_content(&pl.c);
}
END_TEST

/* ------------------------------------------------ bytes per record -- */

/* A deterministic stand-in for the clock's noise: nanoseconds in [lo, hi). */
static uint64_t lcg_state = 20261126;
static double jitter_s(unsigned lo_ns, unsigned hi_ns)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (lo_ns + (unsigned)((lcg_state >> 33) % (hi_ns - lo_ns))) * 1e-9;
}

/* Bytes the regions take in a log: compressed, and a 40-byte descriptor. */
static size_t stored_bytes(struct iolens_buf *raw)
{
    void *z;
    size_t zlen;
    ck_assert_int_eq(iolens_region_compress(raw->data, raw->len, &z, &zlen), 0);
    free(z);
    iolens_buf_free(raw);
    return zlen + sizeof(struct iolens_region_desc);
}

/* The log of a rank that creates 1000 files of one directory, one 8-byte
 * write each (bench/shutdown.c's unique files): names, POSIX records and
 * intervals as the runtime encodes them, with times of a busy machine
 * (microseconds apart, nanoseconds of noise, from a fixed seed).  The
 * format's target: at most 40 bytes a record, names included (the layer
 * regions of version 2, random ids and times as doubles, took 57). */
START_TEST(log_bytes_per_record)
{
    enum { N = 1000 };
    ck_assert_int_eq(iolens_budget_init(8 << 20), 0);
    ck_assert_int_eq(iolens_file_table_init(4096), 0);
    struct iolens_file **files = calloc(N, sizeof *files);
    struct iolens_posix_record *r = calloc(N, sizeof *r);
    struct iolens_interval *iv = calloc(N, sizeof *iv);
    ck_assert(files != NULL && r != NULL && iv != NULL);
    char path[64];
    double t = 1.25;
    for (int i = 0; i < N; i++) {
        int len = snprintf(path, sizeof path, "/scratch/run/shutdown/data/u0.%d", i);
        files[i] = iolens_file_get(path, (size_t)len);
        ck_assert_ptr_nonnull(files[i]);
        double *f = r[i].fcounters;
        int64_t *c = r[i].counters;
        r[i].id = files[i]->id;
        f[POSIX_F_OPEN_START_TIMESTAMP] = t;
        f[POSIX_F_OPEN_END_TIMESTAMP] = t += jitter_s(4000, 20000);
        f[POSIX_F_WRITE_START_TIMESTAMP] = t += jitter_s(500, 3000);
        f[POSIX_F_WRITE_END_TIMESTAMP] = t += jitter_s(2000, 9000);
        f[POSIX_F_CLOSE_START_TIMESTAMP] = t += jitter_s(500, 3000);
        f[POSIX_F_CLOSE_END_TIMESTAMP] = t += jitter_s(1000, 6000);
        t += jitter_s(2000, 8000);
        f[POSIX_F_WRITE_TIME] = f[POSIX_F_WRITE_END_TIMESTAMP] - f[POSIX_F_WRITE_START_TIMESTAMP];
        f[POSIX_F_MAX_WRITE_TIME] = f[POSIX_F_WRITE_TIME];
        f[POSIX_F_META_TIME] = f[POSIX_F_OPEN_END_TIMESTAMP] - f[POSIX_F_OPEN_START_TIMESTAMP] +
                               f[POSIX_F_CLOSE_END_TIMESTAMP] - f[POSIX_F_CLOSE_START_TIMESTAMP];
        c[POSIX_OPENS] = c[POSIX_WRITES] = c[POSIX_SIZE_WRITE_0_100] = 1;
        c[POSIX_BYTES_WRITTEN] = c[POSIX_ACCESS1_ACCESS] = 8;
        c[POSIX_MAX_BYTE_WRITTEN] = 7;
        c[POSIX_ACCESS1_COUNT] = c[POSIX_RANKS_OPENED] = c[POSIX_RANKS_IO] = 1;
        c[POSIX_MODE] = 0644;
        c[POSIX_MEM_ALIGNMENT] = 8;
        c[POSIX_FILE_ALIGNMENT] = 4096;
        c[POSIX_FASTEST_RANK_BYTES] = c[POSIX_SLOWEST_RANK_BYTES] = 8;
        f[POSIX_F_FASTEST_RANK_TIME] = f[POSIX_F_SLOWEST_RANK_TIME] =
            f[POSIX_F_WRITE_TIME] + f[POSIX_F_META_TIME];
        iv[i] = (struct iolens_interval){f[POSIX_F_WRITE_START_TIMESTAMP],
                                         f[POSIX_F_WRITE_END_TIMESTAMP], files[i]->id, 8, 1,
                                         IOLENS_IV_WRITE, f[POSIX_F_WRITE_TIME]};
    }
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
    struct iolens_buf raw = {0};
    struct iolens_names_block block;
    ck_assert_int_eq(iolens_names_block_make(&block, files, N), 0);
    ck_assert_int_eq(iolens_encode_names(&raw, files, N), 0);
    size_t bytes = sizeof(struct iolens_file_header) + stored_bytes(&raw);
    ck_assert_int_eq(iolens_encode_layer(&raw, d, (const unsigned char *)r, NULL, 0, N, &block), 0);
    bytes += stored_bytes(&raw);
    struct iolens_intervals_layer_in layer = {IOLENS_REGION_POSIX, iv, N, 0, N, 8 * N, 0, 0};
    struct iolens_intervals_rank in = {0, 0.0, 0.0, &layer, 1, &block};
    ck_assert_int_eq(iolens_encode_intervals_region(&raw, &in), 0);
    bytes += stored_bytes(&raw);
    double per_record = (double)bytes / N;
    printf("log_bytes_per_record: %zu bytes, %.2f a record\n", bytes, per_record);
    ck_assert_msg(per_record <= 40.0, "%.2f log bytes a record", per_record);
    iolens_names_block_free(&block);
    free(files);
    free(r);
    free(iv);
    iolens_budget_fini();
}
END_TEST

/* The names block finds each of its ids at its place and no other id,
 * whatever the ids' spread: its search guesses from the ids' values
 * (hashes, spread evenly) before it bisects, and must not depend on
 * that spread to be right. */
static uint64_t spread_id(int kind, size_t i, size_t n, uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    uint64_t r = *state ^ (*state >> 31);
    switch (kind) {
    case 0: /* hashes */
        return r | 0x100; /* above the reserved ids */
    case 1: /* a dense run with an outlier at the top */
        return i + 1 == n ? UINT64_MAX - 1 : 0x1000 + 3 * i;
    case 2: /* two clumps at the ends */
        return i % 2 ? UINT64_MAX - 7 * i - 2 : 0x1000 + 7 * i;
    default: /* one narrow band, unevenly filled */
        return UINT64_C(0x8000000000000000) + 8 * i * i + (r & 7);
    }
}

START_TEST(names_block_finds_its_ids_whatever_their_spread)
{
    static const size_t sizes[] = {1, 2, 17, 1000, 20000};
    for (int kind = 0; kind < 4; kind++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            uint64_t state = 7 + (uint64_t)kind;
            struct iolens_file **files = calloc(n, sizeof *files);
            uint64_t *ids = calloc(n, sizeof *ids);
            ck_assert_ptr_nonnull(files);
            ck_assert_ptr_nonnull(ids);
            /* Distinct ids, as the file table's (by construction; hashes
             * of 64 bits do not meet among 20000). */
            size_t m = n;
            for (size_t i = 0; i < n; i++) {
                files[i] = calloc(1, sizeof **files + 1);
                ck_assert_ptr_nonnull(files[i]);
                files[i]->id = ids[i] = spread_id(kind, i, n, &state);
            }
            struct iolens_names_block block;
            ck_assert_int_eq(iolens_names_block_make(&block, files, m), 0);
            for (size_t i = 0; i < m; i++) {
                uint64_t place = UINT64_MAX;
                ck_assert_msg(iolens_names_block_find(&block, ids[i], &place),
                              "kind %d, %zu ids: id %zu not found", kind, m, i);
                ck_assert_uint_eq(place, i);
                /* Neighbours of an id are absent unless they are ids too. */
                for (int d = -1; d <= 1; d += 2) {
                    uint64_t other = ids[i] + (uint64_t)(int64_t)d;
                    int present = 0;
                    for (size_t j = 0; j < m && !present && m <= 1000; j++)
                        present = ids[j] == other;
                    if (m <= 1000)
                        ck_assert_int_eq(iolens_names_block_find(&block, other, &place), present);
                }
            }
            uint64_t place;
            int has_zero = 0, has_max = 0;
            for (size_t i = 0; i < m; i++) {
                has_zero |= ids[i] == 0;
                has_max |= ids[i] == UINT64_MAX;
            }
            ck_assert_int_eq(iolens_names_block_find(&block, 0, &place), has_zero);
            ck_assert_int_eq(iolens_names_block_find(&block, UINT64_MAX, &place), has_max);
            iolens_names_block_free(&block);
            for (size_t i = 0; i < m; i++)
                free(files[i]);
            free(files);
            free(ids);
        }
    }
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
    tcase_add_test(tc, records_named_by_place);
    tcase_add_test(tc, bad_places_are_damage);
    tcase_add_test(tc, log_bytes_per_record);
    tcase_add_test(tc, names_block_finds_its_ids_whatever_their_spread);
    tcase_add_test(tc, zero_columns_store_nothing);
    tcase_add_test(tc, zero_code_damage);
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
