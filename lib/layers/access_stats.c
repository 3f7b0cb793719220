/* Counter rules for one access: size bins, alignment, common values and
 * non-overlapping time. */
#include "layers/access_stats.h"

#include <string.h>

#include "core/budget.h"
#include "iolens/log_format.h"

int iolens_is_misaligned(uint64_t value, int64_t alignment)
{
    if (alignment <= 0)
        return 0;
    return value % (uint64_t)alignment != 0;
}

/* The slots in use and how many there may be. */
static int capacity(const struct iolens_common_values *cv)
{
    return cv->ext != NULL ? IOLENS_COMMON_SLOTS : IOLENS_COMMON_INLINE;
}

static int find_value(const struct iolens_common_values *cv, int64_t value)
{
    const int64_t *v = iolens_common_cvalues_of(cv);
    for (int i = 0; i < cv->used; i++)
        if (v[i] == value)
            return i;
    return -1;
}

/* Moves the inline slots to a full table from the budget (once; a refusal
 * is remembered, so a file of many values does not ask on every one). */
static void grow(struct iolens_common_values *cv)
{
    if (cv->ext != NULL || cv->no_ext)
        return;
    struct iolens_common_ext *ext = iolens_budget_alloc(sizeof *ext);
    if (ext == NULL) {
        cv->no_ext = 1;
        return;
    }
    memcpy(ext->value, cv->value, sizeof cv->value);
    memcpy(ext->count, cv->count, sizeof cv->count);
    cv->ext = ext;
}

/* The slot to give up when all are taken: the lowest count, the first one
 * on a tie so that the choice is deterministic. */
static int least_frequent(const struct iolens_common_values *cv)
{
    const int64_t *c = iolens_common_ccounts_of(cv);
    int min = 0;
    for (int i = 1; i < cv->used; i++)
        if (c[i] < c[min])
            min = i;
    return min;
}

static void common_add_count(struct iolens_common_values *cv, int64_t value, int64_t count)
{
    int i = find_value(cv, value);
    if (i < 0 && cv->used == capacity(cv))
        grow(cv);
    int64_t *v = iolens_common_values_of(cv), *c = iolens_common_counts_of(cv);
    if (i >= 0) {
        c[i] += count;
    } else if (cv->used < capacity(cv)) {
        i = cv->used++;
        v[i] = value;
        c[i] = count;
    } else {
        /* Space-saving: the newcomer inherits the evicted count, so its
         * count is an upper bound and a frequent value cannot be starved
         * by a stream of rare ones. */
        i = least_frequent(cv);
        v[i] = value;
        c[i] += count;
        cv->estimated = 1;
    }
    cv->last = i;
}

void iolens_common_add_search(struct iolens_common_values *cv, int64_t value)
{
    common_add_count(cv, value, 1);
}

static int ranks_before(int64_t count_a, int64_t value_a, int64_t count_b, int64_t value_b)
{
    return count_a > count_b || (count_a == count_b && value_a > value_b);
}

/* Sorts (value, count) pairs, most frequent first, ties larger value
 * first.  At most 2 * IOLENS_COMMON_SLOTS pairs: insertion sort. */
static void sort_pairs(int64_t *values, int64_t *counts, int n)
{
    for (int i = 1; i < n; i++) {
        int64_t v = values[i], c = counts[i];
        int j = i;
        for (; j > 0 && ranks_before(c, v, counts[j - 1], values[j - 1]); j--) {
            values[j] = values[j - 1];
            counts[j] = counts[j - 1];
        }
        values[j] = v;
        counts[j] = c;
    }
}

int iolens_common_top(const struct iolens_common_values *cv, int n, int64_t *values,
                      int64_t *counts)
{
    int64_t v[IOLENS_COMMON_SLOTS], c[IOLENS_COMMON_SLOTS];
    int used = cv->used;
    memcpy(v, iolens_common_cvalues_of(cv), sizeof(int64_t) * (size_t)used);
    memcpy(c, iolens_common_ccounts_of(cv), sizeof(int64_t) * (size_t)used);
    sort_pairs(v, c, used);
    for (int i = 0; i < n; i++) {
        values[i] = i < used ? v[i] : 0;
        counts[i] = i < used ? c[i] : 0;
    }
    if (cv->estimated)
        return IOLENS_TOP_ESTIMATE;
    return used > n ? IOLENS_TOP_EXACT : IOLENS_TOP_EXACT_ALL;
}

/*
 * Merging two summaries: the union of their values with summed counts,
 * keeping the most frequent that fit.  Exact while the union fits; beyond
 * that the least frequent values of the union are dropped, which keeps
 * the heavy hitters, and the result is marked estimated.
 */
void iolens_common_merge(struct iolens_common_values *dst, const struct iolens_common_values *src)
{
    int64_t v[2 * IOLENS_COMMON_SLOTS], c[2 * IOLENS_COMMON_SLOTS];
    int n = dst->used;
    memcpy(v, iolens_common_cvalues_of(dst), sizeof(int64_t) * (size_t)n);
    memcpy(c, iolens_common_ccounts_of(dst), sizeof(int64_t) * (size_t)n);
    const int64_t *sv = iolens_common_cvalues_of(src), *sc = iolens_common_ccounts_of(src);
    for (int s = 0; s < src->used; s++) {
        int i = 0;
        while (i < n && v[i] != sv[s])
            i++;
        if (i == n) {
            v[n] = sv[s];
            c[n] = 0;
            n++;
        }
        c[i] += sc[s];
    }
    sort_pairs(v, c, n);
    if (n > capacity(dst))
        grow(dst);
    int cap = capacity(dst);
    dst->estimated |= src->estimated | (n > cap);
    dst->used = n < cap ? n : cap;
    dst->last = 0;
    memcpy(iolens_common_values_of(dst), v, sizeof(int64_t) * (size_t)dst->used);
    memcpy(iolens_common_counts_of(dst), c, sizeof(int64_t) * (size_t)dst->used);
}
