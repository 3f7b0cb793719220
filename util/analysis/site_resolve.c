/* STUB: stands in for the libdw resolver of branch resolve18, which replaces
   this file. It resolves nothing: every site is reported without debug info. */
#include "analysis/site_resolve.h"

#include <stdlib.h>
#include <string.h>

struct iolens_site_resolver {
    int unused;
};

struct iolens_site_resolver *iolens_site_resolver_new(const char *debug_dir)
{
    (void)debug_dir;
    return calloc(1, sizeof(struct iolens_site_resolver));
}

void iolens_site_resolver_free(struct iolens_site_resolver *r)
{
    free(r);
}

void iolens_site_resolve(struct iolens_site_resolver *r, const char *module_path,
                         const unsigned char *build_id, size_t build_id_len,
                         uint64_t offset, struct iolens_site_where *out)
{
    (void)r; (void)module_path; (void)build_id; (void)build_id_len; (void)offset;
    memset(out, 0, sizeof *out);
    out->status = IOLENS_SITE_NO_DEBUG;
}
