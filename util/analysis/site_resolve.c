/* Call sites resolved through libdwfl (elfutils): each module path read
 * from a log gets one offline Dwfl session, kept in a small cache, that
 * knows the module's build-id, its symbols and (found by libdw in the
 * file itself or in a separate debug file) its DWARF.
 *
 * Module paths come from logs and may name anything: a path is opened
 * only when stat says it is a regular file, without blocking (a FIFO
 * swapped in between opens at once and fails the second check), and
 * handed to libdw only when it starts with the ELF magic (so never an ar
 * archive, which libdw would report member by member).
 *
 * With DEBUGINFOD_URLS set, libdw's standard search may also ask those
 * servers for a missing debug file, as every elfutils tool does. */
#include "analysis/site_resolve.h"

#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sessions kept open at once; a log naming more modules still resolves
 * them all, reopening the least recently used. */
#define SITE_CACHE_SLOTS 64

struct site_module {
    char *path;          /* NULL: free slot */
    Dwfl *dwfl;          /* NULL: the path is not an ELF file we could open */
    Dwfl_Module *module;
    uint64_t last_use;
};

struct iolens_site_resolver {
    Dwfl_Callbacks callbacks;
    char *debuginfo_path; /* what callbacks.debuginfo_path points at; NULL: libdw's default */
    struct site_module slots[SITE_CACHE_SLOTS];
    uint64_t clock;
};

/* libdw's default search path (the module's directory, its .debug
 * subdirectory, /usr/lib/debug), after DIR.  NULL when DIR does not
 * exist or cannot be written in the path's colon-separated syntax. */
static char *debuginfo_path_with(const char *debug_dir)
{
    static const char default_path[] = ":.debug:/usr/lib/debug";
    char *dir = realpath(debug_dir, NULL);
    if (!dir)
        return NULL;
    char *path = NULL;
    if (!strchr(dir, ':')) {
        size_t len = strlen(dir);
        path = malloc(len + sizeof default_path + 1);
        if (path) {
            memcpy(path, dir, len);
            path[len] = ':';
            memcpy(path + len + 1, default_path, sizeof default_path);
        }
    }
    free(dir);
    return path;
}

struct iolens_site_resolver *iolens_site_resolver_new(const char *debug_dir)
{
    struct iolens_site_resolver *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (debug_dir)
        r->debuginfo_path = debuginfo_path_with(debug_dir);
    r->callbacks.find_elf = dwfl_build_id_find_elf;
    r->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    r->callbacks.section_address = dwfl_offline_section_address;
    r->callbacks.debuginfo_path = &r->debuginfo_path;
    return r;
}

static void slot_clear(struct site_module *slot)
{
    if (slot->dwfl)
        dwfl_end(slot->dwfl);
    free(slot->path);
    *slot = (struct site_module){0};
}

void iolens_site_resolver_free(struct iolens_site_resolver *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < SITE_CACHE_SLOTS; i++)
        slot_clear(&r->slots[i]);
    free(r->debuginfo_path);
    free(r);
}

/* A descriptor on PATH when it is a regular file that starts like an ELF
 * file; -1 otherwise. */
static int open_elf_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    unsigned char ident[SELFMAG];
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        pread(fd, ident, sizeof ident, 0) != (ssize_t)sizeof ident ||
        memcmp(ident, ELFMAG, SELFMAG) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* An offline session holding PATH alone, at its link-time addresses
 * (plus the bias libdw reports for a shared object). */
static void slot_open(struct iolens_site_resolver *r, struct site_module *slot)
{
    int fd = open_elf_file(slot->path);
    if (fd < 0)
        return;
    Dwfl *dwfl = dwfl_begin(&r->callbacks);
    if (!dwfl) {
        close(fd);
        return;
    }
    dwfl_report_begin(dwfl);
    /* On success libdw owns the descriptor (dwfl_end closes it); on
     * failure it leaves it to us. */
    Dwfl_Module *module = dwfl_report_offline(dwfl, slot->path, slot->path, fd);
    if (!module)
        close(fd);
    if (dwfl_report_end(dwfl, NULL, NULL) != 0 || !module) {
        dwfl_end(dwfl);
        return;
    }
    slot->dwfl = dwfl;
    slot->module = module;
}

/* The cached session for PATH, opened (in a free slot or the least
 * recently used one) when it is not cached.  NULL when out of memory. */
static struct site_module *module_for(struct iolens_site_resolver *r, const char *path)
{
    struct site_module *victim = &r->slots[0];
    for (size_t i = 0; i < SITE_CACHE_SLOTS; i++) {
        struct site_module *slot = &r->slots[i];
        if (slot->path && strcmp(slot->path, path) == 0) {
            slot->last_use = ++r->clock;
            return slot;
        }
        if (!slot->path)
            victim = slot;
        else if (victim->path && slot->last_use < victim->last_use)
            victim = slot;
    }
    slot_clear(victim);
    victim->path = strdup(path);
    if (!victim->path)
        return NULL;
    victim->last_use = ++r->clock;
    slot_open(r, victim);
    return victim;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    size_t len = strnlen(src, size - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static int build_id_matches(Dwfl_Module *module, const unsigned char *build_id, size_t len)
{
    const unsigned char *bits;
    GElf_Addr vaddr;
    int have = dwfl_module_build_id(module, &bits, &vaddr);
    return have > 0 && (size_t)have == len && memcmp(bits, build_id, len) == 0;
}

static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
    return name && *name ? name : NULL;
}

/* Whether code at PC may lie inside DIE's children: a code scope holding
 * PC, or a namespace (C++) or module (Fortran), which has no range of its
 * own but may hold functions. */
static int may_hold(Dwarf_Die *die, int tag, Dwarf_Addr pc)
{
    switch (tag) {
    case DW_TAG_namespace:
    case DW_TAG_module:
        return 1;
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
        return dwarf_haspc(die, pc) == 1;
    default:
        return 0;
    }
}

/* The innermost function around PC in the compile unit CU, an inlined
 * one's own name when the call was inlined.  Walks down only through the
 * scopes that hold PC: dwarf_getscopes, which tries every DIE of the
 * unit, took four times as long as the rest of a resolution. */
static const char *dwarf_function_at(Dwarf_Die *cu, Dwarf_Addr pc)
{
    const char *function = NULL;
    Dwarf_Die scope = *cu, die;
    int descended = 1;
    while (descended && dwarf_child(&scope, &die) == 0) {
        descended = 0;
        do {
            int tag = dwarf_tag(&die);
            if (!may_hold(&die, tag, pc))
                continue;
            if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
                const char *name = die_name(&die);
                if (name)
                    function = name;
            }
            scope = die;
            descended = 1;
            break;
        } while (dwarf_siblingof(&die, &die) == 0);
    }
    return function;
}

/* The ELF function symbol (.symtab, else .dynsym) whose extent holds
 * ADDR: never the nearest symbol before an address no function covers. */
static const char *symbol_function_at(Dwfl_Module *module, Dwarf_Addr addr)
{
    GElf_Off into;
    GElf_Sym sym;
    const char *name = dwfl_module_addrinfo(module, addr, &into, &sym, NULL, NULL, NULL);
    if (!name || !*name)
        return NULL;
    int type = GELF_ST_TYPE(sym.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || into >= sym.st_size)
        return NULL;
    return name;
}

/* FILE as the line table names it, under the compilation directory when
 * relative (a build that compiled "../src/io.c" from "build/"), so that
 * it names the source wherever the tool runs. */
static void copy_source_path(char *dst, size_t size, const char *comp_dir, const char *file)
{
    size_t dir_len = comp_dir && comp_dir[0] == '/' && file[0] != '/' ? strnlen(comp_dir, size) : 0;
    if (dir_len == 0 || dir_len + 1 >= size) {
        copy_text(dst, size, file);
        return;
    }
    memcpy(dst, comp_dir, dir_len);
    dst[dir_len] = '/';
    copy_text(dst + dir_len + 1, size - dir_len - 1, file);
}

static void describe_address(Dwfl_Module *module, Dwarf_Addr addr, struct iolens_site_where *out)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(module, addr, &bias);
    const char *function = cu ? dwarf_function_at(cu, addr - bias) : NULL;
    if (!function)
        function = symbol_function_at(module, addr);
    if (!function)
        return;
    copy_text(out->function, sizeof out->function, function);
    out->status = IOLENS_SITE_RESOLVED;
    Dwfl_Line *line = dwfl_module_getsrc(module, addr);
    int lineno = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (file && *file && lineno > 0) {
        copy_source_path(out->file, sizeof out->file, dwfl_line_comp_dir(line), file);
        out->line = (unsigned)lineno;
    }
}

void iolens_site_resolve(struct iolens_site_resolver *r, const char *module_path,
                         const unsigned char *build_id, size_t build_id_len, uint64_t offset,
                         struct iolens_site_where *out)
{
    *out = (struct iolens_site_where){.status = IOLENS_SITE_MISSING};
    if (!r || !module_path || !*module_path)
        return;
    struct site_module *slot = module_for(r, module_path);
    if (!slot || !slot->dwfl)
        return;
    if (build_id_len > 0 && !build_id_matches(slot->module, build_id, build_id_len)) {
        out->status = IOLENS_SITE_CHANGED;
        return;
    }
    out->status = IOLENS_SITE_NO_DEBUG;
    Dwarf_Addr low, high, bias;
    dwfl_module_info(slot->module, NULL, &low, &high, NULL, NULL, NULL, NULL);
    if (!dwfl_module_getelf(slot->module, &bias))
        return;
    /* The call instruction ends at the return address: look up the byte
     * before it, which a tail position's next line cannot claim. */
    if (offset == 0 || offset - 1 > UINT64_MAX - bias)
        return;
    Dwarf_Addr addr = offset - 1 + bias;
    if (addr < low || addr >= high)
        return;
    describe_address(slot->module, addr, out);
}
