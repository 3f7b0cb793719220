/*
 * iolens-anonymize: a copy of a log with the paths, user, uid, executable,
 * arguments, job id and host names replaced by keyed hashes
 * (HMAC-SHA256), everything else identical (man iolens-anonymize(1)).
 *
 *   iolens-anonymize --key-file KEY IN OUT
 *
 * Exit status: 0 done, 1 usage error or OUT cannot be written, 2 IN is not
 * a valid log or KEY is not a usable key.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "anon/anon.h"
#include "output/out_file.h"
#include "reader/reader.h"

static const char *prog = "iolens-anonymize";

static void usage(FILE *f)
{
    fprintf(f, "usage: %s --key-file KEY IN OUT\n"
               "Writes OUT, a copy of the iolens log IN whose paths, user, uid, executable,\n"
               "arguments, job id and host names are replaced by HMAC-SHA256 hashes under the\n"
               "secret in KEY (at least %d bytes).  The same key gives the same names.\n"
               "Exit status: 0 success, 1 usage or output error, 2 invalid log or key.\n",
            prog, ANON_KEY_MIN);
}

/* ---------------------------------------------------------------- key -- */

static int load_key(const char *path, struct anon_key *key)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "%s: key file %s: %s\n", prog, path, strerror(errno));
        return -1;
    }
    unsigned char extra;
    key->len = fread(key->bytes, 1, sizeof key->bytes, f);
    int too_long = key->len == sizeof key->bytes && fread(&extra, 1, 1, f) == 1;
    int error = ferror(f);
    int e = errno;
    fclose(f);
    if (error) {
        fprintf(stderr, "%s: key file %s: %s\n", prog, path, strerror(e));
        return -1;
    }
    if (too_long) {
        fprintf(stderr, "%s: key file %s: longer than %d bytes\n", prog, path, ANON_KEY_MAX);
        return -1;
    }
    if (key->len > 0 && key->bytes[key->len - 1] == '\n') /* echo secret >key */
        key->len--;
    if (key->len < ANON_KEY_MIN) {
        fprintf(stderr, "%s: key file %s: %zu bytes, a key needs at least %d\n", prog, path,
                key->len, ANON_KEY_MIN);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- input -- */

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    struct anon_buf b = {0};
    unsigned char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        anon_put(&b, chunk, n);
    int bad = ferror(f) || b.failed;
    fclose(f);
    if (bad) {
        anon_buf_free(&b);
        return NULL;
    }
    *size = b.len;
    return b.p != NULL ? b.p : calloc(1, 1);
}

/* ------------------------------------------------------------ output -- */

static void put_region(struct anon_buf *data, struct iolens_region_desc *d, uint32_t kind,
                       uint32_t version, const struct anon_buf *raw)
{
    uLongf zlen = compressBound(raw->len);
    unsigned char *z = malloc(zlen);
    if (z == NULL || compress2(z, &zlen, raw->p ? raw->p : (const Bytef *)"", raw->len, 6) != Z_OK) {
        free(z);
        data->failed = 1;
        return;
    }
    *d = (struct iolens_region_desc){
        .kind = kind,
        .version = version,
        .offset = data->len, /* relative to the data; the caller adds the table */
        .stored_size = zlen,
        .raw_size = raw->len,
        .crc32 = (uint32_t)crc32(0, z, (uInt)zlen),
        .compression = IOLENS_COMPRESS_ZLIB,
    };
    anon_put(data, z, zlen);
    free(z);
}

/* Rewrites every region of the validated log in[0..size) into *file.
 * Regions of kinds (or versions) this tool does not know are left out:
 * they might hold names it cannot hash.  Returns 0 or -1 (err). */
static int anonymize(const struct anon_key *key, const unsigned char *in, size_t size,
                     struct anon_buf *file, unsigned *dropped, char *err, size_t errsz)
{
    struct iolens_file_header h;
    memcpy(&h, in, sizeof h);
    size_t n = h.region_count;
    struct iolens_region_desc *table = calloc(n + 1, sizeof *table), *out_table =
                                                                         calloc(n + 1, sizeof *table);
    struct anon_buf data = {0};
    uint32_t kept = 0;
    int rc = table != NULL && out_table != NULL ? 0 : -1;
    if (rc == 0)
        memcpy(table, in + sizeof h, n * sizeof *table);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct iolens_region_desc *d = &table[i];
        if (!anon_region_known(d->kind, d->version)) {
            (*dropped)++;
            continue;
        }
        uLongf raw_len = (uLongf)d->raw_size;
        unsigned char *raw = malloc(raw_len ? raw_len : 1);
        struct anon_buf out = {0};
        if (raw == NULL || uncompress(raw, &raw_len, in + d->offset, (uLong)d->stored_size) != Z_OK) {
            snprintf(err, errsz, "region %zu does not decompress", i);
            rc = -1;
        } else if (anon_region(key, d->kind, d->version, raw, raw_len, &out, err, errsz) != 0) {
            rc = -1;
        } else {
            put_region(&data, &out_table[kept++], d->kind, d->version, &out);
        }
        free(raw);
        anon_buf_free(&out);
    }
    (void)size;
    if (rc == 0) {
        uint64_t start = sizeof h + (uint64_t)kept * sizeof *out_table;
        for (uint32_t i = 0; i < kept; i++)
            out_table[i].offset += start;
        h.region_count = kept;
        h.header_crc = 0;
        uLong crc = crc32(0, (const Bytef *)&h, sizeof h);
        crc = crc32(crc, (const Bytef *)out_table, (uInt)(kept * sizeof *out_table));
        h.header_crc = (uint32_t)crc;
        anon_put(file, &h, sizeof h);
        anon_put(file, out_table, kept * sizeof *out_table);
        anon_put(file, data.p, data.len);
        if (file->failed || data.failed) {
            snprintf(err, errsz, "out of memory");
            rc = -1;
        }
    }
    anon_buf_free(&data);
    free(table);
    free(out_table);
    return rc;
}

/* Writes bytes to path through out_file.h: OUT is complete or untouched
 * (a new temporary file renamed into place; - is standard output, a
 * device written in place).  Returns 0 or an errno. */
static int write_output(const char *path, const struct anon_buf *file)
{
    struct iolens_out out;
    int e = iolens_out_open(&out, path);
    if (e != 0)
        return e;
    if (file->len > 0 && fwrite(file->p, 1, file->len, out.fp) != file->len) {
        e = errno != 0 ? errno : EIO;
        iolens_out_abort(&out);
        return e;
    }
    return iolens_out_commit(&out);
}

/* -------------------------------------------------------------- main -- */

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"key-file", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *key_file = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "k:h", options, NULL)) != -1) {
        if (c == 'k') {
            key_file = optarg;
        } else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 1;
        }
    }
    if (key_file == NULL || argc - optind != 2) {
        usage(stderr);
        return 1;
    }
    const char *in_path = argv[optind], *out_path = argv[optind + 1];
    if (iolens_out_replaces_input(out_path, &in_path, 1) >= 0) {
        fprintf(stderr, "%s: %s: is IN, the log to read; OUT would replace it (nothing written)\n",
                prog, out_path);
        return 1;
    }

    static struct anon_key key;
    if (load_key(key_file, &key) != 0)
        return 2;
    struct iolens_log log;
    char err[512];
    if (iolens_log_read(in_path, &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, "%s: %s: %s\n", prog, in_path, err);
        return 2;
    }
    iolens_log_free(&log);
    size_t size = 0;
    unsigned char *in = read_file(in_path, &size);
    if (in == NULL) {
        fprintf(stderr, "%s: %s: %s\n", prog, in_path, strerror(errno));
        return 2;
    }
    struct anon_buf file = {0};
    unsigned dropped = 0;
    int rc = anonymize(&key, in, size, &file, &dropped, err, sizeof err);
    free(in);
    /* What is written must read back: a check of this tool, not of IN. */
    if (rc == 0 && iolens_log_read_buffer(file.p, file.len, &log, err, sizeof err) != IOLENS_READ_OK)
        rc = -1;
    else if (rc == 0)
        iolens_log_free(&log);
    if (rc != 0) {
        fprintf(stderr, "%s: %s: cannot anonymize: %s\n", prog, in_path, err);
        anon_buf_free(&file);
        return 2;
    }
    int e = write_output(out_path, &file);
    anon_buf_free(&file);
    if (e != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, out_path, strerror(e));
        return 1;
    }
    if (dropped > 0)
        fprintf(stderr, "%s: %s: left out %u region%s of a kind this tool does not know\n", prog,
                in_path, dropped, dropped == 1 ? "" : "s");
    return 0;
}
