/* The region parsers (step 4 of reader.c, after inflating): each known
 * region kind read with a bounds-checked cursor into the log, and the
 * checks across regions of step 5 (names, ranks, intervals). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/path_hash.h"
#include "format/record_merge.h"
#include "format/column_codec.h"
#include "reader/reader_internal.h"

/* ------------------------------------------------ column decoder -- */

/* Records decoded a block at a time: a column's values of a block are
 * gathered plane by plane (a loop the compiler vectorizes), then stored. */
#define DECODE_BLOCK 512

static int64_t unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

static double ticks_seconds(int64_t k)
{
    return (double)k / IOLENS_TICKS_PER_SECOND;
}

/* The ids of m records from column 0's values v (checked). */
static void decode_ids(const struct column_codes *cc, const uint64_t *v, size_t m, uint64_t *dst)
{
    if (cc->codes != NULL && cc->codes[0] == IOLENS_COL_NAME_PLACE)
        for (size_t i = 0; i < m; i++)
            dst[i] = cc->places[v[i]];
    else
        memcpy(dst, v, m * sizeof *v);
}

/* Ticks of a decoded time: exact for a column in ticks (or from refs);
 * 0 for a value no column in ticks holds (damage: the record then
 * decodes to garbage, never to undefined behaviour). */
static int64_t seconds_ticks(double t)
{
    double x = t * IOLENS_TICKS_PER_SECOND;
    return x > -4611686018427387904.0 && x < 4611686018427387904.0 ? (int64_t)x : 0;
}

/* Seconds from the stored value v of an fcounter of code code; f: the
 * record's fcounters decoded so far (its refs among them). */
static double decode_time(unsigned code, uint64_t v, const double *f, const int *refs, int nrefs)
{
    double t;
    if (code == IOLENS_COL_TICKS)
        return ticks_seconds(unzigzag(v));
    if (code == IOLENS_COL_TICKS_FROM_REF) {
        if (v == 0)
            return 0.0;
        uint64_t k = (uint64_t)unzigzag(v - 1); /* wraps, not overflows, on damage */
        for (int i = 0; i < nrefs; i++)
            k += (uint64_t)seconds_ticks(f[refs[i]]);
        return ticks_seconds((int64_t)k);
    }
    memcpy(&t, &v, sizeof t);
    return t;
}

/* The code of column k (every column raw in version 2). */
static unsigned code_of(const struct column_codes *codes, size_t k)
{
    return codes->codes != NULL ? codes->codes[k] : IOLENS_COL_RAW;
}

/* Whether any of the columns [from, from + k) is IOLENS_COL_ZERO. */
static bool any_zero(const struct column_codes *codes, size_t from, size_t k)
{
    if (codes->codes == NULL)
        return false;
    for (size_t i = 0; i < k; i++)
        if (codes->codes[from + i] == IOLENS_COL_ZERO)
            return true;
    return false;
}

/* Records [from, from + count) of the n of a column-major, byte-shuffled
 * body (layout in log_format.h; its size and codes were checked against
 * the region) decoded into L from record first on.  A column of
 * IOLENS_COL_ZERO takes no bytes of the body. */
static void decode_range(const unsigned char *body, uint64_t n, uint64_t from, uint64_t count,
                         const struct column_codes *codes, struct iolens_log_layer *L,
                         uint64_t first)
{
    size_t cc = L->counter_count, fc = L->fcounter_count;
    uint64_t v[DECODE_BLOCK];
    /* Columns of zeros: the block's rows are cleared whole (contiguous,
     * 0 and +0.0 both all zero bytes), then only the stored columns are
     * written; cheaper than a strided store for each zero value. */
    bool zero_counters = any_zero(codes, 2, cc), zero_fcounters = any_zero(codes, 2 + cc, fc);
    for (uint64_t done = 0; done < count; done += DECODE_BLOCK) {
        uint64_t i0 = from + done, at = first + done;
        size_t m = count - done < DECODE_BLOCK ? (size_t)(count - done) : DECODE_BLOCK;
        const unsigned char *col = body;
        iolens_column_decode_block(col, n, i0, m, v);
        decode_ids(codes, v, m, &L->id[at]);
        col += 8 * n;
        if (code_of(codes, 1) == IOLENS_COL_ZERO) {
            memset(&L->rank[at], 0, m * sizeof *L->rank);
        } else {
            iolens_column_decode_block(col, n, i0, m, v);
            memcpy(&L->rank[at], v, m * sizeof *v);
            col += 8 * n;
        }
        if (zero_counters)
            memset(&L->counters[at * cc], 0, m * cc * sizeof *L->counters);
        if (zero_fcounters)
            memset(&L->fcounters[at * fc], 0, m * fc * sizeof *L->fcounters);
        for (size_t k = 0; k < cc; k++) {
            if (code_of(codes, 2 + k) == IOLENS_COL_ZERO)
                continue;
            iolens_column_decode_strided(col, n, i0, m, &L->counters[at * cc + k], 8 * cc);
            col += 8 * n;
        }
        for (size_t k = 0; k < fc; k++) {
            double *dst = &L->fcounters[at * fc + k];
            unsigned code = code_of(codes, 2 + cc + k);
            if (code == IOLENS_COL_ZERO)
                continue;
            const unsigned char *here = col;
            col += 8 * n;
            if (code == IOLENS_COL_RAW) {
                iolens_column_decode_strided(here, n, i0, m, dst, 8 * fc);
                continue;
            }
            int refs[3], nrefs = 0;
            if (code == IOLENS_COL_TICKS_FROM_REF)
                nrefs = iolens_fcounter_time_refs(codes->desc, (uint32_t)k, refs);
            iolens_column_decode_block(here, n, i0, m, v);
            for (size_t i = 0; i < m; i++)
                dst[i * fc] = decode_time(code, v[i], dst + i * fc - k, refs, nrefs);
        }
    }
}

/* ------------------------------------------------------------ cursor -- */

static bool take(struct cursor *c, void *out, size_t n)
{
    if (c->left < n) {
        c->left = 0;
        return false;
    }
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
    return true;
}

static bool take_u32(struct cursor *c, uint32_t *v) { return take(c, v, sizeof *v); }
static bool take_u64(struct cursor *c, uint64_t *v) { return take(c, v, sizeof *v); }

/* A uint32 length followed by that many bytes, copied into a new
 * NUL-terminated string.  allow_nul: the string is a NUL-separated list;
 * otherwise an embedded NUL makes it corrupt. */
static enum iolens_read_status take_string(struct cursor *c, bool allow_nul, char **out,
                                           size_t *len_out)
{
    uint32_t len;
    if (!take_u32(c, &len) || len > c->left)
        return IOLENS_READ_CORRUPT;
    if (!allow_nul && memchr(c->p, '\0', len) != NULL)
        return IOLENS_READ_CORRUPT;
    char *s = malloc((size_t)len + 1);
    if (s == NULL)
        return IOLENS_READ_NOMEM;
    memcpy(s, c->p, len);
    s[len] = '\0';
    c->p += len;
    c->left -= len;
    *out = s;
    if (len_out != NULL)
        *len_out = len;
    return IOLENS_READ_OK;
}

static bool skip_string(struct cursor *c)
{
    uint32_t len;
    if (!take_u32(c, &len) || len > c->left)
        return false;
    c->p += len;
    c->left -= len;
    return true;
}

/* ------------------------------------------------------- job region -- */

static enum iolens_read_status parse_job(struct reader *r, struct cursor *c)
{
    struct iolens_log *log = r->log;
    if (!take(c, &log->job, sizeof log->job))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt job region: shorter than its fixed part");
    if (log->job.nprocs == 0)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt job region: no processes");
    if (log->job.string_count < IOLENS_JOB_NSTRINGS_MIN)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt job region: %llu strings, %d expected",
                    (unsigned long long)log->job.string_count, IOLENS_JOB_NSTRINGS_MIN);
    int known = log->job.string_count < IOLENS_JOB_NSTRINGS ? (int)log->job.string_count
                                                            : IOLENS_JOB_NSTRINGS;
    for (int i = 0; i < known; i++) {
        bool list = i == IOLENS_JOBSTR_ARGS || i == IOLENS_JOBSTR_HOSTS || i == IOLENS_JOBSTR_EXES;
        enum iolens_read_status st = take_string(c, list, &log->jobstr[i], &log->jobstr_len[i]);
        if (st == IOLENS_READ_NOMEM)
            return rd_fail(r, st, "out of memory");
        if (st != IOLENS_READ_OK)
            return rd_fail(r, st, "corrupt job region: bad string %d", i);
    }
    /* Before the executables list every rank ran the executable. */
    if (known <= IOLENS_JOBSTR_EXES) {
        size_t len = log->jobstr_len[IOLENS_JOBSTR_EXE];
        log->jobstr[IOLENS_JOBSTR_EXES] = malloc(len + 1);
        if (log->jobstr[IOLENS_JOBSTR_EXES] == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        memcpy(log->jobstr[IOLENS_JOBSTR_EXES], log->jobstr[IOLENS_JOBSTR_EXE], len + 1);
        log->jobstr_len[IOLENS_JOBSTR_EXES] = len;
    }
    /* Strings added by later writers: skipped, but they must be well formed.
     * Each takes at least 4 bytes, so the loop ends with the region. */
    for (uint64_t i = IOLENS_JOB_NSTRINGS; i < log->job.string_count; i++)
        if (!skip_string(c))
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt job region: bad extra string");
    rd_apply_nodes(log);
    return IOLENS_READ_OK;
}

/* ---------------------------------------------------- mounts region -- */

/* Smallest encoding of one mount entry: block size and two lengths. */
#define MOUNT_ENTRY_MIN (8 + 4 + 4)

static enum iolens_read_status parse_mounts(struct reader *r, struct cursor *c)
{
    struct iolens_log *log = r->log;
    uint32_t count;
    if (!take_u32(c, &count) || count > c->left / MOUNT_ENTRY_MIN)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt mounts region: bad count");
    if (count == 0)
        return IOLENS_READ_OK;
    log->mounts = calloc(count, sizeof *log->mounts);
    if (log->mounts == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        struct iolens_log_mount *m = &log->mounts[i];
        uint64_t bsize;
        if (!take_u64(c, &bsize))
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt mounts region: entry %u", (unsigned)i);
        m->block_size = (int64_t)bsize;
        log->nmounts = i + 1; /* from here on its strings are freed with the log */
        enum iolens_read_status st = take_string(c, false, &m->point, NULL);
        if (st == IOLENS_READ_OK)
            st = take_string(c, false, &m->fstype, NULL);
        if (st == IOLENS_READ_NOMEM)
            return rd_fail(r, st, "out of memory");
        if (st != IOLENS_READ_OK)
            return rd_fail(r, st, "corrupt mounts region: entry %u", (unsigned)i);
    }
    return IOLENS_READ_OK;
}

/* ----------------------------------------------------- names region -- */

/* Smallest entry: the length word of an empty name with an implied id. */
#define NAME_ENTRY_MIN 4

int rd_compare_names(const void *a, const void *b)
{
    uint64_t x = ((const struct iolens_log_name *)a)->id;
    uint64_t y = ((const struct iolens_log_name *)b)->id;
    return x < y ? -1 : x > y;
}

/* Grows *arr (of elem-sized entries, *cap allocated) to hold need. */
bool rd_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap > 0 ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return false;
        n *= 2;
    }
    void *p = realloc(*arr, n * elem);
    if (p == NULL)
        return false;
    *arr = p;
    *cap = n;
    return true;
}

/* One entry (log_format.h): uint32 len << 1 | explicit_id, the uint64 id
 * if explicit, the name.  An implied id is the hash of the name, as the
 * runtime computed it (format/path_hash.h).  ids_only: the entry is
 * checked and its id taken, but its name is left NULL. */
static enum iolens_read_status take_name_entry(struct cursor *c, struct iolens_log_name *n,
                                               bool ids_only)
{
    uint32_t word;
    if (!take_u32(c, &word))
        return IOLENS_READ_CORRUPT;
    uint32_t len = word >> 1;
    bool explicit_id = word & 1u;
    if (explicit_id && !take_u64(c, &n->id))
        return IOLENS_READ_CORRUPT;
    if (len > c->left || memchr(c->p, '\0', len) != NULL)
        return IOLENS_READ_CORRUPT;
    if (ids_only) {
        if (!explicit_id)
            n->id = iolens_name_id((const char *)c->p, len);
        c->p += len;
        c->left -= len;
        return IOLENS_READ_OK;
    }
    n->name = malloc((size_t)len + 1);
    if (n->name == NULL)
        return IOLENS_READ_NOMEM;
    memcpy(n->name, c->p, len);
    n->name[len] = '\0';
    c->p += len;
    c->left -= len;
    if (!explicit_id)
        n->id = iolens_name_id(n->name, len);
    return IOLENS_READ_OK;
}

bool rd_blocks_add(struct rd_names_blocks *b, unsigned region, const struct iolens_log_name *names,
                   size_t n)
{
    if (!rd_grow((void **)&b->ids, &b->capids, b->nids + n, sizeof *b->ids))
        return false;
    struct rd_names_block *last = b->nv > 0 ? &b->v[b->nv - 1] : NULL;
    if (last == NULL || last->last_region + 1 != region) {
        if (!rd_grow((void **)&b->v, &b->capv, b->nv + 1, sizeof *b->v))
            return false;
        last = &b->v[b->nv++];
        *last = (struct rd_names_block){region, region, b->nids, 0};
    }
    for (size_t k = 0; k < n; k++)
        b->ids[b->nids++] = names[k].id;
    last->last_region = region;
    last->n += n;
    return true;
}

const struct rd_names_block *rd_blocks_before(const struct rd_names_blocks *b, unsigned region)
{
    if (b == NULL)
        return NULL;
    size_t lo = 0, hi = b->nv; /* the first block that ends at or after region */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->v[mid].last_region < region)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 ? &b->v[lo - 1] : NULL;
}

void rd_blocks_free(struct rd_names_blocks *b)
{
    free(b->ids);
    free(b->v);
    *b = (struct rd_names_blocks){0};
}

/* Appends a names region's entries; sorting and the duplicate check wait
 * until every names region is in (finish_names).  The ids go to the
 * names blocks too when they grow. */
static enum iolens_read_status parse_names(struct reader *r, struct cursor *c, unsigned region)
{
    struct iolens_log *log = r->log;
    uint32_t count;
    if (!take_u32(c, &count) || count > c->left / NAME_ENTRY_MIN)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt names region: bad count");
    if (count > 0 &&
        !rd_grow((void **)&log->names, &r->names_cap, log->nnames + count, sizeof *log->names))
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    size_t before = log->nnames;
    for (uint32_t i = 0; i < count; i++) {
        struct iolens_log_name *n = &log->names[log->nnames];
        n->name = NULL;
        log->nnames++; /* from here on its name is freed with the log */
        enum iolens_read_status st = take_name_entry(c, n, r->names_ids_only);
        if (st == IOLENS_READ_NOMEM)
            return rd_fail(r, st, "out of memory");
        if (st != IOLENS_READ_OK)
            return rd_fail(r, st, "corrupt names region: entry %u", (unsigned)i);
    }
    /* An empty first names region leaves log->names NULL: no offset on it. */
    const struct iolens_log_name *added = count > 0 ? log->names + before : NULL;
    if (r->blocks != NULL && r->blocks_grow && !rd_blocks_add(r->blocks, region, added, count))
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    return IOLENS_READ_OK;
}

enum iolens_read_status rd_name_twice(struct reader *r, uint64_t id)
{
    return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt names region: id %llu named twice",
                   (unsigned long long)id);
}

enum iolens_read_status rd_finish_names(struct reader *r)
{
    struct iolens_log *log = r->log;
    if (log->nnames > 1)
        qsort(log->names, log->nnames, sizeof *log->names, rd_compare_names);
    for (size_t i = 1; i < log->nnames; i++)
        if (log->names[i].id == log->names[i - 1].id)
            return rd_name_twice(r, log->names[i].id);
    return IOLENS_READ_OK;
}

/* ----------------------------------------------------- ranks region -- */

static enum iolens_read_status parse_ranks(struct reader *r, struct cursor *c)
{
    struct iolens_log *log = r->log;
    uint32_t count;
    if (!take_u32(c, &count) || (uint64_t)count * sizeof(struct iolens_rank_info) != c->left)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                    "corrupt ranks region: the count does not match its size");
    if (count == 0)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt ranks region: no ranks");
    log->ranks = malloc((size_t)count * sizeof *log->ranks);
    if (log->ranks == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    log->nranks = count;
    take(c, log->ranks, (size_t)count * sizeof *log->ranks);
    return IOLENS_READ_OK;
}

/* Number of entries of a NUL-separated list of len bytes ("" has none). */
static size_t list_entries(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\0';
    return n;
}

/* Cross-region check, once every region is in: the ranks region matches
 * the job. */
enum iolens_read_status rd_check_ranks_region(struct reader *r)
{
    struct iolens_log *log = r->log;
    if (log->nranks > 0) {
        if (log->nranks != log->job.nprocs)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt ranks region: %zu ranks, job has %u",
                        log->nranks, (unsigned)log->job.nprocs);
        size_t hosts = list_entries(log->jobstr[IOLENS_JOBSTR_HOSTS],
                                    log->jobstr_len[IOLENS_JOBSTR_HOSTS]);
        /* An empty list is one empty name. */
        size_t exes = list_entries(log->jobstr[IOLENS_JOBSTR_EXES],
                                   log->jobstr_len[IOLENS_JOBSTR_EXES]);
        exes = exes > 0 ? exes : 1;
        for (size_t i = 0; i < log->nranks; i++) {
            if (log->ranks[i].host_index >= hosts)
                return rd_fail(r, IOLENS_READ_CORRUPT,
                            "corrupt ranks region: rank %zu has host %u of %zu", i,
                            (unsigned)log->ranks[i].host_index, hosts);
            if (log->ranks[i].exe_index >= exes)
                return rd_fail(r, IOLENS_READ_CORRUPT,
                            "corrupt ranks region: rank %zu has executable %u of %zu", i,
                            (unsigned)log->ranks[i].exe_index, exes);
        }
    }
    return IOLENS_READ_OK;
}

bool rd_rank_valid(const struct iolens_log *log, int64_t rank)
{
    return rank >= IOLENS_RANK_ALL && rank < (int64_t)log->job.nprocs;
}

enum iolens_read_status rd_bad_record_rank(struct reader *r, uint32_t kind, uint64_t record,
                                           int64_t rank)
{
    return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: record %llu has rank %lld of %u",
                   iolens_layer_name(kind), (unsigned long long)record, (long long)rank,
                   (unsigned)r->log->job.nprocs);
}

/* Cross-region checks, once every region is in: the ranks region matches
 * the job, and every record's rank is a rank of the job or IOLENS_RANK_ALL. */
enum iolens_read_status rd_check_ranks(struct reader *r)
{
    struct iolens_log *log = r->log;
    enum iolens_read_status st = rd_check_ranks_region(r);
    if (st != IOLENS_READ_OK)
        return st;
    for (size_t l = 0; l < log->nlayers; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        for (uint64_t i = 0; i < L->record_count; i++)
            if (!rd_rank_valid(log, L->rank[i]))
                return rd_bad_record_rank(r, L->kind, i, L->rank[i]);
    }
    return IOLENS_READ_OK;
}

/* ----------------------------------------------------- layer region -- */

/* The decoded layer of this kind, created empty on first sight (so the
 * layers keep the order their kinds first appear in). */
static struct iolens_log_layer *layer_of_kind(struct reader *r, uint32_t kind, uint32_t version,
                                              const struct iolens_layer_head *head, size_t *index)
{
    struct iolens_log *log = r->log;
    for (size_t i = 0; i < log->nlayers; i++)
        if (log->layers[i].kind == kind) {
            *index = i;
            return &log->layers[i];
        }
    if (log->nlayers >= MAX_LAYER_KINDS)
        return NULL;
    struct iolens_log_layer *grown = realloc(log->layers, (log->nlayers + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    log->layers = grown;
    *index = log->nlayers;
    struct iolens_log_layer *L = &log->layers[log->nlayers++];
    memset(L, 0, sizeof *L);
    L->kind = kind;
    L->version = version;
    L->counter_count = head->counter_count;
    L->fcounter_count = head->fcounter_count;
    /* Optional: without it, no pass skips a column. */
    L->zero = calloc((size_t)head->counter_count + head->fcounter_count + 1, 1);
    r->layer_cap[*index] = 0;
    return L;
}

/* The records of a region of these codes are now in L: a column is zero
 * in L when it is in this region and, if L held records before (first),
 * was in theirs. */
static void note_zero_columns(struct iolens_log_layer *L, const struct column_codes *codes,
                              uint64_t first)
{
    if (L->zero == NULL)
        return;
    size_t n = (size_t)L->counter_count + L->fcounter_count;
    for (size_t k = 0; k < n; k++) {
        unsigned char zero = code_of(codes, 2 + k) == IOLENS_COL_ZERO;
        L->zero[k] = first == 0 ? zero : (unsigned char)(L->zero[k] & zero);
    }
}

/* Makes room for need records in every array of L. */
static bool grow_layer(struct reader *r, size_t index, struct iolens_log_layer *L, uint64_t need)
{
    uint64_t cap = r->layer_cap[index];
    if (need <= cap)
        return true;
    uint64_t n = cap > 0 ? cap : 16;
    while (n < need)
        n *= 2;   /* need is bounded by the region sizes: no overflow */
    size_t cc = L->counter_count, fc = L->fcounter_count;
    /* n records of 16 + 8 * (cc + fc) bytes must be addressable. */
    if (n > SIZE_MAX / 8 / (2 + cc + fc))
        return false;
    void *p;
    if ((p = realloc(L->id, (size_t)n * sizeof *L->id)) == NULL)
        return false;
    L->id = p;
    if ((p = realloc(L->rank, (size_t)n * sizeof *L->rank)) == NULL)
        return false;
    L->rank = p;
    if (cc > 0) {
        if ((p = realloc(L->counters, (size_t)n * cc * sizeof *L->counters)) == NULL)
            return false;
        L->counters = p;
    }
    if (fc > 0) {
        if ((p = realloc(L->fcounters, (size_t)n * fc * sizeof *L->fcounters)) == NULL)
            return false;
        L->fcounters = p;
    }
    r->layer_cap[index] = n;
    return true;
}

/* The cursor moved past the body of the records (used bytes, checked
 * to be what is left). */
static void skip_records(struct cursor *c, uint64_t used)
{
    c->p += used;
    c->left -= (size_t)used;
}

bool rd_decode_deferred(struct reader *r, uint64_t from, size_t m)
{
    size_t index = r->deferred.layer;
    struct iolens_log_layer *L = &r->log->layers[index];
    if (!grow_layer(r, index, L, m))
        return false;
    decode_range(r->deferred.body, r->deferred.n, from, m, &r->deferred.codes, L, 0);
    note_zero_columns(L, &r->deferred.codes, 0);
    L->record_count = m;
    return true;
}

enum iolens_read_status rd_counts_differ(struct reader *r, uint32_t kind, uint32_t cc, uint32_t fc,
                                         uint32_t earlier_cc, uint32_t earlier_fc)
{
    return rd_fail(r, IOLENS_READ_CORRUPT,
                   "corrupt %s region: %u+%u counters where an earlier one has %u+%u",
                   iolens_layer_name(kind), (unsigned)cc, (unsigned)fc, (unsigned)earlier_cc,
                   (unsigned)earlier_fc);
}

/* A layer region's records are appended to the layer of its kind; all
 * regions of one kind must agree on the counter counts. */
/* A negative value of a counter that is a sum (a count of operations or
 * bytes) is damage: it is refused here rather than summed by the tools.
 * Only the sign planes are read (byte 7 of each value of the column), so
 * the check costs a byte a record a counter, and it runs before the
 * streaming reader defers the records, so both readers give one verdict. */
static enum iolens_read_status check_sums_not_negative(struct reader *r, const unsigned char *body,
                                                       const struct iolens_layer_head *head,
                                                       uint32_t kind,
                                                       const struct column_codes *codes)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    uint64_t n = head->record_count;
    uint32_t known = head->counter_count < d->ncounters ? head->counter_count : d->ncounters;
    /* Columns stored before counter 0: the ids, and the ranks unless zero. */
    uint64_t column = 1 + (code_of(codes, 1) != IOLENS_COL_ZERO);
    for (uint32_t k = 0; k < known; k++) {
        if (code_of(codes, 2 + (size_t)k) == IOLENS_COL_ZERO)
            continue; /* all 0: nothing negative, nothing stored */
        const unsigned char *sign = body + (column++ * 8 + 7) * n;
        if (d->agg[k] != IOLENS_AGG_SUM)
            continue;
        for (uint64_t i = 0; i < n; i++)
            if (sign[i] & 0x80)
                return rd_fail(r, IOLENS_READ_CORRUPT,
                               "corrupt %s region: record %llu: %s is negative", d->name,
                               (unsigned long long)i, d->counter_names[k]);
    }
    return IOLENS_READ_OK;
}

/* The column codes of a version 3 layer region (log_format.h), checked:
 * each allowed for its column, and places into the names block before
 * region that increase from record to record. */
/* Whether fcounter k of the region may be IOLENS_COL_TICKS_FROM_REF: it
 * has refs, each in the region and in ticks. */
static bool refs_ok(const struct iolens_layer_desc *d, const unsigned char *fcodes, uint64_t k)
{
    int refs[3];
    int n = k <= UINT32_MAX ? iolens_fcounter_time_refs(d, (uint32_t)k, refs) : 0;
    for (int i = 0; i < n; i++)
        if (fcodes[refs[i]] != IOLENS_COL_TICKS && fcodes[refs[i]] != IOLENS_COL_TICKS_FROM_REF &&
            fcodes[refs[i]] != IOLENS_COL_ZERO)
            return false;
    return n > 0;
}

/* The codes of a version 3 or 4 region (IOLENS_COL_ZERO from version 4 on). */
static enum iolens_read_status take_codes(struct reader *r, struct cursor *c, unsigned region,
                                          uint32_t kind, uint32_t version,
                                          const struct iolens_layer_head *head,
                                          const char *lname, struct column_codes *out)
{
    uint64_t ncols = 2 + (uint64_t)head->counter_count + head->fcounter_count;
    if (ncols > c->left)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: no column codes", lname);
    const unsigned char *codes = c->p;
    c->p += ncols;
    c->left -= ncols;
    uint64_t fc0 = 2 + (uint64_t)head->counter_count;
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    for (uint64_t k = 0; k < ncols; k++) {
        unsigned code = codes[k];
        bool ok = code == IOLENS_COL_RAW ||
                  (k == 0 && code == IOLENS_COL_NAME_PLACE) ||
                  (k >= fc0 && code == IOLENS_COL_TICKS) ||
                  (k >= fc0 && code == IOLENS_COL_TICKS_FROM_REF && refs_ok(d, codes + fc0, k - fc0)) ||
                  (k >= 1 && code == IOLENS_COL_ZERO && version != IOLENS_LAYER_VERSION_3);
        if (!ok)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: column %llu has code %u",
                           lname, (unsigned long long)k, code);
    }
    /* The places themselves are checked once the body's size is
     * (check_places). */
    const struct rd_names_block *b = rd_blocks_before(r->blocks, region);
    /* Names blocks may all be empty, leaving ids NULL: no offset on it
     * (check_places refuses every place of an empty block). */
    bool named = b != NULL && b->n > 0;
    *out = (struct column_codes){codes, named ? r->blocks->ids + b->first : NULL, d};
    return IOLENS_READ_OK;
}

/* The places of the id column (body checked whole): each inside the
 * names block before the region, and larger than the one before. */
static enum iolens_read_status check_places(struct reader *r, const unsigned char *body,
                                            uint64_t n, unsigned region, const char *lname)
{
    const struct rd_names_block *b = rd_blocks_before(r->blocks, region);
    uint64_t block_n = b != NULL ? b->n : 0, v[DECODE_BLOCK], prev = 0;
    for (uint64_t done = 0; done < n; done += DECODE_BLOCK) {
        size_t m = n - done < DECODE_BLOCK ? (size_t)(n - done) : DECODE_BLOCK;
        iolens_column_decode_block(body, n, done, m, v);
        for (size_t i = 0; i < m; i++) {
            uint64_t rec = done + i;
            if (v[i] >= block_n)
                return rd_fail(r, IOLENS_READ_CORRUPT,
                               "corrupt %s region: record %llu names entry %llu of a names block "
                               "of %llu",
                               lname, (unsigned long long)rec, (unsigned long long)v[i],
                               (unsigned long long)block_n);
            if (rec > 0 && v[i] <= prev)
                return rd_fail(r, IOLENS_READ_CORRUPT,
                               "corrupt %s region: record %llu names entry %llu after entry %llu",
                               lname, (unsigned long long)rec, (unsigned long long)v[i],
                               (unsigned long long)prev);
            prev = v[i];
        }
    }
    return IOLENS_READ_OK;
}

static enum iolens_read_status parse_layer(struct reader *r, struct cursor *c, unsigned region,
                                           uint32_t kind, uint32_t version)
{
    const char *lname = iolens_layer_name(kind);
    struct iolens_layer_head head;
    if (!take(c, &head, sizeof head))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: no layer head", lname);
    struct column_codes codes = {NULL, NULL, NULL};
    enum iolens_read_status st = IOLENS_READ_OK;
    if (version != IOLENS_LAYER_VERSION_2 &&
        (st = take_codes(r, c, region, kind, version, &head, lname, &codes)) != IOLENS_READ_OK)
        return st;

    /* The record count must account for the region exactly: 8 bytes a
     * record for each column stored (all but those of IOLENS_COL_ZERO).
     * cc and fc are 32-bit, so the record size fits in 64 bits; the
     * product is checked. */
    uint64_t ncols = 2 + (uint64_t)head.counter_count + head.fcounter_count, stored = ncols;
    for (uint64_t k = 0; codes.codes != NULL && k < ncols; k++)
        stored -= codes.codes[k] == IOLENS_COL_ZERO;
    uint64_t rec_size = 8 * stored;
    uint64_t body;
    if (__builtin_mul_overflow(head.record_count, rec_size, &body) || body != c->left)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                    "corrupt %s region: %llu records of %llu bytes do not fill %llu bytes", lname,
                    (unsigned long long)head.record_count, (unsigned long long)rec_size,
                    (unsigned long long)c->left);

    if (codes.codes != NULL && codes.codes[0] == IOLENS_COL_NAME_PLACE &&
        (st = check_places(r, c->p, head.record_count, region, lname)) != IOLENS_READ_OK)
        return st;
    st = check_sums_not_negative(r, c->p, &head, kind, &codes);
    if (st != IOLENS_READ_OK)
        return st;
    size_t index;
    struct iolens_log_layer *L = layer_of_kind(r, kind, version, &head, &index);
    if (L == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    if (L->counter_count != head.counter_count || L->fcounter_count != head.fcounter_count)
        return rd_counts_differ(r, kind, head.counter_count, head.fcounter_count,
                                L->counter_count, L->fcounter_count);
    uint64_t n = head.record_count, first = L->record_count;
    if (r->defer_records) {
        r->deferred.body = c->p;
        r->deferred.n = n;
        r->deferred.layer = index;
        r->deferred.codes = codes;
        skip_records(c, body);
        return IOLENS_READ_OK;
    }
    if (n == 0)
        return IOLENS_READ_OK;
    if (!grow_layer(r, index, L, first + n))
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    decode_range(c->p, n, 0, n, &codes, L, first);
    note_zero_columns(L, &codes, first);
    skip_records(c, body);
    L->record_count = first + n;
    return IOLENS_READ_OK;
}

/* ------------------------------------------------- intervals region -- */

static bool is_layer_kind(uint32_t kind) { return iolens_layer_desc_by_kind(kind) != NULL; }

static bool finite_non_negative(double x) { return x >= 0 && x <= 1e300; }
static bool is_finite(double x) { return x >= -1e300 && x <= 1e300; }

void rd_free_interval_set(struct iolens_log_intervals *set)
{
    free(set->start);
    free(set->end);
    free(set->busy);
    free(set->bytes);
    free(set->file_id);
    free(set->accesses);
    free(set->flags);
}

static bool alloc_interval_set(struct iolens_log_intervals *set, uint64_t n)
{
    size_t m = n > 0 ? (size_t)n : 1;
    set->start = malloc(m * sizeof *set->start);
    set->end = malloc(m * sizeof *set->end);
    set->busy = malloc(m * sizeof *set->busy);
    set->bytes = malloc(m * sizeof *set->bytes);
    set->file_id = malloc(m * sizeof *set->file_id);
    set->accesses = malloc(m * sizeof *set->accesses);
    set->flags = malloc(m * sizeof *set->flags);
    return set->start && set->end && set->busy && set->bytes && set->file_id && set->accesses && set->flags;
}

/* Start and duration columns (int64 ns): starts delta-encoded.  Every
 * start and end must be >= 0 and fit in int64. */
static bool decode_interval_times(struct cursor *c, struct iolens_log_intervals *set)
{
    int64_t t = 0;
    for (uint64_t i = 0; i < set->count; i++) {
        int64_t delta = 0;
        take(c, &delta, sizeof delta);
        if (delta < 0 || __builtin_add_overflow(t, delta, &t))
            return false;
        set->start[i] = (double)t / 1e9;
    }
    const unsigned char *starts = c->p - set->count * 8;
    t = 0;
    for (uint64_t i = 0; i < set->count; i++) {
        int64_t delta, dur = 0, end;
        memcpy(&delta, starts + 8 * i, sizeof delta);
        t += delta;   /* checked above */
        take(c, &dur, sizeof dur);
        if (dur < 0 || __builtin_add_overflow(t, dur, &end))
            return false;
        set->end[i] = (double)end / 1e9;
    }
    return true;
}

/* The busy column (version 2 on): int64 ns >= 0.  A version 1 log has
 * none: each interval counts as busy throughout, as that version's
 * readers took it. */
static bool decode_interval_busy(struct cursor *c, struct iolens_log_intervals *set,
                                 uint32_t version)
{
    /* The duration column, just taken (checked >= 0). */
    const unsigned char *durations = c->p - set->count * 8;
    for (uint64_t i = 0; i < set->count; i++) {
        if (version == IOLENS_INTERVALS_VERSION_1) {
            set->busy[i] = set->end[i] - set->start[i];
            continue;
        }
        int64_t ns = 0;
        if (!take(c, &ns, sizeof ns))
            return false;
        if (version != IOLENS_INTERVALS_VERSION_2) { /* from the duration */
            int64_t dur;
            memcpy(&dur, durations + 8 * i, sizeof dur);
            if (__builtin_sub_overflow(dur, unzigzag((uint64_t)ns), &ns))
                return false;
        }
        if (ns < 0)
            return false;
        set->busy[i] = (double)ns / 1e9;
    }
    return true;
}

/* reader_internal.h */
bool rd_file_of(const struct rd_file_refs *f, uint64_t v, uint64_t *id)
{
    if (f->names == NULL || v < IOLENS_IV_FIRST_PLACE) {
        *id = v;
        return true;
    }
    uint64_t k = v - IOLENS_IV_FIRST_PLACE;
    if (k < f->nextra) {
        memcpy(id, f->extra + 8 * k, sizeof *id);
        return true;
    }
    k -= f->nextra;
    if (k >= f->names->n)
        return false;
    *id = f->blocks->ids[f->names->first + k];
    return true;
}

/* bytes, file_id, accesses and flags columns; bytes >= 0, accesses >= 1,
 * and the intervals hold no more accesses than the layer counted.  With
 * a names block, the file column holds reserved ids and places in it. */
static bool decode_interval_values(struct cursor *c, struct iolens_log_intervals *set,
                                   const struct rd_file_refs *refs)
{
    uint64_t n = set->count, accesses = 0;
    for (uint64_t i = 0; i < n; i++)
        if (!take(c, &set->bytes[i], 8) || set->bytes[i] < 0)
            return false;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = 0;
        take(c, &v, 8);
        if (!rd_file_of(refs, v, &set->file_id[i]))
            return false;
    }
    for (uint64_t i = 0; i < n; i++) {
        if (!take_u32(c, &set->accesses[i]) || set->accesses[i] == 0)
            return false;
        accesses += set->accesses[i];   /* n < 2^27: cannot overflow */
    }
    for (uint64_t i = 0; i < n; i++)
        take_u32(c, &set->flags[i]);
    return accesses <= set->total_accesses;
}

/* The count intervals of a version 3 layer (byte-planed columns, whole:
 * checked) in the plain column-major layout of version 2, malloc'd. */
static unsigned char *unplane_intervals(const unsigned char *p, uint64_t count)
{
    static const unsigned widths[] = {8, 8, 8, 8, 8, 4, 4};
    size_t n = (size_t)count;
    unsigned char *out = malloc(n > 0 ? n * IOLENS_INTERVAL_DISK_SIZE : 1), *o = out;
    if (out == NULL)
        return NULL;
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        unsigned w = widths[k];
        for (size_t i = 0; i < n; i++)
            for (unsigned b = 0; b < w; b++)
                o[i * w + b] = p[b * n + i];
        o += n * w;
        p += n * w;
    }
    return out;
}

static bool layer_totals_valid(const struct iolens_intervals_layer *L)
{
    return finite_non_negative(L->error_bound) && finite_non_negative(L->sum_duration) &&
           finite_non_negative(L->overlap) && L->bytes >= 0;
}

/* A new entry of log->intervals, zeroed; NULL when memory is short. */
static struct iolens_log_intervals *new_interval_set(struct reader *r)
{
    struct iolens_log *log = r->log;
    if (!rd_grow((void **)&log->intervals, &r->intervals_cap, log->ninterval_sets + 1,
              sizeof *log->intervals))
        return NULL;
    struct iolens_log_intervals *set = &log->intervals[log->ninterval_sets++];
    memset(set, 0, sizeof *set);
    return set;
}

/* One layer of an intervals region: its head and columns.  Layers this
 * reader does not know are skipped. */
static enum iolens_read_status parse_interval_layer(struct reader *r, struct cursor *c,
                                                    unsigned region,
                                                    const struct iolens_intervals_head *h,
                                                    uint32_t version)
{
    struct iolens_intervals_layer L = {0};
    int v1 = version == IOLENS_INTERVALS_VERSION_1;
    size_t iv_size = v1 ? IOLENS_INTERVAL_DISK_SIZE_V1 : IOLENS_INTERVAL_DISK_SIZE;
    if (!take(c, &L, v1 ? IOLENS_INTERVALS_LAYER_SIZE_V1 : sizeof L))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: layer head missing");
    if (v1)
        L.overlap = L.sum_duration;   /* nothing known: no lower bound from it */
    /* Before version 3 the field was reserved: ids, whatever it holds. */
    bool places = version == IOLENS_INTERVALS_VERSION && L.file_column == IOLENS_IV_FILE_PLACES;
    if (version == IOLENS_INTERVALS_VERSION && L.file_column > IOLENS_IV_FILE_PLACES)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: file column code %u",
                       (unsigned)L.file_column);
    static const struct rd_names_block no_names = {0, 0, 0, 0};
    struct rd_file_refs refs = {r->blocks, NULL, NULL, 0};
    if (places) {
        if ((refs.names = rd_blocks_before(r->blocks, region)) == NULL)
            refs.names = &no_names;
        if (!take(c, &refs.nextra, sizeof refs.nextra) || refs.nextra > c->left / 8)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: bad extra ids");
        refs.extra = c->p;
        c->p += 8 * refs.nextra;
        c->left -= 8 * refs.nextra;
    }
    if (L.count > c->left / iv_size)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                    "corrupt intervals region: %llu intervals do not fit in %zu bytes",
                    (unsigned long long)L.count, c->left);
    if (!layer_totals_valid(&L))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: bad layer totals");
    if (!is_layer_kind(L.kind)) {
        c->p += L.count * iv_size;
        c->left -= L.count * iv_size;
        return IOLENS_READ_OK;
    }
    struct iolens_log_intervals *set = new_interval_set(r);
    if (set == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    *set = (struct iolens_log_intervals){
        .rank = h->rank, .kind = L.kind, .clock_offset = h->clock_offset,
        .clock_uncertainty = h->clock_uncertainty, .error_bound = L.error_bound,
        .total_accesses = L.accesses, .total_bytes = L.bytes,
        .sum_duration = L.sum_duration, .overlap = L.overlap, .count = L.count,
    };
    if (!alloc_interval_set(set, L.count))
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    /* Version 3's columns are byte-planed: read from their plain copy. */
    struct cursor plain = *c;
    unsigned char *copy = NULL;
    if (version == IOLENS_INTERVALS_VERSION) {
        if ((copy = unplane_intervals(c->p, L.count)) == NULL)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        plain = (struct cursor){copy, (size_t)L.count * iv_size};
        c->p += L.count * iv_size;
        c->left -= L.count * iv_size;
    }
    bool good = decode_interval_times(&plain, set) && decode_interval_busy(&plain, set, version) &&
                decode_interval_values(&plain, set, &refs);
    if (copy == NULL)
        *c = plain;
    free(copy);
    if (!good)
        return rd_fail(r, IOLENS_READ_CORRUPT,
                    "corrupt intervals region: bad interval of rank %lld (%s)",
                    (long long)h->rank, iolens_layer_name(L.kind));
    return IOLENS_READ_OK;
}

static enum iolens_read_status parse_intervals(struct reader *r, struct cursor *c,
                                               unsigned region, uint32_t version)
{
    struct iolens_intervals_head h;
    if (!take(c, &h, sizeof h))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: no head");
    if (!is_finite(h.clock_offset) || !finite_non_negative(h.clock_uncertainty))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: bad clock offset");
    if (h.nlayers > c->left / IOLENS_INTERVALS_LAYER_SIZE_V1)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: bad layer count");
    for (uint32_t l = 0; l < h.nlayers; l++) {
        enum iolens_read_status st = parse_interval_layer(r, c, region, &h, version);
        if (st != IOLENS_READ_OK)
            return st;
    }
    return IOLENS_READ_OK;
}

static int compare_interval_sets(const void *a, const void *b)
{
    const struct iolens_log_intervals *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/* Once every region is in: the sets are sorted by rank and layer, each
 * rank is a rank of the job, and no rank has two sets of one layer. */
enum iolens_read_status rd_check_interval_ranks(struct reader *r)
{
    struct iolens_log *log = r->log;
    if (log->ninterval_sets > 1)
        qsort(log->intervals, log->ninterval_sets, sizeof *log->intervals,
              compare_interval_sets);
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *a = &log->intervals[i];
        if (a->rank < 0 || a->rank >= (int64_t)log->job.nprocs)
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt intervals region: rank %lld of %u",
                        (long long)a->rank, (unsigned)log->job.nprocs);
        if (i > 0 && compare_interval_sets(a - 1, a) == 0)
            return rd_fail(r, IOLENS_READ_CORRUPT,
                        "corrupt intervals region: rank %lld has two %s sets",
                        (long long)a->rank, iolens_layer_name(a->kind));
    }
    return IOLENS_READ_OK;
}

/* ------------------------------------------------ region dispatch -- */

/* JOB, MOUNTS and RANKS appear at most once; NAMES and layer regions may
 * repeat.  Returns false for a second sight of a once-only kind. */
static bool first_sight(struct reader *r, uint32_t kind)
{
    bool *seen = kind == IOLENS_REGION_JOB      ? &r->seen_job
                 : kind == IOLENS_REGION_MOUNTS ? &r->seen_mounts
                 : kind == IOLENS_REGION_RANKS  ? &r->seen_ranks
                                                : NULL;
    if (seen == NULL)
        return true;
    if (*seen)
        return false;
    *seen = true;
    return true;
}

enum iolens_read_status rd_parse_region(struct reader *r, unsigned i,
                                        const struct iolens_region_desc *d,
                                        const unsigned char *stored)
{
    if (!iolens_region_readable(d->kind, d->version)) {
        r->log->unknown_regions++;
        return IOLENS_READ_OK;
    }
    char kb[32];
    const char *label = rd_region_label(d->kind, kb, sizeof kb);
    if (!first_sight(r, d->kind))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt: %s region appears twice", label);

    unsigned char *raw;
    enum iolens_read_status st = rd_inflate_region(r, i, d, stored, &raw);
    if (st != IOLENS_READ_OK)
        return st;
    struct cursor c = {raw, (size_t)d->raw_size};
    if (d->kind == IOLENS_REGION_JOB)
        st = parse_job(r, &c);
    else if (d->kind == IOLENS_REGION_MOUNTS)
        st = parse_mounts(r, &c);
    else if (d->kind == IOLENS_REGION_NAMES)
        st = parse_names(r, &c, i);
    else if (d->kind == IOLENS_REGION_RANKS)
        st = parse_ranks(r, &c);
    else if (d->kind == IOLENS_REGION_INTERVALS)
        st = parse_intervals(r, &c, i, d->version);
    else if (d->kind == IOLENS_REGION_SITES) {
        st = rd_parse_sites(r, i, d->version, c.p, c.left);
        c.left = 0;
    }
    else if (is_layer_kind(d->kind))
        st = parse_layer(r, &c, i, d->kind, d->version);
    if (st == IOLENS_READ_OK && c.left != 0)
        st = rd_fail(r, IOLENS_READ_CORRUPT, "corrupt %s region: %zu trailing bytes", label, c.left);
    return st;
}
