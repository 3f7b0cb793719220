/* Pointers to the HDF5 functions iolens calls or wraps, resolved in the
 * running process with dlsym.  libiolens is compiled against hdf5.h (the
 * 1.10 API; enum values and constants such as H5S_SEL_* and H5D_CHUNKED
 * come from the header) but never linked to libhdf5, so a program that
 * does not use HDF5 never loads it because of iolens.
 *
 * X(name, return type, parameter list). */
#ifndef IOLENS_HDF5_CALLS_H
#define IOLENS_HDF5_CALLS_H

#include <hdf5.h>

/* The calls wrappers/hdf5.c interposes. */
#define IOLENS_HDF5_CALLS_WRAPPED(X) \
    X(H5Fcreate, hid_t, (const char *, unsigned, hid_t, hid_t)) \
    X(H5Fopen, hid_t, (const char *, unsigned, hid_t)) \
    X(H5Fclose, herr_t, (hid_t)) \
    X(H5Fflush, herr_t, (hid_t, H5F_scope_t)) \
    X(H5Dcreate1, hid_t, (hid_t, const char *, hid_t, hid_t, hid_t)) \
    X(H5Dcreate2, hid_t, (hid_t, const char *, hid_t, hid_t, hid_t, hid_t, hid_t)) \
    X(H5Dcreate_anon, hid_t, (hid_t, hid_t, hid_t, hid_t, hid_t)) \
    X(H5Dopen1, hid_t, (hid_t, const char *)) \
    X(H5Dopen2, hid_t, (hid_t, const char *, hid_t)) \
    X(H5Dread, herr_t, (hid_t, hid_t, hid_t, hid_t, hid_t, void *)) \
    X(H5Dwrite, herr_t, (hid_t, hid_t, hid_t, hid_t, hid_t, const void *)) \
    X(H5Dclose, herr_t, (hid_t)) \
    X(H5Dflush, herr_t, (hid_t)) \
    X(H5Oopen, hid_t, (hid_t, const char *, hid_t)) \
    X(H5Oopen_by_idx, hid_t, (hid_t, const char *, H5_index_t, H5_iter_order_t, hsize_t, hid_t)) \
    X(H5Oopen_by_addr, hid_t, (hid_t, haddr_t)) \
    X(H5Rdereference1, hid_t, (hid_t, H5R_type_t, const void *)) \
    X(H5Rdereference2, hid_t, (hid_t, hid_t, H5R_type_t, const void *)) \
    X(H5Olink, herr_t, (hid_t, hid_t, const char *, hid_t, hid_t)) \
    X(H5Oclose, herr_t, (hid_t)) \
    X(H5Idec_ref, int, (hid_t))

/* The questions the layer asks HDF5 about files, datasets, selections,
 * types and property lists. */
#define IOLENS_HDF5_CALLS_QUERY(X) \
    X(H5Eget_auto2, herr_t, (hid_t, H5E_auto2_t *, void **)) \
    X(H5Eset_auto2, herr_t, (hid_t, H5E_auto2_t, void *)) \
    X(H5Eget_current_stack, hid_t, (void)) \
    X(H5Eset_current_stack, herr_t, (hid_t)) \
    X(H5Iget_type, H5I_type_t, (hid_t)) \
    X(H5Iget_name, ssize_t, (hid_t, char *, size_t)) \
    X(H5Iget_ref, int, (hid_t)) \
    X(H5Iis_valid, htri_t, (hid_t)) \
    X(H5Fget_name, ssize_t, (hid_t, char *, size_t)) \
    X(H5Fget_access_plist, hid_t, (hid_t)) \
    X(H5Dget_space, hid_t, (hid_t)) \
    X(H5Dget_type, hid_t, (hid_t)) \
    X(H5Dget_create_plist, hid_t, (hid_t)) \
    X(H5Sget_select_type, H5S_sel_type, (hid_t)) \
    X(H5Sget_select_npoints, hssize_t, (hid_t)) \
    X(H5Sget_select_bounds, herr_t, (hid_t, hsize_t *, hsize_t *)) \
    X(H5Sis_regular_hyperslab, htri_t, (hid_t)) \
    X(H5Sget_simple_extent_ndims, int, (hid_t)) \
    X(H5Sget_simple_extent_dims, int, (hid_t, hsize_t *, hsize_t *)) \
    X(H5Sget_simple_extent_npoints, hssize_t, (hid_t)) \
    X(H5Sclose, herr_t, (hid_t)) \
    X(H5Tget_size, size_t, (hid_t)) \
    X(H5Tclose, herr_t, (hid_t)) \
    X(H5Pget_layout, H5D_layout_t, (hid_t)) \
    X(H5Pget_chunk, int, (hid_t, int, hsize_t *)) \
    X(H5Pget_nfilters, int, (hid_t)) \
    X(H5Pget_driver, hid_t, (hid_t)) \
    X(H5Pget_all_coll_metadata_ops, herr_t, (hid_t, hbool_t *)) \
    X(H5Pget_coll_metadata_write, herr_t, (hid_t, hbool_t *)) \
    X(H5Pclose, herr_t, (hid_t)) \
    IOLENS_HDF5_CALLS_PARALLEL(X)

/* Only a parallel HDF5 declares these (a serial build leaves them NULL:
 * no file uses the MPI-IO driver, every transfer is independent). */
#ifdef H5_HAVE_PARALLEL
#define IOLENS_HDF5_CALLS_PARALLEL(X) \
    X(H5Pget_dxpl_mpio, herr_t, (hid_t, H5FD_mpio_xfer_t *)) \
    X(H5FD_mpio_init, hid_t, (void))
#else
#define IOLENS_HDF5_CALLS_PARALLEL(X)
#endif

#define IOLENS_HDF5_CALLS(X) IOLENS_HDF5_CALLS_WRAPPED(X) IOLENS_HDF5_CALLS_QUERY(X)

#define IOLENS_HDF5_DECLARE(name, ret, params) extern ret(*iolens_h5_##name) params;
IOLENS_HDF5_CALLS(IOLENS_HDF5_DECLARE)
#undef IOLENS_HDF5_DECLARE

/* The iolens_h5_x pointers are the functions of one library, the traced
 * one: the HDF5 library in the global scope when there is one (every
 * object's references bind there), else the first one a wrapped call came
 * for.  The pointers are final once set; never libiolens's own functions.
 *
 * Resolves them from the global scope (idempotent, thread-safe); the
 * wrappers' iolens_hdf5_real_for finds a library loaded privately.
 * Returns 1 once the traced library is known, else 0: the lookup is then
 * repeated on a later call. */
int iolens_hdf5_calls_resolve(void);

/* iolens_h5_x after resolution; may be NULL (a library without x). */
#define IOLENS_H5(name) \
    (__builtin_expect(iolens_h5_##name != NULL, 1) ? iolens_h5_##name \
                                                 : (iolens_hdf5_calls_resolve(), iolens_h5_##name))

/* ---------------------------------------------------- the wrappers -- */

#define IOLENS_HDF5_ID(name, ret, params) IOLENS_H5_ID_##name,
enum iolens_h5_wrapped_id { IOLENS_HDF5_CALLS_WRAPPED(IOLENS_HDF5_ID) IOLENS_H5_NWRAPPED };
#undef IOLENS_HDF5_ID

/* 1 once the traced library is in the global scope: then every wrapped
 * call is bound to it and iolens_h5_x is the function to call. */
extern _Atomic int iolens_h5_global;

/* The real function for wrapped call id made from the code at caller:
 * that of the HDF5 library the caller's object is bound to (libraries
 * loaded with RTLD_LOCAL are seen only from the objects that depend on
 * them), or of the first loaded one when the caller is bound to none.
 * *ours is set to 1 if that library is the traced one.  NULL if the
 * process has no HDF5 library: the wrapper then fails the call. */
void *iolens_hdf5_real_for(enum iolens_h5_wrapped_id id, const void *caller, int *ours);

/* The wrappers' way to get their real function: the traced library's
 * pointer, or when that library is in no global scope, the caller's. */
#define IOLENS_H5_REAL(name, caller, ours)                                       \
    (__builtin_expect(__atomic_load_n(&iolens_h5_global, __ATOMIC_ACQUIRE), 1)    \
         ? (*(ours) = 1, iolens_h5_##name)                                       \
         : (__typeof__(iolens_h5_##name))iolens_hdf5_real_for(IOLENS_H5_ID_##name, \
                                                              (caller), (ours)))

#endif
