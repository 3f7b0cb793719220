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
 * Each mode lives in its own file of util/report/ (report.h, report_text.h)
 * and is dispatched through the table of modes below.  Several LOG
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
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advice.h"
#include "analysis/bps.h"
#include "report/dump_base.h"
#include "report/report.h"
#include "report/report_text.h"
#include "reader/reader.h"
#include "reader/reader_stream.h"
#include "format/record_merge.h"

#define PROG "iolens-parser"

enum mode_id {
    MODE_BASE, MODE_TOTAL, MODE_FILE, MODE_STACK, MODE_BPS, MODE_TIMESERIES,
    MODE_PERF, MODE_PATTERNS, MODE_JSON, MODE_CSV, MODE_SUMMARY, MODE_ADVICE, MODE_LIST
};

/* What the command line asked for. */
struct args {
    enum mode_id mode;
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

/* ------------------------------------------------------------- modes -- */

/* The bodies of the modes that take options (the others call their
 * report function directly): 0, -1 out of memory, -2 too many time bins
 * (--timeseries). */
static int print_base(FILE *out, const struct iolens_log *log, const char *path,
                      const struct args *a)
{
    (void)path, (void)a;
    return iolens_dump_base(out, log) == -1 ? -1 : 0;
}

static int print_bps(FILE *out, const struct iolens_log *log, const char *path,
                     const struct args *a)
{
    (void)path;
    return iolens_report_bps(out, log, a->block_size);
}

static int print_timeseries(FILE *out, const struct iolens_log *log, const char *path,
                            const struct args *a)
{
    (void)path;
    return iolens_report_timeseries(out, log, a->bin);
}

static int print_json(FILE *out, const struct iolens_log *log, const char *path,
                      const struct args *a)
{
    (void)path;
    return iolens_report_json(out, log, a->block_size, &a->advice);
}

static int print_summary(FILE *out, const struct iolens_log *log, const char *path,
                         const struct args *a)
{
    return iolens_report_summary_row(out, log, path, a->block_size);
}

static int print_advice(FILE *out, const struct iolens_log *log, const char *path,
                        const struct args *a)
{
    (void)path;
    return iolens_report_advice(out, log, &a->advice);
}

/* What is printed once, before the first log: 0, or -1 on error. */
static int begin_summary(FILE *out) { return iolens_report_summary_header(out); }

static int list_counters(FILE *out)
{
    for (unsigned k = 0; k < iolens_layer_desc_count(); k++) {
        uint32_t kind = iolens_layer_desc_at(k)->region_kind;
        const char *lname = iolens_layer_name(kind);
        for (uint32_t i = 0; i < iolens_counter_known(kind); i++)
            fprintf(out, "%s\t%s\t%s\n", lname, iolens_counter_name(kind, i),
                    iolens_counter_desc(kind, i));
        for (uint32_t i = 0; i < iolens_fcounter_known(kind); i++)
            fprintf(out, "%s\t%s\t%s\n", lname, iolens_fcounter_name(kind, i),
                    iolens_fcounter_desc(kind, i));
    }
    return 0;
}

struct mode {
    const char *name;       /* the option, without its "--" */
    int letter;             /* getopt_long's value for it */
    /* The body for one log: report when the mode takes no option, else
     * print (both NULL: the mode reads no log). */
    int (*report)(FILE *out, const struct iolens_log *log);
    int (*print)(FILE *out, const struct iolens_log *log, const char *path,
                 const struct args *a);
    int (*begin)(FILE *out);   /* printed once before the logs, or NULL */
    bool header;            /* the job header before each log's body (and a
                             * blank line between logs) */
    bool streams;           /* read one region at a time (process_stream) */
};

static const struct mode modes[] = {
    [MODE_BASE] = {"base", 'b', NULL, print_base, NULL, true, true},
    [MODE_TOTAL] = {"total", 't', iolens_report_total, NULL, NULL, true, true},
    [MODE_FILE] = {"file", 'f', iolens_report_file, NULL, NULL, true, false},
    [MODE_STACK] = {"stack", 's', iolens_report_stack, NULL, NULL, true, false},
    [MODE_BPS] = {"bps", 'p', NULL, print_bps, NULL, true, false},
    [MODE_TIMESERIES] = {"timeseries", 'T', NULL, print_timeseries, NULL, true, false},
    [MODE_PERF] = {"perf", 'P', iolens_report_perf, NULL, NULL, true, false},
    [MODE_PATTERNS] = {"patterns", 'A', iolens_report_patterns, NULL, NULL, true, false},
    [MODE_JSON] = {"json", 'j', NULL, print_json, NULL, false, false},
    [MODE_CSV] = {"csv", 'c', iolens_report_csv, NULL, NULL, false, false},
    [MODE_SUMMARY] = {"summary", 'S', NULL, print_summary, begin_summary, false, false},
    [MODE_ADVICE] = {"advice", 'a', NULL, print_advice, NULL, true, false},
    [MODE_LIST] = {"list-counters", 'l', NULL, NULL, list_counters, false, false},
};
#define NMODES (sizeof modes / sizeof modes[0])

static bool reads_logs(enum mode_id m)
{
    return modes[m].report != NULL || modes[m].print != NULL;
}

/* The mode of a getopt_long value, or -1. */
static int mode_of_letter(int c)
{
    for (unsigned m = 0; m < NMODES; m++)
        if (modes[m].letter == c)
            return (int)m;
    return -1;
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
            if (mode_of_letter(c) < 0) {
                fprintf(stderr, PROG ": unknown option '%s'\n", argv[optind - 1]);
                return -1;
            }
            a->mode = (enum mode_id)mode_of_letter(c);
            nmodes++;
            break;
        }
    }
    if (nmodes > 1) {
        fputs(PROG ": give at most one of", stderr);
        for (unsigned m = 0; m < NMODES; m++)
            fprintf(stderr, "%s --%s", m > 0 ? "," : "", modes[m].name);
        fputc('\n', stderr);
        return -1;
    }
    if (check_mode_options(a) != 0)
        return -1;
    a->paths = argv + optind;
    a->npaths = argc - optind;
    if (!reads_logs(a->mode) && a->npaths != 0) {
        fprintf(stderr, PROG ": --list-counters takes no LOG argument\n");
        return -1;
    }
    if (reads_logs(a->mode) && a->npaths == 0) {
        fprintf(stderr, PROG ": expected at least one LOG argument\n");
        return -1;
    }
    return 0;
}

/* Output of one readable log; 0, or 1 (usage-like error) or 2 (out of memory). */
static int print_one(const struct iolens_log *log, const char *path, const struct args *a)
{
    if (modes[a->mode].header)
        iolens_report_job_header(stdout, log);
    const struct mode *m = &modes[a->mode];
    int rc = m->report != NULL ? m->report(stdout, log) : m->print(stdout, log, path, a);
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

/* The streaming modes go through a log's records once, in order
 * (reader_stream.h): memory bounded by a region, not the log.
 * IOLENS_PARSER_WHOLE_LOG=1 reads the whole log instead (the tests compare
 * the two). */
static bool streamed(const struct args *a)
{
    const char *whole = getenv("IOLENS_PARSER_WHOLE_LOG");
    return modes[a->mode].streams && (whole == NULL || strcmp(whole, "1") != 0);
}

static int process_stream(const char *path, const struct args *a)
{
    struct iolens_stream *s;
    char err[256];
    bool total = a->mode == MODE_TOTAL;
    struct iolens_totals *T = total ? iolens_totals_new() : NULL;
    if (total && T == NULL) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        return 2;
    }
    if (iolens_stream_open(path, total ? iolens_totals_add_region : NULL, T, &s, err,
                           sizeof err) != IOLENS_READ_OK) {
        iolens_totals_free(T);
        fflush(stdout);
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return 2;
    }
    iolens_report_job_header(stdout, iolens_stream_log(s));
    int rc = 0;
    if (total)
        iolens_totals_print(stdout, T);
    else
        rc = iolens_dump_base_stream(stdout, s);
    iolens_totals_free(T);
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
    const struct mode *m = &modes[a.mode];
    if (m->begin != NULL && m->begin(stdout) != 0)
        return 2;
    if (!reads_logs(a.mode))
        return finish_output();
    /* The worst status wins: 2 (a bad log) over 1 over 0. */
    int status = 0;
    for (int i = 0; i < a.npaths; i++) {
        if (i > 0 && m->header)
            putchar('\n');
        int rc = process_log(a.paths[i], &a);
        if (rc > status)
            status = rc;
    }
    int out = finish_output();
    return status ? status : out;
}

