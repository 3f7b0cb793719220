/* Parked records (record_park.h): the packed form and the blobs. */
#include "layers/record_park.h"

#include <string.h>

#include "core/budget.h"

void iolens_park_codec_init(struct iolens_park_codec *c, size_t rec_bytes)
{
    memset(c, 0, sizeof *c);
    c->nwords = rec_bytes / 8u;
}

void iolens_park_mark_raw(struct iolens_park_codec *c, size_t offset, size_t bytes)
{
    for (size_t w = offset / 8u; w < (offset + bytes + 7u) / 8u && w < c->nwords; w++)
        c->raw[w / 64u] |= UINT64_C(1) << (w % 64u);
}

static int is_raw(const struct iolens_park_codec *c, size_t w)
{
    return (c->raw[w / 64u] >> (w % 64u)) & 1u;
}

/* ------------------------------------------------- the packed form -- */

static size_t put_number(uint8_t *out, uint64_t word)
{
    uint64_t v = (word << 1) ^ (uint64_t)((int64_t)word >> 63); /* zigzag */
    size_t n = 0;
    while (v >= 0x80u) {
        out[n++] = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

/* Reads a number at in[*pos], below len; -1 if it runs past either end. */
static int get_number(const uint8_t *in, size_t len, size_t *pos, uint64_t *word)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70u; shift += 7u) {
        if (*pos >= len)
            return -1;
        uint8_t b = in[(*pos)++];
        v |= (uint64_t)(b & 0x7fu) << shift;
        if (!(b & 0x80u)) {
            *word = (v >> 1) ^ (0 - (v & 1u));
            return 0;
        }
    }
    return -1;
}

size_t iolens_park_encode(const struct iolens_park_codec *c, const void *rec, uint8_t *out)
{
    const unsigned char *bytes = rec;
    size_t map_bytes = (c->nwords + 7u) / 8u;
    memset(out, 0, map_bytes);
    size_t n = map_bytes;
    for (size_t w = 0; w < c->nwords; w++) {
        uint64_t word;
        memcpy(&word, bytes + 8u * w, sizeof word);
        if (word == 0)
            continue;
        out[w / 8u] |= (uint8_t)(1u << (w % 8u));
        if (is_raw(c, w)) {
            memcpy(out + n, &word, sizeof word);
            n += sizeof word;
        } else {
            n += put_number(out + n, word);
        }
    }
    return n;
}

int iolens_park_decode(const struct iolens_park_codec *c, const uint8_t *in, size_t len,
                       void *rec)
{
    unsigned char *bytes = rec;
    size_t map_bytes = (c->nwords + 7u) / 8u;
    memset(rec, 0, 8u * c->nwords);
    if (len < map_bytes)
        return -1;
    size_t pos = map_bytes;
    for (size_t w = 0; w < c->nwords; w++) {
        if (!((in[w / 8u] >> (w % 8u)) & 1u))
            continue;
        uint64_t word;
        if (is_raw(c, w)) {
            if (len - pos < sizeof word)
                goto bad;
            memcpy(&word, in + pos, sizeof word);
            pos += sizeof word;
        } else if (get_number(in, len, &pos, &word) != 0) {
            goto bad;
        }
        memcpy(bytes + 8u * w, &word, sizeof word);
    }
    /* Bits past the last word, or bytes past the last number: not ours. */
    if (pos != len || (c->nwords % 8u != 0 && (in[map_bytes - 1] >> (c->nwords % 8u)) != 0))
        goto bad;
    return 0;
bad:
    memset(rec, 0, 8u * c->nwords);
    return -1;
}

/* ------------------------------------------------------- the blobs -- */

/* A blob: this header, then the packed form.  Its size is its class
 * times 16 bytes, header included. */
struct blob_head {
    uint16_t len;      /* bytes of the packed form */
    uint8_t size_class;
    uint8_t unused;
};
#define BLOB_GRAIN 16u

static unsigned class_of(size_t packed)
{
    return (unsigned)((sizeof(struct blob_head) + packed + BLOB_GRAIN - 1u) / BLOB_GRAIN);
}

/* Classes above the one asked for that a freed blob may be taken from,
 * its tail unused. */
#define LARGER_CLASSES 4u

/* A blob of size_class grains at least; its class in *got. */
static void *take_blob(struct iolens_park_store *s, unsigned size_class, unsigned *got)
{
    for (unsigned k = size_class; k < IOLENS_PARK_CLASSES && k <= size_class + LARGER_CLASSES;
         k++) {
        void *freed = s->free_blobs[k];
        if (freed != NULL) {
            memcpy(&s->free_blobs[k], (unsigned char *)freed + sizeof(struct blob_head),
                   sizeof(void *));
            *got = k;
            return freed;
        }
    }
    *got = size_class;
    /* Uncounted: the layer's demand function gives the blobs' part of
     * "memory needed" (park_pool.h). */
    return iolens_budget_alloc_uncounted((size_t)size_class * BLOB_GRAIN);
}

static unsigned class_in(const void *blob)
{
    struct blob_head head;
    memcpy(&head, blob, sizeof head);
    return head.size_class;
}

void iolens_park_free_blob(struct iolens_park_store *s, void *blob)
{
    unsigned size_class = class_in(blob);
    s->blobs--;
    s->blob_bytes -= (uint64_t)size_class * BLOB_GRAIN;
    memcpy((unsigned char *)blob + sizeof(struct blob_head), &s->free_blobs[size_class],
           sizeof(void *));
    s->free_blobs[size_class] = blob;
}

static void put_packed(unsigned char *blob, unsigned size_class, const uint8_t *packed, size_t len)
{
    struct blob_head head = {(uint16_t)len, (uint8_t)size_class, 0};
    memcpy(blob, &head, sizeof head);
    memcpy(blob + sizeof head, packed, len);
}

void *iolens_park_store_record(struct iolens_park_store *s, const struct iolens_park_codec *c,
                               const void *rec)
{
    uint8_t packed[IOLENS_PARK_MAX_BYTES(IOLENS_PARK_MAX_WORDS)];
    size_t len = iolens_park_encode(c, rec, packed);
    unsigned need = class_of(len);
    if (need >= IOLENS_PARK_CLASSES)
        return NULL;    /* a record that does not shrink stays as it is */
    unsigned got;
    unsigned char *blob = take_blob(s, need, &got);
    if (blob == NULL)
        return NULL;
    put_packed(blob, got, packed, len);
    s->blobs++;
    s->blob_bytes += (uint64_t)got * BLOB_GRAIN;
    return blob;
}

int iolens_park_peek_record(const struct iolens_park_codec *c, const void *blob, void *rec)
{
    struct blob_head head;
    memcpy(&head, blob, sizeof head);
    if (head.size_class == 0 || head.size_class >= IOLENS_PARK_CLASSES ||
        class_of(head.len) > head.size_class) {
        memset(rec, 0, 8u * c->nwords);
        return -1;
    }
    return iolens_park_decode(c, (const uint8_t *)blob + sizeof head, head.len, rec);
}

int iolens_park_repack_record(const struct iolens_park_codec *c, void *blob, const void *rec)
{
    uint8_t packed[IOLENS_PARK_MAX_BYTES(IOLENS_PARK_MAX_WORDS)];
    size_t len = iolens_park_encode(c, rec, packed);
    unsigned size_class = class_in(blob);
    if (class_of(len) > size_class)
        return -1;
    put_packed(blob, size_class, packed, len);
    return 0;
}
