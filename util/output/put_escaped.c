/* Escaped text output (text_escape.h); the rule is iolens/text_escape.h. */
#include "output/put_escaped.h"

#include <string.h>

#include "iolens/text_escape.h"

void iolens_put_escaped_n(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char one[5];
        size_t k = iolens_escape_byte((unsigned char)s[i], one);
        fwrite(one, 1, k, out);
    }
}

void iolens_put_escaped(FILE *out, const char *s)
{
    iolens_put_escaped_n(out, s, strlen(s));
}
