/* Keyed names for iolens-anonymize (anon.h): HMAC-SHA256 with a secret
 * key, so that nobody without the key can test a guessed path, user or
 * job id against the anonymized log (unkeyed hashes, XXH3 ids included,
 * allow exactly that). */
#include <stdlib.h>
#include <string.h>

#include "anon/anon.h"
#include "format/path_hash.h"
#include "anon/sha256.h"

void anon_put(struct anon_buf *b, const void *data, size_t len)
{
    if (b->failed)
        return;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (len > 0)
        memcpy(b->p + b->len, data, len);
    b->len += len;
}

void anon_buf_free(struct anon_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* HMAC-SHA256(key, label || NUL || value).  The label separates the
 * domains: a path component and a user name that are equal get different
 * hashes. */
static void digest(const struct anon_key *key, const char *label, const void *v, size_t len,
                   unsigned char out[IOLENS_SHA256_SIZE])
{
    iolens_hmac_sha256(key->bytes, key->len, label, strlen(label) + 1, v, len, out);
}

static uint64_t first_u64(const unsigned char *d)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | d[i];
    return v;
}

uint64_t anon_id(const struct anon_key *key, uint64_t id)
{
    if (id <= IOLENS_ID_RESERVED_MAX)
        return id;
    unsigned char le[8], d[IOLENS_SHA256_SIZE];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(id >> (8 * i));
    digest(key, "id", le, sizeof le, d);
    return iolens_id_avoid_reserved(first_u64(d));
}

void anon_bytes(const struct anon_key *key, const char *label, const void *v, size_t len,
                unsigned char *out, size_t n)
{
    unsigned char d[IOLENS_SHA256_SIZE];
    digest(key, label, v, len, d);
    size_t first = n < sizeof d ? n : sizeof d;
    memcpy(out, d, first);
    if (n > first) { /* the next 32 bytes: the digest of the first */
        unsigned char more[IOLENS_SHA256_SIZE];
        digest(key, label, d, sizeof d, more);
        memcpy(out + first, more, n - first < sizeof more ? n - first : sizeof more);
    }
}

uint64_t anon_uid(const struct anon_key *key, uint64_t uid)
{
    unsigned char le[8], d[IOLENS_SHA256_SIZE];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(uid >> (8 * i));
    digest(key, "uid", le, sizeof le, d);
    return first_u64(d) & 0x7fffffff;
}

static void put_hex16(struct anon_buf *out, const unsigned char *d)
{
    static const char digits[] = "0123456789abcdef";
    char h[16];
    for (int i = 0; i < 8; i++) {
        h[2 * i] = digits[d[i] >> 4];
        h[2 * i + 1] = digits[d[i] & 15];
    }
    anon_put(out, h, sizeof h);
}

void anon_path(struct anon_buf *out, const struct anon_key *key, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        if (s[i] == '/' || s[i] == ':') {
            anon_put(out, &s[i++], 1);
            continue;
        }
        size_t n = 0;
        while (i + n < len && s[i + n] != '/' && s[i + n] != ':')
            n++;
        unsigned char d[IOLENS_SHA256_SIZE];
        digest(key, "path", s + i, n, d);
        put_hex16(out, d);
        i += n;
    }
}

void anon_token(struct anon_buf *out, const struct anon_key *key, const char *label, char prefix,
                const char *s, size_t len)
{
    if (len == 0)
        return;
    unsigned char d[IOLENS_SHA256_SIZE];
    digest(key, label, s, len, d);
    anon_put(out, &prefix, 1);
    put_hex16(out, d);
}
