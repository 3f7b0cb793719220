/* --advice: the findings of advice.h as text, highest priority first.
 * The format is stable (iolens-parser(1), ADVICE):
 *   # advice thresholds: small_size=102400,...
 *   # advice findings: N
 *   FINDING <CODE> <PRIORITY>
 *   evidence: <one line>
 *   fix: <one line>
 * with a blank line between findings; control characters and backslash
 * in the lines (from file names) are written as \ooo. */
#include <stdio.h>
#include <string.h>

#include "analysis/advice.h"
#include "report/report.h"
#include "output/put_escaped.h"

/* A line with control characters and backslash as \ooo (the parser's
 * convention), so that a file name in the evidence cannot break a line. */
static void put_line(FILE *out, const char *s)
{
    iolens_put_escaped(out, s);
    fputc('\n', out);
}

int iolens_report_advice(FILE *out, const struct iolens_log *log,
                         const struct iolens_advice_thresholds *t)
{
    struct iolens_advice_thresholds defaults;
    if (t == NULL) {
        iolens_advice_defaults(&defaults);
        t = &defaults;
    }
    struct iolens_finding *f;
    size_t n;
    if (iolens_advice_compute(log, t, &f, &n) != 0)
        return -1;
    char buf[1024];
    fprintf(out, "# advice thresholds: %s\n", iolens_advice_format(t, buf, sizeof buf));
    fprintf(out, "# advice findings: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%sFINDING %s %d\nevidence: ", i ? "\n" : "", f[i].code, f[i].priority);
        put_line(out, f[i].evidence);
        fputs("fix: ", out);
        put_line(out, f[i].fix);
    }
    iolens_advice_free(f);
    return 0;
}
