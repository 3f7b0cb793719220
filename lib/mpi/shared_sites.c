/* The shared records' call sites at MPI_Finalize (shared_sites.h). */
#include "mpi/shared_sites.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* One site on the wire, followed by its module's path and build-id
 * (path_len 0: the record's other sites), padded to 8 bytes. */
struct packed_site {
    uint64_t record_id;
    uint32_t layer_kind;
    uint32_t path_len;
    uint64_t offset;
    uint64_t ops;
    int64_t bytes;
    double time;
    uint32_t build_id_len;
    uint32_t reserved;
};

static size_t padded(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static size_t packed_size(const struct iolens_site_list *l, const struct iolens_site_entry *e)
{
    if (e->module == IOLENS_SITE_OTHER)
        return sizeof(struct packed_site);
    const struct iolens_site_module *m = &l->modules[e->module];
    return sizeof(struct packed_site) + padded(strlen(m->path) + m->build_id_len);
}

static size_t pack(const struct iolens_site_list *l, const struct iolens_site_entry *e,
                   unsigned char *at)
{
    const struct iolens_site_module *m =
        e->module == IOLENS_SITE_OTHER ? NULL : &l->modules[e->module];
    struct packed_site p = {e->record_id, e->layer_kind, m ? (uint32_t)strlen(m->path) : 0,
                            e->offset, e->ops, e->bytes, e->time, m ? m->build_id_len : 0, 0};
    size_t size = packed_size(l, e);
    memset(at, 0, size);
    memcpy(at, &p, sizeof p);
    if (m != NULL) {
        memcpy(at + sizeof p, m->path, p.path_len);
        memcpy(at + sizeof p + p.path_len, m->build_id, p.build_id_len);
    }
    return size;
}

static int destination(const struct iolens_share_assign *a, size_t na, int self, int nprocs,
                       uint64_t id)
{
    int w = iolens_share_writer_of(a, na, id);
    return w < 0 || w >= nprocs ? self : w;
}

int iolens_share_sites_split(struct iolens_site_list *l, const struct iolens_share_assign *a,
                             size_t na, int self, int nprocs, unsigned char **buf, int *counts,
                             int *displs)
{
    *buf = NULL;
    memset(counts, 0, (size_t)nprocs * sizeof *counts);
    for (size_t i = 0; i < l->n; i++) {
        int to = destination(a, na, self, nprocs, l->e[i].record_id);
        size_t size = packed_size(l, &l->e[i]);
        if (to == self)
            continue;
        if ((size_t)counts[to] > INT_MAX - size)
            return -1;
        counts[to] += (int)size;
    }
    size_t total = 0;
    for (int r = 0; r < nprocs; r++) {
        if (total > (size_t)(INT_MAX - counts[r]))
            return -1;
        displs[r] = (int)total;
        total += (size_t)counts[r];
    }
    size_t *next = malloc(((size_t)nprocs + 1) * sizeof *next);
    *buf = malloc(total + 1);
    if (next == NULL || *buf == NULL) {
        free(next);
        free(*buf);
        *buf = NULL;
        return -1;
    }
    for (int r = 0; r < nprocs; r++)
        next[r] = (size_t)displs[r];
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        int to = destination(a, na, self, nprocs, l->e[i].record_id);
        if (to == self)
            l->e[kept++] = l->e[i];
        else
            next[to] += pack(l, &l->e[i], *buf + next[to]);
    }
    l->n = kept;
    free(next);
    return 0;
}

/* The next site of the buffer at *at, checked: 1 and *p, *name (path then
 * build-id), or 0 when the bytes left do not hold one. */
static int unpack(const unsigned char *recv, size_t len, size_t *at, struct packed_site *p,
                  const unsigned char **name)
{
    if (len - *at < sizeof *p)
        return 0;
    memcpy(p, recv + *at, sizeof *p);
    size_t names = (size_t)p->path_len + p->build_id_len;
    if (p->path_len >= IOLENS_SITES_PATH_MAX || p->build_id_len > IOLENS_SITES_BUILD_ID_MAX ||
        (p->path_len == 0 && p->build_id_len != 0) || p->bytes < 0 ||
        len - *at - sizeof *p < padded(names))
        return 0;
    *name = recv + *at + sizeof *p;
    if (memchr(*name, '\0', p->path_len) != NULL)
        return 0;
    *at += sizeof *p + padded(names);
    return 1;
}

static int well_formed(const unsigned char *recv, size_t len)
{
    struct packed_site p;
    const unsigned char *name;
    size_t at = 0;
    while (at < len)
        if (!unpack(recv, len, &at, &p, &name))
            return 0;
    return 1;
}

int iolens_share_sites_merge(struct iolens_site_list *l, const unsigned char *recv, size_t len)
{
    if (len == 0)
        return 0;
    if (!well_formed(recv, len))
        return -1;
    struct packed_site p;
    const unsigned char *name;
    for (size_t at = 0; at < len;) {
        unpack(recv, len, &at, &p, &name);
        long module = IOLENS_SITE_OTHER;
        if (p.path_len > 0 &&
            (module = iolens_site_list_module(l, (const char *)name, p.path_len,
                                              name + p.path_len, p.build_id_len)) < 0)
            return -1;
        struct iolens_site_entry *e = iolens_site_list_add(l);
        if (e == NULL)
            return -1;
        *e = (struct iolens_site_entry){p.record_id, p.layer_kind, (uint32_t)module, p.offset,
                                        p.ops,       p.bytes,      p.time};
    }
    iolens_site_list_reduce(l);
    return 0;
}
