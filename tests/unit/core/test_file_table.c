/* The record table and the folding statistics (lib/core/file_table.c). */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/call_site.h"
#include "core/budget.h"
#include "core/file_table.h"
#include "iolens/log_format.h"
#include "core/mounts.h"
#include "format/compare.h"

/* Test double for the mount table: one mount at /fake_mnt with a block
 * size of 1234, so that fs_block_size can be checked exactly.  The test
 * program defines the symbol, so lib/core/mounts.c is not linked in. */
static const struct iolens_mount fake_mount = { "/fake_mnt", "fakefs", 1234 };
const struct iolens_mount *iolens_mounts_find(const char *abspath)
{
    if (strncmp(abspath, "/fake_mnt", 9) == 0 && (abspath[9] == '\0' || abspath[9] == '/'))
        return &fake_mount;
    return NULL;
}

static struct iolens_file *get(const char *path)
{
    return iolens_file_get(path, strlen(path));
}

static struct iolens_file *find(const char *path)
{
    return iolens_file_find(path, strlen(path));
}

static void setup_big(void)
{
    ck_assert_int_eq(iolens_budget_init(4 << 20), 0);
    ck_assert_int_eq(iolens_file_table_init(4096), 0);
}

static void teardown(void)
{
    iolens_file_table_set_hash_for_test(NULL);
    iolens_budget_fini();
}

/* ------------------------------------------------------------ basics -- */

START_TEST(reserved_entries)
{
    struct iolens_file *other = iolens_file_other();
    ck_assert_ptr_nonnull(other);
    ck_assert_uint_eq(other->id, IOLENS_ID_OTHER_FILES);
    ck_assert_str_eq(other->name, IOLENS_NAME_OTHER_FILES);
    ck_assert_uint_eq(other->name_len, strlen(IOLENS_NAME_OTHER_FILES));
    ck_assert_uint_eq(iolens_file_std(0)->id, IOLENS_ID_STDIN);
    ck_assert_uint_eq(iolens_file_std(1)->id, IOLENS_ID_STDOUT);
    ck_assert_uint_eq(iolens_file_std(2)->id, IOLENS_ID_STDERR);
    ck_assert_str_eq(iolens_file_std(0)->name, "<STDIN>");
    ck_assert_str_eq(iolens_file_std(1)->name, "<STDOUT>");
    ck_assert_str_eq(iolens_file_std(2)->name, "<STDERR>");
    ck_assert_int_eq(iolens_file_std(2)->fs_block_size, 0);
    ck_assert_ptr_null(iolens_file_std(3));
    ck_assert_ptr_null(iolens_file_std(-1));
    ck_assert_uint_eq(iolens_file_count(), 4);
}
END_TEST

static void collect_ids(struct iolens_file *f, void *arg)
{
    uint64_t *sum = arg;
    sum[0] += 1;
    sum[1] += f->id;
}

START_TEST(foreach_visits_reserved_and_hashed)
{
    uint64_t acc[2] = { 0, 0 };
    iolens_file_foreach(collect_ids, acc);
    ck_assert_uint_eq(acc[0], 4);
    ck_assert_uint_eq(acc[1], 1 + 2 + 3 + 4);
    struct iolens_file *a = get("/data/a"), *b = get("/data/b");
    acc[0] = acc[1] = 0;
    iolens_file_foreach(collect_ids, acc);
    ck_assert_uint_eq(acc[0], 6);
    ck_assert_uint_eq(acc[1], 10 + a->id + b->id);
    ck_assert_uint_eq(iolens_file_count(), 6);
}
END_TEST

START_TEST(same_path_same_entry)
{
    struct iolens_file *a = get("/data/file.dat");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_eq(get("/data/file.dat"), a);
    ck_assert_ptr_eq(find("/data/file.dat"), a);
    ck_assert_str_eq(a->name, "/data/file.dat");
    ck_assert_uint_eq(a->name_len, 14);
    ck_assert_uint_eq(a->id, iolens_path_hash("/data/file.dat", 14));
    ck_assert_uint_eq(a->id, XXH3_64bits("/data/file.dat", 14));
    /* Only a prefix of the name is a different file. */
    ck_assert_ptr_null(iolens_file_find("/data/file.dat", 13));
    ck_assert_uint_eq(iolens_file_count(), 5);
}
END_TEST

START_TEST(different_paths_different_ids)
{
    struct iolens_file *a = get("/data/a"), *b = get("/data/b"), *ab = get("/data/ab");
    ck_assert_ptr_ne(a, b);
    ck_assert_uint_ne(a->id, b->id);
    ck_assert_uint_ne(a->id, ab->id);
    ck_assert_uint_ne(b->id, ab->id);
    ck_assert_uint_eq(iolens_file_count(), 7);
}
END_TEST

START_TEST(find_never_inserts)
{
    ck_assert_ptr_null(find("/nowhere"));
    ck_assert_uint_eq(iolens_file_count(), 4);
    struct iolens_budget_stats before, after;
    iolens_budget_stats(&before);
    ck_assert_ptr_null(find("/nowhere/else"));
    iolens_budget_stats(&after);
    ck_assert_uint_eq(after.used, before.used);
}
END_TEST

START_TEST(block_size_from_mount)
{
    ck_assert_int_eq(get("/fake_mnt/x")->fs_block_size, 1234);
    ck_assert_int_eq(get("/fake_mnt")->fs_block_size, 1234);
    ck_assert_int_eq(get("/fake_mntx/y")->fs_block_size, 0);
    ck_assert_int_eq(get("/elsewhere")->fs_block_size, 0);
}
END_TEST

/* -------------------------------------------------------- collisions -- */

static uint64_t constant_hash(const char *path, size_t len)
{
    (void)path;
    (void)len;
    return 42;
}

static uint64_t reserved_hash(const char *path, size_t len)
{
    (void)path;
    return len % 16;   /* 0..15: every value reserved */
}

START_TEST(forced_collision_keeps_names_apart)
{
    iolens_file_table_set_hash_for_test(constant_hash);
    static const char *names[] = { "/c/one", "/c/two", "/c/three", "/c/four", "/c/five" };
    struct iolens_file *f[5];
    for (int i = 0; i < 5; i++) {
        f[i] = get(names[i]);
        ck_assert_ptr_nonnull(f[i]);
        ck_assert_str_eq(f[i]->name, names[i]);
    }
    ck_assert_uint_eq(f[0]->id, 42);   /* the first keeps the hash */
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_gt(f[i]->id, IOLENS_ID_RESERVED_MAX);
        for (int j = i + 1; j < 5; j++)
            ck_assert_uint_ne(f[i]->id, f[j]->id);
    }
    /* Each name still finds its own entry, in any order. */
    for (int i = 4; i >= 0; i--) {
        ck_assert_ptr_eq(find(names[i]), f[i]);
        ck_assert_ptr_eq(get(names[i]), f[i]);
    }
    ck_assert_ptr_null(find("/c/six"));
    ck_assert_uint_eq(iolens_file_count(), 9);
}
END_TEST

START_TEST(absurd_collision_chain_is_folded)
{
    /* With one hash for every name, the k-th name walks k ids; past 64 the
     * hash is considered broken and the file is folded, not looped on. */
    iolens_file_table_set_hash_for_test(constant_hash);
    char path[32];
    for (int i = 0; i < 64; i++) {
        snprintf(path, sizeof path, "/chain/%d", i);
        ck_assert_ptr_nonnull(get(path));
    }
    ck_assert_ptr_null(get("/chain/64"));
    ck_assert_ptr_nonnull(find("/chain/63"));
    ck_assert_ptr_nonnull(get("/chain/0"));
    ck_assert_uint_eq(iolens_file_count(), 4 + 64);
}
END_TEST

START_TEST(hash_never_reserved)
{
    iolens_file_table_set_hash_for_test(reserved_hash);
    for (size_t len = 0; len < 16; len++)
        ck_assert_uint_gt(iolens_path_hash("xxxxxxxxxxxxxxxx", len), IOLENS_ID_RESERVED_MAX);
    ck_assert_uint_eq(iolens_path_hash("abc", 3), 3 ^ 0x9e3779b97f4a7c15ULL);
    struct iolens_file *f = get("/ab");   /* hash 3: <STDOUT>'s id */
    ck_assert_uint_gt(f->id, IOLENS_ID_RESERVED_MAX);
    ck_assert_uint_eq(iolens_file_std(1)->id, IOLENS_ID_STDOUT);
}
END_TEST

/* ---------------------------------------------------------- limits -- */

START_TEST(table_full_returns_null)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    ck_assert_int_eq(iolens_file_table_init(3), 0);
    struct iolens_file *a = get("/f/a"), *b = get("/f/b"), *c = get("/f/c");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_null(get("/f/d"));
    ck_assert_ptr_null(get("/f/e"));
    ck_assert_ptr_eq(get("/f/b"), b);   /* existing entries still found */
    ck_assert_uint_eq(iolens_file_count(), 7);
}
END_TEST

START_TEST(zero_files_folds_everything)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(1 << 16), 0);
    ck_assert_int_eq(iolens_file_table_init(0), 0);
    ck_assert_ptr_null(get("/f/a"));
    ck_assert_ptr_nonnull(iolens_file_other());
}
END_TEST

START_TEST(budget_full_returns_null)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(8192), 0);
    ck_assert_int_eq(iolens_file_table_init(100), 0);   /* 256 slots: 2 KiB */
    char path[64];
    int kept = 0;
    for (int i = 0; i < 100; i++) {
        snprintf(path, sizeof path, "/budget/file%04d", i);
        if (get(path) == NULL)
            break;
        kept++;
    }
    ck_assert_int_gt(kept, 10);
    ck_assert_int_lt(kept, 100);
    /* Every later new name is refused.  The table does not count the
     * refusal itself: the layer folds the file and notes it, and that
     * note is what "needed" accounts for. */
    struct iolens_budget_stats st;
    ck_assert_ptr_null(get("/budget/another"));
    iolens_budget_add_demand(iolens_file_folded_bytes);
    iolens_file_note_folded(iolens_path_hash("/budget/another", 15), 15, IOLENS_LAYER_POSIX, 1);
    iolens_budget_stats(&st);
    ck_assert_uint_gt(st.needed, st.used);
    ck_assert_ptr_nonnull(get("/budget/file0000"));
    ck_assert_uint_eq(iolens_file_count(), 4 + (size_t)kept);
    /* No layer record either. */
    ck_assert_ptr_null(iolens_file_layer_record(iolens_file_other(), IOLENS_LAYER_POSIX, 4096, NULL));
}
END_TEST

START_TEST(init_fails_when_budget_too_small)
{
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(4096), 0);
    ck_assert_int_eq(iolens_file_table_init(1000), -1);   /* 2048 slots: 16 KiB */
    ck_assert_ptr_null(get("/x"));
    ck_assert_ptr_null(find("/x"));
}
END_TEST

/* ----------------------------------------------------- layer records -- */

static int init_calls;
static void init_rec(void *rec, struct iolens_file *file)
{
    init_calls++;
    *(uint64_t *)rec = file->id;
}

START_TEST(layer_record_created_once)
{
    struct iolens_file *f = get("/data/r");
    uint64_t *rec = iolens_file_layer_record(f, IOLENS_LAYER_POSIX, 64, init_rec);
    ck_assert_ptr_nonnull(rec);
    ck_assert_uint_eq(rec[0], f->id);
    ck_assert_uint_eq(rec[1], 0);
    ck_assert_ptr_eq(iolens_file_layer_record(f, IOLENS_LAYER_POSIX, 64, init_rec), rec);
    ck_assert_int_eq(init_calls, 1);
    void *stdio = iolens_file_layer_record(f, IOLENS_LAYER_STDIO, 32, NULL);
    ck_assert_ptr_nonnull(stdio);
    ck_assert_ptr_ne(stdio, rec);
    ck_assert_int_eq(init_calls, 1);
    ck_assert_ptr_eq(atomic_load(&f->layer_rec[IOLENS_LAYER_STDIO]), stdio);
}
END_TEST

/* --------------------------------------------------------- threads -- */

#define NTHREADS 4
#define NPATHS 1000

struct inserter {
    int start;
    struct iolens_file *got[NPATHS];
};

static void path_name(char *buf, size_t size, int i)
{
    snprintf(buf, size, "/threads/dir%d/file%d", i % 7, i);
}

/* Every thread inserts all paths, each starting at a different place, so
 * threads race on the same names. */
static void *insert_all(void *arg)
{
    struct inserter *in = arg;
    char path[64];
    for (int k = 0; k < NPATHS; k++) {
        int i = (in->start + k) % NPATHS;
        path_name(path, sizeof path, i);
        in->got[i] = get(path);
    }
    return NULL;
}

static void run_inserters(void)
{
    static struct inserter in[NTHREADS];
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        in[t].start = t * (NPATHS / NTHREADS) / 3;
        ck_assert_int_eq(pthread_create(&th[t], NULL, insert_all, &in[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);

    ck_assert_uint_eq(iolens_file_count(), 4 + NPATHS);
    static uint64_t ids[NPATHS];
    char path[64];
    for (int i = 0; i < NPATHS; i++) {
        struct iolens_file *f = in[0].got[i];
        ck_assert_ptr_nonnull(f);
        for (int t = 1; t < NTHREADS; t++)
            ck_assert_ptr_eq(in[t].got[i], f);
        path_name(path, sizeof path, i);
        ck_assert_str_eq(f->name, path);
        ck_assert_ptr_eq(find(path), f);
        ids[i] = f->id;
    }
    qsort(ids, NPATHS, sizeof ids[0], iolens_compare_u64);
    for (int i = 1; i < NPATHS; i++)
        ck_assert_uint_ne(ids[i - 1], ids[i]);
    ck_assert_uint_gt(ids[0], IOLENS_ID_RESERVED_MAX);
}

START_TEST(threads_insert_same_paths)
{
    run_inserters();
}
END_TEST

/* Only 50 distinct hashes for 1000 names: id chains of about 20, built
 * concurrently, must still give unique ids. */
static uint64_t few_hashes(const char *path, size_t len)
{
    return 1000 + XXH3_64bits(path, len) % 50;
}

START_TEST(threads_insert_colliding_paths)
{
    iolens_file_table_set_hash_for_test(few_hashes);
    run_inserters();
}
END_TEST

/* ---------------------------------------------------------- folding -- */

static void note_distinct(uint64_t n, int times)
{
    for (int t = 0; t < times; t++)
        for (uint64_t i = 0; i < n; i++)
            iolens_file_note_folded(XXH3_64bits(&i, sizeof i), 20, IOLENS_LAYER_POSIX, 1);
}

static void expect_within_5_percent(uint64_t estimate, uint64_t exact)
{
    double err = ((double)estimate - (double)exact) / (double)exact;
    ck_assert_msg(err < 0.05 && err > -0.05, "estimate %llu for %llu (%.2f%%)",
                  (unsigned long long)estimate, (unsigned long long)exact, err * 100);
}

START_TEST(nothing_folded)
{
    ck_assert_uint_eq(iolens_file_folded_opens(), 0);
    ck_assert_uint_eq(iolens_file_folded_files(), 0);
}
END_TEST

START_TEST(hll_small_counts_near_exact)
{
    note_distinct(10, 3);
    ck_assert_uint_eq(iolens_file_folded_opens(), 30);
    ck_assert_uint_eq(iolens_file_folded_files(), 10);
}
END_TEST

START_TEST(hll_10000)
{
    note_distinct(10000, 2);
    ck_assert_uint_eq(iolens_file_folded_opens(), 20000);
    expect_within_5_percent(iolens_file_folded_files(), 10000);
}
END_TEST

START_TEST(hll_100000)
{
    note_distinct(100000, 1);
    ck_assert_uint_eq(iolens_file_folded_opens(), 100000);
    expect_within_5_percent(iolens_file_folded_files(), 100000);
}
END_TEST

START_TEST(hll_sequential_hashes)
{
    /* Poorly mixed input (consecutive integers) is mixed internally. */
    for (uint64_t i = 0; i < 10000; i++)
        iolens_file_note_folded(i, 20, IOLENS_LAYER_POSIX, 1);
    expect_within_5_percent(iolens_file_folded_files(), 10000);
}
END_TEST

/* "needed" covers every distinct folded file, reopens once: an entry with
 * its name and a record of each layer that folded (with its call-site
 * table), for the estimate plus
 * three standard errors (file_table.h), and nothing is allocated. */
START_TEST(folded_needed_covers_every_folded_file)
{
    iolens_budget_add_demand(iolens_file_folded_bytes);
    ck_assert_ptr_nonnull(iolens_file_layer_record(iolens_file_other(), IOLENS_LAYER_POSIX, 800, NULL));
    struct iolens_budget_stats before, after;
    iolens_budget_stats(&before);
    for (int t = 0; t < 3; t++)
        for (uint64_t i = 0; i < 1000; i++)
            iolens_file_note_folded(XXH3_64bits(&i, sizeof i), 30, IOLENS_LAYER_POSIX, t == 0);
    iolens_budget_stats(&after);
    ck_assert_uint_eq(after.used, before.used);
    ck_assert_uint_eq(iolens_file_folded_opens(), 1000);
    expect_within_5_percent(iolens_file_folded_files(), 1000);
    /* ... and the call-site table a POSIX record gets at its first write. */
    uint64_t per_file =
        ((sizeof(struct iolens_file) + 31 + 15) / 16 * 16) + 800 + iolens_sites_table_size();
    ck_assert_uint_ge(after.needed - before.needed, 1000 * per_file);
    ck_assert_uint_le(after.needed - before.needed, 1100 * per_file);
}
END_TEST

/* A stat or unlink of a folded path counts as a folded file, not as an
 * open. */
START_TEST(non_open_folds_count_as_files)
{
    iolens_file_note_folded(777, 10, IOLENS_LAYER_POSIX, 0);
    iolens_file_note_folded(778, 10, IOLENS_LAYER_POSIX, 0);
    ck_assert_uint_eq(iolens_file_folded_opens(), 0);
    ck_assert_uint_eq(iolens_file_folded_files(), 2);
}
END_TEST

START_TEST(init_resets_folding)
{
    note_distinct(50, 1);
    ck_assert_uint_eq(iolens_file_folded_opens(), 50);
    iolens_budget_fini();
    ck_assert_int_eq(iolens_budget_init(1 << 20), 0);
    ck_assert_int_eq(iolens_file_table_init(16), 0);
    ck_assert_uint_eq(iolens_file_folded_opens(), 0);
    ck_assert_uint_eq(iolens_file_folded_files(), 0);
}
END_TEST

static void *fold_many(void *arg)
{
    uint64_t base = (uint64_t)(uintptr_t)arg;
    for (uint64_t i = 0; i < 20000; i++)
        iolens_file_note_folded(XXH3_64bits_withSeed(&i, sizeof i, base % 2), 10, IOLENS_LAYER_POSIX, 1);
    return NULL;
}

START_TEST(folding_from_threads_is_exact)
{
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        ck_assert_int_eq(pthread_create(&th[t], NULL, fold_many, (void *)(uintptr_t)t), 0);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    ck_assert_uint_eq(iolens_file_folded_opens(), NTHREADS * 20000);
    expect_within_5_percent(iolens_file_folded_files(), 40000);   /* two seeds */
}
END_TEST

static Suite *file_table_suite(void)
{
    Suite *s = suite_create("file_table");
    TCase *tc = tcase_create("table");
    tcase_add_checked_fixture(tc, setup_big, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, reserved_entries);
    tcase_add_test(tc, foreach_visits_reserved_and_hashed);
    tcase_add_test(tc, same_path_same_entry);
    tcase_add_test(tc, different_paths_different_ids);
    tcase_add_test(tc, find_never_inserts);
    tcase_add_test(tc, block_size_from_mount);
    tcase_add_test(tc, forced_collision_keeps_names_apart);
    tcase_add_test(tc, absurd_collision_chain_is_folded);
    tcase_add_test(tc, hash_never_reserved);
    tcase_add_test(tc, table_full_returns_null);
    tcase_add_test(tc, zero_files_folds_everything);
    tcase_add_test(tc, budget_full_returns_null);
    tcase_add_test(tc, init_fails_when_budget_too_small);
    tcase_add_test(tc, layer_record_created_once);
    tcase_add_test(tc, threads_insert_same_paths);
    tcase_add_test(tc, threads_insert_colliding_paths);
    suite_add_tcase(s, tc);
    TCase *fold = tcase_create("folding");
    tcase_add_checked_fixture(fold, setup_big, teardown);
    tcase_set_timeout(fold, 60);
    tcase_add_test(fold, nothing_folded);
    tcase_add_test(fold, hll_small_counts_near_exact);
    tcase_add_test(fold, hll_10000);
    tcase_add_test(fold, hll_100000);
    tcase_add_test(fold, hll_sequential_hashes);
    tcase_add_test(fold, folded_needed_covers_every_folded_file);
    tcase_add_test(fold, non_open_folds_count_as_files);
    tcase_add_test(fold, init_resets_folding);
    tcase_add_test(fold, folding_from_threads_is_exact);
    suite_add_tcase(s, fold);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(file_table_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
