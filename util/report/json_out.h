/* A small streaming JSON writer for iolens-parser --json (and the UTF-8
 * rules --csv shares).  Why not jansson or json-c: the output is a tree
 * written once, front to back, so a DOM library would only add a copy of
 * every value and a run-time dependency; what needs care is the escaping of
 * file names that are arbitrary bytes, and that is tested byte by byte in
 * tests/unit/report/test_json_out.c.
 *
 * Output is RFC 8259 JSON in UTF-8, compact (no spaces), one value:
 *   strings   '"' and '\' escaped, control characters as \b \f \n \r \t
 *             or \u00XX, DEL as \u007f, valid UTF-8 copied as is, each byte
 *             that is not part of a well-formed UTF-8 sequence (RFC 3629:
 *             no overlong forms, no surrogates, nothing above U+10FFFF)
 *             replaced by U+FFFD
 *   numbers   integers exactly; doubles in the shortest of %.15g/%.17g
 *             that reads back to the same double; NaN and infinities as
 *             null
 * Errors of the stream are left to the caller (ferror). */
#ifndef IOLENS_JSON_OUT_H
#define IOLENS_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IOLENS_JSON_MAX_DEPTH 32

struct iolens_json {
    FILE *out;
    int depth;
    bool first[IOLENS_JSON_MAX_DEPTH];  /* no member written yet at this depth */
    bool after_key;                     /* a key was written: no comma next */
};

void iolens_json_init(struct iolens_json *j, FILE *out);
void iolens_json_begin_object(struct iolens_json *j);
void iolens_json_end_object(struct iolens_json *j);
void iolens_json_begin_array(struct iolens_json *j);
void iolens_json_end_array(struct iolens_json *j);
/* The key of the next member of an object (a NUL-terminated string). */
void iolens_json_key(struct iolens_json *j, const char *key);

/* Values.  iolens_json_string writes s[0..len) by the rules above and
 * returns true when it was copied exactly (valid UTF-8). */
bool iolens_json_string(struct iolens_json *j, const char *s, size_t len);
void iolens_json_cstring(struct iolens_json *j, const char *s);
/* s[0..len) as a string of hexadecimal digits, two a byte (exact bytes). */
void iolens_json_hex_string(struct iolens_json *j, const char *s, size_t len);
void iolens_json_int(struct iolens_json *j, int64_t v);
void iolens_json_uint(struct iolens_json *j, uint64_t v);
void iolens_json_double(struct iolens_json *j, double v);
void iolens_json_bool(struct iolens_json *j, bool v);
void iolens_json_null(struct iolens_json *j);

/* Whether s[0..len) is well-formed UTF-8 (RFC 3629). */
bool iolens_utf8_valid(const char *s, size_t len);
/* Length of the well-formed UTF-8 sequence at s[0..len), 0 if none. */
size_t iolens_utf8_sequence(const unsigned char *s, size_t len);
/* Writes s[0..len) with every byte outside a well-formed sequence
 * replaced by U+FFFD (the display form of a name); no escaping. */
void iolens_utf8_put_display(FILE *out, const char *s, size_t len);
/* Writes the bytes as lowercase hexadecimal, two digits a byte. */
void iolens_put_hex(FILE *out, const char *s, size_t len);
/* A double as iolens_json_double writes it; "null" when not finite.
 * buf needs 32 bytes. */
void iolens_json_format_double(double v, char *buf, size_t size);

#endif
