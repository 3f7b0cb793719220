/* Comparators and a search over sorted ids, shared by the runtime and
 * the tools. */
#ifndef IOLENS_COMPARE_H
#define IOLENS_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Ascending order of uint64_t values (record ids, hashes).  Compares
 * instead of subtracting: the difference of two ids does not fit an int. */
static inline int iolens_compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The first of the n ascending values v[] that is not below x (n if
 * none).  A plain loop: called once per record or file, where bsearch's
 * compare through a function pointer would cost more than the search.
 * Branch-free (the answer lies in [lo, lo + len]; each step halves len
 * with a conditional move): the branch of a textbook bisection is a coin
 * toss the processor mispredicts at every other step. */
static inline size_t iolens_u64_lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
    if (n == 0)
        return 0;
    size_t lo = 0, len = n;
    while (len > 1) {
        size_t half = len / 2;
        lo = v[lo + half] < x ? lo + half : lo;
        len -= half;
    }
    return lo + (v[lo] < x);
}

#endif
