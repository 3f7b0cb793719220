/* Parallel HDF5 for iolens-parser --advice (test_advice_hdf5.sh): each rank
 * writes its 1024 doubles of dataset /d (1024 x the number of ranks)
 * 16 times, then reads them back 16 times, with an independent transfer
 * (mode indep: HDF5_INDEPENDENT) or a collective one (mode coll).
 *
 *   advice_h5_prog indep|coll DATA
 */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 1024
#define REPEAT 16

static double buf[N];

static int run(const char *dir, int collective, int rank, int nprocs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/advice.h5", dir);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hsize_t dims = (hsize_t)N * (hsize_t)nprocs, start = (hsize_t)N * (hsize_t)rank, count = N;
    hid_t fspace = H5Screate_simple(1, &dims, NULL);
    hid_t mspace = H5Screate_simple(1, &count, NULL);
    hid_t d = H5Dcreate2(f, "/d", H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT);
    int bad = f < 0 || d < 0;
    for (int i = 0; i < REPEAT && !bad; i++)
        bad = H5Dwrite(d, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, buf) < 0;
    for (int i = 0; i < REPEAT && !bad; i++)
        bad = H5Dread(d, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, buf) < 0;
    H5Pclose(dxpl);
    H5Dclose(d);
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Fclose(f);
    H5Pclose(fapl);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nprocs, rc = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int i = 0; i < N; i++)
        buf[i] = rank * N + i;
    if (argc == 3 && (strcmp(argv[1], "indep") == 0 || strcmp(argv[1], "coll") == 0))
        rc = run(argv[2], strcmp(argv[1], "coll") == 0, rank, nprocs);
    else
        fprintf(stderr, "usage: %s indep|coll DATA\n", argv[0]);
    MPI_Finalize();
    return rc;
}
