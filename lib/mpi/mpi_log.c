/*
 * The log writer of an MPI job (mpi_log.h).  Runs once, inside
 * MPI_Finalize before PMPI_Finalize, on every rank; malloc is fine here.
 * Four collectives, whatever the number of files: Gather (per-rank facts
 * and part sizes to rank 0), Bcast (the temporary file and every rank's
 * offset, or the error that stops everyone), Gatherv (the region
 * descriptors, whose number grows with a rank's files: log_regions.h
 * splits big layers) and Allreduce (did every rank write its part).  File
 * I/O goes through the real calls.
 */
#include "mpi/mpi_coll.h"
#include "mpi/mpi_log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include "core/mpi_handles.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/budget.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/file_table.h"
#include "log/jobinfo.h"
#include "layers/layer_intervals.h"
#include "log/log_place.h"
#include "log/log_regions.h"
#include "log/site_list.h"
#include "log/sites_region.h"
#include "log/log_writer.h"
#include "core/mpi_calls.h"
#include "core/real_calls.h"
#include "core/stderr_copy.h"
#include "core/state.h"

#define JOB_REGIONS 3                 /* JOB, MOUNTS, RANKS: rank 0 only */
#define HOST_MAX (MPI_MAX_PROCESSOR_NAME + 1)
/* A rank's executable as gathered: the end of a longer one. */
#define EXE_MAX 256
/* MPICH's version string runs to kilobytes (its configure line): the job
 * record keeps its first lines, up to this many characters. */
#define MPI_VERSION_MAX 256

/* What each rank tells rank 0 (one Gather, fixed size); its region
 * descriptors follow in the Gatherv. */
struct rank_summary {
    double init_time, finalize_time;
    uint64_t budget_used, budget_needed, folded_opens, folded_files;
    uint64_t part_len;            /* bytes of the rank's compressed regions */
    int32_t error;
    uint32_t nregions;
    char host[HOST_MAX];
    char exe[EXE_MAX];
};

/* Compressed regions of one writer, back to back, and their descriptors.
 * Region offsets are relative to the start of the part. */
struct part {
    struct iolens_region_desc *regions;
    uint32_t nregions, cap;
    unsigned char *data;
    size_t len;
};

/* What rank 0 broadcasts; one uint64 file offset per rank follows it. */
struct plan {
    int32_t code;                 /* 0: write; else the errno that stops the log */
    int32_t failed_rank;
    char tmp[PATH_MAX];           /* the temporary file every rank writes into */
};

/* Rank 0's side of the log. */
struct head {
    char path[PATH_MAX];
    char reason[256];             /* rank 0's own failure in words, if any */
    int fd;                       /* the temporary file, or -1 */
    struct iolens_log_place place; /* the log's directory, once opened */
    char tmp_name[NAME_MAX + 1];  /* the temporary file's name in it */
    unsigned char *bytes;         /* file header + region table */
    size_t len;
    uint64_t job_offset;          /* where the job-wide regions go */
    uint32_t nregions;            /* in the table */
    struct part job;              /* JOB, MOUNTS, RANKS */
};

/* ------------------------------------------------------ pure helpers -- */

static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

long iolens_mpi_host_list(const char *hosts, size_t hostsz, uint32_t n, char *out, size_t outsz,
                          size_t *outlen, uint32_t *index)
{
    /* Open addressing over the ranks, each slot the first rank with a
     * name (+1; 0 is empty): O(n) for any number of hosts. */
    size_t cap = 16;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        return -1;
    size_t len = 0;
    long distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *h = hosts + (size_t)i * hostsz;
        size_t hl = strnlen(h, hostsz);
        size_t k = name_hash(h, hl) & (cap - 1);
        for (; slot[k] != 0; k = (k + 1) & (cap - 1)) {
            const char *o = hosts + (size_t)(slot[k] - 1) * hostsz;
            if (strnlen(o, hostsz) == hl && memcmp(o, h, hl) == 0)
                break;
        }
        if (slot[k] != 0) {
            index[i] = index[slot[k] - 1];
            continue;
        }
        if (len + hl + 1 > outsz) {
            free(slot);
            return -1;
        }
        slot[k] = i + 1;
        memcpy(out + len, h, hl);
        out[len + hl] = '\0';
        len += hl + 1;
        index[i] = (uint32_t)distinct++;
    }
    free(slot);
    *outlen = len > 0 ? len - 1 : 0; /* no final NUL */
    return distinct;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Copies line[0..len) to out with runs of blanks made one space and no
 * blank at either end.  Returns the length written. */
static size_t squeeze(const char *line, size_t len, char *out)
{
    size_t w = 0;
    int blank = 0;
    for (size_t r = 0; r < len; r++) {
        if (is_blank(line[r])) {
            blank = 1;
            continue;
        }
        if (blank && w > 0)
            out[w++] = ' ';
        blank = 0;
        out[w++] = line[r];
    }
    return w;
}

void iolens_mpi_version_line(const char *in, char *out, size_t outsz)
{
    size_t w = 0;
    for (const char *line = in; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        char one[len + 1];
        size_t k = squeeze(line, len, one);
        line += len + (line[len] == '\n');
        if (k == 0)
            continue;
        if (w + (w > 0 ? 2 : 0) + k >= outsz) {
            if (w == 0) { /* the first line, cut */
                w = outsz - 1;
                memcpy(out, one, w);
            }
            break;
        }
        if (w > 0) {
            out[w++] = ';';
            out[w++] = ' ';
        }
        memcpy(out + w, one, k);
        w += k;
    }
    out[w] = '\0';
}


/* ------------------------------------------------------------ errors -- */

void *iolens_mpi_must_alloc(size_t n)
{
    void *p = malloc(n + 1);
    if (p == NULL) {
        iolens_real_say("iolens: out of memory in MPI_Finalize\n");
        abort();
    }
    return p;
}


/* ---------------------------------------------------- region building -- */

static void part_free(struct part *p)
{
    free(p->regions);
    free(p->data);
    memset(p, 0, sizeof *p);
}

/* Room for one more descriptor.  Returns 0 or -1. */
static int part_reserve(struct part *p)
{
    if (p->nregions < p->cap)
        return 0;
    uint32_t cap = p->cap ? 2 * p->cap : 8;
    if (cap > IOLENS_MAX_REGIONS)
        return -1;
    struct iolens_region_desc *r = realloc(p->regions, cap * sizeof *r);
    if (r == NULL)
        return -1;
    p->regions = r;
    p->cap = cap;
    return 0;
}

/* Compresses raw, appends it to p and frees raw.  Returns 0 or ENOMEM. */
static int part_add(struct part *p, uint32_t kind, uint32_t version, struct iolens_buf *raw)
{
    void *z = NULL;
    size_t zlen = 0;
    int rc = ENOMEM;
    if (!raw->failed && part_reserve(p) == 0 &&
        iolens_region_compress(raw->data, raw->len, &z, &zlen) == 0) {
        unsigned char *data = realloc(p->data, p->len + zlen + 1);
        if (data != NULL) {
            p->data = data;
            memcpy(data + p->len, z, zlen);
            p->regions[p->nregions++] = (struct iolens_region_desc){
                .kind = kind,
                .version = version,
                .offset = p->len,
                .stored_size = zlen,
                .raw_size = raw->len,
                .crc32 = iolens_crc32(z, zlen),
                .compression = IOLENS_COMPRESS_ZLIB,
            };
            p->len += zlen;
            rc = 0;
        }
    }
    free(z);
    iolens_buf_free(raw);
    return rc;
}

/* This rank's INTERVALS region: its times shifted to the job start
 * exactly as its records' (mpi_runtime.c, align_to_job), with the clock
 * offset to rank 0 measured at MPI_Init. */
static int add_intervals(const struct iolens_mpi_job *job, const struct iolens_names_block *names,
                         struct part *p)
{
    struct timespec ts = iolens_clock_start_real();
    int64_t start_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    double shift = (double)(start_ns - job->job_start_ns) * 1e-9;
    struct iolens_buf raw = {0};
    if (iolens_gather_intervals_region(&raw, job->rank, iolens_runtime_config()->layers_off, shift,
                                job->clock_offset, job->clock_uncertainty, names) != 0) {
        iolens_buf_free(&raw);
        return ENOMEM;
    }
    return part_add(p, IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, &raw);
}

/* This rank's SITES region: the call sites of the records it writes, a
 * shared record's already reduced over the ranks (mpi/shared_sites.h). */
static int add_sites(const struct iolens_mpi_job *job, const struct iolens_site_list *sites,
                     const struct iolens_names_block *names, struct part *p)
{
    struct iolens_buf raw = {0};
    if (iolens_put_sites_region(&raw, job->rank, sites, names) != 0) {
        iolens_buf_free(&raw);
        return ENOMEM;
    }
    return part_add(p, IOLENS_REGION_SITES, IOLENS_SITES_VERSION, &raw);
}

static int part_sink_add(void *arg, uint32_t kind, uint32_t version, struct iolens_buf *raw)
{
    return part_add(arg, kind, version, raw);
}

/* This rank's NAMES regions, the regions of each layer that is on, its
 * INTERVALS region and its SITES region. */
static int build_rank_part(const struct iolens_mpi_job *job, const struct iolens_record_set *recs,
                           const struct iolens_site_list *sites, struct part *p)
{
    struct iolens_region_sink sink = {part_sink_add, p};
    struct iolens_names_block names = {0};
    uint64_t *ids = NULL;
    long n = iolens_share_distinct_ids(recs, &ids);
    int rc = n >= 0 && iolens_emit_names_regions(&sink, ids, (size_t)n, &names) == 0 ? 0 : ENOMEM;
    free(ids);
    for (unsigned l = 0; rc == 0 && l < iolens_layer_desc_count(); l++) {
        if (!(job->layers_on & (1u << l)))
            continue;
        const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
        size_t count = l < recs->nlayers ? recs->count[l] : 0;
        if (iolens_emit_layer_regions(&sink, d, count > 0 ? recs->records[l] : "", count,
                                      &names) != 0)
            rc = ENOMEM;
    }
    if (rc == 0)
        rc = add_intervals(job, &names, p);
    if (rc == 0)
        rc = add_sites(job, sites, &names, p);
    iolens_names_block_free(&names);
    return rc;
}

static void summarize(const struct iolens_mpi_job *job, const struct part *p, int error,
                      struct rank_summary *s)
{
    struct iolens_budget_stats bs;
    iolens_budget_stats(&bs);
    memset(s, 0, sizeof *s);
    s->init_time = job->init_time;
    s->finalize_time = job->finalize_time;
    s->budget_used = bs.used;
    s->budget_needed = bs.needed;
    s->folded_opens = iolens_file_folded_opens();
    s->folded_files = iolens_file_folded_files();
    s->error = error;
    s->nregions = error == 0 ? p->nregions : 0;
    s->part_len = error == 0 ? p->len : 0;
    snprintf(s->host, sizeof s->host, "%s", job->host != NULL ? job->host : "");
    const char *exe = iolens_jobinfo_exe();
    size_t len = strlen(exe);
    /* A longer path keeps its end: the program's name. */
    const char *kept = len < sizeof s->exe ? exe : exe + len - (sizeof s->exe - 1);
    snprintf(s->exe, sizeof s->exe, "%s", kept);
}

/* ----------------------------------------------- rank 0: job regions -- */

static void library_version(char *out, size_t outsz)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    out[0] = '\0';
    if (IOLENS_PMPI(PMPI_Get_library_version)(v, &len) != MPI_SUCCESS)
        return;
    v[len >= 0 && len < (int)sizeof v ? len : (int)sizeof v - 1] = '\0';
    iolens_mpi_version_line(v, out, outsz);
}

/* The JOB record's fixed part.  The budget figures that matter are the
 * fullest rank's; folded opens add up (a file folded on two ranks counts
 * in both estimates of folded files). */
static struct iolens_job_fixed job_fixed(const struct iolens_mpi_job *job,
                                         const struct rank_summary *all, uint32_t nnodes)
{
    struct iolens_job_fixed f = {
        .uid = (uint64_t)getuid(),
        .start_time_sec = job->job_start_ns / 1000000000,
        .start_time_nsec = job->job_start_ns % 1000000000,
        .nprocs = (uint32_t)job->nprocs,
        .nnodes = nnodes,
        .pid = (int64_t)getpid(),
        .budget_bytes = iolens_runtime_config()->memory,
        .string_count = IOLENS_JOB_NSTRINGS,
    };
    double end = 0;
    for (int r = 0; r < job->nprocs; r++) {
        if (all[r].finalize_time > end)
            end = all[r].finalize_time;
        if (all[r].budget_used > f.budget_used)
            f.budget_used = all[r].budget_used;
        if (all[r].budget_needed > f.budget_needed)
            f.budget_needed = all[r].budget_needed;
        f.folded_opens += all[r].folded_opens;
        f.folded_files += all[r].folded_files;
    }
    double start = (double)job->job_start_ns * 1e-9;
    f.end_time_sec = (int64_t)end;
    f.end_time_nsec = (int64_t)((end - (double)f.end_time_sec) * 1e9);
    f.run_time = end > start ? end - start : 0;
    return f;
}

/* A job's distinct strings of the ranks, as lists made by
 * iolens_mpi_host_list. */
struct rank_list {
    const char *list;
    size_t len;
};

static int add_job_region(struct part *p, const struct iolens_job_fixed *fixed,
                          struct rank_list hosts, struct rank_list exes)
{
    char user[256], jobid[256], mpi_version[MPI_VERSION_MAX + 1];
    iolens_jobinfo_user(user, sizeof user);
    iolens_jobinfo_jobid(jobid, sizeof jobid);
    library_version(mpi_version, sizeof mpi_version);
    const char *strings[IOLENS_JOB_NSTRINGS];
    size_t lens[IOLENS_JOB_NSTRINGS];
    strings[IOLENS_JOBSTR_JOBID] = jobid;
    strings[IOLENS_JOBSTR_USER] = user;
    strings[IOLENS_JOBSTR_EXE] = iolens_jobinfo_exe();
    strings[IOLENS_JOBSTR_ARGS] = iolens_jobinfo_args(&lens[IOLENS_JOBSTR_ARGS]);
    strings[IOLENS_JOBSTR_HOSTS] = hosts.list;
    strings[IOLENS_JOBSTR_VERSION] = IOLENS_VERSION_STRING;
    strings[IOLENS_JOBSTR_MPI_VERSION] = mpi_version;
    strings[IOLENS_JOBSTR_EXES] = exes.list;
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        if (i != IOLENS_JOBSTR_ARGS && i != IOLENS_JOBSTR_HOSTS && i != IOLENS_JOBSTR_EXES)
            lens[i] = strlen(strings[i]);
    lens[IOLENS_JOBSTR_HOSTS] = hosts.len;
    lens[IOLENS_JOBSTR_EXES] = exes.len;
    struct iolens_buf raw = {0};
    if (iolens_region_job(&raw, fixed, strings, lens) != 0) {
        iolens_buf_free(&raw);
        return ENOMEM;
    }
    return part_add(p, IOLENS_REGION_JOB, IOLENS_JOB_VERSION, &raw);
}

/* JOB, MOUNTS and RANKS from every rank's summary. */
static int build_job_part(const struct iolens_mpi_job *job, const struct rank_summary *all,
                          struct part *p)
{
    uint32_t n = (uint32_t)job->nprocs;
    size_t most = HOST_MAX > EXE_MAX ? HOST_MAX : EXE_MAX;
    char *names = iolens_mpi_must_alloc((size_t)n * most);
    char *hosts = iolens_mpi_must_alloc((size_t)n * HOST_MAX);
    char *exes = iolens_mpi_must_alloc((size_t)n * EXE_MAX);
    uint32_t *index = iolens_mpi_must_alloc((size_t)n * sizeof *index);
    uint32_t *exe_index = iolens_mpi_must_alloc((size_t)n * sizeof *exe_index);
    struct iolens_rank_info *ranks = iolens_mpi_must_alloc((size_t)n * sizeof *ranks);
    for (uint32_t r = 0; r < n; r++)
        memcpy(names + (size_t)r * HOST_MAX, all[r].host, HOST_MAX);
    size_t hosts_len = 0, exes_len = 0;
    long nnodes = iolens_mpi_host_list(names, HOST_MAX, n, hosts, (size_t)n * HOST_MAX,
                                       &hosts_len, index);
    for (uint32_t r = 0; r < n; r++)
        memcpy(names + (size_t)r * EXE_MAX, all[r].exe, EXE_MAX);
    long nexes = iolens_mpi_host_list(names, EXE_MAX, n, exes, (size_t)n * EXE_MAX, &exes_len,
                                      exe_index);
    for (uint32_t r = 0; nnodes >= 0 && nexes >= 0 && r < n; r++)
        ranks[r] = (struct iolens_rank_info){all[r].init_time, all[r].finalize_time, index[r],
                                             exe_index[r]};
    struct iolens_job_fixed fixed = job_fixed(job, all, (uint32_t)(nnodes > 0 ? nnodes : 0));
    int rc = nnodes >= 0 && nexes >= 0
                 ? add_job_region(p, &fixed, (struct rank_list){hosts, hosts_len},
                                  (struct rank_list){exes, exes_len})
                 : ENOMEM;
    struct iolens_buf raw = {0};
    if (rc == 0)
        rc = iolens_region_mounts(&raw) == 0
                 ? part_add(p, IOLENS_REGION_MOUNTS, IOLENS_MOUNTS_VERSION, &raw)
                 : ENOMEM;
    if (rc == 0)
        rc = iolens_region_ranks(&raw, ranks, n) == 0
                 ? part_add(p, IOLENS_REGION_RANKS, IOLENS_RANKS_VERSION, &raw)
                 : ENOMEM;
    iolens_buf_free(&raw);
    free(names);
    free(hosts);
    free(exes);
    free(index);
    free(exe_index);
    free(ranks);
    return rc;
}

/* ------------------------------------------------------- file writing -- */

static int pwrite_all(int fd, const void *data, size_t len, uint64_t offset)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = IOLENS_REAL(pwrite)(fd, p, len, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return EIO;
        p += n;
        len -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

/* A rank other than 0: its part into the file rank 0 created. */
static int write_part(const char *tmp, const struct part *mine, uint64_t offset)
{
    if (mine->len == 0)
        return 0;
    int fd = IOLENS_REAL(open)(tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int code = pwrite_all(fd, mine->data, mine->len, offset);
    /* close reports delayed write errors on some file systems (NFS). */
    if (IOLENS_REAL(close)(fd) != 0 && code == 0)
        code = errno;
    return code;
}

/* ------------------------------------------------ rank 0: the plan -- */


/* IOLENS_LOGFILE, or <logdir>/<user>_<exe>_<jobid>_<job start>_<token>_<pid
 * of rank 0>.iolens, and its directory opened (log_place.h).  Returns 0
 * or an errno value. */
static int choose_path(const struct iolens_mpi_job *job, struct head *h)
{
    const struct iolens_config *cfg = iolens_runtime_config();
    int in_logdir = cfg->logfile[0] == '\0';
    if (!in_logdir) {
        snprintf(h->path, sizeof h->path, "%s", cfg->logfile);
    } else {
        char user[256], jobid[256];
        iolens_jobinfo_user(user, sizeof user);
        iolens_jobinfo_jobid(jobid, sizeof jobid);
        if (iolens_log_default_name(h->path, sizeof h->path, cfg->logdir, user,
                                    iolens_jobinfo_exe(), jobid,
                                    (long)(job->job_start_ns / 1000000000), iolens_log_token(),
                                    (long)getpid()) != 0) {
            snprintf(h->path, sizeof h->path, "%s", cfg->logdir);
            return ENAMETOOLONG;
        }
    }
    int created = 0;
    errno = 0;
    if (iolens_log_place_open(&h->place, h->path,
                              in_logdir ? IOLENS_NAMING_TOKEN : IOLENS_NAMING_EXACT,
                              (long)getpid(), in_logdir, &created, h->reason,
                              sizeof h->reason) != 0) {
        int e = errno != 0 ? errno : EPERM; /* EPERM: a directory refused */
        if (h->place.mkdir_failed) /* the message names what could not be made */
            snprintf(h->path, sizeof h->path, "%s", h->place.dir);
        return e;
    }
    if (created && strcmp(h->place.dir, IOLENS_LOGDIR_DEFAULT) == 0)
        iolens_log_say_dir_created(h->place.dir);
    return 0;
}

/* Every rank's offset (ranks in order, then the job-wide regions' bytes)
 * and room for the header and the region table: the job-wide regions
 * first, then every rank's, which the Gatherv fills. */
static int lay_out(const struct iolens_mpi_job *job, const struct rank_summary *all,
                   uint64_t *offsets, struct head *h)
{
    uint64_t nregions = h->job.nregions;
    for (int r = 0; r < job->nprocs; r++)
        nregions += all[r].nregions;
    if (nregions > IOLENS_MAX_REGIONS)
        return E2BIG;
    h->nregions = (uint32_t)nregions;
    h->len = sizeof(struct iolens_file_header) + (size_t)nregions * sizeof(struct iolens_region_desc);
    h->bytes = iolens_mpi_must_alloc(h->len);
    uint64_t at = h->len;
    for (int r = 0; r < job->nprocs; r++) {
        offsets[r] = at;
        at += all[r].part_len;
    }
    h->job_offset = at;
    return 0;
}

/* Where the region table starts in the header bytes. */
static struct iolens_region_desc *region_table(const struct head *h)
{
    return (struct iolens_region_desc *)(h->bytes + sizeof(struct iolens_file_header));
}

/* Rank 0, after the Gatherv put every rank's descriptors in the table
 * (after the job-wide ones, rank by rank): the job-wide descriptors, the
 * offsets made absolute and the header over the table. */
static void finish_table(const struct iolens_mpi_job *job, const struct rank_summary *all,
                         const uint64_t *offsets, struct head *h)
{
    struct iolens_region_desc *table = region_table(h);
    size_t k = 0;
    for (uint32_t i = 0; i < h->job.nregions; i++) {
        table[k] = h->job.regions[i];
        table[k++].offset += h->job_offset;
    }
    uint64_t folded = 0;
    for (int r = 0; r < job->nprocs; r++) {
        for (uint32_t i = 0; i < all[r].nregions; i++)
            table[k++].offset += offsets[r];
        folded += all[r].folded_opens + all[r].folded_files; /* stat-only folds too */
    }
    iolens_log_header_build((struct iolens_file_header *)h->bytes,
                            folded > 0 ? IOLENS_FLAG_PARTIAL : 0, table, h->nregions);
}

/* Every rank's region descriptors to rank 0, into the table after the
 * job-wide ones, in rank order.  lay_out kept the table within IOLENS_MAX_REGIONS descriptors
 * (160 MiB), so byte counts and displacements fit an int. */
static void gather_regions(const struct iolens_mpi_job *job, const struct rank_summary *all,
                           const struct part *mine, struct head *h)
{
    const int size = (int)sizeof(struct iolens_region_desc);
    int *counts = NULL, *displs = NULL;
    void *table = NULL;
    if (job->rank == 0) {
        counts = iolens_mpi_must_alloc((size_t)job->nprocs * sizeof *counts);
        displs = iolens_mpi_must_alloc((size_t)job->nprocs * sizeof *displs);
        int at = 0;
        for (int r = 0; r < job->nprocs; r++) {
            counts[r] = (int)all[r].nregions * size;
            displs[r] = at;
            at += counts[r];
        }
        table = region_table(h) + h->job.nregions;
    }
    iolens_coll_gatherv(mine->regions, (int)mine->nregions * size, MPI_BYTE, table, counts,
                              displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(counts);
    free(displs);
}

/* Creates the temporary file and writes rank 0's part and the job-wide
 * regions; the header waits until every rank has written. */
static int create_file(struct plan *plan, const struct part *mine, uint64_t offset,
                       struct head *h)
{
    h->fd = iolens_log_place_temp(&h->place, h->tmp_name, sizeof h->tmp_name);
    if (h->fd < 0)
        return errno;
    /* The other ranks, maybe on other nodes, open it by its path. */
    iolens_log_place_path(&h->place, h->tmp_name, plan->tmp, sizeof plan->tmp);
    int code = pwrite_all(h->fd, mine->data, mine->len, offset);
    if (code == 0 && h->job.nregions > 0)
        code = pwrite_all(h->fd, h->job.data, h->job.len, h->job_offset);
    return code;
}

/* Rank 0, after the Gather: is there a log to write, where, and where
 * each rank's bytes go. */
static void make_plan(const struct iolens_mpi_job *job, const struct rank_summary *all,
                      const struct part *mine, struct plan *plan, uint64_t *offsets,
                      struct head *h)
{
    for (int r = 0; r < job->nprocs && plan->code == 0; r++)
        if (all[r].error != 0) {
            plan->code = all[r].error;
            plan->failed_rank = r;
        }
    int code = choose_path(job, h); /* the path is needed for a message too */
    if (plan->code == 0)
        plan->code = code;
    if (plan->code == 0)
        plan->code = build_job_part(job, all, &h->job);
    if (plan->code == 0)
        plan->code = lay_out(job, all, offsets, h);
    if (plan->code == 0)
        plan->code = create_file(plan, mine, offsets[0], h);
}

/* Rank 0, once every rank's outcome is known (code, failed_rank): the
 * header and the rename, or the clean-up and the one line. */
static int finish(struct head *h, int code, int failed_rank)
{
    if (code == 0 && h->fd >= 0) {
        code = pwrite_all(h->fd, h->bytes, h->len, 0);
        if (code == 0 && fchmod(h->fd, (mode_t)iolens_log_mode()) != 0)
            code = errno;
    }
    if (h->fd >= 0 && IOLENS_REAL(close)(h->fd) != 0 && code == 0)
        code = errno;
    int rc = 0;
    if (code == 0) {
        rc = iolens_log_place_publish(&h->place, h->tmp_name, h->path, sizeof h->path, h->reason,
                                      sizeof h->reason);
        failed_rank = 0;
    } else {
        rc = -1;
        if (failed_rank != 0 || h->reason[0] == '\0')
            snprintf(h->reason, sizeof h->reason, "%s", strerror(code));
    }
    if (rc != 0) {
        if (h->fd >= 0)
            iolens_log_place_discard(&h->place, h->tmp_name);
        iolens_log_report_failure(h->path, h->reason, failed_rank);
    }
    iolens_log_place_close(&h->place);
    return rc;
}

/* ------------------------------------------------------------- entry -- */

int iolens_mpi_log_write(const struct iolens_mpi_job *job, const struct iolens_record_set *recs,
                         const struct iolens_site_list *sites)
{
    MPI_Comm world = MPI_COMM_WORLD;
    struct sigaction saved_sigxfsz;
    iolens_log_quiet_sigxfsz(&saved_sigxfsz);
    struct part mine = {0};
    int error = job->error != 0 ? job->error : build_rank_part(job, recs, sites, &mine);

    struct rank_summary s, *all = NULL;
    summarize(job, &mine, error, &s);
    if (job->rank == 0)
        all = iolens_mpi_must_alloc((size_t)job->nprocs * sizeof *all);
    iolens_coll_gather(&s, (int)sizeof s, MPI_BYTE, all, (int)sizeof s, MPI_BYTE, 0, world);

    size_t plansz = sizeof(struct plan) + (size_t)job->nprocs * sizeof(uint64_t);
    unsigned char *planbuf = iolens_mpi_must_alloc(plansz);
    memset(planbuf, 0, plansz);
    struct plan *plan = (struct plan *)planbuf;
    uint64_t *offsets = (uint64_t *)(planbuf + sizeof *plan);
    struct head h = {.fd = -1, .place = {.dirfd = -1}};
    if (job->rank == 0)
        make_plan(job, all, &mine, plan, offsets, &h);
    iolens_coll_bcast(planbuf, (int)plansz, MPI_BYTE, 0, world);

    int rc = -1;
    if (plan->code == 0) {
        gather_regions(job, all, &mine, &h);
        if (job->rank == 0)
            finish_table(job, all, offsets, &h);
        struct { int code, rank; } local = {0, job->rank}, agreed;
        if (job->rank != 0)
            local.code = write_part(plan->tmp, &mine, offsets[job->rank]);
        iolens_coll_allreduce(&local, &agreed, 1, MPI_2INT, MPI_MAXLOC, world);
        if (job->rank == 0)
            rc = finish(&h, agreed.code, agreed.rank);
        else
            rc = agreed.code == 0 ? 0 : -1;
    } else if (job->rank == 0) {
        rc = finish(&h, plan->code, plan->failed_rank);
    }

    part_free(&mine);
    part_free(&h.job);
    free(h.bytes);
    free(planbuf);
    free(all);
    iolens_log_restore_sigxfsz(&saved_sigxfsz);
    return rc;
}
