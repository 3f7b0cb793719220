/* --base and --total on a streamed log (report_modes.h): the log's records
 * go by once, in order, one region in memory at a time (reader_stream.h). */
#include <stdio.h>

#include "reader/reader_stream.h"
#include "report/dump_base.h"
#include "report/report_modes.h"
#include "report/report_text.h"

int iolens_mode_streamed(FILE *out, const char *path, bool total, char *err, size_t errlen)
{
    struct iolens_stream *s;
    struct iolens_totals *T = total ? iolens_totals_new() : NULL;
    if (total && T == NULL)
        return -1;
    if (iolens_stream_open(path, total ? iolens_totals_add_region : NULL, T, &s, err,
                           errlen) != IOLENS_READ_OK) {
        iolens_totals_free(T);
        return -2;
    }
    iolens_report_job_header(out, iolens_stream_log(s));
    int rc = 0;
    const struct iolens_log *whole = iolens_stream_whole_log(s);
    if (whole != NULL)   /* a Darshan log from a pipe, read whole */
        rc = total ? iolens_report_total(out, whole) : iolens_dump_base(out, whole) == -1 ? -1 : 0;
    else if (total)
        iolens_totals_print(out, T);
    else
        rc = iolens_dump_base_stream(out, s);
    iolens_totals_free(T);
    if (rc == -3) {
        snprintf(err, errlen, "%s", iolens_stream_error(s));
        rc = -2;
    } else if (rc != -1) {
        rc = 0;
    }
    iolens_stream_close(s);
    return rc;
}
