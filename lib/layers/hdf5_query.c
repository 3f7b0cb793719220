/* What the HDF5 layers ask HDF5 about its objects (hdf5_query.h). */
#include "layers/hdf5_query.h"

#include <limits.h>
#include <string.h>

#include "layers/access_stats.h"
#include "layers/posix_layer.h"

void iolens_h5q_quiet_begin(struct iolens_h5q_quiet *q)
{
    q->saved = IOLENS_H5(H5Eget_auto2) != NULL && IOLENS_H5(H5Eset_auto2) != NULL &&
               IOLENS_H5(H5Eget_auto2)(H5E_DEFAULT, &q->fn, &q->data) >= 0;
    if (q->saved)
        IOLENS_H5(H5Eset_auto2)(H5E_DEFAULT, NULL, NULL);
}

void iolens_h5q_quiet_end(const struct iolens_h5q_quiet *q)
{
    if (q->saved)
        IOLENS_H5(H5Eset_auto2)(H5E_DEFAULT, q->fn, q->data);
}

int iolens_h5q_references(hid_t id)
{
    if (!IOLENS_H5_HAVE(H5Iget_ref))
        return -1;
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    int refs = IOLENS_H5(H5Iget_ref)(id);
    iolens_h5q_quiet_end(&q);
    return refs;
}

int iolens_h5q_is_file(hid_t id)
{
    if (!IOLENS_H5_HAVE(H5Iget_type))
        return 0;
    struct iolens_h5q_quiet q;
    iolens_h5q_quiet_begin(&q);
    int file = IOLENS_H5(H5Iget_type)(id) == H5I_FILE;
    iolens_h5q_quiet_end(&q);
    return file;
}

static int64_t clamp_u64(hsize_t v)
{
    return v > (hsize_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

long iolens_h5q_file_path(hid_t object, char *out, size_t outsz)
{
    char name[PATH_MAX];
    if (!IOLENS_H5_HAVE(H5Fget_name))
        return -1;
    ssize_t n = IOLENS_H5(H5Fget_name)(object, name, sizeof name);
    if (n <= 0 || (size_t)n >= sizeof name)
        return -1;
    return iolens_posix_resolve_traced(name, out, outsz);
}

long iolens_h5q_dataset_name(hid_t dset, const char *placeholder, char *out, size_t outsz,
                             long *file_len, int *anonymous)
{
    long len = iolens_h5q_file_path(dset, out, outsz);
    if (len < 0)
        return -1;
    *file_len = len;
    char path[PATH_MAX];
    ssize_t n = IOLENS_H5_HAVE(H5Iget_name) && !*anonymous
                    ? IOLENS_H5(H5Iget_name)(dset, path, sizeof path)
                    : 0;
    *anonymous = *anonymous || (IOLENS_H5_HAVE(H5Iget_name) && n == 0);
    const char *dset_path = n > 0 && (size_t)n < sizeof path ? path : placeholder;
    size_t need = (size_t)len + 1 + strlen(dset_path);
    if (need >= outsz)
        return -1;
    out[len] = ':';
    strcpy(out + len + 1, dset_path);
    return (long)need;
}

static int coll_metadata_of(hid_t fapl)
{
    hbool_t ops = 0, write = 0;
    if (IOLENS_H5_HAVE(H5Pget_all_coll_metadata_ops) &&
        IOLENS_H5(H5Pget_all_coll_metadata_ops)(fapl, &ops) < 0)
        ops = 0;
    if (IOLENS_H5_HAVE(H5Pget_coll_metadata_write) &&
        IOLENS_H5(H5Pget_coll_metadata_write)(fapl, &write) < 0)
        write = 0;
    return ops || write;
}

static int uses_mpiio(hid_t fapl)
{
#ifdef H5_HAVE_PARALLEL
    if (!IOLENS_H5_HAVE(H5Pget_driver) || !IOLENS_H5_HAVE(H5FD_mpio_init))
        return 0;
    hid_t driver = IOLENS_H5(H5Pget_driver)(fapl);
    return driver >= 0 && driver == IOLENS_H5(H5FD_mpio_init)();
#else
    (void)fapl;
    return 0;
#endif
}

struct iolens_h5q_fapl_facts iolens_h5q_fapl_facts(hid_t file, hid_t given_fapl)
{
    struct iolens_h5q_fapl_facts f = {0, 0};
    hid_t fapl = IOLENS_H5_HAVE(H5Fget_access_plist) ? IOLENS_H5(H5Fget_access_plist)(file) : -1;
    if (fapl >= 0) {
        f.use_mpiio = uses_mpiio(fapl);
        f.coll_metadata = coll_metadata_of(fapl);
        if (IOLENS_H5_HAVE(H5Pclose))
            IOLENS_H5(H5Pclose)(fapl);
    }
    if (given_fapl != H5P_DEFAULT && !f.coll_metadata)
        f.coll_metadata = coll_metadata_of(given_fapl);
    return f;
}

static void dataspace_facts(hid_t dset, struct iolens_h5q_dset_facts *f)
{
    hid_t space = IOLENS_H5_HAVE(H5Dget_space) ? IOLENS_H5(H5Dget_space)(dset) : -1;
    if (space < 0)
        return;
    hsize_t dims[H5S_MAX_RANK];
    int ndims = IOLENS_H5_HAVE(H5Sget_simple_extent_dims)
                    ? IOLENS_H5(H5Sget_simple_extent_dims)(space, dims, NULL)
                    : -1;
    if (ndims >= 0) {
        f->ndims = ndims;
        for (int i = 0; i < ndims && i < IOLENS_H5_KEPT_DIMS; i++)
            f->dims[i] = clamp_u64(dims[i]);
    }
    hssize_t npoints = IOLENS_H5_HAVE(H5Sget_simple_extent_npoints)
                           ? IOLENS_H5(H5Sget_simple_extent_npoints)(space)
                           : -1;
    if (npoints >= 0)
        f->npoints = npoints;
    IOLENS_H5(H5Sclose)(space);
}

static void datatype_facts(hid_t dset, struct iolens_h5q_dset_facts *f)
{
    hid_t type = IOLENS_H5_HAVE(H5Dget_type) ? IOLENS_H5(H5Dget_type)(dset) : -1;
    if (type < 0)
        return;
    size_t size = IOLENS_H5_HAVE(H5Tget_size) ? IOLENS_H5(H5Tget_size)(type) : 0;
    if (size > 0)
        f->type_size = (int64_t)size;
    if (IOLENS_H5_HAVE(H5Tclose))
        IOLENS_H5(H5Tclose)(type);
}

static void creation_facts(hid_t dset, struct iolens_h5q_dset_facts *f)
{
    hid_t dcpl = IOLENS_H5_HAVE(H5Dget_create_plist) ? IOLENS_H5(H5Dget_create_plist)(dset) : -1;
    if (dcpl < 0)
        return;
    H5D_layout_t layout =
        IOLENS_H5_HAVE(H5Pget_layout) ? IOLENS_H5(H5Pget_layout)(dcpl) : H5D_LAYOUT_ERROR;
    if (layout >= 0 && layout < H5D_NLAYOUTS)
        f->layout = layout;
    if (layout == H5D_CHUNKED && IOLENS_H5_HAVE(H5Pget_chunk)) {
        hsize_t chunk[H5S_MAX_RANK];
        int n = IOLENS_H5(H5Pget_chunk)(dcpl, H5S_MAX_RANK, chunk);
        if (n > 0) {
            f->chunk_ndims = n;
            for (int i = 0; i < n && i < IOLENS_H5_KEPT_DIMS; i++)
                f->chunk[i] = clamp_u64(chunk[i]);
        }
    }
    int nfilters = IOLENS_H5_HAVE(H5Pget_nfilters) ? IOLENS_H5(H5Pget_nfilters)(dcpl) : -1;
    if (nfilters >= 0)
        f->nfilters = nfilters;
    if (IOLENS_H5_HAVE(H5Pclose))
        IOLENS_H5(H5Pclose)(dcpl);
}

struct iolens_h5q_dset_facts iolens_h5q_dset_facts(hid_t dset)
{
    struct iolens_h5q_dset_facts f;
    memset(&f, 0, sizeof f);
    f.ndims = f.npoints = f.type_size = f.layout = -1;
    if (IOLENS_H5_HAVE(H5Sclose))
        dataspace_facts(dset, &f);
    datatype_facts(dset, &f);
    creation_facts(dset, &f);
    return f;
}

static enum iolens_h5q_select select_kind_of(hid_t space)
{
    H5S_sel_type type = IOLENS_H5_HAVE(H5Sget_select_type) ? IOLENS_H5(H5Sget_select_type)(space)
                                                 : H5S_SEL_ERROR;
    switch (type) {
    case H5S_SEL_ALL:
        return IOLENS_H5Q_SEL_ALL;
    case H5S_SEL_POINTS:
        return IOLENS_H5Q_SEL_POINTS;
    case H5S_SEL_HYPERSLABS:
        return IOLENS_H5_HAVE(H5Sis_regular_hyperslab) &&
                       IOLENS_H5(H5Sis_regular_hyperslab)(space) > 0
                   ? IOLENS_H5Q_SEL_REGULAR
                   : IOLENS_H5Q_SEL_IRREGULAR;
    default:
        return IOLENS_H5Q_SEL_NONE;
    }
}

/* The extents of the selection's bounding box in the last IOLENS_H5_KEPT_DIMS
 * dimensions, right-aligned as Darshan's LENGTH_D1..D5: the last
 * dimension in len[IOLENS_H5_KEPT_DIMS - 1]. */
static void shape_of(hid_t space, int64_t len[IOLENS_H5_KEPT_DIMS])
{
    hsize_t start[H5S_MAX_RANK], end[H5S_MAX_RANK];
    int ndims = IOLENS_H5_HAVE(H5Sget_simple_extent_ndims)
                    ? IOLENS_H5(H5Sget_simple_extent_ndims)(space)
                    : -1;
    if (ndims <= 0 || ndims > H5S_MAX_RANK || !IOLENS_H5_HAVE(H5Sget_select_bounds) ||
        IOLENS_H5(H5Sget_select_bounds)(space, start, end) < 0)
        return;
    int64_t extent[H5S_MAX_RANK];
    for (int i = 0; i < ndims; i++)
        extent[i] = clamp_u64(end[i] - start[i] + 1);
    iolens_right_align_dims(extent, ndims, len, IOLENS_H5_KEPT_DIMS);
}

/* The selection of the file dataspace: file_space, or for H5S_ALL the
 * dataset's whole dataspace. */
static void describe_selection(hid_t dset, hid_t file_space, struct iolens_h5q_access *a,
                               int64_t *npoints)
{
    hid_t space = file_space;
    if (file_space == H5S_ALL)
        space = IOLENS_H5_HAVE(H5Dget_space) ? IOLENS_H5(H5Dget_space)(dset) : -1;
    if (space < 0)
        return;
    hssize_t n =
        IOLENS_H5_HAVE(H5Sget_select_npoints) ? IOLENS_H5(H5Sget_select_npoints)(space) : -1;
    if (n > 0) {
        *npoints = n;
        a->kind = select_kind_of(space);
        shape_of(space, a->len);
    }
    if (file_space == H5S_ALL && IOLENS_H5_HAVE(H5Sclose))
        IOLENS_H5(H5Sclose)(space);
}

static int is_collective(hid_t dxpl)
{
#ifdef H5_HAVE_PARALLEL
    H5FD_mpio_xfer_t mode;
    return dxpl != H5P_DEFAULT && IOLENS_H5_HAVE(H5Pget_dxpl_mpio) &&
           IOLENS_H5(H5Pget_dxpl_mpio)(dxpl, &mode) >= 0 && mode == H5FD_MPIO_COLLECTIVE;
#else
    (void)dxpl;
    return 0;
#endif
}

struct iolens_h5q_access iolens_h5q_describe(hid_t dset, hid_t mem_type, hid_t file_space,
                                             hid_t dxpl)
{
    struct iolens_h5q_access a;
    memset(&a, 0, sizeof a);
    int64_t npoints = 0;
    describe_selection(dset, file_space, &a, &npoints);
    size_t type_size = IOLENS_H5_HAVE(H5Tget_size) ? IOLENS_H5(H5Tget_size)(mem_type) : 0;
    if (npoints > 0 && type_size > 0)
        a.bytes = (uint64_t)npoints > (uint64_t)INT64_MAX / type_size
                      ? INT64_MAX
                      : npoints * (int64_t)type_size;
    a.collective = is_collective(dxpl);
    return a;
}
