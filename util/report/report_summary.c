/*
 * --summary: one tab-separated row per job, for many logs at once, after
 * one header line.  Bytes and bandwidths are the whole job's (perf.h:
 * POSIX + STDIO); bps is the BPS of the POSIX layer's access intervals, or
 * when the log has none there, of the first layer that has some (STDIO,
 * MPIIO, H5D), named in bps_layer ("-" and "-" without intervals).  Text
 * fields are escaped as in the other text modes (control characters and
 * backslash as \ooo); an undefined figure prints "-".
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "analysis/bps.h"
#include "analysis/perf.h"
#include "report/report.h"
#include "analysis/sharing.h"
#include "output/real_text.h"
#include "format/record_merge.h"

static void put_escaped(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f || ch == '\\')
            fprintf(out, "\\%03o", ch);
        else
            fputc(ch, out);
    }
}

static void put_real_cell(FILE *out, double v)
{
    fputc('\t', out);
    iolens_put_real(out, v);
}

int iolens_report_summary_header(FILE *out)
{
    fputs("#<log>\t<exe>\t<jobid>\t<nprocs>\t<nnodes>\t<runtime>\t<bytes>\t<agg_mib_s>"
          "\t<mib_s_per_cn>\t<union_mib_s>\t<bps>\t<bps_layer>\t<sharing>\t<source>\n",
          out);
    return 0;
}

/* The BPS row summary reports, or NULL. */
static const struct iolens_bps *main_bps(const struct iolens_bps_report *r)
{
    /* the first layer that carries data, in table order */
    for (unsigned k = 0; k < IOLENS_NDATA_LAYERS; k++)
        for (size_t i = 0; i < r->n; i++)
            if (r->rows[i].file_id == 0 &&
                r->rows[i].kind == iolens_data_layer_at(k)->region_kind)
                return &r->rows[i];
    return NULL;
}

static void put_bps(FILE *out, const struct iolens_log *log, const struct iolens_bps *b,
                    uint64_t block_size)
{
    if (b == NULL) {
        fputs("\t-\t-", out);
        return;
    }
    struct iolens_bps_figures f;
    iolens_bps_derive(b, block_size, log->job.run_time, &f);
    put_real_cell(out, f.bps);
    fprintf(out, "\t%s", iolens_layer_name(b->kind));
}

int iolens_report_summary_row(FILE *out, const struct iolens_log *log, const char *path,
                              uint64_t block_size)
{
    struct iolens_perf p;
    struct iolens_bps_report r;
    struct iolens_sharing sh;
    if (iolens_perf_compute(log, &p) != 0 || iolens_sharing_of_job(log, &sh) != 0)
        return -1;
    if (iolens_bps_compute(log, &r) != 0)
        return -1;
    put_escaped(out, path, strlen(path));
    fputc('\t', out);
    put_escaped(out, log->jobstr[IOLENS_JOBSTR_EXE], log->jobstr_len[IOLENS_JOBSTR_EXE]);
    fputc('\t', out);
    put_escaped(out, log->jobstr[IOLENS_JOBSTR_JOBID], log->jobstr_len[IOLENS_JOBSTR_JOBID]);
    fprintf(out, "\t%" PRIu32 "\t%" PRIu32, log->job.nprocs, p.compute_nodes);
    put_real_cell(out, log->job.run_time);
    fprintf(out, "\t%" PRId64, p.job.bytes);
    put_real_cell(out, p.job.agg_mib_s);
    put_real_cell(out, p.job.mib_s_per_cn);
    put_real_cell(out, p.job.union_mib_s);
    put_bps(out, log, main_bps(&r), block_size);
    /* Which runtime wrote the log, and whether it lost records. */
    char source[48];
    fprintf(out, "\t%s\t%s%s\n", iolens_sharing_name(sh.cls),
            iolens_log_source_label(log, source, sizeof source),
            (log->flags & IOLENS_FLAG_PARTIAL) ? " partial" : "");
    iolens_bps_report_free(&r);
    return 0;
}
