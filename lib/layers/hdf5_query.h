/* What the HDF5 layers (hdf5_layer.h) ask HDF5 about its objects: the
 * names of files and datasets, the facts the counters keep about them,
 * and what one H5Dread or H5Dwrite selects.  The questions go to the
 * traced library's functions (core/hdf5_calls.h), each only when that
 * library has it.  HDF5 prints its error stack when a call fails, and a
 * question must print nothing: callers ask between
 * iolens_h5q_quiet_begin and _end.  The layer asks before taking a
 * record's lock. */
#ifndef IOLENS_HDF5_QUERY_H
#define IOLENS_HDF5_QUERY_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hdf5_calls.h"

/* Dimensions the counters keep (DIM1..DIM5, LENGTH_D1..D5). */
#define IOLENS_H5_KEPT_DIMS 5

/* Whether the traced HDF5 library has the function name. */
#define IOLENS_H5_HAVE(name) (IOLENS_H5(name) != NULL)

/* HDF5's error printing, off between begin and end. */
struct iolens_h5q_quiet {
    H5E_auto2_t fn;
    void *data;
    int saved;
};
void iolens_h5q_quiet_begin(struct iolens_h5q_quiet *q);
void iolens_h5q_quiet_end(const struct iolens_h5q_quiet *q);

/* The application's references to id (H5Iget_ref), -1 when it is not a
 * valid id or HDF5 cannot say; asked quietly, so that a program closing
 * an invalid id sees only the error stack of its own call. */
int iolens_h5q_references(hid_t id);

/* Whether id is a file's id, asked as quietly. */
int iolens_h5q_is_file(hid_t id);

/* The normalized absolute path of the file holding object, its length,
 * or -1 when it has none, cannot be resolved or is not traced. */
long iolens_h5q_file_path(hid_t object, char *out, size_t outsz);

/* "<file path>:<dataset path>" of a dataset, its length, or -1; *anonymous
 * is set when the dataset has no path (not linked into the file), and
 * when set on entry the path is not asked (H5Iget_name would search the
 * whole file for one).  Without a path, placeholder stands for it. */
long iolens_h5q_dataset_name(hid_t dset, const char *placeholder, char *out, size_t outsz,
                             long *file_len, int *anonymous);

/* What a file's access property lists say: the driver from the file's own
 * list (what HDF5 really uses); the collective metadata settings from it
 * and from given_fapl, the list the program passed. */
struct iolens_h5q_fapl_facts {
    int use_mpiio;
    int coll_metadata;
};
struct iolens_h5q_fapl_facts iolens_h5q_fapl_facts(hid_t file, hid_t given_fapl);

/* What the counters keep about a dataset, learned at create or open; -1
 * where HDF5 did not say. */
struct iolens_h5q_dset_facts {
    int64_t ndims, npoints, dims[IOLENS_H5_KEPT_DIMS];
    int64_t type_size, layout, chunk_ndims, chunk[IOLENS_H5_KEPT_DIMS], nfilters;
};
struct iolens_h5q_dset_facts iolens_h5q_dset_facts(hid_t dset);

/* What the layer learns about one H5Dread or H5Dwrite: its bytes (the
 * points of the file selection, the dataset's whole dataspace for
 * H5S_ALL, times the size of the memory datatype), the kind of the
 * selection, whether the transfer is collective, and the extents of the
 * selection's bounding box in the last IOLENS_H5_KEPT_DIMS dimensions,
 * right-aligned as Darshan's LENGTH_D1..D5 (the last dimension in
 * len[IOLENS_H5_KEPT_DIMS - 1]). */
enum iolens_h5q_select {
    IOLENS_H5Q_SEL_NONE,
    IOLENS_H5Q_SEL_ALL,
    IOLENS_H5Q_SEL_REGULAR,
    IOLENS_H5Q_SEL_IRREGULAR,
    IOLENS_H5Q_SEL_POINTS
};
struct iolens_h5q_access {
    int64_t bytes;
    enum iolens_h5q_select kind;
    int collective;
    int64_t len[IOLENS_H5_KEPT_DIMS];
};
struct iolens_h5q_access iolens_h5q_describe(hid_t dset, hid_t mem_type, hid_t file_space,
                                             hid_t dxpl);

#endif
