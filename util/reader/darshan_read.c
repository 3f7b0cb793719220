/*
 * Reading a Darshan 3.x log (layout in darshan.h) into a struct iolens_log,
 * so that every analysis reads it as it reads an iolens log.
 *
 * Order of checks, nothing trusted before it is checked:
 *   1. magic, log format version (3.21 and 3.41 layouts), header size,
 *      compression type;
 *   2. every region of the map lies inside the file (an overflowing
 *      offset + length is damage too);
 *   3. each part inflates within what is left of the size limit
 *      (reader.h), then is parsed with bounds checks: the job record's
 *      size, names NUL-terminated, module regions whole records, ranks
 *      ranks of the job, DXT counts within their region.
 * Modules this reader does not know, or knows at another record version,
 * are skipped and named in log->skipped_modules.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/darshan.h"

static const char *const mods_341[] = {
    "NULL", "POSIX", "MPI-IO", "H5F", "H5D", "PNETCDF_FILE", "PNETCDF_VAR", "BG/Q", "LUSTRE",
    "STDIO", "DXT_POSIX", "DXT_MPIIO", "MDHIM", "APXC", "APMPI", "HEATMAP", "DFS", "DAOS",
};
static const char *const mods_321[] = {
    "NULL", "POSIX", "MPI-IO", "H5F", "H5D", "PNETCDF", "BG/Q", "LUSTRE", "STDIO",
    "DXT_POSIX", "DXT_MPIIO", "MDHIM", "APXC", "APMPI", "HEATMAP",
};
#define NAMED(a) (unsigned)(sizeof a / sizeof a[0])

static const struct dn_layout layouts[] = {
    {"3.41", 1328, 24, 8, 32, 64, mods_341, true},
    {"3.21", 360, 20, 4, 24, 16, mods_321, false},
};

/* The named modules of a layout (the rest are "module N"). */
static unsigned named_mods(const struct dn_layout *l)
{
    return l->mod_names == mods_341 ? NAMED(mods_341) : NAMED(mods_321);
}

/* Largest nprocs accepted: a sanity bound far above any real job. */
#define DN_MAX_NPROCS (1u << 24)
/* DXT record versions read: segments of 40 bytes. */
#define DN_DXT_VERSION 2u

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

bool dn_is_darshan(const unsigned char *data, size_t size)
{
    if (size < 16 || data[0] != '3' || data[1] != '.')
        return false;
    int64_t magic;
    memcpy(&magic, data + 8, 8);
    return magic == DN_MAGIC || magic == (int64_t)__builtin_bswap64(DN_MAGIC);
}

/* What a part of the log decompresses into, with the size limit shared
 * by all of them. */
struct dn_ctx {
    struct reader *r;
    const struct dn_layout *layout;
    int comp;
    uint64_t left;              /* decompressed bytes still allowed */
};

static enum iolens_read_status inflate_part(struct dn_ctx *c, uint64_t off, uint64_t len,
                                            const char *what, unsigned char **out, size_t *n)
{
    size_t limit = c->left > SIZE_MAX - 1 ? SIZE_MAX - 1 : (size_t)c->left;
    enum iolens_read_status st =
        dn_inflate(c->r, c->comp, c->r->data + off, (size_t)len, limit, what, out, n);
    if (st == IOLENS_READ_OK)
        c->left -= *n;
    return st;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static bool set_jobstr(struct iolens_log *log, int i, const char *s, size_t n)
{
    free(log->jobstr[i]);
    log->jobstr[i] = dup_n(s, n);
    log->jobstr_len[i] = n;
    return log->jobstr[i] != NULL;
}

/* The value of key in the "key=value\n" metadata, or NULL; *n its length. */
static const char *metadata_value(const char *md, const char *key, size_t *n)
{
    size_t klen = strlen(key);
    for (const char *line = md; *line != '\0';) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (len > klen && memcmp(line, key, klen) == 0 && line[klen] == '=') {
            *n = len - klen - 1;
            return line + klen + 1;
        }
        line += len + (eol ? 1 : 0);
    }
    return NULL;
}

/* "fstype\tmount point" lines into log->mounts. */
static enum iolens_read_status parse_mounts(struct reader *r, const char *s, size_t len)
{
    struct iolens_log *log = r->log;
    size_t cap = 0;
    for (size_t at = 0; at < len;) {
        const char *line = s + at;
        const char *eol = memchr(line, '\n', len - at);
        size_t n = eol ? (size_t)(eol - line) : len - at;
        at += n + 1;
        const char *tab = memchr(line, '\t', n);
        if (tab == NULL)
            continue;   /* not a mount line: nothing to read from it */
        if (!rd_grow((void **)&log->mounts, &cap, log->nmounts + 1, sizeof *log->mounts))
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        struct iolens_log_mount *m = &log->mounts[log->nmounts];
        m->fstype = dup_n(line, (size_t)(tab - line));
        m->point = dup_n(tab + 1, n - (size_t)(tab - line) - 1);
        m->block_size = 0;   /* not in a Darshan log */
        log->nmounts++;
        if (m->fstype == NULL || m->point == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    }
    return IOLENS_READ_OK;
}

/* The job record: fixed part, metadata, command line, mounts. */
static enum iolens_read_status parse_job(struct dn_ctx *c, const unsigned char *raw, size_t len)
{
    struct reader *r = c->r;
    struct iolens_log *log = r->log;
    size_t fixed = c->layout->job_nsec ? 56 : 40, mdlen = 1024;
    if (len < fixed + mdlen)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: the job record has %zu "
                       "bytes, fewer than %zu", len, fixed + mdlen);
    int64_t v[7];
    memcpy(v, raw, fixed);
    struct iolens_job_fixed *j = &log->job;
    j->uid = (uint64_t)v[0];
    int64_t nprocs, jobid;
    if (c->layout->job_nsec) {
        j->start_time_sec = v[1];
        j->start_time_nsec = v[2];
        j->end_time_sec = v[3];
        j->end_time_nsec = v[4];
        nprocs = v[5];
        jobid = v[6];
        j->run_time = (double)(v[3] - v[1]) + (double)(v[4] - v[2]) / 1e9;
    } else {
        j->start_time_sec = v[1];
        j->end_time_sec = v[2];
        nprocs = v[3];
        jobid = v[4];
        j->run_time = (double)(v[2] - v[1]) + 1.0;   /* whole seconds, as darshan-parser */
    }
    if (nprocs < 1 || nprocs > (int64_t)DN_MAX_NPROCS)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: nprocs %lld",
                       (long long)nprocs);
    j->nprocs = (uint32_t)nprocs;
    j->nnodes = 0;   /* not in a Darshan log: DXT host names may give it */
    char md[1025];
    memcpy(md, raw + fixed, mdlen);
    md[mdlen] = '\0';
    size_t n = 0;
    const char *lib = metadata_value(md, "lib_ver", &n);
    char id[32];
    int idn = snprintf(id, sizeof id, "%" PRId64, jobid);
    const char *rest = (const char *)raw + fixed + mdlen;
    size_t restlen = strnlen(rest, len - fixed - mdlen);
    const char *nl = memchr(rest, '\n', restlen);
    size_t exelen = nl ? (size_t)(nl - rest) : restlen;
    while (exelen > 0 && rest[exelen - 1] == ' ')
        exelen--;   /* Darshan ends the command line with a space */
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        if (!set_jobstr(log, i, "", 0))
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    if (!set_jobstr(log, IOLENS_JOBSTR_JOBID, id, (size_t)idn) ||
        !set_jobstr(log, IOLENS_JOBSTR_EXE, rest, exelen) ||
        (lib && !set_jobstr(log, IOLENS_JOBSTR_VERSION, lib, n)))
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    if (nl == NULL)
        return IOLENS_READ_OK;
    return parse_mounts(r, nl + 1, restlen - (size_t)(nl + 1 - rest));
}

/* Name records: id, NUL-terminated path, back to back. */
static enum iolens_read_status parse_names(struct reader *r, const unsigned char *raw, size_t len)
{
    struct iolens_log *log = r->log;
    size_t cap = 0;
    for (size_t at = 0; at < len;) {
        if (len - at < 9)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: a name record is cut short");
        const char *s = (const char *)raw + at + 8;
        size_t n = strnlen(s, len - at - 8);
        if (n == len - at - 8)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: a name is not terminated");
        if (!rd_grow((void **)&log->names, &cap, log->nnames + 1, sizeof *log->names))
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        log->names[log->nnames].id = get_u64(raw + at);
        if ((log->names[log->nnames].name = dup_n(s, n)) == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        log->nnames++;
        at += 8 + n + 1;
    }
    if (log->nnames > 1)
        qsort(log->names, log->nnames, sizeof *log->names, rd_compare_names);
    /* Ranks may each name a file: the same name twice is one name. */
    size_t kept = 0, total = log->nnames;
    for (size_t i = 0; i < total; i++) {
        if (kept > 0 && log->names[kept - 1].id == log->names[i].id) {
            bool same = strcmp(log->names[kept - 1].name, log->names[i].name) == 0;
            free(log->names[i].name);
            if (!same) {
                for (size_t k = i + 1; k < total; k++)
                    free(log->names[k].name);
                log->nnames = kept;
                return rd_name_twice(r, log->names[kept - 1].id);
            }
            continue;
        }
        log->names[kept++] = log->names[i];
    }
    log->nnames = kept;
    return IOLENS_READ_OK;
}

/* Appends a module's name to the skipped ones. */
static enum iolens_read_status skip_module(struct reader *r, const char *name, uint32_t ver)
{
    struct iolens_log *log = r->log;
    char item[64];
    int n = snprintf(item, sizeof item, "%s(version %u)", name, (unsigned)ver);
    size_t have = log->skipped_modules ? strlen(log->skipped_modules) : 0;
    char *grown = realloc(log->skipped_modules, have + (size_t)n + 2);
    if (grown == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    if (have > 0)
        grown[have++] = ' ';
    memcpy(grown + have, item, (size_t)n + 1);
    log->skipped_modules = grown;
    log->unknown_regions++;
    return IOLENS_READ_OK;
}

static enum iolens_read_status read_module(struct dn_ctx *c, unsigned id, uint64_t off,
                                           uint64_t len, uint32_t ver)
{
    const struct dn_layout *l = c->layout;
    char label[32];
    const char *name = id < named_mods(l) ? l->mod_names[id] : label;
    snprintf(label, sizeof label, "module %u", id);
    uint32_t dxt_kind = strcmp(name, "DXT_POSIX") == 0   ? IOLENS_REGION_POSIX
                        : strcmp(name, "DXT_MPIIO") == 0 ? IOLENS_REGION_MPIIO
                                                         : 0;
    const struct dn_module *m = dn_module_find(name, ver);
    if ((dxt_kind == 0 && m == NULL) || (dxt_kind != 0 && ver != DN_DXT_VERSION))
        return skip_module(c->r, name, ver);
    unsigned char *raw = NULL;
    size_t n = 0;
    enum iolens_read_status st = inflate_part(c, off, len, name, &raw, &n);
    if (st == IOLENS_READ_OK)
        st = dxt_kind ? dn_read_dxt(c->r, dxt_kind, raw, n) : dn_read_module(c->r, m, raw, n);
    free(raw);
    return st;
}

static int compare_sets(const void *a, const void *b)
{
    const struct iolens_log_intervals *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->kind > y->kind) - (x->kind < y->kind);
}

/* Steps 1 and 2: the layout of the header, checked. */
static enum iolens_read_status check_header(struct reader *r, struct dn_ctx *c)
{
    const unsigned char *d = r->data;
    int64_t magic;
    memcpy(&magic, d + 8, 8);
    char ver[9];
    memcpy(ver, d, 8);
    ver[8] = '\0';
    for (int i = 0; i < 8; i++)
        if (ver[i] != '\0' && (ver[i] < ' ' || ver[i] > '~'))
            ver[i] = '?';
    if (magic != DN_MAGIC)
        return rd_fail(r, IOLENS_READ_VERSION, "a Darshan log written on a machine of the other "
                       "byte order: not read");
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (strcmp(ver, layouts[i].version) == 0)
            c->layout = &layouts[i];
    if (c->layout == NULL)
        return rd_fail(r, IOLENS_READ_VERSION, "Darshan log format version %s: this reader reads "
                       "3.21 and 3.41", ver);
    if (r->size < c->layout->header_size)
        return rd_fail(r, IOLENS_READ_TRUNCATED, "truncated Darshan log: %zu bytes, shorter "
                       "than its %zu-byte header", r->size, c->layout->header_size);
    c->comp = d[16];
    if (c->comp != DN_COMP_ZLIB && c->comp != DN_COMP_BZIP2 && c->comp != DN_COMP_NONE)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: compression type %d",
                       c->comp);
    /* Step 2: every mapped region inside the file. */
    for (unsigned i = 0; i <= c->layout->nmods; i++) {
        const unsigned char *m = d + c->layout->map_at + 16 * i;
        uint64_t off = get_u64(m), len = get_u64(m + 8), end;
        if (len == 0)
            continue;
        if (__builtin_add_overflow(off, len, &end) || off < c->layout->header_size ||
            end > r->size)
            return rd_fail(r, IOLENS_READ_TRUNCATED,
                           "truncated Darshan log: its %s region (%" PRIu64 " bytes at %" PRIu64
                           ") ends past the end of the file (%zu bytes)",
                           i == 0 ? "names" : "module", len, off, r->size);
    }
    return IOLENS_READ_OK;
}

/* The partial flags: a bit per module id. */
static uint64_t partial_flags(const struct reader *r, const struct dn_layout *l)
{
    if (l->partial_size == 4) {
        uint32_t v;
        memcpy(&v, r->data + l->partial_at, 4);
        return v;
    }
    return get_u64(r->data + l->partial_at);
}

/* log->partial_modules: the names of the modules flagged partial. */
static enum iolens_read_status name_partial(struct reader *r, const struct dn_layout *l)
{
    struct iolens_log *log = r->log;
    size_t cap = 64 * 24, at = 0;
    char *s = malloc(cap);
    if (s == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    s[0] = '\0';
    for (unsigned id = 0; id < 64 && id < l->partial_size * 8; id++) {
        if (!(log->source_partial >> id & 1))
            continue;
        int n = id < named_mods(l) ? snprintf(s + at, cap - at, "%s%s", at ? " " : "",
                                              l->mod_names[id])
                                   : snprintf(s + at, cap - at, "%smodule %u", at ? " " : "", id);
        if (n > 0 && (size_t)n < cap - at)
            at += (size_t)n;
    }
    log->partial_modules = s;
    return IOLENS_READ_OK;
}

static enum iolens_read_status read_parts(struct dn_ctx *c)
{
    struct reader *r = c->r;
    const struct dn_layout *l = c->layout;
    const unsigned char *map = r->data + l->map_at;
    uint64_t names_off = get_u64(map), names_len = get_u64(map + 8);
    if (names_len == 0 || names_off < l->header_size)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: no name records");
    unsigned char *raw = NULL;
    size_t n = 0;
    enum iolens_read_status st =
        inflate_part(c, l->header_size, names_off - l->header_size, "job record", &raw, &n);
    if (st == IOLENS_READ_OK)
        st = parse_job(c, raw, n);
    free(raw);
    raw = NULL;
    if (st == IOLENS_READ_OK)
        st = inflate_part(c, names_off, names_len, "name records", &raw, &n);
    if (st == IOLENS_READ_OK)
        st = parse_names(r, raw, n);
    free(raw);
    const unsigned char *vers = map + 16 * ((size_t)l->nmods + 1);
    for (unsigned id = 1; id < l->nmods && st == IOLENS_READ_OK; id++) {
        uint64_t off = get_u64(map + 16 * (id + 1)), len = get_u64(map + 16 * (id + 1) + 8);
        uint32_t ver;
        memcpy(&ver, vers + 4 * id, 4);
        if (len > 0)
            st = read_module(c, id, off, len, ver);
    }
    return st;
}

enum iolens_read_status dn_read_log(struct reader *r)
{
    struct dn_ctx c = {.r = r};
    struct iolens_log *log = r->log;
    log->source = IOLENS_SOURCE_DARSHAN;
    enum iolens_read_status st = check_header(r, &c);
    if (st != IOLENS_READ_OK)
        return st;
    snprintf(log->source_version, sizeof log->source_version, "%s", c.layout->version);
    uint64_t limit;
    if ((st = rd_current_limit(r, &limit)) != IOLENS_READ_OK)
        return st;
    c.left = limit;
    if ((st = read_parts(&c)) != IOLENS_READ_OK)
        return st;
    log->source_partial = partial_flags(r, c.layout);
    if (log->source_partial != 0) {
        log->flags |= IOLENS_FLAG_PARTIAL;
        if ((st = name_partial(r, c.layout)) != IOLENS_READ_OK)
            return st;
    }
    if (log->ninterval_sets > 1)
        qsort(log->intervals, log->ninterval_sets, sizeof *log->intervals, compare_sets);
    rd_apply_nodes(log);
    return IOLENS_READ_OK;
}
