/* The byte-plane column codec (format/column_codec.c): exact bytes of the
 * layout log_format.h describes (byte b of value i at planes[b * n + i]),
 * written out by hand here, and round trips through the encoder and both
 * decoders, including the SSE2 path (16 values at a time) and its tail. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/column_codec.h"

START_TEST(bytes_of_two_values_by_hand)
{
    const uint64_t v[2] = {UINT64_C(0x0807060504030201), UINT64_C(0x1817161514131211)};
    /* Plane b holds byte b of value 0, then byte b of value 1. */
    const unsigned char want[16] = {0x01, 0x11, 0x02, 0x12, 0x03, 0x13, 0x04, 0x14,
                                    0x05, 0x15, 0x06, 0x16, 0x07, 0x17, 0x08, 0x18};
    unsigned char planes[16];
    memset(planes, 0xEE, sizeof planes);
    iolens_column_encode(v, 2, planes);
    ck_assert_mem_eq(planes, want, sizeof want);
    uint64_t back[2] = {0, 0};
    ck_assert_int_eq(iolens_column_decode(planes, sizeof planes, 2, back), 0);
    ck_assert_uint_eq(back[0], v[0]);
    ck_assert_uint_eq(back[1], v[1]);
}
END_TEST

START_TEST(zero_rows_take_no_bytes)
{
    ck_assert_uint_eq(iolens_column_bytes(0), 0);
    unsigned char planes[1] = {0xAB};
    iolens_column_encode(NULL, 0, planes);
    ck_assert_uint_eq(planes[0], 0xAB); /* nothing written */
    uint64_t canary = 42;
    ck_assert_int_eq(iolens_column_decode(planes, 0, 0, &canary), 0);
    ck_assert_uint_eq(canary, 42);
}
END_TEST

START_TEST(one_row_is_its_little_endian_bytes)
{
    const uint64_t v = UINT64_C(0x00000000DEADBEEF);
    const unsigned char want[8] = {0xEF, 0xBE, 0xAD, 0xDE, 0, 0, 0, 0};
    unsigned char planes[8];
    iolens_column_encode(&v, 1, planes);
    ck_assert_mem_eq(planes, want, sizeof want);
    uint64_t back = 0;
    ck_assert_int_eq(iolens_column_decode(planes, 8, 1, &back), 0);
    ck_assert_uint_eq(back, v);
}
END_TEST

START_TEST(max_values_and_negative_counters)
{
    /* UINT64_MAX, INT64_MIN and -1 as stored by the runtime (two's
     * complement), and 0 between them. */
    const uint64_t v[4] = {UINT64_MAX, (uint64_t)INT64_MIN, 0, (uint64_t)(int64_t)-1};
    unsigned char planes[32];
    iolens_column_encode(v, 4, planes);
    for (unsigned b = 0; b < 8; b++) {
        ck_assert_uint_eq(planes[b * 4 + 0], 0xFF);
        ck_assert_uint_eq(planes[b * 4 + 1], b == 7 ? 0x80 : 0x00);
        ck_assert_uint_eq(planes[b * 4 + 2], 0x00);
        ck_assert_uint_eq(planes[b * 4 + 3], 0xFF);
    }
    uint64_t back[4];
    ck_assert_int_eq(iolens_column_decode(planes, sizeof planes, 4, back), 0);
    ck_assert_mem_eq(back, v, sizeof v);
    ck_assert_int_eq((int64_t)back[1], INT64_MIN);
}
END_TEST

START_TEST(truncated_input_rejected)
{
    const uint64_t v[3] = {1, 2, 3};
    unsigned char planes[24];
    iolens_column_encode(v, 3, planes);
    uint64_t back[3] = {7, 7, 7};
    for (size_t len = 0; len < sizeof planes; len++) {
        ck_assert_int_eq(iolens_column_decode(planes, len, 3, back), -1);
        ck_assert_uint_eq(back[0], 7); /* untouched */
    }
    ck_assert_int_eq(iolens_column_decode(planes, sizeof planes, 3, back), 0);
    ck_assert_uint_eq(back[2], 3);
}
END_TEST

START_TEST(size_overflow_rejected)
{
    uint64_t n = (uint64_t)SIZE_MAX / 8 + 1;
    ck_assert_uint_eq(iolens_column_bytes(n), 0);
    unsigned char byte = 0;
    uint64_t out = 0;
    ck_assert_int_eq(iolens_column_decode(&byte, SIZE_MAX, n, &out), -1);
}
END_TEST

/* n values, each byte distinct in value and position, so that a byte
 * taken from the wrong plane or the wrong row shows. */
static uint64_t pattern(size_t i)
{
    uint64_t x = 0;
    for (unsigned b = 0; b < 8; b++)
        x |= (uint64_t)(unsigned char)(i * 8 + b * 37 + 1) << (8 * b);
    return x;
}

START_TEST(round_trip_lengths_around_the_vector_width)
{
    /* 15, 16 and 17 straddle the 16-value vector step; 1000 has a tail. */
    static const size_t lengths[] = {2, 15, 16, 17, 31, 33, 1000};
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        size_t n = lengths[k];
        uint64_t *v = malloc(n * sizeof *v), *back = malloc(n * sizeof *back);
        unsigned char *planes = malloc(iolens_column_bytes(n));
        ck_assert_ptr_nonnull(v);
        ck_assert_ptr_nonnull(back);
        ck_assert_ptr_nonnull(planes);
        for (size_t i = 0; i < n; i++)
            v[i] = pattern(i);
        iolens_column_encode(v, n, planes);
        for (size_t i = 0; i < n; i++)
            for (unsigned b = 0; b < 8; b++)
                ck_assert_uint_eq(planes[b * n + i], (unsigned char)(v[i] >> (8 * b)));
        ck_assert_int_eq(iolens_column_decode(planes, iolens_column_bytes(n), n, back), 0);
        ck_assert_mem_eq(back, v, n * sizeof *v);
        /* A block from the middle, as the streaming reader takes it. */
        size_t i0 = n / 3, m = n - n / 3 - 1;
        memset(back, 0, n * sizeof *back);
        iolens_column_decode_block(planes, n, i0, m, back);
        ck_assert_mem_eq(back, v + i0, m * sizeof *v);
        free(v);
        free(back);
        free(planes);
    }
}
END_TEST

/* Strided decoding puts value i0 + i at row i of a row-major table (here
 * 3 values a row, the column in the middle) and touches nothing else:
 * checked against the planes' bytes put together by hand. */
START_TEST(strided_decode_fills_one_field_of_each_row)
{
    static const size_t lengths[] = {1, 15, 16, 17, 33, 1000};
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        size_t n = lengths[k];
        uint64_t *v = malloc(n * sizeof *v), *rows = malloc(3 * n * sizeof *rows);
        unsigned char *planes = malloc(iolens_column_bytes(n));
        ck_assert_ptr_nonnull(v);
        ck_assert_ptr_nonnull(rows);
        ck_assert_ptr_nonnull(planes);
        for (size_t i = 0; i < n; i++)
            v[i] = pattern(i);
        iolens_column_encode(v, n, planes);
        size_t i0 = n / 4, m = n - i0;
        memset(rows, 0xee, 3 * n * sizeof *rows);
        iolens_column_decode_strided(planes, n, i0, m, rows + 1, 3 * sizeof *rows);
        for (size_t i = 0; i < m; i++) {
            uint64_t want = 0;
            for (unsigned b = 0; b < 8; b++)
                want |= (uint64_t)planes[b * n + i0 + i] << (8 * b);
            ck_assert_uint_eq(rows[3 * i + 1], want);
            ck_assert_uint_eq(rows[3 * i], 0xeeeeeeeeeeeeeeeeull);
            ck_assert_uint_eq(rows[3 * i + 2], 0xeeeeeeeeeeeeeeeeull);
        }
        for (size_t i = 3 * m; i < 3 * n; i++)
            ck_assert_uint_eq(rows[i], 0xeeeeeeeeeeeeeeeeull);
        free(v);
        free(rows);
        free(planes);
    }
}
END_TEST

static Suite *column_codec_suite(void)
{
    Suite *s = suite_create("column_codec");
    TCase *t = tcase_create("codec");
    tcase_add_test(t, bytes_of_two_values_by_hand);
    tcase_add_test(t, zero_rows_take_no_bytes);
    tcase_add_test(t, one_row_is_its_little_endian_bytes);
    tcase_add_test(t, max_values_and_negative_counters);
    tcase_add_test(t, truncated_input_rejected);
    tcase_add_test(t, size_overflow_rejected);
    tcase_add_test(t, round_trip_lengths_around_the_vector_width);
    tcase_add_test(t, strided_decode_fills_one_field_of_each_row);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(column_codec_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
