/* The text outputs' one escaping rule: control characters, DEL and
 * backslash as \ooo (the /proc/mounts convention), so that a file name can
 * never break a line or a tab-separated column. */
#ifndef IOLENS_PUT_ESCAPED_H
#define IOLENS_PUT_ESCAPED_H

#include <stddef.h>
#include <stdio.h>

/* Writes s[0..len) to out, escaped. */
void iolens_put_escaped_n(FILE *out, const char *s, size_t len);
/* The same for a NUL-terminated string. */
void iolens_put_escaped(FILE *out, const char *s);

#endif
