/*
 * The log writer.  At exit it packs the runtime's state into regions
 * (format in include/iolens/log_format.h), compresses each with zlib and
 * writes the file under a temporary name, created with O_EXCL and mode
 * 0400 in the log's own directory, that is renamed into place only when
 * complete: a reader never sees half a log.
 *
 * This runs once, at exit, so it uses malloc freely; the memory budget
 * bounds what the runtime keeps while the program runs, not this.  All
 * file I/O goes through the real calls, and iolens_in_runtime is set so
 * that anything the C library does underneath is not traced either.
 */
#include "log_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "budget.h"
#include "clock.h"
#include "file_table.h"
#include "jobinfo.h"
#include "mounts.h"
#include "posix_layer.h"
#include "real_calls.h"
#include "runtime.h"
#include "stdio_layer.h"

/* Level 1: 3000 POSIX records (1.9 MB raw, about a full 2 MiB budget)
 * compress to 14% in 14 ms; level 6 gets 12.5% but takes 30 ms, level 9
 * 11.8% in 275 ms.  Exit time matters more than 10% of a small file. */
#define LOG_COMPRESS_LEVEL 1

_Static_assert(sizeof(struct iolens_file_header) == 40, "header layout");
_Static_assert(sizeof(struct iolens_region_desc) == 40, "region descriptor layout");
_Static_assert(sizeof(struct iolens_job_fixed) == 120, "job record layout");
_Static_assert(sizeof(struct iolens_layer_head) == 16, "layer head layout");
_Static_assert(sizeof(struct iolens_posix_record) ==
                   8 * (2 + POSIX_NUM_COUNTERS + POSIX_F_NUM_COUNTERS), "POSIX record layout");
_Static_assert(sizeof(struct iolens_stdio_record) ==
                   8 * (2 + STDIO_NUM_COUNTERS + STDIO_F_NUM_COUNTERS), "STDIO record layout");

/* zlib's crc32 takes a uInt length: feed large buffers in pieces. */
static uint32_t crc_of(const void *data, size_t len)
{
    const Bytef *p = data;
    uLong crc = crc32(0L, Z_NULL, 0);
    while (len > 0) {
        uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = crc32(crc, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)crc;
}

static void set_err(char *err, size_t errsz, const char *what, int errnum)
{
    if (err == NULL || errsz == 0)
        return;
    if (errnum != 0)
        snprintf(err, errsz, "%s%s%s", what, what[0] ? ": " : "", strerror(errnum));
    else
        snprintf(err, errsz, "%s", what);
}

/* ------------------------------------------------------- file writing -- */

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = iolens_real_write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            errno = EIO;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

struct packed_region {
    unsigned char *data;
    uLongf size;
};

static void free_packed(struct packed_region *packed, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        free(packed[i].data);
}

/* Compresses every region and fills in its table entry (but the offset). */
static int pack_regions(const struct iolens_region_src *regions, unsigned n,
                        struct packed_region *packed, struct iolens_region_desc *table,
                        char *err, size_t errsz)
{
    for (unsigned i = 0; i < n; i++) {
        uLong bound = compressBound((uLong)regions[i].size);
        packed[i].data = malloc(bound);
        packed[i].size = bound;
        if (packed[i].data == NULL) {
            set_err(err, errsz, "out of memory", 0);
            return -1;
        }
        /* zlib wants a non-NULL source even for zero bytes. */
        const Bytef *src = regions[i].size > 0 ? regions[i].data : (const Bytef *)"";
        if (compress2(packed[i].data, &packed[i].size, src, (uLong)regions[i].size,
                      LOG_COMPRESS_LEVEL) != Z_OK) {
            set_err(err, errsz, "compression failed", 0);
            return -1;
        }
        table[i] = (struct iolens_region_desc){
            .kind = regions[i].kind,
            .version = regions[i].version,
            .stored_size = packed[i].size,
            .raw_size = regions[i].size,
            .crc32 = crc_of(packed[i].data, packed[i].size),
            .compression = IOLENS_COMPRESS_ZLIB,
        };
    }
    return 0;
}

static void fill_header(struct iolens_file_header *h, uint64_t flags,
                        const struct iolens_region_desc *table, unsigned n)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, IOLENS_MAGIC, IOLENS_MAGIC_LEN);
    h->version = IOLENS_FORMAT_VERSION;
    h->byte_order = IOLENS_BYTE_ORDER_MARK;
    h->flags = flags;
    h->header_size = sizeof *h;
    h->region_count = n;
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)h, sizeof *h);
    crc = crc32(crc, (const Bytef *)table, (uInt)(n * sizeof *table));
    h->header_crc = (uint32_t)crc;
}

static int write_contents(int fd, const struct iolens_file_header *h,
                          const struct iolens_region_desc *table,
                          const struct packed_region *packed, unsigned n)
{
    if (write_all(fd, h, sizeof *h) != 0 || write_all(fd, table, n * sizeof *table) != 0)
        return -1;
    for (unsigned i = 0; i < n; i++)
        if (write_all(fd, packed[i].data, packed[i].size) != 0)
            return -1;
    return 0;
}

/* Creates tmp exclusively, writes the log into it and renames it to path.
 * On failure the temporary file is removed. */
static int write_and_rename(const char *path, const char *tmp, const struct iolens_file_header *h,
                            const struct iolens_region_desc *table,
                            const struct packed_region *packed, unsigned n, char *err,
                            size_t errsz)
{
    int fd = IOLENS_REAL(open)(tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0400);
    if (fd < 0) {
        set_err(err, errsz, "", errno);
        return -1;
    }
    int rc = write_contents(fd, h, table, packed, n);
    int e = errno;
    /* close reports delayed write errors on some file systems (NFS). */
    if (IOLENS_REAL(close)(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        set_err(err, errsz, "write", e);
    } else if (IOLENS_REAL(rename)(tmp, path) != 0) {
        set_err(err, errsz, "rename", errno);
        rc = -1;
    }
    if (rc != 0)
        IOLENS_REAL(unlink)(tmp);
    return rc;
}

int iolens_log_write_file(const char *path, uint64_t flags,
                          const struct iolens_region_src *regions, unsigned nregions,
                          char *err, size_t errsz)
{
    if (nregions > IOLENS_MAX_REGIONS) {
        set_err(err, errsz, "too many regions", 0);
        return -1;
    }
    if (IOLENS_REAL(open) == NULL || IOLENS_REAL(write) == NULL || IOLENS_REAL(close) == NULL ||
        IOLENS_REAL(rename) == NULL || IOLENS_REAL(unlink) == NULL) {
        set_err(err, errsz, "the C library's I/O functions were not found", 0);
        return -1;
    }
    char tmp[PATH_MAX];
    int len = snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    if (len < 0 || (size_t)len >= sizeof tmp) {
        set_err(err, errsz, "", ENAMETOOLONG);
        return -1;
    }
    struct packed_region packed[IOLENS_MAX_REGIONS] = {{0}};
    struct iolens_region_desc table[IOLENS_MAX_REGIONS];
    int rc = pack_regions(regions, nregions, packed, table, err, errsz);
    if (rc == 0) {
        uint64_t offset = sizeof(struct iolens_file_header) + nregions * sizeof table[0];
        for (unsigned i = 0; i < nregions; i++) {
            table[i].offset = offset;
            offset += table[i].stored_size;
        }
        struct iolens_file_header h;
        fill_header(&h, flags, table, nregions);
        rc = write_and_rename(path, tmp, &h, table, packed, nregions, err, errsz);
    }
    free_packed(packed, nregions);
    return rc;
}

/* --------------------------------------------------------- file name -- */

/* Copies at most max bytes of s into out, making it safe as part of a
 * file name: '/', white space and control characters become '-'. */
static void sanitize(char *out, size_t max, const char *s)
{
    size_t n = 0;
    for (; s != NULL && s[n] != '\0' && n < max; n++) {
        unsigned char c = (unsigned char)s[n];
        out[n] = (c == '/' || c <= ' ' || c == 0x7f) ? '-' : (char)c;
    }
    if (n == 0)
        out[n++] = '-';
    out[n] = '\0';
}

int iolens_log_default_name(char *out, size_t outsz, const char *logdir, const char *user,
                            const char *exe, const char *jobid, long start_sec, long pid)
{
    /* Bounded components keep the name within NAME_MAX (255). */
    char u[65], e[97], j[65], stamp[32];
    const char *base = exe != NULL ? strrchr(exe, '/') : NULL;
    sanitize(u, 64, user);
    sanitize(e, 96, base != NULL ? base + 1 : exe);
    sanitize(j, 64, jobid);
    time_t t = (time_t)start_sec;
    struct tm tm;
    if (localtime_r(&t, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
        snprintf(stamp, sizeof stamp, "%ld", start_sec);
    int len = snprintf(out, outsz, "%s/%s_%s_%s_%s_%ld.iolens", logdir, u, e, j, stamp, pid);
    return len < 0 || (size_t)len >= outsz ? -1 : 0;
}

/* ---------------------------------------------------- region building -- */

/* A growable byte buffer; after a failed allocation it stays failed. */
struct buf {
    unsigned char *p;
    size_t len, cap;
    bool failed;
};

static void put(struct buf *b, const void *data, size_t n)
{
    if (b->failed)
        return;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_u32(struct buf *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_u64(struct buf *b, uint64_t v) { put(b, &v, sizeof v); }

static void put_string(struct buf *b, const char *s, size_t len)
{
    put_u32(b, (uint32_t)len);
    put(b, s, len);
}

static void put_cstring(struct buf *b, const char *s)
{
    put_string(b, s, s != NULL ? strlen(s) : 0);
}

/* Everything one log is built from. */
struct job_log {
    struct buf job, mounts, names, posix, stdio;
    uint64_t posix_records, stdio_records;
    uint64_t *ids;            /* ids of emitted records */
    size_t nids, ids_cap;
    bool ids_failed;
    uint32_t name_count;
    char user[256], jobid[256];
    long parent_pid;
    uint64_t folded_opens;
};

static void note_id(struct job_log *jl, uint64_t id)
{
    if (jl->ids_failed)
        return;
    if (jl->nids == jl->ids_cap) {
        size_t cap = jl->ids_cap ? jl->ids_cap * 2 : 256;
        uint64_t *p = realloc(jl->ids, cap * sizeof *p);
        if (p == NULL) {
            jl->ids_failed = true;
            return;
        }
        jl->ids = p;
        jl->ids_cap = cap;
    }
    jl->ids[jl->nids++] = id;
}

static void emit_posix(const struct iolens_posix_record *rec, void *arg)
{
    struct job_log *jl = arg;
    put(&jl->posix, rec, sizeof *rec);
    jl->posix_records++;
    note_id(jl, rec->id);
}

static void emit_stdio(const struct iolens_stdio_record *rec, void *arg)
{
    struct job_log *jl = arg;
    put(&jl->stdio, rec, sizeof *rec);
    jl->stdio_records++;
    note_id(jl, rec->id);
}

static int compare_ids(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void emit_name(struct iolens_file *file, void *arg)
{
    struct job_log *jl = arg;
    if (bsearch(&file->id, jl->ids, jl->nids, sizeof *jl->ids, compare_ids) == NULL)
        return;
    put_u64(&jl->names, file->id);
    put_string(&jl->names, file->name, file->name_len);
    jl->name_count++;
}

/* Layer regions: head, then the records the layer emitted (none for a
 * layer switched off, whose region is then left out). */
static void build_layers(struct job_log *jl, unsigned layers_off)
{
    struct iolens_layer_head head = {POSIX_NUM_COUNTERS, POSIX_F_NUM_COUNTERS, 0};
    put(&jl->posix, &head, sizeof head);
    if (!(layers_off & (1u << IOLENS_LAYER_POSIX)))
        iolens_posix_foreach_record(emit_posix, jl);
    head = (struct iolens_layer_head){STDIO_NUM_COUNTERS, STDIO_F_NUM_COUNTERS, 0};
    put(&jl->stdio, &head, sizeof head);
    if (!(layers_off & (1u << IOLENS_LAYER_STDIO)))
        iolens_stdio_foreach_record(emit_stdio, jl);
    /* The record counts are known only now: patch them into the heads. */
    if (!jl->posix.failed)
        memcpy(jl->posix.p + offsetof(struct iolens_layer_head, record_count), &jl->posix_records,
               sizeof jl->posix_records);
    if (!jl->stdio.failed)
        memcpy(jl->stdio.p + offsetof(struct iolens_layer_head, record_count), &jl->stdio_records,
               sizeof jl->stdio_records);
}

/* Names of the records that were emitted (only those). */
static void build_names(struct job_log *jl)
{
    if (jl->nids > 0)
        qsort(jl->ids, jl->nids, sizeof *jl->ids, compare_ids);
    put_u32(&jl->names, 0); /* count, patched below */
    if (jl->nids > 0)
        iolens_file_foreach(emit_name, jl);
    if (!jl->names.failed)
        memcpy(jl->names.p, &jl->name_count, sizeof jl->name_count);
}

static void build_mounts(struct job_log *jl)
{
    size_t n = iolens_mounts_count();
    put_u32(&jl->mounts, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        const struct iolens_mount *m = iolens_mounts_at(i);
        put_u64(&jl->mounts, (uint64_t)m->block_size);
        put_cstring(&jl->mounts, m->point);
        put_cstring(&jl->mounts, m->fstype);
    }
}

static void build_job(struct job_log *jl)
{
    struct timespec start = iolens_clock_start_real(), end;
    clock_gettime(CLOCK_REALTIME, &end);
    struct iolens_budget_stats bs;
    iolens_budget_stats(&bs);
    jl->folded_opens = iolens_file_folded_opens();
    struct iolens_job_fixed fixed = {
        .uid = (uint64_t)getuid(),
        .start_time_sec = start.tv_sec,
        .start_time_nsec = start.tv_nsec,
        .end_time_sec = end.tv_sec,
        .end_time_nsec = end.tv_nsec,
        .run_time = iolens_now(),
        .nprocs = 1,
        .nnodes = 1,
        .pid = (int64_t)getpid(),
        .parent_pid = jl->parent_pid,
        .budget_bytes = bs.budget,
        .budget_used = bs.used,
        .budget_needed = bs.needed,
        .folded_opens = jl->folded_opens,
        .folded_files = iolens_file_folded_files(),
        .string_count = IOLENS_JOB_NSTRINGS,
    };
    put(&jl->job, &fixed, sizeof fixed);
    size_t args_len;
    const char *args = iolens_jobinfo_args(&args_len);
    put_cstring(&jl->job, jl->jobid);
    put_cstring(&jl->job, jl->user);
    put_cstring(&jl->job, iolens_jobinfo_exe());
    put_string(&jl->job, args, args_len);
    put_cstring(&jl->job, iolens_runtime_hostname());
    put_cstring(&jl->job, IOLENS_VERSION_STRING);
}

/* ---------------------------------------------------------- the job log -- */

/* Creates the default log directory if missing (one level), world-writable
 * and sticky like /tmp so that every user's jobs can log into it. */
static int ensure_logdir(const char *dir, char *err, size_t errsz)
{
    if (mkdir(dir, 01777) == 0) {
        chmod(dir, 01777); /* mkdir's mode was cut by the umask */
        return 0;
    }
    if (errno == EEXIST)
        return 0;
    set_err(err, errsz, "cannot create the log directory", errno);
    return -1;
}

static int choose_path(struct job_log *jl, char *path, size_t pathsz, char *err, size_t errsz)
{
    const struct iolens_config *cfg = iolens_runtime_config();
    if (cfg->logfile[0] != '\0') {
        snprintf(path, pathsz, "%s", cfg->logfile);
        return 0;
    }
    snprintf(path, pathsz, "%s", cfg->logdir);
    if (ensure_logdir(cfg->logdir, err, errsz) != 0)
        return -1;
    struct timespec start = iolens_clock_start_real();
    if (iolens_log_default_name(path, pathsz, cfg->logdir, jl->user, iolens_jobinfo_exe(),
                                jl->jobid, (long)start.tv_sec, (long)getpid()) != 0) {
        snprintf(path, pathsz, "%s", cfg->logdir);
        set_err(err, errsz, "", ENAMETOOLONG);
        return -1;
    }
    return 0;
}

static void report_failure(const char *path, const char *reason)
{
    char line[PATH_MAX + 512];
    int n = snprintf(line, sizeof line, "iolens: cannot write log %s: %s\n", path, reason);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line) {
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    if (IOLENS_REAL(write) != NULL)
        (void)!iolens_real_write(2, line, (size_t)n);
}

static void add_region(struct iolens_region_src *regions, unsigned *n, uint32_t kind,
                       uint32_t version, const struct buf *b)
{
    regions[(*n)++] = (struct iolens_region_src){kind, version, b->p, b->len};
}

static int write_job_log(struct job_log *jl, char *path, size_t pathsz, char *err, size_t errsz)
{
    unsigned off = iolens_runtime_config()->layers_off;
    if (choose_path(jl, path, pathsz, err, errsz) != 0)
        return -1;
    build_job(jl);
    build_mounts(jl);
    build_layers(jl, off);
    build_names(jl);
    if (jl->job.failed || jl->mounts.failed || jl->names.failed || jl->posix.failed ||
        jl->stdio.failed || jl->ids_failed) {
        set_err(err, errsz, "out of memory", 0);
        return -1;
    }
    struct iolens_region_src regions[5];
    unsigned n = 0;
    add_region(regions, &n, IOLENS_REGION_JOB, IOLENS_JOB_VERSION, &jl->job);
    add_region(regions, &n, IOLENS_REGION_MOUNTS, IOLENS_MOUNTS_VERSION, &jl->mounts);
    add_region(regions, &n, IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, &jl->names);
    /* A layer switched off gets no region at all, not an empty one. */
    if (!(off & (1u << IOLENS_LAYER_POSIX)))
        add_region(regions, &n, IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, &jl->posix);
    if (!(off & (1u << IOLENS_LAYER_STDIO)))
        add_region(regions, &n, IOLENS_REGION_STDIO, IOLENS_STDIO_VERSION, &jl->stdio);
    uint64_t flags = (jl->folded_opens > 0 ? IOLENS_FLAG_PARTIAL : 0) |
                     (jl->parent_pid != 0 ? IOLENS_FLAG_FORKED : 0);
    return iolens_log_write_file(path, flags, regions, n, err, errsz);
}

int iolens_log_write_job(void)
{
    int saved_errno = errno;
    int saved_guard = iolens_in_runtime;
    iolens_in_runtime = 1;

    struct job_log *jl = calloc(1, sizeof *jl);
    char path[PATH_MAX] = "(unknown)";
    char err[256] = "out of memory";
    int rc = -1;
    if (jl != NULL) {
        jl->parent_pid = iolens_runtime_parent_pid();
        iolens_jobinfo_user(jl->user, sizeof jl->user);
        iolens_jobinfo_jobid(jl->jobid, sizeof jl->jobid);
        rc = write_job_log(jl, path, sizeof path, err, sizeof err);
        free(jl->job.p);
        free(jl->mounts.p);
        free(jl->names.p);
        free(jl->posix.p);
        free(jl->stdio.p);
        free(jl->ids);
        free(jl);
    }
    if (rc != 0)
        report_failure(path, err);

    iolens_in_runtime = saved_guard;
    errno = saved_errno;
    return rc;
}
