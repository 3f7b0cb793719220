/* Sorting items by a 64-bit key, for the runtime's shutdown and the
 * tools: ids, places and times are uint64_t, and a radix sort on them
 * costs a fraction of qsort's call through a function pointer per
 * compare (the 8-rank shutdown sorted 10000 ids a rank seven times). */
#ifndef IOLENS_SORT_U64_H
#define IOLENS_SORT_U64_H

#include <stddef.h>

/* Sorts n items of size bytes each in place, ascending by the uint64_t
 * stored (in the host's byte order) at key_offset in each item.  Stable:
 * items with equal keys keep their order.  size is 8, 16, 24 or 32, and
 * key_offset + 8 <= size.  Returns 0, or -1 when the scratch (n * size
 * bytes) could not be allocated, the items then untouched; -1 too for an
 * unsupported size. */
int iolens_sort_by_u64(void *items, size_t n, size_t size, size_t key_offset);

#endif
