/* The one escaping rule for text that iolens shows a person, shared by
 * the runtime's stderr lines and the tools' outputs: control characters,
 * DEL and backslash as \ooo (the /proc/mounts convention), so that a file
 * name or an environment value can never break a line or a column, or
 * send escape sequences to a terminal.  Header-only, so that neither side
 * depends on the other. */
#ifndef IOLENS_TEXT_ESCAPE_RULE_H
#define IOLENS_TEXT_ESCAPE_RULE_H

#include <stddef.h>

/* The escaped form of byte ch into out (NUL-terminated); returns its
 * length, 1 (the byte itself) or 4 (\ooo). */
static inline size_t iolens_escape_byte(unsigned char ch, char out[5])
{
    if (ch < 0x20 || ch == 0x7f || ch == '\\') {
        out[0] = '\\';
        out[1] = (char)('0' + (ch >> 6));
        out[2] = (char)('0' + ((ch >> 3) & 7));
        out[3] = (char)('0' + (ch & 7));
        out[4] = '\0';
        return 4;
    }
    out[0] = (char)ch;
    out[1] = '\0';
    return 1;
}

/* s[0..len) escaped into out (outsz > 0, always NUL-terminated); what
 * does not fit is cut at a whole escape.  Returns the length written. */
static inline size_t iolens_escape_text(char *out, size_t outsz, const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char one[5];
        size_t k = iolens_escape_byte((unsigned char)s[i], one);
        if (n + k >= outsz)
            break;
        for (size_t j = 0; j < k; j++)
            out[n++] = one[j];
    }
    out[n] = '\0';
    return n;
}

#endif
