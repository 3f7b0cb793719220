/*
 * The streaming log reader (reader_stream.h).
 *
 * iolens_stream_open runs the checks of reader.c in the same order, with
 * reader.c's own functions, but on one region at a time read with pread:
 *   1. the header and region table (read alone);
 *   2. every region's bounds and CRC, region by region;
 *   3. every region read again, its CRC checked again (the bytes inflated
 *      are the bytes checked: the inflater does not recompute zlib's own
 *      Adler-32, see reader.c) and decoded in table order: job, mounts,
 *      ranks and the intervals' heads into the stream's log; the names
 *      regions first, for their ids alone (decoded ahead on a second
 *      thread, see read_names_ahead), whose ids go to the id index (id,
 *      region) and the names blocks; a layer region into a scratch layer (decoded ahead on a
 *      second thread, reader_prefetch.h, when the log has two or more),
 *      its counter counts checked against its kind's first, its ranks
 *      noted (see struct kind_track), and handed to the caller;
 *   4. the cross-region checks (job region, ids named twice, intervals'
 *      ranks, ranks region, records' ranks).
 * A later visit (iolens_stream_next) reads and decodes a layer region
 * again, checking its CRC again.
 */
#include "reader/reader_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/darshan.h"
#include "reader/reader_internal.h"
#include "reader/reader_prefetch.h"
#include "reader/reader_source.h"
#include "format/record_merge.h"

/* An id of the log and the names region that names it. */
struct name_ref {
    uint64_t id;
    uint32_t region;
};

/* What the records' rank check of reader.c needs of a layer kind, once
 * the job (nprocs) is known: the first record whose rank is below
 * IOLENS_RANK_ALL, and the records whose rank is larger than every rank
 * before (the first record whose rank is >= nprocs is one of them).
 * Indexes are in the kind's records concatenated, as reader.c counts. */
struct rank_mark {
    uint64_t record;
    int64_t rank;
};

struct kind_track {
    bool shaped;                       /* cc, fc: the counts of its first region */
    uint32_t cc, fc;
    uint64_t records;
    bool low;
    struct rank_mark low_at;
    struct rank_mark *max;
    size_t nmax, capmax;
};

struct iolens_stream {
    int fd;
    const unsigned char *mem;          /* the whole file when it is not a regular file */
    unsigned char *mem_owned;
    struct rd_source src;              /* fd or mem, and the region table */
    size_t size;
    unsigned char *prefix;             /* header and region table */
    struct iolens_file_header h;
    struct iolens_region_desc *table;
    size_t data_start;
    struct iolens_log log;             /* job, mounts, ranks, interval heads */
    struct reader r;
    struct iolens_log lay;             /* scratch: one layer region */
    struct reader lr;
    struct iolens_log nam;             /* scratch: one names region */
    struct reader nr;
    long names_region;                 /* the region in nam, -1: none */
    bool names_sorted;                 /* nam sorted by id (for lookups) */
    uint64_t huge_above;               /* raw size of a huge layer region */
    long chunked_region;               /* the huge layer region in lay, -1: none */
    uint64_t chunk_from;               /* its next record to decode */
    struct name_ref *ids;
    size_t nids, capids;
    struct rd_names_blocks blocks;     /* every names region's ids, by block */
    unsigned names_ahead;              /* names regions below it are in ids and blocks */
    uint32_t kinds[MAX_LAYER_KINDS];
    struct kind_track track[MAX_LAYER_KINDS];
    size_t nkinds;
    unsigned char *buf;                /* stored bytes of one region */
    size_t bufcap;
    char *err;
    size_t errsz;
    char errbuf[256];
    bool failed;
    bool whole;                        /* a Darshan log from a pipe: read whole into log */
};

/* len bytes at off into dst; false (with the reason set) on a read error
 * or a file shorter than it was. */
static bool read_at(struct iolens_stream *s, uint64_t off, size_t len, unsigned char *dst)
{
    int e = rd_source_read(&s->src, off, len, dst);
    if (e != 0)
        rd_source_failed(&s->r, e);
    return e == 0;
}

/* The stored bytes of region i (bounds already checked) in s->buf. */
static enum iolens_read_status load_region(struct iolens_stream *s, unsigned i)
{
    return rd_source_load(&s->r, &s->src, i, &s->buf, &s->bufcap);
}

static bool is_layer(uint32_t kind) { return iolens_layer_desc_by_kind(kind) != NULL; }

static bool known(const struct iolens_region_desc *d)
{
    return iolens_region_readable(d->kind, d->version);
}

/* ------------------------------------------------------------ scratch -- */

static const struct iolens_log_layer *scratch_layer(const struct iolens_stream *s, uint32_t kind)
{
    return iolens_log_layer_of(&s->lay, kind);
}

/* A layer region larger than this decoded (32 MiB, or
 * IOLENS_PARSER_CHUNK_ABOVE bytes) is decoded CHUNK_RECORDS records at a
 * time, and not ahead (see start_prefetch): decoded at once, its records
 * would take as much memory again as the region inflated. */
#define HUGE_RAW_SIZE (32u << 20)
#define CHUNK_RECORDS 4096
/* The records of a prefetched region handed over at a time: some 800 KB
 * of POSIX rows, which stay in a core's cache for the caller's passes. */
#define VISIT_CHUNK_RECORDS 1024

static uint64_t huge_raw_size(void)
{
    const char *v = getenv("IOLENS_PARSER_CHUNK_ABOVE");
    if (v == NULL || *v < '0' || *v > '9')
        return HUGE_RAW_SIZE;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end == '\0' ? n : HUGE_RAW_SIZE;
}

static bool is_huge(const struct iolens_stream *s, const struct iolens_region_desc *d)
{
    return d->raw_size > s->huge_above;
}

/* Layer region i read, its CRC checked again, and decoded into the
 * scratch layer; a huge one only checked, its records then decoded by
 * next_chunk. */
static enum iolens_read_status decode_layer(struct iolens_stream *s, unsigned i)
{
    s->lr.defer_records = is_huge(s, &s->table[i]);
    s->chunked_region = -1;
    enum iolens_read_status st = rd_source_decode(&s->lr, &s->src, i, &s->buf, &s->bufcap);
    if (st == IOLENS_READ_OK && s->lr.defer_records) {
        s->chunked_region = (long)i;
        s->chunk_from = 0;
    }
    return st;
}

/* The next chunk of records of the huge region in the scratch layer, which
 * then holds that chunk alone (no records for a region of none). */
static enum iolens_read_status next_chunk(struct iolens_stream *s,
                                          const struct iolens_log_layer **L)
{
    uint64_t n = s->lr.deferred.n, from = s->chunk_from;
    size_t m = n - from < CHUNK_RECORDS ? (size_t)(n - from) : CHUNK_RECORDS;
    if (!rd_decode_deferred(&s->lr, from, m))
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    s->chunk_from = from + m;
    *L = &s->lay.layers[s->lr.deferred.layer];
    return IOLENS_READ_OK;
}

static bool chunks_left(const struct iolens_stream *s)
{
    return s->chunked_region >= 0 && s->chunk_from < s->lr.deferred.n;
}

/* Names region i read, its CRC checked again, and decoded into the scratch
 * names, in the region's order. */
static enum iolens_read_status decode_names(struct iolens_stream *s, unsigned i)
{
    s->names_region = -1;
    enum iolens_read_status st = rd_source_decode(&s->nr, &s->src, i, &s->buf, &s->bufcap);
    if (st != IOLENS_READ_OK)
        return st;
    s->names_region = (long)i;
    s->names_sorted = false;
    return IOLENS_READ_OK;
}

/* The name of id in the decoded names region, or NULL.  The region is
 * sorted by id for the search only when a name is first asked of it: the
 * open decodes every names region for its ids alone, and --total never
 * asks (the sort was some 6% of its main thread). */
static const char *decoded_name_of(struct iolens_stream *s, uint64_t id)
{
    if (!s->names_sorted && s->nam.nnames > 1)
        qsort(s->nam.names, s->nam.nnames, sizeof *s->nam.names, rd_compare_names);
    s->names_sorted = true;
    return iolens_log_name_of(&s->nam, id);
}

/* ------------------------------------------------------------- checks -- */

/* The ids of names region `region`, decoded into names, to the id index. */
static enum iolens_read_status add_ids(struct iolens_stream *s, const struct iolens_log *names,
                                       unsigned region)
{
    if (!rd_grow((void **)&s->ids, &s->capids, s->nids + names->nnames, sizeof *s->ids))
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    for (size_t k = 0; k < names->nnames; k++)
        s->ids[s->nids++] = (struct name_ref){names->names[k].id, region};
    return IOLENS_READ_OK;
}

static int compare_refs(const void *a, const void *b)
{
    const struct name_ref *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->region < y->region ? -1 : x->region > y->region;
}

static void insertion_sort_refs(struct name_ref *refs, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct name_ref x = refs[i];
        size_t j = i;
        for (; j > 0 && compare_refs(&x, &refs[j - 1]) < 0; j--)
            refs[j] = refs[j - 1];
        refs[j] = x;
    }
}

/* Sorts refs as compare_refs orders them, in place: a most-significant-
 * byte radix sort (each byte's buckets filled by following the cycles of
 * misplaced refs), small buckets by insertion.  Four times as fast as
 * qsort on 10^6 random ids, and without qsort's copy of the index, which
 * doubled the parser's peak memory on a log of many files. */
static void radix_sort_refs(struct name_ref *refs, size_t n, int shift)
{
    if (n <= 32 || shift < 0) {
        insertion_sort_refs(refs, n);
        return;
    }
    size_t count[256] = {0}, next[256], end[256];
    for (size_t i = 0; i < n; i++)
        count[(refs[i].id >> shift) & 0xff]++;
    for (size_t b = 0, at = 0; b < 256; b++) {
        next[b] = at;
        at += count[b];
        end[b] = at;
    }
    for (unsigned b = 0; b < 256; b++)
        while (next[b] < end[b]) {
            struct name_ref x = refs[next[b]];
            unsigned d = (unsigned)(x.id >> shift) & 0xff;
            while (d != b) { /* x goes to bucket d: swap it with what is there */
                struct name_ref y = refs[next[d]];
                refs[next[d]++] = x;
                x = y;
                d = (unsigned)(x.id >> shift) & 0xff;
            }
            refs[next[b]++] = x;
        }
    for (size_t b = 0, at = 0; b < 256; at += count[b], b++)
        if (count[b] > 1)
            radix_sort_refs(refs + at, count[b], shift - 8);
}

static enum iolens_read_status finish_ids(struct iolens_stream *s)
{
    radix_sort_refs(s->ids, s->nids, 56);
    for (size_t i = 1; i < s->nids; i++)
        if (s->ids[i].id == s->ids[i - 1].id)
            return rd_name_twice(&s->r, s->ids[i].id);
    return IOLENS_READ_OK;
}

static struct kind_track *track_of(struct iolens_stream *s, uint32_t kind)
{
    for (size_t k = 0; k < s->nkinds; k++)
        if (s->kinds[k] == kind)
            return &s->track[k];
    if (s->nkinds >= MAX_LAYER_KINDS)
        return NULL;
    s->kinds[s->nkinds] = kind;
    return &s->track[s->nkinds++];
}

static bool note_ranks(struct kind_track *t, const struct iolens_log_layer *L)
{
    for (uint64_t j = 0; j < L->record_count; j++) {
        struct rank_mark m = {t->records + j, L->rank[j]};
        if (m.rank < IOLENS_RANK_ALL && !t->low) {
            t->low = true;
            t->low_at = m;
        }
        if (t->nmax > 0 && m.rank <= t->max[t->nmax - 1].rank)
            continue;
        if (t->nmax == t->capmax) {
            size_t cap = t->capmax ? t->capmax * 2 : 64;
            struct rank_mark *p = realloc(t->max, cap * sizeof *p);
            if (p == NULL)
                return false;
            t->max = p;
            t->capmax = cap;
        }
        t->max[t->nmax++] = m;
    }
    t->records += L->record_count;
    return true;
}

/* reader.c's check of every record's rank, from the marks. */
static enum iolens_read_status check_record_ranks(struct iolens_stream *s)
{
    for (size_t k = 0; k < s->nkinds; k++) {
        const struct kind_track *t = &s->track[k];
        const struct rank_mark *bad = t->low ? &t->low_at : NULL;
        for (size_t j = 0; j < t->nmax; j++)
            if (!rd_rank_valid(&s->log, t->max[j].rank)) {
                if (bad == NULL || t->max[j].record < bad->record)
                    bad = &t->max[j];
                break;
            }
        if (bad != NULL)
            return rd_bad_record_rank(&s->r, s->kinds[k], bad->record, bad->rank);
    }
    return IOLENS_READ_OK;
}

/* --------------------------------------------------------------- open -- */

/* A layer region's records, decoded: checked against the regions of its
 * kind before it (counter counts, as reader.c's parse_layer checks them
 * when one scratch layer sees every region; the prefetch's two do not),
 * their ranks noted, and handed to the caller. */
static enum iolens_read_status visit_layer(struct iolens_stream *s,
                                           const struct iolens_log_layer *L,
                                           iolens_stream_layer_fn fn, void *ctx)
{
    struct kind_track *t = track_of(s, L->kind);
    if (t == NULL)
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    if (!t->shaped) {
        t->shaped = true;
        t->cc = L->counter_count;
        t->fc = L->fcounter_count;
    } else if (t->cc != L->counter_count || t->fc != L->fcounter_count) {
        return rd_counts_differ(&s->r, L->kind, L->counter_count, L->fcounter_count, t->cc,
                                t->fc);
    }
    if (!note_ranks(t, L))
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    if (fn != NULL && fn(ctx, L) != 0)
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    return IOLENS_READ_OK;
}

/* A decoded names or layer region i, from the scratch log it is in. */
static enum iolens_read_status visit_decoded(struct iolens_stream *s, unsigned i,
                                            const struct iolens_log *scratch,
                                            iolens_stream_layer_fn fn, void *ctx)
{
    uint32_t kind = s->table[i].kind;
    if (kind == IOLENS_REGION_NAMES)
        return add_ids(s, scratch, i);
    return visit_layer(s, iolens_log_layer_of(scratch, kind), fn, ctx);
}

/* Records decoded a chunk at a time from a region the prefetch inflated
 * (its reader's deferred records), each chunk handed over while it is in
 * the cache: decoded whole, a region of 8192 POSIX records is 6.7 MB of
 * rows, which the caller's passes then read back from memory (--total on
 * 10^6 records: 0.58 s of CPU decoded whole, 0.39 s in chunks). */
static enum iolens_read_status visit_in_chunks(struct iolens_stream *s, struct reader *r,
                                               iolens_stream_layer_fn fn, void *ctx)
{
    uint64_t n = r->deferred.n, from = 0;
    enum iolens_read_status st;
    do { /* at least once: a region of no records is visited too */
        size_t m = n - from < VISIT_CHUNK_RECORDS ? (size_t)(n - from) : VISIT_CHUNK_RECORDS;
        if (!rd_decode_deferred(r, from, m))
            return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
        from += m;
        st = visit_layer(s, &r->log->layers[r->deferred.layer], fn, ctx);
    } while (st == IOLENS_READ_OK && from < n);
    return st;
}

/* Names or layer region i; a layer region from the prefetch when there is
 * one (names regions are decoded here: so balanced, the two threads
 * finished --total on 10^6 records in 0.42 s, against 0.52 s with the
 * names decoded ahead too, when the prefetch still decoded the records;
 * it now leaves them to visit_in_chunks). */
static enum iolens_read_status parse_decoded_region(struct iolens_stream *s, unsigned i,
                                                    struct rd_prefetch *ahead,
                                                    iolens_stream_layer_fn fn, void *ctx)
{
    const struct iolens_log *scratch;
    enum iolens_read_status st;
    if (ahead != NULL && is_layer(s->table[i].kind)) {
        if ((st = rd_prefetch_take(ahead, i, &s->r, &scratch)) != IOLENS_READ_OK)
            return st;
        st = visit_in_chunks(s, rd_prefetch_reader(ahead), fn, ctx);
        rd_prefetch_release(ahead);
        return st;
    }
    bool names = s->table[i].kind == IOLENS_REGION_NAMES;
    if (names && i < s->names_ahead)
        return IOLENS_READ_OK; /* read by read_names_ahead */
    st = names ? decode_names(s, i) : decode_layer(s, i);
    if (st != IOLENS_READ_OK)
        return st;
    if (names || s->chunked_region < 0)
        return visit_decoded(s, i, names ? &s->nam : &s->lay, fn, ctx);
    do { /* at least once: a region of no records is visited too */
        const struct iolens_log_layer *L;
        if ((st = next_chunk(s, &L)) != IOLENS_READ_OK ||
            (st = visit_layer(s, L, fn, ctx)) != IOLENS_READ_OK)
            return st;
    } while (chunks_left(s));
    return IOLENS_READ_OK;
}

static enum iolens_read_status parse_one(struct iolens_stream *s, unsigned i,
                                         struct rd_prefetch *ahead, iolens_stream_layer_fn fn,
                                         void *ctx)
{
    const struct iolens_region_desc *d = &s->table[i];
    if (!known(d)) {
        s->log.unknown_regions++;
        return IOLENS_READ_OK;
    }
    if (d->kind == IOLENS_REGION_NAMES || is_layer(d->kind))
        return parse_decoded_region(s, i, ahead, fn, ctx);
    enum iolens_read_status st;
    if ((st = load_region(s, i)) != IOLENS_READ_OK ||
        (st = rd_check_region_crc(&s->r, i, d, s->buf)) != IOLENS_READ_OK)
        return st;
    size_t before = s->log.ninterval_sets;
    st = rd_parse_region(&s->r, i, d, s->buf);
    /* Only the intervals' heads are kept (their rank check). */
    for (size_t k = before; k < s->log.ninterval_sets; k++) {
        struct iolens_log_intervals *set = &s->log.intervals[k];
        rd_free_interval_set(set);
        set->start = set->end = set->busy = NULL;
        set->bytes = NULL;
        set->file_id = NULL;
        set->accesses = set->flags = NULL;
    }
    return st;
}

/* The ids of names region i, decoded into names, to the names blocks and
 * the id index (in that order, as parse_names and add_ids did it). */
static enum iolens_read_status index_names(struct iolens_stream *s, const struct iolens_log *names,
                                           unsigned i)
{
    if (!rd_blocks_add(&s->blocks, i, names->names, names->nnames))
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    return add_ids(s, names, i);
}

/* The names regions decoded ahead on a second thread (inflated and
 * parsed, for their ids alone), when there are two or more; NULL: decoded
 * in turn. */
static struct rd_prefetch *start_names_prefetch(struct iolens_stream *s)
{
    unsigned count = s->h.region_count, n = 0;
    unsigned *names = malloc(((size_t)count + 1) * sizeof *names);
    if (names == NULL)
        return NULL;
    for (unsigned i = 0; i < count; i++)
        if (s->table[i].kind == IOLENS_REGION_NAMES && known(&s->table[i]))
            names[n++] = i;
    struct rd_prefetch *ahead =
        n >= 2 ? rd_prefetch_start(&s->src, names, n, &s->nr, false) : NULL;
    free(names);
    return ahead;
}

/* Every names region decoded before the rest, in table order, for the id
 * index and the names blocks, which the layer and intervals regions after
 * them refer to (log_format.h).  Only their ids are wanted here, so their
 * names are not copied; the second thread inflates and parses the next
 * names region while this one indexes the ids of the last (perf, 10^6
 * names over 8 ranks: 0.30 s of the main thread before, 0.16 s after).  A
 * names region that fails stops it: the regions from there on are read in
 * turn, so that the first damage in table order is the one reported, as
 * reader.c reports it. */
static void read_names_ahead(struct iolens_stream *s)
{
    unsigned count = s->h.region_count, i = 0;
    s->nr.names_ids_only = true;
    struct rd_prefetch *ahead = start_names_prefetch(s);
    for (; i < count; i++) {
        const struct iolens_region_desc *d = &s->table[i];
        if (d->kind != IOLENS_REGION_NAMES || !known(d))
            continue;
        const struct iolens_log *names = &s->nam;
        enum iolens_read_status st = ahead != NULL ? rd_prefetch_take(ahead, i, &s->nr, &names)
                                                   : decode_names(s, i);
        if (st == IOLENS_READ_OK)
            st = index_names(s, names, i);
        if (ahead != NULL && names != NULL)
            rd_prefetch_release(ahead);
        if (st != IOLENS_READ_OK)
            break;
    }
    rd_prefetch_stop(ahead);
    s->nr.names_ids_only = false;
    s->names_region = -1; /* its names were not kept */
    s->names_ahead = i;
}

/* The layer regions decoded ahead on a second thread, when there are two
 * or more and none is huge (decoding ahead holds two regions at once:
 * worth it for many regions of a few MiB, a rank's part at the default
 * budget, not for a few huge ones, whose memory it would double for
 * little gain).  NULL: decoded in turn, as they are if the thread cannot
 * be made. */
static struct rd_prefetch *start_prefetch(struct iolens_stream *s)
{
    unsigned count = s->h.region_count, n = 0;
    unsigned *layers = malloc(((size_t)count + 1) * sizeof *layers);
    if (layers == NULL)
        return NULL;
    bool huge = false;
    for (unsigned i = 0; i < count; i++)
        if (known(&s->table[i]) && is_layer(s->table[i].kind)) {
            layers[n++] = i;
            huge = huge || is_huge(s, &s->table[i]);
        }
    struct rd_prefetch *ahead =
        n >= 2 && !huge ? rd_prefetch_start(&s->src, layers, n, &s->lr, true) : NULL;
    free(layers);
    return ahead;
}

static enum iolens_read_status open_all(struct iolens_stream *s, iolens_stream_layer_fn fn,
                                        void *ctx)
{
    /* The header, then as much of the region table as the header says
     * (rd_check_header checks the count against the limit and the file). */
    size_t n = s->size < sizeof s->h ? s->size : sizeof s->h;
    unsigned char head[sizeof s->h];
    if (!read_at(s, 0, n, head))
        return IOLENS_READ_IO;
    if (n == sizeof s->h) {
        struct iolens_file_header h;
        memcpy(&h, head, sizeof h);
        uint32_t count = h.region_count < IOLENS_MAX_REGIONS ? h.region_count : IOLENS_MAX_REGIONS;
        size_t want = sizeof h + (size_t)count * sizeof(struct iolens_region_desc);
        n = s->size < want ? s->size : want;
    }
    s->prefix = malloc(n + 1);
    if (s->prefix == NULL)
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    if (!read_at(s, 0, n, s->prefix))
        return IOLENS_READ_IO;
    s->r.data = s->prefix;
    enum iolens_read_status st = rd_check_header(&s->r, &s->h);
    if (st != IOLENS_READ_OK)
        return st;
    s->log.version = s->h.version;
    s->log.flags = s->h.flags;
    unsigned count = s->h.region_count;
    s->data_start = sizeof s->h + (size_t)count * sizeof *s->table;
    s->table = malloc(((size_t)count + 1) * sizeof *s->table);
    if (s->table == NULL)
        return rd_fail(&s->r, IOLENS_READ_NOMEM, "out of memory");
    memcpy(s->table, s->prefix + sizeof s->h, (size_t)count * sizeof *s->table);
    s->src.table = s->table;
    st = rd_check_log_size(&s->r, s->table, count);

    for (unsigned i = 0; i < count && st == IOLENS_READ_OK; i++) {
        st = rd_check_region_bounds(&s->r, i, &s->table[i], s->data_start);
        if (st == IOLENS_READ_OK)
            st = load_region(s, i);
        if (st == IOLENS_READ_OK)
            st = rd_check_region_crc(&s->r, i, &s->table[i], s->buf);
    }
    if (st == IOLENS_READ_OK)
        read_names_ahead(s);
    struct rd_prefetch *ahead = st == IOLENS_READ_OK ? start_prefetch(s) : NULL;
    for (unsigned i = 0; i < count && st == IOLENS_READ_OK; i++)
        st = parse_one(s, i, ahead, fn, ctx);
    rd_prefetch_stop(ahead);
    if (st != IOLENS_READ_OK)
        return st;
    if (!s->r.seen_job)
        return rd_fail(&s->r, IOLENS_READ_CORRUPT, "corrupt: no job region");
    if ((st = finish_ids(s)) != IOLENS_READ_OK)
        return st;
    if ((st = rd_check_interval_ranks(&s->r)) != IOLENS_READ_OK)
        return st;
    if ((st = rd_check_ranks_region(&s->r)) != IOLENS_READ_OK)
        return st;
    return check_record_ranks(s);
}

/* The file: opened for pread, or read whole when it is not a regular file
 * (a pipe), at most what a log within the limit can hold.  0 or an errno
 * value (EFBIG: more than *max bytes arrived; *max 0: the limit could
 * not be known, the reason in err). */
static int open_file(struct iolens_stream *s, const char *path, uint64_t *max)
{
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0)
        return errno;
    struct stat sb;
    if (fstat(s->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        s->size = (size_t)sb.st_size;
        return 0;
    }
    struct reader lr = {.err = s->err, .errsz = s->errsz};
    if ((*max = rd_stored_bound(&lr)) == 0)
        return EINVAL;
    int e = rd_slurp(s->fd, *max, &s->mem_owned, &s->size);
    s->mem = s->mem_owned;
    return e;
}

/* A Darshan log arrived on a pipe: it has no regions to stream, and is
 * small beside its job's iolens log, so it is read whole (as from a file)
 * into s->log. */
static enum iolens_read_status open_darshan(struct iolens_stream *s)
{
    s->whole = true;
    return iolens_log_read_buffer(s->mem, s->size, &s->log, s->err, s->errsz);
}

enum iolens_read_status iolens_stream_open(const char *path, iolens_stream_layer_fn fn,
                                           void *ctx, struct iolens_stream **out, char *err,
                                           size_t errsz)
{
    *out = NULL;
    if (err != NULL && errsz > 0)
        err[0] = '\0';
    struct iolens_stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        if (err != NULL && errsz > 0)
            snprintf(err, errsz, "%s", strerror(ENOMEM));
        return IOLENS_READ_NOMEM;
    }
    s->fd = -1;
    s->names_region = -1;
    s->chunked_region = -1;
    s->huge_above = huge_raw_size();
    s->err = err;
    s->errsz = errsz;
    uint64_t max = 1;
    int e = open_file(s, path, &max);
    s->src = (struct rd_source){.fd = s->fd, .mem = s->mem};
    if (e != 0) {
        if (err != NULL && errsz > 0 && e == EFBIG)
            snprintf(err, errsz, "more than %llu bytes arrived, more than a log within the "
                     "limit can hold (IOLENS_MAX_LOG_SIZE)", (unsigned long long)max);
        else if (err != NULL && errsz > 0 && max > 0)
            snprintf(err, errsz, "%s", strerror(e));
        iolens_stream_close(s);
        return e == ENOMEM || e == EFBIG ? IOLENS_READ_NOMEM : IOLENS_READ_IO;
    }
    s->r = (struct reader){.size = s->size, .log = &s->log, .err = err, .errsz = errsz,
                           .blocks = &s->blocks};
    s->lr = (struct reader){.size = s->size, .log = &s->lay, .err = err, .errsz = errsz,
                            .blocks = &s->blocks};
    s->nr = (struct reader){.size = s->size, .log = &s->nam, .err = err, .errsz = errsz};
    enum iolens_read_status st = s->mem != NULL && dn_is_darshan(s->mem, s->size)
                                     ? open_darshan(s)
                                     : open_all(s, fn, ctx);
    if (st != IOLENS_READ_OK) {
        iolens_stream_close(s);
        return st;
    }
    /* From here on errors are kept in the stream (iolens_stream_error). */
    s->err = s->errbuf;
    s->errsz = sizeof s->errbuf;
    s->r.err = s->lr.err = s->nr.err = s->errbuf;
    s->r.errsz = s->lr.errsz = s->nr.errsz = sizeof s->errbuf;
    *out = s;
    return st;
}

void iolens_stream_close(struct iolens_stream *s)
{
    if (s == NULL)
        return;
    if (s->fd >= 0)
        close(s->fd);
    free(s->mem_owned);
    free(s->prefix);
    free(s->table);
    iolens_log_free(&s->log);
    iolens_log_free(&s->lay);
    iolens_log_free(&s->nam);
    rd_reader_release(&s->r);
    rd_reader_release(&s->lr);
    rd_reader_release(&s->nr);
    free(s->ids);
    rd_blocks_free(&s->blocks);
    for (size_t k = 0; k < s->nkinds; k++)
        free(s->track[k].max);
    free(s->buf);
    free(s);
}

/* -------------------------------------------------------------- visit -- */

const struct iolens_log *iolens_stream_log(const struct iolens_stream *s) { return &s->log; }

const struct iolens_log *iolens_stream_whole_log(const struct iolens_stream *s)
{
    return s->whole ? &s->log : NULL;
}

size_t iolens_stream_kinds(const struct iolens_stream *s, const uint32_t **kinds)
{
    *kinds = s->kinds;
    return s->nkinds;
}

static enum iolens_read_status stream_failed(struct iolens_stream *s, enum iolens_read_status st)
{
    if (st != IOLENS_READ_OK)
        s->failed = true;
    return st;
}

enum iolens_read_status iolens_stream_next(struct iolens_stream *s, uint32_t kind, unsigned *pos,
                                           const struct iolens_log_layer **L)
{
    *L = NULL;
    /* The rest of a huge region, a chunk a call. */
    if (chunks_left(s) && *pos == (unsigned)s->chunked_region + 1 &&
        s->table[s->chunked_region].kind == kind)
        return stream_failed(s, next_chunk(s, L));
    for (unsigned i = *pos; i < s->h.region_count; i++) {
        const struct iolens_region_desc *d = &s->table[i];
        if (d->kind != kind || !known(d))
            continue;
        *pos = i + 1;
        enum iolens_read_status st = stream_failed(s, decode_layer(s, i));
        if (st == IOLENS_READ_OK && s->chunked_region >= 0)
            st = stream_failed(s, next_chunk(s, L));
        else if (st == IOLENS_READ_OK)
            *L = scratch_layer(s, kind);
        return st;
    }
    *pos = s->h.region_count;
    return IOLENS_READ_OK;
}

const char *iolens_stream_name_of(struct iolens_stream *s, uint64_t id)
{
    /* A rank's records are named by the names region just before them,
     * which is then the one decoded: looked up first, it spares most
     * records the search of the id index (a cache miss a step).  The open
     * checked that no id is named twice, so a name found there is the
     * only one. */
    if (s->names_region >= 0) {
        const char *name = decoded_name_of(s, id);
        if (name != NULL)
            return name;
    }
    size_t lo = 0, hi = s->nids;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->ids[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->nids || s->ids[lo].id != id)
        return NULL;
    uint32_t region = s->ids[lo].region;
    if (s->names_region != (long)region &&
        stream_failed(s, decode_names(s, region)) != IOLENS_READ_OK)
        return NULL;
    return decoded_name_of(s, id);
}

const char *iolens_stream_error(const struct iolens_stream *s)
{
    return s->failed ? s->errbuf : NULL;
}
