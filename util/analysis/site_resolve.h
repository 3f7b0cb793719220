/* A log's call site (module path, build-id, offset) turned into
 * "function (file:line)" from the module's debug information, through
 * libdw (elfutils).  Runs in the tools after the job, never in the runtime. */
#ifndef IOLENS_ANALYSIS_SITE_RESOLVE_H
#define IOLENS_ANALYSIS_SITE_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

enum iolens_site_status {
    IOLENS_SITE_RESOLVED, /* function known; file and line when the debug info has them */
    IOLENS_SITE_NO_DEBUG, /* module opened, build-id matches (or the log has none), but no
                             function covers the offset: print module+0xoffset and the hint
                             (build with -g, or give the separate debug file) */
    IOLENS_SITE_CHANGED,  /* the module on disk has another build-id than the log's (or none):
                             never resolved */
    IOLENS_SITE_MISSING   /* the module cannot be opened as an ELF file: absent, not a
                             regular file, unreadable, not ELF */
};

struct iolens_site_where {
    enum iolens_site_status status;
    char function[256]; /* "" when unknown */
    char file[1024];    /* the source file, "" when unknown; a path the debug information
                           gives relative is put under its compilation directory */
    unsigned line;      /* 0 when unknown */
};

/* Keeps one libdw session per module path, at most a bounded number at a
 * time (the least recently used is closed beyond that). */
struct iolens_site_resolver;

/* debug_dir: a directory also searched for separate debug files, first,
 * both as DIR/.build-id/xx/yyyy.debug and by the module's .gnu_debuglink
 * name (DIR/<the module's directory>/NAME, then DIR/NAME); NULL: only
 * libdw's default places (the module's directory, its .debug
 * subdirectory, /usr/lib/debug).  NULL when out of memory. */
struct iolens_site_resolver *iolens_site_resolver_new(const char *debug_dir);
void iolens_site_resolver_free(struct iolens_site_resolver *r);

/* offset: the call's RETURN ADDRESS minus the module's load bias
 * (dl_iterate_phdr's dlpi_addr), i.e. a link-time virtual address; the
 * call instruction, offset - 1, is what is looked up.  build_id_len 0 (a
 * log without build-id): resolved without verifying that the module is
 * the one that ran.  The function named is the innermost one at the call,
 * an inlined function's own name when the call was inlined into another,
 * with the line inside it; without DWARF, the ELF symbol's name. */
void iolens_site_resolve(struct iolens_site_resolver *r, const char *module_path,
                         const unsigned char *build_id, size_t build_id_len, uint64_t offset,
                         struct iolens_site_where *out);

#endif
