/* The CSV outputs' field rules (--csv, --sites --csv): RFC 4180, a field
 * quoted when it holds a comma, a quote, CR or LF, quotes doubled; text
 * in its display form (invalid UTF-8 bytes as U+FFFD, json_out.h); a real
 * number as --json writes it, an undefined one as an empty field. */
#ifndef IOLENS_REPORT_CSV_OUT_H
#define IOLENS_REPORT_CSV_OUT_H

#include <stddef.h>
#include <stdio.h>

/* s[0..len) as one field (no separator). */
void iolens_csv_text(FILE *out, const char *s, size_t len);
/* ",v" ("," alone for an undefined figure). */
void iolens_csv_real(FILE *out, double v);
/* A header row: the names comma-separated, then CRLF. */
void iolens_csv_header(FILE *out, const char *const *names, size_t n);

#endif
