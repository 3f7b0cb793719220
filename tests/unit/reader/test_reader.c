/* The log reader (util/reader/).  The writer and the runtime's encoder
 * have their own tests (tests/unit/log/test_log_writer.c).
 *
 * Logs are assembled byte by byte (hand_log.c), so that every kind of damage can
 * be made on purpose, with CRCs recomputed when a test wants the damage to
 * get past them. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
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
#include "hand_log.h"

START_TEST(round_trip_buffer)
{
    struct bytes file = standard_file();
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    check_standard_log(&log);
    iolens_log_free(&log);
    iolens_log_free(&log); /* freeing twice is harmless: free zeroes the log */
    free(file.p);
}
END_TEST

/* --------------------------------------------------------- corruption -- */

START_TEST(every_truncation_is_truncated)
{
    struct bytes file = standard_file();
    for (size_t len = 0; len < file.len; len++) {
        /* A fresh copy of exactly len bytes, so ASan sees any over-read. */
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, file.p, len);
        struct iolens_log log;
        enum iolens_read_status st = read_bytes(copy, len, &log);
        ck_assert_msg(st == IOLENS_READ_TRUNCATED, "length %zu gave status %d", len, st);
        iolens_log_free(&log);
        free(copy);
    }
    free(file.p);
}
END_TEST

START_TEST(every_byte_flip_is_caught)
{
    static const unsigned char masks[] = {0x01, 0x80, 0xff};
    struct bytes file = standard_file();
    for (size_t i = 0; i < file.len; i++) {
        for (size_t m = 0; m < sizeof masks; m++) {
            file.p[i] ^= masks[m];
            enum iolens_read_status st = status_of(&file);
            file.p[i] ^= masks[m];
            if (i < HDR)
                ck_assert_msg(st != IOLENS_READ_OK, "flip at header byte %zu accepted", i);
            else
                ck_assert_msg(st == IOLENS_READ_CRC, "flip at byte %zu gave status %d", i, st);
        }
    }
    ck_assert_int_eq(status_of(&file), IOLENS_READ_OK);
    free(file.p);
}
END_TEST

START_TEST(not_an_iolens_log)
{
    struct iolens_log log;
    const char text[] = "hello, this is a text file and not a log at all\n";
    ck_assert_int_eq(read_bytes(text, sizeof text - 1, &log), IOLENS_READ_NOT_IOLENS);
    ck_assert_int_eq(read_bytes("X", 1, &log), IOLENS_READ_NOT_IOLENS);
    ck_assert_int_eq(read_bytes("IOL", 3, &log), IOLENS_READ_TRUNCATED);
    ck_assert_int_eq(read_bytes(NULL, 0, &log), IOLENS_READ_TRUNCATED);
    struct bytes file = standard_file();
    file.p[0] = 'i';
    ck_assert_int_eq(status_of(&file), IOLENS_READ_NOT_IOLENS);
    char err[256];
    ck_assert_int_eq(iolens_log_read_buffer(file.p, file.len, &log, err, sizeof err),
                     IOLENS_READ_NOT_IOLENS);
    ck_assert_str_eq(err, "not an iolens log");
    free(file.p);
}
END_TEST

START_TEST(version_and_byte_order)
{
    struct bytes file = standard_file();
    header_of(&file)->version = IOLENS_FORMAT_VERSION + 1;
    ck_assert_int_eq(status_of(&file), IOLENS_READ_VERSION); /* before the CRC check */
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_VERSION);
    header_of(&file)->version = IOLENS_FORMAT_VERSION_1;
    header_of(&file)->byte_order = __builtin_bswap32(IOLENS_BYTE_ORDER_MARK);
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_VERSION);
    free(file.p);
}
END_TEST

START_TEST(bad_header_fields)
{
    struct bytes file = standard_file();
    header_of(&file)->header_size = HDR + 8;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    header_of(&file)->header_size = HDR;
    header_of(&file)->region_count = IOLENS_MAX_REGIONS + 1;
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    header_of(&file)->region_count = IOLENS_MAX_REGIONS; /* table ends past the file */
    ck_assert_int_eq(status_of(&file), IOLENS_READ_TRUNCATED);
    free(file.p);
}
END_TEST

START_TEST(region_offsets_and_sizes)
{
    struct bytes file = standard_file();
    struct iolens_region_desc *t = table_of(&file);
    struct iolens_region_desc saved = t[R_POSIX];

    t[R_POSIX].offset = file.len + 1; /* past EOF */
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_TRUNCATED);
    t[R_POSIX].offset = UINT64_MAX - 2; /* offset + size would wrap */
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_TRUNCATED);
    t[R_POSIX] = saved;
    t[R_POSIX].stored_size = UINT64_MAX;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_TRUNCATED);
    t[R_POSIX] = saved;
    t[R_POSIX].offset = 8; /* inside the header */
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);

    t[R_POSIX] = saved;
    t[R_POSIX].raw_size = 1ull << 40;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    t[R_POSIX].raw_size = saved.raw_size * 1000000; /* under the cap, impossible ratio */
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    t[R_POSIX].raw_size = saved.raw_size + 1;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    t[R_POSIX].raw_size = saved.raw_size - 1;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    t[R_POSIX] = saved;
    t[R_POSIX].compression = 7;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    t[R_POSIX] = saved;
    reseal(&file);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_OK);
    free(file.p);
}
END_TEST

START_TEST(bad_compressed_bytes_with_valid_crc)
{
    struct bytes file = standard_file();
    struct iolens_region_desc *t = table_of(&file);
    /* Garbage that is not a zlib stream. */
    memset(file.p + t[R_NAMES].offset, 0x55, t[R_NAMES].stored_size);
    reseal_region(&file, R_NAMES);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    free(file.p);

    /* A valid stream followed by extra stored bytes. */
    file = standard_file();
    t = table_of(&file);
    put(&file, "", 1); /* STDIO is the last region: one byte after it */
    t = table_of(&file);
    t[R_STDIO].stored_size += 1;
    reseal_region(&file, R_STDIO);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    free(file.p);
}
END_TEST

/* The zlib header, the trailer's presence and the raw size are checked;
 * the Adler-32 in the trailer is not (the region's CRC-32 covers it). */
START_TEST(zlib_framing_with_valid_crc)
{
    static const struct {
        unsigned char cmf, flg;
        enum iolens_read_status want;
    } heads[] = {
        {0x78, 0x9c, IOLENS_READ_OK},      /* what compress2 writes, level 6 */
        {0x78, 0x9d, IOLENS_READ_CORRUPT}, /* FCHECK wrong */
        {0x77, 0x85, IOLENS_READ_CORRUPT}, /* CM 7 (FCHECK right) */
        {0x88, 0x98, IOLENS_READ_CORRUPT}, /* CINFO 8: a 64 KiB window (FCHECK right) */
        {0x78, 0xbb, IOLENS_READ_CORRUPT}, /* FDICT set (FCHECK right) */
    };
    for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++) {
        ck_assert_int_eq((heads[k].cmf * 256 + heads[k].flg) % 31 == 0, k != 1);
        struct bytes file = standard_file();
        struct iolens_region_desc *t = table_of(&file);
        ck_assert_uint_eq(file.p[t[R_NAMES].offset], 0x78);
        file.p[t[R_NAMES].offset] = heads[k].cmf;
        file.p[t[R_NAMES].offset + 1] = heads[k].flg;
        reseal_region(&file, R_NAMES);
        ck_assert_int_eq(status_of(&file), heads[k].want);
        free(file.p);
    }

    /* The Adler-32 trailer changed, the CRC-32 made to match: accepted. */
    struct bytes file = standard_file();
    struct iolens_region_desc *t = table_of(&file);
    file.p[t[R_NAMES].offset + t[R_NAMES].stored_size - 1] ^= 0x5a;
    reseal_region(&file, R_NAMES);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_OK);
    free(file.p);

    /* The trailer cut off (the deflate body is whole): refused. */
    file = standard_file();
    t = table_of(&file);
    t[R_STDIO].stored_size -= 4; /* STDIO is the last region */
    file.len -= 4;
    reseal_region(&file, R_STDIO);
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
    free(file.p);

    /* A raw size one byte short or one byte long: refused. */
    for (int delta = -1; delta <= 1; delta += 2) {
        file = standard_file();
        t = table_of(&file);
        t[R_NAMES].raw_size += (uint64_t)(int64_t)delta;
        reseal(&file);
        ck_assert_int_eq(status_of(&file), IOLENS_READ_CORRUPT);
        free(file.p);
    }
}
END_TEST

START_TEST(layer_counts_must_match_raw_size)
{
    struct bytes raw = {0};
    struct iolens_posix_record rec;
    memset(&rec, 0, sizeof rec);
    struct iolens_layer_head heads[] = {
        {POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, 3},        /* one record too many */
        {POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, 1},        /* one too few */
        {POSIX_NUM_COUNTERS + 1, POSIX_F_NUM_COUNTERS, 2},    /* wrong stride */
        {POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, UINT64_MAX / 8}, /* overflows */
        {UINT32_MAX, UINT32_MAX, UINT64_MAX},
        {0, 0, UINT64_MAX / 16 + 1},
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        raw.len = 0;
        put(&raw, &heads[i], sizeof heads[i]);
        put(&raw, &rec, sizeof rec);
        put(&raw, &rec, sizeof rec);
        ck_assert_msg(status_with_region(R_POSIX, &raw) == IOLENS_READ_CORRUPT, "head %zu", i);
    }
    /* No head at all, and a record cut short. */
    raw.len = 0;
    put(&raw, "abc", 3);
    ck_assert_int_eq(status_with_region(R_POSIX, &raw), IOLENS_READ_CORRUPT);
    raw.len = 0;
    put(&raw, &heads[1], sizeof heads[1]);
    put(&raw, &rec, sizeof rec - 8);
    ck_assert_int_eq(status_with_region(R_POSIX, &raw), IOLENS_READ_CORRUPT);
    free(raw.p);
}
END_TEST

/* A writer with more or fewer counters than this reader still reads. */
START_TEST(layer_with_other_counter_counts)
{
    struct bytes raw = {0};
    int64_t rec[2][2 + 2 + 1] = {{ID_A, 0, 5, 6, 0}, {ID_B, 0, 7, 6, 0}};
    put_layer(&raw, 2, 1, rec, 2);
    struct content c;
    standard_content(&c);
    free(c.r[R_POSIX].raw.p);
    c.r[R_POSIX].raw = raw;
    struct bytes file = assemble(&c);
    free_content(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.layers[0].counter_count, 2);
    ck_assert_uint_eq(log.layers[0].fcounter_count, 1);
    ck_assert_int_eq(log.layers[0].counters[2], 7);
    ck_assert_int_eq(log.layers[0].counters[1], 6);
    iolens_log_free(&log);
    free(file.p);

    /* An empty layer. */
    raw = (struct bytes){0};
    struct iolens_layer_head h = {POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, 0};
    put(&raw, &h, sizeof h);
    ck_assert_int_eq(status_with_region(R_POSIX, &raw), IOLENS_READ_OK);
    free(raw.p);
}
END_TEST

START_TEST(bad_job_region)
{
    struct bytes raw = {0};
    struct iolens_job_fixed j = {.nprocs = 1, .string_count = IOLENS_JOB_NSTRINGS};
    put(&raw, &j, sizeof j - 1);
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* a job of no processes */
    j.nprocs = 0;
    put(&raw, &j, sizeof j);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        put_cstr(&raw, "s");
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);
    j.nprocs = 1;

    raw.len = 0; /* too few strings */
    j.string_count = IOLENS_JOB_NSTRINGS_MIN - 1;
    put(&raw, &j, sizeof j);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS_MIN - 1; i++)
        put_cstr(&raw, "s");
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* the strings of a log before the executables list */
    j.string_count = IOLENS_JOB_NSTRINGS_MIN;
    put(&raw, &j, sizeof j);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS_MIN; i++)
        put_cstr(&raw, "s");
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_OK);

    raw.len = 0; /* a string longer than the region */
    j.string_count = IOLENS_JOB_NSTRINGS;
    put(&raw, &j, sizeof j);
    put_u32(&raw, 1000);
    put(&raw, "abc", 3);
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* a NUL inside the user name */
    put(&raw, &j, sizeof j);
    put_cstr(&raw, "1");
    put_str(&raw, "a\0b", 3);
    for (int i = 2; i < IOLENS_JOB_NSTRINGS; i++)
        put_cstr(&raw, "s");
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* extra strings from a later writer are skipped */
    j.string_count = IOLENS_JOB_NSTRINGS + 2;
    put(&raw, &j, sizeof j);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS + 2; i++)
        put_cstr(&raw, "s");
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_OK);
    put(&raw, "x", 1); /* ... but trailing bytes are not */
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* a huge string count cannot make the reader loop long */
    j.string_count = UINT64_MAX;
    put(&raw, &j, sizeof j);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        put_cstr(&raw, "s");
    ck_assert_int_eq(status_with_region(R_JOB, &raw), IOLENS_READ_CORRUPT);
    free(raw.p);
}
END_TEST

START_TEST(bad_mounts_and_names)
{
    struct bytes raw = {0};
    put_u32(&raw, 0x7fffffff); /* count far beyond the bytes */
    ck_assert_int_eq(status_with_region(R_MOUNTS, &raw), IOLENS_READ_CORRUPT);
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* second mount cut short */
    put_u32(&raw, 2);
    put_u64(&raw, 4096);
    put_cstr(&raw, "/");
    put_cstr(&raw, "ext4");
    put_u64(&raw, 4096);
    put_cstr(&raw, "/x");
    put_u32(&raw, 4);
    put(&raw, "xf", 2);
    ck_assert_int_eq(status_with_region(R_MOUNTS, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* a NUL inside a mount point */
    put_u32(&raw, 1);
    put_u64(&raw, 4096);
    put_str(&raw, "/a\0b", 4);
    put_cstr(&raw, "ext4");
    ck_assert_int_eq(status_with_region(R_MOUNTS, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* one id named twice */
    put_u32(&raw, 2);
    put_name(&raw, ID_A, "/a");
    put_name(&raw, ID_A, "/b");
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);

    raw.len = 0; /* empty tables are fine */
    put_u32(&raw, 0);
    ck_assert_int_eq(status_with_region(R_MOUNTS, &raw), IOLENS_READ_OK);
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_OK);
    raw.len = 0; /* an empty region is not */
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);
    free(raw.p);
}
END_TEST

START_TEST(unknown_regions_are_skipped)
{
    struct content c;
    standard_content(&c);
    c.r[R_STDIO].version = IOLENS_STDIO_VERSION + 1; /* a layer version this reader does not know */
    c.r[R_UNKNOWN].kind = 0xffffffffu;
    struct bytes file = assemble(&c);
    free_content(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.unknown_regions, 2);
    ck_assert_uint_eq(log.nlayers, 1);
    ck_assert_uint_eq(log.layers[0].kind, IOLENS_REGION_POSIX);
    iolens_log_free(&log);
    free(file.p);

    /* A skipped region is still CRC-checked. */
    file = standard_file();
    file.p[table_of(&file)[R_UNKNOWN].offset] ^= 1;
    ck_assert_int_eq(status_of(&file), IOLENS_READ_CRC);
    free(file.p);
}
END_TEST

/* Adds a region (a copy of raw) to c. */
static void add_region(struct content *c, uint32_t kind, uint32_t version, const struct bytes *raw)
{
    ck_assert_uint_lt(c->n, NREGIONS);
    struct region *r = &c->r[c->n++];
    *r = (struct region){kind, version, {0}};
    put(&r->raw, raw->p, raw->len);
}

static enum iolens_read_status status_of_content(const struct content *c)
{
    struct bytes file = assemble(c);
    enum iolens_read_status st = status_of(&file);
    free(file.p);
    return st;
}

START_TEST(required_and_duplicate_regions)
{
    struct content c;
    standard_content(&c);
    c.r[R_JOB].kind = 98; /* no job region left */
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    c.r[R_JOB].kind = IOLENS_REGION_JOB;
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_OK);
    /* JOB, MOUNTS and RANKS at most once */
    add_region(&c, IOLENS_REGION_MOUNTS, IOLENS_MOUNTS_VERSION, &c.r[R_MOUNTS].raw);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    c.r[c.n - 1].kind = IOLENS_REGION_JOB;
    c.r[c.n - 1].version = IOLENS_JOB_VERSION;
    free(c.r[c.n - 1].raw.p);
    c.r[c.n - 1].raw = (struct bytes){0};
    put(&c.r[c.n - 1].raw, c.r[R_JOB].raw.p, c.r[R_JOB].raw.len);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    free_content(&c);
}
END_TEST

/* The ranks region of a 3-process job on 2 hosts; ranks 1 and 2 ran
 * executable exe_of_others. */
static void build_ranks_exes(struct bytes *b, uint32_t n, uint32_t bad_host_rank,
                             uint32_t exe_of_others)
{
    put_u32(b, n);
    for (uint32_t r = 0; r < n; r++) {
        struct iolens_rank_info ri = {1700000000.5 + r, 1700000009.25 + r, r == 2,
                                      r > 0 ? exe_of_others : 0};
        if (r == bad_host_rank)
            ri.host_index = 2;
        put(b, &ri, sizeof ri);
    }
}

static void build_ranks(struct bytes *b, uint32_t n, uint32_t bad_host_rank)
{
    build_ranks_exes(b, n, bad_host_rank, 0);
}

/* The job region of a 3-rank MPI job on hosts "h1" and "h2" whose rank 0
 * ran exe; with the executables list exes (exes_len bytes), or, exes
 * NULL, as written before that list. */
static void put_mpi_job(struct bytes *job, const char *exe, const char *exes, size_t exes_len)
{
    job->len = 0;
    struct iolens_job_fixed j = {
        .nprocs = 3, .nnodes = 2,
        .string_count = exes != NULL ? IOLENS_JOB_NSTRINGS : IOLENS_JOB_NSTRINGS_MIN};
    put(job, &j, sizeof j);
    put_cstr(job, "job.1");
    put_cstr(job, "bob");
    put_cstr(job, exe);
    put_cstr(job, "");
    put_str(job, "h1\0h2", 5);
    put_cstr(job, "9.9");
    put_cstr(job, "MPICH Version: 4.1.2\nMPICH Release date: today");
    if (exes != NULL)
        put_str(job, exes, exes_len);
}

/* The standard content as a 3-rank MPI job: hosts "h1" and "h2", as
 * written before the executables list. */
static void mpi_content(struct content *c)
{
    standard_content(c);
    put_mpi_job(&c->r[R_JOB].raw, "/bin/prog", NULL, 0);
    struct bytes ranks = {0};
    build_ranks(&ranks, 3, UINT32_MAX);
    add_region(c, IOLENS_REGION_RANKS, IOLENS_RANKS_VERSION, &ranks);
    free(ranks.p);
}

/* An MPMD job: rank 0 ran ./atm, ranks 1 and 2 ran ./ocn (or the
 * executable index exe_of_others). */
static void mpmd_content(struct content *c, uint32_t exe_of_others)
{
    mpi_content(c);
    put_mpi_job(&c->r[R_JOB].raw, "./atm", "./atm\0./ocn", 11);
    struct bytes *ranks = &c->r[c->n - 1].raw;
    ranks->len = 0;
    build_ranks_exes(ranks, 3, UINT32_MAX, exe_of_others);
}

START_TEST(mpmd_executables)
{
    struct content c;
    mpmd_content(&c, 1);
    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.jobstr_len[IOLENS_JOBSTR_EXES], 11);
    ck_assert_int_eq(memcmp(log.jobstr[IOLENS_JOBSTR_EXES], "./atm\0./ocn", 12), 0);
    ck_assert_uint_eq(log.ranks[0].exe_index, 0);
    ck_assert_uint_eq(log.ranks[2].exe_index, 1);
    iolens_log_free(&log);
    free(file.p);
    free_content(&c);

    mpmd_content(&c, 2); /* an executable past the list */
    file = assemble(&c);
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_CORRUPT);
    free(file.p);
    free_content(&c);

    mpi_content(&c); /* before the list: only index 0, the executable */
    c.r[c.n - 1].raw.len = 0;
    build_ranks_exes(&c.r[c.n - 1].raw, 3, UINT32_MAX, 1);
    file = assemble(&c);
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_CORRUPT);
    free(file.p);
    free_content(&c);
}
END_TEST

START_TEST(ranks_region)
{
    struct content c;
    mpi_content(&c);
    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.nranks, 3);
    ck_assert_double_eq(log.ranks[0].start_time, 1700000000.5);
    ck_assert_double_eq(log.ranks[2].end_time, 1700000011.25);
    ck_assert_uint_eq(log.ranks[1].host_index, 0);
    ck_assert_uint_eq(log.ranks[2].host_index, 1);
    ck_assert_str_eq(log.jobstr[IOLENS_JOBSTR_MPI_VERSION],
                     "MPICH Version: 4.1.2\nMPICH Release date: today");
    iolens_log_free(&log);
    ck_assert_ptr_null(log.ranks);
    free(file.p);

    struct bytes *raw = &c.r[c.n - 1].raw;
    raw->len = 0; /* a host index past the host list */
    build_ranks(raw, 3, 1);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    raw->len = 0; /* fewer ranks than the job's processes */
    build_ranks(raw, 2, UINT32_MAX);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    raw->len = 0; /* no ranks at all */
    put_u32(raw, 0);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    raw->len = 0; /* a count that does not match the bytes */
    build_ranks(raw, 3, UINT32_MAX);
    raw->len -= 1;
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    raw->len += 1;
    uint32_t huge = 0xffffffffu;
    memcpy(raw->p, &huge, 4);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    raw->len = 0; /* twice */
    build_ranks(raw, 3, UINT32_MAX);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_OK);
    struct bytes copy = {0};
    put(&copy, raw->p, raw->len);
    add_region(&c, IOLENS_REGION_RANKS, IOLENS_RANKS_VERSION, &copy);
    free(copy.p);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    free_content(&c);
}
END_TEST

/* A record's rank must be a rank of the job or -1 (reduced). */
START_TEST(record_ranks_are_checked)
{
    struct content c;
    mpi_content(&c);
    struct iolens_posix_record r[2];
    standard_posix_records(r);
    int64_t ranks[] = {2, -1, 3, -2, INT64_MIN, INT64_MAX};
    enum iolens_read_status want[] = {IOLENS_READ_OK, IOLENS_READ_OK, IOLENS_READ_CORRUPT,
                                      IOLENS_READ_CORRUPT, IOLENS_READ_CORRUPT,
                                      IOLENS_READ_CORRUPT};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        r[0].rank = ranks[i];
        c.r[R_POSIX].raw.len = 0;
        put_layer(&c.r[R_POSIX].raw, POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, r, 2);
        ck_assert_msg(status_of_content(&c) == want[i], "rank %lld", (long long)ranks[i]);
    }
    free_content(&c);
    /* in a non-MPI log (nprocs 1) only 0 and -1 */
    standard_content(&c);
    r[0].rank = 1;
    c.r[R_POSIX].raw.len = 0;
    put_layer(&c.r[R_POSIX].raw, POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, r, 2);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    free_content(&c);
}
END_TEST

/* NAMES and layer regions repeat (one per rank) and are concatenated. */
START_TEST(repeated_regions_concatenate)
{
    struct content c;
    standard_content(&c);
    struct bytes names = {0}, posix = {0}, mpiio = {0};
    put_u32(&names, 2);
    put_name(&names, 77, "/rank1/file");
    put_name(&names, 78, "/rank1/other");
    add_region(&c, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &names);
    struct iolens_posix_record r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].id = 77 + (uint64_t)i;
        r[i].counters[POSIX_OPENS] = 10 + i;
        r[i].counters[POSIX_NUM_COUNTERS - 1] = 100 + i;
        r[i].fcounters[POSIX_F_META_TIME] = 0.5 * i;
        r[i].fcounters[POSIX_F_NUM_COUNTERS - 1] = 1000.0 + i;
    }
    put_layer(&posix, POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, r, 3);
    add_region(&c, IOLENS_REGION_POSIX, IOLENS_LAYER_VERSION_2, &posix);
    struct iolens_mpiio_record m;
    memset(&m, 0, sizeof m);
    m.id = ID_A;
    m.counters[MPIIO_COLL_WRITES] = 4;
    m.fcounters[MPIIO_F_VARIANCE_RANK_BYTES] = 2.5;
    put_layer(&mpiio, MPIIO_NUM_COUNTERS, MPIIO_F_NUM_COUNTERS, &m, 1);
    add_region(&c, IOLENS_REGION_MPIIO, IOLENS_LAYER_VERSION_2, &mpiio);
    /* an empty layer region of a kind seen before adds nothing */
    struct bytes empty = {0};
    put_layer(&empty, STDIO_NUM_COUNTERS, STDIO_F_NUM_COUNTERS, NULL, 0);
    add_region(&c, IOLENS_REGION_STDIO, IOLENS_LAYER_VERSION_2, &empty);

    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.nnames, 5);
    ck_assert_str_eq(iolens_log_name_of(&log, 78), "/rank1/other");
    ck_assert_str_eq(iolens_log_name_of(&log, ID_C), "/data/subdir/c");
    ck_assert_uint_eq(log.nlayers, 3);
    const struct iolens_log_layer *p = &log.layers[0];
    ck_assert_uint_eq(p->kind, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(p->record_count, 5);
    ck_assert_uint_eq(p->id[0], ID_A);
    ck_assert_uint_eq(p->id[1], ID_B);
    ck_assert_uint_eq(p->id[4], 79);
    ck_assert_int_eq(p->counters[POSIX_WRITES], 1000);
    ck_assert_int_eq(p->counters[3 * POSIX_NUM_COUNTERS + POSIX_OPENS], 11);
    ck_assert_int_eq(p->counters[5 * POSIX_NUM_COUNTERS - 1], 102);
    ck_assert_double_eq(p->fcounters[4 * POSIX_F_NUM_COUNTERS + POSIX_F_META_TIME], 1.0);
    ck_assert_double_eq(p->fcounters[5 * POSIX_F_NUM_COUNTERS - 1], 1002.0);
    ck_assert_uint_eq(log.layers[1].kind, IOLENS_REGION_STDIO);
    ck_assert_uint_eq(log.layers[1].record_count, 1);
    const struct iolens_log_layer *mp = &log.layers[2];
    ck_assert_uint_eq(mp->kind, IOLENS_REGION_MPIIO);
    ck_assert_uint_eq(mp->record_count, 1);
    ck_assert_int_eq(mp->counters[MPIIO_COLL_WRITES], 4);
    ck_assert_double_eq(mp->fcounters[MPIIO_F_VARIANCE_RANK_BYTES], 2.5);
    iolens_log_free(&log);
    free(file.p);

    /* an id named in two regions */
    names.len = 0;
    put_u32(&names, 1);
    put_name(&names, ID_B, "/again");
    add_region(&c, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &names);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    c.n--;
    free(c.r[c.n].raw.p);
    /* a region of one kind with other counter counts than the first */
    posix.len = 0;
    int64_t small[2 + 2 + 1] = {80, 0, 1, 2, 0};
    put_layer(&posix, 2, 1, small, 1);
    add_region(&c, IOLENS_REGION_POSIX, IOLENS_LAYER_VERSION_2, &posix);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    free(names.p);
    free(posix.p);
    free(mpiio.p);
    free(empty.p);
    free_content(&c);
}
END_TEST

/* A version 4 POSIX region (log_format.h) of n records: ids ids[], rank
 * a column of zeros, every counter and fcounter IOLENS_COL_ZERO but
 * counter c1 (values v1[]), counter c2 (v2[], NULL: zero) and fcounter f1
 * (times t1[], NULL: zero), stored raw. */
static void put_sparse_posix(struct bytes *b, size_t n, const uint64_t *ids, int c1,
                             const uint64_t *v1, int c2, const uint64_t *v2, int f1,
                             const uint64_t *t1)
{
    struct iolens_layer_head h = {POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, n};
    put(b, &h, sizeof h);
    size_t ncols = 2 + POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS;
    for (size_t k = 0; k < ncols; k++) {
        int stored = k == 0 || k == 2 + (size_t)c1 || (v2 != NULL && k == 2 + (size_t)c2) ||
                     (t1 != NULL && k == 2 + POSIX_NUM_COUNTERS + (size_t)f1);
        unsigned char code = stored ? IOLENS_COL_RAW : IOLENS_COL_ZERO;
        put(b, &code, 1);
    }
    put_planes(b, ids, n, 8);
    put_planes(b, v1, n, 8);
    if (v2 != NULL)
        put_planes(b, v2, n, 8);
    if (t1 != NULL)
        put_planes(b, t1, n, 8);
}

/* The reader flags the columns every region of a layer stored as zeros
 * (reader.h: zero), and only those: a column stored in one region of two
 * is not flagged. */
START_TEST(zero_columns_are_flagged_across_regions)
{
    struct content c;
    standard_content(&c);
    c.r[R_POSIX].version = IOLENS_POSIX_VERSION;
    c.r[R_POSIX].raw.len = 0;
    double half = 0.5, quarter = 0.25;
    uint64_t ids[2] = {ID_A, ID_B}, opens[2] = {3, 4}, times[2], reads[1] = {2};
    memcpy(&times[0], &half, 8);
    memcpy(&times[1], &quarter, 8);
    put_sparse_posix(&c.r[R_POSIX].raw, 2, ids, POSIX_OPENS, opens, 0, NULL, POSIX_F_META_TIME,
                     times);
    struct bytes second = {0};
    uint64_t id_c = ID_C, one = 1;
    put_sparse_posix(&second, 1, &id_c, POSIX_OPENS, &one, POSIX_READS, reads, 0, NULL);
    add_region(&c, IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, &second);
    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    const struct iolens_log_layer *L = &log.layers[0];
    ck_assert_uint_eq(L->kind, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(L->record_count, 3);
    ck_assert_int_eq(L->counters[POSIX_OPENS], 3);
    ck_assert_int_eq(L->counters[2 * POSIX_NUM_COUNTERS + POSIX_READS], 2);
    ck_assert_double_eq(L->fcounters[POSIX_F_META_TIME], 0.5);
    ck_assert_ptr_nonnull(L->zero);
    ck_assert_uint_eq(L->zero[POSIX_OPENS], 0);           /* stored in both */
    ck_assert_uint_eq(L->zero[POSIX_READS], 0);           /* stored in the second */
    ck_assert_uint_eq(L->zero[POSIX_WRITES], 1);          /* zero in both */
    ck_assert_uint_eq(L->zero[POSIX_NUM_COUNTERS + POSIX_F_META_TIME], 0); /* the first */
    ck_assert_uint_eq(L->zero[POSIX_NUM_COUNTERS + POSIX_F_READ_TIME], 1);
    size_t flagged = 0;
    for (size_t k = 0; k < POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS; k++)
        flagged += L->zero[k];
    ck_assert_uint_eq(flagged, POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS - 3);
    iolens_log_free(&log);
    free(file.p);
    free(second.p);
    free_content(&c);
}
END_TEST

/* NAMES entries without an explicit id get the hash of their name; an
 * explicit id is taken as it is, even when it is not the name's hash. */
START_TEST(names_with_implied_ids)
{
    struct content c;
    standard_content(&c);
    struct bytes names = {0};
    put_u32(&names, 3);
    put_hashed_name(&names, "/data/h1");
    put_name(&names, 0x7777777777777777ull, "/data/h2"); /* not its hash */
    put_hashed_name(&names, "");                          /* empty name */
    add_region(&c, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &names);
    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.nnames, 6);
    ck_assert_uint_eq(implied_id("/data/h1"), 0x75eefd7dc3791cc4ull); /* XXH3, pinned */
    ck_assert_str_eq(iolens_log_name_of(&log, 0x75eefd7dc3791cc4ull), "/data/h1");
    ck_assert_str_eq(iolens_log_name_of(&log, 0x7777777777777777ull), "/data/h2");
    ck_assert_ptr_null(iolens_log_name_of(&log, implied_id("/data/h2")));
    ck_assert_str_eq(iolens_log_name_of(&log, implied_id("")), "");
    ck_assert_str_eq(iolens_log_name_of(&log, ID_A), "/data/sub/a");
    iolens_log_free(&log);
    free(file.p);
    c.n--;
    free(c.r[c.n].raw.p);

    /* An explicit id equal to another entry's implied id: named twice. */
    names.len = 0;
    put_u32(&names, 2);
    put_hashed_name(&names, "/data/h1");
    put_name(&names, implied_id("/data/h1"), "/data/other");
    add_region(&c, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &names);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    c.n--;
    free(c.r[c.n].raw.p);

    /* A version 1 NAMES region (ids always stored) is not read: skipped as
     * unknown, like any region version this reader does not know. */
    names.len = 0;
    put_u32(&names, 1);
    put_u64(&names, 99);
    put_cstr(&names, "/old");
    add_region(&c, IOLENS_REGION_NAMES, 1, &names);
    file = assemble(&c);
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.unknown_regions, 2);
    ck_assert_uint_eq(log.nnames, 3);
    ck_assert_ptr_null(iolens_log_name_of(&log, 99));
    iolens_log_free(&log);
    free(file.p);
    free(names.p);
    free_content(&c);

    struct bytes raw = {0};
    /* explicit id cut short */
    put_u32(&raw, 1);
    put_u32(&raw, 3u << 1 | 1u);
    put_u32(&raw, 0x12345678);
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);
    /* the same entry with its id and name whole is fine */
    raw.len = 0;
    put_u32(&raw, 1);
    put_name(&raw, 5555, "/ab");
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_OK);
    /* name longer than what is left */
    raw.len = 0;
    put_u32(&raw, 1);
    put_u32(&raw, 9u << 1);
    put(&raw, "/abc", 4);
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);
    /* a NUL inside a name */
    raw.len = 0;
    put_u32(&raw, 1);
    put_u32(&raw, 3u << 1);
    put(&raw, "/\0b", 3);
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);
    /* more entries than 4-byte minimum entries fit */
    raw.len = 0;
    put_u32(&raw, 3);
    put_hashed_name(&raw, "");
    put_hashed_name(&raw, "/x");
    ck_assert_int_eq(status_with_region(R_NAMES, &raw), IOLENS_READ_CORRUPT);
    free(raw.p);
}
END_TEST

START_TEST(read_from_path_errors)
{
    struct iolens_log log;
    char err[256];
    ck_assert_int_eq(iolens_log_read("/nonexistent/iolens.log", &log, err, sizeof err),
                     IOLENS_READ_IO);
    ck_assert_str_eq(err, strerror(ENOENT));
    ck_assert_int_eq(iolens_log_read("/", &log, err, sizeof err), IOLENS_READ_IO);
    ck_assert_str_eq(err, strerror(EISDIR));
    ck_assert_int_eq(iolens_log_read("/dev/null", &log, err, sizeof err), IOLENS_READ_TRUNCATED);
}
END_TEST

START_TEST(mount_lookup)
{
    struct bytes file = standard_file();
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_str_eq(iolens_log_mount_of(&log, "/data/sub/a")->point, "/data/sub");
    ck_assert_str_eq(iolens_log_mount_of(&log, "/data/sub")->point, "/data/sub");
    ck_assert_str_eq(iolens_log_mount_of(&log, "/data/subdir/c")->point, "/data");
    ck_assert_str_eq(iolens_log_mount_of(&log, "/datax")->point, "/");
    ck_assert_str_eq(iolens_log_mount_of(&log, "/")->point, "/");
    ck_assert_ptr_null(iolens_log_mount_of(&log, "<STDOUT>"));
    ck_assert_ptr_null(iolens_log_mount_of(&log, NULL));
    iolens_log_free(&log);
    free(file.p);
}
END_TEST

/* A known layer's descriptor (record_merge.h), where the tools find its
 * counters' names and descriptions. */
static const struct iolens_layer_desc *desc_of(uint32_t kind)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    ck_assert_ptr_nonnull(d);
    return d;
}

START_TEST(counter_tables)
{
    ck_assert_str_eq(iolens_layer_name(IOLENS_REGION_POSIX), "POSIX");
    ck_assert_str_eq(iolens_layer_name(IOLENS_REGION_STDIO), "STDIO");
    ck_assert_str_eq(iolens_layer_name(IOLENS_REGION_MPIIO), "MPIIO");
    ck_assert_uint_eq(desc_of(IOLENS_REGION_MPIIO)->ncounters, MPIIO_NUM_COUNTERS);
    ck_assert_uint_eq(desc_of(IOLENS_REGION_MPIIO)->nfcounters, MPIIO_F_NUM_COUNTERS);
    ck_assert_str_eq(desc_of(IOLENS_REGION_MPIIO)->counter_names[MPIIO_COLL_OPENS],
                     "MPIIO_COLL_OPENS");
    ck_assert_str_eq(desc_of(IOLENS_REGION_MPIIO)->fcounter_descs[MPIIO_F_MAX_READ_TIME],
                     "duration of the slowest read");
    ck_assert_ptr_null(iolens_layer_name(IOLENS_REGION_RANKS));
    ck_assert_ptr_null(iolens_layer_name(99));
    ck_assert_uint_eq(desc_of(IOLENS_REGION_POSIX)->ncounters, POSIX_NUM_COUNTERS);
    ck_assert_uint_eq(desc_of(IOLENS_REGION_STDIO)->nfcounters, STDIO_F_NUM_COUNTERS);
    ck_assert_ptr_null(iolens_layer_desc_by_kind(99));
    ck_assert_str_eq(desc_of(IOLENS_REGION_POSIX)->counter_names[POSIX_BYTES_WRITTEN],
                     "POSIX_BYTES_WRITTEN");
    ck_assert_str_eq(desc_of(IOLENS_REGION_POSIX)->counter_names[POSIX_MAX_WRITE_TIME_SIZE],
                     "POSIX_MAX_WRITE_TIME_SIZE");
    ck_assert_str_eq(desc_of(IOLENS_REGION_STDIO)->fcounter_names[STDIO_F_META_TIME],
                     "STDIO_F_META_TIME");
    ck_assert_str_eq(desc_of(IOLENS_REGION_POSIX)->counter_descs[POSIX_FSYNCS], "fsync");
    /* No name past the last counter: the tables end at the enums' count. */
    ck_assert_uint_eq(desc_of(IOLENS_REGION_POSIX)->ncounters, POSIX_NUM_COUNTERS);
    ck_assert_uint_eq(desc_of(IOLENS_REGION_POSIX)->nfcounters, POSIX_F_NUM_COUNTERS);
    ck_assert_ptr_null(iolens_layer_desc_by_kind(99)); /* nor descriptions */
}
END_TEST

/* The HDF5 layers: named by the tables, and their regions read like the
 * others (an H5F region and two H5D regions, concatenated). */
START_TEST(hdf5_layers)
{
    ck_assert_str_eq(iolens_layer_name(IOLENS_REGION_H5F), "H5F");
    ck_assert_str_eq(iolens_layer_name(IOLENS_REGION_H5D), "H5D");
    ck_assert_uint_eq(desc_of(IOLENS_REGION_H5F)->ncounters, H5F_NUM_COUNTERS);
    ck_assert_uint_eq(desc_of(IOLENS_REGION_H5F)->nfcounters, H5F_F_NUM_COUNTERS);
    ck_assert_uint_eq(desc_of(IOLENS_REGION_H5D)->ncounters, H5D_NUM_COUNTERS);
    ck_assert_uint_eq(desc_of(IOLENS_REGION_H5D)->nfcounters, H5D_F_NUM_COUNTERS);
    ck_assert_str_eq(desc_of(IOLENS_REGION_H5D)->counter_names[H5D_ACCESS4_LENGTH_D5],
                     "H5D_ACCESS4_LENGTH_D5");
    ck_assert_str_eq(desc_of(IOLENS_REGION_H5F)->fcounter_names[H5F_F_META_TIME],
                     "H5F_F_META_TIME");
    ck_assert_str_eq(desc_of(IOLENS_REGION_H5F)->counter_descs[H5F_OPENS],
                     "H5Fcreate and H5Fopen (as Darshan)");
    /* No name past the last H5D counter. */
    ck_assert_uint_eq(desc_of(IOLENS_REGION_H5D)->ncounters, H5D_NUM_COUNTERS);
    ck_assert_ptr_null(iolens_layer_name(IOLENS_REGION_H5D + 1));

    struct content c;
    standard_content(&c);
    struct bytes names = {0}, h5f = {0}, h5d1 = {0}, h5d2 = {0};
    put_u32(&names, 2);
    put_name(&names, 90, "/data/f.h5");
    put_name(&names, 91, "/data/f.h5:/grid/temp");
    add_region(&c, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &names);
    struct iolens_h5f_record f;
    memset(&f, 0, sizeof f);
    f.id = 90;
    f.counters[H5F_CREATES] = 1;
    f.counters[H5F_USE_MPIIO] = 1;
    f.fcounters[H5F_F_META_TIME] = 0.75;
    put_layer(&h5f, H5F_NUM_COUNTERS, H5F_F_NUM_COUNTERS, &f, 1);
    add_region(&c, IOLENS_REGION_H5F, IOLENS_LAYER_VERSION_2, &h5f);
    struct iolens_h5d_record d;
    memset(&d, 0, sizeof d);
    d.id = 91;
    d.counters[H5D_WRITES] = 2;
    d.counters[H5D_BYTES_WRITTEN] = 3200;
    d.counters[H5D_ACCESS1_LENGTH_D2] = 20;
    d.counters[H5D_FILE_REC_ID] = 90;
    d.fcounters[H5D_F_VARIANCE_RANK_BYTES] = 4.5;
    put_layer(&h5d1, H5D_NUM_COUNTERS, H5D_F_NUM_COUNTERS, &d, 1);
    add_region(&c, IOLENS_REGION_H5D, IOLENS_LAYER_VERSION_2, &h5d1);
    d.rank = IOLENS_RANK_ALL; /* a serial log: ranks 0 and -1 only */
    d.counters[H5D_WRITES] = 3;
    put_layer(&h5d2, H5D_NUM_COUNTERS, H5D_F_NUM_COUNTERS, &d, 1);
    add_region(&c, IOLENS_REGION_H5D, IOLENS_LAYER_VERSION_2, &h5d2);

    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.nlayers, 4);
    const struct iolens_log_layer *lf = &log.layers[2], *ld = &log.layers[3];
    ck_assert_uint_eq(lf->kind, IOLENS_REGION_H5F);
    ck_assert_uint_eq(lf->version, IOLENS_LAYER_VERSION_2);
    ck_assert_uint_eq(lf->counter_count, H5F_NUM_COUNTERS);
    ck_assert_uint_eq(lf->record_count, 1);
    ck_assert_int_eq(lf->counters[H5F_USE_MPIIO], 1);
    ck_assert_double_eq(lf->fcounters[H5F_F_META_TIME], 0.75);
    ck_assert_uint_eq(ld->kind, IOLENS_REGION_H5D);
    ck_assert_uint_eq(ld->record_count, 2);
    ck_assert_uint_eq(ld->id[1], 91);
    ck_assert_int_eq(ld->rank[1], IOLENS_RANK_ALL);
    ck_assert_int_eq(ld->counters[H5D_WRITES], 2);
    ck_assert_int_eq(ld->counters[H5D_NUM_COUNTERS + H5D_WRITES], 3);
    ck_assert_int_eq(ld->counters[H5D_NUM_COUNTERS + H5D_ACCESS1_LENGTH_D2], 20);
    ck_assert_int_eq(ld->counters[H5D_NUM_COUNTERS + H5D_FILE_REC_ID], 90);
    ck_assert_double_eq(ld->fcounters[H5D_F_NUM_COUNTERS + H5D_F_VARIANCE_RANK_BYTES], 4.5);
    ck_assert_str_eq(iolens_log_name_of(&log, ld->id[0]), "/data/f.h5:/grid/temp");
    iolens_log_free(&log);
    free(file.p);

    /* an H5D region whose records are one counter short of its head */
    h5d2.len = 0;
    struct iolens_layer_head h = {H5D_NUM_COUNTERS, H5D_F_NUM_COUNTERS, 1};
    put(&h5d2, &h, sizeof h);
    unsigned char zeros[sizeof d - 8] = {0};
    put(&h5d2, zeros, sizeof zeros);
    c.n--;
    free(c.r[c.n].raw.p);
    add_region(&c, IOLENS_REGION_H5D, IOLENS_LAYER_VERSION_2, &h5d2);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    free(names.p);
    free(h5f.p);
    free(h5d1.p);
    free(h5d2.p);
    free_content(&c);
}
END_TEST

/* ------------------------------------------------- intervals region -- */

/* One hand-made interval of the format (log_format.h), in ns. */
struct hand_iv {
    int64_t start_ns, dur_ns, bytes;
    uint64_t file_id;
    uint32_t accesses, flags;
    int64_t busy_ns;
};

static uint64_t hand_zigzag(int64_t k)
{
    return k >= 0 ? (uint64_t)k * 2 : (uint64_t)(-(k + 1)) * 2 + 1;
}

/* An intervals layer of version 3 written from the format's definition:
 * the seven columns byte-planed, busy as the zigzag-coded difference
 * from the duration, file ids as they are (file column 0). */
static void put_hand_columns_v3(struct bytes *b, const struct hand_iv *iv, size_t n)
{
    uint64_t v[8];
    ck_assert_uint_le(n, 8);
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        v[i] = (uint64_t)(iv[i].start_ns - prev);
        prev = iv[i].start_ns;
    }
    put_planes(b, v, n, 8);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint64_t)iv[i].dur_ns;
    put_planes(b, v, n, 8);
    for (size_t i = 0; i < n; i++)
        v[i] = hand_zigzag(iv[i].dur_ns - iv[i].busy_ns);
    put_planes(b, v, n, 8);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint64_t)iv[i].bytes;
    put_planes(b, v, n, 8);
    for (size_t i = 0; i < n; i++)
        v[i] = iv[i].file_id;
    put_planes(b, v, n, 8);
    for (size_t i = 0; i < n; i++)
        v[i] = iv[i].accesses;
    put_planes(b, v, n, 4);
    for (size_t i = 0; i < n; i++)
        v[i] = iv[i].flags;
    put_planes(b, v, n, 4);
}

/* An intervals layer written from the format's definition: head, then the
 * seven columns (version 1: the head without overlap, six columns, no
 * busy; version 3: put_hand_columns_v3), starts as differences from the
 * previous start. */
static void put_hand_layer_version(struct bytes *b, uint32_t version, uint32_t kind,
                                   uint64_t count, double bound, uint64_t accesses,
                                   int64_t bytes, double sum_dur, double overlap,
                                   const struct hand_iv *iv, size_t n)
{
    struct iolens_intervals_layer L = {kind, 0, count, bound, accesses, bytes, sum_dur, overlap};
    put(b, &L, version == IOLENS_INTERVALS_VERSION_1 ? IOLENS_INTERVALS_LAYER_SIZE_V1 : sizeof L);
    if (version == IOLENS_INTERVALS_VERSION) {
        put_hand_columns_v3(b, iv, n);
        return;
    }
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        put_u64(b, (uint64_t)(iv[i].start_ns - prev));
        prev = iv[i].start_ns;
    }
    for (size_t i = 0; i < n; i++)
        put_u64(b, (uint64_t)iv[i].dur_ns);
    for (size_t i = 0; i < n && version != IOLENS_INTERVALS_VERSION_1; i++)
        put_u64(b, (uint64_t)iv[i].busy_ns);
    for (size_t i = 0; i < n; i++)
        put_u64(b, (uint64_t)iv[i].bytes);
    for (size_t i = 0; i < n; i++)
        put_u64(b, iv[i].file_id);
    for (size_t i = 0; i < n; i++)
        put_u32(b, iv[i].accesses);
    for (size_t i = 0; i < n; i++)
        put_u32(b, iv[i].flags);
}

static void put_hand_layer(struct bytes *b, uint32_t kind, uint64_t count, double bound,
                           uint64_t accesses, int64_t bytes, double sum_dur,
                           const struct hand_iv *iv, size_t n)
{
    put_hand_layer_version(b, IOLENS_INTERVALS_VERSION, kind, count, bound, accesses, bytes,
                           sum_dur, 0, iv, n);
}

static void put_hand_head(struct bytes *b, int64_t rank, double offset, double unc,
                          uint32_t nlayers)
{
    struct iolens_intervals_head h = {rank, offset, unc, nlayers, 0};
    put(b, &h, sizeof h);
}

/* The expected bytes of rank 1's region in intervals_round_trip. */
static const struct hand_iv RANK1_POSIX[3] = {
    {250000000, 500000000, 4096, ID_A, 1, IOLENS_IV_WRITE, 500000000},
    {500000000, 1000000000, 8192, ID_B, 2, IOLENS_IV_WRITE | IOLENS_IV_READ, 750000000},
    {2000000000, 0, 100, ID_A, 1, IOLENS_IV_READ | IOLENS_IV_FAILED, 0},
};
static const struct hand_iv RANK1_FUTURE[1] = {{0, 1, 1, 1, 1, 0, 1}};
static const struct hand_iv RANK1_STDIO[1] = {{0, 125000000, 10, ID_C, 1, IOLENS_IV_READ,
                                               125000000}};

static void hand_rank1_region(struct bytes *b)
{
    put_hand_head(b, 1, -0.5, 0.25, 3);
    put_hand_layer(b, IOLENS_REGION_POSIX, 3, 0.125, 5, 20000, 1.75, RANK1_POSIX, 3);
    put_hand_layer(b, 99, 1, 0, 1, 1, 0, RANK1_FUTURE, 1);
    put_hand_layer(b, IOLENS_REGION_STDIO, 1, 0, 1, 10, 0.125, RANK1_STDIO, 1);
}

/* The runtime's encoder: the same region from seconds, given unsorted. */
static void encode_rank1_region(struct iolens_buf *out)
{
    struct iolens_interval posix[3] = {
        {2.0, 1.5 /* end before start: empty */, ID_A, 100, 1, IOLENS_IV_READ | IOLENS_IV_FAILED,
         0},
        {0.25, 0.75, ID_A, 4096, 1, IOLENS_IV_WRITE, 0.5},
        {0.5, 1.5, ID_B, 8192, 2, IOLENS_IV_WRITE | IOLENS_IV_READ, 0.75},
    };
    struct iolens_interval future = {0, 1e-9, 1, 1, 1, 0, 1e-9};
    struct iolens_interval stdio_iv = {-1.0 /* before the job start */, 0.125, ID_C, 10, 1,
                                       IOLENS_IV_READ, 0.125};
    struct iolens_intervals_layer_in layers[3] = {
        {IOLENS_REGION_POSIX, posix, 3, 0.125, 5, 20000, 1.75, 0},
        {99, &future, 1, 0, 1, 1, 0, 0},
        {IOLENS_REGION_STDIO, &stdio_iv, 1, 0, 1, 10, 0.125, 0},
    };
    struct iolens_intervals_rank in = {1, -0.5, 0.25, layers, 3, NULL};
    ck_assert_int_eq(iolens_encode_intervals_region(out, &in), 0);
}

START_TEST(intervals_round_trip)
{
    struct iolens_buf enc = {0};
    encode_rank1_region(&enc);
    struct bytes hand = {0};
    hand_rank1_region(&hand);
    ck_assert_uint_eq(enc.len, hand.len);
    ck_assert_int_eq(memcmp(enc.data, hand.p, hand.len), 0);

    struct content c;
    mpi_content(&c);
    add_region(&c, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, &hand);
    struct bytes r0 = {0};  /* rank 0: one empty POSIX layer, written after rank 1 */
    put_hand_head(&r0, 0, 0.0, 0.0, 1);
    put_hand_layer(&r0, IOLENS_REGION_POSIX, 0, 0, 0, 0, 0, NULL, 0);
    add_region(&c, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, &r0);
    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.ninterval_sets, 3);   /* the unknown kind 99 is skipped */
    const struct iolens_log_intervals *s0 = &log.intervals[0], *p = &log.intervals[1];
    ck_assert_int_eq(s0->rank, 0);
    ck_assert_uint_eq(s0->count, 0);
    ck_assert_int_eq(p->rank, 1);
    ck_assert_uint_eq(p->kind, IOLENS_REGION_POSIX);
    ck_assert_double_eq(p->clock_offset, -0.5);
    ck_assert_double_eq(p->clock_uncertainty, 0.25);
    ck_assert_double_eq(p->error_bound, 0.125);
    ck_assert_uint_eq(p->total_accesses, 5);
    ck_assert_int_eq(p->total_bytes, 20000);
    ck_assert_double_eq(p->sum_duration, 1.75);
    ck_assert_uint_eq(p->count, 3);
    ck_assert_double_eq(p->overlap, 0);
    double starts[3] = {0.25, 0.5, 2.0}, ends[3] = {0.75, 1.5, 2.0}, busy[3] = {0.5, 0.75, 0};
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq(p->start[i], starts[i]);
        ck_assert_double_eq(p->end[i], ends[i]);
        ck_assert_double_eq(p->busy[i], busy[i]);
        ck_assert_int_eq(p->bytes[i], RANK1_POSIX[i].bytes);
        ck_assert_uint_eq(p->file_id[i], RANK1_POSIX[i].file_id);
        ck_assert_uint_eq(p->accesses[i], RANK1_POSIX[i].accesses);
        ck_assert_uint_eq(p->flags[i], RANK1_POSIX[i].flags);
    }
    const struct iolens_log_intervals *st = &log.intervals[2];
    ck_assert_uint_eq(st->kind, IOLENS_REGION_STDIO);
    ck_assert_double_eq(st->start[0], 0.0);
    ck_assert_double_eq(st->end[0], 0.125);
    ck_assert_double_eq(st->clock_offset, -0.5);
    iolens_log_free(&log);
    ck_assert_ptr_null(log.intervals);
    free(file.p);
    free(r0.p);
    free(hand.p);
    iolens_buf_free(&enc);
    free_content(&c);
}
END_TEST

/* A version 1 region (no busy column, no overlap field) is still read:
 * busy is then the span, and overlap the whole sum_duration (nothing is
 * known of the accesses' overlaps). */
START_TEST(intervals_version_1)
{
    struct bytes b = {0};
    put_hand_head(&b, 1, 0, 0, 1);
    put_hand_layer_version(&b, IOLENS_INTERVALS_VERSION_1, IOLENS_REGION_POSIX, 3, 0.125, 5,
                           20000, 1.75, 0, RANK1_POSIX, 3);
    struct content c;
    mpi_content(&c);
    add_region(&c, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION_1, &b);
    struct bytes file = assemble(&c);
    struct iolens_log log;
    ck_assert_int_eq(read_bytes(file.p, file.len, &log), IOLENS_READ_OK);
    ck_assert_uint_eq(log.unknown_regions, 1);   /* the standard content's own */
    ck_assert_uint_eq(log.ninterval_sets, 1);
    const struct iolens_log_intervals *p = &log.intervals[0];
    ck_assert_uint_eq(p->count, 3);
    ck_assert_double_eq(p->sum_duration, 1.75);
    ck_assert_double_eq(p->overlap, 1.75);
    double spans[3] = {0.5, 1.0, 0};
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq(p->busy[i], spans[i]);
        ck_assert_int_eq(p->bytes[i], RANK1_POSIX[i].bytes);
        ck_assert_uint_eq(p->file_id[i], RANK1_POSIX[i].file_id);
        ck_assert_uint_eq(p->flags[i], RANK1_POSIX[i].flags);
    }
    iolens_log_free(&log);
    free(file.p);
    free(b.p);
    free_content(&c);
}
END_TEST

/* The status of the 3-rank job with one intervals region of raw bytes b. */
static enum iolens_read_status intervals_status(const struct bytes *b)
{
    struct content c;
    mpi_content(&c);
    add_region(&c, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, b);
    enum iolens_read_status st = status_of_content(&c);
    free_content(&c);
    return st;
}

/* A one-layer region of rank 1 with one interval iv and layer totals. */
static enum iolens_read_status one_interval_status(struct hand_iv iv, uint64_t count,
                                                   double bound, uint64_t accesses,
                                                   int64_t bytes, double sum_dur)
{
    struct bytes b = {0};
    put_hand_head(&b, 1, 0, 0, 1);
    put_hand_layer(&b, IOLENS_REGION_POSIX, count, bound, accesses, bytes, sum_dur, &iv, 1);
    enum iolens_read_status st = intervals_status(&b);
    free(b.p);
    return st;
}

START_TEST(intervals_corrupt_values)
{
    struct hand_iv ok = {10, 20, 30, ID_A, 2, IOLENS_IV_WRITE, 0};
    ck_assert_int_eq(one_interval_status(ok, 1, 0, 2, 30, 1e-8), IOLENS_READ_OK);
    struct hand_iv bad = ok;
    bad.start_ns = -1;                               /* negative time */
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_CORRUPT);
    bad = ok;
    bad.dur_ns = -1;                                 /* negative duration */
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_CORRUPT);
    bad = ok;
    bad.start_ns = INT64_MAX;                        /* the end overflows */
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_CORRUPT);
    bad.dur_ns = 0;
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_OK);
    bad = ok;
    bad.bytes = -5;
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_CORRUPT);
    bad = ok;
    bad.busy_ns = -1;                                /* negative busy time */
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_CORRUPT);
    bad = ok;
    bad.accesses = 0;
    ck_assert_int_eq(one_interval_status(bad, 1, 0, 2, 30, 0), IOLENS_READ_CORRUPT);
    /* more accesses in the intervals than the layer counted */
    ck_assert_int_eq(one_interval_status(ok, 1, 0, 1, 30, 0), IOLENS_READ_CORRUPT);
    ck_assert_int_eq(one_interval_status(ok, 1, -1.0, 2, 30, 0), IOLENS_READ_CORRUPT);
    ck_assert_int_eq(one_interval_status(ok, 1, NAN, 2, 30, 0), IOLENS_READ_CORRUPT);
    ck_assert_int_eq(one_interval_status(ok, 1, 0, 2, 30, INFINITY), IOLENS_READ_CORRUPT);
    ck_assert_int_eq(one_interval_status(ok, 1, 0, 2, -30, 0), IOLENS_READ_CORRUPT);
}
END_TEST

START_TEST(intervals_corrupt_counts)
{
    struct hand_iv two[2] = {{10, 20, 30, ID_A, 1, 0, 0}, {15, 5, 1, ID_B, 1, 0, 0}};
    uint64_t counts[] = {1, 3, UINT64_MAX, UINT64_MAX / IOLENS_INTERVAL_DISK_SIZE + 1,
                         UINT64_MAX / IOLENS_INTERVAL_DISK_SIZE_V1 + 1,
                         (1ull << 63) / 5};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        struct bytes b = {0};
        put_hand_head(&b, 1, 0, 0, 1);
        put_hand_layer(&b, IOLENS_REGION_POSIX, counts[i], 0, 2, 31, 0, two, 2);
        ck_assert_msg(intervals_status(&b) == IOLENS_READ_CORRUPT, "count %llu",
                      (unsigned long long)counts[i]);
        free(b.p);
    }
    /* a delta after the first that goes back in time */
    struct hand_iv back[2] = {{10, 20, 30, ID_A, 1, 0, 0}, {5, 5, 1, ID_B, 1, 0, 0}};
    struct bytes b = {0};
    put_hand_head(&b, 1, 0, 0, 1);
    put_hand_layer(&b, IOLENS_REGION_POSIX, 2, 0, 2, 31, 0, back, 2);
    ck_assert_int_eq(intervals_status(&b), IOLENS_READ_CORRUPT);
    /* every truncation of a valid region, and a layer count beyond it */
    b.len = 0;
    hand_rank1_region(&b);
    ck_assert_int_eq(intervals_status(&b), IOLENS_READ_OK);
    size_t full = b.len;
    for (b.len = 0; b.len < full; b.len++)
        ck_assert_msg(intervals_status(&b) == IOLENS_READ_CORRUPT, "cut at %zu", b.len);
    uint32_t nlayers = 4;
    memcpy(b.p + offsetof(struct iolens_intervals_head, nlayers), &nlayers, 4);
    ck_assert_int_eq(intervals_status(&b), IOLENS_READ_CORRUPT);
    nlayers = UINT32_MAX;
    memcpy(b.p + offsetof(struct iolens_intervals_head, nlayers), &nlayers, 4);
    ck_assert_int_eq(intervals_status(&b), IOLENS_READ_CORRUPT);
    free(b.p);
}
END_TEST

START_TEST(intervals_ranks_and_clock)
{
    struct hand_iv ok = {10, 20, 30, ID_A, 1, 0, 0};
    int64_t ranks[] = {0, 2, 3, -1, INT64_MIN};
    enum iolens_read_status want[] = {IOLENS_READ_OK, IOLENS_READ_OK, IOLENS_READ_CORRUPT,
                                      IOLENS_READ_CORRUPT, IOLENS_READ_CORRUPT};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        struct bytes b = {0};
        put_hand_head(&b, ranks[i], 0, 0, 1);
        put_hand_layer(&b, IOLENS_REGION_POSIX, 1, 0, 1, 30, 0, &ok, 1);
        ck_assert_msg(intervals_status(&b) == want[i], "rank %lld", (long long)ranks[i]);
        free(b.p);
    }
    double offsets[] = {NAN, INFINITY}, uncs[] = {-1e-9, NAN};
    for (int i = 0; i < 2; i++) {
        struct bytes b = {0};
        put_hand_head(&b, 1, offsets[i], 0, 0);
        ck_assert_int_eq(intervals_status(&b), IOLENS_READ_CORRUPT);
        b.len = 0;
        put_hand_head(&b, 1, 0, uncs[i], 0);
        ck_assert_int_eq(intervals_status(&b), IOLENS_READ_CORRUPT);
        free(b.p);
    }
    /* one rank with two POSIX sets (two regions of the same rank) */
    struct content c;
    mpi_content(&c);
    struct bytes b = {0};
    put_hand_head(&b, 2, 0, 0, 1);
    put_hand_layer(&b, IOLENS_REGION_POSIX, 1, 0, 1, 30, 0, &ok, 1);
    add_region(&c, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, &b);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_OK);
    add_region(&c, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, &b);
    ck_assert_int_eq(status_of_content(&c), IOLENS_READ_CORRUPT);
    free(b.p);
    free_content(&c);
}
END_TEST

static Suite *reader_suite(void)
{
    Suite *s = suite_create("reader");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, round_trip_buffer);
    tcase_add_test(tc, every_truncation_is_truncated);
    tcase_add_test(tc, every_byte_flip_is_caught);
    tcase_add_test(tc, not_an_iolens_log);
    tcase_add_test(tc, version_and_byte_order);
    tcase_add_test(tc, bad_header_fields);
    tcase_add_test(tc, region_offsets_and_sizes);
    tcase_add_test(tc, bad_compressed_bytes_with_valid_crc);
    tcase_add_test(tc, zlib_framing_with_valid_crc);
    tcase_add_test(tc, layer_counts_must_match_raw_size);
    tcase_add_test(tc, layer_with_other_counter_counts);
    tcase_add_test(tc, bad_job_region);
    tcase_add_test(tc, bad_mounts_and_names);
    tcase_add_test(tc, unknown_regions_are_skipped);
    tcase_add_test(tc, required_and_duplicate_regions);
    tcase_add_test(tc, ranks_region);
    tcase_add_test(tc, mpmd_executables);
    tcase_add_test(tc, record_ranks_are_checked);
    tcase_add_test(tc, repeated_regions_concatenate);
    tcase_add_test(tc, zero_columns_are_flagged_across_regions);
    tcase_add_test(tc, names_with_implied_ids);
    tcase_add_test(tc, read_from_path_errors);
    tcase_add_test(tc, mount_lookup);
    tcase_add_test(tc, counter_tables);
    tcase_add_test(tc, hdf5_layers);
    tcase_add_test(tc, intervals_round_trip);
    tcase_add_test(tc, intervals_version_1);
    tcase_add_test(tc, intervals_corrupt_values);
    tcase_add_test(tc, intervals_corrupt_counts);
    tcase_add_test(tc, intervals_ranks_and_clock);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reader_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
