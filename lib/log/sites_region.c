/* The SITES region (sites_region.h). */
#include "log/sites_region.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/call_site.h"
#include "core/clock.h"
#include "core/file_table.h"
#include "iolens/log_format.h"
#include "layers/layer_ops.h"
#include "log/site_list.h"

/* ------------------------------------------------------------ modules -- */

/* A loaded object: where its segments lie and what names it. */
struct module {
    uintptr_t bias;                 /* dlpi_addr */
    uintptr_t lo, hi;               /* its PT_LOAD segments span [lo, hi) */
    char path[IOLENS_SITES_PATH_MAX];
    unsigned char build_id[IOLENS_SITES_BUILD_ID_MAX];
    uint32_t build_id_len;
    uint32_t index;                 /* in the region's table; IOLENS_SITE_OTHER: unused */
};

struct modules {
    struct module *m;
    size_t n, cap;
};

/* The GNU build-id of a PT_NOTE segment, if it has one: 1, else 0. */
static int note_build_id(const unsigned char *p, size_t size, struct module *mod)
{
    size_t at = 0;
    while (at + sizeof(ElfW(Nhdr)) <= size) {
        ElfW(Nhdr) nh;
        memcpy(&nh, p + at, sizeof nh);
        size_t name_at = at + sizeof nh;
        size_t desc_at = name_at + ((nh.n_namesz + 3u) & ~3u);
        size_t next = desc_at + ((nh.n_descsz + 3u) & ~3u);
        if (next > size || next <= at)
            return 0;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
            memcmp(p + name_at, "GNU", 4) == 0 && nh.n_descsz > 0 &&
            nh.n_descsz <= IOLENS_SITES_BUILD_ID_MAX) {
            memcpy(mod->build_id, p + desc_at, nh.n_descsz);
            mod->build_id_len = nh.n_descsz;
            return 1;
        }
        at = next;
    }
    return 0;
}

/* The program itself has no name in dl_iterate_phdr: its path is
 * /proc/self/exe's. */
static void module_path(const char *name, struct module *mod)
{
    if (name != NULL && name[0] != '\0') {
        snprintf(mod->path, sizeof mod->path, "%s", name);
        return;
    }
    ssize_t n = readlink("/proc/self/exe", mod->path, sizeof mod->path - 1);
    mod->path[n > 0 ? n : 0] = '\0';
}

static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct modules *ms = arg;
    if (ms->n == ms->cap) {
        size_t cap = ms->cap ? 2 * ms->cap : 32;
        struct module *m = realloc(ms->m, cap * sizeof *m);
        if (m == NULL)
            return 1;
        ms->m = m;
        ms->cap = cap;
    }
    struct module *mod = &ms->m[ms->n];
    memset(mod, 0, sizeof *mod);
    mod->bias = info->dlpi_addr;
    mod->lo = UINTPTR_MAX;
    mod->index = IOLENS_SITE_OTHER;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD) {
            if (start < mod->lo)
                mod->lo = start;
            if (start + ph->p_memsz > mod->hi)
                mod->hi = start + ph->p_memsz;
        } else if (ph->p_type == PT_NOTE && mod->build_id_len == 0) {
            note_build_id((const unsigned char *)start, ph->p_memsz, mod);
        }
    }
    module_path(info->dlpi_name, mod);
    if (mod->lo < mod->hi && mod->path[0] != '\0')
        ms->n++;
    return 0;
}

static struct module *module_of(struct modules *ms, uintptr_t addr)
{
    for (size_t i = 0; i < ms->n; i++)
        if (addr >= ms->m[i].lo && addr < ms->m[i].hi)
            return &ms->m[i];
    return NULL;
}

/* ------------------------------------------------------------ entries -- */

struct iolens_sites_gather {
    struct modules modules;
    struct iolens_site_list *list;
    int failed;
};

static struct iolens_site_entry *new_entry(struct iolens_sites_gather *g)
{
    struct iolens_site_entry *e = iolens_site_list_add(g->list);
    if (e == NULL)
        g->failed = 1;
    return e;
}

static int more_bytes_first(const void *a, const void *b)
{
    const struct iolens_site_slot *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    if (x->ops != y->ops)
        return x->ops > y->ops ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Insertion sort of a table's few slots (qsort's call per compare costs
 * more than the sort, once per record). */
static void sort_top(struct iolens_site_slot *top, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        struct iolens_site_slot s = top[i];
        unsigned j = i;
        for (; j > 0 && more_bytes_first(&s, &top[j - 1]) < 0; j--)
            top[j] = top[j - 1];
        top[j] = s;
    }
}

static void fold(struct iolens_site_slot *into, const struct iolens_site_slot *s)
{
    into->ops += s->ops;
    into->bytes += s->bytes;
    into->time += s->time;
}

/* The list's index of a module, given at its first site. */
static long list_index(struct iolens_sites_gather *g, struct module *mod)
{
    if (mod->index == IOLENS_SITE_OTHER) {
        long i = iolens_site_list_module(g->list, mod->path, strlen(mod->path), mod->build_id,
                                         mod->build_id_len);
        if (i < 0)
            return -1;
        mod->index = (uint32_t)i;
    }
    return mod->index;
}

/* One record's table: its top sites (kept and waiting) that lie in a
 * module, then the rest in one other entry. */
static void add_table(struct iolens_sites_gather *g, uint64_t id, uint32_t kind,
                      struct iolens_site_snapshot *t)
{
    sort_top(t->top, IOLENS_SITES_KEPT + 1);
    struct iolens_site_slot other = t->other;
    unsigned kept = 0;
    double spu = iolens_clock_seconds_per_unit();
    for (unsigned i = 0; i < IOLENS_SITES_KEPT + 1; i++) {
        const struct iolens_site_slot *s = &t->top[i];
        if (s->addr == 0)
            continue;
        struct module *mod = module_of(&g->modules, s->addr);
        long index = kept < IOLENS_SITES_LOGGED && mod != NULL ? list_index(g, mod) : -1;
        if (index < 0) {
            fold(&other, s);
            continue;
        }
        struct iolens_site_entry *e = new_entry(g);
        if (e == NULL)
            return;
        *e = (struct iolens_site_entry){id, kind, (uint32_t)index, s->addr - mod->bias, s->ops,
                                        s->bytes, s->time * spu};
        kept++;
    }
    if (other.ops == 0 && other.bytes == 0)
        return;
    struct iolens_site_entry *e = new_entry(g);
    if (e != NULL)
        *e = (struct iolens_site_entry){id, kind, IOLENS_SITE_OTHER, 0, other.ops, other.bytes,
                                        other.time * spu};
}

void iolens_sites_gather_file(struct iolens_file *file, void *arg)
{
    struct iolens_sites_gather *g = arg;
    for (unsigned l = 0; l < IOLENS_NLAYERS; l++) {
        const struct iolens_layer_ops *ops = iolens_layer_ops_of((enum iolens_layer)l);
        struct iolens_site_snapshot t;
        if (ops != NULL && iolens_layer_copy_sites(file, ops, &t))
            add_table(g, file->id, ops->region_kind, &t);
    }
}

struct iolens_sites_gather *iolens_sites_gather_start(struct iolens_site_list *list)
{
    struct iolens_sites_gather *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->list = list;
    dl_iterate_phdr(add_module, &g->modules);
    return g;
}

int iolens_sites_gather_finish(struct iolens_sites_gather *g)
{
    if (g == NULL)
        return -1;
    int failed = g->failed;
    free(g->modules.m);
    free(g);
    return failed ? -1 : 0;
}

int iolens_gather_sites(struct iolens_site_list *list)
{
    struct iolens_sites_gather *g = iolens_sites_gather_start(list);
    if (g != NULL)
        iolens_file_foreach(iolens_sites_gather_file, g);
    return iolens_sites_gather_finish(g);
}

int iolens_put_sites_region(struct iolens_buf *out, int64_t rank,
                            const struct iolens_site_list *list,
                            const struct iolens_names_block *names)
{
    struct iolens_sites_head head = {rank, list->nmodules, 0, list->n};
    iolens_buf_put(out, &head, sizeof head);
    for (uint32_t i = 0; i < list->nmodules; i++) {
        const struct iolens_site_module *mod = &list->modules[i];
        iolens_buf_put_u32(out, (uint32_t)strlen(mod->path));
        iolens_buf_put_u32(out, mod->build_id_len);
        iolens_buf_put(out, mod->path, strlen(mod->path));
        if (mod->build_id_len > 0)
            iolens_buf_put(out, mod->build_id, mod->build_id_len);
    }
    iolens_encode_site_entries(out, list->e, list->n, names);
    return iolens_buf_status(out);
}

int iolens_gather_sites_region(struct iolens_buf *out, int64_t rank,
                               const struct iolens_names_block *names)
{
    struct iolens_site_list list = {0};
    int rc = iolens_gather_sites(&list);
    if (rc == 0)
        rc = iolens_put_sites_region(out, rank, &list, names);
    iolens_site_list_free(&list);
    return rc;
}
