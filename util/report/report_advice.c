/* --advice: the findings of advice.h as text, highest priority first.
 * The format is stable (iolens-parser(1), ADVICE):
 *   # advice thresholds: small_size=102400,...
 *   # advice findings: N
 *   FINDING <CODE> <PRIORITY>
 *   evidence: <one line>
 *   fix: <one line>
 * with a blank line between findings; control characters and backslash
 * in the lines (from file names) are written as \ooo.  A finding with a
 * call site (advice.h) ends its evidence with where the program made the
 * calls, resolved as --sites does (site_label.h):
 *   ...; most from write_particles (/src/io.c:142): 2000000 calls, 32000000 bytes */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/advice.h"
#include "report/report.h"
#include "output/put_escaped.h"
#include "report/site_label.h"

/* A line with control characters and backslash as \ooo (the parser's
 * convention), so that a file name in the evidence cannot break a line. */
static void put_line(FILE *out, const char *s)
{
    iolens_put_escaped(out, s);
    fputc('\n', out);
}

const char *iolens_advice_site_words(const struct iolens_log *log,
                                     const struct iolens_finding *f,
                                     struct iolens_site_resolver *res, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    buf[0] = '\0';
    if (!f->has_site)
        return buf;
    struct iolens_site_label l;
    char text[IOLENS_SITE_LABEL_MAX];
    iolens_site_label_of(log, &f->site, res, &l);
    snprintf(buf, size, "; most from %s: %" PRIu64 " calls, %" PRId64 " bytes",
             iolens_site_label_text(&l, text, sizeof text), f->site.ops, f->site.bytes);
    return buf;
}

int iolens_report_advice(FILE *out, const struct iolens_log *log,
                         const struct iolens_advice_thresholds *t, const char *debug_dir)
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
    struct iolens_site_resolver *res = iolens_site_resolver_new(debug_dir);
    if (res == NULL) {
        iolens_advice_free(f);
        return -1;
    }
    char buf[1024];
    fprintf(out, "# advice thresholds: %s\n", iolens_advice_format(t, buf, sizeof buf));
    fprintf(out, "# advice findings: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        char words[IOLENS_SITE_LABEL_MAX + 64];
        fprintf(out, "%sFINDING %s %d\nevidence: ", i ? "\n" : "", f[i].code, f[i].priority);
        iolens_put_escaped(out, f[i].evidence);
        put_line(out, iolens_advice_site_words(log, &f[i], res, words, sizeof words));
        fputs("fix: ", out);
        put_line(out, f[i].fix);
    }
    iolens_site_resolver_free(res);
    iolens_advice_free(f);
    return 0;
}
