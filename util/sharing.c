/* Job-level sharing class: placeholder until the classifier lands. */
#include "sharing.h"

const char *iolens_sharing_name(enum iolens_sharing_class c)
{
    (void)c;
    return "none";
}

int iolens_sharing_of_job(const struct iolens_log *log, struct iolens_sharing *out)
{
    (void)log;
    *out = (struct iolens_sharing){.cls = IOLENS_SHARING_NONE, .top_rank = -1};
    return 0;
}
