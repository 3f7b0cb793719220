#include "core/symbol_lookup.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The address range of libiolens's loaded segments, found once: checking
 * a lookup's result is then two comparisons, without the loader's lock. */
static uintptr_t own_start, own_end;

static int note_own_range(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uintptr_t probe = (uintptr_t)arg, start = UINTPTR_MAX, end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t from = info->dlpi_addr + ph->p_vaddr;
        if (from < start)
            start = from;
        if (from + ph->p_memsz > end)
            end = from + ph->p_memsz;
    }
    if (probe < start || probe >= end)
        return 0;
    own_start = start;
    own_end = end;
    return 1;
}

static void find_own_range(void)
{
    dl_iterate_phdr(note_own_range, (void *)(uintptr_t)&find_own_range);
}

int iolens_symbol_is_own(const void *fn)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_own_range);
    return (uintptr_t)fn >= own_start && (uintptr_t)fn < own_end;
}

static void *not_own(void *fn)
{
    return iolens_symbol_is_own(fn) ? NULL : fn;
}

void *iolens_symbol_global(const char *name)
{
    void *fn = not_own(dlsym(RTLD_NEXT, name));
    return fn != NULL ? fn : not_own(dlsym(RTLD_DEFAULT, name));
}

void *iolens_symbol_in(void *handle, const char *name)
{
    return handle != NULL ? not_own(dlsym(handle, name)) : NULL;
}

struct loaded_objects {
    char **names;
    size_t n, cap;
};

static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct loaded_objects *o = arg;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
        return 0;
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        char **names = realloc(o->names, cap * sizeof *names);
        if (names == NULL)
            return 1;
        o->names = names;
        o->cap = cap;
    }
    if ((o->names[o->n] = strdup(info->dlpi_name)) != NULL)
        o->n++;
    return 0;
}

/* 1 if the object behind handle itself defines symbol (not only one of
 * its dependencies), and it is not libiolens. */
static int defines_itself(void *handle, const char *symbol)
{
    void *fn = iolens_symbol_in(handle, symbol);
    struct link_map *own = NULL, *definer = NULL;
    Dl_info info;
    return fn != NULL && dlinfo(handle, RTLD_DI_LINKMAP, &own) == 0 &&
           dladdr1(fn, &info, (void **)&definer, RTLD_DL_LINKMAP) != 0 && definer == own;
}

/* The names are taken first and opened after: dlopen inside
 * dl_iterate_phdr's callback would run under the loader's lock. */
void *iolens_symbol_loaded_object_defining(const char *symbol)
{
    struct loaded_objects o = {0};
    dl_iterate_phdr(note_object, &o);
    void *found = NULL;
    for (size_t i = 0; i < o.n; i++) {
        void *h = found == NULL ? dlopen(o.names[i], RTLD_LAZY | RTLD_NOLOAD) : NULL;
        if (h != NULL && defines_itself(h, symbol))
            found = h;
        else if (h != NULL)
            dlclose(h);
        free(o.names[i]);
    }
    free(o.names);
    return found;
}

void *iolens_symbol_object_of(const void *fn)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (fn == NULL || dladdr1(fn, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL)
        return NULL;
    /* The main program is listed with an empty name; dlopen(NULL) is it. */
    const char *name = map->l_name != NULL && map->l_name[0] != '\0' ? map->l_name : NULL;
    return dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
}

static int read_generation(struct dl_phdr_info *info, size_t size, void *arg)
{
    uint64_t *generation = arg;
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        *generation = info->dlpi_adds + info->dlpi_subs;
    return 1; /* the counts are the same in every entry: one is enough */
}

uint64_t iolens_symbol_generation(void)
{
    uint64_t generation = 0;
    dl_iterate_phdr(read_generation, &generation);
    return generation;
}
