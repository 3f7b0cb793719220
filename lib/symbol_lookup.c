#include "symbol_lookup.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The load address of libiolens, found from one of its own functions. */
static const void *own_base(void)
{
    static const void *_Atomic base;
    const void *b = atomic_load_explicit(&base, memory_order_relaxed);
    if (b == NULL) {
        Dl_info info;
        if (dladdr((const void *)&own_base, &info) != 0)
            b = info.dli_fbase;
        atomic_store_explicit(&base, b, memory_order_relaxed);
    }
    return b;
}

int iolens_symbol_is_own(const void *fn)
{
    Dl_info info;
    return fn != NULL && dladdr(fn, &info) != 0 && info.dli_fbase == own_base();
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
