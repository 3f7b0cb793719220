/* A Darshan DXT region (darshan.h) as the access intervals of an iolens
 * log: one interval per traced read or write segment, per rank and layer,
 * sorted by start, so the BPS figures come out of it as out of an iolens
 * log.  Darshan's segment times are seconds since the job start, so the
 * clock offsets are 0.  The host names of the records give the job's
 * hosts (a Darshan log has no node count of its own). */
#include <stdlib.h>
#include <string.h>

#include "reader/darshan.h"

#define DXT_HEAD 104        /* id, rank, shared flag, host[64], write and read counts */
#define DXT_HOST_AT 24
#define DXT_HOST_LEN 64
#define DXT_SEGMENT 40      /* offset, length, start, end, thread id */

/* The set of (rank, kind), created empty if new; NULL: out of memory. */
static struct iolens_log_intervals *set_of(struct iolens_log *log, int64_t rank, uint32_t kind)
{
    for (size_t i = 0; i < log->ninterval_sets; i++)
        if (log->intervals[i].rank == rank && log->intervals[i].kind == kind)
            return &log->intervals[i];
    struct iolens_log_intervals *grown =
        realloc(log->intervals, (log->ninterval_sets + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    log->intervals = grown;
    struct iolens_log_intervals *s = &log->intervals[log->ninterval_sets++];
    memset(s, 0, sizeof *s);
    s->rank = rank;
    s->kind = kind;
    return s;
}

static bool grow_set(struct iolens_log_intervals *s, uint64_t more)
{
    uint64_t n = s->count + more;
    size_t nn = n ? (size_t)n : 1;
#define GROW(field)                                                     \
    do {                                                                \
        void *p = realloc(s->field, nn * sizeof *s->field);             \
        if (p == NULL)                                                  \
            return false;                                               \
        s->field = p;                                                   \
    } while (0)
    GROW(start);
    GROW(end);
    GROW(busy);
    GROW(bytes);
    GROW(file_id);
    GROW(accesses);
    GROW(flags);
#undef GROW
    return true;
}

/* Adds host (not NUL-terminated beyond len) to the job's host list if new. */
static bool add_host(struct iolens_log *log, const char *host, size_t len)
{
    char *list = log->jobstr[IOLENS_JOBSTR_HOSTS];
    size_t have = log->jobstr_len[IOLENS_JOBSTR_HOSTS];
    for (size_t at = 0; list != NULL && at < have;) {
        size_t n = strnlen(list + at, have - at);
        if (n == len && memcmp(list + at, host, len) == 0)
            return true;
        at += n + 1;
    }
    size_t sep = have > 0 ? 1 : 0;
    char *grown = realloc(list, have + sep + len + 1);
    if (grown == NULL)
        return false;
    if (sep)
        grown[have] = '\0';
    memcpy(grown + have + sep, host, len);
    grown[have + sep + len] = '\0';
    log->jobstr[IOLENS_JOBSTR_HOSTS] = grown;
    log->jobstr_len[IOLENS_JOBSTR_HOSTS] = have + sep + len;
    log->job.nnodes++;
    return true;
}

/* The segments of one record into its set; false: a bad segment, with
 * the reason in r (or out of memory). */
static enum iolens_read_status add_segments(struct reader *r, struct iolens_log_intervals *s,
                                            uint64_t id, const unsigned char *p, uint64_t writes,
                                            uint64_t total)
{
    if (!grow_set(s, total))
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    for (uint64_t i = 0; i < total; i++, p += DXT_SEGMENT) {
        int64_t length = get_i64(p + 8);
        double start = get_f64(p + 16), end = get_f64(p + 24);
        if (length < 0 || !(start >= 0) || !(end >= start) || end > 1e12)
            return rd_fail(r, IOLENS_READ_CORRUPT,
                           "corrupt Darshan log: a DXT segment has length %lld, start %g, end %g",
                           (long long)length, start, end);
        uint64_t k = s->count++;
        s->start[k] = start;
        s->end[k] = end;
        s->busy[k] = end - start;
        s->bytes[k] = length;
        s->file_id[k] = id;
        s->accesses[k] = 1;
        s->flags[k] = i < writes ? IOLENS_IV_WRITE : IOLENS_IV_READ;
        s->total_accesses++;
        s->total_bytes += length;
        s->sum_duration += end - start;
    }
    return IOLENS_READ_OK;
}

/* Sorts a set by start (a permutation applied to every column) and sets
 * its overlap: the sum of the durations minus their union. */
static bool finish_set(struct iolens_log_intervals *s)
{
    uint64_t n = s->count;
    uint64_t *order = malloc((n ? n : 1) * sizeof *order);
    double *tmp = malloc((n ? n : 1) * 8);
    if (order == NULL || tmp == NULL) {
        free(order);
        free(tmp);
        return false;
    }
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    /* A bottom-up merge sort of the indexes by start: n log n, stable. */
    for (uint64_t width = 1; width < n; width *= 2) {
        uint64_t *out = (uint64_t *)tmp;
        for (uint64_t lo = 0; lo < n; lo += 2 * width) {
            uint64_t mid = lo + width < n ? lo + width : n;
            uint64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint64_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                out[k++] = s->start[order[b]] < s->start[order[a]] ? order[b++] : order[a++];
            while (a < mid)
                out[k++] = order[a++];
            while (b < hi)
                out[k++] = order[b++];
        }
        memcpy(order, out, n * sizeof *order);
    }
#define PERMUTE(field, type)                                            \
    do {                                                                \
        type *t = (type *)tmp;                                          \
        for (uint64_t i = 0; i < n; i++)                                \
            t[i] = s->field[order[i]];                                  \
        memcpy(s->field, t, n * sizeof *t);                             \
    } while (0)
    PERMUTE(start, double);
    PERMUTE(end, double);
    PERMUTE(busy, double);
    PERMUTE(bytes, int64_t);
    PERMUTE(file_id, uint64_t);
    PERMUTE(accesses, uint32_t);
    PERMUTE(flags, uint32_t);
#undef PERMUTE
    free(order);
    free(tmp);
    double covered = 0, reach = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (s->end[i] <= reach)
            continue;
        covered += s->end[i] - (s->start[i] > reach ? s->start[i] : reach);
        reach = s->end[i];
    }
    s->overlap = s->sum_duration > covered ? s->sum_duration - covered : 0;
    return true;
}

enum iolens_read_status dn_read_dxt(struct reader *r, uint32_t kind, const unsigned char *raw,
                                    size_t len)
{
    struct iolens_log *log = r->log;
    size_t at = 0;
    while (at < len) {
        if (len - at < DXT_HEAD)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt Darshan log: a DXT record is cut short");
        const unsigned char *p = raw + at;
        uint64_t id = (uint64_t)get_i64(p);
        int64_t rank = get_i64(p + 8);
        int64_t writes = get_i64(p + 88), reads = get_i64(p + 96);
        size_t room = (len - at - DXT_HEAD) / DXT_SEGMENT;
        if (rank < 0 || rank >= (int64_t)log->job.nprocs || writes < 0 || reads < 0 ||
            (uint64_t)writes > room || (uint64_t)reads > room - (uint64_t)writes)
            return rd_fail(r, IOLENS_READ_CORRUPT,
                           "corrupt Darshan log: a DXT record has rank %lld, %lld writes and "
                           "%lld reads, more than its region holds or not a rank of the job",
                           (long long)rank, (long long)writes, (long long)reads);
        const char *host = (const char *)p + DXT_HOST_AT;
        size_t hlen = strnlen(host, DXT_HOST_LEN);
        if (hlen > 0 && !add_host(log, host, hlen))
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        struct iolens_log_intervals *s = set_of(log, rank, kind);
        if (s == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        uint64_t total = (uint64_t)writes + (uint64_t)reads;
        enum iolens_read_status st = add_segments(r, s, id, p + DXT_HEAD, (uint64_t)writes, total);
        if (st != IOLENS_READ_OK)
            return st;
        at += DXT_HEAD + (size_t)total * DXT_SEGMENT;
    }
    for (size_t i = 0; i < log->ninterval_sets; i++)
        if (log->intervals[i].kind == kind && !finish_set(&log->intervals[i]))
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    return IOLENS_READ_OK;
}
