/* Counter rules for one access: size bins, alignment, common values and
 * non-overlapping time. */
#include "access_stats.h"

#include <string.h>

#include "iolens/log_format.h"

int iolens_is_misaligned(uint64_t value, int64_t alignment)
{
    if (alignment <= 0)
        return 0;
    return value % (uint64_t)alignment != 0;
}

static int find_value(const struct iolens_common_values *cv, int64_t value)
{
    for (int i = 0; i < cv->used; i++)
        if (cv->value[i] == value)
            return i;
    return -1;
}

/* The slot to give up when all are taken: the lowest count, the first one
 * on a tie so that the choice is deterministic. */
static int least_frequent(const struct iolens_common_values *cv)
{
    int min = 0;
    for (int i = 1; i < cv->used; i++)
        if (cv->count[i] < cv->count[min])
            min = i;
    return min;
}

static void common_add_count(struct iolens_common_values *cv, int64_t value, int64_t count)
{
    int i = find_value(cv, value);
    if (i >= 0) {
        cv->count[i] += count;
    } else if (cv->used < IOLENS_COMMON_SLOTS) {
        i = cv->used++;
        cv->value[i] = value;
        cv->count[i] = count;
    } else {
        /* Space-saving: the newcomer inherits the evicted count, so its
         * count is an upper bound and a frequent value cannot be starved
         * by a stream of rare ones. */
        i = least_frequent(cv);
        cv->value[i] = value;
        cv->count[i] += count;
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

void iolens_common_top(const struct iolens_common_values *cv, int n,
                       int64_t *values, int64_t *counts)
{
    int64_t v[IOLENS_COMMON_SLOTS], c[IOLENS_COMMON_SLOTS];
    int used = cv->used;
    memcpy(v, cv->value, sizeof(int64_t) * (size_t)used);
    memcpy(c, cv->count, sizeof(int64_t) * (size_t)used);
    sort_pairs(v, c, used);
    for (int i = 0; i < n; i++) {
        values[i] = i < used ? v[i] : 0;
        counts[i] = i < used ? c[i] : 0;
    }
}

/*
 * Merging two summaries: the union of their values with summed counts,
 * keeping the IOLENS_COMMON_SLOTS most frequent.  Exact while the union has
 * at most IOLENS_COMMON_SLOTS values; beyond that the least frequent
 * values of the union are dropped, which keeps the heavy hitters.
 */
void iolens_common_merge(struct iolens_common_values *dst, const struct iolens_common_values *src)
{
    int64_t v[2 * IOLENS_COMMON_SLOTS], c[2 * IOLENS_COMMON_SLOTS];
    int n = dst->used;
    memcpy(v, dst->value, sizeof(int64_t) * (size_t)n);
    memcpy(c, dst->count, sizeof(int64_t) * (size_t)n);
    for (int s = 0; s < src->used; s++) {
        int i = 0;
        while (i < n && v[i] != src->value[s])
            i++;
        if (i == n) {
            v[n] = src->value[s];
            c[n] = 0;
            n++;
        }
        c[i] += src->count[s];
    }
    sort_pairs(v, c, n);
    dst->used = n < IOLENS_COMMON_SLOTS ? n : IOLENS_COMMON_SLOTS;
    memcpy(dst->value, v, sizeof(int64_t) * (size_t)dst->used);
    memcpy(dst->count, c, sizeof(int64_t) * (size_t)dst->used);
}
