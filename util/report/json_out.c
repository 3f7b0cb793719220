/* A streaming JSON writer; rules in json_out.h. */
#include "report/json_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- UTF-8 -- */

static bool is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

/* RFC 3629, table in section 4: the second byte's range depends on the
 * first, which is what excludes overlong forms, surrogates (ED A0..BF)
 * and code points above U+10FFFF (F4 90..). */
size_t iolens_utf8_sequence(const unsigned char *s, size_t len)
{
    if (len == 0)
        return 0;
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!is_cont(s[i]))
            return 0;
    return n;
}

bool iolens_utf8_valid(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = iolens_utf8_sequence(u + i, len - i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

void iolens_utf8_put_display(FILE *out, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = iolens_utf8_sequence(u + i, len - i);
        if (n == 0) {
            fputs(replacement, out);
            i++;
        } else {
            fwrite(s + i, 1, n, out);
            i += n;
        }
    }
}

void iolens_put_hex(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        fprintf(out, "%02x", (unsigned char)s[i]);
}

/* ------------------------------------------------------------ values -- */

void iolens_json_init(struct iolens_json *j, FILE *out)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    j->first[0] = true;
}

/* The comma before a value, unless it follows its key or is the first. */
static void before_value(struct iolens_json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (!j->first[j->depth])
        putc(',', j->out);
    j->first[j->depth] = false;
}

static void open_container(struct iolens_json *j, char c)
{
    before_value(j);
    putc(c, j->out);
    if (j->depth + 1 < IOLENS_JSON_MAX_DEPTH)
        j->depth++;
    j->first[j->depth] = true;
}

static void close_container(struct iolens_json *j, char c)
{
    putc(c, j->out);
    if (j->depth > 0)
        j->depth--;
}

void iolens_json_begin_object(struct iolens_json *j) { open_container(j, '{'); }
void iolens_json_end_object(struct iolens_json *j) { close_container(j, '}'); }
void iolens_json_begin_array(struct iolens_json *j) { open_container(j, '['); }
void iolens_json_end_array(struct iolens_json *j) { close_container(j, ']'); }

static void put_escaped_byte(FILE *out, unsigned char c)
{
    switch (c) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\b': fputs("\\b", out); break;
    case '\f': fputs("\\f", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\t': fputs("\\t", out); break;
    default:
        if (c < 0x20 || c == 0x7F)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
}

static bool put_string_body(FILE *out, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    bool exact = true;
    for (size_t i = 0; i < len;) {
        size_t n = iolens_utf8_sequence(u + i, len - i);
        if (n == 0) {
            fputs(replacement, out);
            exact = false;
            i++;
        } else if (n == 1) {
            put_escaped_byte(out, u[i++]);
        } else {
            fwrite(s + i, 1, n, out);
            i += n;
        }
    }
    return exact;
}

void iolens_json_key(struct iolens_json *j, const char *key)
{
    before_value(j);
    putc('"', j->out);
    put_string_body(j->out, key, strlen(key));
    fputs("\":", j->out);
    j->after_key = true;
}

bool iolens_json_string(struct iolens_json *j, const char *s, size_t len)
{
    before_value(j);
    putc('"', j->out);
    bool exact = put_string_body(j->out, s, len);
    putc('"', j->out);
    return exact;
}

void iolens_json_cstring(struct iolens_json *j, const char *s)
{
    iolens_json_string(j, s, strlen(s));
}

void iolens_json_hex_string(struct iolens_json *j, const char *s, size_t len)
{
    before_value(j);
    putc('"', j->out);
    iolens_put_hex(j->out, s, len);
    putc('"', j->out);
}

void iolens_json_int(struct iolens_json *j, int64_t v)
{
    before_value(j);
    fprintf(j->out, "%" PRId64, v);
}

void iolens_json_uint(struct iolens_json *j, uint64_t v)
{
    before_value(j);
    fprintf(j->out, "%" PRIu64, v);
}

void iolens_json_format_double(double v, char *buf, size_t size)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "null");
        return;
    }
    /* %.15g reads back exactly for most values; else %.17g always does */
    snprintf(buf, size, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, size, "%.17g", v);
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, size, "0");
}

void iolens_json_double(struct iolens_json *j, double v)
{
    char buf[32];
    before_value(j);
    iolens_json_format_double(v, buf, sizeof buf);
    fputs(buf, j->out);
}

void iolens_json_bool(struct iolens_json *j, bool v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->out);
}

void iolens_json_null(struct iolens_json *j)
{
    before_value(j);
    fputs("null", j->out);
}
