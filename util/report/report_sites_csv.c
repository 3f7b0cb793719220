/*
 * --sites --csv: the call sites of --sites as CSV, for scripts: one row
 * per site of each file record and layer, most bytes first, the record's
 * other sites together last, after a header row (the field rules of
 * --csv, csv_out.h; the header again before each log's rows):
 *
 *   layer,path,path_hex,record_id,rank,site,module,build_id,offset,
 *   function,source_file,line,status,bytes,ops,time
 *
 * site: 1 for the record's site with the most bytes, then 2, 3...; module,
 * build_id (hex) and offset (0x..., as addr2line takes it) are as the log
 * stores them; function, source_file and line as resolved through the
 * program's debug information (empty when unknown); status says how far:
 * resolved, no_debug, changed, missing or other (the other sites
 * together: module to line empty).  The hint on getting lines goes to
 * standard error, so standard output stays CSV.  iolens-parser(1).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "report/csv_out.h"
#include "report/json_out.h"
#include "report/report_modes.h"
#include "report/site_label.h"

static const char *const columns[] = {
    "layer", "path", "path_hex", "record_id", "rank", "site", "module", "build_id", "offset",
    "function", "source_file", "line", "status", "bytes", "ops", "time",
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

static void put_cstr(FILE *out, const char *s)
{
    fputc(',', out);
    iolens_csv_text(out, s, strlen(s));
}

/* module,build_id,offset,function,source_file,line,status */
static void put_where(FILE *out, const struct iolens_site_label *l)
{
    if (l->module == NULL) {
        fprintf(out, ",,,,,,,%s", iolens_site_label_status(l));
        return;
    }
    put_cstr(out, l->module->path);
    fputc(',', out);
    iolens_put_hex(out, (const char *)l->module->build_id, l->module->build_id_len);
    fprintf(out, ",0x%" PRIx64, l->offset);
    bool resolved = l->kind == IOLENS_SITE_LABEL_LINE || l->kind == IOLENS_SITE_LABEL_FUNCTION;
    put_cstr(out, resolved ? l->where.function : "");
    put_cstr(out, l->kind == IOLENS_SITE_LABEL_LINE ? l->where.file : "");
    if (l->kind == IOLENS_SITE_LABEL_LINE)
        fprintf(out, ",%u", l->where.line);
    else
        fputc(',', out);
    fprintf(out, ",%s", iolens_site_label_status(l));
}

/* layer,path,path_hex,record_id,rank */
static void put_record(FILE *out, const struct iolens_log *log,
                       const struct iolens_log_layer *L, uint64_t r)
{
    const char *name = iolens_log_name_of(log, L->id[r]);
    size_t len = name != NULL ? strlen(name) : 0;
    fputs(iolens_layer_name(L->kind), out);
    fputc(',', out);
    if (name != NULL)
        iolens_csv_text(out, name, len);
    fputc(',', out);
    if (name != NULL && !iolens_utf8_valid(name, len))
        iolens_put_hex(out, name, len);
    fprintf(out, ",%016" PRIx64 ",%" PRId64, L->id[r], L->rank[r]);
}

/* The rows of record r; *no_line set when a site has no line. */
static void put_record_sites(FILE *out, const struct iolens_log *log,
                             const struct iolens_log_layer *L, uint64_t r,
                             struct iolens_site_resolver *res, bool *no_line, bool *changed)
{
    struct iolens_log_site sites[IOLENS_SITES_LOGGED + 1];
    size_t n = iolens_log_record_sites(log, L->kind, L->id[r], L->rank[r], sites);
    for (size_t k = 0; k < n; k++) {
        struct iolens_site_label l;
        iolens_site_label_of(log, &sites[k], res, &l);
        if (l.kind == IOLENS_SITE_LABEL_NO_DEBUG || l.kind == IOLENS_SITE_LABEL_FUNCTION)
            *no_line = true;
        if (l.kind == IOLENS_SITE_LABEL_CHANGED)
            *changed = true;
        put_record(out, log, L, r);
        fprintf(out, ",%zu", k + 1);
        put_where(out, &l);
        fprintf(out, ",%" PRId64 ",%" PRIu64, sites[k].bytes, sites[k].ops);
        iolens_csv_real(out, sites[k].time);
        fputs("\r\n", out);
    }
}

int iolens_mode_sites_csv(FILE *out, const struct iolens_log *log, const char *path,
                          const struct iolens_report_options *o)
{
    struct iolens_site_resolver *res = iolens_site_resolver_new(o->debug_dir);
    if (res == NULL)
        return -1;
    bool no_line = false, changed = false;
    iolens_csv_header(out, columns, NCOLUMNS);
    for (size_t i = 0; i < log->nlayers; i++) {
        const struct iolens_log_layer *L = &log->layers[i];
        for (uint64_t r = 0; r < L->record_count; r++)
            put_record_sites(out, log, L, r, res, &no_line, &changed);
    }
    iolens_site_resolver_free(res);
    /* stdout first, so that the notes follow the rows they are about */
    fflush(out);
    if (log->nsites == 0)
        fprintf(stderr, "iolens-parser: %s: no call sites in this log (written with "
                        "IOLENS_DISABLE_SITES=1, or by an iolens without them)\n", path);
    if (no_line)
        fprintf(stderr, "iolens-parser: %s: " IOLENS_SITE_NO_DEBUG_HINT "\n", path);
    if (changed)
        fprintf(stderr, "iolens-parser: %s: a module changed since the run (its build-id "
                        "differs): its sites are not resolved\n", path);
    return 0;
}
