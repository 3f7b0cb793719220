/* The shared library of the test program (test_site_resolve.c). */
#include "site_record.h"

void lib_checkpoint(void)
{
    record_site("lib_checkpoint"); /* SITE:lib_checkpoint */
}
