/* The online access-pattern detector (lib/layers/access_pattern.c): steps in,
 * packed <L>_PAT_* counters out. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layers/access_pattern.h"

struct packed {
    int64_t c[IOLENS_PAT_NCOUNTERS];
};

static struct packed pack(const struct iolens_access_pattern *p)
{
    struct packed out;
    memset(&out, 0x5a, sizeof out); /* every counter must be written */
    iolens_pat_pack(p, out.c);
    return out;
}

/* Feeds the steps between consecutive offsets of off[0..n). */
static void feed_offsets(struct iolens_access_pattern *p, const int64_t *off, size_t n)
{
    for (size_t i = 1; i < n; i++)
        iolens_pat_step(p, off[i] - off[i - 1]);
}

static void feed_steps(struct iolens_access_pattern *p, int64_t step, int times)
{
    for (int i = 0; i < times; i++)
        iolens_pat_step(p, step);
}

START_TEST(empty_state_packs_zeros)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    struct packed o = pack(&p);
    for (int i = 0; i < IOLENS_PAT_NCOUNTERS; i++)
        ck_assert_int_eq(o.c[i], 0);
}
END_TEST

START_TEST(consecutive_is_one_run)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    p.consec = 99; /* the caller's counts are passed through */
    p.seq = 99;
    feed_steps(&p, 4096, 99);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 99);
    ck_assert_int_eq(o.c[IOLENS_PAT_CONSEC], 99);
    ck_assert_int_eq(o.c[IOLENS_PAT_SEQ], 99);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE], 4096);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 99);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 0);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUP_STEPS], 0);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_COUNT], 0);
}
END_TEST

/* Stride 0 (the same offset again and again) is a run like any other. */
START_TEST(stride_zero_and_negative_strides)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    feed_steps(&p, -8192, 31);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 31);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE], -8192);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 31);

    memset(&p, 0, sizeof p);
    feed_steps(&p, 0, 5);
    o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 5);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE], 0);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 5);
}
END_TEST

/* 16 groups of 4 accesses, 4096 apart inside a group, 65536 between group
 * starts: offsets g * 65536 + k * 4096. */
START_TEST(nested_strides)
{
    int64_t off[64];
    for (int g = 0; g < 16; g++)
        for (int k = 0; k < 4; k++)
            off[g * 4 + k] = g * 65536 + k * 4096;
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    feed_offsets(&p, off, 64);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 63);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE], 4096);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 48);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_STRIDE], 4096);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_COUNT], 4);
    ck_assert_int_eq(o.c[IOLENS_PAT_OUTER_STRIDE], 65536);
    /* 15 closed groups and the trailing one (no jump after it) */
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 16);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUP_STEPS], 63);
}
END_TEST

/* The first group is partial (2 of its 4 accesses), and before it one
 * access elsewhere (a header).  Steps: x, s, J, then (s, s, s, J) x 5,
 * then s, s, s.  The parse takes (x, 1, s), (J, 1, s) and (s, 2, J) for
 * groups, which the weaker slot absorbs, and is in step from the second
 * full group on. */
START_TEST(nested_with_partial_first_group_resynchronizes)
{
    const int64_t s = 1024, outer = 10000;
    int64_t off[64];
    size_t n = 0;
    off[n++] = 0;                            /* header */
    for (int k = 2; k < 4; k++)              /* partial first group */
        off[n++] = 1000000 + k * s;
    for (int g = 1; g <= 6; g++)
        for (int k = 0; k < 4; k++)
            off[n++] = 1000000 + g * outer + k * s;
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    feed_offsets(&p, off, n);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], (int64_t)n - 1);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_STRIDE], s);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_COUNT], 4);
    ck_assert_int_eq(o.c[IOLENS_PAT_OUTER_STRIDE], outer);
    /* 4 closed groups and the trailing one; the 7 steps up to the end of
     * the first full group (x, s, J, s, s, s, J) do not fit */
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 26);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 5);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUP_STEPS], 4 * 4 + 3);
}
END_TEST

/* A run interrupted once by another step is still mostly one stride: the
 * run slots add its two halves. */
START_TEST(run_interrupted_once)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    feed_steps(&p, 512, 10);
    iolens_pat_step(&p, 77777);
    feed_steps(&p, 512, 10);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 21);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE], 512);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 20);
    /* as groups: (512, 10, 77777) once, and the trailing run of 10 */
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 2);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUP_STEPS], 21);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_COUNT], 11);
    ck_assert_int_eq(o.c[IOLENS_PAT_OUTER_STRIDE], 10 * 512 + 77777);
}
END_TEST

/* A trailing run longer than the groups' is no partial group. */
START_TEST(trailing_run_longer_than_a_group_is_not_counted)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    for (int g = 0; g < 3; g++) {
        feed_steps(&p, 8, 2);
        iolens_pat_step(&p, 100);
    }
    feed_steps(&p, 8, 5);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 14);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 3);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUP_STEPS], 9);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 11);
}
END_TEST

/* Pseudo-random offsets: no long run and no repeated group. */
START_TEST(random_offsets_fit_nothing)
{
    int64_t off[200];
    uint32_t x = 12345;
    for (int i = 0; i < 200; i++) {
        x = x * 1103515245u + 12345u;
        off[i] = (int64_t)((x >> 16) % 4096) * 4096;
    }
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    feed_offsets(&p, off, 200);
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 199);
    ck_assert_int_le(o.c[IOLENS_PAT_STRIDE_STEPS], 2);
    ck_assert_int_le(o.c[IOLENS_PAT_GROUPS], 2);
    ck_assert_int_le(o.c[IOLENS_PAT_GROUP_STEPS], 6);
}
END_TEST

/* A new nesting that lasts outvotes an older, shorter one. */
START_TEST(phase_change_takes_the_weaker_slot)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    for (int g = 0; g < 3; g++) {
        feed_steps(&p, 10, 3);
        iolens_pat_step(&p, 1000);
    }
    for (int g = 0; g < 10; g++) {
        feed_steps(&p, 20, 1);
        iolens_pat_step(&p, 500);
    }
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_STEPS], 3 * 4 + 10 * 2);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_STRIDE], 20);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_COUNT], 2);
    ck_assert_int_eq(o.c[IOLENS_PAT_OUTER_STRIDE], 520);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 10);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUP_STEPS], 20);
    /* runs: 10 x 3 = 9 steps of 10, 10 x 1 = 10 steps of 20 */
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE], 20);
    ck_assert_int_eq(o.c[IOLENS_PAT_STRIDE_STEPS], 10);
}
END_TEST

/* Packing is a snapshot: the state goes on counting after it. */
START_TEST(pack_does_not_change_the_state)
{
    struct iolens_access_pattern p, before;
    memset(&p, 0, sizeof p);
    feed_steps(&p, 64, 3);
    iolens_pat_step(&p, 7);
    feed_steps(&p, 64, 2);
    before = p;
    struct packed a = pack(&p), b = pack(&p);
    ck_assert_mem_eq(&before, &p, sizeof p);
    ck_assert_mem_eq(a.c, b.c, sizeof a.c);
    iolens_pat_step(&p, 64);
    struct packed c = pack(&p);
    ck_assert_int_eq(c.c[IOLENS_PAT_STEPS], a.c[IOLENS_PAT_STEPS] + 1);
    ck_assert_int_eq(c.c[IOLENS_PAT_GROUP_STEPS], 4 + 3);
}
END_TEST

/* Offsets far apart: the outer stride wraps instead of overflowing. */
START_TEST(huge_steps_do_not_overflow)
{
    struct iolens_access_pattern p;
    memset(&p, 0, sizeof p);
    for (int g = 0; g < 2; g++) {
        feed_steps(&p, INT64_MAX / 2, 3);
        iolens_pat_step(&p, INT64_MIN + 1);
    }
    struct packed o = pack(&p);
    ck_assert_int_eq(o.c[IOLENS_PAT_GROUPS], 2);
    ck_assert_int_eq(o.c[IOLENS_PAT_INNER_COUNT], 4);
}
END_TEST

static Suite *pattern_suite(void)
{
    Suite *s = suite_create("access_pattern");
    TCase *tc = tcase_create("detector");
    tcase_add_test(tc, empty_state_packs_zeros);
    tcase_add_test(tc, consecutive_is_one_run);
    tcase_add_test(tc, stride_zero_and_negative_strides);
    tcase_add_test(tc, nested_strides);
    tcase_add_test(tc, nested_with_partial_first_group_resynchronizes);
    tcase_add_test(tc, run_interrupted_once);
    tcase_add_test(tc, trailing_run_longer_than_a_group_is_not_counted);
    tcase_add_test(tc, random_offsets_fit_nothing);
    tcase_add_test(tc, phase_change_takes_the_weaker_slot);
    tcase_add_test(tc, pack_does_not_change_the_state);
    tcase_add_test(tc, huge_steps_do_not_overflow);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pattern_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
