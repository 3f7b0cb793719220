/* iolens-report: the command line (iolens-report(1)).
 *
 *   iolens-report [--bins N] [--advice-thresholds LIST] [--nodes N] [--debug-dir DIR]
 *                 LOG -o REPORT.html
 *
 * The log is read and checked before the output is touched, and the page
 * is written through out_file.h (a new temporary file beside it, renamed
 * into place; a device such as /dev/null written in place), so a failure
 * never leaves a half-written or clobbered report.  Exit status:
 * 0 written, 1 usage, 2 the log could not be read, 3 the output could not
 * be written. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/advice.h"
#include "output/out_file.h"
#include "reader/reader.h"
#include "report/report_html.h"

#define PROG "iolens-report"

struct args {
    const char *log, *output;
    struct iolens_html_options opt;
    struct iolens_advice_thresholds thresholds;
};

static void usage(FILE *to)
{
    fprintf(to,
            "usage: " PROG " [--bins N] [--advice-thresholds LIST] [--nodes N]\n"
            "                     [--debug-dir DIR] LOG -o REPORT.html\n"
            "  -o FILE                   the HTML file to write (- for standard output)\n"
            "  --bins N                  time bins of the heat map (default %d, at most %d)\n"
            "  --advice-thresholds LIST  key=value,... as iolens-parser --advice takes\n"
            "  --nodes N                 the job ran on N compute nodes (1 to 1000000):\n"
            "                            MiB/s/CN uses N over the log's count\n"
            "  --debug-dir DIR           where call sites' separate debug files also are\n"
            "  --help                    this text\n"
            "One self-contained page: inline SVG charts, no script, nothing loaded.\n"
            "Exit status: 0 written, 1 usage, 2 the log could not be read, 3 the\n"
            "output could not be written.\n",
            IOLENS_HTML_DEFAULT_BINS, IOLENS_HTML_MAX_BINS);
}

static int usage_error(const char *msg)
{
    fprintf(stderr, PROG ": %s\n", msg);
    usage(stderr);
    return -1;
}

static int parse_bins(const char *s, int *bins)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 1 || v > IOLENS_HTML_MAX_BINS)
        return usage_error("--bins takes a whole number from 1 to 1000");
    *bins = (int)v;
    return 0;
}

static int parse_thresholds(struct args *a, const char *list)
{
    char err[256];
    if (iolens_advice_parse(&a->thresholds, list, err, sizeof err) != 0)
        return usage_error(err);
    return 0;
}

/* --nodes: the reader hands N to the log (reader.h). */
static int parse_nodes(const char *s)
{
    uint32_t nodes;
    if (iolens_log_parse_nodes(s, &nodes) != 0) {
        fprintf(stderr, PROG ": --nodes wants a whole number of compute nodes from 1 to %u, "
                        "not '%s'\n", IOLENS_MAX_NODES, s);
        usage(stderr);
        return -1;
    }
    iolens_log_set_nodes(nodes);
    return 0;
}

/* 0 go on, 1 --help, -1 usage error. */
static int parse_args(int argc, char **argv, struct args *a)
{
    static const struct option opts[] = {
        {"bins", required_argument, NULL, 'b'},
        {"advice-thresholds", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"nodes", required_argument, NULL, 'N'},
        {"debug-dir", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    a->opt.bins = IOLENS_HTML_DEFAULT_BINS;
    iolens_advice_defaults(&a->thresholds);
    a->opt.thresholds = &a->thresholds;
    int c;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'h': return 1;
        case 'o': a->output = optarg; break;
        case 'b': rc = parse_bins(optarg, &a->opt.bins); break;
        case 't': rc = parse_thresholds(a, optarg); break;
        case 'N': rc = parse_nodes(optarg); break;
        case 'D': a->opt.debug_dir = optarg; break;
        default: usage(stderr); return -1;
        }
        if (rc != 0)
            return -1;
    }
    if (optind + 1 != argc)
        return usage_error(optind >= argc ? "no log given" : "give one log");
    if (a->output == NULL)
        return usage_error("-o REPORT.html is required");
    a->log = argv[optind];
    return 0;
}

/* Writes the page through out_file.h: a new file beside PATH renamed
 * into place, standard output for -, a device such as /dev/null in place. */
static int write_output(const char *path, const struct iolens_log *log,
                        const struct iolens_html_options *opt)
{
    struct iolens_out out;
    int e = iolens_out_open(&out, path);
    if (e != 0) {
        fprintf(stderr, PROG ": %s: %s\n", path, strerror(e));
        return 3;
    }
    if (iolens_html_report(out.fp, log, opt) != 0) {
        iolens_out_abort(&out);
        fprintf(stderr, PROG ": out of memory\n");
        return 3;
    }
    if ((e = iolens_out_commit(&out)) != 0) {
        fprintf(stderr, PROG ": %s: %s\n", strcmp(path, "-") == 0 ? "standard output" : path,
                strerror(e));
        return 3;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc != 0) {
        if (rc > 0)
            usage(stdout);
        return rc > 0 ? 0 : 1;
    }
    if (iolens_out_replaces_input(a.output, &a.log, 1) >= 0) {
        fprintf(stderr, PROG ": %s: is the log to read; the page would replace it (nothing written)\n",
                a.output);
        return 1;
    }
    struct iolens_log log;
    char err[512];
    if (iolens_log_read(a.log, &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, PROG ": %s: %s\n", a.log, err);
        return 2;
    }
    rc = write_output(a.output, &log, &a.opt);
    iolens_log_free(&log);
    return rc;
}
