/* The JSON writer (util/report/json_out.c): escaping of every kind of byte
 * sequence a file name can hold, numbers, and the structure's commas.
 * Each case compares the exact bytes written. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_out.h"

/* Output of one string value of len bytes; *exact gets the return. */
static char *string_json(const char *s, size_t len, bool *exact)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    struct iolens_json j;
    iolens_json_init(&j, f);
    bool e = iolens_json_string(&j, s, len);
    if (exact != NULL)
        *exact = e;
    fclose(f);
    return buf;
}

static void check_string(const char *in, size_t len, const char *want, bool want_exact)
{
    bool exact;
    char *got = string_json(in, len, &exact);
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(exact, want_exact);
    free(got);
}

#define CHECK(lit, want, exact) check_string(lit, sizeof lit - 1, want, exact)

START_TEST(plain_and_quotes)
{
    CHECK("", "\"\"", true);
    CHECK("/scratch/a b.dat", "\"/scratch/a b.dat\"", true);
    CHECK("say \"hi\"", "\"say \\\"hi\\\"\"", true);
    CHECK("C:\\dir\\f", "\"C:\\\\dir\\\\f\"", true);
    CHECK("a/b", "\"a/b\"", true); /* '/' needs no escape */
}
END_TEST

START_TEST(control_characters)
{
    CHECK("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"", true);
    CHECK("\x01\x1f", "\"\\u0001\\u001f\"", true);
    CHECK("\x7f", "\"\\u007f\"", true);
    CHECK("x\x1by", "\"x\\u001by\"", true);
    /* an embedded NUL (len given) is escaped too */
    CHECK("a\0b", "\"a\\u0000b\"", true);
}
END_TEST

START_TEST(valid_multibyte)
{
    CHECK("caf\xc3\xa9", "\"caf\xc3\xa9\"", true);                  /* 2 bytes */
    CHECK("\xe2\x82\xac", "\"\xe2\x82\xac\"", true);                 /* U+20AC, 3 bytes */
    CHECK("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", true);         /* U+1F600, 4 bytes */
    CHECK("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"", true);         /* U+10FFFF, the last */
    CHECK("\xed\x9f\xbf", "\"\xed\x9f\xbf\"", true);                 /* U+D7FF, before surrogates */
    CHECK("\xee\x80\x80", "\"\xee\x80\x80\"", true);                 /* U+E000, after them */
    CHECK("\xe2\x80\xa8", "\"\xe2\x80\xa8\"", true);                 /* U+2028 is valid JSON */
}
END_TEST

#define FFFD "\xef\xbf\xbd"

START_TEST(invalid_bytes)
{
    CHECK("\xff", "\"" FFFD "\"", false);
    CHECK("a\xfe" "b", "\"a" FFFD "b\"", false);
    CHECK("\x80", "\"" FFFD "\"", false);                 /* stray continuation */
    CHECK("\xc3", "\"" FFFD "\"", false);                 /* truncated at the end */
    CHECK("\xc3(", "\"" FFFD "(\"", false);               /* truncated before ASCII */
    CHECK("\xe2\x82", "\"" FFFD FFFD "\"", false);        /* each byte of a broken sequence */
    CHECK("\xf5\x80\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"", false); /* F5: never valid */
    /* a quote after an invalid byte is still escaped */
    CHECK("\xff\"", "\"" FFFD "\\\"\"", false);
}
END_TEST

START_TEST(overlong_forms)
{
    CHECK("\xc0\xaf", "\"" FFFD FFFD "\"", false);             /* '/' in 2 bytes */
    CHECK("\xc1\xbf", "\"" FFFD FFFD "\"", false);
    CHECK("\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"", false);    /* '/' in 3 bytes */
    CHECK("\xe0\x9f\xbf", "\"" FFFD FFFD FFFD "\"", false);    /* U+07FF in 3 bytes */
    CHECK("\xf0\x80\x80\xaf", "\"" FFFD FFFD FFFD FFFD "\"", false);
    CHECK("\xf0\x8f\xbf\xbf", "\"" FFFD FFFD FFFD FFFD "\"", false); /* U+FFFF in 4 */
    CHECK("\xc0\x80", "\"" FFFD FFFD "\"", false);             /* "modified UTF-8" NUL */
}
END_TEST

START_TEST(surrogates_and_beyond)
{
    CHECK("\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"", false);    /* U+D800 */
    CHECK("\xed\xbf\xbf", "\"" FFFD FFFD FFFD "\"", false);    /* U+DFFF */
    /* CESU-8 pair for U+1F600 */
    CHECK("\xed\xa0\xbd\xed\xb8\x80", "\"" FFFD FFFD FFFD FFFD FFFD FFFD "\"", false);
    CHECK("\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"", false); /* U+110000 */
    /* a 4-byte sequence cut short by ASCII */
    CHECK("\xf0\x9f\x98!", "\"" FFFD FFFD FFFD "!\"", false);
}
END_TEST

START_TEST(utf8_valid_agrees)
{
    ck_assert(iolens_utf8_valid("abc\xc3\xa9", 5));
    ck_assert(!iolens_utf8_valid("abc\xc3", 4));
    ck_assert(!iolens_utf8_valid("\xed\xa0\x80", 3));
    ck_assert(iolens_utf8_valid("", 0));
}
END_TEST

static char *capture_hex(const char *s, size_t len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    iolens_put_hex(f, s, len);
    fclose(f);
    return buf;
}

START_TEST(hex_of_bytes)
{
    char *h = capture_hex("/a\xff\x00\n", 5);
    ck_assert_str_eq(h, "2f61ff000a");
    free(h);
}
END_TEST

static void check_double(double v, const char *want)
{
    char buf[32];
    iolens_json_format_double(v, buf, sizeof buf);
    ck_assert_str_eq(buf, want);
}

START_TEST(numbers)
{
    check_double(0.0, "0");
    check_double(-0.0, "0");
    check_double(1.5, "1.5");
    check_double(0.1, "0.1");
    check_double(1.0 / 3.0, "0.33333333333333331"); /* needs 17 digits */
    check_double(1e300, "1e+300");
    check_double(-2.5e-7, "-2.5e-07");
    check_double(NAN, "null");
    check_double(INFINITY, "null");
    check_double(-INFINITY, "null");
    /* every finite double written reads back exactly */
    double samples[] = {3.5, 0.059326171875, 19399518.75, 1.0 / 7.0, 6.02214076e23, 5e-324};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char buf[32];
        iolens_json_format_double(samples[i], buf, sizeof buf);
        ck_assert(strtod(buf, NULL) == samples[i]);
    }
}
END_TEST

START_TEST(structure)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    struct iolens_json j;
    iolens_json_init(&j, f);
    iolens_json_begin_object(&j);
    iolens_json_key(&j, "a");
    iolens_json_int(&j, -9223372036854775807LL - 1);
    iolens_json_key(&j, "b");
    iolens_json_begin_array(&j);
    iolens_json_uint(&j, 18446744073709551615ULL);
    iolens_json_double(&j, NAN);
    iolens_json_bool(&j, true);
    iolens_json_bool(&j, false);
    iolens_json_null(&j);
    iolens_json_begin_object(&j);
    iolens_json_end_object(&j);
    iolens_json_begin_array(&j);
    iolens_json_end_array(&j);
    iolens_json_end_array(&j);
    iolens_json_key(&j, "k\"\n");
    iolens_json_cstring(&j, "v");
    iolens_json_key(&j, "h");
    iolens_json_hex_string(&j, "\xff\x01", 2);
    iolens_json_key(&j, "z");
    iolens_json_int(&j, 0);
    iolens_json_end_object(&j);
    fclose(f);
    ck_assert_str_eq(buf, "{\"a\":-9223372036854775808,\"b\":[18446744073709551615,null,true,"
                          "false,null,{},[]],\"k\\\"\\n\":\"v\",\"h\":\"ff01\",\"z\":0}");
    free(buf);
}
END_TEST

START_TEST(display_form)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    iolens_utf8_put_display(f, "a\xff\n\xc3\xa9", 5);
    fclose(f);
    /* invalid bytes replaced, nothing escaped */
    ck_assert_str_eq(buf, "a" FFFD "\n\xc3\xa9");
    free(buf);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json_out");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, plain_and_quotes);
    tcase_add_test(tc, control_characters);
    tcase_add_test(tc, valid_multibyte);
    tcase_add_test(tc, invalid_bytes);
    tcase_add_test(tc, overlong_forms);
    tcase_add_test(tc, surrogates_and_beyond);
    tcase_add_test(tc, utf8_valid_agrees);
    tcase_add_test(tc, hex_of_bytes);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, structure);
    tcase_add_test(tc, display_form);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(json_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
