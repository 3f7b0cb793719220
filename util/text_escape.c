/* Escaped text output (text_escape.h). */
#include "text_escape.h"

#include <string.h>

void iolens_put_escaped_n(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f || ch == '\\')
            fprintf(out, "\\%03o", ch);
        else
            fputc(ch, out);
    }
}

void iolens_put_escaped(FILE *out, const char *s)
{
    iolens_put_escaped_n(out, s, strlen(s));
}
