/* A test aid for shell tests: every call-site entry of a log as its sites
 * regions hold them, before any merging, one line each:
 *     REGION_RANK LAYER_KIND FILE MODULE_PATH OFFSET_HEX OPS BYTES
 * (FILE: the record's name; MODULE_PATH "-" for a record's other sites).
 * So a test sees which rank's region holds a record's sites, which the
 * tools' merged views do not show.  Not installed. */
#include <stdio.h>

#include "reader/reader.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: log_sites LOG\n");
        return 1;
    }
    struct iolens_log log;
    char err[256];
    if (iolens_log_read(argv[1], &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, "log_sites: %s\n", err);
        return 2;
    }
    for (size_t i = 0; i < log.nsites; i++) {
        const struct iolens_log_site *s = &log.sites[i];
        const char *name = iolens_log_name_of(&log, s->record_id);
        const char *module =
            s->module == IOLENS_SITE_OTHER ? "-" : log.site_modules[s->module].path;
        printf("%lld %u %s %s %llx %llu %lld\n", (long long)s->rank, s->layer_kind,
               name != NULL ? name : "?", module, (unsigned long long)s->offset,
               (unsigned long long)s->ops, (long long)s->bytes);
    }
    iolens_log_free(&log);
    return 0;
}
