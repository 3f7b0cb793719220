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

/* LEB128: 7 bits a byte, the low ones first. */
static size_t put_varint(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80u) {
        out[n++] = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

/* Reads a LEB128 number at in[*pos], below len; -1 if it runs past
 * either end (more than 10 bytes). */
static int get_varint(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
    /* In locals: stores through pos and v could alias in (bytes), and
     * would be reloaded at every byte. */
    size_t at = *pos;
    uint64_t value = 0;
    for (unsigned shift = 0; shift < 70u && at < len; shift += 7u) {
        uint8_t b = in[at++];
        value |= (uint64_t)(b & 0x7fu) << shift;
        if (!(b & 0x80u)) {
            *pos = at;
            *v = value;
            return 0;
        }
    }
    return -1;
}

static uint64_t zigzag(uint64_t word)
{
    return (word << 1) ^ (uint64_t)((int64_t)word >> 63);
}

static uint64_t unzigzag(uint64_t v)
{
    return (v >> 1) ^ (0 - (v & 1u));
}

static size_t put_number(uint8_t *out, uint64_t word)
{
    return put_varint(out, zigzag(word));
}

static int get_number(const uint8_t *in, size_t len, size_t *pos, uint64_t *word)
{
    uint64_t v;
    if (get_varint(in, len, pos, &v) != 0)
        return -1;
    *word = unzigzag(v);
    return 0;
}

/* The whole numbers a double packs as one: up to 2^53 either way, where
 * every integer is a double exactly. */
#define WHOLE_MAX (INT64_C(1) << 53)

/* A double that holds a whole number (every time the runtime keeps while
 * it traces is a whole number of clock units, and so are sums of them:
 * clock.h) is packed as that number, zigzagged and shifted left once: a
 * number with its low bit 0, 5 bytes for a time of a second at 2.6 GHz.
 * Any other double (a fraction, -0.0, an infinity, a NaN) is the number
 * 1 and then its 8 bytes.  The word unpacks bit for bit either way. */
static size_t put_double(uint8_t *out, uint64_t word)
{
    double d;
    memcpy(&d, &word, sizeof d);
    if (d >= -(double)WHOLE_MAX && d <= (double)WHOLE_MAX) {
        int64_t whole = (int64_t)d;
        double back = (double)whole;
        uint64_t back_word;
        memcpy(&back_word, &back, sizeof back_word);
        if (back_word == word)
            return put_varint(out, zigzag((uint64_t)whole) << 1);
    }
    out[0] = 1;
    memcpy(out + 1, &word, sizeof word);
    return 1 + sizeof word;
}

/* Reads what put_double wrote; -1 if it could not have (a tag 1 with
 * bits beside it, a whole number past 2^53, or +0.0, which is a zero
 * word and so never packed). */
static int get_double(const uint8_t *in, size_t len, size_t *pos, uint64_t *word)
{
    uint64_t v;
    if (get_varint(in, len, pos, &v) != 0)
        return -1;
    if (v & 1u) {
        if (v != 1u || len - *pos < sizeof *word)
            return -1;
        memcpy(word, in + *pos, sizeof *word);
        *pos += sizeof *word;
        return 0;
    }
    int64_t whole = (int64_t)unzigzag(v >> 1);
    if (whole == 0 || whole < -WHOLE_MAX || whole > WHOLE_MAX)
        return -1;
    double d = (double)whole;
    memcpy(word, &d, sizeof *word);
    return 0;
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
        n += is_raw(c, w) ? put_double(out + n, word) : put_number(out + n, word);
    }
    return n;
}

/* Reads word w of the packed form at in[*pos] into *word; -1 if it could
 * not have been written there. */
static int get_word(const struct iolens_park_codec *c, size_t w, const uint8_t *in, size_t len,
                    size_t *pos, uint64_t *word)
{
    return is_raw(c, w) ? get_double(in, len, pos, word) : get_number(in, len, pos, word);
}

/* Steps over word w of the packed form (a number, or a double's tag and,
 * after the tag 1, its 8 bytes); -1 if it runs past the end. */
static int skip_word(const struct iolens_park_codec *c, size_t w, const uint8_t *in, size_t len,
                     size_t *pos)
{
    uint64_t v;
    if (get_varint(in, len, pos, &v) != 0)
        return -1;
    if (is_raw(c, w) && (v & 1u)) {
        if (len - *pos < sizeof(uint64_t))
            return -1;
        *pos += sizeof(uint64_t);
    }
    return 0;
}

/* Unpacks words [first, end) into rec, every other word zero.  Only the
 * map's set bits are visited: a parked record has a few dozen nonzero
 * words of more than a hundred.  The whole record (0, nwords) is checked
 * to its last byte; a part only as far as it reads. */
static int decode_range(const struct iolens_park_codec *c, const uint8_t *in, size_t len,
                        size_t first, size_t end, void *rec)
{
    unsigned char *bytes = rec;
    size_t map_bytes = (c->nwords + 7u) / 8u;
    memset(rec, 0, 8u * c->nwords);
    if (len < map_bytes)
        return -1;
    size_t pos = map_bytes;
    for (size_t m = 0; m < map_bytes && 8u * m < end; m++) {
        for (unsigned bits = in[m]; bits != 0; bits &= bits - 1u) {
            size_t w = 8u * m + (size_t)__builtin_ctz(bits);
            if (w >= c->nwords)
                goto bad; /* a bit past the last word is not ours */
            if (w >= end)
                break;
            if (w < first) {
                if (skip_word(c, w, in, len, &pos) != 0)
                    goto bad;
                continue;
            }
            uint64_t word;
            if (get_word(c, w, in, len, &pos, &word) != 0)
                goto bad;
            memcpy(bytes + 8u * w, &word, sizeof word);
        }
    }
    /* Bytes past the last number: not ours either. */
    if (end == c->nwords && pos != len)
        goto bad;
    return 0;
bad:
    memset(rec, 0, 8u * c->nwords);
    return -1;
}

int iolens_park_decode(const struct iolens_park_codec *c, const uint8_t *in, size_t len,
                       void *rec)
{
    return decode_range(c, in, len, 0, c->nwords, rec);
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

/* Grains a blob new from the budget has beyond its packed form.  A
 * record parked again has mostly grown since it was unparked (an open, a
 * stat or a write more: a few more nonzero words), and the blob freed
 * then serves only forms no larger than it.  Without room to grow, each
 * pass of a program over more files than the budget keeps live took new
 * blobs while the freed ones, a grain too small, waited: once the budget
 * was full the revisited files were folded whole, and more of them at a
 * larger budget than at a smaller one (prog_churn with 12,000 files
 * opened twice and stat'ed: 82 % folded at 5.5 MB, 15 % at 4 MB; none
 * from 5.5 MB up with the grain).  With it, a form that grew by up to 16
 * bytes takes a blob of the class its old one was freed to. */
#define GROWTH_GRAINS 1u

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
    /* Uncounted: the layer's demand function gives the blobs' part of
     * "memory needed" (park_pool.h).  The last bytes of a full budget
     * still take a form without its room to grow. */
    if (size_class + GROWTH_GRAINS < IOLENS_PARK_CLASSES) {
        void *roomy = iolens_budget_alloc_uncounted((size_t)(size_class + GROWTH_GRAINS) *
                                                    BLOB_GRAIN);
        if (roomy != NULL) {
            *got = size_class + GROWTH_GRAINS;
            return roomy;
        }
    }
    *got = size_class;
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

/* The packed form of a blob and its length; NULL if its head is damaged. */
static const uint8_t *packed_of(const void *blob, size_t *len)
{
    struct blob_head head;
    memcpy(&head, blob, sizeof head);
    if (head.size_class == 0 || head.size_class >= IOLENS_PARK_CLASSES ||
        class_of(head.len) > head.size_class)
        return NULL;
    *len = head.len;
    return (const uint8_t *)blob + sizeof head;
}

int iolens_park_peek_record(const struct iolens_park_codec *c, const void *blob, void *rec)
{
    return iolens_park_peek_part(c, blob, 0, c->nwords, rec);
}

int iolens_park_peek_part(const struct iolens_park_codec *c, const void *blob, size_t first,
                          size_t count, void *rec)
{
    size_t len;
    const uint8_t *packed = packed_of(blob, &len);
    if (packed == NULL) {
        memset(rec, 0, 8u * c->nwords);
        return -1;
    }
    size_t end = first < c->nwords && count < c->nwords - first ? first + count : c->nwords;
    return decode_range(c, packed, len, first, end, rec);
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
