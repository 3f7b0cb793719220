/*
 * The pure half of the shared-file reduction (shared_reduce.h): who
 * decides, who writes, what is packed for whom, and the reduction itself.
 * Runs once, at MPI_Finalize, so it uses malloc freely.
 */
#include "mpi/shared_reduce.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "format/sort_u64.h"

/* Bytes in front of each record in an exchange buffer: uint32 layer index
 * and uint32 0, which keeps the records 8-byte aligned. */
#define ENTRY_HEAD 8

void iolens_record_set_free(struct iolens_record_set *s)
{
    for (unsigned i = 0; i < IOLENS_SHARE_MAX_LAYERS; i++)
        free(s->records[i]);
    memset(s, 0, sizeof *s);
}

static uint64_t record_id(const void *rec)
{
    uint64_t id;
    memcpy(&id, rec, sizeof id);
    return id;
}

static int64_t record_rank(const void *rec)
{
    int64_t rank;
    memcpy(&rank, (const char *)rec + 8, sizeof rank);
    return rank;
}

static void *record_at(const struct iolens_record_set *s, unsigned layer, size_t i)
{
    return (char *)s->records[layer] + i * iolens_layer_desc_at(layer)->record_size;
}

/* ------------------------------------------------------------ times -- */

static int is_timestamp(const char *name)
{
    static const char suffix[] = "_TIMESTAMP";
    size_t n = strlen(name), k = sizeof suffix - 1;
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

void iolens_share_shift_timestamps(const struct iolens_layer_desc *d, void *records, size_t n,
                                   double offset)
{
    for (uint32_t f = 0; f < d->nfcounters; f++) {
        if (!is_timestamp(d->fcounter_names[f]))
            continue;
        for (size_t i = 0; i < n; i++) {
            double *fc = iolens_rec_fcounters(d, (char *)records + i * d->record_size);
            if (fc[f] != 0)
                fc[f] += offset;
        }
    }
}

/* ----------------------------------------------------------- owners -- */

/* splitmix64's finalizer: ids are hashes already, but the reserved ids
 * (1 ... 15) are not. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int iolens_share_owner(uint64_t id, int nprocs)
{
    return nprocs > 1 ? (int)(mix(id) % (uint64_t)nprocs) : 0;
}

/* Which of the k holders of id writes it: a hash independent of the
 * owner's, so that the files shared by all ranks spread over them. */
static unsigned writer_pick(uint64_t id, unsigned k)
{
    return (unsigned)(mix(id ^ 0x9e3779b97f4a7c15ull) % k);
}

long iolens_share_distinct_ids(const struct iolens_record_set *s, uint64_t **ids)
{
    size_t total = 0;
    for (unsigned l = 0; l < s->nlayers; l++)
        total += s->count[l];
    uint64_t *v = malloc((total + 1) * sizeof *v);
    *ids = v;
    if (v == NULL)
        return -1;
    size_t n = 0;
    for (unsigned l = 0; l < s->nlayers; l++)
        for (size_t i = 0; i < s->count[l]; i++)
            v[n++] = record_id(record_at(s, l, i));
    if (iolens_sort_by_u64(v, n, sizeof *v, 0) != 0) {
        free(v);
        *ids = NULL;
        return -1;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (distinct == 0 || v[distinct - 1] != v[i])
            v[distinct++] = v[i];
    return (long)distinct;
}

long iolens_share_ids_by_owner(const struct iolens_record_set *s, int nprocs, uint64_t **out,
                               int *counts, int *displs)
{
    uint64_t *ids;
    long n = iolens_share_distinct_ids(s, &ids);
    *out = NULL;
    if (n < 0 || n > INT_MAX) {
        free(ids);
        return -1;
    }
    uint64_t *v = malloc(((size_t)n + 1) * sizeof *v);
    int *next = malloc(((size_t)nprocs + 1) * sizeof *next);
    if (v == NULL || next == NULL) {
        free(ids);
        free(v);
        free(next);
        return -1;
    }
    memset(counts, 0, (size_t)nprocs * sizeof *counts);
    for (long i = 0; i < n; i++)
        counts[iolens_share_owner(ids[i], nprocs)]++;
    for (int r = 0, at = 0; r < nprocs; r++) {
        displs[r] = next[r] = at;
        at += counts[r];
    }
    for (long i = 0; i < n; i++)
        v[next[iolens_share_owner(ids[i], nprocs)]++] = ids[i];
    free(ids);
    free(next);
    *out = v;
    return n;
}

/* ---------------------------------------------------------- writers -- */

struct holder {
    uint64_t id;
    int32_t rank;           /* the rank that sent the id */
    uint32_t index;         /* position in the received array */
};

int iolens_share_decide(const uint64_t *recv, const int *counts, const int *displs, int nprocs,
                        int32_t *writer)
{
    size_t n = 0;
    for (int r = 0; r < nprocs; r++)
        n += (size_t)counts[r];
    struct holder *h = malloc((n + 1) * sizeof *h);
    if (h == NULL)
        return -1;
    size_t k = 0;
    for (int r = 0; r < nprocs; r++)
        for (int i = 0; i < counts[r]; i++) {
            uint32_t at = (uint32_t)(displs[r] + i);
            h[k++] = (struct holder){recv[at], r, at};
        }
    /* Stable by id: the holders of an id stay in rank order. */
    if (iolens_sort_by_u64(h, n, sizeof *h, offsetof(struct holder, id)) != 0) {
        free(h);
        return -1;
    }
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && h[end].id == h[start].id; end++)
            ;
        /* Holders are in rank order, so the pick is the same on any run. */
        int32_t w = h[start + writer_pick(h[start].id, (unsigned)(end - start))].rank;
        for (size_t i = start; i < end; i++)
            writer[h[i].index] = w;
    }
    free(h);
    return 0;
}

struct iolens_share_assign *iolens_share_assign_build(const uint64_t *ids, const int32_t *writers,
                                                      size_t n)
{
    struct iolens_share_assign *a = malloc((n + 1) * sizeof *a);
    if (a == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        a[i] = (struct iolens_share_assign){ids[i], writers[i], 0};
    if (iolens_sort_by_u64(a, n, sizeof *a, offsetof(struct iolens_share_assign, id)) != 0) {
        free(a);
        return NULL;
    }
    return a;
}

/* A plain loop, not bsearch: every record and every call site of a rank
 * asks once, and a compare through a function pointer costs more than
 * the search itself.  Branch-free, as iolens_u64_lower_bound (compare.h)
 * and for the same reason. */
int iolens_share_writer_of(const struct iolens_share_assign *a, size_t n, uint64_t id)
{
    if (n == 0)
        return -1;
    size_t lo = 0, len = n;
    while (len > 1) {
        size_t half = len / 2;
        lo = a[lo + half].id < id ? lo + half : lo;
        len -= half;
    }
    lo += a[lo].id < id;
    return lo < n && a[lo].id == id ? a[lo].writer : -1;
}

/* ------------------------------------------------------------ split -- */

/* The rank a record goes to: its writer, or self when that is unknown
 * (cannot happen when the exchange worked; keeping it is the safe side). */
static int destination(const struct iolens_share_assign *a, size_t na, int self, int nprocs,
                       const void *rec)
{
    int w = iolens_share_writer_of(a, na, record_id(rec));
    return w < 0 || w >= nprocs ? self : w;
}

/* Bytes of the entries for each writer: counts[r], and displs[r] where
 * they start; dest[l][i] gets the writer of record i of layer l.  Returns
 * the total, or -1 beyond what MPI's int counts and displacements can
 * say. */
static long plan_send(const struct iolens_record_set *set, const struct iolens_share_assign *a,
                      size_t na, int self, int nprocs, int32_t *const *dest, int *counts,
                      int *displs)
{
    memset(counts, 0, (size_t)nprocs * sizeof *counts);
    for (unsigned l = 0; l < set->nlayers; l++) {
        size_t entry = ENTRY_HEAD + iolens_layer_desc_at(l)->record_size;
        for (size_t i = 0; i < set->count[l]; i++) {
            int to = destination(a, na, self, nprocs, record_at(set, l, i));
            dest[l][i] = to;
            if (to == self)
                continue;
            if ((size_t)counts[to] > INT_MAX - entry)
                return -1;
            counts[to] += (int)entry;
        }
    }
    long total = 0;
    for (int r = 0; r < nprocs; r++) {
        if (total > INT_MAX - counts[r])
            return -1;
        displs[r] = (int)total;
        total += counts[r];
    }
    return total;
}

/* Packs the records whose writer is another rank into buf and closes the
 * gaps they leave, keeping the order of the others. */
static void pack_and_compact(struct iolens_record_set *set, int32_t *const *dest, int self,
                             const int *displs, size_t *next, unsigned char *buf, int nprocs)
{
    for (int r = 0; r < nprocs; r++)
        next[r] = (size_t)displs[r];
    for (unsigned l = 0; l < set->nlayers; l++) {
        size_t size = iolens_layer_desc_at(l)->record_size, kept = 0;
        uint32_t head[2] = {l, 0};
        for (size_t i = 0; i < set->count[l]; i++) {
            const void *rec = record_at(set, l, i);
            int to = dest[l][i];
            if (to == self) {
                if (kept != i)
                    memcpy(record_at(set, l, kept), rec, size);
                kept++;
                continue;
            }
            memcpy(buf + next[to], head, sizeof head);
            memcpy(buf + next[to] + ENTRY_HEAD, rec, size);
            next[to] += ENTRY_HEAD + size;
        }
        set->count[l] = kept;
    }
}

int iolens_share_split(struct iolens_record_set *set, const struct iolens_share_assign *a,
                       size_t na, int self, int nprocs, unsigned char **buf, int *counts,
                       int *displs)
{
    int32_t *dest[IOLENS_SHARE_MAX_LAYERS] = {0};
    size_t *next = malloc(((size_t)nprocs + 1) * sizeof *next);
    int rc = next != NULL && set->nlayers <= IOLENS_SHARE_MAX_LAYERS ? 0 : -1;
    for (unsigned l = 0; rc == 0 && l < set->nlayers; l++)
        if ((dest[l] = malloc((set->count[l] + 1) * sizeof *dest[l])) == NULL)
            rc = -1;
    long total = rc == 0 ? plan_send(set, a, na, self, nprocs, dest, counts, displs) : -1;
    *buf = total >= 0 ? malloc((size_t)total + 1) : NULL;
    if (*buf != NULL)
        pack_and_compact(set, dest, self, displs, next, *buf, nprocs);
    for (unsigned l = 0; l < IOLENS_SHARE_MAX_LAYERS; l++)
        free(dest[l]);
    free(next);
    return *buf != NULL ? 0 : -1;
}

/* ----------------------------------------------------------- reduce -- */

static int compare_records(const void *a, const void *b)
{
    const void *x = *(const void *const *)a, *y = *(const void *const *)b;
    uint64_t ix = record_id(x), iy = record_id(y);
    if (ix != iy)
        return ix < iy ? -1 : 1;
    int64_t rx = record_rank(x), ry = record_rank(y);
    return (rx > ry) - (rx < ry);
}

/* Checks the received buffer and counts its records per layer. */
static int scan_received(const unsigned char *recv, size_t len, unsigned nlayers, size_t *count)
{
    size_t at = 0;
    while (at < len) {
        uint32_t layer;
        if (len - at < ENTRY_HEAD)
            return -1;
        memcpy(&layer, recv + at, sizeof layer);
        if (layer >= nlayers)
            return -1;
        size_t size = iolens_layer_desc_at(layer)->record_size;
        if (len - at - ENTRY_HEAD < size)
            return -1;
        count[layer]++;
        at += ENTRY_HEAD + size;
    }
    return 0;
}

/* Merges recs[0..n) (the same id, sorted by rank) into out, which may
 * not be one of them. */
static void reduce_group(const struct iolens_layer_desc *d, const void *const *recs, size_t n,
                         void *out)
{
    iolens_record_merge_begin(d, out, recs[0]);
    if (n == 1)
        return;
    struct iolens_rank_stats stats;
    iolens_rank_stats_init(&stats);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            iolens_record_merge(d, out, recs[i]);
        iolens_rank_stats_add(&stats, d, record_rank(recs[i]), recs[i]);
    }
    iolens_rank_stats_store(&stats, d, out);
    int64_t all = IOLENS_RANK_ALL;
    memcpy((char *)out + 8, &all, sizeof all);
}

/* The first of got[0..n) (sorted by id) with the id, or n. */
static size_t first_with_id(const void *const *got, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (record_id(got[mid]) < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && record_id(got[lo]) == id ? lo : n;
}

/* Where the received records of one layer go: each group of one id into
 * the kept record of the id, merged in rank order, or (no kept record of
 * the layer) into a new record after the kept ones.  Only the received
 * records and the kept records they meet are touched: a rank's own files,
 * almost all of its records, stay where they are. */
struct layer_merge {
    const struct iolens_layer_desc *d;
    const void **got;     /* the received records, sorted by id and rank */
    size_t ngot;
    unsigned char *used;  /* per group start: met a kept record */
    const void **group;   /* room for a group and the kept record */
    void *acc;            /* one record */
};

/* Merges the received group of the kept record at rec, if any, into it. */
static void merge_into_kept(struct layer_merge *m, void *rec)
{
    size_t lo = first_with_id(m->got, m->ngot, record_id(rec)), hi = lo, k = 0;
    if (lo == m->ngot)
        return;
    while (hi < m->ngot && record_id(m->got[hi]) == record_id(rec))
        hi++;
    int64_t own = record_rank(rec);
    int placed = 0;
    for (size_t i = lo; i < hi; i++) {
        if (!placed && record_rank(m->got[i]) > own) {
            m->group[k++] = rec;
            placed = 1;
        }
        m->group[k++] = m->got[i];
    }
    if (!placed)
        m->group[k++] = rec;
    reduce_group(m->d, m->group, k, m->acc);
    memcpy(rec, m->acc, m->d->record_size);
    m->used[lo] = 1;
}

/* One layer: the received records merged into the kept ones, the groups
 * no kept record met appended. */
static int reduce_layer(unsigned l, struct iolens_record_set *set, const unsigned char *recv,
                        size_t len, size_t nrecv)
{
    struct layer_merge m = {.d = iolens_layer_desc_at(l), .ngot = 0};
    size_t size = m.d->record_size, nk = set->count[l];
    m.got = malloc((nrecv + 1) * sizeof *m.got);
    m.group = malloc((nrecv + 2) * sizeof *m.group);
    m.used = calloc(nrecv + 1, 1);
    m.acc = malloc(size);
    int rc = -1;
    if (m.got == NULL || m.group == NULL || m.used == NULL || m.acc == NULL)
        goto out;
    for (size_t at = 0; at < len;) {
        uint32_t layer;
        memcpy(&layer, recv + at, sizeof layer);
        if (layer == l)
            m.got[m.ngot++] = recv + at + ENTRY_HEAD;
        at += ENTRY_HEAD + iolens_layer_desc_at(layer)->record_size;
    }
    qsort(m.got, m.ngot, sizeof *m.got, compare_records);
    for (size_t i = 0; i < nk; i++)
        merge_into_kept(&m, record_at(set, l, i));
    size_t extra = 0;
    for (size_t start = 0, end; start < m.ngot; start = end) {
        for (end = start + 1; end < m.ngot && record_id(m.got[end]) == record_id(m.got[start]);
             end++)
            ;
        extra += !m.used[start];
    }
    void *grown = extra > 0 ? realloc(set->records[l], (nk + extra) * size + 1) : NULL;
    if (extra > 0 && grown == NULL)
        goto out;
    if (grown != NULL)
        set->records[l] = grown;
    for (size_t start = 0, end; start < m.ngot; start = end) {
        for (end = start + 1; end < m.ngot && record_id(m.got[end]) == record_id(m.got[start]);
             end++)
            ;
        if (!m.used[start])
            reduce_group(m.d, m.got + start, end - start, record_at(set, l, set->count[l]++));
    }
    rc = 0;
out:
    free(m.got);
    free(m.group);
    free(m.used);
    free(m.acc);
    return rc;
}

int iolens_share_reduce(struct iolens_record_set *set, const unsigned char *recv, size_t len)
{
    unsigned nlayers = iolens_layer_desc_count();
    size_t nrecv[IOLENS_SHARE_MAX_LAYERS] = {0};
    if (nlayers > IOLENS_SHARE_MAX_LAYERS || set->nlayers > nlayers ||
        scan_received(recv, len, nlayers, nrecv) != 0)
        return -1;
    set->nlayers = nlayers;
    for (unsigned l = 0; l < nlayers; l++)
        if (nrecv[l] > 0 && reduce_layer(l, set, recv, len, nrecv[l]) != 0)
            return -1;
    return 0;
}
