/* The values of the report options (report_options.h). */
#include "report/report_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define DEFAULT_BLOCK_SIZE 512u
#define DEFAULT_BIN 1.0
#define MAX_BLOCK_SIZE (1ull << 40)
/* Bins narrower than this are refused (the times are in nanoseconds). */
#define MIN_BIN 1e-9

void iolens_report_options_defaults(struct iolens_report_options *o)
{
    *o = (struct iolens_report_options){.block_size = DEFAULT_BLOCK_SIZE, .bin = DEFAULT_BIN};
    iolens_advice_defaults(&o->advice);
}

bool iolens_parse_block_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v == 0 || v > MAX_BLOCK_SIZE)
        return false;
    *out = v;
    return true;
}

bool iolens_parse_bin(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < MIN_BIN)
        return false;
    *out = v;
    return true;
}
