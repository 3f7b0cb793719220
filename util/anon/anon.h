/* iolens-anonymize: the keyed names (anon_names.c) and the rewriting of
 * each region's raw bytes (anon_regions.c).  man iolens-anonymize(1). */
#ifndef IOLENS_ANON_H
#define IOLENS_ANON_H

#include <stddef.h>
#include <stdint.h>

#define ANON_KEY_MIN 16
#define ANON_KEY_MAX 4096

struct anon_key {
    unsigned char bytes[ANON_KEY_MAX];
    size_t len;
};

/* A growable byte buffer; failed is set (and sticks) on out of memory. */
struct anon_buf {
    unsigned char *p;
    size_t len, cap;
    int failed;
};

void anon_put(struct anon_buf *b, const void *data, size_t len);
void anon_buf_free(struct anon_buf *b);

/* The record id an id becomes: HMAC-SHA256(key, "id" || id), moved off
 * the reserved ids; the reserved ids themselves are kept. */
uint64_t anon_id(const struct anon_key *key, uint64_t id);
/* The user id: 31 bits of HMAC-SHA256(key, "uid" || uid). */
uint64_t anon_uid(const struct anon_key *key, uint64_t uid);
/* A path: every component between '/' and ':' separators replaced by 16
 * hex digits of HMAC-SHA256(key, "path" || component); the separators
 * stay, so the tree shape and mount prefixes survive. */
void anon_path(struct anon_buf *out, const struct anon_key *key, const char *s, size_t len);
/* Any other string: prefix letter + 16 hex digits of HMAC(key, label || s);
 * an empty string stays empty. */
void anon_token(struct anon_buf *out, const struct anon_key *key, const char *label, char prefix,
                const char *s, size_t len);

/* n bytes (at most 2 * 32) of HMAC-SHA256(key, label || v), for a value
 * that must keep its length (a module's build-id). */
void anon_bytes(const struct anon_key *key, const char *label, const void *v, size_t len,
                unsigned char *out, size_t n);

/* Rewrites one region's raw bytes (already validated by the reader) into
 * out.  Returns 0, or -1 with a reason in err. */
int anon_region(const struct anon_key *key, uint32_t kind, uint32_t version,
                const unsigned char *raw, size_t len, struct anon_buf *out, char *err,
                size_t errsz);
/* 1 if anon_region knows how to rewrite (or keep) this kind and version. */
int anon_region_known(uint32_t kind, uint32_t version);

#endif
