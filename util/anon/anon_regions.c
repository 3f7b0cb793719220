/* iolens-anonymize: the rewriting of each region's raw bytes (anon.h).
 * The input was validated by the reader first, so lengths are trusted
 * here only as far as the reader checked them; every read is still
 * bounds-checked (a cursor), and anything unexpected is an error. */
#include <stdio.h>
#include <string.h>

#include "anon/anon.h"
#include "iolens/log_format.h"
#include "format/path_hash.h"
#include "reader/reader.h"
#include "format/record_merge.h"

struct cur {
    const unsigned char *p;
    size_t left;
};

static int take(struct cur *c, void *out, size_t n)
{
    if (c->left < n)
        return -1;
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
    return 0;
}

/* A uint32 length and that many bytes, pointed to (not copied). */
static int take_str(struct cur *c, const char **s, uint32_t *len)
{
    if (take(c, len, sizeof *len) != 0 || *len > c->left)
        return -1;
    *s = (const char *)c->p;
    c->p += *len;
    c->left -= *len;
    return 0;
}

/* Writes tmp (a string built in a scratch buffer) as uint32 length + bytes. */
static void put_str(struct anon_buf *out, const struct anon_buf *tmp)
{
    uint32_t len = (uint32_t)tmp->len;
    anon_put(out, &len, sizeof len);
    anon_put(out, tmp->p, tmp->len);
}

/* A NUL-separated list (arguments, host names): each entry a token. */
static void token_list(struct anon_buf *out, const struct anon_key *key, const char *label,
                       char prefix, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *nul = memchr(s + i, '\0', len - i);
        size_t n = nul != NULL ? (size_t)(nul - (s + i)) : len - i;
        anon_token(out, key, label, prefix, s + i, n);
        i += n;
        if (nul != NULL) {
            anon_put(out, "", 1);
            i++;
        }
    }
}

/* A NUL-separated list of paths, each anonymized as the executable is
 * (the same path gives the same result). */
static void path_list(struct anon_buf *out, const struct anon_key *key, const char *s,
                      size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *nul = memchr(s + i, '\0', len - i);
        size_t n = nul != NULL ? (size_t)(nul - (s + i)) : len - i;
        anon_path(out, key, s + i, n);
        i += n;
        if (nul != NULL) {
            anon_put(out, "", 1);
            i++;
        }
    }
}

static int rewrite_job(const struct anon_key *key, struct cur *c, struct anon_buf *out)
{
    struct iolens_job_fixed f;
    if (take(c, &f, sizeof f) != 0)
        return -1;
    f.uid = anon_uid(key, f.uid);
    anon_put(out, &f, sizeof f);
    for (uint64_t i = 0; i < f.string_count; i++) {
        const char *s;
        uint32_t len;
        if (take_str(c, &s, &len) != 0)
            return -1;
        struct anon_buf t = {0};
        switch (i) {
        case IOLENS_JOBSTR_JOBID: anon_token(&t, key, "jobid", 'j', s, len); break;
        case IOLENS_JOBSTR_USER: anon_token(&t, key, "user", 'u', s, len); break;
        case IOLENS_JOBSTR_EXE: anon_path(&t, key, s, len); break;
        case IOLENS_JOBSTR_EXES: path_list(&t, key, s, len); break;
        case IOLENS_JOBSTR_ARGS: token_list(&t, key, "arg", 'a', s, len); break;
        case IOLENS_JOBSTR_HOSTS: token_list(&t, key, "host", 'n', s, len); break;
        case IOLENS_JOBSTR_VERSION:
        case IOLENS_JOBSTR_MPI_VERSION: anon_put(&t, s, len); break;
        default: anon_token(&t, key, "string", 's', s, len); break; /* unknown: hidden */
        }
        put_str(out, &t);
        int failed = t.failed;
        anon_buf_free(&t);
        if (failed)
            out->failed = 1;
    }
    return 0;
}

static int rewrite_mounts(const struct anon_key *key, struct cur *c, struct anon_buf *out)
{
    uint32_t count;
    if (take(c, &count, sizeof count) != 0)
        return -1;
    anon_put(out, &count, sizeof count);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t block;
        const char *point, *fstype;
        uint32_t plen, flen;
        if (take(c, &block, sizeof block) != 0 || take_str(c, &point, &plen) != 0 ||
            take_str(c, &fstype, &flen) != 0)
            return -1;
        anon_put(out, &block, sizeof block);
        struct anon_buf t = {0};
        anon_path(&t, key, point, plen);
        put_str(out, &t);
        anon_buf_free(&t);
        anon_put(out, &flen, sizeof flen);
        anon_put(out, fstype, flen);
    }
    return 0;
}

/* Every entry gets an explicit id: the new id is not the hash of the new
 * name. */
static int rewrite_names(const struct anon_key *key, struct cur *c, struct anon_buf *out)
{
    uint32_t count;
    if (take(c, &count, sizeof count) != 0)
        return -1;
    anon_put(out, &count, sizeof count);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t word;
        uint64_t id;
        if (take(c, &word, sizeof word) != 0 || ((word & 1u) && take(c, &id, sizeof id) != 0))
            return -1;
        uint32_t len = word >> 1;
        if (len > c->left)
            return -1;
        const char *name = (const char *)c->p;
        c->p += len;
        c->left -= len;
        if (!(word & 1u))
            id = iolens_name_id(name, len);
        struct anon_buf t = {0};
        if (id <= IOLENS_ID_RESERVED_MAX) /* <STDIN>, <other files> ...: no user data */
            anon_put(&t, name, len);
        else
            anon_path(&t, key, name, len);
        uint32_t new_word = (uint32_t)t.len << 1 | 1u;
        uint64_t new_id = anon_id(key, id);
        anon_put(out, &new_word, sizeof new_word);
        anon_put(out, &new_id, sizeof new_id);
        anon_put(out, t.p, t.len);
        if (t.failed)
            out->failed = 1;
        anon_buf_free(&t);
    }
    return 0;
}

/* Column k of a byte-shuffled layer body (log_format.h): value i's byte b
 * is at (k * 8 + b) * n + i. */
static void map_column(const struct anon_key *key, unsigned char *body, uint64_t n, uint64_t k)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (unsigned b = 0; b < 8; b++)
            v |= (uint64_t)body[(k * 8 + b) * n + i] << (8 * b);
        v = anon_id(key, v);
        for (unsigned b = 0; b < 8; b++)
            body[(k * 8 + b) * n + i] = (unsigned char)(v >> (8 * b));
    }
}

/* The place among the stored columns of column k (codes NULL: all
 * stored), or -1 when it is IOLENS_COL_ZERO (nothing to rewrite). */
static int64_t stored_column(const unsigned char *codes, uint64_t k)
{
    if (codes == NULL)
        return (int64_t)k;
    if (codes[k] == IOLENS_COL_ZERO)
        return -1;
    int64_t at = 0;
    for (uint64_t j = 0; j < k; j++)
        at += codes[j] != IOLENS_COL_ZERO;
    return at;
}

/* A layer region of version 2 (no column codes: ids), 3 (a code per
 * column; places in the names block stay as they are, since the names
 * regions keep their entries' order) or 4 (columns of IOLENS_COL_ZERO
 * store nothing). */
static int rewrite_layer(const struct anon_key *key, uint32_t kind, uint32_t version,
                         struct cur *c, struct anon_buf *out)
{
    struct iolens_layer_head h;
    if (take(c, &h, sizeof h) != 0)
        return -1;
    anon_put(out, &h, sizeof h);
    uint64_t columns = 2 + (uint64_t)h.counter_count + h.fcounter_count, stored = columns;
    int ids = 1;
    const unsigned char *codes = NULL;
    if (version != IOLENS_LAYER_VERSION_2) {
        if (columns > c->left)
            return -1;
        codes = c->p;
        ids = codes[0] == IOLENS_COL_RAW;
        for (uint64_t k = 0; k < columns; k++)
            stored -= codes[k] == IOLENS_COL_ZERO;
        anon_put(out, c->p, (size_t)columns);
        c->p += columns;
        c->left -= columns;
    }
    if (stored == 0 || h.record_count > c->left / 8 / stored)
        return -1;
    size_t body = (size_t)(h.record_count * 8 * stored);
    size_t at = out->len;
    anon_put(out, c->p, body);
    if (out->failed)
        return 0;
    c->p += body;
    c->left -= body;
    if (ids)
        map_column(key, out->p + at, h.record_count, 0); /* the ids */
    /* A record that is not a file (H5D's datasets) names its file's record
     * by id in a counter (the descriptor's file_rec_id role). */
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    if (d != NULL && d->file_rec_id >= 0 && (uint32_t)d->file_rec_id < h.counter_count) {
        int64_t k = stored_column(codes, 2 + (uint64_t)d->file_rec_id);
        if (k >= 0)
            map_column(key, out->p + at, h.record_count, (uint64_t)k);
    }
    return 0;
}

/* Versions 2 and 3; file columns of places in the names block stay as
 * they are (the names regions keep their entries' order). */
static int rewrite_intervals(const struct anon_key *key, uint32_t version, struct cur *c,
                             struct anon_buf *out)
{
    struct iolens_intervals_head h;
    if (take(c, &h, sizeof h) != 0)
        return -1;
    anon_put(out, &h, sizeof h);
    for (uint32_t l = 0; l < h.nlayers; l++) {
        struct iolens_intervals_layer L;
        if (take(c, &L, sizeof L) != 0)
            return -1;
        anon_put(out, &L, sizeof L);
        int places = version == IOLENS_INTERVALS_VERSION && L.file_column == IOLENS_IV_FILE_PLACES;
        if (places) { /* the extra ids are ids; the places stay */
            uint64_t nextra, id;
            if (take(c, &nextra, sizeof nextra) != 0 || nextra > c->left / 8)
                return -1;
            anon_put(out, &nextra, sizeof nextra);
            for (uint64_t k = 0; k < nextra; k++) {
                take(c, &id, sizeof id);
                id = anon_id(key, id);
                anon_put(out, &id, sizeof id);
            }
        }
        if (L.count > c->left / IOLENS_INTERVAL_DISK_SIZE)
            return -1;
        size_t n = (size_t)L.count;
        if (version == IOLENS_INTERVALS_VERSION) { /* byte-planed columns */
            size_t at = out->len;
            anon_put(out, c->p, IOLENS_INTERVAL_DISK_SIZE * n);
            if (!places && !out->failed) /* the file ids: the fifth 8-byte column */
                map_column(key, out->p + at, n, 4);
            c->p += IOLENS_INTERVAL_DISK_SIZE * n;
            c->left -= IOLENS_INTERVAL_DISK_SIZE * n;
            continue;
        }
        /* Columns start, duration, busy, bytes, then the file ids. */
        anon_put(out, c->p, 32 * n);
        for (size_t i = 0; i < n; i++) {
            uint64_t id;
            memcpy(&id, c->p + 32 * n + 8 * i, sizeof id);
            if (!places || id < IOLENS_IV_FIRST_PLACE)
                id = anon_id(key, id);
            anon_put(out, &id, sizeof id);
        }
        anon_put(out, c->p + 40 * n, 8 * n); /* accesses and flags */
        c->p += IOLENS_INTERVAL_DISK_SIZE * n;
        c->left -= IOLENS_INTERVAL_DISK_SIZE * n;
    }
    return 0;
}

/* A sites region's module: its path's components hashed like a file's
 * (anon_path), or one token when that would pass the longest path a
 * module may have; its build-id replaced by as many keyed bytes, since a
 * build-id names the exact program (the executable's name is hashed too). */
static int rewrite_site_module(const struct anon_key *key, struct cur *c, struct anon_buf *out)
{
    uint32_t lens[2];
    if (take(c, lens, sizeof lens) != 0 || lens[1] > IOLENS_SITES_BUILD_ID_MAX ||
        (uint64_t)lens[0] + lens[1] > c->left)
        return -1;
    const char *path = (const char *)c->p;
    struct anon_buf t = {0};
    anon_path(&t, key, path, lens[0]);
    if (t.len == 0 || t.len > IOLENS_SITES_PATH_MAX) {
        t.len = 0;
        anon_token(&t, key, "module", 'm', path, lens[0]);
    }
    unsigned char build_id[IOLENS_SITES_BUILD_ID_MAX];
    anon_bytes(key, "build-id", c->p + lens[0], lens[1], build_id, lens[1]);
    uint32_t new_lens[2] = {(uint32_t)t.len, lens[1]};
    anon_put(out, new_lens, sizeof new_lens);
    anon_put(out, t.p, t.len);
    anon_put(out, build_id, lens[1]);
    if (t.failed)
        out->failed = 1;
    anon_buf_free(&t);
    c->p += (size_t)lens[0] + lens[1];
    c->left -= (size_t)lens[0] + lens[1];
    return 0;
}

/* A sites region: the modules rewritten, the records' ids mapped like the
 * layers' (version 1: in each entry; version 2: the extra ids, while the
 * places in the names block stay, as the names regions keep their
 * order); offsets and figures kept. */
static int rewrite_sites(const struct anon_key *key, uint32_t version, struct cur *c,
                         struct anon_buf *out)
{
    struct iolens_sites_head h;
    if (take(c, &h, sizeof h) != 0)
        return -1;
    anon_put(out, &h, sizeof h);
    for (uint32_t i = 0; i < h.module_count; i++)
        if (rewrite_site_module(key, c, out) != 0)
            return -1;
    if (version == IOLENS_SITES_VERSION_1) {
        if (h.entry_count > c->left / sizeof(struct iolens_site_entry))
            return -1;
        for (uint64_t i = 0; i < h.entry_count; i++) {
            struct iolens_site_entry e;
            take(c, &e, sizeof e);
            e.record_id = anon_id(key, e.record_id);
            anon_put(out, &e, sizeof e);
        }
        return 0;
    }
    uint64_t nextra;
    if (take(c, &nextra, sizeof nextra) != 0 || nextra > c->left / 8)
        return -1;
    anon_put(out, &nextra, sizeof nextra);
    for (uint64_t i = 0; i < nextra; i++) {
        uint64_t id;
        take(c, &id, sizeof id);
        id = anon_id(key, id);
        anon_put(out, &id, sizeof id);
    }
    if (h.entry_count > c->left / sizeof(struct iolens_site_entry))
        return -1;
    size_t body = (size_t)h.entry_count * sizeof(struct iolens_site_entry);
    anon_put(out, c->p, body); /* the columns, as they are */
    c->p += body;
    c->left -= body;
    return 0;
}

int anon_region_known(uint32_t kind, uint32_t version)
{
    uint32_t v = iolens_region_known_version(kind);
    if (kind == IOLENS_REGION_INTERVALS && version == IOLENS_INTERVALS_VERSION_2)
        return 1;
    if (kind == IOLENS_REGION_SITES && version == IOLENS_SITES_VERSION_1)
        return 1;
    if (v != 0 && kind >= IOLENS_REGION_POSIX &&
        (version == IOLENS_LAYER_VERSION_2 || version == IOLENS_LAYER_VERSION_3))
        return 1;
    return v != 0 && v == version;
}

int anon_region(const struct anon_key *key, uint32_t kind, uint32_t version,
                const unsigned char *raw, size_t len, struct anon_buf *out, char *err,
                size_t errsz)
{
    struct cur c = {raw, len};
    int rc;
    switch (kind) {
    case IOLENS_REGION_JOB: rc = rewrite_job(key, &c, out); break;
    case IOLENS_REGION_MOUNTS: rc = rewrite_mounts(key, &c, out); break;
    case IOLENS_REGION_NAMES: rc = rewrite_names(key, &c, out); break;
    case IOLENS_REGION_INTERVALS: rc = rewrite_intervals(key, version, &c, out); break;
    case IOLENS_REGION_SITES: rc = rewrite_sites(key, version, &c, out); break;
    case IOLENS_REGION_RANKS: /* times and host indexes only */
        anon_put(out, raw, len);
        c.left = 0;
        rc = 0;
        break;
    default: rc = rewrite_layer(key, kind, version, &c, out); break;
    }
    if (rc == 0 && c.left != 0)
        rc = -1;
    if (rc != 0)
        snprintf(err, errsz, "region kind %u does not have the expected layout", (unsigned)kind);
    else if (out->failed)
        snprintf(err, errsz, "out of memory");
    return rc == 0 && !out->failed ? 0 : -1;
}
