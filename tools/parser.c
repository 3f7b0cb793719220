/*
 * iolens-parser: prints an iolens log as text.
 *
 *   --base (default)  every counter of every record, tab-separated (dump_base.c)
 *   --total           one total_<COUNTER> line per counter and layer,
 *                     combined by the counters' AGG rules (record_merge.h)
 *   --file            file counts by access type and sharing
 *   --stack           per file: bytes and time at each layer side by side
 *   --bps             BPS per layer and per shared file (util/analysis/bps.c)
 *   --timeseries      bytes read and written per time bin, layer and rank
 *   --perf            bandwidths: aggregate, MiB/s per compute node, union time
 *   --patterns        access-pattern labels and the job's file-sharing class
 *   --json            one JSON object (schema_version, iolens-parser(1))
 *   --csv             one row per file record
 *   --summary         one row per job, for many logs at once
 *   --advice          tuning findings with evidence and fix (util/analysis/advice.c)
 *   --list-counters   every counter this parser knows, with its meaning
 *
 * The analysis modes live in util/report/report_*.c (report.h).  Several LOG
 * arguments are read one after the other: a log that cannot be read gets
 * its line on stderr and the others are still processed.
 *
 * Layers, names and descriptions come from the layer descriptors of
 * format/record_merge.c, so a layer added there is printed everywhere.
 *
 * Exit status: 0 success, 1 usage or output error, 2 the log cannot be
 * read or is not a valid iolens log (one line on stderr says why).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/advice.h"
#include "analysis/bps.h"
#include "report/dump_base.h"
#include "report/report.h"
#include "output/real_text.h"
#include "output/text_escape.h"
#include "reader/reader.h"
#include "reader/reader_stream.h"
#include "format/compare.h"
#include "format/record_merge.h"
#include "format/sat_math.h"

#define PROG "iolens-parser"

enum mode {
    MODE_BASE, MODE_TOTAL, MODE_FILE, MODE_STACK, MODE_BPS, MODE_TIMESERIES,
    MODE_PERF, MODE_PATTERNS, MODE_JSON, MODE_CSV, MODE_SUMMARY, MODE_LIST, MODE_ADVICE
};

/* What the command line asked for. */
struct args {
    enum mode mode;
    char **paths;            /* the LOG arguments */
    int npaths;
    uint64_t block_size;     /* --block-size (--bps) */
    double bin;              /* --bin (--timeseries) */
    bool block_size_given, bin_given;
    struct iolens_advice_thresholds advice;  /* --advice-thresholds (--advice, --json) */
    bool advice_given;
};

#define DEFAULT_BLOCK_SIZE 512u
#define DEFAULT_BIN 1.0
/* Bins narrower than this are refused (the times are in nanoseconds). */
#define MIN_BIN 1e-9


/* ------------------------------------------------------------ output -- */

/* s[0..len) escaped on stdout (text_escape.h). */
static void put_escaped(const char *s, size_t len)
{
    iolens_put_escaped_n(stdout, s, len);
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

/* The first line of s (the MPI library's version string runs over several
 * lines); "none" when empty. */
static void put_first_line(const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && s[n] != '\n' && s[n] != '\0')
        n++;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n == 0)
        fputs("none", stdout);
    else
        put_escaped(s, n);
}

/* Entry i of a NUL-separated list of len bytes, or NULL; *n gets its length. */
static const char *list_entry(const char *s, size_t len, size_t i, size_t *n)
{
    size_t start = 0;
    for (size_t pos = 0; pos <= len; pos++) {
        if (pos < len && s[pos] != '\0')
            continue;
        if (i-- == 0) {
            *n = pos - start;
            return s + start;
        }
        start = pos + 1;
    }
    return NULL;
}

/* One line per rank of an MPI job (ranks region). */
static void print_ranks(const struct iolens_log *log)
{
    const char *hosts = log->jobstr[IOLENS_JOBSTR_HOSTS];
    size_t hosts_len = log->jobstr_len[IOLENS_JOBSTR_HOSTS];
    for (size_t r = 0; r < log->nranks; r++) {
        const struct iolens_rank_info *ri = &log->ranks[r];
        size_t n = 0;
        const char *host = list_entry(hosts, hosts_len, ri->host_index, &n);
        printf("# rank %zu: host ", r);
        if (host != NULL)
            put_escaped(host, n);
        else
            putchar('?');
        printf(" start %.6f end %.6f\n", ri->start_time, ri->end_time);
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
    if (log->flags & IOLENS_FLAG_INCOMPLETE)
        printf("# incomplete: yes (written at SIGTERM or exit without MPI_Finalize)\n");
    if (log->flags & IOLENS_FLAG_EXEC)
        printf("# exec: yes (written at execve; the program that followed, same pid, has its own log)\n");
    printf("# hosts: ");
    put_list(log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS]);
    printf("\n# iolens version: ");
    put_escaped_str(log->jobstr[IOLENS_JOBSTR_VERSION]);
    printf("\n# mpi library: ");
    put_first_line(log->jobstr[IOLENS_JOBSTR_MPI_VERSION],
                   log->jobstr_len[IOLENS_JOBSTR_MPI_VERSION]);
    printf("\n# memory budget: %" PRIu64 "\n# memory used: %" PRIu64
           "\n# memory needed: %" PRIu64 "\n",
           j->budget_bytes, j->budget_used, j->budget_needed);
    printf("# folded files: %" PRIu64, j->folded_files);
    if (j->folded_files > 0)
        printf(" (estimate, standard error %.1f%%)",
               100.0 * IOLENS_FOLDED_FILES_ERROR(j->budget_bytes));
    printf("\n# folded opens: %" PRIu64 "\n", j->folded_opens);
    printf("# unknown regions skipped: %u\n", log->unknown_regions);
    for (size_t i = 0; i < log->nmounts; i++) {
        printf("# mount: ");
        put_escaped_str(log->mounts[i].point);
        putchar('\t');
        put_escaped_str(log->mounts[i].fstype);
        printf("\t%" PRId64 "\n", log->mounts[i].block_size);
    }
    print_ranks(log);
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

/* -------------------------------------------------------------- base -- */

/* ------------------------------------------------------------- total -- */

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
 * kind as it is read (total_region), as described above: the records
 * merged in the order of the whole log's layer (top tables left out of
 * the merge), and each top table's entries combined tuple by tuple
 * as they come (equal tuples add up whatever the grouping, as the counts
 * are positive and add saturating), ranked once at the end. */
struct top_acc {
    struct iolens_top_table t;
    struct iolens_top_entry *e;   /* distinct tuples, sorted by tuple */
    size_t n, cap;
    int64_t state;                /* IOLENS_TOP_* of the records so far */
    int has;                      /* whether any record had an entry */
};

struct kind_total {
    const struct iolens_layer_desc *d;
    struct iolens_log_layer shape;   /* kind and counter counts: usable_counters */
    void *total, *rec;
    struct iolens_rank_stats rs;
    uint64_t records;
    struct top_acc *tops;
    size_t ntops;
};

struct totals {
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

static struct kind_total *kind_total_of(struct totals *T, const struct iolens_log_layer *L)
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

/* The entries of one region's records added to a top table's tuples: a
 * tuple already there adds its count in place (the common case: a job
 * has few distinct access sizes and strides); new ones are appended, then
 * sorted and combined once for the region. */
static int top_acc_add(struct top_acc *a, const struct iolens_log_layer *L)
{
    const struct iolens_top_table *t = &a->t;
    size_t known = a->n, n = a->n;
    uint32_t cc = L->counter_count;
    for (uint64_t r = 0; r < L->record_count; r++) {
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
    if (n > known) {
        qsort(a->e, n, sizeof *a->e, iolens_top_entry_cmp_tuple);
        n = iolens_top_entries_combine_sorted(a->e, n);
    }
    a->n = n;
    return 0;
}

static int total_region(void *ctx, const struct iolens_log_layer *L)
{
    struct kind_total *kt = kind_total_of(ctx, L);
    if (kt == NULL)
        return -1;
    if (kt->d == NULL)
        return 0;
    const struct iolens_layer_desc *d = kt->d;
    for (uint64_t r = 0; r < L->record_count; r++) {
        iolens_log_record_load(L, r, d, kt->rec);
        if (kt->records + r == 0)
            iolens_record_merge_begin(d, kt->total, kt->rec);
        else
            iolens_record_merge_no_top(d, kt->total, kt->rec);
        iolens_rank_stats_add(&kt->rs, d, L->rank[r], kt->rec);
    }
    kt->records += L->record_count;
    for (size_t i = 0; i < kt->ntops; i++)
        if (top_acc_add(&kt->tops[i], L) != 0)
            return -1;
    return 0;
}

static void print_kind_total(struct kind_total *kt)
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
    uint32_t nc = usable_counters(&kt->shape), nf = usable_fcounters(&kt->shape);
    for (uint32_t i = 0; i < nc; i++)
        printf("total_%s: %" PRId64 "\n", d->counter_names[i], totals[i]);
    for (uint32_t i = 0; i < nf; i++)
        printf("total_%s: %.6f\n", d->fcounter_names[i], iolens_rec_fcounters(d, kt->total)[i]);
}

static void totals_free(struct totals *T)
{
    for (size_t i = 0; i < T->n; i++) {
        free(T->k[i].total);
        free(T->k[i].rec);
        for (size_t j = 0; j < T->k[i].ntops; j++)
            free(T->k[i].tops[j].e);
        free(T->k[i].tops);
    }
}

static void print_totals(struct totals *T)
{
    for (size_t i = 0; i < T->n; i++)
        if (T->k[i].d != NULL)
            print_kind_total(&T->k[i]);
}

/* --total on a whole log: each layer is one region. */
static int print_total(const struct iolens_log *log)
{
    struct totals T = {.n = 0};
    int rc = 0;
    for (size_t l = 0; rc == 0 && l < log->nlayers; l++)
        rc = total_region(&T, &log->layers[l]);
    if (rc == 0)
        print_totals(&T);
    totals_free(&T);
    return rc;
}

/* -------------------------------------------------------------- file -- */

/*
 * --file: one entry per distinct file.  A file counts from its POSIX
 * records when it has any, else from its STDIO records, else from its
 * MPI-IO records (the layers above POSIX would count the same bytes
 * twice).  HDF5 records (H5F, H5D) are not counted: their files are
 * counted through the layers below, and --stack shows them.  A file is shared when it has a reduced record (rank
 * IOLENS_RANK_ALL); <L>_RANKS_OPENED of that record says by how many
 * ranks, which splits the shared files into shared_all (every rank of the
 * job) and shared_partial.
 */
struct file_use {
    uint64_t id;
    bool shared;
    int64_t ranks;           /* ranks that opened a shared file */
    int64_t reads, writes, bytes, max_offset;
};

static int64_t counter_named(const struct iolens_log_layer *L, uint64_t r, const char *lname,
                             const char *suffix, int64_t dflt)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", lname, suffix);
    for (uint32_t i = 0; i < usable_counters(L); i++)
        if (strcmp(iolens_counter_name(L->kind, i), name) == 0)
            return counter_at(L, r, i);
    return dflt;
}

static struct file_use file_use_of(const struct iolens_log_layer *L, uint64_t r,
                                   const struct iolens_layer_desc *d, void *rec)
{
    iolens_log_record_load(L, r, d, rec);
    int64_t mr = counter_named(L, r, d->name, "MAX_BYTE_READ", -1);
    int64_t mw = counter_named(L, r, d->name, "MAX_BYTE_WRITTEN", -1);
    bool shared = L->rank[r] == IOLENS_RANK_ALL;
    return (struct file_use){
        .id = L->id[r],
        .shared = shared,
        .ranks = shared ? iolens_rec_counters(rec)[d->ranks_opened] : 1,
        .reads = iolens_record_read_ops(d, rec),
        .writes = iolens_record_write_ops(d, rec),
        .bytes = iolens_record_io_bytes(d, rec),
        .max_offset = mr > mw ? mr : mw,
    };
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const struct file_use *)a)->id, y = ((const struct file_use *)b)->id;
    return x < y ? -1 : x > y;
}

/* Appends the uses of the records of L whose file is not in seen[0..nseen)
 * (sorted), then adds L's ids to seen. */
static int add_layer_files(const struct iolens_log_layer *L, struct file_use *f, size_t *n,
                           uint64_t *seen, size_t *nseen)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    void *rec = d != NULL ? malloc(d->record_size) : NULL;
    if (rec == NULL)
        return d == NULL ? 0 : -1;
    size_t before = *nseen;
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (bsearch(&L->id[r], seen, before, sizeof *seen, iolens_compare_u64) == NULL)
            f[(*n)++] = file_use_of(L, r, d, rec);
        seen[(*nseen)++] = L->id[r];
    }
    free(rec);
    qsort(seen, *nseen, sizeof *seen, iolens_compare_u64);
    return 0;
}

/* Merges the entries of one file (several per-rank records). */
static size_t merge_files(struct file_use *f, size_t n)
{
    if (n > 0)
        qsort(f, n, sizeof *f, by_id);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct file_use *prev = m > 0 ? &f[m - 1] : NULL;
        if (prev == NULL || prev->id != f[i].id) {
            f[m++] = f[i];
            continue;
        }
        if (f[i].shared && (!prev->shared || f[i].ranks > prev->ranks))
            prev->ranks = f[i].ranks;
        prev->shared = prev->shared || f[i].shared;
        prev->reads = iolens_sat_add(prev->reads, f[i].reads);
        prev->writes = iolens_sat_add(prev->writes, f[i].writes);
        prev->bytes = iolens_sat_add(prev->bytes, f[i].bytes);
        if (f[i].max_offset > prev->max_offset)
            prev->max_offset = f[i].max_offset;
    }
    return m;
}

static struct file_use *collect_files(const struct iolens_log *log, size_t *count)
{
    static const uint32_t order[] = {IOLENS_REGION_POSIX, IOLENS_REGION_STDIO,
                                     IOLENS_REGION_MPIIO};
    uint64_t total = 0;
    for (size_t l = 0; l < log->nlayers; l++)
        total += log->layers[l].record_count;
    if (total > SIZE_MAX / sizeof(struct file_use))
        return NULL;
    struct file_use *f = malloc((total > 0 ? (size_t)total : 1) * sizeof *f);
    uint64_t *seen = malloc((total > 0 ? (size_t)total : 1) * sizeof *seen);
    size_t n = 0, nseen = 0;
    int rc = f != NULL && seen != NULL ? 0 : -1;
    for (size_t k = 0; k < sizeof order / sizeof order[0] && rc == 0; k++) {
        const struct iolens_log_layer *L = iolens_log_layer_of(log, order[k]);
        if (L != NULL)
            rc = add_layer_files(L, f, &n, seen, &nseen);
    }
    free(seen);
    if (rc != 0) {
        free(f);
        return NULL;
    }
    *count = merge_files(f, n);
    return f;
}

struct file_row {
    const char *label;
    int64_t files, bytes, max_offset;
};

static void add_to_row(struct file_row *row, const struct file_use *u)
{
    row->files++;
    row->bytes = iolens_sat_add(row->bytes, u->bytes);
    if (u->max_offset > row->max_offset)
        row->max_offset = u->max_offset;
}

static int print_file(const struct iolens_log *log)
{
    size_t n = 0;
    struct file_use *f = collect_files(log, &n);
    if (f == NULL)
        return -1;
    enum { TOTAL, RO, WO, RW, UNIQUE, SHARED, SHARED_ALL, SHARED_PARTIAL, NROWS };
    struct file_row rows[NROWS] = {
        {"total", 0, 0, -1},      {"read_only", 0, 0, -1},  {"write_only", 0, 0, -1},
        {"read_write", 0, 0, -1}, {"unique", 0, 0, -1},     {"shared", 0, 0, -1},
        {"shared_all", 0, 0, -1}, {"shared_partial", 0, 0, -1},
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
        if (u->shared)
            add_to_row(&rows[u->ranks >= (int64_t)log->job.nprocs ? SHARED_ALL : SHARED_PARTIAL],
                       u);
    }
    printf("# <type>\t<files>\t<bytes>\t<max_offset>\n");
    for (int i = 0; i < NROWS; i++)
        printf("%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", rows[i].label, rows[i].files,
               rows[i].bytes, rows[i].max_offset);
    free(f);
    return 0;
}

/* ------------------------------------------------------------- stack -- */

/*
 * --stack: the layers of each file side by side.  One row per file path
 * (sorted by path), and for each of H5D, MPIIO, POSIX and STDIO that has a
 * region in the log three columns: bytes read, bytes written and I/O time
 * (read + write + metadata seconds), summed over the layer's records of
 * the file (every rank's, and the reduced record of a shared file).  H5D
 * records count for their file: the name of H5D_FILE_REC_ID, else the
 * dataset record's name up to its first ":/".  A layer with no record of
 * the file prints "-" in its columns.
 */
static const uint32_t stack_kinds[] = {IOLENS_REGION_H5D, IOLENS_REGION_MPIIO,
                                       IOLENS_REGION_POSIX, IOLENS_REGION_STDIO};
#define STACK_NKINDS (sizeof stack_kinds / sizeof stack_kinds[0])

/* One record's contribution to a file's row. */
struct stack_entry {
    char *file;            /* malloc'd */
    unsigned k;            /* index in stack_kinds */
    int64_t bytes_read, bytes_written;
    double time;
};

struct stack_cell {
    bool present;
    int64_t bytes_read, bytes_written;
    double time;
};

/* The file name a record counts for, malloc'd (an unnamed record: its id). */
static char *stack_file_of(const struct iolens_log *log, const struct iolens_log_layer *L,
                           uint64_t r)
{
    const char *name = iolens_log_name_of(log, L->id[r]);
    if (L->kind == IOLENS_REGION_H5D) {
        const char *file = NULL;
        if ((uint32_t)H5D_FILE_REC_ID < L->counter_count)
            file = iolens_log_name_of(log, (uint64_t)counter_at(L, r, H5D_FILE_REC_ID));
        if (file != NULL)
            return strdup(file);
        const char *sep = name != NULL ? strstr(name, ":/") : NULL;
        if (sep != NULL)
            return strndup(name, (size_t)(sep - name));
    }
    if (name != NULL)
        return strdup(name);
    char idbuf[32];
    snprintf(idbuf, sizeof idbuf, "%" PRIu64, L->id[r]);
    return strdup(idbuf);
}

/* Appends one entry per record of L to e (room for them is there). */
static int stack_add_layer(const struct iolens_log *log, const struct iolens_log_layer *L,
                           unsigned k, struct stack_entry *e, size_t *n)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    void *rec = malloc(d->record_size);
    if (rec == NULL)
        return -1;
    for (uint64_t r = 0; r < L->record_count; r++) {
        char *file = stack_file_of(log, L, r);
        if (file == NULL) {
            free(rec);
            return -1;
        }
        iolens_log_record_load(L, r, d, rec);
        const int64_t *c = iolens_rec_counters(rec);
        e[(*n)++] = (struct stack_entry){file, k, c[d->bytes_read], c[d->bytes_written],
                                         iolens_record_io_time(d, rec)};
    }
    free(rec);
    return 0;
}

static int by_file(const void *a, const void *b)
{
    return strcmp(((const struct stack_entry *)a)->file, ((const struct stack_entry *)b)->file);
}

static void print_stack_header(const struct iolens_log_layer **layer)
{
    fputs("# <file>", stdout);
    for (unsigned k = 0; k < STACK_NKINDS; k++)
        if (layer[k] != NULL) {
            const char *n = iolens_layer_name(stack_kinds[k]);
            printf("\t%s_bytes_read\t%s_bytes_written\t%s_time", n, n, n);
        }
    putchar('\n');
}

static void print_stack_row(const char *file, const struct stack_cell *cell,
                            const struct iolens_log_layer **layer)
{
    put_escaped_str(file);
    for (unsigned k = 0; k < STACK_NKINDS; k++) {
        if (layer[k] == NULL)
            continue;
        if (cell[k].present)
            printf("\t%" PRId64 "\t%" PRId64 "\t%.6f", cell[k].bytes_read,
                   cell[k].bytes_written, cell[k].time);
        else
            fputs("\t-\t-\t-", stdout);
    }
    putchar('\n');
}

/* Entries sorted by file: one row per run of equal files. */
static void print_stack_rows(const struct stack_entry *e, size_t n,
                             const struct iolens_log_layer **layer)
{
    for (size_t i = 0; i < n;) {
        struct stack_cell cell[STACK_NKINDS] = {{0}};
        size_t j = i;
        for (; j < n && strcmp(e[j].file, e[i].file) == 0; j++) {
            struct stack_cell *c = &cell[e[j].k];
            c->present = true;
            c->bytes_read = iolens_sat_add(c->bytes_read, e[j].bytes_read);
            c->bytes_written = iolens_sat_add(c->bytes_written, e[j].bytes_written);
            c->time += e[j].time;
        }
        print_stack_row(e[i].file, cell, layer);
        i = j;
    }
}

static int print_stack(const struct iolens_log *log)
{
    const struct iolens_log_layer *layer[STACK_NKINDS];
    uint64_t total = 0;
    for (unsigned k = 0; k < STACK_NKINDS; k++) {
        layer[k] = iolens_log_layer_of(log, stack_kinds[k]);
        total += layer[k] != NULL ? layer[k]->record_count : 0;
    }
    if (total > SIZE_MAX / sizeof(struct stack_entry))
        return -1;
    struct stack_entry *e = malloc((total > 0 ? (size_t)total : 1) * sizeof *e);
    size_t n = 0;
    int rc = e != NULL ? 0 : -1;
    for (unsigned k = 0; k < STACK_NKINDS && rc == 0; k++)
        if (layer[k] != NULL)
            rc = stack_add_layer(log, layer[k], k, e, &n);
    if (rc == 0) {
        if (n > 0)
            qsort(e, n, sizeof *e, by_file);
        print_stack_header(layer);
        print_stack_rows(e, n, layer);
    }
    for (size_t i = 0; i < n; i++)
        free(e[i].file);
    free(e);
    return rc;
}

/* --------------------------------------------------------------- bps -- */

/*
 * --bps: for each layer with intervals, the figures of the whole job, then
 * those of each shared file at that layer (sorted by record id), as
 * "<layer> <file> <metric> <value>" lines (file "*" for the whole layer).
 * The metrics and their formulas are in iolens-parser(1); util/analysis/bps.c
 * computes them.  An undefined figure (a division by zero) prints "-", an
 * unbounded one "inf".
 */

static void bps_line_start(const struct iolens_log *log, const struct iolens_bps *b,
                           const char *metric)
{
    printf("%s\t", iolens_layer_name(b->kind));
    const char *name = b->file_id != 0 ? iolens_log_name_of(log, b->file_id) : "*";
    if (name != NULL)
        put_escaped_str(name);
    else
        printf("%" PRIu64, b->file_id);
    printf("\t%s\t", metric);
}

static void bps_real(const struct iolens_log *log, const struct iolens_bps *b,
                     const char *metric, double v)
{
    bps_line_start(log, b, metric);
    iolens_put_real(stdout, v);
    putchar('\n');
}

static void bps_int(const struct iolens_log *log, const struct iolens_bps *b, const char *metric,
                    uint64_t v)
{
    bps_line_start(log, b, metric);
    printf("%" PRIu64 "\n", v);
}

static void print_bps_row(const struct iolens_log *log, const struct iolens_bps *b,
                          uint64_t block_size)
{
    struct iolens_bps_figures f;
    iolens_bps_derive(b, block_size, log->job.run_time, &f);
    bps_int(log, b, "intervals", b->intervals);
    bps_int(log, b, "accesses", b->accesses);
    bps_line_start(log, b, "bytes");
    printf("%" PRId64 "\n", b->bytes);
    bps_int(log, b, "block_size", block_size);
    bps_real(log, b, "blocks", f.blocks);
    bps_real(log, b, "time", b->time);
    bps_real(log, b, "time_lower", b->time_lower);
    bps_real(log, b, "time_upper", b->time_upper);
    bps_line_start(log, b, "time_bounds");
    puts(f.wide ? "wide" : "tight");
    bps_real(log, b, "error_bound", b->error_bound);
    bps_real(log, b, "bps", f.bps);
    bps_real(log, b, "bps_min", f.bps_min);
    bps_real(log, b, "bps_max", f.bps_max);
    bps_real(log, b, "mib_per_s", f.mib_per_s);
    bps_real(log, b, "mib_per_s_min", f.mib_per_s_min);
    bps_real(log, b, "mib_per_s_max", f.mib_per_s_max);
    bps_real(log, b, "busy_fraction", f.busy_fraction);
    bps_real(log, b, "access_time", b->access_time);
    bps_real(log, b, "iops", f.iops);
    bps_real(log, b, "conv_mib_per_s", f.conv_mib_per_s);
    bps_real(log, b, "avg_response_time", f.avg_response_time);
    if (b->file_id == 0)
        bps_int(log, b, "mixed_intervals", b->mixed);
}

/* A layer's read_* or write_* lines (util/analysis/bps.h: iolens_bps_direction). */
static int print_bps_direction(const struct iolens_log *log, const struct iolens_bps *b,
                               uint32_t flag, const char *dir)
{
    struct iolens_bps_direction d;
    if (iolens_bps_direction(log, b->kind, flag, &d) != 0)
        return -1;
    char metric[32];
    snprintf(metric, sizeof metric, "%s_intervals", dir);
    bps_int(log, b, metric, d.intervals);
    snprintf(metric, sizeof metric, "%s_accesses", dir);
    bps_int(log, b, metric, d.accesses);
    snprintf(metric, sizeof metric, "%s_bytes", dir);
    bps_line_start(log, b, metric);
    printf("%" PRId64 "\n", d.bytes);
    snprintf(metric, sizeof metric, "%s_time", dir);
    bps_real(log, b, metric, d.time);
    snprintf(metric, sizeof metric, "%s_mib_per_s", dir);
    bps_real(log, b, metric, d.mib_per_s);
    snprintf(metric, sizeof metric, "%s_rw_merged", dir);
    bps_int(log, b, metric, d.rw_merged);
    return 0;
}

/* One line per rank with intervals (the sets are sorted by rank). */
static void print_clock_offsets(const struct iolens_log *log)
{
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *s = &log->intervals[i];
        if (i > 0 && s->rank == log->intervals[i - 1].rank)
            continue;
        printf("# bps rank %" PRId64 ": clock offset %.9f uncertainty %.9f\n", s->rank,
               s->clock_offset, s->clock_uncertainty);
    }
}

static int print_bps(const struct iolens_log *log, uint64_t block_size)
{
    struct iolens_bps_report r;
    if (iolens_bps_compute(log, &r) != 0)
        return -1;
    printf("# bps block size: %" PRIu64 "\n", block_size);
    print_clock_offsets(log);
    printf("#<layer>\t<file>\t<metric>\t<value>\n");
    int rc = 0;
    for (size_t i = 0; i < r.n && rc == 0; i++) {
        print_bps_row(log, &r.rows[i], block_size);
        if (r.rows[i].file_id == 0)
            rc = print_bps_direction(log, &r.rows[i], IOLENS_IV_READ, "read") != 0 ||
                         print_bps_direction(log, &r.rows[i], IOLENS_IV_WRITE, "write") != 0
                     ? -1
                     : 0;
    }
    iolens_bps_report_free(&r);
    return rc;
}

/* -------------------------------------------------------- timeseries -- */

/*
 * --timeseries: bytes per time bin, per layer for the whole job (rank
 * "all") and per rank, bins without bytes left out (util/analysis/bps.h says how
 * an access's bytes are spread over bins).  Returns -1 when out of memory,
 * -2 when the bins are too many.
 */
static int print_timeseries(const struct iolens_log *log, double width)
{
    struct iolens_ts_bin *b;
    size_t n;
    enum iolens_ts_status st = iolens_timeseries(log, width, &b, &n);
    if (st != IOLENS_TS_OK)
        return st == IOLENS_TS_NOMEM ? -1 : -2;
    printf("# timeseries bin: %.9f\n", width);
    printf("#<layer>\t<rank>\t<bin>\t<start>\t<end>\t<bytes_read>\t<bytes_written>"
           "\t<bytes_read_write>\n");
    for (size_t i = 0; i < n; i++) {
        printf("%s\t", iolens_layer_name(b[i].kind));
        if (b[i].rank == IOLENS_RANK_ALL)
            fputs("all", stdout);
        else
            printf("%" PRId64, b[i].rank);
        printf("\t%" PRId64 "\t%.6f\t%.6f\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", b[i].bin,
               (double)b[i].bin * width, (double)(b[i].bin + 1) * width, b[i].bytes_read,
               b[i].bytes_written, b[i].bytes_rw);
    }
    free(b);
    return 0;
}

/* ---------------------------------------------------- list counters -- */

static void print_counter_list(void)
{
    for (unsigned k = 0; k < iolens_layer_desc_count(); k++) {
        uint32_t kind = iolens_layer_desc_at(k)->region_kind;
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
            "usage: " PROG " [--base|--total|--file|--stack|--perf|--patterns|--csv] LOG...\n"
            "       " PROG " --bps|--json [--block-size N] LOG...\n"
            "       " PROG " --timeseries [--bin SECONDS] LOG...\n"
            "       " PROG " --summary [--block-size N] LOG...\n"
            "       " PROG " --advice [--advice-thresholds KEY=VALUE,...] LOG...\n"
            "       " PROG " --list-counters\n"
            "       " PROG " --help\n"
            "  --base           every counter of every record (default)\n"
            "  --total          each counter totalled over all records\n"
            "  --file           file counts: read-only, write-only, read-write, unique, shared\n"
            "  --stack          per file, bytes read/written and time at H5D, MPIIO, POSIX, STDIO\n"
            "  --bps            blocks per second per layer and shared file, with IOPS,\n"
            "                   bandwidth and response time for comparison\n"
            "  --block-size N   bytes per block for --bps (default 512)\n"
            "  --timeseries     bytes read and written per time bin, per layer and rank\n"
            "  --bin SECONDS    width of a --timeseries bin (default 1)\n"
            "  --perf           aggregate MiB/s, MiB/s per compute node, union-time bandwidth\n"
            "  --patterns       access pattern per file and rank, the job's sharing class\n"
            "  --json           everything above as one JSON object per log\n"
            "  --csv            one row per file record\n"
            "  --summary        one row per job: exe, nprocs, nnodes, bytes, MiB/s/CN, BPS, sharing\n"
            "  --advice         findings in priority order: code, evidence, suggested fix\n"
            "  --advice-thresholds KEY=VALUE,...\n"
            "                   change rule thresholds of --advice and --json (iolens-parser(1))\n"
            "  --list-counters  every counter with its description\n"
            "  --max-log-size SIZE\n"
            "                   refuse a log that decompresses to more than SIZE bytes\n"
            "                   (K, M, G, T; default $IOLENS_MAX_LOG_SIZE, else 1G)\n"
            "Exit status: 0 success, 1 usage or output error, 2 unreadable or invalid log\n"
            "(or one that claims more than the limit).\n");
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

/* A positive integer of at most 2^40 (a block size). */
static bool parse_block_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v == 0 || v > (1ull << 40))
        return false;
    *out = v;
    return true;
}

/* A finite number of seconds of at least MIN_BIN. */
static bool parse_bin(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < MIN_BIN)
        return false;
    *out = v;
    return true;
}

static int set_value_option(int c, const char *value, struct args *a)
{
    if (c == 'B' && parse_block_size(value, &a->block_size)) {
        a->block_size_given = true;
        return 0;
    }
    if (c == 'n' && parse_bin(value, &a->bin)) {
        a->bin_given = true;
        return 0;
    }
    fprintf(stderr, c == 'B' ? PROG ": --block-size wants a whole number of bytes from 1 to 2^40, "
                               "not '%s'\n"
                             : PROG ": --bin wants a number of seconds of at least 1e-9, "
                               "not '%s'\n",
            value);
    return -1;
}

/* --max-log-size: the reader's limit (reader.h), above IOLENS_MAX_LOG_SIZE. */
static int set_max_log_size(const char *value)
{
    uint64_t bytes;
    if (iolens_log_parse_size(value, &bytes) != 0) {
        fprintf(stderr, PROG ": --max-log-size wants a size (bytes, or a number with K, M, G "
                        "or T), not '%s'\n", value);
        return -1;
    }
    iolens_log_set_max_size(bytes);
    return 0;
}

/* --advice-thresholds: may be given several times, later keys win. */
static int set_advice_thresholds(const char *list, struct args *a)
{
    char err[256];
    if (iolens_advice_parse(&a->advice, list, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": --advice-thresholds: %s\n", err);
        return -1;
    }
    a->advice_given = true;
    return 0;
}

/* The options that only make sense with one mode. */
static int check_mode_options(const struct args *a)
{
    if (a->block_size_given && a->mode != MODE_BPS && a->mode != MODE_JSON &&
        a->mode != MODE_SUMMARY) {
        fprintf(stderr, PROG ": --block-size goes with --bps, --json or --summary\n");
        return -1;
    }
    if (a->bin_given && a->mode != MODE_TIMESERIES) {
        fprintf(stderr, PROG ": --bin goes with --timeseries\n");
        return -1;
    }
    if (a->advice_given && a->mode != MODE_ADVICE && a->mode != MODE_JSON) {
        fprintf(stderr, PROG ": --advice-thresholds goes with --advice or --json\n");
        return -1;
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
    static const struct option opts[] = {
        {"base", no_argument, NULL, 'b'},   {"total", no_argument, NULL, 't'},
        {"file", no_argument, NULL, 'f'},   {"stack", no_argument, NULL, 's'},
        {"bps", no_argument, NULL, 'p'},    {"timeseries", no_argument, NULL, 'T'},
        {"block-size", required_argument, NULL, 'B'},
        {"bin", required_argument, NULL, 'n'},
        {"perf", no_argument, NULL, 'P'},   {"patterns", no_argument, NULL, 'A'},
        {"json", no_argument, NULL, 'j'},   {"csv", no_argument, NULL, 'c'},
        {"summary", no_argument, NULL, 'S'},
        {"advice", no_argument, NULL, 'a'},
        {"advice-thresholds", required_argument, NULL, 'H'},
        {"list-counters", no_argument, NULL, 'l'},
        {"max-log-size", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
    };
    int nmodes = 0, c;
    *a = (struct args){.mode = MODE_BASE, .block_size = DEFAULT_BLOCK_SIZE, .bin = DEFAULT_BIN};
    iolens_advice_defaults(&a->advice);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case 'b': a->mode = MODE_BASE; nmodes++; break;
        case 't': a->mode = MODE_TOTAL; nmodes++; break;
        case 'f': a->mode = MODE_FILE; nmodes++; break;
        case 's': a->mode = MODE_STACK; nmodes++; break;
        case 'p': a->mode = MODE_BPS; nmodes++; break;
        case 'T': a->mode = MODE_TIMESERIES; nmodes++; break;
        case 'P': a->mode = MODE_PERF; nmodes++; break;
        case 'A': a->mode = MODE_PATTERNS; nmodes++; break;
        case 'j': a->mode = MODE_JSON; nmodes++; break;
        case 'c': a->mode = MODE_CSV; nmodes++; break;
        case 'S': a->mode = MODE_SUMMARY; nmodes++; break;
        case 'l': a->mode = MODE_LIST; nmodes++; break;
        case 'a': a->mode = MODE_ADVICE; nmodes++; break;
        case 'H':
            if (set_advice_thresholds(optarg, a) != 0)
                return -1;
            break;
        case 'B':
        case 'n':
            if (set_value_option(c, optarg, a) != 0)
                return -1;
            break;
        case 'M':
            if (set_max_log_size(optarg) != 0)
                return -1;
            break;
        case 'h': usage(stdout); exit(finish_output());
        case ':':
            fprintf(stderr, PROG ": option '%s' needs a value\n", argv[optind - 1]);
            return -1;
        default:
            fprintf(stderr, PROG ": unknown option '%s'\n", argv[optind - 1]);
            return -1;
        }
    }
    if (nmodes > 1) {
        fprintf(stderr, PROG ": give at most one of --base, --total, --file, --stack, --bps, "
                        "--timeseries, --perf, --patterns, --json, --csv, --summary, "
                        "--advice, --list-counters\n");
        return -1;
    }
    if (check_mode_options(a) != 0)
        return -1;
    a->paths = argv + optind;
    a->npaths = argc - optind;
    if (a->mode == MODE_LIST && a->npaths != 0) {
        fprintf(stderr, PROG ": --list-counters takes no LOG argument\n");
        return -1;
    }
    if (a->mode != MODE_LIST && a->npaths == 0) {
        fprintf(stderr, PROG ": expected at least one LOG argument\n");
        return -1;
    }
    return 0;
}

/* Prints the body of the mode; 0, -1 out of memory, -2 too many bins. */
static int print_mode(const struct iolens_log *log, const struct args *a)
{
    switch (a->mode) {
    case MODE_TOTAL: return print_total(log);
    case MODE_FILE: return print_file(log);
    case MODE_STACK: return print_stack(log);
    case MODE_BPS: return print_bps(log, a->block_size);
    case MODE_TIMESERIES: return print_timeseries(log, a->bin);
    case MODE_PERF: return iolens_report_perf(stdout, log);
    case MODE_PATTERNS: return iolens_report_patterns(stdout, log);
    case MODE_ADVICE: return iolens_report_advice(stdout, log, &a->advice);
    default: return iolens_dump_base(stdout, log) == -1 ? -1 : 0;
    }
}

/* The modes whose output is not the text report: no job header. */
static bool mode_has_header(enum mode m)
{
    return m != MODE_JSON && m != MODE_CSV && m != MODE_SUMMARY;
}

/* Output of one readable log; 0, or 1 (usage-like error) or 2 (out of memory). */
static int print_one(const struct iolens_log *log, const char *path, const struct args *a)
{
    int rc;
    if (a->mode == MODE_JSON)
        rc = iolens_report_json(stdout, log, a->block_size, &a->advice);
    else if (a->mode == MODE_CSV)
        rc = iolens_report_csv(stdout, log);
    else if (a->mode == MODE_SUMMARY)
        rc = iolens_report_summary_row(stdout, log, path, a->block_size);
    else {
        print_job_header(log);
        rc = print_mode(log, a);
    }
    if (rc == -2) {
        fflush(stdout);
        fprintf(stderr, PROG ": %s: --bin %g makes more than %llu bin pieces; use a wider bin\n",
                path, a->bin, (unsigned long long)IOLENS_TS_MAX_PIECES);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        return 2;
    }
    return 0;
}

/* --total and --base (the modes that go through a log's records once, in
 * order) on a streamed log (reader_stream.h): memory bounded by a region,
 * not the log.  IOLENS_PARSER_WHOLE_LOG=1 reads the whole log instead (the
 * tests compare the two). */
static bool streamed(const struct args *a)
{
    const char *whole = getenv("IOLENS_PARSER_WHOLE_LOG");
    return (a->mode == MODE_TOTAL || a->mode == MODE_BASE) &&
           (whole == NULL || strcmp(whole, "1") != 0);
}

static int process_stream(const char *path, const struct args *a)
{
    struct iolens_stream *s;
    struct totals T = {.n = 0};
    char err[256];
    bool total = a->mode == MODE_TOTAL;
    if (iolens_stream_open(path, total ? total_region : NULL, &T, &s, err, sizeof err) !=
        IOLENS_READ_OK) {
        totals_free(&T);
        fflush(stdout);
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return 2;
    }
    print_job_header(iolens_stream_log(s));
    int rc = 0;
    if (total) {
        print_totals(&T);
    } else {
        rc = iolens_dump_base_stream(stdout, s);
    }
    totals_free(&T);
    if (rc == -3) {
        fflush(stdout);
        fprintf(stderr, PROG ": %s: %s\n", path, iolens_stream_error(s));
        rc = 2;
    } else if (rc == -1) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        rc = 2;
    } else {
        rc = 0;
    }
    iolens_stream_close(s);
    return rc;
}

/* Reads and prints one log; its exit status (0, 1 or 2). */
static int process_log(const char *path, const struct args *a)
{
    if (streamed(a))
        return process_stream(path, a);
    struct iolens_log log;
    char err[256];
    if (iolens_log_read(path, &log, err, sizeof err) != IOLENS_READ_OK) {
        fflush(stdout);
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return 2;
    }
    int rc = print_one(&log, path, a);
    iolens_log_free(&log);
    return rc;
}

int main(int argc, char **argv)
{
    struct args a;
    if (parse_args(argc, argv, &a) != 0) {
        usage(stderr);
        return 1;
    }
    if (a.mode == MODE_LIST) {
        print_counter_list();
        return finish_output();
    }
    if (a.mode == MODE_SUMMARY && iolens_report_summary_header(stdout) != 0)
        return 2;
    /* The worst status wins: 2 (a bad log) over 1 over 0. */
    int status = 0;
    for (int i = 0; i < a.npaths; i++) {
        if (i > 0 && mode_has_header(a.mode))
            putchar('\n');
        int rc = process_log(a.paths[i], &a);
        if (rc > status)
            status = rc;
    }
    int out = finish_output();
    return status ? status : out;
}
