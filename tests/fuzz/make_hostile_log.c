/*
 * Writes hostile logs (tests/fuzz/test_hostile_logs.sh times every mode
 * on them; tests/fuzz/make-corpus.sh keeps small ones as fuzz seeds),
 * through the runtime's own region encoder and log writer:
 *
 *   make_hostile_log shared-ids N OUTPUT
 *       N per-rank POSIX records of one file (one id), ranks 0..N-1 of a
 *       job of N ranks, with no counters (16 bytes a record): every record
 *       shares its id.
 *   make_hostile_log huge-nprocs OUTPUT
 *       a job that claims 1414750021 ranks and holds three records, one of
 *       them shared, whose fastest and slowest ranks are the last ranks.
 *   make_hostile_log big-regions N MIB OUTPUT
 *       N POSIX regions of MIB MiB each (2 to 1024; records of zeros: they
 *       compress about 1000:1, so the file is some N * MIB KiB).
 *   make_hostile_log extreme-counters OUTPUT
 *       four POSIX and four MPI-IO records, two of them shared, whose
 *       counters are all INT64_MAX (times 1e308), so every sum overflows.
 *   make_hostile_log negative-counters OUTPUT
 *       the same records with every counter INT64_MIN and times -1e308.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "iolens/log_format.h"
#include "log/log_regions.h"
#include "log/log_writer.h"
#include "format/record_merge.h"

#define HUGE_NPROCS 1414750021u

static void die(const char *what)
{
    fprintf(stderr, "make_hostile_log: %s\n", what);
    exit(1);
}

static void usage(void)
{
    die("usage: make_hostile_log shared-ids N OUTPUT | huge-nprocs OUTPUT |\n"
        "       big-regions N MIB OUTPUT | extreme-counters OUTPUT | negative-counters OUTPUT");
}

/* The job region of a job of nprocs ranks on one node. */
static void job_region(struct iolens_buf *b, uint32_t nprocs)
{
    struct iolens_job_fixed j = {
        .uid = 1000, .start_time_sec = 1700000000, .end_time_sec = 1700000600,
        .run_time = 600.0, .nprocs = nprocs, .nnodes = 1, .pid = 1,
        .string_count = IOLENS_JOB_NSTRINGS,
    };
    const char *s[IOLENS_JOB_NSTRINGS];
    size_t len[IOLENS_JOB_NSTRINGS];
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        s[i] = "hostile", len[i] = 7;
    if (iolens_region_job(b, &j, s, len) != 0)
        die("out of memory");
}

/* An on-disk record of layer d: its counters start at 16 bytes. */
static void *new_records(const struct iolens_layer_desc *d, size_t n)
{
    void *p = calloc(n ? n : 1, d->record_size);
    if (p == NULL)
        die("out of memory");
    return p;
}

static void *record_at(const struct iolens_layer_desc *d, void *recs, size_t i)
{
    return (char *)recs + i * d->record_size;
}

static void set_head(void *rec, uint64_t id, int64_t rank)
{
    memcpy(rec, &id, 8);
    memcpy((char *)rec + 8, &rank, 8);
}

static void write_log(const char *path, const struct iolens_region_src *regions, unsigned n)
{
    char err[256];
    if (iolens_log_write_file(path, 0, regions, n, err, sizeof err) != 0)
        die(err);
}

static struct iolens_region_src src_of(uint32_t kind, uint32_t version, const struct iolens_buf *b)
{
    return (struct iolens_region_src){kind, version, b->data, b->len};
}

/* Records of no counters (the head says 0: an older writer's layout,
 * which the reader zero-fills), so that a small log holds many records. */
static void shared_ids(long n, const char *path)
{
    struct iolens_layer_head head = {0, 0, (uint64_t)n};
    size_t body = 16 * (size_t)n;
    unsigned char *raw = calloc(1, sizeof head + body);
    if (raw == NULL)
        die("out of memory");
    memcpy(raw, &head, sizeof head);
    unsigned char *id_planes = raw + sizeof head, *rank_planes = id_planes + 8 * (size_t)n;
    const uint64_t id = 0x7777777777777777ull;
    for (long i = 0; i < n; i++)
        for (unsigned b = 0; b < 8; b++) {   /* byte-shuffled columns (log_format.h) */
            id_planes[b * (size_t)n + (size_t)i] = (unsigned char)(id >> (8 * b));
            rank_planes[b * (size_t)n + (size_t)i] = (unsigned char)((uint64_t)i >> (8 * b));
        }
    struct iolens_buf job = {0};
    job_region(&job, (uint32_t)n);
    struct iolens_region_src regions[] = {
        src_of(IOLENS_REGION_JOB, IOLENS_JOB_VERSION, &job),
        /* version 2's layout (no column codes), which a reader still reads */
        {IOLENS_REGION_POSIX, IOLENS_LAYER_VERSION_2, raw, sizeof head + body},
    };
    write_log(path, regions, 2);
    iolens_buf_free(&job);
    free(raw);
}

static void huge_nprocs(const char *path)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_POSIX);
    void *recs = new_records(d, 3);
    for (size_t i = 0; i < 3; i++) {
        void *r = record_at(d, recs, i);
        set_head(r, 0x1000 + i, i < 2 ? (int64_t)(HUGE_NPROCS - 1 - i) : IOLENS_RANK_ALL);
        int64_t *c = iolens_rec_counters(r);
        c[d->opens[0]] = 1;
        c[d->writes] = 2;
        c[d->bytes_written] = 8192;
        iolens_record_fill_own_sharing(d, r);
        if (i == 2) {   /* shared by all: fastest and slowest at the top */
            c[d->ranks_opened] = HUGE_NPROCS;
            c[d->ranks_opened + 1] = HUGE_NPROCS;
            c[d->ranks_opened + 2] = HUGE_NPROCS - 1;
            c[d->ranks_opened + 3] = 4096;
            c[d->ranks_opened + 4] = HUGE_NPROCS - 2;
            c[d->ranks_opened + 5] = 4096;
        }
    }
    struct iolens_buf job = {0}, layer = {0};
    job_region(&job, HUGE_NPROCS);
    if (iolens_build_layer_region(&layer, d, recs, 3) != 0)
        die("out of memory");
    struct iolens_region_src regions[] = {
        src_of(IOLENS_REGION_JOB, IOLENS_JOB_VERSION, &job),
        src_of(IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, &layer),
    };
    write_log(path, regions, 2);
    iolens_buf_free(&job);
    iolens_buf_free(&layer);
    free(recs);
}

/* A buffer of stored bytes. */
struct bytes {
    unsigned char *p;
    size_t len, cap;
};

static void append(struct bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        if ((b->p = realloc(b->p, b->cap)) == NULL)
            die("out of memory");
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

/* Raw deflate of in, ending with a full flush (a byte boundary, the
 * dictionary forgotten), so that such segments can follow each other. */
static void deflate_segment(z_stream *z, const void *in, size_t n, struct bytes *out)
{
    unsigned char chunk[1 << 16];
    z->next_in = (Bytef *)(uintptr_t)in;
    z->avail_in = (uInt)n;
    do {
        z->next_out = chunk;
        z->avail_out = sizeof chunk;
        if (deflate(z, Z_FULL_FLUSH) == Z_STREAM_ERROR)
            die("deflate failed");
        append(out, chunk, sizeof chunk - z->avail_out);
    } while (z->avail_out == 0);
}

/* The zlib stream of a layer region of mib MiB: a head, then records of
 * no counters (16 bytes each: id 0, rank 0), all zeros.  Zeros deflate
 * the same 1 MiB after 1 MiB, so one segment is made and repeated: a
 * region of 1 GiB is made in milliseconds, not the seconds zlib takes. */
static void zero_layer_stream(long mib, struct bytes *out, uint64_t *raw_size)
{
    enum { SEG = 1 << 20 };
    unsigned char *seg = calloc(1, SEG);
    if (seg == NULL)
        die("out of memory");
    struct iolens_layer_head head = {0, 0, ((uint64_t)mib * SEG - sizeof head) / 16};
    *raw_size = sizeof head + head.record_count * 16;
    z_stream z = {0};
    if (deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        die("deflateInit2 failed");
    static const unsigned char zlib_head[2] = {0x78, 0xda};
    append(out, zlib_head, 2);
    /* First segment: the head and the zeros up to 1 MiB. */
    memcpy(seg, &head, sizeof head);
    deflate_segment(&z, seg, SEG, out);
    uLong adler = adler32(adler32(0, NULL, 0), seg, SEG);
    memset(seg, 0, sizeof head);
    struct bytes zeros = {0};
    uLong adler_zeros = adler32(adler32(0, NULL, 0), seg, SEG);
    size_t tail = (size_t)(*raw_size - SEG * (uint64_t)(mib - 1)); /* of the last MiB */
    if (mib > 1) {
        deflate_segment(&z, seg, SEG, &zeros);
        for (long i = 1; i < mib - 1; i++) {
            append(out, zeros.p, zeros.len);
            adler = adler32_combine(adler, adler_zeros, SEG);
        }
        deflate_segment(&z, seg, tail, out);
        adler = adler32_combine(adler, adler32(adler32(0, NULL, 0), seg, (uInt)tail), (z_off_t)tail);
    } else {
        die("big-regions: a region of at least 2 MiB");
    }
    unsigned char end[16];
    z.next_in = NULL;
    z.avail_in = 0;
    z.next_out = end;
    z.avail_out = sizeof end;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        die("deflate did not finish");
    append(out, end, sizeof end - z.avail_out);
    unsigned char trailer[4] = {(unsigned char)(adler >> 24), (unsigned char)(adler >> 16),
                                (unsigned char)(adler >> 8), (unsigned char)adler};
    append(out, trailer, 4);
    deflateEnd(&z);
    free(zeros.p);
    free(seg);
}

/* A job region and n layer regions of mib MiB each, written here (the
 * runtime's writer would compress every region anew: minutes). */
static void big_regions(long nregions, long mib, const char *path)
{
    struct iolens_buf job = {0};
    job_region(&job, 1);
    struct bytes layer = {0}, jobz = {0};
    uint64_t raw_size;
    zero_layer_stream(mib, &layer, &raw_size);
    uLongf jlen = compressBound(job.len);
    jobz.p = malloc(jlen);
    if (jobz.p == NULL || compress2(jobz.p, &jlen, job.data, job.len, 9) != Z_OK)
        die("compress failed");
    jobz.len = jlen;

    unsigned n = (unsigned)nregions + 1;
    struct iolens_region_desc *t = calloc(n, sizeof *t);
    if (t == NULL)
        die("out of memory");
    uint64_t at = sizeof(struct iolens_file_header) + n * sizeof *t;
    for (unsigned i = 0; i < n; i++) {
        const struct bytes *b = i == 0 ? &jobz : &layer;
        t[i] = (struct iolens_region_desc){
            .kind = i == 0 ? IOLENS_REGION_JOB : IOLENS_REGION_POSIX,
            .version = i == 0 ? IOLENS_JOB_VERSION : IOLENS_LAYER_VERSION_2, /* no codes */
            .offset = at, .stored_size = b->len, .raw_size = i == 0 ? job.len : raw_size,
            .crc32 = (uint32_t)crc32(0, b->p, (uInt)b->len), .compression = IOLENS_COMPRESS_ZLIB,
        };
        at += b->len;
    }
    struct iolens_file_header h;
    iolens_log_header_build(&h, 0, t, n);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        die("cannot create the output");
    fwrite(&h, sizeof h, 1, f);
    fwrite(t, sizeof *t, n, f);
    for (unsigned i = 0; i < n; i++) {
        const struct bytes *b = i == 0 ? &jobz : &layer;
        fwrite(b->p, 1, b->len, f);
    }
    if (fclose(f) != 0)
        die("write error");
    free(t);
    free(layer.p);
    free(jobz.p);
    iolens_buf_free(&job);
}

/* A layer region of four records (two per-rank, two shared) whose
 * counters are all c and fcounters all f. */
static void extreme_layer(struct iolens_buf *out, uint32_t kind, int64_t c, double f)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    void *recs = new_records(d, 4);
    for (size_t i = 0; i < 4; i++) {
        void *r = record_at(d, recs, i);
        set_head(r, 0x2000 + i % 3, i < 2 ? (int64_t)i : IOLENS_RANK_ALL);
        int64_t *cs = iolens_rec_counters(r);
        double *fs = iolens_rec_fcounters(d, r);
        for (uint32_t k = 0; k < d->ncounters; k++)
            cs[k] = c;
        for (uint32_t k = 0; k < d->nfcounters; k++)
            fs[k] = f;
    }
    if (iolens_build_layer_region(out, d, recs, 4) != 0)
        die("out of memory");
    free(recs);
}

static void extreme_counters(const char *path, int64_t c, double f)
{
    struct iolens_buf job = {0}, posix = {0}, mpiio = {0};
    job_region(&job, 4);
    extreme_layer(&posix, IOLENS_REGION_POSIX, c, f);
    extreme_layer(&mpiio, IOLENS_REGION_MPIIO, c, f);
    struct iolens_region_src regions[] = {
        src_of(IOLENS_REGION_JOB, IOLENS_JOB_VERSION, &job),
        src_of(IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, &posix),
        src_of(IOLENS_REGION_MPIIO, IOLENS_MPIIO_VERSION, &mpiio),
    };
    write_log(path, regions, 3);
    iolens_buf_free(&job);
    iolens_buf_free(&posix);
    iolens_buf_free(&mpiio);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "shared-ids") == 0 && atol(argv[2]) > 0)
        shared_ids(atol(argv[2]), argv[3]);
    else if (argc == 3 && strcmp(argv[1], "huge-nprocs") == 0)
        huge_nprocs(argv[2]);
    else if (argc == 5 && strcmp(argv[1], "big-regions") == 0 && atol(argv[2]) > 0 &&
             atol(argv[3]) > 1 && atol(argv[3]) <= 1024)
        big_regions(atol(argv[2]), atol(argv[3]), argv[4]);
    else if (argc == 3 && strcmp(argv[1], "extreme-counters") == 0)
        extreme_counters(argv[2], INT64_MAX, 1e308);
    else if (argc == 3 && strcmp(argv[1], "negative-counters") == 0)
        extreme_counters(argv[2], INT64_MIN, -1e308);
    else
        usage();
    return 0;
}
