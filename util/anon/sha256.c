/* SHA-256 and HMAC-SHA256 (sha256.h). */
#include "anon/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

static uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void compress_block(uint32_t state[8], const unsigned char *block)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = load_be32(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ w[t - 15] >> 3;
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ w[t - 2] >> 10;
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void iolens_sha256_init(struct iolens_sha256 *s)
{
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->state, initial, sizeof initial);
    s->length = 0;
    s->used = 0;
}

void iolens_sha256_update(struct iolens_sha256 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->length += len;
    while (len > 0) {
        size_t n = IOLENS_SHA256_BLOCK - s->used;
        if (n > len)
            n = len;
        memcpy(s->block + s->used, p, n);
        s->used += n;
        p += n;
        len -= n;
        if (s->used == IOLENS_SHA256_BLOCK) {
            compress_block(s->state, s->block);
            s->used = 0;
        }
    }
}

void iolens_sha256_final(struct iolens_sha256 *s, unsigned char out[IOLENS_SHA256_SIZE])
{
    uint64_t bits = s->length * 8;
    static const unsigned char pad[IOLENS_SHA256_BLOCK] = {0x80};
    size_t padlen = s->used < 56 ? 56 - s->used : 120 - s->used;
    iolens_sha256_update(s, pad, padlen);
    unsigned char lenbuf[8];
    for (int i = 0; i < 8; i++)
        lenbuf[i] = (unsigned char)(bits >> (56 - 8 * i));
    iolens_sha256_update(s, lenbuf, 8);
    for (int i = 0; i < 8; i++)
        store_be32(out + 4 * i, s->state[i]);
}

void iolens_hmac_sha256(const void *key, size_t keylen, const void *msg1, size_t len1,
                        const void *msg2, size_t len2, unsigned char out[IOLENS_SHA256_SIZE])
{
    unsigned char k[IOLENS_SHA256_BLOCK] = {0}, pad[IOLENS_SHA256_BLOCK];
    struct iolens_sha256 s;
    if (keylen > IOLENS_SHA256_BLOCK) { /* RFC 2104: a long key is hashed first */
        iolens_sha256_init(&s);
        iolens_sha256_update(&s, key, keylen);
        iolens_sha256_final(&s, k);
    } else if (keylen > 0) {
        memcpy(k, key, keylen);
    }
    unsigned char inner[IOLENS_SHA256_SIZE];
    for (int i = 0; i < IOLENS_SHA256_BLOCK; i++)
        pad[i] = k[i] ^ 0x36;
    iolens_sha256_init(&s);
    iolens_sha256_update(&s, pad, sizeof pad);
    iolens_sha256_update(&s, msg1, len1);
    iolens_sha256_update(&s, msg2, len2);
    iolens_sha256_final(&s, inner);
    for (int i = 0; i < IOLENS_SHA256_BLOCK; i++)
        pad[i] = k[i] ^ 0x5c;
    iolens_sha256_init(&s);
    iolens_sha256_update(&s, pad, sizeof pad);
    iolens_sha256_update(&s, inner, sizeof inner);
    iolens_sha256_final(&s, out);
}
