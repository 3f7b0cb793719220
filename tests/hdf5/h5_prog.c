/* HDF5 programs for the tests/hdf5 scripts.  Usage: h5_prog MODE DIR
 *   serial    one process, no MPI_Init: DIR/serial.h5 with 1-D and 2-D
 *             datasets, contiguous, chunked (deflate) and compact, every
 *             selection kind, one made anonymous and linked (H5Olink)
 *             and let go with H5Idec_ref, then reopened (H5Oopen,
 *             H5Dopen1/2);
 *             test_hdf5_serial.sh lists the exact counts
 *   parallel  MPI job: DIR/par.h5 through the MPI-IO driver with
 *             collective metadata; each rank writes and reads its own
 *             hyperslab of /x (1-D, 1024 doubles per rank) independently
 *             and collectively, and two rows of /y (2-D ints, chunked)
 *             collectively
 *   errors    one process: DIR/errors.h5 with /e (8 ints) written whole,
 *             then, with HDF5's error printing left on, H5Dopen2 of a
 *             missing dataset (HDF5 must still print its error stack),
 *             and after the closes, the dataset's and the file's handles
 *             closed again (H5Dclose, H5Oclose, H5Fclose, H5Idec_ref)
 *   unclosed  one process: DIR/unclosed.h5 with an anonymous dataset
 *             written and never closed, written twice more by a forked
 *             child
 *   strong    one process: DIR/strong.h5 (H5F_CLOSE_STRONG) with 1500
 *             datasets written and left open, closed by H5Fclose, then
 *             each opened and read, and left to H5Fclose again
 *   increfs   one process: DIR/increfs.h5 with /r, whose handles and the
 *             file's are closed with a second reference taken
 *             (H5Iinc_ref), as netCDF-4 does, and used after those closes
 *   references one process: DIR/references.h5 with /g/a, /g/b, /g/c and
 *             /refs, their object references; the datasets read back
 *             through those references, by address and by index
 * Every HDF5 call is checked; the program exits 1 on the first failure. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(call)                                                       \
    do {                                                                  \
        if ((call) < 0) {                                                 \
            fprintf(stderr, "h5_prog: %s failed (line %d)\n", #call, __LINE__); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

static hid_t simple_space(int ndims, const hsize_t *dims)
{
    hid_t space = H5Screate_simple(ndims, dims, NULL);
    CHECK(space);
    return space;
}

/* /d1: 100 ints, contiguous.  Write all, read all, flush. */
static void serial_d1(hid_t file)
{
    int buf[100];
    for (int i = 0; i < 100; i++)
        buf[i] = i;
    hsize_t dims[1] = {100};
    hid_t space = simple_space(1, dims);
    hid_t d = H5Dcreate2(file, "d1", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dflush(d));
    CHECK(H5Dclose(d));
    /* An anonymous dataset of the same shape, written whole. */
    hid_t anon = H5Dcreate_anon(file, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(anon);
    CHECK(H5Dwrite(anon, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dclose(anon));
    CHECK(H5Sclose(space));
}

/* /g/d2: 20 x 30 doubles, chunks of 5 x 10, deflate.  Write all, write a
 * 4 x 6 hyperslab at (2, 3) twice, read 3 points, read an irregular
 * hyperslab (2 x 2 at (0, 0) or 3 x 3 at (10, 10): 13 points). */
static void serial_d2(hid_t file)
{
    static double buf[20 * 30];
    hsize_t dims[2] = {20, 30}, chunk[2] = {5, 10};
    hid_t space = simple_space(2, dims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl);
    CHECK(H5Pset_chunk(dcpl, 2, chunk));
    CHECK(H5Pset_deflate(dcpl, 6));
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    CHECK(lcpl);
    CHECK(H5Pset_create_intermediate_group(lcpl, 1));
    hid_t d = H5Dcreate2(file, "g/d2", H5T_NATIVE_DOUBLE, space, lcpl, dcpl, H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));

    hsize_t start[2] = {2, 3}, count[2] = {4, 6};
    hid_t fs = H5Dget_space(d);
    CHECK(fs);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t ms = simple_space(2, count);
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, buf));
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, buf));
    CHECK(H5Sclose(ms));

    hsize_t points[3][2] = {{0, 0}, {5, 5}, {19, 29}};
    CHECK(H5Sselect_elements(fs, H5S_SELECT_SET, 3, &points[0][0]));
    hsize_t three[1] = {3};
    ms = simple_space(1, three);
    CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, buf));
    CHECK(H5Sclose(ms));

    hsize_t s1[2] = {0, 0}, c1[2] = {2, 2}, s2[2] = {10, 10}, c2[2] = {3, 3};
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, s1, NULL, c1, NULL));
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_OR, s2, NULL, c2, NULL));
    hsize_t thirteen[1] = {13};
    ms = simple_space(1, thirteen);
    CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, buf));
    CHECK(H5Sclose(ms));

    CHECK(H5Sclose(fs));
    CHECK(H5Dclose(d));
    CHECK(H5Pclose(lcpl));
    CHECK(H5Pclose(dcpl));
    CHECK(H5Sclose(space));
}

/* /c: 10 shorts, compact, created with the deprecated H5Dcreate1. */
static void serial_compact(hid_t file)
{
    short buf[10] = {0};
    hsize_t dims[1] = {10};
    hid_t space = simple_space(1, dims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl);
    CHECK(H5Pset_layout(dcpl, H5D_COMPACT));
    hid_t d = H5Dcreate1(file, "c", H5T_NATIVE_SHORT, space, dcpl);
    CHECK(d);
    CHECK(H5Dwrite(d, H5T_NATIVE_SHORT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dclose(d));
    CHECK(H5Pclose(dcpl));
    CHECK(H5Sclose(space));
}

/* /l: 5 doubles made anonymous (H5Dcreate_anon), written whole, linked
 * as "l" (H5Olink), written whole again; the handle is then let go as
 * h5py does, with H5Idec_ref: a second reference taken and let go (not a
 * close), a third write, and the last reference let go (the close). */
static void serial_linked(hid_t file)
{
    double buf[5] = {1, 2, 3, 4, 5};
    hsize_t dims[1] = {5};
    hid_t space = simple_space(1, dims);
    hid_t d = H5Dcreate_anon(file, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Olink(d, file, "l", H5P_DEFAULT, H5P_DEFAULT));
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Iinc_ref(d));
    if (H5Idec_ref(d) != 1) {
        fprintf(stderr, "h5_prog: H5Idec_ref did not leave 1 reference\n");
        exit(1);
    }
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    if (H5Idec_ref(d) != 0) {
        fprintf(stderr, "h5_prog: H5Idec_ref did not close /l\n");
        exit(1);
    }
    CHECK(H5Sclose(space));
}

/* Reopened read-only: /g/d2 through H5Oopen (read whole), the group g
 * through H5Oopen (not a dataset), /d1 through H5Dopen2 (a regular
 * hyperslab of 20 ints at 10) and H5Dopen1, and a missing dataset. */
static void serial_reopen(const char *path)
{
    static double dbuf[20 * 30];
    int ibuf[20];
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(file);
    hid_t o = H5Oopen(file, "g/d2", H5P_DEFAULT);
    CHECK(o);
    CHECK(H5Dread(o, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, dbuf));
    CHECK(H5Oclose(o));
    hid_t g = H5Oopen(file, "g", H5P_DEFAULT);
    CHECK(g);
    CHECK(H5Oclose(g));

    hid_t d = H5Dopen2(file, "d1", H5P_DEFAULT);
    CHECK(d);
    hsize_t start[1] = {10}, count[1] = {20};
    hid_t fs = H5Dget_space(d);
    CHECK(fs);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t ms = simple_space(1, count);
    CHECK(H5Dread(d, H5T_NATIVE_INT, ms, fs, H5P_DEFAULT, ibuf));
    CHECK(H5Sclose(ms));
    CHECK(H5Sclose(fs));
    CHECK(H5Dclose(d));
    d = H5Dopen1(file, "d1");
    CHECK(d);
    CHECK(H5Dclose(d));

    /* Failures are not counted, and HDF5 still reports them. */
    H5E_auto2_t fn;
    void *data;
    CHECK(H5Eget_auto2(H5E_DEFAULT, &fn, &data));
    CHECK(H5Eset_auto2(H5E_DEFAULT, NULL, NULL));
    if (H5Dopen2(file, "missing", H5P_DEFAULT) >= 0 || H5Dread(-1, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, ibuf) >= 0 ||
        H5Fopen("/nonexistent/iolens.h5", H5F_ACC_RDONLY, H5P_DEFAULT) >= 0) {
        fprintf(stderr, "h5_prog: a failing call succeeded\n");
        exit(1);
    }
    CHECK(H5Eset_auto2(H5E_DEFAULT, fn, data));
    CHECK(H5Fclose(file));
}

static void serial(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/serial.h5", dir);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file);
    serial_d1(file);
    serial_d2(file);
    serial_compact(file);
    serial_linked(file);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL));
    CHECK(H5Fclose(file));
    serial_reopen(path);
}

/* HDF5's own error report must survive iolens' quiet questions. */
static void errors(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/errors.h5", dir);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file);
    int buf[8] = {0};
    hsize_t dims[1] = {8};
    hid_t space = simple_space(1, dims);
    hid_t d = H5Dcreate2(file, "e", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    if (H5Dopen2(file, "missing", H5P_DEFAULT) >= 0) {
        fprintf(stderr, "h5_prog: opening a missing dataset succeeded\n");
        exit(1);
    }
    CHECK(H5Dclose(d));
    CHECK(H5Sclose(space));
    CHECK(H5Fclose(file));
    /* Closed already: each call fails and prints HDF5's error stack. */
    if (H5Dclose(d) >= 0 || H5Oclose(d) >= 0 || H5Idec_ref(d) >= 0 || H5Fclose(file) >= 0 ||
        H5Idec_ref(file) >= 0) {
        fprintf(stderr, "h5_prog: closing a closed handle succeeded\n");
        exit(1);
    }
}

/* An anonymous dataset of 3 ints written once and never closed, nor its
 * file; then a forked child writes it twice more and exits.  Each
 * process's log has it in "<anonymous>" with its own writes. */
static void unclosed(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/unclosed.h5", dir);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file);
    int buf[3] = {1, 2, 3};
    hsize_t dims[1] = {3};
    hid_t space = simple_space(1, dims);
    hid_t d = H5Dcreate_anon(file, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        perror("h5_prog: fork");
        exit(1);
    }
    if (child == 0) {
        CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
        CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
        exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "h5_prog: the forked child failed\n");
        exit(1);
    }
}

/* DIR/strong.h5, opened with H5F_CLOSE_STRONG: 1500 datasets of 4 ints,
 * each written whole and never closed; H5Fclose closes them all.  Then,
 * the file opened again the same way, each is opened and read whole, and
 * again left to H5Fclose.  The dataset handle table (2048 slots at the
 * default budget) must not stay full of handles that no call iolens
 * wraps closed. */
#define STRONG_DATASETS 1500

static void strong(const char *dir)
{
    char path[4096], name[32];
    int buf[4] = {1, 2, 3, 4};
    snprintf(path, sizeof path, "%s/strong.h5", dir);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(fapl);
    CHECK(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG));
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(file);
    hsize_t dims[1] = {4};
    hid_t space = simple_space(1, dims);
    for (int i = 0; i < STRONG_DATASETS; i++) {
        snprintf(name, sizeof name, "s%d", i);
        hid_t d = H5Dcreate2(file, name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        CHECK(d);
        CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    }
    CHECK(H5Fclose(file));
    file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    CHECK(file);
    for (int i = 0; i < STRONG_DATASETS; i++) {
        snprintf(name, sizeof name, "s%d", i);
        hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
        CHECK(d);
        CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    }
    CHECK(H5Fclose(file));
    CHECK(H5Sclose(space));
    CHECK(H5Pclose(fapl));
}

/* netCDF-4's way: each object is opened with H5Oopen; a dataset's handle
 * gets a second reference (H5Iinc_ref) and the H5Oopen handle is closed,
 * which only drops one; the data are read through the handle, which
 * H5Dclose closes at the end.  The file's handle is kept the same way
 * through an H5Fclose.  Written 3 times 4 ints to /r, read twice. */
static void increfs(const char *dir)
{
    char path[4096];
    int buf[4] = {1, 2, 3, 4};
    snprintf(path, sizeof path, "%s/increfs.h5", dir);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file);
    hsize_t dims[1] = {4};
    hid_t space = simple_space(1, dims);
    hid_t d = H5Dcreate2(file, "r", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Iinc_ref(d));
    CHECK(H5Dclose(d));
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dclose(d));
    CHECK(H5Iinc_ref(file));
    CHECK(H5Fclose(file));
    d = H5Oopen(file, "r", H5P_DEFAULT);
    CHECK(d);
    CHECK(H5Iinc_ref(d));
    CHECK(H5Oclose(d));
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Dclose(d));
    CHECK(H5Fclose(file));
    CHECK(H5Sclose(space));
}

/* Datasets opened other than by name: through an object reference
 * (H5Rdereference2, as h5py's f[ref] and MATLAB v7.3 cell arrays), by
 * address (H5Oopen_by_addr) and by index in a group (H5Oopen_by_idx).
 * /g/a, /g/b and /g/c (4 ints each) and /refs (their 3 references) are
 * written; the file is reopened, each of a, b and c is read once through
 * its reference, /g/a again by address, and the group's datasets once
 * each by index: 7 reads of 16 bytes, 3 by name and 4 not. */
static void references(const char *dir)
{
    char path[4096];
    int buf[4] = {1, 2, 3, 4};
    static const char *const names[3] = {"a", "b", "c"};
    snprintf(path, sizeof path, "%s/references.h5", dir);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file);
    hid_t group = H5Gcreate2(file, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(group);
    hsize_t dims[1] = {4};
    hid_t space = simple_space(1, dims);
    hobj_ref_t refs[3];
    for (int i = 0; i < 3; i++) {
        hid_t d = H5Dcreate2(group, names[i], H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        CHECK(d);
        CHECK(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
        CHECK(H5Dclose(d));
        CHECK(H5Rcreate(&refs[i], group, names[i], H5R_OBJECT, -1));
    }
    hsize_t nrefs[1] = {3};
    hid_t ref_space = simple_space(1, nrefs);
    hid_t r = H5Dcreate2(file, "refs", H5T_STD_REF_OBJ, ref_space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    CHECK(r);
    CHECK(H5Dwrite(r, H5T_STD_REF_OBJ, H5S_ALL, H5S_ALL, H5P_DEFAULT, refs));
    CHECK(H5Dclose(r));
    CHECK(H5Gclose(group));
    CHECK(H5Fclose(file));

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(file);
    r = H5Dopen2(file, "refs", H5P_DEFAULT);
    CHECK(r);
    CHECK(H5Dread(r, H5T_STD_REF_OBJ, H5S_ALL, H5S_ALL, H5P_DEFAULT, refs));
    CHECK(H5Dclose(r));
    for (int i = 0; i < 3; i++) {
        hid_t d = H5Rdereference2(file, H5P_DEFAULT, H5R_OBJECT, &refs[i]);
        CHECK(d);
        CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
        CHECK(H5Dclose(d));
    }
    H5O_info_t info;
    CHECK(H5Oget_info_by_name2(file, "g/a", &info, H5O_INFO_BASIC, H5P_DEFAULT));
    hid_t d = H5Oopen_by_addr(file, info.addr);
    CHECK(d);
    CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    CHECK(H5Oclose(d));
    for (hsize_t i = 0; i < 3; i++) {
        d = H5Oopen_by_idx(file, "g", H5_INDEX_NAME, H5_ITER_INC, i, H5P_DEFAULT);
        CHECK(d);
        CHECK(H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
        CHECK(H5Oclose(d));
    }
    CHECK(H5Fclose(file));
    CHECK(H5Sclose(space));
    CHECK(H5Sclose(ref_space));
}

#define PER_RANK 1024

static hid_t xfer(H5FD_mpio_xfer_t mode)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    CHECK(dxpl);
    CHECK(H5Pset_dxpl_mpio(dxpl, mode));
    return dxpl;
}

/* /x: each rank's 1024 doubles, written independently (H5P_DEFAULT) then
 * collectively, read back collectively then independently (explicit). */
static void parallel_x(hid_t file, int rank, int nprocs, hid_t coll, hid_t indep)
{
    static double buf[PER_RANK];
    for (int i = 0; i < PER_RANK; i++)
        buf[i] = rank * PER_RANK + i;
    hsize_t dims[1] = {(hsize_t)nprocs * PER_RANK};
    hid_t space = simple_space(1, dims);
    hid_t d = H5Dcreate2(file, "x", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    CHECK(d);
    hsize_t start[1] = {(hsize_t)rank * PER_RANK}, count[1] = {PER_RANK};
    CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t ms = simple_space(1, count);
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, space, H5P_DEFAULT, buf));
    CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, space, coll, buf));
    CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, space, coll, buf));
    CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, space, indep, buf));
    for (int i = 0; i < PER_RANK; i++)
        if (buf[i] != rank * PER_RANK + i) {
            fprintf(stderr, "h5_prog: rank %d read back a wrong value at %d\n", rank, i);
            exit(1);
        }
    CHECK(H5Sclose(ms));
    CHECK(H5Sclose(space));
    CHECK(H5Dclose(d));
}

/* /y: nprocs*2 rows of 16 ints, chunks of 2 rows; rank r writes rows
 * 2r, 2r+1 collectively. */
static void parallel_y(hid_t file, int rank, int nprocs, hid_t coll)
{
    int buf[2 * 16];
    for (int i = 0; i < 32; i++)
        buf[i] = rank;
    hsize_t dims[2] = {(hsize_t)nprocs * 2, 16}, chunk[2] = {2, 16};
    hid_t space = simple_space(2, dims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl);
    CHECK(H5Pset_chunk(dcpl, 2, chunk));
    hid_t d = H5Dcreate2(file, "y", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d);
    hsize_t start[2] = {(hsize_t)rank * 2, 0}, count[2] = {2, 16};
    CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t ms = simple_space(2, count);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT, ms, space, coll, buf));
    CHECK(H5Sclose(ms));
    CHECK(H5Sclose(space));
    CHECK(H5Pclose(dcpl));
    CHECK(H5Dclose(d));
}

static void parallel(const char *dir)
{
    int rank, nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    char path[4096];
    snprintf(path, sizeof path, "%s/par.h5", dir);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(fapl);
    CHECK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    CHECK(H5Pset_all_coll_metadata_ops(fapl, 1));
    CHECK(H5Pset_coll_metadata_write(fapl, 1));
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(file);
    hid_t coll = xfer(H5FD_MPIO_COLLECTIVE), indep = xfer(H5FD_MPIO_INDEPENDENT);
    parallel_x(file, rank, nprocs, coll, indep);
    parallel_y(file, rank, nprocs, coll);
    CHECK(H5Pclose(coll));
    CHECK(H5Pclose(indep));
    CHECK(H5Fclose(file));
    CHECK(H5Pclose(fapl));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: h5_prog serial|errors|unclosed|strong|increfs|references|"
                        "parallel DIR\n");
        return 2;
    }
    if (strcmp(argv[1], "serial") == 0) {
        serial(argv[2]);
    } else if (strcmp(argv[1], "errors") == 0) {
        errors(argv[2]);
    } else if (strcmp(argv[1], "unclosed") == 0) {
        unclosed(argv[2]);
    } else if (strcmp(argv[1], "strong") == 0) {
        strong(argv[2]);
    } else if (strcmp(argv[1], "increfs") == 0) {
        increfs(argv[2]);
    } else if (strcmp(argv[1], "references") == 0) {
        references(argv[2]);
    } else if (strcmp(argv[1], "parallel") == 0) {
        MPI_Init(&argc, &argv);
        parallel(argv[2]);
        MPI_Finalize();
    } else {
        fprintf(stderr, "h5_prog: unknown mode %s\n", argv[1]);
        return 2;
    }
    return 0;
}
