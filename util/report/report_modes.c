/* The parser's modes that take options, behind one shape (report_modes.h):
 * each hands its options to the report that does the work. */
#include "report/report_modes.h"

#include "report/dump_base.h"
#include "report/report.h"
#include "report/report_text.h"

int iolens_mode_base(FILE *out, const struct iolens_log *log, const char *path,
                     const struct iolens_report_options *o)
{
    (void)path, (void)o;
    return iolens_dump_base(out, log) == -1 ? -1 : 0;
}

int iolens_mode_bps(FILE *out, const struct iolens_log *log, const char *path,
                    const struct iolens_report_options *o)
{
    (void)path;
    return iolens_report_bps(out, log, o->block_size);
}

int iolens_mode_timeseries(FILE *out, const struct iolens_log *log, const char *path,
                           const struct iolens_report_options *o)
{
    (void)path;
    return iolens_report_timeseries(out, log, o->bin);
}

int iolens_mode_json(FILE *out, const struct iolens_log *log, const char *path,
                     const struct iolens_report_options *o)
{
    (void)path;
    return iolens_report_json(out, log, o->block_size, &o->advice);
}

int iolens_mode_summary(FILE *out, const struct iolens_log *log, const char *path,
                        const struct iolens_report_options *o)
{
    return iolens_report_summary_row(out, log, path, o->block_size);
}

int iolens_mode_advice(FILE *out, const struct iolens_log *log, const char *path,
                       const struct iolens_report_options *o)
{
    (void)path;
    return iolens_report_advice(out, log, &o->advice, o->debug_dir);
}
