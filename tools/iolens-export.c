/* iolens-export: the command line (iolens-export(1)).  Checks the options,
 * then hands the logs to one exporter (export.h).  Exit status: 0 all
 * exported, 1 usage, 2 a log could not be read (the others were
 * exported), 3 the output could not be written. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/export_series.h"
#include "output/out_file.h"
#include "reader/reader.h"

#define PROG IOLENS_EXPORT_PROG

enum mode { MODE_NONE, MODE_HDF5, MODE_ITEM, MODE_SQLITE };

struct args {
    enum mode mode;
    const char *target;          /* --hdf5 OUT / --sqlite DB */
    const char *output;          /* -o (--item-extract) */
    struct iolens_export_series series;
    int bin_given, force, nodes_given;
};

static void usage(FILE *to)
{
    fprintf(to,
            "usage: " PROG " --hdf5 OUT.h5 [--bin SECONDS] [--force] LOG...\n"
            "       " PROG " --item-extract --series=LAYER --data=ITEM [--bin SECONDS]\n"
            "                     [-o FILE] LOG...\n"
            "       " PROG " --sqlite DB [--nodes N] LOG...\n"
            "  --hdf5 OUT.h5     one HDF5 file, a group per job: time series per node and\n"
            "                    rank, totals across ranks, a per-file table\n"
            "  --item-extract    one time-series item as CSV, a row per time bin\n"
            "  --series=LAYER    POSIX, STDIO, MPIIO or H5D\n"
            "  --data=ITEM       bytes_read, bytes_written, bytes_read_write, reads, writes\n"
            "                    or accesses_read_write\n"
            "  --bin SECONDS     width of a time bin (default 1)\n"
            "  --force           replace a job group already in OUT.h5\n"
            "  -o FILE           write the CSV to FILE instead of standard output\n"
            "  --sqlite DB       add the jobs to an SQLite database\n"
            "  --nodes N         the jobs ran on N compute nodes (1 to 1000000): the\n"
            "                    MiB/s/CN columns use N over each log's count\n"
            "  --help            this text\n"
            "Exit status: 0 exported, 1 usage, 2 a log could not be read (the others\n"
            "were exported), 3 the output could not be written.\n");
}

static int usage_error(const char *msg)
{
    fprintf(stderr, PROG ": %s\n", msg);
    usage(stderr);
    return -1;
}

static int set_mode(struct args *a, enum mode m, const char *target)
{
    if (a->mode != MODE_NONE)
        return usage_error("give one of --hdf5, --item-extract and --sqlite");
    a->mode = m;
    a->target = target;
    return 0;
}

static int parse_bin(const char *s, double *bin)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v > 0) || !isfinite(v))
        return usage_error("--bin takes a positive number of seconds");
    *bin = v;
    return 0;
}

/* --nodes: the reader hands N to every log (reader.h). */
static int parse_nodes(const char *s, struct args *a)
{
    uint32_t nodes;
    if (iolens_log_parse_nodes(s, &nodes) != 0) {
        fprintf(stderr, PROG ": --nodes wants a whole number of compute nodes from 1 to %u, "
                        "not '%s'\n", IOLENS_MAX_NODES, s);
        usage(stderr);
        return -1;
    }
    iolens_log_set_nodes(nodes);
    a->nodes_given = 1;
    return 0;
}

static int set_option(int c, struct args *a)
{
    switch (c) {
    case 'H': return set_mode(a, MODE_HDF5, optarg);
    case 'I': return set_mode(a, MODE_ITEM, NULL);
    case 'Q': return set_mode(a, MODE_SQLITE, optarg);
    case 's': a->series.series = optarg; return 0;
    case 'd': a->series.data = optarg; return 0;
    case 'b': a->bin_given = 1; return parse_bin(optarg, &a->series.bin);
    case 'f': a->force = 1; return 0;
    case 'o': a->output = optarg; return 0;
    case 'N': return parse_nodes(optarg, a);
    default: usage(stderr); return -1;
    }
}

/* The options that belong to one mode only. */
static int check_combination(const struct args *a)
{
    if (a->mode == MODE_NONE)
        return usage_error("give one of --hdf5, --item-extract and --sqlite");
    if (a->mode != MODE_ITEM && (a->series.series || a->series.data || a->output))
        return usage_error("--series, --data and -o go with --item-extract");
    if (a->mode != MODE_HDF5 && a->force)
        return usage_error("--force goes with --hdf5");
    if (a->mode != MODE_SQLITE && a->nodes_given)
        return usage_error("--nodes goes with --sqlite");
    if (a->mode == MODE_SQLITE && a->bin_given)
        return usage_error("--bin goes with --hdf5 and --item-extract");
    if (a->mode != MODE_ITEM)
        return 0;
    if (a->series.series == NULL || a->series.data == NULL)
        return usage_error("--item-extract needs --series and --data");
    if (iolens_xs_layer_named(a->series.series) < 0)
        return usage_error("--series: POSIX, STDIO, MPIIO or H5D");
    if (iolens_xs_item_named(a->series.data) < 0)
        return usage_error("--data: bytes_read, bytes_written, bytes_read_write, reads, "
                           "writes or accesses_read_write");
    return 0;
}

/* 0 go on, 1 --help given, -1 usage error. */
static int parse_args(int argc, char **argv, struct args *a)
{
    static const struct option opts[] = {
        {"hdf5", required_argument, NULL, 'H'},   {"item-extract", no_argument, NULL, 'I'},
        {"sqlite", required_argument, NULL, 'Q'}, {"series", required_argument, NULL, 's'},
        {"data", required_argument, NULL, 'd'},   {"bin", required_argument, NULL, 'b'},
        {"force", no_argument, NULL, 'f'},        {"help", no_argument, NULL, 'h'},
        {"nodes", required_argument, NULL, 'N'},
        {NULL, 0, NULL, 0},
    };
    *a = (struct args){.series.bin = 1.0};
    int c;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        if (c == 'h')
            return 1;
        if (set_option(c, a) != 0)
            return -1;
    }
    if (check_combination(a) != 0)
        return -1;
    if (optind >= argc)
        return usage_error("no log given");
    return 0;
}

static int run_item(const struct args *a, char *const *logs, int nlogs)
{
    struct iolens_out out;
    const char *name = a->output != NULL ? a->output : "-";
    int in = iolens_out_replaces_input(name, (const char *const *)logs, nlogs);
    if (in >= 0) {
        fprintf(stderr, PROG ": %s: is the log %s; the CSV would replace it (nothing written)\n",
                name, logs[in]);
        return 1;
    }
    int e = iolens_out_open(&out, name);
    if (e != 0) {
        fprintf(stderr, PROG ": %s: %s\n", name, strerror(e));
        return 3;
    }
    int rc = iolens_export_item(out.fp, logs, nlogs, &a->series);
    if (rc == 3) {
        iolens_out_abort(&out);
        return rc;
    }
    if ((e = iolens_out_commit(&out)) != 0) {
        fprintf(stderr, PROG ": %s: %s\n", a->output != NULL ? a->output : "standard output",
                strerror(e));
        rc = 3;
    }
    return rc;
}

static int run_hdf5(const struct args *a, char *const *logs, int nlogs)
{
#ifdef IOLENS_HAVE_HDF5
    return iolens_export_hdf5(a->target, logs, nlogs, a->series.bin, a->force);
#else
    (void)a, (void)logs, (void)nlogs;
    fprintf(stderr, PROG ": --hdf5: this iolens-export was built without HDF5\n");
    return 1;
#endif
}

/* Without SQLite the exporter is not built: this stands in for it (a
 * weak definition, so that export_sqlite.c's wins when it is linked). */
__attribute__((weak)) int iolens_export_sqlite(const char *db_path, char *const *logs, int nlogs)
{
    (void)db_path, (void)logs, (void)nlogs;
    fprintf(stderr, PROG ": --sqlite: this iolens-export was built without SQLite\n");
    return 1;
}

int main(int argc, char **argv)
{
    struct args a;
    int p = parse_args(argc, argv, &a);
    if (p != 0) {
        if (p > 0)
            usage(stdout);
        return p > 0 ? 0 : 1;
    }
    char *const *logs = argv + optind;
    int nlogs = argc - optind;
    switch (a.mode) {
    case MODE_HDF5: return run_hdf5(&a, logs, nlogs);
    case MODE_ITEM: return run_item(&a, logs, nlogs);
    case MODE_SQLITE: return iolens_export_sqlite(a.target, logs, nlogs);
    case MODE_NONE: break;
    }
    return 1;
}
