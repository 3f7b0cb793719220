/* A module linked against one HDF5 library, loaded by late_h5_host.c with
 * RTLD_LOCAL the way Python loads h5py's extension modules
 * (test_late_hdf5.sh).  The test compiles it once per library (serial,
 * MPICH); it prints nothing that tells them apart.
 *
 * late_h5_run(PATH) creates PATH with a chunked 100x100 float64 dataset
 * "d" (80,000 bytes, chunks of 10x10), closes it, opens it again, reads
 * "d" back and checks every value.  Returns 0, or 1 with a message. */
#include <hdf5.h>
#include <stdio.h>

#define N 100

static double written[N][N], read_back[N][N];

static int write_file(const char *path)
{
    hsize_t dims[2] = {N, N}, chunk[2] = {10, 10};
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (file < 0 || space < 0 || dcpl < 0 || H5Pset_chunk(dcpl, 2, chunk) < 0)
        return -1;
    hid_t dset = H5Dcreate2(file, "d", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dset < 0 || H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, written) < 0)
        return -1;
    return H5Dclose(dset) < 0 || H5Pclose(dcpl) < 0 || H5Sclose(space) < 0 || H5Fclose(file) < 0
               ? -1
               : 0;
}

static int read_file(const char *path)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t dset = file >= 0 ? H5Dopen2(file, "d", H5P_DEFAULT) : -1;
    if (dset < 0 || H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, read_back) < 0)
        return -1;
    return H5Dclose(dset) < 0 || H5Fclose(file) < 0 ? -1 : 0;
}

int late_h5_run(const char *path)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            written[i][j] = i * N + j + 0.5;
    if (write_file(path) != 0 || read_file(path) != 0) {
        fprintf(stderr, "late_h5_run: HDF5 failed on %s\n", path);
        return 1;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (read_back[i][j] != written[i][j]) {
                fprintf(stderr, "late_h5_run: %s[%d][%d] is %g\n", path, i, j, read_back[i][j]);
                return 1;
            }
    printf("late_h5_run: %d values written and read back\n", N * N);
    return 0;
}
