/* The stable sort by a 64-bit key (format/sort_u64.c) against a plain
 * stable insertion sort, for the item sizes the runtime sorts (ids;
 * id and place; place, id and index), lengths on both sides of the
 * short-array cut, keys that share their high bytes (places, times),
 * all-equal keys (stability), and the refusals. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/sort_u64.h"

/* An item of up to 4 words: the key in one of them, the item's original
 * position in another, so that the order of equal keys shows. */
struct item {
    uint64_t w[4];
};

static uint64_t rng_state;

static uint64_t next_random(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return rng_state ^ (rng_state >> 29);
}

enum key_kind { KEYS_RANDOM, KEYS_SMALL, KEYS_FEW, KEYS_EQUAL, KEYS_HIGH_SHARED };

static uint64_t make_key(enum key_kind kind)
{
    switch (kind) {
    case KEYS_RANDOM:
        return next_random();
    case KEYS_SMALL: /* places: the high bytes all 0 */
        return next_random() % 20000;
    case KEYS_FEW: /* many ties */
        return next_random() % 5 * UINT64_C(0x0101010101010101);
    case KEYS_EQUAL:
        return UINT64_MAX;
    default: /* times: one high part, the low 20 bits vary */
        return UINT64_C(0x17a3b00000000000) | (next_random() & 0xfffff);
    }
}

/* The reference: stable by construction. */
static void reference_sort(struct item *v, size_t n, unsigned key_word)
{
    for (size_t i = 1; i < n; i++) {
        struct item x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1].w[key_word] > x.w[key_word]) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* n items of words words, key in word key_word, the original position in
 * the last word (or, for one-word items, nothing: the key is the item). */
static void check_one(size_t n, unsigned words, unsigned key_word, enum key_kind kind)
{
    size_t size = words * sizeof(uint64_t);
    unsigned pos_word = key_word == words - 1 ? 0 : words - 1;
    struct item *want = calloc(n + 1, sizeof *want);
    unsigned char *got = malloc(n * size + 1);
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(got);
    for (size_t i = 0; i < n; i++) {
        for (unsigned w = 0; w < words; w++)
            want[i].w[w] = next_random();
        want[i].w[key_word] = make_key(kind);
        if (words > 1)
            want[i].w[pos_word] = i;
        memcpy(got + i * size, want[i].w, size);
    }
    ck_assert_int_eq(iolens_sort_by_u64(got, n, size, key_word * sizeof(uint64_t)), 0);
    reference_sort(want, n, key_word);
    for (size_t i = 0; i < n; i++)
        ck_assert_mem_eq(got + i * size, want[i].w, size);
    free(want);
    free(got);
}

START_TEST(matches_a_stable_sort)
{
    static const size_t lengths[] = {0, 1, 2, 31, 32, 33, 257, 5000};
    static const unsigned shapes[][2] = {{1, 0}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {4, 2}};
    rng_state = 42;
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int kind = KEYS_RANDOM; kind <= KEYS_HIGH_SHARED; kind++)
                check_one(lengths[l], shapes[s][0], shapes[s][1], (enum key_kind)kind);
}
END_TEST

/* Keys written by hand, every byte of them deciding somewhere, in an
 * array long enough for the radix passes. */
START_TEST(orders_keys_by_every_byte)
{
    enum { N = 64 };
    uint64_t v[N];
    for (unsigned i = 0; i < N; i++)
        v[i] = (uint64_t)(N - 1 - i) << (8 * (i % 8)) | (uint64_t)(i % 3);
    ck_assert_int_eq(iolens_sort_by_u64(v, N, sizeof v[0], 0), 0);
    for (unsigned i = 1; i < N; i++)
        ck_assert_uint_le(v[i - 1], v[i]);
    ck_assert_uint_eq(v[0], 0);
    ck_assert_uint_eq(v[N - 1], (uint64_t)(N - 1 - 7) << 56 | 7 % 3); /* i = 7 */
}
END_TEST

START_TEST(refuses_unsupported_shapes)
{
    uint64_t v[4] = {3, 2, 1, 0};
    ck_assert_int_eq(iolens_sort_by_u64(v, 4, 12, 0), -1);
    ck_assert_int_eq(iolens_sort_by_u64(v, 2, 16, 9), -1);
    ck_assert_int_eq(iolens_sort_by_u64(v, 1, 40, 0), -1);
    ck_assert_uint_eq(v[0], 3); /* untouched */
    ck_assert_uint_eq(v[3], 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sort_u64");
    TCase *tc = tcase_create("sort_u64");
    tcase_add_test(tc, matches_a_stable_sort);
    tcase_add_test(tc, orders_keys_by_every_byte);
    tcase_add_test(tc, refuses_unsupported_shapes);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
