/* The pattern and sharing section of iolens-report: the job's sharing
 * class (sharing.h), per layer how many files fit each access-pattern
 * label (patterns.h) and how the data divides between unique and shared
 * files, and the files that moved the most data. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/file_rows.h"
#include "report/report_html.h"
#include "format/record_merge.h"
#include "format/sat_math.h"
#include "analysis/sharing.h"

#define NKINDS IOLENS_NLAYERS       /* by layer index */
#define NPATTERNS (IOLENS_PATTERN_UNKNOWN + 1)
#define NSHARING 3
#define TOP_FILES 20

struct layer_tally {
    uint64_t records;
    uint64_t pattern[NPATTERNS];
    uint64_t share_files[NSHARING];
    int64_t share_bytes[NSHARING];
};

struct tally {
    struct layer_tally layer[NKINDS];
    struct iolens_file_row top[TOP_FILES];   /* by bytes, largest first */
    size_t ntop;
};

static int64_t row_bytes(const struct iolens_file_row *r)
{
    return iolens_sat_add(r->perf.bytes_read, r->perf.bytes_written);
}

static int sharing_index(const char *name)
{
    if (strcmp(name, "unique") == 0)
        return 0;
    return strcmp(name, "partshared") == 0 ? 1 : 2;
}

/* Keeps the TOP_FILES largest rows, by insertion (the list is short). */
static void keep_top(struct tally *t, const struct iolens_file_row *r)
{
    int64_t b = row_bytes(r);
    if (b <= 0 || (t->ntop == TOP_FILES && b <= row_bytes(&t->top[TOP_FILES - 1])))
        return;
    size_t i = t->ntop < TOP_FILES ? t->ntop++ : TOP_FILES - 1;
    while (i > 0 && row_bytes(&t->top[i - 1]) < b) {
        t->top[i] = t->top[i - 1];
        i--;
    }
    t->top[i] = *r;
}

static int tally_row(const struct iolens_file_row *r, void *arg)
{
    struct tally *t = arg;
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(r->layer->kind);
    if (d != NULL) {
        struct layer_tally *lt = &t->layer[iolens_layer_desc_index(d)];
        lt->records++;
        lt->pattern[r->pattern.kind]++;
        int s = sharing_index(r->sharing);
        lt->share_files[s]++;
        lt->share_bytes[s] = iolens_sat_add(lt->share_bytes[s], row_bytes(r));
    }
    keep_top(t, r);
    return 0;
}

static void put_job_sharing(FILE *out, const struct iolens_sharing *s)
{
    fputs("<table id=\"sharing-table\">\n", out);
    fprintf(out, "<tr><th>sharing class</th><td id=\"sharing-class\">%s</td></tr>\n",
            iolens_sharing_name(s->cls));
    fprintf(out, "<tr><th>judged on layer</th><td>%s</td></tr>\n",
            s->layer != 0 ? iolens_layer_name(s->layer) : "-");
    fprintf(out, "<tr><th>bytes in files of one rank</th><td class=\"n\">%" PRId64 "</td></tr>\n"
                 "<tr><th>bytes in files of all ranks</th><td class=\"n\">%" PRId64 "</td></tr>\n"
                 "<tr><th>bytes in files of some ranks</th><td class=\"n\">%" PRId64
                 "</td></tr>\n",
            s->bytes_unique, s->bytes_all, s->bytes_subset);
    if (s->top_rank >= 0)
        fprintf(out, "<tr><th>rank that moved the most</th><td>rank %" PRId64
                     ", at least %.1f%% of the bytes</td></tr>\n",
                s->top_rank, 100.0 * s->top_rank_share);
    fputs("</table>\n", out);
}

static void put_pattern_table(FILE *out, const struct tally *t)
{
    fputs("<h3>Files by access pattern</h3>\n<table id=\"pattern-table\">\n<tr><th>layer</th>",
          out);
    for (int p = 0; p < NPATTERNS; p++)
        fprintf(out, "<th>%s</th>", iolens_pattern_name((enum iolens_pattern_kind)p));
    fputs("</tr>\n", out);
    for (uint32_t k = 0; k < NKINDS; k++) {
        if (t->layer[k].records == 0)
            continue;
        fprintf(out, "<tr><td>%s</td>", iolens_layer_desc_at(k)->name);
        for (int p = 0; p < NPATTERNS; p++)
            fprintf(out, "<td class=\"n\">%" PRIu64 "</td>", t->layer[k].pattern[p]);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void put_file_sharing_table(FILE *out, const struct tally *t)
{
    static const char *const name[NSHARING] = {"unique", "partshared", "shared"};
    fputs("<h3>Files and bytes by sharing</h3>\n<table id=\"file-sharing-table\">\n"
          "<tr><th>layer</th>",
          out);
    for (int s = 0; s < NSHARING; s++)
        fprintf(out, "<th>%s files</th><th>%s bytes</th>", name[s], name[s]);
    fputs("</tr>\n", out);
    for (uint32_t k = 0; k < NKINDS; k++) {
        if (t->layer[k].records == 0)
            continue;
        fprintf(out, "<tr><td>%s</td>", iolens_layer_desc_at(k)->name);
        for (int s = 0; s < NSHARING; s++)
            fprintf(out, "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRId64 "</td>",
                    t->layer[k].share_files[s], t->layer[k].share_bytes[s]);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void put_name(FILE *out, const struct iolens_file_row *r)
{
    fputs("<td class=\"name\">", out);
    if (r->name != NULL)
        iolens_html_cstr(out, r->name);
    else
        fprintf(out, "(no name: id %016" PRIx64 ")", r->id);
    fputs("</td>", out);
}

static void put_top_row(FILE *out, const struct iolens_file_row *r)
{
    fprintf(out, "<tr><td>%s</td><td class=\"n\">%" PRId64 "</td><td>%s</td><td class=\"n\">%" PRId64
                 "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64 "</td><td>%s</td><td>",
            r->layer_name, r->rank, r->sharing, r->nranks, r->perf.bytes_read,
            r->perf.bytes_written, iolens_pattern_name(r->pattern.kind));
    iolens_pattern_print_params(out, &r->pattern);
    fputs("</td>", out);
    put_name(out, r);
    fputs("</tr>\n", out);
}

static void put_top_files(FILE *out, const struct tally *t)
{
    fprintf(out, "<h3>Files that moved the most data (top %d, every layer)</h3>\n", TOP_FILES);
    if (t->ntop == 0) {
        fputs("<p class=\"note\">No file moved any data.</p>\n", out);
        return;
    }
    fputs("<table id=\"top-files\">\n<tr><th>layer</th><th>rank</th><th>sharing</th>"
          "<th>ranks</th><th>bytes read</th><th>bytes written</th><th>pattern</th>"
          "<th>parameters</th><th>file</th></tr>\n",
          out);
    for (size_t i = 0; i < t->ntop; i++)
        put_top_row(out, &t->top[i]);
    fputs("</table>\n<p class=\"note\">Rank -1 is a file shared by several ranks, its record "
          "reduced over them.</p>\n",
          out);
}

int iolens_html_patterns(struct iolens_html *h)
{
    struct iolens_sharing s;
    if (iolens_sharing_of_job(h->log, &s) != 0)
        return -1;
    struct tally *t = calloc(1, sizeof *t);
    if (t == NULL)
        return -1;
    int rc = iolens_file_rows(h->log, tally_row, t);
    if (rc == 0) {
        put_job_sharing(h->out, &s);
        put_pattern_table(h->out, t);
        put_file_sharing_table(h->out, t);
        put_top_files(h->out, t);
    }
    free(t);
    return rc == 0 ? 0 : -1;
}
