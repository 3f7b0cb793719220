/*
 * iolens-parser: prints an iolens log as text.
 *
 *   --base (default)  every counter of every record, tab-separated
 *   --total           one total_<COUNTER> line per counter and layer
 *   --file            file counts by access type
 *   --list-counters   every counter this parser knows, with its meaning
 *
 * Exit status: 0 success, 1 usage or output error, 2 the log cannot be
 * read or is not a valid iolens log (one line on stderr says why).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reader.h"

#define PROG "iolens-parser"

enum mode { MODE_BASE, MODE_TOTAL, MODE_FILE, MODE_LIST };

static const uint32_t layer_kinds[] = {IOLENS_REGION_POSIX, IOLENS_REGION_STDIO};
#define NLAYER_KINDS (sizeof layer_kinds / sizeof layer_kinds[0])

/* ------------------------------------------------------------ output -- */

/* Writes s[0..len) with control characters and backslash as \ooo (the
 * /proc/mounts convention), so a name can never break a line or a column. */
static void put_escaped(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f || ch == '\\')
            printf("\\%03o", ch);
        else
            putchar(ch);
    }
}

static void put_escaped_str(const char *s) { put_escaped(s, strlen(s)); }

/* A NUL-separated list printed space-separated. */
static void put_list(const char *s, size_t len)
{
    size_t start = 0;
    bool first = true;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\0')
            continue;
        if (i > start || i < len) {
            if (!first)
                putchar(' ');
            put_escaped(s + start, i - start);
            first = false;
        }
        start = i + 1;
    }
}

static void put_time(const char *label, int64_t sec, int64_t nsec)
{
    char human[64] = "?";
    time_t t = (time_t)sec;
    struct tm tm;
    if (localtime_r(&t, &tm) != NULL)
        strftime(human, sizeof human, "%Y-%m-%d %H:%M:%S %Z", &tm);
    printf("# %s: %" PRId64 ".%09" PRId64 " (%s)\n", label, sec,
           nsec >= 0 && nsec < 1000000000 ? nsec : 0, human);
}

static void print_job_header(const struct iolens_log *log)
{
    const struct iolens_job_fixed *j = &log->job;
    printf("# iolens log format version: %u\n", (unsigned)log->version);
    printf("# exe: ");
    put_escaped(log->jobstr[IOLENS_JOBSTR_EXE], log->jobstr_len[IOLENS_JOBSTR_EXE]);
    if (log->jobstr_len[IOLENS_JOBSTR_ARGS] > 0) {
        putchar(' ');
        put_list(log->jobstr[IOLENS_JOBSTR_ARGS], log->jobstr_len[IOLENS_JOBSTR_ARGS]);
    }
    printf("\n# uid: %" PRIu64 "\n# user: ", j->uid);
    put_escaped_str(log->jobstr[IOLENS_JOBSTR_USER]);
    printf("\n# jobid: ");
    put_escaped_str(log->jobstr[IOLENS_JOBSTR_JOBID]);
    putchar('\n');
    put_time("start_time", j->start_time_sec, j->start_time_nsec);
    put_time("end_time", j->end_time_sec, j->end_time_nsec);
    printf("# run_time: %.6f\n", j->run_time);
    printf("# nprocs: %" PRIu32 "\n# nnodes: %" PRIu32 "\n# pid: %" PRId64 "\n", j->nprocs,
           j->nnodes, j->pid);
    if (j->parent_pid != 0 || (log->flags & IOLENS_FLAG_FORKED))
        printf("# parent_pid: %" PRId64 "\n", j->parent_pid);
    printf("# hosts: ");
    put_list(log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS]);
    printf("\n# iolens version: ");
    put_escaped_str(log->jobstr[IOLENS_JOBSTR_VERSION]);
    printf("\n# memory budget: %" PRIu64 "\n# memory used: %" PRIu64
           "\n# memory needed: %" PRIu64 "\n",
           j->budget_bytes, j->budget_used, j->budget_needed);
    printf("# folded files: %" PRIu64 "\n# folded opens: %" PRIu64 "\n", j->folded_files,
           j->folded_opens);
    printf("# unknown regions skipped: %u\n", log->unknown_regions);
    for (size_t i = 0; i < log->nmounts; i++) {
        printf("# mount: ");
        put_escaped_str(log->mounts[i].point);
        putchar('\t');
        put_escaped_str(log->mounts[i].fstype);
        printf("\t%" PRId64 "\n", log->mounts[i].block_size);
    }
}

/* Counters of a layer region that this parser can name. */
static uint32_t usable_counters(const struct iolens_log_layer *L)
{
    uint32_t known = iolens_counter_known(L->kind);
    return L->counter_count < known ? L->counter_count : known;
}

static uint32_t usable_fcounters(const struct iolens_log_layer *L)
{
    uint32_t known = iolens_fcounter_known(L->kind);
    return L->fcounter_count < known ? L->fcounter_count : known;
}

static int64_t counter_at(const struct iolens_log_layer *L, uint64_t rec, uint32_t i)
{
    return L->counters[rec * L->counter_count + i];
}

static double fcounter_at(const struct iolens_log_layer *L, uint64_t rec, uint32_t i)
{
    return L->fcounters[rec * L->fcounter_count + i];
}

/* -------------------------------------------------------------- base -- */

static void print_record_tail(const char *name, const struct iolens_log_mount *m)
{
    putchar('\t');
    if (name != NULL)
        put_escaped_str(name);
    else
        putchar('-');
    putchar('\t');
    if (m != NULL) {
        put_escaped_str(m->point);
        putchar('\t');
        put_escaped_str(m->fstype);
    } else {
        printf("-\t-");
    }
    putchar('\n');
}

static void print_base(const struct iolens_log *log)
{
    printf("#<layer>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>"
           "\t<fs type>\n");
    for (size_t l = 0; l < log->nlayers; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        const char *lname = iolens_layer_name(L->kind);
        uint32_t nc = usable_counters(L), nf = usable_fcounters(L);
        for (uint64_t r = 0; r < L->record_count; r++) {
            const char *name = iolens_log_name_of(log, L->id[r]);
            const struct iolens_log_mount *m = iolens_log_mount_of(log, name);
            for (uint32_t i = 0; i < nc; i++) {
                printf("%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%" PRId64, lname, L->rank[r], L->id[r],
                       iolens_counter_name(L->kind, i), counter_at(L, r, i));
                print_record_tail(name, m);
            }
            for (uint32_t i = 0; i < nf; i++) {
                printf("%s\t%" PRId64 "\t%" PRIu64 "\t%s\t%.6f", lname, L->rank[r], L->id[r],
                       iolens_fcounter_name(L->kind, i), fcounter_at(L, r, i));
                print_record_tail(name, m);
            }
        }
    }
}

/* ------------------------------------------------------------- total -- */

/*
 * How a counter is totalled over records, decided by its name (the names
 * follow one convention across layers):
 *   *_MAX_BYTE_*                       maximum
 *   *_MODE, *_ALIGNMENT                the value if all records agree, else -1
 *   *_STRIDEn_* / *_ACCESSn_*          recomputed top 4 over all records
 *   *_MAX_<OP>_TIME_SIZE               size of the record with the largest
 *                                      *_F_MAX_<OP>_TIME
 *   *_F_*_START_TIMESTAMP              smallest nonzero value (0 if none)
 *   *_F_*_END_TIMESTAMP, *_F_MAX_*     maximum
 *   everything else                    sum (saturating)
 */
enum agg { AGG_SUM, AGG_MAX, AGG_MIN_NONZERO, AGG_AGREE, AGG_TOP4, AGG_SLOWEST_SIZE };

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static enum agg classify_counter(const char *name)
{
    if (strstr(name, "_MAX_BYTE_") != NULL)
        return AGG_MAX;
    if (ends_with(name, "_TIME_SIZE"))
        return AGG_SLOWEST_SIZE;
    if (ends_with(name, "_MODE") || ends_with(name, "_ALIGNMENT"))
        return AGG_AGREE;
    return AGG_SUM;
}

static enum agg classify_fcounter(const char *name)
{
    if (ends_with(name, "_START_TIMESTAMP"))
        return AGG_MIN_NONZERO;
    if (ends_with(name, "_END_TIMESTAMP") || strstr(name, "_F_MAX_") != NULL)
        return AGG_MAX;
    return AGG_SUM;
}

static int64_t add_saturating(int64_t a, int64_t b)
{
    int64_t s;
    if (__builtin_add_overflow(a, b, &s))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return s;
}

static long find_counter(uint32_t kind, uint32_t limit, const char *name)
{
    for (uint32_t i = 0; i < limit; i++)
        if (strcmp(iolens_counter_name(kind, i), name) == 0)
            return i;
    return -1;
}

static long find_fcounter(uint32_t kind, uint32_t limit, const char *name)
{
    for (uint32_t i = 0; i < limit; i++)
        if (strcmp(iolens_fcounter_name(kind, i), name) == 0)
            return i;
    return -1;
}

/* A top-4 group: <L>_<W>n_<W> values and <L>_<W>n_COUNT counts, n = 1..4. */
struct top4_group {
    long value_idx[4];
    long count_idx[4];
};

static bool find_top4_group(const struct iolens_log_layer *L, uint32_t nc, const char *what,
                            struct top4_group *g)
{
    const char *lname = iolens_layer_name(L->kind);
    char name[128];
    for (int n = 0; n < 4; n++) {
        snprintf(name, sizeof name, "%s_%s%d_%s", lname, what, n + 1, what);
        g->value_idx[n] = find_counter(L->kind, nc, name);
        snprintf(name, sizeof name, "%s_%s%d_COUNT", lname, what, n + 1);
        g->count_idx[n] = find_counter(L->kind, nc, name);
        if (g->value_idx[n] < 0 || g->count_idx[n] < 0)
            return false;
    }
    return true;
}

struct value_count {
    int64_t value;
    int64_t count;
};

static int by_value(const void *a, const void *b)
{
    int64_t x = ((const struct value_count *)a)->value, y = ((const struct value_count *)b)->value;
    return x < y ? -1 : x > y;
}

/* Most frequent first; ties: larger value first (as the runtime ranks). */
static int by_rank(const void *a, const void *b)
{
    const struct value_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->value > y->value ? -1 : x->value < y->value;
}

/* Merges every record's top-4 (value, count) pairs, adds up the counts of
 * equal values and writes the new top 4 into totals. */
static int total_top4(const struct iolens_log_layer *L, const struct top4_group *g,
                      int64_t *totals)
{
    size_t n = 0;
    struct value_count *vc = NULL;
    if (L->record_count > 0) {
        if (L->record_count > SIZE_MAX / (4 * sizeof *vc))
            return -1;
        vc = malloc((size_t)L->record_count * 4 * sizeof *vc);
        if (vc == NULL)
            return -1;
    }
    for (uint64_t r = 0; r < L->record_count; r++)
        for (int k = 0; k < 4; k++) {
            int64_t count = counter_at(L, r, (uint32_t)g->count_idx[k]);
            if (count > 0)
                vc[n++] = (struct value_count){counter_at(L, r, (uint32_t)g->value_idx[k]), count};
        }
    if (n > 0)
        qsort(vc, n, sizeof *vc, by_value);
    size_t merged = 0;
    for (size_t i = 0; i < n; i++) {
        if (merged > 0 && vc[merged - 1].value == vc[i].value)
            vc[merged - 1].count = add_saturating(vc[merged - 1].count, vc[i].count);
        else
            vc[merged++] = vc[i];
    }
    if (merged > 0)
        qsort(vc, merged, sizeof *vc, by_rank);
    for (size_t k = 0; k < 4; k++) {
        totals[g->value_idx[k]] = k < merged ? vc[k].value : 0;
        totals[g->count_idx[k]] = k < merged ? vc[k].count : 0;
    }
    free(vc);
    return 0;
}

/* Size of the record whose *_F_MAX_<OP>_TIME is the largest. */
static int64_t total_slowest_size(const struct iolens_log_layer *L, uint32_t i, const char *name)
{
    const char *lname = iolens_layer_name(L->kind);
    size_t plen = strlen(lname) + 1;                     /* "POSIX_" */
    size_t core = strlen(name) - plen - strlen("_SIZE"); /* "MAX_READ_TIME" */
    char fname[128];
    snprintf(fname, sizeof fname, "%s_F_%.*s", lname, (int)core, name + plen);
    long fi = find_fcounter(L->kind, usable_fcounters(L), fname);
    int64_t size = 0;
    double slowest = -1.0;
    for (uint64_t r = 0; r < L->record_count; r++) {
        double t = fi >= 0 ? fcounter_at(L, r, (uint32_t)fi) : 0.0;
        if (t > slowest || r == 0) {
            slowest = t;
            size = counter_at(L, r, i);
        }
    }
    return size;
}

static int64_t total_int(const struct iolens_log_layer *L, uint32_t i, enum agg how)
{
    int64_t v = 0;
    for (uint64_t r = 0; r < L->record_count; r++) {
        int64_t x = counter_at(L, r, i);
        if (how == AGG_SUM)
            v = add_saturating(v, x);
        else if (how == AGG_MAX)
            v = r == 0 || x > v ? x : v;
        else if (how == AGG_AGREE)
            v = r == 0 || x == v ? x : -1;
        if (how == AGG_AGREE && v == -1 && r > 0)
            break;
    }
    return v;
}

static double total_float(const struct iolens_log_layer *L, uint32_t i, enum agg how)
{
    double v = 0.0;
    for (uint64_t r = 0; r < L->record_count; r++) {
        double x = fcounter_at(L, r, i);
        if (how == AGG_SUM)
            v += x;
        else if (how == AGG_MAX)
            v = r == 0 || x > v ? x : v;
        else if (how == AGG_MIN_NONZERO && x != 0.0)
            v = v == 0.0 || x < v ? x : v;
    }
    return v;
}

static int print_layer_totals(const struct iolens_log_layer *L)
{
    uint32_t nc = usable_counters(L), nf = usable_fcounters(L);
    int64_t *totals = calloc(nc > 0 ? nc : 1, sizeof *totals);
    bool *in_group = calloc(nc > 0 ? nc : 1, sizeof *in_group);
    if (totals == NULL || in_group == NULL) {
        free(totals);
        free(in_group);
        return -1;
    }
    static const char *const groups[] = {"STRIDE", "ACCESS"};
    for (size_t k = 0; k < 2; k++) {
        struct top4_group g;
        if (!find_top4_group(L, nc, groups[k], &g))
            continue;
        if (total_top4(L, &g, totals) != 0) {
            free(totals);
            free(in_group);
            return -1;
        }
        for (int n = 0; n < 4; n++)
            in_group[g.value_idx[n]] = in_group[g.count_idx[n]] = true;
    }
    for (uint32_t i = 0; i < nc; i++) {
        const char *name = iolens_counter_name(L->kind, i);
        enum agg how = classify_counter(name);
        if (in_group[i])
            ; /* done above */
        else if (how == AGG_SLOWEST_SIZE)
            totals[i] = total_slowest_size(L, i, name);
        else
            totals[i] = total_int(L, i, how);
        printf("total_%s: %" PRId64 "\n", name, totals[i]);
    }
    for (uint32_t i = 0; i < nf; i++) {
        const char *name = iolens_fcounter_name(L->kind, i);
        printf("total_%s: %.6f\n", name, total_float(L, i, classify_fcounter(name)));
    }
    free(totals);
    free(in_group);
    return 0;
}

static int print_total(const struct iolens_log *log)
{
    for (size_t l = 0; l < log->nlayers; l++)
        if (print_layer_totals(&log->layers[l]) != 0)
            return -1;
    return 0;
}

/* -------------------------------------------------------------- file -- */

/* One distinct file, merged over its records (one per rank). */
struct file_use {
    uint64_t id;
    int64_t rank;
    bool shared;
    int64_t reads, writes, bytes, max_offset;
};

/* Indices of the counters --file needs in one layer (-1: absent). */
struct file_counters {
    long reads, writes, bytes_read, bytes_written, max_read, max_written;
};

static void find_file_counters(const struct iolens_log_layer *L, struct file_counters *fc)
{
    const char *lname = iolens_layer_name(L->kind);
    uint32_t nc = usable_counters(L);
    char name[64];
#define FIND(field, suffix) \
    (snprintf(name, sizeof name, "%s_%s", lname, suffix), \
     fc->field = find_counter(L->kind, nc, name))
    FIND(reads, "READS");
    FIND(writes, "WRITES");
    FIND(bytes_read, "BYTES_READ");
    FIND(bytes_written, "BYTES_WRITTEN");
    FIND(max_read, "MAX_BYTE_READ");
    FIND(max_written, "MAX_BYTE_WRITTEN");
#undef FIND
}

static int64_t counter_or(const struct iolens_log_layer *L, uint64_t r, long i, int64_t dflt)
{
    return i >= 0 ? counter_at(L, r, (uint32_t)i) : dflt;
}

static struct file_use file_use_of(const struct iolens_log_layer *L, uint64_t r,
                                   const struct file_counters *fc)
{
    int64_t mr = counter_or(L, r, fc->max_read, -1), mw = counter_or(L, r, fc->max_written, -1);
    return (struct file_use){
        .id = L->id[r],
        .rank = L->rank[r],
        .shared = L->rank[r] == IOLENS_RANK_ALL,
        .reads = counter_or(L, r, fc->reads, 0),
        .writes = counter_or(L, r, fc->writes, 0),
        .bytes = add_saturating(counter_or(L, r, fc->bytes_read, 0),
                                counter_or(L, r, fc->bytes_written, 0)),
        .max_offset = mr > mw ? mr : mw,
    };
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const struct file_use *)a)->id, y = ((const struct file_use *)b)->id;
    return x < y ? -1 : x > y;
}

static const struct iolens_log_layer *find_layer(const struct iolens_log *log, uint32_t kind)
{
    for (size_t l = 0; l < log->nlayers; l++)
        if (log->layers[l].kind == kind)
            return &log->layers[l];
    return NULL;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Collects the POSIX records, then the STDIO records of files that have
 * no POSIX record, and merges records of one file (several ranks). */
static struct file_use *collect_files(const struct iolens_log *log, size_t *count)
{
    const struct iolens_log_layer *posix = find_layer(log, IOLENS_REGION_POSIX);
    const struct iolens_log_layer *stdio_l = find_layer(log, IOLENS_REGION_STDIO);
    uint64_t total = (posix ? posix->record_count : 0) + (stdio_l ? stdio_l->record_count : 0);
    uint64_t nposix = posix ? posix->record_count : 0;
    struct file_use *f = malloc((total > 0 ? (size_t)total : 1) * sizeof *f);
    uint64_t *posix_ids = malloc((nposix > 0 ? (size_t)nposix : 1) * sizeof *posix_ids);
    size_t n = 0;
    if (f == NULL || posix_ids == NULL) {
        free(f);
        free(posix_ids);
        return NULL;
    }
    if (nposix > 0) {
        memcpy(posix_ids, posix->id, (size_t)nposix * sizeof *posix_ids);
        qsort(posix_ids, (size_t)nposix, sizeof *posix_ids, compare_u64);
    }
    const struct iolens_log_layer *src[] = {posix, stdio_l};
    for (int s = 0; s < 2; s++) {
        if (src[s] == NULL)
            continue;
        struct file_counters fc;
        find_file_counters(src[s], &fc);
        for (uint64_t r = 0; r < src[s]->record_count; r++)
            if (s == 0 || bsearch(&src[s]->id[r], posix_ids, (size_t)nposix, sizeof *posix_ids,
                                  compare_u64) == NULL)
                f[n++] = file_use_of(src[s], r, &fc);
    }
    free(posix_ids);
    if (n > 0)
        qsort(f, n, sizeof *f, by_id);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct file_use *prev = m > 0 ? &f[m - 1] : NULL;
        if (prev == NULL || prev->id != f[i].id) {
            f[m++] = f[i];
            continue;
        }
        prev->shared = prev->shared || f[i].shared || prev->rank != f[i].rank;
        prev->reads = add_saturating(prev->reads, f[i].reads);
        prev->writes = add_saturating(prev->writes, f[i].writes);
        prev->bytes = add_saturating(prev->bytes, f[i].bytes);
        if (f[i].max_offset > prev->max_offset)
            prev->max_offset = f[i].max_offset;
    }
    *count = m;
    return f;
}

struct file_row {
    const char *label;
    int64_t files, bytes, max_offset;
};

static void add_to_row(struct file_row *row, const struct file_use *u)
{
    row->files++;
    row->bytes = add_saturating(row->bytes, u->bytes);
    if (u->max_offset > row->max_offset)
        row->max_offset = u->max_offset;
}

static int print_file(const struct iolens_log *log)
{
    size_t n = 0;
    struct file_use *f = collect_files(log, &n);
    if (f == NULL)
        return -1;
    enum { TOTAL, RO, WO, RW, UNIQUE, SHARED, NROWS };
    struct file_row rows[NROWS] = {
        {"total", 0, 0, -1},  {"read_only", 0, 0, -1}, {"write_only", 0, 0, -1},
        {"read_write", 0, 0, -1}, {"unique", 0, 0, -1}, {"shared", 0, 0, -1},
    };
    for (size_t i = 0; i < n; i++) {
        const struct file_use *u = &f[i];
        add_to_row(&rows[TOTAL], u);
        if (u->reads > 0 && u->writes == 0)
            add_to_row(&rows[RO], u);
        else if (u->writes > 0 && u->reads == 0)
            add_to_row(&rows[WO], u);
        else if (u->writes > 0 && u->reads > 0)
            add_to_row(&rows[RW], u);
        add_to_row(&rows[u->shared ? SHARED : UNIQUE], u);
    }
    printf("# <type>\t<files>\t<bytes>\t<max_offset>\n");
    for (int i = 0; i < NROWS; i++)
        printf("%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", rows[i].label, rows[i].files,
               rows[i].bytes, rows[i].max_offset);
    free(f);
    return 0;
}

/* ---------------------------------------------------- list counters -- */

static void print_counter_list(void)
{
    for (size_t k = 0; k < NLAYER_KINDS; k++) {
        uint32_t kind = layer_kinds[k];
        const char *lname = iolens_layer_name(kind);
        for (uint32_t i = 0; i < iolens_counter_known(kind); i++)
            printf("%s\t%s\t%s\n", lname, iolens_counter_name(kind, i),
                   iolens_counter_desc(kind, i));
        for (uint32_t i = 0; i < iolens_fcounter_known(kind); i++)
            printf("%s\t%s\t%s\n", lname, iolens_fcounter_name(kind, i),
                   iolens_fcounter_desc(kind, i));
    }
}

/* -------------------------------------------------------------- main -- */

static void usage(FILE *to)
{
    fprintf(to,
            "usage: " PROG " [--base|--total|--file] LOG\n"
            "       " PROG " --list-counters\n"
            "       " PROG " --help\n"
            "  --base           every counter of every record (default)\n"
            "  --total          each counter totalled over all records\n"
            "  --file           file counts: read-only, write-only, read-write, unique, shared\n"
            "  --list-counters  every counter with its description\n"
            "Exit status: 0 success, 1 usage or output error, 2 unreadable or invalid log.\n");
}

/* Flushes stdout; 0, or 1 after one line on stderr if output failed. */
static int finish_output(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, PROG ": error writing output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

static int parse_args(int argc, char **argv, enum mode *mode, const char **path)
{
    static const struct option opts[] = {
        {"base", no_argument, NULL, 'b'},   {"total", no_argument, NULL, 't'},
        {"file", no_argument, NULL, 'f'},   {"list-counters", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
    };
    int nmodes = 0, c;
    *mode = MODE_BASE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'b': *mode = MODE_BASE; nmodes++; break;
        case 't': *mode = MODE_TOTAL; nmodes++; break;
        case 'f': *mode = MODE_FILE; nmodes++; break;
        case 'l': *mode = MODE_LIST; nmodes++; break;
        case 'h': usage(stdout); exit(finish_output());
        default:
            fprintf(stderr, PROG ": unknown option '%s'\n", argv[optind - 1]);
            return -1;
        }
    }
    if (nmodes > 1) {
        fprintf(stderr, PROG ": give at most one of --base, --total, --file, --list-counters\n");
        return -1;
    }
    int want = *mode == MODE_LIST ? 0 : 1;
    if (argc - optind != want) {
        fprintf(stderr, want ? PROG ": expected one LOG argument\n"
                             : PROG ": --list-counters takes no LOG argument\n");
        return -1;
    }
    *path = want ? argv[optind] : NULL;
    return 0;
}

int main(int argc, char **argv)
{
    enum mode mode;
    const char *path;
    if (parse_args(argc, argv, &mode, &path) != 0) {
        usage(stderr);
        return 1;
    }
    if (mode == MODE_LIST) {
        print_counter_list();
        return finish_output();
    }

    struct iolens_log log;
    char err[256];
    if (iolens_log_read(path, &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return 2;
    }
    print_job_header(&log);
    int rc = 0;
    if (mode == MODE_BASE)
        print_base(&log);
    else if (mode == MODE_TOTAL)
        rc = print_total(&log);
    else
        rc = print_file(&log);
    iolens_log_free(&log);
    if (rc != 0) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        return 2;
    }
    return finish_output();
}
