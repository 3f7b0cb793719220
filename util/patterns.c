/* Access-pattern labels: placeholder until the classifier lands. */
#include "patterns.h"

const char *iolens_pattern_name(enum iolens_pattern_kind kind)
{
    (void)kind;
    return "unknown";
}

void iolens_pattern_of_record(const struct iolens_log_layer *L, uint64_t rec,
                              struct iolens_pattern *out)
{
    (void)L; (void)rec;
    *out = (struct iolens_pattern){.kind = IOLENS_PATTERN_UNKNOWN};
}
