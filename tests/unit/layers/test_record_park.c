/* The packed form of a parked record and its blobs (layers/record_park.h):
 * exact round trips against the record's bytes, the sizes the format
 * promises, and every way a packed form can be damaged. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "layers/record_park.h"

#define NWORDS 111u   /* as a POSIX record: not a multiple of 8 words */

static uint64_t rng = 88172645463325252ull;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void codec_with_doubles(struct iolens_park_codec *c)
{
    iolens_park_codec_init(c, NWORDS * 8u);
    iolens_park_mark_raw(c, 8 * 10, 8 * 13);   /* words 10..22 */
    iolens_park_mark_raw(c, 8 * 100, 8);       /* word 100 */
}

/* A record like a live one: most words zero, small counts, some large
 * numbers, negative ones, pointers and doubles. */
static void random_record(uint64_t *w)
{
    memset(w, 0, NWORDS * 8u);
    for (unsigned i = 0; i < NWORDS; i++) {
        uint64_t r = next_random();
        switch (r % 8) {
        case 0: w[i] = r >> 60; break;                       /* a small count */
        case 1: w[i] = (uint64_t)-(int64_t)(r >> 58); break; /* small negative */
        case 2: w[i] = r; break;                             /* any 64 bits */
        case 3: w[i] = UINT64_MAX; break;
        case 4: w[i] = (uint64_t)INT64_MIN; break;
        default: break;                                      /* zero */
        }
    }
}

START_TEST(round_trip_is_exact)
{
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    uint8_t packed[IOLENS_PARK_MAX_BYTES(NWORDS)];
    for (int t = 0; t < 2000; t++) {
        uint64_t in[NWORDS], out[NWORDS];
        random_record(in);
        size_t len = iolens_park_encode(&c, in, packed);
        ck_assert_uint_le(len, IOLENS_PARK_MAX_BYTES(NWORDS));
        memset(out, 0xa5, sizeof out);
        ck_assert_int_eq(iolens_park_decode(&c, packed, len, out), 0);
        ck_assert_int_eq(memcmp(in, out, sizeof in), 0);
    }
}
END_TEST

/* The bytes the format says: a bitmap of 14 bytes, then 1 byte for each
 * of small numbers 1 and -1 (zigzag 2 and 1), 2 for 4096, 8 for a double
 * whatever its value, 10 for the top bit alone. */
START_TEST(sizes_follow_the_format)
{
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    uint8_t packed[IOLENS_PARK_MAX_BYTES(NWORDS)];
    uint64_t w[NWORDS] = {0};
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 14);
    w[0] = 1;
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 15);
    ck_assert_uint_eq(packed[14], 2);
    w[1] = (uint64_t)-1;
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 16);
    ck_assert_uint_eq(packed[15], 1);
    w[2] = 4096;
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 18);
    w[10] = 1;                       /* a double's word: 8 bytes */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 26);
    w[3] = (uint64_t)INT64_MIN;      /* zigzag: all ones, 10 bytes */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 36);
    ck_assert_uint_eq(packed[0], 0x0f);
    ck_assert_uint_eq(packed[1], 0x04);
}
END_TEST

START_TEST(damaged_forms_are_refused)
{
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    uint8_t packed[IOLENS_PARK_MAX_BYTES(NWORDS) + 1];
    uint64_t in[NWORDS], out[NWORDS];
    random_record(in);
    in[5] = 300;   /* a two-byte number somewhere */
    size_t len = iolens_park_encode(&c, in, packed);
    /* Every truncation. */
    for (size_t cut = 0; cut < len; cut++) {
        ck_assert_int_eq(iolens_park_decode(&c, packed, cut, out), -1);
        for (unsigned i = 0; i < NWORDS; i++)
            ck_assert_uint_eq(out[i], 0);
    }
    /* A byte left over. */
    packed[len] = 0;
    ck_assert_int_eq(iolens_park_decode(&c, packed, len + 1, out), -1);
    /* A bit past the last word (111 words: bits 7 of byte 13). */
    uint8_t saved = packed[13];
    packed[13] |= 0x80;
    ck_assert_int_eq(iolens_park_decode(&c, packed, len, out), -1);
    packed[13] = saved;
    ck_assert_int_eq(iolens_park_decode(&c, packed, len, out), 0);
    /* A number of more than 10 bytes. */
    uint8_t longnum[14 + 11];
    memset(longnum, 0, sizeof longnum);
    longnum[0] = 1;
    memset(longnum + 14, 0x80, 10);
    longnum[24] = 0;
    ck_assert_int_eq(iolens_park_decode(&c, longnum, sizeof longnum, out), -1);
}
END_TEST

/* Blobs: from the budget in grains of 16 bytes, freed ones reused by
 * size (or by a record up to 4 grains smaller, whole), in place repacks
 * only when they fit, and a damaged blob refused. */
START_TEST(blobs_are_reused_by_size)
{
    ck_assert_int_eq(iolens_budget_init(1u << 20), 0);
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    struct iolens_park_store s;
    memset(&s, 0, sizeof s);
    uint64_t in[NWORDS] = {0}, out[NWORDS];
    in[0] = 7;
    in[10] = 0x400921fb54442d18ull; /* pi */
    in[20] = 0x3ff0000000000000ull; /* 1.0 */
    void *a = iolens_park_store_record(&s, &c, in);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq((uintptr_t)a % 16u, 0);
    ck_assert_uint_eq(s.blobs, 1);
    ck_assert_uint_eq(s.blob_bytes, 48); /* 4 + 14 + 1 + 8 + 8 = 35 bytes */
    ck_assert_int_eq(iolens_park_peek_record(&c, a, out), 0);
    ck_assert_int_eq(memcmp(in, out, sizeof in), 0);
    /* Freed, a serves the next record of its size. */
    iolens_park_free_blob(&s, a);
    ck_assert_uint_eq(s.blobs, 0);
    ck_assert_uint_eq(s.blob_bytes, 0);
    ck_assert_ptr_eq(iolens_park_store_record(&s, &c, in), a);
    /* And a smaller one's (1 grain: 19 bytes), whole. */
    iolens_park_free_blob(&s, a);
    uint64_t small[NWORDS] = {0};
    small[0] = 1;
    ck_assert_ptr_eq(iolens_park_store_record(&s, &c, small), a);
    ck_assert_uint_eq(s.blob_bytes, 48);
    ck_assert_int_eq(iolens_park_peek_record(&c, a, out), 0);
    ck_assert_int_eq(memcmp(small, out, sizeof out), 0);
    /* Not a larger one's: b is new. */
    void *b = iolens_park_store_record(&s, &c, in);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_ne(a, b);
    ck_assert_uint_eq(s.blobs, 2);
    /* Cleared words repack in place; a record that grew does not. */
    uint64_t cleared[NWORDS] = {0};
    cleared[10] = in[10];
    ck_assert_int_eq(iolens_park_repack_record(&c, b, cleared), 0);
    ck_assert_int_eq(iolens_park_peek_record(&c, b, out), 0);
    ck_assert_int_eq(memcmp(cleared, out, sizeof out), 0);
    uint64_t grown[NWORDS];
    memset(grown, 0xff, sizeof grown);
    ck_assert_int_eq(iolens_park_repack_record(&c, b, grown), -1);
    ck_assert_int_eq(iolens_park_peek_record(&c, b, out), 0);
    ck_assert_int_eq(memcmp(cleared, out, sizeof out), 0);
    /* A damaged header is refused and the record read as zero. */
    memset(b, 0xff, 4);
    ck_assert_int_eq(iolens_park_peek_record(&c, b, out), -1);
    for (unsigned i = 0; i < NWORDS; i++)
        ck_assert_uint_eq(out[i], 0);
    iolens_budget_fini();
}
END_TEST

/* A full budget: the blob is refused, nothing else changes. */
START_TEST(no_room_no_blob)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    ck_assert_ptr_nonnull(iolens_budget_alloc(4096 - 32));
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    struct iolens_park_store s;
    memset(&s, 0, sizeof s);
    uint64_t in[NWORDS];
    random_record(in);
    ck_assert_ptr_null(iolens_park_store_record(&s, &c, in));
    ck_assert_uint_eq(s.blobs, 0);
    uint64_t small[NWORDS] = {0};
    small[0] = 1;
    ck_assert_ptr_nonnull(iolens_park_store_record(&s, &c, small)); /* the last 32 bytes */
    ck_assert_uint_eq(s.blobs, 1);
    iolens_budget_fini();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("record_park");
    TCase *tc = tcase_create("park");
    tcase_add_test(tc, round_trip_is_exact);
    tcase_add_test(tc, sizes_follow_the_format);
    tcase_add_test(tc, damaged_forms_are_refused);
    tcase_add_test(tc, blobs_are_reused_by_size);
    tcase_add_test(tc, no_room_no_blob);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
