/* Command line of iolens-pio-perf: the classic pio_perf options plus the
 * pio-bench patterns (man iolens-pio-perf(1)). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pio_perf.h"

void pio_usage(FILE *f)
{
    fprintf(f,
            "usage: " PIO_PROG " [OPTIONS]\n"
            "  -h, --help                   print this help and exit\n"
            "  -d N, --num-dsets=N          datasets per file [1]\n"
            "  -f S, --file-size=S          bytes accessed per file [64M]\n"
            "  -F N, --num-files=N          number of files [1]\n"
            "  -H, --hdf5                   run the parallel HDF5 test\n"
            "  -i N, --num-iterations=N     iterations [1]\n"
            "  -m, --mpiio                  run the MPI-IO test\n"
            "  -o F, --output=F             raw results into file F\n"
            "  -P N, --max-num-processes=N  most processes [1]\n"
            "  -p N, --min-num-processes=N  fewest processes [1]\n"
            "  -r, --raw                    run the POSIX test\n"
            "  -X S, --max-xfer-size=S      largest transfer size [1M]\n"
            "  -x S, --min-xfer-size=S      smallest transfer size [1K]\n"
            "      --pattern=P              contiguous, strided or nested-strided [contiguous]\n"
            "      --block=S                bytes of one block [the transfer size]\n"
            "      --stride=S               distance between a rank's blocks [processes x block]\n"
            "      --nest-count=N           blocks per group (nested-strided) [4]\n"
            "      --nest-stride=S          distance between a rank's groups [2 x nest-count x stride]\n"
            "      --dir=D                  directory of the data files [$TMPDIR or /tmp]\n"
            "      --keep                   keep the data files\n"
            "      --no-verify              do not check the data read\n"
            "      --json                   one JSON object per line instead of the text layout\n"
            "Sizes: integers with an optional K, M or G suffix (powers of 1024).\n"
            "With none of -r, -m, -H every available API runs.\n");
}

int pio_parse_size(const char *s, uint64_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    default: break;
    }
    if (*end != '\0' || (shift > 0 && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* A count: a size without suffix, at least 1. */
static int parse_count(const char *s, uint64_t *out)
{
    if (strpbrk(s, "KkMmGg") != NULL || pio_parse_size(s, out) != 0 || *out == 0)
        return -1;
    return 0;
}

static int parse_pattern(const char *s, enum pio_pattern_kind *k)
{
    if (strcmp(s, "contiguous") == 0)
        *k = PIO_CONTIGUOUS;
    else if (strcmp(s, "strided") == 0)
        *k = PIO_STRIDED;
    else if (strcmp(s, "nested-strided") == 0)
        *k = PIO_NESTED;
    else
        return -1;
    return 0;
}

static void set_defaults(struct pio_options *o)
{
    const char *tmp = getenv("TMPDIR");
    *o = (struct pio_options){
        .num_dsets = 1, .file_size = 64u << 20, .num_files = 1, .iterations = 1,
        .min_procs = 1, .max_procs = 1, .min_xfer = 1024, .max_xfer = 1u << 20,
        .dir = tmp != NULL && *tmp != '\0' ? tmp : "/tmp", .verify = true,
        .pattern = PIO_CONTIGUOUS,
    };
}

enum { OPT_PATTERN = 256, OPT_BLOCK, OPT_STRIDE, OPT_NEST_COUNT, OPT_NEST_STRIDE, OPT_DIR,
       OPT_KEEP, OPT_NO_VERIFY, OPT_JSON };

static const struct option long_opts[] = {
    {"help", no_argument, NULL, 'h'},
    {"num-dsets", required_argument, NULL, 'd'},
    {"file-size", required_argument, NULL, 'f'},
    {"num-files", required_argument, NULL, 'F'},
    {"hdf5", no_argument, NULL, 'H'},
    {"num-iterations", required_argument, NULL, 'i'},
    {"mpiio", no_argument, NULL, 'm'},
    {"output", required_argument, NULL, 'o'},
    {"max-num-processes", required_argument, NULL, 'P'},
    {"min-num-processes", required_argument, NULL, 'p'},
    {"raw", no_argument, NULL, 'r'},
    {"max-xfer-size", required_argument, NULL, 'X'},
    {"min-xfer-size", required_argument, NULL, 'x'},
    {"pattern", required_argument, NULL, OPT_PATTERN},
    {"block", required_argument, NULL, OPT_BLOCK},
    {"stride", required_argument, NULL, OPT_STRIDE},
    {"nest-count", required_argument, NULL, OPT_NEST_COUNT},
    {"nest-stride", required_argument, NULL, OPT_NEST_STRIDE},
    {"dir", required_argument, NULL, OPT_DIR},
    {"keep", no_argument, NULL, OPT_KEEP},
    {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
    {"json", no_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

/* Applies one option; 0, or -1 for a bad value. */
static int apply_option(int c, const char *arg, struct pio_options *o)
{
    switch (c) {
    case 'd': return parse_count(arg, &o->num_dsets);
    case 'f': return pio_parse_size(arg, &o->file_size) != 0 || o->file_size == 0 ? -1 : 0;
    case 'F': return parse_count(arg, &o->num_files);
    case 'i': return parse_count(arg, &o->iterations);
    case 'P': return parse_count(arg, &o->max_procs);
    case 'p': return parse_count(arg, &o->min_procs);
    case 'X': return pio_parse_size(arg, &o->max_xfer) != 0 || o->max_xfer == 0 ? -1 : 0;
    case 'x': return pio_parse_size(arg, &o->min_xfer) != 0 || o->min_xfer == 0 ? -1 : 0;
    case 'H': o->apis |= 1u << PIO_PHDF5; return 0;
    case 'm': o->apis |= 1u << PIO_MPIIO; return 0;
    case 'r': o->apis |= 1u << PIO_POSIX; return 0;
    case 'o': o->output = arg; return 0;
    case OPT_PATTERN: return parse_pattern(arg, &o->pattern);
    case OPT_BLOCK: return pio_parse_size(arg, &o->block) != 0 || o->block == 0 ? -1 : 0;
    case OPT_STRIDE: return pio_parse_size(arg, &o->stride) != 0 || o->stride == 0 ? -1 : 0;
    case OPT_NEST_COUNT: return parse_count(arg, &o->nest_count);
    case OPT_NEST_STRIDE:
        return pio_parse_size(arg, &o->nest_stride) != 0 || o->nest_stride == 0 ? -1 : 0;
    case OPT_DIR: o->dir = arg; return 0;
    case OPT_KEEP: o->keep = true; return 0;
    case OPT_NO_VERIFY: o->verify = false; return 0;
    case OPT_JSON: o->json = true; return 0;
    default: return -1;
    }
}

static const char *option_name(int c)
{
    for (const struct option *l = long_opts; l->name != NULL; l++)
        if (l->val == c)
            return l->name;
    return "?";
}

/* Ranges and combinations that no case can satisfy; message or NULL. */
static const char *inconsistent(const struct pio_options *o)
{
    if (o->min_procs > o->max_procs)
        return "-p is larger than -P";
    if (o->min_xfer > o->max_xfer)
        return "-x is larger than -X";
    if (o->pattern == PIO_CONTIGUOUS && (o->block || o->stride || o->nest_count || o->nest_stride))
        return "--block, --stride and --nest-* need --pattern strided or nested-strided";
    if (o->pattern == PIO_STRIDED && (o->nest_count || o->nest_stride))
        return "--nest-count and --nest-stride need --pattern nested-strided";
    if (o->dir[0] == '\0')
        return "--dir is empty";
    return NULL;
}

int pio_parse_options(int argc, char **argv, struct pio_options *o, bool verbose)
{
    char why[256] = "";
    set_defaults(o);
    opterr = 0;
    optind = 1;
    int c;
    while (why[0] == '\0' &&
           (c = getopt_long(argc, argv, ":hd:f:F:Hi:mo:P:p:rX:x:", long_opts, NULL)) != -1) {
        if (c == 'h') {
            if (verbose)
                pio_usage(stdout);
            return -1;
        }
        if (c == '?' || c == ':')
            snprintf(why, sizeof why, "%s option %s", c == '?' ? "unknown" : "missing value of",
                     optopt != 0 ? (char[]){'-', (char)optopt, '\0'} : argv[optind - 1]);
        else if (apply_option(c, optarg, o) != 0)
            snprintf(why, sizeof why, "bad value for --%s: '%s'", option_name(c), optarg);
    }
    if (why[0] == '\0' && optind < argc)
        snprintf(why, sizeof why, "unexpected argument '%s'", argv[optind]);
    if (why[0] == '\0' && inconsistent(o) != NULL)
        snprintf(why, sizeof why, "%s", inconsistent(o));
    if (why[0] == '\0')
        return 0;
    if (verbose) {
        fprintf(stderr, PIO_PROG ": %s\n", why);
        pio_usage(stderr);
    }
    return 1;
}
