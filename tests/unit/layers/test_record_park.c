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

static uint64_t word_of(double d)
{
    uint64_t w;
    memcpy(&w, &d, sizeof w);
    return w;
}

/* The bytes the format says: a bitmap of 14 bytes, then 1 byte for each
 * of small numbers 1 and -1 (zigzag 2 and 1), 2 for 4096, 10 for the top
 * bit alone; a double that is not a whole number of at most 53 bits 9
 * (the number 1, then its 8 bytes), a whole one as its number zigzagged
 * and shifted once: 1.0 is 4, one byte, and 2.6e9 (a second of a
 * 2.6 GHz counter) 5 bytes. */
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
    w[10] = 1;                       /* a double's word: 4.9e-324, 9 bytes */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 27);
    ck_assert_uint_eq(packed[18], 1);
    ck_assert_uint_eq(packed[19], 1);
    w[3] = (uint64_t)INT64_MIN;      /* zigzag: all ones, 10 bytes */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 37);
    ck_assert_uint_eq(packed[0], 0x0f);
    ck_assert_uint_eq(packed[1], 0x04);
    w[11] = word_of(1.0);            /* zigzag 2, shifted: 4 */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 38);
    ck_assert_uint_eq(packed[37], 4);
    w[12] = word_of(-1.0);           /* zigzag 1, shifted: 2 */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 39);
    ck_assert_uint_eq(packed[38], 2);
    w[13] = word_of(2.6e9);          /* 5.2e9 << 1 < 2^35: 5 bytes */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 44);
    w[14] = word_of(0.5);            /* not whole: 9 bytes */
    w[15] = word_of(-0.0);           /* whole, but not the bits of 0: 9 */
    w[16] = word_of(9007199254740992.0);  /* 2^53: 2^55 after, 8 bytes */
    w[17] = word_of(9007199254740994.0);  /* past 2^53: 9 */
    ck_assert_uint_eq(iolens_park_encode(&c, w, packed), 44 + 9 + 9 + 8 + 9);
    uint64_t back[NWORDS];
    ck_assert_int_eq(iolens_park_decode(&c, packed, 44 + 35, back), 0);
    ck_assert_int_eq(memcmp(w, back, sizeof w), 0);
}
END_TEST

/* Doubles of every kind come back bit for bit: whole numbers either side
 * of 2^53, fractions, both zeros' neighbours, infinities, NaNs with
 * payloads, denormals, and the times the runtime keeps. */
START_TEST(doubles_round_trip_bit_for_bit)
{
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    const double values[] = {1.0, -1.0, 3.0, 2.6e9, 1.5e12, -7.0, 0.5, -0.0, 1e300, -1e-300,
                             9007199254740991.0, 9007199254740992.0, 9007199254740994.0,
                             -9007199254740992.0, -9007199254740994.0, 1.0 / 0.0, -1.0 / 0.0,
                             4.9e-324, 123456789.25, 18446744073709551616.0};
    const uint64_t nans[] = {0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000001ull};
    uint8_t packed[IOLENS_PARK_MAX_BYTES(NWORDS)];
    uint64_t in[NWORDS] = {0}, out[NWORDS];
    size_t nvalues = sizeof values / sizeof values[0], n = 0;
    for (unsigned w = 10; w <= 22; w++, n++)
        in[w] = n < nvalues ? word_of(values[n]) : nans[(n - nvalues) % 3];
    for (size_t shift = 0; shift < nvalues; shift++) {
        in[100] = word_of(values[shift]);
        size_t len = iolens_park_encode(&c, in, packed);
        ck_assert_uint_le(len, IOLENS_PARK_MAX_BYTES(NWORDS));
        ck_assert_int_eq(iolens_park_decode(&c, packed, len, out), 0);
        ck_assert_int_eq(memcmp(in, out, sizeof in), 0);
    }
    for (int t = 0; t < 2000; t++) {      /* random whole numbers of clock units */
        uint64_t r = next_random();
        in[10 + t % 13] = word_of((double)(int64_t)(r >> (11 + r % 40)));
        size_t len = iolens_park_encode(&c, in, packed);
        ck_assert_int_eq(iolens_park_decode(&c, packed, len, out), 0);
        ck_assert_int_eq(memcmp(in, out, sizeof in), 0);
    }
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
    /* A double's word (word 10 of a record with only it) packed in a way
     * no double is: the tag 1 with more bits, a whole number past 2^53,
     * the whole number 0 (+0.0 is a zero word, never packed). */
    uint8_t one_double[14 + 9] = {0};
    one_double[1] = 0x04;                 /* word 10 */
    one_double[14] = 3;
    ck_assert_int_eq(iolens_park_decode(&c, one_double, 15, out), -1);
    one_double[14] = 0;
    ck_assert_int_eq(iolens_park_decode(&c, one_double, 15, out), -1);
    one_double[14] = 4;                   /* 1.0: the form is sound */
    ck_assert_int_eq(iolens_park_decode(&c, one_double, 15, out), 0);
    ck_assert_uint_eq(out[10], word_of(1.0));
    /* 2^53 + 1 zigzagged (2^54 + 2) and shifted: 2^55 + 4, 8 bytes. */
    uint64_t v = (UINT64_C(1) << 55) + 4;
    size_t at = 14;
    while (v >= 0x80u) {
        one_double[at++] = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    one_double[at++] = (uint8_t)v;
    ck_assert_int_eq(iolens_park_decode(&c, one_double, at, out), -1);
    one_double[14] = 1;                   /* the tag 1 with 7 bytes, not 8 */
    ck_assert_int_eq(iolens_park_decode(&c, one_double, 14 + 8, out), -1);
    ck_assert_int_eq(iolens_park_decode(&c, one_double, 14 + 9, out), 0);
    /* A number of more than 10 bytes. */
    uint8_t longnum[14 + 11];
    memset(longnum, 0, sizeof longnum);
    longnum[0] = 1;
    memset(longnum + 14, 0x80, 10);
    longnum[24] = 0;
    ck_assert_int_eq(iolens_park_decode(&c, longnum, sizeof longnum, out), -1);
}
END_TEST

/* Blobs: from the budget in grains of 16 bytes and one grain more for
 * the form to grow, freed ones reused by size (or by a record up to 4
 * grains smaller, whole), the form grown by a grain in the blob its old
 * one was freed to, in place repacks only when they fit, and a damaged
 * blob refused. */
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
    in[20] = 0x4005bf0a8b145769ull; /* e */
    void *a = iolens_park_store_record(&s, &c, in);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq((uintptr_t)a % 16u, 0);
    ck_assert_uint_eq(s.blobs, 1);
    ck_assert_uint_eq(s.blob_bytes, 64); /* 4 + 14 + 1 + 9 + 9 = 37 bytes, and a grain */
    ck_assert_int_eq(iolens_park_peek_record(&c, a, out), 0);
    ck_assert_int_eq(memcmp(in, out, sizeof in), 0);
    /* Freed, a serves the next record of its size. */
    iolens_park_free_blob(&s, a);
    ck_assert_uint_eq(s.blobs, 0);
    ck_assert_uint_eq(s.blob_bytes, 0);
    ck_assert_ptr_eq(iolens_park_store_record(&s, &c, in), a);
    /* And the same record grown by two doubles (55 bytes, 4 grains):
     * before blobs had room to grow, it took a new one. */
    iolens_park_free_blob(&s, a);
    uint64_t grown_by_two[NWORDS];
    memcpy(grown_by_two, in, sizeof in);
    grown_by_two[11] = 0x3fb999999999999aull; /* 0.1 */
    grown_by_two[12] = 0x3fc999999999999aull; /* 0.2 */
    ck_assert_ptr_eq(iolens_park_store_record(&s, &c, grown_by_two), a);
    ck_assert_uint_eq(s.blob_bytes, 64);
    ck_assert_int_eq(iolens_park_peek_record(&c, a, out), 0);
    ck_assert_int_eq(memcmp(grown_by_two, out, sizeof out), 0);
    /* And a smaller one's (2 grains: 19 bytes), whole. */
    iolens_park_free_blob(&s, a);
    uint64_t small[NWORDS] = {0};
    small[0] = 1;
    ck_assert_ptr_eq(iolens_park_store_record(&s, &c, small), a);
    ck_assert_uint_eq(s.blob_bytes, 64);
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

/* A part of a parked record (its call sites, for the log): exactly the
 * words asked for, whatever lies before them (numbers, doubles with their
 * 8 bytes), every other word zero; a damaged blob gives -1 and zeros. */
START_TEST(parts_are_exact)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    struct iolens_park_codec c;
    codec_with_doubles(&c);
    struct iolens_park_store s;
    memset(&s, 0, sizeof s);
    for (int t = 0; t < 200; t++) {
        uint64_t in[NWORDS], out[NWORDS];
        random_record(in);
        in[11] = 0x3ff8000000000000ull; /* 1.5: a double packed with its 8 bytes */
        void *blob = iolens_park_store_record(&s, &c, in);
        ck_assert_ptr_nonnull(blob);
        size_t first = (size_t)(next_random() % NWORDS);
        size_t count = 1 + (size_t)(next_random() % 6);
        memset(out, 0xa5, sizeof out);
        ck_assert_int_eq(iolens_park_peek_part(&c, blob, first, count, out), 0);
        for (size_t w = 0; w < NWORDS; w++)
            ck_assert_uint_eq(out[w], w >= first && w < first + count ? in[w] : 0);
        iolens_park_free_blob(&s, blob);
    }
    /* The whole record through a part that reaches its end. */
    uint64_t in[NWORDS], out[NWORDS];
    random_record(in);
    void *blob = iolens_park_store_record(&s, &c, in);
    ck_assert_ptr_nonnull(blob);
    ck_assert_int_eq(iolens_park_peek_part(&c, blob, 0, NWORDS + 5, out), 0);
    ck_assert_int_eq(memcmp(in, out, sizeof in), 0);
    /* A damaged head. */
    unsigned char saved = ((unsigned char *)blob)[2];
    ((unsigned char *)blob)[2] = 0; /* size class 0 */
    memset(out, 0xa5, sizeof out);
    ck_assert_int_eq(iolens_park_peek_part(&c, blob, 100, 3, out), -1);
    for (size_t w = 0; w < NWORDS; w++)
        ck_assert_uint_eq(out[w], 0);
    ((unsigned char *)blob)[2] = saved;
    ck_assert_int_eq(iolens_park_peek_part(&c, blob, 100, 3, out), 0);
    iolens_budget_fini();
}
END_TEST

/* A full budget: the blob is refused, nothing else changes; the last
 * bytes take a form without its grain of room. */
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
    tcase_add_test(tc, doubles_round_trip_bit_for_bit);
    tcase_add_test(tc, damaged_forms_are_refused);
    tcase_add_test(tc, blobs_are_reused_by_size);
    tcase_add_test(tc, no_room_no_blob);
    tcase_add_test(tc, parts_are_exact);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
