/* The iolens-report page: head (with a Content-Security-Policy that
 * allows no script and no network access, only the inline style), the
 * style sheet, a table of contents, then the sections in a fixed order.
 * Section ids are part of the interface (iolens-report(1)): tests and
 * users link to them. */
#include "report/report_html.h"

#include <string.h>

#include "analysis/site_resolve.h"

/* default-src 'none': nothing is fetched, no script runs; the one
 * inline <style> needs style-src 'unsafe-inline' (SVG presentation
 * attributes are not styles). */
#define CSP "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; " \
            "form-action 'none'"

static const char STYLE[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px;"
    "color:#222;background:#fff}\n"
    "h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:28px 0 8px;"
    "border-bottom:1px solid #ccc}h3{font-size:15px;margin:16px 0 4px}\n"
    "table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;padding:2px 6px;"
    "text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "th{background:#f3f3f3}.name{font-family:monospace;word-break:break-all}\n"
    "svg.chart{display:block;max-width:100%;height:auto;margin:6px 0}\n"
    "svg text{font:12px system-ui,sans-serif;fill:#222}svg text.tick{font-size:11px;fill:#555}\n"
    "svg .grid{stroke:#ddd;stroke-width:1}svg .bg{fill:#f4f4f4}\n"
    ".note{color:#555}.sev-high{color:#b00;font-weight:bold}.sev-medium{color:#b60}"
    ".wide{color:#b60}"
    ".sev-low{color:#555}\n"
    "nav a{margin-right:12px}\n";

void iolens_html_section_begin(FILE *out, const char *id, const char *title)
{
    fprintf(out, "<section id=\"%s\">\n<h2>", id);
    iolens_html_cstr(out, title);
    fputs("</h2>\n", out);
}

void iolens_html_section_end(FILE *out)
{
    fputs("</section>\n", out);
}

static void put_head(FILE *out, const struct iolens_log *log)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", out);
    fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"" CSP "\">\n", out);
    fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", out);
    fputs("<title>iolens report: job ", out);
    iolens_html_text(out, log->jobstr[IOLENS_JOBSTR_JOBID], log->jobstr_len[IOLENS_JOBSTR_JOBID]);
    fputs("</title>\n<style>\n", out);
    fputs(STYLE, out);
    fputs("</style>\n</head>\n<body>\n", out);
}

struct section {
    const char *id, *title;
    int (*write)(struct iolens_html *h);
};

static const struct section SECTIONS[] = {
    {"summary", "Job summary", iolens_html_summary},
    {"cost", "I/O cost per layer", iolens_html_cost},
    {"heatmap", "Per-rank time series", iolens_html_heatmap},
    {"sizes", "Access sizes", iolens_html_sizes},
    {"patterns", "Access patterns and file sharing", iolens_html_patterns},
    {"bps", "BPS and conventional bandwidth", iolens_html_bps},
    {"sites", "Call sites of the busiest files", iolens_html_sites},
    {"advice", "Advice", iolens_html_advice},
};
#define NSECTIONS (sizeof SECTIONS / sizeof SECTIONS[0])

static void put_title(FILE *out, const struct iolens_log *log)
{
    fputs("<h1>iolens report: job ", out);
    iolens_html_text(out, log->jobstr[IOLENS_JOBSTR_JOBID], log->jobstr_len[IOLENS_JOBSTR_JOBID]);
    fputs("</h1>\n", out);
    if (log->source == IOLENS_SOURCE_DARSHAN) {
        /* which runtime wrote the log, and what it lacks */
        fputs("<p class=\"note\">Read from a Darshan log, format ", out);
        iolens_html_text(out, log->source_version, strlen(log->source_version));
        fputs(" (Darshan ", out);
        iolens_html_text(out, log->jobstr[IOLENS_JOBSTR_VERSION],
                         log->jobstr_len[IOLENS_JOBSTR_VERSION]);
        fputs("): counters iolens has and Darshan lacks are left out", out);
        if (log->ninterval_sets == 0)
            fputs("; no DXT trace, so no BPS", out);
        fputs(".</p>\n", out);
    }
    if (log->source == IOLENS_SOURCE_DARSHAN && (log->flags & IOLENS_FLAG_PARTIAL))
        fputs("<p class=\"note\"><strong>Partial log</strong>: Darshan ran out of "
              "records, and files it did not record are missing.</p>\n", out);
    fputs("<nav>", out);
    for (size_t i = 0; i < NSECTIONS; i++)
        fprintf(out, "<a href=\"#%s\">%s</a>", SECTIONS[i].id, SECTIONS[i].title);
    fputs("</nav>\n", out);
}

int iolens_html_report(FILE *out, const struct iolens_log *log,
                       const struct iolens_html_options *opt)
{
    struct iolens_html h = {.out = out, .log = log, .opt = *opt};
    if (iolens_perf_compute(log, &h.perf) != 0)
        return -1;
    h.sites = iolens_site_resolver_new(opt->debug_dir);
    if (h.sites == NULL)
        return -1;
    put_head(out, log);
    put_title(out, log);
    int rc = 0;
    for (size_t i = 0; i < NSECTIONS && rc == 0; i++) {
        iolens_html_section_begin(out, SECTIONS[i].id, SECTIONS[i].title);
        rc = SECTIONS[i].write(&h);
        iolens_html_section_end(out);
    }
    iolens_site_resolver_free(h.sites);
    if (rc != 0)
        return -1;
    fputs("<footer class=\"note\"><p>Made by iolens-report from the log alone; "
          "the page loads nothing and runs no script.</p></footer>\n</body>\n</html>\n",
          out);
    return 0;
}
