/*
 * Layer descriptors and the AGG-driven merge of records (record_merge.h).
 *
 * The descriptor tables are generated from the X-macro counter tables of
 * include/iolens/log_format.h, one descriptor per row of IOLENS_LAYERS, so a
 * counter or a layer added there is named, described and merged without
 * touching this file.  The counters of a meaning (the roles) come from
 * each layer's ROLES in the same table.
 */
#include "format/record_merge.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "format/sat_math.h"

#define X_NAME(name, agg, desc) #name,
#define X_AGG(name, agg, desc) (uint8_t)(agg),
#define X_DESC(name, agg, desc) desc,

/* Names, AGG rules and descriptions of one layer's counters and fcounters,
 * with a compile-time check that each table has one entry per enum value
 * and that the record type has the layout the descriptor states. */
#define RECORD_SIZE(NAME) (16 + 8 * (size_t)(NAME##_NUM_COUNTERS + NAME##_F_NUM_COUNTERS))
/* Bound of any layer's counters or fcounters: the merge plans' size. */
#define MAX_LAYER_COUNTERS 256

#define LAYER_TABLES(NAME, lower, KIND, VERSION, COUNTERS, FCOUNTERS, ROLES, DATA, BASE) \
    static const char *const lower##_names[] = {COUNTERS(X_NAME)};                      \
    static const char *const lower##_fnames[] = {FCOUNTERS(X_NAME)};                    \
    static const uint8_t lower##_agg[] = {COUNTERS(X_AGG)};                             \
    static const uint8_t lower##_fagg[] = {FCOUNTERS(X_AGG)};                           \
    static const char *const lower##_descs[] = {COUNTERS(X_DESC)};                      \
    static const char *const lower##_fdescs[] = {FCOUNTERS(X_DESC)};                    \
    _Static_assert(sizeof lower##_names / sizeof lower##_names[0] == NAME##_NUM_COUNTERS, \
                   #NAME " counter table");                                             \
    _Static_assert(sizeof lower##_fnames / sizeof lower##_fnames[0] ==                   \
                       NAME##_F_NUM_COUNTERS, #NAME " fcounter table");                 \
    _Static_assert(NAME##_NUM_COUNTERS <= MAX_LAYER_COUNTERS &&                          \
                       NAME##_F_NUM_COUNTERS <= MAX_LAYER_COUNTERS,                      \
                   #NAME " has more counters than a merge plan holds");                 \
    _Static_assert(sizeof(struct iolens_##lower##_record) == RECORD_SIZE(NAME),          \
                   #NAME " record layout");                                             \
    _Static_assert(IOLENS_LAYER_##NAME < IOLENS_NLAYERS, #NAME " layer index");

IOLENS_LAYERS(LAYER_TABLES)

/* Every role starts as -1 (the layer lacks it); the layer's ROLES then
 * set the ones it has, overriding those initializers, which is what the
 * override warning would flag. */
#define NO_ROLES                                                                        \
    .opens[0] = -1, .opens[1] = -1, .bytes_read = -1, .bytes_written = -1, .reads = -1, \
    .writes = -1, .read_ops[0] = -1, .read_ops[1] = -1, .read_ops[2] = -1,              \
    .read_ops[3] = -1, .write_ops[0] = -1, .write_ops[1] = -1, .write_ops[2] = -1,      \
    .write_ops[3] = -1, .max_byte_read = -1, .max_byte_written = -1,                    \
    .size_read_first = -1, .size_write_first = -1, .access_first = -1,                  \
    .pattern_first = -1, .file_rec_id = -1, .slowest_read_size = -1,                    \
    .slowest_write_size = -1,                                                           \
    .f_open_start = -1, .f_open_end = -1, .f_read_start = -1, .f_read_end = -1,         \
    .f_write_start = -1, .f_write_end = -1, .f_close_start = -1, .f_close_end = -1,     \
    .read_time = -1, .write_time = -1, .meta_time = -1, .f_max_read_time = -1,          \
    .f_max_write_time = -1
#define ROLE(field, counter) .field = (counter),

#define LAYER_DESC(NAME, lower, KIND, VERSION, COUNTERS, FCOUNTERS, ROLES, DATA, BASE) \
    [IOLENS_LAYER_##NAME] = {                                                           \
        .region_kind = IOLENS_REGION_##NAME,                                            \
        .version = VERSION,                                                             \
        .name = #NAME,                                                                  \
        .ncounters = NAME##_NUM_COUNTERS,                                               \
        .nfcounters = NAME##_F_NUM_COUNTERS,                                            \
        .agg = lower##_agg,                                                             \
        .fagg = lower##_fagg,                                                           \
        .counter_names = lower##_names,                                                 \
        .fcounter_names = lower##_fnames,                                               \
        .counter_descs = lower##_descs,                                                 \
        .fcounter_descs = lower##_fdescs,                                               \
        .record_size = RECORD_SIZE(NAME),                                               \
        .carries_data = (DATA),                                                         \
        .base = (BASE),                                                                 \
        .ranks_opened = NAME##_RANKS_OPENED,                                            \
        .f_fastest_rank_time = NAME##_F_FASTEST_RANK_TIME,                              \
        NO_ROLES,                                                                       \
        ROLES(ROLE)                                                                     \
    },

#pragma GCC diagnostic push
#if defined(__clang__)
#pragma GCC diagnostic ignored "-Winitializer-overrides"
#else
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
static const struct iolens_layer_desc layers[IOLENS_NLAYERS] = {IOLENS_LAYERS(LAYER_DESC)};
#pragma GCC diagnostic pop

#define NLAYERS ((unsigned)IOLENS_NLAYERS)

/* ------------------------------------------------------- descriptors -- */

unsigned iolens_layer_desc_count(void)
{
    return NLAYERS;
}

const struct iolens_layer_desc *iolens_layer_desc_at(unsigned i)
{
    return i < NLAYERS ? &layers[i] : NULL;
}

unsigned iolens_layer_desc_index(const struct iolens_layer_desc *d)
{
    return (unsigned)(d - layers);
}

const struct iolens_layer_desc *iolens_data_layer_at(unsigned i)
{
    for (unsigned l = 0; l < NLAYERS; l++)
        if (layers[l].carries_data && i-- == 0)
            return &layers[l];
    return NULL;
}

int iolens_data_layer_index(uint32_t kind)
{
    int n = 0;
    for (unsigned l = 0; l < NLAYERS; l++) {
        if (layers[l].region_kind == kind)
            return layers[l].carries_data ? n : -1;
        n += layers[l].carries_data;
    }
    return -1;
}

const struct iolens_layer_desc *iolens_layer_desc_by_kind(uint32_t kind)
{
    for (unsigned i = 0; i < NLAYERS; i++)
        if (layers[i].region_kind == kind)
            return &layers[i];
    return NULL;
}

int iolens_record_slowest_time_index(const struct iolens_layer_desc *d, int size_counter)
{
    if (size_counter < 0)
        return -1;
    if (size_counter == d->slowest_read_size)
        return d->f_max_read_time;
    if (size_counter == d->slowest_write_size)
        return d->f_max_write_time;
    return -1;
}

/* Does an interleaved entry (TOP_VALUE, width - 1 TOP_SHAPE, TOP_COUNT)
 * start at counter i? */
static int interleaved_entry_at(const struct iolens_layer_desc *d, uint32_t i, uint32_t width)
{
    if (i + width >= d->ncounters || d->agg[i] != IOLENS_AGG_TOP_VALUE)
        return 0;
    for (uint32_t s = 1; s < width; s++)
        if (d->agg[i + s] != IOLENS_AGG_TOP_SHAPE)
            return 0;
    return d->agg[i + width] == IOLENS_AGG_TOP_COUNT;
}

/* k TOP_VALUE counters from i, then k TOP_COUNT counters. */
static uint32_t split_table_at(const struct iolens_layer_desc *d, uint32_t i,
                               struct iolens_top_table *t)
{
    uint32_t end = i;
    while (end < d->ncounters && d->agg[end] == IOLENS_AGG_TOP_VALUE)
        end++;
    uint32_t k = end - i;
    if (k > IOLENS_TOP_K_MAX || end + k > d->ncounters)
        return 0;
    for (uint32_t j = 0; j < k; j++) {
        if (d->agg[end + j] != IOLENS_AGG_TOP_COUNT)
            return 0;
        t->value[j] = i + j;
        t->count[j] = end + j;
    }
    t->k = k;
    t->width = 1;
    return end + k;
}

/* Entries (TOP_VALUE, TOP_SHAPE..., TOP_COUNT) one after another. */
static uint32_t interleaved_table_at(const struct iolens_layer_desc *d, uint32_t i,
                                     struct iolens_top_table *t)
{
    uint32_t width = 1;
    while (i + width < d->ncounters && d->agg[i + width] == IOLENS_AGG_TOP_SHAPE)
        width++;
    if (width > IOLENS_TOP_WIDTH_MAX)
        return 0;
    if (i >= width + 1 && interleaved_entry_at(d, i - width - 1, width))
        return 0; /* i is the second or a later entry of a table */
    uint32_t k = 0;
    while (k < IOLENS_TOP_K_MAX && interleaved_entry_at(d, i, width)) {
        t->value[k] = i;
        t->count[k] = i + width;
        k++;
        i += width + 1;
    }
    t->k = k;
    t->width = width;
    return k > 0 ? i : 0;
}

uint32_t iolens_record_top_table(const struct iolens_layer_desc *d, uint32_t i,
                                 struct iolens_top_table *t)
{
    memset(t, 0, sizeof *t);
    t->state = -1;
    if (i >= d->ncounters || d->agg[i] != IOLENS_AGG_TOP_VALUE ||
        (i > 0 && d->agg[i - 1] == IOLENS_AGG_TOP_VALUE))
        return 0;
    uint32_t next = i + 1 < d->ncounters && d->agg[i + 1] == IOLENS_AGG_TOP_VALUE
                        ? split_table_at(d, i, t)
                        : interleaved_table_at(d, i, t);
    t->state = next > 0 && i > 0 && d->agg[i - 1] == IOLENS_AGG_TOP_STATE ? (int32_t)i - 1 : -1;
    return next;
}

int64_t iolens_top_state_merge(int64_t state_a, int has_a, int64_t state_b, int has_b,
                               size_t distinct, uint32_t k)
{
    if (!has_a || !has_b)
        return has_a ? state_a : has_b ? state_b : IOLENS_TOP_EXACT_ALL;
    if (state_a != IOLENS_TOP_EXACT_ALL || state_b != IOLENS_TOP_EXACT_ALL)
        return IOLENS_TOP_ESTIMATE;
    return distinct > k ? IOLENS_TOP_EXACT : IOLENS_TOP_EXACT_ALL;
}

int iolens_record_top_pair(const struct iolens_layer_desc *d, int value_counter)
{
    if (value_counter < 0 || (uint32_t)value_counter >= d->ncounters)
        return -1;
    struct iolens_top_table t;
    for (uint32_t i = 0; i <= (uint32_t)value_counter;) {
        uint32_t next = iolens_record_top_table(d, i, &t);
        if (next == 0) {
            i++;
            continue;
        }
        for (uint32_t j = 0; j < t.k; j++)
            if (t.value[j] == (uint32_t)value_counter)
                return (int)t.count[j];
        i = next;
    }
    return -1;
}

/* --------------------------------------------------------- accessors -- */

static const int64_t *counters_of(const void *rec)
{
    return (const int64_t *)((const char *)rec + 16);
}

static const double *fcounters_of(const struct iolens_layer_desc *d, const void *rec)
{
    return (const double *)((const char *)rec + 16 + 8 * (size_t)d->ncounters);
}

static int64_t rank_of(const void *rec)
{
    int64_t r;
    memcpy(&r, (const char *)rec + 8, sizeof r);
    return r;
}

/* What the functions below read of a record, from its counters c and
 * fcounters f (a record's, or a row of a decoded layer with every counter
 * of the layer). */
static int opened_in(const struct iolens_layer_desc *d, const int64_t *c)
{
    for (unsigned i = 0; i < 2; i++)
        if (d->opens[i] >= 0 && c[d->opens[i]] > 0)
            return 1;
    return 0;
}

static int64_t sum_ops(const int ops[4], const int64_t *c)
{
    int64_t n = 0;
    for (unsigned i = 0; i < 4; i++)
        if (ops[i] >= 0 && c[ops[i]] > 0)
            n = iolens_sat_add(n, c[ops[i]]);
    return n;
}

static int did_io_in(const struct iolens_layer_desc *d, const int64_t *c)
{
    return sum_ops(d->read_ops, c) > 0 || sum_ops(d->write_ops, c) > 0;
}

/* A counter the layer lacks (index -1) counts as 0. */
static double fcounter_or_0(const double *f, int i)
{
    return i >= 0 ? f[i] : 0.0;
}

static int64_t counter_or_0(const int64_t *c, int i)
{
    return i >= 0 ? c[i] : 0;
}

static double io_time_in(const struct iolens_layer_desc *d, const double *f)
{
    return fcounter_or_0(f, d->read_time) + fcounter_or_0(f, d->write_time) +
           fcounter_or_0(f, d->meta_time);
}

static int64_t io_bytes_in(const struct iolens_layer_desc *d, const int64_t *c)
{
    return iolens_sat_add(counter_or_0(c, d->bytes_read), counter_or_0(c, d->bytes_written));
}

int iolens_record_opened(const struct iolens_layer_desc *d, const void *rec)
{
    return opened_in(d, counters_of(rec));
}

int64_t iolens_record_read_ops(const struct iolens_layer_desc *d, const void *rec)
{
    return sum_ops(d->read_ops, counters_of(rec));
}

int64_t iolens_record_write_ops(const struct iolens_layer_desc *d, const void *rec)
{
    return sum_ops(d->write_ops, counters_of(rec));
}

int iolens_record_did_io(const struct iolens_layer_desc *d, const void *rec)
{
    return did_io_in(d, counters_of(rec));
}

double iolens_record_io_time(const struct iolens_layer_desc *d, const void *rec)
{
    return io_time_in(d, fcounters_of(d, rec));
}

int64_t iolens_record_io_bytes(const struct iolens_layer_desc *d, const void *rec)
{
    return io_bytes_in(d, counters_of(rec));
}

/* ------------------------------------------------------------- merge -- */

void iolens_record_merge_begin(const struct iolens_layer_desc *d, void *acc, const void *first)
{
    if (acc != first)
        memcpy(acc, first, d->record_size);
}

static int64_t merge_counter(uint8_t agg, int64_t a, int64_t b)
{
    switch (agg) {
    case IOLENS_AGG_SUM:
        return iolens_sat_add(a, b);
    case IOLENS_AGG_MAX:
        return b > a ? b : a;
    case IOLENS_AGG_MIN_NONZERO:
        return b != 0 && (a == 0 || b < a) ? b : a;
    case IOLENS_AGG_SAME:
        return a == b ? a : -1;
    case IOLENS_AGG_AGREE: /* 0: the record has no such parameter */
        return a == 0 ? b : b == 0 || a == b ? a : IOLENS_PAT_MIXED;
    default: /* TOP_*, SLOWEST_SIZE and RANK_STAT are merged elsewhere */
        return a;
    }
}

static double merge_fcounter(uint8_t agg, double a, double b)
{
    switch (agg) {
    case IOLENS_AGG_SUM:
        return a + b;
    case IOLENS_AGG_MAX:
        return b > a ? b : a;
    case IOLENS_AGG_MIN_NONZERO:
        return b != 0 && (a == 0 || b < a) ? b : a;
    case IOLENS_AGG_SAME:
        return a == b ? a : -1.0;
    default:
        return a;
    }
}

int iolens_top_entry_cmp_tuple(const void *a, const void *b)
{
    const struct iolens_top_entry *x = a, *y = b;
    for (unsigned i = 0; i < IOLENS_TOP_WIDTH_MAX; i++)
        if (x->value[i] != y->value[i])
            return x->value[i] < y->value[i] ? -1 : 1;
    return 0;
}

/* Most frequent first; equal counts: the larger tuple first, so the
 * result does not depend on the order the records come in. */
int iolens_top_entry_cmp_rank(const void *a, const void *b)
{
    const struct iolens_top_entry *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return -iolens_top_entry_cmp_tuple(a, b);
}

size_t iolens_top_entries_combine_sorted(struct iolens_top_entry *e, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && iolens_top_entry_cmp_tuple(&e[m - 1], &e[i]) == 0)
            e[m - 1].count = iolens_sat_add(e[m - 1].count, e[i].count);
        else
            e[m++] = e[i];
    }
    return m;
}

void iolens_top_entry_get(const struct iolens_top_table *t, uint32_t j, const int64_t *counters,
                          struct iolens_top_entry *e)
{
    memset(e, 0, sizeof *e);
    for (uint32_t s = 0; s < t->width; s++)
        e->value[s] = counters[t->value[j] + s];
    e->count = counters[t->count[j]];
}

void iolens_top_entry_put(const struct iolens_top_table *t, uint32_t j,
                          const struct iolens_top_entry *e, int64_t *counters)
{
    for (uint32_t s = 0; s < t->width; s++)
        counters[t->value[j] + s] = e != NULL ? e->value[s] : 0;
    counters[t->count[j]] = e != NULL ? e->count : 0;
}

/* Insertion sort: at most 2 * IOLENS_TOP_K_MAX entries, and the merge
 * must not allocate. */
static void sort_entries(struct iolens_top_entry *e, size_t n,
                         int (*cmp)(const void *, const void *))
{
    for (size_t i = 1; i < n; i++) {
        struct iolens_top_entry x = e[i];
        size_t j = i;
        for (; j > 0 && cmp(&x, &e[j - 1]) < 0; j--)
            e[j] = e[j - 1];
        e[j] = x;
    }
}

/* Merges the entries of one table of acc and src (equal tuples add up),
 * then keeps the top k. */
static void merge_top_table(const struct iolens_top_table *t, int64_t *acc, const int64_t *src)
{
    struct iolens_top_entry e[2 * IOLENS_TOP_K_MAX];
    size_t n = 0;
    int has_acc = 0, has_src = 0;
    for (uint32_t j = 0; j < t->k; j++) {
        iolens_top_entry_get(t, j, acc, &e[n]);
        has_acc |= e[n].count > 0;
        n += e[n].count > 0;
        iolens_top_entry_get(t, j, src, &e[n]);
        has_src |= e[n].count > 0;
        n += e[n].count > 0;
    }
    sort_entries(e, n, iolens_top_entry_cmp_tuple);
    n = iolens_top_entries_combine_sorted(e, n);
    if (t->state >= 0)
        acc[t->state] = iolens_top_state_merge(acc[t->state], has_acc, src[t->state],
                                               has_src, n, t->k);
    sort_entries(e, n, iolens_top_entry_cmp_rank);
    for (uint32_t j = 0; j < t->k; j++)
        iolens_top_entry_put(t, j, j < n ? &e[j] : NULL, acc);
}

static void merge_top_groups(const struct iolens_layer_desc *d, int64_t *acc, const int64_t *src)
{
    struct iolens_top_table t;
    for (uint32_t i = 0; i < d->ncounters;) {
        uint32_t next = iolens_record_top_table(d, i, &t);
        if (next == 0) { /* not a table (or a malformed one: left alone) */
            i++;
            continue;
        }
        merge_top_table(&t, acc, src);
        i = next;
    }
}

/* Must run before the F_MAX_*_TIME fcounters are merged.  The slower
 * operation wins; on equal times the larger size, so that the result does
 * not depend on the order the records come in. */
static void merge_slowest(const struct iolens_layer_desc *d, void *acc, const void *src)
{
    const int sizes[2] = {d->slowest_read_size, d->slowest_write_size};
    const int times[2] = {d->f_max_read_time, d->f_max_write_time};
    int64_t *ac = iolens_rec_counters(acc);
    const int64_t *sc = counters_of(src);
    const double *af = fcounters_of(d, acc), *sf = fcounters_of(d, src);
    for (unsigned i = 0; i < 2; i++) {
        int s = sizes[i], t = times[i];
        if (s < 0 || t < 0)
            continue;
        if (sf[t] > af[t] || (sf[t] == af[t] && sc[s] > ac[s]))
            ac[s] = sc[s];
    }
}

/* A layer's AGG rules as runs of counters with one rule each (a layer has
 * some twenty runs).  Merging a record runs one loop per run: with a
 * switch per counter, the jump the branch predictor kept missing was half
 * of the time of iolens-parser --total's merge. */
struct agg_run {
    uint8_t agg;
    uint16_t first, count;
};

struct merge_plan {
    struct agg_run counters[MAX_LAYER_COUNTERS], fcounters[MAX_LAYER_COUNTERS];
    unsigned ncounters, nfcounters;
};

static struct merge_plan plans[NLAYERS];
static pthread_once_t plans_once = PTHREAD_ONCE_INIT;

static unsigned agg_runs(const uint8_t *agg, uint32_t n, struct agg_run *run)
{
    unsigned k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k > 0 && run[k - 1].agg == agg[i])
            run[k - 1].count++;
        else
            run[k++] = (struct agg_run){agg[i], (uint16_t)i, 1};
    }
    return k;
}

static void make_plans(void)
{
    for (size_t l = 0; l < NLAYERS; l++) {
        plans[l].ncounters = agg_runs(layers[l].agg, layers[l].ncounters, plans[l].counters);
        plans[l].nfcounters = agg_runs(layers[l].fagg, layers[l].nfcounters, plans[l].fcounters);
    }
}

static const struct merge_plan *plan_of(const struct iolens_layer_desc *d)
{
    pthread_once(&plans_once, make_plans);
    return &plans[d - layers];
}

static void merge_counter_run(struct agg_run run, int64_t *a, const int64_t *b)
{
    a += run.first;
    b += run.first;
    if (run.agg == IOLENS_AGG_SUM) {
        for (unsigned i = 0; i < run.count; i++)
            a[i] = iolens_sat_add(a[i], b[i]);
    } else if (run.agg == IOLENS_AGG_MAX) {
        for (unsigned i = 0; i < run.count; i++)
            a[i] = b[i] > a[i] ? b[i] : a[i];
    } else {
        for (unsigned i = 0; i < run.count; i++)
            a[i] = merge_counter(run.agg, a[i], b[i]);
    }
}

static void merge_fcounter_run(struct agg_run run, double *a, const double *b)
{
    a += run.first;
    b += run.first;
    if (run.agg == IOLENS_AGG_SUM) {
        for (unsigned i = 0; i < run.count; i++)
            a[i] += b[i];
    } else {
        for (unsigned i = 0; i < run.count; i++)
            a[i] = merge_fcounter(run.agg, a[i], b[i]);
    }
}

static void merge_record(const struct iolens_layer_desc *d, void *acc, const void *src,
                         bool tops)
{
    int64_t *ac = iolens_rec_counters(acc);
    const int64_t *sc = counters_of(src);
    double *af = iolens_rec_fcounters(d, acc);
    const double *sf = fcounters_of(d, src);
    merge_slowest(d, acc, src);
    if (tops)
        merge_top_groups(d, ac, sc);
    const struct merge_plan *plan = plan_of(d);
    for (unsigned r = 0; r < plan->ncounters; r++)
        merge_counter_run(plan->counters[r], ac, sc);
    for (unsigned r = 0; r < plan->nfcounters; r++)
        merge_fcounter_run(plan->fcounters[r], af, sf);
}

void iolens_record_merge(const struct iolens_layer_desc *d, void *acc, const void *src)
{
    merge_record(d, acc, src, true);
}

void iolens_record_merge_no_top(const struct iolens_layer_desc *d, void *acc, const void *src)
{
    merge_record(d, acc, src, false);
}

/* Rows at a time, so that a block of rows stays in the cache while each
 * counter of the block is merged. */
#define MERGE_ROWS_BLOCK 32

/* SLOWEST_SIZE counter s follows F_MAX_*_TIME t over the rows as
 * merge_slowest, record after record, would have it: against the time
 * merged so far, which the fcounter runs (merged after it) would give. */
static void merge_slowest_rows(const struct iolens_layer_desc *d, int64_t *ac, double *af,
                               const int64_t *counters, size_t cstride, const double *fcounters,
                               size_t fstride, size_t n, int s, int t)
{
    if (s < 0 || t < 0)
        return;
    double time = af[t];
    for (size_t i = 0; i < n; i++) {
        int64_t size = counters[i * cstride + (size_t)s];
        double st = fcounters[i * fstride + (size_t)t];
        if (st > time || (st == time && size > ac[s]))
            ac[s] = size;
        time = merge_fcounter(d->fagg[t], time, st);
    }
}

/* a merged with col[0], col[stride], ... col[(m - 1) stride] in turn by
 * rule agg, as merge_counter would, one switch for the column. */
static int64_t merge_counter_column(uint8_t agg, int64_t a, const int64_t *col, size_t stride,
                                    size_t m)
{
    switch (agg) {
    case IOLENS_AGG_SUM:
        for (size_t i = 0; i < m; i++)
            a = iolens_sat_add(a, col[i * stride]);
        return a;
    case IOLENS_AGG_MAX:
        for (size_t i = 0; i < m; i++)
            a = col[i * stride] > a ? col[i * stride] : a;
        return a;
    case IOLENS_AGG_MIN_NONZERO:
    case IOLENS_AGG_SAME:
    case IOLENS_AGG_AGREE:
        for (size_t i = 0; i < m; i++)
            a = merge_counter(agg, a, col[i * stride]);
        return a;
    default: /* merge_counter leaves these alone */
        return a;
    }
}

static double merge_fcounter_column(uint8_t agg, double a, const double *col, size_t stride,
                                    size_t m)
{
    switch (agg) {
    case IOLENS_AGG_SUM:
        for (size_t i = 0; i < m; i++)
            a += col[i * stride];
        return a;
    case IOLENS_AGG_MAX:
        for (size_t i = 0; i < m; i++)
            a = col[i * stride] > a ? col[i * stride] : a;
        return a;
    case IOLENS_AGG_MIN_NONZERO:
    case IOLENS_AGG_SAME:
        for (size_t i = 0; i < m; i++)
            a = merge_fcounter(agg, a, col[i * stride]);
        return a;
    default:
        return a;
    }
}

void iolens_record_merge_rows_no_top(const struct iolens_layer_desc *d, void *acc,
                                     const int64_t *counters, size_t cstride,
                                     const double *fcounters, size_t fstride, size_t n,
                                     const unsigned char *zero)
{
    int64_t *ac = iolens_rec_counters(acc);
    double *af = iolens_rec_fcounters(d, acc);
    /* First, while af still holds the times before these rows. */
    merge_slowest_rows(d, ac, af, counters, cstride, fcounters, fstride, n,
                       d->slowest_read_size, d->f_max_read_time);
    merge_slowest_rows(d, ac, af, counters, cstride, fcounters, fstride, n,
                       d->slowest_write_size, d->f_max_write_time);
    const struct merge_plan *plan = plan_of(d);
    const unsigned char *fzero = zero != NULL ? zero + d->ncounters : NULL;
    if (n > 0 && zero != NULL) {
        for (unsigned r = 0; r < plan->ncounters; r++) {
            struct agg_run run = plan->counters[r];
            for (unsigned j = run.first; j < (unsigned)run.first + run.count; j++)
                if (zero[j])
                    ac[j] = merge_counter(run.agg, ac[j], 0);
        }
        for (unsigned r = 0; r < plan->nfcounters; r++) {
            struct agg_run run = plan->fcounters[r];
            for (unsigned j = run.first; j < (unsigned)run.first + run.count; j++)
                if (fzero[j])
                    af[j] = merge_fcounter(run.agg, af[j], 0.0);
        }
    }
    for (size_t i0 = 0; i0 < n; i0 += MERGE_ROWS_BLOCK) {
        size_t m = n - i0 < MERGE_ROWS_BLOCK ? n - i0 : MERGE_ROWS_BLOCK;
        const int64_t *c = counters + i0 * cstride;
        const double *f = fcounters + i0 * fstride;
        for (unsigned r = 0; r < plan->ncounters; r++) {
            struct agg_run run = plan->counters[r];
            for (unsigned j = run.first; j < (unsigned)run.first + run.count; j++)
                if (zero == NULL || !zero[j])
                    ac[j] = merge_counter_column(run.agg, ac[j], c + j, cstride, m);
        }
        for (unsigned r = 0; r < plan->nfcounters; r++) {
            struct agg_run run = plan->fcounters[r];
            for (unsigned j = run.first; j < (unsigned)run.first + run.count; j++)
                if (fzero == NULL || !fzero[j])
                    af[j] = merge_fcounter_column(run.agg, af[j], f + j, fstride, m);
        }
    }
}

/* -------------------------------------------------------- rank stats -- */

void iolens_rank_stats_init(struct iolens_rank_stats *s)
{
    memset(s, 0, sizeof *s);
    s->fastest_rank = -1;
    s->slowest_rank = -1;
}

/* Is (time, rank) a new fastest / slowest?  Equal times: the lower rank. */
static int beats_fastest(const struct iolens_rank_stats *s, double t, int64_t rank)
{
    return s->n == 0 || t < s->fastest_time || (t == s->fastest_time && rank < s->fastest_rank);
}

static int beats_slowest(const struct iolens_rank_stats *s, double t, int64_t rank)
{
    return s->n == 0 || t > s->slowest_time || (t == s->slowest_time && rank < s->slowest_rank);
}

void iolens_rank_stats_add_row(struct iolens_rank_stats *s, const struct iolens_layer_desc *d,
                               int64_t rank, const int64_t *counters, const double *fcounters)
{
    double t = io_time_in(d, fcounters);
    int64_t bytes = io_bytes_in(d, counters);
    s->ranks_opened += opened_in(d, counters);
    s->ranks_io += did_io_in(d, counters);
    if (beats_fastest(s, t, rank)) {
        s->fastest_rank = rank;
        s->fastest_time = t;
        s->fastest_bytes = bytes;
    }
    if (beats_slowest(s, t, rank)) {
        s->slowest_rank = rank;
        s->slowest_time = t;
        s->slowest_bytes = bytes;
    }
    /* Welford's update. */
    s->n++;
    double dt = t - s->mean_time;
    s->mean_time += dt / (double)s->n;
    s->m2_time += dt * (t - s->mean_time);
    double db = (double)bytes - s->mean_bytes;
    s->mean_bytes += db / (double)s->n;
    s->m2_bytes += db * ((double)bytes - s->mean_bytes);
}

void iolens_rank_stats_add(struct iolens_rank_stats *s, const struct iolens_layer_desc *d,
                           int64_t rank, const void *rec)
{
    iolens_rank_stats_add_row(s, d, rank, counters_of(rec), fcounters_of(d, rec));
}

void iolens_rank_stats_store(const struct iolens_rank_stats *s, const struct iolens_layer_desc *d,
                             void *rec)
{
    int64_t *c = iolens_rec_counters(rec) + d->ranks_opened;
    double *f = iolens_rec_fcounters(d, rec) + d->f_fastest_rank_time;
    c[0] = s->ranks_opened;
    c[1] = s->ranks_io;
    c[2] = s->fastest_rank;
    c[3] = s->fastest_bytes;
    c[4] = s->slowest_rank;
    c[5] = s->slowest_bytes;
    f[0] = s->fastest_time;
    f[1] = s->slowest_time;
    /* m2 is a sum of squares but rounding can leave it a hair below 0. */
    f[2] = s->n > 0 && s->m2_time > 0 ? s->m2_time / (double)s->n : 0.0;
    f[3] = s->n > 0 && s->m2_bytes > 0 ? s->m2_bytes / (double)s->n : 0.0;
}

void iolens_record_fill_own_sharing(const struct iolens_layer_desc *d, void *rec)
{
    struct iolens_rank_stats s;
    iolens_rank_stats_init(&s);
    iolens_rank_stats_add(&s, d, rank_of(rec), rec);
    iolens_rank_stats_store(&s, d, rec);
}

int iolens_fcounter_time_refs(const struct iolens_layer_desc *d, uint32_t f, int refs[3])
{
    int n = 0;
    const int pairs[][2] = {
        {d->f_open_end, d->f_open_start},   {d->f_read_end, d->f_read_start},
        {d->f_write_end, d->f_write_start}, {d->f_close_end, d->f_close_start},
        {d->f_read_start, 0},               {d->f_write_start, 0},
        {d->f_close_start, 0},              {d->f_max_read_time, d->read_time},
        {d->f_max_write_time, d->write_time},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0] && n == 0; i++)
        if (pairs[i][0] >= 0 && (uint32_t)pairs[i][0] == f && pairs[i][1] >= 0)
            refs[n++] = pairs[i][1];
    if (n == 0 && d->f_fastest_rank_time >= 0 &&
        (f == (uint32_t)d->f_fastest_rank_time || f == (uint32_t)d->f_fastest_rank_time + 1)) {
        int io[3] = {d->read_time, d->write_time, d->meta_time};
        for (int i = 0; i < 3; i++)
            if (io[i] >= 0)
                refs[n++] = io[i];
    }
    for (int i = 0; i < n; i++) /* one pass decodes them: refs come first */
        if ((uint32_t)refs[i] >= f)
            return 0;
    return n;
}

void iolens_record_scale_times(const struct iolens_layer_desc *d, void *rec, double factor)
{
    double *f = iolens_rec_fcounters(d, rec);
    for (uint32_t i = 0; i < d->nfcounters; i++)
        if (d->fagg[i] != IOLENS_AGG_RANK_STAT)
            f[i] *= factor;
}
