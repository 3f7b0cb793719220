/* Sorting items by a string they hold, in strcmp order, for the names the
 * runtime writes at shutdown.  qsort with strcmp reads two names a compare
 * through a call by pointer, about 14 compares a name at 10000 names; this
 * reads each name once for a radix key (the 8 bytes after the prefix all
 * the names share), sorts the keys (sort_u64.h), and compares whole names
 * only where keys tie. */
#ifndef IOLENS_SORT_STRINGS_H
#define IOLENS_SORT_STRINGS_H

#include <stddef.h>

/* The string of an item (never NULL). */
typedef const char *(*iolens_string_of_fn)(const void *item);

/* Sorts n items of size bytes each in place, ascending by strcmp of
 * string_of(item).  Items with equal strings keep their order.  Returns
 * 0, or -1 when scratch memory could not be had, the items then
 * untouched. */
int iolens_sort_by_string(void *items, size_t n, size_t size, iolens_string_of_fn string_of);

#endif
