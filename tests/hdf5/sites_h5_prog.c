/* Call sites beneath H5Dwrite (test_sites_hdf5.sh): sites_h5_prog FILE
 * creates FILE with a contiguous dataset of 65536 ints (256 KiB, more than HDF5 buffers) and
 * writes it whole
 * with one H5Dwrite, from the line tagged "SITE h5dwrite": the POSIX
 * writes HDF5 makes beneath that call belong to that line. */
#include <hdf5.h>

int main(int argc, char **argv)
{
    static int data[65536];
    if (argc != 2)
        return 2;
    hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT); /* SITE create */
    hsize_t dims[1] = {65536};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dset = H5Dcreate2(file, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT);
    if (file < 0 || space < 0 || dset < 0)
        return 1;
    herr_t rc = H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data); /* SITE h5dwrite */
    return rc < 0 || H5Dclose(dset) < 0 || H5Sclose(space) < 0 || H5Fclose(file) < 0; /* SITE close */
}
