/*
 * --sites: per file and layer, the call sites of its reads and writes
 * (the log's sites regions), most bytes first, resolved to a function and
 * source line through the program's debug information
 * (site_label.h).  Tab-separated, one site per line:
 *
 *   #layer\trank\tbytes\tops\ttime\tsite\tfile
 *   POSIX\t0\t4096\t8\t0.000012\twrite_particles (io.c:142)\t/scratch/out.dat
 *   POSIX\t0\t100\t1\t0.000001\t<other sites>\t/scratch/out.dat
 *
 * A site without debug information is module+0xOFFSET (its offset from
 * the module's load bias, as the log stores it), and one hint line at the
 * end says how to get lines; a module whose build-id differs from the
 * run's is never resolved: it is marked as changed.  Rules:
 * iolens-parser(1).
 */
#include <inttypes.h>
#include <stdbool.h>

#include "format/record_merge.h"
#include "output/put_escaped.h"
#include "report/report_modes.h"
#include "report/site_label.h"

struct sites_seen {
    bool no_debug, changed;
};

/* The site column of s, and what it tells about the log's sites. */
static void put_site(FILE *out, const struct iolens_log *log, const struct iolens_log_site *s,
                     struct iolens_site_resolver *res, struct sites_seen *seen)
{
    struct iolens_site_label l;
    char text[IOLENS_SITE_LABEL_MAX];
    iolens_site_label_of(log, s, res, &l);
    iolens_put_escaped(out, iolens_site_label_text(&l, text, sizeof text));
    if (l.kind == IOLENS_SITE_LABEL_NO_DEBUG || l.kind == IOLENS_SITE_LABEL_FUNCTION)
        seen->no_debug = true;
    if (l.kind == IOLENS_SITE_LABEL_CHANGED)
        seen->changed = true;
}

static void print_record_sites(FILE *out, const struct iolens_log *log,
                               const struct iolens_log_layer *L, uint64_t r,
                               struct iolens_site_resolver *res, struct sites_seen *seen)
{
    struct iolens_log_site sites[IOLENS_SITES_LOGGED + 1];
    size_t n = iolens_log_record_sites(log, L->kind, L->id[r], L->rank[r], sites);
    const char *name = iolens_log_name_of(log, L->id[r]);
    for (size_t k = 0; k < n; k++) {
        const struct iolens_log_site *s = &sites[k];
        fprintf(out, "%s\t%" PRId64 "\t%" PRId64 "\t%" PRIu64 "\t%.6f\t",
                iolens_layer_name(L->kind), L->rank[r], s->bytes, s->ops, s->time);
        put_site(out, log, s, res, seen);
        fputc('\t', out);
        if (name != NULL)
            iolens_put_escaped(out, name);
        else
            fprintf(out, "%" PRIu64, L->id[r]);
        fputc('\n', out);
    }
}

int iolens_mode_sites(FILE *out, const struct iolens_log *log, const char *path,
                      const struct iolens_report_options *o)
{
    (void)path;
    struct iolens_site_resolver *res = iolens_site_resolver_new(o->debug_dir);
    if (res == NULL)
        return -1;
    struct sites_seen seen = {false, false};
    fputs("#layer\trank\tbytes\tops\ttime\tsite\tfile\n", out);
    for (size_t l = 0; l < log->nlayers; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        for (uint64_t r = 0; r < L->record_count; r++)
            print_record_sites(out, log, L, r, res, &seen);
    }
    if (log->nsites == 0)
        fputs("# no call sites in this log (written with IOLENS_DISABLE_SITES=1, or "
              "by an iolens without them)\n", out);
    if (seen.no_debug)
        fputs("# " IOLENS_SITE_NO_DEBUG_HINT "\n", out);
    if (seen.changed)
        fputs("# a module changed since the run (its build-id differs): its sites are not "
              "resolved\n", out);
    iolens_site_resolver_free(res);
    return 0;
}
