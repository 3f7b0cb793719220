/*
 * --patterns: the access-pattern label of every record of the layers with
 * a pattern detector (POSIX, MPIIO), then the job's file-sharing class and
 * the figures of the Intrepid study's per-project table.  Tab-separated,
 * one fact per line, so that grep and cut find them:
 *
 *   #<layer>\t<rank>\t<nranks>\t<pattern>\t<accesses>\t<fit_pct>\t<params>\t<file>
 *   POSIX\t0\t1\tstrided\t64\t100.0\tsize=4096 stride=16384\t/scratch/a
 *   MPIIO\t-1\t4\tstrided\t256\t100.0\tsize=1048576 stride=4194304\t/scratch/b
 *   #job\t<metric>\t<value>
 *   job\tsharing\tN:1
 *   ...
 *
 * rank -1 is a shared record (reduced over nranks ranks); params are
 * "key=value" words (patterns.h); file names are escaped as in the other
 * modes (control characters and backslash as \ooo).  Metrics with nothing
 * to divide by print "-".  Layout and rules: iolens-parser(1).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/patterns.h"
#include "analysis/perf.h"
#include "format/compare.h"
#include "format/record_merge.h"
#include "report/report.h"
#include "format/sat_math.h"
#include "analysis/sharing.h"
#include "output/real_text.h"
#include "output/put_escaped.h"

static int is_std_stream(uint64_t id)
{
    return id == IOLENS_ID_STDIN || id == IOLENS_ID_STDOUT || id == IOLENS_ID_STDERR;
}

/* ------------------------------------------------------- per record -- */

static void print_record(FILE *out, const struct iolens_log *log,
                         const struct iolens_log_layer *L, uint64_t r)
{
    struct iolens_pattern p;
    struct iolens_file_share fs;
    iolens_pattern_of_record(L, r, &p);
    iolens_file_sharing_of_record(log, L, r, &fs);
    fprintf(out, "%s\t%" PRId64 "\t%" PRId64 "\t%s\t%" PRId64 "\t", iolens_layer_name(L->kind),
            L->rank[r], fs.nranks, iolens_pattern_name(p.kind), p.accesses);
    if (p.kind == IOLENS_PATTERN_NONE || p.kind == IOLENS_PATTERN_UNKNOWN)
        fputc('-', out);
    else
        fprintf(out, "%.1f", 100.0 * p.regular_share);
    fputc('\t', out);
    iolens_pattern_print_params(out, &p);
    fputc('\t', out);
    const char *name = iolens_log_name_of(log, L->id[r]);
    if (name != NULL)
        iolens_put_escaped(out, name);
    else
        fputc('-', out);
    fputc('\n', out);
}

static void print_records(FILE *out, const struct iolens_log *log)
{
    fputs("#<layer>\t<rank>\t<nranks>\t<pattern>\t<accesses>\t<fit_pct>\t<params>\t<file>\n",
          out);
    /* the layers with a pattern detector, in table order */
    for (unsigned k = 0; k < iolens_layer_desc_count(); k++)
        for (size_t l = 0; l < log->nlayers; l++) {
            const struct iolens_log_layer *L = &log->layers[l];
            const struct iolens_layer_desc *d = iolens_layer_desc_at(k);
            if (L->kind != d->region_kind || d->pattern_first < 0)
                continue;
            for (uint64_t r = 0; r < L->record_count; r++)
                if (!is_std_stream(L->id[r]))
                    print_record(out, log, L, r);
        }
}

/* -------------------------------------------------------- job level -- */

/* The Intrepid table's columns, from the POSIX layer. */
struct job_figures {
    int64_t files, files_created;
    int64_t accesses, seq, consec, misaligned;
    size_t nsizes;
    struct iolens_top_entry sizes[4];
    int64_t sizes_state;   /* IOLENS_TOP_* of sizes */
};

/* Distinct ids among ids[0..n), sorted in place. */
static int64_t distinct(uint64_t *ids, size_t n)
{
    qsort(ids, n, sizeof *ids, iolens_compare_u64);
    int64_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || ids[i] != ids[i - 1];
    return d;
}

/* Files and files created: distinct record ids, and those with an open
 * that passed a mode (POSIX_MODE > 0: 0 is Darshan's "none"). */
static int count_files(const struct iolens_log_layer *L, struct job_figures *f)
{
    size_t n = (size_t)L->record_count, nf = 0, nc = 0;
    uint64_t *all = malloc((n + 1) * sizeof *all), *created = malloc((n + 1) * sizeof *created);
    if (all == NULL || created == NULL) {
        free(all);
        free(created);
        return -1;
    }
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (is_std_stream(L->id[r]))
            continue;
        all[nf++] = L->id[r];
        if (iolens_log_counter(L, r, POSIX_MODE) > 0)
            created[nc++] = L->id[r];
    }
    f->files = distinct(all, nf);
    f->files_created = distinct(created, nc);
    free(all);
    free(created);
    return 0;
}

/* The four most common access sizes over all records: their (size,
 * count) pairs combined, as the shared-file reduction does. */
static int common_sizes(const struct iolens_log_layer *L, struct job_figures *f)
{
    size_t n = 0, cap = (size_t)L->record_count * 4 + 1;
    struct iolens_top_entry *e = calloc(cap, sizeof *e);
    if (e == NULL)
        return -1;
    int64_t state = IOLENS_TOP_EXACT_ALL;
    int any = 0;
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (is_std_stream(L->id[r]))
            continue;
        size_t first = n;
        for (int j = 0; j < 4; j++) {
            int64_t count = iolens_log_counter(L, r, POSIX_ACCESS1_COUNT + j);
            if (count <= 0)
                continue;
            e[n].value[0] = iolens_log_counter(L, r, POSIX_ACCESS1_ACCESS + j);
            e[n++].count = count;
        }
        /* Whether the union outgrows the four is settled below. */
        state = iolens_top_state_merge(state, any, iolens_log_counter(L, r, POSIX_ACCESS_TOP_STATE),
                                       n > first, 0, 4);
        any |= n > first;
    }
    qsort(e, n, sizeof *e, iolens_top_entry_cmp_tuple);
    n = iolens_top_entries_combine_sorted(e, n);
    f->sizes_state = state == IOLENS_TOP_EXACT_ALL && n > 4 ? IOLENS_TOP_EXACT : state;
    qsort(e, n, sizeof *e, iolens_top_entry_cmp_rank);
    f->nsizes = n < 4 ? n : 4;
    memcpy(f->sizes, e, f->nsizes * sizeof *e);
    free(e);
    return 0;
}

static int job_figures(const struct iolens_log *log, struct job_figures *f)
{
    memset(f, 0, sizeof *f);
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL)
        return 0;
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (is_std_stream(L->id[r]))
            continue;
        f->accesses = iolens_sat_add(f->accesses, iolens_sat_add(iolens_log_counter(L, r, POSIX_READS),
                                                                 iolens_log_counter(L, r, POSIX_WRITES)));
        f->seq = iolens_sat_add(f->seq, iolens_sat_add(iolens_log_counter(L, r, POSIX_SEQ_READS),
                                                       iolens_log_counter(L, r, POSIX_SEQ_WRITES)));
        f->consec = iolens_sat_add(f->consec, iolens_sat_add(iolens_log_counter(L, r, POSIX_CONSEC_READS),
                                                             iolens_log_counter(L, r, POSIX_CONSEC_WRITES)));
        f->misaligned = iolens_sat_add(f->misaligned, iolens_log_counter(L, r, POSIX_FILE_NOT_ALIGNED));
    }
    if (count_files(L, f) != 0 || common_sizes(L, f) != 0)
        return -1;
    return 0;
}

static void put_int(FILE *out, const char *metric, int64_t v)
{
    fprintf(out, "job\t%s\t%" PRId64 "\n", metric, v);
}

/* An unbounded figure prints "-" here, as an undefined one does. */
static void put_real_line(FILE *out, const char *metric, double v)
{
    fprintf(out, "job\t%s\t", metric);
    iolens_put_real(out, isinf(v) ? NAN : v);
    fputc('\n', out);
}

static double ratio(int64_t a, int64_t b)
{
    return b > 0 ? (double)a / (double)b : NAN;
}

static void print_job(FILE *out, const struct iolens_log *log, const struct iolens_sharing *sh,
                      const struct job_figures *f, const struct iolens_perf *perf)
{
    fputs("#job\t<metric>\t<value>\n", out);
    fprintf(out, "job\tsharing\t%s\n", iolens_sharing_name(sh->cls));
    fprintf(out, "job\tsharing_layer\t%s\n",
            sh->layer != 0 ? iolens_layer_name(sh->layer) : "-");
    put_int(out, "nprocs", sh->nprocs);
    put_int(out, "bytes", sh->bytes);
    put_int(out, "bytes_unique_files", sh->bytes_unique);
    put_int(out, "bytes_shared_by_all", sh->bytes_all);
    put_int(out, "bytes_shared_by_subset", sh->bytes_subset);
    put_int(out, "top_rank", sh->top_rank);
    put_real_line(out, "top_rank_pct", sh->bytes > 0 ? 100.0 * sh->top_rank_share : NAN);
    put_int(out, "files", f->files);
    put_real_line(out, "files_per_process", ratio(f->files, sh->nprocs));
    put_int(out, "files_created", f->files_created);
    put_real_line(out, "files_created_per_process", ratio(f->files_created, sh->nprocs));
    put_int(out, "accesses", f->accesses);
    put_real_line(out, "sequential_pct", 100.0 * ratio(f->seq, f->accesses));
    put_real_line(out, "consecutive_pct", 100.0 * ratio(f->consec, f->accesses));
    put_real_line(out, "aligned_pct", 100.0 * ratio(f->accesses - f->misaligned, f->accesses));
    put_real_line(out, "data_per_process", ratio(sh->bytes, sh->nprocs));
    for (size_t i = 0; i < f->nsizes; i++)
        fprintf(out, "job\taccess_size_%zu\t%" PRId64 "\t%" PRId64 "\n", i + 1,
                f->sizes[i].value[0], f->sizes[i].count);
    fprintf(out, "job\taccess_size_counts\t%s\n",
            f->sizes_state == IOLENS_TOP_ESTIMATE ? "estimate" : "exact");
    put_real_line(out, "io_pct_of_runtime", 100.0 * perf->job.io_share);
    put_real_line(out, "meta_pct_of_io_time", 100.0 * perf->job.meta_share);
    (void)log;
}

int iolens_report_patterns(FILE *out, const struct iolens_log *log)
{
    struct iolens_sharing sh;
    struct job_figures f;
    struct iolens_perf perf;
    if (iolens_sharing_of_job(log, &sh) != 0 || job_figures(log, &f) != 0 ||
        iolens_perf_compute(log, &perf) != 0)
        return -1;
    print_records(out, log);
    print_job(out, log, &sh, &f, &perf);
    return 0;
}
