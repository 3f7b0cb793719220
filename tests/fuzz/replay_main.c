/*
 * A driver for the fuzz target without libFuzzer, so the corpus runs as an
 * ordinary test and under the sanitizers.
 *
 *   fuzz_reader [--mutations N] [--seed S] [--save DIR] PATH...
 *
 * Every PATH (a file, or a directory whose regular files are taken) is fed
 * to LLVMFuzzerTestOneInput.  With --mutations, N more inputs are derived
 * from them with a deterministic generator: half are blind byte edits, half
 * are structure-aware edits that decompress a region, damage its contents
 * or a table field and then recompress and fix every CRC, so that the
 * damage reaches the region parsers instead of stopping at a CRC check.
 *
 * --save DIR writes every mutated input that the reader accepts to
 * DIR/mutant-N.iolens, for test_fuzz_tools.sh to run every parser mode and
 * every tool on (the target here runs the reader alone).
 *
 * The last line is a summary of the reader's verdicts:
 *   inputs=N ok=A not_iolens=B version=C truncated=D crc=E corrupt=F ...
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "iolens/log_format.h"
#include "reader/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUTS 1024
#define MAX_INPUT_SIZE (4u << 20)
#define MAX_RAW_MUTATE (1u << 20)

struct input {
    uint8_t *data;
    size_t size;
};

static struct input inputs[MAX_INPUTS];
static size_t ninputs;
static unsigned long verdicts[IOLENS_READ_NOMEM + 1];

static void die(const char *what, const char *path)
{
    fprintf(stderr, "fuzz_reader: %s%s%s\n", what, path ? ": " : "", path ? path : "");
    exit(1);
}

/* ------------------------------------------------------------- inputs -- */

static void load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        die(strerror(errno), path);
    uint8_t *buf = malloc(MAX_INPUT_SIZE);
    if (buf == NULL)
        die("out of memory", NULL);
    size_t n = fread(buf, 1, MAX_INPUT_SIZE, f);
    if (ferror(f))
        die("read error", path);
    fclose(f);
    uint8_t *fit = realloc(buf, n ? n : 1);
    if (fit != NULL)
        buf = fit;
    if (ninputs == MAX_INPUTS)
        die("too many inputs", path);
    inputs[ninputs++] = (struct input){buf, n};
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular files of a directory, in name order (deterministic). */
static void load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        die(strerror(errno), dir);
    char *names[MAX_INPUTS];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_INPUTS) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(names[n], &sb) == 0 && S_ISREG(sb.st_mode))
            n++;
        else
            free(names[n]);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], compare_names);
    for (size_t i = 0; i < n; i++) {
        load_file(names[i]);
        free(names[i]);
    }
}

static void load_path(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        die(strerror(errno), path);
    if (S_ISDIR(sb.st_mode))
        load_dir(path);
    else
        load_file(path);
}

/* Runs one input through the target, then through the reader once more to
 * record its verdict. */
static const char *save_dir;
static unsigned long saved;

/* Writes an accepted mutation to save_dir/mutant-N.iolens. */
static void save_input(const uint8_t *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/mutant-%05lu.iolens", save_dir, saved++);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        die("cannot write", path);
}

/* Runs one input through the target, then through the reader once more to
 * record its verdict; returns the verdict. */
static enum iolens_read_status run_one(const uint8_t *data, size_t size)
{
    LLVMFuzzerTestOneInput(data, size);
    struct iolens_log log;
    char err[256];
    enum iolens_read_status st = iolens_log_read_buffer(data, size, &log, err, sizeof err);
    iolens_log_free(&log);
    if ((unsigned)st <= IOLENS_READ_NOMEM)
        verdicts[st]++;
    return st;
}

/* ------------------------------------------------------------- random -- */

static uint64_t rng_state;

static uint64_t next_random(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t below(size_t n) { return n ? (size_t)(next_random() % n) : 0; }

static uint64_t interesting(size_t len)
{
    static const uint64_t values[] = {
        0, 1, 2, 3, 4, 7, 8, 15, 16, 40, 64, 65, 127, 128, 255, 256, 4096, 65535, 65536,
        0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
        0x8000000000000000ull, 0xffffffffffffffffull,
    };
    size_t k = below(sizeof values / sizeof values[0] + 3);
    if (k < sizeof values / sizeof values[0])
        return values[k];
    return (uint64_t)len + k - sizeof values / sizeof values[0] - 1; /* len-1, len, len+1 */
}

/* ------------------------------------------------------ byte mutations -- */

/* A growable byte buffer for mutated inputs. */
struct buf {
    uint8_t *p;
    size_t len, cap;
};

static void reserve(struct buf *b, size_t len)
{
    if (len <= b->cap)
        return;
    b->cap = len * 2 + 64;
    b->p = realloc(b->p, b->cap);
    if (b->p == NULL)
        die("out of memory", NULL);
}

/* One blind edit: flip a bit, set a byte, overwrite a 4- or 8-byte field
 * with an interesting value, cut, extend, or delete a span. */
static void mutate_bytes(struct buf *b)
{
    size_t len = b->len;
    switch (below(7)) {
    case 0:
        if (len)
            b->p[below(len)] ^= (uint8_t)(1u << below(8));
        break;
    case 1:
        if (len)
            b->p[below(len)] = (uint8_t)next_random();
        break;
    case 2:
    case 3: {
        size_t w = below(2) ? 4 : 8;
        if (len >= w) {
            uint64_t v = interesting(len);
            size_t at = below(len - w + 1);
            if (below(2))
                at &= ~(w - 1); /* most fields are aligned */
            memcpy(b->p + at, &v, w); /* little-endian: the low bytes */
        }
        break;
    }
    case 4:
        b->len = below(len + 1);
        break;
    case 5: {
        size_t extra = 1 + below(64);
        reserve(b, len + extra);
        for (size_t i = 0; i < extra; i++)
            b->p[len + i] = (uint8_t)next_random();
        b->len = len + extra;
        break;
    }
    default:
        if (len > 1) {
            size_t at = below(len), n = 1 + below(len - at);
            memmove(b->p + at, b->p + at + n, len - at - n);
            b->len = len - n;
        }
        break;
    }
}

/* ------------------------------------------------- structure mutations -- */

/* Recomputes the header CRC over the table the header claims, as far as
 * the file holds it (a mutated region count may claim more). */
static void reseal_header(uint8_t *file, size_t len)
{
    struct iolens_file_header h;
    memcpy(&h, file, sizeof h);
    h.header_crc = 0;
    uLong crc = crc32(0, (const Bytef *)&h, sizeof h);
    size_t table = (size_t)h.region_count * sizeof(struct iolens_region_desc);
    if (table > len - sizeof h)
        table = len - sizeof h;
    crc = crc32(crc, file + sizeof h, (uInt)table);
    h.header_crc = (uint32_t)crc;
    memcpy(file, &h, sizeof h);
}

/* Checks that in holds a well-formed header and table whose regions all
 * lie in the file; fills h and *table (malloc'd; the table of a large
 * region count would not fit on the stack). */
static int parse_frame(const struct buf *in, struct iolens_file_header *h,
                       struct iolens_region_desc **table)
{
    *table = NULL;
    if (in->len < sizeof *h)
        return -1;
    memcpy(h, in->p, sizeof *h);
    if (memcmp(h->magic, IOLENS_MAGIC, IOLENS_MAGIC_LEN) != 0 || h->region_count == 0 ||
        h->region_count > IOLENS_MAX_REGIONS ||
        in->len < sizeof *h + (size_t)h->region_count * sizeof **table)
        return -1;
    struct iolens_region_desc *t = malloc(h->region_count * sizeof *t);
    if (t == NULL)
        die("out of memory", NULL);
    memcpy(t, in->p + sizeof *h, h->region_count * sizeof *t);
    for (unsigned i = 0; i < h->region_count; i++)
        if (t[i].offset > in->len || t[i].stored_size > in->len - t[i].offset) {
            free(t);
            return -1;
        }
    *table = t;
    return 0;
}

/* Decompresses region i, applies 1-3 blind edits to the raw bytes (or
 * rewrites the whole region table entry), recompresses and rebuilds the
 * file with correct offsets and CRCs. */
static int mutate_region(struct buf *b)
{
    struct iolens_file_header h;
    struct iolens_region_desc *table;
    if (parse_frame(b, &h, &table) != 0)
        return -1;
    unsigned n = h.region_count, victim = (unsigned)below(n);
    struct buf raw = {0};
    uLongf raw_len = (uLongf)table[victim].raw_size;
    if (table[victim].raw_size > MAX_RAW_MUTATE) {
        free(table);
        return -1;
    }
    reserve(&raw, raw_len + 1);
    if (uncompress(raw.p, &raw_len, b->p + table[victim].offset, table[victim].stored_size) != Z_OK)
        goto fail;
    raw.len = raw_len;
    for (size_t k = 1 + below(3); k > 0; k--)
        mutate_bytes(&raw);

    uLongf packed_len = compressBound(raw.len);
    uint8_t *packed = malloc(packed_len);
    if (packed == NULL || compress2(packed, &packed_len, raw.p ? raw.p : (const Bytef *)"",
                                    raw.len, 1) != Z_OK) {
        free(packed);
        goto fail;
    }
    struct buf out = {0};
    size_t table_end = sizeof h + n * sizeof table[0];
    reserve(&out, table_end);
    out.len = table_end;
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *src = i == victim ? packed : b->p + table[i].offset;
        size_t len = i == victim ? packed_len : table[i].stored_size;
        if (i == victim) {
            table[i].raw_size = raw.len;
            table[i].stored_size = len;
            table[i].crc32 = (uint32_t)crc32(0, src, (uInt)len);
        }
        table[i].offset = out.len;
        reserve(&out, out.len + len);
        memcpy(out.p + out.len, src, len);
        out.len += len;
    }
    memcpy(out.p, &h, sizeof h);
    memcpy(out.p + sizeof h, table, n * sizeof table[0]);
    reseal_header(out.p, out.len);
    free(packed);
    free(raw.p);
    free(table);
    free(b->p);
    *b = out;
    return 0;
fail:
    free(raw.p);
    free(table);
    return -1;
}

/* Sets one field of the header or of a table entry to an interesting
 * value and fixes the header CRC, so only the reader's own checks stand. */
static int mutate_table(struct buf *b)
{
    struct iolens_file_header h;
    struct iolens_region_desc *table;
    if (parse_frame(b, &h, &table) != 0)
        return -1;
    size_t table_bytes = h.region_count * sizeof table[0];
    free(table);
    size_t field = below((sizeof h + table_bytes) / 4);
    if (field < 2)
        field = 2; /* leave the magic alone: that path is trivial */
    uint64_t v = interesting(b->len);
    size_t w = (below(2) && field % 2 == 0) ? 8 : 4;
    if (field * 4 + w > sizeof h + table_bytes)
        w = 4;
    memcpy(b->p + field * 4, &v, w);
    reseal_header(b->p, b->len);
    return 0;
}

/* Inputs with a usable header and table: the seeds of structure-aware
 * mutations (blind ones start from any input). */
static size_t framed[MAX_INPUTS];
static size_t nframed;

static void find_framed_inputs(void)
{
    for (size_t k = 0; k < ninputs; k++) {
        struct iolens_file_header h;
        struct iolens_region_desc *table;
        struct buf b = {inputs[k].data, inputs[k].size, inputs[k].size};
        if (parse_frame(&b, &h, &table) == 0)
            framed[nframed++] = k;
        free(table);
    }
}

static void run_mutations(unsigned long count)
{
    struct buf b = {0};
    find_framed_inputs();
    for (unsigned long m = 0; m < count; m++) {
        bool structured = m % 4 != 3 && nframed > 0;
        const struct input *seed = &inputs[structured ? framed[below(nframed)] : below(ninputs)];
        reserve(&b, seed->size + 1);
        memcpy(b.p, seed->data, seed->size);
        b.len = seed->size;
        int rc = -1;
        if (structured)
            rc = m % 4 == 2 ? mutate_table(&b) : mutate_region(&b);
        if (rc != 0)
            for (size_t k = 1 + below(4); k > 0; k--)
                mutate_bytes(&b);
        /* An exact-size copy, so that ASan sees any read past the end. */
        uint8_t *exact = malloc(b.len ? b.len : 1);
        if (exact == NULL)
            die("out of memory", NULL);
        memcpy(exact, b.p, b.len);
        if (run_one(exact, b.len) == IOLENS_READ_OK && save_dir != NULL)
            save_input(exact, b.len);
        free(exact);
    }
    free(b.p);
}

/* --------------------------------------------------------------- main -- */

int main(int argc, char **argv)
{
    unsigned long mutations = 0;
    uint64_t seed = 1;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc)
            die("option needs a value", argv[i]);
        if (strcmp(argv[i], "--mutations") == 0)
            mutations = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--save") == 0)
            save_dir = argv[i + 1];
        else
            die("unknown option", argv[i]);
    }
    if (i == argc) {
        fprintf(stderr, "usage: fuzz_reader [--mutations N] [--seed S] [--save DIR] PATH...\n");
        return 1;
    }
    for (; i < argc; i++)
        load_path(argv[i]);
    if (ninputs == 0)
        die("no inputs", NULL);

    for (size_t k = 0; k < ninputs; k++) {
        uint8_t *exact = malloc(inputs[k].size ? inputs[k].size : 1);
        memcpy(exact, inputs[k].data, inputs[k].size);
        run_one(exact, inputs[k].size);
        free(exact);
    }
    rng_state = seed;
    run_mutations(mutations);
    for (size_t k = 0; k < ninputs; k++)
        free(inputs[k].data);

    printf("inputs=%zu mutations=%lu ok=%lu not_iolens=%lu version=%lu truncated=%lu crc=%lu "
           "corrupt=%lu io=%lu nomem=%lu\n",
           ninputs, mutations, verdicts[IOLENS_READ_OK], verdicts[IOLENS_READ_NOT_IOLENS],
           verdicts[IOLENS_READ_VERSION], verdicts[IOLENS_READ_TRUNCATED],
           verdicts[IOLENS_READ_CRC],
           verdicts[IOLENS_READ_CORRUPT], verdicts[IOLENS_READ_IO], verdicts[IOLENS_READ_NOMEM]);
    return 0;
}
