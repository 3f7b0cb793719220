/*
 * The log reader: validates a whole log held in memory and decodes it.
 *
 * Order of checks (each failure is reported, nothing is trusted before it
 * is checked):
 *   1. size and magic, byte order, format version, header size;
 *   2. the region table fits in the file and the header CRC matches;
 *   3. every region lies inside the file and its stored-bytes CRC matches;
 *   4. each known region decompresses to exactly its raw size and is then
 *      parsed with a bounds-checked cursor that must consume it exactly;
 *      NAMES regions and the regions of one layer kind are concatenated
 *      (an MPI job writes one per rank), JOB, MOUNTS and RANKS may appear
 *      only once;
 *   5. across regions: a job region exists, no id is named twice, the
 *      ranks region has one entry per process with a valid host index, and
 *      every record's rank is a rank of the job or IOLENS_RANK_ALL.
 * Region kinds (or region versions) this reader does not know are skipped
 * after step 3 and counted in log->unknown_regions.
 *
 * Steps 1 to 3 are in reader_regions.c, the region parsers of steps 4 and
 * 5 in reader_parse.c, the size limit in reader_limit.c, the lookups in
 * reader_query.c.  This file reads a whole log through them, and holds
 * the decoder of the layer regions' byte-plane columns.
 */
#include "reader/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "reader/darshan.h"
#include "reader/reader_internal.h"

/* ---------------------------------------------------------- whole log -- */

static enum iolens_read_status read_all(struct reader *r)
{
    struct iolens_file_header h;
    enum iolens_read_status st = rd_check_header(r, &h);
    if (st != IOLENS_READ_OK)
        return st;
    r->log->version = h.version;
    r->log->flags = h.flags;

    size_t data_start = sizeof h + (size_t)h.region_count * sizeof(struct iolens_region_desc);
    /* A copy: the table in the buffer need not be aligned. */
    struct iolens_region_desc *table = malloc(((size_t)h.region_count + 1) * sizeof *table);
    if (table == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    memcpy(table, r->data + sizeof h, (size_t)h.region_count * sizeof table[0]);
    st = rd_check_log_size(r, table, h.region_count);
    /* The names blocks grow as the regions are parsed in table order:
     * a block is whole before any region that refers to it. */
    struct rd_names_blocks blocks = {0};
    r->blocks = &blocks;
    r->blocks_grow = true;

    /* All bounds and CRCs first, so a damaged file reports damage rather
     * than whatever a half-parsed region happens to say. */
    for (unsigned i = 0; i < h.region_count && st == IOLENS_READ_OK; i++)
        st = rd_check_region_bytes(r, i, &table[i], data_start);
    for (unsigned i = 0; i < h.region_count && st == IOLENS_READ_OK; i++)
        st = rd_parse_region(r, i, &table[i], r->data + table[i].offset);
    free(table);
    r->blocks = NULL;
    rd_blocks_free(&blocks);
    if (st != IOLENS_READ_OK)
        return st;
    if (!r->seen_job)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt: no job region");
    if ((st = rd_finish_names(r)) != IOLENS_READ_OK)
        return st;
    if ((st = rd_check_interval_ranks(r)) != IOLENS_READ_OK)
        return st;
    rd_index_sites(r->log);
    return rd_check_ranks(r);
}

enum iolens_read_status iolens_log_read_buffer(const void *data, size_t size,
                                               struct iolens_log *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (err != NULL && errsz > 0)
        err[0] = '\0';
    struct reader r = {.data = data, .size = size, .log = out, .err = err, .errsz = errsz};
    if (data == NULL && size > 0)
        return rd_fail(&r, IOLENS_READ_IO, "no data");
    static const unsigned char empty[1];
    if (data == NULL)
        r.data = empty;
    enum iolens_read_status st = dn_is_darshan(r.data, size) ? dn_read_log(&r) : read_all(&r);
    rd_reader_release(&r);
    if (st != IOLENS_READ_OK)
        iolens_log_free(out);
    return st;
}

/* -------------------------------------------------------------- file -- */

uint64_t rd_stored_bound(struct reader *r)
{
    uint64_t limit;
    if (rd_current_limit(r, &limit) != IOLENS_READ_OK)
        return 0;
    uint64_t slack = limit / 8 + (1u << 20);
    return limit > UINT64_MAX - slack ? UINT64_MAX : limit + slack;
}

/* The bytes that tell a log from anything else: the iolens magic, or a
 * Darshan log's version string and magic (dn_is_darshan). */
#define RD_PREFIX_LEN 16

/* Whether the first len bytes of the input (len >= RD_PREFIX_LEN) can
 * begin an iolens or a Darshan log. */
static bool could_begin_log(const unsigned char *data, size_t len)
{
    return memcmp(data, IOLENS_MAGIC, IOLENS_MAGIC_LEN) == 0 || dn_is_darshan(data, len);
}

/* Reads fd into buf until len reaches want or the input ends.  0 or an
 * errno value. */
static int read_upto(int fd, unsigned char *buf, size_t *len, size_t want)
{
    while (*len < want) {
        ssize_t n = read(fd, buf + *len, want - *len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            break;
        *len += (size_t)n;
    }
    return 0;
}

/* Reads all of fd into a malloc'd buffer.  Returns 0 or an errno value:
 * EFBIG when more than max bytes (max 0: no bound) are there: for a
 * regular file, known from its size before anything is read; for a pipe,
 * whose size nobody knows beforehand, as soon as they arrive.  Input whose
 * first bytes can begin no log (a data file, /dev/zero) is read no
 * further: *out holds those bytes, for the caller to reject, so that a
 * large file given by mistake costs neither its size in memory nor the
 * time to read it. */
int rd_slurp(int fd, uint64_t max, unsigned char **out, size_t *outsz)
{
    struct stat sb;
    bool regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    bool too_big = regular && max > 0 && (uint64_t)sb.st_size > max;
    size_t cap = 64 * 1024;
    if (too_big)
        cap = RD_PREFIX_LEN; /* refused after the prefix: allocate no more */
    else if (regular && sb.st_size > 0 && (unsigned long long)sb.st_size < SIZE_MAX / 2 &&
             (size_t)sb.st_size + 1 > cap)
        cap = (size_t)sb.st_size + 1; /* +1: reach EOF without growing */
    unsigned char *buf = malloc(cap);
    size_t len = 0;
    if (buf == NULL)
        return ENOMEM;
    int e = read_upto(fd, buf, &len, RD_PREFIX_LEN);
    if (e == 0 && len == RD_PREFIX_LEN && !could_begin_log(buf, len)) {
        *out = buf;
        *outsz = len;
        return 0;
    }
    if (e == 0 && too_big)
        e = EFBIG;
    /* A pipe is read up to one byte past max at most. */
    size_t limit = !regular && max > 0 && max < SIZE_MAX ? (size_t)max + 1 : SIZE_MAX;
    if (e == 0)
        e = read_upto(fd, buf, &len, cap < limit ? cap : limit);
    while (e == 0 && len == cap && len < limit) { /* full: more may come */
        unsigned char *grown = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (grown == NULL) {
            e = cap > SIZE_MAX / 2 ? EFBIG : ENOMEM;
            break;
        }
        buf = grown;
        cap *= 2;
        e = read_upto(fd, buf, &len, cap < limit ? cap : limit);
    }
    if (e == 0 && len >= limit)
        e = EFBIG;
    if (e != 0) {
        free(buf);
        return e;
    }
    *out = buf;
    *outsz = len;
    return 0;
}

enum iolens_read_status iolens_log_read(const char *path, struct iolens_log *out, char *err,
                                        size_t errsz)
{
    memset(out, 0, sizeof *out);
    struct reader lr = {.err = err, .errsz = errsz};
    uint64_t max = rd_stored_bound(&lr);
    if (max == 0)
        return IOLENS_READ_IO;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int e = 0;
    unsigned char *buf = NULL;
    size_t size = 0;
    struct stat sb;
    bool regular = false;
    if (fd < 0) {
        e = errno;
    } else {
        regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
        e = rd_slurp(fd, max, &buf, &size);
        close(fd);
    }
    if (e == EFBIG && regular) {
        rd_fail(&lr, IOLENS_READ_NOMEM, "%llu bytes, more than a log within the limit can hold "
                "(IOLENS_MAX_LOG_SIZE)", (unsigned long long)sb.st_size);
        return IOLENS_READ_NOMEM;
    }
    if (e == EFBIG) {
        rd_fail(&lr, IOLENS_READ_NOMEM, "more than %llu bytes arrived, more than a log within "
                "the limit can hold (IOLENS_MAX_LOG_SIZE)", (unsigned long long)max);
        return IOLENS_READ_NOMEM;
    }
    if (e != 0) {
        if (err != NULL && errsz > 0)
            snprintf(err, errsz, "%s", strerror(e));
        return e == ENOMEM ? IOLENS_READ_NOMEM : IOLENS_READ_IO;
    }
    enum iolens_read_status st = iolens_log_read_buffer(buf, size, out, err, errsz);
    free(buf);
    return st;
}

void iolens_log_free(struct iolens_log *log)
{
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        free(log->jobstr[i]);
    for (size_t i = 0; i < log->nmounts; i++) {
        free(log->mounts[i].point);
        free(log->mounts[i].fstype);
    }
    free(log->mounts);
    for (size_t i = 0; i < log->nnames; i++)
        free(log->names[i].name);
    free(log->names);
    for (size_t i = 0; i < log->nlayers; i++) {
        free(log->layers[i].id);
        free(log->layers[i].rank);
        free(log->layers[i].counters);
        free(log->layers[i].fcounters);
        free(log->layers[i].absent);
        free(log->layers[i].zero);
        free((void *)log->layers[i].extra_names);   /* fextra_names is its tail */
        free(log->layers[i].extra);
        free(log->layers[i].fextra);
    }
    free(log->layers);
    for (size_t i = 0; i < log->ninterval_sets; i++)
        rd_free_interval_set(&log->intervals[i]);
    free(log->intervals);
    free(log->ranks);
    for (size_t i = 0; i < log->nsite_modules; i++)
        free(log->site_modules[i].path);
    free(log->site_modules);
    free(log->sites);
    free(log->skipped_modules);
    free(log->partial_modules);
    memset(log, 0, sizeof *log);
}

void rd_reader_release(struct reader *r)
{
    free(r->raw);
    r->raw = NULL;
    r->raw_cap = 0;
}

void rd_clear_scratch(struct iolens_log *log)
{
    for (size_t i = 0; i < log->nnames; i++)
        free(log->names[i].name);
    log->nnames = 0;
    for (size_t l = 0; l < log->nlayers; l++)
        log->layers[l].record_count = 0;
}

bool iolens_log_file_is_darshan(const char *path)
{
    unsigned char head[16];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    /* Only a regular file: reading a pipe would take its bytes away. */
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return false;
    }
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    return n == (ssize_t)sizeof head && dn_is_darshan(head, sizeof head);
}

const char *iolens_log_source_label(const struct iolens_log *log, char *buf, size_t size)
{
    if (log->source == IOLENS_SOURCE_DARSHAN)
        snprintf(buf, size, "darshan %s", log->source_version);
    else
        snprintf(buf, size, "iolens %u", (unsigned)log->version);
    return buf;
}
