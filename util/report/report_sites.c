/*
 * --sites: per file and layer, the call sites of its reads and writes
 * (the log's sites regions), most bytes first, resolved to a function and
 * source line through the program's debug information
 * (analysis/site_resolve.h).  Tab-separated, one site per line:
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

#include "analysis/site_resolve.h"
#include "format/record_merge.h"
#include "output/put_escaped.h"
#include "report/report_modes.h"

#define NO_DEBUG_HINT                                                                      \
    "# no line for some sites: build with -g, or give --debug-dir DIR with separate debug " \
    "files\n"

struct sites_seen {
    bool no_debug, changed, missing;
};

static void put_module_offset(FILE *out, const struct iolens_log_site_module *m, uint64_t offset)
{
    iolens_put_escaped(out, m->path);
    fprintf(out, "+0x%" PRIx64, offset);
}

/* The site column of s. */
static void put_site(FILE *out, const struct iolens_log *log, const struct iolens_log_site *s,
                     struct iolens_site_resolver *res, struct sites_seen *seen)
{
    if (s->module == IOLENS_SITE_OTHER || s->module >= log->nsite_modules) {
        fputs("<other sites>", out);
        return;
    }
    const struct iolens_log_site_module *m = &log->site_modules[s->module];
    struct iolens_site_where w = {.status = IOLENS_SITE_MISSING};
    if (res != NULL)
        iolens_site_resolve(res, m->path, m->build_id, m->build_id_len, s->offset, &w);
    switch (w.status) {
    case IOLENS_SITE_RESOLVED:
        if (w.function[0] != '\0') {
            iolens_put_escaped(out, w.function);
        } else {
            put_module_offset(out, m, s->offset);
        }
        fputs(" (", out);
        if (w.file[0] != '\0' && w.line > 0) {
            iolens_put_escaped(out, w.file);
            fprintf(out, ":%u", w.line);
        } else {
            put_module_offset(out, m, s->offset);
            seen->no_debug = true;
        }
        fputc(')', out);
        return;
    case IOLENS_SITE_NO_DEBUG:
        put_module_offset(out, m, s->offset);
        seen->no_debug = true;
        return;
    case IOLENS_SITE_CHANGED:
        put_module_offset(out, m, s->offset);
        fputs(" [changed since the run: build-id differs]", out);
        seen->changed = true;
        return;
    case IOLENS_SITE_MISSING:
        break;
    }
    put_module_offset(out, m, s->offset);
    fputs(" [module not found]", out);
    seen->missing = true;
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
    struct sites_seen seen = {false, false, false};
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
        fputs(NO_DEBUG_HINT, out);
    if (seen.changed)
        fputs("# a module changed since the run (its build-id differs): its sites are not "
              "resolved\n", out);
    iolens_site_resolver_free(res);
    return 0;
}
