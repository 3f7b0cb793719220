/* util/analysis/site_resolve.h */
#include <stddef.h>
#include <stdint.h>
enum iolens_site_status {
    IOLENS_SITE_RESOLVED,   /* function known; file/line when the debug info has them */
    IOLENS_SITE_NO_DEBUG,   /* module found, build-id matches, no symbol/line: print module+0xoffset and the hint */
    IOLENS_SITE_CHANGED,    /* the module on disk has another build-id than the log's: never resolved */
    IOLENS_SITE_MISSING     /* the module cannot be opened */
};
struct iolens_site_where {
    enum iolens_site_status status;
    char function[256];     /* "" when unknown */
    char file[1024];        /* "" when unknown */
    unsigned line;          /* 0 when unknown */
};
struct iolens_site_resolver;                         /* caches one Dwfl per module */
struct iolens_site_resolver *iolens_site_resolver_new(const char *debug_dir); /* NULL: libdw's default search path */
void iolens_site_resolver_free(struct iolens_site_resolver *r);
/* offset: the RETURN ADDRESS minus the module's load bias (dl_iterate_phdr's dlpi_addr), i.e. a link-time
   virtual address; the resolver itself looks up offset-1 for the call instruction. */
void iolens_site_resolve(struct iolens_site_resolver *r, const char *module_path,
                         const unsigned char *build_id, size_t build_id_len,
                         uint64_t offset, struct iolens_site_where *out);
