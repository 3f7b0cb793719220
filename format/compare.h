/* qsort and bsearch comparators shared by the runtime and the tools. */
#ifndef IOLENS_COMPARE_H
#define IOLENS_COMPARE_H

#include <stdint.h>

/* Ascending order of uint64_t values (record ids, hashes).  Compares
 * instead of subtracting: the difference of two ids does not fit an int. */
static inline int iolens_compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#endif
