/* Parked records: a layer record nobody has open, kept as its nonzero
 * 8-byte words only, so that a file at rest costs a fraction of a live
 * record.  Parking is exact: unparking gives back the record byte for
 * byte (its lock word aside), so the counters and the log never see it.
 *
 * The packed form: a bitmap of the record's nonzero words (one bit each,
 * ceil(nwords / 8) bytes), then each nonzero word in order, as a zigzag
 * LEB128 number (1 to 10 bytes: counts, sizes, offsets, pointers) or, for
 * a double, as the whole number it holds, zigzagged, shifted left once
 * and LEB128 (the times the runtime keeps are whole clock units: 1 to 8
 * bytes), else as the number 1 and its 8 bytes.  Which words are doubles
 * is the layer's to say (iolens_park_mark_raw).
 *
 * The packed forms live in blobs taken from the budget in steps of 16
 * bytes.  The blob of a record unparked is freed, kept for the next blob
 * of its size class or of one of the 4 below it.  Live records the parking frees go back to the
 * layer, never to the blobs, so that memory once a record stays one
 * (a thread holding a stale pointer only ever meets a record).
 *
 * None of this is on the read/write path: a layer parks when it needs a
 * record and has none, and unparks at an open, stat, unlink or rename of
 * a parked file.  The caller serializes a store's calls (one lock). */
#ifndef IOLENS_RECORD_PARK_H
#define IOLENS_RECORD_PARK_H

#include <stddef.h>
#include <stdint.h>

#define IOLENS_PARK_MAX_WORDS 128u
/* Bytes the packed form of nwords words can take at most. */
#define IOLENS_PARK_MAX_BYTES(nwords) ((nwords + 7u) / 8u + 10u * (nwords))

struct iolens_park_codec {
    size_t nwords;                                   /* record bytes / 8 */
    uint64_t raw[IOLENS_PARK_MAX_WORDS / 64u];       /* bit i: word i is a double */
};

/* A codec for records of rec_bytes bytes (a multiple of 8, at most
 * IOLENS_PARK_MAX_WORDS words): every word a number until marked raw. */
void iolens_park_codec_init(struct iolens_park_codec *c, size_t rec_bytes);
/* Marks the words of [offset, offset + bytes) as doubles. */
void iolens_park_mark_raw(struct iolens_park_codec *c, size_t offset, size_t bytes);

/* Packs rec into out (IOLENS_PARK_MAX_BYTES(c->nwords) bytes); returns
 * the bytes written. */
size_t iolens_park_encode(const struct iolens_park_codec *c, const void *rec, uint8_t *out);
/* Unpacks len bytes into rec (c->nwords words, every one written).
 * Returns 0, or -1 if in is not a packed form of this codec's records
 * (truncated, a number too long, or bytes left over). */
int iolens_park_decode(const struct iolens_park_codec *c, const uint8_t *in, size_t len,
                       void *rec);

/* Where the blobs come from.  All zero is an empty store. */
#define IOLENS_PARK_CLASSES 64u         /* size classes of 16 bytes: up to 1 KiB */
struct iolens_park_store {
    void *free_blobs[IOLENS_PARK_CLASSES];
    uint64_t blobs, blob_bytes;         /* parked now: blobs, their bytes */
};

/* Parks: packs rec into a blob and returns it (NULL when the budget has
 * no room for it). */
void *iolens_park_store_record(struct iolens_park_store *s, const struct iolens_park_codec *c,
                               const void *rec);
/* Unpacks blob into rec, the blob unchanged.  Returns 0, or -1 if the
 * blob is damaged (rec is then zero). */
int iolens_park_peek_record(const struct iolens_park_codec *c, const void *blob, void *rec);
/* Unpacks only words [first, first + count) of blob into rec (first below
 * the record's words), the others zero: the log's writer reads a parked
 * record's call sites so, after its counters.  Returns 0, or -1 if what
 * it read of the blob is damaged (rec is then zero). */
int iolens_park_peek_part(const struct iolens_park_codec *c, const void *blob, size_t first,
                          size_t count, void *rec);
/* Frees a blob for later ones. */
void iolens_park_free_blob(struct iolens_park_store *s, void *blob);
/* Packs rec again into blob, in place: rec may only have lost words or
 * got smaller numbers since blob was packed (a fork clearing it).
 * Returns 0, or -1 if it no longer fits (blob unchanged). */
int iolens_park_repack_record(const struct iolens_park_codec *c, void *blob, const void *rec);

/* A slot of a layer record table (file->layer_rec) holds a parked
 * record's blob with this bit set, or IOLENS_REFUSED_SLOT for a file
 * whose first record the budget refused: the file stays folded into
 * <other files> in that layer, as it did before records could be parked
 * (memory parking frees later must not split its counts). */
#define IOLENS_PARKED_BIT ((uintptr_t)1)
#define IOLENS_REFUSED_SLOT ((void *)(uintptr_t)2)
static inline int iolens_is_parked(const void *slot_value)
{
    return ((uintptr_t)slot_value & IOLENS_PARKED_BIT) != 0;
}
/* A slot holding a live record. */
static inline int iolens_slot_is_live(const void *slot_value)
{
    return slot_value != NULL && ((uintptr_t)slot_value & 3u) == 0;
}
static inline void *iolens_parked_blob(const void *slot_value)
{
    return (void *)((uintptr_t)slot_value & ~IOLENS_PARKED_BIT);
}
static inline void *iolens_parked_slot_value(void *blob)
{
    return (void *)((uintptr_t)blob | IOLENS_PARKED_BIT);
}

#endif
