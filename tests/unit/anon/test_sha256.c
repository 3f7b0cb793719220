/* SHA-256 and HMAC-SHA256 (util/anon/sha256.c) against the FIPS 180-4 examples
 * and the RFC 4231 test vectors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anon/sha256.h"

static const char *hex(const unsigned char *d)
{
    static char out[2 * IOLENS_SHA256_SIZE + 1];
    for (int i = 0; i < IOLENS_SHA256_SIZE; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
    return out;
}

static const char *sha(const void *data, size_t len)
{
    struct iolens_sha256 s;
    unsigned char d[IOLENS_SHA256_SIZE];
    iolens_sha256_init(&s);
    iolens_sha256_update(&s, data, len);
    iolens_sha256_final(&s, d);
    return hex(d);
}

static const char *hmac(const void *key, size_t keylen, const void *msg, size_t len)
{
    unsigned char d[IOLENS_SHA256_SIZE];
    iolens_hmac_sha256(key, keylen, msg, len, "", 0, d);
    return hex(d);
}

START_TEST(fips_180_examples)
{
    ck_assert_str_eq(sha("abc", 3),
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ck_assert_str_eq(sha("", 0),
                     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ck_assert_str_eq(sha(two, strlen(two)),
                     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* A million 'a', fed in uneven pieces (block boundaries crossed). */
    struct iolens_sha256 s;
    unsigned char d[IOLENS_SHA256_SIZE], a[997];
    memset(a, 'a', sizeof a);
    iolens_sha256_init(&s);
    size_t left = 1000000;
    while (left > 0) {
        size_t n = left < sizeof a ? left : sizeof a;
        iolens_sha256_update(&s, a, n);
        left -= n;
    }
    iolens_sha256_final(&s, d);
    ck_assert_str_eq(hex(d), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(rfc_4231_vectors)
{
    unsigned char key[131];
    unsigned char data[50];
    memset(key, 0x0b, 20);
    ck_assert_str_eq(hmac(key, 20, "Hi There", 8),
                     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    const char *q = "what do ya want for nothing?";
    ck_assert_str_eq(hmac("Jefe", 4, q, strlen(q)),
                     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    memset(key, 0xaa, 20);
    memset(data, 0xdd, 50);
    ck_assert_str_eq(hmac(key, 20, data, 50),
                     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    for (int i = 0; i < 25; i++)
        key[i] = (unsigned char)(i + 1);
    memset(data, 0xcd, 50);
    ck_assert_str_eq(hmac(key, 25, data, 50),
                     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    memset(key, 0xaa, 131);
    const char *big = "Test Using Larger Than Block-Size Key - Hash Key First";
    ck_assert_str_eq(hmac(key, 131, big, strlen(big)),
                     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    const char *both = "This is a test using a larger than block-size key and a larger "
                       "than block-size data. The key needs to be hashed before being used "
                       "by the HMAC algorithm.";
    ck_assert_str_eq(hmac(key, 131, both, strlen(both)),
                     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}
END_TEST

START_TEST(two_part_message_is_the_concatenation)
{
    unsigned char whole[IOLENS_SHA256_SIZE], split[IOLENS_SHA256_SIZE];
    iolens_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, "", 0, whole);
    iolens_hmac_sha256("Jefe", 4, "what do ya", 10, " want for nothing?", 18, split);
    ck_assert_mem_eq(whole, split, sizeof whole);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sha256");
    TCase *tc = tcase_create("vectors");
    tcase_add_test(tc, fips_180_examples);
    tcase_add_test(tc, rfc_4231_vectors);
    tcase_add_test(tc, two_part_message_is_the_concatenation);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
