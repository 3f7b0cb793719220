/*
 * iolens-parser: prints an iolens log as text, in one of the modes that
 * usage() lists (--base by default; iolens-parser(1) says what each
 * prints).  This file is the command line: its options, the table of
 * modes they dispatch through (name, function, whether the job header
 * comes first, whether the log is streamed) and the messages.  Each mode
 * lives in its own file of util/report/ (report.h, report_text.h,
 * report_modes.h).  Several LOG arguments are read one after the other: a
 * log that cannot be read gets its line on stderr and the others are
 * still processed.
 *
 * Exit status: 0 success, 1 usage or output error, 2 the log cannot be
 * read or is not a valid iolens log (one line on stderr says why).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advice.h"
#include "analysis/bps.h"
#include "reader/reader.h"
#include "report/report.h"
#include "report/report_modes.h"
#include "report/report_text.h"

#define PROG "iolens-parser"

enum mode_id {
    MODE_BASE, MODE_TOTAL, MODE_FILE, MODE_STACK, MODE_BPS, MODE_TIMESERIES,
    MODE_PERF, MODE_PATTERNS, MODE_JSON, MODE_CSV, MODE_SUMMARY, MODE_ADVICE, MODE_SITES, MODE_LIST,
    MODE_SITES_CSV   /* --sites --csv together */
};

/* What the command line asked for. */
struct args {
    enum mode_id mode;
    char **paths;            /* the LOG arguments */
    int npaths;
    struct iolens_report_options opt;   /* --block-size, --bin, --advice-thresholds */
    bool block_size_given, bin_given, advice_given, nodes_given;
};

/* ------------------------------------------------------------- modes -- */

struct mode {
    const char *name;       /* the option, without its "--" */
    int letter;             /* getopt_long's value for it */
    /* The body for one log: report when the mode takes no option, else
     * print (both NULL: the mode reads no log). */
    int (*report)(FILE *out, const struct iolens_log *log);
    iolens_mode_fn *print;
    int (*begin)(FILE *out);   /* printed once before the logs, or NULL */
    bool header;            /* the job header before each log's body (and a
                             * blank line between logs) */
    bool streams;           /* read one region at a time (process_stream) */
};

static const struct mode modes[] = {
    [MODE_BASE] = {"base", 'b', NULL, iolens_mode_base, NULL, true, true},
    [MODE_TOTAL] = {"total", 't', iolens_report_total, NULL, NULL, true, true},
    [MODE_FILE] = {"file", 'f', iolens_report_file, NULL, NULL, true, false},
    [MODE_STACK] = {"stack", 's', iolens_report_stack, NULL, NULL, true, false},
    [MODE_BPS] = {"bps", 'p', NULL, iolens_mode_bps, NULL, true, false},
    [MODE_TIMESERIES] = {"timeseries", 'T', NULL, iolens_mode_timeseries, NULL, true, false},
    [MODE_PERF] = {"perf", 'P', iolens_report_perf, NULL, NULL, true, false},
    [MODE_PATTERNS] = {"patterns", 'A', iolens_report_patterns, NULL, NULL, true, false},
    [MODE_JSON] = {"json", 'j', NULL, iolens_mode_json, NULL, false, false},
    [MODE_CSV] = {"csv", 'c', iolens_report_csv, NULL, NULL, false, false},
    [MODE_SUMMARY] = {"summary", 'S', NULL, iolens_mode_summary,
                      iolens_report_summary_header, false, false},
    [MODE_ADVICE] = {"advice", 'a', NULL, iolens_mode_advice, NULL, true, false},
    [MODE_SITES] = {"sites", 'W', NULL, iolens_mode_sites, NULL, true, false},
    [MODE_LIST] = {"list-counters", 'l', NULL, NULL, iolens_report_counters, false, false},
    /* no option of its own: --sites with --csv (parse_args) */
    [MODE_SITES_CSV] = {"sites --csv", 0, NULL, iolens_mode_sites_csv, NULL, false, false},
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
            "       " PROG " --perf|--json|--summary --nodes N LOG...\n"
            "       " PROG " --advice [--advice-thresholds KEY=VALUE,...] LOG...\n"
            "       " PROG " --sites [--csv] [--debug-dir DIR] LOG...\n"
            "       " PROG " --advice [--debug-dir DIR] LOG...\n"
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
            "  --nodes N        the job ran on N compute nodes (1 to 1000000): MiB/s/CN of\n"
            "                   --perf, --json and --summary uses N over the log's count\n"
            "  --advice         findings in priority order: code, evidence, suggested fix\n"
            "  --advice-thresholds KEY=VALUE,...\n"
            "                   change rule thresholds of --advice and --json (iolens-parser(1))\n"
            "  --sites          per file and layer, the call sites of its reads and writes\n"
            "                   as function (file:line), with bytes, operations and time\n"
            "  --sites --csv    the same sites as CSV: module, build_id, offset, function,\n"
            "                   source_file, line, status, bytes, ops, time per row\n"
            "  --debug-dir DIR  where --sites and --advice also look for separate debug files\n"
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

static int set_value_option(int c, const char *value, struct args *a)
{
    if (c == 'B' && iolens_parse_block_size(value, &a->opt.block_size)) {
        a->block_size_given = true;
        return 0;
    }
    if (c == 'n' && iolens_parse_bin(value, &a->opt.bin)) {
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

/* --nodes: the reader hands N to every log (reader.h). */
static int set_nodes(const char *value, struct args *a)
{
    uint32_t nodes;
    if (iolens_log_parse_nodes(value, &nodes) != 0) {
        fprintf(stderr, PROG ": --nodes wants a whole number of compute nodes from 1 to %u, "
                        "not '%s'\n", IOLENS_MAX_NODES, value);
        return -1;
    }
    iolens_log_set_nodes(nodes);
    a->nodes_given = true;
    return 0;
}

/* --advice-thresholds: may be given several times, later keys win. */
static int set_advice_thresholds(const char *list, struct args *a)
{
    char err[256];
    if (iolens_advice_parse(&a->opt.advice, list, err, sizeof err) != 0) {
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
    if (a->nodes_given && a->mode != MODE_PERF && a->mode != MODE_JSON &&
        a->mode != MODE_SUMMARY) {
        fprintf(stderr, PROG ": --nodes goes with --perf, --json or --summary\n");
        return -1;
    }
    if (a->opt.debug_dir != NULL && a->mode != MODE_SITES && a->mode != MODE_SITES_CSV &&
        a->mode != MODE_ADVICE) {
        fprintf(stderr, PROG ": --debug-dir goes with --sites or --advice\n");
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
        {"sites", no_argument, NULL, 'W'},
        {"debug-dir", required_argument, NULL, 'D'},
        {"list-counters", no_argument, NULL, 'l'},
        {"max-log-size", required_argument, NULL, 'M'},
        {"nodes", required_argument, NULL, 'N'},
        {"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
    };
    int nmodes = 0, c;
    bool sites = false, csv = false;
    *a = (struct args){.mode = MODE_BASE};
    iolens_report_options_defaults(&a->opt);
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
        case 'D':
            a->opt.debug_dir = optarg;
            break;
        case 'M':
            if (set_max_log_size(optarg) != 0)
                return -1;
            break;
        case 'N':
            if (set_nodes(optarg, a) != 0)
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
            sites |= a->mode == MODE_SITES;
            csv |= a->mode == MODE_CSV;
            nmodes++;
            break;
        }
    }
    /* --csv is also the form of --sites: the two together are one mode */
    if (sites && csv && nmodes == 2) {
        a->mode = MODE_SITES_CSV;
        nmodes = 1;
    }
    if (nmodes > 1) {
        fputs(PROG ": give at most one of", stderr);
        for (unsigned m = 0; m < NMODES; m++)
            if (modes[m].letter != 0)
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
    int rc = m->report != NULL ? m->report(stdout, log) : m->print(stdout, log, path, &a->opt);
    if (rc == -2) {
        fflush(stdout);
        fprintf(stderr, PROG ": %s: --bin %g makes more than %llu bin pieces; use a wider bin\n",
                path, a->opt.bin, (unsigned long long)IOLENS_TS_MAX_PIECES);
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

/* A streamed log (iolens_mode_streamed); its exit status (0 or 2). */
static int process_stream(const char *path, const struct args *a)
{
    char err[256];
    int rc = iolens_mode_streamed(stdout, path, a->mode == MODE_TOTAL, err, sizeof err);
    if (rc == -1) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        return 2;
    }
    if (rc != 0) {
        fflush(stdout);
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return 2;
    }
    return 0;
}

/* Reads and prints one log; its exit status (0, 1 or 2). */
static int process_log(const char *path, const struct args *a)
{
    /* A Darshan log is small beside its job's iolens log: read it whole. */
    if (streamed(a) && !iolens_log_file_is_darshan(path))
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

