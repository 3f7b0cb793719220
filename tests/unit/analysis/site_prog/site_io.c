/* The test program's second source (test_site_resolve.c). */
#include "site_record.h"

void write_particles(void)
{
    int step = 1;
    if (step)
        record_site("write_particles"); /* SITE:write_particles */
}
