/* iolens-export --hdf5: every log into one HDF5 file, a group per job,
 * laid out like Slurm's job profiles (iolens-export(1), HDF5 LAYOUT):
 *   /<job>                          job attributes
 *   /<job>/Nodes/<host>/Time Series/<LAYER>   the node's ranks summed
 *   /<job>/Ranks/<rank>/Time Series/<LAYER>
 *   /<job>/Totals/<LAYER>           min/avg/max/sum across ranks per bin
 *   /<job>/Files                    one row per file record
 * The library runs serially (the default file driver) even though it is
 * the parallel build: nothing here calls MPI. */
#include "export/export.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/export_series.h"
#include "output/out_file.h"
#include "analysis/perf.h"
#include "format/record_merge.h"
#include "reader/reader.h"

#define PROG IOLENS_EXPORT_PROG

/* Status of writing one job: ok, a log problem (exit 2), or the output
 * (exit 3, fatal). */
enum job_status { JOB_OK = 0, JOB_LOG = 2, JOB_OUTPUT = 3 };

/* ---------------------------------------------------------- attributes -- */

static hid_t vlen_string_type(void)
{
    /* ASCII: HDF5 stores the bytes as they are; names need not be UTF-8 */
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && H5Tset_size(t, H5T_VARIABLE) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

static int put_attr(hid_t loc, const char *name, hid_t type, const void *value)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = space >= 0 ? H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a >= 0 && H5Awrite(a, type, value) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

static int attr_str(hid_t loc, const char *name, const char *s)
{
    hid_t t = vlen_string_type();
    if (t < 0)
        return -1;
    int rc = put_attr(loc, name, t, &s);
    H5Tclose(t);
    return rc;
}

static int attr_i64(hid_t loc, const char *name, int64_t v)
{
    return put_attr(loc, name, H5T_NATIVE_INT64, &v);
}

static int attr_u64(hid_t loc, const char *name, uint64_t v)
{
    return put_attr(loc, name, H5T_NATIVE_UINT64, &v);
}

static int attr_f64(hid_t loc, const char *name, double v)
{
    return put_attr(loc, name, H5T_NATIVE_DOUBLE, &v);
}

static int attr_i64_array(hid_t loc, const char *name, const int64_t *v, size_t n)
{
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t a = space >= 0
                  ? H5Acreate2(loc, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT)
                  : -1;
    int rc = a >= 0 && H5Awrite(a, H5T_NATIVE_INT64, v) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* A job string with its NUL separators (arguments) as spaces. */
static char *joined(const struct iolens_log *log, enum iolens_job_string i)
{
    size_t len = log->jobstr_len[i];
    char *s = malloc(len + 1);
    if (s == NULL)
        return NULL;
    for (size_t k = 0; k < len; k++)
        s[k] = log->jobstr[i][k] != '\0' ? log->jobstr[i][k] : ' ';
    s[len] = '\0';
    return s;
}

static int job_string_attrs(hid_t g, const struct iolens_log *log)
{
    char *args = joined(log, IOLENS_JOBSTR_ARGS);
    if (args == NULL)
        return -1;
    int rc = attr_str(g, "jobid", log->jobstr[IOLENS_JOBSTR_JOBID]) |
             attr_str(g, "user", log->jobstr[IOLENS_JOBSTR_USER]) |
             attr_str(g, "exe", log->jobstr[IOLENS_JOBSTR_EXE]) | attr_str(g, "args", args) |
             attr_str(g, "iolens_version", log->jobstr[IOLENS_JOBSTR_VERSION]) |
             attr_str(g, "mpi_library", log->jobstr[IOLENS_JOBSTR_MPI_VERSION]);
    free(args);
    return rc;
}

static int job_attrs(hid_t g, const struct iolens_log *log, const char *log_path, double width,
                     const struct iolens_xseries *xs)
{
    char abs[PATH_MAX];
    const char *path = realpath(log_path, abs) != NULL ? abs : log_path;
    const struct iolens_job_fixed *j = &log->job;
    int rc = job_string_attrs(g, log) | attr_u64(g, "uid", j->uid) |
             attr_i64(g, "nprocs", j->nprocs) | attr_i64(g, "nnodes", j->nnodes) |
             attr_i64(g, "start", j->start_time_sec) | attr_i64(g, "end", j->end_time_sec) |
             attr_f64(g, "runtime", j->run_time) | attr_i64(g, "pid", j->pid) |
             attr_str(g, "log_path", path) | attr_str(g, "export_version", PACKAGE_VERSION) |
             attr_f64(g, "bin_width", width) | attr_i64(g, "bins", xs->nbins) |
             attr_f64(g, "first_bin_time", iolens_xs_time(xs, 0));
    return rc != 0 ? -1 : 0;
}

/* ------------------------------------------------------------ datasets -- */

static hid_t make_group(hid_t parent, const char *name)
{
    return H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
}

/* A one-dimensional dataset of n elements of type, written from data. */
static int write_table(hid_t parent, const char *name, hid_t type, size_t n, const void *data)
{
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t d = space >= 0 ? H5Dcreate2(parent, name, type, space, H5P_DEFAULT, H5P_DEFAULT,
                                      H5P_DEFAULT)
                         : -1;
    int rc = d >= 0 && (n == 0 || H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
                 ? 0
                 : -1;
    if (d >= 0)
        H5Dclose(d);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* A Time Series row: the bin's start, then the items (export_series.h). */
struct series_row {
    double time;
    int64_t v[IOLENS_XS_NITEMS];
};

static hid_t series_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct series_row));
    if (t < 0)
        return -1;
    herr_t e = H5Tinsert(t, "time", offsetof(struct series_row, time), H5T_NATIVE_DOUBLE);
    for (int k = 0; k < IOLENS_XS_NITEMS && e >= 0; k++)
        e = H5Tinsert(t, iolens_xs_item_names[k],
                      offsetof(struct series_row, v) + (size_t)k * sizeof(int64_t),
                      H5T_NATIVE_INT64);
    if (e < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* The summed series of some ranks at layer l as a dataset. */
static int write_series(hid_t ts, const struct iolens_xseries *xs, int l, const int64_t *ranks,
                        size_t nranks)
{
    size_t n = (size_t)xs->nbins;
    struct iolens_xs_row *sum = calloc(n > 0 ? n : 1, sizeof *sum);
    struct series_row *rows = malloc((n > 0 ? n : 1) * sizeof *rows);
    hid_t t = series_type();
    int rc = -1;
    if (sum != NULL && rows != NULL && t >= 0) {
        for (size_t r = 0; r < nranks; r++)
            iolens_xs_add_rank(xs, l, ranks[r], sum);
        for (size_t i = 0; i < n; i++) {
            rows[i].time = iolens_xs_time(xs, (int64_t)i);
            memcpy(rows[i].v, sum[i].v, sizeof rows[i].v);
        }
        rc = write_table(ts, iolens_layer_name(iolens_xs_kind(l)), t, n, rows);
    }
    if (t >= 0)
        H5Tclose(t);
    free(sum);
    free(rows);
    return rc;
}

/* A "Time Series" group under parent with a dataset per layer that one
 * of the ranks used. */
static int write_time_series(hid_t parent, const struct iolens_xseries *xs, const int64_t *ranks,
                             size_t nranks)
{
    hid_t ts = make_group(parent, "Time Series");
    if (ts < 0)
        return -1;
    int rc = 0;
    for (int l = 0; l < IOLENS_XS_NLAYERS && rc == 0; l++) {
        bool used = false;
        for (size_t r = 0; r < nranks && !used; r++)
            used = iolens_xs_rank_active(xs, l, ranks[r]);
        if (used)
            rc = write_series(ts, xs, l, ranks, nranks);
    }
    H5Gclose(ts);
    return rc;
}

/* -------------------------------------------------------- nodes, ranks -- */

/* Host index of rank r (0 without a ranks region: one process). */
static size_t host_of(const struct iolens_log *log, int64_t r)
{
    return (size_t)r < log->nranks ? log->ranks[r].host_index : 0;
}

/* The job's host names, split at their NULs; at least one ("unknown"). */
struct hosts {
    size_t n;
    const char **name;
};

static int split_hosts(const struct iolens_log *log, struct hosts *h)
{
    const char *s = log->jobstr[IOLENS_JOBSTR_HOSTS];
    size_t len = log->jobstr_len[IOLENS_JOBSTR_HOSTS];
    h->n = 0;
    h->name = malloc((len + 1) * sizeof *h->name);
    if (h->name == NULL)
        return -1;
    for (size_t k = 0; len > 0 && k <= len; k += strlen(s + k) + 1)
        h->name[h->n++] = s + k;
    if (h->n == 0)
        h->name[h->n++] = "unknown";
    return 0;
}

/* A host name as a group name: HDF5 names cannot hold '/' or be "." */
static void group_name_of_host(const char *host, size_t index, char *buf, size_t size)
{
    if (host[0] == '\0' || strcmp(host, ".") == 0) {
        snprintf(buf, size, "node%zu", index);
        return;
    }
    snprintf(buf, size, "%s", host);
    for (char *p = buf; *p != '\0'; p++)
        if (*p == '/')
            *p = '_';
}

static int write_node(hid_t nodes, const struct iolens_log *log, const struct iolens_xseries *xs,
                      const struct hosts *h, size_t host, int64_t *ranks)
{
    size_t n = 0;
    for (int64_t r = 0; r < xs->nranks; r++)
        if (host_of(log, r) == host || (host_of(log, r) >= h->n && host == 0))
            ranks[n++] = r;
    char name[512];
    group_name_of_host(h->name[host], host, name, sizeof name);
    if (H5Lexists(nodes, name, H5P_DEFAULT) > 0)
        return 0;   /* a repeated host name: its ranks are already there */
    hid_t g = make_group(nodes, name);
    if (g < 0)
        return -1;
    int rc = attr_str(g, "host", h->name[host]) | attr_i64_array(g, "ranks", ranks, n);
    if (rc == 0)
        rc = write_time_series(g, xs, ranks, n);
    H5Gclose(g);
    return rc;
}

static int write_nodes(hid_t job, const struct iolens_log *log, const struct iolens_xseries *xs)
{
    struct hosts h;
    int64_t *ranks = malloc((size_t)xs->nranks * sizeof *ranks);
    if (ranks == NULL || split_hosts(log, &h) != 0) {
        free(ranks);
        return -1;
    }
    hid_t nodes = make_group(job, "Nodes");
    int rc = nodes >= 0 ? 0 : -1;
    for (size_t k = 0; k < h.n && rc == 0; k++)
        rc = write_node(nodes, log, xs, &h, k, ranks);
    if (nodes >= 0)
        H5Gclose(nodes);
    free(h.name);
    free(ranks);
    return rc;
}

static int write_ranks(hid_t job, const struct iolens_log *log, const struct iolens_xseries *xs)
{
    struct hosts h;
    if (split_hosts(log, &h) != 0)
        return -1;
    hid_t group = make_group(job, "Ranks");
    int rc = group >= 0 ? 0 : -1;
    for (int64_t r = 0; r < xs->nranks && rc == 0; r++) {
        char name[32];
        snprintf(name, sizeof name, "%lld", (long long)r);
        hid_t g = make_group(group, name);
        if (g < 0) {
            rc = -1;
            break;
        }
        size_t host = host_of(log, r);
        rc = attr_str(g, "node", host < h.n ? h.name[host] : h.name[0]);
        if (rc == 0)
            rc = write_time_series(g, xs, &r, 1);
        H5Gclose(g);
    }
    if (group >= 0)
        H5Gclose(group);
    free(h.name);
    return rc;
}

/* -------------------------------------------------------------- totals -- */

struct total_item {
    int64_t min;
    double avg;
    int64_t max, sum;
};

struct total_row {
    double time;
    struct total_item it[IOLENS_XS_NITEMS];
};

static hid_t totals_type(void)
{
    static const char *const stat[4] = {"min", "avg", "max", "sum"};
    static const size_t at[4] = {offsetof(struct total_item, min), offsetof(struct total_item, avg),
                                 offsetof(struct total_item, max), offsetof(struct total_item, sum)};
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct total_row));
    if (t < 0)
        return -1;
    herr_t e = H5Tinsert(t, "time", offsetof(struct total_row, time), H5T_NATIVE_DOUBLE);
    for (int k = 0; k < IOLENS_XS_NITEMS && e >= 0; k++)
        for (int s = 0; s < 4 && e >= 0; s++) {
            char name[64];
            snprintf(name, sizeof name, "%s_%s", iolens_xs_item_names[k], stat[s]);
            e = H5Tinsert(t, name,
                          offsetof(struct total_row, it) + (size_t)k * sizeof(struct total_item) +
                              at[s],
                          s == 1 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64);
        }
    if (e < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

static int fill_totals(const struct iolens_xseries *xs, int l, struct total_row *rows)
{
    for (int64_t i = 0; i < xs->nbins; i++)
        rows[i].time = iolens_xs_time(xs, i);
    for (int k = 0; k < IOLENS_XS_NITEMS; k++) {
        struct iolens_xs_cursor c;
        if (iolens_xs_cursor_init(&c, xs, l, k) != 0)
            return -1;
        for (int64_t i = 0; i < xs->nbins; i++) {
            struct iolens_xs_stat st;
            iolens_xs_row_values(&c, NULL, &st);
            rows[i].it[k] = (struct total_item){st.min, st.avg, st.max, st.sum};
        }
        iolens_xs_cursor_free(&c);
    }
    return 0;
}

static int write_totals(hid_t job, const struct iolens_xseries *xs)
{
    hid_t g = make_group(job, "Totals");
    hid_t t = totals_type();
    size_t n = (size_t)xs->nbins;
    struct total_row *rows = malloc((n > 0 ? n : 1) * sizeof *rows);
    int rc = g >= 0 && t >= 0 && rows != NULL ? 0 : -1;
    for (int l = 0; l < IOLENS_XS_NLAYERS && rc == 0; l++) {
        if (!xs->layer_present[l])
            continue;
        rc = fill_totals(xs, l, rows);
        if (rc == 0)
            rc = write_table(g, iolens_layer_name(iolens_xs_kind(l)), t, n, rows);
    }
    free(rows);
    if (t >= 0)
        H5Tclose(t);
    if (g >= 0)
        H5Gclose(g);
    return rc;
}

/* --------------------------------------------------------------- files -- */

struct file_row {
    const char *path;
    uint64_t id;
    int layer;
    int64_t rank;
    int64_t bytes_read, bytes_written, reads, writes, opens;
    double read_time, write_time, meta_time;
};

/* The layer field: an enumeration whose values are the region kinds. */
static hid_t layer_enum_type(void)
{
    hid_t t = H5Tenum_create(H5T_NATIVE_INT);
    for (unsigned k = 0; k < iolens_layer_desc_count() && t >= 0; k++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(k);
        int v = (int)d->region_kind;
        if (H5Tenum_insert(t, d->name, &v) < 0) {
            H5Tclose(t);
            t = -1;
        }
    }
    return t;
}

#define FILE_FIELD(name, type) {#name, offsetof(struct file_row, name), type}

static hid_t files_type(hid_t str, hid_t layer)
{
    const struct {
        const char *name;
        size_t at;
        hid_t type;
    } f[] = {
        FILE_FIELD(path, str),
        FILE_FIELD(id, H5T_NATIVE_UINT64),
        FILE_FIELD(layer, layer),
        FILE_FIELD(rank, H5T_NATIVE_INT64),
        FILE_FIELD(bytes_read, H5T_NATIVE_INT64),
        FILE_FIELD(bytes_written, H5T_NATIVE_INT64),
        FILE_FIELD(reads, H5T_NATIVE_INT64),
        FILE_FIELD(writes, H5T_NATIVE_INT64),
        FILE_FIELD(opens, H5T_NATIVE_INT64),
        FILE_FIELD(read_time, H5T_NATIVE_DOUBLE),
        FILE_FIELD(write_time, H5T_NATIVE_DOUBLE),
        FILE_FIELD(meta_time, H5T_NATIVE_DOUBLE),
    };
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct file_row));
    for (size_t k = 0; k < sizeof f / sizeof f[0] && t >= 0; k++)
        if (H5Tinsert(t, f[k].name, f[k].at, f[k].type) < 0) {
            H5Tclose(t);
            t = -1;
        }
    return t;
}

static size_t record_total(const struct iolens_log *log)
{
    size_t n = 0;
    for (size_t l = 0; l < log->nlayers; l++)
        n += (size_t)log->layers[l].record_count;
    return n;
}

/* Rows in log order: layers by region kind, records as stored. */
static void fill_files(const struct iolens_log *log, struct file_row *rows)
{
    size_t n = 0;
    for (size_t l = 0; l < log->nlayers; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        for (uint64_t r = 0; r < L->record_count; r++) {
            struct iolens_perf_record p;
            iolens_perf_record(L, r, &p);
            const char *name = iolens_log_name_of(log, L->id[r]);
            rows[n++] = (struct file_row){
                .path = name != NULL ? name : "",
                .id = L->id[r],
                .layer = (int)L->kind,
                .rank = L->rank[r],
                .bytes_read = p.bytes_read,
                .bytes_written = p.bytes_written,
                .reads = p.reads,
                .writes = p.writes,
                .opens = p.opens,
                .read_time = p.time_read,
                .write_time = p.time_write,
                .meta_time = p.time_meta,
            };
        }
    }
}

static int write_files(hid_t job, const struct iolens_log *log)
{
    size_t n = record_total(log);
    struct file_row *rows = malloc((n > 0 ? n : 1) * sizeof *rows);
    hid_t str = vlen_string_type();
    hid_t layer = layer_enum_type();
    hid_t t = str >= 0 && layer >= 0 ? files_type(str, layer) : -1;
    int rc = -1;
    if (rows != NULL && t >= 0) {
        fill_files(log, rows);
        rc = write_table(job, "Files", t, n, rows);
    }
    if (t >= 0)
        H5Tclose(t);
    if (layer >= 0)
        H5Tclose(layer);
    if (str >= 0)
        H5Tclose(str);
    free(rows);
    return rc;
}

/* ----------------------------------------------------------------- job -- */

static int write_job(hid_t job, const struct iolens_log *log, const char *log_path,
                     const struct iolens_xseries *xs)
{
    if (job_attrs(job, log, log_path, xs->width, xs) != 0 || write_nodes(job, log, xs) != 0 ||
        write_ranks(job, log, xs) != 0 || write_totals(job, xs) != 0 ||
        write_files(job, log) != 0)
        return -1;
    return 0;
}

struct out {
    hid_t file;
    const char *path;
    double width;
    int force;
};

/* Is the job's group free?  Already there: replaced with --force, else
 * kept (false). */
static enum job_status make_room(const struct out *o, const char *name, const char *log_path,
                                 bool *free_slot)
{
    *free_slot = true;
    htri_t e = H5Lexists(o->file, name, H5P_DEFAULT);
    if (e < 0)
        return JOB_OUTPUT;
    if (e == 0)
        return JOB_OK;
    if (o->force)
        return H5Ldelete(o->file, name, H5P_DEFAULT) < 0 ? JOB_OUTPUT : JOB_OK;
    fprintf(stderr, PROG ": %s: job %s is already in %s: kept (--force replaces it)\n", log_path,
            name, o->path);
    *free_slot = false;
    return JOB_OK;
}

static enum job_status export_log(const struct out *o, const char *log_path)
{
    struct iolens_log log;
    if (iolens_export_read_log(log_path, &log) != 0)
        return JOB_LOG;
    struct iolens_xseries xs;
    enum iolens_xs_status st = iolens_xs_build(&log, o->width, &xs);
    if (st != IOLENS_XS_OK) {
        fprintf(stderr, PROG ": %s: %s\n", log_path, iolens_xs_strerror(st));
        iolens_log_free(&log);
        return JOB_LOG;
    }
    char name[256];
    iolens_export_job_name(&log, name, sizeof name);
    bool free_slot;
    enum job_status rc = make_room(o, name, log_path, &free_slot);
    if (rc == JOB_OK && free_slot) {
        hid_t g = make_group(o->file, name);
        if (g < 0 || write_job(g, &log, log_path, &xs) != 0)
            rc = JOB_OUTPUT;
        if (g >= 0)
            H5Gclose(g);
    }
    if (rc == JOB_OUTPUT)
        fprintf(stderr, PROG ": %s: cannot write job %s\n", o->path, name);
    iolens_xs_free(&xs);
    iolens_log_free(&log);
    return rc;
}

/* ---------------------------------------------------------------- file -- */

/* Opens the output: an HDF5 file is added to, anything else that holds
 * bytes is refused (never overwritten); an empty regular file or a new
 * name gets a new file, made in a private directory beside it (fresh,
 * out_file.h: HDF5 opens files by name, and a name in a shared directory
 * could be a planted symlink) and renamed into place at the end; an
 * existing file that is not a regular one is left to HDF5 in place. */
static hid_t open_output(const char *path, struct iolens_out_dir *fresh)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && sb.st_size > 0) {
        if (access(path, W_OK) != 0) {
            fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
            return -1;
        }
        if (H5Fis_hdf5(path) <= 0) {
            fprintf(stderr, PROG ": %s: exists and is not an HDF5 file (not overwritten)\n",
                    path);
            return -1;
        }
        hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
        if (f < 0)
            fprintf(stderr, PROG ": %s: cannot open the HDF5 file for writing\n", path);
        return f;
    }
    bool in_place = stat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
    if (!in_place) {
        int e = iolens_out_dir_open(fresh, path);
        if (e != 0) {
            fprintf(stderr, PROG ": %s: %s\n", path, strerror(e));
            return -1;
        }
    }
    hid_t f = H5Fcreate(in_place ? path : fresh->file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
        fprintf(stderr, PROG ": %s: cannot create the HDF5 file\n", path);
        iolens_out_dir_abort(fresh);
    }
    return f;
}

int iolens_export_hdf5(const char *out_path, char *const *logs, int nlogs, double bin, int force)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);   /* our own one-line messages */
    struct out o = {.path = out_path, .width = bin, .force = force};
    struct iolens_out_dir fresh = {0};
    o.file = open_output(out_path, &fresh);
    if (o.file < 0)
        return 3;
    int rc = 0;
    for (int i = 0; i < nlogs; i++) {
        enum job_status st = export_log(&o, logs[i]);
        if (st == JOB_OUTPUT) {
            rc = 3;
            break;
        }
        if (st == JOB_LOG)
            rc = 2;
    }
    if (H5Fclose(o.file) < 0 && rc != 3) {
        fprintf(stderr, PROG ": %s: cannot write the HDF5 file\n", out_path);
        rc = 3;
    }
    if (fresh.file != NULL && rc == 3)
        iolens_out_dir_abort(&fresh);
    if (fresh.file != NULL && rc != 3) {
        int e = iolens_out_dir_commit(&fresh);
        if (e != 0) {
            fprintf(stderr, PROG ": %s: %s\n", out_path, strerror(e));
            rc = 3;
        }
    }
    return rc;
}
