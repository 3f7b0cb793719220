/* HDF5 interposition: H5F and H5D calls.  Each wrapper:
 *   1. gets the real function (resolved in the running process with dlsym,
 *      lib/core/hdf5_calls.h: libiolens is never linked to libhdf5), from the
 *      HDF5 library its caller is bound to; a missing one fails the call
 *      as HDF5 would (a negative id or herr_t);
 *   2. if that library is not the traced one, its layer is not tracing
 *      (or the dataset is not tracked), calls it straight away;
 *   3. else times the call and, when it succeeded, hands the facts to
 *      lib/layers/hdf5_layer.c with the runtime guard set, so that the HDF5 calls
 *      the layer makes to learn about the objects are not traced.
 * The real call itself runs unguarded: the MPI-IO and POSIX calls HDF5
 * makes are the lower layers' records.
 *
 * The prototypes match hdf5.h (1.10 and later); the compiler checks them
 * against the declarations there.  H5Dcreate1 and H5Dopen1 exist only
 * while the header declares deprecated symbols. */
#include <errno.h>
#include <hdf5.h>
#include <stdatomic.h>

#include "core/call_site.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "core/hdf5_calls.h"
#include "layers/hdf5_layer.h"
#include "layers/hdf5_query.h"
#include "core/state.h"
#include "wrapper.h"

/* Declares fn as the real function, the one of the library the caller
 * is bound to, and ours as 1 if that library is the traced one (a call
 * for another HDF5 library in the process passes through untraced); fails
 * the call if there is none.  Never libiolens's own function: calling it
 * would recurse without end. */
#define H5_REAL_OR_FAIL(fn, name)                                                           \
    int ours = 0;                                                                           \
    __typeof__(iolens_h5_##name) fn = IOLENS_H5_REAL(name, __builtin_return_address(0), &ours); \
    if (__builtin_expect(fn == NULL, 0))                                                    \
        return -1;

static inline int tracing_files(int ours)
{
    return ours && iolens_tracing(IOLENS_LAYER_H5F);
}

static inline int tracing_datasets(int ours)
{
    return ours && iolens_tracing(IOLENS_LAYER_H5D);
}

static inline int traced(int ours, hid_t dset)
{
    return tracing_datasets(ours) && iolens_h5d_is_traced(dset);
}

/* ------------------------------------------- after the real call -- */

static hid_t after_file_open(hid_t file, hid_t fapl, int created, double t0)
{
    double t1 = iolens_now();
    if (file >= 0) {
        int saved = enter();
        iolens_h5f_open(file, fapl, created, t0, t1);
        leave(saved);
    }
    return file;
}

static hid_t after_dataset_open(hid_t dset, enum iolens_h5d_naming naming, double t0)
{
    double t1 = iolens_now();
    if (dset >= 0) {
        int saved = enter();
        iolens_h5d_open(dset, naming, t0, t1);
        leave(saved);
    }
    return dset;
}

static herr_t after_access(hid_t dset, enum iolens_h5d_dir dir, hid_t mem_type, hid_t mem_space,
                           hid_t file_space, hid_t dxpl, herr_t rc, double t0)
{
    double t1 = iolens_now();
    int saved = enter();
    if (rc >= 0)
        iolens_h5d_access(dset, dir, mem_type, mem_space, file_space, dxpl, t0, t1);
    else
        iolens_h5d_failed_access(dset, dir, mem_type, file_space, dxpl, t0, t1);
    leave(saved);
    return rc;
}

/* H5Fflush and H5Dflush: report(id, t0, t1) is the layer function. */
static herr_t after_flush(void (*report)(hid_t, double, double), hid_t id, herr_t rc, double t0)
{
    double t1 = iolens_now();
    if (rc >= 0) {
        int saved = enter();
        report(id, t0, t1);
        leave(saved);
    }
    return rc;
}

/* A close: the layer takes the record out of its tables before the real
 * call and charges it the close if the call succeeded. */
static herr_t after_file_close(struct iolens_h5f_rec *rec, herr_t rc, double t0)
{
    double t1 = iolens_now();
    if (rc >= 0) {
        int saved = enter();
        iolens_h5f_close_end(rec, t0, t1);
        leave(saved);
    }
    return rc;
}

static herr_t after_dataset_close(struct iolens_h5d_rec *rec, herr_t rc, double t0)
{
    double t1 = iolens_now();
    int saved = enter();
    iolens_h5d_close_end(rec, rc >= 0, t0, t1);
    leave(saved);
    return rc;
}

/* H5Dclose, and H5Oclose of a tracked dataset. */
static inline __attribute__((always_inline)) herr_t close_dataset(herr_t (*real)(hid_t),
                                                            hid_t dset)
{
    int saved = enter();
    struct iolens_h5d_rec *rec = iolens_h5d_close_begin(dset);
    leave(saved);
    double t0 = iolens_now();
    /* HDF5 writes what it buffered here: the program's line is the site. */
    int outer = iolens_site_enter(__builtin_return_address(0));
    herr_t rc = real(dset);
    iolens_site_leave(outer);
    return after_dataset_close(rec, rc, t0);
}

/* ------------------------------------------------------ references -- */

static int references(hid_t id)
{
    int saved = enter();
    int refs = iolens_h5q_references(id);
    leave(saved);
    return refs;
}

static int is_file(hid_t id)
{
    int saved = enter();
    int file = iolens_h5q_is_file(id);
    leave(saved);
    return file;
}

/* h5py lets its handles go with H5Idec_ref, never H5Dclose or H5Fclose:
 * the last reference to a dataset's or a file's handle going is its
 * close. */
static int last_reference(hid_t id)
{
    return references(id) == 1;
}

/* H5Dclose, H5Oclose and H5Fclose of a handle with more references than
 * one only drop one: the handle stays open.  netCDF-4 takes a second
 * reference (H5Iinc_ref) to each variable's dataset, closes the handle it
 * opened it with, and reads through the handle until nc_close. */
static int other_references(hid_t id)
{
    return references(id) > 1;
}

/* ------------------------------------------------------------ files -- */

IOLENS_EXPORT hid_t H5Fcreate(const char *filename, unsigned flags, hid_t fcpl_id, hid_t fapl_id)
{
    H5_REAL_OR_FAIL(real, H5Fcreate);
    if (!tracing_files(ours))
        return real(filename, flags, fcpl_id, fapl_id);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    hid_t id = real(filename, flags, fcpl_id, fapl_id);
    iolens_site_leave(outer);
    return after_file_open(id, fapl_id, 1, t0);
}

IOLENS_EXPORT hid_t H5Fopen(const char *filename, unsigned flags, hid_t fapl_id)
{
    H5_REAL_OR_FAIL(real, H5Fopen);
    if (!tracing_files(ours))
        return real(filename, flags, fapl_id);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    hid_t id = real(filename, flags, fapl_id);
    iolens_site_leave(outer);
    return after_file_open(id, fapl_id, 0, t0);
}

IOLENS_EXPORT herr_t H5Fflush(hid_t object_id, H5F_scope_t scope)
{
    H5_REAL_OR_FAIL(real, H5Fflush);
    if (!tracing_files(ours))
        return real(object_id, scope);
    double t0 = iolens_now();
    /* HDF5 writes what it buffered here: the program's line is the site. */
    int outer = iolens_site_enter(__builtin_return_address(0));
    herr_t rc = real(object_id, scope);
    iolens_site_leave(outer);
    return after_flush(iolens_h5f_flush, object_id, rc, t0);
}

/* H5Fclose, and H5Idec_ref of a file's last reference. */
static inline __attribute__((always_inline)) herr_t close_file(herr_t (*real)(hid_t),
                                                         hid_t file_id)
{
    int saved = enter();
    struct iolens_h5f_rec *rec = iolens_h5f_close_begin(file_id);
    leave(saved);
    if (rec == NULL)
        return real(file_id);
    double t0 = iolens_now();
    /* HDF5 writes what it buffered here: the program's line is the site. */
    int outer = iolens_site_enter(__builtin_return_address(0));
    herr_t rc = real(file_id);
    iolens_site_leave(outer);
    return after_file_close(rec, rc, t0);
}

IOLENS_EXPORT herr_t H5Fclose(hid_t file_id)
{
    H5_REAL_OR_FAIL(real, H5Fclose);
    if (!tracing_files(ours) || other_references(file_id))
        return real(file_id);
    return close_file(real, file_id);
}

/* --------------------------------------------------------- datasets -- */

IOLENS_EXPORT hid_t H5Dcreate2(hid_t loc_id, const char *name, hid_t type_id, hid_t space_id,
                               hid_t lcpl_id, hid_t dcpl_id, hid_t dapl_id)
{
    H5_REAL_OR_FAIL(real, H5Dcreate2);
    if (!tracing_datasets(ours))
        return real(loc_id, name, type_id, space_id, lcpl_id, dcpl_id, dapl_id);
    double t0 = iolens_now();
    return after_dataset_open(real(loc_id, name, type_id, space_id, lcpl_id, dcpl_id, dapl_id),
                              IOLENS_H5D_NAMED, t0);
}

IOLENS_EXPORT hid_t H5Dcreate_anon(hid_t loc_id, hid_t type_id, hid_t space_id, hid_t dcpl_id,
                                   hid_t dapl_id)
{
    H5_REAL_OR_FAIL(real, H5Dcreate_anon);
    if (!tracing_datasets(ours))
        return real(loc_id, type_id, space_id, dcpl_id, dapl_id);
    double t0 = iolens_now();
    return after_dataset_open(real(loc_id, type_id, space_id, dcpl_id, dapl_id),
                              IOLENS_H5D_ANONYMOUS, t0);
}

IOLENS_EXPORT hid_t H5Dopen2(hid_t loc_id, const char *name, hid_t dapl_id)
{
    H5_REAL_OR_FAIL(real, H5Dopen2);
    if (!tracing_datasets(ours))
        return real(loc_id, name, dapl_id);
    double t0 = iolens_now();
    return after_dataset_open(real(loc_id, name, dapl_id), IOLENS_H5D_NAMED, t0);
}

#ifndef H5_NO_DEPRECATED_SYMBOLS
IOLENS_EXPORT hid_t H5Dcreate1(hid_t loc_id, const char *name, hid_t type_id, hid_t space_id,
                               hid_t dcpl_id)
{
    H5_REAL_OR_FAIL(real, H5Dcreate1);
    if (!tracing_datasets(ours))
        return real(loc_id, name, type_id, space_id, dcpl_id);
    double t0 = iolens_now();
    return after_dataset_open(real(loc_id, name, type_id, space_id, dcpl_id), IOLENS_H5D_NAMED,
                              t0);
}

IOLENS_EXPORT hid_t H5Dopen1(hid_t loc_id, const char *name)
{
    H5_REAL_OR_FAIL(real, H5Dopen1);
    if (!tracing_datasets(ours))
        return real(loc_id, name);
    double t0 = iolens_now();
    return after_dataset_open(real(loc_id, name), IOLENS_H5D_NAMED, t0);
}
#endif

IOLENS_EXPORT herr_t H5Dread(hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id,
                             hid_t file_space_id, hid_t dxpl_id, void *buf)
{
    H5_REAL_OR_FAIL(real, H5Dread);
    if (!traced(ours, dset_id))
        return real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    herr_t rc = real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    iolens_site_leave(outer);
    return after_access(dset_id, IOLENS_H5D_READ, mem_type_id, mem_space_id, file_space_id,
                        dxpl_id, rc, t0);
}

IOLENS_EXPORT herr_t H5Dwrite(hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id,
                              hid_t file_space_id, hid_t dxpl_id, const void *buf)
{
    H5_REAL_OR_FAIL(real, H5Dwrite);
    if (!traced(ours, dset_id))
        return real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    double t0 = iolens_now();
    int outer = iolens_site_enter(__builtin_return_address(0));
    herr_t rc = real(dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
    iolens_site_leave(outer);
    return after_access(dset_id, IOLENS_H5D_WRITE, mem_type_id, mem_space_id, file_space_id,
                        dxpl_id, rc, t0);
}

IOLENS_EXPORT herr_t H5Dflush(hid_t dset_id)
{
    H5_REAL_OR_FAIL(real, H5Dflush);
    if (!traced(ours, dset_id))
        return real(dset_id);
    double t0 = iolens_now();
    /* HDF5 writes what it buffered here: the program's line is the site. */
    int outer = iolens_site_enter(__builtin_return_address(0));
    herr_t rc = real(dset_id);
    iolens_site_leave(outer);
    return after_flush(iolens_h5d_flush, dset_id, rc, t0);
}

IOLENS_EXPORT herr_t H5Dclose(hid_t dset_id)
{
    H5_REAL_OR_FAIL(real, H5Dclose);
    if (!traced(ours, dset_id) || other_references(dset_id))
        return real(dset_id);
    return close_dataset(real, dset_id);
}

/* ---------------------------------------------- generic objects -- */

/* An object opened by a call that opens any kind of object: if it is a
 * dataset, that is a dataset open. */
static hid_t after_object_open(hid_t id, enum iolens_h5d_naming naming, double t0)
{
    double t1 = iolens_now();
    if (id >= 0) {
        int saved = enter();
        if (IOLENS_H5(H5Iget_type) != NULL && IOLENS_H5(H5Iget_type)(id) == H5I_DATASET)
            iolens_h5d_open(id, naming, t0, t1);
        leave(saved);
    }
    return id;
}

/* h5py opens datasets with H5Oopen. */
IOLENS_EXPORT hid_t H5Oopen(hid_t loc_id, const char *name, hid_t lapl_id)
{
    H5_REAL_OR_FAIL(real, H5Oopen);
    if (!tracing_datasets(ours))
        return real(loc_id, name, lapl_id);
    double t0 = iolens_now();
    return after_object_open(real(loc_id, name, lapl_id), IOLENS_H5D_NAMED, t0);
}

/* The n-th object of a group: HDF5 knows its path, the dataset its name. */
IOLENS_EXPORT hid_t H5Oopen_by_idx(hid_t loc_id, const char *group_name, H5_index_t idx_type,
                                   H5_iter_order_t order, hsize_t n, hid_t lapl_id)
{
    H5_REAL_OR_FAIL(real, H5Oopen_by_idx);
    if (!tracing_datasets(ours))
        return real(loc_id, group_name, idx_type, order, n, lapl_id);
    double t0 = iolens_now();
    return after_object_open(real(loc_id, group_name, idx_type, order, n, lapl_id),
                             IOLENS_H5D_NAMED, t0);
}

/* HDF5 knows no path for the object. */
IOLENS_EXPORT hid_t H5Oopen_by_addr(hid_t loc_id, haddr_t addr)
{
    H5_REAL_OR_FAIL(real, H5Oopen_by_addr);
    if (!tracing_datasets(ours))
        return real(loc_id, addr);
    double t0 = iolens_now();
    return after_object_open(real(loc_id, addr), IOLENS_H5D_BY_REFERENCE, t0);
}

/* An object reference followed (h5py's f[ref]; MATLAB v7.3 files keep
 * their cell arrays' elements so).  HDF5 knows no path for the object. */
IOLENS_EXPORT hid_t H5Rdereference2(hid_t obj_id, hid_t oapl_id, H5R_type_t ref_type,
                                    const void *ref)
{
    H5_REAL_OR_FAIL(real, H5Rdereference2);
    if (!tracing_datasets(ours))
        return real(obj_id, oapl_id, ref_type, ref);
    double t0 = iolens_now();
    return after_object_open(real(obj_id, oapl_id, ref_type, ref), IOLENS_H5D_BY_REFERENCE,
                             t0);
}

#ifndef H5_NO_DEPRECATED_SYMBOLS
IOLENS_EXPORT hid_t H5Rdereference1(hid_t obj_id, H5R_type_t ref_type, const void *ref)
{
    H5_REAL_OR_FAIL(real, H5Rdereference1);
    if (!tracing_datasets(ours))
        return real(obj_id, ref_type, ref);
    double t0 = iolens_now();
    return after_object_open(real(obj_id, ref_type, ref), IOLENS_H5D_BY_REFERENCE, t0);
}
#endif

/* h5py's f["x"] = array: H5Dcreate_anon, H5Dwrite, then H5Olink names
 * the dataset. */
IOLENS_EXPORT herr_t H5Olink(hid_t obj_id, hid_t new_loc_id, const char *new_name, hid_t lcpl_id,
                             hid_t lapl_id)
{
    H5_REAL_OR_FAIL(real, H5Olink);
    if (!traced(ours, obj_id))
        return real(obj_id, new_loc_id, new_name, lcpl_id, lapl_id);
    herr_t rc = real(obj_id, new_loc_id, new_name, lcpl_id, lapl_id);
    if (rc >= 0) {
        int saved = enter();
        iolens_h5d_link(obj_id);
        leave(saved);
    }
    return rc;
}

IOLENS_EXPORT herr_t H5Oclose(hid_t object_id)
{
    H5_REAL_OR_FAIL(real, H5Oclose);
    if (!traced(ours, object_id) || other_references(object_id))
        return real(object_id);
    return close_dataset(real, object_id);
}

IOLENS_EXPORT int H5Idec_ref(hid_t id)
{
    H5_REAL_OR_FAIL(real, H5Idec_ref);
    if (traced(ours, id) && last_reference(id))
        return close_dataset(real, id);
    if (tracing_files(ours) && is_file(id) && last_reference(id))
        return close_file(real, id);
    return real(id);
}
