/* The PHDF5 test: one file opened through the MPI-IO driver, num-dsets
 * one-dimensional datasets of native ints ("Dataset0", ...), contiguous
 * and never filled (so the file holds only what the ranks write), and
 * independent H5Dwrite / H5Dread of hyperslabs. */
#include <stdlib.h>

#include <hdf5.h>

#include "pio_perf.h"

struct pio_file {
    hid_t file, dxpl, memspace;
    uint64_t memspace_elmts;
    uint64_t ndsets;
    hid_t *dsets, *spaces;   /* per dataset: the dataset and its file dataspace */
};

static hid_t checked(hid_t id, const char *call)
{
    if (id < 0)
        pio_fail(call, "failed (see the HDF5 error stack above)");
    return id;
}

static void check_status(herr_t e, const char *call)
{
    if (e < 0)
        pio_fail(call, "failed (see the HDF5 error stack above)");
}

static hid_t open_file(const char *path, enum pio_op op, MPI_Comm comm)
{
    hid_t fapl = checked(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate");
    check_status(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
    hid_t file = op == PIO_WRITE ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                                 : H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    return checked(file, op == PIO_WRITE ? "H5Fcreate" : "H5Fopen");
}

static hid_t open_dataset(hid_t file, uint64_t k, enum pio_op op, uint64_t extent)
{
    char name[32];
    snprintf(name, sizeof name, "Dataset%llu", (unsigned long long)k);
    if (op == PIO_READ)
        return checked(H5Dopen2(file, name, H5P_DEFAULT), "H5Dopen2");
    hsize_t dims[1] = {extent / PIO_ELMT_SIZE};
    hid_t space = checked(H5Screate_simple(1, dims, NULL), "H5Screate_simple");
    hid_t dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate");
    check_status(H5Pset_layout(dcpl, H5D_CONTIGUOUS), "H5Pset_layout");
    check_status(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "H5Pset_fill_time");
    hid_t d = H5Dcreate2(file, name, H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(space);
    return checked(d, "H5Dcreate2");
}

static struct pio_file *phdf5_open(const char *path, enum pio_op op, MPI_Comm comm,
                                   uint64_t ndsets, uint64_t extent)
{
    struct pio_file *f = calloc(1, sizeof *f);
    hid_t *ids = calloc(2 * ndsets, sizeof *ids);
    if (f == NULL || ids == NULL)
        pio_fail("calloc", "out of memory");
    f->ndsets = ndsets;
    f->dsets = ids;
    f->spaces = ids + ndsets;
    f->memspace = -1;
    f->file = open_file(path, op, comm);
    f->dxpl = checked(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate");
    check_status(H5Pset_dxpl_mpio(f->dxpl, H5FD_MPIO_INDEPENDENT), "H5Pset_dxpl_mpio");
    for (uint64_t k = 0; k < ndsets; k++) {
        f->dsets[k] = open_dataset(f->file, k, op, extent);
        f->spaces[k] = checked(H5Dget_space(f->dsets[k]), "H5Dget_space");
    }
    return f;
}

/* Selects len bytes at offset of dataset dset; the memory space fits. */
static void select_transfer(struct pio_file *f, uint64_t dset, uint64_t offset, uint64_t len)
{
    uint64_t n = len / PIO_ELMT_SIZE;
    if (f->memspace < 0 || f->memspace_elmts != n) {
        if (f->memspace >= 0)
            H5Sclose(f->memspace);
        hsize_t dims[1] = {n};
        f->memspace = checked(H5Screate_simple(1, dims, NULL), "H5Screate_simple");
        f->memspace_elmts = n;
    }
    hsize_t start[1] = {offset / PIO_ELMT_SIZE}, count[1] = {n};
    check_status(H5Sselect_hyperslab(f->spaces[dset], H5S_SELECT_SET, start, NULL, count, NULL),
                 "H5Sselect_hyperslab");
}

static void phdf5_write(struct pio_file *f, uint64_t dset, uint64_t offset, const void *buf,
                        uint64_t len)
{
    select_transfer(f, dset, offset, len);
    check_status(H5Dwrite(f->dsets[dset], H5T_NATIVE_INT, f->memspace, f->spaces[dset], f->dxpl,
                          buf),
                 "H5Dwrite");
}

static void phdf5_read(struct pio_file *f, uint64_t dset, uint64_t offset, void *buf,
                       uint64_t len)
{
    select_transfer(f, dset, offset, len);
    check_status(H5Dread(f->dsets[dset], H5T_NATIVE_INT, f->memspace, f->spaces[dset], f->dxpl,
                         buf),
                 "H5Dread");
}

static void phdf5_close(struct pio_file *f)
{
    for (uint64_t k = 0; k < f->ndsets; k++) {
        H5Sclose(f->spaces[k]);
        check_status(H5Dclose(f->dsets[k]), "H5Dclose");
    }
    if (f->memspace >= 0)
        H5Sclose(f->memspace);
    H5Pclose(f->dxpl);
    check_status(H5Fclose(f->file), "H5Fclose");
    free(f->dsets);
    free(f);
}

const struct pio_api_ops pio_phdf5_ops = {
    .name = "PHDF5", .key = "phdf5",
    .open = phdf5_open, .write = phdf5_write, .read = phdf5_read, .close = phdf5_close,
};
