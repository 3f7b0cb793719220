/*
 * iolens-diff A B [--fail-if-slower PCT]: compares two jobs' logs, layer by
 * layer (bytes, operations, time, MiB/s/CN, BPS, with deltas and percent
 * deltas), then their sharing class and the files whose access pattern or
 * sharing changed (diff_changes.c).  Output format in iolens-diff(1).
 *
 * --fail-if-slower PCT: B is slower by more than PCT percent when its
 * slowest-rank time (job, iolens-parser(1) PERFORMANCE) exceeds A's by more
 * than PCT percent, T_B > T_A (1 + PCT/100), or its aggregate MiB/s is
 * lower than A's by more than PCT percent, R_B < R_A (1 - PCT/100).
 *
 * --nodes N: both jobs ran on N compute nodes; MiB/s/CN of both uses N
 * over their logs' counts (which a Darshan log lacks).
 *
 * Exit status: 0, or 1 when --fail-if-slower finds B slower; 1 usage or
 * output error; 2 a log cannot be read.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bps.h"
#include "analysis/diff.h"
#include "analysis/perf.h"
#include "format/record_merge.h"
#include "reader/reader.h"
#include "output/put_escaped.h"

#define PROG "iolens-diff"
#define BLOCK_SIZE 512u

struct args {
    const char *path_a, *path_b;
    bool fail_if_slower;
    double pct;
    uint32_t nodes;          /* --nodes, or 0 */
};

static void usage(FILE *to)
{
    fprintf(to, "usage: " PROG " [--fail-if-slower PCT] [--nodes N] A.iolens B.iolens\n"
                "  compares job B with job A: per layer bytes, operations, time,\n"
                "  MiB/s/CN and BPS with deltas, then sharing and pattern changes\n"
                "  --fail-if-slower PCT  exit 1 when B's slowest-rank time is more than\n"
                "                        PCT percent above A's, or its aggregate MiB/s\n"
                "                        more than PCT percent below A's\n"
                "  --nodes N             both jobs ran on N compute nodes (1 to 1000000):\n"
                "                        MiB/s/CN uses N over the logs' counts\n"
                "Exit status: 0, 1 slower (with --fail-if-slower) or usage error,\n"
                "2 unreadable or invalid log.\n");
}

static int parse_args(int argc, char **argv, struct args *a)
{
    static const struct option opts[] = {
        {"fail-if-slower", required_argument, NULL, 'f'},
        {"nodes", required_argument, NULL, 'N'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *a = (struct args){0};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            exit(fflush(stdout) == 0 ? 0 : 1);
        }
        if (c == 'f') {
            char *end;
            errno = 0;
            a->pct = strtod(optarg, &end);
            if (errno != 0 || end == optarg || *end != '\0' || !isfinite(a->pct) || a->pct < 0) {
                fprintf(stderr, PROG ": --fail-if-slower wants a percentage >= 0, not '%s'\n",
                        optarg);
                return -1;
            }
            a->fail_if_slower = true;
        } else if (c == 'N') {
            if (iolens_log_parse_nodes(optarg, &a->nodes) != 0) {
                fprintf(stderr, PROG ": --nodes wants a whole number of compute nodes from 1 to "
                                "%u, not '%s'\n", IOLENS_MAX_NODES, optarg);
                return -1;
            }
            iolens_log_set_nodes(a->nodes);
        } else if (c == ':') {
            fprintf(stderr, PROG ": option '%s' needs a value\n", argv[optind - 1]);
            return -1;
        } else {
            fprintf(stderr, PROG ": unknown option '%s'\n", argv[optind - 1]);
            return -1;
        }
    }
    if (argc - optind != 2) {
        fprintf(stderr, PROG ": expected two LOG arguments, A and B\n");
        return -1;
    }
    a->path_a = argv[optind];
    a->path_b = argv[optind + 1];
    return 0;
}

/* ----------------------------------------------------------- figures -- */

/* What is compared of one layer ("job": POSIX and STDIO together). */
struct layer_figs {
    struct iolens_perf_layer p;
    double bps;               /* blocks of BLOCK_SIZE per second of union time */
};

struct job_figs {
    struct iolens_perf perf;
    struct layer_figs layer[IOLENS_PERF_NLAYERS], job;
};

static double bps_of(const struct iolens_bps *row, double run_time)
{
    struct iolens_bps_figures f;
    iolens_bps_derive(row, BLOCK_SIZE, run_time, &f);
    return f.bps;
}

static int figures_of(const struct iolens_log *log, struct job_figs *j)
{
    if (iolens_perf_compute(log, &j->perf) != 0)
        return -1;
    struct iolens_bps_report r;
    if (iolens_bps_compute(log, &r) != 0)
        return -1;
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++) {
        j->layer[i] = (struct layer_figs){.p = j->perf.layer[i], .bps = NAN};
        for (size_t k = 0; k < r.n; k++)
            if (r.rows[k].kind == j->perf.layer[i].kind && r.rows[k].file_id == 0)
                j->layer[i].bps = bps_of(&r.rows[k], j->perf.run_time);
    }
    iolens_bps_report_free(&r);
    /* The job's figure: the union over the layers whose bytes are the
     * job's (POSIX and STDIO). */
    uint32_t job_kinds[IOLENS_NLAYERS];
    unsigned njob = 0;
    for (unsigned i = 0; i < iolens_layer_desc_count(); i++)
        if (iolens_layer_desc_at(i)->base)
            job_kinds[njob++] = iolens_layer_desc_at(i)->region_kind;
    struct iolens_bps row;
    if (iolens_bps_union(log, job_kinds, njob, &row) != 0)
        return -1;
    j->job = (struct layer_figs){.p = j->perf.job, .bps = bps_of(&row, j->perf.run_time)};
    return 0;
}

/* ------------------------------------------------------------ output -- */

static void put_pct(double a, double b)
{
    if (isnan(a) || isnan(b))
        printf("nan");
    else if (a == 0)
        printf(b == 0 ? "+0.00%%" : "n/a");
    else
        printf("%+.2f%%", 100.0 * (b - a) / fabs(a));
}

static void row_int(const char *layer, const char *metric, int64_t a, int64_t b)
{
    printf("%s\t%s\t%" PRId64 "\t%" PRId64 "\t%+" PRId64 "\t", layer, metric, a, b, b - a);
    put_pct((double)a, (double)b);
    putchar('\n');
}

static void row_double(const char *layer, const char *metric, double a, double b)
{
    printf("%s\t%s\t%.6f\t%.6f\t", layer, metric, a, b);
    if (isnan(a) || isnan(b))
        printf("nan");
    else
        printf("%+.6f", b - a);
    putchar('\t');
    put_pct(a, b);
    putchar('\n');
}

static void put_layer(const char *name, const struct layer_figs *a, const struct layer_figs *b)
{
    const struct iolens_perf_layer *x = &a->p, *y = &b->p;
    row_int(name, "records", (int64_t)x->records, (int64_t)y->records);
    row_int(name, "shared_records", (int64_t)x->shared_records, (int64_t)y->shared_records);
    row_int(name, "bytes_read", x->bytes_read, y->bytes_read);
    row_int(name, "bytes_written", x->bytes_written, y->bytes_written);
    row_int(name, "reads", x->reads, y->reads);
    row_int(name, "writes", x->writes, y->writes);
    row_int(name, "opens", x->opens, y->opens);
    row_double(name, "time_read", x->time_read, y->time_read);
    row_double(name, "time_write", x->time_write, y->time_write);
    row_double(name, "time_meta", x->time_meta, y->time_meta);
    row_double(name, "slowest_time", x->slowest_time, y->slowest_time);
    row_double(name, "agg_mib_s", x->agg_mib_s, y->agg_mib_s);
    row_double(name, "mib_s_per_cn", x->mib_s_per_cn, y->mib_s_per_cn);
    row_double(name, "union_mib_s", x->union_mib_s, y->union_mib_s);
    row_double(name, "bps", a->bps, b->bps);
}

static void put_job_line(const char *which, const char *path, const struct iolens_log *log)
{
    printf("# %s: %s\n# %s exe: ", which, path, which);
    iolens_put_escaped(stdout, log->jobstr[IOLENS_JOBSTR_EXE]);
    printf("\n# %s nprocs: %" PRIu32 " nnodes: %" PRIu32 " run_time: %.6f\n", which,
           log->job.nprocs, log->job.nnodes, log->job.run_time);
    /* Which runtime wrote it: a Darshan log compares with an iolens one. */
    char source[48];
    printf("# %s source: %s%s\n", which, iolens_log_source_label(log, source, sizeof source),
           (log->flags & IOLENS_FLAG_PARTIAL) ? " (partial)" : "");
}

static void put_figures(const struct job_figs *a, const struct job_figs *b)
{
    printf("# layer\tmetric\tA\tB\tdelta\tdelta_pct\n");
    row_double("job", "run_time", a->perf.run_time, b->perf.run_time);
    row_int("job", "compute_nodes", a->perf.compute_nodes, b->perf.compute_nodes);
    put_layer("job", &a->job, &b->job);
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++)
        if (a->layer[i].p.present || b->layer[i].p.present)
            put_layer(a->layer[i].p.name, &a->layer[i], &b->layer[i]);
}

/* ----------------------------------------------------------- verdict -- */

/* 1 when B is slower than A by more than pct percent (the rule at the top). */
static int verdict(const struct job_figs *a, const struct job_figs *b, double pct)
{
    double ta = a->job.p.slowest_time, tb = b->job.p.slowest_time;
    double ra = a->job.p.agg_mib_s, rb = b->job.p.agg_mib_s;
    bool time_worse = tb > ta * (1.0 + pct / 100.0);
    bool rate_worse = !isnan(ra) && !isnan(rb) && rb < ra * (1.0 - pct / 100.0);
    printf("# fail-if-slower %g: slowest_time ", pct);
    put_pct(ta, tb);
    printf(", agg_mib_s ");
    put_pct(ra, rb);
    printf(": %s\n", time_worse || rate_worse ? "B is slower" : "B is not slower");
    return time_worse || rate_worse;
}

/* ------------------------------------------------------------- main -- */

static int read_log(const char *path, struct iolens_log *log)
{
    char err[256];
    if (iolens_log_read(path, log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return -1;
    }
    return 0;
}

static int compare(const struct args *args, const struct iolens_log *a, const struct iolens_log *b)
{
    struct job_figs *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
    int rc = 2;
    if (fa == NULL || fb == NULL || figures_of(a, fa) != 0 || figures_of(b, fb) != 0)
        goto out;
    printf("# iolens-diff: B compared with A\n");
    put_job_line("A", args->path_a, a);
    put_job_line("B", args->path_b, b);
    if (args->nodes > 0)
        printf("# compute nodes: %" PRIu32 " for A and B (from --nodes)\n", args->nodes);
    put_figures(fa, fb);
    if (iolens_diff_changes(stdout, a, b) != 0)
        goto out;
    rc = args->fail_if_slower ? verdict(fa, fb, args->pct) : 0;
out:
    if (rc == 2)
        fprintf(stderr, PROG ": out of memory\n");
    free(fa);
    free(fb);
    return rc;
}

int main(int argc, char **argv)
{
    struct args args;
    if (parse_args(argc, argv, &args) != 0) {
        usage(stderr);
        return 1;
    }
    struct iolens_log a, b;
    if (read_log(args.path_a, &a) != 0)
        return 2;
    if (read_log(args.path_b, &b) != 0) {
        iolens_log_free(&a);
        return 2;
    }
    int rc = compare(&args, &a, &b);
    iolens_log_free(&a);
    iolens_log_free(&b);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, PROG ": error writing output: %s\n", strerror(errno));
        return rc ? rc : 1;
    }
    return rc;
}
