/* Unit test of the MPI-IO layer's bookkeeping (lib/layers/mpiio_layer.c), driven
 * through its API with made-up handles, request values and times, so that
 * orderings a real program produces only by chance (completions out of
 * issue order, a request value reused before the old request was settled,
 * a full request table) are checked deterministically.
 *
 * test_mpiio_layer.sh links it with the build tree's libiolens-core.a and
 * runs it with IOLENS_DISABLE=1, so the runtime's own start-up stays out
 * of the way; the test sets up the configuration (the default excluded
 * paths), the budget, the record table and the layer itself.  MPI is real (datatype sizes come from PMPI).  Times are in
 * clock units, as the wrappers pass them; the packed records are in
 * seconds (units x iolens_clock_seconds_per_unit()). */
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layers/access_pattern.h"
#include "core/budget.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "core/mpi_handles.h"
#include "layers/layer_ops.h"
#include "layers/mpiio_layer.h"
#include "core/state.h"

static int checks, failures;

static void expect_i(int64_t want, int64_t got, const char *what, int line)
{
    checks++;
    if (want != got) {
        failures++;
        printf("FAIL (line %d): %s: expected %lld, got %lld\n", line, what, (long long)want,
               (long long)got);
    }
}

/* want_units clock units, as packed into seconds. */
static void expect_t(double want_units, double got_seconds, const char *what, int line)
{
    double want = want_units * iolens_clock_seconds_per_unit();
    checks++;
    if (fabs(want - got_seconds) > 1e-12 * (fabs(want) + 1e-300)) {
        failures++;
        printf("FAIL (line %d): %s: expected %.17g s, got %.17g s\n", line, what, want,
               got_seconds);
    }
}

#define EXPECT(want, got) expect_i((want), (got), #got, __LINE__)
#define EXPECT_T(want_units, got) expect_t((want_units), (got), #got, __LINE__)

#define DIR "/tmp/iolens-mpiio-unit"
#define FH(n) ((MPI_File)(uintptr_t)(0x10000u + 0x100u * (n)))
/* A request handle from a number: an int under MPICH, a pointer under
 * Open MPI (the layer only compares and stores them). */
#define REQ(n) ((MPI_Request)(intptr_t)(n))

/* The packed record of path (zeroed if the layer emits none for it). */
static struct iolens_mpiio_record rec;
static uint64_t wanted_id;
static int emitted;

static void grab(const void *record, void *arg)
{
    const struct iolens_mpiio_record *r = record;
    (void)arg;
    if (r->id == wanted_id) {
        rec = *r;
        emitted++;
    }
}

static const struct iolens_mpiio_record *packed(const char *path)
{
    struct iolens_file *file = iolens_file_find(path, strlen(path));
    memset(&rec, 0, sizeof rec);
    emitted = 0;
    wanted_id = file != NULL ? file->id : 0;
    if (file != NULL)
        iolens_layer_foreach_record(IOLENS_REGION_MPIIO, grab, NULL);
    return &rec;
}

static int pending(void)
{
    return atomic_load(&iolens_mpiio_pending);
}

/* Completes reqs[0..n) as MPI would (MPI_REQUEST_NULL) and settles w. */
static void complete(const struct iolens_mpiio_watch *w, MPI_Request *reqs, int n, double t1)
{
    for (int i = 0; i < n; i++)
        reqs[i] = MPI_REQUEST_NULL;
    iolens_mpiio_settle(w, reqs, t1);
}

static void test_open_and_blocking(void)
{
    const char *a = DIR "/a";
    iolens_mpiio_open(MPI_COMM_SELF, a, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      FH(1), 1000, 1010);
    EXPECT(1, iolens_mpiio_is_traced(FH(1)));
    EXPECT(0, iolens_mpiio_is_traced(FH(2)));
    iolens_mpiio_access(FH(1), IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, MPI_INT, 25, 2000, 2100);
    MPI_Datatype four_ints;
    MPI_Type_contiguous(4, MPI_INT, &four_ints);
    MPI_Type_commit(&four_ints);
    iolens_mpiio_access(FH(1), IOLENS_MPIIO_READ, IOLENS_MPIIO_COLL, four_ints, 2, 2200, 2210);
    MPI_Type_free(&four_ints);
    /* A call on an untracked handle changes nothing. */
    iolens_mpiio_access(FH(2), IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, MPI_INT, 25, 2300, 2400);

    const struct iolens_mpiio_record *r = packed(a);
    EXPECT(1, emitted);
    EXPECT(1, r->counters[MPIIO_INDEP_OPENS]);
    EXPECT(0, r->counters[MPIIO_COLL_OPENS]);
    EXPECT(MPI_MODE_CREATE | MPI_MODE_WRONLY, r->counters[MPIIO_MODE]);
    EXPECT(0, r->counters[MPIIO_HINTS]);
    EXPECT(1, r->counters[MPIIO_INDEP_WRITES]);
    EXPECT(100, r->counters[MPIIO_BYTES_WRITTEN]);
    EXPECT(1, r->counters[MPIIO_COLL_READS]);
    EXPECT(32, r->counters[MPIIO_BYTES_READ]);
    EXPECT(1, r->counters[MPIIO_DERIVED_DATATYPES]);
    EXPECT(1, r->counters[MPIIO_RW_SWITCHES]);
    EXPECT(100, r->counters[MPIIO_ACCESS1_ACCESS]);
    EXPECT(32, r->counters[MPIIO_ACCESS2_ACCESS]);
    EXPECT_T(10, r->fcounters[MPIIO_F_META_TIME]);
    EXPECT_T(100, r->fcounters[MPIIO_F_WRITE_TIME]);
    EXPECT_T(10, r->fcounters[MPIIO_F_READ_TIME]);
    EXPECT_T(1000, r->fcounters[MPIIO_F_OPEN_START_TIMESTAMP]);
    EXPECT_T(2000, r->fcounters[MPIIO_F_WRITE_START_TIMESTAMP]);
}

static void test_paths(void)
{
    /* A ROMIO driver prefix is not part of the name; excluded paths are
     * not tracked; relative names are resolved against the cwd. */
    iolens_mpiio_open(MPI_COMM_SELF, "nfs:" DIR "/b", MPI_MODE_RDONLY, MPI_INFO_NULL, FH(3), 1,
                      2);
    EXPECT(1, iolens_mpiio_is_traced(FH(3)));
    EXPECT(1, packed(DIR "/b")->counters[MPIIO_INDEP_OPENS]);
    iolens_mpiio_open(MPI_COMM_SELF, "/proc/self/status", MPI_MODE_RDONLY, MPI_INFO_NULL, FH(4),
                      1, 2);
    EXPECT(0, iolens_mpiio_is_traced(FH(4)));
    EXPECT(0, iolens_file_find("/proc/self/status", 17) != NULL);
}

static void test_nonblocking(void)
{
    const char *a = DIR "/a";
    MPI_Request req[2] = {REQ(101), MPI_REQUEST_NULL};
    struct iolens_mpiio_watch w;

    iolens_mpiio_issue(FH(1), IOLENS_MPIIO_WRITE, MPI_BYTE, 10, req[0], 3000, 3001);
    EXPECT(1, pending());
    iolens_mpiio_watch(&w, req, 2);
    EXPECT(1, w.n);
    iolens_mpiio_settle(&w, req, 3050); /* not completed: still pending */
    EXPECT(1, pending());
    EXPECT(0, packed(a)->counters[MPIIO_MAX_WRITE_TIME_SIZE] == 10);
    complete(&w, req, 1, 3150);
    EXPECT(0, pending());
    const struct iolens_mpiio_record *r = packed(a);
    EXPECT(1, r->counters[MPIIO_NB_WRITES]);
    EXPECT(110, r->counters[MPIIO_BYTES_WRITTEN]);
    EXPECT(10, r->counters[MPIIO_MAX_WRITE_TIME_SIZE]);
    EXPECT_T(150, r->fcounters[MPIIO_F_MAX_WRITE_TIME]);
    EXPECT_T(250, r->fcounters[MPIIO_F_WRITE_TIME]);
    EXPECT_T(3150, r->fcounters[MPIIO_F_WRITE_END_TIMESTAMP]);

    /* Unknown and null requests are not watched. */
    MPI_Request other[2] = {REQ(999), MPI_REQUEST_NULL};
    iolens_mpiio_watch(&w, other, 2);
    EXPECT(0, w.n);
}

static void test_out_of_order(void)
{
    /* Issued at 4000 and 4100, completed together at 4300 and settled in
     * the reverse order: the union is 300 units, not 200. */
    const char *a = DIR "/a";
    MPI_Request reqs[2] = {REQ(202), REQ(201)};
    struct iolens_mpiio_watch w;
    iolens_mpiio_issue(FH(1), IOLENS_MPIIO_WRITE, MPI_BYTE, 1, REQ(201), 4000, 4001);
    iolens_mpiio_issue(FH(1), IOLENS_MPIIO_WRITE, MPI_BYTE, 1, REQ(202), 4100, 4101);
    iolens_mpiio_watch(&w, reqs, 2);
    EXPECT(2, w.n);
    complete(&w, reqs, 2, 4300);
    EXPECT(0, pending());
    const struct iolens_mpiio_record *r = packed(a);
    EXPECT(3, r->counters[MPIIO_NB_WRITES]);
    EXPECT_T(250 + 300, r->fcounters[MPIIO_F_WRITE_TIME]);
    EXPECT(1, r->counters[MPIIO_MAX_WRITE_TIME_SIZE]); /* 4000 -> 4300 */
    EXPECT_T(2000, r->fcounters[MPIIO_F_WRITE_START_TIMESTAMP]);
}

static void test_reused_request_value(void)
{
    /* X (7 bytes) completes, but before its completion is settled MPI
     * hands out the same request value to Y (9 bytes).  A watch taken
     * after that belongs to Y; X's own watch still settles X. */
    const char *a = DIR "/a";
    MPI_Request rx = REQ(301), ry = REQ(301);
    struct iolens_mpiio_watch wx, wy;
    iolens_mpiio_issue(FH(1), IOLENS_MPIIO_WRITE, MPI_BYTE, 7, REQ(301), 5000, 5001);
    iolens_mpiio_watch(&wx, &rx, 1);
    iolens_mpiio_issue(FH(1), IOLENS_MPIIO_WRITE, MPI_BYTE, 9, REQ(301), 5200, 5201);
    EXPECT(2, pending());
    iolens_mpiio_watch(&wy, &ry, 1);
    complete(&wy, &ry, 1, 5900); /* Y: 700 units, the slowest so far */
    EXPECT(1, pending());
    EXPECT(9, packed(a)->counters[MPIIO_MAX_WRITE_TIME_SIZE]);
    complete(&wx, &rx, 1, 5900); /* X: 900 units, now the slowest */
    EXPECT(0, pending());
    const struct iolens_mpiio_record *r = packed(a);
    EXPECT(7, r->counters[MPIIO_MAX_WRITE_TIME_SIZE]);
    EXPECT_T(900, r->fcounters[MPIIO_F_MAX_WRITE_TIME]);
    /* Settling the same watch again finds nothing. */
    complete(&wy, &ry, 1, 9000);
    EXPECT_T(5900, packed(a)->fcounters[MPIIO_F_WRITE_END_TIMESTAMP]);
    EXPECT(5, packed(a)->counters[MPIIO_NB_WRITES]);
}

static void test_table_full(void)
{
    /* Fill the pending table, then one more: that one is timed at issue. */
    static MPI_Request reqs[IOLENS_MPIIO_MAX_PENDING];
    static struct iolens_mpiio_watch w;
    const char *c = DIR "/c";
    iolens_mpiio_open(MPI_COMM_SELF, c, MPI_MODE_RDWR, MPI_INFO_NULL, FH(5), 1, 2);
    int n = 0;
    for (int i = 0; i < IOLENS_MPIIO_MAX_PENDING && pending() == i; i++, n++) {
        reqs[i] = REQ(1000 + i);
        iolens_mpiio_issue(FH(5), IOLENS_MPIIO_READ, MPI_BYTE, 8, reqs[i], 6000, 6001);
    }
    EXPECT(n, pending());
    EXPECT(1, n >= 64); /* the default budget holds a good table */
    iolens_mpiio_issue(FH(5), IOLENS_MPIIO_READ, MPI_BYTE, 4096, REQ(5000), 6100, 6140);
    EXPECT(n, pending());
    const struct iolens_mpiio_record *r = packed(c);
    EXPECT(n + 1, r->counters[MPIIO_NB_READS]);
    EXPECT(8 * n + 4096, r->counters[MPIIO_BYTES_READ]);
    EXPECT(4096, r->counters[MPIIO_MAX_READ_TIME_SIZE]);
    EXPECT_T(40, r->fcounters[MPIIO_F_READ_TIME]);
    iolens_mpiio_watch(&w, reqs, n);
    EXPECT(n, w.n);
    complete(&w, reqs, n, 6200);
    EXPECT(0, pending());
    r = packed(c);
    EXPECT_T(200, r->fcounters[MPIIO_F_READ_TIME]); /* 6000 -> 6200 covers the rest */
    EXPECT(8, r->counters[MPIIO_MAX_READ_TIME_SIZE]);
}

static void test_split_and_meta(void)
{
    const char *d = DIR "/d";
    MPI_Info info;
    MPI_Info_create(&info);
    iolens_mpiio_open(MPI_COMM_SELF, d, MPI_MODE_RDWR, info, FH(6), 100, 110);
    MPI_Info_free(&info);
    iolens_mpiio_split_end(FH(6), 150); /* no _begin: nothing */
    iolens_mpiio_split_begin(FH(6), IOLENS_MPIIO_WRITE, MPI_DOUBLE, 512, 7000);
    iolens_mpiio_split_end(FH(6), 7500);
    iolens_mpiio_set_info(FH(6), 7600, 7610);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    iolens_mpiio_set_view(FH(6), 0, MPI_INT, vec, 7700, 7710);
    MPI_Type_free(&vec);
    iolens_mpiio_set_view(FH(6), 0, MPI_BYTE, MPI_BYTE, 7800, 7810);
    iolens_mpiio_sync(FH(6), 7900, 7910);
    iolens_mpiio_meta(FH(6), 8000, 8010);
    struct iolens_mpiio_rec *rc = iolens_mpiio_close_begin(FH(6));
    EXPECT(1, rc != NULL);
    EXPECT(0, iolens_mpiio_is_traced(FH(6)));
    iolens_mpiio_close_end(rc, 8100, 8110);
    iolens_mpiio_sync(FH(6), 8200, 8300); /* closed: nothing */

    const struct iolens_mpiio_record *r = packed(d);
    EXPECT(1, r->counters[MPIIO_SPLIT_WRITES]);
    EXPECT(0, r->counters[MPIIO_COLL_WRITES]);
    EXPECT(4096, r->counters[MPIIO_BYTES_WRITTEN]);
    EXPECT_T(500, r->fcounters[MPIIO_F_WRITE_TIME]);
    EXPECT(2, r->counters[MPIIO_HINTS]);
    EXPECT(2, r->counters[MPIIO_VIEWS]);
    EXPECT(1, r->counters[MPIIO_DERIVED_VIEWS]);
    EXPECT(1, r->counters[MPIIO_SYNCS]);
    EXPECT_T(10 * 7, r->fcounters[MPIIO_F_META_TIME]);
    EXPECT_T(8100, r->fcounters[MPIIO_F_CLOSE_START_TIMESTAMP]);
    EXPECT_T(8110, r->fcounters[MPIIO_F_CLOSE_END_TIMESTAMP]);
}

/* Under a view of plain bytes the byte offset of an access is the view's
 * displacement plus its position, known without asking MPI (which cannot
 * answer for these made-up handles): the second access of 8 bytes at
 * position 8 of a view at 100 starts where the first (100..108) ended, so
 * it is consecutive.  (Under any other view the offset comes from MPI,
 * which these handles would crash: the MPI tests with real files cover
 * that.) */
static void test_byte_view_offsets(void)
{
    const char *v = DIR "/v";
    iolens_mpiio_open(MPI_COMM_SELF, v, MPI_MODE_RDWR, MPI_INFO_NULL, FH(7), 100, 110);
    iolens_mpiio_set_view(FH(7), 100, MPI_BYTE, MPI_BYTE, 120, 130);
    iolens_mpiio_access_at(FH(7), IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, MPI_BYTE, 8, 0, 200, 210);
    iolens_mpiio_access_at(FH(7), IOLENS_MPIIO_WRITE, IOLENS_MPIIO_INDEP, MPI_BYTE, 8, 8, 300, 310);
    iolens_mpiio_close_end(iolens_mpiio_close_begin(FH(7)), 600, 610);
    const struct iolens_mpiio_record *r = packed(v);
    EXPECT(2, r->counters[MPIIO_INDEP_WRITES]);
    EXPECT(16, r->counters[MPIIO_BYTES_WRITTEN]);
    EXPECT(1, r->counters[MPIIO_VIEWS]);
    EXPECT(1, r->counters[MPIIO_PAT_STEPS + IOLENS_PAT_CONSEC]);
}

static void test_reset(void)
{
    MPI_Request req = REQ(777);
    iolens_mpiio_issue(FH(3), IOLENS_MPIIO_READ, MPI_BYTE, 1, req, 9000, 9001);
    EXPECT(1, pending());
    iolens_layer_reset(IOLENS_LAYER_MPIIO);
    EXPECT(0, pending());
    packed(DIR "/a");
    EXPECT(0, emitted);
    struct iolens_mpiio_watch w;
    iolens_mpiio_watch(&w, &req, 1);
    EXPECT(0, w.n);
}

/* Sums every record's opens; notes the <other files> record's. */
static int64_t all_opens, other_opens;

static void sum_opens(const void *record, void *arg)
{
    const struct iolens_mpiio_record *r = record;
    (void)arg;
    int64_t n = r->counters[MPIIO_INDEP_OPENS] + r->counters[MPIIO_COLL_OPENS];
    all_opens += n;
    if (r->id == IOLENS_ID_OTHER_FILES)
        other_opens += n;
}

static void test_folding(void)
{
    /* More files than the record table holds: the rest are counted in
     * <other files>, and the opens stay exact. */
    enum { NFILES = 3000 };
    for (int i = 0; i < NFILES; i++) {
        char path[64];
        snprintf(path, sizeof path, DIR "/many/%d", i);
        iolens_mpiio_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, FH(100), 1, 2);
        iolens_mpiio_access(FH(100), IOLENS_MPIIO_READ, IOLENS_MPIIO_INDEP, MPI_BYTE, 3, 3, 4);
        iolens_mpiio_close_end(iolens_mpiio_close_begin(FH(100)), 5, 6);
    }
    all_opens = other_opens = 0;
    iolens_layer_foreach_record(IOLENS_REGION_MPIIO, sum_opens, NULL);
    EXPECT(NFILES, all_opens);
    EXPECT(1, other_opens > 0);
    EXPECT((int64_t)iolens_file_folded_opens(), other_opens);
    struct iolens_file *other = iolens_file_other();
    wanted_id = other->id;
    emitted = 0;
    iolens_layer_foreach_record(IOLENS_REGION_MPIIO, grab, NULL);
    EXPECT(1, emitted);
    EXPECT(3 * other_opens, rec.counters[MPIIO_BYTES_READ]);
}

static const char *env(const char *name)
{
    return getenv(name);
}

/* The runtime finds the MPI's predefined handles in the process (Open
 * MPI's are variables of libmpi); this program, linked to libmpi, has
 * them at hand. */
static void *lookup_handle(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    iolens_mpi_handles_resolve(lookup_handle);
    char cwd[4096];
    iolens_config_load(iolens_state_config(), env, getcwd(cwd, sizeof cwd));
    iolens_clock_init();
    if (iolens_budget_init(2u << 20) != 0 || iolens_file_table_init(1024) != 0) {
        printf("FAIL: cannot set up the budget and the record table\n");
        return 1;
    }
    iolens_layer_init(IOLENS_LAYER_MPIIO);
    test_open_and_blocking();
    test_paths();
    test_nonblocking();
    test_out_of_order();
    test_reused_request_value();
    test_table_full();
    test_split_and_meta();
    test_byte_view_offsets();
    test_reset();
    test_folding();
    MPI_Finalize();
    if (failures > 0) {
        printf("%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("PASS: %d checks\n", checks);
    return 0;
}
