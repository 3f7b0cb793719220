/* Logs assembled byte by byte (hand_log.h). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "hand_log.h"

/* ------------------------------------------------------------ buffers -- */


void put(struct bytes *b, const void *data, size_t n)
{
    if (n == 0)
        return;   /* b->p and data may be NULL then */
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        ck_assert_ptr_nonnull(b->p);
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

void put_u32(struct bytes *b, uint32_t v) { put(b, &v, 4); }
void put_u64(struct bytes *b, uint64_t v) { put(b, &v, 8); }
void put_str(struct bytes *b, const char *s, size_t n)
{
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}
void put_cstr(struct bytes *b, const char *s) { put_str(b, s, strlen(s)); }

/* NAMES entries (log_format.h): uint32 len << 1 | explicit, the id if
 * explicit, the name. */
void put_name(struct bytes *b, uint64_t id, const char *name)
{
    put_u32(b, (uint32_t)strlen(name) << 1 | 1u);
    put_u64(b, id);
    put(b, name, strlen(name));
}

void put_hashed_name(struct bytes *b, const char *name)
{
    put_u32(b, (uint32_t)strlen(name) << 1);
    put(b, name, strlen(name));
}

/* The id a NAMES entry without an explicit id implies, computed here from
 * the format's definition (XXH3 64-bit of the name, ids 0..15 moved off
 * by xor with 0x9e3779b97f4a7c15), not with format/path_hash.h. */
uint64_t implied_id(const char *name)
{
    uint64_t h = XXH3_64bits(name, strlen(name));
    return h <= IOLENS_ID_RESERVED_MAX ? h ^ 0x9e3779b97f4a7c15ull : h;
}

/* The layer body layout of log_format.h, written out independently of
 * the runtime's encoder: n records of ncols 8-byte values, row-major in
 * rows, become column after column, each as 8 byte-planes. */
void put_planes(struct bytes *b, const uint64_t *v, size_t n, unsigned width)
{
    for (unsigned k = 0; k < width; k++)
        for (size_t i = 0; i < n; i++) {
            unsigned char byte = (unsigned char)(v[i] >> (8 * k));
            put(b, &byte, 1);
        }
}

void put_columns(struct bytes *b, const void *rows, size_t n, size_t ncols)
{
    const unsigned char *src = rows;
    for (size_t c = 0; c < ncols; c++)
        for (size_t plane = 0; plane < 8; plane++)
            for (size_t i = 0; i < n; i++)
                put(b, &src[(i * ncols + c) * 8 + plane], 1);
}

/* A layer region: head, then the records in column layout. */
void put_layer(struct bytes *b, uint32_t cc, uint32_t fc, const void *rows, size_t n)
{
    struct iolens_layer_head h = {cc, fc, n};
    put(b, &h, sizeof h);
    put_columns(b, rows, n, 2 + (size_t)cc + fc);
}

/* ------------------------------------------------------- log building -- */

static void build_job(struct bytes *b)
{
    struct iolens_job_fixed j = {
        .uid = 1000, .start_time_sec = 1700000000, .start_time_nsec = 5,
        .end_time_sec = 1700000010, .end_time_nsec = 6, .run_time = 10.0,
        .nprocs = 1, .nnodes = 1, .pid = 77, .parent_pid = 0,
        .budget_bytes = 65536, .budget_used = 1234, .budget_needed = 5678,
        .folded_opens = 9, .folded_files = 3, .string_count = IOLENS_JOB_NSTRINGS_MIN,
    };
    put(b, &j, sizeof j);
    put_cstr(b, "job.1");
    put_cstr(b, "bob");
    put_cstr(b, "/bin/prog");
    put_str(b, "a\0b c", 5);
    put_cstr(b, "h1");
    put_cstr(b, "9.9");
    put_cstr(b, "");   /* not an MPI job */
}

static void build_mounts(struct bytes *b)
{
    put_u32(b, 3);
    put_u64(b, 4096);
    put_cstr(b, "/");
    put_cstr(b, "ext4");
    put_u64(b, 1 << 20);
    put_cstr(b, "/data");
    put_cstr(b, "lustre");
    put_u64(b, 512);
    put_cstr(b, "/data/sub");
    put_cstr(b, "xfs");
}

static void build_names(struct bytes *b)
{
    put_u32(b, 3);
    put_name(b, ID_C, "/data/subdir/c"); /* deliberately unsorted */
    put_name(b, ID_A, "/data/sub/a");
    put_name(b, ID_B, "<STDOUT>");
}

void standard_posix_records(struct iolens_posix_record r[2])
{
    memset(r, 0, 2 * sizeof *r);
    r[0].id = ID_A;
    r[0].rank = 0;
    r[0].counters[POSIX_WRITES] = 1000;
    r[0].counters[POSIX_BYTES_WRITTEN] = 4096000;
    r[0].fcounters[POSIX_F_WRITE_TIME] = 1.5;
    r[1] = r[0];
    r[1].id = ID_B;
    r[1].rank = -1;
    r[1].counters[POSIX_WRITES] = 3;
    r[1].counters[POSIX_MAX_WRITE_TIME_SIZE] = 42;
    r[1].fcounters[POSIX_F_MAX_WRITE_TIME] = 0.25;
}

static void build_posix(struct bytes *b)
{
    struct iolens_posix_record r[2];
    standard_posix_records(r);
    put_layer(b, POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, r, 2);
}

static void build_stdio(struct bytes *b)
{
    struct iolens_stdio_record r;
    memset(&r, 0, sizeof r);
    r.id = ID_C;
    r.rank = 0;
    r.counters[STDIO_READS] = 7;
    r.fcounters[STDIO_F_META_TIME] = 0.125;
    put_layer(b, STDIO_NUM_COUNTERS, STDIO_F_NUM_COUNTERS, &r, 1);
}

void standard_content(struct content *c)
{
    memset(c, 0, sizeof *c);
    c->n = NREGIONS_STD;
    c->r[R_JOB] = (struct region){IOLENS_REGION_JOB, IOLENS_JOB_VERSION, {0}};
    c->r[R_MOUNTS] = (struct region){IOLENS_REGION_MOUNTS, IOLENS_MOUNTS_VERSION, {0}};
    c->r[R_UNKNOWN] = (struct region){99, 1, {0}};
    c->r[R_NAMES] = (struct region){IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, {0}};
    c->r[R_POSIX] = (struct region){IOLENS_REGION_POSIX, IOLENS_LAYER_VERSION_2, {0}};
    c->r[R_STDIO] = (struct region){IOLENS_REGION_STDIO, IOLENS_LAYER_VERSION_2, {0}};
    build_job(&c->r[R_JOB].raw);
    build_mounts(&c->r[R_MOUNTS].raw);
    put(&c->r[R_UNKNOWN].raw, "future", 6);
    build_names(&c->r[R_NAMES].raw);
    build_posix(&c->r[R_POSIX].raw);
    build_stdio(&c->r[R_STDIO].raw);
}

void free_content(struct content *c)
{
    for (unsigned i = 0; i < NREGIONS; i++)
        free(c->r[i].raw.p);
}

struct iolens_region_desc *table_of(struct bytes *file)
{
    return (struct iolens_region_desc *)(file->p + HDR);
}

struct iolens_file_header *header_of(struct bytes *file)
{
    return (struct iolens_file_header *)file->p;
}

/* Recomputes the header CRC (after a deliberate header or table edit). */
void reseal(struct bytes *file)
{
    struct iolens_file_header *h = header_of(file);
    h->header_crc = 0;
    uLong crc = crc32(0, (const Bytef *)h, HDR);
    crc = crc32(crc, file->p + HDR, h->region_count * DESC);
    h->header_crc = (uint32_t)crc;
}

/* Recomputes region i's CRC (after an edit of its stored bytes). */
void reseal_region(struct bytes *file, unsigned i)
{
    struct iolens_region_desc *d = &table_of(file)[i];
    d->crc32 = (uint32_t)crc32(0, file->p + d->offset, (uInt)d->stored_size);
    reseal(file);
}

/* Header, table and zlib-compressed regions, as the writer lays them out. */
struct bytes assemble(const struct content *c)
{
    struct bytes file = {0};
    struct iolens_file_header h = {0};
    memcpy(h.magic, IOLENS_MAGIC, IOLENS_MAGIC_LEN);
    h.version = IOLENS_FORMAT_VERSION_1; /* the previous format: layer regions of version 2 */
    h.byte_order = IOLENS_BYTE_ORDER_MARK;
    h.header_size = HDR;
    h.region_count = c->n;
    put(&file, &h, sizeof h);
    struct iolens_region_desc table[NREGIONS];
    struct bytes packed[NREGIONS];
    uint64_t offset = HDR + c->n * DESC;
    for (unsigned i = 0; i < c->n; i++) {
        uLongf len = compressBound(c->r[i].raw.len);
        packed[i].p = malloc(len);
        ck_assert_int_eq(compress2(packed[i].p, &len, c->r[i].raw.p ? c->r[i].raw.p : (Bytef *)"",
                                   c->r[i].raw.len, 6),
                         Z_OK);
        packed[i].len = len;
        table[i] = (struct iolens_region_desc){
            .kind = c->r[i].kind, .version = c->r[i].version, .offset = offset,
            .stored_size = len, .raw_size = c->r[i].raw.len,
            .crc32 = (uint32_t)crc32(0, packed[i].p, (uInt)len),
            .compression = IOLENS_COMPRESS_ZLIB,
        };
        offset += len;
    }
    put(&file, table, c->n * DESC);
    for (unsigned i = 0; i < c->n; i++) {
        put(&file, packed[i].p, packed[i].len);
        free(packed[i].p);
    }
    reseal(&file);
    return file;
}

struct bytes standard_file(void)
{
    struct content c;
    standard_content(&c);
    struct bytes file = assemble(&c);
    free_content(&c);
    return file;
}

/* Reads a buffer; checks that a failure leaves the log empty and says why. */
enum iolens_read_status read_bytes(const void *p, size_t n, struct iolens_log *log)
{
    char err[256];
    enum iolens_read_status st = iolens_log_read_buffer(p, n, log, err, sizeof err);
    if (st != IOLENS_READ_OK) {
        ck_assert_msg(err[0] != '\0', "no reason given for status %d", st);
        ck_assert_ptr_null(log->layers);
        ck_assert_ptr_null(log->names);
        ck_assert_ptr_null(log->jobstr[0]);
    }
    return st;
}

enum iolens_read_status status_of(struct bytes *file)
{
    struct iolens_log log;
    enum iolens_read_status st = read_bytes(file->p, file->len, &log);
    iolens_log_free(&log);
    return st;
}

/* Builds the standard content with one region's raw bytes replaced. */
enum iolens_read_status status_with_region(unsigned which, const struct bytes *raw)
{
    struct content c;
    standard_content(&c);
    free(c.r[which].raw.p);
    c.r[which].raw = (struct bytes){0};
    if (raw->len > 0)
        put(&c.r[which].raw, raw->p, raw->len);
    struct bytes file = assemble(&c);
    free_content(&c);
    enum iolens_read_status st = status_of(&file);
    free(file.p);
    return st;
}

/* --------------------------------------------------------- round trip -- */

void check_standard_log(const struct iolens_log *log)
{
    /* Hand-made logs are of the previous format, the writer's of this one. */
    ck_assert(log->version == IOLENS_FORMAT_VERSION_1 || log->version == IOLENS_FORMAT_VERSION);
    ck_assert_uint_eq(log->job.uid, 1000);
    ck_assert_int_eq(log->job.start_time_sec, 1700000000);
    ck_assert_int_eq(log->job.end_time_nsec, 6);
    ck_assert_int_eq(log->job.pid, 77);
    ck_assert_uint_eq(log->job.budget_needed, 5678);
    ck_assert_uint_eq(log->job.folded_opens, 9);
    ck_assert_uint_eq(log->job.folded_files, 3);
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_JOBID], "job.1");
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_USER], "bob");
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_EXE], "/bin/prog");
    ck_assert_uint_eq(log->jobstr_len[IOLENS_JOBSTR_ARGS], 5);
    ck_assert_int_eq(memcmp(log->jobstr[IOLENS_JOBSTR_ARGS], "a\0b c", 6), 0);
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_HOSTS], "h1");
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_VERSION], "9.9");
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_MPI_VERSION], "");
    /* Written before the executables list: the executable alone. */
    ck_assert_str_eq(log->jobstr[IOLENS_JOBSTR_EXES], "/bin/prog");
    ck_assert_uint_eq(log->nranks, 0);
    ck_assert_ptr_null(log->ranks);

    ck_assert_uint_eq(log->nmounts, 3);
    ck_assert_str_eq(log->mounts[1].point, "/data");
    ck_assert_str_eq(log->mounts[1].fstype, "lustre");
    ck_assert_int_eq(log->mounts[1].block_size, 1 << 20);

    ck_assert_uint_eq(log->nnames, 3);
    ck_assert_uint_eq(log->names[0].id, ID_A); /* sorted */
    ck_assert_uint_eq(log->names[2].id, ID_C);
    ck_assert_str_eq(iolens_log_name_of(log, ID_A), "/data/sub/a");
    ck_assert_str_eq(iolens_log_name_of(log, ID_B), "<STDOUT>");
    ck_assert_str_eq(iolens_log_name_of(log, ID_C), "/data/subdir/c");
    ck_assert_ptr_null(iolens_log_name_of(log, 12345));

    ck_assert_uint_eq(log->unknown_regions, 1);
    ck_assert_uint_eq(log->nlayers, 2);
    const struct iolens_log_layer *p = &log->layers[0], *s = &log->layers[1];
    ck_assert_uint_eq(p->kind, IOLENS_REGION_POSIX);
    ck_assert_uint_eq(p->record_count, 2);
    ck_assert_uint_eq(p->counter_count, POSIX_NUM_COUNTERS);
    ck_assert_uint_eq(p->id[1], ID_B);
    ck_assert_int_eq(p->rank[1], -1);
    ck_assert_int_eq(p->counters[POSIX_BYTES_WRITTEN], 4096000);
    ck_assert_int_eq(p->counters[POSIX_WRITES], 1000);
    ck_assert_int_eq(p->counters[POSIX_NUM_COUNTERS + POSIX_BYTES_WRITTEN], 4096000);
    ck_assert_int_eq(p->counters[POSIX_NUM_COUNTERS + POSIX_WRITES], 3);
    ck_assert_int_eq(p->counters[POSIX_NUM_COUNTERS + POSIX_MAX_WRITE_TIME_SIZE], 42);
    ck_assert_double_eq(p->fcounters[POSIX_F_WRITE_TIME], 1.5);
    ck_assert_double_eq(p->fcounters[POSIX_F_NUM_COUNTERS + POSIX_F_MAX_WRITE_TIME], 0.25);
    ck_assert_uint_eq(s->kind, IOLENS_REGION_STDIO);
    ck_assert_uint_eq(s->record_count, 1);
    ck_assert_int_eq(s->counters[STDIO_READS], 7);
    ck_assert_double_eq(s->fcounters[STDIO_F_META_TIME], 0.125);
}
