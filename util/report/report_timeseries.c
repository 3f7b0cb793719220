#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/bps.h"
#include "report/report_text.h"

/*
 * --timeseries: bytes per time bin, per layer for the whole job (rank
 * "all") and per rank, bins without bytes left out (util/analysis/bps.h says how
 * an access's bytes are spread over bins).  Returns -1 when out of memory,
 * -2 when the bins are too many.
 */
int iolens_report_timeseries(FILE *out, const struct iolens_log *log, double width)
{
    struct iolens_ts_bin *b;
    size_t n;
    enum iolens_ts_status st = iolens_timeseries(log, width, &b, &n);
    if (st != IOLENS_TS_OK)
        return st == IOLENS_TS_NOMEM ? -1 : -2;
    fprintf(out, "# timeseries bin: %.9f\n", width);
    fprintf(out, "#<layer>\t<rank>\t<bin>\t<start>\t<end>\t<bytes_read>\t<bytes_written>"
           "\t<bytes_read_write>\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s\t", iolens_layer_name(b[i].kind));
        if (b[i].rank == IOLENS_RANK_ALL)
            fputs("all", out);
        else
            fprintf(out, "%" PRId64, b[i].rank);
        fprintf(out, "\t%" PRId64 "\t%.6f\t%.6f\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", b[i].bin,
               (double)b[i].bin * width, (double)(b[i].bin + 1) * width, b[i].bytes_read,
               b[i].bytes_written, b[i].bytes_rw);
    }
    free(b);
    return 0;
}

