#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record_merge.h"
#include "format/sat_math.h"
#include "report/report_text.h"

/*
 * --total: the records of a layer combined by the AGG rules of the counter
 * tables (format/record_merge.c), as the runtime combines the per-rank
 * records of a shared file, except that each top table (ACCESSn, STRIDEn)
 * is recomputed from the (tuple, count) entries of every record at once.  The
 * sharing counters (RANK_STAT) are the rank statistics over the records
 * themselves, each record counting as one rank with its own rank field:
 * RANKS_OPENED counts the records that opened their file, RANKS_IO those
 * that read or wrote, FASTEST/SLOWEST_RANK are the rank fields of the
 * records with the least/most I/O time (-1 for a shared record, and when
 * there are no records), and the variances are over the records.
 */

/* --total, on a streamed log and on a whole one alike: each layer region's
 * (or whole layer's) records are combined into the running total of their
 * kind as it is read (iolens_totals_add_region), as described above: the records
 * merged in the order of the whole log's layer (top tables left out of
 * the merge), and each top table's entries combined tuple by tuple
 * as they come (equal tuples add up whatever the grouping, as the counts
 * are positive and add saturating), ranked once at the end. */
struct top_acc {
    struct iolens_top_table t;
    struct iolens_top_entry *e;   /* distinct tuples, sorted by tuple */
    size_t n, cap;
    size_t known;                 /* e[0..known): sorted and distinct; the
                                   * rest added by the region being read */
    int64_t state;                /* IOLENS_TOP_* of the records so far */
    int has;                      /* whether any record had an entry */
};

struct kind_total {
    const struct iolens_layer_desc *d;
    struct iolens_log_layer shape;   /* kind and counter counts (iolens_usable_counters) */
    void *total, *rec;
    struct iolens_rank_stats rs;
    uint64_t records;
    struct top_acc *tops;
    size_t ntops;
    /* A Darshan log: the counters it lacks, and per counter the records
     * where Darshan wrote -1, "not monitored" (when every record says so,
     * so does the total, as darshan-parser --total prints it). */
    unsigned char *absent;
    uint64_t *unmonitored;
};

struct iolens_totals {
    struct kind_total k[16];
    size_t n;
};

static int top_acc_init(struct kind_total *kt)
{
    struct iolens_top_table t;
    for (uint32_t i = 0; i < kt->d->ncounters;) {
        uint32_t next = iolens_record_top_table(kt->d, i, &t);
        if (next == 0) {
            i++;
            continue;
        }
        struct top_acc *p = realloc(kt->tops, (kt->ntops + 1) * sizeof *p);
        if (p == NULL)
            return -1;
        kt->tops = p;
        kt->tops[kt->ntops++] = (struct top_acc){.t = t};
        i = next;
    }
    return 0;
}

static struct kind_total *kind_total_of(struct iolens_totals *T, const struct iolens_log_layer *L)
{
    for (size_t i = 0; i < T->n; i++)
        if (T->k[i].shape.kind == L->kind)
            return &T->k[i];
    if (T->n == sizeof T->k / sizeof T->k[0])
        return NULL;
    struct kind_total *kt = &T->k[T->n++];
    memset(kt, 0, sizeof *kt);
    kt->shape.kind = L->kind;
    kt->shape.counter_count = L->counter_count;
    kt->shape.fcounter_count = L->fcounter_count;
    kt->d = iolens_layer_desc_by_kind(L->kind);
    if (kt->d == NULL)
        return kt;
    kt->total = calloc(1, kt->d->record_size);
    kt->rec = malloc(kt->d->record_size);
    iolens_rank_stats_init(&kt->rs);
    if (kt->total == NULL || kt->rec == NULL || top_acc_init(kt) != 0)
        return NULL;
    return kt;
}

/* Index of tuple x among the distinct tuples e[0..n) (sorted), or -1. */
static long top_find(const struct iolens_top_entry *e, size_t n, const struct iolens_top_entry *x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = iolens_top_entry_cmp_tuple(&e[mid], x);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Counter i of a record's row of cc counters, 0 if the row has no such
 * counter (as iolens_log_counter, without a call per value). */
static inline int64_t counter_in_row(const int64_t *row, uint32_t cc, int i)
{
    return i >= 0 && (uint32_t)i < cc ? row[i] : 0;
}

/* The entries of records [from, to) of a region added to a top table's
 * tuples: a tuple already there before the region adds its count in
 * place (the common case: a job has few distinct access sizes and
 * strides); new ones are appended, then sorted and combined once for the
 * region (top_acc_settle).  a->known: the tuples before the region. */
static int top_acc_add_rows(struct top_acc *a, const struct iolens_log_layer *L, uint64_t from,
                            uint64_t to)
{
    const struct iolens_top_table *t = &a->t;
    size_t known = a->known, n = a->n;
    uint32_t cc = L->counter_count;
    for (uint64_t r = from; r < to; r++) {
        const int64_t *row = L->counters + r * cc;
        int has = 0;
        for (uint32_t j = 0; j < t->k; j++)
            has |= counter_in_row(row, cc, t->count[j]) > 0;
        /* Whether the union has more values than the table is settled
         * at the end (print_kind_total): 0 distinct values here. */
        a->state = iolens_top_state_merge(a->state, a->has, counter_in_row(row, cc, t->state),
                                          has, 0, t->k);
        a->has |= has;
        for (uint32_t j = 0; j < t->k; j++) {
            struct iolens_top_entry x = {.count = counter_in_row(row, cc, t->count[j])};
            if (x.count <= 0)
                continue;
            for (uint32_t s = 0; s < t->width; s++)
                x.value[s] = counter_in_row(row, cc, t->value[j] + (int)s);
            long at = top_find(a->e, known, &x);
            if (at >= 0) {
                a->e[at].count = iolens_sat_add(a->e[at].count, x.count);
                continue;
            }
            if (n == a->cap) {
                size_t cap = a->cap ? a->cap * 2 : 64;
                struct iolens_top_entry *p = realloc(a->e, cap * sizeof *p);
                if (p == NULL)
                    return -1;
                a->e = p;
                a->cap = cap;
            }
            a->e[n++] = x;
        }
    }
    a->n = n;
    return 0;
}

/* The end of a region: the tuples it added sorted among the others. */
static void top_acc_settle(struct top_acc *a)
{
    if (a->n > a->known) {
        qsort(a->e, a->n, sizeof *a->e, iolens_top_entry_cmp_tuple);
        a->n = iolens_top_entries_combine_sorted(a->e, a->n);
    }
    a->known = a->n;
}

/* What a Darshan log's layer adds to kt: its absent counters and -1s. */
static int track_darshan(struct kind_total *kt, const struct iolens_log_layer *L)
{
    uint32_t nc = L->counter_count < kt->d->ncounters ? L->counter_count : kt->d->ncounters;
    if (kt->unmonitored == NULL) {
        kt->unmonitored = calloc((size_t)kt->d->ncounters + 1, sizeof *kt->unmonitored);
        kt->absent = calloc((size_t)kt->d->ncounters + kt->d->nfcounters + 1, 1);
        if (kt->unmonitored == NULL || kt->absent == NULL)
            return -1;
        for (uint32_t i = 0; i < nc; i++)
            kt->absent[i] = iolens_log_counter_absent(L, (int)i);
        for (uint32_t i = 0; i < kt->d->nfcounters; i++)
            kt->absent[kt->d->ncounters + i] = iolens_log_fcounter_absent(L, (int)i);
    }
    for (uint64_t r = 0; r < L->record_count; r++)
        for (uint32_t i = 0; i < nc; i++)
            kt->unmonitored[i] += L->counters[r * L->counter_count + i] == -1;
    return 0;
}

/* Rows merged at a time: their counters (some 120 KB at 128 POSIX rows)
 * stay in the cache for the three passes over them (rank statistics,
 * the counters' merge, the top tables); a pass over a whole region (up
 * to 6.25 MiB) read each row from memory three times. */
#define TOTAL_ROWS_BLOCK 128

/* The layer's zero columns (reader.h) in the merge's terms: a flag for
 * each counter then each fcounter of the layer.  L's flags line up with
 * them only when L has exactly the layer's counters; rows of a newer
 * layout (more counters, which add_whole_rows also takes) get none, and
 * are merged column by column as before. */
static const unsigned char *zero_flags_of(const struct kind_total *kt,
                                          const struct iolens_log_layer *L)
{
    if (L->zero == NULL || L->counter_count != kt->d->ncounters ||
        L->fcounter_count != kt->d->nfcounters)
        return NULL;
    return L->zero;
}

/* Rows [from, to) of a region with every counter of its layer. */
static int add_whole_rows(struct kind_total *kt, const struct iolens_log_layer *L, uint64_t from,
                          uint64_t to)
{
    const struct iolens_layer_desc *d = kt->d;
    size_t cc = L->counter_count, fc = L->fcounter_count;
    for (uint64_t r = from; r < to; r++)
        iolens_rank_stats_add_row(&kt->rs, d, L->rank[r], L->counters + r * cc,
                                  L->fcounters + r * fc);
    iolens_record_merge_rows_no_top(d, kt->total, L->counters + from * cc, cc,
                                    L->fcounters + from * fc, fc, (size_t)(to - from),
                                    zero_flags_of(kt, L));
    for (size_t i = 0; i < kt->ntops; i++)
        if (top_acc_add_rows(&kt->tops[i], L, from, to) != 0)
            return -1;
    return 0;
}

/* One record of a region, on its own: the first of the whole log (it
 * begins the total) or one of an older layout (fewer counters). */
static int add_one_record(struct kind_total *kt, const struct iolens_log_layer *L, uint64_t r)
{
    const struct iolens_layer_desc *d = kt->d;
    iolens_log_record_load(L, r, d, kt->rec);
    if (kt->records + r == 0)
        iolens_record_merge_begin(d, kt->total, kt->rec);
    else
        iolens_record_merge_no_top(d, kt->total, kt->rec);
    iolens_rank_stats_add(&kt->rs, d, L->rank[r], kt->rec);
    for (size_t i = 0; i < kt->ntops; i++)
        if (top_acc_add_rows(&kt->tops[i], L, r, r + 1) != 0)
            return -1;
    return 0;
}

int iolens_totals_add_region(void *ctx, const struct iolens_log_layer *L)
{
    struct kind_total *kt = kind_total_of(ctx, L);
    if (kt == NULL)
        return -1;
    if (kt->d == NULL)
        return 0;
    const struct iolens_layer_desc *d = kt->d;
    /* Rows with every counter of the layer are merged in blocks; rows of
     * an older layout (fewer counters) a record at a time. */
    bool whole = L->counter_count >= d->ncounters && L->fcounter_count >= d->nfcounters;
    uint64_t r = 0;
    if (!whole || kt->records == 0) {
        uint64_t alone = whole ? (L->record_count > 0) : L->record_count;
        for (; r < alone; r++)
            if (add_one_record(kt, L, r) != 0)
                return -1;
    }
    for (; r < L->record_count; r += TOTAL_ROWS_BLOCK) {
        uint64_t to = L->record_count - r < TOTAL_ROWS_BLOCK ? L->record_count : r + TOTAL_ROWS_BLOCK;
        if (add_whole_rows(kt, L, r, to) != 0)
            return -1;
    }
    if (L->absent != NULL && track_darshan(kt, L) != 0)
        return -1;
    kt->records += L->record_count;
    for (size_t i = 0; i < kt->ntops; i++)
        top_acc_settle(&kt->tops[i]);
    return 0;
}

static void print_kind_total(FILE *out, struct kind_total *kt)
{
    const struct iolens_layer_desc *d = kt->d;
    iolens_rank_stats_store(&kt->rs, d, kt->total);
    int64_t *totals = iolens_rec_counters(kt->total);
    for (size_t i = 0; i < kt->ntops; i++) {
        struct top_acc *a = &kt->tops[i];
        if (a->n > 0)
            qsort(a->e, a->n, sizeof *a->e, iolens_top_entry_cmp_rank);
        for (uint32_t j = 0; j < a->t.k; j++)
            iolens_top_entry_put(&a->t, j, j < a->n ? &a->e[j] : NULL, totals);
        if (a->t.state >= 0)
            totals[a->t.state] = a->state == IOLENS_TOP_EXACT_ALL && a->n > a->t.k
                                     ? IOLENS_TOP_EXACT
                                     : a->state;
    }
    uint32_t nc = iolens_usable_counters(&kt->shape), nf = iolens_usable_fcounters(&kt->shape);
    for (uint32_t i = 0; i < nc; i++) {
        if (kt->absent != NULL && kt->absent[i])
            fprintf(out, "total_%s: not in a Darshan log\n", d->counter_names[i]);
        else if (kt->unmonitored != NULL && kt->records > 0 && kt->unmonitored[i] == kt->records)
            fprintf(out, "total_%s: -1\n", d->counter_names[i]);
        else
            fprintf(out, "total_%s: %" PRId64 "\n", d->counter_names[i], totals[i]);
    }
    for (uint32_t i = 0; i < nf; i++) {
        if (kt->absent != NULL && kt->absent[d->ncounters + i])
            fprintf(out, "total_%s: not in a Darshan log\n", d->fcounter_names[i]);
        else
            fprintf(out, "total_%s: %.6f\n", d->fcounter_names[i],
                    iolens_rec_fcounters(d, kt->total)[i]);
    }
}

/* What T holds, not T itself. */
static void totals_release(struct iolens_totals *T)
{
    for (size_t i = 0; i < T->n; i++) {
        free(T->k[i].total);
        free(T->k[i].rec);
        for (size_t j = 0; j < T->k[i].ntops; j++)
            free(T->k[i].tops[j].e);
        free(T->k[i].tops);
        free(T->k[i].absent);
        free(T->k[i].unmonitored);
    }
}

void iolens_totals_print(FILE *out, struct iolens_totals *T)
{
    for (size_t i = 0; i < T->n; i++)
        if (T->k[i].d != NULL)
            print_kind_total(out, &T->k[i]);
}

/* --total on a whole log: each layer is one region. */
int iolens_report_total(FILE *out, const struct iolens_log *log)
{
    struct iolens_totals T = {.n = 0};
    int rc = 0;
    for (size_t l = 0; rc == 0 && l < log->nlayers; l++)
        rc = iolens_totals_add_region(&T, &log->layers[l]);
    if (rc == 0)
        iolens_totals_print(out, &T);
    totals_release(&T);
    return rc;
}

struct iolens_totals *iolens_totals_new(void)
{
    return calloc(1, sizeof(struct iolens_totals));
}

void iolens_totals_free(struct iolens_totals *T)
{
    if (T == NULL)
        return;
    totals_release(T);
    free(T);
}
