/*
 * --json: one JSON object per log, on one line (several logs: JSON Lines).
 * The schema (schema_version 1) is documented key by key in
 * iolens-parser(1); json_out.h says how strings and numbers are written.
 *
 * File names are bytes: a name that is valid UTF-8 is "path" as is; any
 * other also gets "path_hex", its exact bytes in hexadecimal, and "path"
 * is then only its display form (invalid bytes as U+FFFD).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advice.h"
#include "analysis/bps.h"
#include "analysis/file_rows.h"
#include "report/json_out.h"
#include "analysis/perf.h"
#include "report/report.h"
#include "analysis/sharing.h"
#include "format/record_merge.h"

#define JSON_SCHEMA_VERSION 1

static void kv_int(struct iolens_json *j, const char *k, int64_t v)
{
    iolens_json_key(j, k);
    iolens_json_int(j, v);
}

static void kv_uint(struct iolens_json *j, const char *k, uint64_t v)
{
    iolens_json_key(j, k);
    iolens_json_uint(j, v);
}

static void kv_double(struct iolens_json *j, const char *k, double v)
{
    iolens_json_key(j, k);
    iolens_json_double(j, v);
}

static void kv_bool(struct iolens_json *j, const char *k, int v)
{
    iolens_json_key(j, k);
    iolens_json_bool(j, v != 0);
}

static void kv_str(struct iolens_json *j, const char *k, const char *s, size_t len)
{
    iolens_json_key(j, k);
    iolens_json_string(j, s, len);
}

/* A name as "<key>" and, if not valid UTF-8, "<key>_hex". */
static void kv_name(struct iolens_json *j, const char *k, const char *s, size_t len)
{
    kv_str(j, k, s, len);
    if (!iolens_utf8_valid(s, len)) {
        char hk[64];
        snprintf(hk, sizeof hk, "%s_hex", k);
        iolens_json_key(j, hk);
        iolens_json_hex_string(j, s, len);
    }
}

/* A NUL-separated list as an array of strings. */
static void kv_list(struct iolens_json *j, const char *k, const char *s, size_t len)
{
    iolens_json_key(j, k);
    iolens_json_begin_array(j);
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\0')
            continue;
        if (i > start || i < len)
            iolens_json_string(j, s + start, i - start);
        start = i + 1;
    }
    iolens_json_end_array(j);
}

static double epoch(int64_t sec, int64_t nsec) { return (double)sec + (double)nsec * 1e-9; }

static int put_job(struct iolens_json *j, const struct iolens_log *log)
{
    const struct iolens_job_fixed *jf = &log->job;
    struct iolens_sharing sh;
    if (iolens_sharing_of_job(log, &sh) != 0)
        return -1;
    char source[48];
    iolens_json_key(j, "job");
    iolens_json_begin_object(j);
    iolens_json_key(j, "source");   /* "iolens 3", "darshan 3.41" */
    iolens_json_cstring(j, iolens_log_source_label(log, source, sizeof source));
    kv_name(j, "exe", log->jobstr[IOLENS_JOBSTR_EXE], log->jobstr_len[IOLENS_JOBSTR_EXE]);
    kv_list(j, "args", log->jobstr[IOLENS_JOBSTR_ARGS], log->jobstr_len[IOLENS_JOBSTR_ARGS]);
    kv_str(j, "jobid", log->jobstr[IOLENS_JOBSTR_JOBID], log->jobstr_len[IOLENS_JOBSTR_JOBID]);
    kv_str(j, "user", log->jobstr[IOLENS_JOBSTR_USER], log->jobstr_len[IOLENS_JOBSTR_USER]);
    kv_uint(j, "uid", jf->uid);
    kv_uint(j, "nprocs", jf->nprocs);
    kv_uint(j, "nnodes", iolens_perf_compute_nodes(log));
    iolens_json_key(j, "nnodes_from");
    iolens_json_cstring(j, iolens_perf_nodes_source(log));
    kv_list(j, "hosts", log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS]);
    /* The ranks' distinct executables (two or more: an MPMD job), and the
     * index of each rank's. */
    kv_list(j, "executables", log->jobstr[IOLENS_JOBSTR_EXES],
            log->jobstr_len[IOLENS_JOBSTR_EXES]);
    if (log->nranks > 0) {
        iolens_json_key(j, "rank_executables");
        iolens_json_begin_array(j);
        for (size_t r = 0; r < log->nranks; r++)
            iolens_json_uint(j, log->ranks[r].exe_index);
        iolens_json_end_array(j);
    }
    kv_double(j, "start_time", epoch(jf->start_time_sec, jf->start_time_nsec));
    kv_double(j, "end_time", epoch(jf->end_time_sec, jf->end_time_nsec));
    kv_double(j, "runtime", jf->run_time);
    kv_int(j, "pid", jf->pid);
    iolens_json_key(j, "partial");
    iolens_json_bool(j, (log->flags & IOLENS_FLAG_PARTIAL) != 0);
    iolens_json_key(j, "forked");
    iolens_json_bool(j, (log->flags & IOLENS_FLAG_FORKED) != 0);
    /* A Darshan log: the version of the Darshan that wrote it. */
    kv_str(j, log->source == IOLENS_SOURCE_DARSHAN ? "darshan_version" : "iolens_version",
           log->jobstr[IOLENS_JOBSTR_VERSION], log->jobstr_len[IOLENS_JOBSTR_VERSION]);
    if (log->partial_modules != NULL)
        kv_str(j, "partial_modules", log->partial_modules, strlen(log->partial_modules));
    iolens_json_key(j, "sharing");
    iolens_json_cstring(j, iolens_sharing_name(sh.cls));
    kv_int(j, "sharing_top_rank", sh.top_rank);
    kv_double(j, "sharing_top_rank_share", sh.top_rank_share);
    iolens_json_end_object(j);
    return 0;
}

/* The figures of one layer (or the job) of perf.h. */
static void put_perf_figures(struct iolens_json *j, const struct iolens_perf_layer *p)
{
    kv_int(j, "bytes", p->bytes);
    kv_double(j, "slowest_time", p->slowest_time);
    kv_double(j, "unique_slowest_time", p->unique_time);
    kv_int(j, "unique_slowest_rank", p->slowest_rank);
    kv_double(j, "shared_slowest_time", p->shared_slowest_time);
    kv_double(j, "agg_mib_s", p->agg_mib_s);
    kv_double(j, "mib_s_per_cn", p->mib_s_per_cn);
    kv_double(j, "shared_open_to_last_io", p->shared_open_to_last_io);
    kv_double(j, "fallback_time", p->fallback_time);
    kv_double(j, "fallback_mib_s", p->fallback_mib_s);
    kv_double(j, "union_time", p->union_time);
    kv_double(j, "union_time_lower", p->union_time_lower);
    kv_double(j, "union_time_upper", p->union_time_upper);
    kv_bool(j, "union_bounds_wide", p->union_wide);
    kv_double(j, "union_mib_s", p->union_mib_s);
    kv_double(j, "union_mib_s_min", p->union_mib_s_min);
    kv_double(j, "union_mib_s_max", p->union_mib_s_max);
    kv_double(j, "io_share_of_runtime", p->io_share);
    kv_double(j, "meta_share_of_io_time", p->meta_share);
}

static void put_layer(struct iolens_json *j, const struct iolens_perf_layer *p)
{
    iolens_json_key(j, p->name);
    iolens_json_begin_object(j);
    iolens_json_key(j, "present");
    iolens_json_bool(j, p->present != 0);
    kv_uint(j, "records", p->records);
    kv_uint(j, "shared_records", p->shared_records);
    kv_int(j, "bytes_read", p->bytes_read);
    kv_int(j, "bytes_written", p->bytes_written);
    kv_int(j, "reads", p->reads);
    kv_int(j, "writes", p->writes);
    kv_int(j, "opens", p->opens);
    kv_double(j, "time_read", p->time_read);
    kv_double(j, "time_write", p->time_write);
    kv_double(j, "time_meta", p->time_meta);
    put_perf_figures(j, p);
    iolens_json_end_object(j);
}

static void put_layers_and_perf(struct iolens_json *j, const struct iolens_perf *p)
{
    iolens_json_key(j, "layers");
    iolens_json_begin_object(j);
    for (int i = 0; i < IOLENS_PERF_NLAYERS; i++)
        put_layer(j, &p->layer[i]);
    iolens_json_end_object(j);
    iolens_json_key(j, "perf");
    iolens_json_begin_object(j);
    iolens_json_key(j, "layers");
    iolens_json_begin_array(j);
    for (unsigned i = 0; i < iolens_layer_desc_count(); i++)   /* the job's: the base layers */
        if (iolens_layer_desc_at(i)->base)
            iolens_json_cstring(j, iolens_layer_desc_at(i)->name);
    iolens_json_end_array(j);
    kv_uint(j, "compute_nodes", p->compute_nodes);
    kv_int(j, "bytes_read", p->job.bytes_read);
    kv_int(j, "bytes_written", p->job.bytes_written);
    put_perf_figures(j, &p->job);
    iolens_json_end_object(j);
}

static void put_bps_row(struct iolens_json *j, const struct iolens_log *log,
                        const struct iolens_bps *b, uint64_t block_size)
{
    struct iolens_bps_figures f;
    iolens_bps_derive(b, block_size, log->job.run_time, &f);
    iolens_json_key(j, iolens_layer_name(b->kind));
    iolens_json_begin_object(j);
    kv_double(j, "bps", f.bps);
    kv_double(j, "bps_min", f.bps_min);
    kv_double(j, "bps_max", f.bps_max);
    kv_double(j, "blocks", f.blocks);
    kv_uint(j, "block_size", block_size);
    kv_double(j, "union_time", b->time);
    kv_double(j, "union_time_lower", b->time_lower);
    kv_double(j, "union_time_upper", b->time_upper);
    kv_bool(j, "union_bounds_wide", f.wide);
    kv_double(j, "error_bound", b->error_bound);
    kv_uint(j, "intervals", b->intervals);
    kv_uint(j, "accesses", b->accesses);
    kv_int(j, "bytes", b->bytes);
    kv_double(j, "mib_s", f.mib_per_s);
    kv_double(j, "mib_s_min", f.mib_per_s_min);
    kv_double(j, "mib_s_max", f.mib_per_s_max);
    kv_double(j, "busy_fraction", f.busy_fraction);
    kv_double(j, "access_time", b->access_time);
    kv_double(j, "iops", f.iops);
    iolens_json_end_object(j);
}

/* bps.<layer> for each layer with intervals (the whole-layer rows). */
static int put_bps(struct iolens_json *j, const struct iolens_log *log, uint64_t block_size)
{
    struct iolens_bps_report r;
    if (iolens_bps_compute(log, &r) != 0)
        return -1;
    iolens_json_key(j, "bps");
    iolens_json_begin_object(j);
    for (size_t i = 0; i < r.n; i++)
        if (r.rows[i].file_id == 0)
            put_bps_row(j, log, &r.rows[i], block_size);
    iolens_json_end_object(j);
    iolens_bps_report_free(&r);
    return 0;
}

/* A pattern parameter the ranks of a shared record disagree on is null. */
static void kv_param(struct iolens_json *j, const char *key, int64_t v)
{
    if (v == IOLENS_PAT_MIXED) {
        iolens_json_key(j, key);
        iolens_json_null(j);
    } else {
        kv_int(j, key, v);
    }
}

static void put_pattern(struct iolens_json *j, const struct iolens_pattern *p)
{
    iolens_json_key(j, "pattern");
    iolens_json_cstring(j, iolens_pattern_name(p->kind));
    iolens_json_key(j, "pattern_params");
    iolens_json_begin_object(j);
    kv_int(j, "accesses", p->accesses);
    kv_param(j, "access_size", p->access_size);
    kv_param(j, "stride", p->stride);
    kv_param(j, "inner_count", p->inner_count);
    kv_param(j, "outer_stride", p->outer_stride);
    kv_param(j, "outer_count", p->outer_count);
    kv_double(j, "regular_share", p->regular_share);
    iolens_json_end_object(j);
}

struct files_arg {
    struct iolens_json *j;
    const struct iolens_log *log;
};

/* One call site's object: module path and build-id (null for the other
 * sites together), offset, bytes, ops, time. */
static void put_site(struct iolens_json *j, const struct iolens_log *log,
                     const struct iolens_log_site *s)
{
    iolens_json_begin_object(j);
    if (s->module < log->nsite_modules) {
        const struct iolens_log_site_module *m = &log->site_modules[s->module];
        kv_name(j, "module", m->path, strlen(m->path));
        iolens_json_key(j, "build_id");
        iolens_json_hex_string(j, (const char *)m->build_id, m->build_id_len);
    } else {
        iolens_json_key(j, "module");
        iolens_json_null(j);
        iolens_json_key(j, "build_id");
        iolens_json_null(j);
    }
    kv_uint(j, "offset", s->offset);
    kv_int(j, "bytes", s->bytes);
    kv_uint(j, "ops", s->ops);
    kv_double(j, "time", s->time);
    iolens_json_end_object(j);
}

/* "sites": the record's call sites as the log stores them (module path,
 * build-id, offset, most bytes first; module null for the other sites
 * together); iolens-parser --sites resolves them to lines. */
static void put_sites(struct iolens_json *j, const struct iolens_log *log,
                      const struct iolens_file_row *row)
{
    struct iolens_log_site sites[IOLENS_SITES_LOGGED + 1];
    size_t n = iolens_log_record_sites(log, row->layer->kind, row->id, row->rank, sites);
    iolens_json_key(j, "sites");
    iolens_json_begin_array(j);
    for (size_t k = 0; k < n; k++)
        put_site(j, log, &sites[k]);
    iolens_json_end_array(j);
}

static int put_file(const struct iolens_file_row *row, void *arg)
{
    const struct files_arg *fa = arg;
    struct iolens_json *j = fa->j;
    const struct iolens_perf_record *p = &row->perf;
    char id[24];
    iolens_json_begin_object(j);
    if (row->name != NULL)
        kv_name(j, "path", row->name, strlen(row->name));
    else {
        iolens_json_key(j, "path");
        iolens_json_null(j);
    }
    snprintf(id, sizeof id, "%016llx", (unsigned long long)row->id);
    kv_str(j, "record_id", id, strlen(id));
    iolens_json_key(j, "layer");
    iolens_json_cstring(j, row->layer_name);
    kv_int(j, "rank", row->rank);
    kv_int(j, "nranks", row->nranks);
    kv_int(j, "nranks_io", row->nranks_io);
    iolens_json_key(j, "sharing");
    iolens_json_cstring(j, row->sharing);
    put_pattern(j, &row->pattern);
    kv_int(j, "bytes_read", p->bytes_read);
    kv_int(j, "bytes_written", p->bytes_written);
    kv_int(j, "reads", p->reads);
    kv_int(j, "writes", p->writes);
    kv_int(j, "opens", p->opens);
    kv_double(j, "time_read", p->time_read);
    kv_double(j, "time_write", p->time_write);
    kv_double(j, "time_meta", p->time_meta);
    kv_double(j, "io_time", p->io_time);
    kv_double(j, "slowest_rank_time", p->slowest_time);
    kv_double(j, "open_start", p->open_start);
    kv_double(j, "last_io_end", p->last_io_end);
    kv_double(j, "open_to_last_io", p->open_to_last_io);
    put_sites(j, fa->log, row);
    iolens_json_end_object(j);
    return 0;
}

/* "advice": the findings of advice.h, highest priority first. */
static int put_advice(struct iolens_json *j, const struct iolens_log *log,
                      const struct iolens_advice_thresholds *t)
{
    struct iolens_finding *f;
    size_t n;
    if (iolens_advice_compute(log, t, &f, &n) != 0)
        return -1;
    iolens_json_key(j, "advice");
    iolens_json_begin_array(j);
    for (size_t i = 0; i < n; i++) {
        iolens_json_begin_object(j);
        kv_str(j, "code", f[i].code, strlen(f[i].code));
        kv_int(j, "priority", f[i].priority);
        kv_str(j, "evidence", f[i].evidence, strlen(f[i].evidence));
        kv_str(j, "fix", f[i].fix, strlen(f[i].fix));
        kv_double(j, "metric", f[i].metric);
        kv_double(j, "threshold", f[i].threshold);
        if (f[i].has_site) {
            /* the site as "sites" has it; --advice resolves it to a line */
            iolens_json_key(j, "site");
            put_site(j, log, &f[i].site);
        }
        iolens_json_end_object(j);
    }
    iolens_json_end_array(j);
    iolens_advice_free(f);
    return 0;
}

int iolens_report_json(FILE *out, const struct iolens_log *log, uint64_t block_size,
                       const struct iolens_advice_thresholds *advice)
{
    struct iolens_perf perf;
    if (iolens_perf_compute(log, &perf) != 0)
        return -1;
    struct iolens_json j;
    iolens_json_init(&j, out);
    iolens_json_begin_object(&j);
    kv_int(&j, "schema_version", JSON_SCHEMA_VERSION);
    kv_uint(&j, "log_format_version", log->version);
    if (put_job(&j, log) != 0)
        return -1;
    put_layers_and_perf(&j, &perf);
    if (put_bps(&j, log, block_size) != 0)
        return -1;
    iolens_json_key(&j, "files");
    iolens_json_begin_array(&j);
    struct files_arg fa = {&j, log};
    if (iolens_file_rows(log, put_file, &fa) != 0)
        return -1;
    iolens_json_end_array(&j);
    if (put_advice(&j, log, advice) != 0)
        return -1;
    iolens_json_end_object(&j);
    fputc('\n', out);
    return 0;
}
