/* Output of iolens-pio-perf: the classic pio_perf text layout, one JSON
 * object per (processes, transfer size, API, operation) with --json, and
 * the raw per-rank times of -o.  MB is 2^20 bytes.  Every MB/s figure is
 * the phase's bytes (all ranks, one iteration) over the time next to it;
 * the average comes from the average time. */
#include <inttypes.h>
#include <math.h>

#include "pio_perf.h"

static const char *op_name(enum pio_op op)
{
    return op == PIO_WRITE ? "write" : "read";
}

static double mb_per_s(uint64_t bytes, double seconds)
{
    return seconds > 0 ? (double)bytes / PIO_MIB / seconds : NAN;
}

void pio_report_case_header(FILE *f, const struct pio_options *o, uint64_t nprocs,
                            uint64_t xfer)
{
    if (xfer == o->min_xfer)
        fprintf(f, "Number of processors = %" PRIu64 "\n", nprocs);
    fprintf(f, "Transfer Buffer Size: %" PRIu64 " bytes, File size: %.2f MBs\n", xfer,
            (double)o->file_size / PIO_MIB);
    fprintf(f, "      # of files: %" PRIu64 ", # of dsets: %" PRIu64
               ", # of elmts per dset: %" PRIu64 "\n",
            o->num_files, o->num_dsets, o->file_size / o->num_dsets / PIO_ELMT_SIZE);
}

static void text_time(FILE *f, const char *what, double t, uint64_t bytes)
{
    fprintf(f, "            %s Time: %.6f (%.2f MB/s)\n", what, t, mb_per_s(bytes, t));
}

void pio_report_text(FILE *f, const struct pio_result *r)
{
    const struct pio_stats *s = &r->st;
    double n = (double)s->samples, it = (double)s->iterations;
    if (r->op == PIO_WRITE)
        fprintf(f, "      Type of IO = %s\n", r->c->api->name);
    fprintf(f, "      %s (%" PRIu64 " iterations)\n", r->op == PIO_WRITE ? "Write" : "Read",
            s->iterations);
    text_time(f, "Minimum", s->min, r->bytes);
    text_time(f, "Maximum", s->max, r->bytes);
    text_time(f, "Average", s->sum / n, r->bytes);
    fprintf(f, "            Open Time: min %.6f, max %.6f, avg %.6f\n", s->open_min,
            s->open_max, s->open_sum / n);
    fprintf(f, "            Close Time: min %.6f, max %.6f, avg %.6f\n", s->close_min,
            s->close_max, s->close_sum / n);
    fprintf(f, "            S %.6f, T %.6f, B %.6f, S+T+B %.6f (%.2f MB/s)\n", s->s_sum / n,
            s->t_sum / n, s->b_sum / n, s->stb_max_sum / it,
            mb_per_s(r->bytes, s->stb_max_sum / it));
    fprintf(f, "            T of all processes: %.6f (%.2f MB/s)\n", s->t_all_sum / it,
            mb_per_s(r->bytes, s->t_all_sum / it));
}

/* "key":value with value a JSON number (null when not finite). */
static void json_real(FILE *f, const char *key, double v, int decimals)
{
    if (isfinite(v))
        fprintf(f, ",\"%s\":%.*f", key, decimals, v);
    else
        fprintf(f, ",\"%s\":null", key);
}

void pio_report_json(FILE *f, const struct pio_result *r)
{
    const struct pio_stats *s = &r->st;
    const struct pio_options *o = r->c->opts;
    double n = (double)s->samples, it = (double)s->iterations;
    fprintf(f,
            "{\"procs\":%" PRIu64 ",\"xfer\":%" PRIu64 ",\"api\":\"%s\",\"type\":\"%s\","
            "\"op\":\"%s\",\"iterations\":%" PRIu64 ",\"files\":%" PRIu64 ",\"dsets\":%" PRIu64
            ",\"elmts_per_dset\":%" PRIu64 ",\"pattern\":\"%s\",\"bytes\":%" PRIu64,
            r->c->nprocs, r->c->xfer, r->c->api->key, r->c->api->name, op_name(r->op),
            s->iterations, o->num_files, o->num_dsets, o->file_size / o->num_dsets / PIO_ELMT_SIZE,
            pio_pattern_name(o->pattern), r->bytes);
    json_real(f, "min_time", s->min, 9);
    json_real(f, "max_time", s->max, 9);
    json_real(f, "avg_time", s->sum / n, 9);
    json_real(f, "min_time_mb_s", mb_per_s(r->bytes, s->min), 3);
    json_real(f, "max_time_mb_s", mb_per_s(r->bytes, s->max), 3);
    json_real(f, "avg_time_mb_s", mb_per_s(r->bytes, s->sum / n), 3);
    json_real(f, "open_min", s->open_min, 9);
    json_real(f, "open_max", s->open_max, 9);
    json_real(f, "open_avg", s->open_sum / n, 9);
    json_real(f, "close_min", s->close_min, 9);
    json_real(f, "close_max", s->close_max, 9);
    json_real(f, "close_avg", s->close_sum / n, 9);
    json_real(f, "s_avg", s->s_sum / n, 9);
    json_real(f, "t_avg", s->t_sum / n, 9);
    json_real(f, "b_avg", s->b_sum / n, 9);
    json_real(f, "stb", s->stb_max_sum / it, 9);
    json_real(f, "stb_mb_s", mb_per_s(r->bytes, s->stb_max_sum / it), 3);
    json_real(f, "t_all", s->t_all_sum / it, 9);
    json_real(f, "t_all_mb_s", mb_per_s(r->bytes, s->t_all_sum / it), 3);
    fputs("}\n", f);
}

void pio_report_raw(FILE *f, const struct pio_case *c, enum pio_op op, uint64_t iter,
                    const struct pio_rank_times *all)
{
    for (uint64_t r = 0; r < c->nprocs; r++) {
        const struct pio_rank_times *t = &all[r];
        fprintf(f,
                "%" PRIu64 " %" PRIu64 " %s %s %" PRIu64 " %" PRIu64
                " %.9f %.9f %.9f %.9f %.9f %.9f\n",
                c->nprocs, c->xfer, c->api->key, op_name(op), iter, r, t->open, t->close,
                t->first - t->barrier_end, t->last - t->first, t->closing_end - t->last,
                t->first);
    }
}
