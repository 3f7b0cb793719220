/* The test program's second source (test_site_resolve.c).  pack_particles
 * is inlined even at -O0: its call is named after it, the innermost
 * function, not after write_particles that holds its code. */
#include "site_record.h"

static inline __attribute__((always_inline)) void pack_particles(void)
{
    record_site("pack_particles"); /* SITE:pack_particles */
}

void write_particles(void)
{
    int step = 1;
    if (step)
        record_site("write_particles"); /* SITE:write_particles */
    pack_particles();
}
