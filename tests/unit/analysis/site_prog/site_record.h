/* Included by each source of the program that tests/unit/analysis/
 * test_site_resolve.c builds: record_site prints, for its caller's call,
 * what a log stores as a call site, worked out by the program itself
 * (the oracle the resolver is checked against):
 *     TAG 0xOFFSET BUILDID
 * OFFSET is the return address minus the load bias of the object that
 * holds it (dl_iterate_phdr's dlpi_addr), BUILDID that object's GNU
 * build-id from its loaded notes, in hex. */
#ifndef SITE_RECORD_H
#define SITE_RECORD_H

#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct site_object {
    uintptr_t addr;
    uintptr_t bias;
    const ElfW(Phdr) *phdr;
    int phnum;
};

static int site_find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    struct site_object *o = data;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + p->p_vaddr;
        if (p->p_type == PT_LOAD && o->addr >= start && o->addr < start + p->p_memsz) {
            o->bias = info->dlpi_addr;
            o->phdr = info->dlpi_phdr;
            o->phnum = info->dlpi_phnum;
            return 1;
        }
    }
    return 0;
}

static void site_print_build_id(const struct site_object *o)
{
    for (int i = 0; i < o->phnum; i++) {
        if (o->phdr[i].p_type != PT_NOTE)
            continue;
        const unsigned char *p = (const unsigned char *)(o->bias + o->phdr[i].p_vaddr);
        const unsigned char *end = p + o->phdr[i].p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const unsigned char *name = p + sizeof *n;
            const unsigned char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                for (unsigned j = 0; j < n->n_descsz; j++)
                    printf("%02x", desc[j]);
                return;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    printf("none");
}

static __attribute__((noinline)) void record_site(const char *tag)
{
    uintptr_t ret = (uintptr_t)__builtin_return_address(0);
    struct site_object o = {.addr = ret - 1};
    if (!dl_iterate_phdr(site_find_object, &o))
        return;
    printf("%s %#lx ", tag, (unsigned long)(ret - o.bias));
    site_print_build_id(&o);
    printf("\n");
}

#endif
