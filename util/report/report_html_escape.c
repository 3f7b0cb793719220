/* HTML text and number formatting for iolens-report.  File names,
 * executables and arguments are arbitrary bytes: every one goes through
 * iolens_html_text, never straight to the page. */
#include <math.h>
#include <string.h>

#include "report/json_out.h"
#include "report/report_html.h"

static void put_reference(FILE *out, unsigned char ch)
{
    switch (ch) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    default: fputs("&#39;", out); break;    /* '\'' */
    }
}

/* C0 controls and DEL as the Control Pictures block (U+2400 + code,
 * U+2421 for DEL): visible, and not a parse error as raw controls are. */
static void put_control_picture(FILE *out, unsigned char ch)
{
    unsigned cp = ch == 0x7f ? 0x2421u : 0x2400u + ch;
    fprintf(out, "&#x%X;", cp);
}

static void put_byte(FILE *out, unsigned char ch)
{
    if (strchr("&<>\"'", ch) != NULL && ch != '\0')
        put_reference(out, ch);
    else if (ch < 0x20 || ch == 0x7f)
        put_control_picture(out, ch);
    else
        fputc(ch, out);
}

void iolens_html_text(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        if (p[i] < 0x80) {
            put_byte(out, p[i]);
            i++;
            continue;
        }
        size_t n = iolens_utf8_sequence(p + i, len - i);
        if (n == 0) {
            fputs("\xEF\xBF\xBD", out);   /* U+FFFD for the stray byte */
            i++;
        } else {
            fwrite(p + i, 1, n, out);
            i += n;
        }
    }
}

void iolens_html_cstr(FILE *out, const char *s)
{
    iolens_html_text(out, s, strlen(s));
}

void iolens_html_perf_real(FILE *out, double v)
{
    if (isnan(v))
        fputs("-", out);
    else if (isinf(v))
        fputs("inf", out);
    else
        fprintf(out, "%.6f", v);
}

void iolens_html_short(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("-", out);
    else
        fprintf(out, "%.4g", v);
}

void iolens_html_bytes(FILE *out, double bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    size_t u = 0;
    while (fabs(bytes) >= 1024.0 && u + 1 < sizeof unit / sizeof unit[0]) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        fprintf(out, "%.0f B", bytes);
    else
        fprintf(out, "%.4g %s", bytes, unit[u]);
}
