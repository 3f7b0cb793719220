/* --summary: placeholder until the per-job summary lands. */
#include "report.h"

int iolens_report_summary_header(FILE *out)
{
    (void)out;
    return 0;
}

int iolens_report_summary_row(FILE *out, const struct iolens_log *log, const char *path,
                              uint64_t block_size)
{
    (void)out; (void)log; (void)path; (void)block_size;
    return 0;
}
