/*
 * BPS analysis (see bps.h).
 *
 * B counts every byte requested at a layer: the per-layer totals the
 * runtime keeps beside the stored intervals, which count every access even
 * after the store compacted.  T is the union of the access times of every
 * rank, each rank's intervals shifted by its host's clock offset
 * (clock_offset_of below).  Once a store compacted, an interval stands for
 * several accesses and the idle gaps between them; it keeps their summed
 * durations (busy), and each rank's layer says whether its accesses
 * overlapped each other.  analysis/interval_bounds.h turns that into bounds
 * that always hold (T never above the summed access time nor the time
 * from the first access to the last) and an estimate between them, exact
 * for one serial process and for ranks whose intervals do not overlap.
 * Each rank's layer is a group there.  (Wrong clock offsets are another
 * matter: the parser prints each rank's offset and uncertainty.)
 *
 * A file is shared when a layer has a record of it reduced across ranks
 * (rank IOLENS_RANK_ALL), or when intervals of it are in more than one
 * rank's region.  Its figures use the intervals with its id; the error
 * bound is the layer's (its merged gaps are part of that), and the sum of
 * access durations comes from its records (read and write time), because
 * the store may have merged its concurrent accesses.
 */
#include "analysis/bps.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/interval_bounds.h"
#include "format/compare.h"
#include "format/interval_union.h"
#include "format/record_merge.h"
#include "format/sat_math.h"

/* The host of a rank (index into the job's host list), or -1 if unknown. */
static int64_t host_of(const struct iolens_log *log, int64_t rank)
{
    if (rank < 0 || (size_t)rank >= log->nranks)
        return -1;
    return log->ranks[rank].host_index;
}

/*
 * The clock offset applied to the intervals of s.  Ranks on one host read
 * one clock, so their true offset to each other is 0 and a ping-pong
 * estimate only adds its noise (milliseconds when ranks oversubscribe the
 * cores).  A rank therefore takes its host's best estimate: 0 on rank 0's
 * host, else the estimate with the smallest uncertainty among the ranks of
 * its host.  Without host information, its own estimate.
 */
static double clock_offset_of(const struct iolens_log *log, const struct iolens_log_intervals *s)
{
    int64_t host = host_of(log, s->rank);
    if (host < 0)
        return s->clock_offset;
    if (host == host_of(log, 0))
        return 0.0;
    const struct iolens_log_intervals *best = s;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *o = &log->intervals[i];
        if (host_of(log, o->rank) == host && o->clock_uncertainty < best->clock_uncertainty)
            best = o;
    }
    return best->clock_offset;
}

/* Interval j of s, on rank 0's clock (off = clock_offset_of(log, s)). */
static struct iolens_span span_at(const struct iolens_log_intervals *s, uint64_t j, double off)
{
    return (struct iolens_span){s->start[j] + off, s->end[j] + off};
}

/* ------------------------------------------------------------ layers -- */

/* The layers with access intervals: those that carry data, in table
 * order (IOLENS_LAYERS). */
#define BPS_NKINDS ((size_t)IOLENS_NDATA_LAYERS)

static uint32_t bps_kind(size_t k)
{
    return iolens_data_layer_at((unsigned)k)->region_kind;
}

static uint64_t intervals_of_kind(const struct iolens_log *log, uint32_t kind)
{
    uint64_t n = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (s->kind == kind)
            n += s->count;
    }
    return n;
}

static bool has_kind(const struct iolens_log *log, uint32_t kind)
{
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (s->kind == kind)
            return true;
    }
    return false;
}

static bool kind_in(uint32_t kind, const uint32_t *kinds, size_t nkinds)
{
    for (size_t k = 0; k < nkinds; k++)
        if (kinds[k] == kind)
            return true;
    return false;
}

/* The groups of analysis/interval_bounds.h: one per interval set (a rank's
 * layer).  whole: the items will be all of each set's intervals, so the
 * set's own floor (sum_duration - overlap) holds; else a subset, floor 0. */
static struct iolens_union_group *set_groups(const struct iolens_log *log, bool whole)
{
    size_t n = log->ninterval_sets;
    struct iolens_union_group *g = malloc((n > 0 ? n : 1) * sizeof *g);
    for (size_t i = 0; g != NULL && i < n; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        double floor = s->sum_duration - s->overlap;
        g[i] = (struct iolens_union_group){.disjoint = s->overlap == 0,
                                           .floor = whole && floor > 0 ? floor : 0};
    }
    return g;
}

/* Bounds of the items (any order); 0 or -1. */
static int bound_items(const struct iolens_log *log, struct iolens_union_item *it, size_t n,
                       bool whole, double error_bound, struct iolens_union_bounds *b)
{
    struct iolens_union_group *g = set_groups(log, whole);
    int rc = g != NULL ? iolens_union_bounds(it, n, g, log->ninterval_sets, error_bound, b) : -1;
    free(g);
    return rc;
}

static struct iolens_union_item item_at(const struct iolens_log_intervals *s, size_t set,
                                        uint64_t j, double off)
{
    return (struct iolens_union_item){s->start[j] + off, s->end[j] + off, s->busy[j], set};
}

/* The figures of the intervals of several layers together (one layer:
 * the layer's row).  row->kind is kinds[0]. */
int iolens_bps_union(const struct iolens_log *log, const uint32_t *kinds, size_t nkinds,
                     struct iolens_bps *row)
{
    uint64_t total = 0;
    for (size_t k = 0; k < nkinds; k++)
        total += intervals_of_kind(log, kinds[k]);
    if (total > SIZE_MAX / sizeof(struct iolens_union_item))
        return -1;
    struct iolens_union_item *it = malloc((total > 0 ? (size_t)total : 1) * sizeof *it);
    if (it == NULL)
        return -1;
    *row = (struct iolens_bps){.kind = nkinds > 0 ? kinds[0] : 0};
    size_t n = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (!kind_in(s->kind, kinds, nkinds))
            continue;
        row->accesses += s->total_accesses;
        row->bytes = iolens_sat_add(row->bytes, s->total_bytes);
        row->error_bound += s->error_bound;
        row->access_time += s->sum_duration;
        double off = clock_offset_of(log, s);
        for (uint64_t j = 0; j < s->count; j++) {
            it[n++] = item_at(s, i, j, off);
            if (s->flags[j] & IOLENS_IV_MIXED)
                row->mixed++;
        }
    }
    row->intervals = n;
    struct iolens_union_bounds b;
    int rc = bound_items(log, it, n, true, row->error_bound, &b);
    free(it);
    row->time = b.estimate;
    row->time_lower = b.lower;
    row->time_upper = b.upper;
    return rc;
}

int iolens_bps_direction(const struct iolens_log *log, uint32_t kind, uint32_t flag,
                         struct iolens_bps_direction *out)
{
    uint64_t total = intervals_of_kind(log, kind);
    if (total > SIZE_MAX / sizeof(struct iolens_union_item))
        return -1;
    struct iolens_union_item *it = malloc((total > 0 ? (size_t)total : 1) * sizeof *it);
    if (it == NULL)
        return -1;
    const uint32_t both = IOLENS_IV_READ | IOLENS_IV_WRITE;
    *out = (struct iolens_bps_direction){0};
    size_t n = 0;
    double error_bound = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (s->kind != kind)
            continue;
        error_bound += s->error_bound;
        double off = clock_offset_of(log, s);
        for (uint64_t j = 0; j < s->count; j++) {
            if ((s->flags[j] & both) == both) {
                out->rw_merged++;
            } else if (s->flags[j] & flag) {
                it[n++] = item_at(s, i, j, off);
                out->accesses += s->accesses[j];
                out->bytes = iolens_sat_add(out->bytes, s->bytes[j]);
            }
        }
    }
    out->intervals = n;
    struct iolens_union_bounds b;
    int rc = bound_items(log, it, n, false, error_bound, &b);
    free(it);
    out->time = b.estimate;
    out->time_lower = b.lower;
    out->time_upper = b.upper;
    out->mib_per_s = out->time > 0 ? (double)out->bytes / out->time / 1048576.0 : NAN;
    return rc;
}

/* The figures of a whole layer. */
static int layer_row(const struct iolens_log *log, uint32_t kind, struct iolens_bps *row)
{
    return iolens_bps_union(log, &kind, 1, row);
}

/* ------------------------------------------------------ shared files -- */

struct id_rank {
    uint64_t id;
    int64_t rank;
};

static int by_id_rank(const void *a, const void *b)
{
    const struct id_rank *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static uint64_t all_intervals(const struct iolens_log *log)
{
    uint64_t n = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        n += s->count;
    }
    return n;
}

/* Appends the ids of files whose intervals are on more than one rank. */
static int add_multi_rank_ids(const struct iolens_log *log, uint64_t *ids, size_t *nids)
{
    uint64_t total = all_intervals(log);
    if (total > SIZE_MAX / sizeof(struct id_rank))
        return -1;
    struct id_rank *p = malloc((total > 0 ? (size_t)total : 1) * sizeof *p);
    if (p == NULL)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        for (uint64_t j = 0; j < s->count; j++)
            p[n++] = (struct id_rank){s->file_id[j], s->rank};
    }
    if (n > 0)
        qsort(p, n, sizeof *p, by_id_rank);
    for (size_t i = 1; i < n; i++)
        if (p[i].id == p[i - 1].id && p[i].rank != p[i - 1].rank &&
            (*nids == 0 || ids[*nids - 1] != p[i].id))
            ids[(*nids)++] = p[i].id;
    free(p);
    return 0;
}

/* The sorted, distinct ids of the shared files (*ids malloc'd). */
static int shared_ids(const struct iolens_log *log, uint64_t **ids, size_t *nids)
{
    uint64_t cap = all_intervals(log);
    for (size_t l = 0; l < log->nlayers; l++)
        cap += log->layers[l].record_count;
    if (cap > SIZE_MAX / sizeof **ids)
        return -1;
    *ids = malloc((cap > 0 ? (size_t)cap : 1) * sizeof **ids);
    if (*ids == NULL)
        return -1;
    *nids = 0;
    for (size_t l = 0; l < log->nlayers; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        for (uint64_t r = 0; r < L->record_count; r++)
            if (L->rank[r] == IOLENS_RANK_ALL)
                (*ids)[(*nids)++] = L->id[r];
    }
    if (add_multi_rank_ids(log, *ids, nids) != 0)
        return -1;
    if (*nids > 0)
        qsort(*ids, *nids, sizeof **ids, iolens_compare_u64);
    size_t m = 0;
    for (size_t i = 0; i < *nids; i++)
        if ((m == 0 || (*ids)[m - 1] != (*ids)[i]) && (*ids)[i] != IOLENS_ID_OTHER_FILES &&
            (*ids)[i] != 0)   /* 0: no file (and the whole layer's rows) */
            (*ids)[m++] = (*ids)[i];
    *nids = m;
    return 0;
}

/* One interval of a shared file. */
struct file_iv {
    uint64_t id;
    struct iolens_union_item item;
    int64_t bytes;
    uint32_t accesses;
};

static int by_file_start(const void *a, const void *b)
{
    const struct file_iv *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->item.start > y->item.start) - (x->item.start < y->item.start);
}

/* The intervals of kind whose file is in ids, sorted by file and start. */
static struct file_iv *shared_intervals(const struct iolens_log *log, uint32_t kind,
                                        const uint64_t *ids, size_t nids, size_t *n)
{
    uint64_t total = intervals_of_kind(log, kind);
    if (total > SIZE_MAX / sizeof(struct file_iv))
        return NULL;
    struct file_iv *f = malloc((total > 0 ? (size_t)total : 1) * sizeof *f);
    if (f == NULL)
        return NULL;
    *n = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (s->kind != kind)
            continue;
        double off = clock_offset_of(log, s);
        for (uint64_t j = 0; j < s->count; j++) {
            uint64_t id = s->file_id[j];
            if (bsearch(&id, ids, nids, sizeof *ids, iolens_compare_u64) == NULL)
                continue;
            struct file_iv *e = &f[(*n)++];
            *e = (struct file_iv){id, item_at(s, i, j, off), s->bytes[j], s->accesses[j]};
        }
    }
    if (*n > 0)
        qsort(f, *n, sizeof *f, by_file_start);
    return f;
}

/* Read + write time of the file's records at layer kind. */
static double records_access_time(const struct iolens_log *log, uint32_t kind, uint64_t id)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    const struct iolens_log_layer *L = iolens_log_layer_of(log, kind);
    double t = 0;
    for (uint64_t r = 0; d != NULL && L != NULL && r < L->record_count; r++)
        if (L->id[r] == id)
            t += iolens_log_fcounter(L, r, d->read_time) + iolens_log_fcounter(L, r, d->write_time);
    return t;
}

/* Rows for the run f[0..n) of one file: its intervals, a subset of each
 * rank's (groups: floor 0). */
static void file_row(const struct iolens_log *log, const struct iolens_bps *layer,
                     const struct file_iv *f, size_t n, struct iolens_union_item *scratch,
                     const struct iolens_union_group *groups, struct iolens_bps *row)
{
    *row = (struct iolens_bps){.kind = layer->kind, .file_id = f[0].id, .intervals = n,
                               .error_bound = layer->error_bound};
    for (size_t i = 0; i < n; i++) {
        scratch[i] = f[i].item;
        row->accesses += f[i].accesses;
        row->bytes = iolens_sat_add(row->bytes, f[i].bytes);
    }
    struct iolens_union_bounds b = {0};
    if (iolens_union_bounds(scratch, n, groups, log->ninterval_sets, layer->error_bound, &b) != 0)
        b.estimate = b.lower = b.upper = NAN;   /* out of memory for this one row */
    row->time = b.estimate;
    row->time_lower = b.lower;
    row->time_upper = b.upper;
    row->access_time = records_access_time(log, layer->kind, f[0].id);
}

/* Appends the shared files' rows of one layer to r (room is there). */
static int add_file_rows(const struct iolens_log *log, const struct iolens_bps *layer,
                         const uint64_t *ids, size_t nids, struct iolens_bps_report *r)
{
    size_t n = 0;
    struct file_iv *f = shared_intervals(log, layer->kind, ids, nids, &n);
    struct iolens_union_item *scratch = f != NULL ? malloc((n > 0 ? n : 1) * sizeof *scratch) : NULL;
    struct iolens_union_group *groups = scratch != NULL ? set_groups(log, false) : NULL;
    if (groups == NULL) {
        free(scratch);
        free(f);
        return -1;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && f[j].id == f[i].id)
            j++;
        file_row(log, layer, f + i, j - i, scratch, groups, &r->rows[r->n++]);
        i = j;
    }
    free(groups);
    free(scratch);
    free(f);
    return 0;
}

/* ------------------------------------------------------------ report -- */

int iolens_bps_compute(const struct iolens_log *log, struct iolens_bps_report *out)
{
    *out = (struct iolens_bps_report){0};
    uint64_t *ids = NULL;
    size_t nids = 0;
    if (shared_ids(log, &ids, &nids) != 0) {
        free(ids);
        return -1;
    }
    /* At most one row per layer and one per (layer, shared file). */
    if (nids >= SIZE_MAX / (BPS_NKINDS * sizeof *out->rows)) {
        free(ids);
        return -1;
    }
    size_t cap = BPS_NKINDS * (nids + 1);
    out->rows = malloc(cap * sizeof *out->rows);
    int rc = out->rows != NULL ? 0 : -1;
    for (size_t k = 0; k < BPS_NKINDS && rc == 0; k++) {
        if (!has_kind(log, bps_kind(k)))
            continue;
        struct iolens_bps *layer = &out->rows[out->n++];
        rc = layer_row(log, bps_kind(k), layer);
        if (rc == 0)
            rc = add_file_rows(log, layer, ids, nids, out);
    }
    free(ids);
    if (rc != 0)
        iolens_bps_report_free(out);
    return rc;
}

void iolens_bps_report_free(struct iolens_bps_report *r)
{
    free(r->rows);
    *r = (struct iolens_bps_report){0};
}

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

int iolens_bps_wide(double lower, double t, double upper)
{
    return upper - lower > IOLENS_BPS_WIDE * t;
}

/* a / t for a lower bound t of a positive time: +inf when t is 0. */
static double ratio_over_lower(double a, double t, double upper)
{
    return t > 0 ? a / t : upper > 0 ? INFINITY : NAN;
}

void iolens_bps_derive(const struct iolens_bps *b, uint64_t block_size, double run_time,
                       struct iolens_bps_figures *f)
{
    const double mib = 1024.0 * 1024.0;
    f->blocks = (double)b->bytes / (double)block_size;
    f->bps = ratio(f->blocks, b->time);
    f->bps_min = ratio(f->blocks, b->time_upper);
    f->bps_max = ratio_over_lower(f->blocks, b->time_lower, b->time_upper);
    f->mib_per_s = ratio((double)b->bytes / mib, b->time);
    f->mib_per_s_min = ratio((double)b->bytes / mib, b->time_upper);
    f->mib_per_s_max = ratio_over_lower((double)b->bytes / mib, b->time_lower, b->time_upper);
    f->wide = iolens_bps_wide(b->time_lower, b->time, b->time_upper);
    f->busy_fraction = ratio(b->time, run_time);
    f->iops = ratio((double)b->accesses, b->access_time);
    f->conv_mib_per_s = ratio((double)b->bytes / mib, b->access_time);
    f->avg_response_time = b->accesses > 0 ? b->access_time / (double)b->accesses : NAN;
}

/* -------------------------------------------------------- time series -- */

struct ts_piece {
    int64_t rank, bin;
    int64_t bytes[3];             /* read, written, rw */
    int64_t ops[3];               /* accesses: the same directions */
};

static int by_bin(const void *a, const void *b)
{
    const struct ts_piece *x = a, *y = b;
    return (x->bin > y->bin) - (x->bin < y->bin);
}

static int by_rank_bin(const void *a, const void *b)
{
    const struct ts_piece *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return by_bin(a, b);
}

static int direction(uint32_t flags)
{
    bool r = flags & IOLENS_IV_READ, w = flags & IOLENS_IV_WRITE;
    return r && w ? 2 : w ? 1 : 0;
}

/* Bin of time t; false when it does not fit comfortably in an int64. */
static bool bin_of(double t, double width, int64_t *bin)
{
    double k = floor(t / width);
    if (!(fabs(k) < 1e15))
        return false;
    *bin = (int64_t)k;
    return true;
}

/* Bytes of [start, end) up to time x, rounded down: the pieces of one
 * interval are differences of these, so they add up to bytes exactly. */
static int64_t bytes_before(int64_t bytes, double start, double end, double x)
{
    if (x >= end)
        return bytes;
    if (x <= start)
        return 0;
    long double part = (long double)bytes * (long double)(x - start) / (long double)(end - start);
    return part < (long double)bytes ? (int64_t)part : bytes; /* part >= 0: truncation is floor */
}

struct ts_acc {
    struct ts_piece *p;
    size_t n, cap;
    double width;
};

static void push_piece(struct ts_acc *a, struct ts_piece piece)
{
    if (a->n < a->cap)   /* room was counted (count_pieces) */
        a->p[a->n++] = piece;
}

/* The bins [*k0, *k1] an interval spans; false when they are too many. */
static bool bins_of(const struct ts_acc *a, struct iolens_span sp, int64_t *k0, int64_t *k1)
{
    if (!bin_of(sp.start, a->width, k0) || !bin_of(sp.end, a->width, k1))
        return false;
    if (sp.end <= sp.start)
        *k1 = *k0;
    return (uint64_t)(*k1 - *k0) < IOLENS_TS_MAX_PIECES;
}

/* The pieces of one interval, one per bin it spans.  Its accesses are
 * spread like its bytes (bytes_before works for any count). */
static void split_interval(struct ts_acc *a, int64_t rank, struct iolens_span sp, int64_t bytes,
                           int64_t accesses, int dir)
{
    int64_t k0, k1, done = 0, ops_done = 0;
    if (!bins_of(a, sp, &k0, &k1))
        return;
    for (int64_t k = k0; k <= k1; k++) {
        double x = (double)(k + 1) * a->width;
        int64_t upto = k == k1 ? bytes : bytes_before(bytes, sp.start, sp.end, x);
        int64_t ops_upto = k == k1 ? accesses : bytes_before(accesses, sp.start, sp.end, x);
        struct ts_piece piece = {.rank = rank, .bin = k};
        piece.bytes[dir] = upto - done;
        piece.ops[dir] = ops_upto - ops_done;
        done = upto;
        ops_done = ops_upto;
        if (piece.bytes[dir] != 0 || piece.ops[dir] != 0)
            push_piece(a, piece);
    }
}

/* Counts the pieces of layer kind, so that too fine a bin fails before
 * anything big is allocated. */
static enum iolens_ts_status count_pieces(const struct iolens_log *log, uint32_t kind,
                                          const struct ts_acc *a, size_t *n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (s->kind != kind)
            continue;
        double off = clock_offset_of(log, s);
        for (uint64_t j = 0; j < s->count; j++) {
            int64_t k0, k1;
            if (!bins_of(a, span_at(s, j, off), &k0, &k1))
                return IOLENS_TS_TOO_MANY_BINS;
            total += (uint64_t)(k1 - k0) + 1;
            if (total > IOLENS_TS_MAX_PIECES)
                return IOLENS_TS_TOO_MANY_BINS;
        }
    }
    *n = (size_t)total;
    return IOLENS_TS_OK;
}

/* Every piece of layer kind into a->p (malloc'd). */
static enum iolens_ts_status kind_pieces(const struct iolens_log *log, uint32_t kind,
                                         struct ts_acc *a)
{
    enum iolens_ts_status st = count_pieces(log, kind, a, &a->cap);
    if (st != IOLENS_TS_OK || a->cap == 0)
        return st;
    a->p = malloc(a->cap * sizeof *a->p);
    if (a->p == NULL)
        return IOLENS_TS_NOMEM;
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (s->kind != kind)
            continue;
        double off = clock_offset_of(log, s);
        for (uint64_t j = 0; j < s->count; j++)
            split_interval(a, s->rank, span_at(s, j, off), s->bytes[j], s->accesses[j],
                           direction(s->flags[j]));
    }
    return IOLENS_TS_OK;
}

/* Adds up sorted pieces with equal (rank, bin) into bins appended to out. */
static enum iolens_ts_status sum_pieces(const struct ts_piece *p, size_t n, uint32_t kind,
                                        bool whole_job, struct iolens_ts_bin **out, size_t *nout,
                                        size_t *cap)
{
    for (size_t i = 0; i < n;) {
        struct iolens_ts_bin b = {.kind = kind, .rank = whole_job ? IOLENS_RANK_ALL : p[i].rank,
                                  .bin = p[i].bin};
        size_t j = i;
        for (; j < n && p[j].bin == p[i].bin && (whole_job || p[j].rank == p[i].rank); j++) {
            b.bytes_read = iolens_sat_add(b.bytes_read, p[j].bytes[0]);
            b.bytes_written = iolens_sat_add(b.bytes_written, p[j].bytes[1]);
            b.bytes_rw = iolens_sat_add(b.bytes_rw, p[j].bytes[2]);
            b.reads += p[j].ops[0];
            b.writes += p[j].ops[1];
            b.accesses_rw += p[j].ops[2];
        }
        if (*nout == *cap) {
            size_t c = *cap > 0 ? 2 * *cap : 256;
            struct iolens_ts_bin *o = realloc(*out, c * sizeof *o);
            if (o == NULL)
                return IOLENS_TS_NOMEM;
            *out = o;
            *cap = c;
        }
        (*out)[(*nout)++] = b;
        i = j;
    }
    return IOLENS_TS_OK;
}

enum iolens_ts_status iolens_timeseries(const struct iolens_log *log, double width,
                                        struct iolens_ts_bin **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    enum iolens_ts_status st = IOLENS_TS_OK;
    for (size_t k = 0; k < BPS_NKINDS && st == IOLENS_TS_OK; k++) {
        struct ts_acc a = {.width = width};
        st = kind_pieces(log, bps_kind(k), &a);
        if (st == IOLENS_TS_OK && a.n > 0) {
            qsort(a.p, a.n, sizeof *a.p, by_bin);
            st = sum_pieces(a.p, a.n, bps_kind(k), true, out, n, &cap);
        }
        if (st == IOLENS_TS_OK && a.n > 0) {
            qsort(a.p, a.n, sizeof *a.p, by_rank_bin);
            st = sum_pieces(a.p, a.n, bps_kind(k), false, out, n, &cap);
        }
        free(a.p);
    }
    if (st != IOLENS_TS_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
}
