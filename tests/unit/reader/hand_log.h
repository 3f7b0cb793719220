/* Logs assembled byte by byte from the format's definition
 * (include/iolens/log_format.h), independently of the runtime's encoder and
 * writer: the reader tests damage them on purpose, the writer tests compare
 * the runtime's bytes with them.  Failed allocations fail the test (check). */
#ifndef IOLENS_TEST_HAND_LOG_H
#define IOLENS_TEST_HAND_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"
#include "reader/reader.h"

#define ID_A 0x1111111111111111ull
#define ID_B 0x2222222222222222ull
#define ID_C 0x3333333333333333ull
#define HDR sizeof(struct iolens_file_header)
#define DESC sizeof(struct iolens_region_desc)

struct bytes {
    unsigned char *p;
    size_t len, cap;
};

struct region {
    uint32_t kind, version;
    struct bytes raw;
};

enum { R_JOB, R_MOUNTS, R_UNKNOWN, R_NAMES, R_POSIX, R_STDIO, NREGIONS_STD };
#define NREGIONS 12     /* room for tests that add regions */

struct content {
    struct region r[NREGIONS];
    unsigned n;
};

/* Appending to a buffer: bytes, little-endian integers, a length-prefixed
 * string, NAMES entries with an explicit or implied id (log_format.h). */
void put(struct bytes *b, const void *data, size_t n);
void put_u32(struct bytes *b, uint32_t v);
void put_u64(struct bytes *b, uint64_t v);
void put_str(struct bytes *b, const char *s, size_t n);
void put_cstr(struct bytes *b, const char *s);
void put_name(struct bytes *b, uint64_t id, const char *name);
void put_hashed_name(struct bytes *b, const char *name);
/* The id a NAMES entry without an explicit id implies (XXH3, computed
 * here from the format's definition). */
uint64_t implied_id(const char *name);
/* A column of n values of width bytes, byte-planed (byte k of value i at
 * k * n + i): the intervals' version 3 and the sites' version 2. */
void put_planes(struct bytes *b, const uint64_t *v, size_t n, unsigned width);
/* Layer bodies in the column layout: n records of ncols 8-byte values. */
void put_columns(struct bytes *b, const void *rows, size_t n, size_t ncols);
void put_layer(struct bytes *b, uint32_t cc, uint32_t fc, const void *rows, size_t n);
/* The standard log: job, mounts, an unknown kind 99, names, POSIX (the
 * records of standard_posix_records) and STDIO regions. */
void standard_content(struct content *c);
void free_content(struct content *c);
/* A file's region table and header, and their CRCs recomputed after an
 * edit made on purpose. */
struct iolens_region_desc *table_of(struct bytes *file);
struct iolens_file_header *header_of(struct bytes *file);
void reseal(struct bytes *file);
void reseal_region(struct bytes *file, unsigned i);
/* Header, table and zlib-compressed regions, as the writer lays them out. */
struct bytes assemble(const struct content *c);
struct bytes standard_file(void);
/* Reading back: a failure must leave the log empty and say why. */
enum iolens_read_status read_bytes(const void *p, size_t n, struct iolens_log *log);
enum iolens_read_status status_of(struct bytes *file);
enum iolens_read_status status_with_region(unsigned which, const struct bytes *raw);
/* Asserts every value of the standard log as read. */
void check_standard_log(const struct iolens_log *log);
void standard_posix_records(struct iolens_posix_record r[2]);

#endif
