/* The CSV field rules --csv and --sites --csv share (csv_out.h). */
#include "report/csv_out.h"

#include <stdbool.h>
#include <string.h>

#include "report/json_out.h"

static bool needs_quotes(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
            return true;
    return false;
}

void iolens_csv_text(FILE *out, const char *s, size_t len)
{
    if (!needs_quotes(s, len)) {
        iolens_utf8_put_display(out, s, len);
        return;
    }
    fputc('"', out);
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '"')
            continue;
        iolens_utf8_put_display(out, s + start, i - start);
        if (i < len)
            fputs("\"\"", out);
        start = i + 1;
    }
    fputc('"', out);
}

void iolens_csv_real(FILE *out, double v)
{
    char buf[32];
    iolens_json_format_double(v, buf, sizeof buf);
    fprintf(out, ",%s", strcmp(buf, "null") == 0 ? "" : buf);
}

void iolens_csv_header(FILE *out, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i > 0 ? "," : "", names[i]);
    fputs("\r\n", out);
}
