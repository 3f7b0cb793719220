/* Per-descriptor state (lib/core/fd_table.c). */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/budget.h"
#include "core/fd_table.h"

/* Only the addresses matter to the fd table. */
static char file_a, file_b, rec_a, rec_b;
#define FILE_A ((struct iolens_file *)&file_a)
#define FILE_B ((struct iolens_file *)&file_b)

static void setup(void)
{
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    ck_assert_int_eq(iolens_fd_table_init(), 0);
}

static void teardown(void)
{
    iolens_budget_fini();
}

static uint64_t budget_used(void)
{
    struct iolens_budget_stats st;
    iolens_budget_stats(&st);
    return st.used;
}

START_TEST(untracked_is_null)
{
    ck_assert_ptr_null(iolens_fd_get(0));
    ck_assert_ptr_null(iolens_fd_get(5));
    ck_assert_ptr_null(iolens_fd_get(-1));
    ck_assert_ptr_null(iolens_fd_get(IOLENS_FD_MAX));
    ck_assert_ptr_null(iolens_fd_get(INT32_MAX));
}
END_TEST

START_TEST(open_gives_fresh_state)
{
    struct iolens_ofd *o = iolens_fd_open(7, FILE_A, &rec_a, 02000);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_eq(iolens_fd_get(7), o);
    ck_assert_ptr_eq(o->file, FILE_A);
    ck_assert_ptr_eq(o->rec, &rec_a);
    ck_assert_int_eq(atomic_load(&o->offset), 0);
    ck_assert_int_eq(o->last_end, -1);
    ck_assert_int_eq(o->last_start, -1);
    ck_assert_int_eq(o->flags, 02000);
    ck_assert_int_eq(atomic_load(&o->refs), 1);
    ck_assert_ptr_null(iolens_fd_get(6));
    ck_assert_ptr_null(iolens_fd_get(8));
}
END_TEST

START_TEST(out_of_range_fd)
{
    ck_assert_ptr_null(iolens_fd_open(IOLENS_FD_MAX, FILE_A, &rec_a, 0));
    ck_assert_ptr_null(iolens_fd_open(-3, FILE_A, &rec_a, 0));
    ck_assert_ptr_null(iolens_fd_get(IOLENS_FD_MAX));
    ck_assert_uint_eq(budget_used(), 0);
    struct iolens_ofd *last = iolens_fd_open(IOLENS_FD_MAX - 1, FILE_A, &rec_a, 0);
    ck_assert_ptr_nonnull(last);
    ck_assert_ptr_eq(iolens_fd_get(IOLENS_FD_MAX - 1), last);
    ck_assert_ptr_null(iolens_fd_dup(IOLENS_FD_MAX - 1, IOLENS_FD_MAX));
    ck_assert_int_eq(atomic_load(&last->refs), 1);
    iolens_fd_close(IOLENS_FD_MAX);   /* harmless */
    iolens_fd_close(-1);
}
END_TEST

START_TEST(dup_shares_offset)
{
    struct iolens_ofd *o = iolens_fd_open(3, FILE_A, &rec_a, 0);
    struct iolens_ofd *d = iolens_fd_dup(3, 300);   /* another chunk */
    ck_assert_ptr_eq(d, o);
    ck_assert_ptr_eq(iolens_fd_get(300), o);
    ck_assert_int_eq(atomic_load(&o->refs), 2);
    atomic_fetch_add(&iolens_fd_get(3)->offset, 4096);
    ck_assert_int_eq(atomic_load(&iolens_fd_get(300)->offset), 4096);
}
END_TEST

START_TEST(closing_one_dup_keeps_other)
{
    struct iolens_ofd *o = iolens_fd_open(3, FILE_A, &rec_a, 0);
    iolens_fd_dup(3, 4);
    atomic_store(&o->offset, 123);
    iolens_fd_close(3);
    ck_assert_ptr_null(iolens_fd_get(3));
    ck_assert_ptr_eq(iolens_fd_get(4), o);
    ck_assert_int_eq(atomic_load(&o->refs), 1);
    ck_assert_int_eq(atomic_load(&o->offset), 123);
    ck_assert_ptr_eq(o->file, FILE_A);
    /* Not recycled: a new open gets a different ofd. */
    struct iolens_ofd *n = iolens_fd_open(5, FILE_B, &rec_b, 0);
    ck_assert_ptr_ne(n, o);
    ck_assert_ptr_eq(iolens_fd_get(4)->file, FILE_A);
}
END_TEST

START_TEST(close_of_last_recycles)
{
    struct iolens_ofd *o = iolens_fd_open(3, FILE_A, &rec_a, 0);
    iolens_fd_dup(3, 9);
    o->last_end = 100;
    o->last_start = 50;
    atomic_store(&o->offset, 100);
    iolens_fd_close(3);
    iolens_fd_close(9);
    ck_assert_ptr_null(iolens_fd_get(9));
    uint64_t used = budget_used();
    struct iolens_ofd *n = iolens_fd_open(11, FILE_B, &rec_b, 1);
    ck_assert_ptr_eq(n, o);                   /* the same memory, reused */
    ck_assert_uint_eq(budget_used(), used);   /* and nothing allocated */
    ck_assert_ptr_eq(n->file, FILE_B);
    ck_assert_ptr_eq(n->rec, &rec_b);
    ck_assert_int_eq(atomic_load(&n->offset), 0);
    ck_assert_int_eq(n->last_end, -1);
    ck_assert_int_eq(n->last_start, -1);
    ck_assert_int_eq(n->flags, 1);
    ck_assert_int_eq(atomic_load(&n->refs), 1);
}
END_TEST

START_TEST(reopen_drops_old_binding)
{
    struct iolens_ofd *o = iolens_fd_open(3, FILE_A, &rec_a, 0);
    atomic_store(&o->offset, 77);
    /* The kernel reused descriptor 3 without our seeing the close. */
    struct iolens_ofd *n = iolens_fd_open(3, FILE_B, &rec_b, 0);
    ck_assert_ptr_ne(n, o);
    ck_assert_ptr_eq(iolens_fd_get(3), n);
    ck_assert_ptr_eq(n->file, FILE_B);
    ck_assert_int_eq(atomic_load(&n->offset), 0);
    /* The old ofd had no other descriptor, so it was recycled. */
    struct iolens_ofd *again = iolens_fd_open(4, FILE_A, &rec_a, 0);
    ck_assert_ptr_eq(again, o);
}
END_TEST

START_TEST(reopen_keeps_dup_of_old)
{
    struct iolens_ofd *o = iolens_fd_open(3, FILE_A, &rec_a, 0);
    iolens_fd_dup(3, 4);
    iolens_fd_open(3, FILE_B, &rec_b, 0);
    ck_assert_ptr_eq(iolens_fd_get(4), o);
    ck_assert_int_eq(atomic_load(&o->refs), 1);
}
END_TEST

START_TEST(dup2_over_open_fd)
{
    struct iolens_ofd *a = iolens_fd_open(3, FILE_A, &rec_a, 0);
    struct iolens_ofd *b = iolens_fd_open(4, FILE_B, &rec_b, 0);
    ck_assert_ptr_eq(iolens_fd_dup(3, 4), a);   /* dup2 closes 4 first */
    ck_assert_ptr_eq(iolens_fd_get(4), a);
    ck_assert_int_eq(atomic_load(&a->refs), 2);
    ck_assert_ptr_eq(iolens_fd_open(5, FILE_B, &rec_b, 0), b);   /* b recycled */
    /* Repeating the same dup2 changes nothing. */
    ck_assert_ptr_eq(iolens_fd_dup(3, 4), a);
    ck_assert_int_eq(atomic_load(&a->refs), 2);
    /* dup2(fd, fd) is a no-op. */
    ck_assert_ptr_eq(iolens_fd_dup(3, 3), a);
    ck_assert_int_eq(atomic_load(&a->refs), 2);
}
END_TEST

START_TEST(dup_of_untracked_drops_target)
{
    iolens_fd_open(4, FILE_B, &rec_b, 0);
    ck_assert_ptr_null(iolens_fd_dup(8, 4));
    ck_assert_ptr_null(iolens_fd_get(4));
    ck_assert_ptr_null(iolens_fd_dup(8, 9));
    ck_assert_ptr_null(iolens_fd_get(9));
}
END_TEST

START_TEST(chunks_allocated_on_first_use_only)
{
    ck_assert_uint_eq(budget_used(), 0);
    iolens_fd_open(1, FILE_A, &rec_a, 0);
    uint64_t one_chunk_and_ofd = budget_used();
    ck_assert_uint_ge(one_chunk_and_ofd, IOLENS_FD_CHUNK * sizeof(void *));
    iolens_fd_close(1);
    iolens_fd_open(2, FILE_A, &rec_a, 0);   /* same chunk, recycled ofd */
    ck_assert_uint_eq(budget_used(), one_chunk_and_ofd);
    iolens_fd_get(40000);                   /* a lookup never allocates */
    iolens_fd_close(40000);
    ck_assert_uint_eq(budget_used(), one_chunk_and_ofd);
}
END_TEST

START_TEST(budget_full)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(IOLENS_FD_CHUNK * sizeof(void *)), 0);
    ck_assert_int_eq(iolens_fd_table_init(), 0);
    /* The chunk fits, the ofd does not. */
    ck_assert_ptr_null(iolens_fd_open(0, FILE_A, &rec_a, 0));
    ck_assert_ptr_null(iolens_fd_get(0));
    /* No room for another chunk either. */
    ck_assert_ptr_null(iolens_fd_open(1000, FILE_A, &rec_a, 0));
}
END_TEST

/* Once the overflow ofd is set, a descriptor the budget cannot hold an
 * ofd or a chunk for is bound to it (so its I/O still counts), dup shares
 * it, close unbinds it, and "needed" asks for what was missing. */
START_TEST(budget_full_binds_overflow)
{
    static int other_rec;
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(IOLENS_FD_CHUNK * sizeof(void *)), 0);
    ck_assert_int_eq(iolens_fd_table_init(), 0);
    iolens_fd_set_overflow(FILE_B, &other_rec);
    struct iolens_ofd *o = iolens_fd_open(3, FILE_A, &rec_a, 0);   /* chunk fits, ofd not */
    ck_assert_ptr_nonnull(o);
    ck_assert(iolens_fd_is_overflow(o));
    ck_assert_ptr_eq(o->rec, &other_rec);
    ck_assert_ptr_eq(iolens_fd_lookup(3), o);
    o = iolens_fd_open(1000, FILE_A, &rec_a, 0);                      /* no chunk either */
    ck_assert(iolens_fd_is_overflow(o));
    ck_assert_ptr_eq(iolens_fd_lookup(1000), o);
    ck_assert_ptr_null(iolens_fd_lookup(1001));
    ck_assert_ptr_null(iolens_fd_lookup(4));
    ck_assert_ptr_eq(iolens_fd_dup(1000, 1002), o);
    ck_assert_ptr_eq(iolens_fd_lookup(1002), o);
    struct iolens_budget_stats st;
    iolens_budget_stats(&st);
    /* One chunk refused, three ofds live at the peak, none allocated. */
    ck_assert_uint_eq(st.needed - st.used,
                      IOLENS_FD_CHUNK * sizeof(void *) + 3 * ((sizeof(struct iolens_ofd) + 15) / 16 * 16));
    iolens_fd_close(1000);
    iolens_fd_close(3);
    ck_assert_ptr_null(iolens_fd_lookup(1000));
    ck_assert_ptr_null(iolens_fd_lookup(3));
    ck_assert_ptr_eq(iolens_fd_lookup(1002), o);
    iolens_fd_set_overflow(NULL, NULL);
}
END_TEST

/* Threads open, dup and close their own descriptors while sharing the
 * free list; at the end every ofd is accounted for. */
#define NTHREADS 4
#define ROUNDS 20000

static void *churn(void *arg)
{
    int base = (int)(intptr_t)arg * 1000;
    for (int i = 0; i < ROUNDS; i++) {
        int fd = base + i % 50;
        struct iolens_ofd *o = iolens_fd_open(fd, FILE_A, &rec_a, i);
        if (o == NULL || iolens_fd_get(fd) != o || o->flags != i || atomic_load(&o->refs) != 1)
            return (void *)1;
        if (iolens_fd_dup(fd, fd + 500) != o || atomic_load(&o->refs) != 2)
            return (void *)1;
        iolens_fd_close(fd);
        iolens_fd_close(fd + 500);
    }
    return NULL;
}

START_TEST(threads_recycle_safely)
{
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        ck_assert_int_eq(pthread_create(&th[t], NULL, churn, (void *)(intptr_t)t), 0);
    for (int t = 0; t < NTHREADS; t++) {
        void *ret;
        pthread_join(th[t], &ret);
        ck_assert_ptr_null(ret);
    }
    /* Each thread holds at most one ofd at a time. */
    uint64_t used = budget_used();
    ck_assert_uint_le(used, 16 * IOLENS_FD_CHUNK * sizeof(void *) + NTHREADS * 64);
    for (int t = 0; t < NTHREADS; t++)
        ck_assert_ptr_null(iolens_fd_get(t * 1000));
}
END_TEST

static Suite *fd_table_suite(void)
{
    Suite *s = suite_create("fd_table");
    TCase *tc = tcase_create("fd_table");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, untracked_is_null);
    tcase_add_test(tc, open_gives_fresh_state);
    tcase_add_test(tc, out_of_range_fd);
    tcase_add_test(tc, dup_shares_offset);
    tcase_add_test(tc, closing_one_dup_keeps_other);
    tcase_add_test(tc, close_of_last_recycles);
    tcase_add_test(tc, reopen_drops_old_binding);
    tcase_add_test(tc, reopen_keeps_dup_of_old);
    tcase_add_test(tc, dup2_over_open_fd);
    tcase_add_test(tc, dup_of_untracked_drops_target);
    tcase_add_test(tc, chunks_allocated_on_first_use_only);
    tcase_add_test(tc, budget_full);
    tcase_add_test(tc, budget_full_binds_overflow);
    tcase_add_test(tc, threads_recycle_safely);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(fd_table_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
