/*
 * The pure half of the shared-file reduction (shared_reduce.h): who
 * decides, who writes, what is packed for whom, and the reduction itself.
 * Runs once, at MPI_Finalize, so it uses malloc freely.
 */
#include "mpi/shared_reduce.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format/compare.h"

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
    qsort(v, n, sizeof *v, iolens_compare_u64);
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

static int compare_holders(const void *a, const void *b)
{
    const struct holder *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

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
    qsort(h, n, sizeof *h, compare_holders);
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

static int compare_assign(const void *a, const void *b)
{
    const struct iolens_share_assign *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

struct iolens_share_assign *iolens_share_assign_build(const uint64_t *ids, const int32_t *writers,
                                                      size_t n)
{
    struct iolens_share_assign *a = malloc((n + 1) * sizeof *a);
    if (a == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        a[i] = (struct iolens_share_assign){ids[i], writers[i], 0};
    qsort(a, n, sizeof *a, compare_assign);
    return a;
}

int iolens_share_writer_of(const struct iolens_share_assign *a, size_t n, uint64_t id)
{
    struct iolens_share_assign key = {id, 0, 0};
    const struct iolens_share_assign *hit = bsearch(&key, a, n, sizeof *a, compare_assign);
    return hit != NULL ? hit->writer : -1;
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

static int keep_records(const struct iolens_record_set *all, const struct iolens_share_assign *a,
                        size_t na, int self, int nprocs, struct iolens_record_set *kept)
{
    memset(kept, 0, sizeof *kept);
    kept->nlayers = all->nlayers;
    for (unsigned l = 0; l < all->nlayers; l++) {
        size_t size = iolens_layer_desc_at(l)->record_size;
        kept->records[l] = malloc(all->count[l] * size + 1);
        if (kept->records[l] == NULL)
            return -1;
        for (size_t i = 0; i < all->count[l]; i++) {
            const void *rec = record_at(all, l, i);
            if (destination(a, na, self, nprocs, rec) == self)
                memcpy(record_at(kept, l, kept->count[l]++), rec, size);
        }
    }
    return 0;
}

/* Bytes of the entries for each writer: counts[r], and displs[r] where
 * they start.  Returns the total, or -1 beyond what MPI's int counts and
 * displacements can say. */
static long plan_send(const struct iolens_record_set *all, const struct iolens_share_assign *a,
                      size_t na, int self, int nprocs, int *counts, int *displs)
{
    memset(counts, 0, (size_t)nprocs * sizeof *counts);
    for (unsigned l = 0; l < all->nlayers; l++) {
        size_t entry = ENTRY_HEAD + iolens_layer_desc_at(l)->record_size;
        for (size_t i = 0; i < all->count[l]; i++) {
            int dest = destination(a, na, self, nprocs, record_at(all, l, i));
            if (dest == self)
                continue;
            if ((size_t)counts[dest] > INT_MAX - entry)
                return -1;
            counts[dest] += (int)entry;
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

int iolens_share_split(const struct iolens_record_set *all, const struct iolens_share_assign *a,
                       size_t na, int self, int nprocs, struct iolens_record_set *kept,
                       unsigned char **buf, int *counts, int *displs)
{
    *buf = NULL;
    long total = keep_records(all, a, na, self, nprocs, kept) == 0
                     ? plan_send(all, a, na, self, nprocs, counts, displs)
                     : -1;
    size_t *next = total >= 0 ? malloc(((size_t)nprocs + 1) * sizeof *next) : NULL;
    *buf = next != NULL ? malloc((size_t)total + 1) : NULL;
    if (*buf == NULL) {
        free(next);
        iolens_record_set_free(kept);
        return -1;
    }
    for (int r = 0; r < nprocs; r++)
        next[r] = (size_t)displs[r];
    for (unsigned l = 0; l < all->nlayers; l++) {
        size_t size = iolens_layer_desc_at(l)->record_size;
        uint32_t head[2] = {l, 0};
        for (size_t i = 0; i < all->count[l]; i++) {
            const void *rec = record_at(all, l, i);
            int dest = destination(a, na, self, nprocs, rec);
            if (dest == self)
                continue;
            memcpy(*buf + next[dest], head, sizeof head);
            memcpy(*buf + next[dest] + ENTRY_HEAD, rec, size);
            next[dest] += ENTRY_HEAD + size;
        }
    }
    free(next);
    return 0;
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

/* Merges recs[0..n) (the same id, sorted by rank) into out. */
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

/* One layer: the kept records and the received ones of the layer. */
static int reduce_layer(unsigned l, const struct iolens_record_set *kept,
                        const unsigned char *recv, size_t len, size_t nrecv,
                        struct iolens_record_set *out)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_at(l);
    size_t nk = l < kept->nlayers ? kept->count[l] : 0, n = nk + nrecv;
    const void **recs = malloc((n + 1) * sizeof *recs);
    out->records[l] = malloc(n * d->record_size + 1);
    if (recs == NULL || out->records[l] == NULL) {
        free(recs);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < nk; i++)
        recs[k++] = record_at(kept, l, i);
    for (size_t at = 0; at < len;) {
        uint32_t layer;
        memcpy(&layer, recv + at, sizeof layer);
        if (layer == l)
            recs[k++] = recv + at + ENTRY_HEAD;
        at += ENTRY_HEAD + iolens_layer_desc_at(layer)->record_size;
    }
    qsort(recs, n, sizeof *recs, compare_records);
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && record_id(recs[end]) == record_id(recs[start]); end++)
            ;
        reduce_group(d, recs + start, end - start, record_at(out, l, out->count[l]++));
    }
    free(recs);
    return 0;
}

int iolens_share_reduce(const struct iolens_record_set *kept, const unsigned char *recv,
                        size_t len, struct iolens_record_set *out)
{
    unsigned nlayers = iolens_layer_desc_count();
    size_t nrecv[IOLENS_SHARE_MAX_LAYERS] = {0};
    memset(out, 0, sizeof *out);
    if (nlayers > IOLENS_SHARE_MAX_LAYERS || kept->nlayers > nlayers ||
        scan_received(recv, len, nlayers, nrecv) != 0)
        return -1;
    out->nlayers = nlayers;
    for (unsigned l = 0; l < nlayers; l++)
        if (reduce_layer(l, kept, recv, len, nrecv[l], out) != 0) {
            iolens_record_set_free(out);
            return -1;
        }
    return 0;
}
