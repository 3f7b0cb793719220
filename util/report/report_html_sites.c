/* The call-site section of iolens-report: for the files that moved the
 * most data (and kept call sites), each site of their reads and writes,
 * most bytes first, named as iolens-parser --sites names it
 * (site_label.h).  Function and file names come from the program's debug
 * information and module paths from the log: all go through
 * iolens_html_text. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/file_rows.h"
#include "format/sat_math.h"
#include "report/report_html.h"
#include "report/site_label.h"

/* Files shown at most, by bytes read and written. */
#define BUSIEST_FILES 10

struct busiest {
    const struct iolens_log *log;
    struct iolens_file_row top[BUSIEST_FILES];   /* largest first */
    size_t ntop;
};

static int64_t row_bytes(const struct iolens_file_row *r)
{
    return iolens_sat_add(r->perf.bytes_read, r->perf.bytes_written);
}

static bool has_sites(const struct iolens_log *log, const struct iolens_file_row *r)
{
    struct iolens_log_site sites[IOLENS_SITES_LOGGED + 1];
    return iolens_log_record_sites(log, r->layer->kind, r->id, r->rank, sites) > 0;
}

/* Keeps the BUSIEST_FILES largest rows with sites, by insertion. */
static int keep_busiest(const struct iolens_file_row *r, void *arg)
{
    struct busiest *b = arg;
    int64_t bytes = row_bytes(r);
    if (bytes <= 0 || (b->ntop == BUSIEST_FILES && bytes <= row_bytes(&b->top[BUSIEST_FILES - 1])))
        return 0;
    if (!has_sites(b->log, r))
        return 0;
    size_t i = b->ntop < BUSIEST_FILES ? b->ntop++ : BUSIEST_FILES - 1;
    while (i > 0 && row_bytes(&b->top[i - 1]) < bytes) {
        b->top[i] = b->top[i - 1];
        i--;
    }
    b->top[i] = *r;
    return 0;
}

/* The rows of one file's sites; *no_line set when a site has no line. */
static void put_file_sites(const struct iolens_html *h, const struct iolens_file_row *r,
                           bool *no_line)
{
    FILE *out = h->out;
    struct iolens_log_site sites[IOLENS_SITES_LOGGED + 1];
    size_t n = iolens_log_record_sites(h->log, r->layer->kind, r->id, r->rank, sites);
    for (size_t k = 0; k < n; k++) {
        struct iolens_site_label l;
        char text[IOLENS_SITE_LABEL_MAX];
        iolens_site_label_of(h->log, &sites[k], h->sites, &l);
        if (l.kind == IOLENS_SITE_LABEL_NO_DEBUG || l.kind == IOLENS_SITE_LABEL_FUNCTION)
            *no_line = true;
        fprintf(out, "<tr class=\"site\" data-status=\"%s\"><td class=\"name\">",
                iolens_site_label_status(&l));
        if (r->name != NULL)
            iolens_html_cstr(out, r->name);
        else
            fprintf(out, "(no name: id %016" PRIx64 ")", r->id);
        fprintf(out, "</td><td>%s</td><td class=\"n\">%" PRId64 "</td><td class=\"name\">",
                r->layer_name, r->rank);
        iolens_html_cstr(out, iolens_site_label_text(&l, text, sizeof text));
        fprintf(out, "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRIu64
                     "</td><td class=\"n\">",
                sites[k].bytes, sites[k].ops);
        iolens_html_perf_real(out, sites[k].time);
        fputs("</td></tr>\n", out);
    }
}

int iolens_html_sites(struct iolens_html *h)
{
    FILE *out = h->out;
    if (h->log->nsites == 0) {
        fputs("<p id=\"no-sites\" class=\"note\">No call sites in this log: it was written "
              "with IOLENS_DISABLE_SITES=1, by an iolens without them, or by Darshan.</p>\n",
              out);
        return 0;
    }
    struct busiest *b = calloc(1, sizeof *b);
    if (b == NULL)
        return -1;
    b->log = h->log;
    if (iolens_file_rows(h->log, keep_busiest, b) != 0) {
        free(b);
        return -1;
    }
    fprintf(out, "<p class=\"note\">Where in the program the reads and writes of the %d files "
                 "that moved the most data were made: per file and layer, its call sites with "
                 "the most bytes, then its other sites together (iolens-parser --sites lists "
                 "every file).</p>\n",
            BUSIEST_FILES);
    fputs("<table id=\"sites-table\">\n<tr><th>file</th><th>layer</th><th>rank</th>"
          "<th>call site</th><th>bytes</th><th>calls</th><th>time (s)</th></tr>\n",
          out);
    bool no_line = false;
    for (size_t i = 0; i < b->ntop; i++)
        put_file_sites(h, &b->top[i], &no_line);
    fputs("</table>\n", out);
    if (no_line)
        fputs("<p id=\"sites-hint\" class=\"note\">Some sites have no source line: "
              "build the program with -g, or give iolens-report --debug-dir DIR with "
              "separate debug files.</p>\n",
              out);
    free(b);
    return 0;
}
