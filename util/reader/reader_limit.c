/* The reader's limit on the decompressed size of one log (reader.h):
 * every tool's peak memory follows what a log decompresses to, so one
 * limit, checked on the region table before anything is inflated, bounds
 * them all.  The limit is IOLENS_MAX_LOG_SIZE (default 1 GiB) unless a
 * tool set it (iolens-parser --max-log-size). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader_internal.h"

static uint64_t chosen_limit;   /* 0: not set by the tool */

int iolens_log_parse_size(const char *s, uint64_t *bytes)
{
    if (s == NULL || !isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    default: break;
    }
    if (shift > 0) {
        end++;
        if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0)
            end += strlen(end);
    }
    if (*end != '\0' || v == 0 || v > UINT64_MAX >> shift)
        return -1;
    *bytes = (uint64_t)v << shift;
    return 0;
}

void iolens_log_set_max_size(uint64_t bytes) { chosen_limit = bytes; }

enum iolens_read_status rd_current_limit(struct reader *r, uint64_t *limit)
{
    *limit = IOLENS_DEFAULT_MAX_LOG_SIZE;
    if (chosen_limit > 0) {
        *limit = chosen_limit;
        return IOLENS_READ_OK;
    }
    const char *env = getenv("IOLENS_MAX_LOG_SIZE");
    if (env == NULL || *env == '\0')
        return IOLENS_READ_OK;
    if (iolens_log_parse_size(env, limit) != 0)
        return rd_fail(r, IOLENS_READ_IO, "IOLENS_MAX_LOG_SIZE: '%.40s' is not a size (bytes, "
                       "or a number with K, M, G or T)", env);
    return IOLENS_READ_OK;
}

enum iolens_read_status rd_check_log_size(struct reader *r, const struct iolens_region_desc *table,
                                          unsigned count)
{
    uint64_t limit, total = 0;
    enum iolens_read_status st = rd_current_limit(r, &limit);
    if (st != IOLENS_READ_OK)
        return st;
    /* Regions of kinds (or versions) the reader skips are never inflated. */
    for (unsigned i = 0; i < count; i++) {
        if (iolens_region_readable(table[i].kind, table[i].version) &&
            rd_raw_size_possible(&table[i]) &&
            __builtin_add_overflow(total, table[i].raw_size, &total))
            total = UINT64_MAX;
    }
    if (total > limit)
        return rd_fail(r, IOLENS_READ_NOMEM,
                       "the log claims %llu decompressed bytes, more than the limit of %llu "
                       "(IOLENS_MAX_LOG_SIZE)",
                       (unsigned long long)total, (unsigned long long)limit);
    return IOLENS_READ_OK;
}
