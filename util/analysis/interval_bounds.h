/* Bounds and estimate of the union of access time from the runtime's
 * stored intervals (BPS, iolens-parser --bps and --perf): pure functions
 * for the tools and the unit tests (the runtime does not call them). */
#ifndef IOLENS_INTERVAL_BOUNDS_H
#define IOLENS_INTERVAL_BOUNDS_H

#include <stddef.h>

/*
 * Bounds of the union when the intervals are the runtime's stored ones,
 * which may each stand for several accesses merged across idle gaps
 * (lib/layers/interval_store.h).  An item is one stored interval: its span, the
 * summed durations of its accesses (busy) and its group, the accesses of
 * one store (one rank's layer).  A group is `disjoint` when its accesses
 * never overlap each other (the runtime measured it: one thread's
 * blocking calls); floor is a lower bound of the union of the group's
 * accesses known otherwise (0 if none).  error_bound: the union of the
 * spans exceeds the true union by at most this (the gaps merged).
 *
 * Let S be the union of all spans, S_g that of group g's, and
 * L_g <= the union of g's accesses (a disjoint group: its busy summed,
 * exactly; else floor).  Then, each access lying inside its item's span:
 *   upper = sum over the connected parts P of S of min(|P|, busy in P)
 *           (never above the summed busy time nor S, so never above the
 *           time from the first access to the last);
 *   lower = the largest of S - error_bound, max L_g, and
 *           sum L_g - (sum |S_g| - |S|) (two groups can only overlap
 *           where their spans do);
 * and the estimate assumes each item's busy time spread evenly over its
 * span (density busy / span), densities of a disjoint group adding up,
 * and different groups independent: over each stretch of time, 1 minus
 * the product of (1 - density) over the groups busy then.  It is clamped
 * to [lower, upper]: exact whenever lower = upper, as with one disjoint
 * group (a serial program) or groups whose spans do not overlap.
 */
struct iolens_union_item {
    double start, end;
    double busy;               /* summed durations of its accesses, >= 0 */
    size_t group;              /* < ngroups */
};

struct iolens_union_group {
    int disjoint;
    double floor;              /* seconds, >= 0 */
};

struct iolens_union_bounds {
    double lower, estimate, upper;
    double spans;              /* |S|, the union of the spans */
};

/* Reorders items.  Returns 0, or -1 when out of memory. */
int iolens_union_bounds(struct iolens_union_item *items, size_t n,
                        const struct iolens_union_group *groups, size_t ngroups,
                        double error_bound, struct iolens_union_bounds *out);

#endif
