/*
 * The tables of iolens-export --sqlite: their schema, and one log's rows
 * (the columns are documented in iolens-export(1), SQLITE).
 *
 * The figures are the parser's: the job's and each layer's from perf.h
 * (the job is POSIX + STDIO, each byte once), the sharing class from
 * sharing.h, BPS from bps.h (block size 512, the parser's default) and
 * the per-record facts (sharing, ranks, pattern) from file_rows.h, so a
 * query gives the numbers iolens-parser prints.  A figure the parser
 * prints as "-" (undefined, or not finite) is NULL.
 *
 * Text columns hold UTF-8: a job string or file name that is not valid
 * UTF-8 is stored in its display form (each stray byte as U+FFFD); the
 * exact bytes of a file name are in files.path (a BLOB).
 */
#include "export/export_sqlite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "analysis/bps.h"
#include "export/export_sqlite_bind.h"
#include "analysis/file_rows.h"
#include "analysis/patterns.h"
#include "analysis/perf.h"
#include "analysis/sharing.h"
#include "format/record_merge.h"

#define BPS_BLOCK_SIZE 512

/* ------------------------------------------------------------ job key -- */

/* The identifying fields, serialized little-endian with length-prefixed
 * strings so that the key does not depend on the host. */
struct key_buf {
    unsigned char *data;
    size_t len, cap;
};

static int key_put(struct key_buf *k, const void *p, size_t n)
{
    if (k->len + n > k->cap) {
        size_t cap = k->cap ? k->cap : 256;
        while (cap < k->len + n)
            cap *= 2;
        unsigned char *d = realloc(k->data, cap);
        if (d == NULL)
            return -1;
        k->data = d;
        k->cap = cap;
    }
    memcpy(k->data + k->len, p, n);
    k->len += n;
    return 0;
}

static int key_u64(struct key_buf *k, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return key_put(k, b, sizeof b);
}

static int key_str(struct key_buf *k, const struct iolens_log *log, enum iolens_job_string s)
{
    return key_u64(k, log->jobstr_len[s]) || key_put(k, log->jobstr[s], log->jobstr_len[s]);
}

int64_t iolens_sqlite_job_key(const struct iolens_log *log)
{
    const struct iolens_job_fixed *j = &log->job;
    struct key_buf k = {0};
    int err = key_str(&k, log, IOLENS_JOBSTR_JOBID) || key_u64(&k, j->uid) ||
              key_str(&k, log, IOLENS_JOBSTR_EXE) || key_u64(&k, (uint64_t)j->start_time_sec) ||
              key_u64(&k, (uint64_t)j->start_time_nsec) || key_u64(&k, (uint64_t)j->pid) ||
              key_u64(&k, (uint64_t)j->parent_pid) || key_u64(&k, j->nprocs) ||
              key_u64(&k, j->nnodes) || key_str(&k, log, IOLENS_JOBSTR_HOSTS);
    /* out of memory for a few hundred bytes: hash what there is */
    uint64_t h = XXH3_64bits(k.data, err ? 0 : k.len);
    free(k.data);
    int64_t key;
    memcpy(&key, &h, sizeof key);
    return key;
}

/* ------------------------------------------------------------- schema -- */

/* The columns: iolens-export(1), SQLITE.  INSERT statements below name
 * them in the order their values are bound. */
const char iolens_sqlite_schema[] =
    "CREATE TABLE IF NOT EXISTS jobs ("
    " job_key INTEGER PRIMARY KEY, jobid TEXT, uid INTEGER, user TEXT, exe TEXT,"
    " exe_name TEXT, args TEXT, nprocs INTEGER, nnodes INTEGER, pid INTEGER,"
    " parent_pid INTEGER, start_time REAL, end_time REAL, runtime REAL, records INTEGER,"
    " bytes_read INTEGER, bytes_written INTEGER, bytes INTEGER, io_time REAL,"
    " agg_mib_s REAL, mib_s_per_cn REAL, union_mib_s REAL, bps REAL, bps_layer TEXT,"
    " sharing TEXT, sharing_layer TEXT, top_rank INTEGER, top_rank_share REAL,"
    " folded_files INTEGER, folded_opens INTEGER, iolens_version TEXT, mpi_library TEXT,"
    " log_path TEXT, log_version INTEGER, imported REAL, source TEXT, partial INTEGER);"
    "CREATE TABLE IF NOT EXISTS layers ("
    " job_key INTEGER NOT NULL, layer TEXT NOT NULL, records INTEGER,"
    " shared_records INTEGER, bytes_read INTEGER, bytes_written INTEGER, bytes INTEGER,"
    " reads INTEGER, writes INTEGER, opens INTEGER, time_read REAL, time_write REAL,"
    " time_meta REAL, io_time REAL, slowest_rank INTEGER, agg_mib_s REAL,"
    " mib_s_per_cn REAL, union_time REAL, union_mib_s REAL, bps REAL, io_share REAL,"
    " meta_share REAL, PRIMARY KEY (job_key, layer)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS files ("
    " job_key INTEGER NOT NULL, layer TEXT NOT NULL, record_id INTEGER NOT NULL,"
    " rank INTEGER NOT NULL, nranks INTEGER, nranks_io INTEGER, path BLOB, path_text TEXT,"
    " mount TEXT, fs_type TEXT, sharing TEXT, bytes_read INTEGER, bytes_written INTEGER,"
    " reads INTEGER, writes INTEGER, opens INTEGER, time_read REAL, time_write REAL,"
    " time_meta REAL, io_time REAL, slowest_time REAL, open_to_last_io REAL, pattern TEXT,"
    " pattern_params TEXT, access_size INTEGER, stride INTEGER);"
    "CREATE INDEX IF NOT EXISTS files_job ON files (job_key);";

static const char *const insert_job_sql =
    "INSERT OR REPLACE INTO jobs (job_key, jobid, uid, user, exe, exe_name, args, nprocs,"
    " nnodes, pid, parent_pid, start_time, end_time, runtime, records, bytes_read,"
    " bytes_written, bytes, io_time, agg_mib_s, mib_s_per_cn, union_mib_s, bps, bps_layer,"
    " sharing, sharing_layer, top_rank, top_rank_share, folded_files, folded_opens,"
    " iolens_version, mpi_library, log_path, log_version, imported, source, partial)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

static const char *const insert_layer_sql =
    "INSERT INTO layers (job_key, layer, records, shared_records, bytes_read, bytes_written,"
    " bytes, reads, writes, opens, time_read, time_write, time_meta, io_time, slowest_rank,"
    " agg_mib_s, mib_s_per_cn, union_time, union_mib_s, bps, io_share, meta_share)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

static const char *const insert_file_sql =
    "INSERT INTO files (job_key, layer, record_id, rank, nranks, nranks_io, path, path_text,"
    " mount, fs_type, sharing, bytes_read, bytes_written, reads, writes, opens, time_read,"
    " time_write, time_meta, io_time, slowest_time, open_to_last_io, pattern, pattern_params,"
    " access_size, stride)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

int iolens_sqlite_prepare(sqlite3 *db, struct iolens_sqlite_stmts *s)
{
    *s = (struct iolens_sqlite_stmts){0};
    const struct {
        sqlite3_stmt **stmt;
        const char *sql;
    } all[] = {
        {&s->delete_layers, "DELETE FROM layers WHERE job_key = ?"},
        {&s->delete_files, "DELETE FROM files WHERE job_key = ?"},
        {&s->insert_job, insert_job_sql},
        {&s->insert_layer, insert_layer_sql},
        {&s->insert_file, insert_file_sql},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        int rc = sqlite3_prepare_v3(db, all[i].sql, -1, SQLITE_PREPARE_PERSISTENT, all[i].stmt,
                                    NULL);
        if (rc != SQLITE_OK)
            return rc;
    }
    return SQLITE_OK;
}

void iolens_sqlite_finalize(struct iolens_sqlite_stmts *s)
{
    sqlite3_finalize(s->delete_layers);
    sqlite3_finalize(s->delete_files);
    sqlite3_finalize(s->insert_job);
    sqlite3_finalize(s->insert_layer);
    sqlite3_finalize(s->insert_file);
    *s = (struct iolens_sqlite_stmts){0};
}

/* ---------------------------------------------------------------- jobs -- */

/* The whole-layer BPS row of a layer, or NULL. */
static const struct iolens_bps *layer_bps(const struct iolens_bps_report *r, uint32_t kind)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].file_id == 0 && r->rows[i].kind == kind)
            return &r->rows[i];
    return NULL;
}

/* The job's BPS, as --summary reports it: that of the first layer that
 * carries data and has intervals, in table order (POSIX, STDIO, MPIIO,
 * H5D). */
static const struct iolens_bps *job_bps(const struct iolens_bps_report *r)
{
    for (unsigned k = 0; k < IOLENS_NDATA_LAYERS; k++) {
        const struct iolens_bps *b = layer_bps(r, iolens_data_layer_at(k)->region_kind);
        if (b != NULL)
            return b;
    }
    return NULL;
}

static double bps_of(const struct iolens_log *log, const struct iolens_bps *b)
{
    if (b == NULL)
        return NAN;
    struct iolens_bps_figures f;
    iolens_bps_derive(b, BPS_BLOCK_SIZE, log->job.run_time, &f);
    return f.bps;
}

/* The job strings of a log as display text. */
static void put_jobstr(struct iolens_binder *b, const struct iolens_log *log,
                       enum iolens_job_string s)
{
    iolens_bind_display(b, log->jobstr[s], log->jobstr_len[s]);
}

static void put_exe_name(struct iolens_binder *b, const struct iolens_log *log)
{
    const char *exe = log->jobstr[IOLENS_JOBSTR_EXE];
    size_t len = log->jobstr_len[IOLENS_JOBSTR_EXE];
    const char *slash = memrchr(exe, '/', len);
    const char *base = slash != NULL ? slash + 1 : exe;
    iolens_bind_display(b, base, len - (size_t)(base - exe));
}

/* The arguments, NUL-separated in the log, separated by spaces. */
static void put_args(struct iolens_binder *b, const struct iolens_log *log)
{
    size_t len = log->jobstr_len[IOLENS_JOBSTR_ARGS];
    char *args = malloc(len + 1);
    if (args == NULL) {
        iolens_bind_status(b, SQLITE_NOMEM);
        return;
    }
    memcpy(args, log->jobstr[IOLENS_JOBSTR_ARGS], len);
    for (size_t i = 0; i < len; i++)
        if (args[i] == '\0')
            args[i] = ' ';
    iolens_bind_display(b, args, len);
    free(args);
}

/* The first line of the MPI library's version string. */
static void put_mpi_library(struct iolens_binder *b, const struct iolens_log *log)
{
    const char *v = log->jobstr[IOLENS_JOBSTR_MPI_VERSION];
    size_t len = log->jobstr_len[IOLENS_JOBSTR_MPI_VERSION];
    const char *nl = memchr(v, '\n', len);
    if (len == 0)
        iolens_bind_null(b);
    else
        iolens_bind_display(b, v, nl != NULL ? (size_t)(nl - v) : len);
}

static double seconds(int64_t sec, int64_t nsec) { return (double)sec + (double)nsec * 1e-9; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return seconds(t.tv_sec, t.tv_nsec);
}

/* The figures a job row needs, computed once. */
struct job_figures {
    struct iolens_perf perf;
    struct iolens_sharing sharing;
    struct iolens_bps_report bps;
};

static int put_job(const struct iolens_sqlite_stmts *s, int64_t key, const struct iolens_log *log,
                   const char *log_path, const struct job_figures *f)
{
    const struct iolens_job_fixed *j = &log->job;
    const struct iolens_perf_layer *p = &f->perf.job;
    const struct iolens_bps *jb = job_bps(&f->bps);
    struct iolens_binder b = iolens_bind_start(s->insert_job);
    iolens_bind_int(&b, key);
    put_jobstr(&b, log, IOLENS_JOBSTR_JOBID);
    iolens_bind_int(&b, (int64_t)j->uid);
    put_jobstr(&b, log, IOLENS_JOBSTR_USER);
    put_jobstr(&b, log, IOLENS_JOBSTR_EXE);
    put_exe_name(&b, log);
    put_args(&b, log);
    iolens_bind_int(&b, j->nprocs);
    iolens_bind_int(&b, f->perf.compute_nodes);
    iolens_bind_int(&b, j->pid);
    iolens_bind_int(&b, j->parent_pid);
    iolens_bind_real(&b, seconds(j->start_time_sec, j->start_time_nsec));
    iolens_bind_real(&b, seconds(j->end_time_sec, j->end_time_nsec));
    iolens_bind_real(&b, j->run_time);
    iolens_bind_int(&b, (int64_t)p->records);
    iolens_bind_int(&b, p->bytes_read);
    iolens_bind_int(&b, p->bytes_written);
    iolens_bind_int(&b, p->bytes);
    iolens_bind_real(&b, p->slowest_time);
    iolens_bind_real(&b, p->agg_mib_s);
    iolens_bind_real(&b, p->mib_s_per_cn);
    iolens_bind_real(&b, p->union_mib_s);
    iolens_bind_real(&b, bps_of(log, jb));
    iolens_bind_text(&b, jb != NULL ? iolens_layer_name(jb->kind) : NULL);
    iolens_bind_text(&b, iolens_sharing_name(f->sharing.cls));
    iolens_bind_text(&b, f->sharing.layer != 0 ? iolens_layer_name(f->sharing.layer) : NULL);
    iolens_bind_int_or_null(&b, f->sharing.top_rank);
    iolens_bind_real(&b, f->sharing.top_rank >= 0 ? f->sharing.top_rank_share : NAN);
    iolens_bind_int(&b, (int64_t)j->folded_files);
    iolens_bind_int(&b, (int64_t)j->folded_opens);
    put_jobstr(&b, log, IOLENS_JOBSTR_VERSION);
    put_mpi_library(&b, log);
    iolens_bind_display(&b, log_path, strlen(log_path));
    iolens_bind_int(&b, log->version);
    iolens_bind_real(&b, now());
    char source[48];   /* which runtime wrote the log: "iolens 3", "darshan 3.41" */
    iolens_bind_text(&b, iolens_log_source_label(log, source, sizeof source));
    iolens_bind_int(&b, (log->flags & IOLENS_FLAG_PARTIAL) != 0);
    return iolens_bind_run(&b);
}

/* -------------------------------------------------------------- layers -- */

static int put_layer(const struct iolens_sqlite_stmts *s, int64_t key,
                     const struct iolens_log *log, const struct iolens_perf_layer *p,
                     const struct iolens_bps_report *bps)
{
    struct iolens_binder b = iolens_bind_start(s->insert_layer);
    iolens_bind_int(&b, key);
    iolens_bind_text(&b, p->name);
    iolens_bind_int(&b, (int64_t)p->records);
    iolens_bind_int(&b, (int64_t)p->shared_records);
    iolens_bind_int(&b, p->bytes_read);
    iolens_bind_int(&b, p->bytes_written);
    iolens_bind_int(&b, p->bytes);
    iolens_bind_int(&b, p->reads);
    iolens_bind_int(&b, p->writes);
    iolens_bind_int(&b, p->opens);
    iolens_bind_real(&b, p->time_read);
    iolens_bind_real(&b, p->time_write);
    iolens_bind_real(&b, p->time_meta);
    iolens_bind_real(&b, p->slowest_time);
    iolens_bind_int_or_null(&b, p->slowest_rank);
    iolens_bind_real(&b, p->agg_mib_s);
    iolens_bind_real(&b, p->mib_s_per_cn);
    iolens_bind_real(&b, p->union_time > 0 ? p->union_time : NAN);
    iolens_bind_real(&b, p->union_mib_s);
    iolens_bind_real(&b, bps_of(log, layer_bps(bps, p->kind)));
    iolens_bind_real(&b, p->io_share);
    iolens_bind_real(&b, p->meta_share);
    return iolens_bind_run(&b);
}

static int put_layers(const struct iolens_sqlite_stmts *s, int64_t key,
                      const struct iolens_log *log, const struct job_figures *f)
{
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++) {
        if (!f->perf.layer[i].present)
            continue;
        int rc = put_layer(s, key, log, &f->perf.layer[i], &f->bps);
        if (rc != SQLITE_OK)
            return rc;
    }
    return SQLITE_OK;
}

/* --------------------------------------------------------------- files -- */

struct file_ctx {
    const struct iolens_sqlite_stmts *s;
    const struct iolens_log *log;
    int64_t key;
    int rc;                  /* the SQLite error that stopped the rows */
};

/* A pattern parameter: NULL when unknown (0) or when the ranks of a
 * shared record disagree on it. */
static void put_param(struct iolens_binder *b, int64_t v)
{
    if (v == 0 || v == IOLENS_PAT_MIXED)
        iolens_bind_null(b);
    else
        iolens_bind_int(b, v);
}

static void put_pattern(struct iolens_binder *b, const struct iolens_pattern *pat)
{
    iolens_bind_text(b, iolens_pattern_name(pat->kind));
    char params[256];
    FILE *f = fmemopen(params, sizeof params, "w");
    if (f == NULL) {
        iolens_bind_status(b, SQLITE_NOMEM);
        return;
    }
    iolens_pattern_print_params(f, pat);
    fclose(f);
    params[sizeof params - 1] = '\0';
    iolens_bind_text(b, strcmp(params, "-") == 0 ? NULL : params);
    put_param(b, pat->access_size);
    int strided = pat->kind == IOLENS_PATTERN_STRIDED || pat->kind == IOLENS_PATTERN_NESTED_STRIDED;
    put_param(b, strided ? pat->stride : 0);
}

static int put_file(const struct iolens_file_row *row, void *arg)
{
    struct file_ctx *c = arg;
    const struct iolens_perf_record *p = &row->perf;
    size_t name_len = row->name != NULL ? strlen(row->name) : 0;
    const struct iolens_log_mount *m =
        row->name != NULL ? iolens_log_mount_of(c->log, row->name) : NULL;
    uint64_t id = row->id;
    int64_t sid;
    memcpy(&sid, &id, sizeof sid);
    struct iolens_binder b = iolens_bind_start(c->s->insert_file);
    iolens_bind_int(&b, c->key);
    iolens_bind_text(&b, row->layer_name);
    iolens_bind_int(&b, sid);
    iolens_bind_int(&b, row->rank);
    iolens_bind_int_or_null(&b, row->nranks);
    iolens_bind_int_or_null(&b, row->nranks_io);
    iolens_bind_blob(&b, row->name, name_len);
    iolens_bind_display(&b, row->name, name_len);
    iolens_bind_display(&b, m != NULL ? m->point : NULL, m != NULL ? strlen(m->point) : 0);
    iolens_bind_display(&b, m != NULL ? m->fstype : NULL, m != NULL ? strlen(m->fstype) : 0);
    iolens_bind_text(&b, row->sharing);
    iolens_bind_int(&b, p->bytes_read);
    iolens_bind_int(&b, p->bytes_written);
    iolens_bind_int(&b, p->reads);
    iolens_bind_int(&b, p->writes);
    iolens_bind_int(&b, p->opens);
    iolens_bind_real(&b, p->time_read);
    iolens_bind_real(&b, p->time_write);
    iolens_bind_real(&b, p->time_meta);
    iolens_bind_real(&b, p->io_time);
    iolens_bind_real(&b, p->slowest_time);
    iolens_bind_real(&b, p->open_to_last_io);
    put_pattern(&b, &row->pattern);
    c->rc = iolens_bind_run(&b);
    return c->rc != SQLITE_OK;
}

/* ----------------------------------------------------------------- log -- */

static int delete_rows(sqlite3_stmt *stmt, int64_t key)
{
    struct iolens_binder b = iolens_bind_start(stmt);
    iolens_bind_int(&b, key);
    return iolens_bind_run(&b);
}

static int compute(const struct iolens_log *log, struct job_figures *f)
{
    *f = (struct job_figures){0};
    if (iolens_perf_compute(log, &f->perf) != 0 ||
        iolens_sharing_of_job(log, &f->sharing) != 0 || iolens_bps_compute(log, &f->bps) != 0)
        return -1;
    return 0;
}

enum iolens_sqlite_put_status iolens_sqlite_put_log(const struct iolens_sqlite_stmts *s,
                                                    const struct iolens_log *log,
                                                    const char *log_path)
{
    struct job_figures f;
    if (compute(log, &f) != 0) {
        iolens_bps_report_free(&f.bps);
        return IOLENS_SQLITE_PUT_NOMEM;
    }
    int64_t key = iolens_sqlite_job_key(log);
    struct file_ctx ctx = {s, log, key, SQLITE_OK};
    int rc = delete_rows(s->delete_layers, key);
    if (rc == SQLITE_OK)
        rc = delete_rows(s->delete_files, key);
    if (rc == SQLITE_OK)
        rc = put_job(s, key, log, log_path, &f);
    if (rc == SQLITE_OK)
        rc = put_layers(s, key, log, &f);
    iolens_bps_report_free(&f.bps);
    if (rc == SQLITE_OK && iolens_file_rows(log, put_file, &ctx) < 0)
        rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK)
        rc = ctx.rc;
    if (rc == SQLITE_OK)
        return IOLENS_SQLITE_PUT_OK;
    /* out of memory here (not in SQLite) is the log's problem, not the database's */
    return rc == SQLITE_NOMEM ? IOLENS_SQLITE_PUT_NOMEM : IOLENS_SQLITE_PUT_DB;
}
