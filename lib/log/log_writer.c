/*
 * The log writer.  At exit it packs the runtime's state into regions
 * (format in include/iolens/log_format.h), compresses each with zlib and
 * writes the file under a temporary name, created with O_EXCL|O_NOFOLLOW
 * in the log's own directory, that gets its final mode (IOLENS_LOG_MODE,
 * 0400 by default) and is renamed into place only when complete: a reader
 * never sees half a log, and a failed write leaves nothing behind.
 *
 * This runs once, at exit, so it uses malloc freely; the memory budget
 * bounds what the runtime keeps while the program runs, not this.  All
 * file I/O goes through the real calls, and iolens_in_runtime is set so
 * that anything the C library does underneath is not traced either.
 */
#include "log/log_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "core/budget.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/file_table.h"
#include "log/jobinfo.h"
#include "layers/layer_intervals.h"
#include "layers/layer_ops.h"
#include "log/log_place.h"
#include "log/log_regions.h"
#include "log/sites_region.h"
#include "core/real_calls.h"
#include "core/stderr_copy.h"
#include "core/state.h"
#include "iolens/text_escape.h"

/* Layers a single-process log can hold: every layer of the runtime
 * (file_table.h), each with its descriptor (record_merge.c). */
#define IOLENS_LOG_NLAYERS IOLENS_NLAYERS

_Static_assert(sizeof(struct iolens_file_header) == 40, "header layout");
_Static_assert(sizeof(struct iolens_region_desc) == 40, "region descriptor layout");

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
    void *data;
    size_t size;
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
        if (iolens_region_compress(regions[i].data, regions[i].size, &packed[i].data,
                                   &packed[i].size) != 0) {
            set_err(err, errsz, "compression failed", 0);
            return -1;
        }
        table[i] = (struct iolens_region_desc){
            .kind = regions[i].kind,
            .version = regions[i].version,
            .stored_size = packed[i].size,
            .raw_size = regions[i].size,
            .crc32 = iolens_crc32(packed[i].data, packed[i].size),
            .compression = IOLENS_COMPRESS_ZLIB,
        };
    }
    return 0;
}

void iolens_log_header_build(struct iolens_file_header *h, uint64_t flags,
                             const struct iolens_region_desc *descs, uint32_t n)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, IOLENS_MAGIC, IOLENS_MAGIC_LEN);
    h->version = IOLENS_FORMAT_VERSION;
    h->byte_order = IOLENS_BYTE_ORDER_MARK;
    h->flags = flags;
    h->header_size = sizeof *h;
    h->region_count = n;
    /* CRC of the header (header_crc still 0) followed by the table. */
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)h, sizeof *h);
    const Bytef *p = (const Bytef *)descs;
    size_t len = (size_t)n * sizeof *descs;
    while (len > 0) {
        uInt k = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = crc32(crc, p, k);
        p += k;
        len -= k;
    }
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

unsigned iolens_log_mode(void)
{
    unsigned mode = iolens_runtime_config()->log_mode;
    return mode != 0 ? mode : IOLENS_DEFAULT_LOG_MODE; /* a tool that never loaded one */
}

void iolens_log_quiet_sigxfsz(struct sigaction *saved)
{
    /* Writing past RLIMIT_FSIZE raises SIGXFSZ, whose default action ends
     * the process: while it is ignored the write fails with EFBIG instead,
     * which is reported like any other failure. */
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    /* The C library's sigaction, not an interposed one (the runtime's
     * calls never pass through its own wrappers: real_calls.h). */
    if (IOLENS_REAL(sigaction) == NULL || IOLENS_REAL(sigaction)(SIGXFSZ, &ignore, saved) != 0)
        saved->sa_handler = SIG_ERR;
}

void iolens_log_restore_sigxfsz(const struct sigaction *saved)
{
    if (saved->sa_handler != SIG_ERR)
        IOLENS_REAL(sigaction)(SIGXFSZ, saved, NULL);
}

/* Writes the log into a new temporary file in the place's directory,
 * gives it its final mode (fchmod: exact, whatever the umask) and renames
 * it to a free name (log_place.h), written into path.  On failure the
 * temporary file is removed. */
static int write_and_publish(struct iolens_log_place *place,
                             const struct iolens_file_header *h,
                             const struct iolens_region_desc *table,
                             const struct packed_region *packed, unsigned n, char *path,
                             size_t pathsz, char *err, size_t errsz)
{
    char tmp[NAME_MAX + 1];
    iolens_log_place_path(place, place->name, path, pathsz);
    int fd = iolens_log_place_temp(place, tmp, sizeof tmp);
    if (fd < 0) {
        set_err(err, errsz, "", errno);
        return -1;
    }
    int rc = write_contents(fd, h, table, packed, n);
    int e = errno;
    if (rc == 0 && fchmod(fd, (mode_t)iolens_log_mode()) != 0) {
        rc = -1;
        e = errno;
    }
    /* close reports delayed write errors on some file systems (NFS). */
    if (IOLENS_REAL(close)(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0)
        set_err(err, errsz, "write", e);
    else
        rc = iolens_log_place_publish(place, tmp, path, pathsz, err, errsz);
    if (rc != 0)
        iolens_log_place_discard(place, tmp);
    return rc;
}

/* The packed log into the place; the path written goes to path. */
static int write_packed(struct iolens_log_place *place, uint64_t flags,
                        const struct iolens_region_src *regions, unsigned nregions, char *path,
                        size_t pathsz, char *err, size_t errsz)
{
    if (nregions > IOLENS_MAX_REGIONS) {
        set_err(err, errsz, "too many regions", 0);
        return -1;
    }
    if (IOLENS_REAL(open) == NULL || IOLENS_REAL(write) == NULL || IOLENS_REAL(close) == NULL) {
        set_err(err, errsz, "the C library's I/O functions were not found", 0);
        return -1;
    }
    /* +1: calloc(0) may return NULL. */
    struct packed_region *packed = calloc((size_t)nregions + 1, sizeof *packed);
    struct iolens_region_desc *table = calloc((size_t)nregions + 1, sizeof *table);
    int rc = -1;
    if (packed == NULL || table == NULL)
        set_err(err, errsz, "out of memory", 0);
    else
        rc = pack_regions(regions, nregions, packed, table, err, errsz);
    if (rc == 0) {
        uint64_t offset = sizeof(struct iolens_file_header) + (uint64_t)nregions * sizeof table[0];
        for (unsigned i = 0; i < nregions; i++) {
            table[i].offset = offset;
            offset += table[i].stored_size;
        }
        struct iolens_file_header h;
        iolens_log_header_build(&h, flags, table, nregions);
        struct sigaction saved;
        iolens_log_quiet_sigxfsz(&saved);
        rc = write_and_publish(place, &h, table, packed, nregions, path, pathsz, err, errsz);
        iolens_log_restore_sigxfsz(&saved);
    }
    if (packed != NULL)
        free_packed(packed, nregions);
    free(packed);
    free(table);
    return rc;
}

int iolens_log_write_file(const char *path, uint64_t flags,
                          const struct iolens_region_src *regions, unsigned nregions,
                          char *err, size_t errsz)
{
    struct iolens_log_place place;
    char written[PATH_MAX];
    if (iolens_log_place_open(&place, path, IOLENS_NAMING_REPLACE, (long)getpid(), 0, NULL, err,
                              errsz) != 0)
        return -1;
    int rc = write_packed(&place, flags, regions, nregions, written, sizeof written, err, errsz);
    iolens_log_place_close(&place);
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
                            const char *exe, const char *jobid, long start_sec, const char *token,
                            long pid)
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
    int len = snprintf(out, outsz, "%s/%s_%s_%s_%s_%s_%ld.iolens", logdir, u, e, j, stamp, token,
                       pid);
    return len < 0 || (size_t)len >= outsz ? -1 : 0;
}

/* ---------------------------------------------------------- the job log -- */

/* Everything one single-process log is built from. */
/* One region of the process's log, raw, in table order. */
struct raw_region {
    uint32_t kind, version;
    struct iolens_buf raw;
};

struct job_log {
    struct raw_region *regions;
    unsigned nregions, cap;
    void *records[IOLENS_LOG_NLAYERS]; /* each layer's collected records */
    long count[IOLENS_LOG_NLAYERS];    /* -1: the layer has no region */
    uint64_t *ids;            /* ids of collected records */
    size_t nids;
    char user[256], jobid[256];
    long parent_pid;
    long pid;                 /* the traced process (not getpid() in a snapshot copy) */
    uint64_t extra_flags;     /* IOLENS_FLAG_INCOMPLETE */
    const char *base_path;    /* instead of the usual path, or NULL */
    const char *suffix;       /* replaces ".iolens" at the end of the path, or NULL */
    uint64_t folded_opens;
};

void iolens_log_say_dir_created(const char *dir)
{
    char line[PATH_MAX + 256];
    char shown[PATH_MAX];
    iolens_escape_text(shown, sizeof shown, dir, strlen(dir));
    snprintf(line, sizeof line,
             "iolens: created the log directory %s for your own logs (mode 0700); a directory "
             "that several users share is made by the site (iolens(7), LOG SAFETY)\n",
             shown);
    iolens_real_say(line);
}

/* The usual path: IOLENS_LOGFILE, or a name with this process's token
 * in the log directory (*in_logdir set). */
static int choose_path(struct job_log *jl, char *path, size_t pathsz, int *in_logdir, char *err,
                       size_t errsz)
{
    const struct iolens_config *cfg = iolens_runtime_config();
    *in_logdir = cfg->logfile[0] == '\0';
    if (!*in_logdir) {
        if (strlen(cfg->logfile) >= pathsz) {
            set_err(err, errsz, "", ENAMETOOLONG);
            return -1;
        }
        strcpy(path, cfg->logfile);
        return 0;
    }
    struct timespec start = iolens_clock_start_real();
    if (iolens_log_default_name(path, pathsz, cfg->logdir, jl->user, iolens_jobinfo_exe(),
                                jl->jobid, (long)start.tv_sec, iolens_log_token(), jl->pid) != 0) {
        snprintf(path, pathsz, "%s", cfg->logdir);
        set_err(err, errsz, "", ENAMETOOLONG);
        return -1;
    }
    return 0;
}

/* The given path (the MPI job's), in the log directory unless it is
 * IOLENS_LOGFILE: the directory is made as for the usual path. */
static int use_base_path(const char *base, char *path, size_t pathsz, char *err, size_t errsz)
{
    if (strlen(base) >= pathsz) {
        set_err(err, errsz, "", ENAMETOOLONG);
        return -1;
    }
    strcpy(path, base);
    return 0;
}

/* An MPI rank's incomplete log: "x.iolens" becomes "x<suffix>". */
static int apply_suffix(const char *suffix, char *path, size_t pathsz, char *err, size_t errsz)
{
    size_t len = strlen(path), ext = strlen(".iolens");
    if (len >= ext && strcmp(path + len - ext, ".iolens") == 0)
        len -= ext;
    if (len + strlen(suffix) >= pathsz) {
        set_err(err, errsz, "", ENAMETOOLONG);
        return -1;
    }
    strcpy(path + len, suffix);
    return 0;
}

void iolens_log_report_failure(const char *path, const char *reason, int failed_rank)
{
    /* The path comes from the environment: escaped like every value shown. */
    char line[PATH_MAX + 512], shown[PATH_MAX];
    iolens_escape_text(shown, sizeof shown, path, strlen(path));
    int n = failed_rank > 0
                ? snprintf(line, sizeof line, "iolens: cannot write log %s: %s (rank %d)\n", shown,
                           reason, failed_rank)
                : snprintf(line, sizeof line, "iolens: cannot write log %s: %s\n", shown, reason);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line) {
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    iolens_real_say(line);
}

static int build_job(struct job_log *jl, struct iolens_buf *out)
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
        .run_time = iolens_clock_elapsed_seconds(),
        .nprocs = 1,
        .nnodes = 1,
        .pid = (int64_t)jl->pid,
        .parent_pid = jl->parent_pid,
        .budget_bytes = bs.budget,
        .budget_used = bs.used,
        .budget_needed = bs.needed,
        .folded_opens = jl->folded_opens,
        .folded_files = iolens_file_folded_files(),
        .string_count = IOLENS_JOB_NSTRINGS,
    };
    const char *strings[IOLENS_JOB_NSTRINGS];
    size_t lens[IOLENS_JOB_NSTRINGS];
    strings[IOLENS_JOBSTR_JOBID] = jl->jobid;
    strings[IOLENS_JOBSTR_USER] = jl->user;
    strings[IOLENS_JOBSTR_EXE] = iolens_jobinfo_exe();
    strings[IOLENS_JOBSTR_ARGS] = iolens_jobinfo_args(&lens[IOLENS_JOBSTR_ARGS]);
    strings[IOLENS_JOBSTR_HOSTS] = iolens_runtime_hostname();
    strings[IOLENS_JOBSTR_VERSION] = IOLENS_VERSION_STRING;
    strings[IOLENS_JOBSTR_MPI_VERSION] = "";
    strings[IOLENS_JOBSTR_EXES] = strings[IOLENS_JOBSTR_EXE];
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++) {
        if (strings[i] == NULL)
            strings[i] = "";
        if (i != IOLENS_JOBSTR_ARGS)
            lens[i] = strlen(strings[i]);
    }
    return iolens_region_job(out, &fixed, strings, lens);
}

/* Appends the ids of n records to jl->ids. */
static int note_ids(struct job_log *jl, const struct iolens_layer_desc *d, const void *records,
                    size_t n)
{
    uint64_t *ids = realloc(jl->ids, (jl->nids + n + 1) * sizeof *ids);
    if (ids == NULL)
        return -1;
    jl->ids = ids;
    for (size_t i = 0; i < n; i++)
        memcpy(&ids[jl->nids++], (const char *)records + i * d->record_size, sizeof *ids);
    return 0;
}

/* A layer switched off gets no region at all, not an empty one; so does
 * a layer the process never used, unless its entry in the layer table
 * asks for its region even when empty (POSIX and STDIO; not MPI-IO in a
 * process that wrote its own log). */
static bool layer_wanted(const struct iolens_layer_desc *d, unsigned layers_off, long n)
{
    const struct iolens_layer_ops *ops = iolens_layer_ops_of_kind(d->region_kind);
    if (ops != NULL && (ops->empty_region & IOLENS_EMPTY_IN_PROCESS_LOG))
        return !(layers_off & (1u << ops->layer));
    return n > 0;
}

/* Every wanted layer's records into jl->records, and their ids. */
static int collect_layers(struct job_log *jl, unsigned layers_off)
{
    const struct iolens_layer_desc *want[IOLENS_LOG_NLAYERS];
    unsigned at[IOLENS_LOG_NLAYERS], nwant = 0;
    for (unsigned i = 0; i < iolens_layer_desc_count() && i < IOLENS_LOG_NLAYERS; i++) {
        jl->count[i] = -1;
        if (layer_wanted(iolens_layer_desc_at(i), layers_off, 1)) {
            want[nwant] = iolens_layer_desc_at(i);
            at[nwant++] = i;
        }
    }
    void *records[IOLENS_LOG_NLAYERS];
    long counts[IOLENS_LOG_NLAYERS];
    int rc = iolens_layers_collect(want, nwant, 0, records, counts);
    for (unsigned k = 0; k < nwant; k++) {
        unsigned i = at[k];
        jl->records[i] = records[k];
        long n = counts[k];
        if (n < 0 || (n > 0 && note_ids(jl, want[k], records[k], (size_t)n) != 0))
            rc = -1;
        else if (layer_wanted(want[k], layers_off, n))
            jl->count[i] = n;
    }
    return rc;
}

/* Keeps raw (the sink of log_regions.h) as the next region of the log. */
static int add_region(void *arg, uint32_t kind, uint32_t version, struct iolens_buf *raw)
{
    struct job_log *jl = arg;
    if (jl->nregions == jl->cap) {
        unsigned cap = jl->cap ? 2 * jl->cap : 16;
        struct raw_region *r = realloc(jl->regions, cap * sizeof *r);
        if (r == NULL) {
            iolens_buf_free(raw);
            return -1;
        }
        jl->regions = r;
        jl->cap = cap;
    }
    jl->regions[jl->nregions++] = (struct raw_region){kind, version, *raw};
    *raw = (struct iolens_buf){0}; /* the bytes are the list's now */
    return 0;
}

/* add_region for a single region built in place. */
static int add_built(struct job_log *jl, uint32_t kind, uint32_t version, int built,
                     struct iolens_buf *raw)
{
    if (built != 0) {
        iolens_buf_free(raw);
        return -1;
    }
    return add_region(jl, kind, version, raw);
}

/* In table order: JOB, MOUNTS, the NAMES regions, each layer's regions,
 * the INTERVALS region and the SITES region (times in seconds since the process start,
 * like the records').  The records are collected first: packing them may
 * fold a file whole (the layers' before_pack), which the job's folded
 * counts must include. */
static int build_regions(struct job_log *jl, unsigned layers_off)
{
    struct iolens_region_sink sink = {add_region, jl};
    struct iolens_buf raw = {0};
    struct iolens_names_block names = {0};
    if (collect_layers(jl, layers_off) != 0 ||
        add_built(jl, IOLENS_REGION_JOB, IOLENS_JOB_VERSION, build_job(jl, &raw), &raw) != 0 ||
        add_built(jl, IOLENS_REGION_MOUNTS, IOLENS_MOUNTS_VERSION, iolens_region_mounts(&raw),
                  &raw) != 0 ||
        iolens_emit_names_regions(&sink, jl->ids, jl->nids, &names) != 0) {
        iolens_names_block_free(&names);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; rc == 0 && i < iolens_layer_desc_count() && i < IOLENS_LOG_NLAYERS; i++) {
        if (jl->count[i] >= 0 &&
            iolens_emit_layer_regions(&sink, iolens_layer_desc_at(i),
                                      jl->count[i] > 0 ? jl->records[i] : "",
                                      (size_t)jl->count[i], &names) != 0)
            rc = -1;
    }
    if (rc == 0)
        rc = add_built(jl, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION,
                       iolens_gather_intervals_region(&raw, 0, layers_off, 0.0, 0.0, 0.0, &names),
                       &raw);
    if (rc == 0)
        rc = add_built(jl, IOLENS_REGION_SITES, IOLENS_SITES_VERSION,
                       iolens_gather_sites_region(&raw, 0, &names), &raw);
    iolens_names_block_free(&names);
    return rc;
}

/* The regions as the file writer takes them. */
static struct iolens_region_src *region_sources(const struct job_log *jl)
{
    struct iolens_region_src *src = malloc((jl->nregions + 1) * sizeof *src);
    for (unsigned i = 0; src != NULL && i < jl->nregions; i++) {
        const struct raw_region *r = &jl->regions[i];
        src[i] = (struct iolens_region_src){r->kind, r->version, r->raw.data, r->raw.len};
    }
    return src;
}

/* How the names after the first are made (log_place.h). */
static enum iolens_log_naming naming_of(const struct job_log *jl, int in_logdir)
{
    if (in_logdir)
        return IOLENS_NAMING_TOKEN;
    /* A forked child never takes IOLENS_LOGFILE itself: that is its
     * parent's. */
    return jl->parent_pid != 0 && jl->base_path == NULL ? IOLENS_NAMING_EXACT_CHILD
                                                        : IOLENS_NAMING_EXACT;
}

static int write_job_log(struct job_log *jl, char *path, size_t pathsz, char *err, size_t errsz)
{
    int in_logdir = 0;
    if (choose_path(jl, path, pathsz, &in_logdir, err, errsz) != 0 ||
        (jl->base_path != NULL && use_base_path(jl->base_path, path, pathsz, err, errsz) != 0) ||
        (jl->suffix != NULL && apply_suffix(jl->suffix, path, pathsz, err, errsz) != 0))
        return -1;
    struct iolens_log_place place;
    int created = 0;
    if (iolens_log_place_open(&place, path, naming_of(jl, in_logdir), jl->pid, in_logdir,
                              &created, err, errsz) != 0) {
        if (place.mkdir_failed) /* the message names what could not be made */
            snprintf(path, pathsz, "%s", place.dir);
        return -1;
    }
    if (created && strcmp(place.dir, IOLENS_LOGDIR_DEFAULT) == 0)
        iolens_log_say_dir_created(place.dir);
    struct iolens_region_src *src = NULL;
    int rc = -1;
    if (build_regions(jl, iolens_runtime_config()->layers_off) != 0 ||
        (src = region_sources(jl)) == NULL) {
        set_err(err, errsz, "out of memory", 0);
    } else {
        /* A path reached only by stat, unlink or rename may be folded too. */
        int folded = jl->folded_opens > 0 || iolens_file_folded_files() > 0;
        uint64_t flags = (folded ? IOLENS_FLAG_PARTIAL : 0) |
                         (jl->parent_pid != 0 ? IOLENS_FLAG_FORKED : 0) | jl->extra_flags;
        rc = write_packed(&place, flags, src, jl->nregions, path, pathsz, err, errsz);
    }
    free(src);
    iolens_log_place_close(&place);
    return rc;
}

static void free_job_log(struct job_log *jl)
{
    for (unsigned i = 0; i < jl->nregions; i++)
        iolens_buf_free(&jl->regions[i].raw);
    free(jl->regions);
    for (unsigned i = 0; i < IOLENS_LOG_NLAYERS; i++)
        free(jl->records[i]);
    free(jl->ids);
    free(jl);
}

int iolens_log_write_process(uint64_t extra_flags, const char *base_path, const char *suffix,
                             char *path_out, size_t path_outsz)
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
        jl->pid = iolens_runtime_pid();
        jl->extra_flags = extra_flags;
        jl->base_path = base_path;
        jl->suffix = suffix;
        iolens_jobinfo_user(jl->user, sizeof jl->user);
        iolens_jobinfo_jobid(jl->jobid, sizeof jl->jobid);
        rc = write_job_log(jl, path, sizeof path, err, sizeof err);
        free_job_log(jl);
    }
    if (rc != 0)
        iolens_log_report_failure(path, err, 0);
    if (path_out != NULL && path_outsz > 0)
        snprintf(path_out, path_outsz, "%s", rc == 0 ? path : "");

    iolens_in_runtime = saved_guard;
    errno = saved_errno;
    return rc;
}
