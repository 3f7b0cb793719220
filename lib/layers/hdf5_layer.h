/* Bookkeeping of the HDF5 layers, H5F (files) and H5D (datasets), fed by
 * wrappers/hdf5.c.  The wrappers time a call, make it, and hand the facts
 * here when it succeeded, with its start and end time (iolens_now(),
 * clock units).  The layer asks HDF5 itself (lib/core/hdf5_calls.h) about the
 * objects, with HDF5's error printing off; the wrappers call it with the
 * runtime guard set, so none of that is traced.
 *
 * Rules (also described in iolens(7)):
 *  - An H5F record is keyed by the normalized absolute path of the file
 *    (from H5Fget_name), the same file entry as the POSIX and MPI-IO
 *    records of that file.
 *  - An H5D record is named "<file path>:<dataset path>" (H5Iget_name), and
 *    its H5D_FILE_REC_ID is the id of the file's entry.  An anonymous
 *    dataset (H5Dcreate_anon) counts as the dataset H5Olink later names
 *    it, from its create on; one never linked counts in
 *    "<file path>:<anonymous>", with every other such dataset of its file.
 *    Records the budget cannot hold fold into <other files>.
 *  - A dataset handle is tracked from a successful create or open to its
 *    close (H5Dclose, H5Oclose, or H5Idec_ref of its last reference, as
 *    h5py lets go of its handles), in a fixed table allocated from the
 *    budget at start-up.  When it fills, the slots of handles HDF5 closed
 *    by itself (H5Fclose with H5F_CLOSE_STRONG) are freed; a handle
 *    opened while it is still full has its open counted, and nothing
 *    after it.  Files need no table: close and flush find the record by
 *    the file's name.
 *  - Bytes of an H5Dread/H5Dwrite are the points of the file selection
 *    (the dataset's whole dataspace for H5S_ALL) times the size of the
 *    memory datatype. */
#ifndef IOLENS_HDF5_LAYER_H
#define IOLENS_HDF5_LAYER_H

#include <hdf5.h>

#include "iolens/log_format.h"

/* The runtime walks the two layers through their entries in the layer
 * table (layers/layer_ops.h): start-up allocates the dataset handle table
 * from the budget. */

/* ------------------------------------------------------------- H5F -- */

/* H5Fcreate (created 1) or H5Fopen returned file; fapl is the property
 * list the program passed. */
void iolens_h5f_open(hid_t file, hid_t fapl, int created, double t0, double t1);
/* H5Fflush on any object of a file. */
void iolens_h5f_flush(hid_t object, double t0, double t1);

/* Close is split in two: the file's name is only known before the real
 * close.  begin returns the record to charge (NULL if the file is not
 * traced); end is called if the close succeeded. */
struct iolens_h5f_rec;
struct iolens_h5f_rec *iolens_h5f_close_begin(hid_t file);
void iolens_h5f_close_end(struct iolens_h5f_rec *rec, double t0, double t1);

/* ------------------------------------------------------------- H5D -- */

enum iolens_h5d_dir { IOLENS_H5D_READ, IOLENS_H5D_WRITE };

/* 1 if dset is a tracked dataset handle. */
int iolens_h5d_is_traced(hid_t dset);

/* How a dataset handle came: by a name (H5Dcreate1/2, H5Dopen1/2, H5Oopen
 * or H5Oopen_by_idx of a dataset), anonymous (H5Dcreate_anon), or through
 * an object reference or its address (H5Rdereference1/2, H5Oopen_by_addr).
 * The last two's names are never asked: H5Iget_name would search the
 * whole file for a path, each time (a program opening n datasets so would
 * pay n^2).  An anonymous handle counts on its own until H5Olink names it;
 * one opened by reference counts in "<file>:<by reference>". */
enum iolens_h5d_naming { IOLENS_H5D_NAMED, IOLENS_H5D_ANONYMOUS, IOLENS_H5D_BY_REFERENCE };

/* A create or open returned dset. */
void iolens_h5d_open(hid_t dset, enum iolens_h5d_naming naming, double t0, double t1);

/* H5Dread or H5Dwrite succeeded with these arguments. */
void iolens_h5d_access(hid_t dset, enum iolens_h5d_dir dir, hid_t mem_type, hid_t mem_space,
                       hid_t file_space, hid_t dxpl, double t0, double t1);

/* H5Dread/H5Dwrite on a tracked dataset returned a negative value: no
 * counter changes, only an access interval of the bytes the selection
 * asked for, flagged IOLENS_IV_FAILED (BPS counts every access;
 * layer_intervals.h).  Every successful access adds its interval too. */
void iolens_h5d_failed_access(hid_t dset, enum iolens_h5d_dir dir, hid_t mem_type,
                              hid_t file_space, hid_t dxpl, double t0, double t1);

void iolens_h5d_flush(hid_t dset, double t0, double t1);

/* H5Olink gave dset a name: an anonymous dataset's counts so far, and
 * its handle's from now on, are the named dataset's. */
void iolens_h5d_link(hid_t dset);

/* H5Dclose or H5Oclose: as for files, the handle leaves the table before
 * the real close (HDF5 may hand the id out again); end is called after
 * the real call, closed saying whether it succeeded (the close is then
 * counted). */
struct iolens_h5d_rec;
struct iolens_h5d_rec *iolens_h5d_close_begin(hid_t dset);
void iolens_h5d_close_end(struct iolens_h5d_rec *rec, int closed, double t0, double t1);

#endif
