/* Call sites (call_site.h): the per-thread slots, the tables' memory and
 * the sites that come after a record's first one. */
#include "core/call_site.h"

#include <string.h>

#include "core/budget.h"

int iolens_sites_on = 1;
__thread uintptr_t iolens_site_current __attribute__((tls_model("initial-exec")));
__thread uintptr_t iolens_site_outer __attribute__((tls_model("initial-exec")));

/* The spilled bit of a site: return addresses of calls are at least a
 * few bytes apart, so the low bits are mixed with higher ones. */
static uint64_t site_bit(uintptr_t site)
{
    uint64_t h = (uint64_t)site * 0x9e3779b97f4a7c15u;
    return (uint64_t)1 << (h >> 58);
}

/* Adds a slot's figures (a call, or a folded record's site) to s. */
static void slot_add(struct iolens_site_slot *s, const struct iolens_site_slot *call)
{
    s->ops += call->ops;
    s->bytes += call->bytes;
    s->time += call->time;
}

static void spill(struct iolens_site_table *t, struct iolens_site_late *late,
                  const struct iolens_site_slot *s)
{
    t->other_ops += s->ops;
    t->other_bytes += s->bytes;
    t->other_time += s->time;
    if (late != NULL)
        late->spilled |= site_bit(s->addr);
}

/* The kept slot with the fewest bytes: the one a waiting site replaces. */
static struct iolens_site_slot *smallest_kept(struct iolens_site_ref *ref,
                                              struct iolens_site_table *t)
{
    struct iolens_site_slot *min = &ref->first;
    for (int i = 0; i < IOLENS_SITES_KEPT - 1; i++)
        if (t->slot[i].bytes < min->bytes)
            min = &t->slot[i];
    return min;
}

/* The waiting site takes the smallest kept slot once it has more bytes;
 * the site it displaces waits instead (its figures are still all of its
 * calls). */
static void maybe_promote(struct iolens_site_ref *ref, struct iolens_site_table *t,
                          struct iolens_site_late *late)
{
    struct iolens_site_slot *min = smallest_kept(ref, t);
    if (late->waiting.bytes > min->bytes) {
        struct iolens_site_slot kept = *min;
        *min = late->waiting;
        late->waiting = kept;
    }
}

/* The late part, attached at the first call that needs it; NULL if the
 * budget has no room for it. */
static struct iolens_site_late *late_part(struct iolens_site_table *t)
{
    if (t->late == NULL) {
        struct iolens_site_late *late = iolens_budget_alloc(sizeof *late);
        t->late = late != NULL ? late : IOLENS_SITES_NO_LATE;
    }
    return t->late != IOLENS_SITES_NO_LATE ? t->late : NULL;
}

/* Calls from a site that has no kept slot (struct iolens_site_late):
 * they wait, take a kept slot, or are counted in other. */
static void count_late(struct iolens_site_ref *ref, struct iolens_site_table *t,
                       const struct iolens_site_slot *call)
{
    struct iolens_site_late *late = late_part(t);
    if (late == NULL) {
        spill(t, NULL, call);
        return;
    }
    if (late->waiting.addr == call->addr) {
        slot_add(&late->waiting, call);
        maybe_promote(ref, t, late);
        return;
    }
    /* A site with calls in other can never be counted apart; nor can a
     * newcomer while the waiting site has made more than one call. */
    if ((late->spilled & site_bit(call->addr)) != 0 || late->waiting.ops > 1) {
        spill(t, late, call);
        return;
    }
    if (late->waiting.addr != 0)
        spill(t, late, &late->waiting);
    late->waiting = *call;
    maybe_promote(ref, t, late);
}

/* The record keeps no sites at all rather than some (call_site.h). */
static void give_up(struct iolens_site_ref *ref)
{
    ref->first = (struct iolens_site_slot){0, 0, 0, 0.0};
    ref->more = IOLENS_SITES_NONE;
}

/* The table, attached at the second site; NULL (the record gives up its
 * sites) without room. */
static struct iolens_site_table *table_of(struct iolens_site_ref *ref)
{
    if (ref->more == NULL) {
        ref->more = iolens_budget_alloc(sizeof *ref->more);
        if (ref->more == NULL)
            give_up(ref);
    }
    return ref->more != IOLENS_SITES_NONE ? ref->more : NULL;
}

/* Charges call (one call, or a folded record's calls from one site) to
 * its site. */
static void count_slot(struct iolens_site_ref *ref, const struct iolens_site_slot *call)
{
    if (ref->first.addr == 0) {
        ref->first = *call;
        return;
    }
    if (ref->first.addr == call->addr) {
        slot_add(&ref->first, call);
        return;
    }
    struct iolens_site_table *t = table_of(ref);
    if (t == NULL)
        return;
    for (int i = 0; i < IOLENS_SITES_KEPT - 1; i++) {
        struct iolens_site_slot *s = &t->slot[i];
        if (s->addr == call->addr) {
            slot_add(s, call);
            /* The site called most often is the one kept in place, where
             * iolens_sites_count finds it without a call: a loop after a
             * line that wrote a header first soon takes it. */
            if (s->ops > ref->first.ops) {
                struct iolens_site_slot busier = *s;
                *s = ref->first;
                ref->first = busier;
            }
            return;
        }
        /* Slots fill in order and are never emptied: while one is free,
         * nothing waits or went to other (a record folded in with calls
         * in other brought at least as many sites as there are kept
         * slots: iolens_sites_fold), so the site is new. */
        if (s->addr == 0) {
            *s = *call;
            return;
        }
    }
    count_late(ref, t, call);
}

void iolens_sites_count_more(struct iolens_site_ref *ref, uintptr_t site, int64_t bytes,
                             double time)
{
    if (!iolens_sites_on) {
        give_up(ref);
        return;
    }
    struct iolens_site_slot call = {site, 1, bytes, time};
    count_slot(ref, &call);
}

/* The bits of the sites of src whose calls went to other, all of them
 * when it could not tell them (no late part). */
static uint64_t spilled_mask(const struct iolens_site_ref *src)
{
    const struct iolens_site_late *late = src->more->late;
    return late != NULL && late != IOLENS_SITES_NO_LATE ? late->spilled : ~(uint64_t)0;
}

/* Whether one of ref's sites that have slots has a bit in mask. */
static int keeps_any(const struct iolens_site_ref *ref, uint64_t mask)
{
    struct iolens_site_snapshot snap;
    if (!iolens_sites_snapshot(ref, &snap))
        return 0;
    for (int i = 0; i <= IOLENS_SITES_KEPT; i++)
        if (snap.top[i].addr != 0 && (site_bit(snap.top[i].addr) & mask) != 0)
            return 1;
    return 0;
}

void iolens_sites_fold(struct iolens_site_ref *dst, const struct iolens_site_ref *src,
                       int src_had_calls)
{
    if (dst->more == IOLENS_SITES_NONE)
        return;
    struct iolens_site_snapshot snap;
    if (!iolens_sites_snapshot(src, &snap)) {
        if (src_had_calls)
            give_up(dst); /* src's calls have no sites: dst cannot keep them exact */
        return;
    }
    /* Calls of src's spilled sites go to dst's other, and so must every
     * later call of those sites: a site dst keeps apart would then miss
     * some of its calls, so dst keeps none. */
    uint64_t mask = snap.other.ops != 0 ? spilled_mask(src) : 0;
    if (mask != 0 && keeps_any(dst, mask)) {
        give_up(dst);
        return;
    }
    for (int i = 0; i <= IOLENS_SITES_KEPT; i++) {
        const struct iolens_site_slot *s = &snap.top[i];
        if (s->addr != 0 && s->ops != 0)
            count_slot(dst, s);
    }
    if (snap.other.ops == 0)
        return;
    struct iolens_site_table *t = table_of(dst);
    struct iolens_site_late *late = t != NULL ? late_part(t) : NULL;
    if (late == NULL) {
        give_up(dst);
        return;
    }
    spill(t, NULL, &snap.other);
    late->spilled |= mask;
}

int iolens_sites_snapshot(const struct iolens_site_ref *ref, struct iolens_site_snapshot *out)
{
    memset(out, 0, sizeof *out);
    const struct iolens_site_table *t = ref->more;
    if (t == IOLENS_SITES_NONE || ref->first.addr == 0)
        return 0;
    out->top[0] = ref->first;
    if (t == NULL)
        return 1;
    memcpy(&out->top[1], t->slot, sizeof t->slot);
    if (t->late != NULL && t->late != IOLENS_SITES_NO_LATE)
        out->top[IOLENS_SITES_KEPT] = t->late->waiting;
    out->other = (struct iolens_site_slot){0, t->other_ops, t->other_bytes, t->other_time};
    return 1;
}

void iolens_sites_clear(struct iolens_site_ref *ref)
{
    struct iolens_site_table *table = ref->more;
    if (table == IOLENS_SITES_NONE)
        return;
    ref->first = (struct iolens_site_slot){0, 0, 0, 0.0};
    if (table == NULL)
        return;
    struct iolens_site_late *late = table->late;
    memset(table, 0, sizeof *table);
    if (late != NULL && late != IOLENS_SITES_NO_LATE) {
        memset(late, 0, sizeof *late);
        table->late = late;
    }
}

unsigned long iolens_sites_table_size(void)
{
    return (unsigned long)iolens_budget_round(sizeof(struct iolens_site_table));
}
