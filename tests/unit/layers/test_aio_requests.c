/* The table of asynchronous requests in flight (layers/aio_requests.h):
 * every note is found again, once, whatever the order of takes (deletion
 * shifts entries back, which a wrong wrap-around test breaks), its room
 * ends at three quarters, and a budget too small refuses it. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/budget.h"
#include "layers/aio_requests.h"

#define ROOM (IOLENS_AIO_SLOTS / 4 * 3)

/* Control blocks far apart, as struct aiocb arrays are, and some that
 * share their home slot: the hash folds bits 4 and up. */
static char blocks[ROOM + 8][160];

static struct iolens_aio_request req_of(int i)
{
    struct iolens_aio_request r = {.t0 = i + 0.5, .site = (uintptr_t)i * 3, .is_write = i & 1};
    return r;
}

static void check_take(int i)
{
    struct iolens_aio_request got;
    ck_assert_int_eq(iolens_aio_take(blocks[i], &got), 1);
    ck_assert(got.t0 == i + 0.5);
    ck_assert_uint_eq(got.site, (uintptr_t)i * 3);
    ck_assert_int_eq(got.is_write, i & 1);
    ck_assert_int_eq(iolens_aio_take(blocks[i], &got), 0); /* once only */
}

START_TEST(notes_come_back_once_in_any_order)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    for (int i = 0; i < ROOM; i++) {
        struct iolens_aio_request r = req_of(i);
        ck_assert_int_eq(iolens_aio_note(blocks[i], &r), 0);
    }
    /* Full: a new block is refused, a noted one is noted afresh. */
    struct iolens_aio_request r = req_of(ROOM);
    ck_assert_int_eq(iolens_aio_note(blocks[ROOM], &r), -1);
    r = req_of(7);
    ck_assert_int_eq(iolens_aio_note(blocks[7], &r), 0);
    /* Every other one, then the rest backwards: each removal shifts the
     * entries after it, and every later one must still be found. */
    for (int i = 0; i < ROOM; i += 2)
        check_take(i);
    for (int i = ROOM - 1; i >= 1; i -= 2)
        check_take(i);
    struct iolens_aio_request got;
    ck_assert_int_eq(iolens_aio_take(blocks[ROOM], &got), 0);
    /* Room again once they are taken. */
    r = req_of(ROOM);
    ck_assert_int_eq(iolens_aio_note(blocks[ROOM], &r), 0);
    check_take(ROOM);
    iolens_aio_reset();
    iolens_budget_fini();
}
END_TEST

START_TEST(reset_forgets_every_note)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    for (int i = 0; i < 10; i++) {
        struct iolens_aio_request r = req_of(i);
        ck_assert_int_eq(iolens_aio_note(blocks[i], &r), 0);
    }
    iolens_aio_reset();
    struct iolens_aio_request got;
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(iolens_aio_take(blocks[i], &got), 0);
    iolens_budget_fini();
}
END_TEST

START_TEST(no_budget_no_note)
{
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    struct iolens_aio_request r = req_of(1), got;
    ck_assert_int_eq(iolens_aio_note(blocks[1], &r), -1);
    ck_assert_int_eq(iolens_aio_take(blocks[1], &got), 0);
    iolens_budget_fini();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("aio_requests");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, notes_come_back_once_in_any_order);
    tcase_add_test(tc, reset_forgets_every_note);
    tcase_add_test(tc, no_budget_no_note);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
