/* MPI-IO workloads with known counts, for the test_mpiio_*.sh scripts.
 *
 *   mpiio_prog MODE DIR
 *
 * Every rank r works on files under DIR (absolute); the scripts know what
 * each mode does and check the MPIIO counters exactly.  Any unexpected MPI
 * error or wrong data read back aborts the job with a message.  Modes:
 *
 *  indep    DIR/indep.<r> (MPI_COMM_SELF, CREATE|WRONLY): write_at of 100,
 *           4096 and 4096 bytes of MPI_BYTE and of 10 MPI_INT; one sync.
 *           Also DIR/ufs.<r> opened as "ufs:DIR/ufs.<r>" (not under Open
 *           MPI, whose OMPIO has no such prefix) and DIR/rel.<r>
 *           opened by a relative name from DIR, 10 bytes each.
 *  read     DIR/read.<r> (SELF, CREATE|RDWR): 4 MPI_File_write of 1024
 *           bytes, seek to 0, 2 MPI_File_read and 2 MPI_File_read_all of
 *           1024 bytes, checked.
 *  derived  DIR/derived.<r> (SELF): write_at of 2 x contiguous(16 int),
 *           3 x vector(2, 1, 2, int) and 4 int: 128 + 24 + 16 bytes.
 *  large    DIR/large.<r> (SELF, CREATE|RDWR), MPI-4 large-count calls:
 *           write_at_c 5 doubles, read_at_c 5 doubles (checked),
 *           iwrite_at_c 3 doubles + MPI_Wait, write_c 2 doubles,
 *           write_at_all_c 1 double.
 *  coll     DIR/shared (MPI_COMM_WORLD, CREATE|RDWR): write_at_all of 8192
 *           bytes at 8192 r and at 8192 (N + r), read_at_all of 8192 bytes
 *           at 8192 r (checked).  DIR/ordered (WORLD, CREATE|WRONLY):
 *           write_ordered of 100 bytes, write_shared of 50 bytes.
 *  split    DIR/split.<r> (SELF, CREATE|RDWR): write_at_all_begin 4096 at
 *           0, 50 ms, _end; read_all_begin 4096, 50 ms, _end (checked);
 *           write_ordered_begin/_end of 10 bytes.
 *  nb       one file per way of completing a nonblocking write, DIR/nb_<how>.<r>
 *           (SELF, CREATE|RDWR): iwrite_at of 4096 bytes, 30 ms, then
 *           completion by <how> = wait, test, waitall, waitany, waitsome,
 *           testall, testany, testsome (each together with a send/receive
 *           pair to self) or free (MPI_Request_free).  nb_wait also gets an
 *           iread_at of 4096 bytes, 30 ms, MPI_Wait (checked).
 *           DIR/nb_many.<r>: 300 iwrite_at of 8 bytes, one MPI_Waitall; then
 *           DIR/nb_after.<r>: iwrite_at 4096, 30 ms, MPI_Wait.
 *           DIR/nb_kinds.<r>: iwrite, iwrite_all, iwrite_at_all,
 *           iwrite_shared of 100 bytes, then iread, iread_all, iread_at_all,
 *           iread_shared of 100 bytes, completed by MPI_Waitall.
 *  views    DIR/view.<r>: set_view with filetype vector(4, 2, 8, int), then
 *           write_all of 8 int.  DIR/view_named.<r>: set_view with MPI_BYTE.
 *           DIR/hints.<r>: opened with an info object, set_info, set_size,
 *           preallocate.
 *  errors   prints the error class of: opening DIR/missing without
 *           MPI_MODE_CREATE; MPI_File_write and MPI_File_iwrite on
 *           DIR/ro.<r> opened read-only (created first, 0 bytes). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, nprocs;
static const char *dir;

static void die(const char *what, int rc)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "mpiio_prog (rank %d): %s failed: %s\n", rank, what, msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

#define CHECK(call)                    \
    do {                               \
        int rc_ = (call);              \
        if (rc_ != MPI_SUCCESS)        \
            die(#call, rc_);           \
    } while (0)

static void path_of(char *out, size_t outsz, const char *name)
{
    snprintf(out, outsz, "%s/%s.%d", dir, name, rank);
}

static MPI_File open_own(const char *name, int amode)
{
    char path[4096];
    MPI_File fh;
    path_of(path, sizeof path, name);
    CHECK(MPI_File_open(MPI_COMM_SELF, path, amode, MPI_INFO_NULL, &fh));
    return fh;
}

static void fill(char *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)('a' + (i + (size_t)seed) % 26);
}

static void expect_data(const char *buf, size_t n, int seed, const char *what)
{
    char want[8192];
    fill(want, n, seed);
    if (memcmp(buf, want, n) != 0) {
        fprintf(stderr, "mpiio_prog (rank %d): %s read back wrong data\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* ------------------------------------------------------------ modes -- */

static void mode_indep(void)
{
    char buf[4096];
    int ints[10] = {0};
    MPI_Status st;
    fill(buf, sizeof buf, 0);
    MPI_File fh = open_own("indep", MPI_MODE_CREATE | MPI_MODE_WRONLY);
    CHECK(MPI_File_write_at(fh, 0, buf, 100, MPI_BYTE, &st));
    CHECK(MPI_File_write_at(fh, 100, buf, 4096, MPI_BYTE, &st));
    CHECK(MPI_File_write_at(fh, 4196, buf, 4096, MPI_BYTE, &st));
    CHECK(MPI_File_write_at(fh, 8292, ints, 10, MPI_INT, &st));
    CHECK(MPI_File_sync(fh));
    CHECK(MPI_File_close(&fh));

    char path[4200];
#if !defined(OPEN_MPI)
    /* "ufs:" names a ROMIO driver; Open MPI's own MPI-IO (OMPIO) refuses
     * such a name, untraced too. */
    snprintf(path, sizeof path, "ufs:%s/ufs.%d", dir, rank);
    CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                        &fh));
    CHECK(MPI_File_write_at(fh, 0, buf, 10, MPI_BYTE, &st));
    CHECK(MPI_File_close(&fh));
#endif

    if (chdir(dir) != 0) {
        perror(dir);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    snprintf(path, sizeof path, "rel.%d", rank);
    CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                        &fh));
    CHECK(MPI_File_write_at(fh, 0, buf, 10, MPI_BYTE, &st));
    CHECK(MPI_File_close(&fh));
}

static void mode_read(void)
{
    char buf[1024];
    MPI_Status st;
    MPI_File fh = open_own("read", MPI_MODE_CREATE | MPI_MODE_RDWR);
    for (int i = 0; i < 4; i++) {
        fill(buf, sizeof buf, i);
        CHECK(MPI_File_write(fh, buf, 1024, MPI_BYTE, &st));
    }
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    for (int i = 0; i < 4; i++) {
        memset(buf, 0, sizeof buf);
        if (i < 2)
            CHECK(MPI_File_read(fh, buf, 1024, MPI_BYTE, &st));
        else
            CHECK(MPI_File_read_all(fh, buf, 1024, MPI_BYTE, &st));
        expect_data(buf, sizeof buf, i, "MPI_File_read/read_all");
    }
    CHECK(MPI_File_close(&fh));
}

static void mode_derived(void)
{
    int ints[64] = {0};
    MPI_Datatype contig, vec;
    MPI_Status st;
    CHECK(MPI_Type_contiguous(16, MPI_INT, &contig));
    CHECK(MPI_Type_commit(&contig));
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    MPI_File fh = open_own("derived", MPI_MODE_CREATE | MPI_MODE_WRONLY);
    CHECK(MPI_File_write_at(fh, 0, ints, 2, contig, &st));
    CHECK(MPI_File_write_at(fh, 128, ints, 3, vec, &st));
    CHECK(MPI_File_write_at(fh, 152, ints, 4, MPI_INT, &st));
    CHECK(MPI_File_close(&fh));
    CHECK(MPI_Type_free(&contig));
    CHECK(MPI_Type_free(&vec));
}

/* The large-count calls are MPI-4 (MPICH 4); an MPI-3 library (Open MPI
 * 4.1) has none, and test_mpiio_blocking.sh does not ask for this mode. */
#if MPI_VERSION >= 4
static void mode_large(void)
{
    double out[5] = {1, 2, 3, 4, 5}, in[5] = {0};
    MPI_Status st;
    MPI_Request req;
    MPI_File fh = open_own("large", MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK(MPI_File_write_at_c(fh, 0, out, (MPI_Count)5, MPI_DOUBLE, &st));
    CHECK(MPI_File_read_at_c(fh, 0, in, (MPI_Count)5, MPI_DOUBLE, &st));
    if (memcmp(in, out, sizeof in) != 0) {
        fprintf(stderr, "mpiio_prog: MPI_File_read_at_c read back wrong data\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    CHECK(MPI_File_iwrite_at_c(fh, 40, out, (MPI_Count)3, MPI_DOUBLE, &req));
    CHECK(MPI_Wait(&req, &st));
    CHECK(MPI_File_write_c(fh, out, (MPI_Count)2, MPI_DOUBLE, &st));
    CHECK(MPI_File_write_at_all_c(fh, 800, out, (MPI_Count)1, MPI_DOUBLE, &st));
    CHECK(MPI_File_close(&fh));
}
#else
static void mode_large(void)
{
    fprintf(stderr, "mpiio_prog: large needs MPI-4 (this mpi.h is MPI-%d)\n", MPI_VERSION);
    MPI_Abort(MPI_COMM_WORLD, 1);
}
#endif

static void mode_coll(void)
{
    char buf[8192], back[8192];
    char path[4096];
    MPI_Status st;
    MPI_File fh;
    snprintf(path, sizeof path, "%s/shared", dir);
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));
    fill(buf, sizeof buf, rank);
    CHECK(MPI_File_write_at_all(fh, (MPI_Offset)rank * 8192, buf, 8192, MPI_BYTE, &st));
    CHECK(MPI_File_write_at_all(fh, (MPI_Offset)(nprocs + rank) * 8192, buf, 8192, MPI_BYTE,
                                &st));
    CHECK(MPI_File_read_at_all(fh, (MPI_Offset)rank * 8192, back, 8192, MPI_BYTE, &st));
    expect_data(back, sizeof back, rank, "MPI_File_read_at_all");
    CHECK(MPI_File_close(&fh));

    snprintf(path, sizeof path, "%s/ordered", dir);
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                        &fh));
    CHECK(MPI_File_write_ordered(fh, buf, 100, MPI_BYTE, &st));
    CHECK(MPI_File_write_shared(fh, buf, 50, MPI_BYTE, &st));
    CHECK(MPI_File_close(&fh));
}

static void mode_split(void)
{
    char buf[4096], back[4096];
    MPI_Status st;
    MPI_File fh = open_own("split", MPI_MODE_CREATE | MPI_MODE_RDWR);
    fill(buf, sizeof buf, 3);
    CHECK(MPI_File_write_at_all_begin(fh, 0, buf, 4096, MPI_BYTE));
    usleep(50000);
    CHECK(MPI_File_write_at_all_end(fh, buf, &st));
    CHECK(MPI_File_read_all_begin(fh, back, 4096, MPI_BYTE));
    usleep(50000);
    CHECK(MPI_File_read_all_end(fh, back, &st));
    expect_data(back, sizeof back, 3, "MPI_File_read_all_begin/end");
    CHECK(MPI_File_write_ordered_begin(fh, buf, 10, MPI_BYTE));
    CHECK(MPI_File_write_ordered_end(fh, buf, &st));
    CHECK(MPI_File_close(&fh));
}

/* ------------------------------------------------------- nonblocking -- */

#define PAUSE_US 30000

/* reqs[0] a receive from self, reqs[1] the MPI-IO request, reqs[2] the
 * matching send: completion calls get a mix of request kinds. */
static void start_mix(MPI_Request reqs[3], int *in, const int *out, MPI_File fh, const char *buf)
{
    CHECK(MPI_Irecv(in, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &reqs[0]));
    CHECK(MPI_File_iwrite_at(fh, 0, buf, 4096, MPI_BYTE, &reqs[1]));
    CHECK(MPI_Isend(out, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &reqs[2]));
    usleep(PAUSE_US);
}

static int all_null(const MPI_Request reqs[3])
{
    return reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL &&
           reqs[2] == MPI_REQUEST_NULL;
}

static void complete_by(const char *how, MPI_File fh, const char *buf)
{
    MPI_Request reqs[3];
    MPI_Status sts[3];
    int in = 0, out = 42, flag = 0, idx, outcount, indices[3];
    if (strcmp(how, "wait") == 0 || strcmp(how, "test") == 0 || strcmp(how, "free") == 0) {
        MPI_Request req;
        CHECK(MPI_File_iwrite_at(fh, 0, buf, 4096, MPI_BYTE, &req));
        usleep(PAUSE_US);
        if (how[0] == 'w')
            CHECK(MPI_Wait(&req, &sts[0]));
        else if (how[0] == 'f')
            CHECK(MPI_Request_free(&req));
        else
            while (!flag)
                CHECK(MPI_Test(&req, &flag, &sts[0]));
        return;
    }
    start_mix(reqs, &in, &out, fh, buf);
    if (strcmp(how, "waitall") == 0) {
        CHECK(MPI_Waitall(3, reqs, sts));
    } else if (strcmp(how, "testall") == 0) {
        while (!flag)
            CHECK(MPI_Testall(3, reqs, &flag, sts));
    } else if (strcmp(how, "waitany") == 0) {
        while (!all_null(reqs))
            CHECK(MPI_Waitany(3, reqs, &idx, &sts[0]));
    } else if (strcmp(how, "testany") == 0) {
        while (!all_null(reqs))
            CHECK(MPI_Testany(3, reqs, &idx, &flag, &sts[0]));
    } else if (strcmp(how, "waitsome") == 0) {
        while (!all_null(reqs))
            CHECK(MPI_Waitsome(3, reqs, &outcount, indices, sts));
    } else if (strcmp(how, "testsome") == 0) {
        while (!all_null(reqs))
            CHECK(MPI_Testsome(3, reqs, &outcount, indices, sts));
    }
    if (in != 42) {
        fprintf(stderr, "mpiio_prog: message to self lost (%s)\n", how);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void nb_many(const char *buf)
{
    enum { N = 300 };
    static MPI_Request reqs[N];
    static MPI_Status sts[N];
    MPI_Status st;
    MPI_File fh = open_own("nb_many", MPI_MODE_CREATE | MPI_MODE_RDWR);
    for (int i = 0; i < N; i++)
        CHECK(MPI_File_iwrite_at(fh, 8 * i, buf, 8, MPI_BYTE, &reqs[i]));
    CHECK(MPI_Waitall(N, reqs, sts));
    CHECK(MPI_File_close(&fh));

    MPI_Request req;
    fh = open_own("nb_after", MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK(MPI_File_iwrite_at(fh, 0, buf, 4096, MPI_BYTE, &req));
    usleep(PAUSE_US);
    CHECK(MPI_Wait(&req, &st));
    CHECK(MPI_File_close(&fh));
}

static void nb_kinds(const char *buf)
{
    char back[4][100];
    MPI_Request reqs[8];
    MPI_Status sts[8];
    MPI_File fh = open_own("nb_kinds", MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK(MPI_File_iwrite(fh, buf, 100, MPI_BYTE, &reqs[0]));
    CHECK(MPI_File_iwrite_all(fh, buf, 100, MPI_BYTE, &reqs[1]));
    CHECK(MPI_File_iwrite_at_all(fh, 1000, buf, 100, MPI_BYTE, &reqs[2]));
    CHECK(MPI_File_iwrite_shared(fh, buf, 100, MPI_BYTE, &reqs[3]));
    CHECK(MPI_Waitall(4, reqs, sts));
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    CHECK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    CHECK(MPI_File_iread(fh, back[0], 100, MPI_BYTE, &reqs[4]));
    CHECK(MPI_File_iread_all(fh, back[1], 100, MPI_BYTE, &reqs[5]));
    CHECK(MPI_File_iread_at_all(fh, 1000, back[2], 100, MPI_BYTE, &reqs[6]));
    CHECK(MPI_File_iread_shared(fh, back[3], 100, MPI_BYTE, &reqs[7]));
    CHECK(MPI_Waitall(4, reqs + 4, sts + 4));
    CHECK(MPI_File_close(&fh));
}

static void mode_nb(void)
{
    static const char *const hows[] = {"wait", "test", "waitall", "waitany", "waitsome",
                                       "testall", "testany", "testsome", "free"};
    char buf[4096], back[4096];
    MPI_Status st;
    MPI_Request req;
    fill(buf, sizeof buf, 5);
    for (size_t i = 0; i < sizeof hows / sizeof hows[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "nb_%s", hows[i]);
        MPI_File fh = open_own(name, MPI_MODE_CREATE | MPI_MODE_RDWR);
        complete_by(hows[i], fh, buf);
        if (strcmp(hows[i], "wait") == 0) {
            CHECK(MPI_File_iread_at(fh, 0, back, 4096, MPI_BYTE, &req));
            usleep(PAUSE_US);
            CHECK(MPI_Wait(&req, &st));
            expect_data(back, sizeof back, 5, "MPI_File_iread_at");
        }
        CHECK(MPI_File_close(&fh));
    }
    nb_many(buf);
    nb_kinds(buf);
}

/* ------------------------------------------------------------ views -- */

static void mode_views(void)
{
    int ints[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Datatype vec;
    MPI_Status st;
    CHECK(MPI_Type_vector(4, 2, 8, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    MPI_File fh = open_own("view", MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, vec, "native", MPI_INFO_NULL));
    CHECK(MPI_File_write_all(fh, ints, 8, MPI_INT, &st));
    CHECK(MPI_File_close(&fh));
    CHECK(MPI_Type_free(&vec));

    fh = open_own("view_named", MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK(MPI_File_close(&fh));

    char path[4096];
    MPI_Info info;
    path_of(path, sizeof path, "hints");
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "cb_buffer_size", "1048576"));
    CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    CHECK(MPI_Info_set(info, "romio_cb_write", "disable"));
    CHECK(MPI_File_set_info(fh, info));
    CHECK(MPI_File_set_size(fh, 65536));
    CHECK(MPI_File_preallocate(fh, 131072));
    CHECK(MPI_File_close(&fh));
    CHECK(MPI_Info_free(&info));
}

/* ----------------------------------------------------------- errors -- */

static int error_class(int rc)
{
    int cls = -1;
    if (rc == MPI_SUCCESS)
        return 0;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void mode_errors(void)
{
    char path[4096];
    char buf[16] = "0123456789abcde";
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    snprintf(path, sizeof path, "%s/missing", dir);
    int rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    printf("open_missing %d\n", error_class(rc));

    fh = open_own("ro", MPI_MODE_CREATE | MPI_MODE_WRONLY);
    CHECK(MPI_File_close(&fh));
    fh = open_own("ro", MPI_MODE_RDONLY);
    printf("write_rdonly %d\n", error_class(MPI_File_write(fh, buf, 16, MPI_BYTE, &st)));
    printf("iwrite_rdonly %d\n", error_class(MPI_File_iwrite(fh, buf, 16, MPI_BYTE, &req)));
    CHECK(MPI_File_close(&fh));
    printf("classes: no_such_file %d access %d read_only %d\n", MPI_ERR_NO_SUCH_FILE,
           MPI_ERR_ACCESS, MPI_ERR_READ_ONLY);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } modes[] = {
        {"indep", mode_indep}, {"read", mode_read},   {"derived", mode_derived},
        {"large", mode_large}, {"coll", mode_coll},   {"split", mode_split},
        {"nb", mode_nb},       {"views", mode_views}, {"errors", mode_errors},
    };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 3 || argv[2][0] != '/') {
        fprintf(stderr, "usage: mpiio_prog MODE ABSOLUTE-DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    dir = argv[2];
    size_t i = 0;
    while (i < sizeof modes / sizeof modes[0] && strcmp(modes[i].name, argv[1]) != 0)
        i++;
    if (i == sizeof modes / sizeof modes[0]) {
        fprintf(stderr, "mpiio_prog: unknown mode %s\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    modes[i].run();
    MPI_Finalize();
    return 0;
}
