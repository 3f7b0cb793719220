/* Online access-pattern detector (access_pattern.h). */
#include "layers/access_pattern.h"

#include "iolens/log_format.h"

/* iolens_pat_pack writes the layers' counters in table order. */
#define SAME_ORDER(L)                                                                  \
    _Static_assert(L##_PAT_CONSEC - L##_PAT_STEPS == IOLENS_PAT_CONSEC &&               \
                       L##_PAT_STRIDE - L##_PAT_STEPS == IOLENS_PAT_STRIDE &&           \
                       L##_PAT_GROUP_STEPS - L##_PAT_STEPS == IOLENS_PAT_GROUP_STEPS,   \
                   #L " pattern counters")
SAME_ORDER(POSIX);
SAME_ORDER(MPIIO);

/* The slot of the two with the smaller count: the one a miss replaces
 * (slot 1 on a tie, so an established slot 0 stays). */
static int weaker_run_slot(const struct iolens_pat_run_slot *s)
{
    return s[0].steps < s[1].steps ? 0 : 1;
}

static void credit_run(struct iolens_pat_run_slot *slots, int64_t stride, int64_t len)
{
    for (int i = 0; i < 2; i++)
        if (slots[i].stride == stride && slots[i].steps > 0) {
            slots[i].steps += len;
            return;
        }
    slots[weaker_run_slot(slots)] = (struct iolens_pat_run_slot){stride, len};
}

static void credit_group(struct iolens_pat_group_slot *slots, int64_t stride, int64_t run,
                         int64_t jump)
{
    for (int i = 0; i < 2; i++) {
        struct iolens_pat_group_slot *g = &slots[i];
        if (g->count > 0 && g->stride == stride && g->run == run && g->jump == jump) {
            g->count++;
            return;
        }
    }
    int weaker = slots[0].count < slots[1].count ? 0 : 1;
    slots[weaker] = (struct iolens_pat_group_slot){stride, run, jump, 1};
}

void iolens_pat_step_change(struct iolens_access_pattern *p, int64_t step)
{
    if (p->run_len == 0) { /* the first step, or the first after a jump */
        p->run_stride = step;
        p->run_len = 1;
        return;
    }
    /* step ends the current run: it is the jump of a group. */
    credit_run(p->runs, p->run_stride, p->run_len);
    credit_group(p->groups, p->run_stride, p->run_len, step);
    p->done_steps += p->run_len + 1;
    p->run_len = 0; /* run_stride stays: a step equal to it starts the next run */
}

static const struct iolens_pat_run_slot *best_run(const struct iolens_pat_run_slot *s)
{
    return s[1].steps > s[0].steps ? &s[1] : &s[0];
}

static const struct iolens_pat_group_slot *best_group(const struct iolens_pat_group_slot *s)
{
    return s[1].count > s[0].count ? &s[1] : &s[0];
}

static void pack_stride(const struct iolens_access_pattern *p, int64_t *out)
{
    struct iolens_pat_run_slot runs[2] = {p->runs[0], p->runs[1]};
    if (p->run_len > 0)
        credit_run(runs, p->run_stride, p->run_len);
    const struct iolens_pat_run_slot *r = best_run(runs);
    out[IOLENS_PAT_STRIDE] = r->steps > 0 ? r->stride : 0;
    out[IOLENS_PAT_STRIDE_STEPS] = r->steps;
}

/* The most frequent group signature; the current run counts as a
 * trailing partial group when it has the signature's stride and is no
 * longer than its run. */
static void pack_groups(const struct iolens_access_pattern *p, int64_t *out)
{
    const struct iolens_pat_group_slot *g = best_group(p->groups);
    if (g->count == 0) {
        out[IOLENS_PAT_INNER_STRIDE] = out[IOLENS_PAT_INNER_COUNT] = 0;
        out[IOLENS_PAT_OUTER_STRIDE] = out[IOLENS_PAT_GROUPS] = 0;
        out[IOLENS_PAT_GROUP_STEPS] = 0;
        return;
    }
    int trailing = p->run_len > 0 && p->run_stride == g->stride && p->run_len <= g->run;
    out[IOLENS_PAT_INNER_STRIDE] = g->stride;
    out[IOLENS_PAT_INNER_COUNT] = g->run + 1;
    /* Wrapping arithmetic: absurd offsets must not be undefined behaviour. */
    out[IOLENS_PAT_OUTER_STRIDE] =
        (int64_t)((uint64_t)g->run * (uint64_t)g->stride + (uint64_t)g->jump);
    out[IOLENS_PAT_GROUPS] = g->count + trailing;
    out[IOLENS_PAT_GROUP_STEPS] = g->count * (g->run + 1) + (trailing ? p->run_len : 0);
}

void iolens_pat_pack(const struct iolens_access_pattern *p, int64_t *out)
{
    out[IOLENS_PAT_STEPS] = p->done_steps + p->run_len;
    out[IOLENS_PAT_CONSEC] = p->consec;
    out[IOLENS_PAT_SEQ] = p->seq;
    pack_stride(p, out);
    pack_groups(p, out);
}
