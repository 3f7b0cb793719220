/* A record's call sites (lib/core/call_site.h): which sites are counted
 * apart, that every figure it keeps is exact, and what they take of the
 * budget. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/call_site.h"

/* What each site really did, for the exactness checks. */
#define MAX_SITES 64
struct truth {
    uint64_t ops[MAX_SITES];
    int64_t bytes[MAX_SITES];
    uint64_t calls;
    int64_t total;
};

static uintptr_t site_addr(int k)
{
    return 0x400000u + 0x40u * (uintptr_t)k;
}

static struct iolens_site_ref ref;

static void setup(void)
{
    ck_assert_int_eq(iolens_budget_init(1u << 16), 0);
    memset(&ref, 0, sizeof ref);
    iolens_sites_on = 1;
}

static uint64_t budget_used(void)
{
    struct iolens_budget_stats st;
    iolens_budget_stats(&st);
    return st.used;
}

static void teardown(void)
{
    iolens_budget_fini();
}

static void call_on(struct iolens_site_ref *r, struct truth *t, int k, int64_t bytes)
{
    iolens_sites_count(r, site_addr(k), bytes, 1.0);
    t->ops[k]++;
    t->bytes[k] += bytes;
    t->calls++;
    t->total += bytes;
}

static void call(struct truth *t, int k, int64_t bytes)
{
    call_on(&ref, t, k, bytes);
}

/* What a record folded into ref brings: its calls, site by site. */
static void add_truth(struct truth *t, const struct truth *src)
{
    for (int k = 0; k < MAX_SITES; k++) {
        t->ops[k] += src->ops[k];
        t->bytes[k] += src->bytes[k];
    }
    t->calls += src->calls;
    t->total += src->total;
}

static struct iolens_site_snapshot snap(void)
{
    struct iolens_site_snapshot out;
    iolens_sites_snapshot(&ref, &out);
    return out;
}

/* Where site k is counted apart: 0 to IOLENS_SITES_KEPT - 1 a kept slot,
 * IOLENS_SITES_KEPT waiting; -1 not apart. */
static int place_of(const struct iolens_site_snapshot *sn, int k)
{
    for (int i = 0; i <= IOLENS_SITES_KEPT; i++)
        if (sn->top[i].addr == site_addr(k))
            return i;
    return -1;
}

/* Every site counted apart has all of its calls; the slots and other
 * add up to every call; time is one unit a call, like ops. */
static void check_exact(const struct truth *t)
{
    struct iolens_site_snapshot sn = snap();
    uint64_t ops = sn.other.ops;
    int64_t bytes = sn.other.bytes;
    double time = sn.other.time;
    ck_assert_uint_eq(sn.other.addr, 0);
    for (int k = 0; k < MAX_SITES; k++) {
        int at = place_of(&sn, k);
        if (at < 0)
            continue;
        const struct iolens_site_slot *s = &sn.top[at];
        ck_assert_uint_eq(s->ops, t->ops[k]);
        ck_assert_int_eq(s->bytes, t->bytes[k]);
        ck_assert(s->time == (double)t->ops[k]);
        ops += s->ops;
        bytes += s->bytes;
        time += s->time;
    }
    ck_assert_uint_eq(ops, t->calls);
    ck_assert_int_eq(bytes, t->total);
    ck_assert(time == (double)t->calls);
}

START_TEST(first_sites_take_the_slots)
{
    struct truth t = {0};
    for (int k = 0; k < IOLENS_SITES_KEPT; k++)
        call(&t, k, 100);
    ck_assert_uint_eq(ref.first.addr, site_addr(0));
    for (int k = 1; k < IOLENS_SITES_KEPT; k++)
        ck_assert_uint_eq(ref.more->slot[k - 1].addr, site_addr(k));
    /* No fifth site: no late part taken from the budget. */
    ck_assert_ptr_null(ref.more->late);
    ck_assert_uint_eq(ref.more->other_ops, 0);
    check_exact(&t);
}
END_TEST

/* A record used from one line keeps it in place: however many calls,
 * nothing is taken from the budget.  The second line attaches the
 * table, once. */
START_TEST(one_site_takes_no_table)
{
    struct truth t = {0};
    uint64_t before = budget_used();
    for (int i = 0; i < 1000; i++)
        call(&t, 3, 7);
    ck_assert_uint_eq(budget_used(), before);
    ck_assert_ptr_null(ref.more);
    ck_assert_uint_eq(ref.first.addr, site_addr(3));
    ck_assert_uint_eq(ref.first.ops, 1000);
    ck_assert_int_eq(ref.first.bytes, 7000);
    check_exact(&t);
    call(&t, 4, 1);
    ck_assert_uint_eq(budget_used(), before + iolens_sites_table_size());
    call(&t, 5, 1);
    call(&t, 4, 1);
    ck_assert_uint_eq(budget_used(), before + iolens_sites_table_size());
    check_exact(&t);
}
END_TEST

/* A loop after a header written from another line: the loop's site,
 * called most often, is soon the one kept in place, and its calls then
 * stay there. */
START_TEST(the_busiest_site_is_kept_in_place)
{
    struct truth t = {0};
    call(&t, 0, 512);           /* the header */
    call(&t, 1, 8);
    ck_assert_uint_eq(ref.first.addr, site_addr(0));
    call(&t, 1, 8);
    ck_assert_uint_eq(ref.first.addr, site_addr(1));
    ck_assert_uint_eq(ref.more->slot[0].addr, site_addr(0));
    for (int i = 0; i < 100; i++)
        call(&t, 1, 8);
    ck_assert_uint_eq(ref.first.ops, 102);
    ck_assert_uint_eq(ref.more->slot[0].ops, 1);
    check_exact(&t);
}
END_TEST

/* Sites off (IOLENS_DISABLE_SITES=1): nothing is counted, nothing taken. */
START_TEST(sites_off_keeps_none)
{
    iolens_sites_on = 0;
    uint64_t before = budget_used();
    for (int k = 0; k < 6; k++)
        iolens_sites_count(&ref, site_addr(k), 10, 1.0);
    ck_assert_ptr_eq(ref.more, IOLENS_SITES_NONE);
    ck_assert_uint_eq(ref.first.addr, 0);
    ck_assert_uint_eq(budget_used(), before);
    struct iolens_site_snapshot sn;
    ck_assert_int_eq(iolens_sites_snapshot(&ref, &sn), 0);
}
END_TEST

/* Small one-off lines first, then a loop of small writes from a late
 * line: the loop waits, then takes the smallest slot, here the record's
 * own (the first site's), and the first site waits. */
START_TEST(a_late_loop_takes_a_slot)
{
    struct truth t = {0};
    for (int k = 0; k < IOLENS_SITES_KEPT; k++)
        call(&t, k, 10 * (k + 1));
    for (int i = 0; i < 1000; i++)
        call(&t, 9, 16);
    ck_assert_uint_eq(ref.first.addr, site_addr(9));
    struct iolens_site_snapshot sn = snap();
    ck_assert_int_eq(place_of(&sn, 9), 0);
    ck_assert_int_eq(place_of(&sn, 0), IOLENS_SITES_KEPT);
    check_exact(&t);
}
END_TEST

/* A site once counted in other never gets a slot, however much it moves
 * later: its slot's figures would miss its first calls. */
START_TEST(a_spilled_site_stays_in_other)
{
    struct truth t = {0};
    for (int k = 0; k < IOLENS_SITES_KEPT; k++)
        call(&t, k, 1000);
    call(&t, 10, 1);    /* waits */
    call(&t, 10, 1);    /* waits, two calls: newcomers go to other */
    call(&t, 11, 5);    /* other */
    for (int i = 0; i < 100; i++)
        call(&t, 11, 5000);
    struct iolens_site_snapshot sn = snap();
    ck_assert_int_eq(place_of(&sn, 11), -1);
    ck_assert_uint_eq(sn.other.ops, 101);
    ck_assert_int_eq(sn.other.bytes, 500005);
    check_exact(&t);
}
END_TEST

/* A one-off waiting site gives its place to the next newcomer, and goes
 * to other. */
START_TEST(a_one_off_waiting_site_makes_room)
{
    struct truth t = {0};
    for (int k = 0; k < IOLENS_SITES_KEPT; k++)
        call(&t, k, 1000);
    call(&t, 20, 1);
    call(&t, 21, 1);
    struct iolens_site_snapshot sn = snap();
    ck_assert_int_eq(place_of(&sn, 21), IOLENS_SITES_KEPT);
    ck_assert_int_eq(place_of(&sn, 20), -1);
    ck_assert_uint_eq(sn.other.ops, 1);
    check_exact(&t);
}
END_TEST

/* Random calls over many sites, some heavy, some late: after every call
 * each site counted apart has exact figures and nothing is lost. */
START_TEST(random_calls_stay_exact)
{
    for (unsigned seed = 1; seed <= 200; seed++) {
        iolens_budget_fini();
        ck_assert_int_eq(iolens_budget_init(1u << 16), 0);
        memset(&ref, 0, sizeof ref);
        srand(seed);
        struct truth t = {0};
        int nsites = 2 + rand() % (MAX_SITES - 2);
        for (int i = 0; i < 2000; i++) {
            int k = rand() % 4 == 0 ? rand() % nsites : rand() % (1 + nsites / 8);
            call(&t, k, rand() % 3 == 0 ? 0 : 1 + rand() % 4096);
            check_exact(&t);
        }
    }
}
END_TEST

/* No room for the late part: later sites go to other, exactly. */
START_TEST(no_room_for_the_late_part)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(iolens_sites_table_size()), 0);
    struct truth t = {0};
    for (int k = 0; k < IOLENS_SITES_KEPT; k++)
        call(&t, k, 10);
    for (int i = 0; i < 100; i++)
        call(&t, 9, 16);
    ck_assert_ptr_eq(ref.more->late, IOLENS_SITES_NO_LATE);
    struct iolens_site_snapshot sn = snap();
    ck_assert_int_eq(place_of(&sn, 9), -1);
    ck_assert_uint_eq(sn.other.ops, 100);
    check_exact(&t);
}
END_TEST

/* A forked child's table starts empty, its late part kept for reuse. */
START_TEST(clear_empties_the_late_part_too)
{
    struct truth t = {0};
    for (int k = 0; k <= IOLENS_SITES_KEPT; k++)
        call(&t, k, 10);
    struct iolens_site_table *table = ref.more;
    struct iolens_site_late *late = table->late;
    ck_assert_ptr_nonnull(late);
    iolens_sites_clear(&ref);
    ck_assert_ptr_eq(ref.more, table);
    ck_assert_ptr_eq(table->late, late);
    ck_assert_uint_eq(ref.first.addr, 0);
    struct truth fresh = {0};
    check_exact(&fresh);
    ck_assert_uint_eq(late->waiting.addr, 0);
    ck_assert_uint_eq(late->spilled, 0);
}
END_TEST

/* The budget has no room for the table when a second site comes: the
 * record keeps no sites at all, the first one's calls included, rather
 * than some (the snapshot would no longer add up to its calls). */
START_TEST(no_room_keeps_none)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(64), 0);
    iolens_sites_count(&ref, site_addr(1), 10, 1.0);
    iolens_sites_count(&ref, site_addr(1), 10, 1.0);
    ck_assert_uint_eq(ref.first.ops, 2);
    struct iolens_site_snapshot sn;
    ck_assert_int_eq(iolens_sites_snapshot(&ref, &sn), 1);
    iolens_sites_count(&ref, site_addr(2), 10, 1.0);
    ck_assert_ptr_eq(ref.more, IOLENS_SITES_NONE);
    ck_assert_uint_eq(ref.first.addr, 0);
    iolens_sites_count(&ref, site_addr(1), 10, 1.0);
    ck_assert_ptr_eq(ref.more, IOLENS_SITES_NONE);
    ck_assert_uint_eq(ref.first.addr, 0);
    ck_assert_int_eq(iolens_sites_snapshot(&ref, &sn), 0);
}
END_TEST

/* A record folded whole into another (a file folded into <other files>):
 * sites both kept apart add up, a site only the folded record had takes
 * a free slot, and every figure stays exact. */
START_TEST(a_folded_record_adds_its_sites)
{
    struct iolens_site_ref src = {0};
    struct truth t = {0}, ts = {0};
    call(&t, 1, 10);
    call(&t, 2, 20);
    call_on(&src, &ts, 2, 5);
    call_on(&src, &ts, 2, 5);
    call_on(&src, &ts, 3, 7);
    iolens_sites_fold(&ref, &src, 1);
    add_truth(&t, &ts);
    struct iolens_site_snapshot sn = snap();
    ck_assert_int_ge(place_of(&sn, 2), 0);
    ck_assert_uint_eq(sn.top[place_of(&sn, 2)].ops, 3);
    ck_assert_int_ge(place_of(&sn, 3), 0);
    ck_assert_uint_eq(sn.other.ops, 0);
    check_exact(&t);
    call(&t, 3, 1);
    check_exact(&t);
}
END_TEST

/* A site whose calls the folded record counted in other stays in other
 * in the record it is folded into: a slot would miss the calls already
 * there. */
START_TEST(a_site_the_folded_record_spilled_stays_in_other)
{
    struct iolens_site_ref src = {0};
    struct truth t = {0}, ts = {0};
    for (int k = 20; k < 20 + IOLENS_SITES_KEPT; k++)
        call_on(&src, &ts, k, 10);
    call_on(&src, &ts, 30, 1);
    call_on(&src, &ts, 30, 1); /* waits with two calls: 31 goes to other */
    call_on(&src, &ts, 31, 5);
    call_on(&src, &ts, 30, 100); /* takes 20's slot: 20 waits, one call */
    iolens_sites_fold(&ref, &src, 1);
    add_truth(&t, &ts);
    check_exact(&t);
    struct iolens_site_snapshot sn = snap();
    ck_assert_int_eq(place_of(&sn, 20), IOLENS_SITES_KEPT);
    ck_assert_uint_eq(sn.other.ops, 1);
    /* Without 31's spilled bit, 31 would take 20's waiting slot, then a
     * kept one: a slot without the call in other. */
    for (int i = 0; i < 3; i++)
        call(&t, 31, 5000);
    sn = snap();
    ck_assert_int_eq(place_of(&sn, 31), -1);
    ck_assert_uint_eq(sn.other.ops, 4);
    check_exact(&t);
}
END_TEST

/* The record folded in had calls but kept no sites (no room for its
 * table): the other record cannot say where they came from, and keeps
 * no sites at all.  Nor when it keeps apart a site the folded record
 * counted in other. */
START_TEST(a_folded_record_without_sites_leaves_none)
{
    struct iolens_site_ref src = {.more = IOLENS_SITES_NONE};
    call(&(struct truth){0}, 1, 10);
    iolens_sites_fold(&ref, &src, 1);
    ck_assert_ptr_eq(ref.more, IOLENS_SITES_NONE);
    struct iolens_site_snapshot sn;
    ck_assert_int_eq(iolens_sites_snapshot(&ref, &sn), 0);

    memset(&ref, 0, sizeof ref);
    struct iolens_site_ref spilled = {0};
    struct truth ts = {0};
    call(&(struct truth){0}, 31, 10);
    for (int k = 20; k < 20 + IOLENS_SITES_KEPT; k++)
        call_on(&spilled, &ts, k, 1000);
    call_on(&spilled, &ts, 30, 1);
    call_on(&spilled, &ts, 30, 1);
    call_on(&spilled, &ts, 31, 5); /* to other: ref keeps 31 apart */
    iolens_sites_fold(&ref, &spilled, 1);
    ck_assert_ptr_eq(ref.more, IOLENS_SITES_NONE);

    /* A record without calls brings nothing. */
    memset(&ref, 0, sizeof ref);
    struct truth t = {0};
    call(&t, 1, 10);
    struct iolens_site_ref empty = {0};
    iolens_sites_fold(&ref, &empty, 0);
    check_exact(&t);
}
END_TEST

/* Random calls on two records, the second folded into the first, then
 * more calls on the first: after every step each site it counts apart
 * has all of its calls and nothing is lost; or it keeps no sites, only
 * where the fold could not be exact. */
START_TEST(random_folds_stay_exact)
{
    int kept = 0, gave_up = 0;
    for (unsigned seed = 1; seed <= 300; seed++) {
        iolens_budget_fini();
        ck_assert_int_eq(iolens_budget_init(1u << 16), 0);
        memset(&ref, 0, sizeof ref);
        struct iolens_site_ref src = {0};
        srand(seed);
        struct truth t = {0}, ts = {0};
        int nsites = 2 + rand() % 10;
        int n = rand() % 100, m = rand() % 100;
        for (int i = 0; i < n; i++)
            call(&t, rand() % nsites, rand() % 3 == 0 ? 0 : 1 + rand() % 4096);
        for (int i = 0; i < m; i++)
            call_on(&src, &ts, rand() % nsites, rand() % 3 == 0 ? 0 : 1 + rand() % 4096);
        iolens_sites_fold(&ref, &src, ts.calls > 0);
        add_truth(&t, &ts);
        if (ref.more == IOLENS_SITES_NONE) {
            gave_up++;
            continue;
        }
        check_exact(&t);
        for (int i = 0; i < 200; i++) {
            call(&t, rand() % (nsites + 3), 1 + rand() % 4096);
            check_exact(&t);
        }
        kept++;
    }
    ck_assert_int_ge(kept, 100);
    ck_assert_int_ge(gave_up, 1);
}
END_TEST

static Suite *call_site_suite(void)
{
    Suite *s = suite_create("call_site");
    TCase *tc = tcase_create("call_site");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, first_sites_take_the_slots);
    tcase_add_test(tc, one_site_takes_no_table);
    tcase_add_test(tc, the_busiest_site_is_kept_in_place);
    tcase_add_test(tc, sites_off_keeps_none);
    tcase_add_test(tc, a_late_loop_takes_a_slot);
    tcase_add_test(tc, a_spilled_site_stays_in_other);
    tcase_add_test(tc, a_one_off_waiting_site_makes_room);
    tcase_add_test(tc, random_calls_stay_exact);
    tcase_add_test(tc, no_room_keeps_none);
    tcase_add_test(tc, no_room_for_the_late_part);
    tcase_add_test(tc, clear_empties_the_late_part_too);
    tcase_add_test(tc, a_folded_record_adds_its_sites);
    tcase_add_test(tc, a_site_the_folded_record_spilled_stays_in_other);
    tcase_add_test(tc, a_folded_record_without_sites_leaves_none);
    tcase_add_test(tc, random_folds_stay_exact);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(call_site_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
