/* A debugging aid for shell tests: resolves call sites the way the tools
 * do (util/analysis/site_resolve.c), one line per offset:
 *     resolve_site [-d DEBUG_DIR] MODULE BUILD_ID OFFSET...
 * BUILD_ID in hex, or "-" for none; OFFSET in hex (the return address
 * minus the module's load bias).  Prints
 *     resolved FUNCTION FILE:LINE   (":0" and an empty FILE when unknown)
 *     no-debug | changed | missing
 * Not installed: no user-facing command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/site_resolve.h"
#include "../unit/analysis/hex_bytes.h"

/* BUILD_ID as given: hex, or "-" for none. */
static size_t parse_build_id(const char *hex, unsigned char *out, size_t size)
{
    return strcmp(hex, "-") == 0 ? 0 : hex_bytes(hex, out, size);
}

static void print_where(const struct iolens_site_where *w)
{
    switch (w->status) {
    case IOLENS_SITE_RESOLVED:
        printf("resolved %s %s:%u\n", w->function, w->file, w->line);
        break;
    case IOLENS_SITE_NO_DEBUG:
        printf("no-debug\n");
        break;
    case IOLENS_SITE_CHANGED:
        printf("changed\n");
        break;
    case IOLENS_SITE_MISSING:
        printf("missing\n");
        break;
    }
}

int main(int argc, char **argv)
{
    const char *debug_dir = NULL;
    int arg = 1;
    if (argc > 2 && strcmp(argv[1], "-d") == 0) {
        debug_dir = argv[2];
        arg = 3;
    }
    if (argc - arg < 3) {
        fprintf(stderr, "usage: %s [-d DEBUG_DIR] MODULE BUILD_ID|- OFFSET...\n", argv[0]);
        return 2;
    }
    unsigned char build_id[64];
    size_t build_id_len = parse_build_id(argv[arg + 1], build_id, sizeof build_id);
    struct iolens_site_resolver *r = iolens_site_resolver_new(debug_dir);
    if (!r)
        return 1;
    for (int i = arg + 2; i < argc; i++) {
        struct iolens_site_where w;
        iolens_site_resolve(r, argv[arg], build_id, build_id_len, strtoull(argv[i], NULL, 16),
                            &w);
        print_where(&w);
    }
    iolens_site_resolver_free(r);
    return 0;
}
