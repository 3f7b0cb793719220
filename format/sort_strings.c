/* Sort by a string (sort_strings.h). */
#include "format/sort_strings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/sort_u64.h"

/* An item's radix key and its place in the input. */
struct keyed {
    uint64_t key;
    uint64_t index;
};

/* The bytes [from, from + 8) of s as a big-endian number, the bytes past
 * the string's end 0: keys then compare as strcmp compares those bytes. */
static uint64_t key_from(const char *s, size_t from)
{
    const unsigned char *p = (const unsigned char *)s + from;
    uint64_t k = 0;
    unsigned b = 0;
    for (; b < 8 && p[b] != 0; b++)
        k = k << 8 | p[b];
    return b == 0 ? 0 : k << (8 * (8 - b)); /* a shift by 64 is undefined */
}

/* The length of the prefix every string shares (a string's end included:
 * never past the shortest string). */
static size_t common_prefix(const unsigned char *items, size_t n, size_t size,
                            iolens_string_of_fn string_of)
{
    const char *first = string_of(items);
    size_t common = strlen(first);
    for (size_t i = 1; i < n && common > 0; i++) {
        const char *s = string_of(items + i * size);
        size_t k = 0;
        while (k < common && s[k] == first[k])
            k++;
        common = k;
    }
    return common;
}

struct tie_ctx {
    const unsigned char *items;
    size_t size, from;
    iolens_string_of_fn string_of;
};

/* Items whose keys tie: the rest of their strings, then their places. */
static int compare_tied(const void *a, const void *b, void *arg)
{
    const struct tie_ctx *t = arg;
    const struct keyed *x = a, *y = b;
    int c = strcmp(t->string_of(t->items + x->index * t->size) + t->from,
                   t->string_of(t->items + y->index * t->size) + t->from);
    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* A key whose last byte is 0 ended inside its 8 bytes: items tied on it
 * have equal strings, already in their input order (the sort is stable). */
static void order_ties(struct keyed *k, size_t n, struct tie_ctx *t)
{
    size_t a = 0;
    while (a < n) {
        size_t b = a + 1;
        while (b < n && k[b].key == k[a].key)
            b++;
        if (b - a > 1 && (k[a].key & 0xff) != 0)
            qsort_r(k + a, b - a, sizeof *k, compare_tied, t);
        a = b;
    }
}

int iolens_sort_by_string(void *items, size_t n, size_t size, iolens_string_of_fn string_of)
{
    if (n < 2)
        return 0;
    unsigned char *base = items;
    struct keyed *k = malloc(n * sizeof *k);
    unsigned char *copy = malloc(n * size);
    if (k == NULL || copy == NULL) {
        free(k);
        free(copy);
        return -1;
    }
    size_t from = common_prefix(base, n, size, string_of);
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){key_from(string_of(base + i * size), from), i};
    if (iolens_sort_by_u64(k, n, sizeof *k, offsetof(struct keyed, key)) != 0) {
        free(k);
        free(copy);
        return -1;
    }
    struct tie_ctx t = {base, size, from + 8, string_of};
    order_ties(k, n, &t);
    memcpy(copy, base, n * size);
    for (size_t i = 0; i < n; i++)
        memcpy(base + i * size, copy + k[i].index * size, size);
    free(k);
    free(copy);
    return 0;
}
