/* Sites regions (log_format.h): parsed as hostile input, and the merged
 * sites of one record (reader.h: iolens_log_record_sites). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/record_merge.h"
#include "reader/reader.h"
#include "reader/reader_internal.h"

struct sites_cursor {
    const unsigned char *p;
    size_t left;
};

static int take_bytes(struct sites_cursor *c, void *out, size_t n)
{
    if (c->left < n)
        return 0;
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
    return 1;
}

/* The log's module of this path and build-id, added if new: its index,
 * or -1 when out of memory. */
static long module_index(struct iolens_log *log, const unsigned char *path, uint32_t path_len,
                         const unsigned char *build_id, uint32_t build_id_len)
{
    for (size_t i = 0; i < log->nsite_modules; i++) {
        const struct iolens_log_site_module *m = &log->site_modules[i];
        if (m->build_id_len == build_id_len && strlen(m->path) == path_len &&
            memcmp(m->path, path, path_len) == 0 &&
            (build_id_len == 0 || memcmp(m->build_id, build_id, build_id_len) == 0))
            return (long)i;
    }
    struct iolens_log_site_module *grown =
        realloc(log->site_modules, (log->nsite_modules + 1) * sizeof *grown);
    if (grown == NULL)
        return -1;
    log->site_modules = grown;
    struct iolens_log_site_module *m = &grown[log->nsite_modules];
    memset(m, 0, sizeof *m);
    if ((m->path = malloc((size_t)path_len + 1)) == NULL)
        return -1;
    memcpy(m->path, path, path_len);
    m->path[path_len] = '\0';
    if (build_id_len > 0)
        memcpy(m->build_id, build_id, build_id_len);
    m->build_id_len = build_id_len;
    return (long)log->nsite_modules++;
}

/* The modules of one region, mapped to the log's indexes in map. */
static enum iolens_read_status take_modules(struct reader *r, struct sites_cursor *c,
                                            uint32_t count, uint32_t *map)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t lens[2];
        if (!take_bytes(c, lens, sizeof lens))
            return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt sites region: module %u cut short", i);
        if (lens[0] == 0 || lens[0] > IOLENS_SITES_PATH_MAX ||
            lens[1] > IOLENS_SITES_BUILD_ID_MAX || (uint64_t)lens[0] + lens[1] > c->left)
            return rd_fail(r, IOLENS_READ_CORRUPT,
                           "corrupt sites region: module %u has bad lengths", i);
        const unsigned char *path = c->p;
        if (memchr(path, '\0', lens[0]) != NULL)
            return rd_fail(r, IOLENS_READ_CORRUPT,
                           "corrupt sites region: module %u's path holds a NUL", i);
        long idx = module_index(r->log, path, lens[0], path + lens[0], lens[1]);
        if (idx < 0)
            return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        map[i] = (uint32_t)idx;
        c->p += (size_t)lens[0] + lens[1];
        c->left -= (size_t)lens[0] + lens[1];
    }
    return IOLENS_READ_OK;
}

static enum iolens_read_status check_entry(struct reader *r, const struct iolens_site_entry *e,
                                           uint32_t nmodules, uint64_t i)
{
    const char *bad = NULL;
    if (iolens_layer_desc_by_kind(e->layer_kind) == NULL)
        bad = "names no layer";
    else if (e->module != IOLENS_SITE_OTHER && e->module >= nmodules)
        bad = "names no module";
    else if (e->module == IOLENS_SITE_OTHER && e->offset != 0)
        bad = "is another-sites entry with an offset";
    else if (e->bytes < 0 || !isfinite(e->time) || e->time < 0.0)
        bad = "has negative or invalid figures";
    if (bad == NULL)
        return IOLENS_READ_OK;
    return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt sites region: entry %llu %s",
                   (unsigned long long)i, bad);
}

/* Value i of a byte-planed column of n values of width bytes at p. */
static uint64_t plane_value(const unsigned char *p, uint64_t n, uint64_t i, unsigned width)
{
    uint64_t v = 0;
    for (unsigned b = 0; b < width; b++)
        v |= (uint64_t)p[b * n + i] << (8 * b);
    return v;
}

/* Version 2's entry i from its columns (log_format.h), into e; false
 * when its record column refers to nothing. */
static bool column_entry(const unsigned char *cols, uint64_t n, uint64_t i,
                         const struct rd_file_refs *refs, struct iolens_site_entry *e)
{
    const unsigned char *p = cols;
    if (!rd_file_of(refs, plane_value(p, n, i, 8), &e->record_id))
        return false;
    p += 8 * n;
    e->layer_kind = (uint32_t)plane_value(p, n, i, 4);
    p += 4 * n;
    e->module = (uint32_t)plane_value(p, n, i, 4);
    p += 4 * n;
    e->offset = plane_value(p, n, i, 8);
    p += 8 * n;
    e->ops = plane_value(p, n, i, 8);
    p += 8 * n;
    e->bytes = (int64_t)plane_value(p, n, i, 8);
    p += 8 * n;
    e->time = (double)plane_value(p, n, i, 8) * 1e-9;
    return true;
}

/* Version 2's extra ids (refs) after the modules. */
static enum iolens_read_status take_extra_ids(struct reader *r, unsigned region,
                                              struct sites_cursor *c, struct rd_file_refs *refs)
{
    static const struct rd_names_block no_names = {0, 0, 0, 0};
    if ((refs->names = rd_blocks_before(r->blocks, region)) == NULL)
        refs->names = &no_names;
    if (!take_bytes(c, &refs->nextra, sizeof refs->nextra) || refs->nextra > c->left / 8)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt sites region: bad extra ids");
    refs->extra = c->p;
    c->p += 8 * refs->nextra;
    c->left -= 8 * refs->nextra;
    return IOLENS_READ_OK;
}

enum iolens_read_status rd_parse_sites(struct reader *r, unsigned region, uint32_t version,
                                       const unsigned char *raw, size_t len)
{
    struct iolens_log *log = r->log;
    struct sites_cursor c = {raw, len};
    struct iolens_sites_head head;
    if (!take_bytes(&c, &head, sizeof head) || head.reserved != 0)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt sites region: bad head");
    if (head.rank < 0 || (log->job.nprocs > 0 && head.rank >= (int64_t)log->job.nprocs))
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt sites region: rank %lld is not the job's",
                       (long long)head.rank);
    /* Each module takes at least 9 bytes: a count past that is a lie. */
    if (head.module_count > c.left / 9)
        return rd_fail(r, IOLENS_READ_CORRUPT, "corrupt sites region: too many modules");
    uint32_t *map = malloc(((size_t)head.module_count + 1) * sizeof *map);
    if (map == NULL)
        return rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
    enum iolens_read_status st = take_modules(r, &c, head.module_count, map);
    struct rd_file_refs refs = {r->blocks, NULL, NULL, 0};
    bool columns = version != IOLENS_SITES_VERSION_1;
    if (st == IOLENS_READ_OK && columns)
        st = take_extra_ids(r, region, &c, &refs);
    /* Both layouts take 48 bytes an entry. */
    _Static_assert(sizeof(struct iolens_site_entry) == 48, "sites entry layout");
    if (st == IOLENS_READ_OK && (head.entry_count > c.left / sizeof(struct iolens_site_entry) ||
                                 head.entry_count * sizeof(struct iolens_site_entry) != c.left))
        st = rd_fail(r, IOLENS_READ_CORRUPT,
                     "corrupt sites region: the entry count does not fill the region");
    struct iolens_log_site *grown = NULL;
    if (st == IOLENS_READ_OK && head.entry_count > 0) {
        grown = realloc(log->sites, (log->nsites + head.entry_count) * sizeof *grown);
        if (grown == NULL)
            st = rd_fail(r, IOLENS_READ_NOMEM, "out of memory");
        else
            log->sites = grown;
    }
    for (uint64_t i = 0; st == IOLENS_READ_OK && i < head.entry_count; i++) {
        struct iolens_site_entry e;
        if (!columns)
            take_bytes(&c, &e, sizeof e);
        else if (!column_entry(c.p, head.entry_count, i, &refs, &e)) {
            st = rd_fail(r, IOLENS_READ_CORRUPT,
                         "corrupt sites region: entry %llu names a record that is not there",
                         (unsigned long long)i);
            break;
        }
        if ((st = check_entry(r, &e, head.module_count, i)) != IOLENS_READ_OK)
            break;
        log->sites[log->nsites++] = (struct iolens_log_site){
            e.record_id, head.rank, e.layer_kind,
            e.module == IOLENS_SITE_OTHER ? IOLENS_SITE_OTHER : map[e.module],
            e.offset, e.ops, e.bytes, e.time};
    }
    free(map);
    return st;
}

/* ---------------------------------------------------------- queries -- */

static int by_record_and_layer(const void *a, const void *b)
{
    const struct iolens_log_site *x = a, *y = b;
    if (x->record_id != y->record_id)
        return x->record_id < y->record_id ? -1 : 1;
    if (x->layer_kind != y->layer_kind)
        return x->layer_kind < y->layer_kind ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void rd_index_sites(struct iolens_log *log)
{
    if (log->nsites > 1)
        qsort(log->sites, log->nsites, sizeof *log->sites, by_record_and_layer);
    log->sites_sorted = 1;
}

/* The first of the log's sites of (id, kind) or after, when sorted; 0
 * when not (every site is then looked at). */
static size_t first_site_of(const struct iolens_log *log, uint64_t id, uint32_t kind)
{
    if (!log->sites_sorted)
        return 0;
    size_t lo = 0, hi = log->nsites;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct iolens_log_site *s = &log->sites[mid];
        if (s->record_id < id || (s->record_id == id && s->layer_kind < kind))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int site_more_bytes_first(const void *a, const void *b)
{
    const struct iolens_log_site *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    if (x->ops != y->ops)
        return x->ops > y->ops ? -1 : 1;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void add_figures(struct iolens_log_site *into, const struct iolens_log_site *s)
{
    into->ops += s->ops;
    into->bytes += s->bytes;
    into->time += s->time;
}

size_t iolens_log_record_sites(const struct iolens_log *log, uint32_t kind, uint64_t id,
                               int64_t rank, struct iolens_log_site *out)
{
    struct iolens_log_site *merged = NULL;
    size_t n = 0, cap = 0;
    struct iolens_log_site other = {id, rank, kind, IOLENS_SITE_OTHER, 0, 0, 0, 0.0};
    int any = 0;
    for (size_t i = first_site_of(log, id, kind); i < log->nsites; i++) {
        const struct iolens_log_site *s = &log->sites[i];
        if (log->sites_sorted && (s->record_id != id || s->layer_kind != kind))
            break; /* past the record's sites */
        if (s->record_id != id || s->layer_kind != kind)
            continue;
        any = 1;
        if (s->module == IOLENS_SITE_OTHER) {
            add_figures(&other, s);
            continue;
        }
        size_t k = 0;
        while (k < n && (merged[k].module != s->module || merged[k].offset != s->offset))
            k++;
        if (k < n) {
            add_figures(&merged[k], s);
            continue;
        }
        if (n == cap) {
            size_t c2 = cap ? 2 * cap : 8;
            struct iolens_log_site *g = realloc(merged, c2 * sizeof *g);
            if (g == NULL) {
                add_figures(&other, s); /* still counted, only not apart */
                continue;
            }
            merged = g;
            cap = c2;
        }
        merged[n] = *s;
        merged[n].rank = rank;
        n++;
    }
    if (!any) {
        free(merged);
        return 0;
    }
    if (n > 0)
        qsort(merged, n, sizeof *merged, site_more_bytes_first);
    size_t kept = n < IOLENS_SITES_LOGGED ? n : IOLENS_SITES_LOGGED;
    for (size_t k = 0; k < n; k++) {
        if (k < kept)
            out[k] = merged[k];
        else
            add_figures(&other, &merged[k]);
    }
    free(merged);
    if (other.ops > 0 || other.bytes > 0)
        out[kept++] = other;
    return kept;
}
