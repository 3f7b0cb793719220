/* The test program's first source (test_site_resolve.c): each SITE tag
 * comment marks the line whose call the resolver must name. */
#include "site_record.h"

void write_particles(void);
#ifdef SITE_WITH_LIB
void lib_checkpoint(void);
#endif

static void compute_step(void)
{
    record_site("compute_step"); /* SITE:compute_step */
}

int main(void)
{
    record_site("main"); /* SITE:main */
    compute_step();
    write_particles();
#ifdef SITE_WITH_LIB
    lib_checkpoint();
#endif
#ifdef SITE_VARIANT
    puts("the rebuilt variant: other code, other build-id");
#endif
    return 0;
}
