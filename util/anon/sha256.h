/* SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the keyed hashes of
 * iolens-anonymize.  A small self-contained implementation: zlib has no
 * SHA, and a crypto library would be one more dependency on every machine
 * that builds iolens for this one tool.  Checked against the FIPS 180-4
 * examples and the RFC 4231 test vectors (tests/unit/anon/test_sha256.c). */
#ifndef IOLENS_SHA256_H
#define IOLENS_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define IOLENS_SHA256_SIZE 32
#define IOLENS_SHA256_BLOCK 64

struct iolens_sha256 {
    uint32_t state[8];
    uint64_t length;                        /* bytes hashed so far */
    unsigned char block[IOLENS_SHA256_BLOCK];
    size_t used;                            /* bytes waiting in block */
};

void iolens_sha256_init(struct iolens_sha256 *s);
void iolens_sha256_update(struct iolens_sha256 *s, const void *data, size_t len);
void iolens_sha256_final(struct iolens_sha256 *s, unsigned char out[IOLENS_SHA256_SIZE]);

/* HMAC-SHA256 of the concatenation of two messages (a label and a value,
 * so that callers need not build a joined buffer). */
void iolens_hmac_sha256(const void *key, size_t keylen, const void *msg1, size_t len1,
                        const void *msg2, size_t len2, unsigned char out[IOLENS_SHA256_SIZE]);

#endif
