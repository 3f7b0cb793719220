/* How many files the default memory budget keeps apart, by byte
 * accounting: the runtime's start-up allocations (lib/runtime.c:
 * build_state, without the mount table, which depends on the machine),
 * then files opened, written once and closed through the POSIX layer, as
 * bench/run-memory.sh's prog_stress does, until the first one is folded
 * into <other files>.  Deterministic: nothing here depends on timing.
 * Past the pool's cap of live records the closed files are parked
 * (layers/park_pool.h), and a file at rest costs its entry and its
 * packed record.
 *
 * The stdio and HDF5 layers take their tables at start-up as in
 * libiolens.so; the Makefile links them in (-u), and the test checks they
 * are. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/call_site.h"
#include "core/config.h"
#include "core/fd_table.h"
#include "core/file_table.h"
#include "iolens/log_format.h"
#include "layers/layer_intervals.h"
#include "layers/layer_ops.h"
#include "layers/park_pool.h"
#include "layers/posix_layer.h"
#include "layers/record_park.h"

/* The path length of bench/run-memory.sh's files under a mktemp
 * directory: /tmp/tmp.XXXXXXXXXX/d/f0000000 is 31 bytes, as is
 * PATH_FMT. */
#define PATH_FMT "/tmp/tmp.iolensKEPT/d/f%08d"
#define FD 100

/* The figures this build reaches; a change that makes a file cost more
 * fails here.  bench/README.md gives the bytes by part. */
/* A file at rest costs its entry and PARKED_RECORD_MAX_BYTES. */
#define POSIX_RECORD_MAX_BYTES 896u
#define FILE_COST_MAX_BYTES 992u
#define PARKED_RECORD_MAX_BYTES 160u
#define FILES_KEPT_MIN 5000

static void start_runtime(size_t memory)
{
    ck_assert_int_eq(iolens_budget_init(memory), 0);
    ck_assert_int_eq(iolens_file_table_init_for_budget(), 0);
    ck_assert_int_eq(iolens_fd_table_init(), 0);
    iolens_intervals_init(memory);
    iolens_layers_init();
}

/* Writes buf to fd from one call site (as the write wrapper notes it),
 * from t0 to t0 + 1. */
static void write_from_site(int fd, const char *buf, double t0)
{
    iolens_site_note((void *)write_from_site);
    iolens_posix_write(fd, buf, -1, (ssize_t)strlen(buf), t0, t0 + 1.0);
}

/* Closes fd, from t0 to t0 + 1. */
static void close_fd(int fd, double t0)
{
    iolens_posix_close_end(iolens_posix_close_begin(fd), 1, t0, t0 + 1.0);
}

/* Opens path (as descriptor FD), writes one byte and closes it; returns
 * 1 if the file got a record of its own. */
static int touch_file(const char *path)
{
    uint64_t folded = iolens_file_folded_opens();
    iolens_posix_open(AT_FDCWD, path, FD, O_CREAT | O_WRONLY | O_TRUNC, 0644, 1.0, 2.0);
    write_from_site(FD, "x", 3.0);
    close_fd(FD, 5.0);
    return iolens_file_folded_opens() == folded;
}

static size_t budget_used(void)
{
    struct iolens_budget_stats st;
    iolens_budget_stats(&st);
    return (size_t)st.used;
}

START_TEST(layers_with_start_up_tables_are_linked)
{
    ck_assert_ptr_nonnull(iolens_layer_ops_of(IOLENS_LAYER_POSIX));
    ck_assert_ptr_nonnull(iolens_layer_ops_of(IOLENS_LAYER_STDIO));
#ifdef IOLENS_HAVE_HDF5
    ck_assert_ptr_nonnull(iolens_layer_ops_of(IOLENS_LAYER_H5D));
#endif
}
END_TEST

/* A file costs its entry (header and name, rounded up) and its POSIX
 * record (rounded up), which holds the site of its one write: nothing
 * else. */
START_TEST(a_file_costs_its_entry_and_its_posix_record)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char path[64];
    snprintf(path, sizeof path, PATH_FMT, 0);
    ck_assert_int_eq(strlen(path), 31);
    ck_assert_int_eq(touch_file(path), 1); /* the first file: fd chunk, ofd */
    size_t before = budget_used();
    snprintf(path, sizeof path, PATH_FMT, 1);
    ck_assert_int_eq(touch_file(path), 1);
    size_t cost = budget_used() - before;

    size_t entry = iolens_budget_round(offsetof(struct iolens_file, name) + strlen(path) + 1);
    size_t record = iolens_budget_round(iolens_posix_record_size());
    ck_assert_uint_eq(entry, 96);
    ck_assert_uint_le(iolens_posix_record_size(), POSIX_RECORD_MAX_BYTES);
    ck_assert_uint_eq(iolens_sites_table_size(), 128);
    ck_assert_uint_eq(cost, entry + record);
    ck_assert_uint_le(cost, FILE_COST_MAX_BYTES);
    iolens_budget_fini();
}
END_TEST

/* The call-site table is attached when a second line reads or writes
 * the file: a file only opened, or written from one line, does not pay
 * it, and it is paid once. */
START_TEST(a_file_written_from_one_line_pays_no_site_table)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char path[64];
    snprintf(path, sizeof path, PATH_FMT, 0);
    ck_assert_int_eq(touch_file(path), 1); /* the first file: fd chunk, ofd */
    size_t before = budget_used();
    snprintf(path, sizeof path, PATH_FMT, 1);
    iolens_posix_open(AT_FDCWD, path, FD, O_CREAT | O_WRONLY | O_TRUNC, 0644, 1.0, 2.0);
    size_t opened = budget_used();
    size_t entry = iolens_budget_round(offsetof(struct iolens_file, name) + strlen(path) + 1);
    ck_assert_uint_eq(opened - before, entry + iolens_budget_round(iolens_posix_record_size()));
    for (int i = 0; i < 3; i++) {
        iolens_site_note((void *)touch_file);
        iolens_posix_write(FD, "x", -1, 1, 3.0 + i, 3.5 + i);
    }
    ck_assert_uint_eq(budget_used(), opened);
    iolens_site_note((void *)start_runtime);
    iolens_posix_write(FD, "y", -1, 1, 7.0, 8.0);
    ck_assert_uint_eq(budget_used() - opened, iolens_sites_table_size());
    iolens_site_note((void *)touch_file);
    iolens_posix_write(FD, "z", -1, 1, 9.0, 10.0);
    iolens_site_note((void *)start_runtime);
    iolens_posix_write(FD, "w", -1, 1, 11.0, 12.0);
    ck_assert_uint_eq(budget_used() - opened, iolens_sites_table_size());
    iolens_posix_close_end(iolens_posix_close_begin(FD), 1, 13.0, 14.0);
    iolens_budget_fini();
}
END_TEST

/* Past the cap, the closed files are parked: each costs its entry and
 * its packed record, and a live record is reused for the next file. */
START_TEST(a_file_at_rest_costs_its_entry_and_its_packed_record)
{
    /* The standard streams' records and <other files>' count too. */
    iolens_posix_set_live_cap_for_test(8 + 4);
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char path[64];
    int n = 0;
    for (; n < 8; n++) {
        snprintf(path, sizeof path, PATH_FMT, n);
        ck_assert_int_eq(touch_file(path), 1);
    }
    struct iolens_pool_stats st;
    iolens_posix_pool_stats(&st);
    ck_assert_uint_eq(st.live, 8 + 4);
    ck_assert_uint_eq(st.parked, 0);
    for (; n < 1008; n++) {
        snprintf(path, sizeof path, PATH_FMT, n);
        ck_assert_int_eq(touch_file(path), 1);
    }
    iolens_posix_pool_stats(&st);
    /* The 8 live records were enough for 1008 files: every closed one
     * was parked when the next file needed a record. */
    ck_assert_uint_eq(st.live, 8 + 4);
    ck_assert_uint_ge(st.parked, 1000);
    ck_assert_uint_le(st.parked, 1008);
    printf("a parked record: %.1f bytes\n", (double)st.parked_bytes / (double)st.parked);
    ck_assert_uint_le(st.parked_bytes, st.parked * PARKED_RECORD_MAX_BYTES);
    iolens_posix_set_live_cap_for_test(0);
    iolens_budget_fini();
}
END_TEST

/* A file refused its first record (every live record held, the budget
 * full) stays folded: a record parking frees later does not give it one,
 * which would split its counts between <other files> and a record of its
 * own. */
START_TEST(a_file_refused_a_record_stays_folded)
{
    iolens_posix_set_live_cap_for_test(4 + 1);
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char a[64], x[64];
    snprintf(a, sizeof a, PATH_FMT, 1);
    snprintf(x, sizeof x, PATH_FMT, 2);
    iolens_posix_open(AT_FDCWD, a, FD, O_RDONLY, -1, 1.0, 2.0); /* the 5th live record */
    struct iolens_file *xf = iolens_file_get(x, strlen(x));
    ck_assert_ptr_nonnull(xf);
    while (iolens_budget_alloc_uncounted(16) != NULL) {
    }
    uint64_t folded = iolens_file_folded_opens();
    iolens_posix_open(AT_FDCWD, x, FD + 1, O_RDONLY, -1, 3.0, 4.0);
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 1);
    ck_assert_ptr_eq(atomic_load(&xf->layer_rec[IOLENS_LAYER_POSIX]), IOLENS_REFUSED_SLOT);
    iolens_posix_close_end(iolens_posix_close_begin(FD + 1), 1, 5.0, 6.0);
    iolens_posix_close_end(iolens_posix_close_begin(FD), 1, 5.0, 6.0);
    /* a is idle now and could be parked for x: x stays folded. */
    iolens_posix_stat_path(AT_FDCWD, x, 7.0, 8.0);
    iolens_posix_open(AT_FDCWD, x, FD + 1, O_RDONLY, -1, 9.0, 10.0);
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 2);
    ck_assert_ptr_eq(atomic_load(&xf->layer_rec[IOLENS_LAYER_POSIX]), IOLENS_REFUSED_SLOT);
    struct iolens_pool_stats st;
    iolens_posix_pool_stats(&st);
    ck_assert_uint_eq(st.parks, 0);
    iolens_posix_set_live_cap_for_test(0);
    iolens_budget_fini();
}
END_TEST

/* The POSIX record of id, as the log would get it; 0 if it has none. */
struct find_record {
    uint64_t id;
    struct iolens_posix_record rec;
    int found;
};

static void find_one(const void *record, void *arg)
{
    struct find_record *f = arg;
    const struct iolens_posix_record *r = record;
    if (r->id == f->id) {
        f->rec = *r;
        f->found = 1;
    }
}

static int packed_record(struct iolens_file *file, struct iolens_posix_record *out)
{
    struct find_record f = {.id = file->id};
    iolens_layer_foreach_record(IOLENS_REGION_POSIX, find_one, &f);
    *out = f.rec;
    return f.found;
}

/* The POSIX intervals of a file, in the main store. */
static unsigned intervals_of(const struct iolens_file *file)
{
    const struct iolens_interval_store *s = &iolens_layer_intervals[IOLENS_LAYER_POSIX];
    unsigned n = 0;
    for (size_t i = 0; i < s->count; i++)
        n += s->iv[i].file_id == file->id;
    return n;
}

static void fill_budget(void)
{
    while (iolens_budget_alloc_uncounted(16) != NULL) {
    }
}

static void *posix_slot(struct iolens_file *file)
{
    return atomic_load(&file->layer_rec[IOLENS_LAYER_POSIX]);
}

/* file was folded whole: a refused file without a record of its own;
 * <other files>' record, which got its counts, in *other. */
static void check_folded_whole(struct iolens_file *file, struct iolens_posix_record *other)
{
    ck_assert_ptr_eq(posix_slot(file), IOLENS_REFUSED_SLOT);
    ck_assert_int_eq(packed_record(file, other), 0);
    ck_assert_int_eq(packed_record(iolens_file_other(), other), 1);
}

/* A parked file revisited when the budget is full and no idle record can
 * be parked for it (b's packed form finds no room) is folded whole into
 * <other files>: every count, its interval and its call site, and the
 * opens it had count as folded.  Before, the revisit's calls went to
 * <other files> and a's record kept only its first open and write: a row
 * with some of its calls missing. */
START_TEST(a_parked_file_revisited_without_room_is_folded_whole)
{
    iolens_posix_set_live_cap_for_test(4 + 1);
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char a[64], b[64];
    snprintf(a, sizeof a, PATH_FMT, 1);
    snprintf(b, sizeof b, PATH_FMT, 2);
    ck_assert_int_eq(touch_file(a), 1); /* the 5th live record */
    ck_assert_int_eq(touch_file(b), 1); /* a is parked for it */
    struct iolens_file *af = iolens_file_find(a, strlen(a));
    struct iolens_file *bf = iolens_file_find(b, strlen(b));
    struct iolens_file *other = iolens_file_other();
    ck_assert(iolens_is_parked(posix_slot(af)));
    ck_assert_uint_eq(intervals_of(af), 1);
    fill_budget();
    uint64_t folded = iolens_file_folded_opens();
    iolens_posix_stat_path(AT_FDCWD, a, 7.0, 8.0);

    struct iolens_posix_record r;
    check_folded_whole(af, &r);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 1);
    ck_assert_int_eq(r.counters[POSIX_WRITES], 1);
    ck_assert_int_eq(r.counters[POSIX_BYTES_WRITTEN], 1);
    ck_assert_int_eq(r.counters[POSIX_STATS], 1); /* the revisit's stat */
    ck_assert(r.fcounters[POSIX_F_OPEN_START_TIMESTAMP] > 0.0);
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 1); /* a's one open */
    struct iolens_pool_stats st;
    iolens_posix_pool_stats(&st);
    ck_assert_uint_eq(st.folds, 1);
    ck_assert_uint_eq(st.parked, 0); /* a's blob freed */
    ck_assert_int_eq(packed_record(bf, &r), 1);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 1);
    ck_assert_uint_eq(intervals_of(af), 0);
    ck_assert_uint_eq(intervals_of(other), 1);
    struct iolens_site_snapshot sn;
    ck_assert_int_eq(iolens_layer_copy_sites(other, iolens_layer_ops_of(IOLENS_LAYER_POSIX), &sn), 1);
    ck_assert_uint_eq(sn.top[0].addr, (uintptr_t)write_from_site);
    ck_assert_uint_eq(sn.top[0].ops, 1);
    ck_assert_int_eq(sn.top[0].bytes, 1);

    /* From then on a is a folded file: its calls go to <other files>. */
    iolens_posix_open(AT_FDCWD, a, FD, O_RDONLY, -1, 9.0, 10.0);
    close_fd(FD, 11.0);
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 2);
    ck_assert_int_eq(packed_record(other, &r), 1);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 2);
    iolens_posix_set_live_cap_for_test(0);
    iolens_budget_fini();
}
END_TEST

/* A descriptor the budget can hold no state for counts into <other
 * files> (fd_table.h); the file's own record, idle, follows it whole,
 * so that its row is not missing that descriptor's calls. */
START_TEST(an_idle_file_whose_descriptor_got_no_state_is_folded_whole)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char a[64], c[64];
    snprintf(a, sizeof a, PATH_FMT, 1);
    snprintf(c, sizeof c, PATH_FMT, 3);
    ck_assert_int_eq(touch_file(c), 1); /* its ofd is recycled */
    iolens_posix_open(AT_FDCWD, a, FD, O_RDWR, -1, 1.0, 2.0); /* takes that ofd */
    struct iolens_file *af = iolens_file_find(a, strlen(a));
    struct iolens_file *cf = iolens_file_find(c, strlen(c));
    fill_budget();
    uint64_t folded = iolens_file_folded_opens();
    iolens_posix_open(AT_FDCWD, c, FD + 1, O_RDWR, -1, 3.0, 4.0);
    write_from_site(FD + 1, "xy", 5.0);
    write_from_site(FD, "z", 5.0);

    struct iolens_posix_record r;
    check_folded_whole(cf, &r);
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 2); /* both of c's */
    ck_assert_int_eq(r.counters[POSIX_OPENS], 2);
    ck_assert_int_eq(r.counters[POSIX_WRITES], 2);
    ck_assert_int_eq(r.counters[POSIX_BYTES_WRITTEN], 3);
    ck_assert_int_eq(packed_record(af, &r), 1); /* a keeps its own */
    ck_assert_int_eq(r.counters[POSIX_OPENS], 1);
    ck_assert_int_eq(r.counters[POSIX_WRITES], 1);
    close_fd(FD + 1, 7.0);
    close_fd(FD, 7.0);
    iolens_budget_fini();
}
END_TEST

/* Opens path as FD, writes "ab" to it and fills the budget: the
 * file's record is held by FD, and nothing more can be had. */
static struct iolens_file *open_and_write_ab(const char *path)
{
    iolens_posix_open(AT_FDCWD, path, FD, O_RDWR | O_CREAT, 0644, 1.0, 2.0);
    write_from_site(FD, "ab", 3.0);
    fill_budget();
    return iolens_file_find(path, strlen(path));
}

/* The same when another descriptor of the file holds its record: the
 * record cannot go while that descriptor counts into it, so it follows
 * whole when the last descriptor is closed.  Before, it kept its own
 * descriptor's calls and lacked the other's. */
START_TEST(a_held_file_whose_descriptor_got_no_state_is_folded_when_idle)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char c[64];
    snprintf(c, sizeof c, PATH_FMT, 3);
    struct iolens_file *cf = open_and_write_ab(c);
    uint64_t folded = iolens_file_folded_opens();
    iolens_posix_open(AT_FDCWD, c, FD + 1, O_RDWR, -1, 5.0, 6.0); /* no state: <other files> */
    write_from_site(FD + 1, "xyz", 7.0);
    ck_assert(iolens_slot_is_live(posix_slot(cf)));
    close_fd(FD + 1, 9.0);
    ck_assert(iolens_slot_is_live(posix_slot(cf)));
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 1);
    close_fd(FD, 11.0);

    struct iolens_posix_record r;
    check_folded_whole(cf, &r);
    ck_assert_uint_eq(iolens_file_folded_opens(), folded + 2);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 2);
    ck_assert_int_eq(r.counters[POSIX_WRITES], 2);
    ck_assert_int_eq(r.counters[POSIX_BYTES_WRITTEN], 5);
    /* Times are scaled to seconds: the last close (12) against c's own
     * first open (1), both in <other files> now. */
    ck_assert(r.fcounters[POSIX_F_OPEN_START_TIMESTAMP] > 0.0);
    ck_assert(r.fcounters[POSIX_F_CLOSE_END_TIMESTAMP] ==
              12.0 * r.fcounters[POSIX_F_OPEN_START_TIMESTAMP]);
    iolens_budget_fini();
}
END_TEST

/* A dup onto a number whose descriptor chunk the budget cannot hold
 * counts into <other files> too (fd_table.h): the file's record lacks
 * that number's calls, and follows them whole once its last descriptor
 * is closed. */
START_TEST(a_file_duplicated_onto_a_number_without_state_folds_when_closed)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char c[64];
    snprintf(c, sizeof c, PATH_FMT, 4);
    struct iolens_file *cf = open_and_write_ab(c);
    iolens_posix_dup(FD, 1000, 5.0, 6.0); /* a new chunk of descriptors: no room */
    write_from_site(1000, "xyz", 7.0);
    close_fd(1000, 9.0);
    ck_assert(iolens_slot_is_live(posix_slot(cf)));
    close_fd(FD, 11.0);

    struct iolens_posix_record r;
    check_folded_whole(cf, &r);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 1);
    ck_assert_int_eq(r.counters[POSIX_DUPS], 1);
    ck_assert_int_eq(r.counters[POSIX_WRITES], 2);
    ck_assert_int_eq(r.counters[POSIX_BYTES_WRITTEN], 5);
    iolens_budget_fini();
}
END_TEST

/* A descriptor the runtime adopts without state (a stdio stream's, made
 * inside the C library: iolens_posix_adopt_fd) counts into <other files>
 * too; the file's record follows whole once its last descriptor is
 * closed.  Before, it kept its own descriptor's calls and lacked the
 * adopted one's. */
START_TEST(a_file_adopted_onto_a_descriptor_without_state_folds_when_closed)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    char c[64];
    snprintf(c, sizeof c, PATH_FMT, 5);
    struct iolens_file *cf = open_and_write_ab(c);
    iolens_posix_adopt_fd(FD + 1, cf); /* no state: <other files> */
    write_from_site(FD + 1, "xyz", 7.0);
    close_fd(FD + 1, 9.0);
    ck_assert(iolens_slot_is_live(posix_slot(cf)));
    close_fd(FD, 11.0);

    struct iolens_posix_record r;
    check_folded_whole(cf, &r);
    ck_assert_int_eq(r.counters[POSIX_OPENS], 1);
    ck_assert_int_eq(r.counters[POSIX_WRITES], 2);
    ck_assert_int_eq(r.counters[POSIX_BYTES_WRITTEN], 5);
    iolens_budget_fini();
}
END_TEST

START_TEST(default_budget_keeps_files_apart)
{
    start_runtime(IOLENS_DEFAULT_MEMORY);
    size_t start_up = budget_used();
    char path[64];
    int kept = 0;
    while (kept < 100000) {
        snprintf(path, sizeof path, PATH_FMT, kept);
        if (!touch_file(path))
            break;
        kept++;
    }
    printf("files kept apart in %u bytes: %d (start-up took %zu bytes)\n", IOLENS_DEFAULT_MEMORY,
           kept, start_up);
    ck_assert_int_ge(kept, FILES_KEPT_MIN);
    /* Folding keeps the counts: the next file's open and write went to
     * <other files>. */
    ck_assert_uint_eq(iolens_file_folded_opens(), 1);
    iolens_budget_fini();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("files_per_budget");
    TCase *tc = tcase_create("budget");
    tcase_add_test(tc, layers_with_start_up_tables_are_linked);
    tcase_add_test(tc, a_file_costs_its_entry_and_its_posix_record);
    tcase_add_test(tc, a_file_written_from_one_line_pays_no_site_table);
    tcase_add_test(tc, a_file_at_rest_costs_its_entry_and_its_packed_record);
    tcase_add_test(tc, a_file_refused_a_record_stays_folded);
    tcase_add_test(tc, a_parked_file_revisited_without_room_is_folded_whole);
    tcase_add_test(tc, an_idle_file_whose_descriptor_got_no_state_is_folded_whole);
    tcase_add_test(tc, a_held_file_whose_descriptor_got_no_state_is_folded_when_idle);
    tcase_add_test(tc, a_file_duplicated_onto_a_number_without_state_folds_when_closed);
    tcase_add_test(tc, a_file_adopted_onto_a_descriptor_without_state_folds_when_closed);
    tcase_add_test(tc, default_budget_keeps_files_apart);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
