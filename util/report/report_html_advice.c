/* The advice section of iolens-report: the findings of advice.h (the same
 * as iolens-parser --advice), highest priority first, each with its code,
 * the evidence figures (ending with the call site, resolved, when the
 * finding has one) and the suggested fix. */
#include <stdlib.h>

#include "analysis/advice.h"
#include "report/report.h"
#include "report/report_html.h"
#include "report/site_label.h"

static const char *severity(int priority)
{
    return priority >= 70 ? "high" : priority >= 40 ? "medium" : "low";
}

static void put_finding(FILE *out, const struct iolens_finding *f, const struct iolens_html *h)
{
    char words[IOLENS_SITE_LABEL_MAX + 64];
    const char *sev = severity(f->priority);
    fprintf(out, "<tr class=\"finding\" data-code=\"%s\"><td class=\"n sev-%s\">%d</td>"
                 "<td><code>",
            f->code, sev, f->priority);
    iolens_html_cstr(out, f->code);
    fputs("</code></td><td>", out);
    iolens_html_cstr(out, f->evidence);
    iolens_html_cstr(out, iolens_advice_site_words(h->log, f, h->sites, words, sizeof words));
    fputs("</td><td>", out);
    iolens_html_cstr(out, f->fix);
    fputs("</td></tr>\n", out);
}

int iolens_html_advice(struct iolens_html *h)
{
    struct iolens_finding *f = NULL;
    size_t n = 0;
    if (iolens_advice_compute(h->log, h->opt.thresholds, &f, &n) != 0)
        return -1;
    if (n == 0) {
        fputs("<p id=\"no-findings\" class=\"note\">No finding: none of the advice rules' "
              "thresholds was exceeded (iolens-parser(1), ADVICE).</p>\n",
              h->out);
    } else {
        fputs("<table id=\"advice-table\">\n<tr><th>priority</th><th>code</th>"
              "<th>evidence</th><th>suggested fix</th></tr>\n",
              h->out);
        for (size_t i = 0; i < n; i++)
            put_finding(h->out, &f[i], h);
        fputs("</table>\n", h->out);
    }
    iolens_advice_free(f);
    return 0;
}
